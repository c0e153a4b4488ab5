"""Draw games in a fixed boneyard order, All Fives and Hungarian as ints (in :class:`~analyzer.search.TreeSearch`).

:class:`~analyzer.search.tree.RevealedDraws` plays a two-ended draw game with its boneyard drawn in one
fixed order; the general search walks it through the position contract. Once the line has its lead,
the search goes on in a compact state of its own (:class:`_DrawDeal`), as it does for layouts with
arms: every seat's tiles as a mask, the two open ends, what the ends' tiles are for the All Fives count
(a double at an end counts twice, a lone lead tile its pips), the seat to move, how far the order has
been drawn, whether the opener may still add a tile to his lead, and the seat that laid the last tile
(the seat a blocked hand is credited to). Forced moves are followed without branching: a player who
cannot play draws the next tile of the order while the draw rule lets him (``until``: until he can
play; ``one``: one tile a turn), else passes; the hand is blocked once nothing more may be drawn
(``keep`` tiles stay) and nobody can play, and over when a player is out. So every state searched is
a real choice: a seat holding a playable tile, or the opener deciding whether to add one.

Hungarian (``run``, :class:`~analyzer.rules.turns.RunPosition`; 004: "Ist er am Ende, versucht der nächste
Spieler möglichst viele seiner Steine an der Kette anzusetzen", "Kann keiner der Spieler mehr auslegen,
notiert ein Buchführer die jedem Spieler verbleibenden Punkte") plays in the same state, without a boneyard:
after a tile the player who laid it moves again while his hand still fits an end; a player whose hand is
empty is not out of the hand, he passes while the others play on, and the hand is over once nobody can play:
``domino``, credited to the lowest seat whose hand is empty, if any, else blocked, credited to the seat that
laid the last tile.

The rules are those of :class:`~analyzer.rules.turns.DrawPosition`, ``RevealedDraws`` and ``RunPosition``,
the points during play those of :class:`~analyzer.rules.policies.PlayScoring` (``tests/test_draw_core.py`` checks
the values against the position walk and a plain minimax). Values are side 0's points still to come,
as in the general search; moves are ordered by the table's move, then by the points they score at
once, then heaviest tile first.

In C where ``analyzer.search._draw`` was built (:class:`_CompiledDrawDeal`): the same moves in the
same order, the same leaf values, table entries and count of positions, a table bounded by
``table_mb``. The C search values a finished hand as the block and arms cores do, from the scoring's
description (:func:`~analyzer.search.scoring.describe`, evaluated by ``_leaf.h``: every block rule and
hand scoring of the variants, All Fives' award among them, for two sides or one player against the
rest), and asks Python for any other, once per finished hand (:func:`draw_note` says so in the
analysis).

Both prune with the scoring's value bound (:func:`~analyzer.search.scoring.value_bound`), where it has one:
no finished hand is worth more either way than the points beyond the pips (a game, a bonus) plus every
pip still to be held at the end (the hands' and the tiles still to be drawn), or than a fixed amount (a
point a game, whatever the pips). A choice whose window lies beyond the bound returns it at once and is
not counted. So a proof that a lost game is lost at least that much (MTD(f)'s last probe in a game of
points a game) costs nothing.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..position import number_masks, placed, tiles_of
from ..rules.policies import HandFacts, is_double
from ..tiles import PASS, Move, tile_set
from .alphabeta import INF
from .entries import CACHE_SIZE, narrowed_entry, probe_entry
from .core import DRAW_ENTRY_BYTES, SearchLimit, draw_core, resolve_draw, weak_method
from .scoring import describe, value_bound
from ..i18n import gettext

__all__ = ["DrawLine", "ends_at", "line_at", "plays_draws", "plays_runs", "draw_note", "DECLINE", "NO_EXTRA", "compact",
           "compact_state", "draw_deal", "last_play", "line_move", "CompactDeal"]

#: The opener's choice not to add a tile to his lead (a draw game with ``extra``).
NO_EXTRA = Move(None, None, arm=0)

#: The move code of the opener's choice not to add a tile to his lead (a play is ``tile index * 2 + end``).
DECLINE = 255

#: The largest set the compact state plays (a hand is a 64-bit mask in C; numbers fit in four bits).
MAX_PIP = 9


def plays_draws(rules) -> bool:
    """Whether the searches of ``rules`` go through the compact state once the line has its lead: a
    two-ended draw game, or one that scores during play (All Fives), with one play a turn, a hand
    over when one player is out; or Hungarian's runs (:func:`plays_runs`) on the two-ended line
    (:func:`draw_deal` also asks that nothing be said about which of two equal ends a tile goes on)."""
    variant = getattr(rules, "variant", rules)
    mechanics = getattr(variant, "mechanics", None)
    if mechanics is None:
        return False
    from ..rules.mechanics import Mechanic

    rest = set(mechanics) - {Mechanic.POINTS}
    drawn = rest <= {Mechanic.DRAW} and bool(set(mechanics) & {Mechanic.DRAW, Mechanic.POINTS})
    return (drawn or set(mechanics) == {Mechanic.RUNS}) and variant.dealing.max_pip <= MAX_PIP \
        and variant.players <= 4


def plays_runs(rules) -> bool:
    """Whether a player of ``rules`` plays on while he can (Hungarian, :class:`~analyzer.rules.turns.RunPosition`):
    the compact state's ``run``."""
    from ..rules.mechanics import Mechanic

    return Mechanic.RUNS in getattr(getattr(rules, "variant", rules), "mechanics", ())


