"""Grade classes on the scale of the game: when a move is an inaccuracy, a mistake or a blunder.

On the **points** scale a move's loss is counted in the hand's points, against the thresholds (3, 10, 25 by
default, ``--thresholds``). A game **scored by games** (one point a game, however it is won: Jamaican and
Chiva, 002: "Nach einem Spiel bekommt das Team, das gewonnen hat, einen Punkt"; Cut Throat; the block game
scored by games, 003: "Ein Punkt wird dem Gewinnpaar pro Spiel zugeteilt") has no such points: its values
are won, drawn or lost games (one, two with Milo's call), so a loss of 3 points can never happen and every
move graded on the points scale would be no class at all. There (:class:`ByGames`) a move that changes who
wins the hand, a won or drawn hand let go to a draw or a loss, is a **blunder**; a move that keeps the
outcome but gives up a point of it (Milo's second point) an **inaccuracy**. The match scale
(:mod:`analyzer.analysis.match_scale`, ``--scale match``) grades by the match-winning chance instead,
where the match position is known."""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, gettext
from ..rules.modes import Count

#: a grade's word, as the page's badges and the grades' line say it (translated where shown: :func:`grade_word`)
GRADE_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


def grade_word(cls: str | None) -> str:
    """A grade's word (``mistake``) in the active language (one the catalogue does not know: as it is)."""
    return gettext(GRADE_WORDS[cls]) if cls in GRADE_WORDS else (cls or "")


__all__ = ["GRADE_WORDS", "grade_word", "Grading", "Thresholds", "ByGames", "by_games", "on_scale"]


@dataclass(frozen=True)
class Grading:
    """The grades one game's moves were given by, as its analysis states them (``GameAnalysis.grading``): on the
    ``"points"`` scale the smallest loss in the hand's points for each class; on the ``"games"`` scale (a game
    scored by games, :class:`ByGames`) by the hand's outcome, no size of loss (the three numbers None)."""

    scale: str
    inaccuracy: int | None = None
    mistake: int | None = None
    blunder: int | None = None

    @property
    def legend(self) -> tuple[tuple[str, str], ...]:
        """Each class and what earns it in this game, in words (a page's legend, the text's header)."""
        if self.scale == "games":
            return (("inaccuracy", gettext("gives up a point of the hand, its outcome kept")),
                    ("blunder", gettext("changes who wins the hand")))
        return tuple((cls, gettext("loses {points}+ points", points=points)) for cls, points in
                     (("inaccuracy", self.inaccuracy), ("mistake", self.mistake), ("blunder", self.blunder)))

    @property
    def scale_words(self) -> str:
        """This game's scale, in words."""
        if self.scale == "games":
            return gettext("this game's scale: a hand counts as one game won, whatever its points, so a move is graded "
                           "by who wins the hand, not by the size of its loss")
        return gettext("this game's scale: points of the hand; --thresholds sets them")

    @property
    def default(self) -> bool:
        """The default grades on the points scale (``Thresholds()``), which the README and ``--help`` state: the
        text of ``analyze`` names the grades only where a game's differ."""
        d = Thresholds()
        return self.scale == "points" and (self.inaccuracy, self.mistake, self.blunder) == (d.inaccuracy, d.mistake,
                                                                                             d.blunder)

    @property
    def words(self) -> str:
        """The grades in one line: each class and what earns it, and the scale."""
        return "; ".join(f"{grade_word(cls)} {what}" for cls, what in self.legend) + f" ({self.scale_words})"


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss, in points, that makes a move an inaccuracy, a mistake or a blunder."""

    inaccuracy: int = 3
    mistake: int = 10
    blunder: int = 25

    @classmethod
    def parse(cls, text: str) -> Thresholds:
        """Read ``"3,10,25"``."""
        try:
            a, b, c = (int(x) for x in text.split(","))
        except ValueError:
            raise ValueError(f"thresholds are three whole numbers of points like 3,10,25, not {text!r}") from None
        if not 0 < a <= b <= c:
            raise ValueError(f"thresholds must grow: inaccuracy <= mistake <= blunder, got {text!r}")
        return cls(a, b, c)

    @property
    def grading(self) -> Grading:
        """The grades these thresholds give, as an analysis states them."""
        return Grading("points", self.inaccuracy, self.mistake, self.blunder)

    def classify(self, loss: int, best: int | None = None, played: int | None = None, side: int = 0) -> str | None:
        """The class of a move that loses ``loss`` points (``best``, ``played``: the values of the best move and
        of the move played for the first side, ``side`` the mover's: read on a scale of games, :class:`ByGames`)."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None



@dataclass(frozen=True)
class ByGames(Thresholds):
    """The classes of a game scored by games (see the module): by the outcome, not by the size of the loss."""

    @property
    def grading(self) -> Grading:
        return Grading("games")

    def classify(self, loss: int, best: int | None = None, played: int | None = None, side: int = 0) -> str | None:
        if not loss:
            return None
        if best is None or played is None:      # (only a bound is known: the outcome it changes is not)
            return None
        sign = 1 if side == 0 else -1
        if _outcome(sign * best) != _outcome(sign * played):
            return "blunder"
        return "inaccuracy"


def _outcome(value: int) -> int:
    return (value > 0) - (value < 0)


def by_games(variant) -> bool:
    """Whether ``variant`` scores a hand by games: one point a game (Milo: two for its call), whoever wins it."""
    return getattr(variant.scoring, "count", None) in (Count.GAME, Count.MILO) and variant.play is None


def on_scale(thresholds: Thresholds, variant) -> Thresholds:
    """The thresholds to grade the moves of a game of ``variant`` by: ``thresholds`` on the points scale, the
    outcome in a game scored by games (:class:`ByGames`; the thresholds in points do not apply there)."""
    if by_games(variant) and not isinstance(thresholds, ByGames):
        return ByGames(thresholds.inaccuracy, thresholds.mistake, thresholds.blunder)
    return thresholds
