"""The fair analysis's exact decisions under hidden information (analyzer.analysis.hiddenfair): ``analyze --fair``
values a small decision of a two-player game with the exact solver, and its values are the solver's."""
from __future__ import annotations

import builtins
import json
import os
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("scipy")

from analyzer.analysis import Thresholds, alternative_text  # noqa: E402
from analyzer.analysis.fair import FairRun, FairSettings, _decision_points, fair_analyze  # noqa: E402
from analyzer.analysis.hiddenfair import CFR_SHOWN  # noqa: E402
from analyzer.cli import main  # noqa: E402
from analyzer.hidden import MAX_DEALS, MAX_HAND, hidden_decision, public_game, public_stock_down  # noqa: E402
from analyzer.inference import world_position, worlds_at  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import read  # noqa: E402

RECORDS = Path(__file__).resolve().parents[1] / "records"
DRAW = RECORDS / "variant-draw.dom"             # the draw game for two: its last decision has 360 public worlds (6
#                                                 deals, each with every order of the 2 tiles still to draw)


def fair_json(path: Path, *extra: str) -> dict:
    res = CliRunner().invoke(main, ["analyze", "--fair", "--json", "--jobs", "1", str(path), *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["games"][0]


def in_bound(rep, k: int) -> bool:
    """Whether the decision at step ``k`` is within the solver's bound, counted apart from the wiring: every
    hand at most MAX_HAND tiles and at most MAX_DEALS deals by the public view; in a draw game, the worlds
    that leave the same hands and the same order of the tiles still to be drawn are one deal (listed where
    there are at most 100,000 worlds: the record's earlier decisions have millions, far beyond)."""
    pos = rep.position_at(k)
    if any(pos.count(s) > MAX_HAND for s in range(2)):
        return False
    worlds = worlds_at(rep, k)
    if rep.variant.drawing is None:
        return worlds.count <= MAX_DEALS
    if worlds.count > 100_000:
        return False
    distinct = set()
    for w in worlds:
        order = worlds.view.order(w)
        at = world_position(rep, worlds.view.deal(w), k, order)
        distinct.add((tuple(at.hands), tuple(order[len(order) - at.stock:len(order) - at.keep])))
    return len(distinct) <= MAX_DEALS


def test_a_small_decision_of_a_draw_game_has_the_solvers_values_and_a_verdict_from_them():
    game = fair_json(DRAW)
    (rep,) = replay_record(read(DRAW))
    hidden = [d for d in game["decisions"] if d["fair"] and d["fair"]["method"] == "exact-hidden"]
    assert hidden, "the draw game's last decision (3 and 2 tiles in hand) is within the bound"
    thresholds = Thresholds()
    for d in hidden:
        k = d["index"]
        pos = rep.position_at(k)
        deals, weights = public_game(rep, k)
        actual = next(p for p in deals if p.hands[pos.turn] == pos.hands[pos.turn])
        solved = hidden_decision(rep.variant, actual, deals, weights)      # (the LP over every order: its worlds)
        got = d["fair"]["hidden"]
        assert got["solver"] == "cfr"                   # (the tiles still to draw: the tree's draw nodes)
        low, up = got["bounds"]
        assert low - 1e-6 <= solved.value <= up + 1e-6 and up - low <= CFR_SHOWN * got["reach"] + 1e-6
        assert got["deals"] == d["fair"]["deals"] == len(public_stock_down(rep, k, 1000)[1]) < len(deals)
        by_text = {a["move"]: a["fair"]["mean"] for a in d["alternatives"]}
        for (move, value), (_, game_value) in zip(solved.hand_values(), solved.moves):
            text = alternative_text(move)
            assert by_text[text] == pytest.approx(value, abs=CFR_SHOWN)     # (to the precision shown)
            lo, hi = got["move_bounds"][text]
            assert lo - 1e-6 <= game_value <= hi + 1e-6
        # the verdict: the best has the best value for the mover, the loss is the gap, graded by the thresholds
        sign = 1 if d["side"] == 0 else -1
        best = max(by_text.values(), key=lambda v: sign * v)
        named = d["fair"]["best"] or d["fair"]["tied"][0]         # (tied: no best named, the first by the mean)
        assert sign * by_text[named] == pytest.approx(sign * best, abs=1e-4)
        played = next(a["move"] for a in d["alternatives"] if a["played"])
        assert d["fair"]["loss"] == pytest.approx(sign * (best - by_text[played]), abs=1e-4)
        assert d["fair"]["class"] == thresholds.classify(Fraction(str(d["fair"]["loss"])))
        assert all(a["fair"]["p_win"] is None for a in d["alternatives"])   # the solver values points, not wins


def test_every_decision_within_the_bound_is_exact_and_every_one_beyond_it_is_sampled():
    game = fair_json(DRAW)
    (rep,) = replay_record(read(DRAW))
    methods = {d["index"]: d["fair"]["method"] for d in game["decisions"] if d["fair"]}
    assert len(methods) >= 5
    for k, method in methods.items():
        assert (method == "exact-hidden") == in_bound(rep, k), k
        if method != "exact-hidden":
            assert method in ("exact", "sampled")


def test_no_exact_hidden_samples_open_hands_everywhere():
    game = fair_json(DRAW, "--no-exact-hidden")
    methods = {d["fair"]["method"] for d in game["decisions"] if d["fair"]}
    assert methods <= {"exact", "sampled"} and methods
    assert all("hidden" not in d["fair"] for d in game["decisions"] if d["fair"])


def test_the_text_and_the_page_say_which_decisions_are_exact_under_hidden_information(tmp_path):
    res = CliRunner().invoke(main, ["analyze", "--fair", "--jobs", "1", str(DRAW)])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.stdout.splitlines() if "fair (" in line]
    assert sum("exact under hidden information to 0.001 (CFR+), 6 public deals" in line for line in lines) == 1
    assert any("sampled" in line for line in lines)
    page = tmp_path / "draw.html"
    res = CliRunner().invoke(main, ["report", "--fair", "--jobs", "1", str(DRAW), "-o", str(page)])
    assert res.exit_code == 0, res.output
    assert page.read_text().count(">exact under hidden information</span>: 6 deals") == 1


def test_a_cut_throat_game_for_two_is_valued_exactly_near_its_end():
    rep = replay_record(read(RECORDS / "match-cutthroat-partner-rules.dom"))[0]
    out = fair_analyze(rep, settings=FairSettings(exact_hidden=True), run=FairRun(workers=1))
    hidden = [d for d in out.decisions if d.fair is not None and d.fair.method == "exact-hidden"]
    assert hidden
    for d in hidden:
        deals, weights = public_game(rep, d.index)
        pos = rep.position_at(d.index)
        actual = next(p for p in deals if p.hands[pos.turn] == pos.hands[pos.turn])
        solved = hidden_decision(rep.variant, actual, deals, weights)
        if d.fair.hidden["solver"] == "cfr":    # (a block game for two of 3 tiles a hand: the CFR+ solver's brackets,
            low, up = d.fair.hidden["bounds"]   # closed to 0.01 points a deal of the mover's hand, hold the LP's)
            assert low - 1e-6 <= solved.value <= up + 1e-6
            assert up - low <= CFR_SHOWN * d.fair.hidden["reach"] + 1e-6
            tol = 2 * CFR_SHOWN
        else:
            assert d.fair.hidden["value"] == pytest.approx(solved.value, abs=1e-6)
            tol = 1e-4
        means = sorted(a.fair.mean for a in d.alternatives)
        assert means == pytest.approx(sorted(v for _, v in solved.hand_values()), abs=tol)
    sampled = fair_analyze(rep, settings=FairSettings(exact_hidden=False), run=FairRun(workers=1))
    assert not any(d.fair is not None and d.fair.method == "exact-hidden" for d in sampled.decisions)


def test_a_draw_games_public_deals_weigh_every_world_once_and_hold_the_actual_one():
    (rep,) = replay_record(read(DRAW))
    last = _decision_points(rep, [0, 1])[-1][0]
    for k in range(last, len(rep.steps) + 1):       # (the last decision, then the positions after it)
        deals, weights = public_game(rep, k)
        assert sum(weights) == worlds_at(rep, k).count
        pos = rep.position_at(k)
        assert any(d.hands == pos.hands for d in deals)
        assert len({(tuple(d.hands), d.order[len(d.order) - d.stock:len(d.order) - d.keep]) for d in deals}) \
            == len(deals)


def test_without_scipy_the_option_asked_for_says_so_once_and_the_fair_analysis_goes_on(monkeypatch):
    real = builtins.__import__

    def no_scipy(name, *args, **kwargs):
        if name == "scipy" or name.startswith("scipy."):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_scipy)
    monkeypatch.setitem(sys.modules, "scipy", None)     # (as the import system finds it missing: not imported to ask)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--json", "--jobs", "1", str(DRAW)])
    assert res.exit_code == 0, res.output
    assert "scipy" not in res.stderr and "--exact-hidden" not in res.stderr     # (the default: not asked for)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--exact-hidden", "--json", "--jobs", "1", str(DRAW)])
    assert res.exit_code == 0, res.output
    assert res.stderr.count("--exact-hidden: the LP's exact values under hidden information need scipy") == 1
    assert "Traceback" not in res.output
    game = json.loads(res.stdout)["games"][0]
    methods = {d["fair"]["method"] for d in game["decisions"] if d["fair"]}
    assert methods <= {"exact", "sampled", "exact-hidden"} and methods - {"exact-hidden"}
    assert all(d["fair"]["hidden"]["solver"] == "cfr" for d in game["decisions"]     # (the CFR+ solver needs no scipy;
               if d["fair"] and d["fair"]["method"] == "exact-hidden")             # the LP does)


