"""Run the pipeline's task on every record of an archive: here, in a pool of processes, or on a Dask cluster.

The task, :func:`analyzer.archive.task.process` (the pipeline with the page and the words of repairs), takes a record's bytes and the
:class:`~analyzer.pipeline.Options` and returns plain data (JSON-able dicts), so the same task runs in
this process, in a worker of a ``concurrent.futures.ProcessPoolExecutor`` or on a
``dask.distributed`` worker on another machine (which needs no access to the files: the bytes travel
with the task). :func:`run` yields the results in the order of the inputs, each as soon as it and
every one before it are done; with a :class:`~analyzer.archive.cache.Cache` a record whose bytes and
options are unchanged is not redone."""
from __future__ import annotations

import itertools
import os
import pickle
import re
import select
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from ..pipeline import LOST, Options, record_problem, safely, worker_died
from .task import finish, process
from ..workers import pool_context, worker_pool
from .inputs import RecordFile, Source

if TYPE_CHECKING:
    from .cache import Cache        # (start-up: a run without --cache-dir loads no cache)

__all__ = ["run", "Execution", "estimate_moves", "worker_pool", "progress_share"]


@dataclass(frozen=True)
class Execution:
    """Where and how the records of an archive are worked out (never what their results are): ``jobs`` > 1, in a
    pool of that many processes (none for a single record to work out: it is done here); ``scheduler``, on the
    Dask cluster of that address (``tcp://host:8786``); ``cache``, a :class:`~analyzer.archive.cache.Cache` that
    keeps each result, so that a record whose bytes and options are unchanged is not redone."""

    jobs: int = 1
    scheduler: str | None = None
    cache: Cache | None = None


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


# ---- running over many records ------------------------------------------------------------------

