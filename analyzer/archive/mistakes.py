"""The biggest mistakes across an archive (``domino stats PATH... --mistakes N``): every graded move of every record
(a class given: an inaccuracy, a mistake or a blunder, with every hand open), the largest loss first, a page of
them at a time (``skip`` the ones before: the next page starts where this one ended), each with its place.

A move's **loss** is the analysis's own (``Decision.loss``: the points the move played gave up against the best,
every hand open; on a sheet without hands its mean over the deals the sheet allows, ``archive.stats.open_loss``),
its grade the class the analysis gave it. Moves of equal loss keep the archive's order (record, game, move). The
**place** is the move's ``FILE:LINE:COLUMN`` in its record; the move is named as everywhere people read it,
``move N``: the N-th move of its game (its JSON ``index`` is N - 1). The **link** is the site's and the board's
link to a move (``analyzer.notation.link``: ``#r=`` the record, ``&m=gG.I`` game G after I moves, the position the
player faced), put after the site's address where one is given (``domino site``); None for a record read from
standard input or one too large for a link.

Nothing here prints; the rows are read off the runner's results (analysed: ``analyze`` mode)."""
from __future__ import annotations

from dataclasses import dataclass

from ..analysis.grades import grade_word
from ..i18n import decimal, gettext, number
from .stats import open_loss, player_key

__all__ = ["Mistake", "Mistakes", "biggest_mistakes", "mistakes_table"]


@dataclass(frozen=True)
class Mistake:
    """One graded move: ``rank`` its place in the archive's order by loss (1: the largest); ``source`` its record,
    ``line`` and ``column`` the move's place there (None where the record does not give it), ``game`` the game's
    number in the record (from 1) and ``title``; ``move`` its number in the game (from 1; ``index`` = move - 1,
    as the JSON of ``analyze``); the ``player``, the move ``played`` and the ``best`` (the first best where several
    are), the ``loss`` in points and its ``grade``; ``reason`` the first reason the analysis gives (its sentence) and
    ``reason_code`` its code, None where it gives none; ``link`` the link that opens the position (see the
    module)."""

    rank: int
    source: str
    line: int | None
    column: int | None
    game: int
    title: str
    move: int
    index: int
    player: str
    played: str
    best: str | None
    loss: float
    grade: str
    reason: str | None
    reason_code: str | None
    link: str | None

    @property
    def place(self) -> str:
        """``FILE:LINE:COLUMN`` (as much of it as is known)."""
        return ":".join(str(x) for x in (self.source, self.line, self.column) if x is not None)


@dataclass(frozen=True)
class Mistakes:
    """A page of the biggest mistakes: ``total`` graded moves in all (of ``player``, None: everyone's), ``skip``
    of them before this page, the ``mistakes`` shown, and ``next``: the ``skip`` of the next page (None: this is
    the last)."""

    player: str | None
    total: int
    skip: int
    mistakes: tuple[Mistake, ...]
    next: int | None

    def __post_init__(self):
        object.__setattr__(self, "mistakes", tuple(self.mistakes))


def _best(d: dict) -> str | None:
    return next((a["move"] for a in d.get("alternatives") or () if a.get("best")), None)


def _graded(results) -> list[tuple[float, int, dict, int, dict, dict]]:
    """Every graded move with an open-hands loss: (loss, its order in the archive, result, game number, game,
    decision)."""
    out = []
    for result in results:
        for number, game in enumerate(result.get("games") or (), 1):
            for d in (game.get("analysis") or {}).get("decisions", ()):
                loss = open_loss(d)
                if d.get("class") is not None and loss is not None:
                    out.append((float(loss), len(out), result, number, game, d))
    return out


