"""Variants: each a named composition of rule policies."""
from __future__ import annotations

from dataclasses import dataclass, field

from .policies import (BlockRule, Dealing, HandFacts, HandResult, HandScoring, MatchScoring,
                       Opening, Seating)

__all__ = ["Variant", "VARIANTS", "find_variant", "UnknownVariant"]


class UnknownVariant(LookupError):
    """A variant name nobody knows; the message lists the ones that exist."""


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    seed: str
    seating: Seating
    dealing: Dealing = Dealing()
    opening: Opening = Opening()
    block: BlockRule = BlockRule()
    scoring: HandScoring = HandScoring()
    match: MatchScoring = MatchScoring()
    aliases: tuple[str, ...] = field(default=())

    @property
    def players(self) -> int:
        return self.seating.players

    def side_name(self, side: int, names: tuple[str, ...]) -> str:
        """``A/C`` for the side of seats 1 and 3 named A..D."""
        return "/".join(names[s] for s in self.seating.members(side))

    def hand_result(self, facts: HandFacts) -> HandResult:
        """Who won the finished hand and how many points it is worth."""
        if facts.termination == "domino":
            winner = self.seating.teams[facts.seat]
        else:
            winner = self.block.winner(facts, self.seating)
        points = self.scoring.points(facts, winner, self.seating)
        return HandResult(facts.termination, winner, points, facts.seat)

    def value(self, facts: HandFacts) -> int:
        """The hand's score for side 0 (seats 1 and 3), positive when it wins."""
        result = self.hand_result(facts)
        if result.winner is None:
            return 0
        return result.points if result.winner == 0 else -result.points


PARTNERSHIP = Variant(
    name="partnership",
    description="Four players in fixed partnerships, all 28 tiles dealt, block game to 100 (Domino mit Partner)",
    seed="000_3c92c1f714ce882e.txt",
    seating=Seating.partners(),
    aliases=("partner", "domino-mit-partner", "partnerdomino"),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (PARTNERSHIP,)}


def find_variant(name: str | None) -> Variant:
    """Look a variant up by its name or one of its aliases (case and spaces do not matter)."""
    if not name:
        return PARTNERSHIP
    key = name.strip().lower().replace(" ", "-").replace("_", "-")
    for variant in VARIANTS.values():
        if key == variant.name or key in variant.aliases:
            return variant
    known = ", ".join(sorted(VARIANTS))
    raise UnknownVariant(f"unknown variant {name!r}; known variants: {known}")
