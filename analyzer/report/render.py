"""Render a :class:`~analyzer.report.model.ReportModel` as one self-contained HTML page.

The templates and the page's CSS and script ship inside the package; the CSS and the script are
inlined, and each game's board data is embedded as JSON, deflated and in base64 (:func:`deflated`), so the page
makes no request when it is opened."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from .. import __version__
from ..outputs import write_atomic
from .geometry import NARROW, WIDE, Label, Place, arms_box, arms_scene, line_box, line_places, plan_arms, tile_key
from .model import Board, GameReport, LineView, MoveView, ReportModel, move_words, signed
from .verdicts import fair_best_words, tied_words

__all__ = ["environment", "render_html", "with_css", "write_report", "write_page", "game_data", "deflated", "board_data", "table_data", "line_data", "place_data", "Chart",
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
    # the pieces every page repeats: filters, which the template calls directly (a function it calls by its context)
    env.filters.update(tile=tile, move_tile=move_tile, value=value, line_button=line_button, valued=valued,
                       spreads=spreads, spread_scale=spread_scale, certainty=certainty, chart_points=chart_points)
    env.filters["enumerate"] = enumerate            # (a loop by it builds no ``loop`` object)
    env.globals["tile_symbols"] = tile_symbols
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}   # (the page's data: compact)
    return env


def plural(n: int, word: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


# ---- the small pieces every page repeats --------------------------------------------------------------
# Python rather than macros: the page draws hundreds of them, and a macro call costs the template more than the piece
# itself. Each escapes what it is given; the HTML around it is ours.

@cache
def tile_symbols(max_pip: int) -> Markup:
    """The SVG symbols the tiles of a page draw from (``templates/tiles.html.j2``), for numbers up to ``max_pip``: the
    same on every page, rendered once."""
    return Markup(environment().get_template("tiles.html.j2").render(max_pip=max_pip, pips=PIP_LAYOUT))


def tile(pair, cls: str = "") -> Markup:
    """A tile of ``pair`` (its two numbers). A small tile (``cls`` ``small``: a table of moves, of hands) draws its body
    from the page's symbol #tb; a hand's tile from #th, whose body takes its colours from the ``<use class="body">``
    (the CSS styles it by the tile's state), and names its tile in ``data-t`` for the script (which greys the tiles
    gone)."""
    return _tile(pair[0], pair[1], cls)


@lru_cache(maxsize=4096, typed=True)
def _tile(a, b, cls: str) -> Markup:
    a, b = escape(a), escape(b)
    if cls == "small":
        return Markup(f'<svg class="tile small" viewBox="0 0 21 11" role="img" aria-label="[{a}-{b}]"><use href="#tb"/>'
                      f'<use href="#pl{a}"/><use href="#pr{b}"/></svg>')
    return Markup(f'<svg class="tile {escape(cls)}" viewBox="0 0 21 11" role="img" aria-label="[{a}-{b}]" '
                  f'data-t="{a}-{b}"><use class="body" href="#th"/><use href="#pl{a}"/><use href="#pr{b}"/></svg>')


@lru_cache(maxsize=4096, typed=True)
def move_tile(text: str) -> Markup:
    """A move as a table of choices shows it: ``[4-6]@6`` -> the small tile, ``[4-6]`` and ``on the 6``."""
    head, at, end = text.partition("@")
    halves = head.strip("[]").split("-")
    drawn = f"{tile((int(halves[0]), int(halves[1])), 'small')} " if len(halves) == 2 and all(
        h.isdecimal() for h in halves) else ""
    return Markup(f'{drawn}<span class="mt">{escape(head)}</span>'
                  + (f' <span class="on">on the {escape(end)}</span>' if at else ""))


@lru_cache(maxsize=4096, typed=True)
def value(v: int | None) -> Markup:
    """A value, coloured by its sign (``+46``, ``-10``, ``0``; a dash for none)."""
    if v is None:
        return Markup('<span class="val none">–</span>')
    return Markup(f'<span class="val {"pos" if v > 0 else "neg" if v < 0 else "zero"}">{escape(signed(v))}</span>')


def line_button(a, number: int, index: int, words: str) -> Markup:
    """The button that steps the board through the best line of the alternative ``a`` (report.js: Game.enterLine), the
    ``index``-th of the decision at move ``number``, its title from ``words`` (no type: the page has no form a button
    could submit, and the type on each of them weighs)."""
    return Markup(f'<button class="show-line" data-at="{number}" data-alt="{index}" data-value="{signed(a.value)}" '
                  f'data-move="{escape(a.text)}" data-words="{escape(words)}">line ▸</button>')


def valued(alternatives: list) -> list:
    """The alternatives of a decision with a value with every hand open."""
    return [a for a in alternatives if a.value is not None]


def spreads(alternatives: list) -> list:
    """The spreads over the deals of the alternatives' fair values, where they have one."""
    return [a.fair.spread for a in alternatives if a.fair and a.fair.spread]


