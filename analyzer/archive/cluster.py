"""Work on a Dask cluster (``run(..., scheduler=ADDRESS)``): the records of an archive sent to the
scheduler a few ahead, their results taken as each is done; a cluster that cannot be used is refused
before any work (:class:`ClusterUnavailable`), a worker that dies costs only
the record that killed it, and a cluster lost mid-run gives every record done before and a
``cluster-lost`` result for each other (see docs/archives.md)."""
from __future__ import annotations

import logging
import os
import re
import time
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Iterator

from ..diagnostics import Diagnostic
from ..i18n import gettext
from ..rules.codes import Code
from ..pipeline import LOST, record_problem, worker_died
from .task import process
from .cache import source_digest
from .inputs import InputError, Source

__all__ = ["ClusterUnavailable", "on_cluster", "cluster_lost", "LOST", "WORKER_WAIT", "WAIT_ENV", "worker_wait",
           "task_failed"]


class ClusterUnavailable(RuntimeError):
    """``dask.distributed`` is not installed, or the scheduler cannot be reached."""


def _greet(address: str, seconds: float = 10) -> None:
    """Check that ``address`` is a Dask scheduler's before a client waits on it: ``Client(timeout=)``
    bounds the connection only, and a port that accepts it but never answers (or answers as a web
    server, the dashboard's 8787 given for 8786) would hold the client for good."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as exc:           # not an address at all ("missing port number", unknown protocol)
        raise InputError(f"the scheduler address {address!r} cannot be used: {exc} (write it as "
                         f"tcp://HOST:8786)") from None

    async def hello():
        comm = await asyncio.wait_for(connect(address, timeout=seconds / 2), seconds)
        await comm.close()
    with ThreadPoolExecutor(1) as thread:        # its own event loop, whatever runs in this thread
        try:
            thread.submit(asyncio.run, hello()).result()
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(gettext("cannot reach the Dask scheduler at {address}: {why}", address=address,
                                             why=str(exc) or gettext("no answer in {seconds} s",
                                                                     seconds=f"{seconds:g}"))) from None
        except Exception as exc:        # it answered, but not as Dask does (a web page, another protocol)
            raise ClusterUnavailable(gettext("{address} is not a Dask scheduler (it answered the greeting with "
                                             "{kind}); its address is printed by `dask scheduler`, tcp://HOST:8786 "
                                             "by default", address=address, kind=type(exc).__name__)) from None


def _same_code(client, address: str) -> None:
    """Refuse a cluster whose workers run other code of the analyser than this machine: their results
    would differ from a local run's, unseen, and be cached as this code's."""
    here = source_digest()
    wait = worker_wait()
    try:
        there = client.run(source_digest, callback_timeout=wait)
    except TimeoutError:                # (bounded: a frozen scheduler never answers)
        raise ClusterUnavailable(gettext("the Dask scheduler at {address} has not answered for {seconds} s",
                                         address=address, seconds=f"{wait:g}")) from None
    except (OSError, CancelledError) as exc:      # the scheduler, not the workers' code
        raise ClusterUnavailable(gettext("lost the Dask scheduler at {address} before any work: {reason}",
                                         address=address, reason=_reason(exc))) from None
    except Exception as exc:        # a worker without this function: another version
        there = {"a worker": f"another version ({exc})"}
    other = sorted(f"{worker}: {code}" for worker, code in there.items() if code != here)
    if other:
        raise ClusterUnavailable(gettext("the workers of {address} run other code of domino-analyzer than this "
                                         "machine ({here}): {workers}; install the same on every worker",
                                         address=address, here=here, workers="; ".join(other)))


# how long a run waits for a Dask worker (at the start, and whenever every worker has left mid-run) and
# for a scheduler that does not answer, unless the environment says (WAIT_ENV: seconds)
WORKER_WAIT = 60.0
WAIT_ENV = "DOMINO_WORKER_WAIT"


def worker_wait() -> float:
    """:data:`WORKER_WAIT`, or the seconds :data:`WAIT_ENV` gives (a cluster whose workers are slow to
    start, or are replaced from time to time, needs longer)."""
    text = os.environ.get(WAIT_ENV, "").strip()
    if not text:
        return WORKER_WAIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < float("inf"):
        raise ClusterUnavailable(gettext("{setting}: give the seconds to wait for a Dask worker or an answer of the "
                                         "scheduler, a number above 0", setting=f"{WAIT_ENV}={text!r}"))
    return seconds


def cluster_lost(label: str, why: str) -> dict:
    """The result of a record that was not worked out because the cluster was lost (``why``); it is
    not cached, so a re-run with the same cache works it out."""
    return record_problem(label, Diagnostic(
        "error", LOST, gettext("not worked out: {why}; the records done before are kept (and cached with --cache): "
                               "run again to finish the rest", why=why), source=label))


def on_cluster(address, todo, options, ahead: int = 4):
    """The records of ``todo`` on the Dask cluster at ``address``, as ``(index, result, 0)`` as each is
    done (None as each is taken); ``ahead`` tasks a worker thread in flight (each file is read as its
    task is sent).

    A task the cluster gives up on (``KilledWorker``: a worker died each time it was tried) may only
    have been queued on the worker that a bad record killed: each such record is tried again alone
    once the rest is done, and one that kills a worker again is reported as an ``internal-error``.

    A scheduler lost mid-run (its process died, the network to it dropped: Dask cancels every task
    of the client), one that answers nothing for :func:`worker_wait` seconds (frozen) or a cluster
    left without any worker that long ends the work on the cluster: every record done before is
    given, and each other one gets a :func:`cluster_lost` result."""
    todo = iter(todo)
    first = next(todo, None)
    if first is None:                   # nothing to work out (all cached or unreadable): no cluster needed
        return
    try:
        from distributed import Client
    except ImportError:
        raise ClusterUnavailable(gettext("running on a cluster needs dask.distributed: "
                                         "pip install 'domino-analyzer[cluster]'")) from None
    worker_wait()                       # (a bad setting is an error before any work)
    _greet(address)
    with _dask_quiet():
        try:
            client = Client(address, timeout="5s")
        except (OSError, TimeoutError) as exc:
            raise ClusterUnavailable(gettext("cannot reach the Dask scheduler at {address}: {why}", address=address,
                                             why=exc)) from None
        with client:
            _same_code(client, address)
            _some_worker(client, address)
            yield from _on_client(client, address, first, todo, options, ahead)


def _some_worker(client, address: str) -> None:
    """Wait (at most :func:`worker_wait` seconds) until the cluster has a worker: tasks sent to a
    scheduler without any would wait for good."""
    wait = worker_wait()
    try:
        client.wait_for_workers(1, timeout=wait)
    except (OSError, TimeoutError):
        raise ClusterUnavailable(gettext("the Dask scheduler at {address} has no worker (none joined in {seconds} "
                                         "s): start one with `dask worker {address}`, or check that the workers can "
                                         "reach the scheduler", address=address, seconds=f"{wait:g}")) from None


def _on_client(client, address, first, todo, options, ahead):
    """:func:`on_cluster`'s work once the client is connected and the cluster has a worker."""
    from distributed import KilledWorker

    wait = worker_wait()
    try:                                # (bounded: a frozen scheduler never answers)
        window = ahead * max(1, sum(client.nthreads(callback_timeout=wait).values()))
    except TimeoutError:
        raise ClusterUnavailable(gettext("the Dask scheduler at {address} has not answered for {seconds} s",
                                         address=address, seconds=f"{wait:g}")) from None
    futures: dict = {}
    suspects: list[tuple[int, Source]] = []
    lost: list[str] = []                # why the cluster was lost (once it is)

    def send(i: int, source: Source) -> None:
        futures[client.submit(process, source.label, source.data, options, pure=False)] = (i, source)

    def take() -> Iterator[None]:
        if not lost and (taken := next(todo, None)) is not None:
            send(*taken)
            yield None
    try:
        send(*first)
        yield None
        while len(futures) < window and (taken := next(todo, None)) is not None:
            send(*taken)
            yield None
        while futures and not lost:
            for future in _done(client, address, futures, lost):
                i, source = futures.pop(future)
                try:
                    yield i, future.result(), 0
                except KilledWorker:
                    suspects.append((i, source))
                except Exception as exc:
                    if future.status != "error":    # cancelled by Dask (the scheduler is lost), the link broken
                        futures[future] = (i, source)
                        lost.append(_why_lost(address, exc))
                        continue
                    yield i, task_failed(source.label, exc), 0     # the task itself failed on its worker
                yield from take()
        while suspects and not lost:        # one at a time: nothing else on its worker
            i, source = suspects.pop(0)
            future = client.submit(process, source.label, source.data, options, pure=False)
            futures[future] = (i, source)
            if not _done(client, address, futures, lost):
                continue
            try:
                result = future.result()
            except KilledWorker:
                result = worker_died(source.label, gettext("each Dask worker"))
            except Exception as exc:
                if future.status != "error":
                    lost.append(_why_lost(address, exc))
                    continue
                result = task_failed(source.label, exc)
            del futures[future]
            yield i, result, 0
        if lost:
            for i, source in sorted([*futures.values(), *suspects], key=lambda pair: pair[0]):
                yield i, cluster_lost(source.label, lost[0]), 0
            futures.clear()
            for i, source in todo:          # read as always (a cached result is still given), never sent
                yield None
                yield i, cluster_lost(source.label, lost[0]), 0
    finally:                            # (a lost scheduler has forgotten them, or would not answer)
        if futures and not lost and client.status == "running":
            client.cancel(list(futures))


