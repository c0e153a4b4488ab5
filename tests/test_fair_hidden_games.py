"""A record whose hands are known in some games and not in others: the fair analysis goes to the games
with a hand not known (asked for by those hands, not by --fair), and the others keep their exact values
with every hand open, as ``analyze`` gives them alone. Found by the issue-55 campaign: one damaged deal
line in a file of 32 Domino Whist hands sent all 32 through the fair analysis (305 s of CPU for a page)."""
from __future__ import annotations

import json
import re

from click.testing import CliRunner

from analyzer.cli import main
from analyzer.generate import random_game
from analyzer.notation import write
from analyzer.pipeline import Options, judge_fairly, read_text, analyse


def _two_games() -> tuple[str, str]:
    """A record of two block hands: the first with every hand shown, the second with B's not shown."""
    known = '[Game "1"]\n' + write(random_game("block", 3))      # (at the lines it has in the record of two)
    partial = re.sub(r"^B: .*$", "B: ? ? ? ? ? ?", write(random_game("block", 4)), flags=re.M)
    return known, f'{known}\n[Game "2"]\n{partial}'


def _analyze_json(tmp_path, name: str, text: str, *more: str) -> list[dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["analyze", "--json", *more, str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["games"]


def test_analyze_gives_the_fair_analysis_to_the_game_with_a_hidden_hand_only(tmp_path):
    known, both = _two_games()
    alone = _analyze_json(tmp_path, "known.dom", known)
    games = _analyze_json(tmp_path, "both.dom", both, "--decision-deals", "8")
    assert "fair_seats" not in games[0] and "fair_seats" in games[1]
    strip = lambda game: {k: v for k, v in game.items() if k not in ("file", "title")}
    assert strip(games[0]) == strip(alone[0])
    # --fair asks for it everywhere
    asked = _analyze_json(tmp_path, "both.dom", both, "--fair", "--decision-deals", "8")
    assert "fair_seats" in asked[0] and "fair_seats" in asked[1]


def test_a_page_judges_fairly_only_the_games_with_a_hidden_hand():
    _, both = _two_games()
    run = read_text("both.dom", both, Options("report", lines=True, fair_hidden=True))
    analyse(run)
    judge_fairly(run)
    assert [bool(a.fair_seats) for a in run.analyses] == [False, True]


def test_the_board_judges_the_same_games_fairly_as_the_command(tmp_path):
    from analyzer.server.library import BoardRecord, AnalysisRequest, analyze_document

    _, both = _two_games()
    board = analyze_document(BoardRecord(both, "both.dom"), AnalysisRequest(decision_deals=8))["games"]
    command = _analyze_json(tmp_path, "both.dom", both, "--decision-deals", "8")
    assert ["fair_seats" in game for game in board] == ["fair_seats" in game for game in command] == [False, True]
