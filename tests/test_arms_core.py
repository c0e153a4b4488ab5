"""The compiled search over layouts with arms (``analyzer.search._arms``) against the pure-Python one
(``_ArmDeal``): the same value for every alternative at every decision of random hands of French, cross
and the double-nine cross, the same positions visited (so a node limit stops both at the same place),
both equal to a plain minimax on small deals, a bounded table, and the scorings it does not write
falling back to Python. Also the families that do not reach a compiled search today (draw games in
the revealed order, All Fives): the two settings of ``core`` give the same values there too."""
from __future__ import annotations

import dataclasses
import gc
import os
import random
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.rules import find_variant
from analyzer.rules.policies import HandScoring, PointScoring
from analyzer.rules.variants import Variant
from analyzer.search import SearchLimit, TreeSearch
import analyzer
from analyzer.search.core import (ARMS_CORE, ARMS_ENTRY_BYTES, PURE_ENV, PY_ENTRY_BYTES, arms_core, cores_text,
                                  draw_core, resolve_arms)
from analyzer.search.alphabeta import hand_leader
from analyzer.search.tree import _STATE_CODE, _ArmDeal, arms_note, arms_scoring
from analyzer.rules.layout import Arm
from analyzer.tiles import Tile, tile_set
from conftest import RECORDS
from test_search import reference, reference_values, rules_for, small_deal
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

built = pytest.mark.skipif(arms_core() is None, reason="the compiled search over arms was not built (no C compiler)")

# (variant, options, tiles a seat, lead, sleepers drawn to fill the spinner)
ARMS = [
    ("french", {}, 4, Tile(0, 0), 0),
    ("cross", {"sleepers": "no"}, 4, Tile(6, 6), 0),
    ("cross", {}, 3, Tile(6, 6), 6),
    ("cross", {"set": "9", "sleepers": "no"}, 6, Tile(9, 9), 0),
    ("cross", {"set": "9"}, 4, Tile(9, 9), 10),
]
# the families that search in Python whatever the core (no arms): the core must not change a value
OTHERS = [
    ("draw", {"players": "2"}, 4, Tile(6, 6), 6),
    ("all-fives", {"draw": "no"}, 4, Tile(5, 5), 0),
    ("all-fives-threes", {"draw": "one", "count": "pub"}, 3, Tile(3, 3), 5),
]


def _id(case) -> str:
    return "-".join([case[0]] + [f"{k}={v}" for k, v in case[1].items()])


#: a table bound no test search reaches (a compiled table only grows as it fills)
BIG = 2048


def compare_line(variant, rng, size: int, lead: Tile, sleepers: int) -> int:
    """One random deal played out at random; at every decision, for every view (two sides, or each
    player against the rest), both cores give every alternative the same value after visiting the
    same positions. Returns the alternatives compared."""
    pos = small_deal(variant, rng, size, lead, sleepers)
    views = [rules_for(variant, seat) for seat in range(variant.players if variant.seating.sides > 2 else 1)]
    # (tables large enough that neither search drops an entry: below their bounds they are the same search)
    searches = [(TreeSearch(view, table_mb=BIG, core="compiled"), TreeSearch(view, table_mb=BIG, core="python"))
                for view in views]
    compared = 0
    while pos.outcome() is None:
        moves = pos.legal_moves()
        if len(moves) > 1:
            for compiled, python in searches:
                got = compiled.values(pos)
                assert got == python.values(pos), [str(m) for m, *_ in pos.history]
                # below its bound the compiled table loses nothing: the very same search
                assert compiled.nodes == python.nodes
                compared += len(got)
        pos.push(rng.choice(moves))
    return compared


def compare_family(case, deals: int, seed) -> int:
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rng = random.Random(f"{seed}{name}{sorted(options.items())}")
    return sum(compare_line(variant, rng, size, lead, sleepers) for _ in range(deals))


@built
@pytest.mark.parametrize("case", ARMS, ids=_id)
def test_cores_agree_on_every_alternative_of_random_hands(case):
    assert compare_family(case, 6, "normal") > 20


@built
@pytest.mark.parametrize("case", OTHERS, ids=_id)
def test_the_core_changes_nothing_where_no_arms_are_searched(case):
    assert compare_family(case, 4, "others") > 10



