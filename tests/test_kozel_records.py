"""Kozel records as the app writes them (issue 67, item 2): the Result tag read both ways (the round's charge, or
the losers' charge with the eggs carried, and a note saying which), the Fence tag for a record that starts in the
middle of a game, and the lead error naming ``zero-lead=winner`` where the app's rule would allow the lead."""
import pytest

from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import HandResult, find_variant
from analyzer.rules.kozel import FenceError, parse_fence
from analyzer.rules.matchplay import MatchState
from conftest import RECORDS

KOZEL = find_variant("kozel")


def _replay(text: str):
    return replay_record(parse(text, "kozel.dom"))


def _notes(rep, words):
    return [d.message for d in rep.diagnostics if d.code == "match-note" and words in d.message]


# -- the Result tag, both ways --------------------------------------------------------------------------------------
def test_a_result_may_state_the_charge_or_the_charge_with_the_eggs():
    """The charge of a round is what its losers hold; eggs carried from an equal fish are charged to the next losers
    too (docs/variants.md, Kozel). The app's recordings write the losers' whole charge (issue 67: 90 where the hand's
    charge is 28); either is read, and nothing else."""
    match = KOZEL.match
    state = MatchState((52, 44), (3, 3), 7, eggs=26)
    worth = match.worth(state)
    won = HandResult("domino", 0, 18, 0, (0, 18))
    assert worth == 26 and match.stated_points(won, worth) == (18, 44)
    assert match.stated_points(won, match.worth(MatchState((0, 0), (0, 0)))) == (18,)
    assert match.stated_points(HandResult("blocked", None, 0, 0, (0, 0)), worth) == (0,)     # a fish: no loser
    assert match.apply(state, won).scores == (52, 44 + 18 + 26)


def test_the_record_with_the_apps_result_is_valid_and_says_which_was_read():
    text = (RECORDS / "house-kozel-eggs-result.dom").read_text(encoding="utf-8")
    assert '[Result "A/C 44 domino"]' in text
    reps = _replay(text)
    assert all(r.valid for r in reps), [(d.code, d.message) for r in reps for d in r.errors]
    (note,) = _notes(reps[7], "Result tag's 44")
    assert "with the eggs carried" in note and "18" in note and "26 eggs" in note
    plain = _replay((RECORDS / "match-kozel.dom").read_text(encoding="utf-8"))
    (note,) = _notes(plain[7], "Result tag's 18")
    assert "without the 26 eggs carried" in note and "44" in note
    assert [r.match.state.scores for r in reps] == [r.match.state.scores for r in plain]


def test_a_result_that_is_neither_is_an_error_naming_both():
    text = (RECORDS / "house-kozel-eggs-result.dom").read_text(encoding="utf-8").replace(
        '[Result "A/C 44 domino"]', '[Result "A/C 45 domino"]')
    reps = _replay(text)
    (error,) = reps[7].errors
    assert error.code == "result-mismatch" and "A/C winning 18" in error.message and "44 with the 26 eggs" in error.message


# -- the fence ----------------------------------------------------------------------------------------------------
def test_the_fence_tag_gives_the_match_of_a_record_that_starts_mid_game():
    """A team whose record is 0 puts a charge below 13 on the fence; a charge of 13 or more opens its record with the
    fence added (docs/variants.md). Before round 5 of the record A/C have 24 on the fence (two charges of 12), so round
    5's 14 opens their record at 38: with the Fence tag the match is known and each Score tag is checked."""
    text = (RECORDS / "house-kozel-fence.dom").read_text(encoding="utf-8")
    reps = _replay(text)
    assert all(r.valid for r in reps)
    assert reps[0].match.before is not None and reps[0].match.before.fence == (24, 0)
    assert [r.match.state.scores for r in reps] == [(38, 23), (57, 23)]
    wrong = _replay(text.replace('[Score "A/C 57, B/D 23"]', '[Score "A/C 56, B/D 23"]'))
    assert "score-mismatch" in [d.code for d in wrong[1].errors]
    without = _replay(text.replace('[Fence "A/C 24, B/D 0"]\n', ""))
    assert without[0].match.before is None and "Fence" in without[0].match.how


