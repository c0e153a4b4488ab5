"""``domino serve`` (the analysis board in the browser) and ``domino diagram`` (a position as SVG).

The web framework is imported only when ``serve`` runs: the rest of the command line never needs it."""
from __future__ import annotations

import click

from .errors import clean_errors

__all__ = ["serve"]


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 opens the board, and the files, to the network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port to listen on.")
@clean_errors
def serve(paths, host, port):
    """Open the analysis board: the record's text beside the board, live validation, moves entered by
    clicking, analysis at any position, saving back to the file.

    The board reads and writes only the files PATHS name and the record files under the folders they
    name (default: the current folder)."""
    try:
        from ..server import serve as run
        from ..server.files import FileRefused
    except ImportError as exc:
        raise click.ClickException(f"the board needs Starlette and uvicorn: pip install 'domino-analyzer[board]' "
                                   f"({exc})") from None
    click.echo(f"the board: http://{host if ':' not in host else f'[{host}]'}:{port}/  (Ctrl-C stops it)", err=True)
    try:
        run(list(paths), host, port)
    except FileRefused as exc:
        raise click.ClickException(str(exc)) from None
