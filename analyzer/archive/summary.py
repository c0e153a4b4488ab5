"""The closing count of a run: records, valid and invalid ones, and the errors by code."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..i18n import gettext, ngettext, number
from ..pipeline import LOST

__all__ = ["Summary"]


@dataclass
class Summary:
    """Counted result by result (``add``), so a run can stream its output and still close with totals.

    A record is valid when it could be read and every game in it is valid; one not worked out
    (the cluster was lost) is neither valid nor invalid, but ``incomplete``."""

    records: int = 0
    valid: int = 0
    invalid: int = 0
    games: int = 0
    codes: Counter = field(default_factory=Counter)   # error code -> how many
    incomplete: int = 0     # records not worked out: the cluster was lost (each has its error line)

    def add(self, result: dict) -> None:
        self.records += 1
        if result["error"] is not None and result["error"]["code"] == LOST:     # neither valid nor invalid
            self.incomplete += 1
            return
        errors = [result["error"]] if result["error"] else []
        for game in result["games"]:
            self.games += 1
            errors += [d for d in game["diagnostics"] if d["severity"] == "error"]
        self.codes.update(d["code"] for d in errors)
        ok = result["error"] is None and all(g["valid"] for g in result["games"])
        self.valid += ok
        self.invalid += not ok

    @property
    def ok(self) -> bool:
        return self.invalid == 0

    def as_dict(self) -> dict:
        return {"records": self.records, "valid": self.valid, "invalid": self.invalid, "games": self.games,
                "errors": dict(sorted(self.codes.items())), "incomplete": self.incomplete}

    def __str__(self) -> str:
        text = gettext("{records} ({games}): {valid} valid, {invalid} invalid",
                       records=ngettext("{n} record", "{n} records", self.records),
                       games=ngettext("{n} game", "{n} games", self.games), valid=number(self.valid),
                       invalid=number(self.invalid))
        if self.incomplete:
            text += gettext(", {incomplete} not worked out (the cluster was lost: run again)",
                            incomplete=number(self.incomplete))
        if self.codes:
            text += gettext("; errors: {codes}", codes=", ".join(
                f"{code} {number(n)}" for code, n in sorted(self.codes.items(), key=lambda kv: (-kv[1], kv[0]))))
        return text
