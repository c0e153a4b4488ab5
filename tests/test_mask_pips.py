"""``position.mask_pips``: the pips of a set of tiles given as a mask, read a byte at a time, are the sum of each
tile's two numbers (``Tile.pips``), for every set up to double-fifteen (a tile's bit does not depend on the set)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from analyzer.position import mask_pips, tiles_of
from analyzer.tiles import tile_set


@given(max_pip=st.integers(0, 15), data=st.data())
def test_the_pips_of_a_mask_are_those_of_its_tiles(max_pip, data):
    tiles = tile_set(max_pip)
    chosen = data.draw(st.lists(st.sampled_from(tiles), unique=True))
    mask = 0
    for t in chosen:
        mask |= t.bit
    assert mask_pips(mask) == sum(t.low + t.high for t in chosen)
    assert mask_pips(mask) == sum(t.pips for t in tiles_of(mask, max_pip))


def test_a_whole_set_has_its_known_pips():
    # a double-n set holds each number n + 2 times: (n + 2) * n (n + 1) / 2 pips (168 for double-six, 1,092 for
    # double-twelve)
    for n in range(16):
        assert mask_pips(sum(t.bit for t in tile_set(n))) == (n + 2) * n * (n + 1) // 2
    assert mask_pips(0) == 0
