"""The match position a hand is graded at (issue 54): from the games before it in the file, else its Score tag (the
score after the hand, less the hand's result), else none (graded in points only, with a note). A `Game` tag above 1
is never read as game 1 at 0-0, and a hand whose Score tag puts it after the start of a match is never read as a
first game. The rule (000, "Domino mit Partner"): "Beim ersten Spiel einer neuen Partie fängt der Spieler mit der
[6-6] an und muss diese Doppelsechs vorsetzen. Bei den folgenden Spielen beginnt der Spieler rechts vom dem, der
das vorherige Spiel begonnen hat, und der Spieler kann mit jedem beliebigen Stein das Spiel eröffnen." So the
[6-6] lead is forced in the first game only, and the lead of any later game is a choice."""
from __future__ import annotations

import json

from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis.luck import first_hand
from analyzer.analysis.match_scale import Before, match_positions, match_scale
from analyzer.cli import main
from analyzer.equity import first_lead
from analyzer.match import random_match, replay_record
from analyzer.notation import parse
from analyzer.notation.writer import write_game
from analyzer.rules import find_variant
from conftest import RECORDS

V = find_variant("partnership")
SEED = (RECORDS / "seed2.dom").read_text(encoding="utf-8")       # B leads (seat 1); blocked, A/C win 46
SIXES = (RECORDS / "partnership-untagged-first-lead.dom").read_text(encoding="utf-8")   # B leads [6-6]; B/D win 25
B_HAND = ["[0-4]", "[2-4]", "[2-5]", "[3-5]", "[4-4]", "[4-6]", "[6-6]"]


def tagged(text: str, *tags: str) -> str:
    """``text`` with the tags (``'Game "5"'``) before its Result tag."""
    return text.replace("[Result", "".join(f"[{t}]\n" for t in tags) + "[Result", 1)


def judged(text: str):
    replays = replay_record(parse(text, source="<test>"))
    return replays, match_positions(replays)


def line_of(text: str, tag: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if line.startswith(f"[{tag} "))


def codes(rep, severity: str | None = None) -> list[str]:
    return [d.code for d in rep.diagnostics if severity is None or d.severity == severity]


def side_lead(seat: int) -> tuple:
    return ("side", V.seating.teams[seat])


# -- a game of a match alone in its file ------------------------------------------------------------
def test_a_lone_game_five_is_graded_in_points_only_never_as_game_one_at_love_all():
    text = tagged(SEED, 'Game "5"')
    (rep,), ((position, leader, how),) = judged(text)
    assert position is None and "game 5" in how and leader == 1
    assert rep.valid and rep.match.number == 5 and rep.match.before is None and not rep.match.opens
    assert rep.match.score == "not known"
    note, = [d for d in rep.diagnostics if d.code == "match-note"]
    assert note.severity == "info" and note.line == line_of(text, "Game") and "points only" in note.message
    assert not first_hand(rep)                  # its deal's luck is not measured against the first game's lead
    scale = match_scale(analyze_replay(rep), rep.variant, Before(position, leader, how))
    assert not scale.known and scale.note.endswith("graded in points only")


