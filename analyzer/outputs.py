"""Every file the tool writes, written whole or not at all.

:func:`write_atomic` writes to a temporary file beside the target and renames it into place only when
the data is complete and flushed to the disk: a failure (a full disk, a read-only folder, an interrupted
process) leaves the old file as it was and no partial file, and the error names the file. A new file gets
the usual mode (the umask's, as ``open`` gives it); a file replaced keeps its mode. A process killed outright
(``kill -9``) while writing leaves at most the hidden temporary file of the one file it was writing
(``.NAME.XXXXXXXX.part`` beside it), never a partial ``NAME``.

:func:`replaceable` tells whether an existing file is the tool's own output of a kind, which a command may
replace; any other file is replaced only when the user says so (``--force``). The tool's own output is known
by its mark near the beginning of the file (:data:`GENERATOR`)."""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable

from .i18n import gettext, system_reason

from .i18n import N_

__all__ = ["OutputError", "write_atomic", "GENERATOR", "KINDS", "replaceable", "clear_damaged"]

#: The mark of the tool's own outputs: a page's ``<meta name="generator" content="domino-analyzer X.Y">``, a tree of
#: lines' ``generator`` attribute (GraphML and JSON: ``domino-analyzer X.Y``).
GENERATOR = "domino-analyzer"

_HEAD = 64 * 1024       # bytes of an existing file looked at for its mark (near its beginning; GraphML's: its end)
_TAIL = 4096


def _page(head: bytes, _tail: bytes) -> bool:
    return b'<meta name="generator" content="' + GENERATOR.encode() in head[:8192]


def _graph(head: bytes, tail: bytes) -> bool:
    start = head.lstrip()[:200]
    mark = GENERATOR.encode()
    if start.startswith((b"<?xml", b"<graphml")):       # GraphML: the graph's data come after its nodes and edges
        return b"<graphml" in head and b'attr.name="generator"' in head and b">" + mark + b" " in tail
    # (node_link_data's JSON: the tree's mark in its "graph", after "directed"; a problem set's is its first key)
    return start.startswith(b"{") and b'"directed"' in start and b'"generator": "' + mark in head[:4096]


def _problems(head: bytes, _tail: bytes) -> bool:
    # a problem set of ``domino train --json``: the mark is its first key
    return head.lstrip().startswith(b'{\n  "generator": "' + GENERATOR.encode() + b" ") and b'"problems": ' in head


def _deck(head: bytes, tail: bytes) -> bool:
    # an Anki deck of ``domino train -o``: a zip whose comment (after its 22-byte end record) is the mark
    end = tail.rfind(b"PK\x05\x06")
    return head.startswith(b"PK\x03\x04") and end >= 0 and tail[end + 22:].startswith(GENERATOR.encode() + b" ")


def _diagram(head: bytes, _tail: bytes) -> bool:
    # the SVG of ``domino diagram`` (and the board's and the report's save): its own style sheet
    return head.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"') and b"<style>text{" in head[:1024] \
        and b".tile.last{" in head[:2048]


def _table(head: bytes, _tail: bytes) -> bool:
    # an MWC table: the compact form's first line, or the JSON form (``EquityTable.as_dict``)
    return head.startswith(b"DOMINO-MWC ") or (head.startswith(b'{"format":') and b'"model":' in head)


#: The kinds of output :func:`replaceable` knows, each with its test of a file's first bytes and its name for
#: the user. A ``record`` (``validate --write-repaired``) has no mark: no existing file is one of the tool's own.
KINDS = {"page": (_page, N_("a page domino wrote (an HTML report or index page)")),
         "graph": (_graph, N_("a tree of lines domino wrote (GraphML or JSON)")),
         "diagram": (_diagram, N_("a diagram domino drew (SVG)")),
         "table": (_table, N_("an MWC table (.mwc or its JSON form)")),
         "problems": (_problems, N_("a problem set domino train wrote (JSON)")),
         "deck": (_deck, N_("an Anki deck domino train wrote")),
         "record": (lambda _head, _tail: False, N_("a file domino may replace (an existing record is never "
                                                   "replaced)"))}


def replaceable(path: str | os.PathLike, kind: str) -> bool:
    """Whether a command writing an output of ``kind`` (one of :data:`KINDS`) may replace what is at ``path``
    without being told to: nothing there, or a file that is the tool's own output of that kind (its mark in
    its first bytes). A folder, a device or a file that cannot be read is not."""
    target = os.fspath(path)
    if not os.path.lexists(target):
        return True
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        try:
            head = handle.read(_HEAD)
            handle.seek(max(len(head), os.fstat(fd).st_size - _TAIL))
            tail = head[-_TAIL:] + handle.read(_TAIL)
        except OSError:
            return False
    return KINDS[kind][0](head, tail[-_TAIL:])


class OutputError(OSError):
    """A file that could not be written; the message names it and the reason."""


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str | os.PathLike, data: str | bytes | Iterable[str], *, encoding: str = "utf-8",
                 errors: str = "strict", make_folder: bool = False) -> None:
    """Write ``data`` (text is encoded with ``encoding``; an iterable of texts is written piece by piece as it
    comes, never held whole) to ``path`` atomically: readers see the old file or the whole new one.
    ``make_folder`` makes the missing folders first. Raises :class:`OutputError` naming ``path`` on any failure,
    with nothing left behind (the folders it made removed again)."""
    target = os.fspath(path)
    shown = target.encode("utf-8", "replace").decode("utf-8")
    if isinstance(data, str):
        data = data.encode(encoding, errors)
    pieces = (data,) if isinstance(data, bytes) else (piece.encode(encoding, errors) for piece in data)
    folder = os.path.dirname(target) or "."
    temp = None
    made: list[str] = []        # the folders made here, deepest first (removed again where the write fails)
    try:
        if make_folder:
            missing = folder
            while missing and not os.path.exists(missing):
                made.append(missing)
                missing = os.path.dirname(missing)
            os.makedirs(folder, exist_ok=True)
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            mode = _umask_mode()
        fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(target)[:40] + ".", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as handle:
            for piece in pieces:
                handle.write(piece)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
        temp = None
        made.clear()
    except OSError as exc:
        error = OutputError(gettext("{path}: cannot be written ({why})", path=shown, why=system_reason(exc)))
        error.errno = exc.errno
        raise error from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        for made_folder in made:
            with contextlib.suppress(OSError):
                os.rmdir(made_folder)


def clear_damaged(path: str | os.PathLike) -> bool:
    """Remove what is at ``path`` when it is not a regular file (a folder, a symbolic link, a FIFO...), so that
    the file can be written there: for the tool's own cache entries only, whose names nobody else uses (a damaged
    entry of any kind is redone and replaced). True when something was removed; never raises."""
    target = os.fspath(path)
    try:
        kind = os.lstat(target).st_mode
    except OSError:
        return False
    if stat.S_ISREG(kind):
        return False
    try:
        if stat.S_ISDIR(kind):
            shutil.rmtree(target)
        else:
            os.unlink(target)
    except OSError:
        return False
    return True
