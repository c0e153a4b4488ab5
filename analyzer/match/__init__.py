"""Matches: a record whose games carry ``Game`` tags is validated as one match.

For each game the validator works out who must lead it (from the variant's lead policy, the last
game's result and the match score), replays it with that requirement, adds its result to the
running score and checks the score the record states after it (``[Score "A/C 46, B/D 10"]``).
It says when the match is over and who won it.

``random_match`` plays random legal matches of any variant: the conformance test replays them."""
from __future__ import annotations

import itertools
import random
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable, NamedTuple

from ..diagnostics import Diagnostic
from ..i18n import N_, decimal, gettext, ngettext, number
from ..record import Game, Record, clip
from ..replay import MatchTerms, Replay, replay, resolve_variant
from ..replay.result import compare_result, result_sentence
from ..record import StatedResult
from ..rules.hints import lead_hints, score_hint
from ..rules.lead import drawn_requirement, forced_tile, holder_tile
from ..rules import HandResult, LeadRequirement, MatchState, SeatDraw, Variant, find_variant
from ..rules.kozel import FenceError, KozelMatch
from ..rules.matchplay import parse_clock, seat_now, settlement
from ..rules.codes import Code
from ..rules.modes import MatchKind

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["MatchEntry", "MatchReport", "PossibleResult", "PossibleResults", "possible_results", "replay_match",
           "stream_match",
           "check_decided_result", "SheetBudget", "SHEET_STEPS", "SHEET_GAME_STEPS", "SHEET_SECONDS",
           "next_requirement", "parse_score", "score_text", "score_range", "score_before",
           "ScoreContradiction", "opens_match", "progression_seats", "same_deals", "random_match", "random_hand",
           "SEAT_NAMES"]


@dataclass
class MatchEntry:
    """The match after one game: the running score, and what the rules made of the game."""

    number: int                      # the game's place in the match, from 1
    lead_rule: str                   # who had to lead it, and why ("" when anyone could)
    result: HandResult | None
    state: MatchState                # the match after this game
    score: str                       # "A/C 46, B/D 10"
    new_match: bool = False          # this game starts a new match (the one before was over)
    before: MatchState | None = None # the match before this game (None: not known, ``how`` says why)
    opens: bool = False              # the first game of its match: led by the rules of the first game
    how: str = ""                    # where ``before`` comes from, or why it is not known
    possible: tuple[MatchState, ...] = ()   # a sheet's match: every match after this game its deals allow, where
    #                                        more than one (``state`` is the first; ``score`` gives each side's range)
    results: tuple[HandResult, ...] = ()    # ... and every result of this game they allow, where more than one
    leads: tuple[LeadRequirement, ...] = ()  # a game not led yet after one whose result the deals leave open: who
    #                                          must lead it in each match they allow, where that differs (each may)

    def as_dict(self) -> dict:
        s = self.state
        out = {"game": self.number, "lead_rule": self.lead_rule, "score": self.score,
               "scores": list(s.scores), "wins": list(s.wins), "over": s.over, "winner": s.winner,
               "drawn": s.drawn, "note": s.note, "new_match": self.new_match}
        if self.possible:
            out["scores_possible"] = [list(p.scores) for p in self.possible]
            out["over_possible"] = sorted({p.over for p in self.possible})
        return out


@dataclass
class MatchReport:
    """Every game of a match replayed, with the running score after each."""

    variant: Variant
    replays: list[Replay]
    entries: list[MatchEntry] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    draw: SeatDraw | None = None         # Domino Whist: the tiles drawn for the seats of the last match

    @property
    def state(self) -> MatchState | None:
        return self.entries[-1].state if self.entries else None

    @property
    def over(self) -> bool:
        return bool(self.state and self.state.over)

    @property
    def settlement(self) -> dict[str, Fraction] | None:
        """Domino Whist: what each person wins (positive) or pays when the match is over (§9-§11); the
        people of a side are the last game's, or the teams drawn for the seats (SeatDraw tag) with five
        or six. None before the end, after a drawn match, or in another variant."""
        last = next((r for r in reversed(self.replays) if len(r.players) == self.variant.players), None)
        return _settlement(self.variant, self.state, last, self.draw)

    @property
    def winner(self) -> str | None:
        s = self.state
        return self.sides[s.winner] if s and s.winner is not None and s.winner < len(self.sides) else None

    def summary(self) -> str:
        s = self.state
        if s is None:
            return "no game of the match could be scored"
        if s.over:
            return f"match over after {s.games} games: " + ("drawn" if s.drawn else f"{self.winner} win") + \
                f" ({self.entries[-1].score})"
        return f"match not over after {s.games} games: {self.entries[-1].score}"


@dataclass(frozen=True)
class PossibleResult:
    """One way a sheet's deals end its game: how (``termination``), the winning side's players (None: a draw) and
    its ``points``, what each side adds to its match score (``scores``, by side name), and in how many of the
    deals looked at (``deals``)."""

    termination: str
    winner: list[str] | None
    points: int
    scores: dict[str, int]
    deals: int


@dataclass(frozen=True)
class PossibleResults:
    """A sheet's game whose deals do not fix its result, or the match score after it (issue 80): every result
    they allow, the likeliest first (``results``), and the match score after the game in each match they allow
    where there are several (``match_scores``, side name -> points). ``drawn``: 0 where every deal the sheet
    allows was looked at; else the results are those of that many deals drawn (too many to list), and others
    may end it otherwise."""

    results: tuple[PossibleResult, ...]
    drawn: int = 0
    match_scores: tuple[dict[str, int], ...] = ()


def possible_results(rep: Replay) -> PossibleResults | None:
    """What the deals of ``rep`` (a sheet) allow where they do not fix its result (what each side scores
    included) or the match score after it; None where they do, or where it has every hand written."""
    variant = rep.variant
    sides = variant.seating.sides
    entry = rep.match if isinstance(rep.match, MatchEntry) else None
    several = len({tuple(o.result.added(sides)) + (o.result.winner, o.result.termination)
                   for o in rep.outcomes}) > 1
    if len(rep.players) != variant.players or not (several or rep.outcomes_drawn or (entry and entry.possible)):
        return None
    names = [variant.side_name(side, rep.players) for side in range(sides)]
    merged: dict[HandResult, int] = {}
    for o in rep.outcomes:
        merged[o.result] = merged.get(o.result, 0) + o.deals
    results = tuple(PossibleResult(r.termination, None if r.winner is None else
                                   [rep.players[p] for p in variant.seating.members(r.winner)], r.points,
                                   dict(zip(names, r.added(sides))), n)
                    for r, n in sorted(merged.items(), key=lambda item: -item[1]))
    scores = tuple(dict(zip(names, s.scores)) for s in entry.possible) if entry is not None else ()
    return PossibleResults(results, rep.outcomes_drawn, scores)


def score_text(variant: Variant, names: tuple[str, ...], scores: tuple[int, ...]) -> str:
    return ", ".join(f"{variant.side_name(side, names)} {v}" for side, v in enumerate(scores))


def score_range(variant: Variant, names: tuple[str, ...], states) -> str:
    """The match scores of ``states`` (the matches a sheet's deals allow) as text, each side's values: one where
    they all agree, else the values (``C 11, 12 or 15``) or, past three, their range (``C 11 to 19``)."""
    parts = []
    for side in range(variant.seating.sides):
        values = sorted({s.scores[side] for s in states})
        if len(values) > 3:
            said = f"{values[0]} to {values[-1]}"
        else:
            said = " or ".join(filter(None, (", ".join(map(str, values[:-1])), str(values[-1]))))
        parts.append(f"{variant.side_name(side, names)} {said}")
    return ", ".join(parts)


def parse_score(text: str) -> dict[frozenset[str], int]:
    """Read a Score tag: ``"A/C 46, B/D 10"`` -> ``{{A, C}: 46, {B, D}: 10}``."""
    out = {}
    for part in text.split(","):
        side, _, value = part.strip().rpartition(" ")
        if not side or not value.lstrip("-").isdecimal():
            raise ValueError(gettext("cannot read the score {stated}; write it as {example}", stated=repr(text),
                                     example='"A/C 46, B/D 10"'))
        out[frozenset(side.strip().split("/"))] = int(value)
    return out


def _claimed(stated: str, names: list[str], after: bool) -> tuple[int, ...]:
    """The points of each side (``names``) a Score or MatchScore tag ``stated`` gives; ValueError with its form."""
    try:
        claimed = parse_score(stated)
    except ValueError:
        raise ValueError(_form(names, after)) from None
    got = [claimed.get(frozenset(name.split("/"))) for name in names]
    if None in got or len(claimed) != len(names):
        raise ValueError(gettext("it does not give the points of this game's {n} sides, {names}", n=len(names),
                                 names=', '.join(names)))
    return tuple(got)


def _form(names: list[str], after: bool) -> str:
    """How to write a Score tag for the sides ``names`` (``after``: the scores after the hand)."""
    example = '"' + ', '.join(f'{name} 0' for name in names) + '"'
    return (gettext("write it as {example} with the scores after the hand", example=example) if after else
            gettext("write it as {example} with the scores before the hand", example=example))


