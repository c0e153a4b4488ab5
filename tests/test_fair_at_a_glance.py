"""The fair verdicts read at a glance (issue 32, item 1), on the book deal (records/seed1.dom) and A's log of a
draw game (records/draw-one-view.dom): whose chance a win percentage is, one "best" a list (the fair best; the
open-hands best marked as hindsight's pick), the report's move grid and titles with the fair marks, the Loss
column of a page with fair values only, no claim of exact values there, who holds what reduced to what is
certain, and ``replay --view`` as a compact matrix."""
from __future__ import annotations

import re
from html import unescape

import pytest
from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.pipeline import mover_views
from analyzer.render import build_report, render_html
from analyzer.render.verdicts import HINDSIGHT, holds_groups, holds_lines, void_numbers
from conftest import RECORDS


@pytest.fixture(scope="module")
def fair_text():
    """``analyze --fair`` of the book deal for B and C (B's lead and C's [3-6] are the README's examples)."""
    result = CliRunner().invoke(main, ["analyze", "--fair", "--seat", "B", "--seat", "C",
                                       str(RECORDS / "seed1.dom")])
    assert result.exit_code == 1            # the book's record breaks the rules from round 7
    return result.output


def _decision(text: str, head: str) -> list[str]:
    """The lines of the decision whose first line starts with ``head`` (its fair line and alternatives)."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip().startswith(head))
    out = [lines[start]]
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        out.append(line)
    return out


def test_each_win_chance_names_its_side(fair_text):
    assert "values for A/C" in fair_text.splitlines()[0]
    # B moves for B/D, C for A/C: the chance beside each alternative is the mover's side's, and says so
    b_lead = _decision(fair_text, "move 1, B")
    c_blunder = _decision(fair_text, "move 18, C")
    assert all(re.search(r"B/D win \d+%", line) for line in b_lead[2:])
    assert all(re.search(r"A/C win \d+%", line) for line in c_blunder[2:])
    assert not re.search(r"\bwins \d+%", fair_text)         # no chance without its side


def test_one_best_a_list_and_hindsights_pick_apart(fair_text):
    # B's opening [1-1]: loses 11 with every hand open, yet B's best by what B knew (the README); the
    # open-hands best [0-1] is what hindsight would pick
    b_lead = _decision(fair_text, "move 1, B")
    assert "best [1-1]" in b_lead[1] and "hindsight only" in b_lead[1]
    rows = {line.split()[0]: line for line in b_lead[2:]}
    assert rows["[1-1]"].endswith("played, best") and rows["[0-1]"].endswith(HINDSIGHT)
    assert sum(line.rstrip().endswith("best") for line in b_lead[2:]) == 1
    assert "; best +18;" not in b_lead[0] and "with every hand open (hindsight) best +18, loss 11" in b_lead[0]
    # C's [3-6]: [4-6] on the 6 is best both ways, so no hindsight's pick and one best
    c_blunder = _decision(fair_text, "move 18, C")
    rows = {line.split()[0]: line for line in c_blunder[2:]}
    assert rows["[4-6]@6"].endswith("best") and HINDSIGHT not in "\n".join(c_blunder)
    assert c_blunder[2].split()[0] == "[4-6]@6"            # the verdict's best first


@pytest.fixture(scope="module")
def c_model():
    record = read(RECORDS / "seed1.dom")
    reps = replay_record(record)
    analyses = [fair_analyze(rep, analyze_replay(rep), settings=FairSettings(seats=["C"], worlds=4, exact_below=400),
                             run=FairRun(workers=1))
                for rep in reps]
    analyses = mover_views(analyses)     # (who holds what: the pipeline gives it to the page)
    return build_report(record.source, reps, analyses)


def test_the_report_marks_the_fair_verdicts_in_the_move_grid_and_titles(c_model):
    html = unescape(render_html(c_model))
    grid = re.search(r'<table class="moves">.*?</table>', html, re.S).group(0)
    cell = re.search(r'<button class="mv[^"]*"[^>]*data-move="18"[^>]*>', grid).group(0)
    # C's [3-6]: a real blunder by what C knew, in the cell's class and its title
    assert "verdict-real" in cell and "real blunder: loses 20.1 by what C knew" in cell
    inner = re.search(r'data-move="18".*?</button>', grid, re.S).group(0)
    assert ">critical<" in inner and ">real blunder<" in inner      # the critical move keeps its fair mark
    # B's [1-1], not judged by what B knew (only C was): open-hands class only
    first = re.search(r'<button class="mv[^"]*"[^>]*data-move="1"[^>]*>', grid).group(0)
    assert "cls-mistake" in first and "verdict-" not in first


def test_who_holds_what_puts_the_certain_first(c_model):
    c36 = next(m for m in c_model.games[0].moves if m.player == "C" and m.text.startswith("[3-6]"))
    holds = c36.holds
    # B passed on 4 and 5 (round 2), D on 2 and 4 (round 4): numbers they surely do not hold
    assert holds.voids == {"B": [4, 5], "D": [2, 4]}
    assert sum(len(tiles) for tiles, _ in holds.groups) == len(holds.rows)
    first_tiles, first = holds.groups[0]
    assert all(p in (0, 1) for p in first)          # a tile whose holder is certain comes first
    text = re.sub(r"<[^>]+>", "", unescape(render_html(c_model)))
    assert "B has no 4, no 5" in text and "D has no 2, no 4" in text


def test_a_page_of_fair_values_only_says_so_and_fills_the_loss_column(tmp_path):
    path = tmp_path / "view.html"
    CliRunner().invoke(main, ["report", "--fair", "--decision-deals", "20", "--exact-below", "20",
                              str(RECORDS / "draw-one-view.dom"), "-o", str(path)])
    html = unescape(path.read_text(encoding="utf-8"))
    # (A's log hides B's hand: a sheet, valued over the deals it allows, never "exact" with every hand open)
    assert "Values are exact (" not in html and "is valued over the deals it allows" in html
    tables = re.findall(r'<table class="alts">.*?</table>', html, re.S)
    assert tables
    for table in tables:
        losses = re.findall(r'<td class="loss">(.*?)</td>', table, re.S)
        assert losses and all(cell.strip() for cell in losses)       # every alternative has its loss
        assert "Value (" not in table.split("<tbody>")[0].replace("Fair value (", "")   # no empty open column
        assert re.search(r"<span class=\"pname\">A</span> wins", table)


def test_replay_view_prints_a_compact_matrix():
    out = CliRunner().invoke(main, ["replay", "--view", "C", str(RECORDS / "seed1.dom")]).output
    block = out.split("2. B      pass", 1)[1].split("\n  2. C", 1)[0]
    # after B's pass on 5 and 4: two rows of tiles (B can hold no 4 and no 5), and B's void numbers
    assert "void: B has no 4 and no 5" in block
    rows = [line for line in block.splitlines() if "%" in line and line.strip().endswith("]")]
    assert len(rows) == 2 and any(" - " in row for row in rows)
    # the hidden hands by their size only; C's own in full
    assert "A: 6 tiles  B: 6 tiles  C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]  D: 6 tiles" in block
    assert "  A: 7 tiles, unseen by C" in out
    # never a line per holder listing every unseen tile with its chance
    assert not re.search(r"\[\d-\d\] 0\.\d\d", out)


def test_holds_helpers_on_plain_data():
    holds = {"A": {"[0-1]": 0.5, "[1-1]": 1.0, "[2-2]": 0.5}, "B": {"[0-1]": 0.5, "[2-2]": 0.5}}
    groups = holds_groups(holds, ["A", "B"])
    assert groups[0].tiles == ["[1-1]"] and groups[0].certain
    assert groups[1].tiles == ["[0-1]", "[2-2]"] and groups[1].chances == [0.5, 0.5]
    assert void_numbers(holds, ["A", "B"]) == {}          # B may hold [0-1] and [2-2]: no number ruled out
    holds = {"A": {"[0-1]": 1.0, "[1-1]": 1.0, "[2-2]": 0.5}, "B": {"[2-2]": 0.5}}
    assert void_numbers(holds, ["A", "B"]) == {"B": [0, 1]}
    lines = holds_lines(9, holds, None)
    assert lines[0] == "deals: 9" and lines[-1] == "void: B has no 0 and no 1"
