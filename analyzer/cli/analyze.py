"""``domino analyze``: the exact value of every alternative at every decision, all hands open; with
``--fair`` (or records with hidden hands), every move judged by what its player could know."""
from __future__ import annotations

import click

from .errors import clean_errors
from .options import (PATHS, fair_only, fair_options, fair_settings, force_option, output_options, passes_option,
                      run_options, scale_option, search_options, thresholds_option, variant_option)
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["analyze"]


@click.command(cls=TranslatedCommand)
@PATHS
@variant_option
@click.option("--json", "as_json", is_flag=True, help=N_("Print the analyses as JSON."))
@output_options
@run_options
@click.option("--graph", "graph_path", type=click.Path(dir_okay=False, writable=True),
              help=N_("Write the tree of analysed lines: GraphML, or JSON when the name ends in .json "
                      "(numbered -1, -2... when there are several games). An existing file is replaced only "
                      "when it is a tree domino wrote, or with --force."))
@force_option
@click.option("--lines", is_flag=True, help=N_("Give each alternative its best continuation to the end of the hand."))
@thresholds_option
@search_options
@passes_option
@fair_options
@scale_option
@clean_errors
def analyze(paths, variant, rules, as_json, quiet, jsonl, jobs, scheduler, cache_dir, graph_path, force, lines,
            thresholds, max_nodes, table_mb, insert_passes, fair, seats, worlds, max_worlds, exact_below, seed, scale,
            exact_hidden, exact_hand, max_deals, hands, values_seconds, fair_seconds, exact_seconds, exact_memory):
    """Give the exact value of every alternative at every decision, all hands open.

    Values are points for the first side of the play order (seats 1 and 3, e.g. A/C), positive
    when it wins; in games of individual players, for the mover against all the others. The
    critical move is the one that lost the most. A game with a hand not known gets the fair
    analysis (as with --fair); the other games of such records keep their exact values.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so).

    \b
    Example (every decision of the book deal valued, and its critical move):
      domino analyze records/seed2.dom"""
    import dataclasses

    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..pipeline import analyze_entry, read
    from .output import JsonGames, echo_errors, echo_jsonl, finish, options_for, output_target, results, sources

    options = options_for("analyze", variant, rules, thresholds, max_nodes, lines=lines or graph_path is not None,
                          insert_passes=insert_passes, table_mb=table_mb, scale=scale)
    options = dataclasses.replace(options, max_deals=max_deals, fair_hands=hands, values_seconds=values_seconds,
                                  fair_seconds=fair_seconds)
    inputs = sources(paths)             # read once: standard input cannot be read twice
    known: dict = {}                    # the records read here to see whether they are all partial

    def all_partial() -> bool:
        """Whether every record named has a game whose deal is not fully known (then ``analyze``
        runs the fair analysis for the seats whose hand is known instead of refusing)."""
        for i, src in enumerate(inputs):        # (stops at the first record with every hand known)
            src = src.read()
            if not src.readable:
                return False
            known[i] = run = read(src.label, src.data, options)
            if not run.replays or not run.partial:
                return False
        return True

    hidden_only = not fair and all_partial()
    if hidden_only:
        fair = True
        click.echo("Some hands of these records are not known, so no exact values with every hand open there: "
                   "a game with a hand not known is valued over the deals its whole record allows (with every hand "
                   "open in each), and each move judged by what its player could know in every hand he may have "
                   "held (the fair analysis, as with --fair); the other games get their exact values.", err=True)
    fair_only(fair)
    if fair:
        for given, name in ((graph_path, "--graph"), (scheduler, "--scheduler"), (cache_dir, "--cache")):
            if given:
                raise click.BadParameter("does not combine with the fair analysis (--fair, or records with hidden "
                                         "hands): its worlds are solved here, in --jobs processes", param_hint=name)
        fair_options_ = fair_settings(worlds, max_worlds, exact_below, seed, exact_hidden, scale, max_deals, hands,
                                      exact_hand, values_seconds, fair_seconds, exact_seconds, exact_memory)
        fair_options_["fair_hidden_only"] = hidden_only
        return _analyze_fair(inputs, known, options, fair_options_, seats, jobs, as_json, quiet, jsonl)
    if graph_path is not None:          # (each game's numbered file when there are several: checked as it is written)
        output_target(graph_path, inputs, "--graph", "graph", force)
    summary, graphs = Summary(), []
    document = JsonGames(as_json and not (jsonl or quiet))      # (written as the records finish)
    for result in results(inputs, options, jobs, scheduler, cache_dir, known=known):
        result, text = _shown(result, graphs if graph_path is not None else None,
                              not (jsonl or quiet or result["error"] or as_json), len(inputs) > 1)
        summary.add(result)
        if jsonl:
            echo_jsonl(result)
        elif quiet or result["error"]:
            echo_errors(result, err=as_json and not quiet)
        elif as_json:
            for game in result["games"]:
                document.add(analyze_entry(result["source"], game))
        else:
            click.echo(text, nl=False)
            echo_errors(result)          # every error of a broken record, at its file:line:column
    if graph_path is not None:
        _write_graphs(graph_path, graphs, quiet or as_json or jsonl, inputs, force)
    finish(summary, quiet, err=jsonl, games=document)