class ScoreContradiction(ValueError):
    """A Score tag that contradicts the hand it follows (less than the hand's own result)."""


#: what a match that is no race of points or bad points counts besides its scores (:func:`score_before`)
_COUNTS = {MatchKind.GAMES: N_("games won"),
           MatchKind.STRAIGHT: N_("wins in a row, and drawn games that raise the next game's worth"),
           MatchKind.CUTTHROAT: N_("games won, all back to 0 once everyone has won one"),
           MatchKind.SHUTOUT: N_("games won, and drawn games that raise the next game's worth")}


def score_before(variant: Variant, rep: Replay, stated: str, after: bool = True) -> MatchState:
    """The match before the hand of ``rep`` from its ``Score`` tag ``stated`` (the score after it, less the hand's
    result), as the match code settles that score (over where a side had reached the target). A race of points or
    bad points, of two sides or of individual players, is its scores; any other match carries more than a Score tag
    says (the games won, a run of wins, drawn games that raise the next game's worth): ``ValueError`` says so, or why
    the tag cannot be read as this game's sides' scores; ``ScoreContradiction`` where it gives a side less than the
    hand's own result."""
    match, sides = variant.match, variant.seating.sides
    if len(rep.players) != variant.players:
        raise ValueError(gettext("its players are not the variant's"))
    if after and rep.result is None:
        raise ValueError(gettext("it is the score after the hand, and the hand's result is not known"))
    if match.kind not in (MatchKind.POINTS, MatchKind.BAD):
        raise ValueError(gettext("the match counts {what}, more than a Score tag says: give the games before the hand "
                                 "in the file, with Game tags", what=gettext(_COUNTS[match.kind])))
    names = [variant.side_name(side, rep.players) for side in range(sides)]
    if isinstance(match, KozelMatch):
        fence = rep.game.tags.get("Fence")
        if fence is None:
            raise ValueError(gettext("a Kozel game keeps each team's fence and the eggs carried, more than a Score tag "
                                     "says: give the games before the hand in the file, with Game tags, or the fences "
                                     "before the hand with the Fence tag ({tag}, {eggs} for eggs carried)",
                                     tag=f'[Fence "{names[0]} 8, {names[1]} 0"]', eggs='"; eggs 26"'))
        claimed = _claimed(stated, names, after)
        return match.before(names, claimed if after else None, fence, rep.result, None if after else claimed)
    try:
        claimed = parse_score(stated)
    except ValueError:
        raise ValueError(_form(names, after)) from None
    added = rep.result.added(sides) if after else (0,) * sides
    scores = []
    for side, name in enumerate(names):
        got = claimed.get(frozenset(name.split("/")))
        if got is None or len(claimed) != sides:
            raise ValueError(gettext("it does not give the points of this game's {n} sides, {names}", n=sides,
                                     names=', '.join(names)))
        if got < added[side]:
            raise ScoreContradiction(gettext("{side} has {score}, less than the {points} the hand gives them",
                                             side=name, score=got, points=added[side]))
        scores.append(got - added[side])
    # the match code settles that score as a hand bringing it from the start would (a side at the target has won)
    return match.apply(match.start(sides), HandResult("blocked", None, 0, 0, tuple(scores)))


def opens_match(rep: Replay) -> bool:
    """Whether ``rep`` is the first hand of its match, led by the rules of the first game: in a match file the
    first game of a match whose start the file holds; alone, a hand that reads as the first game by its forced lead
    (000: "Beim ersten Spiel einer neuen Partie fängt der Spieler mit der [6-6] an und muss diese Doppelsechs
    vorsetzen", ``assumed-first-game``)."""
    entry = getattr(rep, "match", None)
    if entry is not None:
        return bool(entry.opens)
    return any(d.code == Code.ASSUMED_FIRST_GAME for d in rep.diagnostics)


def next_requirement(variant: Variant, prev: Replay | None, state: MatchState, names: tuple[str, ...],
                     same_match: bool = True) -> LeadRequirement | None:
    """Who must lead the next game, given the last one and the match so far (seats of ``names``);
    ``same_match`` False: the next game starts the next match of a progression (§12), at new seats."""
    if prev is None or prev.result is None or len(prev.players) != variant.players:
        return None         # nothing to go by (a game whose players do not fit the variant)
    prev_leader = prev.initial.turn
    req = variant.lead.requirement(prev_leader, prev.result, prev.facts, variant.seating,
                                   variant.match.lead(state, variant.seating))
    if (req.seats is not None or req.holder_of is not None) and variant.people == variant.players:
        # who would lead under another value of a lead option: a lead error names it (rules/hints.py)
        # (the seats of the last game, by name, in this game's order)
        req = replace(req, otherwise=tuple(
            (option, frozenset(names.index(prev.players[s]) for s in others if prev.players[s] in names), why)
            for option, others, why in lead_hints(variant, prev_leader, prev.result, prev.facts, state)))
    if req.seats is None:
        return req
    if variant.people > variant.players and same_match:
        moved = _by_seat(variant, prev.players, names, req)
        if moved is not None:
            return moved
    # the seats of the last game, by name, in this game's order
    seats, reason = set(), req.reason
    for s in req.seats:
        if s >= len(prev.players):
            continue
        if prev.players[s] in names:
            seats.add(names.index(prev.players[s]))
        elif variant.people > variant.players and same_match:
            # Domino Whist for five or six (§10, §11): he pauses this game, and the player who comes back
            # takes his seat, opposite his partner of the last game
            (partner,) = (prev.players[p] for p in variant.seating.partners_of(s))
            if partner in names:
                seats.update(variant.seating.partners_of(names.index(partner)))
                reason = reason + gettext("; {player} pauses this game, so the player in that seat leads",
                                          player=prev.players[s])
    return replace(req, seats=frozenset(seats), reason=reason)


def open_requirements(variant: Variant, prev: Replay, names: tuple[str, ...]) -> tuple[LeadRequirement, ...]:
    """Who must lead the game after ``prev``, a sheet whose deals leave its result open (``Replay.outcomes``), in
    each match they allow (:func:`next_requirement` of each way they end it, from the match before it), each once;
    empty where its result is fixed or the match before it is not known."""
    entry = prev.match if isinstance(prev.match, MatchEntry) else None
    if entry is None or entry.before is None or prev.result is not None or len(prev.players) != variant.players:
        return ()
    out: dict[LeadRequirement, None] = {}
    for o in prev.outcomes:
        state = variant.match.apply(entry.before, o.result)
        req = next_requirement(variant, _Prev(prev.players, o.result, o.facts, prev.initial.turn), state, names)
        if req is not None and not state.over:
            out.setdefault(req, None)
    return tuple(out)


def _by_seat(variant: Variant, last: tuple[str, ...], names: tuple[str, ...], req: LeadRequirement
             ) -> LeadRequirement | None:
    """Domino Whist for five (§5, §10): the lead goes round the table's seats, so the seat the rules
    name leads, whoever sits in it now (the trio change places as they come and go). None: the
    tables cannot be tied by a pair who kept their places (see :func:`~analyzer.rules.matchplay.seat_now`)."""
    seats, reason = set(), req.reason
    for s in req.seats:
        now = seat_now(last, names, s, variant.seating)
        if now is None:
            return None
        seats.add(now)
        if last[s] not in names:
            reason = reason + gettext("; {player} pauses this game, so {leader}, in that seat, leads",
                                      player=last[s], leader=names[now])
        elif names[now] != last[s]:
            reason = reason + gettext("; the lead goes round the seats (§5), and {leader} now sits where {player} sat",
                                      leader=names[now], player=last[s])
    return replace(req, seats=frozenset(seats), reason=reason)


def _deal_again(game: Game, played: tuple | None, variant: Variant, source: str, insert_passes: bool,
                state: MatchState) -> Replay:
    """A game tagged ``[Deal "same"]`` in a match (its hands filled by :func:`same_deals`): led as the game
    it plays again, from the match before it, and another line of play, so it does not count in the match."""
    req, worth, number, entry = played[1:] if played is not None else (None, 1, 1, None)
    rep = check_decided_result(replay(game, variant, source, terms=MatchTerms(req, worth), insert_passes=insert_passes), DEALS_CHECKED)
    known = entry is None or entry.before is not None
    rep.match = MatchEntry(number, req.reason if req else "", rep.result, state, _shown(variant, rep, state, known),
                           False, entry.before if entry else None, entry.opens if entry else False,
                           entry.how if entry else "no game before it in the file to play again")
    return rep


