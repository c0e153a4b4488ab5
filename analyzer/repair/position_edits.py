"""The candidate edits of the repair search's position path: for each place at or before the first
error, the mover's legal entries there (inserted, or written over the entry there), the edits of the
notation of draws, claims, arms and Muggins calls, swaps, deletions, the deal edits; and where the
last edit can still remove the error (:meth:`PositionEdits.focus`, :func:`may_cure`, :func:`clashes`)."""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..position import Position
from ..record import MoveEntry
from ..tiles import Tile
from ..rules.codes import Code
from .deal import DealEdits
from .edits import COSTS, Trial, entry_text, tile_slip_cost
from .positional import Entry, PositionChecker
from .setting import Setting
from ..rules.modes import Termination


class _Narrow(NamedTuple):
    """What an edit away from the focus of the last edit may be: its groups (``_FOCUS_GROUPS``),
    and for a tile error the tile, the player and the entries it is about (None: any)."""

    groups: frozenset
    tile: Tile | None
    seat: int | None
    cells: list | None


# tile errors only an edit at a few places can remove (see PositionEdits.focus)
_LOCAL_TILE = frozenset({Code.UNKNOWN_PLAYER, Code.TILE_FOREIGN, Code.TILE_ALREADY_PLAYED, Code.TILE_NOT_HELD,
                         Code.DRAW_NOT_IN_BONEYARD})


# the groups of edits that can cure an error away from its focus (see PositionEdits.focus and
# may_cure, which then decides exactly): a move out of turn needs the number of plays and passes
# changed, a layout error the plays, a tile not held a draw of it, any other tile error a swap
_FOCUS_GROUPS = {
    "count": frozenset({"insert-tile", "insert-pass", "delete", "delete-row", "draw-flag", "swap"}),
    "layout": frozenset({"insert-tile", "delete", "delete-row", "change-tile", "draw-flag", "end", "arm", "swap"}),
    Code.TILE_NOT_HELD: frozenset({"insert-draw", "draw-tile", "change-player", "swap", "delete-row"}),
    "tile": frozenset({"swap", "delete-row"}),
}

# errors the layout before the entry decides (see PositionEdits.focus)
_LAYOUT = frozenset({Code.TILE_NO_MATCH, Code.END_MISMATCH, Code.ARM_CLOSED, Code.DOUBLE_SKIPPED, Code.BAD_ARM,
                     Code.WRONG_SCORE})


def _plays(cells: list) -> tuple:
    """The plays among ``cells`` as the layout sees them: tile, open number and arm as written."""
    return tuple((c.entry.tile, c.entry.end, c.entry.arm) for c in cells if c.entry.is_play)


def _advances(m: MoveEntry) -> bool:
    """Whether an entry passes the turn on (a play or a pass; not a draw or a Muggins call)."""
    return not m.draw and m.muggins is None


