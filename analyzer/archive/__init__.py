"""Archives: whole collections of record files, processed in parallel or on a cluster.

``inputs`` turns files, directories and ``-`` into sources (bytes or why they cannot be read; a
file is read when the work reaches it), ``runner`` runs the pipeline's task on each (here, in a
process pool or, with ``cluster``, on a Dask cluster; results in input order), ``cache`` keeps finished results so a re-run redoes only
what changed, ``stats`` sums the results up per player, ``summary`` counts records, valid and invalid
ones and errors by code."""
from .inputs import RECORD_EXTENSIONS, InputError, RecordFile, Source, decode, expand, load
from ..pipeline import Options, check_rules
from .task import process
from .runner import Execution, run
from .summary import Summary

__all__ = ["Cache", "CacheUnusable", "RECORD_EXTENSIONS", "InputError", "RecordFile", "Source", "decode", "expand",
           "load", "ClusterUnavailable", "Options", "check_rules", "process", "run", "Execution", "PlayerRow", "player_rows",
           "Summary"]


_LATER = {"Cache": "cache", "CacheUnusable": "cache", "ClusterUnavailable": "cluster", "PlayerRow": "stats",
          "player_rows": "stats"}


def __getattr__(name: str):
    """The cache's, the cluster's and the per-player summary's names, loaded when first asked for (start-up:
    ``validate`` and ``analyze`` run without them unless asked to)."""
    if name in _LATER:
        import importlib

        return getattr(importlib.import_module(f".{_LATER[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
