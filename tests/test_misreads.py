"""Issue #67 item 3: records written the natural way read as written, and misreads named exactly.

Hungarian (004: "Ist er am Ende, versucht der nächste Spieler ... Kann keiner der Spieler mehr auslegen"):
the hand goes on until nobody can play, so a player who is out has nothing to do and the passes written
after the end show it. The draw game (004: "Wenn ein Spieler keinen passenden Stein hat, muss er aus dem
Talon einen Stein aufnehmen"): a pass with tiles to draw is wrong whatever the hand holds. Misspelt tags,
a table pasted from a spreadsheet, a dropped cell's repair and the slip's words."""
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli import main
from analyzer.notation import parse, read
from analyzer.notation.tags import nearest_tag
from analyzer.repair.triage import triage
from analyzer.replay import replay
from conftest import RECORDS

DATA = Path(__file__).parent / "data" / "misreads"


def replayed(text: str):
    record = parse(text)
    (game,) = record.games
    return record, replay(game)


def codes(rep) -> list[str]:
    return [d.code for d in rep.errors]


# ---- Hungarian ---------------------------------------------------------------------------------------

def test_hungarian_player_out_is_skipped_naturally():
    # A goes out in row 2; B and C play on (B goes out too): the record simply leaves A out of row 3
    rep = replay(read(DATA / "hungarian-out-skipped.dom").games[0])
    assert rep.valid, rep.errors
    inserted = [d for d in rep.diagnostics if d.code == "pass-inserted"]
    assert len(inserted) == 1 and inserted[0].severity == "info" and "A is out" in inserted[0].message


def test_hungarian_passes_after_the_end_show_it():
    # the passes written after nobody can play (A and B out, C stuck) are how the hand is shown over
    rep = replay(read(DATA / "hungarian-passes-after.dom").games[0])
    assert rep.valid, rep.errors
    text = (DATA / "hungarian-passes-after.dom").read_text().replace("C pass", "C pass A pass B pass")
    _, rep = replayed(text)
    assert rep.valid, rep.errors


def test_hungarian_blocked_hand_passes_accepted_and_a_play_after_it_named_truly():
    text = (DATA / "hungarian-out-skipped.dom").read_text()
    blocked = text.replace("3. B [1-1]", "3. B [1-1] C pass A pass")
    _, rep = replayed(blocked)
    assert rep.valid, rep.errors
    late = text.replace("3. B [1-1]", "3. B [1-1] C [0-0]")       # C's [0-0] fits nothing: 0 is closed
    _, rep = replayed(late)
    (error,) = rep.errors
    assert error.code == "play-after-end"
    assert "nobody could play on" in error.message and "A and B went out" in error.message


def test_hungarian_blocked_with_nobody_out_says_no_one_went_out():
    text = """[Variant "hungarian"]
[Rules "players=3"]
[Players "A, B, C"]
[Lead "A"]
[Result "B 10 blocked"]

A: [0-1] [0-4] [1-4] [1-6] [2-2] [2-6] [5-6] [6-6]
B: [0-0] [0-6] [1-3] [1-5] [2-5] [3-3] [3-4] [4-5]
C: [0-2] [0-3] [0-5] [1-1] [2-3] [2-4] [4-4] [5-5]

1. A [0-1] A [1-6] A [0-4] A [6-6] A [5-6] A [1-4] B [2-5] B [1-3] B [3-3] B [3-4] B [4-5] B [1-5] C [2-3] C [1-1] C [0-3] C [0-5] C [5-5]
2. A pass B pass C pass
"""
    _, rep = replayed(text)
    assert rep.valid, rep.errors
    _, rep = replayed(text.replace("2. A pass B pass C pass", "2. A pass B pass C pass A [2-2]"))
    (error,) = rep.errors
    assert error.code == "play-after-end" and "went out" not in error.message
    assert "nobody could play on" in error.message


# ---- the draw game -----------------------------------------------------------------------------------

