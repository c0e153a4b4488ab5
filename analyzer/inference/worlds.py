"""The worlds one viewer cannot tell apart, as data: what he knows (:class:`View`), the rules on
whole hands (:class:`WholeHands`), and the worlds counted, weighed, drawn and listed
(:class:`Worlds`); with the facts every view reads off the moves seen (see :mod:`analyzer.inference`)."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..diagnostics import DominoError
from ..i18n import gettext
from ..position import Position, mask_of, tiles_of
from ..rules.lead import LeadGame, Revealed, dealt_leaders, highest_leads, requirement, reveals, weighs_whole_hands
from ..rules.policies import Dealing, LeadRequirement, Opening
from ..tiles import PASS, Tile
from .placements import Cases, DoublesFirst, HeaviestFirst, InferenceUnsupported, Placements
from .meter import current_meter

__all__ = ["PUBLIC", "View", "Worlds", "WholeHands", "NoWorld", "whole_hands", "moves_seen", "fitting",
           "describe_step", "first_lead", "laid_at_start", "lead_revealed", "moves_again", "fitting_now", "highest_cases"]

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
    gone: int = 0                    # unseen tiles that are no longer held (played: see analyzer.inference.boneyard)
    whole: WholeHands | None = None  # what the rules say of whole hands dealt (None: nothing beyond single tiles)
    # the player who moves again after his play holds a tile that fits (:func:`moves_again`): at least
    # one of the tiles ``must[1]`` (a mask) lies in the holders ``must[0]`` (a bit per holder index),
    # unless none lies in the hands ``must[2]`` (the hand is blocked: he passes, as everyone does then)
    must: tuple[int, int, int] | None = None

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
    (:func:`analyzer.rules.lead.dealt_leaders`), and under a forced re-deal no hand played held that many doubles."""

    players: int
    max_pip: int
    leader: int | None = None
    opening: Opening | None = None
    requirement: LeadRequirement | None = None
    redeal: Dealing | None = None
    highest_first: bool = False      # the highest double dealt opens, and the lead is not seen yet

    @property
    def by_doubles(self) -> bool:                  # they look at the doubles dealt only
        return self.leader is None or self.highest_first or (not self.opening.heaviest_hand
                                                             and self.requirement.holder_of.is_double)

    def allows(self, dealt: tuple[int, ...]) -> bool:
        """Whether the hands ``dealt`` (a mask per seat) agree with these rules."""
        if self.redeal is not None:
            due = self.redeal.redeal_due_mask          # (asked of every deal weighed: a plain loop)
            for mask in dealt[:self.players]:
                if due(mask):
                    return False
        if self.leader is None:
            return True
        hands = [set(tiles_of(mask, self.max_pip)) for mask in dealt[:self.players]]
        seats = dealt_leaders(self.opening, hands, self.requirement, highest_first=self.highest_first)
        return seats is None or self.leader in seats


def whole_hands(rep, seen: int) -> WholeHands | None:
    """The :class:`WholeHands` facts of the first ``seen`` moves of ``rep`` (None: none; a game set up from a
    position has no deal to weigh)."""
    if getattr(rep, "setup_lacks", None) is not None:
        return None
    variant, n, dealing = rep.variant, len(rep.players), rep.variant.dealing
    redeal = dealing if dealing.redeal and dealing.forced and "Redeal" not in rep.game.tags else None
    lead, leader, req = first_lead(rep, max(seen, 1)), None, None       # who leads is known before he does
    # before the lead the leader holds the highest double dealt; once it is seen, what it shows is per tile
    highest = first_lead(rep, seen) is None and highest_leads(variant.opening, rep.game.number, rep.lead)
    if lead is not None and "LeadFrom" not in rep.game.tags:
        req = requirement(variant.opening, rep.game.number, rep.lead)
        leader = lead.seat if weighs_whole_hands(variant.opening, req, dealing, n, highest_first=highest) else None
    return None if redeal is None and leader is None else WholeHands(n, dealing.max_pip, leader, variant.opening,
                                                                     req, redeal, highest and leader is not None)


