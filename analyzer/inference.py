"""Inference: who can hold what, from what one viewer has seen.

At any point of a replayed game (``seen``: the moves seen so far, 0 for the deal only), a viewer (a
seat, or the public) knows his own hand, every tile played so far, every pass (the passer held
nothing that fits the numbers then open), the number of tiles in every hand and among the
sleepers, what the lead shows (:func:`higher_doubles`, :func:`lead_holder`, :func:`lead_lacks`)
and the tiles lying face up (Domino Whist's exposed tiles). A *world* is one placement of every
tile he has not seen into the hands and the sleepers that agrees with all of it. Nothing later in
the record is used, nor that the hand went on after a pass (nobody sees a block).

Counting: each unseen tile may go to some holders (a pass rules a holder out for every tile
carrying an open number) and each holder has a fixed room. The worlds are counted exactly by a
dynamic program. Tiles allowed in the same holders are alike, so the count fills the holders one
at a time from classes of such tiles (its state: how many of each class are left), which gives the
count and the exact probability of every tile in every holder. A program over the tiles one by one
(its state: the room left in each holder) gives exact uniform sampling without rejection (each
tile's holder drawn with the weight of the worlds that complete it) and lists every world when
there are few.

This module knows nothing of the search: a world is plain data (a bit mask per holder) and
:meth:`View.deal` turns it into the hands as dealt, for whoever wants to solve it.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from .diagnostics import DominoError
from .position import Position, mask_of, tiles_of
from .rules.ending import position_for
from .placements import InferenceUnsupported, _Heavy, _Split, _Tally
from .rules.policies import Dealing, LeadRequirement, Opening
from .tiles import Tile

__all__ = ["View", "Worlds", "NoWorld", "InferenceUnsupported", "view_at", "worlds_at", "world_position", "holds_table"]

PUBLIC = None


class NoWorld(DominoError):
    """The record's facts admit no world: a move contradicts what earlier moves proved."""

    def __init__(self, message: str, step: int | None = None, line: int | None = None):
        super().__init__(message)
        self.step = step
        self.line = line


@dataclass(frozen=True)
class View:
    """What one viewer knows after ``seen`` moves.

    ``holders`` names each place a tile can be: the players in seat order, then ``"sleepers"`` (or
    ``"boneyard"``) when tiles are left over. ``fixed[h]``: tiles the viewer knows are in holder ``h``
    now; ``room[h]``: how many more tiles it holds that he has not seen. ``unseen``: those tiles;
    ``allowed[i]``: the holders (a bit per holder index) ``unseen[i]`` may be in. ``played[s]``: the
    tiles seat ``s`` played so far, which together with his tiles now make up his deal."""

    viewer: int | None
    seen: int
    holders: tuple[str, ...]
    fixed: tuple[int, ...]
    room: tuple[int, ...]
    unseen: tuple[Tile, ...]
    allowed: tuple[int, ...]
    played: tuple[int, ...]
    players: int
    gone: int = 0                    # unseen tiles that are no longer held (played: see analyzer.boneyard)
    whole: WholeHands | None = None  # what the rules say of whole hands dealt (None: nothing beyond single tiles)

    def deal(self, world: tuple[int, ...]) -> tuple[int, ...]:
        """The hands as dealt (a mask per seat) in ``world``."""
        return tuple(world[s] | self.played[s] for s in range(self.players))

    def order(self, world) -> tuple[Tile, ...] | None:
        """The boneyard's order in ``world`` (None: a game without draws, where no order is drawn)."""
        return None

    def worlds(self) -> Worlds:
        """Every world of this view."""
        return Worlds(self)

    def places(self) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
        """Where the viewer says a tile is: the names, the tiles he knows are in each, and for each
        holder of the counting the place it fills (here the holders themselves)."""
        return self.holders, self.fixed, tuple(range(len(self.holders)))


