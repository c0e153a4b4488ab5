"""Benchmark the exact solver on random full deals, and compare it with the ``dominoes`` package.

    python bench/bench_solver.py                 # 50 deals, takes a few minutes
    python bench/bench_solver.py --deals 10 --dominoes-deals 2

For each seeded deal (28 tiles, 7 each, a random leader) the hand is played out by a fixed policy:
a random legal move, from a random generator seeded per deal. Measured, with a fresh ``Solver``
each time and the best of ``--repeat`` runs per deal (the machine is shared; the best run is the
least disturbed one):

(a) ``solve`` of the leader's position (the value of the deal);
(b) the whole-record analysis: ``values`` (every alternative's exact value) at every decision
    (a position where the mover has two or more legal moves) along the played line, one solver
    for the hand, as an analysis of a record does it.

Then the same engine against ``dominoes`` 6.1.0 (``dominoes.search.alphabeta``, its own search:
plain alpha-beta on deep-copied ``Game`` objects, no transposition table, its default move order,
its ``SkinnyBoard``), solving identical states from scratch:

(c) the leader's position of the first ``--dominoes-deals`` deals (that package needs tens of
    seconds there, so only a few deals, each capped at ``--dominoes-cap`` seconds; one run each);
(d) the position after the first ``--after`` tiles of the played line, for every deal (best of
    ``--repeat`` runs for both engines).

Scoring: ``dominoes`` gives the winners every pip left (their partner's too, all four hands on a
block); our partnership variant gives them the losers' pips. So (c) and (d) run our solver with
the partnership variant rescored ``HandScoring("all")``, and the values of the two engines are
checked to be equal; our time with the standard scoring is shown beside it.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import random
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.analysis import analyze_replay  # noqa: E402
from analyzer.position import Position  # noqa: E402
from analyzer.record import Game, HandEntry, MoveEntry  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.policies import BlockRule, HandScoring  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402
from analyzer.search.block import Solver  # noqa: E402
from analyzer.tiles import tile_set  # noqa: E402

FOUND = find_variant("partnership")
PARTNERSHIP = dataclasses.replace(FOUND, scoring=HandScoring("losers"), block=BlockRule())
ALL_PIPS = dataclasses.replace(PARTNERSHIP, scoring=HandScoring("all"))


def deal(seed: int) -> tuple[list, int, random.Random]:
    rng = random.Random(seed)
    tiles = list(tile_set())
    rng.shuffle(tiles)
    return [tiles[i * 7:(i + 1) * 7] for i in range(4)], rng.randrange(4), rng


def played_line(seed: int) -> list:
    """The fixed line of play of deal ``seed``: a random legal move each time."""
    hands, leader, rng = deal(seed)
    position = Position(hands, turn=leader)
    line = []
    while True:
        moves = position.legal_moves()
        if not moves:
            return line
        move = rng.choice(moves)
        position.push(move)
        line.append(move)


def best_of(repeat: int, fn, clock=time.perf_counter):
    best, result = None, None
    for _ in range(repeat):
        t0 = clock()
        result = fn()
        t = clock() - t0
        best = t if best is None else min(best, t)
    return best, result


def measure_deal(seed: int, repeat: int, variant=PARTNERSHIP) -> dict:
    hands, leader, _ = deal(seed)
    line = played_line(seed)

    def lead():
        return Solver(variant).solve(Position(hands, turn=leader))

    def record():
        solver = Solver(variant)
        position = Position(hands, turn=leader)
        decisions = alternatives = 0
        for move in line:
            moves = position.legal_moves()
            if len(moves) > 1:
                alternatives += len(solver.values(position))
                decisions += 1
            position.push(move)
        tables = solver.table_size()[0]
        return decisions, alternatives, tables

    def library():
        # what a user gets: analyze_replay on the record of the deal (every alternative at every
        # decision, and the value after every move for the chart)
        return analyze_replay(rep)

    names = ("A", "B", "C", "D")
    seats = [(leader + k) % 4 for k in range(len(line))]
    game = Game(tags={"Players": "A, B, C, D"}, players=names,
                hands=tuple(HandEntry(names[s], tuple(hands[s])) for s in range(4)),
                moves=[MoveEntry(names[s], m.tile, m.end) for s, m in zip(seats, line)])
    rep = replay(game, variant)
    assert rep.valid, rep.errors
    t_lead, value = best_of(repeat, lead)
    t_record, (decisions, alternatives, tables) = best_of(repeat, record)
    t_library, _ = best_of(repeat, library) if variant is PARTNERSHIP else (0.0, None)
    return dict(seed=seed, lead=t_lead, record=t_record, library=t_library, value=value, decisions=decisions,
                alternatives=alternatives, tables=tables, moves=len(line))


# -- the dominoes package ---------------------------------------------------------------------------
class Capped(Exception):
    pass


def _alarm(signum, frame):
    raise Capped()


def dominoes_solve(position: Position, cap: float):
    """``dominoes.search.alphabeta`` on the state of ``position``: (seconds, value or None if capped)."""
    import dominoes
    from dominoes.search import alphabeta

    hands = [dominoes.Hand([dominoes.Domino(t.low, t.high) for t in position.tiles if position.hands[s] & t.bit])
             for s in range(4)]
    if position.ends is None:
        board = dominoes.SkinnyBoard()
        valid = tuple((d, True) for d in hands[position.turn])
    else:
        a, b = position.ends
        board = dominoes.SkinnyBoard(a, b, sum(1 for m, *_ in position.history if m.tile is not None))
        valid = ()
    game = dominoes.Game(board, hands, [], position.turn, valid, position.turn, None)
    if position.ends is not None:
        game._update_valid_moves()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        _, value = alphabeta(game)
    except Capped:
        return time.perf_counter() - t0, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return time.perf_counter() - t0, value


def compare(position: Position, cap: float, repeat: int) -> dict:
    """Both engines on ``position``, each the best of ``repeat`` runs (dominoes: until one is capped)."""
    theirs, their_value = dominoes_solve(position, cap)
    for _ in range(repeat - 1):
        if their_value is None:
            break
        t, _ = dominoes_solve(position, cap)
        theirs = min(theirs, t)
    t_all, ours_all = best_of(repeat, lambda: Solver(ALL_PIPS).solve(position))
    t_std, _ = best_of(repeat, lambda: Solver(PARTNERSHIP).solve(position))
    return dict(theirs=theirs, capped=their_value is None, their_value=their_value, ours_all=t_all,
                value_all=ours_all, ours_std=t_std, agree=their_value is None or their_value == ours_all)


def after_tiles(seed: int, tiles: int) -> Position | None:
    """The position of deal ``seed``'s line after ``tiles`` tiles, at a player who can play."""
    hands, leader, _ = deal(seed)
    position = Position(hands, turn=leader)
    played = 0
    for move in played_line(seed):
        if played >= tiles and position.playable_mask(position.turn):
            return position
        position.push(move)
        played += move.tile is not None
    return None


