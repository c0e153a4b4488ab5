"""What issue 72's campaign (bench/campaign_72.py, item 7) found on the final tree, each pinned by its minimised
input in tests/data/issue72/: no traceback and no internal error, on the command line or in-process."""
from __future__ import annotations

from analyzer.notation import parse, read
from conftest import ROOT

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
