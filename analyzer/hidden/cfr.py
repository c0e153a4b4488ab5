"""A public-tree CFR+ solver for the block game for two, with certified brackets (issue 85; docs/hidden.md).

Every move of the block game is public and a player's private state is his hand, so the game is a *public
tree*: its nodes are the public histories (the moves played since the position), and a player's information set
at a node is the node and his own hand. :func:`build_tree` walks the public tree once from the deals the
position may be in (the position's own ``legal_moves``, ``push`` and ``pop`` decide; nothing here does) and
flattens it into arrays (:class:`PublicTree`): at each node the deals that end there with their weighted
values, the player to move, the public moves, and one information set per hand of his that reaches the node,
with the moves that hand may make.

:func:`solve` runs Discounted CFR (regret matching, alternating updates, each player's positive regrets discounted
by t^1.5 / (t^1.5 + 1) after his walk of iteration t and his negative ones halved, the average strategy weighted by
t^3; docs/hidden.md says why not CFR+) on those arrays,
with a probability vector over each player's hands at every node (the *range*), so an
iteration costs in proportion to the public tree and the deals alive at its nodes, not to the deals times the
tree. Every few iterations it computes the **exact best response** of each player against the other's average
strategy (the same walk with a max over moves at the responder's information sets): the maximiser's best
response value is at least the game value, the minimiser's at most, so ``[lower, upper]`` is a *certified
bracket* of the game value (up to floating-point rounding, some 1e-12). It stops once the bracket is no wider
than ``tol`` or the time budget is spent, never after a fixed count of deals.

The iteration runs in the C kernel (``_cfr_kernel.c``): the CPython extension ``analyzer.hidden._cfr`` where it is
built, else in the browser (Pyodide) the same kernel's WebAssembly module ``_cfr.wasm`` where the page's worker
instantiated it (:mod:`analyzer.search.wasmcfr`, from :func:`analyzer.search.core.cfr_wasm`: the same values bit for
bit), else here in Python (the tested reference: the two agree to rounding). :data:`CFR_CORE` and
:data:`CFR_BINDING` say which (:func:`cfr_core`).
"""
from __future__ import annotations

import math
import time
from array import array
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..position import Position
from ..tiles import Move
from .game import side0_value
from .ranges import (CFR_HANDS, BuildTooLong, CompiledRun, HandTooLarge, RangeCRun, RangePyRun, RangeTree,
                     TreeTooLarge, build_ranges, compiled_kernel, depth_counts, held_binding, held_bytes, pip_valued,
                     ranges_of_deals, run_slots, thread_bytes)
from .walk import BEST, EVAL, ReferenceRun, WalkState, add_legal, walk_moves

__all__ = ["PublicTree", "CfrResult", "build_tree", "solve", "start_run", "next_step", "cfr_supported", "kernel",
           "cfr_decision", "BuildTooLong", "TreeTooLarge", "RangeTree", "CFR_CORE", "CFR_BINDING", "cfr_core"]

# The one pick of the CFR+ kernel's binding (ranges.compiled_kernel): the CPython extension, else (in Pyodide) the
# kernel's WebAssembly module, else none (the Python iteration).
_kernel, _BINDING = compiled_kernel()

#: ``"compiled"`` or ``"python"``: what runs the CFR+ iteration unless a solve is told otherwise.
CFR_CORE = "python" if _kernel is None else "compiled"
#: Which binding serves the compiled CFR+ iteration: ``"native"`` (the extension ``_cfr``), ``"wasm"``
#: (:mod:`analyzer.search.wasmcfr`) or None (:data:`CFR_CORE` is ``"python"``).
CFR_BINDING = _BINDING


def kernel():
    """The compiled CFR+ kernel: the extension ``analyzer.hidden._cfr``, or its WebAssembly binding in the browser
    (:mod:`analyzer.search.wasmcfr`, the same calls), or None where neither is at hand."""
    return _kernel


def cfr_core() -> tuple[str, str, str | None]:
    """``("CFR+", CFR_CORE, CFR_BINDING)``: the CFR+ solver's core as :func:`analyzer.search.core.cores_text` takes
    it."""
    return "CFR+", CFR_CORE, CFR_BINDING


