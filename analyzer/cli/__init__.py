"""The ``domino`` command: a thin layer that reads options, calls the library and prints.

Every command that reads records takes any number of files, directories (searched for record files)
and ``-`` for standard input; the work itself is done by :mod:`analyzer.archive` (here, in a process
pool with ``--jobs`` or on a Dask cluster with ``--scheduler``), and the exit status is the same
everywhere: 0 when every record is valid, 1 when any is not (or cannot be read), 2 for a usage error."""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import sys
import time

import click

from .. import __version__
from ..archive import Cache, ClusterUnavailable, InputError, Options, Summary, check_rules, load, run
from ..archive.inputs import RECORD_EXTENSIONS, Source
from ..archive.runner import estimate_moves, progress_share
from ..diagnostics import DominoError
from ..replay import Replay, wins
from ..replay.json import entry_text, hand_names, replay_data, result_text
from ..rules.layout import arms_text
from ..rules import UnknownVariant, find_variant
from ..search.core import TABLE_MB, cores_text
from .fair import (_all_partial, _alt_order, _analyze_fair, _inference, _print_fair, _print_inference, fair_only,
                   fair_options, fair_settings)
from .options import search_options
from .validation import all_valid, folder_for, print_validation, read_source, read_result, repairs, validation_json, write_repaired


