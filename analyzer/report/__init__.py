"""The annotated HTML report: plain report data first (``model``), then the page (``render``).

``build_report(source, replays, analyses)`` gathers what the page shows from games already replayed
and analysed (``analyzer.archive.runner.report_model(record)`` does both for a record),
``render_html(model)`` writes it as one self-contained page, ``write_report(model, path)`` writes the
page to a file; ``index`` renders the index page of an archive."""
from .model import GameReport, MoveView, ReportModel, build_game, build_report
from .render import render_html, write_page, write_report

__all__ = ["GameReport", "MoveView", "ReportModel", "build_game", "build_report", "render_html", "write_page",
           "write_report"]
