"""Each alternative's hand result by its principal variation: what the match scale reads where an open-hands
value does not say every side's points.

An open-hands value is one number: side 0's points less side 1's. A match of points to a target needs only
that much when the hand's winner alone scores (the block and draw games: ``match_scale.value_result``), but
not where both sides score in one hand: Domino Whist's bad points (each side writes its own pips) and the
points scored during play (All Fives). There the match scale plays each alternative out along its principal
variation, the best moves for both sides with all hands open (among equal best moves the first in move
order, as the hand-result models of ``analyzer.equity`` play their simulated hands), and reads the finished
hand as the replayer reads a recorded one (``hand_facts``, ``Variant.hand_result``): the exact result of
that line, every side's points apart. Points scored during play before the decision are the record's (each
seat's running count, as the replay kept it); those of the line are all claimed (no Muggins), as in the
models. Two lines of the same value may split the points differently: the principal one is the declared
choice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..replay import Replay
from ..rules import HandResult, Variant
from ..tiles import Move, tile_set
from ..position import mask_pips
from ..rules.facts import HandFacts, hand_facts
from ..rules.modes import MatchKind, Turns
from ..search.block import PrincipalLine, Solver, principal_end, principal_ends, principal_line
from ..search import TreeSearch
from ..search.core import SearchBudget, SearchLimit
from ..search.draw import DrawLine, ends_at, line_at
from . import AgainstTheRest, alternative_text, hand_value, int_solver_plays, searcher_for, start_position

__all__ = ["PrincipalResults", "LastTile", "Closing", "drawn_facts", "end_facts", "finished_result", "hand_leader", "line_facts", "move_codes",
           "needs_results", "played_out", "policy_result", "principal_results", "HandRead", "node_at"]


class HandRead(NamedTuple):
    """The hand a result is read of: its ``variant``, the seat that led it (``leader``: a blocked hand's facts
    name him), and each seat's points scored during play up to the position read from (``before``; None: none)."""

    variant: Variant
    leader: int
    before: tuple | list | None = None


class LastTile(NamedTuple):
    """The tile that ended a hand: who laid it (``seat``), the tile, and the ends it was laid on (``ends_before``;
    None: not known, a line that did not keep them)."""

    seat: int
    tile: object
    ends_before: tuple[int, int] | None


class Closing(NamedTuple):
    """How a finished hand's facts are read besides its tiles: the seat that led it (``leader``: a blocked hand's
    facts name him), what each seat scored during play (``play_points``; None: the game scores nothing then), and
    whether players play on while they can, the hand going on past a player out (``runs``: Hungarian,
    ``RunPosition.outcome``: won by the lowest seat whose hand is empty, if any)."""

    leader: int
    play_points: tuple[int, ...] | None = None
    runs: bool = False


class _Offered(NamedTuple):
    """A ``decision`` read against the moves its position offers (``legal``, in the order of ``legal_moves``): the
    value of each as the decision's alternatives give it (``values``; None: none does) and each move's place by
    its text (``index``)."""

    decision: object
    legal: list
    values: list
    index: dict


def needs_results(variant: Variant) -> bool:
    """Whether a hand of ``variant`` may give points to more than one side (bad points, points scored during
    play), so that the match scale needs each alternative's result, not its value."""
    return variant.match.kind == MatchKind.BAD or variant.play is not None


@dataclass(frozen=True)
class PrincipalResults:
    """The hand's result along principal variations of one analysed hand: ``alternatives[i][j]`` after
    alternative ``j`` of decision ``i`` (in a game of individual players, in its mover's view: he plays against
    all the others, as the decision is valued), ``line[k]`` from the position after the first ``k`` steps of the
    line played (the running value's result: in a game of individual players, in the first player's view, as
    the running values are; None where it is not known: past the node limit, a move the position no longer
    offers; ``line[0]`` alone where the line played was not asked for: :func:`principal_results`' ``played``)."""

    alternatives: list[list[HandResult | None]]
    line: list[HandResult | None]


