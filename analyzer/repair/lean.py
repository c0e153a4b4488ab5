"""The lean checker of the repair search: the replayer's rules for two-ended block games on
bit-mask states, kept for every move of the line so that a trial restarts from the edit point; and
what every checker answers (:class:`Checker`), which the position path (``positional``) answers too.

A state is a tuple (hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed):
hands: every seat's known tiles (bit masks); ends: the open numbers or None; turn: the seat to move;
passes: passes in a row; last: the seat that played the last tile (-1: none yet); over: None, or
(a Termination, seat); played: mask of the tiles on the table; hidden: None when every hand is
known, else each seat's count of tiles the record does not show, with pool (the tiles nobody is known
to hold) and lacks (per seat, a mask of the numbers a pass proved he lacks); opening: the tiles the
lead may be (0: any), as the replayer sets them for this deal and leader; exposed: the tiles lying open
that must be played at their first chance (Domino Whist §8; see analyzer.repair.exposed).

A cell is a move of the line being tried: (seat, tile, end, bit, low, high, src, orig, name, annotation)
with src the MoveEntry it comes from (None: inserted) and orig its index in the input (None: new); its
fields are named in :mod:`analyzer.repair.edits`.
"""
from __future__ import annotations

from ..position import exposed_turn, tiles_of
from ..record import Game, MoveEntry
from ..tiles import Tile
from .deal import Deal
from .edits import BIT, SRC, TILE
from .setting import Setting
from ..rules.modes import End, Termination
from ..rules.codes import Code


class Checker:
    """What the search asks of a checker beside its own :meth:`step`: the states after a cell from
    every state of a frontier, and the states a trial starts from."""

    state_key = None     # states that agree in this key are followed once (None: the lean states all are)
    walked = 0           # the steps taken so far beyond the trials' own (the rows enumerated for an inserted row)

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

    def fresh(self, frontier: list, own: bool) -> list:
        """The states a trial starts from (the lean states are values: no copy needed)."""
        return frontier


