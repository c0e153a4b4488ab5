"""The CFR+ kernel's walks over several threads (``cfr_threads``): the same values, bit for bit, as one thread's, on both
forms of the tree, and a decision's answer the same whatever the threads (docs/hidden.md, "Walks over several
threads")."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from analyzer.analysis.hiddenfair import CFR_SHOWN, exact_deals
from analyzer.generate import random_game
from analyzer.hidden import public_hands
from analyzer.hidden.cfr import build_tree, cfr_decision, kernel, start_run
from analyzer.hidden.ranges import PARALLEL_NODES, build_ranges, levels_of, split_depth
from analyzer.replay import replay
from analyzer.hidden.walk import legal_bit
from test_hidden import BLOCK
from spies import spy_on

pytestmark = pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")


@lru_cache(maxsize=None)
def range_case():
    """``domino new --variant block --players 2 --seed 372``'s move 9: 3 tiles in the larger hand, 775,200 deals, its
    tree over the hands (137,921 public nodes)."""
    rep = replay(random_game(BLOCK, 372))
    pos = rep.position_at(8)
    actual, ranges, _, solver = exact_deals(rep, 8, pos.turn, pos.legal_moves(), 3)
    assert solver == "cfr-ranges"
    mover = actual.turn
    return actual, ranges, build_ranges(BLOCK, actual, mover, (ranges[mover], ranges[1 - mover]))


@lru_cache(maxsize=None)
def deal_case():
    """Random game 428's move 9: 4 tiles in the larger hand, 36,036 deals listed, its tree over the deals (56,117
    public nodes)."""
    rep = replay(random_game(BLOCK, 428))
    actual, deals = public_hands(rep, 8, 50_000)
    return build_tree(BLOCK, deals, actual.turn, None, actual)


def answers(t, threads: int, forced=None) -> list:
    """A run's bracket, hand values, whole average and mover's set's average after a few iterations, then after a set
    held to a move on the same run (a decision's warm start), as bytes: to be compared bit for bit."""
    run = start_run(t, forced, True, threads)
    got = []
    i = t.iset_at[0]
    moves = t.child_at[1] - t.child_at[0]
    legal = next(a for a in range(moves) if legal_bit(t.legal, t.slot[i] + a))
    for step in range(3):
        run.iterate(3)
        got.append((run.bracket(), tuple(run.hand_values()), bytes(run.average()), bytes(run.set_average(i, moves))))
        if step == 1:
            run.force(i, legal, True)
    return got


@pytest.mark.parametrize("case", ["range", "deal"])
def test_a_walk_over_several_threads_gives_one_threads_values_bit_for_bit(case):
    t = range_case()[2] if case == "range" else deal_case()
    levels = levels_of(t)
    assert t.nodes >= PARALLEL_NODES
    for n in (2, 3, 7):       # (it does split: where the memory's count says it does)
        assert start_run(t, None, True).threads(n) == split_depth(t, levels, n) > 0
    assert start_run(t, None, True).threads(1) == 0
    alone = answers(t, 1)
    for threads in (2, 3, 7):
        assert answers(t, threads) == alone, threads
    i = t.iset_at[0]
    held = (i, next(a for a in range(t.child_at[1] - t.child_at[0]) if legal_bit(t.legal, t.slot[i] + a)))
    assert answers(t, 3, held) == answers(t, 1, held)


def test_a_decision_is_the_same_over_two_threads_and_counts_their_memory():
    actual, ranges, t = range_case()
    one = cfr_decision(BLOCK, actual, ranges=ranges, tol=CFR_SHOWN, budget=60, shown=CFR_SHOWN)
    two = cfr_decision(BLOCK, actual, ranges=ranges, tol=CFR_SHOWN, budget=60, shown=CFR_SHOWN, threads=2)
    assert one.closed and one.iterations == two.iterations
    assert replace(two, seconds=0.0, memory=0) == replace(one, seconds=0.0, memory=0)
    # a second thread's scratch and the tasks' vectors: more than nothing, less than the arrays
    assert 0 < two.memory - one.memory < t.array_bytes()
    assert t.memory("native", 2) == two.memory and t.memory("native", 1) == one.memory
    assert t.memory("wasm", 2) == t.memory("wasm", 1)          # (the WebAssembly module walks in one thread)
    # a cap the second thread's scratch would pass: not refused (that never depends on the threads), one thread
    between = (t.memory("native", 1) + t.memory("native", 2)) // 2
    capped = cfr_decision(BLOCK, actual, ranges=ranges, tol=CFR_SHOWN, budget=1, memory=between, threads=2)
    assert capped.memory == t.memory("native", 1)


def test_the_fair_analysis_gives_each_exact_decision_its_workers_as_threads(monkeypatch):
    """``analyze --fair --jobs N``: the decisions valued exactly under hidden information are solved before the fair
    run's pool is made, each over N threads (the fair run's workers; ``--jobs 1``: one)."""
    from pathlib import Path

    from analyzer.analysis import hiddenfair
    from analyzer.analysis.fair import fair_analyze
    from analyzer.analysis.settings import FairRun, FairSettings
    from analyzer.match import replay_record
    from analyzer.notation import read

    seen = spy_on(monkeypatch, hiddenfair, "cfr_decision", "threads")
    (rep,) = replay_record(read(Path(__file__).resolve().parents[1] / "records" / "openspiel-block7-5.dom"))
    for workers in (3, 1):
        seen.clear()
        got = fair_analyze(rep, settings=FairSettings(exact_hidden=True), run=FairRun(workers=workers))
        assert seen == [workers]          # (its one three-tile decision, move 12)
        assert sum(d.fair is not None and d.fair.method == hiddenfair.METHOD for d in got.decisions) == 1
