"""Where a record does not say on which end a tile went, the replayer never blames a legal move: a
move is reported illegal only if it is illegal under every placement of the earlier tiles that the
moves before it allow. Checked against an explicit enumeration of every placement."""
import random
from dataclasses import replace

from analyzer.generate import random_game
from analyzer.replay import replay
from analyzer.rules.judge import Judge, Written
from analyzer.tiles import Tile


def latest_first_error(game, variant, pos, judge, seat_of, i=0) -> int:
    """The latest index at which the first illegal move can come, over every placement (plain
    enumeration: each tile that fits two ends is tried on both)."""
    moves = game.moves
    if i == len(moves) or pos.outcome() is not None:
        return len(moves) if i == len(moves) else i
    entry = moves[i]
    seat = seat_of[entry.player]
    if seat != pos.turn:
        return i
    verdict = judge.entry(pos, entry.tile, seat, written=Written(entry.end))
    if not verdict.legal:
        return i
    best = -1
    for move in verdict.moves:
        pos.push(move)
        best = max(best, latest_first_error(game, variant, pos, judge, seat_of, i + 1))
        pos.pop()
    return best


def corrupted(seed: int):
    """A random legal partnership game with the ends left out, and one play changed to a pass or to
    another tile."""
    game = random_game("partnership", seed, ends="none")
    rng = random.Random(seed)
    plays = [k for k, m in enumerate(game.moves) if m.tile is not None and k > 0]
    k = rng.choice(plays)
    tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
    new = None if rng.random() < 0.4 else rng.choice(tiles)
    moves = list(game.moves)
    moves[k] = replace(moves[k], tile=new)
    return replace(game, moves=moves)


def test_the_first_error_comes_as_late_as_any_placement_allows():
    blamed_later = 0
    for seed in range(150):
        game = corrupted(seed)
        rep = replay(game)
        pos = rep.initial.copy()
        judge = Judge(rep.variant, rep.players)
        expected = latest_first_error(game, rep.variant, pos, judge, {p: s for s, p in enumerate(rep.players)})
        first = next((s.index for s in rep.steps if any(d.severity == "error" for d in s.diagnostics)),
                     len(game.moves))
        assert first == expected, seed
        blamed_later += expected > 0
    assert blamed_later > 100

