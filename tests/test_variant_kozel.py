"""Kozel (issue 56, item 1), each rule with the sentence of the app's specification it comes from (issue 56 states
them; docs/variants.md in our words), on records and on the policies; its exact search against plain minimax."""
import random

import pytest

from analyzer.generate import random_game
from analyzer.match import random_match, replay_record
from analyzer.notation import parse, write
from analyzer.notation.writer import write_game
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.kozel import ONE_ONE, fisher
from analyzer.rules.mechanics import position_for
from analyzer.search.block import Solver
from analyzer.tiles import Tile, tile_set
from minimax_reference import Reference, from_move

T = Tile.parse
KOZEL = find_variant("kozel")


def _hand(*tiles: str) -> int:
    return sum(T(t).bit for t in tiles)


def _facts(term, seat, pips, hands=None, history=None):
    return HandFacts(term, seat, tuple(pips), tuple(1 for _ in pips), 0, hands, None, None, history)


# -- the deal -------------------------------------------------------------------------------------------------
def test_a_new_deal_for_five_doubles_or_six_of_one_number():
    """"re-deal when a hand has five doubles or more or six tiles or more of one number (scores kept)"."""
    d = KOZEL.dealing
    assert d.hand_size == 7 and d.all_dealt(4) and d.forced
    assert d.redeal_due({T(x) for x in "[0-0] [1-1] [2-2] [3-3] [4-4] [0-1] [0-2]".split()})
    assert not d.redeal_due({T(x) for x in "[0-0] [1-1] [2-2] [3-3] [4-5] [0-1] [0-2]".split()})
    assert d.redeal_due({T(x) for x in "[3-0] [3-1] [3-2] [3-3] [3-4] [3-5] [0-2]".split()})
    assert not d.redeal_due({T(x) for x in "[3-0] [3-1] [3-2] [3-3] [3-4] [5-6] [0-2]".split()})
    assert d.redeal_problem({T(x) for x in "[3-0] [3-1] [3-2] [3-3] [3-4] [3-5] [0-2]".split()}) is None


# -- the lead -------------------------------------------------------------------------------------------------
def _match(seed: int, options: str = "", games: int = 30):
    record = random_match(find_variant("kozel", options), seed=seed, games=games)
    reps = replay_record(parse(write(record)))
    assert all(r.valid for r in reps), [d.message for r in reps for d in r.errors]
    return reps


def test_the_one_one_holder_leads_while_both_records_are_zero():
    """"The [1-1] holder leads the first round and every round while both records are 0"."""
    for seed in range(12):
        reps = _match(seed)
        for k, rep in enumerate(reps):
            before = reps[k - 1].match.state.scores if k else (0, 0)
            if not any(before):
                assert rep.steps[0].move.tile == ONE_ONE, (seed, k)
    # a charge on the fence leaves both records 0: the [1-1] holder leads again
    m = KOZEL.match
    fenced = m.apply(m.start(2), KOZEL.hand_result(_facts("domino", 0, [0, 3, 2, 5])))
    assert fenced.fence == (0, 8) and m.lead(fenced, KOZEL.seating).tile == ONE_ONE
    assert m.lead(m.apply(fenced, KOZEL.hand_result(_facts("domino", 0, [0, 30, 2, 5]))), KOZEL.seating) is None


def test_a_lead_of_another_tile_while_the_records_are_zero_is_an_error():
    """The first round is led by the [1-1] holder with it: another lead is ``lead-tile`` or ``lead-player``."""
    text = write_game(random_game(KOZEL, 4)).replace("[Variant", '[Game "1"]\n[Variant', 1)
    (rep,) = replay_record(parse(text))
    assert rep.valid and rep.steps[0].move.tile == ONE_ONE
    first = next(line for line in text.splitlines() if line.startswith(("A [", "B [", "C [", "D [")))
    holder = first.split()[0]
    hand = next(line for line in text.splitlines() if line.startswith(f"{holder}: "))
    other = next(x for x in hand[3:].replace("] [", "]|[").split("|") if x != "[1-1]")
    wrong = text.replace(first, first.replace("[1-1]", other, 1), 1)
    (bad,) = replay_record(parse(wrong))
    assert {"lead-tile", "lead-player"} & {d.code for d in bad.errors}