def draw_compiled(rules) -> bool:
    """Whether the compiled search of draw games in use may search under ``rules``: the CPython extension always (it
    asks Python for a scoring :func:`~analyzer.search.scoring.describe` does not know); its WebAssembly module
    (:mod:`analyzer.search.wasmdraw`, no callback into Python) only a described scoring: the others are searched in
    Python there."""
    return getattr(draw_core(), "CALLBACKS", True) or describe(rules) is not None


def draw_note(rules, core: str | None = None) -> str | None:
    """What an analysis should tell its reader about the speed of the search of a draw game (or All
    Fives) under ``rules``: the compiled search asks Python for a scoring
    :func:`~analyzer.search.scoring.describe` does not know."""
    if plays_draws(rules) and resolve_draw(core) == "compiled" and describe(rules) is None:
        if not draw_compiled(rules):
            return gettext("The compiled search of the draw game in the browser (WebAssembly) cannot ask Python for "
                           "the value of a finished hand under this scoring: the pure-Python search values it (exact, "
                           "but slower).")
        return gettext("The compiled search of the draw game asks Python for the value of every finished hand under "
                       "this scoring (exact, but slower than the scorings it knows).")
    return None


def last_play(pos) -> tuple[int, int, tuple[int, int] | None]:
    """``(seat, tile bit, ends before it)`` of the last tile laid (``pos`` has a lead)."""
    move, seat, before, *_ = next(h for h in reversed(pos.history) if h[0].tile is not None)
    return seat, move.tile.bit, before


def compact_state(pos, play, order: tuple) -> tuple:
    """``(hands, left, right, shape, seat to move, drawn this turn, draws taken, passes, offer, last tile laid)``
    of ``pos`` (a line with its lead, the hand not over) in the compact state, ``play`` the
    :class:`~analyzer.rules.policies.PlayScoring` or None, ``order`` the boneyard's order (the last tile laid:
    ``(seat, tile bit, ends before it)``)."""
    left, right = pos.ends
    shape = 0
    if play is not None:
        line = pos.line_ends()
        shape = int(is_double(line[0][0])) | int(is_double(line[-1][0])) << 1 | int(len(line) == 1) << 2
    elif left > right:
        left, right = right, left
    k = len(order) - pos.stock if order else 0
    offer = int(getattr(pos, "offer", -1) >= 0)
    return (tuple(pos.hands), left, right, shape, pos.turn, 0 if offer else pos.drawn(pos.turn), k, pos.passes,
            offer, last_play(pos))


