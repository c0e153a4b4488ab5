"""Benchmark the analysis of a Domino Whist record with a tile exposed from the deal (001 §8).

    python3 bench/bench_exposed.py                              # this tree only
    python3 bench/bench_exposed.py --before /tmp/old-tree       # and another source tree, in the same run

The record is a random Domino Whist game (``analyzer.generate.random_game``, ``--seed``) with an
``Exposed`` tag naming the tile that stays open longest without making the record invalid (a tile its
holder never gets a chance to play, or plays at his first chance). For it:

(a) ``open``: the open-hands analysis (``analyze_replay``), seconds;
(b) ``fair s/world``: at the first ``--decisions`` decisions where the tile lies open, ``--worlds`` worlds
    each drawn from those the mover could not tell apart and solved as ``domino analyze --fair`` solves
    them (one process), seconds a world;
(c) ``nodes plain``: the states the int solver visits for every decision of the same record without the
    tag (a fresh solver each): a search that knows exposed tiles must not change this number;
    ``plain s``: their time.

With ``--before DIR`` the same measurements run on the source tree DIR (its C cores built in place) in a
subprocess, and the table shows both and the ratio before / after.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path


def _args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=2, help="the random game (default 2)")
    ap.add_argument("--decisions", type=int, default=3, help="decisions of the fair analysis to time")
    ap.add_argument("--worlds", type=int, default=5, help="worlds a decision")
    ap.add_argument("--before", metavar="DIR", help="another source tree to measure in the same run")
    ap.add_argument("--root", metavar="DIR", help=argparse.SUPPRESS)     # the tree to import (a subprocess)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    return ap.parse_args(argv)


def record(seed: int):
    """The tagged and the plain replay of random game ``seed``, and the tag."""
    from analyzer.generate import random_game
    from analyzer.match import replay_record
    from analyzer.notation import parse, write_game
    from analyzer.position import tiles_of

    text = write_game(random_game("whist", seed))
    (plain,) = replay_record(parse(text))
    best = None
    for s, name in enumerate(plain.players):
        for tile in tiles_of(plain.initial.hands[s], 6):
            tag = f'[Exposed "{name} {tile}"]'
            (rep,) = replay_record(parse(text.replace("[Lead", f"{tag}\n[Lead", 1)))
            if rep.valid:
                live = sum(1 for k in range(len(rep.steps)) if rep.position_at(k).exposed)
                if best is None or live > best[0]:
                    best = (live, rep, tag)
    if best is None:
        raise SystemExit(f"game {seed}: no tile can be exposed from the deal; try another --seed")
    return best[1], plain, best[2]


def measure(seed: int, decisions: int, worlds: int) -> dict:
    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair
    from analyzer.inference import worlds_at
    from analyzer.search import Solver
    from analyzer.search.core import CORE, SearchBudget

    rep, plain, tag = record(seed)
    t0 = time.perf_counter()
    base = analyze_replay(rep)
    open_s = time.perf_counter() - t0
    assert base.stopped is None, base.stopped
    # (b) the first decisions with the tile open, as the fair analysis solves their worlds
    points = [(k, seat, moves) for k, seat, moves in fair._decision_points(rep, list(range(4)))
              if rep.position_at(k).exposed][:decisions]
    plans = [fair._Plan(k, seat, moves, worlds_at(rep, k, seat), "sampled", None, worlds, 0)
             for k, seat, moves in points]
    fair._JOB.update(rep=rep, budget=SearchBudget(), plans=plans)
    per = []
    for p, (k, *_rest) in enumerate(points):
        t0 = time.perf_counter()
        solved, _ = fair._solve((p, 0, worlds, None))         # (each world's values; no results asked for)
        per.append((k, (time.perf_counter() - t0) / len(solved)))
    # (c) the int solver's states on the plain record
    nodes = 0
    t0 = time.perf_counter()
    for k in range(len(plain.steps)):
        pos = plain.position_at(k)
        if pos.outcome() is None and len(pos.legal_moves()) > 1:
            solver = Solver(plain.variant)
            solver.values(pos)
            nodes += solver.nodes
    plain_s = time.perf_counter() - t0
    return {"tag": tag, "core": CORE, "open": open_s, "fair": per, "nodes": nodes, "plain": plain_s}


def main() -> None:
    args = _args()
    root = Path(args.root).resolve() if args.root else Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    result = measure(args.seed, args.decisions, args.worlds)
    if args.json:
        print(json.dumps(result))
        return
    rows = [("after", result)]
    if args.before:
        out = subprocess.run([sys.executable, __file__, "--root", args.before, "--json", "--seed", str(args.seed),
                              "--decisions", str(args.decisions), "--worlds", str(args.worlds)],
                             check=True, capture_output=True, text=True).stdout
        rows.insert(0, ("before", json.loads(out.strip().splitlines()[-1])))
    print(f"whist game {args.seed} with {result['tag']}, {args.worlds} worlds a decision, core {result['core']}")
    ks = [k for k, _ in result["fair"]]
    print(f"{'tree':8} {'open s':>8} " + " ".join(f"{'fair@' + str(k + 1):>9}" for k in ks) + f" {'nodes plain':>12} {'plain s':>8}")
    for name, r in rows:
        print(f"{name:8} {r['open']:8.2f} " + " ".join(f"{s:9.3f}" for _, s in r["fair"]) + f" {r['nodes']:12,} {r['plain']:8.2f}")
    if args.before:
        b, a = rows[0][1], rows[1][1]
        print(f"{'ratio':8} {b['open'] / a['open']:8.1f} "
              + " ".join(f"{x / y:9.1f}" for (_, x), (_, y) in zip(b["fair"], a["fair"]))
              + f" {'same' if b['nodes'] == a['nodes'] else 'DIFFERENT':>12} {b['plain'] / a['plain']:8.2f}")
    print("(fair@N: seconds a world at the decision of move N; ratio: before / after)")


if __name__ == "__main__":
    main()
