"""Render a :class:`~analyzer.render.model.ReportModel` as one self-contained HTML page.

The templates and the page's CSS and script ship inside the package; the CSS and the script are
inlined, and each game's data for the page's script is embedded as JSON, deflated and in base64
(:mod:`~analyzer.render.pagedata`), so the page makes no request when it is opened."""
from __future__ import annotations

import base64
import hashlib
import math
import os
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from .. import __version__
from ..analysis.grades import grade_word
from ..i18n import LANGUAGES, N_, decimal, figure, gettext, html_lang, language, ngettext_mark, number, plural_form
from ..outputs import write_atomic
from .diagram import PIP_LAYOUT  # noqa: F401  (the pips' places: the page's tiles draw them too)
from .model import GameReport, MoveView, ReportModel, move_words, signed
from .pagedata import deflated, game_data, packed_game, short
from .verdicts import (fair_best_words, gap_words, hindsight_best_words, how_words, loss_range_words, over_text,
                       sheet_deals_words, team_range, team_words, tied_words, bracket_words,
                       bracketed, certified_loss, contradiction_text, overturned)

__all__ = ["environment", "render_html", "with_css", "write_report", "write_page", "Chart", "chart", "PIP_LAYOUT"]


@cache

def _sentence(words: str | None) -> str | None:
    """``words`` begun as a sentence (its first letter upper case, in any script)."""
    return words[:1].upper() + words[1:] if words else words

def environment() -> Environment:
    """The Jinja environment: packaged templates, autoescaping on, undefined names are errors."""
    env = Environment(loader=PackageLoader("analyzer", "render/templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.i18n"])
    # the page's words in the active language (analyzer.i18n): ``_("Game {number}", number=...)``, the catalogue's
    # named placeholders, each value escaped (the message's own HTML is ours)
    env.install_gettext_callables(html_gettext, html_ngettext, newstyle=False)
    env.globals["html_lang"] = html_lang
    env.filters.update(num=number, dec=decimal, counted=counted, grade=grade_word, options_whole=options_whole)
    env.filters["signed"] = signed
    env.filters["words"] = move_words
    env.filters["tied"] = lambda fair: tied_words(fair, move_words)
    env.filters["fair_best"] = lambda fair: fair_best_words(fair, move_words)
    env.filters["gap"] = lambda d: gap_words(d, move_words)
    env.filters["team"] = lambda fair: _sentence(team_words(fair, move_words))     # (after a sentence: its own)
    # (a two-player verdict whose best open CFR+ brackets overturn: why, a sentence of its own; no move graded)
    env.filters["contradiction"] = lambda fair: _sentence(contradiction_text(fair, move_words))
    env.filters["overturned"] = overturned
    env.filters["team_range"] = team_range
    env.filters["bracket"] = bracket_words        # (a loss's certified bracket under hidden information)
    env.filters["certified_loss"] = certified_loss
    env.filters["bracketed"] = bracketed
    env.filters["plural"] = plural
    env.filters["figure"] = lambda x: figure(x) if isinstance(x, float) else x
    # a sheet without hands: a value and a loss over the deals it allows, how a fair verdict over hands was reached
    env.filters.update(over=over_text, loss_range=loss_range_words, how=how_words, hindsight_best=hindsight_best_words,
                       sheet_deals=sheet_deals_words)
    # the pieces every page repeats: filters, which the template calls directly (a function it calls by its context)
    env.filters.update(tile=tile, move_tile=move_tile, value=value, line_button=line_button, valued=valued,
                       spreads=spreads, spread_scale=spread_scale, certainty=certainty, chart_points=chart_points)
    env.filters["enumerate"] = enumerate            # (a loop by it builds no ``loop`` object)
    env.globals["tile_symbols"] = tile_symbols
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}   # (the page's data: compact)
    return env


def html_gettext(message: str, /, **params) -> Markup:
    """``message`` in the active language as HTML: its own markup kept (ours), each of ``params`` escaped into its
    ``{name}`` placeholder."""
    text = Markup(gettext(message))
    return text.format(**params) if params else text


def html_ngettext(singular: str, plural: str, n: int, /, **params) -> Markup:
    """The form of ``singular``/``plural`` for the count ``n`` in the active language as HTML (``{n}`` the count as
    the language writes it), like :func:`html_gettext`."""
    return Markup(plural_form(singular, plural, n)).format(n=number(n), **params)


#: the counted words of a page: a grade's, and the draws and deals a figure stands on
COUNTED = {"inaccuracy": ngettext_mark("{n} inaccuracy", "{n} inaccuracies"),
           "mistake": ngettext_mark("{n} mistake", "{n} mistakes"),
           "blunder": ngettext_mark("{n} blunder", "{n} blunders"),
           "draw": ngettext_mark("{n} draw", "{n} draws"),
           "deal": ngettext_mark("{n} deal", "{n} deals")}


