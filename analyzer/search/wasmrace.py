"""The race solver's kernel over its WebAssembly module (``analyzer/equity/_race.wasm``), for Python in the browser
(Pyodide): the same Python API as the CPython extension ``analyzer.equity._race`` (``sweep``, ``close``, ``back``,
``reached``, ``live``, ``one_hand``, ``between``, ``find``, ``undiff``, ``place``), each call one crossing into the
module: its arrays written into the module's memory in one copy, the call, the arrays it writes (``values``,
``active``, ``loops``, ``cells``, ``numbers``) read back in one copy each and put into the caller's arrays in place.
:mod:`analyzer.search.core` picks it as it picks :mod:`analyzer.search.wasmcore` (``js.dominoKernels.race``:
:func:`analyzer.search.core.race_core`), where the extension is missing.

The calls are ``analyzer/equity/_race_wasm.c``'s: each array as the extension reads it (int64 ``starts`` and
``offsets``, doubles, int32, bytes), a race's shape as its grid and box sizes (int64), a count written as a double;
an error's kind returned (its text from ``race_error_text``). The arrays are copied on every call (no array is kept in
the module between calls: the caller's arrays change between them); the loops themselves run in the module.
"""
from __future__ import annotations

import struct

from .wasm import WasmModule

__all__ = ["sweep", "close", "back", "reached", "live", "one_hand", "between", "find", "undiff", "place", "load",
           "loaded"]

_MAX_SIDES = 8                      # RACE_MAX_SIDES
_K_MEMORY = 4                       # _kernel.h's K_MEMORY (any other kind: ValueError, as _race.c raises it)

_module = None


def load(exports) -> None:
    """Take the instantiated module's ``exports`` as the kernel of this binding; a check that it reads a block of
    rows as this binding writes it (else RuntimeError)."""
    global _module
    module = WasmModule(exports)
    base = module.room(64)
    module.write(base, struct.pack("<6i", 2, 3, 40, 50, 7, 8))      # 3 columns of 2 rows of differences: at 2 + 3,
    if module.x.race_find_at(base, 2, 3, 5.0, base + 32) != 1 or struct.unpack("<2q", module.read(base + 32, 16)) != (
            90, 15):                                                # the running sums 40 + 50 and 7 + 8
        raise RuntimeError("the WebAssembly race solver does not read its arrays as analyzer.search.wasmrace writes "
                           "them")
    _module = module


def loaded() -> bool:
    """Whether :func:`load` was given a module."""
    return _module is not None


def _mod() -> WasmModule:
    if _module is None:
        raise RuntimeError("the WebAssembly race solver is not loaded (analyzer.search.wasmrace.load)")
    return _module


def _bytes(obj, writable: bool = False) -> memoryview:
    """``obj``'s buffer as bytes (C-contiguous), refused where it must be written and cannot be."""
    view = memoryview(obj)
    if writable and view.readonly:
        raise BufferError("Object is not writable.")
    if not view.c_contiguous:
        raise BufferError("ndarray is not C-contiguous")
    return view.cast("B") if view.format != "B" or view.ndim != 1 else view


def _raise(kind: int):
    if kind == _K_MEMORY:
        raise MemoryError
    raise ValueError(_mod().text(_mod().x.race_error_text()))


class _Call:
    """One call's arrays laid out in the module's scratch area (8-byte aligned), written in one copy; those the call
    writes read back into the caller's objects in place."""

    def __init__(self):
        self.parts: list = []
        self.at = 0
        self.back: list = []

    def put(self, data, writable_into=None) -> int:
        """``data``'s offset in the area (its bytes copied there); ``writable_into``: the object its bytes go back
        into after the call."""
        at = self.at
        self.parts.append(data)
        size = len(data)
        pad = -size % 8
        if pad:
            self.parts.append(bytes(pad))
        self.at += size + pad
        if writable_into is not None:
            self.back.append((at, size, writable_into))
        return at

    def room(self, size: int) -> int:
        """An output's offset in the area (zeros)."""
        return self.put(bytes(size))

    def ints(self, fmt: str, values) -> int:
        return self.put(struct.pack(f"<{len(values)}{fmt}", *values))

    def run(self) -> int:
        """Write the area into the module: its base address (add it to each offset)."""
        m = _mod()
        base = m.room(max(self.at, 8))
        m.write(base, b"".join(self.parts))
        self.base = base
        return base

    def done(self) -> None:
        """The arrays the call wrote, back into the caller's objects."""
        m = _mod()
        for at, size, view in self.back:
            if size:
                view[:size] = m.read(self.base + at, size)


