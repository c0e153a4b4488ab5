"""Suggest the repair of a broken transcription: the fewest, most plausible edits that make it legal.

A record that does not replay was usually copied wrong: a row dropped, a tile mistyped, a cell put in
the next column. :func:`repair` searches for the smallest sets of edits after which every move is
legal and, when the record states a result (its ``Result`` tag), the hand ends exactly so. Repairs
are ranked by the number of edits, then by how likely each edit is as a slip of the pen (the cost
table below), and the best few come back as plain data, each with its repaired copy of the game.
The input game is never changed.

Edits and their costs (lower is a likelier slip; a repair costs the sum of its edits)::

    kind            what the copyist did                                          cost
    change-end      wrote the wrong open number (@n) for a tile                    0.3
    change-arm      wrote the wrong arm (>n) for a tile, or one it did not need    0.3
    change-tile     one half of a tile off by one:   [5-6] for [5-5]               0.4
    change-draw     one half of a drawn tile off by one: draws [2-6] for [2-5]     0.4
    change-claim    wrote the wrong points (+n) for a play, or a claim for a       0.4
                    pass or a draw
    change-muggins  wrote the wrong points for a Muggins call                      0.4
    change-player   put the cell in the next column (the neighbour's move)         0.5
    change-deal     one half of a dealt tile off by one                            0.5
    change-arm      wrote an arm (>n) the tile did not have                        0.5
    insert-move     dropped a pass                                                 0.6
    insert-move     dropped a draw                                                 0.6
    change-draw     a play written for a draw of the same tile, or the reverse     0.6
    swap-moves      swapped two neighbouring cells (same row, or same column       0.6
                    in the next row)
    change-tile     one half changed by more than one: [2-6] for [5-6]             0.7
    delete-move     wrote a pass that was never made                               0.7
    delete-move     wrote a draw that was never made                               0.7
    insert-move     dropped a tile                                                 0.8
    delete-move     wrote a tile that was never played                             0.8
    delete-move     wrote a Muggins call that was never made                       0.8
    change-deal     one half of a dealt tile changed by more than one              0.8
    change-tile     both halves off by one                                         0.9
    change-tile     a tile for a pass, or a pass for a tile                        0.9
    change-player   put the cell in a column that is not next to it                0.9
    deal-add        dropped a tile from a hand (the hand is short)                 0.9
    deal-delete     wrote a tile into a hand twice (the hand is long)              0.9
    insert-row      dropped a whole row of the table (one edit)                    1.0
    delete-row      copied a row twice (one edit)                                  1.0
    swap-moves      swapped two cells further apart                                1.0
    change-tile     both halves changed                                            1.0
    change-deal     both halves of a dealt tile changed                            1.1

A drawn tile changed by more costs what change-tile costs for it (0.7 to 1.0). "Swapped halves"
([6-5] for [5-6]) is no slip at all: a tile reads the same either way round. An entry inserted or
changed to a tile that fits several open ends or arms is written with its ``@n`` (and ``>n``), one
candidate for each; an inserted play of All Fives claims what it scores (``+n``) unless a Muggins
call follows it. A missed claim is left alone: it is a warning, not an error.

The search. A repair must touch the record at or before its first error (the moves before it are
legal and stay so unless an edit changes them), so the edits are searched left to right: each edit
lies at or before the first error of the record as the earlier edits left it, and whatever an edit
writes (a changed tile, an inserted move or row, the move swapped in) must be legal where it
stands, so only the mover's legal moves at that point are ever tried. A depth-limited search applies
one edit, replays from the edit point to the next first error, and tries the next edit there.
Replaying uses a lean checker of its own for the moves (the rules of :func:`analyzer.replay.replay`
on bit-mask states kept for every move of the line, so a trial restarts from the edit point instead
of from the deal; when a tile fits both open ends it follows both; a hand ends the variant's way);
the deal, who may lead and with what, and the score of a finished hand are the replayer's own (a
replay of the deal alone per deal and leader, and a full replay of a line that ends the stated way,
both cached). Deal edits come first:
they fix a broken deal (a tile dealt twice, a tile missing, a hand of the wrong size) or, in pairs,
exchange a tile between two hands. Every repair that is returned is confirmed by
:func:`~analyzer.replay.replay`.

Two rules prune further without losing a repair. A tile an edit writes that the record plays again
later needs an edit of its own at that later cell (nothing left of it can change any more), so the
last edit may write only tiles the rest of the record never plays, and the one before it at most one
such tile (or a row's worth, which one deleted row removes). And some errors the last edit must
cure are local: a move out of turn needs a move more or fewer before it, a foreign tile or an
unknown player an edit at that move, a tile played twice an edit at either play, a tile from
another hand a swap with it (unless the hand ends earlier and only passes follow).

Draws, claims, arms and runs. The lean checker knows one kind of game: turns in order on a
two-ended line. The draw games, All Fives (claimed points and Muggins calls), the layouts with arms
(French, cross) and Hungarian runs -- and any record that writes a draw, a claim, a Muggins call or
an arm -- take the position path instead: the same left-to-right search, whose checker drives the
variant's own position (:func:`analyzer.rules.ending.position_for`, as the replayer sets it up for
the deal) entry by entry with the replayer's rules, keeping a copy of the position before every
entry; the candidates are the mover's legal entries there (plays on every end or arm they fit, the
pass, a draw of every tile the boneyard may hold) and the edits of the table above. A trial costs
about ten lean ones, so this path searches one edit first and stops at the smallest size that has a
repair (its counts say nothing of larger ones), its budget is 40,000 trials, the variant's scoring of
the final position rules a line out before the replayer is asked, and the last edit's focus is
sharper: a move out of turn (one turn per play or pass) needs the number of plays and passes before
it changed (a draw keeps the turn); a tile that fits no end or arm, or a claim the ends do not give,
needs the plays before it changed (draws, passes and claims cannot help); a tile not held needs a
draw of it (or a swap); a tile drawn that is not in the boneyard an edit at an entry with that tile.
A sound deal gets its deal edits from the first error: a dealt tile that should have been a boneyard
tile (one edit) or another hand's (an exchange, two).

What it does not do: change tags (a wrong Result or Lead stays as written), insert or change moves
after the hand is over (it deletes them), restore a dropped first row unless what remains starts a
row, or exchange tiles between hands in one edit (that takes two deal edits). Two edits at one cell
are tried only as "the cell goes to the player on turn, then its tile changes or is swapped". On the
position path it does not insert a whole dropped row (each entry is an edit of its own), change who
leads when no Lead tag names him, add a claim or a Muggins call the record did not write (a missed
score is only a warning), or turn a draw into ``draws ?``; and it cannot tell apart draws of tiles
the record never shows again: every boneyard tile that leaves the stated result is an equally good
repair, and the report says how many tie.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ..position import Outcome, Position, mask_of, tiles_of
from ..record import Game, HandEntry, MoveEntry, StatedResult
from ..replay import Replay, hand_facts, replay, resolve_variant
from ..rules import LeadRequirement, Variant
from ..rules.judge import Judge
from ..tiles import Move, Tile, tile_set

__all__ = ["repair", "first_error", "RepairReport", "Repair", "Edit", "COSTS", "tile_slip_cost"]

COSTS: dict[str, float] = {
    "change-end": 0.3,
    "change-tile/off-by-one": 0.4,
    "change-player/adjacent": 0.5,
    "insert-move/pass": 0.6,
    "swap-moves/adjacent": 0.6,
    "change-tile/one-half": 0.7,
    "delete-move/pass": 0.7,
    "insert-move/tile": 0.8,
    "delete-move/tile": 0.8,
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
    "change-draw/play": 0.6,
    "delete-move/draw": 0.7,
    "delete-move/muggins": 0.8,
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

def _edits(k: int) -> str:
    return f"{k} edit{'s' * (k != 1)}"


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
            parts.append(f"round {self.round}")
        if self.line:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column else ""))
        elif self.index is not None:
            parts.append(f"move {self.index + 1}")
        return ", ".join(parts)

    def __str__(self) -> str:
        k, who, at = self.kind, self.player, self.where
        at = f" ({at})" if at else ""
        if k in ("insert-row", "insert-move"):
            what = f"the missing row {self.after}" if k == "insert-row" else f"{who} {self.after}"
            if self.at_end:
                return f"add {what} after the last move" + (f" (line {self.line})" if self.line else "")
            return f"insert {what} before{at}"
        if k == "delete-row":
            return f"delete the row {self.before}{at}"
        if k == "delete-move":
            return f"delete {who}'s {self.before}{at}"
        if k in ("change-tile", "change-end", "change-draw", "change-arm", "change-claim", "change-muggins"):
            return f"change {who}'s {self.before} to {self.after}{at}"
        if k == "change-player":
            return f"move the cell from {self.before}'s column to {self.after}'s{at}"
        if k == "swap-moves":
            o = self.other or {}
            there = f"line {o['line']}" if o.get("line") else f"move {(o.get('index') or 0) + 1}"
            return f"swap {who}'s {self.before}{at} with {o.get('player')}'s {self.after} ({there})"
        if k == "change-deal":
            return f"change {self.before} in {who}'s hand to {self.after}{at}"
        if k == "deal-add":
            return f"add {self.after} to {who}'s hand{at}"
        if k == "deal-delete":
            return f"remove {self.before} from {who}'s hand{at}"
        return f"{k}: {self.before} -> {self.after}{at}"


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
            return "the record is legal; nothing to repair"
        if self.problem:
            return self.problem
        if not self.repairs:
            bound = _edits(self.max_edits)
            tail = "" if self.complete else f" (the search stopped after {self.searched} candidates)"
            return f"no repair within {bound}{tail}"
        n = self.smallest
        edits = _edits
        if self.tied > 1:
            text = f"{self.tied} repairs with {edits(n)} are equally good"
        elif self.counts[n] == 1:
            text = f"the only repair with {edits(n)}"
        else:
            text = f"the best of {self.counts[n]} repairs with {edits(n)}"
        more = [f"{v} with {edits(k)}" for k, v in sorted(self.counts.items()) if k > n]
        return text + (f" (also {', '.join(more)})" if more else "")

    def as_dict(self) -> dict[str, Any]:
        return {"valid": self.valid, "stated": self.stated, "max_edits": self.max_edits,
                "message": self.message, "counts": {str(k): v for k, v in sorted(self.counts.items())},
                "tied": self.tied, "common": self.common, "complete": self.complete,
                "searched": self.searched, "repairs": [r.as_dict() for r in self.repairs]}


# ---- the lean checker --------------------------------------------------------------------------------
#
# A state is a tuple (hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening):
# hands: every seat's known tiles (bit masks); ends: the open numbers or None; turn: the seat to move;
# passes: passes in a row; last: the seat that played the last tile (-1: none yet); over: None, or
# ("domino" | "blocked", seat); played: mask of the tiles on the table; hidden: None when every hand is
# known, else each seat's count of tiles the record does not show, with pool (the tiles nobody is known
# to hold) and lacks (per seat, a mask of the numbers a pass proved he lacks); opening: the tiles the
# lead may be (0: any), as the replayer sets them for this deal and leader.
#
# A cell is a move of the line being tried: (seat, tile, end, bit, low, high, src, orig, name, annotation)
# with src the MoveEntry it comes from (None: inserted) and orig its index in the input (None: new).

_SEAT, _TILE, _END, _BIT, _LOW, _HIGH, _SRC, _ORIG, _NAME, _ANNOT = range(10)

# errors only an edit at a few places can remove (see _Search.focus); "mixed": the branches of a
# two-way tile fail differently
_LOCAL = frozenset({"turn-order", "unknown-player", "tile-foreign", "tile-already-played", "tile-not-held"})
_LEAD_CODES = frozenset({"lead-player", "lead-double"})   # the replayer's complaints about who leads


def _deal_key(hands) -> tuple:
    """A deal as its content: the same hands in another order are the same deal."""
    return tuple((e.player, None if e.tiles is None else tuple(sorted(e.tiles))) for e in hands)


class _Deal:
    """One deal of the game. Whether it is sound, and the state before the lead for each leader,
    come from the replayer itself (a replay of the deal alone, cached); what is wrong with a broken
    deal (tiles dealt twice, foreign or missing, hands of the wrong size) is worked out here, to
    propose the deal edits."""

    def __init__(self, search: _Search, hands: tuple[HandEntry, ...]):
        self.search = search
        self.entries = hands
        self.key = _deal_key(hands)
        self._leads: dict[int | None, tuple[tuple, str | None]] = {}
        self.positions: dict[int | None, Position] = {}    # the replayer's position before the lead
        self._ok: bool | None = None
        v = search.variant
        valid = search.valid_tiles
        size = v.dealing.hand_size
        seen: dict[Tile, tuple[int, int]] = {}
        self.dups: dict[Tile, list[tuple[int, int]]] = {}      # tile -> (hand entry, place in it)
        self.foreign: list[tuple[int, int]] = []
        self.sizes: list[tuple[int, int]] = []                 # (hand entry, size) for wrong sizes
        for h, entry in enumerate(hands):
            if entry.tiles is None or entry.player not in search.seat_of:
                continue
            for k, tile in enumerate(entry.tiles):
                if tile not in valid:
                    self.foreign.append((h, k))
                elif tile in seen:
                    self.dups.setdefault(tile, [seen[tile]]).append((h, k))
                else:
                    seen[tile] = (h, k)
            if len(entry.tiles) != size:
                self.sizes.append((h, len(entry.tiles)))
        self.missing = sorted(valid - set(seen))
        self.hidden = any(e.tiles is None for e in hands) or len(hands) < len(search.players)

    @property
    def ok(self) -> bool:
        """Whether the deal itself is sound (who leads aside)."""
        if self._ok is None:
            self.lead_state(self.search.lead_seat)
        return self._ok

    def lead_state(self, leader: int | None) -> tuple[tuple, str | None]:
        """The state before the lead when ``leader`` leads (None: as the record decides), and the
        error code: "deal" for a broken deal, "lead-player" when the rules want another leader (the
        state then has that player to move)."""
        got = self._leads.get(leader)
        if got is None:
            got = self._leads[leader] = self._replay_deal(leader)
        return got

    def _replay_deal(self, leader: int | None) -> tuple[tuple, str | None]:
        s = self.search
        tags = {k: v for k, v in s.game.tags.items() if k != "Result"}
        if leader is not None:
            tags["Lead"] = s.players[leader]
        stub = replace(s.game, tags=tags, hands=self.entries, moves=[])
        rep = replay(stub, s.variant, lead=s.lead)
        pos = self.positions[leader] = rep.initial
        code = None
        errors = [d for d in rep.deal_diagnostics if d.severity == "error"]
        deal_errors = [d for d in errors if d.code not in _LEAD_CODES]
        if self._ok is None:
            self._ok = not deal_errors
        turn = pos.turn
        if deal_errors:
            code = "deal"
        elif errors:
            code = "lead-player"
            expected = str(errors[0].details.get("expected", "")).split(" or ")[0]
            turn = s.seat_of.get(expected, turn)
        hidden = tuple(pos.hidden) if any(pos.hidden) else None
        lacks = (0,) * len(s.players) if hidden else None
        state = (tuple(pos.hands), None, turn, 0, -1, None, 0, hidden, pos.pool, lacks, pos.opening)
        return state, code

    def leader(self, seq: list) -> int | None:
        """Who leads ``seq``: the Lead tag's player, else the first mover the record names."""
        leader = self.search.lead_seat
        if leader is None:
            leader = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        return leader

    def initial(self, seq: list) -> tuple[tuple, str | None]:
        """The state before the first move of ``seq`` (see :meth:`lead_state`)."""
        return self.lead_state(self.leader(seq))


