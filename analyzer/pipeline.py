"""One record -> results: the one place that reads a record, replays it, triages or repairs its
errors, analyses it (open hands, then fair, in one loop) and builds its page.

Each record is parsed and replayed once, whatever the command and its options: :func:`read` gives a
:class:`RecordRun` (the record and its replayed games, or why the file could not be read), and the
steps fill it in (:func:`analyse`, :func:`judge_fairly`, :func:`triage`, :func:`page`).
:func:`process` is the task the executors of :mod:`analyzer.archive` run on every record (here, in a
pool of processes or on a Dask cluster): it does what :class:`Options` ask and returns plain data
(JSON-able dicts: results travel between processes and are cached); the command line also works on a
:class:`RecordRun` directly where it needs the games themselves (``replay``, ``analyze --fair``).

A failure of the analyser on one record is that record's ``internal-error`` result, so that the rest
of an archive is still done."""
from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Callable, ContextManager

from .codec import key, to_data
from .i18n import gettext, use
from .diagnostics import Diagnostic, DominoError
from .rules.codes import Code
from .match import PossibleResults, possible_results, replay_record
from .notation import parse, write
from .notation.writer import rewrite
from .notation.text import decode
from .record import Record
from .replay.json import result_text
from .rules.options import BadOptionValue, UnknownOption, normalise
from .rules.variants import FAMILIES
from .search.core import TABLE_MB, SearchBudget
from .diagnostics import Severity

if TYPE_CHECKING:
    from .analysis import AnalysisSettings, Thresholds

__all__ = ["Options", "MODES", "LOST", "RecordRun", "GameProgress", "read", "read_text", "analyse", "judge_fairly", "triage",
           "repaired_text", "process", "run_record", "fair_worlds", "fair_every_game", "repairs_analysed", "mover_views", "safely", "view_inference", "UnknownView", "again",
           "games_data", "game_results", "GameResult", "RecordResult", "ScoredAnalysis", "analysis_data", "scored_analysis", "analyze_entry", "extras", "validation_json", "analyse_game", "grade_on_match_scale", "results_wanted", "record_problem", "internal_error", "worker_died", "check_rules"]

MODES = ("validate", "analyze", "report")
LOST = Code.CLUSTER_LOST   # the code of a record not worked out: the cluster was lost (``archive.cluster.cluster_lost``)


@dataclass(frozen=True)
class Options:
    """What to do with each record. Everything that shapes a result is here (it keys the cache)."""

    mode: str = "validate"                  # "validate", "analyze" (values of every decision) or "report" (a page)
    variant: str | None = None
    rules: tuple[tuple[str, str], ...] = ()
    thresholds: str = "3,10,25"
    max_nodes: int | None = None
    lines: bool = False                     # keep the best continuations (analyze --graph)
    insert_passes: bool = False             # the records leave forced passes out (validate/replay --insert-passes)
    table_mb: float = TABLE_MB              # the search's transposition table (memory only: same values)
    fair_worlds: int = 0                    # > 0: add the fair analysis with this many deals a decision (stats --fair)
    fair_seed: int = 0
    fair_max_worlds: int | None = None      # the most deals for a decision whose best is not told apart (None: 4x)
    fair_hidden: bool = False               # a record with hidden hands gets the fair analysis, fair_worlds or not
    #                                         (``fair_worlds()``: report; analyze --fair's own loop for them; stats no)
    max_deals: int = 1000                   # a sheet without hands: the most deals it allows analysed (else drawn)
    fair_hands: int = 8                     # ... and the most hands of a player judged fairly (else drawn)
    values_seconds: float | None = 20.0     # ... the CPU its values may take (None: no bound; analysis.sheets.SECONDS)
    fair_seconds: float | None = 20.0       # ... and its fair verdicts are planned to (analysis.sheets.FAIR_SECONDS)
    fair_hidden_only: bool = False          # the fair analysis for the games with a hidden hand only (asked for by
    #                                         those hands, not --fair: the other games keep their exact values)
    fair_exact_below: int = 1000            # enumerate every deal of a decision when there are at most this many
    fair_seats: tuple[str, ...] = ()        # the players to judge (default: every one whose hand is known)
    fair_exact_hidden: bool = True          # a small decision of a two-player game valued exactly under hidden
    #                                         information (``analysis.hiddenfair``; not on the match scale)
    fair_exact_hand: int = 3                # ... block for two by the CFR+ solver with at most this many tiles a hand
    fair_exact_seconds: float | None = None  # ... within these CPU seconds a decision (None: hiddenfair.cfr_budget's)
    fair_exact_memory: int | None = None    # ... its tree over the hands within these bytes (None: hiddenfair.CFR_MEMORY)
    triage: bool = True                     # validate: mark each error as the slip or a follow-on (a bounded search)
    repair_edits: int = 0                   # validate --repair: the full repair search, with at most this many edits
    write_repaired: bool = False            # validate --write-repaired: the text of the repaired record too
    scale: str = "points"                   # analyze --scale match: also grade every move by its drop in MWC
    luck_each: bool = False                 # stats, report --scale match: each player's deal luck in a game of
    #                                         individual players (the deal played out by the hand model's policy)
    language: str = "en"                    # the language of the words in the results (``analyzer.i18n``: a
    #                                         diagnostic's message, a result, a page), chosen by the caller

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {self.mode!r}")
        # one size, one key: 128 (the default) and 128.0 (--table-mb, a float option) are the same table
        object.__setattr__(self, "table_mb", float(self.table_mb))

    def key(self) -> str:
        """A stable text of the options, for the cache key."""
        return json.dumps(asdict(self), sort_keys=True)

    @property
    def limits(self) -> Thresholds:
        from .analysis import Thresholds        # (start-up: validate needs no analysis)

        return Thresholds.parse(self.thresholds)

    @property
    def budget(self) -> SearchBudget:
        """What each search may spend (``max_nodes``, ``table_mb``)."""
        return SearchBudget(self.max_nodes, self.table_mb)

    @property
    def analysis(self) -> AnalysisSettings:
        """The settings of the open-hands analysis: the thresholds, ``lines``, the search's budget, and the reasons
        of the graded moves (``analysis.reasons``)."""
        from .analysis import AnalysisSettings

        return AnalysisSettings(self.limits, self.lines, self.budget, reasons=True)


