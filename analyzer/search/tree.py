"""The general exact search: alpha-beta over any position, for the games the int solver does not play.

:mod:`analyzer.search.block` compiles a two-ended block game to ints and is fast. The other games keep
their own position classes (arms around a spinner, a boneyard, a player who plays on while he can)
and this module searches them through the position contract itself: ``legal_moves``, ``push``,
``pop``, ``outcome`` and ``key``. Nothing about a game's rules is written twice: a move is legal here
exactly when the replayer accepts it.

**Values** are points for side 0 (seats 0 and 2 in a partnership game, or the analysed player in
a game of individual players, see :class:`~analyzer.analysis.AgainstTheRest`), side 0 maximising,
every other seat minimising. A finished hand is worth ``variant.value(facts)``; a game that scores
during play (All Fives) adds every play's points on the way, plus for side 0 and minus for the
others. The value of a position is the sum of the points still to come, so a transposition table
keyed on the position's state (not on the points already scored) stays exact; for All Fives the
key adds the ends as they lie and which of them is a double, which the open numbers alone do not
say (a double at an end counts twice).

**Draw games** are searched with the boneyard in one fixed order (:class:`RevealedDraws`): the tiles
the record shows drawn, in the order drawn, then the tiles nobody drew, in ascending order. Whoever
draws next takes the next tile of that order, in every line. The opener's right to add a matching
tile to his lead (004) is a choice of his: each playable tile, or :data:`NO_EXTRA`.

**Search.** Fail-soft alpha-beta with a transposition table of bounds and best moves, driven by
MTD(f) like the int solver. Moves are ordered by the table's move, then heaviest tile first. Once a
layout with arms has its spinner filled (nobody draws any more), the search goes on in a compiled
state of its own (:class:`_ArmDeal`: the hands, the sorted arm codes and the seat as ints, forced
passes skipped, no more open arms of a number than the tiles still held with it (the others can never
be used, so states alike but for them share a table entry), pip bounds for the standard scoring that
count the tile the player to move must play, the moves that leave the next opponent the fewest tiles to
play first), in C where ``analyzer.search._arms`` was built (:class:`_CompiledArmDeal`: the same
moves, order, values and positions visited, a table bounded by ``table_mb``; see
``analyzer.search.core``). A two-ended draw game (and All Fives, and Hungarian's runs) goes on in a compact
state of its own once the line has its lead (:mod:`analyzer.search.draw`, in C where ``analyzer.search._draw``
was built). MTD(f) starts from the last value the search found. A ``node_limit`` bounds the work of
one call; past it :class:`SearchLimit` is raised and the caller says which values are missing rather
than give a guess."""
from __future__ import annotations

import weakref
from itertools import islice

from ..position import Position, mask_pips, tiles_of
from ..rules.layout import ArmPosition
from ..rules.policies import HandFacts, is_double
from ..rules.turns import DrawPosition
from .alphabeta import INF, Proven, bound_decision, fold_child, gc_paused, hand_leader, mtdf
from .entries import CACHE_SIZE, narrowed_entry, probe_entry
from .block import SolverError
from .scoring import hand_bound, standard_scoring
from .scoring import describe
from .core import (ARMS_ENTRY_BYTES, NODE_LIMIT, PY_ENTRY_BYTES, TABLE_MB, SearchLimit, arms_core, check_table_mb,
                   filled, resolve_arms, resolve_draw, weak_method)
from .draw import NO_EXTRA, DrawLine, draw_deal, plays_draws
from ..tiles import PASS, Move, Tile
from ..rules.modes import Count, Layout
from ..i18n import gettext

__all__ = ["TreeSearch", "SearchLimit", "RevealedDraws", "RevealedArms", "NO_EXTRA", "revealed", "revealed_order",
           "arms_note", "arms_scoring"]


class _Revealed:
    """Draws from a boneyard in a fixed order (``order``: every boneyard tile), for a draw position.

    A draw takes the next tile of the order. Right after the lead, when the variant lets the
    opener add a matching tile, he moves again: a play (the added tile) or :data:`NO_EXTRA`."""

    __slots__ = ()

    def next_draw(self) -> Tile:
        return self.order[len(self.order) - self.stock]

    def legal_moves(self) -> list[Move]:
        if self.offer >= 0:
            return self.plays() + [NO_EXTRA]
        moves = super().legal_moves()
        if len(moves) == 1 and moves[0].draw:
            return [Move(self.next_draw(), None, True)]
        return moves

    def key(self) -> tuple:
        return super().key() + (self.offer,)

    def push(self, move: Move) -> None:
        self._offers.append(self.offer)
        if move == NO_EXTRA:
            self.offer = -1
            self._log.append(("skip", self.turn))
            self.turn = (self.turn + 1) % self.n
            self.bonus = -1
            return
        seat = self.turn
        super().push(move)
        self.offer = -1
        if self.bonus == seat and self.may_add(seat):
            self.offer = seat               # the opener may add a matching tile at once
            self.turn = seat

    def pop(self) -> Move:
        entry = self._log[-1]
        if entry[0] == "skip":
            self._log.pop()
            self.turn = entry[1]
            self.offer = self._offers.pop()
            self.bonus = self.offer
            return NO_EXTRA
        move = super().pop()
        self.offer = self._offers.pop()
        return move

    def copy(self):
        return revealed(self, self.order, self.offer, self._offers)


