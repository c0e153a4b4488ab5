"""The problems of an entry that the replay meets beside the judge's verdict on it, made here as the
judge makes its own: an entry by someone who is not a player, an entry after the hand was over, a pass the record leaves out, a placement the
record leaves undecided, a pass that a later play proves false, and a tile the Exposed tag lays open
after its holder had played it. The replayer finds where each applies and asks for the problem; the
codes and words are the rules' (``rules/codes.py``)."""
from __future__ import annotations

from ..position import Outcome
from ..record import MoveEntry
from ..tiles import Move, Tile
from .claims import Problem
from .codes import Code
from ..i18n import gettext
from .modes import End, Termination, Turns

__all__ = ["unknown_player", "after_end", "pass_inserted", "skips_out", "out_skipped", "undecided_placement", "false_pass_proved", "exposed_after_play"]


def unknown_player(name: str, players: tuple[str, ...]) -> Problem:
    """An entry by ``name``, who is not one of ``players``: ``unknown-player``."""
    return Problem(Code.UNKNOWN_PLAYER, gettext("{name} is not one of the players ({players})", name=repr(name),
                                                players=', '.join(players)))


def after_end(entry: MoveEntry, outcome: Outcome, players: tuple[str, ...], out: tuple[int, ...] | None = None
              ) -> Problem | None:
    """An entry after the hand was over: ``play-after-end``; None for a pass after a block (the passes
    that show a block are how records write it; after a player went out a pass is flagged as a play).

    ``out``: in a hand that goes on until nobody can play (Hungarian runs, :func:`out_skipped`), the seats
    that are out (None elsewhere). Every such hand ends in a block, so a pass after it shows it whoever is out."""
    if entry.is_pass and (outcome.termination != Termination.DOMINO or out is not None):
        return None
    if out is not None:
        how = (gettext("nobody could play on; {players} went out", players=_names([players[s] for s in out])) if out
               else gettext("nobody could play on"))
    else:
        how = (gettext("{player} went out", player=players[outcome.seat])
               if outcome.termination == Termination.DOMINO else gettext("it was blocked"))
    words = {"player": entry.player, "tile": entry.tile, "how": how}
    if entry.is_pass and not entry.draw:
        return Problem(Code.PLAY_AFTER_END, gettext("{player} passes after the hand was over ({how})", **words))
    if entry.draw:
        return Problem(Code.PLAY_AFTER_END, gettext("{player} draws {tile} after the hand was over ({how})", **words)
                       if entry.tile else gettext("{player} draws after the hand was over ({how})", **words))
    return Problem(Code.PLAY_AFTER_END, gettext("{player} plays {tile} after the hand was over ({how})", **words))


def pass_inserted(player: str, ends: str, out: bool = False, run: bool = False) -> Problem:
    """A forced pass the record leaves out ([Passes "omitted"]), inserted: ``pass-inserted`` (info).
    ``out``: the player holds no tile (the strict block game, where a player who is out is simply skipped
    until his partner is out too; ``run``: Hungarian, where the others play on while one of them can)."""
    if out:
        return Problem(Code.PASS_INSERTED, gettext("{player} is out and is skipped (the others play on while one of "
                                                   "them can)", player=player) if run else
                       gettext("{player} is out and is skipped (the hand goes on until both players of a pair are "
                               "out)", player=player), {"out": True}, severity="info")
    return Problem(Code.PASS_INSERTED, gettext("{player} cannot play on {ends} and passes here (the record leaves "
                                               "forced passes out)", player=player, ends=ends), severity="info")


def undecided_placement(tile: Tile, candidates: list[Move], move: Move, has_arms: bool, ends: str,
                        harmless: bool) -> Problem:
    """A tile that fits several ends or arms where the rest of the record does not decide which, taken
    as ``move``: ``ambiguous-end``, a warning (info when it ends the hand either way). ``ends``: the open
    ends (or arms) in words."""
    # (on a line, >1 and >2 name its ends)
    if move.arm is None:
        where, taken = gettext("both open ends ({ends})", ends=ends), gettext("the {end}", end=move.end)
    elif has_arms:
        where = gettext("arms {arms} ({ends})", arms=gettext(" and ").join(str(c.arm) for c in candidates), ends=ends)
        taken = gettext("arm {arm}", arm=move.arm)
    else:
        where = gettext("ends {arms} ({ends})", arms=gettext(" and ").join(str(c.arm) for c in candidates), ends=ends)
        taken = gettext("end {arm}", arm=move.arm)
    return Problem(Code.AMBIGUOUS_END, (gettext("{tile} fits {where} and the rest of the record does not decide which; "
                                                "taken on {taken}; it ends the hand either way", tile=tile,
                                                where=where, taken=taken) if harmless else
                                        gettext("{tile} fits {where} and the rest of the record does not decide which; "
                                                "taken on {taken}", tile=tile, where=where, taken=taken)),
                   {"choices": [c.end for c in candidates]}, severity="info" if harmless else "warning")


def false_pass_proved(player: str, line: int | None, numbers: tuple[int, ...], tile: Tile) -> Problem:
    """An earlier pass of ``player`` (at ``line``, with ``numbers`` open) that his play of ``tile``
    proves false: ``false-pass``."""
    number = next(n for n in numbers if tile.matches(n))
    return Problem(Code.FALSE_PASS, gettext("{player} passed at line {line} with {numbers} open, so held no {number}; "
                                            "yet {player} now plays {tile}", player=player, line=line,
                                            numbers=gettext(" and ").join(map(str, numbers)), number=number,
                                            tile=tile), {"revealed_by": str(tile)})


def exposed_after_play(player: str, tile: Tile, row: int) -> Problem:
    """The Exposed tag lays ``tile`` open during play before ``row``, but ``player`` had played it by
    then: ``bad-exposed``."""
    return Problem(Code.BAD_EXPOSED, gettext("the Exposed tag names {player}'s {tile} as exposed during play before "
                                             "row {row}, but {player} had played it by then", player=player,
                                             tile=tile, row=row))


def out_skipped(variant) -> bool:
    """Whether a hand of ``variant`` goes on past a player who is out, who then has nothing to do: the strict
    block game ("bis beide Spieler eines Paares ausscheiden", 003) and Hungarian (004: "Ist er am Ende,
    versucht der nächste Spieler ..." until "Kann keiner der Spieler mehr auslegen"). A record may write his
    passes or simply skip him."""
    return variant.end == End.PAIR or variant.turns == Turns.RUN


def skips_out(pos) -> bool:
    """Whether the player to move is out of a hand that goes on (:func:`out_skipped`): he holds no tile, so
    the record may simply skip him; his pass is inserted."""
    return pos.outcome() is None and not pos.hidden[pos.turn] and pos.count(pos.turn) == 0


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
