"""How often the fair verdict (open hands, averaged) differs from the exact one under hidden information.

For each two-player family, random games (``analyzer.generate.random_game``, seeded) are replayed and every
decision within the exact solver's bound (``analyzer.analysis.hiddenfair.exact_deals``: every hand at most 4
tiles, at most 700 deals the public record allows) is an endgame of the study, up to ``--endgames`` a family.
By default only the first such decision of a game (the most tiles in hand: after it, less is hidden; ``--every``:
each one). At each one, every legal move of the mover is valued twice, both per deal that gives the mover his actual hand:

- **fair**: the fair analysis's value with every deal solved, the mean of the move's open-hands value
  (``TreeSearch.values``) over the deals the mover cannot tell apart (the public deals with his hand, each
  by its weight: what ``analyze --fair --no-exact-hidden`` computes as method "exact" there);
- **exact**: the solver's (``HiddenDecision.hand_values``: both play optimally by what they know).

The table gives, per family: the endgames, the share where the fair best move loses under hidden information
(its exact value below the exact best by more than 1e-6), the moves graded a mistake or blunder by the fair
loss (against the fair best, thresholds 3/10/25) that are not by the exact loss and the reverse, over all
moves of all endgames; the mean and the largest difference between a move's fair and exact value, and between
its fair and exact loss; the deals of an endgame (median, most), the tiles in both hands (median), and the
median and worst time of one exact decision.

``--partnership N``: the same for the partnership game (four players, two sides) against the one-sided bound
(``analyzer.hidden.one_sided_decision``: the mover's side by its information, the opponents' hands open) in
place of the exact value, over up to N endgames: the first decision of a random game where every hand is within
the bound's size (at most ``ONE_SIDED_HAND`` tiles, at most ``ONE_SIDED_DEALS`` deals the mover cannot tell
apart); the fair value's deals are the same (the mover's worlds). A decision the search gives up on
(``ONE_SIDED_TRIES`` choices) is counted apart. ``--hand H`` takes hands of up to H tiles instead (beyond the
bound, to measure it).

    nice -n 10 python3 bench/bench_hidden_study.py [--endgames 200] [--games 4000] [--seed 53] [--partnership 100]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.analysis import Thresholds  # noqa: E402
from analyzer.analysis.fair import _decision_points  # noqa: E402
from analyzer.analysis.hiddenfair import exact_deals  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.hidden import (ONE_SIDED_HAND, TooLarge, hidden_decision, mover_deals, one_sided_decision,  # noqa: E402
                             within_one_sided_bound)
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search import TreeSearch  # noqa: E402

FAMILIES = {
    "block for two": ("block", {"players": "2"}),
    "draw game for two": ("draw", {"players": "2"}),
    "Cut Throat for two": ("cutthroat", {"players": "2"}),
    "Fives and Threes for two": ("fives-threes", {"players": "2"}),
}
BAD = ("mistake", "blunder")


def endgames(variant, games: int, seed: int, most: int, every: bool = False):
    """The first decision within the bound of each of ``games`` random games (``every``: each one), at most
    ``most`` in all: (replay, step, seat, moves, found)."""
    count = 0
    for g in range(games):
        rep = replay(random_game(variant, seed * 100_003 + g))
        for k, seat, moves in _decision_points(rep, [0, 1]):
            found = exact_deals(rep, k, seat, moves, hand=0)    # (the LP's bound alone)
            if found is None:
                continue
            yield rep, k, seat, moves, found
            count += 1
            if count >= most:
                return
            if not every:
                break


def one(rep, seat: int, moves, found, thresholds: Thresholds) -> dict:
    """Both verdicts of one endgame."""
    actual, deals, weights, _ = found
    start = time.perf_counter()
    solved = hidden_decision(rep.variant, actual, deals, weights)
    took = time.perf_counter() - start
    out = compare(rep.variant, seat, actual, deals, weights, dict(solved.hand_values()), thresholds)
    return {**out, "time": took, "deals": len(deals), "tiles": actual.count(0) + actual.count(1)}


def partnership_endgames(variant, games: int, seed: int, most: int, hand: int = ONE_SIDED_HAND):
    """The first decision of each of ``games`` random games where every hand is within the one-sided bound's
    size (``hand``: at most so many tiles a hand instead), at most ``most`` in all: (replay, step, seat,
    position, deals)."""
    count = 0
    for g in range(games):
        rep = replay(random_game(variant, seed * 100_003 + g))
        for k, seat, moves in _decision_points(rep, list(range(len(rep.players)))):
            pos = rep.position_at(k)
            if any(pos.count(s) > hand for s in range(pos.n)) or moves != pos.legal_moves():
                continue
            try:
                deals = mover_deals(rep, k)
            except TooLarge:
                continue
            if hand == ONE_SIDED_HAND and not within_one_sided_bound(pos, len(deals)):
                continue
            yield rep, k, seat, pos, deals
            count += 1
            if count >= most:
                return
            break


def one_sided(rep, seat: int, pos, deals, thresholds: Thresholds) -> dict | None:
    """The fair verdict against the one-sided bound's at one partnership endgame (None: the search gave up)."""
    start = time.perf_counter()
    try:
        solved = one_sided_decision(rep.variant, pos, deals)
    except TooLarge:
        return None
    took = time.perf_counter() - start
    out = compare(rep.variant, seat, pos, deals, [1] * len(deals), dict(solved.moves), thresholds)
    return {**out, "time": took, "deals": len(deals), "tiles": sum(pos.count(s) for s in range(pos.n))}


