"""The search of draw games in a fixed boneyard order and of All Fives in its compact state
(``analyzer.search.draw``), compiled (``analyzer.search._draw``) and in Python, against the general
search walking the positions (``TreeSearch.draw_state = False``) and the plain minimax of
``tests/minimax_reference.py`` (``DrawReference``): the same value for every alternative at every
decision of random hands of every draw family, the same positions visited by both cores (so a node
limit stops both at the same place), a bounded table, every finished hand valued in C from the
scoring's description (``scoring.describe``, ``_leaf.h``) and only a scoring it does not know asked
of Python."""
from __future__ import annotations

import dataclasses
import itertools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import analyzer
from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.rules import find_variant
from analyzer.rules.policies import BlockDecider, DifferenceAward, HandFacts, PointScoring
from analyzer.search import TreeSearch
from analyzer.search.core import DRAW_CORE, DRAW_ENTRY_BYTES, PURE_ENV, cores_text, draw_core, resolve_draw
from analyzer.search.draw import compact_state, draw_note, plays_draws, plays_runs
from analyzer.search.scoring import BY, COUNT, TIE, describe, value_bound
from analyzer.tiles import Tile, tile_set
from conftest import RECORDS
from minimax_reference import DrawReference
from test_arms_core import _Failing, limit_stops_both_cores
from test_search import dealt, rules_for, small_deal
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

built = pytest.mark.skipif(draw_core() is None,
                           reason="the compiled search of draw games was not built (no C compiler)")

# (variant, options, tiles a seat, lead, boneyard)
FAMILIES = [
    ("draw", {"players": "2"}, 4, Tile(6, 6), 6),                     # draw until, keep 2, the opener's extra tile
    ("draw", {"players": "2", "draw": "one"}, 4, Tile(6, 6), 6),      # one tile a turn
    ("draw", {"players": "3", "draw": "one"}, 3, Tile(5, 5), 4),
    ("draw", {"players": "4"}, 3, Tile(6, 6), 5),
    ("cutthroat", {"draw": "yes"}, 4, Tile(6, 6), 6),
    ("chiva", {"players": "2"}, 4, Tile(6, 6), 6),
    ("chiva", {"players": "3"}, 3, Tile(6, 6), 5),
    ("all-fives", {}, 4, Tile(5, 5), 6),
    ("all-fives", {"draw": "no"}, 4, Tile(5, 5), 0),
    ("all-fives", {"players": "3"}, 3, Tile(5, 5), 5),
    ("all-fives-threes", {}, 4, Tile(3, 3), 6),
    ("all-fives-threes", {"draw": "one", "count": "pub"}, 3, Tile(3, 3), 5),
]


# Hungarian (004: "Ist er am Ende, versucht der nächste Spieler möglichst viele seiner Steine an der Kette
# anzusetzen", "Kann keiner der Spieler mehr auslegen..."): a player plays on while he can; a player out no
# longer plays, but the hand goes on until nobody can play (RunPosition)
HUNGARIAN = [
    ("hungarian", {"players": "2"}, 7, Tile(6, 6), 0),
    ("hungarian", {"players": "3"}, 5, Tile(6, 6), 0),
    ("hungarian", {"players": "4"}, 4, Tile(6, 6), 0),
]


def _replaced(name, options, **policies):
    return dataclasses.replace(find_variant(name, options), **policies)