def _shape(grid, box) -> tuple[int, int, int]:
    """``(dims, points, cells)`` of a race's grid and box (tuples), refused as the extension refuses them."""
    if not isinstance(grid, tuple) or not isinstance(box, tuple) or len(grid) != len(box) or not (
            1 <= len(grid) <= _MAX_SIDES):
        raise ValueError("grid and box: tuples of the same length, 1 to 8")
    points = cells = 1
    for g, b in zip(grid, box):
        g, b = int(g), int(b)
        if g < 1 or b < g:
            raise ValueError("each grid size at least 1 and at most its box size")
        points *= g
        cells *= b
    return len(grid), points, cells


def _need(view: memoryview, itemsize: int, count: int, name: str) -> memoryview:
    if len(view) < itemsize * count:
        raise ValueError(f"{name}: {len(view)} bytes, at least {itemsize * count} wanted")
    return view


def _results(call: _Call, leads: int, cells: int, starts, offsets, next_lead, answers) -> tuple[int, list[int]]:
    """The hands' results every loop reads, laid out: ``(results, [starts, offsets, next_lead, answers])``."""
    s = _need(_bytes(starts), 8, leads + 1, "starts")
    results = struct.unpack_from("<q", s, 8 * leads)[0]
    o = _need(_bytes(offsets), 8, results, "offsets")
    n = _need(_bytes(next_lead), 4, results, "next_lead")
    a = _need(_bytes(answers), 4, cells, "answers")
    return results, [call.put(s), call.put(o), call.put(n), call.put(a)]


def _head(call: _Call, leads: int, sides: int, grid, box) -> tuple[int, int, int, int, int]:
    """``(dims, grid, box, points, positions)``: the shape checked and laid out."""
    if leads < 1 or sides < 1 or sides > _MAX_SIDES:
        raise ValueError("leads at least 1, sides 1 to 8")
    dims, points, cells = _shape(grid, box)
    return dims, call.ints("q", grid), call.ints("q", box), points * leads, cells


def sweep(sides, leads, grid, box, starts, probs, offsets, next_lead, answers, terminals, active, values, tol,
          max_sweeps):
    """Gauss-Seidel sweeps of a race's equations (``_race.c``'s top): ``(sweeps, change)``."""
    c = _Call()
    dims, g, b, positions, cells = _head(c, leads, sides, grid, box)
    results, (s, o, n, a) = _results(c, leads, cells, starts, offsets, next_lead, answers)
    p = c.put(_need(_bytes(probs), 8, results, "probs"))
    t = _bytes(terminals)
    tv = c.put(t)
    ac = c.put(_need(_bytes(active), 1, positions, "active"))
    v = _need(_bytes(values, True), 8, positions * sides, "values")
    vv = c.put(v, v)
    out = c.room(16)
    base = c.run()
    kind = _mod().x.race_sweep_at(sides, leads, dims, base + g, base + b, base + s, base + p, base + o, base + n,
                                  base + a, results, base + tv, len(t) // (8 * sides), base + ac, base + vv,
                                  float(tol), max_sweeps, base + out, base + out + 8)
    if kind:
        _raise(kind)
    c.done()
    done, _, change = struct.unpack("<iid", _mod().read(base + out, 16))
    return done, change


def close(leads, grid, box, starts, offsets, next_lead, answers, active):
    """Marks in ``active`` every position a marked one leads to; how many it marked."""
    c = _Call()
    dims, g, b, positions, cells = _head(c, leads, 1, grid, box)
    results, (s, o, n, a) = _results(c, leads, cells, starts, offsets, next_lead, answers)
    act = _need(_bytes(active, True), 1, positions, "active")
    ac = c.put(act, act)
    out = c.room(8)
    base = c.run()
    kind = _mod().x.race_close_at(leads, dims, base + g, base + b, base + s, base + o, base + n, base + a, results,
                                  base + ac, base + out)
    if kind:
        _raise(kind)
    c.done()
    return int(struct.unpack("<d", _mod().read(base + out, 8))[0])


