"""The compiled search core against the pure-Python one: the same value for every alternative at
every decision, a bounded table, the core chosen by the environment and named by ``--version``."""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner

import analyzer

from analyzer.analysis import AgainstTheRest, Decision, analyze, analyze_replay, int_solver_plays
from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.position import Position
from analyzer.rules import find_variant
from analyzer.rules.policies import HandFacts
from analyzer.search import CORE, SearchLimit, Solver, TreeSearch
from analyzer.search.block import core_note
from analyzer.search.scoring import standard_scoring
from analyzer.search.core import ENTRY_BYTES, PURE_ENV, PY_ENTRY_BYTES, compiled_core
from analyzer.codec import from_data, to_data
from conftest import RECORDS
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

# the directory of the analyzer package these tests import (a source tree or an installed copy)
ROOT = Path(analyzer.__file__).resolve().parent.parent
built = pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")

# every scoring the int solver plays: the two the core writes inline, the rest through Python's leaf values
CASES = [
    ("partnership", {}), ("partnership", {"score": "all"}), ("partnership", {"divide": "10"}),
    ("partnership", {"blank": "50"}), ("partnership", {"system": "milo"}),
    ("partnership", {"capicu": "yes", "chuchazo": "any", "score": "all"}),
    ("partnership", {"tie": "own-pips"}), ("partnership", {"block": "last-or-right"}),
    ("partnership", {"pass-bonus": "yes"}), ("partnership", {"pass-bonus": "yes", "tie": "replay"}),
    ("whist", {}), ("jamaican", {}), ("chiva", {}), ("block", {}),
    ("cutthroat", {"players": "2"}), ("cutthroat", {"players": "3"}), ("cutthroat", {"players": "4"}),
]


def _id(case):
    return case if isinstance(case, str) else ",".join(f"{k}={v}" for k, v in case.items()) or "default"


def _deal(variant, rng, size):
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    n = variant.players
    return [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)], rng.randrange(n)


def compare_records(variant, records: int, size: int, seed) -> int:
    """Play random records of ``size`` tiles a hand; at every decision of each, for each view
    (two sides, or each player against the rest), the two cores give the same value to every
    alternative. Returns the alternatives compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(records):
        hands, leader = _deal(variant, rng, size)
        views = ([variant] if variant.seating.sides == 2
                 else [AgainstTheRest(variant, seat) for seat in range(variant.players)])
        solvers = [(Solver(view, core="compiled"), Solver(view, core="python")) for view in views]
        pos = Position(hands, leader, max_pip=variant.dealing.max_pip)
        while (moves := pos.legal_moves()):
            if len(moves) > 1:
                for compiled, python in solvers:
                    got = compiled.values(pos)
                    assert got == python.values(pos), (hands, leader, [str(m) for m, *_ in pos.history])
                    compared += len(got)
            pos.push(rng.choice(moves))
    return compared


@built
@pytest.mark.parametrize("name,options", CASES, ids=_id)
def test_cores_agree_on_every_alternative(name, options):
    variant = find_variant(name, options)
    # a scoring the core does not write inline has no pip bounds: smaller hands keep the Python search quick
    size = 7 if standard_scoring(variant)[0] else (4 if variant.seating.sides == 4 else 5)
    assert compare_records(variant, 3, size, f"{name}{sorted(options.items())}") > 10


@built
def test_cores_agree_on_partnership_records():
    assert compare_records(find_variant("partnership"), 6, 7, 12) > 100


@built
@pytest.mark.slow
def test_cores_agree_on_thousands_of_records():
    partnership = find_variant("partnership")
    assert compare_records(partnership, 1000, 4, 1) > 2500      # short hands: many records
    assert compare_records(partnership, 15, 7, 2) > 250         # whole deals
    for name, options in CASES[1:]:
        variant = find_variant(name, options)
        compare_records(variant, 60, 4, f"many{name}{sorted(options.items())}")


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_a_small_table_replaces_entries_and_keeps_values_exact(core):
    variant = find_variant("partnership")
    rng = random.Random(8)
    for _ in range(2):
        hands, leader = _deal(variant, rng, 7)
        pos = Position(hands, leader)
        big = Solver(variant, core=core)
        small = Solver(variant, core=core, table_mb=0.01)    # about 10 KB: far too small for a deal
        while (moves := pos.legal_moves()):
            assert small.values(pos) == big.values(pos)
            pos.push(rng.choice(moves))
        if core == "compiled":
            table = small._table
            assert table.max_entries * ENTRY_BYTES <= 0.01 * 2**20
            assert table.entries == table.max_entries and table.replaced > 0
        else:
            assert small.table_size()[1] <= 0.01 * 2**20


def test_the_pure_python_deals_share_the_table_bound():
    """As the compiled deals share one table, a pure-Python deal may take the whole bound (not a
    quarter of it: that ran out of positions on a bundled Cut Throat game), the deals together
    never more; a table with room for a deal's states searches exactly the states of an unbounded one."""
    variant = find_variant("partnership")
    rng = random.Random(12)
    deals = [_deal(variant, rng, 7) for _ in range(3)]
    free = Solver(variant, core="python", table_mb=1e6)
    values = free.values(Position(*deals[0]))
    needed = free.table_size()[0]
    budget_mb = 2 * needed * PY_ENTRY_BYTES / 2**20       # room for the deal twice over, half per deal of 4
    shared = Solver(variant, core="python", table_mb=budget_mb)
    assert shared.values(Position(*deals[0])) == values
    assert shared.nodes == free.nodes and shared.table_size()[0] == needed
    for hands, leader in deals[1:] + deals[:1]:
        pos = Position(hands, leader)
        for _ in range(3):
            shared.values(pos)
            assert shared.table_size()[1] <= budget_mb * 2**20
            pos.push(pos.legal_moves()[0])


