"""Irregularities of Domino Whist (§8), reported under their rule names.

* **Aufgedeckte Steine** (exposed tiles): an exposed tile stays face up and must be played at the
  first chance it can legally be played. The record names tiles exposed before play in an
  ``Exposed`` tag (``[Exposed "C [3-4], A [0-0]"]``); ``check_exposed`` reports an exposed tile
  its holder did not play at his first turn where it fitted (``exposed-tile``). A tile taken back
  after a corrected false play is exposed too, but a record has no notation for a correction
  (once the next player has moved, the false play stands and nothing is taken back), so such
  tiles are written in the Exposed tag.
* **Fehlerhaftes Passen** (false pass): found later, every tile played after it is taken back and
  the fault corrected; the tiles the offender or his partner take back count as exposed.
* **Fehlerhaftes Anlegen** (false play): the tile is taken back and the fault corrected, unless the
  next player has already played or passed: then the false play stands."""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostic
from ..tiles import Tile

__all__ = ["annotate", "check_exposed", "RULES"]

RULES = {
    "false-pass": ("§8 Fehlerhaftes Passen", "every tile played after it is taken back and the fault corrected; "
                   "tiles the offender or his partner take back count as exposed"),
    "tile-no-match": ("§8 Fehlerhaftes Anlegen", "the tile is taken back and the fault corrected"),
    "exposed-tile": ("§8 Aufgedeckte Steine", "an exposed tile must be played at the first legal chance"),
}


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



def check_exposed(replayer, initial, steps) -> list[Diagnostic]:
    """Report every exposed tile that was not played at the first legal chance.

    Adds its findings to the steps where the tile should have been played; returns the problems
    of the ``Exposed`` tag itself (an unknown player, a tile he was not dealt)."""
    game = replayer.game
    tag_problems: list[Diagnostic] = []
    exposed: dict[Tile, tuple[int, str]] = {}        # tile -> (holder's seat, how it was exposed)
    text = game.tags.get("Exposed", "")
    if text.strip():
        for name, tile in _read_tag(text, replayer, tag_problems):
            seat = replayer.seat_of[name]
            if not initial.hands[seat] & tile.bit:
                tag_problems.append(replayer.diag("bad-exposed", f"the Exposed tag names {name}'s {tile}, but "
                                                  f"{name} was not dealt it", game.tag_pos.get("Exposed")))
                continue
            exposed[tile] = (seat, "named in the Exposed tag")
    name, consequence = RULES["exposed-tile"]
    for k, step in enumerate(steps):
        if step.seat is not None and exposed:
            held = steps[k - 1].hands_after[step.seat] if k else initial.hands[step.seat]
            played = step.move.tile if step.move is not None else None
            for tile, (seat, how) in list(exposed.items()):
                if seat != step.seat or not held & tile.bit:
                    continue
                # at the lead any tile may be played, so the first chance is the lead itself
                fits = step.ends_before is None or any(tile.matches(e) for e in step.ends_before)
                if fits and played != tile:
                    step.diagnostics.append(replayer.diag(
                        "exposed-tile", f"{replayer.players[seat]}'s {tile} is exposed ({how}) and fits the open "
                        f"ends here, so it must be played now, not {played or 'a pass'} "
                        f"({name}: {consequence})", step.entry.pos, tile=str(tile), rule=name))
                if fits:
                    del exposed[tile]        # its first chance has come, taken or not
        if step.move is not None and step.move.tile in exposed:
            del exposed[step.move.tile]
    return tag_problems


def _read_tag(text, replayer, problems):
    for part in text.split(","):
        words = part.split(None, 1)
        try:
            tile = Tile.parse(words[1]) if len(words) == 2 else None
        except ValueError:
            tile = None
        if tile is None or words[0] not in replayer.seat_of:
            problems.append(replayer.diag("bad-exposed", f"cannot read {part.strip()!r} in the Exposed tag; write "
                                          "the player and the tile, e.g. \"C [3-4], A [0-0]\"",
                                          replayer.game.tag_pos.get("Exposed")))
            continue
        yield words[0], tile
