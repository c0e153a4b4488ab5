"""The inference uses every fact the rules reveal, and only those (issue 31, items 15-17).

The reference here is independent of :mod:`analyzer.inference`: every deal of the tiles a viewer has
not seen (each way to fill the other hands to their sizes, the rest to the sleepers) is written into
the record in place of its hands and replayed; the replayer and its judge say whether the deal is
consistent with the record up to the step looked at. A deal agrees with what the viewer saw after
``seen`` moves when the first ``seen`` moves replay without an error in it (a lead error of the deal
counts from the start: who leads is known before he leads, 003 "Der Spieler mit dem höchsten Doppel
beginnt"), and when the player the record names next can make some move there that replays without
an error (he moves: the turn reached him, so in Hungarian the run before him had ended; 004 "Jeder
Spieler legt so viele Steine wie möglich ab"). The inference's count of worlds and every tile's
probability in every holder must equal the count and the frequencies over those deals, at every
step (0 included) and from every view whose deals are few enough to list.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.generate import SEAT_NAMES, random_hand
from analyzer.inference import worlds_at
from analyzer.notation import parse
from analyzer.position import mask_of, tiles_of
from analyzer.record import Game, HandEntry, MoveEntry
from analyzer.replay import replay
from analyzer.rules.policies import Dealing
from analyzer.rules.variants import find_variant
from analyzer.tiles import Tile

LIMIT = 6_000          # the most deals listed for one view


def small(name: str, hand: int, max_pip: int, **options):
    """The variant ``name`` with ``hand`` tiles each from a double-``max_pip`` set."""
    variant = find_variant(name, options or None)
    return dataclasses.replace(variant, dealing=dataclasses.replace(variant.dealing, hand_size=hand, max_pip=max_pip))


# -- the reference: deals written into the record and replayed ----------------------------------
class Reference:
    """The worlds of one record that the replayer accepts up to each step: the deals (hands, then the
    rest) and, in a draw game, the boneyard's order (the k-th draw takes ``order[k]``; the record's
    draws are written with the world's tiles). Each world's replays are kept."""

    def __init__(self, rep):
        self.rep = rep
        self.entries = [step.entry for step in rep.steps]
        self.sizes = [len(hand.tiles) for hand in rep.game.hands]
        self.tags = {k: v for k, v in rep.game.tags.items() if k not in ("Result", "Score")}
        self.drawing = rep.variant.drawing is not None
        self.draws = [j for j, entry in enumerate(self.entries) if entry.draw]     # the steps that draw
        self._first: dict[tuple, int] = {}
        self._moves: dict[tuple, bool] = {}

    def written(self, order: tuple, entries, start: int = 0) -> list:
        """``entries`` (from step ``start``) with each draw taking its tile from ``order``."""
        out, k = [], sum(1 for j in self.draws if j < start)
        for entry in entries:
            if entry.draw:
                entry = dataclasses.replace(entry, tile=order[k])
                k += 1
            out.append(entry)
        return out

    def replayed(self, deal, entries):
        rep = self.rep
        hands = tuple(HandEntry(name, tuple(tiles_of(deal[s], rep.initial.max_pip)))
                      for s, name in enumerate(rep.players))
        game = Game(tags=self.tags, players=rep.players, hands=hands, moves=list(entries))
        return replay(game, rep.variant, terms=rep.terms)

    @staticmethod
    def _clean(out, upto: int | None = None) -> bool:
        return (not any(d.severity == "error" for d in out.deal_diagnostics)
                and all(st.ok for st in out.steps[:upto]))

    def first_error(self, deal: tuple[int, ...], order: tuple) -> int:
        """The first step the whole record has an error at in this world (-1: the deal itself, the
        number of steps: none)."""
        key = (deal, order[:len(self.draws)])
        if key not in self._first:
            out = self.replayed(deal, self.written(order, self.entries))
            if any(d.severity == "error" for d in out.deal_diagnostics):
                self._first[key] = -1
            else:
                self._first[key] = next((st.index for st in out.steps if not st.ok), len(out.steps))
        return self._first[key]

    def can_move(self, deal: tuple[int, ...], order: tuple, seen: int) -> bool:
        """Whether the player the record names at step ``seen`` has a move there (any tile of his on
        any end, a pass, or a draw) that replays without an error after the first ``seen`` moves: the
        viewer knows who moves next, not what he does."""
        drawn = sum(1 for j in self.draws if j < seen)
        key = (deal, order[:drawn + 1], seen)
        if key not in self._moves:
            entry = self.entries[seen]
            seat = self.rep.players.index(entry.player)
            mine = deal[seat] | mask_of(order[:drawn])
            numbers = range(self.rep.initial.max_pip + 1)
            tries = [MoveEntry(entry.player, None)]
            if self.drawing and drawn < len(order):
                tries.append(MoveEntry(entry.player, order[drawn], draw=True))
            tries += [MoveEntry(entry.player, tile, end) for tile in tiles_of(mine, self.rep.initial.max_pip)
                      for end in (None, *numbers) if end is None or end in (tile.low, tile.high)]
            prefix = self.written(order, self.entries[:seen])
            self._moves[key] = any(self._clean(self.replayed(deal, prefix + [t])) for t in tries)
        return self._moves[key]

    def agrees(self, deal: tuple[int, ...], order: tuple, seen: int) -> bool:
        first = self.first_error(deal, order)
        if first < seen or first < 0:
            return False
        return seen == len(self.entries) or first > seen or self.can_move(deal, order, seen)

    def worlds(self, viewer: int | None, seen: int):
        """Every world ``viewer`` cannot rule out by his own hand and the tiles he drew so far."""
        rep = self.rep
        every = mask_of(rep.variant.dealing.tiles)
        n = len(rep.players)
        mine = {}                        # the draws the viewer made in the first ``seen`` moves: k -> tile
        for k, j in enumerate(self.draws):
            if j < seen and self.rep.steps[j].seat == viewer:
                mine[k] = self.entries[j].tile

        def fill(s: int, left: list, dealt: list):
            if s == n:
                rest = tuple(left)
                if not self.drawing:
                    yield tuple(dealt) + (mask_of(rest),), ()
                    return
                for order in itertools.permutations(rest):
                    if all(order[k] == t for k, t in mine.items()):
                        yield tuple(dealt) + (mask_of(rest),), order
                return
            if s == viewer:
                yield from fill(s + 1, left, dealt + [rep.initial.hands[s]])
                return
            for chosen in itertools.combinations(left, self.sizes[s]):
                yield from fill(s + 1, [t for t in left if t not in chosen], dealt + [mask_of(chosen)])

        own = rep.initial.hands[viewer] if viewer is not None else 0
        yield from fill(0, list(tiles_of(every & ~own, rep.initial.max_pip)), [])

    def size(self, viewer: int | None) -> int:
        left = len(self.rep.variant.dealing.tiles) - (self.sizes[viewer] if viewer is not None else 0)
        total = 1
        for s, size in enumerate(self.sizes):
            if s != viewer:
                total *= _comb(left, size)
                left -= size
        return total * (math.factorial(left) if self.drawing else 1)

    def table(self, seen: int, viewer: int | None) -> tuple[int, dict[str, dict]]:
        """The worlds that agree after ``seen`` moves, and each tile's frequency in each holder now."""
        rep = self.rep
        n = len(rep.players)
        rest = "boneyard" if self.drawing else "sleepers"
        names = list(rep.players) + [rest]
        held: dict[str, Counter] = {name: Counter() for name in names}
        count = 0
        drawn = sum(1 for j in self.draws if j < seen)
        for deal, order in self.worlds(viewer, seen):
            if not self.agrees(deal, order, seen):
                continue
            count += 1
            now = list(deal[:n]) + [mask_of(order[drawn:]) if self.drawing else deal[n]]
            k = 0
            for step in rep.steps[:seen]:
                if step.entry.draw:
                    now[step.seat] |= order[k].bit
                    k += 1
                elif step.move is not None and step.move.tile is not None:
                    now[step.seat] &= ~step.move.tile.bit
            for h, name in enumerate(names):
                held[name].update(tiles_of(now[h], rep.initial.max_pip))
        spare = len(rep.variant.dealing.tiles) - sum(self.sizes)
        probs = {name: {t: Fraction(c, count) for t, c in sorted(held[name].items())}
                 for name in names if name != rest or spare}
        return count, probs


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def check(rep, *, views=None, steps=None) -> int:
    """The inference against the reference at every step and from every view (those whose deals are
    few enough to list); how many (step, view) pairs were compared."""
    ref = Reference(rep)
    compared = 0
    views = [None] + list(range(len(rep.players))) if views is None else views
    for viewer in views:
        if ref.size(viewer) > LIMIT:
            continue
        for seen in (range(len(rep.steps) + 1) if steps is None else steps):
            count, probs = ref.table(seen, viewer)
            worlds = worlds_at(rep, seen, viewer)
            where = f"view {viewer}, after {seen} moves"
            assert worlds.count == count, where
            got = {name: {t: p for t, p in sorted(row.items()) if p} for name, row in worlds.probabilities().items()}
            assert got == probs, where
            compared += 1
    return compared