def turn_bounds(pos, rules) -> tuple[int, int, bool]:
    """``(low, high, tighter)``: the bounds the search over arms (``_ArmDeal.bounds``) puts on the value
    of ``pos``, and whether they are tighter than the pips held alone."""
    deal = _ArmDeal(TreeSearch(rules, core="python"), pos.n, hand_leader(pos), pos.layout, pos.max_pip)
    arms = tuple(sorted((a.number << 2) | _STATE_CODE[a.state] for a in pos.arms))
    high, low = deal.bounds(tuple(pos.hands), arms, pos.turn)
    side0 = sum(pos.pips(s) for s in range(pos.n) if rules.seating.teams[s] == 0)
    side1 = sum(pos.pips(s) for s in range(pos.n) if rules.seating.teams[s] == 1)
    held = (-side0 - side1, side0 + side1) if arms_scoring(rules) == (0, 1) else (-side0, side1)
    return low, high, (low, high) != held


# the standard scorings, the losers' pips (the rules' own) and every pip left, on deals small enough
# for the plain minimax (tiles a seat; the double-nine cross with sleepers fills its spinner from 10)
BOUNDED = [(name, options, size, lead, sleepers, count)
         for (name, options, _, lead, sleepers), size in zip(ARMS[1:], (3, 2, 3, 2)) for count in ("losers", "all")]


@pytest.mark.parametrize("case", BOUNDED, ids=lambda case: _id(case) + "-" + case[5])
def test_the_bounds_of_the_tile_played_now_hold_the_minimax_value_of_random_states(case):
    """The player to move must play one of his playable tiles: the pips held drop by the lightest at
    least, and his last tile wins the hand for his side (checked against plain minimax)."""
    name, options, size, lead, sleepers, count = case
    variant = dataclasses.replace(find_variant(name, options), scoring=HandScoring(count))
    assert arms_scoring(variant) == (0, int(count == "all"))
    rng = random.Random(f"bounds{name}{sorted(options.items())}{count}")
    checked = tighter = 0
    while checked < 300:
        pos = small_deal(variant, rng, size, lead, sleepers)
        while pos.outcome() is None:
            if pos.arms and not pos.drawable() and pos.playable_mask(pos.turn):    # (the search over arms)
                low, high, sharper = turn_bounds(pos, variant)
                value = reference(pos, variant)
                assert low <= value <= high, ([str(m) for m, *_ in pos.history], low, value, high)
                checked += 1
                tighter += sharper
            pos.push(rng.choice(pos.legal_moves()))
    assert tighter >= 100


def test_a_side_that_surely_goes_out_first_leaves_the_other_nothing_to_win():
    """Seat 1 (side 1) to move holds one tile that fits an arm: it goes out now, so side 0 wins
    nothing (its bound is 0), and side 1 wins at most side 0's pips."""
    variant = find_variant("cross", {"sleepers": "no"})
    pos = small_deal(variant, random.Random(3), 6, Tile(6, 6))
    while pos.outcome() is None and not (pos.count(pos.turn) == 1 and variant.seating.teams[pos.turn] == 1
                                          and pos.arms and not pos.drawable() and pos.playable_mask(pos.turn)):
        pos.push(max(pos.legal_moves(), key=lambda m: (m.tile is not None, m.tile.pips if m.tile else 0)))
    assert pos.outcome() is None, "the line never left seat 1 or 3 a single playable tile"
    low, high, _ = turn_bounds(pos, variant)
    side0 = pos.pips(0) + pos.pips(2)
    assert high == 0 and low == -side0 == reference(pos, variant)

# records a family in the slow test: (with a tile less a seat, whole small deals); about 50 s in all
MANY = {"french": (1000, 75), "cross": (1000, 500), "cross-sleepers=no": (1000, 500),
        "cross-set=9-sleepers=no": (200, 8), "cross-set=9": (200, 8),
        "draw-players=2": (500, 50), "all-fives-draw=no": (500, 50),
        "all-fives-threes-draw=one-count=pub": (500, 50)}


