""""best" only where the fair analysis tells the best move apart from the rest (issue 54, item 1).

Where the gap between the fair best and another move is not significant over the shared deals, the
verdict names the moves together (``FairDecision.tied``) and the text, the JSON and the page say they are
not told apart, never "best". A sampled decision that does not tell them apart draws more deals, doubling
to ``max_worlds``, with the interval widened for the repeated looks (``analysis.fairstats``)."""
from __future__ import annotations

import json
import pathlib
import statistics

import pytest
from click.testing import CliRunner

from analyzer.analysis import fair as fair_module
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.analysis.fairstats import Z95, look_z, looks, needed, tied_moves, worth_more
from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import read

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
EQUAL = 21          # seed2's step 21: C's [2-4] on the 2 or on the 4 (the same value in every deal: see below)
CLEAR = 17          # seed1's step 17: C's [3-6] on the 6, a blunder against [4-6] on the 6 (the README)


def _game(name: str):
    (rep,) = replay_record(read(RECORDS / name))
    return rep


def _decision(analysis, index: int):
    return next(d for d in analysis.decisions if d.index == index and d.fair is not None)


@pytest.fixture(scope="module")
def every_world():
    """C's decisions of seed2 with every deal C could not tell apart solved, and each move's value in each
    deal (read off the analysis's table of values, as the verdict sees it)."""
    tables = {}
    real = fair_module.decision_table

    def spy(rep, k, seat, moves, per_world):
        table, best = real(rep, k, seat, moves, per_world)
        tables[k] = {str(m): list(v) for m, v in table.items()}
        return table, best

    fair_module.decision_table = spy
    try:
        analysis = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"]), run=FairRun(workers=1))
    finally:
        fair_module.decision_table = real
    return analysis, tables


def test_two_moves_equal_in_every_deal_are_tied_when_every_deal_is_solved(every_world):
    analysis, tables = every_world
    d = _decision(analysis, EQUAL)
    values = list(tables[EQUAL].values())
    assert d.fair.method == "exact" and len(values) == 2 and values[0] == values[1]     # equal deal by deal
    assert set(d.fair.tied) == {"[2-4]@2", "[2-4]@4"} and d.fair.tied[0] == d.fair.best


@pytest.mark.parametrize("budget", [20, 40, 160])
def test_two_moves_equal_in_every_deal_are_tied_at_any_budget(budget):
    """Sampled, whatever the budget, the two stay tied; since they come to the same in every deal drawn, no
    more deals are drawn for them."""
    analysis = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=budget,
                                                                      exact_below=1), run=FairRun(workers=1))
    d = _decision(analysis, EQUAL)
    assert d.fair.method == "sampled" and set(d.fair.tied) == {"[2-4]@2", "[2-4]@4"}
    assert d.fair.worlds == 20


def test_a_clear_best_is_told_apart():
    """C's [4-6] against his [3-6] (20 points on average over every deal): told apart at the first look."""
    analysis = fair_analyze(_game("seed1.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=160,
                                                                      exact_below=1), run=FairRun(workers=1))
    d = _decision(analysis, CLEAR)
    assert d.fair.best == "[4-6]@6" and d.fair.tied == () and d.fair.verdict == "real" and d.fair.worlds == 20


def test_the_same_seed_gives_the_same_verdicts_whatever_the_processes():
    def verdicts(workers):
        analysis = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=160,
                                                                          exact_below=1, seed=7),
                                run=FairRun(workers=workers))
        return [(d.index, d.fair.best, d.fair.tied, d.fair.worlds, [a.fair.mean for a in d.alternatives])
                for d in analysis.decisions if d.fair is not None]

    once = verdicts(1)
    assert once == verdicts(1) == verdicts(2)
    assert any(worlds > 20 for _, _, _, worlds, _ in once)      # (some decision drew more deals)


