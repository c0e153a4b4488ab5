"""A race's table shipped solved (``equity/shipped.py``, ``data/NAME.solved``, made by ``bench/ship_races.py``).

References: the race solver itself (``race.solve_race``, the match code asked afresh) on the same table; the
shipped file of the smallest shipped race (All Fives for three) against its solve; a damaged file solved past
with no error (the notice says so); the compiled unpacking and its pure-Python twin."""
from __future__ import annotations

import glob
import json
import logging
import os
import random
from array import array
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from analyzer import equity
from analyzer.equity import CACHE_ENV, DATA_DIR, PACKED, SOLVED_ON_LOAD, EquityTable, table_name, write_table
from analyzer.equity.model import HandModel, ModeSample, Outcome
from analyzer.equity.race import RACE_CORE, RaceLoop, race_arrays, solve_race
from analyzer.equity.shipped import (MAGIC, QUANTUM, SUFFIX, _diff, pack_solved, place, solve_shipped, undiff,
                                     unpack_solved)
from analyzer.equity.store import unpack
from analyzer.rules import find_variant

CORES = ["python"] + (["compiled"] if RACE_CORE == "compiled" else [])


def _small_race():
    """Hungarian for three to 21 and a model of 30 random hands (the winner 0, the other two their pips)."""
    v = find_variant("hungarian", {"players": "3", "limit": "20"})
    rng = random.Random(21)
    outcomes = Counter(Outcome(None, 0, (0, rng.randrange(10), rng.randrange(10)), "domino", False, ("any",))
                       for _ in range(30))
    return v, HandModel(v.name, dict(v.options), {"open": ModeSample(30, outcomes)})


class _Digest(Exception):
    pass


def _digest(monkeypatch, variant, raw: bytes, cache: str) -> str:
    """The digest a process looks for the shipped solution of a table ``raw`` under (its kept file's), asked in
    an empty cache folder ``cache`` (where the suite's own has kept the table, the shipped file is not asked for)."""
    def told(variant, model, meta, digest, rules):
        raise _Digest(digest)
    with monkeypatch.context() as m:
        m.setenv(equity.CACHE_ENV, cache)
        m.setattr(equity, "_shipped_solution", told)
        with pytest.raises(_Digest) as got:
            EquityTable.from_packed(variant, raw)
    return str(got.value)


def _no_solving(*args, **kwargs):
    raise AssertionError("solved, not read")


def _live(values) -> list[int]:
    return [p for p, on in enumerate(values._active) if on]


def test_the_shipped_all_fives_for_three_is_its_race_solved(tmp_path, monkeypatch):
    # the smallest shipped race: its first use reads the shipped file (no solve), and gives the race solver's own
    # answers of the match code exactly and every live position's chances within half a millionth (the last
    # player's, 1 less the others', within the others' together); what it read is kept for the next process
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    v = find_variant("all-fives", {"players": "3"})
    path = os.path.join(DATA_DIR, os.path.splitext(table_name(v))[0])
    raw = open(path + PACKED, "rb").read()
    header, _ = unpack(raw)
    assert header["values"] == SOLVED_ON_LOAD and os.path.exists(path + SUFFIX)
    monkeypatch.setattr(equity, "solve_race", _no_solving)
    table = EquityTable.from_packed(v, raw)
    fresh = solve_race(v, table.model)
    got = table.values
    assert got.arrays.answers == fresh.arrays.answers and got.arrays.terminals == fresh.arrays.terminals
    assert _live(got) == _live(fresh)
    n = v.seating.sides
    worst = max(abs(got._values[p * n + k] - fresh._values[p * n + k]) for p in _live(fresh) for k in range(n))
    assert 0 < worst <= (n - 1) * 0.5 / QUANTUM + 1e-12
    assert all(abs(sum(got._values[p * n:(p + 1) * n]) - 1) < 1e-12 for p in _live(got))
    assert len(list(tmp_path.glob("*.race"))) == 1


def test_every_shipped_solution_is_made_for_its_tables_model(monkeypatch, tmp_path):
    # each .solved file is read only for the model it was made from: its digest is the one a process looks for it
    # under (of the variant, the table's meta and its model), and every table stored as its model ships one
    races = []
    for path in sorted(glob.glob(os.path.join(DATA_DIR, "*" + PACKED))):
        raw = open(path, "rb").read()
        header, _ = unpack(raw)
        if header.get("values") != SOLVED_ON_LOAD:
            assert not os.path.exists(path[:-len(PACKED)] + SUFFIX)
            continue
        v = find_variant(header["variant"], header["rules"] or None)
        shipped = open(path[:-len(PACKED)] + SUFFIX, "rb").read()
        assert shipped.startswith(MAGIC)
        head = json.loads(shipped[len(MAGIC):shipped.index(b"\n", len(MAGIC))])
        assert head["digest"] == _digest(monkeypatch, v, raw, str(tmp_path)), path
        assert (head["quantum"] is None) == bool(header.get("lattice"))       # (a lattice's: its answers alone)
        races.append(os.path.basename(path))
    assert len(races) == 6


