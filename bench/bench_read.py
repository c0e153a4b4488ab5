"""Benchmark reading records, alone and with validation, against python-chess reading PGN.

    python bench/bench_read.py                  # 1,000 records and 1,000 chess games, best of 3
    python bench/bench_read.py --records 200 --repeat 1

The records are random legal games (``analyzer.generate.random_game``) of the default variant
(partnership, four players, the whole set dealt), one record file each, half written in the PGN-like
form and half as the book table. The chess games are random legal games of up to 80 plies played with
python-chess and exported as PGN (with the seven-tag roster); python-chess then reads each back
(``chess.pgn.read_game``, which replays and checks every move). Both sides are timed in the same run,
taking turns, as CPU time (``time.process_time``), each the best of ``--repeat`` rounds (the machine
may be shared: the best round is the least disturbed one), so the ratio holds even where the absolute
figures do not. Shown: records (games) per second and moves per second; the last column is the rate
over python-chess's games per second. A domino "move" is a play, a pass or a draw; a chess move is a
ply. Reading builds the record (with every position); validating also replays every move against the
rules (``analyzer.match.replay_record``).
"""
from __future__ import annotations

import argparse
import io
import platform
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyzer.generate import random_game  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import parse, write, write_table  # noqa: E402


def domino_texts(n: int) -> tuple[list[str], int]:
    texts, moves = [], 0
    for seed in range(n):
        game = random_game("partnership", seed=seed)
        if seed % 2:                 # the book table: a new row where a column does not follow
            column = {p: i for i, p in enumerate(game.players)}
            row, last = 1, -1
            for i, move in enumerate(game.moves):
                row += column[move.player] <= last
                last = column[move.player]
                game.moves[i] = replace(move, round=row)
            texts.append(write_table(game))
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--records", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    try:
        import chess.pgn
    except ImportError:
        sys.exit("python-chess is missing: python3 -m pip install '.[bench]'")

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
