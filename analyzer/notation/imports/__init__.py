"""Move logs of other programs imported into the notation (docs/notation.md, "Importing move logs"): the game
log of the Kozel video parser (``kozel-video``), the share code of the yard-dominoes web app (``yard``) and a
plain CSV move list (``csv``). Each importer is pure: a source's text in, an :class:`Imported` record out (with
the place in the source of every move), or :class:`ImportSourceError` with every problem at its place."""
from __future__ import annotations

from .common import Imported, ImportSourceError, Stream, Streamed
from .kozel import import_kozel, stream_kozel
from .movelist import import_moves, stream_moves
from .yard import import_yard, stream_yard

__all__ = ["FORMATS", "STREAMED", "import_log", "stream_log", "Imported", "ImportSourceError", "Stream", "Streamed"]

#: the formats by their short name, each with what it reads
FORMATS = {"kozel-video": "the kozel-game-v1 JSON game log of the Kozel video parser",
           "yard": "the share code of a hand of the yard-dominoes web app (one a line, or its link)",
           "csv": "a plain move list: one row a move, its player, tile and side"}

_IMPORTERS = {"kozel-video": import_kozel, "yard": import_yard, "csv": import_moves}
#: the formats read as a stream (:func:`stream_log`): each game as it is read (a ``kozel-video`` document is one
#: match, its rounds the games, the score carried from round to round: checked as a match, game by game)
STREAMED = {"kozel-video": stream_kozel, "yard": stream_yard, "csv": stream_moves}


def import_log(fmt: str, text: str, source: str = "<log>", variant: str | None = None,
               rules: dict[str, str] | None = None) -> Imported:
    """The record of the move log ``text`` in format ``fmt`` (one of :data:`FORMATS`), of ``variant`` and
    ``rules`` where given (else the variant the source names, or its format's). Raises ValueError for an unknown
    format, :class:`ImportSourceError` for a log that cannot be imported, and
    :class:`~analyzer.rules.VariantError` for a variant or rule that does not exist."""
    if fmt not in _IMPORTERS:
        raise ValueError(f"no import format {fmt!r}; the formats are {', '.join(FORMATS)}")
    return _IMPORTERS[fmt](text, source, variant, rules)


def stream_log(fmt: str, text: str, source: str = "<log>", variant: str | None = None,
               rules: dict[str, str] | None = None) -> Stream:
    """:func:`import_log` as a stream, for a format of :data:`STREAMED`: each game as it is read
    (:class:`Streamed`), none after the first problem; the notes at the end, or :class:`ImportSourceError` with
    every problem of the source. The games of the stream, collected, are :func:`import_log`'s record."""
    if fmt not in STREAMED:
        raise ValueError(f"the import format {fmt!r} is not read as a stream; those that are: {', '.join(STREAMED)}")
    return STREAMED[fmt](text, source, variant, rules)
