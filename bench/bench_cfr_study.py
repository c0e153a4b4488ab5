"""The fair verdict (the open-hands mean) against the exact game value under hidden information, by the tiles in hand
(issue 85), in the block game for two, with the CFR+ solver's time and memory.

Random games (``analyzer.generate.random_game``, seeded) are replayed; of each, the first decision with a choice
where the larger hand holds exactly H tiles is an endgame of size H (H = 1, 2, 3 by default), up to
``--decisions`` a size. Each is solved by the public-tree CFR+ solver (``analyzer.hidden.cfr.cfr_decision``, its
brackets closed to 0.001 points a deal of the mover's hand, within ``hiddenfair.cfr_budget`` CPU seconds: 20 up to
3 tiles, 200 at 4) over every deal the public record allows, as each player's possible hands
(``hidden.public_ranges``: no deal listed), where there are at most ``--max-deals`` deals (default: no bound; those
with more are counted, ``beyond``, and left out). Each legal move is valued twice, per deal that gives the mover his hand:

- **fair**: the mean of the move's open-hands value (``TreeSearch.values``) over the deals the mover cannot tell
  apart (what ``analyze --fair --exact-hand 0`` computes, every deal solved);
- **exact**: the solver's (``HiddenDecision.hand_values``: both play their best by what they know).

Columns: the endgames found, those past the deal bound (``beyond``), those solved (every bracket closed within the
solver's CPU budget; the other columns are over these alone); ``best set``: the fair best moves (equal
means) hold an exact best (its exact loss within 0.002, the brackets' precision); ``named``: a unique fair best is
an exact best; ``fair loses``: the endgames where following the fair best loses (exact loss above 0.002), the mean
loss where it does and the largest (points a deal of his hand); ``|fair-exact|``: a move's value gap, mean and
largest, and the signed mean (mover-signed: below 0, the fair value is worse for the mover than the game value);
``cover``: the share of moves whose exact value lies in the 95% interval of the mean of 200 of the mover's deals drawn
at random (with replacement; what a sampled fair verdict shows); the deals (median, most); the solver's seconds a
decision (median, most: CPU seconds, the deals listed, the tree built and every value's solve), its iterations (median) and its arrays' memory
(median, most).

    nice -n 10 python3 bench/bench_cfr_study.py [--decisions 10] [--sizes 1,2,3] [--games 400] [--seed 85]
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.analysis.fair import _decision_points  # noqa: E402
from analyzer.analysis.hiddenfair import cfr_budget  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.hidden import public_ranges  # noqa: E402
from analyzer.hidden.cfr import BuildTooLong, cfr_decision, kernel  # noqa: E402
from analyzer.inference import worlds_at  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search import TreeSearch  # noqa: E402

PRECISION = 2e-3        # two values closer than this are not told apart (each bracket is within 0.001)
DRAWN = 200             # the deals a sampled fair verdict draws first (``settings.WORLDS``)


def endgames(variant, size: int, games: int, seed: int, most: int):
    """The first decision with a choice where the larger hand holds ``size`` tiles, of each random game, at most
    ``most``: (replay, step, seat)."""
    count = 0
    for g in range(games):
        rep = replay(random_game(variant, seed * 100_003 + g))
        for k, seat, moves in _decision_points(rep, [0, 1]):
            pos = rep.position_at(k)
            if len(moves) < 2 or moves != pos.legal_moves() or max(pos.count(0), pos.count(1)) != size:
                continue
            yield rep, k, seat
            count += 1
            break
        if count >= most:
            return


def one(rep, k: int, seat: int, limit: int, rng: random.Random) -> dict | None:
    """Both verdicts of one endgame (None: more deals than ``limit``)."""
    start = time.process_time()
    pos, ranges = public_ranges(rep, k)
    if limit and len(ranges[0]) * len(ranges[1]) > limit and worlds_at(rep, k).count > limit:
        return None
    most = max(pos.count(0), pos.count(1))
    solved = cfr_decision(rep.variant, pos, ranges=ranges, budget=cfr_budget(most))
    took = time.process_time() - start            # (CPU seconds: the machine's load left out)
    sign = 1 if rep.variant.seating.teams[seat] == 0 else -1
    exact = {m: sign * v for m, v in solved.hand_values()}          # (mover-signed from here)
    search = TreeSearch(rep.variant)
    rows, total = [], 0
    mine = pos.hands[seat]
    for other in ranges[1 - seat]:                # (the deals of the mover's hand: the other's hands sharing no tile)
        if not other & mine:
            deal = pos.copy()
            deal.hands[1 - seat] = other
            rows.append((1, {m: sign * v for m, v in search.values(deal)}))
            total += 1
    fair = {m: sum(w * r[m] for w, r in rows) / total for m in exact}
    top, best_exact = max(fair.values()), max(exact.values())
    best_set = [m for m in fair if fair[m] >= top - 1e-9]
    loss = {m: best_exact - exact[m] for m in exact}
    followed = best_set[0]          # (the fair best; of equal ones, the first: the analysis names them tied)
    drawn = [rng.choices(rows, weights=[w for w, _ in rows])[0][1] for _ in range(DRAWN)]
    covered = 0
    for m in exact:
        values = [r[m] for r in drawn]
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        covered += abs(statistics.mean(values) - exact[m]) <= half
    return {"set": any(loss[m] <= PRECISION for m in best_set), "unique": len(best_set) == 1,
            "named": len(best_set) == 1 and loss[best_set[0]] <= PRECISION, "loss": loss[followed],
            "gaps": [fair[m] - exact[m] for m in exact], "covered": covered, "moves": len(exact),
            "deals": solved.deals, "time": took, "iterations": solved.iterations, "memory": solved.memory,
            "closed": solved.closed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=10, help="endgames a size (at most)")
    ap.add_argument("--sizes", default="1,2,3", help="the larger hand's tiles, comma-separated")
    ap.add_argument("--games", type=int, default=400, help="random games a size (at most)")
    ap.add_argument("--seed", type=int, default=85)
    ap.add_argument("--max-deals", type=int, default=0, help="leave out decisions with more deals (0: none)")
    args = ap.parse_args()
    variant = find_variant("block", {"players": "2"})
    print(f"block for two, CFR+ {'kernel' if kernel() is not None else 'in Python (no kernel built)'}, "
          f"{f'at most {args.max_deals:,} deals' if args.max_deals else 'every decision'}, seed {args.seed}")
    print(f"{'tiles':>5} {'found':>5} {'beyond':>6} {'solved':>6} {'best set':>8} {'named':>9} {'fair loses':>10} "
          f"{'mean/max loss':>13} {'|fair-exact| mean/max':>21} {'signed':>6} {'cover':>5} {'deals med/max':>14} "
          f"{'s med/max':>11} {'iter':>6} {'MB med/max':>11}")
    for size in map(int, args.sizes.split(",")):
        rng = random.Random(args.seed * 7 + size)
        got, beyond = [], 0
        for rep, k, seat in endgames(variant, size, args.games, args.seed, args.decisions):
            try:
                row = one(rep, k, seat, args.max_deals, rng)
            except BuildTooLong:
                row = {"closed": False}
            if row is None:
                beyond += 1
            else:
                got.append(row)
        print_row(size, got, beyond)


def print_row(size: int, found: list[dict], beyond: int) -> None:
    """One size's line: every comparison over the endgames whose brackets closed (``solved``) alone."""
    got = [g for g in found if g["closed"]]
    if not got:
        print(f"{size:>5} {len(found) + beyond:>5} {beyond:>6} {0:>6}")
        return
    loses = [g["loss"] for g in got if g["loss"] > PRECISION]
    gaps = [x for g in got for x in g["gaps"]]
    moves = sum(g["moves"] for g in got)
    unique = sum(g["unique"] for g in got)
    mb = [g["memory"] / 1e6 for g in got]
    times = [g["time"] for g in got]
    deals = [g["deals"] for g in got]
    print(f"{size:>5} {len(found) + beyond:>5} {beyond:>6} {len(got):>6} {sum(g['set'] for g in got):>3}/{len(got):<4} "
          f"{sum(g['named'] for g in got):>4}/{unique:<4} {len(loses):>4} {100 * len(loses) / len(got):>4.0f}% "
          f"{statistics.mean(loses) if loses else 0:>6.2f}/{max(loses) if loses else 0:<6.2f} "
          f"{statistics.mean(map(abs, gaps)):>10.2f}/{max(map(abs, gaps)):<10.2f} {statistics.mean(gaps):>6.2f} "
          f"{100 * sum(g['covered'] for g in got) / moves:>4.0f}% {statistics.median(deals):>7.0f}/{max(deals):<6} "
          f"{statistics.median(times):>5.1f}/{max(times):<5.1f} {statistics.median(g['iterations'] for g in got):>6.0f} "
          f"{statistics.median(mb):>5.1f}/{max(mb):<5.1f}")


if __name__ == "__main__":
    main()
