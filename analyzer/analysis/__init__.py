"""Whole-record analysis: the exact value of every alternative at every decision of a hand.

The result is plain data (dataclasses of ints and strings) that the report and the CLI use
without calling the search again."""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Callable

from ..position import Position
from ..replay import Replay
from ..match import replay_record
from ..rules import HandFacts, HandResult, Seating, Variant
from ..search.tree import NO_EXTRA, SearchLimit, TreeSearch, arms_note, revealed, revealed_order
from ..search.draw import draw_note
from ..search.block import Solver, SolverError, core_note, principal_line
from ..search.alphabeta import proven_best
from ..search.core import TABLE_MB, SearchBudget
from ..tiles import Move
from .dealvalues import DealsSummary, FairCut, OverDeals
from ..rules.codes import Code
from ..diagnostics import Severity
from ..rules.modes import Count, Layout
from .grades import Grading, Thresholds, on_scale
from .reasons import Reason, explain, shown_facts, walk_line
from ..codec import key
from ..i18n import N_, decimal, gettext, ngettext, number

__all__ = ["Grading", "Thresholds", "NO_EXTRA_WORDS", "AnalysisSettings", "Alternative", "Decision", "GameAnalysis", "Played", "analyze", "analyze_replay",
           "int_solver_plays", "searcher_for", "searches_for", "alternative_text", "hand_value"]


class AgainstTheRest:
    """A game of individual players seen by one of them, ``seat``, as two sides: he alone against
    all the others, who play to minimise his score (the "paranoid" assumption). The value of a
    finished hand is his: the points when he wins it, minus the winner's points when another does.
    Where each player writes his own pips as bad points (French, Hungarian) it is his margin over
    each of the others, summed: their bad points less his. Points scored during play (All Fives)
    count for him when he scores them and against him when another does."""

    def __init__(self, variant: Variant, seat: int):
        self.variant = variant
        self.seat = seat
        self.players = variant.players
        self.seating = Seating(variant.players, tuple(0 if s == seat else 1 for s in range(variant.players)))
        self.end = getattr(variant, "end", "one")
        self.block = None            # no fast path: every leaf is scored by the real variant
        self.scoring = variant.scoring
        self.play = variant.play
        self.name = variant.name
        self.bad = getattr(variant.scoring, "count", None) == Count.BAD

    def value(self, facts: HandFacts) -> int:
        result = self.variant.hand_result(facts)
        if self.bad and result.scores:
            mine = result.scores[self.variant.seating.teams[self.seat]]
            return sum(result.scores) - len(result.scores) * mine
        if result.winner is None:
            return 0
        return result.points if result.winner == self.variant.seating.teams[self.seat] else -result.points


def hand_value(variant: Variant, result: HandResult, seat: int = 0) -> int:
    """A finished hand's ``result`` in the units of the open-hands values: for the first side (two sides),
    or for the player at ``seat`` against all the others (:class:`~analyzer.analysis.AgainstTheRest`).
    Where every side's points of the hand are given (``scores``: points scored during play and at its end,
    or bad points), their difference: a side's less the other's, a player's twice less all of them, or where
    each writes his own pips as bad points, all of them less his each; else the winner's points."""
    teams, sides = variant.seating.teams, variant.seating.sides
    mine = teams[seat] if sides != 2 else 0
    bad = getattr(variant.scoring, "count", None) == Count.BAD
    if len(result.scores) == sides:
        if sides == 2:
            margin = result.scores[0] - result.scores[1]
            return -margin if bad else margin
        total = sum(result.scores)
        return total - sides * result.scores[mine] if bad else 2 * result.scores[mine] - total
    if result.winner is None:
        return 0
    return result.points if result.winner == mine else -result.points


# The result types below are frozen values, each step's own: a later step (the fair analysis, the match scale, the
# draws' luck) gives a new value (``dataclasses.replace``) composed of the earlier one and its own figures, never
# writing into a value built. They are written as plain data and read back by ``analyzer.codec`` (``to_data``/
# ``from_data``), each field's key and when it is written in its metadata (``key``); docs/architecture.md, "Results
# and their JSON".

@dataclass(frozen=True)
class OnScale:
    """A move's match-winning chance on the match scale (``analysis.match_scale``): written as its ``mwc`` key
    (None: not known) in the alternative, or in its fair value, it is composed into."""

    mwc: float | None


@dataclass(frozen=True)
class GradeOnScale:
    """A decision's loss in match-winning chance and its class on the match scale (``analysis.match_scale``),
    written as the ``mwc_loss`` and ``mwc_class`` keys of the decision, or of its fair verdict (None: not known)."""

    mwc_loss: float | None
    mwc_class: str | None


@dataclass(frozen=True)
class DrawnLuck:
    """A draw's luck (``analysis.drawluck.DrawLuck``; None: its values are missing), written as the ``draw_luck``
    key of the move it is composed into."""

    draw_luck: object | None


@dataclass(frozen=True)
class SideLuck:
    """A side's (or in a game of individuals, a player's) draws' luck in all: in points, in MWC (None off the
    match scale), and the draws it counts (``analysis.drawluck.side_luck``)."""

    side: str
    points: float
    mwc: float | None
    draws: int


