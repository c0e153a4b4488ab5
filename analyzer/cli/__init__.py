"""The ``domino`` command: a group of commands, each a thin layer that reads options, calls the
library and prints (one module a command; shared options in ``options``, shared output in ``output``,
error handling in ``errors``).

Every command that reads records takes any number of files, directories (searched for record files)
and ``-`` for standard input; the work itself is done by :mod:`analyzer.pipeline` (run by
:mod:`analyzer.archive` here, in a process pool with ``--jobs`` or on a Dask cluster with
``--scheduler``), and the exit status is the same everywhere: 0 when every record is valid, 1 when
any is not (or cannot be read), 2 for a usage error.

A command's module is loaded when the command is asked for, so ``domino --version`` and ``--help``
load neither the reader nor the searches."""
from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping

import click

from .. import __version__
from ..i18n import N_
from .language import TranslatedGroup

__all__ = ["main", "COMMANDS"]

#: the commands, in the order ``--help`` lists them (by name)
COMMANDS = ("analyze", "diagram", "equity", "import", "new", "replay", "report", "serve", "site", "stats", "tournament",
            "train", "validate", "variants")


class _Commands(MutableMapping):
    """The group's commands by name, each loaded when it is first asked for (``--help`` asks for
    every one: their modules load nothing but ``click`` until they run)."""

    def __init__(self):
        self._loaded: dict = {}

    def __getitem__(self, name: str):
        if name not in self._loaded:
            if name not in COMMANDS:
                raise KeyError(name)
            self._loaded[name] = _load(name)
        return self._loaded[name]

    def __setitem__(self, name: str, command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self):
        return iter(sorted({*COMMANDS, *self._loaded}))

    def __len__(self) -> int:
        return len({*COMMANDS, *self._loaded})


def _load(name: str):
    """The command ``name`` (one of :data:`COMMANDS`)."""
    if name == "analyze":
        from .analyze import analyze as command
    elif name == "replay":
        from .replay import replay_command as command
    elif name == "report":
        from .report import report as command
    elif name == "stats":
        from .stats import stats as command
    elif name == "tournament":
        from .tournament import tournament as command
    elif name == "validate":
        from .validate import validate as command
    elif name == "variants":
        from .variants import variants as command
    elif name == "equity":
        from .equity import equity as command
    elif name == "serve":
        from .serve import serve as command
    elif name == "diagram":
        from .diagram import diagram as command
    elif name == "train":
        from .train import train as command
    elif name == "import":
        from .importing import import_command as command
    elif name == "new":
        from .new import new as command
    elif name == "site":
        from .site import site as command
    return command


def _version(ctx, _param, value) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ..search.core import cores_text        # (the compiled cores only, not the searches)

    click.echo(f"domino, version {__version__} "
               f"(search core: {cores_text()})", color=ctx.color)
    ctx.exit()


class _Notices(logging.Handler):
    """The library's notices of a long wait (``analyzer.equity``'s INFO records: a race's table solved on its first
    use) on standard error, a ``domino: ...`` line each; none under a command's ``--quiet``. Where a progress bar
    is drawn on a terminal, the notice takes its line and the bar is drawn again below at its next step."""

    def emit(self, record: logging.LogRecord) -> None:
        ctx = click.get_current_context(silent=True)
        if ctx is not None and ctx.params.get("quiet"):
            return
        try:
            clear = "\r\033[K" if sys.stderr.isatty() else ""       # (a progress bar's line)
            click.echo(f"{clear}domino: {record.getMessage()}", err=True)
        except (OSError, ValueError):       # (standard error closed: the notice is not worth a traceback)
            pass


def _show_notices() -> None:
    """Show the library's notices of a long wait (:class:`_Notices`), once a process."""
    log = logging.getLogger("analyzer.equity")
    if not any(isinstance(h, _Notices) for h in log.handlers):
        log.addHandler(_Notices(logging.INFO))
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)


@click.group(cls=TranslatedGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--lang", metavar="LANG", expose_value=False,
              help=N_("The language of what the commands write: es, pt_BR, ru or en (default: the first of "
                      "LANGUAGE, LC_ALL, LC_MESSAGES and LANG that is set; English where there is no catalogue "
                      "for it)."))
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_version,
              help=N_("Show the version and exit."))
def main() -> None:
    """Read, validate, replay, solve and report recorded domino games.

    Every command that reads records takes files, directories (searched, folders within folders,
    for records ending in .dom or .txt) and - for standard input. Exit status: 0 when every record
    is valid, 1 when any is invalid or cannot be read, 2 for a usage error, 3 when the run is incomplete
    (--scheduler: the cluster was lost, and the records not worked out say so)."""
    _show_notices()


main.commands = _Commands()


if __name__ == "__main__":  # pragma: no cover
    main()
