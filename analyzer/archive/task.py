"""The executors' task: the pipeline's work on one record with the rendering's parts added, the page of a
record (mode ``report``) and the words of each repair (``validate --repair``). The executors of this package run
:func:`process`. The pipeline knows nothing of pages or words, and the report (the rendering) builds nothing: this
task, above both, joins them (``notation -> ... -> pipeline -> render -> archive / server -> cli``)."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..i18n import use
from ..match import replay_record
from ..pipeline import (Options, RecordRun, analyse as analyse_run, fair_worlds, judge_fairly, mover_views, read,
                        repairs_analysed, run_record, safely)

__all__ = ["process", "finish", "page", "page_model", "report_model", "position_diagrams"]


def finish(run: RecordRun, progress: Callable[[int], None] | None = None, exact: Callable | None = None) -> dict:
    """Do with a record read what its options ask (:func:`analyzer.pipeline.run_record`, which ``progress`` and
    ``exact`` are told as it goes), with the words of each repair found and, in mode ``report``, the page."""
    out = run_record(run, progress, exact=exact)
    for k, found in enumerate(out.get("repairs_found") or ()):
        if found is not None:
            from ..render.text import repair_text       # (start-up: the words, where a repair was found)

            found["text"] = repair_text(run.reports[k])
    if run.problem is None and run.options.mode == "report":
        from ..render.page import render_html     # (jinja2: loaded only where a page is made)

        out["page"] = render_html(page(run))
    return out


def process(label: str, data: bytes, options, progress: Callable[[int], None] | None = None,
            exact: Callable | None = None) -> dict:
    """The task the executors run: read, replay and (by ``options.mode``) analyse one record file, as
    plain data (``{"source", "error", "games": [...], "page"?, "repairs_found"?, "repaired"?}``); a
    failure of the analyser on one record is that record's ``internal-error``
    (:func:`analyzer.pipeline.safely`); its words in the language ``options.language`` names. ``progress`` and
    ``exact``: see :func:`finish` (the executors' processes give neither)."""
    with use(options.language):
        return safely(label, lambda: finish(read(label, data, options), progress, exact))


def page(run: RecordRun):
    """The page model of the record (:class:`~analyzer.render.model.ReportModel`): what the pipeline gave it,
    its triaged errors and analysed repairs (``pipeline.repairs_analysed``) too."""
    if run.triages is None or run.repaired is None:
        repairs_analysed(run, analyse=run.analyses is not None)
    model = page_model(run.label, run.replays, run.analyses, run.triages, run.repaired)
    if run.scales:          # ``--scale match``: the match scale of each game beside its values
        from ..render.matchscale import with_match_views

        model = with_match_views(model, run.replays, run.analyses, run.scales)
    if run.draw_lucks:      # a draw game with every hand open: the luck of its draws in the summary
        from ..render.model import with_draw_luck

        model = with_draw_luck(model, run.replays, run.draw_lucks)
    if run.text is not None:        # the record in a link: "Copy link", and a link to this record opened here
        from ..notation.link import encode_record       # (start-up: validate makes no page)

        model = replace(model, record_link=encode_record(run.text.encode("utf-8")))
    return model


def report_model(record, variant=None, thresholds=None, analyse: bool = True, rules: dict[str, str] | None = None):
    """Replay (and analyse, with every alternative's best line) every game of ``record`` and gather what
    its page shows, by the pipeline's steps (as ``domino report`` without ``--fair``)."""
    from ..analysis import Thresholds           # (start-up: validate makes no page)

    thresholds = thresholds or Thresholds()
    t = thresholds
    options = Options("report", variant, tuple((rules or {}).items()), thresholds=f"{t.inaccuracy},{t.mistake},{t.blunder}",
                      lines=True, fair_hidden=True)
    run = RecordRun(record.source, options, record, replay_record(record, variant, rules=rules))
    if analyse:
        analyse_run(run)
        if fair_worlds(run):        # (a record with hidden hands: the fair analysis, as the command's)
            judge_fairly(run)
            run.analyses = mover_views(run.analyses)
    return page(run)


def page_model(label, replays, analyses, triages=None, repaired=None):
    """What the page of a record shows: its games, and for each invalid one its likely slip (``triages``: the
    errors marked as the slip and what follows from it; none given: the errors as found) and the repaired
    record, analysed (``repaired``), as the pipeline gave them (``pipeline.repairs_analysed``)."""
    from ..render.model import build_report             # (start-up: validate makes no page)

    model = build_report(label, replays, analyses, triages, repaired)
    fixed = [t.best.replay for t in triages or () if t is not None and t.best is not None and t.best.replay is not None]
    drawn = [replace(game, diagrams=position_diagrams(rep)) for game, rep in zip(model.games + model.repaired,
                                                                                 list(replays) + fixed)]
    return replace(model, games=drawn[:len(model.games)] + model.games[len(drawn):],
                   repaired=drawn[len(model.games):] + model.repaired[max(0, len(drawn) - len(model.games)):])


def position_diagrams(rep) -> list[str]:
    """The diagram of every position of game ``rep``, from the deal to the last move, each as
    ``domino diagram --move K`` draws it (every hand the record shows face up)."""
    from ..render.diagram import game_diagrams          # (start-up: validate makes no page)

    return game_diagrams(rep)
