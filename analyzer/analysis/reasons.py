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

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..codec import key
from ..i18n import N_, gettext, ngettext, ngettext_mark, number
from ..position import mask_pips
from ..rules.facts import HandResult, hand_facts
from ..rules.modes import Termination
from ..tiles import Move

__all__ = ["CODES", "EXPLAINING", "Facts", "Over", "Reason", "over_deals", "Walked", "LineStep", "Shown", "walk_line",
           "explain",
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
    "lead": "the lead (the hand's first tile): the best lead is from a longer suit of the mover's, or a double where "
            "the lead played is none, or leaves him more tiles that fit at his next turn, or his partner follows it "
            "where he passes after the lead played",
    "double-stranded": "a double the mover holds is left in his hand at the end of the line played; the best line "
                       "lays it",
    "points-missed": "the best move scores more at once during play (All Fives and the like) than the move played",
    "points-given": "the next opponent's reply scores more during play after the move played than after the best",
    "bonus-lost": "the best line earns the mover's side a bonus of the hand (capicú and the like) that the line "
                  "played does not",
    "tiles-kept": "where the lines end alike but for the pips left (count, pips-left), the mover's side is left "
                  "holding tiles after the move played that it lays in the best line, more pips in all",
    "opponents-unload": "where the lines end alike but for the pips left (count, pips-left) and the mover's side wins "
                        "the hand played, the others lay tiles in the line played that they are left holding in the "
                        "best line",
    "count": "both lines end alike (the same side goes out, or wins), for other points, and no other code holds "
             "but the lead, a double stranded and the tiles that make the pips differ: how each ends and the pips left",
    "pips-left": "no other code holds but the lead, a double stranded and the tiles that make the pips differ, and "
                 "the lines end otherwise: at the end of the line played the mover's side holds more pips, or the "
                 "others fewer, than at the end of the best",
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
class Over:
    """Where a reason holds over deals rather than in the one deal played (:func:`over_deals`): in ``holds`` of the
    ``deals`` read, each read as the open-hands reasons read the deal played (its two lines, checked against the
    values there); ``total``: the deals there are in all, of which those read are every one or, ``drawn``, a uniform
    sample; ``kind``: ``"fair"``, the deals the mover could not rule out (the fair verdict), or ``"sheet"``, the
    deals a sheet without hands allows; ``players``, ``counts``: each player the reason is about and in how many of
    the deals, most first; ``loses``: in how many of the deals read the move played loses at all; ``estimated``:
    ``total`` is an estimate (a sheet whose deals are too many to count: ``inference.sheet.SheetDeals.exact``)."""

    holds: int
    deals: int
    total: int
    drawn: bool
    kind: str
    players: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()
    loses: int = 0
    estimated: bool = False

    def __post_init__(self):
        for name in ("players", "counts"):
            if isinstance(getattr(self, name), list):
                object.__setattr__(self, name, tuple(getattr(self, name)))


@dataclass(frozen=True)
class Reason:
    """Why a move lost: a ``code`` of :data:`CODES`, the :class:`Facts` it rests on, and the ``sentence`` a reader
    sees; ``over``: where it holds over deals (:class:`Over`: in k of n), None where it is read off the deal played."""

    code: str
    facts: Facts
    sentence: str
    over: Over | None = field(default=None, metadata=key(omit_none=True))

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


@dataclass(frozen=True)
class _Case:
    """A graded decision and the two lines to read its reasons off (see :func:`explain`)."""

    decision: object
    played: Walked
    best: Walked
    pos: object
    shown: Sequence[Shown]
    players: Sequence[str]
    teams: Sequence[int]

    @property
    def me(self) -> int:
        return self.pos.turn

    @property
    def us(self) -> int:
        return self.teams[self.me]

    def theirs(self, seat: int | None) -> bool:
        return seat is not None and self.teams[seat] != self.us

    def ours(self, seat: int | None) -> bool:
        return seat is not None and self.teams[seat] == self.us

    @property
    def best_move(self) -> Move:
        return self.best.steps[0].move

    def reply(self, line: Walked) -> LineStep | None:
        """The move after the one judged in ``line`` (None: the hand ended with it)."""
        return line.steps[1] if len(line.steps) > 1 else None


def _out(line: Walked) -> int | None:
    """The seat that goes out in ``line`` (None: nobody does)."""
    return line.seat if line.termination == Termination.DOMINO else None


def _outs(c: _Case):
    p_out, b_out = _out(c.played), _out(c.best)
    if c.theirs(p_out) and not c.theirs(b_out):
        last = c.played.steps[-1].move.tile
        yield "opponent-out", _scoring(c.played, c.players[p_out], last), \
            dict(player=c.players[p_out], tiles=(str(last),))
    if c.ours(b_out) and not c.ours(p_out):
        last = c.best.steps[-1].move.tile
        yield "out-missed", gettext("after {best} {player} goes out with {tile}", best=c.best_move,
                                    player=c.players[b_out], tile=last), \
            dict(player=c.players[b_out], tiles=(str(last),))


def _blocks(c: _Case):
    p_won, b_won = _won(c.played, c.us), _won(c.best, c.us)
    p_block, b_block = c.played.termination == Termination.BLOCKED, c.best.termination == Termination.BLOCKED
    if p_block and p_won is False and not (b_block and b_won is False):
        side, n = _side(c.teams, c.us, c.players)
        yield "block-lost", ngettext("leads to a block that {side} loses on the count (pips left: {pips})",
                                     "leads to a block that {side} lose on the count (pips left: {pips})", n,
                                     side=side, pips=_pips(c.played, c.players)), dict(numbers=c.played.steps[-1].after)
    if b_block and b_won and not (p_block and p_won):
        yield "block-missed", gettext("misses the block after {best}, won on the count (pips left: {pips})",
                                      best=c.best_move, pips=_pips(c.best, c.players)), dict(numbers=c.best.steps[-1].after)


def _void(c: _Case):
    """An opponent's void, shown by his pass in the record and still true in the open hands."""
    for s in c.shown:
        if s.kind != "pass" or not c.theirs(s.seat) or any(_has(c.pos.hands[s.seat], n, c.pos.tiles)
                                                            for n in s.numbers):
            continue
        b_turn, p_turn = c.best.first_turn(s.seat), c.played.first_turn(s.seat)
        if b_turn is None or p_turn is None or not b_turn.move.is_pass or not p_turn.move.is_play \
                or not set(b_turn.before) <= set(s.numbers):
            continue
        who = c.players[s.seat]
        yield "void-missed", gettext("{player} passed at move {number} with {numbers} open and holds none: after "
                                     "{best} {player} must pass; after {played} {player} plays {move}", player=who,
                                     number=s.index + 1, numbers=_numbers(s.numbers), best=c.best_move,
                                     played=c.decision.played, move=p_turn.move), \
            dict(player=who, numbers=s.numbers, shown_at=s.index + 1, tiles=(str(p_turn.move.tile),))
        return


def _on(step: LineStep | None, number: int) -> bool:
    """Whether ``step`` lays a tile on the end ``number``."""
    if step is None or not step.move.is_play:
        return False
    end = step.move.end
    return end == number if end is not None else step.move.tile.matches(number)


def _opened(c: _Case):
    """A number the move opens for the next player, an opponent who laid a tile of it before and plays on it."""
    first, reply = c.played.steps[0], c.reply(c.played)
    if reply is None or not c.theirs(reply.seat):
        return
    best_opened = set(c.best.steps[0].after) - set(c.best.steps[0].before)
    for n in sorted(set(first.after) - set(first.before) - best_opened):
        b_reply = c.reply(c.best)
        if not _on(reply, n) or (b_reply is not None and b_reply.seat == reply.seat and b_reply.move.is_play
                                 and b_reply.move.tile.matches(n)):
            continue
        laid = next((s for s in reversed(c.shown) if s.kind == "laid" and s.seat == reply.seat and s.tile.matches(n)),
                    None)
        if laid is None:
            continue
        who = c.players[reply.seat]
        yield "opens-opponent-number", gettext("opens the {end} that {player} showed with {tile} at move {number}; "
                                               "{player} plays {reply} on it at once", end=n, player=who,
                                               tile=laid.tile, number=laid.index + 1, reply=reply.move.tile), \
            dict(player=who, numbers=(n,), tiles=(str(reply.move.tile),), shown_at=laid.index + 1)
        return


def _closed(c: _Case):
    """The number the partner's last tile opened, covered by the move: he passes next, and plays after the best."""
    first = c.played.steps[0]
    covered = set(first.before) - set(first.after)
    for p in (s for s in range(len(c.teams)) if s != c.me and c.teams[s] == c.us):
        laid = next((s for s in reversed(c.shown) if s.seat == p and s.kind == "laid"), None)
        if laid is None:
            continue
        ends = sorted(n for n in covered if n in laid.numbers and laid.tile.matches(n))
        p_turn, b_turn = c.played.first_turn(p), c.best.first_turn(p)
        if not ends or p_turn is None or b_turn is None or not p_turn.move.is_pass or not b_turn.move.is_play:
            continue
        who = c.players[p]
        yield "closes-partner-number", gettext("covers the {end} {player} opened with {tile} at move {number}: "
                                               "{player} must pass next; after {best} {player} plays {move}",
                                               end=ends[0], player=who, tile=laid.tile, number=laid.index + 1,
                                               best=c.best_move, move=b_turn.move), \
            dict(player=who, numbers=(ends[0],), tiles=(str(laid.tile),), shown_at=laid.index + 1)


def _lead(c: _Case):
    """The choice of the lead (the hand's first tile), by what decides a lead in the rules' advice (000, "Bemerkungen
    und Spielstrategie": lead from the strongest suit, a double by preference, to have more plays when one's turn
    comes again, and so the partner knows the suit): each fact that favours the best lead over the one played, read
    off the mover's hand and the two lines."""
    first, other = c.played.steps[0], c.best.steps[0]
    if first.before or not first.move.is_play or not other.move.is_play:
        return
    hand, tiles, name = c.pos.hands[c.me], c.pos.tiles, c.players[c.me]
    lead, best = first.move.tile, other.move.tile

    def suit(tile) -> tuple[int, int]:
        """The longest suit of ``tile``'s numbers in the mover's hand: (how many tiles, the number)."""
        return max((sum(1 for t in tiles if hand & t.bit and t.matches(n)), n) for n in sorted({tile.low, tile.high}))

    def fits(line: Walked, laid) -> int | None:
        """The tiles of the mover's that fit at his next turn in ``line`` (None: he has no next turn)."""
        turn = line.first_turn(c.me)
        if turn is None:
            return None
        return sum(1 for t in tiles if hand & t.bit and t != laid and any(t.matches(n) for n in turn.before))

    said, player = [], name
    (p_len, p_num), (b_len, b_num) = suit(lead), suit(best)
    if b_len > p_len:
        said.append(gettext("{best} leads from {player}'s {best_count} tiles of {best_number}, {lead} from {count} of "
                            "{number}", best=best, player=name, best_count=b_len, best_number=b_num, lead=lead,
                            count=p_len, number=p_num))
    if best.is_double and not lead.is_double:
        said.append(gettext("gives up leading the double {best}", best=best))
    p_fit, b_fit = fits(c.played, lead), fits(c.best, best)
    if p_fit is not None and b_fit is not None and b_fit > p_fit:
        said.append(gettext("after it {count} of {player}'s tiles fit at {player}'s next turn, after {best} "
                            "{best_count}", count=p_fit, player=name, best=best, best_count=b_fit))
    for p in (s for s in range(len(c.teams)) if s != c.me and c.teams[s] == c.us):
        p_turn, b_turn = c.played.first_turn(p), c.best.first_turn(p)
        if p_turn is not None and b_turn is not None and not p_turn.move.is_play and b_turn.move.is_play:
            player = c.players[p]
            said.append(gettext("{player} cannot follow it (he passes at his first turn), and plays {move} after "
                                "{best}", player=player, move=b_turn.move, best=best))
            break
    if said:
        yield "lead", gettext("the lead {lead}: {why}", lead=lead, why="; ".join(said)), \
            dict(player=player, tiles=(str(lead), str(best)), numbers=(p_num, b_num))


def _stranded(c: _Case):
    left = [t for t in _doubles(c.played.hands[c.me], c.pos.tiles) if not c.best.hands[c.me] & t.bit]
    if left and c.played.termination is not None and not c.ours(_out(c.played)):
        name = c.players[c.me]
        yield "double-stranded", ngettext("leaves {player} holding {tiles} at the end; the best line lays it",
                                          "leaves {player} holding {tiles} at the end; the best line lays them",
                                          len(left), player=name, tiles=", ".join(map(str, left))), \
            dict(player=name, tiles=tuple(map(str, left)))


def _points(c: _Case):
    first, best_first = c.played.steps[0], c.best.steps[0]
    if best_first.scored > first.scored:
        yield "points-missed", gettext("scores {points} where {best} scores {best_points}", points=first.scored,
                                       best=c.best_move, best_points=best_first.scored), \
            dict(player=c.players[c.me])
    reply, b_reply = c.reply(c.played), c.reply(c.best)
    if reply is not None and c.theirs(reply.seat) and b_reply is not None and b_reply.seat == reply.seat \
            and reply.scored > b_reply.scored:
        who = c.players[reply.seat]
        yield "points-given", gettext("gives {player} {points} at once with {move}; after {best} {player}'s reply "
                                      "scores {best_points}", player=who, points=reply.scored, move=reply.move,
                                      best=c.best_move, best_points=b_reply.scored), \
            dict(player=who, tiles=(str(reply.move.tile),))


#: a hand's bonus by its name in ``HandResult.bonuses`` (the rules' code), as a reason says it; the games' own words
#: (capicú, dominao, chuchazo, milo) are the same in every language, and a name not here is said as it is
BONUS_WORDS = {"capicúa doubled": N_("capicúa doubled"), "salida": N_("the salida"), "eggs": N_("the eggs")}


def _bonus(c: _Case):
    lost = _bonuses(c.best, c.us) - _bonuses(c.played, c.us)
    if lost:
        yield "bonus-lost", gettext("gives up {bonuses}, which the best line earns",
                                    bonuses=", ".join(f"{gettext(BONUS_WORDS[n]) if n in BONUS_WORDS else n} ({p})"
                                                      for n, p in sorted(lost))), {}


def _left_tiles(c: _Case):
    """Where the hand ends alike but for its points (``count``, ``pips-left``), the tiles that make the pips left
    differ: those the mover's side is left holding after the move played and lays in the best line, where his side
    does not go out and holds more pips at the end of the line played (``tiles-kept``); those the others lay in the line
    played and are left holding in the best, where his side wins the hand played and the others hold fewer pips at
    its end (``opponents-unload``)."""
    ours = [s for s in range(len(c.teams)) if c.teams[s] == c.us]
    theirs = [s for s in range(len(c.teams)) if c.teams[s] != c.us]

    def held(line: Walked, seats) -> int:
        mask = 0
        for s in seats:
            mask |= line.hands[s]
        return mask

    def named(mask: int) -> tuple[str, ...]:
        return tuple(str(t) for t in c.pos.tiles if mask & t.bit)

    kept = held(c.played, ours) & ~held(c.best, ours)
    if kept and not c.ours(_out(c.played)) and mask_pips(held(c.played, ours)) > mask_pips(held(c.best, ours)):
        us, n = _side(c.teams, c.us, c.players)
        yield "tiles-kept", ngettext("{side} keeps {tiles} ({pips} pips) that the best line lays",
                                     "{side} keep {tiles} ({pips} pips) that the best line lays", n, side=us,
                                     tiles=" ".join(named(kept)), pips=mask_pips(kept)), \
            dict(player=c.players[c.me], tiles=named(kept), numbers=(mask_pips(kept),))
    unloaded = held(c.best, theirs) & ~held(c.played, theirs)
    if unloaded and _won(c.played, c.us) and mask_pips(held(c.played, theirs)) < mask_pips(held(c.best, theirs)):
        who = [c.players[s] for s in theirs if c.best.hands[s] & unloaded]
        yield "opponents-unload", gettext("lets {players} lay {tiles} ({pips} pips) kept in the best line",
                                          players=gettext(" and ").join(who), tiles=" ".join(named(unloaded)),
                                          pips=mask_pips(unloaded)), \
            dict(player=who[0], tiles=named(unloaded), numbers=(mask_pips(unloaded),))


# the codes that may stand beside ``count`` and ``pips-left`` (a cause of how the hand ends, given before them)
BESIDE_COUNT = frozenset({"lead", "double-stranded"})
# the checks of the codes, in the order their reasons are given (``count`` and ``unexplained``: :func:`explain`)
_CHECKS = (_outs, _blocks, _void, _opened, _closed, _lead, _stranded, _points, _bonus)


def explain(decision, played: Walked, best: Walked, pos, shown: Sequence[Shown], players: Sequence[str],
            teams: Sequence[int]) -> tuple[Reason, ...]:
    """The reasons ``decision`` (a graded :class:`~analyzer.analysis.Decision`) lost, read off ``played`` and
    ``best`` (:func:`walk_line` after the move played and after the best move, from ``pos``, the position before
    it), with ``shown`` (:func:`shown_facts`: the record's passes and tiles laid before it); ``teams``: each seat's
    side (a game of individual players: one a seat). At least one reason: ``unexplained`` where no code holds."""
    c = _Case(decision, played, best, pos, shown, players, teams)
    sign = mover_sign(decision.side)
    pv = None if decision.played_value is None else sign * decision.played_value
    bv = None if decision.best_value is None else sign * decision.best_value
    base = dict(played_value=pv, best_value=bv, played_line=played.text, best_line=best.text)
    values = " " + gettext("({best} instead of {played})", best=_signed(bv), played=_signed(pv)) \
        if pv is not None and bv is not None else ""
    out = [Reason(code, Facts(**{**base, **facts}), sentence)
           for check in _CHECKS for code, sentence, facts in check(c)]
    ending = []            # how the hand ends (``count``, ``pips-left``), given after its causes
    if not [r for r in out if r.code not in BESIDE_COUNT] and pv != bv and _alike(played, best, teams):
        ending.append(Reason("count", Facts(**base, player=players[played.seat]),
                             gettext("both lines end alike: {played_end} after the move played (pips left: "
                                     "{played_pips}), {best_end} after {best} (pips left: {best_pips}){values}",
                                     played_end=_end_words(played, players), played_pips=_left(played, players),
                                     best_end=_end_words(best, players), best=c.best_move,
                                     best_pips=_left(best, players), values=values)))
    mine = lambda line: sum(mask_pips(h) for s, h in enumerate(line.hands) if teams[s] == c.us)      # noqa: E731
    others = lambda line: sum(mask_pips(h) for s, h in enumerate(line.hands) if teams[s] != c.us)    # noqa: E731
    if not ending and not [r for r in out if r.code not in BESIDE_COUNT] and played.termination and best.termination \
            and (mine(played) > mine(best) or others(played) < others(best)):
        us = _side(teams, c.us, players)[0]
        ending.append(Reason("pips-left", Facts(**base, player=us),
                             gettext("pips left: {side} {ours} and the others {theirs} after the move played "
                                     "({played_end}); {best_ours} and {best_theirs} after {best} ({best_end}){values}",
                                     side=us, ours=mine(played), theirs=others(played),
                                     played_end=_end_words(played, players), best_ours=mine(best),
                                     best_theirs=others(best), best=c.best_move, best_end=_end_words(best, players),
                                     values=values)))
    causes = [Reason(code, Facts(**{**base, **facts}), sentence) for code, sentence, facts in _left_tiles(c)] \
        if ending else []
    if causes and ending[0].code == "count":     # (the tiles are named: how each line ends, without its pips)
        p_end, b_end = _end_words(played, players), _end_words(best, players)
        ends = gettext("{end} after the move played and after {best}", end=p_end, best=c.best_move) \
            if p_end == b_end else gettext("{end} after the move played, {best_end} after {best}", end=p_end,
                                           best_end=b_end, best=c.best_move)
        ending = [replace(ending[0], sentence=gettext("both lines end alike: {ends}{values}", ends=ends,
                                                      values=values))]
    out += causes + ending      # the tiles that make the pips differ, where the engine names them: the cause first
    if not out:
        out.append(Reason("unexplained", Facts(**base), gettext("no reason the engine checks explains this "
                                                                "loss{values}; the two lines are in its facts (and "
                                                                "in analyze --lines)", values=values)))
    return tuple(out)


def _scoring(line: Walked, player: str, last) -> str:
    """``lets B go out with [3-4] and score N``: the opponent going out in ``line``, with the points the hand's winner
    scores there (none where it has none)."""
    r = line.result
    if r is not None and r.winner is not None and r.points:
        return gettext("lets {player} go out with {tile} and score {points}", player=player, tile=last,
                       points=r.points)
    return gettext("lets {player} go out with {tile}", player=player, tile=last)


def _alike(played: Walked, best: Walked, teams: Sequence[int]) -> bool:
    """Whether two lines end alike: the same side goes out in both, or the same side wins both (a block)."""
    if played.result is None or best.result is None:
        return False
    if played.termination == best.termination == Termination.DOMINO and teams[played.seat] == teams[best.seat]:
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


def _side(teams: Sequence[int], us: int, players: Sequence[str]) -> tuple[str, int]:
    """The players of side ``us`` (``A and C``) and how many they are (the verb's form)."""
    names = [p for p, t in zip(players, teams) if t == us]
    return gettext(" and ").join(names), len(names)


def _pips(line: Walked, players: Sequence[str]) -> str:
    return ", ".join(f"{p} {mask_pips(h)}" for p, h in zip(players, line.hands))


def _left(line: Walked, players: Sequence[str]) -> str:
    return ", ".join(f"{p} {mask_pips(h)}" for p, h in zip(players, line.hands) if h)


def _end_words(line: Walked, players: Sequence[str]) -> str:
    who = players[line.seat]
    return gettext("{player} goes out", player=who) if line.termination == Termination.DOMINO else \
        gettext("the hand blocks after {player}'s last tile", player=who)


def _numbers(numbers: Sequence[int]) -> str:
    return gettext(" and ").join(map(str, numbers))


def _signed(v: int | None) -> str:
    return "?" if v is None else f"{v:+d}"


# -- over deals: the fair verdict's (the deals the mover could not rule out) and a sheet's (the deals it allows) -----

# what each code says over deals, after "in k of n deals ...": ``{best}`` the best move (the same in every deal)
OVER_WORDS: dict[str, str | tuple[str, str]] = {
    # (a pair: the forms for the mover alone and for his side of two, ``{us}``; ``ngettext`` picks by the side's size)
    "opponent-out": N_("an opponent goes out"),
    "out-missed": ngettext_mark("after {best} {us} goes out, and not after the move played",
                                "after {best} {us} go out, and not after the move played"),
    "block-lost": ngettext_mark("the hand blocks and {us} loses the count", "the hand blocks and {us} lose the count"),
    "block-missed": ngettext_mark("after {best} the hand blocks and {us} wins the count",
                                  "after {best} the hand blocks and {us} win the count"),
    "void-missed": N_("after {best} an opponent must pass, holding none of the numbers he passed on before"),
    "opens-opponent-number": N_("the move opens a number the next opponent showed, and he plays on it at once"),
    "closes-partner-number": N_("the move covers the number {mover}'s partner opened, and the partner must pass"),
    "lead": N_("{best} is the better lead by what decides one (a longer suit, a double, more tiles that fit at "
               "{mover}'s next turn, the partner following)"),
    "double-stranded": N_("{mover} is left holding a double that the line after {best} lays"),
    "points-missed": N_("the move scores less at once than {best}"),
    "points-given": N_("the next opponent's reply scores more than after {best}"),
    "bonus-lost": N_("the line after {best} earns {us} a bonus the line played does not"),
    "tiles-kept": ngettext_mark("{us} is left holding tiles that the line after {best} lays",
                                "{us} are left holding tiles that the line after {best} lays"),
    "opponents-unload": N_("the others lay tiles that they are left holding after {best}"),
    "count": N_("both lines end alike, for other points"),
    "pips-left": ngettext_mark("{us} is left holding more pips, or the others fewer, than after {best}",
                               "{us} are left holding more pips, or the others fewer, than after {best}"),
    "unexplained": N_("no code explains the loss"),
}


def over_deals(read: Sequence[tuple[Reason, ...] | None], total: int, drawn: bool, kind: str, mover: str,
               best: str, side: Sequence[str] = (), estimated: bool = False) -> tuple[Reason, ...]:
    """The reasons of a move over deals: ``read`` one entry a deal read (its open-hands reasons there, each
    :func:`explain`'s, () where the move played loses nothing in it; None: a deal whose lines could not be read, left
    out of the count), ``total`` the deals there are, ``drawn`` whether those read are a sample of them, ``kind`` as
    :class:`Over` says, ``mover`` the player (``side``: the players of his side, himself alone where not given),
    ``best`` the best move over the deals. A code holding in some of the
    deals read gets one reason, with in how many (``Over``), the players it names and in how many deals each, the
    tiles and numbers it names (most often first), and the record's move that showed it where that is the same in
    every deal; codes in the order of :data:`CODES`. Nothing where no code holds in any deal, or none was read."""
    seen = [r for r in read if r is not None]
    n = len(seen)
    side = tuple(side) or (mover,)
    us = side[0] if len(side) == 1 else gettext("{first} and {last}", first=", ".join(side[:-1]), last=side[-1])
    words = dict(best=best, mover=mover, us=us)
    out = []
    for code in CODES:
        here = [next(r for r in got if r.code == code) for got in seen if any(r.code == code for r in got)]
        if not here or code == "unexplained":
            continue
        players = Counter(r.facts.player for r in here if r.facts.player is not None)
        tiles = Counter(t for r in here for t in r.facts.tiles)
        numbers = Counter(x for r in here for x in r.facts.numbers)
        shown = {r.facts.shown_at for r in here}
        names = tuple(p for p, _ in players.most_common())
        over = Over(len(here), n, total, drawn, kind, names, tuple(players[p] for p in names),
                    sum(1 for got in seen if got), estimated)
        facts = Facts(player=names[0] if names else None, tiles=tuple(t for t, _ in tiles.most_common()),
                      numbers=tuple(x for x, _ in numbers.most_common()),
                      shown_at=shown.pop() if len(shown) == 1 else None)
        said = OVER_WORDS[code]
        said = gettext(said, **words) if isinstance(said, str) else ngettext(*said, len(side), **words)
        out.append(Reason(code, facts, f"{_over_head(over, mover)}, {said}{_over_tail(over, facts, code)}", over))
    return tuple(out)


def _over_head(over: Over, mover: str) -> str:
    """``in 14 of the 20 deals Ann could not rule out`` (or ``... of 20 deals drawn from the 1,234 ...``; ``... of
    19 deals read of the 20 ...`` where some deals' lines could not be read), in the active language."""
    which = gettext("{mover} could not rule out", mover=mover) if over.kind == "fair" else gettext("the sheet allows")
    total = (gettext("an estimated {total}", total=number(over.total)) if over.estimated else
             gettext("the {total}", total=number(over.total)))
    if over.drawn:
        return ngettext("in {holds} of {n} deal drawn from {total} {which}",
                        "in {holds} of {n} deals drawn from {total} {which}", over.deals, holds=number(over.holds),
                        total=total, which=which)
    if over.deals < over.total:         # (the others' lines not read: past the node limit, a move not legal there)
        return ngettext("in {holds} of {n} deal read of {total} {which}",
                        "in {holds} of {n} deals read of {total} {which}", over.deals, holds=number(over.holds),
                        total=total, which=which)
    return ngettext("in {holds} of the {n} deal {which}", "in {holds} of the {n} deals {which}", over.deals,
                    holds=number(over.holds), which=which)


def _over_tail(over: Over, facts: Facts, code: str) -> str:
    """The players a reason over deals names and in how many deals each (`` (Bob in 9, Cy in 5)``), and the
    tiles left (the doubles stranded, the tiles kept or unloaded: the four named most often)."""
    parts = []
    if over.players and code not in ("out-missed", "block-lost", "block-missed", "bonus-lost", "count",
                                     "pips-left", "points-missed", "double-stranded", "lead", "tiles-kept"):
        parts.append(", ".join(gettext("{player} in {n}", player=p, n=number(k))
                               for p, k in zip(over.players, over.counts)))
    if code in ("double-stranded", "tiles-kept", "opponents-unload") and facts.tiles:
        parts.append(", ".join(facts.tiles[:4]) + (", ..." if len(facts.tiles) > 4 else ""))
    return f" ({'; '.join(parts)})" if parts else ""
