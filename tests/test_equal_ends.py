"""All Fives: a tile that fits two ends showing the same number, where a double lies crosswise at one of
them only, has two placements (issue 31, items 1 and 2).

003, Alle Fünfer: "Wann immer ein Spieler einen Stein an einem Ende legt, sodass die Punkte an beiden
Enden eine Summe ergeben, die ein Vielfaches von fünf ist, wird diese Zahl zu seinem Punktestand
hinzugefügt, wobei: Dubletten, quer gespielt, beide Hälften zählen lassen". With a [5-5] crosswise at one
end and a 5 at the other, a [3-5] covering the double leaves 3 + 5 = 8, one laid at the other end
5 + 5 + 3 = 13: two different moves, now and for every count after.

The check is a plain minimax written here from the rule text alone (it shares nothing with the
library's searches nor with ``Position``): every placement of a tile on either end is a move of its
own, the line's ends as they lie with whether a double lies at each. It must agree with every value of
both cores of the search (compiled and pure Python) at every decision of random small hands of All
Fives and of Fives and Threes, without drawing and with a boneyard drawn in a given order.
"""
from __future__ import annotations

import random

import pytest

from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.analysis import analyze_replay
from analyzer.position import mask_of
from analyzer.rules import find_variant
from analyzer.rules.mechanics import position_for
from analyzer.rules.policies import HandFacts
from analyzer.search import TreeSearch
from analyzer.search.core import draw_core
from analyzer.search.tree import revealed
from analyzer.tiles import Move, Tile, tile_set
from conftest import RECORDS

built = pytest.mark.skipif(draw_core() is None,
                           reason="the compiled search of draw games was not built (no C compiler)")


class Minimax:
    """All Fives (and Threes) by the rule text, every placement a move.

    State: the hands (frozensets of (low, high)), the line's ends as they lie ``(left, right)`` with
    whether a double lies crosswise at each, whether the lead lies alone, the seat to move, the tiles
    he drew this turn, the draws taken from ``order``, the passes in a row, the seat that laid the last
    tile and the last play (tile, ends before it). A player who cannot play draws (``until``: till he
    can; ``one``: one tile, then passes if it does not fit) while the boneyard has tiles; the hand is
    over when a player is out, or when nothing more may be drawn and nobody can play."""

    def __init__(self, rules, threes: bool, leader: int, order=(), rule: str = "one") -> None:
        self.rules = rules
        self.teams = rules.seating.teams
        self.threes = threes
        self.leader = leader
        self.order = tuple((t.low, t.high) for t in order)
        self.until = rule == "until"
        self.memo: dict = {}

    def count(self, total: int) -> int:
        if total > 0 and (total % 5 == 0 or (self.threes and total % 3 == 0)):
            return total
        return 0

    def placements(self, state):
        """``(tile, side)``: the tile laid on the left (0) or right (1) end, both when both fit."""
        hands, line, turn = state[0], state[1], state[2]
        left, right = line[0], line[1]
        return [(t, side) for t in sorted(hands[turn]) for side, number in ((0, left), (1, right)) if number in t]

    def lay(self, state, tile, side):
        """The state after laying ``tile`` on ``side``, and the points it scores for its player."""
        hands, (left, right, ldbl, rdbl, _lone), turn, _drawn, k, _passes, _last, _play = state
        double = tile[0] == tile[1]
        number = left if side == 0 else right
        other = tile[1] if tile[0] == number else tile[0]
        line = (other, right, double, rdbl, False) if side == 0 else (left, other, ldbl, double, False)
        total = line[0] + line[1] + (line[0] if line[2] else 0) + (line[1] if line[3] else 0)
        hands = tuple(h - {tile} if s == turn else h for s, h in enumerate(hands))
        n = len(hands)
        return (hands, line, (turn + 1) % n, 0, k, 0, turn, (tile, (left, right))), self.count(total)

    def lead(self, hands, tile):
        """The state after ``self.leader`` leads ``tile``, and what the lone tile scores."""
        hands = tuple(h - {tile} if s == self.leader else h for s, h in enumerate(hands))
        double = tile[0] == tile[1]
        line = (tile[0], tile[1], double, double, True)
        return (hands, line, (self.leader + 1) % len(hands), 0, 0, 0, self.leader, (tile, None)), \
            self.count(tile[0] + tile[1])

    def leaf(self, state, termination: str, seat: int) -> int:
        hands, _line, _turn, _drawn, _k, _passes, _last, (tile, before) = state
        facts = HandFacts(termination, seat, tuple(sum(a + b for a, b in h) for h in hands),
                          tuple(len(h) for h in hands), self.leader,
                          hands=tuple(mask_of(Tile(*t) for t in h) for h in hands),
                          last_tile=Tile(*tile), ends_before=before)
        return self.rules.value(facts)

    def value(self, state) -> int:
        """Side 0's points still to come, the hand's value included, best play from ``state``."""
        known = self.memo.get(state)
        if known is not None:
            return known
        hands, line, turn, drawn, k, passes, last, play = state
        n = len(hands)
        fits = lambda t: line[0] in t or line[1] in t      # noqa: E731
        if k >= len(self.order) and ((passes >= n and not drawn) or not any(fits(t) for h in hands for t in h)):
            result = self.leaf(state, "blocked", last)
        elif any(fits(t) for t in hands[turn]):
            values = [self.after(state, tile, side) for tile, side in self.placements(state)]
            result = max(values) if self.teams[turn] == 0 else min(values)
        elif k < len(self.order) and (self.until or not drawn):
            hands = tuple(h | {self.order[k]} if s == turn else h for s, h in enumerate(hands))
            result = self.value((hands, line, turn, drawn + 1, k + 1, passes, last, play))
        else:
            result = self.value((hands, line, (turn + 1) % n, 0, k, passes + 1, last, play))
        self.memo[state] = result
        return result

    def after(self, state, tile, side) -> int:
        """The value of laying ``tile`` on ``side``: its points, then the rest of the hand."""
        child, points = self.lay(state, tile, side)
        mover = state[2]
        points = points if self.teams[mover] == 0 else -points
        if not child[0][mover]:
            return points + self.leaf(child, "domino", mover)
        return points + self.value(child)