def record(text: str, variant):
    game = parse(text).games[0]
    rep = replay(game, variant)
    assert rep.valid, rep.errors
    return rep


# -- the facts of issue 31 on records written for them -----------------------------------------
BLOCK2 = small("block", 3, 3, players="2")
ALL_FIVES2 = small("all-fives", 3, 3, players="2", draw="no")


def test_a_lead_that_is_no_double_shows_no_hand_holds_a_double():
    """003: "Der Spieler mit dem höchsten Doppel beginnt": a lead that is no double proves no hand
    was dealt a double (the four doubles of the double-three set lie among the sleepers)."""
    rep = record('[Players "A, B"]\n\nA: [0-1] [0-2] [1-3]\nB: [1-2] [2-3] [0-3]\n\n1. A [0-1] B [1-2]\n', BLOCK2)
    ref = Reference(rep)
    count, probs = ref.table(1, 1)
    assert count == 1                   # A holds the three non-doubles B does not see
    assert not any(t.is_double for t in probs["A"])
    worlds = worlds_at(rep, 1, 1)
    assert not any(t.is_double and p for t, p in worlds.probabilities()["A"].items())
    assert check(rep, views=[0, 1]) == 2 * 3


def test_who_leads_is_known_before_the_lead():
    """Before the first move everybody knows who leads: the holder of the highest double dealt (or,
    when nobody holds a double, anyone). A leads holding no double: B holds none either."""
    rep = record('[Players "A, B"]\n\nA: [0-1] [0-2] [1-3]\nB: [1-2] [2-3] [0-3]\n\n1. A [0-1] B [1-2]\n', BLOCK2)
    worlds = worlds_at(rep, 0, 0)
    assert not any(t.is_double and p for t, p in worlds.probabilities()["B"].items())
    check(rep, views=[0, 1])
    # A's highest double is [2-2]: B does not hold [3-3]
    rep = record('[Players "A, B"]\n\nA: [0-1] [0-2] [2-2]\nB: [1-2] [2-3] [0-3]\n\n1. A [2-2] B [1-2]\n', BLOCK2)
    worlds = worlds_at(rep, 0, 0)
    assert worlds.probabilities()["B"].get(Tile(3, 3), 0) == 0
    check(rep, views=[0, 1])


