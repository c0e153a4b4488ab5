"""All the worlds of a decision of a draw game in one call into the compiled draw search
(``analyzer.search.drawworlds.DrawWorlds``, ``_draw.DrawSearch.worlds``): each world's values equal those
of the search of that world alone (``TreeSearch.values``, compiled and pure Python) and of the plain
minimax of ``tests/minimax_reference.py`` (``DrawReference``), at every decision of small random draw
hands of every draw family (the lead and the opener's extra tile among them), the worlds being those
the inference lists for the mover; the node limit stops the batch where it stops the search of a
world alone; the fair analysis gives the same verdicts with the batch and without it, Hungarian's (no boneyard)
among them."""
from __future__ import annotations

import random

import pytest

from analyzer.analysis import AgainstTheRest
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.generate import random_game
from analyzer.inference import world_position, worlds_at
from analyzer.match import random_hand
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.search import NO_EXTRA, SearchLimit, TreeSearch, revealed
from analyzer.search.core import draw_core
from analyzer.search.drawworlds import DrawWorlds
from analyzer.codec import to_data
from minimax_reference import DrawReference
from test_inference import small

built = pytest.mark.skipif(draw_core() is None,
                           reason="the compiled search of draw games was not built (no C compiler)")

# small deals of every draw family: draw until one fits (two tiles kept, the opener's extra tile), one tile a
# turn, three and four players, Cut Throat's draw game, Chiva's draw game for two and three, All Fives (points
# in play) for two and three, All Fives and Threes
FAMILIES = [
    ("draw", small("draw", 3, 3, players="2")),
    ("draw-one", small("draw", 3, 3, players="2", draw="one")),
    ("draw-3", small("draw", 2, 3, players="3")),
    ("draw-4", small("draw", 2, 4, players="4")),
    ("cutthroat-draw", small("cutthroat", 3, 3, players="2", draw="yes")),
    ("chiva-2", small("chiva", 3, 3, players="2")),
    ("chiva-3", small("chiva", 2, 3, players="3")),
    ("all-fives", small("all-fives", 3, 3)),
    ("all-fives-3", small("all-fives", 2, 3, players="3")),
    ("all-fives-threes", small("all-fives-threes", 3, 3)),
]
MOST = 40           # worlds a decision (drawn from the mover's worlds when there are more)


def draw_record(variant, rng: random.Random, draws: int):
    """A random hand of ``variant`` with at least ``draws`` draws and every point claimed, replayed."""
    while True:
        rep = replay(random_hand(variant, rng)[0], variant)
        assert rep.valid, rep.errors
        if sum(st.move is not None and st.move.draw for st in rep.steps) >= draws and not any(
                d.code == "missed-score" for d in rep.diagnostics):
            return rep


def rules_of(rep, seat: int):
    variant = rep.variant
    return AgainstTheRest(variant, seat) if variant.seating.sides > 2 else variant


def decision(rep, k: int, seat: int, world) -> tuple:
    """``(searched, plain, order)``: the decision of ``seat`` before move ``k`` in ``world`` (deal, boneyard
    order): for the searches (the boneyard drawn in its order, the opener's offer after his lead), and the
    plain position for the reference."""
    deal, order = world
    plain = world_position(rep, deal, k, order)
    offer = plain.bonus if plain.bonus == seat and plain.may_add(seat) else -1
    pos = revealed(plain, list(order), offer)
    pos.turn = plain.turn = seat
    return pos, plain, order


def decisions(rep):
    """Every ``(k, seat, worlds)`` where a seat whose hand is known chooses among two moves or more."""
    rng = random.Random(len(rep.steps))
    for k in range(len(rep.steps)):
        seat = rep.steps[k].seat
        if rep.steps[k].move is None:
            continue
        worlds = worlds_at(rep, k, seat)
        chosen = list(worlds) if worlds.count <= MOST else [worlds.sample(rng) for _ in range(MOST)]
        listed = [(worlds.view.deal(w), worlds.view.order(w)) for w in chosen]
        if listed and len(decision(rep, k, seat, listed[0])[0].legal_moves()) > 1:
            yield k, seat, listed


def batch_of(rep, k: int, seat: int, listed, rules, **limits):
    first = decision(rep, k, seat, listed[0])[0]
    worlds = [(tuple(decision(rep, k, seat, w)[0].hands), tuple(t.bit for t in w[1])) for w in listed]
    return DrawWorlds(rules, **limits).values(first, worlds)


@built
@pytest.mark.parametrize("family,variant", FAMILIES, ids=[f for f, _ in FAMILIES])
def test_the_batch_gives_each_world_the_values_of_its_own_search_and_of_plain_minimax(family, variant):
    rng = random.Random(f"draw-worlds-{family}")
    checked, leads, offers = 0, 0, 0
    for _ in range(3):
        rep = draw_record(variant, rng, draws=1)
        for k, seat, listed in decisions(rep):
            rules = rules_of(rep, seat)
            rows = batch_of(rep, k, seat, listed, rules)
            assert rows is not None and len(rows) == len(listed)
            for world, row in zip(listed, rows):
                pos, plain, order = decision(rep, k, seat, world)
                assert row == TreeSearch(rules, core="compiled").values(pos)
                assert row == TreeSearch(rules, core="python").values(pos)
                expected = DrawReference(rules, order).alternatives(plain, getattr(pos, "offer", -1) >= 0)
                assert {None if m == NO_EXTRA else m: v for m, v in row} == expected
                checked += 1
            leads += pos.ends is None
            offers += any(m == NO_EXTRA for m, _ in rows[0])
    assert checked >= 20
    if family == "draw":
        assert offers, "the opener's extra tile is among the decisions checked"
    if family.startswith("chiva"):
        assert leads, "the lead is among the decisions checked"


