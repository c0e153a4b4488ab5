"""The analysis board: a local web application beside a record's text (``domino serve``).

``app`` (Starlette) answers the page and the JSON API of docs/board.md; ``library`` is its one door
into the analyser; ``files`` keeps reading and writing under the paths the server was started with;
``jobs`` runs analyses in worker processes that a cancel ends. The web framework lives in this
package only."""
from .app import create_app

__all__ = ["create_app", "serve"]


def serve(paths: list[str], host: str = "127.0.0.1", port: int = 8765, log_level: str = "warning") -> None:
    """Run the board until it is stopped (Ctrl-C)."""
    import uvicorn

    from .jobs import Workers

    workers = Workers()
    workers.warm()
    loopback = host in ("127.0.0.1", "localhost", "::1")
    hosts = ["127.0.0.1", "localhost", "[::1]"] if loopback else None
    uvicorn.run(create_app(paths, workers, hosts=hosts), host=host, port=port, log_level=log_level)
