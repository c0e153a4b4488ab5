"""The steps the inference takes, counted for a caller that bounds them (:func:`metered`).

Counting the deals a record allows may take a second where its moves are few: a game hiding three hands
under the heaviest-hand lead (Hungarian) fills tens of thousands of states of its dynamic program before it
knows. A caller that must stay within a budget of work (the repair search, which replays thousands of
candidate records and checks each one's stated result over the deals it allows) opens :func:`metered`; each
state the programs fill and each deal listed is a step (a deal judged whole or scored, WORLD_STEPS), and once the
steps pass the limit :class:`StepsSpent` is raised out of whatever was counting. Steps, not seconds: where the
limit falls is the same on any machine. Outside :func:`metered` nothing is counted.

A meter opened with ``remember=True`` (the record's budget of its sheets' checks, :mod:`analyzer.match`) lets the
deals a :func:`~analyzer.inference.memo.remembering` block kept be taken from it, each charged the steps it cost when
it was listed, so that the count is what listing it again would count (any other meter lists anew).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

__all__ = ["Meter", "StepsSpent", "metered", "current_meter", "WORLD_STEPS"]

# A deal judged whole (its hands against a rule on whole hands: a forced re-deal, who may lead) or listed with how
# its hand ends there (a position laid out and scored) costs about as much as this many states of the counting
# program.
WORLD_STEPS = 10


class StepsSpent(Exception):
    """The steps :func:`metered` allowed are spent: what was being counted is not known. Never reaches a user:
    the caller that opened the meter catches it (it is no :class:`InferenceUnsupported`, which callers take as
    "this family's deals are not counted" and go on without them)."""


class Meter:
    """The steps taken within one :func:`metered` block, and the most it allows."""

    __slots__ = ("limit", "spent", "remember")

    def __init__(self, limit: float, remember: bool = False):
        self.limit = limit
        self.spent = 0
        self.remember = remember        # the deals a memo kept may be taken, charged what they cost (see module)

    def charge(self, steps: int = 1) -> None:
        """Count ``steps``; :class:`StepsSpent` once they pass the limit."""
        self.spent += steps
        if self.spent > self.limit:
            raise StepsSpent(f"the inference took more than {self.limit:,.0f} steps")


_METER: ContextVar[Meter | None] = ContextVar("inference_meter", default=None)


def current_meter() -> Meter | None:
    """The meter of the enclosing :func:`metered` block (None: the steps are not counted)."""
    return _METER.get()


@contextmanager
def metered(limit: float, *, remember: bool = False) -> Iterator[Meter]:
    """Within the block the inference counts its steps on the meter yielded, and raises :class:`StepsSpent` past
    ``limit`` of them (``float('inf')``: counted, never stopped). ``remember``: see the module."""
    meter = Meter(limit, remember)
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)
