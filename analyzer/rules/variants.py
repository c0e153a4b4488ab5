"""Variants: each a named composition of rule policies, built from its options.

A *family* (``partnership``, ``whist``, ``jamaican``, ... in :mod:`analyzer.rules.families`) declares
its options and builds a :class:`Variant`'s policies from their values; ``find_variant(name, options)`` looks
a family up by name or alias (an alias may carry preset options: ``doscientos`` is the partnership
game with ``system=doscientos``) and returns the variant, one object per distinct set of options."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..i18n import gettext
from .families import FAMILIES as TEXT_FAMILIES, PARTNERSHIP, Family
from .latin import LATIN_FAMILIES
from .modes import Count, End, Layout, MatchKind, Mechanic, Termination, Turns
from .options import BadOptionValue, UnknownOption, UnknownVariant, VariantError, normalise, parse_rules
from .matchplay import MatchScoring
from .policies import (BlockDecider, BlockRule, Dealing, DifferenceAward, Drawing, HandFacts, HandResult,
                       HandScoring, LeadPolicy, Opening, PlayScoring, PointScoring, Seating)

__all__ = ["Variant", "Family", "FAMILIES", "VARIANTS", "find_variant", "find_family", "UnknownVariant",
           "UnknownOption", "BadOptionValue", "VariantError", "parse_rules"]


@dataclass(frozen=True)
class Variant:
    """A set of rules: the policies, and the family and options they were built from."""

    name: str
    description: str
    seed: str
    seating: Seating
    dealing: Dealing = Dealing()
    opening: Opening = Opening()
    block: BlockRule | BlockDecider = BlockRule()
    scoring: HandScoring | PointScoring | DifferenceAward = HandScoring()
    match: MatchScoring = MatchScoring()
    aliases: tuple[str, ...] = field(default=())
    lead: LeadPolicy = LeadPolicy()
    options: tuple[tuple[str, str], ...] = ()
    end: End = End.ONE                # ONE: a hand ends when a player is out; PAIR: both of a pair
    table: int = 0                    # people in the match when more than play a hand (whist 5/6)
    irregularities: str = ""          # "whist": report §8 of Domino Whist under its rule names
    equal_ends: str = ""              # Domino Whist §6 on equal ends: "crosswise" or "lengthwise" (double lead)
    drawing: Drawing | None = None    # a draw game: how players take tiles from the boneyard
    turns: Turns = Turns.ONE          # ONE: one play a turn; RUN: a player plays while he can (Hungarian)
    play: PlayScoring | None = None   # points scored during play, from the open ends (All Fives)
    layout: Layout = Layout.LINE      # LINE: two ends; FRENCH/CROSS/TREE: a spinner with arms (layout.py)

    def __post_init__(self) -> None:
        # the modes are typed: a bare string given by a caller becomes its enum (a wrong one fails here)
        object.__setattr__(self, "end", End(self.end))
        object.__setattr__(self, "turns", Turns(self.turns))
        object.__setattr__(self, "layout", Layout(self.layout))

    @property
    def mechanics(self) -> frozenset[Mechanic]:
        """What this variant's position does beyond the plain two-ended line (see ``rules/mechanics.py``)."""
        out = set()
        if self.layout != Layout.LINE:
            out.add(Mechanic.ARMS)
        if self.drawing is not None:
            out.add(Mechanic.DRAW)
        if self.turns == Turns.RUN:
            out.add(Mechanic.RUNS)
        if self.end == End.PAIR:
            out.add(Mechanic.PAIR_OUT)
        if self.play is not None:
            out.add(Mechanic.POINTS)
        return frozenset(out)

    @property
    def search(self) -> str:
        """Which exact search values this variant: ``block``, the int solver for the plain two-ended
        game, or ``tree``, the general alpha-beta over the variant's own position."""
        return "tree" if self.mechanics else "block"

    @property
    def players(self) -> int:
        return self.seating.players

    @property
    def people(self) -> int:
        """Everybody in the match: the players of a hand, or more when some sit out in turn."""
        return self.table or self.seating.players

    def option(self, key: str, default: str | None = None) -> str | None:
        return dict(self.options).get(key, default)

    @property
    def rules_text(self) -> str:
        """The options as a ``Rules`` tag value."""
        return ", ".join(f"{k}={v}" for k, v in self.options)

    def side_name(self, side: int, names: tuple[str, ...]) -> str:
        """``A/C`` for the side of seats 1 and 3 named A..D."""
        return "/".join(names[s] for s in self.seating.members(side) if s < len(names))

    def hand_result(self, facts: HandFacts) -> HandResult:
        """Who won the finished hand and how many points it is worth."""
        if facts.termination == Termination.DOMINO:
            winner, note = self.seating.teams[facts.seat], ""
        else:
            winner, note = self.block.decide(facts, self.seating)
        return self.scoring.score(facts, winner, note, self.seating)

    def value(self, facts: HandFacts) -> int:
        """The hand's score for side 0 (seats 1 and 3), positive when it wins.

        Two sides: what side 0 adds to its match score minus what the other side adds (bad
        points count against). More sides: side 0's points if it wins, minus the winner's if
        another side wins."""
        result = self.hand_result(facts)
        scores = result.scores  # (a hand played again scores only its pass bonuses: MatchScoring.apply)
        bad = isinstance(self.scoring, PointScoring) and self.scoring.count == Count.BAD
        if self.seating.sides == 2 and scores:
            v = scores[0] - scores[1]
            return -v if bad else v
        if result.winner is None:
            return 0
        return result.points if result.winner == 0 else -result.points

    # -- what the search can and cannot know ----------------------------------------------------
    @property
    def search_scale(self) -> int:
        """How many times the default node limit (``analyzer.search.NODE_LIMIT``) the exact search of one
        decision may use when the caller names no limit: 1 for the deals of the rule texts (at most the 28 tiles of
        the double-six in the hands), 8 for a larger deal (Cuban double-nine: 40 tiles in the hands, whose free
        leads need up to about 10 million positions; bench/bench_cuban.py)."""
        return 8 if self.dealing.hand_size * self.players > 28 else 1


    @property
    def exact_search(self) -> bool:
        """Whether the analysis values are the hand's true score under best play with every hand
        open, with no further assumption (a draw game's values assume a boneyard order, a game of
        individual players assumes the others play against the analysed one)."""
        return self.seating.sides == 2 and self.drawing is None

    @property
    def search_note(self) -> str:
        """What an analysis of this variant assumes, in one or two sentences for the reader; empty
        when the values are exactly the hand's score with every hand open."""
        notes = []
        if self.drawing is not None:
            notes.append(gettext("the boneyard is taken in the order the record reveals: the tiles drawn in the record, "
                                 "in that order, then the tiles nobody drew in ascending order; in every line the next "
                                 "draw takes the next tile of that order"))
        if self.play is not None:
            notes.append(gettext("the values count the points scored during play, each play's points going to its "
                                 "player as if claimed (a Muggins call moves points only where the record has one)"))
        if self.seating.sides > 2:
            notes.append(gettext("{n} players play each for themselves, so no exact two-sided search applies; the "
                                 "analysis assumes the analysed player against all the others (they play to minimise "
                                 "that player's score)", n=self.seating.sides))
            if isinstance(self.scoring, PointScoring) and self.scoring.count == Count.BAD:
                notes.append(gettext("a player's value is that player's bad points against each other player's, "
                                     "summed"))
        s = self.scoring
        if isinstance(s, PointScoring):
            if s.pass_bonus and s.count != Count.BAD:
                notes.append(gettext("the values are the hand's whole score: its points and the pass bonuses, those "
                                     "already paid and those still to come (a hand played again keeps its pass "
                                     "bonuses)"))
            if s.capicu or s.chuchazo or s.count == Count.MILO or s.capicu_double:
                notes.append(gettext("the bonus for the last tile (capicú, dominao, chuchazo, Milo, a capicúa's doubled "
                                     "points) is part of the values when the search passes the last tile and the ends "
                                     "before it"))
            if s.salida:
                notes.append(gettext("the {points} points of the salida (the side that led wins the hand) are part of "
                                     "the values", points=s.salida) if s.salida_won else
                             gettext("the {points} points of the salida (a double lead the next player passes) are "
                                     "part of the values", points=s.salida))
            if s.blank:
                notes.append(gettext("[0-0] counts {points} when the search passes the tiles left in each hand",
                                     points=s.blank))
            if s.count in (Count.GAME, Count.MILO):
                notes.append(gettext("a hand is worth a fixed number of points, so the values only say who wins"))
        if self.match.first_wins or self.match.kind in (MatchKind.STRAIGHT, MatchKind.CUTTHROAT, MatchKind.SHUTOUT,
                                                        MatchKind.GAMES):
            notes.append(gettext("values are the hand's own score; match bonuses and resets are not part of them"))
        if self.end == End.PAIR:
            notes.append(gettext("the hand goes on until both players of a pair are out"))
        return "; ".join(notes) + "." if notes else ""


