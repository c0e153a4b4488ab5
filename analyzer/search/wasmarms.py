"""The search over layouts with arms's kernel over its WebAssembly module (``_arms.wasm``), for Python in the browser
(Pyodide): the same Python API as the CPython extension ``analyzer.search._arms`` (``ArmSearch``, ``ENTRY_BYTES``),
each call one crossing into the module. :mod:`analyzer.search.core` picks it as it picks
:mod:`analyzer.search.wasmcore` (``js.dominoKernels.arms``).

The module calls no Python: a scoring the kernel neither writes nor has described (``ArmSearch``'s scoring 2, a
``leaf`` asked of Python at each finished hand) is left to the pure-Python search over arms (:data:`CALLBACKS`
False; ``TreeSearch`` then makes an ``_ArmDeal``). The calls are ``analyzer/search/_arms_wasm.c``'s; the search's
table counts are read from its struct (``ArmsSearch`` begins with ``_table.h``'s fields:
:func:`analyzer.search.wasm.table_counts`), checked when the module loads.
"""
from __future__ import annotations

import struct

from .wasm import KernelHandle, TableCounts, WasmModule, table_counts

__all__ = ["ArmSearch", "ENTRY_BYTES", "CALLBACKS", "load", "loaded"]

#: The bytes of one slot of the table (``ArmsEntry``: four hands and the arms as 64-bit ints, bounds, seat, move).
ENTRY_BYTES = 48
#: Whether a search may ask Python for the value of each finished hand: not from WebAssembly.
CALLBACKS = False

_MAX_SEATS = 4
_MAX_ARMS = 64                      # ARMS_MAXARMS
_MAX_STEPS = 55 * 4                 # ARMS_MAX_STEPS
_CALLER = 2                         # ARMS_SCORE_CALLER

_module = None


def load(exports) -> None:
    """Take the instantiated module's ``exports`` as the kernel of this binding; a check that a search's table reads
    as this binding expects (else RuntimeError)."""
    global _module
    module = WasmModule(exports)
    base = module.room(64)
    module.write(base, struct.pack("<12i", 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1))
    d = module.x.arms_new(2, 6, 0, 0, base, base + 16, 0, 0, base + 32, 1000.0, base, 0, 0)
    if not d:
        raise RuntimeError("the WebAssembly search over arms cannot make a search")
    try:
        buckets, max_buckets, used, stores, replaced = table_counts(module, d)
        if module.x.arms_error_kind(d) or used or not buckets or buckets & (buckets - 1) or max_buckets < buckets:
            raise RuntimeError("the WebAssembly search over arms is not laid out as analyzer.search.wasmarms reads it")
    finally:
        module.x.arms_delete(d)
    _module = module


def loaded() -> bool:
    """Whether :func:`load` was given a module."""
    return _module is not None


def _seats(values, n: int, lo: int, hi: int, what: str) -> list[int]:
    values = [int(v) for v in values]
    if len(values) != n or any(not lo <= v <= hi for v in values):
        raise ValueError(f"{what}: one value a seat")
    return values


class ArmSearch(KernelHandle, TableCounts):
    """``ArmSearch(n, max_pip, french, branch, maximiser, opponent, scoring, param, sides, leaf, entries,
    described=None, leader=0)``: one deal of a layout with arms and its bounded table, as the extension's (read
    ``_arms.c``'s top); scoring 2 (a ``leaf`` asked of Python) is refused."""

    _delete, _errors, slot_bytes = "arms_delete", "arms", ENTRY_BYTES

    def __init__(self, n, max_pip, french, branch, maximiser, opponent, scoring, param, sides, leaf, entries,
                 described=None, leader=0):
        if _module is None:
            raise RuntimeError("the WebAssembly search over arms is not loaded (analyzer.search.wasmarms.load)")
        if not 2 <= n <= _MAX_SEATS:
            raise ValueError("the compiled search seats two to four players")
        if scoring == _CALLER:
            raise TypeError("scoring 2: the WebAssembly search over arms calls no Python (such a scoring is searched "
                            "in Python)")
        if entries < 0:
            raise OverflowError("can't convert negative int to unsigned")
        maxi = _seats(maximiser, n, 0, 1, "maximiser")
        opp = _seats(opponent, n, 0, n - 1, "opponent")
        side = _seats(sides, n, 0, 1, "sides")
        described = [] if described is None or scoring != 3 else [int(v) for v in described]
        m = _module
        self.n = n
        data = b"".join(struct.pack(f"<{n}i", *v).ljust(16, b"\0") for v in (maxi, opp, side)) + struct.pack(
            f"<{len(described)}i", *described)
        base = m.room(len(data))
        m.write(base, data)
        d = m.x.arms_new(n, max_pip, 1 if french else 0, 1 if branch else 0, base, base + 16, scoring, param,
                         base + 32, float(entries), base + 48, len(described), leader)
        self._made(m, d, "search")



    def _state(self, hands, arms, most: int, what: str) -> bytes:
        if not isinstance(hands, tuple) or not isinstance(arms, tuple):
            raise TypeError("hands and arms: tuples")
        if len(hands) != self.n or len(arms) > most:
            raise ValueError(what)
        codes = [-1 if c < 0 else min(int(c), 4 * 10) for c in arms]
        return struct.pack(f"<{self.n}Q", *hands).ljust(32, b"\0") + struct.pack(f"<{len(codes)}i", *codes)

    def search(self, hands, arms, s, alpha, beta, budget):
        """``(value or None past the budget, positions visited)``."""
        m = self._m
        data = self._state(hands, arms, 4 + 15 * 10 + 1, "one hand a seat, and the seat to move among them")
        base = m.room(len(data) + 16)
        m.write(base, data)
        out = base + ((len(data) + 7) & ~7)
        got = m.x.arms_search_at(self._d, base, base + 32, len(arms), s, alpha, beta, float(budget), out, out + 8)
        if got < 0:
            self._raise()
        value, _, nodes = struct.unpack("<iid", m.read(out, 16))
        return (None if got == 1 else value), int(nodes)

    def line(self, hands, arms, s, value, limit, spent):
        """``(steps or None past the limit, positions of the last choice probed, the value its move left or None)``."""
        m = self._m
        data = self._state(hands, arms, _MAX_ARMS, "one hand a seat, the seat to move among them, at most 64 arms, "
                                                    "a value in the search's range")
        at = (len(data) + 7) & ~7
        base = m.room(at + 24 + 16 * _MAX_STEPS)
        m.write(base, data)
        nodes, out, steps = base + at, base + at + 8, base + at + 24
        got = m.x.arms_line_at(self._d, base, base + 32, len(arms), s, value, float(limit), float(spent), steps, out,
                               nodes)
        if got < 0:
            self._raise()
        raw = m.read(nodes, 24)
        visited, = struct.unpack_from("<d", raw, 0)
        count, probed, after = struct.unpack_from("<3i", raw, 8)
        if got == 1:
            found = None
        else:
            flat = struct.unpack(f"<{4 * count}i", m.read(steps, 16 * count)) if count else ()
            found = [flat[i:i + 4] for i in range(0, 4 * count, 4)]
        return found, int(visited), (after if probed else None)
