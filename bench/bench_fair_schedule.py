"""Schedules of looks for the fair analysis, replayed offline (issue 71): every sampled decision's full table of
values (every move in each of ``--worlds`` worlds, the same worlds the commands' run draws: a part's worlds are
drawn with its own seed) recorded once, then any schedule of looks replayed on it in milliseconds, its verdicts
compared with the landed schedule's under the team's trust rule, and its cost counted in move-worlds.

    python3 bench/bench_fair_schedule.py record --out /tmp/tables.json              # 20 partnership records
    python3 bench/bench_fair_schedule.py replay /tmp/tables.json                    # every schedule listed below
    python3 bench/bench_fair_schedule.py variates /tmp/tables.json                  # what control variates could give
    python3 bench/bench_fair_schedule.py variates /tmp/tables.json --stage lead     # the leads alone

Recording: each record ``random_game(VARIANT, seed)`` for seeds ``--first`` to ``--last`` (exclusive), analysed at a
fixed ``--worlds`` (800, the commands' ``max_worlds``) with no growth, in one process; each sampled decision's
values per move and world and its CPU (``time.process_time`` of its tasks) are written.

Replaying: a schedule is a list of looks ``(worlds, z, stop)``: at each look, the moves told apart from the best at
``z`` are dropped (racing: not valued in later worlds; the move played always valued), and the decision stops
where its best is told apart from every move, or (``stop`` true) where more worlds would not tell it apart within
the last look's worlds (``fairstats.worth_more``, at the final looks' ``z``). The verdict at the stop is read at
the final looks' ``z`` (as ``fair._grade`` reads it). Cost: the move-worlds valued, weighted by each decision's CPU
per move-world in the recording (so a cheap decision's worlds count for less). The trust rule (the team's, for
item 1): against the landed schedule at the same seeds, (a) no contradiction, (b) at least 99% of the decisions it
separates the same best, (c) each mean's interval overlapping the landed one's.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from statistics import NormalDist

HERE = __import__("pathlib").Path(__file__).resolve().parent.parent


def record(args) -> None:
    sys.path.insert(0, str(HERE))
    from analyzer.analysis import analyze_replay
    from analyzer.analysis import fair as F
    from analyzer.analysis.settings import FairRun, FairSettings
    from analyzer.generate import random_game
    from analyzer.replay import replay
    from analyzer.analysis import alternative_text
    from bench_fair_decisions import timed_solves

    cost = timed_solves(F)
    captured: list = []
    sample = F._sample

    def keep(rep, plans, budget, settings, run):
        got = sample(rep, plans, budget, settings, run)
        captured.append((plans, got[0]))
        return got

    F._sample = keep
    out = []
    for s in range(args.first, args.last):
        rep = replay(random_game(args.variant, s), args.variant)
        if not rep.valid:
            continue
        cost.clear()
        captured.clear()
        F.fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=args.worlds),
                       run=FairRun(workers=1))
        plans, values = captured[0]
        for p, (plan, per_world) in enumerate(zip(plans, values)):
            if plan.method != "sampled" or per_world is None:
                continue
            table, _ = F.decision_table(rep, plan.k, plan.seat, plan.moves, per_world)
            played = F._played(rep, plan)
            out.append(dict(seed=s, k=plan.k, seat=plan.seat, sign=F._sign(rep, plan.seat),
                            moves=[alternative_text(m) for m in plan.moves],
                            played=plan.moves.index(played) if played in plan.moves else None,
                            values=[table[m] for m in plan.moves], cpu=cost.get(p, 0.0)))
        print(f"seed {s}: {sum(1 for r in out if r['seed'] == s)} sampled decisions", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(out, fh)


# -- replaying ------------------------------------------------------------------------------------
def _stats(gaps):
    n = len(gaps)
    mean = sum(gaps) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1)) if n > 1 else 0.0
    return n, mean, sd


def significant(gaps, z):
    n, mean, sd = _stats(gaps)
    return n >= 2 and mean - z * sd / math.sqrt(n) > 1e-9


def needed(gaps, z):
    n, mean, sd = _stats(gaps)
    if n < 2:
        return math.inf
    hope = mean + sd / math.sqrt(n)
    if sd == 0 or hope <= 1e-9:
        return math.inf
    return (z * sd / hope) ** 2


def _class(points, wins):
    rank = max([k for k, t in enumerate((3, 10, 25)) if points >= t] + [k for k, t in enumerate((0.05, 0.15, 0.30))
                                                                        if wins >= t] + [-1])
    return rank


def settled(best, played, z):
    """Whether the class of the move played is the same at both ends of the intervals (at ``z``) of its mean loss in
    points and in wins against the best (the default thresholds): more worlds would not change it."""
    ends = []
    for gaps in ([b - p for b, p in zip(best, played)], [int(b > 0) - int(p > 0) for b, p in zip(best, played)]):
        n, mean, sd = _stats(gaps)
        ends.append((mean - z * sd / math.sqrt(n), mean + z * sd / math.sqrt(n)))
    return _class(ends[0][0], ends[1][0]) == _class(ends[0][1], ends[1][1])


def z_of(alpha):
    return NormalDist().inv_cdf(1 - alpha / 2)


def replay_decision(dec: dict, schedule: list, final_z: float | None, futility=None, keep_played: bool = True):
    """One decision under ``schedule`` (looks ``(n, z, stop_for_futility)``): (verdict, cost, worlds, means). The
    verdict is read at ``final_z`` (the landed schedule's: every look's after the early one), or where it is None at
    the ``z`` of the look the decision stops at (looks with shares of their own)."""
    vals, sign, played = dec["values"], dec["sign"], dec["played"]
    m = len(vals)
    have = [0] * m                 # worlds each move was valued in (a prefix)
    active = set(range(m))
    n_prev = 0
    cost = 0
    fz = schedule[-1][1] if final_z is None else final_z    # (futility: the worlds needed at the last look's z)
    for i, (n, z, stop) in enumerate(schedule):
        verdict_z = z if final_z is None else final_z
        for j in active:
            have[j] = n
        cost += (n - n_prev) * len(active)
        n_prev = n
        everywhere = [j for j in range(m) if have[j] == n]
        best = max(everywhere, key=lambda j: (sign * sum(vals[j][:n]), sum(1 for v in vals[j][:n] if sign * v > 0)))
        last = i == len(schedule) - 1
        close = [j for j in range(m) if j != best and
                 not significant([sign * (b - v) for b, v in zip(vals[best][:n], vals[j][:have[j]])], z)]
        close = [j for j in close if j in active]
        if last or not close:
            break
        if stop:
            rule = futility or (lambda gaps, zz, budget: needed(gaps, zz) <= budget)
            if not any(rule([sign * (b - v) for b, v in zip(vals[best][:n], vals[j][:n])], fz, schedule[-1][0])
                       for j in close):
                break
        keep = played is not None and (keep_played is True or (keep_played == "unsettled" and not settled(
            [sign * v for v in vals[best][:n]], [sign * v for v in vals[played][:n]], z)))
        active = set(close) | {best} | ({played} if keep else set())
    # the verdict at the final z over what was valued
    n = n_prev
    everywhere = [j for j in range(m) if have[j] == n]
    best = max(everywhere, key=lambda j: (sign * sum(vals[j][:n]), sum(1 for v in vals[j][:n] if sign * v > 0)))
    tied = [j for j in range(m) if j != best and
            not significant([sign * (b - v) for b, v in zip(vals[best][:n], vals[j][:have[j]])], verdict_z)]
    means = {}
    for j in range(m):
        xs = vals[j][:have[j]]
        k, mean, sd = _stats(xs)
        half = 1.959963984540054 * sd / math.sqrt(k)
        means[j] = (mean, mean - half, mean + half)
    return (best, tuple(sorted([best] + tied)) if tied else ()), cost, n, means


def main_schedule(worlds=200, growth=4, early=True, early_alpha=0.001):
    """The schedule before fair71c (issue 71, its baseline): one early look at half the worlds at z 3.29, then worlds doubling to growth * worlds,
    those looks sharing the rest of the 5% (Bonferroni)."""
    looks = [worlds]
    while looks[-1] < worlds * growth:
        looks.append(looks[-1] * 2)
    z = z_of((0.05 - (early_alpha if early else 0)) / len(looks))
    out = [(worlds // 2, z_of(early_alpha), False)] if early else []
    return out + [(n, z, True) for n in looks], z


def compare(ref, new):
    """The trust rule's tally of ``new`` against ``ref`` (replayed decisions, in the same order), as
    ``bench_fair_process.compare`` counts it for whole runs: separated, same, tied_after, other_best, contradicted,
    overlap, within, means."""
    from bench_fair_process import compare as tally

    def shaped(got):
        return {i: (best, tied, "sampled", {j: (mean, (lo, hi)) for j, (mean, lo, hi) in means.items()})
                for i, ((best, tied), _, _, means) in enumerate(got)}
    return tally(shaped(ref), shaped(new))


def run_schedule(decs, schedule, final_z, futility=None, keep_played=True):
    return [replay_decision(d, schedule, final_z, futility, keep_played) for d in decs]


def weighted(decs, got):
    """The cost in CPU seconds: each decision's move-worlds at its recorded CPU per move-world."""
    return sum(d["cpu"] / (len(d["values"]) * len(d["values"][0])) * c for d, (_, c, _, _) in zip(decs, got))