@dataclass(frozen=True)
class WholeHands:
    """What the rules say of whole hands dealt: the seat that led is one they let lead
    (:meth:`Opening.dealt_leaders`), and under a forced re-deal no hand played held that many doubles."""

    players: int
    max_pip: int
    leader: int | None = None
    opening: Opening | None = None
    requirement: LeadRequirement | None = None
    redeal: Dealing | None = None

    @property
    def by_doubles(self) -> bool:                  # they look at the doubles dealt only
        return self.leader is None or (not self.opening.heaviest_hand and self.requirement.holder_of.is_double)

    def allows(self, dealt: tuple[int, ...]) -> bool:
        """Whether the hands ``dealt`` (a mask per seat) agree with these rules."""
        hands = [set(tiles_of(mask, self.max_pip)) for mask in dealt[:self.players]]
        if self.redeal is not None and any(self.redeal.redeal_due(hand) for hand in hands):
            return False
        if self.leader is None:
            return True
        seats = self.opening.dealt_leaders(hands, self.requirement)
        return seats is None or self.leader in seats


def whole_hands(rep, seen: int) -> WholeHands | None:
    """The :class:`WholeHands` facts of the first ``seen`` moves of ``rep`` (None: none)."""
    variant, n, dealing = rep.variant, len(rep.players), rep.variant.dealing
    redeal = dealing if dealing.redeal and dealing.forced and "Redeal" not in rep.game.tags else None
    lead, leader, req = _lead(rep, max(seen, 1)), None, None       # who leads is known before he does
    if lead is not None and "LeadFrom" not in rep.game.tags:
        req = variant.opening.requirement(rep.game.number, rep.lead)
        weighed = variant.opening.heaviest_hand or (req.or_highest and not dealing.all_dealt(n))
        leader = lead.seat if weighed else None
    return None if redeal is None and leader is None else WholeHands(n, dealing.max_pip, leader, variant.opening,
                                                                     req, redeal)


class Worlds:
    """Every world of a :class:`View`: counted, weighed tile by tile, sampled or listed.

    Most facts are per tile (passes, the lead, the sizes of hands), so the worlds are the dynamic
    program's. A pass does not show that the hand was not blocked before it: players cannot see a
    block, they pass until every one has passed (000: "ein gesperrtes Spiel - das ist ein Spiel, bei
    dem vier Spieler nacheinander passen"), so a deal in which the hand was already blocked is one the
    passer and the others cannot yet tell apart (the replay takes such passes as the block's).

    Rules on whole hands (:class:`WholeHands`) are no per-tile fact: where they look at the doubles
    only (a forced re-deal, the highest double dealt leading), :class:`_Split` counts, weighs, draws
    and lists the worlds; the heaviest hand leading (Hungarian), :class:`_Heavy`. Both are exact.
    """

    def __init__(self, view: View):
        self.view = view
        self._base = _Tally(view.unseen, view.allowed, view.room)
        self.orders = 1                  # the worlds each placement of the program stands for
        self.count = self._base.count
        whole = view.whole
        if whole is not None:
            try:
                self._base = _Split(view, self._allows, self._base) if whole.by_doubles else _Heavy(view, whole)
            except InferenceUnsupported:
                self.view = dataclasses.replace(view, whole=None)
            self.count = self._base.count

    def _allows(self, world: tuple[int, ...]) -> bool:
        return self.view.whole.allows(View.deal(self.view, world))      # (the masks, also of a draw game)

    def probabilities(self) -> dict[str, dict[Tile, Fraction]]:
        """The exact probability of every tile being in every holder (tiles the viewer saw there: 1)."""
        view = self.view
        names, known, owner = view.places()
        out: dict[str, dict[Tile, Fraction]] = {name: {} for name in names}
        for h, name in enumerate(names):
            for t in tiles_of(known[h]):
                out[name][t] = Fraction(1)
        if not self.count:
            return out
        count = self.count // self.orders
        weights = self._base.weights()
        for i, tile in enumerate(view.unseen):
            if tile.bit & view.gone:
                continue
            for h, w in enumerate(weights[i]):
                if w:
                    name = names[owner[h]]
                    out[name][tile] = out[name].get(tile, 0) + Fraction(w, count)
        return out

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world drawn uniformly (a mask per holder)."""
        if not self.count:
            raise NoWorld("no world fits what the viewer has seen")
        return self._base.sample(rng, self.view.fixed)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every world, each once."""
        if self.count:
            yield from self._base.each(self.view.fixed)


