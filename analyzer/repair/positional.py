"""The repair search on the variant's own position, checked by the legality judge: draw games,
All Fives, layouts with arms, runs."""
from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from ..position import Outcome, Position, tiles_of
from ..record import Game, MoveEntry
from ..replay import hand_facts
from ..replay.tags import false_plays
from ..rules import LeadRequirement, Variant
from ..rules.judge import Judge
from ..tiles import Move, Tile
from .builder import _PositionBuilder
from .edits import COSTS, _entry_text, tile_slip_cost
from .lean import _Deal, _Search


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
    """Whether the lean checker cannot model ``game``: draws, claims or Muggins calls, arms, runs, or
    a false play that stands (Domino Whist §8, the FalsePlay tag)."""
    if (variant.drawing is not None or getattr(variant, "layout", "line") != "line"
            or getattr(variant, "turns", "one") == "run" or variant.play is not None
            or ("FalsePlay" in game.tags and variant.irregularities)):
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
                 lead: LeadRequirement | None = None, worth: int | None = None):
        super().__init__(game, variant, max_edits, max_nodes, lead, worth)
        self.builder = _PositionBuilder(self.setting, game)
        self.play = variant.play
        self.drawing = variant.drawing
        self.runs = getattr(variant, "turns", "one") == "run"
        self.judge = Judge(variant, self.players, explain=False)
        self.unknown_draws = any(m.draw and m.tile is None for m in game.moves)
        # whose draws the record writes all unseen (``draws ?``, True) or all shown (False)
        kinds: dict[str, set] = {}
        for m in game.moves:
            if m.draw:
                kinds.setdefault(m.player, set()).add(m.tile is None)
        self.unseen_draws = {name: k.pop() for name, k in kinds.items() if len(k) == 1 and self.unknown_draws}
        # Domino Whist §8: where a false play the FalsePlay tag names lies (the replayer confirms
        # that the next player moved after it, so that it stands)
        self.false_plays = false_plays(game, self.seat_of, "")[0] if "FalsePlay" in game.tags and variant.irregularities \
            else {}
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
            key = self.confirm_key(seq, deal)
            ok = self.confirmed.get(key)
            if ok is None:
                ok = self.confirmed[key] = self.replayed(self.builder.game_for(seq, deal)).valid
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

    @staticmethod
    def line_key(seq: list) -> tuple:
        return tuple(_content(c.entry) for c in seq)

    def end_ok(self, frontier: list, seq: list, deal: _Deal) -> bool:
        """As :meth:`_Search.end_ok`; the variant's own scoring of the final position rules out most
        lines before the replayer is asked."""
        if self.stated is None:
            return True
        leader = deal.positions[deal.leader(seq)].turn
        if not any(st.over is not None and self.result_agrees(st, leader) for st in frontier):
            return False
        return self.confirm(seq, deal)

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
        seats = [self.seat_of.get(name) for name in stated.side]      # a name that is no player: never
        points = stated.agrees(result.points) or (self.worth is not None and stated.agrees(self.worth))
        return (result.winner is not None and points and None not in seats
                and all(teams[seat] == result.winner for seat in seats))

    # -- stepping: the replayer's rules, entry by entry --------------------------------------------
    def check(self, st: _State, c: _Entry) -> tuple[str | None, list[Move], bool]:
        """The judge's verdict on entry ``c`` in state ``st``, short of scoring a play: the error
        code (None: legal), the moves it may stand for, and whether it is the opener adding to his lead."""
        entry, seat = c.entry, c.seat
        if seat is None:
            return "unknown-player", [], False
        pos = st.pos
        if st.over is not None:             # after the end only passes (and Muggins calls) may follow, and
            written = c.orig is not None and self.game.moves[c.orig].tile is not None    # none an edit wrote
            harmless = entry.is_pass and not written and st.over.termination != "domino"   # (passes show a block)
            return (None if harmless else "play-after-end"), [], False
        judge = self.judge
        adding = False
        if seat != pos.turn:
            problem, adding = judge.turn(pos, seat, entry.is_play)
            if problem is not None:
                return problem.code, [], False
        if entry.draw or entry.tile is None:
            verdict = judge.entry(pos, entry.tile, seat, draw=entry.draw)
            if verdict.problems:
                return verdict.problems[0].code, [], False
            return ("wrong-score" if entry.claim is not None else None), list(verdict.moves), False
        verdict = judge.entry(pos, entry.tile, seat, end=entry.end, arm=entry.arm,
                              stands=self.false_plays.get((entry.player, entry.tile)) if self.false_plays else None)
        errors = [problem for problem in verdict.problems if problem.severity == "error"]
        if errors:
            return errors[0].code, [], adding
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

    def revealed(self, frontier: list, tiles: int, own: bool) -> list:
        out = []
        for st in frontier:
            held = 0
            for hand in st.pos.hands:
                held |= hand
            if tiles & ~held:           # one was played before its row: the replayer's ``bad-exposed``
                continue
            pos = st.pos if own else st.pos.copy()
            pos.expose(tiles)
            out.append(st._replace(pos=pos))
        return out

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
                # the tiles that fit, and a false play the FalsePlay tag says stands (the judge decides)
                probes = [MoveEntry(name, t) for t in tiles_of(own, self.max_pip)
                          if pos.fits(t) or (name, t) in self.false_plays]
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
        if kind in ("swap-moves", "swap-order"):
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
        shown_block = over and all(st.over.termination != "domino" for st in frontier)
        if here is not None and not (shown_block and here.entry.is_pass):
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
            cost = COSTS[f"insert-move/{what}"]
            if e.draw and self.unseen_draws.get(self.players[seat]) == (e.tile is None):
                cost = COSTS["insert-move/draw-as-written"]     # as the record writes this player's draws
            if (groups is not None and f"insert-{what}" not in groups) or clash(e.tile, seat, p, e.draw):
                continue
            if narrow is not None and narrow.tile is not None and (e.tile, seat) != (narrow.tile, narrow.seat):
                continue
            new = self.inserted(seq, p, seat, e, points)
            yield (seq[:p] + [_Entry(seat, new, None)] + seq[p:], deal, p,
                   ("insert-move", cost, here, None, _entry_text(new), new.player), p + 1)

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
            nxt = seq[p + 1] if p + 1 < len(seq) else None
            if (nxt is not None and nxt.seat == turn and nxt.entry.muggins is None and e.muggins is None
                    and (groups is None or "swap" in groups)):
                # the entry of the player on turn written after this one (the two in the wrong order)
                yield (seq[:p] + [nxt, here] + seq[p + 2:], deal, p,
                       ("swap-order", COSTS["swap-order"], here, _entry_text(e), _entry_text(nxt.entry), nxt), p + 1)
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
        elif pos.ends is not None and e.is_play and e.arm is not None and (groups is None or "arm" in groups):
            # on a line >1 and >2 name its ends (Domino Whist §6): the other end, or none written
            fixes.extend(("change-arm", COSTS["change-arm"], replace(e, arm=k)) for k in (1, 2, None) if k != e.arm)
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
        could play when he passes or draws; a tile drawn that the deal gives to someone. Where the
        record does not show every hand, only the first: a tile played that the player's shown hand
        was not dealt, or that a hand not shown plays and the deal gives to a shown one."""
        if not deal.ok:
            yield from _Search.deal_candidates(self, seq, deal, frontiers, L, code, depth)
            return
        if L < 0 or L >= len(seq) or (deal.hidden and code != "tile-not-held"):
            return
        c = seq[L]
        entries = deal.entries
        mine = next((i for i, e in enumerate(entries) if c.seat is not None and e.player == self.players[c.seat]), None)
        tile = c.entry.tile
        holder = next((i for i, e in enumerate(entries) if e.tiles and tile in e.tiles), None)
        if code in ("tile-not-held", "lead-player", "lead-tile", "lead-double") and tile is not None \
                and not c.entry.draw and mine is not None and entries[mine].tiles is not None \
                and not entries[mine].unknown and tile not in entries[mine].tiles:
            # (the lead too: the tile the leader was not dealt may be why another should lead)
            changes = [(mine, k, old, tile) for k, old in enumerate(entries[mine].tiles)]
        elif code in ("lead-player", "lead-tile", "lead-double") and tile is not None and not deal.hidden:
            # the leader led a tile he holds, but the deal gives another a double that must lead
            # (the highest, or the one the rules want): that double was a tile nobody was dealt
            changes = [(h, k, old, new) for h, e in enumerate(entries) if h != mine and e.tiles
                       for k, old in enumerate(e.tiles) if old.is_double for new in deal.missing]
        elif code == "tile-not-held" and tile is not None and holder is not None and holder != mine and deal.hidden:
            # a hand the record does not show plays a tile the deal gives to a hand it shows: that
            # hand's tile was another, one nobody is shown to hold
            shown = {t for e in entries if e.tiles for t in e.tiles}
            changes = [(holder, entries[holder].tiles.index(tile), tile, new) for new in sorted(self.valid_tiles - shown)]
        elif deal.hidden:
            return
        elif code == "run-unfinished":      # the player before could still play: a tile he was not dealt
            seat = frontiers[L][0].pos.turn
            mine = next((i for i, e in enumerate(entries) if e.player == self.players[seat]), None)
            if mine is None or entries[mine].tiles is None:
                return
            playable = set(tiles_of(frontiers[L][0].pos.playable_mask(seat), self.max_pip))
            changes = [(mine, k, old, new) for k, old in enumerate(entries[mine].tiles) if old in playable
                       for new in deal.missing]
        elif code in ("false-pass", "draw-not-allowed", "draw-too-long") and mine is not None:
            playable = set(tiles_of(frontiers[L][0].pos.playable_mask(c.seat), self.max_pip))
            others = [t for i, e in enumerate(entries) if i != mine and e.tiles for t in e.tiles]
            changes = [(mine, k, old, new) for k, old in enumerate(entries[mine].tiles) if old in playable
                       for new in deal.missing + (others if depth > 1 else [])]
        elif code == "draw-not-in-boneyard" and tile is not None:
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
            st.lacks, pos.exposed)


# ---- turning search results into the report ---------------------------------------------------------