def hopeful(c: float):
    """A stop for futility at a gap ``c`` standard errors above the one seen (the landed rule: ``c`` = 1)."""
    def rule(gaps, z, budget):
        n, mean, sd = _stats(gaps)
        if n < 2:
            return True
        hope = mean + c * sd / math.sqrt(n)
        return sd > 0 and hope > 1e-9 and (z * sd / hope) ** 2 <= budget
    return rule


def student(z, df):
    """Student's t quantile at the level of the normal ``z`` (``fairstats.student``)."""
    return (z + (z ** 3 + z) / 4 / df + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 / df ** 2
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 / df ** 3)


def schedules():
    """The schedules compared: name -> (looks, verdict z or None for each look's own, futility rule, move played
    kept: True, False, or "unsettled": while its class may change)."""
    late = z_of(0.049 / 3)
    half = z_of(0.0005)
    third = z_of(0.001 / 3)
    main_, z = main_schedule()
    tail = [(n, late, True) for n in (200, 400, 800)]
    out = {"landed: 100@3.29, 200/400/800@2.40": (main_, z, None, True),
           "no early look: 200/400/800@2.39": (*main_schedule(early=False), None, True),
           "50, 100 @3.48 (normal)": ([(50, half, False), (100, half, False)] + tail, late, None, True),
           "this branch: 50@3.73, 100@3.60 (Student)": ([(50, student(half, 49), False), (100, student(half, 99), False)]
                                                        + tail, late, None, True),
           "25, 50, 100 @Student (4.18, 3.86, 3.72)": ([(n, student(third, n - 1), False) for n in (25, 50, 100)] + tail,
                                                       late, None, True),
           "50@3.29, then 100/200/400/800@2.50": ([(50, z_of(0.001), False)] + [(n, z_of(0.049 / 4), True)
                                                                            for n in (100, 200, 400, 800)],
                                                   z_of(0.049 / 4), None, True),
           "share moved early: 50 .05%, 100 .5%, 200/400 1.63%, 800 1.19%":
               ([(50, z_of(0.0005), False), (100, z_of(0.005), False), (200, z_of(0.0163), True),
                 (400, z_of(0.0163), True), (800, z_of(0.0119), True)], None, None, True),
           "this branch, move played dropped once told apart": (
               [(50, student(half, 49), False), (100, student(half, 99), False)] + tail, late, None, False),
           "this branch, move played kept while its class may change": (
               [(50, student(half, 49), False), (100, student(half, 99), False)] + tail, late, None, "unsettled")}
    for c in (0.75, 0.5, 0.0):
        out[f"landed, futility at a gap {c} se above the one seen"] = (main_, z, hopeful(c), True)
    return out


