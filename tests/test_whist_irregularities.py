"""Domino Whist §8, irregularities, on the book's example deal (seed 001's rules, seed 000's deal)."""
from analyzer.notation import parse
from analyzer.match import replay_record
from conftest import SEED_DEAL

ROUNDS_1_2 = "1. B [1-1] C pass D [1-5]\n2. A [1-4] B pass"   # the open ends are then 4 and 5


def whist(tags: str, moves: str):
    (rep,) = replay_record(parse(f'[Variant "whist"]\n[Players "A, B, C, D"]\n{tags}\n{SEED_DEAL}\n{moves}'))
    return rep


# "Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
#  Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht
#  angelegt werden kann, gespielt werden."
def test_an_exposed_tile_must_be_played_at_the_first_legal_chance():
    rep = whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-5]@5")
    (err,) = [d for d in rep.errors if d.code == "exposed-tile"]
    assert err.line == 9 and "[4-6]" in err.message and "Aufgedeckte Steine" in err.message
    assert err in rep.steps[-1].diagnostics
    # played at once, it is fine; and a chance that has passed does not come back
    assert whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-6]").valid
    assert not [d for d in whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-5] D [0-4]\n3. A [0-5] B pass C [2-5]")
                .errors if d.code == "exposed-tile" and d.line != 9]


def test_an_exposed_tile_that_does_not_fit_waits_for_its_chance():
    # C passes on the 1s in round 1 although [4-6] is exposed: it did not fit, so no fault
    rep = whist('[Exposed "C [4-6]"]', "1. B [1-1] C pass")
    assert rep.valid


def test_the_exposed_tag_must_name_a_tile_the_player_was_dealt():
    rep = whist('[Exposed "C [1-1]"]', "1. B [1-1]")
    assert [d.code for d in rep.errors] == ["bad-exposed"]
    rep = whist('[Exposed "C four-six"]', "1. B [1-1]")
    assert [d.code for d in rep.errors] == ["bad-exposed"]
