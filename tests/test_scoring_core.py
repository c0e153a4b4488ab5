"""Every scoring the variants have, computed in the compiled core: the C evaluation of a finished
hand (``_leaf.h``, from ``scoring.describe``) against ``value`` on random finished hands of every
option it claims to know (the block games', and the draw games' and All Fives' that the compiled
search of draw games values with it too); whole random records searched by both cores (values and
node counts); the Python leaf and the analysis's note only for a policy it does not know."""
import itertools
import random
from dataclasses import replace

import pytest

from analyzer.analysis import AgainstTheRest, analyze
from analyzer.notation import read
from analyzer.position import Position
from analyzer.rules import find_variant
from analyzer.rules.policies import DOUBLE_BLANK, BlockDecider, DifferenceAward, HandFacts, PointScoring
from analyzer.rules.variants import FAMILIES, Variant
from analyzer.search import Solver
from analyzer.search.block import core_note
from analyzer.search.core import compiled_core
from analyzer.search.scoring import (ALL_PIPS, BY, COUNT, FIXED, NO_BOUND, OWN_PIPS, TIE, LeafScoring, describe,
                                     standard_scoring)
from analyzer.tiles import Tile, tile_set
from conftest import RECORDS
from test_core import _deal

# the counts of PointScoring (the others of ``COUNT`` are DifferenceAward's)
POINT_COUNTS = [count for count in COUNT if count not in ("award", "nothing", "charged", "charged-each")]

built = pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")

# every option of the partnership family that changes how a hand is valued, with its values
PARTNERSHIP_AXES = {
    "score": ("losers", "all", "milo"), "tie": tuple(TIE), "block": ("team", "last-or-right"),
    "divide": ("1", "10"), "blank": ("0", "50"), "blank-count": ("everywhere", "score"),
    "capicu": ("no", "yes"), "chuchazo": ("no", "any", "one-end"), "pass-bonus": ("no", "yes"),
}
SYSTEMS = ("standard", "great-lakes", "great-lakes-101", "doscientos", "quinientos", "south-american", "milo")
OTHERS = [
    ("whist", {"score": "bad"}), ("whist", {"score": "good"}), ("whist", {"score": "caribbean"}),
    ("jamaican", {}), ("chiva", {}), ("cutthroat", {"players": "2"}), ("cutthroat", {"players": "3"}),
    ("cutthroat", {"players": "4"}), ("block", {}), ("block", {"score": "game"}), ("block", {"score": "difference"}),
    ("block", {"players": "2"}), ("block", {"players": "2", "score": "difference"}),
    ("kozel", {}), ("kozel", {"eggs": "no"}), ("kozel", {"limit": "50", "zero-lead": "winner"}),
]
# the draw games and All Fives (the compiled search of draw games values their hands with ``_leaf.h`` too)
DRAW_GAMES = [
    ("draw", {"players": "2"}), ("draw", {"players": "3"}), ("draw", {"players": "4", "doubles": "full"}),
    ("cutthroat", {"draw": "yes"}), ("chiva", {"players": "2"}), ("chiva", {"players": "3"}),
    ("all-fives", {}), ("all-fives", {"award": "no"}), ("all-fives", {"players": "3"}),
    ("all-fives", {"players": "4"}), ("all-fives-threes", {"count": "pub"}),
]


def _ids(case):
    return case if isinstance(case, str) else ",".join(f"{k}={v}" for k, v in case.items())


def _views(variant):
    """The rules a block search values hands with: the variant, or each player against the rest."""
    if variant.seating.sides == 2:
        return [variant]
    return [AgainstTheRest(variant, seat) for seat in range(variant.players)]


def _partnership_variants():
    for combo in itertools.product(*PARTNERSHIP_AXES.values()):
        yield find_variant("partnership", dict(zip(PARTNERSHIP_AXES, combo)))
    for system in SYSTEMS:
        yield find_variant("partnership", {"system": system})


