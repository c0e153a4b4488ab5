"""``domino tournament``: a Domino Whist tournament file checked against its scheme, with the standings."""
from __future__ import annotations

import json
import sys

import click

from .errors import clean_errors
from ..diagnostics import Severity
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["tournament"]


@click.command(cls=TranslatedCommand)
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the check and the standings as JSON."))
@click.option("--csv", "as_csv", is_flag=True, help=N_("Print the standings as CSV, a column a round (the "
                 "problems go to standard error)."))
@clean_errors
def tournament(file, as_json, as_csv):
    """Check a Domino Whist tournament FILE (rounds and tables) against the schemes of §12 or the
    movement of §13, and print each player's tally and the standings: a player's score in a round is
    the difference of the bad points at his table, won or lost (0 when both pairs ended equal, ? when
    the table gives no points).

    Exit status: 0 when the file agrees with its scheme, 1 when it does not or cannot be read, 2 for
    a usage error.

    \b
    Example (a Domino Whist tournament of eight players checked; the standings):
      domino tournament records/tournament-8.tour"""
    from ..archive.inputs import decode, load
    from ..archive.stats import csv_text
    from ..match.tournament import check_tournament, parse_tournament, ranking, round_scores

    if as_json and as_csv:
        raise click.UsageError(gettext("--json and --csv: choose one"))
    src = load([file])[0].read()    # read as the records are: a byte-order mark is dropped, and a file
    text, problem = (None, src.error) if src.error else decode(src.data, src.label)   # that is not UTF-8
    if problem is not None:         # text is one diagnostic (not-utf8, binary, unreadable)
        if as_json:
            click.echo(json.dumps({"file": file, "error": problem.as_dict()}, indent=2))
        else:
            click.echo(f"  {problem}", err=as_csv)
            click.echo(gettext("{file}: cannot be read ({code})", file=file, code=problem.code), err=as_csv)
        sys.exit(1)
    t = parse_tournament(text, file)
    problems = check_tournament(t)
    errors = [d for d in problems if d.severity == Severity.ERROR]
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
        click.echo(ngettext("{file}: {scheme} scheme, {n} round: ", "{file}: {scheme} scheme, {n} rounds: ",
                            len(rounds), file=file, scheme=t.tags.get('Scheme', '?'))
                   + (gettext("agrees with its scheme") if not errors else
                      ngettext("{n} error", "{n} errors", len(errors))))
        for row in standings:
            played = " ".join("?" if v is None else f"{v:+d}" for v in row["rounds"].values())
            click.echo(f"  {row['place']:>2}. {row['player']:<12} {row['total']:+5d}   ({played})")
    if errors:
        sys.exit(1)
