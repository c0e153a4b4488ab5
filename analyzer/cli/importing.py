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
from ..i18n import N_, gettext, ngettext, number, system_reason
from .language import TranslatedCommand

__all__ = ["import_command"]

#: the formats (the library's ``analyzer.notation.imports.FORMATS``, named here so ``--help`` loads no importer)
FORMAT_NAMES = ("kozel-video", "yard", "csv")


@click.command("import", cls=TranslatedCommand,
               epilog=N_("Exit status: 0 when every game is valid, 1 when the log cannot be imported or a game is not "
                         "valid, 2 for a usage error (a bad option, an output file not replaced)."))
@click.argument("format", metavar="FORMAT", type=click.Choice(FORMAT_NAMES))
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", metavar="OUT",
              help=N_("The record file to write (default, or -: standard output); an existing file only with --force."))
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
    from ..notation.imports import ImportSourceError, stream_log
    from .output import check_variant, output_target

    fmt = format
    check_variant(variant, rules)
    to_file = output not in (None, "-")
    if to_file:
        if file != "-" and os.path.exists(file) and os.path.exists(output) and os.path.samefile(file, output):
            raise click.UsageError(gettext("-o {output} is the input {file}: the record would overwrite the move log it "
                                           "is made from; name another file", output=output, file=file))
        output_target(output, [], "-o", "record", force)
    text = _read(file)
    source = file if file != "-" else "<stdin>"
    label = output if to_file else "<stdout>"
    stream = stream_log(fmt, text, source, variant, rules)     # (each game read, written and checked before the next)
    with _Progress(gettext("importing the games")) as progress:
        tally = _Tally()
        pieces = _streamed(stream, label, tally, progress, text.count("\n") + 1)
        try:
            _write(pieces, output if to_file else None)
        except ImportSourceError as exc:
            _refused(exc, file)
    sys.exit(_said(tally, file, fmt, label))


def _refused(exc, file: str):
    """The problems of a move log that cannot be imported, said; exit 1."""
    for diagnostic in exc.diagnostics:
        click.echo(str(diagnostic), err=True)
    click.echo(ngettext("{file}: not imported ({n} problem)", "{file}: not imported ({n} problems)",
                        len(exc.diagnostics), file=file), err=True)
    sys.exit(1)


def _streamed(stream, label: str, tally: _Tally, progress, lines: int):
    """The record's text, a game at a time (joined, they are ``write(record)``), of the games of an importer's
    ``stream``: each written, read back alone and checked move by move (told to ``tally``) before the next game
    is read; the games of a match (a Game tag on the first) checked as the match goes (:class:`_MatchChecked`).
    The stream's :class:`ImportSourceError` passes through (the file is then not written)."""
    from collections import deque

    from ..notation.writer import write_parts

    read = deque()          # (the games the writer has taken and not yet given back: one ahead at most)

    def games():
        while True:
            try:
                got = next(stream)
            except StopIteration as end:
                tally.notes = tuple(end.value)
                return
            read.append(got)
            tally.games += 1
            tally.moves += len(got.game.moves)
            yield got.game

    line = 1
    match = None
    for k, part in enumerate(write_parts(games())):
        got = read.popleft()
        if k == 0 and (got.game.number is not None or "SeatDraw" in got.game.tags):
            match = _MatchChecked(label)
        for checked in match(part, line, got.places) if match else [_part_checked(part, line, label, got.places)]:
            tally.add(checked)
        progress(got.line, lines)
        line += part.count("\n") + 1
        yield part if k == 0 else "\n" + part


def _shifted(errors, line: int) -> list:
    """``errors`` of a game's text read alone (each a diagnostic and its place in the source, or None), at their
    lines in the whole record (the game's text from ``line``)."""
    from dataclasses import replace

    return [(replace(d, line=d.line + line - 1) if d.line else d, where) for d, where in errors]


def _moved(game, line: int):
    """``game`` read from its text alone, every place in it moved to its line in the whole record (the game's text
    from ``line``): what the checks say of it (and the lines their words name) is then at the record's lines."""
    from dataclasses import replace

    from ..record import Span

    def at(span):
        return Span(span.line + line - 1, span.column) if span.line else span

    def each(spans):
        return tuple(at(s) for s in spans)

    return replace(game, pos=at(game.pos), remark_pos=at(game.remark_pos), table_pos=at(game.table_pos),
                   tag_pos={tag: at(span) for tag, span in game.tag_pos.items()},
                   comment_pos=each(game.comment_pos),
                   hands=tuple(replace(h, pos=at(h.pos), tile_pos=each(h.tile_pos)) for h in game.hands),
                   moves=[replace(m, pos=at(m.pos), comment_pos=at(m.comment_pos)) for m in game.moves])