@dataclass(frozen=True)
class Played:
    """A step of the line analysed: who moved, and the move as the record writes it; a draw's luck, where valued."""

    player: str
    move: str
    luck: DrawnLuck | None = field(default=None, metadata=key(inline=True, omit_none=True))


@dataclass(frozen=True)
class Alternative:
    move: str
    value: int | None             # None: no open-hands value (a hand the record does not show)
    best: bool = False
    played: bool = False
    # a sheet without hands: its value over the deals the sheet allows, where ``value`` is None
    over_deals: OverDeals | None = field(default=None, metadata=key(omit_none=True))
    # past the node limit: ``(low, high)``, the proven bounds of its value (None: open)
    bounds: tuple[int | None, int | None] | None = field(default=None, metadata=key(omit_none=True))
    # its best continuation, the move itself first (``"B [0-0]"``), when asked for
    line: tuple[str, ...] | None = field(default=None, metadata=key(omit_none=True))
    # its fair value (``analysis.fairstats.FairValue``), in a fair analysis
    fair: object | None = field(default=None, metadata=key(when="fair"))   # (``fairstats.FairValue``)
    # its match-winning chance, on the match scale (``analysis.match_scale.MatchScale.applied``)
    on_scale: OnScale | None = field(default=None, metadata=key(inline=True, omit_none=True))

    def __post_init__(self):
        _as_tuples(self, ("bounds", "line"))


@dataclass(frozen=True)
class Decision:
    """A position where the mover had a real choice, and what each choice was worth (for A/C)."""

    index: int                    # the step of the record
    player: str
    side: int                     # the mover's side (0: A/C maximises, 1: minimises)
    line: int | None
    column: int | None
    round: int | None
    played: str
    played_value: int | None      # None: not valued (a hidden hand, or the search past the node limit)
    alternatives: tuple[Alternative, ...]
    best_value: int | None
    loss: int | None              # from the mover's side, never negative; None where the best is not known
    cls: str | None = field(metadata=key("class", after="unsolved"))     # inaccuracy / mistake / blunder
    unsolved: int = 0             # alternatives the search did not value within the node limit
    # a sheet without hands: the loss of the move played over the deals the sheet allows, where ``loss`` is None
    loss_over: OverDeals | None = field(default=None, metadata=key("loss_over_deals", omit_none=True))
    # the fair verdict (``analysis.fair.FairDecision``), in a fair analysis (not read back)
    fair: object | None = field(default=None, metadata=key(when="fair", read=False))
    # its loss and class on the match scale (``analysis.match_scale.MatchScale.applied``)
    on_scale: GradeOnScale | None = field(default=None, metadata=key(inline=True, omit_none=True))
    # why it lost (``analysis.reasons``): a graded move's and the critical move's, where asked for (None: not given);
    # then those over the deals its player could not rule out, or a sheet's deals (``analysis.dealreasons``)
    reasons: tuple[Reason, ...] | None = field(default=None, metadata=key(omit_none=True))

    def __post_init__(self):
        _as_tuples(self, ("alternatives", "reasons"))

    @property
    def least_loss(self) -> int | None:
        """Where some alternatives are not valued exactly (``unsolved``): the least the move played loses,
        proven by the values and bounds found (None when nothing bounds the move played from the side that
        matters, or no other move from the other)."""
        if self.loss is not None:
            return self.loss
        sign = 1 if self.side == 0 else -1
        played = next((a for a in self.alternatives if a.played), None)
        high = None if played is None else _mover_bounds(played, sign)[1]
        lows = [low for a in self.alternatives if (low := _mover_bounds(a, sign)[0]) is not None]
        if high is None or not lows:
            return None
        return max(0, max(lows) - high)


def _mover_bounds(alt: Alternative, sign: int) -> tuple[int | None, int | None]:
    """What is proven of ``alt``'s value for the mover (``sign`` -1: side 1, who minimises): ``(low,
    high)``, None where open."""
    low, high = (alt.value, alt.value) if alt.value is not None else alt.bounds or (None, None)
    if sign < 0:
        low, high = (None if high is None else -high), (None if low is None else -low)
    return low, high



_FAIR = key(when="fair", read=False)     # the fair analysis's fields of a game: written in one, not read back


