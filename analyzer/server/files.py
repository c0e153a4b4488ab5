"""The record files the board may read and write: only those under the paths it was started with.

Only record files: the files the server was started with, and under its folders the files named
``*.dom`` or ``*.txt`` whose path below the folder has no part beginning with a dot (no dot-file, no
dot-folder such as ``.git``), in a folder that exists (a save makes no folder), reached through no link
that leaves the folder; problem sets (``*.json``, and folders of problems) are read by the same rules, never
written. A file is opened with a token (the hash of its bytes); saving needs the token it
was opened with, so a file changed on disk since then (by an editor, another page) is never overwritten
silently. A save is written whole or not at all (:func:`analyzer.outputs.write_atomic`)."""
from __future__ import annotations

import hashlib
import json
import os
import threading

from ..outputs import OutputError, write_atomic
from .library import record_files

__all__ = ["Roots", "FileRefused", "FileConflict", "token_of"]

MAX_FILE = 4 * 1024 * 1024         # a record larger than this is no record
RECORD_SUFFIXES = (".dom", ".txt")  # the files under a folder the board may open and write
PROBLEM_SET_SUFFIXES = (".json",)   # the problem sets under a folder it may read (domino train --json)


class FileRefused(Exception):
    """A path the board may not read or write, or cannot."""


class FileConflict(Exception):
    """The file changed on disk since it was opened; ``token`` is its token now (None: it is gone)."""

    def __init__(self, message: str, token: str | None):
        super().__init__(message)
        self.token = token


