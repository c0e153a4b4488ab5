"""``domino stats``: a row per player, by name across the records."""
from __future__ import annotations

import dataclasses
import json

import click

from .errors import clean_errors
from .options import (COUNT, MAX_WORLDS, PATHS, SEED, Renamed, fair_only, force_option, max_worlds_check, passes_option, run_options,
                      search_options, thresholds_option, variant_option)
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["stats"]


@click.command(cls=TranslatedCommand)
@PATHS
@variant_option
@thresholds_option
@click.option("--json", "as_json", is_flag=True,
              help=N_("Print the rows as JSON: a list (--by month, event, head-to-head: an object of lists)."))
@click.option("--csv", "as_csv", is_flag=True, help=N_("Print the rows as CSV."))
@click.option("--fair", "fair_worlds", type=click.IntRange(2, 100_000), default=None, metavar="N", is_flag=False,
              flag_value=200, help=N_("Add the fair analysis (N deals a decision, default 200): the average fair loss "
                                     "and real and hindsight-only mistakes per 100 decisions."))
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N",
              help=N_("With --fair: the seed of the drawing of deals (the same seed, the same run)."))
@click.option("--max-decision-deals", "max_worlds", cls=Renamed, retired="--max-worlds", type=MAX_WORLDS,
              default=None, metavar="N",
              help=N_("With --fair: the most deals drawn for one decision, doubling from N while its best move is not "
                      "told apart (default 4 times N)."))
@click.option("--scale", type=click.Choice(["points", "match"]), default="points", show_default=True,
              help=N_("match: also the luck and error rate in match-winning chance (MWC), where the record gives "
                      "the match position."))
@click.option("--by", "by", type=click.Choice(["player", "pair", "month", "event", "head-to-head"]), default="player",
              show_default=True,
              help=N_("pair: a row per side (partners together) instead of per player; month, event: each player's "
                      "games, wins, points, accuracy and error rate a month (the Date tag) or an event (the Event "
                      "tag); head-to-head: each player against each, each pair against each and each pair together."))
@click.option("--from", "start", type=click.DateTime(["%Y-%m-%d", "%Y.%m.%d"]), default=None, metavar="DATE",
              help=N_("Only the games dated on or after DATE (YYYY-MM-DD); a game whose date is not wholly known is "
                      "left out (standard error says how many)."))
@click.option("--to", "end", type=click.DateTime(["%Y-%m-%d", "%Y.%m.%d"]), default=None, metavar="DATE",
              help=N_("Only the games dated on or before DATE (YYYY-MM-DD)."))
@click.option("--counts", is_flag=True,
              help=N_("With --by month or event: the counts only (records, games, wins, points), no analysis (no "
                      "decisions, accuracy or error rate): fast. --by head-to-head never analyses."))
@click.option("--page", "page", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help=N_("With --by month or event: also write the trend page to FILE, a plot a player of his accuracy "
                      "each period with its 95% interval, and the table; with --by head-to-head its tables. The text, "
                      "JSON or CSV is still printed."))
@click.option("--mistakes", "most", type=click.IntRange(1, COUNT), default=None, metavar="N",
              help=N_("Instead of the rows: the N biggest mistakes over every record (the graded moves, the largest "
                      "loss first, every hand open), each with its place FILE:LINE:COLUMN, game, move N, player, the "
                      "move played and the best, the loss, its grade and the first reason; --json, --page FILE too."))
@click.option("--skip", type=click.IntRange(0, COUNT), default=0, show_default=True, metavar="K",
              help=N_("With --mistakes: leave out the K biggest (the next page: the --skip the text's last line "
                      "gives)."))
@click.option("--player", metavar="NAME",
              help=N_("With --mistakes: only the moves of NAME (case and blanks aside)."))
@click.option("--site", "site_url", metavar="URL", default="",
              help=N_("With --mistakes: the address of the analysis board's site (domino site); each mistake gets "
                      "the link that opens its position there (in the JSON without it: the link's #r= part)."))
