"""The inputs of a run: files, directories searched for records, and ``-`` for standard input.

Every input becomes a :class:`Source`: its bytes (so that a worker on another machine needs no access
to the files) or the diagnostic that says why it cannot be read. A file is a :class:`RecordFile`, read
only when its turn comes (``read()``), so that an archive of thousands of records is never held in
memory whole; standard input is read at once (it cannot be read twice). The bytes are decoded by
:func:`analyzer.notation.decode`, which never raises: a file that is not UTF-8 text gets one clear
diagnostic saying what it looks like and how to save it."""
from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterable

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext, system_reason
from ..rules.codes import Code
from ..notation import MAX_RECORD_BYTES, too_large
from ..notation.text import decode

__all__ = ["RECORD_EXTENSIONS", "STDIN", "Source", "RecordFile", "InputError", "expand", "load", "decode"]

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

    def read(self) -> Source:
        """This source with its bytes: itself."""
        return self


@dataclass(frozen=True)
class RecordFile:
    """A record file not read yet: :meth:`read` gives its :class:`Source` when the work reaches it
    (nothing is kept, so a list of them holds no record's bytes)."""

    label: str                       # the path as given (or found under a directory)
    limit: int = MAX_RECORD_BYTES    # the most bytes read: a larger file is its own error, told before reading

    def read(self) -> Source:
        """The file's bytes, or why they cannot be read (missing, no permission, not a regular file:
        a FIFO, a socket or a device would block the run or never end; larger than ``limit``, told from
        its size before any byte is read); never raises."""
        try:
            # O_NONBLOCK: opening a FIFO waits for a writer otherwise; on a regular file it changes nothing
            fd = os.open(self.label, os.O_RDONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno == errno.ENXIO:          # a socket: it cannot be opened at all
                return self._problem(gettext("not a regular file but a socket"))
            return self._problem(system_reason(error))
        with os.fdopen(fd, "rb") as handle:
            kind = os.fstat(fd).st_mode
            if not stat.S_ISREG(kind):
                return self._problem(gettext("not a regular file but {kind}", kind=gettext(
                    _KINDS.get(stat.S_IFMT(kind), N_("a special file")))))
            size = os.fstat(fd).st_size
            if size > self.limit:
                return self._problem(too_large(size, self.limit))
            try:
                data = handle.read(self.limit + 1)
            except OSError as error:
                return self._problem(system_reason(error))
            if len(data) > self.limit:          # (it grew since its size was looked at)
                return self._problem(too_large(None, self.limit))
            return Source(self.label, data)

    def _problem(self, why: str) -> Source:
        return Source(self.label, error=Diagnostic("error", Code.UNREADABLE, gettext("cannot read the file: {why}",
                                                                                     why=why),
                                                   source=self.label))


_KINDS = {stat.S_IFIFO: N_("a FIFO (a named pipe)"), stat.S_IFSOCK: N_("a socket"), stat.S_IFCHR: N_("a device"),
          stat.S_IFBLK: N_("a device"), stat.S_IFDIR: N_("a folder")}


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
            raise InputError(gettext("{path}: no such file or directory", path=path))
        for item in found:
            key = item if item == STDIN else os.path.realpath(item)
            if key not in seen:
                seen.add(key)
                out.append(item)
    return out


def load(paths: Iterable[str], stdin: BinaryIO | None = None,
         limit: int = MAX_RECORD_BYTES) -> list[Source | RecordFile]:
    """Every input (see :func:`expand`): standard input read now, each file as a :class:`RecordFile`
    read when its turn comes (one that cannot be read then gives its error). A file or standard input of
    more than ``limit`` bytes is that record's error (:data:`~analyzer.notation.MAX_RECORD_BYTES`)."""
    out: list[Source | RecordFile] = []
    for path in expand(paths):
        if path == STDIN:
            stream = stdin if stdin is not None else sys.stdin.buffer
            data = stream.read(limit + 1)
            out.append(Source("<stdin>", data) if len(data) <= limit else Source(
                "<stdin>", error=Diagnostic("error", Code.UNREADABLE, gettext("cannot read the file: {why}",
                                                                              why=too_large(None, limit)),
                                            source="<stdin>")))
        else:
            out.append(RecordFile(path, limit))
    return out