# scorings of draw games beyond the families' own, which the C search now values itself (they were asked
# of Python before it shared the block and arms cores' description): (variant, tiles a seat, lead, boneyard)
NEWLY_WRITTEN = [
    (_replaced("draw", {"players": "2"}, scoring=PointScoring("difference")), 4, Tile(6, 6), 6),
    (_replaced("draw", {"players": "2"}, block=BlockDecider("team", "leader"), scoring=PointScoring("all", divide=10)),
     4, Tile(6, 6), 6),
    (_replaced("cutthroat", {"draw": "yes"}, scoring=PointScoring("milo", capicu=25)), 4, Tile(6, 6), 6),
    (_replaced("chiva", {"players": "3"}, scoring=PointScoring("losers", blank=50, chuchazo="any")), 3, Tile(6, 6), 5),
    (_replaced("draw", {"players": "3", "draw": "one"}, scoring=PointScoring("bad")), 3, Tile(5, 5), 4),
    (_replaced("draw", {"players": "4"}, block=BlockDecider("player", "more-tiles", doubles_once=True),
               scoring=PointScoring("block-difference")), 3, Tile(6, 6), 5),
    (find_variant("all-fives", {"award": "no"}), 4, Tile(5, 5), 6),
    (_replaced("all-fives", {"players": "3"}, block=BlockDecider("player", "last")), 3, Tile(5, 5), 5),
    (_replaced("all-fives-threes", {}, block=BlockDecider("team", "own-pips"), scoring=DifferenceAward(10)),
     4, Tile(3, 3), 6),
]


def _id(case) -> str:
    return "-".join([case[0]] + [f"{k}={v}" for k, v in case[1].items()])


def searches(rules, cores) -> list[TreeSearch]:
    out = [TreeSearch(rules, core=core) for core in cores]
    walk = TreeSearch(rules, core="python")
    walk.draw_state = False
    return out + [walk]


def compare_line(variant, rng, size: int, lead: Tile, yard: int, walk: bool = True, leaves: list | None = None,
                 seen: list | None = None) -> int:
    """One random deal played out at random; at every decision, for every view (two sides, or each
    player against the rest), the compact state in both cores and (``walk``) the position walk give
    every alternative the same value, both cores after visiting the same positions. Returns the
    alternatives compared; ``leaves`` gets ``(leader, finished hand)`` of every finished hand the
    pure-Python compact search valued, ``seen`` a copy of every decision compared."""
    cores = ("compiled", "python") if draw_core() is not None else ("python",)
    pos = small_deal(variant, rng, size, lead, yard)
    views = [rules_for(variant, seat) for seat in range(variant.players if variant.seating.sides > 2 else 1)]
    compared = 0
    while pos.outcome() is None:
        moves = pos.legal_moves()
        if len(moves) > 1:
            for rules in views:
                found = searches(rules, cores)[:len(cores) + walk]
                values = [search.values(pos) for search in found]
                assert all(v == values[0] for v in values), [str(m) for m, *_ in pos.history]
                assert found[0].nodes == found[len(cores) - 1].nodes       # the two cores: the same positions
                compared += len(values[0])
                if len(cores) == 2:     # the C search asked Python for no leaf value of a scoring it knows
                    unknown = describe(rules) is None
                    for deal in found[0]._draw_deals.values():
                        assert deal.python_leaves == unknown and (unknown or not deal.leaves)
                if leaves is not None:
                    leaves.extend((deal.leader, key) for deal in found[len(cores) - 1]._draw_deals.values()
                                  for key in deal.leaves)
            if seen is not None:
                seen.append(pos.copy())
        pos.push(rng.choice(moves))
    return compared


def compare_family(case, deals: int, seed, walk: bool = True) -> int:
    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    rng = random.Random(f"{seed}{name}{sorted(options.items())}")
    return sum(compare_line(variant, rng, size, lead, yard, walk) for _ in range(deals))


def test_every_draw_family_is_searched_in_the_compact_state():
    for name, options, *_ in FAMILIES:
        variant = find_variant(name, options)
        assert plays_draws(rules_for(variant)), name
        assert not plays_runs(rules_for(variant)), name
    assert not plays_draws(find_variant("partnership")) and not plays_draws(find_variant("cross"))
    for name, options, *_ in HUNGARIAN:         # a player plays on while he can: the compact state's ``run``
        variant = find_variant(name, options)
        assert plays_draws(variant) and all(plays_runs(rules_for(variant, s)) for s in range(variant.players))


@pytest.mark.parametrize("case", FAMILIES, ids=_id)
def test_both_cores_and_the_position_walk_agree_on_random_hands(case):
    assert compare_family(case, 4, "normal") > 10


