"""The fair analysis decision by decision (issue 71): what each decision costs and says, in one tree, and two
trees' verdicts compared.

    python3 bench/bench_fair_decisions.py --tree /work/main --out /tmp/before.json     # 20 partnership records
    python3 bench/bench_fair_decisions.py --tree . --out /tmp/after.json
    python3 bench/bench_fair_decisions.py --compare /tmp/before.json /tmp/after.json

Each record ``random_game("partnership", seed)`` for seeds ``--first`` to ``--last`` (exclusive), analysed with
every hand open, then fairly at the commands' budget (200 deals, to 800 where the best is not told apart), in this
process (``workers=1``: the CPU of each decision's worlds is this process's, ``time.process_time``). Written per
decision: its method, worlds, moves, CPU, best, tied moves and each move's mean and interval. ``--compare``: the CPU
of both, the cost by class of decision (method, worlds, told apart or not) of the first, and the verdicts of the
second against the first (same best where the first tells it apart, contradictions, means within the first's
intervals, intervals overlapping the first's, the verdict and class on the move played the same).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict


def timed_solves(fair) -> dict:
    """The CPU of each plan's tasks (``time.process_time``, by the plan's index), gathered from now on in the dict
    returned: ``fair._solve`` (of the ``analysis.fair`` module given) timed in this process (``workers=1``)."""
    cost: dict = {}
    solve = fair._solve

    def timed(task):
        t = time.process_time()
        got = solve(task)
        cost[task[0]] = cost.get(task[0], 0) + time.process_time() - t
        return got

    fair._solve = timed
    return cost


def record(tree: str, first: int, last: int, out: str) -> None:
    sys.path.insert(0, tree)
    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair as F
    from analyzer.analysis.fairstats import GROWTH
    from analyzer.generate import random_game
    from analyzer.replay import replay
    from bench_fair_process import fair_call

    cost = timed_solves(F)
    listed = F._list_worlds
    seen: list = []

    def keep(plans, *a, **k):
        listed(plans, *a, **k)
        seen.append(plans)

    F._list_worlds = keep
    rows = []
    for s in range(first, last):
        rep = replay(random_game("partnership", s), "partnership")
        if not rep.valid:
            continue
        cost.clear()
        seen.clear()
        t = time.process_time()
        out_ = fair_call(F, rep, analyze_replay(rep), workers=1, max_worlds=GROWTH * F.WORLDS)
        rows.append(dict(seed=s, total=time.process_time() - t))
        for p, plan in enumerate(seen[0]):
            d = next((d for d in out_.decisions if d.fair and d.index == plan.k and d.fair.view == rep.players[plan.seat]),
                     None)
            rows.append(dict(seed=s, k=plan.k, method=plan.method, size=plan.size, cpu=cost.get(p, 0),
                             moves=len(plan.moves), best=d.fair.best if d else None,
                             tied=list(d.fair.tied) if d else None, verdict=d.fair.verdict if d else None,
                             cls=d.fair.cls if d else None,
                             means={a.move: (a.fair.mean, a.fair.ci95) for a in d.alternatives if a.fair} if d else None))
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(rows, fh)


def compare(before: str, after: str) -> None:
    a, b = (json.load(open(f, encoding="utf-8")) for f in (before, after))
    ta, tb = (sum(r["total"] for r in x if "total" in r) for x in (a, b))
    print(f"fair CPU, all records: before {ta:.2f} s, after {tb:.2f} s: before / after {ta / tb:.2f}")
    classes: dict = defaultdict(lambda: [0, 0.0, 0])
    for r in a:
        if "k" in r:
            key = (r["method"], r["size"] if r["method"] == "sampled" else "all", "tied" if r["tied"] else "told apart")
            classes[key][0] += 1
            classes[key][1] += r["cpu"]
            classes[key][2] += r["size"]
    whole = sum(v[1] for v in classes.values()) or 1
    print("before, by class of decision: | method | worlds | verdict | decisions | CPU s | share | worlds |")
    for key, (n, c, w) in sorted(classes.items(), key=lambda kv: -kv[1][1]):
        print(f"| {key[0]} | {key[1]} | {key[2]} | {n} | {c:.2f} | {100 * c / whole:.0f}% | {w} |")
    tally, means = Counter(), [0, 0, 0]
    for x, y in zip((r for r in a if "k" in r), (r for r in b if "k" in r)):
        assert (x["seed"], x["k"]) == (y["seed"], y["k"])
        if x["best"] is None:
            continue
        tally["decisions"] += 1
        if not x["tied"]:
            tally["separated"] += 1
            tally["same best"] += not y["tied"] and y["best"] == x["best"]
        else:
            tally["tied before"] += 1
            tally["told apart after"] += not y["tied"]
        tally["contradictions"] += bool((not y["tied"] and ((not x["tied"] and y["best"] != x["best"]) or
                                                            (x["tied"] and y["best"] not in x["tied"])))
                                        or (not x["tied"] and y["tied"] and x["best"] not in y["tied"]))
        if "verdict" in x and "verdict" in y:
            tally["verdict and class the same"] += (x["verdict"], x["cls"]) == (y["verdict"], y["cls"])
        for m, (mean, (lo, hi)) in x["means"].items():
            means[0] += 1
            means[1] += lo - 1e-6 <= y["means"][m][0] <= hi + 1e-6
            means[2] += y["means"][m][1][0] <= hi + 1e-6 and lo <= y["means"][m][1][1] + 1e-6
    print("verdicts:", dict(tally), f"; fair means within before's interval: {means[1]} of {means[0]}; intervals "
          f"overlapping before's: {means[2]} of {means[0]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", default=".")
    ap.add_argument("--first", type=int, default=1001)
    ap.add_argument("--last", type=int, default=1021)
    ap.add_argument("--out")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        record(args.tree, args.first, args.last, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