def test_by_default_the_range_tree_takes_every_three_tile_decision_past_the_listed_deals_up_to_its_bound(
        monkeypatch):
    """Block for two (the generated game of seed 372, ``analyzer new --seed 372``): the decisions of 3 and 2 tiles and
    of 3 and 3, past the deals listed, go to the range tree by default, the 3-and-3 one with both hands drawn from the
    whole pool (775,200 deals: the most three tiles a hand can have with the double-six set); past CFR_RANGES_DEALS (a
    sheet's early decisions, the hands drawn from most of the set) neither does, and the option asks for them."""
    from analyzer.analysis import hiddenfair
    from analyzer.generate import random_game
    from analyzer.hidden import public_ranges
    from analyzer.hidden.ranges import disjoint_pairs
    from analyzer.replay import replay
    from analyzer.rules.variants import find_variant

    rep = replay(random_game(find_variant("block", {"players": "2"}), 372))
    seen, counts = {}, {}
    for k, seat, moves in _decision_points(rep, [0, 1]):
        pos = rep.position_at(k)
        tiles = tuple(sorted((pos.count(0), pos.count(1)), reverse=True))
        if len(moves) < 2 or tiles not in ((3, 3), (3, 2)) or tiles in seen:
            continue
        counts[tiles] = disjoint_pairs(*public_ranges(rep, k)[1])
        got = hiddenfair.exact_deals(rep, k, seat, moves)
        seen[tiles] = got[3] if got else None
        assert hiddenfair.exact_deals(rep, k, seat, moves, hand=4)[3] == "cfr-ranges"
        if tiles == (3, 3):         # (both hands of 3 are no bar: the deals are)
            monkeypatch.setattr(hiddenfair, "CFR_RANGES_DEALS", counts[tiles] - 1)
            assert hiddenfair.exact_deals(rep, k, seat, moves) is None
            monkeypatch.undo()
        if tiles == (3, 2):
            monkeypatch.setattr(hiddenfair, "CFR_RANGES_DEALS", counts[tiles] - 1)
            assert hiddenfair.exact_deals(rep, k, seat, moves) is None
            assert hiddenfair.exact_deals(rep, k, seat, moves, hand=4)[3] == "cfr-ranges"
            monkeypatch.undo()
    assert seen == {(3, 3): "cfr-ranges", (3, 2): "cfr-ranges"} and counts[(3, 3)] == 775_200
    assert all(hiddenfair.CFR_DEALS < n for n in counts.values())     # (neither listed: 775,200 and 116,280)


