"""The kernel of the search of draw games, All Fives and Hungarian's runs over its WebAssembly module (``_draw.wasm``),
for Python in the browser (Pyodide): the same Python API as the CPython extension ``analyzer.search._draw``
(``DrawSearch``, ``ENTRY_BYTES``), each call one crossing into the module where it can. :mod:`analyzer.search.core`
picks it as it picks :mod:`analyzer.search.wasmcore` (``js.dominoKernels.draw``).

The module calls no Python: a scoring that :func:`~analyzer.search.scoring.describe` does not know (the extension asks
Python's ``leaf`` at each finished hand) is left to the pure-Python search of draw games (:data:`CALLBACKS` False;
``search.draw.draw_deal`` then makes a ``_DrawDeal``). The calls are ``analyzer/search/_draw_wasm.c``'s; the table's
counts are read from the search's struct (``DrawSearch`` of ``_draw_kernel.h`` laid out for wasm32: two pointers of
the leaf, the table's two, then ``size``, ``max_size``, ``start_size``, ``mask``, ``used``, ``replaced`` as 64-bit
ints), checked when the module loads.
"""
from __future__ import annotations

import struct

from .wasm import KernelHandle, WasmModule

__all__ = ["DrawSearch", "ENTRY_BYTES", "CALLBACKS", "load", "loaded"]

#: The bytes of one slot of the table (``DrawSlot``: four hands, the state's meta, bounds, move and work).
ENTRY_BYTES = 48
#: Whether a search may ask Python for the value of each finished hand: not from WebAssembly.
CALLBACKS = False

_SEATS = 4
_TILES = 55
_CHOICES = 112
_MAX_STEPS = _TILES * (_SEATS + 1) + 2 * _SEATS
_STEP_BYTES = 20 * _MAX_STEPS
_INF = 1 << 30
_END = struct.Struct("<i4x4Q4i4i")          # DrawEnd: found, the hands, the last tile (4 ints), the points

_module = None


def _counts(module: WasmModule, at: int) -> tuple[int, ...]:
    """``(size, max_size, start_size, mask, used, replaced)`` of the search's table."""
    return struct.unpack("<6Q", module.read(at + 16, 48))


def load(exports) -> None:
    """Take the instantiated module's ``exports`` as the kernel of this binding; a check that a search's struct and
    its ends read as this binding expects (else RuntimeError)."""
    global _module
    module = WasmModule(exports)
    if module.x.draw_end_bytes() != _END.size:
        raise RuntimeError("the WebAssembly search of draw games is not laid out as analyzer.search.wasmdraw reads it")
    from ..rules import find_variant
    from .scoring import describe

    described = describe(find_variant("draw")).ints()
    base = module.room(256)
    module.write(base, struct.pack(f"<2i{len(described)}i", 1, 0, *described))
    d = module.x.draw_new(2, 6, base, 0, 0, 1, -1, base, base + 8, len(described), 1000.0, 0, 0, 0, -1, 0)
    if not d:
        raise RuntimeError("the WebAssembly search of draw games cannot make a search")
    try:
        size, max_size, start, mask, used, replaced = _counts(module, d)
        if module.x.draw_error_kind(d) or used or replaced or not size or size & (size - 1) or max_size < size or mask != size - 1:
            raise RuntimeError("the WebAssembly search of draw games is not laid out as analyzer.search.wasmdraw "
                               "reads it")
    finally:
        module.x.draw_delete(d)
    _module = module


def loaded() -> bool:
    """Whether :func:`load` was given a module."""
    return _module is not None


def _ints(values, count: int, lo: int, hi: int, what: str) -> list[int]:
    values = [int(v) for v in values]
    if (count >= 0 and len(values) != count) or any(not lo <= v <= hi for v in values):
        raise ValueError(f"{what}: values out of range")
    return values


def _masks(values, count: int, what: str) -> bytes:
    values = list(values)
    if len(values) != count:
        raise ValueError(f"{what}: {count} masks expected")
    return struct.pack(f"<{count}Q", *values)


def _steps(raw: bytes, count: int) -> list[tuple[int, ...]]:
    flat = struct.unpack(f"<{5 * count}i", raw[:20 * count]) if count else ()
    return [flat[i:i + 5] for i in range(0, 5 * count, 5)]


