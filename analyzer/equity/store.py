"""The compact form of an MWC table, in which the tables ship (``NAME.mwc`` beside the JSON name).

The JSON form of a table (``EquityTable.as_dict``) is the documented exchange format; reading it means
parsing every position and building a dictionary of them, which for a big table (Doscientos: 116,425
positions, 2.1 MB) costs more than grading a record. The compact form holds the same data and is read
without touching the positions: a process looks up only the few it needs.

Layout: the line ``DOMINO-MWC 3``; a line with the size in bytes of the header that follows; the header,
one line of JSON packed as an XZ stream: everything of the JSON form but the positions and the model's
outcomes (``format``, the table's meta, ``model`` without its modes' ``outcomes``, ``positions``),
``outcomes``: the size in bytes and the CRC-32 of the next part, and ``groups``; the outcomes, each lead
mode's (``{mode: rows}`` as JSON, packed as an XZ stream: most of a race's file, unpacked and parsed only
when asked for: a process that finds the race solved in the cache folder never needs them, and a damaged
byte is found by the CRC when the file is read); then the groups' blocks. Every XZ stream carries the
CRC-32 of what it packs, checked as it is unpacked (LZMA2: the shipped tables in 1.8 MB, not 4.7 MB as
lines of JSON and zlib blocks). Files of the earlier layouts are read as well (``repack`` writes them in this
one): ``DOMINO-MWC 2`` (the header and the outcomes each a line of JSON as it is, the blocks zlib's) and
``DOMINO-MWC 1`` (as 2, but the whole model in the header, no outcomes line). ``groups``: per group of the
JSON form (the positions that differ only by their scores) its fields (``pending``, ``playoff``,
``last``, ``wins``, ``games``, ``lead``), ``count``, ``lo`` and ``span`` (the scores' smallest value and
range on each side), ``at`` / ``size`` (its blocks in the rest of the file), and ``chunk``, ``firsts`` /
``sizes``: its positions in scores' order, in blocks of ``chunk`` (``CHUNK`` as written here; the last one
fewer), each block's first score (as one number) and its size in bytes. (A group of one block has
neither, as every group of the first compact tables.) Each block is an XZ stream of its positions'
number of signed 32-bit little-endian integers, the scores as one number (mixed radix over ``span``,
ascending), then as many more, the MWC in millionths (the JSON form's 6 decimals: ``k / 1e6`` is the
same float as the JSON's decimal); each sequence stored as its first number and the differences of the
next ones (neighbouring scores have close chances: it packs 2.4 times smaller). A
table of individual players (each position holds every player's chance, a list in the JSON form) has
``sides`` in each group: its block holds ``sides`` such sequences of chances, one per player, after the
scores. A block is unpacked the first time one of its positions is looked up (found by bisection over the
group's ``firsts``) and kept; the compiled ``_race.find`` reads one position off it in place (summing the
differences up to it), the pure-Python twin adds each sequence up once and searches it by bisection."""
from __future__ import annotations

import json
import os
import sys
import zlib
from array import array
from bisect import bisect_left, bisect_right
from functools import partial
from itertools import accumulate
from collections.abc import Iterator, Mapping

from ..search.core import PURE_ENV, race_wasm
from .unxz import lzma_module

try:
    from . import _race
except ImportError:  # pragma: no cover - a machine without a C compiler
    _race = race_wasm()         # (in the site's Pyodide: the same kernel's WebAssembly module, else None)

__all__ = ["CHUNK", "FIND_CORE", "MAGIC", "PackedValues", "pack", "repack", "unpack"]

MAGIC = b"DOMINO-MWC 3\n"
_SECOND = b"DOMINO-MWC 2\n"    # the second layout: its text as it is, its blocks zlib's (read, no longer written)
_FIRST = b"DOMINO-MWC 1\n"     # the first layout: the whole model in the header (read, no longer written)
#: The most bytes a compact table's header or model unpacks to (a file that claims more is refused, not unpacked).
_MOST = 1 << 28
_U32 = next(code for code in "IL" if array(code).itemsize == 4)
_I32 = next(code for code in "il" if array(code).itemsize == 4)
_FIELDS = ("pending", "playoff", "last", "wins", "games", "lead")
#: The positions in a block: a look-up unpacks the one block its position lies in, not the whole group (the
#: largest table's groups hold up to 250,000 positions: some 25 ms each to unpack).
CHUNK = 4096
#: ``"compiled"`` or ``"python"``: who reads a position off an unpacked block (``_race.find``, or its twin here).
FIND_CORE = "compiled" if _race is not None and os.environ.get(PURE_ENV, "") in ("", "0") else "python"


