"""A record in a link: ``#r=`` the record's bytes deflated (raw DEFLATE, RFC 1951, no zlib or gzip wrapper)
and base64url-encoded without padding (RFC 4648 section 5), and after it ``&m=g1.15``, the move to open at
(game 1, step 15). The page's JavaScript (``static/link.js``) reads and writes the same form with the
browser's CompressionStream("deflate-raw"); this is the codec the tests and the command line use.

The fragment's grammar, the same in both readers: parts separated by ``&``, each ``name=value`` or empty
(skipped: a trailing or doubled ``&``), each name once, ``r`` required and ``m`` optional, no other.

A link that cannot be read (not base64url, a truncated or corrupt stream, not UTF-8, a move that is not
``gN.M``) raises :class:`LinkError` saying why: a broken link opens nothing."""
from __future__ import annotations

import base64
import binascii
import dataclasses
import re
import zlib

__all__ = ["LinkError", "Link", "encode_record", "decode_record", "make_fragment", "read_fragment", "read_move", "MAX_RECORD"]

#: The most bytes a record in a link may inflate to (a record is far smaller; a link is not a zip bomb).
MAX_RECORD = 4 * 1024 * 1024

_MOVE = re.compile(r"g([1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})")
_B64URL = re.compile(r"[A-Za-z0-9_-]*")


class LinkError(ValueError):
    """A link that opens nothing; the message says why."""


@dataclasses.dataclass(frozen=True)
class Link:
    """What a link's fragment carries: the record's text, and the move to open at (``game`` from 1, ``step``
    the moves played in that game; None: the record's start)."""

    text: str
    game: int | None = None
    step: int | None = None

    def move(self) -> str | None:
        return None if self.game is None else f"g{self.game}.{self.step}"


def encode_record(data: bytes) -> str:
    """``data`` deflated (raw, the best compression) and base64url-encoded, without padding."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(data) + packer.flush()
    return base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def decode_record(value: str) -> bytes:
    """The bytes :func:`encode_record` made ``value`` of; :class:`LinkError` where it cannot be read whole."""
    if not value:
        raise LinkError("the link carries no record (nothing after #r=)")
    if not _B64URL.fullmatch(value):
        bad = next(c for c in value if not _B64URL.fullmatch(c))
        raise LinkError(f"the link's record holds {bad!r}, which base64url never does (was the link cut or changed?)")
    if len(value) % 4 == 1:
        raise LinkError("the link's record is cut short (its base64url has a length no encoding gives)")
    try:
        packed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except binascii.Error as exc:
        raise LinkError(f"the link's record is not base64url ({exc})") from None
    unpacker = zlib.decompressobj(-15)
    try:
        data = unpacker.decompress(packed, MAX_RECORD + 1)
    except zlib.error as exc:
        raise LinkError(f"the link's record is damaged (it does not inflate: {exc})") from None
    if len(data) > MAX_RECORD or unpacker.unconsumed_tail:
        raise LinkError(f"the link's record inflates to more than {MAX_RECORD // (1024 * 1024)} MB; no record is that long")
    if not unpacker.eof:
        raise LinkError("the link's record is cut short (its compressed stream ends before its last block)")
    if unpacker.unused_data:
        raise LinkError("the link's record has bytes after its end (were two links run together?)")
    return data


def make_fragment(text: str, game: int | None = None, step: int | None = None) -> str:
    """The fragment (``#r=...`` and, given a move, ``&m=gN.M``) that opens ``text`` at that move."""
    fragment = "#r=" + encode_record(text.encode("utf-8"))
    if game is not None:
        if game < 1 or step is None or step < 0:
            raise ValueError("a move in a link is a game from 1 and a step from 0")
        fragment += f"&m=g{game}.{step}"
    return fragment


def read_fragment(fragment: str) -> Link:
    """The record and move of a link's fragment (with or without its ``#``, or a whole address);
    :class:`LinkError` where it opens nothing."""
    if "#" in fragment:
        fragment = fragment.split("#", 1)[1]
    fields: dict[str, str] = {}
    for part in fragment.split("&"):
        if not part:            # (an empty part, as a trailing "&" leaves: skipped, as static/link.js skips it)
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise LinkError(f"the link's part {part[:40]!r} is not name=value")
        if key in fields:
            raise LinkError(f"the link gives {key}= twice")
        fields[key] = value
    if "r" not in fields:
        raise LinkError("the link carries no record (no r= after its #)")
    unknown = sorted(set(fields) - {"r", "m"})
    if unknown:
        raise LinkError(f"the link has a part this site does not know: {unknown[0]}=")
    data = decode_record(fields["r"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LinkError(f"the link's record is not UTF-8 text (byte {exc.start})") from None
    game, step = read_move(fields["m"]) if "m" in fields else (None, None)
    return Link(text, game, step)


def read_move(value: str) -> tuple[int, int]:
    """``(game, step)`` of a link's move ``gN.M`` (game from 1, step the moves played); :class:`LinkError` if not."""
    found = _MOVE.fullmatch(value)
    if not found:
        raise LinkError(f"the link's move {value[:20]!r} is not of the form g1.15 (game 1, after 15 moves)")
    return int(found[1]), int(found[2])
