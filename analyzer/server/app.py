"""The board's web application (Starlette): the page, its static files and the JSON API (docs/board.md).

Every answer is JSON; an error is ``{"error": message}`` with a fitting status, never a traceback.
Record texts are judged and analysed only by the library (through :mod:`analyzer.server.library`);
the page's script never judges a move."""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import pathlib
import uuid

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .library import (BoardError, NODE_LIMIT, branch_text, enter_move, new_record, position_data, result_entry,
                      variant_tags, variants_data, write_variation, next_game)
from .files import FileConflict, FileRefused, Roots
from .setups import PROBLEM_TAG, book_data, problem_set_data, setup_text
from .guard import Gate, cookie_name, new_token
from .jobs import Busy, Cancelled, Workers

__all__ = ["create_app", "MAX_BODY", "CSP"]

_log = logging.getLogger("analyzer.server")
STATIC = pathlib.Path(__file__).resolve().parent / "static"
MAX_BODY = 2 * 1024 * 1024          # bytes a request may carry (a record is far smaller)
MAX_WORLDS = 51_200                 # the most deals a decision may be given (``max_worlds``: "More deals")
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cache-Control": "no-store"}


class ApiError(Exception):
    def __init__(self, message: str, status: int = 400, **more):
        super().__init__(message)
        self.status, self.more = status, more


def _error(message: str, status: int, **more) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status, headers=HEADERS)