def _group_key(g: dict) -> tuple:
    """The part of a position's key that its group shares: (pending, playoff, last, wins, games), lead."""
    wins = None if g["wins"] is None else tuple(g["wins"])
    return (g["pending"], g["playoff"], g["last"], wins, g["games"]), tuple(g["lead"])


def _strides(span: list[int]) -> list[int]:
    out, step = [], 1
    for s in reversed(span):
        out.append(step)
        step *= s
    return out[::-1]


def _le(a: array) -> bytes:
    if sys.byteorder != "little":
        a = array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def _deltas(numbers: list[int]) -> array:
    return array(_I32, [b - a for a, b in zip([0, *numbers], numbers)])


def pack(data: dict) -> bytes:
    """The compact form of a table's JSON form ``data`` (``EquityTable.as_dict``)."""
    header = {k: v for k, v in data.items() if k != "table"}
    groups, blocks, at = [], [], 0
    for g in data["table"]:
        scores = [list(s) for s in g["scores"]]
        lo = [min(col) for col in zip(*scores)]
        span = [max(col) - low + 1 for col, low in zip(zip(*scores), lo)]
        strides = _strides(span)
        if strides[0] * span[0] >= 2 ** 31:
            raise ValueError(f"a group of {len(scores)} positions spans {span} scores: too wide for the compact form")
        flat = [sum((s - low) * st for s, low, st in zip(sc, lo, strides)) for sc in scores]
        each = bool(g["mwc"]) and isinstance(g["mwc"][0], (list, tuple))     # individual players: every one's
        columns = list(zip(*g["mwc"])) if each else [g["mwc"]]
        order = sorted(range(len(flat)), key=flat.__getitem__)
        firsts, sizes = [], []
        for start in range(0, len(order), CHUNK):
            part = order[start:start + CHUNK]
            block = _xz(_le(_deltas([flat[i] for i in part])) + b"".join(
                _le(_deltas([round(column[i] * 1e6) for i in part])) for column in columns))
            firsts.append(flat[part[0]])
            sizes.append(len(block))
            blocks.append(block)
        groups.append({**{k: g[k] for k in _FIELDS}, "count": len(flat), "lo": lo, "span": span, "at": at,
                       "size": sum(sizes), **({"chunk": CHUNK, "firsts": firsts, "sizes": sizes} if len(sizes) > 1 else {}),
                       **({"sides": len(columns)} if each else {})})
        at += sum(sizes)
    header["groups"] = groups
    modes = header["model"].get("modes", {})
    if modes:
        header["model"] = {**header["model"], "modes": {m: {k: v for k, v in s.items() if k != "outcomes"}
                                                        for m, s in modes.items()}}
    return _written(header, json.dumps({m: s["outcomes"] for m, s in modes.items()}, separators=(",", ":")).encode(),
                    blocks)


def _written(header: dict, rows: bytes, blocks: list[bytes]) -> bytes:
    """The file of the current layout: ``header`` (``outcomes`` set here), the model's outcomes ``rows`` (JSON) and
    the groups' ``blocks`` (packed)."""
    rows = _xz(rows)
    header["outcomes"] = {"bytes": len(rows), "crc32": zlib.crc32(rows)}
    head = _xz(json.dumps(header, separators=(",", ":")).encode("utf-8"))
    return MAGIC + b"%d\n" % len(head) + head + rows + b"".join(blocks)


def repack(raw: bytes, where: str = "table") -> bytes:
    """A compact table of an earlier layout ``raw`` in the current one: the same header, model and positions (each
    block's numbers as they were), packed as :func:`pack` packs them."""
    header, end = _header(raw, where)
    if raw.startswith(MAGIC):
        return raw
    outcomes = header.pop("outcomes", None)
    if outcomes is None:            # (the first layout: the model's outcomes in the header)
        modes = header["model"].get("modes", {})
        rows = json.dumps({m: s.pop("outcomes") for m, s in modes.items()}, separators=(",", ":")).encode("utf-8")
    else:
        rows = raw[end + 1:end + 1 + outcomes["bytes"]]
        end += 1 + len(rows)
        if len(rows) != outcomes["bytes"] or zlib.crc32(rows) != outcomes["crc32"]:
            raise ValueError(f"{where}: its model's outcomes are damaged or cut short")
    payload, blocks, at = raw[end + 1:], [], 0
    for g in header["groups"]:
        sizes, start, out = g.get("sizes") or [g["size"]], g["at"], []
        for size in sizes:
            out.append(_xz(zlib.decompress(payload[start:start + size])))
            start += size
        g["at"], g["size"] = at, sum(map(len, out))
        if "sizes" in g:
            g["sizes"] = [len(b) for b in out]
        blocks += out
        at += g["size"]
    return _written(header, bytes(rows), blocks)