def _runs_on(pos) -> bool:
    """Whether the player to move at ``pos`` laid the last tile: his run goes on."""
    return pos.history[-1][0].tile is not None and pos.history[-1][1] == pos.turn


@pytest.mark.parametrize("case", HUNGARIAN, ids=_id)
def test_both_cores_and_the_position_walk_agree_on_hungarian_hands(case):
    """Hungarian in the compact state (``run``), for each player against the rest: every alternative's value at
    every decision is the position walk's (``RunPosition``), in both cores, after the same positions. The deals
    compared hold decisions right after the lead where the leader plays on, decisions further into a run, and
    decisions with a player out while the others play on."""
    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    rng, seen = random.Random(f"hungarian{variant.players}"), []
    assert sum(compare_line(variant, rng, size, lead, yard, seen=seen) for _ in range(6)) > 40
    assert any(len(pos.history) == 1 and _runs_on(pos) for pos in seen)            # the leader plays on
    assert any(len(pos.history) > 1 and _runs_on(pos) for pos in seen)
    if variant.players > 2:          # (two players: once one is out the other's run is forced to its end)
        assert any(0 in pos.hands for pos in seen)                                  # one out, the rest play on


@built
def test_a_hungarian_hand_goes_on_after_a_player_is_out_in_both_cores():
    """A hand of four where seat 0 goes out with his second tile and the others hold tiles that play on: the
    search goes on past his going out (the values are those of the position walk), and the hand's end is
    credited to him (``domino``, the lowest seat out) whoever laid the last tile."""
    variant = find_variant("hungarian", {"players": "4"})
    hands = [[Tile(6, 6), Tile(5, 6)], [Tile(4, 5), Tile(4, 4), Tile(2, 6)], [Tile(3, 5), Tile(1, 3)],
             [Tile(0, 4), Tile(0, 0)]]
    from analyzer.rules.mechanics import position_for
    from analyzer.tiles import Move

    pos = position_for(variant, hands, 0, max_pip=6)
    pos.push(Move(Tile(6, 6), None))
    assert pos.turn == 0                    # [6-5] fits: his run goes on
    pos.push(Move(Tile(5, 6), 6))
    assert pos.hands[0] == 0 and pos.outcome() is None and pos.turn == 1
    for rules in (AgainstTheRest(variant, s) for s in range(4)):
        found = searches(rules, ("compiled", "python"))
        values = [search.values(pos) for search in found]
        assert values[0] == values[1] == values[2] and found[0].nodes == found[1].nodes
        python = next(iter(found[1]._draw_deals.values()))
        assert python.leaves and all(term == "domino" and last[0] == 0 for _, term, last in python.leaves)


class _Facts:
    """``rules`` recording the facts of every finished hand it values: a scoring the compiled search does not know
    (``describe``), so that it asks Python for each."""

    def __init__(self, rules):
        self.rules = rules
        self.variant = getattr(rules, "variant", rules)
        self.seating = rules.seating
        self.play = None
        self.facts: list[HandFacts] = []

    def value(self, facts: HandFacts) -> int:
        self.facts.append(facts)
        return self.rules.value(facts)


def _facts(facts: HandFacts) -> tuple:
    """The facts a search can know, the ends before the last tile as a pair in either order (the compact state
    sorts them where nothing is scored during play; the scorings read them so: ``PointScoring._bonuses``)."""
    before = None if facts.ends_before is None else tuple(sorted(facts.ends_before))
    return (facts.termination, facts.seat, facts.pips, facts.counts, facts.leader, facts.hands, facts.last_tile, before)


