"""The JSON Schema of the tool's JSON (``results.schema.json``: ``analyze --json``, ``validate --json`` and a record's
result, ``--jsonl``), shipped with the package for those who read that JSON; :func:`schema` loads it."""
from __future__ import annotations

import json
from importlib.resources import files

__all__ = ["schema", "VERSION"]

VERSION = 4       # the schema's version: a change of a field's name, type or meaning makes the next
#                   (2: a fair verdict's ``best`` is null where ``tied`` names the moves not told apart; each
#                   alternative's fair value has its paired ``gap`` to the best and its interval ``gap_ci``; 3: a move
#                   dropped from contention says in how many deals it was valued; 4: one word for a deal: ``deals``,
#                   ``total_deals``, ``worst_deal``, their former names ``worlds``, ``total_worlds``, ``worst_world``
#                   still written beside them, deprecated, gone in 5: ``codec.key(retired=...)``, docs/glossary.md;
#                   in 4 too, a sheet's ``deals.cut``, the sentence saying where its values stopped, is the object
#                   ``deals.cut_short``, the sentence still written beside it, deprecated, gone in 5:
#                   ``codec.key(retired_write=...)``; and the fair verdicts' budget cut, English words at the end of
#                   ``fair_note`` before, the object ``fair_cut``)


def schema() -> dict:
    """The JSON Schema (draft 2020-12) of the tool's JSON output."""
    return json.loads(files(__package__).joinpath("results.schema.json").read_text(encoding="utf-8"))
