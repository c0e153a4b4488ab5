"""The compact form of the MWC tables (``analyzer.equity.store``), in which they ship, against their JSON
form (``EquityTable.as_dict``), the documented exchange format.

Facts: a table read from its compact file has, at every position, exactly the chance its JSON form
states (6 decimals), the same model and the same meta; writing either form and reading it back gives
the table again; each shipped table is there in one form only (a JSON file beside a compact one of
the same name would be shadowed); and bytes that are not a table are refused with their name."""
from __future__ import annotations

import glob
import json
import lzma
import os
import zlib
from unittest.mock import patch

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.cli import main
from analyzer.equity import (DATA_DIR, SOLVED_ON_LOAD, EquityTable, HandModel, load_table, table_name, write_table,
                             table_problem as store_problem)
from analyzer.equity import store
from analyzer.equity.store import PackedValues, pack, unpack
from analyzer.rules import find_variant
from conftest import RECORDS

SHIPPED = sorted(os.path.basename(p) for p in glob.glob(os.path.join(DATA_DIR, "*.mwc")))


def _variant_of(header: dict):
    return find_variant(header["variant"], header["rules"] or None)


def _positions(data: dict) -> dict:
    """The positions of a table's JSON form, read straight from its groups (not through the loader)."""
    out = {}
    for g in data["table"]:
        rest = (g["pending"], g["playoff"], g["last"], None if g["wins"] is None else tuple(g["wins"]), g["games"])
        for scores, p in zip(g["scores"], g["mwc"]):
            out[((tuple(scores), *rest), tuple(g["lead"]))] = tuple(p) if isinstance(p, list) else p    # (each player's)
    return out


# (a table of half a megabyte or more packed, Quinientos' 970,843 positions: most of a minute)
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow)
                                  if os.path.getsize(os.path.join(DATA_DIR, n)) >= 1 << 19 else n for n in SHIPPED])
def test_shipped_compact_table_is_its_json_form(name):
    with open(os.path.join(DATA_DIR, name), "rb") as fh:
        raw = fh.read()
    header, _ = unpack(raw, name)
    v = _variant_of(header)
    if header.get("values") == SOLVED_ON_LOAD:     # a race stored as its model, solved when loaded (test_equity_race)
        assert name == f"{os.path.splitext(table_name(v))[0]}.mwc" and header["groups"] == []
        assert header["solver"]["name"] == "race" and v.seating.sides > 2
        return
    assert name == f"{os.path.splitext(table_name(v))[0]}.mwc" and load_table(v) is not None
    table = EquityTable.from_packed(v, raw, name)
    text = json.dumps(table.as_dict(), separators=(",", ":"))        # what `domino equity -o X.json` writes
    data = json.loads(text)
    assert data["positions"] == header["positions"] == len(table.values)
    again = EquityTable.from_dict(v, data)
    packed = dict(table.values)         # (read once: a packed table reads each position as it is asked for)
    assert dict(again.values) == _positions(data) == packed
    assert again.model == table.model and again.meta == table.meta
    # the JSON form packs back to the very bytes shipped: what they unpack to is ``packed`` again (checked as
    # bytes, not by reading every position of a second packed table: a third of this test's time)
    assert pack(data) == raw


def test_each_table_ships_in_one_form():
    tables = [p for p in os.listdir(DATA_DIR) if not p.startswith("bands_") and p.endswith((".json", ".mwc"))]
    stems = [os.path.splitext(p)[0] for p in tables]
    assert len(stems) == len(set(stems)), sorted(tables)


def test_write_and_read_both_forms(tmp_path):
    v = find_variant("milo")
    table = load_table(v)
    stem = os.path.splitext(table_name(v))[0]
    for folder, forms in (("json", (".json",)), ("mwc", (".mwc",)), ("both", (".json", ".mwc"))):
        (tmp_path / folder).mkdir()
        for suffix in forms:
            write_table(table, str(tmp_path / folder / (stem + suffix)))
    from_json, from_packed, both = (load_table(v, str(tmp_path / f)) for f in ("json", "mwc", "both"))
    assert dict(from_json.values) == dict(from_packed.values) == dict(table.values)
    assert from_json.model == from_packed.model == table.model and from_json.meta == from_packed.meta
    assert isinstance(from_json.values, dict) and isinstance(from_packed.values, PackedValues)
    assert isinstance(both.values, PackedValues)              # the compact form is read first


