"""Inference and the fair analysis of draw games against explicit enumeration on small deals.

A world of a draw game is the deal and the whole order of the boneyard. Every such world behind
what a viewer saw is listed by brute force (each way to deal the tiles he has not seen and to lay
the rest face down in some order, kept when every move seen so far is legal in it, each draw
taking the next tile of the order), and each alternative of a decision is valued in each world by
the plain minimax of ``minimax_reference.DrawReference``; the counts, probabilities, worlds and
fair means of ``analyzer.inference.boneyard`` and ``analyzer.analysis.fair`` must agree."""
from __future__ import annotations

import itertools
from dataclasses import replace
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from analyzer.analysis import AgainstTheRest
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.inference import NoWorld, worlds_at
from analyzer.match import random_hand
from analyzer.notation import parse, read
from analyzer.position import mask_of, tiles_of
from analyzer.replay import replay
from analyzer.rules.mechanics import position_for
from analyzer.tiles import DRAW, PASS, Move

from conftest import RECORDS
from test_cli import run
from test_inference import small

try:
    from minimax_reference import DrawReference
except ImportError:  # tests/ imported as a package
    from tests.minimax_reference import DrawReference

# draw games of every kind: draw until one fits (with two tiles kept back and the opener adding a
# tile to his lead), draw one and pass, Cut Throat's draw game, All Fives (points in play), and
# three players each for himself
DRAWS = [
    ("draw", small("draw", 3, 3, players="2")),
    ("draw-one", small("draw", 3, 3, players="2", draw="one")),
    ("cutthroat-draw", small("cutthroat", 3, 3, draw="yes")),
    ("all-fives", small("all-fives", 3, 3)),
    ("draw-3", small("draw", 2, 3, players="3")),
]


def draw_record(variant, rng: random.Random, draws: int = 2, passes: int = 0):
    """A random hand of ``variant`` with at least ``draws`` draws and ``passes`` passes and every
    point claimed, replayed."""
    while True:
        rep = replay(random_hand(variant, rng)[0], variant)
        assert rep.valid, rep.errors
        moves = [st.move for st in rep.steps]
        if sum(m.draw for m in moves) >= draws and sum(m == PASS for m in moves) >= passes and not any(
                d.code == "missed-score" for d in rep.diagnostics):
            return rep


