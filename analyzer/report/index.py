"""The index page of an archive report: a sortable table of the games and the per-player summary.

Built from plain data: the pipeline's results (one per record, each with its page's name), the
per-player rows and the summary line of the run (the archive computes both); rendered by
``templates/index.html.j2`` as one self-contained page, like the game pages."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .. import __version__
from typing import Any

from .render import content_policy, environment, static_text, with_css, with_match_css

__all__ = ["IndexRow", "ArchiveIndex", "build_index", "render_index", "page_names", "index_entry"]


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
    critical: str | None         # "C [3-6] in round 5: loses 12 (mistake)"
    loss: int                    # the critical move's loss (for sorting), 0 without one


@dataclass
class ArchiveIndex:
    title: str
    rows: list[IndexRow]
    players: list[Any]           # a row per player (``analyzer.archive.stats.PlayerRow``s, or dicts of theirs)
    summary: str                 # the run's closing line (``analyzer.archive.summary.Summary``)
    skill: tuple[list, list] | None = None     # ``report --scale match``: rows per player and per pair (luck, error rate)
    book: str | None = None      # the book of problems beside the index (its file name), where there is one


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
    where = f" in round {c['round']}" if c["round"] is not None else f" (move {c['index'] + 1})"
    cls = f" ({c['class']})" if c["class"] else ""
    return f"{c['player']} {c['played']}{where}: loses {c['loss']}{cls}", c["loss"]


def index_entry(result: dict) -> dict:
    """What an archive's report keeps of a record's result once its page is written, for the index and the
    players' table (:func:`build_index`, ``archive.player_rows``): the result without its page and without the
    best lines of the analysis (``lines``, each alternative's ``line``: the page's line view, most of a result), so that what is held while the
    archive runs stays small. ``result`` is left as it was."""
    def alternative(a: dict) -> dict:
        return {k: v for k, v in a.items() if k != "line"} if isinstance(a, dict) else a

    def game(g: dict) -> dict:
        analysis = g.get("analysis")
        if not isinstance(analysis, dict):
            return g
        decisions = [{**d, "alternatives": [alternative(a) for a in d.get("alternatives") or ()]}
                     if isinstance(d, dict) else d for d in analysis.get("decisions") or ()]
        return {**g, "analysis": {**{k: v for k, v in analysis.items() if k != "lines"}, "decisions": decisions}}

    out = {k: v for k, v in result.items() if k != "page"}
    if out.get("games"):
        out["games"] = [game(g) if isinstance(g, dict) else g for g in out["games"]]
    return out


def build_index(results: list[dict], pages: list[str | None], players: list, summary: str,
                title: str = "Archive", skill: tuple[list, list] | None = None,
                book: str | None = None) -> ArchiveIndex:
    """The index of an archive from the pipeline's ``results``, the page name of each record, the
    rows of its ``players`` and the ``summary`` line of the run; ``skill``: the rows of luck and
    error rate per player and per pair (``report --scale match``); ``book``: the file name of the book of
    problems written beside the index, linked from it."""
    rows = []
    for result, page in zip(results, pages):
        if result["error"] is not None:
            rows.append(IndexRow(result["source"], None, "", 0, "(not read)", "", result["error"]["message"],
                                 False, 1, None, 0))
            continue
        for number, game in enumerate(result["games"], 1):
            critical, loss = _critical(game["analysis"])
            rows.append(IndexRow(result["source"], page, f"g{number}", number, game["event"] or game["title"],
                                 ", ".join(game["players"]), game["result_text"] or "no result",
                                 game["valid"], game["errors"], critical, loss))
    return ArchiveIndex(title, rows, players, summary, skill, book)


def render_index(index: ArchiveIndex) -> str:
    """The index as one HTML page with its CSS and script inlined."""
    css, script = with_css(static_text("report.css"), "index.css"), static_text("index.js")
    if index.skill:
        css = with_match_css(css)           # (report --scale match: the rules of its luck and skill table)
    page = environment().get_template("index.html.j2")
    return page.render(index=index, css=css, script=script, csp=content_policy(css, script), version=__version__)