def clean_errors(command):
    """Turn the library's errors (and any surprise) into a message and an exit code, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (DominoError, UnknownVariant, InputError) as exc:
            raise click.UsageError(str(exc)) from None
        except ClusterUnavailable as exc:
            raise click.ClickException(str(exc)) from None
        except BrokenPipeError:     # the reader went away (``domino analyze F | head``): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None
        except click.ClickException:
            raise
        except Exception as exc:  # a bug: say so plainly, without a traceback
            raise click.ClickException(f"internal error ({type(exc).__name__}: {exc}); please report it") from None
    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="domino", message=f"%(prog)s, version %(version)s (search core: {cores_text()})")
def main() -> None:
    """Read, validate, replay, solve and report recorded domino games.

    Every command that reads records takes files, directories (searched, folders within folders,
    for records ending in .dom or .txt) and - for standard input. Exit status: 0 when every record
    is valid, 1 when any is invalid or cannot be read, 2 for a usage error, 3 when the run is incomplete
    (--scheduler: the cluster was lost, and the records not worked out say so)."""


def _variant_option(f):
    """``--variant NAME`` and ``--rule KEY=VALUE``: the rules a record is read under."""
    f = click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", callback=_rules,
                     help="A rule option on top of the record's Rules tag, e.g. target=200 "
                          "(repeatable; see `domino variants`).")(f)
    return click.option("--variant", "variant", metavar="NAME",
                        help="Rules variant (default: the record's Variant tag, else partnership).")(f)


def _rules(_ctx, _param, pairs) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(f"write KEY=VALUE, not {pair!r}", param_hint="--rule")
        out[key.strip()] = value.strip()
    return out


_PATHS = click.argument("paths", metavar="PATH...", nargs=-1, required=True, type=click.Path())


def _output_options(f, jsonl: bool = True):
    """``--quiet`` and ``--jsonl``."""
    f = click.option("-q", "--quiet", is_flag=True, help="Print only the errors (no summary).")(f)
    if jsonl:
        f = click.option("--jsonl", is_flag=True,
                         help="Write one JSON object per record (one line each) as soon as it is done.")(f)
    return f


def _run_options(f):
    """``--jobs``, ``--scheduler`` and ``--cache``: where and how the work on many records runs."""
    f = click.option("--cache", "cache_dir", type=click.Path(file_okay=False), metavar="DIR",
                     help="Keep every result in DIR; a re-run reuses those of unchanged records (same "
                          "tool version and options), and an interrupted run resumes.")(f)
    f = click.option("--scheduler", metavar="ADDRESS",
                     help="Run the work on a Dask cluster (tcp://host:8786); needs the 'cluster' extra.")(f)
    return click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
                        help="Records worked on at once, in N processes.")(f)


def _passes_option(f):
    """``--insert-passes``: the records leave forced passes out (as the tag ``[Passes "omitted"]`` says)."""
    return click.option("--insert-passes", "insert_passes", is_flag=True,
                        help="The records leave forced passes out: insert each pass the rules force and "
                             "say where (as the tag [Passes \"omitted\"] does).")(f)


def _thresholds_option(f):
    return click.option("--thresholds", default="3,10,25", show_default=True, metavar="I,M,B", callback=_thresholds,
                        help="Smallest loss in points for an inaccuracy, a mistake and a blunder.")(f)


def _thresholds(_ctx, _param, text: str) -> str:
    from ..analysis import Thresholds

    try:
        Thresholds.parse(text)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--thresholds") from None
    return text


def _check_variant(variant, rules) -> None:
    """Fail early (a usage error) on a variant or rule no record could be read under."""
    if variant:
        find_variant(variant, rules)   # lists what exists
    else:
        check_rules(rules)


def _sources(paths) -> list[Source]:
    sources = load(paths, sys.stdin.buffer if "-" in paths else None)
    if not sources:
        raise click.UsageError(f"no record files ({', '.join('*' + e for e in RECORD_EXTENSIONS)}) "
                               f"in {', '.join(paths)}")
    return sources


def _output_target(output: str, sources: list[Source], option: str) -> None:
    """A usage error, before any work, when ``output`` cannot be written: an empty path, a folder where
    a file is meant, a path through a file, a place that is not writable, or one of the inputs (no
    command writes over its own input). Missing folders on the way are made when writing."""
    if not output:
        raise click.UsageError(f"{option} needs a path; \"\" names nothing")
    if os.path.isdir(output):
        raise click.UsageError(f"{option} {output} is a folder; name a file")
    place = os.path.abspath(output)
    while not os.path.exists(place):
        place = os.path.dirname(place)
    if place != os.path.abspath(output) and not os.path.isdir(place):
        raise click.UsageError(f"{option} {output}: {place} is a file, not a folder")
    if not os.access(place, os.W_OK):
        raise click.UsageError(f"{option} {output}: {place} is not writable")
    if place != os.path.abspath(output):
        return
    for source in sources:
        if source.label != "<stdin>" and os.path.exists(source.label) and os.path.samefile(output, source.label):
            raise click.UsageError(f"{option} {output} would overwrite the input {source.label}; name another file")


def _terminal() -> bool:
    return sys.stdout.isatty() and sys.stderr.isatty()


class _Progress:
    """A bar on standard error that counts moves analysed (``share`` times each: the fair analysis
    counts them again as its worlds are solved), with records per second and the time left; nothing
    at all when the output is not a terminal."""

    def __init__(self, sources: list[Source], label: str, show: bool, share: int = 1):
        self.show = show and _terminal()
        self.records = len(sources)
        total = share * sum(estimate_moves(s) for s in sources) if self.show else 0
        self.done = 0
        self.start = time.monotonic()
        self.bar = click.progressbar(length=max(total, 1), label=label, file=sys.stderr, hidden=not self.show,
                                     show_eta=True, item_show_func=self._item)

    def _item(self, _item) -> str:
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        return f"{self.done}/{self.records} records, {rate:.1f} records/s"

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def __call__(self, moves: int, result: dict | None) -> None:
        if result is not None:
            self.done += 1
        if self.show:
            self.bar.update(moves, result)


def _results(sources, options: Options, jobs: int, scheduler, cache_dir, label: str = "analysing"):
    """Run ``options`` over ``sources`` with a progress bar when the work is long; yields results."""
    # a folder that cannot be made or written: a usage error now; a write failing later: one warning
    cache = Cache(cache_dir, warn=lambda text: click.echo(f"\r\033[Kwarning: {text}" if _terminal()
                                                          else f"warning: {text}", err=True)) if cache_dir else None
    with _Progress(sources, label if options.mode != "validate" else "validating", len(sources) > 1
                   or options.mode != "validate", progress_share(options)) as bar:
        for result in run(sources, options, jobs=jobs, scheduler=scheduler, cache=cache, progress=bar):
            if bar.show:                  # clear the bar's line for what is printed; the next update redraws it
                click.echo("\r\033[K", err=True, nl=False)
            yield result


def _options(mode: str, variant, rules, thresholds="3,10,25", max_nodes=None, lines=False,
             insert_passes=False, table_mb=TABLE_MB, triage=True) -> Options:
    _check_variant(variant, rules)
    return Options(mode, variant, tuple(sorted(rules.items())), thresholds, max_nodes, lines, insert_passes,
                   table_mb, triage=triage)


def _echo_errors(result: dict, err: bool = False) -> None:
    """The error lines of a record (after its analysis, or alone with ``--quiet``); on standard error
    (``err``) beside a JSON or CSV document."""
    if result["error"]:
        click.echo(result["error"]["text"], err=err)
    for game in result["games"]:
        for d in game["diagnostics"]:
            if d["severity"] == "error":
                click.echo(d["text"], err=err)


def _jsonl(result: dict) -> None:
    click.echo(json.dumps({k: v for k, v in result.items() if k != "page"}))


def _finish(summary: Summary, quiet: bool, err: bool = False, games: list | None = None) -> None:
    """The closing summary line (or, for ``--json``, the document of ``games`` with the summary),
    then the exit status: 0 all valid, 1 any invalid or any error reported at all (``summary.codes``: every
    error diagnostic and record error the run printed), 3 incomplete (records not worked out: the cluster was lost)."""
    if games is not None:
        click.echo(json.dumps({"games": games, "summary": summary.as_dict()}, indent=2))
    elif not quiet:
        click.echo(str(summary), err=err)
    sys.exit(3 if summary.incomplete else 0 if summary.ok and not summary.codes else 1)


# -- validate -------------------------------------------------------------------------------
@main.command()
@_PATHS
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@_output_options
@_run_options
@click.option("--repair", "do_repair", is_flag=True,
              help="For every invalid game, suggest the fewest, likeliest edits that make it legal "
                   "and agree with its Result tag.")
@click.option("--max-edits", type=click.IntRange(1, 3), default=2, show_default=True, metavar="N",
              help="With --repair: the most edits a repair may make.")
@click.option("--write-repaired", "out_path", type=click.Path(dir_okay=False, writable=True),
              metavar="OUT", help="Write the record (one PATH) with each game's best repair to OUT (implies "
                                  "--repair; the input file is never changed).")
@_passes_option
@clean_errors
def validate(paths, variant, rules, as_json, quiet, jsonl, jobs, scheduler, cache_dir, do_repair, max_edits,
             out_path, insert_passes):
    """Check every move of every game against the rules.

    With --repair, every invalid game also gets its best few repairs: the edits, the rows before
    and after, and the result each gives.

    Every invalid game is searched for its likely slip (a bounded repair search): each error
    that follows from it says so, and the likeliest repair is printed after the errors.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so)."""
    sources = _sources(paths)
    if out_path is not None:
        do_repair = True
        if len(sources) != 1 or sources[0].label == "<stdin>":
            raise click.UsageError("--write-repaired takes exactly one FILE")
        _output_target(out_path, sources, "--write-repaired")
    source = click.get_current_context().get_parameter_source("max_edits")
    if not do_repair and source is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--max-edits goes with --repair")
    # with --repair the full search below marks the errors: the workers' bounded one would be a second search
    options = _options("validate", variant, rules, insert_passes=insert_passes, triage=not do_repair)
    summary, games = Summary(), []
    for src, result in zip(sources, _results(sources, options, jobs, scheduler, cache_dir)):
        summary.add(result)
        if do_repair:
            src = src.read()
        reports = repairs(src, options, max_edits, result) if do_repair and not all_valid(result) else {}
        if jsonl:
            _jsonl(result)
        elif quiet:
            _echo_errors(result)
        elif as_json:
            games += validation_json(result, reports)
        else:
            print_validation(result, reports)
        if out_path is not None:
            write_repaired(src, out_path, reports)
    _finish(summary, quiet, err=jsonl, games=games if as_json and not (jsonl or quiet) else None)


# -- replay ---------------------------------------------------------------------------------
@main.command(name="replay")
@_PATHS
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the replays as JSON.")
@_output_options
@_passes_option
@click.option("--view", "view", metavar="SEAT|public",
              help="After each move, what this player (or the public) can infer: the number of deals "
                   "consistent with what he has seen and each tile's probability in each hand.")
@clean_errors
def replay_command(paths, variant, rules, as_json, quiet, jsonl, insert_passes, view):
    """Show every game move by move: the open ends, every hand, and what each pass proves.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error."""
    options = _options("validate", variant, rules, insert_passes=insert_passes)
    summary, games = Summary(), []
    sources = _sources(paths)
    several = len(sources) > 1
    for src in sources:
        src = src.read()
        record, reps = read_source(src, options)
        result = read_result(src, record, reps)
        summary.add(result)
        if jsonl:
            click.echo(json.dumps({"source": src.label, "error": result["error"],
                                   "games": [_replay_json(rep, view, several) for rep in reps]}))
        elif quiet or result["error"]:
            _echo_errors(result, err=as_json and not quiet)
        elif as_json:
            games += [{"file": src.label, **_replay_json(rep, view, several)} for rep in reps]
        else:
            _print_replays(reps, view, several)
    _finish(summary, quiet, err=jsonl, games=games if as_json and not (jsonl or quiet) else None)


def _replay_json(rep: Replay, view: str | None, several: bool) -> dict:
    """A replayed game as data (``--json``, ``--jsonl``), with what ``view`` can infer when given."""
    return {**replay_data(rep), **({"inference": _inference(rep, view, several)} if view is not None else {})}


def _names(rep: Replay, mask: int) -> str:
    return " ".join(hand_names(rep, mask)) or "-"


def _print_replays(reps: list[Replay], view: str | None = None, several: bool = False) -> None:
    for number, rep in enumerate(reps, 1):
        inferred = _inference(rep, view, several) if view is not None else {"steps": []}
        seen = {s["seen"]: s for s in inferred["steps"]}
        click.echo(f"Game {number}: {rep.title}  [{rep.variant.name}]")
        sides = " vs ".join(rep.side_name(s) for s in range(rep.variant.seating.sides))
        click.echo(f"Players in play order: {', '.join(rep.players)}  ({sides})")
        for diag in rep.notation + rep.deal_diagnostics:
            click.echo(f"  {diag}")
        for seat, name in enumerate(rep.players):
            click.echo(f"  {name}: {_names(rep, rep.initial.hands[seat]) if not rep.initial.hidden[seat] else '?'}")
        if 0 in seen:
            click.echo(f"  What {view} can infer from the deal:")
            _print_inference(seen[0])
        if inferred.get("stopped"):
            click.echo(f"  Inference stops: {inferred['stopped']}")
        for step in rep.steps:
            entry = step.entry
            what = entry_text(entry)
            if step.move is not None and step.move.arm is not None:
                what += f" on {'end' if rep.variant.layout == 'line' else 'arm'} {step.move.arm}"
            elif step.move is not None and step.move.end is not None and not entry.draw:
                what += f" on the {step.move.end}"
            if entry.annotation:
                what += f" {entry.annotation}"
            label = f"{entry.round}." if entry.round is not None else "  "
            ends = "-" if step.ends_after is None else " ".join(map(str, step.ends_after))
            if step.arms:
                ends = arms_text(step.arms)
            line = f"{label:>4} {entry.player:<6} {what:<22} open: {ends}"
            if step.lacks:
                line += f"   {entry.player} has no {' and no '.join(map(str, step.lacks))}"
            if step.boneyard is not None:
                line += f"   boneyard: {step.boneyard}"
            if step.scores is not None:
                line += "   score: " + ", ".join(f"{name} {v}" for name, v in zip(rep.players, step.scores))
            if step.move is None and step.seat is not None and not entry.is_muggins:
                line += "   (not played)"
            click.echo(line)
            hands = "  ".join(f"{name}: {_names(rep, step.hands_after[s])}" for s, name in enumerate(rep.players))
            click.echo(f"       {hands}")
            if entry.comment:
                click.echo(f"       {{{entry.comment}}}")
            for diag in step.diagnostics:
                click.echo(f"       {diag}")
            if step.index + 1 in seen:
                _print_inference(seen[step.index + 1])
        for diag in rep.end_diagnostics:
            click.echo(f"  {diag}")
        if rep.match is not None:
            state = rep.match.state
            click.echo(f"Match score after game {rep.match.number}: {rep.match.score}"
                       + (f" ({state.note})" if state.note else "")
                       + (f"; the match is over, won by {rep.side_name(state.winner)}"
                          if state.over and state.winner is not None else
                          "; the match is over" if state.over else ""))
        if rep.scores is not None:
            click.echo("Points scored during play: " + ", ".join(f"{n} {v}" for n, v in zip(rep.players, rep.scores)))
        click.echo(f"Result: {result_text(rep) if rep.result else 'the hand is not over' if rep.outcome is None else rep.outcome.termination}")
        click.echo()


# -- analyze --------------------------------------------------------------------------------
def _signed(v: int | None) -> str:
    if v is None:
        return "?"
    return f"{v:+d}" if v else "0"


@main.command()
@_PATHS
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the analyses as JSON.")
@_output_options
@_run_options
@click.option("--graph", "graph_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the tree of analysed lines: GraphML, or JSON when the name ends in .json "
                   "(numbered -1, -2... when there are several games).")
@_thresholds_option
@search_options
@_passes_option
@fair_options
@clean_errors
def analyze(paths, variant, rules, as_json, quiet, jsonl, jobs, scheduler, cache_dir, graph_path, thresholds,
            max_nodes, table_mb, insert_passes, fair, seats, worlds, exact_below, seed):
    """Give the exact value of every alternative at every decision, all hands open.

    Values are points for the first side of the play order (seats 1 and 3, e.g. A/C), positive
    when it wins; in games of individual players, for the mover against all the others. The
    critical move is the one that lost the most. Records with hidden hands get the fair analysis
    (as with --fair).

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so)."""
    from ..analysis import GameAnalysis

    options = _options("analyze", variant, rules, thresholds, max_nodes, lines=graph_path is not None,
                       insert_passes=insert_passes, table_mb=table_mb)
    sources = _sources(paths)           # read once: standard input cannot be read twice
    if not fair and _all_partial(sources, options):
        fair = True
        click.echo("Some hands of these records are not known, so no exact values with every hand open: "
                   "each move of a player whose hand is known is judged by what he could know "
                   "(the fair analysis, as with --fair).", err=True)
    fair_only(fair)
    if fair:
        for given, name in ((graph_path, "--graph"), (scheduler, "--scheduler"), (cache_dir, "--cache")):
            if given:
                raise click.BadParameter("does not combine with the fair analysis (--fair, or records with hidden "
                                         "hands): its worlds are solved here, in --jobs processes", param_hint=name)
        return _analyze_fair(sources, options, as_json, seats, dict(worlds=worlds, exact_below=exact_below,
                                                                    seed=seed, workers=jobs, node_limit=max_nodes),
                             quiet=quiet, jsonl=jsonl)
    if graph_path is not None:
        _output_target(graph_path, sources, "--graph")
    summary, analyses, graphs = Summary(), [], []
    for result in _results(sources, options, jobs, scheduler, cache_dir):
        summary.add(result)
        games = [(game, GameAnalysis.from_dict(game["analysis"])) for game in result["games"]]
        graphs += [analysis for _, analysis in games]
        if jsonl:
            _jsonl(result)
        elif quiet or result["error"]:
            _echo_errors(result, err=as_json and not quiet)
        elif as_json:
            analyses += [{"file": result["source"], **game["analysis"], "valid": game["valid"],
                          "diagnostics": game["diagnostics"]} for game in result["games"]]
        else:
            if len(sources) > 1:
                click.echo(f"{result['source']}:")
            for number, (_, analysis) in enumerate(games, 1):
                _print_analysis(number, analysis)
            _echo_errors(result)          # every error of a broken record, at its file:line:column
    if graph_path is not None:
        _write_graphs(graph_path, graphs, quiet or as_json or jsonl)
    _finish(summary, quiet, err=jsonl, games=analyses if as_json and not (jsonl or quiet) else None)


def _write_graphs(graph_path: str, analyses: list, quiet: bool) -> None:
    from ..analysis.lines import build_tree, tree_json, write_graphml

    for k, analysis in enumerate(analyses, 1):
        path = graph_path if len(analyses) == 1 else _numbered(graph_path, k)
        graph = build_tree(analysis)
        folder_for(path)
        if path.endswith(".json"):
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(tree_json(graph))
        else:
            write_graphml(graph, path)
        if not quiet:
            click.echo(f"wrote the tree of game {k} to {path} ({graph.number_of_nodes()} positions)", err=True)


def _print_analysis(number: int, result) -> None:
    first = result.sides[0] if result.sides else "the first side"
    if result.perspective:
        click.echo(f"Game {number}: {result.title}   ({result.perspective})")
    else:
        positive = wins(first, len(result.sides) == len(result.players))       # (sides of one player each)
        click.echo(f"Game {number}: {result.title}   values for {first} (positive: {positive})")
    if result.note:
        click.echo(f"Assumption: {result.note}")
    if result.values:
        deal = result.values[0]
        click.echo("Value of the deal with best play: "
                   + (_signed(deal) if deal is not None else "not computed (see the note below)"))
    if result.fair_note:
        click.echo(f"Fair analysis: {result.fair_note}")
    for d in result.decisions:
        where = f"round {d.round}, " if d.round is not None else f"move {d.index + 1}, "
        if d.unsolved:                # the search ran past the node limit after valuing some moves
            least = d.least_loss
            verdict = (f"{d.unsolved} of {len(d.alternatives)} moves not valued (the node limit)"
                       + (f"; loss at least {least}" if least else ""))
        elif d.loss is None:          # a hand is hidden: nothing is known of the move with every hand open
            verdict = "no value with every hand open"
        else:
            verdict = f"loss {d.loss}" + (f"  {d.cls.upper()}" if d.cls else "") if d.loss else "best"
        click.echo(f"  {where}{d.player} (line {d.line}): played {d.played} = {_signed(d.played_value)};"
                   f" best {_signed(d.best_value)}; {verdict}")
        if getattr(d, "fair", None) is not None:
            _print_fair(d)
        for alt in sorted(d.alternatives, key=lambda a: _alt_order(a, d.side)):
            marks = ", ".join(m for m, on in (("played", alt.played), ("best", alt.best)) if on)
            fair = ""
            if getattr(alt, "fair", None) is not None:
                lo, hi = alt.fair.ci95
                fair = (f"  fair {alt.fair.mean:+7.2f}" + (f" [{lo:+.2f}, {hi:+.2f}]" if lo != hi else "")
                        + f"  wins {alt.fair.p_win:.0%}")
            click.echo(f"      {alt.move:<10} {_signed(alt.value):>5}{fair}  {marks}")
    if result.critical:
        c = result.critical
        best = ", ".join(a.move for a in c.alternatives if a.best)
        click.echo(f"Critical move: {c.player} {c.played}" + (f" in round {c.round}" if c.round else "")
                   + f" (line {c.line}, column {c.column}): loses {c.loss}"
                   + (f" ({c.cls})" if c.cls else "") + f"; best was {best} ({_signed(c.best_value)})")
    elif result.decisions and not result.fair:
        click.echo("No move lost anything: every decision was best.")
    if result.fair_critical is not None:
        c = result.fair_critical
        click.echo(f"Critical move by what the player could know: {c.player} {c.played}"
                   + (f" in round {c.round}" if c.round else "") + f" (line {c.line}): loses {c.fair.loss:.2f} on "
                   f"average over {c.fair.worlds:,} deals ({c.fair.method}); best was {c.fair.best}; "
                   f"verdict: {c.fair.verdict}")
    if result.turning_point is not None:
        i = result.turning_point
        player, move = result.moves[i]
        click.echo(f"Turning point: move {i + 1} ({player} {move}): the value goes from "
                   f"{_signed(result.values[i])} to {_signed(result.values[i + 1])}")
    if result.stopped:
        click.echo(f"Note: {result.stopped}")
    click.echo()


# -- report ---------------------------------------------------------------------------------
@main.command()
@_PATHS
@click.option("-o", "--output", type=click.Path(), metavar="OUT",
              help="One record: the page to write (default: reports/NAME.html for NAME.dom or NAME.txt, reports/stdin.html for -). Several "
                   "records or a folder: the folder for their pages and index.html (default: reports).")
@_variant_option
@_thresholds_option
@search_options
@_output_options
@_run_options
@_passes_option
@fair_options
@clean_errors
def report(paths, output, variant, rules, thresholds, max_nodes, table_mb, quiet, jsonl, jobs, scheduler, cache_dir,
           insert_passes, fair, seats, worlds, exact_below, seed):
    """Write an annotated HTML replay of every game: each move on the table, the exact value of
    every alternative, the errors of play and of the record, and the critical move.

    For a folder or several records: one page per record and an index page with a sortable table
    of the games and the per-player summary. Every page is one self-contained file that loads
    nothing from the network.

    With --fair, each move is also judged by what its player could know (as analyze --fair): the fair
    value of every alternative, the two verdicts and the mover's view of who holds what.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so)."""
    from ..report.index import build_index, page_names, render_index
    from ..report.render import write_page

    options = fair_settings(_options("report", variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                                     table_mb=table_mb), fair, seats, worlds, exact_below, seed)
    sources = _sources(paths)
    if output == "":
        _output_target(output, sources, "-o")
    single = len(sources) == 1 and not any(os.path.isdir(p) for p in paths) and not (
        output and os.path.isdir(output))
    if single:
        label = sources[0].label
        name = "stdin" if label == "<stdin>" else os.path.splitext(os.path.basename(label))[0]
        targets = [output or os.path.join("reports", name + ".html")]
    else:
        folder = output or "reports"
        if os.path.exists(folder) and not os.path.isdir(folder):
            raise click.UsageError(f"-o {folder}: several records need a folder for their pages")
        targets = [os.path.join(folder, page) for page in page_names([s.label for s in sources])]
        targets.append(os.path.join(folder, "index.html"))
    for target in targets:
        _output_target(target, sources, "-o")
    summary, results = Summary(), []
    for result, target in zip(_results(sources, options, jobs, scheduler, cache_dir), targets):
        summary.add(result)
        if result["error"] is None:
            write_page(result["page"], target)
        results.append({k: v for k, v in result.items() if k != "page"})
        if jsonl:
            _jsonl(result)
        elif quiet or result["error"]:
            _echo_errors(result)
        elif single:
            games, invalid = len(result["games"]), sum(not g["valid"] for g in result["games"])
            click.echo(f"wrote {target}: {games} game{'s' * (games != 1)}"
                       + (f", {invalid} with errors (shown in the page)" if invalid else ""))
    if not single:
        pages = [None if r["error"] else os.path.basename(t) for r, t in zip(results, targets)]
        title = f"Archive: {', '.join(paths)}"
        write_page(render_index(build_index(results, pages, title)), targets[-1])
        if not quiet and not jsonl:
            click.echo(f"wrote {targets[-1]} and {sum(p is not None for p in pages)} record pages")
    _finish(summary, quiet or single, err=jsonl)


