"""Edits of a record and their costs, and the repairs made of them (plain data)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..i18n import gettext, ngettext
from ..record import Game, MoveEntry
from ..replay import Replay
from ..tiles import Tile


COSTS: dict[str, float] = {
    "change-end": 0.3,
    "change-result": 0.3,
    "change-score": 0.3,
    "change-tile/off-by-one": 0.4,
    "change-player/adjacent": 0.5,
    "insert-move/pass": 0.6,
    "insert-cell/pass": 0.6,
    "swap-moves/adjacent": 0.6,
    "swap-order": 0.6,
    "change-tile/one-half": 0.7,
    "delete-move/pass": 0.7,
    "delete-cell/pass": 0.7,
    "insert-move/tile": 0.8,
    "insert-cell/tile": 0.8,
    "delete-move/tile": 0.8,
    "delete-cell/tile": 0.8,
    "change-tile/both-off-by-one": 0.9,
    "change-tile/pass": 0.9,
    "change-player/other": 0.9,
    "deal-add": 0.9,
    "deal-delete": 0.9,
    "insert-row": 1.0,
    "delete-row": 1.0,
    "swap-moves/other": 1.0,
    "change-tile/both-halves": 1.0,
    "change-deal/extra": 0.1,        # added to the change-tile cost for a tile of the deal
    # the notation of draws, claims, Muggins calls and arms (the position path)
    "change-arm": 0.3,
    "change-arm/add": 0.5,
    "change-claim": 0.4,
    "change-muggins": 0.4,
    "insert-move/draw": 0.6,
    "insert-move/draw-as-written": 0.55,   # draws ? for a player whose draws the record never shows, or the reverse
    "change-draw/play": 0.6,
    "delete-move/draw": 0.7,
    "delete-move/muggins": 0.8,
    "insert-move/muggins": 0.25,   # only where the record leaves a score unclaimed and the Score tag counts the call
}


def tile_slip_cost(before: Tile | None, after: Tile | None) -> float:
    """How likely ``after`` is a slip for ``before`` (or the reverse), as a change-tile cost."""
    if before == after:
        return 0.0
    if before is None or after is None:
        return COSTS["change-tile/pass"]
    best = None
    for a, b in ((after.low, after.high), (after.high, after.low)):
        diffs = sorted((abs(before.low - a), abs(before.high - b)))
        key = (sum(d > 0 for d in diffs), diffs[1])
        best = key if best is None or key < best else best
    changed, worst = best
    if changed == 1:
        return COSTS["change-tile/off-by-one"] if worst == 1 else COSTS["change-tile/one-half"]
    return COSTS["change-tile/both-off-by-one"] if worst == 1 else COSTS["change-tile/both-halves"]


# ---- the report ------------------------------------------------------------------------------------

def edit_count(k: int) -> str:
    return ngettext("{n} edit", "{n} edits", k)


@dataclass(frozen=True)
class Edit:
    """One edit of a repair, placed in the source: the move's line and column (for an insertion, of
    the move it goes before; for a deal edit, of the tile in the deal)."""

    kind: str
    line: int | None
    column: int | None
    player: str | None
    before: str | None           # what the record says there ("[5-6]", "pass", a player, a row)
    after: str | None            # what the repair puts there
    index: int | None = None     # the move's index in the record's move list (None: the deal)
    round: int | None = None     # the row (round) of that move, as the record numbers it
    cost: float = 0.0
    other: dict | None = None    # swap-moves: where the second move is
    at_end: bool = False         # an insertion after the record's last move

    def as_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "line": self.line, "column": self.column, "player": self.player,
               "before": self.before, "after": self.after, "index": self.index, "round": self.round,
               "cost": self.cost}
        if self.other is not None:
            out["other"] = self.other
        if self.at_end:
            out["at_end"] = True
        return out

    @property
    def where(self) -> str:
        """The place in words: "round 7, line 22, column 3"."""
        parts = []
        if self.round is not None:
            parts.append(gettext("round {round}", round=self.round))
        if self.line:
            parts.append(gettext("line {line}, column {column}", line=self.line, column=self.column) if self.column
                         else gettext("line {line}", line=self.line))
        elif self.index is not None:
            parts.append(gettext("move {number}", number=self.index + 1))
        return ", ".join(parts)

    def __str__(self) -> str:
        k, who, at = self.kind, self.player, self.where
        at = f" ({at})" if at else ""
        words = {"player": who, "before": self.before, "after": self.after, "at": at}
        if k in ("insert-row", "insert-move"):
            what = (gettext("the missing row {row}", row=self.after) if k == "insert-row" else
                    gettext("{player} {move}", player=who, move=self.after))
            if self.at_end:
                return (gettext("add {what} after the last move (line {line})", what=what, line=self.line)
                        if self.line else gettext("add {what} after the last move", what=what))
            return (gettext("insert {what} before the entry at {place}", what=what, place=self.where) if self.where
                    else gettext("insert {what}", what=what))
        if k == "insert-cell":
            return gettext("insert the dropped cell {player} {after}{at}; the cells after it in the row go one column "
                           "right", **words)
        if k == "delete-row":
            return gettext("delete the row {before}{at}", **words)
        if k == "delete-cell":
            if who is None:         # a cell after the last column
                return gettext("delete the {before} after the row's last column{at}", **words)
            return gettext("delete {player}'s {before}{at}; the cells after it in the row go one column left", **words)
        if k == "delete-move":
            return gettext("delete {player}'s {before}{at}", **words)
        if k in ("change-tile", "change-end", "change-draw", "change-arm", "change-claim", "change-muggins"):
            return gettext("change {player}'s {before} to {after}{at}", **words)
        if k in ("change-result", "change-score"):
            tag = "Result" if k == "change-result" else "Score"
            return gettext("change the {tag} tag \"{before}\" to \"{after}\"{at}", tag=tag, **words)
        if k == "change-player":
            return gettext("move the cell from {before}'s column to {after}'s{at}", **words)
        if k == "swap-moves":
            o = self.other or {}
            there = (gettext("line {line}", line=o["line"]) if o.get("line") else
                     gettext("move {number}", number=(o.get("index") or 0) + 1))
            return gettext("swap {player}'s {before}{at} with {other}'s {after} ({there})", other=o.get("player"),
                           there=there, **words)
        if k == "swap-order":
            o = self.other or {}
            there = (gettext("line {line}, column {column}", line=o["line"], column=o["column"]) if o.get("line") else
                     gettext("move {number}", number=(o.get("index") or 0) + 1))
            return gettext("put {other}'s {after} ({there}) before {player}'s {before}{at}: the two are in the wrong "
                           "order", other=o.get("player"), there=there, **words)
        if k == "change-deal":
            return gettext("change {before} in {player}'s hand to {after}{at}", **words)
        if k == "deal-add":
            return gettext("add {after} to {player}'s hand{at}", **words)
        if k == "deal-delete":
            return gettext("remove {before} from {player}'s hand{at}", **words)
        return f"{k}: {self.before} -> {self.after}{at}"


class Trial(NamedTuple):
    """A candidate record as a repair search's checker replayed it: its cells (``seq``) and ``deal``, the checker's
    states before each cell (``frontiers``), and its first error: the cell's index ``L`` (-1: the deal;
    ``len(seq)``: only the end disagrees) and the error's ``code``. The search edits it at or before ``L``."""

    seq: list
    deal: object
    frontiers: list
    L: int
    code: str | None