@built
@pytest.mark.parametrize("case", HUNGARIAN, ids=_id)
def test_a_finished_hungarian_hand_has_the_facts_the_position_gives_it_in_both_cores(case):
    """Every finished hand the compact state values, in either core, has the facts ``RunPosition`` gives the
    same hand (those of the plain minimax's leaves: ``domino`` credited to the lowest seat out, else ``blocked``
    to the last to lay a tile; the pips, counts, leader, hands, last tile and the ends before it); among them
    hands where a player went out and another after him."""
    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    checked = later = 0
    for deal in range(5):
        plain, pos, _ = plain_deal(variant, f"facts{name}{options}{deal}", size - 1, lead, yard)
        if pos.outcome() is not None:
            continue
        rules = _Facts(rules_for(variant, deal % variant.players))
        assert describe(rules) is None
        DrawReference(rules, ()).value(plain)
        known: dict[tuple, set] = {}
        for facts in rules.facts:
            known.setdefault(_facts(facts)[5:], set()).add(_facts(facts))
        for core in ("compiled", "python"):
            rules.facts.clear()
            TreeSearch(rules, core=core).values(pos)
            assert rules.facts
            for facts in rules.facts:
                assert _facts(facts) in known.get(_facts(facts)[5:], ()), (core, facts)
            checked += len(rules.facts)
            later += sum(f.termination == "domino" and f.counts.count(0) > 1 for f in rules.facts)
    assert checked > 20 and (later > 0 or variant.players == 2)


def _other_deals(pos, rng, count: int) -> list[tuple[int, ...]]:
    """``count`` hands of ``pos`` with the tiles of every seat but the mover's dealt again among them (as many a
    seat as before)."""
    out = []
    others = [s for s in range(pos.n) if s != pos.turn]
    tiles = [t for s in others for t in tile_set(pos.max_pip) if pos.hands[s] & t.bit]
    for _ in range(count):
        rng.shuffle(tiles)
        hands, at = list(pos.hands), 0
        for s in others:
            size = pos.hands[s].bit_count()
            hands[s] = sum(t.bit for t in tiles[at:at + size])
            at += size
        out.append(tuple(hands))
    return out


def _hungarian_decisions(variant, rng, size: int, lead: Tile):
    """Every decision along random lines of random small deals of ``variant``, without end."""
    while True:
        pos = small_deal(variant, rng, size, lead)
        while pos.outcome() is None:
            moves = pos.legal_moves()
            if len(moves) > 1:
                yield pos
            pos.push(rng.choice(moves))


@built
@pytest.mark.parametrize("case", HUNGARIAN, ids=_id)
def test_the_compiled_worlds_of_a_hungarian_decision_are_each_worlds_own_search(case):
    """``DrawSearch.worlds`` with ``run`` (the fair analysis does not call it for Hungarian yet: it searches each
    deal alone): in every world, every move's value is the one ``TreeSearch.values`` gives it there; among the
    moves, ones that empty the mover's hand (the hand goes on without him)."""
    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    rng, checked, out = random.Random(f"worlds{variant.players}"), 0, 0
    for pos in _hungarian_decisions(variant, rng, size - 2, lead):
        if checked >= 30 and out >= 2:
            break
        rules, mover = rules_for(variant, rng.randrange(variant.players)), pos.turn
        moves, roots = pos.legal_moves(), []
        for move in moves:
            pos.push(move)
            _, left, right, shape, t, drawn, _, passes, offer, (last, bit, before) = compact_state(pos, None, ())
            out += not pos.hands[mover]
            pos.pop()
            roots.append((0, move.tile.index, left, right, shape, t, drawn, passes, offer, last, bit.bit_length() - 1,
                          *(before or (-1, -1))))
        worlds = _other_deals(pos, rng, 2)
        leader = next(seat for move, seat, *_ in pos.history if move.tile is not None)
        core = draw_core().DrawSearch(pos.n, pos.max_pip, [], 0, 1, -1, [int(s == 0) for s in rules.seating.teams],
                                      describe(rules).ints(), None, 1 << 16, leader, value_bound(rules), True)
        rows, over = core.worlds(worlds, [[] for _ in worlds], mover, 0, roots, 10**7)
        assert not over
        for hands, row in zip(worlds, rows):
            world = pos.copy()
            world.hands = list(hands)
            assert row == [v for _, v in TreeSearch(rules, core="python").values(world)]
            checked += 1


