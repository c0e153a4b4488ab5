"""The page of a problem set (``domino train``): each problem asks first and shows its answer on a click.

Rendering only: the problems are :class:`analyzer.train.Problem` values the pipeline computed; the page
is the autoescaped template ``templates/problems.html.j2`` with its own CSS and script inlined (the
Content-Security-Policy lets only those run), each position's drawing an ``img`` of its SVG."""
from __future__ import annotations

import base64

from .. import __version__
from .page import content_policy, environment, static_text

__all__ = ["render_problems", "anki_fields", "svg_source"]


def svg_source(svg: str) -> str:
    """A drawing as an ``img`` source (a data URL: no markup of it enters the page)."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def render_problems(found, player: str, book: str | None = None) -> str:
    """The HTML page of the problems ``found`` of ``player``; with ``book`` (its title), a book of problems
    written by hand (:func:`analyzer.train.book_problems`: no move played, the answer the position's)."""
    css, script = static_text("problems.css"), static_text("problems.js")
    page = environment().get_template("problems.html.j2")
    return page.render(player=player, book=book, problems=found, images=[svg_source(p.svg) if p.svg else None for p in found],
                       css=css, script=script, csp=content_policy(css, script), version=__version__)


def anki_fields(problem) -> tuple[str, str]:
    """The front (the position and the question) and the back (the answer) of a problem's Anki note, as
    escaped HTML."""
    front = environment().from_string(_FRONT).render(p=problem, image=svg_source(problem.svg) if problem.svg else None)
    back = environment().from_string(_BACK).render(p=problem)
    return str(front), str(back)


_FRONT = """{% from "problem.html.j2" import where %}{% if image %}<img src="{{ image }}" alt="{{
_("the position as {player} saw it: his hand, the table, the others' tiles face down", player=p.player) }}">{% endif %}
<p>{{ where(p) }}</p>
<p><b>{% if p.played %}{{ _("{player} to play: what do you play?", player=p.player) }}{% else %}{{ p.question }}{% endif
%}</b></p>"""

_BACK = """{% from "problem.html.j2" import played_verdict, signed_dec %}<p>{{ played_verdict(p) }}</p>
{% if p.view %}<p>{{ p.view }}</p>{% endif %}
<ul>{% for a in p.alternatives %}<li>{{ a.move }}: {{ signed_dec(a.fair) }} {% if a.get("loss_bracket") %}({{ _("loss certified {low} to {high}",
low=a.loss_bracket[0]|dec, high=a.loss_bracket[1]|dec) }}){% else %}[{{ signed_dec(a.ci95[0]) }}, {{
signed_dec(a.ci95[1]) }}]{% endif %}{% if p.scale == "match" and a.mwc is not none %}, {{ _("{percent}% of match-winning chance", percent=(100 * a.mwc)|dec(1))
}}{% endif %}{% if a.best %} {{ _("best") }}{% endif %}{% if a.played %} {{ _("played") }}{% endif %}</li>{% endfor %}</ul>
{% if p.line %}<p>{{ _("Best line, every hand open: {line}", line=p.line|join(" ")) }}</p>{% endif %}
{% if p.why %}<p>{{ _("Why the move played lost, every hand open: {reasons}.", reasons=p.why|join("; ")) }}</p>{% endif %}"""
