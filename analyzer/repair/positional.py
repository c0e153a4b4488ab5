"""The checker of the repair search's position path: the variant's own position driven entry by
entry with the replayer's rules, for the games the lean checker does not model (draw games, All
Fives' claimed points and Muggins calls, layouts with arms, Hungarian runs).

The position is :func:`analyzer.rules.mechanics.position_for`'s, as the replayer builds it for the
deal, and the judge decides every entry. A cell is an :class:`Entry`: the MoveEntry as the repair
writes it, its seat, and its index in the input (None: inserted). A state is a
:class:`PositionState`; its position is never changed once the state exists (a step copies it before
a push), so the states kept for every entry serve every trial that restarts there."""
from __future__ import annotations

from typing import NamedTuple

from ..position import Outcome, Position, tiles_of
from ..record import Game, MoveEntry
from ..replay.tags import false_plays
from ..rules import Variant
from ..rules.judge import Judge, Written
from ..rules.modes import Layout, Termination, Turns
from ..rules.replayed import out_skipped, skips_out
from ..tiles import PASS, Move, Tile
from ..rules.codes import Code
from .deal import Deal
from .lean import Checker
from .setting import Setting
from ..diagnostics import Severity


class Entry(NamedTuple):
    """A cell of the position path: the entry as the repair writes it, with its seat."""

    seat: int | None              # first, like a lean cell's, for Deal.leader
    entry: MoveEntry
    orig: int | None              # its index in the input (None: inserted)


class PositionState(NamedTuple):
    """The replay of a line up to an entry: the position and what the replayer keeps beside it."""

    pos: Position
    over: Outcome | None
    pending: tuple[int, int] | None                 # (seat, points) a play left unclaimed: open to Muggins
    lacks: tuple[tuple[int, tuple[int, ...]], ...]  # (seat, numbers) each pass proved (while hands are hidden)


def needs_positions(game: Game, variant: Variant) -> bool:
    """Whether the lean checker cannot model ``game``: draws, claims or Muggins calls, arms, runs, or
    a false play that stands (Domino Whist §8, the FalsePlay tag)."""
    if (variant.drawing is not None or variant.layout != Layout.LINE
            or variant.turns == Turns.RUN or variant.play is not None
            or ("FalsePlay" in game.tags and variant.irregularities)):
        return True
    return any(m.draw or m.claim is not None or m.muggins is not None or m.arm is not None for m in game.moves)


