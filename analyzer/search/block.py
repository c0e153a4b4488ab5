"""The exact solver: alpha-beta search with a transposition table, every hand known.

The :class:`Solver` values positions; the search itself runs on one deal compiled to ints
(:mod:`analyzer.search.blockdeal`: its state, table, move order, bounds and scoring are described
there), in pure Python or in C (``_core.c``), as :mod:`analyzer.search.core` chooses.

**Sides.** Values are points for side 0 (seats 0 and 2 in the partnership game), positive when
side 0 wins; side 0 maximises, side 1 minimises. The negamax form assumes two sides playing a
zero-sum game: partnerships, or two players. More sides (three or four playing for themselves)
need a model; the natural one is "the analysed player against everybody else" (a paranoid search:
the analysed player's side maximises its score, every other seat minimises it), which is what a
sign per seat of +1 for that side and -1 for the rest would give. It is not implemented: a variant
with more than two sides raises :class:`NotImplementedError`, and so do more than four players
and a hand that goes on after the first player is out (``Variant.end == "pair"``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import MutableMapping

from ..position import Position
from ..rules.policies import HandFacts
from ..rules.variants import Variant
from ..tiles import Move
from .core import (PY_ENTRY_BYTES, TABLE_MB, SearchLimit, check_table_mb, compiled_core, exact_node_limit, filled,
                   resolve)
from .alphabeta import INF, Proven, bound_decision, fold_child, gc_paused, hand_leader, mtdf, pushed
from .blockdeal import CoreDeal, IntDeal, SolverError, compiled_plays, core_scores
from .scoring import counts_pass_bonuses, describe, hand_bound, standard_scoring
from ..i18n import gettext

__all__ = ["PrincipalLine", "Solver", "SolverError", "core_note", "known_position", "principal_end", "principal_ends",
           "principal_line"]


def core_note(rules, core: str | None = None) -> str | None:
    """What an analysis should tell its reader about the speed of the int solver on ``rules``: the
    compiled core computes the standard scoring and every scoring :func:`~analyzer.search.scoring.describe`
    knows, and asks Python for any other (exact, slower)."""
    if (resolve(core) == "compiled" and counts_pass_bonuses(rules)
            and not compiled_plays(rules.dealing.max_pip, pass_bonus=True)):
        return gettext("The compiled search has no room for pass bonuses in a set this large: the pure-Python "
                       "search counts them (exact, but slower).")
    if resolve(core) == "compiled" and not standard_scoring(rules)[0] and describe(rules) is None:
        if not core_scores(rules):
            return gettext("The compiled search in the browser (WebAssembly) cannot ask Python for the value of a "
                           "finished hand under this scoring: the pure-Python search values it (exact, but slower).")
        return gettext("The compiled search asks Python for the value of every finished hand under this scoring "
                       "(exact, but slower than the scorings it knows).")
    return None


class Solver:
    """Exact values of block-game positions where every hand is known.

    ``values`` gives the value of every alternative of the player to move, ``solve`` the value of
    the position, ``best_line`` the principal variation to the end of the hand (the first best move in the
    order of the legal moves at each choice). Values are points
    for side 0 (``variant.value``), positive when side 0 wins. The position is left exactly as
    it was given.

    ``tt`` is where the per-deal transposition tables live (deal signature -> compiled deal); pass
    the same mapping to several solvers to share their work. A solver keeps the tables of the
    last ``max_deals`` deals it saw, so the decisions of one hand, analysed in turn, reuse the
    work done for the earlier ones.

    ``core``: ``"compiled"`` or ``"python"`` (default :data:`analyzer.search.CORE`); a set larger
    than double-nine is always searched in Python. ``table_mb``: the memory the transposition
    tables of this solver may take (the compiled core shares one table between its deals, which grows
    to that bound as it fills, then replaces entries; the pure-Python deals share the bound too: a full
    dict takes the room of the other deals' dicts, oldest first, and starts again when it holds all).

    ``node_limit`` (default :data:`analyzer.search.NODE_LIMIT` times the variant's ``search_scale``) bounds the work of one call of
    ``solve`` or ``values`` (and of each move of ``best_line``), as in the general search: past
    that many states :class:`~analyzer.search.SearchLimit` is raised. A state is one call of the
    search (forced moves and passes played inside it are not counted again); both cores count
    alike, so they stop at the same call. ``nodes`` is the count of the last call.

    Exposed tiles (Domino Whist §8, ``Position.exposed``) are part of the int state (see
    :mod:`~analyzer.search.blockdeal`): the values obey the duty to play them. Tiles the record exposes
    later in the hand (``Position.reveal``) are not: from each position valued, no tile is exposed later
    than those lying open there (who exposes a tile during play is not part of the game the search plays).
    """

    def __init__(self, variant: Variant, tt: MutableMapping | None = None, *, max_deals: int = 4,
                 table_mb: float = TABLE_MB, core: str | None = None, node_limit: int | None = None) -> None:
        check_table_mb(table_mb)
        self.node_limit = exact_node_limit(variant, node_limit)
        self.nodes = 0
        self.variant = variant
        self.tt = {} if tt is None else tt
        self.max_deals = max_deals
        self.core = resolve(core)
        self.table_mb = table_mb
        self._table = None      # the compiled core's table, made with the first deal it searches
        self._dropped = False   # a pure-Python deal's table was dropped to make room
        self.bound_past_limit = True    # past the node limit, ``values`` spends as much again on bounds

    # -- public API -----------------------------------------------------------------------------
    def solve(self, position: Position) -> int:
        """The exact value of ``position`` for side 0: the score of the hand under best play."""
        position = self._check(position)
        self.nodes = 0
        with gc_paused():
            return self._value(position, -INF, INF)

    def values(self, position: Position) -> list[tuple[Move, int]]:
        """The exact value (for side 0) of every legal move of the player to move, in move order.

        A tile that fits both ends with different numbers gives two moves. A player who must pass
        gets ``[(PASS, value)]``; a finished hand gives ``[]``.
        """
        position = self._check(position)
        self.nodes = 0
        out = []
        with gc_paused():
            moves = position.legal_moves()
            # a play on the line: the moves are searched from the int state of the position, loaded once
            ints = bool(moves) and moves[0].tile is not None and position.ends is not None
            if ints:
                deal = self._deal(position)
                K, e = deal.set_state(position)
                paid, K = self._paid(deal, position, K)
            try:
                batch = _plays(self, deal, (K, e), position, moves, out) if ints else None    # (no bonus paid)
                for i, move in enumerate(moves):
                    after = batch is None and ints
                    value = self._after(deal, K, e, position, move) if after else batch[i] if batch else None
                    if value is not None:
                        value += paid
                    if value is None:
                        position.push(move)
                        try:
                            value = self._value(position, -INF, INF)
                        finally:
                            position.pop()
                    out.append((move, value))
            except SearchLimit as exc:
                exc.partial = out
                if self.bound_past_limit:
                    exc.bounds = bound_decision(self, moves, lambda m, a, b: pushed(
                        position, m, lambda: self._value(position, a, b)),
                        self.variant.seating.teams[position.turn] == 0,
                        Proven(dict(out), most=hand_bound(self.variant, position)))
                raise
        return out

    def best_line(self, position: Position, guess: int | None = None) -> list[Move]:
        """The principal variation: best moves for both sides from ``position`` to the end of the hand, at each
        choice the first in the order of ``legal_moves`` among equal best ones (:func:`principal_line`).
        ``guess``: the hand's side-0 value as far as it is known (an analysis's): where the search for it
        starts (never trusted)."""
        return principal_line(self, position, guess).moves

    def table_size(self) -> tuple[int, int]:
        """``(entries, bytes)`` the transposition tables of this solver hold now (the pure-Python
        bytes estimated at ``PY_ENTRY_BYTES`` an entry)."""
        if self._table is not None:
            return self._table.used, self._table.nbytes
        entries = sum(len(deal.tt) for deal in self.tt.values() if type(deal) is IntDeal)
        return entries, entries * PY_ENTRY_BYTES

    @property
    def table_full(self) -> bool:
        """Whether a table of this solver was full and gave up entries since the solver was made (the
        node limit may then stop a search that a larger ``table_mb`` would finish)."""
        if self._table is not None and filled(self._table.used, self._table.max_entries):
            return True
        return self._dropped or any(d.cleared for d in self.tt.values())

    # -- internals ------------------------------------------------------------------------------
    def _check(self, position: Position) -> Position:
        return known_position(self.variant, position)

    def _value(self, position: Position, alpha: int, beta: int, guess: int | None = None) -> int:
        """The side-0 value of ``position``, fail-soft within (alpha, beta); MTD(f) starts at ``guess`` (side 0;
        None: at 0 for the mover)."""
        outcome = position.outcome()
        if outcome is not None:
            return self._outcome_value(position, outcome.termination, outcome.seat)
        if position.ends is None or not position.playable_mask(position.turn):
            # the lead or a pass: null-window probes over the moves, like the search below
            return mtdf(lambda a, b: self._step(position, a, b), alpha, beta, guess or 0)
        deal = self._deal(position)
        K, e = deal.set_state(position)
        paid, K = self._paid(deal, position, K)
        s = position.turn
        alpha, beta = (b if abs(b) >= INF else b - paid for b in (alpha, beta))     # (an open side stays open)
        if deal.sign[s] > 0:
            return paid + self._mtdf(deal, (K, e, s), alpha, beta, 0 if guess is None else guess - paid)
        return paid - self._mtdf(deal, (K, e, s), -beta, -alpha, 0 if guess is None else paid - guess)

    def _after(self, deal: IntDeal, K: int, e: int, position: Position, move: Move) -> int | None:
        """The side-0 value of playing ``move`` (a tile on the line) in ``position``, whose int state
        (played mask ``K``, ends code ``e``) ``deal`` holds; None when the move ends the hand (its
        value is then the variant's, asked on the position)."""
        tile = move.tile
        bit = tile.bit
        s = position.turn
        hands = deal.hands
        h = hands[s]
        a, b = position.ends
        if move.end == a:
            e2 = deal.ends_code(tile.other(a), b)
        else:
            e2 = deal.ends_code(a, tile.other(b))
        K2 = deal.after(K, h, e) | bit          # (the exposed tiles after it, Domino Whist §8)
        f = deal.fit[e2]
        if h == bit or not (deal.all ^ K2) & f:      # domino, or blocked
            return None
        sd = deal.side[s]
        hands[s] = h ^ bit
        deal.pips[sd] -= tile.pips
        try:
            n = deal.n
            k = next(k for k in range(n) if hands[(s + 1 + k) % n] & f)      # the k passes are forced
            t = (s + 1 + k) % n
            bonus = deal.bonus[s][k][not K & deal.flag] if deal.pass_bonus else 0
            if bonus:
                K2 |= deal.flag
            return deal.sign[s] * bonus + deal.sign[t] * self._mtdf(deal, (K2, e2, t), -INF, INF)
        finally:
            hands[s] = h
            deal.pips[sd] += tile.pips

    def _mtdf(self, deal: IntDeal, state: tuple[int, int, int], alpha: int, beta: int, guess: int = 0) -> int:
        """The value of an int ``state`` ``(K, e, s)`` for the side of ``s`` (:meth:`IntDeal.mtdf`) within what is
        left of the node limit."""
        value, used = deal.mtdf(state, alpha, beta, guess, self.node_limit - self.nodes)
        self.nodes += used
        if value is None:
            raise SearchLimit(f"more than {self.node_limit:,} positions")
        return value

    def _step(self, position: Position, alpha: int, beta: int) -> int:
        """The lead, or a forced pass: search the moves on the position itself."""
        maximise = self.variant.seating.teams[position.turn] == 0
        best = -INF if maximise else INF
        for move in position.legal_moves():
            position.push(move)
            try:
                x = self._value(position, alpha, beta)
            finally:
                position.pop()
            _, best, alpha, beta = fold_child(maximise, x, best, alpha, beta)
            if alpha >= beta:
                break
        return best

    def _outcome_value(self, position: Position, termination: str, seat: int) -> int:
        n = position.n
        last = next((h for h in reversed(position.history) if h[0].tile is not None), None)
        facts = HandFacts(termination, seat, tuple(position.pips(s) for s in range(n)),
                          tuple(position.count(s) for s in range(n)), hand_leader(position),
                          hands=tuple(position.hands), last_tile=last[0].tile if last else None,
                          ends_before=last[2] if last else None, history=_history(position))
        return self.variant.value(facts)

    def _paid(self, deal: IntDeal, position: Position, K: int) -> tuple[int, int]:
        """``(bonuses, K)``: the pass bonuses ``position`` has paid so far (side 0's less side 1's; its
        last play's run of passes is over, as the player to move can play) and the played mask ``K``
        with the deal's flag when one was paid (the search then pays 10, not 20, for the next)."""
        if not deal.pass_bonus:
            return 0, K
        n = position.n
        facts = HandFacts("", 0, (0,) * n, (0,) * n, 0, history=_history(position))
        paid = self.variant.scoring.as_played(facts, self.variant.seating)
        flagged = any(name != "salida" for *_, name in paid)      # (the flag: a pass bonus was paid before)
        return sum(v if side == 0 else -v for side, v, _ in paid), K | deal.flag if flagged else K

    def _deal(self, position: Position) -> IntDeal:
        """The compiled deal of ``position``: from the store, or compiled now."""
        if any(position.hidden):
            raise SolverError("the solver needs every hand known")
        dealt = list(position.hands)
        for move, seat, *_ in position.history:
            if move.tile is not None:
                dealt[seat] |= move.tile.bit
        leader = hand_leader(position)
        compiled = (self.core == "compiled" and compiled_plays(position.max_pip, counts_pass_bonuses(self.variant),
                                                                bool(position.exposed), position.n)
                    and core_scores(self.variant))
        sig = (id(self.variant), position.max_pip, tuple(dealt), leader, compiled)
        deal = self.tt.get(sig)
        if deal is None or deal.variant is not self.variant:
            nbytes = int(self.table_mb * (1 << 20))
            if compiled:
                if self._table is None:
                    self._table = compiled_core().Table(nbytes // compiled_core().ENTRY_BYTES)
                deal = CoreDeal(self.variant, tuple(dealt), leader, position.max_pip, self._table,
                                     nbytes // PY_ENTRY_BYTES // self.max_deals)
            else:
                deal = IntDeal(self.variant, tuple(dealt), leader, position.max_pip,
                             nbytes // PY_ENTRY_BYTES // self.max_deals)
                deal.make_room = self._make_room
            self.tt[sig] = deal
            while len(self.tt) > self.max_deals:
                del self.tt[next(iter(self.tt))]
            if not compiled:
                for other in self._python_deals(deal):     # they grow again only through ``_make_room``
                    other.room[0] = len(other.tt)
                self._make_room(deal)
        return deal

    def _python_deals(self, but: IntDeal) -> list[IntDeal]:
        return [d for d in self.tt.values() if type(d) is IntDeal and d is not but]

    def _make_room(self, deal: IntDeal) -> None:
        """The pure-Python deals share ``table_mb`` (estimated at ``PY_ENTRY_BYTES`` an entry), as the
        compiled ones share one table: ``deal`` may take what the others do not hold, and when its
        table is full the others are dropped, oldest first, to give it theirs."""
        budget = max(1, int(self.table_mb * (1 << 20)) // PY_ENTRY_BYTES)
        others = self._python_deals(deal)
        held = sum(len(d.tt) for d in others)
        for other in others:
            if len(deal.tt) < budget - held:
                break
            held -= len(other.tt)
            del self.tt[next(sig for sig, d in self.tt.items() if d is other)]
            self._dropped = True
        deal.room[0] = max(1, budget - held)


def known_position(variant: Variant, position: Position) -> Position:
    """``position`` if the int solver can search it under ``variant`` (else an error), or a copy of it
    that exposes no tile later (see :class:`Solver`)."""
    if any(position.hidden):
        raise SolverError("the solver needs every hand known")
    if position.n != variant.players:
        raise SolverError(f"the variant seats {variant.players} players, the position has {position.n}")
    if variant.seating.sides != 2:
        raise NotImplementedError("the solver handles exactly two sides (see the module docstring)")
    if position.reveal:
        position = position.copy()
        position.reveal = ()
    return position


def _first_best(solver: Solver, position: Position, moves: list[Move], value: int) -> Move:
    """For ``Solver.best_line``: the first of ``moves`` whose side-0 value reaches ``value`` (the position's), by a
    null-window probe each (at least ``value`` where side 0 moves, at most where side 1 does), stopping at the
    first that passes."""
    maximise = solver.variant.seating.teams[position.turn] == 0
    for move in moves:
        position.push(move)
        try:
            if maximise:
                if solver._value(position, value - 1, value) >= value:
                    return move
            elif solver._value(position, value, value + 1) <= value:
                return move
        finally:
            position.pop()
    raise AssertionError("no move keeps the solved value")  # pragma: no cover - some move always does


@dataclass(frozen=True)
class PrincipalLine:
    """A principal variation (:func:`principal_line`) with what the facts of the hand it finishes need besides
    the position: each move's player, and the ends as they lay before its last tile where the compiled core
    laid that tile (None: not known here, the line played in Python or empty)."""

    moves: list[Move]
    seats: tuple[int, ...]
    ends_before: tuple[int, int] | None


def principal_line(solver: Solver, position: Position, guess: int | None = None) -> PrincipalLine:
    """The principal variation of ``solver`` from ``position`` (``Solver.best_line``): best moves for both sides to
    the end of the hand, at each choice the first in the order of ``legal_moves`` among equal best ones.

    The value of the hand is the same at every position of that line, so it is searched once: at each
    choice the moves are probed in order with a null window around it and the first that reaches it is
    the line's (the compiled core plays the line from the lead on in one call, :meth:`CoreDeal.line`).
    The node limit bounds each choice's probes (and the first value). ``guess``: the hand's side-0 value as
    far as it is known (an analysis's): where the search for it starts (never trusted)."""
    position = solver._check(position)
    line: list[Move] = []
    seats: list[int] = []
    ends = None
    made = 0            # the moves pushed on ``position`` (the compiled core gives the rest unpushed)
    value = None        # the side-0 value of the hand from ``position`` (and so all along the line)
    with gc_paused():
        try:
            while True:
                moves = position.legal_moves()
                if not moves:
                    break
                solver.nodes = 0
                rest = _core_line(solver, position, value, guess)
                if rest is not None:
                    line.extend(rest[0])
                    seats.extend(rest[1])
                    ends = rest[2] if rest[0] else None
                    break
                choice = moves[0]
                if len(moves) > 1:
                    if value is None:
                        value = solver._value(position, -INF, INF, guess)
                    choice = _first_best(solver, position, moves, value)
                seats.append(position.turn)
                position.push(choice)
                made += 1
                line.append(choice)
        finally:
            for _ in range(made):
                position.pop()
    return PrincipalLine(line, tuple(seats), ends)


def _core_line(solver: Solver, position: Position, value: int | None,
               guess: int | None) -> tuple[list[Move], list[int], tuple[int, int]] | None:
    """For :func:`principal_line`: the rest of the principal variation from ``position`` (the lead played, the
    mover able to play; ``value``: the hand's side-0 value when known, else ``guess`` where its search starts)
    in one call into the compiled core: its moves, their players and the ends before its last tile; None where
    that does not serve (the pure-Python search, the lead, a pass)."""
    state = _core_state(solver, position)
    if state is None:
        return None
    deal, K, paid, first = state
    steps, used, over, ends, seats = deal.line(K, position, first, None if value is None else value - paid,
                                               solver.node_limit, 0 if guess is None else guess - paid)
    solver.nodes += used
    if over:
        raise SearchLimit(f"more than {solver.node_limit:,} positions")
    return steps, seats, ends


def _core_state(solver: Solver, position: Position) -> tuple[CoreDeal, int, int, int] | None:
    """``(deal, K, paid, first)``: the compiled deal of ``position`` loaded with its state, its played mask ``K`` (the
    pass bonus's flag with it), the bonuses paid so far (``Solver._paid``) and ``BlockDeal.line``'s ``first`` (bit
    ``s``: seat ``s`` lays a tile on the first of two ends showing one number); None where the compiled core does
    not play the line from ``position`` (the pure-Python search, the lead, a mover who cannot play)."""
    if solver.core != "compiled" or position.ends is None or not position.playable_mask(position.turn):
        return None
    deal = solver._deal(position)
    if type(deal) is not CoreDeal:
        return None
    K, _ = deal.set_state(position)
    paid, K = solver._paid(deal, position, K)
    return deal, K, paid, sum(1 << s for s in range(position.n) if position.equal_end(s) == 1)


def principal_ends(solver: Solver, position: Position, values: list[int | None]) -> list | None:
    """:func:`principal_end` after each move of ``position`` (``values``: each one's side-0 value of the hand, in the
    order of ``legal_moves``; None: not read) in one call into the compiled core: a list of the ends (None where
    not read). None where the core does not serve (as :func:`principal_end`; a pass bonus to count) or offers
    other moves."""
    state = _core_state(solver, position)
    if state is None or state[0].pass_bonus:
        return None
    deal, K, _, first = state
    try:
        return deal.ends(K, position, first, values, solver.node_limit)
    except ValueError:          # (the core offers other moves than ``values`` counts)
        return None


def principal_end(solver: Solver, position: Position, value: int) -> tuple | None:
    """Where the principal variation from ``position`` ends (:func:`principal_line`), found in one call into the
    compiled core with ``value`` (the hand's side-0 value from ``position``, an analysis's) taken as exact, without
    making its moves: ``(hands, seat, tile index, ends)``, each seat's tiles then, the player and index of the last
    tile laid, the ends as they lay before it. None where the core does not serve (as :func:`principal_line`: the
    pure-Python search, the lead, a pass to come), past the node limit, or where no move reaches ``value`` at a
    choice. A wrong ``value`` may give a line that does not keep it: the caller checks what it reads."""
    state = _core_state(solver, position)
    if state is None:
        return None
    deal, K, paid, first = state
    try:
        steps, _, over, ends = deal.steps(K, position, first, value - paid, solver.node_limit)
    except RuntimeError:        # (no move reaches ``value``: not the position's)
        return None
    if over:
        return None
    hands, seat, tile = list(position.hands), None, None
    for s, t, _ in steps:
        if t >= 0:
            hands[s] &= ~(1 << t)
            seat, tile = s, t
    return (tuple(hands), seat, tile, ends) if tile is not None else None


def _plays(solver: Solver, deal: IntDeal, loaded: tuple[int, int], position: Position, moves: list[Move],
           out: list) -> list[int | None] | None:
    """The side-0 value of each of ``moves`` (plays on the line) as ``Solver._after`` gives them (None: the
    move ends the hand), from the int state ``loaded`` of ``position`` (its played mask and ends' code), in one
    call into the compiled core (:meth:`CoreDeal.plays`); None where that does not serve. Past the node limit the
    moves valued go to ``out`` and :class:`SearchLimit` is raised."""
    budget = solver.node_limit - solver.nodes
    K, e = loaded
    if type(deal) is not CoreDeal or (got := deal.plays(K, e, position, moves, budget)) is None:
        return None
    values, used, over = got
    solver.nodes += used
    if over:
        out.extend((m, v if v is not None else pushed(position, m, lambda: solver._value(position, -INF, INF)))
                   for m, v in zip(moves, values))
        raise SearchLimit(f"more than {solver.node_limit:,} positions")
    return values


def _history(position: Position) -> tuple:
    """Each move of ``position`` so far as ``HandFacts.history`` has it: its seat and tile (None: a pass)."""
    return tuple((seat, move.tile) for move, seat, *_ in position.history)
