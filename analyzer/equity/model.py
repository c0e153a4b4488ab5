"""The hand-result model of a variant: the distribution of one hand's result (who wins it, what each
side scores, who leads the next hand), measured from simulated hands.

Each simulated hand is a uniformly random deal played with **best play with all hands open**: the
exact search of the deal (the int solver of two-ended block games, else the general search) gives
its principal variation, which is played to the end (among equal best moves, the first in move
order). In a game of individual players (Cut Throat for three or four) **each player plays for himself
against the rest** (``POLICY_EACH``): every mover plays the move that is best for him when all the others
play against him (the analysis's ``AgainstTheRest`` view, the value his decisions are graded by), the
first in move order where several are equal. The hand's result is then read exactly as the replayer reads a recorded hand
(``hand_facts``, ``Variant.hand_result``), and the next leader is what the variant's lead policy
says (``LeadPolicy.requirement``). Games with a boneyard, points scored during play, runs of plays
or arms (draw games, All Fives, cross, Hungarian) are dealt a boneyard order too and played move by
move by the policy of :mod:`analyzer.equity.boneyard` (``policy_of``; individual players, such as Chiva or All
Fives for three, each for himself against the rest there too). Results are kept *relative to the leading side* (side ``r`` is
the leader's side plus ``r``), so one model serves whichever side leads.

A hand is simulated in a *lead mode*: ``open`` (seat 0 leads, with any tile the opening allows; where the
holder of the highest double opens every hand with it, as in the 003 block game, he leads) or
``holder:T:forced`` / ``holder:T:any`` (the holder of tile ``T`` leads, with ``T`` or with any tile:
the first hand of a partnership match, the [6-6] holder after a reset or a drawn hand).

**Another policy** may play the hands of a block game of two sides: ``simulate_mode(..., HandPlayers(choose=...))``
plays each deal move by move, the chooser picking at every decision with two or more legal moves (:class:`Choice`, what the
hand has shown so far); its ``policy`` names it in the model. The deals are those of the open-hands policy with
the same seed (a chooser draws from its own generator), so the two models are measured on the same hands. The
fair-play chooser (each decision by the mean over the worlds the mover cannot tell apart) is
``analysis.fairplay.FairPlayer``: it lies above this module in the pipeline, so it is handed in."""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, NamedTuple, Protocol

from ..i18n import N_
from ..position import mask_of, tiles_of
from ..rules.facts import hand_facts
from ..rules import HandFacts, HandResult, LeadRequirement, Variant
from ..rules.mechanics import position_for
from ..tiles import Move, Tile

__all__ = ["Outcome", "ModeSample", "HandModel", "POLICY", "POLICY_EACH", "Choice", "Chooser", "lead_token", "mode_of",
           "mode_requirement", "policy_of", "simulate_mode", "play_chosen",
           "deal", "dealt_position", "searcher", "HandPlayers", "FinishedHand"]

POLICY = N_("best play with all hands open: each random deal solved exactly and played along its principal "
          "variation (the first best move in move order where several are equal)")
POLICY_EACH = N_("each player for himself against the rest, all hands open: every mover plays his best move when all "
               "the others play against him (the first in move order where several are equal)")

# a lead token, relative to the side that led the hand just played:
#   ("side", r)            a player of side (leader's side + r) leads the next hand, any tile the opening allows
#   ("holder", "T", f)     the holder of tile T leads (f: with T)
#   ("any",)               anybody may lead (each side alike)
#   ("match", fallback)    the match score decides (MatchScoring.lead); ``fallback`` where it does not
Token = tuple


@dataclass(frozen=True)
class Choice:
    """A decision of a simulated hand, as a chooser is asked it: the deal (each seat's tiles as dealt), the seat
    that led and what the lead mode asked of him (``mode_requirement``), the moves played so far (seat, move; the
    forced passes among them), and the legal moves of the seat to move (two or more). ``position``: the hand now,
    every hand open (a chooser that plays fair reads only what the mover could know; it must leave it as it is)."""

    variant: Variant
    hands: tuple[tuple[Tile, ...], ...]
    leader: int
    requirement: LeadRequirement
    played: tuple[tuple[int, Move], ...]
    legal: tuple[Move, ...]
    position: object = field(repr=False, compare=False)

    @property
    def seat(self) -> int:
        """The seat to move."""
        return self.position.turn