def view_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> View:
    """What ``viewer`` (a seat, or None for the public) knows after the first ``seen`` moves of the
    replayed game ``rep`` (an :class:`analyzer.replay.Replay`). ``record``: the record's own
    knowledge instead (every hand it shows, fully or partly).

    Raises :class:`NoWorld` when a move before ``seen`` contradicts an earlier pass. In a draw game a
    viewer's worlds are its deals and boneyard orders (:func:`analyzer.boneyard.draw_view`); the
    record's own (``record``) are not listed there: :class:`InferenceUnsupported`."""
    variant = rep.variant
    if variant.drawing is not None:
        if record:
            raise InferenceUnsupported("the record's own worlds are not listed for draw games")
        from .boneyard import draw_view
        return dataclasses.replace(draw_view(rep, seen, viewer), whole=whole_hands(rep, seen))
    n = len(rep.players)
    initial: Position = rep.initial
    every = mask_of(variant.dealing.tiles)
    played = [0] * n
    counts = [initial.count(s) for s in range(n)]
    lacks = [0] * n                      # a mask per seat of the tiles his passes rule out
    passes: list[tuple[int, int, str]] = []      # (seat, tiles ruled out, what proved it)
    runs = variant.turns == "run"
    last = None                          # the move before: a run ends when the turn passes after a play

    def run_ended(step, fit: int) -> None:
        # Hungarian (004): a player plays as many tiles as he can, so when the turn passes after his
        # play he held no tile that could be laid then
        if runs and last is not None and last.seat != step.seat and last.move.is_play and fit:
            passes.append((last.seat, fit, f"the end of {rep.players[last.seat]}'s run before {_describe(rep, step)}"))
            lacks[last.seat] |= fit

    for j, step, _pos, fit in _moves_seen(rep, seen):
        move, seat = step.move, step.seat
        run_ended(step, fit)
        if move.tile is not None:
            if lacks[seat] & move.tile.bit:
                proof = next(what for s_, mask, what in passes if s_ == seat and mask & move.tile.bit)
                raise NoWorld(f"{rep.players[seat]} plays {move.tile} at {_describe(rep, step)}, but {proof} proved that "
                              "hand held no tile that could be played then: no deal agrees with the record", step.index,
                              step.entry.pos.line or None)
            played[seat] |= move.tile.bit
            counts[seat] -= 1
        elif fit:
            passes.append((seat, fit, f"{rep.players[seat]}'s pass at {_describe(rep, step)}"))
            lacks[seat] |= fit
        last = step
    if runs and last is not None and seen < len(rep.steps) and rep.steps[seen].move is not None:
        after = rep.position_at(seen)    # the player to move now: the turn has passed to him
        run_ended(rep.steps[seen], _fitting(after, variant) if after.ends is not None else 0)
    on_table = 0
    for mask in played:
        on_table |= mask
    higher = higher_doubles(rep, seen)
    no_double = lead_lacks(rep, seen)
    for s in range(n):
        lacks[s] |= higher | no_double.get(s, 0)
    stock = len(variant.dealing.tiles) - sum(initial.count(s) for s in range(n))
    holders = list(rep.players)
    if stock > 0:
        holders.append("boneyard" if variant.drawing is not None else "sleepers")
    fixed = [0] * len(holders)
    for s in range(n):
        if record or s == viewer:
            fixed[s] = initial.hands[s] & ~played[s]
    holder = lead_holder(rep, seen)
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
                tuple(played), n, whole=whole_hands(rep, seen))


