"""The user's own folder for what the tool keeps between runs: the race tables solved on first use
(``equity``) and the record parser's built tables (``notation.reader``). Never the shared temporary
folder, where another user could leave a file for this one to load."""
from __future__ import annotations

import os

__all__ = ["CACHE_ENV", "cache_folder", "kept_file"]

CACHE_ENV = "DOMINO_CACHE"


def cache_folder() -> str:
    """The folder of the files kept between runs: ``$DOMINO_CACHE``, else ``domino`` in ``$XDG_CACHE_HOME``
    (default ``~/.cache``)."""
    return os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "domino")


def kept_file(name: str) -> str | None:
    """The path of the file ``name`` in :func:`cache_folder`, the folder made (readable by its owner only)
    where it is missing; None where it cannot be made (a read-only home: nothing is kept)."""
    folder = cache_folder()
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return os.path.join(folder, name)