def test_later_the_player_who_went_out_or_the_fisher_leads_any_tile():
    """"after that the player who went out, or after a block the 'fisher' (the last player to lay a non-double
    before it), leads any tile"."""
    v = KOZEL
    out = _facts("domino", 2, [5, 9, 0, 4])
    req = v.lead.requirement(0, v.hand_result(out), out, v.seating)
    assert req.seats == frozenset({2}) and req.tile is None
    history = ((0, T("[1-1]")), (1, T("[1-4]")), (2, T("[4-4]")), (3, None), (0, None), (1, None), (2, None))
    fish = _facts("blocked", 2, [5, 9, 8, 4], history=history)
    assert fisher(fish, 2) == 1
    assert v.lead.requirement(0, v.hand_result(fish), fish, v.seating).seats == frozenset({1})
    # the records decide first: while both are 0 the [1-1] holder leads
    state = v.match.start(2)
    assert v.match.lead(state, v.seating).holder_of == ONE_ONE
    assert find_variant("kozel", "zero-lead=winner").match.lead(state, v.seating) is None
    for seed in range(6):
        reps = _match(seed)
        for k in range(1, len(reps)):
            if any(reps[k - 1].match.state.scores):
                prev = reps[k - 1]
                expected = prev.result.seat if prev.result.termination == "domino" else fisher(prev.facts,
                                                                                                prev.result.seat)
                assert reps[k].initial.turn == expected


# -- the count and the charges ---------------------------------------------------------------------------------
def test_double_blank_alone_counts_ten():
    """"A hand counts its pips, except that [0-0] alone counts 10 (with other tiles 0)"."""
    hands = (_hand("[0-0]"), _hand("[1-2]"), _hand("[0-0]") * 0 + _hand("[0-1]"), _hand("[2-2]"))
    out = KOZEL.hand_result(_facts("domino", 1, [0, 3, 1, 4], hands=(hands[0], 0, hands[2], hands[3])))
    assert out.winner == 1 and out.scores == (11, 0)
    both = (_hand("[0-0]", "[0-1]"), 0, _hand("[1-1]"), _hand("[2-2]"))
    assert KOZEL.hand_result(_facts("domino", 1, [1, 0, 2, 4], hands=both)).scores == (3, 0)


def test_a_fish_the_higher_remainder_loses_and_equal_remainders_are_eggs():
    """"after a block ('fish'), either the higher remainder loses and is charged (equal remainders: 'eggs', their
    sum carried to the next loser), or, in the variant without eggs, each team is charged its own and nobody
    wins"."""
    result = KOZEL.hand_result(_facts("blocked", 0, [10, 3, 12, 30]))
    assert result.winner == 0 and result.scores == (0, 33)
    eggs = KOZEL.hand_result(_facts("blocked", 0, [10, 3, 12, 19]))
    assert eggs.winner is None and eggs.scores == (0, 0) and dict(eggs.bonuses)["eggs"] == 44
    no_eggs = find_variant("kozel", "eggs=no")
    fish = no_eggs.hand_result(_facts("blocked", 0, [10, 3, 12, 30]))
    assert fish.winner is None and fish.scores == (22, 33)


def test_eggs_are_carried_to_the_next_loser():
    """Equal remainders: "eggs", their sum carried to the next loser."""
    m, seating = KOZEL.match, KOZEL.seating
    state = m.apply(m.start(2), KOZEL.hand_result(_facts("blocked", 0, [10, 3, 12, 19])))
    assert state.eggs == 44 and state.scores == (0, 0)
    state = m.apply(state, KOZEL.hand_result(_facts("domino", 0, [0, 3, 2, 5])))
    assert state.eggs == 0 and state.scores == (0, 44 + 8)
    assert seating.teams == (0, 1, 0, 1)


