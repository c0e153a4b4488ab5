"""Run the work on every record of an archive: here, in a pool of processes, or on a Dask cluster.

One task function, :func:`process`, takes a record's bytes and the :class:`Options` and returns
plain data (JSON-able dicts), so the same task runs in this process, in a worker of a
``concurrent.futures.ProcessPoolExecutor`` or on a ``dask.distributed`` worker on another machine
(which needs no access to the files: the bytes travel with the task). :func:`run` yields the results
in the order of the inputs, each as soon as it and every one before it are done; with a
:class:`~analyzer.archive.cache.Cache` a record whose bytes and options are unchanged is not redone."""
from __future__ import annotations

import json
import os
import re
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from typing import Callable, Iterable, Iterator

from ..diagnostics import Diagnostic
from ..search.core import TABLE_MB
from .cache import Cache
from .inputs import RecordFile, Source, decode

__all__ = ["Options", "MODES", "process", "run", "games_data", "estimate_moves", "analyse_game", "report_model",
           "record_problem", "check_rules", "ClusterUnavailable", "LOST", "worker_died", "worker_pool", "progress_share"]

MODES = ("validate", "analyze", "report")
LOST = "cluster-lost"   # the code of a record not worked out: the cluster was lost (``cluster.cluster_lost``)


class ClusterUnavailable(RuntimeError):
    """``dask.distributed`` is not installed, or the scheduler cannot be reached."""


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
    fair_exact_below: int = 1000            # enumerate every deal of a decision when there are at most this many
    fair_seats: tuple[str, ...] = ()        # the players to judge (default: every one whose hand is known)
    triage: bool = True                     # validate: mark each error as the slip or a follow-on (a bounded search)

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}, not {self.mode!r}")
        # one size, one key: 128 (the default) and 128.0 (--table-mb, a float option) are the same table
        object.__setattr__(self, "table_mb", float(self.table_mb))

    def key(self) -> str:
        """A stable text of the options, for the cache key."""
        return json.dumps(asdict(self), sort_keys=True)


def _diag_data(diag: Diagnostic) -> dict:
    return {**diag.as_dict(), "text": str(diag)}


def record_problem(label: str, diag: Diagnostic) -> dict:
    """The result of a record that could not be read at all."""
    return {"source": label, "error": _diag_data(diag), "games": []}


def process(label: str, data: bytes, options: Options, progress: Callable[[int], None] | None = None) -> dict:
    """The task: read, replay and (by ``options.mode``) analyse one record file, as plain data.

    ``{"source", "error", "games": [...], "page"?}``; ``error`` is set when the file is not a text
    record at all. A failure of the analyser itself on one record is returned as an
    ``internal-error`` for that record, so that the rest of an archive is still done."""
    try:
        return _process(label, data, options, progress)
    except Exception as exc:  # a bug on one record must not end the run over an archive
        return record_problem(label, Diagnostic("error", "internal-error",
                                                f"the analyser failed on this record ({type(exc).__name__}: "
                                                f"{exc}); please report it", source=label))


def _process(label: str, data: bytes, options: Options, progress) -> dict:
    from ..analysis import Thresholds
    from ..match import replay_record
    from ..notation import parse
    text, problem = decode(data, label)
    if problem is not None:
        return record_problem(label, problem)
    thresholds = Thresholds.parse(options.thresholds)
    record = parse(text, label)
    replays = replay_record(record, options.variant, rules=dict(options.rules), insert_passes=options.insert_passes)
    replay_again = again(record, options.variant, dict(options.rules), options.insert_passes)
    analyses = [None] * len(replays)
    if options.mode != "validate":
        analyses = [analyse_game(rep, thresholds, options.lines, options.max_nodes, progress, options.table_mb)
                    for rep in replays]
    if options.fair_worlds and options.mode != "validate":
        from ..analysis.fair import FairThresholds, fair_analyze

        analyses = [fair_analyze(rep, analysis, worlds=options.fair_worlds, seed=options.fair_seed,
                                 exact_below=options.fair_exact_below, seats=options.fair_seats,
                                 thresholds=FairThresholds(thresholds), workers=1, node_limit=options.max_nodes,
                                 table_mb=options.table_mb, progress=_in_moves(len(rep.steps), progress))
                    if rep.deal_ok and analysis is not None else analysis for rep, analysis in zip(replays, analyses)]
    triages = None
    if options.mode == "validate" and options.triage:
        from ..repair.triage import triage_games

        triages, _ = triage_games(replays, replay_again)
    games = games_data(replays, analyses, options.lines, triages)
    out = {"source": label, "error": None, "games": games}
    if options.mode == "report":
        from ..report import render_html

        out["page"] = render_html(page_model(label, replays, analyses, thresholds, options.max_nodes,
                                                 table_mb=options.table_mb, again=replay_again))
    return out


