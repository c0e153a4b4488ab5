"""One slip, one error: the errors of a broken record sorted into the likely slips and what follows.

A single slip of the pen (a wrong tile, a cell in the wrong column) usually breaks every move after
it that depends on it. :func:`triage` runs the repair search (bounded: ``max_nodes`` candidate
records, see :func:`~analyzer.repair.repair`) and, with its best repair, marks each error of the
record:

* **primary**: the first error at or after an edit of the repair (the slip shows there; an edit of
  the deal or of a tag counts from the start or the end of the record), one per edit;
* **follow-on**: every other error; it disappears once the repair is applied (the repaired record
  replays clean and ends as stated), and it names the slip it follows from.

Without a repair (none within the bound, or the record cannot be searched) every error stays
primary and the report says why.

In a match a slip in one game also breaks what the match carries into the next ones: who leads them,
what they are worth, the running score. :func:`triage_games` therefore takes the games in order,
puts each repaired game in place of the broken one and replays the rest of the match so; an error of
a later game that the repair makes disappear follows from that slip, and the later games are triaged
(and repaired) as the repaired match has them.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Callable

from ..diagnostics import Diagnostic, Severity
from ..i18n import gettext, number
from ..replay import Replay
from ..rules.codes import Code
from ..rules.modes import Turns
from . import RepairLimits, in_common, repair, tag_repair
from .builder import NOT_OVER
from .edits import Edit, Repair, RepairReport
from .muggins import dropped_calls
from .search import MOVE_WORK, REPLAY_WORK, out_of_time, shared_work, work_left

__all__ = ["Triage", "triage", "triage_games", "search_slips", "TRIAGE_NODES", "RECORD_WORK", "REPAIR_WORK"]

# The bound of the search behind ``validate``: candidate records tried per broken game (the
# two-ended search tries about 100,000 a second here; the position path about a tenth of that).
TRIAGE_NODES = 60_000
# The bound of the replays of a whole match behind :func:`triage_games`: games replayed (each
# repaired game and each repair checked replays the match again, so a long match broken in many games
# would cost the square of its length). Past it the later games are triaged each on its own.
MATCH_REPLAYS = 1_000
# The work every search of one record shares (units of :mod:`analyzer.repair.search`, some 10 ns each here):
# this fixed part, some 0.2 s (what the command's start-up costs, so that ``validate`` of a short record
# costs at most some three times ``replay``), and MOVE_WORK for each move and hand line of the record
# (about 1.3 times what replaying a move costs: a long record is validated in at most some 2.5 times its
# replay). The match's replays of a repaired game are taken from it too (REPLAY_WORK a move replayed).
# A file of many broken games gets a slip for each while the budget lasts; the games after it get their
# errors without one, and a note that says so. ``validate --repair`` (the search asked for) gets REPAIR_WORK.
RECORD_WORK = 20_000_000
REPAIR_WORK = 450_000_000
# The CPU time the searches of one record may take behind ``validate`` (:func:`triage_games` given the
# record's ``read_cpu``): this fixed part and READ_TIMES its parse and replay. A safety net: the units decide
# (the same slip found on any machine; a deal tried is counted too, see ``search.DEAL_WORK``), some 0.2-0.3 s on
# the campaign's inputs on a loaded machine (bench/campaign_inputs.py bound). What the units cannot say before it is
# done, a replay of the match whose stated results are checked over the deals a game hiding hands allows, is bounded
# by this time: a repaired game's match is replayed only while the time left holds two more such replays. Where it
# binds, ``validate`` costs at most some (0.35 + s) / s times ``replay`` as commands for a short record (s the start-up,
# 0.27-0.4 s here: 2.3x at most) and 2.5 times for a long one (its read, and 1.5 times that for the searches).
RECORD_SECONDS = 0.35
READ_TIMES = 1.5


@dataclass(frozen=True)
class Triage:
    """The errors of one replayed game, each marked primary or follow-on, and the repairs behind it."""

    diagnostics: tuple[Diagnostic, ...]     # every diagnostic of the game, errors marked (see module)
    report: RepairReport | None             # the repair search's report (None: the game was valid)

    @cached_property
    def marks(self) -> dict:
        """Each marked diagnostic by its ``Diagnostic.key`` (made once: the report asks per diagnostic)."""
        return {d.key: d for d in self.diagnostics}

    @property
    def best(self) -> Repair | None:
        return self.report.best if self.report is not None else None

    @property
    def primary(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.ERROR and not d.details.get("follow_on")]

    @property
    def likely(self) -> str | None:
        """The best repair in one sentence: "likely slip: change C's [2-6] to [4-6] (line 9, column 3);
        with it the record is valid and ends as stated"."""
        best = self.best
        if best is None:
            return None
        edits = "; ".join(str(e) for e in best.edits)
        one = len(best.edits) == 1
        if self.report.stated:
            return (gettext("likely slip: {edits}; with it the record is valid and ends as stated", edits=edits) if one
                    else gettext("likely slips: {edits}; with them the record is valid and ends as stated", edits=edits))
        if best.result_text == gettext(NOT_OVER):
            return (gettext("likely slip: {edits}; with it the record is valid, though it stops before the hand is "
                            "over", edits=edits) if one else
                    gettext("likely slips: {edits}; with them the record is valid, though it stops before the hand "
                            "is over", edits=edits))
        return (gettext("likely slip: {edits}; with it the record is valid; the result: {result}", edits=edits,
                        result=best.result_text) if one else
                gettext("likely slips: {edits}; with them the record is valid; the result: {result}", edits=edits,
                        result=best.result_text))