def test_the_fence():
    """"A team whose record is 0 and whose charge is below 13 puts it 'on the fence' instead of opening its record;
    13 or more opens it with the fence added; winning a round clears the winner's fence"."""
    m = KOZEL.match
    state = m.apply(m.start(2), KOZEL.hand_result(_facts("domino", 0, [0, 3, 2, 5])))    # B/D charged 8
    assert state.scores == (0, 0) and state.fence == (0, 8)
    state = m.apply(state, KOZEL.hand_result(_facts("domino", 0, [0, 10, 2, 5])))        # 15: opens with the fence
    assert state.scores == (0, 23) and state.fence == (0, 0)
    state = m.apply(m.start(2), KOZEL.hand_result(_facts("domino", 0, [0, 3, 2, 5])))
    state = m.apply(state, KOZEL.hand_result(_facts("domino", 1, [3, 0, 2, 5])))         # B/D win: fence cleared
    assert state.fence == (5, 0) and state.scores == (0, 0)
    state = m.apply(state, KOZEL.hand_result(_facts("domino", 0, [0, 30, 2, 5])))        # a record already open
    state = m.apply(state, KOZEL.hand_result(_facts("domino", 0, [0, 1, 2, 1])))
    assert state.scores == (0, 37)


def test_the_limit_and_the_draw_at_the_limit():
    """"The team whose record reaches the limit (101, or 50) loses the game; in the variant without eggs, both at
    the limit: the higher loses, equal is a draw"."""
    assert KOZEL.match.target == 101 and find_variant("kozel-50").match.target == 50
    m = KOZEL.match
    state = m.apply(m.start(2), KOZEL.hand_result(_facts("domino", 0, [0, 60, 2, 41])))
    assert state.over and state.winner == 0
    no_eggs = find_variant("kozel", "eggs=no")
    m = no_eggs.match
    start = m.start(2)
    both = m.apply(start, no_eggs.hand_result(_facts("blocked", 0, [60, 41, 50, 70])))
    assert both.scores == (110, 111) and both.over and both.winner == 0 and not both.drawn
    equal = m.apply(start, no_eggs.hand_result(_facts("blocked", 0, [60, 41, 50, 69])))
    assert equal.over and equal.drawn and equal.winner is None
    reps = _match(3)
    assert reps[-1].match.state.over and max(reps[-1].match.state.scores) >= 101


# -- the exact search against plain minimax --------------------------------------------------------------
@pytest.mark.parametrize("options", ["", "eggs=no"])
def test_solver_agrees_with_minimax_on_small_deals(options):
    """Small deals (3 or 4 tiles a hand, [0-0] among them often): the values the search gives are the charges'
    difference under best play, as plain minimax computes them from the variant."""
    variant = find_variant("kozel", options)
    rng = random.Random(5)
    checked = 0
    for _ in range(80):
        pool = list(tile_set())
        rng.shuffle(pool)
        hands = [pool[4 * k:4 * k + rng.randint(3, 4)] for k in range(4)]
        leader = rng.randrange(4)
        position = position_for(variant, hands, leader)
        ref = Reference(variant, [[(t.low, t.high) for t in h] for h in hands], leader)
        state = ref.start
        solver = Solver(variant)
        while position.legal_moves():
            got = solver.values(position)
            assert dict(got) == ref.alternatives(state)
            checked += len(got) > 1
            move = rng.choice(position.legal_moves())
            position.push(move)
            state, _ = ref.play(state, from_move(move))
    assert checked > 100