def report_model(record, variant=None, thresholds=None, analyse: bool = True, rules: dict[str, str] | None = None):
    """Replay (and analyse) every game of ``record`` and gather what its page shows."""
    from ..analysis import Thresholds
    from ..match import replay_record

    thresholds = thresholds or Thresholds()
    replays = replay_record(record, variant, rules=rules)
    analyses = [analyse_game(rep, thresholds) for rep in replays] if analyse else None
    return page_model(record.source, replays, analyses, thresholds, analyse=analyse,
                      again=again(record, variant, rules))


def again(record, variant=None, rules: dict[str, str] | None = None, insert_passes: bool = False):
    """How the games of ``record`` are replayed again with some of them repaired (a match's later
    games depend on the earlier ones): as ``replay_record`` replayed them."""
    from dataclasses import replace

    from ..match import replay_record

    return lambda games: replay_record(replace(record, games=games), variant, rules=rules,
                                       insert_passes=insert_passes)


def page_model(label, replays, analyses, thresholds, max_nodes: int | None = None, analyse: bool = True,
               table_mb: float = TABLE_MB, again=None):
    """What the page of a record shows: its games, and for each invalid one its likely slip (the
    errors marked as the slip and what follows from it) and the repaired record, analysed.
    ``again``: how the games are replayed with some repaired (see :func:`~analyzer.repair.triage.triage_games`)."""
    from ..repair.triage import triage_games
    from ..report import build_report

    triages, _ = triage_games(replays, again)
    repaired = [analyse_game(t.best.replay, thresholds, False, max_nodes, table_mb=table_mb)
                if analyse and t is not None and t.best is not None and t.best.replay is not None else None
                for t in triages]
    return build_report(label, replays, analyses, thresholds, triages, repaired)


def games_data(replays, analyses=None, lines: bool = False, triages=None) -> list[dict]:
    """Each replayed game (and its analysis, if any) as the plain data of a result.

    ``triages``: per game, its :class:`~analyzer.repair.triage.Triage` (None for a valid game): its
    errors are marked primary or follow-on, and ``repairs`` and ``likely`` say what was found."""
    from ..replay.json import result_text

    out = []
    for rep, analysis, t in zip(replays, analyses or [None] * len(replays), triages or [None] * len(replays)):
        diagnostics, found = rep.diagnostics, {}
        if t is not None:
            diagnostics = t.diagnostics
            if t.report is not None:
                found["repairs"] = [r.as_dict() for r in t.report.repairs]
                if t.likely:
                    found["likely"] = t.likely
        out.append({
            "title": rep.title, "event": rep.game.tags.get("Event"), "players": list(rep.players),
            "variant": rep.variant.name, "valid": rep.valid, "errors": len(rep.errors),
            "diagnostics": [_diag_data(d) for d in diagnostics],
            "result": rep.result_dict(), "result_text": result_text(rep),
            "moves": len(rep.steps), "errors_by_player": _errors_by_player(rep),
            "analysis": None if analysis is None else _analysis_data(analysis, lines),
            **found,
        })
    return out


# lines that hold no move: a tag ([Event "..."]), a hand ("A: [0-5] ...", "Spieler A:"), a row of dealt tiles
_NO_MOVES = re.compile(r"^\s*(\[\w+\s+\"|\S+(\s\S+)?:|(\[[^\]]*\]\s*)+$)")
_MOVE = re.compile(r"\[[^\]\s\"]*\]|\bpass(t)?\b|----|\bmuggins\b|\bdraws?\s+\?", re.I)