def test_equity_command_writes_the_compact_form(tmp_path):
    out = tmp_path / "milo.mwc"
    run = CliRunner().invoke(main, ["equity", "--variant", "milo", "-o", str(out)])
    assert run.exit_code == 0, run.output
    v = find_variant("milo")
    assert dict(EquityTable.from_packed(v, out.read_bytes()).values) == dict(load_table(v).values)


def test_not_a_table_is_refused_by_name():
    with pytest.raises(ValueError, match="odd.mwc: not a compact MWC table"):
        unpack(b'{"format": 1}', "odd.mwc")
    with open(os.path.join(DATA_DIR, "chiva.mwc"), "rb") as fh:
        raw = fh.read()
    with pytest.raises(ValueError, match="short.mwc: its groups' blocks take .* bytes, the file has"):
        unpack(raw[:-10], "short.mwc")
    header, values = unpack(raw[:-100] + bytes(100), "zeroed.mwc")               # the last block damaged
    with pytest.raises(ValueError, match="zeroed.mwc: a group's block is damaged"):
        dict(values)


_group = st.fixed_dictionaries({
    "pending": st.integers(0, 3), "playoff": st.booleans(), "last": st.none() | st.integers(0, 1),
    "wins": st.none() | st.lists(st.integers(0, 9), min_size=2, max_size=2), "games": st.none() | st.integers(0, 3),
    "lead": st.sampled_from([["side", 0], ["side", 1], ["holder", "[6-6]", True], ["any"]]),
    "cells": st.integers(2, 4).flatmap(lambda sides: st.dictionaries(         # two sides, or three or four players
        st.lists(st.integers(0, 499 if sides == 2 else 120), min_size=sides, max_size=sides).map(tuple),
        st.integers(0, 10 ** 6).map(lambda k: round(k / 1e6, 6)), min_size=1, max_size=40))})


@settings(max_examples=60, deadline=None)
@given(st.lists(_group, min_size=1, max_size=5, unique_by=lambda g: (g["pending"], g["playoff"], g["last"],
                                                                      str(g["wins"]), g["games"], str(g["lead"]))))
def test_any_table_round_trips(groups):
    data = {"format": 1, "variant": "x", "model": {}, "positions": sum(len(g["cells"]) for g in groups),
            "table": [{**{k: g[k] for k in ("pending", "playoff", "last", "wins", "games", "lead")},
                       "scores": [list(s) for s in g["cells"]], "mwc": list(g["cells"].values())} for g in groups]}
    header, values = unpack(pack(data))
    want = _positions(data)
    assert dict(values) == want and len(values) == len(want)
    for (key, lead), p in want.items():                       # each looked up alone, exactly
        assert values[(key, lead)] == p
        off = ((key[0][0] + 1, *key[0][1:]), *key[1:]), lead
        assert values.get(off) == want.get(off)
    assert header["positions"] == len(want) and "table" not in header


@settings(max_examples=60, deadline=None)
@given(st.lists(_group, min_size=1, max_size=3, unique_by=lambda g: (g["pending"], g["playoff"], g["last"],
                                                                      str(g["wins"]), g["games"], str(g["lead"]))),
       st.integers(1, 7))