@dataclass(frozen=True)
class RepairLimits:
    """How far a repair search looks and what it reports: sets of at most ``max_edits`` edits, the best
    ``limit`` of them, and at most ``max_nodes`` candidate records tried (None: the search's default,
    400,000 for the two-ended block games and 40,000 on the slower position path)."""

    max_edits: int = 2
    limit: int = 5
    max_nodes: int | None = None


@dataclass
class Repair:
    """A set of edits that makes the record legal (and agree with its stated result)."""

    edits: tuple[Edit, ...]
    cost: float
    game: Game                           # the repaired copy
    result: dict | None                  # what the repaired hand gives (Replay.result_dict)
    result_text: str
    rows_before: list[str]               # the affected rows as the record has them
    rows_after: list[str]                # and as the repair writes them
    replay: Replay | None = field(default=None, repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"edits": [e.as_dict() for e in self.edits], "cost": round(self.cost, 3),
                "result": self.result, "result_text": self.result_text,
                "rows_before": self.rows_before, "rows_after": self.rows_after}


@dataclass
class RepairReport:
    """What :func:`repair` found for one game."""

    game: Game
    valid: bool                          # the record was legal already: nothing to repair
    stated: str | None                   # the result the record states, if any
    max_edits: int
    repairs: list[Repair]                # the best few, best first
    counts: dict[int, int]               # how many distinct repairs of each size were found
    tied: int                            # how many repairs share the best rank
    common: list[str]                    # what the equally good best repairs have in common
    complete: bool                       # False when the search stopped at its node budget
    searched: int                        # candidate records tried
    problem: str | None = None           # why nothing can be searched (e.g. an unreadable Result)
    work: int = 0                        # the search's work (units of analyzer.repair.search; its bound grows with the record)

    @property
    def found(self) -> bool:
        return bool(self.repairs)

    @property
    def best(self) -> Repair | None:
        return self.repairs[0] if self.repairs else None

    @property
    def smallest(self) -> int | None:
        return min(self.counts) if self.counts else None

    @property
    def message(self) -> str:
        if self.valid:
            return gettext("the record is legal; nothing to repair")
        if self.problem:
            return self.problem
        if not self.repairs:
            bound = edit_count(self.max_edits)
            if self.complete:
                return gettext("no repair within {edits}", edits=bound)
            return gettext("no repair within {edits} (the search stopped at its bound, after {searched} candidates: "
                           "the bound grows with the record's length)", edits=bound, searched=self.searched)
        n = self.smallest
        edits = edit_count
        if self.tied > 1:
            text = gettext("{tied} repairs with {edits} are equally good", tied=self.tied, edits=edits(n))
        elif self.counts[n] == 1:
            text = gettext("the only repair with {edits}", edits=edits(n))
        else:
            text = ngettext("the best of {n} repair with {edits}", "the best of {n} repairs with {edits}",
                            self.counts[n], edits=edits(n))
        more = [ngettext("{n} with {edits}", "{n} with {edits}", v, edits=edits(k))
                for k, v in sorted(self.counts.items()) if k > n]
        return text + (" " + gettext("(also {more})", more=', '.join(more)) if more else "")

    def as_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "stated": self.stated, "max_edits": self.max_edits,
                "message": self.message, "counts": {str(k): v for k, v in sorted(self.counts.items())},
                "tied": self.tied, "common": self.common, "complete": self.complete,
                "searched": self.searched, "repairs": [r.as_dict() for r in self.repairs]}


