"""``domino train``: the problems of a player are exactly the moves of his that the fair analysis graded
(the ones ``stats --fair`` counts), each answer is what ``analyze --fair --json`` says of that move, the
page asks first and reveals on a click or a key (Chromium, desktop and phone widths), and the Anki deck
holds a note per problem."""
from __future__ import annotations

import json
import sqlite3
import zipfile

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.generate import random_game
from analyzer.notation import parse, write
from analyzer.replay import replay
from conftest import RECORDS, settled

# every test here reads the fair analyses its module's fixtures make (``runs``: three at 50 worlds, some 9 s)
pytestmark = pytest.mark.slow

RECORD = str(RECORDS / "seed-both.dom")
WORLDS = "50"


def _run(*args) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output       # (1: the record has errors the book printed)
    return result.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("train")
    _run("train", RECORD, "--player", "b", "--decision-deals", WORLDS, "-o", str(out / "p.json"),
         "--html", str(out / "p.html"), "-o", str(out / "deck.apkg"))
    analysed = json.loads(_run("analyze", RECORD, "--fair", "--decision-deals", WORLDS, "--json"))
    stats = json.loads(_run("stats", RECORD, "--fair", WORLDS, "--json"))
    return json.loads((out / "p.json").read_text()), analysed, stats, out


def test_the_problems_are_the_players_graded_moves_each_answer_the_fair_analysis(runs):
    problems, analysed, stats, _ = runs
    _the_graded_moves_answered_as_analysed(problems, analysed, stats)


def _the_graded_moves_answered_as_analysed(problems: dict, analysed: dict, stats: list) -> None:
    """B's problems are the moves of his that ``analyze --fair`` graded, each answered as it says, real mistakes
    first, and ``stats --fair`` counts as many real mistakes among as many judged moves."""
    graded, numbers = [], {}
    for g in analysed["games"]:                 # (a game's number is its place in its own file)
        numbers[g["file"]] = numbers.get(g["file"], 0) + 1
        graded += [(g["file"], numbers[g["file"]], d) for d in g["decisions"] if d["player"] == "B"
                   and (d.get("fair") or {}).get("class") and d["fair"]["verdict"] in ("real", "uncertain")]
    assert problems["count"] == len(graded) > 0
    mine = {(p["source"], p["game"], p["step"]): p for p in problems["problems"]}
    assert set(mine) == {(file, number, d["index"]) for file, number, d in graded}
    for file, number, d in graded:
        p = mine[(file, number, d["index"])]
        assert (p["played"], p["best"], p["loss"], p["cls"], p["verdict"]) == (
            d["played"], d["fair"]["best"] or d["fair"]["tied"][0], d["fair"]["loss"], d["fair"]["class"],
            d["fair"]["verdict"])
        assert sorted((a["move"], a["fair"], a["ci95"]) for a in p["alternatives"]) == sorted(
            (a["move"], a["fair"]["mean"], a["fair"]["ci95"]) for a in d["alternatives"])
    # real mistakes first, then by loss
    order = [(p["verdict"] != "real", -p["loss"]) for p in problems["problems"]]
    assert order == sorted(order)
    # stats --fair counts the same real mistakes among the same judged moves
    judged = [d for g in analysed["games"] for d in g["decisions"]
              if d["player"] == "B" and (d.get("fair") or {}).get("loss") is not None]
    row = next(r for r in stats if r["player"] == "B")
    real = sum(p["verdict"] == "real" for p in problems["problems"])
    assert row["real_mistakes_per_100"] == pytest.approx(100 * real / len(judged), abs=0.05)


