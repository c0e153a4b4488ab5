"""Irregularities of Domino Whist (§8), reported under their rule names.

* **Aufgedeckte Steine** (exposed tiles): an exposed tile stays face up and must be played at the
  first chance it can legally be played. ``exposed_tiles`` reads a proposed ``Exposed`` tag
  (``[Exposed "C [3-4], A [0-0]"]``); checking the later moves against it is NOT done yet.
* **Fehlerhaftes Passen** (false pass): found later, every tile played after it is taken back and
  the fault corrected; the tiles the offender or his partner take back count as exposed.
* **Fehlerhaftes Anlegen** (false play): the tile is taken back and the fault corrected, unless the
  next player has already played or passed: then the false play stands."""
from __future__ import annotations

from dataclasses import replace

from ..tiles import Tile

__all__ = ["annotate", "exposed_tiles", "RULES"]

RULES = {
    "false-pass": ("§8 Fehlerhaftes Passen", "every tile played after it is taken back and the fault corrected; "
                   "tiles the offender or his partner take back count as exposed"),
    "tile-no-match": ("§8 Fehlerhaftes Anlegen", "the tile is taken back and the fault corrected"),
    "exposed-tile": ("§8 Aufgedeckte Steine", "an exposed tile must be played at the first legal chance"),
}


def exposed_tiles(text: str) -> list[tuple[str, Tile]]:
    """Read an ``Exposed`` tag: ``"C [3-4], A [0-0]"``."""
    out = []
    for part in text.split(","):
        words = part.split(None, 1)
        if len(words) == 2:
            out.append((words[0], Tile.parse(words[1])))
    return out


def annotate(variant, steps, end_diags) -> None:
    """Name the §8 rule of each irregularity the replay found, and what the rule makes of it."""
    for k, step in enumerate(steps):
        for j, d in enumerate(step.diagnostics):
            rule = RULES.get(d.code)
            if rule is None:
                continue
            name, consequence = rule
            if d.code == "tile-no-match":
                later = next((s for s in steps[k + 1:] if s.seat is not None), None)
                if later is not None and later.seat != step.seat:
                    consequence = ("the next player has already moved, so the false play stands and no "
                                   "correction can be demanded")
            step.diagnostics[j] = replace(d, message=f"{d.message} ({name}: {consequence})",
                                          details={**d.details, "rule": name})