def same_deals(games: list[Game]) -> tuple[list[Game], dict[int, list[tuple]]]:
    """The games with the hands of each ``[Deal "same"]`` game filled in: the deal of the last game before
    it that has one (000: "Es folgt das Spiel mit der gleichen Steinverteilung aber verschiedenem Spiel").
    Also, by game index, what to say: (severity, message) for that game's ``Deal`` tag."""
    out, notes = [], {}
    dealt: tuple[int, Game] | None = None
    for k, game in enumerate(games):
        if game.tags.get("Deal", "").strip().lower() != "same":
            if game.hands:
                dealt = (k, game)
            out.append(game)
            continue
        if dealt is None:
            notes[k] = [("error", gettext("the Deal tag says \"same\", but no game before it has a deal to play again"))]
            out.append(game)
            continue
        j, first = dealt
        given = {h.player: set(h.tiles or ()) for h in game.hands}
        wrong = [h.player for h in first.hands if h.player in given and given[h.player] != set(h.tiles or ())]
        notes[k] = [("info", gettext("the deal of game {number} of the file played again (Deal \"same\"): another "
                                     "line of play, which does not count in the match", number=j + 1))]
        if wrong:
            notes[k].append(("error", gettext("the Deal tag says \"same\", but {players}'s hand differs from game "
                                              "{number}'s", players=', '.join(wrong), number=j + 1)))
        out.append(replace(game, hands=game.hands or first.hands, players=game.players or first.players))
    return out, notes


def progression_seats(before: tuple[str, ...], after: tuple[str, ...], keeper: str | None = None) -> str | None:
    """Why the seats of the next match of a progression of four (``after``, in play order, each index a
    place at the table) break §12 against those of the last match (``before``; None: they do not): "Die
    Sitzordnung ist durch die Bedingung festgelegt, dass zwei der vier Spieler an ihrem Platz bleiben und
    nur die beiden anderen ihre Plätze tauschen", and "so bleibt derjenige Spieler, welcher beim nächsten
    Einzelspiel die Vorhand hätte, an seinem Platz" (``keeper``: he)."""
    if len(before) != 4 or sorted(before) != sorted(after):
        return None         # other people (said elsewhere)
    # the seats are a circle: the Players tag may list the same table from another seat (a rotation)
    problems = [_progression_moves(before, after[r:] + after[:r], after, keeper) for r in range(4)]
    return None if None in problems else problems[0]


def _progression_moves(before: tuple[str, ...], turned: tuple[str, ...], after: tuple[str, ...], keeper: str | None
                       ) -> str | None:
    """:func:`progression_seats` with the next match's table listed from the seat ``turned`` starts at."""
    moved = [k for k in range(4) if before[k] != turned[k]]
    if len(moved) == 2:     # (two who trade places: the other two stay)
        if keeper is None or keeper not in (before[k] for k in moved):
            return None
        return gettext("{keeper}, who would lead the next game, keeps his place (§12), but the seats go from "
                       "{before} to {after}", keeper=keeper, before=', '.join(before), after=', '.join(after))
    return (gettext("two of the four keep their places and only the other two swap (§12), but the seats go from "
                    "{before} to {after}", before=', '.join(before), after=', '.join(after))
            + (" " + gettext("({players} all move)", players=', '.join(before[k] for k in moved)) if len(moved) > 2
               else " " + gettext("(nobody moves, so the partners stay the same)") if not moved else ""))


def _diag(rep: Replay, code: str, message: str, tag: str | None, severity: str = "error", **details) -> Diagnostic:
    where = rep.game.tag_pos.get(tag) if tag else None
    where = where or rep.game.pos
    return Diagnostic(severity, code, message, where.line or None, where.column or None, rep.source, details)


DEALS_CHECKED = 50_000     # a sheet's deals listed up to this many where they are not counted (inference.count)
OUTCOME_DRAWS = 2_000     # ... and deals drawn for the ways the hand may end (the match follows them)
SHOWN_DRAWS = 20_000       # ... and past that, deals drawn to find one that ends the hand as the record states


def check_decided_result(rep: Replay, limit: int = 1000) -> Replay:
    """A stated result is still checked where the hidden tiles cannot change it: every deal the
    record allows gives the same winner and points (:func:`analyzer.inference.sheet.decided_result`).
    ``rep``, a finished hand whose record hides tiles still held, gets the verdict. A record that does not
    write every hand and has no other error is also checked for a deal that fits it at all
    (:func:`analyzer.inference.sheet.first_contradiction`, the stated result looked at where its deals are
    counted, or listed where at most ``limit``): where none does, the move that leaves none (or the Result tag) is
    the error."""
    if not any(rep.initial.hidden) or (rep.redealt and not rep.steps):
        return rep          # (a deal thrown in, with no moves: it counts for nothing, and no deal is played)
    from ..inference.sheet import decided_result, listing, sheet_result  # (start-up: only a record hiding a hand)

    # the deals listed (or counted) only where a result is there to check: a hand under way that states none (the
    # board's game move by move) needs only some deal that fits its moves (``_check_deals``)
    wanted = rep.outcome is not None or "Result" in rep.game.tags or bool(rep.errors)
    listed = (listing(rep, limit) if wanted and rep.setup_lacks is None and (rep.outcome is not None or rep.valid)
              else None)
    if rep.setup_lacks is None and rep.errors and all(d.details.get("unsure") for d in rep.errors):
        _shown_over(rep, limit, listed)
    if rep.setup_lacks is None and rep.valid:
        _check_deals(rep, limit, listed)
        if not rep.valid:
            return rep
    if rep.outcome is None or rep.result is not None or not any(rep.final.hidden):
        return rep
    tag = rep.game.tags.get("Result")
    try:
        stated = StatedResult.parse(tag) if tag is not None else None
    except ValueError:
        return rep
    if stated is not None and (decided := decided_result(rep, limit, listed)) is not None:
        rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if d.code != Code.UNCHECKED_RESULT]
        problem = compare_result(stated, rep.outcome, decided, rep.variant, rep.players, rep.worth)
        if problem:
            # one error a slip: where the table already shows the Result wrong, the deals say it once more
            if not any(d.code == Code.RESULT_MISMATCH for d in rep.end_diagnostics):
                rep.end_diagnostics.append(_diag(rep, Code.RESULT_MISMATCH, gettext(
                    "the record states \"{stated}\" but {problem} (whatever the tiles it does not show)",
                    stated=stated, problem=problem), "Result"))
                rep.__dict__.pop("diagnostics", None)
            return rep
    # the result of a sheet: the one every deal it allows gives (the running score counts it), else their range
    found = sheet_result(rep, limit, listed)
    if found is not None:
        rep.outcomes, rep.outcomes_drawn = found.outcomes, found.drawn
    elif rep.setup_lacks is None and rep.valid:
        _drawn_outcomes(rep)
    if found is not None and found.result is not None:
        rep.result = found.result
        rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if d.code != Code.UNCHECKED_RESULT]
        said = result_sentence(found.result, found.result, rep.variant, rep.players, ", ", clause=True)
        how = (gettext("{kept} of the {total} deals its moves allow end so: the stated result is checked",
                       kept=number(found.kept), total=number(found.total))
               if stated is not None else gettext("every deal the sheet allows ends {result}: that is the hand's "
                                                  "result", result=said))
        rep.end_diagnostics.append(_diag(rep, Code.DEALS_RESULT, how, "Result" if stated is not None else None,
                                         "info"))
    elif found is not None and found.spans:
        rep.deal_results = found.spans
    rep.__dict__.pop("diagnostics", None)
    return rep


def _shown_over(rep: Replay, limit: int, listed) -> None:
    """A sheet whose moves do not show that its hand is over (the hands it does not show may hold a tile that
    fits): where some deal it allows ends the hand as its Result tag says, the deals show it; that error goes,
    and the result is checked against them (:func:`analyzer.inference.sheet.sheet_result`)."""
    from ..inference.sheet import listing, sampled_result, sheet_result     # (start-up: only a sheet counts)

    listed = listed or listing(rep, limit)
    if listed is None:
        # too many deals to list: one drawn that ends the hand as the record states shows that some deal does
        found = sampled_result(rep, SHOWN_DRAWS)
        if found is not None and found.kept:
            _shown_by_deals(rep, found, found.total, gettext(
                "{kept} of {total} deals drawn from those they allow end it as the record states (too many to list: "
                "the hand's result is not known beyond that)", kept=number(found.kept), total=number(found.total)))
        return
    found = sheet_result(rep, limit, listed)
    if found is None or not found.kept:
        return
    _shown_by_deals(rep, found, found.drawn, gettext("{kept} of the {total} deals they allow end it as the record "
                                                     "states: the stated result is checked",
                                                     kept=number(found.kept), total=number(found.total)))
    if found.result is not None:
        rep.result = found.result


def _shown_by_deals(rep: Replay, found, drawn: int, how: str) -> None:
    """The deals ``found`` (a :class:`~analyzer.inference.sheet.SheetResult`) show that the hand of ``rep`` is over
    as its Result says: their outcomes kept (``drawn``: of how many deals drawn, 0 for all of them), the unsure
    error replaced by the note ``how``."""
    rep.outcomes, rep.outcomes_drawn = found.outcomes, drawn
    rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if not d.details.get("unsure")]
    rep.end_diagnostics.append(_diag(rep, Code.DEALS_RESULT, gettext("the moves do not show that the hand is over, "
                                                                     "but {how}", how=how),
                                     "Result", "info"))
    rep.__dict__.pop("diagnostics", None)


