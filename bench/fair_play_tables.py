"""MWC tables from hands played by what the players know, made and measured against the shipped ones (issue 53).

    nice -n 10 python3 bench/fair_play_tables.py make --variant partnership --hands 2500 --worlds 16 \
        --mode 'holder:[6-6]:forced' --mode open
    nice -n 10 python3 bench/fair_play_tables.py make --variant whist --hands 2000 --worlds 16
    nice -n 10 python3 bench/fair_play_tables.py compare --variant partnership --bootstrap 5 --generated 4

``make`` simulates the variant's hand-result model with the fair-play policy (``analysis.fairplay.FairPlayer``:
each decision by the mean open-hands value over ``--worlds`` deals the mover cannot tell apart, drawn by the
project's inference), on the same deals as the shipped model (the same seed), solves the match
(``equity.compute_table``) and writes the table to ``analyzer/equity/data/fair/NAME.mwc`` (refused where it
exists, unless ``--force``). ``--hands 20`` first forecasts the time.

``compare`` prints, for the fair-play table against the shipped (open-hands) one: each model's lead modes with
their standard errors, the largest and the mean difference of side 0's MWC over every position of the shipped
table, with ``--bootstrap N`` the standard error of the MWC of each model at a few scores (N replicates of each
model), and how many graded moves of the bundled match records of the variant and of ``--generated`` random
matches change class when graded on the match scale with the new table (``analyze --scale match``, once with
the shipped table and once with the new one through ``DOMINO_TABLES``).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.analysis.fairplay import FairPlayer  # noqa: E402
from analyzer.equity import (MatchPosition, bootstrap, compute_table, load_table, table_name,  # noqa: E402
                             write_table)
from analyzer.equity.model import HandPlayers, simulate_mode  # noqa: E402
from analyzer.equity.table import first_lead, key_state  # noqa: E402
from analyzer.match import random_match  # noqa: E402
from analyzer.notation import read, write  # noqa: E402
from analyzer.rules import MatchState, find_variant  # noqa: E402
from analyzer.search import CORE  # noqa: E402

FAIR_DIR = ROOT / "analyzer" / "equity" / "data" / "fair"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _simulated(v, mode: str, hands: int, seed: int, worlds: int):
    """One lead mode's sample by the fair-play policy (in a worker process), its counts and its CPU time."""
    cpu = _cpu()
    player = FairPlayer(worlds, seed)
    sample = simulate_mode(v, mode, hands, seed, HandPlayers(choose=player))
    return sample, (player.decisions, player.worlds_valued), _cpu() - cpu


def make(args) -> None:
    v = _variant(args)
    out = Path(args.output) if args.output else FAIR_DIR / table_name(v).replace(".json", ".mwc")
    if out.exists() and not args.force and args.hands >= 100:
        sys.exit(f"{out} exists: --force to replace it")
    player = FairPlayer(args.worlds, args.seed)
    started, cpu, other_cpu = time.perf_counter(), _cpu(), 0.0
    samples = {}
    if args.modes:          # each named lead mode simulated in a process of its own, then the rest here
        with ProcessPoolExecutor(len(args.modes)) as pool:
            jobs = {mode: pool.submit(_simulated, v, mode, args.hands, args.seed, args.worlds) for mode in args.modes}
            for mode, job in jobs.items():
                samples[mode], counts, cpu_used = job.result()
                player.decisions += counts[0]
                player.worlds_valued += counts[1]
                print(f"  simulated {args.hands} hands in lead mode {mode} in a process of its own: {cpu_used:.0f} s CPU",
                      flush=True)
                other_cpu += cpu_used
    print(f"# fair_play_tables make: {v.name} {dict(v.options)}, {args.hands} hands a lead mode, {args.worlds} worlds "
          f"a decision, seed {args.seed}, search core {CORE}", flush=True)
    table = compute_table(v, args.hands, args.seed, HandPlayers(choose=player),
                          progress=lambda text: print(f"  {text} ({_cpu() - cpu:.0f} s CPU)", flush=True),
                          samples=samples)
    spent = _cpu() - cpu + other_cpu
    table.meta["cpu_seconds"] = round(spent, 1)
    table.meta["fair_play"] = {"worlds": args.worlds, "decisions": player.decisions,
                               "worlds_valued": player.worlds_valued}
    for mode, e in table.meta["standard_error"].items():
        print(f"  lead {mode}: {e['hands']:,} hands; leading side's hand value {e['mean']:+.2f} (se {e['mean_se']:.2f}); "
              f"it wins the hand {e['p_win']:.1%} (se {e['p_win_se']:.1%})")
    print(f"  {player.decisions:,} decisions, {player.worlds_valued:,} worlds valued; {spent:.0f} s CPU "
          f"({table.meta['seconds']['simulation']} s + {table.meta['seconds']['dp']} s wall: simulation + DP, "
          f"{time.perf_counter() - started:.0f} s in all); {len(table.values):,} positions", flush=True)
    if args.hands < 100:
        print("  (a forecast: nothing written)")
        return
    write_table(table, str(out))
    print(f"  wrote {out}")