def deal(rng, n: int, size: int, yard: int):
    """``n`` hands of ``size`` tiles, each with a double (crosswise doubles are what this is about), the
    first also holding the [5-5] or [3-3] it leads; ``yard`` tiles more in a random order."""
    tiles = list(tile_set(6))
    rng.shuffle(tiles)
    lead = rng.choice([Tile(5, 5), Tile(3, 3), Tile(4, 4), Tile(2, 2)])
    tiles.remove(lead)
    doubles = [t for t in tiles if t.is_double]
    rest = [t for t in tiles if not t.is_double]
    hands = [[lead]] + [[] for _ in range(n - 1)]
    for h in hands:
        h.append(doubles.pop())
    pool = doubles + rest
    rng.shuffle(pool)
    for h in hands:
        while len(h) < size:
            h.append(pool.pop())
    return hands, lead, pool[:yard]


def check_hand(variant, threes: bool, rng, n: int, size: int, yard: int, rule: str, cores) -> int:
    """Play a random hand; at every decision every core's values equal the reference's; the decisions
    checked."""
    hands, lead, order = deal(rng, n, size, yard)
    pos = position_for(variant, hands, 0, max_pip=6)
    pos.pool = mask_of(order)
    if pos.draws:
        pos.stock, pos.keep = len(order), 0
        pos = revealed(pos, order)
    ref = Minimax(variant, threes, 0, order, rule)
    state, _ = ref.lead(tuple(frozenset((t.low, t.high) for t in h) for h in hands), (lead.low, lead.high))
    pos.push(Move(lead, None))
    searches = [TreeSearch(variant, core=core) for core in cores]
    checked = 0
    while True:
        # the forced draws and passes, in the position and in the reference alike
        while pos.outcome() is None and not pos.plays():
            pos.push(pos.legal_moves()[0])
        if pos.outcome() is not None:
            break
        state = forced(ref, state)
        assert state[2] == pos.turn and state[1][:2] == pos.ends
        expected = {}
        for tile, side in ref.placements(state):
            move = pos.canonical(Move(Tile(*tile), state[1][side], arm=side + 1))
            value = ref.after(state, tile, side)
            assert expected.setdefault(move, value) == value, (
                f"{move} stands for two placements of different value at {pos}")
        for search in searches:
            got = dict(search.values(pos))
            assert got == expected, (pos, search.draw_core)
        checked += 1
        tile, side = rng.choice(ref.placements(state))
        move = pos.canonical(Move(Tile(*tile), state[1][side], arm=side + 1))
        if move.arm is None and state[1][0] == state[1][1]:
            side = 0            # one move (the two are alike, as checked): the position lays it on the left
        pos.push(move)
        state, _ = ref.lay(state, tile, side)
        assert state[1][:2] == pos.ends
    return checked


def forced(ref: Minimax, state):
    """The reference's state at the next choice (its forced draws and passes taken)."""
    while True:
        hands, line, turn, drawn, k, passes, last, play = state
        if any(line[0] in t or line[1] in t for t in hands[turn]):
            return state
        if k < len(ref.order) and (ref.until or not drawn):
            hands = tuple(h | {ref.order[k]} if s == turn else h for s, h in enumerate(hands))
            state = (hands, line, turn, drawn + 1, k + 1, passes, last, play)
        else:
            state = (hands, line, (turn + 1) % len(hands), 0, k, passes + 1, last, play)


CASES = [  # (variant, options, threes, tiles a seat, boneyard, draw rule)
    ("all-fives", {"draw": "no", "lead": "any"}, False, 6, 0, "no"),
    ("all-fives-threes", {"draw": "no", "lead": "any"}, True, 6, 0, "no"),
    ("all-fives", {"draw": "one", "lead": "any"}, False, 4, 5, "one"),
    ("all-fives-threes", {"draw": "until", "lead": "any"}, True, 4, 5, "until"),
]


