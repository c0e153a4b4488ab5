"""The public-tree CFR solver on the draw game for two (docs/hidden.md).

Once the boneyard is down to the tiles the rules keep back (004, "Domino, Grundregel": "sind alle Steine bis auf
zwei, die im Talon bleiben, gekauft"), every move left is public and the kept tiles lie as sleepers do; a blocked
hand is won by the fewest pips, "wobei Pasche nur einfach gezählt werden". Before that, a player who cannot play
draws ("muss er so lange kaufen, bis er ... anlegen kann"), a tile only he sees: the tree's draw nodes. The solver is
checked against the sequence-form LP (the existing exact mode, which takes each order of the boneyard as a world of
its own) and against test_hidden's brute force over pure strategies, on deals of the double-three set; and on
generated records through ``analyze --fair``."""
from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

pytest.importorskip("scipy")

from analyzer.analysis.hiddenfair import CFR_SHOWN  # noqa: E402
from analyzer.cli import main  # noqa: E402
from analyzer.hidden import (build_game, hidden_decision, public_game, public_stock_down, side0_value,  # noqa: E402
                             solve_game)
from analyzer.hidden.cfr import build_tree, cfr_decision, cfr_supported, kernel, solve  # noqa: E402
from analyzer.hidden.ranges import pip_valued  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.position import mask_of  # noqa: E402
from analyzer.rules.facts import HandFacts  # noqa: E402
from analyzer.rules.mechanics import position_for  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.tiles import Move, Tile, tile_set  # noqa: E402
from test_hidden import PURE_LIMIT, infosets, matrix_value, one_hot, pure_strategies  # noqa: E402

DRAW = find_variant("draw", {"players": "2"})
ROUNDING = 1e-9
COMPILED = [False] + ([True] if kernel() is not None else [])
LEAD, REPLY, THIRD = Tile(3, 3), Tile(2, 3), Tile(1, 3)


def stock_down(a, b, yard, third: bool = False):
    """The draw game for two of the double-three set: seat 0 dealt [3-3] and ``a``, seat 1 [2-3] and ``b``, the
    boneyard ``yard`` (the two tiles it keeps); [3-3] led, [2-3] laid on it: seat 0 to move, nothing to draw (with
    ``third``, seat 0 dealt [1-3] too and laid it on the 3: seat 1 to move)."""
    pos = position_for(DRAW, [[LEAD, *a] + ([THIRD] if third else []), [REPLY, *b]], 0, max_pip=3)
    pos.pool, pos.stock = mask_of(yard), len(yard)
    pos.push(Move(LEAD, None))
    pos.push(Move(REPLY, 3))
    if third:
        pos.push(Move(THIRD, 3))
    assert pos.keep == 2 and pos.stock == 2 and pos.drawable() == 0 and pos.turn == (1 if third else 0)
    return pos


def every_deal(third: bool = False):
    tiles = [t for t in tile_set(3) if t not in (LEAD, REPLY, THIRD)]
    if not third:
        tiles.append(THIRD)
    out = []
    for a in itertools.combinations(tiles, 2 if third else 3):
        rest = [t for t in tiles if t not in a]
        for b in itertools.combinations(rest, 3):
            out.append(stock_down(a, b, [t for t in rest if t not in b], third))
    return out


def strategies(sets: dict, seat: int) -> int:
    """How many pure strategies ``seat`` has (the product of his decisions' moves)."""
    count = 1
    for key, moves in sets.items():
        if key[0] == seat:
            count *= len(moves)
    return count


DEALS = every_deal()
SMALL = every_deal(True)


