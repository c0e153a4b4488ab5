"""Benchmark the static site (``domino site``, docs/site.md): the analysis in Pyodide (the browser's Python,
run here under Node exactly as the site's worker runs it: bench/site_node.mjs loads the built site's own
pyodide/ folder and python/domino.zip) against the same analysis natively, with the compiled cores and in
pure Python, on bundled records; the page's first and repeat visit start-up in headless Chromium (the site
served by a local HTTP server); and the site's download size.

    python bench/bench_site.py                              # the default records, one run each
    python bench/bench_site.py --records seed1.dom match-kozel.dom --no-browser

Every figure is measured in this run; the ratios are against the native compiled run of the same record.
The analyses are the board's own: ``analyze`` through the site's API (``SiteApi``, the server's table of
routes), the exact analysis with the server's node limit, and one fair analysis of the partnership record
under the browser's budget (``BROWSER_BUDGET``) beside the same budget natively. Answers are checked equal
(the decisions' played values) between Pyodide and native. The machine's other load shows in the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.site.build import build_site, find_pyodide  # noqa: E402
from analyzer.site.worker import BROWSER_BUDGET  # noqa: E402

RECORDS = ("seed1.dom", "seed2.dom", "seed1-table.txt", "variant-draw.dom", "variant-french.dom", "match-cuban.dom",
           "match-quinientos.dom")
FAIR = "seed1.dom"

NATIVE = r"""
import json, sys, time
from analyzer.site.worker import SiteApi
api = SiteApi(sys.argv[1])
out = []
for request in json.load(sys.stdin):
    start = time.perf_counter()
    status, data = api.answer(request["route"], request["body"])
    out.append({"seconds": time.perf_counter() - start, "status": status, "data": data})
from analyzer.search.core import cores_text
print(json.dumps({"cores": cores_text(), "answers": out}))
"""


def _requests(names):
    requests = [{"route": "analyze", "body": {"text": (ROOT / "records" / n).read_text(encoding="utf-8"), "name": n}}
                for n in names]
    fair = (ROOT / "records" / FAIR).read_text(encoding="utf-8")
    requests.append({"route": "analyze", "body": {"text": fair, "name": FAIR, "fair": True}})
    return requests


def _native(requests, pure: bool, folder: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **({"DOMINO_PURE_PYTHON": "1"} if pure else {}))
    env.pop("DOMINO_REQUIRE_COMPILED", None)
    out = subprocess.run([sys.executable, "-c", NATIVE, folder], input=json.dumps(requests), capture_output=True,
                         text=True, env=env, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def _pyodide(requests, site: Path) -> dict:
    out = subprocess.run(["node", str(ROOT / "bench" / "site_node.mjs"), str(site)], input=json.dumps(requests),
                         capture_output=True, text=True, cwd=ROOT)
    if out.returncode:
        raise SystemExit(f"Pyodide under Node failed: {out.stderr[-800:]}")
    return json.loads(out.stdout)


def _played(answer: dict) -> list:
    return [[d.get("played_value") for d in g.get("decisions", [])] for g in answer.get("games", [])]


def _browser(site: Path) -> dict | None:
    """First and repeat visit of a record link (bench_site_visits.py: a fresh browser profile, then a new page
    in the same one): seconds until the page says its engine is ready, and the bytes the server sent."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return None
    from bench_site_visits import visits

    runs = visits(site, (ROOT / "records" / FAIR).read_text(encoding="utf-8"))
    first, repeat = runs[0], runs[1]
    return {"first": first.get("ready", float("nan")), "repeat": repeat.get("ready", float("nan")),
            "fetched": first["bytes"], "refetched": repeat["bytes"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", nargs="+", default=list(RECORDS))
    parser.add_argument("--no-browser", action="store_true", help="Leave out the start-up in Chromium.")
    parser.add_argument("--no-pure", action="store_true", help="Leave out the native pure-Python run.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = build_site(Path(tmp) / "site", pyodide=find_pyodide(ROOT))
        requests = _requests(args.records)
        names = list(args.records) + [f"{FAIR} fair (budget {BROWSER_BUDGET['decision_deals']} deals)"]
        native = _native(requests, False, str(Path(tmp) / "native"))
        pure = None if args.no_pure else _native(requests, True, str(Path(tmp) / "pure"))
        wasm = _pyodide(requests, site.folder)
        browser = None if args.no_browser else _browser(site.folder)

    print(f"# bench_site: Pyodide {site.pyodide} under Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}"
          f" against native Python {sys.version.split()[0]} ({native['cores']}), in one run")
    print(f"{'record':42} {'native s':>9} {'pure s':>8} {'pyodide s':>10} {'x native':>9} {'x pure':>7} same")
    ratios, pure_ratios = [], []
    for k, name in enumerate(names):
        n, w = native["answers"][k], wasm["answers"][k]
        p = pure["answers"][k] if pure else None
        same = _played(n["data"]) == _played(w["data"]) and n["status"] == w["status"]
        ratio = w["seconds"] / n["seconds"]
        ratios.append(ratio)
        pure_ratio = w["seconds"] / p["seconds"] if p else None
        if pure_ratio:
            pure_ratios.append(pure_ratio)
        print(f"{name:42} {n['seconds']:9.2f} {(p['seconds'] if p else float('nan')):8.2f} {w['seconds']:10.2f} "
              f"{ratio:8.1f}x {(pure_ratio or float('nan')):6.1f}x {'yes' if same else 'NO'}")
    print(f"in Pyodide against native compiled: median {statistics.median(ratios):.1f}x, worst {max(ratios):.1f}x"
          + (f"; against native pure Python: median {statistics.median(pure_ratios):.1f}x, worst {max(pure_ratios):.1f}x"
             if pure_ratios else ""))
    print(f"Pyodide start under Node: {wasm['start']['pyodide']:.2f} s, the project's Python unpacked and imported: "
          f"{wasm['start']['package']:.2f} s")
    if browser:
        print(f"page in Chromium, engine ready: first visit {browser['first']:.1f} s, repeat visit {browser['repeat']:.1f} s "
              f"(two workers start Python; bytes the server sent: first visit {browser['fetched'] / 1048576:.1f} MB, "
              f"repeat visit {browser['refetched'] / 1048576:.2f} MB)")
    sizes = site.sizes
    part = lambda prefix: sum(v for k, v in sizes.items() if k.startswith(prefix)) / 1048576  # noqa: E731
    print(f"site: {site.total / 1048576:.1f} MB in {len(sizes)} files (Pyodide {part('pyodide/'):.1f} MB, of which "
          f"the page loads {(sizes['pyodide/pyodide.asm.wasm'] + sizes['pyodide/python_stdlib.zip'] + sizes['pyodide/pyodide.asm.js'] + sizes['pyodide/pyodide.js']) / 1048576:.1f} MB; "
          f"a first visit {site.first_visit / 1048576:.1f} MB; "
          f"the project's Python {part('python/'):.1f} MB; the board's page and scripts "
          f"{(part('static/') + part('site/') + sizes['index.html'] / 1048576):.2f} MB; records {part('records/'):.2f} MB)")


if __name__ == "__main__":
    main()
