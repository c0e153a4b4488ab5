"""Render a :class:`~analyzer.report.model.ReportModel` as one self-contained HTML page.

The templates and the page's CSS and script ship inside the package; the CSS and the script are
inlined, and the board data is embedded as JSON, so the page makes no request when it is opened."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from .. import __version__
from ..outputs import write_atomic
from .model import Board, GameReport, Layout, MoveView, ReportModel, move_words, signed
from .verdicts import fair_best_words, tied_words

__all__ = ["environment", "render_html", "write_report", "write_page", "game_data", "board_data", "board_patch", "Chart",
           "chart", "PIP_LAYOUT"]

# Where the pips of each number sit on a square face of 10 x 10 (numbers above 9 are written).
_C, _L, _R = 5.0, 2.6, 7.4
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(_C, _C)],
    2: [(_L, _L), (_R, _R)],
    3: [(_L, _L), (_C, _C), (_R, _R)],
    4: [(_L, _L), (_R, _L), (_L, _R), (_R, _R)],
    5: [(_L, _L), (_R, _L), (_C, _C), (_L, _R), (_R, _R)],
    6: [(_L, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_R, _R)],
    7: [(_L, _L), (_R, _L), (_L, _C), (_C, _C), (_R, _C), (_L, _R), (_R, _R)],
    8: [(_L, _L), (_C, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_C, _R), (_R, _R)],
    9: [(x, y) for y in (_L, _C, _R) for x in (_L, _C, _R)],
}


@cache
def environment() -> Environment:
    """The Jinja environment: packaged templates, autoescaping on, undefined names are errors."""
    env = Environment(loader=PackageLoader("analyzer", "report/templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["signed"] = signed
    env.filters["words"] = move_words
    env.filters["tied"] = lambda fair: tied_words(fair, move_words)
    env.filters["fair_best"] = lambda fair: fair_best_words(fair, move_words)
    env.filters["plural"] = plural
    return env


def plural(n: int, word: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def static_text(name: str) -> Markup:
    """A packaged CSS or script file, to be inlined (our own text, never record text)."""
    text = files("analyzer.report").joinpath("static", name).read_text(encoding="utf-8")
    if "</" in text:
        raise ValueError(f"static/{name} must not contain '</': it is inlined into the page")
    return Markup(text)


# ---- the value chart ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChartPoint:
    move: int
    x: float
    y: float
    value: int
    cls: str | None
    critical: bool
    turning: bool
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    zero: float                      # y of the value 0
    x0: float                        # x of move 0
    dx: float                        # x distance between moves
    points: list[ChartPoint]
    path: str
    yticks: list[tuple[float, str]]
    xticks: list[tuple[float, str]]
    stop_x: float | None             # where the analysis stops short of the record, if it does
    fair_path: str = ""              # the fair value of each move played, where it was judged fairly
    fair_points: list = ()           # (x, y, label) of each of those

    def x(self, move: int) -> float:
        return self.x0 + move * self.dx


def chart(game: GameReport, width: int = 560, height: int = 220) -> Chart | None:
    """The geometry of the value chart: one point per analysed move (None: nothing analysed)."""
    known = [(k, v) for k, v in enumerate(game.values) if v is not None]
    fair = game.fair_points
    if not known and not fair:
        return None
    peak = max([10] + [abs(v) for _, v in known] + [abs(v) for _, v in fair])
    peak = int(-(-peak // 10) * 10)                  # round up to tens
    # room for the value labels at the left: 41 for "+50", more for "+100" (a phone draws them larger)
    left, right, top, bottom = 8.0 + 11.0 * len(signed(peak)), width - 12.0, 14.0, height - 28.0
    moves = max(len(game.moves), 1)
    dx = (right - left) / moves
    scale = (bottom - top) / (2 * peak)
    zero = top + peak * scale

    def y(v: int) -> float:
        return round(zero - v * scale, 2)

    points = []
    for k, v in known:
        move = game.moves[k - 1] if k else None
        what = f"move {k}: {move.player} {move.text}" if move else "the deal"
        points.append(ChartPoint(k, round(left + k * dx, 2), y(v), v, move.cls if move else None,
                                 bool(move and move.critical), bool(move and move.turning_point),
                                 f"{what}; value {signed(v)} ({game.value_words(v)})"))
    # the line breaks where a move has no value (its search went past the node limit)
    path = " ".join(f"{'L' if i and p.move == points[i - 1].move + 1 else 'M'}{p.x},{p.y}"
                    for i, p in enumerate(points))
    yticks = [(y(v), signed(v)) for v in (peak, peak // 2, 0, -(peak // 2), -peak)]
    step = 1 if moves <= 16 else 2 if moves <= 32 else 5 if moves <= 80 else 10
    xticks = [(round(left + k * dx, 2), str(k)) for k in range(0, moves + 1, step)]
    stop = None
    if known and game.analysed < len(game.moves) and game.stopped:
        stop = round(left + known[-1][0] * dx, 2)
    fair_points = [(round(left + k * dx, 2), y(v), f"move {k}: fair value of the move played {v:+.1f}")
                   for k, v in fair]
    fair_path = " ".join(f"{'M' if i == 0 else 'L'}{x},{yy}" for i, (x, yy, _) in enumerate(fair_points))
    return Chart(width, height, left, right, top, bottom, round(zero, 2), left, round(dx, 3), points, path,
                 yticks, xticks, stop, fair_path, fair_points)


# ---- the move table ------------------------------------------------------------------------------

@dataclass
class MoveRow:
    label: str
    cells: list[MoveView | None]
    wide: MoveView | None = None      # a move by someone who is not a player: one cell across the row


def move_rows(game: GameReport) -> list[MoveRow]:
    """The moves as the book prints them: one row per round, one column per player in play order."""
    n = len(game.players)
    rows: list[MoveRow] = []
    current: MoveRow | None = None
    last_round: int | None = None
    last_seat = -1
    for m in game.moves:
        if m.seat is None or m.seat >= n:
            rows.append(MoveRow(str(m.round) if m.round is not None else "", [], m))
            current = None
            continue
        fresh = (current is None or m.seat <= last_seat
                 or (m.round is not None and last_round is not None and m.round != last_round))
        if fresh:
            label = str(m.round) if m.round is not None else str(len(rows) + 1)
            current = MoveRow(label, [None] * n)
            rows.append(current)
        current.cells[m.seat] = m
        last_seat, last_round = m.seat, m.round
    return rows


# ---- the data the script reads --------------------------------------------------------------------

def _layout_data(layout: Layout | None) -> dict | None:
    """A layout with arms for the script: the lead tile and each arm's tiles, open number and state."""
    if layout is None:
        return None
    return {"lead": list(layout.lead) if layout.lead else None,
            "arms": [{"arm": a.number, "origin": list(a.origin) if a.origin else None,
                      "tiles": [list(t) for t in a.tiles], "open": a.open, "state": a.state}
                     for a in layout.arms]}


