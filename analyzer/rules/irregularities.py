"""Irregularities of Domino Whist (§8), reported under their rule names.

* **Aufgedeckte Steine** (exposed tiles): an exposed tile stays face up and must be played at the
  first chance it can legally be played. The record names tiles exposed before play in an
  ``Exposed`` tag (``[Exposed "C [3-4], A [0-0]"]``, read by ``read_exposed``). The position keeps
  the live ones (``Position.exposed``): its ``legal_moves`` allow only them at their holder's turn
  where they fit, and the judge reports any other entry there (``exposed-tile``), so the searches
  and the fair worlds obey the rule as the replay does. A tile exposed during play (or taken back
  after a corrected false pass or false play) binds from the moment it is exposed: the tag names
  the row it binds from, ``[Exposed "C [0-4] from 5"]``, and it lies open from that row on.
* **Fehlerhaftes Passen** (false pass): found later, every tile played after it is taken back and
  the fault corrected; the tiles the offender or the offender's partner take back count as exposed.
* **Fehlerhaftes Anlegen** (false play): the tile is taken back and the fault corrected, unless the
  next player has already played or passed: then the false play stands."""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext
from ..record import clip
from ..tiles import Tile
from .codes import Code

__all__ = ["with_rules", "read_exposed", "exposed_tiles", "RULES"]

RULES = {
    Code.FALSE_PASS: ("§8 Fehlerhaftes Passen", N_("every tile played after it is taken back and the fault "
                                                   "corrected; tiles the offender or the offender's partner take back "
                                                   "count as exposed")),
    Code.TILE_NO_MATCH: ("§8 Fehlerhaftes Anlegen", N_("the tile is taken back and the fault corrected")),
    Code.EXPOSED_TILE: ("§8 Aufgedeckte Steine", N_("an exposed tile must be played at the first legal chance")),
    Code.FALSE_PLAY_STANDS: ("§8 Fehlerhaftes Anlegen", N_("the next player has already moved, so the false play "
                                                           "stands and no correction can be demanded; play goes on "
                                                           "from the tile where it lies")),
}


def with_rules(steps: list) -> list:
    """``steps`` (the replay's, as run) with each irregularity the replay found naming its §8 rule and what the rule
    makes of it: a new list, each step with such a diagnostic a new step (``dataclasses.replace``), the others as
    they were; the steps given are left as they were."""
    out = []
    for k, step in enumerate(steps):
        named = [_named(d, step, steps[k + 1:]) for d in step.diagnostics]
        out.append(step if all(n is d for n, d in zip(named, step.diagnostics)) else replace(step, diagnostics=named))
    return out


def _named(d: Diagnostic, step, later_steps) -> Diagnostic:
    """Diagnostic ``d`` of ``step`` naming its §8 rule and its consequence, where it has one (else ``d``)."""
    rule = RULES.get(d.code)
    if rule is None:
        return d
    name, consequence = rule
    consequence = gettext(consequence)
    if d.code == Code.TILE_NO_MATCH:
        later = next((s for s in later_steps if s.seat is not None), None)
        if later is not None and later.seat != step.seat:
            consequence = gettext("the next player has already moved, so the false play stands and no correction can "
                                  "be demanded; say where the tile lies with the tag FalsePlay, {tag} (the open end "
                                  "it lies on and the half it leaves open), and it stands as a warning",
                                  tag=f'[FalsePlay "{step.entry.player} {step.entry.tile}@END=OPEN"]')
    return replace(d, message=gettext("{message} ({rule}: {consequence})", message=d.message, rule=name,
                                      consequence=consequence), details={**d.details, "rule": name})


def read_exposed(replayer, initial) -> tuple[list[tuple[int, Tile, int, str]], list[Diagnostic]]:
    """The tiles the ``Exposed`` tag names: ``(holder's seat, tile, the row from which it binds (0: from
    the deal), how it was exposed in words)``, and the tag's problems (a part it cannot read, a tile the
    player was not dealt: ``bad-exposed``). The judge then holds each player to them
    (``Position.due``, ``Judge.entry``: ``exposed-tile``)."""
    game = replayer.game
    problems: list[Diagnostic] = []
    where = game.tag_pos.get("Exposed")

    def unreadable(part: str) -> None:
        problems.append(replayer.diag(Code.BAD_EXPOSED, gettext(
            "cannot read {part} in the Exposed tag; write the player and the tile, e.g. {example}, and for a tile "
            "exposed during play the row it binds from: {during}", part=repr(clip(part.strip())),
            example='"C [3-4], A [0-0]"', during='"C [0-4] from 5"'), where))

    out = []
    for name, tile, row in _read_tag(game.tags.get("Exposed", ""), replayer.seat_of, unreadable):
        seat = replayer.seat_of[name]
        if not initial.hands[seat] & tile.bit:
            problems.append(replayer.diag(Code.BAD_EXPOSED, gettext("the Exposed tag names {player}'s {tile}, but "
                                                                    "{player} was not dealt it", player=name,
                                                                    tile=tile), where))
            continue
        how = (gettext("named in the Exposed tag, exposed during play before row {row}", row=row) if row else
               gettext("named in the Exposed tag"))
        out.append((seat, tile, row, how))
    return out, problems


def exposed_tiles(game, players) -> list[tuple[int, Tile, int]]:
    """The tiles the ``Exposed`` tag shows face up, seen by every player: ``(holder's seat, tile, the
    row from which it lies open)`` (row 0: from the deal). Parts it cannot read are left out (the
    replay reports them)."""
    seat_of = {name: s for s, name in enumerate(players)}
    return [(seat_of[name], tile, row)
            for name, tile, row in _read_tag(game.tags.get("Exposed", ""), seat_of, lambda part: None)]


def _read_tag(text, seat_of, unreadable):
    """``C [3-4]`` (exposed before play) or ``C [0-4] from 5`` (exposed during play, binding from row 5);
    ``unreadable(part)`` for each part that is neither."""
    if not text.strip():
        return
    for part in text.split(","):
        words = part.split()
        row = 0
        if len(words) == 4 and words[2] == "from" and words[3].isdecimal():
            row, words = int(words[3]), words[:2]
        try:
            tile = Tile.parse(words[1]) if len(words) == 2 else None
        except ValueError:
            tile = None
        if tile is None or words[0] not in seat_of:
            unreadable(part)
            continue
        yield words[0], tile, row
