"""One slip, one error: the errors of a broken record sorted into the likely slips and what follows.

A single slip of the pen (a wrong tile, a cell in the wrong column) usually breaks every move after
it that depends on it. :func:`triage` runs the repair search (bounded: ``max_nodes`` candidate
records, see :func:`~analyzer.repair.repair`) and, with its best repair, marks each error of the
record:

* **primary**: the first error at or after an edit of the repair (the slip shows there; an edit of
  the deal or of a tag counts from the start or the end of the record), one per edit;
* **follow-on**: every other error; it disappears once the repair is applied (the repaired record
  replays clean and ends as stated), and it names the slip it follows from.

Without a repair (none within the bound, or the record cannot be searched) every error stays
primary and the report says why.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..diagnostics import Diagnostic
from ..replay import Replay
from . import repair, tag_repair
from .edits import Edit, Repair, RepairReport

__all__ = ["Triage", "triage", "search_slips", "TRIAGE_NODES"]

# The bound of the search behind ``validate``: candidate records tried per broken game (the
# two-ended search tries about 100,000 a second here; the position path about a tenth of that).
TRIAGE_NODES = 60_000


@dataclass(frozen=True)
class Triage:
    """The errors of one replayed game, each marked primary or follow-on, and the repairs behind it."""

    diagnostics: tuple[Diagnostic, ...]     # every diagnostic of the game, errors marked (see module)
    report: RepairReport | None             # the repair search's report (None: the game was valid)

    @cached_property
    def marks(self) -> dict:
        """Each marked diagnostic by its ``Diagnostic.key`` (made once: the report asks per diagnostic)."""
        return {d.key: d for d in self.diagnostics}

    @property
    def best(self) -> Repair | None:
        return self.report.best if self.report is not None else None

    @property
    def primary(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error" and not d.details.get("follow_on")]

    @property
    def likely(self) -> str | None:
        """The best repair in one sentence: "likely slip: change C's [2-6] to [4-6] (line 9, column 3);
        with it the record is valid and ends as stated"."""
        best = self.best
        if best is None:
            return None
        edits = "; ".join(str(e) for e in best.edits)
        word = "slip" if len(best.edits) == 1 else "slips"
        tail = "ends as stated" if self.report.stated else f"ends {best.result_text}"
        return f"likely {word}: {edits}; with {'it' if len(best.edits) == 1 else 'them'} the record is valid and {tail}"


def _index_of(rep: Replay) -> dict[int, int]:
    """Where each diagnostic stands in the move list: -1 the deal, k the move, len(moves) the end."""
    out = {}
    for d in rep.notation:
        out[id(d)] = -1
    for d in rep.deal_diagnostics:
        out[id(d)] = -1
    for step in rep.steps:
        for d in step.diagnostics:
            out[id(d)] = step.index
    for d in rep.end_diagnostics:
        out[id(d)] = len(rep.steps)
    return out


def _edit_index(edit: Edit, end: int) -> int:
    if edit.kind in ("change-result", "change-score"):
        return end
    if edit.index is None:
        return -1                      # the deal
    return edit.index


def _slip_text(edit: Edit) -> str:
    if edit.line:
        return f"{edit.line}:{edit.column}" if edit.column else f"{edit.line}"
    return edit.where or "the deal"


def search_slips(rep: Replay, *, max_edits: int = 2, limit: int = 3,
                 max_nodes: int | None = TRIAGE_NODES) -> RepairReport:
    """The repair search behind the marks: a wrong Score tag alone is mended by its tag; otherwise
    :func:`~analyzer.repair.repair` under the rules (and match lead) the game was replayed with."""
    score = next((d.details.get("expected") for d in rep.errors if d.code == "score-mismatch"), None)
    mended = tag_repair(rep, "Score", "change-score", score, "score-mismatch")
    if mended is not None:       # the game is legal; only the running score it states is not
        return RepairReport(rep.game, False, rep.game.tags.get("Result"), max_edits, [mended], {1: 1}, 1, [],
                            True, 0)
    return repair(rep.game, max_edits, limit, rep.variant, lead=rep.lead, max_nodes=max_nodes, worth=rep.worth)


def triage(rep: Replay, *, max_edits: int = 2, limit: int = 3, max_nodes: int | None = TRIAGE_NODES,
           report: RepairReport | None = None) -> Triage:
    """Mark every error of ``rep`` primary or follow-on by the best repair (see the module).

    ``report``: a repair search already run for this game (``validate --repair`` runs the full
    search once and marks the errors by it); otherwise a search bounded by ``max_nodes`` is run."""
    if rep.valid:
        return Triage(tuple(rep.diagnostics), None)
    if report is None:
        report = search_slips(rep, max_edits=max_edits, limit=limit, max_nodes=max_nodes)
    best = report.best
    if best is None:
        return Triage(tuple(replace(d, details={**d.details, "follow_on": False}) if d.severity == "error" else d
                            for d in rep.diagnostics), report)
    where = _index_of(rep)
    end = len(rep.steps)
    anchors = sorted(((_edit_index(e, end), e) for e in best.edits), key=lambda x: x[0])
    errors = [d for d in rep.diagnostics if d.severity == "error"]
    primary: set[int] = set()
    for k, (at, edit) in enumerate(anchors):
        upto = anchors[k + 1][0] if k + 1 < len(anchors) else end + 1
        here = [d for d in errors if at <= where.get(id(d), -1) <= upto and id(d) not in primary]
        # the error standing where the edit is (a tile dealt twice is marked at both copies), else
        # the first one after it: where the slip shows
        first = next((d for d in here if (d.line, d.column) == (edit.line, edit.column)), here[0] if here else None)
        if first is not None:
            primary.add(id(first))
    out = []
    for d in rep.diagnostics:
        if d.severity != "error":
            out.append(d)
            continue
        if id(d) in primary or id(d) not in where:
            out.append(replace(d, details={**d.details, "follow_on": False}))
            continue
        at = where[id(d)]
        cause = max((e for i, e in anchors if i <= at), key=lambda e: _edit_index(e, end), default=anchors[0][1])
        out.append(replace(d, details={**d.details, "follow_on": True, "follows": _slip_text(cause)}))
    return Triage(tuple(out), report)
