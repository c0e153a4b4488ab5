"""How many moves of each class a player made, and his accuracy, in one game and over a record's games: the summary a
review shows beside the moves (the board's, #86).

A decision counts where it was judged: with every hand open, where its loss is known (on a sheet without hands, its
loss over the deals the sheet allows); by what its player could know (``fair``), where the fair analysis gave it a
loss (a sheet's verdict over the hands he may have held is not one of these: its grade is hindsight's). Its class
is the one the analysis gave it (``Decision.cls``; fair: ``FairDecision.cls`` where the verdict is ``real`` or
``uncertain``, the moves the fair review grades). **Accuracy** is the share of the judged decisions, in per cent,
that no class was given: the moves that lost less than the inaccuracy threshold.

This module is the one count of grade classes: :func:`tally` counts a list of classes, and every other count asks
it (``domino stats``'s accuracy and mistakes per 100, ``archive.stats``; a report page's errors of play,
``render.model.GameReport.classified``; the board's review, :func:`grade_counts`)."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GradeCount", "GradeCounts", "CLASSES", "grade_counts", "tally"]

#: The classes, least first (a game scored by games has no mistake: its count stays 0).
CLASSES = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class GradeCount:
    """One player's moves (``player`` None: every player's) in one game or over the record: the ``decisions``
    judged, how many of them got each class of :data:`CLASSES` (``counts``, in that order) and the ``accuracy`` in
    per cent (None where no decision was judged)."""

    player: str | None
    decisions: int
    counts: tuple[int, ...]
    accuracy: float | None

    def __post_init__(self):
        object.__setattr__(self, "counts", tuple(self.counts))

    @property
    def unclassed(self) -> int:
        """The judged decisions given no class: the moves that lost less than the inaccuracy threshold (what
        ``accuracy`` is the share of)."""
        return self.decisions - sum(self.counts)

    def of(self, cls: str) -> int:
        """How many decisions got the class ``cls`` (one of :data:`CLASSES`)."""
        return self.counts[CLASSES.index(cls)]

    def at_least(self, cls: str) -> int:
        """How many decisions got the class ``cls`` or a worse one (``"mistake"``: mistakes and blunders)."""
        return sum(self.counts[CLASSES.index(cls):])

    def per_100(self, count: int) -> float | None:
        """``count`` per 100 of the decisions judged, to one decimal (None where none was judged)."""
        return round(100 * count / self.decisions, 1) if self.decisions else None


@dataclass(frozen=True)
class GradeCounts:
    """A record's grade counts on one basis (``fair``: by what each player could know, else every hand open):
    ``games``, one a game (each player in seat order, then every player's), and ``match``, over all of them (each
    player in the order first seated, then every player's)."""

    fair: bool
    classes: tuple[str, ...]
    games: tuple[tuple[GradeCount, ...], ...]
    match: tuple[GradeCount, ...]

    def __post_init__(self):
        object.__setattr__(self, "classes", tuple(self.classes))
        object.__setattr__(self, "games", tuple(tuple(g) for g in self.games))
        object.__setattr__(self, "match", tuple(self.match))


def _judged(d, fair: bool) -> tuple[bool, str | None]:
    """Whether decision ``d`` was judged on the basis, and its class there."""
    if fair:
        f = getattr(d, "fair", None)
        if f is None or getattr(f, "over_hands", None) is not None or f.loss is None:
            return False, None
        return True, f.cls if f.verdict in ("real", "uncertain") else None
    if d.loss is None and getattr(d, "loss_over", None) is None:
        return False, None
    return True, d.cls


def tally(marks, player: str | None = None) -> GradeCount:
    """The grade count of the judged decisions whose classes are ``marks`` (each one of :data:`CLASSES`, or None: no
    class given), for ``player`` (None: every player's)."""
    marks = list(marks)
    counts = tuple(sum(m == c for m in marks) for c in CLASSES)
    accuracy = round(100 * (len(marks) - sum(counts)) / len(marks), 1) if marks else None
    return GradeCount(player, len(marks), counts, accuracy)


def grade_counts(analyses) -> GradeCounts:
    """The grade counts of a record's game analyses (``GameAnalysis``, None for a game not analysed: counted with no
    decision), on the fair basis where every analysed game has a fair analysis, else with every hand open."""
    done = [a for a in analyses if a is not None]
    fair = bool(done) and all(a.fair for a in done)
    games, everyone = [], {}
    for a in analyses:
        if a is None:
            games.append((tally([]),))
            continue
        marks: dict[str, list] = {name: [] for name in a.players}
        for name in a.players:
            everyone.setdefault(name, [])
        for d in a.decisions:
            judged, cls = _judged(d, fair)
            if judged:
                marks.setdefault(d.player, []).append(cls)
                everyone.setdefault(d.player, []).append(cls)
        games.append(tuple(tally(m, name) for name, m in marks.items())
                     + (tally([c for m in marks.values() for c in m]),))
    match = tuple(tally(m, name) for name, m in everyone.items()) + (
        tally([c for m in everyone.values() for c in m]),)
    return GradeCounts(fair, CLASSES, tuple(games), match)