class RevealedDraws(_Revealed, DrawPosition):
    """A draw game with its boneyard in a fixed order (see :class:`_Revealed`)."""

    __slots__ = ("order", "offer", "_offers")


class RevealedArms(_Revealed, ArmPosition):
    """A layout with arms whose sleepers are drawn in a fixed order (cross domino filling its spinner)."""

    __slots__ = ("order", "offer", "_offers")


def revealed(pos: DrawPosition, order: list[Tile], offer: int = -1, offers: list[int] = ()) -> DrawPosition:
    """A copy of ``pos`` whose boneyard is drawn in ``order``."""
    cls = RevealedArms if pos.has_arms else RevealedDraws
    out = object.__new__(cls)
    for klass in type(pos).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name in ("order", "offer", "_offers"):
                continue
            value = getattr(pos, name)
            setattr(out, name, list(value) if isinstance(value, list) else value)
    out.order, out.offer, out._offers = tuple(order), offer, list(offers)
    return out


def revealed_order(pos: DrawPosition, drawn: list[Tile]) -> list[Tile]:
    """The boneyard order a record reveals: the tiles it shows drawn, then the rest ascending."""
    rest = [t for t in tiles_of(pos.pool, pos.max_pip) if t not in set(drawn)]
    return list(drawn) + sorted(rest)