def test_a_hand_of_six_of_one_number_played_is_an_error():
    """A hand of six tiles or more of one number must be dealt again: playing it is ``redeal`` (an error), and the
    random deals never hold one."""
    hands = {"A": "[3-0] [3-1] [3-2] [3-3] [3-4] [3-5] [0-2]", "B": "[1-1] [0-0] [0-1] [1-2] [1-4] [1-5] [1-6]",
             "C": "[2-2] [2-4] [2-5] [2-6] [0-4] [0-5] [0-6]", "D": "[3-6] [4-4] [4-5] [4-6] [5-5] [5-6] [6-6]"}
    text = ('[Variant "kozel"]\n[Players "A, B, C, D"]\n\n' + "\n".join(f"{k}: {v}" for k, v in hands.items())
            + "\n\n1. B [1-1] C pass D pass A [3-1]\n")
    (rep,) = replay_record(parse(text))
    redeal = [d for d in rep.errors if d.code == "redeal"]
    assert redeal and "6 tiles of one number" in redeal[0].message
    for seed in range(40):
        game = random_game(KOZEL, seed)
        assert not any(KOZEL.dealing.redeal_due(set(h.tiles)) for h in game.hands)


# -- on records: zero-lead=winner, a re-deal keeping the scores (issue 56's audit) ------------------------------
def _first_move(text: str, game: int) -> tuple[int, int]:
    """The line and column (1-based) of the lead tile of game ``game`` of ``text``."""
    seen = 0
    for k, line in enumerate(text.splitlines()):
        if line.startswith("[Game "):
            seen += 1
        elif seen == game and line.startswith("1. "):
            return k + 1, line.index(line.split()[2]) + 1
    raise AssertionError(f"no move row in game {game}")


@pytest.mark.parametrize("seed, how", [(25, "domino"), (95, "fish")])
def test_zero_lead_winner_on_a_record(seed, how):
    """"The app itself sometimes lets the player who went out lead while both records are still 0": under
    ``zero-lead=winner`` the round after one that leaves both records 0 is led by the player who went out (or after
    a fish by the fisher, "the last player to lay a non-double before it"), any tile; under the default the same
    record is a lead error at that lead, since "the [1-1] holder leads ... every round while both records are 0"."""
    variant = find_variant("kozel", "zero-lead=winner")
    text = write(random_match(variant, seed=seed, games=2))
    reps = replay_record(parse(text, "kozel.dom"))
    assert len(reps) == 2 and all(r.valid for r in reps), [str(d) for r in reps for d in r.errors]
    first, second = reps
    assert first.game.tags["Score"] == "A/C 0, B/D 0" and how in first.game.tags["Result"].replace("draw blocked",
                                                                                                   "fish")
    laid = [(m.player, m.tile) for m in first.game.moves if m.tile is not None]
    expected = laid[-1][0] if how == "domino" else [p for p, t in laid if not t.is_double][-1]
    assert second.game.tags["Lead"] == expected and second.players[second.initial.turn] == expected
    assert second.steps[0].move.tile != ONE_ONE
    default = text.replace('[Rules "zero-lead=winner"]\n', "")
    (_, bad) = replay_record(parse(default, "kozel.dom"))
    wrong = [d for d in bad.errors if d.code in ("lead-player", "lead-tile")]
    assert wrong and (wrong[0].line, wrong[0].column) == _first_move(default, 2), [str(d) for d in bad.errors]