def principal_results(rep: Replay, analysis, budget: SearchBudget = SearchBudget(),
                      searches: dict[int, object] | None = None, played: bool = True) -> PrincipalResults:
    """The results of the principal variations of ``analysis`` (an open-hands analysis of ``rep``), each search
    made here within ``budget`` (its node limit: the analysis's, None where every value is exact).

    ``played``: also the result from each position of the line played (``line[k]``, the MWC line a report draws
    beside the values); False: from the deal alone (``line[0]``, what the deal's luck reads), ``line`` of length 1.

    ``searches``: the searches that made ``analysis`` where the caller kept them (``analyze_replay``'s
    ``solver``: ``{0: solver}``; a game of individual players, each seat's view), whose tables hold the values
    of its positions: each line's first value is then found at once (else a search of the view is made here).

    Where a compiled core plays the line (a draw game's compact state, a dealt game's core) and no pass bonus
    reads the moves, each line is taken at the analysis's value and its result read off where it ends, without
    making its moves (``_Ends``: every alternative of a decision in one call); else it is played out
    (:func:`played_out`: the line's value searched, or taken so where its result is worth it). Without a node
    limit (every value exact) the line played's result is also had without a line of its own where it is one
    already read: at a decision of the first view, the first best alternative's (the move the principal variation
    plays there); across a forced move, the next step's (the principal variation goes on by that move), unless
    the record does not claim all that move scores during play."""
    variant = rep.variant
    node_limit, table_mb = budget.node_limit, budget.table_mb
    pos, _ = start_position(rep, rep.legal_prefix)
    steps = min(analysis.analysed_steps, len(rep.steps))
    if pos is None:
        return PrincipalResults([[None] * len(d.alternatives) for d in analysis.decisions], [None] * (steps + 1))
    leader = hand_leader(rep)
    fast = int_solver_plays(variant)
    searches = dict(searches or {})
    seen: dict[int, dict] = {}          # per view: the results of the positions principal variations went through

    def view(seat: int):
        """The search of ``seat``'s view (two sides: the one search), made here where the caller kept none."""
        if seat not in searches:
            rules = variant if variant.seating.sides == 2 else AgainstTheRest(variant, seat)
            searches[seat] = searcher_for(rules, fast, node_limit, table_mb)
        return searches[seat]

    decisions = {d.index: d for d in analysis.decisions}
    exact = node_limit is None          # (every value exact: a line from a position is the one after its first move)
    ends = _Ends(variant, leader, pos) if exact and _Ends.takes(variant, pos) else None
    alternatives, line, later = {}, [None] * (steps + 1), set()
    for k in range(steps + 1):
        wanted = played or k == 0       # (the line played's result from here)
        if k < len(rep.steps) and rep.steps[k].seat is not None and pos.outcome() is None:
            pos.turn = rep.steps[k].seat
        before = rep.steps[k - 1].scores if k and rep.steps[k - 1].scores else None
        value = analysis.values[k] if k < len(analysis.values) else None
        d = decisions.get(k)
        over = pos.outcome() is not None
        legal = pos.legal_moves() if d is not None or (played and exact and not over) else []
        if d is not None:
            mover = 0 if variant.seating.sides == 2 else pos.turn
            offered = _offered(legal, d)
            values, index = offered.values, offered.index
            alternatives[k] = found = _alternatives(HandRead(variant, leader, before), view(mover), pos, offered, ends,
                                                    seen.setdefault(mover, {}))
            if wanted and exact and mover == 0 and values and None not in values:
                line[k] = found[_first_best(view(0), pos, values, d, index)]   # (the principal variation's first move)
        if wanted and line[k] is None:
            if played and exact and k < steps and rep.steps[k].move is not None and not over and len(legal) == 1 \
                    and _claimed(variant, pos, rep.steps[k], before):
                later.add(k)        # a forced move: the principal variation goes on as the line played
            elif ends is None or over or (read := ends.line(view(0), pos, value, before)) is None:
                line[k] = played_out(HandRead(variant, leader, before), view(0), pos, None,
                                     node_at(seen.setdefault(0, {}), pos), value)
            else:
                line[k] = read
        if k < steps and rep.steps[k].move is not None:
            pos.turn = rep.steps[k].seat
            pos.push(rep.steps[k].move)
    for k in sorted(later, reverse=True):
        line[k] = line[k + 1]
    return PrincipalResults([alternatives.get(d.index, [None] * len(d.alternatives)) for d in analysis.decisions],
                            line if played else line[:1])


