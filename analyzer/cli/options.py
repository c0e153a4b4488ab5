"""Options that several commands share."""
from __future__ import annotations

import click

from ..search import MAX_TABLE_MB, NODE_LIMIT, TABLE_MB

__all__ = ["search_options"]


def _table_mb(ctx, param, value: float) -> float:
    if not (1 <= value <= MAX_TABLE_MB):         # (also catches nan, which no comparison holds for)
        raise click.BadParameter(f"{value} is not a size from 1 to {MAX_TABLE_MB:,} MB")
    return value


def search_options(f):
    """``--max-nodes`` and ``--table-mb``: the bounds of the exact search (analyze, report)."""
    f = click.option("--table-mb", type=float, callback=_table_mb, default=TABLE_MB, show_default=True, metavar="MB",
                     help="Memory the exact search's transposition table may take, 1 MB to 1 TB (a full table "
                          "replaces entries).")(f)
    return click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
                        help=f"Positions the exact search may visit for the values of one decision; a decision that "
                             f"needs more is left out, and the analysis names it (default {NODE_LIMIT:,}).")(f)