def token_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Roots:
    """The files and folders the server was started with (none: the current folder)."""

    def __init__(self, paths: list[str]):
        self.paths = [os.path.realpath(p) for p in (paths or ["."])]
        for path in self.paths:
            if not os.path.exists(path):
                raise FileRefused(f"{path}: no such file or folder")
        self._lock = threading.Lock()

    def listing(self) -> list[dict]:
        """Every record file under the roots, with the root it is under."""
        out = []
        for path in record_files(self.paths):
            try:
                real = self.resolve(path)
            except FileRefused:
                continue           # (a hidden file, a link out of the folder: not the board's)
            out.append({"path": real, "name": self._name(real)})
        return out

    def _name(self, real: str) -> str:
        for root in self.paths:
            if real == root:
                return os.path.basename(root)
            if os.path.isdir(root) and real.startswith(root.rstrip(os.sep) + os.sep):
                return os.path.relpath(real, os.path.dirname(root))
        return real

    def inside(self, real: str) -> bool:
        for root in self.paths:
            if real == root:
                return True
            if os.path.isdir(root) and os.path.commonpath([root, real]) == root:
                return True
        return False

    def resolve(self, path: object, suffixes: tuple[str, ...] = RECORD_SUFFIXES, folders: bool = False) -> str:
        """The real path of ``path``, refused unless it is a root file, or a record file under a root
        folder (``*.dom``, ``*.txt``; no part of its path below the folder beginning with a dot; its
        folder there already) after every link. ``suffixes``: the files of another kind to open instead
        (a problem set's ``*.json``: read, never written); ``folders``: a root folder, or a folder under
        one, is let in too (a book of problems)."""
        if not isinstance(path, str) or not path or "\0" in path or len(path) > 4096:
            raise FileRefused("give the file's path as a string")
        given = os.path.abspath(path if os.path.isabs(path) else os.path.join(self._base(), path))
        real = os.path.realpath(given)
        if real in self.paths and (folders or not os.path.isdir(real)):
            return real                 # a file the server was started with, whatever its name (or its folder)
        root = next((r for r in self.paths if os.path.isdir(r) and self._under(real, r)), None)
        if root is None:
            raise FileRefused(f"{path} is outside the files and folders this server was started with")
        shown = self._name(real)
        if any(part.startswith(".") for part in os.path.relpath(real, root).split(os.sep)) or \
                any(part.startswith(".") for part in os.path.normpath(path).split(os.sep) if part not in ("", "..")):
            raise FileRefused(f"{shown}: the board opens no hidden file or folder (a name beginning with a dot)")
        if folders and os.path.isdir(real):
            return real
        if not real.lower().endswith(suffixes):
            raise FileRefused(f"{shown}: the board opens and writes only record files (*.dom, *.txt)"
                              + ("" if suffixes == RECORD_SUFFIXES else ", and reads problem sets (*.json) "
                                 "and folders of problems"))
        if not os.path.isdir(os.path.dirname(real)):
            raise FileRefused(f"{shown}: no such folder (the board makes no folder)")
        return real

    @staticmethod
    def _under(real: str, root: str) -> bool:
        return real != root and os.path.commonpath([root, real]) == root

    def _base(self) -> str:
        first = self.paths[0]
        return first if os.path.isdir(first) else os.path.dirname(first)

    def open(self, path: object) -> dict:
        real = self.resolve(path)
        data, text = self._read(real)
        return {"path": real, "name": self._name(real), "text": text, "token": token_of(data)}

    def _read(self, real: str) -> tuple[bytes, str]:
        """The bytes of the file at ``real`` (resolved) and its text; a folder, a file that is not plain,
        too large or not UTF-8 is refused."""
        if os.path.exists(real) and not os.path.isfile(real):
            raise FileRefused(f"{self._name(real)} is not a plain file: no record")
        try:
            with open(real, "rb") as fh:
                data = fh.read(MAX_FILE + 1)
        except IsADirectoryError:
            raise FileRefused(f"{self._name(real)} is a folder, not a record file") from None
        except OSError as exc:
            raise FileRefused(f"{self._name(real)}: {exc.strerror or exc}") from None
        if len(data) > MAX_FILE:
            raise FileRefused(f"{self._name(real)} is larger than {MAX_FILE // 1024 // 1024} MB: no record")
        try:
            return data, data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise FileRefused(f"{self._name(real)} is not UTF-8 text (byte {exc.start})") from None

    # ---- problem sets (read only) -----------------------------------------------------------------

    def problems(self, path: object) -> tuple[str, str, str, str | list[tuple[str, str]]]:
        """A problem set at ``path``, after its real path: ``("train", name, text)`` for a JSON file (``*.json`` under a root
        folder, as ``domino train --json`` writes it), ``("book", name, [(file's name, text), ...])`` for a
        folder or a record file (its record files, each let in by the same rules as for opening one)."""
        real = self.resolve(path, RECORD_SUFFIXES + PROBLEM_SET_SUFFIXES, folders=True)
        if os.path.isdir(real):
            files = []
            for found in record_files([real]):
                try:
                    inside = self.resolve(found)
                except FileRefused:
                    continue           # (a hidden file, a link out of the folder: not the board's)
                files.append((self._name(inside), self._read(inside)[1]))
            return real, "book", self._name(real) + os.sep, files
        text = self._read(real)[1]
        if real.lower().endswith(PROBLEM_SET_SUFFIXES):
            return real, "train", self._name(real), text
        return real, "book", self._name(real), [(self._name(real), text)]

    def problem_sets(self, tagged) -> list[dict]:
        """The problem sets under the roots: each ``*.json`` file that holds a problem set's ``"problems"``, and
        each folder (or root file) whose record files hold a game for which ``tagged(text)`` is true (a Problem
        tag): ``{"path", "name", "kind"}``."""
        out, books = [], {}
        for entry in self.listing():
            try:
                text = self._read(entry["path"])[1]
            except FileRefused:
                continue
            if tagged(text):
                folder = entry["path"] if entry["path"] in self.paths else os.path.dirname(entry["path"])
                books.setdefault(folder, None)
        for folder in books:
            shown = self._name(folder) + ("" if os.path.isfile(folder) else os.sep)
            out.append({"path": folder, "name": shown, "kind": "book"})
        for real in self._json_files():
            try:
                data = json.loads(self._read(real)[1])
            except (FileRefused, ValueError):
                continue
            if isinstance(data, dict) and isinstance(data.get("problems"), list):
                out.append({"path": real, "name": self._name(real), "kind": "train"})
        return sorted(out, key=lambda x: x["name"])

    def _json_files(self) -> list[str]:
        found = [p for p in self.paths if os.path.isfile(p) and p.lower().endswith(PROBLEM_SET_SUFFIXES)]
        for root in (p for p in self.paths if os.path.isdir(p)):
            for folder, subs, names in os.walk(root):            # (links to folders are not followed)
                subs[:] = sorted(d for d in subs if not d.startswith("."))
                for name in sorted(names):
                    if name.lower().endswith(PROBLEM_SET_SUFFIXES) and not name.startswith("."):
                        try:
                            found.append(self.resolve(os.path.join(folder, name), PROBLEM_SET_SUFFIXES))
                        except FileRefused:
                            continue
        return found

    def save(self, path: object, text: str, token: str | None) -> dict:
        """Write ``text`` to ``path`` if the file is still as it was opened (``token``; None: a new file
        that must not exist yet). The file is replaced whole (a temporary file renamed over it)."""
        real = self.resolve(path)
        if os.path.exists(real) and not os.path.isfile(real):
            raise FileRefused(f"{self._name(real)} is not a plain file: no record")
        data = text.encode("utf-8")
        with self._lock:
            try:
                with open(real, "rb") as fh:
                    now = token_of(fh.read())
            except FileNotFoundError:
                now = None
            except OSError as exc:
                raise FileRefused(f"{self._name(real)}: {exc.strerror or exc}") from None
            if now != token:
                message = (f"{self._name(real)} was changed on disk since it was opened: it was not saved; "
                           "open it again (your text stays here) or save it under another name"
                           if now is not None and token is not None else
                           f"{self._name(real)} exists already: open it first" if now is not None else
                           f"{self._name(real)} is gone from the disk since it was opened")
                raise FileConflict(message, now)
            try:
                write_atomic(real, data)
            except OutputError as exc:
                raise FileRefused(str(exc)) from None
        return {"path": real, "name": self._name(real), "token": token_of(data)}
