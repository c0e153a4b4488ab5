"""The static site's side of the board's API: what the browser's Web Worker (``static/worker.js``) calls in
Pyodide for each ``/api/<route>`` the page asks. It answers through the server's own table
(:mod:`analyzer.server.api`): the same reading of each request, the same library call, the same errors and
statuses; it adds only what a page without a server has instead of a server's: the records kept in a folder
of the browser's storage (``FileRoutes`` over it), the analysis run here with its progress told to the page,
and, where the block search runs in pure Python, the fair analysis's budget it can afford (:data:`BROWSER_BUDGET`;
the compiled one, the extension or its WebAssembly module, gets the server's: :func:`site_budget`)."""
from __future__ import annotations

import json
import os
import platform
import sys
from typing import Callable


def _browser_python() -> None:
    """What Pyodide's Python lacks that the library takes for granted. Its umask is 0o777 (a file written would
    be unreadable: records are written 0o644 as on a desktop). It has no processes and no ``_multiprocessing``;
    ``concurrent.futures.process``, which the fair analysis imports for its default pool (never started with
    one worker), needs the module to import: an empty stand-in lets it import, and making a pool still fails
    (its semaphore cannot be made)."""
    if sys.platform != "emscripten":
        return
    os.umask(0o022)
    if "_multiprocessing" in sys.modules:
        return
    import types

    stand_in = types.ModuleType("_multiprocessing")

    class SemLock:
        def __init__(self, *args, **kwargs):
            raise OSError("this Python (in the browser) runs no other process")

    stand_in.SemLock, stand_in.flags = SemLock, {}
    stand_in.sem_unlink = lambda name: None
    sys.modules["_multiprocessing"] = stand_in


_browser_python()

from ..search.core import CORE, CORE_BINDING, cores_text  # noqa: E402
from ..server import library, setups  # noqa: E402
from ..inference.memo import remembering  # noqa: E402
from ..i18n import gettext, use  # noqa: E402
from ..server.api import (DEALS, ROUTES, ApiError, FileRoutes, analysis_call, answer_call, check_call,  # noqa: E402
                          current_keys, error_answer, language)
from ..server.files import Roots  # noqa: E402

__all__ = ["SiteApi", "BROWSER_BUDGET", "SERVER_BUDGET", "SITE_SECONDS", "site_budget", "site_info"]

#: The fair analysis's budget in the browser, where the page does not say: the deals drawn first for each
#: decision, the most it is given where its best is not told apart, the deals below which a decision is solved
#: over every deal, and the nodes each search may spend (the server's: ``library.NODE_LIMIT``). Set so that a
#: partnership record (seed1.dom) answers in about 10 s under Pyodide's pure-Python search (bench/bench_site.py
#: measures it; the server's defaults are 200, the command's budget, 1,000 and NODE_LIMIT). The exact analysis
#: (all hands open) keeps the server's limit.
BROWSER_BUDGET = {"decision_deals": 10, "max_decision_deals": 10, "exact_below": 10, "max_nodes": 20_000}


#: The budget where the block search is compiled (the CPython extension, or its WebAssembly module in the
#: browser): the server's and the command line's (the fair analysis's defaults of ``server.api.analysis_call``, each
#: search at most ``library.NODE_LIMIT`` positions), so the page's verdicts are ``domino analyze``'s.
SERVER_BUDGET = {"max_nodes": library.NODE_LIMIT}


#: The CPU budgets of a sheet without hands in the page (a request that names its own keeps them): the deals' values
#: 15 s and the fair verdicts 15 s, no more than the command line's 20 s each (``--values-seconds``,
#: ``--fair-seconds``: some 10 s of wall each on two cores), as a browser tab computes in one process. Under Pyodide
#: the compiled search runs at some 1.5-2x native (docs/site.md), so 15 s is about the 10 s a handless sheet's values
#: and its fair verdicts are each meant to take natively (issue 80). Where a budget cuts the work the page says where
#: (the sheet's ``deals.words``, its ``fair_cut.words``), and More deals goes on.
SITE_SECONDS = {"values_seconds": 15, "fair_seconds": 15}


def site_budget() -> dict:
    """The budget the page's analyses get where the request does not say: :data:`SERVER_BUDGET` where the block
    search is compiled (:data:`~analyzer.search.core.CORE`), else :data:`BROWSER_BUDGET`."""
    return dict(BROWSER_BUDGET if CORE == "python" else SERVER_BUDGET)