@pytest.mark.skipif(os.environ.get("DOMINO_REQUIRE_COMPILED") != "1", reason="only where the core must be built (CI)")
def test_the_compiled_core_is_built_and_used():
    assert compiled_core() is not None and CORE == "compiled"


def test_table_size_must_be_positive_and_finite():
    # (1e30 once reached the compiled table as a slot count that wrapped round, and crashed it)
    for size in (0, -1, float("nan"), float("inf"), 1e30):
        with pytest.raises(ValueError, match="above 0 and at most"):
            Solver(find_variant("partnership"), table_mb=size)
        with pytest.raises(ValueError, match="above 0 and at most"):
            TreeSearch(find_variant("cross"), table_mb=size)


@built
def test_deal_ids_run_out_and_the_table_starts_again():
    """A table names its deals with 16-bit ids; past the last one it is emptied and every deal takes a
    new id before it searches again, so an entry of one deal is never read for another."""
    variant = find_variant("partnership")
    core = compiled_core()
    table = core.Table(4096)
    hands, leader = _deal(variant, random.Random(3), 7)
    pos = Position(hands, leader)
    pos.push(pos.legal_moves()[0])
    solver = Solver(variant, core="python")
    want = solver.solve(pos)
    deal = solver._deal(pos)
    K, e = deal.set_state(pos)
    sign = deal.sign[pos.turn]
    first = core.BlockDeal(table, 4, 6, deal.side, deal.dealt, 0, None)
    assert sign * first.mtdf(deal.hands, deal.pips, K, e, pos.turn, -core.INF, core.INF) == want
    assert table.used > 0
    for _ in range(70000):      # a different deal each time would need other hands: the same hands do
        core.BlockDeal(table, 4, 6, deal.side, deal.dealt, 0, None)
    assert table.used == 0      # emptied when the ids ran out
    assert sign * first.mtdf(deal.hands, deal.pips, K, e, pos.turn, -core.INF, core.INF) == want


@built
def test_an_error_in_a_leaf_value_reaches_the_caller():
    class Broken(type(find_variant("whist"))):
        def value(self, facts: HandFacts) -> int:
            raise ZeroDivisionError("a scoring that fails")

    whist = find_variant("whist")
    variant = Broken(**{f: getattr(whist, f) for f in whist.__dataclass_fields__})
    hands, leader = _deal(variant, random.Random(4), 7)
    with pytest.raises(ZeroDivisionError, match="a scoring that fails"):
        Solver(variant, core="compiled").solve(Position(hands, leader))