class _Search:
    """The repair search for one game."""

    default_nodes = 400_000

    def __init__(self, game: Game, variant: Variant, max_edits: int, max_nodes: int,
                 lead: LeadRequirement | None = None):
        self.game = game
        self.variant = variant
        self.max_edits = max_edits
        self.max_nodes = max_nodes
        self.nodes = 0
        self.players = tuple(game.players) if game.players else tuple(h.player for h in game.hands)
        self.seat_of = {name: s for s, name in enumerate(self.players)}
        self.n = len(self.players)
        v = variant
        self.valid_tiles = set(v.dealing.tiles)
        self.valid_mask = mask_of(v.dealing.tiles)
        self.max_pip = v.dealing.max_pip
        self.tiles = tile_set(self.max_pip)
        self.match = [mask_of(t for t in self.tiles if t.matches(k)) for k in range(self.max_pip + 1)]
        self.lead = lead
        self.pair_end = variant.end == "pair"
        self.teams = variant.seating.teams
        self.lead_seat = None
        lead_tag = game.tags.get("Lead")
        if lead_tag:
            self.lead_seat = self.seat_of.get(lead_tag.strip())
        self.problem = None
        if variant.end not in ("one", "pair"):
            self.problem = f"the repair search does not know how a hand ends under {variant.name} (end={variant.end})"
        self.stated = None
        tag = game.tags.get("Result")
        if tag is not None:
            try:
                self.stated = StatedResult.parse(tag)
            except ValueError as exc:
                self.problem = f"the Result tag cannot be read: {exc}"
        if self.stated is not None and self.stated.side is not None:
            if any(name not in self.seat_of for name in self.stated.side):
                self.problem = (f"the Result tag names {'/'.join(self.stated.side)}, who are not all "
                                f"players of this game ({', '.join(self.players)})")
        # rows: the column a row starts with, and the first row's number
        self.row_start, self.first_round = self._row_scheme(game.moves)
        self.has_rounds = bool(game.moves) and all(m.round is not None for m in game.moves)
        self.renumber = False
        self.deals: dict[tuple, _Deal] = {}
        self._inserted: dict[int, list[tuple]] = {}
        self.found: dict[tuple, tuple] = {}      # record key -> (n edits, cost, edits, seq, deal)
        self.builder = _Builder(self, game)
        self.confirmed: dict[tuple, bool] = {}   # record key -> what the replayer says of it

    def _row_scheme(self, moves: list[MoveEntry]) -> tuple[int, int]:
        starts: dict[int, int] = {}
        for prev, move in zip(moves, moves[1:]):
            if move.round is not None and prev.round is not None and move.round != prev.round:
                col = self.seat_of.get(move.player)
                if col is not None:
                    starts[col] = starts.get(col, 0) + 1
        start = max(starts, key=lambda c: (starts[c], -c)) if starts else 0
        first = moves[0].round if moves and moves[0].round is not None else 1
        return start, first

    def deal_for(self, hands: tuple[HandEntry, ...]) -> _Deal:
        key = _deal_key(hands)
        deal = self.deals.get(key)
        if deal is None:
            deal = self.deals[key] = _Deal(self, hands)
        return deal

    # -- cells ---------------------------------------------------------------------------------
    def cells(self, game: Game) -> list[tuple]:
        """The record's moves as cells."""
        return [self.cell(m.player, m.tile, m.end, m, i, m.annotation) for i, m in enumerate(game.moves)]

    def cell(self, name: str, tile: Tile | None, end: int | None, src: MoveEntry | None,
             orig: int | None, annotation: str | None) -> tuple:
        seat = self.seat_of.get(name)
        if tile is None:
            return (seat, None, None, 0, -1, -1, src, orig, name, annotation)
        return (seat, tile, end, tile.bit, tile.low, tile.high, src, orig, name, annotation)

    def inserted(self, seat: int) -> list[tuple]:
        """The cells of the moves the repair may insert for ``seat``: one per tile (by index), the
        pass last. The same cells serve every trial."""
        cells = self._inserted.get(seat)
        if cells is None:
            name = self.players[seat]
            cells = [self.cell(name, t, None, None, None, None) for t in self.tiles]
            cells.append(self.cell(name, None, None, None, None, None))
            self._inserted[seat] = cells
        return cells

    # -- stepping ------------------------------------------------------------------------------
    def step(self, st: tuple, c: tuple, own: bool = False) -> tuple[list, str | None]:
        """The states after cell ``c`` (several when the tile fits both ends), or [] and the error."""
        hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening = st
        seat = c[0]
        if seat is None:
            return [], "unknown-player"
        tile = c[1]
        if over is not None:
            return ([st], None) if tile is None else ([], "play-after-end")
        if seat != turn:
            return [], "turn-order"
        n = self.n
        match = self.match
        if tile is None:
            if ends is None:
                return [], "false-pass"
            a, b = ends
            if hands[seat] & (match[a] | match[b]):
                return [], "false-pass"
            passes += 1
            if hidden is not None and hidden[seat]:
                lacks = lacks[:seat] + (lacks[seat] | (1 << a) | (1 << b),) + lacks[seat + 1:]
            if passes >= n:
                over = ("blocked", last if last >= 0 else seat)
            return [(hands, ends, (turn + 1) % n, passes, last, over, played, hidden, pool, lacks, opening)], None
        bit = c[3]
        if not bit & self.valid_mask:
            return [], "tile-foreign"
        if played & bit:
            return [], "tile-already-played"
        hand = hands[seat]
        hidden_used = False
        if not hand & bit:
            if hidden is not None and hidden[seat] and pool & bit:
                hidden_used = True
            else:
                return [], "tile-not-held"
        low, high = c[4], c[5]
        if ends is None:
            if opening and not opening & bit:
                return [], "lead-tile"
            options = ((None, (low, high)),)
        else:
            a, b = ends
            options = []
            if low == a:
                options.append((a, (high, b)))
            elif high == a:
                options.append((a, (low, b)))
            if b != a:
                if low == b:
                    options.append((b, (a, high)))
                elif high == b:
                    options.append((b, (a, low)))
            if not options:
                return [], "tile-no-match"
            end = c[2]
            if end is not None:
                options = [o for o in options if o[0] == end]
                if not options:
                    return [], "end-mismatch"
        if hidden is not None:
            if hidden[seat] and lacks[seat] & ((1 << low) | (1 << high)):
                return [], "false-pass"
            if hidden_used:
                pool &= ~bit
                hidden = hidden[:seat] + (hidden[seat] - 1,) + hidden[seat + 1:]
                left = hand.bit_count() + hidden[seat]
                new_hands = hands
            else:
                hand &= ~bit
                new_hands = hands[:seat] + (hand,) + hands[seat + 1:]
                left = hand.bit_count() + hidden[seat]
        else:
            hand &= ~bit
            new_hands = hands[:seat] + (hand,) + hands[seat + 1:]
            left = hand
        played |= bit
        nxt = (turn + 1) % n
        out = []
        out_too = not left
        if out_too and self.pair_end:       # the hand ends when both of a pair are out
            side = self.teams[seat]
            for s in range(n):
                if s != seat and self.teams[s] == side and (new_hands[s] or (hidden is not None and hidden[s])):
                    out_too = False
        for _, (x, y) in options:
            if out_too:
                o = ("domino", seat)
            else:
                fit = match[x] | match[y]
                o = ("blocked", seat)
                for h in new_hands:
                    if h & fit:
                        o = None
                        break
                if o is not None and hidden is not None and any(hidden) and pool & fit:
                    o = None
            out.append((new_hands, (x, y), nxt, 0, seat, o, played, hidden, pool, lacks, opening))
        return out, None

    def from_deal(self, seq: list, deal: _Deal, frontiers: list | None) -> tuple[list, tuple | None]:
        """The frontier at the deal, and what ``run`` returns at once when the deal or the lead is
        already wrong (``(-1, "deal")`` or ``(0, code)``), else None."""
        st, code = self.initial_state(seq, deal)
        if code == "deal":
            return [st], (-1, code)
        frontier = [st]
        if code is not None:
            if frontiers is not None:
                frontiers.append(frontier)
            return frontier, (0, code)
        return frontier, None

    def run(self, seq: list, start: int, frontier: list | None, deal: _Deal,
            frontiers: list | None) -> tuple[int | None, str | None]:
        """Replay ``seq`` from ``start`` (from the deal when ``frontier`` is None); return the first
        error's index (``len(seq)``: the end does not agree with the stated result; -1: the deal)
        and its code, or (None, None) when the whole record is legal. ``frontiers`` (a list) receives
        the frontier before each move from ``start`` on."""
        if frontier is None:
            frontier, stop = self.from_deal(seq, deal, frontiers)
            if stop is not None:
                return stop
            start = 0
        own = frontiers is None      # no state is kept: the trial may change its own copies in place
        frontier = self.fresh(frontier, own)
        step = self.step
        for k in range(start, len(seq)):
            if frontiers is not None:
                frontiers.append(frontier)
            c = seq[k]
            if len(frontier) == 1:
                nf, code = step(frontier[0], c, own)
            else:
                nf, code = self.spread(frontier, c, own)
            if not nf:
                return k, code
            frontier = nf
        if frontiers is not None:
            frontiers.append(frontier)
        if self.end_ok(frontier, seq, deal):
            return None, None
        return len(seq), "result-mismatch"

    def fresh(self, frontier: list, own: bool) -> list:
        """The states a trial starts from (the lean states are values: no copy needed)."""
        return frontier

    state_key = None     # states that agree in this key are followed once (None: the lean states all are)

    def spread(self, frontier: list, c: tuple, own: bool) -> tuple[list, str | None]:
        """The states after cell ``c`` from every state of ``frontier``, and the error when none is
        left (``"mixed"`` when the states fail for different reasons)."""
        nf, code, seen, key = [], None, set(), self.state_key
        for st in frontier:
            got, why = self.step(st, c, own)
            if key is None:
                nf.extend(got)
            else:
                for new in got:
                    k = key(new)
                    if k not in seen:
                        seen.add(k)
                        nf.append(new)
            code = why if code is None or code == why else "mixed"
        return nf, code

    def initial_state(self, seq: list, deal: _Deal) -> tuple[tuple, str | None]:
        """The state before the first move and the deal's error code (see :meth:`_Deal.lead_state`)."""
        return deal.initial(seq)

    def end_ok(self, frontier: list, seq: list, deal: _Deal) -> bool:
        """Whether a line that is legal to its end ends as the record states. The open cases (the
        hand ends the stated way) go to the replayer, whose scoring is the variant's own."""
        stated = self.stated
        if stated is None:
            return True
        if not any(st[5] is not None and (not stated.termination or st[5][0] == stated.termination)
                   for st in frontier):
            return False
        key = (tuple((c[0], c[1], c[2]) for c in seq), deal.key)
        ok = self.confirmed.get(key)
        if ok is None:
            game = self.builder.game_for(seq, deal)
            ok = self.confirmed[key] = replay(game, self.variant, lead=self.lead).valid
        return ok

    # -- legal moves -----------------------------------------------------------------------------
    def legal_mask(self, frontier: list) -> tuple[int, bool]:
        """The tiles the mover may play in any state of ``frontier`` (a mask), and whether he may
        (must) pass in one of them. (0, False) once the hand is over."""
        st = frontier[0]
        if st[5] is not None:
            return 0, False
        seat = st[2]
        hand = st[0][seat]
        hidden = st[7]
        if hidden is not None and hidden[seat]:
            hand |= st[8]
        must_pass = False
        mask = 0
        match = self.match
        for st in frontier:
            ends = st[1]
            if ends is None:
                have = hand & st[10] if st[10] else hand
            else:
                have = hand & (match[ends[0]] | match[ends[1]])
            if have:
                mask |= have
            elif ends is not None:
                must_pass = True
        return mask & ~st[6], must_pass

    def legal(self, frontier: list) -> list[Tile | None]:
        """The mover's legal moves in any state of ``frontier`` (None: a pass)."""
        mask, must_pass = self.legal_mask(frontier)
        out: list[Tile | None] = list(tiles_of(mask, self.max_pip))
        if must_pass:
            out.append(None)
        return out

    def rows(self, frontier: list, length: int, fits=None) -> list[list[tuple]]:
        """Every legal sequence of ``length`` moves (shorter when the hand ends) from ``frontier``,
        as inserted cells, whose tiles (a mask) pass ``fits``."""
        out: list[list[tuple]] = []
        seen: set[tuple] = set()
        step, legal_mask, inserted = self.step, self.legal_mask, self.inserted

        def walk(st: tuple, path: list, mask: int) -> None:
            if len(path) == length or st[5] is not None:
                key = tuple(c[_BIT] if c[_TILE] is not None else -1 for c in path)
                if path and key not in seen:
                    seen.add(key)
                    out.append(list(path))
                return
            seat = st[2]
            cells = inserted(seat)
            playable, must_pass = legal_mask([st])
            options = []
            while playable:
                low = playable & -playable
                playable ^= low
                if fits is None or fits(mask | low):
                    options.append((cells[low.bit_length() - 1], mask | low))
            if must_pass:
                options.append((cells[-1], mask))
            for c, more in options:
                got, _ = step(st, c)
                for nxt in got:
                    path.append(c)
                    walk(nxt, path, more)
                    path.pop()

        for st in frontier:
            walk(st, [], 0)
        return out

    # -- the search ------------------------------------------------------------------------------
    def search(self, game: Game) -> tuple[list, bool]:
        seq = [self.cell(m.player, m.tile, m.end, m, i, m.annotation) for i, m in enumerate(game.moves)]
        deal = self.deal_for(tuple(game.hands))
        frontiers: list = []
        L, code = self.run(seq, 0, None, deal, frontiers)
        if L is None:
            return [], True
        # renumber the rows of a repair only when the record's own numbering follows its rows
        first = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        if self.has_rounds and first is not None:
            offset = (first - self.row_start) % self.n
            self.renumber = all(m.round == self.first_round + (offset + k) // self.n
                                for k, m in enumerate(game.moves[:max(L, 1)]))
        if self.problem is None and self.max_edits > 0:
            self.visit(seq, deal, frontiers, L, code, (), 0.0, -1, self.max_edits)
        return seq, False

    def visit(self, seq, deal, frontiers, L, code, edits, cost, min_pos, depth) -> None:
        """Try every edit at ``min_pos`` .. ``L`` (the first error) and go on from each."""
        for new_seq, new_deal, start, edit, next_min in self.candidates(seq, deal, frontiers, L, code,
                                                                        min_pos, depth):
            if self.nodes >= self.max_nodes:
                return
            self.nodes += 1
            keep = [] if depth > 1 else None
            if new_deal is not deal:
                nL, ncode = self.run(new_seq, 0, None, new_deal, keep)
            elif start == 0:
                nL, ncode = self.run(new_seq, 0, None, deal, keep)
            else:
                if keep is not None:
                    keep.extend(frontiers[:start])
                nL, ncode = self.run(new_seq, start, frontiers[start], deal, keep)
            new_edits = edits + (edit,)
            new_cost = cost + edit[1]
            if nL is None:
                self.record(new_seq, new_deal, new_edits, new_cost)
            elif depth > 1 and nL >= next_min:
                self.visit(new_seq, new_deal, keep, nL, ncode, new_edits, new_cost, next_min, depth - 1)

    def record(self, seq, deal, edits, cost) -> None:
        key = (tuple((c[0], c[1], c[2]) for c in seq), deal.key)
        have = self.found.get(key)
        rank = (len(edits), round(cost, 6))
        if have is None or rank < (have[0], round(have[1], 6)):
            self.found[key] = (len(edits), cost, edits, seq, deal)

    def focus(self, seq: list, L: int, code: str | None) -> tuple | None:
        """Where the last edit can still remove the error at ``L`` (None: anywhere before it).

        Most errors can be cured from afar (another tile earlier changes the open ends), but not all:
        an edit before ``L`` that keeps the number of moves keeps the turn, a tile nobody dealt stays
        foreign, a tile played twice needs one of the two plays changed, and a tile in another hand
        can only come from a swap with that move. (Unless the hand ends earlier and only passes follow.)"""
        if code not in _LOCAL or all(c[_TILE] is None for c in seq[L:]):
            return None
        places = {L}
        if code == "tile-already-played":
            tile = seq[L][_TILE]
            places.add(next((i for i in range(L - 1, -1, -1) if seq[i][_TILE] == tile), L))
        rows = {self.row_start_of(seq, i) for i in places}      # a whole row deleted removes it too
        mode = {"turn-order": "count", "tile-not-held": "swap-into"}.get(code, "only")
        return mode, places, rows

    def row_start_of(self, seq: list, i: int) -> int:
        """The index of the first cell of the written row that holds cell ``i``."""
        src = seq[i][_SRC] if i < len(seq) else None
        if not self.has_rounds or src is None:
            return i
        while i > 0 and seq[i - 1][_SRC] is not None and seq[i - 1][_SRC].round == src.round:
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
            later[k] = later[k + 1] | seq[k][_BIT]
        if depth == 1:
            return lambda mask, start: not mask & later[start]
        if depth > 2:
            return lambda mask, start: True
        row_of: dict[int, int | None] = {}
        for c in seq:
            if c[_BIT]:
                src = c[_SRC]
                row_of[c[_BIT]] = None if c[_BIT] in row_of or src is None else src.round
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

    def candidates(self, seq, deal, frontiers, L, code, min_pos, depth):
        """(new seq, new deal, first changed index, raw edit, next min position) for each edit at or
        after ``min_pos`` and at or before the first error ``L``."""
        if min_pos <= -1:
            yield from self.deal_candidates(seq, deal, frontiers, L, code, depth)
        if L < 0:
            return
        players = self.players
        n = self.n
        cell = self.cell
        inserted = self.inserted
        last = depth == 1
        focus = self.focus(seq, L, code) if last else None
        fits = self.conflicts(seq, depth)
        for p in range(max(min_pos, 0), L + 1):
            everything = focus is None or p == L or (focus[0] == "only" and p in focus[1])
            row_only = not everything and p in focus[2]
            if not everything and focus[0] == "only" and not row_only:
                continue
            frontier = frontiers[p]
            st = frontier[0]
            over = st[5] is not None
            mover = st[2]
            name = players[mover]
            lmask, lpass = self.legal_mask(frontier)
            legal = list(tiles_of(lmask, self.max_pip)) + ([None] if lpass else [])
            here = seq[p] if p < len(seq) else None
            # change the move written here
            if here is not None and not over and (everything or focus[0] == "swap-into"):
                if here[_SEAT] == mover:
                    for tile in (legal if everything else ()):
                        if tile == here[_TILE] or (tile is not None and not fits(tile.bit, p + 1)):
                            continue
                        end = here[_END] if tile is not None and here[_END] is not None and tile.matches(here[_END]) else None
                        new = cell(name, tile, end, here[_SRC], here[_ORIG], here[_ANNOT])
                        yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                               ("change-tile", tile_slip_cost(here[_TILE], tile), here, here[_TILE], tile, None),
                               p + 1)
                    if everything and here[_TILE] is not None and here[_END] is not None and here[_BIT] & lmask:
                        new = cell(name, here[_TILE], None, here[_SRC], here[_ORIG], here[_ANNOT])
                        yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                               ("change-end", COSTS["change-end"], here, here[_END], None, None), p + 1)
                    # swap this move with a later one that would be legal here
                    for j in (range(p + 1, len(seq)) if everything else (L,)):
                        there = seq[j]
                        if there[_TILE] == here[_TILE] or not (there[_BIT] & lmask if there[_BIT] else lpass):
                            continue
                        a = cell(name, there[_TILE], there[_END], here[_SRC], here[_ORIG], there[_ANNOT])
                        b = cell(there[_NAME], here[_TILE], here[_END], there[_SRC], there[_ORIG], here[_ANNOT])
                        near = j - p == 1 or (j - p == n and self.has_rounds)
                        yield (seq[:p] + [a] + seq[p + 1:j] + [b] + seq[j + 1:], deal, p,
                               ("swap-moves", COSTS["swap-moves/adjacent" if near else "swap-moves/other"],
                                here, there, None, None), p + 1)
                elif everything and ((fits_here := bool(here[_BIT] & lmask if here[_BIT] else lpass)) or not last):
                    # the cell belongs to the player on turn; with an edit to spare, its tile may
                    # still be wrong (the next edit, at this same cell, changes or swaps it)
                    new = cell(name, here[_TILE], here[_END], here[_SRC], here[_ORIG], here[_ANNOT])
                    old = here[_SEAT]
                    near = old is not None and (old - mover) % n in (1, n - 1)
                    yield (seq[:p] + [new] + seq[p + 1:], deal, p,
                           ("change-player", COSTS["change-player/adjacent" if near else "change-player/other"],
                            here, here[_NAME], name, None), p + 1 if fits_here else p)
            counting = everything or focus[0] == "count"
            # delete the move written here
            if counting and here is not None and not (over and here[_TILE] is None):
                cost = COSTS["delete-move/pass" if here[_TILE] is None else "delete-move/tile"]
                yield (seq[:p] + seq[p + 1:], deal, p, ("delete-move", cost, here, None, None, None), p)
            # a row copied twice (or one that never was)
            if ((counting or row_only) and here is not None and self.has_rounds and here[_SRC] is not None
                    and (p == 0 or seq[p - 1][_SRC] is None or seq[p - 1][_SRC].round != here[_SRC].round)):
                q = p
                while q < len(seq) and seq[q][_SRC] is not None and seq[q][_SRC].round == here[_SRC].round:
                    q += 1
                if q - p > 1:
                    yield (seq[:p] + seq[q:], deal, p, ("delete-row", COSTS["delete-row"], here, seq[p:q], None, None), p)
            if over or not counting:
                continue
            # insert a move (or a whole row, one edit) the record dropped
            ins_frontier, ins_mover = frontier, mover
            first_unnamed = p == 0 and self.lead_seat is None and here is not None and here[_SEAT] is not None
            if first_unnamed:
                # nobody names the leader: an inserted first move is the lead, by the player before
                ins_mover = (here[_SEAT] - 1) % n
                ins_frontier = [deal.lead_state(ins_mover)[0]]
            ins_name = players[ins_mover]
            for tile in self.legal(ins_frontier):
                if tile is not None and not fits(tile.bit, p):
                    continue
                kind = "insert-move/pass" if tile is None else "insert-move/tile"
                new = inserted(ins_mover)[tile.index if tile is not None else -1]
                yield (seq[:p] + [new] + seq[p:], deal, p,
                       ("insert-move", COSTS[kind], here, None, tile, ins_name), p + 1)
            if not everything and p > 0:      # a whole row keeps the turn (a first row may not)
                continue
            starts = []
            if first_unnamed:
                if here[_SEAT] == self.row_start:          # the first row, led by anyone
                    starts = [(c, [deal.lead_state(c)[0]]) for c in range(n)]
            elif p == 0 or mover == self.row_start:
                starts = [(mover, frontier)]
            for first, row_frontier in starts:
                length = (self.row_start - first) % n or n
                for new_cells in self.rows(row_frontier, length, lambda mask: fits(mask, p)):
                    yield (seq[:p] + new_cells + seq[p:], deal, p,
                           ("insert-row", COSTS["insert-row"], here, None, new_cells, None), p + len(new_cells))

    def deal_candidates(self, seq, deal, frontiers, L, code, depth):
        entries = deal.entries
        if not deal.ok:
            spots = [spot for places in deal.dups.values() for spot in places] + deal.foreign
            size = self.variant.dealing.hand_size
            long = {h for h, k in deal.sizes if k > size}
            short = {h for h, k in deal.sizes if k < size}
            for h, k in spots:
                old = entries[h].tiles[k]
                for tile in deal.missing:
                    cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                    yield self.deal_edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))
            for h in long:          # a tile too many: written twice, or (any) meant for a short hand
                for k, old in enumerate(entries[h].tiles):
                    if short or (h, k) in spots:
                        yield self.deal_edit(seq, deal, h, k, None,
                                             ("deal-delete", COSTS["deal-delete"], (h, k), old, None, None))
            for h in short:
                for tile in deal.missing:
                    yield self.deal_edit(seq, deal, h, None, tile, ("deal-add", COSTS["deal-add"], (h, None), None, tile, None))
            return
        if depth < 2 or L < 0 or L >= len(seq) or deal.hidden:
            return
        # an exchange between two hands takes two deal edits; the first puts the tile in question
        # into the mover's hand (or takes a playable tile out of it), the second restores the set
        c = seq[L]
        seat = c[_SEAT]
        if seat is None:
            return
        h = next((i for i, e in enumerate(entries) if e.player == self.players[seat]), None)
        if h is None or entries[h].tiles is None:
            return
        if code == "tile-not-held" and c[_TILE] is not None and c[_TILE] in self.valid_tiles:
            for k, old in enumerate(entries[h].tiles):
                cost = tile_slip_cost(old, c[_TILE]) + COSTS["change-deal/extra"]
                yield self.deal_edit(seq, deal, h, k, c[_TILE], ("change-deal", cost, (h, k), old, c[_TILE], None))
        elif code == "false-pass" and c[_TILE] is None:
            playable = [t for t in self.legal(frontiers[L]) if t is not None]
            if not playable:
                # a pass with the hand's last numbers; the frontier tells what fits
                st = frontiers[L][0]
                ends = st[1]
                if ends is None:
                    return
                fit = self.match[ends[0]] | self.match[ends[1]]
                playable = tiles_of(st[0][seat] & fit, self.max_pip)
            others = [t for i, e in enumerate(entries) if i != h and e.tiles for t in e.tiles]
            for k, old in enumerate(entries[h].tiles):
                if old not in playable:
                    continue
                for tile in others:
                    cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                    yield self.deal_edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))

    def deal_edit(self, seq, deal, h, k, tile, edit):
        entry = deal.entries[h]
        tiles = list(entry.tiles)
        if k is None:
            tiles.append(tile)
        elif tile is None:
            del tiles[k]
        else:
            tiles[k] = tile
        places = list(entry.tile_pos)
        if tile is None and k is not None and k < len(places):
            del places[k]
        hands = list(deal.entries)
        hands[h] = replace(entry, tiles=tuple(tiles), tile_pos=tuple(places))
        return seq, self.deal_for(tuple(hands)), 0, edit, -1