def test_a_blocked_draw_game_counts_a_double_once():
    """004: the fewest pips win a blocked hand, a double counting once: [0-0] [1-1] [2-2] hold 6 pips, 3 counted,
    against [0-1] [0-3]'s 4, so seat 0 wins the point; every pip counted, seat 1 would."""
    hands = (mask_of([Tile(0, 0), Tile(1, 1), Tile(2, 2)]), mask_of([Tile(0, 1), Tile(0, 3)]))
    blocked = HandFacts("blocked", 1, (6, 4), (3, 2), 0, hands=hands)
    assert DRAW.value(blocked) == 1
    assert find_variant("draw", {"players": "2", "doubles": "full"}).value(blocked) == -1
    # so the range tree classes the draw game's hands by their doubles' pips too, not by their pips alone
    assert pip_valued(DRAW) is False
    assert pip_valued(find_variant("draw", {"players": "2", "doubles": "full"})) is True
    from analyzer.hidden.ranges import hand_key
    key = hand_key(DRAW)
    assert key(hands[0]) != key(mask_of([Tile(0, 1), Tile(2, 3)])) and key(hands[0]) == (6, 6, True)   # (its doubles hold all 6 pips; it holds the [0-0])


def early(a, b, yard):
    """Seat 0 dealt [3-3] and ``a``, seat 1 [2-3] and ``b``, the boneyard ``yard`` (it keeps 2: the rest may be
    drawn); [3-3] led, [2-3] laid on it: seat 0 to move."""
    pos = position_for(DRAW, [[LEAD, *a], [REPLY, *b]], 0, max_pip=3)
    pos.pool, pos.stock = mask_of(yard), len(yard)
    pos.push(Move(LEAD, None))
    pos.push(Move(REPLY, 3))
    return pos


def _early_deals():
    tiles = [t for t in tile_set(3) if t not in (LEAD, REPLY)]
    out = []
    for a in itertools.combinations(tiles, 2):
        rest = [t for t in tiles if t not in a]
        for b in itertools.combinations(rest, 2):
            out.append((a, b, [t for t in rest if t not in b]))
    return out


EARLY = _early_deals()          # 2 tiles a hand, 4 in the boneyard: 2 still to draw


def every_order(deals, weights):
    """The LP's form of ``deals`` (positions with tiles still to draw): each deal once for every order of its
    boneyard (``revealed``: a draw takes the next tile of it), weighing the deal's weight: every order alike."""
    from analyzer.search.tree import revealed

    out, out_weights = [], []
    for pos, w in zip(deals, weights):
        for order in itertools.permutations([t for t in tile_set(3) if pos.pool & t.bit]):
            world = revealed(pos, list(order))
            world.turn = pos.turn
            out.append(world)
            out_weights.append(w)
    return out, out_weights


def test_the_solver_takes_a_draw_game_with_tiles_still_to_draw():
    pos = early(*EARLY[0])
    assert cfr_supported(DRAW, DEALS[0]) and pos.drawable() == 2 and cfr_supported(DRAW, pos)
    t = build_tree(DRAW, [tuple(early(*d).hands) for d in EARLY[:40]], 0, base=pos)
    draws = [n for n in range(t.nodes) if t.player[n] > 1]
    assert draws and t.parent[0] and t.parent[1]
    assert sum(t.weight[:40]) == pytest.approx(1.0) and len(t.weight) > 40          # (the deals drawn: more)
    for n in draws:           # a draw node: one child, whose drawer's hands are each drawn from one of his at the draw
        q, (c,) = t.player[n] - 2, t.child[t.child_at[n]:t.child_at[n + 1]]
        before = set(t.alive[q][t.alive_at[q][n]:t.alive_at[q][n + 1]])
        after = t.alive[q][t.alive_at[q][c]:t.alive_at[q][c + 1]]
        assert after and {t.parent[q][h] for h in after} == before
        assert all(t.hands[q][h] & ~t.hands[q][t.parent[q][h]] for h in after)         # (a tile more)
        other, at = t.alive[1 - q], t.alive_at[1 - q]
        assert other[at[n]:at[n + 1]] == other[at[c]:at[c + 1]]           # (the other's hands pass through)