def test_a_table_in_blocks_finds_every_position_in_its_block(groups, chunk):
    """Written in blocks of ``chunk`` positions (the shipped tables: ``CHUNK``), each looked-up position is
    found in the one block that holds it, scores between two blocks' first ones included; a position not
    in the table is found nowhere; and a reader takes the block size from the file, not its own ``CHUNK``."""
    data = {"format": 1, "variant": "x", "model": {}, "positions": sum(len(g["cells"]) for g in groups),
            "table": [{**{k: g[k] for k in ("pending", "playoff", "last", "wins", "games", "lead")},
                       "scores": [list(s) for s in g["cells"]], "mwc": list(g["cells"].values())} for g in groups]}
    with patch.object(store, "CHUNK", chunk):
        raw = pack(data)
    header, values = unpack(raw)
    assert all(len(g.get("firsts", [0])) == -(-g["count"] // chunk) for g in header["groups"])
    want = _positions(data)
    for (key, lead), p in want.items():
        assert values[(key, lead)] == p
        for d in (-1, 1):
            off = ((key[0][0] + d, *key[0][1:]), *key[1:]), lead
            assert values.get(off) == want.get(off)
    assert dict(values) == want and len(values) == len(want)


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 4), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6),
                                             st.integers(0, 6), st.integers(1, 10 ** 6)), min_size=1, max_size=30,
                                   unique_by=lambda t: t[:4]))
def test_every_players_chances_round_trip(sides, rows):
    """A table of individual players holds every player's chance at each position (a list in the JSON form):
    the compact form gives each position's list back as it was written (6 decimals)."""
    rows = list({r[:sides]: r for r in rows}.values())          # one row a position (three players: three scores)
    rows = [(r[:sides], [round(r[4] / 1e6 / sides * (k + 1) / (sides + 1) * 2, 6) for k in range(sides)]) for r in rows]
    data = {"format": 1, "model": {}, "positions": len(rows),
            "table": [{"pending": 0, "playoff": False, "last": None, "wins": None, "games": None, "lead": ["side", 0],
                       "scores": [list(sc) for sc, _ in rows], "mwc": [m for _, m in rows]}]}
    _, values = unpack(pack(data))
    for sc, m in rows:
        assert values[((tuple(sc), 0, False, None, None, None), ("side", 0))] == tuple(m)
    assert len(values) == len(rows)


def test_a_table_of_ones_own_is_found_through_domino_tables(tmp_path, monkeypatch):
    """A table made by ``domino equity -o DIR/NAME.mwc`` for rules no shipped table has is used by every
    command once ``DOMINO_TABLES`` names DIR; without it the match scale says how to make one."""
    from analyzer.equity import TABLES_ENV, compute_table
    from analyzer.analysis.match_scale import why_not

    v = find_variant("draw", {"target": "2"})
    monkeypatch.delenv(TABLES_ENV, raising=False)
    assert load_table(v) is None
    assert f"-o DIR/{table_name(v)[:-5]}.mwc" in why_not(v) and TABLES_ENV in why_not(v)
    made = compute_table(v, hands=50, seed=3)
    write_table(made, str(tmp_path / (table_name(v)[:-5] + ".mwc")))
    monkeypatch.setenv(TABLES_ENV, str(tmp_path))
    found = load_table(v)
    assert found is not None and why_not(v) is None
    assert dict(found.values) == pytest.approx({k: round(p, 6) for k, p in made.values.items()})
    record = (RECORDS / "variant-draw.dom").read_text().replace('[Variant "draw"]', '[Variant "draw"]\n[Rules "target=2"]')
    path = tmp_path / "two.dom"
    path.write_text(record, encoding="utf-8")
    out = CliRunner().invoke(main, ["analyze", "--scale", "match", "--json", str(path)])
    game = json.loads(out.output)["games"][0]
    assert game["match_scale"]["table"] == table_name(v) and all(
        0 <= a["mwc"] <= 1 for d in game["decisions"] for a in d["alternatives"])