# deals a family in the slow test: (with a tile less a seat, whole small deals)
MANY = 500, 100


@built
@pytest.mark.slow
def test_both_cores_agree_on_thousands_of_random_hands():
    compared = 0
    for case in FAMILIES:
        name, options, size, lead, yard = case
        short, whole = MANY
        compared += compare_family((name, options, size - 1, lead, yard), short, "many-short", walk=False)
        compared += compare_family(case, whole, "many", walk=False)
    for variant, size, lead, yard in NEWLY_WRITTEN:
        rng = random.Random(f"many-new{variant.name}{variant.scoring}{variant.block}")
        compared += sum(compare_line(variant, rng, size, lead, yard, walk=False) for _ in range(whole))
    for case in HUNGARIAN:                  # (a tile more a seat would triple their time)
        compared += compare_family(case, whole, "many", walk=False)
    assert compared > 20_000


def plain_deal(variant, seed, size: int, lead: Tile, yard: int):
    """The deal of ``small_deal`` twice: the plain draw position (for ``DrawReference``) and its copy with
    the boneyard in its order (for the search)."""
    from analyzer.search import revealed
    from analyzer.tiles import Move

    plain, order = dealt(variant, random.Random(seed), size, lead, yard)
    search = revealed(plain, order) if plain.draws else plain.copy()
    for pos in (plain, search):
        pos.push(Move(lead, None))
    plain.turn = search.turn            # the opener who may add a tile to his lead moves again
    return plain, search, order


# (the reference does not model the pubs' count of fives and threes; the position walk above checks it)
@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
@pytest.mark.parametrize("case", [f for f in FAMILIES + HUNGARIAN if f[1].get("count") != "pub"], ids=_id)
def test_the_compact_search_equals_plain_minimax_on_small_deals(case, core):
    from analyzer.search import NO_EXTRA

    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    checked = 0
    for deal in range(3):
        for seat in range(variant.players if variant.seating.sides > 2 else 1):
            rules = rules_for(variant, seat)
            plain, pos, order = plain_deal(variant, f"minimax{name}{sorted(options.items())}{deal}", min(size, 3),
                                           lead, min(yard, 4))
            reference = DrawReference(rules, order)
            rng = random.Random(deal)
            offer = getattr(pos, "offer", -1) >= 0
            for _ in range(4):
                if pos.outcome() is not None:
                    break
                expected = reference.alternatives(plain, offer)
                got = {(None if m == NO_EXTRA else m): v for m, v in TreeSearch(rules, core=core).values(pos)}
                assert got == expected, [str(m) for m, *_ in pos.history]
                checked += 1
                move = rng.choice(pos.legal_moves())
                pos.push(move)
                if move == NO_EXTRA:
                    plain.bonus, plain.turn = -1, pos.turn
                else:
                    plain.push(move)
                    plain.turn = pos.turn       # (the opener who may add a tile moves again)
                offer = getattr(pos, "offer", -1) >= 0
    assert checked >= 6


@built
@pytest.mark.parametrize("case", [FAMILIES[0], FAMILIES[7], HUNGARIAN[1]], ids=_id)
def test_the_node_limit_stops_both_cores_at_the_same_place(case):
    name, options, size, lead, yard = case
    variant = find_variant(name, options)
    limit_stops_both_cores(rules_for(variant, 1), small_deal(variant, random.Random(0), size + 2, lead, yard), 100)


@built
def test_a_small_table_replaces_entries_and_keeps_values_exact():
    variant = find_variant("all-fives", {})
    pos = small_deal(variant, random.Random(5), 6, Tile(5, 5), 6)
    python = TreeSearch(variant, core="python")
    expected = python.values(pos)
    small = TreeSearch(variant, table_mb=0.005, core="compiled")
    assert small.values(pos) == expected
    entries, nbytes = small.table_size()
    assert 0 < nbytes <= 0.005 * 2**20 and entries * DRAW_ENTRY_BYTES <= nbytes
    assert next(iter(small._draw_deals.values())).core.replaced > 0
    assert python.table_size()[0] > entries     # the Python table kept every entry


