"""The simulated deals of the hand-result model are led as the rules say (003: "Den ersten Stein legt,
wer den höchsten Pasch hat"; 000, first game: the holder of [6-6] leads with it): the model asks the
judge of the lead (``rules.lead.deal_lead``) instead of choosing the leader itself."""
from __future__ import annotations

import random

import pytest

import analyzer.equity.model as model
from analyzer.rules import find_variant
from analyzer.tiles import Tile

SIX = Tile.parse("[6-6]")


@pytest.mark.parametrize("name", ["partnership", "jamaican"])
def test_first_hand_is_led_by_the_six_six_holder_with_it(name):
    v = find_variant(name)
    for k in range(50):
        hands, leader, opening = model.deal(v, "holder:[6-6]:forced", random.Random(k))
        assert SIX in hands[leader]
        assert opening == SIX.bit


def test_any_tile_after_a_reset_but_the_holder_leads():
    v = find_variant("jamaican")
    for k in range(50):
        hands, leader, opening = model.deal(v, "holder:[6-6]:any", random.Random(k))
        assert SIX in hands[leader] and opening == 0


def test_block_hands_are_opened_by_the_highest_double_dealt():
    v = find_variant("block", {"hand": "7", "players": "2"})
    for k in range(50):
        hands, leader, opening = model.deal(v, "open", random.Random(k))
        doubles = [t for h in hands for t in h if t.is_double]
        if not doubles:
            continue
        top = max(doubles)
        assert top in hands[leader] and opening == top.bit


def test_the_model_asks_the_judge_of_the_lead(monkeypatch):
    from analyzer.equity import boneyard

    asked = []
    real = boneyard.deal_lead

    def spy(variant, hands, req):
        asked.append(req)
        return real(variant, hands, req)

    monkeypatch.setattr(boneyard, "deal_lead", spy)         # (both hand models deal through boneyard's deal)
    v = find_variant("partnership")
    hands, leader, opening = model.deal(v, "open", random.Random(1))
    assert asked and asked[0].seats == frozenset({0})
    assert leader == 0 and opening == 0         # a given side leads, with any tile