def _finished_hand(variant, rng: random.Random) -> HandFacts:
    """A random finished hand: domino (the seat's hand empty, the last tile fitting an end before
    it) or block; small and equal totals, [0-0], capicú and equal ends come up often."""
    n = variant.players
    tiles = list(variant.dealing.tiles)
    r = rng.random()
    if r < 0.4:                     # light tiles only: equal totals (ties) come up
        tiles = [t for t in tiles if t.pips <= (2 if r < 0.15 else 4)]
    rng.shuffle(tiles)
    if rng.random() < 0.25 and DOUBLE_BLANK in tiles:
        tiles.remove(DOUBLE_BLANK)
        tiles.insert(0, DOUBLE_BLANK)       # the last tile, or in a hand
    last = tiles.pop(0) if rng.random() < 0.7 else tiles.pop()
    termination = "domino" if rng.random() < 0.5 else "blocked"
    seat = rng.randrange(n)
    hands = []
    for s in range(n):
        size = 0 if termination == "domino" and s == seat else rng.randint(0 if termination == "blocked" else 1, 3)
        hands.append(frozenset(tiles[:size]))
        del tiles[:size]
    a = rng.choice((last.low, last.high))
    r = rng.random()
    b = a if r < 0.15 else (last.other(a) if r < 0.5 else rng.randrange(variant.dealing.max_pip + 1))
    ends = (a, b) if rng.random() < 0.5 else (b, a)
    known = rng.random() < 0.9
    return HandFacts(termination, seat, tuple(sum(t.pips for t in h) for h in hands), tuple(len(h) for h in hands),
                     rng.randrange(n), hands=tuple(sum(t.bit for t in h) for h in hands),
                     last_tile=last if known else None, ends_before=ends if known else None)


def _c_value(spec: LeafScoring, variant, facts: HandFacts) -> int:
    known = facts.last_tile is not None
    return compiled_core().hand_value(spec.ints(), variant.dealing.max_pip, facts.termination == "blocked",
                                      facts.seat, facts.leader, facts.hands,
                                      facts.last_tile.index if known else -1,
                                      *(facts.ends_before if known else (-1, -1)))


def _within_bound(bound: int, view, facts: HandFacts, value: int, more: int = 0) -> bool:
    """Whether neither side of the search loses more than the bound allows: its own pips left
    (``OWN_PIPS``), every pip left (``ALL_PIPS``) or none (``FIXED``), and ``more`` points."""
    held = [0, 0]
    for seat, p in enumerate(facts.pips):
        held[view.seating.teams[seat]] += p
    most = {OWN_PIPS: held, ALL_PIPS: [sum(held)] * 2, FIXED: [0, 0]}[bound]
    return -value <= most[0] + more and value <= most[1] + more


def _check_random_hands(variant, rng, count) -> int:
    """``count`` random finished hands for each view of ``variant``: the C value is ``value``, and the
    pip bound the search prunes with holds."""
    checked = 0
    for view in _views(variant):
        spec = describe(view)
        assert spec is not None, (variant.name, variant.options)
        for _ in range(count):
            facts = _finished_hand(variant, rng)
            value = view.value(facts)
            assert _c_value(spec, variant, facts) == value, (variant.options, spec, facts)
            assert spec.bound == NO_BOUND or _within_bound(spec.bound, view, facts, value, spec.most), (spec, facts)
            checked += 1
    return checked


@built
def test_the_c_evaluation_equals_value_for_every_partnership_option():
    rng = random.Random(12)
    variants = list(dict.fromkeys(_partnership_variants()))        # (in a fixed order: a seeded run)
    assert len(variants) > 1000
    assert sum(_check_random_hands(v, rng, 12) for v in variants) > 12000


@built
@pytest.mark.parametrize("name,options", OTHERS + DRAW_GAMES + [("partnership", {"system": s}) for s in SYSTEMS],
                         ids=_ids)
