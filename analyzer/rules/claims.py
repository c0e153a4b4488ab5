"""The judge of the points claimed during play (All Fives and its kin): what an applied play scores,
whether its player's claim is right, and a Muggins call on points the play before left unclaimed.

:class:`~analyzer.rules.judge.Judge`, the one judge of legality, is built on it, so every caller asks
the same judge for both; the messages are built only when it explains (``explain``)."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping, NamedTuple

from ..i18n import gettext
from ..position import Position
from ..tiles import Move
from .codes import Code

__all__ = ["ClaimJudge", "Problem"]


class Problem(NamedTuple):
    """Why an entry is not legal: the validator's ``code``, a ``message`` (empty when the judge was
    asked for codes only), ``details`` for the JSON output, and whether the move ``applies`` all the
    same (the replay goes on from it) or cannot be made."""

    code: Code
    message: str = ""
    details: Mapping[str, Any] = MappingProxyType({})
    applies: bool = True
    severity: str = "error"       # "warning": an irregularity that stands (a false play, Domino Whist §8)


class ClaimJudge:
    """Judges the claims of one game: the ``variant``'s play scoring, the ``players``' names for the
    messages; ``explain``: build the messages, or give the codes alone."""

    def __init__(self, variant, players: tuple[str, ...], *, explain: bool = True):
        self.variant = variant
        self.players = players
        self.explain = explain

    def _problem(self, code: Code, message: Callable[[], str] | None = None, details: Callable[[], dict] | None = None,
                 applies: bool = True, severity: str = "error") -> Problem:
        if not self.explain:
            return Problem(code, applies=applies, severity=severity)
        return Problem(code, message() if message else "", details() if details else {}, applies, severity)

    def claim(self, pos: Position, seat: int, move: Move | None, claimed: int | None) -> tuple[int, Problem | None]:
        """What an applied entry scores during play (``pos`` is after it) and the problem with its
        claim: (points, problem). A play that scores and claims nothing scores 0 here (the points are
        open to Muggins: a ``missed-score`` warning); severity is the caller's (``missed-score`` is a
        warning, the rest errors)."""
        play = self.variant.play
        if claimed is None and play is None:        # nobody scores during play, and nobody claims
            return 0, None
        name = self.players[seat] if self.explain and seat is not None else ""
        if move is None or not move.is_play or seat is None:
            if claimed is not None and move is not None:
                return 0, self._problem(Code.WRONG_SCORE, lambda: gettext(
                    "{player} claims {claimed} for a draw; only a play scores", player=name, claimed=claimed)
                    if move.draw else gettext("{player} claims {claimed} for a pass; only a play scores", player=name,
                                              claimed=claimed), lambda: {"claimed": claimed, "scores": 0})
            return 0, None
        if play is None:
            if claimed is not None:
                return 0, self._problem(Code.WRONG_SCORE, lambda: gettext(
                    "{player} claims {claimed}, but in the {variant} game nobody scores during play", player=name,
                    claimed=claimed, variant=self.variant.name),
                                        lambda: {"claimed": claimed, "scores": 0})
            return 0, None
        total = play.ends_total(pos.line_ends(), pos.ends)
        points = play.points(total)
        if claimed is None:
            if points:
                nxt = self.players[(seat + 1) % pos.n] if self.explain else ""
                return points, self._problem(Code.MISSED_SCORE, lambda: gettext(
                    "{player} does not claim the points: {why}; the next player, {next}, may take them with muggins",
                    player=name, why=play.explain(total), next=nxt), lambda: {"scores": points, "total": total})
            return 0, None
        if claimed != points:
            return points, self._problem(Code.WRONG_SCORE, lambda: gettext("{player} claims {claimed}, but {why}",
                                                                           player=name, claimed=claimed,
                                                                           why=play.explain(total)),
                                         lambda: {"claimed": claimed, "scores": points, "total": total})
        return points, None

    def muggins(self, seat: int | None, called: int, pending: tuple[int, int] | None, name: str
                ) -> tuple[Problem | None, bool]:
        """A Muggins call of ``called`` points by ``seat`` (``name`` as the record writes him) on the
        ``pending`` (scorer, points) the play before left unclaimed: (the problem or None; whether the
        points stay open to a right call)."""
        v = self.variant
        if v.play is None:
            return self._problem(Code.BAD_MUGGINS, lambda: gettext(
                "{player} calls muggins, but in the {variant} game nobody scores during play", player=name,
                variant=v.name)), False
        if seat is None:
            return self._problem(Code.BAD_MUGGINS, lambda: gettext(
                "{name}, who calls muggins, is not one of the players ({players})", name=repr(name),
                players=', '.join(self.players))), False
        if pending is None:
            return self._problem(Code.BAD_MUGGINS, lambda: gettext(
                "{player} calls muggins {called}, but the entry before it is no scoring play left unclaimed",
                player=name, called=called)), False
        scorer, points = pending
        nxt = (scorer + 1) % len(self.players)
        if seat != nxt:
            return self._problem(Code.BAD_MUGGINS, lambda: gettext(
                "{player} calls muggins on {scorer}'s unclaimed {points}, but only the next player, {next}, may",
                player=name, scorer=self.players[scorer], points=points, next=self.players[nxt]),
                                 lambda: {"expected": self.players[nxt]}), False
        if called != points:
            return self._problem(Code.BAD_MUGGINS, lambda: gettext(
                "{player} calls muggins {called}, but {scorer} left {points} unclaimed", player=name, called=called,
                scorer=self.players[scorer], points=points), lambda: {"scores": points}), True
        return None, False
