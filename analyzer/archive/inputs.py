"""The inputs of a run: files, directories searched for records, and ``-`` for standard input.

Every input becomes a :class:`Source` holding its bytes (read once, here, so that a worker on another
machine needs no access to the files) or the diagnostic that says why it could not be read. The
bytes are decoded by :func:`analyzer.notation.decode`, which never raises: a file that is not UTF-8
text gets one clear diagnostic saying what it looks like and how to save it."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterable

from ..diagnostics import Diagnostic
from ..notation.text import decode

__all__ = ["RECORD_EXTENSIONS", "STDIN", "Source", "InputError", "expand", "load", "decode"]

RECORD_EXTENSIONS = (".dom", ".txt")   # what a directory is searched for (any name is read when named)
STDIN = "-"


class InputError(ValueError):
    """An input that names nothing at all (a missing path): a usage error, not a broken record."""


@dataclass(frozen=True)
class Source:
    """One record file of a run: its name as the user gave it, and its bytes or why there are none."""

    label: str                       # the path as given (or found under a directory), "<stdin>" for -
    data: bytes | None = None
    error: Diagnostic | None = None  # why ``data`` is None: the file could not be read

    @property
    def readable(self) -> bool:
        return self.error is None


def _walk(directory: str) -> list[str]:
    """Record files under ``directory``, at any depth, in a stable (sorted) order; hidden folders
    and files are skipped."""
    found = []
    for root, dirs, names in os.walk(directory, onerror=None):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.startswith(".") and name.lower().endswith(RECORD_EXTENSIONS):
                found.append(os.path.join(root, name))
    return found


def expand(paths: Iterable[str]) -> list[str]:
    """The record files the inputs name, in the order given: a file as itself, a directory as the
    record files under it (sorted), ``-`` as standard input (once). A file named twice is read once.

    Raises :class:`InputError` for a path that does not exist."""
    out: list[str] = []
    seen: set[str] = set()
    for path in paths:
        if path == STDIN:
            found = [STDIN]
        elif os.path.isdir(path):
            found = _walk(path)
        elif os.path.lexists(path):
            found = [path]
        else:
            raise InputError(f"{path}: no such file or directory")
        for item in found:
            key = item if item == STDIN else os.path.realpath(item)
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def load(paths: Iterable[str], stdin: BinaryIO | None = None) -> list[Source]:
    """Read the bytes of every input (see :func:`expand`); one that cannot be read keeps its error."""
    out = []
    for path in expand(paths):
        if path == STDIN:
            stream = stdin if stdin is not None else sys.stdin.buffer
            out.append(Source("<stdin>", stream.read()))
            continue
        try:
            with open(path, "rb") as handle:
                out.append(Source(path, handle.read()))
        except OSError as error:
            out.append(Source(path, error=Diagnostic("error", "unreadable", f"cannot read the file: "
                                                     f"{error.strerror or error}", source=path)))
    return out