def test_the_scorings_the_compiled_search_writes():
    # 004: the draw game scores a point a game; a block goes to the single player with the fewest pips,
    # doubles counted once ("wobei Pasche nur einfach gezählt werden")
    draw = describe(find_variant("draw"))
    assert (draw.count, draw.by, draw.tie, draw.doubles_once) == (COUNT["game"], BY["player"], TIE["draw"], 1)
    # 003: All Fives: the winner gets each loser's pips less his, rounded up to five; or (the pubs) nothing
    fives = describe(find_variant("all-fives"))
    assert (fives.count, fives.unit, fives.by) == (COUNT["award"], 5, BY["player"])
    assert describe(find_variant("all-fives", {"award": "no"})).count == COUNT["nothing"]
    # one player against the rest: his seat is the view
    assert describe(AgainstTheRest(find_variant("chiva", {"players": "3"}), 2)).view == 2
    for variant, *_ in NEWLY_WRITTEN:
        for seat in range(variant.players if variant.seating.sides > 2 else 1):
            assert describe(rules_for(variant, seat)) is not None, variant
    assert draw_note(find_variant("draw"), "python") is None


@built
def test_the_compiled_search_of_draw_games_says_nothing_of_a_scoring_it_writes():
    for variant, *_ in NEWLY_WRITTEN:
        for seat in range(variant.players if variant.seating.sides > 2 else 1):
            assert draw_note(rules_for(variant, seat), "compiled") is None, variant


def _new_id(case) -> str:
    variant = case[0]
    count, tie = getattr(variant.scoring, "count", "award"), getattr(variant.block, "tie", "draw")
    return f"{variant.name}-{variant.players}-{count}-{tie}"


def test_no_draw_game_of_the_families_asks_python():
    """Every option of every family the search of draw games plays (All Fives with or without the
    award, the draw game's doubles, Cut Throat and Chiva drawing...) is described: the compiled
    search values all their hands in C."""
    from analyzer.rules import find_family

    seen = 0
    for name in ("draw", "cutthroat", "chiva", "all-fives", "all-fives-threes"):
        family, _ = find_family(name)
        specs = [spec for spec in family.options if spec.kind == "choice" or spec.kind == "bool"]
        for values in itertools.product(*[spec.values if spec.kind == "choice" else ("yes", "no") for spec in specs]):
            variant = find_variant(name, dict(zip((spec.key for spec in specs), values)))
            if not plays_draws(variant):
                continue
            for seat in range(variant.players if variant.seating.sides > 2 else 1):
                assert describe(rules_for(variant, seat)) is not None, (name, values)     # (so no draw_note)
                seen += 1
    assert seen > 50


@pytest.mark.parametrize("case", NEWLY_WRITTEN, ids=_new_id)
def test_both_cores_and_the_position_walk_agree_on_the_scorings_newly_written(case):
    variant, size, lead, yard = case
    rng = random.Random(f"new{variant.name}{variant.scoring}{variant.block}")
    assert sum(compare_line(variant, rng, size, lead, yard) for _ in range(5)) > 10


def _bound_cases():
    for name, options, size, lead, yard in FAMILIES:
        yield pytest.param(find_variant(name, options), size, lead, yard, id=_id((name, options)))
    for case in NEWLY_WRITTEN:
        yield pytest.param(*case, id=_new_id(case))


