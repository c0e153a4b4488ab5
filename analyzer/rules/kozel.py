"""Kozel (Козёл, "the goat"), the partnership block game of Russia and Ukraine (issue 56, item 1).

The rules as the public specification of the app that recorded the games states them (issue 56 gives them in
its words; docs/variants.md in ours, with the published descriptions they agree with): four players, pairs 1+3
and 2+4, the double-six, 7 tiles each, no boneyard; a new deal when a hand holds five doubles or more, or six
tiles or more of one number. The [1-1] holder leads the first round with it, and every round while both records
are 0; after that the player who went out, or after a block (a "fish") the player who laid the last tile that is
no double before it ("the fisher"), leads any tile. A hand counts its pips, but [0-0] alone counts 10. Penalties
bring a team nearer to losing: after a domino the other team is charged its remainder; after a fish the higher
remainder loses and is charged it (equal: "eggs", the sum carried to the next loser), or without eggs each team
is charged its own and nobody wins. A team whose record is 0 puts a charge below 13 "on the fence" instead;
13 or more opens its record with the fence added; winning a round clears the winner's fence. The team whose
record reaches the limit (101, or 50) loses; without eggs, both at once: the higher loses, equal is a draw.

The hand is scored by :class:`KozelScoring` (bad points: a team's charge), a fish decided by
:class:`KozelBlock`, the next leader by :class:`KozelLead`, the match (records, fences, eggs carried, the
limit) by :class:`KozelMatch`, all subclasses of the common policies so the rest of the tool asks them as it
asks any variant."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..i18n import gettext
from ..tiles import Tile
from .facts import HandFacts, HandResult
from .matchplay import MatchScoring, MatchState
from .modes import MatchKind, Termination
from .policies import DOUBLE_BLANK, Dealing, LeadPolicy, LeadRequirement, Opening, PointScoring, Seating

__all__ = ["ONE_ONE", "FENCE", "EGGS", "remainders", "parse_fence", "FenceError", "KozelBlock", "KozelScoring", "KozelLead", "KozelMatch", "fisher"]

ONE_ONE = Tile(1, 1)
FENCE = 13          # a charge below this, to a team whose record is 0, goes on the fence
EGGS = "eggs"       # the bonus a fish with equal remainders names (``HandResult.bonuses``): their sum


def remainders(facts: HandFacts, seating: Seating) -> list[int]:
    """Each team's remainder: the pips left in its hands, a hand holding [0-0] alone counting 10."""
    out = [0] * seating.sides
    for seat, pips in enumerate(facts.pips):
        if facts.hands is not None and facts.hands[seat] == DOUBLE_BLANK.bit:
            pips = 10
        out[seating.teams[seat]] += pips
    return out


@dataclass(frozen=True, slots=True)
class KozelBlock:
    """A fish: the team with the lower remainder wins (equal: nobody, "eggs"); ``eggs`` False: nobody wins a
    fish, each team is charged its own."""

    eggs: bool = True

    def winner(self, facts: HandFacts, seating: Seating) -> int | None:
        return self.decide(facts, seating)[0]

    def decide(self, facts: HandFacts, seating: Seating) -> tuple[int | None, str]:
        if not self.eggs:
            return None, "fish: each team is charged its own remainder"
        a, b = remainders(facts, seating)
        if a == b:
            return None, "eggs"
        return (0 if a < b else 1), ""


@dataclass(frozen=True, slots=True)
class KozelScoring(PointScoring):
    """The charges of a hand as bad points (``scores``: what each team is charged; ``points``: the loser's
    charge). Eggs are named in ``bonuses`` as ``("eggs", sum)``: the match carries them to the next loser."""

    def score(self, facts: HandFacts, winner: int | None, note: str, seating: Seating) -> HandResult:
        rest = remainders(facts, seating)
        scores = [0, 0]
        bonuses: tuple[tuple[str, int], ...] = ()
        if winner is not None:
            loser = 1 - winner
            scores[loser] = rest[loser]
        elif note == "eggs":
            bonuses = ((EGGS, sum(rest)),)
        else:
            scores = rest
        points = max(scores) if winner is not None else 0
        return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), bonuses=bonuses, note=note)


def fisher(facts: HandFacts | None, seat: int) -> int:
    """The player who laid the last tile that is no double before the fish (``seat``, the last player, when the
    history is not known or every tile was a double)."""
    for who, tile in reversed((facts.history or ()) if facts is not None else ()):
        if tile is not None and not tile.is_double:
            return who
    return seat


