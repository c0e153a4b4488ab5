"""What certified brackets under hidden information say of a fair verdict, in words: made once, for the analysis's
JSON and for the text, the page and the board alike (docs/hidden.md, "In the fair analysis"). Words alone: this module
reaches no solver, so the rendering may call it."""
from __future__ import annotations

from ..i18n import decimal, gettext, number

__all__ = ["contradiction_words", "exact_progress_words", "cpu_words"]


def contradiction_words(better: str, worse: str, deals: int, say=str, lost: tuple[float, str] | None = None) -> str:
    """Why a sampled two-player verdict is not given, in a player's words (each move said by ``say``): the certified
    brackets of an open CFR+ decision over ``deals`` public deals put ``better`` wholly above ``worse``, the best by
    the open-hands mean (``analysis.hiddenfair.contradicted``); and, with ``lost`` (what the move played surely loses
    per deal of the mover's hand, and against which move: ``hiddenfair.least_loss``), that too."""
    words = gettext("by what the players could know, {better} is surely better than {worse}: {worse}, the best by the "
                    "open-hands mean, is not called best (certified brackets under hidden information over {n} public "
                    "deals)", better=say(better), worse=say(worse), n=number(deals))
    if lost is not None:
        words += "; " + gettext("the move played surely loses at least {loss} against {move}", loss=decimal(lost[0]),
                                move=say(lost[1]))
    return words


def exact_progress_words(step: int, at: int, count: int, seconds: float) -> str:
    """``move 8 under hidden information (1 of 5, at most 15 min of CPU)``: the decision at ``step`` the exact solver
    begins, the ``at``-th of ``count``, and the most CPU it may take (``FairRun.exact``'s report), as the command
    line's terminal and the board's progress say it."""
    return gettext("move {move} under hidden information ({number} of {count}, at most {minutes} of CPU)",
                   move=step + 1, number=at, count=count, minutes=cpu_words(seconds))


def cpu_words(seconds: float) -> str:
    """``40 s``, ``15 min``: CPU seconds as a person reads them."""
    if seconds < 120:
        return gettext("{n} s", n=number(round(seconds)))
    return gettext("{n} min", n=number(round(seconds / 60)))
