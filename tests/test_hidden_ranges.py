"""The public tree over each player's hands (analyzer.hidden.ranges) against the tree over deals (analyzer.hidden.cfr) and
the sequence-form LP.

The range tree never lists a deal: the deals are every disjoint pair of the two players' hands, and the kernel sums a
terminal hand's values over the other's hands disjoint from it by inclusion-exclusion over its tiles, where the Python
walk (the reference) sums the disjoint pairs one by one. The deal tree sums deal by deal: on every game both take, the
values agree to 1e-6."""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

pytest.importorskip("scipy")

from analyzer.hidden import build_game, public_hands, public_ranges, solve_game  # noqa: E402
from analyzer.hidden.cfr import build_tree, cfr_decision, kernel, solve  # noqa: E402
from analyzer.hidden.ranges import (RangeCRun, RangePyRun, build_ranges, disjoint_pairs,  # noqa: E402
                                    ranges_of_deals)
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.tiles import Tile  # noqa: E402
from analyzer.hidden.walk import legal_bit  # noqa: E402
from test_hidden import BLOCK, block_deals  # noqa: E402

ROUNDING = 1e-9
# The compiled run sums a node's terminal values in another order than the Python walk (by inclusion-exclusion; the
# leaves where the mover goes out, at their parent), so a value's last bits differ, and regret matching divides the
# regrets (differences of such values) by their sum: an average strategy agrees to some 1e-11 relatively, not to the
# last bit.
AVERAGE = 1e-9
RECORDS = Path(__file__).resolve().parents[1] / "records"


def games():
    """Every deal of 2 tiles a hand of the double-2 and double-3 sets, and after a lead of the double-3 set."""
    return [("2x2", block_deals(2, 2)), ("3x2", block_deals(3, 2)), ("3x2 led", block_deals(3, 2, Tile(3, 3)))]


def range_tree(deals):
    first = deals[0].turn
    found = ranges_of_deals([tuple(d.hands) for d in deals], (first, 1 - first))
    assert found is not None
    return build_ranges(BLOCK, deals[0], first, found)


