"""``domino replay``: every game move by move; ``--view SEAT``, what a player can infer."""
from __future__ import annotations

import json

import click

from .errors import clean_errors
from .options import PATHS, output_options, passes_option, variant_option

__all__ = ["replay_command"]


@click.command(name="replay")
@PATHS
@variant_option
@click.option("--json", "as_json", is_flag=True, help="Print the replays as JSON.")
@output_options
@passes_option
@click.option("--view", "view", metavar="SEAT|public",
              help="After each move, what this player (or the public) can infer: the number of deals "
                   "consistent with what that player has seen, and who may hold each unseen tile (a compact "
                   "matrix: the certain first, each hand's void numbers); the other hands by their size only.")
@clean_errors
def replay_command(paths, variant, rules, as_json, quiet, jsonl, insert_passes, view):
    """Show every game move by move: the open ends, every hand, and what each pass proves.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error.

    \b
    Example (the book deal move by move):
      domino replay records/seed2.dom"""
    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..pipeline import UnknownView, read, view_inference
    from ..replay.json import replay_data
    from ..report.text import replay_text
    from .output import JsonGames, echo_errors, finish, options_for, sources

    options = options_for("validate", variant, rules, insert_passes=insert_passes)
    summary = Summary()
    document = JsonGames(as_json and not (jsonl or quiet))      # (written as the records finish)
    inputs = sources(paths)
    several = len(inputs) > 1

    def inferred(rep) -> dict | None:
        try:
            return view_inference(rep, view, several) if view is not None else None
        except UnknownView as exc:
            raise click.BadParameter(str(exc), param_hint="--view") from None

    def data(rep) -> dict:
        """A replayed game as data (``--json``, ``--jsonl``), with what ``view`` can infer when given."""
        return {**replay_data(rep), **({"inference": inferred(rep)} if view is not None else {})}

    for src in inputs:
        src = src.read()
        run = read(src.label, src.data, options, src.error)
        result = run.data()
        summary.add(result)
        if jsonl:
            click.echo(json.dumps({"source": src.label, "error": result["error"],
                                   "games": [data(rep) for rep in run.replays]}))
        elif quiet or result["error"]:
            echo_errors(result, err=as_json and not quiet)
        elif as_json:
            for rep in run.replays:
                document.add({"file": src.label, **data(rep)})
        else:
            for number, rep in enumerate(run.replays, 1):
                click.echo(replay_text(number, rep, inferred(rep), view), nl=False)
    finish(summary, quiet, err=jsonl, games=document)
