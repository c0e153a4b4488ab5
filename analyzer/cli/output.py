"""What the commands share beyond their options: the sources named, the checks of an output path, the
run over the records with its progress bar, and the closing lines and exit status."""
from __future__ import annotations

import gc
import json
import os
import sys
import time

import click

from ..archive import Execution, Options, Summary, check_rules, load, run
from ..archive.inputs import RECORD_EXTENSIONS, Source
from ..notation import MAX_RECORD_BYTES
from ..pipeline import GameProgress
from ..archive.runner import estimate_moves, progress_share
from ..i18n import decimal, gettext, language, ngettext
from ..rules import find_variant
from ..search.core import TABLE_MB, pure_python_note

__all__ = ["options_for", "check_variant", "sources", "output_target", "Progress", "WorldsBar", "game_label", "results",
           "echo_errors", "echo_jsonl", "JsonGames", "finish"]


def options_for(mode: str, variant, rules, thresholds="3,10,25", max_nodes=None, lines=False,
                insert_passes=False, table_mb=TABLE_MB, triage=True, **more) -> Options:
    """The pipeline's options of a command; a variant or rule no record could be read under is a
    usage error at once (``find_variant`` lists what exists)."""
    check_variant(variant, rules)
    if mode != "validate" and (note := pure_python_note()):
        click.echo(note, err=True)      # once: the commands that search build their options once
    return Options(mode, variant, tuple(sorted(rules.items())), thresholds, max_nodes, lines, insert_passes,
                   table_mb, triage=triage, **{"language": language(), **more})


def check_variant(variant: str | None, rules: dict[str, str]) -> None:
    """A variant or rule no record could be read under is an error at once (``find_variant`` lists what
    exists; ``clean_errors`` makes it a usage error)."""
    if variant:
        find_variant(variant, rules)
    else:
        check_rules(rules)


def sources(paths) -> list[Source]:
    """The record files ``paths`` name (files, folders, ``-``); none at all is a usage error. A file larger
    than ``--max-size`` (else the 4 MB of :data:`analyzer.notation.MAX_RECORD_BYTES`) is that record's error."""
    ctx = click.get_current_context(silent=True)
    limit = (ctx.meta.get("max_size") if ctx is not None else None) or MAX_RECORD_BYTES
    found = load(paths, sys.stdin.buffer if "-" in paths else None, limit)
    if not found:
        raise click.UsageError(gettext("no record files ({extensions}) in {paths}",
                                       extensions=', '.join('*' + e for e in RECORD_EXTENSIONS),
                                       paths=', '.join(paths)))
    return found


def output_target(output: str, inputs: list[Source], option: str, kind: str | None = None,
                  force: bool = False) -> None:
    """A usage error, before any work, when ``output`` cannot be written: an empty path, a folder where
    a file is meant, a path through a file, a place that is not writable, or one of the inputs (no
    command writes over its own input); with ``kind`` (one of :data:`analyzer.outputs.KINDS`), an existing
    file that is not the tool's own output of that kind, unless ``force`` (``--force``). Missing folders on
    the way are made when writing."""
    if not output:
        raise click.UsageError(gettext("{option} needs a path; \"\" names nothing", option=option))
    if os.path.isdir(output):
        raise click.UsageError(gettext("{option} {output} is a folder; name a file", option=option, output=output))
    place = os.path.abspath(output)
    while not os.path.exists(place):
        place = os.path.dirname(place)
    if place != os.path.abspath(output) and not os.path.isdir(place):
        raise click.UsageError(gettext("{option} {output}: {place} is a file, not a folder", option=option,
                                       output=output, place=place))
    if not os.access(place, os.W_OK):
        raise click.UsageError(gettext("{option} {output}: {place} is not writable", option=option, output=output,
                                       place=place))
    if place != os.path.abspath(output):
        return
    for source in inputs:
        if source.label != "<stdin>" and os.path.exists(source.label) and os.path.samefile(output, source.label):
            raise click.UsageError(gettext("{option} {output} would overwrite the input {input}; name another file",
                                           option=option, output=output, input=source.label))
    from ..outputs import KINDS, replaceable        # (start-up: a command that writes no file loads none of it)

    if kind is not None and not force and not replaceable(output, kind):
        raise click.UsageError(gettext("{option} {output} exists and is not {kind}: it is left as it is; name another "
                                       "file, or add --force to replace it", option=option, output=output,
                                       kind=gettext(KINDS[kind][1])))


def game_label(label: str, number: int) -> str:
    """A record's label with the number of one of its games, for a line on the terminal."""
    return gettext("{record}, game {number}", record=label, number=number)


def _terminal() -> bool:
    return sys.stdout.isatty() and sys.stderr.isatty()


