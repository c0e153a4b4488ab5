"""The repair search on bit-mask states: the lean checker for two-ended block games, and the
left-to-right search that the position path (``positional``) shares."""
from __future__ import annotations

from typing import Iterator

from ..position import exposed_turn, mask_of, tiles_of
from ..record import Game, HandEntry, MoveEntry, StatedResult
from ..replay import Replay
from ..rules import LeadRequirement, Variant
from ..tiles import Tile, tile_set
from .builder import _Builder
from .deal import _Deal, _DealEdits, _deal_key
from .edits import Found, _ANNOT, _BIT, _END, _NAME, _ORIG, _SEAT, _SRC, _TILE, COSTS, tile_slip_cost
from .exposed import exposed_rows, reveals
from .setting import Setting
from ..rules.codes import Code
from ..rules.modes import End



# errors only an edit at a few places can remove (see _Search.focus); "mixed": the branches of a
# two-way tile fail differently
_LOCAL = frozenset({Code.TURN_ORDER, Code.UNKNOWN_PLAYER, Code.TILE_FOREIGN, Code.TILE_ALREADY_PLAYED, Code.TILE_NOT_HELD})
class _Search(_DealEdits):
    """The repair search for one game."""

    default_nodes = 400_000

    def __init__(self, game: Game, variant: Variant, max_edits: int, max_nodes: int,
                 lead: LeadRequirement | None = None, worth: int | None = None):
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
        self.omitted = game.tags.get("Passes", "").strip().lower() == "omitted"    # forced passes left out
        self.table = game.form == "table"
        self.worth = worth              # what the game is worth in its match (the stated points may say so)
        self.pair_end = variant.end == End.PAIR
        self.teams = variant.seating.teams
        self.lead_seat = None
        lead_tag = game.tags.get("Lead")
        if lead_tag:
            self.lead_seat = self.seat_of.get(lead_tag.strip())
        self.problem = None
        if variant.end not in (End.ONE, End.PAIR):
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
        self.setting = Setting(game, variant, self.players, self.seat_of, frozenset(self.valid_tiles), lead, worth,
                               self.lead_seat, self.row_start, self.first_round, self.has_rounds)
        self.deals: dict[tuple, _Deal] = {}
        self._inserted: dict[int, list[tuple]] = {}
        self.found: dict[tuple, tuple] = {}      # record key -> (n edits, cost, edits, seq, deal)
        self.builder = _Builder(self.setting, game)
        self.confirmed: dict[tuple, bool] = {}   # record key -> what the replayer says of it
        # Domino Whist §8: whether the Exposed tag lays tiles open during play (see .exposed)
        self.exposures = bool(exposed_rows(game, variant, self.players))

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
            deal = self.deals[key] = _Deal(self.setting, hands)
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

    def omitted_turn(self, frontier: list, seat: int | None) -> list:
        """``frontier`` after the passes left out before ``seat``, else before the first player who can play."""
        moved = [self.passed(st, seat) for st in frontier]
        return moved if moved[0] is not frontier[0] else [self.passed(st) for st in frontier]

    # -- stepping ------------------------------------------------------------------------------
    def passed(self, st: tuple, seat: int | None = None) -> tuple:
        """[Passes "omitted"]: ``st`` after the passes the record leaves out, as the replayer inserts
        them: each player before ``seat`` who can only pass (``seat`` None: before the first player
        who can play), when all of them can only pass; else ``st`` itself."""
        hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed = st
        if over is not None or ends is None or turn == seat:
            return st
        fit = self.match[ends[0]] | self.match[ends[1]]
        now = turn
        while now != seat and passes < self.n and not (hidden is not None and hidden[now]) and not hands[now] & fit:
            now, passes = (now + 1) % self.n, passes + 1
        if now != seat and seat is not None or now == turn:
            return st
        if passes >= self.n:
            over = ("blocked", last if last >= 0 else now)
        return (hands, ends, now, passes, last, over, played, hidden, pool, lacks, opening, exposed)

    def step(self, st: tuple, c: tuple, own: bool = False) -> tuple[list, str | None]:
        """The states after cell ``c`` (several when the tile fits both ends), or [] and the error."""
        hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed = st
        seat = c[0]
        if seat is None:
            return [], "unknown-player"
        tile = c[1]
        n = self.n
        match = self.match
        if seat != turn and self.omitted:
            st = self.passed(st, seat)
            hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed = st
        if over is not None:
            # a pass may follow a block (records write the passes that show it), never a player going out; and no
            # edit writes one where the record has a tile (the replayer's play-after-end)
            harmless = tile is None and over[0] != "domino" and not (c[_SRC] is not None and c[_SRC].tile)
            return ([st], None) if harmless else ([], "play-after-end")
        if seat != turn:
            return [], "turn-order"
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
            return [(hands, ends, (turn + 1) % n, passes, last, over, played, hidden, pool, lacks, opening, exposed)], None
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
        if exposed:         # Domino Whist §8: the exposed tiles that fit now must be played
            fit = (opening or -1) if ends is None else match[ends[0]] | match[ends[1]]
            missed, exposed = exposed_turn(exposed, hand & fit, bit)
            if missed:
                return [], "exposed-tile"
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
            out.append((new_hands, (x, y), nxt, 0, seat, o, played, hidden, pool, lacks, opening, exposed))
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
        reveal = self.reveals(seq, deal, start) if self.exposures else None
        for k in range(start, len(seq)):
            if frontiers is not None:
                frontiers.append(frontier)
            if reveal is not None and (tiles := next(reveal)):     # exposed during play: open from here on
                frontier = self.revealed(frontier, tiles, own)
                if not frontier:        # played before its row: the tag is wrong on these moves
                    return k, "bad-exposed"
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

    def reveals(self, seq: list, deal: _Deal, start: int = 0) -> Iterator[int] | None:
        """For each cell of ``seq`` from ``start`` on, the tiles exposed during play that come to lie
        open at it (see :mod:`.exposed`); None: the deal has none."""
        if deal.exposures is None:
            deal.exposures = exposed_rows(self.game, self.variant, self.players, deal.entries)
        if not deal.exposures:
            return None
        return reveals(deal.exposures, self.builder.rounds(seq, max(start - 1, 0)), not start)

    def revealed(self, frontier: list, tiles: int, own: bool) -> list:
        """``frontier`` with ``tiles`` lying open from now on; none where one of them was played before
        (the replayer's ``bad-exposed``)."""
        return [st[:11] + (st[11] | tiles,) for st in frontier if not st[6] & tiles]

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

    def replayed(self, game: Game) -> Replay:
        """``game`` replayed as the record's own game was: under the match's lead and worth."""
        return self.setting.replayed(game)

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
        return self.confirm(seq, deal)

    def confirm(self, seq: list, deal: _Deal) -> bool:
        """The replayer's verdict on the record ``seq`` with ``deal``, asked once for each
        :meth:`confirm_key`."""
        key = self.confirm_key(seq, deal)
        ok = self.confirmed.get(key)
        if ok is None:
            game = self.builder.game_for(seq, deal)
            ok = self.confirmed[key] = self.replayed(game).valid
        return ok

    def confirm_key(self, seq: list, deal: _Deal) -> tuple:
        """What the replayer's verdict on the record ``seq`` and ``deal`` give depends on (see ``confirmed``)."""
        key = (self.line_key(seq), deal.key)
        if self.exposures:      # where tiles exposed during play lie open depends on the row numbers
            key += (tuple(self.reveals(seq, deal) or ()),)
        return key

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
                if st[11]:      # Domino Whist §8: the exposed tiles that fit are his only plays
                    have = exposed_turn(st[11], have, 0)[0] or have
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
            self.builder.renumber = all(m.round == self.first_round + (offset + k) // self.n
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

    @staticmethod
    def line_key(seq: list) -> tuple:
        """What a repaired line says, for telling repairs apart: who played what where."""
        return tuple((c[0], c[1], c[2]) for c in seq)

    def record(self, seq, deal, edits, cost) -> None:
        """Keep a repair found, the cheapest of those that give the same record."""
        key = (self.line_key(seq), deal.key)
        have = self.found.get(key)
        if have is None or (len(edits), round(cost, 6)) < (have.size, round(have.cost, 6)):
            self.found[key] = Found(len(edits), cost, edits, seq, deal)

    def focus(self, seq: list, L: int, code: str | None) -> tuple | None:
        """Where the last edit can still remove the error at ``L`` (None: anywhere before it).

        Most errors can be cured from afar (another tile earlier changes the open ends), but not all:
        an edit before ``L`` that keeps the number of moves keeps the turn, a tile nobody dealt stays
        foreign, a tile played twice needs one of the two plays changed, and a tile in another hand
        can only come from a swap with that move. (Unless the hand ends earlier and only passes follow.)"""
        if code not in _LOCAL or all(c[_TILE] is None for c in seq[L:]):
            return None
        places = {L}
        if code == Code.TILE_ALREADY_PLAYED:
            tile = seq[L][_TILE]
            places.add(next((i for i in range(L - 1, -1, -1) if seq[i][_TILE] == tile), L))
        rows = {self.row_start_of(seq, i) for i in places}      # a whole row deleted removes it too
        mode = {Code.TURN_ORDER: "count", Code.TILE_NOT_HELD: "swap-into"}.get(code, "only")
        return mode, places, rows

    def row(self, src: MoveEntry) -> tuple:
        """The written row a move stands in: its number, and in a table its line too (a row copied
        twice keeps its number)."""
        return (src.round, src.pos.line if self.table else 0)

    def row_start_of(self, seq: list, i: int) -> int:
        """The index of the first cell of the written row that holds cell ``i``."""
        src = seq[i][_SRC] if i < len(seq) else None
        if not self.has_rounds or src is None:
            return i
        while i > 0 and seq[i - 1][_SRC] is not None and self.row(seq[i - 1][_SRC]) == self.row(src):
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
                row_of[c[_BIT]] = None if c[_BIT] in row_of or src is None else self.row(src)
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
            if self.omitted:            # the player on turn after the passes the record leaves out
                frontier = self.omitted_turn(frontier, seq[p][_SEAT] if p < len(seq) else None)
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
                if (everything and not self.table and here[_SEAT] != mover and p + 1 < len(seq)
                        and seq[p + 1][_SEAT] == mover):
                    # the move of the player on turn written after the next one (the two in the wrong order)
                    yield (seq[:p] + [seq[p + 1], here] + seq[p + 2:], deal, p,
                           ("swap-order", COSTS["swap-order"], here, seq[p + 1], None, None), p + 1)
            counting = everything or focus[0] == "count"
            # delete the move written here
            # (not a pass that follows a block: records write those to show it; after a player went out it is
            # play-after-end, and deleting it is the repair)
            if counting and here is not None and not (over and here[_TILE] is None and st[5][0] != "domino"):
                cost = COSTS["delete-move/pass" if here[_TILE] is None else "delete-move/tile"]
                yield (seq[:p] + seq[p + 1:], deal, p, ("delete-move", cost, here, None, None, None), p)
                yield from self.extra_cell(seq, deal, p)
            # a row copied twice (or one that never was)
            if ((counting or row_only) and here is not None and self.has_rounds and here[_SRC] is not None
                    and (p == 0 or seq[p - 1][_SRC] is None or self.row(seq[p - 1][_SRC]) != self.row(here[_SRC]))):
                q = p
                while q < len(seq) and seq[q][_SRC] is not None and self.row(seq[q][_SRC]) == self.row(here[_SRC]):
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
            yield from self.dropped_cell(seq, deal, p, frontier, fits)
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

    def row_of(self, seq: list, p: int) -> int:
        """Where the table row of the cell at ``p`` ends, counting only cells in columns in a row from it."""
        row, q = self.row(seq[p][_SRC]), p + 1
        while (q < len(seq) and seq[q][_SRC] is not None and self.row(seq[q][_SRC]) == row and seq[q][_SEAT] is not None
               and seq[q][_SEAT] == (seq[q - 1][_SEAT] + 1) % self.n):
            q += 1
        return q

    def extra_cell(self, seq, deal, p):
        """A table row with a cell written twice (or one that never was) at ``p``: the cells after it
        stand one column to the right. The cell goes and they go one column left again."""
        here = seq[p]
        if not self.table or here[_SRC] is None or here[_SEAT] is None:
            return
        q = self.row_of(seq, p)
        if q == p + 1:
            return          # nothing after it in the row: a deleted move
        shifted = [self.cell(self.players[(c[_SEAT] - 1) % self.n], c[_TILE], c[_END], c[_SRC], c[_ORIG], c[_ANNOT])
                   for c in seq[p + 1:q]]
        cost = COSTS["delete-cell/pass" if here[_TILE] is None else "delete-cell/tile"]
        yield seq[:p] + shifted + seq[q:], deal, p, ("delete-cell", cost, here, None, None, None), p

    def dropped_cell(self, seq, deal, p, frontier, fits):
        """A table row that lost the cell at ``p``: its later cells stand one column to the left. The
        cell comes back (a legal move of the player on turn) and they go one column right again."""
        here = seq[p] if p < len(seq) else None
        if not self.table or here is None or here[_SRC] is None or here[_SEAT] is None:
            return
        row, q = self.row(here[_SRC]), p
        while q < len(seq) and seq[q][_SRC] is not None and self.row(seq[q][_SRC]) == row and seq[q][_SEAT] is not None:
            q += 1
        if (seq[q - 1][_SEAT] + 1) % self.n == self.row_start or any(
                seq[k + 1][_SEAT] != (seq[k][_SEAT] + 1) % self.n for k in range(p, q - 1)):
            return          # a full row has no cell to lose; the cells must stand in columns in a row
        mover = frontier[0][2]
        shifted = [self.cell(self.players[(c[_SEAT] + 1) % self.n], c[_TILE], c[_END], c[_SRC], c[_ORIG], c[_ANNOT])
                   for c in seq[p:q]]
        for tile in self.legal(frontier):
            if tile is not None and not fits(tile.bit, p):
                continue
            new = self.inserted(mover)[tile.index if tile is not None else -1]
            yield (seq[:p] + [new] + shifted + seq[q:], deal, p,
                   ("insert-cell", COSTS["insert-cell/pass" if tile is None else "insert-cell/tile"], here, None,
                    tile, self.players[mover]), p + 1)


# ---- the position path: draws, claims, arms and runs -------------------------------------------------
#
# The lean checker knows one kind of game: turns in order on a two-ended line. Draw games, All Fives'
# claimed points and Muggins calls, layouts with arms and Hungarian runs are checked on the variant's
# own position instead (analyzer.rules.mechanics.position_for, as the replayer builds it for the deal),
# entry by entry with the replayer's rules. A cell is an _Entry: the MoveEntry as the repair writes it,
# its seat, and its index in the input (None: inserted). A state is a _State; its position is never
# changed once the state exists (a step copies it before a push), so the states kept for every entry
# serve every trial that restarts there.