# ---- the position path: draws, claims, arms and runs -------------------------------------------------
#
# The lean checker knows one kind of game: turns in order on a two-ended line. Draw games, All Fives'
# claimed points and Muggins calls, layouts with arms and Hungarian runs are checked on the variant's
# own position instead (analyzer.rules.ending.position_for, as the replayer builds it for the deal),
# entry by entry with the replayer's rules. A cell is an _Entry: the MoveEntry as the repair writes it,
# its seat, and its index in the input (None: inserted). A state is a _State; its position is never
# changed once the state exists (a step copies it before a push), so the states kept for every entry
# serve every trial that restarts there.

class _Entry(NamedTuple):
    """A cell of the position path: the entry as the repair writes it, with its seat."""

    seat: int | None              # first, like a lean cell's, for _Deal.leader
    entry: MoveEntry
    orig: int | None              # its index in the input (None: inserted)


class _Narrow(NamedTuple):
    """What an edit away from the focus of the last edit may be: its groups (``_FOCUS_GROUPS``),
    and for a tile error the tile, the player and the entries it is about (None: any)."""

    groups: frozenset
    tile: Tile | None
    seat: int | None
    cells: list | None


class _State(NamedTuple):
    """The replay of a line up to an entry: the position and what the replayer keeps beside it."""

    pos: Position
    over: Outcome | None
    pending: tuple[int, int] | None                 # (seat, points) a play left unclaimed: open to Muggins
    lacks: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, numbers) each pass proved (while hands are hidden)


