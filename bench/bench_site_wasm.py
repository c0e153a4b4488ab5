"""The site's analysis on the compiled block search in WebAssembly against native, in the same run (issue 81: at most
2x native median and 3x worst over the bundled records, exact and fair).

Builds the site into a temporary folder, then answers the same ``analyze`` requests (the board's API,
``analyzer.site.worker.SiteApi``) twice: natively (CPython, the compiled extensions) and in Pyodide under Node loaded
as the page's worker loads it (``bench/site_node.mjs``: the site's WebAssembly modules instantiated first, so the
block search, the search over arms and that of draw games run on them; the match tables' race solver still in
Python there). Prints each record's seconds,
the ratio and whether the answers are equal, then the median and worst ratio. Each side analyses one record first,
untimed (the modules an analysis imports on first use: start-up, which ``bench_site.py`` measures).

    python3 bench/bench_site_wasm.py                 # the default records, exact, and one fair analysis
    python3 bench/bench_site_wasm.py --records seed2.dom match-milo.dom --fair seed2.dom
"""
from __future__ import annotations

import argparse
import json
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


def _requests(records, fair) -> list[tuple[str, dict]]:
    out = []
    for name in records:
        out.append((name, {"text": (ROOT / "records" / name).read_text(encoding="utf-8")}))
    for name in fair:
        out.append((f"{name} fair (seed {SEED})", {"text": (ROOT / "records" / name).read_text(encoding="utf-8"),
                                                    "fair": True, "seed": SEED}))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", nargs="*", default=RECORDS)
    parser.add_argument("--fair", nargs="*", default=FAIR)
    args = parser.parse_args()
    requests = _requests(args.records, args.fair)
    # one analysis first on each side, not timed: the modules an analysis imports on first use (start-up, which
    # bench_site.py measures, not the analysis)
    warm = [("warm-up", {"text": (ROOT / "records" / "seed2.dom").read_text(encoding="utf-8")})]
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        build_site(site, find_pyodide())
        records = Path(tmp) / "records"
        api = SiteApi(str(records))
        native = []
        api.answer("analyze", warm[0][1])
        for _, body in requests:
            start = time.perf_counter()
            status, answer = api.answer("analyze", body)
            native.append((time.perf_counter() - start, status, answer))
        done = subprocess.run(["node", str(ROOT / "bench" / "site_node.mjs"), str(site)], capture_output=True,
                              text=True, input=json.dumps([{"route": "analyze", "body": b} for _, b in warm + requests]))
        if done.returncode:
            sys.exit(f"Pyodide under Node failed: {done.stderr[-2000:]}")
        got = json.loads(done.stdout)
        version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"# bench_site_wasm: Pyodide under Node {version}, the searches on _core/_arms/_draw.wasm, against native "
          f"Python {sys.version.split()[0]} (compiled), in one run")
    print(f"{'record':44} {'native s':>9} {'wasm s':>9} {'x native':>9}  same")
    ratios = {"exact": [], "fair": []}
    totals = {"exact": [0.0, 0.0], "fair": [0.0, 0.0]}
    for (name, _), (seconds, status, answer), page in zip(requests, native, got["answers"][1:]):
        same = status == page["status"] and json.loads(json.dumps(answer)) == page["data"]
        ratio = page["seconds"] / seconds
        kind = "fair" if "fair" in name else "exact"
        ratios[kind].append(ratio)
        totals[kind][0] += seconds
        totals[kind][1] += page["seconds"]
        print(f"{name:44} {seconds:9.2f} {page['seconds']:9.2f} {ratio:8.2f}x  {'yes' if same else 'NO'}")
    for kind, values in ratios.items():
        if values:
            native_s, wasm_s = totals[kind]
            print(f"{kind}: median {statistics.median(values):.2f}x, worst {max(values):.2f}x native "
                  f"({len(values)} analyses); all together {wasm_s:.2f} s against {native_s:.2f} s, "
                  f"{wasm_s / native_s:.2f}x")
    start = got["start"]
    print(f"Pyodide start under Node: {start['pyodide']:.2f} s (the wasm modules instantiated with it), "
          f"the project's Python unpacked and imported: {start['package']:.2f} s")


if __name__ == "__main__":
    main()