def test_more_deals_are_drawn_only_where_the_best_is_not_told_apart():
    """Each decision is looked at with 20, 40, 80 or 160 deals; one that grew is still tied where the budget
    stops it at half its deals."""
    analysis = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"], worlds=20, max_worlds=160,
                                                                      exact_below=1), run=FairRun(workers=1))
    grown = [d for d in analysis.decisions if d.fair is not None and d.fair.worlds > 20]
    assert grown and all(d.fair.worlds in looks(20, 160) for d in grown)
    for d in grown:
        fewer = fair_analyze(_game("seed2.dom"), settings=FairSettings(seats=["C"], worlds=20,
                                                                       max_worlds=d.fair.worlds // 2, exact_below=1),
                             run=FairRun(workers=1))
        assert _decision(fewer, d.index).fair.tied


def test_every_deal_solved_ties_only_moves_equal_on_the_mean(every_world):
    """Exact values: a move is tied with the best exactly when its mean is the best's (sums of whole points)."""
    analysis, tables = every_world
    checked = 0
    for d in analysis.decisions:
        if d.fair is None or d.fair.method != "exact":
            continue
        sums = {m: sum(v) for m, v in tables[d.index].items()}
        top = max(sums.values()) if d.side == 0 else min(sums.values())
        equal = {m for m, total in sums.items() if total == top}
        assert set(d.fair.tied) == (equal if len(equal) > 1 else set())
        checked += 1
    assert checked >= 2


def test_the_looks_share_the_error():
    """One look: the 95% interval; several: each at 5% shared among them (Bonferroni), so wider."""
    assert looks(200, 200) == [200] and looks(200, 1600) == [200, 400, 800, 1600] and looks(30, 100) == [30, 60, 100]
    assert look_z(1) == Z95 and Z95 < look_z(2) < look_z(4)
    assert abs(look_z(4) - statistics.NormalDist().inv_cdf(1 - 0.05 / 8)) < 1e-12


def test_tied_moves_from_the_shared_deals():
    same = [3, -5, 7, 0, 12, -1]
    table = {"a": same, "b": list(same), "c": [v - 20 for v in same]}
    assert tied_moves(table, "a", 1, False) == ["a", "b"]
    assert not worth_more(table, "a", 1, ["a", "b"], Z95, 10**6)      # equal in every deal: more never tell
    clear = {"a": [10, 12, 9, 11], "b": [0, 1, -1, 2]}
    assert tied_moves(clear, "a", 1, False) == []
    # side 1 minimises: its best is the least
    assert tied_moves({"a": [-10, -12, -9, -11], "b": [0, 1, -1, 2]}, "a", -1, False) == []


def test_more_deals_only_where_they_may_tell_the_moves_apart():
    """A gap of 1 point with a spread of 10 over 40 deals: at a gap one standard error above (1 + 10.13 / sqrt(40)
    = 2.6) it needs some (1.96 * 10.13 / 2.6)**2 = 58 deals to be told apart."""
    gaps = [11, -9] * 20             # mean 1, sd about 10.1, over 40 deals
    table = {"a": [g for g in gaps], "b": [0] * 40}
    close = tied_moves(table, "a", 1, False)
    assert close == ["a", "b"]
    assert needed(gaps, Z95) == pytest.approx((Z95 * 10.13 / (1 + 10.13 / 40 ** 0.5)) ** 2, rel=0.01)
    assert worth_more(table, "a", 1, close, Z95, 100) and not worth_more(table, "a", 1, close, Z95, 50)


def test_a_move_equal_in_every_deal_does_not_stop_the_sampling_for_another():
    """The best, a move the same in every deal (never told apart) and a third whose gap more deals may show:
    judged move by move, the third keeps the sampling going."""
    rng = __import__("random").Random(3)
    best = [rng.randint(-20, 20) for _ in range(200)]
    table = {"a": best, "same": list(best), "c": [v - 1 + rng.randint(-15, 15) for v in best]}   # a gap of 1
    close = tied_moves(table, "a", 1, False)
    assert set(close) == {"a", "same", "c"}
    assert not worth_more(table, "a", 1, ["a", "same"], Z95, 800)
    assert worth_more(table, "a", 1, close, Z95, 800) and worth_more(table, "a", 1, ["a", "c", "same"], Z95, 800)


def test_the_text_and_json_say_not_told_apart_and_never_best(tmp_path):
    runner = CliRunner()
    args = ["analyze", str(RECORDS / "seed2.dom"), "--fair", "--seat", "C", "--decision-deals", "20", "--max-decision-deals", "20",
            "--exact-below", "1"]
    text = runner.invoke(main, args)
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    at = next(k for k, ln in enumerate(lines) if "[2-4]@2 and [2-4]@4" in ln)
    assert "are not told apart after 20 deals" in lines[at] and "best" not in lines[at]
    rows = lines[at + 1:at + 3]         # the decision's two moves
    assert all(r.strip().startswith("[2-4]@") and "not told apart" in r and "best" not in r for r in rows)
    data = json.loads(runner.invoke(main, args + ["--json"]).output)
    decision = next(d for d in data["games"][0]["decisions"] if d["index"] == EQUAL)
    assert sorted(decision["fair"]["tied"]) == ["[2-4]@2", "[2-4]@4"]
    told = next(d for d in data["games"][0]["decisions"] if d["fair"] and not d["fair"]["tied"])
    assert told["fair"]["tied"] == []


def test_max_worlds_below_worlds_is_a_usage_error():
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "seed2.dom"), "--fair", "--decision-deals", "40",
                                    "--max-decision-deals", "20"])
    assert res.exit_code == 2 and "--max-decision-deals" in res.output
    res = CliRunner().invoke(main, ["analyze", str(RECORDS / "seed2.dom"), "--max-decision-deals", "400"])
    assert res.exit_code == 2 and "add --fair" in res.output
