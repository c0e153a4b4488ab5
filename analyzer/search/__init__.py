"""Exact search: the int solver for two-ended block games (``block``) and the general alpha-beta over
any position (``tree``). :data:`CORE` names the core in use (``core``: compiled or pure Python)."""
from .block import Solver, SolverError
from .core import CORE, MAX_TABLE_MB, TABLE_MB
from .tree import NO_EXTRA, NODE_LIMIT, RevealedArms, RevealedDraws, SearchLimit, TreeSearch, revealed, revealed_order

__all__ = ["Solver", "SolverError", "TreeSearch", "SearchLimit", "RevealedDraws", "RevealedArms", "NO_EXTRA",
           "NODE_LIMIT", "revealed", "revealed_order", "CORE", "TABLE_MB", "MAX_TABLE_MB"]