def test_a_score_tag_without_the_fence_says_so_and_the_next_game_names_the_games_before():
    """Issue 84: a Score tag mid-match without the Fence tag gives no match; a note at the Score tag names the Fence
    tag, and a next game with no Score tag says that the games before it in the file have no known score (not that
    there are none)."""
    text = (RECORDS / "house-kozel-fence.dom").read_text(encoding="utf-8").replace('[Fence "A/C 24, B/D 0"]\n', "")
    reps = _replay(text.replace('[Score "A/C 57, B/D 23"]\n', ""))
    (first,) = [d for d in reps[0].diagnostics if d.code == "match-note"]
    assert "[Fence" in first.message and first.line == text.splitlines().index('[Score "A/C 38, B/D 23"]') + 1
    (second,) = [d for d in reps[1].diagnostics if d.code == "match-note"]
    assert "no game before it" not in second.message and "games of the file" in second.message


@pytest.mark.parametrize("tag, code", [('[Fence "A/C 24"]', "score-syntax"), ('[Fence "A/C x, B/D 0"]', "score-syntax"),
                                       ('[Fence "A/C 2, B/D 0"]', "score-mismatch"),
                                       # (issue 84: the eggs would leave A/C a record of 4 before the round, which
                                       # cannot be: a record is 0, or 13 or more)
                                       ('[Fence "A/C 0, B/D 0; eggs 20"]', "score-mismatch")])
def test_a_fence_tag_that_cannot_be_read_or_does_not_fit_is_an_error_at_the_tag(tag, code):
    text = (RECORDS / "house-kozel-fence.dom").read_text(encoding="utf-8").replace('[Fence "A/C 24, B/D 0"]', tag)
    reps = _replay(text)
    assert [d.code for d in reps[0].errors] == [code]
    assert reps[0].errors[0].line == text.splitlines().index(tag) + 1


def test_parse_fence_reads_fences_and_eggs():
    assert parse_fence("A/C 8, B/D 0; eggs 26", ["A/C", "B/D"]) == ((8, 0), 26)
    assert parse_fence("B/D 3, A/C 0", ["A/C", "B/D"]) == ((0, 3), 0)
    for bad in ("A/C 8", "A/C 8, B/D 0; 26", "A/C -1, B/D 0"):
        with pytest.raises(FenceError):
            parse_fence(bad, ["A/C", "B/D"])


# -- the lead -------------------------------------------------------------------------------------------------------
def test_the_apps_lead_is_valid_with_its_option_and_an_error_naming_it_without():
    """While both records are 0 the [1-1] holder leads it (the specification); the app sometimes lets the player who
    went out lead then too. The record's round 1 puts 10 on B/D's fence, A went out and leads round 2 while C holds
    [1-1]: valid with zero-lead=winner; without it the lead error names that option."""
    text = (RECORDS / "house-kozel-zero-lead.dom").read_text(encoding="utf-8")
    assert all(r.valid for r in _replay(text))
    reps = _replay(text.replace('[Rules "zero-lead=winner"]\n', ""))
    assert reps[0].valid
    lead = [d for d in reps[1].errors if d.code == "lead-player"]
    assert lead and '[Rules "zero-lead=winner"]' in lead[0].message and "A leads" in lead[0].message


def test_a_lead_the_apps_rule_would_not_allow_names_nothing():
    text = (RECORDS / "house-kozel-zero-lead.dom").read_text(encoding="utf-8").replace('[Rules "zero-lead=winner"]\n', "")
    second = text.index('[Game "2"]')
    reps = _replay(text[:second] + text[second:].replace('[Lead "A"]', '[Lead "B"]'))      # B neither went out
    messages = [d.message for d in reps[1].errors if d.code == "lead-player"]
    assert messages and not any("zero-lead" in m for m in messages)
