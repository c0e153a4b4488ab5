"""The values of a sheet without hands, as plain frozen values (:mod:`analyzer.analysis.sheets` makes them):
a value over the deals the sheet allows, a fair loss over the hands a player may have held, and the deals."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OverDeals", "OverHands", "DealsSummary"]


@dataclass(frozen=True)
class OverDeals:
    """A value over the deals: the mean, the lowest and the highest, over ``deals`` deals (those in which the
    move could be played); ``ci95``: the mean's 95% interval where the deals are a sample of those allowed."""

    mean: float
    min: int
    max: int
    deals: int
    ci95: tuple[float, float] | None = None

    def as_dict(self) -> dict:
        out = {"mean": self.mean, "min": self.min, "max": self.max, "deals": self.deals}
        if self.ci95 is not None:
            out["ci95"] = list(self.ci95)
        return out

    @classmethod
    def from_dict(cls, data: dict | None) -> OverDeals | None:
        if data is None:
            return None
        ci = data.get("ci95")
        return cls(data["mean"], data["min"], data["max"], data["deals"], None if ci is None else tuple(ci))


@dataclass(frozen=True)
class OverHands:
    """The fair loss of a move over the hands its player may have held: the mean (each hand weighing the deals
    it stands for), its 95% interval where the hands judged are a sample, the least and the most; ``hands``:
    how many hands he may have held, ``judged``: how many were judged; ``real``: in how many of them the move
    is a real mistake (the fair verdict), ``best``: the fair best where it is the same in every hand judged
    and told apart there."""

    mean: float
    ci95: tuple[float, float] | None
    min: float
    max: float
    hands: int
    judged: int
    real: int
    best: str | None

    def as_dict(self) -> dict:
        return {"mean": self.mean, "ci95": None if self.ci95 is None else list(self.ci95), "min": self.min,
                "max": self.max, "hands": self.hands, "judged": self.judged, "real": self.real, "best": self.best}


@dataclass(frozen=True)
class DealsSummary:
    """The deals a sheet allows (``count``, exact or estimated), those analysed (``analysed``, ``method`` "all"
    or "sampled"), the deals the moves allow before the written result narrows them (``moves_allow``), and the
    results they give (``results``: the hand result's words and in how many deals analysed)."""

    count: int
    analysed: int
    method: str
    exact: bool
    moves_allow: int
    results: tuple[tuple[str, int], ...]
    count_ci95: tuple[int, int] | None = None
    max_deals: int = 0               # the most deals analysed (--max-deals)

    @property
    def one_result(self) -> str | None:
        """The result every deal analysed gives, where they agree."""
        return self.results[0][0] if len(self.results) == 1 else None

    def as_dict(self) -> dict:
        out = {"count": self.count, "analysed": self.analysed, "method": self.method,
               "counted": "exact" if self.exact else "estimated", "moves_allow": self.moves_allow,
               "max_deals": self.max_deals,
               "results": [{"result": text, "deals": n} for text, n in self.results]}
        if self.count_ci95 is not None:
            out["count_ci95"] = list(self.count_ci95)
        return out

    @classmethod
    def from_dict(cls, data: dict | None) -> DealsSummary | None:
        if data is None:
            return None
        ci = data.get("count_ci95")
        return cls(data["count"], data["analysed"], data["method"], data["counted"] == "exact", data["moves_allow"],
                   tuple((r["result"], r["deals"]) for r in data["results"]), None if ci is None else tuple(ci),
                   data["max_deals"])

    def result_words(self) -> str:
        """``A goes out (domino); A/C win 12, in every deal analysed``, or the results with their counts where the
        deals end otherwise: the one writer of a sheet's result (text, page, board)."""
        if self.one_result is not None:
            return f"{self.one_result}, in every deal analysed"
        return "not the same in every deal: " + "; ".join(f"{text} in {n:,}" for text, n in self.results)

    def words(self) -> str:
        """``1,128 deals allowed (all analysed)``, the line's opening in the text and the page."""
        how = "every one analysed" if self.method == "all" else f"{self.analysed:,} drawn uniformly (--max-deals {self.max_deals:,})"
        count = f"{self.count:,}" if self.exact else f"about {self.count:,}"
        return f"{count} deal{'s' * (self.count != 1)} the sheet allows, {how}"
