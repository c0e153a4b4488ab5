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
  pass while holding a match...) per game: a measure of the transcription, not of the play.

Luck and skill (``analyzer.analysis.luck``; where the variant has a hand-result model, ``analyzer.equity``):

- ``result``: his side's points of each hand less the other side's (``analysis.hand_value``: points
  scored during play and bad points included), over the hands whose deal's luck is known
  (``luck_hands``); ``luck``: the luck of those hands for his side, the deal's and the lead's (the open-hands
  value at the lead, with the boneyard order the record reveals, less the variant's mean over every deal and
  leader: ``analysis.luck.DealLuck.total``; perfect play has an adjusted result of 0). In a game
  of individual players both are his own against all the others, the luck from the deal played out by the
  hand model's policy (each for himself) less the mean for his seat (``"luck_each"``: ``Options.luck_each``);
  ``adjusted``: the luck-adjusted result, ``result - luck``: what the play made of the hands.
  ``draw_luck``: in draw games, the luck of the tiles drawn (``analyzer.analysis.drawluck``: each
  draw's value against the mean over the tiles that could have come, his side's draws counted for it
  and the others' against it), over every hand's draws whose values are known, whether or not the
  deal's luck is. It is shown beside
  ``luck``, not added to it: the deal's luck already values the lead with the boneyard order the
  record reveals, so it holds what the boneyard as a whole gave, and each draw is valued with the rest
  of that order fixed (docs/equity.md, "What the sum is not"). ``mwc_luck``, ``mwc_draw_luck``: the
  same in match-winning chance (with ``--scale match``, over the hands whose match position is known).
- ``error_rate``: the mean loss per decision with a choice (points), by the fair analysis where it
  judged the decision, else with every hand open (``error_basis`` says which), with its 95% interval
  (``error_low``, ``error_high``: a score interval, ``analysis.luck.score_interval``, that holds where most losses
  are 0 and a few large, with the size of an error the variant's calibration gives, else the archive's; never of
  zero width; none from fewer than two decisions) and ``error_decisions``, the
  decisions it rests on; ``mwc_error_*`` the same in match-winning chance (with ``--scale match``: the
  decisions the match scale graded).
- ``band``: the strength band (``analyzer.equity.bands``) of the open-hands error rate, as the
  calibration's policies were measured, given only from two games or more, with a calibration for the
  variant and rules of every game (the ones of its MWC table), and an interval narrow enough; ``band_note`` says why none is given, or the
  decisions and games it rests on.

``by="pair"`` sums up each side (``A/C``) instead of each player (a game of individual players: each
player is his own side)."""
from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass, field

from ..i18n import N_, decimal, figure, gettext, ngettext

__all__ = ["PlayerRow", "PlayerTally", "player_key", "player_rows", "rows_csv", "rows_table", "csv_text", "aligned",
           "rate_cell", "COLUMNS", "SKILL_COLUMNS"]

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
    result: int | None = None
    luck: float | None = None
    adjusted: float | None = None
    luck_hands: int = 0
    error_rate: float | None = None
    error_low: float | None = None
    error_high: float | None = None
    error_decisions: int = 0
    error_basis: str | None = None
    band: str | None = None
    band_note: str | None = None
    mwc_luck: float | None = None
    mwc_error_rate: float | None = None
    mwc_error_low: float | None = None
    mwc_error_high: float | None = None
    mwc_error_decisions: int = 0
    draw_luck: float | None = None
    mwc_draw_luck: float | None = None
    reasons: str | None = None          # why his graded moves lost: each reason's code and how often, most first

    def as_dict(self) -> dict:
        return asdict(self)


COLUMNS = tuple(PlayerRow.__dataclass_fields__)
#: The columns of luck and skill (the second table of the text).
SKILL_COLUMNS = COLUMNS[COLUMNS.index("result"):]


@dataclass
class _Tally:
    games: int = 0
    errors: int = 0
    decisions: int = 0
    losses: list[int] = field(default_factory=list)         # of the decisions with open-hands values
    classes: list[str | None] = field(default_factory=list)
    fair: list[float] = field(default_factory=list)
    fair_classes: list[str | None] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)      # the codes of his graded moves' reasons, counted
    skill: _Skill = field(default_factory=lambda: _Skill())


@dataclass
class _Skill:
    """Luck and error rates of one player (or side), hand by hand."""

    result: int = 0
    luck: float = 0.0
    luck_hands: int = 0
    draw_luck: float = 0.0
    draw_hands: int = 0                 # the hands whose draws' luck is counted (every draw valued or not)
    mwc_luck: float = 0.0
    mwc_draw_luck: float = 0.0
    mwc_draw_hands: int = 0
    mwc_hands: int = 0
    errors: object = field(default_factory=lambda: _rate())         # ``analysis.luck.ErrorRate``s
    open_errors: object = field(default_factory=lambda: _rate())
    mwc_errors: object = field(default_factory=lambda: _rate())
    bases: set = field(default_factory=set)
    variants: set = field(default_factory=set)
    decided_games: int = 0           # games in which he had a decision with an open-hands loss


def _rate():
    """An empty ``ErrorRate`` (loaded when a row is filled: ``validate`` needs no analysis)."""
    from ..analysis.luck import ErrorRate

    return ErrorRate("")


def _per_100(count: int, decisions: int) -> float | None:
    return round(100 * count / decisions, 1) if decisions else None


def _mean(values: list) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def player_key(name: str) -> str:
    """Who a name stands for across records typed by different hands: case and runs of blanks do
    not count (``Alice``, ``alice`` and ``ALICE`` are one player)."""
    return " ".join(name.split()).casefold()


def _sides_of(game: dict, by: str) -> dict[str, str]:
    """Who each player of ``game`` counts as: himself, or (``by="pair"``) his side (``A/C``) where the
    analysis names the sides."""
    players = game["players"]
    sides = (game.get("analysis") or {}).get("sides") or []
    if by != "pair":
        return {name: name for name in players}
    return {name: next((side for side in sides if name in side.split("/")), name) for name in players}


def _side_index(game: dict, name: str) -> int | None:
    """The index of the side ``name`` sits on (0: the first side), by the analysis's sides."""
    sides = (game.get("analysis") or {}).get("sides") or []
    return next((k for k, side in enumerate(sides) if name in side.split("/")), None)


def _lucks(game: dict, luck: dict | None, two: bool) -> list[tuple[str, dict, int]]:
    """Each player of ``game`` with the deal's luck in his view and its sign for him: in a game of two sides the
    first side's (``luck``), negated for the second side; in a game of individual players his own
    (``"luck_each"``, where the analysis searched it: ``Options.luck_each``)."""
    if two:
        if luck is None:
            return []
        return [(name, luck, 1 if side == 0 else -1) for name in game["players"]
                if (side := _side_index(game, name)) is not None]
    each = ((game.get("analysis") or {}).get("match_scale") or {}).get("luck_each") or []
    return [(name, entry, 1) for name, entry in zip(game["players"], each) if entry is not None]


def _add_skill(game: dict, who: dict[str, str], of, calibrated) -> None:
    """Add ``game``'s luck, result and losses to the tallies of its players (``who``: name -> row name)."""
    analysis = game.get("analysis") or {}
    luck = (analysis.get("match_scale") or {}).get("luck")
    result = game.get("result")
    draws = [(_side_index(game, m["player"]), m["draw_luck"]) for m in analysis.get("moves", []) if "draw_luck" in m]
    draws = [(side, d) for side, d in draws if side is not None and d is not None]     # the draws valued
    two = len(analysis.get("sides") or ()) == 2
    counted, drew = set(), set()
    for name in game["players"] if draws and two else ():         # the draws' luck, whatever the deal's
        side, row = _side_index(game, name), who[name]
        if side is None or row in drew:
            continue
        drew.add(row)
        skill = of(row).skill
        skill.draw_luck += sum(d["points"] if at == side else -d["points"] for at, d in draws)
        skill.draw_hands += 1
        if all(d["mwc"] is not None for _, d in draws):
            skill.mwc_draw_luck += sum(d["mwc"] if at == side else -d["mwc"] for at, d in draws)
            skill.mwc_draw_hands += 1
    if result is not None:
        for name, entry, sign in _lucks(game, luck, two):
            row = who[name]
            if row in counted or entry.get("result") is None:
                continue
            counted.add(row)
            skill = of(row).skill
            skill.result += sign * entry["result"]
            skill.luck += sign * entry.get("total", entry["points"])      # (the deal's luck and the lead's)
            skill.luck_hands += 1
            if entry.get("mwc") is not None:
                skill.mwc_luck += sign * entry["mwc"]
                skill.mwc_hands += 1
    decided = set()
    for d in analysis.get("decisions", []):
        skill = of(who.get(d["player"], d["player"])).skill
        fair = d.get("fair") or {}
        opened = open_loss(d)
        loss = fair.get("loss") if fair.get("loss") is not None else opened
        if loss is not None:
            skill.errors.losses.append(float(loss))
            skill.bases.add("fair" if fair.get("loss") is not None else "open")
        if opened is not None:
            skill.open_errors.losses.append(float(opened))
            skill.variants.add(calibrated(((game.get("analysis") or {}).get("match_scale") or {}).get("table")))
            if id(skill) not in decided:
                decided.add(id(skill))
                skill.decided_games += 1
        mwc = fair.get("mwc_loss") if fair.get("mwc_loss") is not None else d.get("mwc_loss")
        if mwc is not None:
            skill.mwc_errors.losses.append(float(mwc))


def open_loss(d: dict) -> float | None:
    """A decision's loss with every hand open: its own, or on a sheet without hands its mean over the deals the
    sheet allows (``loss_over_deals``); None where neither is known."""
    if d["loss"] is not None:
        return d["loss"]
    return (d.get("loss_over_deals") or {}).get("mean")


class PlayerTally:
    """The players' rows of an archive summed up as its results come (:meth:`add`, one result at a time: nothing of
    a result is kept but the numbers its rows need), read at the end (:meth:`rows`). ``by``: a row per player
    (``"player"``) or per side (``"pair"``), as :func:`player_rows`."""

    def __init__(self, by: str = "player"):
        self.by = by
        self.tally: dict[str, _Tally] = {}
        self.spelling: dict[str, str] = {}
        self.calibrations: dict[str, object] = {}

    def of(self, name: str) -> _Tally:
        """The tally of the player ``name`` stands for (his first spelling is the one shown)."""
        key = player_key(name)
        self.spelling.setdefault(key, name)
        return self.tally.setdefault(key, _Tally())

    def calibrated(self, table: str | None):
        """``table`` (the name of a game's MWC table), its bands' calibration looked up once."""
        if table not in self.calibrations:
            self.calibrations[table] = _calibration(table)
        return table

    def add(self, result: dict) -> None:
        """Count the games of one result of the runner (analysed or not)."""
        of = self.of
        for game in result["games"]:
            who = _sides_of(game, self.by)
            for name in dict.fromkeys(who.values()):
                t = of(name)
                t.games += 1
                t.errors += sum(n for p, n in game.get("errors_by_player", {}).items() if who.get(p) == name)
            for d in (game.get("analysis") or {}).get("decisions", []):
                t = of(who.get(d["player"], d["player"]))
                t.decisions += 1
                opened = open_loss(d)           # (None: no open-hands value, a hand the record does not show)
                if opened is not None:
                    t.losses.append(opened)
                    t.classes.append(d["class"])
                # (each code once a move: a reason of the deal played and the same over the deals he could not
                # rule out are one)
                for code in dict.fromkeys(reason["code"] for reason in d.get("reasons") or ()):
                    t.reasons[code] = t.reasons.get(code, 0) + 1
                fair = d.get("fair")
                if fair is not None and fair.get("loss") is not None:
                    t.fair.append(fair["loss"])
                    t.fair_classes.append(fair.get("verdict"))
            _add_skill(game, who, of, self.calibrated)

    def rows(self, scale: str = "points") -> list[PlayerRow]:
        """One row per player met, in the order first met; ``scale="match"``: the match-winning-chance columns
        filled too."""
        from ..analysis.gradecounts import tally       # (the analysis: loaded when rows are read, not by validate)

        rows = []
        for key, t in self.tally.items():
            grades = tally(t.classes)           # (the one count of grade classes: analysis.gradecounts)
            row = PlayerRow(self.spelling[key], t.games, t.decisions, _mean(t.losses), _mean(t.fair),
                            grades.per_100(grades.at_least("mistake")), accuracy=grades.accuracy,
                            errors_per_record=round(t.errors / t.games, 2) if t.games else 0.0)
            row.reasons = ", ".join(f"{code} {n}" for code, n in sorted(t.reasons.items(), key=lambda x: -x[1])) \
                or None
            if t.fair:          # the fair analysis judged this player: its two verdicts per mistake
                judged = len(t.fair)
                row.real_mistakes_per_100 = _per_100(sum(v == "real" for v in t.fair_classes), judged)
                row.hindsight_mistakes_per_100 = _per_100(sum(v == "hindsight" for v in t.fair_classes), judged)
            rows.append(row)
        sizes = _pooled_sizes(self.tally.values())
        for row, t in zip(rows, self.tally.values()):
            _fill_skill(row, t.skill, self.calibrations, scale, sizes)
        return rows


def player_rows(results, by: str = "player", scale: str = "points") -> list[PlayerRow]:
    """One row per player met in ``results`` (the runner's results, analysed or not), in the order
    the players are first met; names that differ only in case or blanks are one player
    (:func:`player_key`), shown as first spelt. ``by="pair"``: a row per side instead; ``scale="match"``:
    the match-winning-chance columns filled too (:class:`PlayerTally`, all of ``results`` added)."""
    tally = PlayerTally(by)
    for result in results:
        tally.add(result)
    return tally.rows(scale)


def _pooled_sizes(tallies) -> dict[str, float]:
    """The size of an error (``analysis.luck.error_size``) over every decision of the archive, on each scale: what
    an interval assumes where a player's own losses and the variant's calibration say nothing of it."""
    from ..analysis.luck import pooled_size

    skills = [t.skill for t in tallies]
    return {"points": pooled_size([s.errors for s in skills]), "match": pooled_size([s.mwc_errors for s in skills],
                                                                                    "match")}


def _calibration(table: str | None):
    """The shipped calibration of the bands of the variant (with its rules) whose MWC table is ``table``
    (a file name, from the game's match scale), or None."""
    if table is None:
        return None
    from ..equity.bands import calibration_for      # (the bands' data: loaded when a row is filled)

    return calibration_for(table)


def _interval(rate, digits: int) -> tuple:
    mean, ci = rate.mean, rate.ci95
    return (None if mean is None else round(mean, digits),
            None if ci is None else round(ci[0], digits), None if ci is None else round(ci[1], digits))


def _fill_skill(row: PlayerRow, skill: _Skill, calibrations: dict, scale: str, sizes: dict[str, float]) -> None:
    """Fill ``row``'s columns of luck and skill from ``skill``; ``sizes``: the size of an error on each scale over
    the archive (:func:`_pooled_sizes`), where the variant has no calibration to say it."""
    from ..equity.bands import strength_band

    calibration = calibrations.get(next(iter(skill.variants))) if len(skill.variants) == 1 else None
    size = calibration.error_size if calibration is not None else None
    skill.errors.size = skill.open_errors.size = size or sizes["points"]
    skill.mwc_errors.size = sizes["match"]

    if skill.luck_hands:
        row.result, row.luck, row.luck_hands = skill.result, round(skill.luck, 2), skill.luck_hands
        row.adjusted = round(skill.result - skill.luck, 2)
    if skill.draw_hands:
        row.draw_luck = round(skill.draw_luck, 2)
    row.error_rate, row.error_low, row.error_high = _interval(skill.errors, 2)
    row.error_decisions = len(skill.errors.losses)
    row.error_basis = " and ".join(sorted(skill.bases)) or None
    open_rate = skill.open_errors
    if open_rate.losses:
        why = "" if len(skill.variants) == 1 else gettext("games of several variants")
        band = strength_band(open_rate.mean, open_rate.ci95, len(open_rate.losses), skill.decided_games, calibration)
        row.band, row.band_note = band.name, (why or band.why or gettext(
            "from {decisions} (open hands) in {games}",
            decisions=ngettext("{n} decision", "{n} decisions", band.decisions),
            games=ngettext("{n} game", "{n} games", band.games)))
    if scale == "match":
        if skill.mwc_hands:
            row.mwc_luck = round(skill.mwc_luck, 4)
        if skill.mwc_draw_hands:
            row.mwc_draw_luck = round(skill.mwc_draw_luck, 4)
        row.mwc_error_rate, row.mwc_error_low, row.mwc_error_high = _interval(skill.mwc_errors, 4)
        row.mwc_error_decisions = len(skill.mwc_errors.losses)


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
_HEADINGS = {"player": N_("player"), "games": N_("games"), "decisions": N_("decisions"),
             "open_loss": N_("avg loss (open)"), "fair_loss": N_("avg loss (fair)"),
             "mistakes_per_100": N_("mistake+/100 (open)"), "real_mistakes_per_100": N_("real inaccuracy+/100"),
             "hindsight_mistakes_per_100": N_("hindsight inaccuracy+/100"), "accuracy": N_("accuracy %"),
             "errors_per_record": N_("errors/record")}

#: What the headings' scales mean, printed under the table.
HEADINGS_NOTE = N_("mistake+: mistakes and blunders with every hand open; inaccuracy+: inaccuracies, mistakes and "
                 "blunders by the fair verdicts (real: by what the player could know; hindsight: only with every "
                 "hand open); each per 100 decisions")


def aligned(cells: list[list[str]]) -> list[str]:
    """Rows of cells as aligned lines: the first column to the left, the others to the right."""
    widths = [max(len(r[k]) for r in cells) for k in range(len(cells[0]))]
    return ["  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths))) for r in cells]


def rows_table(rows: list[PlayerRow], scale: str = "points") -> str:
    """The rows as an aligned text table (``-`` for None), then their luck and error rates (the second
    table: see :func:`skill_table`)."""
    play = COLUMNS[:COLUMNS.index("result")]
    cells = [[gettext(_HEADINGS[c]) for c in play]]
    for row in rows:
        data = row.as_dict()
        cells.append([_dash(data[c], str) for c in play])
    return "\n".join(aligned(cells) + ["", gettext(HEADINGS_NOTE), "", *skill_table(rows, scale)]) + "\n"


def rate_cell(rate, low, high) -> str:
    if rate is None:
        return "-"
    return f"{_dash(rate)} ({_dash(low)}-{_dash(high)})" if low is not None else _dash(rate)


#: What the second table's columns mean, printed under it.
SKILL_NOTE = N_("result: his side's points of each hand less the other side's (a game of individual players: his "
              "against all the others); luck: the deal's and the lead's, the open-hands value of his side's hands at "
              "the lead less the variant's mean over every deal and leader (a game of individual players: the deal "
              "played out by the hand model's policy, valued for him, less the mean over every seat); adjusted: "
              "result less luck, 0 for perfect play; draws' luck (draw games, shown apart, not in "
              "luck): each draw's value against the mean over the tiles that could have come; error rate: mean loss a "
              "decision with a choice (fair where judged, else open hands) and its 95% interval (a score interval: "
              "docs/archives.md); band: of the "
              "open-hands error rate, from two games or more and a narrow enough interval")


def skill_table(rows: list[PlayerRow], scale: str = "points") -> list[str]:
    """The luck and error rate of each row as aligned lines (with ``scale="match"`` in MWC too), and the note."""
    from ..equity.bands import band_word            # (its words: the bands' module, loaded where a table is made)
    head = ["", gettext("hands"), gettext("result"), gettext("luck"), gettext("adjusted"), gettext("draws' luck"),
            gettext("decisions"), gettext("error rate (95%)"), gettext("band")]
    if scale == "match":
        head += [gettext("MWC luck"), gettext("MWC decisions"), gettext("MWC error rate (95%)")]
    cells = [head]
    for r in rows:
        line = [r.player, str(r.luck_hands), _dash(r.result), _dash(r.luck), _dash(r.adjusted), _dash(r.draw_luck),
                str(r.error_decisions),
                rate_cell(r.error_rate, r.error_low, r.error_high), band_word(r.band) or "-"]
        if scale == "match":
            line += [_dash(r.mwc_luck), str(r.mwc_error_decisions),
                     rate_cell(r.mwc_error_rate, r.mwc_error_low, r.mwc_error_high)]
        cells.append(line)
    return aligned(cells) + ["", gettext(SKILL_NOTE)]


def _dash(value, shown=lambda x: f"{x:g}") -> str:
    """A cell's number as the language writes it (``-`` for None; a float with the digits ``shown`` gives it)."""
    if value is None:
        return "-"
    return figure(value, shown) if isinstance(value, float) else str(value)
