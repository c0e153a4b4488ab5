"""The values of a sheet without hands, as plain frozen values (:mod:`analyzer.analysis.sheets` makes them):
a value over the deals the sheet allows, a fair loss over the hands a player may have held, and the deals."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..codec import key
from ..i18n import gettext, ngettext, number

__all__ = ["OverDeals", "OverHands", "DealsSummary", "DealsResult", "WorkCut", "FairCut", "CPU_BUDGET", "hands_words"]


def hands_words(hands: int, drawn: int, different: int) -> str:
    """How many of the ``hands`` a player may have held his moves were judged in: ``all 12 hands he may have
    held``, ``the one hand he may have held``, or ``8 drawn of the 56 hands he may have held (7 different)`` (drawn
    by the deals they stand for: a hand may be drawn more than once). The one wording of the text, the page and the
    analysis's note."""
    if different >= hands:
        return (gettext("the one hand he may have held") if hands == 1 else
                ngettext("all {n} hand he may have held", "all {n} hands he may have held", hands))
    return (ngettext("{drawn} drawn of the {n} hand he may have held",
                     "{drawn} drawn of the {n} hands he may have held", hands, drawn=number(drawn))
            + (" " + gettext("({n} different)", n=number(different)) if different != drawn else ""))


@dataclass(frozen=True)
class OverDeals:
    """A value over the deals: the mean, the lowest and the highest, over ``deals`` deals (those in which the
    move could be played); ``ci95``: the mean's 95% interval where the deals are a sample of those allowed.
    Beside a decision's best move on average, another move's ``gap``: the mean of its paired gaps to that move (for
    the mover, in points), over the ``shared`` deals both could be played in, and ``gap_ci`` its interval at the level
    the looks test it (the moves' own means may stand on different deals; the gap on the same ones). ``looked``: the
    deals the value was looked for in (its decision's, of which ``deals`` are those where the move could be
    played; fewer than the deals analysed where its decision was decided before the last look, or the move told
    apart from the best and no longer valued); None where not said (the one deal of a sheet). ``stopped``: why its
    decision was valued in no more deals before it was decided (:data:`CPU_BUDGET`: the values' CPU budget stopped
    it, its costliest decisions first: ``looked`` is where), None where it was decided or valued in every deal."""

    mean: float
    min: int
    max: int
    deals: int
    ci95: tuple[float, float] | None = None
    gap: float | None = None
    gap_ci: tuple[float, float] | None = None
    shared: int | None = None
    looked: int | None = None
    stopped: str | None = None

    @property
    def told_apart(self) -> bool | None:
        """Whether the best move on average is told apart from this one (its gap's interval above 0); None for
        the best itself, or a move never playable in the same deal as it."""
        return None if self.gap_ci is None else self.gap_ci[0] > 1e-9

    def as_dict(self) -> dict:
        out = {"mean": self.mean, "min": self.min, "max": self.max, "deals": self.deals}
        if self.ci95 is not None:
            out["ci95"] = list(self.ci95)
        if self.gap is not None:
            out.update(gap=self.gap, gap_ci=list(self.gap_ci), shared=self.shared)
        if self.looked is not None:
            out["looked"] = self.looked
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out

    @classmethod
    def from_dict(cls, data: dict | None) -> OverDeals | None:
        if data is None:
            return None
        ci, gap_ci = data.get("ci95"), data.get("gap_ci")
        return cls(data["mean"], data["min"], data["max"], data["deals"], None if ci is None else tuple(ci),
                   data.get("gap"), None if gap_ci is None else tuple(gap_ci), data.get("shared"), data.get("looked"),
                   data.get("stopped"))


@dataclass(frozen=True)
class OverHands:
    """The fair loss of a move over the hands its player may have held: the mean (each hand weighing the deals
    it stands for), its 95% interval where the hands judged are a sample, the least and the most; ``hands``:
    how many hands he may have held, ``judged``: how many were judged; ``real``: in how many of them the move
    is a real mistake (the fair verdict), ``best``: the fair best where it is the same in every hand judged
    and told apart there; ``drawn``: where the hands are drawn, how many draws (a hand may come more than once,
    ``judged`` counts the different ones); None where every hand is judged."""

    mean: float
    ci95: tuple[float, float] | None
    min: float
    max: float
    hands: int
    judged: int
    real: int
    best: str | None
    drawn: int | None = None

    def as_dict(self) -> dict:
        out = {"mean": self.mean, "ci95": None if self.ci95 is None else list(self.ci95), "min": self.min,
               "max": self.max, "hands": self.hands, "judged": self.judged, "real": self.real, "best": self.best}
        if self.drawn is not None:
            out["drawn"] = self.drawn
        return out


#: why the work of a sheet's values stopped short of the deals planned (:attr:`WorkCut.reason`)
CPU_BUDGET = "cpu-budget"     # the values' CPU budget (``--values-seconds``, :data:`analysis.sheets.SECONDS`)