def _index_of(rep: Replay) -> dict[int, int]:
    """Where each diagnostic stands in the move list: -1 the deal, k the move, len(moves) the end."""
    out = {}
    for d in rep.notation:
        # a row with cells too many stands where its cells would have gone; other notation errors
        # count from the start
        out[id(d)] = _place(rep, d) if d.code == Code.TOO_MANY_CELLS else -1
    for d in rep.deal_diagnostics:
        out[id(d)] = -1
    for step in rep.steps:
        for d in step.diagnostics:
            out[id(d)] = step.index
    for d in rep.end_diagnostics:
        out[id(d)] = len(rep.steps)
    return out


def _place(rep: Replay, d: Diagnostic) -> int:
    """The index of the first replayed move written after ``d`` (the number of moves: none)."""
    at = (d.line or 0, d.column or 0)
    return next((step.index for step in rep.steps if step.entry.pos.line and (step.entry.pos.line, step.entry.pos.column) > at),
                len(rep.steps))


_TAG_CODES = {"change-result": Code.RESULT_MISMATCH, "change-score": Code.SCORE_MISMATCH}


def _edit_index(edit: Edit, end: int, moves: dict[int, int] | None = None) -> int:
    """Where ``edit`` stands in the replayed move list (``moves``: the replayed index of each move as
    written, when the replayer inserted the passes the record leaves out)."""
    if edit.kind in ("change-result", "change-score"):
        return end
    if edit.index is None:
        return -1                      # the deal
    return moves.get(edit.index, end) if moves is not None else edit.index


def _replayed_index(rep: Replay) -> dict[int, int] | None:
    """Each written move's index among the replayed ones, for a game the replayer inserted passes into."""
    if rep.written is None:
        return None
    at = {id(m): k for k, m in enumerate(rep.game.moves)}
    return {i: at.get(id(m), len(rep.game.moves)) for i, m in enumerate(rep.written.moves)}


def _slip_text(edit: Edit) -> str:
    if edit.line:
        return f"{edit.line}:{edit.column}" if edit.column else f"{edit.line}"
    return edit.where or "the deal"


def search_slips(rep: Replay, *, max_edits: int = 2, limit: int = 3,
                 max_nodes: int | None = TRIAGE_NODES) -> RepairReport:
    """The repair search behind the marks: a wrong Score tag alone is mended by its tag, or by the
    Muggins call the tag counts and the record dropped (:mod:`analyzer.repair.muggins`), whichever
    costs less; otherwise :func:`~analyzer.repair.repair` under the rules (and match lead) the game
    was replayed with, given the errors met reading it (a table row with cells too many)."""
    score = next((d.details.get("expected") for d in rep.errors if d.code == Code.SCORE_MISMATCH), None)
    mended = tag_repair(rep, "Score", "change-score", score, Code.SCORE_MISMATCH)
    if mended is not None:       # the game is legal; only the running score it states is not
        # (or a Muggins call the score counts was dropped: it ranks with the tag's edit by its cost)
        found = sorted(dropped_calls(rep, score) + [mended], key=lambda r: r.cost)
        best = [r for r in found if r.cost == found[0].cost]
        return RepairReport(rep.game, False, rep.game.tags.get("Result"), max_edits, found[:max(limit, 1)],
                            {1: len(found)}, len(best), in_common(best), True, 0)
    game = rep.game
    if rep.written is not None:     # forced passes left out: the record as written, its edits as written
        game = rep.written
        # (Hungarian: a player who is out, skipped, is no pass left out: the search skips him as the replayer does)
        if game.tags.get("Passes", "").strip().lower() != "omitted" and not _only_out_skipped(rep):
            game = replace(game, tags={**game.tags, "Passes": "omitted"})
    return repair(game, rep.variant, terms=rep.terms, limits=RepairLimits(max_edits, limit, max_nodes),
                  notation=rep.notation)


