"""``domino import``: a move log of another program (the Kozel video parser's JSON, a yard-dominoes share code,
a CSV move list) written as a record, then validated."""
from __future__ import annotations

import os
import sys
from typing import NamedTuple

import click

from .errors import clean_errors
from .options import force_option, variant_option
from ..diagnostics import Severity

__all__ = ["import_command"]

#: the formats (the library's ``analyzer.notation.imports.FORMATS``, named here so ``--help`` loads no importer)
FORMAT_NAMES = ("kozel-video", "yard", "csv")


@click.command("import")
@click.argument("format", metavar="FORMAT", type=click.Choice(FORMAT_NAMES))
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", metavar="OUT",
              help="The record file to write (default, or -: standard output); an existing file only with --force.")
@force_option
@variant_option
@clean_errors
def import_command(format, file, output, force, variant, rules):     # noqa: A002 (the argument's name, FORMAT)
    """Import the move log FILE of FORMAT as a record: kozel-video (the kozel-game-v1 JSON of the Kozel video
    parser), yard (yard-dominoes share codes, one a line) or csv (one row a move: player, tile, side). Hands the
    source does not give are written ? (the tiles a player plays shown, ? for the rest). The record is then
    validated: exit 0 when every game is valid, 1 when the log cannot be imported or a game is not valid.

    \b
    Example (a Kozel game's two rounds):
      domino import kozel-video records/import-kozel-video.json -o kozel.dom"""
    from ..notation import parse
    from ..notation.writer import write_parts
    from ..notation.imports import ImportSourceError, import_log
    from .output import check_variant, output_target

    fmt = format
    check_variant(variant, rules)
    to_file = output not in (None, "-")
    if to_file:
        if file != "-" and os.path.exists(file) and os.path.exists(output) and os.path.samefile(file, output):
            raise click.UsageError(f"-o {output} is the input {file}: the record would overwrite the move log it is "
                                   "made from; name another file")
        output_target(output, [], "-o", "record", force)
    text = _read(file)
    try:
        imported = import_log(fmt, text, file if file != "-" else "<stdin>", variant, rules)
    except ImportSourceError as exc:
        for diagnostic in exc.diagnostics:
            click.echo(str(diagnostic), err=True)
        click.echo(f"{file}: not imported ({len(exc.diagnostics)} problem{'s' * (len(exc.diagnostics) != 1)})",
                   err=True)
        sys.exit(1)
    parts = list(write_parts(imported.record))
    record_text = "\n".join(parts)                          # (what write(imported.record) gives)
    label = output if to_file else "<stdout>"
    with _Progress("checking the games") as progress:       # (each checked move by move: no search of the deals)
        checked = _each_checked(parts, label, imported, progress)
        if checked is None:
            checked = _checked(parse(record_text, label), imported, progress)
    _write(record_text, output if to_file else None)
    sys.exit(_said(checked, imported, file, fmt, label))


class _Checked(NamedTuple):
    """What the summary needs of a game checked: its errors, each with its place in the source (or None), whether
    it is valid, whether it hides tiles, and whether it was checked as a game of a match."""

    errors: list
    valid: bool
    hidden: bool
    match: bool


def _checked(record, imported, progress) -> list[_Checked]:
    """Each game of the imported ``record`` read back, checked move by move and kept as its :class:`_Checked` only
    (its replay let go at once: the memory does not grow with the replays of the games before). A match (games with
    Game tags) is replayed whole, as one; so is a record the reader found a problem in (each at its game)."""
    from ..match import replay_record
    from ..record import Record

    whole = record.errors or any(g.number is not None or "SeatDraw" in g.tags for g in record.games)
    out = []
    if whole:
        replays = replay_record(record, sheets=False, progress=progress)
        return [_summary(rep, places) for rep, places in zip(replays, imported.places)] + \
            [_summary(rep, ()) for rep in replays[len(imported.places):]]
    for k, (game, places) in enumerate(zip(record.games, imported.places), 1):
        (rep,) = replay_record(Record([game], source=record.source), match=False, sheets=False)
        out.append(_summary(rep, places))
        progress(k, len(record.games))
    return out