@dataclass(frozen=True, slots=True)
class KozelLead(LeadPolicy):
    """Who leads the next round: while both records are 0 the match says ([1-1] holder, with it); else the player
    who went out, or after a fish the fisher, any tile."""

    def requirement(self, prev_leader: int, prev: HandResult | None, facts: HandFacts | None,
                    seating: Seating, match_lead: LeadRequirement | None = None) -> LeadRequirement:
        if prev is None:
            return LeadRequirement()
        if match_lead is not None:
            return match_lead
        if prev.termination == Termination.DOMINO:
            return LeadRequirement(frozenset({prev.seat}), reason=gettext("the player who went out leads, any tile"))
        return LeadRequirement(frozenset({fisher(facts, prev.seat)}), reason=gettext("after a fish the fisher (the last "
                               "player to lay a tile that is no double) leads, any tile"))


@dataclass(frozen=True, slots=True)
class KozelMatch(MatchScoring):
    """The records to the limit (``target``), with fences and eggs carried (``MatchState.fence``,
    ``MatchState.eggs``). ``zero_lead``: while both records are 0 the [1-1] holder leads with it
    (``one-one``), or the rule of later rounds holds (``winner``)."""

    zero_lead: str = "one-one"

    def apply(self, state: MatchState, result: HandResult) -> MatchState:
        scores, fence = list(state.scores), list(state.fence or (0, 0))
        wins = list(state.wins)
        eggs, notes = state.eggs, []
        laid = self.carried(result)
        if laid:
            eggs += laid
            notes.append(gettext("eggs: {laid} carried to the next loser ({eggs} in all)", laid=laid, eggs=eggs))
        charges = list(result.scores)
        if result.winner is not None:
            wins[result.winner] += 1
            fence[result.winner] = 0
            loser = 1 - result.winner
            if eggs and charges[loser]:
                charges[loser] += eggs
                notes.append(gettext("the eggs ({eggs}) go to the losers", eggs=eggs))
                eggs = 0
        for side, charge in enumerate(charges):
            if not charge:
                continue
            if scores[side] == 0 and charge < FENCE:
                fence[side] += charge
                notes.append(gettext("{charge} on the fence ({fence})", charge=charge, fence=fence[side]))
            elif scores[side] == 0:
                scores[side] = charge + fence[side]
                fence[side] = 0
            else:
                scores[side] += charge
        out = replace(state, scores=tuple(scores), wins=tuple(wins), games=state.games + 1, fence=tuple(fence),
                      eggs=eggs, note="; ".join(notes), last=result.winner)
        over = [s for s in (0, 1) if self.target and scores[s] >= self.target]
        if len(over) == 1:
            return replace(out, over=True, winner=1 - over[0])
        if over:
            if scores[0] == scores[1]:
                return replace(out, over=True, drawn=True, note="both reached the limit with equal records: a draw")
            return replace(out, over=True, winner=0 if scores[0] < scores[1] else 1,
                           note="both reached the limit: the higher record loses")
        return out

    def open_below(self) -> int | None:
        return None

    def before(self, sides: list[str], after: tuple[int, ...] | None, fence_tag: str, result: HandResult | None,
               scores: tuple[int, ...] | None = None) -> MatchState:
        """The match before a round from its ``Fence`` tag (``fence_tag``: each team's fence before the round, and
        the eggs carried into it: ``"A/C 8, B/D 0; eggs 26"``; ``sides``: the teams' names, ``A/C``) and either the
        records before it (``scores``: a MatchScore tag) or after it (``after``: the Score tag, with ``result``, the
        round's result: the records before are the ones this match's :meth:`apply` brings to ``after``; a fence
        means a record of 0). ValueError saying why it cannot be read or fits no records."""
        fence, eggs = parse_fence(fence_tag, sides)
        if scores is not None:
            low = [f"{sides[s]} {v}" for s, v in enumerate(scores) if 0 < v < FENCE]
            if low:
                raise FenceError(gettext("no record can be {records} before the round: a record is 0 until a charge of "
                                         "{fence} or more (the fence added) is written", records=', '.join(low),
                                         fence=FENCE), unreadable=False)
            return MatchState(tuple(scores), (0, 0), fence=fence, eggs=eggs)
        assert after is not None and result is not None
        options = []
        for side in (0, 1):
            charge = result.scores[side] if result.scores else 0
            got = {0} if fence[side] else {0, after[side] - charge, after[side] - charge - eggs}
            # a record is 0 (its charges on the fence) or at least 13: a charge below 13 to a clean record goes on
            # the fence, one of 13 or more is written with the fence added, so no record is ever 1 to 12
            options.append(sorted(v for v in got if v == 0 or v >= FENCE))
        found = {(a, b) for a in options[0] for b in options[1]
                 if self.apply(MatchState((a, b), (0, 0), fence=fence, eggs=eggs), result).scores == tuple(after)}
        if len(found) != 1:
            words = {"fence": FENCE, "tag": repr(fence_tag)}
            raise FenceError(gettext("no records before the round (each 0, or {fence} or more) lead to the Score "
                                     "tag's with the fences and eggs of the Fence tag {tag}", **words) if not found else
                             gettext("more than one set of records before the round lead to the Score tag's with the "
                                     "fences and eggs of the Fence tag {tag}", **words), unreadable=False)
        return MatchState(found.pop(), (0, 0), fence=fence, eggs=eggs)

    def worth(self, state: MatchState) -> int | None:
        """The eggs carried into the next round (None: none): the app's recordings write a round's Result with them
        added to the losers' charge, as the records are charged (issue 67: the source writes 90 where the hand's
        charge is 28, the 62 eggs carried added)."""
        return state.eggs or None

    def stated_points(self, result: HandResult, worth: int | None) -> tuple[int, ...]:
        """A Result tag may state the hand's charge (``result.points``) or, where eggs are carried and the round
        has a loser, that charge with the eggs added (:meth:`apply` charges the losers both)."""
        if worth and result.winner is not None and result.points:
            return (result.points, result.points + worth)
        return (result.points,)

    def stated_words(self, result: HandResult, worth: int | None) -> str:
        both = self.stated_points(result, worth)
        return " " + gettext("(or {points} with the {eggs} eggs carried)", points=both[1], eggs=worth) \
            if len(both) > 1 else ""

    def stated_reading(self, stated: int | None, result: HandResult, worth: int | None) -> str:
        both = self.stated_points(result, worth)
        if len(both) < 2 or stated not in both:
            return ""
        if stated == both[1]:
            return gettext("the Result tag's {stated} is read as the losers' charge with the eggs carried: the "
                           "hand's {charge} and the {eggs} eggs", stated=stated, charge=both[0], eggs=worth)
        return gettext("the Result tag's {stated} is read as the hand's charge, without the {eggs} eggs carried (the "
                       "losers are charged both: {both})", stated=stated, eggs=worth, both=both[1])

    def carried(self, result: HandResult) -> int:
        """The eggs ``result`` lays (a fish with equal remainders: their sum, carried to the next loser)."""
        return dict(result.bonuses).get(EGGS, 0)

    @staticmethod
    def with_carried(result: HandResult, carried: int) -> HandResult:
        """``result`` laying ``carried`` eggs (as :class:`KozelScoring` names them): the inverse of :meth:`carried`."""
        return replace(result, bonuses=((EGGS, carried),)) if carried else result

    def lead(self, state: MatchState, seating: Seating) -> LeadRequirement | None:
        if self.zero_lead == "one-one" and not any(state.scores):
            return LeadRequirement(holder_of=ONE_ONE, tile=ONE_ONE, reason=gettext("while both records are 0 the [1-1] "
                                   "holder leads it"))
        return None