@dataclass(frozen=True)
class GameAnalysis:
    title: str
    players: tuple[str, ...]
    sides: tuple[str, ...]                # "A/C", "B/D"
    decisions: tuple[Decision, ...] = ()
    moves: tuple[Played, ...] = ()        # the analysed line
    values: tuple[int | None, ...] = ()   # value before the first move, then after each step
    critical: Decision | None = None
    turning_point: int | None = None      # the step after which the value first changes sign
    turning_cause: str | None = None      # what at that step turned it, where not the choice of tile alone
    analysed_steps: int = 0
    stopped: str | None = None            # why the analysis stops before the end of the record
    note: str | None = None               # what the values assume (the variant's search note)
    perspective: str | None = None        # whose values these are, when not the first side's
    # a record that stops at a decision ("what should he play now?", [Result "*"]): the values of every move of
    # the player to move there, nothing played (``played`` "", no loss); its ``fair`` in a fair analysis
    to_move: Decision | None = None
    # a sheet without hands (``analysis.sheets``): the deals it allows (``DealsSummary``) and why none fits it
    # (written where either is known), and the deals found (``inference.sheet.SheetDeals``, for its fair verdicts;
    # not in the plain data)
    deals: DealsSummary | None = field(default=None, metadata=key(group="deals"))
    deals_error: str | None = field(default=None, metadata=key(group="deals"))
    # the fair analysis (``analysis.fair``), when asked for: the players judged by what they could know, which
    # seats were analysed (why the others were not, the assumptions), the record's facts admitting no world (the
    # move that contradicts them), the fair critical move
    fair_seats: tuple[str, ...] = field(default=(), metadata=_FAIR)
    fair_note: str | None = field(default=None, metadata=_FAIR)
    fair_error: str | None = field(default=None, metadata=_FAIR)
    fair_critical: Decision | None = field(default=None, metadata=_FAIR)
    # a sheet's fair verdicts planned down to their CPU budget (``analysis.sheets.fair_budget``): to what, and why
    fair_cut: FairCut | None = field(default=None, metadata=key(when="fair", read=False, omit_none=True))
    lines: tuple[dict, ...] = field(default=(), metadata=key(when="lines"))   # best continuations, when asked for
    fair: bool = field(default=False, metadata=key(flag=True))
    deals_found: object | None = field(default=None, repr=False, compare=False, metadata=key(skip=True))
    # the draws' luck in all, by side (``analysis.drawluck.with_luck``), and the match scale's grading
    # (``analysis.match_scale.MatchScale``: ``MatchScale.applied``), where composed in
    draw_luck: tuple[SideLuck, ...] | None = field(default=None, metadata=key(omit_none=True))
    match_scale: object | None = field(default=None, metadata=key(omit_none=True))
    # the grades its moves were given by, on this game's scale (``grades.on_scale``): what a page or the text
    # states as its thresholds; None where no move was graded (the analysis did not start)
    grading: Grading | None = field(default=None, metadata=key(omit_none=True))

    def __post_init__(self):
        _as_tuples(self, ("players", "sides", "decisions", "moves", "values", "fair_seats", "lines"))


def _as_tuples(value, names: tuple[str, ...]) -> None:
    """The lists a constructor of the frozen ``value`` was given for ``names``, kept as tuples (a finished result
    is not changed afterwards; the codec writes a tuple as the list it was)."""
    for name in names:
        if isinstance(getattr(value, name), list):
            object.__setattr__(value, name, tuple(getattr(value, name)))


def renewed(d: Decision | None, new: dict[int, Decision]) -> Decision | None:
    """``d`` as a later step gave it anew (``new``: by the ``id`` of each decision it replaced), else ``d``: how a
    new analysis's ``critical`` and ``fair_critical`` follow its decisions."""
    return None if d is None else new.get(id(d), d)


@dataclass(frozen=True)
class AnalysisSettings:
    """What an open-hands analysis computes: the ``thresholds`` of its classes (in points; read on the game's scale,
    :func:`~analyzer.analysis.grades.on_scale`), whether each alternative's best line is kept (``lines``), and what
    each search may spend (``budget``: its node limit and table size, :class:`~analyzer.search.core.SearchBudget`).
    ``steps``: the indices of the steps valued (None: every one); another step gets neither a decision nor a running
    value, and the decision the record stops at is valued only where its index (the number of steps) is among them
    (a sheet's deals value only the decisions still in question: :mod:`analyzer.analysis.sheets`)."""

    thresholds: Thresholds = Thresholds()
    lines: bool = False
    budget: SearchBudget = SearchBudget()
    reasons: bool = False         # why each graded move (and the critical one) lost (``analysis.reasons``)
    steps: frozenset[int] | None = None


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def int_solver_plays(variant: Variant) -> bool:
    """Whether the fast int solver plays ``variant`` (a two-ended block game, one tile a turn, no
    boneyard, no points during play, a hand over when one player is out); else the general search."""
    return variant.search == "block"


def searcher_for(rules, fast: bool, node_limit: int | None, table_mb: float = TABLE_MB, max_deals: int = 4):
    """The int solver for a two-ended block game (exposed tiles too, Domino Whist §8), else the general
    search over the position (``max_deals``: the deals an int solver keeps tables for; the fair analysis
    solves one a solver)."""
    if fast:
        return Solver(rules, table_mb=table_mb, node_limit=node_limit, max_deals=max_deals)
    return TreeSearch(rules, node_limit, table_mb)


def start_position(rep: Replay, prefix: int) -> tuple[Position | None, str | None]:
    """The position the analysis starts from, or why there is none. A draw game's boneyard gets the
    order the record reveals (see :class:`analyzer.search.RevealedDraws`)."""
    pos = rep.initial.copy()
    if not pos.draws or not pos.stock:
        return pos, None
    drawn = [step.move.tile for step in rep.steps[:prefix] if step.move is not None and step.move.draw]
    if any(t is None for t in drawn):
        return None, "the record does not name every tile drawn (\"draws ?\"), so the boneyard order is unknown"
    return revealed(pos, revealed_order(pos, drawn)), None


