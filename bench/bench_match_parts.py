"""Where the match scale's cost over points goes, per game, in one process: reading each alternative's result, of it
the compiled walks of the principal variations, and grading.

    python3 bench/bench_match_parts.py                          # the variants whose results are read, and two others
    python3 bench/bench_match_parts.py --matches 12 --rounds 4 whist hungarian:players=3

For each variant (``NAME`` or ``NAME:OPTION=VALUE,...``): ``--rounds`` archives of ``--matches`` random matches
(``analyzer.match.random_match``, up to 6 games each; each round's seeds new, so no round finds the match positions of
another already weighed), each archive's records run through ``pipeline.process`` as ``analyze --json`` runs them, on
the points scale and on the match scale (the order alternating round by round); the CPU time of each, summed over the
rounds. Within the match scale's runs, the CPU time of:

- ``results``: ``analysis.outcomes.principal_results``, every alternative's result along its principal variation (only
  where a hand may give points to more than one side: bad points, points during play);
- ``walks``: of it, the compiled cores' own walks of those lines (``DrawSearch.ends``/``line``, ``BlockDeal.ends``/
  ``line`` called while the results are read: the C calls alone, not the Python that sets up their state or reads
  what they give);
- ``grading``: ``pipeline.grade_on_match_scale`` (the MWC of each alternative, the losses, the luck of the deal and
  of the draws on the match scale).

Each is given as a share of the points scale's time on the same archives: the walks are what any reading of results
after the search must pay at the least. One untimed archive first (the tables loaded, the code warm). The machine is
shared: read the shares and ratios, not the seconds.

And, where a dealt game's compiled core searches (Domino Whist, the block games; not a draw game's core, which counts
no states of its walks), the states it searched on the match scale against those on the points scale, the same
archives: a count, not a time, the same on any machine. What the match scale adds there is the walks' states.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import pipeline  # noqa: E402
from analyzer.analysis import outcomes  # noqa: E402
from analyzer.match import random_match  # noqa: E402
from analyzer.notation import write  # noqa: E402
from analyzer.rules import find_variant  # noqa: E402
from analyzer.search import blockdeal, draw  # noqa: E402

VARIANTS = ["whist", "hungarian:players=3", "hungarian:players=4", "all-fives", "all-fives-threes:players=3",
            "all-fives:players=4", "partnership", "cutthroat:players=3"]

SPENT = {"results": 0.0, "walks": 0.0, "grading": 0.0}
WITHIN = {"results": False}         # (a walk counts only within the reading of results)


def _timed(function, part: str):
    def timed(*args, **kwargs):
        if part == "walks" and not WITHIN["results"]:
            return function(*args, **kwargs)
        WITHIN[part] = True
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[part] += time.process_time() - start
            WITHIN[part] = False
    return timed


CORES: list = []     # the dealt games' compiled cores of a run (their ``nodes``: the states each searched)


class _TimedCore:
    """A compiled core whose walks (``ends``, ``line``) add their CPU time to ``SPENT["walks"]``; every other call
    goes to the core as it is."""

    def __init__(self, core):
        self._core = core
        if hasattr(core, "nodes"):
            CORES.append(core)
        self.ends = _timed(core.ends, "walks")
        self.line = _timed(core.line, "walks")

    def __getattr__(self, name: str):
        got = getattr(self._core, name)
        if callable(got):               # (a method found once: the search's own calls cost as they did)
            setattr(self, name, got)
        return got


def _time_the_parts() -> None:
    pipeline.grade_on_match_scale = _timed(pipeline.grade_on_match_scale, "grading")
    outcomes.principal_results = _timed(outcomes.principal_results, "results")     # (the pipeline imports it late)
    made = draw._CompiledDrawDeal.__init__

    def draw_deal(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.core = _TimedCore(self.core)
    draw._CompiledDrawDeal.__init__ = draw_deal
    build = blockdeal.CoreDeal._build_search

    def block_deal(self, *args, **kwargs):
        out = build(self, *args, **kwargs)
        self.core = _TimedCore(self.core)
        return out
    blockdeal.CoreDeal._build_search = block_deal


def measure(spec: str, matches: int, rounds: int) -> dict:
    name, _, options = spec.partition(":")
    rules = dict(o.split("=", 1) for o in options.split(",") if o)
    variant = find_variant(name, rules)

    def archive(k: int) -> list[bytes]:
        return [write(random_match(variant, seed, games=6)).encode()
                for seed in range(1 + matches * k, 1 + matches * (k + 1))]

    nodes = {"points": 0, "match": 0}       # the states the dealt games' cores searched, by scale

    def run(scale: str, texts: list[bytes]) -> float:
        options_ = pipeline.Options(mode="analyze", scale=scale)
        CORES.clear()
        start = time.process_time()
        for i, text in enumerate(texts):
            pipeline.process(f"{i:03d}.dom", text, options_)
        spent = time.process_time() - start
        nodes[scale] += sum(core.nodes for core in CORES)
        CORES.clear()
        return spent

    warm = archive(rounds)
    run("match", warm)
    run("points", warm)
    nodes.update(points=0, match=0)
    for part in SPENT:
        SPENT[part] = 0.0
    cpu = {"points": 0.0, "match": 0.0}
    games = 0
    for k in range(rounds):
        texts = archive(k)
        games += sum(text.count(b"[Game ") for text in texts) or len(texts)
        for scale in (("points", "match") if k % 2 else ("match", "points")):
            cpu[scale] += run(scale, texts)
    return {"spec": spec, "games": games, **cpu, **SPENT, "nodes": nodes}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="*", help="NAME or NAME:OPTION=VALUE,... (default: a list of eight)")
    ap.add_argument("--matches", type=int, default=12, help="random matches an archive")
    ap.add_argument("--rounds", type=int, default=3, help="archives a variant, each of new matches")
    args = ap.parse_args()
    _time_the_parts()
    print(f"# bench_match_parts: Python {sys.version.split()[0]}, CPU summed over {args.rounds} archives of "
          f"{args.matches} random matches a variant, in one process; shares of the points scale's time\n")
    print("| variant | games | points ms a game | match / points | results | of them compiled walks | grading | "
          "states searched: match / points |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for spec in args.variants or VARIANTS:
        got = measure(spec, args.matches, args.rounds)
        points, nodes = got["points"], got["nodes"]
        states = f"{nodes['match'] / nodes['points']:.3f}" if nodes["points"] else "-"
        print(f"| {spec} | {got['games']} | {1000 * points / got['games']:.2f} | {got['match'] / points:.3f} | "
              f"{got['results'] / points:.3f} | {got['walks'] / points:.3f} | {got['grading'] / points:.3f} | "
              f"{states} |", flush=True)


if __name__ == "__main__":
    main()