def _linker(base: str):
    """A function giving a move's link (see the module): each record read once, when its first link is asked."""
    from ..notation.link import MAX_RECORD, make_fragment
    from .inputs import decode

    texts: dict[str, str | None] = {}

    def link(source: str, game: int, index: int) -> str | None:
        if source not in texts:
            texts[source] = None
            try:
                with open(source, "rb") as fh:
                    data = fh.read(MAX_RECORD + 1)
            except OSError:             # (standard input, or a file gone since it was read: no link)
                data = None
            if data is not None and len(data) <= MAX_RECORD:
                text, problem = decode(data, source)
                texts[source] = text if problem is None else None
        text = texts[source]
        return None if text is None else base + make_fragment(text, game, index)
    return link


def biggest_mistakes(results, most: int, skip: int = 0, player: str | None = None, base: str = "") -> Mistakes:
    """The ``most`` largest losses of the graded moves in ``results`` (the runner's, analysed) after the ``skip``
    largest, of ``player`` (by name, case and blanks aside: as ``stats`` counts him; None: everyone's); ``base``:
    the site's address put before each link."""
    if most < 1 or skip < 0:
        raise ValueError("most must be at least 1 and skip at least 0")
    graded = _graded(results)
    if player is not None:
        key = player_key(player)
        graded = [g for g in graded if player_key(g[5]["player"]) == key]
    graded.sort(key=lambda g: (-g[0], g[1]))
    link = _linker(base)
    shown = []
    for rank, (loss, _, result, number, game, d) in enumerate(graded[skip:skip + most], skip + 1):
        reason = next(iter(d.get("reasons") or ()), None)
        shown.append(Mistake(rank, result["source"], d.get("line"), d.get("column"), number, game.get("title") or "",
                             d["index"] + 1, d["index"], d["player"], d["played"], _best(d), loss, d["class"],
                             reason.get("sentence") if reason else None, reason.get("code") if reason else None,
                             link(result["source"], number, d["index"])))
    after = skip + len(shown)
    return Mistakes(player, len(graded), skip, tuple(shown), after if after < len(graded) else None)


def _number(x: float) -> str:
    shown = f"{x:g}"
    return decimal(x, len(shown.partition(".")[2])) if "e" not in shown else shown


def mistakes_table(page: Mistakes) -> str:
    """The text of a page of mistakes: a heading, then a line a mistake (its place first, then the game, the move,
    the player, the move played and the best, the loss and its grade, the first reason) and its link where it
    has an address; last, how to ask for the next page."""
    if not page.mistakes:
        if page.total:
            return (gettext("no more graded moves of {player}: {total} in all", player=page.player,
                            total=number(page.total)) if page.player else
                    gettext("no more graded moves: {total} in all", total=number(page.total))) + "\n"
        return (gettext("no graded move of {player}", player=page.player) if page.player else
                gettext("no graded move")) + "\n"
    first, last = page.skip + 1, page.skip + len(page.mistakes)
    counts = {"first": number(first), "last": number(last), "total": number(page.total)}
    lines = [gettext("The biggest mistakes of {player}, {first} to {last} of {total} (by loss in points, every hand "
                     "open):", player=page.player, **counts) if page.player else
             gettext("The biggest mistakes, {first} to {last} of {total} (by loss in points, every hand open):",
                     **counts)]
    for m in page.mistakes:
        params = {"place": m.place, "game": m.game, "move": m.move, "player": m.player, "played": m.played,
                  "best": m.best, "loss": _number(m.loss), "grade": grade_word(m.grade)}
        text = (gettext("{place}: game {game}, move {move}, {player}: played {played}, best {best}; loss {loss} "
                        "({grade})", **params) if m.best else
                gettext("{place}: game {game}, move {move}, {player}: played {played}; loss {loss} ({grade})",
                        **params))
        lines.append(f"{m.rank:>3}. {text}" + (f": {m.reason}" if m.reason else ""))
        if m.link and not m.link.startswith("#"):
            lines.append(f"     {m.link}")
    if page.next is not None:
        option = f"--skip {page.next}"
        lines.append(gettext("next: {option}", option=option))
    return "\n".join(lines) + "\n"
