"""The fair-play hand model (issue 53): hands played by what the players know.

Facts checked: told the true deal as its only world, the fair-play policy plays every hand as the open-hands
policy does (the same deals, the same moves, so the same outcomes), since the open-hands value of the true
deal is what that policy maximises; on a tiny deal, its choice at every decision whose worlds it lists is the
best by the mean over an explicit enumeration of those worlds (every placement of the tiles the mover has not
seen, kept when every move so far is legal in it, each move valued by a plain minimax written apart from the
solver), with the fair analysis's order: the highest mean for his side, then the most worlds won, then the
first in move order."""
from __future__ import annotations

import dataclasses
import itertools

import pytest

from analyzer.analysis.fairplay import FairPlayer
from analyzer.equity.model import HandPlayers, simulate_mode
from analyzer.position import mask_of
from analyzer.rules.policies import Dealing
from analyzer.rules.variants import find_variant
from analyzer.search.core import compiled_core
from analyzer.tiles import Tile

try:
    from minimax_reference import Reference, from_move
except ImportError:  # tests/ imported as a package
    from tests.minimax_reference import Reference, from_move


def _true_deal(choice, every, rng):
    """The deal as it was, the only world valued; checked to be one of the worlds where they are few."""
    dealt = tuple(mask_of(h) for h in choice.hands)
    if every.count <= 300:
        assert dealt in [every.view.deal(world) for world in every]
    return [dealt]


@pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (pure Python: slow)")
@pytest.mark.parametrize("name,mode", [("partnership", "holder:[6-6]:forced"), ("partnership", "open"),
                                       ("whist", "open")])
def test_with_the_true_deal_as_its_only_world_it_plays_as_the_open_hands_policy(name, mode):
    v = find_variant(name)
    player = FairPlayer(1, deals=_true_deal)
    fair = simulate_mode(v, mode, 6, seed=5, players=HandPlayers(choose=player))
    open_hands = simulate_mode(v, mode, 6, seed=5)
    assert player.decisions > 30
    assert (fair.outcomes, fair.total, fair.total_sq) == (open_hands.outcomes, open_hands.total, open_hands.total_sq)


def _tiny(hand: int = 3, max_pip: int = 4):
    return dataclasses.replace(find_variant("partnership"), dealing=Dealing(hand, max_pip))


def _worlds_by_brute_force(choice) -> list[list[tuple[Tile, ...]]]:
    """Every deal the mover cannot tell apart from the true one: the tiles he has not seen placed in every
    way in the other hands (as many as each holds now) and the sleepers, kept when every move so far is
    legal in it (a pass: the passer had no tile that fits). Each as the hands dealt."""
    seat, v = choice.seat, choice.variant
    played = {s: [m.tile for t, m in choice.played if t == s and m.tile is not None] for s in range(4)}
    now = [len(choice.hands[s]) - len(played[s]) for s in range(4)]
    seen = set(choice.hands[seat]) | {t for tiles in played.values() for t in tiles}
    unseen = [t for t in v.dealing.tiles if t not in seen]
    others = [s for s in range(4) if s != seat]
    out = []

    def place(i, left, hands):
        if i == len(others):
            yield hands
            return
        for chosen in itertools.combinations(left, now[others[i]]):
            rest = [t for t in left if t not in chosen]
            yield from place(i + 1, rest, {**hands, others[i]: list(chosen) + played[others[i]]})

    for hands in place(0, unseen, {seat: list(choice.hands[seat])}):
        ref = Reference(v, [[(t.low, t.high) for t in hands[s]] for s in range(4)], leader=choice.leader)
        state, legal = ref.start, True
        for _, move in choice.played:
            if from_move(move) not in ref.moves(state):
                legal = False
                break
            state, _ = ref.play(state, from_move(move))
        if legal:
            out.append([tuple(hands[s]) for s in range(4)])
    return out


def _brute_best(choice, worlds):
    """The best move by the mean over ``worlds`` (plain minimax in each), then the worlds won, then move order."""
    v = choice.variant
    sign = 1 if v.seating.teams[choice.seat] == 0 else -1
    sums = {m: 0 for m in choice.legal}
    won = {m: 0 for m in choice.legal}
    for hands in worlds:
        ref = Reference(v, [[(t.low, t.high) for t in h] for h in hands], leader=choice.leader)
        state = ref.start
        for _, move in choice.played:
            state, _ = ref.play(state, from_move(move))
        values = ref.alternatives(state)
        for m in choice.legal:
            sums[m] += values[m]
            won[m] += sign * values[m] > 0
    return max(choice.legal, key=lambda m: (sign * sums[m], won[m]))


@pytest.mark.slow
def test_on_a_tiny_deal_its_choice_is_the_best_mean_over_every_world_enumerated():
    v = _tiny()
    checked = []
    fair = FairPlayer(10 ** 6)           # more worlds than there are: every one listed
    early = FairPlayer(1, deals=_true_deal)

    def both(choice):
        mine = sum(1 for s, m in choice.played if s == choice.seat and m.tile is not None)
        if len(choice.played) < 6 or len(choice.hands[choice.seat]) - mine > 2:
            return early(choice)         # (too many worlds to list by brute force: played with all hands open)
        before = fair.worlds_valued
        move = fair(choice)
        worlds = _worlds_by_brute_force(choice)
        assert fair.worlds_valued - before == len(worlds)
        assert move == _brute_best(choice, worlds)
        checked.append(len(worlds))
        return move

    both.policy = fair.policy
    simulate_mode(v, "open", 12, seed=2, players=HandPlayers(choose=both))
    assert len(checked) >= 8 and max(checked) > 1
