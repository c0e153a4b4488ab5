"""The early stop of a sheet whose deals are all listed (issue 80, item 3): the deals taken in looks in a random
order without replacement, a decision decided (its best told apart and the class of its move played's loss) taking
no more of them, each interval with the finite-population correction (none where every deal was taken), and the
values' CPU budget with its note.

The reference is independent of the sheet analysis: every deal the sheet allows found by trying every way to give
the tiles nobody laid to the hands (``test_sheets.brute_deals``, the replay's own judge), each written into the
record and analysed as a record with every hand written (:func:`analyzer.analysis.analyze_replay`), the exhaustive
mean of each move over the deals it could be played in, of the move played's loss over all of them."""
from __future__ import annotations

import dataclasses
import inspect
import json

import jsonschema
import pytest
from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis import sheets
from analyzer.analysis.settings import FairRun, FairSettings
from analyzer.analysis.dealvalues import CPU_BUDGET, DealsSummary, FairCut
from analyzer.analysis.sheets import WORLD_SHARE, fair_budget, finite, schedule, sheet_analyze, written_replay
from analyzer.cli import main
from analyzer.cli.options import SECONDS, fair_settings
from analyzer.codec import from_data, to_data
from analyzer.generate import random_game
from analyzer.inference.sheet import SheetDeal, sheet_deals
from analyzer.i18n import use
from analyzer.pipeline import Options
from analyzer.render.verdicts import fair_cut_words, fair_note_words, loss_range_words, over_text, sheet_deals_words
from analyzer.server import api, library
from analyzer.replay import replay
from analyzer.schemas import schema
from conftest import ROOT

from test_sheets import brute_deals, sheet_of

# cut-throat sheets whose deals are listed (44 each): random_game's seeds
SHEETS = (("cutthroat", 13, 44), ("cutthroat", 16, 44))


def _sheet(family: str, seed: int):
    return replay(sheet_of(random_game(family, seed)), family)


def _reference(rep, family: str) -> dict:
    """Per decision index: per move its values over the deals it could be played in (by deal), and the loss of
    the move played in every deal (0 where it was his only move), each deal of the brute force written and analysed
    as a record with every hand written."""
    out: dict[int, dict] = {}
    deals = brute_deals(rep, rep.variant)
    for at, hands in enumerate(deals):
        got = analyze_replay(written_replay(rep, SheetDeal(hands)))
        seen = set()
        for d in got.decisions:
            ref = out.setdefault(d.index, {"moves": {}, "losses": {}})
            for a in d.alternatives:
                ref["moves"].setdefault(a.move, {})[at] = a.value
            ref["losses"][at] = d.loss
            seen.add(d.index)
        for k, step in enumerate(rep.steps):       # (no choice in that deal: a loss of 0)
            if k not in seen and step.move is not None:
                out.setdefault(k, {"moves": {}, "losses": {}})["losses"].setdefault(at, 0)
    return {"deals": len(deals), "decisions": out}


def _inside(o, truth: float) -> bool:
    if o.ci95 is None or o.ci95[0] == o.ci95[1]:
        return abs(o.mean - truth) < 1e-3
    return o.ci95[0] - 1e-3 <= truth <= o.ci95[1] + 1e-3


def test_the_looks_follow_the_fair_analysiss_schedule_listed_or_drawn():
    """Deals listed or drawn are looked at alike: from 200 of them (four times the fewest a look takes) a quarter,
    doubling, with the two early looks before; fewer are looked at once, all of them."""
    assert schedule(1000) == ((50, 125), [250, 500, 1000])
    assert schedule(904) == ((50, 100), [226, 452, 904])
    assert schedule(120) == ((), [120])


def test_the_finite_population_correction():
    """No correction where the deals were drawn with replacement; none left of the interval where every deal
    was taken; a quarter of them taken: sqrt(3/4)."""
    assert finite(250, None) == 1.0
    assert finite(540, 540) == 0.0
    assert abs(finite(135, 540) - 0.75 ** 0.5) < 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("family,seed,count", SHEETS, ids=[f"{f}-{s}" for f, s, _ in SHEETS])
