"""The candidate edits of the lean search: for each place at or before the first error, the edits
of the move written there, its deletion (or its row's), the moves and rows the record dropped, and
the deal edits; and where the last edit can still remove the error (:meth:`LeanEdits.focus`,
:meth:`LeanEdits.conflicts`), which prunes the search without losing a repair."""
from __future__ import annotations

from ..position import tiles_of
from ..rules.codes import Code
from ..rules.modes import Termination
from .deal import DealEdits
from .edits import ANNOT, BIT, COSTS, END, NAME, ORIG, SEAT, SRC, TILE, Trial, tile_slip_cost
from .lean import LeanChecker
from .setting import Setting

# errors only an edit at a few places can remove (see LeanEdits.focus); "mixed": the branches of a
# two-way tile fail differently
_LOCAL = frozenset({Code.TURN_ORDER, Code.UNKNOWN_PLAYER, Code.TILE_FOREIGN, Code.TILE_ALREADY_PLAYED, Code.TILE_NOT_HELD})


class LeanEdits:
    """The edits the lean search tries at each place, checked by ``checker`` (a :class:`LeanChecker`)."""

    def __init__(self, setting: Setting, checker: LeanChecker, deal_edits: DealEdits):
        self.s = setting
        self.checker = checker
        self.deal_edits = deal_edits
        self.players, self.n, self.max_pip = setting.players, setting.n, setting.max_pip
        self.table, self.has_rounds, self.omitted = setting.table, setting.has_rounds, setting.omitted
        self.lead_seat, self.row_start = setting.lead_seat, setting.row_start

    def deal_candidates(self, trial: Trial, depth: int):
        """The deal edits (see :class:`analyzer.repair.deal.DealEdits`)."""
        if not trial.deal.ok:
            return self.deal_edits.broken(trial.seq, trial.deal, depth)
        return self.deal_edits.exchange(trial, depth, self.checker.legal)

    def candidates(self, trial: Trial, min_pos: int, depth: int):
        """(new seq, new deal, first changed index, raw edit, next min position) for each edit of the ``trial`` at
        or after ``min_pos`` and at or before its first error ``L``."""
        seq, deal, frontiers, L, code = trial
        if min_pos <= -1:
            yield from self.deal_candidates(trial, depth)
        if L < 0:
            return
        last = depth == 1
        focus = self.focus(seq, L, code) if last else None
        fits = self.conflicts(seq, depth)
        for p in range(max(min_pos, 0), L + 1):
            everything = focus is None or p == L or (focus[0] == "only" and p in focus[1])
            row_only = not everything and p in focus[2]
            if not everything and focus[0] == "only" and not row_only:
                continue
            frontier = frontiers[p]
            if self.omitted:            # the player on turn after the passes the record leaves out
                frontier = self.checker.omitted_turn(frontier, seq[p][SEAT] if p < len(seq) else None)
            over = frontier[0][5] is not None
            here = seq[p] if p < len(seq) else None
            if here is not None and not over and (everything or focus[0] == "swap-into"):
                yield from self.changes(trial, p, frontier, everything, last, fits)
            counting = everything or focus[0] == "count"
            if here is not None:
                yield from self.deletions(seq, deal, p, frontier[0], counting, row_only)
            if over or not counting:
                continue
            yield from self.insertions(seq, deal, p, frontier, everything, fits)

    def changes(self, trial: Trial, p: int, frontier, everything: bool, last: bool, fits):
        """Edits of the move written at ``p`` that keep a move there: its tile or open number
        changed, swapped with a later one, given to the player on turn, or put after the next one.
        ``everything``: all of them (else only a swap with the move at the error ``L``)."""
        seq, deal, _, L, _ = trial
        cell, n = self.checker.cell, self.n
        mover = frontier[0][2]
        name = self.players[mover]
        lmask, lpass = self.checker.legal_mask(frontier)
        legal = list(tiles_of(lmask, self.max_pip)) + ([None] if lpass else [])
        here = seq[p]
        if here[SEAT] == mover:
            for tile in (legal if everything else ()):
                if tile == here[TILE] or (tile is not None and not fits(tile.bit, p + 1)):
                    continue
                end = here[END] if tile is not None and here[END] is not None and tile.matches(here[END]) else None
                new = cell(name, tile, end, here[SRC], here[ORIG], here[ANNOT])
                yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                       ("change-tile", tile_slip_cost(here[TILE], tile), here, here[TILE], tile, None),
                       p + 1)
            if everything and here[TILE] is not None and here[END] is not None and here[BIT] & lmask:
                new = cell(name, here[TILE], None, here[SRC], here[ORIG], here[ANNOT])
                yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                       ("change-end", COSTS["change-end"], here, here[END], None, None), p + 1)
            # swap this move with a later one that would be legal here
            bit = here[BIT]             # (a tile's bit names it, 0 a pass: ints compare faster than tiles)
            for j in (range(p + 1, len(seq)) if everything else (L,)):
                there = seq[j]
                if there[BIT] == bit or not (there[BIT] & lmask if there[BIT] else lpass):
                    continue
                a = cell(name, there[TILE], there[END], here[SRC], here[ORIG], there[ANNOT])
                b = cell(there[NAME], here[TILE], here[END], there[SRC], there[ORIG], here[ANNOT])
                near = j - p == 1 or (j - p == n and self.has_rounds)
                yield (seq[:p] + [a] + seq[p + 1:j] + [b] + seq[j + 1:], deal, p,
                       ("swap-moves", COSTS["swap-moves/adjacent" if near else "swap-moves/other"],
                        here, there, None, None), p + 1)
        elif everything and ((fits_here := bool(here[BIT] & lmask if here[BIT] else lpass)) or not last):
            # the cell belongs to the player on turn; with an edit to spare, its tile may
            # still be wrong (the next edit, at this same cell, changes or swaps it)
            new = cell(name, here[TILE], here[END], here[SRC], here[ORIG], here[ANNOT])
            old = here[SEAT]
            near = old is not None and (old - mover) % n in (1, n - 1)
            yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                   ("change-player", COSTS["change-player/adjacent" if near else "change-player/other"],
                    here, here[NAME], name, None), p + 1 if fits_here else p)
        if (everything and not self.table and here[SEAT] != mover and p + 1 < len(seq)
                and seq[p + 1][SEAT] == mover):
            # the move of the player on turn written after the next one (the two in the wrong order)
            yield (seq[:p] + [seq[p + 1], here] + seq[p + 2:], deal, p,
                   ("swap-order", COSTS["swap-order"], here, seq[p + 1], None, None), p + 1)

    def deletions(self, seq, deal, p, st, counting, row_only):
        """The move written at ``p`` deleted (``counting``), or the row it starts (``row_only`` too)."""
        here = seq[p]
        row = self.s.row
        # delete the move written here
        # (not a pass that follows a block: records write those to show it; after a player went out it is
        # play-after-end, and deleting it is the repair)
        if counting and not (st[5] is not None and here[TILE] is None and st[5][0] != Termination.DOMINO):
            cost = COSTS["delete-move/pass" if here[TILE] is None else "delete-move/tile"]
            yield (seq[:p] + seq[p + 1:], deal, p, ("delete-move", cost, here, None, None, None), p)
            yield from self.extra_cell(seq, deal, p)
        # a row copied twice (or one that never was)
        if ((counting or row_only) and self.has_rounds and here[SRC] is not None
                and (p == 0 or seq[p - 1][SRC] is None or row(seq[p - 1][SRC]) != row(here[SRC]))):
            q = p
            while q < len(seq) and seq[q][SRC] is not None and row(seq[q][SRC]) == row(here[SRC]):
                q += 1
            if q - p > 1:
                yield (seq[:p] + seq[q:], deal, p, ("delete-row", COSTS["delete-row"], here, seq[p:q], None, None), p)

    def insertions(self, seq, deal, p, frontier, everything, fits):
        """A move (or a whole row, one edit) the record dropped, inserted at ``p``."""
        n, mover = self.n, frontier[0][2]
        here = seq[p] if p < len(seq) else None
        ins_frontier, ins_mover = frontier, mover
        first_unnamed = p == 0 and self.lead_seat is None and here is not None and here[SEAT] is not None
        if first_unnamed:
            # nobody names the leader: an inserted first move is the lead, by the player before
            ins_mover = (here[SEAT] - 1) % n
            ins_frontier = [deal.lead_state(ins_mover)[0]]
        ins_name = self.players[ins_mover]
        for tile in self.checker.legal(ins_frontier):
            if tile is not None and not fits(tile.bit, p):
                continue
            kind = "insert-move/pass" if tile is None else "insert-move/tile"
            new = self.checker.inserted(ins_mover)[tile.index if tile is not None else -1]
            yield (seq[:p] + [new] + seq[p:], deal, p,
                   ("insert-move", COSTS[kind], here, None, tile, ins_name), p + 1)
        yield from self.dropped_cell(seq, deal, p, frontier, fits)
        if not everything and p > 0:      # a whole row keeps the turn (a first row may not)
            return
        starts = []
        if first_unnamed:
            if here[SEAT] == self.row_start:          # the first row, led by anyone
                starts = [(c, [deal.lead_state(c)[0]]) for c in range(n)]
        elif p == 0 or mover == self.row_start:
            starts = [(mover, frontier)]
        for first, row_frontier in starts:
            length = (self.row_start - first) % n or n
            for new_cells in self.checker.rows(row_frontier, length, lambda mask: fits(mask, p)):
                yield (seq[:p] + new_cells + seq[p:], deal, p,
                       ("insert-row", COSTS["insert-row"], here, None, new_cells, None), p + len(new_cells))

    def focus(self, seq: list, L: int, code: str | None) -> tuple | None:
        """Where the last edit can still remove the error at ``L`` (None: anywhere before it).

        Most errors can be cured from afar (another tile earlier changes the open ends), but not all:
        an edit before ``L`` that keeps the number of moves keeps the turn, a tile nobody dealt stays
        foreign, a tile played twice needs one of the two plays changed, and a tile in another hand
        can only come from a swap with that move. (Unless the hand ends earlier and only passes follow.)"""
        if code not in _LOCAL or all(c[TILE] is None for c in seq[L:]):
            return None
        places = {L}
        if code == Code.TILE_ALREADY_PLAYED:
            tile = seq[L][TILE]
            places.add(next((i for i in range(L - 1, -1, -1) if seq[i][TILE] == tile), L))
        rows = {self.row_start_of(seq, i) for i in places}      # a whole row deleted removes it too
        mode = {Code.TURN_ORDER: "count", Code.TILE_NOT_HELD: "swap-into"}.get(code, "only")
        return mode, places, rows

    def row_start_of(self, seq: list, i: int) -> int:
        """The index of the first cell of the written row that holds cell ``i``."""
        src = seq[i][SRC] if i < len(seq) else None
        if not self.has_rounds or src is None:
            return i
        while i > 0 and seq[i - 1][SRC] is not None and self.s.row(seq[i - 1][SRC]) == self.s.row(src):
            i -= 1
        return i

    def conflicts(self, seq: list, depth: int):
        """A test for the tiles an edit writes (a mask) at ``start``: False when the record plays
        them again later more often than the edits left (``depth - 1``) can undo.

        Each later play of such a tile needs an edit of its own at that cell (the search goes left
        to right, so nothing before it can change any more), except that one deleted row removes all
        of its cells at once."""
        later = [0] * (len(seq) + 1)
        for k in range(len(seq) - 1, -1, -1):
            later[k] = later[k + 1] | seq[k][BIT]
        if depth == 1:
            return lambda mask, start: not mask & later[start]
        if depth > 2:
            return lambda mask, start: True
        row_of: dict[int, int | None] = {}
        for c in seq:
            if c[BIT]:
                src = c[SRC]
                row_of[c[BIT]] = None if c[BIT] in row_of or src is None else self.s.row(src)
        rows = self.has_rounds

        def fits(mask: int, start: int) -> bool:
            clash = mask & later[start]
            if not clash & (clash - 1):          # at most one tile played again
                return True
            if not rows:
                return False
            seen = set()
            while clash:
                low = clash & -clash
                seen.add(row_of.get(low))
                clash ^= low
            seen.discard(None)
            return len(seen) <= 1
        return fits

    def row_of(self, seq: list, p: int) -> int:
        """Where the table row of the cell at ``p`` ends, counting only cells in columns in a row from it."""
        row, q = self.s.row(seq[p][SRC]), p + 1
        while (q < len(seq) and seq[q][SRC] is not None and self.s.row(seq[q][SRC]) == row and seq[q][SEAT] is not None
               and seq[q][SEAT] == (seq[q - 1][SEAT] + 1) % self.n):
            q += 1
        return q

    def extra_cell(self, seq, deal, p):
        """A table row with a cell written twice (or one that never was) at ``p``: the cells after it
        stand one column to the right. The cell goes and they go one column left again."""
        here = seq[p]
        if not self.table or here[SRC] is None or here[SEAT] is None:
            return
        q = self.row_of(seq, p)
        if q == p + 1:
            return          # nothing after it in the row: a deleted move
        shifted = [self.checker.cell(self.players[(c[SEAT] - 1) % self.n], c[TILE], c[END], c[SRC], c[ORIG], c[ANNOT])
                   for c in seq[p + 1:q]]
        cost = COSTS["delete-cell/pass" if here[TILE] is None else "delete-cell/tile"]
        yield seq[:p] + shifted + seq[q:], deal, p, ("delete-cell", cost, here, None, None, None), p

    def dropped_cell(self, seq, deal, p, frontier, fits):
        """A table row that lost the cell at ``p``: its later cells stand one column to the left. The
        cell comes back (a legal move of the player on turn) and they go one column right again."""
        here = seq[p] if p < len(seq) else None
        if not self.table or here is None or here[SRC] is None or here[SEAT] is None:
            return
        row, q = self.s.row(here[SRC]), p
        while q < len(seq) and seq[q][SRC] is not None and self.s.row(seq[q][SRC]) == row and seq[q][SEAT] is not None:
            q += 1
        if (seq[q - 1][SEAT] + 1) % self.n == self.row_start or any(
                seq[k + 1][SEAT] != (seq[k][SEAT] + 1) % self.n for k in range(p, q - 1)):
            return          # a full row has no cell to lose; the cells must stand in columns in a row
        mover = frontier[0][2]
        shifted = [self.checker.cell(self.players[(c[SEAT] + 1) % self.n], c[TILE], c[END], c[SRC], c[ORIG], c[ANNOT])
                   for c in seq[p:q]]
        for tile in self.checker.legal(frontier):
            if tile is not None and not fits(tile.bit, p):
                continue
            new = self.checker.inserted(mover)[tile.index if tile is not None else -1]
            yield (seq[:p] + [new] + shifted + seq[q:], deal, p,
                   ("insert-cell", COSTS["insert-cell/pass" if tile is None else "insert-cell/tile"], here, None,
                    tile, self.players[mover]), p + 1)
