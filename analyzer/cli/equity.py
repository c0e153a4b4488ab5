"""``domino equity``: a variant's match-winning-chance table (``analyzer.equity``)."""
from __future__ import annotations

import json
import re

import click

from ..diagnostics import DominoError
from ..rules import MatchState, UnknownVariant, find_variant
from ..rules.modes import MatchKind
from .options import SEED, Renamed, force_option, rule_pairs
from ..i18n import N_, decimal, gettext, ngettext, number
from .language import TranslatedCommand

__all__ = ["equity"]


def _score(_ctx, _param, text):
    if text is None:
        return None
    try:
        scores = tuple(int(x) for x in text.split(","))
    except ValueError:
        scores = ()
    if len(scores) < 2:
        raise click.BadParameter(gettext("write the sides' scores as A,B (e.g. 60,35; individual players A,B,C...), "
                                         "not {text}", text=repr(text))) from None
    if min(scores) < 0:
        raise click.BadParameter(gettext("scores are not negative: {text}", text=repr(text)))
    return scores


@click.command(cls=TranslatedCommand)
@click.option("--variant", "variant", metavar="NAME", default="partnership", show_default=True,
              help=N_("Rules variant (see `domino variants`)."))
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", callback=rule_pairs,
              help=N_("A rule option, e.g. target=150 (repeatable)."))
@click.option("--simulate", "hands", cls=Renamed, retired="--hands", type=click.IntRange(50, 1_000_000), default=None,
              metavar="N",
              help=N_("Simulate N hands in each lead mode and solve the match again (default: show the shipped "
                      "table; where none is shipped, 4000)."))
@click.option("--seed", type=SEED, default=0, show_default=True, metavar="N", help=N_("Seed of the simulated deals."))
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help=N_("Write the table (and its model) to FILE: as JSON, or in the compact form the tables ship in "
                      "if FILE ends in .mwc (an existing FILE only when it is an MWC table, or with --force)."))
@force_option
@click.option("--score", callback=_score, default=None, metavar="A,B",
              help=N_("Print the first side's MWC at this score, with each side to lead."))
@click.option("--bootstrap", type=click.IntRange(2, 1000), default=None, metavar="N",
              help=N_("With --score: the standard error of the MWC there from the model's sampling (N replicates of "
                      "the model, each solved from that score; early scores take long)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the model's summary as JSON."))
@click.option("--yes", is_flag=True,
              help=N_("Where no table is shipped, make one (4000 hands a lead mode: minutes) without asking first."))
