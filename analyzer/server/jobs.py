"""Analyses off the request thread: each runs in a worker process of its own, which a cancel kills.

A search cannot be stopped from outside while it runs (the compiled cores hold the interpreter), so
an analysis runs in a separate process: the server waits for it without blocking (a thread waits on
the pipe), and cancelling it ends the process at once. One worker is kept started, so the next
analysis does not pay for starting Python and importing the analyser; at most ``limit`` run at once."""
from __future__ import annotations

import multiprocessing
import threading
from typing import Any

__all__ = ["Workers", "Cancelled", "Busy", "settle"]

_CONTEXT = multiprocessing.get_context("spawn")    # no fork of a process that runs the server's threads


class Cancelled(Exception):
    """The analysis was cancelled (or its worker died)."""


class Busy(Exception):
    """As many analyses as allowed are running."""


def settle() -> None:
    """Once a process that answers the board's requests has loaded what it runs (the server, each of its workers,
    the static site's worker): the objects made so far (modules, functions, classes, the grammar's tables: some
    50,000) collected once and then left out of Python's cyclic collections for good (``gc.freeze``). A full
    collection walks every object the collector tracks: without this, the collections that a request on a sheet
    sets off (its deals listed, every game's) took some 20 ms of the 75 ms of CPU of the first request on the
    handless Kozel match (``bench/bench_board_sheet.py``), and in Pyodide, where CPython compiled to WebAssembly
    walks them slowly (0.17 s, measured under Node), more than a small record's whole analysis. Objects made later
    are collected as ever."""
    import gc

    gc.collect()
    gc.freeze()


def _serve(conn) -> None:
    """A worker's loop: ``(function name, kwargs)`` in (a function of :mod:`.library`, or of :mod:`.setups`), ``("ok", result)`` or ``("error", message)`` out;
    with ``progress=True`` in the kwargs, ``("progress", data)`` as the function reports it, before."""
    import signal

    from ..i18n import gettext, use
    from ..inference.memo import DealMemo, remembering
    from . import library, setups

    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C reaches the whole process group: the server ends us
    # Started as a daemon (the server's end ends it), it may still start processes of its own: an analysis's pool
    # (library.analyze_document's processes, whose workers end when this one is killed: analyzer.workers.worker_pool)
    multiprocessing.current_process().daemon = False
    settle()
    deals = DealMemo()               # the sheets' deals this worker listed, for its next check
    while True:
        try:
            name, kwargs = conn.recv()
        except EOFError:
            return
        spoken = kwargs.pop("language", "en")        # (the page's language: app._Board, api.language)
        if kwargs.get("progress") is True:
            kwargs["progress"] = lambda data: conn.send(("progress", data))
        try:
            work = getattr(library, name, None) or getattr(setups, name)
            with remembering(deals), use(spoken):
                done = work(**kwargs)
            conn.send(("ok", done))
        except library.BoardError as exc:
            conn.send(("error", str(exc)))
        except Exception as exc:  # a bug: a message, never a traceback
            with use(spoken):
                conn.send(("error", gettext("internal error ({kind}: {error}); please report it",
                                            kind=type(exc).__name__, error=exc)))


class _Worker:
    def __init__(self):
        self.conn, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(target=_serve, args=(child,), daemon=True, name="domino-board-worker")
        self.process.start()
        child.close()

    def run(self, name: str, kwargs: dict, told=None) -> Any:
        """``library.name(**kwargs)`` in this worker; each progress it reports goes to ``told(data)``."""
        self.conn.send((name, kwargs))
        while True:
            try:
                status, value = self.conn.recv()
            except (EOFError, OSError):
                raise Cancelled("the analysis was cancelled") from None
            if status != "progress":
                break
            if told is not None:
                told(value)
        if status == "error":
            from .library import BoardError
            raise BoardError(value)
        return value

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class Workers:
    """The worker processes of one server."""

    def __init__(self, limit: int = 2, queue: bool = False):
        self.limit, self.queue = limit, queue      # queue: a job over the limit waits for a worker (else Busy)
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._running: dict[str, _Worker] = {}
        self._cancelled: set[str] = set()
        self._progress: dict[str, dict] = {}
        self.closed = False

    def warm(self) -> None:
        """Start a worker ahead of the first analysis."""
        with self._lock:
            if not self._idle:
                self._idle.append(_Worker())

    def run(self, job: str, name: str, replace: bool = False, **kwargs) -> Any:
        """Run ``library.name(**kwargs)`` in a worker (blocking: call it from a thread); ``job`` names it
        for :meth:`cancel`. ``replace``: a job of that name running already is ended first (a validation
        superseded by the next keystroke), else it makes this one :class:`Busy`. Raises
        :class:`Cancelled`, :class:`Busy` or the library's ``BoardError``."""
        with self._lock:
            if job in self._running and replace:
                self._running[job].process.kill()
                self._lock.wait_for(lambda: job not in self._running, timeout=10)
            if job in self._running:
                raise Busy(f"an analysis named {job!r} is running already")
            if self.queue:
                self._lock.wait_for(lambda: len(self._running) < self.limit or self.closed, timeout=600)
            if len(self._running) >= self.limit:
                raise Busy(f"{self.limit} analyses are running already: wait for one, or cancel it")
            if self.closed:
                raise Cancelled("the board is stopping")
            worker = self._idle.pop() if self._idle else None
        if worker is None or not worker.process.is_alive():
            worker = _Worker()
        with self._lock:
            if self.closed or job in self._running:
                worker.kill()
                raise Cancelled("the board is stopping") if self.closed else Busy(f"{job!r} is running already")
            self._running[job] = worker
            self._progress[job] = {}
        ok = False
        try:
            result = worker.run(name, kwargs, lambda data: self._progress.__setitem__(job, data))
            ok = True
            return result
        except Cancelled:
            raise
        except Exception:
            ok = worker.process.is_alive()
            raise
        finally:
            with self._lock:
                self._running.pop(job, None)
                self._progress.pop(job, None)
                self._cancelled.discard(job)
                if ok and worker.process.is_alive() and len(self._idle) < 1 and not self.closed:
                    self._idle.append(worker)
                    worker = None
                self._lock.notify_all()
            if worker is not None:
                worker.kill()

    def progress(self, job: str) -> dict | None:
        """How far the analysis ``job`` has come, as its function last reported (``{}``: nothing yet);
        None when no such analysis is running."""
        with self._lock:
            return dict(self._progress[job]) if job in self._running and job in self._progress else None

    def cancel(self, job: str) -> bool:
        """End the analysis ``job`` now; False when no such analysis is running."""
        with self._lock:
            worker = self._running.get(job)
        if worker is None:
            return False
        worker.process.kill()
        return True

    def close(self) -> None:
        """End every worker now (the server stops): each analysis running answers as cancelled."""
        with self._lock:
            self.closed = True
            workers = self._idle + list(self._running.values())
            self._idle, self._running = [], {}
        for worker in workers:
            worker.kill()