@pytest.mark.parametrize("variant, size, lead, yard", list(_bound_cases()))
def test_no_finished_hand_passes_the_value_bound_the_search_prunes_with(variant, size, lead, yard):
    """``scoring.value_bound``, which both cores prune with: every finished hand the search values, for
    every view, is worth at most the bound either way (the points beyond the pips, plus the pips still held
    at the end unless the bound is fixed). A game that scores during play has none, nor bad points against
    the rest."""
    rng = random.Random(f"bound{variant.name}{variant.scoring}{variant.block}")
    tiles = tile_set(variant.dealing.max_pip)
    checked = 0
    for seat in range(variant.players if variant.seating.sides > 2 else 1):
        rules = rules_for(variant, seat)
        bound = value_bound(rules)
        if getattr(rules, "play", None) is not None:
            assert bound is None
        if bound is None:           # (also bad points against the rest: nothing bounds them)
            continue
        fixed, most = bound
        for _ in range(3):
            pos = small_deal(variant, rng, size, lead, yard)
            while pos.outcome() is None:
                search = TreeSearch(rules, core="python")
                search.values(pos)
                for deal in search._draw_deals.values():
                    for (hands, _, _), value in deal.leaves.items():
                        held = 0 if fixed else sum(t.pips for h in hands for t in tiles if h & t.bit)
                        assert abs(value) <= most + held, (hands, value, bound)
                        checked += 1
                pos.push(rng.choice(pos.legal_moves()))
    assert checked > 10 or variant.play is not None or variant.scoring == PointScoring("bad")


@built
def test_the_leader_decides_a_tied_block_in_both_cores():
    """A tie rule that looks at who led the hand (``BlockDecider`` tie ``leader``): the C search is given
    the deal's leader. The random hands meet tied blocks where the last tile was not laid by the leader,
    whose side then wins (all pips), and both cores agree on them."""
    variant = _replaced("draw", {"players": "2"}, block=BlockDecider("team", "leader"), scoring=PointScoring("all"))
    rng, leaves = random.Random("leader"), []
    assert sum(compare_line(variant, rng, 4, Tile(6, 6), 6, walk=False, leaves=leaves) for _ in range(60)) > 150

    def pips(hand: int) -> int:
        return sum(t.pips for t in tile_set(6) if t.bit & hand)

    decided = {(leader, hands, last) for leader, (hands, termination, last) in leaves if termination == "blocked"
               and pips(hands[0]) == pips(hands[1]) and last[0] != leader}
    assert len(decided) >= 5
    assert all(variant.value(HandFacts("blocked", last[0], (pips(hands[0]),) * 2, (1, 1), leader, hands=hands))
               == (1 if leader == 0 else -1) * 2 * pips(hands[0]) for leader, hands, last in decided)


class _Scored(PointScoring):            # a subclass may score otherwise: not taken for its parent
    pass


@built
def test_a_scoring_it_does_not_know_is_asked_of_python_exactly():
    other = dataclasses.replace(find_variant("draw", {"players": "2"}), scoring=_Scored("difference"))
    assert describe(other) is None
    assert "asks Python" in draw_note(other, "compiled") and draw_note(find_variant("draw"), "compiled") is None
    assert draw_note(other, "python") is None
    rng = random.Random(9)
    assert sum(compare_line(other, rng, 4, Tile(6, 6), 6) for _ in range(4)) > 10


@pytest.mark.skipif(os.environ.get("DOMINO_REQUIRE_COMPILED") != "1", reason="only where the core must be built (CI)")
def test_the_compiled_search_of_draw_games_is_built_and_used():
    assert draw_core() is not None and DRAW_CORE == "compiled"


def test_the_environment_chooses_the_pure_python_search_of_draw_games_and_names_it():
    root = Path(analyzer.__file__).resolve().parent.parent
    code = ("import analyzer.search.core as c; from analyzer.search import TreeSearch; "
            "from analyzer.rules import find_variant; "
            "print(c.DRAW_CORE, c.resolve_draw(None), TreeSearch(find_variant('all-fives')).draw_core, c.cores_text())")
    env = dict(os.environ, **{PURE_ENV: "1"}, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=root)
    assert out.stdout.split() == ["python"] * 4, out.stderr
    assert DRAW_CORE in ("compiled", "python") and resolve_draw(None) == DRAW_CORE and DRAW_CORE in cores_text()
    assert TreeSearch(find_variant("draw")).draw_core == DRAW_CORE
    with pytest.raises(ValueError):
        resolve_draw("fast")