def site_info() -> dict:
    """What runs the analysis here, for the page to say: the search's cores (the CFR+ solver's among them) and the
    Python; ``binding`` and ``cfr``: which binding serves the block search and the CFR+ iteration ("native", "wasm",
    None: pure Python)."""
    from ..hidden.cfr import CFR_BINDING, cfr_core     # (the solver's module, which the analyses import anyway)

    compiled = CORE != "python"
    return {"search": cores_text((cfr_core(),)), "compiled": compiled, "python": platform.python_version(),
            "platform": sys.platform, "binding": CORE_BINDING, "cfr": CFR_BINDING,
            "note": (("the compiled search (WebAssembly)" if CORE_BINDING == "wasm" else "the compiled search")
                     if compiled else
                     "the pure-Python search (no compiled core in the browser): a fair analysis gives each decision "
                     f"{BROWSER_BUDGET['decision_deals']} deals and each search {BROWSER_BUDGET['max_nodes']:,} positions "
                     "by default (the server: 200 and more)")}


def _saved_parser() -> None:
    """The record parser's tables the site ships (``analyzer.site.build.SAVED_PARSER``, beside this file in the
    zip), handed to the reader: the first record read loads the parser from them instead of building it from the
    grammar (in Pyodide 0.2 s instead of 1.8 s, measured under Node). Natively, or where they are missing or were
    saved from another grammar or lark, the reader builds it as ever."""
    if sys.platform != "emscripten":
        return
    from ..notation.reader import use_saved_parser

    try:
        with open(os.path.join(os.path.dirname(__file__), "parser.saved"), "rb") as fh:
            use_saved_parser(fh.read())
    except OSError:
        pass


_saved_parser()


def _settle() -> None:
    """In Pyodide, once the package is imported: :func:`analyzer.server.jobs.settle` (a collection walks the
    objects slowly there: without it, the collections an analysis of a small record sets off took more time than
    the analysis, a block game of seven tiles: 0.032 s, 0.010 s without collections). Natively the tests run this
    worker in their own process, which is left as it is."""
    if sys.platform != "emscripten":
        return
    from ..server.jobs import settle

    settle()


class SiteApi:
    """The board's API in the browser, over the record files of ``folder`` (the browser's storage)."""

    def __init__(self, folder: str, budget: dict | None = None):
        os.makedirs(folder, exist_ok=True)
        self.files = FileRoutes(Roots([folder]))
        self.budget = site_budget() if budget is None else dict(budget)
        _settle()

    def _analysis(self, data: dict, progress: Callable[[dict], None] | None) -> dict:
        fair = bool(data.get("fair"))
        data = {**SITE_SECONDS, **{k: v for k, v in self.budget.items() if k != "max_nodes"}, **current_keys(data)}
        kwargs = analysis_call(data, self.budget["max_nodes"] if fair else library.NODE_LIMIT)
        kwargs["progress"] = progress
        return library.analyze_document(**kwargs)

    def _answer(self, data: dict, progress: Callable[[dict], None] | None) -> dict:
        data = {**{k: v for k, v in self.budget.items() if k != "max_nodes"}, **current_keys(data)}
        kwargs = answer_call(data)
        kwargs["progress"] = progress
        return setups.problem_answer(**kwargs)

    def answer(self, route: str, data: object, progress: Callable[[dict], None] | None = None) -> tuple[int, dict]:
        """``(status, answer)`` for the request ``data`` to ``route``, as the server would answer it."""
        try:
            if not isinstance(data, dict):
                raise ApiError(gettext("the request body must be a JSON object"))
            with use(language(data)):            # (the page's language: the pipeline's words made in it)
                return self._answer_in(route, data, progress)
        except Exception as exc:  # each error its status and message (api.error_answer), never a traceback
            return error_answer(exc, f"/api/{route}")

    def _answer_in(self, route: str, data: dict, progress) -> tuple[int, dict]:
        files = self.files.routes()
        if route in ROUTES:
            return 200, ROUTES[route](data)
        if route in files:
            return 200, files[route](data)
        if route in ("validate", "repair"):
            name, kwargs = check_call(route, data)
            with remembering(DEALS):
                return 200, getattr(library, name)(**kwargs)
        if route == "analyze":
            return 200, self._analysis(data, progress)
        if route == "answer":
            return 200, self._answer(data, progress)
        if route == "site":
            return 200, site_info()
        raise ApiError(gettext("no such page"), 404)

    def call(self, route: str, body: str, progress: Callable[[str], None] | None = None) -> str:
        """:meth:`answer` with JSON in and out (what the worker's JavaScript hands over): ``{"status", "data"}``;
        ``progress`` is told each step of a long analysis as JSON."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            status, answer = 400, {"error": gettext("the request body is not JSON (send a JSON object)")}
        else:
            told = (lambda step: progress(json.dumps(step))) if progress is not None else None
            status, answer = self.answer(route, data, told)
        return json.dumps({"status": status, "data": answer})
