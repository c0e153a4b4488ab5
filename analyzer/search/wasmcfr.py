"""The CFR+ kernel of the hidden-information solver over its WebAssembly module (``analyzer/hidden/_cfr.wasm``), for
Python in the browser (Pyodide): the same Python API as the CPython extension ``analyzer.hidden._cfr`` (``Run`` over a
tree of deals, ``RangeRun`` over a tree of hands, each with ``iterate``, ``force``, ``bracket``, ``hand_values`` and
``average``, ``set_average`` and ``threads``, and ``build``, the range tree's build),
each call one crossing into the module. :mod:`analyzer.hidden.cfr` takes it where the extension is missing, from
:func:`analyzer.search.core.cfr_wasm` (``js.dominoKernels.cfr``), as the match tables take :mod:`~analyzer.search.wasmrace`.

The calls are ``analyzer/hidden/_cfr_wasm.c``'s: a run is made of one block of the module's memory holding the table of
its arrays' addresses, their item counts and the arrays (copied once, when the run is made: the kernel reads them at
every iteration), which the run owns and frees; its errors are the kernel's (``cfr_tree``, ``range_tree``, ``cfr_init``,
``range_init``: the same checks and words as the extension's), raised as the extension raises them.
"""
from __future__ import annotations

import struct

from .wasm import KINDS, KernelHandle, WasmModule

__all__ = ["Run", "RangeRun", "build", "load"]

#: Each form's arrays in the order of the extension's arguments (``_cfr_kernel.h``'s ``CFR_HAND0``..., ``RANGE_MASK0``
#: ...) and each one's bytes an item (``CFR_ITEMS``, ``RANGE_ITEMS``).
DEAL_ARRAYS = ("hand0", "hand1", "player", "child_at", "child", "term_at", "term_deal", "term_value", "iset_at",
               "iset_hand", "slot", "legal", "alive_at0", "alive0", "alive_at1", "alive1", "parent0", "parent1")
DEAL_ITEMS = "444444484241424244"
RANGE_ARRAYS = ("mask0", "mask1", "weight0", "weight1", "player", "child_at", "child", "played0", "played1",
                "alive_at0", "alive0", "alive_at1", "alive1", "term_at0", "term_hand0", "term_class0", "term_at1",
                "term_hand1", "term_class1", "table_at", "width", "table", "iset_at", "iset_hand", "slot", "legal",
                "draw_at", "draw_child", "draw_parent")
RANGE_ITEMS = "44884444442424214214484241422"

#: The range tree build's arrays (``_ranges_kernel.h``'s ``RB_PLAYER``...) and each one's bytes an item (``RB_ITEMS``);
#: past its cap (``RB_TOO_LONG``) the build gives None
BUILD_ITEMS = "444444442424214214484241"
RB_TOO_LONG = 100
#: the text of a build stopped past its cap of bytes (``RB_TOO_LARGE``: a MemoryError with it, in both bindings)
RB_TOO_LARGE = "the public tree passes its memory cap"

_module = None


def load(exports) -> None:
    """Take the instantiated module's ``exports`` as the kernel of this binding; a check that it reads a run's block
    as this binding writes it (else RuntimeError): a tree of one node where one deal ends, worth 0.25."""
    global _module
    module = WasmModule(exports)
    ints = lambda *v: struct.pack(f"<{len(v)}i", *v)      # noqa: E731
    arrays = [ints(0), ints(0), ints(-1), ints(0, 0), b"", ints(0, 1), ints(0), struct.pack("<d", 0.25), ints(0, 0),
              b"", b"", b"", ints(0, 1), struct.pack("<H", 0), ints(0, 1), struct.pack("<H", 0), b"", b""]
    try:
        run = _Run(module, 0, arrays, DEAL_ITEMS, 1, 1, 0, -1, -1)
        ok = run.bracket() == (0.25, 0.25) and run.hand_values() == [0.25]
    except (ValueError, MemoryError):
        ok = False
    if not ok:
        raise RuntimeError("the WebAssembly CFR+ kernel does not read its runs as analyzer.search.wasmcfr writes them")
    _module = module


def _mod() -> WasmModule:
    if _module is None:
        raise RuntimeError("the WebAssembly CFR+ kernel is not loaded (analyzer.search.wasmcfr.load)")
    return _module