def searches_for(variant: Variant, node_limit: int | None = None, table_mb: float = TABLE_MB) -> dict[int, object]:
    """The searches an open-hands analysis of a game of ``variant`` values its moves with, by view: ``{0: the
    search}`` for two sides; for individual players one a seat, the mover against all the others
    (:class:`AgainstTheRest`), sharing ``table_mb``."""
    fast = int_solver_plays(variant)
    if variant.seating.sides == 2:
        return {0: searcher_for(variant, fast, node_limit, table_mb)}
    return {seat: searcher_for(AgainstTheRest(variant, seat), fast, node_limit, table_mb / variant.players)
            for seat in range(variant.players)}


def analyze_replay(rep: Replay, settings: AnalysisSettings = AnalysisSettings(),
                   progress: Callable[[int], None] | None = None,
                   searches: dict[int, object] | None = None) -> GameAnalysis:
    """Analyse the legal prefix of a replayed game with every hand open.

    ``settings``: the thresholds of the classes, whether to keep the best lines, and each search's budget: the
    positions the exact search (the int solver of two-ended block games as well as the general search) may visit
    for the values of one decision (or one running value), one that needs more left out, the others given, and
    ``stopped`` naming the moves left out (default ``analyzer.search.NODE_LIMIT``); the memory the transposition
    tables may take (default ``analyzer.search.TABLE_MB``).
    ``progress`` is called with 1 for every move of the record whose position has been valued.
    ``searches`` (:func:`searches_for`'s, by view; ``{0: solver}`` for two sides): the searches to value the moves
    with, kept by the caller, whose tables then hold what this analysis searched (default: made here).

    Values are the hand's points for the first side (or, in a game of individuals, for the
    mover against all the others: ``AgainstTheRest``), counting from the deal: points already
    scored during play (All Fives) plus the value of what is still to come."""
    variant = rep.variant
    out, pos = _opening(rep)
    if pos is None:
        return out.done()
    prefix = rep.legal_prefix
    _add_notes(out, rep, pos, prefix, int_solver_plays(variant))
    budget = settings.budget
    if variant.seating.sides > 2:
        # every decision is valued for its mover against all the others; the running values
        # follow the first player of the play order
        out.sides = list(rep.players)
        out.perspective = gettext("each decision is valued for its mover against all the others; the running "
                                  "values are {player}'s", player=rep.players[0])
    if prefix < len(rep.steps):
        out.stopped = stop_reason(rep)
    walk = _Walk(out, rep, settings, searches or searches_for(variant, budget.node_limit, budget.table_mb))
    line, points = _played_line(out, rep, pos, prefix)
    out.analysed_steps = len(line)
    values, over, full = _value_back(walk, pos, line, points, progress)
    out.values = values
    _conclude(walk, line, over, full)
    if settings.reasons:
        _explain(walk, line)
    return out.done()


def _explain(walk: _Walk, line: list) -> None:
    """Give each graded decision and the critical one its reasons (``analysis.reasons``): the principal lines after
    the move played and after the first best move, played out from the position before it, compared. A line whose
    result is not the analysis's value (past the node limit, a line that does not end the hand) gives no reasons."""
    out, rep = walk.out, walk.rep
    at = {p.step.index: k for k, p in enumerate(line) if p.pos is not None}
    leader = next((s.seat for s in rep.steps if s.move is not None and s.move.tile is not None), rep.initial.turn)
    teams = rep.variant.seating.teams
    for i, d in enumerate(out.decisions):
        if not (d.cls or d is out.critical) or not d.loss or d.played == "no extra tile" or d.index not in at:
            continue
        k = at[d.index]
        pos, points = line[k].pos, line[k].points
        search, side = walk.mover(pos.turn)
        by_text = {alternative_text(m): m for m in pos.legal_moves()}
        best = next((a for a in d.alternatives if a.best and a.value is not None), None)
        played = next((a for a in d.alternatives if a.played), None)
        if best is None or played is None or best.move not in by_text or played.move not in by_text:
            continue
        try:
            walked = [walk_line(pos, by_text[a.move], search, rep.variant, leader, points, out.players)
                      for a in (played, best)]
        except SearchLimit:
            continue
        view = pos.turn if walk.individual else 0
        if any(w.result is None or hand_value(rep.variant, w.result, view) != a.value
               for w, a in zip(walked, (played, best))):
            continue
        shown = shown_facts([(p.step.index, p.pos, p.step.move) for p in line[:k]])
        new = replace(d, reasons=explain(d, *walked, pos, shown, out.players, teams))
        if out.critical is d:
            out.critical = new
        out.decisions[i] = new


class _Draft:
    """An open-hands analysis under way (the builder's own, never given out): the fields of its
    :class:`GameAnalysis` as they are found, the lists growing; :meth:`done` the finished, frozen analysis."""

    def __init__(self, title: str, players, sides):
        self.__dict__.update({f.name: f.default for f in fields(GameAnalysis) if f.init and f.name != "title"
                              and f.default is not MISSING})
        self.__dict__.update(title=title, players=list(players), sides=list(sides), decisions=[], moves=[],
                             values=[], lines=[])

    def done(self) -> GameAnalysis:
        return GameAnalysis(**self.__dict__)


