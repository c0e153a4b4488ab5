"""Every file the tool writes, written whole or not at all.

:func:`write_atomic` writes to a temporary file beside the target and renames it into place only when
the data is complete and flushed to the disk: a failure (a full disk, a read-only folder, an interrupted
process) leaves the old file as it was and no partial file, and the error names the file. A new file gets
the usual mode (the umask's, as ``open`` gives it); a file replaced keeps its mode."""
from __future__ import annotations

import contextlib
import os
import tempfile

__all__ = ["OutputError", "write_atomic"]


class OutputError(OSError):
    """A file that could not be written; the message names it and the reason."""


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str | os.PathLike, data: str | bytes, *, encoding: str = "utf-8",
                 errors: str = "strict", make_folder: bool = False) -> None:
    """Write ``data`` (text is encoded with ``encoding``) to ``path`` atomically: readers see the old
    file or the whole new one. ``make_folder`` makes the missing folders first. Raises
    :class:`OutputError` naming ``path`` on any failure, with nothing left behind."""
    target = os.fspath(path)
    shown = target.encode("utf-8", "replace").decode("utf-8")
    if isinstance(data, str):
        data = data.encode(encoding, errors)
    folder = os.path.dirname(target) or "."
    temp = None
    try:
        if make_folder:
            os.makedirs(folder, exist_ok=True)
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            mode = _umask_mode()
        fd, temp = tempfile.mkstemp(prefix="." + os.path.basename(target)[:40] + ".", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
        temp = None
    except OSError as exc:
        error = OutputError(f"{shown}: cannot be written ({exc.strerror or exc})")
        error.errno = exc.errno
        raise error from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
