"""The int solver knows exposed tiles (Domino Whist §8), in both cores: its values are those of a plain
minimax over the position's legal moves, both cores visit the same states, and a position where no tile
lies open is searched exactly as without the rule.

001 §8: "Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht angelegt
werden kann, gespielt werden."
"""
import random

import pytest

from analyzer.position import Position, tiles_of
from analyzer.rules import find_variant
from analyzer.search import SearchLimit, Solver
from analyzer.search.blockdeal import IntDeal, compiled_plays
from analyzer.search.core import compiled_core
from analyzer.tiles import Tile
from test_exposed_tiles import ROWS_1_3, move_values, whist

built = pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")
WHIST = find_variant("whist")


def as_valued(pos):
    """``pos`` as the solver values it: no tile exposed later than those lying open now."""
    pos = pos.copy()
    pos.reveal = ()
    return pos


def without_exposures(pos):
    pos = pos.copy()
    pos.exposed, pos.reveal = 0, None
    return pos


def reference(pos, memo):
    """The value of every legal move of ``pos`` by plain minimax over ``legal_moves()``."""
    return move_values(as_valued(pos), WHIST, memo)


def small_games(count: int, size: int, seed: int):
    """Random games of Domino Whist on ``size`` tiles a hand (the rest out of play) with one to three
    tiles exposed from the deal, and (every other game) one more exposed during play, at a random row.
    Yields each position with a choice, the game's solvers reused along it (as the analysis does)."""
    rng = random.Random(seed)
    for game in range(count):
        tiles = list(WHIST.dealing.tiles)
        rng.shuffle(tiles)
        pos = Position([tiles[i * size:(i + 1) * size] for i in range(4)], rng.randrange(4), max_pip=6)
        pos.reveal = ()
        pos.expose(sum(t.bit for t in rng.sample(tiles[:4 * size], rng.randint(1, 3))))
        later = rng.randint(1, 2 * size) if game % 2 else None
        while (moves := pos.legal_moves()):
            if len(moves) > 1:
                yield game, pos
            move = rng.choice(moves)
            if len(pos.history) + 1 == later:       # a tile exposed once this move is played
                held = [t for s in range(4) for t in tiles_of(pos.hands[s], 6) if t != move.tile]
                pos.reveal = ((later, rng.choice(held).bit),)
            pos.push(move)


def test_both_cores_value_every_alternative_as_a_plain_minimax_over_the_legal_moves():
    cores = ["python"] + (["compiled"] if compiled_core() is not None else [])
    solvers: dict = {}
    compared = changed = exposed = 0
    for game, pos in small_games(12, 5, seed=8):
        memo: dict = {}
        want = reference(pos, memo)
        nodes = set()
        for core in cores:
            solver = solvers.setdefault((game, core), Solver(WHIST, core=core))
            assert solver.values(pos) == want, (core, pos, [str(m) for m, *_ in pos.history])
            nodes.add(solver.nodes)
        assert len(nodes) == 1                      # both cores visit the same states
        compared += len(want)
        exposed += bool(pos.exposed)
        changed += Solver(WHIST).values(without_exposures(pos)) != want
    assert compared > 150 and exposed > 40
    assert changed >= 10                            # the rule changes values, not only the moves' list


