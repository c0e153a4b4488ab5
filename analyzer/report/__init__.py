"""The annotated HTML report: plain report data first (``model``), then the page (``render``).

``build_report(record)`` gathers what the page shows, ``render_html(model)`` writes it as one
self-contained page, ``write_report(path_in, path_out)`` does both for a record file."""
from .model import GameReport, MoveView, ReportModel, build_game, build_report
from .render import render_html, write_report

__all__ = ["GameReport", "MoveView", "ReportModel", "build_game", "build_report", "render_html", "write_report"]
