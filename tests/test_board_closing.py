"""Issue 50, "a sheet's own words": the result written in one click in the record's form. A book table with no
Result tag and no closing line is closed as the book closes its tables (000: ``6 [3-4] [2-3] [2-4] Das Spiel ist
gesperrt!`` then ``Die Spieler A und C gewinnen 46 Punkte.``; ``Spieler B macht Domino und die Spieler A und C
verlieren 10 Punkte.``), in the table's language; the text so made validates clean with ``domino validate`` and
reads the same result; a PGN-like record keeps the Result tag."""
from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys

import pytest

from analyzer.generate import random_game
from analyzer.notation import parse, write
from analyzer.notation.writer import write_table
from analyzer.record import Record, StatedResult
from analyzer.server.library import BoardRecord, position_data, result_entry

from conftest import RECORDS, ROOT

BOOK = RECORDS.joinpath("seed2-table.txt").read_text(encoding="utf-8")
# the book's second game (000) as the sheet gives it before its closing line: no Result tag, no "gesperrt"
OPEN_BOOK = BOOK.replace('[Result "A/C 46 blocked"]\n', "").replace(" Das Spiel ist gesperrt!", "")


def _table(variant: str, seed: int, german: bool = False) -> tuple[str, str]:
    """A random game of ``variant`` as a book table (one numbered row a round) without its result; in German
    (``Spieler A:``, ``Runde Spieler A ...``, ``passt``) as the book writes it; (the text, its Result tag)."""
    game = random_game(variant, seed)
    stated = game.tags.pop("Result")
    order = {p: k for k, p in enumerate(game.players)}
    number, prev, moves = 0, None, []
    for m in game.moves:
        number += prev is None or order[m.player] <= order[prev]
        prev = m.player
        moves.append(dataclasses.replace(m, round=number))
    text = write_table(dataclasses.replace(game, moves=moves, form="table"))
    if german:
        text = re.sub(r"^([A-Z]):", r"Spieler \1:", text, flags=re.M)
        text = re.sub(r"^Round .*$", "Runde " + " ".join(f"Spieler {p}" for p in game.players), text, flags=re.M)
        text = re.sub(r"\bpass\b", "passt", text)
    return text, stated


def _validate(text: str, tmp_path) -> dict:
    """``domino validate --json`` of ``text`` saved in a file: its one game."""
    path = tmp_path / "saved.txt"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "analyzer", "validate", "--json", str(path)], capture_output=True,
                         text=True, cwd=ROOT)
    (game,) = json.loads(out.stdout)["games"]
    return game


def _same_result(game: dict, stated: str) -> bool:
    """Whether validate's result is the one a Result tag ``stated`` states."""
    s, r = StatedResult.parse(stated), game["result"]
    return (r["termination"] == s.termination and r["points"] == s.points
            and (r["winner"] is None) == (s.side is None) and set(r["winner"] or ()) >= set(s.side or ()))


@pytest.mark.parametrize("german", [False, True])
@pytest.mark.parametrize("variant, seed", [("partnership", 0), ("partnership", 7), ("cutthroat", 0), ("milo", 0)])
def test_a_table_without_its_closing_line_gets_it_in_its_own_words(tmp_path, variant, seed, german):
    text, stated = _table(variant, seed, german)
    board = position_data(BoardRecord(text, "x"))
    assert board["result"] == stated and board["stated"] is None and board["written"] is False
    out = result_entry(BoardRecord(text, "x"), 0)
    assert out["result"] == stated and out["closing"] == board["closing"]
    new = out["text"]
    assert "[Result" not in new
    # only lines added: the closing words after the last row's cells, the prose under it
    assert [x for x in new.split("\n") if x not in text.split("\n")] == \
        [x for x in new.split("\n") if x.strip() and any(w in x for w in out["closing"])]
    blocked = stated.endswith("blocked")
    words = ("Das Spiel ist gesperrt!" if german else "The game is blocked!") if blocked else \
        ("macht Domino" if german else "goes out (domino)") if "domino" in stated else \
        ("macht Milo" if german else "goes out (milo)")
    assert words in " ".join(out["closing"])
    assert ("Punkt" in out["closing"][-1]) == german and ("point" in out["closing"][-1]) != german
    game = _validate(new, tmp_path)
    assert game["valid"] and [d for d in game["diagnostics"] if d["severity"] != "info"] == []
    assert _same_result(game, stated)
    assert parse(new, "x").games[0].remark == "\n".join(out["closing"])
    # written: nothing more offered
    assert position_data(BoardRecord(new, "x"))["written"] is True


def test_the_books_blocked_game_closes_as_the_book_closes_it(tmp_path):
    """000's second game, its closing words taken away: the board writes them back as the book has them."""
    out = result_entry(BoardRecord(OPEN_BOOK, "x"), 0)
    assert out["closing"] == ["Das Spiel ist gesperrt!", "Die Spieler A und C gewinnen 46 Punkte."]
    assert "6 [3-4] [2-3] [2-4] Das Spiel ist gesperrt!\n\nDie Spieler A und C gewinnen 46 Punkte." in out["text"]
    assert out["text"].startswith(OPEN_BOOK.split("6 [3-4]")[0])
    game = _validate(out["text"], tmp_path)
    assert game["valid"] and _same_result(game, "A/C 46 blocked")


def test_a_pgn_record_and_a_table_with_a_result_tag_keep_the_tag():
    game = random_game("partnership", 3)
    full = write(Record([game], "x", []))
    stated = game.tags["Result"]
    assert result_entry(BoardRecord(full.replace(f'[Result "{stated}"]\n', ""), "x"), 0) == \
        {"text": full, "result": stated, "closing": None}
    # the book's table with a wrong Result tag: the tag is written anew, no closing line added
    wrong = BOOK.replace("A/C 46 blocked", "B/D 46 blocked")
    assert position_data(BoardRecord(wrong, "x"))["written"] is False
    assert result_entry(BoardRecord(wrong, "x"), 0) == {"text": BOOK, "result": "A/C 46 blocked", "closing": None}
    # a table that closes with its own remark already is not offered another
    assert position_data(BoardRecord(BOOK.replace('[Result "A/C 46 blocked"]\n', ""), "x"))["written"] is True


def test_the_closing_line_is_written_in_one_click_and_saved(browser, tmp_path):
    """In Chromium: the book's table without its closing words, at its end: one click writes them, Save writes
    the file, and ``domino validate`` of the file is clean and reads the book's result; Undo takes them back."""
    expect = pytest.importorskip("playwright.sync_api").expect
    from conftest import board_at_end, board_page

    (tmp_path / "book.txt").write_text(OPEN_BOOK, encoding="utf-8")
    with board_page(browser, tmp_path, "book.txt") as page:
        board_at_end(page)
        expect(page.locator("#tomove")).to_contain_text("The hand is over")
        expect(page.locator("#writeresult")).to_have_text(
            "Write the result: Das Spiel ist gesperrt! Die Spieler A und C gewinnen 46 Punkte.")
        page.click("#writeresult")
        expect(page.locator("#writeresult")).to_have_count(0)
        written = page.input_value("#text")
        assert written == result_entry(BoardRecord(OPEN_BOOK, "x"), 0)["text"]
        page.click("#save")
        expect(page.locator("#filestate")).to_have_text(re.compile(r"^saved "))
        saved = (tmp_path / "book.txt").read_text(encoding="utf-8")
        assert saved == written
        game = _validate(saved, tmp_path)
        assert game["valid"] and _same_result(game, "A/C 46 blocked")
        page.click("#undo")
        expect(page.locator("#text")).to_have_value(OPEN_BOOK)
