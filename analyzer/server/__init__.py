"""The analysis board: a local web application beside a record's text (``domino serve``).

``app`` (Starlette) answers the page and the JSON API of docs/board.md; ``library`` is its one door
into the analyser; ``files`` keeps reading and writing under the paths the server was started with;
``jobs`` runs analyses in worker processes that a cancel ends. The web framework lives in this
package only."""
import errno
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .library import ExactBound

__all__ = ["create_app", "serve", "Listening", "PortUnavailable"]


@dataclass(frozen=True)
class Listening:
    """Where the board listens and whom it answers: ``host``:``port`` (127.0.0.1 unless told otherwise; port 0: a
    free one), ``token``, the secret every API call must carry (None: a fresh one), and ``allow_hosts``, more names
    to answer to than ``host`` and the loopback names."""

    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None
    allow_hosts: tuple[str, ...] = ()


class PortUnavailable(OSError):
    """The board cannot listen at its address: the port is in use (or not ours to take); the message names both."""


def __getattr__(name: str):
    """``create_app`` imported when first asked for: ``analyzer.server.library`` and ``.api`` (which the static
    site's worker imports in the browser, where there is no Starlette) need no web framework."""
    if name == "create_app":
        from .app import create_app
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _listening(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (its first address), or :class:`PortUnavailable` naming them."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise PortUnavailable(f"cannot listen on {host}: {exc.strerror or exc}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # (as uvicorn does: not a port in use)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        taken = exc.errno == errno.EADDRINUSE
        why = "is in use (another board, or another program, listens there)" if taken else \
            f"cannot be opened ({exc.strerror or exc})"
        raise PortUnavailable(f"port {port} on {host} {why}") from None
    return sock


def serve(paths: list[str], at: Listening = Listening(), log_level: str = "warning", started=None,
          exact: "ExactBound | None" = None) -> None:
    """Run the board on the files ``paths`` name until it is stopped (Ctrl-C, SIGTERM: at once, every worker
    ended), listening as ``at`` says (:class:`Listening`); ``started(url)`` is told the page's address once it
    listens; its fair analyses value decisions exactly under hidden information as ``exact`` bounds them (None: the
    pipeline's defaults)."""
    import uvicorn

    from .guard import allowed_hosts, new_token
    from .jobs import Workers

    host, port, allow_hosts = at.host, at.port, at.allow_hosts
    sock = _listening(host, port)             # (before any worker starts: a port in use is said at once)
    workers, checks = Workers(), Workers(limit=2, queue=True)
    workers.warm()
    checks.warm()
    token = at.token or new_token()
    from .app import create_app

    app = create_app(paths, workers, hosts=allowed_hosts(host, allow_hosts), token=token, checks=checks, exact=exact)
    from .jobs import settle

    settle()                                  # (the board loaded: its objects out of the collector's way)

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # the workers first: a request waiting on one answers at once, so the server stops at once
            workers.close()
            checks.close()
            self.force_exit = True
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None):
            await super().startup(sockets)
            if started is not None and self.started:
                name = host if host not in ("0.0.0.0", "::", "") else "127.0.0.1"
                bound = self.servers[0].sockets[0].getsockname()[1] if self.servers else port
                started(f"http://{name if ':' not in name else f'[{name}]'}:{bound}/?token={token}")

    Server(uvicorn.Config(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=2)).run(
        sockets=[sock])