class DrawSearch(KernelHandle):
    """``DrawSearch(n, max_pip, order, limit, until, scores, maximiser, described, leaf, entries, leader, bound=None,
    run=False)``: one deal of a draw game (or All Fives, or Hungarian's runs) and its bounded table, as the
    extension's (read ``_draw.c``'s top); ``described`` None (a ``leaf`` asked of Python) is refused."""

    _delete, _errors = "draw_delete", "draw"

    def __init__(self, n, max_pip, order, limit, until, scores, maximiser, described, leaf, entries, leader,
                 bound=None, run=False):
        if _module is None:
            raise RuntimeError("the WebAssembly search of draw games is not loaded (analyzer.search.wasmdraw.load)")
        fixed, most = (0, -1) if bound is None else (bool(bound[0]), int(bound[1]))
        if not 2 <= n <= _SEATS:
            raise ValueError("the compiled search seats two to four players (the leader one of them), sets up to "
                             "double-nine")
        order = [int(t) for t in order]
        if len(order) > _TILES:
            raise ValueError("order: more tiles than the set")
        if described is None:
            raise TypeError("described: the WebAssembly search of draw games calls no Python (a scoring it does not "
                            "know is searched in Python)")
        if entries < 0:
            raise OverflowError("can't convert negative int to unsigned")
        described = [int(v) for v in described]
        maxi = _ints(maximiser, n, 0, 1, "maximiser")
        m = _module
        self.n = n
        self._norder = len(order)
        data = (struct.pack(f"<{len(order)}Q", *order).ljust(8 * _TILES, b"\0") + struct.pack(f"<{n}i", *maxi).ljust(16, b"\0")
                + struct.pack(f"<{len(described)}i", *described))
        base = m.room(len(data))
        m.write(base, data)
        at = 8 * _TILES
        d = m.x.draw_new(n, max_pip, base, len(order), limit, until, scores, base + at, base + at + 16, len(described),
                         float(entries), leader, 0 if bound is None else 1, int(fixed), most, 1 if run else 0)
        self._made(m, d, "search")



    def _state(self, hands, state) -> bytes:
        """The hands and the 12 ints of a state as the module reads them: 32 + 48 bytes."""
        if not isinstance(hands, tuple):
            raise TypeError("hands: a tuple")
        if len(hands) != self.n:
            raise ValueError("a state out of the deal: one hand a seat, ends and seats in range")
        return struct.pack(f"<{self.n}Q", *hands).ljust(32, b"\0") + struct.pack("<12i", *state)

    def search(self, hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left,
               before_right, alpha, beta, budget):
        """``(value or None past the budget, positions visited)``."""
        m = self._m
        base = m.room(96)
        m.write(base, self._state(hands, (left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile,
                                          before_left, before_right)))
        got = m.x.draw_search_at(self._d, base, base + 32, alpha, beta, float(budget), base + 80, base + 88)
        if got < 0:
            self._raise()
        value, _, nodes = struct.unpack("<iid", m.read(base + 80, 16))
        return (None if got == 1 else value), int(nodes)

    def line(self, hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left,
             before_right, value, limit, spent):
        """``(steps or None past the limit, positions of the last choice probed, the value its move left or None,
        the two ends before the last tile)``."""
        m = self._m
        base = m.room(128 + _STEP_BYTES)
        m.write(base, self._state(hands, (left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile,
                                          before_left, before_right)))
        nodes, out, steps = base + 80, base + 88, base + 112
        got = m.x.draw_line_at(self._d, base, base + 32, value, float(limit), float(spent), steps, out, nodes)
        if got < 0:
            self._raise()
        raw = m.read(nodes, 32)
        visited, = struct.unpack_from("<d", raw, 0)
        count, probed, after, e0, e1 = struct.unpack_from("<5i", raw, 8)
        found = None if got == 1 else _steps(m.read(steps, 20 * count), count) if count else []
        return found, int(visited), (after if probed else None), e0, e1

    def _end(self, raw: bytes, at: int):
        found, *rest = _END.unpack_from(raw, at)
        if not found:
            return None
        n = self.n
        hands, last, points = rest[:4], rest[4:8], rest[8:12]
        return (*hands[:n], *last, *points[:n])

    def ends(self, hands, left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile, before_left,
             before_right, value, values, limit):
        """The end of the principal variation from the state (``values`` None), or of each choice's after it."""
        m = self._m
        state = self._state(hands, (left, right, shape, seat, drawn, draws, passes, offer, last_seat, last_tile,
                                    before_left, before_right))
        if values is None:
            base = m.room(80 + _END.size)
            m.write(base, state)
            if m.x.draw_ends_at(self._d, base, base + 32, value, -1, 0, 0, float(limit), base + 80) < 0:
                self._raise()
            return self._end(m.read(base + 80, _END.size), 0)
        values = list(values)
        nc = min(len(values), _CHOICES + 1)
        has = bytes(1 if v is not None and -(1 << 30) < v < 1 << 30 else 0 for v in values[:nc])
        vals = [int(v) if h else 0 for v, h in zip(values[:nc], has)]
        at_has, at_vals = 80, 80 + ((nc + 7) & ~7)
        at_out = at_vals + 4 * nc + 8 & ~7
        base = m.room(at_out + _END.size * max(nc, 1))
        m.write(base, state + has.ljust(at_vals - at_has, b"\0") + struct.pack(f"<{nc}i", *vals))
        if m.x.draw_ends_at(self._d, base, base + 32, value, nc, base + at_has, base + at_vals, float(limit),
                            base + at_out) < 0:
            self._raise()
        raw = m.read(base + at_out, _END.size * nc)
        return [self._end(raw, _END.size * c) for c in range(nc)]

    def worlds(self, hands, orders, mover, draws, roots, limit, lines=False):
        """``(rows, over)``, with ``lines`` ``(rows, over, lines)``: every world of one decision (see ``DrawWorlds``)."""
        roots = [_ints(r, 13, -_INF, _INF, "a root") for r in roots]
        if not 1 <= len(roots) <= _CHOICES:
            raise ValueError("roots: one to CHOICES moves")
        hands, orders = list(hands), list(orders)
        if len(orders) != len(hands):
            raise ValueError("one order a world")
        m, x, d, n, nr = self._m, self._m.x, self._d, self.n, len(roots)
        head = struct.pack(f"<{13 * nr}i", *(v for r in roots for v in r))
        at_worlds = (len(head) + 7) & ~7
        world = 32 + 8 * _TILES
        at_out = at_worlds + world * len(hands)
        base = m.room(at_out + 8 * nr + 16 + _STEP_BYTES)
        m.write(base, head.ljust(at_worlds, b"\0") + b"".join(
            _masks(h, n, "a world's hands").ljust(32, b"\0") + _masks(o, self._norder, "a world's order").ljust(
                8 * _TILES, b"\0") for h, o in zip(hands, orders)))
        row_at, rest_at, out_at, steps_at = base + at_out, base + at_out + 4 * nr, base + at_out + 8 * nr, \
            base + at_out + 8 * nr + 16
        rows, found_lines, over = [], [] if lines else None, False
        for w in range(len(hands)):
            at = base + at_worlds + world * w
            got = x.draw_world_at(d, at, at + 32, mover, draws, nr, base, float(limit), row_at, rest_at)
            if got < 0:
                self._raise()
            if got == 1:
                over = True
                break
            raw = m.read(row_at, 8 * nr)
            row = list(struct.unpack_from(f"<{nr}i", raw, 0))
            rest = struct.unpack_from(f"<{nr}i", raw, 4 * nr)
            rows.append(row)
            if not lines:
                continue
            found = []
            for i in range(nr):
                r = x.draw_root_line_at(d, at, mover, base + 52 * i, draws, rest[i], float(limit), steps_at, out_at)
                if r < 0:
                    self._raise()
                if r == 1:
                    found.append(None)
                    continue
                count, e0, e1 = struct.unpack("<3i", m.read(out_at, 12))
                found.append((_steps(m.read(steps_at, 20 * count), count) if count else [], e0, e1))
            found_lines.append(found)
        if lines:
            return rows, over, found_lines
        return rows, over

    def _table(self):
        return _counts(self._m, self._d)

    @property
    def nbytes(self) -> int:
        return self._table()[0] * ENTRY_BYTES

    @property
    def used(self) -> int:
        return self._table()[4]

    @property
    def replaced(self) -> int:
        return self._table()[5]
