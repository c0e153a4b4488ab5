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

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..i18n import LANGUAGES, PSEUDO, gettext, negotiate, use
from .api import ROUTES, ApiError, FileRoutes, analysis_call, answer_call, check_call, error_answer, job_name, language
from .catalogue import board_catalogue
from .library import BoardError, ExactBound, NODE_LIMIT
from .files import Roots
from .guard import Gate, cookie_name, new_token
from .jobs import Busy, Cancelled, Workers
from ..workers import cores

__all__ = ["create_app", "MAX_BODY", "CSP"]

_log = logging.getLogger("analyzer.server")
STATIC = pathlib.Path(__file__).resolve().parent / "static"
MAX_BODY = 2 * 1024 * 1024          # bytes a request may carry (a record is far smaller)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Cache-Control": "no-store"}


def _error(message: str, status: int, **more) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status_code=status, headers=HEADERS)


async def _body(request: Request) -> dict:
    """The request's JSON object (the application caps its size: :data:`MAX_BODY`)."""
    try:
        data = json.loads((await request.body()).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ApiError(gettext("the request body is not JSON (send a JSON object)")) from None
    except RecursionError:
        raise ApiError(gettext("the request body nests its JSON too deeply (send a flat JSON object)")) from None
    if not isinstance(data, dict):
        raise ApiError(gettext("the request body must be a JSON object"))
    return data


def _same_origin(request: Request) -> None:
    """Refuse what another web site's page could send to the board through the user's browser: a body
    that is not declared JSON (a cross-site page cannot send ``application/json`` without the browser
    asking the board first, which it refuses), and a request whose ``Origin`` is another site."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(gettext("send the request as JSON (Content-Type: application/json)"), 415)
    origin = request.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise ApiError(gettext("a request from another site's page is refused"), 403)


def _api(handler, watches: bool = False):
    """The endpoint of an API call: a same-origin POST whose JSON body ``handler`` answers; each
    error the library raises becomes its status and message."""
    async def endpoint(request: Request):
        try:
            # (a refusal before the request's "lang" is read speaks the browser's language, Accept-Language's)
            with use(_accepted(request)):
                _same_origin(request)
                data = await _body(request)
            with use(language(data)):
                answer = await (handler(data, request) if watches else handler(data))
            return JSONResponse(answer, headers=HEADERS)
        except HTTPException:
            raise
        except Exception as exc:  # (api.error_answer: each error its status and message, never a traceback)
            status, answer = error_answer(exc, request.url.path)
            return JSONResponse(answer, status_code=status, headers=HEADERS)
    return endpoint


def _accepted(request: Request) -> str:
    """The language of the browser's ``Accept-Language`` (its tags in order, weights aside), as
    :func:`analyzer.i18n.negotiate` picks it; English without one."""
    header = request.headers.get("accept-language", "")[:200]
    return negotiate([tag.split(";")[0].strip() for tag in header.split(",") if tag.strip()])


def _spoken(handler, data):
    """``handler(data)`` with the request's language active (its words: diagnostics, verdicts)."""
    with use(language(data)):
        return handler(data)


def _plain(handler):
    """A route that a plain call answers (``api.ROUTES``), in a thread, in the request's language."""
    async def answer(data):
        return await run_in_threadpool(_spoken, handler, data)
    return answer


async def _catalogue(request: Request):
    """The board's catalogue of a language as the page's ``i18n.js`` reads it (``catalogue.board_catalogue``)."""
    code = request.path_params["lang"]
    if code not in (*LANGUAGES, PSEUDO):
        return _error(f"no catalogue for the language {code!r}", 404)
    return JSONResponse(await run_in_threadpool(board_catalogue, code), headers=HEADERS)


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


async def _http_error(request, exc: HTTPException):
    with use(_accepted(request)):           # (the browser's language: a request refused has no "lang" read)
        message = {404: gettext("no such page"),
                   405: gettext("this address takes another method (the API takes POST)"),
                   413: gettext("the request is larger than {size} KB", size=MAX_BODY // 1024)
                   }.get(exc.status_code, exc.detail)
    return _error(message, exc.status_code)


async def _failure(request, exc: Exception):
    # the traceback goes to the server's log (the terminal it runs in), never to the client
    _log.error("internal error on %s", request.url.path, exc_info=exc)
    with use(_accepted(request)):
        return _error(gettext("internal error ({kind}); please report it", kind=type(exc).__name__), 500)


class _Board:
    """The routes that keep state: the files (``api.FileRoutes`` over ``Roots``), the analyses' workers and the
    checks' workers; what each request asks is read by :mod:`.api`, as the static site's worker reads it."""

    def __init__(self, files: Roots, workers: Workers, checks: Workers, cap: int, exact: ExactBound):
        self.files, self.workers, self.checks, self.cap, self.exact = FileRoutes(files), workers, checks, cap, exact

    async def _check(self, request, kind: str, data):
        """A page's check (``kind``: validate, repair) in the checks' workers, its job the page's own: the next of
        the page replaces it. One replaced so answers ``{"superseded": true}``, no error: the page has moved on
        (it dropped the request, but the answer may reach the browser first, which would show a 409 as a failed
        load in its console)."""
        name, kwargs = check_call(kind, data)
        kwargs["language"] = language(data)
        job, replace = job_name(data, kind)
        try:
            return await _watched(request, self.checks, job, name, replace, **kwargs)
        except Cancelled:
            if not replace:
                raise
            return {"superseded": True}

    async def validate(self, data, request):
        return await self._check(request, "validate", data)

    async def repair(self, data, request):
        return await self._check(request, "repair", data)

    async def analyze(self, data, request):
        kwargs = {**analysis_call(data, self.cap, self.exact), "language": language(data), "processes": cores()}
        return await _watched(request, self.workers, job_name(data)[0], "analyze_document", **kwargs)

    async def cancel(self, data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError(gettext('give the analysis to cancel as "job"'))
        return {"cancelled": self.workers.cancel(job)}

    async def progress(self, data):
        job = data.get("job")
        if not isinstance(job, str):
            raise ApiError(gettext('give the analysis as "job"'))
        done = self.workers.progress(job)
        return {"job": job, "running": done is not None, **{k: (done or {}).get(k) for k in
                                                              ("phase", "game", "games", "done", "total", "words")}}

    async def answer(self, data, request):
        """The answer to a problem (its position's decision, analysed as ``analyze --json`` does) in a worker."""
        kwargs = {**answer_call(data), "language": language(data)}
        return await _watched(request, self.workers, job_name(data)[0], "problem_answer", **kwargs)

    def routes(self) -> list[tuple[str, object, bool]]:
        """(the API's route, its handler, whether it watches for its client going away)."""
        return ([("validate", self.validate, True), ("analyze", self.analyze, True), ("cancel", self.cancel, False),
                 ("progress", self.progress, False), ("repair", self.repair, True), ("answer", self.answer, True)]
                + [(route, _plain(handler), False) for route, handler in ROUTES.items()]
                + [(route, _plain(handler), False) for route, handler in self.files.routes().items()])


def create_app(roots: list[str] | None = None, workers: Workers | None = None, max_nodes: int | None = None,
               hosts: list[str] | None = None, token: str | None = None, checks: Workers | None = None,
               exact: ExactBound | None = None) -> Starlette:
    """The board's application, reading and writing only the record files of ``roots``; analyses in
    ``workers``' processes, each decision's search bounded by ``max_nodes`` at most (default the library's
    limit), the fair analysis's exact values under hidden information by ``exact`` (``domino serve --exact-hand``:
    the most a request may ask; None: the pipeline's defaults); validations and repairs in ``checks``' (one a page at a time: the next keystroke's ends the
    last); ``hosts``: the names it answers to (another name in a request's Host is refused, so a web site
    cannot reach the board by making its own name point at this machine; None: any); ``token``: the
    secret every API call must carry (default a fresh one, ``app.state.token``)."""
    files = Roots(list(roots or []))
    workers = workers or Workers()
    checks = checks or Workers(limit=2, queue=True)
    token = token or new_token()
    board = _Board(files, workers, checks, max_nodes or NODE_LIMIT, exact or ExactBound())
    routes = [Route("/", _page(token)), Route("/static/catalogue/{lang}.json", _catalogue),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
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
