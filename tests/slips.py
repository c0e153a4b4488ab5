"""Broken records for the repair tests: a legal game with slips of the pen, each of which breaks it."""
from __future__ import annotations

import random

from analyzer.replay import replay


def break_record(original, slips: int, kinds, seed: int, slip):
    """``original`` with ``slips`` slips made by ``slip(game, kind, rng)``, each breaking the record
    on its own (a slip that leaves it legal, or that ``slip`` cannot make, is drawn again, up to 30
    times): (corrupted game, kinds used), or None. The first slip's kind takes turns by ``seed``, so
    a run over seeds meets every kind; later ones are drawn at random."""
    rng = random.Random(1000 * slips + seed)
    for attempt in range(30):
        game, used = original, []
        for _ in range(slips):
            kind = kinds[(seed + attempt) % len(kinds)] if not used else rng.choice(kinds)
            game = slip(game, kind, rng) if game is not None else None
            if game is None or replay(game).valid:
                game = None
                break
            used.append(kind)
        if game is not None:
            return game, used
    return None