def _drawn_outcomes(rep: Replay) -> None:
    """The ways a sheet whose deals are too many to list ends its hand, from :data:`OUTCOME_DRAWS` deals drawn
    (``Replay.outcomes_drawn``): the match follows them, knowing that others may end it otherwise."""
    from ..inference.sheet import sampled_result     # (start-up: only a sheet counts)

    found = sampled_result(rep, OUTCOME_DRAWS)
    if found is not None and found.kept:
        rep.outcomes, rep.outcomes_drawn = found.outcomes, found.total


def _check_deals(rep: Replay, limit: int, listed=None) -> None:
    """The error of a sheet no deal fits (see :func:`check_decided_result`)."""
    from ..inference import InferenceUnsupported             # (start-up: only a record that hides a hand counts)
    from ..inference.sheet import first_contradiction

    try:
        problem = first_contradiction(rep, limit, listed)
    except InferenceUnsupported:
        return
    if problem is None:
        return
    if problem.step is None:
        rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if d.code != Code.UNCHECKED_RESULT]
        rep.end_diagnostics.append(_diag(rep, Code.RESULT_MISMATCH, str(problem), "Result"))
    else:
        step = next(st for st in rep.steps if st.index == problem.step)
        where = step.entry.pos
        step.diagnostics.append(Diagnostic("error", Code.NO_DEAL, str(problem), where.line or None,
                                           where.column or None, rep.source))
    rep.__dict__.pop("diagnostics", None)


# The work the checks of one record's sheets share (:func:`check_decided_result`; steps of
# :mod:`analyzer.inference.meter`, a state of a counting programme or a deal listed, some 2-5 us each here). A game
# hiding every hand may take a couple of seconds (its count's states, the deals drawn for how its hand ends), and a
# file of many such games as many times that. While the record's checks have taken fewer than SHEET_STEPS, a game gets
# its check in full (bounded by its own limits, so it may end past them); past them each further game gets
# SHEET_GAME_STEPS, which a sheet of a few hundred deals needs (a handless Kozel game 100-1,500, a Domino Whist game
# of five hundreds), and one that needs more is not checked over its deals: an info at its place says so. Steps, not
# seconds: the same games are cut on any machine. SHEET_SECONDS, the CPU seconds the record's checks may take, is only
# a safety net (some four times what SHEET_STEPS and a few hundred cheaper checks cost here) for what the steps do not
# count (a deal drawn, a key's walk back): past it no later game is searched for its deals.
SHEET_STEPS = 2_000_000
SHEET_GAME_STEPS = 20_000
SHEET_SECONDS = 20.0


class SheetBudget:
    """The steps the checks of one record's sheets took so far (``spent``), and the games whose check was cut
    (``cut``, their replays). :meth:`check` is :func:`check_decided_result` within the record's budget."""

    def __init__(self, steps: int | None = None, game_steps: int | None = None, seconds: float | None = None):
        self.steps = SHEET_STEPS if steps is None else steps
        self.game_steps = SHEET_GAME_STEPS if game_steps is None else game_steps
        self.seconds = SHEET_SECONDS if seconds is None else seconds
        self.spent = 0
        self.took = 0.0             # the CPU seconds the checks took (the safety net's)
        self.cut: list[Replay] = []

    def check(self, rep: Replay, limit: int = DEALS_CHECKED) -> Replay:
        """:func:`check_decided_result` of ``rep``, in full while the record's steps last, else within
        ``game_steps``; a check that needs more leaves ``rep`` as replayed, with an info that says which check was
        cut and why (an error the deals would have taken away, that the moves do not show the hand over, said in
        it: no error the check could not confirm). Under a meter of its own caller's (the repair search's) that
        meter bounds it instead."""
        if not any(rep.initial.hidden):
            return check_decided_result(rep, limit)
        from ..inference.meter import StepsSpent, current_meter, metered   # (start-up: only a sheet counts)

        if current_meter() is not None:
            return check_decided_result(rep, limit)
        if self.took >= self.seconds:
            return self._cut(rep, gettext("the record's games before it took the time such checks may take "
                                          "({seconds} s of CPU, a safety net beside their budget of steps)",
                                          seconds=number(round(self.seconds))))
        before = _Before(rep)
        start = time.process_time()
        with metered(float("inf") if self.spent < self.steps else self.game_steps, remember=True) as meter:
            try:
                return check_decided_result(rep, limit)
            except StepsSpent:
                pass
            finally:
                self.spent += meter.spent
                self.took += time.process_time() - start
        before.restore(rep)
        return self._cut(rep, gettext("the record's games before it took the budget of such checks ({steps} steps), "
                                      "and this one needs more than the {game_steps} each later game gets",
                                      steps=number(self.steps), game_steps=number(self.game_steps)))

    def _cut(self, rep: Replay, why: str) -> Replay:
        """``rep`` as replayed, its check over the deals cut for the reason ``why``: the info that says so."""
        self.cut.append(rep)
        unsure = [d for d in rep.end_diagnostics if d.details.get("unsure")]
        rep.end_diagnostics[:] = [d for d in rep.end_diagnostics if not d.details.get("unsure")]
        shown = (" " + gettext("The moves do not show that the hand is over (a hand they do not show may hold a tile "
                               "that could be laid), and no deal was sought that ends it.") if unsure else "")
        rep.end_diagnostics.append(_diag(
            rep, Code.DEALS_CHECK_STOPPED, gettext(
                "the deals this game's moves allow were not searched: {why}. Its moves are checked; whether some deal "
                "fits them, and the winner and points of its Result tag, are not.{shown} A file of this game alone is "
                "checked in full.", why=why, shown=shown), None, "info", steps=self.game_steps, budget=self.steps))
        rep.__dict__.pop("diagnostics", None)
        return rep


class _Before:
    """What :func:`check_decided_result` may change of a replay, as it was before (:meth:`restore` puts it back)."""

    def __init__(self, rep: Replay):
        self.end = list(rep.end_diagnostics)
        self.steps = [len(step.diagnostics) for step in rep.steps]
        self.said = (rep.result, rep.outcomes, rep.outcomes_drawn, rep.deal_results)

    def restore(self, rep: Replay) -> None:
        rep.end_diagnostics[:] = self.end
        for step, n in zip(rep.steps, self.steps):
            del step.diagnostics[n:]
        rep.result, rep.outcomes, rep.outcomes_drawn, rep.deal_results = self.said
        rep.__dict__.pop("diagnostics", None)


MAX_BRANCHES = 2_000     # the matches a sheet's unknown results may have led to, followed at most


class _Branch(NamedTuple):
    """One match a sheet's deals allow so far: the match after the last game (``state``), and that game as the
    lead of the next reads it (``prev``: a :class:`Replay` or :class:`_Prev`, None before the first)."""

    state: MatchState
    prev: object | None


def replay_match(games: list[Game], variant: Variant | str | None = None, source: str = "<record>", *,
                 rules: dict[str, str] | None = None, insert_passes: bool = False) -> MatchReport:
    """Replay ``games`` as one match (and the next match, when one is over and games follow);
    ``insert_passes``: the records leave forced passes out (see :func:`analyzer.replay.replay`).

    A game whose record does not write every hand (a sheet) may end in several ways, as its deals allow
    (:attr:`Replay.outcomes`): the match follows each (``_Branch``), and who leads each game, the Score tags
    and the end of the match are checked against all of them: an error only where none fits."""
    if not games:
        raise ValueError("a match of no game")
    report = None
    for _rep, report in stream_match(games, variant, source, rules=rules, insert_passes=insert_passes):
        pass
    return report


