"""The index page of an archive report: a sortable table of the games and the per-player summary.

Built from plain data: the pipeline's results (one per record, each with its page's name), the
per-player rows and the summary line of the run (the archive computes both); rendered by
``templates/index.html.j2`` as one self-contained page, like the game pages."""
from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import astuple, dataclass, replace
from typing import Any

from .. import __version__
from ..analysis.grades import grade_word
from ..i18n import gettext
from ..outputs import write_atomic
from .page import content_policy, environment, static_text, with_css, with_match_css

__all__ = ["IndexRow", "IndexRows", "ArchiveIndex", "build_index", "index_rows", "render_index", "write_index",
           "page_names"]


@dataclass
class IndexRow:
    record: str                  # the record file, as given
    page: str | None             # the page of the record (relative link), None when it could not be read
    anchor: str                  # the game's anchor on its page ("g2")
    number: int                  # the game's number in its record
    event: str
    players: str
    result: str
    valid: bool
    errors: int
    critical: str | None         # "C [3-6], move 18: loses 12 (mistake)"
    loss: int                    # the critical move's loss (for sorting), 0 without one


class IndexRows:
    """The rows of an archive's index, added as its records finish (in input order) and kept in a temporary file,
    not in memory: read back one at a time when the index is written (:func:`write_index`), so that what an
    archive's report holds does not grow with the archive. Closed (the file removed) by :meth:`close` or at the
    end of a ``with`` block."""

    def __init__(self):
        self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.pages = 0                   # the records with a page

    def add(self, rows: list[IndexRow]) -> None:
        """Keep ``rows``, a record's (:func:`index_rows`), after those added before."""
        self.pages += any(row.page is not None for row in rows)
        for row in rows:
            self._file.write(json.dumps(astuple(row)) + "\n")

    def __iter__(self):
        self._file.seek(0)
        for line in self._file:
            yield IndexRow(*json.loads(line))

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> IndexRows:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class ArchiveIndex:
    title: str
    rows: Iterable[IndexRow]     # a list, or the rows kept as the records finished (:class:`IndexRows`)
    players: list[Any]           # a row per player (``analyzer.archive.stats.PlayerRow``s, or dicts of theirs)
    summary: str                 # the run's closing line (``analyzer.archive.summary.Summary``)
    skill: tuple[list, list] | None = None     # ``report --scale match``: rows per player and per pair (luck, error rate)
    book: str | None = None      # the book of problems beside the index (its file name), where there is one
    bands: dict[str, str] | None = None     # the strength bands' names (``equity.bands.band_names``) by their codes


def page_names(labels: list[str]) -> list[str]:
    """A distinct, safe file name (``sub-folder-game.dom.html``) for the page of every record: never
    ``index.html`` (the archive's index), and distinct where a file system ignores case."""
    out, used = [], {"index.html"}
    for label in labels:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", label.replace("\\", "/").lstrip("./")).strip("-.") or "record"
        name, k = f"{stem}.html", 1
        while name.lower() in used:
            k += 1
            name = f"{stem}-{k}.html"
        used.add(name.lower())
        out.append(name)
    return out


def _critical(analysis: dict | None) -> tuple[str | None, int]:
    c = (analysis or {}).get("critical")
    if not c:
        return None, 0
    words = dict(player=c["player"], move=c["played"], loss=c["loss"], number=c["index"] + 1,
                 grade=grade_word(c["class"]))
    text = (gettext("{player} {move}, move {number}: loses {loss} ({grade})", **words) if c["class"] else
            gettext("{player} {move}, move {number}: loses {loss}", **words))
    return text, c["loss"]


def build_index(results: list[dict], pages: list[str | None], index: ArchiveIndex) -> ArchiveIndex:
    """The index of an archive from the pipeline's ``results`` and the page name of each record: ``index`` (its
    title, the rows of its players, the summary line of the run, the skill rows and the book) with a row for
    each game of ``results`` (:func:`index_rows`)."""
    return replace(index, rows=[row for result, page in zip(results, pages) for row in index_rows(result, page)])


def index_rows(result: dict, page: str | None) -> list[IndexRow]:
    """The rows of one record's result (the pipeline's) in the index: a game each, or
    one for a record that could not be read; ``page``: the record's page (a relative link)."""
    if result["error"] is not None:
        return [IndexRow(result["source"], None, "", 0, gettext("(not read)"), "", result["error"]["message"], False, 1,
                         None, 0)]
    rows = []
    for number, game in enumerate(result["games"], 1):
        critical, loss = _critical(game["analysis"])
        rows.append(IndexRow(result["source"], page, f"g{number}", number, game["event"] or game["title"],
                             ", ".join(game["players"]), game["result_text"] or gettext("no result"),
                             game["valid"], game["errors"], critical, loss))
    return rows


def _pieces(index: ArchiveIndex):
    """The index page's text, piece by piece as the template makes it (a row at a time)."""
    css, script = with_css(static_text("report.css"), "index.css"), static_text("index.js")
    if index.skill:
        css = with_match_css(css)           # (report --scale match: the rules of its luck and skill table)
    page = environment().get_template("index.html.j2")
    return page.generate(index=index, css=css, script=script, csp=content_policy(css, script), version=__version__)


def render_index(index: ArchiveIndex) -> str:
    """The index as one HTML page with its CSS and script inlined."""
    return "".join(_pieces(index))


def write_index(index: ArchiveIndex, path: str | os.PathLike) -> None:
    """Write the index page to ``path`` as :func:`render_index` makes it, piece by piece (its rows read as it goes,
    the page never held whole), whole or not at all (:func:`analyzer.outputs.write_atomic`: a failure raises
    ``OutputError`` naming the file); its folder is made when missing."""
    write_atomic(path, _pieces(index), errors="replace", make_folder=True)