def test_the_c_evaluation_equals_value_for_every_family(name, options):
    rng = random.Random(f"{name}{sorted(options.items())}")
    assert _check_random_hands(find_variant(name, options), rng, 1500) >= 1500


@built
def test_the_c_evaluation_of_policies_no_variant_builds_yet():
    """The options of the policies themselves, beyond the combinations the families build: doubled
    hands with other counts, doubles counted once, [0-0] in the block rule with a tie rule, each
    block rule with each count (the bad points and the difference ignore the block rule's winner)."""
    base = find_variant("partnership")
    rng = random.Random(5)
    checked = 0
    for by, tie, count in itertools.product(BY, TIE, POINT_COUNTS):
        for once, blank, doubled, divide in ((False, 0, False, 1), (True, 0, True, 1), (False, 50, False, 10),
                                             (True, 50, True, 10)):
            variant = replace(base, block=BlockDecider(by, tie, doubles_once=once, blank=blank),
                              scoring=PointScoring(count, divide=divide, blank=blank, doubled=doubled, capicu=25,
                                                   chuchazo="one-end", pass_bonus=divide == 10))
            checked += _check_random_hands(variant, rng, 10)
    assert checked > 3000


@built
def test_the_c_evaluation_of_all_fives_award_and_the_draw_games_block_rules():
    """003: "Jeder verlierende Spieler nimmt die Differenz zwischen seiner und der Punktzahl des
    Gewinners am Ende, rundet sie auf fünf auf und schreibt sie dem Gewinner gut" (``DifferenceAward``,
    any unit, or no award at all), after every block rule (by the sides' or the single players' pips,
    each tie rule, 004's doubles counted once), for two players, partners (the winning side's first
    seat is the one compared) and each of three or four players against the rest."""
    rng = random.Random(3)
    checked = 0
    bases = [find_variant("all-fives"), find_variant("all-fives", {"players": "3"}),
             find_variant("all-fives", {"players": "4"}), find_variant("partnership")]
    for base, by, tie, once in itertools.product(bases, ("team", "player"), TIE, (False, True)):
        for unit, award in ((5, True), (1, True), (10, True), (5, False)):
            variant = replace(base, block=BlockDecider(by, tie, doubles_once=once),
                              scoring=DifferenceAward(unit, award))
            checked += _check_random_hands(variant, rng, 6)
    assert checked > 4000
    # the block rule of the draw game (004) with every count: a hand decided by the single player
    # with the fewest pips, doubles counted once
    for players, count in itertools.product(("2", "3", "4"), POINT_COUNTS):
        variant = replace(find_variant("draw", {"players": players}), scoring=PointScoring(count))
        checked += _check_random_hands(variant, rng, 40)
    assert checked > 6000


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
@pytest.mark.parametrize("name,options,award", [("partnership", {}, True), ("cutthroat", {"players": "3"}, True),
                                                ("block", {"players": "2"}, False)], ids=str)
def test_the_block_search_prunes_the_award_soundly(name, options, award, core):
    """The block searches prune with the award's bound (a side loses at most its own pips, or every
    pip against the rest, and the rounding up): their values equal the plain minimax, which does
    not prune, on small deals."""
    from test_variant_solver import line_agrees_with_minimax

    variant = replace(find_variant(name, options), scoring=DifferenceAward(5, award))
    rng = random.Random(f"award{name}")
    checked = 0
    for _ in range(6):
        hands, leader = _deal(variant, rng, 4 if variant.players > 2 else 5)
        for view in _views(variant):
            checked += line_agrees_with_minimax(Solver(view, core=core), view, hands, leader, rng)
    assert checked > 30