class CompactDeal(NamedTuple):
    """The deal a compact draw search is made for (one search a deal, this its key): ``n`` seats, the seat
    that led (``leader``), the set's highest pip (``max_pip``), the boneyard's tiles in the ``order`` they are
    drawn, the tiles that stay (``keep``), and the draw ``rule`` (``until`` or ``one``)."""

    n: int
    leader: int
    max_pip: int
    order: tuple
    keep: int
    rule: str


class _DrawDeal:
    """One ``deal`` of a draw game (or All Fives) in the compact state (see the module): ``play`` the
    :class:`~analyzer.rules.policies.PlayScoring` or None; ``run``: a player plays on while he can, and the
    hand goes on until nobody can play (Hungarian).

    ``key``, ``follow`` and ``search`` take the compact state as separate ints, not one value: they are the
    recursive hot path of the pure-Python search (the fallback of ``_draw.c``, whose functions they mirror),
    where a state's parts are locals and a packed value would cost a tuple and its unpacking at every node."""

    python_table = True     # its table is a dict of TreeSearch's shared bound

    def __init__(self, search, deal: CompactDeal, play, run: bool = False):
        n, leader, max_pip, order, keep, rule = deal
        self.owner = weakref.proxy(search)      # (no cycle: a dropped search frees its tables at once)
        self.n = n
        self.run = run
        self.leader = leader
        self.max_pip = max_pip
        self.tiles = tile_set(max_pip)
        self.width = len(self.tiles)
        self.order = tuple(t.bit for t in order)
        self.limit = max(0, len(order) - keep)      # draws the hand may take
        self.until = rule == "until"
        self.play = play
        self.match = number_masks(max_pip)
        self.maximiser = search.maximiser
        # the value bound: None (nothing bounds a value), else ``most`` plus, unless ``fixed``, the pips of
        # every hand and of the tiles still to be drawn (``rest[k]``, once ``k`` are drawn)
        bound = value_bound(search.rules)
        self.fixed, self.most = (False, None) if bound is None else bound
        pips = [t.pips for t in self.tiles]
        self.rest = [sum(pips[b.bit_length() - 1] for b in self.order[k:self.limit]) for k in range(len(self.order) + 1)]
        doubles = sum(t.bit for t in self.tiles if t.is_double)
        # the pips of a mask: each number times the tiles carrying it, a double's twice
        self.weights = [(v, self.match[v], self.match[v] & doubles) for v in range(1, max_pip + 1)]
        self.tt: dict[int, tuple[int, int, int]] = {}
        self.room = 0                   # the entries ``tt`` may hold now (TreeSearch._full)
        self.leaves: dict[tuple, int] = {}

    # -- the state ---------------------------------------------------------------------------------------
    def state(self, pos) -> tuple:
        """``(hands, left, right, shape, seat to move, drawn this turn, draws taken, passes, offer, last tile laid)``
        of ``pos`` (a line with its lead, the hand not over)."""
        return compact_state(pos, self.play, self.order)

    def enter(self, pos, alpha: int, beta: int) -> int:
        """The side-0 value of ``pos`` (a line with its lead, the hand not over), fail-soft in (alpha, beta)."""
        hands, left, right, shape, t, drawn, k, passes, offer, last = self.state(pos)
        if offer:
            return self.search(hands, left, right, shape, t, k, 1, last, alpha, beta)
        return self.follow(hands, left, right, shape, t, drawn, k, passes, last, alpha, beta)

    def key(self, hands: tuple[int, ...], left: int, right: int, shape: int, s: int, k: int, offer: int,
            last: int) -> int:
        """The state packed into one int (the table's key)."""
        x = 0
        w = self.width
        for h in hands:
            x = (x << w) | h
        return ((((((((x << 4 | left) << 4) | right) << 3 | shape) << 2 | s) << 7 | k) << 1 | offer) << 2) | last

    def leaf(self, hands: tuple[int, ...], termination: str, last: tuple) -> int:
        """The value of a finished hand (``rules.value``), ``last`` the last tile laid (seat, bit, ends before)."""
        key = (hands, termination, last)
        value = self.leaves.get(key)
        if value is None:
            if len(self.leaves) > CACHE_SIZE:
                self.leaves.clear()
            seat, bit, before = last
            left = [tiles_of(h, self.max_pip) for h in hands]
            facts = HandFacts(termination, seat, tuple(sum(t.pips for t in ts) for ts in left),
                              tuple(len(ts) for ts in left), self.leader, hands=hands,
                              last_tile=self.tiles[bit.bit_length() - 1], ends_before=before)
            value = self.leaves[key] = self.owner.rules.value(facts)
        return value

    def over(self, hands: tuple[int, ...], last: tuple) -> int:
        """The value of a hand nobody can play on (``last`` the last tile laid): blocked, credited to the seat
        that laid it; where players play on while they can (``run``, ``RunPosition.outcome``), the lowest seat
        whose hand is empty went out, if any."""
        if self.run:
            out = next((s for s, h in enumerate(hands) if not h), None)
            if out is not None:
                return self.leaf(hands, "domino", (out, *last[1:]))
        return self.leaf(hands, "blocked", last)

    def next_seat(self, hand: int, s: int, left: int, right: int) -> int:
        """Who moves after ``s`` laid a tile leaving ``hand`` and the ends ``left``, ``right``: ``s`` again where
        players play on while they can (``run``) and his hand still fits an end, else the next seat."""
        if self.run and hand & (self.match[left] | self.match[right]):
            return s
        return (s + 1) % self.n

    def follow(self, hands: tuple[int, ...], left: int, right: int, shape: int, t: int, drawn: int, k: int,
               passes: int, last: tuple, alpha: int, beta: int) -> int:
        """The value once ``t`` is to move (having drawn ``drawn`` tiles this turn, ``passes`` passes since
        the last tile laid): his forced draws and passes, and those of the players after him, up to the
        next choice or the end of the hand. As ``DrawPosition.outcome`` has it, the hand is blocked once
        nothing more may be drawn and either nobody can play or every seat has passed in a row and the
        player to move has drawn nothing since."""
        fit = self.match[left] | self.match[right]
        n = self.n
        while True:
            if k >= self.limit and ((passes >= n and not drawn) or not any(h & fit for h in hands)):
                return self.over(hands, last)
            if hands[t] & fit:
                return self.search(hands, left, right, shape, t, k, 0, last, alpha, beta)
            if k < self.limit and (self.until or not drawn):
                hands = hands[:t] + (hands[t] | self.order[k],) + hands[t + 1:]
                k += 1
                drawn += 1
            else:
                t = (t + 1) % n
                drawn = 0
                passes += 1

    def moves(self, hand: int, left: int, right: int, shape: int, s: int, offer: int) -> list[tuple]:
        """``(code, order, tile bit, left, right, shape, points for side 0)`` for every choice of ``s``,
        ordered: the most points at once first, then the heaviest tile (a stable sort of the tiles in
        ascending order, each on the left end, then the right), the opener's declining last."""
        out = []
        play, tiles = self.play, self.tiles
        mask = hand & (self.match[left] | self.match[right])
        while mask:
            bit = mask & -mask
            mask ^= bit
            index = bit.bit_length() - 1
            tile = tiles[index]
            for end in (0, 1):
                number = left if end == 0 else right
                # two equal ends are one place, unless a double lies at one of them only (All Fives:
                # Position.two_equal_ends)
                if not tile.matches(number) or (end == 1 and left == right and (
                        play is None or (shape & 1) == (shape >> 1 & 1))):
                    continue
                other = tile.other(number)
                if end == 0:
                    a, b, sh = other, right, (shape & 2) | int(tile.is_double)
                else:
                    a, b, sh = left, other, (shape & 1) | int(tile.is_double) << 1
                points = 0
                if play is None:
                    a, b = min(a, b), max(a, b)
                else:
                    points = play.points(a + b + (a if sh & 1 else 0) + (b if sh & 2 else 0))
                    if not self.maximiser[s]:
                        points = -points
                out.append((index * 2 + end, -16 * abs(points) - tile.pips, bit, a, b, sh, points))
        if offer:
            out.append((DECLINE, 1, 0, left, right, shape, 0))
        out.sort(key=lambda mv: mv[1])
        return out

    # -- the search ----------------------------------------------------------------------------------------
    def search(self, hands: tuple[int, ...], left: int, right: int, shape: int, s: int, k: int, offer: int,
               last: tuple, alpha: int, beta: int) -> int:
        """The side-0 value of a choice of ``s`` (he holds a playable tile, or may add one to his lead),
        fail-soft in (alpha, beta)."""
        most = self.most
        if most is not None:            # no value can pass the bound: the window lies beyond it
            if not self.fixed:
                held = 0
                for h in hands:
                    held |= h
                most += self.rest[k] + sum(v * ((held & m).bit_count() + (held & d).bit_count())
                                           for v, m, d in self.weights)
            if most <= alpha:
                return most
            if -most >= beta:
                return -most
        owner = self.owner
        owner.nodes += 1
        if owner.nodes > owner.node_limit:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        key = self.key(hands, left, right, shape, s, k, offer, last[0])
        entry = self.tt.get(key)
        cut, alpha, beta, hint = probe_entry(entry, alpha, beta, -1)
        if cut is not None:
            return cut
        moves = self.moves(hands[s], left, right, shape, s, offer)
        if hint >= 0:
            for i, mv in enumerate(moves):
                if mv[0] == hint:
                    moves.insert(0, moves.pop(i))
                    break
        maximise = self.maximiser[s]
        a0, b0 = alpha, beta
        best, best_code = (-INF if maximise else INF), -1
        n = self.n
        for code, _order, bit, a, b, sh, points in moves:
            if code == DECLINE:
                x = self.follow(hands, left, right, shape, (s + 1) % n, 0, k, 0, last, alpha, beta)
            else:
                mine = hands[s] & ~bit
                now = hands[:s] + (mine,) + hands[s + 1:]
                played = (s, bit, (left, right))
                if not mine and not self.run:
                    x = points + self.leaf(now, "domino", played)
                else:
                    x = points + self.follow(now, a, b, sh, self.next_seat(mine, s, a, b), 0, k, 0, played,
                                            alpha - points, beta - points)
            if maximise:            # (alphabeta.fold_child inlined, as in _ArmDeal: once per child)
                if x > best:
                    best, best_code = x, code
                    alpha = max(alpha, x)
            elif x < best:
                best, best_code = x, code
                beta = min(beta, x)
            if alpha >= beta:
                break
        if len(self.tt) >= self.room:
            owner._full(self)
        self.tt[key] = narrowed_entry(entry, best, best_code, a0, b0)
        return best


