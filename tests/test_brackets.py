"""The reading of certified brackets (``analysis.brackets``), both solvers' one, against its definition checked pair
by pair: a move is surely worse where another move's bracket lies wholly above its own, and what it surely loses is
the largest such gap."""

from hypothesis import given, strategies as st

from analyzer.analysis.brackets import for_mover, not_told_apart, sure_loss, surely_better

EPS = 1e-9
values = st.integers(-40, 40).map(lambda v: v / 4)
bracket = st.tuples(values, values).map(sorted).map(tuple)
brackets = st.dictionaries(st.sampled_from("abcdefg"), bracket, min_size=1, max_size=7)


@given(brackets, st.sampled_from([0.0, EPS]))
def test_a_move_is_surely_worse_exactly_where_another_bracket_lies_wholly_above_it(ends, eps):
    better = surely_better(ends, eps)
    for m, (_, up) in ends.items():
        above = [o for o, (low, _) in ends.items() if o != m and low > up + eps]
        assert (m in better) == bool(above)
        if above:       # the move named is one of those, and no move's low end lies higher
            assert better[m] in above and ends[better[m]][0] == max(low for low, _ in ends.values())


@given(brackets, st.sampled_from([0.0, EPS]))
def test_what_a_move_surely_loses_is_the_largest_gap_below_another_bracket(ends, eps):
    for m, (_, up) in ends.items():
        gaps = [low - up for o, (low, _) in ends.items() if o != m]
        lost = sure_loss(ends, m, eps)
        if not gaps or max(gaps) <= eps:
            assert lost is None
        else:
            assert lost[0] == max(gaps) > 0 and ends[lost[1]][0] - up == lost[0]


@given(brackets)
def test_the_moves_left_are_those_no_move_is_surely_better_than_first_by_the_mean(ends):
    means = {m: (low + up) / 2 for m, (low, up) in ends.items()}
    worse = surely_better(ends)
    for sign in (1, -1):
        left = not_told_apart(means, worse, sign)
        assert set(left) == set(ends) - set(worse) and left        # (the move of the highest low end stays)
        assert [sign * means[m] for m in left] == sorted((sign * means[m] for m in left), reverse=True)


def test_side_ones_brackets_are_turned_over_for_him():
    # side 0's values: a move worth 1 to 3 for side 0 is worth -3 to -1 for side 1; b (at most 0.5 for side 0) is
    # surely better for side 1, and a for side 0
    assert for_mover([("a", 1.0, 3.0), ("b", -2.0, 0.5)], -1) == {"a": (-3.0, -1.0), "b": (-0.5, 2.0)}
    assert surely_better(for_mover([("a", 1.0, 3.0), ("b", -2.0, 0.5)], -1)) == {"a": "b"}
    assert surely_better(for_mover([("a", 1.0, 3.0), ("b", -2.0, 0.5)], 1)) == {"b": "a"}