# ---- the results of a record that could not be worked out ----------------------------------------

def _diag_data(diag: Diagnostic) -> dict:
    return {**diag.as_dict(), "text": str(diag)}


def _diags_data(diags) -> list[dict]:
    return [_diag_data(d) for d in diags]


@dataclass(frozen=True)
class ScoredAnalysis:
    """A game's analysis composed with what the steps after it found (the plain data :func:`analysis_data` writes):
    the best lines where asked for (``lines``), the luck of its draws (``draw_lucks``, the draws of ``steps``) and
    its grading on the match scale (``scale``)."""

    analysis: object                     # ``analysis.GameAnalysis``
    lines: bool = False
    steps: tuple = ()
    draw_lucks: list | None = None
    scale: object | None = None          # ``analysis.match_scale.MatchScale``

    def as_dict(self) -> dict:
        return analysis_data(self.analysis, self.lines, self.steps, self.draw_lucks, self.scale)


@dataclass(frozen=True)
class GameResult:
    """A replayed game's result, written by ``codec.to_data`` (:func:`games_data`): what its replay found (its
    diagnostics marked primary or follow-on where it was triaged), its analysis where it was analysed, and where
    its repair was searched, the repairs found and the likely one."""

    title: str
    event: str | None
    players: list[str]
    variant: str
    valid: bool
    errors: int
    diagnostics: tuple = field(metadata=key(write=_diags_data))      # ``Diagnostic``s
    result: dict | None
    result_text: str | None
    moves: int
    errors_by_player: dict
    analysis: ScoredAnalysis | None
    repairs: tuple | None = field(default=None, metadata=key(omit_none=True))     # ``repair.edits.Repair``s
    likely: object | None = field(default=None, metadata=key(omit_none=True))
    # a sheet whose deals do not fix its result or the match score after it: what they allow
    possible: PossibleResults | None = field(default=None, metadata=key(omit_none=True))
    # the game's Date tag (``YYYY.MM.DD``), as written: a club's statistics by month (``archive.league``)
    date: str | None = field(default=None, metadata=key(omit_none=True))


@dataclass(frozen=True)
class RecordResult:
    """A record's result, written by ``codec.to_data`` (:meth:`RecordRun.data`, :func:`run_record`): its source,
    why it could not be read or worked out (``error``, else None), its games, and where asked for, the repair
    search's report of each game (``repairs_found``) and the repaired record's text (``repaired``)."""

    source: str
    error: Diagnostic | None = field(default=None, metadata=key(write=_diag_data))
    games: tuple[GameResult, ...] = ()
    repairs_found: list | None = field(default=None, metadata=key(omit_none=True))
    repaired: dict | None = field(default=None, metadata=key(omit_none=True))


def record_problem(label: str, diag: Diagnostic) -> dict:
    """The result of a record that could not be read at all (or not worked out)."""
    return to_data(RecordResult(label, diag))


def internal_error(label: str, exc: Exception) -> dict:
    """The result of a record the analyser failed on: an ``internal-error`` of that record alone."""
    return record_problem(label, _internal(label, exc))


def _internal(label: str, exc: Exception) -> Diagnostic:
    return Diagnostic("error", Code.INTERNAL_ERROR, gettext("the analyser failed on this record ({kind}: {error}); "
                                                            "please report it", kind=type(exc).__name__, error=exc),
                      source=label)


def worker_died(label: str, where: str | None = None) -> dict:
    """The result of a record whose worker died on it (again): an ``internal-error`` of that record alone
    (``where``: the worker's words, the worker process by default)."""
    return record_problem(label, Diagnostic(
        "error", Code.INTERNAL_ERROR, gettext("{where} working on this record died (out of memory, or a crash of the "
                                              "analyser); the rest of the archive was done; please report it",
                                              where=where or gettext("the worker process")), source=label))


# ---- one record, step by step ---------------------------------------------------------------------