@dataclass
class _Walk:
    """One open-hands analysis under way: the result it fills (``out``), the game, its settings (the thresholds
    read on the game's scale) and its searches by view (one for two sides; one a seat for individual players, each
    valuing his moves against all the others)."""

    out: _Draft
    rep: Replay
    settings: AnalysisSettings
    searches: dict

    def __post_init__(self):
        variant = self.rep.variant
        self.individual = variant.seating.sides > 2
        self.thresholds = on_scale(self.settings.thresholds, variant)
        self.out.grading = self.thresholds.grading
        self.solver = self.searches[0]      # the running values' (two sides: the one search)
        # the running values follow the first player of the play order in a game of individuals
        self.teams = tuple(0 if s == 0 else 1 for s in range(variant.players)) if self.individual \
            else variant.seating.teams

    def mover(self, turn: int):
        """The search that values the moves of the player at ``turn``, and his side in its values."""
        if self.individual:
            return self.searches[turn], 0
        return self.solver, self.teams[turn]

    def scored(self, points: tuple[int, ...], seat: int) -> int:
        """The points scored for the first side; in a game of individuals, for ``seat`` against the others."""
        if self.individual:
            return 2 * points[seat] - sum(points)
        return sum(p if self.teams[s] == 0 else -p for s, p in enumerate(points))


def _opening(rep: Replay) -> tuple[_Draft, Position | None]:
    """The analysis to fill and the position it starts from; no position when the game cannot be
    analysed with every hand open (``stopped`` says why)."""
    variant = rep.variant
    if len(rep.players) != variant.players:
        out = _Draft(rep.title, rep.players, [])
        out.stopped = gettext("the record names {names}; the {variant} game has {players}, so nothing can be "
                              "analysed", names=ngettext("{n} player", "{n} players", len(rep.players)),
                              variant=variant.name, players=variant.players)
        return out, None
    out = _Draft(rep.title, rep.players, [rep.side_name(s) for s in range(variant.seating.sides)])
    if not rep.deal_ok:
        first = next(d for d in rep.deal_diagnostics if d.severity == Severity.ERROR)
        out.stopped = (gettext("the deal has errors, so nothing can be analysed (line {line}): {code}: {message}",
                               line=first.line, code=first.code, message=first.message) if first.line else
                       gettext("the deal has errors, so nothing can be analysed: {code}: {message}", code=first.code,
                               message=first.message))
        return out, None
    if any(rep.initial.hidden):
        out.stopped = gettext("the deal is not fully known, so exact values with every hand open cannot be computed; "
                              "the fair analysis (domino analyze --fair) judges the players whose hand is known")
        return out, None
    pos, why = start_position(rep, rep.legal_prefix)
    if pos is None:
        out.stopped = gettext("no exact search for this game: {why}", why=why)
    return out, pos


def _add_notes(out: _Draft, rep: Replay, pos: Position, prefix: int, fast: bool) -> None:
    """The notes on the search: the variant's, how much of the boneyard order the record reveals, and
    where the search may be slow."""
    variant = rep.variant
    out.note = variant.search_note or None
    if hasattr(pos, "order"):
        shown = sum(1 for step in rep.steps[:prefix] if step.move is not None and step.move.draw)
        out.note = f"{out.note} " + ngettext("This record reveals {shown} of the {n} tile of the boneyard order.",
                                             "This record reveals {shown} of the {n} tiles of the boneyard order.",
                                             len(pos.order), shown=number(shown))
    viewed = variant if variant.seating.sides == 2 else AgainstTheRest(variant, 0)
    slow = core_note(viewed) if fast else (arms_note(viewed) if variant.layout != Layout.LINE else draw_note(viewed))
    if slow:
        out.note = f"{out.note} {slow}" if out.note else slow


def _played_line(out: _Draft, rep: Replay, pos: Position,
                 prefix: int) -> tuple[list[_Point], tuple[int, ...]]:
    """The line as played, from ``pos`` (left at its end): the position before every step (a copy) and
    the points scored before it; and the points scored at its end. The moves go to ``out.moves``."""
    # the values are then searched from the end of the line back to the deal, so that each search
    # finds the later positions in its table; one that needs more than the node limit allows leaves
    # out its own values only
    line: list[_Point] = []
    points = rep.start_scores or (0,) * rep.variant.players   # what each seat has scored during play so far (All Fives)
    for step in rep.steps[:prefix]:
        if pos.outcome() is not None:
            break
        declined = None
        if step.move is not None and getattr(pos, "offer", -1) >= 0 and not (step.seat == pos.offer
                                                                             and step.move.is_play):
            declined = pos.copy()          # the opener of a draw game adds no tile to his lead
            pos.push(NO_EXTRA)
        here = _Point(step, pos.copy() if step.move is not None else None, points, declined)
        if step.move is not None:
            pos.push(step.move)
        if step.scores is not None:       # the points as the record has them: claimed, or taken by muggins
            points = tuple(step.scores)
        line.append(here)
        out.moves.append(Played(step.entry.player, step.entry.text if step.move is None else str(step.move)))
    return line, points


