"""A hand-result model read from a table's file (``ModeSample.from_dict``): its outcomes are made the first time
they are asked for, and nothing tells that from a sample whose outcomes were made at once.

Facts: for any rows (equal ones among them: the later count stands, as in a ``Counter`` filled row by row), the
outcomes are those of ``Outcome.from_list`` of each row in order, every player's mean (``seat_mean``) is the
same asked before or after they are made, the sample equals one read eagerly and writes back the same JSON
form; and a row that is no outcome is refused when the sample is read, not later."""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.equity.model import ModeSample, Outcome

_token = st.sampled_from([["any"], ["side", 0], ["side", 1], ["holder", "[6-6]", True], ["match", ["side", 1]]])
_row = st.tuples(st.none() | st.integers(0, 3), st.integers(0, 60), st.lists(st.integers(0, 60), min_size=2, max_size=4),
                 st.sampled_from(["domino", "blocked"]), st.booleans(), _token, st.integers(1, 9)).map(list)


def _eager(data: dict) -> Counter:
    out = Counter()
    for row in data["outcomes"]:
        out[Outcome.from_list(row[:-1])] = row[-1]
    return out


@settings(max_examples=80, deadline=None)
@given(st.lists(_row, min_size=1, max_size=30), st.integers(0, 3))
def test_a_sample_read_lazily_is_the_sample_read_at_once(rows, r):
    data = {"hands": sum(row[-1] for row in rows), "total": 7, "total_sq": 49, "wins": 1, "outcomes": rows}
    lazy, other = ModeSample.from_dict(data), ModeSample.from_dict(data)
    before = lazy.seat_mean(r)                      # (from the rows, the outcomes not yet made)
    want = _eager(data)
    assert list(lazy.outcomes.items()) == list(want.items())
    assert lazy.seat_mean(r) == before == ModeSample(data["hands"], want).seat_mean(r)
    assert other == lazy and other.as_dict() == lazy.as_dict()
    assert [o for o, _ in lazy.probabilities()] == list(want)


@pytest.mark.parametrize("row", [[0, 10, [10, 0], "domino", False, ["any"]],             # its count left out
                                 [0, 10, 10, "domino", False, ["any"], 1],                 # scores no list
                                 [0, 10, [10, 0], "domino", False, 3, 1],                  # no lead token
                                 [0, 10, [10, 0], ["domino"], False, ["any"], 1]])         # an end no name
def test_a_row_that_is_no_outcome_is_refused_when_read(row):
    with pytest.raises((ValueError, TypeError)):
        ModeSample.from_dict({"hands": 1, "total": 0, "total_sq": 0, "wins": 0, "outcomes": [row]})
