"""The repair search: left to right, each edit at or before the first error of the record as the
earlier edits left it, a trial replayed from the edit point by a checker (:mod:`.lean` for the
two-ended block games, :mod:`.positional` for the rest), the candidate edits from :mod:`.candidates`
and :mod:`.position_edits`; the repairs found are kept by the record they give, each the cheapest
way to it, and the replayer confirms a line that ends as the record states."""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from ..inference.meter import StepsSpent, metered
from ..record import Game, HandEntry, MoveEntry, StatedResult
from ..replay import Replay, hand_facts
from ..rules import LeadRequirement, Variant
from ..rules.modes import End
from ..rules.codes import Code
from .builder import Builder, PositionBuilder
from .candidates import LeanEdits
from .deal import Deal, DealEdits, Deals
from .edits import SEAT, Found, Trial
from .exposed import exposed_rows, reveals
from .lean import LeanChecker
from .position_edits import PositionEdits
from .positional import PositionChecker, PositionState
from .setting import Setting
from ..i18n import gettext

__all__ = ["Search", "PositionSearch", "MOVE_WORK", "REPLAY_WORK", "DEAL_WORK", "HAND_WORK", "TAG_TILE_WORK", "STEP_WORK",
           "shared_work", "work_left", "out_of_time", "replayed_within"]

# The search's work is bounded as well as its candidates, so that it grows with the record and not
# faster (a candidate copies the record, and the candidates at a place look along the rest of it, so
# the nodes alone cost more the longer the record). One unit is about one cell of the record copied
# (some 0.01 us here); a cell looked at for a candidate costs SCAN_WORK, a trial's step (one move
# replayed by the checker) ``step_work``, a confirmation by the replayer REPLAY_WORK a move. A search's
# budget is what ``max_nodes`` candidates cost on a record of ordinary length (``node_work`` each: the
# fixed part; the triage's shared budget bounds it further, see ``triage.RECORD_WORK``), plus MOVE_WORK for
# each move and hand line of the record (about 1.3 times what replaying it costs): the search costs at most a
# small multiple of the record's replay plus a fixed bound (bench/bench_triage.py measures it). Units of work, not seconds,
# so that a result is the same on any machine.
MOVE_WORK = 4_000
REPLAY_WORK = 2_500
SCAN_WORK = 6
# A deal the search tries is replayed alone (see ``Deal``): DEAL_WORK each (three times that for a set-up, whose
# position is laid out again from its tags: 200-250 us a deal tried, campaign inputs 23684, 6684, 28484), and a unit for
# each character of the game's tags (read again each time: a set-up's Lacks tag may hold thousands of items).
DEAL_WORK = 3 * REPLAY_WORK
# ... and HAND_WORK for each hand line beyond one a player: the replay reads and judges every line, and the deal's key
# is made of them (a record listing its hands hundreds of times over, "A: B: A: B: ...", spent 1-3 ms a deal tried
# where its units said 75 us: its search ran to the record's time bound, validate 2.8x replay as commands).
HAND_WORK = 600
# ... and TAG_TILE_WORK for each tile written in the game's tags: a set-up's tags (Line, Arms, hands) are read again with
# the deal, a tile some 1.4 us (a set-up whose Arms tag lists a hundred tiles spent 240 us a deal tried where its
# units said 160; campaign input 23156).
TAG_TILE_WORK = 80
# A confirmation of a game that hides hands checks its stated result over the deals they allow: the counting of
# those deals (:mod:`analyzer.inference.meter`: a state of its program, a deal listed) costs STEP_WORK a step, and
# stops where the work left runs out (the search then stops, and says so): one confirmation of a Hungarian game
# hiding three hands filled 25,000 states a count, some 0.3 s, with nothing counted.
STEP_WORK = 500

# The record's bound of time is looked at before every CLOCK_EVERY-th candidate (the clock is no free read).
CLOCK_EVERY = 16