def _done(client, address: str, futures: dict, lost: list[str], poll: float = 1.0) -> list:
    """The futures done, as soon as there is one; every ``poll`` seconds without, check that the
    cluster is still there: the client still connected, the scheduler answering and some worker (for
    at most :func:`worker_wait` seconds without either). Says why in ``lost`` (and returns []) when
    it is not."""
    from distributed import wait

    most = worker_wait()
    alone = None                        # since when the cluster has had no worker
    while True:
        try:
            return list(wait(list(futures), timeout=poll, return_when="FIRST_COMPLETED").done)
        except TimeoutError:
            pass
        except Exception as exc:        # the client closed under the wait
            lost.append(_why_lost(address, exc))
            return []
        if client.status != "running":
            lost.append(gettext("the Dask scheduler at {address} was lost mid-run (the client is {status})",
                                address=address, status=client.status))
            return []
        try:                            # (bounded: a scheduler whose process is frozen never answers)
            workers = len(client.nthreads(callback_timeout=most))
        except TimeoutError:
            lost.append(gettext("the Dask scheduler at {address} has not answered for {seconds} s", address=address,
                                seconds=f"{most:g}"))
            return []
        except Exception as exc:
            lost.append(_why_lost(address, exc))
            return []
        now = time.monotonic()
        alone = None if workers else alone if alone is not None else now
        if alone is not None and now - alone >= most:
            lost.append(gettext("the Dask scheduler at {address} has had no worker for {seconds} s (the workers died or "
                                "cannot reach it)", address=address, seconds=f"{most:g}"))
            return []