# tile errors only an edit at a few places can remove (see _PositionSearch.focus)
_LOCAL_TILE = frozenset({"unknown-player", "tile-foreign", "tile-already-played", "tile-not-held",
                         "draw-not-in-boneyard"})


def _needs_positions(game: Game, variant: Variant) -> bool:
    """Whether the lean checker cannot model ``game``: draws, claims or Muggins calls, arms, or runs."""
    if (variant.drawing is not None or getattr(variant, "layout", "line") != "line"
            or getattr(variant, "turns", "one") == "run" or variant.play is not None):
        return True
    return any(m.draw or m.claim is not None or m.muggins is not None or m.arm is not None for m in game.moves)


# the groups of edits that can cure an error away from its focus (see _PositionSearch.focus and
# may_cure, which then decides exactly): a move out of turn needs the number of plays and passes
# changed, a layout error the plays, a tile not held a draw of it, any other tile error a swap
_FOCUS_GROUPS = {
    "count": frozenset({"insert-tile", "insert-pass", "delete", "delete-row", "draw-flag", "swap"}),
    "layout": frozenset({"insert-tile", "delete", "delete-row", "change-tile", "draw-flag", "end", "arm", "swap"}),
    "tile-not-held": frozenset({"insert-draw", "draw-tile", "change-player", "swap", "delete-row"}),
    "tile": frozenset({"swap", "delete-row"}),
}