@dataclass
class RecordRun:
    """One record as far as it has been worked out: read and replayed (:func:`read`), then analysed,
    judged, triaged or repaired as the steps below fill it in. ``problem``: why the file could not be
    read (then there is no record and no game)."""

    label: str
    options: Options
    record: Record | None = None
    replays: list = field(default_factory=list)
    problem: Diagnostic | None = None
    analyses: list | None = None            # a GameAnalysis (or None) per game, once analysed
    triages: list | None = None             # a Triage (or None: a valid game) per game, once triaged
    reports: dict = field(default_factory=dict)     # game index -> RepairReport of the games searched
    judged: int = 0                         # games given their fair analysis (see judge_fairly)
    text: str | None = None                 # the record's text as read (the repaired record keeps its layout)
    scales: list | None = None              # per game its ``MatchScale`` (or None), once graded on the match scale
    draw_lucks: list | None = None          # per game the luck of each draw (``analysis.drawluck``), once valued
    results: list | None = None             # per game its principal variations' results, where the match scale reads them
    policy: list | None = None              # per game of individual players (``luck_each``): its deal's result played
    #                                         out by the hand model's policy (``analysis.outcomes.policy_result``)
    repaired: list | None = None            # per game, the analysis of its likeliest repair (or None), for its page
    read_cpu: float = 0.0                   # CPU seconds of its parse and replay (the slip search's time is a multiple)

    @property
    def readable(self) -> bool:
        """Whether the file was read as a record (else ``problem`` says why not)."""
        return self.record is not None

    @property
    def partial(self) -> bool:
        """Whether a game of the record has a deal that is not fully known (a hidden hand)."""
        return any(any(rep.initial.hidden) for rep in self.replays)

    def again(self) -> Callable[[list], list]:
        """How the games are replayed with some of them repaired (see :func:`again`)."""
        o = self.options
        return again(self.record, o.variant, dict(o.rules), o.insert_passes)

    def result(self) -> RecordResult:
        """The record's result as far as it has been worked out (:class:`RecordResult`)."""
        if self.problem is not None:
            return RecordResult(self.label, self.problem)
        return RecordResult(self.label, None, game_results(self.replays, self.analyses, self.options.lines,
                                                           self.triages, self.draw_lucks, self.scales))

    def data(self) -> dict:
        """The plain result: ``{"source", "error", "games": [...]}`` (:meth:`result`, written)."""
        return to_data(self.result())


def read_text(label: str, text: str, options: Options) -> RecordRun:
    """Parse ``text`` and replay its games under ``options`` (the one parse and replay of a record); a
    failure of the analyser there is that record's ``internal-error`` (a run without a record), never the
    caller's: every command and the board go on to the next record."""
    start = time.process_time()
    try:
        record = parse(text, label)
        replays = replay_record(record, options.variant, rules=dict(options.rules),
                                insert_passes=options.insert_passes)
    except Exception as exc:  # a bug on one record must not end the run over an archive
        return RecordRun(label, options, problem=_internal(label, exc))
    return RecordRun(label, options, record, replays, text=text, read_cpu=time.process_time() - start)


def read(label: str, data: bytes | None, options: Options, problem: Diagnostic | None = None) -> RecordRun:
    """A record file's bytes, decoded, parsed and replayed; ``problem`` (or bytes that are not text)
    gives a run without a record that says why."""
    text = None
    if problem is None:
        text, problem = decode(data, label)
    if problem is not None:
        return RecordRun(label, options, problem=problem)
    return read_text(label, text, options)


def analyse_game(rep, options: Options, progress=None, searches: dict | None = None, sheet=None):
    """The analysis of one replayed game under ``options`` (:attr:`Options.analysis`: its thresholds, ``lines``,
    ``max_nodes`` and ``table_mb``); one the search cannot take says why instead of raising. ``searches``: the
    searches to value it with, by view (``analysis.searches_for``; default: made for it). A valid game whose record
    does not write every hand (a sheet) is analysed over the deals it allows (``analysis.sheets.sheet_analyze``:
    at most ``max_deals``, drawn with ``fair_seed``; ``sheet``, an ``analysis.settings.FairRun``: the processes that
    analyse them and the progress)."""
    from .analysis import GameAnalysis, analyze_replay      # (start-up: validate needs no analysis)
    from .inference.sheet import is_sheet

    if is_sheet(rep) and rep.valid and len(rep.players) == rep.variant.players:
        from .analysis.settings import FairRun
        from .analysis.sheets import sheet_analyze

        from .analysis.dealreasons import REASONS_SHARE, sheet_reasons

        try:
            # (its reasons read over its deals: a sheet has no one line to read them off; one that allows one deal
            # is that deal's record, with its open-hands reasons)
            analysis = sheet_analyze(rep, options.analysis, max_deals=options.max_deals, seed=options.fair_seed,
                                     run=sheet or FairRun(), seconds=options.values_seconds)
            seconds = None if options.values_seconds is None else options.values_seconds * REASONS_SHARE
            return sheet_reasons(rep, analysis, options.budget, seed=options.fair_seed, seconds=seconds)
        except ValueError as exc:
            return GameAnalysis(rep.title, rep.players, (), stopped=f"the analysis could not run: {exc}")
    try:
        return analyze_replay(rep, options.analysis, progress, searches)
    except ValueError as exc:      # a position the search cannot take (SolverError)
        return GameAnalysis(rep.title, rep.players, (), stopped=f"the analysis could not run: {exc}")


