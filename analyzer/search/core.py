"""Which search cores run: the compiled ones (C) or the pure-Python ones.

Three compiled modules, each optional and each with its pure-Python twin: ``analyzer.search._core``,
the two-ended block search (:class:`~analyzer.search.Solver`), ``analyzer.search._arms``, the
search over layouts with arms once the spinner is filled (French, cross, the double-nine cross;
inside :class:`~analyzer.search.TreeSearch`), and ``analyzer.search._draw``, the search of two-ended
draw games in a fixed boneyard order and of All Fives once the line has its lead (inside
``TreeSearch``, see :mod:`analyzer.search.draw`). A compiled one is used unless it is missing (the
package was installed where no C compiler was at hand: ``setup.py`` builds the extensions as
optional) or the environment variable ``DOMINO_PURE_PYTHON=1`` asks for the pure-Python search
(read once, at import). In Pyodide (the static site) a compiled core is the same kernel's WebAssembly module where
the page's worker instantiated it (:mod:`analyzer.search.wasmcore`, :mod:`~analyzer.search.wasmarms`,
:mod:`~analyzer.search.wasmdraw`; :data:`CORE_BINDING`, :data:`ARMS_BINDING`, :data:`DRAW_BINDING` say which
binding runs). Both give the same values; the tests compare them. :data:`CORE` says which
one a block solver gets by default (``"compiled"`` or ``"python"``), :data:`ARMS_CORE` the same for
the search over arms, :data:`DRAW_CORE` for the search of draw games, and ``domino --version`` prints them (:func:`cores_text`).

The transposition table of one solver is bounded: :data:`TABLE_MB` megabytes unless the solver is
given another size (``Solver(..., table_mb=N)``, ``domino analyze --table-mb N``). The compiled
table is an array of :data:`ENTRY_BYTES`-byte slots that starts small, grows while it fills up to
that bound, and then replaces entries; the pure-Python tables of one solver are dicts of at most
``table_mb`` / :data:`PY_ENTRY_BYTES` entries together (a full one takes the room of the others,
oldest first, and starts again when it holds all of it: ``Solver._make_room``). The dicts of one
``TreeSearch`` (the general search's, those of the search over arms and of draw games in Python)
share that bound too: the others are emptied and the full one drops its lesser half
(``TreeSearch._full``). The compiled search over arms has its
own table of :data:`ARMS_ENTRY_BYTES`-byte slots, growing to
at most ``table_mb`` megabytes of them for one ``TreeSearch``, then replacing entries; so has the
compiled search of draw games (:data:`DRAW_ENTRY_BYTES`-byte slots, at most ``table_mb`` megabytes for
each deal a ``TreeSearch`` meets).
"""
from __future__ import annotations

import os
import weakref
from dataclasses import dataclass

#: The positions one call of a search may visit before it gives up (:class:`SearchLimit`): the
#: int solver (each call of its search counts one) and the general search alike.
NODE_LIMIT = 2_000_000


class SearchLimit(RuntimeError):
    """The search needed more nodes than its limit allows. Raised from ``values``, it carries in
    ``partial`` the ``(move, value)`` pairs found before it, in the order of the legal moves, and in
    ``bounds`` the proven ``(move, low, high)`` of every legal move (side 0; None: open on that side;
    ``low == high`` where the value is exact), which the search found with as many positions again
    (:func:`~analyzer.search.alphabeta.bound_moves`)."""

    partial: list | tuple = ()
    bounds: list | tuple = ()
    window: tuple = ()


try:
    from . import _core
except ImportError:  # pragma: no cover - a machine without a C compiler
    _core = None

try:
    from . import _arms
except ImportError:  # pragma: no cover - a machine without a C compiler
    _arms = None
try:
    from . import _draw
except ImportError:  # pragma: no cover - a machine without a C compiler
    _draw = None

__all__ = ["NODE_LIMIT", "SearchLimit", "SearchBudget", "CORE", "ARMS_CORE", "PURE_ENV", "TABLE_MB", "MAX_TABLE_MB", "check_table_mb", "exact_node_limit", "ENTRY_BYTES", "ARMS_ENTRY_BYTES", "PY_ENTRY_BYTES",
           "DRAW_CORE", "CORE_BINDING", "ARMS_BINDING", "DRAW_BINDING", "DRAW_ENTRY_BYTES", "compiled_core", "arms_core", "draw_core", "resolve", "resolve_arms",
           "resolve_draw", "race_wasm", "cfr_wasm", "cores_text", "pure_python_note", "installed_with_cores", "filled", "weak_method"]

