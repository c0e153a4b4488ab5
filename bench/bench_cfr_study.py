"""The fair verdict (the open-hands mean) against the exact game value under hidden information, by the tiles in hand
(issue 85), in the block game for two, with the CFR+ solver's time and memory.

Random games (``analyzer.generate.random_game``, seeded: game ``g`` of seed ``s`` is ``random_game(s * 100003 + g)``)
are replayed; of each, the first decision with a choice where the larger hand holds exactly H tiles is an endgame of
size H (H = 1, 2, 3 by default), up to ``--decisions`` a size, drawn from at most ``--games`` games a size (few games
reach a choice at one tile: the table says how many were tried). Each is solved by the public-tree CFR+ solver
(``analyzer.hidden.cfr.cfr_decision``, its brackets closed to 0.001 points a deal of the mover's hand, within
``--budget`` CPU seconds a decision, by default ``hiddenfair.cfr_budget``: 20 up to 3 tiles, 40 over more than 240,000
deals, 900 at 4, and up to 3 tiles as many again where a bracket is still wider than ``CFR_SHOWN`` (``cfr_grace``, as
the analysis); its tree within the analysis's memory cap, ``hiddenfair.CFR_MEMORY``, or ``--memory`` MB as ``analyze
--fair --exact-memory`` sets it, the row then saying ``cap``) over every deal the public record allows, as each
player's possible hands (``hidden.public_ranges``: no deal listed), where there are at most ``--max-deals`` deals
(default: no bound; those with more are counted, ``beyond``, and left out) and, with ``--min-deals``, more than that
many (those with fewer are left out and not counted).
Each legal move of a solved decision is valued twice, per deal that gives the mover his hand:

- **fair**: the mean of the move's open-hands value (``TreeSearch.values``) over the deals the mover cannot tell
  apart (what ``analyze --fair --exact-hand 0`` computes, every deal solved);
- **exact**: the solver's (``HiddenDecision.hand_values``: both play their best by what they know).

Each decision's row is written to ``--rows`` (JSON lines, one a decision, as it finishes) and the table is made from
that file: a run stopped at any point keeps what finished, and the same command run again goes on where it stopped
(the games whose rows are in the file are skipped); ``--table FILE`` prints the table of saved rows alone. A
decision whose brackets did not close within the budget (``open``), whose tree took longer to build (``too long``)
or passed the memory cap (``too large``) has a row too, its solver's figures but no comparison: it is counted, never
dropped. ``--shard K/N`` takes the games ``g`` with ``g % N == K`` alone (``--decisions`` of them), so that N
processes, each with its own ``--rows`` file, share a size's games; ``--table`` takes several files.

Columns: the games tried, the endgames found, those past the deal bound (``beyond``), those solved (every bracket
closed within the solver's CPU budget; the columns after ``open`` are over these alone), those not closed
(``open``: the bracket not closed, the tree not built in the budget or past the memory cap); ``best set``: the fair
best moves (equal means) hold an exact best (its exact loss within 0.002, the brackets' precision); ``named``: a unique fair best is
an exact best; ``fair loses``: the endgames where following the fair best loses (exact loss above 0.002), the mean
loss where it does and the largest (points a deal of his hand); ``|fair-exact|``: a move's value gap, mean and
largest, and the signed mean (mover-signed: below 0, the fair value is worse for the mover than the game value);
``cover``: the share of moves whose exact value lies in the 95% interval of the mean of 200 of the mover's deals
drawn at random (with replacement; what a sampled fair verdict shows); the deals (median, most); the solver's
seconds a decision (median, most: CPU seconds, the deals listed, the tree built and every value's solve), its
iterations (median) and its arrays' memory (median, most); then the same seconds and memory over every decision
tried, the open ones too (``all s``, ``all MB``), and the open ones' widest bracket (points a deal of the mover's
hand: how far from closed they stopped; median, most). ``--by-hands`` adds a line a size and smaller hand (``3/2``:
the larger hand 3 tiles, the smaller 2).

``--tol`` sets the width a bracket must close to (0.001 by default, each row then without ``tol``; the analysis's is
0.01 since the twenty-first session, and a row solved to another says ``tol``: its ties and losses are judged to
twice it). ``--redo FILE ...`` values again, to ``--tol``, the decisions those rows left open (the narrowest first)
or past the memory cap, into ``--rows``; a table of both takes each decision's row from the file read last.

    nice -n 10 python3 bench/bench_cfr_study.py [--decisions 10] [--sizes 1,2,3] [--games 400] [--seed 85]
        [--budget SECONDS] [--rows FILE.jsonl] [--shard K/N] [--tol 0.001]
    nice -n 10 python3 bench/bench_cfr_study.py --sizes 4 --tol 0.01 --redo OLD.jsonl --rows NEW.jsonl [--shard K/N]
    python3 bench/bench_cfr_study.py --table FILE.jsonl [FILE.jsonl ...] [--by-hands]
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.analysis.fair import _decision_points  # noqa: E402
from analyzer.analysis.hiddenfair import CFR_MEMORY, CFR_SHOWN, cfr_budget, told_apart  # noqa: E402
from analyzer.generate import random_game  # noqa: E402
from analyzer.hidden import public_ranges  # noqa: E402
from analyzer.hidden.cfr import TOL, BuildTooLong, TreeTooLarge, cfr_decision, kernel  # noqa: E402
from analyzer.hidden.ranges import disjoint_pairs  # noqa: E402
from analyzer.inference import worlds_at  # noqa: E402
from analyzer.replay import replay  # noqa: E402
from analyzer.rules.variants import find_variant  # noqa: E402

try:
    from analyzer.analysis.hiddenfair import cfr_grace  # noqa: E402
except ImportError:     # (a tree before the nineteenth session, as bench_cfr_speed.py --before reads this file's endgames)
    def cfr_grace(most: int, deals: int = 0) -> float:
        return 0.0
from analyzer.search import TreeSearch  # noqa: E402

def precision(tol: float) -> float:
    """How close two exact values solved to ``tol`` may be and not be told apart: twice ``tol`` (each bracket is within
    it; 0.002 at the default 0.001)."""
    return 2 * tol
DRAWN = 200             # the deals a sampled fair verdict draws first (``settings.WORLDS``)


def endgame(variant, size: int, seed: int, game: int):
    """The first decision with a choice where the larger hand holds ``size`` tiles, of random game ``game``:
    (replay, step, seat), or None where the game has none."""
    rep = replay(random_game(variant, seed * 100_003 + game))
    for k, seat, moves in _decision_points(rep, [0, 1]):
        pos = rep.position_at(k)
        if len(moves) < 2 or moves != pos.legal_moves() or max(pos.count(0), pos.count(1)) != size:
            continue
        return rep, k, seat
    return None


def one(rep, k: int, seat: int, limit: int, budget: float | None, rng: random.Random, tol: float = TOL,
        memory: int = CFR_MEMORY) -> dict:
    """:func:`valued`'s row with the budget it had (None: the analysis's, ``cfr_budget`` by the tiles and the deals,
    with its ``cfr_grace`` where the brackets are not within ``CFR_SHOWN`` at its end) and, where it is not the
    analysis's, the memory cap it had (``cap``, bytes)."""
    grace = 0.0
    if budget is None:
        pos, ranges = public_ranges(rep, k)
        most, deals = max(pos.count(0), pos.count(1)), disjoint_pairs(*ranges)
        budget, grace = cfr_budget(most, deals), cfr_grace(most, deals)
    row = {**valued(rep, k, seat, limit, budget, rng, grace, tol, memory), "budget": budget}
    if memory != CFR_MEMORY:
        row["cap"] = memory
    return row if tol == TOL else {**row, "tol": tol}


