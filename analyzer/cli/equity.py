"""``domino equity``: a variant's match-winning-chance table (``analyzer.equity``)."""
from __future__ import annotations

import json
import os
import sys

import click

from ..diagnostics import DominoError
from ..equity import MatchPosition, compute_table, load_table, supported, table_name, write_table
from ..equity import bootstrap as bootstrap_se
from ..rules import MatchState, UnknownVariant, find_variant
from ..rules.modes import MatchKind
from .options import rule_pairs

__all__ = ["equity"]


def _score(_ctx, _param, text):
    if text is None:
        return None
    try:
        a, b = (int(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"write the two sides' scores as A,B (e.g. 60,35), not {text!r}") from None
    if a < 0 or b < 0:
        raise click.BadParameter(f"scores are not negative: {text!r}")
    return a, b


@click.command()
@click.option("--variant", "variant", metavar="NAME", default="partnership", show_default=True,
              help="Rules variant (see `domino variants`).")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", callback=rule_pairs,
              help="A rule option, e.g. target=150 (repeatable).")
@click.option("--hands", type=click.IntRange(50, 1_000_000), default=None, metavar="N",
              help="Simulate N hands in each lead mode and solve the match again (default: show the shipped "
                   "table; where none is shipped, 4000).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the simulated deals.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the table (and its model) to FILE: as JSON, or in the compact form the tables ship in "
                   "if FILE ends in .mwc.")
@click.option("--score", callback=_score, default=None, metavar="A,B",
              help="Print the first side's MWC at this score, with each side to lead.")
@click.option("--bootstrap", type=click.IntRange(2, 1000), default=None, metavar="N",
              help="With --score: the standard error of the MWC there from the model's sampling (N replicates of "
                   "the model, each solved from that score; early scores take long).")
@click.option("--json", "as_json", is_flag=True, help="Print the model's summary as JSON.")
def equity(variant, rules, hands, seed, output, score, bootstrap, as_json):
    """The match-winning chance (MWC) table of a variant: the chance that the first side (seats 1
    and 3) wins the match from each score and leader.

    The hands to come follow the variant's hand-result model, measured from random deals played
    with best play with all hands open; the match is solved by dynamic programming over its
    states. Shipped tables (for the defaults) are shown; --hands N makes a new one (minutes).

    Exit status: 0 when done, 2 for a usage error (an unknown variant or option, or a variant the
    MWC does not cover)."""
    try:
        v = find_variant(variant, rules or None)
    except (UnknownVariant, DominoError) as exc:
        raise click.UsageError(str(exc)) from None
    why = supported(v)
    if why:
        raise click.UsageError(f"no MWC table: {why}")
    table = None if hands else load_table(v)
    if table is None:
        n = hands or 4000
        click.echo(f"simulating {n:,} hands in each lead mode of {v.name} "
                   f"{'(' + v.rules_text + ')' if v.rules_text else '(defaults)'} and solving the match...", err=True)
        table = compute_table(v, n, seed, progress=lambda text: click.echo(f"  {text}", err=True))
    data = table.as_dict()
    if output:
        folder = os.path.dirname(output)
        try:
            if folder:
                os.makedirs(folder, exist_ok=True)
            write_table(table, output)
        except OSError as exc:
            raise click.ClickException(f"{output}: {exc.strerror or exc}") from None
        click.echo(f"wrote {data['positions']:,} positions to {output} (the shipped name is "
                   f"{table_name(v)[:-len('.json')]}.mwc, its compact form)", err=True)
    summary = {k: data[k] for k in ("variant", "rules", "target", "kind", "hands_per_mode", "standard_error",
                                    "positions", "seconds") if k in data}
    summary["policy"] = table.model.policy
    if score is not None:
        state = MatchState(score, (0, 0), 1)
        summary["score"] = {"scores": list(score), "mwc_side0_leading": _at(table, state, 0),
                            "mwc_side1_leading": _at(table, state, 1)}
        if bootstrap:
            se = bootstrap_se(table, [MatchPosition(state, ("side", 0)), MatchPosition(state, ("side", 1))],
                              bootstrap, seed)
            summary["score"].update(se_side0_leading=round(se[0], 6), se_side1_leading=round(se[1], 6),
                                    replicates=bootstrap)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"{v.name} {'(' + v.rules_text + ')' if v.rules_text else '(defaults)'}: match to {v.match.target} "
               f"({v.match.kind}), {data['positions']:,} positions")
    click.echo(f"model: {table.model.policy}")
    for mode, e in summary["standard_error"].items():
        click.echo(f"  lead {mode}: {e['hands']:,} hands; leading side's hand value {e['mean']:+.2f} "
                   f"(se {e['mean_se']:.2f}); it wins the hand {e['p_win']:.1%} (se {e['p_win_se']:.1%})")
        if e.get("play_points"):
            mine, theirs = e["play_points"]
            click.echo(f"    points scored during play: leading side {mine['mean']:.2f} (se {mine['se']:.2f}), "
                       f"the other {theirs['mean']:.2f} (se {theirs['se']:.2f}); the hand value counts them and the "
                       f"award at the end")
    if score is not None:
        s = summary["score"]
        click.echo(f"MWC of the first side at {score[0]}-{score[1]}: {s['mwc_side0_leading']:.4f} when it leads, "
                   f"{s['mwc_side1_leading']:.4f} when the other side leads")
        if bootstrap:
            click.echo(f"  standard error from the model's sampling ({bootstrap} bootstrap replicates): "
                       f"{s['se_side0_leading']:.4f} and {s['se_side1_leading']:.4f}")


def _at(table, state: MatchState, side: int) -> float:
    v = table.variant
    if v.match.kind in (MatchKind.POINTS, MatchKind.BAD) and any(s >= v.match.target for s in state.scores):
        raise click.BadParameter(f"{state.scores[0]},{state.scores[1]} is a finished match (target "
                                 f"{v.match.target})", param_hint="--score")
    return round(table.chance(MatchPosition(state, ("side", side))), 6)
