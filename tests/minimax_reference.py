"""A plain minimax for the block game, written apart from the solver to check it.

It shares nothing with ``analyzer.search.block`` and does not use ``Position``: the state is a tuple of
hands (each a sorted tuple of ``(low, high)`` pairs), the two open numbers as they lie left and
right, the seat to move, the run of passes, the seat that played last and the leader. The value
of a finished hand comes from ``variant.value`` (told the tiles left, the last tile and the open
numbers before it); side 0 maximises, every other side minimises.
Only memoisation (a dict of solved states) keeps it usable: no pruning, no ordering, no bounds.

Pass bonuses (000: "Einige geben dem Team, von dem ein Spieler einen Stein gespielt hat, der den
nächsten Spieler zwingt zu passen, einen Bonus von 20 Punkten. Beim weiteren Fortgang des Spiels
bekommt der Spieler, der den folgenden Spieler zum Passen zwingt, 10 Punkte. Man beachte: Wenn
zweimal hintereinander gepasst wird, bekommt nur der erste Spieler die Punkte. Wenn aber dreimal
hintereinander gepasst wird, wie in einem gesperrten Spiel, dann bekommt der Spieler, der den
letzten Stein gespielt hat, 20 Punkte – 10 für jeden Gegenspieler, der gepasst hat") are paid here
pass by pass, apart from ``PointScoring.pass_bonuses``: the first pass after a play pays its side
20 (10 once a bonus was paid), the pass that completes a round of passes tops that up to 10 for each
opponent, and a play after which nobody can play is paid like that round at once.

Points scored during play (All Fives: "whenever a player lays a tile so that the pips at both ends
add up to a multiple of five, that number is added to his score") are counted here from the rule
text, apart from ``PlayScoring``: the open ends' outer halves, a double lying crosswise at an end
counting both halves, a lone lead tile its pips; where both ends show the same number and a double
lies at one of them only, laying a tile on either is a move of its own.

``DrawReference`` is the same plain minimax for draw games, over the draw game's position
(``analyzer.rules.turns.DrawPosition``, whose moves ``tests/test_judge.py`` proves equal to the
judge's) with the boneyard in a given order; it shares nothing with ``analyzer.search``.
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
        play = getattr(variant, "play", None)
        self.fives = play is not None
        self.threes = play is not None and play.threes
        assert play is None or not play.pub, "the pub count is not modelled here"
        self.outer: dict = {}            # state -> (lone lead tile or None, is the left end a double, the right)
        scoring = variant.scoring
        self.pays_passes = bool(getattr(scoring, "pass_bonus", False)) and getattr(scoring, "count", "") != "bad"

    #: ``line``: what a state does not hold of the way to it: the line's outer tiles (All Fives: the
    #: lone lead tile or None, whether the left and the right end is a double), whether a pass bonus
    #: was paid in the hand and what the last play has been paid so far
    START_LINE = (None, False, False, False, 0)

    # state: (hands, ends, turn, passes, last, leader); ends is None or (left, right)
    def moves(self, state, line=START_LINE) -> list[tuple]:
        """``(tile, end, side)``: ``end`` is the number it goes on (None: the lead), ``side`` 2 when it goes
        on the right of two ends that show the same number (1 the left), else None; ``(None, None, None)``:
        pass. Two ends with the same number are two moves in All Fives when a double lies at one of them
        only (003: "Dubletten, quer gespielt, beide Hälften zählen lassen": the counts differ), else one."""
        hands, ends, turn, _passes, _last, _leader = state
        out = []
        for tile in hands[turn]:
            if ends is None:
                if self.opening is None or tile == self.opening:
                    out.append((tile, None, None))
                continue
            left, right = ends
            if left in tile and right == left and self.fives and line[0] is None and line[1] != line[2]:
                out += [(tile, left, 1), (tile, left, 2)]
                continue
            if left in tile:
                out.append((tile, left, None))
            if right != left and right in tile:
                out.append((tile, right, None))
        return out or [(None, None, None)]

    def play(self, state, move):
        """The state after ``move``, and the finished hand's value (None while it goes on)."""
        hands, ends, turn, passes, last, leader = state
        tile, end, side = move
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
            ends = (other, right) if end == left and side != 2 else (left, other)
        state = (hands, ends, (turn + 1) % n, 0, turn, leader)
        last = (tile, before)
        if not hand:
            return state, self.score("domino", turn, hands, leader, last)
        if not any(ends[0] in t or ends[1] in t for h in hands for t in h):
            return state, self.score("blocked", turn, hands, leader, last)
        return state, None

    def passes_paid(self, state, move, line) -> tuple[int, tuple]:
        """The pass bonus ``move`` pays at once, for side 0, and ``line`` after it."""
        if not self.pays_passes:
            return 0, line
        hands, ends, turn, passes, last, _leader = state
        paid, this = line[3], line[4]
        tile = move[0]
        n = self.n
        if tile is not None:
            # a play after which nobody can play (the hand is blocked) is paid as a round of passes
            rest = list(hands[turn])
            rest.remove(tile)
            after, _ = self.play(state, move)
            blocked = rest and not any(after[1][0] in t or after[1][1] in t for h in after[0] for t in h)
            award = 10 * self.opponents(turn) if blocked else 0
            line = line[:3] + (paid or award > 0, award)
        elif last is None:          # (no play yet)
            return 0, line
        else:
            award = 0
            if passes == 0:
                award = 10 if paid else 20
            if passes + 1 == n - 1:     # every other player has passed: 10 for each opponent in all
                award = 10 * self.opponents(last) - this
            line = line[:3] + (paid or award > 0, this + award)
            turn = last
        return (award if self.variant.seating.teams[turn] == 0 else -award), line

    def opponents(self, seat: int) -> int:
        teams = self.variant.seating.teams
        return sum(1 for t in teams if t != teams[seat])

    def score(self, termination, seat, hands, leader, last=None) -> int:
        pips = tuple(sum(a + b for a, b in h) for h in hands)
        counts = tuple(len(h) for h in hands)
        masks = tuple(sum(Tile(*t).bit for t in h) for h in hands)
        tile, before = last if last is not None else (None, None)
        facts = HandFacts(termination, seat, pips, counts, leader, hands=masks,
                          last_tile=Tile(*tile) if tile is not None else None, ends_before=before)
        return self.variant.value(facts)

    def gain(self, state, move, line) -> tuple[int, tuple]:
        """The points ``move`` scores at once for side 0 (All Fives) and the line's outer tiles after
        it; ``line``: (the lone lead tile or None, left end a double, right end a double)."""
        tile, end, side = move
        if tile is None or not self.fives:
            return 0, line
        ends, turn = state[1], state[2]
        double = tile[0] == tile[1]
        if ends is None:
            line, total = (tile, double, double) + line[3:], sum(tile)
        else:
            left, right = ends
            lone, ldbl, rdbl = line[:3]
            on_left = end == left and side != 2
            line = (None, double if on_left else ldbl, rdbl if on_left else double) + line[3:]
            other = tile[1] if tile[0] == end else tile[0]
            nl, nr = (other, right) if on_left else (left, other)
            total = nl + nr + (nl if line[1] else 0) + (nr if line[2] else 0)
        if not (total % 5 == 0 or (self.threes and total % 3 == 0)):
            return 0, line
        return (total if self.variant.seating.teams[turn] == 0 else -total), line

    def value(self, state, line=START_LINE) -> int:
        """The minimax value of a state (for side 0): the points still to be scored in play and the
        hand's value."""
        key = (state, line)
        known = self.memo.get(key)
        if known is not None:
            return known
        maximise = self.variant.seating.teams[state[2]] == 0
        best = None
        for move in self.moves(state, line):
            v = self._after(state, move, line)
            if best is None or (v > best if maximise else v < best):
                best = v
        self.memo[key] = best
        return best

    def _after(self, state, move, line) -> int:
        points, after = self.gain(state, move, line)
        bonus, after = self.passes_paid(state, move, after)
        child, done = self.play(state, move)
        return points + bonus + (done if done is not None else self.value(child, after))

    def alternatives(self, state, line=START_LINE) -> dict[Move, int]:
        """The value of every move of the player to move, keyed like the analyser's moves."""
        return {as_move(move): self._after(state, move, line) for move in self.moves(state, line)}

    def replay(self, moves) -> tuple[tuple, tuple, int]:
        """The state after ``moves`` (the analyser's moves) from the start, the line's outer tiles and
        the points side 0 scored in play (and in pass bonuses) on the way."""
        state, line, points = self.start, self.START_LINE, 0
        for move in moves:
            gain, line = self.gain(state, from_move(move), line)
            bonus, line = self.passes_paid(state, from_move(move), line)
            points += gain + bonus
            state, done = self.play(state, from_move(move))
            assert done is None
        return state, line, points