class _MatchChecked:
    """The games of a match, each read back alone and checked as the match goes (:func:`~analyzer.match.stream_match`:
    who leads each game and the running score), the match keeping its last game only: what
    ``replay_record`` checks of the whole record, the memory that of one game."""

    def __init__(self, label: str):
        from collections import deque

        from ..match import stream_match

        self.label, self.games = label, deque()

        def fed():              # (each game as it is read back: the match's next game is never asked before)
            while self.games:
                yield self.games.popleft()
        self.replays = stream_match(fed(), source=label, keep=False)

    def __call__(self, part: str, line: int, places) -> list[_Checked]:
        from ..notation import parse

        record = parse(part, self.label)
        out = [_Checked(_shifted([(d, None) for d in record.errors], line), False, False, True)] if record.errors else []
        for k, game in enumerate(record.games):
            self.games.append(_moved(game, line))
            rep, _report = next(self.replays)
            out.append(_summary(rep, places if k == 0 else ()))
        return out


def _part_checked(part: str, line: int, label: str, places) -> _Checked:
    """One game's text (starting at ``line`` of the record) read back alone and checked move by move, its
    errors at their lines in the whole record."""
    from ..match import replay_record
    from ..notation import parse
    from ..record import Record

    record = parse(part, label)
    games = [_moved(game, line) for game in record.games]
    if len(games) == 1 and not record.errors:
        (rep,) = replay_record(Record(games, source=label), match=False, sheets=False)
        return _summary(rep, places)
    replays = replay_record(Record(games, source=label), match=False, sheets=False)     # (not one game alone)
    errors = _shifted([(d, None) for d in record.errors], line) + \
        [(d, None) for rep in replays for d in rep.diagnostics if d.severity == Severity.ERROR]
    return _Checked(errors, False, any(any(rep.initial.hidden) for rep in replays), False)


class _Tally:
    """What the summary needs of the games checked: their count and moves, the errors of those that have any,
    how many are valid, whether any hides tiles or was checked as a game of a match; the importer's notes."""

    def __init__(self, games: int = 0, moves: int = 0, notes: tuple[str, ...] = ()):
        self.games, self.moves, self.notes = games, moves, notes
        self.checked = self.valid = 0
        self.errors: list = []
        self.hidden = self.match = False

    def add(self, game: _Checked) -> None:
        self.checked += 1
        self.valid += game.valid
        self.errors += game.errors
        self.hidden |= game.hidden
        self.match |= game.match


class _Checked(NamedTuple):
    """What the summary needs of a game checked: its errors, each with its place in the source (or None), whether
    it is valid, whether it hides tiles, and whether it was checked as a game of a match."""

    errors: list
    valid: bool
    hidden: bool
    match: bool


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
        raise click.ClickException(gettext("{path}: cannot be read ({why})", path=file,
                                           why=system_reason(exc))) from None
    if len(data) > MAX_RECORD_BYTES:
        raise click.ClickException(f"{file}: {too_large(None, MAX_RECORD_BYTES)}")
    text, problem = decode(data, file)
    if problem is not None:
        raise click.ClickException(f"{file}: {problem.message}")
    return text


def _write(text, output: str | None) -> None:
    """The record's ``text`` (or its pieces as they come) to ``output`` atomically, or to standard output."""
    from ..outputs import write_atomic

    if output is None:
        for piece in [text] if isinstance(text, str) else text:
            click.echo(piece, nl=False)
    else:
        write_atomic(output, text, make_folder=True)


def _said(tally: _Tally, file: str, fmt: str, label: str) -> int:
    """Each error of the imported record with its place in the source, and the summary line (standard error);
    the exit status."""
    for diagnostic, where in tally.errors:
        click.echo(str(diagnostic) + ("\n  " + gettext("in {file}: {where}", file=file, where=where) if where else ""),
                   err=True)
    games, moves, checked, valid = tally.games, tally.moves, tally.checked, tally.valid
    for note in tally.notes:
        click.echo(gettext("note: {note}", note=note), err=True)
    if tally.hidden and not tally.match:
        click.echo(gettext("note: each game is checked move by move; {command} also looks for the deals of the "
                           "tiles it hides (a sheet's check)", command=f"`domino validate {label}`"), err=True)
    verdict = (gettext("every game valid") if valid == checked else
               gettext("{valid} valid, {invalid} invalid", valid=number(valid), invalid=number(checked - valid)))
    click.echo(gettext("imported {games}, {moves} from {file} ({format}) into {label}: {verdict}",
                       games=ngettext("{n} game", "{n} games", games), moves=ngettext("{n} move", "{n} moves", moves),
                       file=file, format=fmt, label=label, verdict=verdict), err=True)
    return 0 if valid == checked else 1
