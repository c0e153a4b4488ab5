"""``domino train``: problems from a player's own mistakes (``analyzer.train``)."""
from __future__ import annotations

import dataclasses
import json

import click

from .errors import clean_errors
from .options import COUNT, MAX_WORLDS, PATHS, SEED, WORLDS, Renamed, force_option, max_worlds_check, passes_option, run_options, search_options, \
    thresholds_option, variant_option
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["train"]

#: what ``-o FILE`` writes, by the file's ending: its kind (``outputs.KINDS``) and its option's name in messages
_OUTPUTS = {".json": "problems", ".html": "page", ".htm": "page", ".apkg": "deck"}


class _TrainCommand(TranslatedCommand):
    """``train``: ``--json`` is a flag, as every other command's; the old form ``--json FILE`` (before 0.2, where
    ``--json`` named the file of the JSON) is refused with a usage error saying what to write instead, never read
    as a record path."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for k, arg in enumerate(args):
            if arg == "--":
                break
            old = arg[len("--json="):] if arg.startswith("--json=") else (
                args[k + 1] if arg == "--json" and k + 1 < len(args) and args[k + 1].lower().endswith(".json") else None)
            if old is not None:
                raise click.UsageError(gettext("--json is a flag (print the problems as JSON); --json FILE is no more: "
                                               "write -o {path} for the file", path=old or "FILE.json"), ctx=ctx)
        return super().parse_args(ctx, args)


@click.command(cls=_TrainCommand)
@PATHS
@click.option("--player", required=True, metavar="NAME", help=N_("The player whose mistakes become problems (by name, "
                 "as stats counts him: case and blanks aside)."))
@click.option("--min-class", type=click.Choice(["inaccuracy", "mistake", "blunder"]), default="inaccuracy",
              show_default=True, help=N_("The least fair grade of a move made a problem."))
@click.option("--max", "most", type=click.IntRange(1, COUNT), default=None, metavar="N",
              help=N_("At most N problems (the real mistakes first, then the largest fair loss)."))
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="PAGE",
              help=N_("Write the problems as a page that asks first and shows the answer on a click."))
@click.option("-o", "--output", "outputs", type=click.Path(dir_okay=False), multiple=True, metavar="FILE",
              help=N_("Write the problems to FILE, by its ending: .json the JSON (as --json prints it), .html a page "
                      "(as --html), .apkg an Anki deck (needs genanki: pip install 'analyzer[anki]'); repeatable."))
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print the problems as JSON (else a line a problem); -o FILE.json writes it to a file."))
@click.option("--decision-deals", "worlds", cls=Renamed, retired="--worlds", type=WORLDS, default=200,
              show_default=True, metavar="N",
              help=N_("The deals drawn at first for one decision that has more than 1000 of them, each a deal the "
                      "player could not tell from the one played (as stats --fair N)."))
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N",
              help=N_("The seed of the drawing of deals (the same seed, the same problems)."))
@click.option("--max-decision-deals", "max_worlds", cls=Renamed, retired="--max-worlds", type=MAX_WORLDS,
              default=None, metavar="N",
              help=N_("The most deals drawn for one decision, doubling from --decision-deals while its best move is not "
                      "told apart (default 4 times --decision-deals)."))
@click.option("--scale", type=click.Choice(["points", "match"]), default="points", show_default=True,
              help=N_("match: grade on the match-winning chance as well, where the record gives the match position."))
@variant_option
@thresholds_option
@search_options
@passes_option
@run_options
@force_option
@clean_errors
def train(paths, player, min_class, most, html_path, outputs, as_json, worlds, seed, max_worlds, scale, variant,
          rules, thresholds, max_nodes, table_mb, insert_passes, jobs, scheduler, cache_dir, force):
    """Make problems of PLAYER's own mistakes across the records: every move the fair analysis graded
    (--min-class or worse, by what he could know), real mistakes first, then by loss. Each problem is the
    position he faced as he saw it, the question, and the answer (the best move, the move played, each
    alternative's fair value with its interval, the best line). A line a problem, or JSON with --json;
    -o writes the JSON, a page or an Anki deck.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error.

    \b
    Example (B's mistakes in the book deal as a page that asks first):
      domino train records/seed2.dom --player B --decision-deals 50 --html problems.html"""
    from ..archive import Summary           # (the work: loaded once a command runs, not for --help)
    from ..outputs import write_atomic
    from ..train import anki_deck, problem_line, problem_set, problems
    from .output import echo_errors, finish, options_for, output_target, results, sources

    inputs = sources(paths)
    kinds = {path: _kind(path) for path in outputs}
    json_path = next((p for p, k in kinds.items() if k == "problems"), None)
    deck_path = next((p for p, k in kinds.items() if k == "deck"), None)
    html_path = html_path or next((p for p, k in kinds.items() if k == "page"), None)
    for path, option, kind in ((html_path, "--html", "page"), *((p, "--output", k) for p, k in kinds.items())):
        if path is not None:
            output_target(path, inputs, option, kind, force)
    if deck_path is not None:
        try:
            import genanki  # noqa: F401
        except ImportError:
            raise click.UsageError(gettext("-o writes an Anki deck with genanki, which is not installed: "
                                           "pip install 'analyzer[anki]'")) from None
    max_worlds_check(worlds, max_worlds)
    options = options_for("analyze", variant, rules, thresholds, max_nodes, lines=True, insert_passes=insert_passes,
                          table_mb=table_mb, scale=scale)
    options = dataclasses.replace(options, fair_worlds=worlds, fair_seed=seed, fair_max_worlds=max_worlds)
    summary, done = Summary(), []
    for result in results(inputs, options, jobs, scheduler, cache_dir):
        summary.add(result)
        done.append(result)
        if result["error"]:
            echo_errors(result, err=True)
    from ..analysis.grades import grade_word

    found = problems(done, player, min_class, most, scale)
    text = json.dumps(problem_set(found, player), indent=2)
    if as_json:
        click.echo(text)
    else:
        for k, problem in enumerate(found, 1):
            click.echo(f"{k}. {problem_line(problem)}")
        if not found:
            click.echo(gettext("no problem: {player} made no move graded {grade} or worse", player=player,
                               grade=grade_word(min_class)))
    if json_path is not None:
        write_atomic(json_path, text + "\n", make_folder=True)
        click.echo(ngettext("wrote {path}: {n} problem", "wrote {path}: {n} problems", len(found), path=json_path),
                   err=True)
    if html_path is not None:
        from ..render.problems import render_problems
        write_atomic(html_path, render_problems(found, player), make_folder=True)
        click.echo(ngettext("wrote {path}: {n} problem", "wrote {path}: {n} problems", len(found), path=html_path),
                   err=True)
    if deck_path is not None:
        notes = anki_deck(found, player, deck_path)
        click.echo(ngettext("wrote {path}: {n} note", "wrote {path}: {n} notes", notes, path=deck_path), err=True)
    finish(summary, False, err=True)


def _kind(path: str) -> str:
    """What ``-o`` writes to ``path``, by its ending (a usage error for another)."""
    for ending, kind in _OUTPUTS.items():
        if path.lower().endswith(ending):
            return kind
    raise click.BadParameter(gettext("{path}: name a file ending in .json (the problems), .html (a page) or .apkg "
                                     "(an Anki deck)", path=path), param_hint="-o")