def _shown(result: dict, graphs: list | None, words: bool, named: bool) -> tuple[dict, str]:
    """A record's result with its analyses added to ``graphs`` (the trees written at the end: the only analyses
    held) and its ``words`` (:func:`_text`), made whole before any is printed: a failure there is that record's
    ``internal-error`` alone."""
    from ..analysis import GameAnalysis
    from ..codec import from_data
    from ..pipeline import internal_error

    try:
        trees = [from_data(GameAnalysis, game["analysis"]) for game in result["games"]] if graphs is not None else []
        text = _text(result, named) if words else ""
    except Exception as exc:  # a bug on one record must not end the run
        return internal_error(result["source"], exc), ""
    if graphs is not None:
        graphs += trees
    return result, text


def _text(result: dict, named: bool) -> str:
    """One record's analysis as text (its file named first when there are several); its errors are printed
    after it."""
    from ..analysis import GameAnalysis
    from ..codec import from_data
    from ..render.text import analysis_text, draw_luck_text, match_scale_text, no_game

    out = [f"{result['source']}:\n"] if named else []
    games = [(game, from_data(GameAnalysis, game["analysis"])) for game in result["games"]]
    for number, (game, analysis) in enumerate(games, 1):
        if no_game(game):        # an empty file: its one error below, no analysis
            continue
        out += [analysis_text(number, analysis), draw_luck_text(game["analysis"]),
                match_scale_text(game["analysis"], analysis)]
    return "".join(out)


