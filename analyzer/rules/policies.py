"""Small rule policies. A variant is a composition of these, never a copied module.

Each policy answers one question: who sits where (``Seating``), what is dealt (``Dealing``), who
leads a hand and with what (``Opening``), who leads the next game (``LeadPolicy``), who wins a
blocked hand (``BlockRule`` / ``BlockDecider``), what a hand is worth (``HandScoring`` /
``PointScoring``); when a match is over is ``rules/matchplay.py`` (``MatchScoring``).

``BlockRule`` and ``HandScoring`` are the standard rules of the partnership game exactly (the
solver recognises them by type and writes them inline); every other rule is a different class,
so a variant with another rule is never mistaken for the standard one."""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple, Sequence

from ..i18n import gettext, ngettext
from ..tiles import DOUBLES, Tile, tile_set
from .facts import HandFacts, HandResult
from .modes import Count, LeadNext, LeadTie, Termination

__all__ = ["is_double", "Seating", "Dealing", "Drawing", "Opening", "LeadPolicy", "LeadRequirement", "BlockRule",
           "BlockDecider", "HandScoring", "PointScoring", "PlayScoring", "DifferenceAward",
           "HandFacts", "HandResult", "DOUBLE_BLANK", "PASS_PR", "PASS_DOMINICAN", "PASS_NONE", "capicua",
           "PassedPlay", "salida_paid"]

DOUBLE_BLANK = Tile(0, 0)
SIX_SIX = Tile(6, 6)
PASS_PR = ""                    # the pass bonuses of 000 (Puerto Rico: Doscientos)
PASS_DOMINICAN = "dominican"    # the Dominican pass bonuses (docs/variants.md, Dominican capicúa)
PASS_NONE = "none"              # no play pays a pass bonus (only the salida is paid as the hand is played)


def capicua(tile: Tile | None, ends: tuple[int, int] | None, doubles: bool = False) -> bool:
    """Whether ``tile``, laid last on a line whose open numbers were ``ends``, is a capicúa: no double (unless
    ``doubles``: then a double that fits both ends, both showing its number, is one too), and it fits either end
    (both ends show its two numbers, or both one of them)."""
    if tile is None or ends is None or (tile.is_double and not doubles):
        return False
    a, b = ends
    return tile.matches(a) and tile.matches(b)