@built
@pytest.mark.slow
def test_cores_agree_on_thousands_of_random_hands():
    compared = 0
    for case in ARMS + OTHERS:
        name, options, size, lead, sleepers = case
        short, whole = MANY[_id(case)]
        compared += compare_family((name, options, size - 1, lead, sleepers), short, "many-short")
        compared += compare_family(case, whole, "many")
    assert compared > 10_000


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
@pytest.mark.parametrize("case", ARMS, ids=_id)
def test_both_cores_equal_plain_minimax_on_small_deals(case, core):
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rng = random.Random(f"minimax{name}{sorted(options.items())}")
    checked = 0
    for _ in range(4):
        pos = small_deal(variant, rng, min(size, 3) - (sleepers > 0), lead, sleepers)
        for seat in range(variant.players if variant.seating.sides > 2 else 1):
            rules = rules_for(variant, seat)
            while pos.outcome() is None and len(pos.history) < 6:
                assert dict(TreeSearch(rules, core=core).values(pos)) == reference_values(pos, rules)
                checked += 1
                pos.push(rng.choice(pos.legal_moves()))
            while len(pos.history) > 1:
                pos.pop()
    assert checked >= 8


def padded(pos):
    """``pos`` with open arms added that cannot matter to the rest of the hand: one of a number no
    held tile has, and one more of every number with at least as many open arms as held tiles (each
    of them takes at most one arm of it, so one is always left for each)."""
    held = 0
    for h in pos.hands:
        held |= h
    tiles = [t for t in tile_set(pos.max_pip) if held & t.bit]
    extra = []
    for k in range(pos.max_pip + 1):
        need = sum(t.matches(k) for t in tiles)
        have = sum(a.number == k and a.state == "open" for a in pos.arms)
        if need == 0 and not extra:
            extra.append(Arm(k, "open"))
        elif need and have >= need:
            extra.append(Arm(k, "open"))
    out = pos.copy()
    out.arms = tuple(pos.arms) + tuple(extra)
    out.ends = tuple(a.number for a in out.arms)
    return out, len(extra)


def arm_states(variant, rng, size: int, lead: Tile, sleepers: int, count: int):
    """``count`` random states of ``variant`` where the search over arms takes over (the spinner
    filled, the player to move can play), from small deals played at random."""
    found = 0
    while found < count:
        pos = small_deal(variant, rng, size, lead, sleepers)
        while pos.outcome() is None and found < count:
            if all(a.state == "open" for a in pos.arms) and not pos.drawable() and pos.playable_mask(pos.turn):
                found += 1
                yield pos.copy()
            pos.push(rng.choice(pos.legal_moves()))


# the layouts whose arms open (French arms wait for their double first)
OPENING = [case for case in ARMS if case[0] == "cross"]


@pytest.mark.parametrize("case", OPENING, ids=_id)
def test_arms_no_held_tile_can_use_do_not_change_the_value(case):
    """An arm of a number nobody holds, or more arms of a number than the held tiles with it, change
    nothing: the plain minimax of the rules' own positions says so, and the search gives it."""
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rng = random.Random(f"padded{name}{sorted(options.items())}")
    added = 0
    for pos in arm_states(variant, rng, min(size, 3) - (sleepers > 0), lead, sleepers, 40):
        more, n = padded(pos)
        value = reference(pos, variant)
        assert reference(more, variant) == value, pos
        for core in ("python", "compiled") if arms_core() else ("python",):
            assert TreeSearch(variant, core=core).solve(more) == value, (core, more)
        added += n
    assert added >= 40


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_states_alike_but_for_arms_nobody_can_use_share_a_table_entry(core):
    """Once a state of the double-nine cross is searched, the same state with arms no held tile can
    use costs no search: it is the same table entry (as many positions as asking the state again)."""
    variant = find_variant("cross", {"set": "9", "sleepers": "no"})
    checked = 0
    for pos in arm_states(variant, random.Random("alike"), 5, Tile(9, 9), 0, 30):
        more, _ = padded(pos)
        search = TreeSearch(variant, core=core)
        value = search.solve(pos)
        first = search.nodes
        assert search.solve(pos) == value
        again = search.nodes
        assert search.solve(more) == value
        assert search.nodes == again < first, (pos, first, again, search.nodes)
        checked += first > 10
    assert checked >= 10


def limit_stops_both_cores(variant, pos, least: int) -> None:
    """A node limit of exactly the positions the values of ``pos`` need (more than ``least``) gives
    them in both cores; one fewer stops both."""
    counting = TreeSearch(variant, core="python")
    values = counting.values(pos)
    needed = counting.nodes
    assert needed > least and len(values) > 1
    for core in ("compiled", "python"):
        assert TreeSearch(variant, needed, core=core).values(pos) == values
        with pytest.raises(SearchLimit):
            TreeSearch(variant, needed - 1, core=core).values(pos)


