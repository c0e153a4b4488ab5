"""Exact search: the int solver for two-ended block games (``block``) and the general alpha-beta over
any position (``tree``). :data:`CORE` names the core in use (``core``: compiled or pure Python).

The solvers are loaded when first asked for (``from analyzer.search import Solver``): ``core`` alone
(which cores are built, the search's bounds) is what ``domino --version`` and the options need."""
from .core import CORE, MAX_TABLE_MB, NODE_LIMIT, TABLE_MB, SearchLimit

__all__ = ["Solver", "SolverError", "TreeSearch", "SearchLimit", "RevealedDraws", "RevealedArms", "NO_EXTRA",
           "NODE_LIMIT", "revealed", "revealed_order", "CORE", "TABLE_MB", "MAX_TABLE_MB"]

_BLOCK = ("Solver", "SolverError")
_TREE = ("TreeSearch", "RevealedDraws", "RevealedArms", "NO_EXTRA", "revealed", "revealed_order")


def __getattr__(name: str):
    if name in _BLOCK:
        from . import block
        return getattr(block, name)
    if name in _TREE:
        from . import tree
        return getattr(tree, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
