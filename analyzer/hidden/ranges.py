"""The public tree of the block (and draw) game for two over each player's *hands*, not over deals (issue 85;
docs/hidden.md).

The deals the public record allows are, in the block game for two, every pair of hands ``(h0, h1)`` with ``h0`` one of
player 0's possible hands and ``h1`` one of player 1's that share no tile (the sleepers take the rest; each pass rules
tiles out of one player's hand alone). So the game needs no list of deals: a :class:`RangeTree` keeps each player's
possible hands and walks the public tree once with them (the position's own ``legal_moves``, ``push`` and ``pop``
decide, once per class of hands alike at a node: nothing here judges a move). At a node a player's hands *alive* are
those holding every tile he has played and none the other has; the hands that end the game there (both players
stuck: blocked; a player out: every hand) are its *terminal* hands of each player, and a finished hand's value depends
on the two hands only through their pips (:func:`pip_valued`), so a node keeps one value per pair of pip classes.

The draw game for two takes it too (:func:`hand_key`: a hand's class there is its pips, its doubles' pips and whether
it holds the [0-0], the draw game counting a double once). Its deals weigh unlike, each the product of its hands'
weights (:func:`weighted_ranges`), and a draw is a public move followed by a *draw node*, below which each of the
drawer's hands holds one tile more: the same tiles one hand whatever the order they came in (what follows depends on
the tiles alone), the tile's chance in the tables of values below.

The counterfactual value of each of one player's terminal hands against the other's reach is then a sum over the
other's hands *disjoint* from it, which the C kernel computes by inclusion-exclusion over the few tiles of the hand:
``sum over o disjoint from h = sum over subsets S of h of (-1)^|S| (sum over o holding S)``, the sums over ``o``
holding ``S`` accumulated once per node (each ``o`` adding its reach to its own ``2^|o|`` subsets, by pip class). An
iteration so costs in proportion to the hands alive at the nodes, not to the deals. The Python walk here (the
reference) sums the disjoint pairs one by one.

The tree is built by the kernel too (``_ranges_kernel.c``, in both bindings of ``_cfr``: the same arrays, some 50-80
times faster) where :func:`compiled_build_supports` the position: the plain line game for two, whose moves the kernel
mirrors (``Position.legal_moves`` and ``push``), valued by a scoring ``analyzer.search.scoring.describe`` compiles to
ints (``_leaf.h``'s ``leaf_score``, as the block search's kernel values a finished hand). Elsewhere, and as the
reference the tests hold it to, the Python build here asks the position and the rules.
"""
from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Sequence

from ..position import Position, mask_pips, placed
from ..search.core import cfr_wasm
from ..search.scoring import describe
from ..search.wasmcfr import BUILD_ITEMS, RB_TOO_LARGE
from ..tiles import DOUBLES, PASS, Move, tile_set
from .game import leaf_facts
from .walk import BEST, EVAL, ReferenceRun, WalkState, add_legal, legal_count, walk_moves

__all__ = ["RangeTree", "build_ranges", "pip_valued", "hand_key", "RANGE_MOST", "CFR_HANDS", "RANGE_CLASSES", "BuildTooLong", "TreeTooLarge",
           "HandTooLarge", "depth_counts", "ranges_of_deals", "disjoint_pairs", "weighted_ranges", "run_slots", "held_bytes", "compiled_kernel", "compiled_build_supports"]

# The one pick of the compiled kernel's binding (the CFR+ iteration and this tree's build): the CPython extension, else
# (in Pyodide) the kernel's WebAssembly module, else none (the Python iteration and build).
try:
    from . import _cfr as _KERNEL
    _KERNEL_BINDING: str | None = "native"
except ImportError:  # pragma: no cover - a machine without a C compiler, or the browser
    _KERNEL = cfr_wasm()
    _KERNEL_BINDING = None if _KERNEL is None else "wasm"


def compiled_kernel():
    """``(module, binding)``: the compiled kernel (``analyzer.hidden._cfr``, or :mod:`analyzer.search.wasmcfr` in the
    browser; None without either) and which binding it is (``"native"``, ``"wasm"`` or None)."""
    return _KERNEL, _KERNEL_BINDING


class BuildTooLong(ValueError):
    """The public tree took longer to build than its time budget."""


class HandTooLarge(ValueError):
    """The tree cannot hold the game: a hand of the tree over hands would hold more tiles than the kernel takes
    (:data:`RANGE_MOST`, those played since the root counted) by its draws (or a draw would find no tile off the board
    to draw); a player has more hands than either form indexes (:data:`CFR_HANDS`, those drawn counted); or a node's
    terminal hands of a player fall in more than :data:`RANGE_CLASSES` classes. (Such games are far past any memory
    cap: at 4 tiles a hand of a double-six set a player has at most 7,315 possible hands, and the study's trees of
    7,315 a side take 3.4 to 5.2 GB; a pip-valued hand of 8 tiles of a double-nine set has at most 145 classes.)"""


class TreeTooLarge(MemoryError):
    """The public tree (with a run of it) takes more memory than its cap: ``cap`` bytes."""

    def __init__(self, cap: int):
        super().__init__(f"the public tree takes more than {cap / 2**30:.3g} GiB of memory")
        self.cap = cap


def pip_valued(rules) -> bool:
    """Whether a finished hand's value depends on the hands only through their pips (no tile counting other than its
    pips: no [0-0] worth 50, no doubles counted once or doubled, in the scoring or in the decision of a block: the
    draw game's fewest pips count a double once) and the turns alternate one move at a time."""
    from ..rules.modes import Turns

    if getattr(rules, "turns", Turns.ONE) != Turns.ONE:
        return False

    def plain(obj, depth=0) -> bool:
        if depth > 3 or not is_dataclass(obj):
            return True
        for f in fields(obj):
            v = getattr(obj, f.name)
            if f.name in ("blank", "doubles_once", "doubled") and v:
                return False
            if is_dataclass(v) and not plain(v, depth + 1):
                return False
        return True

    return plain(rules.scoring) and plain(getattr(rules, "block", None))


