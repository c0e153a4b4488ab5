"""What issue 72's campaign (bench/campaign_72.py, item 7) found on the final tree, each pinned by its minimised
input in tests/data/issue72/: no traceback and no internal error, on the command line or in-process."""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from analyzer.notation import parse, read
from conftest import HANG_SECONDS, RECORDS, ROOT

DATA = ROOT / "tests" / "data" / "issue72"


def _moves(game) -> list[tuple[str, str]]:
    return [(m.player, str(m.tile)) for m in game.moves]


def test_a_sheet_s_cell_on_a_line_after_its_row_follows_the_cell_before_it():
    # a table pasted from a spreadsheet (cells told apart by tabs) whose row goes on on the next line: each cell of
    # that line was placed by its tabs counted from its row's line: with a tab, [5-5] was D's (the column before
    # the first) and [5-4] A's again; with no tab, None - 0 (an internal 'notation' error, the game lost)
    record = read(DATA / "sheet-cell-on-a-line-of-its-own.txt")
    assert not record.errors
    (game,) = record.games
    assert _moves(game) == [("A", "[6-6]"), ("B", "[5-6]"), ("C", "[5-5]"), ("D", "[4-5]")]
    record = parse("Runde\tA\tB\tC\tD\n1\t[6-6]\t[6-5]\n[5-5]\n")
    assert not record.errors
    assert _moves(record.games[0]) == [("A", "[6-6]"), ("B", "[5-6]"), ("C", "[5-5]")]


def test_a_deck_whose_database_cannot_be_made_names_the_deck_and_is_no_internal_error(tmp_path):
    # `train -o DECK` under a file size limit (ulimit -f: as a full disk for genanki's temporary database) was
    # `Error: internal error (OperationalError: disk I/O error)`
    pytest.importorskip("genanki")
    deck = tmp_path / "deck.apkg"
    run = subprocess.run([sys.executable, "-m", "analyzer", "train", "--player", "A", "--worlds", "4", "--max-nodes",
                          "2000", "-o", str(deck), str(RECORDS / "seed1.dom")], cwd=ROOT, capture_output=True, text=True,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192)), timeout=HANG_SECONDS)
    assert run.returncode == 1, run.stderr
    assert f"{deck}: cannot be written" in run.stderr
    assert "internal" not in run.stderr and "Traceback" not in run.stderr
    assert not deck.exists()