def equity(variant, rules, hands, seed, output, force, score, bootstrap, as_json, yes):
    """The match-winning chance (MWC) table of a variant: the chance that the first side (seats 1
    and 3) wins the match from each score and leader.

    The hands to come follow the variant's hand-result model, measured from random deals played
    with best play with all hands open; the match is solved by dynamic programming over its
    states. Shipped tables (for the defaults) are shown; --simulate N makes a new one (minutes). Where
    none is shipped, the command says how long making one would take and stops: --yes makes it.

    Exit status: 0 when done, 1 when the table's file cannot be read (one of $DOMINO_TABLES, or a
    damaged one), 2 for a usage error (an unknown variant or option, or one the MWC does not cover).

    \b
    Example (the partnership game's chance to win the match at 50-80):
      domino equity --variant partnership --score 50,80"""
    from ..analysis import AgainstTheRest       # (the tables and the searches: loaded when the command runs)
    from ..equity import (SOLVED_ON_LOAD, MatchPosition, compute_table, load_table, simulation_seconds, supported,
                          table_name, table_problem, write_table)
    from ..equity import bootstrap as bootstrap_se
    from ..equity.model import HandPlayers

    try:
        v = find_variant(variant, rules or None)
    except (UnknownVariant, DominoError) as exc:
        raise click.UsageError(str(exc)) from None
    why = supported(v)
    if why:
        raise click.UsageError(gettext("no MWC table: {why}", why=why))
    if output is not None:              # (before the simulation: minutes)
        from .output import output_target
        output_target(output, [], "-o", "table", force)
    table = None if hands else load_table(v)
    if table is None and not hands and table_problem(v):
        raise click.ClickException(gettext("{problem} (--simulate N makes a new one)", problem=table_problem(v)))
    named = f"{v.name} " + (f"({v.rules_text})" if v.rules_text else gettext("(defaults)"))
    if table is None:
        n = hands or 4000
        took = simulation_seconds(v, n, seed, view=AgainstTheRest)
        if not hands and not yes:
            raise click.UsageError(ngettext(
                "no table is shipped for {variant}: making one simulates {n} hand in each lead mode and solves the "
                "match: about {time} of CPU on this machine (more to solve the match, and longer while the machine is "
                "busy); add --yes to make it (Ctrl-C stops it; -o FILE keeps it for later runs: see $DOMINO_TABLES), "
                "or --simulate N for a rougher one sooner",
                "no table is shipped for {variant}: making one simulates {n} hands in each lead mode and solves the "
                "match: about {time} of CPU on this machine (more to solve the match, and longer while the machine is "
                "busy); add --yes to make it (Ctrl-C stops it; -o FILE keeps it for later runs: see $DOMINO_TABLES), "
                "or --simulate N for a rougher one sooner", n, variant=named, time=_duration(took)))
        click.echo(ngettext("simulating {n} hand in each lead mode of {variant} and solving the match: about {time} of "
                            "CPU (Ctrl-C stops it)...", "simulating {n} hands in each lead mode of {variant} and solving "
                            "the match: about {time} of CPU (Ctrl-C stops it)...", n, variant=named,
                            time=_duration(took)), err=True)
        table = compute_table(v, n, seed, HandPlayers(view=AgainstTheRest),
                              progress=lambda text: click.echo(f"  {text}", err=True))
    data = table.as_dict()
    if output:
        try:
            write_table(table, output)
        except OSError as exc:      # (an OutputError: its text names the file)
            raise click.ClickException(str(exc)) from None
        shipped = gettext("the shipped name is {name}, its compact form", name=table_name(v)[:-len('.json')] + ".mwc")
        if data.get("values") == SOLVED_ON_LOAD:
            click.echo(ngettext("wrote the table's model to {path} (its {n} position is solved when it is loaded; "
                                "{shipped})", "wrote the table's model to {path} (its {n} positions are solved when "
                                "it is loaded; {shipped})", data['positions'], path=output, shipped=shipped), err=True)
        else:
            click.echo(ngettext("wrote {n} position to {path} ({shipped})", "wrote {n} positions to {path} ({shipped})",
                                data['positions'], path=output, shipped=shipped), err=True)
    summary = {k: data[k] for k in ("variant", "rules", "target", "kind", "hands_per_mode", "standard_error",
                                    "positions", "seconds") if k in data}
    summary["policy"] = table.model.policy
    if score is not None and len(score) != v.seating.sides:
        raise click.BadParameter(ngettext("{variant} has {n} sides: give {n} scores, not {given}",
                                          "{variant} has {n} sides: give {n} scores, not {given}", v.seating.sides,
                                          variant=v.name, given=len(score)), param_hint="--score")
    if score is not None and table.individual:
        _individual(v, table, score, (bootstrap, seed), as_json, summary, data)
        return
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
    _describe(v, table, summary, data)
    if score is not None:
        s = summary["score"]
        click.echo(gettext("MWC of the first side at {score}: {leads} when it leads, {other} when the other side "
                           "leads", score=f"{score[0]}-{score[1]}", leads=decimal(s['mwc_side0_leading'], 4),
                           other=decimal(s['mwc_side1_leading'], 4)))
        if bootstrap:
            click.echo("  " + gettext("standard error from the model's sampling ({n} bootstrap replicates): {first} "
                                      "and {second}", n=number(bootstrap), first=decimal(s['se_side0_leading'], 4),
                                      second=decimal(s['se_side1_leading'], 4)))


def policy_words(policy: str) -> str:
    """A hand model's policy (a table's ``policy``: English, as the table keeps it) in the active language: the
    policies this version states (``equity.model``'s, ``equity.boneyard``'s, the fair play's); another (a table of
    an older version) as it is written."""
    from ..analysis.fairplay import FAIR_POLICY
    from ..equity import boneyard, model

    if policy in (model.POLICY, model.POLICY_EACH, boneyard.POLICY, boneyard.POLICY_EACH):
        return gettext(policy)
    found = re.fullmatch(re.escape(FAIR_POLICY).replace(re.escape("{n}"), r"(\d+)"), policy)
    return gettext(FAIR_POLICY, n=number(int(found.group(1)))) if found else policy


def _duration(seconds: float) -> str:
    """A time said as a person would: seconds to a minute, then minutes, then hours."""
    if seconds < 90:
        return gettext("{n} s", n=number(max(1, round(seconds))))
    if seconds < 5400:
        return ngettext("{n} minute", "{n} minutes", round(seconds / 60))
    return gettext("{n} hours", n=decimal(seconds / 3600, 1))


