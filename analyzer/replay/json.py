"""A replay as plain data (the ``--json`` form of ``domino replay``) and its result in words.

Plain data crosses process and machine boundaries (the archive runner's workers) and is cached."""
from __future__ import annotations

from ..position import tiles_of
from . import Replay
from .result import result_sentence, results_words

__all__ = ["replay_data", "result_text", "hand_names"]


def hand_names(rep: Replay, mask: int) -> list[str]:
    """The tiles of a hand mask, in order, as text."""
    return [str(t) for t in sorted(tiles_of(mask, rep.initial.max_pip))]


def result_text(rep: Replay) -> str | None:
    """``C goes out (domino); A/C win 46``, ``blocked; a draw``; None when the hand has no result. A sheet whose
    deals do not fix it (:attr:`Replay.outcomes`): the results they allow, never one of them as the fact
    (``not known: the deals the sheet allows end it with ...; or ...``), and where they agree on the winner and
    points but not on what each side scores, those scores."""
    r = rep.result
    results = tuple(dict.fromkeys(o.result for o in rep.outcomes))
    deals = "the deals the sheet allows"
    if rep.outcomes_drawn:
        kept = sum(o.deals for o in rep.outcomes)
        deals = f"{kept:,} of {rep.outcomes_drawn:,} deals drawn (too many to list)"
    if r is None:
        if not results:
            return None
        return f"not known: {deals} end it " + "; or ".join(results_words(results, rep.variant, rep.players))
    said = result_sentence(r, r, rep.variant, rep.players)
    scores = tuple(dict.fromkeys(tuple(x.added(rep.variant.seating.sides)) for x in results))
    if len(scores) > 1:
        sides = [rep.variant.side_name(s, rep.players) for s in range(rep.variant.seating.sides)]
        ways = "; or ".join(", ".join(f"{n} {v}" for n, v in zip(sides, each)) for each in scores)
        said += f"; what each scores is not known ({deals} give {ways})"
    return said


def _scores(rep: Replay, scores) -> dict | None:
    return None if scores is None else dict(zip(rep.players, scores))


def replay_data(rep: Replay) -> dict:
    """The replay as plain data: the deal, every move with the open ends and hands after it, the
    result and every diagnostic."""
    names = rep.players
    moves = []
    for step in rep.steps:
        e = step.entry
        moves.append({
            "index": step.index, "round": e.round, "player": e.player,
            "move": e.notation(where=False, marks=False), "boneyard": step.boneyard,
            "scores": _scores(rep, step.scores),
            "scored": step.scored,
            "end": None if step.move is None else step.move.end,
            "arm": None if step.move is None else step.move.arm,
            "arms": None if step.arms is None else [{"number": a.number, "state": a.state} for a in step.arms],
            "applied": step.move is not None, "annotation": e.annotation, "comment": e.comment,
            "line": e.pos.line or None, "column": e.pos.column or None,
            "open_ends": None if step.ends_after is None else list(step.ends_after),
            "hands": {n: hand_names(rep, step.hands_after[s]) for s, n in enumerate(names)},
            "lacks": list(step.lacks),
            "diagnostics": [d.as_dict() for d in step.diagnostics],
        })
    return {
        "title": rep.title, "variant": rep.variant.name, "tags": rep.game.tags, "players": list(names),
        "deal": {n: (None if rep.initial.hidden[s] else hand_names(rep, rep.initial.hands[s]))
                 for s, n in enumerate(names)},
        "moves": moves, "valid": rep.valid, "result": rep.result_dict(), "scores": _scores(rep, rep.scores),
        "match": rep.match.as_dict() if rep.match is not None else None,
        "diagnostics": [d.as_dict() for d in rep.diagnostics],
    }