FAMILIES: dict[str, Family] = {**TEXT_FAMILIES, **LATIN_FAMILIES}   # the rule texts' systems, then the others

_CACHE: dict[tuple, Variant] = {}


def find_family(name: str | None) -> tuple[Family, dict[str, str]]:
    """The family a name or alias stands for, and the options the alias presets."""
    if not name or not name.strip():
        return PARTNERSHIP, {}
    key = normalise(name)
    for family in FAMILIES.values():
        if key == family.name or key in family.aliases:
            return family, dict(family.presets.get(key, {}))
    known = "; ".join(f"{f.name}" + (f" ({', '.join(f.aliases)})" if f.aliases else "") for f in FAMILIES.values())
    raise UnknownVariant(gettext("unknown variant {name}; known variants (aliases): {known}", name=repr(name),
                                 known=known))


_LOOKUPS: dict[tuple, Variant] = {}     # find_variant's answers by its arguments (every record asks)


def find_variant(name: str | None = None, options: Mapping[str, str] | str | None = None, *,
                 players: int | None = None) -> Variant:
    """Look a variant up by its name or one of its aliases and apply ``options``.

    ``options`` is a mapping of option keys to values or a ``Rules`` tag text. ``players``: the
    number of players the record names, used for a family's ``players`` option when it is not
    given. Raises UnknownVariant, UnknownOption or BadOptionValue with what exists."""
    key = (name, options if options is None or isinstance(options, str) else tuple(options.items()), players)
    try:
        variant = _LOOKUPS.get(key)
    except TypeError:           # an option value that cannot be a key: look it up every time
        return _find_variant(name, options, players)
    if variant is None:
        if len(_LOOKUPS) >= 1024:
            _LOOKUPS.clear()
        variant = _LOOKUPS[key] = _find_variant(name, options, players)
    return variant


