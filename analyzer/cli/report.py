"""``domino report``: an annotated HTML page per record, and for several an index page."""
from __future__ import annotations

import dataclasses
import os

import click

from .errors import clean_errors
from .options import (PATHS, fair_only, fair_options, fair_settings, force_option, output_options, passes_option,
                      run_options, scale_option, search_options, thresholds_option, variant_option)
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["report"]


@click.command(cls=TranslatedCommand)
@PATHS
@click.option("-o", "--output", type=click.Path(), metavar="OUT",
              help=N_("One record: the page to write (default: reports/NAME.html for NAME.dom or NAME.txt, reports/stdin.html for -). Several "
                      "records or a folder: the folder for their pages and index.html (default: reports). An existing "
                      "file is replaced only when it is a page domino wrote, or with --force."))
@force_option
@variant_option
@thresholds_option
@search_options
@output_options
@run_options
@passes_option
@fair_options
@scale_option
@clean_errors
def report(paths, output, force, variant, rules, thresholds, max_nodes, table_mb, quiet, jsonl, jobs, scheduler,
           cache_dir, insert_passes, fair, seats, worlds, max_worlds, exact_below, seed, scale, exact_hidden, exact_hand,
           max_deals, hands, values_seconds, fair_seconds, exact_seconds, exact_memory):
    """Write an annotated HTML replay of every game: each move, every alternative's exact value, the
    errors of play and of the record, the critical move; for several records a page each and an index
    (the games, the per-player summary). Each page is self-contained (nothing from the network).

    With --fair, each move is also judged by what its player could know (as analyze --fair): fair
    values, the two verdicts and the mover's view of who holds what (a record with hidden hands
    gets it without --fair too). With --scale match, a game whose match position the record gives
    shows the match-winning chance (MWC) beside its values, each alternative's MWC and loss, and the
    luck of the deal; the index adds each player's and pair's luck, adjusted result and error rate.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so).

    \b
    Example (the book deal's page, to open in a browser):
      domino report records/seed2.dom -o seed2.html"""
    from ..archive import Summary  # (the work: loaded once a command runs, not for --help)
    from ..render.index import IndexRows, index_rows, page_names
    from ..render.names import below, renamed, shown_name
    from ..render.page import write_page
    from .output import echo_errors, echo_jsonl, finish, options_for, output_target, results, sources

    options = options_for("report", variant, rules, thresholds, max_nodes, lines=True, insert_passes=insert_passes,
                          table_mb=table_mb, scale=scale,      # (every alternative's best line, for the page's line view)
                          luck_each=scale == "match",          # (each player's deal luck: the summary and the index)
                          )
    fair_only(fair)
    # a record with hidden hands gets the fair analysis as with analyze (the pipeline decides: ``fair_worlds``)
    options = dataclasses.replace(options, fair_hidden=True, max_deals=max_deals, fair_hands=hands,
                                  values_seconds=values_seconds, fair_seconds=fair_seconds)
    if fair:
        options = dataclasses.replace(options, fair_seats=tuple(seats),
                                      **fair_settings(worlds, max_worlds, exact_below, seed, exact_hidden, scale,
                                                                     max_deals, hands, exact_hand, values_seconds,
                                                                     fair_seconds, exact_seconds, exact_memory))
    inputs = sources(paths)
    if output == "":
        output_target(output, inputs, "-o")
    single = len(inputs) == 1 and not any(os.path.isdir(p) for p in paths) and not (
        output and os.path.isdir(output))
    if single:
        label = inputs[0].label
        name = "stdin" if label == "<stdin>" else os.path.splitext(os.path.basename(label))[0]
        targets = [output or os.path.join("reports", name + ".html")]
    else:
        folder = output or "reports"
        if os.path.exists(folder) and not os.path.isdir(folder):
            raise click.UsageError(f"-o {folder}: several records need a folder for their pages")
        # named by the path below the folder given (never the machine's path to it)
        targets = [os.path.join(folder, page) for page in page_names([below(s.label, list(paths)) for s in inputs])]
        targets.append(os.path.join(folder, "index.html"))
    for target in targets:
        output_target(target, inputs, "-o", "page", force)
    summary, book = Summary(), None if single else _book_target(targets, inputs, force)  # (problems: a book)
    # an archive's index: its rows kept in a file and its players' numbers summed as the records finish, so that
    # nothing of a finished record is held (memory that does not grow with the archive)
    rows, tallies = (None, None) if single else (IndexRows(), _tallies(scale))
    for result, target in zip(results(inputs, options, jobs, scheduler, cache_dir), targets):
        if result["error"] is None:       # the page names the record as given relative to it, or by its name
            result = _written(result, lambda r=result, t=target: write_page(
                renamed(r["page"], r["source"], shown_name(r["source"], t, list(paths))), t))
        summary.add(result)
        if rows is not None:
            page = None if result["error"] else os.path.basename(target)
            rows.add(index_rows({**result, "source": shown_name(result["source"], targets[-1], list(paths))}, page))
            for tally in tallies.values():
                tally.add(result)
        book = _in_book(book, result)
        if jsonl:
            echo_jsonl(result)
        elif quiet or result["error"]:
            echo_errors(result)
        elif single:
            games, invalid = len(result["games"]), sum(not g["valid"] for g in result["games"])
            click.echo(ngettext("wrote {target}: {n} game", "wrote {target}: {n} games", games, target=target)
                       + (ngettext(", {n} with errors (shown in the page)", ", {n} with errors (shown in the page)",
                                   invalid) if invalid else ""))
    if not single:
        with rows:
            names = _write_index(paths, rows, tallies, targets[-1], summary, scale, book, quiet or jsonl)
        _write_book(book, names, quiet or jsonl)
    finish(summary, quiet or single, err=jsonl)