def start(rep, hands):
    """The position of ``rep``'s deal with ``hands`` dealt."""
    variant, initial = rep.variant, rep.initial
    pos = position_for(variant, [tiles_of(h, initial.max_pip) for h in hands], initial.turn, max_pip=initial.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = initial.opening
    return pos


def play(rep, hands, order, seen: int):
    """The position after the first ``seen`` moves of ``rep`` dealt ``hands`` with the boneyard in
    ``order``, or None when one of them is not legal there."""
    pos = start(rep, hands)
    doubles = [t for h in hands for t in tiles_of(h, rep.initial.max_pip) if t.is_double]
    if rep.variant.opening.highest_double and doubles:
        # the highest double dealt leads, and who leads is known before he does
        lead = next(st for st in rep.steps if st.move.is_play)
        if not max(doubles).bit & hands[lead.seat] or (lead.index < seen and lead.move.tile != max(doubles)):
            return None
    drawn = 0
    for step in rep.steps[:seen]:
        if pos.outcome() is not None:
            if step.move.is_play or step.move.draw:
                return None
            continue             # nobody sees a block: the players pass until every one has passed
        pos.turn = step.seat
        legal = pos.legal_moves()
        if step.move.draw:
            if legal != [DRAW]:
                return None
            pos.push(Move(order[drawn], None, True))
            drawn += 1
        elif step.move.tile is None:
            if legal != [PASS]:
                return None
            pos.push(PASS)
        else:
            if step.move not in legal:
                return None
            pos.push(step.move)
    if seen < len(rep.steps) and pos.outcome() is None:
        nxt = rep.steps[seen].seat        # who moves next is seen: the opener who adds a tile held one
        if nxt != pos.turn and not pos.may_add(nxt):
            return None
    return pos


def brute_worlds(rep, seen: int, viewer: int | None) -> list[tuple[tuple[int, ...], tuple]]:
    """Every (deal, boneyard order) that agrees with the first ``seen`` moves as ``viewer`` saw them."""
    initial, n = rep.initial, len(rep.players)
    draws = [st for st in rep.steps[:seen] if st.move.draw]
    mine = {k: st.move.tile for k, st in enumerate(draws) if st.seat == viewer}
    known = initial.hands[viewer] if viewer is not None else 0
    unseen = [t for t in rep.variant.dealing.tiles if not t.bit & known and t not in mine.values()]
    free = [k for k in range(initial.stock) if k not in mine]
    sizes = [0 if s == viewer else initial.count(s) for s in range(n)]
    out = []

    def deal(s: int, left: list, hands: list):
        if s == n:
            for rest in itertools.permutations(left):
                order = [None] * initial.stock
                for k, t in mine.items():
                    order[k] = t
                for k, t in zip(free, rest):
                    order[k] = t
                if play(rep, hands, order, seen) is not None:
                    out.append((tuple(hands), tuple(order)))
            return
        for chosen in itertools.combinations(left, sizes[s]):
            rest = [t for t in left if t not in chosen]
            deal(s + 1, rest, hands[:s] + [hands[s] | mask_of(chosen)] + hands[s + 1:])

    deal(0, unseen, [known if s == viewer else 0 for s in range(n)])
    return out


def _size(rep, seen: int, viewer) -> int:
    """How many (deal, order) pairs the brute force tries."""
    from math import comb, factorial

    initial, n = rep.initial, len(rep.players)
    mine = sum(1 for st in rep.steps[:seen] if st.move.draw and st.seat == viewer)
    left = len(rep.variant.dealing.tiles) - (initial.count(viewer) if viewer is not None else 0) - mine
    total = 1
    for s in range(n):
        if s != viewer:
            total *= comb(left, initial.count(s))
            left -= initial.count(s)
    return total * factorial(left)


@pytest.mark.parametrize("family,variant,passes", [(f, v, 0) for f, v in DRAWS] + [("draw-kept", DRAWS[0][1], 2)],
                         ids=[f for f, _ in DRAWS] + ["draw-kept"])
def test_draw_worlds_and_probabilities_equal_explicit_enumeration(family, variant, passes):
    """(draw-kept: a hand that goes on after the boneyard is down to the two tiles nobody draws, so
    someone could still play: not every tile that fits is among those two.)"""
    rep = draw_record(variant, random.Random(f"boneyard-{family}"), passes=passes)
    checked = 0
    for seen in range(len(rep.steps) + 1):
        for viewer in [None] + list(range(len(rep.players))):
            if _size(rep, seen, viewer) > 6_000:
                continue
            expected = brute_worlds(rep, seen, viewer)
            worlds = worlds_at(rep, seen, viewer)
            view = worlds.view
            listed = [(view.deal(w), view.order(w)) for w in worlds]
            assert worlds.count == len(expected) == len(listed)
            assert sorted(listed, key=repr) == sorted(expected, key=repr)
            # each tile's chance to be in each hand now, or still in the boneyard
            held = Counter()
            for hands, order in expected:
                pos = play(rep, hands, order, seen)
                for s, name in enumerate(rep.players):
                    held.update((name, t) for t in tiles_of(pos.hands[s], rep.initial.max_pip))
                held.update(("boneyard", t) for t in order[len(order) - pos.stock:])
            probs = worlds.probabilities()
            for holder in probs:
                assert probs[holder] == {t: Fraction(c, len(expected)) for (h, t), c in held.items() if h == holder}
            checked += 1
    assert checked >= 3


def test_sampled_draw_worlds_are_uniform():
    variant = DRAWS[0][1]
    rep = draw_record(variant, random.Random("boneyard-uniform"))
    worlds = next(w for w in (worlds_at(rep, k, 0) for k in range(len(rep.steps), -1, -1)) if 8 <= w.count <= 80)
    rng = random.Random(2)
    every = {(worlds.view.deal(w), worlds.view.order(w)) for w in worlds}
    draws = 100 * worlds.count
    counts = Counter((worlds.view.deal(w), worlds.view.order(w)) for w in (worlds.sample(rng) for _ in range(draws)))
    assert set(counts) == every
    chi2 = sum((c - 100) ** 2 / 100 for c in counts.values())
    dof = worlds.count - 1
    assert chi2 < dof + 4.5 * (2 * dof) ** 0.5


def reference_values(rep, seat: int, k: int, worlds) -> dict:
    """Each alternative's values (for side 0, with the points scored before move ``k``) over ``worlds``."""
    variant = rep.variant
    rules = AgainstTheRest(variant, seat) if variant.seating.sides > 2 else variant
    out: dict = {}
    for hands, order in worlds:
        ref = DrawReference(rules, order)
        pos = start(rep, hands)
        points, drawn = 0, 0
        for step in rep.steps[:k]:
            pos.turn = step.seat
            move = step.move
            if move.draw:
                move, drawn = Move(order[drawn], None, True), drawn + 1
            pos.push(move)
            if move.is_play:
                gain = ref._points(pos)
                points += gain if rules.seating.teams[step.seat] == 0 else -gain
        pos.turn = seat
        offer = pos.bonus == seat and pos.may_add(seat)
        for move, value in ref.alternatives(pos, offer).items():
            out.setdefault("no extra tile" if move is None else str(move), []).append(points + value)
    return out


@pytest.mark.parametrize("family,variant", DRAWS, ids=[f for f, _ in DRAWS])
def test_draw_fair_values_equal_the_mean_of_minimax_over_every_world(family, variant):
    rng = random.Random(f"boneyard-fair-{family}")
    checked = 0
    while not checked:
        rep = draw_record(variant, rng, draws=1)
        out = fair_analyze(rep, settings=FairSettings(worlds=10, exact_below=6_000), run=FairRun(workers=1))
        assert "order of the boneyard" in out.fair_note
        for d in out.decisions:
            if d.fair is None or d.fair.method != "exact" or rep.steps[d.index].ends_before is None:
                continue             # the lead: the reference knows no opening rule
            seat = rep.steps[d.index].seat
            worlds = brute_worlds(rep, d.index, seat)
            assert d.fair.worlds == len(worlds) == d.fair.total
            values = reference_values(rep, seat, d.index, worlds)
            assert {a.move for a in d.alternatives} == set(values)
            sign = 1 if d.side == 0 else -1
            for alt in d.alternatives:
                mean = sum(values[alt.move]) / len(worlds)
                assert alt.fair.mean == pytest.approx(mean, abs=1e-3)
                assert alt.fair.p_win == pytest.approx(sum(sign * v > 0 for v in values[alt.move]) / len(worlds),
                                                       abs=1e-3)
            checked += 1
    assert checked >= 1


# -- real records -----------------------------------------------------------------------------------
def test_a_draw_proves_the_drawer_could_not_play():
    rep = replay(read(str(RECORDS / "variant-draw.dom")).games[0])
    # round 9: A draws three times on the open ends, then plays [1-5], the last tile he drew
    first = next(st for st in rep.steps if st.seat == 0 and st.move.draw)
    played = next(st for st in rep.steps[first.index:] if st.seat == 0 and st.move.is_play)
    assert str(played.move.tile) == "[1-5]" and played.index == first.index + 3
    fits = [t for t in rep.variant.dealing.tiles if t.matches(first.ends_before[0]) or t.matches(first.ends_before[1])]
    probs = worlds_at(rep, played.index + 1, 1).probabilities()
    # so B knows that A holds no tile that fits those ends: his dealt tiles and his first two
    # draws did not, and the third is the [1-5] he laid
    assert probs["A"] and not any(t in probs["A"] for t in fits)
    # and every tile nobody has seen is in A's hand or the boneyard, as often as their sizes say
    assert sum(probs["A"].values()) == rep.steps[played.index].hands_after[0].bit_count()
    assert sum(probs["boneyard"].values()) == rep.steps[played.index].boneyard


@pytest.mark.slow
def test_a_draw_game_logged_by_one_player_is_judged_on_the_same_worlds():
    """The record A kept (his hand and draws; B's hand and drawn tiles unseen) gives A's moves the
    same fair values as the full record: what A could know is the same."""
    full = replay(read(str(RECORDS / "variant-draw.dom")).games[0])
    log = replay(read(str(RECORDS / "draw-one-view.dom")).games[0])
    assert log.valid and log.initial.hidden[1] == 8
    settings, alone = FairSettings(worlds=3, exact_below=3, seed=4), FairRun(workers=1)
    judged = fair_analyze(log, settings=settings, run=alone)
    assert judged.fair_seats == ("A",) and "B: the record does not show the whole hand" in judged.fair_note
    mine = [d for d in judged.decisions if d.fair is not None]
    assert mine and all(d.player == "A" and d.played_value is None for d in mine)
    reference = {d.index: d for d in fair_analyze(full, settings=replace(settings, seats=("A",)),
                                                  run=alone).decisions if d.fair is not None}
    assert sorted(reference) == [d.index for d in mine]
    for d in mine:
        r = reference[d.index]
        assert d.fair.total == r.fair.total
        assert {a.move: a.fair.mean for a in d.alternatives} == {a.move: a.fair.mean for a in r.alternatives}


def test_replay_view_of_a_draw_game():
    data = json.loads(run("replay", str(RECORDS / "variant-draw.dom"), "--view", "B", "--json").output)
    rep = replay(read(str(RECORDS / "variant-draw.dom")).games[0])
    steps = data["games"][0]["inference"]["steps"]
    assert len(steps) == len(rep.steps) + 1 and "stopped" not in data["games"][0]["inference"]
    for step in steps:
        seen = step["seen"]
        holds = step["holds"]
        left = rep.initial.stock if seen == 0 else rep.steps[seen - 1].boneyard
        assert sum(holds["boneyard"].values()) == pytest.approx(left)
        for tile in {t for h in holds.values() for t in h}:
            assert sum(h.get(tile, 0) for h in holds.values()) == pytest.approx(1.0)
    # B's own tiles: certain; the [6-6] A drew in round 9 is, for B, anywhere but in his hand
    assert all(p == 1.0 for p in steps[0]["holds"]["B"].values()) and len(steps[0]["holds"]["B"]) == 8
    assert "[6-6]" in steps[-1]["holds"]["boneyard"] or "[6-6]" in steps[-1]["holds"]["A"]
    text = run("replay", str(RECORDS / "variant-draw.dom"), "--view", "public").output
    assert "boneyard" in text and "not yet" not in text


BAD_DRAWS = (RECORDS / "draw-one-view.dom").read_text(encoding="utf-8").replace(
    "5. A [2-6]@2 B draws ? B [3-6]\n6. A [0-6] B [1-3]", "5. A [2-6]@2 B [3-6]\n6. A [0-6] B draws ? B [1-3]")


def test_a_play_the_drawers_earlier_draws_ruled_out_is_a_clear_error(tmp_path):
    # round 2: B drew twice on the open 5 and 6, then laid the [2-5] he drew last; so the tiles he
    # was dealt and his first draw hold no 5 and no 6, and in round 5 he lays [3-6] without drawing
    rep = replay(parse(BAD_DRAWS).games[0])
    assert rep.valid
    k = next(st.index for st in rep.steps if str(st.move) == "[3-6]@6")
    worlds_at(rep, k, 0)
    with pytest.raises(NoWorld) as err:
        worlds_at(rep, k + 1, 0)
    # (the [2-5] and the [3-6] would both have to be his second draw)
    assert f"move {k + 1} (B [3-6]" in str(err.value) and "contradicting a pass or a draw" in str(err.value)
    assert err.value.line == rep.steps[k].entry.pos.line
    path = tmp_path / "bad-draws.dom"
    path.write_text(BAD_DRAWS, encoding="utf-8")
    result = run("analyze", "--fair", "--seat", "A", "--decision-deals", "2", "--exact-below", "2", str(path))
    assert f"move {k + 1} (B [3-6]" in result.output and "Traceback" not in result.output


def test_a_player_whose_drawn_tile_the_record_does_not_name_is_judged_only_before_it():
    text = (RECORDS / "draw-one-view.dom").read_text(encoding="utf-8").replace(
        "A draws [6-6] A draws [4-6] A draws [1-5]", "A draws ? A draws ? A draws ?")
    rep = replay(parse(text).games[0])
    first = next(st for st in rep.steps if st.seat == 0 and st.move.draw)
    out = fair_analyze(rep, settings=FairSettings(worlds=2, exact_below=2), run=FairRun(workers=1))
    assert f"A's moves after move {first.index + 1} are not judged" in out.fair_note
    judged = [d.index for d in out.decisions if d.fair is not None]
    assert judged and max(judged) < first.index


def test_a_double_nine_world_is_sampled_with_its_own_tiles():
    """The double-nine cross with a hand the record does not show: every sampled world deals and orders
    the double-nine set's tiles (the tiles of a mask were once read as double-six ones, and [0-7] and
    above failed)."""
    from analyzer.inference import worlds_at
    from analyzer.notation import parse
    from analyzer.match import replay_record
    from analyzer.tiles import tile_set

    text = "\n".join(line for line in (RECORDS / "variant-cross-9.dom").read_text().splitlines()
                     if not line.startswith("A: "))
    (rep,) = replay_record(parse(text))
    assert rep.initial.max_pip == 9 and rep.initial.hidden[0] == 7
    worlds = worlds_at(rep, 0, 1)           # B's view before the first move: A's hand and the boneyard unseen
    rng = random.Random(9)
    every = set(tile_set(9))
    for _ in range(5):
        world = worlds.sample(rng)
        deal, order = worlds.view.deal(world), worlds.view.order(world)
        dealt = [t for mask in deal for t in tile_set(9) if t.bit & mask]
        assert len(dealt) == 28 and set(dealt) | set(order) == every and not set(dealt) & set(order)