def test_the_command_grades_a_lone_game_five_in_points_only(tmp_path):
    path = tmp_path / "game5.dom"
    path.write_text(tagged(SEED, 'Game "5"'), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyze", str(path), "--scale", "match", "--json"])
    assert out.exit_code == 0, out.output
    scale = json.loads(out.output)["games"][0]["match_scale"]
    assert not scale["known"] and scale["scores"] is None and "points only" in scale["note"]
    assert scale["luck"]["mode"] == "open"      # a later game's lead: not the first game's forced [6-6]


def test_a_lone_game_five_with_a_score_tag_starts_from_it():
    # A/C 96, B/D 30 after a hand A/C win by 46: A/C 50, B/D 30 before it; B led it, as the rotation had him
    text = tagged(SEED, 'Game "5"', 'Score "A/C 96, B/D 30"')
    (rep,), ((position, leader, how),) = judged(text)
    assert rep.valid and "score-mismatch" not in codes(rep)
    assert position.state.scores == (50, 30) and not position.state.over and "Score tag" in how
    assert position.lead == side_lead(1) != first_lead(V) and leader == 1
    assert rep.match.number == 5 and rep.match.state.scores == (96, 30)


def test_a_score_tag_that_cannot_follow_its_hand_is_an_error_at_the_tag():
    # A/C 40 after a hand that gave them 46 points: the tags contradict the hand
    for tags in (('Game "5"', 'Score "A/C 40, B/D 30"'), ('Game "1"', 'Score "A/C 96, B/D 30"')):
        text = tagged(SEED, *tags)
        (rep,), ((position, _, how),) = judged(text)
        error, = [d for d in rep.errors if d.code == "score-mismatch"]
        assert error.line == line_of(text, "Score")
        if tags[0] == 'Game "5"':
            assert position is None and "less than the 46" in how
        else:                                   # game 1 of the match in the file: 0-0, whatever the Score tag says
            assert position.state.scores == (0, 0) and position.lead == first_lead(V)


def _match_text(games) -> str:
    return "\n".join(write_game(g) for g in games)


def test_a_file_that_starts_later_in_a_match_gives_the_positions_of_the_whole_match():
    match = random_match("partnership", seed=3, games=4)
    assert len(match.games) == 4
    whole = match_positions(replay_record(parse(_match_text(match.games))))
    assert whole[0][0].state.scores == (0, 0) and whole[0][0].lead == first_lead(V)
    # from game 2, its Score tag: games 2 to 4 at the positions of the whole file, none of them a first game
    later = match_positions(replay_record(parse(_match_text(match.games[1:]))))
    assert [(p.state.scores, p.lead, leader) for p, leader, _ in later] == \
        [(p.state.scores, p.lead, leader) for p, leader, _ in whole[1:]]
    assert all(p.lead != first_lead(V) for p, _, _ in later)
    # game 2 without its Score tag: no position for it; game 3 from its own Score tag, game 4 from game 3
    del match.games[1].tags["Score"]
    replays = replay_record(parse(_match_text(match.games[1:])))
    cut = match_positions(replays)
    assert cut[0][0] is None and "game 2" in cut[0][2]
    assert [(p.state.scores, p.lead) for p, _, _ in cut[1:]] == [(p.state.scores, p.lead) for p, _, _ in whole[2:]]
    assert all(rep.valid for rep in replays)


# -- a free [6-6] lead in the middle of a match -------------------------------------------------------
def lead_decision(rep):
    analysis = analyze_replay(rep)
    first = analysis.decisions[0] if analysis.decisions else None
    return first if first is not None and first.index == 0 else None


def test_the_untagged_six_six_lead_alone_is_the_first_games_forced_lead():
    (rep,), ((position, _, _),) = judged(SIXES)
    assert "assumed-first-game" in codes(rep) and first_hand(rep)
    assert position is None                     # no Game tags, no Score tag
    assert lead_decision(rep) is None           # the lead was forced: no choice to grade


def test_a_mid_match_score_tag_makes_the_six_six_lead_a_choice():
    # B/D win 25: with B/D 60 after the hand they had 35 before it, A/C 40: a later game, so B chose the [6-6]
    text = tagged(SIXES, 'Score "A/C 40, B/D 60"')
    (rep,), ((position, leader, how),) = judged(text)
    assert rep.valid and "assumed-first-game" not in codes(rep) and not first_hand(rep)
    note, = [d for d in rep.diagnostics if d.code == "match-note"]
    assert note.line == line_of(text, "Score") and "no first game" in note.message
    assert position.state.scores == (40, 35) and position.lead == side_lead(1) and leader == 1
    d = lead_decision(rep)
    assert d is not None and d.player == "B" and d.played == "[6-6]"
    assert sorted(a.move for a in d.alternatives) == sorted(B_HAND)       # any tile of his hand
    best = min(a.value for a in d.alternatives)          # (B/D minimise the first side's value)
    assert d.loss == next(a.value for a in d.alternatives if a.played) - best > 0
    scale = match_scale(analyze_replay(rep), rep.variant, Before(position, leader, how))
    assert scale.known and scale.loss[0] > 0 and scale.cls[0] is not None


def test_a_score_tag_at_the_start_of_a_match_keeps_the_six_six_lead_forced():
    # B/D 25 after the hand, A/C 0: 0-0 before it, as the first game's is, and its [6-6] lead is forced
    (rep,), ((position, _, _),) = judged(tagged(SIXES, 'Score "A/C 0, B/D 25"'))
    assert "assumed-first-game" in codes(rep) and first_hand(rep)
    assert position.state.scores == (0, 0) and position.lead == first_lead(V)
    assert lead_decision(rep) is None


def test_a_game_tag_above_one_makes_the_six_six_lead_a_choice():
    text = tagged(SIXES, 'Game "3"', 'Score "A/C 40, B/D 60"')
    (rep,), ((position, _, _),) = judged(text)
    assert rep.valid and not rep.match.opens and position.state.scores == (40, 35)
    assert position.lead == side_lead(1)
    d = lead_decision(rep)
    assert d is not None and sorted(a.move for a in d.alternatives) == sorted(B_HAND)
