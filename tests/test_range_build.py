"""The range tree's build in C (analyzer/hidden/_ranges_kernel.c) against the Python build (analyzer/hidden/ranges.py's
``build_ranges``, which asks the position for every move and the rules for every finished hand's value): array for
array, the tables to 1e-12, on random positions of random block games for two (1 to 4 tiles a hand, before the lead
and after, a pass or two, a lead restricted to some tiles) and on the bundled record's decisions; its WebAssembly
module against the extension; a position it does not take built in Python."""
from __future__ import annotations

import json
import random
import struct
import subprocess
from dataclasses import fields
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from analyzer.hidden import public_ranges
from analyzer.hidden.ranges import (RUN_BYTES, BuildTooLong, RangeTree, TreeTooLarge, build_ranges,
                                    compiled_build_supports, compiled_kernel)
from analyzer.hidden.walk import legal_count
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.rules import find_variant
from analyzer.rules.mechanics import position_for
from analyzer.tiles import tile_set

RECORDS = Path(__file__).resolve().parents[1] / "records"
KERNEL = compiled_kernel()[0]
needs_kernel = pytest.mark.skipif(KERNEL is None or not hasattr(KERNEL, "build"), reason="the kernel is not built")
#: the block game for two under each of its scorings (the losers' pips, a point a game, the pips' difference), with
#: any lead, and the seven-tile block game for two (block7)
RULES = ([find_variant("block", {"players": "2", "score": s}) for s in ("pips", "game", "difference")]
         + [find_variant("block", {"players": "2", "lead": "any"}), find_variant("block7", {})])


def assert_same_tree(a: RangeTree, b: RangeTree) -> None:
    """Every field of the two trees equal (each node's moves as lists of moves; the tables to 1e-12)."""
    for f in fields(RangeTree):
        if f.name == "build_seconds":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "moves":
            x, y = [list(m) for m in x], [list(m) for m in y]
        if f.name == "table":
            assert len(x) == len(y) and all(abs(u - v) <= 1e-12 for u, v in zip(x, y)), f.name
        else:
            assert x == y, f.name


def random_position(rng: random.Random, most: int = 4):
    """A random position of the block game for two (``most`` tiles a hand at most) a few moves in, passes allowed, and
    each player's possible hands: every hand of his count from the tiles he has not seen (his own, the other's, a
    sleeper or two); now and then a lead restricted to some tiles."""
    rules = rng.choice(RULES)
    while True:
        max_pip = rng.choice([3, 4, 5, 6, 9])       # (the double-9 set: tiles past the 32nd bit)
        tiles = list(tile_set(max_pip))
        rng.shuffle(tiles)
        size = rng.choice([s for s in (1, 1, 2, 2, 3, 4) if s <= most])
        if 2 * size > len(tiles):
            continue
        pos = position_for(rules, [tiles[:size], tiles[size:2 * size]], rng.randrange(2), max_pip=max_pip)
        if rng.random() < 0.2:
            pos.opening = sum(t.bit for t in rng.sample(tiles, rng.randint(1, 4)))
        for _ in range(rng.choice([0, 0, 1, 2, 3, 4])):
            legal = pos.legal_moves()
            if not legal:
                break
            pos.push(rng.choice(legal))
        if not pos.legal_moves():
            continue
        counts = [pos.count(0), pos.count(1)]
        unseen = tiles[2 * size:][:rng.choice([0, 0, 1] if size > 2 else [0, 1, 2])]
        pool = [bit for h in pos.hands for bit in range(64) if h >> bit & 1] + [t.index for t in unseen]
        hands = [sorted(sum(1 << bit for bit in c) for c in combinations(pool, counts[s])) for s in (0, 1)]
        if all(hands):
            return rules, pos, hands


def both(rules, pos, hands, **kw):
    mover = pos.turn
    mine = (hands[mover], hands[1 - mover])
    return (build_ranges(rules, pos, mover, mine, compiled=False, **kw),
            build_ranges(rules, pos, mover, mine, compiled=True, **kw))


@needs_kernel
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32))
def test_the_compiled_build_is_the_python_build_on_random_positions(seed):
    rules, pos, hands = random_position(random.Random(seed), most=3)
    assert compiled_build_supports(rules, pos, pos.turn, hands) is not None
    python, c = both(rules, pos, hands)
    assert_same_tree(python, c)
    assert set(pos.legal_moves()) <= set(c.moves[0])      # (the root's public moves: every possible hand's)