def analyse(run: RecordRun, progress: Callable[[int], None] | None = None, sheet=None) -> RecordRun:
    """The open-hands analysis of every game (``progress(moves)`` as moves are valued; a sheet's deals analysed as
    ``sheet`` says, a :func:`sheet_run`: default in this process alone). On the match scale,
    a game whose grading reads its principal variations' results (:func:`results_wanted`) has them played
    out at once by the search that valued it, whose tables hold its positions (``run.results``); with
    ``luck_each``, a game of individual players has its deal played out by the hand model's policy so too, which
    its players' deal luck is measured by (``run.policy``)."""
    o = run.options
    wanted = results_wanted(run.replays) if o.scale == "match" else [False] * len(run.replays)
    run.analyses, run.results, run.policy = [], [None] * len(run.replays), [None] * len(run.replays)
    for k, rep in enumerate(run.replays):
        each = o.scale == "match" and o.luck_each and rep.variant.seating.sides > 2 and not any(rep.initial.hidden)
        searches = None
        if wanted[k] or each:
            from .analysis import searches_for
            searches = searches_for(rep.variant, o.max_nodes, o.table_mb)
        # (by default one worker for a sheet's deals: here is perhaps a worker of a pool already)
        analysis = analyse_game(rep, o, progress, searches, sheet or sheet_run(1))
        run.analyses.append(analysis)
        if searches is not None and analysis.values:
            from .analysis.outcomes import policy_result, principal_results
            if wanted[k]:
                run.results[k] = principal_results(rep, analysis, SearchBudget(o.max_nodes, o.table_mb),
                                                   searches=searches, played=o.mode == "report")
            if each:
                run.policy[k] = policy_result(rep, SearchBudget(o.max_nodes, o.table_mb), searches=searches)
    return run


def sheet_run(workers: int | None = None, pool=None, progress=None):
    """How a sheet without hands is analysed over its deals (``analysis.sheets.sheet_analyze``), or judged over the
    hands it allows (``sheet_fair``): in ``workers`` processes made by ``pool`` (None: the default), as a
    ``FairRun``."""
    from .analysis.settings import FairRun

    return FairRun(workers, progress=progress) if pool is None else FairRun(workers, pool, progress)


def results_wanted(replays: list) -> list[bool]:
    """Per game of a record, whether its grading on the match scale will read its principal variations'
    results (``analysis.outcomes``): both sides may score in its hand, a match position before it is known
    and not over, and its variant's table can be read so."""
    from .analysis.match_scale import match_positions, why_not
    from .analysis.outcomes import needs_results

    return [needs_results(rep.variant) and position is not None and leader is not None
            and not position.state.over and why_not(rep.variant, results=True) is None
            and not any(rep.initial.hidden)         # (a line played out needs every hand: a sheet has none)
            for rep, (position, leader, _) in zip(replays, match_positions(replays))]


@dataclass(frozen=True)
class GameProgress:
    """What :func:`judge_fairly`'s ``bar(number)`` gives in a ``with``, for one game: ``deals(done, total)`` as its
    deals are solved (a sheet's, then the hands judged), and ``exact(step, number, count, seconds)`` as each decision
    valued exactly under hidden information begins (``FairRun.exact``); None: not told."""

    deals: Callable[[int, int], None] | None = None
    exact: Callable[[int, int, int, float], None] | None = None


def judge_fairly(run: RecordRun, *, seats=(), every_deal: bool = False, workers: int = 1, pool=None,
                 bar: Callable[[int], ContextManager] | None = None) -> RecordRun:
    """The fair analysis of every game, added to its open-hands analysis (made here, game by game,
    when the run has none yet): the one loop of ``analyze --fair`` and of the executors' ``--fair``
    (``stats``, ``report``). ``run.judged`` counts the games done (a failure leaves those before it).

    ``seats`` (default ``options.fair_seats``); ``every_deal``: also the games whose deal has errors
    (their analysis then says why it has no fair part; ``analyze --fair``), else those keep their
    open-hands analysis alone. Its worlds in ``workers`` processes made by ``pool`` (see
    :func:`~analyzer.analysis.fair.fair_analyze`); ``bar(number)`` gives, for game ``number`` (from
    1), a context whose value is its :class:`GameProgress`."""
    from .analysis.fair import GROWTH, FairThresholds, fair_analyze    # (start-up: validate and replay need none of it)
    from .analysis.dealreasons import fair_reasons
    from .analysis.settings import FairSettings
    from .inference.sheet import is_sheet

    o = run.options
    fresh = run.analyses is None
    if fresh:
        run.analyses = [None] * len(run.replays)
    worlds = fair_worlds(run)
    settings = FairSettings(worlds=worlds, seed=o.fair_seed, exact_below=o.fair_exact_below,
                            seats=tuple(seats or o.fair_seats), thresholds=FairThresholds(o.limits), budget=o.budget,
                            exact_hidden=o.fair_exact_hidden and o.scale != "match", exact_hand=o.fair_exact_hand,
                            exact_seconds=o.fair_exact_seconds, exact_memory=o.fair_exact_memory,
                            max_worlds=GROWTH * worlds if o.fair_max_worlds is None else o.fair_max_worlds)
    how = sheet_run(workers, pool)
    run.judged = 0
    wanted = results_wanted(run.replays) if o.scale == "match" else [False] * len(run.replays)
    every_game = fair_every_game(o)
    for k, rep in enumerate(run.replays):
        analysis = None if fresh else run.analyses[k]
        if (analysis is None and is_sheet(rep)) or (analysis is not None and analysis.deals is not None):
            # a sheet: its deals' values, then judged in every hand it allows (where its deals are found)
            analysis = _judge_sheet(run, k, settings, how, bar, analysis)
            if analysis.deals is not None:
                run.analyses[k] = analysis
                run.judged = k + 1
                continue
        if analysis is None:
            analysis = analyse_game(rep, o)
        if (every_deal or rep.deal_ok) and analysis is not None and (every_game or any(rep.initial.hidden)):
            with (bar(k + 1) if bar is not None else nullcontext(GameProgress())) as told:    # (results: each
                analysis = fair_analyze(rep, analysis, settings=replace(settings, results=wanted[k]),  # world's,
                                        run=replace(how, progress=told.deals, exact=told.exact))   # for the scale)
            # why each move the fair verdict grades lost, over the deals its player could not rule out
            analysis = fair_reasons(rep, analysis, o.budget, seed=o.fair_seed)
        run.analyses[k] = analysis
        run.judged = k + 1
    return run