#: The environment variable that asks for the pure-Python search.
PURE_ENV = "DOMINO_PURE_PYTHON"

#: The default size of one solver's transposition table, in megabytes. An analysis of a game of
#: individual players splits it between the players' views: at 64 MB the view of one Chiva hand for
#: three in twenty (a 12 MB table) replaced entries until it ran past the node limit. A compiled
#: table that fills grows to its bound, so a larger one costs memory and time where the search is
#: large (the double-nine cross: 0.56 s a hand at 64 MB, 0.73 s at 128, 1.27 s at 256).
TABLE_MB = 128

#: The largest table a search takes, in megabytes: a tebibyte (a table grows to its bound as it fills).
MAX_TABLE_MB = 1 << 20


def exact_node_limit(variant, node_limit: int | None = None) -> int:
    """The node limit of the exact search of one decision with every hand open (``block.Solver``'s): ``node_limit``
    where the caller names one, else :data:`NODE_LIMIT` times the variant's ``search_scale`` (a deal larger than the
    double-six's: Cuban double-nine, whose free leads need up to some 10 million positions)."""
    return NODE_LIMIT * getattr(variant, "search_scale", 1) if node_limit is None else node_limit


def check_table_mb(table_mb: float) -> None:
    """Refuse a table size that is not from a fraction of a megabyte up to :data:`MAX_TABLE_MB` (nan, inf,
    0 and less, or so large that its count of slots does not fit the compiled table's)."""
    if not 0 < table_mb <= MAX_TABLE_MB:
        raise ValueError(f"the table needs a size above 0 and at most {MAX_TABLE_MB:,} megabytes, not {table_mb}")

@dataclass(frozen=True)
class SearchBudget:
    """What one search may spend: at most ``node_limit`` nodes (None: the caller's default, or no limit) and a
    transposition table of ``table_mb`` megabytes (memory only: the values are the same at any size). One value
    travels from the command line to every solver, in place of the two parameters."""

    node_limit: int | None = None
    table_mb: float = TABLE_MB

    def __post_init__(self):
        check_table_mb(self.table_mb)
        if self.node_limit is not None and not 0 < self.node_limit < 1 << 63:
            raise ValueError(f"the node limit is a count from 1 below 2^63, not {self.node_limit}")
        object.__setattr__(self, "table_mb", float(self.table_mb))


_PURE = os.environ.get(PURE_ENV, "") not in ("", "0")


def _wasm_kernel(name: str):
    """The binding of kernel ``name`` over its WebAssembly module, where this Python runs in Pyodide and the page's
    worker instantiated the module (``js.dominoKernels[name]``, ``analyzer/site/static/worker.js``); else None."""
    import sys

    if sys.platform != "emscripten":
        return None
    try:
        import js
        exports = getattr(getattr(js, "dominoKernels"), name)
    except (ImportError, AttributeError):
        return None
    if exports is None:
        return None
    if name == "core":
        from . import wasmcore as binding
    elif name == "arms":
        from . import wasmarms as binding
    elif name == "draw":
        from . import wasmdraw as binding
    elif name == "race":
        from . import wasmrace as binding
    elif name == "cfr":
        from . import wasmcfr as binding
    else:
        return None
    try:
        binding.load(exports)
    except RuntimeError:        # (a module this binding does not read: the pure-Python search, and cores_text says so)
        return None
    return binding


# The one place that picks each compiled search's binding: the CPython extension, else (in Pyodide) the same
# kernel's WebAssembly module, else none (the pure-Python search).
_WASM = _core is None and not _PURE and (_core := _wasm_kernel("core")) is not None
_ARMS_WASM = _arms is None and not _PURE and (_arms := _wasm_kernel("arms")) is not None
_DRAW_WASM = _draw is None and not _PURE and (_draw := _wasm_kernel("draw")) is not None

#: The bytes of one slot of the compiled table.
ENTRY_BYTES = _core.ENTRY_BYTES if _core is not None else 24

#: The bytes one entry of the pure-Python table takes (the dict slot, the int key, the tuple of
#: bounds and best move: measured with tracemalloc by bench/bench_solver.py).
PY_ENTRY_BYTES = 200