def counted(n: int, word: str) -> Markup:
    """``1 mistake``, ``2 inaccuracies``, ``5 ошибок``: ``n`` of ``word`` (one of :data:`COUNTED`) in the active
    language, its plural form as the language picks it."""
    return html_ngettext(*COUNTED[word], n)


def plural(n: int, word: str) -> str:
    """``1 mistake``, ``2 inaccuracies`` (English; :func:`counted` in the active language)."""
    if word in COUNTED:
        return counted(n, word)
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


_OPTION = re.compile(r"--[a-z][a-z-]*")


def options_whole(text: str) -> Markup:
    """``text`` escaped, each command-line option in it (``--thresholds``) kept on one line (a phone broke it after
    its dashes)."""
    return Markup(_OPTION.sub(lambda m: f'<span class="opt">{m.group(0)}</span>', str(escape(text))))


_SCRIPT_CALL = re.compile(r'(?<![\w.])(_|ngettext)\(("(?:[^"\\]|\\.)*")(?:, ("(?:[^"\\]|\\.)*"))?')


@cache
def script_messages() -> tuple:
    """The messages the page's script writes (``static/report.js``: its ``_("...")`` and ``ngettext("...", "...")``
    calls, as Babel extracts them for the catalogue): a message, or a (singular, plural) pair."""
    import json

    text = files("analyzer.render").joinpath("static", "report.js").read_text(encoding="utf-8")
    return tuple(dict.fromkeys((json.loads(first), json.loads(second)) if kind == "ngettext" else json.loads(first)
                               for kind, first, second in _SCRIPT_CALL.findall(text)))


