"""Benchmark the static site's visits (``domino site``, docs/site.md): in headless Chromium (Debian's), one fresh
browser profile, the site served on 127.0.0.1 by a server that counts every byte it sends: a first visit, a
repeat visit (a new page in the same profile) and a visit with the network cut, each opening a record link;
for each, the seconds until the link's record shows (before the engine: its text in the editor), until the
engine is ready (the board's worker) and until both workers are (where the site tells it: "-" for an older
build), and the requests and bytes the server answered. Same run, same machine.

    python bench/bench_site_visits.py                  # build the site from this tree, then measure it
    python bench/bench_site_visits.py --site DIR       # measure a site built before
    python bench/bench_site_visits.py --baseline DIR   # this tree's site and an older build's, in one run

The bytes are the response bodies the server wrote (a 304 writes none); the browser's own check for a new
service worker (``sw.js``) is a request like any other and is counted. The server answers with
``Cache-Control: no-cache`` (each file checked again before the browser's HTTP cache may serve it: a host's
files once their max-age ran out), so that the repeat visit measures what the site keeps itself. The machine's other load shows in the
seconds; the bytes do not depend on it."""
from __future__ import annotations

import argparse
import functools
import http.server
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.notation.link import make_fragment  # noqa: E402
from analyzer.site.build import build_site, find_pyodide  # noqa: E402

START = 300_000         # ms: the most a visit may take to start its engine


class _Counting(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".mjs": "text/javascript",
                      ".webmanifest": "application/manifest+json"}
    served: list = []

    def handle(self):
        try:
            super().handle()
        except ConnectionError:        # (a page closed while a file was coming: counted as far as it came)
            pass

    def end_headers(self):
        # every answer to be checked again before it is used from the browser's HTTP cache (as a host's answers
        # are once their max-age ran out: a link opened a day later), never fresh by the heuristic a missing
        # Cache-Control allows (which would let a repeat visit within minutes of the first skip the network)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass

    def log_request(self, code="-", size="-"):
        self.entry = [self.path.split("?")[0], int(code) if str(code).isdigit() else 0, 0]
        self.served.append(self.entry)

    def copyfile(self, source, outputfile):
        while chunk := source.read(1 << 16):
            outputfile.write(chunk)
            self.entry[2] += len(chunk)



def visits(site: Path, record: str) -> list[dict]:
    from playwright.sync_api import sync_playwright

    served: list = []
    handler = type("Handler", (_Counting,), {"served": served})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_port}/index.html" + make_fragment(record, 1, 10)
    out = []
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
            context = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", headless=True,
                                                           args=["--no-sandbox", "--disable-gpu"])
            for name in ("first visit", "repeat visit", "network cut"):
                context.set_offline(name == "network cut")
                for page in context.pages:
                    page.close()
                served.clear()
                page = context.new_page()
                start = time.perf_counter()
                try:
                    page.goto(address)
                except Exception as exc:        # (a site that keeps nothing: offline, its page cannot load)
                    out.append({"visit": name, "failed": str(exc).split("\n")[0][:60], "requests": len(served),
                                "bytes": sum(s[2] for s in served), "files": list(served)})
                    continue
                # the link's record in the editor (on a site without the preview: once the board opened it)
                while page.evaluate("document.getElementById('text').value.length") < 100:
                    if time.perf_counter() - start > START / 1000:
                        raise SystemExit(f"{name}: the link's record never showed")
                    time.sleep(0.05)
                shown = time.perf_counter() - start
                page.wait_for_selector("#siteload.ready", timeout=START)
                ready = time.perf_counter() - start
                both = None            # the analyses' worker ready too (a site that tells it: data-analysis)
                if (site / "sw.js").exists():
                    page.wait_for_selector("#siteload[data-analysis=ready]", timeout=START)
                    both = time.perf_counter() - start
                time.sleep(1.0)       # (what the page asks for just after: counted with its visit)
                out.append({"visit": name, "shown": shown, "ready": ready, "both": both, "requests": len(served),
                            "bytes": sum(s[2] for s in served), "files": list(served)})
            context.close()
    finally:
        server.shutdown()
        server.server_close()
    return out


def _table(title: str, runs: list[dict], files: bool) -> None:
    print(f"{title}")
    print(f"{'visit':14} {'record shown s':>14} {'engine ready s':>14} {'both ready s':>12} {'requests':>9} "
          f"{'bytes':>12} {'MB':>7}")
    for r in runs:
        if "failed" in r:
            print(f"{r['visit']:14} {'fails':>14} {'fails':>14} {'fails':>12} {r['requests']:9d} {r['bytes']:12,d} "
                  f"{r['bytes'] / 1048576:7.2f}  ({r['failed']})")
        else:
            both = f"{r['both']:12.1f}" if r["both"] is not None else f"{'-':>12}"
            print(f"{r['visit']:14} {r['shown']:14.1f} {r['ready']:14.1f} {both} {r['requests']:9d} {r['bytes']:12,d} "
                  f"{r['bytes'] / 1048576:7.2f}")
        if files:
            for path, code, sent in r["files"]:
                print(f"    {code} {sent:>10,d} {path}")


def _size(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 1048576


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="A site built before (default: build this tree's).")
    parser.add_argument("--baseline", type=Path, help="An older build's site, measured too, first (same run).")
    parser.add_argument("--record", default="seed1.dom", help="The bundled record the link carries.")
    parser.add_argument("--files", action="store_true", help="List each request of each visit.")
    args = parser.parse_args()
    record = (ROOT / "records" / args.record).read_text(encoding="utf-8")
    print(f"# bench_site_visits: a link to {args.record} at game 1 move 10, headless Chromium, a fresh profile each "
          f"site; a first visit, a repeat visit (a new page), a visit with the network cut")
    if args.baseline:
        _table(f"baseline {args.baseline} ({_size(args.baseline):.1f} MB in the folder)",
               visits(args.baseline, record), args.files)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build_site(Path(tmp) / "site", pyodide=find_pyodide(ROOT)).folder
        _table(f"{site if args.site else 'this tree'} ({_size(Path(site)):.1f} MB in the folder)",
               visits(Path(site), record), args.files)


if __name__ == "__main__":
    main()
