"""``domino equity``: a variant's match-winning-chance table (``analyzer.equity``)."""
from __future__ import annotations

import json
import os
import sys

import click

from ..diagnostics import DominoError
from ..equity import MatchPosition, compute_table, load_table, supported, table_name
from ..equity import bootstrap as bootstrap_se
from ..rules import MatchState, UnknownVariant, find_variant

__all__ = ["equity"]


def _rules(_ctx, _param, pairs) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(f"write KEY=VALUE, not {pair!r}", param_hint="--rule")
        out[key.strip()] = value.strip()
    return out


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
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", callback=_rules,
              help="A rule option, e.g. target=150 (repeatable).")
@click.option("--hands", type=click.IntRange(50, 1_000_000), default=None, metavar="N",
              help="Simulate N hands in each lead mode and solve the match again (default: show the shipped "
                   "table; where none is shipped, 4000).")
@click.option("--seed", type=int, default=0, show_default=True, metavar="N", help="Seed of the simulated deals.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the table (and its model) as JSON to FILE.")
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
            with open(output, "w", encoding="utf-8") as fh:
                json.dump(data, fh, separators=(",", ":"))
                fh.write("\n")
        except OSError as exc:
            raise click.ClickException(f"{output}: {exc.strerror or exc}") from None
        click.echo(f"wrote {data['positions']:,} positions to {output} (the shipped name is {table_name(v)})",
                   err=True)
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
    if score is not None:
        s = summary["score"]
        click.echo(f"MWC of the first side at {score[0]}-{score[1]}: {s['mwc_side0_leading']:.4f} when it leads, "
                   f"{s['mwc_side1_leading']:.4f} when the other side leads")
        if bootstrap:
            click.echo(f"  standard error from the model's sampling ({bootstrap} bootstrap replicates): "
                       f"{s['se_side0_leading']:.4f} and {s['se_side1_leading']:.4f}")


def _at(table, state: MatchState, side: int) -> float:
    v = table.variant
    if v.match.kind in ("points", "bad") and any(s >= v.match.target for s in state.scores):
        raise click.BadParameter(f"{state.scores[0]},{state.scores[1]} is a finished match (target "
                                 f"{v.match.target})", param_hint="--score")
    return round(table.chance(MatchPosition(state, ("side", side))), 6)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(equity())


# -- analyze --scale match ------------------------------------------------------------------------
def scale_option(f):
    """``--scale points|match`` of ``analyze``."""
    return click.option("--scale", type=click.Choice(["points", "match"]), default="points", show_default=True,
                        help="match: also grade every move by its drop in match-winning chance (MWC), from the "
                             "match position the record gives (the games before it, a Score tag); --json adds "
                             "\"mwc\" to each alternative and \"mwc_loss\" to each decision.")(f)


def match_scales(result: dict, sources, options) -> list:
    """Grade each analysed game of one record's ``result`` on the match scale, adding the MWC fields to
    its analysis data in place; the ``MatchScale`` of each game (None where nothing was analysed)."""
    from ..analysis import GameAnalysis
    from ..analysis.luck import deal_luck
    from ..analysis.match_scale import match_positions, match_scale
    from ..match import replay_record
    from ..notation import parse
    from ..notation.text import decode

    source = next((s for s in sources if s.label == result["source"]), None)
    if source is None or result["error"] or not result["games"]:
        return []
    text, problem = decode(source.read().data, source.label)
    if problem is not None:
        return []
    replays = replay_record(parse(text, source.label), options.variant, rules=dict(options.rules),
                            insert_passes=options.insert_passes)
    out = []
    for game, rep, (position, leader, note) in zip(result["games"], replays, match_positions(replays)):
        if game["analysis"] is None:
            out.append(None)
            continue
        analysis = GameAnalysis.from_dict(game["analysis"])
        scale = match_scale(analysis, rep.variant, position, leader, note=note)
        if leader is not None:
            first = bool(getattr(rep, "match", None) and rep.match.number == 1)
            scale.luck = deal_luck(analysis, rep.variant, leader, first, position if scale.known else None)
        scale.annotate(game["analysis"])
        out.append(scale)
    return out + [None] * (len(result["games"]) - len(out))


def print_match_scale(scale, analysis) -> None:
    """The match scale of one game, after its analysis (text output)."""
    if scale is None:
        return
    first = analysis.sides[0] if analysis.sides else "the first side"
    if scale.luck is not None:
        luck = scale.luck
        click.echo(f"Luck of the deal for {first}: {float(luck.points):+.1f} points (value at the lead {luck.value:+d}, "
                   f"the mean {float(luck.mean):+.1f})" + (f", {luck.mwc:+.1%} MWC" if luck.mwc is not None else ""))
    if not scale.known:
        click.echo(f"Match scale: {scale.note}")
        click.echo()
        return
    p = scale.position
    click.echo(f"Match scale ({scale.note}): score {'-'.join(map(str, p.state.scores))}, "
               f"MWC of {first} before the hand {scale.before:.1%}")
    for d, loss, cls in zip(analysis.decisions, scale.loss, scale.cls):
        if loss:
            click.echo(f"  {d.player} {d.played} (line {d.line}): MWC loss {loss:.2%}" + (f"  {cls.upper()}" if cls else ""))
    if scale.critical is None:
        click.echo("  No move lost match-winning chance.")
    else:
        c = analysis.decisions[scale.critical]
        click.echo(f"  Critical move on the match scale: {c.player} {c.played} (line {c.line}): loses "
                   f"{scale.loss[scale.critical]:.2%} MWC")
    click.echo()