#: The most tiles a hand of the range tree may hold, its tiles played since the root counted (``_cfr_kernel.h``'s
#: ``RANGE_MOST``)
RANGE_MOST = 8
#: The most hands of a player either form of the tree indexes (``_cfr_kernel.h``'s ``CFR_HANDS``): a hand's index is 16
#: bits in the tree's longest lists (the hands alive at each node, each information set's hand, the terminal hands of
#: the tree over hands, whose pip classes are 8 bits), so that they take half the bytes of ints or less
CFR_HANDS = 65535
#: The most classes of a player's terminal hands at a node the range tree holds (8 bits)
RANGE_CLASSES = 256


def hand_key(rules):
    """What a finished hand's value reads of each hand, as a function of its tile mask, or None where the range tree does
    not take the rules (turns other than one move at a time): its pips where :func:`pip_valued`, else its pips, the
    pips of its doubles and whether it holds the [0-0] (all that a double counted once or twice, or a [0-0] worth 50,
    adds to its pips; the draw game counts a double once in a block)."""
    from ..rules.modes import Turns

    if getattr(rules, "turns", Turns.ONE) != Turns.ONE:
        return None
    if pip_valued(rules):
        return mask_pips
    return _tile_key


def _tile_key(mask: int) -> tuple[int, int, bool]:
    return mask_pips(mask), mask_pips(mask & DOUBLES), bool(mask & 1)


def disjoint_pairs(a: Sequence[int], b: Sequence[int]) -> int:
    """How many pairs of a mask of ``a`` and a mask of ``b`` share no bit (the deals of two ranges)."""
    from collections import Counter

    held: Counter = Counter()
    for o in b:
        sub = o
        while True:                  # every subset of o (the hands are a few tiles)
            held[sub] += 1
            if sub == 0:
                break
            sub = (sub - 1) & o
    total = 0
    for h in a:
        sub = h
        while True:
            total += (-1) ** sub.bit_count() * held.get(sub, 0)
            if sub == 0:
                break
            sub = (sub - 1) & h
    return total


def weighted_ranges(deals: Sequence[tuple[int, ...]], weights: Sequence[float], seats: tuple[int, int]):
    """The two players' hands (seats ``seats``) of ``deals`` (tile masks by seat) and a weight of each hand, where the
    deals are exactly every disjoint pair of them and each weighs the product of its hands' weights (the draw game's
    deals weigh so: each player's hand as many ways as his own draws could have given it): ``((hands0, hands1),
    (weights0, weights1))``, else None."""
    found = ranges_of_deals(deals, seats)
    if found is None or len(weights) != len(deals) or min(weights, default=0) <= 0:
        return None
    a, b = found
    ia, ib = {m: k for k, m in enumerate(a)}, {m: k for k, m in enumerate(b)}
    by_a: list[list[tuple[int, float]]] = [[] for _ in a]
    by_b: list[list[tuple[int, float]]] = [[] for _ in b]
    for d, w in zip(deals, weights):
        x, y = ia[d[seats[0]]], ib[d[seats[1]]]
        by_a[x].append((y, float(w)))
        by_b[y].append((x, float(w)))
    fa: list[float | None] = [None] * len(a)
    fb: list[float | None] = [None] * len(b)
    for root in range(len(a)):          # each connected part of the pairs: its first hand 1, the rest by the deals
        if fa[root] is not None:
            continue
        fa[root] = 1.0
        todo = [(0, root)]
        while todo:
            side, x = todo.pop()
            mine, theirs, got = (by_a, fb, fa) if side == 0 else (by_b, fa, fb)
            for y, w in mine[x]:
                if theirs[y] is None:
                    theirs[y] = w / got[x]
                    todo.append((1 - side, y))
    if any(f is None for f in fb):
        return None
    for d, w in zip(deals, weights):
        if abs(fa[ia[d[seats[0]]]] * fb[ib[d[seats[1]]]] - w) > 1e-9 * w:
            return None
    return (a, b), (fa, fb)


def ranges_of_deals(deals: Sequence[tuple[int, ...]], seats: tuple[int, int]) -> tuple[list[int], list[int]] | None:
    """The two players' hands (seats ``seats``) of ``deals`` (tile masks by seat) where the deals are exactly every
    disjoint pair of them, else None."""
    a = sorted({d[seats[0]] for d in deals})
    b = sorted({d[seats[1]] for d in deals})
    if len(set((d[seats[0]], d[seats[1]]) for d in deals)) != len(deals) or disjoint_pairs(a, b) != len(deals):
        return None
    return a, b