def test_the_tree_over_deals_refuses_more_hands_of_a_player_than_it_indexes(monkeypatch):
    """A hand's index is 16 bits in the tree's lists of hands (``CFR_HANDS``, in both forms): a tree over deals whose
    player has more hands than that, at the root or with those his draws make, is refused (``HandTooLarge``: the
    analysis samples such a decision), and the same deals within the bound build it."""
    from analyzer.hidden import cfr
    from analyzer.hidden.ranges import HandTooLarge

    pos = early(*EARLY[0])
    deals = [tuple(early(*d).hands) for d in EARLY[:40]]
    t = build_tree(DRAW, deals, 0, base=pos)
    root = max(len({d[s] for d in deals}) for s in (0, 1))
    assert max(map(len, t.hands)) > root                        # (the hands drawn: more)
    assert all(a.itemsize == 2 for a in (*t.alive, t.iset_hand))
    monkeypatch.setattr(cfr, "CFR_HANDS", root - 1)
    with pytest.raises(HandTooLarge, match=f"a player has {root} hands in the deals, more than the {root - 1} the "
                                           "tree indexes"):
        build_tree(DRAW, deals, 0, base=pos)
    monkeypatch.setattr(cfr, "CFR_HANDS", root)
    with pytest.raises(HandTooLarge, match=f"more than {root} hands of a player, with those drawn"):
        build_tree(DRAW, deals, 0, base=pos)


@pytest.mark.parametrize("compiled", COMPILED)
def test_with_tiles_still_to_draw_the_game_value_is_the_lps_over_every_order_of_the_boneyard(compiled):
    """Deals weighing unlike with 2 tiles still to draw, seat 0 or seat 1 the maximiser: the CFR solver's draw nodes
    (each tile of the boneyard alike, seen by the drawer alone) give the LP's game value over every order of each
    deal's boneyard (each order a world; the drawer's information sets keyed by what he has seen), to 1e-6, inside
    the certified bracket."""
    rng = random.Random(18)
    draws = 0
    for k in range(8 if compiled else 3):
        chosen = rng.sample(EARLY, rng.randint(2, 5))
        weights = [rng.randint(1, 4) for _ in chosen]
        deals = [early(*d) for d in chosen]
        first = k % 2
        t = build_tree(DRAW, [tuple(p.hands) for p in deals], first, weights, base=deals[0])
        draws += sum(1 for x in t.player if x > 1)
        worlds, world_weights = every_order(deals, weights)
        lp = solve_game(build_game(DRAW, worlds, first, world_weights))
        got = solve(t, tol=1e-7, budget=60, compiled=compiled)
        assert got.closed and got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING
        assert got.value == pytest.approx(lp.value, abs=1e-6)
    assert draws >= 10


@pytest.mark.parametrize("compiled", COMPILED)
def test_a_decision_before_a_draw_has_the_lps_values(compiled):
    """Seat 0 with two plays, where a draw may follow for either player: the game value and each move's value of
    his hand equal the LP's over every order to 1e-6, each in its bracket."""
    rng = random.Random(5)
    choices = [d for d in EARLY if len(early(*d).legal_moves()) > 1]
    checked = 0
    for _ in range(4 if compiled else 2):
        chosen = rng.sample(EARLY, 6 if compiled else 3)
        actual = rng.choice(choices)
        chosen.append(actual)
        weights = [rng.randint(1, 3) for _ in chosen]
        deals = [early(*d) for d in chosen]
        worlds, world_weights = every_order(deals, weights)
        mine = next(w for w in worlds if w.hands[0] == deals[-1].hands[0])
        exact = hidden_decision(DRAW, mine, worlds, world_weights)
        got = cfr_decision(DRAW, deals[-1], [tuple(p.hands) for p in deals], weights, masks=True, tol=1e-7,
                           budget=60, compiled=compiled)
        assert got.closed and got.method == "cfr"
        assert got.value == pytest.approx(exact.value, abs=1e-6)
        # per deal of his hand: the share of the deals giving him his hand, as the LP's worlds give it (each deal
        # once, not again at each of the other's draws), and so his hand's and each move's value
        assert got.reach == pytest.approx(exact.reach, rel=1e-9)
        assert got.hand_value == pytest.approx(exact.hand_value, abs=1e-5)
        assert dict(got.hand_values()) == pytest.approx(dict(exact.hand_values()), abs=1e-5)
        lo, up = got.bounds
        assert lo - ROUNDING <= exact.value <= up + ROUNDING
        assert [m for m, _ in exact.moves] == [m for m, _, _ in got.move_bounds]
        for (m, v), (_, low, high) in zip(exact.moves, got.move_bounds):
            assert low - ROUNDING <= v <= high + ROUNDING
            assert dict(got.moves)[m] == pytest.approx(v, abs=1e-6)
        checked += 1
    assert checked