def _xz(data: bytes) -> bytes:
    """``data`` packed as an XZ stream (LZMA2, its CRC-32 checked when unpacked), its dictionary no larger than it."""
    import lzma         # (here, not at the top: Pyodide's npm package has no lzma, and the site imports this package)

    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=[
        {"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": max(1 << 12, len(data))}])


def _unxz(data, most: int) -> bytes:
    """An XZ stream ``data`` unpacked, at most ``most`` bytes of it; raises ``ValueError`` for one damaged, cut short
    or larger."""
    lzma = lzma_module()    # (Python's, or in the site's Pyodide, which has none, the stand-in over _xz.wasm)

    d = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    try:
        out = d.decompress(data, max_length=most)
    except lzma.LZMAError as exc:
        raise ValueError(str(exc)) from None
    if not d.eof or d.unused_data:
        raise ValueError("cut short" if not d.eof else "bytes after its end")
    return out


def unpack(raw: bytes, where: str = "table", core: str | None = None) -> tuple[dict, PackedValues]:
    """The header (the JSON form but its positions; its model's outcomes, each mode's a function giving them
    when first called) and the positions (a lazy mapping) of a compact table ``raw``. Raises ``ValueError``
    naming ``where`` for bytes that are not one. ``core``: who reads a position off a block, ``"compiled"``
    or ``"python"`` (None: :data:`FIND_CORE`)."""
    header, end = _header(raw, where)
    layout = raw[:len(MAGIC)]
    outcomes = header.pop("outcomes", None) if layout != _FIRST else None
    if outcomes is not None:
        gap = layout == _SECOND         # (the second layout: its outcomes a line of their own)
        try:
            rows = memoryview(raw)[end + gap:end + gap + outcomes["bytes"]]
            whole = len(rows) == outcomes["bytes"] and (not gap or raw[end + 1 + len(rows):end + 2 + len(rows)] == b"\n")
        except (TypeError, KeyError):
            whole = False
        if not whole or zlib.crc32(rows) != outcomes["crc32"]:
            raise ValueError(f"{where}: its model's outcomes are damaged or cut short")
        parsed: list = []

        def mode_rows(mode: str):
            if not parsed:
                text = bytes(rows)
                if not gap:
                    try:
                        text = _unxz(text, _MOST)
                    except ValueError as exc:
                        raise ValueError(f"{where}: its model's outcomes are damaged ({exc})") from None
                parsed.append(json.loads(text))
            return parsed[0][mode]

        for mode, sample in header["model"].get("modes", {}).items():
            sample["outcomes"] = partial(mode_rows, mode)
        end += gap + len(rows)
    payload = memoryview(raw)[end + (layout != MAGIC):]
    groups = header["groups"]
    if sum(g["size"] for g in groups) != len(payload):
        raise ValueError(f"{where}: its groups' blocks take {sum(g['size'] for g in groups)} bytes, the file has "
                         f"{len(payload)} after its header (cut short?)")
    return header, PackedValues(groups, payload, where, core, zipped=layout == MAGIC)


def _header(raw: bytes, where: str) -> tuple[dict, int]:
    """The header of a compact table ``raw`` (of any layout), and where it ends (the third layout: past its packed
    header; the others: at the line's end)."""
    first = next((m for m in (MAGIC, _SECOND, _FIRST) if raw.startswith(m)), None)
    if first is None:
        raise ValueError(f"{where}: not a compact MWC table (it does not start with {MAGIC.strip().decode()!r})")
    try:
        end = raw.index(b"\n", len(first))
        if first == MAGIC:
            size = int(raw[len(first):end])
            text, end = raw[end + 1:end + 1 + size], end + 1 + size
            if len(text) != size:
                raise ValueError("cut short")
            text = _unxz(text, _MOST)
        else:
            text = raw[len(first):end]
        header = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{where}: its header is not JSON ({exc})") from None
    if not isinstance(header, dict) or not isinstance(header.get("groups"), list) or "model" not in header:
        raise ValueError(f"{where}: its header has no groups of positions or no model")
    return header, end


