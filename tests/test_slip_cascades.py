"""One error for one slip (issue 84, item 4): a spreadsheet paste with one empty cell where a move was due, and a
draw-game pass with tiles left to draw, each give one error; the errors after it are marked as following from it
(listed, nothing lost) and the verdict counts the one."""
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.repair.triage import triage

from conftest import RECORDS, ROOT

SHEET = ROOT / "tests" / "data" / "misreads" / "seed2-sheet.txt"


def _primary(text: str, name: str):
    (rep,) = replay_record(parse(text, name))
    marked = triage(rep).diagnostics
    return rep, [d for d in marked if d.severity == "error" and not d.details.get("follow_on")], marked


def _verdict(tmp_path, text: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["validate", str(path)]).output
    return next(line for line in out.splitlines() if "INVALID" in line)


def test_a_sheets_empty_cell_is_one_error(tmp_path):
    text = SHEET.read_text(encoding="utf-8").replace("4\t[4-4]\t[0-1]", "4\t[4-4]\t")
    rep, primary, marked = _primary(text, "gap.txt")
    assert len(rep.errors) > 1 and [d.code for d in primary] == ["turn-order"]
    assert all(d.details.get("follows") for d in marked if d.severity == "error" and d not in primary)
    assert _verdict(tmp_path, text, "gap.txt").endswith(
        f"INVALID (1 error, and {len(rep.errors) - 1} that follow from it)")


def test_a_draw_game_pass_with_tiles_to_draw_is_one_error(tmp_path):
    """records/variant-draw.dom with B's two draws and play in row 2 written as a pass: B had to draw (004: "muss
    er aus dem Talon einen Stein aufnehmen"), so what B holds and the line are not the record's from there on:
    every later error follows from that pass."""
    text = (RECORDS / "variant-draw.dom").read_text(encoding="utf-8").replace(
        "2. A [5-6] B draws [4-4] B draws [2-5] B [2-5]", "2. A [5-6] B pass")
    rep, primary, marked = _primary(text, "pass.dom")
    assert len(rep.errors) > 10 and [d.code for d in primary] == ["must-draw"]
    cause = primary[0]
    assert all(d.details.get("follows") == f"{cause.line}:{cause.column}" for d in marked
               if d.severity == "error" and d is not cause)
    assert "INVALID (1 error, and" in _verdict(tmp_path, text, "pass.dom")
