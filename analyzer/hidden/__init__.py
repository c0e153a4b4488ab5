"""Exact values under hidden information for small two-player endgames (see docs/hidden.md).

:func:`hidden_decision` values the decision of the player to move in a position when both players play
optimally by what they know: a root chance node over the deals the public record allows (uniform), each
player's information sets keyed by his own hand and what he has seen since (:mod:`.game`), the two-player
zero-sum game solved exactly by the sequence-form linear program with HiGHS (:mod:`.lp`, scipy). It gives
the game value, each move's value (the game value when the mover's actual hand plays that move) and the
mover's optimal strategy at his decision (mixed where it must be). For partnership games,
:func:`one_sided_decision` gives the one-sided bound (:mod:`.onesided`): the mover's side by its information,
the opponents' hands open; :func:`team_decision` a certified bracket of its value over the public deals
(:mod:`.team`).
"""
from __future__ import annotations

from .decision import (MAX_DEALS, MAX_HAND, HiddenDecision, TooLarge, hidden_decision, public_deals, public_game,
                       public_hands, public_ranges, public_stock_down, stock_down_positions,
                       within_bound)
from .game import HiddenGame, InfoSet, build_game, side0_value
from .onesided import (ONE_SIDED_DEALS, ONE_SIDED_HAND, ONE_SIDED_TRIES, OneSidedDecision, mover_deals,
                       one_sided_decision, within_one_sided_bound)
from .team import (TEAM_DEALS, TEAM_HAND, TEAM_TRIES, TeamDecision, team_deals, team_decision, team_supported,
                   within_team_bound)
from .lp import HiddenUnavailable, SolvedGame, behaviour, best_response, solve_game

__all__ = ["HiddenDecision", "hidden_decision", "public_deals", "public_game", "public_hands", "public_ranges", "MAX_DEALS", "MAX_HAND", "within_bound",
           "public_stock_down", "stock_down_positions",
           "TooLarge", "HiddenUnavailable", "HiddenGame", "InfoSet", "build_game", "side0_value", "SolvedGame", "solve_game", "behaviour",
           "best_response", "OneSidedDecision", "one_sided_decision", "mover_deals", "within_one_sided_bound",
           "ONE_SIDED_HAND", "ONE_SIDED_DEALS", "ONE_SIDED_TRIES", "TeamDecision", "team_decision", "team_deals",
           "team_supported", "within_team_bound", "TEAM_DEALS", "TEAM_HAND", "TEAM_TRIES"]
