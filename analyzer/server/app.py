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
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .library import (BoardError, NODE_LIMIT, enter_move, new_record, position_data, repair_text, validate_document,
                      variants_data, write_variation)
from .files import FileConflict, FileRefused, Roots
from .jobs import Busy, Cancelled, Workers

__all__ = ["create_app", "MAX_BODY", "CSP"]

_log = logging.getLogger("analyzer.server")
STATIC = pathlib.Path(__file__).resolve().parent / "static"
MAX_BODY = 2 * 1024 * 1024          # bytes a request may carry (a record is far smaller)
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
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


class _DeclaredLength:
    """A request that declares a body over :data:`MAX_BODY` gets the JSON error at once; Starlette's own
    limit on each route of the API (``max_body_size``) stops a body that does not declare its length."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            length = dict(scope.get("headers") or ()).get(b"content-length", b"0")
            if not length.isdigit():
                response = _error("the request's Content-Length is not a number of bytes", 400)
                return await response(scope, receive, send)
            if int(length) > MAX_BODY:
                response = _error(f"the request is larger than {MAX_BODY // 1024} KB", 413)
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


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
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bound = f" from {low} to {high:,}" if high is not None else f" of at least {low}"
        raise ApiError(f'"{key}" is a whole number{bound}')
    return value


def _label(data: dict) -> str:
    name = data.get("name")
    return name if isinstance(name, str) and name and len(name) < 1000 else "<board>"


def _api(handler):
    """The endpoint of an API call: a same-origin POST whose JSON body ``handler`` answers; each
    error the library raises becomes its status and message."""
    async def endpoint(request: Request):
        try:
            _same_origin(request)
            data = await _body(request)
            answer = await (handler(data, request) if getattr(handler, "watches", False) else handler(data))
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
    return endpoint


async def _validate(data):
    variant, rules = _rules(data)
    return await run_in_threadpool(validate_document, _text(data), _label(data), variant, rules)


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
    return await run_in_threadpool(new_record, variant, rules, players, hands, event, lead)


async def _repair(data):
    variant, rules = _rules(data)
    return await run_in_threadpool(repair_text, _text(data), _label(data), _int(data, "game", 0),
                                   variant, rules)


async def _page(_request):
    return FileResponse(STATIC / "board.html", headers=HEADERS)


async def _http_error(_request, exc: HTTPException):
    message = {404: "no such page", 405: "this address takes another method (the API takes POST)",
               413: f"the request is larger than {MAX_BODY // 1024} KB"}.get(exc.status_code, exc.detail)
    return _error(message, exc.status_code)


async def _failure(request, exc: Exception):
    # the traceback goes to the server's log (the terminal it runs in), never to the client
    _log.error("internal error on %s", request.url.path, exc_info=exc)
    return _error(f"internal error ({type(exc).__name__}); please report it", 500)


def create_app(roots: list[str] | None = None, workers: Workers | None = None, max_nodes: int | None = None,
               hosts: list[str] | None = None) -> Starlette:
    """The board's application, reading and writing only under ``roots``; analyses in ``workers``'
    processes, each decision's search bounded by ``max_nodes`` at most (default the library's limit);
    ``hosts``: the names it answers to (another name in a request's Host is refused, so a web site
    cannot reach the board by making its own name point at this machine); None: any."""
    files = Roots(list(roots or []))
    workers = workers or Workers()
    cap = max_nodes or NODE_LIMIT

    async def analyze(data, request):
        variant, rules = _rules(data)
        job = data.get("job")
        job = job if isinstance(job, str) and 0 < len(job) <= 100 else uuid.uuid4().hex
        kwargs = dict(text=_text(data), label=_label(data), variant=variant, rules=rules,
                      fair=bool(data.get("fair", False)), lines=bool(data.get("lines", False)),
                      max_nodes=min(_int(data, "max_nodes", cap, 1), cap),
                      seed=_int(data, "seed", 0), worlds=_int(data, "worlds", 200, 2, 10_000),
                      exact_below=_int(data, "exact_below", 1000, 1, 100_000), progress=True)
        work = asyncio.ensure_future(run_in_threadpool(workers.run, job, "analyze_document", **kwargs))
        while True:
            done, _ = await asyncio.wait({work}, timeout=0.25)
            if done:
                return work.result()
            if await request.is_disconnected():
                # the page went away (closed, reloaded, the network dropped): its analysis is ended, not left
                # to hold a worker for nobody
                workers.cancel(job)
                with contextlib.suppress(Cancelled):
                    await work
                raise Cancelled("the client went away")

    analyze.watches = True                 # (the endpoint passes it the request: it watches for a disconnect)

    async def cancel(data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError('give the analysis to cancel as "job"')
        return {"cancelled": workers.cancel(job)}

    async def progress(data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError('give the analysis as "job"')
        done = workers.progress(job)
        return {"job": job, "running": done is not None, **{k: (done or {}).get(k) for k in
                                                              ("phase", "game", "games", "done", "total")}}

    async def listing(_data):
        return {"roots": files.paths, "files": await run_in_threadpool(files.listing)}

    async def open_file(data):
        return await run_in_threadpool(files.open, data.get("path"))

    async def save_file(data):
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ApiError('"token" is the token the file was opened with, or null for a new file')
        return await run_in_threadpool(files.save, data.get("path"), _text(data), token)

    routes = [Route("/", _page), Mount("/static", StaticFiles(directory=STATIC), name="static")]
    for path, handler in (("validate", _validate), ("analyze", analyze), ("cancel", cancel), ("progress", progress),
                          ("position", _position), ("enter", _enter), ("repair", _repair), ("variation", _variation),
                          ("variants", _variants), ("new", _new), ("files", listing), ("open", open_file),
                          ("save", save_file)):
        routes.append(Route(f"/api/{path}", _api(handler), methods=["POST"], max_body_size=MAX_BODY))
    @contextlib.asynccontextmanager
    async def lifespan(_app):
        yield
        workers.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _failure},
                    lifespan=lifespan, middleware=[Middleware(_DeclaredLength)]
                    + ([Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []))
    app.state.workers = workers
    app.state.roots = files
    return app

