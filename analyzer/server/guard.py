"""Who may talk to the board: the gate every request passes before the application sees it.

Three checks, each refusal a JSON error (``{"error": message}``):

- the Host the request names must be one the server answers to (its ``--host`` and the loopback names):
  a web site that makes its own name point at this machine (DNS rebinding) is refused (400);
- a body may not declare more than the cap (413; a body that does not declare its length is stopped by
  the routes' own limit);
- the per-run secret (``token``), as Jupyter has it: every API call carries it as ``Authorization:
  Bearer TOKEN`` (or ``?token=TOKEN``, for a script); the page is served to whoever brings it as
  ``?token=`` (then a cookie for this port keeps it, HttpOnly and SameSite=Strict), and carries it to its
  script in a ``<meta>`` tag. Anything else is refused (401). The page's static files (code, styles) are
  served to anyone: they hold no secret."""
from __future__ import annotations

import http.cookies
import json
import secrets
import urllib.parse

__all__ = ["Gate", "LOOPBACK", "allowed_hosts", "new_token"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def new_token() -> str:
    """A fresh secret for one run of the server."""
    return secrets.token_urlsafe(24)


def allowed_hosts(host: str, extra: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The names a server listening on ``host`` answers to: the loopback names, ``host`` itself (unless it
    is a wildcard address, which names no host) and ``extra`` (``--allow-host``)."""
    names = list(LOOPBACK)
    for name in (host, *extra):
        name = name.strip().strip("[]").lower()
        if name not in WILDCARDS and name not in names:
            names.append(name)
    return names


def _host_name(value: str) -> str:
    """The name of a Host header without its port: ``[::1]:8765`` -> ``::1``."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def cookie_name(port: int | None) -> str:
    """The page's cookie (one a port: cookies do not tell the ports of one host apart)."""
    return f"domino-board-{port or 0}"


class Gate:
    """ASGI middleware: the Host, size and token checks of the module's docstring. ``hosts``: None
    answers any name (the library's default; ``domino serve`` always gives the list)."""

    def __init__(self, app, token: str, hosts: list[str] | None, max_body: int):
        self.app, self.token, self.max_body = app, token, max_body
        self.hosts = None if hosts is None else {h.strip("[]").lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {}
        for key, value in scope.get("headers") or ():
            headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, message = refusal
            return await _json(send, status, message)
        await self.app(scope, receive, send)

    def _refusal(self, scope, headers: dict) -> tuple[int, str] | None:
        if self.hosts is not None and _host_name(headers.get("host", "")) not in self.hosts:
            return 400, ("this server does not answer to the host name "
                         f"{headers.get('host', '(none)')[:100]!r}: open it at one of "
                         + ", ".join(sorted(self.hosts)))
        length = headers.get("content-length", "0").strip()
        if not length.isdigit():
            return 400, "the request's Content-Length is not a number of bytes"
        if int(length) > self.max_body:
            return 413, f"the request is larger than {self.max_body // 1024} KB"
        path = scope.get("path", "")
        if path.startswith("/static/") or self._carries(scope, headers, page=path == "/"):
            return None
        return 401, ("this board needs its access token: open the address `domino serve` printed "
                     "(…/?token=…); a script sends `Authorization: Bearer TOKEN` or `?token=TOKEN`")

    def _carries(self, scope, headers: dict, page: bool) -> bool:
        given = []
        auth = headers.get("authorization", "")
        if auth[:7].lower() == "bearer ":
            given.append(auth[7:].strip())
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given.extend(query.get("token", [])[:1])
        if page and "cookie" in headers:
            jar = http.cookies.SimpleCookie()
            try:
                jar.load(headers["cookie"])
            except http.cookies.CookieError:
                jar = {}
            morsel = jar.get(cookie_name((scope.get("server") or (None, None))[1]))
            if morsel is not None:
                given.append(morsel.value)
        return any(secrets.compare_digest(g.encode("utf-8", "replace"), self.token.encode()) for g in given)


async def _json(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]})
    await send({"type": "http.response.body", "body": body})
