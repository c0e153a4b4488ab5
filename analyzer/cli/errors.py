"""How every command ends on an error: the library's errors (and any surprise) become a message and
an exit code, never a traceback."""
from __future__ import annotations

import functools
import os
import sys

import click

from ..diagnostics import DominoError
from ..i18n import gettext, system_reason

__all__ = ["clean_errors"]


def clean_errors(command):
    """Turn the library's errors (and any surprise) into a message and an exit code, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:     # the reader went away (``domino analyze F | head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except click.ClickException:
            raise
        except Exception as exc:
            raise _said(exc) from None
    return wrapper


def _said(exc: Exception) -> click.ClickException:
    """What the user is told of ``exc``: a usage error for a bad record set, variant or rule; the
    cluster's or the system's message; for a bug, that it is one."""
    from ..archive import ClusterUnavailable, InputError     # (loaded by then: the commands that raise them run on it)

    if isinstance(exc, (DominoError, InputError)):
        return click.UsageError(str(exc))
    if isinstance(exc, ClusterUnavailable):
        return click.ClickException(str(exc))
    if isinstance(exc, OSError):
        if exc.filename is None and not exc.strerror:     # (one of the tool's own: its words are made already)
            return click.ClickException(str(exc))
        if exc.filename is None:
            return click.ClickException(system_reason(exc))
        return click.ClickException(gettext("{path}: {why}", path=exc.filename, why=system_reason(exc)))
    return click.ClickException(gettext("internal error ({kind}: {error}); please report it",
                                        kind=type(exc).__name__, error=exc))