# errors the layout before the entry decides (see _PositionSearch.focus)
_LAYOUT = frozenset({"tile-no-match", "end-mismatch", "arm-closed", "double-skipped", "bad-arm", "wrong-score"})


def _plays(cells: list) -> tuple:
    """The plays among ``cells`` as the layout sees them: tile, open number and arm as written."""
    return tuple((c.entry.tile, c.entry.end, c.entry.arm) for c in cells if c.entry.is_play)


def _advances(m: MoveEntry) -> bool:
    """Whether an entry passes the turn on (a play or a pass; not a draw or a Muggins call)."""
    return not m.draw and m.muggins is None


def _entry_text(m: MoveEntry) -> str:
    """An entry as the notation writes it: ``draws [3-4]``, ``[2-4]@4>2! +10``, ``muggins 5``."""
    if m.muggins is not None or m.draw:
        return m.text
    text = "pass" if m.tile is None else (str(m.tile) + (f"@{m.end}" if m.end is not None else "")
                                          + (f">{m.arm}" if m.arm is not None else ""))
    return text + (m.annotation or "") + (f" +{m.claim}" if m.claim is not None else "")


def _content(m: MoveEntry) -> tuple:
    return (m.player, m.tile, m.end, m.arm, m.draw, m.claim, m.muggins)


