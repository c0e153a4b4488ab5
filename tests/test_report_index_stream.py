"""An archive's index written as its records finish (issue 57 item 3): its rows kept in a temporary file, not in
memory, and read back in input order; the page written piece by piece is the page rendered whole; and
``domino report`` of a folder writes the index the whole results give (its rows and its players' table)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from analyzer.archive.stats import player_rows
from analyzer.match import random_match
from analyzer.notation import write
from analyzer.pipeline import Options
from analyzer.render.index import ArchiveIndex, IndexRow, IndexRows, build_index, render_index, write_index
from analyzer.render.names import shown_name
from analyzer.archive.task import process
from test_cli import run

_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
_ROWS = st.builds(IndexRow, _TEXT, st.none() | _TEXT, _TEXT, st.integers(0, 99), _TEXT, _TEXT, _TEXT, st.booleans(),
                  st.integers(0, 9), st.none() | _TEXT, st.integers(0, 200))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_ROWS, max_size=4), max_size=8))
def test_rows_kept_in_a_file_come_back_in_order(records):
    """Whatever a record's texts hold (line breaks, quotes, any character), the rows read back are the rows added,
    in the order added, as often as they are read; a record with a page counts once."""
    with IndexRows() as kept:
        for rows in records:
            kept.add(rows)
        flat = [row for rows in records for row in rows]
        assert list(kept) == flat and list(kept) == flat
        assert kept.pages == sum(any(row.page is not None for row in rows) for rows in records)


def test_the_index_written_piece_by_piece_is_the_page_rendered_whole(tmp_path):
    rows = [IndexRow(f"r{k}.dom", f"r{k}.html", "g1", 1, "<b>ev</b>", "A, B", "A/C win 5", k % 2 == 0, k % 3,
                     None if k % 4 else "C [3-6], move 18: loses 12 (mistake)", 12) for k in range(50)]
    index = ArchiveIndex("Archive: x", rows, [], "50 records")
    with IndexRows() as kept:
        kept.add(rows)
        write_index(ArchiveIndex("Archive: x", kept, [], "50 records"), tmp_path / "index.html")
    assert (tmp_path / "index.html").read_text(encoding="utf-8") == render_index(index)


def test_the_archive_report_writes_the_index_of_the_whole_results(tmp_path):
    """``domino report`` of a folder of generated records (one that cannot be read among them) writes the index
    that the index of all its results, held together, gives: the same bytes."""
    folder = tmp_path / "in"
    folder.mkdir()
    for k in range(4):
        (folder / f"{k}.dom").write_text(write(random_match("partnership", seed=k, games=2)), encoding="utf-8")
    (folder / "9.dom").write_bytes(b"\xff\xfe not a record")
    out = tmp_path / "out"
    result = run("report", str(folder), "-o", str(out), "--jobs", "1", "--quiet")
    assert result.exit_code in (0, 1), result.output
    options = Options("report", lines=True, fair_hidden=True)
    results = [process(str(path), path.read_bytes(), options) for path in sorted(folder.iterdir())]
    pages = [None if r["error"] else path.name + ".html" for r, path in zip(results, sorted(folder.iterdir()))]
    shown = [{**r, "source": shown_name(r["source"], str(out / "index.html"), [str(folder)])} for r in results]
    written = (out / "index.html").read_text(encoding="utf-8")
    whole = render_index(build_index(shown, pages, ArchiveIndex(f"Archive: {folder.name}", [], player_rows(results),
                                                                _summary_line(written))))
    assert written == whole
    assert written.count('<tr class="valid">') + written.count('<tr class="invalid">') == 4 * 2 + 1


def _summary_line(page: str) -> str:
    """The run's summary line as the page shows it (the archive's Summary: counted by the command itself)."""
    import html
    import re

    return html.unescape(re.search(r'<p class="source" id="summary">(.*?)</p>', page, re.S).group(1))