def _individual(v, table, score: tuple, resample: tuple, as_json: bool, summary: dict, data: dict) -> None:
    """--score for individual players: each player's MWC at the score, with each player to lead (and with
    --bootstrap the standard error of the first player's)."""
    from ..equity import MatchPosition
    from ..equity import bootstrap as bootstrap_se

    target = v.match.target
    if v.match.kind == MatchKind.CUTTHROAT and (all(score) or (max(score) >= target and 0 in score)):
        raise click.BadParameter(gettext("{score} is no running score of a match to {target} while someone has 0",
                                         score=','.join(map(str, score)), target=target), param_hint="--score")
    # each player to lead as the winner of the last game that was won (what decides the lead after a drawn one)
    positions = [MatchPosition(MatchState(score, (0,) * len(score), 1, last=s), ("side", s)) for s in range(len(score))]
    summary["score"] = {"scores": list(score), "mwc_each_leading": [[round(p, 6) for p in table.chances(at)]
                                                                    for at in positions]}
    replicates, seed = resample
    if replicates:
        summary["score"].update(se_first_each_leading=[round(x, 6) for x in bootstrap_se(table, positions, replicates,
                                                                                          seed)], replicates=replicates)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    _describe(v, table, summary, data)
    click.echo(gettext("MWC of each player (in seat order) at {score}:", score=','.join(map(str, score))))
    for s, row in enumerate(summary["score"]["mwc_each_leading"]):
        click.echo("  " + gettext("player {number} to lead:", number=s + 1) + " "
                   + "  ".join(decimal(p, 4) for p in row))
    if replicates:
        click.echo("  " + gettext("standard error of the first player's from the model's sampling ({n} bootstrap "
                                  "replicates):", n=number(replicates)) + " "
                   + ", ".join(decimal(x, 4) for x in summary["score"]["se_first_each_leading"]))


def _at(table, state: MatchState, side: int) -> float:
    from ..equity import MatchPosition

    v = table.variant
    if v.match.kind in (MatchKind.POINTS, MatchKind.BAD) and any(s >= v.match.target for s in state.scores):
        raise click.BadParameter(gettext("{score} is a finished match (target {target})",
                                         score=f"{state.scores[0]},{state.scores[1]}", target=v.match.target),
                                 param_hint="--score")
    return round(table.chance(MatchPosition(state, ("side", side))), 6)


def _describe(v, table, summary: dict, data: dict) -> None:
    from ..render.text import signed_decimal

    rules = f"({v.rules_text})" if v.rules_text else gettext("(defaults)")
    click.echo(ngettext("{variant} {rules}: match to {target} ({kind}), {n} position",
                        "{variant} {rules}: match to {target} ({kind}), {n} positions", data['positions'],
                        variant=v.name, rules=rules, target=v.match.target, kind=v.match.kind))
    click.echo(gettext("model: {policy}", policy=policy_words(table.model.policy)))
    for mode, e in summary["standard_error"].items():
        params = {"mode": mode, "hands": ngettext("{n} hand", "{n} hands", e['hands']),
                  "value": signed_decimal(e['mean']), "se": decimal(e['mean_se']),
                  "win": decimal(100 * e['p_win'], 1), "win_se": decimal(100 * e['p_win_se'], 1)}
        click.echo("  " + (gettext("lead {mode}: {hands}; leading player's hand value {value} (se {se}); it wins the "
                                   "hand {win}% (se {win_se}%)", **params) if table.individual else
                           gettext("lead {mode}: {hands}; leading side's hand value {value} (se {se}); it wins the "
                                   "hand {win}% (se {win_se}%)", **params)))
        if e.get("play_points"):
            mine, theirs = e["play_points"]
            params = {"mine": decimal(mine['mean']), "mine_se": decimal(mine['se']), "theirs": decimal(theirs['mean']),
                      "theirs_se": decimal(theirs['se'])}
            click.echo("    " + (gettext("points scored during play: leading player {mine} (se {mine_se}), the others "
                                         "together {theirs} (se {theirs_se}); the hand value counts them and the award "
                                         "at the end", **params) if table.individual else
                                 gettext("points scored during play: leading side {mine} (se {mine_se}), the other "
                                         "{theirs} (se {theirs_se}); the hand value counts them and the award at the "
                                         "end", **params)))