def certainty(ps: list[float]) -> str:
    """How sure the chances that each player holds a group of tiles are: ``certain`` (each 0 or 1), ``nearly`` (one of
    them 0.9 or more) or ``open``."""
    return "certain" if all(p in (0, 1) for p in ps) else "nearly" if any(p >= 0.9 for p in ps) else "open"


@dataclass(frozen=True)
class SpreadScale:
    """The common scale of a decision's spread plots, from the least value of its spreads (``lo``) to the greatest
    (``hi``): 96 wide between margins of 2, on a plot 100 wide."""
    lo: int = 0
    hi: int = 0

    @property
    def span(self) -> int:
        return (self.hi - self.lo) or 1

    def x(self, v: float) -> str:
        """Where the value ``v`` lies on the plot (one decimal, as the plot writes it)."""
        return f"{2 + 96 * (v - self.lo) / self.span:.1f}"

    def plot(self, spread, mean: float, worlds: int) -> Markup:
        """A fair value's spread over the ``worlds`` on this scale (numbers only: nothing of the record): the whiskers
        from the least to the greatest value, ticks at 10% and 90%, the box the middle half, the median a bar, the
        ``mean`` a dot, the values in its label and title."""
        v, x = spread.values, self.x
        least, p10, q1, median, q3, p90, most = map(signed, v)
        zero = f'<line class="zero" x1="{x(0)}" y1="0" x2="{x(0)}" y2="14"/>' if self.lo < 0 < self.hi else ""
        width = f"{96 * (v[4] - v[2]) / self.span:.1f}"
        return Markup(
            f'<svg class="spread" viewBox="0 0 100 14" role="img" aria-label="spread over {worlds} deals: least '
            f'{least}, 10% {p10}, quartiles {q1} / {median} / {q3}, 90% {p90}, greatest {most}"><title>over {worlds} '
            f'deals: least {least} · 10% {p10} · quartiles {q1} / {median} / {q3} · 90% {p90} · greatest {most}</title>'
            f'{zero}'
            f'<line class="whisker" x1="{x(v[0])}" y1="7" x2="{x(v[6])}" y2="7"/>'
            f'<line class="tick" x1="{x(v[1])}" y1="4" x2="{x(v[1])}" y2="10"/>'
            f'<line class="tick" x1="{x(v[5])}" y1="4" x2="{x(v[5])}" y2="10"/>'
            f'<rect class="box" x="{x(v[2])}" y="2.5" width="{width}" height="9"/>'
            f'<line class="median" x1="{x(v[3])}" y1="2" x2="{x(v[3])}" y2="12"/>'
            f'<circle class="mean" cx="{x(mean)}" cy="7" r="1.8"/></svg>')


def spread_scale(found: list) -> SpreadScale:
    """The common scale of the spreads of a decision's alternatives (:func:`spreads`; none: unused)."""
    return SpreadScale(min(s.low for s in found), max(s.high for s in found)) if found else SpreadScale()


_BLOCK = re.compile(r"\s*\{([^{}]*)\}\s*")


def _tight_block(m: re.Match) -> str:
    """A CSS rule's declarations without the spaces around their ``:``, ``;`` and ``,`` (no string of ours holds one)."""
    body = re.sub(r",\s+", ",", re.sub(r"\s*:\s*", ":", re.sub(r"\s*;\s*", ";", m.group(1))))
    return "{" + body.strip().rstrip(";") + "}"


@cache
def static_text(name: str) -> Markup:
    """A packaged CSS or script file, to be inlined (our own text, never record text), without the comments on
    lines of their own and the indentation (every page carries it: a sixth of a small page)."""
    text = files("analyzer.report").joinpath("static", name).read_text(encoding="utf-8")
    if "</" in text:
        raise ValueError(f"static/{name} must not contain '</': it is inlined into the page")
    if name.endswith(".css"):
        text = _BLOCK.sub(_tight_block, re.sub(r"/\*.*?\*/", "", text, flags=re.S))
    lines = (line.strip() for line in text.splitlines())
    if name.endswith(".js"):
        lines = (_code(line) for line in lines)
    return Markup("\n".join(line for line in lines if line and not line.startswith("//")))


def _code(line: str) -> str:
    """A line of our script without a comment after its code (``x = 1;  // why``), none inside a string."""
    m = re.search(r"\s+//\s", line)
    if m and not line.startswith("//") and all(line[:m.start()].count(q) % 2 == 0 for q in "\"'`"):
        return line[:m.start()]
    return line


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
    column: float = 0                # x of the left edge of its column (a click there selects the move)


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