def _offered(legal: list[Move], decision) -> _Offered:
    """``decision`` read against the moves offered (``legal``, in the order of ``legal_moves``): the value of each
    as ``decision``'s alternatives give it (None: none does), and each move's place by its text."""
    index = {alternative_text(m): i for i, m in enumerate(legal)}
    values: list[int | None] = [None] * len(legal)
    for a in decision.alternatives:
        if a.move in index:
            values[index[a.move]] = a.value
    return _Offered(decision, legal, values, index)


def _alternatives(hand: HandRead, search, pos, offered: _Offered, ends: _Ends | None, seen: dict) -> list:
    """For :func:`principal_results`: the result after each alternative of the ``offered`` decision at ``pos``
    (``search``: its mover's view; ``seen``: that view's results, :func:`played_out`), read off each line's end where
    ``ends`` reads them (every alternative in one call; at the lead each from the position the move leaves), else
    played out (:func:`played_out`)."""
    decision, legal, values, index = offered
    before = hand.before
    found = ends.alternatives(search, pos, values, decision, index, before) if ends is not None else None
    moves = None if found is not None else {text: legal[i] for text, i in index.items()}
    if found is None and ends is not None:
        found = [ends.after(search, pos, moves[a.move], a.value, before) if a.move in moves else None
                 for a in decision.alternatives]
    if found is not None and None not in found:
        return found
    node = node_at(seen, pos)
    moves = moves or {text: legal[i] for text, i in index.items()}
    return [played_out(hand, search, pos, moves.get(a.move, False), node, a.value)
            if found is None or found[j] is None else found[j] for j, a in enumerate(decision.alternatives)]


def _first_best(search, pos, values: list[int], decision, index: dict[str, int]) -> int:
    """The index among ``decision``'s alternatives of the move the principal variation from ``pos`` plays: the first
    in the order of ``legal_moves`` (``values``: each one's value; ``index``: each one's place by its text) whose
    value is the best for the mover in ``search``'s view, as ``TreeSearch.best_line`` plays it."""
    teams = (getattr(search, "rules", None) or search.variant).seating.teams
    at = values.index(max(values) if teams[pos.turn] == 0 else min(values))
    return next(j for j, a in enumerate(decision.alternatives) if index.get(a.move) == at)


def _claimed(variant: Variant, pos, step, before) -> bool:
    """Whether the record counts what ``step``'s move (``pos``'s only one) scores during play as a principal
    variation counts it (all claimed): else the line from ``pos`` differs from the one after it by the points."""
    play = variant.play
    if play is None:
        return True
    pos.push(step.move)
    try:
        gained = play.points(play.ends_total(pos.line_ends(), pos.ends)) if step.move.is_play else 0
    finally:
        pos.pop()
    was = before or (0,) * variant.players
    return all(now - then == (gained if s == step.seat else 0)
               for s, (now, then) in enumerate(zip(step.scores or was, was)))


