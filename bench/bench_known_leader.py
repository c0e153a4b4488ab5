"""What a known leader's position costs to look up on a coarser lattice (French, Hungarian for four): the match scale
asks it once a game with a known leader (``EquityTable._between_lattice``), each game at new running scores.

    python3 bench/bench_known_leader.py                     # 200 positions a table, best of 3 rounds
    python3 bench/bench_known_leader.py --positions 500 --rounds 5

For each table, the known leaders' positions of random matches (each game's but the first), each weighed two ways
in the same process, the two alternating round by round: every result's row made with the match code's answer
(``table.hand_rows``, then ``RaceValues.after_hand``: the way before), and with the match code asked only about the
results that take a score to the target (``EquityTable._between_added``). Each round starts with the match code's
answers forgotten (a new walk memo), as a new archive's first look-ups find them; the rows of a lead
(``table.added_rows``) are made before the timing, once a process. CPU time a look-up, and whether both give the
same numbers. The machine is shared: read the ratios, not the milliseconds.
"""
from __future__ import annotations

import argparse
import time

from analyzer.equity import _SLOW, load_table
from analyzer.equity.table import added_rows, hand_rows, state_key
from analyzer.rules import find_variant

TABLES = [("hungarian", {"players": "4"}), ("french", {})]


def positions(variant, count: int) -> list[tuple]:
    """``count`` known-leader positions of ``variant`` as an archive meets them: each game's match position with a
    known leader in random matches (``analyzer.match.random_match``, seeds from 1, up to 6 games each)."""
    from analyzer.analysis.match_scale import match_positions
    from analyzer.match import random_match, replay_record

    out, seed = [], 0
    while len(out) < count:
        seed += 1
        for position, _, _ in match_positions(replay_record(random_match(variant, seed, games=6))):
            if position is not None and position.lead[0] == "side" and not position.state.over:
                out.append((state_key(variant, position.state), position.lead))
    return out[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"# bench_known_leader: {args.positions} positions a table, best of {args.rounds} rounds, CPU a look-up")
    print("\n| table | every row made | rows near the target only | faster | same numbers |\n|---|---:|---:|---:|---|")
    for name, rules in TABLES:
        variant = find_variant(name, rules)
        table = load_table(variant)
        keys = positions(variant, args.positions)
        for side in range(variant.seating.sides):
            added_rows(variant, table.model, ("side", side), table._memo)
        best, same = {}, True
        for _ in range(args.rounds):
            memo = {k: table._memo[k] for k in ("results", "merged")}    # (each lead's results made already)
            t = time.process_time()
            slow = [table.values.after_hand(hand_rows(variant, table.model, key, memo)) for key in keys]
            best["rows"] = min(best.get("rows", 1e9), time.process_time() - t)
            table._memo.pop("step", None)            # (the match code's answers forgotten)
            t = time.process_time()
            fast = [table._between_added(key) for key in keys]
            best["near"] = min(best.get("near", 1e9), time.process_time() - t)
            same = same and all(f is not _SLOW for f in fast) and fast == slow
        rows, near = (1000 * best[k] / len(keys) for k in ("rows", "near"))
        label = name + "".join(f" {k}={v}" for k, v in rules.items())
        print(f"| {label} | {rows:.2f} ms | {near:.2f} ms | {rows / near:.1f}x | {'yes' if same else 'NO'} |",
              flush=True)


if __name__ == "__main__":
    main()