def _value_back(walk: _Walk, pos: Position, line: list[_Point], points: tuple[int, ...],
                progress: Callable[[int], None] | None) -> tuple[list[int | None], list[int], bool]:
    """The values of the line as played, searched from its end (``pos``) back to the deal, its
    decisions added to the analysis: the values, the steps whose search went past the node limit, and
    whether a table was full when one did."""
    out, rep, solver, scored = walk.out, walk.rep, walk.solver, walk.scored
    values: list[int | None] = [None] * (len(line) + 1)
    over: list[int] = []                 # the steps whose search went past the node limit
    searches = list(walk.searches.values())
    full = False                         # a table was full when a search went past the limit

    def past_limit(k: int) -> None:
        nonlocal full
        over.append(k)
        full = full or any(getattr(s, "table_full", False) for s in searches)

    try:
        k = len(line)
        steps = walk.settings.steps
        try:
            if steps is None or len(rep.steps) in steps:
                values[k] = scored(points, 0) + solver.solve(pos)
            if stops_at_decision(rep, pos) and (steps is None or len(rep.steps) in steps):
                out.to_move = _to_move(rep, *walk.mover(pos.turn), pos, scored(points, pos.turn))
        except SearchLimit:
            past_limit(k)
        for k in reversed(range(len(line))):
            if progress is not None:
                progress(1)
            here = line[k]
            at = here.pos
            if at is None:                # a Muggins call: points change hands, the position does not
                if values[k + 1] is not None:
                    values[k] = values[k + 1] - scored(line[k + 1].points if k + 1 < len(line) else points, 0) \
                        + scored(here.points, 0)
                continue
            if steps is not None and here.step.index not in steps and not (here.declined is not None
                                                                            and walk.rep.steps[0].index in steps):
                continue
            # each step is searched on its own budget: an earlier decision may need far fewer positions
            # than a later one (a seat that has drawn many sleepers moves later), so one past the limit
            # leaves out its own values only
            try:
                _step(walk, line, k, values)
            except SearchLimit:
                past_limit(k)
    except (SolverError, NotImplementedError) as exc:
        out.stopped = gettext("the exact search stops: {reason}", reason=exc)
    return values, over, full


def _conclude(walk: _Walk, line: list[_Point], over: list[int], full: bool) -> None:
    """The analysis's findings once the values are in: the decisions in order, the values left out (and
    why), the critical move and the turning point."""
    out, rep, solver, table_mb = walk.out, walk.rep, walk.solver, walk.settings.budget.table_mb
    out.decisions.sort(key=lambda d: (d.index, d.played != "no extra tile"))
    out.lines.sort(key=lambda entry: entry["index"])
    if over:
        limit = getattr(solver, "node_limit", 0)
        gap = (gettext("the exact search needs more than {limit} positions (the node limit, --max-nodes) at "
                       "{places}, so the values there are missing", limit=number(limit), places=_places(line, over))
               + (gettext("; each move of a decision there is given its exact value or the bounds the search proved")
                  if any(d.unsolved for d in out.decisions) else "") + "; "
               + (gettext("the others are given") if len(over) < len(line) + 1 else gettext("none is given")))
        if full:
            mb = table_mb if walk.individual else getattr(solver, "table_mb", table_mb)
            shown = f"{mb:g}"
            gap += " " + gettext("(the transposition tables, {mb} MB in all, were full and gave up entries: a larger "
                                 "--table-mb may help too)",
                                 mb=decimal(mb, len(shown.partition(".")[2])) if "e" not in shown else shown)
        out.stopped = f"{out.stopped}; {gap}" if out.stopped else gap
    lossy = [d for d in out.decisions if d.loss]
    if lossy:
        out.critical = max(lossy, key=lambda d: (d.loss, -d.index))
    for i in range(1, len(out.values)):
        before, after = out.values[i - 1], out.values[i]
        if before is not None and after is not None and _sign(after) != _sign(before):
            out.turning_point = rep.steps[i - 1].index
            out.turning_cause = _turning_cause(rep.steps[i - 1], after, out.decisions)
            break


def _turning_cause(step, after: int, decisions: list[Decision]) -> str | None:
    """What turned the value at ``step`` where the tile chosen is not the whole of it (scoring during play):
    a Muggins call that takes points a play left unclaimed, or a play whose points its player left unclaimed
    (valued as claimed, the choice gives another value)."""
    if step.entry.is_muggins:
        return f"{step.entry.player}'s Muggins call takes the points the play before left unclaimed"
    missed = next((d for d in step.diagnostics if d.code == Code.MISSED_SCORE), None)
    if missed is None:
        return None
    decision = next((d for d in decisions if d.index == step.index and d.played_value is not None), None)
    claimed = f" (claimed, the value would be {decision.played_value:+d})" if decision and \
        decision.played_value != after else ""
    return f"{step.entry.player} does not claim the points of this play{claimed}"


def _places(line: list, over: list[int]) -> str:
    """The steps ``over`` of the line as played, named for a reader: "move 12", "moves 1 to 9 and 12",
    "the end of the hand"."""
    moves = sorted(line[k].step.index + 1 for k in over if k < len(line))
    runs: list[list[int]] = []
    for m in moves:
        if runs and m == runs[-1][-1] + 1:
            runs[-1].append(m)
        else:
            runs.append([m])
    parts = [p for r in runs for p in ([gettext("{first} to {last}", first=r[0], last=r[-1])] if len(r) > 2 else
                                       map(str, r))]
    named = []
    if parts:
        listed = parts[0] if len(parts) == 1 else gettext("{some} and {last}", some=", ".join(parts[:-1]),
                                                          last=parts[-1])
        named.append(gettext("moves {moves}", moves=listed) if len(moves) > 1 else
                     gettext("move {number}", number=listed))
    if len(line) in over:
        named.append(gettext("the end of the hand"))
    return gettext(" and at ").join(named)


