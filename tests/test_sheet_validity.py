"""A valid record stays valid with its hands written ``?`` (issue 80, item 1): the deal it was written from is one
the sheet allows, so the match scores, who leads each game, who sits out and what a game is worth are checked
against every deal the sheet allows, never against one of them; where the deals leave a result or a match score
open, it is the set of what they allow (``Replay.outcomes``, ``MatchEntry.possible``, ``PossibleResults``).

The references are the records with their hands written (the truth is always among what a sheet allows) and, for a
small sheet, every deal whose written record replays without an error (``brute_deals``, the replay's own judge)."""
from __future__ import annotations

import functools
import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analysis.sheets import written_game
from analyzer.inference.sheet import SheetDeal
from analyzer.match import random_match, replay_record
from analyzer.notation import read, write
from analyzer.record import Record, as_sheet
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.rules.catalog import catalog

from conftest import RECORDS
from test_cli import run
from test_sheets import brute_deals

# the records of records/ that became invalid with every hand written ``?`` before issue 80, and how
FAILED = [
    ("variant-hungarian.dom", "score-mismatch"),
    ("match-hungarian-3.dom", "score-mismatch"),
    ("match-hungarian-4.dom", "score-mismatch"),
    ("match-venezuelan.dom", "score-mismatch"),
    ("house-venezuelan-no-caben.dom", "score-mismatch"),
    ("match-all-fives-threes-3.dom", "score-mismatch"),
    ("variant-french.dom", "score-mismatch"),
    ("match-french.dom", "score-mismatch"),
    ("match-kozel-50-no-eggs.dom", "score-mismatch"),
    ("match-kozel.dom", "lead-player"),
    ("house-kozel-eggs-result.dom", "lead-player"),
    ("match-cuban.dom", "result-mismatch"),
    ("match-whist-progression-five.dom", "sit-out"),
    ("variant-draw-starter.dom", "no-deal"),
]


def errors(record: Record) -> list:
    return [d for rep in replay_record(record) for d in rep.errors]


def assert_the_truth_is_allowed(record: Record, sheet: Record) -> None:
    """Each game of ``sheet`` (``record`` written as a sheet) valid, and what ``record`` says of it among what the
    sheet allows: its result among the outcomes, the match score after it among the possible ones, the same rule
    deciding who leads, wherever the sheet's deals were listed (not drawn)."""
    full, reps = replay_record(record), replay_record(sheet)
    assert len(full) == len(reps)
    assert not [d for rep in reps for d in rep.errors]
    drawn = False
    for truth, rep in zip(full, reps):
        drawn = drawn or bool(rep.outcomes_drawn)
        if rep.outcomes and not rep.outcomes_drawn:
            assert truth.result in {o.result for o in rep.outcomes}
        elif rep.result is not None and not any(rep.final.hidden):
            assert rep.result == truth.result
        entry = rep.match
        if entry is None or truth.match is None or entry.before is None:
            continue
        if not drawn:
            assert truth.match.state.scores in {s.scores for s in entry.possible or (entry.state,)}
            assert entry.lead_rule == truth.match.lead_rule
        assert entry.new_match == truth.match.new_match and entry.number == truth.match.number


@functools.cache
def valid_records() -> tuple[str, ...]:
    """The records of records/ with no error."""
    return tuple(p.name for p in sorted(RECORDS.glob("*.dom")) if read(p).games and not errors(read(p)))


@pytest.mark.parametrize("name,was", FAILED, ids=[f"{n.removesuffix('.dom')}-{w}" for n, w in FAILED])
def test_a_record_that_failed_with_its_hands_unknown_stays_valid(name, was):
    record = read(RECORDS / name)
    assert not errors(record)
    assert_the_truth_is_allowed(record, as_sheet(record))


# ... and those that became invalid with their draws written ``draws ?`` too (the deals past the listing cap)
FAILED_DRAWS = ["match-chiva-2-draw.dom", "match-chiva-3-draw-jamaican.dom", "match-chiva-3-draw.dom"]


@pytest.mark.slow
@pytest.mark.parametrize("name", FAILED_DRAWS, ids=[f"{n.removesuffix('.dom')}-score-mismatch" for n in FAILED_DRAWS])
def test_a_record_that_failed_with_its_hands_and_draws_unknown_stays_valid(name):
    record = read(RECORDS / name)
    assert_the_truth_is_allowed(record, as_sheet(record, draws=True))


def test_a_deal_thrown_in_with_some_hands_unknown_is_no_crash():
    """match-south-american-redeal-natural.dom's game 2 is dealt again (C holds five doubles) and has no moves: with
    the other hands ``?`` it counts for nothing and no deal is checked against it (it raised an IndexError)."""
    record = read(RECORDS / "match-south-american-redeal-natural.dom")
    assert_the_truth_is_allowed(record, as_sheet(record, {"A", "B", "D"}, draws=True))


def test_a_thrown_in_deal_of_two_unknown_hands_validates_without_an_internal_error(tmp_path):
    """Issue 87 item 3 (minimised): a South American deal thrown in (C holds five doubles: "Wenn ein Spieler fünf
    oder mehr Doppelsteine bekommen hat, werden die Steine zusammengeworfen"), A and B ``?``, no moves, under the
    issue's rules: ``validate`` reads it as dealt again (it was internal-error, IndexError, before 560d8bb)."""
    path = tmp_path / "thrown-in.dom"
    path.write_text('[Game "1"]\n[Variant "south-american"]\n'
                    '[Rules "system=south-american, redeal=5, target=0, match=games, must-redeal=yes"]\n'
                    '[Players "A, B, C, D"]\n\nA: ?\nB: ?\nC: [0-0] [1-1] [2-2] [3-3] [4-4] [0-1] [0-2]\n'
                    'D: [2-6] [3-4] [3-5] [3-6] [4-5] [4-6] [5-6]\n', encoding="utf-8")
    result = run("validate", str(path))
    assert result.exit_code == 0 and "internal" not in result.output and "info[redeal-game]" in result.output


