"""Cuban double-nine (issue 56, item 2), each rule with the sentence it comes from (the sources' words in ours,
docs/variants.md names them), and its exact search checked against plain minimax."""
import random

import pytest

from analyzer.generate import random_game, random_hand
from analyzer.match import random_match, replay_record
from analyzer.notation import parse, write
from analyzer.notation.writer import write_game
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.mechanics import position_for
from analyzer.rules.policies import LeadRequirement
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


# -- the options of the lead and of a tied block, on records (issue 56's audit) -------------------------------
SEATS = ("A", "B", "C", "D")


def _move_line(text: str, game: int) -> tuple[int, str]:
    """The line number and text of game ``game``'s first move row (1-based, as the diagnostics count)."""
    lines = text.splitlines()
    seen = 0
    for k, line in enumerate(lines):
        if line.startswith("[Game "):
            seen += 1
        elif seen == game and line.startswith("1. "):
            return k + 1, line
    raise AssertionError(f"no move row in game {game}")


def _lead_error(text: str, game: int, codes=("lead-player", "lead-tile")):
    """The lead error of game ``game`` (1-based) of ``text``, checked to sit at the first move's tile."""
    reps = replay_record(parse(text, "cuban.dom"))
    assert all(r.valid for r in reps[:game - 1]), [d.message for r in reps for d in r.errors]
    wrong = [d for d in reps[game - 1].errors if d.code in codes]
    assert wrong, [str(d) for d in reps[game - 1].errors]
    number, line = _move_line(text, game)
    tile = line.split()[2]
    assert (wrong[0].line, wrong[0].column) == (number, line.index(tile) + 1), str(wrong[0])
    return wrong[0]


def _second_game(options: str, seed: int, leader: int, tile_check=None):
    """A match of two hands under ``options``: the first a legal random hand, the second a random hand of another
    deal led by seat ``leader`` (with any tile unless ``tile_check`` rejects the lead), as text."""
    variant = find_variant("cuban", options)
    record = random_match(variant, seed=seed, games=2)
    for k in range(200):
        game, _, _ = random_hand(CUBAN, random.Random(k), LeadRequirement(seats=frozenset({leader})), SEATS)
        if tile_check is None or tile_check(game):
            break
    game.tags = {"Game": "2", **{t: v for t, v in game.tags.items() if t != "Rules"}, "Rules": variant.rules_text}
    record.games[1:] = [game]
    return record, write(record)


def test_lead_winners_either_player_of_the_side_that_won_leads():
    """``lead=winners``: "either player of the side that won" leads the next hand, any tile (docs/variants.md,
    Cuban, the lead); a player of the losing side leading is ``lead-player`` at the lead."""
    first = random_match(find_variant("cuban", "lead=winners"), seed=5, games=1).games[0]
    won = first.tags["Result"].split()[0]                         # "A/C": the side that won the first hand
    assert won in ("A/C", "B/D")
    for seat in range(4):
        _, text = _second_game("lead=winners", 5, seat)
        if SEATS[seat] in won.split("/"):
            reps = replay_record(parse(text, "cuban.dom"))
            assert all(r.valid for r in reps), (seat, [str(d) for r in reps for d in r.errors])
        else:
            assert _lead_error(text, 2, ("lead-player",))
    # under the default (the next player after the last leader) the winners' partner of that leader may not lead
    leader = SEATS.index(first.tags["Lead"])
    partner = (leader + 2) % 4
    _, text = _second_game("lead=winners", 5, partner)
    if SEATS[partner] in won.split("/"):
        assert _lead_error(text.replace('[Rules "lead=winners"]', '[Rules "lead=rotate"]'), 2, ("lead-player",))


def test_lead_highest_double_every_hand():
    """``lead=highest-double``: every hand is opened as the first, by the holder of the highest double dealt, with it
    ("The player holding the highest double sets it", digigamers.com, The Block Game, also known as Cuban
    Dominoes with the double-nine and ten tiles each); another tile, or another player, is a lead error."""
    variant = find_variant("cuban", "lead=highest-double")
    reps = replay_record(parse(write(random_match(variant, seed=5, games=4))))
    assert len(reps) >= 3 and all(r.valid for r in reps), [str(d) for r in reps for d in r.errors]
    for rep in reps:
        dealt = [t for h in rep.game.hands for t in h.tiles]
        top = max(t for t in dealt if t.is_double)
        assert rep.steps[0].move.tile == top and top in rep.game.hands[rep.initial.turn].tiles

    def top_of(game):
        dealt = [t for h in game.hands for t in h.tiles]
        return max(t for t in dealt if t.is_double)

    def holder(game):
        return next(k for k, h in enumerate(game.hands) if top_of(game) in h.tiles)

    def second_game(game) -> str:
        """The text of a match whose second game is ``game`` (under the variant's rules)."""
        record = random_match(variant, seed=5, games=1)
        game.tags = {"Game": "2", **{t: v for t, v in game.tags.items() if t != "Rules"}, "Rules": variant.rules_text}
        record.games.append(game)
        return write(record)

    # the holder of the highest double leads another tile: lead-tile
    for k in range(400):
        game, _, _ = random_hand(CUBAN, random.Random(k), LeadRequirement(seats=frozenset({k % 4})), SEATS)
        lead = next(m for m in game.moves if m.tile is not None)
        if holder(game) == k % 4 and lead.tile != top_of(game):
            break
    else:
        raise AssertionError("no deal led by the holder of the highest double with another tile")
    assert _lead_error(second_game(game), 2, ("lead-tile", "lead-player"))
    # somebody else leads: lead-player
    for k in range(100):
        game, _, _ = random_hand(CUBAN, random.Random(k), LeadRequirement(seats=frozenset({1})), SEATS)
        if holder(game) != 1:
            break
    else:
        raise AssertionError("no deal where B does not hold the highest double")
    assert _lead_error(second_game(game), 2, ("lead-player",))


