"""The end of a replayed hand: how it ended, its result, and the Result tag and remark checked against them."""
from __future__ import annotations

import dataclasses
import functools
import re
from typing import Sequence

from ..diagnostics import Diagnostic
from ..i18n import gettext, language, ngettext, number
from ..position import Outcome, Position, tiles_of
from ..record import MAX_DIGITS, StatedResult
from ..rules.facts import HandFacts, HandResult, hand_facts
from ..rules.hints import result_hint, unfinished_hint
from ..rules.judge import tiles_text as _tiles_text
from ..rules.variants import Variant
from .step import Step
from ..rules.codes import Code
from ..rules.modes import Termination

__all__ = ["compare_result", "HandEnding", "result_sentence", "results_words", "wins", "DealOutcome"]

@dataclasses.dataclass(frozen=True)
class DealOutcome:
    """One way a sheet's hand may end (a sheet: a record that does not write every hand): the ``result`` and the
    ``facts`` of the deals that end it so, ``deals`` of those the sheet allows. Deals whose facts differ only where
    no rule of the next game looks (the tiles left beyond their pips, and whether a hand holds [0-0]) are one
    outcome, with the facts of one of them."""

    result: HandResult
    facts: HandFacts
    deals: int


BLOCK_WORDS = ("gesperrt", "blocked", "block", "trancado", "tranque")


class HandEnding:
    """The result part of the replayer (:class:`analyzer.replay._Replayer`): ``finish`` once the moves are run."""

    def finish(self, pos: Position, steps: list[Step]) -> tuple[Outcome | None, HandResult | None, list[Diagnostic]]:
        out: list[Diagnostic] = []
        outcome = pos.outcome()
        result = None
        self.facts = None
        if outcome is not None:
            for step in reversed(steps):
                if step.move is not None:
                    step.ends_hand = True
                    break
            if not any(pos.hidden) and pos.n == self.variant.players:   # else the seats do not fit
                facts = hand_facts(pos, outcome.termination, outcome.seat, self.leader,
                                   tuple(self.scores) if self.variant.play is not None else None)
                result = self.variant.hand_result(facts)
                self.facts = facts
            elif any(pos.hidden) and self.game.tags.get("Result") is not None:
                unknown = ", ".join(self.players[s] for s in range(pos.n) if pos.hidden[s])
                out.append(self.diag(Code.UNCHECKED_RESULT, gettext(
                                         "the winner and points of the stated result are not checked: the tiles "
                                         "{players} still held are not known; write the whole deal to have them "
                                         "checked (how the hand ended is checked)", players=unknown),
                                     self.game.tag_pos.get("Result", self.game.pos), severity="info",
                                     rule="result"))
        tag = self.game.tags.get("Result")
        tag_pos = self.game.tag_pos.get("Result", self.game.pos)
        stated = None
        if tag is not None:
            try:
                stated = StatedResult.parse(tag)
            except ValueError:
                # the forms it takes, written with this game's own players
                sides = [self.variant.side_name(k, self.players) for k in range(self.variant.seating.sides)]
                shown = tag if len(tag) <= 40 else tag[:40] + "..."
                long = max((len(run) for run in re.findall(r"\d+", tag)), default=0)
                why = (" " + gettext("(a number of {n} digits: a number has at most {most})", n=long, most=MAX_DIGITS)
                       if long > MAX_DIGITS else "")
                out.append(self.diag(Code.RESULT_SYNTAX, gettext(
                    "cannot read result {stated}{why}; write it as {first}, {second} or {third} (this game's players)",
                    stated=repr(shown), why=why, first=f'"{sides[-1]} 10 domino"', second=f'"{sides[0]} 46 blocked"',
                    third='"draw blocked"'), tag_pos))
        last_pos = steps[-1].entry.pos if steps else self.game.pos
        if outcome is None:
            if stated is not None:
                unsure = any(pos.hidden) and not any(pos.playable(s) for s in range(pos.n))
                over = (gettext("the record does not show that the hand is over (a hand it does not show may hold a "
                                "tile that could be laid)") if unsure else gettext("the hand is not over"))
                out.append(self.diag(Code.RESULT_MISMATCH, gettext(
                    "the record states \"{stated}\" but after its last move {over}: {hands}", stated=stated, over=over,
                    hands=self._unfinished(pos)) + unfinished_hint(self.variant, pos), tag_pos,
                                     **({"unsure": True} if unsure else {})))
            elif self.game.moves:
                out.append(self.diag(Code.INCOMPLETE, gettext("the record ends before the hand is over: {hands}",
                                                              hands=self._unfinished(pos)),
                                     last_pos, severity="warning"))
        elif stated is not None:
            problem = self._compare(stated, outcome, result, pos)
            if problem:
                hint = "" if self.facts is None else _result_hint(self.variant, self.facts, stated, outcome,
                                                                  tuple(self.players), self.worth, language())
                out.append(self.diag(Code.RESULT_MISMATCH, gettext("the record states \"{stated}\" but {problem}",
                                                                   stated=stated, problem=problem) + hint,
                                     tag_pos))
        remark = (self.game.remark or "").lower()
        if any(w in remark for w in BLOCK_WORDS) and (outcome is None or outcome.termination != Termination.BLOCKED):
            out.append(self.diag(Code.REMARK_MISMATCH, gettext("the remark says the hand is blocked, but it is not over")
                                 if outcome is None else
                                 gettext("the remark says the hand is blocked, but it ended by domino"), last_pos,
                                 severity="warning"))
        return outcome, result, out

    def _unfinished(self, pos: Position) -> str:
        parts = []
        for s in range(pos.n):
            count = pos.count(s)
            left = (_tiles_text(tiles_of(pos.hands[s], pos.max_pip)) if not pos.hidden[s]
                    else ngettext("{n} tile not shown", "{n} tiles not shown", count))
            parts.append(gettext("{player} still holds {tiles}", player=self.players[s], tiles=left))
        return "; ".join(parts)

    def _compare(self, stated: StatedResult, outcome: Outcome, result: HandResult | None, pos: Position) -> str | None:
        if result is None and stated.milo and self._milo_on_table(pos, outcome):
            stated = dataclasses.replace(stated, milo=False)   # (the rest is checked as for any domino)
        return compare_result(stated, outcome, result, self.variant, self.players, self.worth)

    def _milo_on_table(self, pos: Position, outcome: Outcome) -> bool:
        """Whether the table shows a Milo where the hands are not all known: the hand's result is not worked out
        then, but whether the last tile left both ends equal (000, Milo) is seen on the table."""
        facts = hand_facts(pos, outcome.termination, outcome.seat, self.leader)
        return any(name == "milo" for name, _ in self.variant.hand_result(facts).bonuses)


