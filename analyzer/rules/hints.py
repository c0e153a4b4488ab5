"""Options that would make an error valid (issue 56): where a record breaks a rule of its variant that another
value of one of the variant's options allows, the error names that option, as an error a tag would make valid
names the tag (``Judge._lead_tags``, ``[Passes "omitted"]``, ``FalsePlay``).

Whether the other value allows it is decided here, by the variant built with that value (its deal, its draw, its
end of hand): a hand of 7 where the draw game deals 8 (``hand=7``), a pass with only the stock's last two tiles
left (``keep=2``, Foster's Muggins), a block the player who laid the last tile wins (``block=last``). A change is
offered only when the variant it builds plays the same hand (the same seating, set, deal, draw, opening, layout,
turns and end), so the record's moves stay what they were."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterator

from ..i18n import gettext, ngettext
from .modes import Termination
from .options import VariantError
from .policies import DOUBLE_BLANK, HandFacts, HandResult
from .variants import FAMILIES, Variant, find_variant

__all__ = ["bears", "first_lead_changes", "deal_size_hint", "keep_hint", "lead_hints", "result_hint", "score_hint", "unfinished_hint",
           "SCORING_KEYS", "LEAD_KEYS", "BONUS_KEYS", "FIRST_KEYS"]


def _changed(variant: Variant, key: str, value: str) -> Variant | None:
    """``variant`` with option ``key`` set to ``value``, or None when the family refuses that value there."""
    options = dict(variant.options)
    if options.get(key) == value:
        return None
    options[key] = value
    try:
        return find_variant(variant.name, options, players=variant.players)
    except VariantError:
        return None


def _changes(variant: Variant, extra: tuple[tuple[str, str], ...] = ()) -> Iterator[tuple[str, str, Variant]]:
    """Every variant one option away from ``variant``: ``extra`` first (values of a free whole number), then each
    other value of each option with listed values (yes/no for a yes/no option)."""
    family = FAMILIES[variant.name]
    keys = {s.key for s in family.options}
    seen = set()
    for key, value in extra:
        if key in keys and (key, value) not in seen:
            seen.add((key, value))
            other = _changed(variant, key, value)
            if other is not None:
                yield key, value, other
    for spec in family.options:
        values = ("yes", "no") if spec.kind == "bool" else spec.values
        for value in values:
            if spec.key == "system" or (spec.key, value) in seen:
                continue            # a system sets many options at once: not one option's change
            seen.add((spec.key, value))
            other = _changed(variant, spec.key, value)
            if other is not None:
                yield spec.key, value, other


def _same_play(a: Variant, b: Variant) -> bool:
    """Whether the two variants play a hand alike (the moves of a record mean the same under both)."""
    return (a.seating, a.dealing, a.drawing, a.opening, a.layout, a.turns, a.end, a.play) == \
        (b.seating, b.dealing, b.drawing, b.opening, b.layout, b.turns, b.end, b.play)


def _tag(found: list[str]) -> str:
    return gettext(" or ").join(f'[Rules "{change}"]' for change in found)


def deal_size_hint(variant: Variant, size: int) -> str:
    """The option under which each player is dealt ``size`` tiles from the same set (``hand=7`` for the draw
    game), as the words that end a ``deal-size`` error; "" when no single option does."""
    found = [f"{key}={value}" for key, value, other in _changes(variant, (("hand", str(size)),))
             if other.dealing.hand_size == size and other.players == variant.players
             and other.dealing.max_pip == variant.dealing.max_pip]
    return " " + gettext("(a game dealt {size} tiles a player is {tags})", size=size, tags=_tag(found[:2])) if found else ""


def keep_hint(variant: Variant, stock: int, where: str = "stock") -> str:
    """The option under which a player who cannot play passes with ``stock`` tiles left to draw (``keep=2``:
    Foster's Muggins, the stock's last two tiles never drawn), as the words that end a ``must-draw`` error
    (``where``: what the game calls its stock, the boneyard)."""
    if variant.drawing is None:
        return ""
    found = [f"{key}={value}" for key, value, other in _changes(variant)
             if key == "keep" and other.drawing is not None and other.drawing.keep >= stock
             and (other.seating, other.dealing, other.opening) == (variant.seating, variant.dealing, variant.opening)]
    return ngettext("; if the {where}'s last {n} tile is never drawn, say so with {tag}",
                    "; if the {where}'s last {n} tiles are never drawn, say so with {tag}", stock, where=where,
                    tag=_tag(found[:1])) if found else ""


def unfinished_hint(variant: Variant, pos) -> str:
    """The option under which the hand of ``pos`` (a position of ``variant``) is over, blocked: nobody can play and
    only tiles that option never draws are left in the stock (``keep=2``), as the words that end a
    ``result-mismatch`` error whose record says the hand is over."""
    if pos.ends is None or pos.stock <= 0 or any(pos.hidden) or any(pos.playable_mask(s) for s in range(pos.n)):
        return ""
    hint = keep_hint(variant, pos.stock, pos.stock_words[0])
    return gettext("{hint}, and then the hand ends blocked here", hint=hint) if hint else ""


#: The options that decide what a finished hand scores and who wins it, not how it is played: where no one of them
#: alone gives the stated result, two of them together are tried (the Venezuelan group's tranque: ``block=team
#: score=losers``).
SCORING_KEYS = ("block", "tie", "score", "capicu", "salida", "salida-pays", "divide", "blank", "blank-count",
                "pass-bonus", "chuchazo", "capicu-points", "pass-points")
#: Values of free whole-number options that house rules use (``salida``: "la salida vale 20"; the bonuses of 30 of
#: Dominican apps).
HOUSE_VALUES = (("salida", "20"), ("capicu-points", "30"), ("pass-points", "30"))


def result_hint(variant: Variant, facts: HandFacts, agrees: Callable[[Variant, HandResult], bool]) -> str:
    """The options under which the finished hand of ``facts`` has the result the record states (``agrees``: the
    caller's comparison with the Result tag), as the words that end a ``result-mismatch`` error. First an option the
    record states itself whose removal gives that result (the cause: "without salida=20 in the Rules tag ..."); else
    the other values of single options that bear on what happened in the hand (:func:`bears`), those that change the
    fewest parts of the hand's score first: a block won by the player who laid the last tile (``block=last``), every
    pip left scored (``score=all``), ...; where no single option does, two of the :data:`SCORING_KEYS` together
    (``block=team, score=losers``); then a named system."""
    removed = [change for change, other in _removals(variant)
               if agrees(other, other.hand_result(facts)) and bears(variant, other, facts, change.partition("=")[0])]
    if removed:
        return " " + gettext("(without {options} in the Rules tag it would be valid)",
                             options=gettext(" and ").join(removed[:2]))
    found = []
    singles = []
    for key, value, other in _changes(variant, HOUSE_VALUES):
        if not _same_play(variant, other):
            continue
        if agrees(other, other.hand_result(facts)):
            if bears(variant, other, facts, key):
                found.append((_parts(variant, other, facts), f"{key}={value}"))
        elif key in SCORING_KEYS:
            singles.append((key, value))
    found = [change for _, change in sorted(found, key=lambda f: f[0])]
    if not found:
        found = _pairs(variant, facts, agrees, singles)
    if not found:
        found = _systems(variant, facts, agrees)
    return " " + gettext("({tags} would make it valid)", tags=_tag(found[:3])) if found else ""


#: The options whose effect is a bonus of the hand: they bear on a hand only where they change its bonuses (a pass
#: bonus paid, a capicúa made), not through what else they do to every hand (the pass bonuses' rounding to tens).
BONUS_KEYS = ("pass-bonus", "pass-points", "capicu", "capicu-points", "chuchazo", "salida", "salida-pays")


def bears(variant: Variant, other: Variant, facts: HandFacts, key: str | None = None) -> bool:
    """Whether ``other`` (``variant`` with option ``key`` changed, or a named system: ``key`` None) scores the hand of
    ``facts`` otherwise through what happened in it: a bonus option through a bonus of the hand (a pass, the lead,
    the last tile: :data:`BONUS_KEYS`), a block rule where the hand was blocked, [0-0]'s worth where a hand holds it
    at the end; a system through its bonuses or the hand's winner, not through its count alone. The options that
    count every hand (``score``, ``divide``) always bear."""
    mine, theirs = variant.hand_result(facts), other.hand_result(facts)
    if key is None or key in BONUS_KEYS:
        return mine.bonuses != theirs.bonuses or (key is None and mine.winner != theirs.winner)
    if key in ("block", "tie"):
        return facts.termination == Termination.BLOCKED
    if key in ("blank", "blank-count"):
        return facts.hands is None or any(h & DOUBLE_BLANK.bit for h in facts.hands)
    return True


def _parts(variant: Variant, other: Variant, facts: HandFacts) -> int:
    """How many parts of the hand's score ``other`` changes (the winner, each bonus, the count): the fewer, the more
    direct the option's bearing on the hand."""
    mine, theirs = variant.hand_result(facts), other.hand_result(facts)
    changed = len(set(mine.bonuses) ^ set(theirs.bonuses)) + (mine.winner != theirs.winner)
    plain = mine.points - sum(v for _, v in mine.bonuses), theirs.points - sum(v for _, v in theirs.bonuses)
    return changed + (plain[0] != plain[1])


def _removals(variant: Variant) -> Iterator[tuple[str, Variant]]:
    """Each option the record states beyond its variant's system (``salida=20`` on ``venezuelan``), as
    ``("salida=20", the variant without it)``, where the variant without it plays the hand alike."""
    family = FAMILIES[variant.name]
    keys = {s.key for s in family.options}
    system = variant.option("system") if "system" in keys else None
    try:
        base = find_variant(variant.name, {"system": system} if system else {}, players=variant.players)
    except VariantError:
        return
    plain = dict(base.options)
    for key, value in variant.options:
        if key in ("system", "players"):
            continue
        default = plain.get(key, family.spec(key).default)
        if value == default:
            continue
        other = _changed(variant, key, default)
        if other is not None and _same_play(variant, other):
            yield f"{key}={value}", other


def _systems(variant: Variant, facts: HandFacts, agrees: Callable[[Variant, HandResult], bool]) -> list[str]:
    """The named systems of the variant's family (``system=dominican``) under which the hand of ``facts`` has the
    stated result, where they play the hand as ``variant`` does."""
    family = FAMILIES[variant.name]
    if "system" not in {s.key for s in family.options}:
        return []
    out = []
    for system in family.spec("system").values:
        if system == variant.option("system", family.spec("system").default):
            continue
        try:
            other = find_variant(variant.name, {"system": system}, players=variant.players)
        except VariantError:
            continue
        if _same_play(variant, other) and agrees(other, other.hand_result(facts)) and bears(variant, other, facts):
            out.append(f"system={system}")
    return out


#: The options that decide who leads a later game of a match (a lead error names another value of one of them).
LEAD_KEYS = ("lead", "zero-lead")
#: The options that decide who opens the first game of a match (the Cuban ``first=draw``: the lead drawn by lot).
FIRST_KEYS = ("first",)


def first_lead_changes(variant: Variant) -> Iterator[tuple[str, Variant]]:
    """The variants one :data:`FIRST_KEYS` option away from ``variant`` that differ from it only in who opens a
    match's first game (the same seats, set, deal, layout, turns and end): ``("first=draw", variant)``. The judge of
    a first lead asks each whether it allows the lead the record shows (``lead.judge_lead``)."""
    for key, value, other in _changes(variant):
        if key in FIRST_KEYS and _same_play(variant, replace(other, opening=variant.opening)):
            yield f"{key}={value}", other


def lead_hints(variant: Variant, prev_leader: int, prev: HandResult, facts: HandFacts | None, state
               ) -> tuple[tuple[str, frozenset[int], str], ...]:
    """Who would lead the game after ``prev`` (led by ``prev_leader``, the match ``state`` after it) under another
    value of one of the :data:`LEAD_KEYS` of ``variant``: ``(option, seats, reason)`` for
    ``LeadRequirement.otherwise``, decided by the lead policy and the match of the variant built with that value
    (the same hand played, the same kind of match). A lead error names the option whose seats hold the record's
    leader (Kozel's ``zero-lead=winner``, the Cuban ``lead=winners``)."""
    out = []
    for key, value, other in _changes(variant):
        if key not in LEAD_KEYS or not _same_play(variant, other) or other.match.kind != variant.match.kind:
            continue
        req = other.lead.requirement(prev_leader, prev, facts, other.seating, other.match.lead(state, other.seating))
        if req.seats:
            out.append((f"{key}={value}", req.seats, req.reason))
    return tuple(out)


def score_hint(variant: Variant, before, result: HandResult, agrees: Callable[[tuple[int, ...]], bool],
               facts: HandFacts | None = None) -> str:
    """The options under which the match score after a hand of ``result``, from the match ``before`` it, is the one
    the record states (``agrees``: the caller's comparison with the Score tag), as the words that end a
    ``score-mismatch`` error: the options of the match (points that would pass the target not scored,
    ``no-caben=yes``), and with the hand's ``facts`` the options that score the hand (the salida of a passed double
    lead, paid to the side that led although it lost the hand: ``salida=20``)."""
    if facts is not None:
        removed = [change for change, other in _removals(variant) if other.block == variant.block
                   and agrees(other.match.apply(before, other.hand_result(facts)).scores)]
        if removed:
            return " " + gettext("(without {options} in the Rules tag it would be valid)",
                                 options=gettext(" and ").join(removed[:2]))
    found = []
    for key, value, other in _changes(variant, HOUSE_VALUES):
        if not _same_play(variant, other) or other.block != variant.block:
            continue
        if other.scoring == variant.scoring:
            if other.match != variant.match and agrees(other.match.apply(before, result).scores):
                found.append(f"{key}={value}")
        elif facts is not None and key in SCORING_KEYS and other.match == variant.match:
            if agrees(other.match.apply(before, other.hand_result(facts)).scores) and bears(variant, other, facts, key):
                found.append(f"{key}={value}")
    return " " + gettext("({tags} would make it valid)", tags=_tag(found[:2])) if found else ""


def _pairs(variant: Variant, facts: HandFacts, agrees: Callable[[Variant, HandResult], bool],
           singles: list[tuple[str, str]]) -> list[str]:
    """The pairs of two scoring options' changes (``singles``, each a change of ``variant`` that plays the same
    hand) under which the hand of ``facts`` has the stated result, as ``"key=value, key=value"``."""
    out = []
    for i, (k1, v1) in enumerate(singles):
        for k2, v2 in singles[i + 1:]:
            if k2 == k1:
                continue
            options = {**dict(variant.options), k1: v1, k2: v2}
            try:
                other = find_variant(variant.name, options, players=variant.players)
            except VariantError:
                continue
            if (_same_play(variant, other) and agrees(other, other.hand_result(facts))
                    and all(bears(variant, _changed(variant, k, v) or variant, facts, k) for k, v in ((k1, v1), (k2, v2)))):
                out.append(f"{k1}={v1}, {k2}={v2}")
    return out
