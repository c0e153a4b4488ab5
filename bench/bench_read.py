"""Benchmark reading records, alone and with validation, against python-chess reading PGN.

    python bench/bench_read.py                  # 1,000 records and 1,000 chess games, best of 3
    python bench/bench_read.py --records 200 --repeat 1
    python bench/bench_read.py --process --records 600 [--before /path/to/other/tree] [--runs 7]

python-chess is a dependency of this bench only (``python3 -m pip install --user chess``, or the
package's ``bench`` extra); the package itself never imports it.

The records are a transcriber's file as issue 57 describes it: random legal games
(``analyzer.generate.random_game``) of the default variant (partnership, four players, the whole set
dealt), one record each, alternately written in the PGN-like form and as a book table whose plays do not
say their end (no ``@N`` where a tile fits both ends: the reader infers them, as it must for most
printed tables); the tables alternately in English and in German (``Runde``, ``Spieler A``,
``passt``). The chess games are random legal games of up to 80 plies played with
python-chess and exported as PGN (with the seven-tag roster); python-chess then reads each back
(``chess.pgn.read_game``, which replays and checks every move). Both sides are timed in the same run,
taking turns, as CPU time (``time.process_time``), each the best of ``--repeat`` rounds (the machine
may be shared: the best round is the least disturbed one), so the ratio holds even where the absolute
figures do not. Shown: records (games) per second and moves per second; the last column is the rate
over python-chess's games per second. A domino "move" is a play, a pass or a draw; a chess move is a
ply. Reading builds the record (with every position); validating also replays every move against the
rules (``analyzer.match.replay_record``).

``--process`` times whole processes instead, as a user waits for them: ``python3 -m analyzer validate
--json FILE`` of one file holding all the records (start-up, reading, replaying, the triage, the JSON
and the summary), against a fresh ``python3`` process that imports python-chess and reads a PGN file
of as many games with ``chess.pgn.read_game`` (each checked for errors). With ``--before DIR`` the same
command of another source tree (e.g. the main branch, its cores built) is timed too, and its output
compared byte for byte. The processes take turns, ``--runs`` rounds (the first round, which compiles
the bytecode and warms the disk's caches, not counted); each tree's bytecode goes to a folder of its
own under the system's temporary folder. Shown for each: the median and worst wall time and CPU time
(user + system, from ``wait4``), the records per second by the median CPU time, the peak resident
memory, and the ratio of the rate to python-chess's (and to the other tree's); then the same ratios
round by round (each process against python-chess of the same round): their median and worst.
"""
from __future__ import annotations

import argparse
import io
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.generate import random_game  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import parse, write, write_table  # noqa: E402


def _german(table: str, players) -> str:
    """A book table written by ``write_table`` as a German book prints it: ``Runde`` over the round
    numbers, ``Spieler X`` for each player (his hand's line and his column), ``passt`` for a pass."""
    head, rows = table.split("\nRound ", 1)
    for player in players:
        head = head.replace(f"\n{player}: ", f"\nSpieler {player}: ")
    header, rows = rows.split("\n", 1)
    header = "Runde " + " ".join(f"Spieler {p}" for p in header.split())
    return f"{head}\n{header}\n" + re.sub(r"(?<= )pass\b", "passt", rows)


def domino_texts(n: int) -> tuple[list[str], int]:
    """The transcriber's file of ``n`` records (module docstring) and its number of moves."""
    texts, moves = [], 0
    for seed in range(n):
        game = random_game("partnership", seed=seed)
        if seed % 2:                 # the book table: a new row where a column does not follow
            column = {p: i for i, p in enumerate(game.players)}
            row, last = 1, -1
            for i, move in enumerate(game.moves):
                row += column[move.player] <= last
                last = column[move.player]
                # no ends, as books print them: which end a tile that fits both went to is the reader's
                # to find (the end inference)
                game.moves[i] = replace(move, round=row, end=None)
            table = write_table(game)
            texts.append(_german(table, game.players) if seed % 4 == 3 else table)
        else:
            texts.append(write(game))
        moves += len(game.moves)
    return texts, moves


def chess_texts(n: int) -> tuple[list[str], int]:
    import chess
    import chess.pgn

    rng = random.Random(1)
    texts, moves = [], 0
    for _ in range(n):
        board = chess.Board()
        for _ in range(80):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        game = chess.pgn.Game.from_board(board)
        texts.append(str(game))
        moves += len(board.move_stack)
    return texts, moves


def best_times(repeat: int, runs) -> list[float]:
    """The best CPU time of each run over ``repeat`` rounds; the runs take turns within a round, so
    a busy spell on a shared machine slows all of them alike."""
    best = [float("inf")] * len(runs)
    for _ in range(repeat):
        for k, run in enumerate(runs):
            start = time.process_time()
            run()
            best[k] = min(best[k], time.process_time() - start)
    return best


CHESS_READER = """
import sys
import chess.pgn
games = 0
with open(sys.argv[1], encoding="utf-8") as fh:
    while (game := chess.pgn.read_game(fh)) is not None:
        assert not game.errors, game.errors
        games += 1
print(games)
"""