def _analyze_fair(inputs, known: dict, options, settings: dict, seats, jobs: int, as_json: bool, quiet: bool,
                  jsonl: bool) -> None:
    """``analyze --fair``: in this process, record by record, each read once (its worlds in ``--jobs``
    processes); ``--quiet``: the errors only; ``--jsonl``: a JSON object per record as it is done."""
    import dataclasses

    from ..archive import Summary
    from ..workers import worker_pool
    from ..codec import to_data
    from ..pipeline import analyze_entry, internal_error, judge_fairly, read, safely
    from ..render.text import analysis_text, draw_luck_text, match_scale_text, no_game
    from .output import JsonGames, WorldsBar, echo_errors, echo_jsonl, finish, game_label

    options = dataclasses.replace(options, **settings)
    summary = Summary()
    document = JsonGames(as_json and not (jsonl or quiet))      # (written as the records finish)
    for i, src in enumerate(inputs):
        src = src.read()
        run = known.pop(i, None) or read(src.label, src.data, options, src.error)
        run.options = options
        if not run.readable:
            result = run.data()
            summary.add(result)
            if jsonl:
                echo_jsonl(result)
            else:
                echo_errors(result, err=as_json)      # beside a JSON document: on standard error
            continue
        # one record: a name not in it is a slip of the command; several: each game notes who is not in it
        for rep in run.replays if len(inputs) == 1 else ():
            for name in seats:
                if name not in rep.players:
                    raise click.BadParameter(gettext("{name} is not a player of {title} ({players})", name=repr(name),
                                                     title=rep.title, players=", ".join(rep.players)),
                                             param_hint="--seat")

        def bar(number: int, run=run) -> WorldsBar:
            return WorldsBar(game_label(run.label, number) if len(run.replays) > 1 else run.label)

        result = safely(src.label, lambda run=run: _judged(judge_fairly(run, seats=seats, every_deal=True, workers=jobs,
                                                                        pool=worker_pool, bar=bar)))
        parts: list = []
        try:                # (made whole first: a failure there is the record's error alone)
            done = [(k + 1, run.analyses[k]) for k in range(run.judged)] if not result["error"] else []
            for number, fair in done if not (jsonl or quiet) else ():
                game = result["games"][number - 1]
                plain = game.get("analysis") or {}
                data = plain if "match_scale" in plain or any("draw_luck" in m for m in plain.get("moves", ())) \
                    else to_data(fair)
                if as_json:
                    parts.append(analyze_entry(src.label, game, data))
                elif not no_game(game):    # an empty file: its one error, no analysis
                    parts.append(analysis_text(number, fair) + draw_luck_text(data) + match_scale_text(data, fair))
        except Exception as exc:
            result, done, parts = internal_error(src.label, exc), [], []
        summary.add(result)
        if jsonl:
            echo_jsonl(result)
            continue
        if quiet or result["error"]:
            echo_errors(result, err=as_json and not quiet)    # beside a JSON document: on standard error
        if quiet:
            continue
        for part in parts:
            if as_json:
                document.add(part)
            else:
                click.echo(part, nl=False)
        if done and not as_json and not result["error"]:
            echo_errors(result)          # every error of a broken record, after its analysis
    finish(summary, quiet, err=jsonl, games=document)


def _judged(run) -> dict:
    """The plain data of a record judged fairly, graded on the match scale where its options ask
    (``--scale match``: each alternative's MWC the mean over its worlds)."""
    from ..pipeline import extras

    return extras(run, run.judged).data()


def _write_graphs(graph_path: str, analyses: list, quiet: bool, inputs: list, force: bool) -> None:
    """Each game's tree, written whole or not at all, with the mark that makes it the tool's own
    (:data:`analyzer.outputs.GENERATOR`: a later run may replace it without --force)."""
    import io

    from .. import __version__
    from ..analysis.lines import build_tree, tree_json, write_graphml
    from ..outputs import GENERATOR, write_atomic
    from .output import output_target

    for k, analysis in enumerate(analyses, 1):
        path = graph_path if len(analyses) == 1 else _numbered(graph_path, k)
        if path != graph_path:
            output_target(path, inputs, "--graph", "graph", force)
        graph = build_tree(analysis)
        graph.graph["generator"] = f"{GENERATOR} {__version__}"
        if path.endswith(".json"):
            data: str | bytes = tree_json(graph)
        else:
            buffer = io.BytesIO()
            write_graphml(graph, buffer)
            data = buffer.getvalue()
        write_atomic(path, data, make_folder=True)
        if not quiet:
            click.echo(ngettext("wrote the tree of game {number} to {path} ({n} position)",
                                "wrote the tree of game {number} to {path} ({n} positions)", graph.number_of_nodes(),
                                number=k, path=path), err=True)


def _numbered(path: str, k: int) -> str:
    stem, dot, ext = path.rpartition(".")
    return f"{stem}-{k}.{ext}" if dot else f"{path}-{k}"