@dataclass
class RangeTree:
    """The public tree over the two players' hands (player 0: the maximiser, the seat ``first``; 1: the other).

    ``masks[p]``: each of player ``p``'s possible hands at the root (tile masks), ``cmasks[p]`` the same in the
    compressed tile numbering (bit ``i``: the ``i``-th tile any hand holds) the kernel uses; ``weight[p]``: each hand's
    weight at the root (a deal weighs the product of its hands' weights; 1 each: every deal the record allows alike);
    ``norm``: 1 over the deals' total weight. Nodes in preorder, node ``n``: ``player[n]`` (0, 1, or -1: nothing more
    to play), its moves ``child[child_at[n]:child_at[n+1]]`` (the nodes) and ``moves[n]`` (the moves, a list of
    :class:`Move`; of a compiled build, made when a node's are asked for);
    ``played[p][n]`` (compressed) the tiles ``p`` has played since the root; each player's hands alive
    ``alive[p][alive_at[p][n]:alive_at[p][n+1]]``; its terminal hands ``term_hand[p][term_at[p][n]:...]`` with their
    pip class ``term_class`` (the game ends there for every disjoint pair of a terminal hand of each), the value of a
    pair ``table[table_at[n] + class0 * width[n] + class1]`` (times ``norm``, for the maximiser); its information sets
    as :class:`analyzer.hidden.cfr.PublicTree`'s (``iset_hand``, ``slot``, ``legal``, ``size``). The Python build's
    arrays are ``array``s; the compiled build's are read-only ``memoryview``s of the binding's bytes (no copy).

    Where tiles may be drawn (the draw game), a draw is a public move followed by a *draw node*, ``player[n]`` 2 + q
    (q the drawer), with one child: there each of q's hands is the tiles of one of his hands at ``n`` and one more,
    any tile off the board and not in it (``masks`` and ``weight`` go on past the root's hands, each new one weighing
    0 at the root). The same tiles drawn in another order, or from another hand that leaves the same tiles, are one
    hand at the child: what follows depends on the tiles alone, and what the other player saw is the same. Its pairs
    ``draw_child[k]``, ``draw_parent[k]`` for ``k`` in ``draw_at[n]:draw_at[n + 1]`` (all three empty where nothing is
    drawn); the tile's chance (one over the boneyard's tiles) is in the tables of the nodes below. ``deals`` counts
    the root's pairs."""

    first: int
    masks: tuple[list[int], list[int]]
    cmasks: tuple[array, array]
    weight: tuple[list[float], list[float]]
    norm: float
    player: array
    child_at: array
    child: array
    moves: Sequence[list]
    played: tuple[array, array]
    alive_at: tuple[array, array]
    alive: tuple[array, array]
    term_at: tuple[array, array]
    term_hand: tuple[array, array]
    term_class: tuple[array, array]
    table_at: array
    width: array
    table: array
    iset_at: array
    iset_hand: array
    slot: array
    legal: array
    size: int
    deals: int
    build_seconds: float = 0.0
    draw_at: array = field(default_factory=lambda: array("i"))
    draw_child: array = field(default_factory=lambda: array("H"))
    draw_parent: array = field(default_factory=lambda: array("H"))

    @property
    def nodes(self) -> int:
        return len(self.player)

    @property
    def top(self) -> float:
        """The largest terminal value (in size): with the other's reach at a node, a bound of a value there."""
        return max(map(abs, self.table), default=0.0)

    @property
    def hands(self) -> tuple[list[int], list[int]]:
        return self.masks

    @property
    def infosets(self) -> tuple[int, int]:
        out = [0, 0]
        for n, p in enumerate(self.player):
            if p in (0, 1):
                out[p] += self.iset_at[n + 1] - self.iset_at[n]
        return out[0], out[1]

    def memory(self, binding: str | None = "default", threads: int = 1) -> int:
        """The bytes of the tree's arrays and of one run's (regrets and averages by legal move, with their indices:
        :func:`run_slots`; the value and reach vectors, a node's strategies and its children's values of every depth
        (:func:`depth_counts`); the kernel's table of the subsets of the terminal hands, each hand's tiles and the rows
        of their subsets, and the leaves valued at their parent: a mark, hand, slot and tile by move, three indices by
        node, and at most a value of each of the other's hands alive at a node where one moves), as the run of
        ``binding`` holds them (:func:`held_bytes`; "default": :func:`compiled_kernel`'s). A run of the extension over ``threads`` threads holds as much scratch again for
        each thread past the first (value and reach vectors, the terminal sums' tables) and its tasks' vectors
        (:func:`thread_bytes`). Measured against the process's resident memory in the seventeenth and nineteenth
        sessions: docs/hidden.md, "A cap on the tree's memory"."""
        levels, slots = depth_counts(self)
        vectors = 2 * 2 * (len(self.masks[0]) + len(self.masks[1])) * (len(levels) + 2) + 2 * sum(slots)
        bits = max((m.bit_length() for ms in self.cmasks for m in ms), default=0)
        most = max((m.bit_count() for ms in self.cmasks for m in ms), default=0)
        from math import comb
        subsets = sum(comb(bits, k) for k in range(most + 1))
        classes = max(list(self.width) + [1]) + 1
        rows = sum(4 * (1 << m.bit_count()) + 12 for ms in self.cmasks for m in ms)
        places = sum(self.alive_at[1 - p][n + 1] - self.alive_at[1 - p][n] for n, p in enumerate(self.player)
                     if p in (0, 1))
        scratch = 8 * vectors + subsets * (20 * classes + 4)
        return (held_bytes(self.array_bytes(), self.size, binding) + scratch + run_slots(self) + rows
                + 10 * len(self.child) + 12 * self.nodes + 8 * places
                + (thread_bytes(self, levels, threads, scratch) if held_binding(binding) == "native" else 0))

    def array_bytes(self) -> int:
        """The bytes of the tree's arrays (the moves' codes of a compiled build not counted)."""
        arrays = (*self.cmasks, self.player, self.child_at, self.child, *self.played, *self.alive_at, *self.alive,
                  *self.term_at, *self.term_hand, *self.term_class, self.table_at, self.width, self.table, self.iset_at,
                  self.iset_hand, self.slot, self.legal, self.draw_at, self.draw_child, self.draw_parent)
        return sum(len(a) * a.itemsize for a in arrays)

    def depth(self) -> int:
        return len(self.levels())

    def levels(self) -> list[int]:
        return levels_of(self)

    def find(self, n: int, hand: int) -> int:
        """The information set of hand index ``hand`` at node ``n`` (-1: none)."""
        for i in range(self.iset_at[n], self.iset_at[n + 1]):
            if self.iset_hand[i] == hand:
                return i
        return -1

    def reach(self, hand: int) -> float:
        """The weight (of 1) of the deals giving player 0 his hand ``hand``."""
        h = self.masks[0][hand]
        return self.weight[0][hand] * sum(w for o, w in zip(self.masks[1], self.weight[1]) if not o & h) * self.norm


