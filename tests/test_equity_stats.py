"""``domino stats``: luck, luck-adjusted result and error rate per player and per pair, and the
strength bands (``analyzer.equity.bands``).

Facts: the luck-adjusted result is the result less the luck (so the two add up to the result); a
hand of two sides is zero-sum, so partners share result and luck and the two sides' are opposite; the
interval of an error rate narrows as decisions grow; a band is never given from one game; a policy
that never errs loses nothing (it always plays a best move) and so falls in the top band."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from analyzer.analysis.luck import ErrorRate
from analyzer.archive.stats import player_rows
from analyzer.cli import main
from analyzer.equity.bands import (BANDS, DATA_DIR, Calibration, PolicySample, calibration_for, load_calibration,
                                   play_policy, strength_band)
from analyzer.rules import find_variant

RECORDS = Path(__file__).resolve().parent.parent / "records"
JAMAICAN = RECORDS / "match-jamaican.dom"


def stats(*args) -> list[dict]:
    res = CliRunner().invoke(main, ["stats", "--json", *map(str, args)])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def jamaican_rows():
    return {r["player"]: r for r in stats("--scale", "match", JAMAICAN)}


@pytest.fixture(scope="module")
def jamaican_pairs():
    return {r["player"]: r for r in stats("--scale", "match", "--by", "pair", JAMAICAN)}


def test_luck_adjusted_result_plus_luck_is_the_result(jamaican_rows, jamaican_pairs):
    for row in [*jamaican_rows.values(), *jamaican_pairs.values()]:
        assert row["luck_hands"] == 6
        assert row["adjusted"] + row["luck"] == pytest.approx(row["result"], abs=0.011)


def test_partners_share_result_and_luck_and_the_sides_are_opposite(jamaican_rows, jamaican_pairs):
    a, b, c, d = (jamaican_rows[p] for p in "ABCD")
    assert (a["result"], a["luck"], a["mwc_luck"]) == (c["result"], c["luck"], c["mwc_luck"])
    assert (b["result"], b["luck"]) == (d["result"], d["luck"])
    ac, bd = jamaican_pairs["A/C"], jamaican_pairs["B/D"]
    assert ac["result"] == -bd["result"] == a["result"]
    assert ac["luck"] == pytest.approx(-bd["luck"]) and ac["mwc_luck"] == pytest.approx(-bd["mwc_luck"])
    # the pair's decisions are its players' decisions
    assert ac["error_decisions"] == a["error_decisions"] + c["error_decisions"]
    assert ac["mwc_error_decisions"] == a["mwc_error_decisions"] + c["mwc_error_decisions"]


def test_the_match_record_s_result_is_the_points_of_its_results(jamaican_pairs):
    # match-jamaican.dom: its Result tags give A/C 1 point in five hands, the fifth hand drawn
    assert jamaican_pairs["A/C"]["result"] == 5


def test_error_rates_on_both_scales_with_their_intervals(jamaican_rows):
    for row in jamaican_rows.values():
        assert row["error_basis"] == "open" and row["error_decisions"] >= 20
        assert row["error_low"] <= row["error_rate"] <= row["error_high"]
        assert 0 <= row["mwc_error_low"] <= row["mwc_error_rate"] <= row["mwc_error_high"] <= 1
        assert row["band"] is None and row["band_note"]     # one match, some 25 decisions: too few for a band


def test_mwc_columns_only_with_the_match_scale():
    for row in stats(JAMAICAN):
        assert row["mwc_luck"] is None and row["mwc_error_rate"] is None and row["mwc_error_decisions"] == 0
        assert row["luck"] is not None             # the points luck is there without it


def test_text_and_csv_carry_the_second_table():
    res = CliRunner().invoke(main, ["stats", "--scale", "match", str(JAMAICAN)])
    assert "error rate (95%)" in res.stdout and "MWC luck" in res.stdout and "adjusted" in res.stdout
    csv = CliRunner().invoke(main, ["stats", "--csv", "--by", "pair", str(JAMAICAN)]).stdout.splitlines()
    assert "luck" in csv[0].split(",") and "error_low" in csv[0].split(",")
    assert [line.split(",")[0] for line in csv[1:]] == ["A/C", "B/D"]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=2, max_size=60).filter(lambda xs: len(set(xs)) > 1),
       st.integers(2, 6))
def test_interval_narrows_as_decisions_grow(losses, times):
    # the same spread of losses seen over more decisions: the 95% interval narrows (as 1/sqrt(n))
    few, many = ErrorRate("x", losses=[float(x) for x in losses]), ErrorRate("x", losses=[float(x) for x in losses] * times)
    w_few = few.ci95[1] - few.ci95[0]
    w_many = many.ci95[1] - many.ci95[0]
    assert w_many < w_few
    assert few.mean == pytest.approx(many.mean)


def _calibration(edges=(1.0, 2.5, 6.0)) -> Calibration:
    samples = [PolicySample(0.0, 10, 100, 0, 0)]
    for rate, e in zip((0.05, 0.15, 0.35), edges):
        samples.append(PolicySample(rate, 10, 100, int(e * 100), int(e * e * 100 * 4)))
    samples.append(PolicySample(1.0, 10, 100, 2000, 80000))
    return Calibration("partnership", {}, samples)


def test_band_edges_and_width():
    cal = _calibration()
    assert cal.edges == (1.0, 2.5, 6.0) and cal.max_half == pytest.approx(1.0)
    assert [cal.band_of(x) for x in (0.0, 0.99, 1.0, 3, 7)] == ["expert", "expert", "advanced", "intermediate",
                                                                "beginner"]


@given(st.floats(0, 30), st.floats(0, 0.9), st.integers(2, 5000))
def test_a_band_is_never_given_from_one_game(mean, half, decisions):
    cal = _calibration()
    assert strength_band(mean, (mean - half, mean + half), decisions, 1, cal).name is None
    if decisions >= 500:        # (where each edge policy's own interval is narrow enough: +-0.91 at most)
        assert strength_band(mean, (mean - half, mean + half), decisions, 2, cal).name == cal.band_of(mean)
    assert strength_band(mean, (mean - 1.5, mean + 1.5), decisions, 9, cal).name is None    # too wide


def test_a_few_decisions_that_lose_nothing_prove_no_band():
    # 12 decisions without a loss: the interval measured is 0 to 0, but the policy at the top band's edge
    # (sd 1.74 a decision) spreads +-0.98 over 12 decisions and +-1.03 over 11, the narrowest band being 1 wide
    cal = _calibration()
    assert strength_band(0.0, (0.0, 0.0), 11, 2, cal).name is None
    assert "more decisions needed" in strength_band(0.0, (0.0, 0.0), 11, 2, cal).why
    assert strength_band(0.0, (0.0, 0.0), 12, 2, cal).name == "expert"


def test_one_game_gives_no_band_in_the_rows():
    game = {"players": ["A", "B"], "variant": "partnership", "errors_by_player": {}, "result": None,
            "analysis": {"sides": ["A", "B"], "match_scale": {"table": "partnership.json", "luck": None},
                         "decisions": [{"player": "A", "loss": 0, "class": None, "side": 0} for _ in range(400)]}}
    row = player_rows([{"games": [game]}])[0]
    assert row.band is None and "one game" in row.band_note and row.error_decisions == 400
    two = player_rows([{"games": [game, game]}])[0]
    assert two.band == "expert"         # 800 decisions without a loss, over two games
    assert two.band_note == "from 800 decisions (open hands) in 2 games"


def test_a_band_only_from_the_calibrated_variant_and_rules():
    # a partnership game to 150 is a partnership game, but no bands were measured for its rules
    assert calibration_for("partnership_target=150.json") is None
    row = player_rows([{"games": [{"players": ["A", "B"], "variant": "partnership", "errors_by_player": {},
                                   "result": None, "analysis": {
                                       "sides": ["A", "B"],
                                       "match_scale": {"table": "partnership_target=150.json"},
                                       "decisions": [{"player": "A", "loss": 0, "class": None, "side": 0}] * 300}}
                                  for _ in range(3)]}])[0]
    assert row.band is None and "no calibration" in row.band_note
    res = CliRunner().invoke(main, ["stats", "--json", str(RECORDS / "variant-cutthroat-3.dom")])
    assert all(r["band"] is None for r in json.loads(res.stdout))      # (one game: never a band)


def test_policy_that_never_errs_loses_nothing_and_is_the_top_band():
    v = find_variant("block", {"hand": "7", "players": "2"})
    perfect = play_policy(v, 0.0, 15, seed=3)
    assert perfect.decisions > 30 and perfect.total == 0
    sloppy = play_policy(v, 1.0, 15, seed=3)
    assert sloppy.mean > 0
    shipped = load_calibration(find_variant("partnership"))
    for cal in (_calibration(), shipped):
        if cal is not None:
            assert cal.band_of(perfect.mean) == BANDS[0]


CALIBRATED = sorted(f for f in os.listdir(DATA_DIR) if f.startswith("bands_"))


def test_the_partnership_and_block7_bands_are_shipped():
    for v in (find_variant("partnership"), find_variant("block", {"hand": "7", "players": "2"})):
        assert load_calibration(v) is not None, "bands are shipped (bench/calibrate_bands.py)"


@pytest.mark.parametrize("name", CALIBRATED)
def test_shipped_calibration_orders_the_policies_and_is_found_by_its_table(name):
    cal = calibration_for(name[len("bands_"):])
    means = [s.mean for s in cal.samples]
    assert means[0] == 0 and means == sorted(means)         # erring more often never costs less
    assert all(s.decisions >= 10_000 for s in cal.samples)
    # stats finds a calibration by the name of the game's MWC table: each one names a shipped table
    table = os.path.splitext(name[len("bands_"):])[0]
    assert any(os.path.splitext(f)[0] == table for f in os.listdir(DATA_DIR)), name