def test_every_deal_of_the_sets_is_a_disjoint_pair_of_hands_and_a_sample_is_not():
    deals = block_deals(3, 2)
    hands = [tuple(d.hands) for d in deals]
    a, b = ranges_of_deals(hands, (0, 1))
    assert disjoint_pairs(a, b) == len(deals) == sum(1 for x in a for y in b if not x & y)
    assert ranges_of_deals(random.Random(5).sample(hands, 100), (0, 1)) is None


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_the_kernel_by_inclusion_exclusion_runs_the_python_walk_over_pairs():
    """Iteration by iteration, with and without a forced move, the compiled run's brackets, averages and hand values
    are the Python run's (which sums each terminal hand over the other's disjoint hands one by one)."""
    for name, deals in games():
        t = range_tree(deals)
        at = t.iset_at[0]
        forced = (at, next(a for a in range(t.child_at[1] - t.child_at[0]) if legal_bit(t.legal, t.slot[at] + a)))
        for fix in (None, forced):
            py, c = RangePyRun(t, fix), RangeCRun(t, fix, kernel())
            for _ in range(3):
                py.iterate(3)
                c.iterate(3)
                assert c.bracket() == pytest.approx(py.bracket(), abs=1e-12), name
                assert c.average() == pytest.approx(py.average(), rel=AVERAGE, abs=1e-12)
                assert c.hand_values() == pytest.approx(py.hand_values(), abs=1e-12)
        # a set held to its move on the game's run, its average and count kept (``cfr_decision``'s first move): the
        # same again
        py, c = RangePyRun(t, None), RangeCRun(t, None, kernel())
        py.iterate(4)
        c.iterate(4)
        py.force(*forced, True)
        c.force(*forced, True)
        for _ in range(2):
            py.iterate(2)
            c.iterate(2)
            assert c.bracket() == pytest.approx(py.bracket(), abs=1e-12), name
            assert c.average() == pytest.approx(py.average(), rel=AVERAGE, abs=1e-12)


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_one_information_sets_average_is_its_part_of_the_whole_in_every_run():
    """A decision reads its mover's information set's average strategy alone (``set_average``: the whole is 8 bytes a
    slot of the tree, a third of a four-tile decision's memory until the twenty-third session). In both forms of the
    tree, the compiled run's and the Python run's, after a few iterations: every set's, by its node's moves (and with
    room to spare, zeros past them), is the whole average's slots of that set; both runs refuse a set that is none and
    room too small for a set's legal moves, with the same words."""
    from bisect import bisect_right

    from analyzer.hidden.cfr import _CRun, _PyRun

    deals = block_deals(3, 2)
    trees = [(build_tree(BLOCK, deals, deals[0].turn), _PyRun, _CRun), (range_tree(deals), RangePyRun, RangeCRun)]
    for t, py_run, c_run in trees:
        runs = (py_run(t, None), c_run(t, None, kernel()))
        for run in runs:
            run.iterate(4)
        sets = len(t.iset_hand)
        assert sets > 100
        read = []
        for run in runs:
            whole = list(run.average())
            read.append([])
            for i in range(sets):
                n = bisect_right(t.iset_at, i) - 1
                moves = t.child_at[n + 1] - t.child_at[n]
                part = whole[t.slot[i]:t.slot[i] + moves]
                assert list(run.set_average(i, moves)) == part
                assert list(run.set_average(i, moves + 2)) == part + [0.0, 0.0]
                read[-1].extend(part)
        assert read[1] == pytest.approx(read[0], rel=AVERAGE, abs=1e-12)        # (the compiled run's the Python's)
        words = []
        for run in runs:
            for bad in ((-1, 3), (sets, 3), (0, 0)):
                with pytest.raises(ValueError) as caught:
                    run.set_average(*bad)
                words.append(str(caught.value))
        assert words[:3] == words[3:] == ["no such information set"] * 2 + [
            "an information set has more moves than asked for"]


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_the_extension_reads_the_trees_arrays_in_place_and_gives_the_average_as_doubles():
    """A native run holds the tree's arrays while it lives (an ``array`` it reads cannot be resized under it) and lets
    them go with it; its average strategy is the Python run's, as bytes of 8 a slot (docs/hidden.md, "Less memory a
    decision")."""
    import gc

    deals = block_deals(3, 2)
    first = deals[0].turn
    found = ranges_of_deals([tuple(d.hands) for d in deals], (first, 1 - first))
    t = build_ranges(BLOCK, deals[0], first, found, compiled=False)       # (its arrays ``array``s, resizable)
    run = RangeCRun(t, None, kernel())
    with pytest.raises(BufferError):
        t.alive[0].append(0)
    py = RangePyRun(t, None)
    run.iterate(5)
    py.iterate(5)
    raw = run.run.average()
    assert isinstance(raw, bytes) and len(raw) == 8 * t.size
    assert run.average() == pytest.approx(py.average(), rel=AVERAGE, abs=1e-12)
    del run
    gc.collect()
    t.alive[0].append(0)            # (let go: resizable again)
    t.alive[0].pop()


@lru_cache(maxsize=None)
def wide_game():
    """Every deal of 2 tiles a hand of the double-4 set (8,190 deals): the seat to move's position, the seat and both
    seats' possible hands."""
    deals = block_deals(4, 2)
    first = deals[0].turn
    found = ranges_of_deals([tuple(d.hands) for d in deals], (first, 1 - first))
    assert found is not None
    return deals[0], first, found


