"""A handless sheet's deals drawn and its hands judged at less cost (issue 80, item 3): the deals drawn from a count
are those the record allows, each once; a hand's fair analysis may judge some decisions alone, with the verdicts of
the whole; the verdict over drawn hands stands on Student's t of the draws, and a decision stops at a first look
only where its class is settled there."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from analyzer.analysis import Thresholds
from analyzer.analysis.fair import fair_analyze
from analyzer.analysis.fairstats import look_z, student
from analyzer.analysis.settings import FairRun, FairSettings
from analyzer.analysis.sheets import HAND_LOOK, _hands_settled, _over_hands, hand_looks
from analyzer.inference.sheet import sheet_deals
from analyzer.match import replay_record
from analyzer.notation import read

from conftest import RECORDS


@pytest.fixture(scope="module")
def book_sheet(tmp_path_factory):
    """The book deal (records/seed2.dom, 1,128 deals give its result) with its four hands written ``?``."""
    text = re.sub(r"(?m)^([A-Z][A-Za-z]*): \[.*$", r"\1: ?", (RECORDS / "seed2.dom").read_text(encoding="utf-8"))
    path = tmp_path_factory.mktemp("book") / "seed2.dom"
    path.write_text(text, encoding="utf-8")
    return replay_record(read(path))[0]


def test_deals_drawn_from_a_count_are_allowed_distinct_and_as_many_as_asked(book_sheet):
    """1,000 of the book sheet's 1,128 deals (a count: more than a listing takes) are 1,000 different deals among
    those listed one by one (the reference: every deal the count gives, each once), and another seed draws others."""
    every = sheet_deals(book_sheet, max_deals=10 ** 6)
    assert every.method == "all" and every.count == len(every.deals) == 1128
    assert len(set(every.deals)) == 1128
    allowed = set(every.deals)
    for seed in (0, 1):
        got = sheet_deals(book_sheet, max_deals=1000, seed=seed)
        assert got.method == "sampled" and got.count == 1128
        assert len(got.deals) == len(set(got.deals)) == 1000 and set(got.deals) <= allowed
    assert set(sheet_deals(book_sheet, 1000, seed=0).deals) != set(sheet_deals(book_sheet, 1000, seed=1).deals)
    few = sheet_deals(book_sheet, max_deals=100, seed=2)      # (more than four times as many: drawn one by one)
    assert len(set(few.deals)) == 100 and set(few.deals) <= allowed


def test_students_t_at_few_degrees_of_freedom_is_its_exact_quantile():
    """A mean over a few drawn hands reads its spread off them: the bound is Student's t with one less degree of
    freedom than the draws, exact where they are few (the textbook's 12.706, 4.303, 3.182 and 2.365 at the 95% level
    for 1, 2, 3 and 7 degrees of freedom; scipy's quantile as the reference where it is installed)."""
    z = look_z(1)
    for df, table in ((1, 12.706), (2, 4.303), (3, 3.182), (7, 2.365), (29, 2.045)):
        assert student(z, df) == pytest.approx(table, abs=1e-3)
    stats = pytest.importorskip("scipy.stats")
    for count in (1, 2, 3):
        level = look_z(count)
        for df in range(1, 40):
            assert student(level, df) == pytest.approx(stats.t.ppf(1 - 0.05 / count / 2, df), abs=2e-3)


def _hand(loss: float, cls=None, verdict="none"):
    return SimpleNamespace(loss=loss, cls=cls, verdict=verdict, best="[1-1]", tied=(), worlds=200, total=900)


def _mine(losses, k=5, classes=None):
    """Hands drawn once each, decision ``k`` a choice in each with its fair loss."""
    classes = classes or [None] * len(losses)
    return [(1, {k: (_hand(x, c), {})}, frozenset({k})) for x, c in zip(losses, classes)]


def test_a_decision_stops_at_a_first_look_only_where_its_class_is_settled():
    """The first look of drawn hands judges at least as many as the default's verdicts stand on; a decision stops
    there only where its mean loss's interval (Student's t at the looks' shared bound) lies within one class, its
    losses not all the same, and no hand's own class above it."""
    assert hand_looks(8) == (8,) and HAND_LOOK == 8
    assert hand_looks(16) == (8, 16) and hand_looks(20) == (10, 20)
    points, z = Thresholds(), look_z(2)
    assert _hands_settled(_mine([0.0, 0.5, 0.2, 0.0, 0.3, 0.1, 0.0, 0.4]), 5, points, z)          # surely under 3
    assert not _hands_settled(_mine([0.0] * 8), 5, points, z)        # no spread seen: the hands not drawn unknown
    assert not _hands_settled(_mine([0, 0, 0, 0, 0, 12.5, 7.0, 9.2]), 5, points, z)               # crosses 3 and 10
    assert _hands_settled(_mine([30, 32, 29, 31, 28, 30, 33, 29]), 5, points, z)                   # a blunder
    assert not _hands_settled(_mine([24, 26, 25, 27, 23, 26, 24, 25]), 5, points, z)              # 25: on the line
    # (a hand's own class above the mean's: more hands may lower the least class of every hand, not raise it)
    assert not _hands_settled(_mine([0.5, 0.6, 0.4, 0.5, 0.5, 0.6, 0.4, 0.5],
                                    classes=["inaccuracy"] * 8), 5, points, z)


def test_the_verdict_over_drawn_hands_takes_students_t_of_the_draws():
    """Eight draws (a hand drawn twice counted twice): the interval is the mean's at Student's t with 7 degrees of
    freedom, 2.365 standard errors either side (not the normal 1.96)."""
    losses = [0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0]
    mine = [(2 if i == 0 else 1, {5: (_hand(x), {})}, frozenset({5})) for i, x in enumerate(losses)]
    rep = SimpleNamespace(players=("A", "B", "C", "D"))
    got = _over_hands(rep, 0, mine, 5, (40, True), Thresholds(), 8, None, look_z(1))
    draws = [0.0] + losses
    mean = sum(draws) / 8
    sd = (sum((x - mean) ** 2 for x in draws) / 7) ** 0.5
    assert got.over_hands.mean == pytest.approx(mean)
    assert got.over_hands.ci95[1] == pytest.approx(mean + 2.3646 * sd / 8 ** 0.5, abs=1e-3)
    assert got.over_hands.drawn == 8 and got.over_hands.judged == 7


@pytest.mark.parametrize("seat", ["B", "C"])
def test_a_hand_judged_at_some_decisions_alone_gives_their_verdicts_as_the_whole(seat):
    """The fair analysis of a record asked for some of its steps (``FairSettings.steps``) judges those alone, each
    with the verdict, best and values the analysis of every step gives it (the same worlds drawn)."""
    rep = replay_record(read(RECORDS / "seed2.dom"))[0]
    settings = FairSettings(worlds=30, max_worlds=60, seats=(seat,), seed=3)
    whole = fair_analyze(rep, settings=settings, run=FairRun(workers=1))
    judged = {d.index: d for d in whole.decisions if d.fair is not None}
    assert len(judged) >= 3
    some = frozenset(sorted(judged)[::2])
    part = fair_analyze(rep, settings=FairSettings(worlds=30, max_worlds=60, seats=(seat,), seed=3, steps=some),
                        run=FairRun(workers=1))
    got = {d.index: d for d in part.decisions if d.fair is not None}
    assert set(got) == some
    for k in some:
        assert (got[k].fair.loss, got[k].fair.best, got[k].fair.verdict, got[k].fair.tied) == \
            (judged[k].fair.loss, judged[k].fair.best, judged[k].fair.verdict, judged[k].fair.tied)
        assert [(a.move, a.fair.mean) for a in got[k].alternatives] == \
            [(a.move, a.fair.mean) for a in judged[k].alternatives]


def test_drawn_hands_judged_in_two_looks_stop_where_the_first_settles_and_count_their_draws(book_sheet):
    """With 16 hands drawn a player, the first look judges 8: a decision settled there says 8 draws and stands on
    the same hands as that look alone gives; the others say 16; the note says how many stopped at the first look;
    the progress only grows and ends whole."""
    from analyzer.analysis.sheets import sheet_analyze, sheet_fair

    analysis = sheet_analyze(book_sheet, max_deals=200, run=FairRun(workers=1))
    settings = FairSettings(worlds=20, seats=("B", "C"))
    seen: list[tuple[int, int]] = []
    got = sheet_fair(book_sheet, analysis, settings, FairRun(workers=1, progress=lambda d, t: seen.append((d, t))),
                     hands=16)
    first = sheet_fair(book_sheet, analysis, settings, FairRun(workers=1), hands=8)
    by_index = {d.index: d for d in first.decisions}
    draws = {}
    for d in got.decisions:
        if d.fair is None or d.fair.over_hands is None:
            continue
        hands = d.fair.over_hands
        assert hands.drawn in (8, 16)
        draws[d.index] = hands.drawn
        if hands.drawn == 8:
            assert hands.min != hands.max          # (its losses were not all the same)
            if d.player == "B":     # (the first player's first 8 of 16 draws are the 8 hands=8 draws: the same seed)
                assert hands.mean == by_index[d.index].fair.over_hands.mean
    stopped = sum(n == 8 for n in draws.values())
    assert draws and (stopped == 0) == ("judged over the first 8 draws" not in got.fair_note)
    assert all(d1 <= d2 and d1 <= t1 for (d1, t1), (d2, _) in zip(seen, seen[1:]))
    assert seen[-1][0] == seen[-1][1]


@pytest.mark.parametrize("k, limit", [(2, 8000), (2, 15000), (5, 8000)])
def test_deals_past_the_node_limit_in_a_batch_leave_the_others_valued_as_alone(book_sheet, k, limit):
    """A decision valued in many deals at once (those of the book's sheet in which the mover holds the same tiles),
    some past a small node limit: each deal within it gets the values a search of it alone gives (the reference:
    each deal solved by itself), each past it none, whatever its place in the batch."""
    from analyzer.analysis.fair import WorldSearch, solve_dealt
    from analyzer.analysis.sheets import _past_limit
    from analyzer.search.core import SearchBudget
    from analyzer.search.tree import SearchLimit

    rep = book_sheet
    template = rep.position_at(k)           # (D's [1-5]@1, C's [4-5]@5)
    seat = template.turn
    table = sum(move.tile.bit for move, *_ in template.history if move.tile is not None)
    groups: dict[int, list] = {}
    for deal in sheet_deals(rep, max_deals=300, seed=5).deals:
        groups.setdefault(deal.hands[seat] & ~table, []).append(deal.hands)
    hands = max(groups.values(), key=len)
    search = WorldSearch(SearchBudget(node_limit=limit))
    alone = []
    for deal in hands:
        try:
            alone.append(solve_dealt(rep, template, [deal], seat, search)[0][0])
        except SearchLimit:
            alone.append(None)
    assert len(hands) >= 7 and any(row is not None for row in alone)
    assert None in alone                    # (some of them past the limit: 5 of 7, 1 of 7, 4 of 17)
    assert _past_limit(rep, template, hands, seat, search) == alone