def build_ranges(rules, base: Position, first: int, hands: tuple[Sequence[int], Sequence[int]],
                 weights: tuple[Sequence[float], Sequence[float]] | None = None, budget: float | None = None,
                 compiled: bool | None = None, module=None, max_bytes: int | None = None) -> RangeTree:
    """The public tree of the game dealt any disjoint pair of ``hands[0]`` (the tile masks of the seat ``first``'s
    possible hands) and ``hands[1]`` (the other seat's), from ``base`` (a position of that moment: its line, turn and
    counts; its hands are replaced as the walk needs), each hand weighing ``weights`` (1 if None). :class:`BuildTooLong`
    past ``budget`` CPU seconds, :class:`TreeTooLarge` once its arrays (as filled) and the least a run of them needs
    (:data:`RUN_BYTES` a legal move) pass ``max_bytes`` bytes (checked every 64 nodes). Built by the compiled kernel
    (``_ranges_kernel.c``: the same arrays) where
    :func:`compiled_build_supports` the position and ``compiled`` is not False (True: ValueError where it does not),
    else here (the reference); ``module``: the kernel's binding to build with (the default: :func:`compiled_kernel`'s)."""
    start = time.process_time()
    key_of = hand_key(rules)
    if base.n != 2 or key_of is None:
        raise ValueError("the range solver plays the line games for two whose hands are valued by their tiles")
    masks = (list(hands[0]), list(hands[1]))
    if not masks[0] or not masks[1]:
        raise ValueError("no deal to solve")
    if max(map(len, masks)) > CFR_HANDS:
        raise HandTooLarge(f"a player has {max(map(len, masks)):,} possible hands, more than the {CFR_HANDS:,} the "
                           f"tree over hands indexes")
    weight = ([1.0] * len(masks[0]), [1.0] * len(masks[1])) if weights is None else (list(weights[0]), list(weights[1]))
    total = _weighted_pairs(masks, weight)
    if total <= 0:
        raise ValueError("no deal to solve: the hands given share tiles in every pair")
    module = module if module is not None else _KERNEL
    if compiled is not False:
        state = compiled_build_supports(rules, base, first, masks, module)
        if state is not None:
            return _compiled_build(module, state, base, first, masks, weight, total, budget, start, max_bytes)
        if compiled:
            raise ValueError("the compiled build does not take this position")
    pos = base.copy()
    seats = (first, 1 - first)
    # the tiles a hand may hold below: the root's hands', and where tiles may be drawn every tile off the board
    drawing = bool(getattr(pos, "draws", False) and pos.drawable())
    board = 0
    for move, *_ in pos.history:
        if move.tile is not None:
            board |= move.tile.bit
    tiles = tile_set(pos.max_pip)
    unseen = sum(x.bit for x in tiles) & ~board if drawing else 0
    universe = _union(masks) | unseen
    compress = _compressor_of(universe)
    # (a hand's index is 16 bits in the lists of hands, its class at a terminal 8: the compiled build's types)
    t = RangeTree(first, masks, (array("i"), array("i")), weight,        # (the hands' compressed masks at the end)
                  1.0 / total, array("i"), array("i"), array("i"), [], (array("i"), array("i")),
                  (array("i"), array("i")), (array("H"), array("H")), (array("i"), array("i")),
                  (array("H"), array("H")), (array("B"), array("B")), array("i"), array("i"), array("d"), array("i"),
                  array("H"), array("i"), array("B"), 0, disjoint_pairs(masks[0], masks[1]))
    sign = 1 if rules.seating.teams[first] == 0 else -1
    match = pos._match
    every = (1 << 62) - 1
    by_pips = key_of is mask_pips       # (the block game's: a hand's class its pips alone, the tiles not looked at)
    pips = (list(map(mask_pips, masks[0])), list(map(mask_pips, masks[1])))
    index: tuple[dict[int, int], dict[int, int]] = ({m: h for h, m in enumerate(masks[0])},
                                                    {m: h for h, m in enumerate(masks[1])})
    kids_of: list[list[int]] = []
    ticks = [0]
    legal_moves = [0]               # the legal moves of the information sets so far (a run's slots)
    chance = [1.0]                  # the chance of the draws since the root (the tables below are times it)

    keys: dict = {}                 # a hand's tiles left -> its class (where not its pips alone)
    known: dict = {}                # the facts of a finished hand (all but the hands' classes) -> {classes: value}
    tables: dict = {}               # those facts, the chance and each player's classes -> where its table starts

    def terminal(n: int, ends: tuple[list[int], list[int]], played: list[int]) -> None:
        """Node ``n``'s terminal hands of each player, by class (:func:`hand_key`: in the block game their pips), and
        its table of values (a finished hand's facts asked of the position once, then only the hands changed for
        others of their classes: the value depends on the hands by them alone; nodes with the same facts, chance and
        classes share one table)."""
        classes: list[dict] = [{}, {}]
        for q in (0, 1):
            gone = mask_pips(played[q])
            of, pq, mq = classes[q], pips[q], masks[q]
            hands_out, classes_out = t.term_hand[q], t.term_class[q]
            for h in ends[q]:
                if by_pips:
                    left = pq[h] - gone
                else:
                    held = mq[h] & ~played[q]
                    left = keys.get(held)
                    if left is None:
                        left = keys[held] = key_of(held)
                k = of.get(left)
                if k is None:
                    if len(of) == RANGE_CLASSES:
                        raise HandTooLarge(f"more than {RANGE_CLASSES} classes of hands at a node")
                    k = of[left] = (len(of), mq[h] & ~played[q])
                hands_out.append(h)
                classes_out.append(k[0])
        pos.hands[seats[0]] = masks[0][ends[0][0]] & ~played[0]
        pos.hands[seats[1]] = masks[1][ends[1][0]] & ~played[1]
        facts = leaf_facts(pos)
        base = (facts.termination, facts.seat, facts.counts, facts.leader, facts.last_tile, facts.ends_before)
        key = (base, chance[0], tuple(classes[0]), tuple(classes[1]))
        at = tables.get(key)
        if at is None:
            at = tables[key] = len(t.table)
            values = known.setdefault(base, {})
            for a, (_, ha) in classes[0].items():
                for b, (_, hb) in classes[1].items():
                    by_seat = (a, b) if seats[0] == 0 else (b, a)
                    got = values.get(by_seat)
                    if got is None:
                        if by_pips:
                            leaf = replace(facts, pips=by_seat, hands=None)
                        else:
                            held = (ha, hb) if seats[0] == 0 else (hb, ha)
                            leaf = replace(facts, pips=(by_seat[0][0], by_seat[1][0]), hands=held)
                        got = values[by_seat] = sign * rules.value(leaf) * t.norm
                    t.table.append(got * chance[0])
        t.table_at[n] = at
        t.width[n] = len(classes[1])

    def open_node(alive: tuple[list[int], list[int]], played: list[int]) -> int:
        """A new node (nothing to play yet), the hands ``alive`` there."""
        ticks[0] += 1
        if ticks[0] % 64 == 0:
            if budget is not None and time.process_time() - start > budget:
                raise BuildTooLong(f"the public tree took more than {budget:.0f} CPU seconds to build")
            if max_bytes is not None and t.array_bytes() + RUN_BYTES * legal_moves[0] > max_bytes:
                raise TreeTooLarge(max_bytes)
        n = len(t.player)
        t.player.append(-1)
        t.moves.append([])
        kids_of.append([])
        t.iset_at.append(len(t.iset_hand))
        t.table_at.append(0)
        t.width.append(0)
        t.draw_at.append(len(t.draw_child))
        for r in (0, 1):
            t.played[r].append(compress(played[r]))
            t.alive_at[r].append(len(t.alive[r]))
            t.alive[r].extend(alive[r])
            t.term_at[r].append(len(t.term_hand[r]))
        return n

    def draw(p: int, drawers: list[int], others: list[int], played: list[int]) -> int:
        """The draw node after a draw of player ``p`` (his hands ``drawers``, the other's ``others``) and below it the
        rest: each of his hands there one more tile, any off the board and not in it, at the tile's chance."""
        n = open_node((drawers, others) if p == 0 else (others, drawers), played)
        t.player[n] = 2 + p
        mp, wp, pp, at = masks[p], weight[p], pips[p], index[p]
        pool = unseen & ~(played[0] | played[1])
        parents: dict[int, list[int]] = {}
        for h in drawers:
            free = pool & ~mp[h]
            while free:
                bit = free & -free
                free ^= bit
                m = mp[h] | bit
                j = at.get(m)
                if j is None:
                    if m.bit_count() > RANGE_MOST:
                        raise HandTooLarge(f"a hand of more than {RANGE_MOST} tiles")
                    if len(mp) == CFR_HANDS:
                        raise HandTooLarge(f"more than {CFR_HANDS:,} hands of a player, with those drawn")
                    j = at[m] = len(mp)
                    mp.append(m)
                    wp.append(0.0)
                    pp.append(mask_pips(m))
                parents.setdefault(j, []).append(h)
        for j, hs in parents.items():
            for h in hs:
                t.draw_child.append(j)
                t.draw_parent.append(h)
        drawn = list(parents)
        stock, before = pos.stock, pos.pool
        # (the position's own draw, of a tile off the board: the hands are set below as the walk needs them, and the
        # pool as it was once it is undone)
        face = (before or pool) & -(before or pool)
        if not face or not drawn:
            raise HandTooLarge("a draw with no tile to draw")
        pos.push(Move(tiles[face.bit_length() - 1], None, True))
        chance[0] /= stock
        kids_of[n] = [build((drawn, others) if p == 0 else (others, drawn), played)]
        chance[0] *= stock
        pos.pop()
        pos.pool = before
        return n

    def build(alive: tuple[list[int], list[int]], played: list[int]) -> int:
        n = open_node(alive, played)
        seat = pos.turn
        p = 0 if seat == first else 1
        q = 1 - p
        fit = every if pos.ends is None else match[pos.ends[0]] | match[pos.ends[1]]
        mp, mq, gone_p, gone_q = masks[p], masks[q], ~played[p], ~played[q]
        stuck_o, playing_o = [], []
        for o in alive[q]:
            (playing_o if mq[o] & gone_q & fit else stuck_o).append(o)
        asked: dict[tuple[int, bool], list] = {}

        def legal(mine: int, other_fits: bool) -> list:
            key = (mine & fit, other_fits)
            got = asked.get(key)
            if got is None:
                other = mq[(playing_o if other_fits else stuck_o)[0]] & gone_q
                pos.hands[seat], pos.hands[1 - seat] = mine, other
                got = asked[key] = pos.legal_moves()
            return got

        kinds = [k for k, os_ in ((True, playing_o), (False, stuck_o)) if os_]   # the other's hands: fitting or not
        end_with: frozenset | None = None      # the kinds of the other's hands the mover's ended hands end with
        # The mover's hands by their tiles that fit the open ends (all that their moves and their ending the
        # game depend on): each class's moves asked once.
        group: dict[int, tuple] = {}           # tiles that fit -> (ends the game?, its moves or None)
        of_hand: list[tuple] = []              # each alive hand's class, in order
        for h in alive[p] if kinds else ():
            mine = mp[h] & gone_p
            g = group.get(mine & fit)
            if g is None:
                got = [legal(mine, k) for k in kinds]
                going = [x for x in got if x]
                if len(going) > 1 and going[1] != going[0]:
                    raise ValueError("a hand's moves depend on the other hand's")
                if len(going) < len(got):
                    over = frozenset(k for k, x in zip(kinds, got) if not x)
                    if end_with is not None and over != end_with:
                        raise ValueError("the hands that end the game differ in whom they end it with")
                    end_with = over
                g = group[mine & fit] = (len(going) < len(got), going[0] if going else None)
            of_hand.append((h, g))
        ended: tuple[list[int], list[int]] = ([], [])
        ended[p].extend(h for h, g in of_hand if g[0])
        if ended[p]:
            ended[q].extend(alive[q] if len(end_with) == 2 else playing_o if True in end_with else stuck_o)
            terminal(n, ended, played)
        going_hands = [(h, g) for h, g in of_hand if g[1] is not None]
        if not going_hands:
            return n
        public: list = []
        index: dict = {}
        rows: dict[int, list[int]] = {}         # a class (by id) -> its moves' indices
        for _, g in going_hands:
            if id(g) not in rows:
                for m in g[1]:
                    if m not in index:
                        index[m] = len(public)
                        public.append(m)
                rows[id(g)] = [index[m] for m in g[1]]
        t.player[n] = p
        t.moves[n] = public
        width = len(public)
        subs: list[list[int]] = [[] for _ in range(width)]
        with_ended = [False] * width           # whether a hand that ends the game (with some of the other's) moves so
        for h, g in going_hands:
            at = rows[id(g)]
            t.iset_hand.append(h)
            t.slot.append(t.size)
            add_legal(t.legal, t.size, width, at)
            t.size += width
            legal_moves[0] += len(at)
            for a in at:
                subs[a].append(h)
                if g[0]:
                    with_ended[a] = True
        kids = []
        others_by_bit: dict[int, list[int]] = {}
        for a, m in enumerate(public):
            sub = subs[a]
            if m.draw:
                kids.append(draw(p, sub, alive[q], played))
                continue
            bit = m.tile.bit if m.tile is not None else 0
            if bit:
                others = others_by_bit.get(bit)
                if others is None:
                    others = others_by_bit[bit] = [o for o in alive[q] if not mq[o] & bit]
            elif end_with is not None and with_ended[a]:    # (a move of hands that end the game with some of the
                #   other's: it is one with the rest alone)
                others = [] if len(end_with) == 2 else stuck_o if True in end_with else playing_o
            else:
                others = alive[q]
            child_alive = (sub, others) if p == 0 else (others, sub)
            pos.hands[seat] = mp[sub[0]] & gone_p
            pos.hands[1 - seat] = mq[others[0]] & gone_q if others else 0
            pos.push(m)
            played[p] |= bit
            kids.append(build(child_alive, played))
            played[p] &= ~bit
            pos.pop()
        kids_of[n] = kids
        return n

    build((list(range(len(masks[0]))), list(range(len(masks[1])))), [0, 0])
    # (the hands drawn too, in the numbering ``played`` was written in: where tiles may be drawn, every tile off the
    # board, whether or not a draw comes)
    t.cmasks = array("i", map(compress, masks[0])), array("i", map(compress, masks[1]))
    if t.draw_child:
        t.draw_at.append(len(t.draw_child))
    else:
        del t.draw_at[:]                # (no draw: the three arrays empty)
    t.iset_at.append(len(t.iset_hand))
    for r in (0, 1):
        t.alive_at[r].append(len(t.alive[r]))
        t.term_at[r].append(len(t.term_hand[r]))
    for kids in kids_of:
        t.child_at.append(len(t.child))
        t.child.extend(kids)
    t.child_at.append(len(t.child))
    t.build_seconds = time.process_time() - start
    return t