class _PositionSearch(_Search):
    """The repair search on the variant's own position, for the games the lean checker does not model.

    The search is :class:`_Search`'s (the same :meth:`~_Search.visit`, left to right, each edit at or
    before the first error); what differs is the checker (:meth:`step`, the replayer's rules for every
    kind of entry, on copies of the position), the candidate edits (:meth:`options`: the mover's legal
    entries in the position, with every tile the boneyard may give for a draw; and the edits of the
    notation of draws, claims and arms), and the order: one edit first, then two, stopping at the
    smallest size that has a repair. A trial costs some ten lean ones, hence the smaller budget and
    the sharper :meth:`focus` of the last edit."""

    default_nodes = 40_000

    def __init__(self, game: Game, variant: Variant, max_edits: int, max_nodes: int,
                 lead: LeadRequirement | None = None):
        super().__init__(game, variant, max_edits, max_nodes, lead)
        self.builder = _PositionBuilder(self, game)
        self.play = variant.play
        self.drawing = variant.drawing
        self.runs = getattr(variant, "turns", "one") == "run"
        self.judge = Judge(variant, self.players, explain=False)
        self.unknown_draws = any(m.draw and m.tile is None for m in game.moves)
        self._options: dict[int, tuple] = {}

    def cells(self, game: Game) -> list:
        """The record's entries as cells."""
        return [_Entry(self.seat_of.get(m.player), m, i) for i, m in enumerate(game.moves)]

    def search(self, game: Game) -> tuple[list, bool]:
        seq = self.cells(game)
        deal = self.deal_for(tuple(game.hands))
        frontiers: list = []
        L, code = self.run(seq, 0, None, deal, frontiers)
        if L is None:
            return [], True
        # one edit, then two...; the smallest size that has a repair ends the search (a trial here
        # costs too much to count every larger repair, as the lean search does)
        for bound in range(1, self.max_edits + 1 if self.problem is None else 1):
            self.visit(seq, deal, frontiers, L, code, (), 0.0, -1, bound)
            if self.nodes >= self.max_nodes or self.confirmed_any():
                break
        return seq, False

    def confirmed_any(self) -> bool:
        """Whether the replayer confirms one of the repairs found so far."""
        for _, _, _, seq, deal in self.found.values():
            key = (tuple(_content(c.entry) for c in seq), deal.key)
            ok = self.confirmed.get(key)
            if ok is None:
                ok = self.confirmed[key] = replay(self.builder.game_for(seq, deal), self.variant, lead=self.lead).valid
            if ok:
                return True
        return False

    def initial_state(self, seq: list, deal: _Deal) -> tuple[_State | None, str | None]:
        leader = deal.leader(seq)
        st, code = deal.lead_state(leader)
        if code == "deal":
            return None, code
        pos = deal.positions[leader]
        if pos.turn != st[2]:          # the rules want another leader: the state has him to move
            pos = pos.copy()
            pos.turn = st[2]
        return _State(pos, None, None, ()), code

    def record(self, seq, deal, edits, cost) -> None:
        key = (tuple(_content(c.entry) for c in seq), deal.key)
        have = self.found.get(key)
        if have is None or (len(edits), round(cost, 6)) < (have[0], round(have[1], 6)):
            self.found[key] = (len(edits), cost, edits, seq, deal)

    def end_ok(self, frontier: list, seq: list, deal: _Deal) -> bool:
        """As :meth:`_Search.end_ok`; the variant's own scoring of the final position rules out most
        lines before the replayer is asked."""
        if self.stated is None:
            return True
        leader = deal.positions[deal.leader(seq)].turn
        if not any(st.over is not None and self.result_agrees(st, leader) for st in frontier):
            return False
        key = (tuple(_content(c.entry) for c in seq), deal.key)
        ok = self.confirmed.get(key)
        if ok is None:
            game = self.builder.game_for(seq, deal)
            ok = self.confirmed[key] = replay(game, self.variant, lead=self.lead).valid
        return ok

    def result_agrees(self, st: _State, leader: int) -> bool:
        """Whether the hand over in ``st`` ends as the Result tag states, scored as the replayer
        scores it (the points scored during play only add to the match score, which the tag does
        not state); True when the hands are not all known (the replayer decides)."""
        stated, pos, over = self.stated, st.pos, st.over
        if stated.termination and over.termination != stated.termination:
            return False
        if any(pos.hidden) or pos.n != self.variant.players:
            return True
        plays = (0,) * pos.n if self.play is not None else None
        result = self.variant.hand_result(hand_facts(pos, over.termination, over.seat, leader, plays))
        if stated.side is None:
            return result.winner is None
        teams = self.variant.seating.teams
        return (result.winner is not None and stated.points == result.points
                and all(teams[self.seat_of[name]] == result.winner for name in stated.side))

    # -- stepping: the replayer's rules, entry by entry --------------------------------------------
    def check(self, st: _State, c: _Entry) -> tuple[str | None, list[Move], bool]:
        """The judge's verdict on entry ``c`` in state ``st``, short of scoring a play: the error
        code (None: legal), the moves it may stand for, and whether it is the opener adding to his lead."""
        entry, seat = c.entry, c.seat
        if seat is None:
            return "unknown-player", [], False
        pos = st.pos
        if st.over is not None:             # after the end only passes (and Muggins calls) may follow
            return (None if entry.is_pass else "play-after-end"), [], False
        problem, adding = self.judge.turn(pos, seat, entry.is_play)
        if problem is not None:
            return problem.code, [], False
        verdict = self.judge.entry(pos, entry.tile, seat, draw=entry.draw, end=entry.end, arm=entry.arm)
        code = verdict.code
        if code is not None:
            return code, [], adding
        if entry.tile is None or entry.draw:
            return ("wrong-score" if entry.claim is not None else None), list(verdict.moves), False
        if st.lacks and pos.hidden[seat] and self.judge.contradicted(st.lacks, seat, entry.tile) is not None:
            return "false-pass", list(verdict.moves), adding
        return None, list(verdict.moves), adding

    def step(self, st: _State, c: _Entry, own: bool = False) -> tuple[list, str | None]:
        """The states after entry ``c`` (several when a tile fits more than one end or arm), or []
        and the code of the replayer's first error there. ``own``: the state's position is this
        trial's own, to be changed in place (else it is copied first)."""
        entry, seat = c.entry, c.seat
        if entry.muggins is not None:
            code = self.muggins_problem(st, entry, seat)
            return ([st._replace(pending=None)], None) if code is None else ([], code)
        code, moves, adding = self.check(st, c)
        if code is not None:
            return [], code
        if st.over is not None:
            return [st._replace(pending=None)], None
        pos = st.pos
        move = moves[0]
        if move.draw:
            new = pos if own else pos.copy()
            new.push(move)
            lacks = tuple(x for x in st.lacks if x[0] != seat)    # what his passes proved holds no more
            return [_State(new, new.outcome(), None, lacks)], None
        if move.tile is None:
            lacks = st.lacks + ((seat, pos.numbers_open()),) if any(pos.hidden) else st.lacks
            new = pos if own else pos.copy()
            new.push(move)
            return [_State(new, new.outcome(), None, lacks)], None
        out, why = [], None
        for k, move in enumerate(moves):
            new = pos if own and k == len(moves) - 1 else pos.copy()
            if adding:
                new.turn = seat
            new.push(move)
            pending, code = self.score(new, entry, seat)
            if code:
                why = code
                continue
            out.append(_State(new, new.outcome(), pending, st.lacks))
        return out, why

    def score(self, pos: Position, entry: MoveEntry, seat: int) -> tuple[tuple[int, int] | None, str | None]:
        """What a play scores during play against what it claims: (the points left open to Muggins, code)."""
        points, problem = self.judge.claim(pos, seat, pos.history[-1][0], entry.claim)
        if problem is None:
            return None, None
        if problem.code == "missed-score":
            return (seat, points), None
        return None, problem.code

    def muggins_problem(self, st: _State, entry: MoveEntry, seat: int | None) -> str | None:
        """The judge's verdict on a Muggins call: the previous play's unclaimed points, by the next player."""
        problem, _ = self.judge.muggins(seat, entry.muggins, st.pending, entry.player)
        return None if problem is None else problem.code

    def fresh(self, frontier: list, own: bool) -> list:
        """Copies of the positions when the trial changes them in place."""
        return [st._replace(pos=st.pos.copy()) for st in frontier] if own else frontier

    @staticmethod
    def state_key(st: _State) -> tuple:
        """States that agree in everything are followed once."""
        return _state_key(st)

    # -- what may stand at a place ---------------------------------------------------------------
    def options(self, frontier: list, only: Tile | None = None) -> list[tuple[int, MoveEntry, int]]:
        """Every entry the player on turn (or the opener adding to his lead) may make in some state
        of ``frontier``, as an insertion writes it (its end and arm only when the tile fits several,
        no claim), with the points it scores: the plays and the pass of ``legal_moves()`` (and any
        unseen tile from a hand the record does not show, as the replayer allows), a draw once for
        every tile the boneyard may give (and ``draws ?`` when the record writes its draws so).
        ``only``: just the play and the draw of that tile."""
        if only is None:
            got = self._options.get(id(frontier))
            if got is not None and got[0] is frontier:
                return got[1]
        out: dict[tuple[int, MoveEntry], int] = {}
        for st in frontier:
            if st.over is not None:
                continue
            pos = st.pos
            seats = [pos.turn]
            if pos.bonus not in (-1, pos.turn) and pos.may_add(pos.bonus):
                seats.append(pos.bonus)
            for seat in seats:
                name = self.players[seat]
                own = (pos.hands[seat] | (pos.pool if pos.hidden[seat] else 0)) & self.valid_mask
                if only is not None:
                    own &= only.bit
                probes = [MoveEntry(name, t) for t in tiles_of(own, self.max_pip) if pos.fits(t)]
                if seat == pos.turn:
                    if only is None:
                        probes.append(MoveEntry(name, None))
                    if self.drawing is not None:
                        probes.append(MoveEntry(name, only, draw=True))
                for probe in probes:
                    code, moves, _ = self.check(st, _Entry(seat, probe, None))
                    if code is not None:
                        continue
                    if probe.draw:
                        tiles = tiles_of(pos.pool & self.valid_mask, self.max_pip) if only is None else [only]
                        for t in tiles + ([None] if self.unknown_draws and only is None else []):
                            out.setdefault((seat, MoveEntry(name, t, draw=True)), 0)
                        continue
                    if len(moves) > 1:      # it fits several ends or arms: each written out, as @N (>N)
                        probes_here = [MoveEntry(name, m.tile, m.end, arm=m.arm) for m in moves]
                    else:
                        probes_here = [probe]
                    for entry in probes_here:
                        if (seat, entry) in out:
                            continue
                        points = 0
                        if self.play is not None and entry.tile is not None:    # what it scores
                            after, _ = self.step(st, _Entry(seat, entry, None))
                            pending = after[0].pending if after else None
                            points = pending[1] if pending is not None else 0
                        out[(seat, entry)] = points
        got = [(seat, e, points) for (seat, e), points in out.items()]
        if only is None:
            if len(self._options) > 20_000:
                self._options.clear()
            self._options[id(frontier)] = (frontier, got)
        return got

    def allows(self, frontier: list, seat: int | None, tile: Tile | None, draw: bool) -> bool:
        """Whether ``seat`` may play (pass, draw) ``tile`` in some state of ``frontier``."""
        if seat is None:
            return False
        probe = _Entry(seat, MoveEntry(self.players[seat], tile, draw=draw), None)
        return any(st.over is None and self.check(st, probe)[0] is None for st in frontier)

    def clashes(self, seq: list):
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

    # -- the candidate edits ---------------------------------------------------------------------
    def candidates(self, seq, deal, frontiers, L, code, min_pos, depth):
        """As :meth:`_Search.candidates`, for the position path."""
        if min_pos <= -1:
            yield from self.deal_candidates(seq, deal, frontiers, L, code, depth)
        if L < 0:
            return
        clash = self.clashes(seq) if depth == 1 else (lambda *_: False)
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
                yield from self.edits_at(seq, deal, frontiers[p], p, clash, depth, None)
            else:
                for cand in self.edits_at(seq, deal, frontiers[p], p, clash, depth, narrow):
                    if self.may_cure(focus, seq, p, cand):
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
        if code == "turn-order":
            if (self.runs or self.variant.opening.extra or self.lead_seat is None
                    or all(d.entry.tile is None and not d.entry.draw for d in seq[L:])):
                return None
            return "count", {L}, sum(_advances(d.entry) for d in seq[:L])
        if code not in _LOCAL_TILE:
            return None
        places = {L}
        if code in ("tile-already-played", "draw-not-in-boneyard"):
            places.update(i for i in range(L) if seq[i].entry.tile == c.entry.tile and seq[i].entry.muggins is None)
        return code, places, c.entry.tile, c.seat, [seq[i] for i in places]

    @staticmethod
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
        if kind == "swap-moves":
            return any(raw[5] is c for c in cells)
        if kind == "delete-row":
            return any(p <= i < p + len(raw[5]) for i in places)
        if code != "tile-not-held":
            return False
        if kind in ("insert-move", "change-draw"):
            e = new_seq[p]
            return e.seat == seat and e.entry.draw and e.entry.tile == tile
        return kind == "change-player" and raw[2].entry.tile == tile

    def edits_at(self, seq, deal, frontier, p, clash, depth, narrow):
        """Every candidate edit at ``p``; ``narrow`` (a _Narrow): only those that may cure an error
        elsewhere (None: all)."""
        groups = narrow.groups if narrow is not None else None
        here = seq[p] if p < len(seq) else None
        over = all(st.over is not None for st in frontier)
        if over or (narrow is not None and narrow.tile is None and narrow.cells is not None):
            opts = []                   # nothing to insert or change to (swaps check their own)
        elif narrow is not None and narrow.tile is not None:
            opts = self.options(frontier, narrow.tile)
        else:
            opts = self.options(frontier)
        if here is not None and not over:
            if here.entry.muggins is not None:
                if groups is None:
                    yield from self.muggins_edits(seq, deal, frontier, p, here)
            else:
                yield from self.changes(seq, deal, frontier, opts, p, here, clash, depth, narrow)
        if here is not None and not (over and here.entry.is_pass):
            e = here.entry
            if groups is None or "delete" in groups:
                what = "muggins" if e.muggins is not None else "draw" if e.draw else "pass" if e.tile is None else "tile"
                yield (seq[:p] + seq[p + 1:], deal, p,
                       ("delete-move", COSTS[f"delete-move/{what}"], here, _entry_text(e), None, None), p)
            if groups is None or "delete-row" in groups:
                yield from self.delete_row(seq, deal, p, here)
        if over:
            return
        for seat, e, points in opts:          # the entry the record dropped
            what = "draw" if e.draw else "pass" if e.tile is None else "tile"
            if (groups is not None and f"insert-{what}" not in groups) or clash(e.tile, seat, p, e.draw):
                continue
            if narrow is not None and narrow.tile is not None and (e.tile, seat) != (narrow.tile, narrow.seat):
                continue
            new = self.inserted(seq, p, seat, e, points)
            yield (seq[:p] + [_Entry(seat, new, None)] + seq[p:], deal, p,
                   ("insert-move", COSTS[f"insert-move/{what}"], here, None, _entry_text(new), new.player), p + 1)

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

    def changes(self, seq, deal, frontier, opts, p, here, clash, depth, narrow=None):
        """Edits of the entry at ``p`` (a play, pass or draw) that keep an entry there; under
        ``narrow`` (whose ``opts`` hold only its tile) those it allows."""
        e, seat, n = here.entry, here.seat, self.n
        groups = narrow.groups if narrow is not None else None
        turn = frontier[0].pos.turn
        if seat not in self.movers(frontier):
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
                new = self.retiled(frontier[0].pos, e, o)
                kind, cost = "change-tile", tile_slip_cost(e.tile, o.tile)
            yield (seq[:p] + [here._replace(entry=new)] + seq[p + 1:], deal, p,
                   (kind, cost, here, _entry_text(e), _entry_text(new), None), p + 1)
        if groups is None or not groups.isdisjoint(("end", "arm", "claim")):
            yield from self.mends(seq, deal, frontier, p, here, groups)
        if narrow is not None and narrow.cells is not None:
            yield from self.swaps(seq, deal, frontier, p, here, narrow)
        elif groups is None or "swap" in groups:
            yield from self.swaps(seq, deal, frontier, p, here, None, {(o.tile, o.draw) for o, _ in mine})

    def movers(self, frontier: list) -> set[int]:
        """Who may make the next entry in some state of ``frontier``: the player on turn, and the
        opener while he may add a matching tile to his lead."""
        out = set()
        for st in frontier:
            if st.over is None:
                pos = st.pos
                out.add(pos.turn)
                if pos.bonus not in (-1, pos.turn) and pos.may_add(pos.bonus):
                    out.add(pos.bonus)
        return out

    def swaps(self, seq, deal, frontier, p, here, narrow, legal=None):
        """Swap the entry at ``p`` with a later one (of the same player or not) that is legal here:
        with any (``legal``: the (tile, draw) the player may make here) or, under ``narrow``, with
        the entries it names."""
        e, seat = here.entry, here.seat
        later = range(p + 1, len(seq)) if narrow is None else sorted(
            j for j in range(p + 1, len(seq)) if any(seq[j] is c for c in narrow.cells))
        for j in later:
            there = seq[j]
            t = there.entry
            if t.muggins is not None or (t.tile, t.draw) == (e.tile, e.draw):
                continue
            if (t.tile, t.draw) not in legal if legal is not None else not self.allows(frontier, seat, t.tile, t.draw):
                continue
            a = replace(e, tile=t.tile, end=t.end, arm=t.arm, draw=t.draw, claim=t.claim, annotation=t.annotation)
            b = replace(t, tile=e.tile, end=e.end, arm=e.arm, draw=e.draw, claim=e.claim, annotation=e.annotation)
            near = j == p + 1 or (self.has_rounds and there.seat == seat and e.round is not None
                                  and t.round == e.round + 1)
            yield (seq[:p] + [here._replace(entry=a)] + seq[p + 1:j] + [there._replace(entry=b)] + seq[j + 1:],
                   deal, p, ("swap-moves", COSTS["swap-moves/adjacent" if near else "swap-moves/other"],
                             here, _entry_text(e), _entry_text(t), there), p + 1)

    @staticmethod
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
                    after, _ = self.step(st, bare)
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
        for kind, cost, new in fixes:
            yield (seq[:p] + [here._replace(entry=new)] + seq[p + 1:], deal, p,
                   (kind, cost, here, _entry_text(e), _entry_text(new), None), p + 1)

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
                   ("change-muggins", COSTS["change-muggins"], here, _entry_text(e), _entry_text(new), None), p + 1)

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
            text = ", ".join(f"{c.entry.player} {_entry_text(c.entry)}" for c in seq[p:q])
            yield (seq[:p] + seq[q:], deal, p,
                   ("delete-row", COSTS["delete-row"], here, text, None, tuple(c.orig for c in seq[p:q])), p)

    def deal_candidates(self, seq, deal, frontiers, L, code, depth):
        """A broken deal as :meth:`_Search.deal_candidates` mends it. In a sound deal, a dealt tile
        mistyped for one nobody was dealt (a boneyard tile, or a sleeper) takes one edit, for one of
        another hand two (an exchange): a tile played that the player was not dealt; a tile he
        could play when he passes or draws; a tile drawn that the deal gives to someone."""
        if not deal.ok:
            yield from _Search.deal_candidates(self, seq, deal, frontiers, L, code, depth)
            return
        if L < 0 or L >= len(seq) or deal.hidden:
            return
        c = seq[L]
        entries = deal.entries
        mine = next((i for i, e in enumerate(entries) if c.seat is not None and e.player == self.players[c.seat]), None)
        tile = c.entry.tile
        if code == "tile-not-held" and tile is not None and not c.entry.draw and mine is not None:
            changes = [(mine, k, old, tile) for k, old in enumerate(entries[mine].tiles)]
        elif code in ("false-pass", "draw-not-allowed", "draw-too-long") and mine is not None:
            playable = set(tiles_of(frontiers[L][0].pos.playable_mask(c.seat), self.max_pip))
            others = [t for i, e in enumerate(entries) if i != mine and e.tiles for t in e.tiles]
            changes = [(mine, k, old, new) for k, old in enumerate(entries[mine].tiles) if old in playable
                       for new in deal.missing + (others if depth > 1 else [])]
        elif code == "draw-not-in-boneyard" and tile is not None:
            holder = next((i for i, e in enumerate(entries) if e.tiles and tile in e.tiles), None)
            if holder is None:
                return
            changes = [(holder, entries[holder].tiles.index(tile), tile, new) for new in deal.missing]
        else:
            return
        for h, k, old, new in changes:
            dealt = any(new in e.tiles for e in entries if e.tiles)
            if new == old or new not in self.valid_tiles or (dealt and depth < 2):
                continue
            cost = tile_slip_cost(old, new) + COSTS["change-deal/extra"]
            yield self.deal_edit(seq, deal, h, k, new, ("change-deal", cost, (h, k), old, new, None))