def test_a_three_tile_decision_over_more_than_240000_deals_gets_twice_the_budget():
    """3 and 3 tiles drawn from 17 or more (247,520 to 775,200 deals) need some 1,000 iterations of 25-35 ms: 40 CPU
    seconds; fewer deals, 20; past 3 tiles, 900: the first four-tile decision of the study closed in 576
    (docs/hidden.md)."""
    from analyzer.analysis.hiddenfair import CFR_LARGE, cfr_budget

    assert cfr_budget(3, 775_200) == cfr_budget(3, CFR_LARGE + 1) == 2 * cfr_budget(3, CFR_LARGE) == 40
    assert cfr_budget(2, 2_040) == 20 and cfr_budget(4, 4_069_800) == cfr_budget(4) == 900


def test_each_exact_decision_is_told_as_it_begins_and_the_terminal_shows_it(monkeypatch):
    """A decision valued exactly under hidden information takes up to 40 CPU s by default and 15 minutes with
    ``--exact-hand 4``, before any deal is solved: the fair run is told as each begins (``FairRun.exact``), and
    ``analyze --fair`` on a terminal says which, of how many, and how long it may take."""
    from analyzer.analysis.hiddenfair import cfr_budget, cfr_grace
    from analyzer.cli import output

    path = RECORDS / "openspiel-block7-5.dom"       # one block-for-two decision the solver takes by default: move 12
    (rep,) = replay_record(read(path))
    told = []
    out = fair_analyze(rep, settings=FairSettings(exact_hidden=True),
                       run=FairRun(workers=1, exact=lambda *args: told.append(args)))
    exact = [d for d in out.decisions if d.fair is not None and d.fair.method == "exact-hidden"]
    assert [d.index for d in exact] == [11] and exact[0].fair.hidden["solver"] == "cfr"
    deals = exact[0].fair.hidden["deals"]
    seconds = cfr_budget(3, deals) + cfr_grace(3, deals)
    assert told == [(11, 1, 1, seconds)] and seconds == 40
    monkeypatch.setattr(output, "_terminal", lambda: True)
    res = CliRunner().invoke(main, ["analyze", "--fair", "--jobs", "1", str(path)])
    assert res.exit_code == 0, res.output
    assert "openspiel-block7-5.dom: move 12 under hidden information (1 of 1, at most 40 s of CPU)" in res.stderr
    assert "under hidden information (1 of 1" not in res.stdout
    # the board's progress says it too, before the game's deals, in the request's language
    from analyzer.i18n import use
    from analyzer.server.library import AnalysisRequest, BoardRecord, analyze_document

    for lang, words in (("en", "move 12 under hidden information (1 of 1, at most 40 s of CPU)"),
                        ("ru", "ход 12 при скрытой информации (1 из 1, не более 40 с процессорного времени)")):
        reports = []
        with use(lang):
            analyze_document(BoardRecord(path.read_text(), path.name), AnalysisRequest(fair=True), reports.append)
        exact = [r for r in reports if r["phase"] == "exact"]
        assert exact == [{"phase": "exact", "game": 1, "games": 1, "words": words}]
        first_deals = next(i for i, r in enumerate(reports) if r["phase"] == "deals" and r["done"])
        assert reports.index(exact[0]) < first_deals


