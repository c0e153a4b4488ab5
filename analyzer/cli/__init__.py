"""The ``domino`` command: a thin layer that reads options, calls the library and prints."""
from __future__ import annotations

import functools
import json
import os
import sys

import click

from .. import __version__
from ..diagnostics import DominoError
from ..notation import read
from ..position import tiles_of
from ..replay import Replay
from ..match import replay_record
from ..rules.layout import arms_text
from ..rules import UnknownVariant, find_variant
from ..search.core import CORE, TABLE_MB


def clean_errors(command):
    """Turn the library's errors (and any surprise) into a message and an exit code, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (DominoError, UnknownVariant) as exc:
            raise click.UsageError(str(exc)) from None
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
@click.version_option(__version__, prog_name="domino", message=f"%(prog)s, version %(version)s (search core: {CORE})")
def main() -> None:
    """Read, validate, replay, solve and report recorded domino games."""


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


def _load(paths, variant, rules) -> list[tuple[str, list[Replay]]]:
    if variant:
        find_variant(variant, rules)   # fail early, listing what exists
    return [(path, replay_record(read(path), variant, rules=rules)) for path in paths]


def _names(rep: Replay, mask: int) -> str:
    return " ".join(str(t) for t in sorted(tiles_of(mask, rep.initial.max_pip))) or "-"


# -- validate -------------------------------------------------------------------------------
@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@click.option("--repair", "do_repair", is_flag=True,
              help="For every invalid game, suggest the fewest, likeliest edits that make it legal "
                   "and agree with its Result tag.")
@click.option("--max-edits", type=click.IntRange(1, 3), default=2, show_default=True, metavar="N",
              help="With --repair: the most edits a repair may make.")
@click.option("--write-repaired", "out_path", type=click.Path(dir_okay=False, writable=True),
              metavar="OUT", help="Write FILE with each game's best repair to OUT (implies --repair; "
                                  "the input file is never changed).")
@clean_errors
def validate(files, variant, rules, as_json, do_repair, max_edits, out_path):
    """Check every move of every game in FILES against the rules.

    With --repair, every invalid game also gets its best few repairs: the edits, the rows before
    and after, and the result each gives.

    Every invalid game is searched for its likely slips (a bounded repair search, see
    docs/notation.md): each error is marked as the slip itself or as following from it, and the
    likeliest repair is printed with them.

    Exit status: 0 when every game is valid, 1 when any has an error, 2 for a usage error."""
    from ..repair import repair
    from ..repair.triage import triage

    if out_path:
        do_repair = True
        if len(files) != 1:
            raise click.UsageError("--write-repaired takes exactly one FILE")
        if os.path.exists(out_path) and os.path.samefile(out_path, files[0]):
            raise click.UsageError("--write-repaired would overwrite the input; name another file")
    source = click.get_current_context().get_parameter_source("max_edits")
    if not do_repair and source is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--max-edits goes with --repair")
    loaded = _load(files, variant, rules)
    bad = any(not rep.valid for _, reps in loaded for rep in reps)
    reports = {}
    triaged = {(path, k): triage(rep) for path, reps in loaded for k, rep in enumerate(reps) if not rep.valid}
    if do_repair:
        for path, reps in loaded:
            for k, rep in enumerate(reps):
                if not rep.valid:     # under the rules the game was replayed with (and, in a match, its lead)
                    reports[path, k] = repair(rep.game, max_edits=max_edits, variant=rep.variant, lead=rep.lead)
    if as_json:
        games = []
        for path, reps in loaded:
            for k, rep in enumerate(reps):
                t = triaged.get((path, k))
                entry = {"file": path, "title": rep.title, "valid": rep.valid,
                         "diagnostics": [d.as_dict() for d in (t.diagnostics if t else rep.diagnostics)],
                         "result": rep.result_dict()}
                if t is not None and t.report is not None:
                    entry["repairs"] = [r.as_dict() for r in t.report.repairs]
                    if t.likely:
                        entry["likely"] = t.likely
                report = reports.get((path, k))
                if report is not None:
                    data = report.as_dict()
                    entry["repairs"] = data.pop("repairs")
                    entry["repair"] = data
                games.append(entry)
        click.echo(json.dumps({"games": games}, indent=2))
    else:
        for path, reps in loaded:
            for number, rep in enumerate(reps, 1):
                errors = len(rep.errors)
                verdict = "valid" if not errors else f"INVALID ({errors} error{'s' * (errors != 1)})"
                click.echo(f"{path}: game {number} ({rep.title}): {verdict}")
                t = triaged.get((path, number - 1))
                for diag in (t.diagnostics if t else rep.diagnostics):
                    click.echo(f"  {diag}")
                if t is not None and t.likely and (path, number - 1) not in reports:
                    click.echo(f"  {t.likely}")
                if rep.result is not None:
                    click.echo(f"  result: {_result_text(rep)}")
                if (path, number - 1) in reports:
                    _print_repair(reports[path, number - 1])
    if out_path:
        _write_repaired(files[0], out_path, reports)
    sys.exit(1 if bad else 0)


def _print_repair(report) -> None:
    click.echo(f"  repair: {report.message}")
    for line in report.common:
        click.echo(f"    {line}")
    for number, fix in enumerate(report.repairs, 1):
        size = len(fix.edits)
        click.echo(f"  {number}. {size} edit{'s' * (size != 1)} (cost {fix.cost:g}): "
                   + "; ".join(str(e) for e in fix.edits))
        for label, rows in (("before", fix.rows_before), ("after", fix.rows_after or ["(nothing left)"])):
            for k, row in enumerate(rows):
                click.echo(f"     {label + ':' if k == 0 else '':<8} {row}")
        click.echo(f"     {'result:':<8} {fix.result_text}")


def _write_repaired(path, out_path, reports) -> None:
    """Write the record at ``path`` with every repaired game replaced by its best repair."""
    import dataclasses

    from ..notation import write

    record = read(path)
    games = list(record.games)
    repaired = 0
    for (_, k), report in reports.items():
        if report.best is not None and k < len(games):
            games[k] = report.best.game
            repaired += 1
    if not repaired:
        click.echo(f"nothing written to {out_path}: no game could be repaired", err=True)
        return
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.write(write(dataclasses.replace(record, games=games)))
    click.echo(f"wrote {out_path} with {repaired} repaired game{'s' * (repaired != 1)}", err=True)


def _result_text(rep: Replay) -> str:
    r = rep.result
    who = rep.players[r.seat]
    how = f"{who} goes out (domino)" if r.termination == "domino" else "blocked"
    if r.winner is None:
        return f"{how}; a draw"
    return f"{how}; {rep.side_name(r.winner)} win {r.points}"


# -- replay ---------------------------------------------------------------------------------
@main.command(name="replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the replay as JSON.")
@clean_errors
def replay_command(file, variant, rules, as_json):
    """Show FILE move by move: the open ends, every hand, and what each pass proves."""
    (_, reps), = _load([file], variant, rules)
    if as_json:
        click.echo(json.dumps({"games": [replay_data(rep) for rep in reps]}, indent=2))
        return
    for number, rep in enumerate(reps, 1):
        click.echo(f"Game {number}: {rep.title}  [{rep.variant.name}]")
        sides = " vs ".join(rep.side_name(s) for s in range(rep.variant.seating.sides))
        click.echo(f"Players in play order: {', '.join(rep.players)}  ({sides})")
        for diag in rep.notation + rep.deal_diagnostics:
            click.echo(f"  {diag}")
        for seat, name in enumerate(rep.players):
            click.echo(f"  {name}: {_names(rep, rep.initial.hands[seat]) if not rep.initial.hidden[seat] else '?'}")
        for step in rep.steps:
            entry = step.entry
            what = _entry_text(entry)
            if step.move is not None and step.move.arm is not None:
                what += f" on arm {step.move.arm}"
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
        click.echo(f"Result: {_result_text(rep) if rep.result else 'the hand is not over' if rep.outcome is None else rep.outcome.termination}")
        click.echo()


def _entry_text(entry) -> str:
    """``pass``, ``[3-6]``, ``[3-4] +10``, ``draws [3-4]``, ``draws ?`` or ``muggins 10``."""
    if entry.muggins is not None:
        return entry.text
    return entry.text + (f" +{entry.claim}" if entry.claim is not None else "")


def _scores(rep: Replay, scores) -> dict | None:
    return None if scores is None else dict(zip(rep.players, scores))


def replay_data(rep: Replay) -> dict:
    """The replay as plain data (the ``--json`` form)."""
    names = rep.players
    moves = []
    for step in rep.steps:
        e = step.entry
        moves.append({
            "index": step.index, "round": e.round, "player": e.player,
            "move": _entry_text(e), "boneyard": step.boneyard, "scores": _scores(rep, step.scores),
            "scored": step.scored,
            "end": None if step.move is None else step.move.end,
            "arm": None if step.move is None else step.move.arm,
            "arms": None if step.arms is None else [{"number": a.number, "state": a.state} for a in step.arms],
            "applied": step.move is not None, "annotation": e.annotation, "comment": e.comment,
            "line": e.pos.line or None, "column": e.pos.column or None,
            "open_ends": None if step.ends_after is None else list(step.ends_after),
            "hands": {n: [str(t) for t in sorted(tiles_of(step.hands_after[s], rep.initial.max_pip))]
                      for s, n in enumerate(names)},
            "lacks": list(step.lacks),
            "diagnostics": [d.as_dict() for d in step.diagnostics],
        })
    return {
        "title": rep.title, "variant": rep.variant.name, "tags": rep.game.tags, "players": list(names),
        "deal": {n: (None if rep.initial.hidden[s]
                     else [str(t) for t in sorted(tiles_of(rep.initial.hands[s], rep.initial.max_pip))])
                 for s, n in enumerate(names)},
        "moves": moves, "valid": rep.valid, "result": rep.result_dict(), "scores": _scores(rep, rep.scores),
        "match": rep.match.as_dict() if rep.match is not None else None,
        "diagnostics": [d.as_dict() for d in rep.diagnostics],
    }


# -- analyze --------------------------------------------------------------------------------
def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@_variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
@click.option("--graph", "graph_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the tree of analysed lines: GraphML, or JSON when the name ends in .json.")
@click.option("--thresholds", default="3,10,25", show_default=True, metavar="I,M,B",
              help="Smallest loss in points for an inaccuracy, a mistake and a blunder.")
@click.option("--max-nodes", type=click.IntRange(min=1), default=None, metavar="N",
              help="Positions the search of a layout or draw game may visit for one value before the "
                   "analysis stops and says so (default 2,000,000).")
@click.option("--table-mb", type=click.FloatRange(min=1), default=TABLE_MB, show_default=True, metavar="MB",
              help="Memory the exact search's transposition table may take (a full table replaces entries).")
@clean_errors
def analyze(file, variant, rules, as_json, graph_path, thresholds, max_nodes, table_mb):
    """Give the exact value of every alternative at every decision of FILE, all hands open.

    Values are points for the first side of the play order (seats 1 and 3, e.g. A/C), positive
    when it wins. The critical move is the one that lost the most."""
    from ..analysis import Thresholds, analyze_replay, int_solver_plays

    try:
        limits = Thresholds.parse(thresholds)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--thresholds") from None
    (_, reps), = _load([file], variant, rules)
    # a bar when it takes a while: many hands, or games the general search plays (seconds a hand)
    slow = len(reps) > 3 or any(not int_solver_plays(rep.variant) for rep in reps)
    show_bar = slow and sys.stderr.isatty() and not as_json
    results = []
    with click.progressbar(reps, label="analysing", file=sys.stderr, hidden=not show_bar) as bar:
        for rep in bar:
            results.append((rep, analyze_replay(rep, limits, lines=graph_path is not None, node_limit=max_nodes,
                                                       table_mb=table_mb)))
    if graph_path:
        from ..analysis.lines import build_tree, tree_json, write_graphml
        for k, (_, result) in enumerate(results, 1):
            path = graph_path if len(results) == 1 else _numbered(graph_path, k)
            graph = build_tree(result)
            if path.endswith(".json"):
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(tree_json(graph))
            else:
                write_graphml(graph, path)
            if not as_json:
                click.echo(f"wrote the tree of game {k} to {path} ({graph.number_of_nodes()} positions)", err=True)
    if as_json:
        click.echo(json.dumps({"games": [r.as_dict() for _, r in results]}, indent=2))
        return
    for number, (rep, result) in enumerate(results, 1):
        first = result.sides[0] if result.sides else "the first side"
        if result.perspective:
            click.echo(f"Game {number}: {rep.title}   ({result.perspective})")
        else:
            click.echo(f"Game {number}: {rep.title}   values for {first} (positive: {first} win)")
        if result.note:
            click.echo(f"Assumption: {result.note}")
        if result.values:
            deal = result.values[0]
            click.echo("Value of the deal with best play: "
                       + (_signed(deal) if deal is not None else "not computed (see the note below)"))
        for d in result.decisions:
            where = f"round {d.round}, " if d.round is not None else f"move {d.index + 1}, "
            verdict = f"loss {d.loss}" + (f"  {d.cls.upper()}" if d.cls else "") if d.loss else "best"
            click.echo(f"  {where}{d.player} (line {d.line}): played {d.played} = {_signed(d.played_value)};"
                       f" best {_signed(d.best_value)}; {verdict}")
            for alt in sorted(d.alternatives, key=lambda a: -a.value if d.side == 0 else a.value):
                marks = ", ".join(m for m, on in (("played", alt.played), ("best", alt.best)) if on)
                click.echo(f"      {alt.move:<10} {_signed(alt.value):>5}  {marks}")
        if result.critical:
            c = result.critical
            best = ", ".join(a.move for a in c.alternatives if a.best)
            click.echo(f"Critical move: {c.player} {c.played}" + (f" in round {c.round}" if c.round else "")
                       + f" (line {c.line}, column {c.column}): loses {c.loss}"
                       + (f" ({c.cls})" if c.cls else "") + f"; best was {best} ({_signed(c.best_value)})")
        elif result.decisions:
            click.echo("No move lost anything: every decision was best.")
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
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), metavar="OUT.html",
              help="The page to write (default: reports/NAME.html for the record NAME.txt).")
@_variant_option
@click.option("--thresholds", default="3,10,25", show_default=True, metavar="I,M,B",
              help="Smallest loss in points for an inaccuracy, a mistake and a blunder.")
@clean_errors
def report(file, output, variant, rules, thresholds):
    """Write an annotated HTML replay of every game of FILE: each move on the table, the exact value
    of every alternative, the errors of play and of the record, and the critical move.

    The page is one self-contained file: it loads nothing from the network."""
    from ..analysis import Thresholds
    from ..report import write_report

    try:
        limits = Thresholds.parse(thresholds)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--thresholds") from None
    if variant:
        find_variant(variant, rules)   # fail early, listing what exists
    if output is None:
        output = os.path.join("reports", os.path.splitext(os.path.basename(file))[0] + ".html")
    model = write_report(file, output, variant, limits, rules=rules)
    games = len(model.games)
    invalid = sum(not g.valid for g in model.games)
    click.echo(f"wrote {output}: {games} game{'s' * (games != 1)}"
               + (f", {invalid} with errors (shown in the page)" if invalid else ""))


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


def _numbered(path: str, k: int) -> str:
    stem, dot, ext = path.rpartition(".")
    return f"{stem}-{k}.{ext}" if dot else f"{path}-{k}"


if __name__ == "__main__":  # pragma: no cover
    main()