CUTTHROAT3 = small("cutthroat", 3, 3, players="3")
CUTTHROAT3 = dataclasses.replace(CUTTHROAT3, opening=dataclasses.replace(CUTTHROAT3.opening, first_game_tile=Tile(3, 3)))


def test_the_holder_of_the_tile_that_must_lead_is_known_before_the_lead():
    """002, Cut Throat: in the first game the holder of the highest tile leads with it (here the set's
    highest, [3-3]); everybody knows he holds it before he plays it."""
    text = ('[Game "1"]\n[Players "A, B, C"]\n\nA: [0-1] [1-2] [2-3]\nB: [0-2] [1-1] [3-3]\n'
            'C: [0-3] [1-3] [2-2]\n\n1. B [3-3] C [1-3] A [1-2]\n')
    rep = record(text, CUTTHROAT3)
    for viewer in (None, 0, 2):
        assert worlds_at(rep, 0, viewer).probabilities()["B"][Tile(3, 3)] == 1
    assert check(rep) == 4 * 4


@pytest.mark.slow
@pytest.mark.parametrize("variant", [BLOCK2, ALL_FIVES2], ids=["block", "all-fives"])
def test_every_lead_of_two_small_hands(variant):
    """Several deals of each two-player game where the highest double opens."""
    rng = random.Random(f"lead-{variant.name}")
    compared = 0
    for _ in range(4):
        game = random_hand(variant, rng)[0]
        compared += check(replay(game, variant))
    assert compared >= 20