def test_the_environment_chooses_the_pure_python_core():
    code = "import analyzer.search as s; print(s.CORE)"
    env = dict(os.environ, **{PURE_ENV: "1"}, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "python", out.stderr
    env[PURE_ENV] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == ("compiled" if compiled_core() is not None else "python")
    assert Solver(find_variant("partnership")).core == CORE


def test_version_names_the_core():
    out = CliRunner().invoke(main, ["--version"]).output
    assert f"search core: {CORE}" in out


def test_analyze_takes_a_table_size():
    path = str(RECORDS / "seed1-table.txt")
    small = CliRunner().invoke(main, ["analyze", "--json", "--table-mb", "1", path])
    default = CliRunner().invoke(main, ["analyze", "--json", path])
    # (the book's record breaks the rules from round 7: exit status 1 either way)
    assert small.exit_code == default.exit_code == 1 and small.output == default.output
    assert '"critical"' in small.output
    bad = CliRunner().invoke(main, ["analyze", "--table-mb", "0", path])
    assert bad.exit_code == 2 and "--table-mb" in bad.output


def test_the_analysis_says_when_the_core_asks_python_for_the_scoring():
    assert standard_scoring(find_variant("partnership"))[0] and core_note(find_variant("partnership")) is None
    # a point a game is computed in the core too (analyzer/search/scoring.py): no note
    jamaican = read(RECORDS / "match-jamaican.dom")
    assert "asks Python" not in (analyze(jamaican)[0].note or "")

    class Valued(type(find_variant("jamaican"))):      # a value the core cannot know
        def value(self, facts: HandFacts) -> int:
            return 2 * super().value(facts)

    base = find_variant("jamaican")
    valued = Valued(**{f: getattr(base, f) for f in base.__dataclass_fields__})
    assert core_note(valued, "python") is None
    if CORE == "compiled":
        assert "asks Python" in core_note(valued)


# -- the node limit: both cores count the same states and stop at the same call --------------------
def _line(path, game=0):
    """The replay of a real record's game and the position before each move of its legal prefix."""
    rep = list(replay_record(read(path)))[game]
    pos, out = rep.initial.copy(), []
    for step in rep.steps[:rep.legal_prefix]:
        if pos.outcome() is not None:
            break
        out.append(pos.copy())
        pos.push(step.move)
    return rep, out


@built
def test_both_cores_count_the_same_states_and_the_limit_bounds_each_call_exactly():
    rep, positions = _line(RECORDS / "seed2.dom")
    tried = 0
    for pos in positions:
        counts = {}
        for core in ("compiled", "python"):
            solver = Solver(rep.variant, core=core)
            values = solver.values(pos)
            counts[core] = solver.nodes
            if solver.nodes == 0:       # every move ends the hand: nothing searched
                continue
            tried += 1
            # exactly as many states as the call needs: the same values; one fewer: the search stops
            assert Solver(rep.variant, core=core, node_limit=solver.nodes).values(pos) == values
            with pytest.raises(SearchLimit, match=f"more than {solver.nodes - 1:,} positions"):
                Solver(rep.variant, core=core, node_limit=solver.nodes - 1).values(pos)
        assert counts["compiled"] == counts["python"]
    assert tried > 20


@built
@pytest.mark.parametrize("record,game", [("seed2.dom", 0), ("match-jamaican.dom", 1)])
def test_both_cores_leave_out_the_same_values(record, game):
    rep, _ = _line(RECORDS / record, game)
    for limit in (300, 2000, 10000):
        compiled, python = (analyze_replay(rep, searches={0: Solver(rep.variant, core=core, node_limit=limit)})
                            for core in ("compiled", "python"))
        assert compiled.values == python.values and compiled.stopped == python.stopped
        assert [to_data(d) for d in compiled.decisions] == [to_data(d) for d in python.decisions]


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_a_small_node_limit_leaves_out_only_the_values_past_it_and_names_them(core):
    rep, _ = _line(RECORDS / "seed2.dom")
    full = analyze_replay(rep, searches={0: Solver(rep.variant, core=core)})
    part = analyze_replay(rep, searches={0: Solver(rep.variant, core=core, node_limit=2000)})
    assert full.stopped is None and None not in full.values
    assert "more than 2,000 positions (the node limit, --max-nodes) at move" in part.stopped
    assert "so the values there are missing" in part.stopped and "; the others are given" in part.stopped
    assert "--table-mb" not in part.stopped         # (the table was far from full)
    missing = [k for k, v in enumerate(part.values) if v is None]
    assert missing and len(missing) < len(part.values)
    # every value given is the exact one, and each move left out is named
    assert all(v == full.values[k] for k, v in enumerate(part.values) if v is not None)
    assert all(f" {rep.steps[k].index + 1}" in part.stopped for k in missing)
    given = {d.index for d in part.decisions if not d.unsolved}
    assert [to_data(d) for d in full.decisions if d.index in given] == \
        [to_data(d) for d in part.decisions if not d.unsolved]


class _Refuses(Solver):
    """A solver whose search runs past its node limit on the positions after ``moves`` moves only."""

    def __init__(self, variant, moves: set[int]) -> None:
        super().__init__(variant)
        self.refused = moves

    def _refuse(self, pos) -> None:
        if len(pos.history) in self.refused:
            raise SearchLimit("more than 0 positions")

    def values(self, pos):
        self._refuse(pos)
        return super().values(pos)

    def solve(self, pos):
        self._refuse(pos)
        return super().solve(pos)


@pytest.mark.parametrize("record", ["seed1-table.txt", "seed2.dom"])
def test_a_decision_past_the_node_limit_leaves_out_its_own_values_only(record):
    """The values are searched from the end of the hand back, each step on its own budget: an earlier
    decision may need far fewer positions than a later one (in the double-nine cross, a seat that drew
    many sleepers moves later), so it is still valued."""
    rep, positions = _line(RECORDS / record)
    full = analyze_replay(rep)
    chosen = [k for k, pos in enumerate(positions) if len(pos.legal_moves()) > 1]
    refused = {len(positions[chosen[-2]].history), len(positions[chosen[-4]].history)}
    part = analyze_replay(rep, searches={0: _Refuses(rep.variant, refused)})
    lost = [k for k in range(len(full.values)) if part.values[k] is None]
    assert lost == sorted(k for k in (chosen[-2], chosen[-4]))
    assert [v for k, v in enumerate(full.values) if k not in lost] == [v for v in part.values if v is not None]
    assert {d.index for d in full.decisions} - {d.index for d in part.decisions} == \
        {rep.steps[chosen[-2]].index, rep.steps[chosen[-4]].index}
    moves = sorted(rep.steps[k].index + 1 for k in lost)
    assert f"at moves {moves[0]} and {moves[1]}, so the values there are missing; the others are given" \
        in part.stopped
    # the decisions before the refused ones are valued: the first decision of the hand among them
    assert to_data(part.decisions[0]) == to_data(full.decisions[0])


@pytest.mark.parametrize("core", [pytest.param("compiled", marks=built), "python"])
def test_a_full_table_is_named_where_the_node_limit_stops_the_analysis(core):
    """A table too small for the search gives up entries, so the search needs more positions: where
    the node limit then stops it, the analysis says that a larger table may help too."""
    rep, _ = _line(RECORDS / "seed2.dom")
    small = Solver(rep.variant, core=core, table_mb=0.001, node_limit=20_000)
    part = analyze_replay(rep, searches={0: small})
    assert small.table_full and None in part.values
    assert "node limit" in part.stopped and "0.001 MB in all, were full" in part.stopped
    assert "--table-mb may help too" in part.stopped


def test_analyze_and_report_bound_two_ended_games_by_the_node_limit(tmp_path):
    path = str(RECORDS / "seed2.dom")
    res = CliRunner().invoke(main, ["analyze", path, "--max-nodes", "2000"])
    assert res.exit_code == 0, res.output
    assert "more than 2,000 positions (the node limit, --max-nodes)" in res.output
    res = CliRunner().invoke(main, ["analyze", "--json", path, "--max-nodes", "2000"])
    (game,) = json.loads(res.output)["games"]
    assert "node limit" in game["stopped"] and game["values"][0] is None and game["values"][-1] is not None
    page = tmp_path / "seed2.html"
    res = CliRunner().invoke(main, ["report", path, "--max-nodes", "2000", "-o", str(page)])
    assert res.exit_code == 0, res.output
    assert "more than 2,000 positions (the node limit, --max-nodes)" in page.read_text()
    assert "--max-nodes" in CliRunner().invoke(main, ["report", "--help"]).output


@pytest.mark.slow
def test_with_the_default_limit_nothing_is_left_out_of_the_bundled_two_ended_records():
    analysed = 0
    for path in sorted(RECORDS.glob("*.dom")):
        for rep in replay_record(read(path)):
            if not int_solver_plays(rep.variant):
                continue
            analysis = analyze_replay(rep)
            assert "node limit" not in (analysis.stopped or ""), (path.name, analysis.stopped)
            analysed += 1
    assert analysed > 20


@pytest.mark.parametrize("record,limit,core", [pytest.param("seed2.dom", 2000, "compiled", marks=built),
                                               ("seed2.dom", 2000, "python"), ("variant-cross.dom", 3000, None)])
def test_a_decision_past_the_node_limit_keeps_the_moves_it_valued(record, limit, core):
    """The search values the moves of a decision one by one; where it runs past the limit, the moves
    valued before are given, exact, and the others within the bounds the search proved (each holding the
    exact value); a best move, loss and class only where the bounds prove them."""
    (rep,) = replay_record(read(RECORDS / record))
    if core is None:        # the general search (a layout with arms)
        full, part = analyze_replay(rep), analyze_replay(rep, AnalysisSettings(budget=SearchBudget(limit)))
    else:
        full = analyze_replay(rep, searches={0: Solver(rep.variant, core=core)})
        part = analyze_replay(rep, searches={0: Solver(rep.variant, core=core, node_limit=limit)})
    exact = {d.index: d for d in full.decisions}
    partial = [d for d in part.decisions if d.unsolved]
    assert partial and "each move of a decision there is given its exact value or the bounds" in part.stopped
    for d in partial:
        truth = exact[d.index]
        values = [a.value for a in d.alternatives]
        assert [a.move for a in d.alternatives] == [a.move for a in truth.alternatives]
        assert d.unsolved == values.count(None) and 0 < d.unsolved <= len(values)
        for a, t in zip(d.alternatives, truth.alternatives):
            assert a.value is None or a.value == t.value
            low, high = a.bounds or (None, None)
            assert (low is None or low <= t.value) and (high is None or t.value <= high)
            assert not a.best or t.best             # a best move named under bounds is an exact best
        assert d.best_value is None or d.best_value == truth.best_value
        assert d.loss is None or (d.loss == truth.loss and d.cls == truth.cls)
        assert part.values[next(k for k, st in enumerate(rep.steps) if st.index == d.index)] is None
        assert d.least_loss is None or 0 <= d.least_loss <= truth.loss
        assert d.played_value is None or d.played_value == truth.played_value
    assert part.critical is None or not part.critical.unsolved
    # as data: the same decision back from JSON (a worker, the cache)
    assert [from_data(Decision, to_data(d)) for d in partial] == partial


def test_the_commands_show_the_moves_a_decision_past_the_limit_valued():
    path = str(RECORDS / "seed2.dom")
    text = CliRunner().invoke(main, ["analyze", path, "--max-nodes", "2000"])
    data = CliRunner().invoke(main, ["analyze", path, "--max-nodes", "2000", "--json"])
    full = CliRunner().invoke(main, ["analyze", path, "--json"])
    assert text.exit_code == 0 and data.exit_code == 0
    exact = {d["index"]: d for d in json.loads(full.output)["games"][0]["decisions"]}
    partial = [d for d in json.loads(data.output)["games"][0]["decisions"] if d["unsolved"]]
    assert partial
    for d in partial:
        assert f"{d['unsolved']} of {len(d['alternatives'])} moves not valued exactly (the node limit)" in text.output
        assert d["loss"] is None or d["loss"] == exact[d["index"]]["loss"]
        for a in d["alternatives"]:     # a value, or bounds beside a null value, which the text marks
            assert (a["value"] is None) == ("bounds" in a)
            if "bounds" in a:
                lo, hi = (f"{b:+d}" if b else "0" for b in a["bounds"])
                assert f"[{lo}, {hi}]" in text.output
    assert any(d["loss"] is None for d in partial)


@built
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(3, 6), name=st.sampled_from(["partnership", "cutthroat"]))
def test_both_cores_count_the_same_positions_along_a_record(seed, size, name):
    # one solver a core for the whole record, as the analysis keeps it: at every decision the compiled
    # core (which values a decision's plays in one call, its table kept from decision to decision) and the
    # pure-Python search (a call per move) give every move the same value and search as many positions
    variant = find_variant(name, {"players": "2"} if name == "cutthroat" else {})
    rng = random.Random(seed)
    hands, leader = _deal(variant, rng, size)
    solvers = {core: Solver(variant, core=core) for core in ("compiled", "python")}
    pos = Position(hands, leader, max_pip=variant.dealing.max_pip)
    while (moves := pos.legal_moves()):
        if len(moves) > 1:
            got = {core: solver.values(pos) for core, solver in solvers.items()}
            assert got["compiled"] == got["python"]
            assert solvers["compiled"].nodes == solvers["python"].nodes
        pos.push(rng.choice(moves))
