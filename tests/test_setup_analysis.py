"""An independent check of the set-up form through the analysis: a position cut from a complete record
(before its move k, written as a set-up with every hand known) gets from ``analyze`` exactly the values the
full record gets at move k; with a hand hidden, the fair values (every world counted) are the full record's
at the same step where the set-up knows what the record's mover knew. (In a draw game it knows less: a
draw proved what the hand held before it, which the Lacks tag, of the whole hand, cannot say; there the
values differ, as they should.)"""
import random

import pytest

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.generate import random_game
from analyzer.notation import parse, write
from analyzer.replay import replay
from analyzer.replay.setup import setup_game


def _starts(rep) -> list[int]:
    """The steps a set-up may stand before: the start of a turn, no Muggins call next."""
    return [k for k in range(1, len(rep.steps)) if rep.steps[k - 1].seat != rep.steps[k].seat
            and not rep.steps[k].entry.is_muggins]


def _values(analysis, offset: int = 0) -> dict:
    return {d.index + offset: (d.player, sorted((a.move, a.value) for a in d.alternatives))
            for d in analysis.decisions}


def _cut(variant: str, seed: int, hidden=()):
    rep = replay(random_game(variant, seed))
    assert rep.valid
    k = random.Random(seed).choice(_starts(rep))
    game = setup_game(rep, k, hidden)
    if hidden:
        game.tags["Result"] = "*"
    back = replay(parse(write(game)).games[0])
    assert back.valid, [str(d) for d in back.errors]
    return rep, k, back


@pytest.mark.parametrize("variant", ["partnership", "block", "cutthroat", "all-fives", "draw", "french", "cross"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_set_up_cut_from_a_record_gets_the_records_open_hands_values(variant, seed):
    rep, k, back = _cut(variant, seed)
    full = _values(analyze_replay(rep))
    cut = _values(analyze_replay(back), offset=k)
    assert cut, "the set-up has decisions"
    assert cut == {i: v for i, v in full.items() if i >= k}


@pytest.mark.parametrize("variant, seed", [("partnership", 4), ("partnership", 5), ("partnership", 6),
                                           ("partnership", 7), ("block", 5), ("block", 7)])
def test_a_set_up_gets_the_records_fair_values_where_it_knows_as_much(variant, seed):
    rep = replay(random_game(variant, seed))
    full = fair_analyze(rep, settings=FairSettings(seed=3), run=FairRun(workers=1))
    # late in the hand, where every world is counted and the lead tells nothing the position does not: the
    # turn of the first of the last decisions whose worlds are all counted
    exact = [d.index for d in full.decisions if d.fair is not None and d.fair.method == "exact"]
    last = min(i for i in exact if all(j in exact for j in range(i, len(rep.steps))
                                       if any(d.index == j and d.fair for d in full.decisions)))
    k = max(s for s in _starts(rep) + [last] if s <= last and rep.steps[s - 1].seat != rep.steps[s].seat)
    game = setup_game(rep, k)
    back = replay(parse(write(game)).games[0])
    cut = fair_analyze(back, settings=FairSettings(seed=3), run=FairRun(workers=1))
    mine = {d.index + k: d for d in cut.decisions if d.fair is not None}
    theirs = {d.index: d for d in full.decisions if d.fair is not None and d.index >= k}
    assert mine.keys() == theirs.keys() and mine
    for i, d in mine.items():
        assert d.fair.method == theirs[i].fair.method
        assert d.fair.total == theirs[i].fair.total
        assert sorted((a.move, a.fair.mean) for a in d.alternatives) == \
            sorted((a.move, a.fair.mean) for a in theirs[i].alternatives)


COUNTS = """[Event "column, the table by counts"]
[Variant "partnership"]
[Players "A, B, C, D"]
[SetUp "1"]
{TABLE}
[ToMove "D"]
[Result "*"]

A: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4]
B: [0-0] [0-1] [0-6] [1-1] [1-6] [2-3]
C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5]
D: [0-3] [0-4] [1-2] [1-5] [2-6] [4-6] [6-6]

1. D [6-6] A [3-4]
"""


def test_a_table_known_by_counts_with_every_hand_shown_is_the_line_it_must_be():
    # every hand shown, nothing undealt: the tiles on the table are the rest, and only the ends matter
    by_line = replay(parse(COUNTS.replace("{TABLE}", '[Line "[3-5] [5-5] [5-6]"]')).games[0])
    by_counts = replay(parse(COUNTS.replace("{TABLE}", '[Ends "3 6"]\n[Counts "5:3 6:1"]')).games[0])
    assert by_line.valid and by_counts.valid, [str(d) for d in by_counts.errors]
    assert _values(analyze_replay(by_line)) == _values(analyze_replay(by_counts))
    assert [s.move for s in by_line.steps] == [s.move for s in by_counts.steps]


def test_counts_the_tiles_left_for_the_table_do_not_have_are_an_error_at_the_tag():
    text = COUNTS.replace("{TABLE}", '[Ends "3 6"]\n[Counts "5:3 6:2"]')
    errors = [(d.code, d.line, d.column) for d in replay(parse(text).games[0]).errors]
    assert ("setup-tiles", 6, 10) in errors     # the rest carries one 6, not two


@pytest.mark.parametrize("hidden", [False, True])
def test_every_command_takes_a_set_up_game(tmp_path, hidden):
    from click.testing import CliRunner

    from analyzer.cli import main
    text = COUNTS.replace("{TABLE}", '[Line "[3-5] [5-5] [5-6]"]')
    if hidden:
        text = text.replace("B: [0-0] [0-1] [0-6] [1-1] [1-6] [2-3]", "B: ? ? ? ? ? ?")
    path = tmp_path / "problem.dom"
    path.write_text(text)
    for args in (["validate"], ["replay"], ["analyze", "--decision-deals", "20"] if hidden else ["analyze"],
                 ["report", "-o", str(tmp_path / "r.html")] + (["--fair", "--decision-deals", "20"] if hidden else []),
                 ["diagram", "-o", str(tmp_path / "d.svg"), "--move", "0", "--face-up", "D"]):
        args = [args[0], str(path), *args[1:]]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
        assert "internal-error" not in result.output and "Traceback" not in result.output
    assert "the position set up" in (tmp_path / "d.svg").read_text()
    assert "[6-6]" in (tmp_path / "r.html").read_text()