DRAW = """[Variant "draw"]
[Players "A, B"]
[Lead "B"]

A: {a}
B: [0-0] [0-1] [0-2] [1-1] [1-2] [1-3] [2-3] [5-5]

1. B [5-5]
2. A pass
"""


def test_draw_game_pass_with_stock_is_an_error_whatever_the_hand():
    # 12 tiles in the boneyard: whoever cannot play on 5 draws, whoever can plays; the hand written or not
    for hand in ("?", "[0-4] [0-6] [1-4] [2-4] [2-6] [3-3] [3-4] [1-6]"):
        _, rep = replayed(DRAW.format(a=hand))
        assert codes(rep) == ["must-draw"], (hand, rep.errors)
    _, rep = replayed(DRAW.format(a="?"))
    assert "tiles left to draw" in rep.errors[0].message and "boneyard (12 tiles" in rep.errors[0].message


# ---- misspelt tags -----------------------------------------------------------------------------------

def test_misspelt_tags_warn_with_the_tag_meant():
    record = parse('[Reslt "A/C 10 domino"]\n[Varaint "all-fives"]\n[Annotator "me"]\n[result "x"]\nA: ?\n')
    warned = {d.details["tag"]: d.details["nearest"] for d in record.errors if d.code == "unknown-tag"}
    assert warned == {"Reslt": "Result", "Varaint": "Variant", "result": "Result"}
    assert all(d.severity == "warning" for d in record.errors if d.code == "unknown-tag")
    assert "the result is not checked" in next(d.message for d in record.errors if d.details.get("tag") == "Reslt")
    assert record.games[0].tags["Reslt"] == "A/C 10 domino"        # kept as written


def test_nearest_tag_leaves_words_of_their_own():
    for name in ("Annotator", "Round", "Table", "Board", "Name", "Dealer", "Result", "Expect"):
        assert nearest_tag(name) is None, name
    assert nearest_tag("Ruels") == "Rules" and nearest_tag("Player") == "Players" and nearest_tag("VARIANT") == "Variant"


# ---- a table pasted from a spreadsheet ----------------------------------------------------------------

def test_sheet_with_tabs_and_empty_cells_reads_as_its_columns():
    for sheet, table in (("seed2-sheet.txt", "seed2-table.txt"), ("seed1-sheet.txt", "seed1-table.txt")):
        pasted, spaced = read(DATA / sheet).games[0], read(RECORDS / table).games[0]
        assert [(m.player, m.tile, m.round) for m in pasted.moves] == \
            [(m.player, m.tile, m.round) for m in spaced.moves], sheet
    rep = replay(read(DATA / "seed2-sheet.txt").games[0])
    assert rep.valid, rep.errors                   # (before: 17 errors and no likely slip)


def test_sheet_empty_cell_where_a_move_was_due_is_one_error_there():
    text = (DATA / "seed2-sheet.txt").read_text().replace("4\t[4-4]\t[0-1]", "4\t[4-4]\t")
    rep = replay(parse(text).games[0])
    primary = triage(rep).primary
    assert len(primary) == 1 and primary[0].line == text.split("\n").index("4\t[4-4]\t\t[0-2]\tpasst") + 1


# ---- a dropped cell's repair keeps the sheet's rows ----------------------------------------------------

def test_dropped_cell_repair_keeps_the_rows(tmp_path):
    table = (RECORDS / "seed2-table.txt").read_text()
    dropped = table.replace("5 [2-2] [2-6] [4-6] passt", "5 [2-2] [4-6] passt")
    assert dropped != table
    src, out = tmp_path / "dropped.txt", tmp_path / "repaired.txt"
    src.write_text(dropped)
    result = CliRunner().invoke(main, ["validate", "--write-repaired", str(out), str(src)])
    assert out.exists(), result.output
    assert out.read_text() == table               # (before: "5 [2-2] [2-6]" then "5 ----  ----  [4-6] passt")


# ---- the slip's words ------------------------------------------------------------------------------------