class PositionChecker(Checker):
    """The replayer's rules for every kind of entry on copies of the variant's position, and what
    may stand at a place (:meth:`options`: the mover's legal entries, with every tile the boneyard
    may give for a draw)."""

    def __init__(self, setting: Setting):
        self.s = setting
        game, variant = setting.game, setting.variant
        self.players, self.seat_of, self.n = setting.players, setting.seat_of, setting.n
        self.valid_mask, self.max_pip = setting.valid_mask, setting.max_pip
        self.play = variant.play
        self.drawing = variant.drawing
        self.runs = variant.turns == Turns.RUN
        self.skip_out = out_skipped(variant)     # a player who is out may be left out of the record (the replayer's)
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
        return [Entry(self.seat_of.get(m.player), m, i) for i, m in enumerate(game.moves)]

    def initial_state(self, seq: list, deal: Deal) -> tuple[PositionState | None, str | None]:
        leader = deal.leader(seq)
        st, code = deal.lead_state(leader)
        if code == "deal":
            return None, code
        pos = deal.positions[leader]
        if pos.turn != st[2]:          # the rules want another leader: the state has him to move
            pos = pos.copy()
            pos.turn = st[2]
        return PositionState(pos, None, None, ()), code

    # -- stepping: the replayer's rules, entry by entry --------------------------------------------
    def check(self, st: PositionState, c: Entry) -> tuple[str | None, list[Move], bool]:
        """The judge's verdict on entry ``c`` in state ``st``, short of scoring a play: the error
        code (None: legal), the moves it may stand for, and whether it is the opener adding to his lead."""
        entry, seat = c.entry, c.seat
        if seat is None:
            return Code.UNKNOWN_PLAYER, [], False
        pos = st.pos
        if st.over is not None:             # after the end only passes (and Muggins calls) may follow, and
            written = c.orig is not None and self.s.game.moves[c.orig].tile is not None    # none an edit wrote
            harmless = entry.is_pass and not written and (st.over.termination != Termination.DOMINO or self.runs)
            #         (passes show a block; a hand of runs ends only when nobody can play, whoever is out)
            return (None if harmless else Code.PLAY_AFTER_END), [], False
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
            return (Code.WRONG_SCORE if entry.claim is not None else None), list(verdict.moves), False
        verdict = judge.entry(pos, entry.tile, seat, written=Written(
            entry.end, entry.arm, self.false_plays.get((entry.player, entry.tile)) if self.false_plays else None))
        errors = [problem for problem in verdict.problems if problem.severity == Severity.ERROR]
        if errors:
            return errors[0].code, [], adding
        if st.lacks and pos.hidden[seat] and self.judge.contradicted(st.lacks, seat, entry.tile) is not None:
            return Code.FALSE_PASS, list(verdict.moves), adding
        return None, list(verdict.moves), adding

    def step(self, st: PositionState, c: Entry, own: bool = False) -> tuple[list, str | None]:
        """The states after entry ``c`` (several when a tile fits more than one end or arm), or []
        and the code of the replayer's first error there. ``own``: the state's position is this
        trial's own, to be changed in place (else it is copied first)."""
        entry, seat = c.entry, c.seat
        while (self.skip_out and seat is not None and st.over is None and seat != st.pos.turn
               and skips_out(st.pos)):         # the player to move is out: the record may skip him (his pass)
            new = st.pos if own else st.pos.copy()
            new.push(PASS)
            st, own = PositionState(new, new.outcome(), None, st.lacks), True
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
            return [PositionState(new, new.outcome(), None, lacks)], None
        if move.tile is None:
            lacks = st.lacks + ((seat, pos.numbers_open()),) if any(pos.hidden) else st.lacks
            new = pos if own else pos.copy()
            new.push(move)
            return [PositionState(new, new.outcome(), None, lacks)], None
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
            out.append(PositionState(new, new.outcome(), pending, st.lacks))
        return out, why

    def score(self, pos: Position, entry: MoveEntry, seat: int) -> tuple[tuple[int, int] | None, str | None]:
        """What a play scores during play against what it claims: (the points left open to Muggins, code)."""
        points, problem = self.judge.claim(pos, seat, pos.history[-1][0], entry.claim)
        if problem is None:
            return None, None
        if problem.code == Code.MISSED_SCORE:
            return (seat, points), None
        return None, problem.code

    def muggins_problem(self, st: PositionState, entry: MoveEntry, seat: int | None) -> str | None:
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
    def state_key(st: PositionState) -> tuple:
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
                    code, moves, _ = self.check(st, Entry(seat, probe, None))
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
                            after, _ = self.step(st, Entry(seat, entry, None))
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
        probe = Entry(seat, MoveEntry(self.players[seat], tile, draw=draw), None)
        return any(st.over is None and self.check(st, probe)[0] is None for st in frontier)

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


def _state_key(st: PositionState) -> tuple:
    """Everything of a state the rest of the record can see (the arms in their order: ``>N`` names them)."""
    pos = st.pos
    drawn = pos.drawn(pos.turn)
    return (tuple(pos.hands), tuple(pos.hidden), pos.pool, pos.ends, getattr(pos, "arms", None), pos.turn,
            pos.passes, getattr(pos, "stock", None), getattr(pos, "bonus", None), drawn, st.over, st.pending,
            st.lacks, pos.exposed)