def compiled_build_supports(rules, pos: Position, first: int, hands, module=None) -> tuple | None:
    """The position ``pos`` as the compiled build takes it (``_ranges_kernel.h``'s ``RB_STATE`` ints, and the scoring's
    ``LeafScoring.ints()``), or None where the build stays in Python: no kernel with the build at hand (``module``, else
    :func:`compiled_kernel`'s), or not the plain line game for two (a position of exactly the plain line, two open ends
    or none yet, no exposed tiles, no tile hidden, a tile on two equal ends laid on the first, a double-9 set at most),
    or a finished hand's value that ``analyzer.search.scoring.describe`` does not compile to ints or that reads a hand
    other than by its pips (a [0-0] or doubles counted apart: :func:`pip_valued` already refuses those), or hands
    holding more than 31 tiles between them (the compressed masks are 32-bit ints)."""
    module = module if module is not None else _KERNEL
    if (module is None or not hasattr(module, "build") or type(pos) is not Position or pos.n != 2
            or pos.max_pip > 9 or pos.exposed or pos.reveal is not None or pos.crosswise or pos.equal_side
            or any(pos.hidden) or not pip_valued(rules)
            or _union(hands).bit_count() > 31):
        return None
    sc = describe(rules)
    if (sc is None or len(sc.teams) != 2 or sc.block_blank or sc.doubles_once or sc.blank or sc.doubled
            or sc.lone_blank):
        return None
    history = pos.history
    tiles = [(move, seat, ends) for move, seat, ends, *_ in history if move.tile is not None]
    lt = tiles[-1] if tiles else None
    ends = pos.ends if pos.ends is not None else (-1, -1)
    before = lt[2] if lt is not None and lt[2] is not None else (-1, -1)
    opening = pos.opening if pos.ends is None else 0
    state = (pos.max_pip, first, pos.turn, ends[0], ends[1], pos.passes, int(bool(history)),
             int(bool(history) and history[-1][0].tile is not None), history[-1][1] if history else -1,
             tiles[0][1] if tiles else -1, lt[0].tile.index if lt else -1, lt[1] if lt else -1, before[0], before[1],
             _int32(opening & 0xFFFFFFFF), _int32(opening >> 32), 1 if rules.seating.teams[first] == 0 else -1)
    return state, sc.ints()


