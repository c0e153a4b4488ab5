"""A record to start one's own from (``domino new``): one example hand of a variant, for its number of
players, dealt and played at random by its rules, written as the writer writes a record, with a comment that
says what to change. It validates as it is (tests/test_first_hour.py checks every variant and number of
players)."""
from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping

from .diagnostics import DominoError
from .i18n import gettext
from .generate import SEAT_NAMES, random_hand
from .notation import write
from .record import Record
from .rules import find_variant
from .rules.catalog import catalog

__all__ = ["TemplateError", "template_text", "seating"]


class TemplateError(DominoError):
    """A template no variant can give (a number of players it does not seat); the message says which can."""


def seating(players: int) -> list[str]:
    """The variants that seat ``players`` players (their ``players`` option, or their fixed number)."""
    out = []
    for entry in catalog():
        option = next((o for o in entry["options"] if o["key"] == "players"), None)
        counts = [int(v) for v in option["values"]] if option else [find_variant(entry["name"]).players]
        if players in counts:
            out.append(entry["name"])
    return out


def _seated(variant) -> int:
    """The players of ``variant`` (Domino Whist for five or six: four of them play each hand)."""
    return int(dict(variant.options).get("players", variant.players))


def _variant(name: str | None, rules: Mapping[str, str], players: int | None):
    """The variant ``name`` with ``rules``, seating ``players`` (None: its default)."""
    variant = find_variant(name, dict(rules))
    if players is None or players == _seated(variant):
        return variant
    if any(o["key"] == "players" for e in catalog() if e["name"] == variant.name for o in e["options"]) \
            and "players" not in rules:
        return find_variant(name, {**rules, "players": str(players)})      # (its message names the counts)
    which = seating(players)
    raise TemplateError(f"{variant.name} seats {_seated(variant)} players, not {players}"
                        + (f"; for {players}: {', '.join(which)}" if which else ""))


def template_text(variant: str | None = None, rules: Mapping[str, str] | None = None, players: int | None = None,
                  seed: int = 1) -> str:
    """The text of a new record: one example hand of ``variant`` (None: the default, partnership) with
    ``rules``, for ``players`` players (None: the variant's number), its deal and moves drawn with ``seed``;
    tags, deal, moves and a comment on what to change. Raises a :class:`~analyzer.diagnostics.DominoError`
    (an unknown variant, option or value, a number of players it does not seat) naming what exists."""
    rules = dict(rules or {})
    v = _variant(variant, rules, players)
    game, _, _ = random_hand(v, random.Random(seed), None, SEAT_NAMES[:v.players])
    moves = game.moves
    kinds = [gettext("a round a line, each player and the tile they played (`@N` after it: the open number it went "
                     "on, where it would fit either end) or `pass`")]
    twice = next((a for a, b in zip(moves, moves[1:]) if a.player == b.player and a.tile is not None
                  and b.tile is not None and not a.draw and not b.draw), None)
    if twice is not None and v.opening.extra:
        kinds.append(gettext("{example}: the opener of the draw game may add a tile that fits right after the double "
                             "led, so the same player plays twice", example=f"`{twice.player} {twice.tile} "
                             f"{twice.player} {moves[moves.index(twice) + 1].tile}`"))
    if any(m.draw for m in moves):
        kinds.append(gettext("`B draws [3-4]`: a tile taken from the boneyard (`draws ?`: one not seen)"))
    if any(m.arm for m in moves):
        kinds.append(gettext("`>N` after a tile: the arm it went on"))
    if any(m.claim for m in moves):
        kinds.append(gettext("`+N`: the points a play scores, as its player called them"))
    if any(m.muggins for m in moves):
        kinds.append(gettext("`C muggins 10`: points the player before did not call, taken"))
    tags = {"Event": gettext("my game"), "Date": "????.??.??", "Variant": game.tags["Variant"]}
    if "Rules" in game.tags:
        tags["Rules"] = game.tags["Rules"]
    tags.update({k: game.tags[k] for k in ("Players", "Lead", "Result")})
    game.tags = tags
    game.comments = [textwrap.fill(
        gettext("An example hand of {variant} for {players} players, dealt and played at random: write your own game "
                "over it. The tags: Players in play order, Lead who played first, Result as the hand ended (e.g. "
                "\"{result}\"). The deal: a line a player, their tiles (? for a hand not known). The moves: {moves}. "
                "Then `domino validate` this file: each error at its line and column, and the likely slip. The "
                "notation in full: docs/notation.md.", variant=v.name, players=_seated(v), result=tags['Result'],
                moves="; ".join(kinds)), width=100)]
    return write(Record([game], "<new>", []))
