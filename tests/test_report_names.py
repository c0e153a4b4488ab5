"""A report page does not embed the machine's paths (issue 32, item 7): it names its record as given relative
to the page, by the path below the folder given, or by its file name; the pages of a folder report are named
by the path below that folder."""
from __future__ import annotations

import os
import shutil

from click.testing import CliRunner

from analyzer.cli import main
from analyzer.render.names import renamed, shown_name
from conftest import RECORDS


def test_a_record_given_by_its_absolute_path_is_named_by_its_file_name(tmp_path):
    out = tmp_path / "out" / "page.html"
    result = CliRunner().invoke(main, ["report", str((RECORDS / "seed1.dom").resolve()), "-o", str(out)])
    assert result.exit_code == 1, result.output          # the book's record breaks the rules from round 7
    page = out.read_text(encoding="utf-8")
    assert str(RECORDS.resolve()) not in page and str(tmp_path) not in page
    assert "Report on <code>seed1.dom</code>" in page


def test_a_folder_report_names_its_pages_by_the_path_below_the_folder(tmp_path):
    folder = tmp_path / "games"
    (folder / "club").mkdir(parents=True)
    shutil.copy(RECORDS / "seed1.dom", folder / "seed1.dom")
    shutil.copy(RECORDS / "variant-block7.dom", folder / "club" / "block7.dom")
    out = tmp_path / "site"
    CliRunner().invoke(main, ["report", str(folder), "-o", str(out)])
    assert sorted(os.listdir(out)) == ["club-block7.dom.html", "index.html", "seed1.dom.html"]
    for name in os.listdir(out):
        assert str(tmp_path) not in (out / name).read_text(encoding="utf-8"), name
    assert "Report on <code>club/block7.dom</code>" in (out / "club-block7.dom.html").read_text(encoding="utf-8")


def test_relative_paths_lead_from_the_page_to_the_record():
    assert shown_name("records/seed1.dom", "reports/seed1.html") == os.path.join("..", "records", "seed1.dom")
    assert shown_name("/home/ann/games/x.dom", "/srv/www/x.html") == "x.dom"
    assert shown_name("<stdin>", "/srv/www/x.html") == "<stdin>"
    # every place at once, never twice (the new name may contain the old one)
    page = '<code>records/a.dom</code><script>{"source": "records/a.dom"}</script>'
    assert renamed(page, "records/a.dom", "../records/a.dom") == \
        '<code>../records/a.dom</code><script>{"source": "../records/a.dom"}</script>'