def cfr_supported(rules, pos: Position) -> bool:
    """Whether the public-tree solver takes ``pos`` of ``rules``: two players, a plain line, no points scored during
    play (the block game for two; a draw game for two: once its boneyard is empty or down to the tiles the rules keep
    back, :meth:`drawable` 0, every move is public, as in the block game, and the tiles nobody holds lie in the
    boneyard as sleepers do; before that, a draw is a chance event only the drawer sees, a draw node of the tree over
    deals, :func:`build_tree`; docs/hidden.md)."""
    return (pos.n == 2 and not pos.has_arms and getattr(rules, "play", None) is None
            and not pos.reveal and not pos.exposed)


@dataclass
class PublicTree:
    """The flattened public tree (player 0: the maximiser, the seat ``first``; 1: the other).

    Deals: ``hand[p][d]``, the index of player ``p``'s hand in deal ``d``; ``hands[p]``, each index's tile mask
    at the root; ``weight[d]`` (summing to 1). Nodes in preorder, node ``n``:
    ``player[n]`` (0, 1, or -1: nothing more to play), its moves ``child[child_at[n]:child_at[n+1]]`` (the node each
    public move leads to) and ``moves[n]`` (the moves themselves); the deals ending there
    ``term_deal[term_at[n]:term_at[n+1]]`` with ``term_value`` (weight times the value for the maximiser); its
    information sets ``iset_hand[iset_at[n]:iset_at[n+1]]`` (the mover's hand index), set ``i`` owning the entries
    ``slot[i]:slot[i]+A`` (``A`` the node's count of moves) of the regret and strategy arrays, ``legal`` (a bit a slot,
    :func:`analyzer.hidden.walk.legal_bit`: 1 where the hand may make that move). A hand's index is 16 bits in the
    lists of hands (``iset_hand``, ``alive``: :data:`analyzer.hidden.ranges.CFR_HANDS` at most)."""

    first: int
    hands: tuple[list[int], list[int]]
    hand: tuple[array, array]
    weight: list[float]
    player: array
    child_at: array
    child: array
    moves: list[list]
    term_at: array
    term_deal: array
    term_value: array
    iset_at: array
    iset_hand: array
    slot: array
    legal: array
    size: int                    # the regret and strategy arrays' length
    alive_at: tuple[array, array]
    alive: tuple[array, array]   # each player's hands with a deal alive at node ``n``:
    #                              ``alive[p][alive_at[p][n]:alive_at[p][n+1]]`` (the kernel's walk touches only those)
    parent: tuple[array, array] = field(default_factory=lambda: (array("i"), array("i")))
    #                              where tiles are drawn (a draw game with tiles still to draw), each hand index's
    #                              parent (-1: a hand at the root): a node whose ``player`` is 2 + q is q's draw, its
    #                              one child holding q's hands drawn there, each from his hand at the draw and a tile;
    #                              each deal there is a deal of the draw with the tile added to q's hand, weighing the
    #                              draw's deal's weight over the boneyard's tiles (empty: nothing is drawn)

    @property
    def nodes(self) -> int:
        return len(self.player)

    @property
    def top(self) -> float:
        """The largest terminal value (in size): with the other's reach at a node, a bound of a value there."""
        return max(map(abs, self.term_value), default=0.0)

    @property
    def infosets(self) -> tuple[int, int]:
        out = [0, 0]
        for n, p in enumerate(self.player):
            if 0 <= p <= 1:
                out[p] += self.iset_at[n + 1] - self.iset_at[n]
        return out[0], out[1]

    def memory(self, binding: str | None = "default", threads: int = 1) -> int:
        """The bytes of the flattened tree's arrays and of one run's (regrets and averages, a slot per legal move of an
        information set, with their indices; the value and reach vectors, a node's strategies and its children's
        values of every depth, as the kernel allocates them), as the run of ``binding`` holds them
        (:func:`analyzer.hidden.ranges.held_bytes`), over ``threads`` threads
        (:func:`analyzer.hidden.ranges.thread_bytes`)."""
        arrays = (self.hand[0], self.hand[1], self.player, self.child_at, self.child, self.term_at, self.term_deal,
                  self.term_value, self.iset_at, self.iset_hand, self.slot, self.legal, *self.alive_at, *self.alive,
                  *self.parent)
        levels, slots = depth_counts(self)
        vectors = 8 * (2 * 2 * (len(self.hands[0]) + len(self.hands[1])) * (len(levels) + 2) + 2 * sum(slots))
        return (held_bytes(sum(len(a) * a.itemsize for a in arrays), self.size, binding) + vectors + run_slots(self)
                + (thread_bytes(self, levels, threads, vectors) if held_binding(binding) == "native" else 0))

    def find(self, n: int, hand: int) -> int:
        """The information set of hand index ``hand`` at node ``n`` (-1: none)."""
        for i in range(self.iset_at[n], self.iset_at[n + 1]):
            if self.iset_hand[i] == hand:
                return i
        return -1