def stream_match(games: Iterable[Game], variant: Variant | str | None = None, source: str = "<record>", *,
                 rules: dict[str, str] | None = None, insert_passes: bool = False, keep: bool = True
                 ) -> Iterator[tuple[Replay, MatchReport]]:
    """:func:`replay_match` a game at a time: each game's replay as soon as it is made (the next game not read
    before), with the report so far. ``keep`` False: the report keeps the last game's replay and entry only, the
    memory the same however many games come (what an import of a long log needs)."""
    games = iter(games)
    first = next(games, None)
    if first is None:
        return
    games = itertools.chain([first], games)
    chosen, diags = resolve_variant(first, variant, rules, source)
    sides = chosen.seating.sides
    state = chosen.match.start(sides)
    branches = [_Branch(state, None)]
    budget = SheetBudget()               # (the checks of the games' deals share it)
    report = MatchReport(chosen, []) if keep else MatchReport(chosen, deque(maxlen=1), deque(maxlen=1))
    prev: Replay | None = None
    number = 0
    first_leader: str | None = None      # who led the first game of the match being played
    draw: SeatDraw | None = None         # Domino Whist: the tiles drawn for the seats (SeatDraw tag)
    draw_problem: Diagnostic | None = None
    further: LeadRequirement | None = None
    part = 1                             # the match's place in a progression (Domino Whist §12)
    played: tuple | None = None          # the last game played: (game, its lead requirement, its worth, number, entry)
    known = True                         # the match before the next game is known (see ``_later_start``)
    drawn = False                        # the matches followed are not every one (some deals drawn, or too many)
    for k, game in enumerate(games):
        if game.tags.get("Deal", "").strip().lower() == "same":
            rep = _deal_again(game, played, chosen, source, insert_passes, state)
            report.replays.append(rep)
            report.entries.append(rep.match)
            yield rep, report
            continue
        names = _names(game)
        ended = [b for b in branches if b.state.over]
        if ended and len(ended) < len(branches):
            # the deals leave open whether the match is over: the game's number says (a 1 starts the next match)
            branches = ended if game.number == 1 else [b for b in branches if not b.state.over]
        state, prev = branches[0]
        # a game numbered 1 after a game whose result the deals do not give starts the next match
        new_match = state.over or (not known and game.number == 1 and bool(report.replays))
        moved = None
        if new_match:
            known, drawn = True, False
            further, (draw, part), moved = _next_match(chosen, prev, state, names, SeatsDrawn(draw, part),
                                                       first_leader)
            state = chosen.match.start(sides)
            prev = None
            branches = [_Branch(state, None)]
            number = 0
        if not report.replays and game.number not in (None, 1):
            number, known = game.number - 1, False      # the file starts later in a match: its score not known yet
        number += 1
        if "SeatDraw" in game.tags and (chosen.irregularities == "whist" or chosen.opening.drawn):
            draw, draw_problem = _seat_draw(game, chosen)
            part = 1
        report.draw = draw
        opening = further
        if opening is None and draw is not None:
            opening = drawn_requirement(chosen, draw, names)     # the highest tile drawn leads the first game
        terms, branches, leads = _terms(chosen, game, branches, number, opening, known, source, insert_passes,
                                        drawn)
        state, prev = branches[0]
        req = terms.lead
        rep = budget.check(replay(game, chosen, source, terms=terms, insert_passes=insert_passes))
        _seat_notes(rep, SeatsDrawn(draw, part), draw_problem, number, moved)
        _file_notes(rep, diags if k == 0 else [], new_match)
        draw_problem = None
        how = gettext("game {number} of the match in the file", number=number)
        if not known:
            before, how = _later_start(chosen, rep, number, bool(report.replays))
            known, state = before is not None, before or state
            branches = [_Branch(state, prev)]
        entry = MatchEntry(number, req.reason if req else "", None, state, "", new_match,
                           state if known else None, number == 1, how, leads=leads)
        played = (game, req, chosen.match.worth(state), number, entry)
        if rep.redealt:
            # the tiles were dealt again: the game counts for nothing and the same player leads the new deal
            rep.end_diagnostics.append(_diag(rep, Code.REDEAL_GAME, gettext("the tiles are dealt again; this game does "
                                                                          "not count"), "Redeal", severity="info"))
            rep.__dict__.pop("diagnostics", None)
            entry.score = _shown(chosen, rep, state, known)
            rep.match = entry
            report.entries.append(entry)
            report.replays.append(rep)
            yield rep, report
            number -= 1
            continue
        if number == 1 and rep.players and len(rep.players) == chosen.players:
            first_leader = rep.players[rep.initial.turn]
        result = rep.result
        if known:
            after, every = _follow(chosen, game, rep, branches)
            drawn = drawn or bool(rep.outcomes_drawn) or not every
            stated = game.tags.get("Score")
            if after and drawn and stated is not None and not any(_score_fits(chosen, rep, stated, b.state)
                                                                    for b, _ in after):
                # the matches followed are those of deals drawn, not every one: a Score tag none of them gives is
                # not an error, and the match after it is not known (the next Score tag gives it again)
                rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, "the Score tag is not checked: the deals of "
                                                 "a game of the match were too many to list, and none of those drawn "
                                                 "gives this score; the match score after it is not known", "Score",
                                                 severity="info"))
                after, known = [], False
                shown = _shown(chosen, rep, state, known)
                branches = [_Branch(state, rep)]
            elif after:
                fits = [b for b, _ in after if _score_fits(chosen, rep, stated, b.state)]
                drawn = drawn and not fits
                picked = next((pair for pair in after if not fits or pair[0] in fits), after[0])
                branches = fits or [b for b, _ in after]
                before, result = picked[1], picked[0].prev.result
                state, shown = _score_game(chosen, game, rep, before, draw, result,
                                           tuple(b.state for b in branches))
                entry.before = before
                if len({b.state for b in branches}) > 1:
                    entry.possible = tuple(dict.fromkeys(b.state for b in branches))
                if len({o.result for o in rep.outcomes}) > 1:
                    entry.results = tuple(dict.fromkeys(o.result for o in rep.outcomes))
                state = branches[0].state
            elif known:
                state, shown = _score_game(chosen, game, rep, state, draw, None)
                branches = [_Branch(state, rep)]
                if rep.result is None and any(rep.initial.hidden) and len(rep.players) == chosen.players:
                    # a sheet whose deals are not listed: the match after it is not known (the next game's
                    # Score tag, less its result, gives it again: ``_later_start``)
                    known = False
        else:
            shown = _shown(chosen, rep, state, known)
            branches = [_Branch(state, rep)]
        if not report.sides and len(rep.players) == chosen.players:
            report.sides = [chosen.side_name(s, rep.players) for s in range(sides)]
        rep.__dict__.pop("diagnostics", None)
        entry.result, entry.state, entry.score = result if not entry.results else None, state, shown
        rep.match = entry
        report.entries.append(entry)
        report.replays.append(rep)
        yield rep, report
        prev = rep


def _terms(chosen: Variant, game: Game, branches: list[_Branch], number: int, opening: LeadRequirement | None,
           known: bool, source: str, insert_passes: bool, drawn: bool = False
           ) -> tuple[MatchTerms, list[_Branch], tuple[LeadRequirement, ...]]:
    """Who must lead game ``number`` and what it is worth, in the matches ``branches`` the deals allow so far, and
    those of them the game's lead fits: where they differ (a sheet's last game ended in several ways), the
    requirement the record's play meets with the fewest errors (the game replayed under each), and the matches
    that give it. ``drawn``: those matches are of some deals drawn, not every one: a lead none of them allows is
    not checked. The third: a game not led yet where the matches differ in who must lead it, every requirement
    they give (each may be the one: the board offers the lead of each), else none."""
    by_terms: dict[MatchTerms, list[_Branch]] = {}
    for branch in branches:
        req = _requirement(chosen, game, branch.prev, branch.state, number, opening)
        if not known and chosen.match.lead(branch.state, chosen.seating) is not None:
            req = LeadRequirement()      # the match score, not known, would decide who leads: not checked
        by_terms.setdefault(MatchTerms(req, chosen.match.worth(branch.state)), []).append(branch)
    if len(by_terms) == 1 and not drawn:
        (terms, kept), = by_terms.items()
        return terms, kept, ()
    errors = {terms: len(replay(game, chosen, source, terms=terms, insert_passes=insert_passes).errors)
              for terms in by_terms}
    least = min(errors.values())
    best = next(terms for terms in by_terms if errors[terms] == least)
    kept = [b for terms in by_terms if errors[terms] == least and terms.worth == best.worth for b in by_terms[terms]]
    leads = tuple(dict.fromkeys(terms.lead for terms in by_terms if terms.lead is not None)) if not game.moves else ()
    if drawn and least:
        # the matches followed are those of some deals drawn: a lead none of them allows may be another's
        free = MatchTerms(LeadRequirement(reason="not checked: the deals of a game before it were too many to "
                                                 "list, and who leads depends on them"), best.worth)
        if len(replay(game, chosen, source, terms=free, insert_passes=insert_passes).errors) < least:
            return free, kept, ()
    return best, kept, leads if len(leads) > 1 else ()


def _follow(chosen: Variant, game: Game, rep: Replay, branches: list[_Branch]
            ) -> tuple[list[tuple[_Branch, MatchState]], bool]:
    """Each match after game ``rep`` that the matches ``branches`` before it and the ways its deals end it allow
    (with the match before it), the likeliest first (none where its result is not known), and whether that is
    every one (False: :data:`MAX_BRANCHES` were followed, and the others left out)."""
    if len(rep.players) != chosen.players:
        return [], True
    if rep.outcomes:
        ends = [(o.result, o.facts) for o in rep.outcomes]
    elif rep.result is not None:
        ends = [(rep.result, rep.facts)]
    else:
        return [], True
    out: dict[tuple, tuple[_Branch, MatchState]] = {}
    for branch in branches:
        for result, facts in ends:
            after = _clocked(chosen, game, chosen.match.apply(branch.state, result))
            if not rep.outcomes:
                key = (after, result)
                last = rep
            else:
                # matches alike in their score and in who leads next are one (the next game reads no more)
                key = (after, chosen.lead.requirement(rep.initial.turn, result, facts, chosen.seating,
                                                      chosen.match.lead(after, chosen.seating)))
                last = _Prev(rep.players, result, facts, rep.initial.turn)
            if key not in out:
                out[key] = (_Branch(after, last), branch.state)
                if len(out) >= MAX_BRANCHES:
                    return list(out.values()), False
    return list(out.values()), True