def _find_variant(name: str | None, options: Mapping[str, str] | str | None, players: int | None) -> Variant:
    family, preset = find_family(name)
    if isinstance(options, str):
        options = parse_rules(options)
    given = {normalise(k): str(v) for k, v in (options or {}).items()}
    for key in given:
        family.spec(key)
    values = family.defaults
    explicit: set[str] = set()
    for k, v in preset.items():
        values[k] = v
        explicit.add(k)
    if preset and "system" in values:
        alias = normalise(name or "")
        systems = family.spec("system").values          # an alias of a system (suedamerikanisch, venezolano) is it
        values["system"] = alias if alias in systems else next(
            (s for s in systems if family.presets.get(s) == preset), values["system"])
    if "system" in given:
        system = family.spec("system").parse(given["system"], family.name)
        for k, v in family.presets[system].items():
            values[k] = v
            explicit.add(k)
    for k, v in given.items():
        values[k] = family.spec(k).parse(v, family.name)
        explicit.add(k)
    if "players" in values and "players" not in explicit and players is not None:
        spec = family.spec("players")
        if str(players) in spec.values:
            values["players"] = str(players)
    if family.adjust is not None:
        family.adjust(values, explicit)
    key = (family.name, tuple(sorted(values.items())), tuple(sorted(explicit)))
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    parts = family.build(values, explicit)
    options_out = tuple((s.key, values[s.key]) for s in family.options
                        if values[s.key] != s.default or s.key in explicit)
    variant = Variant(name=family.name, description=family.description, seed=family.seed,
                      aliases=family.aliases, options=options_out, **parts)
    _CACHE[key] = variant
    return variant


VARIANTS: dict[str, Variant] = {name: find_variant(name) for name in FAMILIES}
