"""The fair analysis on Kozel and Cuban records with hidden hands (issue 56, item 1: "solved exactly and fairly"):
it runs without error, every alternative it lists is a legal move by the rules (the replayer's position of the
record with every hand shown), and each decision names its best move or the moves it cannot tell apart."""
import json

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.match import random_match, replay_record
from analyzer.notation import parse, write
from analyzer.rules import find_variant


@pytest.mark.parametrize("name, seed", [("kozel", 124), ("cuban", 11)])
def test_the_fair_analysis_runs_on_a_hand_with_hidden_hands(tmp_path, name, seed):
    text = write(random_match(find_variant(name), seed=seed, games=1))
    (full,) = replay_record(parse(text))
    assert full.valid and full.result.termination == "domino"     # a block is not shown over with hands hidden
    hidden = "\n".join(f"{line[0]}: ?" if line[:3] in ("B: ", "D: ") else line for line in text.splitlines()) + "\n"
    path = tmp_path / f"{name}.dom"
    path.write_text(hidden)
    # (the sheet's own values over the deals its hidden hands allow are not what this test is about: ten of them)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--decision-deals", "20", "--max-decision-deals", "40", "--max-deals", "10",
                                    "--seat", "A", "--seed", "1", "-j", "1", "--json", str(path)])
    assert res.exit_code == 0, res.output
    (game,) = json.loads(res.output)["games"]
    fair = [d for d in game["decisions"] if d.get("fair")]
    assert fair and all(d["player"] == "A" for d in fair)
    for d in fair:
        legal = {str(m) for m in full.position_at(d["index"]).legal_moves()}
        listed = {a["move"] for a in d["alternatives"]}
        assert len(listed) >= 2 and listed <= legal, (d["index"], listed, legal)
        assert d["played"] in listed
        verdict = d["fair"]
        assert verdict["best"] in listed or set(verdict["tied"]) <= listed and verdict["tied"], verdict
        assert all(a["fair"] is not None for a in d["alternatives"])