class Chooser(Protocol):
    """A policy that plays a simulated hand move by move: ``policy`` states it (the model keeps the text)."""

    policy: str

    def __call__(self, choice: Choice) -> Move:
        ...


@dataclass(frozen=True)
class HandPlayers:
    """Who plays the simulated hands. By default best play with all hands open; ``view``: a game of individual
    players, each mover maximising the game as ``view(variant, seat)``, that seat alone against the rest, sees it
    (``analysis.AgainstTheRest``); ``choose``: another policy plays each decision (a block game of two sides; the
    model is named by its ``policy``: ``analysis.fairplay.FairPlayer`` plays by what each player knows)."""

    view: Callable | None = None
    choose: Chooser | None = None


class FinishedHand(NamedTuple):
    """A simulated hand at its end, as the model counts it: its ``leader``, ``result`` and ``facts``, what each
    seat scored during play (``play_points``), and whether a decision's search reached the node limit
    (``limited``). (:class:`~analyzer.equity.boneyard.SimulatedHand` has the same fields.)"""

    leader: int
    result: HandResult
    facts: HandFacts
    play_points: tuple[int, ...] = ()
    limited: bool = False


@dataclass(frozen=True)
class Outcome:
    """One hand's result, relative to the leading side (index 0: the leader's side)."""

    winner: int | None
    points: int
    scores: tuple[int, ...]
    termination: str
    void: bool
    next: Token
    carried: int = 0        # points the hand leaves to a later hand's loser (Kozel's eggs: ``MatchScoring.carried``)

    def as_list(self) -> list:
        out = [self.winner, self.points, list(self.scores), self.termination, self.void, _token_data(self.next)]
        return [*out, self.carried] if self.carried else out

    @classmethod
    def from_list(cls, data: list) -> Outcome:
        w, p, s, t, v, n, *carried = data
        return cls(w, p, tuple(s), t, v, _token_from(n), *carried)


def _token_data(token: Token) -> list:
    if token[0] == "match":
        return ["match", _token_data(token[1])]
    return list(token)


def _token_from(data: list) -> Token:
    if data[0] == "match":
        return ("match", _token_from(data[1]))
    return tuple(data)