def _union(hands) -> int:
    """Every tile any of the hands holds (a mask)."""
    union = 0
    for ms in hands:
        for m in ms:
            union |= m
    return union


def _int32(half: int) -> int:
    """32 bits of a mask as a signed 32-bit int (as the kernel reads them back)."""
    return half - (1 << 32) if half >> 31 else half


class _Moves:
    """Each node's moves of a compiled build, made as they are asked for (``moves[n]``: a list of :class:`Move`, as
    the Python build's; ``_ranges_kernel.h``'s codes: ``tile * 16 + end``, 15 no end, -1 a pass)."""

    def __init__(self, at: array, codes: array, max_pip: int):
        self.at, self.codes, self.tiles = at, codes, tile_set(max_pip)

    def __len__(self) -> int:
        return len(self.at) - 1

    def __getitem__(self, n: int) -> list:
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(n)
        return [PASS if c < 0 else placed(self.tiles[c >> 4], None if c & 15 == 15 else c & 15)
                for c in self.codes[self.at[n]:self.at[n + 1]]]

    def __iter__(self):
        return (self[n] for n in range(len(self)))


def _compiled_build(module, supported: tuple, base: Position, first: int, masks, weight, total: float,
                    budget: float | None, start: float, max_bytes: int | None = None) -> RangeTree:
    """:func:`build_ranges` by the compiled kernel (``module.build``) of the hands ``masks`` weighing ``weight``, their
    disjoint pairs weighing ``total``."""
    state, scoring = supported
    left = -1.0 if budget is None else max(0.0, budget - (time.process_time() - start))
    try:
        got = module.build(array("Q", masks[0]), array("Q", masks[1]), state, scoring, 1.0 / total, left, -1,
                           max_bytes or 0)
    except MemoryError as exc:
        if max_bytes and str(exc) == RB_TOO_LARGE:
            raise TreeTooLarge(max_bytes) from None
        raise
    if got is None or (budget is not None and time.process_time() - start > budget):
        raise BuildTooLong(f"the public tree took more than {budget:.0f} CPU seconds to build")
    raw, size = got
    # each array a read-only view of the binding's bytes, not a copy (the tree's largest arrays are hundreds of MB at
    # 4 tiles a hand; a run of the extension reads them in place too)
    (player, child_at, child, move_at, move, played0, played1, alive_at0, alive0, alive_at1, alive1, term_at0,
     term_hand0, term_class0, term_at1, term_hand1, term_class1, table_at, width, table, iset_at, iset_hand, slot,
     legal) = [memoryview(data).cast(code) for code, data in zip(_RB_CODES, raw)]
    del raw
    cmasks = _compressed(masks)
    t = RangeTree(first, masks, cmasks, weight, 1.0 / total, player, child_at, child,
                  _Moves(move_at, move, base.max_pip), (played0, played1), (alive_at0, alive_at1), (alive0, alive1),
                  (term_at0, term_at1), (term_hand0, term_hand1), (term_class0, term_class1), table_at, width, table,
                  iset_at, iset_hand, slot, legal, size, disjoint_pairs(masks[0], masks[1]))
    t.build_seconds = time.process_time() - start
    return t