def test_a_table_file_that_cannot_be_read_is_said_and_the_record_graded_in_points(tmp_path, monkeypatch):
    """A file in ``DOMINO_TABLES`` that is no MWC table: the analysis grades in points and its match-scale note
    names the file and what is wrong with it (no internal error); ``domino equity`` says so and exits 1."""
    from analyzer.equity import TABLES_ENV

    v = find_variant("jamaican")
    (tmp_path / (table_name(v)[:-5] + ".mwc")).write_bytes(b"not a table")
    monkeypatch.setenv(TABLES_ENV, str(tmp_path))
    out = CliRunner().invoke(main, ["analyze", "--scale", "match", "--json", str(RECORDS / "match-jamaican.dom")])
    data = json.loads(out.output)
    assert not [d for g in data["games"] for d in g.get("diagnostics", []) if d["code"] == "internal-error"]
    notes = {g["match_scale"]["note"] for g in data["games"]}
    assert all(str(tmp_path) in n and "not a compact MWC table" in n for n in notes)
    assert all(a.get("mwc") is None for g in data["games"] for d in g["decisions"] for a in d["alternatives"])
    done = CliRunner().invoke(main, ["equity", "--variant", "jamaican"])
    assert done.exit_code == 1 and "cannot be read" in done.output and "Traceback" not in done.output


@settings(max_examples=60, deadline=None)
@given(st.lists(_group, min_size=1, max_size=3, unique_by=lambda g: (g["pending"], g["playoff"], g["last"],
                                                                      str(g["wins"]), g["games"], str(g["lead"]))),
       st.integers(1, 7))
def test_the_compiled_reader_finds_what_the_table_holds(groups, chunk):
    """The compiled reader (``_race.find``: one position read off a block in place) and its pure-Python twin
    (the block added up, searched by bisection) give each position's chance as the JSON form states it, and
    nothing for scores the table does not hold (one either side of each, past a block's ends included)."""
    data = {"format": 1, "variant": "x", "model": {}, "positions": sum(len(g["cells"]) for g in groups),
            "table": [{**{k: g[k] for k in ("pending", "playoff", "last", "wins", "games", "lead")},
                       "scores": [list(s) for s in g["cells"]], "mwc": list(g["cells"].values())} for g in groups]}
    with patch.object(store, "CHUNK", chunk):
        raw = pack(data)
    compiled, python = (unpack(raw, core=core)[1] for core in ("compiled", "python"))
    want = _positions(data)
    for (key, lead), p in want.items():
        assert compiled.get((key, lead)) == python.get((key, lead)) == p
        for d in (-1, 1):
            off = ((key[0][0] + d, *key[0][1:]), *key[1:]), lead
            assert compiled.get(off) == python.get(off) == want.get(off)


def test_a_damaged_block_is_refused_when_a_position_in_it_is_looked_up():
    with open(os.path.join(DATA_DIR, "chiva.mwc"), "rb") as fh:
        raw = fh.read()
    header, _ = unpack(raw)
    g = header["groups"][-1]
    key = (((*g["lo"],), g["pending"], g["playoff"], g["last"], None if g["wins"] is None else tuple(g["wins"]),
            g["games"]), tuple(g["lead"]))
    for core in ("compiled", "python"):
        _, values = unpack(raw[:-100] + bytes(100), "zeroed.mwc", core)
        with pytest.raises(ValueError, match="zeroed.mwc: a group's block is damaged"):
            values.get(key)


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_model_holds_the_points_its_outcomes_add_up_to(name):
    """A compact file keeps each lead mode's points per side summed over its hands (``score_totals``: what every
    player's mean hand value, the deal's luck, is read off) beside its outcomes, which are parsed only when asked
    for: the sums are exactly those of the outcomes' scores."""
    with open(os.path.join(DATA_DIR, name), "rb") as fh:
        header, _ = unpack(fh.read(), name)
    model = HandModel.from_dict(header["model"])
    for mode, sample in model.modes.items():
        assert "_rows" in vars(sample)              # (not parsed yet)
        stored = header["model"]["modes"][mode]["score_totals"]
        sides = max(len(o.scores) for o in sample.outcomes)
        assert stored == [sum(c * o.scores[r] for o, c in sample.outcomes.items() if r < len(o.scores))
                          for r in range(sides)]