def _raw(obj, item: int, name: str) -> bytes:
    """``obj``'s buffer (C-contiguous) as bytes, refused where its items are not ``item`` bytes (as the extension
    refuses it)."""
    view = memoryview(obj)
    if view.itemsize != item:
        raise ValueError(f"{name}: items of {item} bytes, not {view.itemsize}")
    if not view.c_contiguous:
        raise BufferError("ndarray is not C-contiguous")
    return view.tobytes()


class _Run(KernelHandle):
    """A run in the module's memory (either form), made of its arrays (bytes each, in the kernel's order)."""

    _delete, _errors = "cfr_delete", "cfr"

    def __init__(self, module: WasmModule, range_: int, arrays, items: str, nh0: int, nh1: int, size: int,
                 forced_set: int, forced_move: int):
        count = len(arrays)
        at, offsets = 8 * count, []
        for data in arrays:
            offsets.append(at)
            at += (len(data) + 7) & ~7
        block = module.x.wasm_alloc(max(at, 8))
        if not block:
            raise MemoryError("no memory for the CFR+ run")
        counts = [len(data) // int(item) for data, item in zip(arrays, items)]
        module.write(block, struct.pack(f"<{count}i{count}i", *(block + o for o in offsets), *counts))
        for o, data in zip(offsets, arrays):      # (one at a time: no joined copy of them all beside the arrays)
            module.write(block + o, data)
        self._made(module, module.x.cfr_new(range_, block, nh0, nh1, size, forced_set, forced_move), "CFR+ run")
        self._hands = module.x.cfr_hands(self._d)
        self._size = module.x.cfr_size(self._d)

    def iterate(self, count: int) -> None:
        """``count`` CFR+ iterations."""
        self._m.x.cfr_iterate_at(self._d, float(count))

    def threads(self, count: int) -> int:
        """The threads a walk may take: the module has none, so it walks in one (the values are the same): 0, the
        depth it splits at."""
        return self._m.x.cfr_threads_at(self._d, count)

    def held(self) -> int:
        """The bytes the run's set-up allocated in the module's memory beyond the tree's arrays (the extension's)."""
        return int(self._m.x.cfr_held_at(self._d))

    def force(self, forced_set: int, forced_move: int, keep: bool = False) -> None:
        """Information set ``forced_set`` held to ``forced_move`` from now on (-1: none), the regrets kept, the average
        and the iteration count begun again (``keep``: kept too); the extension's error where the move is not legal
        there."""
        m = self._m
        kind = m.x.cfr_force_at(self._d, forced_set, forced_move, int(bool(keep)))
        if kind:
            raise KINDS.get(kind, ValueError)(m.text(m.x.cfr_error_text(self._d)))

    def bracket(self) -> tuple[float, float]:
        """The certified ``(lower, upper)`` of the game value."""
        m = self._m
        out = m.room(16)
        m.x.cfr_bracket_at(self._d, out)
        return struct.unpack("<2d", m.read(out, 16))

    def hand_values(self) -> list[float]:
        """Each maximiser's hand's value under the averages (times its weight)."""
        m, n = self._m, self._hands
        out = m.room(8 * n + 8)
        m.x.cfr_hand_values_at(self._d, out)
        return list(struct.unpack(f"<{n}d", m.read(out, 8 * n)))

    def average(self) -> bytes:
        """The average strategy's sums by slot: little-endian doubles, 8 bytes a slot, as the extension gives them
        (the module's memory is little-endian, as every machine Pyodide runs on)."""
        m, n = self._m, self._size
        out = m.room(8 * n + 8)
        m.x.cfr_average_at(self._d, out)
        return m.read(out, 8 * n)

    def set_average(self, i: int, width: int) -> bytes:
        """Information set ``i``'s average strategy's sums by its node's ``width`` moves, as :meth:`average` gives them;
        the extension's error where ``i`` is no set or a legal move's index is not below ``width``."""
        m = self._m
        if width < 0:
            raise ValueError("a negative count of moves")
        out = m.room(8 * width + 8)
        kind = m.x.cfr_set_average_at(self._d, i, width, out)
        if kind:
            raise KINDS.get(kind, ValueError)(m.text(m.x.cfr_error_text(self._d)))
        return m.read(out, 8 * width)


def _arrays(objs, names, items: str) -> list[bytes]:
    return [_raw(obj, int(item), name) for obj, name, item in zip(objs, names, items)]


class Run(_Run):
    """``Run(hand0, hand1, nh0, nh1, player, child_at, child, term_at, term_deal, term_value, iset_at, iset_hand, slot,
    legal, size, alive_at0, alive0, alive_at1, alive1, parent0, parent1, forced_set, forced_move)``: a run over a tree
    of deals, as the extension's (read ``_cfr.c``'s top)."""

    def __init__(self, hand0, hand1, nh0, nh1, player, child_at, child, term_at, term_deal, term_value, iset_at,
                 iset_hand, slot, legal, size, alive_at0, alive0, alive_at1, alive1, parent0, parent1, forced_set,
                 forced_move):
        objs = (hand0, hand1, player, child_at, child, term_at, term_deal, term_value, iset_at, iset_hand, slot, legal,
                alive_at0, alive0, alive_at1, alive1, parent0, parent1)
        super().__init__(_mod(), 0, _arrays(objs, DEAL_ARRAYS, DEAL_ITEMS), DEAL_ITEMS, nh0, nh1, size, forced_set,
                         forced_move)


class RangeRun(_Run):
    """``RangeRun(mask0, mask1, weight0, weight1, player, child_at, child, played0, played1, alive_at0, alive0,
    alive_at1, alive1, term_at0, term_hand0, term_class0, term_at1, term_hand1, term_class1, table_at, width, table,
    iset_at, iset_hand, slot, legal, draw_at, draw_child, draw_parent, size, forced_set, forced_move)``: a run over a
    tree of hands, as the extension's."""

    def __init__(self, *args):
        if len(args) != len(RANGE_ARRAYS) + 3:
            raise TypeError(f"RangeRun takes {len(RANGE_ARRAYS) + 3} arguments ({len(args)} given)")
        *objs, size, forced_set, forced_move = args
        super().__init__(_mod(), 1, _arrays(objs, RANGE_ARRAYS, RANGE_ITEMS), RANGE_ITEMS, 0, 0, size, forced_set,
                         forced_move)


def build(mask0, mask1, state, scoring, norm: float, budget: float, max_nodes: int, max_bytes: int):
    """The range tree's build, as the extension's ``build``: ``(arrays, size)`` (a tuple of bytes, ``BUILD_ITEMS``), or
    None past ``max_nodes`` nodes; MemoryError past ``max_bytes`` bytes of its arrays and the least a run of them
    needs (0 or less: no cap). The module
    has no CPU clock: ``budget`` is not checked here (the caller times the build)."""
    m = _mod()
    masks = [_raw(mask0, 8, "mask0"), _raw(mask1, 8, "mask1")]
    ints = struct.pack(f"<{len(state)}i", *state)
    rules = struct.pack(f"<{len(scoring)}i", *scoring)
    blocks = [m.x.wasm_alloc(max(len(data), 8)) for data in (*masks, ints, rules)]
    try:
        if not all(blocks):
            raise MemoryError("no memory for the range tree")
        for at, data in zip(blocks, (*masks, ints, rules)):
            m.write(at, data)
        d = m.x.rb_new(blocks[0], len(masks[0]) // 8, blocks[1], len(masks[1]) // 8, blocks[2], blocks[3],
                       len(scoring), float(norm), float(max_nodes), float(max_bytes))
    finally:
        for at in blocks:
            if at:
                m.x.wasm_free(at)
    if not d:
        raise MemoryError("no memory for the range tree")
    try:
        kind = m.x.rb_error_kind(d)
        if kind == RB_TOO_LONG:
            return None
        if kind:
            raise KINDS.get(kind, ValueError)(m.text(m.x.rb_error_text(d)))
        arrays = tuple(m.read(m.x.rb_array(d, k), m.x.rb_items(d, k) * int(item)) if m.x.rb_items(d, k) else b""
                       for k, item in enumerate(BUILD_ITEMS))
        return arrays, int(m.x.rb_size(d))
    finally:
        m.x.rb_delete(d)