def _step(walk: _Walk, line: list, k: int, values: list) -> None:
    """Value step ``k`` of the line as played: its decision (every alternative), or the position before
    it, and the decision of a draw game's opener who added no tile to his lead right before it (recorded
    at the record's first step)."""
    here = line[k]
    step, at = here.step, here.pos
    mover, _ = walk.mover(at.turn)
    # a false play that stands (Domino Whist §8) is no choice among the legal moves
    choice = len(at.legal_moves()) > 1 and step.move.open is None
    if choice:
        _decide(walk, at, step.move, step, walk.scored(here.points, at.turn))
    if choice and mover is walk.solver:
        values[k] = walk.out.decisions[-1].best_value
    elif walk.settings.steps is not None and not choice:
        pass                                # (only decisions asked for: no running value)
    else:
        values[k] = walk.scored(here.points, 0) + walk.solver.solve(at)
    if here.declined is not None and len(here.declined.legal_moves()) > 1:
        d = here.declined
        _decide(walk, d, NO_EXTRA, walk.rep.steps[0], walk.scored(here.points, d.turn))


def stop_reason(rep: Replay) -> str | None:
    """Why the analysis stops before the end of the record: its first move with an error."""
    prefix = rep.legal_prefix
    if prefix >= len(rep.steps):
        return None
    bad = rep.steps[prefix]
    first = next(d for d in bad.diagnostics if d.severity == Severity.ERROR)
    return gettext("the analysis stops before move {number} (line {line}): {code}: {message}", number=prefix + 1,
                   line=bad.entry.pos.line, code=first.code, message=first.message)


@dataclass
class _Point:
    """A step of the line as played: the position before it (None for a Muggins call, which moves
    points, not tiles), each seat's points scored before it, and the position where the opener of a
    draw game chose to add no tile to his lead, when that came right before it."""

    step: object
    pos: Position | None
    points: tuple[int, ...]
    declined: Position | None = None


def _decide(walk: _Walk, pos: Position, played: Move, step, scored: int = 0) -> int:
    """Value every move of the player to move and record the decision; the played move's value.
    ``scored``: the points scored during play so far, which every value includes. Where the search
    runs past the node limit, the decision is recorded with each move's exact value or its proven
    bounds (a best move, a loss and a class only where they are proven) and :class:`SearchLimit` goes on
    up, unless its probes found every value."""
    out, thresholds = walk.out, walk.thresholds
    mover, side = walk.mover(pos.turn)
    same = pos.canonical(played)          # a tile on an arm alike to an earlier one is that move
    player = step.entry.player if played is not NO_EXTRA else out.players[pos.turn]
    where = (step.index, player, side, step.entry.pos.line or None, step.entry.pos.column or None, step.entry.round,
             alternative_text(played))
    try:
        values = [(m, scored + v) for m, v in mover.values(pos)]
    except SearchLimit as exc:
        if not exc.bounds or any(lo is None or lo != hi for _, lo, hi in exc.bounds):
            if exc.partial or exc.bounds:
                out.decisions.append(_bounded(where, pos, exc, same, scored, thresholds))
            raise
        values = [(m, scored + v) for m, v, _ in exc.bounds]    # the probes found every value
    pick = max if side == 0 else min
    best = pick(v for _, v in values)
    played_value = next(v for m, v in values if m == same)
    loss = abs(best - played_value)
    shown = [None] * len(values)
    if walk.settings.lines:
        entry = _lines(mover, pos, step.index, values, played, out.players)
        out.lines.append(entry)
        shown = [data["line"] for data in entry["alternatives"]]
    alts = [Alternative(alternative_text(m), v, v == best, m == same, line=line) for (m, v), line in zip(values, shown)]
    out.decisions.append(Decision(*where, played_value, alts, best, loss, thresholds.classify(loss, best, played_value, side)))
    return played_value


def _bounded(where: tuple, pos: Position, exc: SearchLimit, same: Move, scored: int,
             thresholds: Thresholds) -> Decision:
    """A decision (``where``: its first fields) whose search met the node limit: each move's exact value found,
    else its proven bounds, ``scored`` added; the moves proven best; a loss and class where they are proven
    (the move played is a best one, or both its value and the best one are exact)."""
    side = where[2]
    moves = pos.legal_moves()
    found = {m: (lo, hi) for m, lo, hi in exc.bounds} or {m: (v, v) for m, v in exc.partial}
    found = {m: tuple(None if b is None else scored + b for b in bounds) for m, bounds in found.items()}
    best = set(proven_best([(m, *found.get(m, (None, None))) for m in moves], side == 0))
    alts = []
    for m in moves:
        lo, hi = found.get(m, (None, None))
        exact = lo is not None and lo == hi
        alts.append(Alternative(alternative_text(m), lo if exact else None, m in best, m == same,
                                bounds=None if exact or (lo is None and hi is None) else [lo, hi]))
    played_value, best_value = next(a.value for a in alts if a.played), best_value_of(alts)
    loss = (0 if same in best else None if best_value is None or played_value is None
            else abs(best_value - played_value))
    return Decision(*where, played_value, alts, best_value, loss,
                    None if loss is None else thresholds.classify(loss, best_value, played_value, side),
                    unsolved=sum(a.value is None for a in alts))