def test_a_re_deal_keeps_the_scores():
    """"re-deal when a hand has five doubles or more or six tiles or more of one number (scores kept)": a round
    dealt again in the middle of a match ([Redeal "B"], its deal and no moves) counts for nothing; the records stay
    as they were and the next deal is led as the dealt-again one would have been."""
    record = random_match(KOZEL, seed=124, games=3)
    text = write(record)
    hands = {"A": "[0-0] [0-1] [0-2] [1-1] [1-2] [2-2] [0-6]",
             "B": "[3-0] [3-1] [3-2] [3-3] [3-4] [3-5] [0-4]",      # six tiles of the 3
             "C": "[1-4] [1-5] [1-6] [2-4] [2-5] [2-6] [0-5]",
             "D": "[3-6] [4-4] [4-5] [4-6] [5-5] [5-6] [6-6]"}
    redeal = ('[Game "2"]\n[Variant "kozel"]\n[Players "A, B, C, D"]\n[Redeal "B"]\n\n'
              + "\n".join(f"{k}: {v}" for k, v in hands.items()) + "\n\n")
    at = text.index('[Event', text.index('[Game "2"]') - 200)
    text = text[:at] + redeal + text[at:]
    reps = replay_record(parse(text, "kozel.dom"))
    assert len(reps) == 4 and all(r.valid for r in reps), [str(d) for r in reps for d in r.errors]
    assert reps[1].redealt and "redeal-game" in [d.code for d in reps[1].diagnostics]
    stated = [g.tags.get("Score") for g in record.games]                     # the scores the match wrote
    assert stated[0] == "A/C 0, B/D 30"
    assert reps[1].match.state.scores == reps[0].match.state.scores == (0, 30)
    assert reps[2].game.tags["Score"] == stated[1] and reps[3].game.tags["Score"] == stated[2]
    assert reps[3].match.state.scores == (0, 44)
    # the deal after the re-deal is led by the player who went out of the last round played (A), as it would be
    assert [m.player for m in reps[0].game.moves if m.tile is not None][-1] == "A" == reps[2].game.tags["Lead"]
    # a Redeal tag for a hand that needs none is an error
    unfounded = text.replace('[Redeal "B"]', '[Redeal "A"]')
    assert "redeal-unfounded" in [d.code for d in replay_record(parse(unfounded))[1].errors]


RECORDS = __import__("pathlib").Path(__file__).resolve().parent.parent / "records"


def _remainders(game) -> list[int]:
    """Each team's pips left at the end of ``game`` (the deal less the tiles played; [0-0] alone counts 10)."""
    played = {m.tile for m in game.moves if m.tile is not None}
    out = [0, 0]
    for k, hand in enumerate(game.hands):
        left = [t for t in hand.tiles if t not in played]
        out[k % 2] += 10 if left == [T("[0-0]")] else sum(t.low + t.high for t in left)
    return out


def test_the_record_of_kozel_50_without_eggs_ends_in_a_draw_at_the_limit():
    """records/match-kozel-50-no-eggs.dom (docs/variants.md): "in the variant without eggs, each team is charged its
    own and nobody wins" a fish; "The team whose record reaches the limit (101, or 50) loses the game; in the
    variant without eggs, both at the limit: the higher loses, equal is a draw". The charges are summed here from
    the record's tiles, not read from the tool."""
    reps = replay_record(parse((RECORDS / "match-kozel-50-no-eggs.dom").read_text(), "match-kozel-50-no-eggs.dom"))
    assert all(r.valid for r in reps), [str(d) for r in reps for d in r.errors]
    assert reps[0].variant.match.target == 50 and reps[0].variant.option("eggs") == "no"
    records = [0, 0]
    fish = 0
    for rep in reps:
        rest = _remainders(rep.game)
        if rep.result.termination == "blocked":
            fish += 1
            assert rep.result.winner is None
            charges = rest                                      # each team its own
        else:
            charges = [0, 0]
            charges[1 - rep.result.winner] = rest[1 - rep.result.winner]
        for side in (0, 1):
            assert records[side] or not charges[side] or charges[side] >= 13     # no fence in this record
            records[side] += charges[side]
        assert rep.match.state.scores == tuple(records)
    assert fish >= 2 and records[0] == records[1] >= 50
    final = reps[-1].match.state
    assert final.over and final.drawn and final.winner is None
    assert reps[0].steps[0].move.tile == ONE_ONE                 # both records 0: the [1-1] holder leads
