"""Hints that name the cause (issue 84, item 3): an error names an option only where it bears on what happened in the
hand, names a stated option that causes it, a bad option name gets the nearest option, and a first game led as by
lot names ``first=draw``. A property test: the option a hint names, applied, changes the scoring of the hand itself
(its winner, its count or its bonuses), and gives the stated result."""
import random
import re

from hypothesis import given, settings, strategies as st

from analyzer.generate import random_hand
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.hints import _changes, bears, result_hint
from analyzer.tiles import Tile

from conftest import ROOT

DATA = ROOT / "tests" / "data" / "issue84"
T = Tile.parse


def _errors(text: str, name: str = "hint.dom"):
    return [d for rep in replay_record(parse(text, name)) for d in rep.errors]


def test_a_misspelt_option_names_the_nearest_one_only():
    """``[Rules "capicua=double"]``: the option meant is ``capicu`` (difflib's nearest), not the list of all 27."""
    text = ('[Variant "venezuelan"]\n[Rules "capicua=double"]\n[Players "A, B, C, D"]\n\n'
            "1. A [6-6]\n")
    (bad,) = [d for d in _errors(text) if d.code == "bad-rule"]
    assert "did you mean capicu=" in bad.message and "chuchazo" not in bad.message
    far = _errors(text.replace("capicua", "tranque"))
    assert "its options are" in next(d.message for d in far if d.code == "bad-rule")


def test_a_stated_option_that_causes_the_error_is_named_for_removal():
    """A Venezuelan hand led with [6-6] that C cannot answer: with the record's own ``salida=20`` B/D score 20 more
    than the Result tag states, so the error names that option as the cause, not another system."""
    (error,) = [d for rep in replay_record(read(DATA / "salida-stated-cause.dom")) for d in rep.errors]
    assert error.code == "result-mismatch" and "without salida=20 in the Rules tag" in error.message
    assert "system=" not in error.message


def test_a_cuban_first_game_led_by_lot_names_first_draw():
    """The Cuban first hand opened by a player who does not hold the highest double ([9-9], A's): drawn by lot
    (``first=draw``) the record is valid; without the option the lead error names it."""
    text = (DATA / "cuban-first-drawn.dom").read_text(encoding="utf-8")
    assert all(r.valid for r in replay_record(parse(text, "c.dom")))
    errors = _errors(text.replace('[Rules "first=draw"]\n', ""), "c.dom")
    lead = [d for d in errors if d.code == "lead-player"]
    assert lead and '[Rules "first=draw"]' in lead[0].message


def test_a_pass_bonus_is_named_only_where_a_pass_pays_one():
    """A domino with no pass: the 000 pass bonuses round the points down to tens, so ``pass-bonus=yes`` gives 20 for
    27, but no pass bonus is paid in the hand: it does not bear on it, and the error does not name it."""
    v = find_variant("partnership")
    history = tuple((s % 4, T(t)) for s, t in enumerate(["[6-6]", "[6-5]", "[5-4]", "[4-3]"]))
    facts = HandFacts("domino", 3, (10, 0, 17, 0), (2, 0, 3, 0), 0, None, T("[4-3]"), (4, 6), history)
    assert v.hand_result(facts).points == 27
    hint = result_hint(v, facts, lambda other, r: r.winner == 1 and r.points == 20)
    assert "pass-bonus" not in hint
    assert not bears(v, find_variant("partnership", "pass-bonus=yes"), facts, "pass-bonus")
    assert bears(v, find_variant("partnership", "divide=10"), facts, "divide")


VARIANTS = [("venezuelan", ""), ("dominican", ""), ("partnership", "score=all"), ("cuban", ""),
            ("venezuelan", "salida=20")]


def _named(hint: str) -> list[str]:
    """The options a hint names: each ``[Rules "..."]`` group, or the stated ones to remove."""
    return re.findall(r'\[Rules "([^"]+)"\]', hint) or re.findall(r"without (.+) in the Rules tag", hint)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(VARIANTS), st.integers(0, 400))
def test_a_hints_option_changes_the_scoring_of_the_hand(seed, named, pick):
    """Random hands, each with the result another value of one option gives (the Result tag of a house that plays
    it): every option the hint then names, applied, gives the stated result and changes the hand's own scoring (its
    winner, its count or its bonuses: not only the total), and bears on the hand."""
    variant = find_variant(*named)
    _game, facts, result = random_hand(variant, random.Random(seed))
    options = [(k, v, o) for k, v, o in _changes(variant, (("salida", "20"), ("capicu-points", "30")))]
    _k, _v, house = options[pick % len(options)]
    stated = house.hand_result(facts)
    if (stated.winner, stated.points) == (result.winner, result.points):
        return

    def agrees(other, r):
        return (r.winner, r.points) == (stated.winner, stated.points)
    hint = result_hint(variant, facts, agrees)
    for group in _named(hint):
        if "without" in hint:
            changes = {k: dict(find_variant(variant.name, {"system": variant.option("system")}
                                            if variant.option("system") else {}).options).get(k) for k, _ in
                       (c.split("=") for c in group.split(" and "))}
            options = {k: v for k, v in variant.options}
            for k, v in changes.items():
                options.pop(k) if v is None else options.__setitem__(k, v)
            other = find_variant(variant.name, options)
        else:
            other = find_variant(variant.name, {**dict(variant.options),
                                                **dict(c.split("=") for c in group.split(", "))})
        mine, theirs = variant.hand_result(facts), other.hand_result(facts)
        assert agrees(other, theirs), (group, hint)
        assert (mine.winner, mine.points - sum(b for _, b in mine.bonuses), mine.bonuses) != \
            (theirs.winner, theirs.points - sum(b for _, b in theirs.bonuses), theirs.bonuses), (group, hint)
        keys = [c.split("=")[0] for c in re.split(r", | and ", group)]
        if len(keys) == 1:
            assert bears(variant, other, facts, keys[0]), (group, hint)