#: The compiled build's arrays' type codes, of their bytes an item (``_ranges_kernel.h``'s ``RB_ITEMS``, as
#: :data:`analyzer.search.wasmcfr.BUILD_ITEMS` gives them: ints, the table doubles, the hands' indices unsigned ints of
#: 2 bytes, the terminal hands' classes and ``legal`` unsigned bytes)
_RB_CODES = BUILD_ITEMS.translate(str.maketrans("4821", "idHB"))


def _compressor(masks):
    """A tile mask in the compressed tile numbering of the hands ``masks`` (bit ``i``: the ``i``-th tile any of them
    holds), as a function of the mask."""
    return _compressor_of(_union(masks))


def _compressor_of(union: int):
    """A tile mask in the compressed tile numbering of the tiles ``union`` (bit ``i``: its ``i``-th tile)."""
    place = {1 << i: k for k, i in enumerate(i for i in range(union.bit_length()) if union >> i & 1)}

    def compress(m: int) -> int:
        out = 0
        while m:
            b = m & -m
            out |= 1 << place[b]
            m ^= b
        return out

    return compress


def _compressed(masks) -> tuple[array, array]:
    """Each player's hands in the compressed tile numbering (:func:`_compressor`)."""
    compress = _compressor(masks)
    return array("i", map(compress, masks[0])), array("i", map(compress, masks[1]))


def _weighted_pairs(masks, weight) -> float:
    """The total weight of the disjoint pairs (each the product of its hands' weights)."""
    if all(w == 1.0 for ws in weight for w in ws):
        return float(disjoint_pairs(masks[0], masks[1]))
    return sum(wa * wb for a, wa in zip(masks[0], weight[0]) for b, wb in zip(masks[1], weight[1]) if not a & b)


# -- the iteration (the reference: terminal values summed over the disjoint pairs one by one) ---------------------
def _walk(st: WalkState, n: int, p: int, own: list[float], opp: list[float], mode: int, it: int) -> list[float]:
    """As :func:`analyzer.hidden.cfr._walk`, over hands: player ``p``'s counterfactual value of each hand at ``n``."""
    t = st.t
    v = [0.0] * st.nh[p]
    if t.player[n] > 1:
        return _draw(st, n, p, own, opp, v, mode, it)
    sgn = 1.0 if p == 0 else -1.0
    q = 1 - p
    mine = range(t.term_at[p][n], t.term_at[p][n + 1])
    theirs = range(t.term_at[q][n], t.term_at[q][n + 1])
    w = t.width[n]
    for a in mine:
        h, kh = t.term_hand[p][a], t.term_class[p][a]
        hm = t.masks[p][h]
        for b in theirs:
            o, ko = t.term_hand[q][b], t.term_class[q][b]
            r = opp[o]
            if r and not hm & t.masks[q][o]:
                cell = kh * w + ko if p == 0 else ko * w + kh
                v[h] += sgn * t.table[t.table_at[n] + cell] * r
    return walk_moves(st, n, p, own, opp, v, mode, it, _walk)


def _draw(st: WalkState, n: int, p: int, own: list[float], opp: list[float], v: list[float], mode: int,
          it: int) -> list[float]:
    """Player ``q``'s draw at ``n`` (``player[n]`` is 2 + q) in ``p``'s walk: each of his hands at the child reaches the
    sum of what the hands it may have been drawn from reach (the tile's chance is in the tables below), and a value of
    his comes back to each of them; the other's hands pass through."""
    t = st.t
    q = t.player[n] - 2
    c = t.child[t.child_at[n]]
    reach = [0.0] * st.nh[q]
    came = own if q == p else opp
    pairs = range(t.draw_at[n], t.draw_at[n + 1])
    for k in pairs:
        reach[t.draw_child[k]] += came[t.draw_parent[k]]
    sub = _walk(st, c, p, reach, opp, mode, it) if q == p else _walk(st, c, p, own, reach, mode, it)
    if q == p:
        for k in pairs:
            v[t.draw_parent[k]] += sub[t.draw_child[k]]
    else:
        for k in range(t.alive_at[p][c], t.alive_at[p][c + 1]):
            h = t.alive[p][k]
            v[h] += sub[h]
    return v


class RangePyRun(ReferenceRun):
    """The Python iteration over a :class:`RangeTree` (the reference for the kernel)."""

    def _root(self, p: int, mode: int) -> list[float]:
        t = self.st.t
        return _walk(self.st, 0, p, list(t.weight[p]), list(t.weight[1 - p]), mode, self.it)

    def bracket(self) -> tuple[float, float]:
        w = self.st.t.weight
        return (-sum(x * y for x, y in zip(w[1], self._root(1, BEST))),
                sum(x * y for x, y in zip(w[0], self._root(0, BEST))))

    def hand_values(self) -> list[float]:
        """Each of player 0's hands' value times its weight (of the game's: summing to the game value)."""
        return [x * y for x, y in zip(self.st.t.weight[0], self._root(0, EVAL))]


#: The bytes a kernel's run gives each legal move of an information set: two doubles (regrets, averages) and three
#: indices (its slot, its hand's: 16 bits, its move among its node's: 8), by ``_cfr_kernel.c``'s ``legal_moves``
#: (``_ranges_kernel.h``'s ``RB_RUN_BYTES``, by which the compiled build counts what a run of its tree will need at the
#: least). A node's strategies and its children's values are scratch by depth (:func:`depth_counts`).
RUN_BYTES = 8 * 2 + 4 + 2 + 1