@needs_kernel
def test_the_compiled_build_weighs_the_hands_as_the_python_build():
    rng = random.Random(7)
    for _ in range(20):
        rules, pos, hands = random_position(rng, most=2)
        weights = ([rng.randint(1, 5) / 3 for _ in hands[pos.turn]], [rng.randint(1, 5) for _ in hands[1 - pos.turn]])
        assert_same_tree(*both(rules, pos, hands, weights=weights))


@needs_kernel
def test_the_compiled_build_is_the_python_build_with_four_tiles_a_hand():
    rng = random.Random(4)
    done = 0
    while done < 4:
        rules, pos, hands = random_position(rng, most=4)
        if max(pos.count(0), pos.count(1)) < 4 or len(hands[0]) * len(hands[1]) > 40_000:
            continue
        assert_same_tree(*both(rules, pos, hands))
        done += 1


def record_decisions(most: int):
    """The bundled record's positions with a move to make and ``most`` tiles or fewer in either hand, each with the
    players' possible hands."""
    (rep,) = replay_record(read(RECORDS / "openspiel-block7-5.dom"))
    for k in range(len(rep.game.moves)):
        pos = rep.position_at(k)
        if pos.legal_moves() and max(pos.count(0), pos.count(1)) <= most:
            yield (rep.variant, *public_ranges(rep, k))


@needs_kernel
def test_the_compiled_build_is_the_python_build_on_a_records_decisions():
    """Every decision of the bundled record from 2 and 3 tiles a hand on (the 3-and-3 one: the slow test below)."""
    seen = 0
    for rules, pos, ranges in record_decisions(3):
        if (pos.count(0), pos.count(1)) != (3, 3):
            assert_same_tree(*both(rules, pos, ranges))
            seen += 1
    assert seen >= 5


@needs_kernel
@pytest.mark.slow
def test_the_compiled_build_is_the_python_build_on_a_records_three_and_three_decision():
    """371,280 deals, 1,140 hands a player."""
    for rules, pos, ranges in record_decisions(3):
        if (pos.count(0), pos.count(1)) == (3, 3):
            assert_same_tree(*both(rules, pos, ranges))
            return
    raise AssertionError("no decision with 3 tiles in both hands")


@needs_kernel
def test_past_its_budget_either_build_stops():
    rng = random.Random(3)
    while True:
        rules, pos, hands = random_position(rng, most=3)
        if build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn])).nodes > 500:
            break
    for compiled in (False, True):
        with pytest.raises(BuildTooLong):
            build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn]), budget=0.0, compiled=compiled)


def _large_position():
    """The bundled record's decision with 2 tiles in both hands (153 possible hands each, 1,626 public nodes): its
    rules, position and hands, and its tree."""
    for rules, pos, hands in record_decisions(2):
        if (pos.count(0), pos.count(1)) == (2, 2):
            return rules, pos, hands, build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn]))
    raise AssertionError("no decision with 2 tiles in both hands")


@needs_kernel
def test_past_its_memory_cap_either_build_stops_and_within_it_builds_the_same_tree():
    """A four-tile decision of ``--exact-hand 4`` over 22 million deals grew past 22 GB before the system killed it
    (the seventeenth session): a build stops once its arrays and the least a run of them needs (``RUN_BYTES`` a legal
    move) pass ``max_bytes``, both builds alike: at an eighth of its arrays, and at its arrays alone; and a cap it
    stays within changes nothing: the bytes the tree and a run of it take (``memory()``: a decision under that cap is
    never stopped in its build; until the twenty-third session the build had half the cap, counted as allocated)."""
    rules, pos, hands, t = _large_position()
    whole = t.array_bytes()
    for cap in (whole // 8, whole):
        for compiled in (False, True):
            with pytest.raises(TreeTooLarge) as caught:
                build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn]), compiled=compiled,
                             max_bytes=cap)
            assert caught.value.cap == cap and isinstance(caught.value, MemoryError)
    assert whole + RUN_BYTES * legal_count(t.legal) < t.memory("native")
    assert_same_tree(*both(rules, pos, hands, max_bytes=t.memory("native")))


class _OwnValue(type(RULES[0])):
    """The block game for two with a value of its own (no description of it compiles to ints)."""

    def value(self, facts):
        return 2 * super().value(facts)


