"""Words a new user understands (issue 32, item 6): rule texts by their titles, hints in the game's own players,
neutral words for players, a Muggins call that withdraws the missed-score warning, All Fives' turning point with
its cause, stats headings with their scales, one error for an empty file, a pass after the end flagged."""
from __future__ import annotations

import re

from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.rules.catalog import RULE_TEXTS, catalog
from conftest import RECORDS, ROOT

HE = re.compile(r"\b(he|his|him|himself)\b", re.I)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_rule_texts_are_named_by_their_titles():
    titles = {entry["seed"]: entry["rule_text"] for entry in catalog() if not entry["sources"]}
    assert titles["000_3c92c1f714ce882e.txt"] == '"Domino mit Partner", pagat.com'
    assert set(titles) <= set(RULE_TEXTS)                  # every variant's text has its title
    # (a game no rule text describes, Cuban double-nine or Kozel, names the sources of its rules instead)
    beyond = [entry for entry in catalog() if entry["sources"]]
    assert {e["name"] for e in beyond} >= {"cuban", "kozel"} and all(e["seed"] not in RULE_TEXTS for e in beyond)
    docs = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    assert "Domino mit Partner" in docs and "shared/seeds" not in docs and not re.search(r"\| 00[0-4]\b", docs)


NSEW = """[Event "Nord gegen Ost"]
[Players "Nord, Ost, Sued, West"]
[Result "Ost und West gewinnen"]

Nord: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]
Ost: [0-0] [0-1] [0-6] [1-1] [1-6] [2-3] [2-6]
Sued: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]
West: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]

1. Ost [1-1]
"""


def test_a_result_hint_uses_the_games_own_players():
    (rep,) = replay_record(parse(NSEW, "nsew.dom"))
    (hint,) = [d for d in rep.diagnostics if d.code == "result-syntax"]
    assert '"Ost/West 10 domino", "Nord/Sued 46 blocked"' in hint.message
    assert "B/D" not in hint.message and "A/C" not in hint.message


def test_messages_about_players_use_neutral_words():
    for path in sorted(RECORDS.glob("*.dom")):
        for rep in replay_record(read(path)):
            for d in rep.diagnostics:
                assert not HE.search(d.message), (path.name, d.message)
    assert not HE.search(run("variants", "-v").output)
    # a draw after the drawer could play: the message names the player
    text = (RECORDS / "variant-draw.dom").read_text(encoding="utf-8").replace(
        "2. A [5-6] B draws [4-4]", "2. A draws [3-5] A [5-6] B draws [4-4]")
    messages = [d.message for rep in replay_record(parse(text)) for d in rep.diagnostics]
    assert any(m.startswith("A draws, but could play") for m in messages), messages


def test_all_fives_turning_point_names_its_cause():
    """Fives and Threes as the pubs play it: A's [0-2] leaves 0 and 6 open, two threes A does not claim and
    B takes with muggins (the record's comment); that is what turns the value, not the tile."""
    (rep,) = replay_record(read(RECORDS / "variant-pub-fives-threes.dom"))
    analysis = analyze_replay(rep)
    step = rep.steps[analysis.turning_point]
    assert step.entry.player == "A" and str(step.move.tile) == "[0-2]"
    assert analysis.values[analysis.turning_point] > 0 > analysis.values[analysis.turning_point + 1]
    decision = next(d for d in analysis.decisions if d.index == step.index)
    assert decision.played_value > 0           # claimed, the play keeps A ahead
    assert analysis.turning_cause == f"A does not claim the points of this play (claimed, the value would be " \
                                     f"{decision.played_value:+d})"
    out = run("analyze", str(RECORDS / "variant-pub-fives-threes.dom")).output
    assert "Turning point: move 3 (A [0-2]@2): the value goes from +3 to -1: A does not claim" in out


def test_stats_headings_say_their_scale():
    out = run("stats", str(RECORDS / "seed1.dom")).output
    head = out.splitlines()[0]
    assert "mistake+/100 (open)" in head and "real inaccuracy+/100" in head and "avg loss (open)" in head
    assert "mistake+: mistakes and blunders with every hand open; inaccuracy+: inaccuracies, mistakes" in out


def test_an_empty_file_gives_one_clear_error(tmp_path):
    empty = tmp_path / "empty.dom"
    empty.write_text("", encoding="utf-8")
    for command in ("analyze", "validate"):
        result = run(command, str(empty))
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 1
        assert lines[0] == f'{empty}: error[no-game] no game found: a record needs a deal ("A: [0-5] ...") or a ' \
                           "move list", (command, lines)
        assert len(lines) == 2 and lines[1].startswith("1 record (1 game): 0 valid, 1 invalid")


def test_a_pass_after_the_hand_ended_is_flagged():
    # the draw game ends with B's [0-1] going out; a pass written after it is flagged as a play would be
    text = (RECORDS / "variant-draw.dom").read_text(encoding="utf-8")
    assert text.rstrip().endswith("11. A [3-3] B [0-1]")
    (rep,) = replay_record(parse(text.rstrip() + " A pass\n"))
    (error,) = rep.errors
    assert error.code == "play-after-end" and error.message == "A passes after the hand was over (B went out)"
    (clean,) = replay_record(parse(text))
    assert clean.valid