class _Ends:
    """For :func:`principal_results`: the results of principal variations read off where each line ends, found in one
    compiled call without making its moves: in a draw game's compact state (a draw game, All Fives, Hungarian:
    ``search.draw.ends_at``, for the line from a position or for every alternative of a decision at once), or in a
    dealt game's compiled core (``search.block.principal_end``, ``principal_ends``); each distinct end read once
    (:func:`end_facts`, ``Variant.hand_result``). Each line is taken at the analysis's value, and its result kept
    only where it is worth that value in the search's view (:func:`hand_value`), as :func:`_trusted` keeps a line;
    else the caller plays the line out (:func:`played_out`)."""

    def __init__(self, variant: Variant, leader: int, pos):
        self.variant, self.leader, self.n = variant, leader, variant.players
        self.tiles = tile_set(pos.max_pip)
        self.runs = variant.turns == Turns.RUN
        self.memo: dict = {}

    @staticmethod
    def takes(variant: Variant, pos) -> bool:
        """Whether the results of ``variant`` may be read off a line's end: every hand known (an open-hands
        analysis), and no pass bonus (the only score that reads the moves that led there, not the end)."""
        return not any(pos.hidden) and not getattr(variant.scoring, "pass_bonus", False)

    def line(self, search, pos, value: int | None, before) -> HandResult | None:
        """The result of the principal variation from ``pos`` at ``value`` (the analysis's, ``search``'s side 0),
        ``before`` each seat's points scored during play up to it (None: none); None where not read so."""
        if value is None or pos.outcome() is not None:
            return None
        if isinstance(search, TreeSearch):
            end = ends_at(search, pos, value - self._so_far(search, before))
            return self._kept(search, end, before, value) if end else None
        if self._dealt_core(search, pos):
            end = principal_end(search, pos, value)
            return None if end is None else self._kept(search, end, None, value)
        return None

    def after(self, search, pos, move: Move, value: int | None, before) -> HandResult | None:
        """The result of the principal variation after ``move`` at ``pos`` (``value``: the analysis's of the move),
        as :meth:`line` reads it from the position the move leaves (``pos`` is left as it was)."""
        seat, play = pos.turn, self.variant.play
        pos.push(move)
        try:
            if play is not None and move.is_play:
                points = list(before or (0,) * self.n)
                points[seat] += play.points(play.ends_total(pos.line_ends(), pos.ends))
                before = tuple(points)
            return self.line(search, pos, value, before)
        finally:
            pos.pop()

    def alternatives(self, search, pos, values: list[int | None], decision, index: dict[str, int],
                     before) -> list | None:
        """The result of the principal variation after each alternative of ``decision`` at ``pos`` (``values``: the
        value of each move ``pos`` offers, in the order of ``legal_moves``, the order the cores play them in;
        ``index``: each move's place there by its text), each None where not read so; None where no compiled core
        reads them (a draw game's compact state, a dealt game's core)."""
        dealt = self._dealt_core(search, pos)
        if not (dealt or isinstance(search, TreeSearch)):
            return None
        if dealt:
            got = principal_ends(search, pos, values)
            before = None
        else:
            so_far = self._so_far(search, before)
            try:
                got = ends_at(search, pos, 0, [None if v is None else v - so_far for v in values])
            except ValueError:      # (the core offers other moves: not its state)
                return None
        if got is None or got is False:
            return None
        return [None if (i := index.get(a.move)) is None or got[i] is None
                else self._kept(search, got[i], before, a.value) for a in decision.alternatives]

    def _dealt_core(self, search, pos) -> bool:
        """Whether ``search`` is a dealt game's solver (its compiled core may play the line; no points during play,
        no opener's offer)."""
        return type(search) is Solver and self.variant.play is None and getattr(pos, "offer", None) is None

    @staticmethod
    def _so_far(search, before) -> int:
        """The points scored during play so far, in ``search``'s side 0 (the analysis's values count them)."""
        if not before:
            return 0
        teams = search.rules.seating.teams
        return sum(p if teams[s] == 0 else -p for s, p in enumerate(before))

    def _kept(self, search, end: tuple, before, value: int) -> HandResult | None:
        """The result of the hand at ``end`` (``DrawSearch.ends``'s, or ``principal_end``'s), where it is worth
        ``value`` for ``search``'s side 0 (else None: the line does not keep the value)."""
        key = (end, tuple(before) if before else None)
        got = self.memo.get(key)
        if got is None:
            facts = self._dealt(end) if isinstance(end[0], tuple) else self._drawn(end, before)
            got = self.memo[key] = (self.variant.hand_result(facts), {})
        result, worth = got
        seat = getattr(getattr(search, "rules", None) or search.variant, "seat", 0)
        if seat not in worth:           # (what it is worth in each view, found once)
            worth[seat] = hand_value(self.variant, result, seat)
        return result if worth[seat] == value else None

    def _drawn(self, end: tuple, before) -> HandFacts:
        """The facts of the hand at a draw game's ``end``, as :func:`drawn_facts` reads them off the line's steps."""
        n = self.n
        hands, (seat, bit, bl, br), points = end[:n], end[n:n + 4], end[n + 4:]
        play = None
        if self.variant.play is not None:
            play = tuple(p + (before[s] if before else 0) for s, p in enumerate(points))
        return end_facts(hands, LastTile(seat, self.tiles[bit], None if bl < 0 else (bl, br)),
                         Closing(self.leader, play, self.runs))

    def _dealt(self, end: tuple) -> HandFacts:
        """The facts of the hand at a dealt game's ``end``, as :func:`line_facts` reads them off the line."""
        hands, seat, bit, ends = end
        return end_facts(hands, LastTile(seat, self.tiles[bit], ends), Closing(self.leader))


