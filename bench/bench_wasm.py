"""Benchmark the compiled kernels' two bindings on the same positions, same run: the CPython extension (``_core``,
``_arms``, ``_draw``, ``_race``, ``_cfr``) called from Python against the standalone WebAssembly module of the same kernel
(``_core.wasm``, ...) run in Node (tests/wasm/kernels.mjs), with each module's size.

    python bench/bench_wasm.py                  # a short run: 300 block positions of hands of 7 tiles, 300 arm states, 300 draw decisions, races of
                                                # 3,000 positions
    python bench/bench_wasm.py --block 200 --arms 1000 --draw 1000
    python bench/bench_wasm.py --only cfr --cfr 200     # the CFR+ kernel alone: 200 positions, each tree run to
                                                       # 1,000-3,000 iterations unless its bracket closes first

The positions are tests/test_wasm_kernels.py's (the block search's with 7 tiles a hand and at most 7 moves played,
heavier than the test's; the CFR+ runs' with more iterations). Both sides compute every call of every case and are checked equal (values and node counts); the time is the
calls' alone (Python: the native calls and their tables; Node: the kernel's calls and their marshalling, the module
compiled before; the race solver's calls copy every array they take both ways in Node, none in Python). The ratio is wasm time / native time; the machine's other load shows in the figures."""
from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from analyzer.search.wasm import wasm_path  # noqa: E402
from analyzer.hidden.cfr import kernel  # noqa: E402
from test_wasm_kernels import (arms_cases, cfr_cases, core_cases, draw_cases, race_cases, run_arms_native,  # noqa: E402
                               run_cfr_native, run_core_native, run_draw_native, run_race_native, run_wasm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=int, default=300, help="block positions (hands of 7 tiles, a few moves in)")
    parser.add_argument("--arms", type=int, default=300, help="states of layouts with arms")
    parser.add_argument("--draw", type=int, default=300, help="decisions of draw games")
    parser.add_argument("--race", type=int, default=3000, help="positions of races solved (and their look-ups)")
    parser.add_argument("--cfr", type=int, default=100, help="block-for-two positions run by CFR+ (both trees)")
    parser.add_argument("--only", choices=("core", "arms", "draw", "race", "cfr"), action="append",
                        help="this kernel only (again: and that one)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    kernels = [("core", lambda: core_cases(args.block, args.seed, (7, 7), 1), run_core_native),
               ("arms", lambda: arms_cases(args.arms, args.seed), run_arms_native),
               ("draw", lambda: draw_cases(args.draw, args.seed), run_draw_native),
               ("race", lambda: race_cases(args.race, args.seed)[0], run_race_native),
               ("cfr", lambda: cfr_cases(args.cfr, args.seed, (1000, 3000)), lambda runs: run_cfr_native(runs, kernel()))]
    kernels = [k for k in kernels if not args.only or k[0] in args.only]
    print(f"{'kernel':8} {'cases':>6} {'native s':>9} {'wasm s':>8} {'wasm/native':>12} {'wasm KB':>8} {'gzip KB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, native in kernels:
            module = wasm_path(name)
            if module is None:
                print(f"{name:8} (no wasm module built)")
                continue
            cases = make()
            started = time.perf_counter()
            expected = native(cases)
            native_s = time.perf_counter() - started
            got, wasm_s = run_wasm(name, cases, Path(tmp), timed=True)
            if got != expected:
                raise SystemExit(f"{name}: the wasm module's results differ from the extension's")
            data = module.read_bytes()
            print(f"{name:8} {len(cases):6} {native_s:9.3f} {wasm_s:8.3f} {wasm_s / native_s:12.2f} "
                  f"{len(data) / 1024:8.1f} {len(gzip.compress(data, 9)) / 1024:8.1f}")


if __name__ == "__main__":
    main()