def _moves_seen(rep, seen: int) -> Iterator[tuple[int, object, Position, int]]:
    """Each move of the first ``seen`` steps: ``(j, step, position before it, tiles that could be
    laid then)``; the position goes on past the move once the caller has looked."""
    pos = rep.initial.copy()
    for j, step in enumerate(rep.steps[:seen]):
        if step.move is None or step.seat is None:
            continue
        pos.turn = step.seat
        yield j, step, pos, _fitting(pos, rep.variant) if pos.ends is not None else 0
        pos.push(step.move)


def higher_doubles(rep, seen: int) -> int:
    """The doubles no hand was dealt: those above a double led (in the first ``seen`` moves) as the
    highest one dealt."""
    lead = next((st for st in rep.steps[:seen] if st.move is not None and st.move.is_play), None)
    op = rep.variant.opening
    if lead is None or not lead.move.tile.is_double or not (
            op.highest_double or (op.first_highest and rep.game.number == 1 and rep.lead is None)):
        return 0
    return mask_of(t for t in rep.variant.dealing.tiles if t.is_double and t > lead.move.tile)


def _exposed(rep, seen: int) -> list[tuple[int, int]]:
    """The tiles lying face up by the time of move ``seen`` (Domino Whist §8, the ``Exposed`` tag:
    "so muss dieser Stein offen auf dem Tisch liegen bleiben"): (holder, tile bit) each."""
    if not rep.variant.irregularities or "Exposed" not in rep.game.tags:
        return []
    from .rules.irregularities import exposed_tiles

    rounds = [st.entry.round for st in rep.steps[:seen + 1] if st.entry.round is not None]
    initial = rep.initial
    return [(s, tile.bit) for s, tile, row in exposed_tiles(rep.game, rep.players)
            if (not row or any(r >= row for r in rounds))
            and (initial.hidden[s] or initial.hands[s] & tile.bit)]     # (else the tag is wrong: reported)


def _lead(rep, seen: int):
    return next((st for st in rep.steps[:seen] if st.move is not None and st.move.is_play), None)


def lead_holder(rep, seen: int) -> tuple[int, int] | None:
    """The seat the lead (in the first ``seen`` moves) shows holds a tile he did not lead, and that
    tile (a bit): where the rules have the holder of a tile lead with any tile (002: "In informeller
    Runde kann der Besitzer der [6-6] ansagen, dass er die Doppelsechs hat und dann einen beliebigen
    Stein spielen"; a match's game led by the [6-6] holder), everybody knows the leader holds it, or,
    when he handed the lead to his partner (``LeadFrom``), the one who handed it. None when the lead
    shows nothing more than the tile led."""
    lead = _lead(rep, seen)
    req = rep.variant.opening.requirement(rep.game.number, rep.lead)
    if lead is None or req.holder_of is None or req.tile is not None:
        return None
    if req.or_highest and not rep.variant.dealing.all_dealt(len(rep.players)):
        return None                      # it may lie in the boneyard: then the highest double dealt leads
    seat = lead.seat
    giver = rep.game.tags.get("LeadFrom")
    if giver is not None:
        if giver.strip() not in rep.players:
            return None
        seat = rep.players.index(giver.strip())
    return seat, req.holder_of.bit


def lead_lacks(rep, seen: int) -> dict[int, int]:
    """The tiles the lead (in the first ``seen`` moves) shows a seat was not dealt: where every hand
    opens with a double unless the leading side holds none (000: "dass jedes Spiel mit einem Doppel
    beginnen muss, es sei denn, dass keiner der Spieler des beginnenden Spiels ein solches hat"), a
    lead that is no double shows that neither the leader nor his partner holds one."""
    lead = _lead(rep, seen)
    if (lead is None or not rep.variant.opening.double or lead.move.tile.is_double
            or "LeadFrom" in rep.game.tags or rep.variant.opening.requirement(rep.game.number, rep.lead).tile is not None):
        return {}
    doubles = mask_of(t for t in rep.variant.dealing.tiles if t.is_double)
    teams = rep.variant.seating.teams
    return {s: doubles for s in range(len(rep.players)) if teams[s] == teams[lead.seat]}


