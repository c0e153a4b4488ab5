"""The record notation: read book tables and PGN-like records, write them back.

>>> game = parse('[Event "x"]\\nA: [0-5] [1-3]\\nB: ?\\n1. A [1-3] B pass').games[0]
>>> [(m.player, str(m.tile) if m.tile else "pass") for m in game.moves]
[('A', '[1-3]'), ('B', 'pass')]

The syntax is described in ``docs/notation.md``; the grammar is ``grammar/record.lark``."""
from __future__ import annotations

import os

from ..diagnostics import Diagnostic, NotationError
from ..i18n import decimal, gettext, ngettext, system_reason
from ..rules.codes import Code
from ..record import Record
from .reader import parse
from .text import decode
from .writer import write, write_game, write_table

__all__ = ["decode", "parse", "read", "write", "write_game", "write_table", "MAX_RECORD_BYTES", "too_large"]

#: The largest record file read, in bytes (the board's cap too): a larger file is that record's error, told from
#: its size before it is read (a 3 GB dump is refused at once, not read into memory).
MAX_RECORD_BYTES = 4 * 1024 * 1024


def too_large(size: int | None, limit: int) -> str:
    """Why a file of ``size`` bytes (None: more than ``limit``, its size unknown) is not read as a record."""
    def text(n: int) -> str:
        return (gettext("{size} GB", size=decimal(n / 2**30, 1)) if n >= 2**30 else
                gettext("{size} MB", size=decimal(n / 2**20, 1)) if n >= 2**20 else
                ngettext("{n} byte", "{n} bytes", n))
    if size is None:
        return gettext("the file holds more than the {limit} a record file may have", limit=text(limit))
    return gettext("the file is {size}, more than the {limit} a record file may have", size=text(size),
                   limit=text(limit))


def read(path: str | os.PathLike, limit: int = MAX_RECORD_BYTES) -> Record:
    """Read the record file at ``path``; its diagnostics name the path as given.

    A file that cannot be opened raises :class:`NotationError`; what is in it never does (a file
    that is not UTF-8 text, or larger than ``limit`` bytes (:data:`MAX_RECORD_BYTES`; its size is looked
    at before it is read), gives a record with no game and one error saying so)."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            data = handle.read(limit + 1) if size <= limit else b""
    except OSError as error:
        raise NotationError([Diagnostic("error", Code.UNREADABLE, gettext("cannot read the record: {why}",
                                                                          why=system_reason(error)),
                                        source=source)]) from error
    if size > limit or len(data) > limit:        # (the second: a file that grew, or one whose size says nothing)
        return Record(source=source, errors=[Diagnostic("error", Code.UNREADABLE, gettext(
                                                        "cannot read the record: {why}",
                                                        why=too_large(size if size > limit else None, limit)),
                                                        source=source)])
    text, problem = decode(data, source)
    if problem is not None:         # binary, UTF-16, Latin-1...: no game, one clear error
        return Record(source=source, errors=[problem])
    return parse(text, source)