@built
def test_the_analysis_of_records_is_the_same_with_either_core(monkeypatch):
    for name in ("variant-draw.dom", "variant-all-fives.dom", "variant-hungarian.dom"):
        (rep,) = replay_record(read(RECORDS / name))
        compiled = analyze_replay(rep)
        monkeypatch.setattr("analyzer.search.core.DRAW_CORE", "python")
        python = analyze_replay(rep)
        monkeypatch.undo()
        assert compiled.values == python.values and None not in compiled.values
        assert [[(a.move, a.value) for a in d.alternatives] for d in compiled.decisions] == \
            [[(a.move, a.value) for a in d.alternatives] for d in python.decisions]


@built
@pytest.mark.parametrize("name", ["match-hungarian-3.dom", "match-hungarian-4.dom"])
def test_the_analysis_of_hungarian_records_is_the_position_walks(name, monkeypatch):
    """Every game of the Hungarian matches analysed in the compact state (compiled) values every alternative as
    the general search walking the positions (``RunPosition``) does."""
    games = 0
    for rep in replay_record(read(RECORDS / name)):
        compact = analyze_replay(rep)
        monkeypatch.setattr("analyzer.search.tree.plays_draws", lambda rules: False)
        walk = analyze_replay(rep)
        monkeypatch.undo()
        assert compact.values == walk.values and None not in compact.values
        assert [[(a.move, a.value) for a in d.alternatives] for d in compact.decisions] == \
            [[(a.move, a.value) for a in d.alternatives] for d in walk.decisions]
        games += 1
    assert games >= 2


@built
def test_an_error_in_a_python_leaf_value_reaches_the_caller():
    variant = find_variant("draw", {"players": "2", "draw": "one"})
    rules = _Failing(variant)
    assert describe(rules) is None
    rng = random.Random(0)
    for _ in range(20):             # a deal whose search meets a blocked hand
        pos = small_deal(variant, rng, 3, Tile(6, 6), 2)
        try:
            TreeSearch(rules, core="python").values(pos)
        except ZeroDivisionError:
            break
    else:
        pytest.fail("no deal meets a blocked hand")
    for core in ("compiled", "python"):
        with pytest.raises(ZeroDivisionError):
            TreeSearch(rules, core=core).values(pos)


@built
def test_the_default_limits_value_every_move_of_random_chiva_hands_for_three(monkeypatch):
    """Chiva for three (002: a draw game with 7 tiles each) is valued for each mover against the
    rest, the table split between three views; at 64 MB the compiled view of two hands in forty
    (seeds 4000 and 4011) ran short, replaced entries until it passed the node limit and left moves
    without a value. (The pure-Python tables are bounded alike and hold about four times fewer entries
    in the same memory: seed 4000 leaves 9 values out at 128 MB there, none at 256.)"""
    import analyzer.search.core as search_core
    from analyzer.match import random_match

    monkeypatch.setattr(search_core, "DRAW_CORE", "compiled")
    variant = find_variant("chiva", {"players": "3"})
    for seed in (4000, 4011):
        (rep,) = replay_record(random_match(variant, seed, games=1))
        analysis = analyze_replay(rep)
        assert analysis.stopped is None and None not in analysis.values, (seed, analysis.stopped)


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_the_analysis_names_a_full_table_of_the_search_of_draw_games(core, monkeypatch):
    """Where the node limit stops the analysis of a Chiva hand for three, it says the tables were full
    only when they were: with a table too small for the search, not with one of 1 GB. (At the default
    128 MB the pure-Python tables of this hand fill: it needs about 200 MB there.)"""
    import analyzer.search.core as search_core
    from analyzer.match import random_match

    monkeypatch.setattr(search_core, "DRAW_CORE", core)
    (rep,) = replay_record(random_match(find_variant("chiva", {"players": "3"}), 4000, games=1))
    small = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(5_000, 0.05)))     # (it holds 260 to 1,100 entries)
    assert None in small.values and "0.05 MB in all, were full" in small.stopped
    roomy = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(5_000, 1024)))
    assert None in roomy.values and "node limit" in roomy.stopped and "--table-mb" not in roomy.stopped
