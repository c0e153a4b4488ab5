"""The counts a league keeps over an archive (``domino stats --by month|event|head-to-head``, ``--from``/``--to``),
from the runner's plain results, analysed or not.

The words are the tool's: a record's *game* is one deal played out (a league's hand, a Cuban *data*); a *record*
is what was written down together, most often a match (a league's game to 100 or 200).

- A game's **date** is its Date tag (``YYYY.MM.DD``, ``??`` for an unknown part); a game without one takes the
  date of the game before it in the same record (a match's later games seldom repeat it). A date that does not
  read so is no date: the game goes to the period ``undated`` (``--by month``) and is left out by a date range.
- **won**: the games the player's side won; **points_won**: the points of those games (the Result tag's points:
  what the winners scored for the game; points a variant scores during play are not in it);
  **points_conceded**: the points of the games another side won while he sat in them.
- **accuracy**: the share, in per cent, of his decisions with an open-hands value whose move lost less than the
  inaccuracy threshold (``class`` None, as the per-player rows); its 95% interval is Wilson's score interval of a
  proportion (:func:`analyzer.analysis.luck.score_interval` with an error of size 1). **error_rate**: the mean
  open-hands loss a decision, with its 95% score interval (``analysis.luck.ErrorRate``, the size of an error that
  of the whole archive's losses). None from no decision (the interval: from fewer than two).
- **Head to head** (:func:`head_to_head`): each player against each player who sat on another side of the same
  game (partners are never opponents): games, games won by each, the points each side scored in them; in
  partnership games each pair against each pair, and each pair as partners together (games, won, points).

Pollos and zapatos (the Latin houses' shut-out counts) are not kept: no variant of ``analyzer.rules`` states a
rule for them."""
from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass, field
from typing import Iterable

from ..codec import keys, to_data
from ..i18n import N_, gettext
from .stats import aligned, csv_text, player_key, rate_cell

__all__ = ["PeriodRow", "Periods", "Versus", "Partners", "HeadToHead", "period_rows", "head_to_head", "game_date",
           "in_range", "periods_table", "periods_csv", "head_to_head_table", "head_to_head_csv", "UNDATED", "NO_EVENT",
           "period_names"]

UNDATED = "undated"
NO_EVENT = "(no event)"


def period_names() -> dict[str, str]:
    """The periods that are no month or event of the records (:data:`UNDATED`, :data:`NO_EVENT`: their codes stay
    English in the JSON and CSV) by how a person reads them, in the active language."""
    return {UNDATED: gettext("undated"), NO_EVENT: gettext("(no event)")}


_DATE = re.compile(r"(\d{4}|\?{4})[.-](\d{2}|\?\?)[.-](\d{2}|\?\?)")


@dataclass(frozen=True)
class PeriodRow:
    """One player's counts in one period (a month ``YYYY-MM`` or an event)."""

    period: str
    player: str
    records: int
    games: int
    won: int
    points_won: int
    points_conceded: int
    decisions: int                  # his decisions with an open-hands value
    accuracy: float | None          # per cent
    accuracy_low: float | None      # Wilson's 95% interval
    accuracy_high: float | None
    error_rate: float | None        # mean open-hands loss a decision, points
    error_low: float | None         # its 95% score interval
    error_high: float | None


@dataclass(frozen=True)
class Periods:
    """The rows of every period, periods in order (months by date, events as first met, ``undated`` last), a
    period's players as first met; ``unread``: the games whose date tag (``by="month"``) does not read as a date,
    each as ``file: title: Date "..."``."""

    by: str
    rows: tuple[PeriodRow, ...]
    unread: tuple[str, ...] = ()


@dataclass(frozen=True)
class Versus:
    """A player (or pair) against another: the games they sat in on different sides, those each side won, and the
    points each side scored in them."""

    player: str
    opponent: str
    games: int
    won: int
    lost: int
    points_won: int
    points_conceded: int


@dataclass(frozen=True)
class Partners:
    """A pair as partners together (partnership games): games, won, points scored and conceded."""

    pair: str
    games: int
    won: int
    points_won: int
    points_conceded: int


