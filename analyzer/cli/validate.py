"""``domino validate``: every move of every game checked against the rules; ``--repair``, the
likeliest edits that make a broken record legal; ``--write-repaired``, the record with them."""
from __future__ import annotations

import click

from .errors import clean_errors
from .options import PATHS, force_option, output_options, passes_option, run_options, variant_option
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["validate"]


@click.command(cls=TranslatedCommand)
@PATHS
@variant_option
@click.option("--json", "as_json", is_flag=True, help=N_("Print the findings as JSON."))
@output_options
@run_options
@click.option("--repair", "do_repair", is_flag=True,
              help=N_("For every invalid game, suggest the fewest, likeliest edits that make it legal "
                      "and agree with its Result tag."))
@click.option("--max-edits", type=click.IntRange(1, 3), default=2, show_default=True, metavar="N",
              help=N_("With --repair: the most edits a repair may make."))
@click.option("--write-repaired", "out_path", type=click.Path(dir_okay=False, writable=True),
              metavar="OUT", help=N_("Write the record (one PATH) with each game's best repair to OUT (implies "
                                     "--repair; the input file is never changed, an existing OUT only with --force)."))
@force_option
@passes_option
@clean_errors
def validate(paths, variant, rules, as_json, quiet, jsonl, jobs, scheduler, cache_dir, do_repair, max_edits,
             out_path, force, insert_passes):
    """Check every move of every game against the rules.

    With --repair, every invalid game also gets its best few repairs: the edits, the rows before
    and after, and the result each gives.

    Every invalid game is searched for its likely slip (a bounded repair search): each error
    that follows from it says so, and the likeliest repair is printed after the errors.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so).

    \b
    Example (the book's printed table, with its dropped row found):
      domino validate records/seed1-table.txt"""
    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..pipeline import validation_json
    from .output import JsonGames, echo_errors, echo_jsonl, finish, options_for, output_target, results, sources

    inputs = sources(paths)
    if out_path is not None:
        do_repair = True
        if len(inputs) != 1 or inputs[0].label == "<stdin>":
            raise click.UsageError("--write-repaired takes exactly one FILE")
        output_target(out_path, inputs, "--write-repaired", "record", force)
    source = click.get_current_context().get_parameter_source("max_edits")
    if not do_repair and source is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--max-edits goes with --repair")
    # with --repair the full search marks the errors (the bounded one would be a second search), in
    # the same pass over the record as its replay
    options = options_for("validate", variant, rules, insert_passes=insert_passes, triage=not do_repair,
                          repair_edits=max_edits if do_repair else 0, write_repaired=out_path is not None)
    summary = Summary()
    document = JsonGames(as_json and not (jsonl or quiet))      # (written as the records finish)
    for result in results(inputs, options, jobs, scheduler, cache_dir):
        summary.add(result)
        found = {k: r for k, r in enumerate(result.get("repairs_found") or ()) if r is not None}
        if jsonl:
            echo_jsonl(result)
        elif quiet:
            echo_errors(result)
        elif as_json:
            for game in validation_json(result, {k: r["report"] for k, r in found.items()}):
                document.add(game)
        else:
            from ..render.text import validation_text       # (start-up: the text, not for --json)

            click.echo(validation_text(result, {k: r["text"] for k, r in found.items()}), nl=False)
        if out_path is not None:
            _write_repaired(result.get("repaired") or {}, out_path)
    finish(summary, quiet, err=jsonl, games=document)


def _write_repaired(repaired: dict, out_path: str) -> None:
    """Write the repaired record the pipeline made (``{"text", "games"}``) to ``out_path``."""
    from ..outputs import write_atomic

    games = repaired.get("games", 0)
    if not games:
        click.echo(gettext("nothing written to {path}: no game could be repaired", path=out_path), err=True)
        return
    write_atomic(out_path, repaired["text"], make_folder=True)
    click.echo(ngettext("wrote {path} with {n} repaired game", "wrote {path} with {n} repaired games", games,
                        path=out_path), err=True)
