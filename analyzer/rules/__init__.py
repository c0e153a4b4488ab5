"""Rules: variants composed of small policies, selected by name and options."""
from .options import BadOptionValue, OptionSpec, UnknownOption, UnknownVariant, VariantError, parse_rules
from .matchplay import MatchScoring, MatchState, SeatDraw, draw_rank
from .policies import (BlockDecider, BlockRule, Dealing, HandFacts, HandResult, HandScoring, LeadPolicy,
                       LeadRequirement, Opening, PointScoring, Seating)
from .variants import FAMILIES, VARIANTS, Family, Variant, find_family, find_variant

__all__ = ["BlockDecider", "BlockRule", "Dealing", "HandFacts", "HandResult", "HandScoring", "LeadPolicy",
           "LeadRequirement", "MatchScoring", "MatchState", "Opening", "PointScoring", "Seating", "SeatDraw", "draw_rank",
           "FAMILIES", "VARIANTS", "Family", "Variant", "find_family", "find_variant", "BadOptionValue",
           "OptionSpec", "UnknownOption", "UnknownVariant", "VariantError", "parse_rules"]
