"""The block search's kernel over its WebAssembly module (``_core.wasm``), for Python in the browser (Pyodide): the
same Python API as the CPython extension ``analyzer.search._core`` (``Table``, ``BlockDeal``, ``ENTRY_BYTES``,
``INF``), each call one crossing into the module where it can (its arguments written into the module's memory in one
copy, the call, its results read back in one copy). :mod:`analyzer.search.core` picks it where the extension is
missing and the page's worker has instantiated the module (``js.dominoKernels.core``: the module's exports, see
``analyzer/site/static/worker.js``).

What the module does not do, the callers leave to the pure-Python search, explicitly: a scoring neither written
inline nor described (``LeafScoring``) needs a Python callback for each finished hand, which the module cannot call
(:data:`CALLBACKS` False; ``BlockDeal`` refuses a ``leaf``, and ``Solver`` searches such a deal in Python).

The module's calls are ``analyzer/search/_core_wasm.c``'s: ints, doubles and pointers into its memory, the 64-bit
masks written there little-endian. A table's counts are read from its struct (``CoreTable`` of
``_core_kernel.h`` laid out for wasm32: two pointers, then ``buckets``, ``max_buckets``, ``used``, ``stores``,
``replaced`` as 64-bit ints from byte 8), checked against the module's ``core_table_used`` when it loads.
"""
from __future__ import annotations

import struct

from .wasm import KernelHandle, TableCounts, WasmModule, table_counts

__all__ = ["Table", "BlockDeal", "ENTRY_BYTES", "INF", "CALLBACKS", "load", "loaded"]

#: The bytes of one slot of the table (``CoreEntry``: a 64-bit key, two 16-bit bounds, a 16-bit deal id, two bytes).
ENTRY_BYTES = 16
#: The kernel's infinity (``CORE_INF``).
INF = 1 << 30
#: Whether a deal may ask Python for the value of each finished hand: not from WebAssembly.
CALLBACKS = False

_MAX_SEATS = 4
_MAX_MOVES = 64
_MAX_VALUE = 30000                          # MAX_VALUE of _table.h: the values a table holds
_MAX_STEPS = 55 * 4                         # CORE_MAX_STEPS
_STEP_BYTES = 12 * _MAX_STEPS
_BUDGET_CAP = float(1 << 62)                # a budget the module's double holds exactly enough (none: -1)

_module = None


def load(exports) -> None:
    """Take the instantiated module's ``exports`` (a JavaScript object under Pyodide) as the kernel of this binding;
    a check that its table struct reads as this binding expects (else RuntimeError)."""
    global _module
    module = WasmModule(exports)
    t = module.x.core_table_new(1000.0)
    if not t:
        raise RuntimeError("the WebAssembly search core cannot make a table")
    try:
        buckets, max_buckets, used, stores, replaced = table_counts(module, t)
        if used != module.x.core_table_used(t) or buckets & (buckets - 1) or max_buckets < buckets or stores or replaced:
            raise RuntimeError("the WebAssembly search core's table is not laid out as analyzer.search.wasmcore reads it")
    finally:
        module.x.core_table_delete(t)
    _module = module


def loaded() -> bool:
    """Whether :func:`load` was given a module."""
    return _module is not None


def _mod() -> WasmModule:
    if _module is None:
        raise RuntimeError("the WebAssembly search core is not loaded (analyzer.search.wasmcore.load)")
    return _module


def _budget(budget) -> float:
    return -1.0 if budget is None else min(float(budget), _BUDGET_CAP)


def _u64s(values, n: int) -> bytes:
    return struct.pack(f"<{n}Q", *values[:n]) if len(values) >= n else _short()


def _short():
    raise IndexError("a sequence too short")


class Table(KernelHandle, TableCounts):
    """``Table(entries)``: a bounded transposition table shared by the deals of one solver (in the module's memory)."""

    _delete, slot_bytes = "core_table_delete", ENTRY_BYTES

    def __init__(self, entries: int):
        m = _mod()
        if entries < 0:
            raise OverflowError("can't convert negative int to unsigned")
        self._made(m, m.x.core_table_new(float(entries)), "table")

    def clear(self) -> None:
        """Empty every slot."""
        self._m.x.core_table_empty(self._d)


