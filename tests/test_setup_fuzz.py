"""Set-up games written at random (lines that join or not, hands shown or hidden, tiles twice, numbers of
no set, a mover who is no player, boneyards of any size, in every family): read, replayed and analysed,
each problem is a diagnostic at a place and nothing raises."""
import random

import pytest

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.inference import InferenceUnsupported, NoWorld
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.tiles import Tile

VARIANTS = ("partnership", "block", "draw", "all-fives", "cutthroat", "french", "cross")


def _text(rng: random.Random) -> str:
    v = rng.choice(VARIANTS)
    n = 3 if v == "cutthroat" else rng.choice([2, 4]) if v in ("block", "draw", "all-fives") else 4
    names = "ABCD"[:n]
    pool = [Tile(a, b) for b in range(7) for a in range(b + 1)]
    rng.shuffle(pool)
    line = []
    if rng.random() < 0.8:
        tile = pool.pop()
        line.append(tile)
        end = tile.high
        for _ in range(rng.randrange(8)):
            fits = [t for t in pool if t.matches(end)]
            if not fits:
                break
            tile = rng.choice(fits)
            pool.remove(tile)
            line.append(tile)
            end = tile.other(end)
    if rng.random() < 0.2:
        line.append(rng.choice(pool + [Tile(7, 7)]))          # a tile that may not join, or of no set
    hands = []
    for s in range(n):
        held = [pool.pop() for _ in range(min(rng.randrange(9), len(pool)))]
        hands.append(f"{names[s]}: " + ("? " * len(held) if rng.random() < 0.4 else " ".join(map(str, held))))
    tags = [f'[Variant "{v}"]', f'[Players "{", ".join(names)}"]', '[SetUp "1"]']
    if line and rng.random() < 0.7:
        tags.append(f'[Line "{" ".join(map(str, line))}"]')
    elif line:
        tags += [f'[Ends "{rng.randrange(8)} {rng.randrange(8)}"]', f'[Counts "{rng.randrange(8)}:{rng.randrange(9)}"]']
    for p, tag in ((0.5, f'[Boneyard "{rng.randrange(20)}"]'), (0.7, f'[ToMove "{rng.choice(names + "Z")}"]'),
                   (0.3, f'[Lacks "{rng.choice(names)} {rng.randrange(7)}"]'),
                   (0.3, f'[Points "{rng.choice(names)} {5 * rng.randrange(5)}"]')):
        if rng.random() < p:
            tags.append(tag)
    return "\n".join(tags) + '\n[Result "*"]\n\n' + "\n".join(hands) + "\n"


@pytest.mark.parametrize("seed", range(4))
def test_random_set_ups_are_read_replayed_and_analysed_without_raising(seed):
    rng = random.Random(seed)
    for _ in range(40):
        text = _text(rng)
        rep = replay(parse(text).games[0])
        assert all(d.line for d in rep.errors), (text, [str(d) for d in rep.errors])
        if not rep.valid or rng.random() < 0.75:
            continue
        if not any(rep.initial.hidden):
            analyze_replay(rep)
        try:
            fair_analyze(rep, settings=FairSettings(worlds=8), run=FairRun(workers=1))
        except (InferenceUnsupported, NoWorld):
            pass
