"""``domino serve`` (the analysis board in the browser) and ``domino diagram`` (a position as SVG).

The web framework is imported only when ``serve`` runs: the rest of the command line never needs it."""
from __future__ import annotations

import click


def register(main: click.Group, variant_option, check_variant, clean_errors) -> None:
    """Add the board's commands to the ``domino`` group, with the group's own parts: ``variant_option``
    (``--variant``/``--rule``), ``check_variant(variant, rules)`` (the usage error of a variant or rule no
    record could be read under) and ``clean_errors`` (the library's errors as messages, never a traceback)."""
    serve.callback = clean_errors(serve.callback)
    main.add_command(serve)
    main.add_command(_diagram_command(variant_option, check_variant, clean_errors))


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 opens the board, and the files, to the network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port to listen on.")
def serve(paths, host, port):
    """Open the analysis board: the record's text beside the board, live validation, moves entered by
    clicking, analysis at any position, saving back to the file.

    The board reads and writes only the files PATHS name and the record files under the folders they
    name (default: the current folder)."""
    try:
        from ..server import serve as run
        from ..server.files import FileRefused
    except ImportError as exc:
        raise click.ClickException(f"the board needs Starlette and uvicorn: pip install 'domino-analyzer[board]' "
                                   f"({exc})") from None
    click.echo(f"the board: http://{host if ':' not in host else f'[{host}]'}:{port}/  (Ctrl-C stops it)", err=True)
    try:
        run(list(paths), host, port)
    except FileRefused as exc:
        raise click.ClickException(str(exc)) from None


def _diagram_command(variant_option, check_variant, clean_errors) -> click.Command:
    options = [
        click.argument("file", type=click.Path(exists=True, dir_okay=False)),
        click.option("--game", type=click.IntRange(min=1), default=1, show_default=True, metavar="N",
                     help="The game of the record."),
        click.option("--move", "move", type=click.IntRange(min=0), default=None, metavar="K",
                     help="The position after K moves (0: the deal; default: after the last move)."),
        click.option("--hands", default="all", show_default=True, metavar="all|none|SEAT",
                     help="Show every hand, none (face down), or one player's (the others face down)."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), required=True, metavar="OUT",
                     help="The SVG file to write."),
        variant_option,
    ]
    def command(**kwargs):
        check_variant(kwargs["variant"], kwargs["rules"])
        return diagram(**kwargs)
    command.__doc__ = diagram.__doc__
    command = clean_errors(command)
    for option in reversed(options):
        command = option(command)
    return click.command(name="diagram")(command)


def diagram(file, game, move, hands, output, variant, rules):
    """Write the position after move K of game N of FILE as a standalone SVG: the line of play or the
    layout with its arms, the hands shown or face down, the last move marked."""
    from ..match import replay_record
    from ..notation import parse
    from ..report.diagram import game_diagram
    from ..rules import UnknownVariant
    from .validation import folder_for

    try:
        with open(file, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    try:
        replays = replay_record(parse(text, file), variant, rules=rules)
    except (UnknownVariant, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if not replays:
        raise click.ClickException(f"{file} holds no game")
    if game > len(replays):
        raise click.BadParameter(f"{file} holds {len(replays)} game{'s' * (len(replays) != 1)}", param_hint="--game")
    rep = replays[game - 1]
    steps = len(rep.steps)
    if move is not None and move > steps:
        raise click.BadParameter(f"game {game} has {steps} moves", param_hint="--move")
    try:
        svg = game_diagram(rep, steps if move is None else move, hands)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--hands") from None
    folder_for(output)
    with open(output, "w", encoding="utf-8") as fh:
        fh.write(svg)
    if move is not None and rep.legal_prefix < move:
        click.echo(f"note: the record breaks the rules at move {rep.legal_prefix + 1}: the diagram shows the "
                   "position before it", err=True)
    click.echo(f"wrote {output}", err=True)