def test_a_damaged_model_is_refused_when_the_file_is_read(tmp_path, monkeypatch):
    """A byte changed in the model's outcomes (which are parsed only when asked for) is found by their CRC when
    the file is read: the table cannot be read, and the match scale says why, naming the file."""
    v = find_variant("whist")
    raw = open(os.path.join(DATA_DIR, f"{os.path.splitext(table_name(v))[0]}.mwc"), "rb").read()
    line = raw.index(b"\n", len(store.MAGIC))
    at = line + 1 + int(raw[len(store.MAGIC):line]) + 40           # (in the model's outcomes, past the header)
    damaged = raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1:]
    with pytest.raises(ValueError, match="odd.mwc: its model's outcomes are damaged"):
        unpack(damaged, "odd.mwc")
    with pytest.raises(ValueError, match="short.mwc: its model's outcomes are damaged"):
        unpack(raw[:at], "short.mwc")
    (tmp_path / f"{os.path.splitext(table_name(v))[0]}.mwc").write_bytes(damaged)
    assert load_table(v, str(tmp_path)) is None
    assert "its model's outcomes are damaged" in store_problem(v)
    monkeypatch.setenv("DOMINO_TABLES", str(tmp_path))      # (a game of bad points: the file is still the reason)
    out = CliRunner().invoke(main, ["analyze", "--scale", "match", "--json", str(RECORDS / "match-whist.dom")])
    notes = {g["match_scale"]["note"] for g in json.loads(out.output)["games"]}
    assert all(str(tmp_path) in n and "its model's outcomes are damaged" in n for n in notes), notes


def _zlib_blocks(raw: bytes) -> tuple[list, bytes]:
    """The groups of the compact table ``raw`` and its blocks as the first two layouts wrote them (zlib's)."""
    groups, blocks, at = unpack(raw)[0]["groups"], [], 0
    payload = raw[len(raw) - sum(g["size"] for g in groups):]
    for g in groups:
        sizes, start, out = g.get("sizes") or [g["size"]], g["at"], []
        for size in sizes:
            out.append(zlib.compress(lzma.decompress(payload[start:start + size]), 9))
            start += size
        g["at"], g["size"] = at, sum(map(len, out))
        if "sizes" in g:
            g["sizes"] = [len(b) for b in out]
        at += g["size"]
        blocks += out
    return groups, b"".join(blocks)


@pytest.mark.parametrize("layout", [1, 2])
def test_a_file_of_an_earlier_layout_is_read_as_before_and_repacked_the_same(layout):
    """A compact table written before the model's outcomes had a line of their own (``DOMINO-MWC 1``: the whole
    model in the header) or before its text and blocks were packed as XZ streams (``DOMINO-MWC 2``: the header and
    outcomes as lines of JSON, the blocks zlib's) reads as the same table, and ``store.repack`` writes it in the
    current layout, as the same table again."""
    v = find_variant("whist")
    raw = open(os.path.join(DATA_DIR, f"{os.path.splitext(table_name(v))[0]}.mwc"), "rb").read()
    assert raw.startswith(store.MAGIC)
    table = EquityTable.from_packed(v, raw)
    data = table.as_dict()
    header = {k: v for k, v in data.items() if k != "table"}
    header["groups"], blocks = _zlib_blocks(raw)
    if layout == 1:
        for sample in data["model"]["modes"].values():
            del sample["score_totals"]              # (the first layout's files have no such key)
        older = b"DOMINO-MWC 1\n" + json.dumps(header, separators=(",", ":")).encode() + b"\n" + blocks
    else:
        modes = header["model"]["modes"]
        rows = json.dumps({m: s["outcomes"] for m, s in modes.items()}, separators=(",", ":")).encode()
        header["model"] = {**header["model"], "modes": {m: {k: x for k, x in s.items() if k != "outcomes"}
                                                        for m, s in modes.items()}}
        header["outcomes"] = {"bytes": len(rows), "crc32": zlib.crc32(rows)}
        older = b"DOMINO-MWC 2\n" + json.dumps(header, separators=(",", ":")).encode() + b"\n" + rows + b"\n" + blocks
    for form in (older, store.repack(older)):
        again = EquityTable.from_packed(v, form)
        assert again.model == table.model and again.meta == table.meta and dict(again.values) == dict(table.values)
    assert store.repack(older).startswith(store.MAGIC) and len(store.repack(older)) < len(older)