# -- seating and partnerships ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: ``teams[s]`` is the side of seat ``s`` (play order)."""

    players: int
    teams: tuple[int, ...]

    @classmethod
    def partners(cls) -> Seating:
        """Four players, partners opposite: seats 1+3 and 2+4."""
        return cls(4, (0, 1, 0, 1))

    @classmethod
    def individual(cls, players: int) -> Seating:
        return cls(players, tuple(range(players)))

    @property
    def sides(self) -> int:
        return max(self.teams) + 1

    def members(self, side: int) -> tuple[int, ...]:
        return tuple(s for s, t in enumerate(self.teams) if t == side)

    def partners_of(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side."""
        return tuple(s for s in self.members(self.teams[seat]) if s != seat)


# -- dealing --------------------------------------------------------------------------------
@cache
def _dealt_tiles(max_pip: int, set_aside: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(t for t in tile_set(max_pip) if t not in set_aside)


@cache
def _dealt_mask(max_pip: int, set_aside: tuple[Tile, ...]) -> int:
    return sum(t.bit for t in _dealt_tiles(max_pip, set_aside))


@cache
def _doubles_mask(max_pip: int) -> int:
    return sum(t.bit for t in tile_set(max_pip) if t.is_double)


@cache
def _suit_masks(max_pip: int) -> tuple[int, ...]:
    return tuple(sum(t.bit for t in tile_set(max_pip) if t.matches(n)) for n in range(max_pip + 1))


@dataclass(frozen=True, slots=True)
class Dealing:
    """The set (double-``max_pip``) and how many tiles each hand gets; the rest are sleepers.

    ``set_aside`` tiles take no part in the hand (the [0-0] of three-handed cut-throat);
    ``redeal``: a player dealt that many doubles or more may have the tiles dealt again (0: never);
    ``forced``: he must (South American: "werden die Steine zusammengeworfen und es wird noch einmal
    gegeben"), so a hand played with such a deal is an error, not a warning."""

    hand_size: int = 7
    max_pip: int = 6
    set_aside: tuple[Tile, ...] = ()
    redeal: int = 0
    forced: bool = False
    suit: int = 0             # also a new deal for a hand with this many tiles of one number (Kozel: 6; 0: never)

    @staticmethod
    def longest_suit(hand) -> int:
        """The most tiles of one number in ``hand`` (a double counts once)."""
        return max((sum(1 for t in hand if t.matches(n)) for n in range(13)), default=0)

    def redeal_due(self, hand: set[Tile] | frozenset[Tile]) -> bool:
        """Whether this hand holds enough doubles (or tiles of one number) for a new deal."""
        return (bool(self.redeal) and sum(t.is_double for t in hand) >= self.redeal) or \
            (bool(self.suit) and self.longest_suit(hand) >= self.suit)

    def redeal_due_mask(self, hand: int) -> bool:
        """:meth:`redeal_due` of a hand given as a mask of its tiles' bits (``Tile.bit``), counted on the bits: the
        same judgment, without building the hand (the inference asks it of every deal it weighs)."""
        if self.redeal and (hand & _doubles_mask(self.max_pip)).bit_count() >= self.redeal:
            return True
        if not self.suit or hand.bit_count() < self.suit:      # (too few tiles for a suit: most deals weighed by
            return False                                        # their doubles alone, the others not yet placed)
        return any((hand & m).bit_count() >= self.suit for m in _suit_masks(self.max_pip))

    @property
    def number_masks(self) -> tuple[int, ...]:
        """The tiles of each number, 0 to ``max_pip``, as masks of their bits (a double in its number's)."""
        return _suit_masks(self.max_pip)

    def redeal_problem(self, hand: set[Tile] | frozenset[Tile] | None) -> str | None:
        """Why a game marked as re-dealt for this hand's doubles may not be (None: it may)."""
        if not self.redeal:
            return "these rules deal again for no hand (option redeal)"
        if hand is None or self.redeal_due(hand):
            return None
        doubles = sum(t.is_double for t in hand)
        return (f"the hand holds {doubles} double{'s' * (doubles != 1)}; a new deal needs {self.redeal}"
                + (f" (or {self.suit} tiles of one number; it has {self.longest_suit(hand)})" if self.suit else ""))

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return _dealt_tiles(self.max_pip, self.set_aside)

    @property
    def mask(self) -> int:
        """The tiles in play as a bit mask."""
        return _dealt_mask(self.max_pip, self.set_aside)

    def all_dealt(self, players: int) -> bool:
        return self.hand_size * players == len(self.tiles)

    def sleepers(self, players: int) -> int:
        return len(self.tiles) - self.hand_size * players


@dataclass(frozen=True, slots=True)
class Drawing:
    """The boneyard of a draw game: a player who cannot play takes tiles from it.

    ``rule``: ``until`` (he draws until he can play; 004, Chiva) or ``one`` (he draws one tile and
    passes if it does not fit; 003). ``keep``: tiles that stay in the boneyard and are never drawn
    (004: two; the hand is over when nobody can play and only they are left)."""

    rule: str = "until"
    keep: int = 0

    def describe(self) -> str:
        how = ("draws until they can play" if self.rule == "until"
               else "draws one tile and passes if it does not fit")
        left = f"; {self.keep} tiles stay in the boneyard" if self.keep else "; every tile may be drawn"
        return f"a player who cannot play {how}{left}"


# -- who leads and with what ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Opening:
    """The lead of a hand.

    ``first_game_tile``: in the first game of a match its holder leads (with it, unless
    ``holder_only``). ``every_game_tile``: every hand is opened by its holder with it.
    ``double``: the lead must be a double unless the leader's side holds none.
    ``highest_double``: the holder of the highest double dealt opens with it (every hand);
    ``first_highest``: the same in the first game of a match only (a draw game's [6-6] may lie in
    the boneyard). ``extra``: right after his lead the opener may add a matching tile (004).
    ``heaviest_hand``: the player with the most pips in his hand opens, with any tile (Hungarian).
    ``drawn``: the first game's leader is drawn: each player draws a tile (the ``SeatDraw`` tag) and the
    highest leads, with any tile (000: "Oft wird ein Dominostein gezogen, um das Recht des Ausspiels beim
    ersten Spiel einer Partie zu bestimmen, der höchste Stein beginnt"); without the tag anyone leads.
    What these rules decide for a hand is decided in ``rules/lead.py``."""

    first_game_tile: Tile | None = SIX_SIX
    every_game_tile: Tile | None = None
    holder_only: bool = False
    double: bool = False
    highest_double: bool = False
    first_highest: bool = False
    extra: bool = False
    heaviest_hand: bool = False
    drawn: bool = False


@dataclass(frozen=True, slots=True)
class LeadRequirement:
    """Who must lead a game of a match, as the previous games decide it.

    ``seats``: the players allowed to lead (None: anyone); ``holder_of``: the holder of this tile
    leads; ``tile``: the lead must be this tile; ``reason``: the rule, for the messages;
    ``or_highest``: when no hand holds ``holder_of`` (it lies in a draw game's boneyard), the holder
    of the highest double dealt leads instead. ``otherwise``: who would lead under another value of an option
    of the variant, ``(option, seats, reason)`` (Kozel: ``zero-lead=winner``), which a lead error names when the
    record's leader is among those seats."""

    seats: frozenset[int] | None = None
    holder_of: Tile | None = None
    tile: Tile | None = None
    reason: str = ""
    or_highest: bool = False
    otherwise: tuple[tuple[str, frozenset[int], str], ...] = ()


@dataclass(frozen=True, slots=True)
class LeadPolicy:
    """Who leads the next game of a match.

    ``next``: ``rotate`` (the next player in play order after the previous leader), ``winners``
    (either player of the side that won), ``winner-lowest`` (the player who went out, or on a block
    the winning side's player with the fewest pips), ``six-six`` (the [6-6] holder, with it),
    ``match`` (the match scoring decides: Jamaican six love), ``any``. ``void_same``: after a hand
    that does not count the same player leads again. ``tie``: after a drawn block (Doscientos),
    ``six-six`` (the [6-6] holder leads), ``blocker`` (the player who blocked leads) or ``match``
    (as the match score decides, like ``next="match"``).
    ``block``: ``last-or-right`` when a block is won by the player who played last or the next one
    (Doscientos), ``last-or-left`` or the one who played before (Dominican): the player who won it leads next. ``next_match``: ``right``: the first game of a
    further match is led by the player to the right of the previous match's first leader, with any
    tile (000). ``hand_over``: the player whose turn it is to lead may hand the lead to his partner,
    who leads any tile (Doscientos, "wenn man sich vor dem Spiel darauf einigt"). ``blank``: what [0-0]
    counts when the fewest pips choose the leader (Great Lakes with [0-0] worth 50: 50, as everywhere
    pips are counted)."""

    next: LeadNext = LeadNext.ROTATE
    void_same: bool = True
    tie: LeadTie = LeadTie.NONE
    block: str = ""
    next_match: str = ""
    hand_over: bool = False
    blank: int = 0                     # what [0-0] counts when the lowest pips choose the leader (Great Lakes)

    def __post_init__(self):
        # (the rules' builders name them by their text: each made its member here, a misspelt one a ValueError
        # when the variant is made)
        object.__setattr__(self, "next", LeadNext(self.next))
        object.__setattr__(self, "tie", LeadTie(self.tie))

    def further_match(self, first_leader: int, n: int) -> LeadRequirement | None:
        """Who leads the first game of a further match, given the seat that led the previous match's
        first game (None: the first-game rule of the variant, as for the first match)."""
        if self.next_match != "right":
            return None
        return LeadRequirement(frozenset({(first_leader + 1) % n}), reason=gettext("the first game of a further match "
                               "is led by the player to the right of the one who led the previous match's "
                               "first game, with any tile"))

    def handed(self, req: LeadRequirement, giver: int, holder: int | None, seating: Seating
               ) -> tuple[LeadRequirement, str | None]:
        """The lead handed by ``giver`` to his partner: who must lead now, and why ``giver`` may not
        hand it (None: he may). ``holder``: the seat holding the tile whose holder leads, if known."""
        if not self.hand_over:
            return req, "these rules do not let a player hand the lead to a partner (option hand-over)"
        if req.holder_of is not None and holder is not None and holder != giver:
            return req, f"the holder of {req.holder_of} has the lead, not the one handing it"
        if req.seats is not None and giver not in req.seats:
            return req, "the lead is not theirs to hand over" + (f" ({req.reason})" if req.reason else "")
        partners = frozenset(seating.partners_of(giver))
        if not partners:
            return req, "there is no partner to hand it to"
        return LeadRequirement(partners, reason=gettext("the lead is handed to the partner, who leads any tile")), None

    def requirement(self, prev_leader: int, prev: HandResult | None, facts: HandFacts | None,
                    seating: Seating, match_lead: LeadRequirement | None = None) -> LeadRequirement:
        n = seating.players
        if prev is None:
            return LeadRequirement()
        if self.next == LeadNext.SIX_SIX:
            return LeadRequirement(holder_of=SIX_SIX, tile=SIX_SIX, reason=gettext("every hand is opened by the [6-6] holder with it"))
        if prev.void and self.void_same:
            return LeadRequirement(frozenset({prev_leader}), reason=gettext("the hand before did not count, so its "
                                   "leader leads again"))
        if self.next == LeadNext.ROTATE:
            return LeadRequirement(frozenset({(prev_leader + 1) % n}),
                                   reason=gettext("the lead passes to the next player after the previous leader"))
        if self.next == LeadNext.MATCH and match_lead is not None:
            return match_lead
        if prev.winner is None:
            if self.tie == LeadTie.MATCH and match_lead is not None:
                return match_lead
            if self.tie == LeadTie.SIX_SIX:
                return LeadRequirement(holder_of=SIX_SIX, reason=gettext("after a drawn game the [6-6] holder leads"),
                                       or_highest=True)
            if self.tie == LeadTie.BLOCKER and prev.termination == Termination.BLOCKED:
                return LeadRequirement(frozenset({prev.seat}), reason=gettext("the player who blocked leads"))
            return LeadRequirement()
        members = seating.members(prev.winner)
        if self.next in (LeadNext.WINNERS, LeadNext.MATCH):
            return LeadRequirement(frozenset(members), reason=gettext("the side that won the last game leads"))
        if self.next == LeadNext.WINNER_LOWEST:
            if prev.termination == Termination.DOMINO:
                return LeadRequirement(frozenset({prev.seat}), reason=gettext("the winner of the last game leads"))
            facts = counted(facts, self.blank) if facts is not None else None
            if self.block in LOCK_RIVAL and facts is not None and not prev.note:
                won = lock_winner(self.block, prev.seat, facts.pips)
                if won is not None:
                    return LeadRequirement(frozenset({won}), reason=gettext(
                        "the player who won the block (the one who played last or the next player, whoever has fewer "
                        "pips) leads") if self.block == "last-or-right" else gettext(
                        "the player who won the block (the one who played last or the player who played before, "
                        "whoever has fewer pips) leads"))
            if self.block == "last" and prev.termination == Termination.BLOCKED:
                return LeadRequirement(frozenset({prev.seat}), reason=gettext("the player who laid the last tile won "
                                       "the block and leads"))
            if self.tie == LeadTie.BLOCKER and prev.note == "tie:last":
                return LeadRequirement(frozenset({prev.seat}), reason=gettext("the player who blocked leads"))
            if facts is None:
                return LeadRequirement(frozenset(members))
            low = min(facts.pips[s] for s in members)
            return LeadRequirement(frozenset(s for s in members if facts.pips[s] == low),
                                   reason=gettext("the winning side's player with the fewest pips leads"))
        return LeadRequirement()


# -- a blocked hand -------------------------------------------------------------------------
#: The block rules under which the player who locked the hand is compared with one neighbour: the next player
#: (Doscientos, 000: "oder es gewinnt der Spieler zu seiner Rechten") or the one who played before (dominoesonline.com's
#: Dominican rules: "the person on the left" in counter-clockwise play).
LOCK_RIVAL = {"last-or-right": 1, "last-or-left": -1}


def lock_winner(by: str, seat: int, pips: Sequence[int]) -> int | None:
    """The seat that wins a block under ``by`` (a :data:`LOCK_RIVAL` rule) when ``seat`` locked it: the one of that seat
    and its rival with fewer ``pips``; None when they hold as many."""
    rival = (seat + LOCK_RIVAL[by]) % len(pips)
    if pips[seat] == pips[rival]:
        return None
    return seat if pips[seat] < pips[rival] else rival


def counted(facts: HandFacts, blank: int) -> HandFacts:
    """The facts with [0-0] counting ``blank`` in the hand that holds it (Great Lakes: "[0-0] 50 Punkte
    zählt und nicht null Punkte"); unchanged when ``blank`` is 0 or the hands are not known."""
    if not blank or facts.hands is None:
        return facts
    return replace(facts, pips=tuple(p + (blank if _held(h, DOUBLE_BLANK) else 0)
                                     for p, h in zip(facts.pips, facts.hands)))


def _team_totals(pips: Sequence[int], seating: Seating) -> list[int]:
    totals = [0] * seating.sides
    for seat, p in enumerate(pips):
        totals[seating.teams[seat]] += p
    return totals


@dataclass(frozen=True, slots=True)
class BlockRule:
    """Decide a blocked hand. ``by="team"``: the side with fewer pips wins, equal pips is a draw."""

    by: str = "team"

    def winner(self, facts: HandFacts, seating: Seating) -> int | None:
        totals = _team_totals(facts.pips, seating)
        best = min(totals)
        if totals.count(best) > 1:
            return None
        return totals.index(best)

    def decide(self, facts: HandFacts, seating: Seating) -> tuple[int | None, str]:
        return self.winner(facts, seating), ""


@dataclass(frozen=True, slots=True)
class BlockDecider:
    """Decide a blocked hand under the other rules of the texts.

    ``by``: ``team`` (fewer pips on the side), ``player`` (the side of the single player with the
    fewest pips; Jamaican), ``last-or-right`` (the player who played last or the one after him,
    whoever has fewer pips; Doscientos), ``last-or-left`` (that player or the one who played before: the Dominican "person on the
    left"), ``last`` (the side of the player who laid the last tile, whatever
    the pips: "the player who laid the last tile wins a block", a form real logs take). ``tie`` decides equal pips: ``draw``, ``leader`` (the
    side that led the hand), ``more-tiles`` (the side with more tiles left), ``last`` (the side
    that played last), ``last-loses``, ``replay`` (the hand does not count) or ``own-pips``
    (each side scores its own pips). ``doubles_once``: a double left in a hand counts one half only
    (the draw game of 004: "wobei Pasche nur einfach gezählt werden")."""

    by: str = "team"
    tie: str = "draw"
    doubles_once: bool = False
    blank: int = 0                # what [0-0] counts when the block is decided (Great Lakes: 50)

    def _facts(self, facts: HandFacts) -> HandFacts:
        if facts.hands is None or not (self.doubles_once or self.blank):
            return facts
        if self.blank:
            return counted(facts, self.blank)
        from ..position import tiles_of
        pips = tuple(sum(t.high if t.is_double else t.pips for t in tiles_of(h, 12)) for h in facts.hands)
        return replace(facts, pips=pips)

    def winner(self, facts: HandFacts, seating: Seating) -> int | None:
        return self.decide(facts, seating)[0]

    def decide(self, facts: HandFacts, seating: Seating) -> tuple[int | None, str]:
        """The winning side (None: nobody) and a note naming a tie rule that was used."""
        facts = self._facts(facts)
        teams = seating.teams
        if self.by == "player":
            low = min(facts.pips)
            sides = {teams[s] for s, p in enumerate(facts.pips) if p == low}
            if len(sides) == 1:
                return sides.pop(), ""
        elif self.by == "last":         # the player who laid the last tile wins the block, whatever the pips
            return teams[facts.seat], ""
        elif self.by in LOCK_RIVAL:
            won = lock_winner(self.by, facts.seat, facts.pips)
            if won is not None:
                return teams[won], ""
        else:
            totals = _team_totals(facts.pips, seating)
            best = min(totals)
            if totals.count(best) == 1:
                return totals.index(best), ""
        return self._tie(facts, seating)

    def _tie(self, facts: HandFacts, seating: Seating) -> tuple[int | None, str]:
        teams = seating.teams
        note = f"tie:{self.tie}"
        if self.tie == "leader":
            return teams[facts.leader], note
        if self.tie == "last":
            return teams[facts.seat], note
        if self.tie == "last-loses" and seating.sides == 2:
            return 1 - teams[facts.seat], note
        if self.tie == "more-tiles":
            counts = _team_totals(facts.counts, seating)
            most = max(counts)
            return (counts.index(most), note) if counts.count(most) == 1 else (None, note)
        if self.tie in ("replay", "own-pips"):
            return None, note
        return None, ""


# -- hand scoring ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HandScoring:
    """Points for the winners. ``count="losers"``: the pips left in the losing sides' hands;
    ``count="all"``: every pip left (on a block all four hands)."""

    count: str = "losers"

    def points(self, facts: HandFacts, winner: int | None, seating: Seating) -> int:
        if winner is None:
            return 0
        if self.count == Count.ALL:
            return sum(facts.pips)
        return sum(p for s, p in enumerate(facts.pips) if seating.teams[s] != winner)

    def score(self, facts: HandFacts, winner: int | None, note: str, seating: Seating) -> HandResult:
        if note in ("tie:replay", "tie:own-pips"):
            return PointScoring(self.count).score(facts, winner, note, seating)
        points = self.points(facts, winner, seating)
        scores = [0] * seating.sides
        if winner is not None:
            scores[winner] = points
        return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), note=note)