@built
def test_the_node_limit_stops_both_cores_at_the_same_place():
    variant = find_variant("cross", {"sleepers": "no"})
    limit_stops_both_cores(variant, small_deal(variant, random.Random(0), 6, Tile(6, 6)), 1000)


@built
def test_a_small_table_replaces_entries_and_keeps_values_exact():
    variant = find_variant("french")
    pos = small_deal(variant, random.Random(5), 5, Tile(0, 0))
    rules = AgainstTheRest(variant, 1)
    python = TreeSearch(rules, core="python")
    expected = python.values(pos)
    small = TreeSearch(rules, table_mb=0.01, core="compiled")
    assert small.values(pos) == expected
    entries, nbytes = small.table_size()
    assert 0 < nbytes <= 0.01 * 2**20 and entries * ARMS_ENTRY_BYTES <= nbytes
    assert (deal := next(iter(small._arm_deals.values()))).core.replaced > 0, deal
    assert python.table_size()[0] > entries     # the Python table, far below its bound, kept every entry


class _Watched(TreeSearch):
    """A search that notes the most entries its pure-Python tables held together whenever one was full."""

    most = 0

    def _full(self, holder) -> None:
        self.most = max(self.most, sum(len(t.tt) for t in self._python_tables()))
        super()._full(holder)


# a French hand (the arms), the double-nine cross filling its spinner from the sleepers (the general
# search's own table, then the arms), a draw game (the compact draw search)
SHARED = [("french", {}, 5, Tile(0, 0), 0), ("cross", {"set": "9"}, 6, Tile(9, 9), 12),
          ("draw", {"players": "2"}, 7, Tile(6, 6), 8)]


@pytest.mark.parametrize("case", SHARED, ids=_id)
def test_the_pure_python_tables_share_the_table_bound(case):
    """All the pure-Python tables of a search together hold no more than ``table_mb`` allows (at
    PY_ENTRY_BYTES an entry), and a search that had to empty them gives the values of one that did not."""
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rules = rules_for(variant, 1)
    rng = random.Random(f"shared{name}")
    pos = small_deal(variant, rng, size, lead, sleepers)
    mb = 60 * PY_ENTRY_BYTES / 2**20
    small, big = _Watched(rules, table_mb=mb, core="python"), TreeSearch(rules, core="python")
    assert small.py_entries == 60
    decisions = 0
    while pos.outcome() is None:
        if len(pos.legal_moves()) > 1:
            assert small.values(pos) == big.values(pos), pos
            assert small.table_size()[0] <= 60
            decisions += 1
        pos.push(rng.choice(pos.legal_moves()))
    assert decisions >= 3 and 0 < small.most <= 60
    assert big.table_size()[0] > 4 * 60        # the bound made the small one start again


class _Valued(Variant):
    """A value of its own: no description knows it."""

    def value(self, facts):
        return 2 * super().value(facts)


def _valued(variant):
    return _Valued(**{f: getattr(variant, f) for f in variant.__dataclass_fields__})


def test_the_scorings_the_compiled_search_writes():
    assert arms_scoring(find_variant("cross")) == (0, 0)                     # the losers' pips
    assert arms_scoring(find_variant("cross", {"set": "9"})) == (0, 0)
    assert arms_scoring(AgainstTheRest(find_variant("french"), 2)) == (1, 1)  # bad points, doubled
    described = dataclasses.replace(find_variant("cross"), scoring=PointScoring("difference"))
    assert arms_scoring(described) == (3, 0)                                 # computed from its description
    assert arms_scoring(_valued(find_variant("cross"))) == (2, 0)
    assert arms_note(find_variant("cross"), "python") is None and arms_note(described, "python") is None