def test_a_report_says_which_exact_decision_it_is_on_in_place_of_the_records(monkeypatch, tmp_path):
    """``report --fair`` (and ``stats --fair``) counts moves: while a decision is valued exactly under hidden
    information (up to 15 minutes each with ``--exact-hand 4``) none is counted, so its bar says which decision it
    is on, until the moves go on."""
    import click

    from analyzer.archive import Options, load, run
    from analyzer.cli import output
    from spies import spy_on

    path = RECORDS / "openspiel-block7-5.dom"       # one block-for-two decision the solver takes by default: move 12
    told = []
    options = Options("report", fair_worlds=20, fair_exact_hidden=True, lines=True)
    (result,) = run(load([str(path)]), options, exact=lambda *args: told.append(args))
    assert result["error"] is None and told == [(str(path), None, 11, 1, 1, 40)]
    monkeypatch.setattr(output, "_terminal", lambda: True)
    bars, said = [], []
    make, exact = output.Progress.__init__, output.Progress.exact

    def made(self, *args, **kwargs):
        make(self, *args, **kwargs)
        bars.append(self)

    drawn = spy_on(monkeypatch, type(click.progressbar(range(1))), "render_progress", "any")

    def solving(self, *args):
        before = len(drawn)
        exact(self, *args)
        said.append(self._item(None))
        assert len(drawn) == before + 1             # (drawn at once: no move is counted for minutes)
    monkeypatch.setattr(output.Progress, "__init__", made)
    monkeypatch.setattr(output.Progress, "exact", solving)
    res = CliRunner().invoke(main, ["report", "--fair", "--jobs", "1", str(path), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    assert said == [f"{path}: move 12 under hidden information (1 of 1, at most 40 s of CPU)"]
    (bar,) = bars
    assert bar.solving == {} and bar._item(None).startswith("1/1 record, ")     # (the moves went on)
    from analyzer.i18n import use

    with use("ru"):
        assert bar._item(None).startswith("1/1 запись, ")
        assert output.game_label("match.dom", 2) == "match.dom, партия 2"


@pytest.mark.skipif(os.name != "posix", reason="the workers tell on a POSIX pipe (elsewhere they tell nothing)")
def test_a_pools_workers_tell_the_exact_decisions_they_begin_as_this_process_would(tmp_path):
    """With ``--jobs`` the records are analysed in a pool's workers: each exact decision they begin is told to the
    run as one analysed here would be (the record's label, its game, move, number, count and budget), before the
    record's result."""
    import shutil

    from analyzer.archive import Execution, Options, load, run

    for name in ("a.dom", "b.dom", "c.dom"):
        shutil.copy(RECORDS / "openspiel-block7-5.dom", tmp_path / name)
    options = Options("report", fair_worlds=20, fair_exact_hidden=True, lines=True)
    here, pooled, order = [], [], []
    list(run(load([str(tmp_path)]), options, exact=lambda *args: here.append(args)))
    for result in run(load([str(tmp_path)]), options, Execution(jobs=2),
                      exact=lambda *args: (pooled.append(args), order.append(("exact", args[0])))):
        order.append(("result", result["source"]))
        assert result["error"] is None
    assert len(here) == 3 and sorted(pooled) == sorted(here)
    for label in {label for label, *_ in here}:
        assert order.index(("exact", label)) < order.index(("result", label))


def test_the_bar_shows_the_latest_exact_decision_of_the_records_still_in_work(monkeypatch):
    from analyzer.cli import output

    monkeypatch.setattr(output, "_terminal", lambda: True)
    bar = output.Progress([], "analysing", True)
    with bar:
        bar.exact("a.dom", None, 11, 1, 2, 40)
        bar.exact("b.dom", 2, 7, 1, 1, 900)
        assert bar._item(None) == "b.dom, game 2: move 8 under hidden information (1 of 1, at most 15 min of CPU)"
        bar(5, {"source": "b.dom"})          # b is done: a's decision is still being solved
        assert bar._item(None) == "a.dom: move 12 under hidden information (1 of 2, at most 40 s of CPU)"
        bar.exact("a.dom", None, 13, 2, 2, 40)
        assert bar._item(None).startswith("a.dom: move 14 under hidden information (2 of 2")
        bar(0, {"source": "a.dom"})
        assert "hidden" not in bar._item(None) and bar.done == 2