def _only_out_skipped(rep: Replay) -> bool:
    """Whether the passes the replayer inserted into ``rep`` are all those of players who are out, in a hand of
    runs (Hungarian), which the repair search's position path skips as the replayer does."""
    return rep.variant.turns == Turns.RUN and all(
        d.details.get("out") for step in rep.steps for d in step.diagnostics if d.code == Code.PASS_INSERTED)


def triage(rep: Replay, *, max_edits: int = 2, limit: int = 3, max_nodes: int | None = TRIAGE_NODES,
           report: RepairReport | None = None) -> Triage:
    """Mark every error of ``rep`` primary or follow-on by the best repair (see the module).

    ``report``: a repair search already run for this game (``validate --repair`` runs the full
    search once and marks the errors by it); otherwise a search bounded by ``max_nodes`` is run."""
    if rep.valid:
        return Triage(tuple(rep.diagnostics), None)
    if report is None:
        report = search_slips(rep, max_edits=max_edits, limit=limit, max_nodes=max_nodes)
    best = report.best
    if best is None:
        return Triage(_after_must_draw(rep) + _stopped(rep, report), report)
    where = _index_of(rep)
    end = len(rep.steps)
    moves = _replayed_index(rep)
    anchors = sorted(((_edit_index(e, end, moves), e) for e in best.edits), key=lambda x: x[0])
    errors = [d for d in rep.diagnostics if d.severity == Severity.ERROR]
    primary: set[int] = set()
    for k, (at, edit) in enumerate(anchors):
        upto = anchors[k + 1][0] if k + 1 < len(anchors) else end + 1
        here = sorted((d for d in errors if at <= where.get(id(d), -1) <= upto and id(d) not in primary),
                      key=lambda d: where.get(id(d), -1))
        if edit.kind in _TAG_CODES:     # a wrong tag shows only where the tag is found wrong, if anywhere
            here = [d for d in here if d.code == _TAG_CODES[edit.kind]]
        # the error standing where the edit is (a tile dealt twice is marked at both copies), else
        # the first one after it: where the slip shows
        first = next((d for d in here if (d.line, d.column) == (edit.line, edit.column)), here[0] if here else None)
        if first is not None:
            primary.add(id(first))
    out = []
    for d in rep.diagnostics:
        if d.severity != Severity.ERROR:
            out.append(d)
            continue
        if id(d) in primary or id(d) not in where:
            out.append(replace(d, details={**d.details, "follow_on": False}))
            continue
        at = where[id(d)]
        cause = max((e for i, e in anchors if i <= at and _TAG_CODES.get(e.kind, d.code) == d.code),
                    key=lambda e: _edit_index(e, end, moves), default=anchors[0][1])
        out.append(replace(d, details={**d.details, "follow_on": True, "follows": _slip_text(cause)}))
    return Triage(tuple(out), report)


def _after_must_draw(rep: Replay) -> tuple[Diagnostic, ...]:
    """The errors of ``rep`` marked where no repair was found: a pass written where the player had to draw
    (``must-draw``) leaves out the draws, and the play that may have followed them, so every error after it in the
    hand follows from it (what the player holds and the line are not the record's from there on: docs/notation.md,
    one error for one slip); else every error is primary."""
    where = _index_of(rep)
    first = min((where.get(id(d), -1) for d in rep.errors if d.code == Code.MUST_DRAW), default=None)
    cause = next((d for d in rep.errors if d.code == Code.MUST_DRAW and where.get(id(d), -1) == first), None)
    out = []
    for d in rep.diagnostics:
        if d.severity != Severity.ERROR:
            out.append(d)
        elif cause is not None and d is not cause and id(d) in where and where[id(d)] > first:
            out.append(replace(d, details={**d.details, "follow_on": True,
                                           "follows": f"{cause.line}:{cause.column}"}))
        else:
            out.append(replace(d, details={**d.details, "follow_on": False}))
    return tuple(out)


