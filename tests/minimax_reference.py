"""A plain minimax for the block game, written apart from the solver to check it.

It shares nothing with ``analyzer.search.block`` and does not use ``Position``: the state is a tuple of
hands (each a sorted tuple of ``(low, high)`` pairs), the two open numbers as they lie left and
right, the seat to move, the run of passes, the seat that played last and the leader. The value
of a finished hand comes from ``variant.value`` (told the tiles left, the last tile and the open
numbers before it); side 0 maximises, every other side minimises.
Only memoisation (a dict of solved states) keeps it usable: no pruning, no ordering, no bounds.
"""
from __future__ import annotations

from analyzer.rules.policies import HandFacts
from analyzer.tiles import Move, Tile


class Reference:
    def __init__(self, variant, hands, leader: int, opening: tuple[int, int] | None = None) -> None:
        self.variant = variant
        self.n = len(hands)
        self.opening = opening
        self.start = (tuple(tuple(sorted((min(a, b), max(a, b)) for a, b in h)) for h in hands),
                      None, leader, 0, None, None)
        self.memo: dict = {}

    # state: (hands, ends, turn, passes, last, leader); ends is None or (left, right)
    def moves(self, state) -> list[tuple[tuple[int, int] | None, int | None]]:
        """``(tile, end)`` pairs; ``end`` is the number it goes on (None: the lead); ``(None, None)``: pass."""
        hands, ends, turn, _passes, _last, _leader = state
        out = []
        for tile in hands[turn]:
            if ends is None:
                if self.opening is None or tile == self.opening:
                    out.append((tile, None))
                continue
            left, right = ends
            if left in tile:
                out.append((tile, left))
            if right != left and right in tile:
                out.append((tile, right))
        return out or [(None, None)]

    def play(self, state, move):
        """The state after ``move``, and the finished hand's value (None while it goes on)."""
        hands, ends, turn, passes, last, leader = state
        tile, end = move
        n = self.n
        if tile is None:
            passes += 1
            state = (hands, ends, (turn + 1) % n, passes, last, leader)
            if passes >= n:
                return state, self.score("blocked", last if last is not None else turn, hands, leader)
            return state, None
        hand = list(hands[turn])
        hand.remove(tile)
        hands = hands[:turn] + (tuple(hand),) + hands[turn + 1:]
        before = ends
        if ends is None:
            ends = tile
            leader = turn
        else:
            left, right = ends
            other = tile[1] if tile[0] == end else tile[0]
            ends = (other, right) if end == left else (left, other)
        state = (hands, ends, (turn + 1) % n, 0, turn, leader)
        last = (tile, before)
        if not hand:
            return state, self.score("domino", turn, hands, leader, last)
        if not any(ends[0] in t or ends[1] in t for h in hands for t in h):
            return state, self.score("blocked", turn, hands, leader, last)
        return state, None

    def score(self, termination, seat, hands, leader, last=None) -> int:
        pips = tuple(sum(a + b for a, b in h) for h in hands)
        counts = tuple(len(h) for h in hands)
        masks = tuple(sum(Tile(*t).bit for t in h) for h in hands)
        tile, before = last if last is not None else (None, None)
        facts = HandFacts(termination, seat, pips, counts, leader, hands=masks,
                          last_tile=Tile(*tile) if tile is not None else None, ends_before=before)
        return self.variant.value(facts)

    def value(self, state) -> int:
        """The minimax value of a state (for side 0)."""
        known = self.memo.get(state)
        if known is not None:
            return known
        maximise = self.variant.seating.teams[state[2]] == 0
        best = None
        for move in self.moves(state):
            child, done = self.play(state, move)
            v = done if done is not None else self.value(child)
            if best is None or (v > best if maximise else v < best):
                best = v
        self.memo[state] = best
        return best

    def alternatives(self, state) -> dict[Move, int]:
        """The value of every move of the player to move, keyed like the analyser's moves."""
        out = {}
        for move in self.moves(state):
            child, done = self.play(state, move)
            out[as_move(move)] = done if done is not None else self.value(child)
        return out


def as_move(move) -> Move:
    tile, end = move
    if tile is None:
        return Move()
    return Move(Tile(*tile), end)


def from_move(move: Move):
    if move.tile is None:
        return (None, None)
    return ((move.tile.low, move.tile.high), move.end)