class BlockDeal(KernelHandle):
    """``BlockDeal(table, n, max_pip, sides, dealt, cu, leaf, scoring=None, leader=0, bound=-1, most=0, bonus=None)``:
    one two-ended block deal, as the extension's (read ``_core.c``'s top); ``leaf`` must be None (no callback into
    Python from WebAssembly: the caller searches such a scoring in Python)."""

    _delete, _errors = "core_deal_delete", "core"

    def __init__(self, table, n, max_pip, sides, dealt, cu, leaf, scoring=None, leader=0, bound=-1, most=0,
                 bonus=None):
        if not isinstance(table, Table):
            raise TypeError("argument 1 must be analyzer.search.wasmcore.Table")
        if not 2 <= n <= _MAX_SEATS:
            raise ValueError("the compiled search seats two to four players")
        if leaf is not None:
            raise TypeError("leaf: the WebAssembly search core calls no Python (a scoring it does not compute is "
                            "searched in Python)")
        sides, dealt = list(sides), list(dealt)
        if len(sides) != n or len(dealt) != n or any(s not in (0, 1) for s in sides):
            raise ValueError("sides (0 or 1) and dealt hands, one per seat")
        scoring = [] if scoring is None else [int(v) for v in scoring]
        bonus = [] if bonus is None else [int(v) for v in bonus]
        if bonus and len(bonus) != 2 * n * n + n:
            raise ValueError("bonus: 2 n n + n points (and a set whose states leave a bit free)")
        m = table._m
        self.table = table
        self.n = n
        data = (struct.pack(f"<{n}i", *sides).ljust(16, b"\0") + struct.pack(f"<{n}Q", *dealt).ljust(32, b"\0")
                + struct.pack(f"<{len(scoring)}i", *scoring) + struct.pack(f"<{len(bonus)}i", *bonus))
        base = m.room(len(data))
        m.write(base, data)
        at_scoring = base + 48
        d = m.x.core_deal_new(table._d, n, max_pip, base, base + 16, cu, at_scoring, len(scoring), leader, bound, most,
                              at_scoring + 4 * len(scoring), len(bonus))
        self._made(m, d, "deal")



    _searched = True
    _nodes = 0

    @property
    def nodes(self) -> int:
        """The states searched so far (asked of the module once after each search: one crossing less a search)."""
        if self._searched:
            self._nodes = int(self._m.x.core_nodes(self._d))
            self._searched = False
        return self._nodes

    def _state(self, hands, pips, K) -> bytes:
        """The hands, pips and played mask as the module reads them: 32 + 8 + 8 bytes."""
        hands = list(hands)
        pips = list(pips)
        if len(pips) < 2:
            _short()
        return _u64s(hands, self.n).ljust(32, b"\0") + struct.pack("<2iQ", pips[0], pips[1], K)

    def mtdf(self, hands, pips, K, e, s, alpha, beta, guess=None, budget=None):
        """The value for the side of ``seat``; None past ``budget`` states. One crossing: the state goes in the
        call's arguments (``core_mtdf_args``), not through the module's memory."""
        hands = list(hands)
        pips = list(pips)
        if len(hands) < self.n or len(pips) < 2:
            _short()
        m = [0] * 8
        for i in range(self.n):
            h = hands[i]
            m[2 * i], m[2 * i + 1] = h & 0xFFFFFFFF, h >> 32 & 0xFFFFFFFF
        self._searched = True
        got = self._m.x.core_mtdf_args(self._d, *m, pips[0], pips[1], K & 0xFFFFFFFF, K >> 32 & 0xFFFFFFFF, e, s,
                                       alpha, beta, 0 if guess is None else guess, _budget(budget))
        if got == INF + 2:
            self._raise()
        return None if got == INF + 1 else got

    def plays(self, hands, pips, K, e, s, moves, budget):
        """The side-0 value of each move (tile index, ends after) in this deal's table, None where it ends the
        hand; ``(values, states, over)``."""
        self._searched = True
        moves = [(int(a), int(b)) for a, b in moves]
        nm = len(moves)
        if nm > 2 * _MAX_MOVES:
            raise ValueError("moves: (tile index, ends code) pairs")
        m = self._m
        data = self._state(hands, pips, K) + struct.pack(f"<{2 * nm}i", *(x for mv in moves for x in mv))
        out = 48 + 8 * nm
        base = m.room(out + 5 * nm + 32)
        m.write(base, data)
        values, over, states, ended = base + out, base + out + 4 * nm, base + out + 4 * nm + 8, base + out + 4 * nm + 16
        done = m.x.core_plays_at(self._d, base, base + 32, base + 40, e, s, nm, base + 48, _budget(budget), values,
                                 ended, over, states)
        if done < 0:
            self._raise()
        raw = m.read(values, 16 + 4 * nm + nm)
        vals = struct.unpack_from(f"<{done}i", raw, 0)
        flag, = struct.unpack_from("<i", raw, 4 * nm)
        used, = struct.unpack_from("<Q", raw, 4 * nm + 8)
        ends = raw[4 * nm + 16:]
        return [None if ends[i] else vals[i] for i in range(done)], used, flag == 1

    def line(self, hands, pips, K, a, b, s, first, value, budget, guess=0):
        """The principal variation from the state: ``(steps, states, over, ends before the last tile)``."""
        self._searched = True
        m = self._m
        base = m.room(48 + 32 + _STEP_BYTES)
        m.write(base, self._state(hands, pips, K))
        out, states, steps = base + 48, base + 64, base + 80
        got = m.x.core_line_at(self._d, base, base + 32, base + 40, a, b, s, first, 0 if value is None else 1,
                               0 if value is None else value, _budget(budget), guess, steps, states, out)
        if got < 0:
            self._raise()
        count, over, pa, pb = struct.unpack("<4i", m.read(out, 16))
        used, = struct.unpack("<Q", m.read(states, 8))
        flat = struct.unpack(f"<{3 * count}i", m.read(steps, 12 * count)) if count else ()
        return [flat[i:i + 3] for i in range(0, 3 * count, 3)], used, over == 1, (pa, pb)

    def ends(self, hands, pips, K, a, b, s, first, values, budget):
        """Where the principal variation after each move of ``seat`` ends (``values``: one side-0 value, or None, a
        move in the order of ``Position.legal_moves``): a list of ``(hands, seat, tile, (a, b))`` or None each."""
        self._searched = True
        values = list(values)
        nv = len(values)
        nm = min(nv, _MAX_MOVES + 1)            # (more than a state's moves: refused by the kernel)
        has = bytes(1 if v is not None and -_MAX_VALUE <= int(v) <= _MAX_VALUE else 0 for v in values[:nm])
        vals = [int(v) if h else 0 for v, h in zip(values[:nm], has)]
        m, n = self._m, self.n
        at_has = 48
        at_vals = at_has + ((nm + 7) & ~7)
        at_found = at_vals + ((4 * nm + 7) & ~7)
        at_hands = at_found + ((nm + 7) & ~7)
        at_outs = at_hands + 8 * n * nm
        base = m.room(at_outs + 16 * nm + 8)
        m.write(base, self._state(hands, pips, K) + has.ljust(at_vals - at_has, b"\0") + struct.pack(f"<{nm}i", *vals))
        if m.x.core_ends_at(self._d, base, base + 32, base + 40, a, b, s, first, nm, base + at_has, base + at_vals,
                            _budget(budget), base + at_found, base + at_hands, base + at_outs) < 0:
            if m.x.core_error_kind(self._d) == 1 and self._m.text(m.x.core_error_text(self._d)).startswith("ends:"):
                raise ValueError(f"ends: {m.x.core_error_count(self._d)} moves, not {nv} values")
            self._raise()
        raw = m.read(base + at_found, at_outs + 16 * nm - at_found)
        found = raw[:nm]
        masks = struct.unpack_from(f"<{n * nm}Q", raw, at_hands - at_found)
        outs = struct.unpack_from(f"<{4 * nm}i", raw, at_outs - at_found)
        return [(masks[n * i:n * i + n], outs[i], outs[nm + i], (outs[2 * nm + i], outs[3 * nm + i])) if found[i]
                else None for i in range(nm)]

    def worlds(self, deals, K, e, s, moves, budget, after=None):
        """The side-0 value of each move in each deal (each searching the states an empty table would):
        ``(values, over)``, and with ``after`` each move's principal line in each deal: ``(values, over, lines)``."""
        self._searched = True
        moves = [(int(a), int(b)) for a, b in moves]
        nm = len(moves)
        if nm > _MAX_MOVES or any(not (0 <= a <= 255 and 0 <= b <= 255) for a, b in moves) or (
                after is not None and len(after) != nm):
            raise ValueError("moves: (tile index, ends code) pairs; after: the ends (a, b) and first after each move")
        after = None if after is None else [(int(a), int(b), int(f)) for a, b, f in after]
        deals = [list(d) for d in deals]
        if any(len(d) != self.n for d in deals):
            raise ValueError("worlds: a deal is one mask per seat")
        m = self._m
        n = self.n
        head = (struct.pack("<Q", K) + bytes(a for a, _ in moves).ljust(64, b"\0")
                + bytes(b for _, b in moves).ljust(64, b"\0")
                + (struct.pack(f"<{nm}i", *(a[0] for a in after)) if after else b"").ljust(256, b"\0")
                + (struct.pack(f"<{nm}i", *(a[1] for a in after)) if after else b"").ljust(256, b"\0"))
        at_deals = len(head)
        at_values = at_deals + 8 * n * len(deals)
        at_line = at_values + 4 * nm * len(deals)
        base = m.room(at_line + 16 + _STEP_BYTES)
        m.write(base, head + b"".join(struct.pack(f"<{n}Q", *d) for d in deals))
        Kp, bits, e2s, as_, bs = base, base + 8, base + 72, base + 136, base + 392
        x, d = m.x, self._d
        if x.core_worlds_ok(d, Kp, e, s, nm, bits, e2s, as_ if after else 0, bs if after else 0) < 0:
            self._raise()
        b = _budget(budget)
        rows, lines, over = [], [] if after is not None else None, False
        codes = []
        for j in range(len(deals)):
            got = x.core_world_at(d, base + at_deals + 8 * n * j, Kp, e, s, nm, bits, e2s, b,
                                  base + at_values + 4 * nm * j)
            if got < 0:
                self._raise()
            if got == 2:
                over = True
                break
            codes.append(got)
            if after is None:
                continue
            if got == 1:
                lines.append(None)
                continue
            row = struct.unpack(f"<{nm}i", m.read(base + at_values + 4 * nm * j, 4 * nm))
            found = []
            for i, (bit, e2) in enumerate(moves):
                a, bb, first = after[i]
                r = x.core_world_line_at(d, Kp, s, bit, e2, a, bb, first, row[i], b, base + at_line + 16,
                                         base + at_line)
                if r < 0:
                    self._raise()
                if r == 1:
                    found.append(None)
                    continue
                count, pa, pb = struct.unpack("<3i", m.read(base + at_line, 12))
                flat = struct.unpack(f"<{3 * count}i", m.read(base + at_line + 16, 12 * count)) if count else ()
                found.append(([flat[k:k + 3] for k in range(0, 3 * count, 3)], (pa, pb)))
            lines.append(found)
        if codes:
            raw = m.read(base + at_values, 4 * nm * len(codes))
            for j, got in enumerate(codes):
                rows.append(None if got == 1 else list(struct.unpack_from(f"<{nm}i", raw, 4 * nm * j)))
        if lines is None:
            return rows, over
        return rows, over, lines