def test_the_award_is_described_and_bounded():
    """All Fives' award: the loser pays at most his pips (rounded up: four more for each loser), one
    player against the rest may pay every pip; without the award a hand is worth nothing."""
    award = describe(find_variant("all-fives"))
    assert (award.count, award.unit, award.by, award.tie) == (COUNT["award"], 5, BY["player"], TIE["draw"])
    assert award.bound == OWN_PIPS and award.most == 4
    three = describe(AgainstTheRest(find_variant("all-fives", {"players": "3"}), 1))
    assert three.view == 1 and three.bound == ALL_PIPS and three.most == 8
    pubs = describe(find_variant("all-fives", {"award": "no"}))
    assert pubs.count == COUNT["nothing"] and pubs.bound == FIXED and pubs.most == 0
    # (a block: seat 0 holds 7, seat 1 holds 3 and wins; 7 - 3 = 4, rounded up to 5)
    facts = HandFacts("blocked", 0, (7, 3), (1, 1), 0, hands=(Tile(3, 4).bit, Tile(1, 2).bit))
    assert find_variant("all-fives").value(facts) == -5
    assert find_variant("all-fives", {"award": "no"}).value(facts) == 0


@built
def test_kozels_charges_are_computed_in_c_as_the_rules_state_them():
    """Kozel (rules/kozel.py's text): after a domino the other team is charged its remainder, a hand holding [0-0]
    alone counting 10; after a fish the higher remainder is charged it (equal: eggs, nothing charged in the hand), or
    without eggs each team its own. Bad points: side 0's value is what side 1 is charged less its own charge."""
    blank, four = DOUBLE_BLANK.bit, Tile(1, 3).bit
    cases = [   # (termination, seat, the hands left: seats 0 and 2 are side 0), the value with eggs, without
        (("domino", 0, (0, blank, 0, Tile(2, 3).bit)), 15, 15),         # side 1: 10 ([0-0] alone) + 5
        (("domino", 1, (four | blank, 0, 0, 0)), -4, -4),               # [0-0] with another tile: its pips, 4
        (("blocked", 3, (four, blank, 0, 0)), 10, 6),                   # 4 against 10: side 1 charged 10
        (("blocked", 3, (Tile(4, 6).bit, blank, 0, 0)), 0, 0),          # 10 against 10: eggs, or 10 each
        (("blocked", 3, (Tile(5, 6).bit, Tile(2, 2).bit, 0, 0)), -11, -7),  # 11 against 4: side 0 charged 11
    ]
    for (termination, seat, hands), eggs, no_eggs in cases:
        pips = tuple(sum(t.pips for t in tile_set(6) if t.bit & h) for h in hands)
        facts = HandFacts(termination, seat, pips, tuple(bin(h).count("1") for h in hands), 0, hands=hands)
        for options, want in (({}, eggs), ({"eggs": "no"}, no_eggs)):
            variant = find_variant("kozel", options)
            assert variant.value(facts) == want, (facts, options)
            assert _c_value(describe(variant), variant, facts) == want, (facts, options)
    assert describe(find_variant("kozel")).bound == OWN_PIPS and describe(find_variant("kozel")).most == 10


#: Variants beyond the rule texts whose hand value the compiled leaf does not compute yet: the int solver asks Python at
#: each finished hand, exact and slower (none since Kozel's charges were described: ``COUNT["charged"]``).
PYTHON_LEAVES: set[str] = set()


def test_every_variant_a_block_search_meets_is_described():
    """No variant the int solver plays asks Python for its leaf values, whatever its options."""
    from analyzer.analysis import int_solver_plays

    seen = 0
    for variant in itertools.chain(_partnership_variants(), (find_variant(n, o) for n, o in OTHERS),
                                   (find_variant(name) for name in FAMILIES)):
        if not int_solver_plays(variant):
            continue
        if variant.name in PYTHON_LEAVES:       # not yet written in C: the analysis says its leaves are Python's
            assert describe(variant) is None
            assert core_note(variant, "compiled") if compiled_core() else True
            continue
        for view in _views(variant):
            assert standard_scoring(view)[0] or describe(view) is not None, (variant.name, variant.options)
            assert core_note(view, "compiled" if compiled_core() else "python") is None
            seen += 1
    assert seen > 1000


