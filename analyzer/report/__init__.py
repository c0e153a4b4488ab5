"""The annotated HTML report: plain report data first (``model``), then the page (``render``).

``build_report(source, replays, analyses)`` gathers what the page shows from games already replayed
and analysed (``analyzer.report.task.report_model(record)`` does both for a record),
``render_html(model)`` writes it as one self-contained page, ``write_report(model, path)`` writes the
page to a file; ``index`` renders the index page of an archive; ``text`` holds the plain-text views
of the command line. The renderer (and ``jinja2``) is loaded when first asked for: the text views
and the page model do without it."""
from .model import GameReport, MoveView, ReportModel, build_game, build_report

__all__ = ["GameReport", "MoveView", "ReportModel", "build_game", "build_report", "render_html", "write_page",
           "write_report"]


def __getattr__(name: str):
    if name in ("render_html", "write_page", "write_report"):
        from . import render
        return getattr(render, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
