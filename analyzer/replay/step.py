"""One recorded move and what the replay made of it."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..record import MoveEntry
from ..rules.layout import Arm
from ..tiles import Move
from ..diagnostics import Severity

__all__ = ["Step"]


@dataclass
class Step:
    """One recorded move and what the replay made of it."""

    index: int
    entry: MoveEntry
    seat: int | None                  # the mover the record names (None: an unknown name)
    move: Move | None                 # the move applied to the position, None when it could not be
    ends_before: tuple[int, int] | None
    ends_after: tuple[int, int] | None
    hands_after: tuple[int, ...]      # every seat's known tiles after the move (bit masks)
    lacks: tuple[int, ...] = ()       # numbers a pass proves the mover does not hold
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ends_hand: bool = False           # this move finished the hand
    boneyard: int | None = None       # tiles left in the boneyard after the move (draw games)
    scores: tuple[int, ...] | None = None   # each seat's points scored during play so far (All Fives)
    scored: int = 0                   # the points this entry scored (a claimed play or a muggins call)
    arms: tuple[Arm, ...] | None = None   # every arm after the move (a layout with arms: French, cross)

    @property
    def ok(self) -> bool:
        return not any(d.severity == Severity.ERROR for d in self.diagnostics)
