"""A race's table shipped solved (``NAME.solved`` beside ``NAME.mwc`` in ``data/``), so that its first use in a
process is a read, not a solve of seconds to a minute.

A race's table ships as its model (``"values": "solved when loaded"``): the first process to use it asks the
match code about every new totals (the answers, 40-70% of the solve) and sweeps the equations. Its ``.solved``
file holds what that solve gives, made by ``bench/ship_races.py``:

- **the match code's answers** (``RaceArrays.answers``, one per cell of the box of totals) and the finished
  matches' chances (``terminals``): exact, as the solver asks them;
- **every position's chances**, rounded to millionths as every shipped table's are (the JSON form's 6
  decimals), but the last player's, which is 1 less the others' (so they add up to 1); left out for the tables
  they would make too big (a lattice's: French, Hungarian for four), which are swept from the shipped answers.

Layout: the line ``DOMINO-RACE-SOLVED 1``; one line of JSON, the header (``digest``: the solved race's kept
name's, a digest of the variant, the table's meta and its model, so that a file made for another model is not
read; the race's shape as ``RaceArrays`` has it; ``terminals``; ``quantum``: the chances' denominator, None
where they are left out; ``bytes`` and ``crc32`` of the body unpacked); then the body, one LZMA stream: the
answers' differences (32-bit little-endian integers, modulo 2^32, in the cells' order), then per lead and
player but the last his chances in quanta over the grid, as their differences along every player's axis
(neighbouring scores have close chances: a few bits each, 1.2 MB for All Fives and Threes for three's
3 million). A file that is damaged, cut short or made for another table raises ``ValueError``: the caller
solves instead."""
from __future__ import annotations

import json
import sys
import zlib
from array import array

from ..rules import Variant
from .model import HandModel
from .race import PySweeps, RaceLoop, RaceValues, race_arrays, solve_race, sweeps_of
from .unxz import lzma_module

__all__ = ["MAGIC", "QUANTUM", "SUFFIX", "Solved", "pack_solved", "unpack_solved", "solve_shipped", "solved_values", "undiff",
           "place"]

MAGIC = b"DOMINO-RACE-SOLVED 1\n"
#: The suffix of a race's shipped solution, beside its table's ``NAME.mwc``.
SUFFIX = ".solved"
#: The chances' denominator: millionths, as the shipped tables' (``store``).
QUANTUM = 1_000_000
_I32 = next(code for code in "il" if array(code).itemsize == 4)
_U32 = next(code for code in "IL" if array(code).itemsize == 4)
_SHAPE = ("sides", "step", "rest", "leads", "grid", "box", "coarse")