def board_data(board: Board, seat: int | None) -> dict:
    """A table as the page's script draws it (``seat``: who laid the last tile, None before the first)."""
    return {"line": [list(p) for p in board.line], "lead": board.lead,
            "hands": [[f"{a}-{b}" for a, b in hand] for hand in board.hands],
            "counts": board.counts, "pips": board.pips, "voids": board.voids,
            "ends": list(board.ends) if board.ends else None,
            "last": list(board.last) if board.last else None, "seat": seat,
            "layout": _layout_data(board.layout)}


def game_data(game: GameReport, ch: Chart | None) -> dict:
    """Everything the page's script needs to draw the table at each move: numbers only, no text
    of the record (names and comments reach the page only through the escaped template)."""
    boards = [board_data(game.start, None)] + [board_data(m.board, m.seat) for m in game.moves]
    return {
        "game": game.number, "moves": len(game.moves), "critical": game.critical, "mistakes": game.mistakes,
        "chart": {"x0": ch.x0, "dx": ch.dx} if ch else None,
        "boards": boards,
        "lines": _lines_data(game, boards),
        "diagrams": packed_diagrams(game.diagrams),
    }


def packed_diagrams(diagrams: list[str]) -> str | None:
    """The SVG of every position of a game for the page to save, packed: a JSON list, deflated (zlib) and
    in base64 (the drawings repeat their tiles: a tenth of the size). The script unpacks it with the
    browser's DecompressionStream; the text only ever becomes a file or an image, never markup of the page."""
    if not diagrams:
        return None
    return base64.b64encode(zlib.compress(json.dumps(diagrams).encode("utf-8"), 9)).decode("ascii")