@built
def test_both_cores_count_the_same_states_on_a_record_with_a_tile_exposed_from_a_row():
    """C's [4-6] lies open from row 4 of the example game: each position, valued by both cores with one
    solver each along the line (from its end back), gets the same values and the same count of states, the
    values of a plain minimax where the tile lies open; there the node limit stops either core exactly one
    state short of a fresh solver's count."""
    rep = whist('[Exposed "C [4-6] from 4"]', ROWS_1_3 + "4. A [4-4] B [0-1] C [4-6]@4 D [6-6]")
    solvers = {core: Solver(rep.variant, core=core) for core in ("compiled", "python")}
    live = 0
    for k in reversed(range(len(rep.steps))):
        pos = rep.position_at(k)
        if len(pos.legal_moves()) < 2:
            continue
        got = {core: (s.values(pos), s.nodes) for core, s in solvers.items()}
        assert got["compiled"] == got["python"], k
        live += bool(pos.exposed)
        if pos.exposed:
            assert got["python"][0] == reference(pos, {}), k
        if pos.exposed:
            fresh = {core: Solver(rep.variant, core=core) for core in solvers}
            values = {core: s.values(pos) for core, s in fresh.items()}
            (nodes,) = {s.nodes for s in fresh.values()}
            for core in solvers:
                assert Solver(rep.variant, core=core, node_limit=nodes).values(pos) == values[core]
                with pytest.raises(SearchLimit):
                    Solver(rep.variant, core=core, node_limit=nodes - 1).values(pos)
    assert live >= 2


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_where_no_tile_lies_open_the_search_is_the_one_without_the_rule(core):
    """Before row 4 nobody knows of C's [4-6] (exposed from row 4), and once it had its chance it binds no
    longer: at those positions the solver visits exactly the states, and gives the values, that it does
    for the same record without the Exposed tag."""
    moves = ROWS_1_3 + "4. A [4-4] B [0-1] C [4-6]@4 D [6-6]"
    tagged, plain = whist('[Exposed "C [4-6] from 4"]', moves), whist("", moves)
    same = 0
    for k in range(len(plain.steps)):
        pos, bare = tagged.position_at(k), plain.position_at(k)
        if pos.exposed or len(bare.legal_moves()) < 2:
            continue
        a, b = Solver(WHIST, core=core), Solver(WHIST, core=core)
        assert (a.values(pos), a.nodes) == (b.values(bare), b.nodes), k
        same += a.nodes > 0
    assert same >= 6


@built
def test_a_set_whose_keys_have_no_room_for_exposed_tiles_is_searched_in_python():
    """The compiled key holds the exposed tiles only where the state leaves a bit per tile free (double-six,
    four players, no pass bonus); with pass bonuses it has one bit less, and the pure-Python deal searches
    the positions with an exposed tile, with the same values."""
    assert compiled_plays(6, exposed=True) and not compiled_plays(6, pass_bonus=True, exposed=True)
    assert compiled_plays(9) and not compiled_plays(7, exposed=True)
    variant = find_variant("partnership", {"pass-bonus": "yes"})
    rng = random.Random(3)
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    pos = Position([tiles[i * 4:(i + 1) * 4] for i in range(4)], 0, max_pip=6)
    pos.push(pos.legal_moves()[0])
    pos.reveal = ()
    pos.expose(sum(t.bit for s in range(4) for t in tiles_of(pos.hands[s], 6)[:1]))
    compiled = Solver(variant, core="compiled")
    assert compiled.values(pos) == Solver(variant, core="python").values(pos)
    assert compiled._table is None                  # (no compiled deal was made)
    # the compiled deal itself refuses them (the Python side never passes them there)
    dealt = tuple(h | (pos.history[0][0].tile.bit if s == 0 else 0) for s, h in enumerate(pos.hands))
    K, e = IntDeal(variant, dealt, 0, 6).set_state(pos)
    assert K >> 29 == pos.exposed
    deal = compiled_core().BlockDeal(compiled_core().Table(1024), 4, 6, (0, 1, 0, 1), dealt, 0, None, bonus=(0,) * 36)
    with pytest.raises(ValueError, match="no room for exposed tiles"):
        deal.mtdf(list(pos.hands), [0, 0], K, e, pos.turn, -1, 1)


def test_a_tag_exposing_a_tile_already_played_is_a_bad_exposed_tag():
    """C played his [4-5] in row 2; a tag saying it was exposed during play before row 4 is wrong (one
    ``bad-exposed`` at the tag), and the tile does not lie open: no position holds it exposed."""
    moves = ROWS_1_3 + "4. A [4-4] B [0-1]"
    rep = whist('[Exposed "C [4-5] from 4"]', moves)
    bad = [d for d in rep.errors if d.code == "bad-exposed"]
    assert len(bad) == 1 and "C's [4-5]" in bad[0].message and "row 4" in bad[0].message
    assert bad[0].line == 4        # the tag's line (whist() writes it after three tags)
    assert all(not rep.position_at(k).exposed for k in range(len(rep.steps) + 1))


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_an_exposed_mask_holding_a_played_tile_does_not_reach_the_search(core):
    """Only the exposed tiles still held enter the solver's state (the compiled core would refuse a
    played one): a position whose mask also names a played tile has the values of one without it."""
    moves = ROWS_1_3 + "4. A [4-4] B [0-1]"
    bare = whist("", moves)
    pos = bare.position_at(len(bare.steps))
    played = Tile(4, 5).bit
    assert not played & (pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3])
    marked = pos.copy()
    marked.exposed |= played
    assert Solver(WHIST, core=core).values(marked) == Solver(WHIST, core=core).values(pos)
