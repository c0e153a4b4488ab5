"""The rendering, in one place: what the pipeline gave, drawn and worded, never computed here (no replay,
analysis or repair is called from this package: tests/test_architecture.py). The annotated HTML report: plain
report data first (``model``), then the page (``page``, the one module with jinja2); the command line's words
(``text``, ``verdicts``); a position as SVG (``diagram``, placed by ``geometry``, the one drawing).

``build_report(source, replays, analyses)`` gathers what the page shows from games already replayed
and analysed (``analyzer.archive.task.report_model(record)`` does both for a record),
``render_html(model)`` writes it as one self-contained page, ``write_report(model, path)`` writes the
page to a file; ``index`` renders the index page of an archive; ``text`` holds the plain-text views
of the command line. The page model and the renderer (and ``jinja2``) are loaded when first asked for: the text views
do without them."""

__all__ = ["GameReport", "MoveView", "ReportModel", "build_game", "build_report", "render_html", "write_page",
           "write_report"]


def __getattr__(name: str):
    if name in ("render_html", "write_page", "write_report"):
        from . import page
        return getattr(page, name)
    if name in ("GameReport", "MoveView", "ReportModel", "build_game", "build_report"):
        from . import model             # (start-up: the commands that make no page load no page model)
        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
