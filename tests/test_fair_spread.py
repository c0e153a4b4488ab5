"""The spread of a fair value over the worlds and the worst world of a real mistake, checked against a
plain minimax (``tests/minimax_reference.py``) run on every world the mover could not tell apart, and the
report's view of who holds what taken from the worlds the fair analysis counted."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from analyzer.analysis import analyze_replay
from analyzer.codec import to_data
from analyzer.analysis.fair import FairRun, FairSettings, PERCENTILES, Spread, fair_analyze
from analyzer.cli import main
from analyzer.inference import worlds_at
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.position import tiles_of
from analyzer.pipeline import mover_views
from analyzer.render import build_report, render_html
from conftest import RECORDS
from minimax_reference import Reference

C = 2           # seed 1: C's [3-6] at move 18 is a real mistake by what C knew (the book's [4-6] was better)


@pytest.fixture(scope="module")
def seed():
    (rep,) = replay_record(read(RECORDS / "seed1.dom"))
    return rep


@pytest.fixture(scope="module")
def exact(seed):
    return fair_analyze(seed, analyze_replay(seed), settings=FairSettings(worlds=4, exact_below=400, seats=["C"]),
                        run=FairRun(workers=1))


def _mistake(analysis):
    return next(d for d in analysis.decisions if d.fair is not None and d.fair.verdict == "real")


def _deal(rep, k, hands):
    """The dealt hands of a world whose hands before step ``k`` are ``hands``: each hand and the tiles
    its player laid before."""
    deal = [[(t.low, t.high) for t in tiles] for _, tiles in hands]
    for step in rep.steps[:k]:
        if step.move is not None and step.move.tile is not None:
            deal[step.seat].append((step.move.tile.low, step.move.tile.high))
    return deal


def _values(rep, k, deal):
    """Every alternative's value (side 0's points) at step ``k`` of the world dealt ``deal``, by the plain
    minimax."""
    ref = Reference(rep.variant, deal, leader=rep.steps[0].seat)
    state = ref.replay([s.move for s in rep.steps[:k]])[0]
    return {str(m): v for m, v in ref.alternatives(state).items()}


def _every_world(rep, k):
    """Each world C could not tell apart before step ``k``, its alternatives valued by the plain minimax."""
    worlds = worlds_at(rep, k, C)
    out = []
    for world in worlds:
        masks = worlds.view.deal(world)
        out.append(_values(rep, k, [[(t.low, t.high) for t in tiles_of(m, 6)] for m in masks]))
    return out


def _nearest_rank(values, p):
    """The least value v of ``values`` that at least p% of them do not exceed, by counting."""
    return min(v for v in values if 100 * sum(1 for x in values if x <= v) >= p * len(values))


@pytest.mark.slow
def test_the_spread_is_the_percentiles_of_every_worlds_value(seed, exact):
    d = _mistake(exact)
    assert d.fair.method == "exact"
    per_world = _every_world(seed, d.index)
    assert len(per_world) == d.fair.worlds
    for alt in d.alternatives:
        values = [w[alt.move] for w in per_world]
        assert alt.fair.mean == pytest.approx(sum(values) / len(values), abs=1e-4)
        assert alt.fair.spread.values == tuple(_nearest_rank(values, p) for p in PERCENTILES)
        assert alt.fair.spread.low == min(values) and alt.fair.spread.high == max(values)


@pytest.mark.slow
def test_the_worst_world_gives_the_largest_gap_when_solved_on_its_own(seed, exact):
    d = _mistake(exact)
    worst = d.fair.worst
    assert worst is not None and d.played == "[3-6]@6" and d.fair.best == "[4-6]@6"
    # that world alone, dealt as its hands before the move and the tiles laid before them
    alone = _values(seed, d.index, _deal(seed, d.index, worst.hands))
    assert alone[d.fair.best] - alone[d.played] == worst.gap
    assert (alone[d.fair.best], alone[d.played]) == (worst.best_value, worst.played_value)
    # C's own hand is the one he held; no world gives a larger gap
    assert dict(worst.hands)["C"] == tuple(tiles_of(seed.position_at(d.index).hands[C], 6))
    gaps = [w[d.fair.best] - w[d.played] for w in _every_world(seed, d.index)]
    assert worst.gap == max(gaps) and worst.gap > 0
    assert worst.rest == ()                      # no sleepers: the four hands hold the whole set


def test_a_sampled_worst_world_is_one_of_the_worlds_drawn(seed):
    analysis = fair_analyze(seed, analyze_replay(seed), settings=FairSettings(worlds=60, exact_below=10, seats=["C"]),
                            run=FairRun(workers=1))
    d = next(d for d in analysis.decisions if d.played == "[3-6]@6")
    assert d.fair.method == "sampled"
    if d.fair.verdict != "real":
        pytest.fail(f"the 60 deals drawn should show C's [3-6] a real mistake, not {d.fair.verdict}")
    worst = d.fair.worst
    alone = _values(seed, d.index, _deal(seed, d.index, worst.hands))
    assert alone[d.fair.best] - alone[d.played] == worst.gap > 0
    assert dict(worst.hands)["C"] == tuple(tiles_of(seed.position_at(d.index).hands[C], 6))
    # the spread's ends bound the mean
    for alt in d.alternatives:
        assert alt.fair.spread.low <= alt.fair.mean <= alt.fair.spread.high


def test_no_worst_world_without_a_real_mistake(exact):
    assert all(d.fair.worst is None for d in exact.decisions if d.fair is not None and d.fair.verdict != "real")


@given(st.lists(st.integers(-100, 100), min_size=1, max_size=40))
def test_percentiles_by_rank_are_those_by_counting(values):
    spread = Spread.of(values)
    assert spread.values == tuple(_nearest_rank(values, p) for p in PERCENTILES)
    assert list(spread.values) == sorted(spread.values)
    assert spread.as_dict()["min"] == min(values) and spread.as_dict()["max"] == max(values)


def test_the_json_gains_the_spread_and_the_worst_world_and_keeps_every_field():
    out = CliRunner().invoke(main, ["analyze", "--fair", "--seat", "C", "--exact-below", "400", "--decision-deals", "4",
                                    "--json", str(RECORDS / "seed1.dom")])
    data = json.loads(out.output)
    decisions = data["games"][0]["decisions"]
    d = next(d for d in decisions if d["played"] == "[3-6]@6")
    assert set(d["fair"]) >= {"view", "deals", "method", "best", "loss", "class", "verdict", "total_deals"}
    # (schema version 4: the keys' former names still written beside them, the same values, deprecated)
    assert (d["fair"]["worlds"], d["fair"]["total_worlds"], d["fair"]["worst_world"]) == \
        (d["fair"]["deals"], d["fair"]["total_deals"], d["fair"]["worst_deal"])
    world = d["fair"]["worst_deal"]
    assert world["gap"] == world["best_value"] - world["played_value"] > 0
    assert sorted(world["hands"]) == ["A", "B", "C", "D"] and world["sleepers"] == []
    for alt in d["alternatives"]:
        # (schema version 2: the paired gap to the fair best and its interval, which the verdict is tested on)
        assert set(alt["fair"]) == {"mean", "ci95", "p_win", "spread", "gap", "gap_ci"}
        assert list(alt["fair"]["spread"]) == ["min", "p10", "p25", "p50", "p75", "p90", "max"]


def test_the_text_shows_the_spread_and_the_worst_world():
    out = CliRunner().invoke(main, ["analyze", "--fair", "--seat", "C", "--exact-below", "400", "--decision-deals", "4",
                                    str(RECORDS / "seed1.dom")])
    assert "spread" in out.output and "Worst deal for C's [3-6]@6 (move 18, line 19): loses 75 against [4-6]@6 (-35 instead of +40 for A/C)" in out.output


def test_the_report_takes_who_holds_what_from_the_fair_analysis(seed, exact, monkeypatch):
    import analyzer.inference as inference

    expected = inference.holds_table(seed, _mistake(exact).index, C)

    def recount(*args, **kwargs):
        raise AssertionError("the worlds were counted again")

    monkeypatch.setattr(inference, "holds_table", recount)
    (exact,) = mover_views([exact])      # (the pipeline's step before a page)
    model = build_report(seed.source if hasattr(seed, "source") else "seed1.dom", [seed], [exact])
    move = model.games[0].moves[_mistake(exact).index]
    assert move.holds.worlds == expected[0] == _mistake(exact).fair.total
    html = render_html(model)
    assert "worst deal" in html


def test_a_pickled_verdict_keeps_the_worst_world_but_not_the_worlds(exact):
    import pickle

    fair = _mistake(exact).fair
    assert fair.seen is not None and fair.seen.count == fair.total
    back = pickle.loads(pickle.dumps(fair))
    assert back.seen is None and back.worst == fair.worst and to_data(back) == to_data(fair)


def test_a_draw_games_worst_world_lists_the_boneyard_in_its_order():
    (rep,) = replay_record(read(RECORDS / "variant-draw.dom"))
    analysis = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=20), run=FairRun(workers=1))
    worst = [d for d in analysis.decisions if d.fair is not None and d.fair.worst is not None]
    assert worst
    for d in worst:
        w = d.fair.worst
        pos = rep.position_at(d.index)
        held = [t for _, tiles in w.hands for t in tiles]
        assert w.ordered and "boneyard" in w.as_dict()
        # the hands and the boneyard hold every tile not on the table, each once
        on_table = {t for t, _ in pos.line()}
        assert len(held) + len(w.rest) == len(set(held) | set(w.rest)) == 28 - len(on_table)
        assert dict(w.hands)[d.player] == tuple(tiles_of(pos.hands[rep.players.index(d.player)], 6))