def build_tree(rules, deals: Sequence, first: int, weights: Sequence[float] | None = None,
               base: Position | None = None, limit: int = 2_000_000, budget: float | None = None) -> PublicTree:
    """The public tree of the game dealt one of ``deals`` (positions of the same moment, both hands filled in,
    each with ``weights``, uniform if None; with ``base``, a position of that moment, each deal is instead the two
    hands' tile masks by seat), the maximiser seat ``first``. A node's legal moves and whether the hand
    is over are asked of the position, once per hand of the mover and tiles of the other's that fit the open ends
    (all the rules' legality and end of a line game depend on); a finished hand's value is ``side0_value``.

    In a draw game for two with tiles still to draw (the position's ``drawable``), the tiles neither hand holds are
    the boneyard, in an order each of its orders alike: where the mover draws (his only legal move, ``DRAW``), a draw
    node follows, whose child holds, for each of his hands there and each tile of the boneyard, a new hand (his private
    state: what he holds and the order he drew it in) and a new deal weighing 1 over the boneyard's size of its own
    (``PublicTree.parent``). Past ``limit`` deals so made, or ``budget`` CPU seconds (None: no bound),
    :class:`BuildTooLong`."""
    if not deals:
        raise ValueError("no deal to solve")
    pos = (deals[0] if base is None else base).copy()
    masks = [d.hands for d in deals] if base is None else deals
    if not cfr_supported(rules, pos):
        raise ValueError("the public-tree solver plays the block game for two and a draw game for two")
    seats = (first, 1 - first)
    weights = [1.0] * len(deals) if weights is None else list(weights)
    total = float(sum(weights))
    weight = [w / total for w in weights]
    sign = 1 if rules.seating.teams[first] == 0 else -1
    hands: tuple[list[int], list[int]] = ([], [])
    hand = (array("i"), array("i"))
    root = ([], [])                      # by deal: each player's tiles at the root
    for d in masks:
        for p in (0, 1):
            mask = d[seats[p]]
            try:
                at = hands[p].index(mask)
            except ValueError:
                at = len(hands[p])
                hands[p].append(mask)
            hand[p].append(at)
            root[p].append(mask)
    if max(map(len, hands)) > CFR_HANDS:
        raise HandTooLarge(f"a player has {max(map(len, hands)):,} hands in the deals, more than the {CFR_HANDS:,} the "
                           f"tree indexes")
    # (a hand's index is 16 bits in the lists of hands: those alive at a node, an information set's)
    t = PublicTree(first, hands, hand, weight, array("i"), array("i"), array("i"), [], array("i"), array("i"),
                   array("d"), array("i"), array("H"), array("i"), array("B"), 0, (array("i"), array("i")),
                   (array("H"), array("H")))
    match = pos._match
    every = (1 << len(pos.tiles)) - 1
    drawing = bool(pos.draws and pos.drawable())
    bone: list[int] = []                 # by deal: the boneyard (the tiles neither hand holds, off the board)
    if drawing and getattr(pos, "order", None) is not None:
        raise ValueError("with tiles still to draw the boneyard's order is chance's: a deal with its order revealed "
                         "(the LP's world) is not one of the tree's deals")
    if drawing:
        unseen = pos.pool | pos.hands[0] | pos.hands[1]
        bone = [unseen & ~(a | b) for a, b in zip(root[0], root[1])]
        if any(b.bit_count() != pos.stock for b in bone):
            raise ValueError("a deal's boneyard is not the position's")
        t.parent = (array("i", [-1] * len(hands[0])), array("i", [-1] * len(hands[1])))

    def open_node(player: int, alive: list[int]) -> int:
        """A new node of ``player`` (-1 until its moves are known) with the deals ``alive``: its number."""
        n = len(t.player)
        t.player.append(player)
        t.child_at.append(0)
        t.term_at.append(len(t.term_deal))
        t.iset_at.append(len(t.iset_hand))
        t.moves.append([])
        for q in (0, 1):
            t.alive_at[q].append(len(t.alive[q]))
            t.alive[q].extend(sorted({hand[q][d] for d in alive}))
        return n

    def draw(alive: list[int], played: list[int], seat: int, p: int) -> int:
        """The draw node of ``p`` (at ``seat``) after the deals ``alive``, and the tree below it."""
        n = open_node(2 + p, alive)
        made: dict[tuple[int, int], int] = {}
        drawn = []
        share = 1.0 / pos.stock
        for d in alive:
            rest = bone[d]
            while rest:
                x = rest & -rest
                rest ^= x
                s = made.get((hand[p][d], x))
                if s is None:
                    if len(hands[p]) == CFR_HANDS:
                        raise HandTooLarge(f"more than {CFR_HANDS:,} hands of a player, with those drawn")
                    s = made[(hand[p][d], x)] = len(hands[p])
                    hands[p].append(root[p][d] | x)
                    t.parent[p].append(hand[p][d])
                drawn.append(len(weight))
                hand[p].append(s)
                hand[1 - p].append(hand[1 - p][d])
                root[p].append(root[p][d] | x)
                root[1 - p].append(root[1 - p][d])
                weight.append(weight[d] * share)
                bone.append(bone[d] & ~x)
            if len(weight) > limit:
                raise BuildTooLong(f"more than {limit:,} deals with the tiles drawn")
        d = alive[0]
        x = bone[d] & -bone[d]
        pos.hands[seat] = root[p][d] & ~played[p]
        pos.hands[1 - seat] = root[1 - p][d] & ~played[1 - p]
        pool = pos.pool
        pos.pool = bone[d]
        pos.push(Move(pos.tiles[x.bit_length() - 1], None, True))      # (a tile: each deal's hands are set below)
        kid = build(drawn, played)
        pos.pop()
        pos.pool = pool
        t.child_at[n] = len(t.child)
        t.child.append(kid)
        return n

    start = time.process_time()

    def build(alive: list[int], played: list[int]) -> int:
        if budget is not None and time.process_time() - start > budget:
            raise BuildTooLong(f"the public tree took more than {budget:g} CPU seconds to build")
        seat = pos.turn
        p = 0 if seat == first else 1
        n = open_node(-1, alive)
        fit = every if pos.ends is None else match[pos.ends[0]] | match[pos.ends[1]]
        asked: dict[tuple[int, int], list] = {}
        going: list[int] = []
        legal_of: dict[int, list] = {}       # mover's hand index -> its legal moves
        for d in alive:
            mine = root[p][d] & ~played[p]
            other = root[1 - p][d] & ~played[1 - p]
            key = (mine, other & fit)
            moves = asked.get(key)
            if moves is None:
                pos.hands[seat], pos.hands[1 - seat] = mine, other
                moves = asked[key] = pos.legal_moves()
            if not moves:
                pos.hands[seat], pos.hands[1 - seat] = mine, other
                t.term_deal.append(d)
                t.term_value.append(weight[d] * sign * side0_value(rules, pos))
                continue
            going.append(d)
            legal_of.setdefault(hand[p][d], moves)
        if not going:
            t.child_at[n] = len(t.child)
            return n
        public: list = []
        for moves in legal_of.values():
            for m in moves:
                if m not in public:
                    public.append(m)
        t.player[n] = p
        t.moves[n] = public
        width = len(public)
        for h, moves in legal_of.items():
            t.iset_hand.append(h)
            t.slot.append(t.size)
            add_legal(t.legal, t.size, width, [a for a, m in enumerate(public) if m in moves])
            t.size += width
        kids = []
        for m in public:
            sub = [d for d in going if m in legal_of[hand[p][d]]]
            if m.draw:
                kids.append(draw(sub, played, seat, p))
                continue
            d = sub[0]
            pos.hands[seat] = root[p][d] & ~played[p]
            pos.hands[1 - seat] = root[1 - p][d] & ~played[1 - p]
            pos.push(m)
            bit = m.tile.bit if m.tile is not None else 0
            played[p] |= bit
            kids.append(build(sub, played))
            played[p] &= ~bit
            pos.pop()
        t.child_at[n] = len(t.child)
        t.child.extend(kids)
        return n

    build(list(range(len(deals))), [0, 0])
    # child_at holds each node's first child's place, written when its subtree was done: store the ends too
    t.child_at.append(len(t.child))
    t.term_at.append(len(t.term_deal))
    t.iset_at.append(len(t.iset_hand))
    for q in (0, 1):
        t.alive_at[q].append(len(t.alive[q]))
    _finish_children(t)
    return t