def task_failed(label: str, exc: Exception) -> dict:
    """The result of a record whose task failed on its Dask worker outside :func:`process` (which
    returns every failure of the analyser as a result): its arguments or its result could not be
    carried, say. That record's ``internal-error``; the rest of the archive goes on."""
    return record_problem(label, Diagnostic(
        "error", Code.INTERNAL_ERROR, gettext("the task of this record failed on its Dask worker ({kind}: {error}); "
                                              "the rest of the archive was done; please report it",
                                              kind=type(exc).__name__, error=exc), source=label))


def _why_lost(address: str, exc: Exception) -> str:
    """What a user is told of a cluster lost under a run, from the exception that showed it."""
    return gettext("the Dask scheduler at {address} was lost mid-run ({reason})", address=address, reason=_reason(exc))


def _reason(exc: Exception) -> str:
    """Dask's reason for cancelling (``scheduler-connection-lost``), else the exception's first line."""
    return getattr(exc, "reason", None) or re.search(r"for reason: ([\w-]+)|$", str(exc)).group(1) \
        or f"{type(exc).__name__}: {exc}".splitlines()[0].rstrip(": ")


class _Quiet:
    """A filter that lets no log record through (see :func:`_dask_quiet`)."""

    @staticmethod
    def filter(_record) -> bool:
        return False


@contextmanager
def _dask_quiet():
    """Keep Dask's own log lines (its tracebacks of a lost connection, its reconnection attempts) off
    the user's terminal while this process is its client: what happened is said per record."""
    handlers = {h for name in ("distributed", "distributed.client") for h in logging.getLogger(name).handlers}
    for handler in handlers:
        handler.addFilter(_Quiet)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(_Quiet)