def _variant(args):
    return find_variant(args.variant, dict(r.split("=", 1) for r in args.rule) or None)


def _models(old, new) -> None:
    print("\n| model | lead mode | hands | leading side's hand value (se) | it wins the hand (se) |\n|---|---|---|---|---|")
    for label, table in (("open hands (shipped)", old), ("fair play", new)):
        for mode, e in table.meta["standard_error"].items():
            print(f"| {label} | `{mode}` | {e['hands']:,} | {e['mean']:+.2f} ({e['mean_se']:.2f}) | "
                  f"{e['p_win']:.1%} ({e['p_win_se']:.1%}) |")


def _differences(v, old, new) -> None:
    """The largest and the mean |difference| of side 0's MWC over every position of the shipped table."""
    diffs = []
    for key in old.values:
        a = old.values[key]
        b = new.values.get(key)
        if b is None:       # (a position off the new table's walk: solved from it, as a look-up would)
            b = new.chance(MatchPosition(key_state(v, key[0]), key[1]))
        diffs.append((abs(b - a), b - a, key))
    diffs.sort(key=lambda d: -d[0])
    mean = sum(d[0] for d in diffs) / len(diffs)
    signed = sum(d[1] for d in diffs) / len(diffs)
    top = diffs[0]
    print(f"\nMWC of side 0 over the shipped table's {len(diffs):,} positions: largest difference "
          f"{top[0]:.4f} (fair minus open {top[1]:+.4f}, at scores {top[2][0][0]}, lead {top[2][1]}), mean absolute "
          f"{mean:.4f}, mean signed {signed:+.4f}; positions differing by more than 0.01: "
          f"{sum(d[0] > 0.01 for d in diffs):,}, by more than 0.02: {sum(d[0] > 0.02 for d in diffs):,}")
    start = MatchPosition(v.match.start(2), first_lead(v))
    print(f"  at the start: open {old.chance(start):.4f}, fair {new.chance(start):.4f}")


def _bootstrap(v, old, new, replicates: int, scores: list[tuple[int, int]]) -> None:
    positions = [MatchPosition(MatchState(score, (0, 0), 1), ("side", s)) for score in scores for s in (0, 1)]
    print(f"\n| score | side to lead | open hands MWC (se) | fair play MWC (se) | difference | its se |\n"
          "|---|---|---|---|---|---|")
    started = _cpu()
    errors = [bootstrap(t, positions, replicates, seed=1) for t in (old, new)]
    for p, e_old, e_new in zip(positions, *errors):
        a, b = old.chance(p), new.chance(p)
        print(f"| {p.state.scores[0]}-{p.state.scores[1]} | {p.lead[1]} | {a:.4f} ({e_old:.4f}) | {b:.4f} ({e_new:.4f}) "
              f"| {b - a:+.4f} | {(e_old ** 2 + e_new ** 2) ** 0.5:.4f} |")
    print(f"({replicates} bootstrap replicates of each model, {_cpu() - started:.0f} s CPU)")


def _records(v, generated: int, folder: Path) -> list[Path]:
    """The bundled records whose table is the variant's (a lone game is the first of its match), and ``generated``
    random matches of it."""
    name = table_name(v)
    out = []
    for path in sorted((ROOT / "records").glob("*.dom")):
        games = read(path).games
        if not games:
            continue
        tags = games[0].tags
        rules = dict(kv.strip().split("=", 1) for kv in tags.get("Rules", "").replace(";", ",").split(",") if "=" in kv)
        try:
            if table_name(find_variant(tags.get("Variant", "partnership"), rules or None)) == name:
                out.append(path)
        except Exception:       # (a record of a variant or rules this table does not serve)
            continue
    for seed in range(1, generated + 1):
        path = folder / f"random-{v.name}-{seed}.dom"
        path.write_text(write(random_match(v, seed, games=8)))
        out.append(path)
    return out


