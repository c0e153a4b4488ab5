"""One deal of a two-ended block game compiled to ints: the int search of the exact solver
(:class:`~analyzer.search.block.Solver`), in pure Python; ``_core.c`` is its compiled twin.

The search does not walk the :class:`~analyzer.position.Position` itself. Once the lead is on the
table and every hand is known, a state of the hand is fully described by the tiles played so far
(each tile's owner is known), the two open numbers and the seat to move, so the search keeps its
own compact state of plain ints, updated in place and restored on the way back:

* ``hands[s]``: seat ``s``'s remaining tiles as a bit mask (bit ``Tile.index``);
* ``played``: the mask of tiles played since the deal;
* ``ends``: the two open numbers as one small int ``low * (max_pip + 1) + high`` (normalised:
  open numbers 3 and 5 are one state whichever side of the line each lies on);
* ``seat``: the seat to move, always one that can play. Passes are not nodes: with every hand
  known a pass is forced, and the hand blocks exactly when no hand holds a tile for the open
  numbers, which is checked after every tile; so a run of passes never needs counting.
* ``pips[side]``: the pips each side still holds, for the score bounds below.
* Domino Whist §8, exposed tiles: the live ones ride in the played mask above its tiles and the flag
  (``played >> xshift``, :meth:`IntDeal.exposed`), so they are part of the table key and a state
  without them keeps its key. A mover holding a live exposed tile that fits may play only such tiles
  (any placement: ``Position.legal_moves``); after his move none of his tiles that fitted is live any
  more (``Position._expose_after``; passes leave them alone). No tile becomes exposed during the
  search: the solver values a position as if none were exposed later than those lying open there.
  The compiled core keeps them in its key above the other bits where the set leaves room (``_core.c``).

**Transposition table.** A dict from one packed int (``played``, ``ends``, ``seat``) to
``(lower, upper, best move)`` for the side to move, so exact values and bounds share one entry.
A table belongs to one deal (the tiles each seat was dealt, who led) and is kept by the
:class:`~analyzer.search.block.Solver` between calls, so the decisions of one hand reuse each other's work. States with a
single legal move get no entry: forced moves are played in a loop in the same frame.

**Search.** Fail-soft alpha-beta, negamax-style from the mover's side, driven by MTD(f) (a series
of null-window searches starting at 0) whenever an exact value is wanted. Move order: the
table's best move, then the move that leaves the fewest tiles for the next opponent (then for the
other opponent), heavier tiles first.

**Node limit.** Each call of the search is one state; a call of ``Solver.solve`` or ``values`` may
search at most ``node_limit`` of them (the general search's :data:`~analyzer.search.NODE_LIMIT` by
default), then :class:`~analyzer.search.SearchLimit` is raised and the analysis says which values
it left out. The compiled core counts the same states as long as neither table is full (its table,
like the dict here, loses no entry before then), so both stop at the same call.

**Scoring** comes from the variant: the value of a finished hand is
``variant.value(HandFacts(...))`` (told the tiles left in each hand, the last tile and the open
numbers before it; not the history), cached per finished state and last move.

**Pass bonuses** (``PointScoring.pass_bonus``, 000: a play that makes the next player pass pays its
side 20 the first time in the hand, 10 later; one after which every other player passes, or that
blocks the hand, 10 for each opponent: ``PointScoring.play_bonus``) are paid along the way: a move
is worth its bonus plus the value of the state after it, and one bit of the played mask (above the
tiles) says that a bonus was paid, so that states with and without it are distinct entries. The
values of a position add the bonuses its history already paid (``Solver._paid``), so they are the
hand's whole score, as the record's result counts it. Both cores do this.

For the standard policies (recognised
exactly: ``BlockRule`` by team, ``HandScoring`` of the losers' or of all pips, ``Variant``'s own
``value``) the search uses the same rule written inline over the two sides' pip totals.
``tests/test_solver.py`` checks the inline rule against ``variant.value``. The compiled core computes
every other scoring :func:`~analyzer.search.scoring.describe` knows (every policy of the variants) in C
(``_leaf.h``); the pure-Python search asks ``variant.value`` for them, and so does the compiled core
for a scoring no description knows: exact, only slower. Both
prune with the bound the scoring allows (``LeafScoring.bound``: a side loses at most what it holds
itself, or every pip still held, or under a point a game the most a hand is worth; none with a bonus
for the last tile, [0-0] worth 50 or doubled hands), and with pass bonuses the most the other side
may still be paid: the largest bonus of a play for each tile it holds.
"""
from __future__ import annotations