#: The bytes of one slot of the compiled table of the search over arms (the whole state is kept).
ARMS_ENTRY_BYTES = _arms.ENTRY_BYTES if _arms is not None else 48


#: The bytes of one slot of the compiled table of the search of draw games (the whole state is kept).
DRAW_ENTRY_BYTES = _draw.ENTRY_BYTES if _draw is not None else 48


def filled(used: int, max_entries: int) -> bool:
    """Whether a compiled table holding ``used`` of its ``max_entries`` slots at most is full: three
    quarters of them taken, where new entries push out others all the time (a few collisions in its
    buckets of a few slots replace entries long before)."""
    return 4 * used >= 3 * max_entries


def weak_method(method):
    """``method`` (bound) called through a weak reference to its object: a compiled search that keeps it
    (to ask Python for a leaf value) then makes no reference cycle with the object that owns that
    search, so the search and its table are freed as soon as the object is dropped, not at the next
    collection of cycles (a caller that solves one world after another would otherwise hold a table
    per world until then)."""
    ref = weakref.WeakMethod(method)
    return lambda *args: ref()(*args)


_RACE_WASM: list = []


def race_wasm():
    """The race solver's binding over its WebAssembly module (:mod:`analyzer.search.wasmrace`, the same calls as the
    extension ``analyzer.equity._race``) where this Python runs in Pyodide and the page's worker instantiated
    ``_race.wasm``, else None; asked by the match tables (``equity/race.py``, ``equity/store.py``) only where their
    extension is missing, so that the one pick is here too: the extension, else the module, else pure Python
    (``DOMINO_PURE_PYTHON=1``: pure Python)."""
    if not _RACE_WASM:
        _RACE_WASM.append(None if _PURE else _wasm_kernel("race"))
    return _RACE_WASM[0]


_CFR_WASM: list = []


def cfr_wasm():
    """The CFR+ kernel's binding over its WebAssembly module (:mod:`analyzer.search.wasmcfr`, the same calls as the
    extension ``analyzer.hidden._cfr``) where this Python runs in Pyodide and the page's worker instantiated
    ``_cfr.wasm``, else None; asked by the hidden-information solver (``hidden/cfr.py``) only where its extension is
    missing, as :func:`race_wasm` is by the match tables (``DOMINO_PURE_PYTHON=1``: pure Python)."""
    if not _CFR_WASM:
        _CFR_WASM.append(None if _PURE else _wasm_kernel("cfr"))
    return _CFR_WASM[0]


def compiled_core():
    """The compiled module, or ``None`` where it was not built."""
    return _core


def arms_core():
    """The compiled module of the search over layouts with arms, or ``None`` where it was not built."""
    return _arms


def draw_core():
    """The compiled module of the search of draw games (and All Fives), or ``None`` where it was not built."""
    return _draw



#: ``"compiled"`` or ``"python"``: the core a solver of block lines uses unless told otherwise.
CORE = "compiled" if _core is not None and not _PURE else "python"

#: Which binding serves the compiled block search: ``"native"`` (the CPython extension ``_core``), ``"wasm"`` (its
#: kernel's WebAssembly module under Pyodide, :mod:`analyzer.search.wasmcore`), or None (:data:`CORE` is
#: ``"python"``).
CORE_BINDING = None if CORE == "python" else "wasm" if _WASM else "native"

#: ``"compiled"`` or ``"python"``: the core the search over layouts with arms (French, cross, the
#: double-nine cross; ``TreeSearch``) uses unless told otherwise. Built apart from :data:`CORE`.
ARMS_CORE = "compiled" if _arms is not None and not _PURE else "python"

#: Which binding serves the compiled search over arms: ``"native"``, ``"wasm"`` (:mod:`analyzer.search.wasmarms`) or
#: None (:data:`ARMS_CORE` is ``"python"``).
ARMS_BINDING = None if ARMS_CORE == "python" else "wasm" if _ARMS_WASM else "native"

#: ``"compiled"`` or ``"python"``: the core the search of draw games in a fixed boneyard order and of All
#: Fives (``TreeSearch``, once the line has its lead) uses unless told otherwise.
DRAW_CORE = "compiled" if _draw is not None and not _PURE else "python"

#: Which binding serves the compiled search of draw games: ``"native"``, ``"wasm"`` (:mod:`analyzer.search.wasmdraw`)
#: or None (:data:`DRAW_CORE` is ``"python"``).
DRAW_BINDING = None if DRAW_CORE == "python" else "wasm" if _DRAW_WASM else "native"