def run_slots(t) -> int:
    """The bytes a kernel's run over ``t`` (a ``RangeTree`` or a ``PublicTree``) gives its information sets' legal
    moves: a slot each in two arrays of doubles (regrets, averages), and their indices (``_cfr_kernel.c``'s
    ``legal_moves``: each set's first slot, each slot's move and, by move, its slots and hands)."""
    return RUN_BYTES * legal_count(t.legal) + 4 * (len(t.iset_hand) + len(t.child) + 2)


def levels_of(t) -> list[int]:
    """The nodes at each depth of ``t`` (a ``RangeTree`` or a ``PublicTree``; the root's first)."""
    return depth_counts(t)[0]


def depth_counts(t) -> tuple[list[int], list[int]]:
    """By depth of ``t`` (a ``RangeTree`` or a ``PublicTree``; the root's first): its nodes (:func:`levels_of`), and the
    most slots (information sets times moves) of a node there: the room a kernel's walk keeps for a node's strategies
    and for its children's values by its legal moves, a double a slot each (``_cfr_kernel.c``'s ``vat``: scratch, each
    thread its own)."""
    count: list[int] = []
    most: list[int] = []
    stack = [(0, 0)]
    player, child, child_at, iset_at = t.player, t.child, t.child_at, t.iset_at
    while stack:
        n, d = stack.pop()
        if d == len(count):
            count.append(0)
            most.append(0)
        count[d] += 1
        if player[n] >= 0:
            a, b = child_at[n], child_at[n + 1]
            slots = (iset_at[n + 1] - iset_at[n]) * (b - a)
            if slots > most[d]:
                most[d] = slots
            stack.extend((c, d + 1) for c in child[a:b])
    return count, most


#: The least nodes a tree has for the kernel to walk it over several threads (``_cfr_kernel.h``'s CFR_PARALLEL_NODES)
PARALLEL_NODES = 20_000


def split_depth(t, levels: list[int], threads: int) -> int:
    """The depth the kernel's walk over ``threads`` threads splits ``t`` at (``cfr_threads``: the first below the root
    with 16 nodes a thread, two levels above the deepest at most; 0: one thread, as for a tree with a draw or fewer
    than :data:`PARALLEL_NODES` nodes)."""
    if threads < 2 or t.nodes < PARALLEL_NODES or any(p > 1 for p in t.player):
        return 0
    return next((d for d in range(1, len(levels) - 1) if levels[d] >= 16 * threads), 0)


def thread_bytes(t, levels: list[int], threads: int, scratch: int) -> int:
    """The bytes a native run over ``threads`` threads holds past a one-thread run's: a copy of its scratch
    (``scratch`` bytes) for each thread past the first and, where it splits (:func:`split_depth`), each task's reach
    and value vectors (at most a task a node at that depth)."""
    d = split_depth(t, levels, min(threads, 64))
    if not d:
        return 0
    nh = len(t.hands[0]), len(t.hands[1])
    return (min(threads, 64) - 1) * scratch + levels[d] * 8 * (2 * max(nh) + min(nh))


def held_binding(binding: str | None) -> str | None:
    """``binding``, "default" read as the one :func:`compiled_kernel` picks."""
    return _KERNEL_BINDING if binding == "default" else binding


def held_bytes(arrays: int, size: int, binding: str | None = "default") -> int:
    """The bytes a run of ``binding`` (``"native"``, ``"wasm"``, None: the Python run; "default": the binding
    :func:`compiled_kernel` picks) holds of a tree whose arrays take ``arrays`` bytes and of ``size`` slots, beyond its
    slots by legal move (:func:`run_slots`): the extension reads the tree's arrays in place; the WebAssembly module
    copies them into its memory (twice); the Python run reads them and keeps its regrets and averages as two lists by
    slot (8 bytes a reference; the floats they hold, two a legal move, are about what :func:`run_slots` counts for the
    kernel's). A decision reads one information set's average strategy (``set_average``), not the whole (8 bytes a
    slot: a third of what a four-tile decision held until the twenty-third session)."""
    binding = held_binding(binding)
    if binding == "native":
        return arrays
    if binding == "wasm":
        return 2 * arrays
    return arrays + 16 * size


class CompiledRun:
    """A run over the compiled kernel (``self.run``: a ``_cfr.Run`` or ``_cfr.RangeRun``), as the Python runs answer."""

    run: object

    def iterate(self, count: int) -> None:
        self.run.iterate(count)

    def force(self, forced_set: int, forced_move: int, keep: bool = False) -> None:
        self.run.force(forced_set, forced_move, keep)

    def held(self) -> int:
        """The bytes the kernel's run allocated beyond the tree's arrays (one thread's; ``cfr_held``): what
        ``memory()`` counts for them, less its tree's arrays."""
        return self.run.held()

    def bracket(self) -> tuple[float, float]:
        return self.run.bracket()

    def hand_values(self) -> list[float]:
        return list(self.run.hand_values())

    def average(self) -> memoryview:
        """The average strategy's sums by slot, read-only doubles (the binding's bytes, not copied)."""
        return memoryview(self.run.average()).cast("d")

    def set_average(self, i: int, width: int) -> memoryview:
        """Information set ``i``'s average strategy's sums by its node's ``width`` moves, read-only doubles."""
        return memoryview(self.run.set_average(i, width)).cast("d")

    def threads(self, count: int) -> int:
        """The threads its walks may take (the values are the same whatever they are): the depth they split at (0:
        one thread; :func:`split_depth`)."""
        return self.run.threads(count)


class RangeCRun(CompiledRun):
    """The same over the compiled kernel (terminal values by inclusion-exclusion)."""

    def __init__(self, t: RangeTree, forced: tuple[int, int] | None, module):
        fi, fa = forced if forced is not None else (-1, -1)
        self.run = module.RangeRun(
            t.cmasks[0], t.cmasks[1], array("d", t.weight[0]), array("d", t.weight[1]), t.player, t.child_at, t.child,
            t.played[0], t.played[1], t.alive_at[0], t.alive[0], t.alive_at[1], t.alive[1], t.term_at[0],
            t.term_hand[0], t.term_class[0], t.term_at[1], t.term_hand[1], t.term_class[1], t.table_at, t.width,
            t.table, t.iset_at, t.iset_hand, t.slot, t.legal, t.draw_at, t.draw_child, t.draw_parent, t.size, fi, fa)
