"""The report as plain data: what the page shows about each game, built from a replay and its analysis.

Nothing here knows HTML. The renderer (``page.py``) turns a :class:`ReportModel` into a page."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..analysis import NO_EXTRA_WORDS, Decision, GameAnalysis, Grading
from ..analysis.gradecounts import CLASSES, tally
from ..i18n import gettext, language
from .verdicts import alternative_marks, bounds_text, fair_note_words, holds_groups, sure_value, void_numbers
from ..diagnostics import Diagnostic
from ..rules.codes import Code
from ..position import Position, tiles_of
from ..record import StatedResult
from ..replay import Replay, wins
from ..replay.result import result_sentence
from ..rules.layout import ArmPosition
from ..tiles import Move, Tile
from ..diagnostics import Severity

__all__ = ["Issue", "board_view", "LineStep", "LineView", "line_steps", "LinePlayer", "ArmView", "Layout", "Board", "AlternativeView", "DecisionView", "MoveView", "PlayerView",
           "GameReport", "ReportModel", "build_report", "build_game", "move_words", "signed",
           "with_draw_luck"]

Pair = tuple[int, int]
_MOVES: dict[str, Move] = {}           # each move's text read once (the same few in line after line)


def signed(value: int | None) -> str:
    """``+46``, ``-10`` or ``0``; an empty string for no value."""
    if value is None:
        return ""
    return f"{value:+d}" if value else "0"


def move_words(text: str) -> str:
    """Say a move as a player would: ``[4-6]@6`` -> ``[4-6] on the 6``."""
    tile, at, end = text.partition("@")
    return gettext("{tile} on the {end}", tile=tile, end=end) if at else tile


def translated(text: str) -> str:
    """``text`` in the active language where the catalogue has it, else "" (a page shows no English sentence among
    another language's words; English: ``text``)."""
    shown = gettext(text)
    return shown if shown != text or language() == "en" else ""


def _tile_of(text: str) -> Pair | None:
    head = text.partition("@")[0]
    try:
        t = Tile.parse(head)
    except ValueError:
        return None
    return (t.low, t.high)


def _numbers(numbers) -> str:
    """``4``, ``4 and 5``, ``1, 4 and 5``."""
    items = [str(n) for n in numbers]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class Issue:
    """A diagnostic as the page shows it."""

    severity: str          # error / warning / info
    code: str
    message: str
    line: int | None
    column: int | None
    follows: str | None = None       # a follow-on error: the place of the slip it follows from
    slip: str | None = None          # the primary error of a slip: the likely repair, in words
    repaired: str | None = None      # with ``slip``: the anchor of the repaired record's game on the page

    @classmethod
    def of(cls, d: Diagnostic, triage=None, anchor: str | None = None) -> Issue:
        """The page's view of ``d``; with the game's ``triage``, whether it is the slip or follows from one."""
        if triage is not None:
            marked = triage.marks.get(d.key)
            if marked is not None and marked.details.get("follow_on"):
                return cls(d.severity, d.code, d.message, d.line, d.column, follows=marked.details.get("follows"))
            if marked is not None and d.severity == Severity.ERROR and triage.likely:
                return cls(d.severity, d.code, d.message, d.line, d.column, slip=triage.likely, repaired=anchor)
        return cls(d.severity, d.code, d.message, d.line, d.column)

    @property
    def where(self) -> str:
        if self.line is None:
            return ""
        return (gettext("line {line}, column {column}", line=self.line, column=self.column) if self.column is not None
                else gettext("line {line}", line=self.line))


@dataclass(frozen=True)
class ArmView:
    """One arm of a layout with arms (French, cross domino): its tiles outward and its open end."""

    number: int                      # the arm's number, as a record's ``>N`` names it
    origin: Pair | None              # None: it starts at the lead tile; else (arm, index): the double it
                                     # branches from, ``arms[arm - 1].tiles[index]`` of the :class:`Layout`
    tiles: list[Pair]                # outward from where it starts, each as (near half, far half)
    open: int                        # the number a tile must show to go on it
    state: str                       # start / closed / double / open (``analyzer.rules.layout``)


@dataclass(frozen=True)
class Layout:
    """The picture of a layout with arms: the lead tile and every arm (empty before the lead)."""

    lead: Pair | None                # a double (the spinner); (arm 1's half, arm 2's half) if it is none
    arms: list[ArmView]              # in arm order: ``arms[k - 1]`` is arm k

    @property
    def tiles(self) -> int:
        return (self.lead is not None) + sum(len(a.tiles) for a in self.arms)


@dataclass(frozen=True)
class Board:
    """The table after a move: the line of play and what every player still holds."""

    line: list[Pair]                 # the line left to right, each tile as (left half, right half); for a
                                     # layout with arms the tiles in the order they were laid
    lead: int | None                 # where the lead tile stands in ``line``
    hands: list[list[Pair]]          # the known tiles each seat still holds
    counts: list[int]                # tiles each seat still holds (known or not)
    pips: list[int | None]           # pips in each hand (None when the hand is not known)
    voids: list[list[int]]           # numbers each seat's passes so far prove he lacks
    ends: tuple[int, ...] | None     # the open numbers (a layout with arms: each arm's, in arm order)
    last: Pair | None                # the tile this move put down
    layout: Layout | None = None     # a layout with arms (French, cross): the picture; None for a line


class LineStep(NamedTuple):
    """One move of an alternative's best line as the page draws it: who, the tile laid (or drawn), what is left
    (a named tuple: a page makes hundreds, and a frozen dataclass takes four times as long to make)."""

    seat: int
    tile: Pair | None                # the tile laid or drawn, as (low, high); None: a pass
    laid: bool                       # the tile went on the table (else: drawn from the boneyard)
    count: int                       # tiles the mover still holds
    pips: int | None                 # pips in his hand (None: not known)
    ends: tuple[int, ...] | None     # the open numbers after it
    layout: Layout | None = None     # a layout with arms: the picture after it


@dataclass(frozen=True)
class LineView:
    """An alternative's best line to the end of the hand with every hand open, as the page steps through it: each
    move (``"B [0-0]"``, the alternative first), what it changes, and the line of play after the last move.
    Playing it out scores the alternative's value, so the value after every step is that value."""

    moves: list[str]
    steps: list[LineStep]
    line: list[Pair]                 # the line of play after the last move, left to right (none for arms)
    lead: int | None
    said: tuple[str, ...] = ()       # each move without its player's name (``"[0-0]"``): the page names him

    seats = property(lambda self: [s.seat for s in self.steps])      # who makes each move


@dataclass(frozen=True)
class AlternativeView:
    move: str                        # as the analysis writes it: "[4-6]@6"
    text: str                        # "[4-6] on the 6"
    tile: Pair | None
    value: int | None                # points for the first side with best play afterwards (None: a hidden hand)
    best: bool
    played: bool
    loss: int | None                 # what it gives away against the best, from the mover's side
    fair: object | None = None       # its fair value (``analysis.fair.FairValue``), in a fair analysis
    fair_loss: float | None = None   # what it gives away on average against the fair best, from the mover's side
    marks: tuple[str, ...] = ()      # "played", "best" (the verdict), "hindsight's pick" (``render.verdicts``)
    line: LineView | None = None     # its best line on the table, step by step (an analysis with lines)
    bounds: list | None = None       # past the node limit: the proven ``[low, high]`` of its value (None: open)
    over_deals: object | None = None  # a sheet without hands: its value over the deals the sheet allows
    #                                   (``analysis.dealvalues.OverDeals``), where ``value`` is None

    @property
    def bounds_text(self) -> str:
        """Its proven bounds as the page shows them (``≥ +12``, ``[+4, +20]``)."""
        return bounds_text(self.bounds, "≥", "≤") if self.bounds else ""


@dataclass(frozen=True)
class DecisionView:
    side: int                        # the mover's side (0 maximises the value, 1 minimises it)
    alternatives: list[AlternativeView]   # best first, from the mover's point of view
    best: list[str]                  # the best moves in words
    best_value: int | None
    played_value: int | None
    loss: int | None
    cls: str | None                  # inaccuracy / mistake / blunder
    fair: object | None = None       # the fair verdict (``analysis.fair.FairDecision``), in a fair analysis
    unsolved: int = 0                # moves the search did not value within the node limit
    least_loss: int | None = None    # then: the least the move played loses, by the moves valued
    loss_over: object | None = None  # a sheet without hands: the loss of the move played over the deals the sheet
    #                                  allows (``analysis.dealvalues.OverDeals``), where ``loss`` is None
    reasons: tuple = ()              # why it lost (``analysis.reasons.Reason``), a graded move's


@dataclass(frozen=True)
class Holds:
    """What the mover could infer before his move: the deals he could not tell apart and, for each
    tile he had not seen, the probability that each other hand (or the sleepers) holds it."""

    worlds: int
    holders: list[str]
    rows: list[tuple[Pair, list[float]]]
    groups: list[tuple[list[Pair], list[float]]] = field(default_factory=list)   # tiles of equal chances,
                                     # the certain and nearly certain first (``render.verdicts.holds_groups``)
    voids: dict[str, list[int]] = field(default_factory=dict)   # the numbers each holder surely has none of


@dataclass(frozen=True)
class MoveView:
    """One recorded move with the replay's and the analysis' findings."""

    number: int                      # 1-based; the page's fragment is #g<game>-m<number>
    index: int                       # the replay step
    round: int | None
    player: str
    seat: int | None
    side: int | None
    tile: Pair | None                # the recorded tile (None: a pass)
    text: str                        # "[3-6] on the 6", "pass", "[1-1] leads", "draws [2-5]", "muggins 10"
    applied: bool                    # False: the replay could not play it
    annotation: str | None           # the record's own mark: * ! ? !! ?? !? ?!
    comment: str | None
    lacks: tuple[int, ...]
    proves: str | None               # "C has no 1"
    issues: list[Issue]
    board: Board
    value_before: int | None = None
    value_after: int | None = None
    analysed: bool = False
    decision: DecisionView | None = None
    critical: bool = False
    turning_point: bool = False
    ends_hand: bool = False
    kind: str = "play"               # "play", "pass", "draw" (from the boneyard) or "muggins" (a call)
    holds: Holds | None = None       # the mover's view of who holds what, at a fair decision

    @property
    def cls(self) -> str | None:
        return self.decision.cls if self.decision else None

    @property
    def verdict(self) -> str | None:
        """The fair verdict on a graded move: "real", "uncertain" or "hindsight" (None: not graded, or no fair
        analysis)."""
        fair = self.decision.fair if self.decision else None
        return fair.verdict if fair is not None and fair.verdict != "none" else None

    @property
    def fair_cls(self) -> str | None:
        fair = self.decision.fair if self.decision else None
        return fair.cls if fair is not None else None

    @property
    def forced(self) -> bool:
        return self.analysed and self.decision is None

    @property
    def has_error(self) -> bool:
        return any(i.severity == Severity.ERROR for i in self.issues)


@dataclass(frozen=True)
class PlayerView:
    name: str
    seat: int
    side: int
    side_name: str
    dealt: list[Pair]                # the tiles of his deal the record shows (all of them, some or none)
    dealt_count: int
    unknown: int = 0                 # tiles of his deal the record does not show
    drawn: list[tuple[Pair, int]] = field(default_factory=list)   # each tile he draws, and the move drawing it

    @property
    def known(self) -> bool:
        """The record shows some of his tiles."""
        return bool(self.dealt or self.drawn)


@dataclass(frozen=True)
class GameReport:
    number: int
    anchor: str                      # "g1"
    title: str
    tags: list[tuple[str, str]]
    variant: str
    variant_description: str
    players: list[PlayerView]
    sides: list[str]                 # "A/C", "B/D"
    leader: str | None
    max_pip: int
    result: str                      # what the replay makes of the hand
    stated_result: str | None        # the Result tag
    stated_check: str | None         # "agrees" / "disagrees" / None when nothing to compare
    remark: str | None               # free text after a table (the book's verdict)
    comments: list[str]              # comments before the first move
    issues: list[Issue]              # syntax, deal and result problems: not tied to one move
    valid: bool
    error_count: int
    start: Board                     # the table before the first move
    moves: list[MoveView]
    values: list[int | None]         # value before the first move, then after each move (None: not analysed)
    critical: int | None = None      # the critical move's number
    turning_point: int | None = None
    turning_cause: str | None = None   # what turned the value there beyond the tile (an unclaimed score, muggins)
    stopped: str | None = None       # why the analysis does not reach the end of the record
    assumption: str | None = None    # what the values assume (the variant's search note, whose values)
    analysed: int = 0                # moves covered by the analysis
    layout: str = "line"             # the variant's layout: "line" or one with arms ("french", "cross"...)
    fair_note: str | None = None     # the fair analysis: whose moves it judges, and why not the others'
    fair_critical: int | None = None  # the number of the move that lost the most by what its player knew
    to_move: DecisionView | None = None   # a record that stops at a decision: the choices of the player to move
    to_move_player: str | None = None
    repair_of: str | None = None     # this game is the repaired copy of the game with this anchor
    diagrams: list[str] = field(default_factory=list)   # the SVG of each position (``domino diagram``'s), from the
                                     # deal on: the page saves them (``archive.task.page_model`` adds them)
    match: object = None             # ``report --scale match``: the game on the match scale, a report.matchscale.MatchView
    # a draw game with every hand open: the luck of its draws per side (or player), points and MWC, and the
    # draws each side made (``with_draw_luck``)
    draw_luck: list[tuple[str, float, float | None, int]] = field(default_factory=list)
    # a sheet without hands: the deals its whole record allows (``analysis.dealvalues.DealsSummary``), or why none
    # fits it; its decisions are valued over those deals (no running value: ``values`` all None)
    deals: object | None = None
    deals_error: str | None = None
    grading: Grading | None = None   # the grades its moves were given by, on its scale (the analysis's own)
    extra_tile: str | None = None    # what the draw game's "no extra tile" is, where an alternative offers it

    @property
    def sheet(self) -> bool:
        """A sheet without hands: its values are over the deals its record allows."""
        return self.deals is not None or self.deals_error is not None

    @property
    def fair(self) -> bool:
        return any(m.decision is not None and m.decision.fair is not None for m in self.moves)

    @property
    def fair_points(self) -> list[tuple[int, float]]:
        """(move number, fair value of the move played) at every fairly judged decision."""
        out = []
        for m in self.moves:
            if m.decision is not None and m.decision.fair is not None:
                played = next(a for a in m.decision.alternatives if a.played)
                if played.fair is not None:      # (a sheet's verdict over the hands has no value of the move)
                    out.append((m.number, played.fair.mean))
        return out

    @property
    def mistakes(self) -> list[int]:
        """The numbers of the moves graded by either analysis, for the key to the next mistake."""
        return [m.number for m in self.moves if m.cls or m.fair_cls]

    @property
    def exact(self) -> bool:
        """Some value of the page is exact with every hand open (a record with hidden hands has fair values only)."""
        return any(v is not None for v in self.values)

    @property
    def deal_value(self) -> int | None:
        return self.values[0] if self.values else None

    @property
    def critical_move(self) -> MoveView | None:
        return self.moves[self.critical - 1] if self.critical else None

    @property
    def turning_move(self) -> MoveView | None:
        return self.moves[self.turning_point - 1] if self.turning_point else None

    @property
    def value_side(self) -> str:
        return self.sides[0] if self.sides else gettext("the first side")

    @property
    def individual(self) -> bool:
        """A game of more than two individual players: each decision is valued for its mover against all
        the others, the running values for the first player (``analyze_replay``)."""
        return len(self.sides) > 2

    def value_words(self, value: int | None) -> str:
        """``A/C win 46``, ``B/D win 10`` or ``a draw``; in a game of individual players, ``-4 for A``
        (his value against all the others: it does not say which of them wins)."""
        if value is None:
            return gettext("not analysed")
        if self.individual or len(self.sides) < 2:
            return gettext("{value} for {player}", value=signed(value), player=self.value_side)
        if value == 0:
            return gettext("a draw")
        return f"{wins(self.sides[0 if value > 0 else 1], len(self.players) == len(self.sides))} {abs(value)}"

    def classified(self) -> dict[str, int]:
        """How many moves of each class the game's grades have (a game graded by who wins has no mistake)."""
        names = [cls for cls, _ in self.grading.legend] if self.grading else list(CLASSES)
        counted = tally(m.cls for m in self.moves if m.cls)
        return {name: counted.of(name) for name in names}


@dataclass(frozen=True)
class ReportModel:
    source: str
    title: str
    games: list[GameReport]
    grading: Grading | None          # the grades of every graded game of the page, where they agree (its legend)
    repaired: list[GameReport] = field(default_factory=list)   # the likeliest repairs of invalid games
    record_link: str | None = None   # the record as a link carries it (``#r=`` its value, analyzer.notation.link); None: not known

    @property
    def shown(self) -> list[GameReport]:
        """Every game the page shows: the record's, then the repaired copies of its invalid ones."""
        return self.games + self.repaired

    @property
    def max_pip(self) -> int:
        return max((g.max_pip for g in self.shown), default=6)


# ---- building ---------------------------------------------------------------------------------

def _pair_line(pos: Position) -> tuple[list[Pair], int | None]:
    line = pos.line()
    row = [((t.high, t.low) if flipped else (t.low, t.high)) for t, flipped in line]
    first = next((m.tile for m, *_ in pos.history if m.tile is not None), None)
    lead = next((i for i, (t, _) in enumerate(line) if t == first), None)
    return row, lead


def _layout(pos: ArmPosition) -> Layout:
    """The lead tile and every arm outward from it, with the arm's open end and state."""
    lead = pos.lead_tile()
    arms = [ArmView(c.arm, c.origin, list(c.tiles), a.number, a.state)
            for c, a in zip(pos.chains(), pos.arms)]
    return Layout(None if lead is None else (lead.low, lead.high), arms)


def _board(pos: Position, voids: list[set[int]], last: Tile | None) -> Board:
    line, lead = _pair_line(pos)
    hands = [[(t.low, t.high) for t in tiles_of(h, pos.max_pip)] for h in pos.hands]
    return Board(line, lead, hands, [pos.count(s) for s in range(pos.n)],
                 [None if pos.hidden[s] else pos.pips(s) for s in range(pos.n)],
                 [sorted(v) for v in voids], pos.ends, None if last is None else (last.low, last.high),
                 _layout(pos) if pos.has_arms else None)


def board_view(pos: Position, voids: list[set[int]] | None = None, last: Tile | None = None) -> Board:
    """The table of ``pos`` as the report draws it (the analysis board's too)."""
    return _board(pos, voids or [set() for _ in range(pos.n)], last)


def _assumption(analysis: GameAnalysis | None) -> str | None:
    """What the values assume, as sentences: whose values they are and the variant's search note."""
    if analysis is None:
        return None
    parts = [p for p in (analysis.perspective and analysis.perspective + ".", analysis.note) if p]
    return " ".join(p[0].upper() + p[1:] for p in parts) or None


def _decision(d: Decision) -> DecisionView:
    sign = 1 if d.side == 0 else -1
    fair_best = next((a.fair.mean for a in d.alternatives if d.fair is not None and a.move == d.fair.best
                      and a.fair is not None), None)
    alts = [AlternativeView(a.move, move_words(a.move), _tile_of(a.move), a.value, a.best, a.played,
                            None if a.value is None or d.best_value is None else sign * (d.best_value - a.value),
                            a.fair, None if fair_best is None or a.fair is None
                            else max(0.0, round(sign * (fair_best - a.fair.mean), 4)),
                            tuple(alternative_marks(d, a)), bounds=getattr(a, "bounds", None),
                            over_deals=getattr(a, "over_deals", None))
            for a in d.alternatives]
    # best first: by the fair loss where there is one (the fair best is the verdict), else by the value for the
    # mover (the order of the loss), a move past the node limit by the bound of it the mover is sure of; where
    # neither is known (a hidden hand), by the fair value, on a sheet by the mean over its deals; the moves with
    # nothing last
    alts.sort(key=lambda a: (a.loss is None and sure_value(a, d.side) is None and a.fair is None
                             and a.over_deals is None,
                             a.fair_loss if a.fair_loss is not None else 0,
                             -sign * sure_value(a, d.side) if sure_value(a, d.side) is not None
                             else -sign * a.fair.mean if a.fair else -sign * a.over_deals.mean if a.over_deals else 0,
                             not a.played))
    return DecisionView(d.side, alts, [a.text for a in alts if a.best], d.best_value, d.played_value,
                        d.loss, d.cls, d.fair, d.unsolved, d.least_loss, getattr(d, "loss_over", None),
                        getattr(d, "reasons", None) or ())


def line_steps(pos: Position, moves: list[str], players: list[str]) -> LineView:
    """The line ``moves`` (``"B [0-0]"``, each by the player to move) played from ``pos`` (left as it was); ValueError
    for a move not the player to move's, or a first move (the alternative) not legal there: the rest, the search's
    best line, is played as the analysis played it, not judged again."""
    return LinePlayer(players).play(pos, moves, ("line",))


class LinePlayer:
    """The best lines of one game's decisions played on the page's table, each position they reach played once.

    A position of a line is named by where the line starts and the moves played from there (a number a move,
    looked up once); a line that starts with the moves the game went on with is named from the game's position
    they reach (``game``: the game's move texts, as the analysis writes a line's moves, and whether the turn there
    is the one the moves give), so the line of the move played at one decision and the lines of the next share
    their positions. The best line from a position is always the same (the search's first best move at each
    choice), so many lines end in moves met before: each step, and the line of play a line ends on, is kept by the
    position it reaches, and only a line's moves before such a shared rest are played on the table."""

    def __init__(self, players: list[str], game: list[tuple[str | None, bool]] = ()):
        self.players = players
        self.game = list(game)
        self._ids: dict[tuple, int] = {}
        self._steps: dict[int, LineStep] = {}           # a position -> the step that reached it
        self._ends: dict[int, tuple] = {}                # the position a line ends on -> (its line of play, lead)
        self._moves: dict[str, tuple] = {}               # a move's text -> what it says (:meth:`_read`)

    def _read(self, text: str) -> tuple[str, str, Move, Pair | None]:
        """A line's move ``"B [0-0]"`` read once: the player's name (the longest of the players' that it starts with:
        a name may hold a space), the move's words, the move and its tile."""
        name = max((p for p in self.players if text.startswith(p + " ")), key=len, default=None)
        if name is None:
            raise ValueError(f"{text!r}: not a move of a player")
        words = text[len(name) + 1:]
        move = _MOVES.get(words) or _MOVES.setdefault(words, Move.parse(words))
        found = self._moves[text] = (name, words, move, None if move.tile is None else (move.tile.low, move.tile.high))
        return found

    def _id(self, key: tuple) -> int:
        found = self._ids.get(key)
        return found if found is not None else self._ids.setdefault(key, len(self._ids))

    def play(self, pos: Position, moves: list[str], start: tuple) -> LineView:
        """:func:`line_steps` of ``moves`` from ``pos``, the position named ``start`` (``("game", k)``: the game's
        before its move ``k``)."""
        nodes, at, g = [], self._id(start), start[1] if start[0] == "game" else None
        for text in moves:
            if g is not None and g < len(self.game) and self.game[g][0] == text and self.game[g][1]:
                g += 1
                at = self._id(("game", g))
            else:
                g = None
                at = self._id((at, text))
            nodes.append(at)
        shared = len(nodes)                                # the first of the steps kept from another line
        while shared and nodes[shared - 1] in self._steps:
            shared -= 1
        end = self._ends.get(nodes[-1]) if nodes else None
        if end is None:
            shared = len(nodes)
        steps, said, pushed, arms = [], [], 0, pos.has_arms
        try:
            for j, text in enumerate(moves):
                name, words, move, pair = self._moves.get(text) or self._read(text)
                said.append(_said(words))
                if j >= shared:
                    steps.append(self._steps[nodes[j]])
                    continue
                seat = pos.turn
                if name != self.players[seat]:
                    raise ValueError(f"{text!r}: {self.players[seat]} is to move")
                if not pushed and (replace(move, tile=None) if move.draw else move) not in pos.legal_moves():
                    raise ValueError(f"{text!r} is not legal here")     # (a draw: the boneyard's tile)
                pushed += 1
                pos.push(move)
                step = LineStep(seat, pair, move.is_play, pos.count(seat), None if pos.hidden[seat] else pos.pips(seat),
                                pos.ends, _layout(pos) if arms else None)
                steps.append(self._steps.setdefault(nodes[j], step))
            if end is None:
                end = _pair_line(pos) if not arms else ([], None)
                if nodes:
                    self._ends[nodes[-1]] = end
        finally:
            for _ in range(pushed):
                pos.pop()
        return LineView(list(moves), steps, end[0], end[1], tuple(said))


def _with_lines(d: Decision, pos: Position, lines: LinePlayer) -> DecisionView:
    """The view of decision ``d`` with each alternative's best line on the table (an alternative whose
    line cannot be played on the page's table, the opener's choice to add no tile, keeps none); ``lines``: the
    game's :class:`LinePlayer` (``pos``: the game's position before move ``d.index``)."""
    view, moves = _decision(d), {a.move: a.line for a in d.alternatives if a.line}
    if not moves:
        return view
    alts = []
    for a in view.alternatives:
        line = None
        if a.move in moves:
            try:
                line = lines.play(pos, moves[a.move], ("game", d.index))
            except ValueError:
                pass
        alts.append(replace(a, line=line))
    return replace(view, alternatives=alts)


def _game_texts(rep: Replay) -> list[tuple[str | None, bool]]:
    """Each move of the game as the analysis writes a line's moves (``"B [0-0]"``; None: not played), and whether
    the player to move after it is the one who moves next in the record (so that a line that plays the game's
    moves reaches the game's own position)."""
    out = []
    pos = rep.initial.copy()
    for k, step in enumerate(rep.steps):
        if step.move is None or step.seat is None:
            out.append((None, False))
            continue
        pos.turn = step.seat
        pos.push(step.move)
        after = rep.steps[k + 1].seat if k + 1 < len(rep.steps) else None
        out.append((f"{rep.players[step.seat]} {step.move}", after is None or after == pos.turn))
    return out


def _holds(rep: Replay, seat: int, held=None) -> Holds | None:
    """The mover's view before his decision, as the pipeline gave it (``held``: ``FairDecision.holds``, the
    worlds his fair analysis counted, each tile's chance in each hand; None: not given, none shown)."""
    if held is None:
        return None
    count, table = held
    holders = [h for h in table if h != rep.players[seat]]
    tiles = sorted({t for h in holders for t in table[h]}, key=lambda t: _tile_of(t))
    rows = [(_tile_of(t), [table[h].get(t, 0.0) for h in holders]) for t in tiles]
    groups = [([_tile_of(t) for t in g.tiles], g.chances) for g in holds_groups(table, holders)]
    return Holds(count, holders, rows, groups, void_numbers(table, holders))


def _said(words: str) -> str:
    """A line's move as the page says it, in its language: ``[0-0]@0`` as written, ``pass`` and ``draws [2-5]`` in
    words."""
    if words == "pass":
        return gettext("pass")
    if words.startswith("draws "):
        return gettext("draws {tile}", tile=words[len("draws "):])
    return words


def _kind(entry) -> str:
    """What a recorded entry is: a play, a pass, a draw from the boneyard or a Muggins call."""
    if entry.draw:
        return "draw"
    if entry.muggins is not None:
        return "muggins"
    return "pass" if entry.tile is None else "play"


def _move_text(step) -> str:
    entry = step.entry
    if not entry.is_play:
        if entry.muggins is not None:
            return gettext("muggins {points}", points=entry.muggins)
        if entry.draw:
            return gettext("draws {tile}", tile=entry.tile or "?")
        return gettext("pass")
    if step.move is not None and step.move.end is not None:
        if step.move.arm is not None:
            return (gettext("{tile} on the {end}, arm {arm}", tile=entry.tile, end=step.move.end, arm=step.move.arm)
                    if step.arms else gettext("{tile} on the {end}, end {arm}", tile=entry.tile, end=step.move.end,
                                              arm=step.move.arm))
        return gettext("{tile} on the {end}", tile=entry.tile, end=step.move.end)
    if step.move is not None and step.ends_before is None:
        return gettext("{tile} leads", tile=entry.tile)
    if entry.end is not None:
        return gettext("{tile} on the {end}", tile=entry.tile, end=entry.end)
    return str(entry.tile)


def _result_words(rep: Replay) -> str:
    if rep.outcome is None:
        if not rep.steps:
            return gettext("no moves recorded")
        return gettext("not over: the record stops before the hand ends")
    return result_sentence(rep.outcome, rep.result, rep.variant, rep.players, ": ")


def _stated_check(rep: Replay, stated: str | None) -> str | None:
    if not stated:
        return None
    if any(d.code in (Code.RESULT_MISMATCH, Code.RESULT_SYNTAX) for d in rep.end_diagnostics):
        return "disagrees"
    try:
        parsed = StatedResult.parse(stated)
    except ValueError:
        return "disagrees"
    return "agrees" if parsed is not None and rep.outcome is not None else None


def _player_views(rep: Replay, seated: bool, sides: list[str]) -> list[PlayerView]:
    """Each player as the page shows him: his side, the tiles dealt him and those he drew (with the move)."""
    teams = rep.variant.seating.teams
    drawn: list[list[tuple[Pair, int]]] = [[] for _ in range(rep.initial.n)]
    for step in rep.steps:
        if step.move is not None and step.move.draw and step.move.tile is not None and step.seat is not None:
            drawn[step.seat].append(((step.move.tile.low, step.move.tile.high), step.index + 1))
    players = []
    for seat, name in enumerate(rep.players):
        side = teams[seat] if seated else seat
        dealt = sorted((t.low, t.high) for t in tiles_of(rep.initial.hands[seat], rep.initial.max_pip))
        players.append(PlayerView(name, seat, side, sides[side] if seated else name, dealt,
                                  rep.initial.count(seat), rep.initial.hidden[seat],
                                  drawn[seat] if seat < len(drawn) else []))
    return players


def build_game(rep: Replay, analysis: GameAnalysis | None, number: int = 1, triage=None,
               repaired_anchor: str | None = None) -> GameReport:
    """Put one replayed game and its analysis together as plain data (``triage``: the errors of an
    invalid game sorted into its likely slips and what follows from them, see
    :mod:`analyzer.repair.triage`; ``repaired_anchor``: where the page shows the repaired record)."""
    def issue(d: Diagnostic) -> Issue:
        return Issue.of(d, triage, repaired_anchor)

    variant = rep.variant
    teams = variant.seating.teams
    n = rep.initial.n
    seated = len(rep.players) == variant.players     # else the sides cannot be named
    sides = [rep.side_name(s) for s in range(variant.seating.sides)] if seated else []
    players = _player_views(rep, seated, sides)

    decisions = {d.index: d for d in (analysis.decisions if analysis else [])}
    values = list(analysis.values) if analysis else []
    analysed = analysis.analysed_steps if analysis else 0

    pos = rep.initial.copy()
    voids: list[set[int]] = [set() for _ in range(n)]
    start = _board(pos, voids, None)
    moves: list[MoveView] = []
    lines = LinePlayer(list(rep.players), _game_texts(rep)) if any(a.line for d in decisions.values()
                                                                    for a in d.alternatives) else None
    for step in rep.steps:
        entry = step.entry
        last = shown = None
        if step.move is not None and step.seat is not None:
            pos.turn = step.seat
            if step.index in decisions:          # its alternatives, each with its line from this table
                shown = _with_lines(decisions[step.index], pos, lines)
            pos.push(step.move)
            last = step.move.tile
        if step.lacks and step.seat is not None:
            voids[step.seat].update(step.lacks)
        k = step.index
        moves.append(MoveView(
            number=k + 1, index=k, round=entry.round, player=entry.player, seat=step.seat,
            side=None if step.seat is None else teams[step.seat] if seated else step.seat,
            tile=None if entry.tile is None else (entry.tile.low, entry.tile.high),
            text=_move_text(step), kind=_kind(entry),
            applied=step.move is not None or (entry.muggins is not None and step.ok),
            annotation=entry.annotation, comment=entry.comment, lacks=tuple(step.lacks),
            proves=gettext("{player} has no {numbers}", player=entry.player,
                           numbers=gettext(" and no ").join(map(str, step.lacks))) if step.lacks else None,
            issues=[issue(d) for d in step.diagnostics], board=_board(pos, voids, last),
            value_before=values[k] if k < analysed else None,
            value_after=values[k + 1] if k < analysed else None,
            analysed=k < analysed,
            decision=shown if shown is not None else _decision(decisions[k]) if k in decisions else None,
            ends_hand=step.ends_hand,
            holds=_holds(rep, step.seat, getattr(decisions[k].fair, "holds", None))
            if k in decisions and decisions[k].fair is not None else None))

    critical = analysis.critical.index + 1 if analysis and analysis.critical else None
    turning = analysis.turning_point + 1 if analysis and analysis.turning_point is not None else None
    if critical:
        moves[critical - 1] = replace(moves[critical - 1], critical=True)
    if turning:
        moves[turning - 1] = replace(moves[turning - 1], turning_point=True)
    game = rep.game
    stated = game.tags.get("Result")
    issues = [issue(d) for d in list(rep.notation) + list(rep.deal_diagnostics) + list(rep.end_diagnostics)]
    leader = rep.players[rep.steps[0].seat] if rep.steps and rep.steps[0].seat is not None else None
    return GameReport(
        number=number, anchor=f"g{number}", title=rep.title, tags=list(game.tags.items()),
        variant=variant.name, variant_description=translated(variant.description), players=players, sides=sides,
        leader=leader, max_pip=rep.initial.max_pip, result=_result_words(rep), stated_result=stated,
        stated_check=_stated_check(rep, stated), remark=game.remark, comments=list(game.comments),
        issues=issues, valid=rep.valid, error_count=len(rep.errors), start=start, moves=moves,
        values=values + [None] * (len(moves) + 1 - len(values)),
        critical=critical, turning_point=turning,
        turning_cause=analysis.turning_cause if analysis else None,
        stopped=analysis.stopped if analysis else None,
        assumption=_assumption(analysis),
        analysed=analysed, layout="line" if start.layout is None else getattr(variant, "layout", "arms"),
        fair_note=fair_note_words(analysis.fair_note, analysis.fair_cut) if analysis else None,
        fair_critical=analysis.fair_critical.index + 1 if analysis and analysis.fair_critical else None,
        to_move=_decision(analysis.to_move) if analysis and analysis.to_move else None,
        to_move_player=analysis.to_move.player if analysis and analysis.to_move else None,
        deals=getattr(analysis, "deals", None), deals_error=getattr(analysis, "deals_error", None),
        grading=getattr(analysis, "grading", None),
        extra_tile=gettext(NO_EXTRA_WORDS) if analysis and any(a.move == "no extra tile" for d in analysis.decisions
                                                      for a in d.alternatives) else None)


def build_report(source: str, replays: list[Replay], analyses: list[GameAnalysis | None] | None = None,
                 triages: list | None = None,
                 repaired: list[GameAnalysis | None] | None = None) -> ReportModel:
    """Gather what the page shows from the replayed games of the record ``source`` and their
    analyses (None, or a None in the list: not analysed). Nothing is replayed or searched here.

    ``triages``: for each game, its :class:`~analyzer.repair.triage.Triage` (None: a valid game);
    an invalid game's errors are then shown as the slip and its follow-ons, and the page gains the
    repaired record (the best repair's replay) as a game of its own, with its analysis from
    ``repaired`` when given, for the reader to switch to."""
    analyses = analyses if analyses is not None else [None] * len(replays)
    triages = triages if triages is not None else [None] * len(replays)
    repaired = repaired if repaired is not None else [None] * len(replays)
    games, extra = [], []
    for number, (rep, analysis, triage, fixed) in enumerate(zip(replays, analyses, triages, repaired), 1):
        best = triage.best if triage is not None else None
        anchor = f"g{number}r" if best is not None and best.replay is not None else None
        games.append(build_game(rep, analysis, number, triage, anchor))
        if anchor is not None:
            game = build_game(best.replay, fixed, number)
            extra.append(replace(game, anchor=anchor, title=f"{game.title}, as repaired ({'; '.join(map(str, best.edits))})",
                                 repair_of=f"g{number}"))
    first = games[0].title if games else "no game"
    gradings = {g.grading for g in games + extra if g.grading is not None}
    return ReportModel(source, first, games, gradings.pop() if len(gradings) == 1 else None, extra)


def with_draw_luck(model: ReportModel, replays: list[Replay], lucks: list) -> ReportModel:
    """``model`` with the luck of each game's draws (``lucks``: per game its ``analysis.drawluck.DrawLuck``s, or
    None) per side, or per player in a game of individuals (``draw_luck``)."""
    from ..analysis.lucksums import side_rows

    rows = [side_rows(rep, game) if game else [] for rep, game in zip(replays, lucks)]
    return replace(model, games=[replace(g, draw_luck=r) if r else g for g, r in zip(model.games, rows)]
                   + model.games[len(rows):])