@dataclass(frozen=True)
class WorkCut:
    """Where the analysis of a sheet's values stopped short of the deals it planned, and why: ``reason`` a code
    (:data:`CPU_BUDGET`: the CPU budget ran out, the one cause there is; the deals ``--max-deals`` leaves out are
    the summary's ``max_deals``, and a decision decided early is no cut), ``deals`` the deals analysed when it
    first stopped a decision, ``seconds`` the budget in CPU seconds, ``seconds_per_deal`` what a deal cost (every
    decision still in question valued), as measured on the last look before that stop; ``decisions``: how many
    decisions it stopped before they were decided (each its values' ``OverDeals.stopped``: the costliest first,
    where the others' next look still fitted, at ``deals`` or more deals), None in a result written before it was
    said (every decision not yet decided stopped at ``deals``). A value, never words: ``render.verdicts.cut_words``
    says it."""

    reason: str
    deals: int
    seconds: float
    seconds_per_deal: float
    decisions: int | None = field(default=None, metadata=key(omit_none=True))


@dataclass(frozen=True)
class FairCut:
    """Where the fair verdicts of a sheet were planned down to fit their CPU budget, and to what: ``reason`` a code
    (:data:`CPU_BUDGET`: ``hands`` hands a player over the fair analysis's worlds would have passed it, the one
    cause there is), ``seconds`` the budget in CPU seconds, ``seconds_per_deal`` what a deal's values cost (the
    measure the plan was made from), ``hands`` the hands a player is judged in and ``deals`` the deals (worlds)
    each decision is judged over, as cut. A value, never words: ``render.verdicts.fair_cut_words`` says it."""

    reason: str
    seconds: float
    seconds_per_deal: float
    hands: int
    deals: int


class DealsResult(NamedTuple):
    """One result the deals analysed give (its words) and in how many of them."""

    result: str
    deals: int


def _cut_text(cut: WorkCut) -> str:
    """The English sentence the retired key ``cut`` held (schema version 4, gone in 5): the new key is
    ``cut_short``, and the words of every surface are ``render.verdicts.cut_words``'."""
    return (f"stopped at {cut.deals:,} deals: the values' CPU budget of {cut.seconds:.0f} s "
            f"(some {cut.seconds_per_deal:.2f} s a deal)")


@dataclass(frozen=True)
class DealsSummary:
    """The deals a sheet allows (``count``, ``counted`` "exact" or "estimated"), those analysed (``analysed``,
    ``method`` "all" or "sampled"), the deals the moves allow before the written result narrows them
    (``moves_allow``), and the results they give (``results``: the hand result's words and in how many deals
    analysed). Where every deal is listed (``method`` "all") but fewer were analysed, each decision took them in a
    random order until it was decided (``analysed``: the most any took); ``cut``: where the work stopped short
    (:class:`WorkCut`: the CPU budget), else None. ``seconds_per_deal``: the CPU a deal's values cost (measured;
    not written out: the fair verdicts' budget reads it). Written by :mod:`analyzer.codec` (its JSON key ``cut``,
    the words it was until schema version 4, is ``cut_short`` now: docs/glossary.md)."""

    count: int
    analysed: int
    method: str
    counted: str                     # "exact" or "estimated"
    moves_allow: int
    results: tuple[DealsResult, ...]
    count_ci95: tuple[int, int] | None = field(default=None, metadata=key(omit_none=True))
    max_deals: int = field(default=0, metadata=key(after="moves_allow"))     # the most deals analysed (--max-deals)
    cut: WorkCut | None = field(default=None, metadata=key("cut_short", omit_none=True, retired="cut",
                                                           retired_write=_cut_text))
    seconds_per_deal: float | None = field(default=None, compare=False, metadata=key(skip=True))

    @property
    def exact(self) -> bool:
        """Whether ``count`` is exact (else an estimate, with ``count_ci95``)."""
        return self.counted == "exact"

    @property
    def one_result(self) -> str | None:
        """The result every deal analysed gives, where they agree."""
        return self.results[0][0] if len(self.results) == 1 else None

    def result_words(self) -> str:
        """``A goes out (domino); A/C win 12, in every deal analysed``, or the results with their counts where the
        deals end otherwise: the one writer of a sheet's result (text, page, board)."""
        if self.one_result is not None:
            return gettext("{result}, in every deal analysed", result=self.one_result)
        each = [gettext("{result} in {n}", result=text, n=number(n)) for text, n in self.results]
        return gettext("not the same in every deal: {results}", results="; ".join(each))

    def words(self) -> str:
        """``1,128 deals allowed (all analysed)``, the line's opening in the text and the page."""
        if self.method != "all":
            how = gettext("{n} drawn uniformly (--max-deals {most})", n=number(self.analysed),
                          most=number(self.max_deals))
        elif self.analysed < self.count:
            how = gettext("every one listed, {n} of them analysed (taken in a random order, each decision until its "
                          "best and grade were decided)", n=number(self.analysed))
        else:
            how = gettext("every one analysed")
        if self.exact:
            words = ngettext("{n} deal the sheet allows, {how}", "{n} deals the sheet allows, {how}", self.count,
                             how=how)
        else:
            words = ngettext("about {n} deal the sheet allows, {how}", "about {n} deals the sheet allows, {how}",
                             self.count, how=how)
        return words
