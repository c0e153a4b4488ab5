"""Turning a repaired line of cells back into a record: the moves, the edits in words, the rows."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterator

from ..record import Game, HandEntry, MoveEntry
from ..replay import Replay
from ..i18n import N_, gettext
from ..replay.json import result_text
from ..rules.modes import Termination
from ..tiles import Tile
from .setting import Setting
from .edits import ANNOT, END, NAME, ORIG, SEAT, SRC, TILE, Edit, entry_text

if TYPE_CHECKING:
    from .deal import Deal


def play_text(tile: Tile | None, end: int | None = None, annotation: str | None = None) -> str:
    text = "pass" if tile is None else str(tile) + (f"@{end}" if end is not None else "")
    return text + (annotation or "")


def table_row(number: int, cells: list[str]) -> str:
    """A book-table row as the repair shows it: its number and its cells in their columns."""
    return f"{number:<3} " + " ".join(f"{c:<5}" for c in cells).rstrip()


def _round_of(entry: MoveEntry | None) -> int | None:
    return entry.round if entry is not None else None


class Builder:
    """Build the repaired game, the edits placed in the source, and the rows before and after."""

    def __init__(self, setting: Setting, game: Game):
        self.s = setting
        self.game = game
        self.renumber = False     # the rows of a repair renumbered (the search decides it: see Search.search)

    def rounds(self, seq: list, start: int = 0) -> Iterator[int | None]:
        """The row number each cell of ``seq`` from ``start`` on has in the repaired record, in turn."""
        s = self.s
        prev: int | None = None
        first = next((c[SEAT] for c in seq if c[SEAT] is not None), None)
        anchor = next((k for k, c in enumerate(seq) if c[SRC] is not None), None)
        renumber = self.renumber and first is not None and anchor is not None
        if renumber:        # rows counted from the first move, numbered as the first original move's
            offset = (first - s.row_start) % s.n
            base = seq[anchor][SRC].round - (offset + anchor) // s.n
        begin = start
        while not renumber and begin > 0 and seq[begin][SRC] is None:
            begin -= 1          # an inserted cell's number follows the one before it
        for k in range(begin, len(seq)):
            c = seq[k]
            src = c[SRC]
            if renumber:
                rnd = base + (offset + k) // s.n
            elif src is not None:
                rnd = src.round
            elif k > begin and prev is not None and c[SEAT] is not None:
                # an inserted move: in the row of the move before it, or the next row when its
                # column comes first again
                rnd = prev + (c[SEAT] <= s.seat_of.get(seq[k - 1][NAME], -1))
            else:
                rnd = next((d[SRC].round for d in seq[k:] if d[SRC] is not None), None)
            if k >= start:
                yield rnd
            prev = rnd

    def moves(self, seq: list) -> list[MoveEntry]:
        out = []
        for c, rnd in zip(seq, self.rounds(seq)):
            src = c[SRC]
            if src is None:
                out.append(MoveEntry(c[NAME], c[TILE], c[END], c[ANNOT], None, rnd))
                continue
            same = (src.player, src.tile, src.end, src.annotation, src.round) == (c[NAME], c[TILE], c[END], c[ANNOT], rnd)
            out.append(src if same else replace(src, player=c[NAME], tile=c[TILE], end=c[END],
                                                annotation=c[ANNOT], round=rnd))
        return out

    def game_for(self, seq: list, deal: Deal) -> Game:
        g = self.game
        return replace(g, tags=dict(g.tags), players=tuple(g.players), hands=tuple(deal.entries),
                       moves=self.moves(seq), comments=list(g.comments), tag_pos=dict(g.tag_pos))

    def edit(self, raw: tuple) -> Edit:
        kind, cost, anchor, before, after, extra = raw
        cost = round(cost, 3)
        if kind in ("change-deal", "deal-add", "deal-delete"):
            h, k = anchor
            entry = self.game.hands[h] if h < len(self.game.hands) else None
            pos = None
            if entry is not None:
                pos = entry.tile_pos[k] if k is not None and k < len(entry.tile_pos) else entry.pos
            line, column = (pos.line or None, pos.column or None) if pos is not None else (None, None)
            return Edit(kind, line, column, entry.player if entry else None,
                        None if before is None else str(before), None if after is None else str(after),
                        None, None, cost)
        src = anchor[SRC] if anchor is not None else None
        line = src.pos.line or None if src is not None else None
        column = src.pos.column or None if (src is not None and line) else None
        index = anchor[ORIG] if anchor is not None else len(self.game.moves)
        rnd = _round_of(src)
        at_end = anchor is None
        if at_end and self.game.moves:          # after the record's last move
            last = self.game.moves[-1]
            line, column, rnd = last.pos.line or None, None, None
        player = anchor[NAME] if anchor is not None else None
        if kind in ("insert-move", "insert-cell"):
            return Edit(kind, line, column, extra, None, play_text(after), index, rnd, cost, at_end=at_end)
        if kind == "insert-row":
            row = ", ".join(f"{c[NAME]} {play_text(c[TILE])}" for c in after)
            return Edit(kind, line, column, None, None, row, index, rnd, cost, at_end=at_end)
        if kind == "delete-row":
            row = ", ".join(f"{c[NAME]} {play_text(c[TILE], c[END], c[ANNOT])}" for c in before)
            return Edit(kind, line, column, None, row, None, index, rnd, cost)
        if kind in ("delete-move", "delete-cell"):
            return Edit(kind, line, column, player, play_text(anchor[TILE], anchor[END]), None, index, rnd, cost)
        if kind == "change-tile":
            return Edit(kind, line, column, player, play_text(before, anchor[END]), play_text(after),
                        index, rnd, cost)
        if kind == "change-end":
            return Edit(kind, line, column, player, play_text(anchor[TILE], before), play_text(anchor[TILE]),
                        index, rnd, cost)
        if kind == "change-player":
            return Edit(kind, line, column, before, before, after, index, rnd, cost)
        if kind in ("swap-moves", "swap-order"):
            there = before
            tsrc = there[SRC]
            other = {"line": (tsrc.pos.line or None) if tsrc else None,
                     "column": (tsrc.pos.column or None) if tsrc else None,
                     "player": there[NAME], "index": there[ORIG], "round": _round_of(tsrc)}
            return Edit(kind, line, column, player, play_text(anchor[TILE], anchor[END]),
                        play_text(there[TILE], there[END]), index, rnd, cost, other)
        raise AssertionError(kind)

    # -- rows --------------------------------------------------------------------------------------
    def row_text(self, moves: list[MoveEntry], indices: list[int]) -> list[str]:
        """The rows (table), numbered lines (PGN-like) or single moves holding ``indices``."""
        g = self.game
        if not indices:
            return []
        if self.s.has_rounds:
            wanted = sorted({moves[i].round for i in indices if 0 <= i < len(moves)})
            out = []
            column = {p: i for i, p in enumerate(self.s.players)}
            for rnd in wanted:
                cells = [m for m in moves if m.round == rnd]
                if g.form == "table":
                    row: list[str] = []
                    for m in cells:
                        row += ["----"] * (column.get(m.player, len(row)) - len(row))
                        row.append(play_text(m.tile, m.end, m.annotation))
                    out.append(table_row(rnd, row))
                else:
                    out.append(f"{rnd}. " + " ".join(f"{m.player} {play_text(m.tile, m.end, m.annotation)}"
                                                     for m in cells))
            return out
        return [f"{i + 1}. {moves[i].player} {play_text(moves[i].tile, moves[i].end, moves[i].annotation)}"
                for i in sorted(set(indices)) if 0 <= i < len(moves)]

    def rows(self, seq: list, deal: Deal, edits: tuple, repaired: Game) -> tuple[list[str], list[str]]:
        before_idx: list[int] = []
        after_idx: list[int] = []
        where = {c[ORIG]: k for k, c in enumerate(seq) if c[ORIG] is not None}
        for k, c in enumerate(seq):
            src = c[SRC]
            if src is None or (src.player, src.tile, src.end) != (c[NAME], c[TILE], c[END]):
                after_idx.append(k)
        for raw in edits:
            kind, _, anchor = raw[:3]
            if kind in ("change-deal", "deal-add", "deal-delete"):
                continue
            if anchor is not None and anchor[ORIG] is not None:
                before_idx.append(anchor[ORIG])
                if anchor[ORIG] in where:
                    after_idx.append(where[anchor[ORIG]])
            elif anchor is None and self.game.moves:
                before_idx.append(len(self.game.moves) - 1)
            if kind in ("swap-moves", "swap-order") and raw[3][ORIG] is not None:
                before_idx.append(raw[3][ORIG])
            if kind == "delete-row":
                before_idx.extend(c[ORIG] for c in raw[3] if c[ORIG] is not None)
            if kind in ("delete-move", "delete-cell", "delete-row") and self.s.has_rounds and anchor[SRC] is not None:
                # what is left of the row (when anything is)
                after_idx.extend(k for k, m in enumerate(repaired.moves) if m.round == anchor[SRC].round)
        before = self.row_text(self.game.moves, before_idx)
        after = self.row_text(repaired.moves, after_idx)
        before_deal, after_deal = self.deal_rows(deal)
        return before + before_deal, after + after_deal

    def deal_rows(self, deal: Deal) -> tuple[list[str], list[str]]:
        """The hands a repair changes, as the record has them and as the repair writes them."""
        before, after = [], []
        for old, new in zip(self.game.hands, deal.entries):
            if old.tiles != new.tiles:
                before.append(_hand_text(old))
                after.append(_hand_text(new))
        return before, after


class PositionBuilder(Builder):
    """:class:`Builder` for the position path, whose cells carry the entries as they are written."""

    def moves(self, seq: list) -> list[MoveEntry]:
        return [c.entry for c in seq]

    def rounds(self, seq: list, start: int = 0) -> Iterator[int | None]:
        return (c.entry.round for c in seq[start:])

    def edit(self, raw: tuple) -> Edit:
        kind, cost, anchor, before, after, extra = raw
        if kind in ("change-deal", "deal-add", "deal-delete"):
            return Builder.edit(self, raw)
        cost = round(cost, 3)
        src = anchor.entry if anchor is not None and anchor.orig is not None else None
        line = (src.pos.line or None) if src is not None else None
        column = (src.pos.column or None) if src is not None and line else None
        index = anchor.orig if anchor is not None else len(self.game.moves)
        rnd = anchor.entry.round if anchor is not None else None
        at_end = anchor is None
        if at_end and self.game.moves:          # after the record's last move
            line, column, rnd = self.game.moves[-1].pos.line or None, None, None
        player = anchor.entry.player if anchor is not None else None
        if kind == "insert-move":
            return Edit(kind, line, column, extra, None, after, index, rnd, cost, at_end=at_end)
        if kind == "change-player":
            return Edit(kind, line, column, before, before, after, index, rnd, cost)
        if kind in ("swap-moves", "swap-order"):
            there = extra
            tsrc = there.entry if there.orig is not None else None
            other = {"line": (tsrc.pos.line or None) if tsrc else None,
                     "column": (tsrc.pos.column or None) if tsrc else None,
                     "player": there.entry.player, "index": there.orig, "round": there.entry.round}
            return Edit(kind, line, column, player, before, after, index, rnd, cost, other)
        return Edit(kind, line, column, player, before, after, index, rnd, cost)

    def row_text(self, moves: list[MoveEntry], indices: list[int]) -> list[str]:
        return entry_rows(moves, indices, self.s.has_rounds)

    def rows(self, seq: list, deal: Deal, edits: tuple, repaired: Game) -> tuple[list[str], list[str]]:
        moves = self.game.moves
        after_idx = [k for k, c in enumerate(seq) if c.orig is None or c.entry is not moves[c.orig]]
        before_idx: list[int] = []
        where = {c.orig: k for k, c in enumerate(seq) if c.orig is not None}
        for raw in edits:
            kind, _, anchor = raw[:3]
            if kind in ("change-deal", "deal-add", "deal-delete"):
                continue
            if anchor is not None and anchor.orig is not None:
                before_idx.append(anchor.orig)
                if anchor.orig in where:
                    after_idx.append(where[anchor.orig])
            elif anchor is None and moves:
                before_idx.append(len(moves) - 1)
            if kind in ("swap-moves", "swap-order") and raw[5].orig is not None:
                before_idx.append(raw[5].orig)
            if kind == "delete-row":
                before_idx.extend(o for o in raw[5] if o is not None)
            if kind in ("delete-move", "delete-row") and self.s.has_rounds and anchor.entry.round is not None:
                after_idx.extend(k for k, m in enumerate(repaired.moves) if m.round == anchor.entry.round)
        before = self.row_text(moves, before_idx)
        after = self.row_text(repaired.moves, after_idx)
        before_deal, after_deal = self.deal_rows(deal)
        return before + before_deal, after + after_deal


def entry_rows(moves: list[MoveEntry], indices: list[int], has_rounds: bool) -> list[str]:
    """The numbered lines (or, without round numbers, single entries) holding ``indices``, in the
    PGN-like form (draws, claims and Muggins calls have no table form)."""
    if not indices:
        return []
    if has_rounds:
        wanted = sorted({moves[i].round for i in indices if 0 <= i < len(moves)})
        return [f"{rnd}. " + " ".join(f"{m.player} {entry_text(m)}" for m in moves if m.round == rnd)
                for rnd in wanted]
    return [f"{i + 1}. {moves[i].player} {entry_text(moves[i])}"
            for i in sorted(set(indices)) if 0 <= i < len(moves)]


def _hand_text(hand: HandEntry) -> str:
    return f"{hand.player}: " + ("?" if hand.tiles is None else " ".join(map(str, hand.tiles)))


#: A repaired record's result in words when it stops before the hand is over.
NOT_OVER = N_("the hand is not over")


def repaired_result(rep: Replay) -> str:
    """The repaired hand's result in words (also when it has none: how far it got)."""
    if rep.result is None:
        if rep.outcome is None:
            return gettext(NOT_OVER)
        who = rep.players[rep.outcome.seat]
        return (gettext("{player} goes out (domino)", player=who) if rep.outcome.termination == Termination.DOMINO else
                gettext("blocked after {player}'s last tile", player=who))
    return result_text(rep)