async def _body(request: Request) -> dict:
    """The request's JSON object (the application caps its size: :data:`MAX_BODY`)."""
    try:
        data = json.loads((await request.body()).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ApiError("the request body is not JSON (send a JSON object)") from None
    except RecursionError:
        raise ApiError("the request body nests its JSON too deeply (send a flat JSON object)") from None
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


def _same_origin(request: Request) -> None:
    """Refuse what another web site's page could send to the board through the user's browser: a body
    that is not declared JSON (a cross-site page cannot send ``application/json`` without the browser
    asking the board first, which it refuses), and a request whose ``Origin`` is another site."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError("send the request as JSON (Content-Type: application/json)", 415)
    origin = request.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise ApiError("a request from another site's page is refused", 403)


def _text(data: dict) -> str:
    text = data.get("text")
    if not isinstance(text, str):
        raise ApiError('give the record as "text", a string')
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ApiError(f'"text" holds a character no file can hold (a lone surrogate at {exc.start})') from None
    return text


def _rules(data: dict) -> tuple[str | None, dict[str, str]]:
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise ApiError('"variant" is a name (see `domino variants`) or null')
    rules = data.get("rules") or {}
    if not isinstance(rules, dict) or not all(isinstance(k, str) and isinstance(v, (str, int))
                                              for k, v in rules.items()):
        raise ApiError('"rules" is an object of option names and values, like {"players": "2"}')
    return variant or None, {k: str(v) for k, v in rules.items()}


def _int(data: dict, key: str, default=None, low: int = 0, high: int | None = None):
    """``data[key]``, a whole number in bounds (absent: ``default``; null only where the default is null)."""
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f" from {low} to {high:,}" if high is not None else f" of at least {low}"
        raise ApiError(f'"{key}" is a whole number{bound}' + ("" if default is None else ", or left out"))
    return value


def _label(data: dict) -> str:
    name = data.get("name")
    return name if isinstance(name, str) and name and len(name) < 1000 else "<board>"


def _api(handler, watches: bool = False):
    """The endpoint of an API call: a same-origin POST whose JSON body ``handler`` answers; each
    error the library raises becomes its status and message."""
    async def endpoint(request: Request):
        try:
            _same_origin(request)
            data = await _body(request)
            answer = await (handler(data, request) if watches else handler(data))
            return JSONResponse(answer, headers=HEADERS)
        except ApiError as exc:
            return _error(str(exc), exc.status, **exc.more)
        except BoardError as exc:
            return _error(str(exc), 422)
        except FileRefused as exc:
            return _error(str(exc), 403)
        except FileConflict as exc:
            return _error(str(exc), 409, token=exc.token)
        except Busy as exc:
            return _error(str(exc), 503)
        except Cancelled as exc:
            return _error(str(exc), 409, cancelled=True)
        except HTTPException:
            raise
        except Exception as exc:  # a bug on this request's record: this answer's error, named, never a 500
            _log.error("internal error on %s", request.url.path, exc_info=exc)
            return _error(f"the board failed on this record ({type(exc).__name__}: {str(exc)[:200]}); "
                          "please report it", 422)
    return endpoint


async def _position(data):
    variant, rules = _rules(data)
    cursor = data.get("cursor")
    if cursor is not None:
        if not isinstance(cursor, dict):
            raise ApiError('"cursor" is {"line": N, "column": N}')
        cursor = (_int(cursor, "line", 1, 1), _int(cursor, "column", 1, 1))
    line = _moves(data)
    return await run_in_threadpool(position_data, _text(data), _label(data), _int(data, "game", 0),
                                   _int(data, "step", None), variant, rules, cursor, line,
                                   _int(data, "along", 0))


async def _enter(data):
    variant, rules = _rules(data)
    move = data.get("move")
    player = data.get("player")
    if not isinstance(move, str) or (player is not None and not isinstance(player, str)):
        raise ApiError('give the move as "move" ("[3-6]@6", "pass", "draws [2-5]") and "player" as a name')
    return await run_in_threadpool(enter_move, _text(data), _label(data), _int(data, "game", 0), move,
                                   player, variant, rules, _int(data, "step", None))


def _moves(data: dict, key: str = "line") -> list[str] | None:
    line = data.get(key)
    if line is not None and not (isinstance(line, list) and all(isinstance(m, str) for m in line)):
        raise ApiError(f'"{key}" is a list of moves like "B [0-1]"')
    return line


async def _variation(data):
    variant, rules = _rules(data)
    line = _moves(data)
    if not line:
        raise ApiError('give the variation as "line", a list of moves like "B [0-1]", and where it starts as "step"')
    return await run_in_threadpool(write_variation, _text(data), _label(data), _int(data, "game", 0),
                                   _int(data, "step", 0), line, variant, rules)


async def _branch(data):
    variant, rules = _rules(data)
    line = _moves(data)
    if line is None:
        raise ApiError('give the variation as "line", a list of moves like "B [0-1]", and how many of them as "along"')
    return await run_in_threadpool(branch_text, _text(data), _label(data), _int(data, "game", 0),
                                   _int(data, "step", 0), line, _int(data, "along", 0), variant, rules)


async def _result(data):
    variant, rules = _rules(data)
    chosen = data.get("result")
    if chosen is not None and not isinstance(chosen, str):
        raise ApiError('"result" is a result as a Result tag states it ("A/C 1 blocked"), or left out')
    return await run_in_threadpool(result_entry, _text(data), _label(data), _int(data, "game", 0), variant, rules,
                                   chosen)


async def _next(data):
    variant, rules = _rules(data)
    return await run_in_threadpool(next_game, _text(data), _label(data), variant, rules)


async def _tags(data):
    variant, rules = _rules(data)
    return await run_in_threadpool(variant_tags, _text(data), _label(data), variant, rules)


async def _variants(data):
    return await run_in_threadpool(variants_data, *_rules(data))


async def _new(data):
    variant, rules = _rules(data)
    players, hands = data.get("players"), data.get("hands")
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise ApiError('"players" is a list of names in play order, or null')
    if hands is not None and not isinstance(hands, list):
        raise ApiError('"hands" is a list, one a player: null or {"tiles": [[low, high], ...], "unknown": N}')
    event, lead = data.get("event"), data.get("lead") or None
    if (event is not None and not isinstance(event, str)) or (lead is not None and not isinstance(lead, str)):
        raise ApiError('"event" and "lead" are strings')
    starter = data.get("starter")
    if starter is not None and not isinstance(starter, list):
        raise ApiError('"starter" is the tile turned up to open the line, [low, high], or null')
    return await run_in_threadpool(new_record, variant, rules, players, hands, event, lead, starter)


async def _setup(data):
    variant, rules = _rules(data)
    return await run_in_threadpool(setup_text, {**data, "variant": variant, "rules": rules})


def _page(token: str):
    """The page, carrying the token to its script (a ``<meta>`` tag); brought with ``?token=``, the token is
    kept in a cookie for this port (HttpOnly, SameSite=Strict), so a reload without it opens the page."""
    html = (STATIC / "board.html").read_text(encoding="utf-8").replace(
        '<meta name="board-token" content="">', f'<meta name="board-token" content="{token}">')

    async def page(request: Request):
        response = HTMLResponse(html, headers=HEADERS)
        if request.query_params.get("token") == token:
            response.set_cookie(cookie_name(request.scope.get("server", (None, None))[1]), token, httponly=True,
                                samesite="strict", path="/")
        return response
    return page


async def _watched(request: Request, workers: Workers, job: str, name: str, replace: bool = False, **kwargs):
    """``library.name(**kwargs)`` in one of ``workers``' processes, ended at once when the client goes away
    (the page closed or reloaded, the network dropped): no worker runs on for nobody."""
    work = asyncio.ensure_future(run_in_threadpool(workers.run, job, name, replace, **kwargs))
    while True:
        done, _ = await asyncio.wait({work}, timeout=0.25)
        if done:
            return work.result()
        if await request.is_disconnected():
            workers.cancel(job)
            with contextlib.suppress(Cancelled, Busy, BoardError):
                await work
            raise Cancelled("the client went away")


async def _http_error(_request, exc: HTTPException):
    message = {404: "no such page", 405: "this address takes another method (the API takes POST)",
               413: f"the request is larger than {MAX_BODY // 1024} KB"}.get(exc.status_code, exc.detail)
    return _error(message, exc.status_code)


async def _failure(request, exc: Exception):
    # the traceback goes to the server's log (the terminal it runs in), never to the client
    _log.error("internal error on %s", request.url.path, exc_info=exc)
    return _error(f"internal error ({type(exc).__name__}); please report it", 500)


class _Board:
    """The routes that keep state: the files (``Roots``), the analyses' workers and the checks' workers."""

    def __init__(self, files: Roots, workers: Workers, checks: Workers, cap: int):
        self.files, self.workers, self.checks, self.cap = files, workers, checks, cap

    @staticmethod
    def _page_job(data, kind: str) -> tuple[str, bool]:
        """A page's job name for its checks (``job``: the page's own name, so its next replaces its last)."""
        job = data.get("job")
        if isinstance(job, str) and 0 < len(job) <= 100:
            return f"{kind}:{job}", True
        return f"{kind}:{uuid.uuid4().hex}", False

    async def _check(self, request, kind: str, data, name: str, **kwargs):
        """A page's check (``kind``: validate, repair) in the checks' workers, its job the page's own: the next of
        the page replaces it. One replaced so answers ``{"superseded": true}``, no error: the page has moved on
        (it dropped the request, but the answer may reach the browser first, which would show a 409 as a failed
        load in its console)."""
        variant, rules = _rules(data)
        job, replace = self._page_job(data, kind)
        try:
            return await _watched(request, self.checks, job, name, replace, text=_text(data), label=_label(data),
                                  variant=variant, rules=rules, **kwargs)
        except Cancelled:
            if not replace:
                raise
            return {"superseded": True}

    async def validate(self, data, request):
        return await self._check(request, "validate", data, "validate_document")

    async def repair(self, data, request):
        return await self._check(request, "repair", data, "repair_text", game=_int(data, "game", 0))

    async def analyze(self, data, request):
        variant, rules = _rules(data)
        job = data.get("job")
        job = job if isinstance(job, str) and 0 < len(job) <= 100 else uuid.uuid4().hex
        cap = self.cap
        kwargs = dict(text=_text(data), label=_label(data), variant=variant, rules=rules,
                      fair=bool(data.get("fair", False)), lines=bool(data.get("lines", False)),
                      max_nodes=min(_int(data, "max_nodes", cap, 1), cap),
                      seed=_int(data, "seed", 0), worlds=_int(data, "worlds", 200, 2, 10_000),
                      max_worlds=_int(data, "max_worlds", None, 2, MAX_WORLDS),
                      exact_below=_int(data, "exact_below", 1000, 1, 100_000), progress=True)
        if kwargs["max_worlds"] is not None and kwargs["max_worlds"] < kwargs["worlds"]:
            raise ApiError(f'"max_worlds" ({kwargs["max_worlds"]}) is fewer than the {kwargs["worlds"]} deals drawn first')
        return await _watched(request, self.workers, job, "analyze_document", **kwargs)

    async def cancel(self, data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError('give the analysis to cancel as "job"')
        return {"cancelled": self.workers.cancel(job)}

    async def progress(self, data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError('give the analysis as "job"')
        done = self.workers.progress(job)
        return {"job": job, "running": done is not None, **{k: (done or {}).get(k) for k in
                                                              ("phase", "game", "games", "done", "total")}}

    async def answer(self, data, request):
        """The answer to a problem (its position's decision, analysed as ``analyze --json`` does) in a worker."""
        job = data.get("job")
        job = job if isinstance(job, str) and 0 < len(job) <= 100 else uuid.uuid4().hex
        max_worlds = _int(data, "max_worlds", None, 2, MAX_WORLDS)
        worlds = _int(data, "worlds", 200, 2, 10_000)
        if max_worlds is not None and max_worlds < worlds:
            raise ApiError(f'"max_worlds" ({max_worlds}) is fewer than the {worlds} deals drawn first')
        return await _watched(request, self.workers, job, "problem_answer", text=_text(data), label=_label(data),
                              seed=_int(data, "seed", 0), worlds=worlds, max_worlds=max_worlds, progress=True)

    async def problem_sets(self, _data):
        return {"sets": await run_in_threadpool(self.files.problem_sets, PROBLEM_TAG.search)}

    async def problems(self, data):
        real, kind, name, content = await run_in_threadpool(self.files.problems, data.get("path"))
        if kind == "train":
            found = await run_in_threadpool(problem_set_data, content, name)
        else:
            found = await run_in_threadpool(book_data, content)
        return {"path": real, "name": name, **found}

    async def listing(self, _data):
        return {"roots": self.files.paths, "files": await run_in_threadpool(self.files.listing)}

    async def open_file(self, data):
        return await run_in_threadpool(self.files.open, data.get("path"))

    async def save_file(self, data):
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ApiError('"token" is the token the file was opened with, or null for a new file')
        return await run_in_threadpool(self.files.save, data.get("path"), _text(data), token)

    def routes(self) -> list[tuple[str, object, bool]]:
        """(the API's route, its handler, whether it watches for its client going away)."""
        return [("validate", self.validate, True), ("analyze", self.analyze, True), ("cancel", self.cancel, False),
                ("progress", self.progress, False), ("position", _position, False), ("enter", _enter, False),
                ("repair", self.repair, True), ("variation", _variation, False), ("branch", _branch, False), ("result", _result, False), ("next", _next, False),
                ("tags", _tags, False),
                ("variants", _variants, False),
                ("new", _new, False), ("files", self.listing, False), ("open", self.open_file, False),
                ("save", self.save_file, False), ("setup", _setup, False), ("problemsets", self.problem_sets, False),
                ("problems", self.problems, False), ("answer", self.answer, True)]


def create_app(roots: list[str] | None = None, workers: Workers | None = None, max_nodes: int | None = None,
               hosts: list[str] | None = None, token: str | None = None, checks: Workers | None = None) -> Starlette:
    """The board's application, reading and writing only the record files of ``roots``; analyses in
    ``workers``' processes, each decision's search bounded by ``max_nodes`` at most (default the library's
    limit); validations and repairs in ``checks``' (one a page at a time: the next keystroke's ends the
    last); ``hosts``: the names it answers to (another name in a request's Host is refused, so a web site
    cannot reach the board by making its own name point at this machine; None: any); ``token``: the
    secret every API call must carry (default a fresh one, ``app.state.token``)."""
    files = Roots(list(roots or []))
    workers = workers or Workers()
    checks = checks or Workers(limit=2, queue=True)
    token = token or new_token()
    board = _Board(files, workers, checks, max_nodes or NODE_LIMIT)
    routes = [Route("/", _page(token)), Mount("/static", StaticFiles(directory=STATIC), name="static")]
    for path, handler, watches in board.routes():
        routes.append(Route(f"/api/{path}", _api(handler, watches), methods=["POST"], max_body_size=MAX_BODY))

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        workers.close()
        checks.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _failure},
                    lifespan=lifespan, middleware=[Middleware(Gate, token=token, hosts=hosts, max_body=MAX_BODY)])
    app.state.workers = workers
    app.state.checks = checks
    app.state.token = token
    app.state.roots = files
    return app