from typing import Callable

from ..diagnostics import DominoError
from ..position import Position, mask_pips, placed
from ..rules.policies import HandFacts
from ..rules.variants import Variant
from ..tiles import PASS, tile_set
from .core import compiled_core
from .alphabeta import INF, mtdf
from .scoring import (counts_pass_bonuses, describe, pass_bonus_table, search_bound,
                      standard_scoring)

__all__ = ["SolverError", "IntDeal", "CoreDeal", "compiled_plays", "core_scores"]

_TERMINATIONS = ("domino", "blocked")


class SolverError(DominoError, ValueError):
    """A position the solver cannot search: an unknown hand, or seats that do not fit the variant."""


class _OverBudget(Exception):
    """The pure-Python search ran past its budget of states (unwinds to :meth:`IntDeal.mtdf`)."""


class IntDeal:
    """One deal compiled to ints, with its transposition table and its search function.

    The table, the finished-hand values and the move lists belong to the deal, because a packed
    state (the played tiles) only means something once the deal is fixed.
    """

    def __init__(self, variant: Variant, dealt: tuple[int, ...], leader: int, max_pip: int,
                 cap: int = 1 << 62) -> None:
        n = len(dealt)
        teams = variant.seating.teams
        if len(teams) != n:
            raise SolverError(f"the variant seats {len(teams)} players, the position has {n}")
        if max(teams) != 1:
            raise NotImplementedError("the solver handles exactly two sides (see the module docstring)")
        if getattr(variant, "end", "one") != "one":
            raise NotImplementedError(f"the solver ends a hand when one player is out, not {variant.end!r}")
        self.variant = variant
        self.n = n
        self.dealt = dealt
        self.leader = leader
        self.max_pip = max_pip
        self.tiles = tile_set(max_pip)
        self.all = 0
        for h in dealt:
            self.all |= h
        self.tt: dict[int, tuple[int, int, tuple | None]] = {}
        self.cap = max(1, cap)                         # the entries the leaf cache may hold
        self.room = [self.cap]                         # the entries the table may hold now
        self.cleared = False                           # the table was full and started again
        self.make_room: Callable[[IntDeal], None] | None = None     # its solver's, see ``full``
        self.leaves: dict[int, int] = {}
        self.held: dict[int, tuple[int, int]] = {}     # a hand's mask -> (pips, tiles)
        self.moves: dict[int, tuple] = {}
        self.hands = list(dealt) + [0]                 # the search's state, updated in place
        self.pips = [0, 0]                             # pips left per side, likewise
        self.budget = [0]                              # the states the search may still visit
        w = max_pip + 1
        self.width = w
        self.seat_bits = max(1, (n - 1).bit_length())
        self.tile_bits = (len(self.tiles) - 1).bit_length()
        self.ends_bits = (w * w - 1).bit_length()
        match = [0] * w
        for t in self.tiles:
            match[t.low] |= t.bit
            match[t.high] |= t.bit
        self.fit = [match[e // w] | match[e % w] for e in range(w * w)]
        self.side = list(teams)
        self.sign = [1 if side == 0 else -1 for side in teams]
        standard = standard_scoring(variant)
        self.bound, self.most = search_bound(variant, standard)
        # pass bonuses (scoring.pass_bonus_table); FLAG, the bit of the played mask that says one was paid
        self.pass_bonus = counts_pass_bonuses(variant)
        self.bonus, self.blocking, self.most_bonus = pass_bonus_table(teams, getattr(variant.scoring, "play_rule", ""),
                                                                     getattr(variant.scoring, "pass_points", 25))
        self.flag = 1 << len(self.tiles)
        # Domino Whist §8: the live exposed tiles ride in the played mask above the flag (``exposed``)
        self.xshift = len(self.tiles) + 1
        self.search = self._build_search(standard)

    def full(self) -> None:
        """The table holds all it may (``room``): its solver frees the tables of its other deals
        (``make_room``); a table that still has no room starts again."""
        if self.make_room is not None:
            self.make_room(self)
        if len(self.tt) >= self.room[0]:
            self.tt.clear()
            self.cleared = True

    def ends_code(self, a: int, b: int) -> int:
        return a * self.width + b if a <= b else b * self.width + a

    def key(self, played: int, e: int, s: int) -> int:
        return (((played << self.ends_bits) | e) << self.seat_bits) | s

    def set_state(self, position: Position) -> tuple[int, int]:
        """Load the hands of ``position`` into the search state; its played mask (with its live exposed
        tiles, :meth:`exposed`) and ends code."""
        held = 0
        for h in position.hands:
            held |= h
        self.hands[:] = list(position.hands) + [0]
        self.pips[:] = [0, 0]
        for s in range(self.n):
            self.pips[self.side[s]] += self.pips_of(position.hands[s])[0]
        a, b = position.ends
        return self.all & ~held | (position.exposed & held) << self.xshift, self.ends_code(a, b)

    def exposed(self, K: int) -> int:
        """The live exposed tiles of the packed played mask ``K``."""
        return K >> self.xshift

    def after(self, K: int, h: int, e: int) -> int:
        """``K`` once the mover, holding ``h`` on ends ``e``, has moved: his exposed tiles that fit have had
        their chance (``Position._expose_after``; the tile he plays is one of them or not exposed)."""
        return K & ~((h & self.fit[e]) << self.xshift) if self.exposed(K) else K

    def pips_of(self, mask: int) -> tuple[int, int]:
        """``(pips, tiles)`` of a hand given as a mask."""
        pc = self.held.get(mask)
        if pc is None:
            pc = self.held[mask] = (mask_pips(mask), mask.bit_count())
        return pc

    def leaf_value(self, term: int, seat: int, played: int, bit: int, e: int) -> int:
        """``variant.value`` (for side 0) of the hand just finished by ``seat`` playing ``bit`` on ends ``e``.

        ``played`` includes the last tile (and may carry exposed tiles: not part of a finished hand).
        Cached per finished state and last move.
        """
        played &= (1 << self.xshift) - 1
        key = (((((((played << 1) | term) << self.seat_bits) | seat) << self.tile_bits)
                | (bit.bit_length() - 1)) << self.ends_bits) | e
        value = self.leaves.get(key)
        if value is None:
            hands = tuple(h & ~played for h in self.dealt)
            left = [self.pips_of(h) for h in hands]
            facts = HandFacts(_TERMINATIONS[term], seat, tuple(p for p, _ in left), tuple(c for _, c in left),
                              self.leader, hands=hands, last_tile=self.tiles[bit.bit_length() - 1],
                              ends_before=divmod(e, self.width))
            if len(self.leaves) >= self.cap:
                self.leaves.clear()
            value = self.leaves[key] = self.variant.value(facts)
        return value

    def gen_moves(self, playable: int, e: int) -> tuple:
        """The moves of the tiles ``playable`` on ends ``e``: ``(bit, new ends, end number, pips)``.

        Heaviest first: the search reads the heaviest playable tile off the first move.
        """
        w = self.width
        a, b = divmod(e, w)
        out = []
        m = playable
        while m:
            low = m & -m
            m ^= low
            t = self.tiles[low.bit_length() - 1]
            if t.matches(a):
                out.append((low, self.ends_code(t.other(a), b), a, t.pips))
            if b != a and t.matches(b):
                out.append((low, self.ends_code(a, t.other(b)), b, t.pips))
        out.sort(key=lambda mv: -mv[3])
        moves = tuple(out)
        self.moves[(playable << self.ends_bits) | e] = moves
        return moves

    def mtdf(self, state: tuple[int, int, int], alpha: int, beta: int, guess: int, budget: int
             ) -> tuple[int | None, int]:
        """``(value, states)``: the value of the int ``state`` ``(K, e, s)`` (the played mask, the ends' code, the
        seat to move) for the side of ``s`` (MTD(f), see
        :func:`~analyzer.search.alphabeta.mtdf`, starting at ``guess`` or the nearest of the table's
        bounds), fail-soft in (alpha, beta), and the states searched for it (each call of the search is
        one). The value is None when more than ``budget`` states would be needed (the node limit); the
        states are then ``budget + 1``."""
        search = self.search
        K, e, s = state
        entry = self.tt.get(self.key(K, e, s))
        if entry is not None:
            guess = min(max(guess, entry[0]), entry[1])
        left = self.budget
        left[0] = budget
        try:
            value = mtdf(lambda a, b: search(K, e, s, a, b), alpha, beta, guess)
        except _OverBudget:
            value = None
        return value, budget - left[0]

    # -- the search -----------------------------------------------------------------------------
    def _build_search(self, standard: tuple[bool, int]) -> Callable[[int, int, int, int, int], int]:
        """The search function, with the deal's tables bound as locals.

        ``search(played, ends, seat, alpha, beta)`` returns the value of the state for the side of
        ``seat`` (who must hold a playable tile), fail-soft in the window (alpha, beta).
        """
        n = self.n
        SIDE = self.side
        NEXT = [tuple((s + k) % n for k in range(1, n + 1)) for s in range(n)]
        # the first opponent to play after each seat, and the other opponents
        OPP1 = [next(t for t in NEXT[s] if SIDE[t] != SIDE[s]) for s in range(n)]
        # the other opponent (two sides of two players), or the always-empty slot ``hands[n]``
        OPP2 = [next((t for t in NEXT[s] if SIDE[t] != SIDE[s] and t != OPP1[s]), n) for s in range(n)]
        if n > 4:
            raise NotImplementedError("the solver handles at most four players")
        tt = self.tt
        # standard scoring: inline leaf values; CU = 1 when the winners score every pip left (their own
        # too), 0 when they score the losers' pips, -1 for bad points (each side's own pips count
        # against it: the value is the other side's pips minus its own). BOUND: what a side loses at
        # most (``scoring.LeafScoring.bound``): 0 not known, 1 the pips it holds, 2 every pip held,
        # 3 none of them; and ``most`` points more
        FAST, CU = standard
        BOUND = self.bound

        # the recursive hot path of the pure-Python solver: the deal's tables and constants bound as default
        # arguments, so that each is a local (a fast load) at every node, not an attribute or a global; its
        # parameters past the first five are never passed (issue 69 leaves this closure over six on purpose)
        def search(K, e, s, alpha, beta, H=self.hands, P=self.pips, ALL=self.all, FIT=self.fit,
                   SIGN=self.sign, SIDE=SIDE, NEXT=NEXT, OPP1=OPP1, OPP2=OPP2, tt=tt,
                   tt_get=tt.get, leaf_value=self.leaf_value,
                   moves_get=self.moves.get, gen_moves=self.gen_moves, SB=self.seat_bits,
                   EB=self.ends_bits, KS=self.seat_bits + self.ends_bits, INF=INF, FAST=FAST, CU=CU, ROOM=self.room,
                   full=self.full, BOUND=BOUND, MOST=-self.most, B=self.budget, PB=self.pass_bonus,
                   BONUS=self.bonus, BLOCKING=self.blocking, FLAG=self.flag, PBMAX=self.most_bonus, n=n,
                   XS=self.xshift, PLAIN=(1 << self.xshift) - 1):
            B[0] -= 1           # one more state searched: past the node limit, unwind
            if B[0] < 0:
                raise _OverBudget
            neg = 1             # -1 once forced moves have handed the move to the other side
            acc = 0             # the pass bonuses of those forced moves, for the side to move now
            saved = None        # hands and pips before the first forced move
            while True:
                sd = SIDE[s]
                h = H[s]
                p = h & FIT[e]
                KC = K              # the played mask (and exposed tiles) the children start from
                if K > PLAIN:
                    # Domino Whist §8: holding live exposed tiles that fit, he plays one of them; after
                    # his move none of his that fit now is live any more (``Position._expose_after``)
                    KC = K & ~(p << XS)
                    x = K >> XS & p
                    if x:
                        p = x
                moves = moves_get((p << EB) | e)
                if moves is None:
                    moves = gen_moves(p, e)
                if BOUND:
                    # the mover's side loses at most what it holds after his heaviest playable
                    # tile (or every pip then held, or none), and the scoring's points beyond the
                    # pips. (The other bound, it wins at most what the others hold, is never
                    # tighter here than where the others last played their heaviest tile.)
                    v = MOST
                    if BOUND < 3:
                        v += moves[0][3] - P[sd]
                        if BOUND > 1:
                            v -= P[1 - sd]
                    if PB:          # and each play of the other side may still earn a pass bonus
                        v -= PBMAX * (H[OPP1[s]] | H[OPP2[s]]).bit_count()
                    if v >= beta:
                        break
                nm = len(moves)
                if nm == 1:
                    # a forced move: play it here, no table entry
                    bit, e2, _, pv = moves[0]
                    h2 = h ^ bit
                    K2 = KC | bit
                    if not h2:                                  # domino
                        if FAST:
                            v = P[1 - sd] + CU * (P[sd] - pv)
                        else:
                            v = SIGN[s] * leaf_value(0, s, K2, bit, e)
                        break
                    f = FIT[e2]
                    if not (ALL ^ K2) & f:                      # blocked
                        if FAST:
                            ps = P[sd] - pv
                            po = P[1 - sd]
                            v = po + CU * ps if ps < po else (-ps - CU * po if ps > po else 0)
                        else:
                            v = SIGN[s] * leaf_value(1, s, K2, bit, e)
                        if PB:
                            v += BLOCKING[s]
                        break
                    if saved is None:
                        saved = H[:]
                        saved_pips = P[:]
                    H[s] = h2
                    P[sd] -= pv
                    for t in NEXT[s]:
                        if H[t] & f:
                            break
                    K = K2
                    e = e2
                    if PB:
                        x = BONUS[s][(t - s - 1) % n][not K & FLAG]
                        if x:
                            K |= FLAG
                            acc += x
                            alpha -= x
                            beta -= x
                    if SIDE[t] != sd:
                        alpha, beta = -beta, -alpha
                        neg = -neg
                        acc = -acc
                    s = t
                    continue

                # a choice: the table first
                key = (K << KS) | (e << SB) | s
                entry = tt_get(key)
                if entry is not None:
                    lo, hi, best = entry
                    if lo >= beta:
                        v = lo
                        break
                    if hi <= alpha:
                        v = hi
                        break
                    if lo == hi:
                        v = lo
                        break
                    if lo > alpha:
                        alpha = lo
                    if hi < beta:
                        beta = hi
                else:
                    lo = -INF
                    hi = INF
                    best = None
                if best is None or nm > 2:
                    # order: starve the next opponent, then the other one; heavy tiles first
                    o1 = H[OPP1[s]]
                    o3 = H[OPP2[s]]
                    if nm == 2:
                        m0, m1 = moves
                        f = FIT[m0[1]]
                        x = m0[3] - 20 * (o1 & f).bit_count() - 5 * (o3 & f).bit_count()
                        f = FIT[m1[1]]
                        if m1[3] - 20 * (o1 & f).bit_count() - 5 * (o3 & f).bit_count() > x:
                            moves = (m1, m0)
                    else:
                        scored = []
                        for mv in moves:
                            f = FIT[mv[1]]
                            scored.append((mv[3] - 20 * (o1 & f).bit_count() - 5 * (o3 & f).bit_count(), mv))
                        scored.sort(reverse=True)
                        moves = [mv for _, mv in scored]
                if best is not None and moves[0] != best:
                    moves = [best] + [mv for mv in moves if mv != best]

                a0 = alpha
                v = -INF
                bm = None
                for mv in moves:
                    bit, e2, _, pv = mv
                    h2 = h ^ bit
                    K2 = KC | bit
                    if not h2:                                  # domino
                        if FAST:
                            x = P[1 - sd] + CU * (P[sd] - pv)
                        else:
                            x = SIGN[s] * leaf_value(0, s, K2, bit, e)
                    else:
                        f = FIT[e2]
                        if not (ALL ^ K2) & f:                  # blocked
                            if FAST:
                                ps = P[sd] - pv
                                po = P[1 - sd]
                                x = po + CU * ps if ps < po else (-ps - CU * po if ps > po else 0)
                            else:
                                x = SIGN[s] * leaf_value(1, s, K2, bit, e)
                            if PB:
                                x += BLOCKING[s]
                        else:
                            H[s] = h2
                            P[sd] -= pv
                            for t in NEXT[s]:                   # skip the forced passes
                                if H[t] & f:
                                    break
                            if PB:
                                b = BONUS[s][(t - s - 1) % n][not K & FLAG]
                                K3 = K2 | FLAG if b else K2
                                if SIDE[t] == sd:
                                    x = b + search(K3, e2, t, alpha - b, beta - b)
                                else:
                                    x = b - search(K3, e2, t, b - beta, b - alpha)
                            elif SIDE[t] == sd:
                                x = search(K2, e2, t, alpha, beta)
                            else:
                                x = -search(K2, e2, t, -beta, -alpha)
                            H[s] = h
                            P[sd] += pv
                    if x > v:
                        v = x
                        bm = mv
                        if x > alpha:
                            alpha = x
                            if x >= beta:
                                break
                if v <= a0:
                    hi = v
                elif v >= beta:
                    lo = v
                else:
                    lo = hi = v
                if len(tt) >= ROOM[0]:                          # full: see ``full``
                    full()
                tt[key] = (lo, hi, bm)
                break
            if saved is not None:
                H[:] = saved
                P[:] = saved_pips
            v += acc
            return v if neg > 0 else -v

        return search


class CoreDeal(IntDeal):
    """One deal searched by the compiled core (``_core.BlockDeal``): the same state, moves, order,
    leaf values and bounds, its entries in the solver's bounded table. A scoring the core does not
    write inline (not :func:`~analyzer.search.scoring.standard_scoring`) is computed in C from its description
    (:func:`~analyzer.search.scoring.describe`, evaluated by ``_leaf.h``), or, for a policy that has
    none, asked of ``variant.value`` through :meth:`IntDeal.leaf_value` for every finished hand, exactly
    as the pure-Python search does."""

    def __init__(self, variant: Variant, dealt: tuple[int, ...], leader: int, max_pip: int, table, cap: int) -> None:
        self.table = table
        super().__init__(variant, dealt, leader, max_pip, cap)

    def _build_search(self, standard: tuple[bool, int]):
        fast, cu = standard
        described = None if fast else describe(self.variant)
        python = not fast and described is None
        self.core = compiled_core().BlockDeal(self.table, self.n, self.max_pip, self.side, self.dealt, cu,
                                              self.leaf_value if python else None,
                                              None if described is None else described.ints(), self.leader,
                                              self.bound, self.most, self.bonus_ints())
        self.inline = fast
        self.python_leaves = python
        return None

    def bonus_ints(self) -> tuple[int, ...] | None:
        """The pass bonuses as the compiled core takes them: ``bonus`` flattened, then ``blocking``."""
        if not self.pass_bonus:
            return None
        return (*(x for row in self.bonus for pair in row for x in pair), *self.blocking)

    def plays(self, K: int, e: int, position, moves: list, budget: int) -> tuple[list, int, bool] | None:
        """``(values, states, over)``: the side-0 value of each of ``moves`` (plays on the line of
        ``position``, whose state this deal holds: played mask ``K``, ends code ``e``) searched one after
        the other as ``Solver.values`` asks them (None: the move ends the hand), the states searched, and
        whether they needed more than ``budget`` (the values then stop before the move that did); None
        where the core does not take them so (pass bonuses, live exposed tiles)."""
        if self.pass_bonus or self.exposed(K):
            return None
        a, b = position.ends
        codes = [(m.tile.index, self.ends_code(m.tile.other(a), b) if m.end == a
                  else self.ends_code(a, m.tile.other(b))) for m in moves]
        return self.core.plays(self.hands, self.pips, K, e, position.turn, codes, budget)

    def line(self, K: int, position, first: int, value: int | None, budget: int,
             guess: int = 0) -> tuple[list, int, bool, tuple[int, int], list[int]]:
        """``(moves, states, over, ends, seats)``: the principal variation from the state this deal holds (played mask ``K``,
        the ends and mover of ``position``) to the end of the hand, as ``Solver.best_line`` plays it (the first
        best move in the order of ``Position.legal_moves``, the forced passes included), in one call into the
        core (``BlockDeal.line``); ``first``: bit ``s`` set when seat ``s`` lays a tile on the first of two ends
        showing one number (``Position.equal_end``); ``value``: the state's side-0 value without the bonuses
        paid before it (None: searched first, MTD(f) from ``guess``, side 0 likewise); ``over``: some choice
        needed more than ``budget`` states (the moves then stop before it); ``ends``: the ends as they lay before
        the last tile of the moves (as ``position.ends`` has them; ``position``'s own where there is none);
        ``seats``: each move's player."""
        steps, used, over, ends = self.steps(K, position, first, value, budget, guess)
        tiles = self.tiles
        return ([PASS if t < 0 else placed(tiles[t], end) for _, t, end in steps], used, over, ends,
                [seat for seat, _, _ in steps])

    def steps(self, K: int, position, first: int, value: int | None, budget: int,
              guess: int = 0) -> tuple[list[tuple[int, int, int]], int, bool, tuple[int, int]]:
        """:meth:`line` as the core gives it (``BlockDeal.line``): ``(steps, states, over, ends)``, each step ``(seat,
        tile index, the open number it goes on)``, a pass ``(seat, -1, -1)``. A ``value`` that is not the state's
        gives a line that does not keep it, or RuntimeError."""
        a, b = position.ends
        s = position.turn
        return self.core.line(self.hands, self.pips, K, a, b, s, first, None if value is None else self.sign[s] * value,
                              budget, self.sign[s] * guess)

    def ends(self, K: int, position, first: int, values: list, budget: int) -> list:
        """Where the principal variation after each move of ``position``'s mover ends (``BlockDeal.ends``), each taken
        at its side-0 value in ``values`` (one a move, in the order of ``Position.legal_moves``; None: not read):
        ``(hands, seat, tile index, ends before it)`` or None for each."""
        a, b = position.ends
        return self.core.ends(self.hands, self.pips, K, a, b, position.turn, first, values, budget)

    def mtdf(self, state: tuple[int, int, int], alpha: int, beta: int, guess: int, budget: int
             ) -> tuple[int | None, int]:
        core = self.core
        before = core.nodes
        K, e, s = state
        value = core.mtdf(self.hands, self.pips, K, e, s, alpha, beta, guess, budget)
        return value, core.nodes - before


_SCORED: dict[int, tuple[object, bool]] = {}


def core_scores(variant: Variant) -> bool:
    """Whether the compiled core in use may search the deals of ``variant``: the CPython extension always (a scoring
    it does not compute itself it asks of Python, :meth:`IntDeal.leaf_value`); the WebAssembly module
    (:mod:`analyzer.search.wasmcore`, no callback into Python) only a scoring written inline or described
    (:func:`~analyzer.search.scoring.describe`): the others are searched in pure Python there."""
    if getattr(compiled_core(), "CALLBACKS", True):
        return True
    kept = _SCORED.get(id(variant))
    if kept is None or kept[0] is not variant:
        kept = _SCORED[id(variant)] = (variant, standard_scoring(variant)[0] or describe(variant) is not None)
    return kept[1]


def compiled_plays(max_pip: int, pass_bonus: bool = False, exposed: bool = False, players: int = 4) -> bool:
    """Whether the compiled core can search a set of double-``max_pip`` (it packs a state in 64 bits;
    with ``pass_bonus`` one bit more, the flag that a pass bonus was paid); with ``exposed`` (live exposed
    tiles, Domino Whist §8) the key needs a bit for every tile more: double-six with four ``players`` and
    no pass bonus fits exactly (``_core.c``, ``xb``)."""
    if exposed:
        w = max_pip + 1
        tiles = w * (w + 1) // 2
        return 2 * tiles + pass_bonus + (w * w - 1).bit_length() + max(1, (players - 1).bit_length()) <= 64
    return max_pip <= (8 if pass_bonus else 9)