# -- output -----------------------------------------------------------------------------------------
def ms(t: float) -> str:
    return f"{t * 1000:8.1f}"


def table(title: str, header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}")
    print("  " + "  ".join(h.rjust(w) for h, w in zip(header, widths)))
    print("  " + "  ".join("-" * w for w in widths))
    for r in rows:
        print("  " + "  ".join(c.rjust(w) for c, w in zip(r, widths)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--seed", type=int, default=20240601, help="seed of deal 0 (deal i uses seed + i)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement, the best is kept")
    ap.add_argument("--dominoes-deals", type=int, default=5, help="deals compared from the lead (c)")
    ap.add_argument("--dominoes-cap", type=float, default=45.0, help="seconds per dominoes search")
    ap.add_argument("--after", type=int, default=4, help="tiles played before the positions of (d)")
    ap.add_argument("--generic-deals", type=int, default=10,
                    help="deals also measured with find_variant('partnership') when it is not the standard composition")
    ap.add_argument("--no-dominoes", action="store_true")
    ap.add_argument("--per-deal", action="store_true", help="print every deal of (a) and (b)")
    args = ap.parse_args(argv)

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; "
          f"{args.deals} deals from seed {args.seed}, best of {args.repeat} runs")
    same = FOUND.scoring == PARTNERSHIP.scoring and FOUND.block == PARTNERSHIP.block
    print("variant: partnership with HandScoring('losers') and BlockRule() (the solver's inline path)"
          + ("" if same else f"; note: find_variant('partnership') builds {FOUND.scoring!r}, which the "
             "solver searches through variant.value (slower)"))

    results = []
    for i in range(args.deals):
        results.append(measure_deal(args.seed + i, args.repeat))
        if args.per_deal:
            r = results[-1]
            print(f"  deal {r['seed']}: lead {ms(r['lead'])} ms, record {ms(r['record'])} ms, "
                  f"{r['decisions']} decisions, value {r['value']:+d}")

    def row(name, xs):
        return [name, ms(statistics.median(xs)), ms(statistics.fmean(xs)), ms(max(xs)), f"{sum(xs):8.2f}"]

    leads = [r["lead"] for r in results]
    records = [r["record"] for r in results]
    table("Our solver, full deals (ms; total in s)", ["measurement", "median", "mean", "worst", "total s"],
          [row("(a) solve the leader's position", leads), row("(b) analyse the whole record", records),
           row("(b') analyze_replay (the library call)", [r["library"] for r in results])])
    worst = max(results, key=lambda r: r["record"])
    print(f"  (b) covers {statistics.median(r['decisions'] for r in results):.0f} decisions and "
          f"{statistics.median(r['alternatives'] for r in results):.0f} alternatives per hand (median), "
          f"{statistics.median(r['tables'] for r in results):.0f} table entries; worst deal: seed {worst['seed']}")
    library = [r["library"] for r in results]
    print("  (b') also values the position after every move (the report's chart)")
    print(f"  targets for (b) and (b'): median < 250 ms, worst < 600 ms -> "
          f"{'met' if statistics.median(records) < 0.25 and max(records) < 0.6 else 'NOT met'} / "
          f"{'met' if statistics.median(library) < 0.25 and max(library) < 0.6 else 'NOT met'}")
    if not same and args.generic_deals:
        generic = [measure_deal(args.seed + i, 1, FOUND) for i in range(min(args.generic_deals, args.deals))]
        table(f"The same on the first {len(generic)} deals with find_variant('partnership') as built today "
              f"({type(FOUND.scoring).__name__}: searched through variant.value, no pip bounds; one run)",
              ["measurement", "median", "mean", "worst", "total s"],
              [row("(a) solve the leader's position", [r["lead"] for r in generic]),
               row("(b) analyse the whole record", [r["record"] for r in generic])])

    if args.no_dominoes:
        return 0
    try:
        import dominoes  # noqa: F401
    except ImportError:
        print("\n(dominoes is not installed: pip install dominoes==6.1.0)")
        return 0

    rows, pairs = [], []
    for i in range(min(args.dominoes_deals, args.deals)):
        seed = args.seed + i
        hands, leader, _ = deal(seed)
        c = compare(Position(hands, turn=leader), args.dominoes_cap, 1)
        pairs.append(c)
        theirs = f">{args.dominoes_cap:.0f} s (capped)" if c["capped"] else f"{c['theirs']:.2f} s"
        rows.append([str(seed), theirs, ms(c["ours_all"]), ms(c["ours_std"]),
                     f"{'>' if c['capped'] else ''}{c['theirs'] / c['ours_all']:.0f}x",
                     f"{c['value_all']:+d}", "-" if c["capped"] else ("yes" if c["agree"] else "NO")])
    table("(c) dominoes 6.1.0 vs ours, the leader's position (from scratch, all-pips scoring; one run each)",
          ["deal", "dominoes", "ours ms", "ours ms (losers)", "ratio", "value", "same value"], rows)
    if pairs:
        total_theirs = sum(c["theirs"] for c in pairs)
        total_ours = sum(c["ours_all"] for c in pairs)
        print(f"  total: dominoes {total_theirs:.1f} s, ours {total_ours * 1000:.0f} ms -> "
              f"{'at least ' if any(c['capped'] for c in pairs) else ''}{total_theirs / total_ours:.0f}x; "
              f"median ratio {statistics.median(c['theirs'] / c['ours_all'] for c in pairs):.0f}x")

    trunc = []
    for i in range(args.deals):
        position = after_tiles(args.seed + i, args.after)
        if position is not None:
            trunc.append(compare(position, args.dominoes_cap, args.repeat))
    if trunc:
        ratios = [c["theirs"] / c["ours_all"] for c in trunc]
        table(f"(d) dominoes 6.1.0 vs ours, after the first {args.after} tiles of each line "
              f"({len(trunc)} positions, all-pips scoring; best of {args.repeat} runs each; ms)",
              ["engine", "median", "mean", "worst", "total s"],
              [row("dominoes.search.alphabeta", [c["theirs"] for c in trunc]),
               row("ours, all-pips scoring", [c["ours_all"] for c in trunc]),
               row("ours, losers' pips (standard)", [c["ours_std"] for c in trunc])])
        print(f"  ratio dominoes/ours: total {sum(c['theirs'] for c in trunc) / sum(c['ours_all'] for c in trunc):.0f}x, "
              f"median {statistics.median(ratios):.0f}x, lowest {min(ratios):.0f}x; "
              f"values equal in {sum(c['agree'] for c in trunc)}/{len(trunc)}"
              + (f" ({sum(c['capped'] for c in trunc)} capped)" if any(c['capped'] for c in trunc) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