class Worlds:
    """Every world of a :class:`View`: counted, weighed tile by tile, sampled or listed.

    Most facts are per tile (passes, the lead, the sizes of hands), so the worlds are the dynamic
    program's. A pass does not show that the hand was not blocked before it: players cannot see a
    block, they pass until every one has passed (000: "ein gesperrtes Spiel - das ist ein Spiel, bei
    dem vier Spieler nacheinander passen"), so a deal in which the hand was already blocked is one the
    passer and the others cannot yet tell apart (the replay takes such passes as the block's).

    Rules on whole hands (:class:`WholeHands`) are no per-tile fact: where they look at the doubles
    only (a forced re-deal, the highest double dealt leading), :class:`DoublesFirst` counts, weighs, draws
    and lists the worlds; the heaviest hand leading (Hungarian), :class:`HeaviestFirst`. Both are exact (but for
    each tile's weights where Kozel's hands may make a suit in more than ``placements.SUIT_EVENTS`` ways, the
    public view early in a hand whose hands are all unknown: there a suit is judged on the tiles in view).
    """

    def __init__(self, view: View):
        self.view = view
        self._base = Placements(view.unseen, view.allowed, view.room)
        self.orders = 1                  # the worlds each placement of the program stands for
        self.count = self._base.count
        whole = view.whole
        if whole is not None and whole.highest_first and whole.redeal is None:
            self._base = Cases(view.unseen, highest_cases(view, whole.leader), view.room)
            self.count = self._base.count
        elif whole is not None:
            try:
                self._base = DoublesFirst(view, self._allows, self._base) if whole.by_doubles else HeaviestFirst(view, whole)
            except InferenceUnsupported:
                self.view = dataclasses.replace(view, whole=None)
            self.count = self._base.count
        # "holds at least one of, unless blocked": every world, less those in which he holds none, plus
        # those in which no hand holds one (counted alike, by the same program)
        self._without: list[tuple[int, Worlds]] = []
        if view.must is not None and not any(f & view.must[1] for h, f in enumerate(view.fixed) if view.must[0] >> h & 1):
            holders, tiles, hands = view.must
            if any(f & tiles for h, f in enumerate(view.fixed) if hands >> h & 1):
                hands = 0                # a hand he saw holds one: it is not blocked
            for sign, out in ((-1, holders), (1, hands)):
                if out:
                    worlds = Worlds(dataclasses.replace(self.view, must=None, allowed=tuple(
                        a & ~out if t.bit & tiles else a for t, a in zip(view.unseen, view.allowed))))
                    self._without.append((sign, worlds))
                    self.count += sign * worlds.count

    def _kept(self, world: tuple[int, ...]) -> bool:
        """Whether ``world`` (a mask per holder) keeps the fact that the player moving again holds a
        tile that fits (or the hand is blocked)."""
        if self.view.must is None:
            return True
        holders, tiles, hands = self.view.must
        return (any(world[h] & tiles for h in range(len(world)) if holders >> h & 1)
                or (hands and not any(world[h] & tiles for h in range(len(world)) if hands >> h & 1)))

    def _weights(self) -> list[list[int]]:
        weights = self._base.weights()
        for sign, worlds in self._without:
            weights = [[w + sign * x for w, x in zip(row, other)] for row, other in zip(weights, worlds._base.weights())]
        return weights

    def _allows(self, world: tuple[int, ...]) -> bool:
        # (View.deal: the masks, also of a draw game; asked of every deal weighed, so written out here)
        view = self.view
        return view.whole.allows(tuple(map(int.__or__, world[:view.players], view.played)))

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
        weights = self._weights()
        # (Kozel's suits past SUIT_EVENTS pairs: the weights are over the worlds whose suits are judged in view only,
        # so each tile's are divided by their own sum: see DoublesFirst.weights)
        rows = not getattr(self._base, "placed_whole", True)
        for i, tile in enumerate(view.unseen):
            if tile.bit & view.gone:
                continue
            for h, w in enumerate(weights[i]):
                if w:
                    name = names[owner[h]]
                    out[name][tile] = out[name].get(tile, 0) + Fraction(w, sum(weights[i]) if rows else count)
        return out

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world drawn uniformly (a mask per holder)."""
        if not self.count:
            raise NoWorld(gettext("no world fits what the viewer has seen"))
        while True:                      # (a world without a tile that fits is drawn again: still uniform)
            world = self._base.sample(rng, self.view.fixed)
            if self._kept(world):
                return world

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """Every world, each once."""
        if self.count:
            meter = current_meter()          # (each world listed is a step of a metered caller's: see .meter)
            for world in self._base.each(self.view.fixed):
                if meter is not None:
                    meter.charge()
                if self._kept(world):
                    yield world


def highest_cases(view: View, leader: int) -> list[tuple[int, ...]]:
    """The holders each unseen tile may go to in each case of "``leader`` holds the highest double
    dealt, or no hand holds a double" (disjoint): for each double, he holds it and no hand holds a
    higher one; and no hand holds a double."""
    hands = (1 << view.players) - 1
    held = 0                                  # the doubles a hand is seen to hold
    for h in range(view.players):
        held |= view.fixed[h]
    doubles = sorted({t for t in view.unseen if t.is_double} | {t for t in tiles_of(held) if t.is_double}, reverse=True)
    cases, above = [], 0
    for top in doubles + [None]:
        if not held & above and (top is None or not top.bit & held or top.bit & view.fixed[leader]):
            cases.append(tuple(a & ~hands if t.bit & above else a & (1 << leader) if top is not None and t == top
                               else a for t, a in zip(view.unseen, view.allowed)))
        if top is not None:
            above |= top.bit
    return cases


def moves_seen(rep, seen: int) -> Iterator[tuple[int, object, Position, int]]:
    """Each move of the first ``seen`` steps: ``(j, step, position before it, tiles that could be
    laid then)``; the position goes on past the move once the caller has looked."""
    pos = rep.initial.copy()
    for j, step in enumerate(rep.steps[:seen]):
        if step.move is None and step.seat is not None and step.entry.is_pass:
            # a pass after a block: the replay does not play it, but nobody sees a block (000: "ein
            # gesperrtes Spiel - das ist ein Spiel, bei dem vier Spieler nacheinander passen"), so it
            # is a pass like any other: the passer holds nothing for the numbers open
            yield j, dataclasses.replace(step, move=PASS), pos, fitting(pos, rep.variant) if pos.ends is not None else 0
            continue
        if step.move is None or step.seat is None:
            continue
        pos.turn = step.seat
        yield j, step, pos, fitting(pos, rep.variant) if pos.ends is not None else 0
        pos.push(step.move)


def fitting(pos: Position, variant) -> int:
    """The tiles of the set that could be laid on ``pos`` now (whoever held them)."""
    return mask_of(t for t in variant.dealing.tiles if pos.placements(t))


def describe_step(rep, step) -> str:
    """A move as a reason names it, in the active language: ``move 3 (C [3-5] (line 13))``."""
    if step.entry.pos.line:
        return gettext("move {number} ({player} {move} (line {line}))", number=step.index + 1,
                       player=step.entry.player, move=step.entry.text, line=step.entry.pos.line)
    return gettext("move {number} ({player} {move})", number=step.index + 1, player=step.entry.player,
                   move=step.entry.text)


def moves_again(rep, seen: int) -> tuple[int, int] | None:
    """The player who, right after his play (move ``seen``), moves again, and the tiles that fit then
    (a mask), where that shows he held one of them: he goes on with his run (Hungarian, 004: "so viele
    Steine wie möglich") or, as the opener, adds a tile to his lead (004: "darf, wenn er einen passenden
    hat, auch diesen anlegen"). The record names who moves next, as it names who leads before he
    does. None where nobody moves again."""
    if not 0 < seen < len(rep.steps):
        return None
    last, step = rep.steps[seen - 1], rep.steps[seen]
    if (last.move is None or not last.move.is_play or step.move is None or not step.move.is_play
            or step.seat != last.seat):
        return None
    return step.seat, fitting_now(rep, seen)


def fitting_now(rep, seen: int) -> int:
    """The tiles not laid yet that fit the layout after the first ``seen`` moves of ``rep`` (a mask)."""
    laid = mask_of(st.move.tile for st in rep.steps[:seen] if st.move is not None and st.move.is_play)
    return fitting(rep.position_at(seen), rep.variant) & ~laid


def first_lead(rep, seen: int):
    """The step of the first tile led in the first ``seen`` moves (None: nobody has led yet)."""
    return next((st for st in rep.steps[:seen] if st.move is not None and st.move.is_play), None)


def laid_at_start(initial: Position) -> int:
    """The tiles lying on the table of a replay's first position (a mask): a tile turned up from the boneyard
    (the Starter tag), the line of a game set up from a position; 0 for a deal."""
    return mask_of(move.tile for move, *_ in initial.history if move.tile is not None)


def lead_revealed(rep, seen: int) -> Revealed:
    """What the lead (in the first ``seen`` moves) shows everyone (:func:`analyzer.rules.lead.reveals`); in a
    game set up from a position, no lead: what the passes before it proved (the Lacks tag)."""
    if getattr(rep, "setup_lacks", None) is not None:
        lacks: dict[int, int] = {}
        for seat, numbers in rep.setup_lacks:
            lacks[seat] = lacks.get(seat, 0) | mask_of(t for t in rep.variant.dealing.tiles
                                                       if any(t.matches(x) for x in numbers))
        return Revealed(lacks=lacks)
    if laid_at_start(rep.initial):
        # a tile turned up from the boneyard opens the line (the Starter tag): nobody leads from his hand, and
        # the first tile played from one shows nothing of the lead rules
        return reveals(rep.variant, LeadGame(rep.game.number, rep.players, rep.lead), None, None)
    lead = first_lead(rep, max(seen, 1))      # who leads is known before he does; what he leads is not
    return reveals(rep.variant, LeadGame(rep.game.number, rep.players, rep.lead), None if lead is None else lead.seat,
                   lead.move.tile if lead is not None and seen else None, rep.game.tags.get("LeadFrom"))