# -- stats ----------------------------------------------------------------------------------
@main.command()
@_PATHS
@_variant_option
@_thresholds_option
@click.option("--json", "as_json", is_flag=True, help="Print the rows as a JSON list.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the rows as CSV.")
@click.option("--fair", "fair_worlds", type=click.IntRange(2, 100_000), default=None, metavar="N", is_flag=False,
              flag_value=200, help="Add the fair analysis (N deals a decision, default 200): the average fair loss "
                                  "and real and hindsight-only mistakes per 100 decisions.")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N",
              help="With --fair: the seed of the drawing of deals (the same seed, the same run).")
@search_options
@_passes_option
@_run_options
@clean_errors
def stats(paths, variant, rules, thresholds, as_json, as_csv, fair_worlds, seed, max_nodes, table_mb, insert_passes,
          jobs, scheduler, cache_dir):
    """Sum up every player, by name across the records: games, decisions, average loss, mistakes
    per 100 decisions, accuracy and the record's errors on the player's moves.

    Accuracy is the share of a player's real choices (more than one legal move) that lost less than
    the inaccuracy threshold against the best move, every hand open. The analysis is the same as
    `domino analyze` (and shares its --cache).

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so)."""
    from ..archive.stats import player_rows, rows_csv, rows_table

    if as_json and as_csv:
        raise click.UsageError("--json and --csv: choose one")
    fair_only(fair_worlds is not None)      # --seed alone is a usage error, as for analyze and report
    options = _options("analyze", variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                       table_mb=table_mb)
    if fair_worlds:
        options = dataclasses.replace(options, fair_worlds=fair_worlds, fair_seed=seed)
    summary, results = Summary(), []
    for result in _results(_sources(paths), options, jobs, scheduler, cache_dir):
        summary.add(result)
        results.append(result)
        if result["error"]:
            _echo_errors(result, err=True)       # with the summary: standard output holds the rows only
    rows = player_rows(results)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2))
    elif as_csv:
        click.echo(rows_csv(rows), nl=False)
    else:
        click.echo(rows_table(rows), nl=False)
    _finish(summary, False, err=True)