@cache
def script_words(code: str) -> str:
    """The words of the page's script in the language ``code`` (the active one: the key of the cache) as the
    page's JSON, each English message to its translation ("" in English: the script's own words); a message with
    plural forms to its form for each of the language's plural categories (``one``, ``few``, ``many``, ``other``:
    the script picks one with ``Intl.PluralRules``)."""
    if code == "en":
        return ""
    import json

    def forms(singular: str, plural: str) -> dict:
        if code not in LANGUAGES:                   # (the pseudo-language's marks)
            return {"one": plural_form(singular, plural, 1), "other": plural_form(singular, plural, 2)}
        from babel import Locale

        rule, found = Locale.parse(code).plural_form, {}
        for n in range(0, 1001):
            found.setdefault(rule(n), plural_form(singular, plural, n))
        return found

    return json.dumps({message[0] if isinstance(message, tuple) else message:
                       forms(*message) if isinstance(message, tuple) else gettext(message)
                       for message in script_messages()}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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


def move_tile(text: str) -> Markup:
    """A move as a table of choices shows it: ``[4-6]@6`` -> the small tile, ``[4-6]`` and ``on the 6`` (on a phone
    the tile and the notation's ``@6``, report.css: the end beside the tile, so that [4-6] on the 6 and on the 4
    differ, #66 item 9)."""
    return _move_tile(text, language())


@lru_cache(maxsize=4096, typed=True)
def _move_tile(text: str, code: str) -> Markup:
    head, at, end = text.partition("@")
    halves = head.strip("[]").split("-")
    drawn = f"{tile((int(halves[0]), int(halves[1])), 'small')} " if len(halves) == 2 and all(
        h.isdecimal() for h in halves) else ""
    on = escape(gettext("on the {end}", end=end))
    return Markup(f'{drawn}<span class="mt">{escape(head)}</span>'
                  + (f' <span class="on">{on}</span><span class="at">@{escape(end)}</span>' if at else ""))


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
    shown = escape(gettext("line"))
    return Markup(f'<button class="show-line" data-at="{number}" data-alt="{index}" data-value="{signed(a.value)}" '
                  f'data-move="{escape(a.text)}" data-words="{escape(words)}">{shown} ▸</button>')


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
def static_text(name: str, package: str = "analyzer.render") -> Markup:
    """A packaged CSS or script file, to be inlined (our own text, never record text), without the comments on
    lines of their own and the indentation (every page carries it: a sixth of a small page); ``package``: whose
    ``static`` folder holds it (the link codec is the static site's, ``analyzer.site``: one copy)."""
    text = files(package).joinpath("static", name).read_text(encoding="utf-8")
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
    out, critical = [], escape(gettext("critical"))
    for p in ch.points:
        cls = f"{f' cls-{escape(p.cls)}' if p.cls else ''}{' critical' if p.critical else ''}"
        out.append(f'<a class="pt-link" href="#{href}-m{p.move}" data-move="{p.move}">'
                   f'<title>{escape(p.label)}</title>\n<rect class="hit" x="{p.column}" {column}/>\n'
                   f'<circle class="pt{cls}" cx="{p.x}" cy="{p.y}" r="{6 if p.critical else 4 if p.cls else 3}"/>'
                   '\n</a>\n')
        if p.critical:
            below = p.value >= 0            # (the label under a point above the zero line)
            out.append(f'<text class="crit-label {"below" if below else "above"}" x="{p.x}" '
                       f'y="{p.y + (16 if below else -10)}" text-anchor="middle">{critical}</text>\n')
    return Markup("".join(out))


def chart_peak(largest: float) -> int:
    """The value at the top of the value chart (its bottom the same below 0) for the ``largest`` value shown: the
    game's own scale, a whole number its half is too, so that the ticks are whole: 1 or 2 (a game whose hand is
    worth one point, Jamaican: +1 / -1), an even number up to 10, else the tens above it."""
    peak = max(1, math.ceil(largest))
    if peak <= 2:
        return peak
    if peak <= 10:
        return peak + peak % 2
    return -(-peak // 10) * 10


def chart(game: GameReport, width: int = 560, height: int = 220) -> Chart | None:
    """The geometry of the value chart: one point per analysed move (None: nothing analysed)."""
    known = [(k, v) for k, v in enumerate(game.values) if v is not None]
    fair = game.fair_points
    if not known and not fair:
        return None
    peak = chart_peak(max([abs(v) for _, v in known] + [abs(v) for _, v in fair]))
    # room for the value labels at the left: 41 for "+50", more for "+100" (a phone draws them larger)
    left, right, top, bottom = 8 + 11 * len(signed(peak)), width - 12, 14, height - 28     # (whole: "41", not "41.0")
    moves = max(len(game.moves), 1)
    dx = (right - left) / moves
    scale = (bottom - top) / (2 * peak)
    zero = top + peak * scale

    def y(v: int) -> float:
        return short(zero - v * scale)

    points = []
    for k, v in known:
        move = game.moves[k - 1] if k else None
        what = gettext("move {number}: {player} {move}", number=k, player=move.player, move=move.text) if move else \
            gettext("the deal")
        x = short(left + k * dx)
        points.append(ChartPoint(k, x, y(v), v, move.cls if move else None,
                                 bool(move and move.critical), bool(move and move.turning_point),
                                 gettext("{what}; value {value} ({words})", what=what, value=signed(v), words=game.value_words(v)), short(x - round(dx, 3) / 2)))
    # the line breaks where a move has no value (its search went past the node limit)
    path = " ".join(f"{'L' if i and p.move == points[i - 1].move + 1 else 'M'}{p.x},{p.y}"
                    for i, p in enumerate(points))
    yticks = [(y(v), signed(v)) for v in dict.fromkeys((peak, peak // 2, 0, -(peak // 2), -peak))]
    step = 1 if moves <= 16 else 2 if moves <= 32 else 5 if moves <= 80 else 10
    xticks = [(short(left + k * dx), str(k)) for k in range(0, moves + 1, step)]
    stop = None
    if known and game.analysed < len(game.moves) and game.stopped:
        stop = short(left + known[-1][0] * dx)
    fair_points = [(short(left + k * dx), y(v), gettext("move {number}: fair value of the move played {value}", number=k, value=format(v, "+.1f")))
                   for k, v in fair]
    fair_path = " ".join(f"{'M' if i == 0 else 'L'}{x},{yy}" for i, (x, yy, _) in enumerate(fair_points))
    return Chart(width, height, left, right, top, bottom, short(zero), left, round(dx, 3), points, path,
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
        data=[deflated(packed_game(game_data(g, c), g)) for g, c in zip(shown, charts)], css=css,
        script=script, csp=csp, version=__version__, words=script_words(language())))


@cache
def page_assets(fair: bool, match: bool) -> tuple[Markup, Markup, str]:
    """A report page's CSS, script and policy (:func:`content_policy`): the rules of the fair analysis (``fair``) and of
    the match scale (``report --scale match``) only on the pages that show them, other pages as they were; the same for
    every page of a kind, made once."""
    # one module script: the one drawing of a tile (the board's ES module tiles.js, its text: a page opened from disk
    # may import nothing, docs/architecture.md), the record-in-a-link codec (window.DominoLink: "Copy link", a link
    # opened here), then the page's own script, which draws with the first
    css = static_text("report.css")
    script = Markup("\n".join([static_text("tiles.js", "analyzer.server"), static_text("link.js", "analyzer.site"),
                                static_text("report.js")]))
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
