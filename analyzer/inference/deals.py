"""The view of a game without draws: the hands as dealt, the sleepers, and what each move seen shows."""
from __future__ import annotations

from ..i18n import gettext
from ..position import Position, mask_of, tiles_of
from ..rules.modes import Turns
from .worlds import (PUBLIC, NoWorld, View, describe_step, fitting, laid_at_start, lead_revealed, moves_again,
                     moves_seen, whole_hands)

__all__ = ["block_view"]


def block_view(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> View:
    """The :class:`View` of a game without draws (see :func:`analyzer.inference.view_at`)."""
    variant = rep.variant
    n = len(rep.players)
    initial: Position = rep.initial
    every = mask_of(variant.dealing.tiles)
    played = [0] * n
    counts = [initial.count(s) for s in range(n)]
    lacks = [0] * n                      # a mask per seat of the tiles his passes rule out
    passes: list[tuple[int, int, str]] = []      # (seat, tiles ruled out, what proved it)
    runs = variant.turns == Turns.RUN
    last = None                          # the move before: a run ends when the turn passes after a play

    def run_ended(step, fit: int) -> None:
        # Hungarian (004): a player plays as many tiles as he can, so when the turn passes after his
        # play he held no tile that could be laid then
        if runs and last is not None and last.seat != step.seat and last.move.is_play and fit:
            passes.append((last.seat, fit, gettext("the end of {player}'s run before {move}",
                                                   player=rep.players[last.seat], move=describe_step(rep, step))))
            lacks[last.seat] |= fit

    for move, seat, *_ in initial.history:   # a game set up from a position: its line, laid as by these seats
        if move.tile is not None:
            played[seat] |= move.tile.bit
    for j, step, _pos, fit in moves_seen(rep, seen):
        move, seat = step.move, step.seat
        run_ended(step, fit)
        if move.tile is not None:
            if lacks[seat] & move.tile.bit:
                proof = next(what for s_, mask, what in passes if s_ == seat and mask & move.tile.bit)
                raise NoWorld(gettext("{player} plays {tile} at {move}, but {proof} proved that hand held no tile that "
                                      "could be played then: no deal agrees with the record", player=rep.players[seat],
                                      tile=move.tile, move=describe_step(rep, step), proof=proof), step.index,
                              step.entry.pos.line or None)
            played[seat] |= move.tile.bit
            counts[seat] -= 1
        elif fit:
            passes.append((seat, fit, gettext("{player}'s pass at {move}", player=rep.players[seat],
                                              move=describe_step(rep, step))))
            lacks[seat] |= fit
        last = step
    if runs and last is not None and seen < len(rep.steps) and rep.steps[seen].seat is not None \
            and (rep.steps[seen].move is not None or rep.steps[seen].entry.is_pass):
        after = rep.position_at(seen)    # the player to move now: the turn has passed to him
        run_ended(rep.steps[seen], fitting(after, variant) if after.ends is not None else 0)
    on_table = 0
    for mask in played:
        on_table |= mask
    shown = lead_revealed(rep, seen)
    for s in range(n):
        lacks[s] |= shown.absent | shown.lacks.get(s, 0)
    stock = len(variant.dealing.tiles) - sum(initial.count(s) for s in range(n)) - laid_at_start(initial).bit_count()
    holders = list(rep.players)
    if stock > 0:
        holders.append("boneyard" if variant.drawing is not None else "sleepers")
    fixed = [0] * len(holders)
    for s in range(n):
        if record or s == viewer:
            fixed[s] = initial.hands[s] & ~played[s]
    holder = shown.holder
    if holder is not None and not holder[1] & on_table:
        fixed[holder[0]] |= holder[1]         # the leader announced it (or handed the lead for it)
    for s, bit in _exposed(rep, seen):
        if not bit & on_table and not any(bit & fixed[h] for h in range(n) if h != s):
            fixed[s] |= bit                   # it lies face up on the table (Domino Whist §8)
    room = [counts[s] - fixed[s].bit_count() for s in range(n)] + ([stock] if stock > 0 else [])
    known = on_table
    for mask in fixed:
        known |= mask
    unseen = tuple(tiles_of(every & ~known, initial.max_pip))
    allowed = []
    for tile in unseen:
        bits = 0
        for h in range(len(holders)):
            if room[h] > 0 and not (h < n and lacks[h] & tile.bit):
                bits |= 1 << h
        allowed.append(bits)
    return View(viewer, seen, tuple(holders), tuple(fixed), tuple(room), unseen, tuple(allowed),
                tuple(played), n, whole=whole_hands(rep, seen), must=_goes_on(rep, seen))


def _goes_on(rep, seen: int) -> tuple[int, int, int] | None:
    """What the next move seen shows of the hands (:attr:`View.must`): the player who moves again
    after his play holds a tile that fits (:func:`moves_again`), unless the hand is over (nobody holds one: the
    passes written after that are no error, in Hungarian also once a player is out). That the record
    goes on shows nothing more: in Hungarian, once a player is out, the others play on while one of them can
    (004), but the passes written after nobody can play are no error (docs/variants.md), so the next entry named
    may be such a pass, and who moves next does not show that the hand is not over."""
    n = len(rep.players)
    again = moves_again(rep, seen)
    if again is not None:
        return 1 << again[0], again[1], (1 << n) - 1
    return None


def _exposed(rep, seen: int) -> list[tuple[int, int]]:
    """The tiles lying face up by the time of move ``seen`` (Domino Whist §8, the ``Exposed`` tag:
    "so muss dieser Stein offen auf dem Tisch liegen bleiben"): (holder, tile bit) each."""
    if not rep.variant.irregularities or "Exposed" not in rep.game.tags:
        return []
    from ..rules.irregularities import exposed_tiles

    rounds = [st.entry.round for st in rep.steps[:seen + 1] if st.entry.round is not None]
    initial = rep.initial
    return [(s, tile.bit) for s, tile, row in exposed_tiles(rep.game, rep.players)
            if (not row or any(r >= row for r in rounds))
            and (initial.hidden[s] or initial.hands[s] & tile.bit)]     # (else the tag is wrong: reported)