# -- variants -------------------------------------------------------------------------------
@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Explain every option and preset.")
@clean_errors
def variants(as_json, verbose):
    """List every variant, its options with their defaults, and the rule text it comes from."""
    from ..rules.catalog import catalog, catalog_text

    if as_json:
        click.echo(json.dumps(catalog(), indent=2, ensure_ascii=False))
        return
    click.echo(catalog_text(verbose), nl=False)


# -- tournament -----------------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the check and the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV, a column a round (the "
              "problems go to standard error).")
@clean_errors
def tournament(file, as_json, as_csv):
    """Check a Domino Whist tournament FILE (rounds and tables) against the schemes of §12 or the
    movement of §13, and print each player's tally and the standings: a player's score in a round is
    the difference of the bad points at his table, won or lost (0 when both pairs ended equal, ? when
    the table gives no points).

    Exit status: 0 when the file agrees with its scheme, 1 when it does not or cannot be read, 2 for
    a usage error."""
    from ..archive.inputs import decode, load
    from ..archive.stats import csv_text
    from ..match.tournament import check_tournament, parse_tournament, ranking, round_scores

    if as_json and as_csv:
        raise click.UsageError("--json and --csv: choose one")
    src = load([file])[0].read()    # read as the records are: a byte-order mark is dropped, and a file
    text, problem = (None, src.error) if src.error else decode(src.data, src.label)   # that is not UTF-8
    if problem is not None:         # text is one diagnostic (not-utf8, binary, unreadable)
        if as_json:
            click.echo(json.dumps({"file": file, "error": problem.as_dict()}, indent=2))
        else:
            click.echo(f"  {problem}", err=as_csv)
            click.echo(f"{file}: cannot be read ({problem.code})", err=as_csv)
        sys.exit(1)
    t = parse_tournament(text, file)
    problems = check_tournament(t)
    errors = [d for d in problems if d.severity == "error"]
    rounds, scores = sorted(t.rounds()), round_scores(t)
    standings = [{"place": place, "number": player, "player": t.name(player), "total": total,
                  "rounds": {str(r): scores[player].get(r) for r in rounds if r in scores[player]}}
                 for place, player, total in ranking(t)]     # by number: two players may share a name
    if as_json:
        click.echo(json.dumps({"file": file, "scheme": t.tags.get("Scheme"), "rounds": len(rounds),
                               "valid": not errors, "diagnostics": [d.as_dict() for d in problems],
                               "standings": standings}, indent=2))
    elif as_csv:
        for d in problems:
            click.echo(f"  {d}", err=True)
        columns = ["place", "number", "player", "total"] + [f"round {r}" for r in rounds]
        click.echo(csv_text(columns, [{**row, **{f"round {r}": v for r, v in row["rounds"].items()}}
                                      for row in standings]), nl=False)
    else:
        for d in problems:
            click.echo(f"  {d}")
        click.echo(f"{file}: {t.tags.get('Scheme', '?')} scheme, {len(rounds)} rounds: "
                   + ("agrees with its scheme" if not errors else f"{len(errors)} error{'s' * (len(errors) > 1)}"))
        for row in standings:
            played = " ".join("?" if v is None else f"{v:+d}" for v in row["rounds"].values())
            click.echo(f"  {row['place']:>2}. {row['player']:<12} {row['total']:+5d}   ({played})")
    if errors:
        sys.exit(1)


def _numbered(path: str, k: int) -> str:
    stem, dot, ext = path.rpartition(".")
    return f"{stem}-{k}.{ext}" if dot else f"{path}-{k}"


if __name__ == "__main__":  # pragma: no cover
    main()