def policy_result(rep: Replay, budget: SearchBudget = SearchBudget(),
                  searches: dict[int, object] | None = None) -> HandResult | None:
    """In a game of individual players, the result of the hand when its deal is played out from the lead by
    the policy of the variant's hand-result model (``equity.model.POLICY_EACH``: each mover his best move
    against all the others, the first best in move order), what each player's deal luck is measured by (the
    model's mean is over hands played so). ``searches``: the analysis's searches by seat, where the caller
    kept them (their tables hold its positions; else made here). None where the deal cannot be played out
    exactly (a hand not known, a choice past the node limit)."""
    from ..equity.boneyard import play_out      # (the hand models: loaded where a deal's luck is asked for)

    variant = rep.variant
    pos, _ = start_position(rep, rep.legal_prefix)
    if pos is None:
        return None
    if rep.steps and rep.steps[0].seat is not None:
        pos.turn = rep.steps[0].seat
    fast = int_solver_plays(variant)
    searches = dict(searches or {})
    each = [searches.get(seat) or searcher_for(AgainstTheRest(variant, seat), fast, budget.node_limit, budget.table_mb)
            for seat in range(variant.players)]
    try:        # (``pos`` is the analysis's own copy of the deal: played to its end here, not undone)
        _, _, facts, limited = play_out(variant, pos, each, hand_leader(rep))
    except (SearchLimit, NotImplementedError):
        return None
    return None if limited else variant.hand_result(facts)


def hand_leader(rep: Replay) -> int:
    """The seat that led the hand of ``rep`` (laid its first tile), as ``hand_facts`` reads a finished hand."""
    return next((s.seat for s in rep.steps if s.move is not None and s.move.tile is not None), rep.initial.turn)


def node_at(seen: dict, pos) -> dict:
    """The node of ``pos`` in ``seen``, a tree of results by the moves that led to each position
    (:func:`played_out`), made on the way where it is not there yet."""
    node = seen
    for code in move_codes(pos):
        node = node.get(code) or node.setdefault(code, {})
    return node


def played_out(hand: HandRead, search, pos, move, at: dict, value: int | None = None) -> HandResult | None:
    """The result of the ``hand`` once ``move`` is played at ``pos`` (None: from ``pos`` itself; False: a move it
    does not offer) and the principal variation after it (``pos`` is left as it was); ``hand.before``: each seat's
    points scored during play up to ``pos`` (None: none). ``at``: ``pos``'s node (:func:`node_at`) in the tree of
    the results from each position a principal variation of the same search went through (the one from a position
    on it is the rest of it, each move the first best: so the line played, its best alternatives and the move
    played share their work), a tree of the moves that led there (:func:`move_codes`: a transposition key would
    merge what the result may tell apart, which of two equal ends a double lies at, who laid the last tile), each
    node's results by the points so far and whether the opener may still add a tile to his lead (a draw game's
    ``offer``); an empty dict to start. ``value``: the analysis's value there (``search``'s side 0, the points
    scored during play so far counted): in a draw game's compact state the line is taken in one compiled call at
    that value, kept where its result is worth it (:func:`_trusted`); else where the search of the line's value
    starts."""
    if move is False:
        return None
    variant, leader, before = hand
    play = variant.play
    points = list(before) if before else [0] * variant.players
    history = pos.history
    node = at
    pushed = 0

    def push(m) -> None:
        nonlocal pushed, node
        seat, made = pos.turn, len(history)
        pos.push(m)
        pushed += 1
        if len(history) > made:         # (the opener's choice to add no tile to his lead is no move of it)
            tile = m.tile
            code = (seat, 0 if tile is None else tile.bit, m.end, m.draw, m.arm, m.open)
            node = node.get(code) or node.setdefault(code, {})
        if play is not None and m.is_play:
            points[seat] += play.points(play.ends_total(pos.line_ends(), pos.ends))

    offer = getattr(pos, "offer", None)

    def here() -> tuple:
        """Where ``pos`` is: its node of ``seen``, and the key of its result there."""
        return node, (None, tuple(points), -1 if offer is None else pos.offer)

    try:
        if move is not None:
            push(move)
        path = []
        if pos.outcome() is None:
            at, key = here()
            if key in at:
                return at[key]
            path.append((at, key))
            teams = (getattr(search, "rules", None) or search.variant).seating.teams
            guess = None if value is None else value - sum(p if teams[s] == 0 else -p for s, p in enumerate(points))
            dealt = type(search) is Solver and play is None and offer is None and not any(pos.hidden)
            if guess is not None and not dealt and isinstance(search, TreeSearch) and \
                    (result := _trusted(HandRead(variant, leader, points), search, pos, guess, value)) is not None:
                at[key] = result
                return result
            line, read = _principal(variant, search, pos, guess, dealt)
            for m in (line if read is not None else line[:-1]):       # (no position before a line's last move ends it)
                push(m)
                path.append(here())
            if read is not None:        # (the rest read off the line, not played)
                now = HandRead(variant, leader, points)
                result = variant.hand_result(drawn_facts(now, pos, tuple(pos.hands), None, read)) \
                    if isinstance(read, DrawLine) else _read_line(now, pos, read, node, key, path)
                for at, k in path:
                    at[k] = result
                return result
            if line:
                push(line[-1])
        result = finished_result(variant, pos, leader, points)
        if result is not None:
            for at, key in path:
                at[key] = result
        return result
    except SearchLimit:
        return None
    finally:
        for _ in range(pushed):
            pos.pop()