@pytest.fixture(scope="module")
def generated_runs(tmp_path_factory):
    """``train``, ``analyze --fair`` and ``stats --fair`` over a generated archive: a folder of random
    partnership and block games (random legal play: mistakes of every size)."""
    folder = tmp_path_factory.mktemp("archive")
    for seed, variant in enumerate(("partnership", "block", "partnership", "block")):
        (folder / f"game-{seed}.dom").write_text(write(random_game(variant, 100 + seed)), encoding="utf-8")
    out = tmp_path_factory.mktemp("train-generated")
    _run("train", str(folder), "--player", "B", "--decision-deals", "20", "-o", str(out / "p.json"))
    analysed = json.loads(_run("analyze", str(folder), "--fair", "--decision-deals", "20", "--json"))
    stats = json.loads(_run("stats", str(folder), "--fair", "20", "--json"))
    return json.loads((out / "p.json").read_text()), analysed, stats


@pytest.mark.slow
def test_on_a_generated_archive_the_problems_are_the_graded_moves_each_answer_the_fair_analysis(generated_runs):
    problems, analysed, stats = generated_runs
    assert len({p["source"] for p in problems["problems"]}) > 1          # (from several records of the folder)
    _the_graded_moves_answered_as_analysed(problems, analysed, stats)
    for p in problems["problems"]:                  # each the position he saw, read back from its set-up
        rep = replay(parse(p["position"]).games[0])
        assert rep.valid and rep.initial.turn == rep.players.index(p["player"])


def test_each_problem_is_the_position_he_saw_as_a_set_up_that_reads_back(runs):
    problems, *_ = runs
    for p in problems["problems"]:
        rep = replay(parse(p["position"]).games[0])
        assert rep.valid and not rep.steps
        seat = rep.players.index(p["player"])
        assert rep.initial.turn == seat and not rep.initial.hidden[seat]
        assert all(rep.initial.hidden[s] and not rep.initial.hands[s] for s in range(len(rep.players)) if s != seat)


def test_min_class_and_max_keep_the_worst_first(runs, tmp_path):
    problems, *_ = runs
    _run("train", RECORD, "--player", "B", "--decision-deals", WORLDS, "--min-class", "mistake", "--max", "1",
         "-o", str(tmp_path / "m.json"))
    kept = json.loads((tmp_path / "m.json").read_text())["problems"]
    wanted = [p for p in problems["problems"] if p["cls"] in ("mistake", "blunder")][:1]
    assert [(p["game"], p["step"]) for p in kept] == [(p["game"], p["step"]) for p in wanted]


def test_the_anki_deck_holds_a_note_per_problem(runs):
    problems, _, _, out = runs
    with zipfile.ZipFile(out / "deck.apkg") as deck:
        (out / "collection.anki2").write_bytes(deck.read("collection.anki2"))
    with sqlite3.connect(out / "collection.anki2") as db:
        notes = db.execute("select flds from notes").fetchall()
    assert len(notes) == problems["count"]
    assert all("what do you play?" in fields for (fields,) in notes)


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_page_asks_first_then_reveals_and_goes_on(open_page, runs, width, height):
    problems, _, _, out = runs
    page, seen = open_page(out / "p.html", width=width, height=height)
    first = page.locator("#problem-1")
    assert first.is_visible() and not first.locator(".answer").is_visible()
    assert page.locator("#problem-2").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    first.locator(".reveal").click()
    settled(page)
    assert first.locator(".answer").is_visible()
    assert first.locator("strong.best").inner_text() == problems["problems"][0]["best"]
    first.locator(".next").click()
    settled(page)
    assert first.is_hidden() and page.locator("#problem-2").is_visible()
    page.keyboard.press(" ")                 # the keys: space reveals, P goes back
    settled(page)
    assert page.locator("#problem-2 .answer").is_visible()
    page.keyboard.press("p")
    settled(page)
    assert first.is_visible()
    assert not seen.errors and not seen.dialogs


# -- on the match scale --------------------------------------------------------------------------------
# match-milo.dom: a partnership match to 5 whose every hand has its match position (MWC table: Milo's);
# match-further.dom: a match to 30 points, which no MWC table covers (``analyze`` grades it in points only)
MATCH = [str(RECORDS / "match-milo.dom"), str(RECORDS / "match-further.dom")]