def _clocked(chosen: Variant, game: Game, state: MatchState) -> MatchState:
    """``state`` once the game's Clock tag is read (quietly: :func:`_timed` says what is wrong with it)."""
    clock = game.tags.get("Clock")
    if clock is None or not chosen.match.minutes:
        return state
    try:
        return chosen.match.timed(state, parse_clock(clock))
    except ValueError:
        return state


def _score_fits(variant: Variant, rep: Replay, stated: str | None, state: MatchState) -> bool:
    """Whether the Score tag ``stated`` (None: none) gives the match score of ``state`` (one it cannot read fits
    every match: :func:`_check_score` says so)."""
    if stated is None:
        return True
    try:
        claimed = parse_score(stated)
    except ValueError:
        return True
    actual = {frozenset(variant.side_name(s, rep.players).split("/")): v for s, v in enumerate(state.scores)}
    return all(actual.get(side) == value for side, value in claimed.items())


class SeatsDrawn(NamedTuple):
    """The seats of a match drawn by tiles (Domino Whist, the SeatDraw tag; ``draw`` None: not drawn) and the match's
    ``part`` in a progression of matches played on that one draw (§12; 1: the first, or no progression)."""

    draw: SeatDraw | None
    part: int = 1


def _names(game: Game) -> tuple[str, ...]:
    """The players of ``game``, seat by seat: its Players tag's, else its hands' players."""
    return tuple(game.players) if game.players else tuple(h.player for h in game.hands)


def _seat_notes(rep: Replay, seats: SeatsDrawn, draw_problem: Diagnostic | None, number: int,
                moved: str | None) -> None:
    """What the match says of the seats of game ``rep`` (``number``): its seats by the tiles drawn (Domino Whist)
    and how the seats moved in a progression."""
    draw, part = seats
    if draw_problem or draw is not None:
        rep.deal_diagnostics.extend(_seat_diagnostics(rep, draw, draw_problem, number, part))
    if moved:
        rep.deal_diagnostics.append(_diag(rep, Code.SEAT_DRAW, gettext("§12, match {part} of the progression",
                                                                        part=part) + f": {moved}", "Players"))


def _file_notes(rep: Replay, first: list[Diagnostic], new_match: bool) -> None:
    """What the file says of game ``rep``: its own problems (``first``, on its first game) and that the game starts
    a new match."""
    rep.deal_diagnostics[:0] = first
    if new_match:
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_OVER, gettext("the match before was already over; this game "
                                                                       "starts a new match"), "Game", severity="info"))


def _shown(variant: Variant, rep: Replay, state: MatchState, known: bool) -> str:
    """The match score after ``rep`` as text ("not known" where the file does not give it)."""
    if not known:
        return "not known"
    return score_text(variant, rep.players, state.scores) if len(rep.players) >= variant.players else ""


def _later_start(variant: Variant, rep: Replay, number: int, after_games: bool = False
                 ) -> tuple[MatchState | None, str]:
    """A file that starts later in a match (its first game tagged ``[Game "N"]``, N > 1): the match before game
    ``number`` (``rep``) is its ``Score`` tag less the hand's result (:func:`score_before`), else not known
    (None), never the start of a match: where it comes from or why it is not known. Where the Score tag
    contradicts the hand (less than its own result), an error at the tag. ``after_games``: games of the file come
    before it, whose match was not known either."""
    stated = rep.game.tags.get("Score")
    if stated is None:
        head = (gettext("game {number}, with no Score tag, after games of the file whose match score is not known",
                        number=number) if after_games else
                gettext("game {number} of a match with no game before it in the file and no Score tag",
                        number=number))
        rep.end_diagnostics.append(_diag(
            rep, Code.MATCH_NOTE, gettext("{head}: the match score before it is not known, so the running score is not "
                                          "kept and the hand is graded in points only; give the score after the hand "
                                          "({example}) or the games before it", head=head,
                                          example='[Score "A/C 46, B/D 10"]'), "Game",
            severity="info"))
        return None, gettext("no match position: game {number} of a match, and neither the games before it nor a "
                             "Score tag are in the file", number=number)
    try:
        before = _sheet_score_before(variant, rep, stated)
    except ScoreContradiction as exc:
        rep.end_diagnostics.append(_diag(rep, Code.SCORE_MISMATCH, gettext("the Score tag \"{stated}\" cannot follow "
                                                                           "this hand: {reason}", stated=stated,
                                                                           reason=exc), "Score"))
        return None, gettext("no match position from the Score tag {stated}: {reason}", stated=repr(stated),
                             reason=exc)
    except FenceError as exc:
        rep.end_diagnostics.append(_diag(rep, Code.SCORE_SYNTAX if exc.unreadable else Code.SCORE_MISMATCH, str(exc),
                                         "Fence"))
        return None, gettext("no match position from the Score and Fence tags: {reason}", reason=exc)
    except ValueError as exc:
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, gettext("the match score before this game is not known "
                                                                       "from the Score tag alone: {reason}",
                                                                       reason=exc), "Score", severity="info"))
        return None, gettext("no match position from the Score tag {stated}: {reason}", stated=repr(stated),
                             reason=exc)
    return before, gettext("the Score tag (the score after the hand, less the hand's result)")


def _sheet_score_before(variant: Variant, rep: Replay, stated: str) -> MatchState:
    """:func:`score_before`, for a sheet whose deals end its hand in several ways (what each side scores differs)
    from the first of them that the Score tag can follow (``ScoreContradiction`` only where none can)."""
    results = list(dict.fromkeys(o.result for o in rep.outcomes)) if rep.outcomes else [rep.result]
    for k, result in enumerate(results):
        try:
            return score_before(variant, replace(rep, result=result) if result is not rep.result else rep, stated)
        except ScoreContradiction:
            if k == len(results) - 1:
                raise
    raise ValueError("the hand's result is not known")


def _next_match(chosen: Variant, last: Replay | None, ended: MatchState, names: tuple[str, ...], seats: SeatsDrawn,
                first_leader: str | None) -> tuple[LeadRequirement | None, SeatsDrawn, str | None]:
    """A game after the match ``ended`` starts the next one: who leads its first game (None: the
    lead policy's first game), the seats it keeps (the seat draw, None: drawn again; the match's place in a
    progression) and how the seats moved (Domino Whist §12)."""
    further = moved = None
    draw, part = seats
    progression = chosen.option("progression") == "yes" and chosen.people in (4, 5)
    seated = len(names) == chosen.players
    if progression and draw is not None:
        part += 1                # the next match of the progression: the same draw, new partners
        if last is not None and seated:
            nxt = next_requirement(chosen, last, ended, names, same_match=False) or LeadRequirement()
            if chosen.people == 4:
                keeper = [names[s] for s in nxt.seats or ()]
                moved = progression_seats(last.players, names, keeper[0] if len(keeper) == 1 else None)
            # five: when he pauses this match the text does not say who leads (anyone may)
            further = LeadRequirement(nxt.seats or None, reason="§12: the player who would lead the next "
                                      "game keeps that place and leads the first game of the next match"
                                      if nxt.seats else "")
    else:
        draw, part = None, 1     # a further match draws for its seats again
        if first_leader in names and seated:
            further = chosen.lead.further_match(names.index(first_leader), chosen.players)
    return further, SeatsDrawn(draw, part), moved


def _requirement(chosen: Variant, game: Game, prev: Replay | None, state: MatchState, number: int,
                 opening: LeadRequirement | None) -> LeadRequirement | None:
    """Who must lead game ``number`` of the match (None: the record's lead is not checked against one); ``opening``:
    who leads the first game of this match, where something other than the lead policy says it (a further
    match's first game, the highest tile drawn for the seats)."""
    names = _names(game)
    req = next_requirement(chosen, prev, state, names) if len(names) == chosen.players else None
    if req is None and number == 1:
        if opening is not None:
            req = opening            # a further match's first game, or the seats drawn
        elif game.number not in (None, 1):
            req = LeadRequirement()      # an excerpt that starts later in a match
    return req


