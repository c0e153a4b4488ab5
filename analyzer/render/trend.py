"""The pages of a club's statistics: the biggest mistakes (``--mistakes N --page FILE``: a row a move, its place a
link to its position on the board where the site's address is given); the trend (``domino stats --by month --page FILE``), a plot a player of his
accuracy in each period, with its 95% interval, and the table of the periods; head to head (``--by head-to-head
--page FILE``), its three tables.

It renders what :func:`analyzer.archive.league.period_rows` gave (a ``Periods`` value: its rows carry the period,
the player and his counts and rates): nothing is counted here; the only arithmetic is the plot's coordinates. The
plot's scale is fixed, 0 to 100 per cent, so two players' plots read alike."""
from __future__ import annotations

from dataclasses import dataclass

from .. import __version__
from ..i18n import figure, gettext, ngettext
from .page import content_policy, environment, static_text

__all__ = ["TrendPlot", "trend_plots", "render_trend", "render_head_to_head", "render_mistakes"]

WIDTH, HEIGHT = 600, 200            # the plot's view box
LEFT, RIGHT, TOP, BOTTOM = 60, 46, 12, 34           # room for the labels at a phone's larger type
UNDATED = "undated"                 # the period of a game without a month (``league.UNDATED``: the data's code)
MOST_LABELS = 6                     # the periods named under a plot (a phone's width holds about so many)


@dataclass(frozen=True)
class TrendPoint:
    x: float
    y: float
    low: float                      # the interval's ends (y)
    high: float
    period: str
    words: str                      # "2026-03: 71.4% [50.0, 86.2] of 21 decisions"


@dataclass(frozen=True)
class TrendPlot:
    player: str
    points: tuple[TrendPoint, ...]
    line: str                       # the polyline's points
    labels: tuple[tuple[float, str], ...]       # (x, period) under the plot
    grid: tuple[tuple[float, str], ...]         # (y, "50%") across it


def _x(k: int, n: int) -> float:
    inner = WIDTH - LEFT - RIGHT
    return round(LEFT + (inner / 2 if n == 1 else inner * k / (n - 1)), 1)


def _y(percent: float) -> float:
    return round(TOP + (HEIGHT - TOP - BOTTOM) * (1 - percent / 100), 1)


def trend_plots(periods, names: dict[str, str] | None = None) -> list[TrendPlot]:
    """A plot for each player with an accuracy in some period, players as first met; the x axis holds every
    period of the archive but ``undated`` (a player's missing periods left as gaps in his points, the line
    joining those he has); ``names``: the periods that are no month or event of the records (``(no event)``) by
    how a person reads them (``league.period_names``)."""
    names = names or {}
    order = [p for p in dict.fromkeys(r.period for r in periods.rows) if p != UNDATED]
    n = len(order)
    step = max(1, -(-n // MOST_LABELS))
    labels = tuple((_x(k, n), names.get(p, p)) for k, p in enumerate(order) if k % step == 0 or k == n - 1)
    grid = tuple((_y(v), f"{v}%") for v in (0, 25, 50, 75, 100))
    plots = []
    for player in dict.fromkeys(r.player for r in periods.rows):
        points = tuple(
            TrendPoint(_x(order.index(r.period), n), _y(r.accuracy),
                       _y(r.accuracy_low if r.accuracy_low is not None else r.accuracy),
                       _y(r.accuracy_high if r.accuracy_high is not None else r.accuracy), r.period,
                       ngettext("{period}: {accuracy}% {ci}of {n} decision",
                                "{period}: {accuracy}% {ci}of {n} decisions", r.decisions,
                                period=names.get(r.period, r.period),
                                accuracy=figure(r.accuracy),
                                ci=gettext("[{low}, {high}]", low=figure(r.accuracy_low), high=figure(r.accuracy_high)) + " "
                                if r.accuracy_low is not None else ""))
            for r in periods.rows if r.player == player and r.period in order and r.accuracy is not None)
        if points:
            plots.append(TrendPlot(player, points, " ".join(f"{p.x},{p.y}" for p in points), labels, grid))
    return plots


def render_trend(periods, title: str, names: dict[str, str] | None = None) -> str:
    """The page: a plot a player, then the table of every period's rows (``periods``: a ``league.Periods``;
    ``names``: the periods that are no month or event by how a person reads them, ``league.period_names``)."""
    css, script = static_text("trend.css"), ""
    page = environment().get_template("trend.html.j2")
    undated = bool(periods.rows) and all(r.period == UNDATED for r in periods.rows)
    return page.render(title=title, periods=periods, plots=trend_plots(periods, names), names=names or {}, css=css,
                       undated=undated,
                       csp=content_policy(css, script), version=__version__, width=WIDTH, height=HEIGHT,
                       left=LEFT, right=WIDTH - RIGHT, bottom=HEIGHT - BOTTOM)


def render_head_to_head(h2h, title: str) -> str:
    """The head-to-head page (``h2h``: a ``league.HeadToHead``): player against player, pair against pair, pairs
    together."""
    css, script = static_text("trend.css"), ""
    return environment().get_template("headtohead.html.j2").render(
        title=title, h2h=h2h, css=css, csp=content_policy(css, script), version=__version__)


def render_mistakes(page, title: str) -> str:
    """The page of a page of the biggest mistakes (``page``: an ``archive.mistakes.Mistakes``): a row a move, its
    place a link to the position where the link has the site's address."""
    css, script = static_text("trend.css"), ""
    linked = any(m.link and not m.link.startswith("#") for m in page.mistakes)
    return environment().get_template("mistakes.html.j2").render(
        title=title, page=page, linked=linked, css=css, csp=content_policy(css, script), version=__version__)