def test_first_draw_a_player_chosen_by_lot_leads_any_tile():
    """``first=draw``: "The first player is decided by a draw of lot" and "Lead player can start with any tile"
    (onlinedominogames.com): the first hand is led by the player the SeatDraw tag names, any tile; with no
    SeatDraw tag anyone may lead it; under the default (the highest double) such a lead is an error."""
    variant = find_variant("cuban", "first=draw")
    record = random_match(variant, seed=5, games=3)
    text = write(record)
    assert "[SeatDraw " in text
    reps = replay_record(parse(text))
    assert all(r.valid for r in reps), [str(d) for r in reps for d in r.errors]
    dealt = [t for h in reps[0].game.hands for t in h.tiles]
    assert reps[0].steps[0].move.tile != max(t for t in dealt if t.is_double)      # any tile, not the double
    # no SeatDraw tag: each of the four may lead the first hand, any tile
    refused = 0
    for seat in range(4):
        game, _, _ = random_hand(CUBAN, random.Random(seat), LeadRequirement(seats=frozenset({seat})), SEATS)
        game.tags = {"Game": "1", **{t: v for t, v in game.tags.items() if t != "Rules"}, "Rules": "first=draw"}
        text = write_game(game)
        (rep,) = replay_record(parse(text, "cuban.dom"))
        assert rep.valid and rep.initial.turn == seat, [str(d) for d in rep.errors]
        top = max(t for h in game.hands for t in h.tiles if t.is_double)
        if rep.steps[0].move.tile != top:
            assert _lead_error(text.replace('[Rules "first=draw"]', '[Rules "first=highest-double"]'), 1)
            refused += 1
    assert refused >= 2
    # with the SeatDraw tag, another player than the one it names leading: lead-player
    first = record.games[0]
    named = first.tags["Lead"]
    other = next(s for s in range(4) if SEATS[s] != named)
    game, _, _ = random_hand(CUBAN, random.Random(1), LeadRequirement(seats=frozenset({other})), SEATS)
    game.tags = {"Game": "1", **{t: v for t, v in game.tags.items() if t != "Rules"}, "Rules": "first=draw",
                 "SeatDraw": first.tags["SeatDraw"]}
    assert _lead_error(write_game(game), 1, ("lead-player",))


def _left(game) -> list[int]:
    """Each side's pips left in the hands at the end of ``game`` (the deal less the tiles the record plays)."""
    played = {m.tile for m in game.moves if m.tile is not None}
    out = [0, 0]
    for k, hand in enumerate(game.hands):
        out[k % 2] += sum(t.low + t.high for t in hand.tiles if t not in played)
    return out


def test_tie_last_a_tied_block_goes_to_the_side_that_blocked():
    """``tie=last``: "a block with equal counts: ... the side of the player who blocked wins" (docs/variants.md,
    Cuban, a block; the blocking game's rule that the player who caused the block is paid, en.wikipedia.org,
    Dominoes, Blocking game), scoring the losers' pips ("Winning team scores total pip count of remaining dominoes
    in losing team's hands", onlinedominogames.com); with the default ``tie=draw`` nobody scores."""
    variant = find_variant("cuban", "tie=last")
    game, _, _ = random_hand(variant, random.Random(4), None, SEATS)     # a deal whose block leaves equal counts
    text = write_game(game)
    assert "blocked" in game.tags["Result"]
    left = _left(game)
    assert left[0] == left[1]
    blocker = SEATS.index([m.player for m in game.moves if m.tile is not None][-1])
    side = ("A/C", "B/D")[blocker % 2]
    stated = f'[Result "{side} {left[1 - blocker % 2]} blocked"]'
    assert stated in text
    (rep,) = replay_record(parse(text))
    assert rep.valid, [str(d) for d in rep.errors]
    assert rep.result.winner == blocker % 2 and rep.result.points == left[0]
    # the same hand as a draw, or won by the other side, is refused under tie=last
    for wrong in ('[Result "draw blocked"]', f'[Result "{("A/C", "B/D")[1 - blocker % 2]} {left[0]} blocked"]'):
        (bad,) = replay_record(parse(text.replace(stated, wrong)))
        assert "result-mismatch" in [d.code for d in bad.errors], wrong
    # under the default tie=draw the tied block scores nothing: the draw is valid, the blocker's win is not
    plain = text.replace('[Rules "tie=last"]', '[Rules "tie=draw"]')
    (rep,) = replay_record(parse(plain.replace(stated, '[Result "draw blocked"]')))
    assert rep.valid and rep.result.winner is None and rep.result.points == 0
    (bad,) = replay_record(parse(plain))
    assert "result-mismatch" in [d.code for d in bad.errors]