def estimate_moves(source: Source) -> int:
    """About how many moves a record holds, from its text alone (for a progress bar's length;
    parsing every record first would cost more than the bar is worth). 0 when it cannot be read."""
    source = source.read()
    if not source.readable:
        return 0
    text = re.sub(r"\{[^}]*\}", "", source.data.decode("utf-8", errors="ignore"))
    return sum(len(_MOVE.findall(line)) for line in text.splitlines() if not _NO_MOVES.match(line))


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


def analyse_game(rep, thresholds, lines: bool = False, node_limit: int | None = None, progress=None,
                 table_mb: float = TABLE_MB):
    """The analysis of one replayed game; one the search cannot take says why instead of raising."""
    from ..analysis import GameAnalysis, analyze_replay

    try:
        return analyze_replay(rep, thresholds, lines, node_limit=node_limit, progress=progress, table_mb=table_mb)
    except ValueError as exc:      # a position the search cannot take (SolverError)
        out = GameAnalysis(rep.title, list(rep.players), [])
        out.stopped = f"the analysis could not run: {exc}"
        return out


def _analysis_data(analysis, lines: bool) -> dict:
    data = analysis.as_dict()
    if lines:
        data["lines"] = analysis.lines
    return data


def _errors_by_player(rep) -> dict[str, int]:
    """The errors found on each player's own moves (a transcription's errors, by whose move it was)."""
    out = {name: 0 for name in rep.players}
    for step in rep.steps:
        errors = sum(d.severity == "error" for d in step.diagnostics)
        if errors and step.entry.player in out:
            out[step.entry.player] += errors
    return out


def check_rules(rules: dict[str, str]) -> None:
    """Raise the variant error of a ``--rule`` that no variant can take (an unknown key, or a value
    that every variant with that key refuses); a rule some variant takes is checked per record."""
    from ..rules.options import BadOptionValue, UnknownOption, normalise
    from ..rules.variants import FAMILIES

    for key, value in rules.items():
        specs = [(family.name, spec) for family in FAMILIES.values() for spec in family.options
                 if spec.key == normalise(key)]
        if not specs:
            raise UnknownOption(f"--rule {key}={value}: no variant has an option {key!r} (see `domino variants`)")
        errors = []
        for name, spec in specs:
            try:
                spec.parse(value, name)
                break
            except BadOptionValue as exc:
                errors.append(str(exc))
        else:
            raise BadOptionValue(f"--rule {key}={value}: {errors[0]}")


# ---- running over many records ------------------------------------------------------------------

def run(sources: Iterable[Source | RecordFile], options: Options, *, jobs: int = 1, scheduler: str | None = None,
        cache: Cache | None = None, progress: Callable[[int, dict | None], None] | None = None,
        counts: dict | None = None) -> Iterator[dict]:
    """The result of every source, in input order, each as soon as it and those before are done.

    Each file is read when the work reaches it (at most a few records ahead of the results: the
    bytes of an archive are never all in memory). ``jobs`` > 1: a pool of that many processes;
    ``scheduler``: the address of a Dask scheduler (``tcp://host:8786``). ``progress(moves, result)``
    is called in this process: with ``result`` None for each move valued while a record is analysed
    here (``jobs`` 1), and with the result when a record is done (``moves``: the rest of its moves);
    with the fair analysis each move counts twice (:func:`progress_share`). ``counts`` (a dict)
    receives how many results were ``computed``, how many came from the ``cached`` and how many were
    ``lost`` with the cluster (:func:`cluster_lost`: not cached). A result the cache cannot store (a
    full disk) is not cached: see :meth:`Cache.put`."""
    counts = counts if counts is not None else {}
    counts.update(computed=0, cached=0, lost=0)
    share = progress_share(options)
    results: dict[int, dict] = {}
    keys: dict[int, str] = {}

    def todo() -> Iterator[tuple[int, Source]]:
        """The sources to work on, each read as it is asked for; the rest get their result here."""
        for i, source in enumerate(sources):
            source = source.read()
            if not source.readable:
                results[i] = record_problem(source.label, source.error)
            elif cache is not None and (hit := cache.get(key := Cache.key(source.data, options.key(),
                                                                          source.label))) is not None:
                results[i] = hit
                counts["cached"] += 1
            else:
                if cache is not None:
                    keys[i] = key
                yield i, source
                continue
            if progress is not None:
                progress(share * _moves(results[i]), results[i])

    def finished(i: int, result: dict, counted: int = 0) -> None:
        results[i] = result
        if result["error"] is not None and result["error"]["code"] == LOST:    # not worked out: not cached
            counts["lost"] += 1
            keys.pop(i, None)
        else:
            counts["computed"] += 1
            if cache is not None and i in keys:
                cache.put(keys.pop(i), result)
        if progress is not None:
            progress(max(0, share * _moves(result) - counted), result)

    if scheduler is not None:
        from .cluster import on_cluster
        done = on_cluster(scheduler, todo(), options)
    elif jobs > 1:
        done = _in_pool(jobs, todo(), options)
    else:
        done = _here(todo(), options, progress)
    following = [0]

    def ready() -> Iterator[dict]:
        while following[0] in results:
            yield results.pop(following[0])
            following[0] += 1
    for item in done:                   # None: a source was taken (results before it may be ready)
        if item is not None:
            finished(*item)
        yield from ready()
    yield from ready()