def test_passes_written_after_a_block_are_facts():
    """000: "ein gesperrtes Spiel - das ist ein Spiel, bei dem vier Spieler nacheinander passen":
    nobody sees the block, the players pass until all have passed, and each pass still shows the
    passer holds nothing for the open numbers. The record's deal is blocked after B's [3-3] (the
    other 3s lie among the sleepers); A's pass then shows he holds no 3."""
    text = '[Players "A, B"]\n\nA: [0-0] [1-1] [2-2]\nB: [0-2] [1-2] [3-3]\n\n1. B [3-3] A pass\n2. B pass\n'
    rep = record(text, BLOCK2)
    assert rep.steps[1].move is None            # the replay marks it not played: the hand was blocked
    for seen in (2, 3):
        worlds = worlds_at(rep, seen, 1)
        assert not any(p and 3 in (t.low, t.high) for t, p in worlds.probabilities()["A"].items())
    check(rep, views=[0, 1])


HUNGARIAN2 = small("hungarian", 3, 3, players="2")


def test_the_end_of_a_hungarian_run_before_the_passes_of_a_block():
    """004: "Jeder Spieler legt so viele Steine wie möglich ab": A's run ends after his [2-2] (B moves
    next), so A holds no 2 and no 3, although the next move is a pass the replay does not play (the
    hand is blocked: nobody sees it)."""
    text = ('[Players "A, B"]\n\nA: [0-1] [2-2] [3-3]\nB: [0-0] [1-2] [1-3]\n\n'
            '1. A [3-3] B [1-3] B [1-2]\n2. A [2-2] B pass A pass\n')
    rep = record(text, HUNGARIAN2)
    assert rep.steps[4].move is None
    probs = worlds_at(rep, 4, 1).probabilities()["A"]
    assert not any(p and {2, 3} & {t.low, t.high} for t, p in probs.items())
    assert check(rep, views=[0, 1]) == 2 * 7


def test_a_hungarian_hand_may_be_over_when_the_record_goes_on():
    """004: once a player is out the others play on while one of them can; the passes written after nobody can
    play are no error (docs/variants.md). B goes out with his third tile; whoever watches sees A named next, but
    not what A does: A may hold no 1 and no 2 (the hand is over, and his entry a pass after the end). The deal
    was found by the random hands below (hungarian-2), where the inference first counted 19 worlds of the 20."""
    text = ('[Players "A, B"]\n\nA: [0-0] [0-2] [2-3]\nB: [1-1] [1-2] [2-2]\n\n'
            '1. B [2-2] B [1-2] B [1-1]\n2. A [0-2] A [0-0]\n')
    rep = record(text, HUNGARIAN2)
    assert rep.valid, rep.errors
    probs = worlds_at(rep, 3, None).probabilities()["A"]
    assert probs.get(Tile(3, 3), 0) > 0         # A: [0-0] [0-3] [3-3], no 1 and no 2, is a world
    assert check(rep, views=[None, 1], steps=[3]) == 2


