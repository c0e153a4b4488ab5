"""What a fair verdict is tested on, said where it names a best (issue 69 item 3): each move's paired gap to the
fair best over the same deals, with its interval at the verdict's level, in the JSON; a verdict that cannot
tell its best apart names none (``best`` null, ``tied`` the moves), and a played move among them shows no loss."""
from __future__ import annotations

import json
import math
import random

from click.testing import CliRunner
from hypothesis import given, strategies as st

from analyzer.analysis.fairstats import Z95, paired_gap, significant
from analyzer.cli import main
from conftest import ROOT
from schema_check import check


@given(st.lists(st.tuples(st.integers(-60, 60), st.integers(-60, 60)), min_size=1, max_size=40),
       st.sampled_from([1, -1]), st.booleans())
def test_the_gaps_interval_lies_above_zero_exactly_where_the_gap_is_significant(pairs, sign, exact):
    best, other = [b for b, _ in pairs], [o for _, o in pairs]
    gap, (lo, hi) = paired_gap(best, other, sign, exact)
    gaps = [sign * (b - o) for b, o in pairs]
    assert math.isclose(gap, sum(gaps) / len(gaps), abs_tol=1e-4)       # the plain mean of the differences
    assert lo <= gap <= hi
    if significant(gaps, exact, Z95):
        assert lo > -1e-4
    elif len(gaps) > 1 or exact:
        assert lo < 1e-4


def test_each_verdict_of_a_real_record_says_its_gaps_and_names_a_best_only_where_told_apart(monkeypatch):
    monkeypatch.chdir(ROOT)
    out = CliRunner().invoke(main, ["analyze", "--fair", "--decision-deals", "12", "--json", "--jobs", "1", "records/seed1.dom"])
    document = json.loads(out.stdout)
    check(document)
    judged = named = tied = 0
    for d in document["games"][0]["decisions"]:
        fair = d.get("fair")
        if not fair or fair["method"] not in ("exact", "sampled"):
            continue
        judged += 1
        gaps = {a["move"]: a["fair"] for a in d["alternatives"] if a.get("fair")}
        if fair["tied"]:
            tied += 1
            assert fair["best"] is None
            assert any(gaps[m]["gap_ci"][0] < 1e-4 for m in fair["tied"][1:])
        else:
            named += 1
            assert gaps[fair["best"]]["gap"] == 0
            assert all(g["gap_ci"][0] > -1e-4 for m, g in gaps.items() if m != fair["best"])
            played = next(a["move"] for a in d["alternatives"] if a["played"])
            assert math.isclose(max(0.0, gaps[played]["gap"]), fair["loss"], abs_tol=1e-3)
    assert judged and named and tied


def test_the_text_gives_the_gap_where_it_names_the_best_and_no_loss_for_a_tied_move(monkeypatch):
    monkeypatch.chdir(ROOT)
    out = CliRunner().invoke(main, ["analyze", "--fair", "--decision-deals", "12", "--jobs", "1", "records/seed1.dom"]).stdout
    lines = [line for line in out.splitlines() if line.lstrip().startswith("fair (")]
    best = [line for line in lines if "): best " in line]
    assert best and all(" ahead of " in line and " over the same deals" in line for line in best)
    played_tied = [line for line in lines if "played is one of them" in line]
    assert played_tied and all("not told apart" in line and "loss" not in line for line in played_tied)