def run(sources: Iterable[Source | RecordFile], options: Options, on: Execution = Execution(), *,
        progress: Callable[[int, dict | None], None] | None = None, counts: dict | None = None,
        known: dict | None = None, exact: Callable | None = None) -> Iterator[dict]:
    """The result of every source, in input order, each as soon as it and those before are done.

    Each file is read when the work reaches it (at most a few records ahead of the results: the
    bytes of an archive are never all in memory). ``on``: where (here, a pool of processes, a Dask cluster) and
    with which cache (:class:`Execution`). ``progress(moves, result)``
    is called in this process: with ``result`` None for each move valued while a record is analysed
    here (``jobs`` 1), and with the result when a record is done (``moves``: the rest of its moves);
    with the fair analysis each move counts twice (:func:`progress_share`). ``counts`` (a dict)
    receives how many results were ``computed``, how many came from the ``cached`` and how many were
    ``lost`` with the cluster (:func:`cluster_lost`: not cached). A result the cache cannot store (a
    full disk) is not cached: see :meth:`Cache.put`. ``known``: the records already read and replayed
    in this process (:class:`~analyzer.pipeline.RecordRun`s by their index in ``sources``, read under
    ``options``): worked out here from there (``jobs`` 1), not parsed again. ``exact(label, game, step, number, count,
    seconds)`` is called in this process as each decision valued exactly under hidden information begins in a
    record analysed here or in a pool's worker (``pipeline.run_record``'s ``exact``, with the record's label; a
    worker's told within a quarter of a second): such a decision may take minutes with no move counted. A Dask
    cluster's workers tell none (their record's result alone)."""
    jobs, scheduler, cache = on.jobs, on.scheduler, on.cache
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
            elif cache is not None and (hit := cache.get(key := cache.key(source.data, options.key(),
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
        from .cluster import on_cluster     # (start-up: a run here loads none of the cluster's code)

        done = on_cluster(scheduler, todo(), options)
    else:
        taken = todo()
        first = list(itertools.islice(taken, 2))     # (a pool for one record to do: its start-up for nothing)
        taken = itertools.chain(first, taken)
        if jobs > 1 and len(first) > 1:
            done = _in_pool(jobs, taken, options, exact)
        else:
            done = _here(taken, options, progress, known or {}, exact)
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


def _here(todo, options, progress, known: dict, exact=None):
    """The records of ``todo`` one after the other in this process, as ``(index, result, moves
    counted)``; None as each is taken. A record of ``known`` goes on from its run."""
    for i, source in todo:
        told = None if exact is None else partial(exact, source.label)
        yield None
        seen = [0]

        def step(n: int) -> None:
            seen[0] += n
            if progress is not None:
                progress(n, None)
        step = step if progress is not None else None
        if i in known:
            result = safely(source.label, lambda run=known.pop(i): finish(run, step, told))
        else:
            result = process(source.label, source.data, options, step, exact=told)
        yield i, result, seen[0]


#: in a pool's worker: the pipe that :func:`_in_pool`'s ``exact`` is told on (:func:`_listen`), else None
_told = None


def _listen(pipe) -> None:
    """In a pool's worker, as it starts: tell the exact decisions begun (:func:`_tell`) on ``pipe``, which never
    blocks it."""
    global _told
    os.set_blocking(pipe.fileno(), False)
    _told = pipe


def _tell(label: str, *decision) -> None:
    """In a pool's worker: a decision of record ``label`` valued exactly under hidden information begins
    (``run_record``'s ``exact``), told to the run that made the pool. The workers share the pipe with no lock: a
    message of at most ``PIPE_BUF`` bytes, its length's 4 with it, is written whole in one write, or not at all (a
    lock that a worker killed while holding it kept would stop every other worker); a longer one (a label of
    thousands of characters) is not sent. Where the pipe is full (the run reads it only between results; a run given
    up no longer reads it while it waits for its workers to end) the line is dropped: it only words a bar."""
    message = pickle.dumps((label, *decision))
    if len(message) + 4 > select.PIPE_BUF:
        return
    try:
        _told.send_bytes(message)
    except BlockingIOError:
        pass


def _in_pool(jobs, todo, options, exact=None):
    """The records of ``todo`` in ``jobs`` processes, as ``(index, result, 0)`` as each is done (None
    as each is taken): ``jobs`` at a time, each read when a worker is free for it. ``exact``: see :func:`run` (the
    workers tell their decisions on a pipe, read here between the records' results, at least every quarter of a
    second).

    A worker that dies (the out-of-memory killer, a crash in a compiled search) breaks the whole pool:
    only ``jobs`` records are in flight at a time, so those are the suspects; each is tried again
    alone, one that kills its worker again gets an ``internal-error`` result, and the rest of the
    archive goes on in a new pool."""
    todo = iter(todo)
    context = pool_context()
    # (a pipe a worker writes without blocking, whole messages or none: POSIX's; elsewhere the workers tell nothing)
    heard_on, told = (None, None) if exact is None or os.name != "posix" else context.Pipe(duplex=False)
    listening = {} if told is None else {"initializer": _listen, "initargs": (told,)}

    def heard() -> None:
        while heard_on is not None and heard_on.poll():
            exact(*heard_on.recv())
    try:
        yield from _pooled(jobs, todo, options, context, listening, heard)
    finally:
        for end in (heard_on, told):
            if end is not None:
                end.close()


def _pooled(jobs, todo, options, context, listening: dict, heard):
    """:func:`_in_pool`'s work, its workers started in ``context`` with ``listening`` (the initializer that has them
    tell their exact decisions, if any), ``heard()`` reading what they told."""
    from concurrent.futures import FIRST_COMPLETED, wait     # (start-up: a run here needs no pool)
    from concurrent.futures.process import BrokenProcessPool

    more = True
    while more:
        suspects: dict[int, Source] = {}
        with worker_pool(jobs, context, **listening) as pool:
            running: dict = {}
            try:
                while more or running:
                    while more and len(running) < jobs:
                        taken = next(todo, None)
                        if taken is None:
                            more = False
                            break
                        i, source = taken
                        asked = {"exact": partial(_tell, source.label)} if listening else {}
                        running[pool.submit(process, source.label, source.data, options, **asked)] = (i, source)
                        yield None
                    if not running:
                        break
                    ready, _ = wait(running, timeout=0.25 if listening else None, return_when=FIRST_COMPLETED)
                    heard()             # (a record's decisions before its result: each was told before it ended)
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
    from concurrent.futures.process import BrokenProcessPool

    with worker_pool(1) as pool:
        try:
            return pool.submit(process, source.label, source.data, options).result()
        except BrokenProcessPool:
            return worker_died(source.label)
