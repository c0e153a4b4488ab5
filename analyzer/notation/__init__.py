"""The record notation: read book tables and PGN-like records, write them back.

>>> game = parse('[Event "x"]\\nA: [0-5] [1-3]\\nB: ?\\n1. A [1-3] B pass').games[0]
>>> [(m.player, str(m.tile) if m.tile else "pass") for m in game.moves]
[('A', '[1-3]'), ('B', 'pass')]

The syntax is described in ``docs/notation.md``; the grammar is ``grammar/record.lark``."""
from __future__ import annotations

import os

from ..diagnostics import Diagnostic, NotationError
from ..rules.codes import Code
from ..record import Record
from .reader import parse
from .text import decode
from .writer import write, write_game, write_table

__all__ = ["decode", "parse", "read", "write", "write_game", "write_table"]


def read(path: str | os.PathLike) -> Record:
    """Read the record file at ``path``; its diagnostics name the path as given.

    A file that cannot be opened raises :class:`NotationError`; what is in it never does (a file
    that is not UTF-8 text gives a record with no game and one error saying so)."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise NotationError([Diagnostic("error", Code.UNREADABLE, f"cannot read the record: "
                                        f"{error.strerror or error}", source=source)]) from error
    text, problem = decode(data, source)
    if problem is not None:         # binary, UTF-16, Latin-1...: no game, one clear error
        return Record(source=source, errors=[problem])
    return parse(text, source)