def _score_game(chosen: Variant, game: Game, rep: Replay, before: MatchState, draw: SeatDraw | None,
                result: HandResult | None, possible: tuple[MatchState, ...] = ()) -> tuple[MatchState, str]:
    """The match after game ``rep`` (the match ``before`` it, and its ``result``: one of those its deals allow,
    a sheet's) and its score as text (each side's range over the matches ``possible`` after it, where they
    differ); the game's notes on the match (its stated score checked, the match over, the settlement)."""
    state = before
    if result is not None and len(rep.players) == chosen.players:
        state = _timed(chosen, game, rep, chosen.match.apply(before, result))
    elif rep.players:
        spans = rep.deal_results
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_UNSCORED, gettext(
            "the result of this game is not known (the deals the sheet allows end {results}), so the match score after "
            "it is not known (a later game's Score tag gives it again)", results=gettext("; or ").join(spans))
            if spans else gettext("the result of this game is not known, so the match score after it is not known (a "
                                  "later game's Score tag gives it again)"), None, severity="warning"))
    shown = score_text(chosen, rep.players, state.scores) if len(rep.players) >= chosen.players else ""
    if len(set(possible)) > 1 and shown:
        shown = score_range(chosen, rep.players, possible)
    _read_result(chosen, game, rep, before)
    stated = game.tags.get("Score")
    if stated is not None and result is not None:
        _check_score(rep, stated, state, chosen, before, possible)
    if state.note:
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, state.note, None, severity="info"))
    ends = [p for p in possible if p.over]
    if ends and len(ends) < len(set(possible)):
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, gettext("the match may be over: {ends} of the {total} "
                                                                       "match scores the deals allow end it ({score})",
                                                                       ends=len(ends), total=len(set(possible)),
                                                                       score=shown), None,
                                         severity="info"))
    elif state.over:
        who = (gettext("drawn") if state.drawn else
               gettext("won by {side}", side=chosen.side_name(state.winner, rep.players)))
        if len({(p.winner, p.drawn) for p in possible}) > 1:
            who = gettext("its winner not known, as the deals allow")
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_END, gettext("the match is over: {who} ({score})", who=who,
                                                                      score=shown), None, severity="info"))
        paid = _settlement(chosen, state, rep, draw)
        if paid:
            text = ", ".join(f"{name} {'+' if v > 0 else ''}{_amount(v)}" for name, v in paid.items())
            rep.end_diagnostics.append(_diag(rep, Code.SETTLEMENT, gettext("the settlement (§9-§11): {payments}",
                                                                           payments=text), None,
                                             severity="info", settlement={name: str(v) for name, v in paid.items()}))
    return state, shown


def _read_result(chosen: Variant, game: Game, rep: Replay, before: MatchState) -> None:
    """Where the match lets a Result tag state a hand's points two ways (Kozel: the charge, or with the eggs
    carried), an info at the tag saying which it was read as."""
    if rep.result is None or not rep.valid:
        return
    try:
        stated = StatedResult.parse(game.tags.get("Result", ""))
    except ValueError:
        return
    reading = chosen.match.stated_reading(stated.points if stated else None, rep.result, chosen.match.worth(before))
    if reading:
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, reading, "Result", severity="info"))


def _timed(chosen: Variant, game: Game, rep: Replay, state: MatchState) -> MatchState:
    """The match after the hand of ``rep`` once its ``Clock`` tag (the time played in the match when the hand
    ended) is read: over on time where the variant's match has a time limit that ran out (``MatchScoring.timed``)."""
    clock = game.tags.get("Clock")
    if clock is None:
        return state
    if not chosen.match.minutes:
        rep.end_diagnostics.append(_diag(rep, Code.MATCH_NOTE, gettext(
            "the Clock tag is not read: this match has no time limit (a match of 150 points or 30 minutes, as in "
            "Brasília, is {rules} or {variant})", rules='[Rules "minutes=30"]', variant='[Variant "brasilia"]'),
            "Clock", severity="info"))
        return state
    try:
        return chosen.match.timed(state, parse_clock(clock))
    except ValueError as exc:
        rep.end_diagnostics.append(_diag(rep, Code.CLOCK_SYNTAX, str(exc), "Clock"))
        return state


def _settlement(variant: Variant, s: MatchState | None, last: Replay | None, draw: SeatDraw | None
                ) -> dict[str, Fraction] | None:
    if (s is None or not s.over or s.winner is None or variant.irregularities != "whist"
            or variant.seating.sides != 2 or last is None or len(last.players) != variant.players):
        return None
    sides = [tuple(last.players[p] for p in variant.seating.members(side)) for side in (0, 1)]
    if draw is not None and draw.progression:         # a progression's match is one of two pairs (§9)
        return settlement(s.scores, s.winner, tuple(sides), 4)
    if draw is not None and variant.people > 4:       # five or six: the teams, not only who played last
        high, low = draw.teams()
        sides = [high, low] if sides[0][0] in high else [low, high]
    return settlement(s.scores, s.winner, tuple(sides), variant.people)