def _resolve(core: str | None, default: str, module, what: str) -> str:
    if core is None:
        return default
    if core not in ("compiled", "python"):
        raise ValueError(f"unknown search core {core!r}: 'compiled' or 'python'")
    if core == "compiled" and module is None:
        raise ValueError(f"the compiled {what} was not built (no C compiler at install time)")
    return core


def resolve(core: str | None) -> str:
    """The core a solver asked for ``core`` (None: the default) runs on; an error for one not built."""
    return _resolve(core, CORE, _core, "search core")


def resolve_arms(core: str | None) -> str:
    """The core of the search over arms asked for ``core`` (None: the default); an error for one not built."""
    return _resolve(core, ARMS_CORE, _arms, "search over arms")


def resolve_draw(core: str | None) -> str:
    """The core of the search of draw games asked for ``core`` (None: the default); an error for one not built."""
    return _resolve(core, DRAW_CORE, _draw, "search of draw games")


def cores_text(more: tuple = ()) -> str:
    """Which cores are in use, in a few words (``domino --version``); ``more``: the cores of later steps, each
    ``(what, core, binding)`` (the CFR+ solver's: :func:`analyzer.hidden.cfr.cfr_core`), named where they differ."""
    def named(core: str, binding: str | None) -> str:
        return "compiled (WebAssembly)" if binding == "wasm" else core

    main = named(CORE, CORE_BINDING)
    others = [f"{what}: {name}" for what, name in (("arms", named(ARMS_CORE, ARMS_BINDING)),
                                                    ("draw games", named(DRAW_CORE, DRAW_BINDING)),
                                                    *((what, named(core, binding)) for what, core, binding in more))
              if name != main]
    return f"{main} ({', '.join(others)})" if others else main


_CORES = ("_core", "_arms", "_draw")


def _built(folder: str) -> bool:
    """Whether the package folder ``folder`` (the one holding ``search/``) holds every compiled search core."""
    import importlib.machinery

    try:
        names = os.listdir(os.path.join(folder, "search"))
    except OSError:
        return False
    return all(any(name.startswith(core + ".") and name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
                   for name in names) for core in _CORES)


def installed_with_cores(candidates=None) -> str | None:
    """The folder of an installed copy of the package that holds the compiled search cores, when the package
    imported here is another folder without them (a source tree: ``python3 -m analyzer`` run from a clone's
    root imports the clone, not what ``pip install .`` installed); None otherwise. ``candidates`` (for the
    tests): the package folders to look at, instead of those of every installed ``domino-analyzer``."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _built(here):
        return None
    if candidates is None:
        from importlib import metadata
        candidates = []
        for dist in metadata.distributions(name="domino-analyzer"):     # (a clone's own egg-info too)
            try:
                candidates.append(dist.locate_file("analyzer"))
            except (OSError, TypeError, ValueError, NotImplementedError):
                continue
    for folder in candidates:
        there = os.path.abspath(os.fspath(folder))
        if there != here and _built(there):
            return there
    return None


def pure_python_note() -> str | None:
    """What a user of the command line should know when a search runs in pure Python (``None`` when
    every core is compiled): why, and what it costs where it matters. The library never prints it;
    the commands that search (``analyze``, ``report``, ``stats``) print it once, on standard error."""
    slow = [what for what, core in (("block games", CORE), ("layouts with arms", ARMS_CORE), ("draw games and All Fives",
                                                                                              DRAW_CORE))
            if core == "python"]
    if not slow:
        return None
    installed = None if _PURE else installed_with_cores()
    if _PURE:
        why = f"{PURE_ENV}=1 asks for it"
    elif installed is not None:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        why = (f"Python imported the source tree {here}, whose cores are not built, and not the installed "
               f"package {installed}, which has them: `python3 -m analyzer` puts the current folder first on "
               "the path; run `domino` or `python3 -P -m analyzer` instead, or another folder, or build the cores "
               "in the tree with `python3 -m pip install -e .`")
    else:
        why = ("the compiled search cores were not built: no C compiler or Python headers when the package was "
               "installed; install them (e.g. apt-get install gcc python3-dev) and install the package again")
    which = "" if len(slow) == 3 else f" for {' and '.join(slow)}"
    return (f"note: the search runs in pure Python{which} ({why}): the same values, 15-60 times slower "
            f"(a French record takes about 230 s instead of 6 s)")
