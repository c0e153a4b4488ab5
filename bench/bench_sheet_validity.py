"""Does a valid record stay valid with its hands written ``?`` (issue 80, item 1)?

    python3 bench/bench_sheet_validity.py                  # every valid record of records/, every hand ?
    python3 bench/bench_sheet_validity.py --draws          # ... and every draw written ``draws ?``
    python3 bench/bench_sheet_validity.py --some 3         # also 3 random subsets of the hands per record
    python3 bench/bench_sheet_validity.py records/variant-hungarian.dom -v    # one record, its errors

Each bundled record (``records/*.dom`` and ``*.txt``) is replayed as ``domino validate`` does
(:func:`analyzer.match.replay_record`); those without an error are written again with every hand ``?``
(``--draws``: every tile drawn too; ``--some N``: N random non-empty sets of the players, in every game)
and replayed again. The true deal is one each sheet allows, so each must stay valid: the table lists those
that do not, with their first error's code, and the count that stay valid.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402
from analyzer.record import Record, as_sheet  # noqa: E402

RECORDS = Path(__file__).resolve().parent.parent / "records"


def errors(record: Record) -> list:
    return [d for rep in replay_record(record) for d in rep.errors]


def records(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p) for p in paths]
    return sorted(p for p in RECORDS.iterdir() if p.suffix in (".dom", ".txt"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--draws", action="store_true", help="write every draw `draws ?` too")
    parser.add_argument("--some", type=int, default=0, metavar="N", help="also N random subsets of the hands")
    parser.add_argument("--seed", type=int, default=80)
    parser.add_argument("-v", "--verbose", action="store_true", help="print every error of a record that fails")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    valid = kept = 0
    failed = []
    start = time.perf_counter()
    for path in records(args.paths):
        record = read(path)
        if not record.games or errors(record):
            continue
        valid += 1
        names = sorted({h.player for g in record.games for h in g.hands})
        trials = [None] + [set(rng.sample(names, rng.randint(1, len(names)))) for _ in range(args.some) if names]
        bad = None
        for players in trials:
            found = errors(as_sheet(record, players, args.draws))
            if found:
                bad = (players, found)
                break
        if bad is None:
            kept += 1
            continue
        players, found = bad
        who = "every hand" if players is None else ", ".join(sorted(players))
        failed.append((path.name, who, found))
    for name, who, found in failed:
        print(f"{name:45} {who:12} {found[0].code:16} {found[0].message[:110]}")
        if args.verbose:
            for d in found[1:]:
                print(f"{'':58} {d.code:16} {d.message[:110]}")
    print(f"{kept} of {valid} valid records stay valid with {'their hands and draws' if args.draws else 'their hands'}"
          f" written ? ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
