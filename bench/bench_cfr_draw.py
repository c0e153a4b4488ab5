"""The draw game for two with tiles still to draw: which decisions the CFR+ solver values, over the deals and over the
players' hands (issue 85; docs/hidden.md, "Draws to come over hands").

    nice -n 5 python3 bench/bench_cfr_draw.py --seeds 1-10 --hand 5 --seconds 120

Each record is ``domino new --variant draw --players 2 --seed N``'s. Every decision with a choice, tiles still to draw
and at most ``--hand`` tiles in either hand is listed with its deals (``public_stock_down``: the placements' deals),
those times the orders the tiles still to draw may come in (what the tree over deals grows with), and:

- ``deals``: the tree over the deals (``cfr_decision`` with the deals and their weights), where the deals times the
  orders are at most ``--deal-worlds`` (the fair analysis's ``CFR_DRAW_WORLDS``), else not tried;
- ``hands``: the tree over each player's hands (``weighted_ranges``, then ``cfr_decision(ranges=, hand_weights=)``),

each with ``--seconds`` CPU seconds (the tree's building counted) and the analysis's memory cap: closed (to 0.001
points a deal of the mover's hand), open (its widest bracket), or why not (the build's time, the cap, a hand past 8
tiles); where both valued it, whether they agree (every bracket overlapping, the same share of the deals giving the
mover his hand). CPU seconds by ``time.process_time``: the machine's load left out."""
from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.analysis.fair import _decision_points  # noqa: E402
from analyzer.analysis.hiddenfair import CFR_DEALS, CFR_DRAW_WORLDS, CFR_MEMORY  # noqa: E402
from analyzer.hidden import TooLarge  # noqa: E402
from analyzer.hidden.cfr import cfr_decision  # noqa: E402
from analyzer.hidden.decision import public_stock_down  # noqa: E402
from analyzer.hidden.ranges import BuildTooLong, HandTooLarge, TreeTooLarge, weighted_ranges  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.template import template_text  # noqa: E402


def valued(solve):
    """A solve's verdict as the table gives it, with its CPU seconds, and the decision (None where there is none)."""
    start = time.process_time()
    try:
        got = solve()
    except BuildTooLong:
        return f"not built ({time.process_time() - start:.1f} s)", None
    except TreeTooLarge:
        return f"past the cap ({time.process_time() - start:.1f} s)", None
    except HandTooLarge:
        return "a hand past 8 tiles", None
    took = time.process_time() - start
    if got.closed:
        return f"closed, {took:.1f} s, {got.nodes:,} nodes, {got.memory / 2**20:.0f} MB", got
    return f"open {got.width():.3g}, {took:.1f} s, {got.nodes:,} nodes", got


def agree(a, b) -> bool:
    """Whether two valuations of one decision agree: the game's and each move's brackets overlapping (each holds the
    value), and the same share of the deals giving the mover his hand."""
    spans = [(a.bounds, b.bounds)] + [((x[1], x[2]), (y[1], y[2])) for x, y in zip(a.move_bounds, b.move_bounds)]
    return (all(max(p[0], q[0]) <= min(p[1], q[1]) + 1e-9 for p, q in spans)
            and abs(a.reach - b.reach) <= 1e-9 * b.reach)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10", help="the records' seeds, A-B")
    ap.add_argument("--hand", type=int, default=5, help="the most tiles in either hand")
    ap.add_argument("--seconds", type=float, default=120.0, help="CPU seconds of each solve")
    ap.add_argument("--deal-worlds", type=int, default=CFR_DRAW_WORLDS, help="the tree over deals up to these")
    args = ap.parse_args()
    lo, _, hi = args.seeds.partition("-")
    print(f"draw game for two, seeds {args.seeds}, at most {args.hand} tiles a hand, {args.seconds:.0f} CPU s a solve")
    print("| seed, move | tiles | stock, to draw | deals | deals x orders | over the deals | over the hands | agree |")
    print("|---|---|---|---:|---:|---|---|---|")
    counts = {"listed": 0, "deals": 0, "hands": 0, "both": 0, "agree": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(int(lo), int(hi or lo) + 1):
            path = Path(tmp) / f"draw-{seed}.dom"
            path.write_text(template_text("draw", {}, 2, seed))
            (rep,) = replay_record(read(str(path)))
            for k, seat, moves in _decision_points(rep, [0, 1]):
                pos = rep.position_at(k)
                if (len(moves) < 2 or moves != pos.legal_moves() or not pos.drawable()
                        or max(pos.count(0), pos.count(1)) > args.hand):
                    continue
                head = f"| {seed}, {k + 1} | {pos.count(0)} and {pos.count(1)} | {pos.stock}, {pos.drawable()} |"
                try:
                    actual, deals, weights = public_stock_down(rep, k, CFR_DEALS)
                except (TooLarge, ValueError) as exc:
                    print(f"{head} | | not listed: {exc} | |", flush=True)
                    continue
                counts["listed"] += 1
                worlds = len(deals) * math.perm(pos.stock, pos.drawable())
                by_deals, a = "(not tried)", None
                if worlds <= args.deal_worlds:
                    by_deals, a = valued(lambda: cfr_decision(rep.variant, actual, deals, weights, masks=True,
                                                              budget=args.seconds))
                found = weighted_ranges(deals, weights, (0, 1))
                by_hands, b = ("(no product form)", None) if found is None else valued(
                    lambda: cfr_decision(rep.variant, actual, ranges=found[0], hand_weights=found[1],
                                         budget=args.seconds, memory=CFR_MEMORY))
                counts["deals"] += by_deals.startswith("closed")
                counts["hands"] += by_hands.startswith("closed")
                both = "" if a is None or b is None else "yes" if agree(a, b) else "NO"
                counts["both"] += bool(both)
                counts["agree"] += both == "yes"
                print(f"{head} {len(deals):,} | {worlds:,} | {by_deals} | {by_hands} | {both} |", flush=True)
    print(f"\n{counts['listed']} decisions listed; closed over the deals: {counts['deals']}, over the hands: "
          f"{counts['hands']}; valued both ways: {counts['both']}, agreeing: {counts['agree']}")


if __name__ == "__main__":
    main()