def test_slip_words_read_as_sentences():
    rep = replay(parse(DRAW.format(a="[0-4] [0-6] [1-4] [2-4] [2-6] [3-3] [3-4] [5-6]")).games[0])
    likely = triage(rep).likely
    assert likely is not None
    assert "ends the hand is not over" not in likely and "before (" not in likely
    assert likely.endswith("with it the record is valid, though it stops before the hand is over"), likely
    seed = replay(read(RECORDS / "seed1-table.txt").games[0])
    likely = triage(seed).likely
    assert "before the entry at round 7, line 22, column 3" in likely and likely.endswith("and ends as stated")


def test_hungarian_slip_after_the_end_is_the_play_alone():
    # the repair search skips the player who is out as the replayer does: the slip is C's [0-0], not the row
    text = (DATA / "hungarian-out-skipped.dom").read_text().replace("3. B [1-1]", "3. B [1-1] C [0-0]")
    likely = triage(replayed(text)[1]).likely
    assert likely.startswith("likely slip: delete C's [0-0]"), likely


def test_sheet_repair_keeps_the_sheet_form(tmp_path):
    sheet = (DATA / "seed2-sheet.txt").read_text()
    gap = sheet.replace("4\t[4-4]\t[0-1]", "4\t[4-4]\t")
    src, out = tmp_path / "gap.txt", tmp_path / "repaired.txt"
    src.write_text(gap)
    result = CliRunner().invoke(main, ["validate", "--write-repaired", str(out), str(src)])
    assert out.exists(), result.output
    assert out.read_text() == sheet               # the cell put back, tabs and empty cells as they were


def test_hungarian_repair_writes_no_passes_tag(tmp_path):
    # skipping a player who is out is how the record is written, not passes left out: the repaired record says
    # nothing of [Passes "omitted"]
    text = (DATA / "hungarian-out-skipped.dom").read_text()
    src, out = tmp_path / "late.dom", tmp_path / "repaired.dom"
    src.write_text(text.replace("3. B [1-1]", "3. B [1-1] C [0-0]"))
    result = CliRunner().invoke(main, ["validate", "--write-repaired", str(out), str(src)])
    assert out.exists(), result.output
    assert out.read_text() == text


def test_every_tag_the_tool_reads_is_a_known_tag():
    """A tag some part of the tool reads is never warned about as a misspelling of another (the house rules' Clock
    and Fence, a tournament file's Scheme and Pairs): every ``tags.get("X")`` and ``tag("X")`` of the package names a
    known tag."""
    import pathlib
    import re

    from analyzer.notation.tags import KNOWN_TAGS
    root = pathlib.Path(__file__).resolve().parent.parent / "analyzer"
    read = set()
    for path in root.rglob("*.py"):
        read |= set(re.findall(r"""(?:tags\.get|tag_lines\.get|\btag)\(\s*["']([A-Z][A-Za-z]+)["']""", path.read_text()))
    assert read >= {"Result", "Variant", "Clock", "Fence"}
    assert sorted(read - set(KNOWN_TAGS)) == []


def test_a_tag_name_far_longer_than_any_known_tag_is_compared_with_none(monkeypatch):
    """Issue 87 item 6: a tag name of 100,000 letters took 9.5 s to read (its distance to every known tag worked
    out letter by letter, 75 ms a KB). A slip changes a name's length by at most one letter, so a name longer by
    more than the slips allowed is near no known tag, and is compared with none: the work does not grow with it."""
    from analyzer.notation import tags

    work = []
    real = tags._slips
    monkeypatch.setattr(tags, "_slips", lambda a, b: (work.append(len(a) * len(b)), real(a, b))[1])
    record = parse('[' + "A" * 100_000 + ' "x"]\n[Reslt "*"]\n[Variant "block"]\n\nA: [0-0]\nB: [1-1]\n\n1. A [0-0]\n', "long")
    assert sum(work) <= 12 * 12 * len(tags.KNOWN_TAGS)          # (only "Reslt" is compared, with names of 4 to 6)
    assert record.games and record.games[0].tags["A" * 100_000] == "x"       # (kept as written)
    assert tags.nearest_tag("Reslt") == "Result" and tags.nearest_tag("A" * 100_000) is None