def _fitting(pos: Position, variant) -> int:
    """The tiles of the set that could be laid on ``pos`` now (whoever held them)."""
    return mask_of(t for t in variant.dealing.tiles if pos.placements(t))


def worlds_at(rep, seen: int, viewer: int | None = PUBLIC, *, record: bool = False) -> Worlds:
    """The worlds of :func:`view_at`; :class:`NoWorld` (naming the last move seen) when there are none."""
    worlds = view_at(rep, seen, viewer, record=record).worlds()
    if not worlds.count:
        where = "the deal" if seen == 0 else _describe(rep, rep.steps[seen - 1])
        step = rep.steps[seen - 1] if seen else None
        proofs = "a pass or a draw" if rep.variant.drawing is not None else "a pass"
        raise NoWorld(f"no deal agrees with the record up to {where}: the tiles left cannot be placed in the "
                      f"hands without contradicting {proofs}", None if step is None else step.index,
                      None if step is None else step.entry.pos.line or None)
    return worlds


def world_position(rep, deal: tuple[int, ...], seen: int, order: tuple[Tile, ...] | None = None) -> Position:
    """The position after the first ``seen`` moves of ``rep`` in the world dealt ``deal`` (in a draw
    game, with its boneyard in ``order``: the k-th draw takes ``order[k]``)."""
    variant = rep.variant
    initial = rep.initial
    n = len(rep.players)
    pos = position_for(variant, [tiles_of(deal[s], initial.max_pip) for s in range(n)], initial.turn,
                       max_pip=initial.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = initial.opening
    if order is None:
        return dataclasses.replace(rep, initial=pos).position_at(seen)
    drawn = 0
    for step in rep.steps[:seen]:
        move = step.move
        if move is None:
            continue
        if move.draw:
            move = dataclasses.replace(move, tile=order[drawn])
            drawn += 1
        pos.turn = step.seat
        pos.push(move)
    if seen < len(rep.steps) and rep.steps[seen].seat is not None and pos.outcome() is None:
        pos.turn = rep.steps[seen].seat
    return pos


def _line(step) -> str:
    return f" (line {step.entry.pos.line})" if step.entry.pos.line else ""


def _describe(rep, step) -> str:
    return f"move {step.index + 1} ({step.entry.player} {step.entry.text}{_line(step)})"


def holds_table(rep, seen: int, viewer: int | None = PUBLIC) -> tuple[int, dict[str, dict[str, float]]]:
    """The number of worlds after ``seen`` moves for ``viewer`` and, per holder, every tile he may
    hold with its probability (as plain data: holder -> tile text -> probability)."""
    worlds = worlds_at(rep, seen, viewer)
    table = {holder: {str(t): float(p) for t, p in sorted(probs.items())}
             for holder, probs in worlds.probabilities().items()}
    return worlds.count, table


def decided_result(rep, limit: int = 1000):
    """The result of a finished hand whose record hides tiles still held at the end, when every deal
    the record allows (at most ``limit`` of them) gives the same winner and points; else None."""
    from .replay import hand_facts

    if rep.outcome is None or len(rep.players) != rep.variant.players:
        return None
    seen = len(rep.steps)
    try:
        worlds = worlds_at(rep, seen, record=True)
    except (NoWorld, InferenceUnsupported):
        return None
    if worlds.count > limit:
        return None
    leader = next((st.seat for st in rep.steps if st.move is not None and st.move.tile is not None), 0)
    found = None
    for world in worlds:
        pos = world_position(rep, worlds.view.deal(world), seen)
        result = rep.variant.hand_result(hand_facts(pos, rep.outcome.termination, rep.outcome.seat, leader,
                                                    rep.scores))
        if found is not None and (result.winner, result.points) != (found.winner, found.points):
            return None
        found = result
    return found
