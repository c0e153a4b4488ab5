"""The per-player summary of an archive (``domino stats``), from the runner's plain results.

For each player, by name across records (case and blanks do not count: ``alice`` is ``Alice``):

- ``games``: games the player sits in; ``decisions``: the player's moves that were a real choice
  (more than one legal move) in the analysed part of those games.
- ``open_loss``: the average loss of those decisions, in points, with every hand open (the
  analyser's exact values): how much worse the move played was than the best one. It, the mistakes
  and the accuracy count only the decisions that have open-hands values: a record that does not show
  every hand has none (its decisions are judged by the fair analysis alone).
- ``fair_loss``: the same against the fair analysis (what the player could know: his own hand and
  the play so far), over the decisions it judged. It is filled with ``domino stats --fair``
  (decisions whose ``fair`` member has a loss); otherwise None.
- ``mistakes_per_100``: decisions classed a mistake or a blunder (open hands) per 100 decisions;
  ``real_mistakes_per_100`` and ``hindsight_mistakes_per_100``: per 100 decisions the fair analysis
  judged, those it calls a real mistake (its fair loss passes a threshold and the gap to the best
  move is significant) and those only hindsight shows (the open-hands loss does, the fair loss does
  not). Both None without fair data.
- ``accuracy``: the share of decisions, in per cent, where the move played lost less than the
  inaccuracy threshold (3 points by default) against the best move: 100 means every choice was best
  or within a point or two of it. Like a bridge player's share of boards without a mistake, it does
  not grow with the size of the losses, only with how often the player got it right.
- ``errors_per_record``: errors of the record found on the player's own moves (an illegal tile, a
  pass while holding a match...) per game: a measure of the transcription, not of the play."""
from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, field

__all__ = ["PlayerRow", "player_key", "player_rows", "rows_csv", "rows_table", "csv_text", "COLUMNS"]

_MISTAKES = ("mistake", "blunder")


@dataclass
class PlayerRow:
    player: str
    games: int = 0
    decisions: int = 0
    open_loss: float | None = None
    fair_loss: float | None = None
    mistakes_per_100: float | None = None
    real_mistakes_per_100: float | None = None
    hindsight_mistakes_per_100: float | None = None
    accuracy: float | None = None
    errors_per_record: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


COLUMNS = tuple(PlayerRow.__dataclass_fields__)


@dataclass
class _Tally:
    games: int = 0
    errors: int = 0
    decisions: int = 0
    losses: list[int] = field(default_factory=list)         # of the decisions with open-hands values
    classes: list[str | None] = field(default_factory=list)
    fair: list[float] = field(default_factory=list)
    fair_classes: list[str | None] = field(default_factory=list)


def _per_100(count: int, decisions: int) -> float | None:
    return round(100 * count / decisions, 1) if decisions else None


def _mean(values: list) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def player_key(name: str) -> str:
    """Who a name stands for across records typed by different hands: case and runs of blanks do
    not count (``Alice``, ``alice`` and ``ALICE`` are one player)."""
    return " ".join(name.split()).casefold()


def player_rows(results) -> list[PlayerRow]:
    """One row per player met in ``results`` (the runner's results, analysed or not), in the order
    the players are first met; names that differ only in case or blanks are one player
    (:func:`player_key`), shown as first spelt."""
    tally: dict[str, _Tally] = {}
    spelling: dict[str, str] = {}

    def of(name: str) -> _Tally:
        """The tally of the player ``name`` stands for (his first spelling is the one shown)."""
        key = player_key(name)
        spelling.setdefault(key, name)
        return tally.setdefault(key, _Tally())

    for result in results:
        for game in result["games"]:
            for name in game["players"]:
                t = of(name)
                t.games += 1
                t.errors += game.get("errors_by_player", {}).get(name, 0)
            for d in (game.get("analysis") or {}).get("decisions", []):
                t = of(d["player"])
                t.decisions += 1
                if d["loss"] is not None:       # (None: no open-hands value, a hand the record does not show)
                    t.losses.append(d["loss"])
                    t.classes.append(d["class"])
                fair = d.get("fair")
                if fair is not None and fair.get("loss") is not None:
                    t.fair.append(fair["loss"])
                    t.fair_classes.append(fair.get("verdict"))
    rows = []
    for key, t in tally.items():
        n = len(t.losses)
        mistakes = [c in _MISTAKES for c in t.classes]
        row = PlayerRow(spelling[key], t.games, t.decisions, _mean(t.losses), _mean(t.fair), _per_100(sum(mistakes), n),
                        accuracy=_per_100(sum(c is None for c in t.classes), n),
                        errors_per_record=round(t.errors / t.games, 2) if t.games else 0.0)
        if t.fair:          # the fair analysis judged this player: its two verdicts per mistake
            judged = len(t.fair)
            row.real_mistakes_per_100 = _per_100(sum(v == "real" for v in t.fair_classes), judged)
            row.hindsight_mistakes_per_100 = _per_100(sum(v == "hindsight" for v in t.fair_classes), judged)
        rows.append(row)
    return rows


_FORMULA = ("=", "+", "-", "@", "\t", "\r")     # what a spreadsheet reads as the start of a formula


def _cell(value):
    """A CSV cell: empty for None; a text a spreadsheet would run as a formula (a player named
    ``=HYPERLINK(...)`` in a record) is kept as text by a leading ``'``."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA):
        return "'" + value
    return value


def rows_csv(rows: list[PlayerRow]) -> str:
    """The rows as CSV with a header line (an empty cell for None; names that look like formulas kept as text)."""
    return csv_text(COLUMNS, [row.as_dict() for row in rows])


def csv_text(columns: list[str], rows: list[dict]) -> str:
    """``rows`` (dicts by column) as CSV with a header line: an empty cell for None or a missing
    column, a text a spreadsheet would run as a formula kept as text."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k)) for k in columns})
    return out.getvalue()


# each heading says what it counts and on which scale: "mistake+" counts mistakes and blunders (open hands),
# "inaccuracy+" every class from an inaccuracy up (the fair verdicts), each per 100 decisions
_HEADINGS = {"player": "player", "games": "games", "decisions": "decisions", "open_loss": "avg loss (open)",
             "fair_loss": "avg loss (fair)", "mistakes_per_100": "mistake+/100 (open)",
             "real_mistakes_per_100": "real inaccuracy+/100", "hindsight_mistakes_per_100": "hindsight inaccuracy+/100",
             "accuracy": "accuracy %", "errors_per_record": "errors/record"}

#: What the headings' scales mean, printed under the table.
HEADINGS_NOTE = ("mistake+: mistakes and blunders with every hand open; inaccuracy+: inaccuracies, mistakes and "
                 "blunders by the fair verdicts (real: by what the player could know; hindsight: only with every "
                 "hand open); each per 100 decisions")


def rows_table(rows: list[PlayerRow]) -> str:
    """The rows as an aligned text table (``-`` for None)."""
    cells = [[_HEADINGS[c] for c in COLUMNS]]
    for row in rows:
        cells.append(["-" if v is None else str(v) for v in row.as_dict().values()])
    widths = [max(len(r[k]) for r in cells) for k in range(len(COLUMNS))]
    lines = []
    for r in cells:
        lines.append("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))))
    return "\n".join(lines + ["", HEADINGS_NOTE]) + "\n"