def _held(mask: int, tile: Tile) -> bool:
    return bool(mask & tile.bit)


class PassedPlay(NamedTuple):
    """A play that the next ``passes`` players answered with a pass: whether it is the hand's ``first`` such
    play, whether it blocked the hand (``blocking``), and the tile led when it is the lead (``lead``; None:
    a later play). :meth:`PointScoring.play_bonus` pays it."""

    passes: int
    first: bool
    blocking: bool = False
    lead: Tile | None = None


@dataclass(frozen=True, slots=True)
class PointScoring:
    """Every other way to score a hand.

    ``count``: ``losers``, ``all``, ``game`` (one point a game), ``milo`` (one point, two when the
    last tile leaves both ends equal), ``bad`` (each side writes its own pips as bad points; the
    side with fewer wins by the difference), ``difference`` (the side with fewer pips writes the
    difference), ``block-difference`` (the losers' pips, but the difference on a block).
    ``divide``: divide by 10 rounding down, at least 1. ``blank``: what [0-0] counts.
    ``capicu``, ``chuchazo`` (``any``/``one-end``): the Quinientos bonuses (``capicu`` the points of a capicú
    or dominao: Quinientos 100, the Dominican capicúa 25). ``pass_bonus``: bonuses for plays that make
    others pass, by ``pass_rule``: ``PASS_PR`` (000: 20 for the first play that makes the next player pass, 10
    later, 10 an opponent for a blocking play or one all others pass; hand points rounded down to tens) or
    ``PASS_DOMINICAN`` (25 for a play that all three others pass, *pase corrido*; 25 when the player after the
    leader passes a double lead, 50 a lead that is no double; no rounding; :meth:`play_bonus`).
    ``doubled``: a hand that still holds a double counts its pips twice (French domino, 002: "Wenn ein
    Spieler noch einen Doppelstein in seiner Hand hat, wird seine Punktzahl verdoppelt"), once however many
    doubles it holds. ``capicu_double``: a domino made with a tile that is no double and fits both open ends
    (capicúa) scores its points twice (the Cuban and Venezuelan houses' capicúa); ``capicu_doubles``: a double
    that fits both ends is such a capicúa too. ``salida`` (teamocuba.com, "salida vale 20"): a double lead that
    the next player passes pays this to the leading side at once, whoever wins the hand (:func:`salida_paid`);
    with ``salida_won`` (issue 67's reading) the side that led scores it instead when it wins the hand, whatever
    its lead."""

    count: str = "losers"
    divide: int = 1
    blank: int = 0
    capicu: int = 0
    chuchazo: str = ""
    pass_bonus: bool = False
    doubled: bool = False
    pass_rule: str = ""
    capicu_double: bool = False
    salida: int = 0
    salida_won: bool = False
    capicu_doubles: bool = False
    pass_points: int = 25         # ``PASS_DOMINICAN``: a pase corrido and a passed double lead (a house may pay 30)

    @property
    def play_rule(self) -> str:
        """The rule of the bonuses paid play by play (:meth:`play_bonus`): ``pass_rule``, or ``PASS_NONE`` when no
        pass bonus is paid."""
        return self.pass_rule if self.pass_bonus else PASS_NONE

    @property
    def pays_as_played(self) -> bool:
        """Whether some points are paid as the hand is played, whoever wins it: pass bonuses (not with bad points),
        or the salida of a passed double lead (:meth:`as_played`)."""
        return (self.pass_bonus and self.count != Count.BAD) or (self.salida > 0 and not self.salida_won)

    def as_played(self, facts: HandFacts, seating: Seating) -> list[tuple[int, int, str]]:
        """``(side, points, name)`` of what the plays of ``facts.history`` paid as they fell: each pass bonus
        (:meth:`pass_bonuses`), and the salida (:func:`salida_paid`)."""
        out: list[tuple[int, int, str]] = []
        if self.salida and not self.salida_won:
            paid = salida_paid(facts, seating, self.salida)
            if paid is not None:
                out.append((paid[0], paid[1], "salida"))
        if self.pass_bonus and self.count != Count.BAD:
            out += [(side, value, f"pass bonus {side}") for side, value in
                    self.pass_bonuses(facts, seating, self.pass_rule, self.pass_points)]
        return out

    @property
    def tens(self) -> bool:
        """Whether hand points are rounded down to tens (the 000 pass bonuses' poker chips)."""
        return self.pass_bonus and self.pass_rule != PASS_DOMINICAN

    def _pips(self, facts: HandFacts, seat: int) -> int:
        p = facts.pips[seat]
        if self.blank and facts.hands is not None and _held(facts.hands[seat], DOUBLE_BLANK):
            p += self.blank
        if self.doubled and facts.hands is not None and facts.hands[seat] & DOUBLES:
            p *= 2
        return p

    def _divide(self, points: int) -> int:
        if self.divide > 1 and points > 0:
            return max(1, points // self.divide)
        return points

    def score(self, facts: HandFacts, winner: int | None, note: str, seating: Seating) -> HandResult:
        result = self._score(facts, winner, note, seating)
        if not (self.pays_as_played and facts.history is not None):
            return result
        # pass bonuses are paid as they fall, however the hand ends (000: "den Punktestand mit
        # Pokerchips festzuhalten"); bad points have none. The salida too, at the lead, whoever wins.
        scores, points, bonuses = list(result.scores), result.points, list(result.bonuses)
        at_once = [0] * len(scores)
        for side, value, name in self.as_played(facts, seating):
            scores[side] += value
            if side == result.winner:
                points += value
            bonuses.append((name, value))
            if name == "salida":
                at_once[side] += value
        return replace(result, points=points, scores=tuple(scores), bonuses=tuple(bonuses),
                       at_once=tuple(at_once) if any(at_once) else ())

    def _score(self, facts: HandFacts, winner: int | None, note: str, seating: Seating) -> HandResult:
        teams = seating.teams
        sides = seating.sides
        n = len(facts.pips)
        pips = [self._pips(facts, s) for s in range(n)]
        totals = _team_totals(pips, seating)
        scores = [0] * sides
        bonuses: list[tuple[str, int]] = []
        void = note == "tie:replay"
        if self.count == Count.BAD:
            scores = list(totals)
            low = min(totals)
            winner = totals.index(low) if totals.count(low) == 1 else None
            points = (max(totals) - low) if winner is not None else 0
            return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), note=note)
        if self.count == Count.DIFFERENCE:
            low = min(totals)
            winner = totals.index(low) if totals.count(low) == 1 else None
            points = self._divide(max(totals) - low) if winner is not None else 0
            if winner is not None:
                scores[winner] = points
            return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), note=note)
        if note == "tie:own-pips":
            scores = [self._divide(t - t % 10 if self.tens else t) for t in totals]
            return HandResult(facts.termination, None, 0, facts.seat, tuple(scores), note=note)
        points = 0
        if winner is not None:
            losers = sum(p for s, p in enumerate(pips) if teams[s] != winner)
            if self.count == Count.ALL:
                points = sum(pips)
            elif self.count == Count.GAME:
                points = 1
            elif self.count == Count.MILO:
                points = 1
                if facts.termination == Termination.DOMINO and self._leaves_equal_ends(facts):
                    points = 2
                    bonuses.append(("milo", 1))
            elif self.count == Count.BLOCK_DIFFERENCE and facts.termination == Termination.BLOCKED:
                points = losers - totals[winner]
            else:
                points = losers
            if self.tens:
                points -= points % 10
            points = self._divide(points)
            if facts.termination == Termination.DOMINO:
                if self.capicu_double and capicua(facts.last_tile, facts.ends_before, self.capicu_doubles):
                    bonuses.append(("capicúa doubled", points))
                    points *= 2
                for name, value in self._bonuses(facts):
                    bonuses.append((name, value))
                    points += value
            if self.salida and self.salida_won and teams[facts.leader] == winner:
                bonuses.append(("salida", self.salida))
                points += self.salida
            scores[winner] = points
        return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), void=void,
                          bonuses=tuple(bonuses), note=note)

    @staticmethod
    def _leaves_equal_ends(facts: HandFacts) -> bool:
        if facts.last_tile is None or facts.ends_before is None:
            return False
        a, b = facts.ends_before
        t = facts.last_tile
        for end, other in ((a, b), (b, a)):
            if t.matches(end) and t.other(end) == other:
                return True
        return False

    def _bonuses(self, facts: HandFacts) -> list[tuple[str, int]]:
        """Capicú, dominao and chuchazo for the last tile of a domino (Quinientos)."""
        t, ends = facts.last_tile, facts.ends_before
        if t is None or ends is None:
            return []
        a, b = ends
        fits_both = t.matches(a) and t.matches(b)
        if t == DOUBLE_BLANK and self.chuchazo:
            if self.chuchazo == "any" or (a == 0) != (b == 0):
                return [("chuchazo", 100)]
            return []
        if not self.capicu or not fits_both:
            return []
        if not t.is_double:
            return [("capicú", self.capicu)]
        if t != DOUBLE_BLANK:
            return [("dominao", self.capicu)]
        return []

    @staticmethod
    def play_bonus(play: PassedPlay, players: int, opponents: int, rule: str = PASS_PR, unit: int = 25) -> int:
        """The bonus of one ``play`` that the next ``passes`` players answered with a pass (000: "einen Bonus
        von 20 Punkten ... Beim weiteren Fortgang des Spiels ... 10 Punkte ... Wenn zweimal hintereinander
        gepasst wird, bekommt nur der erste Spieler die Punkte. Wenn aber dreimal hintereinander gepasst
        wird, wie in einem gesperrten Spiel, dann bekommt der Spieler, der den letzten Stein gespielt hat,
        20 Punkte – 10 für jeden Gegenspieler, der gepasst hat"): 20 for the hand's first such play
        (``first``), 10 later, whatever the number of passes; when every other player passed, or the play
        blocked the hand (``blocking``), 10 for each of the player's ``opponents``; else nothing.

        ``rule`` ``PASS_DOMINICAN`` (dominoesonline.com's Dominican "capicua" game, docs/variants.md): the lead
        (``lead``, the tile led) that the next player passes pays 25 when it is a double, 50 when not; a later
        play that every other player passes (*pase corrido*) 25; a play that blocks the hand nothing. A house may
        pay another ``unit`` than 25 (a lead that is no double: twice it)."""
        passes, first, blocking, lead = play
        if rule == PASS_NONE:
            return 0
        if rule == PASS_DOMINICAN:
            if lead is not None:
                return (unit if lead.is_double else 2 * unit) if passes >= 1 else 0
            return unit if passes >= players - 1 and not blocking else 0
        if blocking or passes >= players - 1:
            return 10 * opponents
        if passes >= 1:
            return 20 if first else 10
        return 0

    @staticmethod
    def pass_bonuses(facts: HandFacts, seating: Seating, rule: str = PASS_PR, unit: int = 25) -> list[tuple[int, int]]:
        """``(side, points)`` for each play of ``facts.history`` that made the next player pass
        (:meth:`play_bonus`); the last play blocks the hand when ``facts.termination`` is ``blocked``."""
        out: list[tuple[int, int]] = []
        history = facts.history or ()
        n = len(facts.pips)
        teams = seating.teams
        i = 0
        while i < len(history):
            seat, tile = history[i]
            if tile is None:
                i += 1
                continue
            k = i + 1
            while k < len(history) and history[k][1] is None:
                k += 1
            opponents = sum(1 for j in range(1, n) if teams[(seat + j) % n] != teams[seat])
            lead = tile if all(t is None for _, t in history[:i]) else None
            blocking = k == len(history) and facts.termination == Termination.BLOCKED
            played = PassedPlay(k - i - 1, not out, blocking, lead)
            bonus = PointScoring.play_bonus(played, n, opponents, rule, unit)
            if bonus:
                out.append((teams[seat], bonus))
            i = k
        return out