# -- random hands of every block family ---------------------------------------------------------
FAMILIES = [
    ("block-2", BLOCK2),
    ("all-fives-2", ALL_FIVES2),
    ("block-4", small("block", 2, 3)),
    ("cutthroat-3", small("cutthroat", 3, 3, players="3")),
    ("partnership", small("partnership", 2, 3)),
    ("jamaican", small("jamaican", 2, 3)),
    ("hungarian-2", small("hungarian", 3, 3, players="2")),
    ("hungarian-3", small("hungarian", 2, 3, players="3")),
    # draw games: a world is a deal and the boneyard's order
    ("draw-2", small("draw", 3, 3, players="2")),
    ("draw-one", small("draw", 3, 3, players="2", draw="one")),
    ("cutthroat-draw", small("cutthroat", 3, 3, draw="yes")),
    ("all-fives-draw", small("all-fives", 3, 3)),
    ("fives-threes-3", small("all-fives-threes", 2, 3, draw="no", players="3")),
    # the first game of a match: Chiva for two, a draw game whose highest double dealt opens
    ("chiva-2-first", small("chiva", 3, 3, players="2")),
    ("cutthroat-draw-first", dataclasses.replace(small("cutthroat", 3, 3, draw="yes"), opening=dataclasses.replace(
        small("cutthroat", 3, 3, draw="yes").opening, first_game_tile=Tile(3, 3)))),
]


@pytest.mark.slow
@pytest.mark.parametrize("family,variant", FAMILIES, ids=[f for f, _ in FAMILIES])
def test_the_inference_equals_the_replayed_deals(family, variant):
    rng = random.Random(f"facts-{family}")
    compared = 0
    for _ in range(2):
        game = random_hand(variant, rng)[0]
        if family.endswith("-first"):
            game = dataclasses.replace(game, tags={**game.tags, "Game": "1"})
        rep = replay(game, variant)
        assert rep.valid, rep.errors
        compared += check(rep)
    assert compared >= 10


# -- item 18: the opener's extra tile (004) -----------------------------------------------------
DRAW2 = small("draw", 3, 3, players="2")
DECLINED = ('[Players "A, B"]\n\nA: [0-1] [0-2] [1-1]\nB: [0-0] [1-3] [2-3]\n\n'
            '1. A [1-1] B [1-3]\n2. A [0-1] B [2-3]\n3. A [0-2]@2\n')
ADDED = '[Players "A, B"]\n\nA: [0-2] [2-2] [2-3]\nB: [0-1] [1-2] [1-3]\n\n1. A [2-2] A [0-2] B [0-1]\n2. A [2-3]\n'


@pytest.mark.slow
@pytest.mark.parametrize("text,k,played", [(DECLINED, 1, "no extra tile"), (ADDED, 1, "[0-2]@2")],
                         ids=["declined", "added"])
