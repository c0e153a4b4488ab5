"""The partnership bracket's cost in the fair analysis (issue 85): ``analyze --fair`` of the bundled partnership records
with the bracket and without, in the same run.

    nice -n 10 python3 bench/bench_team_fair.py                  # every partnership and Domino Whist record
    python3 bench/bench_team_fair.py --only whist --rounds 1     # the records whose name has it, once

The records: every ``records/*.dom`` whose games are of the partnership game or Domino Whist, and the book's sheet
``records/seed2-table.txt``. Each record's fair analysis (``fair_analyze``: every seat judged, the commands' worlds and
seed, in this process: ``FairRun(workers=1)``, so that its CPU seconds are all counted) runs without the bracket
(``FairSettings(team=False)``) and with it (``team=True``, the default), alternately ``--rounds`` times, the least CPU
seconds of each kept: a busy spell on the shared machine slows both alike. A row per record: its games, the CPU
seconds without and with (their ratio, with/without), the decisions bracketed, those whose best the bracket certifies
and those whose fair best it overturns; the last row sums every record. The fair verdicts other than the bracket's
are checked to be the same both ways, bar the overturned ones.

``--bracket-only``: the brackets alone (``analysis.teamfair.team_points`` over every decision of every seat, as
``fair_analyze`` calls it), their CPU seconds a record, the least of ``--rounds``; on a loaded machine the whole
analyses' ratio is noisy, and this is the part the bracket adds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from analyzer.analysis import AnalysisSettings, analyze_replay  # noqa: E402
from analyzer.analysis.fair import GROWTH, FairRun, FairSettings, _decision_points, fair_analyze  # noqa: E402
from analyzer.analysis.teamfair import team_points  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.replay import replay  # noqa: E402

FAMILIES = ("partnership", "whist")


def records(only: str | None) -> list[Path]:
    """The partnership and Domino Whist records, and the book's sheet."""
    out = []
    for path in sorted((HERE / "records").glob("*.dom")) + [HERE / "records" / "seed2-table.txt"]:
        if only and only not in path.name:
            continue
        try:
            rec = read(path)
        except Exception:           # (a record of errors: not this bench's)
            continue
        reps = []
        for game in rec.games:
            try:
                rep = replay(game)
            except Exception:
                continue
            if rep.variant.name in FAMILIES and rep.deal_ok and len(rep.players) == rep.variant.players:
                reps.append(rep)
        if reps:
            out.append((path, reps))
    return out


def run(reps, team: bool) -> tuple[float, list]:
    """The CPU seconds of every game's fair analysis (its open-hands base first, not timed) and the analyses."""
    settings = FairSettings(max_worlds=GROWTH * FairSettings().worlds, exact_hidden=True, team=team)
    seconds, out = 0.0, []
    for rep in reps:
        base = analyze_replay(rep, AnalysisSettings())
        start = time.process_time()
        out.append(fair_analyze(rep, base, settings=settings, run=FairRun(workers=1)))
        seconds += time.process_time() - start
    return seconds, out


def counts(analyses) -> tuple[int, int, int, list[str]]:
    """The decisions bracketed, certified and overturned, and each decision's verdict (best, verdict) bar the
    overturned ones."""
    bracketed = certified = overturned = 0
    verdicts = []
    for a in analyses:
        for d in [*a.decisions, *([a.to_move] if a.to_move is not None else [])]:
            f = d.fair
            if f is None:
                continue
            t = f.team
            if t is not None:
                bracketed += 1
                certified += t.certified is not None
                overturned += t.overturned is not None
            verdicts.append(None if t is not None and t.overturned else (d.index, f.best, f.verdict, f.loss))
    return bracketed, certified, overturned, verdicts


def brackets_only(found, rounds: int) -> None:
    """The brackets' own CPU seconds a record (every decision of every seat), with the decisions bracketed."""
    print("| record | games | bracket CPU s | decisions bracketed | past the limits | most s a game |")
    print("|---|---:|---:|---:|---:|---:|")
    total = [0, 0.0, 0, 0]
    for path, reps in found:
        best, most, bracketed, gave_up = float("inf"), 0.0, 0, 0
        for _ in range(rounds):
            seconds, most, bracketed, gave_up = 0.0, 0.0, 0, 0
            for rep in reps:
                start = time.process_time()
                got, given_up = team_points(rep, _decision_points(rep, list(range(len(rep.players)))))
                spent = time.process_time() - start
                seconds, most = seconds + spent, max(most, spent)
                bracketed, gave_up = bracketed + len(got), gave_up + given_up
            best = min(best, seconds)
        print(f"| {path.name} | {len(reps)} | {best:.3f} | {bracketed} | {gave_up} | {most:.3f} |")
        for i, v in enumerate((len(reps), best, bracketed, gave_up)):
            total[i] += v
    print(f"| all | {total[0]} | {total[1]:.3f} | {total[2]} | {total[3]} | |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--only", default=None)
    parser.add_argument("--bracket-only", action="store_true")
    args = parser.parse_args()
    if args.bracket_only:
        brackets_only(records(args.only), args.rounds)
        return
    print("| record | games | CPU s without | with | with / without | bracketed | certified best | fair best "
          "overturned |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    total = [0, 0.0, 0.0, 0, 0, 0]
    ratios = []
    for path, reps in records(args.only):
        best = {False: float("inf"), True: float("inf")}
        got = {}
        for _ in range(args.rounds):
            for team in (False, True):
                seconds, got[team] = run(reps, team)
                best[team] = min(best[team], seconds)
        bracketed, certified, overturned, with_ = counts(got[True])
        without = counts(got[False])[3]
        same = all(a is None or a == b for a, b in zip(with_, without))
        ratio = best[True] / best[False] if best[False] else float("nan")
        ratios.append(ratio)
        print(f"| {path.name}{'' if same else ' (verdicts differ!)'} | {len(reps)} | {best[False]:.2f} | "
              f"{best[True]:.2f} | {ratio:.3f} | {bracketed} | {certified} | {overturned} |")
        for i, v in enumerate((len(reps), best[False], best[True], bracketed, certified, overturned)):
            total[i] += v
    print(f"| all | {total[0]} | {total[1]:.2f} | {total[2]:.2f} | {total[2] / total[1]:.3f} | {total[3]} | "
          f"{total[4]} | {total[5]} |")
    if ratios:
        print(f"\nwith / without, record by record: median {statistics.median(ratios):.3f}, most {max(ratios):.3f}")


if __name__ == "__main__":
    main()