def test_a_position_the_compiled_build_does_not_take_is_built_in_python():
    """A scoring no description compiles, exposed tiles, a hidden tile: the Python build, and compiled=True refused."""
    rules, pos, hands = random_position(random.Random(11), most=2)
    own = _OwnValue(**{f.name: getattr(rules, f.name) for f in fields(rules)})
    exposed = pos.copy()
    exposed.exposed = hands[pos.turn][0] & exposed.hands[pos.turn]
    for r, p in ((own, pos), (rules, exposed)):
        assert compiled_build_supports(r, p, p.turn, hands) is None
        t = build_ranges(r, p, p.turn, (hands[p.turn], hands[1 - p.turn]))
        assert isinstance(t.moves, list)
        with pytest.raises(ValueError):
            build_ranges(r, p, p.turn, (hands[p.turn], hands[1 - p.turn]), compiled=True)
    # the values are the rules' own: twice the block game's
    a = build_ranges(own, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn]))
    b = build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn]), compiled=False)
    assert list(a.table) == [2 * v for v in b.table]


# -- the WebAssembly module against the extension ---------------------------------------------------------------------
def _build_case(rules, pos, hands, max_bytes: int = 0) -> dict:
    from array import array

    mover = pos.turn
    state, scoring = compiled_build_supports(rules, pos, mover, hands)
    norm = 1.0 / 3.0
    return {"mask0": [str(m) for m in hands[mover]], "mask1": [str(m) for m in hands[1 - mover]], "state": list(state),
            "scoring": list(scoring), "norm": struct.pack("<d", norm).hex(), "max_nodes": -1,
            "max_bytes": max_bytes,
            "_native": KERNEL.build(array("Q", hands[mover]), array("Q", hands[1 - mover]), state, scoring, norm, -1.0,
                                    -1, max_bytes)}


