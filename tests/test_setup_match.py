"""A set-up's MatchScore tag is the match position ``--scale match`` grades it from (issue 51): the score
before the hand, read as the Score tag is read (less nothing: no hand is over yet). Partnership's match is a
race to 100: from 90-20, every alternative that wins A/C the hand by 23 or more wins them the match."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli import main

PROBLEM = (Path(__file__).resolve().parent.parent / "docs" / "problems" / "1-seed1-open.dom").read_text()
HIDDEN = (Path(__file__).resolve().parent.parent / "docs" / "problems" / "2-seed2-hidden.dom").read_text()


def _analyze(text: str, score: str | None) -> dict:
    if score is not None:
        text = text.replace("[Problem ", f'[MatchScore "{score}"]\n[Problem ', 1)
    result = CliRunner().invoke(main, ["analyze", "-", "--scale", "match", "--json"], input=text)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["games"][0]


def test_the_match_score_is_the_position_graded_from():
    game = _analyze(PROBLEM, "A/C 90, B/D 20")
    scale = game["match_scale"]
    assert scale["known"] and scale["scores"] == [90, 20] and "MatchScore" in scale["note"]
    alternatives = game["to_move"]["alternatives"]
    # every hand is shown: values for A/C; each alternative wins A/C the hand by 23 or more, so the match
    assert alternatives and all(a["value"] >= 10 for a in alternatives)
    assert all(a["mwc"] == 1.0 for a in alternatives)


def test_from_nil_all_the_larger_win_is_the_larger_chance_and_no_tag_no_position():
    game = _analyze(PROBLEM, "A/C 0, B/D 0")
    assert game["match_scale"]["known"] and game["match_scale"]["scores"] == [0, 0]
    by_value = sorted((a["value"], a["mwc"]) for a in game["to_move"]["alternatives"])
    assert all(0 < mwc < 1 for _, mwc in by_value)
    assert [mwc for _, mwc in by_value] == sorted(mwc for _, mwc in by_value)
    assert by_value[0][0] < by_value[-1][0] and by_value[0][1] < by_value[-1][1]
    untagged = _analyze(PROBLEM, None)["match_scale"]
    assert not untagged["known"] and untagged["scores"] is None


def test_a_match_score_that_cannot_be_read_is_said():
    scale = _analyze(PROBLEM, "A/C 40")["match_scale"]
    assert not scale["known"] and "MatchScore" in scale["note"] and "A/C, B/D" in scale["note"]


@pytest.mark.parametrize("score, wins", [("A/C 90, B/D 20", True), ("A/C 0, B/D 0", False)])
def test_the_fair_analysis_of_a_hidden_hand_is_graded_from_it_too(score, wins):
    game = _analyze(HIDDEN, score)
    fair = [a["fair"]["mwc"] for a in game["to_move"]["alternatives"]]
    assert game["match_scale"]["known"] and fair and all(0 <= x <= 1 for x in fair)
    # at 90-20 A/C win the match in every world where they win the hand by 10 or more: the chances are higher
    assert (min(fair) > 0.9) == wins