def _trusted(hand: HandRead, search: TreeSearch, pos, guess: int, value: int) -> HandResult | None:
    """For :func:`played_out`: the result of a draw game's principal variation from ``pos`` taken in one compiled call
    with the analysis's value as exact (``guess``: of the points still to come; ``value``: counting from the deal), kept
    only where the result is worth that value in the search's view (:func:`~analyzer.analysis.hand_value`): else None,
    and the line's value is searched (:func:`_principal`), as it is where no compiled state plays ``pos``."""
    line = line_at(search, pos, guess)
    if line is None:
        return None
    variant = hand.variant
    result = variant.hand_result(drawn_facts(hand, pos, tuple(pos.hands), None, line))
    return result if hand_value(variant, result, getattr(search.rules, "seat", 0)) == value else None


def _principal(variant: Variant, search, pos, guess: int | None,
               dealt: bool) -> tuple[list[Move], PrincipalLine | DrawLine | None]:
    """For :func:`played_out`: the principal variation from ``pos`` in two parts, the moves to play and the rest
    where it is read off without playing it (None: nowhere): a dealt game's line the compiled core ended (``dealt``:
    the int solver plays it; its ends before the last tile known), a draw game's (or Hungarian's) rest from its
    compiled compact state."""
    if dealt and (line := principal_line(search, pos, guess)) is not None:
        return ([], line) if line.ends_before is not None else (list(line.moves), None)
    if not isinstance(search, TreeSearch):
        return search.best_line(pos, guess), None
    walked, rest = search.principal(pos, guess)
    return (walked, rest) if isinstance(rest, DrawLine) else (walked + rest, None)


def _read_line(hand: HandRead, pos, line: PrincipalLine, node: dict, key: tuple, path: list) -> HandResult:
    """For :func:`played_out`: the result of the hand once ``line`` (a dealt game's, ended by the compiled core:
    its ends before the last tile known) is played at ``pos``, read off the line (:func:`line_facts`) without
    playing it; the node of ``seen`` (from ``node``, ``pos``'s) of each position before its last move, with
    ``key`` (the same all along: no points during play, no offer), appended to ``path``."""
    for m, seat in zip(line.moves[:-1], line.seats):
        tile = m.tile
        code = (seat, 0 if tile is None else tile.bit, m.end, m.draw, m.arm, m.open)
        node = node.get(code) or node.setdefault(code, {})
        path.append((node, key))
    facts = line_facts(pos, [(seat, m.tile) for m, seat in zip(line.moves, line.seats)], line.ends_before,
                       Closing(hand.leader))
    return hand.variant.hand_result(facts)