def _judge_sheet(run: RecordRun, k: int, settings, how, bar, analysis=None):
    """Game ``k`` of ``run``, a sheet without hands: its values over the deals it allows (unless ``analysis``
    has them), then its fair verdicts over the hands each player may have held (``analysis.sheets``), under the
    fair ``settings`` (``FairSettings``), in the processes ``how`` says (``FairRun``); the bar of game ``k + 1``
    counts the deals analysed, then the hands judged."""
    from .analysis.sheets import sheet_fair

    o, rep = run.options, run.replays[k]
    most = o.fair_hands * len(rep.players)          # the most hands judged: the bar's length only shrinks
    with (bar(k + 1) if bar is not None else nullcontext(GameProgress())) as told:
        progress = told.deals
        dealt = [0]

        def deals(done: int, total: int) -> None:
            dealt[0] = total
            progress(done, total + most)

        def hands(done: int, total: int) -> None:
            progress(dealt[0] + done, dealt[0] + total)

        if analysis is None:
            analysis = analyse_game(rep, o, sheet=replace(how, progress=deals if progress else None))
        if analysis.deals is None:          # no deal fits, or not a sheet the deals are found for: as before
            return analysis
        return sheet_fair(rep, analysis, settings, replace(how, progress=hands if progress else None), o.fair_hands,
                          o.fair_seconds)


def fair_worlds(run: RecordRun) -> int:
    """The one choice of whether a record gets the fair analysis, for every command: the deals a decision
    starts with (``Options.fair_worlds``: ``--fair``), else for a record with hidden hands, where the options
    ask for it (``fair_hidden``: ``analyze``, ``report``), the default (``analysis.fair.WORLDS``); 0: none."""
    if run.options.fair_worlds:
        return run.options.fair_worlds
    if run.options.fair_hidden and run.partial and run.options.mode != "validate":
        from .analysis.fair import WORLDS

        return WORLDS
    return 0


def fair_every_game(options: Options) -> bool:
    """Whether every game of a record judged fairly gets the fair analysis (``--fair``), or only those with a
    hand not known (the fair analysis asked for by those hands: ``report`` without ``--fair``, ``analyze`` of
    records with hidden hands), the others keeping their exact values with every hand open."""
    return bool(options.fair_worlds) and not options.fair_hidden_only


def triage(run: RecordRun) -> RecordRun:
    """Mark every error of an invalid game as its likely slip or a follow-on: by the bounded repair
    search, or with ``options.repair_edits`` by the full one (whose reports are kept)."""
    o = run.options
    if not o.repair_edits and all(rep.valid for rep in run.replays):
        run.triages, run.reports = [None] * len(run.replays), {}      # nothing to triage: no repair loaded
        return run
    from .repair.triage import search_slips, triage_games      # (start-up: a valid record needs no repair)

    def full_search(rep):          # validate --repair: the full search, with the edits asked for
        return search_slips(rep, max_edits=o.repair_edits, limit=5, max_nodes=None)

    search = full_search if o.repair_edits else None
    run.triages, run.reports = triage_games(run.replays, run.again(), search=search,
                                            read_cpu=None if o.repair_edits else run.read_cpu)
    return run


def repairs_analysed(run: RecordRun, analyse: bool = True) -> RecordRun:
    """What a record's page shows of its invalid games: each one's errors triaged (its likely slip) and
    its likeliest repair analysed as the record's games are (with the lines; fair where the record is
    judged fairly: ``fair_worlds``), in ``run.repaired`` (``analyse`` False: triaged only)."""
    triage(run)
    run.repaired = [None] * len(run.replays)
    fixed = [(k, t.best.replay) for k, t in enumerate(run.triages)
             if analyse and t is not None and t.best is not None and t.best.replay is not None]
    if not fixed:
        return run
    o = run.options
    copy = RecordRun(run.label, o, run.record, [rep for _, rep in fixed])
    copy.analyses = [analyse_game(rep, replace(o, lines=True)) for _, rep in fixed]
    if fair_worlds(run):
        copy.options = replace(o, fair_worlds=fair_worlds(run), fair_hidden_only=not fair_every_game(o))
        judge_fairly(copy)
    copy.analyses = mover_views(copy.analyses)
    for (k, _), analysis in zip(fixed, copy.analyses):
        run.repaired[k] = analysis
    return run


def mover_views(analyses: list) -> list:
    """For a page: ``analyses``, each fair decision given its mover's view of who holds what, from the worlds
    its fair analysis counted (``FairDecision.holds``: ``inference.holds_of``); none where they are not kept
    (an analysis read back from its data) or admit no view. The analyses given are left as they were."""
    from .analysis import renewed
    from .inference import InferenceUnsupported, NoWorld, holds_of

    def viewed(d):
        fair = d.fair
        if fair is not None and getattr(fair, "seen", None) is not None and getattr(fair, "holds", None) is None:
            try:
                return replace(d, fair=replace(fair, holds=holds_of(fair.seen)))
            except (NoWorld, InferenceUnsupported):
                pass
        return d

    out = []
    for analysis in analyses:
        if analysis is None:
            out.append(None)
            continue
        new = {id(d): viewed(d) for d in analysis.decisions}
        out.append(replace(analysis, decisions=tuple(new[id(d)] for d in analysis.decisions),
                           critical=renewed(analysis.critical, new), fair_critical=renewed(analysis.fair_critical, new)))
    return out


