"""Rules: variants composed of small policies, selected by name and options."""
from .options import BadOptionValue, OptionSpec, UnknownOption, UnknownVariant, VariantError, parse_rules
from .policies import (BlockDecider, BlockRule, Dealing, HandFacts, HandResult, HandScoring, LeadPolicy,
                       LeadRequirement, MatchScoring, MatchState, Opening, PointScoring, Seating, draw_rank)
from .variants import FAMILIES, VARIANTS, Family, Variant, find_family, find_variant

__all__ = ["BlockDecider", "BlockRule", "Dealing", "HandFacts", "HandResult", "HandScoring", "LeadPolicy",
           "LeadRequirement", "MatchScoring", "MatchState", "Opening", "PointScoring", "Seating", "draw_rank",
           "FAMILIES", "VARIANTS", "Family", "Variant", "find_family", "find_variant", "BadOptionValue",
           "OptionSpec", "UnknownOption", "UnknownVariant", "VariantError", "parse_rules"]