def test_the_openers_extra_tile_is_valued_from_his_view(text, k, played):
    """004: "Wer den höchsten Pasch hat ... beginnt: Er legt diesen Stein offen aus und darf, wenn er
    einen passenden hat, auch diesen anlegen": adding a tile to the lead, or not, is the opener's choice, and
    the fair analysis values it over every deal and boneyard order he cannot tell apart, each
    alternative's mean that of plain minimax over those worlds."""
    from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
    from test_boneyard import brute_worlds, reference_values

    rep = record(text, DRAW2)
    out = fair_analyze(rep, settings=FairSettings(worlds=10, exact_below=6_000), run=FairRun(workers=1))
    [d] = [d for d in out.decisions if d.player == "A" and d.played == played]
    assert d.fair is not None and d.fair.method == "exact"
    worlds = brute_worlds(rep, k, 0)
    assert d.fair.worlds == len(worlds)
    values = reference_values(rep, 0, k, worlds)
    assert {a.move for a in d.alternatives} == set(values) >= {"no extra tile", played}
    for alt in d.alternatives:
        assert alt.fair.mean == pytest.approx(sum(values[alt.move]) / len(worlds), abs=1e-3)


# -- the fast counts against the plain ones ------------------------------------------------------
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), family=st.sampled_from(["block-2", "all-fives-2", "block-4", "draw-2", "hungarian-3"]),
       data=st.data())
def test_the_cases_and_the_exclusions_count_what_listing_counts(seed, family, data):
    """Before the lead, the highest double leading counted as its cases equals the general program on
    doubles (every placement of the unseen doubles judged on the whole hands); a view with a player
    moving again counts and weighs, by inclusion and exclusion, exactly the worlds it lists."""
    from analyzer.inference import view_at
    from analyzer.inference.placements import DoublesFirst, Placements
    from analyzer.inference.worlds import View, Worlds

    variant = dict(FAMILIES)[family]
    rep = replay(random_hand(variant, random.Random(seed))[0], variant)
    viewer = data.draw(st.sampled_from([None] + list(range(len(rep.players)))))
    view = view_at(rep, 0, viewer)
    whole = view.whole
    if whole is not None and whole.highest_first:
        plain = DoublesFirst(view, lambda world: whole.allows(View.deal(view, world)),
                             Placements(view.unseen, view.allowed, view.room))
        worlds = Worlds(view)
        assert worlds._base.count == plain.count
        assert worlds._base.weights() == plain.weights()
    seen = data.draw(st.integers(1, len(rep.steps)))
    view = view_at(rep, seen, viewer)
    worlds = view.worlds()
    if worlds.count > 20_000:
        return
    listed = list(worlds)
    assert worlds.count == len(listed) == len(set(listed))
    if rep.variant.drawing is None:
        probs = worlds.probabilities()
        for h, holder in enumerate(view.holders):
            held = Counter(t for w in listed for t in tiles_of(w[h], rep.initial.max_pip))
            assert {t: p for t, p in probs[holder].items() if p} == {t: Fraction(c, len(listed)) for t, c in held.items()}


def test_kozels_new_deal_counted_by_rooms_is_its_placements_listed():
    """Kozel's new deal (five doubles or six tiles of one number in a hand: a hand played held fewer) judged on the
    doubles each hand holds is counted by the rooms the doubles leave (``DoublesFirst._by_rooms``), not by
    listing the up to 4^7 placements of the unseen doubles; the count must be the listing's, sum for sum, from the
    public view and the players', at the deal, the lead and once passes have voided hands (the bundled match
    with its hands written ``?``: games 2 and 9)."""
    from analyzer.inference.placements import DoublesFirst
    from analyzer.match import replay_record

    from conftest import RECORDS

    text = (RECORDS / "match-kozel.dom").read_text(encoding="utf-8")
    handless = "\n".join(f"{line[0]}: ?" if line[:3] in ("A: ", "B: ", "C: ", "D: ") and "[" in line else line
                         for line in text.splitlines())
    games = replay_record(parse(handless))
    voided = 0
    for game, seen, viewer in ((8, 0, None), (8, 1, None), (8, 1, 2), (8, 2, 0), (1, 8, None), (1, 9, 1)):
        base = worlds_at(games[game], seen, viewer)._base
        assert isinstance(base, DoublesFirst)
        by_rooms = base._by_rooms()
        listed = sum(ways for *_, ways in base._placed())
        if base.placed_whole:
            assert by_rooms is not None and base.count == by_rooms == listed > 0, (game, seen, viewer)
        else:       # (past SUIT_EVENTS pairs a placement's ways judge suits in view: more, the count stays exact)
            assert by_rooms is not None and base.exact and 0 < base.count == by_rooms < listed, (game, seen, viewer)
        voided += any(base._allowed[i] & 0b1111 != 0b1111 for i in base.doubles)
    assert voided        # (a pass voided a hand of some double)


