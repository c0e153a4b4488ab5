"""A directory of finished results, so that a re-run over an archive redoes only what changed.

A result is keyed by a hash of the record's bytes and name (its results name the file: a copy of a
record under another name is worked out under its own), the tool's version and own files (its code: a
changed search or rule gives new keys even where nobody raised the version) and the options that
shape the result; it is written to a temporary file and renamed into place, so an interrupted run
leaves only whole entries and the next run resumes where it stopped."""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from functools import cache
from pathlib import Path
from typing import Callable

from .. import __version__
from ..i18n import gettext, system_reason
from ..outputs import clear_damaged
from .inputs import InputError

__all__ = ["Cache", "CacheUnusable", "code_digest", "source_digest"]


def code_digest(root: str | os.PathLike, suffixes: tuple[str, ...] | None = None) -> bytes:
    """A digest of every file below ``root`` (or of those ending in ``suffixes``), by its path and
    bytes; bytecode caches left out."""
    root = Path(root)
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                       and (suffixes is None or p.suffix in suffixes)):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.digest()


_SOURCES = (".py", ".j2", ".css", ".js", ".po")    # the code as written (and its catalogues): the same wherever installed


def source_digest() -> str:
    """A digest of the analyser's own source files (not its compiled modules, which differ by machine):
    a Dask worker must give the same as the machine that sends it work."""
    return f"{__version__} {code_digest(Path(__file__).resolve().parent.parent, _SOURCES).hex()[:16]}"


@cache
def _own_code() -> bytes:
    return code_digest(Path(__file__).resolve().parent.parent)


class CacheUnusable(InputError):
    """The cache directory cannot be made or written at all (a usage error, before any work)."""


class Cache:
    """Results (plain JSON data) stored under ``directory/ab/abcdef....json``, each after the checksum
    of its text: an entry damaged on disk is redone, never served.

    A directory that cannot be made or written raises :class:`CacheUnusable` here. A damaged entry (a
    folder where a file belongs...) is redone and replaced. A write that fails later (a full disk) does
    not end the run: the cache stops storing, ``broken`` says why, and ``warn`` (if given) is called
    with that text once."""

    def __init__(self, directory: str | os.PathLike, warn: Callable[[str], None] | None = None):
        self.directory = os.fspath(directory)
        self.warn = warn
        self.broken: str | None = None
        try:
            os.makedirs(self.directory, exist_ok=True)
            fd, probe = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:
            raise CacheUnusable(f"--cache {self.directory}: cannot be made or written "
                                f"({exc.strerror or exc})") from None

    @staticmethod
    def key(data: bytes, options: str, label: str = "") -> str:
        """The entry of a record's bytes under ``options`` (a stable text) and this tool's version and code.

        ``label``: the record's name as the results give it (its diagnostics and page name the file)."""
        digest = hashlib.sha256()
        for part in (__version__.encode(), b"\0", _own_code(), b"\0", options.encode(), b"\0",
                     label.encode("utf-8", "surrogateescape"), b"\0", data):
            digest.update(part)
        return digest.hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key + ".json")

    def get(self, key: str) -> dict | None:
        """The stored result, or None (also for an entry that cannot be read, is no file or whose bytes
        changed on disk: its checksum line says so, and it is redone)."""
        try:        # (not blocking on a FIFO in the entry's place, as a plain open would: no entry at all)
            fd = os.open(self._path(key), os.O_RDONLY | os.O_NONBLOCK)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return None
                stored = handle.read()
        except OSError:
            return None
        check, _, body = stored.partition(b"\n")
        if check != hashlib.sha256(body).hexdigest().encode():
            return None
        try:
            result = json.loads(body)
        except ValueError:
            return None
        return result if isinstance(result, dict) else None

    def put(self, key: str, result: dict) -> None:
        """Store ``result`` atomically (readers see the old entry or the whole new one), after a line
        with the checksum of its JSON text. A damaged entry of any kind in the way (a folder, a link or a
        FIFO under the entry's name, a file where its folder belongs) is removed and the entry written
        again. A write that fails all the same (a full disk, a lost mount) stops the caching, once said
        (see the class), and never raises."""
        if self.broken is not None:
            return
        body = json.dumps(result).encode()
        path = self._path(key)
        try:
            self._write(path, hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        except OSError as first:
            try:
                if not self._clear_way(path):
                    raise first
                self._write(path, hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
            except OSError as exc:
                self.broken = gettext("the cache {folder} cannot be written ({reason}): the run goes on without "
                                      "caching", folder=self.directory, reason=system_reason(exc))
                if self.warn is not None:
                    self.warn(self.broken)

    @staticmethod
    def _write(path: str, data: bytes) -> None:
        """``data`` to ``path`` through a temporary file renamed into place; nothing half-written is left
        behind. (Not flushed to the disk: an entry a power cut spoils fails its checksum and is redone.)"""
        tmp = None
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, path)
            tmp = None
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def _clear_way(self, path: str) -> bool:
        """Remove a damaged entry in the way of ``path`` (see :meth:`put`); True when there was one."""
        folder = os.path.dirname(path)
        if os.path.islink(folder) or (os.path.lexists(folder) and not os.path.isdir(folder)):
            with contextlib.suppress(OSError):
                os.unlink(folder)
                return True
        return clear_damaged(path)