@pytest.mark.parametrize("with_values", [True, False], ids=["chances", "answers"])
def test_a_shipped_solution_is_read_instead_of_solved(tmp_path, monkeypatch, with_values):
    # a table whose solution ships: with its chances, no sweep (within half a millionth of the solve); with its
    # answers alone (a lattice's), swept from them: the solve's own chances, bit for bit
    v, model = _small_race()
    solved = solve_race(v, model)
    for core in CORES if with_values else CORES[-1:]:      # (the twin's sweeps: test_equity_race.py's)
        packed = pack_solved(solved, "d" * 24, with_values)
        with monkeypatch.context() as m:
            if with_values:
                m.setattr("analyzer.equity.shipped.solve_race", _no_solving)
            got = solve_shipped(packed, "d" * 24, v, model, core=core)
        assert got.arrays.answers == solved.arrays.answers and _live(got) == _live(solved)
        if with_values:
            assert max(abs(x - y) for x, y in zip(got._values, solved._values)) <= 2 * 0.5 / QUANTUM + 1e-12
        else:
            assert got._values == solve_race(v, model, how=RaceLoop(core))._values
        with pytest.raises(LookupError):                                    # (made for another model)
            solve_shipped(packed, "e" * 24, v, model, core=core)


def _damaged(packed: bytes) -> dict[str, bytes]:
    end = packed.index(b"\n", len(MAGIC))
    head = json.loads(packed[len(MAGIC):end])
    body = bytearray(packed[end + 1:])
    body[len(body) // 2] ^= 0x55
    other = {**head, "box": [b + 1 for b in head["box"]]}
    return {"cut short": packed[:len(packed) * 2 // 3], "a byte changed": packed[:end + 1] + bytes(body),
            "header not JSON": packed[:end - 3] + packed[end:],
            "another race's shape": MAGIC + json.dumps(other).encode() + packed[end:]}


@pytest.mark.slow
def test_a_damaged_shipped_solution_is_solved_past_and_said_so(tmp_path, monkeypatch, caplog):
    # a shipped file that cannot serve (damaged, cut short, another race's): no error, the race solved as if none
    # were shipped (the same chances as the solver's), and an INFO record says why; one made for another model (a
    # table of one's own under the shipped name) is passed over silently
    from click.testing import CliRunner

    from analyzer.cli import main
    from analyzer.match import random_match
    from analyzer.notation import write

    v, model = _small_race()
    solved = solve_race(v, model)
    stem = os.path.splitext(table_name(v))[0]
    write_table(EquityTable(v, model, solved, {"values": SOLVED_ON_LOAD}), str(tmp_path / (stem + PACKED)))
    raw = (tmp_path / (stem + PACKED)).read_bytes()
    monkeypatch.setattr(equity, "DATA_DIR", str(tmp_path))
    digest = _digest(monkeypatch, v, raw, str(tmp_path / "cache-first"))
    packed = pack_solved(solved, digest)
    positions = [p for p in solved if p[0][0] in [(0, 0, 0), (19, 12, 5), (20, 20, 0)]]
    for k, (why, bad) in enumerate([*_damaged(packed).items(), ("for another model", pack_solved(solved, "f" * 24))]):
        (tmp_path / (stem + SUFFIX)).write_bytes(bad)
        monkeypatch.setenv(CACHE_ENV, str(tmp_path / f"cache{k}"))
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="analyzer.equity"):
            values = EquityTable.from_packed(v, raw).values
        assert [values[p] for p in positions] == [solved[p] for p in positions], why
        notes = [r.getMessage() for r in caplog.records if "shipped solution" in r.getMessage()]
        assert len(notes) == (why != "for another model"), (why, notes)
        assert all(n.startswith("the shipped solution of hungarian (players=3, limit=20) cannot be read (")
                   for n in notes)
    # through the command: the analysis as with no shipped file, the notice on standard error, no traceback
    (tmp_path / (stem + SUFFIX)).write_bytes(_damaged(packed)["a byte changed"])
    record = write(random_match(v, 1, games=2))
    monkeypatch.setenv(equity.TABLES_ENV, str(tmp_path))
    runs = []
    for k in range(2):
        monkeypatch.setenv(CACHE_ENV, str(tmp_path / f"cli{k}"))
        runs.append(CliRunner().invoke(main, ["analyze", "-", "--scale", "match"], input=record))
        if k == 0:
            (tmp_path / (stem + SUFFIX)).unlink()
    assert runs[0].exit_code == 0 and runs[0].stdout == runs[1].stdout and "MWC" in runs[0].stdout
    assert "domino: the shipped solution of hungarian" in runs[0].stderr and "Traceback" not in runs[0].stderr


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.integers(1, 3), st.randoms(use_true_random=False))
def test_the_unpacking_in_c_and_its_twin_undo_the_packing(dims, blocks, rng):
    numbers = array("I", [rng.randrange(2 ** 32) for _ in range(blocks * _size(dims))])
    packed = array("I", numbers)
    _diff(packed, tuple(dims))
    for core in CORES:
        again = array("I", packed)
        undiff(again, tuple(dims), core)
        assert again == numbers
    leads, sides = blocks, 3
    chances = array("i", [rng.randrange(-10 ** 6, 10 ** 6) for _ in range(_size(dims) * leads * (sides - 1))])
    placed = []
    for core in CORES:
        values = array("d", bytes(8 * _size(dims) * leads * sides))
        place(chances, values, leads, sides, QUANTUM, core)
        placed.append(values)
    assert all(p == placed[0] for p in placed)
    g, lead = _size(dims) - 1, leads - 1
    at = (g * leads + lead) * sides
    first = chances[(lead * (sides - 1)) * _size(dims) + g] / QUANTUM
    assert placed[0][at] == first and abs(sum(placed[0][at:at + sides]) - 1) < 1e-12


def _size(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def test_a_shipped_solution_read_in_c_and_by_its_twin_is_the_same(tmp_path):
    v, model = _small_race()
    packed = pack_solved(solve_race(v, model), "d" * 24)
    got = [unpack_solved(packed, "d" * 24, core) for core in CORES]
    assert all(g.answers == got[0].answers and g.numbers == got[0].numbers for g in got)
    assert got[0].answers == race_arrays(v, model).answers