# -- Kozel's new deal judged on the whole hand (issue 80, item 2) --------------------------------
KOZEL = find_variant("kozel")
# a generated Kozel hand (analyzer.generate.random_hand): A holds five tiles of 1, B four of 6 ([6-6] is D's)
SUITED = """[Variant "kozel"]
[Players "A, B, C, D"]
[Lead "D"]
[Result "B/D 17 domino"]

A: [0-1] [1-2] [1-3] [1-4] [1-5] [2-2] [4-4]
B: [0-6] [1-1] [1-6] [2-5] [3-6] [5-5] [5-6]
C: [0-3] [2-3] [2-6] [3-4] [3-5] [4-5] [4-6]
D: [0-0] [0-2] [0-4] [0-5] [2-4] [3-3] [6-6]

1. D [0-2]
2. A [2-2] B [2-5] C [3-5] D [0-4]
3. A [4-4] B [3-6] C [3-4] D [6-6]
4. A [1-3] B [0-6] C [0-3] D [3-3]
5. A [0-1] B pass C [2-3] D [2-4]
6. A [1-4] B [1-6] C [4-6] D [0-0]
7. A pass B pass C [4-5] D [0-5]@5
"""


def played_deals(rep, seen: int, viewer: int):
    """Every deal ``viewer`` cannot rule out by his hand and the tiles played in the first ``seen`` moves: each
    other hand its tiles played and any of the tiles left to its size (a deal in which a hand did not hold a tile
    it played fails the replay anyway)."""
    n, max_pip = len(rep.players), rep.initial.max_pip
    played = [0] * n
    for step in rep.steps[:seen]:
        if step.move is not None and step.move.tile is not None:
            played[step.seat] |= step.move.tile.bit
    own = rep.initial.hands[viewer]
    left = mask_of(rep.variant.dealing.tiles) & ~own
    for s in range(n):
        if s != viewer:
            left &= ~played[s]
    size = rep.variant.dealing.hand_size

    def fill(s: int, rest: list, dealt: list):
        if s == n:
            yield tuple(dealt)
        elif s == viewer:
            yield from fill(s + 1, rest, dealt + [own])
        else:
            for chosen in itertools.combinations(rest, size - played[s].bit_count()):
                yield from fill(s + 1, [t for t in rest if t not in chosen], dealt + [played[s] | mask_of(chosen)])

    yield from fill(0, list(tiles_of(left, max_pip)), [])