def progress_share(options: Options) -> int:
    """How many times ``run``'s progress counts each move of a record: twice with the fair analysis
    (the open-hands values, then the worlds), else once."""
    return 2 if options.fair_worlds and options.mode != "validate" else 1


def _moves(result: dict) -> int:
    return sum(g["moves"] for g in result["games"])


def _here(todo, options, progress):
    """The records of ``todo`` one after the other in this process, as ``(index, result, moves
    counted)``; None as each is taken."""
    for i, source in todo:
        yield None
        seen = [0]

        def step(n: int) -> None:
            seen[0] += n
            if progress is not None:
                progress(n, None)
        result = process(source.label, source.data, options, step if progress is not None else None)
        yield i, result, seen[0]


def _watch_parent(parent: int) -> None:
    """In a pool's worker: end it when the run that started it is gone (killed outright: the worker
    would otherwise wait forever on a queue that its siblings keep open)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(1)
    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def worker_pool(max_workers: int, mp_context=None) -> ProcessPoolExecutor:
    """A process pool whose workers end when the run that started it is killed (``--jobs``, and the
    worlds of ``analyze --fair --jobs``)."""
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=mp_context, initializer=_watch_parent,
                               initargs=(os.getpid(),))


def _in_pool(jobs, todo, options):
    """The records of ``todo`` in ``jobs`` processes, as ``(index, result, 0)`` as each is done (None
    as each is taken): ``jobs`` at a time, each read when a worker is free for it.

    A worker that dies (the out-of-memory killer, a crash in a compiled search) breaks the whole pool:
    only ``jobs`` records are in flight at a time, so those are the suspects; each is tried again
    alone, one that kills its worker again gets an ``internal-error`` result, and the rest of the
    archive goes on in a new pool."""
    todo = iter(todo)
    more = True
    while more:
        suspects: dict[int, Source] = {}
        with worker_pool(jobs) as pool:
            running: dict = {}
            try:
                while more or running:
                    while more and len(running) < jobs:
                        taken = next(todo, None)
                        if taken is None:
                            more = False
                            break
                        i, source = taken
                        running[pool.submit(process, source.label, source.data, options)] = (i, source)
                        yield None
                    if not running:
                        break
                    ready, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in ready:
                        i, source = running.pop(future)
                        try:
                            result = future.result()
                        except BrokenProcessPool:
                            suspects[i] = source
                            continue
                        yield i, result, 0
                    if suspects:
                        suspects.update(running.values())
                        running.clear()
                        break
            finally:
                for future in running:
                    future.cancel()
        for i in sorted(suspects):
            yield i, _alone(suspects[i], options), 0


def _alone(source: Source, options: Options) -> dict:
    """A record that was in flight when a worker died, worked out in a worker of its own."""
    with worker_pool(1) as pool:
        try:
            return pool.submit(process, source.label, source.data, options).result()
        except BrokenProcessPool:
            return worker_died(source.label)


def worker_died(label: str, where: str = "the worker process") -> dict:
    """The result of a record whose worker died on it (again): an ``internal-error`` of that record alone."""
    return record_problem(label, Diagnostic(
        "error", "internal-error", f"{where} working on this record died (out of memory, or a crash of the "
        "analyser); the rest of the archive was done; please report it", source=label))