def test_an_early_stopped_listed_sheet_holds_the_exhaustive_means(family, seed, count, monkeypatch):
    """Looks from 20 deals on (the fewest a look takes lowered to 5, so a small sheet is looked at as a large one
    is): every decision's loss and every move's value either exact (looked for in every deal: the exhaustive mean)
    or its interval holding the exhaustive mean (95%: at least 90% of them over the sheets), a move told apart from
    the best on average worse than it over every deal both could be played in, and a decision stopped early graded
    as every deal grades it where its interval decided the class; every deal the sheet allows listed, the early
    stop taking fewer deal-decisions than valuing each decision in every deal."""
    rep = _sheet(family, seed)
    ref = _reference(rep, family)
    assert ref["deals"] == count == sheet_deals(rep, 10 ** 6).count
    monkeypatch.setattr(sheets, "LEAST_LOOK", 5)
    thresholds = sheets.AnalysisSettings().thresholds
    checked = held = exact = spent = 0
    for run_seed in (1, 2, 3):
        got = sheet_analyze(rep, seed=run_seed, run=FairRun(workers=1), seconds=None)
        assert got.deals.method == "all" and got.deals.count == count
        for d in got.decisions:
            truth = ref["decisions"][d.index]
            losses = list(truth["losses"].values())
            mean_loss = sum(losses) / len(losses)
            spent += d.loss_over.looked
            for o, value in [(d.loss_over, mean_loss)] + [
                    (a.over_deals, sum(truth["moves"][a.move].values()) / len(truth["moves"][a.move]))
                    for a in d.alternatives]:
                checked += 1
                held += _inside(o, value)
                if o.looked == count:       # every deal taken: the exact mean, no interval
                    exact += 1
                    assert o.ci95 is None and abs(o.mean - value) < 1e-3, (d.index, o, value)
            sign = 1 if d.side == 0 else -1
            best = next(a for a in d.alternatives if a.best)
            for a in d.alternatives:
                if a.over_deals.told_apart:
                    b, m = truth["moves"][best.move], truth["moves"][a.move]
                    assert sum(sign * (b[at] - v) for at, v in m.items() if at in b) > 0, (d.index, best.move, a.move)
            low, high = d.loss_over.ci95 or (d.loss_over.mean, d.loss_over.mean)
            if d.loss_over.looked < count and thresholds.classify(low) == thresholds.classify(high):
                checked += 1
                held += d.cls == thresholds.classify(mean_loss)
    assert held >= 0.9 * checked and exact, (held, checked, exact)
    assert spent < 3 * count * len(got.decisions)


@pytest.mark.slow
def test_a_listed_sheets_decisions_valued_in_every_deal_give_the_numbers_of_one_look(monkeypatch):
    """A decision the looks take to the last deal has the numbers the one look at every deal gives (the means,
    least and most, the deals, the gaps), with no interval: the exhaustive answer."""
    rep = _sheet("block", 10)
    whole = {d.index: d for d in sheet_analyze(rep, run=FairRun(workers=1), seconds=None).decisions}
    monkeypatch.setattr(sheets, "LEAST_LOOK", 5)
    got = sheet_analyze(rep, seed=2, run=FairRun(workers=1), seconds=None)
    compared = 0
    for d in got.decisions:
        one = whole[d.index]
        if d.loss_over.looked == 78:
            assert dataclasses.replace(d.loss_over, looked=None) == dataclasses.replace(one.loss_over, looked=None)
            compared += 1
        alts = {a.move: a.over_deals for a in one.alternatives}
        for a in d.alternatives:
            if a.over_deals.looked == 78:
                o, w = a.over_deals, alts[a.move]
                assert (o.mean, o.min, o.max, o.deals, o.ci95, o.gap, o.shared) == \
                       (w.mean, w.min, w.max, w.deals, w.ci95, w.gap, w.shared)
                compared += 1
    assert compared
    assert all(d.loss_over.looked == 78 and d.loss_over.ci95 is None for d in whole.values())