def _state_key(st: _State) -> tuple:
    """Everything of a state the rest of the record can see (the arms in their order: ``>N`` names them)."""
    pos = st.pos
    drawn = pos.drawn(pos.turn)
    return (tuple(pos.hands), tuple(pos.hidden), pos.pool, pos.ends, getattr(pos, "arms", None), pos.turn,
            pos.passes, getattr(pos, "stock", None), getattr(pos, "bonus", None), drawn, st.over, st.pending,
            st.lacks)


# ---- turning search results into the report ---------------------------------------------------------

def _play_text(tile: Tile | None, end: int | None = None, annotation: str | None = None) -> str:
    text = "pass" if tile is None else str(tile) + (f"@{end}" if end is not None else "")
    return text + (annotation or "")


def _round_of(entry: MoveEntry | None) -> int | None:
    return entry.round if entry is not None else None


class _Builder:
    """Build the repaired game, the edits placed in the source, and the rows before and after."""

    def __init__(self, search: _Search, game: Game):
        self.s = search
        self.game = game

    def moves(self, seq: list) -> list[MoveEntry]:
        s = self.s
        out = []
        first = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        anchor = next((k for k, c in enumerate(seq) if c[_SRC] is not None), None)
        renumber = s.renumber and first is not None and anchor is not None
        if renumber:        # rows counted from the first move, numbered as the first original move's
            offset = (first - s.row_start) % s.n
            base = seq[anchor][_SRC].round - (offset + anchor) // s.n
        for k, c in enumerate(seq):
            src = c[_SRC]
            if renumber:
                rnd = base + (offset + k) // s.n
            elif src is not None:
                rnd = src.round
            elif out and out[-1].round is not None and c[_SEAT] is not None:
                # an inserted move: in the row of the move before it, or the next row when its
                # column comes first again
                prev = out[-1]
                rnd = prev.round + (c[_SEAT] <= s.seat_of.get(prev.player, -1))
            else:
                rnd = next((d[_SRC].round for d in seq[k:] if d[_SRC] is not None), None)
            if src is None:
                out.append(MoveEntry(c[_NAME], c[_TILE], c[_END], c[_ANNOT], None, rnd))
                continue
            same = (src.player, src.tile, src.end, src.annotation, src.round) == (c[_NAME], c[_TILE], c[_END], c[_ANNOT], rnd)
            out.append(src if same else replace(src, player=c[_NAME], tile=c[_TILE], end=c[_END],
                                                annotation=c[_ANNOT], round=rnd))
        return out

    def game_for(self, seq: list, deal: _Deal) -> Game:
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
        src = anchor[_SRC] if anchor is not None else None
        line = src.pos.line or None if src is not None else None
        column = src.pos.column or None if (src is not None and line) else None
        index = anchor[_ORIG] if anchor is not None else len(self.game.moves)
        rnd = _round_of(src)
        at_end = anchor is None
        if at_end and self.game.moves:          # after the record's last move
            last = self.game.moves[-1]
            line, column, rnd = last.pos.line or None, None, None
        player = anchor[_NAME] if anchor is not None else None
        if kind == "insert-move":
            return Edit(kind, line, column, extra, None, _play_text(after), index, rnd, cost, at_end=at_end)
        if kind == "insert-row":
            row = ", ".join(f"{c[_NAME]} {_play_text(c[_TILE])}" for c in after)
            return Edit(kind, line, column, None, None, row, index, rnd, cost, at_end=at_end)
        if kind == "delete-row":
            row = ", ".join(f"{c[_NAME]} {_play_text(c[_TILE], c[_END], c[_ANNOT])}" for c in before)
            return Edit(kind, line, column, None, row, None, index, rnd, cost)
        if kind == "delete-move":
            return Edit(kind, line, column, player, _play_text(anchor[_TILE], anchor[_END]), None, index, rnd, cost)
        if kind == "change-tile":
            return Edit(kind, line, column, player, _play_text(before, anchor[_END]), _play_text(after),
                        index, rnd, cost)
        if kind == "change-end":
            return Edit(kind, line, column, player, _play_text(anchor[_TILE], before), _play_text(anchor[_TILE]),
                        index, rnd, cost)
        if kind == "change-player":
            return Edit(kind, line, column, before, before, after, index, rnd, cost)
        if kind == "swap-moves":
            there = before
            tsrc = there[_SRC]
            other = {"line": (tsrc.pos.line or None) if tsrc else None,
                     "column": (tsrc.pos.column or None) if tsrc else None,
                     "player": there[_NAME], "index": there[_ORIG], "round": _round_of(tsrc)}
            return Edit(kind, line, column, player, _play_text(anchor[_TILE], anchor[_END]),
                        _play_text(there[_TILE], there[_END]), index, rnd, cost, other)
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
                        row.append(_play_text(m.tile, m.end, m.annotation))
                    out.append(f"{rnd:<3} " + " ".join(f"{c:<5}" for c in row).rstrip())
                else:
                    out.append(f"{rnd}. " + " ".join(f"{m.player} {_play_text(m.tile, m.end, m.annotation)}"
                                                     for m in cells))
            return out
        return [f"{i + 1}. {moves[i].player} {_play_text(moves[i].tile, moves[i].end, moves[i].annotation)}"
                for i in sorted(set(indices)) if 0 <= i < len(moves)]

    def rows(self, seq: list, deal: _Deal, edits: tuple, repaired: Game) -> tuple[list[str], list[str]]:
        before_idx: list[int] = []
        after_idx: list[int] = []
        where = {c[_ORIG]: k for k, c in enumerate(seq) if c[_ORIG] is not None}
        for k, c in enumerate(seq):
            src = c[_SRC]
            if src is None or (src.player, src.tile, src.end) != (c[_NAME], c[_TILE], c[_END]):
                after_idx.append(k)
        for raw in edits:
            kind, _, anchor = raw[:3]
            if kind in ("change-deal", "deal-add", "deal-delete"):
                continue
            if anchor is not None and anchor[_ORIG] is not None:
                before_idx.append(anchor[_ORIG])
                if anchor[_ORIG] in where:
                    after_idx.append(where[anchor[_ORIG]])
            elif anchor is None and self.game.moves:
                before_idx.append(len(self.game.moves) - 1)
            if kind == "swap-moves" and raw[3][_ORIG] is not None:
                before_idx.append(raw[3][_ORIG])
            if kind == "delete-row":
                before_idx.extend(c[_ORIG] for c in raw[3] if c[_ORIG] is not None)
            if kind in ("delete-move", "delete-row") and self.s.has_rounds and anchor[_SRC] is not None:
                # what is left of the row (when anything is)
                after_idx.extend(k for k, m in enumerate(repaired.moves) if m.round == anchor[_SRC].round)
        before = self.row_text(self.game.moves, before_idx)
        after = self.row_text(repaired.moves, after_idx)
        before_deal, after_deal = self.deal_rows(deal)
        return before + before_deal, after + after_deal

    def deal_rows(self, deal: _Deal) -> tuple[list[str], list[str]]:
        """The hands a repair changes, as the record has them and as the repair writes them."""
        before, after = [], []
        for old, new in zip(self.game.hands, deal.entries):
            if old.tiles != new.tiles:
                before.append(_hand_text(old))
                after.append(_hand_text(new))
        return before, after