def repaired_text(run: RecordRun) -> tuple[str | None, int]:
    """The record with each game searched replaced by its best repair, as text, and how many games
    were repaired (``None, 0``: none could be)."""
    games = list(run.record.games) if run.record is not None else []
    repaired = 0
    for k, report in run.reports.items():
        if report.best is not None and k < len(games):
            games[k] = report.best.game
            repaired += 1
    if not repaired:
        return None, 0
    if run.text is not None:            # the source as written, but for what the repairs change
        return rewrite(run.text, run.record, games), repaired
    return write(replace(run.record, games=games)), repaired


def grade_on_match_scale(run: RecordRun) -> tuple[list, list]:
    """``analyze --scale match``: each analysed game of ``run`` graded by the match-winning chance
    (``analysis.match_scale``), from the match position its record gives, with the luck of its deal: per game
    its ``MatchScale`` (or None), and its draws' luck (``run.draw_lucks``, :func:`value_draws`) with their MWC
    where the match position is known. Changes nothing of ``run``: the caller keeps both (the page shows them)
    and the plain data is written from them (:func:`games_data`)."""
    from .analysis.luck import LedHand, deal_luck, first_hand  # (the match-winning-chance tables: loaded when asked)
    from .analysis.drawluck import match_chance, with_match
    from .analysis.match_scale import match_positions, match_scale
    from .analysis.outcomes import principal_results

    scales = [None] * len(run.replays)
    draws = list(run.draw_lucks or [None] * len(run.replays))
    wanted = results_wanted(run.replays)
    for k, (rep, analysis, before) in enumerate(zip(run.replays, run.analyses, match_positions(run.replays))):
        if analysis is None:
            continue
        position, leader, _ = before
        results = run.results[k] if run.results else None
        if results is None and wanted[k] and analysis.values:        # (else never read)
            results = principal_results(rep, analysis, SearchBudget(run.options.max_nodes, run.options.table_mb),
                                        played=run.options.mode == "report")
        scale = match_scale(analysis, rep.variant, before, results)
        if leader is not None:
            each = _each_luck(run, k, position if scale.known else None, leader)
            if each is not None:
                scale = replace(scale, luck_each=each, luck=each[0])
            elif rep.variant.seating.sides == 2:
                line = results.line[0] if results is not None and results.line else None
                hand = LedHand(leader, first_hand(rep), rep.result)
                scale = replace(scale, luck=deal_luck(analysis, rep.variant, hand, position if scale.known else None,
                                                      line))
        lucks = draws[k]
        chance = match_chance(rep.variant, position, leader) if lucks and scale.known and leader is not None else None
        if chance is not None:
            draws[k] = with_match(lucks, chance)
        scales[k] = scale
    return scales, draws


def _each_luck(run: RecordRun, k: int, position, leader: int) -> list | None:
    """Each player's deal luck in game ``k`` of ``run``, a game of individual players whose deal was played out
    by the hand model's policy (``run.policy``: ``Options.luck_each``), from the match ``position`` before it
    (None: in points only); None for any other game."""
    from .analysis.luck import LedHand, deal_luck, first_hand

    result = (run.policy or [None] * len(run.replays))[k]
    if result is None:
        return None
    rep = run.replays[k]
    hand = LedHand(leader, first_hand(rep), rep.result)
    return [deal_luck(run.analyses[k], rep.variant, hand, position, result, seat)
            for seat in range(rep.variant.players)]


def value_draws(run: RecordRun) -> list:
    """The luck of each tile drawn (``analysis.drawluck``) in the analysed games of ``run`` whose every hand is
    known: per game its draws' lucks (None: none valued). Changes nothing of ``run``: the caller keeps them
    (``run.draw_lucks``, which the page shows) and the plain data is written from them (:func:`games_data`)."""
    from .analysis.drawluck import draw_lucks     # (start-up: validate needs no search)

    o = run.options
    out = [None] * len(run.replays)
    for k, (rep, analysis) in enumerate(zip(run.replays, run.analyses)):
        if analysis is not None and analysis.values:
            out[k] = draw_lucks(rep, o.max_nodes, o.table_mb) or None
    return out


def extras(run: RecordRun, games: int | None = None) -> RecordRun:
    """The steps after the analysis of ``run`` (its first ``games`` games; default every one): the luck of its
    draws (:func:`value_draws`), then on the match scale (``--scale match``) its grading
    (:func:`grade_on_match_scale`), kept in ``run.draw_lucks`` and ``run.scales`` for the page and the plain data."""
    if run.analyses is None:
        return run
    shown = run if games is None else replace(run, replays=run.replays[:games], analyses=run.analyses[:games])
    lucks = value_draws(shown)
    run.draw_lucks = lucks + [None] * (len(run.replays) - len(lucks))
    if run.options.scale == "match":
        shown = replace(shown, draw_lucks=run.draw_lucks[:len(shown.replays)])
        scales, lucks = grade_on_match_scale(shown)
        run.scales = scales + [None] * (len(run.replays) - len(scales))
        run.draw_lucks = lucks + [None] * (len(run.replays) - len(lucks))
    return run