def narrow_sums(t) -> int:
    """The nodes of ``t`` whose terminal values the kernel sums by inclusion-exclusion (more than 4 terminal hands of
    each player: ``PAIRWISE`` of ``_cfr_kernel.c``) with fewer pip classes there than the tree's widest."""
    widest = max(c + 1 for q in (0, 1) for c in t.term_class[q])
    found = 0
    for n in range(t.nodes):
        spans = [range(t.term_at[q][n], t.term_at[q][n + 1]) for q in (0, 1)]
        if all(len(x) > 4 for x in spans):
            found += max(t.term_class[q][k] + 1 for q in (0, 1) for k in spans[q]) < widest
    return found


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), nothing=st.sampled_from([0.0, 0.3, 0.7, 0.95]), forced=st.booleans())
@example(seed=258, nothing=0.3, forced=False)    # (two lines of one hand worth the same: a tie, see ``walk.TIE``)
@example(seed=2, nothing=0.0, forced=False)      # (an average within 4e-12, not 1e-12: ``AVERAGE``)
def test_the_kernel_runs_the_python_walk_where_hands_weigh_nothing_and_nodes_have_few_classes(seed, nothing, forced):
    """On a tree whose nodes summed by inclusion-exclusion mostly hold fewer pip classes than the tree's widest, each
    hand weighing nothing (its reach 0 from the root: the kernel gathers only the other's hands he reaches) with
    probability ``nothing``, the game or the mover's hand held to one move: the compiled run's brackets, averages and
    hand values are the Python run's (which sums the disjoint pairs one by one) to 1e-12."""
    pos, first, hands = wide_game()
    rng = random.Random(seed)
    weights = []
    for side in hands:
        w = [0.0 if rng.random() < nothing else rng.choice([0.5, 1.0, 3.0]) for _ in side]
        if not any(w):
            w[rng.randrange(len(w))] = 1.0
        weights.append(w)
    t = build_ranges(BLOCK, pos, first, hands, weights=(weights[0], weights[1]))
    assert narrow_sums(t) > 50
    fix = None
    if forced:
        at = t.iset_at[0]
        fix = (at, rng.choice([a for a in range(t.child_at[1] - t.child_at[0]) if legal_bit(t.legal, t.slot[at] + a)]))
    py, c = RangePyRun(t, fix), RangeCRun(t, fix, kernel())
    for _ in range(2):
        py.iterate(2)
        c.iterate(2)
        assert c.bracket() == pytest.approx(py.bracket(), abs=1e-12)
        assert c.average() == pytest.approx(py.average(), rel=AVERAGE, abs=1e-12)
        assert c.hand_values() == pytest.approx(py.hand_values(), abs=1e-12)


@pytest.mark.parametrize("compiled", [False] + ([True] if kernel() is not None else []))
def test_the_range_trees_bracket_holds_the_lp_value_and_the_deal_trees(compiled):
    tol = 1e-6 if compiled else 1e-3
    for name, deals in games()[:3 if compiled else 1]:
        first = deals[0].turn
        lp = solve_game(build_game(BLOCK, deals, first))
        got = solve(range_tree(deals), tol=tol, budget=300, compiled=compiled)
        old = solve(build_tree(BLOCK, deals, first), tol=tol, budget=300, compiled=compiled)
        assert got.closed and old.closed, name
        assert got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING, name
        assert got.value == pytest.approx(old.value, abs=tol)


@pytest.mark.skipif(kernel() is None, reason="the CFR+ kernel is not built")
def test_a_real_records_decisions_by_hands_equal_those_by_deals():
    """Decisions of a block-for-two record the deal tree still takes (1,170 public deals): the game value
    and every move's value agree to 1e-6, as do the deals' counts and the mover's reach."""
    (rep,) = replay_record(read(RECORDS / "openspiel-block7-3.dom"))
    for k in (12,):
        pos, ranges = public_ranges(rep, k)
        actual, deals = public_hands(rep, k, 10_000)
        assert sorted(deals) == sorted((a, b) for a in ranges[0] for b in ranges[1] if not a & b)
        new = cfr_decision(rep.variant, pos, ranges=ranges, tol=1e-4, budget=60)
        old = cfr_decision(rep.variant, actual, deals, masks=True, tol=1e-4, budget=60, by_deals=True)
        assert new.closed and old.closed
        assert new.deals == old.deals == len(deals)
        assert new.reach == pytest.approx(old.reach, abs=1e-12)
        assert new.value == pytest.approx(old.value, abs=1e-6)
        for (m, v), (m2, v2) in zip(new.moves, old.moves):
            assert m == m2 and v == pytest.approx(v2, abs=1e-6)


def test_the_public_hands_are_read_off_the_record_without_listing_a_deal():
    """public_ranges gives each seat's possible hands: their disjoint pairs are the deals the record allows, the actual
    deal among them (a decision with 775,200 public deals, 1,140 hands a player)."""
    from analyzer.inference import worlds_at

    (rep,) = replay_record(read(RECORDS / "openspiel-block7-6.dom"))
    pos, ranges = public_ranges(rep, 8)
    assert len(ranges[0]) == len(ranges[1]) == 1_140
    assert disjoint_pairs(*ranges) == worlds_at(rep, 8).count == 775_200
    assert all(pos.hands[s] in ranges[s] and all(h.bit_count() == pos.count(s) for h in ranges[s]) for s in (0, 1))