def _finish_children(t: PublicTree) -> None:
    """Nodes were numbered in preorder but their children lists written in postorder: re-lay them so node
    ``n``'s children are ``child[child_at[n]:child_at[n+1]]``."""
    starts = list(t.child_at[:-1])
    counts = [0] * t.nodes
    for n in range(t.nodes):
        counts[n] = len(t.moves[n]) if 0 <= t.player[n] <= 1 else 1 if t.player[n] > 1 else 0
    new = array("i")
    at = array("i")
    for n in range(t.nodes):
        at.append(len(new))
        new.extend(t.child[starts[n]:starts[n] + counts[n]])
    at.append(len(new))
    t.child, t.child_at = new, at


# -- the iteration (the reference; ``_cfr_kernel.c`` does the same) ---------------------------------------------
def _walk(st: WalkState, n: int, p: int, own: list[float], opp: list[float], mode: int, it: int) -> list[float]:
    """Player ``p``'s counterfactual value of each of his hands at node ``n`` (for him: the maximiser's values
    negated for the minimiser), ``opp`` the other's reach of each hand, ``own`` his (CFR: for the average).
    ``mode``: CFR (update ``p``'s regrets and average; the other plays his current strategy), BEST (``p``
    answers best, the other plays his average) or EVAL (both their averages)."""
    t = st.t
    v = [0.0] * st.nh[p]
    if t.player[n] > 1:
        return _draw(st, n, p, own, opp, v, mode, it)
    sgn = 1.0 if p == 0 else -1.0
    mine, theirs = t.hand[p], t.hand[1 - p]
    for k in range(t.term_at[n], t.term_at[n + 1]):
        d = t.term_deal[k]
        r = opp[theirs[d]]
        if r:
            v[mine[d]] += sgn * t.term_value[k] * r
    return walk_moves(st, n, p, own, opp, v, mode, it, _walk)


