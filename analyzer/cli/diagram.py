"""``domino diagram``: a position of a record as a standalone SVG, for book authors."""
from __future__ import annotations

import click

from .errors import clean_errors
from .options import COUNT, Renamed, force_option, variant_option
from ..i18n import N_, gettext, ngettext
from .language import TranslatedCommand

__all__ = ["diagram"]


@click.command(cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when the diagram is written, 1 when the record cannot be read, holds no game or "
                         "the file cannot be written, 2 for a usage error (a bad option, a game or move the record does "
                         "not have, an output file not replaced)."))
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", type=click.IntRange(1, COUNT), default=1, show_default=True, metavar="N",
              help=N_("The game of the record."))
@click.option("--move", "move", type=click.IntRange(0, COUNT), default=None, metavar="K",
              help=N_("The position after K moves (0: the deal; default: after the last move)."))
@click.option("--face-up", "hands", cls=Renamed, retired="--hands", default="all", show_default=True,
              metavar="all|none|SEAT",
              help=N_("Show every hand, none (face down), or one player's (the others face down)."))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), required=True, metavar="OUT",
              help=N_("The SVG file to write (an existing file only when it is a diagram domino drew, or with --force)."))
@force_option
@variant_option
@clean_errors
def diagram(file, game, move, hands, output, force, variant, rules):
    """Write the position after move K of game N of FILE as a standalone SVG: the line of play or the
    layout with its arms, the hands shown or face down, the last move marked.

    \b
    Example (the position after 16 moves of the book deal):
      domino diagram records/seed2.dom --move 16 -o position.svg"""
    from ..archive.inputs import decode
    from ..match import replay_record
    from ..notation import parse
    from ..outputs import write_atomic
    from ..render.diagram import game_diagram
    from ..rules import UnknownVariant
    from .output import check_variant, output_target, sources

    check_variant(variant, rules)
    (source,) = sources([file])
    output_target(output, [source], "--output", "diagram", force)
    source = source.read()              # (as every record is read: with the size cap, a text's encoding checked)
    text, problem = decode(source.data, file) if source.readable else (None, source.error)
    if problem is not None:
        raise click.ClickException(f"{file}: {problem.message}")
    try:
        replays = replay_record(parse(text, file), variant, rules=rules)
    except (UnknownVariant, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if not replays:
        raise click.ClickException(gettext("{file} holds no game", file=file))
    if game > len(replays):
        raise click.BadParameter(ngettext("{file} holds {n} game", "{file} holds {n} games", len(replays), file=file),
                                 param_hint="--game")
    rep = replays[game - 1]
    steps = len(rep.steps)
    if move is not None and move > steps:
        raise click.BadParameter(ngettext("game {game} has {n} move", "game {game} has {n} moves", steps, game=game),
                                 param_hint="--move")
    try:
        svg = game_diagram(rep, steps if move is None else move, hands)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--face-up") from None
    write_atomic(output, svg, make_folder=True)
    if move is not None and rep.legal_prefix < move:
        click.echo(gettext("note: the record breaks the rules at move {move}: the diagram shows the position before "
                           "it", move=rep.legal_prefix + 1), err=True)
    click.echo(gettext("wrote {path}", path=output), err=True)