def valued(rep, k: int, seat: int, limit: int, budget: float, rng: random.Random, grace: float = 0.0,
           tol: float = TOL, memory: int = CFR_MEMORY) -> dict:
    """Both verdicts of one endgame, a row: ``status`` "beyond" (more deals than ``limit``), "too long" (the tree
    not built within ``budget``), "too large" (past the memory cap ``memory``, bytes), "open" (a bracket not closed
    within it to ``tol`` points a deal of the mover's hand: the solver's figures alone) or "solved"."""
    start = time.process_time()
    pos, ranges = public_ranges(rep, k)
    hands = [len(ranges[0]), len(ranges[1])]
    tiles = [pos.count(0), pos.count(1)]
    if limit and hands[0] * hands[1] > limit and worlds_at(rep, k).count > limit:
        return {"status": "beyond", "hands": hands, "tiles": tiles}
    most = max(tiles)
    try:
        solved = cfr_decision(rep.variant, pos, ranges=ranges, tol=tol, budget=budget, memory=memory,
                              shown=CFR_SHOWN, grace=grace)
    except BuildTooLong:
        return {"status": "too long", "hands": hands, "tiles": tiles, "time": time.process_time() - start}
    except TreeTooLarge:
        return {"status": "too large", "hands": hands, "tiles": tiles, "time": time.process_time() - start}
    took = time.process_time() - start            # (CPU seconds: the machine's load left out)
    row = {"hands": hands, "tiles": tiles, "deals": solved.deals, "time": took, "iterations": solved.iterations,
           "memory": solved.memory, "moves": len(solved.moves)}
    sign = 1 if rep.variant.seating.teams[seat] == 0 else -1
    search = TreeSearch(rep.variant)
    rows = []
    mine = pos.hands[seat]
    for other in ranges[1 - seat]:                # (the deals of the mover's hand: the other's hands sharing no tile)
        if not other & mine:
            deal = pos.copy()
            deal.hands[1 - seat] = other
            rows.append({m: sign * v for m, v in search.values(deal)})
    fair = {m: sum(r[m] for r in rows) / len(rows) for m, _ in solved.moves}
    top = max(fair.values())
    best_set = [m for m in fair if fair[m] >= top - 1e-9]
    if not solved.closed:
        widths = [(hi - lo) / solved.reach for _, lo, hi in solved.move_bounds or ()]
        if solved.bounds:
            widths.append((solved.bounds[1] - solved.bounds[0]) / solved.reach)
        # what the open brackets certify (mover-signed, the game's scale): a best told apart from every other move,
        # and whether the fair best (a unique one) is it, or is certified worse than another move
        mid = dict(solved.hand_values())
        best = max(mid, key=lambda m: sign * mid[m])
        certified = len(told_apart(solved, best, sign)) == len(mid) - 1
        worse = len(best_set) == 1 and any(best_set[0] in told_apart(solved, m, sign) for m in mid)
        return {"status": "open", **row, "width": max(widths, default=None), "certified": certified,
                "fair_certified": certified and len(best_set) == 1 and best_set[0] == best,
                "fair_worse": worse, "fair_time": time.process_time() - start - took}
    exact = {m: sign * v for m, v in solved.hand_values()}          # (mover-signed from here)
    best_exact = max(exact.values())
    loss = {m: best_exact - exact[m] for m in exact}
    followed = best_set[0]          # (the fair best; of equal ones, the first: the analysis names them tied)
    drawn = rng.choices(rows, k=DRAWN)
    covered = 0
    for m in exact:
        values = [r[m] for r in drawn]
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        covered += abs(statistics.mean(values) - exact[m]) <= half
    near = precision(tol)
    return {"status": "solved", **row, "set": any(loss[m] <= near for m in best_set),
            "unique": len(best_set) == 1, "named": len(best_set) == 1 and loss[best_set[0]] <= near,
            "loss": loss[followed], "gaps": [fair[m] - exact[m] for m in exact], "covered": covered,
            "fair_time": time.process_time() - start - took}


