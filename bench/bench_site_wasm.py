"""The site's analysis on the compiled searches in WebAssembly against native, in the same run (issue 81: at most
2x native median and 3x worst over the bundled records, exact and fair).

Builds the site into a temporary folder, then answers the same ``analyze`` requests (the board's API,
``analyzer.site.worker.SiteApi``) natively (CPython, the compiled extensions) and in Pyodide under Node loaded as the
page's worker loads it (``bench/site_node.mjs``: the site's WebAssembly modules instantiated first, so the block
search, the search over arms, that of draw games and the match tables' race solver run on them). Prints each
record's seconds, the ratio and whether the answers are equal, then the median and worst ratio; and, for the
Python around the searches, a request with no search (the validation of a record) in both.

Both sides are treated alike. Each analyses three records first, untimed (start-up, which ``bench_site.py``
measures, and under Node the WebAssembly engine's optimising of Pyodide's interpreter as it runs: :data:`WARM`),
and each record of less than a second natively once more, untimed (the modules its variant imports and the caches
it fills on first use). Both are timed as the page's worker calls the API (``SiteApi.call``: JSON in and out, each
step of an analysis told to a callback). A record of less than :data:`SHORT` seconds natively is then analysed several times on each
side (as many as fit in about half a second natively, at most :data:`MOST`) and each side's best time counts: on a
shared machine an analysis of a few hundredths of a second is mostly the other work's noise, and noise only adds.
Each side's processor time is given too (natively ``time.process_time``, under Node ``process.cpuUsage``: all of
Node's threads), each side's least over its runs: on a loaded machine a run longer than the scheduler's slice (some
milliseconds) is always made to wait, and waits by the clock, a shorter one may not be; the processor time does not
count the waiting.

    python3 bench/bench_site_wasm.py                 # the default records, exact, and one fair analysis
    python3 bench/bench_site_wasm.py --records seed2.dom match-milo.dom --fair seed2.dom
    domino new --variant block --players 2 --seed 372 -o /tmp/seed372.dom
    python3 bench/bench_site_wasm.py --records --fair /tmp/seed372.dom      # a record by its path (issue 85's)

Each side's peak memory is given too (the most resident memory of the process so far, after each request: natively
``resource.getrusage``, under Node ``process.resourceUsage().maxRSS``): a figure of the whole process, start-up and the
requests before included, so it tells of a request only where it rose there.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.site.build import build_site, find_pyodide  # noqa: E402
from analyzer.site.worker import SiteApi  # noqa: E402

RECORDS = ("seed1.dom", "seed2.dom", "seed1-table.txt", "sheet-partnership.dom", "openspiel-block7-1.dom",
           "match-cutthroat-partner-rules.dom", "match-milo.dom", "match-french.dom", "variant-french.dom",
           "variant-draw.dom", "match-quinientos.dom", "match-hungarian-3.dom")
FAIR = ("seed1.dom",)
SEED = 7
#: An analysis natively shorter than this (seconds) is warmed up and repeated on both sides, the best time counting.
SHORT = 0.2
#: The most times a short analysis is repeated.
MOST = 7


#: What each side analyses first, untimed: the modules an analysis imports on first use, and under Node the
#: WebAssembly engine's own warm-up (V8 compiles Pyodide's interpreter fast first and optimises the parts that run
#: often as they run: a page's first analyses are slower than its later ones).
WARM = ("seed2.dom", "variant-draw.dom", "match-milo.dom")
#: A request with no search in it, for the speed of the Python around the searches (CPython in WebAssembly against
#: native): the board's validation of a record as you type.
PYTHON_ALONE = ("validate", "sheet-partnership.dom")


def _text(name: str) -> str:
    """A bundled record's text (``records/NAME``), or that of the file ``name`` names (a record written elsewhere, as
    ``domino new`` writes one)."""
    path = ROOT / "records" / name
    return (path if path.exists() else Path(name)).read_text(encoding="utf-8")


def _requests(records, fair) -> list[tuple[str, str, dict]]:
    """``(name, route, body)`` of each timed request."""
    out = []
    for name in records:
        out.append((Path(name).name, "analyze", {"text": _text(name)}))
    for name in fair:
        body = {"text": _text(name), "fair": True, "seed": SEED}
        out.append((f"{Path(name).name} fair (seed {SEED})", "analyze", body))
    route, name = PYTHON_ALONE
    out.append((f"{name} {route} (no search)", route, {"text": _text(name)}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", nargs="*", default=RECORDS)
    parser.add_argument("--fair", nargs="*", default=FAIR)
    args = parser.parse_args()
    requests = _requests(args.records, args.fair)
    # one analysis first on each side, not timed: the modules an analysis imports on first use (start-up, which
    # bench_site.py measures, not the analysis)
    warm = [("warm-up", "analyze", {"text": (ROOT / "records" / name).read_text(encoding="utf-8")}) for name in WARM]
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build_site(site, find_pyodide())
        records = Path(tmp) / "records"
        api = SiteApi(str(records))

        def timed(route, body) -> tuple[float, int, dict, float]:
            # (as the page's worker calls it: JSON in and out, each step of the analysis told; bench/site_node.mjs)
            start, cpu = time.perf_counter(), time.process_time()
            out = api.call(route, json.dumps(body), lambda step: None)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
            out = json.loads(out)
            return seconds, out["status"], out["data"], cpu

        first = [timed(route, body)[0] for _, route, body in warm][0]
        plan = []           # (warm-ups, timed runs) a record
        native, peaks = [], []     # peaks: the process's most resident memory so far, MB, after each request
        for _, route, body in requests:
            seconds, status, answer, cpu = timed(route, body)
            warmups = 1 if seconds < 1.0 else 0
            runs = min(MOST, max(1, math.ceil(0.5 / max(seconds, 1e-3)))) if seconds < SHORT else 1
            if warmups:
                got = [timed(route, body) for _ in range(runs)]
                seconds, status, answer, _ = min(got, key=lambda x: x[0])
                cpu = min(x[3] for x in got)
            plan.append((warmups, runs))
            native.append((seconds, status, answer, cpu))
            peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        calls = [{"route": r, "body": b} for _, r, b in warm]
        for (_, route, body), (warmups, runs) in zip(requests, plan):
            calls += [{"route": route, "body": body}] * (warmups + runs)
        done = subprocess.run(["node", str(ROOT / "bench" / "site_node.mjs"), str(site)], capture_output=True,
                              text=True, input=json.dumps(calls))
        if done.returncode:
            sys.exit(f"Pyodide under Node failed: {done.stderr[-2000:]}")
        got = json.loads(done.stdout)
        version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    answers, at, pages = got["answers"], len(warm), []
    for warmups, runs in plan:
        mine = answers[at + warmups:at + warmups + runs]
        pages.append({**min(mine, key=lambda a: a["seconds"]), "cpu": min(a["cpu"] for a in mine),
                      "peak": mine[-1]["peak"]})
        at += warmups + runs
    print(f"# bench_site_wasm: Pyodide under Node {version}, the searches on _core/_arms/_draw/_race/_cfr.wasm, against "
          f"native Python {sys.version.split()[0]} (compiled), in one run; an analysis under {SHORT} s natively: "
          f"warmed up, the best of up to {MOST} runs on each side")
    print(f"{'record':44} {'native s':>9} {'wasm s':>9} {'x native':>9} {'cpu nat':>8} {'cpu wasm':>8} {'cpu x':>7}  "
          f"same  runs")
    ratios = {"exact": [], "fair": [], "no search": []}
    cpu_ratios = {"exact": [], "fair": [], "no search": []}
    totals = {"exact": [0.0, 0.0], "fair": [0.0, 0.0], "no search": [0.0, 0.0]}
    for (name, route, _), (seconds, status, answer, cpu), page, (_, runs), peak in zip(requests, native, pages, plan,
                                                                                         peaks):
        same = status == page["status"] and answer == page["data"]
        ratio = page["seconds"] / seconds
        kind = "no search" if route != "analyze" else "fair" if "fair" in name else "exact"
        ratios[kind].append(ratio)
        cpu_ratios[kind].append(page["cpu"] / max(cpu, 1e-6))
        totals[kind][0] += seconds
        totals[kind][1] += page["seconds"]
        print(f"{name:44} {seconds:9.3f} {page['seconds']:9.3f} {ratio:8.2f}x {cpu:8.3f} {page['cpu']:8.3f} "
              f"{cpu_ratios[kind][-1]:6.2f}x  {'yes' if same else 'NO ':4} {runs:4} {peak:7.0f} {page['peak']:7.0f}")
    for kind, values in ratios.items():
        if values:
            native_s, wasm_s = totals[kind]
            print(f"{kind}: median {statistics.median(values):.2f}x, worst {max(values):.2f}x native "
                  f"({len(values)} analyses); all together {wasm_s:.2f} s against {native_s:.2f} s, "
                  f"{wasm_s / native_s:.2f}x; processor time: median {statistics.median(cpu_ratios[kind]):.2f}x, "
                  f"worst {max(cpu_ratios[kind]):.2f}x")
    start = got["start"]
    print(f"Pyodide start under Node: {start['pyodide']:.2f} s (the wasm modules instantiated with it), "
          f"the project's Python unpacked and imported: {start['package']:.2f} s; the first analysis after it "
          f"({WARM[0]}, the parser made, the modules an analysis imports on first use): {answers[0]['seconds']:.2f} s "
          f"(native, in this process: {first:.2f} s)")


if __name__ == "__main__":
    main()