@dataclass(frozen=True)
class HeadToHead:
    """Player against player, pair against pair, and each pair together (both orders of each match-up are
    rows: ``A`` against ``B`` and ``B`` against ``A``)."""

    players: tuple[Versus, ...]
    pairs: tuple[Versus, ...] = ()
    partners: tuple[Partners, ...] = ()


def game_date(text: str | None) -> tuple[str, str, str] | None:
    """A Date tag as (year, month, day), each digits or ``??``; None where it does not read as ``YYYY.MM.DD``
    (``-`` also taken between the parts) or names no month or day that exists."""
    m = _DATE.fullmatch((text or "").strip())
    if m is None:
        return None
    year, month, day = m.groups()
    if month != "??" and not 1 <= int(month) <= 12 or day != "??" and not 1 <= int(day) <= 31:
        return None
    if "?" not in year + month + day:
        try:
            datetime.date(int(year), int(month), int(day))
        except ValueError:
            return None
    return year, month, day


def _full(date: tuple[str, str, str] | None) -> datetime.date | None:
    if date is None or "?" in "".join(date):
        return None
    return datetime.date(*map(int, date))


def _dated(result: dict) -> Iterable[tuple[dict, str | None]]:
    """Each game of ``result`` with its Date tag, a game without one taking the tag of the game before it."""
    last = None
    for game in result["games"]:
        last = game.get("date") or last
        yield game, last


def in_range(results: Iterable[dict], start: datetime.date | None, end: datetime.date | None
             ) -> tuple[list[dict], int]:
    """``results`` with only the games dated from ``start`` to ``end`` (both included; None: no bound), and the
    number of games left out for a date not wholly known (or not readable). No bound: ``results`` as they are."""
    results = list(results)
    if start is None and end is None:
        return results, 0
    out, dropped = [], 0
    for result in results:
        kept = []
        for game, date in _dated(result):
            day = _full(game_date(date))
            if day is None:
                dropped += 1
            elif (start is None or day >= start) and (end is None or day <= end):
                kept.append({**game, "date": date})
        out.append({**result, "games": kept})
    return out, dropped


def _sides(game: dict) -> list[list[str]]:
    """The players of ``game`` by side (seat order), by its variant's seating: partners where the variant seats
    as many players as the game has, else each player his own side."""
    players = game["players"]
    seating = _seating(game["variant"])
    teams = seating.teams if seating is not None and seating.players == len(players) else range(len(players))
    sides: dict[int, list[str]] = {}
    for name, team in zip(players, teams):
        sides.setdefault(team, []).append(name)
    return list(sides.values())


@functools.lru_cache(maxsize=None)
def _seating(variant: str):
    """The seating of the variant named ``variant``; None for a name not known (a result cached by another
    version): each for himself."""
    from ..rules import VariantError, find_variant

    try:
        return find_variant(variant).seating
    except VariantError:
        return None


def _winning_side(game: dict, sides: list[list[str]]) -> int | None:
    result = game.get("result") or {}
    winners = {player_key(n) for n in result.get("winner") or ()}
    return next((k for k, side in enumerate(sides) if winners and {player_key(n) for n in side} == winners), None)


@dataclass
class _Count:
    records: set = field(default_factory=set)
    games: int = 0
    won: int = 0
    points_won: int = 0
    points_conceded: int = 0
    lost: int = 0
    classes: list = field(default_factory=list)         # each decision's class (None: none), as ``losses``
    losses: list = field(default_factory=list)


class _Names:
    """The first spelling of each player (case and blanks do not count: :func:`player_key`)."""

    def __init__(self):
        self.spelling: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        return self.spelling.setdefault(player_key(name), name)


def _score(game: dict, sides: list[list[str]]) -> tuple[int | None, int]:
    """The side that won ``game`` (None: nobody, a draw or no result) and the points of its result."""
    won = _winning_side(game, sides)
    return won, ((game.get("result") or {}).get("points") or 0) if won is not None else 0