@needs_kernel
def test_the_wasm_build_equals_the_extensions(tmp_path):
    from test_wasm_kernels import _module

    from analyzer.search.wasmcfr import BUILD_ITEMS

    rng = random.Random(85)
    cases = [_build_case(*random_position(rng, most=3)) for _ in range(12)]
    native = [c.pop("_native") for c in cases]
    # and one past its cap of bytes: the extension's MemoryError, the module's K_MEMORY, the same text
    rules, pos, hands, _ = _large_position()
    with pytest.raises(MemoryError) as caught:
        _build_case(rules, pos, hands, max_bytes=1)
    capped = {**_build_case(rules, pos, hands), "max_bytes": 1}
    capped.pop("_native")
    cases.append(capped)
    module = _module("cfr", KERNEL)            # (the module and Node, or the test skipped)
    source = tmp_path / "cfrbuild-cases.json"
    source.write_text(json.dumps(cases))
    done = subprocess.run(["node", str(Path(__file__).parent / "wasm" / "kernels.mjs"), "cfrbuild", str(module),
                           str(source)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    wasm = json.loads(done.stdout)["results"]
    assert wasm.pop() == [4, str(caught.value)] and str(caught.value) == "the public tree passes its memory cap"
    assert len(wasm) == len(native)
    for (arrays, size), w in zip(native, wasm):
        assert w["size"] == size
        for k, (data, item) in enumerate(zip(arrays, BUILD_ITEMS)):
            if item == "8":
                mine = [data[i:i + 8].hex() for i in range(0, len(data), 8)]
            else:
                fmt = {"4": "i", "2": "H", "1": "B"}[item]
                mine = list(struct.unpack(f"<{len(data) // int(item)}{fmt}", data))
            assert w["arrays"][k] == mine, k


# -- the terminal hands' compact indices ------------------------------------------------------------------------------
def test_the_terminal_hands_take_three_bytes_an_entry_and_a_tree_that_needs_more_is_refused(monkeypatch):
    """The terminal hands are the tree's largest lists after the hands alive (1.0 of game 48's 2.6 GB in the
    twenty-fourth session): a hand's index is 16 bits and its class 8, in both builds, so a tree over more than
    ``CFR_HANDS`` hands of a player, or with more than ``RANGE_CLASSES`` classes of a player's hands at a node, is
    refused (``HandTooLarge``: the analysis samples such a decision) before either build writes past them; the compiled
    build and a run refuse more hands too, with their own words."""
    from array import array

    from analyzer.hidden import ranges

    rules, pos, hands, t = _large_position()
    assert {a.itemsize for a in (*t.term_hand, *t.term_class)} == {2, 1}
    assert max(len(h) for h in hands) <= ranges.CFR_HANDS
    pair = (hands[pos.turn], hands[1 - pos.turn])
    monkeypatch.setattr(ranges, "CFR_HANDS", len(pair[0]) - 1)
    for compiled in (False, None):
        with pytest.raises(ranges.HandTooLarge, match=f"{len(pair[0])} possible hands, more than the "
                                                       f"{len(pair[0]) - 1} the tree over hands indexes"):
            build_ranges(rules, pos, pos.turn, pair, compiled=compiled)
    monkeypatch.undo()
    classes = max(c for q in (0, 1) for c in t.term_class[q]) + 1
    assert classes > 1
    monkeypatch.setattr(ranges, "RANGE_CLASSES", classes - 1)
    with pytest.raises(ranges.HandTooLarge, match=f"more than {classes - 1} classes of hands at a node"):
        build_ranges(rules, pos, pos.turn, pair, compiled=False)
    monkeypatch.undo()
    if KERNEL is None or not hasattr(KERNEL, "build"):
        return
    state, scoring = compiled_build_supports(rules, pos, pos.turn, pair)
    many = array("Q", [1 << (k % 20) for k in range(65536)])
    with pytest.raises(ValueError, match="more hands of a player than the tree indexes"):
        KERNEL.build(many, array("Q", pair[1]), state, scoring, 1.0, -1.0, -1, 0)
    with pytest.raises(ValueError, match="more hands of a player than the tree indexes"):
        KERNEL.RangeRun(array("i", [0] * 65536), t.cmasks[1], array("d", [1.0] * 65536), array("d", t.weight[1]),
                        t.player, t.child_at, t.child, t.played[0], t.played[1], t.alive_at[0], t.alive[0],
                        t.alive_at[1], t.alive[1], t.term_at[0], t.term_hand[0], t.term_class[0], t.term_at[1],
                        t.term_hand[1], t.term_class[1], t.table_at, t.width, t.table, t.iset_at, t.iset_hand, t.slot,
                        t.legal, t.draw_at, t.draw_child, t.draw_parent, t.size, -1, -1)


@needs_kernel
def test_memory_counts_every_byte_a_kernels_run_holds():
    """``memory()`` decides whether a decision is refused before any run exists, so it must count all that the kernel's
    run will hold. The kernel counts what its set-up allocates (``cfr_held``: regrets, averages, indices, one thread's
    scratch, the form's tables); on trees of both forms (a record's 2-and-2 decision and random positions of 1 to 4
    tiles a hand over the hands; every deal of 2 tiles a hand of the double-3 and double-4 sets, and after a lead,
    listed) ``memory()`` is at least the tree's arrays and that. (Until the twenty-fourth session it was not: the strategies' stamps, 8 bytes a set,
    were held and not counted.) Its one bound, the leaves' values at their parent counted at every node where one
    moves, keeps it within a third of the kernel's count."""
    from analyzer.hidden.cfr import _CRun, build_tree
    from analyzer.hidden.ranges import RangeCRun
    from analyzer.tiles import Tile
    from test_hidden import BLOCK, block_deals

    trees = [_large_position()[3]]
    rng = random.Random(3)
    for _ in range(12):
        rules, pos, hands = random_position(rng)
        trees.append(build_ranges(rules, pos, pos.turn, (hands[pos.turn], hands[1 - pos.turn])))
    for t in trees:
        held = RangeCRun(t, None, KERNEL).held()
        assert held > 0 and t.array_bytes() + held <= t.memory("native") <= t.array_bytes() + 4 * held // 3
    for deals in (block_deals(3, 2), block_deals(4, 2), block_deals(3, 2, Tile(3, 3))):
        t = build_tree(BLOCK, deals, 0)
        held = _CRun(t, None, KERNEL).held()
        arrays = sum(len(a) * a.itemsize for a in (*t.hand, t.player, t.child_at, t.child, t.term_at, t.term_deal,
                                                   t.term_value, t.iset_at, t.iset_hand, t.slot, t.legal, *t.alive_at,
                                                   *t.alive, *t.parent))
        assert held > 0 and arrays + held <= t.memory("native") <= arrays + 4 * held // 3
