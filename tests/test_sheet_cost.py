"""What a handless sheet's analysis spends and how its text reads (issue 80, items 3 and 4): its decisions stop
drawing deals once their best is told apart (the fair analysis's looks), a sheet's work is bounded by --max-deals
and --hands (a whole match too), the bar's progress only grows, and every number of the text is named."""
from __future__ import annotations

import json
import re

import pytest

from analyzer.analysis import analyze_replay
from analyzer.analysis.fairstats import early_z, look_z, significant
from analyzer.analysis.settings import FairRun, FairSettings
from analyzer.analysis.sheets import _settled, sheet_analyze, sheet_fair, written_replay
from analyzer.inference.sheet import sheet_deals
from analyzer.match import replay_record
from analyzer.notation import read

from conftest import RECORDS
from test_cli import run


def handless(path, tmp_path, name: str | None = None):
    """The record at ``path`` with every hand written ``?`` (a score sheet of it), as a file in ``tmp_path``."""
    text = re.sub(r"(?m)^([A-Z][A-Za-z]*): \[.*$", r"\1: ?", path.read_text(encoding="utf-8"))
    out = tmp_path / (name or path.name)
    out.write_text(text, encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def book_sheet(tmp_path_factory):
    """The book deal (records/seed2.dom, 1,128 deals give its result) with its four hands written ``?``."""
    path = handless(RECORDS / "seed2.dom", tmp_path_factory.mktemp("book"))
    return replay_record(read(path))[0]


# -- the early stop ------------------------------------------------------------------------------------------

def _table(rows):
    return {"played": "", "mark": "b", "rows": rows, "losses": [], "unknown": 0, "asked": len(rows),
            "choices": len(rows), "contenders": None, "seen": len(rows), "dropped": {}}


def test_a_decision_stops_at_an_early_look_only_with_its_best_told_apart(book_sheet):
    """At an early look the bound is Student's t at the early looks' share (3.73 at 50 deals): a gap told apart
    there stops; a weak one goes on, every move still valued, and at a later look only the moves in contention
    are; a gap of 0 in every deal never stops at an early look, and stops at a later one only for futility (more
    deals could never tell it)."""
    rep = book_sheet
    k = next(i for i, st in enumerate(rep.steps) if rep.variant.seating.teams[st.seat] == 0)   # A/C maximise
    z_early, z = early_z(2, 50), look_z(3, True)
    gaps = [4, -1, 3, 0, 5, 1, 2, 6, -2, 3] * 5          # mean 2.1, sd 2.5: t = 5.9 > 3.73
    assert significant(gaps, False, z_early)
    assert _settled(_table([{"a": 10 + g, "b": 10} for g in gaps]), rep, k, z_early, True, 1000)
    weak = [9, -7, 8, -6, 10, -8, 7, -5, 9, -6] * 5      # mean 1.1, sd 7.6: t = 1.0
    table = _table([{"a": 10 + g, "b": 10} for g in weak])
    assert not significant(weak, False, z_early)
    assert not _settled(table, rep, k, z_early, True, 1000, racing=True)
    assert table["contenders"] is None                   # (every move valued to the first later look)
    assert not _settled(table, rep, k, z, False, 1000, racing=True)     # (more deals may tell them apart)
    assert table["contenders"] == {"a", "b"}             # (both still valued, the played one among them)
    same = _table([{"a": 5, "b": 5} for _ in range(50)])
    assert not _settled(same, rep, k, z_early, True, 1000)
    assert _settled(same, rep, k, z, False, 1000)        # (equal in every deal: more deals never tell them apart)


@pytest.mark.slow
def test_a_sampled_sheets_stopped_decisions_name_the_best_over_every_deal_and_their_intervals_hold(book_sheet):
    """The book's sheet sampled (400 of its 1,128 deals) against every deal analysed with every hand open (the
    plain open-hands analysis of each deal written, the reference): every move the analysis tells apart from its
    best on average is worse than it over all the deals both could be played in, most intervals hold the mean
    over all the deals, and the early stop spends fewer deal-decisions than valuing every decision in every deal."""
    rep = book_sheet
    every = sheet_deals(rep, max_deals=10 ** 6)
    assert every.method == "all" and every.count == 1128
    per_deal = [analyze_replay(written_replay(rep, deal)) for deal in every.deals]
    got = sheet_analyze(rep, max_deals=400, seed=1, run=FairRun(workers=1))
    assert got.deals.method == "sampled" and got.deals.analysed == 400
    held = checked = told = 0
    spent = 0
    for d in got.decisions:
        sign = 1 if d.side == 0 else -1
        values: dict[str, dict[int, int]] = {}
        for at, deal in enumerate(per_deal):
            for dd in deal.decisions:
                if dd.index == d.index:
                    for a in dd.alternatives:
                        values.setdefault(a.move, {})[at] = a.value
        best = next(a for a in d.alternatives if a.best)
        spent += d.loss_over.deals
        for a in d.alternatives:
            truth = sum(values[a.move].values()) / len(values[a.move])
            checked += 1
            held += a.over_deals.ci95[0] <= truth <= a.over_deals.ci95[1]
            if a.over_deals.told_apart:
                told += 1
                shared = [sign * (values[best.move][at] - v) for at, v in values[a.move].items()
                          if at in values[best.move]]
                assert sum(shared) > 0, (d.index, best.move, a.move)
    assert told >= 20 and held >= 0.9 * checked
    assert spent < 400 * len(got.decisions)          # (some decisions stopped before the last look)
    assert min(d.loss_over.deals for d in got.decisions) < 400


# -- progress --------------------------------------------------------------------------------------------------

def test_the_progress_of_a_sheets_deals_and_hands_only_grows_and_ends_whole(book_sheet):
    """``progress(done, total)``: done never falls, the total (the most there may be) never grows, done never
    passes it, and the last call says every deal analysed (the hands judged likewise)."""
    seen: list[tuple[int, int]] = []
    got = sheet_analyze(book_sheet, max_deals=200, run=FairRun(workers=1, progress=lambda d, t: seen.append((d, t))))
    assert len(seen) > 3
    assert all(d1 <= d2 and t1 >= t2 for (d1, t1), (d2, t2) in zip(seen, seen[1:]))
    assert all(d <= t for d, t in seen) and seen[-1] == (got.deals.analysed, got.deals.analysed)
    judged: list[tuple[int, int]] = []
    sheet_fair(book_sheet, got, FairSettings(worlds=20, seats=("A",)),
               FairRun(workers=1, progress=lambda d, t: judged.append((d, t))), hands=2)
    assert judged and all(d1 <= d2 for (d1, _), (d2, _) in zip(judged, judged[1:]))
    assert judged[-1][0] == judged[-1][1]


# -- bounded work ----------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_max_deals_and_hands_bound_every_game_of_a_handless_match(tmp_path):
    """The bundled Cuban double-nine match with its hands written ``?`` (3 games): every game analyses at most
    --max-deals deals, judges at most --hands hands a player, and values each decision of each hand over at most
    --max-deals deals (the fair analysis's own 200 to 800 cut, and the note says so). (--max-nodes: the default's
    2 million, not the double-nine deal's 16 million, whose free leads would cost a third more here: the bounds are
    what is asserted.)"""
    path = handless(RECORDS / "match-cuban.dom", tmp_path)
    res = run("analyze", "--json", "--max-deals", "4", "--hands", "1", "--jobs", "1", "--max-nodes", "2000000",
              str(path))
    games = json.loads(res.stdout)["games"]
    assert len(games) == 3
    judged = 0
    for game in games:
        a = game.get("analysis", game)
        if a.get("deals") is None:
            continue
        assert a["deals"]["analysed"] <= 4
        for d in a["decisions"]:
            f = d.get("fair")
            if f is None:
                continue
            judged += 1
            hands = f.get("over_hands") or {"judged": 1}
            assert hands["judged"] <= 1
            assert f["worlds"] <= 4 * hands["judged"]
        if a["deals"]["count"] > 1:
            assert "at most 4 deals (--max-deals)" in a["fair_note"]
    assert judged


# -- the words -------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_sheets_text_names_each_number_and_gives_one_verdict_word_a_move(book_sheet, tmp_path):
    """Every value over the deals names its interval ("95% interval"), its least and most and the deals it is a
    mean of (of the deals its decision was looked at in, where fewer), each decision's line carries one verdict word at most, the JSON's
    fair verdict and class, and the hands judged are said in one wording in the header and in the lines."""
    path = handless(RECORDS / "seed2.dom", tmp_path)
    args = ["--max-deals", "200", "--hands", "2", "--decision-deals", "20", "--seat", "B"]
    text = run("analyze", *args, str(path)).stdout
    data = json.loads(run("analyze", "--json", *args, str(path)).stdout)["games"][0]
    data = data.get("analysis", data)
    assert "Reading: a move's value is its mean over the deals" in text
    # the deals each value was looked for in (its decision's, taken until it was decided), at most those analysed
    looked = {a["over_deals"]["looked"] for d in data["decisions"] for a in d["alternatives"] if a.get("over_deals")}
    assert looked and max(looked) <= data["deals"]["analysed"]
    values = [line for line in text.splitlines() if re.match(r"^      \[", line)]
    assert values
    for line in values:
        if " in each of " in line:                    # every deal gives the same: one number, its deals counted
            said = re.search(r"[+-]\d+ in each of [\d,]+ (of the ([\d,]+) )?deals", line)
        else:
            said = re.search(r"\(95% interval [+-][\d.]+ to [+-][\d.]+; least [+-]\d+, most [+-]\d+; mean of [\d,]+ "
                             r"(of the ([\d,]+) )?deals\)", line)
        assert said, line
        assert said.group(2) is None or int(said.group(2).replace(",", "")) in looked, line
    words = {"REAL INACCURACY", "REAL MISTAKE", "REAL BLUNDER", "UNCERTAIN INACCURACY", "UNCERTAIN MISTAKE",
             "UNCERTAIN BLUNDER", "HINDSIGHT ONLY"}
    heads = [line for line in text.splitlines() if re.match(r"^  (round|move) \d", line)]
    b_heads = [line for line in heads if ", B (" in line]
    b_decisions = [d for d in data["decisions"] if d["player"] == "B"]
    assert len(b_heads) == len(b_decisions)
    for line, d in zip(b_heads, b_decisions):
        said = [w for w in words if w in line]
        assert len(said) <= 1 and not re.search(r"\b(MISTAKE|BLUNDER|INACCURACY)\b", line.replace(said[0], "")
                                                if said else line), line
        f = d["fair"]
        expected = ("HINDSIGHT ONLY" if f["verdict"] == "hindsight" else
                    f"{f['verdict']} {f['class']}".upper() if f["verdict"] in ("real", "uncertain") else None)
        assert said == ([expected] if expected else []), (line, f)
        assert "with every hand open (hindsight) it loses" in line
    hands = b_decisions[0]["fair"].get("over_hands") if b_decisions else None
    if hands and hands.get("drawn"):
        said = f"{hands['drawn']} drawn of the {hands['hands']} hands he may have held"
        assert f"B: {said}" in text and f"over {said}" in text
    assert not re.search(r"\(the same in [\d,]+ deals\)", text)
    # the critical move's "best" as its decision's: only a best told apart from the others (by its gap), else
    # the moves not told apart
    (critical,) = [line for line in text.splitlines() if line.startswith("Critical move: ")]
    assert re.search(r"; (best on average \S+, ahead of \S+ by [\d.]+ .*over the [\d,]+ deals? both could be "
                     r"played in|[^;]+ and \S+ not told apart \(best on average first\))$", critical), critical
