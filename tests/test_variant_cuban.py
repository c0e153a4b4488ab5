"""Cuban double-nine (issue 56, item 2), each rule with the sentence it comes from (the sources' words in ours,
docs/variants.md names them), and its exact search checked against plain minimax."""
import random

import pytest

from analyzer.generate import random_game
from analyzer.match import random_match, replay_record
from analyzer.notation import parse, write
from analyzer.notation.writer import write_game
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.mechanics import position_for
from analyzer.search.block import Solver
from analyzer.tiles import Tile, tile_set
from minimax_reference import Reference, from_move

T = Tile.parse
CUBAN = find_variant("cuban")


def _replay(text: str):
    (rep,) = replay_record(parse(text, "cuban.dom"))
    return rep


def _game(seed: int = 3, variant=CUBAN, game_tag: bool = True) -> str:
    text = write_game(random_game(variant, seed))
    return text.replace("[Variant", '[Game "1"]\n[Variant', 1) if game_tag else text


# -- the deal ------------------------------------------------------------------------------------------------
def test_ten_tiles_each_from_the_double_nine_set_the_rest_out_of_play():
    """"Each player is dealt 10 tiles ... Remaining tiles are set aside and not used" (onlinedominogames.com); the set
    is the double-nine, 55 tiles, so 15 stay out of play (ludoteka.com)."""
    assert CUBAN.dealing.max_pip == 9 and CUBAN.dealing.hand_size == 10
    assert len(CUBAN.dealing.tiles) == 55 and CUBAN.dealing.sleepers(4) == 15
    assert CUBAN.drawing is None and CUBAN.seating.teams == (0, 1, 0, 1)
    rep = _replay(_game())
    assert rep.valid, [d.message for d in rep.errors]
    assert max(t.high for h in rep.game.hands for t in h.tiles) == 9


def test_a_hand_of_eleven_is_a_deal_size_error_and_nobody_draws():
    """Ten tiles a hand, and the tiles out of play are never drawn ("there is no boneyard to draw from")."""
    text = _game()
    a_line = next(line for line in text.splitlines() if line.startswith("A: "))
    held = {T(x) for x in a_line[3:].replace("] [", "]|[").split("|")}
    spare = next(t for t in tile_set(9) if t not in held and str(t) not in text)
    rep = _replay(text.replace(a_line, f"{a_line} {spare}"))
    assert "deal-size" in [d.code for d in rep.errors]
    moves_at = text.index("\n\n", text.index("D: ")) + 2
    first = text[moves_at:].split()[0]
    drawn = text[:moves_at] + f"{first} draws {spare} " + text[moves_at:]
    assert "no-boneyard" in [d.code for d in _replay(drawn).errors]


# -- the lead ------------------------------------------------------------------------------------------------
def test_the_highest_double_dealt_opens_the_first_hand():
    """"Highest double starts play" (dominorules.com, Kelley): in the first hand of a match the holder of the
    highest double dealt leads it, whichever double that is (the [9-9] may be out of play)."""
    for seed in range(8):
        text = _game(seed)
        rep = _replay(text)
        assert rep.valid, [d.message for d in rep.errors]
        lead = rep.steps[0].move.tile
        dealt = [t for h in rep.game.hands for t in h.tiles]
        assert lead == max(t for t in dealt if t.is_double)


def test_a_lead_of_another_tile_in_the_first_hand_is_an_error():
    """The first hand's lead is the highest double: any other lead is ``lead-tile`` or ``lead-player``."""
    rep = _replay(_game(3))
    dealt = [t for h in rep.game.hands for t in h.tiles]
    top = max(t for t in dealt if t.is_double)
    holder = next(h for h in rep.game.hands if top in h.tiles)
    other = next(t for t in holder.tiles if t != top)
    moves_at = _game(3).index("\n\n", _game(3).index("D: ")) + 2
    text = _game(3)
    wrong = text[:moves_at] + text[moves_at:].replace(str(top), "@@", 1).replace(str(other), str(top), 1) \
        .replace("@@", str(other), 1)
    codes = [d.code for d in _replay(wrong).errors]
    assert "lead-tile" in codes or "lead-player" in codes