class _Group:
    __slots__ = ("lo", "span", "strides", "count", "chunk", "firsts", "chunks", "raw", "opened", "sides", "compiled",
                 "zipped")

    def __init__(self, g: dict, block: memoryview, where: str, compiled: bool, zipped: bool = True):
        self.lo, self.span, self.count = tuple(g["lo"]), tuple(g["span"]), g["count"]
        self.strides = tuple(_strides(g["span"]))
        self.sides = g.get("sides")           # individual players: a chance each (None: side 0's only)
        self.compiled = compiled
        self.zipped = zipped                # (XZ streams; else zlib's, as the first two layouts wrote them)
        sizes = g.get("sizes") or [g["size"]]        # (a file of one block a group: its blocks were not split)
        self.firsts = g.get("firsts") or [0]
        self.chunk = g.get("chunk") or self.count
        if len(self.firsts) != len(sizes) or sum(sizes) != g["size"]:
            raise ValueError(f"{where}: a group's blocks do not add up to its size")
        ends = list(accumulate(sizes))
        self.chunks = [block[end - size:end] for end, size in zip(ends, sizes)]
        self.raw: dict[int, bytes] = {}
        self.opened: dict[int, tuple[array, list[array]]] = {}

    def _raw(self, j: int, where: str) -> bytes:
        """Block ``j`` decompressed (kept): its sequences of differences, the scores' first."""
        got = self.raw.get(j)
        if got is not None:
            return got
        expected = min(self.chunk, self.count - j * self.chunk) * 4 * (1 + (self.sides or 1))
        try:
            raw = _unxz(self.chunks[j], expected + 1) if self.zipped else zlib.decompress(self.chunks[j])
        except (zlib.error, ValueError) as exc:
            raise ValueError(f"{where}: a group's block is damaged ({exc})") from None
        if len(raw) != expected:
            raise ValueError(f"{where}: a group's block holds {len(raw)} bytes, not {expected}")
        self.raw[j] = raw
        return raw

    def _open(self, j: int, where: str) -> tuple[array, list[array]]:
        """Block ``j``'s scores (one number each) and chances, added up (kept)."""
        got = self.opened.get(j)
        if got is not None:
            return got
        raw = self._raw(j, where)
        n = len(raw) // (1 + (self.sides or 1))
        parts = []
        for k in range(1 + (self.sides or 1)):
            part = array(_I32)
            part.frombytes(raw[k * n:(k + 1) * n])
            if sys.byteorder != "little":
                part.byteswap()
            parts.append(array(_U32, accumulate(part)))
        got = self.opened[j] = (parts[0], parts[1:])
        return got

    def find(self, scores: tuple, where: str) -> float | None:
        n = 0
        for s, low, span, st in zip(scores, self.lo, self.span, self.strides):
            if not low <= s < low + span:
                return None
            n += (s - low) * st
        j = bisect_right(self.firsts, n) - 1
        if j < 0:
            return None
        if self.compiled:
            got = _race.find(self._raw(j, where), 1 + (self.sides or 1), n)
            if got is None:
                return None
            return got[0] / 1e6 if self.sides is None else tuple(m / 1e6 for m in got)
        flat, micro = self._open(j, where)
        i = bisect_left(flat, n)
        if i < len(flat) and flat[i] == n:
            return _chance(micro, i, self.sides)
        return None

    def scores(self, where: str) -> Iterator[tuple[tuple, float]]:
        for j in range(len(self.chunks)):
            flat, micro = self._open(j, where)
            for i, n in enumerate(flat):
                sc = []
                for low, st, span in zip(self.lo, self.strides, self.span):
                    sc.append(low + (n // st) % span)
                yield tuple(sc), _chance(micro, i, self.sides)


def _chance(micro: list[array], i: int, sides: int | None):
    if sides is None:
        return micro[0][i] / 1e6
    return tuple(m[i] / 1e6 for m in micro)


class PackedValues(Mapping):
    """Side 0's MWC (individual players: every player's, a tuple) at each position of a compact table,
    ``{(state_key, lead): chance}`` as
    ``EquityTable.values`` has them, read group by group when first asked; ``update`` adds positions
    solved later (off the shipped walk)."""

    def __init__(self, groups: list[dict], payload: memoryview, where: str = "table", core: str | None = None,
                 zipped: bool = True):
        compiled = (core or FIND_CORE) == "compiled"
        if compiled and _race is None:
            raise ValueError("the compiled race core was not built (no C compiler at install time)")
        self._groups = {_group_key(g): _Group(g, payload[g["at"]:g["at"] + g["size"]], where, compiled, zipped)
                        for g in groups}
        self._count = sum(g["count"] for g in groups)
        self._extra: dict = {}
        self._where = where

    def __getitem__(self, pos: tuple):
        v = self.get(pos)
        if v is None:
            raise KeyError(pos)
        return v

    def get(self, pos: tuple, default=None):
        v = self._extra.get(pos)
        if v is not None:
            return v
        try:
            key, lead = pos
            group = self._groups.get(((*key[1:],), lead))
        except (TypeError, ValueError):
            return default
        if group is None:
            return default
        v = group.find(key[0], self._where)
        return default if v is None else v

    def __contains__(self, pos: object) -> bool:
        return self.get(pos) is not None

    def __len__(self) -> int:
        return self._count + len(self._extra)

    def __iter__(self) -> Iterator[tuple]:
        for (rest, lead), group in self._groups.items():
            for scores, _ in group.scores(self._where):
                yield (scores, *rest), lead
        yield from self._extra

    def update(self, extra: dict) -> None:
        self._extra.update(extra)