def salida_paid(facts: HandFacts, seating: Seating, points: int) -> tuple[int, int] | None:
    """``(side, points)`` when the hand of ``facts.history`` pays the salida (teamocuba.com, Cuban domino: "salida
    vale 20"): its lead is a double and the next player passes it, so the leading side scores ``points`` at once,
    whoever wins the hand; None otherwise (another lead, a lead answered, no history)."""
    history = facts.history
    if not history or len(history) < 2:
        return None
    (seat, tile), (_, answer) = history[0], history[1]
    if tile is None or not tile.is_double or answer is not None:
        return None
    return seating.teams[seat], points


# -- scoring during play (All Fives, 003) ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayScoring:
    """Points scored by a play, from the open ends it leaves (All Fives and All Fives and Threes).

    "Wann immer ein Spieler einen Stein an einem Ende legt, sodass die Punkte an beiden Enden eine
    Summe ergeben, die ein Vielfaches von fünf ist, wird diese Zahl zu seinem Punktestand hinzugefügt"

    The ends count their outer halves; a double lying crosswise at an end counts both halves; a
    lone lead tile counts its pips. ``threes``: multiples of three score as well. ``pub``: the
    British pub count, the number of fives plus the number of threes (15 scores 3 + 5 = 8)."""

    threes: bool = False
    pub: bool = False

    @staticmethod
    def ends_total(line: Sequence[tuple[Tile | None, bool]], ends: tuple[int, int] | None) -> int:
        """The count of the open ends of ``line`` (left to right, as ``Position.line()``; only its first and
        last tiles are read: ``Position.line_ends()`` gives them) whose open numbers are ``ends`` (left, right);
        an end whose tile is not known (None: a set-up's table known by its ends) counts its number once."""
        if not line or ends is None:
            return 0
        if len(line) == 1:
            return line[0][0].pips
        left, right = ends
        total = left + right
        if is_double(line[0][0]):
            total += left
        if is_double(line[-1][0]):
            total += right
        return total

    def points(self, total: int) -> int:
        """What a play that leaves the ends at ``total`` scores (0: nothing)."""
        if total <= 0:
            return 0
        fives = total % 5 == 0
        threes = self.threes and total % 3 == 0
        if self.pub:
            return (total // 5 if fives else 0) + (total // 3 if threes else 0)
        return total if fives or threes else 0

    def explain(self, total: int) -> str:
        """``"the open ends count 15, which scores 8 (3 fives and 5 threes)"``."""
        points = self.points(total)
        if not points:
            return (gettext("the open ends count {total}, which is no multiple of five or three and scores nothing",
                            total=total) if self.threes else
                    gettext("the open ends count {total}, which is no multiple of five and scores nothing",
                            total=total))
        if self.pub:
            parts = [ngettext("{n} five", "{n} fives", total // 5) if k == 5 else
                     ngettext("{n} three", "{n} threes", total // 3) for k in (5, 3)
                     if total % k == 0 and (k == 5 or self.threes)]
            return gettext("the open ends count {total}, which scores {points} ({parts})", total=total,
                           points=points, parts=gettext(" and ").join(parts))
        return gettext("the open ends count {total}, which scores {points}", total=total, points=points)


def is_double(tile: Tile | None) -> bool:
    """Whether an end's tile (``Position.line_ends()``; None: not known) is a double."""
    return tile is not None and tile.is_double


def round_up(points: int, unit: int) -> int:
    return -(-points // unit) * unit if points > 0 else 0


@dataclass(frozen=True, slots=True)
class DifferenceAward:
    """The end of an All Fives hand: the points scored during play (``HandFacts.play_points``), and
    for the winner the sum, over the losers, of each loser's pips minus the winner's, rounded up
    to ``unit`` (003: "Jeder verlierende Spieler nimmt die Differenz zwischen seiner und der
    Punktzahl des Gewinners am Ende, rundet sie auf fünf auf und schreibt sie dem Gewinner gut").
    ``points`` of the result is that award; ``scores`` add the play points. ``award=False``: the
    pubs' form, where only the points scored during play count and the hand's winner gets nothing more."""

    unit: int = 5
    award_hand: bool = True

    def award(self, facts: HandFacts, winner: int | None, seating: Seating) -> int:
        if winner is None or not self.award_hand:
            return 0
        best = facts.pips[seating.members(winner)[0]]
        return sum(round_up(p - best, self.unit) for s, p in enumerate(facts.pips) if seating.teams[s] != winner)

    def score(self, facts: HandFacts, winner: int | None, note: str, seating: Seating) -> HandResult:
        scores = [0] * seating.sides
        for seat, p in enumerate(facts.play_points or ()):
            scores[seating.teams[seat]] += p
        points = self.award(facts, winner, seating)
        if winner is not None:
            scores[winner] += points
        return HandResult(facts.termination, winner, points, facts.seat, tuple(scores), note=note)