# The work left to every search of one record (see ``shared_work``): a file of many broken games shares
# one budget, so its validation, too, costs at most a small multiple of its replay plus a fixed bound.
_LEFT: ContextVar[list[int] | None] = ContextVar("repair_work_left", default=None)
# The CPU time (``time.process_time``) past which every search of the record stops (see ``shared_work``): the
# work's units bound what the search does, this what it costs where a trial costs more than its units say
# (a trial's result checked over the deals its hidden hands allow).
_DEADLINE: ContextVar[float | None] = ContextVar("repair_deadline", default=None)


@contextmanager
def shared_work(total: int, seconds: float | None = None):
    """Within the block, the searches share ``total`` units of work (each still within its own budget);
    each search's work is taken from it when it is done (:meth:`Search.settle`). ``seconds``: the CPU time
    they may take in all, from now (None: no bound of time)."""
    token = _LEFT.set([total])
    timer = _DEADLINE.set(None if seconds is None else time.process_time() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(timer)
        _LEFT.reset(token)


def out_of_time(needed: float = 0.0) -> bool:
    """Whether the searches of this record have used the CPU time :func:`shared_work` gave them (or have less
    than ``needed`` seconds of it left)."""
    deadline = _DEADLINE.get()
    return deadline is not None and time.process_time() + needed > deadline


def replayed_within(setting: Setting, game: Game, budget: float) -> tuple[Replay | None, int]:
    """``game`` replayed as the record's own game was (:meth:`Setting.replayed`), its stated result checked over
    the deals its hidden hands allow within ``budget`` units of work: the replay (None: that check would take
    more), and the work the check took (STEP_WORK a step of the inference; nothing for a game that shows every
    hand)."""
    with metered(budget / STEP_WORK) as meter:
        try:
            rep = setting.replayed(game)
        except StepsSpent:
            rep = None
    return rep, meter.spent * STEP_WORK


def work_left(spent: int = 0) -> float:
    """The work left to the searches of this record, once ``spent`` is taken from it (work of the triage
    besides the searches: the match replayed); unbounded outside :func:`shared_work`."""
    pool = _LEFT.get()
    if pool is None:
        return float("inf")
    pool[0] -= spent
    return pool[0]


class Search:
    """The repair search for one game: the lean search of the two-ended block games, and the search
    the position path (:class:`PositionSearch`) shares, with its own checker and candidate edits."""

    default_nodes = 400_000
    step_work, node_work = 250, 1_500     # (see MOVE_WORK)
    checker_kind, edits_kind, builder_kind = LeanChecker, LeanEdits, Builder

    def __init__(self, game: Game, variant: Variant, max_edits: int, max_nodes: int,
                 lead: LeadRequirement | None = None, worth: int | None = None):
        self.game = game
        self.variant = variant
        self.max_edits = max_edits
        self.max_nodes = max_nodes
        self.nodes = 0
        self.max_work = max_nodes * self.node_work + MOVE_WORK * (len(game.moves) + len(game.hands))
        self.work = 0
        self.timed_out = False          # stopped by the record's bound of time (see ``shared_work``)
        self.out_of_work = False        # its finds' confirmations stopped by the record's budget of work
        self.pool = _LEFT.get()         # the record's shared budget, if any: this search takes what is left of it
        if self.pool is not None:
            self.max_work = min(self.max_work, max(self.pool[0], 0))
        self.setting = setting = Setting.of(game, variant, lead, worth)
        self.problem = None
        if variant.end not in (End.ONE, End.PAIR):
            self.problem = gettext("the repair search does not know how a hand ends under {variant} (end={end})",
                                   variant=variant.name, end=variant.end)
        self.stated = None
        tag = game.tags.get("Result")
        if tag is not None:
            try:
                self.stated = StatedResult.parse(tag)
            except ValueError as exc:
                self.problem = gettext("the Result tag cannot be read: {reason}", reason=exc)
        if self.stated is not None and self.stated.side is not None:
            if any(name not in setting.seat_of for name in self.stated.side):
                self.problem = gettext("the Result tag names {names}, who are not all players of this game "
                                       "({players})", names='/'.join(self.stated.side),
                                       players=', '.join(setting.players))
        self.deals = Deals(setting)
        self.deal_work = (DEAL_WORK * (3 if "SetUp" in game.tags else 1) + HAND_WORK * max(0, len(game.hands) - setting.n)
                          + sum(len(k) + len(v) + TAG_TILE_WORK * v.count("[") for k, v in game.tags.items()))
        self._deals_counted = 0
        self.checker = self.checker_kind(setting)
        self.edits = self.edits_kind(setting, self.checker, DealEdits(setting, self.deals))
        self.found: dict[tuple, Found] = {}      # record key -> the cheapest repair that gives it
        self.builder = self.builder_kind(setting, game)
        self.confirmed: dict[tuple, bool] = {}   # record key -> what the replayer says of it
        # Domino Whist §8: whether the Exposed tag lays tiles open during play (see .exposed)
        self.exposures = bool(exposed_rows(game, variant, setting.players))

    def deal_for(self, hands: tuple[HandEntry, ...]) -> Deal:
        return self.deals.of(hands)

    def cells(self, game: Game) -> list:
        """The record's moves as the checker's cells."""
        return self.checker.cells(game)

    def from_deal(self, seq: list, deal: Deal, frontiers: list | None) -> tuple[list, tuple | None]:
        """The frontier at the deal, and what ``run`` returns at once when the deal or the lead is
        already wrong (``(-1, "deal")`` or ``(0, code)``), else None."""
        st, code = self.checker.initial_state(seq, deal)
        if code == "deal":
            return [st], (-1, code)
        frontier = [st]
        if code is not None:
            if frontiers is not None:
                frontiers.append(frontier)
            return frontier, (0, code)
        return frontier, None

    def run(self, seq: list, start: int, frontier: list | None, deal: Deal,
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
        frontier = self.checker.fresh(frontier, own)
        step = self.checker.step
        reveal = self.reveals(seq, deal, start) if self.exposures else None
        for k in range(start, len(seq)):
            if frontiers is not None:
                frontiers.append(frontier)
            if reveal is not None and (tiles := next(reveal)):     # exposed during play: open from here on
                frontier = self.checker.revealed(frontier, tiles, own)
                if not frontier:        # played before its row: the tag is wrong on these moves
                    return k, Code.BAD_EXPOSED
            c = seq[k]
            if len(frontier) == 1:
                nf, code = step(frontier[0], c, own)
            else:
                nf, code = self.checker.spread(frontier, c, own)
            if not nf:
                return k, code
            frontier = nf
        if frontiers is not None:
            frontiers.append(frontier)
        if self.end_ok(frontier, seq, deal):
            return None, None
        return len(seq), Code.RESULT_MISMATCH

    def reveals(self, seq: list, deal: Deal, start: int = 0) -> Iterator[int] | None:
        """For each cell of ``seq`` from ``start`` on, the tiles exposed during play that come to lie
        open at it (see :mod:`.exposed`); None: the deal has none."""
        if deal.exposures is None:
            deal.exposures = exposed_rows(self.game, self.variant, self.setting.players, deal.entries)
        if not deal.exposures:
            return None
        return reveals(deal.exposures, self.builder.rounds(seq, max(start - 1, 0)), not start)

    def replayed(self, game: Game) -> Replay:
        """``game`` replayed as the record's own game was: under the match's lead and worth."""
        return self.setting.replayed(game)

    def end_ok(self, frontier: list, seq: list, deal: Deal) -> bool:
        """Whether a line that is legal to its end ends as the record states. The open cases (the
        hand ends the stated way) go to the replayer, whose scoring is the variant's own."""
        stated = self.stated
        if stated is None:
            return True
        if not any(st[5] is not None and (not stated.termination or st[5][0] == stated.termination)
                   for st in frontier):
            return False
        return self.confirm(seq, deal)

    def confirm(self, seq: list, deal: Deal) -> bool:
        """The replayer's verdict on the record ``seq`` with ``deal``, asked once for each
        :meth:`confirm_key`."""
        key = self.confirm_key(seq, deal)
        ok = self.confirmed.get(key)
        if ok is None:
            if self.out_of_work:        # (a check before ran out of the work: no other is begun)
                return False
            game = self.builder.game_for(seq, deal)
            self.work += REPLAY_WORK * len(seq)
            rep, spent = replayed_within(self.setting, game, self.max_work - self.work)
            self.work += spent
            if rep is None:             # its deals' count would take more than the work left: the search stops
                self.out_of_work = True
                return False
            ok = self.confirmed[key] = rep.valid
        return ok

    def count_deals(self) -> None:
        """Add the deals replayed since the last count to the search's work."""
        replayed = self.deals.replayed
        self.work += self.deal_work * (replayed - self._deals_counted)
        self._deals_counted = replayed

    def settle(self) -> None:
        """Take this search's work from the record's shared budget (once, when it is done)."""
        self.count_deals()
        if self.pool is not None:
            self.pool[0] -= self.work
            self.pool = None

    @property
    def stopped(self) -> bool:
        """Whether the search stopped at its bound (of candidates, of work or of time) before it was done."""
        return self.nodes >= self.max_nodes or self.work >= self.max_work or self.timed_out or self.out_of_work

    def halted(self) -> bool:
        """Whether the search must stop before its next candidate: :attr:`stopped`, or the record's time is up (the
        clock read before every CLOCK_EVERY-th candidate: a reading costs 1-2 us here, a lean candidate some 10)."""
        self.count_deals()
        if not self.stopped and not self.nodes % CLOCK_EVERY and out_of_time():
            self.timed_out = True
        return self.stopped

    def confirm_key(self, seq: list, deal: Deal) -> tuple:
        """What the replayer's verdict on the record ``seq`` and ``deal`` give depends on (see ``confirmed``)."""
        key = (self.line_key(seq), deal.key)
        if self.exposures:      # where tiles exposed during play lie open depends on the row numbers
            key += (tuple(self.reveals(seq, deal) or ()),)
        return key

    # -- the search ------------------------------------------------------------------------------
    def search(self, game: Game) -> tuple[list, bool]:
        """Search ``game`` for its repairs (kept in ``found``); (its cells, True) when it is legal already."""
        seq = self.checker.cells(game)
        deal = self.deal_for(tuple(game.hands))
        frontiers: list = []
        L, code = self.run(seq, 0, None, deal, frontiers)
        if L is None:
            return [], True
        # renumber the rows of a repair only when the record's own numbering follows its rows
        s = self.setting
        first = next((c[SEAT] for c in seq if c[SEAT] is not None), None)
        if s.has_rounds and first is not None:
            offset = (first - s.row_start) % s.n
            self.builder.renumber = all(m.round == s.first_round + (offset + k) // s.n
                                        for k, m in enumerate(game.moves[:max(L, 1)]))
        if self.problem is None and self.max_edits > 0:
            self.visit(Trial(seq, deal, frontiers, L, code), (), 0.0, -1, self.max_edits)
        return seq, False

    def visit(self, trial: Trial, edits: tuple, cost: float, min_pos: int, depth: int) -> None:
        """Try every edit of the ``trial`` at ``min_pos`` .. ``trial.L`` (the first error) and go on from each,
        with ``depth`` edits left (``edits`` made so far, costing ``cost``)."""
        seq, deal, frontiers, L, _ = trial
        # the candidates at each place look along the rest of the record (a later move to swap in)
        self.work += SCAN_WORK * (L + 2 - max(min_pos, 0)) * len(seq)
        checker = self.checker
        walked = checker.walked
        for new_seq, new_deal, start, edit, next_min in self.edits.candidates(trial, min_pos, depth):
            # the steps the checker took making the candidates (every row that may have been dropped, enumerated)
            self.work += self.step_work * (checker.walked - walked)
            walked = checker.walked
            if self.halted():
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
            # the copy of the record, and the trial's steps (from the deal, or the edit point)
            self.work += len(new_seq) + self.step_work * ((len(new_seq) if nL is None else nL + 1)
                                                          - (0 if new_deal is not deal else start))
            new_edits = edits + (edit,)
            new_cost = cost + edit[1]
            if nL is None:
                self.record(new_seq, new_deal, new_edits, new_cost)
            elif depth > 1 and nL >= next_min:
                self.visit(Trial(new_seq, new_deal, keep, nL, ncode), new_edits, new_cost, next_min, depth - 1)
                walked = checker.walked     # (the deeper visit counted its own)

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


class PositionSearch(Search):
    """The repair search on the variant's own position, for the games the lean checker does not model.

    The search is :class:`Search`'s (the same :meth:`~Search.visit`, left to right, each edit at or
    before the first error); what differs is the checker (:class:`~analyzer.repair.positional.PositionChecker`:
    the replayer's rules for every kind of entry, on copies of the position), the candidate edits
    (:class:`~analyzer.repair.position_edits.PositionEdits`: the mover's legal entries in the position,
    with every tile the boneyard may give for a draw; and the edits of the notation of draws, claims and
    arms), and the order: one edit first, then two, stopping at the smallest size that has a repair. A
    trial costs some ten lean ones, hence the smaller budget and the sharper focus of the last edit."""

    default_nodes = 40_000
    step_work, node_work = 2_500, 4_000   # a trial's step costs some ten lean ones
    checker_kind, edits_kind, builder_kind = PositionChecker, PositionEdits, PositionBuilder

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
            self.visit(Trial(seq, deal, frontiers, L, code), (), 0.0, -1, bound)
            if self.stopped or self.confirmed_any():
                break
        return seq, False

    def confirmed_any(self) -> bool:
        """Whether the replayer confirms one of the repairs found so far."""
        return any(self.confirm(seq, deal) for _, _, _, seq, deal in self.found.values())

    @staticmethod
    def line_key(seq: list) -> tuple:
        return tuple(_content(c.entry) for c in seq)

    def end_ok(self, frontier: list, seq: list, deal: Deal) -> bool:
        """As :meth:`Search.end_ok`; the variant's own scoring of the final position rules out most
        lines before the replayer is asked."""
        if self.stated is None:
            return True
        leader = deal.positions[deal.leader(seq)].turn
        if not any(st.over is not None and self.result_agrees(st, leader) for st in frontier):
            return False
        return self.confirm(seq, deal)

    def result_agrees(self, st: PositionState, leader: int) -> bool:
        """Whether the hand over in ``st`` ends as the Result tag states, scored as the replayer
        scores it (the points scored during play only add to the match score, which the tag does
        not state); True when the hands are not all known (the replayer decides)."""
        stated, pos, over = self.stated, st.pos, st.over
        if stated.termination and over.termination != stated.termination:
            return False
        if any(pos.hidden) or pos.n != self.variant.players:
            return True
        plays = (0,) * pos.n if self.variant.play is not None else None
        result = self.variant.hand_result(hand_facts(pos, over.termination, over.seat, leader, plays))
        if stated.side is None:
            return result.winner is None
        teams = self.variant.seating.teams
        seats = [self.setting.seat_of.get(name) for name in stated.side]      # a name that is no player: never
        points = any(stated.agrees(p) for p in self.variant.match.stated_points(result, self.setting.worth))
        return (result.winner is not None and points and None not in seats
                and all(teams[seat] == result.winner for seat in seats))


def _content(m: MoveEntry) -> tuple:
    return (m.player, m.tile, m.end, m.arm, m.draw, m.claim, m.muggins)