def _prod(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


def _le(a: array) -> bytes:
    if sys.byteorder != "little":
        a = array(a.typecode, a)
        a.byteswap()
    return a.tobytes()


def _diff(numbers: array, dims: tuple) -> None:
    """In place, the differences of ``numbers`` (unsigned 32-bit, modulo 2^32) along every axis of ``dims`` (blocks
    of ``prod(dims)`` one after another): what :func:`undiff` undoes."""
    n, stride = len(numbers), _prod(dims)
    for size in dims:
        stride //= size
        span = stride * size
        for at in range(0, n, span):
            for i in range(at + span - 1, at + stride - 1, -1):
                numbers[i] = (numbers[i] - numbers[i - stride]) & 0xFFFFFFFF


def undiff(numbers: array, dims: tuple, core: str | None = None) -> None:
    """In place, the running sums of ``numbers`` (unsigned 32-bit) along every axis of ``dims``: the compiled race
    core's ``_race.undiff``, or its pure-Python twin (``core``, as :func:`race.sweeps_of` takes it)."""
    loop = sweeps_of(core)
    if loop is not PySweeps:
        loop.undiff(numbers, tuple(dims))
        return
    n, stride = len(numbers), _prod(dims)
    for size in dims:
        stride //= size
        span = stride * size
        for at in range(0, n, span):
            for i in range(at + stride, at + span):
                numbers[i] = (numbers[i] + numbers[i - stride]) & 0xFFFFFFFF


def place(numbers: array, values: array, leads: int, sides: int, quantum: int, core: str | None = None) -> None:
    """Each position's chances into ``values`` (``sides`` a position ``g * leads + l``) from ``numbers`` (signed
    32-bit, a block over the grid a lead and player but the last): ``numbers / quantum``, the last player's 1 less
    the others'. The compiled race core's ``_race.place``, or its pure-Python twin."""
    loop = sweeps_of(core)
    if loop is not PySweeps:
        loop.place(numbers, values, leads, sides, float(quantum))
        return
    points = len(values) // (sides * leads)
    for lead in range(leads):
        for g in range(points):
            at, rest = (g * leads + lead) * sides, 1.0
            for s in range(sides - 1):
                values[at + s] = numbers[(lead * (sides - 1) + s) * points + g] / quantum
                rest -= values[at + s]
            values[at + sides - 1] = rest


def pack_solved(values: RaceValues, digest: str, with_values: bool = True) -> bytes:
    """The ``.solved`` file of a solved race (``values``, as :func:`race.solve_race` or a kept file gives it), for
    the table whose kept name has ``digest``: its answers and terminals, and with ``with_values`` its chances."""
    a = values.arrays
    answers = array(_U32, a.answers.tobytes())
    _diff(answers, (len(answers),))
    body = [_le(answers)]
    if with_values:
        leads, sides, points = len(a.leads), a.sides, _prod(a.grid)
        numbers = array(_U32, bytes(4 * points * leads * (sides - 1)))
        chances = values._values
        for lead in range(leads):
            for s in range(sides - 1):
                at = (lead * (sides - 1) + s) * points
                for g in range(points):
                    numbers[at + g] = round(chances[(g * leads + lead) * sides + s] * QUANTUM) & 0xFFFFFFFF
        _diff(numbers, tuple(a.grid))
        body.append(_le(numbers))
    raw = b"".join(body)
    header = {"digest": digest, "sides": a.sides, "step": a.step, "rest": list(a.rest),
              "leads": [list(x) for x in a.leads], "grid": list(a.grid), "box": list(a.box), "asked": a.asked,
              "coarse": a.coarse, "terminals": list(a.terminals), "quantum": QUANTUM if with_values else None,
              "bytes": len(raw), "crc32": zlib.crc32(raw)}
    import lzma         # (here, not at the top: Pyodide's npm package has no lzma, and the site imports this package)

    return MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n" + lzma.compress(raw, preset=9)


class Solved:
    """A ``.solved`` file unpacked: ``header`` (the race's shape, as :func:`pack_solved` wrote it), ``answers`` and
    ``terminals`` (as ``RaceArrays`` holds them) and ``numbers`` (the chances in quanta, in place by :func:`place`;
    None where the file holds answers only)."""

    def __init__(self, header: dict, answers: array, terminals: array, numbers: array | None):
        self.header, self.answers, self.terminals, self.numbers = header, answers, terminals, numbers

    def agrees(self, arrays) -> bool:
        """Whether the race ``arrays`` (``race_arrays`` but the answers) has this file's shape (the model, which
        decides which cells are asked about, is the digest's)."""
        h = self.header
        mine = (h["sides"], h["step"], _rest(h["rest"]), tuple(tuple(x) for x in h["leads"]), tuple(h["grid"]),
                tuple(h["box"]), h["coarse"])
        return mine == tuple(getattr(arrays, k) for k in _SHAPE)


def _rest(rest: list) -> tuple:
    return tuple(tuple(x) if isinstance(x, list) else x for x in rest)


def unpack_solved(raw: bytes, digest: str, core: str | None = None) -> Solved:
    """The ``.solved`` file ``raw`` for the table whose kept name has ``digest``. Raises ``ValueError`` for one
    damaged or cut short, ``LookupError`` for one made for another table (or model)."""
    if not raw.startswith(MAGIC):
        raise ValueError("not a solved race")
    lzma = lzma_module()    # (Python's, or in the site's Pyodide, which has none, the stand-in over _xz.wasm)

    end = raw.find(b"\n", len(MAGIC))
    try:
        if end < 0:
            raise ValueError("no header")
        h = json.loads(raw[len(MAGIC):end])
        if h["digest"] != digest:
            raise LookupError("made for another model of the table")
        body = lzma.decompress(raw[end + 1:])
        if len(body) != h["bytes"] or zlib.crc32(body) != h["crc32"]:
            raise ValueError("its body does not check")
        cells, points = _prod(h["box"]), _prod(h["grid"])
        count = points * len(h["leads"]) * (h["sides"] - 1) if h["quantum"] else 0
        if len(body) != 4 * (cells + count):
            raise ValueError("its body is not the race's size")
        answers = array(_U32)
        answers.frombytes(body[:4 * cells])
        numbers = None
        if count:
            numbers = array(_U32)
            numbers.frombytes(body[4 * cells:])
        for part in (answers, numbers):
            if part is not None and sys.byteorder != "little":
                part.byteswap()
        undiff(answers, (cells,), core)
        if numbers is not None:
            undiff(numbers, tuple(h["grid"]), core)
            numbers = array(_I32, numbers.tobytes())
        answers = array(_I32, answers.tobytes())
        terminals = array("d", h["terminals"])
    except (KeyError, TypeError, lzma.LZMAError, EOFError) as exc:
        raise ValueError(f"damaged ({exc.__class__.__name__}: {exc})") from None
    return Solved(h, answers, terminals, numbers)


def solved_values(solved: Solved, arrays, core: str | None = None) -> RaceValues:
    """The race's values from a ``.solved`` file that holds its chances (``solved.numbers``) and the race's
    ``arrays`` (its answers the file's): every live position's chances, as the file rounds them."""
    a, h = arrays, solved.header
    loop = sweeps_of(core)
    leads = len(a.leads)
    active = bytearray(_prod(a.grid) * leads)
    loop.live(leads, a.grid, a.box, a.answers, active)
    values = array("d", bytes(8 * len(active) * a.sides))
    place(solved.numbers, values, leads, a.sides, h["quantum"], core)
    return RaceValues(a, active, values)



def solve_shipped(raw: bytes, digest: str, variant: Variant, model: HandModel, lattice: int | None = None,
                  core: str | None = None) -> RaceValues:
    """``variant``'s race under ``model`` from its ``.solved`` file ``raw`` (for the table whose kept name has
    ``digest``): the match code's answers the file's (its shape checked against the race's arrays), the chances
    the file's where it holds them, else swept (:func:`race.solve_race`). Raises ``ValueError`` for a file that is
    damaged or not this race's, ``LookupError`` for one made for another model."""
    solved = unpack_solved(raw, digest, core)

    def given(arrays):
        if not solved.agrees(arrays):
            raise ValueError("made for a race of another shape")
        return solved.answers, solved.terminals, solved.header["asked"]

    arrays = race_arrays(variant, model, core=core, lattice=lattice, answers=given)
    if solved.numbers is not None:
        return solved_values(solved, arrays, core)
    return solve_race(variant, model, arrays, how=RaceLoop(core))