@built
@pytest.mark.parametrize("family,variant", [FAMILIES[0], FAMILIES[6], FAMILIES[7]], ids=["draw", "chiva-3", "all-fives"])
def test_the_node_limit_stops_the_batch_where_it_stops_a_world_searched_alone(family, variant):
    rep = draw_record(variant, random.Random(f"draw-worlds-limit-{family}"), draws=1)
    k, seat, listed = next(decisions(rep))
    rules = rules_of(rep, seat)
    most = 0
    for world in listed:
        search = TreeSearch(rules, core="compiled")
        search.values(decision(rep, k, seat, world)[0])
        most = max(most, search.nodes)
    assert most > 1
    assert batch_of(rep, k, seat, listed, rules, node_limit=most) is not None
    with pytest.raises(SearchLimit):
        batch_of(rep, k, seat, listed, rules, node_limit=most - 1)


@built
@pytest.mark.parametrize("family,variant", [FAMILIES[1], FAMILIES[5], FAMILIES[8]], ids=["draw-one", "chiva-2",
                                                                                           "all-fives-3"])
def test_the_fair_analysis_is_the_same_with_the_batch_and_world_by_world(family, variant, monkeypatch):
    rep = draw_record(variant, random.Random(f"draw-worlds-fair-{family}"), draws=2)
    settings, alone = FairSettings(worlds=12, exact_below=30, seed=3), FairRun(workers=1)
    calls = []
    values = DrawWorlds.values
    monkeypatch.setattr(DrawWorlds, "values", lambda self, *a: calls.append(1) or values(self, *a))
    batched = to_data(fair_analyze(rep, settings=settings, run=alone))
    assert calls
    monkeypatch.setattr(DrawWorlds, "values", lambda self, *a: None)
    assert to_data(fair_analyze(rep, settings=settings, run=alone)) == batched


def test_a_search_not_compiled_leaves_the_worlds_to_the_search_of_each():
    rep = draw_record(small("draw", 3, 3, players="2"), random.Random("draw-worlds-none"), draws=1)
    k, seat, listed = next(decisions(rep))
    assert batch_of(rep, k, seat, listed, rules_of(rep, seat), core="python") is None


@built
@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_hungarian_s_fair_analysis_is_the_same_with_the_batch_and_world_by_world(players, monkeypatch):
    """Hungarian has no boneyard: its worlds go to the batch with an empty order (a player plays on while he can,
    the hand goes on past a player out), on the points scale (the match scale reads each world's lines off the
    world's own search); every verdict is the one each world searched alone gives."""
    variant = find_variant("hungarian", {"players": players})
    rep = replay(random_game(variant, 7), variant)
    settings, alone = FairSettings(worlds=12, exact_below=30, seed=3), FairRun(workers=1)
    calls = []
    values = DrawWorlds.values
    monkeypatch.setattr(DrawWorlds, "values", lambda self, *a: calls.append(1) or values(self, *a))
    batched = to_data(fair_analyze(rep, settings=settings, run=alone))
    assert calls and any(d.get("fair") for d in batched["decisions"])
    monkeypatch.setattr(DrawWorlds, "values", lambda self, *a: None)
    assert to_data(fair_analyze(rep, settings=settings, run=alone)) == batched


@built
def test_the_batch_keeps_its_table_to_table_mb_and_its_values_where_the_table_is_full():
    """A Chiva lead for three (seven tiles each) fills a table of 0.1 MB: the batch's table stays within it,
    and each world's values are still those of its own search under the same bound."""
    variant = find_variant("chiva", {"players": "3"})
    rep = replay(random_game(variant, 13), variant)
    worlds = worlds_at(rep, 0, 0)
    rng = random.Random(5)
    listed = [(worlds.view.deal(w), worlds.view.order(w)) for w in (worlds.sample(rng) for _ in range(2))]
    rules = rules_of(rep, 0)
    first = decision(rep, 0, 0, listed[0])[0]
    assert first.ends is None and len(first.legal_moves()) == 7          # the lead, any tile
    batch = DrawWorlds(rules, table_mb=0.1)
    rows = batch.values(first, [(tuple(decision(rep, 0, 0, w)[0].hands), tuple(t.bit for t in w[1])) for w in listed])
    assert batch.table.replaced > 0 and batch.table.nbytes <= 0.1 * (1 << 20)
    for world, row in zip(listed, rows):
        assert row == TreeSearch(rules, core="compiled", table_mb=0.1).values(decision(rep, 0, 0, world)[0])