def test_kozels_new_deal_for_a_suit_is_judged_on_the_whole_hand():
    """Kozel deals again when a hand holds six tiles or more of one number (docs/variants.md; the deal's check,
    ``Dealing.redeal_due``, calls such a hand an error): of the deals A cannot tell apart after 19 moves of a
    generated hand, those that give B (four of 6 played or in view) or C a sixth tile of a number are no deals
    of this hand. The count, each tile's probability and the listing are the replayed deals' (each written into
    the record and replayed: the replayer judges the new deal), and a drawn world is never one dealt again."""
    rep = record(SUITED, KOZEL)
    ref = Reference(rep)
    agreed = [deal for deal in played_deals(rep, 19, 0) if ref.agrees(deal + (0,), (), 19)]
    suited = [deal for deal in played_deals(rep, 19, 0) if any(KOZEL.dealing.redeal_due_mask(m) for m in deal)]
    assert agreed and suited               # (the rule bites here: deals the other facts leave are dealt again)
    worlds = worlds_at(rep, 19, 0)
    assert worlds.count == len(agreed)
    view = worlds.view
    listed = {view.deal(world) for world in worlds}
    assert listed == set(agreed)
    probs = worlds.probabilities()
    for s, name in enumerate(rep.players):
        now = Counter(t for deal in agreed for t in tiles_of(deal[s] & ~view.played[s], 6))
        assert {t: p for t, p in probs[name].items() if p} == {t: Fraction(c, len(agreed)) for t, c in now.items()}
    rng = random.Random(5)
    drawn = Counter(view.deal(worlds.sample(rng)) for _ in range(40 * len(agreed)))
    assert set(drawn) <= set(agreed)
    # uniform: chi-square over the deals, 40 draws expected each, below its 0.1% point (df 189: about 256)
    expected = 40
    chi2 = sum((drawn[deal] - expected) ** 2 / expected for deal in agreed)
    assert chi2 < 256, chi2


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), data=st.data())
def test_kozels_count_is_its_deals_listed_less_those_dealt_again(seed, data):
    """Random Kozel hands whose deal gives a hand five tiles of one number (where a sixth can bite), from any
    view at any step with few enough deals: the count, the listing and each tile's weight equal those of the
    deals the facts on single tiles allow (the plain program, itself checked against the replay above) with
    every deal that gives a hand five doubles or six tiles of one number taken out."""
    from analyzer.inference import view_at
    from analyzer.inference.worlds import Worlds

    rng = random.Random(seed)
    while True:
        game = random_hand(KOZEL, rng)[0]
        if any(Dealing.longest_suit(hand.tiles) >= 5 for hand in game.hands):
            break
    rep = replay(game, KOZEL)
    viewer = data.draw(st.sampled_from([None, 0, 1, 2, 3]))
    for seen in range(len(rep.steps) + 1):
        view = view_at(rep, seen, viewer)
        plain = Worlds(dataclasses.replace(view, whole=None))
        if plain.count <= 3_000:
            break
    else:
        return
    kept = [w for w in plain if not any(KOZEL.dealing.redeal_due_mask(m) for m in view.deal(w))]
    worlds = Worlds(view)
    assert worlds.count == len(kept)
    assert sorted(worlds) == sorted(kept)
    weights = worlds._weights()
    for i, tile in enumerate(view.unseen):
        assert weights[i] == [sum(1 for w in kept if w[h] & tile.bit) for h in range(len(view.room))]


def test_a_kozel_sheet_counts_its_deals_without_those_dealt_again():
    """The sheet's count by how the hand ends (``inference.count.count_deals``: what ``validate`` and ``analyze``
    read past the listing) leaves out the deals Kozel deals again as the listing does: the hand above stopped
    after 19 moves, A's hand written and the others ``?``, counted, equals the deals the replayer accepts."""
    from analyzer.inference.count import count_deals
    from analyzer.inference.sheet import _Ending

    game = parse(SUITED).games[0]
    hidden = tuple(dataclasses.replace(h, tiles=None, unknown=0) if h.player != "A" else h for h in game.hands)
    cut = dataclasses.replace(game, hands=hidden, moves=game.moves[:19],
                              tags={k: v for k, v in game.tags.items() if k != "Result"})
    rep = replay(cut, KOZEL)
    full = replay(game, KOZEL)
    ref = Reference(replay(dataclasses.replace(cut, hands=game.hands), KOZEL))     # (the deals written in its place)
    agreed = [deal for deal in played_deals(full, 19, 0) if ref.agrees(deal + (0,), (), 19)]
    worlds = worlds_at(rep, len(rep.steps), record=True)
    counted = count_deals(rep, worlds, _Ending(rep, worlds))
    assert counted.total == worlds.count == len(agreed) > 0
    assert sum(ways for _, ways in counted.results) == len(agreed)      # (each deal counted by how its hand ends)