def _in_moves(moves: int, progress):
    """A fair analysis's ``progress(worlds done, worlds in all)`` as ``progress(moves)``: its game's
    ``moves`` once more, in step with the worlds (a bar counts a record's moves twice with ``--fair``:
    the open-hands analysis, then the worlds). None without ``progress``."""
    if progress is None:
        return None
    given = [0]

    def step(done: int, total: int) -> None:
        now = moves * done // max(total, 1)
        if now > given[0]:
            progress(now - given[0])
            given[0] = now
    return step


def run_record(run: RecordRun, progress: Callable[[int], None] | None = None, *,
               exact: Callable[[int | None, int, int, int, float], None] | None = None) -> dict:
    """Do with a record read what its options ask, as plain data (see :func:`process`): ``progress(moves)`` as moves
    are analysed, and ``exact(game, step, number, count, seconds)`` as each decision valued exactly under hidden
    information begins (``GameProgress.exact``; ``game``: its number, None in a record of one game)."""
    o = run.options
    if run.problem is not None:
        return run.data()
    if o.mode != "validate":
        analyse(run, progress)
        if fair_worlds(run):
            def bar(number: int):
                told = None if exact is None else partial(exact, number if len(run.replays) > 1 else None)
                return nullcontext(GameProgress(_in_moves(len(run.replays[number - 1].steps), progress), told))
            judge_fairly(run, bar=bar)
    if o.mode == "validate" and (o.triage or o.repair_edits):
        triage(run)
    if o.mode != "validate":
        extras(run)
    out = run.result()
    if o.mode == "report":
        repairs_analysed(run)
        if run.analyses:
            run.analyses = mover_views(run.analyses)
    if o.repair_edits:
        out = replace(out, repairs_found=[None if k not in run.reports else {"report": run.reports[k].as_dict()}
                                          for k in range(len(run.replays))])
    if o.write_repaired:
        text, games = repaired_text(run)
        out = replace(out, repaired={"text": text, "games": games})
    return to_data(out)


def process(label: str, data: bytes, options: Options, progress: Callable[[int], None] | None = None) -> dict:
    """The task: read, replay and (by ``options.mode``) analyse one record file, as plain data.

    ``{"source", "error", "games": [...], "page"?, "repairs_found"?, "repaired"?}``; ``error`` is set
    when the file is not a text record at all. A failure of the analyser itself on one record is
    returned as an ``internal-error`` for that record, so that the rest of an archive is still done."""
    with use(options.language):             # (a worker process too: the words in the language the options name)
        return safely(label, lambda: run_record(read(label, data, options), progress))


def safely(label: str, work: Callable[[], dict]) -> dict:
    """``work()``, the result of the record ``label``; a failure of the analyser on it (a bug, a
    worker of its fair analysis that died) is that record's ``internal-error`` result instead."""
    try:
        return work()
    except Exception as exc:  # a bug on one record must not end the run over an archive
        try:
            from concurrent.futures.process import BrokenProcessPool     # (start-up: validate starts no pool)
        except ImportError:         # a Python without processes (Pyodide in the browser): no worker to die
            BrokenProcessPool = ()
        if BrokenProcessPool and isinstance(exc, BrokenProcessPool):      # a worker died (out of memory, a crash): this record only
            return worker_died(label)
        return internal_error(label, exc)


class UnknownView(DominoError):
    """``replay --view NAME``: NAME is neither a player of the game nor ``public``."""


def view_inference(rep, view: str, several: bool = False) -> dict:
    """What ``view`` (a player's name, or ``public``) can infer after each move of a replayed game:
    ``{"view", "steps": [{"seen", "worlds", "holds"}], "stopped"?}``. A name not of the game raises
    :class:`UnknownView`; among ``several`` games the game says so instead."""
    from .inference import InferenceUnsupported, NoWorld, holds_table    # (replay --view only)

    if view.lower() == "public":
        seat, name = None, "public"
    elif view in rep.players:
        seat, name = rep.players.index(view), view
    elif several:
        return {"view": view, "steps": [], "stopped": f"{view} is not a player of this game ({', '.join(rep.players)})"}
    else:
        raise UnknownView(f"{view!r} is not a player of this game ({', '.join(rep.players)}) nor 'public'")
    out: dict = {"view": name, "steps": []}
    try:
        for seen in range(rep.legal_prefix + 1):
            count, holds = holds_table(rep, seen, seat)
            # (``worlds``: ``deals`` under its former name, deprecated, gone in the next version: docs/glossary.md)
            out["steps"].append({"seen": seen, "deals": count, "holds": holds, "worlds": count})
    except (NoWorld, InferenceUnsupported) as exc:
        out["stopped"] = str(exc)
    if rep.legal_prefix < len(rep.steps) and "stopped" not in out:
        out["stopped"] = f"the record breaks the rules at move {rep.legal_prefix + 1}"
    return out


def again(record, variant=None, rules: dict[str, str] | None = None, insert_passes: bool = False):
    """How the games of ``record`` are replayed again with some of them repaired (a match's later
    games depend on the earlier ones): as ``replay_record`` replayed them."""
    return lambda games: replay_record(replace(record, games=games), variant, rules=rules,
                                       insert_passes=insert_passes)


# ---- plain data -----------------------------------------------------------------------------------