def _classes(path: Path, tables: str | None) -> list[tuple]:
    env = {k: x for k, x in os.environ.items() if k != "DOMINO_TABLES"}
    if tables:
        env["DOMINO_TABLES"] = tables
    got = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--json", "--scale", "match", str(path)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    data = json.loads(got.stdout)
    return [(g, d["index"], d.get("mwc_class")) for g, game in enumerate(data["games"])
            for d in game.get("decisions", []) if d.get("mwc_loss") is not None]


def _regraded(v, generated: int, fair_dir: Path) -> None:
    print("\n| record | moves graded on the match scale | classed (open / fair) | class changed |\n|---|---|---|---|")
    totals = [0, 0, 0, 0]
    with tempfile.TemporaryDirectory() as folder:
        for path in _records(v, generated, Path(folder)):
            old, new = _classes(path, None), _classes(path, str(fair_dir))
            assert [o[:2] for o in old] == [n[:2] for n in new], path
            changed = sum(o[2] != n[2] for o, n in zip(old, new))
            row = [len(old), sum(o[2] is not None for o in old), sum(n[2] is not None for n in new), changed]
            totals = [a + b for a, b in zip(totals, row)]
            print(f"| {path.name} | {row[0]} | {row[1]} / {row[2]} | {row[3]} |", flush=True)
    print(f"| all | {totals[0]} | {totals[1]} / {totals[2]} | {totals[3]} ({totals[3] / max(1, totals[0]):.1%}) |")


def compare(args) -> None:
    v = _variant(args)
    fair_dir = Path(args.fair_dir)
    old, new = load_table(v, os.path.join(ROOT, "analyzer", "equity", "data")), load_table(v, str(fair_dir))
    if new is None:
        sys.exit(f"no fair-play table of {v.name} in {fair_dir}: make it first")
    print(f"# fair_play_tables compare: {v.name} {dict(v.options)}; open hands: {old.model.policy}\n"
          f"# fair play: {new.model.policy}; {new.meta.get('fair_play')}, {new.meta.get('cpu_seconds')} s CPU")
    _models(old, new)
    _differences(v, old, new)
    if args.bootstrap:
        _bootstrap(v, old, new, args.bootstrap, [tuple(map(int, s.split(","))) for s in args.score])
    if not args.no_records:
        _regraded(v, args.generated, fair_dir)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make", help="simulate the fair-play model and write its table")
    mk.add_argument("--variant", default="partnership")
    mk.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    mk.add_argument("--hands", type=int, default=3000, help="hands a lead mode (under 100: a forecast, not written)")
    mk.add_argument("--worlds", type=int, default=16, help="deals a decision is valued over")
    mk.add_argument("--seed", type=int, default=0)
    mk.add_argument("-o", "--output", help="the table's file (default: analyzer/equity/data/fair/NAME.mwc)")
    mk.add_argument("--force", action="store_true", help="replace the file")
    mk.add_argument("--mode", dest="modes", action="append", default=[],
                    help="a lead mode to simulate in a process of its own (repeat: the modes in parallel)")
    cp = sub.add_parser("compare", help="measure the fair-play table against the shipped one")
    cp.add_argument("--variant", default="partnership")
    cp.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    cp.add_argument("--bootstrap", type=int, default=0, metavar="N", help="replicates of each model for the MWC's se")
    cp.add_argument("--score", action="append", default=[], help="a score for --bootstrap (A,B; default 60,40 90,85)")
    cp.add_argument("--generated", type=int, default=4, help="random matches graded besides the bundled records")
    cp.add_argument("--no-records", action="store_true", help="grade no records")
    cp.add_argument("--fair-dir", default=str(FAIR_DIR), help="the folder of the fair-play tables")
    args = ap.parse_args()
    if args.command == "compare" and not args.score:
        args.score = ["60,40", "90,85"]
    {"make": make, "compare": compare}[args.command](args)


if __name__ == "__main__":
    main()