def _draw(st: WalkState, n: int, p: int, own: list[float], opp: list[float], v: list[float], mode: int,
          it: int) -> list[float]:
    """Player ``q``'s draw at ``n`` (``player[n]`` is 2 + q) in ``p``'s walk: each of his hands at the child reaches
    what the hand it was drawn from reached (the tile's chance is in the deals' weights), and a value of his comes
    back to the hand it was drawn from."""
    t = st.t
    q = t.player[n] - 2
    c = t.child[t.child_at[n]]
    parent = t.parent[q]
    reach = [0.0] * st.nh[q]
    came = own if q == p else opp
    for k in range(t.alive_at[q][c], t.alive_at[q][c + 1]):
        h = t.alive[q][k]
        reach[h] = came[parent[h]]
    sub = _walk(st, c, p, reach, opp, mode, it) if q == p else _walk(st, c, p, own, reach, mode, it)
    for k in range(t.alive_at[p][c], t.alive_at[p][c + 1]):
        h = t.alive[p][k]
        v[parent[h] if q == p else h] += sub[h]
    return v


class _PyRun(ReferenceRun):
    """The Python iteration over a tree (the reference for the kernel)."""

    def _root(self, p: int, mode: int) -> list[float]:
        st = self.st
        return _walk(st, 0, p, [1.0] * st.nh[p], [1.0] * st.nh[1 - p], mode, self.it)

    def bracket(self) -> tuple[float, float]:
        st = self.st
        up = sum(_walk(st, 0, 0, [1.0] * st.nh[0], [1.0] * st.nh[1], BEST, 0))
        low = -sum(_walk(st, 0, 1, [1.0] * st.nh[1], [1.0] * st.nh[0], BEST, 0))
        return low, up

    def hand_values(self) -> list[float]:
        """Each of the maximiser's hands' value (weighted by its deals' weight) with both playing their
        averages."""
        st = self.st
        return _walk(st, 0, 0, [1.0] * st.nh[0], [1.0] * st.nh[1], EVAL, 0)


class _CRun(CompiledRun):
    """The same over the compiled kernel."""

    def __init__(self, t: PublicTree, forced: tuple[int, int] | None, module):
        fi, fa = forced if forced is not None else (-1, -1)
        self.run = module.Run(t.hand[0], t.hand[1], len(t.hands[0]), len(t.hands[1]), t.player, t.child_at, t.child,
                              t.term_at, t.term_deal, t.term_value, t.iset_at, t.iset_hand, t.slot, t.legal, t.size,
                              t.alive_at[0], t.alive[0], t.alive_at[1], t.alive[1], t.parent[0], t.parent[1], fi, fa)


