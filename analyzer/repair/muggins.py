"""A dropped Muggins call (All Fives, 003): the one slip that shows only in the match score.

A play that scores and claims nothing leaves its points to the next player, who takes them by
calling "muggins" (``C muggins 10``, right after the play). A call the copyist left out breaks no
move: the record leaves the score unclaimed (a ``missed-score`` warning), and the Score tag, which
counts the call, no longer agrees with the match (``score-mismatch``). :func:`dropped_calls` puts
the call back where that explains the stated score exactly: after a play whose points nobody took,
by the player who may take them, for those points, and the Score tag differs from the match by just
those points on just his side.
"""
from __future__ import annotations

from dataclasses import replace

from ..match import parse_score
from ..record import MoveEntry
from ..replay import Replay, replay
from ..match import check_decided_result   # (the stated result, checked as the match checks it)
from ..rules.codes import Code
from .builder import repaired_result, entry_rows
from .edits import COSTS, Edit, Repair
from ..diagnostics import Severity


def dropped_calls(rep: Replay, expected: str) -> list[Repair]:
    """The Muggins calls whose insertion gives the match score the Score tag states (``expected``:
    the score the match has after ``rep``), each a one-edit repair confirmed by the replayer."""
    game = rep.written if rep.written is not None else rep.game
    try:
        stated, actual = parse_score(game.tags.get("Score", "")), parse_score(expected)
    except ValueError:
        return []
    at = {id(m): i for i, m in enumerate(game.moves)}
    rounds = all(m.round is not None for m in game.moves)
    out = []
    for step in rep.steps:
        missed = next((d for d in step.diagnostics if d.code == Code.MISSED_SCORE and d.severity == Severity.WARNING), None)
        i = at.get(id(step.entry))
        if missed is None or i is None or step.entry.player not in rep.players:
            continue
        points = missed.details.get("scores")
        caller = rep.players[(rep.players.index(step.entry.player) + 1) % len(rep.players)]
        if not points or any(stated.get(side) != value + points * (caller in side) for side, value in actual.items()):
            continue
        call = MoveEntry(caller, None, round=step.entry.round, muggins=points)
        moves = game.moves[:i + 1] + [call] + game.moves[i + 1:]
        fixed = replace(game, moves=moves)
        again = check_decided_result(replay(fixed, rep.variant, rep.source, terms=rep.terms))
        if not again.valid:
            continue
        nxt = game.moves[i + 1] if i + 1 < len(game.moves) else None
        where = nxt if nxt is not None else step.entry
        edit = Edit("insert-move", where.pos.line or None, (where.pos.column or None) if nxt is not None else None,
                    caller, None, call.text, i + 1, None,
                    COSTS["insert-move/muggins"], at_end=nxt is None)
        out.append(Repair((edit,), COSTS["insert-move/muggins"], fixed, again.result_dict(), repaired_result(again),
                          entry_rows(game.moves, [i], rounds), entry_rows(moves, [i + 1], rounds), again))
    return out