def _each_checked(parts: list[str], label: str, imported, progress) -> list[_Checked] | None:
    """Each game's text (``parts``, as :func:`write_parts` gives them) read back and checked on its own, its record
    and replay let go before the next (the memory does not grow with the games read back); None where the record
    must be read whole: a match (games with Game tags), a game's text that does not read back alone as one game
    without a problem, or a game that is not valid (its errors are then said at their lines in the whole record)."""
    from ..match import replay_record
    from ..notation import parse

    if any(g.number is not None or "SeatDraw" in g.tags or "Deal" in g.tags for g in imported.record.games):
        return None
    out = []
    for k, (part, places) in enumerate(zip(parts, imported.places), 1):
        record = parse(part, label)
        if len(record.games) != 1 or record.errors:
            return None
        (rep,) = replay_record(record, match=False, sheets=False)
        game = _summary(rep, places)
        if game.errors or not game.valid:
            return None         # (its errors said as the whole record's: their lines, and those their words name)
        out.append(game)
        progress(k, len(parts))
    return out if len(out) == len(parts) else None


def _summary(rep, places) -> _Checked:
    """The :class:`_Checked` of one replay; ``places`` the place in the source of each of its moves."""
    where = {(move.pos.line, move.pos.column): place for move, place in zip(rep.game.moves, places)}
    errors = [(d, where.get((d.line, d.column))) for d in rep.diagnostics if d.severity == Severity.ERROR]
    return _Checked(errors, rep.valid, any(rep.initial.hidden), getattr(rep, "match", None) is not None)


class _Progress:
    """A progress bar on standard error for a step told ``(done, total)``, shown once it has taken a second."""

    def __init__(self, label: str, after: float = 1.0):
        import time

        self.label, self.clock, self.start, self.after = label, time.monotonic, time.monotonic(), after
        self.bar, self.shown = None, 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if self.clock() - self.start < self.after:
                return
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.shown)
        self.shown = done

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)


def _read(file: str) -> str:
    """The text of ``file`` (``-``: standard input), UTF-8; a file that is not is a clean error."""
    from ..notation import MAX_RECORD_BYTES, too_large
    from ..notation.text import decode

    try:
        if file == "-":
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(file, "rb") as handle:
                data = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise click.ClickException(f"{file}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_RECORD_BYTES:
        raise click.ClickException(f"{file}: {too_large(None, MAX_RECORD_BYTES)}")
    text, problem = decode(data, file)
    if problem is not None:
        raise click.ClickException(f"{file}: {problem.message}")
    return text


def _write(text: str, output: str | None) -> None:
    from ..outputs import write_atomic

    if output is None:
        click.echo(text, nl=False)
    else:
        write_atomic(output, text, make_folder=True)


def _said(checked: list[_Checked], imported, file: str, fmt: str, label: str) -> int:
    """Each error of the imported record with its place in the source, and the summary line (standard error);
    the exit status."""
    for game in checked:
        for diagnostic, where in game.errors:
            click.echo(str(diagnostic) + (f"\n  in {file}: {where}" if where else ""), err=True)
    valid = sum(game.valid for game in checked)
    games, moves = len(imported.record.games), imported.moves
    for note in imported.notes:
        click.echo(f"note: {note}", err=True)
    if any(game.hidden for game in checked) and not any(game.match for game in checked):
        click.echo(f"note: each game is checked move by move; `domino validate {label}` also looks for the deals "
                   "of the tiles it hides (a sheet's check)", err=True)
    verdict = "every game valid" if valid == len(checked) else f"{valid} valid, {len(checked) - valid} invalid"
    click.echo(f"imported {games} game{'s' * (games != 1)}, {moves} move{'s' * (moves != 1)} from {file} ({fmt}) "
               f"into {label}: {verdict}", err=True)
    return 0 if valid == len(checked) else 1