@dataclass(frozen=True)
class CfrResult:
    """A solved (or partly solved) tree: the certified bracket ``[lower, upper]`` of the game value (for the
    maximiser), the iterations run, the seconds taken, whether the bracket closed to ``tol``, each of the
    maximiser's hands' value under the average strategies (weighted: divide by the hand's reach) and the
    average strategy of the information set :func:`solve` was asked for (its sums by its node's moves; empty where
    none was)."""

    lower: float
    upper: float
    iterations: int
    seconds: float
    closed: bool
    hand_values: tuple[float, ...]
    average: tuple[float, ...]
    compiled: bool

    @property
    def value(self) -> float:
        return (self.lower + self.upper) / 2

    @property
    def width(self) -> float:
        return self.upper - self.lower


def start_run(t, forced: tuple[int, int] | None = None, compiled: bool | None = None, threads: int = 1):
    """A run over ``t`` (a :class:`PublicTree` or a :class:`RangeTree`): the kernel's where it is built (``compiled``
    None or True; True: RuntimeError where it is not), else the Python reference's. ``forced``: (information set,
    move), a set held to one move. ``threads``: the threads its walks may take (the extension's; the values are the
    same whatever they are)."""
    module = kernel() if compiled in (None, True) else None
    if compiled and module is None:
        raise RuntimeError("the compiled CFR+ kernel is not built")
    if isinstance(t, RangeTree):
        run = RangeCRun(t, forced, module) if module is not None else RangePyRun(t, forced)
    else:
        run = _CRun(t, forced, module) if module is not None else _PyRun(t, forced)
    run.threads(threads)
    return run