def test_the_values_cpu_budget_stops_the_looks_and_says_where():
    """A budget of 0 s (spent by the first deal, analysed alone to measure what a deal costs: no clock decides it)
    stops the looks there: the deals analysed are those, the decisions valued over them, and the deals say where
    and why the work stopped as a value (:class:`WorkCut`), in the JSON as ``cut_short`` (the retired sentence
    ``cut`` beside it, not read back) and in words where text is written."""
    rep = _sheet("block", 10)
    got = sheet_analyze(rep, run=FairRun(workers=1), seconds=0)
    assert got.deals.analysed == 1 and got.deals.count == 78
    cut = got.deals.cut
    assert (cut.reason, cut.deals, cut.seconds) == (CPU_BUDGET, 1, 0) and cut.seconds_per_deal > 0
    assert all(d.loss_over.looked == 1 and d.loss_over.stopped == CPU_BUDGET for d in got.decisions)
    assert cut.decisions == len(got.decisions) + (got.to_move is not None)      # (every one stopped there)
    data = to_data(got.deals)
    assert data["cut_short"] == {"reason": "cpu-budget", "deals": 1, "seconds": 0,
                                 "seconds_per_deal": cut.seconds_per_deal, "decisions": cut.decisions}
    assert data["cut"].startswith("stopped at 1 deals: the values' CPU budget of 0 s")     # (deprecated, version 4)
    jsonschema.validate(data, {**{k: v for k, v in schema().items() if k != "oneOf"}, "$ref": "#/$defs/deals"})
    assert from_data(DealsSummary, data) == got.deals
    written_before = {k: v for k, v in data.items() if k != "cut_short"}      # (a version 4 file before the object)
    assert from_data(DealsSummary, written_before) == dataclasses.replace(got.deals, cut=None)
    words = sheet_deals_words(got.deals)
    assert words.startswith(got.deals.words()) and "; stopped at 1 deal: the values' CPU budget of 0 s (some " in words
    with use("es"):
        assert "detenido en 1 reparto: el presupuesto de CPU de los valores, 0 s" in sheet_deals_words(got.deals)
    whole = sheet_analyze(rep, run=FairRun(workers=1), seconds=None)       # (no budget: no cut, no key)
    assert whole.deals.cut is None and "cut_short" not in to_data(whole.deals) and "cut" not in to_data(whole.deals)
    assert sheet_deals_words(whole.deals) == whole.deals.words()


def test_the_budgets_defaults_are_the_analysiss():
    """The command line's and the pipeline's budgets default to the analysis's (written apart: ``--help`` and
    the pipeline's options load no analysis)."""
    fair_settings_defaults = {k: p.default for k, p in inspect.signature(fair_settings).parameters.items()}
    assert Options("analyze").values_seconds == sheets.SECONDS == SECONDS.convert("20", None, None)
    assert Options("analyze").fair_seconds == sheets.FAIR_SECONDS == SECONDS.convert("20", None, None)
    params = {p.name: p for p in main.commands["analyze"].params}
    assert (params["values_seconds"].default, params["fair_seconds"].default) == ("20", "20")
    assert (fair_settings_defaults["values_seconds"], fair_settings_defaults["fair_seconds"]) == (20, 20)
    assert SECONDS.convert("none", None, None) is None and SECONDS.convert("0", None, None) == 0


@pytest.mark.parametrize("given,said", [("-5", "-5 is negative"), ("1.5", "'1.5' is not a number of seconds"),
                                        ("60s", "'60s' is not a number of seconds"), ("", "is not a number"),
                                        ("١٢", "is not a number")])
@pytest.mark.parametrize("option", ["--values-seconds", "--fair-seconds"])
@pytest.mark.parametrize("command", ["analyze", "report"])
def test_a_budget_is_digits_or_none_never_negative(command, option, given, said):
    result = CliRunner().invoke(main, [command, f"{option}={given}", "records/seed2.dom"])
    assert result.exit_code == 2 and said in result.output and option in result.output, result.output