class LeanChecker(Checker):
    """The replayer's rules for two-ended block games on bit-mask states (see the module)."""

    def __init__(self, setting: Setting):
        self.s = setting
        self.players, self.seat_of, self.n = setting.players, setting.seat_of, setting.n
        self.match, self.valid_mask, self.max_pip = setting.match, setting.valid_mask, setting.max_pip
        self.tiles, self.omitted = setting.tiles, setting.omitted
        self.pair_end = setting.variant.end == End.PAIR
        self.teams = setting.variant.seating.teams
        self._inserted: dict[int, list[tuple]] = {}

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

    def initial_state(self, seq: list, deal: Deal) -> tuple[tuple, str | None]:
        """The state before the first move and the deal's error code (see :meth:`Deal.lead_state`)."""
        return deal.initial(seq)

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
            over = (Termination.BLOCKED, last if last >= 0 else now)
        return (hands, ends, now, passes, last, over, played, hidden, pool, lacks, opening, exposed)

    def step(self, st: tuple, c: tuple, own: bool = False) -> tuple[list, str | None]:
        """The states after cell ``c`` (several when the tile fits both ends), or [] and the error."""
        seat = c[0]
        if seat is None:
            return [], Code.UNKNOWN_PLAYER
        if seat != st[2] and self.omitted:
            st = self.passed(st, seat)
        hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed = st
        if over is not None:
            # a pass may follow a block (records write the passes that show it), never a player going out; and no
            # edit writes one where the record has a tile (the replayer's play-after-end)
            harmless = c[1] is None and over[0] != Termination.DOMINO and not (c[SRC] is not None and c[SRC].tile)
            return ([st], None) if harmless else ([], Code.PLAY_AFTER_END)
        if seat != turn:
            return [], Code.TURN_ORDER
        if c[1] is None:
            return self.pass_(st, seat)
        bit = c[3]
        if not bit & self.valid_mask:
            return [], Code.TILE_FOREIGN
        if played & bit:
            return [], Code.TILE_ALREADY_PLAYED
        hand = hands[seat]
        hidden_used = False
        if not hand & bit:
            if hidden is not None and hidden[seat] and pool & bit:
                hidden_used = True
            else:
                return [], Code.TILE_NOT_HELD
        options, code = self.placements(ends, opening, c)
        if code is not None:
            return [], code
        match = self.match
        if exposed:         # Domino Whist §8: the exposed tiles that fit now must be played
            fit = (opening or -1) if ends is None else match[ends[0]] | match[ends[1]]
            missed, exposed = exposed_turn(exposed, hand & fit, bit)
            if missed:
                return [], Code.EXPOSED_TILE
        if hidden is not None:
            if hidden[seat] and lacks[seat] & ((1 << c[4]) | (1 << c[5])):
                return [], Code.FALSE_PASS
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
        nxt = (turn + 1) % self.n
        out_too = not left and not (self.pair_end and self.partner_holds(new_hands, hidden, seat))
        out = []
        for _, (x, y) in options:
            if out_too:
                o = (Termination.DOMINO, seat)
            else:
                fit = match[x] | match[y]
                o = (Termination.BLOCKED, seat)
                for h in new_hands:
                    if h & fit:
                        o = None
                        break
                if o is not None and hidden is not None and any(hidden) and pool & fit:
                    o = None
            out.append((new_hands, (x, y), nxt, 0, seat, o, played, hidden, pool, lacks, opening, exposed))
        return out, None

    def pass_(self, st: tuple, seat: int) -> tuple[list, str | None]:
        """The state after ``seat`` passes on his turn, or [] and ``false-pass``."""
        hands, ends, turn, passes, last, over, played, hidden, pool, lacks, opening, exposed = st
        if ends is None:
            return [], Code.FALSE_PASS
        a, b = ends
        if hands[seat] & (self.match[a] | self.match[b]):
            return [], Code.FALSE_PASS
        passes += 1
        if hidden is not None and hidden[seat]:
            lacks = lacks[:seat] + (lacks[seat] | (1 << a) | (1 << b),) + lacks[seat + 1:]
        if passes >= self.n:
            over = (Termination.BLOCKED, last if last >= 0 else seat)
        return [(hands, ends, (turn + 1) % self.n, passes, last, over, played, hidden, pool, lacks, opening, exposed)], None

    def placements(self, ends: tuple | None, opening: int, c: tuple) -> tuple[list, str | None]:
        """Where the tile of cell ``c`` may go on ``ends``: (the end it goes on, the ends after) for
        each (the lead: (None, its numbers)), or [] and the error."""
        low, high = c[4], c[5]
        if ends is None:
            if opening and not opening & c[3]:
                return [], Code.LEAD_TILE
            return [(None, (low, high))], None
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
            return [], Code.TILE_NO_MATCH
        end = c[2]
        if end is not None:
            options = [o for o in options if o[0] == end]
            if not options:
                return [], Code.END_MISMATCH
        return options, None

    def partner_holds(self, hands: tuple, hidden: tuple | None, seat: int) -> bool:
        """Whether a partner of ``seat`` still holds a tile (the hand ends when both of a pair are out)."""
        side = self.teams[seat]
        return any(s != seat and self.teams[s] == side and (hands[s] or (hidden is not None and hidden[s]))
                   for s in range(self.n))

    def revealed(self, frontier: list, tiles: int, own: bool) -> list:
        """``frontier`` with ``tiles`` lying open from now on; none where one of them was played before
        (the replayer's ``bad-exposed``)."""
        return [st[:11] + (st[11] | tiles,) for st in frontier if not st[6] & tiles]

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
        steps = [0]

        def walk(st: tuple, path: list, mask: int) -> None:
            if len(path) == length or st[5] is not None:
                key = tuple(c[BIT] if c[TILE] is not None else -1 for c in path)
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
            steps[0] += len(options)
            for c, more in options:
                got, _ = step(st, c)
                for nxt in got:
                    path.append(c)
                    walk(nxt, path, more)
                    path.pop()

        for st in frontier:
            walk(st, [], 0)
        self.walked += steps[0]         # (the search counts them: a row enumerated costs its steps)
        return out