@pytest.fixture(scope="module")
def match_runs(tmp_path_factory):
    out = tmp_path_factory.mktemp("train-match")
    _run("train", *MATCH, "--player", "B", "--scale", "match", "--decision-deals", "20", "-o", str(out / "p.json"),
         "--html", str(out / "p.html"), "-o", str(out / "deck.apkg"))
    analysed = json.loads(_run("analyze", *MATCH, "--fair", "--scale", "match", "--decision-deals", "20", "--json"))
    return json.loads((out / "p.json").read_text()), analysed, out


@pytest.mark.slow
def test_on_the_match_scale_the_problems_are_graded_and_answered_by_match_winning_chance(match_runs):
    problems, analysed, _ = match_runs
    mine = {(p["source"], p["game"], p["step"]): p for p in problems["problems"]}
    on_match = points = 0
    numbers = {}
    for g in analysed["games"]:                    # (each game's number in its own file)
        numbers[g["file"]] = numbers.get(g["file"], 0) + 1
        for d in g["decisions"]:
            fair = d.get("fair") or {}
            if d["player"] != "B" or fair.get("verdict") not in ("real", "uncertain"):
                continue
            match = fair.get("mwc_loss") is not None
            cls = fair.get("mwc_class") if match else fair.get("class")
            p = mine.pop((g["file"], numbers[g["file"]], d["index"]), None)
            assert (p is not None) == (cls is not None), (g["file"], d["index"])
            if p is None:
                continue
            assert p["scale"] == ("match" if match else "points") and p["cls"] == cls
            if not match:
                points += 1
                # (a tied verdict names no best: the problem's answer is the first of its tied moves)
                assert (p["best"], p["loss"]) == (fair["best"] or fair["tied"][0], fair["loss"])
                continue
            on_match += 1
            sign = 1 if d["side"] == 0 else -1          # (the MWC is A/C's: B and D want it low)
            chances = {a["move"]: a["fair"]["mwc"] for a in d["alternatives"] if a.get("fair")}
            assert {a["move"]: a["mwc"] for a in p["alternatives"]} == chances
            assert p["best"] == max(chances, key=lambda m: sign * chances[m])
            assert p["loss"] == fair["mwc_loss"] == pytest.approx(
                sign * (chances[p["best"]] - chances[d["played"]]), abs=2e-6)
    assert not mine and on_match and points
    # graded on the match scale first (a loss in points is no fraction of a match), real mistakes first, by loss
    order = [(p["scale"] != "match", p["verdict"] != "real", -p["loss"]) for p in problems["problems"]]
    assert order == sorted(order)


@pytest.mark.slow
def test_the_page_and_the_deck_give_the_match_winning_chances(match_runs):
    problems, _, out = match_runs
    page = (out / "p.html").read_text()
    first = problems["problems"][0]
    assert first["scale"] == "match" and "Fair MWC" in page
    assert f"{100 * first['loss']:.2f}% of match-winning chance" in page
    with zipfile.ZipFile(out / "deck.apkg") as deck:
        (out / "collection.anki2").write_bytes(deck.read("collection.anki2"))
    with sqlite3.connect(out / "collection.anki2") as db:
        backs = [fields for (fields,) in db.execute("select flds from notes")]
    assert sum("match-winning chance" in fields for fields in backs) == sum(p["scale"] == "match" for p in problems["problems"])


@pytest.mark.slow
@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_match_page_shows_the_mwc_column_within_the_width(open_page, match_runs, width, height):
    problems, _, out = match_runs
    page, seen = open_page(out / "p.html", width=width, height=height)
    first = page.locator("#problem-1")
    first.locator(".reveal").click()
    settled(page)
    assert first.locator("table.alternatives th").all_inner_texts()[3] == "Fair MWC"
    best = first.locator("tr.best td").all_inner_texts()
    assert best[0] == problems["problems"][0]["best"] and best[3].endswith("%")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.screenshot(path=str(out / f"match-{width}.png"), full_page=True)
    assert not seen.errors and not seen.dialogs