def as_move(move) -> Move:
    tile, end, side = move
    if side is not None:
        return Move(Tile(*tile), end, arm=side)
    if tile is None:
        return Move()
    return Move(Tile(*tile), end)


def from_move(move: Move):
    if move.tile is None:
        return (None, None, None)
    return ((move.tile.low, move.tile.high), move.end, move.arm if move.arm in (1, 2) else None)


class DrawReference:
    """A plain minimax for draw games: the position's rules, the boneyard drawn in ``order`` (the
    k-th draw of the hand takes ``order[k]``), the opener's right to add a tile to his lead (or not),
    points in play as ``Reference.gain`` counts them, the hand's value from ``variant.value`` (or
    ``AgainstTheRest``) told the finished position's facts. No memo, no pruning: small deals only."""

    def __init__(self, rules, order) -> None:
        self.rules = rules
        self.order = tuple(order)
        self.teams = rules.seating.teams
        play = getattr(rules, "play", None)
        self.fives, self.threes = play is not None, play is not None and play.threes

    def value(self, pos, offer: bool = False) -> int:
        """The value (for side 0) of ``pos`` with the player to move; ``offer``: he is the opener
        who may add a tile to his lead or decline."""
        from analyzer.replay import hand_facts

        outcome = pos.outcome()
        if outcome is not None:
            leader = next(seat for move, seat, *_ in pos.history if move.tile is not None)
            return self.rules.value(hand_facts(pos, outcome.termination, outcome.seat, leader))
        values = self.alternatives(pos, offer).values()
        return max(values) if self.teams[pos.turn] == 0 else min(values)

    def alternatives(self, pos, offer: bool = False) -> dict:
        """Every move of the player to move (``None``: the opener adds no tile) and its value."""
        seat = pos.turn
        if offer:
            moves = pos.plays() + [None]
        else:
            moves = pos.legal_moves()
            if moves and moves[0].draw:
                moves = [Move(self.order[len(self.order) - pos.stock], None, True)]
        out = {}
        for move in moves:
            if move is None:                      # he declines: the turn goes on
                bonus, pos.bonus, pos.turn = pos.bonus, -1, (seat + 1) % pos.n
                out[None] = self.value(pos)
                pos.bonus, pos.turn = bonus, seat
                continue
            lead = pos.ends is None and move.is_play
            pos.push(move)
            points = self._points(pos) if move.is_play else 0
            again = lead and pos.bonus == seat and pos.may_add(seat)
            if again:
                pos.turn = seat
            out[move] = (points if self.teams[seat] == 0 else -points) + self.value(pos, again)
            pos.pop()
            pos.turn = seat
        return out

    def _points(self, pos) -> int:
        """What the play just made scores (All Fives), counted from the line as it lies."""
        if not self.fives:
            return 0
        line = pos.line()
        if len(line) == 1:
            total = line[0][0].pips
        else:
            left, right = pos.ends
            total = left + right + (left if line[0][0].is_double else 0) + (right if line[-1][0].is_double else 0)
        return total if total % 5 == 0 or (self.threes and total % 3 == 0) else 0