@force_option
@search_options
@passes_option
@run_options
@clean_errors
def stats(paths, variant, rules, thresholds, as_json, as_csv, fair_worlds, seed, max_worlds, scale, by, start, end,
          counts, page, most, skip, player, site_url, force, max_nodes, table_mb, insert_passes, jobs, scheduler,
          cache_dir):
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

    --by month, --by event and --by head-to-head give the counts a league keeps (docs/archives.md, "A club's
    statistics"); --from and --to keep the games of a date range, whatever --by.

    Exit status: 0 when every record is valid, 1 when any has an error, 2 for a usage error, 3 when
    a --scheduler run is incomplete (the cluster was lost: the records not worked out say so).

    \b
    Example (a row per player over a match's games):
      domino stats records/match-milo.dom"""
    from ..archive import Summary               # (the work: loaded once a command runs, not for --help)
    from ..archive.league import in_range
    from ..archive.stats import player_rows, rows_csv, rows_table
    from .output import echo_errors, finish, options_for, output_target, results, sources

    if as_json and as_csv:
        raise click.UsageError(gettext("--json and --csv: choose one"))
    _mistakes_only(most, by, as_csv, counts, fair_worlds, scale)
    fair_only(fair_worlds is not None)      # --seed alone is a usage error, as for analyze and report
    league = by in ("month", "event", "head-to-head")
    if league and (fair_worlds is not None or scale != "points"):
        raise click.UsageError(gettext("--by {by} counts and grades with every hand open: --fair and --scale match "
                                       "are for --by player or pair", by=by))
    if counts and by not in ("month", "event"):
        raise click.UsageError(gettext("--counts: with --by month or --by event"))
    if page is not None and most is None and (not league or counts):
        raise click.UsageError(gettext("--page: with --by month or --by event (without --counts: it plots the "
                                       "accuracy) or --by head-to-head"))
    if start is not None and end is not None and start > end:
        raise click.BadParameter(gettext("{end} is before --from {start}", end=f"{end:%Y-%m-%d}",
                                         start=f"{start:%Y-%m-%d}"), param_hint="--to")
    if most is not None:
        options = options_for("analyze", variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                              table_mb=table_mb, triage=False)
    elif league:
        # the counts need no analysis (validate, the bounded triage left out); month and event grade the moves
        mode = "validate" if counts or by == "head-to-head" else "analyze"
        options = options_for(mode, variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                              table_mb=table_mb, triage=False)
    else:
        # graded on the match scale always: it gives each deal's luck (its MWC columns are shown with --scale
        # match), in a game of individual players each player's
        options = options_for("analyze", variant, rules, thresholds, max_nodes, insert_passes=insert_passes,
                              table_mb=table_mb, scale="match", luck_each=True)
    if fair_worlds:
        max_worlds_check(fair_worlds, max_worlds, "--fair N")
        options = dataclasses.replace(options, fair_worlds=fair_worlds, fair_seed=seed, fair_max_worlds=max_worlds)
    inputs = sources(paths)
    if page is not None:
        output_target(page, inputs, "--page", "page", force)
    summary, done = Summary(), []
    for result in results(inputs, options, jobs, scheduler, cache_dir):
        summary.add(result)
        done.append(result)
        if result["error"]:
            echo_errors(result, err=True)       # with the summary: standard output holds the rows only
    done, dropped = in_range(done, start and start.date(), end and end.date())
    if dropped:
        click.echo(ngettext("{n} game left out by --from/--to: no whole Date tag (YYYY.MM.DD) of its own or of a game "
                            "before it in its record", "{n} games left out by --from/--to: no whole Date tag "
                            "(YYYY.MM.DD) of their own or of a game before them in their record", dropped), err=True)
    if most is not None:
        click.echo(_mistakes(done, most, skip, player, site_url, as_json, page), nl=False)
        finish(summary, False, err=True)
        return
    if league:
        click.echo(_league(done, by, as_json, as_csv, page), nl=False)
        finish(summary, False, err=True)
        return
    rows = player_rows(done, by, scale)
    if as_json:
        click.echo(json.dumps([row.as_dict() for row in rows], indent=2))
    elif as_csv:
        click.echo(rows_csv(rows), nl=False)
    else:
        click.echo(rows_table(rows, scale), nl=False)
    finish(summary, False, err=True)


def _league(results: list[dict], by: str, as_json: bool, as_csv: bool, page: str | None) -> str:
    """The text (JSON, CSV) of ``--by month``, ``event`` or ``head-to-head`` over ``results``; ``page``: where the
    trend page is written too."""
    from ..archive import league
    from ..codec import to_data

    if by == "head-to-head":
        h2h = league.head_to_head(results)
        if page is not None:
            from ..render.page import write_page
            from ..render.trend import render_head_to_head

            write_page(render_head_to_head(h2h, gettext("Club statistics: head to head")), page)
        if as_json:
            return json.dumps(to_data(h2h), indent=2) + "\n"
        return league.head_to_head_csv(h2h) if as_csv else league.head_to_head_table(h2h)
    periods = league.period_rows(results, by)
    for place in periods.unread:
        click.echo(gettext("{place}: not a date (YYYY.MM.DD): counted as undated", place=place), err=True)
    if page is not None:
        from ..render.page import write_page
        from ..render.trend import render_trend

        title = gettext("Club statistics by event") if by == "event" else gettext("Club statistics by month")
        write_page(render_trend(periods, title, league.period_names()), page)
    if as_json:
        return json.dumps(to_data(periods), indent=2) + "\n"
    return league.periods_csv(periods) if as_csv else league.periods_table(periods)


def _mistakes_only(most: int | None, by: str, as_csv: bool, counts: bool, fair_worlds, scale: str) -> None:
    """The usage errors of ``--mistakes`` and its settings."""
    ctx = click.get_current_context()
    if most is None:
        for name, option in (("skip", "--skip"), ("player", "--player"), ("site_url", "--site")):
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                raise click.BadParameter(gettext("is a setting of --mistakes N: add it"), param_hint=option)
        return
    if by != "player" or as_csv or counts or fair_worlds is not None or scale != "points":
        raise click.UsageError(gettext("--mistakes lists moves, graded with every hand open: not with --by, --csv, "
                                       "--counts, --fair or --scale match"))


def _mistakes(results: list[dict], most: int, skip: int, player: str | None, site: str, as_json: bool,
              page: str | None) -> str:
    """The text (JSON) of ``--mistakes`` over ``results``; ``page``: where its page is written too."""
    from ..archive.mistakes import biggest_mistakes, mistakes_table
    from ..codec import to_data

    found = biggest_mistakes(results, most, skip, player, site)
    if page is not None:
        from ..render.page import write_page
        from ..render.trend import render_mistakes

        title = (gettext("Club statistics: the biggest mistakes of {player}", player=player) if player
                 else gettext("Club statistics: the biggest mistakes"))
        write_page(render_mistakes(found, title), page)
    if as_json:
        return json.dumps(to_data(found), indent=2) + "\n"
    return mistakes_table(found)