@functools.lru_cache(maxsize=512)
def _result_hint(variant: Variant, facts, stated: StatedResult, outcome: Outcome, players: tuple[str, ...],
                 worth: int | None, lang: str = "en") -> str:
    """:func:`analyzer.rules.hints.result_hint` for a Result tag that disagrees with the hand, kept: the slip
    search replays the same ending under many candidate repairs, and each other option's result is worked out
    anew (some forty variants a hand); ``lang``: the language its words are in (a key of the cache: a server answers
    in several)."""
    return result_hint(variant, facts, lambda other, r: compare_result(stated, outcome, r, other, players, worth) is None)


def compare_result(stated: StatedResult, outcome: Outcome, result: HandResult | None, variant: Variant,
                   players: Sequence[str], worth: int | None) -> str | None:
    """How the hand really ended where ``stated`` (the Result tag) disagrees with it, else None
    (``worth``: what the game is worth in its match after drawn games)."""
    teams = variant.seating.teams
    seat_of = {name: seat for seat, name in enumerate(players)}

    def ends(more: str = "") -> str:       # described only when it disagrees (reading speed)
        return gettext("the hand ends {result}", result=result_sentence(outcome, result, variant, players, ', ',
                                                                         clause=True)) + more
    if stated.termination and stated.termination != outcome.termination:
        return ends()
    if stated.milo and (result is None or not any(name == "milo" for name, _ in result.bonuses)):
        # 000, Milo: "Wenn Domino gemacht wird und der letzte Stein dazu führt, dass beide Enden dieselbe
        # Zahl aufweisen ... Diese Art, das Spiel zu beenden, wird als „Milo“ und nicht als „Domino“ angesagt"
        return ends(" " + gettext("(a Milo is called only when the last tile leaves both ends the same number, "
                                  "under Milo's scoring)"))
    if result is None:
        return None
    if stated.side is None:
        return None if result.winner is None else ends()
    seats = [seat_of.get(name) for name in stated.side]
    if None in seats:
        return gettext("{names} are not players of this game ({players})", names='/'.join(stated.side),
                       players=', '.join(players))
    if result.winner is None or any(teams[s] != result.winner for s in seats):
        return ends()
    if not any(stated.agrees(p) for p in variant.match.stated_points(result, worth)):
        return ends(variant.match.stated_words(result, worth))
    return None


def wins(side: str, alone: bool) -> str:
    """``A/C win``, or ``C wins`` for a side of one player (``alone``)."""
    return gettext("{side} wins", side=side) if alone else gettext("{side} win", side=side)


def results_words(results: Sequence[HandResult], variant: Variant, players: Sequence[str]) -> tuple[str, ...]:
    """``results`` (those a sheet's deals give) in words, a clause each winner and ending, their points from least
    to most (``with C going out (domino), A/C winning 10 to 30``)."""
    spans: dict[tuple, list[HandResult]] = {}
    for result in results:
        spans.setdefault((result.winner is None, result.winner or 0, result.termination), []).append(result)
    words = []
    for key in sorted(spans):
        low = min(spans[key], key=lambda r: r.points)
        high = max(r.points for r in spans[key])
        said = result_sentence(low, low, variant, players, ", ", clause=True)
        words.append(gettext("{result} to {points}", result=said, points=high)
                     if high != low.points and low.winner is not None else said)
    return tuple(words)


def result_sentence(ending, result: HandResult | None, variant: Variant, players: Sequence[str], joined: str = "; ",
                    clause: bool = False) -> str:
    """How a hand ended and what it scored, the one writer of a result in words: ``C goes out (domino);
    A/C win 46``, ``blocked; a draw`` (``joined``: what stands between the two); ``clause``: as part of
    a longer sentence, ``with C going out (domino), A/C winning 46``. ``ending``: the hand's outcome
    (or result: its ``termination`` and ``seat``); without a ``result``, how it ended alone."""
    who = players[ending.seat]
    domino = ending.termination == Termination.DOMINO
    if domino:
        how = (gettext("with {player} going out (domino)", player=who) if clause else
               gettext("{player} goes out (domino)", player=who))
    else:
        how = gettext("blocked")
    if result is None:
        return how
    if result.winner is None:
        return how + joined + gettext("a draw")
    side = variant.side_name(result.winner, players)
    if clause:
        return how + joined + gettext("{side} winning {points}", side=side, points=number(result.points))
    if len(variant.seating.members(result.winner)) == 1:
        return how + joined + gettext("{side} wins {points}", side=side, points=number(result.points))
    return how + joined + gettext("{side} win {points}", side=side, points=number(result.points))