def back(leads, grid, box, starts, offsets, next_lead, answers, active, loops):
    """Marks in ``loops`` the positions a sweep from the top does not solve exactly: ``(marked, outside)``."""
    c = _Call()
    dims, g, b, positions, cells = _head(c, leads, 1, grid, box)
    results, (s, o, n, a) = _results(c, leads, cells, starts, offsets, next_lead, answers)
    ac = c.put(_need(_bytes(active), 1, positions, "active"))
    lp = _need(_bytes(loops, True), 1, positions, "loops")
    lo = c.put(lp, lp)
    out = c.room(16)
    base = c.run()
    kind = _mod().x.race_back_at(leads, dims, base + g, base + b, base + s, base + o, base + n, base + a, results,
                                 base + ac, base + lo, base + out)
    if kind:
        _raise(kind)
    c.done()
    marked, outside = struct.unpack("<2d", _mod().read(base + out, 16))
    return int(marked), int(outside)


def reached(leads, grid, box, starts, offsets, cells):
    """Marks every cell of the box of totals a grid point and a result reach; how many it marked."""
    c = _Call()
    dims, g, b, positions, ncells = _head(c, leads, 1, grid, box)
    st = _need(_bytes(starts), 8, leads + 1, "starts")
    results = struct.unpack_from("<q", st, 8 * leads)[0]
    o = c.put(_need(_bytes(offsets), 8, results, "offsets"))
    cv = _need(_bytes(cells, True), 1, ncells, "cells")
    ce = c.put(cv, cv)
    out = c.room(8)
    base = c.run()
    kind = _mod().x.race_reached_at(leads, dims, base + g, base + b, base + o, results, base + ce, base + out)
    if kind:
        _raise(kind)
    c.done()
    return int(struct.unpack("<d", _mod().read(base + out, 8))[0])


def live(leads, grid, box, answers, active):
    """Marks every lead of the grid points the match can be at; how many it marked."""
    c = _Call()
    dims, g, b, positions, cells = _head(c, leads, 1, grid, box)
    a = c.put(_need(_bytes(answers), 4, cells, "answers"))
    act = _need(_bytes(active, True), 1, positions, "active")
    ac = c.put(act, act)
    out = c.room(8)
    base = c.run()
    kind = _mod().x.race_live_at(leads, dims, base + g, base + b, base + a, base + ac, base + out)
    if kind:
        _raise(kind)
    c.done()
    return int(struct.unpack("<d", _mod().read(base + out, 8))[0])