def test_the_budgets_reach_a_sheets_text_and_json(monkeypatch):
    """``--values-seconds 0`` stops a sheet's values at the first deal, ``--fair-seconds 0`` plans its fair
    verdicts to the least (one hand a player, each decision over 20 deals), and the text says both; with
    ``--values-seconds none`` every deal is analysed and nothing is cut."""
    monkeypatch.chdir(ROOT)
    args = ["analyze", "--values-seconds", "0", "--fair-seconds", "0", "--jobs", "1", "records/sheet-partnership.dom"]
    text = CliRunner().invoke(main, args).output
    assert "; stopped at 1 deal: the values' CPU budget of 0 s (some " in text
    assert "the fair verdicts' CPU budget of 0 s" in text and "1 hand a player, each decision over 20 deals" in text
    free = json.loads(CliRunner().invoke(main, ["analyze", "--values-seconds", "none", "--fair-seconds", "0",
                                               "--jobs", "1", "--json", "records/sheet-partnership.dom"]).stdout)
    free = free["games"][0]
    assert free["deals"]["analysed"] == 2 and "cut_short" not in free["deals"]
    cut = free["fair_cut"]          # (the fair cut a value in the JSON, its words only in the text)
    assert {k: cut[k] for k in ("reason", "seconds", "hands", "deals")} == \
           {"reason": "cpu-budget", "seconds": 0, "hands": 1, "deals": 20} and cut["seconds_per_deal"] > 0
    assert "CPU budget" not in free["fair_note"]
    jsonschema.validate(cut, {**{k: v for k, v in schema().items() if k != "oneOf"}, "$ref": "#/$defs/fair_cut"})


def test_the_fair_verdicts_budget_cuts_worlds_then_hands_and_says_so():
    """Planned from what a deal's values cost: a cheap sheet (the book's, some 5 ms a deal) is judged as asked;
    a costly one (12 s a deal) over fewer worlds a decision (never fewer than 20, grown no
    further) and then fewer hands, within the budget, the words naming both; no budget, no cut."""
    asked = FairSettings(worlds=200, max_worlds=800, exact_below=1000)
    assert fair_budget(asked, 8, 0.005, 120) == (asked, 8, None)
    assert fair_budget(asked, 8, 3.0, None) == (asked, 8, None)
    cut, hands, said = fair_budget(asked, 8, 12.0, 120)     # (a world some 3 s: WORLD_SHARE of a deal's values)
    assert (cut.worlds, cut.max_worlds, cut.exact_below, hands) == (20, 20, 20, 2)
    assert hands * cut.worlds * 12.0 * WORLD_SHARE <= 120
    assert said == FairCut(CPU_BUDGET, 120, 12.0, 2, 20)    # (a value: the words are render's)
    assert fair_cut_words(said) == "the fair verdicts' CPU budget of 120 s (a deal's values some 12.00 s): 2 hands " \
                                   "a player, each decision over 20 deals"
    assert fair_note_words(None, None) is None and fair_note_words("x", None) == "x"
    assert fair_note_words("x", said) == f"x; {fair_cut_words(said)}"
    with use("es"):
        assert fair_cut_words(dataclasses.replace(said, hands=1)) == (
            "el presupuesto de CPU de los veredictos justos, 120 s (los valores de un reparto, unos 12,00 s): "
            "1 mano por jugador, cada decisión sobre 20 repartos")
    cut, hands, _ = fair_budget(asked, 8, 0.4, 120)        # (the worlds alone cut: 160 s planned)
    assert (cut.worlds, cut.max_worlds, hands) == (150, 150, 8)
    few = FairSettings(worlds=4, max_worlds=4, exact_below=4)   # (--max-deals 4: never more worlds than asked)
    cut, hands, _ = fair_budget(few, 8, 120.0, 120)
    assert (cut.worlds, hands) == (4, 1)


@pytest.mark.parametrize("given", [-1, 1.5, "60", True])
def test_the_boards_request_refuses_a_budget_that_is_not_whole_seconds(given):
    for key in ("values_seconds", "fair_seconds"):
        with pytest.raises(api.ApiError, match=f'"{key}" is whole CPU seconds'):
            api.analysis_call({"text": "x", key: given}, 1000)