def best_value_of(alts: list[Alternative]) -> int | None:
    """The value of the best of ``alts`` where one is proven best and its value is exact."""
    return next((a.value for a in alts if a.best and a.value is not None), None)


def stops_at_decision(rep: Replay, pos: Position, prefix: int | None = None) -> bool:
    """Whether the record stops at a decision: every move it has is legal, its result is not stated
    (``[Result "*"]`` or none), the hand goes on and the player to move there has a choice (``pos``: the
    position after its last move)."""
    prefix = rep.legal_prefix if prefix is None else prefix
    stated = (rep.game.tags.get("Result") or "*").strip()
    return (stated in ("*", "?") and rep.deal_ok and prefix == len(rep.steps) and pos.outcome() is None
            and getattr(pos, "offer", -1) < 0 and len(pos.legal_moves()) > 1)


def open_decision(rep: Replay, pos: Position, side: int, values: list[tuple[Move, int | None]]) -> Decision:
    """The decision at the end of a record that stops there: every move of the player to move, valued
    (None: not known), nothing played."""
    known = [v for _, v in values if v is not None]
    best = (max(known) if side == 0 else min(known)) if known else None
    last = rep.steps[-1].entry if rep.steps else None
    return Decision(len(rep.steps), rep.players[pos.turn], side, last.pos.line or None if last else None, None,
                    last.round if last else None, "", None,
                    [Alternative(alternative_text(m), v, v is not None and v == best, False) for m, v in values],
                    best, None, None)


def _to_move(rep: Replay, mover, side: int, pos: Position, scored: int) -> Decision:
    return open_decision(rep, pos, side, [(m, scored + v) for m, v in mover.values(pos)])


#: what the alternative ``no extra tile`` is, in words a newcomer reads (the analysis text says it where offered)
NO_EXTRA_WORDS = N_("in the draw game the player who leads with his highest double may at once lay "
                    "a second tile that matches it (the same number on one half), so he moves twice; \"no extra tile\" "
                    "is his choice to lay none, and the next player moves")


def alternative_text(move: Move) -> str:
    """An alternative at a decision as the analyses show it: the move in the notation, or ``no extra tile``."""
    return "no extra tile" if move == NO_EXTRA else str(move)


def _lines(solver: Solver, pos: Position, index: int, values: list[tuple[Move, int]], played: Move,
           players: list[str]) -> dict:
    """Each alternative at a decision with its best continuation to the end of the hand: ``continuation``
    as ``(seat, move)`` and ``line``, the alternative and its continuation in the notation's move text
    (``"B [0-0]"``, ``"C pass"``, ``"D draws [2-5]"``: a draw names the tile the boneyard order gives)."""
    alts = []
    for move, value in values:
        seat = pos.turn
        pos.push(move)
        if isinstance(solver, Solver):          # a block game: the principal line names each move's player
            found = principal_line(solver, pos)
            continuation, seats, shown = found.moves, found.seats, found.moves
        else:
            continuation = solver.best_line(pos)
            seats = []
            for m in continuation:          # who moves is the position's to say (runs, draws)
                seats.append(pos.turn)
                pos.push(m)
            made = [pos.pop() for _ in continuation][::-1]     # a draw comes back with the tile it drew
            shown = [d if m.draw and d is not None and d.draw else m for m, d in zip(continuation, made)]
        pos.pop()
        alts.append({"move": alternative_text(move), "seat": seat, "value": value, "played": move == played,
                     "continuation": [(seat_, str(m)) for seat_, m in zip(seats, continuation)],
                     "line": [f"{players[seat]} {alternative_text(move)}"]
                     + [f"{players[s]} {alternative_text(m)}" for s, m in zip(seats, shown)]})
    return {"index": index, "alternatives": alts}


def analyze(record, variant=None, settings: AnalysisSettings = AnalysisSettings(),
            progress: Callable[[int], None] | None = None, rules: dict[str, str] | None = None) -> list[GameAnalysis]:
    """Analyse every game of a record (see ``analyze_replay``).

    The end game of :func:`analyzer.notation.parse`'s example: Ann's [1-4] lets Bob out with her 12 ([6-6]
    left in her hand); [6-6] first (Bob cannot play) and [1-4] after would have won Bob's 4::

    >>> from analyzer.notation import parse
    >>> record = parse('''[Variant "block"] [Players "Ann, Bob"] [SetUp "1"] [Ends "4 6"] [OnTable "11"]
    ... [ToMove "Ann"]
    ... Ann: [1-4] [6-6]
    ... Bob: [1-3]
    ... 1. Ann [1-4] Bob [1-3]''', "endgame.dom")
    >>> game, = analyze(record)
    >>> decision = game.decisions[0]
    >>> decision.played, decision.played_value, decision.best_value, decision.loss, decision.cls
    ('[1-4]@4', -12, 4, 16, 'mistake')
    """
    out = []
    for rep in replay_record(record, variant, rules=rules):
        out.append(analyze_replay(rep, settings))
        if progress:
            progress(1)
    return out
