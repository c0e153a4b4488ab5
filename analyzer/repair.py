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
    change-tile     one half of a tile off by one:   [5-6] for [5-5]               0.4
    change-player   put the cell in the next column (the neighbour's move)         0.5
    change-deal     one half of a dealt tile off by one                            0.5
    insert-move     dropped a pass                                                 0.6
    swap-moves      swapped two neighbouring cells (same row, or same column       0.6
                    in the next row)
    change-tile     one half changed by more than one: [2-6] for [5-6]             0.7
    delete-move     wrote a pass that was never made                               0.7
    insert-move     dropped a tile                                                 0.8
    delete-move     wrote a tile that was never played                             0.8
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

"Swapped halves" ([6-5] for [5-6]) is no slip at all: a tile reads the same either way round.

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

What it does not do: change tags (a wrong Result or Lead stays as written), insert or change moves
after the hand is over (it deletes them), restore a dropped first row unless what remains starts a
row, or exchange tiles between hands in one edit (that takes two deal edits). Two edits at one cell
are tried only as "the cell goes to the player on turn, then its tile changes or is swapped".
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .position import mask_of, tiles_of
from .record import Game, HandEntry, MoveEntry, StatedResult
from .replay import Replay, replay, resolve_variant
from .rules import LeadRequirement, Variant
from .tiles import Tile, tile_set

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
        if k in ("change-tile", "change-end"):
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
        pos = rep.initial
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

    def initial(self, seq: list) -> tuple[tuple, str | None]:
        """The state before the first move of ``seq`` (see :meth:`lead_state`)."""
        leader = self.search.lead_seat
        if leader is None:
            leader = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        return self.lead_state(leader)


class _Search:
    """The repair search for one game."""

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
    def step(self, st: tuple, c: tuple) -> tuple[list, str | None]:
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

    def run(self, seq: list, start: int, frontier: list | None, deal: _Deal,
            frontiers: list | None) -> tuple[int | None, str | None]:
        """Replay ``seq`` from ``start`` (from the deal when ``frontier`` is None); return the first
        error's index (``len(seq)``: the end does not agree with the stated result; -1: the deal)
        and its code, or (None, None) when the whole record is legal. ``frontiers`` (a list) receives
        the frontier before each move from ``start`` on."""
        if frontier is None:
            st, code = deal.initial(seq)
            if code == "deal":
                return -1, code
            frontier = [st]
            start = 0
            if code is not None:
                if frontiers is not None:
                    frontiers.append(frontier)
                return 0, code
        step = self.step
        for k in range(start, len(seq)):
            if frontiers is not None:
                frontiers.append(frontier)
            c = seq[k]
            if len(frontier) == 1:
                nf, code = step(frontier[0], c)
            else:
                nf, code = [], None
                for st in frontier:
                    got, why = step(st, c)
                    nf.extend(got)
                    code = why if code is None or code == why else "mixed"
            if not nf:
                return k, code
            frontier = nf
        if frontiers is not None:
            frontiers.append(frontier)
        if self.end_ok(frontier, seq, deal):
            return None, None
        return len(seq), "result-mismatch"

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
        for h, (old, new) in enumerate(zip(self.game.hands, deal.entries)):
            if old.tiles != new.tiles:
                before.append(_hand_text(old))
                after.append(_hand_text(new))
        return before, after


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
    search = _Search(game, variant, 0, 0, lead)
    seq = [search.cell(m.player, m.tile, m.end, m, i, m.annotation) for i, m in enumerate(game.moves)]
    return search.run(seq, 0, None, search.deal_for(tuple(game.hands)), None)


def repair(game: Game, max_edits: int = 2, limit: int = 5, variant: Variant | str | None = None, *,
           rules: dict[str, str] | None = None, lead: LeadRequirement | None = None,
           max_nodes: int = 400_000) -> RepairReport:
    """Find the smallest, likeliest sets of at most ``max_edits`` edits that make ``game`` legal and
    agree with its stated result; return the best ``limit`` (each with a repaired copy of the game).

    ``variant`` and ``rules`` as for :func:`~analyzer.replay.replay` (default: the record's Variant
    and Rules tags); ``lead``: who must lead, when a match decides it. ``max_nodes`` bounds the
    number of candidate records tried (the report says when it stopped)."""
    variant, problems = resolve_variant(game, variant, rules)
    search = _Search(game, variant, max_edits, max_nodes, lead)
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


def _ident(raw: tuple) -> tuple:
    kind, _, anchor, before, after, extra = raw
    if kind in ("change-deal", "deal-add", "deal-delete"):
        return (kind, anchor, before, after)
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
            orig = anchor[_ORIG] if anchor is not None and anchor[_ORIG] is not None else 10 ** 6
            out.append((orig, 0, 0))
    return tuple(out)
