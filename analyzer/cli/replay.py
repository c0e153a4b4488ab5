"""``domino replay``: every game move by move; ``--view SEAT``, what a player can infer."""
from __future__ import annotations

import json

import click

from .errors import clean_errors
from .options import PATHS, output_options, passes_option, variant_option
from ..i18n import N_
from .language import TranslatedCommand

__all__ = ["replay_command"]


@click.command(name="replay", cls=TranslatedCommand)
@PATHS
@variant_option
@click.option("--json", "as_json", is_flag=True, help=N_("Print the replays as JSON."))
@output_options
@passes_option
@click.option("--view", "view", metavar="SEAT|public",
              help=N_("After each move, what this player (or the public) can infer: the number of deals "
                      "consistent with what that player has seen, and who may hold each unseen tile (a compact "
                      "matrix: the certain first, each hand's void numbers); the other hands by their size only."))
@clean_errors
def replay_command(paths, variant, rules, as_json, quiet, jsonl, insert_passes, view):
    """Show every game move by move: the open ends, every hand, and what each pass proves.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error.

    \b
    Example (the book deal move by move):
      domino replay records/seed2.dom"""
    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..pipeline import UnknownView, internal_error, read, view_inference
    from ..replay.json import replay_data
    from ..render.text import replay_text
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

    def shown(label: str, run) -> tuple[dict, list]:
        """A record's result and what is printed of it (made whole before any of it is printed)."""
        result = run.data()
        if jsonl:
            return result, [{"source": label, "error": result["error"], "games": [data(rep) for rep in run.replays]}]
        if quiet or result["error"]:
            return result, []
        if as_json:
            return result, [{"file": label, **data(rep)} for rep in run.replays]
        return result, [replay_text(number, rep, inferred(rep), view) for number, rep in enumerate(run.replays, 1)]

    for src in inputs:
        src = src.read()
        run = read(src.label, src.data, options, src.error)
        try:
            result, parts = shown(src.label, run)
        except click.ClickException:
            raise
        except Exception as exc:    # a bug on one record is that record's error: the others are still shown
            result, parts = internal_error(src.label, exc), []
        summary.add(result)
        if jsonl:
            click.echo(json.dumps(parts[0] if parts else {"source": src.label, "error": result["error"], "games": []}))
        elif quiet or result["error"]:
            echo_errors(result, err=as_json and not quiet)
        elif as_json:
            for part in parts:
                document.add(part)
        else:
            for part in parts:
                click.echo(part, nl=False)
    finish(summary, quiet, err=jsonl, games=document)