def _amount(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else decimal(float(v))


def _seat_draw(game: Game, variant: Variant) -> tuple[SeatDraw | None, Diagnostic | None]:
    """The SeatDraw tag read (None and the problem when it cannot be)."""
    where = game.tag_pos.get("SeatDraw", game.pos)
    try:
        draw = SeatDraw.parse(game.tags["SeatDraw"], variant.option("seat-lead", "highest"),
                              variant.option("progression") == "yes" and variant.people in (4, 5))
    except ValueError as exc:
        return None, Diagnostic("error", Code.BAD_SEAT_DRAW, str(exc), where.line or None, where.column or None)
    if len(draw.tiles) != variant.people:
        return None, Diagnostic("error", Code.BAD_SEAT_DRAW, gettext("the SeatDraw tag names {n} people; this match "
                                                                     "has {people}", n=len(draw.tiles),
                                                                     people=variant.people),
                                where.line or None, where.column or None)
    return draw, None


def _seat_diagnostics(rep: Replay, draw: SeatDraw | None, problem: Diagnostic | None, number: int, part: int = 1
                      ) -> list[Diagnostic]:
    """Domino Whist §3, §10, §11: the game's players sit and sit out as the tiles drawn say."""
    if problem is not None:
        return [replace(problem, source=rep.source)]
    out = []
    players = rep.players
    strangers = [p for p in players if p not in draw.names]
    if strangers:
        return [_diag(rep, Code.BAD_SEAT_DRAW, gettext("{players} drew no tile in the SeatDraw tag ({names})",
                                                       players=', '.join(strangers), names=', '.join(draw.names)),
                      "Players")]
    if rep.variant.irregularities != "whist":
        return out          # a draw for the lead alone (Opening.drawn): the seats are not drawn
    out_now = draw.sitting_out(number, part)
    wrong = [p for p in out_now if p in players]
    if wrong and draw.progression:
        pairs = " vs ".join("-".join(pair) for pair in draw.teams(part))
        out.append(_diag(rep, Code.SIT_OUT, gettext("{player} pauses match {part} of the progression (§12, five "
                                                    "players: {pairs}), but plays", player=out_now[0], part=part,
                                                    pairs=pairs), "Players", expected=list(out_now)))
    elif wrong:
        high, low = draw.teams()
        words = {"out": gettext(" and ").join(out_now), "game": number, "high": ', '.join(high),
                 "low": ', '.join(low), "wrong": ', '.join(wrong)}
        out.append(_diag(rep, Code.SIT_OUT, ngettext(
            "{out} sits out game {game} of the match (§10/§11: the tiles drawn decide who pauses in turn; the high "
            "team {high}, the low team {low})", "{out} sit out game {game} of the match (§10/§11: the tiles drawn "
            "decide who pauses in turn; the high team {high}, the low team {low})", len(out_now), **words)
            + ngettext(", but {wrong} plays", ", but {wrong} play", len(wrong), **words), "Players",
            expected=list(out_now)))
    # (the seats are the variant's: a game naming more players has its own error, ``players``)
    seats = draw.seat_problem(players, rep.variant.seating, part) if len(players) == rep.variant.players else None
    if seats:
        rule = gettext("§12, match {part} of the progression", part=part) if part > 1 else "§3"
        out.append(_diag(rep, Code.SEAT_DRAW, f"{rule}: {seats}", "Players"))
    return out


def _check_score(rep: Replay, stated: str, state: MatchState, variant: Variant, before: MatchState | None = None,
                 possible: tuple[MatchState, ...] = ()) -> None:
    try:
        claimed = parse_score(stated)
    except ValueError:
        example = score_text(variant, rep.players, (46, 10) + (0,) * (variant.seating.sides - 2))
        rep.end_diagnostics.append(_diag(rep, Code.SCORE_SYNTAX, gettext(
            "cannot read the score {stated}; write it as \"{example}\" (this game's players)",
            stated=repr(clip(stated)), example=example), "Score"))
        return
    actual = {frozenset(variant.side_name(s, rep.players).split("/")): v for s, v in enumerate(state.scores)}
    for side, value in claimed.items():
        if side not in actual:
            rep.end_diagnostics.append(_diag(rep, Code.SCORE_MISMATCH, gettext(
                "the Score tag names {side}, which is not a side of this game ({sides})", side='/'.join(sorted(side)),
                sides=', '.join('/'.join(sorted(s)) for s in actual)), "Score"))
        elif actual[side] != value:
            names = [frozenset(variant.side_name(s, rep.players).split("/")) for s in range(len(state.scores))]
            if len(set(possible)) > 1:
                # a sheet whose deals leave the score open: none of the scores they allow is the stated one
                ranges = score_range(variant, rep.players, possible)
                rep.end_diagnostics.append(_diag(rep, Code.SCORE_MISMATCH, gettext(
                    "the record states the match score \"{stated}\" but after this game it is {ranges} (the {n} scores "
                    "the deals the sheet allows give: none is the stated one)", stated=stated, ranges=ranges,
                    n=len(set(possible))), "Score"))
                return
            hint = "" if before is None or rep.result is None else score_hint(
                variant, before, rep.result, lambda scores: all(claimed.get(n) in (None, v) for n, v in zip(names, scores)),
                facts=rep.facts)
            rep.end_diagnostics.append(_diag(rep, Code.SCORE_MISMATCH, gettext(
                "the record states the match score \"{stated}\" but after this game it is {score}", stated=stated,
                score=score_text(variant, rep.players, state.scores)) + hint, "Score",
                                             expected=score_text(variant, rep.players, state.scores)))
            return


# -- random legal matches ---------------------------------------------------------------------
def random_match(variant: Variant | str | None = None, seed: int = 0, games: int = 6,
                 stop_at_end: bool = True) -> Record:
    """A random legal match of ``variant``: up to ``games`` games (fewer when the match ends), each with
    Game, Lead, Result and Score tags."""
    from ..generate import SEAT_NAMES, random_hand      # (start-up: validate generates nothing)

    variant = variant if isinstance(variant, Variant) else find_variant(variant)
    rng = random.Random(seed)
    names = SEAT_NAMES[:variant.players]
    state = variant.match.start(variant.seating.sides)
    out = Record(source=f"<random {variant.name} match {seed}>")
    prev = None
    draw = _random_draw(variant, rng, names) if variant.opening.drawn else None
    for k in range(1, games + 1):
        op = variant.opening
        holder = holder_tile(op, 1)
        req = LeadRequirement(holder_of=holder, tile=forced_tile(op, 1)) if holder else None
        if draw is not None and k == 1:
            req = drawn_requirement(variant, draw, names)      # the highest tile drawn leads the first game
        if prev is not None:
            prev_game, prev_facts, prev_result = prev
            fake = _Prev(names, prev_result, prev_facts, names.index(prev_game.tags["Lead"]))
            req = next_requirement(variant, fake, state, names)
        game, facts, result = random_hand(variant, rng, req, names)
        game.tags = {"Event": f"random {variant.name} match {seed}", "Game": str(k), **game.tags}
        if draw is not None and k == 1:
            game.tags["SeatDraw"] = ", ".join(f"{name} {tile}" for name, tile in draw.tiles)
        state = variant.match.apply(state, result)
        game.tags["Score"] = score_text(variant, names, state.scores)
        out.games.append(game)
        prev = (game, facts, result)
        if state.over and stop_at_end:
            break
    return out


def _random_draw(variant: Variant, rng: random.Random, names: tuple[str, ...]) -> SeatDraw:
    """A tile drawn by each player for the first lead (``Opening.drawn``), as the SeatDraw tag gives it."""
    tiles = rng.sample(list(variant.dealing.tiles), len(names))
    return SeatDraw(tuple(zip(names, tiles)))


class _Prev:
    """The little of a replay that ``next_requirement`` reads, for a generated game."""

    def __init__(self, players, result, facts, leader):
        self.players = players
        self.result = result
        self.facts = facts

        class _Initial:
            turn = leader
        self.initial = _Initial()


def _alone(game: Game, variant: Variant | str | None, source: str, rules: dict[str, str] | None,
           insert_passes: bool, sheets: bool = True, budget: SheetBudget | None = None) -> Replay:
    """A game replayed on its own (no Game tags). One that reads as the first game of a match by its lead (the
    first game's forced tile led: ``assumed-first-game``) is replayed again with the lead free where its Score tag
    puts it after the start of a match (the score before it, the tag less the hand's result, not 0 for every side):
    000, "Bei den folgenden Spielen ... kann mit jedem beliebigen Stein das Spiel eröffnen", so that lead was a
    choice, and the rules of a later game (the match, which the record does not give) decide who leads.
    ``sheets`` False: a game that hides tiles is replayed move by move only (no deal is looked for). ``budget``: the
    record's, which the checks of its deals take from (:class:`SheetBudget`; None: one of its own)."""
    budget = budget or SheetBudget()
    rep = replay(game, variant, source, rules=rules, insert_passes=insert_passes)
    if not sheets:
        return rep
    rep = budget.check(rep)
    stated = game.tags.get("Score")
    if stated is None or not opens_match(rep):
        return rep
    try:
        before = score_before(rep.variant, rep, stated)
    except ValueError:
        return rep
    if not any(before.scores):
        return rep
    later = LeadRequirement(reason=gettext("the Score tag puts this game after the start of a match"))
    again = budget.check(replay(game, variant, source, rules=rules, terms=MatchTerms(later),
                                insert_passes=insert_passes))
    tile = rep.variant.opening.first_game_tile
    again.deal_diagnostics.append(_diag(
        again, Code.MATCH_NOTE, gettext("the Score tag puts this game after the start of a match (the score before it "
                                        "{score}), so it is no first game: {tile} was led by choice, not as the first "
                                        "game's forced lead, and who leads is not checked (the match decides it)",
                                        score=score_text(rep.variant, rep.players, before.scores), tile=tile), "Score",
        severity="info", rule="lead"))
    again.__dict__.pop("diagnostics", None)
    return again


def replay_record(record, variant: Variant | str | None = None, *, rules: dict[str, str] | None = None,
                  match: bool | None = None, insert_passes: bool = False, sheets: bool = True,
                  progress: Callable[[int, int], None] | None = None) -> list[Replay]:
    """Replay every game of a record; each notation error goes to the game whose text holds it.

    A record that holds a match (its games carry ``Game`` tags) is validated as one (see
    :mod:`analyzer.match`): who leads each game and the running score; ``match=False`` skips that.
    ``insert_passes``: the record leaves forced passes out (as the tag ``[Passes "omitted"]`` says).
    ``sheets`` False: the games of a record that is no match, where they hide tiles, are checked move by move
    only (:func:`check_decided_result`'s search of their deals left out: what an import needs, and far cheaper).
    ``progress(done, total)`` is told after each game replayed.

    The end game of :func:`analyzer.notation.parse`'s example: Ann lays [1-4] on the 4, Bob lays [1-3] on the 1 and
    is out, and scores the 12 pips left in Ann's hand ([6-6])::

    >>> from analyzer.notation import parse
    >>> record = parse('''[Variant "block"] [Players "Ann, Bob"] [SetUp "1"] [Ends "4 6"] [OnTable "11"]
    ... [ToMove "Ann"]
    ... Ann: [1-4] [6-6]
    ... Bob: [1-3]
    ... 1. Ann [1-4] Bob [1-3]''', "endgame.dom")
    >>> replay, = replay_record(record)
    >>> replay.valid, [str(step.move) for step in replay.steps], replay.steps[-1].ends_hand
    (True, ['[1-4]@4', '[1-3]@1'], True)
    >>> replay.result.winner, replay.result.points
    (1, 12)
    """
    games, again = same_deals(record.games)
    if match is None:
        match = any(g.number is not None or "SeatDraw" in g.tags for g in games)
    if match and games:
        replays = replay_match(games, variant, record.source, rules=rules, insert_passes=insert_passes).replays
        if progress is not None:
            progress(len(games), len(games))
    else:
        replays = []
        budget = SheetBudget()          # (the checks of the games' deals share it)
        for g in games:
            replays.append(_alone(g, variant, record.source, rules, insert_passes, sheets, budget))
            if progress is not None:
                progress(len(replays), len(games))
        for game, rep in zip(games, replays):
            if game.tags.get("Score") is not None:
                rep.end_diagnostics.append(_diag(
                    rep, Code.UNCHECKED_SCORE, "the Score tag is not checked: the record does not say which game of "
                    "the match this is; give every game its [Game \"N\"] tag (the games of the match from the "
                    "first) to have the running score checked", "Score", severity="info", rule="score"))
    for k, said in again.items():
        for severity, message in said:
            replays[k].deal_diagnostics.append(_diag(replays[k], Code.DEAL_AGAIN, message, "Deal", severity=severity))
        replays[k].__dict__.pop("diagnostics", None)
    starts = [g.pos.line or 0 for g in games]
    for diag in record.errors:
        k = 0
        for j, start in enumerate(starts):
            if diag.line is not None and start <= diag.line:
                k = j
        if replays:
            replays[k].notation.append(diag)
            replays[k].__dict__.pop("diagnostics", None)
    if not replays:
        empty = replay(Game(), variant, record.source, rules=rules)
        empty.notation.extend(record.errors)
        empty.deal_diagnostics.clear()
        empty.end_diagnostics[:] = [Diagnostic("error", Code.NO_GAME, gettext(
            "no game found: a record needs a deal (\"A: [0-5] ...\") or a move list"), None, None, record.source)]
        replays.append(empty)
    return replays


def __getattr__(name: str):
    """The generator's names this package gives too (:mod:`analyzer.generate`), loaded when first asked for
    (start-up: ``validate`` generates nothing)."""
    if name in ("random_hand", "SEAT_NAMES"):
        from .. import generate

        return getattr(generate, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