def period_rows(results: Iterable[dict], by: str = "month") -> Periods:
    """Each player's counts in each period (``by``: ``"month"`` of the games' dates, or ``"event"``: the Event
    tag) over the runner's ``results`` (analysed or not: without analysis no decisions)."""
    from ..analysis.gradecounts import tally
    from ..analysis.luck import ErrorRate, pooled_size, score_interval

    if by not in ("month", "event"):
        raise ValueError(f"by must be 'month' or 'event', not {by!r}")
    name = _Names()
    counts: dict[str, dict[str, _Count]] = {}
    unread = []
    for number, result in enumerate(results):
        for game, date in _dated(result):
            if by == "event":
                period = game.get("event") or NO_EVENT
            else:
                parts = game_date(date)
                if date and parts is None:
                    unread.append(f'{result["source"]}: {game["title"]}: Date "{date}"')
                period = UNDATED if parts is None or "?" in parts[0] + parts[1] else f"{parts[0]}-{parts[1]}"
            rows = counts.setdefault(period, {})
            sides = _sides(game)
            won, points = _score(game, sides)
            for k, side in enumerate(sides):
                for player in side:
                    c = rows.setdefault(name(player), _Count())
                    c.records.add(number)
                    c.games += 1
                    c.won += k == won
                    c.points_won += points if k == won else 0
                    c.points_conceded += points if won is not None and k != won else 0
            for d in (game.get("analysis") or {}).get("decisions", []):
                if d.get("loss") is None:           # (no open-hands value: a hand the record does not show)
                    continue
                c = rows.setdefault(name(d["player"]), _Count())
                c.losses.append(float(d["loss"]))
                c.classes.append(d["class"])
    months = sorted(p for p in counts if p != UNDATED) if by == "month" else list(counts)
    order = months + ([UNDATED] if UNDATED in counts and by == "month" else [])
    size = pooled_size([ErrorRate("", losses=c.losses) for rows in counts.values() for c in rows.values()])
    out = []
    for period in order:
        for player, c in counts[period].items():
            n = len(c.losses)
            acc = acc_low = acc_high = rate = low = high = None
            if n:
                grades = tally(c.classes)           # (the one count of grade classes: analysis.gradecounts)
                share = grades.unclassed / n
                acc = grades.accuracy
                lo, hi = score_interval(share, n, 1.0)
                acc_low, acc_high = round(100 * lo, 1), round(100 * hi, 1)
                errors = ErrorRate(player, n, c.losses, size)
                rate = round(errors.mean, 2)
                if errors.ci95 is not None:
                    low, high = (round(x, 2) for x in errors.ci95)
            out.append(PeriodRow(period, player, len(c.records), c.games, c.won, c.points_won, c.points_conceded, n,
                                 acc, acc_low, acc_high, rate, low, high))
    return Periods(by, tuple(out), tuple(unread))


def head_to_head(results: Iterable[dict]) -> HeadToHead:
    """Player against player, pair against pair and each pair together over the runner's ``results``, in the
    order of the names (case and blanks not counted)."""
    name = _Names()
    versus: dict[tuple[str, str], _Count] = {}
    pairs: dict[tuple[str, str], _Count] = {}
    together: dict[str, _Count] = {}
    for result in results:
        for game in result["games"]:
            sides = [[name(p) for p in side] for side in _sides(game)]
            won, points = _score(game, sides)
            labels = ["/".join(sorted(side, key=player_key)) for side in sides]     # (a pair, whoever sat first)
            for k, side in enumerate(sides):
                if len(side) > 1:
                    _add(together.setdefault(labels[k], _Count()), k, won, points)
                for j, other in enumerate(sides):
                    if j == k:
                        continue
                    for player in side:
                        for opponent in other:
                            _add(versus.setdefault((player, opponent), _Count()), k, won, points, j)
                    if len(side) > 1 and len(other) > 1:
                        _add(pairs.setdefault((labels[k], labels[j]), _Count()), k, won, points, j)
    def met(counts: dict) -> list:
        """Versus rows: (one, other) and the count, in the order of the names."""
        return [Versus(a, b, c.games, c.won, c.lost, c.points_won, c.points_conceded)
                for (a, b), c in sorted(counts.items(), key=lambda item: tuple(map(player_key, item[0])))]

    return HeadToHead(tuple(met(versus)), tuple(met(pairs)),
                      tuple(Partners(p, c.games, c.won, c.points_won, c.points_conceded)
                            for p, c in sorted(together.items(), key=lambda item: player_key(item[0]))))