@dataclass
class ModeSample:
    """The hands simulated in one lead mode: each distinct outcome and how often it came, and the
    leading side's hand value (its points, negative when it loses) with its mean and standard error."""

    hands: int = 0
    outcomes: Counter = field(default_factory=Counter)
    total: int = 0                  # the sum of the leading side's hand values (exact)
    total_sq: int = 0
    wins: int = 0                   # hands won by the leader's side
    # points scored during play (All Fives) by the leader's side and the other (individual players: the
    # leader and the others together): sums and sums of squares
    play: list[int] = field(default_factory=list)
    limited: int = 0                # hands where a decision's search reached the node limit (boneyard.py)
    # the outcomes are in the order of ``probabilities`` (as ``as_dict`` writes them and ``from_dict`` reads them)
    ordered: bool = field(default=False, repr=False, compare=False)

    @property
    def mean(self) -> float:
        return self.total / self.hands if self.hands else 0.0

    @property
    def sd(self) -> float:
        if self.hands < 2:
            return 0.0
        var = (self.total_sq - self.hands * self.mean ** 2) / (self.hands - 1)
        return math.sqrt(max(var, 0.0))

    @property
    def se(self) -> float:
        return self.sd / math.sqrt(self.hands) if self.hands else 0.0

    @property
    def p_win(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def p_win_se(self) -> float:
        p = self.p_win
        return math.sqrt(p * (1 - p) / self.hands) if self.hands else 0.0

    def seat_mean(self, r: int, bad: bool = False) -> Fraction:
        """The mean hand value of the player ``r`` seats after the leader in a game of individual players,
        valued against all the others as the analysis values his hands (``analysis.AgainstTheRest``): his
        points in the hand (those scored during play with them) less all the others' together, or where each
        player writes his own pips as bad points (``bad``), the others' bad points less his, each of them;
        an exact fraction of the sample (``r`` 0: the leader's ``mean``)."""
        totals = self.score_totals()
        mine, every = (totals[r] if r < len(totals) else 0), sum(totals)
        return Fraction(every - len(totals) * mine if bad else 2 * mine - every, self.hands)

    def score_totals(self) -> list[int]:
        """Each side's points in a hand (``Outcome.scores``: index ``r``, the side ``r`` after the leader's),
        summed over the sample: as a file holds them where it does (:meth:`as_dict`), else summed over the
        outcomes."""
        totals = self.__dict__.get("_totals")
        if totals is None:
            rows = self._pending.items() if "outcomes" not in self.__dict__ else (
                ((o.winner, o.points, o.scores), c) for o, c in self.outcomes.items())
            totals = []
            for (_, _, scores, *_), c in rows:
                totals.extend([0] * (len(scores) - len(totals)))
                for side, points in enumerate(scores):
                    totals[side] += c * points
            self._totals = totals
        return totals

    def __getattr__(self, name: str):
        """``outcomes`` of a sample read by :meth:`from_dict`, made the first time they are asked for (a table's
        model holds thousands: a process that reads only a mode's sums never makes them); ``_pending``, their
        fields as the file has them, read the first time they are asked for where the file gave them as a
        function (``store.unpack``: a compact table's outcomes are parsed only when asked for)."""
        if name == "_pending":
            rows = self.__dict__.get("_rows")
            if rows is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            self._pending = _pending(rows())
            del self.__dict__["_rows"]
            return self._pending
        if name != "outcomes" or ("_pending" not in self.__dict__ and "_rows" not in self.__dict__):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        outcomes = Counter()
        for key, count in self._pending.items():
            outcomes[Outcome(*key)] = count
        self.outcomes = outcomes
        del self.__dict__["_pending"]
        return outcomes

    def probabilities(self) -> list[tuple[Outcome, float]]:
        """Each outcome and its share of the hands, in the order of their ``repr`` (a table's walk sums in it)."""
        return [(o, c / self.hands) for o, c in self._in_order()]

    def _in_order(self):
        """The outcomes and their counts in the order of their ``repr`` (the order ``as_dict`` writes them)."""
        return self.outcomes.items() if self.ordered else sorted(self.outcomes.items(), key=lambda kv: repr(kv[0]))

    def add(self, outcome: Outcome, value: int, played: list[int] | None = None, limited: bool = False) -> None:
        self.hands += 1
        self.ordered = self.ordered and outcome in self.outcomes
        self.__dict__.pop("_totals", None)
        self.outcomes[outcome] += 1
        self.total += value
        self.total_sq += value * value
        self.wins += outcome.winner == 0
        self.limited += limited
        if played is not None:
            self.play = self.play or [0, 0, 0, 0]
            for r in range(2):
                self.play[r] += played[r]
                self.play[2 + r] += played[r] * played[r]

    def play_points(self) -> list[dict] | None:
        """The points scored during play by the leader's side and by the other (individual players: by the
        leader and by the others together): each a mean and its standard error (None: the variant scores
        nothing during play)."""
        if not self.play or not self.hands:
            return None
        out = []
        for r in range(2):
            mean = self.play[r] / self.hands
            var = (self.play[2 + r] - self.hands * mean ** 2) / (self.hands - 1) if self.hands > 1 else 0.0
            out.append({"mean": round(mean, 4), "se": round(math.sqrt(max(var, 0.0) / self.hands), 4)})
        return out

    def as_dict(self) -> dict:
        return {"hands": self.hands, "mean": round(self.mean, 4), "sd": round(self.sd, 4), "se": round(self.se, 4),
                "p_win": round(self.p_win, 5), "p_win_se": round(self.p_win_se, 5),
                "total": self.total, "total_sq": self.total_sq, "wins": self.wins,
                **({"play": self.play, "play_points": self.play_points()} if self.play else {}),
                **({"limited": self.limited} if self.limited else {}), "score_totals": self.score_totals(),
                "outcomes": [[*o.as_list(), c] for o, c in self._in_order()]}

    @classmethod
    def from_dict(cls, data: dict) -> ModeSample:
        """The sample of its plain data (:meth:`as_dict`); ``outcomes`` the rows, or a function giving them when
        first asked for (``store.unpack``)."""
        out = cls(data["hands"], Counter(), int(data["total"]), int(data["total_sq"]), data["wins"],
                  list(data.get("play", [])), data.get("limited", 0))
        del out.outcomes
        rows = data["outcomes"]
        if callable(rows):
            out._rows = rows
        else:
            out._pending = _pending(rows)
        if "score_totals" in data:
            out._totals = [int(x) for x in data["score_totals"]]
        out.ordered = True              # (``as_dict`` writes them in that order)
        return out


def _pending(rows: list) -> dict:
    """Each row's fields as ``Outcome.from_list`` takes them, and its count (checked here: a row that is none is
    refused now), made outcomes when first asked for (``ModeSample.__getattr__``); keyed so, equal rows merge as
    equal outcomes do (a row of seven fields and its count: the points it carries, ``Outcome.carried``)."""
    pending = {}
    for w, p, scores, t, v, n, *carried, count in rows:          # (``_token_from``, a plain token inline)
        if len(carried) > 1:
            raise ValueError(f"an outcome of {len(carried) + 7} fields: {[w, p, scores, t, v, n, *carried, count]}")
        pending[(w, p, tuple(scores), t, v, _token_from(n) if n[0] == "match" else tuple(n), *carried)] = count
    return pending


@dataclass
class HandModel:
    """A variant's hand-result model: a sample per lead mode."""

    variant: str
    rules: dict[str, str]
    modes: dict[str, ModeSample]
    policy: str = POLICY
    seed: int = 0

    def mean(self, mode: str) -> float:
        """The mean hand value for the leading side in ``mode`` (points, negative when it loses)."""
        return self.modes[mode].mean

    def as_dict(self) -> dict:
        return {"variant": self.variant, "rules": self.rules, "policy": self.policy, "seed": self.seed,
                "modes": {m: s.as_dict() for m, s in sorted(self.modes.items())}}

    @classmethod
    def from_dict(cls, data: dict) -> HandModel:
        return cls(data["variant"], dict(data["rules"]), {m: ModeSample.from_dict(s) for m, s in data["modes"].items()},
                   data.get("policy", POLICY), data.get("seed", 0))


def policy_of(variant: Variant) -> str:
    """The stated policy the simulated hands of ``variant`` are played by."""
    from .boneyard import POLICY as BONEYARD_POLICY, POLICY_EACH as BONEYARD_POLICY_EACH, covers   # (making tables)
    if variant.seating.sides != 2:
        return BONEYARD_POLICY_EACH if covers(variant) else POLICY_EACH
    return BONEYARD_POLICY if covers(variant) else POLICY


def mode_of(token: Token) -> str:
    """The lead mode a (resolved) lead token deals and leads the hand in."""
    if token[0] == "holder":
        return f"holder:{token[1]}:{'forced' if token[2] else 'any'}"
    return "open"


def lead_token(req: LeadRequirement | None, variant: Variant, leader: int) -> Token:
    """The lead token of a lead requirement, relative to ``leader``'s side."""
    if req is None:
        return ("any",)
    teams, sides = variant.seating.teams, variant.seating.sides
    if req.seats:
        return ("side", (teams[min(req.seats)] - teams[leader]) % sides)
    if req.holder_of is not None:
        return ("holder", str(req.holder_of), req.tile is not None)
    return ("any",)


_MATCH = LeadRequirement(reason="<the match decides>")


def _next_token(variant: Variant, leader: int, result, facts) -> Token:
    req = variant.lead.requirement(leader, result, facts, variant.seating, _MATCH)
    if req is _MATCH:
        fallback = variant.lead.requirement(leader, result, facts, variant.seating, None)
        return ("match", lead_token(fallback, variant, leader))
    return lead_token(req, variant, leader)


def mode_requirement(variant: Variant, mode: str) -> LeadRequirement:
    """What a lead ``mode`` asks of the lead, as the rules say it (``rules.lead``): ``open``, a player of
    side 0 (seat 0's side) leads; ``holder:T:forced`` / ``holder:T:any``, the holder of ``T`` leads with
    it / with any tile (where ``T`` may lie undealt, the holder of the highest double dealt instead)."""
    if mode.startswith("holder:"):
        _, text, how = mode.split(":")
        tile = Tile.parse(text)
        return LeadRequirement(holder_of=tile, tile=tile if how == "forced" else None,
                               reason=f"lead mode {mode}", or_highest=not variant.dealing.all_dealt(variant.players))
    return LeadRequirement(seats=frozenset({0}), reason="lead mode open")


def deal(variant: Variant, mode: str, rng: random.Random):
    """A random deal, its leader and the tiles he may lead (a mask, 0: any), as the judge of the lead
    (``rules.lead.deal_lead``) chooses them for the lead ``mode``; among several allowed leaders one
    at random."""
    from .boneyard import deal_with_boneyard     # (simulating hands: a process that grades needs none of it)
    hands, _, leader, mask = deal_with_boneyard(variant, mode_requirement(variant, mode), rng)   # (the rest unused)
    return hands, leader, mask


def dealt_position(variant: Variant, mode: str, rng: random.Random):
    """A random deal of ``variant`` as a position ready for its first move, led as lead ``mode`` asks
    (:func:`deal`), and the seat that leads it."""
    hands, leader, opening = deal(variant, mode, rng)
    pos = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = opening
    return pos, leader


def searcher(variant: Variant, rules=None, share: int = 1):
    """The exact search of ``variant``'s deals (the int solver of two-ended block games, else the general
    search), valuing hands as ``rules`` does (default: the variant itself, for side 0); ``share``: how many
    searches share the default table memory (one a player: each his own)."""
    from ..search.core import TABLE_MB
    if variant.search == "block":
        from ..search.block import Solver
        return Solver(rules or variant, max_deals=1, table_mb=TABLE_MB / share)
    from ..search.tree import TreeSearch
    return TreeSearch(rules or variant, None, TABLE_MB / share)


def simulate_mode(variant: Variant, mode: str, hands: int, seed: int = 0, players: HandPlayers = HandPlayers(),
                  progress: Callable[[int], None] | None = None) -> ModeSample:
    """Simulate ``hands`` random deals of ``variant`` in lead ``mode`` with best play, all hands open
    (see the module's note), or as ``players`` says: a game of individual players needs its ``view``
    (``view(variant, seat)`` is the game as ``seat`` alone against the rest sees it, ``analysis.AgainstTheRest``,
    the value each mover maximises); its ``choose``, another policy, plays the hands (a block game of two sides:
    the same deals, each decision the chooser's; see the module's note)."""
    view, choose = players.view, players.choose
    individual = variant.seating.sides != 2
    if choose is not None and (individual or variant.drawing is not None or variant.play is not None
                               or variant.search != "block"):
        raise NotImplementedError(f"{variant.name}: a chooser plays block games of two sides only")
    if individual and view is None:
        raise NotImplementedError(f"{variant.name} is played by {variant.seating.sides} individual players: its "
                                  f"hands are simulated with each player's view against the rest (view=...)")
    from .boneyard import covers, hand_searcher, play_hand
    sample = ModeSample()
    rng = random.Random(f"{variant.name}:{mode}:{seed}")
    if covers(variant):             # a boneyard, points during play, runs or arms: equity/boneyard.py
        req, search = mode_requirement(variant, mode), hand_searcher(variant, view)
        for _ in range(hands):
            hand = play_hand(variant, req, rng, search)
            _add(sample, variant, hand, view if individual else None)
            if progress is not None:
                progress(1)
        return sample
    play = _each_for_himself(variant, view) if individual else _best_line(variant)
    for _ in range(hands):
        pos, leader = dealt_position(variant, mode, rng)
        if choose is None:
            play(pos)
        else:
            play_chosen(variant, pos, leader, mode_requirement(variant, mode), choose)
        end = pos.outcome()
        facts = hand_facts(pos, end.termination, end.seat, leader, None)
        _add(sample, variant, FinishedHand(leader, variant.hand_result(facts), facts), view if individual else None)
        if progress is not None:
            progress(1)
    return sample


def _add(sample: ModeSample, variant: Variant, hand: FinishedHand, view: Callable | None = None) -> None:
    """Add one finished ``hand`` to ``sample``, relative to its leader's side; with ``view`` (individual players)
    valued for the leader against the rest."""
    leader, result, facts, play_points, limited = hand.leader, hand.result, hand.facts, hand.play_points, hand.limited
    teams, sides = variant.seating.teams, variant.seating.sides
    side = teams[leader]
    scores = result.scores or tuple(result.points if s == result.winner else 0 for s in range(sides))
    outcome = Outcome(None if result.winner is None else (result.winner - side) % sides, result.points,
                      tuple(scores[(side + i) % sides] for i in range(sides)), result.termination, result.void,
                      _next_token(variant, leader, result, facts), variant.match.carried(result))
    played = [0, 0]                          # the leader's side's points scored during play, the others'
    for seat, p in enumerate(play_points):
        played[0 if teams[seat] == side else 1] += p
    if view is not None:                     # his award (or loss) and his points scored during play less theirs
        value = view(variant, leader).value(facts) + played[0] - played[1]
        sample.add(outcome, value, played if variant.play else None, limited)
        return
    value = variant.value(facts)             # (All Fives: the points scored during play included)
    sample.add(outcome, value if side == 0 else -value, played if variant.play else None, limited)


def play_chosen(variant: Variant, pos, leader: int, requirement: LeadRequirement, choose: Chooser) -> None:
    """Play the dealt hand ``pos`` (led by seat ``leader`` as ``requirement`` asks) to its end, the move of every
    decision with two or more legal moves the chooser's (:class:`Choice`); ``pos`` is left at the hand's end."""
    hands = tuple(tuple(tiles_of(pos.hands[s], pos.max_pip)) for s in range(pos.n))
    played: list[tuple[int, Move]] = []
    while (legal := pos.legal_moves()):
        seat = pos.turn
        move = legal[0] if len(legal) == 1 else choose(
            Choice(variant, hands, leader, requirement, tuple(played), tuple(legal), pos))
        if move not in legal:
            raise ValueError(f"the chooser played {move}, not a legal move of seat {seat} ({legal})")
        pos.push(move)
        played.append((seat, move))


def _best_line(variant: Variant) -> Callable:
    """Two sides: play the deal along its principal variation (the first best move in move order)."""
    search = searcher(variant)

    def play(pos) -> None:
        for move in search.best_line(pos):
            pos.push(move)
    return play


def _each_for_himself(variant: Variant, view: Callable) -> Callable:
    """Individual players: each mover plays his best move against the rest (the first in move order
    where several are equal), valued by his own search (``view(variant, seat)``)."""
    from .boneyard import play_out
    searches = [searcher(variant, view(variant, seat), variant.players) for seat in range(variant.players)]

    def play(pos) -> None:      # (the facts play_out reads at the end are not used: the caller reads the hand
        play_out(variant, pos, searches, 0)     # with its leader, as for two sides)
    return play
