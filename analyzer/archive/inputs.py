"""The inputs of a run: files, directories searched for records, and ``-`` for standard input.

Every input becomes a :class:`Source` holding its bytes (read once, here, so that a worker on another
machine needs no access to the files) or the diagnostic that says why it could not be read. Text is
decoded by :func:`decode`, which never raises: a file that is not UTF-8 text gets one clear
diagnostic saying what it looks like and how to save it."""
from __future__ import annotations

import codecs
import os
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterable

from ..diagnostics import Diagnostic

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


def _unreadable(label: str, code: str, message: str) -> Diagnostic:
    return Diagnostic("error", code, message, source=label)


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
            out.append(Source(path, error=_unreadable(path, "unreadable",
                                                      f"cannot read the file: {error.strerror or error}")))
    return out


_SAVE = "save it as UTF-8 plain text (in most editors: Save as..., Encoding: UTF-8) and try again"


def decode(data: bytes, label: str) -> tuple[str | None, Diagnostic | None]:
    """The text of a record file, or a diagnostic saying why it is not UTF-8 text (never raises and
    never passes raw bytes on)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _looks_utf16(data):
        return None, _unreadable(label, "not-utf8", f"the file is UTF-16 text, not UTF-8: {_SAVE}")
    if b"\0" in data:
        return None, _unreadable(label, "binary", "the file is binary (it holds NUL bytes), not a "
                                                  "record; a record is plain UTF-8 text")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        diag = Diagnostic("error", "not-utf8",
                          f"the file is not UTF-8 text (byte 0x{data[error.start]:02X} cannot be read; "
                          f"perhaps Latin-1 or Windows-1252): {_SAVE}", line=line, column=column, source=label)
        return None, diag


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 without a byte-order mark: mostly ASCII with a NUL in every other byte."""
    sample = data[:512]
    if len(sample) < 4:
        return False
    for zeros, text in ((sample[1::2], sample[0::2]), (sample[0::2], sample[1::2])):
        printable = sum(32 <= b < 127 or b in b"\t\r\n" for b in text)
        if zeros.count(0) > 0.8 * len(zeros) and printable > 0.8 * len(text):
            return True
    return False