def test_a_policy_the_core_does_not_know_is_not_described_and_the_analysis_says_so():
    partnership = find_variant("partnership")

    class Scored(PointScoring):             # a subclass may score otherwise: not taken for its parent
        pass

    class Awarded(DifferenceAward):
        pass

    class Valued(Variant):
        def value(self, facts):
            return 2 * super().value(facts)

    unknown = [replace(partnership, scoring=Awarded()), replace(partnership, scoring=Scored("game")),
               Valued(**{f: getattr(partnership, f) for f in partnership.__dataclass_fields__}),
               replace(partnership, block=BlockDecider("team", "coin"))]
    for rules in unknown:
        assert describe(rules) is None
        assert core_note(rules, "python") is None
        if compiled_core() is not None:
            assert "asks Python" in core_note(rules, "compiled")
    # a look-alike of the view of one player against the rest is not taken for it
    lookalike = type("AgainstTheRest", (), {"variant": find_variant("cutthroat", {"players": "3"}), "seat": 0})()
    assert describe(lookalike) is None


def test_the_bounds_of_the_scorings():
    """A side loses at most its pips or every pip and the points beyond them (a bonus, [0-0] worth
    50), or under a point a game that point (and the bonuses); where nothing bounds it (doubled hands,
    bad points of one against three) the search does not prune."""
    bounds = {(name, tuple(options.items())): describe(_views(find_variant(name, options))[-1]).bound
              for name, options in OTHERS + [("partnership", {"system": s}) for s in SYSTEMS]}
    assert bounds[("whist", (("score", "bad"),))] == bounds[("whist", (("score", "good"),))] == OWN_PIPS
    assert bounds[("whist", (("score", "caribbean"),))] == ALL_PIPS
    assert bounds[("jamaican", ())] == bounds[("chiva", ())] == bounds[("partnership", (("system", "milo"),))] == FIXED
    assert describe(find_variant("jamaican")).most == 1 and describe(find_variant("milo")).most == 2
    assert describe(find_variant("partnership", {"score": "milo", "capicu": "yes"})).most == 102
    assert describe(find_variant("partnership", {"score": "milo", "tie": "own-pips"})).bound == NO_BOUND
    assert bounds[("partnership", (("system", "quinientos"),))] == ALL_PIPS           # and 100: capicú, chuchazo
    assert describe(find_variant("quinientos")).most == 100
    assert bounds[("partnership", (("system", "great-lakes-101"),))] == ALL_PIPS      # and [0-0]'s 50
    assert describe(find_variant("great-lakes-101")).most == 50
    assert describe(find_variant("partnership", {"blank": "50", "capicu": "yes"})).most == 150
    assert describe(find_variant("partnership", {"blank": "50"})).bound == OWN_PIPS
    assert bounds[("partnership", (("system", "doscientos"),))] == ALL_PIPS
    assert bounds[("cutthroat", (("players", "3"),))] == FIXED                        # a point a game
    french_like = replace(find_variant("cutthroat", {"players": "3"}), scoring=PointScoring("bad"))
    assert describe(AgainstTheRest(french_like, 0)).bound == NO_BOUND
    facts = HandFacts("domino", 1, (0, 0, 5), (0, 0, 2), 0, hands=(0, 0, Tile(2, 3).bit | Tile(0, 0).bit))
    assert AgainstTheRest(french_like, 2).value(facts) == -10        # he loses twice his own pips
    assert describe(AgainstTheRest(find_variant("cutthroat", {"players": "3"}), 0)).bound == FIXED
    losers = replace(find_variant("cutthroat", {"players": "3"}), scoring=PointScoring("losers"))
    assert describe(AgainstTheRest(losers, 0)).bound == ALL_PIPS
    # own pips on a block tied by the last player (seat 0) and the next (seat 1), who hold 0 each: each side
    # scores its own, so a side holding nothing loses the other's
    own = find_variant("partnership", {"tie": "own-pips", "divide": "10", "block": "last-or-right"})
    facts = HandFacts("blocked", 0, (0, 0, 0, 5), (0, 0, 1, 1), 0, hands=(0, 0, Tile(0, 0).bit, Tile(1, 4).bit))
    assert own.value(facts) == -1 and describe(own).bound == ALL_PIPS and _within_bound(ALL_PIPS, own, facts, -1)
    assert not _within_bound(OWN_PIPS, own, facts, -1)