def test_the_later_hands_lead_rotates_or_goes_to_the_winners():
    """"The lead is passed anti-clockwise in subsequent rounds" (onlinedominogames.com): the next player after the
    last leader, with any tile (``lead=rotate``); ``lead=winner``: the player who went out leads next."""
    record = random_match(CUBAN, seed=5, games=4)
    reps = replay_record(parse(write(record)))
    assert all(r.valid for r in reps), [d.message for r in reps for d in r.errors]
    leaders = [r.initial.turn for r in reps]
    assert all(b == (a + 1) % 4 for a, b in zip(leaders, leaders[1:]))
    winner = find_variant("cuban", "lead=winner")
    facts = HandFacts("domino", 2, (10, 20, 0, 5), (2, 3, 0, 1), 1)
    assert winner.lead.requirement(1, winner.hand_result(facts), facts, winner.seating).seats == frozenset({2})


# -- a block and the score ----------------------------------------------------------------------------------
def test_a_block_is_won_by_the_side_with_fewer_pips_and_scores_the_losers_pips():
    """"Blocked rounds are won by the team with lower pip count"; "Winning team scores total pip count of remaining
    dominoes in losing team's hands"; equal counts: "no score is awarded" (onlinedominogames.com)."""
    facts = HandFacts("blocked", 1, (10, 3, 12, 30), (2, 1, 2, 3), 0)
    result = CUBAN.hand_result(facts)
    assert result.winner == 0 and result.points == 33
    tie = HandFacts("blocked", 1, (10, 3, 12, 19), (2, 1, 2, 3), 0)
    assert CUBAN.hand_result(tie).winner is None and CUBAN.hand_result(tie).points == 0
    assert find_variant("cuban", "tie=leader").hand_result(tie).winner == 0


def test_the_other_block_and_score_options():
    """The single player with the fewest pips decides a block for his side (``block=player``); the lowest hand
    "scores the difference between all other hands and their own" on a block (``score=difference``, the
    ArtsDominos reading, here the difference of the two sides); every pip left (``score=all``)."""
    facts = HandFacts("blocked", 1, (10, 3, 12, 30), (2, 1, 2, 3), 0)
    assert find_variant("cuban", "block=player").hand_result(facts).winner == 1
    assert find_variant("cuban", "score=difference").hand_result(facts).points == 33 - 22
    assert find_variant("cuban", "score=all").hand_result(facts).points == 55
    out = HandFacts("domino", 2, (10, 3, 0, 30), (2, 1, 0, 3), 0)
    assert find_variant("cuban", "score=difference").hand_result(out).points == 33


def test_the_match_is_played_to_the_target():
    """"In most places, Cuban Dominoes is played to 100 points ... 50, 150, 200, or 101" (Kelley): ``target``."""
    assert CUBAN.match.target == 100
    assert find_variant("cuban", "target=150").match.target == 150
    record = random_match(find_variant("cuban", "target=40"), seed=2, games=12)
    reps = replay_record(parse(write(record)))
    assert all(r.valid for r in reps)
    final = reps[-1].match.state.scores
    assert max(final) >= 40 and sorted(final)[0] < 40


# -- the exact search against plain minimax -----------------------------------------------------------------
def _compare(variant, hands, leader, rng, moves_first: int = 0) -> int:
    position = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    ref = Reference(variant, [[(t.low, t.high) for t in h] for h in hands], leader)
    state = ref.start
    for _ in range(moves_first):
        move = rng.choice(position.legal_moves())
        position.push(move)
        state, done = ref.play(state, from_move(move))
        assert done is None
    solver = Solver(variant)
    checked = 0
    while position.legal_moves():
        got = solver.values(position)
        assert dict(got) == ref.alternatives(state), [str(m) for m, *_ in position.history]
        checked += len(got) > 1
        move = rng.choice(position.legal_moves())
        position.push(move)
        state, _ = ref.play(state, from_move(move))
    return checked


@pytest.mark.parametrize("options", ["", "score=difference", "block=player, tie=leader", "score=all, tie=last"])
def test_solver_agrees_with_minimax_on_small_double_nine_deals(options):
    """Small deals of the double-nine set (3 or 4 tiles a hand), every option of the block and the score."""
    variant = find_variant("cuban", options)
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        pool = list(tile_set(9))
        rng.shuffle(pool)
        hands = [pool[4 * k:4 * k + rng.randint(3, 4)] for k in range(4)]
        checked += _compare(variant, hands, rng.randrange(4), rng)
    assert checked > 100


def test_solver_agrees_with_minimax_on_a_full_deal_cut_late():
    """A full Cuban deal (10 tiles each from the double-nine), played at random until about 16 tiles are left in
    the hands, then every decision compared with plain minimax."""
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        pool = list(tile_set(9))
        random.Random(seed).shuffle(pool)
        hands = [pool[10 * k:10 * (k + 1)] for k in range(4)]
        checked += _compare(CUBAN, hands, seed % 4, rng, moves_first=22)
    assert checked >= 3