def _written(result: dict, write) -> dict:
    """``result`` once its page is written by ``write()``; a page that cannot be written (a full disk, a folder
    that refuses it) is that record's ``unwritable`` error naming the file, and the run goes on with the others."""
    from ..outputs import OutputError
    from ..pipeline import record_problem
    from ..rules.codes import Code
    from ..diagnostics import Diagnostic
    try:
        write()
    except OutputError as exc:
        from ..i18n import gettext
        diag = Diagnostic("error", Code.UNWRITABLE, gettext("the page was not written: {why}", why=exc),
                          source=result["source"])
        return {**result, "error": record_problem(result["source"], diag)["error"]}
    return result


def _tallies(scale: str) -> dict:
    """The players' numbers of an archive's index, summed as the records finish: by player, and with ``--scale
    match`` by pair too (the luck and skill table)."""
    from ..archive.stats import PlayerTally
    return {"player": PlayerTally("player"), **({"pair": PlayerTally("pair")} if scale == "match" else {})}


def _write_index(paths, rows, tallies: dict, target: str, summary, scale: str, book, quiet: bool) -> str:
    """Write the archive's index to ``target`` from its ``rows`` (``render.index.IndexRows``) and players'
    ``tallies``, linking the book of problems where there is one; the names of the archive its title gives are
    returned (the book's title gives them too)."""
    from ..render.index import ArchiveIndex, write_index
    players = tallies["player"].rows()
    skill = (tallies["player"].rows(scale), tallies["pair"].rows(scale)) if scale == "match" else None
    given = (p if not os.path.isabs(p) else os.path.basename(os.path.normpath(p)) for p in paths)
    names = ", ".join(given)
    title = gettext("Archive: {names}", names=names)
    shelf = os.path.basename(book[0]) if book and book[1] else None
    bands = None
    if skill is not None:
        from ..equity.bands import band_names       # (the bands' words: loaded where the luck and skill table is)
        bands = band_names()
    write_index(ArchiveIndex(title, rows, players, str(summary), skill, shelf, bands), target)
    if not quiet:
        click.echo(ngettext("wrote {target} and {n} record page", "wrote {target} and {n} record pages", rows.pages,
                            target=target))
    return names


def _book_target(targets: list[str], inputs, force: bool) -> tuple[str, list]:
    """Where the book of problems goes (beside the index), checked before any work, and the book so far."""
    from .output import output_target
    folder = os.path.dirname(targets[-1])
    target = os.path.join(folder, "book.html")
    if target in targets:                           # (a record named book.dom has that page)
        target = os.path.join(folder, "problems-book.html")
    output_target(target, inputs, "-o", "page", force)
    return target, []


def _in_book(book: tuple[str, list] | None, result: dict) -> tuple[str, list] | None:
    """The book with the problems of ``result`` added (:func:`analyzer.train.book_problems`); None as soon as
    a record is not all problems (a set-up game with a Problem tag each): no book then."""
    from ..train import book_problems
    if book is None:
        return None
    found = book_problems(result)
    return None if found is None else (book[0], book[1] + found)


def _write_book(book: tuple[str, list] | None, names: str, quiet: bool) -> None:
    """Write the book of problems (the page ``domino train --html`` writes, asking first) when there is one."""
    if not book or not book[1]:
        return
    from ..render.problems import render_problems
    from ..render.page import write_page
    write_page(render_problems(book[1], "", book=gettext("Problems: {names}", names=names)), book[0])
    if not quiet:
        click.echo(ngettext("wrote {path}: a book of {n} problem with its solution",
                            "wrote {path}: a book of {n} problems with their solutions", len(book[1]), path=book[0]))