def _stopped(rep: Replay, report: RepairReport) -> tuple[Diagnostic, ...]:
    """The note that the search for the likely slip stopped at its bound with none found (the errors
    are then listed without one), or nothing."""
    if report.complete or report.problem or report.valid:
        return ()
    return (Diagnostic("info", Code.SLIP_SEARCH_STOPPED, gettext(
                           "the search for the likely slip stopped at its bound ({searched} candidate records, a "
                           "budget of work and time that grows with the record's length) without finding one: each "
                           "error is listed as found; 'validate --repair' searches further",
                           searched=number(report.searched)),
                       rep.game.pos.line or None, rep.game.pos.column or None, rep.source,
                       {"searched": report.searched}),)


def triage_games(replays: list[Replay], again: Callable[[list], list[Replay]] | None = None, *,
                 search: Callable[[Replay], RepairReport] | None = None,
                 read_cpu: float | None = None) -> tuple[list[Triage | None], dict]:
    """Triage every game of a record: ``(triages, reports)``, a :class:`Triage` per game (None for a
    valid one) and the repair report of each game searched, by its index.

    ``again(games)`` replays a file's games as ``replays`` were (the match, its rules): when the
    games are a match, each repaired game is put in place and the rest replayed with it (see the
    module), so an error a slip causes in a later game (its lead, its worth, the running score) is
    marked as following from that slip; past :data:`MATCH_REPLAYS` games replayed so, the later games
    are triaged each on its own (a long match broken in many games stays linear). ``search(rep)``:
    the repair search of one game (default :func:`search_slips`, bounded). ``read_cpu``: the CPU seconds the
    record's parse and replay took; the searches then take at most RECORD_SECONDS and READ_TIMES that (a
    search stopped so says it stopped), so that ``validate`` costs at most some three times ``replay``."""
    total = (RECORD_WORK if search is None else REPAIR_WORK) + MOVE_WORK * sum(
        len(rep.game.moves) + len(rep.game.hands) for rep in replays)
    with shared_work(total, None if read_cpu is None else RECORD_SECONDS + READ_TIMES * read_cpu):
        return _triage_games(replays, again, search or search_slips, read_cpu or 0.0)


def _triage_games(replays: list[Replay], again, search: Callable[[Replay], RepairReport],
                  read_cpu: float) -> tuple[list, dict]:
    current, games = list(replays), [rep.game for rep in replays]
    match = again is not None and any(rep.match is not None for rep in replays)
    bounded = False                     # the match's bound met: the later games triaged each on its own
    out: list[Triage | None] = []
    reports: dict[int, RepairReport] = {}
    slip: str | None = None             # the last slip repaired in an earlier game of the match
    uncarried: list[int] = []           # the games whose slip was found but not replayed into the match (its bound)
    replayed = [0]                      # games replayed by ``again`` so far (bounded: MATCH_REPLAYS)
    # what replaying the whole match costs, taken from the record's budget of work each time
    match_work = REPLAY_WORK * sum(len(g.moves) + len(g.hands) + 1 for g in games)

    # what one replay of the match costs in CPU (the record's own replay, then the slowest one met): a match
    # replayed checks each stated result over the deals its hidden hands allow, which its units do not say
    match_seconds = [read_cpu]

    def again_counted(games: list) -> list[Replay]:
        replayed[0] += len(games)
        work_left(match_work)
        start = time.process_time()
        try:
            return again(games)
        finally:
            match_seconds[0] = max(match_seconds[0], time.process_time() - start)

    for k, rep in enumerate(replays):
        # (a repaired game replays the match once per repair checked, at most 5, and once more)
        if match and (replayed[0] + len(games) * 6 > MATCH_REPLAYS or work_left() < match_work * 6
                      or out_of_time(6 * match_seconds[0])):
            match = False               # the rest each on its own: the match's work stays bounded
            bounded = True
        now = current[k]
        if rep.valid:
            out.append(None)
            continue
        if now.valid:                   # a repair of an earlier game mends this one too
            out.append(Triage(tuple(_follows(d, slip) for d in rep.diagnostics), None))
            continue
        # out of work or time: not searched at all (a search's set-up replays its game again), its note says so
        report = search(now) if work_left() > 0 and not out_of_time() else RepairReport(
            now.game, False, now.game.tags.get("Result"), 0, [], {}, 0, [], False, 0)
        if match and report.best is not None:
            report = _in_match(report, k, games, again_counted, lambda: (
                work_left() < match_work * 2 or out_of_time(2 * match_seconds[0])))
            if work_left() < match_work or out_of_time(match_seconds[0]):
                match = False           # no room for the match replayed with it: the rest each on its own
                bounded = True
            else:
                games[k] = report.best.game
                current = again_counted(games)
        reports[k] = report
        t = triage(now, report=report)
        if now is not rep:              # the marks of the game as the repaired match has it
            marks = {(d.code, d.line, d.column): d.details for d in t.diagnostics if d.severity == Severity.ERROR}
            t = Triage(tuple(_marked(d, marks.get((d.code, d.line, d.column)), slip) for d in rep.diagnostics)
                       + tuple(d for d in t.diagnostics if d.code == Code.SLIP_SEARCH_STOPPED), t.report)
        if uncarried:
            t = Triage(t.diagnostics + (_not_carried(now, uncarried),), t.report)
        if bounded and t.best is not None:
            uncarried.append(k)
        out.append(t)
        if match and t.best is not None:
            moves_slip = [e for e in t.best.edits if e.kind not in _TAG_CODES] or list(t.best.edits)
            slip = _slip_text(max(moves_slip, key=lambda e: _edit_index(e, len(now.steps), _replayed_index(now))))
    return out, reports


