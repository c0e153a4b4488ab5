"""``domino stats``: a row per player, by name across the records."""
from __future__ import annotations

import dataclasses
import json

import click

from .errors import clean_errors
from .options import (MAX_WORLDS, PATHS, SEED, fair_only, max_worlds_check, passes_option, run_options, search_options,
                      thresholds_option, variant_option)
from ..i18n import N_
from .language import TranslatedCommand

__all__ = ["stats"]


@click.command(cls=TranslatedCommand)
@PATHS
@variant_option
@thresholds_option
@click.option("--json", "as_json", is_flag=True, help=N_("Print the rows as a JSON list."))
@click.option("--csv", "as_csv", is_flag=True, help=N_("Print the rows as CSV."))
@click.option("--fair", "fair_worlds", type=click.IntRange(2, 100_000), default=None, metavar="N", is_flag=False,
              flag_value=200, help=N_("Add the fair analysis (N deals a decision, default 200): the average fair loss "
                                     "and real and hindsight-only mistakes per 100 decisions."))
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N",
              help=N_("With --fair: the seed of the drawing of deals (the same seed, the same run)."))
@click.option("--max-worlds", type=MAX_WORLDS, default=None, metavar="N",
              help=N_("With --fair: the most deals for a decision whose best move is not told apart (default 4 times N)."))
@click.option("--scale", type=click.Choice(["points", "match"]), default="points", show_default=True,
              help=N_("match: also the luck and error rate in match-winning chance (MWC), where the record gives "
                      "the match position."))
@click.option("--by", "by", type=click.Choice(["player", "pair"]), default="player", show_default=True,
              help=N_("pair: a row per side (partners together) instead of per player."))
@search_options
@passes_option
@run_options
@clean_errors
def stats(paths, variant, rules, thresholds, as_json, as_csv, fair_worlds, seed, max_worlds, scale, by, max_nodes, table_mb,
          insert_passes, jobs, scheduler, cache_dir):
    """Sum up every player, by name across the records: games, decisions, average loss, mistakes
    per 100 decisions, accuracy and the record's errors on the player's moves.

    Accuracy is the share of a player's real choices (more than one legal move) that lost less than
    the inaccuracy threshold against the best move, every hand open. The analysis is that of
    `domino analyze --scale match`, with each player's deal luck in games of individual players (each
    deal played out by the hand model's policy once more: a --cache of stats is its own).

    A second table gives luck and skill: each player's result over the hands whose deal's luck is
    known, that luck (the open-hands value at the lead less the variant's mean, plus in a draw game
    the luck of each tile drawn against the tiles that could have come: both parts are columns), the luck-adjusted
    result (result less luck), and his error rate (mean loss a decision with a choice; fair where
    judged, else open hands) with its 95% interval, the decisions it rests on and, from two games
    or more and a narrow enough interval, his strength band (see docs/equity.md).

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so).

    \b
    Example (a row per player over a match's games):
      domino stats records/match-milo.dom"""
    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..archive.stats import player_rows, rows_csv, rows_table
    from .output import echo_errors, finish, options_for, results, sources

    if as_json and as_csv:
        raise click.UsageError("--json and --csv: choose one")
    fair_only(fair_worlds is not None)      # --seed alone is a usage error, as for analyze and report
    # graded on the match scale always: it gives each deal's luck (its MWC columns are shown with --scale match),
    # in a game of individual players each player's
    options = options_for("analyze", variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                          table_mb=table_mb, scale="match", luck_each=True)
    if fair_worlds:
        max_worlds_check(fair_worlds, max_worlds)
        options = dataclasses.replace(options, fair_worlds=fair_worlds, fair_seed=seed, fair_max_worlds=max_worlds)
    summary, done = Summary(), []
    for result in results(sources(paths), options, jobs, scheduler, cache_dir):
        summary.add(result)
        done.append(result)
        if result["error"]:
            echo_errors(result, err=True)       # with the summary: standard output holds the rows only
    rows = player_rows(done, by, scale)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2))
    elif as_csv:
        click.echo(rows_csv(rows), nl=False)
    else:
        click.echo(rows_table(rows, scale), nl=False)
    finish(summary, False, err=True)
