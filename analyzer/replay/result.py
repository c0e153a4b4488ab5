"""The end of a replayed hand: how it ended, its result, and the Result tag and remark checked against them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic
from ..position import Outcome, Position, tiles_of
from ..record import StatedResult
from ..rules import HandFacts, HandResult
from ..rules.judge import tiles_text as _tiles_text

if TYPE_CHECKING:
    from . import Replay, Step

BLOCK_WORDS = ("gesperrt", "blocked", "block", "trancado", "tranque")


class _Ending:
    """The result part of the replayer (:class:`analyzer.replay._Replayer`): ``finish`` once the moves are run."""

    def finish(self, pos: Position, steps: list[Step]) -> tuple[Outcome | None, HandResult | None, list[Diagnostic]]:
        out: list[Diagnostic] = []
        outcome = pos.outcome()
        result = None
        self.facts = None
        if outcome is not None:
            for step in reversed(steps):
                if step.move is not None:
                    step.ends_hand = True
                    break
            if not any(pos.hidden) and pos.n == self.variant.players:   # else the seats do not fit
                facts = hand_facts(pos, outcome.termination, outcome.seat, self.leader,
                                   tuple(self.scores) if self.variant.play is not None else None)
                result = self.variant.hand_result(facts)
                self.facts = facts
            elif any(pos.hidden) and self.game.tags.get("Result") is not None:
                unknown = ", ".join(self.players[s] for s in range(pos.n) if pos.hidden[s])
                out.append(self.diag("unchecked-result", f"the winner and points of the stated result are not "
                                     f"checked: the tiles {unknown} still held are not known; write the whole deal "
                                     "to have them checked (how the hand ended is checked)",
                                     self.game.tag_pos.get("Result", self.game.pos), severity="info",
                                     rule="result"))
        tag = self.game.tags.get("Result")
        tag_pos = self.game.tag_pos.get("Result", self.game.pos)
        stated = None
        if tag is not None:
            try:
                stated = StatedResult.parse(tag)
            except ValueError:
                # the forms it takes, written with this game's own players
                sides = [self.variant.side_name(k, self.players) for k in range(self.variant.seating.sides)]
                out.append(self.diag("result-syntax", f"cannot read result {tag!r}; write it as \"{sides[-1]} 10 "
                                     f"domino\", \"{sides[0]} 46 blocked\" or \"draw blocked\" (this game's players)", tag_pos))
        last_pos = steps[-1].entry.pos if steps else self.game.pos
        if outcome is None:
            if stated is not None:
                unsure = any(pos.hidden) and not any(pos.playable(s) for s in range(pos.n))
                over = ("the record does not show that the hand is over (a hand it does not show may hold a tile "
                        "that could be laid)" if unsure else "the hand is not over")
                out.append(self.diag("result-mismatch", f"the record states \"{stated}\" but after its last move "
                                     f"{over}: {self._unfinished(pos)}", tag_pos))
            elif self.game.moves:
                out.append(self.diag("incomplete", f"the record ends before the hand is over: {self._unfinished(pos)}",
                                     last_pos, severity="warning"))
        elif stated is not None:
            problem = self._compare(stated, outcome, result)
            if problem:
                out.append(self.diag("result-mismatch", f"the record states \"{stated}\" but {problem}", tag_pos))
        remark = (self.game.remark or "").lower()
        if any(w in remark for w in BLOCK_WORDS) and (outcome is None or outcome.termination != "blocked"):
            out.append(self.diag("remark-mismatch", f"the remark says the hand is blocked, but "
                                 f"{'it is not over' if outcome is None else 'it ended by domino'}", last_pos,
                                 severity="warning"))
        return outcome, result, out

    def _unfinished(self, pos: Position) -> str:
        parts = []
        for s in range(pos.n):
            count = pos.count(s)
            left = (_tiles_text(tiles_of(pos.hands[s], pos.max_pip)) if not pos.hidden[s]
                    else f"{count} tile{'s' * (count != 1)} not shown")
            parts.append(f"{self.players[s]} still holds {left}")
        return "; ".join(parts)

    def _compare(self, stated: StatedResult, outcome: Outcome, result: HandResult | None) -> str | None:
        teams = self.variant.seating.teams

        def ends(more: str = "") -> str:       # described only when it disagrees (reading speed)
            return f"the hand ends {self._describe(outcome, result)}{more}"
        if stated.termination and stated.termination != outcome.termination:
            return ends()
        if result is None:
            return None
        if stated.side is None:
            return None if result.winner is None else ends()
        seats = [self.seat_of.get(name) for name in stated.side]
        if None in seats:
            return f"{'/'.join(stated.side)} are not players of this game ({', '.join(self.players)})"
        if result.winner is None or any(teams[s] != result.winner for s in seats):
            return ends()
        if not stated.agrees(result.points) and not (self.worth and stated.agrees(self.worth)):
            if self.worth and self.worth != result.points:
                return ends(f" (in the match, after drawn games, {self.worth})")
            return ends()
        return None

    def _describe(self, outcome: Outcome, result: HandResult | None) -> str:
        who = self.players[outcome.seat]
        how = f"with {who} going out (domino)" if outcome.termination == "domino" else "blocked"
        if result is None:
            return how
        if result.winner is None:
            return f"{how}, a draw"
        return f"{how}, {self.variant.side_name(result.winner, self.players)} winning {result.points}"


def hand_facts(pos: Position, termination: str, seat: int, leader: int,
               play_points: tuple[int, ...] | None = None) -> HandFacts:
    """Everything a scoring policy may look at in a finished hand, read off the position
    (``play_points``: what each seat scored during play, which the position does not know)."""
    last = ends_before = None
    for move, _seat, ends, *_ in reversed(pos.history):
        if move.tile is not None:
            last, ends_before = move.tile, ends
            break
    return HandFacts(termination, seat, tuple(pos.pips(s) for s in range(pos.n)),
                     tuple(pos.count(s) for s in range(pos.n)), leader, tuple(pos.hands), last, ends_before,
                     tuple((entry[1], entry[0].tile) for entry in pos.history), play_points)


def check_decided_result(r: _Ending, rep: Replay) -> None:
    """A stated result is still checked where the hidden tiles cannot change it: every deal the
    record allows gives the same winner and points (``analyzer.inference.decided_result``)."""
    from ..inference import decided_result

    tag = rep.game.tags.get("Result")
    try:
        stated = StatedResult.parse(tag) if tag is not None else None
    except ValueError:
        return
    if stated is None or (decided := decided_result(rep)) is None:
        return
    rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if d.code != "unchecked-result"]
    problem = r._compare(stated, rep.outcome, decided)
    if problem:
        rep.end_diagnostics.append(r.diag("result-mismatch", f"the record states \"{stated}\" but {problem} "
                                          "(whatever the tiles it does not show)",
                                          rep.game.tag_pos.get("Result", rep.game.pos)))