class FenceError(ValueError):
    """A Fence tag that cannot be read (``unreadable``) or that fits no records before the round."""

    def __init__(self, message: str, unreadable: bool = True):
        super().__init__(message)
        self.unreadable = unreadable


def parse_fence(text: str, sides: list[str]) -> tuple[tuple[int, int], int]:
    """Read a ``Fence`` tag (each team's fence before the round, then optionally the eggs carried into it):
    ``"A/C 8, B/D 0; eggs 26"`` -> ``((8, 0), 26)`` for the teams ``sides`` (``["A/C", "B/D"]``); ValueError with
    the form it takes."""
    form = gettext("write it as {example} (each team's fence before the round), with {eggs} for eggs carried",
                   example=f'"{sides[0]} 8, {sides[1]} 0"', eggs='"; eggs 26"')
    head, _, tail = text.partition(";")
    fence = {}
    for part in head.split(","):
        side, _, value = part.strip().rpartition(" ")
        if not value.isdecimal() or len(value) > 4:
            raise FenceError(gettext("cannot read the fence {text}; {form}", text=repr(text.strip()[:40]), form=form))
        fence[frozenset(side.strip().split("/"))] = int(value)
    keys = [frozenset(name.split("/")) for name in sides]
    if set(fence) != set(keys):
        raise FenceError(gettext("the Fence tag {text} does not give the fences of this game's teams, {teams}; {form}",
                                 text=repr(text.strip()[:40]), teams=', '.join(sides), form=form))
    eggs = 0
    if tail.strip():
        word, _, value = tail.strip().partition(" ")
        if word.lower() != "eggs" or not value.strip().isdecimal() or len(value.strip()) > 4:
            raise FenceError(gettext("cannot read the eggs in the fence {text}; {form}", text=repr(text.strip()[:40]),
                                     form=form))
        eggs = int(value)
    return (fence[keys[0]], fence[keys[1]]), eggs


def kozel_parts(eggs: bool, limit: int, zero_lead: str) -> dict:
    """The policies of a Kozel variant (``rules/families``-style parts for :class:`~analyzer.rules.variants.Variant`)."""
    return dict(seating=Seating.partners(), dealing=Dealing(7, 6, (), 5, True, 6),
                opening=Opening(first_game_tile=ONE_ONE), block=KozelBlock(eggs),
                scoring=KozelScoring("bad"), match=KozelMatch(limit, MatchKind.BAD, zero_lead=zero_lead),
                lead=KozelLead("match", False))
