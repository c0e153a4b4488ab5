"""Which search core runs: the compiled one (``analyzer.search._core``, C) or the pure-Python one.

The compiled core is used unless it is missing (the package was installed where no C compiler was
at hand: ``setup.py`` builds the extension as optional) or the environment variable
``DOMINO_PURE_PYTHON=1`` asks for the pure-Python search (read once, at import). Both give the
same values; the tests compare them. :data:`CORE` says which one a solver gets by default
(``"compiled"`` or ``"python"``), and ``domino --version`` prints it.

The transposition table of one solver is bounded: :data:`TABLE_MB` megabytes unless the solver is
given another size (``Solver(..., table_mb=N)``, ``domino analyze --table-mb N``). The compiled
table is a fixed array of :data:`ENTRY_BYTES`-byte slots that replaces entries when full; the
pure-Python table is a dict of at most ``table_mb`` / :data:`PY_ENTRY_BYTES` entries, emptied when
full.
"""
from __future__ import annotations

import os

try:
    from . import _core
except ImportError:  # pragma: no cover - a machine without a C compiler
    _core = None

__all__ = ["CORE", "PURE_ENV", "TABLE_MB", "ENTRY_BYTES", "PY_ENTRY_BYTES", "compiled_core", "resolve"]

#: The environment variable that asks for the pure-Python search.
PURE_ENV = "DOMINO_PURE_PYTHON"

#: The default size of one solver's transposition table, in megabytes.
TABLE_MB = 64

#: The bytes of one slot of the compiled table.
ENTRY_BYTES = _core.ENTRY_BYTES if _core is not None else 24

#: The bytes one entry of the pure-Python table takes (the dict slot, the int key, the tuple of
#: bounds and best move: measured with tracemalloc by bench/bench_solver.py).
PY_ENTRY_BYTES = 200


def compiled_core():
    """The compiled module, or ``None`` where it was not built."""
    return _core


#: ``"compiled"`` or ``"python"``: the core a solver uses unless told otherwise.
CORE = "compiled" if _core is not None and os.environ.get(PURE_ENV, "") in ("", "0") else "python"


def resolve(core: str | None) -> str:
    """The core a solver asked for ``core`` (None: the default) runs on; an error for one not built."""
    if core is None:
        return CORE
    if core not in ("compiled", "python"):
        raise ValueError(f"unknown search core {core!r}: 'compiled' or 'python'")
    if core == "compiled" and _core is None:
        raise ValueError("the compiled search core was not built (no C compiler at install time)")
    return core