def _cores():
    return ["python"] + (["compiled"] if draw_core() is not None else [])


@pytest.mark.parametrize("name,options,threes,size,yard,rule", CASES, ids=lambda c: str(c))
def test_every_placement_valued_as_the_rule_counts(name, options, threes, size, yard, rule):
    variant = find_variant(name, {"players": "2", **options})
    rng = random.Random(31)
    checked = sum(check_hand(variant, threes, rng, 2, size, yard, rule, _cores()) for _ in range(60))
    assert checked > 200


@pytest.mark.slow
@pytest.mark.parametrize("name,options,threes,size,yard,rule", CASES, ids=lambda c: str(c))
def test_every_placement_valued_as_the_rule_counts_many(name, options, threes, size, yard, rule):
    variant = find_variant(name, {"players": "2", **options})
    rng = random.Random(3131)
    assert sum(check_hand(variant, threes, rng, 2, size, yard, rule, _cores()) for _ in range(600)) > 1800


ISSUE_EXAMPLE = """[Variant "all-fives"]
[Rules "draw=no"]
[Players "A, B"]
[Lead "A"]
[Result "*"]

A: [2-4] [2-6] [3-5] [3-6] [5-5] [5-6]
B: [0-1] [0-3] [1-2] [1-4] [2-5] [3-4]

1. A [5-5] +10 B [2-5]@5
2. A [2-6]@2 B pass
3. A [5-6]@6 +15 B pass
4. A [3-5]@5>2
"""


def _side(move: Move, line) -> int:
    """The side (0 left, 1 right) ``move`` lies on, its ends before ``line`` (as the position lays it)."""
    if move.end == line[0] and (line[0] != line[1] or move.arm != 2):
        return 0
    return 1


def decisions_against_reference(text: str, name: str):
    """Every decision of the record's analysis against the plain minimax: the same moves, the same
    values (each counting the points scored before it); the decisions."""
    (rep,) = replay_record(parse(text, name))
    analysis = analyze_replay(rep)
    variant = rep.variant
    first = rep.steps[0]
    ref = Minimax(variant, variant.play.threes, first.seat)
    hands = tuple(frozenset((t.low, t.high) for t in tile_set(6) if hand & t.bit) for hand in rep.initial.hands)
    state, points = ref.lead(hands, (first.move.tile.low, first.move.tile.high))
    scored = points if ref.teams[first.seat] == 0 else -points
    decisions = {d.index: d for d in analysis.decisions}
    for step in rep.steps[1:]:
        if step.move.is_pass:
            continue
        state = forced(ref, state)
        pos = rep.position_at(step.index)
        decision = decisions.get(step.index)
        if decision is not None:
            expected = {}
            for tile, side in ref.placements(state):
                move = pos.canonical(Move(Tile(*tile), state[1][side], arm=side + 1))
                expected[str(move)] = scored + ref.after(state, tile, side)
            assert {a.move: a.value for a in decision.alternatives} == expected, decision
        move = step.move
        state, points = ref.lay(state, (move.tile.low, move.tile.high), _side(move, state[1]))
        scored += points if ref.teams[step.seat] == 0 else -points
    return analysis.decisions


def test_issue_example_values_each_placement():
    """The issue's example: after A's [5-6] both ends show a 5 with the [5-5] crosswise at one of them.
    A's [5-6] is worth +15 (the plain minimax's value), and his [3-5] has two placements."""
    decisions = decisions_against_reference(ISSUE_EXAMPLE, "issue.dom")
    five = next(d for d in decisions if d.index == 4)          # the fifth move: A [5-6]@6 +15
    assert five.played == "[5-6]@6" and five.played_value == 15
    last = decisions[-1]
    assert sorted(a.move for a in last.alternatives) == ["[3-5]@5>1", "[3-5]@5>2"]


def test_bundled_record_values_each_placement():
    decisions_against_reference((RECORDS / "variant-all-fives-equal-ends.dom").read_text(),
                                "variant-all-fives-equal-ends.dom")


def test_claim_says_which_equal_end():
    """Item 2: A's [0-5] +10 names no end; of the two ends showing 5, only the one without the double
    counts ten (5 + 5 + 0; on the double it counts 0 + 5): the claim places it, as the rest of a record
    places a tile that fits two ends."""
    text = (RECORDS / "variant-all-fives-equal-ends.dom").read_text()
    (rep,) = replay_record(parse(text, "r.dom"))
    assert rep.valid, rep.diagnostics
    step = next(s for s in rep.steps if s.entry.tile == Tile(0, 5))
    assert step.move.arm == 2 and step.scored == 10
    assert not any(d.code == "ambiguous-end" for d in step.diagnostics)
    # claimed five, it lies on the double's end, and that claim is right
    (rep,) = replay_record(parse(text.replace("A [0-5]@5 +10", "A [0-5]@5 +5"), "r.dom"))
    step = next(s for s in rep.steps if s.entry.tile == Tile(0, 5))
    assert step.move.arm == 1 and step.scored == 5
    assert not any(d.code == "wrong-score" for d in step.diagnostics)
