"""The players of a game as the record names them: the Players tag, else the order they are dealt and move
in (read by the reader, and by the writer to know whether a game needs its Players tag)."""
from __future__ import annotations

import re

__all__ = ["split_players", "derive_players"]


def split_players(value: str) -> tuple[str, ...]:
    """Read a Players tag: ``"A, B, C, D"``, or ``"A B C D"`` when it has no comma."""
    parts = value.split(",") if "," in value else value.split()
    return tuple(p.strip() for p in parts if p.strip())


def derive_players(tags: dict[str, str], hands, moves) -> tuple[str, ...]:
    """The play order of a PGN-like game: the Players tag, else the deal's order followed by anyone
    else in the order they first move."""
    if "Players" in tags:
        return split_players(tags["Players"])
    seen: dict[str, None] = {}
    for hand in hands:
        seen.setdefault(hand.player, None)
    for move in moves:
        seen.setdefault(move.player, None)
    return tuple(seen)


#: a player's name as a play gives it ('B [1-1]': the grammar's NAME, a letter then letters, digits or _)
_PLAYABLE = re.compile(r"[^\W\d]\w*")


def playable_name(name: str) -> bool:
    """Whether a play can be written with ``name`` (a Players tag may hold any text; a table's column of a
    name that no play can give could not be written back as 'NAME TILE')."""
    return _PLAYABLE.fullmatch(name) is not None