def chart_points(ch: Chart, anchor: str) -> Markup:
    """The points of the value chart, one a move (written here: by the template, a quarter of its page), each a link to
    its move of the game ``anchor``, titled by its label (escaped: it names the player and the move), over the column
    a click selects; the critical move's labelled."""
    href, column = escape(anchor), f'y="{ch.top}" width="{ch.dx}" height="{ch.bottom - ch.top}"'
    out = []
    for p in ch.points:
        cls = f"{f' cls-{escape(p.cls)}' if p.cls else ''}{' critical' if p.critical else ''}"
        out.append(f'<a class="pt-link" href="#{href}-m{p.move}" data-move="{p.move}">'
                   f'<title>{escape(p.label)}</title>\n<rect class="hit" x="{p.column}" {column}/>\n'
                   f'<circle class="pt{cls}" cx="{p.x}" cy="{p.y}" r="{6 if p.critical else 4 if p.cls else 3}"/>'
                   '\n</a>\n')
        if p.critical:
            below = p.value >= 0            # (the label under a point above the zero line)
            out.append(f'<text class="crit-label {"below" if below else "above"}" x="{p.x}" '
                       f'y="{p.y + (16 if below else -10)}" text-anchor="middle">critical</text>\n')
    return Markup("".join(out))


def chart(game: GameReport, width: int = 560, height: int = 220) -> Chart | None:
    """The geometry of the value chart: one point per analysed move (None: nothing analysed)."""
    known = [(k, v) for k, v in enumerate(game.values) if v is not None]
    fair = game.fair_points
    if not known and not fair:
        return None
    peak = max([10] + [abs(v) for _, v in known] + [abs(v) for _, v in fair])
    peak = int(-(-peak // 10) * 10)                  # round up to tens
    # room for the value labels at the left: 41 for "+50", more for "+100" (a phone draws them larger)
    left, right, top, bottom = 8 + 11 * len(signed(peak)), width - 12, 14, height - 28     # (whole: "41", not "41.0")
    moves = max(len(game.moves), 1)
    dx = (right - left) / moves
    scale = (bottom - top) / (2 * peak)
    zero = top + peak * scale

    def y(v: int) -> float:
        return _n(zero - v * scale)

    points = []
    for k, v in known:
        move = game.moves[k - 1] if k else None
        what = f"move {k}: {move.player} {move.text}" if move else "the deal"
        x = _n(left + k * dx)
        points.append(ChartPoint(k, x, y(v), v, move.cls if move else None,
                                 bool(move and move.critical), bool(move and move.turning_point),
                                 f"{what}; value {signed(v)} ({game.value_words(v)})", _n(x - round(dx, 3) / 2)))
    # the line breaks where a move has no value (its search went past the node limit)
    path = " ".join(f"{'L' if i and p.move == points[i - 1].move + 1 else 'M'}{p.x},{p.y}"
                    for i, p in enumerate(points))
    yticks = [(y(v), signed(v)) for v in (peak, peak // 2, 0, -(peak // 2), -peak)]
    step = 1 if moves <= 16 else 2 if moves <= 32 else 5 if moves <= 80 else 10
    xticks = [(_n(left + k * dx), str(k)) for k in range(0, moves + 1, step)]
    stop = None
    if known and game.analysed < len(game.moves) and game.stopped:
        stop = _n(left + known[-1][0] * dx)
    fair_points = [(_n(left + k * dx), y(v), f"move {k}: fair value of the move played {v:+.1f}")
                   for k, v in fair]
    fair_path = " ".join(f"{'M' if i == 0 else 'L'}{x},{yy}" for i, (x, yy, _) in enumerate(fair_points))
    return Chart(width, height, left, right, top, bottom, _n(zero), left, round(dx, 3), points, path,
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

def board_data(board: Board, seat: int | None) -> dict:
    """A table's numbers for the page's script, but for where its tiles lie (:func:`table_data`: the tiles it
    adds to the table before it): the hands, counts, pips and passes, the open ends and the last tile (``seat``:
    who laid it, None before the first move)."""
    return {"hands": [[f"{a}-{b}" for a, b in hand] for hand in board.hands],
            "counts": board.counts, "pips": board.pips, "voids": board.voids,
            "ends": list(board.ends) if board.ends else None,
            "last": list(board.last) if board.last else None, "seat": seat}


def _n(v: float):
    """A coordinate as short as JSON writes it: 5 rather than 5.0."""
    v = round(v, 2)
    return int(v) if v == int(v) else v


def place_data(p: Place) -> list:
    """A tile where :mod:`~analyzer.report.geometry` puts it, for the script, without its numbers (the page names
    the tile: ``"3-5"``): ``[x, y, upright, the higher number on top (left), lead]`` and, on a layout with arms,
    ``arm, index on the arm``, else its place in the line from the lead (the page draws a line left to right).
    Many tiles of a game and its lines share a place."""
    out = [_n(p.x), _n(p.y), int(p.vertical), int(p.a > p.b), int(p.lead)]
    return out + [p.arm, p.k] if p.arm is not None else out + [p.rank]


def _label_data(label: Label) -> list:
    return [_n(label.x), _n(label.y), label.anchor, label.words, label.where, label.state, int(label.apart)]


def _box_data(box) -> list:
    x0, y0, x1, y1 = box
    return [_n(x0), _n(y0), _n(x1 - x0), _n(y1 - y0)]


def _keys(board: Board) -> set[str]:
    if board.layout is not None:
        lay = board.layout
        return set() if lay.lead is None else {tile_key(*lay.lead)} | {tile_key(*t) for a in lay.arms for t in a.tiles}
    return {tile_key(*p) for p in board.line}


def _labels_change(before: dict, after: dict) -> dict:
    """The labels of ``after`` that differ from ``before``'s (by arm), an arm gone as None."""
    out = {arm: value for arm, value in after.items() if before.get(arm) != value}
    out.update({arm: None for arm in before if arm not in after})
    return out


class Spots(list):
    """The distinct places of the tiles of a game and its lines (:func:`place_data`), each written once."""

    def __init__(self):
        super().__init__()
        self._seen: dict[tuple, int] = {}
        self._raw: dict[tuple, int] = {}         # by the place's own numbers: the same place met again, at once

    def index(self, p: Place) -> int:
        raw = (p.x, p.y, p.vertical, p.a > p.b, p.lead, p.arm, p.k, p.rank)
        found = self._raw.get(raw)
        if found is None:
            data = place_data(p)
            found = self._raw[raw] = self._seen.setdefault(tuple(data), len(self))
            if found == len(self):
                self.append(data)
        return found


def table_data(boards: list[Board], data: list[dict]) -> dict:
    """Where the tiles of a game's table lie at each of its ``boards`` (the deal, then after each move), for the
    script (each board's ``data``, :func:`board_data`, gains the tiles it adds, ``put``, and any it takes away,
    ``drop``; on a layout with arms the labels that change, ``labels``, and tiles placed anew, ``moved``): per
    view (a line of play: a wide screen and a phone's, ``geometry.WIDE`` and ``NARROW``) the frame and every
    tile's place by its name (``"3-5"``), an index into ``spots``, the places themselves (:func:`place_data`;
    the lines of the game's alternatives place their tiles by the same list: :func:`line_data`). Drawn by
    :mod:`~analyzer.report.geometry`, as ``domino diagram``."""
    spots = Spots()
    arms = any(b.layout is not None for b in boards)
    if arms:
        plan = plan_arms([b.layout for b in boards])
        scenes = [arms_scene(b.layout, plan) for b in boards]
        views = [{"half": None, "box": _box_data(arms_box(scenes)), "at": {}}]
        before_labels: dict = {}
        for d, scene in zip(data, scenes):
            at, moved = views[0]["at"], {}
            for p in scene.tiles:
                place = spots.index(p)
                if at.setdefault(p.key, place) != place:
                    moved[p.key] = place
            labels = {str(label.arm): _label_data(label) for label in scene.labels}
            change = _labels_change(before_labels, labels)
            if change:
                d["labels"] = change
            if moved:
                d["moved"] = moved
            before_labels = labels
    else:
        views = []
        for half in (WIDE, NARROW):
            last = line_places(boards[-1].line, boards[-1].lead, half)
            at = {p.key: spots.index(p) for p in last}
            for b in boards[:-1]:           # a tile that leaves the line before the end (none does, in the rules here)
                if not _keys(b) <= at.keys():
                    for p in line_places(b.line, b.lead, half):
                        at.setdefault(p.key, spots.index(p))
            views.append({"half": half, "box": _box_data(line_box(last, half)), "at": at})
    before: set[str] = set()
    for b, d in zip(boards, data):
        keys = _keys(b)
        d["put"] = sorted(keys - before)
        if before - keys:
            d["drop"] = sorted(before - keys)
        before = keys
    return {"arms": arms, "views": views, "spots": spots}


def game_data(game: GameReport, ch: Chart | None) -> dict:
    """Everything the page's script needs to draw the table at each move: numbers only, no text
    of the record (names and comments reach the page only through the escaped template)."""
    boards = [game.start] + [m.board for m in game.moves]
    data = [board_data(game.start, None)] + [board_data(m.board, m.seat) for m in game.moves]
    table = table_data(boards, data)
    return {
        "game": game.number, "moves": len(game.moves), "critical": game.critical, "mistakes": game.mistakes,
        "chart": {"x0": ch.x0, "dx": ch.dx} if ch else None,
        "boards": data, "table": table,
        "lines": _lines_data(game, boards, table),
        "diagrams": packed_diagrams(game.diagrams),
    }


def packed_diagrams(diagrams: list[str]) -> str | None:
    """The SVG of every position of a game for the page to save, packed as text: each drawing by its lines against
    the drawing before (:func:`line_delta`), its plan (runs of the lines before and of new lines) as JSON on the
    first line, then every new line in order (a position repeats most of the one before). The text travels in the
    game's data, deflated with the rest of it (:func:`deflated`); the script only ever makes a file or an image of
    it, never markup of the page."""
    if not diagrams:
        return None
    plans, fresh, before = [], [], []
    for svg in diagrams:
        lines = svg.split("\n")
        plans.append(line_delta(before, lines, fresh))
        before = lines
    return json.dumps(plans, separators=(",", ":")) + "\n" + "\n".join(fresh)


def line_delta(before: list[str], lines: list[str], fresh: list[str]) -> list[int]:
    """``lines`` against ``before``: pairs ``first, count`` in a flat list, each ``count`` lines of ``before`` from
    ``first`` on, or (``first`` -1) the next ``count`` lines of ``fresh``, where the new ones are added; in order,
    they give ``lines`` back. A line ``before`` holds starts a run at its first place there, and the run goes on
    while the next line is the one after it in ``before``."""
    first = dict(zip(reversed(before), range(len(before) - 1, -1, -1)))    # (the last written wins: the first place)
    after = before + [None]         # the line after a run's end (None, no line, after the last)
    plan: list[int] = []
    nxt = len(before)               # where the run in hand would go on (the end: none in hand)
    for line in lines:
        if after[nxt] == line:
            plan[-1] += 1
            nxt += 1
            continue
        k = first.get(line)
        if k is not None:
            plan += (k, 1)
            nxt = k + 1
        elif nxt == -1:             # (a new line after new lines)
            plan[-1] += 1
            fresh.append(line)
        else:
            plan += (-1, 1)
            nxt = -1
            fresh.append(line)
    return plan


def _lines_data(game: GameReport, boards: list[Board], table: dict) -> dict:
    """Each alternative's best line for the script: by the decision's move number, for each alternative in the
    order the page lists them, :func:`line_data` (None: no line)."""
    out = {}
    labels = _game_labels(boards, table)
    ends: dict = {}         # the places of a line of play in a view, by the line: many lines end on the same table
    for m in game.moves:
        if m.decision is not None and any(a.line for a in m.decision.alternatives):
            out[str(m.number)] = [None if a.line is None else line_data(a.line, boards[m.number - 1], table,
                                                                        labels[m.number - 1], ends)
                                  for a in m.decision.alternatives]
    return out


def _game_labels(boards: list[Board], table: dict) -> list[dict]:
    """The labels of a layout with arms at each board of the game, as the script holds them."""
    if not table["arms"]:
        return [{} for _ in boards]
    plan = plan_arms([b.layout for b in boards])
    return [{str(label.arm): _label_data(label) for label in arms_scene(b.layout, plan).labels} for b in boards]


def line_data(line: LineView, start: Board, table: dict, labels: dict, ends: dict | None = None) -> dict:
    """One alternative's best line for the script, from the table ``start`` before the decision: each move once,
    as ``[seat, the tile laid or drawn ("3-5", None for a pass), laid, the mover's tiles left, his pips, the open
    ends]`` (and on a layout with arms the labels that change), and per view of the game's ``table`` the frame of
    the line, the place of the tile each move lays (``put``: an index into the game's ``spots``, None for none)
    and, where the line draws a tile of the table before it elsewhere than the game does, its place (``base``).
    ``ends``: what the lines of one game share, kept by the caller: the places (indexes into the spots) and frame
    of each line of play met before, by its tiles, lead and view (the lines of its decisions often end on the same
    table), and on a line each step's data, by the step (the lines share their steps where they reach the same
    positions); not to be kept beyond the game (a step is known by its ``id``)."""
    ends = {} if ends is None else ends
    spots = table["spots"]
    if table["arms"]:
        steps = [_step_data(s) for s in line.steps]
        layouts = [start.layout] + [s.layout for s in line.steps]
        plan = plan_arms(layouts)
        scenes = [arms_scene(lay, plan) for lay in layouts]
        game_at = table["views"][0]["at"]
        base = {}
        for p in scenes[0].tiles:
            spot = spots.index(p)
            if game_at.get(p.key) != spot:
                base[p.key] = spot
        put = []
        for s, scene in zip(line.steps, scenes[1:]):
            key = tile_key(*s.tile) if s.laid and s.tile else None
            laid = next((p for p in scene.tiles if p.key == key), None) if key else None
            put.append(None if laid is None else spots.index(laid))
        view = {"box": _box_data(arms_box(scenes)), "put": put}
        if base:
            view["base"] = base
        out = {"views": [view]}
        before = labels
        for k, scene in enumerate(scenes):
            now = {str(label.arm): _label_data(label) for label in scene.labels}
            change = _labels_change(before, now)
            if k == 0 and change:
                out["labels"] = change
            elif k and change:
                steps[k - 1].append(change)
            before = now
    else:
        # a step's data is the same wherever the lines of a game share it (model.LinePlayer): made once, by the step
        steps = [ends.get(id(s)) or ends.setdefault(id(s), _step_data(s)) for s in line.steps]
        views = []
        laid = [st[1] if st[2] and st[1] else None for st in steps]
        row = tuple(line.line)
        for view in table["views"]:
            key = (row, line.lead, view["half"])
            found = ends.get(key)
            if found is None:
                placed = line_places(line.line, line.lead, view["half"])
                found = ends[key] = ({tile_key(p.a, p.b): spots.index(p) for p in placed},
                                     _box_data(line_box(placed, view["half"])))
            places, box = found
            views.append({"box": box, "put": [None if k is None else places[k] for k in laid]})
        out = {"views": views}
    out["steps"] = steps
    return out


def _step_data(s) -> list:
    """A line's step for the script: ``[seat, tile ("3-5"), laid, count, pips, ends]`` (:func:`line_data`)."""
    return [s.seat, None if s.tile is None else tile_key(*s.tile), int(s.laid), s.count, s.pips,
            list(s.ends) if s.ends else None]


def _field(f) -> str:
    return "-" if f is None else ".".join(map(str, f)) if isinstance(f, list) else str(f)


class Shared(list):
    """Distinct values of the page's data (lists of numbers and strings), each written once: the data names
    one by its index in the list."""

    def __init__(self):
        super().__init__()
        self._at: dict[str, int] = {}

    def index(self, value: list) -> int:
        key = json.dumps(value, separators=(",", ":"))
        found = self._at.get(key)
        if found is None:
            found = self._at[key] = len(self)
            self.append(value)
        return found

    def change(self, labels: dict | None) -> dict | None:
        """A layout's label changes by arm (:func:`_labels_change`) as indexes into this list (None: gone)."""
        return None if labels is None else {arm: None if v is None else self.index(v) for arm, v in labels.items()}


def _line_rows(line: dict, said: tuple[str, ...], labels: Shared, start: dict, texts: dict) -> list[tuple]:
    """Each move of a line as the page carries it: the move (``"seat tile laid count pips ends"``, ``-``: none,
    the ends as ``1.6``, and the labels it changes as ``arm:index`` by ``,``), its words, the place of its tile
    in each view, and the move as the page writes it (:func:`_short_step`: a pass that changes nothing, ``"seat -"``;
    ``start``: the board before the line, :func:`board_data`). The first three are what two lines must share to
    share a tail. ``texts``: a move's text and words by its step (the lines of a game share steps, :func:`line_data`;
    a step that changes labels is written each time)."""
    rows = []
    puts = [[_PUT.get(k) or str(k) for k in v["put"]] for v in line["views"]]
    counts, pips, ends = list(start["counts"]), list(start["pips"]), start["ends"]
    for j, st in enumerate(line["steps"]):
        seat, tile, laid, count, pips_, ends_ = st[:6]
        change = labels.change(st[6]) if len(st) > 6 else None
        made = texts.get(id(st)) if not change else None
        if made is None:
            made = (f"{seat} {tile or '-'} {laid} {count} {'-' if pips_ is None else pips_} "
                    f"{'.'.join(map(str, ends_)) if ends_ else '-'}", _packed_said(said[j], tile))
            if change:
                made = (made[0] + " " + ",".join(f"{arm}:{'-' if k is None else k}" for arm, k in sorted(change.items())),
                        made[1])
            else:
                texts[id(st)] = made
        text, words = made
        quiet = tile is None and not change and count == counts[seat] and pips_ == pips[seat] and (ends_ or None) == (ends or None)
        rows.append((text, words, tuple(p[j] for p in puts),
                     (f"{seat} -", "" if words == "!pass" else words) if quiet else made))
        counts[seat], pips[seat], ends = count, pips_, ends_
    return rows


_PUT = {None: "-"}


def _packed_said(said: str, tile: str | None) -> str:
    """A move's words as a line carries them: without the tile the move names (``"@6"`` for ``"[4-6]@6"`` laying
    ``4-6``), or whole after ``!`` (``"!pass"``) when they do not start with it."""
    head = f"[{tile}]" if tile is not None else None
    return said[len(head):] if head is not None and said.startswith(head) else "!" + said


def packed_lines(lines: dict[str, list], said: dict[str, list], labels: Shared, boards: list[dict]) -> dict:
    """The lines of :func:`line_data` as the page carries them, each line's moves once and what lines have in
    common once: a line whose last moves are those of a line before it (the same moves from the same table,
    laid at the same places) gives only its own first moves and ``tail``, ``[at, alt, first]``: the rest is
    that line's from its move ``first``. Its moves are ``steps``, ``"seat tile laid count pips ends labels;..."``
    (a pass that changes nothing but whose turn it is: ``"seat -"``; the labels a move changes as ``arm:index``,
    indexes into the game's labels), their words ``said`` (``"@0|!pass"``, :func:`_packed_said`, empty for such a
    pass: the page names the mover), each view's ``put`` as ``"2 - 285"``, a third of the JSON arrays' size and
    less (the script unpacks them). ``said``: each line's words, by the decision and alternative; ``boards``: the
    game's boards (:func:`board_data`), a line of decision ``at`` starting from board ``at - 1``.

    A line's rest is found by the chain of its moves from the end: each suffix of moves gets a number (the move
    and the number of the suffix after it, looked up once), so finding the shared tail costs a look-up a move."""
    seen: dict[int, list[int]] = {}           # a suffix's number -> [at, alt, first] of its first line
    suffixes: dict[tuple, int] = {}           # (a move, the number of the suffix after it) -> the suffix's number
    texts: dict[int, tuple] = {}              # a step's text and words (:func:`_line_rows`), by the step
    out = {}
    for at, alts in lines.items():
        packed = []
        for alt, line in enumerate(alts):
            if line is None:
                packed.append(None)
                continue
            rows = _line_rows(line, said[at][alt], labels, boards[int(at) - 1], texts)
            ids = [0] * (len(rows) + 1)       # ids[j]: the number of the moves from j to the end (the empty one: 0)
            for j in range(len(rows) - 1, -1, -1):
                key = (rows[j][:3], ids[j + 1])
                ids[j] = suffixes.get(key) or suffixes.setdefault(key, len(suffixes) + 1)
            cut = next((j for j in range(len(rows)) if ids[j] in seen), len(rows))
            tail = seen[ids[cut]] if cut < len(rows) else None
            for j in range(cut):
                seen.setdefault(ids[j], [int(at), alt, j])
            own = rows[:cut]
            one = {"steps": ";".join(r[3][0] for r in own), "said": "|".join(r[3][1] for r in own),
                   "views": [dict(view, put=" ".join(r[2][v] for r in own)) for v, view in enumerate(line["views"])]}
            if line.get("labels"):
                one["labels"] = labels.change(line["labels"])
            if tail is not None:
                one["tail"] = tail
            packed.append(one)
        out[at] = packed
    return out


def packed_game(data: dict, said: dict[str, list]) -> dict:
    """:func:`game_data` as the page carries it: the lines packed (:func:`packed_lines`, ``said``: each line's
    words), the spots as one string (:func:`packed_spot`, ``;`` between them), each board as one
    (:func:`packed_board`; the tiles it takes away, the labels that change and tiles placed anew in ``more``, by
    the board's index), and the labels of a layout's arms once each (``labels``, the boards and lines naming them
    by index)."""
    labels = Shared()
    table = dict(data["table"], spots=";".join(map(packed_spot, data["table"]["spots"])))
    boards, more = [], {}
    for k, b in enumerate(data["boards"]):
        boards.append(packed_board(b))
        extra = {key: b[key] for key in ("drop", "labels", "moved") if key in b}
        if "labels" in extra:
            extra["labels"] = labels.change(extra["labels"])
        if extra:
            more[str(k)] = extra
    lines = packed_lines(data["lines"], said, labels, data["boards"])
    return dict(data, boards=boards, more=more, table=table, lines=lines, labels=[packed_label(v) for v in labels])


def packed_label(label: list) -> str:
    """An arm's label of :func:`_label_data` as the page carries it: ``"x y anchor|words|where|state"``, its words
    without the ``arm N`` they start with (the page writes that part itself, in its own style)."""
    x, y, anchor, words, where, state, _ = label
    return f"{x} {y} {anchor}|{words[_ARM.match(words).end():]}|{where}|{state}"


_ARM = re.compile(r"arm \d+")


def packed_board(b: dict) -> str:
    """A board of :func:`board_data` (with the tiles it ``put``) as the page carries it, its fields in one string:
    ``"seat;counts;pips;ends;last;put;voids;hands"``, a list's numbers joined by ``.`` (``-``: none), the tiles
    put by ``,``, each seat's voids and hand by ``|`` (a hand's tiles by a space)."""
    return ";".join([_field(b["seat"]), ".".join(map(_field, b["counts"])), ".".join(map(_field, b["pips"])),
                     _field(b["ends"]), _field(b["last"]), ",".join(b["put"]),
                     "|".join(".".join(map(str, v)) for v in b["voids"]),
                     "|".join(" ".join(hand) for hand in b["hands"])])


def packed_spot(spot: list) -> str:
    """A place of :func:`place_data` as the page carries it: ``"x y flags"``, the flags upright (1), the higher number
    on top (2) and lead (4) added, then on a layout with arms ``arm k``, else the rank from the lead."""
    x, y, upright, higher, lead, *rest = spot
    return " ".join(map(str, [x, y, upright + 2 * higher + 4 * lead, *rest]))


def line_words(game: GameReport) -> dict[str, list]:
    """Each alternative's best line's moves without the mover's name (``LineView.said``), by the decision's move
    number as :func:`game_data` gives the lines."""
    return {str(m.number): [a.line.said if a.line is not None else () for a in m.decision.alternatives]
            for m in game.moves if m.decision is not None and any(a.line for a in m.decision.alternatives)}


# ---- the page -------------------------------------------------------------------------------------

def render_html(model: ReportModel) -> str:
    """The report as one HTML page with its CSS, script and data inlined."""
    shown = model.shown
    charts = [chart(g) for g in shown]
    css, script, csp = page_assets(any(g.fair or any(m.holds for m in g.moves) or (g.to_move and g.to_move.fair)
                                       for g in shown), any(g.match is not None for g in shown))
    page = environment().get_template("report.html.j2")
    return tight(page.render(
        model=model, games=list(zip(shown, charts)), game_rows=[move_rows(g) for g in shown],
        data=[deflated(packed_game(game_data(g, c), line_words(g))) for g, c in zip(shown, charts)], css=css,
        script=script, csp=csp, version=__version__))


DEFLATE_LEVEL = 3      # zlib's level for a game's data: a cross one-hand game's 92 KB of JSON to 20.5 KB of base64 in
                       # 0.5 ms (level 1: 22 KB, 0.35 ms; level 6: 17 KB, 1.3 ms, a page's render 15 to 150 ms)


def deflated(data: dict) -> str:
    """A game's data as the page carries it: :func:`packed_game`'s JSON (compact, as UTF-8), deflated (zlib) and in
    base64, nothing in it to escape. The script inflates it with the browser's DecompressionStream before it sets
    the game up (a game's data, the packed drawings with it, is a fifth of its JSON)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(zlib.compress(text.encode("utf-8"), DEFLATE_LEVEL)).decode("ascii")


@cache
def page_assets(fair: bool, match: bool) -> tuple[Markup, Markup, str]:
    """A report page's CSS, script and policy (:func:`content_policy`): the rules of the fair analysis (``fair``) and of
    the match scale (``report --scale match``) only on the pages that show them, other pages as they were; the same for
    every page of a kind, made once."""
    css, script = static_text("report.css"), static_text("report.js")
    if fair:
        css = with_css(css, "fair.css")
    if match:
        css = with_match_css(css)
    return css, script, content_policy(css, script)


# the inlined script and style, whole (``[^<]*`` runs between the rare ``<`` of a script, the page's data has none:
# a fifth of the time of ``<script\b.*?</script>``, which tries the end at every character)
_INLINE = re.compile(r"(<script\b[^<]*(?:<(?!/script>)[^<]*)*</script>|<style>[^<]*(?:<(?!/style>)[^<]*)*</style>)")
# (the look-ahead passes at once a ">" with no white space after it: a fifth faster, the same matches)
_BETWEEN = re.compile(r">(?=\s)(?:\s*\n\s*|[ \t]{2,})<")


def tight(html: str) -> str:
    """The page without the template's indentation: a run of white space with a line break (or of spaces)
    between two tags becomes one line break (the same one space to the browser), but inside the inlined script
    and style (their hashes are the page's policy) and in the record's own text (never between two tags: it is
    escaped)."""
    parts = _INLINE.split(html)
    return "".join(part if k % 2 else _BETWEEN.sub(">\n<", part) for k, part in enumerate(parts))


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def with_css(css: Markup, name: str) -> Markup:
    """The page's CSS with the rules of ``static/NAME`` after it (the rules only some pages need)."""
    return Markup(css + "\n" + static_text(name))


def with_match_css(css: Markup) -> Markup:
    """The page's CSS with the rules of the match scale (``static/match.css``) after it."""
    return with_css(css, "match.css")


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