class Progress:
    """A bar on standard error that counts moves analysed (``share`` times each: the fair analysis
    counts them again as its worlds are solved), with records per second and the time left; nothing
    at all when the output is not a terminal. While a decision valued exactly under hidden information is being
    solved (``exact``: minutes, with no move counted), it says which in place of the records (with ``--jobs``, the
    latest begun of the records still in work)."""

    def __init__(self, inputs: list[Source], label: str, show: bool, share: int = 1):
        self.show = show and _terminal()
        self.records = len(inputs)
        total = share * sum(estimate_moves(s) for s in inputs) if self.show else 0
        self.done = 0
        self.start = time.monotonic()
        # (the exact decision each record is solving, in words, by its label: until a move is counted, or the record
        # is done; the latest begun shown)
        self.solving: dict[str, str] = {}
        # (no bar at all when none is shown: click's bar loads its terminal code, 3 ms of a start-up)
        self.bar = click.progressbar(length=max(total, 1), label=label, file=sys.stderr, show_eta=True,
                                     item_show_func=self._item) if self.show else None

    def _item(self, _item) -> str:
        if self.solving:
            return next(reversed(self.solving.values()))
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        return ngettext("{done}/{records} record, {rate} records/s", "{done}/{records} records, {rate} records/s",
                        self.records, done=self.done, records=self.records, rate=decimal(rate, 1))

    def exact(self, label: str, game: int | None, step: int, number: int, count: int, seconds: float) -> None:
        """A decision of record ``label`` (its game ``game``, None in a record of one) valued exactly under hidden
        information begins: the bar says which, of how many, and the most CPU it may take, until a move is
        counted or the record is done (``archive.run``'s ``exact``)."""
        if not self.show:
            return
        from ..analysis.hiddenwords import exact_progress_words   # (a fair analysis runs: the package is loaded)

        where = label if game is None else game_label(label, game)
        self.solving.pop(label, None)
        self.solving[label] = f"{where}: {exact_progress_words(step, number, count, seconds)}"
        self.bar.render_progress()          # (drawn now: no step to count)

    def __enter__(self):
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar is not None and self.bar.__exit__(*exc)

    def __call__(self, moves: int, result: dict | None) -> None:
        if result is not None:
            self.done += 1
            self.solving.pop(result["source"], None)
        elif moves:                         # (a move of the one record analysed in this process)
            self.solving.clear()
        if self.show:
            self.bar.update(moves, result)


class WorldsBar:
    """A bar on standard error that counts the worlds of one game solved by the fair analysis (a
    French hand has thousands: minutes), with the time left; nothing when the output is not a terminal.
    Its value in a ``with`` is its ``pipeline.GameProgress``: ``deals`` the bar itself, a ``progress(done, total)``
    of the worlds, and ``exact`` its line as each decision valued exactly begins. Its length is the budget, the
    most worlds there may be (``fair._sample``: every decision that may still draw more deals counted at
    ``--max-decision-deals``), re-based as decisions are settled, so it only shrinks and the bar never runs past it."""

    def __init__(self, label: str):
        self.label, self.bar, self.said = label, None, False

    def __enter__(self) -> GameProgress:
        return GameProgress(self, self.exact)

    def exact(self, step: int, number: int, count: int, seconds: float) -> None:
        """A line on standard error as a decision valued exactly under hidden information begins (the CFR+ solver's:
        up to 15 minutes of CPU each with ``--exact-hand 4``, before any deal is solved), in place of the one before;
        nothing when the output is not a terminal."""
        if not _terminal():
            return
        from ..analysis.hiddenwords import exact_progress_words   # (a fair analysis runs: the package is loaded)

        click.echo(f"\r\033[K{self.label}: {exact_progress_words(step, number, count, seconds)}", err=True, nl=False)
        self.said = True

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if not _terminal():
                return
            if self.said:
                click.echo("\r\033[K", err=True, nl=False)      # (the exact decisions' line, cleared for the bar)
                self.said = False
            self.bar = click.progressbar(length=total, label=gettext("deals of {record}", record=self.label),
                                         file=sys.stderr,
                                         show_eta=True, show_pos=True)
            self.bar.__enter__()
        if total != self.bar.length:
            self.bar.length = total          # (fewer deals to draw than the budget allowed: re-based)
        self.bar.update(done - self.bar.pos)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        if self.bar is not None or self.said:
            click.echo("\r\033[K", err=True, nl=False)       # the line is cleared for what is printed
        return False



_settled = False
#: the work's youngest generation (:func:`_settle`): collected each time this many objects are made
_YOUNG = 5_000