def line_facts(pos, played, ends_before: tuple[int, int] | None, closing: Closing,
               hands: tuple[int, ...] | None = None, history: tuple | None = None) -> HandFacts:
    """The facts of the hand once ``played`` (each move's player and tile, None: a pass; the line ending the hand)
    is played at ``pos`` (every tile known), as ``hand_facts`` reads them off the position those moves leave,
    without playing them: the tiles each seat holds then, the last tile and ``ends_before`` (the ends before it),
    every move's seat and tile; the hand won by the last tile's player if it was his last, else blocked (credited
    to him), or as ``closing`` reads it (:class:`Closing`: the leader, the points scored during play, a game of
    runs). ``hands``: the hands to take the tiles from (default ``pos.hands``: a draw game adds those drawn on the
    way), ``history``: each move's seat and tile up to ``pos`` where the caller has them (else read off ``pos``)."""
    hands = list(pos.hands if hands is None else hands)
    if history is None:
        history = tuple((entry[1], entry[0].tile) for entry in pos.history)
    history += tuple(played)
    seat, tile = next(((s, t) for s, t in reversed(history) if t is not None), (history[-1][0], None))
    for s, t in played:
        if t is not None:
            hands[s] &= ~t.bit
    return end_facts(hands, LastTile(seat, tile, ends_before), closing, history, pos.hidden)


def end_facts(hands, last: LastTile, closing: Closing, history: tuple | None = None,
              hidden: tuple[int, ...] | None = None) -> HandFacts:
    """The facts of a hand that ends with ``hands`` (each seat's tiles, bit masks; ``hidden``: how many unknown tiles
    each holds besides), ``last`` the tile laid last, by its seat on the ends before it: won by him if it was his
    last, else blocked (credited to him); in a game of runs (``closing.runs``) won by the lowest seat whose hand is
    empty, if any. ``history`` as ``HandFacts`` takes it; the leader and the points scored during play ``closing``'s."""
    seat, tile, ends_before = last
    leader, play_points, runs = closing
    if runs:
        seat = next((s for s, h in enumerate(hands) if not h), seat)
    counts = tuple(h.bit_count() for h in hands) if hidden is None else \
        tuple(h.bit_count() + more for h, more in zip(hands, hidden))
    return HandFacts("blocked" if hands[seat] else "domino", seat, tuple(mask_pips(h) for h in hands), counts, leader,
                     tuple(hands), tile, ends_before, history, play_points)


def drawn_facts(hand: HandRead, pos, hands: tuple[int, ...], move: Move | None, line: DrawLine) -> HandFacts:
    """The facts of the ``hand`` once ``move`` (the decision's: a tile laid, or the opener's choice to add
    none; None: no move, the line starts at ``pos``) and then ``line`` (the compiled draw search's: a draw game's,
    All Fives', Hungarian's) are played at ``pos`` with ``hands`` (``hand.before``: each seat's points scored during
    play up to ``pos``, None: none), as ``hand_facts`` reads them off the position those moves leave
    (:func:`outcomes.line_facts`, the tiles drawn on the way added to the hands: a draw is none of the position's
    history), without playing them; where the variant scores during play, each seat's points, the line's."""
    variant, leader, before = hand
    hands = list(hands)
    points = list(before) if before else [0] * len(hands)
    played = []
    if move is not None and move.tile is not None:
        played.append((pos.turn, move.tile))
        points[pos.turn] += line.first
    tiles = line.tiles
    for s, t, end, _, scored in line.steps:
        if t == -1:
            played.append((s, None))
        elif t >= 0 and end == -2:
            hands[s] |= tiles[t].bit
        elif t >= 0:
            played.append((s, tiles[t]))
            points[s] += scored
    closing = Closing(leader, None if variant.play is None else tuple(points), variant.turns == Turns.RUN)
    return line_facts(pos, played, line.ends_before, closing, tuple(hands))


def finished_result(variant: Variant, pos, leader: int, points: list[int]) -> HandResult | None:
    """The result of the hand at ``pos`` once it is over (None: it is not), read as the replayer reads a
    recorded hand (``hand_facts``, ``Variant.hand_result``); ``points``: each seat's points scored during play
    (read where the variant scores during play)."""
    end = pos.outcome()
    if end is None:
        return None
    facts = hand_facts(pos, end.termination, end.seat, leader, tuple(points) if variant.play is not None else None)
    return variant.hand_result(facts)


def move_codes(pos) -> tuple:
    """Each move that led to ``pos`` as a tuple of plain values (seat, tile bit, end, draw, arm, open): all the
    move says, hashed far faster than the move."""
    return tuple(_move_code(h[0], h[1]) for h in pos.history)


def _move_code(move, seat: int) -> tuple:
    """A move made by ``seat`` as a tuple of plain values, all the move says (hashed far faster than the move)."""
    tile = move.tile
    return seat, 0 if tile is None else tile.bit, move.end, move.draw, move.arm, move.open