@built
def test_a_described_scoring_is_computed_in_c_exactly():
    described = dataclasses.replace(find_variant("cross", {"sleepers": "no"}), scoring=PointScoring("difference"))
    assert arms_note(described, "compiled") is None
    rng = random.Random(9)
    assert sum(compare_line(described, rng, 4, Tile(6, 6), 0) for _ in range(4)) > 10
    # each player against the rest, a point a game (the view of one seat is described too)
    game = dataclasses.replace(find_variant("french"), scoring=PointScoring("game"))
    assert arms_scoring(AgainstTheRest(game, 1)) == (3, 0)
    assert sum(compare_line(game, rng, 3, Tile(0, 0), 0) for _ in range(3)) > 10


@built
def test_a_scoring_it_does_not_write_is_asked_of_python_exactly():
    other = _valued(find_variant("cross", {"sleepers": "no"}))
    assert "asks Python" in arms_note(other, "compiled") and arms_note(find_variant("cross"), "compiled") is None
    rng = random.Random(9)
    assert sum(compare_line(other, rng, 4, Tile(6, 6), 0) for _ in range(4)) > 10


@pytest.mark.skipif(os.environ.get("DOMINO_REQUIRE_COMPILED") != "1", reason="only where the core must be built (CI)")
def test_the_compiled_search_over_arms_is_built_and_used():
    assert arms_core() is not None and ARMS_CORE == "compiled"


def test_the_environment_chooses_the_pure_python_search_over_arms():
    root = Path(analyzer.__file__).resolve().parent.parent
    code = "import analyzer.search.core as c; print(c.ARMS_CORE, c.cores_text())"
    env = dict(os.environ, **{PURE_ENV: "1"}, PYTHONPATH=str(root))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=root)
    assert out.stdout.split() == ["python", "python"], out.stderr


def test_the_core_of_the_search_over_arms_is_named():
    assert ARMS_CORE in ("compiled", "python") and resolve_arms(None) == ARMS_CORE
    assert TreeSearch(find_variant("cross")).core == ARMS_CORE
    assert ARMS_CORE in cores_text()
    with pytest.raises(ValueError):
        TreeSearch(find_variant("cross"), table_mb=0)
    with pytest.raises(ValueError):
        resolve_arms("fast")


@built
def test_the_analysis_of_records_is_the_same_with_either_core(monkeypatch):
    (rep,) = replay_record(read(RECORDS / "variant-cross-sleepers-no.dom"))
    compiled = analyze_replay(rep)
    monkeypatch.setattr("analyzer.search.core.ARMS_CORE", "python")
    python = analyze_replay(rep)
    assert compiled.values == python.values and None not in compiled.values
    assert [[(a.move, a.value) for a in d.alternatives] for d in compiled.decisions] == \
        [[(a.move, a.value) for a in d.alternatives] for d in python.decisions]


class _Failing:
    """Cross domino whose scoring fails on a blocked hand: an error the compiled search must pass on."""

    def __init__(self, variant):
        self.variant = variant
        self.seating = variant.seating
        self.play = None

    def value(self, facts):
        if facts.termination == "blocked":
            raise ZeroDivisionError("no value for a blocked hand")
        return self.variant.value(facts)


@built
def test_an_error_in_a_python_leaf_value_reaches_the_caller():
    variant = find_variant("cross", {"sleepers": "no"})
    rules = _Failing(variant)
    assert arms_scoring(rules) == (2, 0)
    pos = small_deal(variant, random.Random(0), 6, Tile(6, 6))
    with pytest.raises(ZeroDivisionError):
        TreeSearch(rules, core="compiled").values(pos)
    with pytest.raises(ZeroDivisionError):
        TreeSearch(rules, core="python").values(pos)


def test_a_table_of_a_few_entries_still_bounds_the_pure_python_search():
    """Even a bound of four entries holds (the tables start again rather than grow one by one)."""
    variant = find_variant("french")
    rules = rules_for(variant, 0)
    pos = small_deal(variant, random.Random(11), 4, Tile(0, 0))
    tiny = _Watched(rules, table_mb=4 * PY_ENTRY_BYTES / 2**20, core="python")
    assert tiny.py_entries == 4
    assert tiny.values(pos) == TreeSearch(rules, core="python").values(pos)
    assert 0 < tiny.most <= 4 and tiny.table_size()[0] <= 4


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_the_analysis_names_a_full_table_of_the_search_over_arms(core, monkeypatch):
    """Where the node limit stops the analysis of a French hand, it says the tables were full only when
    they were: with a table too small for the search, not with one that holds every position the
    analysis visits (each search past the limit of 5,000 stores at most that many: the small table holds
    about 260 of the pure-Python search's entries, 1,100 of the compiled one's)."""
    from analyzer.match import random_match
    import analyzer.search.core as search_core

    monkeypatch.setattr(search_core, "ARMS_CORE", core)
    (rep,) = replay_record(random_match(find_variant("french"), 1000, games=1))
    small = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(5_000, 0.05)))
    assert None in small.values and "0.05 MB in all, were full" in small.stopped
    roomy = analyze_replay(rep, AnalysisSettings(budget=SearchBudget(5_000, 512)))
    assert None in roomy.values and "node limit" in roomy.stopped and "--table-mb" not in roomy.stopped


