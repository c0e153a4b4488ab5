"""``domino serve`` (the analysis board in the browser) and ``domino diagram`` (a position as SVG).

The web framework is imported only when ``serve`` runs: the rest of the command line never needs it."""
from __future__ import annotations

import click

from .errors import clean_errors
from ..i18n import N_, gettext
from .language import TranslatedCommand

__all__ = ["serve"]


@click.command(cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when stopped (Ctrl-C), 1 when the board cannot start (a file it may not serve, "
                         "the board's packages missing), 2 for a usage error (a bad option, a port already in use)."))
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True,
              help=N_("The address to listen on (another than 127.0.0.1 opens the board, and the files, to the network)."))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help=N_("The port to listen on."))
@click.option("--token", default=None, metavar="SECRET",
              help=N_("The access token every request must carry (default: a new random one each run, printed in "
                      "the page's address)."))
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help=N_("Another host name the board answers to (besides --host and the loopback names); repeatable."))
@click.option("--exact-hand", type=click.IntRange(0, 5), default=3, show_default=True, metavar="N",
              help=N_("The board's fair analysis: in the block game for two, value every decision with at most N "
                      "tiles in each hand exactly under hidden information by the CFR+ solver, as analyze --fair "
                      "--exact-hand does (4: minutes and up to 4 GB of memory a decision; 0: none); a page may ask "
                      "fewer."))
@click.option("--exact-seconds", type=click.FloatRange(min=0, min_open=True), default=None, metavar="N",
              help=N_("The board's fair analysis: the CPU seconds the CFR+ solver may take on one decision (default: "
                      "as analyze --fair's)."))
@click.option("--exact-memory", type=click.IntRange(min=1), default=None, metavar="MB",
              help=N_("The board's fair analysis: the most memory, in MB, the CFR+ solver may take for one decision "
                      "(default: 4096); past it the decision is sampled."))
@clean_errors
def serve(paths, host, port, token, allow_hosts, exact_hand, exact_seconds, exact_memory):
    """Open the analysis board: the record's text beside the board, live validation, moves entered by
    clicking, analysis at any position, saving back to the file.

    The board reads and writes only the files PATHS name and the record files under the folders they
    name (default: the current folder). Every request needs the run's access token: open the address it
    prints (…/?token=SECRET); a script sends `Authorization: Bearer SECRET`.

    \b
    Example (the board on every record of a folder; open the address it prints):
      domino serve records/"""
    try:
        from ..server import Listening, PortUnavailable
        from ..server import serve as run
        from ..server.files import FileRefused
        from ..server.library import ExactBound
    except ImportError as exc:
        raise click.ClickException(gettext("the board needs Starlette and uvicorn: pip install "
                                           "'domino-analyzer[board]' ({reason})", reason=exc)) from None
    if token is not None and (len(token) < 8 or not token.isprintable() or " " in token):
        raise click.BadParameter(gettext("give a token of at least 8 characters, no blank"), param_hint="--token")

    def started(url: str) -> None:
        click.echo(gettext("the board: {url}  (Ctrl-C stops it)", url=url), err=True)
    try:
        run(list(paths), Listening(host, port, token, tuple(allow_hosts)), started=started,
            exact=ExactBound(exact_hand, exact_seconds, exact_memory))
    except FileRefused as exc:
        raise click.ClickException(str(exc)) from None
    except PortUnavailable as exc:         # a usage error (exit 2): another --port, or --port 0 for a free one
        raise click.BadParameter(gettext("{reason}; give another port, or 0 for a free one", reason=exc),
                                 param_hint="--port") from None
