"""The partnership bracket (``analyzer.hidden.team_decision``) on random partnership games: its time a decision and
how often it tells the best move apart.

Random games of the partnership block game (``analyzer.generate.random_game``, seeded from ``--seed``) are
replayed; of each, every decision with a choice where every hand holds at most ``--hand`` tiles is valued over the
deals the public record allows (``team_deals``), up to ``--decisions``. A row per hand size (the most tiles in a
hand at the decision): the decisions valued, those refused (past ``TEAM_DEALS`` public deals, or a search past
``TEAM_TRIES`` choices, too deep, or past ``--seconds`` of CPU, the fair analysis's ``TEAM_SECONDS`` unless told:
``TooLarge``), the public deals (median, most), the CPU seconds of a decision
(the two searches, every move, not the listing of the deals; median, worst), those whose bracket tells the best move
apart (one move's bracket wholly above every other's), those whose brackets all closed (every move's lower bound
equal to its upper; in brackets those of them where every move is equal: nothing to tell apart), and
the width of a move's bracket per deal of the mover's hand (mean, largest).

    nice -n 10 python3 bench/bench_hidden_team.py [--games 200] [--decisions 60] [--hand 2] [--seed 85] [--seconds S]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.analysis.teamfair import TEAM_SECONDS  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.hidden import TEAM_DEALS, TooLarge, team_deals, team_decision  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument("--hand", type=int, default=2)
    parser.add_argument("--seed", type=int, default=85)
    parser.add_argument("--seconds", type=float, default=TEAM_SECONDS,
                        help="a decision's CPU seconds, as the fair analysis gives it (0: no limit but the tries)")
    args = parser.parse_args()
    rules = find_variant("partnership", {})
    rows: dict[int, dict] = {}
    taken = 0
    for g in range(args.games):
        if taken >= args.decisions:
            break
        rep = replay(random_game(rules, args.seed + g))
        for k in range(len(rep.steps) + 1):
            pos = rep.position_at(k)
            most = max(pos.count(s) for s in range(pos.n))
            if most > args.hand or len(pos.legal_moves()) < 2 or taken >= args.decisions:
                continue
            taken += 1
            row = rows.setdefault(most, {"refused": 0, "gave up": 0, "deals": [], "seconds": [], "apart": 0,
                                         "closed": 0, "tied": 0, "widths": []})
            try:
                deals = team_deals(rep, k, TEAM_DEALS)
            except TooLarge:
                row["refused"] += 1
                continue
            start = time.process_time()
            try:
                got = team_decision(rules, pos, deals, seconds=args.seconds or None)
            except TooLarge:
                row["gave up"] += 1
                continue
            row["seconds"].append(time.process_time() - start)
            row["deals"].append(len(deals))
            row["apart"] += got.best() is not None
            widths = [(up - lo) / got.reach for _, lo, up in got.moves]
            row["closed"] += max(widths) < 1e-9
            row["tied"] += max(widths) < 1e-9 and got.best() is None
            row["widths"].extend(widths)
    print("| hand | valued | past the deals / search gave up | deals median / most | s median / worst "
          "| best told apart | all closed (of them tied) | width a deal of his hand mean / most |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for most in sorted(rows):
        r = rows[most]
        n = len(r["seconds"])
        if not n:
            print(f"| {most} | 0 | {r['refused']} / {r['gave up']} | | | | | |")
            continue
        print(f"| {most} | {n} | {r['refused']} / {r['gave up']} "
              f"| {statistics.median(r['deals']):,.0f} / {max(r['deals']):,} "
              f"| {statistics.median(r['seconds']):.3f} / {max(r['seconds']):.3f} | {r['apart']} of {n} "
              f"| {r['closed']} ({r['tied']}) of {n} | {statistics.mean(r['widths']):.2f} / {max(r['widths']):.2f} |")


if __name__ == "__main__":
    main()