class TreeSearch:
    """Exact values over any position (see the module). ``rules``: the variant, or an object with its
    ``seating``, ``value(facts)`` and ``play`` (such as ``AgainstTheRest``).

    ``core``: the search over arms once nobody draws, and that of a draw game or All Fives once the
    line has its lead, run compiled (``analyzer.search._arms``, ``analyzer.search._draw``) or in Python
    (``"python"``); None: :data:`analyzer.search.core.ARMS_CORE` and ``DRAW_CORE``. ``table_mb``: the
    memory of a compiled search's table, and of all the pure-Python tables of this search together
    (:meth:`_full`). Setting the attribute ``draw_state`` to False (it is no parameter) walks the
    positions of draw games instead (to compare)."""

    def __init__(self, rules, node_limit: int | None = None, table_mb: float = TABLE_MB,
                 core: str | None = None) -> None:
        self.rules = rules
        teams = rules.seating.teams
        if max(teams) != 1:
            raise NotImplementedError("the search plays two sides: side 0 against the rest")
        self.maximiser = [side == 0 for side in teams]
        self.play = getattr(rules, "play", None)
        self.node_limit = NODE_LIMIT if node_limit is None else node_limit
        self.nodes = 0
        self.tt: dict[tuple, tuple[int, int, Move | None]] = {}
        self._deal: tuple | None = None
        self._last = 0              # the last value found: the next search's first guess
        self._arm_deals: dict[tuple, _ArmDeal] = {}
        self.arm_state = True       # layouts with arms use the compact state (_ArmDeal); False: the position
        self.draw_state = plays_draws(rules)    # draw games and All Fives: the compact state (search/draw.py)
        self._draw_deals: dict[tuple, object] = {}
        check_table_mb(table_mb)
        self.table_mb = table_mb
        # the pure-Python tables of this search (its own, and those of the deals searched in Python) share
        # ``table_mb``, estimated at PY_ENTRY_BYTES an entry; ``room``: the entries ``tt`` may hold now
        self.py_entries = max(4, int(table_mb * (1 << 20)) // PY_ENTRY_BYTES)
        self.room = 0
        self._dropped = False       # a pure-Python table dropped entries (it was full)
        self.bound_past_limit = True    # past the node limit, ``values`` spends as much again on bounds
        self.core = resolve_arms(core)
        self.draw_core = resolve_draw(core) if self.draw_state else "python"

    # -- public API (that of :class:`analyzer.search.block.Solver`) ---------------------------------------
    def solve(self, pos: Position) -> int:
        """The exact value of ``pos`` for side 0."""
        self._start(pos)
        with gc_paused():
            return self._mtd(pos, -INF, INF)

    def values(self, pos: Position) -> list[tuple[Move, int]]:
        """The exact value (for side 0) of every legal move of the player to move: the points the
        move scores at once (All Fives) plus the value of the position it leaves."""
        self._start(pos)
        out = []
        with gc_paused():
            try:
                for move in pos.legal_moves():
                    gain = self._push(pos, move)
                    try:
                        out.append((move, gain + self._mtd(pos, -INF, INF)))
                    except SearchLimit as exc:      # what its MTD(f) proved before the limit
                        exc.window = (move, *(b if abs(b) >= INF else gain + b for b in exc.window or (-INF, INF)))
                        raise
                    finally:
                        pos.pop()
            except SearchLimit as exc:
                exc.partial = out
                if self.bound_past_limit:
                    move, low, high = exc.window
                    exc.bounds = bound_decision(self, pos.legal_moves(), lambda m, a, b: self._after(pos, m, a, b),
                                                self.maximiser[pos.turn],
                                                Proven(dict(out), {move: (low, high)}, hand_bound(self.rules, pos),
                                                       self._last))
                raise
        return out

    def _after(self, pos: Position, move: Move, alpha: int, beta: int) -> int:
        """The side-0 value of playing ``move`` (with the points it scores at once), fail-soft in (alpha, beta)."""
        gain = self._push(pos, move)
        try:
            return gain + self._mtd(pos, alpha - gain, beta - gain)
        finally:
            pos.pop()

    def best_line(self, pos: Position, guess: int | None = None) -> list[Move]:
        """Best moves for both sides from ``pos`` to the end of the hand (:meth:`principal`'s two parts joined)."""
        line, rest = self.principal(pos, guess)
        return line + (list(rest.moves) if isinstance(rest, DrawLine) else rest)

    def principal(self, pos: Position, guess: int | None = None) -> tuple[list[Move], list[Move] | DrawLine]:
        """Best moves for both sides from ``pos`` to the end of the hand, at each choice the first in the order of
        ``legal_moves`` among equal best ones: those walked here, and the rest as the compiled compact state that
        took the line gives it (:meth:`_compiled_line`; none where none did), a draw game's a ``DrawLine``.

        The value is searched once: along the line the points still to come fall by what each move scores; at each
        choice the moves are probed in order with a null window around it (:meth:`_after`), the first that reaches
        it is the line's. The node limit bounds each choice's probes (and the first value), as it bounds each call
        of :meth:`values`. ``guess``: the side-0 value of the points still to come as far as it is known (an
        analysis's): where the search for it starts (never trusted)."""
        line, rest = [], []
        value = None        # the side-0 value of the points still to come from where the line is
        with gc_paused():
            try:
                while moves := pos.legal_moves():
                    choice = moves[0]
                    if len(moves) > 1:
                        self._start(pos)
                        if value is None:
                            if guess is not None:
                                self._last = guess
                            value = self._mtd(pos, -INF, INF)
                    if value is not None and (found := self._compiled_line(pos, value, len(moves) > 1)) is not None:
                        rest = found
                        break
                    if len(moves) > 1:
                        choice = self._first_best(pos, moves, value)
                    gain = self._push(pos, choice)
                    line.append(choice)
                    if value is not None:
                        value -= gain
            finally:
                for _ in line:
                    pos.pop()
        return line, rest

    def _compiled_line(self, pos: Position, value: int, choice: bool) -> list[Move] | DrawLine | None:
        """The rest of :meth:`principal` from ``pos`` (``value`` its side-0 value; ``choice``: the nodes spent so far count
        against this choice's probes) in one call of the compiled state searching ``pos`` (None: none does), the same line."""
        spent = self.nodes if choice else 0
        if self.arm_state and pos.has_arms:
            compact = self.core == "compiled" and self.play is None and pos.arms and not pos.drawable()
            deal = self._arm_deal(pos) if compact and getattr(pos, "offer", -1) < 0 else None
            return deal.line(pos, value, spent) if type(deal) is _CompiledArmDeal else None
        deal = draw_deal(self, pos) if self.draw_state and self.draw_core == "compiled" else None
        return deal.line(pos, value, spent) if hasattr(deal, "line") else None      # (a compiled one's)

    def _first_best(self, pos: Position, moves: list[Move], value: int) -> Move:
        """The first of ``moves`` whose side-0 value (with the points it scores at once) reaches ``value``, the position's:
        a null-window probe each (at least ``value`` where side 0 moves, at most where another does)."""
        if self.maximiser[pos.turn]:
            found = next((m for m in moves if self._after(pos, m, value - 1, value) >= value), None)
        else:
            found = next((m for m in moves if self._after(pos, m, value, value + 1) <= value), None)
        if found is None:  # pragma: no cover - some move always keeps the value
            raise AssertionError("no move keeps the solved value")
        return found

    def table_size(self) -> tuple[int, int]:
        """``(entries, bytes)`` the tables of this search hold now: the compiled ones as allocated, the
        pure-Python ones (its own table of positions, those of the search over arms and of draw games)
        estimated at ``PY_ENTRY_BYTES`` an entry."""
        python = sum(len(t.tt) for t in self._python_tables())
        compiled = [d.core for d in self._deals() if not d.python_table]
        return python + sum(c.used for c in compiled), python * PY_ENTRY_BYTES + sum(c.nbytes for c in compiled)

    @property
    def table_full(self) -> bool:
        """Whether a table of this search was full and gave up entries since the search was made (the
        node limit may then stop a search that a larger ``table_mb`` would finish)."""
        return self._dropped or any(d.table_full for d in self._deals() if not d.python_table)

    # -- internals ------------------------------------------------------------------------------
    def _deals(self) -> tuple:
        """The deals of the search over arms and of draw games this search holds now."""
        return (*self._arm_deals.values(), *self._draw_deals.values())

    def _python_tables(self) -> list:
        """What holds a pure-Python table in this search (a ``tt`` and its ``room``): the search itself
        and its deals searched in Python."""
        return [self] + [d for d in self._deals() if d.python_table]

    def _full(self, holder) -> None:
        """``holder``'s table holds all it may (its ``room``). The pure-Python tables of this search share
        ``py_entries`` entries: what is free is shared out among them again. When less than an eighth is
        free, the other tables are emptied, and ``holder`` drops its lesser half (:func:`_lesser_half`)
        once it holds more than half. (A table holds bounds that a search may use or not: dropping
        entries costs work, never exactness.)"""
        tables = self._python_tables()
        budget = self.py_entries
        free = budget - sum(len(t.tt) for t in tables)
        if free < max(len(tables), budget // 8):
            self._dropped = True
            for t in tables:
                if t is not holder:
                    t.tt.clear()
                elif len(t.tt) > budget // 2:
                    for key in _lesser_half(t.tt):
                        del t.tt[key]
            free = budget - sum(len(t.tt) for t in tables)
        for t in tables:
            t.room = len(t.tt) + max(1, free // len(tables))

    def _start(self, pos: Position) -> None:
        if any(pos.hidden):
            raise SolverError("the search needs every hand known")
        if pos.n != len(self.maximiser):
            raise SolverError(f"the rules seat {len(self.maximiser)} players, the position has {pos.n}")
        dealt = list(pos.hands)
        for move, seat, *_ in pos.history:
            if move.tile is not None:
                dealt[seat] |= move.tile.bit
        for entry in getattr(pos, "_log", ()):
            if entry[0] == "draw" and entry[2] is not None:       # drawn, not dealt
                dealt[entry[1]] &= ~entry[2].bit
        deal = (tuple(dealt), hand_leader(pos), getattr(pos, "order", None))
        if deal != self._deal:
            # the positions' table and those of draw games belong to one deal (a position's key leaves out
            # the sleepers and the boneyard's order); a search over arms keeps its table, whose state is
            # whole (every hand, the arms, the seat; its leaves read the hands and the leader, which is in
            # its signature), so the deals of one decision's worlds share what they have in common
            self.tt.clear()
            self._draw_deals.clear()
            self._deal = deal
            self._last = 0
        self.nodes = 0

    def _arms(self, pos: ArmPosition, alpha: int, beta: int) -> int:
        """A layout with arms once nobody draws any more: the compiled search (:class:`_ArmDeal`)."""
        arms = tuple(sorted((a.number << 2) | _STATE_CODE[a.state] for a in pos.arms))
        return self._arm_deal(pos).search(tuple(pos.hands), arms, pos.turn, alpha, beta)

    def _arm_deal(self, pos: ArmPosition) -> _ArmDeal:
        """The search over arms of ``pos``'s deal, made once for each (players, leader, layout, set)."""
        sig = (pos.n, hand_leader(pos), pos.layout, pos.max_pip)
        deal = self._arm_deals.get(sig)
        if deal is None:
            self._arm_deals.clear()     # one at a time: each may fill ``table_mb``
            compiled = self.core == "compiled" and arms_compiled(self.rules)
            deal = self._arm_deals[sig] = (_CompiledArmDeal if compiled else _ArmDeal)(self, *sig)
        return deal

    def _mtd(self, pos: Position, alpha: int, beta: int) -> int:
        """The value of ``pos`` by MTD(f), its first guess the last value this search found (the
        values of one deal's alternatives and of its next positions lie close together)."""
        entry = self.tt.get(self._key(pos))
        guess = self._last if entry is None else min(max(self._last, entry[0]), entry[1])
        self._last = mtdf(lambda a, b: self._search(pos, a, b), alpha, beta, guess)
        return self._last

    def _key(self, pos: Position) -> tuple:
        if self.play is None:
            return pos.key()
        # the open ends as they lie and whether each end's tile is a double (or the lead lies alone):
        # the count alone is not enough (ends 6 and 6 count 18 with the double at either end, and a
        # tile on the first of two equal ends covers the one on the left)
        line = pos.line_ends()
        return pos.key() + (pos.ends, is_double(line[0][0]), is_double(line[-1][0]), len(line)) if line else pos.key()

    def _ends_count(self, pos: Position) -> int:
        return self.play.ends_total(pos.line_ends(), pos.ends)

    def _push(self, pos: Position, move: Move) -> int:
        """Play ``move``; the points it scores at once, for side 0."""
        seat = pos.turn
        pos.push(move)
        if self.play is None or move.tile is None or move.draw:
            return 0
        points = self.play.points(self._ends_count(pos))
        return points if self.maximiser[seat] else -points

    def _leaf(self, pos: Position, termination: str, seat: int) -> int:
        n = pos.n
        last = next((h for h in reversed(pos.history) if h[0].tile is not None), None)
        facts = HandFacts(termination, seat, tuple(pos.pips(s) for s in range(n)),
                          tuple(pos.count(s) for s in range(n)), hand_leader(pos), hands=tuple(pos.hands),
                          last_tile=last[0].tile if last else None, ends_before=last[2] if last else None)
        return self.rules.value(facts)

    def _search(self, pos: Position, alpha: int, beta: int) -> int:
        """The side-0 value of ``pos`` (points still to come), fail-soft within (alpha, beta)."""
        outcome = pos.outcome()
        if outcome is not None:
            return self._leaf(pos, outcome.termination, outcome.seat)
        if self.arm_state and pos.has_arms and pos.arms and not pos.drawable() and pos.playable_mask(pos.turn):
            return self._arms(pos, alpha, beta)
        if self.draw_state and (deal := draw_deal(self, pos)) is not None:
            return deal.enter(pos, alpha, beta)
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchLimit(f"more than {self.node_limit:,} positions")
        key = self._key(pos)
        entry = self.tt.get(key)
        cut, alpha, beta, hint = probe_entry(entry, alpha, beta)
        if cut is not None:
            return cut
        moves = pos.legal_moves()
        if len(moves) > 1:
            moves.sort(key=lambda m: (m != hint, -(m.tile.pips if m.tile is not None else -1)))
        maximise = self.maximiser[pos.turn]
        a0, b0 = alpha, beta
        best, best_move = (-INF if maximise else INF), None
        for move in moves:
            gain = self._push(pos, move)
            try:
                x = gain + self._search(pos, alpha - gain, beta - gain)
            finally:
                pos.pop()
            improved, best, alpha, beta = fold_child(maximise, x, best, alpha, beta)
            if improved:
                best_move = move
            if alpha >= beta:
                break
        if len(self.tt) >= self.room:
            self._full(self)
        self.tt[key] = narrowed_entry(entry, best, best_move, a0, b0)
        return best


def _lesser_half(tt: dict) -> list:
    """The half of a full table's keys to drop. Of int states (arms, draw games), the keys with the
    fewest bits set: a key holds the hands' bits, so about the states with the fewest tiles held and
    the least work behind them. Of the general table's positions, the older half (a dict keeps the
    order of insertion)."""
    half = len(tt) // 2
    if isinstance(next(iter(tt)), int):
        return sorted(tt, key=int.bit_count)[:half]
    return list(islice(tt, half))


# -- layouts with arms, compiled to ints ------------------------------------------------------------
_START, _CLOSED, _DOUBLE, _OPEN = 0, 1, 2, 3
_STATE_CODE = {"start": _START, "closed": _CLOSED, "double": _DOUBLE, "open": _OPEN}


class _ArmDeal:
    """A layout with arms compiled to ints, like :class:`analyzer.search.blockdeal.IntDeal`: the state of a
    hand is every seat's tiles (a tuple of masks: drawn sleepers make hands that no deal had), the
    arms (a sorted tuple of ``number * 4 + state`` codes: alike arms are interchangeable) and the
    seat to move, who always holds a playable tile; forced passes are skipped and a hand blocks when
    no seat can play. The rules are those of
    :class:`~analyzer.rules.layout.ArmPosition` (``tests/test_search.py`` checks the two agree)."""

    python_table = True     # its table is a dict of TreeSearch's shared bound

    def __init__(self, search: TreeSearch, n: int, leader: int, layout: str, max_pip: int):
        from ..tiles import tile_set

        self.owner = weakref.proxy(search)      # (no cycle: a dropped search frees its tables at once)
        self.n = n
        self.leader = leader
        self.max_pip = max_pip
        self.tiles = tile_set(max_pip)
        self.after_fill = _DOUBLE if layout == Layout.FRENCH else _OPEN
        self.branch = layout == Layout.TREE
        self.match = [0] * (max_pip + 1)
        for t in self.tiles:
            self.match[t.low] |= t.bit
            self.match[t.high] |= t.bit
        self.double = [Tile(k, k).bit for k in range(max_pip + 1)]
        self.tt: dict[tuple, tuple[int, int, tuple | None]] = {}
        self.room = 0                   # the entries ``tt`` may hold now (TreeSearch._full)
        self.leaves: dict[tuple, int] = {}
        self.fits: dict[tuple, int] = {}
        self.spots: dict[tuple, list[tuple[int, int]]] = {}     # arms -> (playable arm code, its fit)
        self.after: dict[tuple, tuple[int, ...]] = {}             # (arms, code, tile bit) -> arms after
        self.pips = {t.bit: -t.pips for t in self.tiles}          # the sort key: heaviest first
        # the standard scoring (two sides, the side with fewer pips wins a block, it scores the
        # losers' pips or all pips): a side wins at most what is still held, which bounds every value
        standard, cu = standard_scoring(search.rules)
        self.all_pips = cu == 1         # (bad points, cu = -1, have the bounds of the losers' pips)
        self.side = search.rules.seating.teams if standard else None
        self.race = standard and cu >= 0    # the bound of the tile played now (not under bad points)
        self.held: dict[int, int] = {}          # a hand -> its pips
        self.light: dict[int, int] = {}         # a set of tiles -> the pips of its lightest
        self.arm_keys: dict[tuple, int] = {}
        self.width = len(self.tiles)
        teams = search.rules.seating.teams
        self.opponent = [next(t % n for t in range(s + 1, s + n + 1) if teams[t % n] != teams[s])
                         for s in range(n)]
        self.maximiser = search.maximiser

    def fit(self, arms: tuple[int, ...]) -> int:
        """Every tile that could be played on ``arms``, as a mask."""
        f = self.fits.get(arms)
        if f is None:
            if len(self.fits) > CACHE_SIZE:
                self.fits.clear()
            f = 0
            starts = [c for c in arms if c & 3 == _START]
            if starts:
                f = self.match[starts[0] >> 2]
            else:
                for c in arms:
                    if c & 3 == _OPEN:
                        f |= self.match[c >> 2]
                    elif c & 3 == _DOUBLE:
                        f |= self.double[c >> 2]
            self.fits[arms] = f
        return f

    def moves(self, arms: tuple[int, ...], hand: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """``(tile bit, arm code, arms after)`` for every way to play a tile of ``hand``."""
        spots = self.spots.get(arms)
        if spots is None:
            if len(self.spots) > CACHE_SIZE:
                self.spots.clear()
            starts = [c for c in arms if c & 3 == _START]
            codes = [starts[0]] if starts else sorted({c for c in arms if c & 3 in (_OPEN, _DOUBLE)})
            spots = self.spots[arms] = [(c, self.double[c >> 2] if c & 3 == _DOUBLE else self.match[c >> 2])
                                        for c in codes]
        out = []
        after = self.after
        for c, fit in spots:        # (the search orders them)
            mask = hand & fit
            while mask:
                bit = mask & -mask
                mask ^= bit
                key = (arms, c, bit)
                new = after.get(key)
                if new is None:
                    if len(after) > CACHE_SIZE:
                        after.clear()
                    new = after[key] = self._after(arms, c, bit)
                out.append((bit, c, new))
        return out

    def _after(self, arms: tuple[int, ...], c: int, bit: int) -> tuple[int, ...]:
        """The arms once the tile ``bit`` goes on the arm with code ``c``."""
        tile = self.tiles[bit.bit_length() - 1]
        n, st = c >> 2, c & 3
        rest = list(arms)
        rest.remove(c)
        if st == _START:
            rest.append((tile.other(n) << 2) | _CLOSED)
            if not any(x & 3 == _START for x in rest):
                rest = [(x & ~3) | self.after_fill if x & 3 == _CLOSED else x for x in rest]
        elif st == _DOUBLE:
            rest.append((n << 2) | _OPEN)
        else:
            rest.append((tile.other(n) << 2) | _OPEN)
            if self.branch and tile.is_double:
                rest += [(n << 2) | _OPEN] * 2
        return tuple(sorted(rest))

    def canonical(self, arms: tuple[int, ...], held: int) -> tuple[int, ...]:
        """``arms`` as they matter to the rest of the hand, whose tiles still ``held`` are a mask: of
        each number, no more open arms than the held tiles with that number (each takes at most one of
        them, so the others are never needed), and none where nobody holds the number. Two states alike
        but for such arms have the same moves, values and table entry."""
        kept, prev, run, cap = [], -1, 0, 0
        for c in arms:
            if c & 3 != _OPEN:
                kept.append(c)
                continue
            if c != prev:
                prev, run, cap = c, 0, (held & self.match[c >> 2]).bit_count()
            run += 1
            if run <= cap:
                kept.append(c)
        return arms if len(kept) == len(arms) else tuple(kept)

    def key(self, hands: tuple[int, ...], arms: tuple[int, ...], s: int) -> int:
        """The state packed into one int (the table's key): far smaller than the tuples."""
        a = self.arm_keys.get(arms)
        if a is None:
            if len(self.arm_keys) > CACHE_SIZE:
                self.arm_keys.clear()
            a = 1                                  # a leading 1 keeps the number of arms
            for c in arms:
                a = (a << 6) | c
            self.arm_keys[arms] = a
        w = self.width
        k = a
        for h in hands:
            k = (k << w) | h
        return (k << 3) | s

    def leaf(self, hands: tuple[int, ...], termination: str, seat: int, bit: int) -> int:
        key = (hands, termination, seat, bit)
        value = self.leaves.get(key)
        if value is None:
            if len(self.leaves) > CACHE_SIZE:
                self.leaves.clear()
            left = [tiles_of(h, self.max_pip) for h in hands]
            facts = HandFacts(termination, seat, tuple(sum(t.pips for t in ts) for ts in left),
                              tuple(len(ts) for ts in left), self.leader, hands=hands,
                              last_tile=self.tiles[bit.bit_length() - 1])
            value = self.leaves[key] = self.owner.rules.value(facts)
        return value

    def bounds(self, hands: tuple[int, ...], arms: tuple[int, ...], s: int) -> tuple[int, int]:
        """``(high, low)``: the most and the least side 0 can win from the state under the standard
        scoring. A side wins at most what is still held (the losers' pips, or every pip); under those
        two countings the player to move also plays one of his playable tiles now, so the pips held
        drop by at least the lightest of them, and when it is his last tile his side wins (a won
        hand is worth at least 0, a lost one at most 0)."""
        p = [0, 0]
        for seat, h in enumerate(hands):
            pips = self.held.get(h)
            if pips is None:
                if len(self.held) > CACHE_SIZE:
                    self.held.clear()
                pips = self.held[h] = mask_pips(h)
            p[self.side[seat]] += pips
        high, low = (p[0] + p[1], -p[0] - p[1]) if self.all_pips else (p[1], -p[0])
        if self.race:
            side = self.side[s]
            playable = hands[s] & self.fit(arms)
            least = self.light.get(playable)
            if least is None:
                if len(self.light) > CACHE_SIZE:
                    self.light.clear()
                least = self.light[playable] = min(t.pips for t in tiles_of(playable, self.max_pip))
            if side == 1 or self.all_pips:
                high -= least
            if side == 0 or self.all_pips:
                low += least
            if hands[s].bit_count() == 1:
                if side == 1:
                    high = 0
                else:
                    low = 0
        return high, low

    def search(self, hands: tuple[int, ...], arms: tuple[int, ...], s: int, alpha: int, beta: int) -> int:
        """The side-0 value of the state; ``s`` holds a playable tile. Fail-soft in (alpha, beta)."""
        owner = self.owner
        owner.nodes += 1
        if owner.nodes > owner.node_limit:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        held = 0
        for h in hands:
            held |= h
        arms = self.canonical(arms, held)
        if self.side is not None:
            high, low = self.bounds(hands, arms, s)
            if high <= alpha:
                return high
            if low >= beta:
                return low
        key = self.key(hands, arms, s)
        entry = self.tt.get(key)
        cut, alpha, beta, hint = probe_entry(entry, alpha, beta)
        if cut is not None:
            return cut
        moves = self.moves(arms, hands[s])
        if len(moves) > 1:
            # first the moves that leave the next opponent the fewest tiles to play, heaviest first
            opp, fit, pips = hands[self.opponent[s]], self.fit, self.pips
            moves.sort(key=lambda mv: ((opp & fit(mv[2])).bit_count(), pips[mv[0]]))
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        maximise = self.maximiser[s]
        a0, b0 = alpha, beta
        best, best_move = (-INF if maximise else INF), None
        n = self.n
        for move in moves:
            bit, _code, after = move
            left = hands[s] & ~bit
            now = hands[:s] + (left,) + hands[s + 1:]
            if not left:
                x = self.leaf(now, "domino", s, bit)
            else:
                fit = self.fit(after)
                t = (s + 1) % n
                while not now[t] & fit:
                    if t == s:
                        break
                    t = (t + 1) % n
                if t == s and not left & fit:
                    x = self.leaf(now, "blocked", s, bit)
                else:
                    x = self.search(now, after, t, alpha, beta)
            # (alphabeta.fold_child inlined: this is the pure-Python search's inner loop, once per child)
            if maximise:
                if x > best:
                    best, best_move = x, move
                    alpha = max(alpha, x)
            elif x < best:
                best, best_move = x, move
                beta = min(beta, x)
            if alpha >= beta:
                break
        if len(self.tt) >= self.room:
            owner._full(self)
        self.tt[key] = narrowed_entry(entry, best, best_move, a0, b0)
        return best


def arms_scoring(rules) -> tuple[int, int]:
    """How the compiled search over arms values a finished hand under ``rules``: ``(0, cu)``, the
    standard scoring of two sides (:func:`~analyzer.search.scoring.standard_scoring`); ``(1, doubled)``,
    one seat against the rest where each seat's pips are bad points (French domino: doubled for a
    hand holding a double), his value the others' less his own, summed; ``(3, 0)``: a scoring
    :func:`~analyzer.search.scoring.describe` knows, computed in C from its description; ``(2, 0)``: any
    other scoring, asked of Python for every finished hand (exact, slower)."""
    standard, cu = standard_scoring(rules)
    if standard:
        return 0, cu
    variant = getattr(rules, "variant", None)       # AgainstTheRest: one seat against the rest
    if variant is not None and getattr(rules, "bad", False) and isinstance(getattr(rules, "seat", None), int):
        from ..rules.policies import PointScoring
        from ..rules.variants import Variant

        scoring = variant.scoring
        if (type(variant).hand_result is Variant.hand_result and type(scoring) is PointScoring
                and scoring.count == Count.BAD and not scoring.blank
                and tuple(variant.seating.teams) == tuple(range(variant.players))):
            return 1, int(scoring.doubled)
    return (2, 0) if describe(rules) is None else (3, 0)


def arms_compiled(rules) -> bool:
    """Whether the compiled search over arms in use may search under ``rules``: the CPython extension always (it asks
    Python for a scoring it does not write); its WebAssembly module (:mod:`analyzer.search.wasmarms`, no callback
    into Python) only the scorings it writes or has described: the others are searched in Python there."""
    return getattr(arms_core(), "CALLBACKS", True) or arms_scoring(rules)[0] != 2


def arms_note(rules, core: str | None = None) -> str | None:
    """What an analysis should tell its reader about the speed of the search over arms under ``rules``:
    the compiled search writes the scorings of :func:`arms_scoring` and asks Python for any other."""
    if resolve_arms(core) == "compiled" and arms_scoring(rules)[0] == 2:
        if not arms_compiled(rules):
            return gettext("The compiled search over the arms in the browser (WebAssembly) cannot ask Python for the "
                           "value of a finished hand under this scoring: the pure-Python search values it (exact, but "
                           "slower).")
        return gettext("The compiled search over the arms asks Python for the value of every finished hand under "
                       "this scoring (exact, but slower than the scorings it knows).")
    return None


class _CompiledArmDeal(_ArmDeal):
    """:class:`_ArmDeal` searched in C (``analyzer.search._arms.ArmSearch``): the same moves, order,
    leaf values, bounds and table entries, and the same count of positions while neither table is
    full; the table is bounded (``TreeSearch.table_mb``)."""

    python_table = False    # its table is the C search's own

    def __init__(self, search: TreeSearch, n: int, leader: int, layout: str, max_pip: int):
        super().__init__(search, n, leader, layout, max_pip)
        mode, param = arms_scoring(search.rules)
        self.python_leaves = mode == 2
        entries = max(4, int(search.table_mb * (1 << 20)) // ARMS_ENTRY_BYTES)
        described = describe(search.rules).ints() if mode == 3 else None
        self.core = arms_core().ArmSearch(n, max_pip, self.after_fill == _DOUBLE, self.branch,
                                          [int(m) for m in search.maximiser], self.opponent, mode, param,
                                          list(search.rules.seating.teams), weak_method(self.leaf), entries, described, leader)

    @property
    def table_full(self) -> bool:
        """Three quarters of the slots the table may grow to are taken (at its bound a full bucket of four
        replaces an entry, which a few collisions do long before)."""
        return filled(self.core.used, self.core.max_entries)

    def search(self, hands: tuple[int, ...], arms: tuple[int, ...], s: int, alpha: int, beta: int) -> int:
        owner = self.owner
        value, nodes = self.core.search(hands, arms, s, alpha, beta, owner.node_limit - owner.nodes)
        owner.nodes += nodes
        if value is None:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        return value

    def line(self, pos: ArmPosition, value: int, spent: int) -> list[Move]:
        """The rest of ``TreeSearch.best_line`` from ``pos`` (``value`` its side-0 value) in one call (``ArmSearch.line``),
        named by the position's own arms; each choice's probes count as the walk's (``spent`` already; a forced pass
        before a probe's state one, where the walk's table does not cut it short): past ``node_limit``, SearchLimit."""
        owner = self.owner
        arms = tuple((a.number << 2) | _STATE_CODE[a.state] for a in pos.arms)
        steps, nodes, after = self.core.line(tuple(pos.hands), arms, pos.turn, value, owner.node_limit, spent)
        if after is not None:           # the walk's count and last value, after its last choice's probes
            owner.nodes, owner._last = nodes, after
        if steps is None:
            raise SearchLimit(f"more than {owner.node_limit:,} positions")
        tiles = self.tiles
        return [PASS if tile < 0 else Move(tiles[tile], number, arm=arm) for _, tile, number, arm in steps]