def _settle() -> None:
    """The start-up is over (the command's modules loaded, its options and sources read): what the process
    holds now it keeps to the end, so the garbage collector stops walking it (``gc.freeze``, once a process,
    the young garbage collected first so that none of it is kept). Each later collection walks only what the
    work makes, and so do the interpreter's last ones as it ends: ``validate`` of one small record spends a
    fifth less, most of it at the end. A worker forked later shares these objects' pages untouched. The work
    makes many small objects and few cycles (a record read is kept whole): the youngest are collected each
    :data:`_YOUNG` new ones instead of Python's 700 (``validate`` of 600 records spent a tenth of its time in
    the collector, 0.08 s; at 5,000, 0.05 s)."""
    global _settled
    if not _settled:
        _settled = True
        gc.collect(1)
        gc.freeze()
        young, *older = gc.get_threshold()
        gc.set_threshold(max(young, _YOUNG), *older)


def results(inputs, options: Options, jobs: int, scheduler, cache_dir, known: dict | None = None):
    """Run ``options`` over ``inputs`` with a progress bar when the work is long; yields results
    (``known``: records read here already, see :func:`analyzer.archive.run`). The start-up ends here
    (:func:`_settle`)."""
    _settle()
    cache = None
    if cache_dir:       # a folder that cannot be made or written: a usage error now; a write failing later: one warning
        from ..archive.cache import Cache       # (start-up: loaded with --cache-dir only)

        cache = Cache(cache_dir, warn=lambda text: click.echo(f"\r\033[Kwarning: {text}" if _terminal()
                                                              else f"warning: {text}", err=True))
    label = gettext("analysing") if options.mode != "validate" else gettext("validating")
    with Progress(inputs, label, len(inputs) > 1
                  or options.mode != "validate", progress_share(options)) as bar:
        for result in run(inputs, options, Execution(jobs, scheduler, cache), progress=bar, known=known,
                          exact=bar.exact):
            if bar.show:                  # clear the bar's line for what is printed; the next update redraws it
                click.echo("\r\033[K", err=True, nl=False)
            yield result


def echo_errors(result: dict, err: bool = False) -> None:
    """The error lines of a record (after its analysis, or alone with ``--quiet``); on standard error
    (``err``) beside a JSON or CSV document."""
    if result["error"]:
        click.echo(result["error"]["text"], err=err)
    for game in result["games"]:
        for d in game["diagnostics"]:
            if d["severity"] == "error":
                click.echo(d["text"], err=err)


# what a result carries for the command that ran it, not for its --jsonl line
_NOT_IN_JSONL = ("page", "repairs_found", "repaired")


def echo_jsonl(result: dict) -> None:
    """The line of ``--jsonl`` for one record."""
    click.echo(json.dumps({k: v for k, v in result.items() if k not in _NOT_IN_JSONL}))


class JsonGames:
    """The document of ``--json``, ``{"games": [...], "summary": {...}}``, written game by game as the records
    finish (``add``; none held: constant memory over any archive) and closed with the summary by
    :func:`finish`; the same bytes as ``json.dumps`` of the whole document with ``indent=2``. Writes
    nothing when not ``on`` (no ``--json``, or ``--jsonl`` or ``--quiet`` with it)."""

    def __init__(self, on: bool):
        self.on, self.written = on, 0

    def __bool__(self) -> bool:
        return self.on

    def add(self, game: dict) -> None:
        """One game of the document (its entry of ``"games"``), written now."""
        if self.on:
            head = '{\n  "games": [\n    ' if not self.written else ",\n    "
            # (json.dumps writes no raw newline inside a value: every one it writes is an indentation's)
            click.echo(head + json.dumps(game, indent=2).replace("\n", "\n    "), nl=False)
            self.written += 1

    def close(self, summary: dict) -> None:
        head = '\n  ],\n  "summary": ' if self.written else '{\n  "games": [],\n  "summary": '
        click.echo(head + json.dumps(summary, indent=2).replace("\n", "\n  ") + "\n}")


def finish(summary: Summary, quiet: bool, err: bool = False, games: JsonGames | list | None = None) -> None:
    """The closing summary line (or, for ``--json``, the close of the document of ``games`` with the summary:
    a :class:`JsonGames` written as it went, or a list written whole), then the exit status: 0 all valid, 1 any
    invalid or any error reported at all (``summary.codes``: every error diagnostic and record error the run
    printed), 3 incomplete (records not worked out: the cluster was lost)."""
    if isinstance(games, list):
        document = JsonGames(True)
        for game in games:
            document.add(game)
        games = document
    if games:
        games.close(summary.as_dict())
    elif not quiet:
        click.echo(str(summary), err=err)
    sys.exit(3 if summary.incomplete else 0 if summary.ok and not summary.codes else 1)