@built
def test_a_jamaican_analysis_no_longer_asks_python():
    note = analyze(read(RECORDS / "match-jamaican.dom"))[0].note or ""
    assert "asks Python" not in note


def test_a_bad_description_is_refused():
    core = compiled_core()
    if core is None:
        pytest.skip("the compiled core was not built")
    good = describe(find_variant("jamaican")).ints()
    table = core.Table(1024)
    unit = list(LeafScoring.__dataclass_fields__).index("unit")
    assert good[unit] == 1
    for bad in (good[:-1], good[:6] + (99,) + good[7:], good[:unit] + (0,) + good[unit + 1:], (0,) * len(good), "no"):
        with pytest.raises(ValueError, match="scoring"):
            core.hand_value(bad, 6, 0, 0, 0, (0, 0, 0, 0), -1, -1, -1)
        with pytest.raises((ValueError, TypeError)):
            core.BlockDeal(table, 4, 6, (0, 1, 0, 1), (1, 2, 4, 8), 0, None, bad, 0)


# -- whole records: both cores, the same values and the same node counts ------------------------------
RECORD_CASES = [
    ("jamaican", {}), ("chiva", {}), ("cutthroat", {"players": "2"}), ("cutthroat", {"players": "3"}),
    ("cutthroat", {"players": "4"}), ("whist", {"score": "good"}), ("whist", {"score": "caribbean"}),
    ("quinientos", {}), ("great-lakes", {}), ("great-lakes-101", {}), ("doscientos", {}), ("milo", {}),
    ("south-american", {}), ("partnership", {"tie": "more-tiles", "divide": "10"}),
    ("partnership", {"pass-bonus": "yes", "tie": "own-pips"}), ("block", {"score": "difference"}),
]


def _compare_records(variant, records: int, size: int, seed) -> int:
    """``records`` random deals of ``size`` tiles a hand played out at random; at every decision, for
    each view, both cores give every alternative the same value after searching the same states, and
    the compiled one never asked Python for a leaf value. Returns the alternatives compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(records):
        hands, leader = _deal(variant, rng, size)
        for view in _views(variant):
            compiled, python = Solver(view, core="compiled"), Solver(view, core="python")
            pos = Position(hands, leader, max_pip=variant.dealing.max_pip)
            while (moves := pos.legal_moves()):
                if len(moves) > 1:
                    got = compiled.values(pos)
                    assert got == python.values(pos), (hands, leader, [str(m) for m, *_ in pos.history])
                    assert compiled.nodes == python.nodes
                    compared += len(got)
                pos.push(rng.choice(moves))
            # every finished hand was valued in C: the compiled deals never asked Python
            for deal in compiled.tt.values():
                assert not deal.python_leaves and not deal.leaves
    return compared


@built
@pytest.mark.parametrize("name,options", RECORD_CASES, ids=_ids)
def test_both_cores_agree_on_random_records_values_and_nodes(name, options):
    variant = find_variant(name, options)
    size = 5 if variant.players == 4 else 6
    assert _compare_records(variant, 3, size, f"records{name}{sorted(options.items())}") > 10


@built
@pytest.mark.slow
def test_both_cores_agree_on_hundreds_of_records_of_each_scoring():
    compared = 0
    for name, options in RECORD_CASES:
        variant = find_variant(name, options)
        compared += _compare_records(variant, 120, 4 if variant.players == 4 else 5, f"many{name}{sorted(options.items())}")
    assert compared > 10000