def compare(variant, seat: int, actual, deals, weights, exact: dict, thresholds: Thresholds) -> dict:
    """Each move's fair value (the mean of its open-hands value over the deals that give the mover his hand)
    against ``exact`` (each move's value, per such deal): whether the fair best loses, and per move both
    classes and the differences of value and loss."""
    sign = 1 if variant.seating.teams[seat] == 0 else -1
    search = TreeSearch(variant)
    sums, total = {m: 0.0 for m in exact}, 0
    for deal, w in zip(deals, weights):
        if deal.hands[seat] != actual.hands[seat]:
            continue
        for m, v in search.values(deal.copy()):
            sums[m] += w * v
        total += w
    fair = {m: s / total for m, s in sums.items()}
    fair_best = max(fair.values(), key=lambda v: sign * v)
    exact_best = max(exact.values(), key=lambda v: sign * v)
    best_move = max(fair, key=lambda m: (sign * fair[m], sign * exact[m]))   # (of the fair's equal best, the better)
    rows = []
    for m in exact:
        fair_loss, exact_loss = sign * (fair_best - fair[m]), sign * (exact_best - exact[m])
        rows.append((thresholds.classify(round(fair_loss, 6)), thresholds.classify(round(exact_loss, 6)),
                     abs(fair[m] - exact[m]), abs(fair_loss - exact_loss)))
    return {"differs": sign * (exact_best - exact[best_move]) > 1e-6, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--endgames", type=int, default=200, help="endgames a family (at most)")
    ap.add_argument("--games", type=int, default=4000, help="random games a family (at most)")
    ap.add_argument("--seed", type=int, default=53)
    ap.add_argument("--every", action="store_true", help="every decision within the bound of a game, not its first")
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated, of: " + ", ".join(FAMILIES))
    ap.add_argument("--partnership", type=int, default=0, metavar="N",
                    help="also N partnership endgames against the one-sided bound")
    ap.add_argument("--hand", type=int, default=ONE_SIDED_HAND,
                    help="the partnership endgames' most tiles a hand (beyond the bound: to measure it)")
    args = ap.parse_args()
    thresholds = Thresholds()
    print(f"{'family':<25} {'endgames':>8} {'best differs':>12} {'moves':>6} {'fair bad, exact not':>19} "
          f"{'exact bad, fair not':>19} {'value diff mean/max':>19} {'loss diff mean/max':>18} "
          f"{'deals median/max':>16} {'tiles':>5} {'time s median/worst':>19}")
    for name in filter(None, args.families.split(",")):
        family, options = FAMILIES[name]
        variant = find_variant(family, options)
        print_row(name, [one(rep, seat, moves, found, thresholds)
                         for rep, k, seat, moves, found in endgames(variant, args.games, args.seed, args.endgames,
                                                                    args.every)])
    if args.partnership:
        variant = find_variant("partnership", {})
        got = [one_sided(rep, seat, pos, deals, thresholds)
               for rep, k, seat, pos, deals in partnership_endgames(variant, args.games, args.seed, args.partnership,
                                                                    args.hand)]
        print_row("partnership (one-sided)", [g for g in got if g is not None])
        print(f"(partnership: {sum(g is None for g in got)} of {len(got)} endgames past the search's limit, left out)")


def print_row(name: str, got: list[dict]) -> None:
    """One family's line of the table."""
    if not got:
        print(f"{name:<25} {0:>8}")
        return
    rows = [r for g in got for r in g["rows"]]
    differs = sum(g["differs"] for g in got)
    fair_only = sum(1 for f, e, _, _ in rows if f in BAD and e not in BAD)
    exact_only = sum(1 for f, e, _, _ in rows if e in BAD and f not in BAD)
    values = [r[2] for r in rows]
    losses = [r[3] for r in rows]
    times = [g["time"] for g in got]
    deals = [g["deals"] for g in got]
    print(f"{name:<25} {len(got):>8} {differs:>5} {100 * differs / len(got):>5.1f}% {len(rows):>6} "
          f"{fair_only:>12} {100 * fair_only / len(rows):>5.1f}% {exact_only:>12} {100 * exact_only / len(rows):>5.1f}% "
          f"{statistics.mean(values):>9.2f} {max(values):>9.2f} {statistics.mean(losses):>8.2f} {max(losses):>9.2f} "
          f"{statistics.median(deals):>8.0f} {max(deals):>7} {statistics.median(g['tiles'] for g in got):>5.0f} "
          f"{statistics.median(times):>9.3f} {max(times):>9.3f}")

if __name__ == "__main__":
    main()