class _ScoredDraw(PointScoring):        # a draw game's scoring the compiled search does not know: asked of Python
    pass


def _dropped_search_cases():
    cases = []
    for label, variant, lead, yard in [
            ("french", find_variant("french"), Tile(0, 0), 0),
            ("cross-python-leaves", _valued(find_variant("cross", {"sleepers": "no"})), Tile(6, 6), 0),
            ("draw", find_variant("draw", {"players": "2"}), Tile(6, 6), 6),
            ("draw-python-leaves", dataclasses.replace(find_variant("draw", {"players": "2"}),
                                                       scoring=_ScoredDraw("difference")), Tile(6, 6), 6)]:
        for core in ("compiled", "python"):
            cases.append(pytest.param(variant, lead, yard, core, id=f"{label}-{core}"))
    return cases


@pytest.mark.parametrize("variant, lead, yard, core", _dropped_search_cases())
def test_a_dropped_search_frees_its_tables_at_once(variant, lead, yard, core):
    """A search holds its deals (and a compiled deal its C table); nothing holds the search back, so
    dropping it frees all of it at once, with no collection of cycles: the fair analysis makes a search
    for every world and must hold one table at a time, not one a world."""
    if core == "compiled" and (arms_core() is None or draw_core() is None):
        pytest.skip("the compiled searches were not built (no C compiler)")
    rng = random.Random(5)
    pos = small_deal(variant, rng, 4, lead, yard)
    while len(pos.legal_moves()) < 2:           # a decision (a deal with none: the next one)
        pos = small_deal(variant, rng, 4, lead, yard) if pos.outcome() is not None else pos
        if len(pos.legal_moves()) == 1:
            pos.push(pos.legal_moves()[0])
    search = TreeSearch(rules_for(variant, pos.turn), core=core)
    gc.disable()
    try:
        search.values(pos)
        deals = search._deals()
        assert deals, "the search went on in a compact state"
        refs = [weakref.ref(search)] + [weakref.ref(d) for d in deals]
        del search, deals
        assert [r() for r in refs] == [None] * len(refs)
    finally:
        gc.enable()


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
@pytest.mark.parametrize("case", ARMS, ids=_id)
def test_one_search_over_many_deals_keeps_its_arms_table_and_each_deal_its_values(case, core):
    """The fair analysis solves the worlds of a decision with one search (``analysis.fair``): the table of
    its search over arms is kept from deal to deal (its state is every hand, the arms and the seat),
    and each deal still gets the values of a plain minimax and of a search of its own."""
    name, options, size, lead, sleepers = case
    variant = find_variant(name, options)
    rng = random.Random(f"many deals{name}{sorted(options.items())}")
    rules = rules_for(variant)
    shared = TreeSearch(rules, core=core)
    checked = kept = deals = 0
    while (checked < 8 or kept < 4) and deals < 60:
        deals += 1
        pos = small_deal(variant, rng, min(size, 3) - (sleepers > 0), lead, sleepers)
        before, searched = dict(shared._arm_deals), False        # what the earlier deals left
        while pos.outcome() is None:
            if len(pos.legal_moves()) > 1:
                got = dict(shared.values(pos))
                assert got == reference_values(pos, rules) == dict(TreeSearch(rules, core=core).values(pos))
                checked += 1
                searched = True
            pos.push(rng.choice(pos.legal_moves()))
        # a search over arms made for an earlier deal served this one too, table and all
        kept += searched and any(shared._arm_deals.get(sig) is deal and (len(deal.tt) if deal.python_table else deal.core.used)
                    for sig, deal in before.items())
    assert checked >= 8 and kept >= 4