class PositionEdits:
    """The edits the position path tries at each place, checked by ``checker`` (a :class:`PositionChecker`)."""

    def __init__(self, setting: Setting, checker: PositionChecker, deal_edits: DealEdits):
        self.s = setting
        self.checker = checker
        self.deal_edits = deal_edits
        self.players, self.n = setting.players, setting.n
        self.has_rounds, self.lead_seat = setting.has_rounds, setting.lead_seat

    def deal_candidates(self, trial: Trial, depth: int):
        """The deal edits (see :class:`analyzer.repair.deal.DealEdits`)."""
        if not trial.deal.ok:
            return self.deal_edits.broken(trial.seq, trial.deal, depth)
        return self.deal_edits.in_sound_deal(trial, depth)

    def candidates(self, trial: Trial, min_pos: int, depth: int):
        """As :meth:`LeanEdits.candidates`, for the position path."""
        seq, _, _, L, code = trial
        if min_pos <= -1:
            yield from self.deal_candidates(trial, depth)
        if L < 0:
            return
        clash = clashes(seq) if depth == 1 else (lambda *_: False)
        focus = self.focus(seq, L, code) if depth == 1 else None
        narrow = None
        if focus is not None:         # what an edit away from the focus may be, before may_cure decides
            groups = _FOCUS_GROUPS.get(focus[0], _FOCUS_GROUPS["tile"])
            if focus[0] in ("count", "layout"):
                narrow = _Narrow(groups, None, None, None)
            else:
                narrow = _Narrow(groups, focus[2], focus[3], focus[4])
        for p in range(max(min_pos, 0), L + 1):
            if focus is None or p in focus[1]:
                yield from self.edits_at(trial, p, clash, depth, None)
            else:
                for cand in self.edits_at(trial, p, clash, depth, narrow):
                    if may_cure(focus, seq, p, cand):
                        yield cand

    def focus(self, seq: list, L: int, code: str | None) -> tuple | None:
        """Where and how the last edit can still remove the error at ``L`` (None: any edit before it).

        A tile foreign to the set, a player nobody knows: only an edit at ``L``. A tile played or
        drawn again: an edit at ``L`` or at an earlier entry with that tile. A tile the player does
        not hold: an edit at ``L``, or a draw of it by him (inserted, or a draw of his changed to
        it), or an entry with that tile moved to his column. And everywhere a swap with one of
        those entries, or the deletion of a row that holds one. A move out of turn, where every
        play and pass passes the turn on (no runs, no opener adding to his lead): an edit at ``L``
        or one that changes how many plays and passes come before it (a draw keeps the turn) --
        unless the hand may end earlier and only passes follow, or nobody names the leader. A tile
        that fits no end or arm (or a claim the ends do not give): an edit at ``L`` or one that
        changes the plays before it (their tiles, ends or arms), which alone make the layout --
        draws, passes and claims before it cannot help."""
        if L >= len(seq):
            return None
        c = seq[L]
        if code in _LAYOUT:
            return "layout", {L}, _plays(seq[:L])
        if code == Code.TURN_ORDER:
            if (self.checker.runs or self.s.variant.opening.extra or self.lead_seat is None
                    or all(d.entry.tile is None and not d.entry.draw for d in seq[L:])):
                return None
            return "count", {L}, sum(_advances(d.entry) for d in seq[:L])
        if code not in _LOCAL_TILE:
            return None
        places = {L}
        if code in (Code.TILE_ALREADY_PLAYED, Code.DRAW_NOT_IN_BONEYARD):
            places.update(i for i in range(L) if seq[i].entry.tile == c.entry.tile and seq[i].entry.muggins is None)
        return code, places, c.entry.tile, c.seat, [seq[i] for i in places]

    def edits_at(self, trial: Trial, p: int, clash, depth: int, narrow):
        """Every candidate edit of the ``trial`` at ``p``; ``narrow`` (a _Narrow): only those that may cure an
        error elsewhere (None: all)."""
        seq, deal, frontiers = trial.seq, trial.deal, trial.frontiers
        frontier = frontiers[p]
        groups = narrow.groups if narrow is not None else None
        here = seq[p] if p < len(seq) else None
        over = all(st.over is not None for st in frontier)
        if over or (narrow is not None and narrow.tile is None and narrow.cells is not None):
            opts = []                   # nothing to insert or change to (swaps check their own)
        elif narrow is not None and narrow.tile is not None:
            opts = self.checker.options(frontier, narrow.tile)
        else:
            opts = self.checker.options(frontier)
        if here is not None and not over:
            if here.entry.muggins is not None:
                if groups is None:
                    yield from self.muggins_edits(seq, deal, frontier, p, here)
            else:
                yield from self.changes(trial, opts, p, clash, depth, narrow)
        shown_block = over and all(st.over.termination != Termination.DOMINO for st in frontier)
        if here is not None and not (shown_block and here.entry.is_pass):
            e = here.entry
            if groups is None or "delete" in groups:
                what = "muggins" if e.muggins is not None else "draw" if e.draw else "pass" if e.tile is None else "tile"
                yield (seq[:p] + seq[p + 1:], deal, p,
                       ("delete-move", COSTS[f"delete-move/{what}"], here, entry_text(e), None, None), p)
            if groups is None or "delete-row" in groups:
                yield from self.delete_row(seq, deal, p, here)
        if over:
            return
        for seat, e, points in opts:          # the entry the record dropped
            what = "draw" if e.draw else "pass" if e.tile is None else "tile"
            cost = COSTS[f"insert-move/{what}"]
            if e.draw and self.checker.unseen_draws.get(self.players[seat]) == (e.tile is None):
                cost = COSTS["insert-move/draw-as-written"]     # as the record writes this player's draws
            if (groups is not None and f"insert-{what}" not in groups) or clash(e.tile, seat, p, e.draw):
                continue
            if narrow is not None and narrow.tile is not None and (e.tile, seat) != (narrow.tile, narrow.seat):
                continue
            new = self.inserted(seq, p, seat, e, points)
            yield (seq[:p] + [Entry(seat, new, None)] + seq[p:], deal, p,
                   ("insert-move", cost, here, None, entry_text(new), new.player), p + 1)

    def inserted(self, seq: list, p: int, seat: int, e: MoveEntry, points: int) -> MoveEntry:
        """The entry an insertion writes: in the row of the entry before it (the next row when its
        player comes earlier in the order), claiming what it scores unless a Muggins call follows."""
        rnd = None
        if p > 0 and seq[p - 1].entry.round is not None:
            prev = seq[p - 1]
            rnd = prev.entry.round + (prev.seat is not None and seat < prev.seat)
        elif p < len(seq):
            rnd = seq[p].entry.round
        follows = seq[p].entry.muggins is not None if p < len(seq) else False
        claim = points if points and e.is_play and not follows else None
        return MoveEntry(self.players[seat], e.tile, e.end, round=rnd, draw=e.draw, claim=claim, arm=e.arm)

    def changes(self, trial: Trial, opts, p: int, clash, depth: int, narrow=None):
        """Edits of the ``trial``'s entry at ``p`` (a play, pass or draw) that keep an entry there; under
        ``narrow`` (whose ``opts`` hold only its tile) those it allows."""
        seq, deal, frontier, here = trial.seq, trial.deal, trial.frontiers[p], trial.seq[p]
        e, seat, n = here.entry, here.seat, self.n
        groups = narrow.groups if narrow is not None else None
        turn = frontier[0].pos.turn
        if seat not in self.checker.movers(frontier):
            # the entry belongs to the player on turn; with an edit to spare its move may still be
            # wrong (the next edit, at this same entry, changes it)
            if groups is not None and ("change-player" not in groups or e.tile != narrow.tile):
                return
            fits_here = any(s == turn and (o.tile, o.draw) == (e.tile, e.draw) for s, o, _ in opts)
            if fits_here or depth > 1:
                near = seat is not None and (seat - turn) % n in (1, n - 1)
                new = replace(e, player=self.players[turn])
                yield (seq[:p] + [here._replace(seat=turn, entry=new)] + seq[p + 1:], deal, p,
                       ("change-player", COSTS["change-player/adjacent" if near else "change-player/other"],
                        here, e.player, new.player, None), p + 1 if fits_here else p)
            nxt = seq[p + 1] if p + 1 < len(seq) else None
            if (nxt is not None and nxt.seat == turn and nxt.entry.muggins is None and e.muggins is None
                    and (groups is None or "swap" in groups)):
                # the entry of the player on turn written after this one (the two in the wrong order)
                yield (seq[:p] + [nxt, here] + seq[p + 2:], deal, p,
                       ("swap-order", COSTS["swap-order"], here, entry_text(e), entry_text(nxt.entry), nxt), p + 1)
            return
        mine = [(o, points) for s, o, points in opts if s == seat]
        for o, _ in mine:
            if (o.tile, o.draw) == (e.tile, e.draw) or clash(o.tile, seat, p + 1, o.draw):
                continue
            group = "draw-flag" if o.draw != e.draw else "draw-tile" if e.draw else "change-tile"
            if groups is not None and group not in groups:
                continue
            if o.draw != e.draw:
                if o.tile != e.tile:
                    continue            # a play written for a draw of the same tile, or the reverse
                new = replace(e, draw=o.draw, end=None, arm=None, claim=None if o.draw else e.claim)
                kind, cost = "change-draw", COSTS["change-draw/play"]
            elif e.draw:
                if e.tile is None or o.tile is None:
                    continue
                new = replace(e, tile=o.tile)
                kind, cost = "change-draw", tile_slip_cost(e.tile, o.tile)
            else:
                new = retiled(frontier[0].pos, e, o)
                kind, cost = "change-tile", tile_slip_cost(e.tile, o.tile)
            yield (seq[:p] + [here._replace(entry=new)] + seq[p + 1:], deal, p,
                   (kind, cost, here, entry_text(e), entry_text(new), None), p + 1)
        if groups is None or not groups.isdisjoint(("end", "arm", "claim")):
            yield from self.mends(seq, deal, frontier, p, here, groups)
        if narrow is not None and narrow.cells is not None:
            yield from self.swaps(trial, p, narrow)
        elif groups is None or "swap" in groups:
            yield from self.swaps(trial, p, None, {(o.tile, o.draw) for o, _ in mine})

    def swaps(self, trial: Trial, p: int, narrow, legal=None):
        """Swap the ``trial``'s entry at ``p`` with a later one (of the same player or not) that is legal here:
        with any (``legal``: the (tile, draw) the player may make here) or, under ``narrow``, with
        the entries it names."""
        seq, deal, frontier, here = trial.seq, trial.deal, trial.frontiers[p], trial.seq[p]
        e, seat = here.entry, here.seat
        later = range(p + 1, len(seq)) if narrow is None else sorted(
            j for j in range(p + 1, len(seq)) if any(seq[j] is c for c in narrow.cells))
        for j in later:
            there = seq[j]
            t = there.entry
            if t.muggins is not None or (t.tile, t.draw) == (e.tile, e.draw):
                continue
            if (t.tile, t.draw) not in legal if legal is not None else not self.checker.allows(frontier, seat, t.tile, t.draw):
                continue
            a = replace(e, tile=t.tile, end=t.end, arm=t.arm, draw=t.draw, claim=t.claim, annotation=t.annotation)
            b = replace(t, tile=e.tile, end=e.end, arm=e.arm, draw=e.draw, claim=e.claim, annotation=e.annotation)
            near = j == p + 1 or (self.has_rounds and there.seat == seat and e.round is not None
                                  and t.round == e.round + 1)
            yield (seq[:p] + [here._replace(entry=a)] + seq[p + 1:j] + [there._replace(entry=b)] + seq[j + 1:],
                   deal, p, ("swap-moves", COSTS["swap-moves/adjacent" if near else "swap-moves/other"],
                             here, entry_text(e), entry_text(t), there), p + 1)

    def mends(self, seq, deal, frontier, p, here, groups=None):
        """The same move with its open number (@N), arm (>N) or claim (+N) written right."""
        e = here.entry
        fixes: list[tuple[str, float, MoveEntry]] = []
        if e.end is not None and e.tile is not None and not e.draw and (groups is None or "end" in groups):
            fixes.append(("change-end", COSTS["change-end"], replace(e, end=None)))
        if e.claim is not None and (groups is None or "claim" in groups):
            if not e.is_play:
                fixes.append(("change-claim", COSTS["change-claim"], replace(e, claim=None)))
            else:
                bare = here._replace(entry=replace(e, claim=None))
                for st in frontier:
                    after, _ = self.checker.step(st, bare)
                    if after:
                        pending = after[0].pending
                        points = pending[1] if pending is not None else None
                        if points != e.claim:
                            fixes.append(("change-claim", COSTS["change-claim"], replace(e, claim=points)))
                        break
        pos = frontier[0].pos
        if pos.has_arms and pos.ends is not None and e.is_play and (groups is None or "arm" in groups):
            arms = [k for k in range(1, len(pos.arms) + 1) if pos.arm_problem(k, e.tile) is None
                    and (e.end is None or pos.arms[k - 1].number == e.end)]
            for k in arms + ([None] if e.arm is not None else []):
                if k != e.arm:
                    cost = COSTS["change-arm" if e.arm is not None else "change-arm/add"]
                    fixes.append(("change-arm", cost, replace(e, arm=k)))
        elif pos.ends is not None and e.is_play and e.arm is not None and (groups is None or "arm" in groups):
            # on a line >1 and >2 name its ends (Domino Whist §6): the other end, or none written
            fixes.extend(("change-arm", COSTS["change-arm"], replace(e, arm=k)) for k in (1, 2, None) if k != e.arm)
        for kind, cost, new in fixes:
            yield (seq[:p] + [here._replace(entry=new)] + seq[p + 1:], deal, p,
                   (kind, cost, here, entry_text(e), entry_text(new), None), p + 1)

    def muggins_edits(self, seq, deal, frontier, p, here):
        """A Muggins call for the wrong amount, or written in the wrong player's column."""
        e = here.entry
        pending = next((st.pending for st in frontier if st.pending is not None), None)
        if pending is None:
            return
        scorer, points = pending
        caller = (scorer + 1) % self.n
        if here.seat != caller:
            near = here.seat is not None and (here.seat - caller) % self.n in (1, self.n - 1)
            new = replace(e, player=self.players[caller], muggins=points)
            yield (seq[:p] + [here._replace(seat=caller, entry=new)] + seq[p + 1:], deal, p,
                   ("change-player", COSTS["change-player/adjacent" if near else "change-player/other"],
                    here, e.player, new.player, None), p + 1 if e.muggins == points else p)
        elif e.muggins != points:
            new = replace(e, muggins=points)
            yield (seq[:p] + [here._replace(entry=new)] + seq[p + 1:], deal, p,
                   ("change-muggins", COSTS["change-muggins"], here, entry_text(e), entry_text(new), None), p + 1)

    def delete_row(self, seq, deal, p, here):
        """A numbered row (line) copied twice: all of it goes, one edit."""
        rnd = here.entry.round
        if not self.has_rounds or rnd is None or here.orig is None:
            return
        if p > 0 and seq[p - 1].entry.round == rnd:
            return
        q = p
        while q < len(seq) and seq[q].orig is not None and seq[q].entry.round == rnd:
            q += 1
        if q - p > 1:
            text = ", ".join(f"{c.entry.player} {entry_text(c.entry)}" for c in seq[p:q])
            yield (seq[:p] + seq[q:], deal, p,
                   ("delete-row", COSTS["delete-row"], here, text, None, tuple(c.orig for c in seq[p:q])), p)