def next_step(done: int, width: float, before: tuple[int, float] | None, tol: float, every: int) -> int:
    """The iterations to run before the next bracket, ``done`` run and the bracket ``width`` wide (``before``: the
    iterations and width at the bracket before, None: none): where the bracket narrowed since, the iterations its
    narrowing's rate (a power of the iterations, taken between 1 and 3) says it needs to reach ``tol``, and 5% more,
    at least a sixteenth of those done and at most as many again; else a quarter of those done. At least ``every``."""
    grow = max(every, done // 4)
    if before is None or tol <= 0 or not 0 < width < before[1] or not 0 < before[0] < done:
        return grow
    rate = min(3.0, max(1.0, math.log(before[1] / width) / math.log(done / before[0])))
    more = 1.05 * done * (width / tol) ** (1 / rate) - done      # (inf where tol is next to nothing)
    return max(every, done // 16, math.ceil(more) if more < done else done)


def solve(t: PublicTree, *, tol: float = 1e-6, budget: float = 10.0, forced: tuple[int, int] | None = None,
          max_iterations: int = 1_000_000, compiled: bool | None = None, every: int = 10, run=None,
          keep: bool = False, floor: float = -math.inf, cap: float = math.inf,
          average: tuple[int, int] | None = None) -> CfrResult:
    """Discounted CFR on ``t`` until the certified bracket is no wider than ``tol`` or ``budget`` seconds are spent (or
    ``max_iterations``; ``budget`` in CPU seconds of this process); the bracket is measured after ``every`` iterations,
    then as :func:`next_step` says (where the bracket's narrowing says it closes; else a quarter of the iterations
    done: measuring costs a bounded share). ``forced``: (information set, move), a set held to one move (a move's
    value). ``compiled``: the kernel (None: where built). ``run``: a run of
    :func:`start_run` over ``t`` to go on with (``forced`` is then held by :meth:`force`: its regrets are the new
    solve's warm start; ``keep``: its average and iteration count too, the run going on). ``floor`` and ``cap``: a
    lower and an upper bound of the value known from elsewhere (certified: a move's value is at most the game's, the
    game's at least each move's), the bracket narrowed to them. ``average``: (information set, its node's count of
    moves), the set whose average strategy the result holds (None: none). A decision reads its mover's set alone: the
    whole average is 8 bytes a slot of the tree, 1.7 GB at 4 tiles a hand from 5,985 hands a side."""
    if run is None:
        run = start_run(t, forced, compiled)
    else:
        run.force(*(forced if forced is not None else (-1, -1)), keep)
    start = time.process_time()         # (CPU seconds: a loaded machine stops a run no earlier than an idle one)
    done = 0

    def measured() -> tuple[float, float]:
        lo, hi = run.bracket()
        return max(lo, floor), min(hi, cap)

    low, up = measured()
    step = max(1, every)
    before = None
    while up - low > tol and done < max_iterations and time.process_time() - start < budget:
        count = min(step, max_iterations - done)
        run.iterate(count)
        done += count
        low, up = measured()
        step = next_step(done, up - low, before, tol, max(1, every))
        before = (done, up - low)
    return CfrResult(low, up, done, time.process_time() - start, up - low <= tol, tuple(run.hand_values()),
                     tuple(run.set_average(*average)) if average is not None else (),
                     not isinstance(run, (_PyRun, RangePyRun)))


#: The default precision of a decision's values: the bracket of each value, per deal that gives the mover his
#: hand, no wider than this many points (a value is *closed* within it)
TOL = 1e-3
#: The default time budget of one decision's solves, in CPU seconds (all its solves together)
BUDGET = 20.0


def cfr_decision(rules, pos: Position, deals: Sequence | None = None, weights: Sequence[float] | None = None, *,
                 tol: float = TOL, budget: float = BUDGET, compiled: bool | None = None, masks: bool = False,
                 ranges: Sequence[Sequence[int]] | None = None, by_deals: bool = False, memory: int | None = None,
                 shown: float | None = None, grace: float = 0.0,
                 hand_weights: Sequence[Sequence[float]] | None = None, threads: int = 1):
    """The decision of the player to move in ``pos`` (his actual hand) in the game dealt one of ``deals`` (positions;
    with ``masks``, each deal the hands' tile masks by seat, ``pos`` the position they fill in), or (``ranges``: each
    seat's possible hands, tile masks; ``hand_weights``: each one's weight, a pair weighing the product, 1 each if
    None) any pair of them sharing no tile, as
    :func:`analyzer.hidden.hidden_decision` values it, by CFR+ on the public tree: the game value and each
    move's value (the game with the mover's actual hand held to that move), each a certified bracket no wider
    than ``tol`` points per deal of his hand where ``closed``, within ``budget`` seconds for all the solves (the tree's
    building too: :class:`analyzer.hidden.ranges.BuildTooLong` past it). The values are the brackets' midpoints
    (``HiddenDecision.bounds`` and ``move_bounds`` hold the brackets). The moves are solved one after the other on
    the run that solved the game (:meth:`force`: the regrets it ends with are each move's warm start), each with an even
    share of what is left of ``budget``; what the solves that closed leave goes to a second solve of each that did not
    (the narrower of its two brackets kept: both hold the value). The tree is over the players' hands
    (:mod:`.ranges`) where the deals are every disjoint pair of them and the scoring counts pips, else over the deals
    (or with ``by_deals``). ``memory``: the most bytes the tree over the hands and a run of it may take
    (:meth:`RangeTree.memory`): :class:`analyzer.hidden.ranges.TreeTooLarge` past it, its build stopped once its arrays
    and the least a run of them needs pass it. ``shown`` and ``grace``: where ``budget``
    is spent and a bracket is still wider than ``shown`` points a deal of his hand (the precision the caller shows),
    up to ``grace`` more CPU seconds go to a further solve of each such bracket, until it is within ``shown``.
    ``threads``: the threads the kernel's walks may take (the values are the same; ``budget`` and ``grace`` are the CPU
    seconds of them all, so the same solve ends sooner by the clock); one where their scratch would pass ``memory``
    (whether the decision is refused does not depend on them)."""
    from .decision import HiddenDecision

    start = time.process_time()
    mover = pos.turn
    if not pos.legal_moves():
        raise ValueError("the hand is over: no decision to value")
    binding = compiled_kernel()[1] if compiled in (None, True) else None     # (the run's, as start_run picks it)
    sign = 1 if rules.seating.teams[mover] == 0 else -1
    if ranges is None and not by_deals and weights is None and pip_valued(rules) and pos.n == 2:
        found = ranges_of_deals(deals if masks else [tuple(d.hands) for d in deals], (0, 1))
        if found is not None:
            ranges = found
    if ranges is not None:
        t = build_ranges(rules, pos, mover, (ranges[mover], ranges[1 - mover]), budget=budget, max_bytes=memory,
                         weights=None if hand_weights is None else (hand_weights[mover], hand_weights[1 - mover]))
        if memory is not None and t.memory(binding) > memory:
            raise TreeTooLarge(memory)
        if memory is not None and threads > 1 and t.memory(binding, threads) > memory:
            threads = 1         # (the threads' scratch would pass the cap: one thread, the same answer)
        h = t.hands[0].index(pos.hands[mover])
        reach = t.reach(h)
        count = t.deals
    else:
        t = build_tree(rules, deals, mover, weights, pos if masks else None, budget=budget)
        h = t.hands[0].index(pos.hands[mover])
        # (the deals given, not those a draw node deals from them: the other's hand index passes a draw unchanged, so
        # those would count the mover's hand again at every draw of the other's)
        reach = sum(w for d, w in enumerate(t.weight[:len(deals)]) if t.hand[0][d] == h)
        count = len(deals)
    width = tol * reach
    moves = pos.legal_moves()
    i = t.find(0, h)
    split = len(moves) > 1 and i >= 0
    targets = [None] + ([(i, t.moves[0].index(m)) for m in moves] if split else [])
    results: list[CfrResult | None] = [None] * len(targets)
    run = start_run(t, None, compiled, threads)
    iterations = 0
    todo = list(range(len(targets)))
    # (a second pass: what the solves that closed left of the budget, to those that did not; then, with ``grace``, a
    # third of those still wider than ``shown``, to ``shown`` alone)
    limit, goal, round_ = budget, width, 0
    while True:
        for j, x in enumerate(todo):
            left = max(0.0, limit - (time.process_time() - start))
            keep = False
            if x == 0:          # the game: at least each move's value
                floor, cap = max([r.lower for r in results[1:] if r is not None], default=-math.inf), math.inf
            else:               # a move: at most the game's
                floor, cap = -math.inf, results[0].upper
                # the move the game's solve plays most goes on with its average (the game's, nearly that move at the
                # set already): its bracket starts near the game's
                keep = round_ == 0 and x == order[0]
            got = solve(t, tol=goal, budget=left / (len(todo) - j), forced=targets[x], run=run, keep=keep,
                        floor=floor, cap=cap, average=(i, len(t.moves[0])) if x == 0 and split else None)
            got = replace(got, closed=got.width <= width)       # (closed: to ``tol``, whatever the round aimed at)
            iterations += got.iterations
            if results[x] is None or got.width < results[x].width:      # (each bracket holds the value)
                results[x] = got
            if x == 0 and split:
                played = [got.average[k] for _, k in targets[1:]]
                order = sorted(range(1, len(targets)), key=lambda y: -played[y - 1])
                todo[1:] = [y for y in order if y in todo[1:]]
        # the game's value is at least each move's, a move's at most the game's: each bracket narrowed by the others
        low = max(r.lower for r in results)
        if low > results[0].lower:
            results[0] = replace(results[0], lower=low, closed=results[0].upper - low <= width)
        for x in range(1, len(results)):
            if results[x].upper > results[0].upper:
                results[x] = replace(results[x], upper=results[0].upper,
                                     closed=results[0].upper - results[x].lower <= width)
        todo = [x for x in todo if not results[x].closed]
        round_ += 1
        if todo and round_ < 2 and time.process_time() - start < budget:
            continue
        wide = [x for x in todo if shown is not None and results[x].width > shown * reach]
        if not wide or not grace or limit > budget:
            break
        todo, limit, goal = wide, budget + grace, shown * reach
    whole = results[0]
    if split:
        forced = list(zip(moves, results[1:]))
        at = [k for _, k in targets[1:]]
        total = sum(whole.average[k] for k in at)
        strategy = tuple((m, whole.average[k] / total if total > 0 else 1.0 / len(moves))
                         for m, k in zip(moves, at))
    else:
        forced = [(m, whole) for m in moves]
        strategy = tuple((m, 1.0) for m in moves)

    def side0(low: float, up: float) -> tuple[float, float]:
        return (low, up) if sign == 1 else (-up, -low)

    hand_value = sign * whole.hand_values[h] / reach
    return HiddenDecision(
        mover, count, sign * whole.value, tuple((m, sign * r.value) for m, r in forced), strategy, reach,
        t.infosets, t.nodes, float(hand_value), method="cfr", bounds=side0(whole.lower, whole.upper),
        move_bounds=tuple((m, *side0(r.lower, r.upper)) for m, r in forced),
        closed=all(r.closed for r in results), iterations=iterations,
        seconds=round(time.process_time() - start, 3), memory=t.memory(binding, threads))