def timed(argv: list[str], env: dict, cwd: Path) -> tuple[float, float, float, bytes]:
    """``(wall s, CPU s, peak MB, stdout)`` of one process (CPU and memory from ``wait4``)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1) or not out:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode()[-500:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def process_mode(args) -> None:
    texts, domino_moves = domino_texts(args.records)
    pgns, chess_moves = chess_texts(args.records)
    trees = {"domino": ROOT} if args.before is None else {"domino, before": args.before.resolve(),
                                                          "domino": ROOT}
    with tempfile.TemporaryDirectory(prefix="bench-read-") as folder:
        record_file, pgn_file, script = (Path(folder) / name for name in ("records.dom", "games.pgn", "read.py"))
        record_file.write_text("\n".join(texts), encoding="utf-8")
        pgn_file.write_text("\n\n".join(pgns) + "\n", encoding="utf-8")
        script.write_text(CHESS_READER, encoding="utf-8")
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        runs = {"python-chess": ([sys.executable, str(script), str(pgn_file)], base, Path(folder))}
        for label, tree in trees.items():
            env = dict(base, PYTHONPATH=str(tree), PYTHONPYCACHEPREFIX=str(Path(folder) / label))
            runs[label] = ([sys.executable, "-m", "analyzer", "validate", "--json", str(record_file)], env, tree)
        times: dict = {label: [] for label in runs}
        outputs = {}
        for round_ in range(args.runs + 1):
            for label, (argv, env, cwd) in runs.items():
                wall, cpu, peak, out = timed(argv, env, cwd)
                outputs[label] = out.replace(str(record_file).encode(), b"FILE")
                if round_:                      # the first round compiles and warms: not counted
                    times[label].append((wall, cpu, peak))
    if len(trees) > 1 and outputs["domino"] != outputs["domino, before"]:
        raise SystemExit("the two trees' outputs differ")
    print(f"whole processes: validate --json of one file of {args.records} records ({domino_moves} moves) "
          f"against python-chess reading {args.records} games ({chess_moves} plies); {args.runs} runs each, "
          f"taking turns; Python {platform.python_version()}, {platform.machine()}")
    print(f"{'':<16}{'wall median':>12}{'worst':>7}{'CPU median':>11}{'worst':>7}{'records/s':>10}"
          f"{'peak MB':>8}{'vs chess':>9}" + (f"{'vs before':>10}" if len(trees) > 1 else ""))
    rate = {label: args.records / statistics.median(c for _, c, _ in rows) for label, rows in times.items()}
    for label, rows in times.items():
        walls, cpus = [w for w, _, _ in rows], [c for _, c, _ in rows]
        line = (f"{label:<16}{statistics.median(walls):>12.3f}{max(walls):>7.3f}{statistics.median(cpus):>11.3f}"
                f"{max(cpus):>7.3f}{rate[label]:>10.0f}{max(p for _, _, p in rows):>8.0f}"
                f"{rate[label] / rate['python-chess']:>9.2f}")
        if len(trees) > 1:
            line += f"{rate[label] / rate['domino, before']:>10.2f}"
        print(line)
    print("\nround by round, CPU (each process against python-chess of the same round): the rate's ratio")
    for label in trees:
        ratios = [chess[1] / mine[1] for chess, mine in zip(times["python-chess"], times[label])]
        print(f"{label:<16} median {statistics.median(ratios):.2f}x  worst {min(ratios):.2f}x  "
              f"best {max(ratios):.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--process", action="store_true", help="time whole processes (validate --json of one file)")
    ap.add_argument("--before", type=Path, help="with --process: another source tree to time alike")
    ap.add_argument("--runs", type=int, default=7, help="with --process: the rounds counted")
    args = ap.parse_args()
    try:
        import chess.pgn
    except ImportError:
        sys.exit("python-chess is missing (a dependency of this bench only): python3 -m pip install --user chess")
    if args.process:
        process_mode(args)
        return

    texts, domino_moves = domino_texts(args.records)
    pgns, chess_moves = chess_texts(args.records)
    parse(texts[0])                  # build the parser once, outside the timing
    chess.pgn.read_game(io.StringIO(pgns[0]))

    def read_all():
        for text in texts:
            record = parse(text)
            assert not record.errors, record.errors

    def validate_all():
        for text in texts:
            assert all(rep.valid for rep in replay_record(parse(text)))

    def chess_all():
        for pgn in pgns:
            game = chess.pgn.read_game(io.StringIO(pgn))
            assert not game.errors

    chess_time, read_time, validate_time = best_times(args.repeat, [chess_all, read_all, validate_all])
    rows = [("python-chess: read PGN", chess_time, chess_moves),
            ("domino: read", read_time, domino_moves),
            ("domino: read + validate", validate_time, domino_moves)]
    print(f"{args.records} records / games, best of {args.repeat}; Python {platform.python_version()}, "
          f"{platform.machine()}")
    print(f"{'':<26}{'records/s':>11}{'moves/s':>11}{'ratio':>8}")
    chess_rate = args.records / chess_time
    for label, took, moves in rows:
        rate = args.records / took
        print(f"{label:<26}{rate:>11.0f}{moves / took:>11.0f}{rate / chess_rate:>8.2f}")


if __name__ == "__main__":
    main()