def clashes(seq: list):
    """A test for a tile the last edit writes: True when the record has it again from ``start``
    on, which would take an edit of its own (a tile drawn may still be played by its drawer)."""
    later: dict[Tile, list[tuple[int, int | None, bool]]] = {}
    for k, c in enumerate(seq):
        e = c.entry
        if e.tile is not None and e.muggins is None:
            later.setdefault(e.tile, []).append((k, c.seat, e.draw))

    def clash(tile: Tile | None, seat: int, start: int, draw: bool = False) -> bool:
        return tile is not None and any(k >= start and (not draw or d or s != seat)
                                        for k, s, d in later.get(tile, ()))
    return clash


def may_cure(focus: tuple, seq: list, p: int, cand: tuple) -> bool:
    """Whether candidate ``cand`` at ``p`` (not a place of ``focus``) can still remove its error."""
    new_seq, raw = cand[0], cand[3]
    kind = raw[0]
    if focus[0] in ("count", "layout"):
        if kind == "delete-row" and p + len(raw[5]) > min(focus[1]):
            return True                                   # the row holds the entry at fault
        L = min(focus[1]) + len(new_seq) - len(seq)     # where the entry at fault stands now
        if focus[0] == "layout":
            return _plays(new_seq[:L]) != focus[2]
        return sum(_advances(d.entry) for d in new_seq[:L]) != focus[2]
    code, places, tile, seat, cells = focus
    if kind in ("swap-moves", "swap-order"):
        return any(raw[5] is c for c in cells)
    if kind == "delete-row":
        return any(p <= i < p + len(raw[5]) for i in places)
    if code != Code.TILE_NOT_HELD:
        return False
    if kind in ("insert-move", "change-draw"):
        e = new_seq[p]
        return e.seat == seat and e.entry.draw and e.entry.tile == tile
    return kind == "change-player" and raw[2].entry.tile == tile


def retiled(pos: Position, e: MoveEntry, o: MoveEntry) -> MoveEntry:
    """``e`` with the tile of option ``o`` (None: a pass): where ``o`` says which end or arm,
    there; else keeping the open number and arm ``e`` names where they still fit; and its claim."""
    tile = o.tile
    if tile is None:
        return replace(e, tile=None, end=None, arm=None, claim=None)
    if o.end is not None or o.arm is not None:
        return replace(e, tile=tile, end=o.end, arm=o.arm)
    end = e.end if e.end is not None and tile.matches(e.end) else None
    arm = e.arm
    if arm is not None and not (pos.has_arms and pos.ends is not None
                                and pos.arm_problem(arm, tile) is None):
        arm = None
    return replace(e, tile=tile, end=end, arm=arm)