def replay_all(args) -> None:
    decs = json.load(open(args.tables, encoding="utf-8"))
    ref_sched, ref_z = main_schedule()
    ref = run_schedule(decs, ref_sched, ref_z)
    ref_cost = weighted(decs, ref)
    full = sum(d["cpu"] for d in decs)
    print(f"# {len(decs)} sampled decisions of seeds {decs[0]['seed']}-{decs[-1]['seed']}; CPU of every move in all "
          f"{len(decs[0]['values'][0])} worlds: {full:.1f} s; the landed schedule: {ref_cost:.1f} s (est.)")
    print("| schedule | CPU s (est.) | landed / this | worlds mean | separated (landed) | same best | tied | other | "
          "contradictions | intervals overlapping | means within |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (sched, z, futility, kept) in schedules().items():
        got = run_schedule(decs, sched, z, futility, kept)
        t = compare(ref, got)
        c = weighted(decs, got)
        print(f"| {name} | {c:.1f} | {ref_cost / c:.2f} | {sum(g[2] for g in got) / len(got):.0f} | {t['separated']} | "
              f"{t['same']} | {t['tied_after']} | {t['other_best']} | {t['contradicted']} | {t['overlap']}/{t['means']} "
              f"| {t['within']}/{t['means']} |")


def variates(args) -> None:
    """Control variates, how much they could give: for each recorded decision (``--stage``: every one, the leads of a
    hand alone or the others), the paired gap of the best to the runner-up (by the means over every world) against
    features of each world (the worlds drawn again with the seeds the analysis draws them with): ``holders``, who
    holds each hidden tile (an indicator per seat and tile); ``suits``, each other hand's count of tiles of each
    number, its pips and its doubles; both. A ridge fit on worlds 0-399 tested on worlds 400-799 (the features' mean
    over the 800 worlds standing in for their exact mean): the residual variance over the raw one (the share of the
    worlds a look at a given interval would need with the variates)."""
    import random
    import statistics

    import numpy as np

    sys.path.insert(0, str(HERE))
    from analyzer.generate import random_game
    from analyzer.inference import worlds_at
    from analyzer.position import tiles_of
    from analyzer.replay import replay

    decs = json.load(open(args.tables, encoding="utf-8"))
    ratios: dict = {"holders": [], "suits": [], "both": []}
    counts, reps = [], {}
    for d in decs:
        if args.stage != "every" and (args.stage == "lead") != (d["k"] == 0):
            continue
        if d["seed"] not in reps:
            reps[d["seed"]] = replay(random_game(args.variant, d["seed"]), args.variant)
        every = worlds_at(reps[d["seed"]], d["k"], d["seat"])
        holders, suits = [], []
        for part in range(len(d["values"][0]) // 25):
            rng = random.Random((args.seed * 1_000_003 + d["k"]) * 100_003 + part)     # (as ``fair._Plan.chunk``)
            for _ in range(25):
                deal = every.view.deal(every.sample(rng))
                others = [hand for seat, hand in enumerate(deal) if seat != d["seat"]]
                holders.append([(hand >> bit) & 1 for hand in others for bit in range(28)])
                row = []
                for hand in others:
                    held = tiles_of(hand)
                    row += [sum(1 for t in held if n in (t.low, t.high)) for n in range(7)]
                    row += [sum(t.low + t.high for t in held), sum(1 for t in held if t.low == t.high)]
                suits.append(row)
        values = np.array(d["values"], dtype=float) * d["sign"]
        first, second = np.argsort(-values.mean(axis=1))[:2]
        gap = values[first] - values[second]
        half = len(gap) // 2
        if gap[half:].var() == 0:
            continue
        for name, x in (("holders", np.array(holders, dtype=float)), ("suits", np.array(suits, dtype=float)),
                        ("both", np.hstack([np.array(holders, dtype=float), np.array(suits, dtype=float)]))):
            x = x[:, x.std(axis=0) > 0] - x[:, x.std(axis=0) > 0].mean(axis=0)
            fit = x[:half]
            beta = np.linalg.solve(fit.T @ fit + np.eye(fit.shape[1]), fit.T @ (gap[:half] - gap[:half].mean()))
            ratios[name].append((gap[half:] - x[half:] @ beta).var() / gap[half:].var())
            if name == "holders":
                counts.append(x.shape[1])
    for name, got in ratios.items():
        q = statistics.quantiles(got, n=4)
        print(f"{args.stage}, {name}: {len(got)} decisions: residual / raw variance of the paired gap out of sample, "
              f"median {q[1]:.3f}, quartiles {q[0]:.3f} / {q[2]:.3f}")
    print(f"hidden-tile indicators a decision, median {statistics.median(counts)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("--out", required=True)
    rec.add_argument("--variant", default="partnership")
    rec.add_argument("--first", type=int, default=1001)
    rec.add_argument("--last", type=int, default=1021)
    rec.add_argument("--worlds", type=int, default=800)
    rep = sub.add_parser("replay")
    rep.add_argument("tables")
    var = sub.add_parser("variates")
    var.add_argument("tables")
    var.add_argument("--variant", default="partnership")
    var.add_argument("--seed", type=int, default=0)
    var.add_argument("--stage", choices=("every", "lead", "later"), default="every",
                     help="every decision, the leads of a hand alone, or the others")
    args = ap.parse_args()
    {"record": record, "replay": replay_all, "variates": variates}[args.what](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