def load(path: Path) -> list[dict]:
    """The rows saved in ``path`` (a last line cut short by a run stopped while writing it is left out)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def run(args, path: Path) -> None:
    """Find and value the endgames of every size asked, each row appended to ``path`` as it finishes; the games
    whose rows are there already are skipped."""
    variant = find_variant("block", {"players": "2"})
    shard, shards = map(int, args.shard.split("/"))
    saved = load(path)
    if args.redo:
        again(args, path, saved, variant, shard, shards)
        return
    with path.open("a") as out:
        for size in map(int, args.sizes.split(",")):
            mine = [r for r in saved if r.get("seed") == args.seed and r.get("size") == size]
            done = {r["game"] for r in mine if r["kind"] == "decision"}
            found = len(done)
            budget = args.budget
            game = 0
            while game < args.games and found < args.decisions:
                if game % shards == shard and game not in done:
                    at = endgame(variant, size, args.seed, game)
                    if (at is not None and args.min_deals
                            and disjoint_pairs(*public_ranges(at[0], at[1])[1]) <= args.min_deals):
                        at = None       # (left out, not counted: ``--min-deals``)
                    if at is not None:
                        rep, k, seat = at
                        row = one(rep, k, seat, args.max_deals, budget, random.Random(f"{args.seed}:{size}:{game}"),
                                  args.tol, args.memory)
                        out.write(json.dumps({"kind": "decision", "seed": args.seed, "size": size, "game": game,
                                              "step": k, "seat": seat, "budget": budget, **row}) + "\n")
                        out.flush()
                        found += 1
                        print(f"  size {size} game {game} step {k}: {row['status']}"
                              f"{' %.1f s' % row['time'] if 'time' in row else ''}", file=sys.stderr, flush=True)
                game += 1
            out.write(json.dumps({"kind": "games", "seed": args.seed, "size": size, "tried": game}) + "\n")
            out.flush()


def again(args, path: Path, saved: list[dict], variant, shard: int, shards: int) -> None:
    """``--redo``: the decisions the rows of ``args.redo`` left open (not closed within their budget) or refused by the
    memory cap (which the rows made before the nineteenth session's smaller trees may no longer be), each valued
    again (``--tol``, ``--budget``) and its row appended to ``path``, where a table of both files takes it in place of
    the first (:func:`latest`); those whose rows are in ``path`` already are skipped; the open ones first, the narrowest
    first."""
    done = {(r["seed"], r["size"], r["game"]) for r in saved if r["kind"] == "decision"}
    sizes = set(map(int, args.sizes.split(",")))
    todo = sorted((r for f in args.redo for r in load(f) if r.get("kind") == "decision"
                   and r["status"] in ("open", "too large") and r["seed"] == args.seed and r["size"] in sizes
                   and r["game"] % shards == shard and (r["seed"], r["size"], r["game"]) not in done),
                  key=lambda r: (r["status"] != "open", r.get("width") or math.inf))
    with path.open("a") as out:
        for r in todo:
            rep, k, seat = endgame(variant, r["size"], r["seed"], r["game"])
            row = one(rep, k, seat, args.max_deals, args.budget, random.Random(f"{r['seed']}:{r['size']}:{r['game']}"),
                      args.tol, args.memory)
            out.write(json.dumps({"kind": "decision", "seed": r["seed"], "size": r["size"], "game": r["game"],
                                  "step": k, "seat": seat, "budget": row["budget"], **row}) + "\n")
            out.flush()
            print(f"  size {r['size']} game {r['game']} step {k} again: {row['status']} {row['time']:.1f} s",
                  file=sys.stderr, flush=True)


def latest(rows: list[dict]) -> list[dict]:
    """The rows with each decision's last row alone (a decision valued again, ``--redo``, in a file read after the
    first's), in the order of the first; the other rows (a size's games tried) as they are."""
    last = {}
    for r in rows:
        if r.get("kind") == "decision":
            last[(r["seed"], r["size"], r["game"])] = r
    out, seen = [], set()
    for r in rows:
        if r.get("kind") != "decision":
            out.append(r)
            continue
        key = (r["seed"], r["size"], r["game"])
        if key not in seen:
            seen.add(key)
            out.append(last[key])
    return out


def table(rows: list[dict], by_hands: bool = False) -> None:
    """The table of saved rows: a line a size (and seed); with ``by_hands``, a line a size and smaller hand (3/2:
    the larger hand 3 tiles, the smaller 2)."""
    for seed in sorted({r["seed"] for r in rows}):
        print(f"block for two, {'the compiled CFR kernel' if kernel() is not None else 'CFR in Python (no kernel built)'}, seed {seed}")
        print(f"{'tiles':>5} {'games':>6} {'found':>5} {'beyond':>6} {'solved':>6} {'open':>4} {'budget s':>8} "
              f"{'best set':>8} {'named':>9} {'fair loses':>10} {'mean/max loss':>13} {'|fair-exact| mean/max':>21} "
              f"{'signed':>6} {'cover':>5} {'deals med/max':>14} {'s med/max':>11} {'iter':>6} {'MB med/max':>11} "
              f"{'all s med/max':>13} {'all MB med/max':>14} {'open width med/max':>18}")
        for size in sorted({r["size"] for r in rows if r["seed"] == seed}):
            mine = [r for r in rows if r["seed"] == seed and r["size"] == size]
            found = [r for r in mine if r["kind"] == "decision"]
            tried = max([r["tried"] for r in mine if r["kind"] == "games"] + [r["game"] + 1 for r in found])
            print_row(f"{size}", tried, found)
            if by_hands:
                for small in sorted({min(r["tiles"]) for r in found}, reverse=True):
                    print_row(f"{size}/{small}", tried, [r for r in found if min(r["tiles"]) == small])


def print_row(size: str, tried: int, found: list[dict]) -> None:
    """One size's line: every comparison over the endgames whose brackets closed (``solved``) alone; then, where open
    ones say what their brackets certify (rows since the twenty-first session), a line of those."""
    _row(size, tried, found)
    known = [g for g in found if g["status"] == "open" and "certified" in g]
    if known:
        print(f"{'':>5} of {len(known)} open (with what their brackets certify): a best told apart (the analysis's "
              f"verdict since the twenty-second session: hiddenfair.one_best) in "
              f"{sum(g['certified'] for g in known)}, the fair best it in {sum(g['fair_certified'] for g in known)}, "
              f"the fair best certified worse than another move in {sum(g['fair_worse'] for g in known)}")
    capped = [g for g in found if "cap" in g]
    if capped:
        caps = ", ".join(f"{cap >> 20} MB" for cap in sorted({g["cap"] for g in capped}))
        print(f"{'':>5} {len(capped)} of the {len(found)} valued with a memory cap other than the analysis's "
              f"(--memory {caps}): games "
              f"{', '.join(str(g['game']) for g in capped)}")


def _row(size: str, tried: int, found: list[dict]) -> None:
    """:func:`print_row`'s first line."""
    got = [g for g in found if g["status"] == "solved"]
    beyond = sum(g["status"] == "beyond" for g in found)
    unsolved = sum(g["status"] in ("open", "too long", "too large") for g in found)
    budgets = sorted({g["budget"] for g in found})
    head = (f"{size:>5} {tried:>6} {len(found):>5} {beyond:>6} {len(got):>6} {unsolved:>4} "
            f"{'/'.join(f'{b:g}' for b in budgets):>8}")
    timed = [g for g in found if "time" in g]
    every = ""
    if timed:
        times = [g["time"] for g in timed]
        mbs = [g["memory"] / 1e6 for g in timed if "memory" in g] or [0.0]      # ("too long/large": no tree)
        widths = [g["width"] for g in found if g.get("width") is not None]
        every = (f" {statistics.median(times):>6.1f}/{max(times):<6.1f} "
                 f"{statistics.median(mbs):>6.1f}/{max(mbs):<7.1f}" +
                 (f" {statistics.median(widths):>8.3f}/{max(widths):<8.3f}" if widths else ""))
    if not got:
        print(f"{head:<{len(head) + 125}}" + every)
        return
    loses = [g["loss"] for g in got if g["loss"] > precision(g.get("tol", TOL))]
    gaps = [x for g in got for x in g["gaps"]]
    moves = sum(g["moves"] for g in got)
    unique = sum(g["unique"] for g in got)
    mb = [g["memory"] / 1e6 for g in got]
    times = [g["time"] for g in got]
    deals = [g["deals"] for g in got]
    print(head + f" {sum(g['set'] for g in got):>3}/{len(got):<4} "
          f"{sum(g['named'] for g in got):>4}/{unique:<4} {len(loses):>4} {100 * len(loses) / len(got):>4.0f}% "
          f"{statistics.mean(loses) if loses else 0:>6.2f}/{max(loses) if loses else 0:<6.2f} "
          f"{statistics.mean(map(abs, gaps)):>10.2f}/{max(map(abs, gaps)):<10.2f} {statistics.mean(gaps):>6.2f} "
          f"{100 * sum(g['covered'] for g in got) / moves:>4.0f}% {statistics.median(deals):>7.0f}/{max(deals):<6} "
          f"{statistics.median(times):>5.1f}/{max(times):<5.1f} "
          f"{statistics.median(g['iterations'] for g in got):>6.0f} "
          f"{statistics.median(mb):>5.1f}/{max(mb):<5.1f}" + every)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=10, help="endgames a size (at most)")
    ap.add_argument("--sizes", default="1,2,3", help="the larger hand's tiles, comma-separated")
    ap.add_argument("--games", type=int, default=400, help="random games a size (at most)")
    ap.add_argument("--seed", type=int, default=85)
    ap.add_argument("--max-deals", type=int, default=0, help="leave out decisions with more deals (0: none)")
    ap.add_argument("--min-deals", type=int, default=0,
                    help="leave out, uncounted, decisions with at most this many deals (0: none)")
    ap.add_argument("--budget", type=float, default=None,
                    help="the solver's CPU seconds a decision (default: analyze --fair's, 20 up to 3 tiles, 900 at 4)")
    ap.add_argument("--memory", type=int, default=None, metavar="MB",
                    help="the solver's memory cap a decision, MB (default: analyze --fair's, as its --exact-memory)")
    ap.add_argument("--rows", type=Path, default=None,
                    help="the JSON-lines file the rows go to, and a run stopped goes on from (default: a new "
                         "temporary file)")
    ap.add_argument("--shard", default="0/1", metavar="K/N", help="the games g with g %% N == K alone")
    ap.add_argument("--table", type=Path, nargs="+", default=None, metavar="FILE",
                    help="print the table of the FILEs' rows alone")
    ap.add_argument("--by-hands", action="store_true", help="a line of the table a size and smaller hand too")
    ap.add_argument("--tol", type=float, default=TOL,
                    help="the brackets' width asked, points a deal of the mover's hand (default 0.001; the analysis: "
                         "0.01)")
    ap.add_argument("--redo", type=Path, nargs="+", default=None, metavar="FILE",
                    help="value again the decisions these rows left open or past the memory cap (with --tol, "
                         "--budget), into --rows")
    args = ap.parse_args()
    if args.memory is not None and args.memory < 1:
        ap.error(f"--memory: {args.memory} MB; give at least 1")
    args.memory = CFR_MEMORY if args.memory is None else args.memory << 20
    if args.table is not None:
        for path in args.table:
            if not path.exists():
                ap.error(f"{path}: no such file")
        table(latest([r for path in args.table for r in load(path)]), args.by_hands)
        return
    path = args.rows
    if path is None:
        import tempfile

        path = Path(tempfile.mkstemp(prefix="cfr-study-", suffix=".jsonl")[1])
        print(f"rows: {path}", file=sys.stderr)
    run(args, path)
    table(latest(load(path)), args.by_hands)


if __name__ == "__main__":
    main()
