"""Rules: variants composed of small policies."""
from .policies import (BlockRule, Dealing, HandFacts, HandResult, HandScoring, MatchScoring,
                       Opening, Seating)
from .variants import VARIANTS, UnknownVariant, Variant, find_variant

__all__ = ["BlockRule", "Dealing", "HandFacts", "HandResult", "HandScoring", "MatchScoring",
           "Opening", "Seating", "VARIANTS", "UnknownVariant", "Variant", "find_variant"]
