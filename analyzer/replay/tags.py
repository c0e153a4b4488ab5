"""The tags that say which rules a game is replayed under: ``Variant`` and ``Rules`` (the variant and
its options), Domino Whist's ``FalsePlay`` (where a false play that stands lies), and a draw game's
``Starter`` (the tile turned up from the boneyard to open the line)."""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..record import Game
from ..rules import UnknownVariant, Variant, VariantError, find_variant, parse_rules
from ..tiles import Move, Tile
from ..rules.codes import Code
from ..i18n import gettext

__all__ = ["resolve_variant", "false_plays", "starter_tag"]


def false_plays(game: Game, seat_of: dict[str, int], source: str) -> tuple[dict, list[Diagnostic]]:
    """The FalsePlay tag, ``"C [2-3]@6=3"``: C's [2-3] lies on the 6 leaving its 3 open (Domino Whist §8)."""
    out, problems = {}, []
    for part in game.tags["FalsePlay"].split(","):
        name, _, text = part.strip().partition(" ")
        try:
            move = Move.parse(text)
        except ValueError:
            move = None
        if name not in seat_of or move is None or move.open is None:
            problems.append(_tag_diag(game, "FalsePlay", Code.BAD_FALSE_PLAY, gettext(
                "cannot read {part} in the FalsePlay tag; write the player, the tile, the end it lies on and the half "
                "left open, e.g. {example}", part=repr(part.strip()), example='"C [2-3]@6=3"'), source))
            continue
        out[(name, move.tile)] = move
    return out, problems


def starter_tag(game: Game, source: str) -> tuple[Tile | None, list[Diagnostic]]:
    """The tile the Starter tag turns up from the boneyard to open the line (None: no tag, or one that
    cannot be read: then its problem). Whether the game may have one is the lead's to judge
    (:func:`analyzer.rules.lead.starter_lead`)."""
    text = game.tags.get("Starter")
    if text is None:
        return None, []
    try:
        return Tile.parse(text.strip()), []
    except ValueError:
        return None, [_tag_diag(game, "Starter", Code.BAD_STARTER, gettext(
            "cannot read the Starter tag {text}: write the tile turned up from the boneyard to open the line, e.g. "
            "{example}", text=repr(text), example='[Starter "[3-5]"]'), source)]


def _tag_diag(game: Game, tag: str, code: str, message: str, source: str) -> Diagnostic:
    where = game.tag_pos.get(tag)
    return Diagnostic("error", code, message, where.line if where else None, where.column if where else None, source)


def resolve_variant(game: Game, variant: Variant | str | None = None, rules: dict[str, str] | None = None,
                    source: str = "<record>") -> tuple[Variant, list[Diagnostic]]:
    """The variant a game is played under: ``variant`` (else the Variant tag, else partnership) with
    the Rules tag's options and then ``rules`` on top; the problems found, as diagnostics."""
    diags: list[Diagnostic] = []
    if isinstance(variant, Variant):
        if not rules:
            return variant, diags
        name, options = variant.name, dict(variant.options)
    else:
        name = variant or game.tags.get("Variant")
        options = {}
        tag = game.tags.get("Rules")
        if tag and tag.strip():
            try:
                options.update(parse_rules(tag))
            except VariantError as exc:
                diags.append(_tag_diag(game, "Rules", Code.BAD_RULE, str(exc), source))
    options.update(rules or {})
    players = len(game.players) if game.players else (len(game.hands) or None)
    try:
        return find_variant(name, options, players=players), diags
    except UnknownVariant as exc:
        diags.append(_tag_diag(game, "Variant", Code.UNKNOWN_VARIANT, str(exc), source))
        return find_variant(None), diags
    except VariantError as exc:
        diags.append(_tag_diag(game, "Rules", Code.BAD_RULE, str(exc), source))
        try:
            return find_variant(name, players=players), diags
        except VariantError:
            return find_variant(None), diags
