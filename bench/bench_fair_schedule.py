"""Schedules of looks for the fair analysis, replayed offline (issue 71): every sampled decision's full table of
values (every move in each of ``--worlds`` worlds, the same worlds the commands' run draws: a part's worlds are
drawn with its own seed) recorded once, then any schedule of looks replayed on it in milliseconds, its verdicts
compared with the landed schedule's under the team's trust rule, and its cost counted in move-worlds.

    python3 bench/bench_fair_schedule.py record --out /tmp/tables.json              # 20 partnership records
    python3 bench/bench_fair_schedule.py replay /tmp/tables.json                    # every schedule listed below

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
import time
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

    cost: dict = {}
    solve = F._solve

    def timed(task):
        t = time.process_time()
        got = solve(task)
        cost[task[0]] = cost.get(task[0], 0) + time.process_time() - t
        return got

    F._solve = timed
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
    """The landed schedule: an early look at half the worlds at Z_EARLY, then worlds doubling to growth * worlds,
    those looks sharing the rest of the 5% (Bonferroni)."""
    looks = [worlds]
    while looks[-1] < worlds * growth:
        looks.append(looks[-1] * 2)
    z = z_of((0.05 - (early_alpha if early else 0)) / len(looks))
    out = [(worlds // 2, z_of(early_alpha), False)] if early else []
    return out + [(n, z, True) for n in looks], z


def compare(ref, new):
    """Tally of the trust rule: new against ref, per decision."""
    t = dict(decisions=0, separated=0, same=0, tied_after=0, other=0, contradictions=0, means=0, overlap=0, within=0)
    for (vr, _, _, mr), (vn, _, _, mn) in zip(ref, new):
        (br, tr), (bn, tn) = vr, vn
        t["decisions"] += 1
        if not tr:
            t["separated"] += 1
            if not tn and bn == br:
                t["same"] += 1
            elif tn and br in tn:
                t["tied_after"] += 1
            else:
                t["other"] += 1
        t["contradictions"] += bool((not tn and ((not tr and bn != br) or (tr and bn not in tr))) or
                                    (not tr and tn and br not in tn))
        for j in mr:
            t["means"] += 1
            t["overlap"] += mn[j][1] <= mr[j][2] + 1e-9 and mr[j][1] <= mn[j][2] + 1e-9
            t["within"] += mr[j][1] - 1e-6 <= mn[j][0] <= mr[j][2] + 1e-6
    return t


def run_schedule(decs, schedule, final_z, futility=None, keep_played=True):
    return [replay_decision(d, schedule, final_z, futility, keep_played) for d in decs]


def weighted(decs, got):
    """The cost in CPU seconds: each decision's move-worlds at its recorded CPU per move-world."""
    return sum(d["cpu"] / (len(d["values"]) * len(d["values"][0])) * c for d, (_, c, _, _) in zip(decs, got))


def schedules():
    """The schedules compared (name -> (looks, final z))."""
    out = {}
    out["main (100@3.29, 200/400/800@2.40)"] = main_schedule()
    out["no early look (200/400/800@2.39)"] = main_schedule(early=False)
    zf = z_of(0.049 / 3)
    ze2 = z_of(0.0005)
    out["50@3.48, 100@3.48, 200/400/800@2.40"] = ([(50, ze2, False), (100, ze2, False)] +
                                                  [(n, zf, True) for n in (200, 400, 800)], zf)
    ze3 = z_of(0.001 / 3)
    out["25/50/100@3.59, 200/400/800@2.40"] = ([(n, ze3, False) for n in (25, 50, 100)] +
                                               [(n, zf, True) for n in (200, 400, 800)], zf)
    out["50@3.29, 100@2.40..: 5 looks 50/100/200/400/800"] = None      # filled below
    z5 = z_of(0.049 / 4)
    out["50@3.29, 100/200/400/800@2.50"] = ([(50, z_of(0.001), False)] + [(n, z5, True) for n in (100, 200, 400, 800)],
                                             z5)
    del out["50@3.29, 100@2.40..: 5 looks 50/100/200/400/800"]
    return out


def replay_all(args) -> None:
    decs = json.load(open(args.tables, encoding="utf-8"))
    ref_sched, ref_z = main_schedule()
    ref = run_schedule(decs, ref_sched, ref_z)
    ref_cost = weighted(decs, ref)
    full = sum(d["cpu"] for d in decs)
    print(f"# {len(decs)} sampled decisions; CPU of every move in all {len(decs[0]['values'][0])} worlds: "
          f"{full:.1f} s; the landed schedule: {ref_cost:.1f} s")
    print("| schedule | CPU s (est.) | main / this | worlds mean | separated (main) | same best | tied | other | "
          "contradictions | means overlapping | means within |")
    for name, (sched, z) in schedules().items():
        got = run_schedule(decs, sched, z)
        t = compare(ref, got)
        c = weighted(decs, got)
        print(f"| {name} | {c:.1f} | {ref_cost / c:.2f} | {sum(g[2] for g in got) / len(got):.0f} | {t['separated']} | "
              f"{t['same']} | {t['tied_after']} | {t['other']} | {t['contradictions']} | {t['overlap']}/{t['means']} "
              f"| {t['within']}/{t['means']} |")


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
    args = ap.parse_args()
    (record if args.what == "record" else replay_all)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