def test_a_score_the_deals_leave_open_is_the_set_they_allow():
    """records/variant-hungarian.dom with its hands ``?``: three deals, all a draw with A out, C left with 11, 12
    or 15 pips (each deal's written record replayed: ``brute_deals``); without a Score tag the match score is
    that set, and a Score tag none of them gives is an error naming them."""
    record = as_sheet(read(RECORDS / "variant-hungarian.dom"))
    game = record.games[0]
    rep = replay_record(record)[0]
    truth = set()
    for hands in brute_deals(rep, rep.variant):
        written = replay(written_game(rep, SheetDeal(hands)), rep.variant)
        truth.add(tuple(written.result.added(rep.variant.seating.sides)))
    assert len(truth) > 1 and (0, 0, 11) in truth
    assert {tuple(o.result.scores) for o in rep.outcomes} == truth
    assert rep.match.score == "A 0, B 0, C 11"          # the Score tag says which

    loose = replay_record(Record([replace(game, tags={k: v for k, v in game.tags.items() if k != "Score"})]))[0]
    assert loose.valid
    assert {p.scores for p in loose.match.possible} == truth
    values = sorted(s[2] for s in truth)
    assert loose.match.score == f"A 0, B 0, C {', '.join(map(str, values[:-1]))} or {values[-1]}"

    bad = replay_record(Record([replace(game, tags={**game.tags, "Score": "A 0, B 0, C 13"})]))[0]
    assert [d.code for d in bad.errors] == ["score-mismatch"]
    assert all(str(v) in bad.errors[0].message for v in values)


def test_the_likely_slip_proposes_no_score_tag_where_a_deal_fits(tmp_path):
    for name in ("variant-hungarian.dom", "match-french.dom"):
        path = tmp_path / name
        path.write_text(write(as_sheet(read(RECORDS / name))), encoding="utf-8")
        result = run("validate", "--json", "--jobs", "1", str(path))
        assert result.exit_code == 0, result.output
        for game in json.loads(result.output)["games"]:
            assert game["valid"] and "likely" not in game and "repairs" not in game
            assert not any(d["code"] == "score-mismatch" for d in game["diagnostics"])


def test_a_lead_no_deal_allows_is_still_an_error():
    """house-kozel-eggs-result.dom's game 5 follows a fish: the fisher (the last player to lay a tile that is no
    double) leads whatever the deal; its sheet with another player named to lead is wrong in every deal."""
    record = as_sheet(read(RECORDS / "house-kozel-eggs-result.dom"))
    k = next(k for k, g in enumerate(record.games) if g.tags.get("Game") == "5")
    game = record.games[k]
    first = next(m for m in game.moves if m.tile is not None)
    other = next(p for p in game.players if p != first.player)
    moved = [replace(m, player=other) if m is first else m for m in game.moves]
    record.games[k] = replace(game, moves=moved, tags={**game.tags, "Lead": other})
    found = replay_record(record)[k].errors
    assert found[0].code == "lead-player"
    assert f"{first.player} must lead" in found[0].message and "fisher" in found[0].message


def test_a_deal_thrown_in_stays_one_where_the_hand_of_doubles_is_written_unknown():
    """The property test's find (2026-11-27): a South American deal thrown in for C's five doubles, C's hand written
    ``?``. The other three hands are written, so C's is the rest of the set and the deal is still thrown in; it was
    read as a game with no known result, and the next game's lead (the next player after the last leader) was left
    unchecked."""
    record = read(RECORDS / "match-south-american-redeal-natural.dom")
    assert_the_truth_is_allowed(record, as_sheet(record, {"C"}, False))


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_every_bundled_valid_record_stays_valid_with_any_hands_unknown(data):
    name = data.draw(st.sampled_from(valid_records()), label="record")
    record = read(RECORDS / name)
    names = sorted({h.player for g in record.games for h in g.hands})
    hidden = data.draw(st.sets(st.sampled_from(names), min_size=1), label="hidden") if names else None
    draws = data.draw(st.booleans(), label="draws")
    assert_the_truth_is_allowed(record, as_sheet(record, hidden, draws))


FAMILIES = [v["name"] for v in catalog()]


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(FAMILIES), st.integers(0, 10_000), st.integers(0, 2 ** 6 - 1), st.booleans())
def test_random_valid_matches_of_every_family_stay_valid_with_any_hands_unknown(family, seed, mask, draws):
    record = random_match(find_variant(family), seed, games=3)
    assert not errors(record)
    names = sorted({h.player for g in record.games for h in g.hands})
    hidden = {n for i, n in enumerate(names) if mask >> i & 1} or None
    assert_the_truth_is_allowed(record, as_sheet(record, hidden, draws))


def test_a_few_random_matches_of_each_family_stay_valid_with_every_hand_unknown():
    rng = random.Random(80)
    for family in FAMILIES:
        record = random_match(find_variant(family), rng.randrange(10_000), games=2)
        assert_the_truth_is_allowed(record, as_sheet(record))