def test_the_boards_analysis_of_a_sheet_takes_its_budgets_and_says_where_it_stopped():
    """The board's request carries the command's budgets (absent: its defaults; null: none); a sheet analysed
    under a values' budget of 0 says where it stopped, in the JSON and in the words the board shows."""
    asked = api.analysis_call({"text": "x"}, 1000)["asked"]
    assert (asked.values_seconds, asked.fair_seconds) == (Options.values_seconds, Options.fair_seconds)
    asked = api.analysis_call({"text": "x", "values_seconds": None, "fair_seconds": 0}, 1000)["asked"]
    assert (asked.values_seconds, asked.fair_seconds) == (None, 0)
    text = (ROOT / "records" / "sheet-partnership.dom").read_text(encoding="utf-8")
    call = api.analysis_call({"text": text, "values_seconds": 0, "fair_seconds": 0}, 1000)
    call["progress"] = None
    game = library.analyze_document(**call)["games"][0]
    assert game["deals"]["cut_short"]["deals"] == game["deals"]["analysed"] == 1
    assert "stopped at 1 deal: the values' CPU budget of 0 s" in game["deals"]["words"]



def test_a_costly_decision_stopped_by_its_share_leaves_the_cheap_ones_their_early_stop(monkeypatch):
    """The values' budget shared by the decisions (batched: each valued alone over some deals, its CPU measured):
    one decision of a listed cut-throat sheet made costly (0.4 s of CPU a deal more, spent where it is valued) is
    stopped where its next look no longer fits a budget of 1 s, at the first deal (analysed alone to measure the
    cost), its values said stopped by the budget in the JSON (a value of the schema) and in the words; the cheap
    decisions go on, and each comes to exactly what it comes to with no budget at all (the same deals, the same
    early stop, the same values and intervals), some of them decided before the last deal."""
    monkeypatch.setattr(sheets, "LEAST_LOOK", 5)          # (looks from 20 deals on: this sheet's 44 looked at in 4)
    rep = _sheet("cutthroat", 13)
    free = {d.index: d for d in sheet_analyze(rep, seed=2, run=FairRun(workers=1), seconds=None).decisions}
    costly = max(free.values(), key=lambda d: (len(d.alternatives), -d.index)).index
    plain = sheets._batch_rows

    def rows(rep, k, deals, *args):
        if k == costly:
            start = sheets.time.process_time()
            while sheets.time.process_time() - start < 0.4 * len(deals):
                pass
        return plain(rep, k, deals, *args)
    monkeypatch.setattr(sheets, "_batch_rows", rows)
    got = sheet_analyze(rep, seed=2, run=FairRun(workers=1), seconds=1)
    cut = got.deals.cut
    assert (cut.reason, cut.deals, cut.decisions) == (CPU_BUDGET, 1, 1) and got.deals.analysed == 44
    shares = {d.index: d for d in got.decisions}
    stopped = shares.pop(costly)
    assert stopped.loss_over.looked == 1 and stopped.loss_over.stopped == CPU_BUDGET
    assert all(a.over_deals.stopped == CPU_BUDGET and a.over_deals.looked == 1 for a in stopped.alternatives)
    assert shares == {k: d for k, d in free.items() if k != costly}       # (the cheap ones as with no budget)
    assert any(d.loss_over.looked < 44 for d in shares.values())         # (some decided before the last deal)
    data = stopped.loss_over.as_dict()
    assert data["stopped"] == "cpu-budget" and "stopped" not in next(iter(shares.values())).loss_over.as_dict()
    jsonschema.validate(data, {**{k: v for k, v in schema().items() if k != "oneOf"}, "$ref": "#/$defs/over_deals"})
    jsonschema.validate(to_data(got.deals), {**{k: v for k, v in schema().items() if k != "oneOf"},
                                             "$ref": "#/$defs/deals"})
    assert from_data(DealsSummary, to_data(got.deals)) == got.deals
    words = sheet_deals_words(got.deals)
    assert words.endswith("stopped 1 decision before it was decided, the costliest first, at 1 deal or more")
    assert " 1 deal, where the values' CPU budget stopped it" in loss_range_words(stopped.loss_over)
    # (said once, with the decision's loss: each move's value is over the same deals)
    assert all("CPU budget" not in over_text(a.over_deals) for a in stopped.alternatives)
    with use("ru"):
        assert "где его остановил бюджет процессора" in loss_range_words(stopped.loss_over)