@pytest.mark.parametrize("compiled", COMPILED)
def test_the_bracket_holds_the_matrix_game_value_of_all_pure_strategies(compiled):
    rng = random.Random(85)
    checked = 0
    for _ in range(200):
        deals = rng.sample(SMALL, rng.randint(2, 3))
        sets = infosets(deals)
        if not 4 <= strategies(sets, 0) * strategies(sets, 1) <= PURE_LIMIT // 3:
            continue
        rows, cols = pure_strategies(sets, 0), pure_strategies(sets, 1)
        matrix = [[_play(deals, lambda k, m, r=r, c=c: one_hot(r if k[0] == 0 else c)(k, m)) for c in cols]
                  for r in rows]
        exact = matrix_value(matrix)
        got = solve(build_tree(DRAW, deals, 1), tol=1e-7, budget=60, compiled=compiled)
        assert got.closed
        assert got.lower - ROUNDING <= -exact <= got.upper + ROUNDING      # (seat 1 the maximiser: side 0's negated)
        assert got.value == pytest.approx(-exact, abs=1e-6)
        checked += 1
        if checked == 6:
            break
    assert checked >= 4


def _play(deals, choose):
    from test_hidden import play

    return play(deals, choose, DRAW)


@pytest.mark.parametrize("compiled", COMPILED)
def test_weighted_draw_deals_have_the_lps_value_in_the_bracket_and_each_moves_value(compiled):
    """Deals weighing unlike (as a draw game's worlds do), seat 0 or seat 1 the maximiser: the game value and each
    move's value of seat 0's actual hand equal the LP's to 1e-6, each in its certified bracket."""
    rng = random.Random(7)
    size = 1 if compiled else 3         # (the Python walk, the reference, is some hundred times slower)
    for first, count in ((0, 24 // size), (1, 12 // size)):
        deals = rng.sample(DEALS, count)
        weights = [rng.randint(1, 6) for _ in deals]
        lp = solve_game(build_game(DRAW, deals, first, weights))
        got = solve(build_tree(DRAW, deals, first, weights), tol=1e-7, budget=60, compiled=compiled)
        assert got.closed and got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING
        assert got.value == pytest.approx(lp.value, abs=1e-6)
    deals = rng.sample(DEALS, 30 // size)
    weights = [rng.randint(1, 6) for _ in deals]
    for actual in deals[:3 if compiled else 1]:
        if len(actual.legal_moves()) < 2:
            continue
        exact = hidden_decision(DRAW, actual, deals, weights)
        got = cfr_decision(DRAW, actual, deals, weights, tol=1e-7, budget=60, compiled=compiled)
        assert got.closed and got.method == "cfr"
        assert got.value == pytest.approx(exact.value, abs=1e-6)
        lo, up = got.bounds
        assert lo - ROUNDING <= exact.value <= up + ROUNDING
        for (m, v), (m2, low, high) in zip(exact.moves, got.move_bounds):
            assert m == m2 and low - ROUNDING <= v <= high + ROUNDING
            assert dict(got.moves)[m] == pytest.approx(v, abs=1e-6)
        assert dict(got.hand_values())[exact.moves[0][0]] == pytest.approx(dict(exact.hand_values())[exact.moves[0][0]],
                                                                           abs=1e-5)


def test_a_finished_hands_value_is_the_rules():
    """The tree's terminal values are the variant's own (side0_value, which asks the rules): with one deal, the
    line of the first legal moves ends at the tree's node whose value is that finished hand's."""
    kinds = set()
    for pos in DEALS[::25]:
        p = pos.copy()
        while p.legal_moves():
            p.push(p.legal_moves()[0])
        t = build_tree(DRAW, [pos], 0)
        n = 0
        while t.player[n] >= 0:
            n = t.child[t.child_at[n]]
        assert list(t.term_value[t.term_at[n]:t.term_at[n + 1]]) == [side0_value(DRAW, p)]
        kinds.add((p.outcome().termination, side0_value(DRAW, p)))
    assert len(kinds) >= 3          # (blocks and dominoes, won either way)


# -- a record --------------------------------------------------------------------------------------------------
SEED = 9        # `new --variant draw --players 2 --seed 9`: the boneyard down to its two kept tiles at move 30, then
#                 decisions with 3 and 4, 2 and 4, 1 and 3, 1 and 2, 1 and 1 tiles in hand


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("draw") / "draw.dom"
    res = CliRunner().invoke(main, ["new", "--variant", "draw", "--players", "2", "--seed", str(SEED), "-o", str(path)])
    assert res.exit_code == 0, res.output
    return path


def test_the_public_deals_once_nothing_is_left_to_draw_are_public_games_by_placements(record):
    """Listed by the placements of the tiles, not by every order of the draws and the boneyard: the same deals, each
    weighing the same share of the worlds."""
    (rep,) = replay_record(read(record))
    checked = 0
    for k in range(len(rep.steps)):
        pos = rep.position_at(k)
        if pos.outcome() is not None or pos.drawable() or pos.count(0) + pos.count(1) > 5:
            continue
        actual, hands, weights = public_stock_down(rep, k, 1000)
        deals, worlds = public_game(rep, k, 1000)
        assert tuple(actual.hands) == tuple(pos.hands) and tuple(pos.hands) in hands
        mine = dict(zip(hands, weights))
        theirs = {tuple(d.hands): w for d, w in zip(deals, worlds)}
        assert set(mine) == set(theirs)
        ratio = sum(worlds) / sum(weights)
        assert all(theirs[h] == pytest.approx(ratio * w) for h, w in mine.items())
        checked += 1
    assert checked >= 2


@pytest.mark.slow
@pytest.mark.skipif(kernel() is None, reason="the CFR kernel is not built")
def test_a_draw_game_records_last_decisions_are_valued_by_the_cfr_solver(record):
    res = CliRunner().invoke(main, ["analyze", "--fair", "--json", "--jobs", "1", str(record)])
    assert res.exit_code == 0, res.output
    game = json.loads(res.stdout)["games"][0]
    (rep,) = replay_record(read(record))
    solved = lp4 = 0
    for d in game["decisions"]:
        f, k = d["fair"], d["index"]
        pos = rep.position_at(k)
        if not f or pos.drawable() or max(pos.count(0), pos.count(1)) > 4:
            continue
        assert f["method"] == "exact-hidden" and f["estimates"] == "game value", k
        if max(pos.count(0), pos.count(1)) == 4:     # (past the CFR solver's default: the LP, its deals listed by
            assert f["hidden"]["solver"] == "lp"     # placements, 307 and 195 of them, where their worlds are too many)
            lp4 += 1
            continue
        h = f["hidden"]
        assert h["solver"] == "cfr"
        deals, weights = public_game(rep, k, 1000)
        assert h["deals"] == len(deals)
        actual = next(x for x in deals if x.hands[pos.turn] == pos.hands[pos.turn])
        exact = hidden_decision(rep.variant, actual, deals, weights)
        low, up = h["bounds"]
        assert up - low <= CFR_SHOWN * h["reach"] + 1e-6     # (the precision the analysis shows)
        assert low - 1e-6 <= exact.value <= up + 1e-6
        lp = {m: v for m, v in exact.moves}
        for move, (lo, hi) in h["move_bounds"].items():
            (v,) = [v for m, v in lp.items() if move == _text(m)]
            assert lo - 1e-6 <= v <= hi + 1e-6
        solved += 1
    assert solved >= 3 and lp4 >= 1


def _text(move):
    from analyzer.analysis import alternative_text

    return alternative_text(move)


@pytest.mark.skipif(kernel() is None, reason="the CFR kernel is not built")
def test_past_three_tiles_the_lp_values_the_deals_of_the_placements_as_the_cfr_solver_does(record):
    """With 3 and 4 tiles in hand (past the CFR solver's default) the LP takes the decision over the placements'
    deals where the worlds are too many to list: its game value and each move's lie in the CFR solver's brackets over
    the same deals as tile masks."""
    from analyzer.analysis.hiddenfair import lp_deals

    (rep,) = replay_record(read(record))
    checked = 0
    for k in range(len(rep.steps)):
        pos = rep.position_at(k)
        if (pos.outcome() is not None or pos.drawable() or max(pos.count(0), pos.count(1)) != 4
                or len(pos.legal_moves()) < 2):
            continue
        deals, weights = lp_deals(rep, k)
        actual = next(d for d in deals if d.hands[pos.turn] == pos.hands[pos.turn])
        exact = hidden_decision(rep.variant, actual, deals, weights)
        base, hands, counts = public_stock_down(rep, k, 1000)
        got = cfr_decision(rep.variant, base, hands, counts, masks=True, tol=1e-6, budget=30)
        assert got.closed
        assert got.bounds[0] - 1e-9 <= exact.value <= got.bounds[1] + 1e-9
        for (m, v), (m2, low, high) in zip(exact.moves, got.move_bounds):
            assert m == m2 and low - 1e-9 <= v <= high + 1e-9
        checked += 1
    assert checked >= 1


# -- the tree over hands with draws to come (docs/hidden.md, "Draws to come over hands") ------------------------------

def _hand_lists(rng):
    """Random lists of each seat's possible hands of ``early``'s position (2 tiles of the 8 neither [3-3] nor [2-3]),
    each hand weighing 1 to 3, and their deals: every pair sharing no tile, the boneyard the rest (2 of it to draw),
    weighing the product of its hands' weights."""
    tiles = [t for t in tile_set(3) if t not in (LEAD, REPLY)]
    pairs = list(itertools.combinations(tiles, 2))
    while True:
        a, b = rng.sample(pairs, rng.randint(2, 6)), rng.sample(pairs, rng.randint(2, 6))
        wa, wb = [rng.randint(1, 3) for _ in a], [rng.randint(1, 3) for _ in b]
        deals, weights = [], []
        for x, u in zip(a, wa):
            for y, v in zip(b, wb):
                if not set(x) & set(y):
                    deals.append(early(x, y, [t for t in tiles if t not in x and t not in y]))
                    weights.append(u * v)
        if deals:
            return ([mask_of(x) for x in a], [mask_of(y) for y in b]), (wa, wb), deals, weights


def _merged(t) -> int:
    """How many hands at a draw node's child were drawn from more than one hand (the same tiles, drawn in another
    order or from another hand)."""
    from collections import Counter

    return sum(1 for n in range(t.nodes) if t.player[n] > 1
               for c in Counter(t.draw_child[t.draw_at[n]:t.draw_at[n + 1]]).values() if c > 1)


@pytest.mark.parametrize("compiled", COMPILED)
def test_over_hands_with_draws_to_come_the_game_value_is_the_lps_over_every_order(compiled):
    """The tree over each player's hands (a draw node: each of the drawer's hands one tile more, any off the board and
    not in it, the same tiles one hand whatever the order; the tile's chance in the tables below) gives the LP's game
    value over every order of each deal's boneyard (each order a world, each drawer's information sets keyed by what
    he has seen, in its order) to 1e-6, inside its certified bracket, either seat the maximiser."""
    from analyzer.hidden.ranges import build_ranges

    rng = random.Random(20)
    draws = merged = 0
    for k in range(6 if compiled else 3):
        hands, weights, deals, deal_weights = _hand_lists(rng)
        first = k % 2
        t = build_ranges(DRAW, deals[0], first, hands if first == 0 else hands[::-1],
                         weights=weights if first == 0 else weights[::-1], compiled=False)
        draws += sum(1 for x in t.player if x > 1)
        merged += _merged(t)
        for n in range(t.nodes):        # (a hand alive holds every tile its player has played: one numbering of both)
            for q in (0, 1):
                for h in t.alive[q][t.alive_at[q][n]:t.alive_at[q][n + 1]]:
                    assert t.cmasks[q][h] & t.played[q][n] == t.played[q][n]
        worlds, world_weights = every_order(deals, deal_weights)
        lp = solve_game(build_game(DRAW, worlds, first, world_weights))
        got = solve(t, tol=1e-7, budget=60, compiled=compiled)
        assert got.closed and got.lower - ROUNDING <= lp.value <= got.upper + ROUNDING
        assert got.value == pytest.approx(lp.value, abs=1e-6)
    assert draws >= 10 and merged >= 1


def test_over_hands_with_draws_the_kernel_runs_the_python_walk():
    """Iteration by iteration the compiled run over a tree with draw nodes gives the Python run's brackets, averages
    and hand values; made wrong on purpose (a drawn hand reaching its first parent's reach alone) the kernel's
    brackets differ."""
    if kernel() is None:
        pytest.skip("the CFR+ kernel is not built")
    from array import array

    from analyzer.hidden.ranges import RangeCRun, RangePyRun, build_ranges

    rng = random.Random(21)
    for _ in range(3):
        hands, weights, deals, _ = _hand_lists(rng)
        t = build_ranges(DRAW, deals[0], 0, hands, weights=weights, compiled=False)
        py, c = RangePyRun(t, None), RangeCRun(t, None, kernel())
        for _ in range(3):
            py.iterate(3)
            c.iterate(3)
            assert c.bracket() == pytest.approx(py.bracket(), abs=1e-12)
            assert list(c.average()) == pytest.approx(py.average(), rel=1e-9, abs=1e-12)
            assert c.hand_values() == pytest.approx(py.hand_values(), abs=1e-12)
    # one parent a drawn hand (its first): the reach of the same tiles drawn in another order is lost
    hands, weights, deals, _ = _hand_lists(random.Random(22))
    t = build_ranges(DRAW, deals[0], 0, hands, weights=weights, compiled=False)
    while not _merged(t):
        hands, weights, deals, _ = _hand_lists(rng)
        t = build_ranges(DRAW, deals[0], 0, hands, weights=weights, compiled=False)
    right = solve(t, tol=1e-9, budget=60, compiled=True)
    keep = [k for n in range(t.nodes) for k in range(t.draw_at[n], t.draw_at[n + 1])
            if t.draw_child[k] not in t.draw_child[t.draw_at[n]:k]]
    t.draw_child = array("H", [t.draw_child[k] for k in keep])
    t.draw_parent = array("H", [t.draw_parent[k] for k in keep])
    at, kept = array("i"), set(keep)
    for n in range(t.nodes + 1):
        at.append(sum(1 for k in kept if k < t.draw_at[n]))
    t.draw_at = at
    wrong = solve(t, tol=1e-9, budget=60, compiled=True)
    assert abs(wrong.value - right.value) > 1e-4


@pytest.mark.parametrize("compiled", COMPILED)
def test_over_hands_a_decision_before_a_draw_has_the_lps_values(compiled):
    """``cfr_decision`` over each player's hands and their weights (``ranges=``, ``hand_weights=``): the game value and
    each move's value of the mover's hand equal the LP's over every order to 1e-6, each in its bracket."""
    rng = random.Random(23)
    checked = 0
    while checked < (3 if compiled else 1):
        hands, weights, deals, deal_weights = _hand_lists(rng)
        actual = next((d for d in deals if len(d.legal_moves()) > 1), None)
        if actual is None:
            continue
        worlds, world_weights = every_order(deals, deal_weights)
        mine = next(w for w in worlds if w.hands[0] == actual.hands[0])
        exact = hidden_decision(DRAW, mine, worlds, world_weights)
        got = cfr_decision(DRAW, actual, ranges=hands, hand_weights=weights, tol=1e-7, budget=60, compiled=compiled)
        assert got.closed and got.method == "cfr" and got.deals == len(deals)
        assert got.value == pytest.approx(exact.value, abs=1e-6)
        assert got.reach == pytest.approx(exact.reach, rel=1e-9)
        assert got.hand_value == pytest.approx(exact.hand_value, abs=1e-5)
        assert dict(got.hand_values()) == pytest.approx(dict(exact.hand_values()), abs=1e-5)
        for (m, v), (_, low, high) in zip(exact.moves, got.move_bounds):
            assert low - ROUNDING <= v <= high + ROUNDING
            assert dict(got.moves)[m] == pytest.approx(v, abs=1e-6)
        checked += 1


def test_a_records_draw_deals_weigh_a_product_of_each_hands_weight(record):
    """At a decision of the generated record with 3 tiles still to draw, the placements' deals are every disjoint pair
    of two lists of hands and each weighs the product of its hands' weights (each player's draws his own), so the tree
    over the hands takes them; a deal's weight changed alone breaks the product, and they are refused."""
    from analyzer.hidden.ranges import weighted_ranges

    (rep,) = replay_record(read(record))
    pos = rep.position_at(23)
    assert pos.drawable() == 3 and (pos.count(0), pos.count(1)) == (2, 5)
    actual, deals, weights = public_stock_down(rep, 23, 50_000)
    (a, b), (wa, wb) = weighted_ranges(deals, weights, (0, 1))
    assert len(a) * len(b) > len(deals)              # (not every pair: some share a tile)
    at_a, at_b = {m: k for k, m in enumerate(a)}, {m: k for k, m in enumerate(b)}
    for (x, y), w in zip(deals, weights):
        assert wa[at_a[x]] * wb[at_b[y]] == pytest.approx(w, rel=1e-12)
    assert len(set(weights)) > 1                     # (they weigh unlike)
    assert weighted_ranges(deals, [weights[0] + 1] + weights[1:], (0, 1)) is None


def test_a_records_decision_over_hands_meets_the_tree_over_deals(record, monkeypatch):
    """The record's move 24 (2 and 5 tiles, 3 still to draw: 456 deals, 27,360 with the orders) valued by the fair
    analysis's route over the hands (``CFR_DRAW_WORLDS`` set to 0 to send it there) and over the deals: both closed,
    their brackets of the game and of each move overlapping (each holds the value)."""
    from analyzer.analysis import hiddenfair

    (rep,) = replay_record(read(record))
    point = [(23, rep.position_at(23).turn, rep.position_at(23).legal_moves())]
    by_deals, _, _ = hiddenfair.exact_points(rep, point, hand=5, lp=False)
    monkeypatch.setattr(hiddenfair, "CFR_DRAW_WORLDS", 0)
    assert hiddenfair.exact_deals(rep, *point[0], hand=5)[3] == "cfr-ranges"
    by_hands, _, _ = hiddenfair.exact_points(rep, point, hand=5, lp=False)
    (x,), (y,) = by_deals.values(), by_hands.values()
    assert x.closed and y.closed and len(y.move_bounds) > 1
    assert max(x.bounds[0], y.bounds[0]) <= min(x.bounds[1], y.bounds[1]) + ROUNDING
    for (m, lo, hi), (n, low, high) in zip(x.move_bounds, y.move_bounds):
        assert m == n and max(lo, low) <= min(hi, high) + ROUNDING
    # per deal of his hand, both: the share of the deals' weight that gives the mover his hand (the deals given, not
    # those the tree deals again at the other's draws), and each move's value within both brackets' slack
    actual, deals, weights = public_stock_down(rep, 23, 50_000)
    mover = actual.turn
    share = sum(w for d, w in zip(deals, weights) if d[mover] == actual.hands[mover]) / sum(weights)
    assert x.reach == pytest.approx(share, rel=1e-9) and y.reach == pytest.approx(share, rel=1e-9)
    slack = (x.width() + y.width()) * 2
    for (m, a), (n, b) in zip(x.hand_values(), y.hand_values()):
        assert m == n and a == pytest.approx(b, abs=slack)
