"""``Dealing.redeal_due_mask`` (the redeal judged on a hand's bits, which the inference asks of every deal it weighs:
issue 80, item 6) judges every hand as ``Dealing.redeal_due`` does on its tiles, in every variant that deals
again (Kozel: five doubles, or six tiles of one number)."""
import dataclasses

from hypothesis import given, strategies as st

from analyzer.position import mask_of
from analyzer.rules.variants import VARIANTS
from analyzer.tiles import tile_set

DEALINGS = sorted({v.dealing for v in VARIANTS.values() if v.dealing.redeal or v.dealing.suit}, key=repr)
# (each also with the other rule alone, and with lower bars, so that both counts are judged where they decide)
DEALINGS += [dataclasses.replace(d, redeal=r, suit=s) for d in DEALINGS[:1] for r, s in ((0, 4), (3, 0), (2, 3))]


def test_some_variant_deals_again():
    assert any(d.suit for d in DEALINGS) and any(d.redeal for d in DEALINGS)


@given(st.sampled_from(DEALINGS), st.data())
def test_a_hand_by_its_bits_is_judged_as_by_its_tiles(dealing, data):
    tiles = tile_set(dealing.max_pip)
    hand = data.draw(st.sets(st.sampled_from(tiles), max_size=min(len(tiles), 2 * dealing.hand_size)))
    assert dealing.redeal_due_mask(mask_of(hand)) == dealing.redeal_due(set(hand))


def test_kozels_bars_on_hands_built_to_meet_them():
    kozel = VARIANTS["kozel"].dealing
    doubles = [t for t in tile_set(6) if t.is_double]
    fives = [t for t in tile_set(6) if t.matches(5)]
    for hand, due in ((doubles[:5], True), (doubles[:4], False), (fives[:6], True), (fives[:5], False)):
        assert kozel.redeal_due(set(hand)) is due and kozel.redeal_due_mask(mask_of(hand)) is due
