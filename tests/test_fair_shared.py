"""The fair analysis solves all the worlds of a process with one search where no int solver plays (its
search over arms keeps its table from deal to deal): the same fair values as a search made for every
world, from far fewer searches."""
from __future__ import annotations

import pytest

from analyzer.analysis import analyze_replay, fair
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.generate import random_game
from analyzer.replay import replay


def _record(variant: str, seed: int):
    while True:
        rep = replay(random_game(variant, seed), variant)
        if rep.valid:
            return rep
        seed += 1


def _values(analysis) -> list:
    return [(d.index, [(a.move, a.fair) for a in d.alternatives]) for d in analysis.decisions if d.fair is not None]


@pytest.mark.parametrize("variant", ["french", "cross"])
def test_one_search_for_all_worlds_gives_the_values_of_a_search_a_world(variant, monkeypatch):
    rep = _record(variant, 7)
    made = []
    real = fair.world_searcher

    def counted(*args):
        made.append(1)
        return real(*args)

    monkeypatch.setattr(fair, "world_searcher", counted)
    shared = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=3, exact_below=3),
                          run=FairRun(workers=1))
    searches = len(made)
    made.clear()
    monkeypatch.setattr(fair, "_shared_searcher", counted)          # a search made for every world
    alone = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=3, exact_below=3),
                         run=FairRun(workers=1))
    judged = _values(shared)
    assert len(judged) >= 5 and judged == _values(alone)
    # one search for all the worlds (one for each seat judged where each plays against the rest); a
    # search a world made one for each
    assert searches == (len(shared.fair_seats) if rep.variant.seating.sides > 2 else 1)
    assert len(made) >= 3 * len(judged)