def games_data(replays, analyses=None, lines: bool = False, triages=None, draw_lucks=None, scales=None) -> list[dict]:
    """Each replayed game (and its analysis, if any) as the plain data of a result (:func:`game_results`,
    written)."""
    return to_data(game_results(replays, analyses, lines, triages, draw_lucks, scales))


def game_results(replays, analyses=None, lines: bool = False, triages=None, draw_lucks=None,
                 scales=None) -> tuple[GameResult, ...]:
    """Each replayed game (and its analysis, if any) as a :class:`GameResult`, composed from the results of each
    step, none of which is changed here.

    ``triages``: per game, its :class:`~analyzer.repair.triage.Triage` (None for a valid game): its
    errors are marked primary or follow-on, and ``repairs`` and ``likely`` say what was found. ``draw_lucks``,
    ``scales``: per game the luck of its draws (:func:`value_draws`) and its grading on the match scale
    (:func:`grade_on_match_scale`), or None."""
    out = []
    none = [None] * len(replays)
    for rep, analysis, t, lucks, scale in zip(replays, analyses or none, triages or none, draw_lucks or none,
                                              scales or none):
        diagnostics, repairs, likely = rep.diagnostics, None, None
        if t is not None:
            diagnostics = t.diagnostics
            if t.report is not None:
                repairs, likely = tuple(t.report.repairs), t.likely or None
        out.append(GameResult(
            rep.title, rep.game.tags.get("Event"), list(rep.players), rep.variant.name, rep.valid, len(rep.errors),
            tuple(diagnostics), rep.result_dict(), result_text(rep), len(rep.steps), _errors_by_player(rep),
            None if analysis is None else ScoredAnalysis(analysis, lines, tuple(rep.steps), lucks, scale),
            repairs, likely, possible_results(rep), rep.game.tags.get("Date")))
    return tuple(out)


def validation_json(result: dict, reports: dict[int, dict]) -> list[dict]:
    """The entries of ``validate --json`` for one record; ``reports``: the repair report (as data) of
    each game searched by ``--repair``, by index."""
    if result["error"]:
        return [{"file": result["source"], "title": None, "valid": False, "diagnostics": [result["error"]],
                 "result": None}]
    out = []
    for k, game in enumerate(result["games"]):
        entry = {"file": result["source"], "title": game["title"], "valid": game["valid"],
                 "diagnostics": game["diagnostics"], "result": game["result"]}
        entry.update({key: game[key] for key in ("repairs", "likely", "possible") if key in game})
        if k in reports:
            data = dict(reports[k])
            entry["repairs"] = data.pop("repairs")
            entry["repair"] = data
        out.append(entry)
    return out


def analysis_data(analysis, lines: bool = False, steps=(), draw_lucks=None, scale=None) -> dict:
    """A game's analysis as plain data (``codec.to_data``), with its best lines (``lines``), composed with the luck
    of its draws (``draw_lucks``, the draws of ``steps``: ``"draw_luck"``) and its grading on the match scale
    (``scale``: ``"mwc"``, ``"mwc_loss"``, ``"mwc_class"``, ``"match_scale"``): :func:`scored_analysis`."""
    return to_data(scored_analysis(analysis, steps, draw_lucks, scale), lines=lines)


def scored_analysis(analysis, steps=(), draw_lucks=None, scale=None):
    """A game's analysis (``analysis.GameAnalysis``) composed with the luck of its draws (``draw_lucks``, the draws
    of ``steps``: ``drawluck.with_luck``) and its grading on the match scale (``scale``: ``MatchScale.applied``), a
    new value; the analysis given is left as it was."""
    if draw_lucks:
        from .analysis.drawluck import with_luck

        analysis = with_luck(analysis, draw_lucks, steps)
    if scale is not None:
        analysis = scale.applied(analysis)
    return analysis


def analyze_entry(source: str, game: dict, analysis: dict | None = None) -> dict:
    """The entry of ``analyze --json`` for one game (``game``: its plain data, :func:`games_data`): the one
    builder of it, for the command line, the board and the archive runner. ``analysis``: the analysis's data
    to give instead of the game's own (the board's, with its verdicts' words)."""
    return {"file": source, **(game["analysis"] if analysis is None else analysis), "valid": game["valid"],
            "diagnostics": game["diagnostics"]}


def _errors_by_player(rep) -> dict[str, int]:
    """The errors found on each player's own moves (a transcription's errors, by whose move it was)."""
    out = {name: 0 for name in rep.players}
    for step in rep.steps:
        errors = sum(d.severity == Severity.ERROR for d in step.diagnostics)
        if errors and step.entry.player in out:
            out[step.entry.player] += errors
    return out


def check_rules(rules: dict[str, str]) -> None:
    """Raise the variant error of a ``--rule`` that no variant can take (an unknown key, or a value
    that every variant with that key refuses); a rule some variant takes is checked per record."""
    for option, value in rules.items():
        specs = [(family.name, spec) for family in FAMILIES.values() for spec in family.options
                 if spec.key == normalise(option)]
        if not specs:
            raise UnknownOption(gettext("{rule}: no variant has an option {option} (see `domino variants`)",
                                        rule=f"--rule {option}={value}", option=repr(option)))
        errors = []
        for name, spec in specs:
            try:
                spec.parse(value, name)
                break
            except BadOptionValue as exc:
                errors.append(str(exc))
        else:
            raise BadOptionValue(f"--rule {option}={value}: {errors[0]}")