class _PositionBuilder(_Builder):
    """:class:`_Builder` for the position path, whose cells carry the entries as they are written."""

    def moves(self, seq: list) -> list[MoveEntry]:
        return [c.entry for c in seq]

    def edit(self, raw: tuple) -> Edit:
        kind, cost, anchor, before, after, extra = raw
        if kind in ("change-deal", "deal-add", "deal-delete"):
            return _Builder.edit(self, raw)
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
        if kind == "swap-moves":
            there = extra
            tsrc = there.entry if there.orig is not None else None
            other = {"line": (tsrc.pos.line or None) if tsrc else None,
                     "column": (tsrc.pos.column or None) if tsrc else None,
                     "player": there.entry.player, "index": there.orig, "round": there.entry.round}
            return Edit(kind, line, column, player, before, after, index, rnd, cost, other)
        return Edit(kind, line, column, player, before, after, index, rnd, cost)

    def row_text(self, moves: list[MoveEntry], indices: list[int]) -> list[str]:
        """The numbered lines (or single entries) holding ``indices``, in the PGN-like form (draws,
        claims and Muggins calls have no table form)."""
        if not indices:
            return []
        if self.s.has_rounds:
            wanted = sorted({moves[i].round for i in indices if 0 <= i < len(moves)})
            return [f"{rnd}. " + " ".join(f"{m.player} {_entry_text(m)}" for m in moves if m.round == rnd)
                    for rnd in wanted]
        return [f"{i + 1}. {moves[i].player} {_entry_text(moves[i])}"
                for i in sorted(set(indices)) if 0 <= i < len(moves)]

    def rows(self, seq: list, deal: _Deal, edits: tuple, repaired: Game) -> tuple[list[str], list[str]]:
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
            if kind == "swap-moves" and raw[5].orig is not None:
                before_idx.append(raw[5].orig)
            if kind == "delete-row":
                before_idx.extend(o for o in raw[5] if o is not None)
            if kind in ("delete-move", "delete-row") and self.s.has_rounds and anchor.entry.round is not None:
                after_idx.extend(k for k, m in enumerate(repaired.moves) if m.round == anchor.entry.round)
        before = self.row_text(moves, before_idx)
        after = self.row_text(repaired.moves, after_idx)
        before_deal, after_deal = self.deal_rows(deal)
        return before + before_deal, after + after_deal


def _hand_text(hand: HandEntry) -> str:
    return f"{hand.player}: " + ("?" if hand.tiles is None else " ".join(map(str, hand.tiles)))


def _result_text(rep: Replay) -> str:
    r = rep.result
    if r is None:
        if rep.outcome is None:
            return "the hand is not over"
        return f"{rep.outcome.termination}, by {rep.players[rep.outcome.seat]}"
    who = rep.players[r.seat]
    how = f"{who} goes out (domino)" if r.termination == "domino" else "blocked"
    if r.winner is None:
        return f"{how}; a draw"
    return f"{how}; {rep.side_name(r.winner)} win {r.points}"


_DOING = {
    "insert-row": "insert a row", "delete-row": "delete a row", "insert-move": "insert a move",
    "delete-move": "delete a move", "change-tile": "change a tile", "change-end": "change an open number",
    "change-player": "move a cell to another column", "swap-moves": "swap two moves",
    "change-deal": "change a dealt tile", "deal-add": "add a tile to a hand", "deal-delete": "remove a tile from a hand",
    "change-draw": "change a draw", "change-arm": "change an arm", "change-claim": "change a claim",
    "change-muggins": "change a Muggins call",
}


def _common(repairs: list[Repair]) -> list[str]:
    """What several equally good repairs have in common: "all insert a row in round 7"."""
    if len(repairs) < 2:
        return []
    out = []
    sizes = {len(r.edits) for r in repairs}
    if len(sizes) == 1:
        for slot in range(sizes.pop()):
            edits = [r.edits[slot] for r in repairs]
            kinds = {e.kind for e in edits}
            what = _DOING[edits[0].kind] if len(kinds) == 1 else "edit"
            if len({(e.line, e.column, e.index, e.at_end) for e in edits}) == 1 and edits[0].where:
                out.append(f"all {what} at the same place ({edits[0].where})")
            elif len({(e.index, e.at_end) for e in edits}) == 1 and edits[0].player and edits[0].index is not None:
                out.append(f"all {what} at the same move ({edits[0].player}'s, move {edits[0].index + 1})")
            elif len({e.round for e in edits}) == 1 and edits[0].round is not None:
                out.append(f"all {what} in round {edits[0].round}")
            elif len({e.player for e in edits}) == 1 and edits[0].player:
                out.append(f"all {what} of {edits[0].player}")
            elif len(kinds) == 1:
                out.append(f"all {what}")
    results = {r.result_text for r in repairs}
    if len(results) == 1:
        out.append(f"all give the same result: {results.pop()}")
    return out


def first_error(game: Game, variant: Variant | str | None = None, *, rules: dict[str, str] | None = None,
                lead: LeadRequirement | None = None) -> tuple[int | None, str | None]:
    """Where the repair search's own checker sees the first error of ``game``: the move's index
    (-1: the deal; ``len(game.moves)``: the end disagrees with the stated result) and a short code,
    or (None, None) when the record is legal. It agrees with ``replay(game).valid``; when a tile
    fits both ends it follows both, so the index may lie past ``Replay.legal_prefix``."""
    variant, _ = resolve_variant(game, variant, rules)
    search = _searcher(game, variant)(game, variant, 0, 0, lead)
    return search.run(search.cells(game), 0, None, search.deal_for(tuple(game.hands)), None)


def _searcher(game: Game, variant: Variant) -> type[_Search]:
    """The lean search for the two-ended block games, the position path for everything else."""
    return _PositionSearch if _needs_positions(game, variant) else _Search


def repair(game: Game, max_edits: int = 2, limit: int = 5, variant: Variant | str | None = None, *,
           rules: dict[str, str] | None = None, lead: LeadRequirement | None = None,
           max_nodes: int | None = None) -> RepairReport:
    """Find the smallest, likeliest sets of at most ``max_edits`` edits that make ``game`` legal and
    agree with its stated result; return the best ``limit`` (each with a repaired copy of the game).

    ``variant`` and ``rules`` as for :func:`~analyzer.replay.replay` (default: the record's Variant
    and Rules tags); ``lead``: who must lead, when a match decides it. ``max_nodes`` bounds the
    number of candidate records tried (the report says when it stopped); by default 400,000 for the
    two-ended block games and 40,000 on the slower position path (draws, claims, arms, runs)."""
    variant, problems = resolve_variant(game, variant, rules)
    kind = _searcher(game, variant)
    if max_nodes is None:
        max_nodes = kind.default_nodes
    search = kind(game, variant, max_edits, max_nodes, lead)
    stated = game.tags.get("Result")
    original = replay(game, variant, lead=lead)
    if original.valid:
        return RepairReport(game, True, stated, max_edits, [], {}, 0, [], True, 0)
    if any(d.severity == "error" for d in problems):
        search.problem = next(d.message for d in problems if d.severity == "error")
    _, legal = search.search(game)
    if legal:       # the replayer objects to something no edit of moves or deal touches
        search.problem = f"no edit of the moves or the deal can help: {original.errors[0].message}"
    builder = search.builder
    found = list(search.found.values())
    singles = {_ident(f[2][0]) for f in found if f[0] == 1}
    found = [f for f in found if f[0] == 1 or not any(_ident(e) in singles for e in f[2])]
    found.sort(key=lambda f: (f[0], round(f[1], 6), _order(f[2])))
    counts: dict[int, int] = {}
    for f in found:
        counts[f[0]] = counts.get(f[0], 0) + 1
    confirmed: list[Repair] = []
    best_rank = None
    for size, cost, edits, seq, deal in found:
        rank = (size, round(cost, 6))
        if len(confirmed) >= limit and rank != best_rank or len(confirmed) >= limit + _MAX_TIES:
            break
        repaired = builder.game_for(seq, deal)
        rep = replay(repaired, variant, lead=lead)
        if not rep.valid:          # the checker and the replayer disagree: trust the replayer
            counts[size] -= 1
            continue
        best_rank = best_rank or rank
        before, after = builder.rows(seq, deal, edits, repaired)
        confirmed.append(Repair(tuple(builder.edit(e) for e in edits), round(cost, 3), repaired, rep.result_dict(),
                                _result_text(rep), before, after, rep))
    counts = {k: v for k, v in counts.items() if v > 0}
    best = [r for r in confirmed if (len(r.edits), round(r.cost, 6)) == best_rank]
    return RepairReport(game, False, stated, max_edits, confirmed[:max(limit, 0)], counts, len(best),
                        _common(best), search.nodes < max_nodes, search.nodes, search.problem)


_MAX_TIES = 200


def _orig(cell: tuple | None) -> int | None:
    """The index in the input of a lean cell or an _Entry (None: inserted or absent)."""
    if cell is None:
        return None
    return cell.orig if isinstance(cell, _Entry) else cell[_ORIG]


def _ident(raw: tuple) -> tuple:
    kind, _, anchor, before, after, extra = raw
    if kind in ("change-deal", "deal-add", "deal-delete"):
        return (kind, anchor, before, after)
    if isinstance(anchor, _Entry) or isinstance(extra, _Entry):       # the position path: texts
        return (kind, _orig(anchor) if anchor is not None else -1, before, after, _orig(extra) if isinstance(extra, _Entry) else extra)
    orig = anchor[_ORIG] if anchor is not None else -1
    if kind == "insert-row":
        after = tuple((c[_NAME], c[_TILE]) for c in after)
    if kind == "swap-moves":
        before = before[_ORIG]
    if kind == "delete-row":
        before = tuple(c[_ORIG] for c in before)
    return (kind, orig, before, after, extra)


def _order(edits: tuple) -> tuple:
    out = []
    for raw in edits:
        anchor = raw[2]
        if raw[0] in ("change-deal", "deal-add", "deal-delete"):
            out.append((-1, anchor[0], anchor[1] if anchor[1] is not None else -1))
        else:
            orig = _orig(anchor)
            out.append((orig if orig is not None else 10 ** 6, 0, 0))
    return tuple(out)
