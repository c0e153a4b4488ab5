"""``analyze --fair --scale match``: each alternative's match-winning chance in the fair analysis is
the mean, over the worlds the mover could not tell apart, of the MWC of that world's result (issue
30: "in a fair analysis, the mean over the worlds of the MWC of that world's result").

Facts: a mean lies between the least and the greatest of what it averages, and is that value when
every world gives the same; the MWC of a result is read from the match code (``mwc`` of the match
state ``MatchScoring.apply`` leaves); the mover's drop is never negative and is zero for his best."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.analysis.match_scale import Before, match_positions, match_scale, value_result
from analyzer.cli import main
from analyzer.equity import MatchPosition, load_table
from analyzer.equity.table import resolve
from analyzer.equity.model import lead_token
from analyzer.pipeline import Options, judge_fairly, read

RECORD = Path(__file__).resolve().parent.parent / "records" / "match-jamaican.dom"


@pytest.fixture(scope="module")
def judged():
    options = Options("analyze", fair_worlds=12, fair_seed=3, scale="match")
    run = judge_fairly(read(str(RECORD), RECORD.read_bytes(), options))
    return run


def _mwc_after(v, position, value, leader):
    """The MWC of side 0 after a hand ending in ``value``: the match state the match code leaves, and
    who leads next as the rules say, looked up in the table (a route apart from ``EquityTable.after``)."""
    table = load_table(v)
    result = value_result(v, value)
    state = v.match.apply(position.state, result)
    if state.over:
        return float(state.winner == 0) if not state.drawn else 0.5
    req = v.lead.requirement(leader, result, None, v.seating, v.match.lead(state, v.seating))
    lead = resolve(v, lead_token(req, v, leader), v.seating.teams[leader], state)
    return table.chance(MatchPosition(state, lead))


def test_fair_mwc_is_the_mean_over_the_worlds_of_each_world_s_mwc(judged):
    checked = 0
    for rep, analysis, (position, leader, _) in zip(judged.replays, judged.analyses, match_positions(judged.replays)):
        scale = match_scale(analysis, rep.variant, Before(position, leader))
        assert scale.known
        for d, chances, loss in zip(analysis.decisions, scale.fair_mwc, scale.fair_loss):
            for alt, chance in zip(d.alternatives, chances):
                per_world = [(_mwc_after(rep.variant, position, v, leader), n) for v, n in alt.fair.values]
                worlds = sum(n for _, n in per_world)
                # (a move raced out of contention keeps the values of its first worlds: the played move and the
                # best are valued in every one)
                assert worlds == d.fair.worlds if alt.played or alt.move == d.fair.best else worlds <= d.fair.worlds
                mean = sum(m * n for m, n in per_world) / worlds
                assert chance == pytest.approx(mean, abs=1e-12)
                assert min(m for m, _ in per_world) - 1e-12 <= chance <= max(m for m, _ in per_world) + 1e-12
                checked += 1
            sign = 1 if d.side == 0 else -1
            best = max(sign * c for c in chances)
            played = next(sign * c for a, c in zip(d.alternatives, chances) if a.played)
            assert loss == pytest.approx(best - played) and loss >= 0
    assert checked > 100


def test_fair_and_match_scale_json(tmp_path):
    res = CliRunner().invoke(main, ["analyze", "--fair", "--decision-deals", "8", "--scale", "match", "--json", str(RECORD)])
    assert res.exit_code == 0, res.output
    games = json.loads(res.stdout)["games"]
    assert len(games) == 6
    for g in games:
        assert g["match_scale"]["known"]
        for d in g["decisions"]:
            assert 0 <= d["fair"]["mwc_loss"] <= 1
            assert all(0 <= a["fair"]["mwc"] <= 1 for a in d["alternatives"])
            assert {"loss", "verdict", "best"} <= set(d["fair"])       # the fair fields it had, unchanged


def test_stats_error_rate_in_mwc_is_fair_where_judged():
    res = CliRunner().invoke(main, ["stats", "--json", "--fair", "8", "--scale", "match", "--by", "pair", str(RECORD)])
    assert res.exit_code == 0, res.output
    for row in json.loads(res.stdout):
        assert row["error_basis"] == "fair"
        assert row["mwc_error_decisions"] == row["error_decisions"] > 0
