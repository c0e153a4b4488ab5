"""The moves a player whose hand is unknown or partly known could make: what a transcriber may click.

A score sheet gives the plays, rarely the hands. For such a player the position knows only some of his
tiles (``Position.hands``) and how many more he holds (``Position.hidden``), so its own legal moves
(``Position.legal_moves``) know no tile he might hold. :func:`offers` lists every move the record could
go on with: each tile he could hold (his known tiles, and where his hand is not all known every tile not
yet seen in the record: neither on the table nor in a known hand) that his passes do not exclude (a pass
proves he held no tile of the numbers then open, until he draws), each placement of it separately, then a
pass and each draw; :func:`extra_offers`, the matching tile the draw game's opener may add to his lead out of
turn (004). Which of them the rules allow is the judge's word (:class:`~analyzer.rules.judge.Judge`),
asked move by move: nothing here decides legality."""
from __future__ import annotations

from typing import Iterable

from ..position import Position, tiles_of
from ..tiles import PASS, Move
from .judge import Judge

__all__ = ["offers", "extra_offers"]


def offers(variant, players: Iterable[str], pos: Position, lacks: Iterable[int] = ()) -> list[Move]:
    """Every move the player to move in ``pos`` could make by the rules, his hand as far as the record knows
    it: the plays (ordered by tile, low half then high, each placement apart), then a pass, then each draw.
    ``lacks``: the numbers his passes prove he does not hold (since his last draw). [] once the hand is over."""
    if pos.outcome() is not None:
        return []
    seat = pos.turn
    judge = Judge(variant, tuple(players), explain=False)
    out = _plays(judge, pos, seat, lacks)
    if judge.entry(pos, None, seat).legal:
        out.append(PASS)
    if pos.draws and judge.entry(pos, None, seat, draw=True).legal:
        for tile in sorted(tiles_of(pos.pool, pos.max_pip)):
            if judge.entry(pos, tile, seat, draw=True).legal:
                out.append(Move(tile, None, True))
    return out


def extra_offers(variant, players: Iterable[str], pos: Position, lacks: Iterable[int] = ()) -> list[Move]:
    """The plays of the opener who may still add a matching tile to his lead (004, the draw game: "highest
    double opens and may add a matching tile"; he then moves again), out of turn: each tile he could hold,
    as :func:`offers` lists them (``lacks``: the numbers his passes prove he does not hold), each placement
    apart, that the judge lets him add there. [] where nobody may add one (``Position.may_add``)."""
    seat = pos.bonus
    if pos.outcome() is not None or seat in (-1, pos.turn) or not pos.may_add(seat):
        return []
    return _plays(Judge(variant, tuple(players), explain=False), pos, seat, lacks)


def _plays(judge: Judge, pos: Position, seat: int, lacks: Iterable[int]) -> list[Move]:
    """Each play ``seat`` could make in ``pos`` as ``judge`` allows it: every tile he could hold (his known
    tiles, and where his hand is not all known every tile not yet seen) that his passes (``lacks``) do not
    exclude, ordered by tile, each placement apart."""
    known = pos.hands[seat]
    could = known | (pos.pool if pos.hidden[seat] else 0)
    proved = [(seat, tuple(sorted(set(lacks))))] if lacks else []
    out: list[Move] = []
    for tile in sorted(tiles_of(could, pos.max_pip)):
        if not known & tile.bit and proved and Judge.contradicted(proved, seat, tile) is not None:
            continue                 # his passes prove he does not hold it
        verdict = judge.entry(pos, tile, seat)
        if verdict.legal:
            out.extend(verdict.moves)
    return out