def _not_carried(rep: Replay, games: list[int]) -> Diagnostic:
    """The note that the likely slips of the earlier ``games`` (indices in the match) were not replayed into the match
    for the record's bound, so the errors of ``rep`` are marked by its own slip alone."""
    named = ", ".join(str(k + 1) for k in games)
    return Diagnostic("info", Code.MATCH_REPLAY_STOPPED,
                      gettext("the match was not replayed with the likely slips of games {games} (the record's bound "
                              "of work and time): an error here that follows from them (the lead, the game's worth, "
                              "the running score) is marked by this game's own slip; 'validate --repair' searches "
                              "further", games=named) if len(games) > 1 else
                      gettext("the match was not replayed with the likely slip of game {game} (the record's bound of "
                              "work and time): an error here that follows from it (the lead, the game's worth, the "
                              "running score) is marked by this game's own slip; 'validate --repair' searches further",
                              game=named),
                      rep.game.pos.line or None, rep.game.pos.column or None, rep.source, {"games": [k + 1 for k in games]})


def _in_match(report: RepairReport, k: int, games: list, again: Callable[[list], list[Replay]],
              enough: Callable[[], bool] = lambda: False) -> RepairReport:
    """``report`` (of game ``k``) with its repairs checked in the match: the running score is the
    match's to check, so a Score tag a repaired game still disagrees with is a slip of its own, and
    the repair gets the change-score edit too; ranked again by size and cost. ``enough()``: whether the record's
    bound leaves no room for another replay of the match (the repairs not checked by then are left out)."""
    checked = []
    for n, fix in enumerate(report.repairs):
        if n and enough():          # (a replay of the match may list the deals of a game hiding hands: each counts)
            break
        fixed = again(games[:k] + [fix.game] + games[k + 1:])[k]
        errors = fixed.errors
        if not errors:
            checked.append(fix)
            continue
        if any(d.code != Code.SCORE_MISMATCH for d in errors):
            continue
        mended = tag_repair(fixed, "Score", "change-score", errors[0].details.get("expected"), Code.SCORE_MISMATCH)
        if mended is not None:
            checked.append(replace(fix, edits=fix.edits + mended.edits, cost=round(fix.cost + mended.cost, 3),
                                   game=mended.game, rows_before=fix.rows_before + mended.rows_before,
                                   rows_after=fix.rows_after + mended.rows_after))
    if not checked or checked == report.repairs:
        return report
    checked.sort(key=lambda r: (len(r.edits), round(r.cost, 6)))
    rank = (len(checked[0].edits), round(checked[0].cost, 6))
    best = [r for r in checked if (len(r.edits), round(r.cost, 6)) == rank]
    counts: dict[int, int] = {}
    for r in checked:
        counts[len(r.edits)] = counts.get(len(r.edits), 0) + 1
    return replace(report, repairs=checked, counts=counts, tied=len(best), common=in_common(best))


def _follows(d: Diagnostic, slip: str | None) -> Diagnostic:
    if d.severity != Severity.ERROR:
        return d
    if slip is None:
        return replace(d, details={**d.details, "follow_on": False})
    return replace(d, details={**d.details, "follow_on": True, "follows": slip})


def _marked(d: Diagnostic, marks: dict | None, slip: str | None) -> Diagnostic:
    """``d`` marked as its game's triage under the repaired match marks it, or, gone there, as
    following from the earlier slip."""
    if d.severity != Severity.ERROR or marks is None:
        return _follows(d, slip)
    keep = {key: marks[key] for key in ("follow_on", "follows") if key in marks}
    return replace(d, details={**{k: v for k, v in d.details.items() if k != "follows"}, **keep})