def _add(c: _Count, side: int, won: int | None, points: int, other: int | None = None) -> None:
    """Count a game of side ``side`` (against side ``other``: the points conceded are that side's only; None:
    any other side's) won by ``won`` for ``points``."""
    c.games += 1
    c.won += won == side
    c.lost += other is not None and won == other
    c.points_won += points if won == side else 0
    c.points_conceded += points if won is not None and won != side and (other is None or won == other) else 0


# ---- text and CSV ---------------------------------------------------------------------------------

#: What the period table's columns mean, printed under it.
PERIODS_NOTE = N_("games: deals played out (a league's hands); won: games his side won; points: of the games' "
                  "results, won by his side and by another; accuracy: decisions (open hands) within the inaccuracy "
                  "threshold of the best move, per cent, with Wilson's 95% interval; error rate: mean open-hands loss "
                  "a decision, points, with its 95% score interval")
#: a period's heading in the table, by what the periods are
_PERIOD = {"month": N_("month {period}"), "event": N_("event {period}")}


def periods_table(periods: Periods) -> str:
    """The rows as a text table a period, each headed by its period."""
    out = []
    for period in dict.fromkeys(row.period for row in periods.rows):
        cells = [[gettext("player"), gettext("records"), gettext("games"), gettext("won"), gettext("points won"),
                  gettext("points conceded"), gettext("decisions"), gettext("accuracy % (95%)"),
                  gettext("error rate (95%)")]]
        for r in (r for r in periods.rows if r.period == period):
            cells.append([r.player, str(r.records), str(r.games), str(r.won), str(r.points_won),
                          str(r.points_conceded), str(r.decisions), rate_cell(r.accuracy, r.accuracy_low,
                                                                               r.accuracy_high),
                          rate_cell(r.error_rate, r.error_low, r.error_high)])
        shown = period_names().get(period, period)
        out += [gettext(_PERIOD[periods.by], period=shown) if periods.by in _PERIOD else f"{periods.by} {shown}",
                *aligned(cells), ""]
    return "\n".join(out + [gettext(PERIODS_NOTE)]) + "\n"


def periods_csv(periods: Periods) -> str:
    """The rows as CSV with a header line."""
    return csv_text(list(keys(PeriodRow)), [to_data(row) for row in periods.rows])


def _versus_cells(rows: tuple[Versus, ...], who: str) -> list[str]:
    cells = [[who, gettext("against"), gettext("games"), gettext("won"), gettext("lost"), gettext("points won"),
              gettext("points conceded")]]
    cells += [[r.player, r.opponent, str(r.games), str(r.won), str(r.lost), str(r.points_won), str(r.points_conceded)]
              for r in rows]
    return aligned(cells)


def head_to_head_table(h2h: HeadToHead) -> str:
    """Player against player, then (where partnership games were played) pair against pair and pairs together."""
    out = [gettext("player against player"), *_versus_cells(h2h.players, gettext("player"))]
    if h2h.pairs:
        out += ["", gettext("pair against pair"), *_versus_cells(h2h.pairs, gettext("pair"))]
    if h2h.partners:
        cells = [[gettext("pair"), gettext("games"), gettext("won"), gettext("points won"), gettext("points conceded")]]
        cells += [[r.pair, str(r.games), str(r.won), str(r.points_won), str(r.points_conceded)] for r in h2h.partners]
        out += ["", gettext("partners together"), *aligned(cells)]
    out += ["", gettext("won, lost: games his side and the other side won (the rest drawn or won by a third side); "
                        "points: of the games' results, scored by his side and by the other side")]
    return "\n".join(out) + "\n"


def head_to_head_csv(h2h: HeadToHead) -> str:
    """Player against player and pair against pair as one CSV (a column ``kind``: ``player`` or ``pair``)."""
    rows = [{"kind": kind, **to_data(r)} for kind, rows in (("player", h2h.players), ("pair", h2h.pairs)) for r in rows]
    return csv_text(["kind", *keys(Versus)], rows)
