"""How a pool's worker processes are started: safely in a process that runs threads.

``fork`` copies the process as it is, the locks other threads hold included: a child forked from a process that
runs threads may deadlock (Python 3.12 warns of it; 3.14 no longer forks by default). The workers are forked only
where this process runs no other thread (then ``fork`` is safe, and the quickest: a worker starts with all the
parent has loaded); elsewhere (a program that embeds the library and runs threads, a test process) they are started
by a fork server, a clean process started for the purpose, and whatever a worker needs travels to it (an
initializer's arguments). The results are the same either way."""
from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

__all__ = ["cores", "fork_is_safe", "pool_context", "pool_options", "worker_pool"]


def cores() -> int:
    """The cores this process may run on: the default of ``--jobs``. As Python 3.13's ``os.process_cpu_count``:
    the environment variable ``PYTHON_CPU_COUNT`` (a number) first, then the cores the process is allowed
    (``sched_getaffinity``), else the machine's; at least 1. The variable is read when asked, on every
    version alike (3.13's ``os.process_cpu_count`` keeps the value the interpreter started with: a process
    started with ``PYTHON_CPU_COUNT=1`` would count one core for good, whatever its environment says later)."""
    given = os.environ.get("PYTHON_CPU_COUNT", "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def fork_is_safe() -> bool:
    """Whether this process runs no thread but the one asking (Python's and the system's count: a thread a
    compiled library started counts too)."""
    if threading.active_count() > 1:
        return False
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1]) <= 1
    except (OSError, ValueError, IndexError):
        pass
    return True


def pool_context() -> BaseContext:
    """The context a pool's workers are started in: ``fork`` where it is safe (:func:`fork_is_safe`), else
    ``forkserver`` (``spawn`` where the system has no fork server)."""
    import multiprocessing      # (when a pool is made: a run in this process loads none of it)

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and fork_is_safe():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def pool_options(module: str, name: str) -> dict:
    """The ``mp_context`` of a pool (:func:`pool_context`) whose workers read the dict ``name`` of ``module`` as this
    process filled it before the pool was made: a forked worker inherits it; a worker started by a fork server is
    given a copy (``initializer`` and ``initargs`` too, as ``ProcessPoolExecutor`` takes them)."""
    context = pool_context()
    if context.get_start_method() == "fork":
        return {"mp_context": context}
    return {"mp_context": context, "initializer": _fill,
            "initargs": (module, name, dict(getattr(sys.modules[module], name)))}


def _fill(module: str, name: str, values: dict) -> None:
    """In a worker not forked: the dict ``name`` of ``module`` as the process that made the pool filled it."""
    getattr(importlib.import_module(module), name).update(values)


def _watch_parent(parent: int) -> None:
    """In a pool's worker: end it when the run that started it is gone (killed outright: the worker
    would otherwise wait forever on a queue that its siblings keep open). A worker started by a fork
    server (:func:`analyzer.workers.pool_context`) is the server's child: it ends when the server does
    (which ends with the run) or the run is gone."""
    first = os.getppid()

    def watch():
        while os.getppid() == first and (first == parent or _alive(parent)):
            time.sleep(1)
        os._exit(1)
    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:         # (alive, another user's: not this run's, but no reason to end)
        return True
    return True


def _start_worker(parent: int, initializer, initargs: tuple) -> None:
    _watch_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def worker_pool(max_workers: int, mp_context=None, initializer=None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """A process pool whose workers end when the run that started it is killed (``--jobs``, the worlds of
    ``analyze --fair --jobs``, and of the board's analyses: a worker the board cancels is killed outright), each started safely (:func:`analyzer.workers.pool_context`: forked
    only when this process runs no other thread) unless ``mp_context`` says how; ``initializer(*initargs)`` is
    called in each worker as ``ProcessPoolExecutor`` calls it."""
    from concurrent.futures import ProcessPoolExecutor     # (start-up: a run in this process needs no pool)

    return ProcessPoolExecutor(max_workers=max_workers, mp_context=mp_context or pool_context(),
                               initializer=_start_worker, initargs=(os.getpid(), initializer, initargs))