# ---- the lean checker --------------------------------------------------------------------------------
#
# A state is a tuple (hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed):
# hands: every seat's known tiles (bit masks); ends: the open numbers or None; turn: the seat to move;
# passes: passes in a row; last: the seat that played the last tile (-1: none yet); over: None, or
# (a Termination, seat); played: mask of the tiles on the table; hidden: None when every hand is
# known, else each seat's count of tiles the record does not show, with pool (the tiles nobody is known
# to hold) and lacks (per seat, a mask of the numbers a pass proved he lacks); opening: the tiles the
# lead may be (0: any), as the replayer sets them for this deal and leader; exposed: the tiles lying open
# that must be played at their first chance (Domino Whist §8; see analyzer.repair.exposed).
#
# A cell is a move of the line being tried: (seat, tile, end, bit, low, high, src, orig, name, annotation)
# with src the MoveEntry it comes from (None: inserted) and orig its index in the input (None: new).


class Found(NamedTuple):
    """A repair the search found, before the replayer confirms it: its size, cost, raw edits, and the
    line of cells and the deal it gives."""

    size: int
    cost: float
    edits: tuple
    seq: list
    deal: object


# the fields of a cell of the lean search: one recorded move as a tuple
SEAT, TILE, END, BIT, LOW, HIGH, SRC, ORIG, NAME, ANNOT = range(10)


def entry_text(m: MoveEntry) -> str:
    """An entry as the notation writes it: ``draws [3-4]``, ``[2-4]@4>2! +10``, ``muggins 5``."""
    if m.muggins is not None or m.draw:
        return m.text
    text = "pass" if m.tile is None else (str(m.tile) + (f"@{m.end}" if m.end is not None else "")
                                          + (f">{m.arm}" if m.arm is not None else ""))
    return text + (m.annotation or "") + (f" +{m.claim}" if m.claim is not None else "")