def _lines_data(game: GameReport, boards: list[dict]) -> dict:
    """Each alternative's best line for the script: by the decision's move number, for each alternative
    in the order the page lists them, the table after each move of its line (None: no line), each written
    as its change from the table before it (:func:`board_patch`; the first from the table before the
    decision, ``boards[number - 1]``): a line's tables differ by a tile or two, and written whole they made
    most of a page."""
    out = {}
    for m in game.moves:
        if m.decision is not None and any(a.line for a in m.decision.alternatives):
            rows = []
            for a in m.decision.alternatives:
                if a.line is None:
                    rows.append(None)
                    continue
                before, row = boards[m.number - 1], []
                for b, seat in zip(a.line.boards, a.line.seats):
                    board = board_data(b, seat)
                    row.append(board_patch(before, board))
                    before = board
                rows.append(row)
            out[str(m.number)] = rows
    return out


def board_patch(before: dict, after: dict) -> dict:
    """``after`` (a table as :func:`board_data` writes it) as its change from ``before``, which the page's
    script applies back (``unpatch`` in report.js): only the fields that differ; of a list as long as before,
    the items that differ by their index (``{"2": [...]}``: a hand, a count, an arm); a line one tile longer at
    one end as that tile (``{"left": [a, b]}`` or ``{"right": ...}``); a mapping with the same fields (a layout
    with arms, an arm) as its own change, marked ``{"+": change}``; anything else whole."""
    patch = {}
    for key, value in after.items():
        old = before.get(key)
        if value != old:
            patch[key] = _changed(key, old, value)
    return patch


def _changed(key: str, old, value):
    """``value`` as its change from ``old`` (see :func:`board_patch`)."""
    if isinstance(old, dict) and isinstance(value, dict) and old.keys() == value.keys():
        return {"+": board_patch(old, value)}
    if key == "line" and isinstance(old, list) and isinstance(value, list) and len(value) == len(old) + 1:
        if value[1:] == old:
            return {"left": value[0]}
        if value[:-1] == old:
            return {"right": value[-1]}
    if key != "line" and isinstance(old, list) and isinstance(value, list) and len(old) == len(value):
        return {str(i): _changed("", w, v) for i, (v, w) in enumerate(zip(value, old)) if v != w}
    return value


# ---- the page -------------------------------------------------------------------------------------

def render_html(model: ReportModel) -> str:
    """The report as one HTML page with its CSS, script and data inlined."""
    shown = model.shown
    charts = [chart(g) for g in shown]
    css, script = static_text("report.css"), static_text("report.js")
    if any(g.match is not None for g in model.shown):
        css = with_match_css(css)           # (report --scale match: its own rules; other pages stay as they were)
    page = environment().get_template("report.html.j2")
    return page.render(
        model=model, games=list(zip(shown, charts)), game_rows=[move_rows(g) for g in shown],
        data=[game_data(g, c) for g, c in zip(shown, charts)],
        pips=PIP_LAYOUT, css=css, script=script, csp=content_policy(css, script), version=__version__)


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def with_match_css(css: Markup) -> Markup:
    """The page's CSS with the rules of the match scale (``static/match.css``) after it."""
    return Markup(css + "\n" + static_text("match.css"))


def content_policy(css: str, script: str) -> str:
    """The page's Content-Security-Policy: nothing from anywhere, only our own style and script run.

    Even if record text slipped through unescaped, the browser would run no script of it."""
    return (f"default-src 'none'; img-src data:; style-src {_digest(css)}; script-src {_digest(script)}; "
            "base-uri 'none'; form-action 'none'")


def write_report(model: ReportModel, path_out: str | os.PathLike) -> None:
    """Write the page of ``model`` to ``path_out`` (its folder is made when missing)."""
    write_page(render_html(model), path_out)


def write_page(html: str, path_out: str | os.PathLike) -> None:
    """Write a rendered page whole or not at all (:func:`analyzer.outputs.write_atomic`: a failure raises
    ``OutputError`` naming the file, the old page left as it was), making its folder when missing. A file name
    that is not UTF-8 (held by Python as lone surrogates) is shown with a replacement character."""
    write_atomic(path_out, html, errors="replace", make_folder=True)
