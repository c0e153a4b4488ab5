"""Why a graded move lost: reasons in words, each resting on facts of the engine's own lines (issue 82).

A reason compares two principal variations with every hand open: the line after the move played and the line after
the best move (the search's best moves for both sides to the end of the hand, at each choice the first best one in
the order of ``legal_moves``). Both lines are played out here on copies of the position (:func:`walk_line`), and a
reason is said only where its fact holds in them: who goes out, whether the hand blocks and who wins the count, what
each play scores, who passes, which tiles are left. A fact of the record before the decision (an opponent's pass that
showed a void, the number a player laid) is named with the move that showed it and checked against the open hands.
A loss that no code explains gets the reason ``unexplained``: nothing is invented.

The codes form a closed set (:data:`CODES`), documented in docs/reasons.md. Each :class:`Reason` is a frozen value:
its ``code``, its :class:`Facts` (players, tiles, numbers, the two lines) and its ``sentence``.

This module reads positions and the rules' results only; the analysis (``analysis.analyze_replay``) calls it for each
graded move and the critical one, with the searches that valued them."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..codec import key
from ..position import mask_pips
from ..rules.facts import HandResult, hand_facts
from ..tiles import Move

__all__ = ["CODES", "EXPLAINING", "Facts", "Reason", "Walked", "LineStep", "Shown", "walk_line", "explain",
           "shown_facts", "mover_sign"]

# The closed set of codes, each with what it means (docs/reasons.md says what each rests on).
CODES: dict[str, str] = {
    "opponent-out": "an opponent goes out (dominoes) in the line played and not in the best line",
    "out-missed": "the mover's side goes out in the best line and not in the line played",
    "block-lost": "the line played ends in a block the mover's side loses on the count; the best line does not",
    "block-missed": "the best line ends in a block the mover's side wins on the count; the line played does not",
    "void-missed": "an opponent showed by a pass that he holds none of the numbers the best move leaves open: "
                   "he passes after it, and plays after the move played",
    "opens-opponent-number": "the move opens a number an opponent showed by laying it, and he plays on it at once; "
                             "after the best move he does not",
    "closes-partner-number": "the move covers the number the partner opened with his last tile, and he passes at "
                             "his next turn; after the best move he plays",
    "double-stranded": "a double the mover holds is left in his hand at the end of the line played; the best line "
                       "lays it",
    "points-missed": "the best move scores more at once during play (All Fives and the like) than the move played",
    "points-given": "the next opponent's reply scores more during play after the move played than after the best",
    "bonus-lost": "the best line earns the mover's side a bonus of the hand (capicú and the like) that the line "
                  "played does not",
    "count": "both lines end alike (the same side goes out, or wins), for other points, and no other code holds "
             "but a double stranded: how each ends and the pips left",
    "unexplained": "no code above holds in the lines: the loss is the engine's, the reason is not one of these",
}
# the codes that explain a loss (all but ``unexplained``)
EXPLAINING = frozenset(CODES) - {"unexplained"}


@dataclass(frozen=True)
class Facts:
    """What a reason rests on: the player it is about (``player``), the tiles and numbers it names, the record's
    move that showed it (``shown_at``, counted from 1: a pass, a tile laid; None: the lines alone show it), the
    hand's points for the mover in each line (``played_value``, ``best_value``: the analysis's values, signed for
    the mover), and the two lines themselves (each move as ``"Bob [1-3]@1"``, the move judged first)."""

    player: str | None = None
    tiles: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()
    shown_at: int | None = field(default=None, metadata=key(omit_none=True))
    played_value: int | None = None
    best_value: int | None = None
    played_line: tuple[str, ...] = ()
    best_line: tuple[str, ...] = ()

    def __post_init__(self):
        for name in ("tiles", "numbers", "played_line", "best_line"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))


@dataclass(frozen=True)
class Reason:
    """Why a move lost: a ``code`` of :data:`CODES`, the :class:`Facts` it rests on, and the ``sentence`` a reader
    sees."""

    code: str
    facts: Facts
    sentence: str

    def __post_init__(self):
        if self.code not in CODES:
            raise ValueError(f"no reason code {self.code!r}; the codes are {', '.join(CODES)}")


@dataclass(frozen=True)
class LineStep:
    """A move of a walked line: who made it (``seat``), the move, the open numbers before and after it, and what it
    scored during play (0 where the game scores nothing then)."""

    seat: int
    move: Move
    before: tuple[int, ...]
    after: tuple[int, ...]
    scored: int = 0


@dataclass(frozen=True)
class Walked:
    """A principal variation played out from a decision: its steps (the move judged first), how the hand ended
    (``termination`` ``"domino"`` or ``"blocked"``, and ``seat``: who went out, or laid the last tile; None where
    the line does not end the hand), the tiles left in each hand at its end (bit masks), the hand's result read as
    the replayer reads a recorded one (None: not ended), and the moves as text."""

    steps: tuple[LineStep, ...]
    termination: str | None
    seat: int | None
    hands: tuple[int, ...]
    result: HandResult | None
    text: tuple[str, ...]

    def first_turn(self, seat: int) -> LineStep | None:
        """The first step of ``seat`` after the move judged (None: he does not move again)."""
        return next((s for s in self.steps[1:] if s.seat == seat), None)


@dataclass(frozen=True)
class Shown:
    """A fact of the record before the decision: at its move ``index`` (counted from 0) ``seat`` passed with
    ``numbers`` open (``kind`` ``"pass"``), or laid a tile that left ``numbers`` open (``kind`` ``"laid"``, ``tile``
    the tile)."""

    index: int
    seat: int
    kind: str
    numbers: tuple[int, ...]
    tile: object | None = None


def walk_line(pos, move: Move, search, variant, leader: int, points: Sequence[int], players: Sequence[str],
              moves: list[Move] | None = None) -> Walked:
    """Play ``move`` at ``pos`` (left as it was), then the principal variation ``search`` gives after it
    (``search.best_line``; ``moves``: that line where the caller has it), recording every step: the open numbers,
    what each play scores (``points``: each seat's points scored during play before ``pos``), who ends the hand
    and how, and its result (``Variant.hand_result``, as the replayer reads a recorded hand)."""
    pos = pos.copy()
    play = variant.play
    scored = list(points)
    steps, text = [], []

    def push(m: Move) -> None:
        seat, before = pos.turn, tuple(pos.numbers_open())
        pos.push(m)
        got = 0
        if play is not None and m.is_play:
            got = play.points(play.ends_total(pos.line_ends(), pos.ends))
            scored[seat] += got
        steps.append(LineStep(seat, m, before, tuple(pos.numbers_open()), got))
        text.append(f"{players[seat]} {'no extra tile' if m.tile is None and m.arm == 0 else m}")

    push(move)
    if pos.outcome() is None:
        for m in (moves if moves is not None else search.best_line(pos)):
            push(m)
    end = pos.outcome()
    result = None
    if end is not None:
        facts = hand_facts(pos, end.termination, end.seat, leader, tuple(scored) if play is not None else None)
        result = variant.hand_result(facts)
    return Walked(tuple(steps), None if end is None else end.termination, None if end is None else end.seat,
                  tuple(pos.hands), result, tuple(text))


def shown_facts(positions: Sequence[tuple[int, object, Move]]) -> list[Shown]:
    """The facts the record showed before a decision: ``positions`` each move's record index, the position before it
    and the move; each pass (the open numbers then) and each tile laid (the numbers it left open)."""
    out = []
    for index, pos, move in positions:
        if pos is None or move is None:
            continue
        if move.is_pass:
            out.append(Shown(index, pos.turn, "pass", tuple(pos.numbers_open())))
        elif move.is_play:
            after = pos.copy()
            seat = after.turn
            after.push(move)
            out.append(Shown(index, seat, "laid", tuple(after.numbers_open()), move.tile))
    return out


def mover_sign(side: int) -> int:
    """+1 where the values are the mover's (side 0), -1 where he wants them lower."""
    return 1 if side == 0 else -1


def _has(hand: int, number: int, tiles) -> bool:
    return any(hand & t.bit and t.matches(number) for t in tiles)


def _doubles(hand: int, tiles) -> list:
    return [t for t in tiles if t.is_double and hand & t.bit]


def explain(decision, played: Walked, best: Walked, pos, shown: Sequence[Shown], players: Sequence[str],
            teams: Sequence[int]) -> tuple[Reason, ...]:
    """The reasons ``decision`` (a graded :class:`~analyzer.analysis.Decision`) lost, read off ``played`` and
    ``best`` (:func:`walk_line` after the move played and after the best move, from ``pos``, the position before
    it), with ``shown`` (:func:`shown_facts`: the record's passes and tiles laid before it); ``teams``: each seat's
    side (a game of individual players: one a seat). At least one reason: ``unexplained`` where no code holds."""
    me = pos.turn
    us = teams[me]
    sign = mover_sign(decision.side)
    pv = None if decision.played_value is None else sign * decision.played_value
    bv = None if decision.best_value is None else sign * decision.best_value
    base = Facts(played_value=pv, best_value=bv, played_line=played.text, best_line=best.text)
    values = f" ({_signed(bv)} instead of {_signed(pv)})" if pv is not None and bv is not None else ""
    name = players[me]
    best_move = best.steps[0].move
    tiles = pos.tiles
    out: list[Reason] = []

    def add(code: str, sentence: str, **facts) -> None:
        out.append(Reason(code, Facts(**{**base.__dict__, **facts}), sentence))

    def theirs(seat: int | None) -> bool:
        return seat is not None and teams[seat] != us

    def ours(seat: int | None) -> bool:
        return seat is not None and teams[seat] == us

    p_out = played.seat if played.termination == "domino" else None
    b_out = best.seat if best.termination == "domino" else None
    # who goes out
    if theirs(p_out) and not theirs(b_out):
        last = played.steps[-1].move.tile
        add("opponent-out", f"lets {players[p_out]} go out with {last}{_scoring(played, teams)}", player=players[p_out],
            tiles=(str(last),))
    if ours(b_out) and not ours(p_out):
        last = best.steps[-1].move.tile
        add("out-missed", f"after {best_move} {players[b_out]} goes out with {last}",
            player=players[b_out], tiles=(str(last),))
    # blocks
    p_won = _won(played, us)
    b_won = _won(best, us)
    if played.termination == "blocked" and p_won is False and not (best.termination == "blocked" and b_won is False):
        add("block-lost", f"leads to a block that {_side(teams, us, players, 'loses', 'lose')} on the count "
            f"(pips left: {_pips(played, players)})", numbers=played.steps[-1].after)
    if best.termination == "blocked" and b_won and not (played.termination == "blocked" and p_won):
        add("block-missed", f"misses the block after {best_move}, won on the count "
            f"(pips left: {_pips(best, players)})", numbers=best.steps[-1].after)
    # an opponent's void, shown by a pass
    for s in shown:
        if s.kind != "pass" or not theirs(s.seat) or any(_has(pos.hands[s.seat], n, tiles) for n in s.numbers):
            continue
        b_turn, p_turn = best.first_turn(s.seat), played.first_turn(s.seat)
        if b_turn is None or p_turn is None or not b_turn.move.is_pass or not p_turn.move.is_play:
            continue
        if not set(b_turn.before) <= set(s.numbers):
            continue
        who = players[s.seat]
        add("void-missed", f"{who} passed at move {s.index + 1} with {_numbers(s.numbers)} open and holds none: "
            f"after {best_move} {who} must pass; after {decision.played} {who} plays {p_turn.move}",
            player=who, numbers=s.numbers, shown_at=s.index + 1, tiles=(str(p_turn.move.tile),))
        break
    # a number opened for an opponent who showed it
    first = played.steps[0]
    opened = set(first.after) - set(first.before)
    reply = played.steps[1] if len(played.steps) > 1 else None
    if reply is not None and theirs(reply.seat) and reply.move.is_play and opened:
        for n in sorted(opened):
            if not reply.move.tile.matches(n) or n in reply.after and n not in reply.before:
                continue
            if n in set(best.steps[0].after) - set(best.steps[0].before):
                continue
            b_reply = best.steps[1] if len(best.steps) > 1 else None
            if b_reply is not None and b_reply.move.is_play and b_reply.move.tile.matches(n):
                continue
            laid = next((s for s in reversed(shown) if s.kind == "laid" and s.seat == reply.seat
                         and s.tile.matches(n)), None)
            if laid is None:
                continue
            add("opens-opponent-number", f"opens the {n} that {players[reply.seat]} showed with {laid.tile} at "
                f"move {laid.index + 1}; {players[reply.seat]} plays {reply.move.tile} on it at once",
                player=players[reply.seat], numbers=(n,), tiles=(str(reply.move.tile),), shown_at=laid.index + 1)
            break
    # the partner's number closed
    partners = [s for s in range(len(teams)) if s != me and teams[s] == us]
    closed = set(first.before) - set(first.after)
    for p in partners:
        laid = next((s for s in reversed(shown) if s.seat == p and s.kind == "laid"), None)
        if laid is None:
            continue
        ends = [n for n in closed if n in laid.numbers and laid.tile.matches(n)]
        p_turn, b_turn = played.first_turn(p), best.first_turn(p)
        if not ends or p_turn is None or b_turn is None or not p_turn.move.is_pass or not b_turn.move.is_play:
            continue
        n = ends[0]
        add("closes-partner-number", f"covers the {n} {players[p]} opened with {laid.tile} at move "
            f"{laid.index + 1}: {players[p]} must pass next; after {best_move} {players[p]} plays {b_turn.move}",
            player=players[p], numbers=(n,), tiles=(str(laid.tile),), shown_at=laid.index + 1)
    # a double left stranded
    left = [t for t in _doubles(played.hands[me], tiles) if not best.hands[me] & t.bit]
    if left and played.termination is not None and not ours(p_out):
        add("double-stranded", f"leaves {name} holding {', '.join(map(str, left))} at the end; the best line "
            f"lays {'them' if len(left) > 1 else 'it'}", player=name, tiles=tuple(map(str, left)))
    # points during play
    if best.steps[0].scored > first.scored:
        add("points-missed", f"scores {first.scored} where {best_move} scores {best.steps[0].scored}",
            player=name)
    if reply is not None and theirs(reply.seat):
        b_reply = best.steps[1] if len(best.steps) > 1 and best.steps[1].seat == reply.seat else None
        if b_reply is not None and reply.scored > b_reply.scored:
            add("points-given", f"gives {players[reply.seat]} {reply.scored} at once with {reply.move}; after "
                f"{best_move} his reply scores {b_reply.scored}", player=players[reply.seat],
                tiles=(str(reply.move.tile),))
    # the hand's bonuses
    lost = _bonuses(best, us) - _bonuses(played, us)
    if lost:
        names = ", ".join(f"{n} ({p})" for n, p in sorted(lost))
        add("bonus-lost", f"gives up {names}, which the best line earns")
    # the same end, other points
    if not [r for r in out if r.code != "double-stranded"] and pv != bv and _alike(played, best, teams):
        add("count", f"both lines end alike: {_end_words(played, players)} after the move played (pips left: "
            f"{_left(played, players)}), {_end_words(best, players)} after {best_move} (pips left: "
            f"{_left(best, players)}){values}", player=players[played.seat])
    if not out:
        add("unexplained", f"no reason the engine checks explains this loss{values}; the two lines are in its "
            f"facts (and in analyze --lines)")
    return tuple(out)


def _scoring(line: Walked, teams: Sequence[int]) -> str:
    """`` and score N``: the points the hand's winner scores in ``line`` (nothing where it has none)."""
    r = line.result
    return f" and score {r.points}" if r is not None and r.winner is not None and r.points else ""


def _alike(played: Walked, best: Walked, teams: Sequence[int]) -> bool:
    """Whether two lines end alike: the same side goes out in both, or the same side wins both (a block)."""
    if played.result is None or best.result is None:
        return False
    if played.termination == best.termination == "domino" and teams[played.seat] == teams[best.seat]:
        return True
    return played.result.winner is not None and played.result.winner == best.result.winner


def _won(line: Walked, us: int) -> bool | None:
    """Whether ``us`` won the hand of ``line`` (None: not ended, or drawn)."""
    if line.result is None or line.result.winner is None:
        return None
    return line.result.winner == us


def _bonuses(line: Walked, us: int) -> set:
    if line.result is None or line.result.winner != us:
        return set()
    return set(line.result.bonuses)


def _side(teams: Sequence[int], us: int, players: Sequence[str], one: str, more: str) -> str:
    """The players of side ``us`` and the verb that goes with them (``one``: for one player)."""
    names = [p for p, t in zip(players, teams) if t == us]
    return f"{' and '.join(names)} {one if len(names) == 1 else more}"


def _pips(line: Walked, players: Sequence[str]) -> str:
    return ", ".join(f"{p} {mask_pips(h)}" for p, h in zip(players, line.hands))


def _left(line: Walked, players: Sequence[str]) -> str:
    return ", ".join(f"{p} {mask_pips(h)}" for p, h in zip(players, line.hands) if h)


def _end_words(line: Walked, players: Sequence[str]) -> str:
    who = players[line.seat]
    return f"{who} goes out" if line.termination == "domino" else f"the hand blocks after {who}'s last tile"


def _numbers(numbers: Sequence[int]) -> str:
    return " and ".join(map(str, numbers))


def _signed(v: int | None) -> str:
    return "?" if v is None else f"{v:+d}"