class _CompiledDrawDeal(_DrawDeal):
    """:class:`_DrawDeal` searched in C (``analyzer.search._draw.DrawSearch``): the same moves, order,
    leaf values and table entries, and the same count of positions while neither table is full; the
    table is bounded (``TreeSearch.table_mb``)."""

    python_table = False    # its table is the C search's own

    def __init__(self, search, deal: CompactDeal, play, run: bool = False):
        super().__init__(search, deal, play, run)
        n, leader, max_pip = deal.n, deal.leader, deal.max_pip
        described = describe(search.rules)
        self.python_leaves = described is None
        entries = max(4, int(search.table_mb * (1 << 20)) // DRAW_ENTRY_BYTES)
        scores = -1 if play is None else int(play.threes) | int(play.pub) << 1
        self.core = draw_core().DrawSearch(n, max_pip, list(self.order), self.limit, int(self.until), scores,
                                           [int(m) for m in search.maximiser],
                                           None if described is None else _leaf_ints(described),
                                           weak_method(self._leaf), entries, leader,
                                           None if self.most is None else (self.fixed, self.most), int(run))

    @property
    def table_full(self) -> bool:
        """The table replaced entries: it does so only at its bound with three quarters of it taken."""
        return self.core.replaced > 0

    def _leaf(self, hands: tuple[int, ...], termination: str, seat: int, bit: int, before_left: int,
              before_right: int) -> int:
        before = None if before_left < 0 else (before_left, before_right)
        return self.leaf(hands, termination, (seat, bit, before))

    def enter(self, pos, alpha: int, beta: int) -> int:
        hands, left, right, shape, t, drawn, k, passes, offer, (seat, bit, before) = self.state(pos)
        owner = self.owner
        bl, br = before if before is not None else (-1, -1)
        value, nodes = self.core.search(hands, left, right, shape, t, drawn, k, passes, offer, seat,
                                        bit.bit_length() - 1, bl, br, alpha, beta, owner.node_limit - owner.nodes)
        owner.nodes += nodes
        if value is None:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        return value

    def line(self, pos, value: int, spent: int) -> DrawLine:
        """The principal variation from ``pos`` (a line with its lead, the hand not over; ``value`` its side-0 value) to
        the end of the hand, in one call (``DrawSearch.line``), as ``TreeSearch.best_line`` walks it: at each choice
        the first move in the order of ``legal_moves`` that keeps the value, each choice's probes at most
        ``node_limit`` positions (the first choice's ``spent`` of them already), past it :class:`SearchLimit`."""
        hands, _, _, shape, t, drawn, k, passes, offer, (seat, bit, before) = self.state(pos)
        owner = self.owner
        bl, br = before if before is not None else (-1, -1)
        steps, nodes, after, left, right = self.core.line(hands, *pos.ends, shape, t, drawn, k, passes, offer, seat,
                                                          bit.bit_length() - 1, bl, br, value, owner.node_limit, spent)
        if after is not None:           # the walk's count and last value, after its last choice's probes
            owner.nodes, owner._last = nodes, after
        if steps is None:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        return DrawLine(tuple(steps), None if left < 0 else (left, right), self.tiles)

    def ends(self, pos, value: int, values: list | None) -> tuple | list | None:
        """Where the principal variation from ``pos`` (``values`` None; ``value`` its side-0 value of the points still
        to come), or after each move ``pos`` offers (``values``: each one's value so, counting what it scores, in the
        order of ``legal_moves``), ends, as :meth:`line` plays it (``DrawSearch.ends``): ``(hands..., last seat, last
        tile index, before left, before right, points...)``, each seat's hand at the end, the last tile laid and the
        ends before it (-1, -1: before the lead), what each seat scored during play along the line (for himself);
        None where a value reaches no line (not the position's) or past the node limit at a choice."""
        hands, _, _, shape, t, drawn, k, passes, offer, (seat, bit, before) = self.state(pos)
        bl, br = before if before is not None else (-1, -1)
        return self.core.ends(hands, *pos.ends, shape, t, drawn, k, passes, offer, seat, bit.bit_length() - 1, bl, br,
                              value, values, self.owner.node_limit)


@dataclass(frozen=True)
class DrawLine:
    """A principal variation as the compiled draw search gives it (``DrawSearch.line``, ``DrawWorlds.lines``): each
    step as the core gives it (``_draw.c``, ``line_append``: ``(seat, tile index, end, arm, points)``, a draw's end -2,
    a pass's tile -1, the opener's choice to add no tile -2), the forced draws and passes included; the ends as they
    lay before the last tile laid (None: before the lead); and ``first``: what the move before the line (the
    decision's) scores for its player."""

    steps: tuple[tuple[int, int, int, int, int], ...]
    ends_before: tuple[int, int] | None
    tiles: tuple = field(repr=False, compare=False)     # the set's tiles, by index
    first: int = 0

    @property
    def moves(self) -> tuple[Move, ...]:
        """The steps as the position's moves."""
        return tuple(line_move(self.tiles, *step) for step in self.steps)

    @property
    def points(self) -> tuple[int, ...]:
        """What each move scores during play for its player (0: nothing, a draw, a pass)."""
        return tuple(step[4] for step in self.steps)


@lru_cache(maxsize=64)
def _leaf_ints(described) -> tuple[int, ...]:
    """``described.ints()`` (a :class:`~analyzer.search.scoring.LeafScoring`) once a description: it copies the
    description deeply, and a fair analysis makes a deal's search (a search of its own) in each of its worlds."""
    return described.ints()


def line_move(tiles, seat: int, tile: int, end: int, arm: int, points: int) -> Move:
    """A step of a principal variation as the compiled core gives it (``_draw.c``, ``line_append``: the seat, the tile's
    index, the end, the arm, the points) as the position's move; ``tiles`` the set's tiles."""
    if tile == -2:
        return NO_EXTRA
    if tile < 0:
        return PASS
    if end == -2:                   # a draw, as ``RevealedDraws.legal_moves`` makes it (made once a tile)
        return _DRAWS.get(tiles[tile]) or _DRAWS.setdefault(tiles[tile], Move(tiles[tile], None, True))
    return placed(tiles[tile], end, arm or None)


_DRAWS: dict = {}       # a tile -> the move drawing it (a set's tiles bound how many)


def compact(pos) -> bool:
    """Whether the search goes on in the compact state at ``pos`` (of a game :func:`plays_draws`): the line has
    its lead, no rule says which of two equal ends a tile goes on, and any boneyard is drawn in a known order."""
    return not (pos.ends is None or pos.equal_side or (pos.drawable() and not hasattr(pos, "order")))


def draw_deal(search, pos):
    """The compact search of ``pos``'s deal for ``search`` (a :class:`~analyzer.search.TreeSearch`), made once
    a deal, or None where ``pos`` is not played there (no lead yet, a boneyard drawn in no known order)."""
    if not compact(pos):
        return None
    first, leader = pos.history[0][:2]
    if first.tile is None:          # (a lead that was no tile laid: a pass, a draw before it)
        leader = next(seat for move, seat, *_ in pos.history if move.tile is not None)
    order = getattr(pos, "order", ())
    sig = CompactDeal(pos.n, leader, pos.max_pip, order, getattr(pos, "keep", 0), getattr(pos, "rule", "until"))
    deal = search._draw_deals.get(sig)
    if deal is None:
        cls = _CompiledDrawDeal if search.draw_core == "compiled" and draw_compiled(search.rules) else _DrawDeal
        deal = search._draw_deals[sig] = cls(search, sig, search.play, plays_runs(search.rules))
    return deal


def ends_at(search, pos, value: int, values: list | None = None):
    """:meth:`_CompiledDrawDeal.ends` of ``pos``'s deal for ``search`` (a :class:`~analyzer.search.TreeSearch`): where
    the principal variation from ``pos`` at ``value``, or after each of its moves at ``values``, ends, each in one
    compiled call; False where no compiled draw state searches ``pos`` (as :func:`line_at`)."""
    if (search.arm_state and pos.has_arms) or not (search.draw_state and search.draw_core == "compiled"):
        return False
    deal = draw_deal(search, pos)
    if type(deal) is not _CompiledDrawDeal:
        return False
    return deal.ends(pos, value, values)


def line_at(search, pos, value: int) -> DrawLine | None:
    """The principal variation from ``pos`` in a draw game's compact state, searched in C for ``search`` (a
    :class:`~analyzer.search.TreeSearch`), in one call, ``value`` taken as its side-0 value of the points still to
    come: a caller that knows it exactly (an analysis's value of the same search) skips ``TreeSearch.principal``'s
    search of the value. A wrong ``value`` gives a line that does not keep it (the caller checks the line's result),
    or none. None where no compiled draw state searches ``pos`` (the pure-Python core, a layout with arms, no lead)."""
    if (search.arm_state and pos.has_arms) or not (search.draw_state and search.draw_core == "compiled"):
        return None
    deal = draw_deal(search, pos)
    if type(deal) is not _CompiledDrawDeal:
        return None
    try:
        return deal.line(pos, value, 0)
    except RuntimeError:        # (the core found no move that reaches ``value`` at a choice: not the value)
        return None