def find(block, columns, n):
    """The numbers at one position of an unpacked block of a compact MWC table (a tuple of ``columns - 1``), or
    None."""
    raw = _bytes(block)
    if columns < 1 or len(raw) % (4 * columns):
        raise ValueError("find: a block of columns of 32-bit numbers")
    c = _Call()
    at = c.put(raw)
    out = c.room(8 * columns)
    base = c.run()
    if not _mod().x.race_find_at(base + at, len(raw) // (4 * columns), columns, float(n), base + out):
        return None
    return struct.unpack(f"<{columns - 1}q", _mod().read(base + out, 8 * (columns - 1)))


def _items(obj, size: int, name: str, what: str) -> memoryview:
    view = _bytes(obj)
    if len(view) % size:
        raise ValueError(f"{what}: {name} is no array of {size}-byte items")
    return view


_ONE_HAND = (("answers", 4), ("terminals", 8), ("active", 1), ("values", 8))


def _lookup(c: _Call, what: str, arrays, names) -> list[tuple[int, int]]:
    """Each array's offset and length in items, checked as ``_race.c``'s ``take`` checks it."""
    out = []
    for obj, (name, size) in zip(arrays, names):
        view = _items(obj, size, name, what)
        out.append((c.put(view), len(view) // size))
    return out


def _sum(base: int, at: int, n: int) -> tuple:
    return struct.unpack(f"<{n}d", _mod().read(base + at, 8 * n))


def one_hand(answers, terminals, active, values, box, coords, base, leads, steps, next_lead, probs):
    """Every player's chance one hand from a grid point, the results given (a tuple), or None."""
    if not isinstance(box, tuple) or not isinstance(coords, tuple):
        raise TypeError("one_hand: box and coords are tuples")
    n = len(box)
    if n < 1 or n > _MAX_SIDES or len(coords) != n or leads < 1:
        raise ValueError("one_hand: box and coords of the same length, 1 to 8; leads >= 1")
    c = _Call()
    (a, na), (t, nt), (ac, nac), (v, nv), (st, ns), (nx, nn), (p, np_) = _lookup(
        c, "one_hand", (answers, terminals, active, values, steps, next_lead, probs),
        _ONE_HAND + (("steps", 4), ("next_lead", 4), ("probs", 8)))
    bx, co = c.ints("i", box), c.ints("i", coords)
    out = c.room(8 * n)
    at = c.run()
    got = _mod().x.race_one_hand_at(at + a, na, at + t, nt, at + ac, nac, at + v, nv, n, at + bx, at + co, base, leads,
                                    at + st, ns, at + nx, nn, at + p, np_, at + out)
    if got < 0:
        _raise(1)
    return _sum(at, out, n) if got else None


def between(answers, terminals, active, values, grid, box, step, leads, scores, next_lead, probs, fixed, base=None):
    """Every player's chance one hand from a position, weighed from a lattice (a tuple), or None."""
    if not isinstance(grid, tuple) or not isinstance(box, tuple):
        raise TypeError("between: grid and box are tuples")
    n = len(box)
    if n < 1 or n > _MAX_SIDES or len(grid) != n or leads < 1 or step < 1:
        raise ValueError("between: grid and box of the same length, 1 to 8; leads, step >= 1")
    if base is not None:
        if not isinstance(base, tuple) or len(base) != n:
            raise ValueError("between: base is a tuple of one running score a player")
        if any(not 0 <= int(x) <= (1 << 31) // 2 - 1 for x in base):
            raise ValueError("between: base scores from 0")
    c = _Call()
    (a, na), (t, nt), (ac, nac), (v, nv), (sc, ns), (nx, nn), (p, np_), (f, nf) = _lookup(
        c, "between", (answers, terminals, active, values, scores, next_lead, probs, fixed),
        _ONE_HAND + (("scores", 4), ("next_lead", 4), ("probs", 8), ("fixed", 8)))
    g, b = c.ints("i", grid), c.ints("i", box)
    bs = c.ints("i", base) if base is not None else None
    out = c.room(8 * n)
    at = c.run()
    got = _mod().x.race_between_at(at + a, na, at + t, nt, at + ac, nac, at + v, nv, n, at + g, at + b, step, leads,
                                   at + sc, ns, at + nx, nn, at + p, np_, at + f, nf, 0 if bs is None else at + bs,
                                   at + out)
    if got < 0:
        _raise(1)
    return _sum(at, out, n) if got else None


def undiff(numbers, dims):
    """In place, the numbers (32-bit integers, added modulo 2^32) whose differences along every axis of ``dims``
    ``numbers`` holds."""
    if not isinstance(dims, tuple):
        raise TypeError("undiff: dims is a tuple")
    if not 1 <= len(dims) <= _MAX_SIDES + 1:
        raise ValueError("dims: one to nine axes")
    block = 1
    for d in dims:
        if int(d) < 1:
            raise ValueError("dims: each axis at least 1")
        block *= int(d)
    view = _bytes(numbers, True)
    if len(view) % (4 * block):
        raise ValueError("numbers: not a whole number of blocks of 32-bit integers")
    c = _Call()
    x = c.put(view, view)
    d = c.ints("i", dims)
    base = c.run()
    _mod().x.race_undiff_at(base + x, len(view) // 4, base + d, len(dims))
    c.done()


def place(numbers, values, leads, sides, quantum):
    """Each position's chances from a packed solved race's numbers, into ``values`` in place."""
    if leads < 1 or sides < 2 or sides > _MAX_SIDES or not quantum > 0.0:
        raise ValueError("leads, sides or quantum out of range")
    nb, vb = _bytes(numbers), _bytes(values, True)
    positions = len(vb) // (8 * sides)
    points = positions // leads
    if len(vb) != positions * sides * 8 or positions != points * leads or len(nb) != 4 * points * leads * (sides - 1):
        raise ValueError("numbers and values do not match")
    c = _Call()
    x = c.put(nb)
    v = c.put(vb, vb)
    base = c.run()
    _mod().x.race_place_at(base + x, base + v, leads, sides, points, float(quantum))
    c.done()
