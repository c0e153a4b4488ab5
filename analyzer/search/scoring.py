"""A variant's hand value as a few ints, for the compiled cores to compute at every finished hand.

The searches value a finished hand with ``rules.value(HandFacts(...))``. Called from C for every
leaf, that costs a Python call, a ``HandFacts`` and a ``HandResult`` each time. :func:`describe`
turns the rules into a :class:`LeafScoring`, a flat description of what that ``value`` computes, which
``_leaf.h`` evaluates in C from the facts a core has at a finished hand (who ended it and how, the
tiles left in each hand, the leader, the last tile and the open numbers before it). It knows every
policy of the variants in :mod:`analyzer.rules.variants` that the block, arms and draw-game searches
can meet:

* who wins a block: ``BlockRule`` and ``BlockDecider`` (``by`` team, player, last-or-right or last-or-left; every
  ``tie`` rule; [0-0] counting ``blank``; doubles counted once);
* what the hand is worth: ``HandScoring`` (losers' or all pips) and ``PointScoring`` (losers', all,
  a point a game, Milo, bad points, difference, the block game's difference; divided by ten;
  [0-0] worth ``blank``; doubled hands; the Quinientos capicú, dominao and chuchazo (and the Dominican
  capicú of 25); a capicúa that doubles the points; the leading side's salida; the pass
  bonus's rounding down to tens: the bonuses themselves are paid play by play, so the block
  searches add them as each play makes them, not at the leaf); and All Fives' ``DifferenceAward``: each loser's pips
  less the winner's, rounded up to its ``unit``, or (``award_hand`` false, the pubs' form) nothing
  at the end of the hand (the points scored during play are the search's, never the leaf's);
* Kozel's ``KozelBlock`` and ``KozelScoring``: the losing team charged its remainder (a hand holding [0-0] alone
  counting 10), a fish won by the lower remainder (equal: the eggs, nothing charged in the hand) or, without eggs,
  each team charged its own (``COUNT`` ``charged`` and ``charged-each``, ``LeafScoring.lone_blank``);
* whose value: a ``Variant`` of two sides (side 0's score less side 1's, bad points negated), or
  one player against the rest (the ``AgainstTheRest`` view of a game of individual players).

Anything else (another class, a subclass that overrides a method, a value this module does not
know) gives None: the core then asks ``rules.value`` in Python for every finished hand, exact and
slower, and the analysis says so (``block.core_note``, ``tree.arms_note``, ``draw.draw_note``).
``tests/test_scoring_core.py`` checks the C evaluation against ``value`` on random finished hands of
every option named here.

The description also says how far both block searches may prune (:attr:`LeafScoring.bound`,
:func:`search_bound`): what a side can lose at most, in the pips it holds (or every pip held) and
the points beyond them; :func:`standard_scoring` recognises the scorings the compiled core writes
inline (no description needed)."""
from __future__ import annotations

from dataclasses import astuple, dataclass

from ..rules.kozel import KozelBlock, KozelScoring
from ..rules.policies import PASS_PR, BlockDecider, PassedPlay, BlockRule, DifferenceAward, HandScoring, PointScoring
from ..rules.variants import Variant
from ..rules.modes import Count

__all__ = ["LeafScoring", "counts_pass_bonuses", "describe", "pass_bonus_table", "BY", "TIE", "COUNT", "CHUCHAZO",
           "NO_BOUND", "OWN_PIPS", "ALL_PIPS", "FIXED", "search_bound", "standard_scoring", "value_bound", "hand_bound"]

#: The codes of the policies' string options, as ``_leaf.h`` numbers them.
BY = {"team": 0, "player": 1, "last-or-right": 2, "last-or-left": 3}
TIE = {"draw": 0, "leader": 1, "more-tiles": 2, "last": 3, "last-loses": 4, "replay": 5, "own-pips": 6}
#: ``COUNT``: ``PointScoring.count`` (``HandScoring``'s two), then ``DifferenceAward``: ``award`` the award of
#: a hand, ``nothing`` none (``award_hand`` false); then Kozel's (``KozelScoring`` with ``KozelBlock``): ``charged`` the
#: losing side charged its remainder, a fish won by the lower remainder (equal: the eggs, nothing charged), and
#: ``charged-each`` the same but a fish, which charges each side its own remainder (no eggs).
#: The modes are ``rules.modes.Count``'s, in its order (``tests/test_names.py`` checks them against ``_leaf.h``).
COUNT = {**{mode.value: k for k, mode in enumerate(Count)}, "award": len(Count), "nothing": len(Count) + 1,
         "charged": len(Count) + 2, "charged-each": len(Count) + 3}
CHUCHAZO = {"": 0, "any": 1, "one-end": 2}
_POINT_COUNTS = tuple(COUNT)[:COUNT["award"]]         # the counts of PointScoring
#: What Kozel's hand holding [0-0] alone counts (``rules.kozel.remainders``).
_KOZEL_LONE_BLANK = 10

#: What a side can lose at most in a finished hand, which the searches prune with (``LeafScoring.bound``):
#: nothing known, the pips it holds itself, every pip still held, or a fixed number (``LeafScoring.most``).
NO_BOUND, OWN_PIPS, ALL_PIPS, FIXED = 0, 1, 2, 3


@dataclass(frozen=True, slots=True)
class LeafScoring:
    """What ``value`` computes for a finished hand, as ints (the field order is ``_leaf.h``'s).

    ``view``: -1 the value of a two-sided variant (side 0 less side 1), else the seat whose value
    it is against all the others. ``teams``: the variant's own side of each seat, ``sides`` how many.
    ``by``, ``tie``, ``block_blank``, ``doubles_once``: the block rule (``BY``, ``TIE``); then the
    hand scoring: ``count`` (``COUNT``), ``divide``, ``blank``, ``capicu``, ``chuchazo`` (``CHUCHAZO``),
    ``tens`` (a pass-bonus scoring: points rounded down to tens), ``doubled``, ``unit`` (what the
    award of ``DifferenceAward`` is rounded up to; 1 for the others), ``capicu_double`` (a capicúa
    doubles the points; 2: a double that fits both ends too), ``salida`` (the side that led scores this more when it
    wins) and ``lone_blank`` (what a hand holding [0-0] alone counts in Kozel's remainders; 0: its pips)."""

    view: int
    sides: int
    by: int
    tie: int
    block_blank: int
    doubles_once: int
    count: int
    divide: int
    blank: int
    capicu: int
    chuchazo: int
    tens: int
    doubled: int
    unit: int
    capicu_double: int
    salida: int
    lone_blank: int
    teams: tuple[int, ...]

    @property
    def bound(self) -> int:
        """The most a side of the search can lose, in the pips left at the end of the hand and the
        points :attr:`most` beyond them (so that the search may prune with the pips still held:
        ``blockdeal.IntDeal`` reads it).

        ``OWN_PIPS``: two sides scoring the losers' pips (divided, rounded down to tens, whatever the
        block and tie rules: the loser pays at most its own pips), bad points (the other's less one's
        own) or the difference (at most one's own). ``ALL_PIPS``: two sides scoring all pips, or the
        losers' pips with the own-pips tie (each side scores its own pips: a side may lose the other
        side's); and one player against the rest, where the winner takes the losers' pips, all pips
        or a difference (the player may pay the others' pips too). ``FIXED``: a point a game or Milo,
        whatever the pips (a side holding only [0-0] still loses a point). ``NO_BOUND``: the same with
        the own-pips tie (each side scores its own pips), doubled hands, and bad points against the
        rest (the others' pips less his own times their number). All Fives' award: a side loses at
        most its own pips (each loser pays his pips less the winner's, rounded up: ``most``), one
        player against the rest every pip; no award: ``FIXED`` (nothing, ``most`` 0)."""
        if self.count == COUNT["nothing"]:
            return FIXED
        if self.count in (COUNT["charged"], COUNT["charged-each"]):
            return OWN_PIPS             # (the loser, or each side of a fish, charged its own remainder)
        if self.count == COUNT["award"]:
            return ALL_PIPS if self.view >= 0 else OWN_PIPS
        if self.count in (COUNT["game"], COUNT["milo"]):
            return NO_BOUND if self.tie == TIE["own-pips"] else FIXED
        if self.doubled or self.capicu_double:
            return NO_BOUND
        if self.view >= 0:
            return NO_BOUND if self.count == COUNT["bad"] else ALL_PIPS
        if self.count == COUNT["all"] or (self.tie == TIE["own-pips"] and self.count not in (COUNT["bad"],
                                                                                              COUNT["difference"])):
            return ALL_PIPS
        return OWN_PIPS

    @property
    def most(self) -> int:
        """The points a side may lose beyond the pips of its :attr:`bound` (``FIXED``: all of them): a
        point a game (Milo: two), [0-0] worth more than its pips (it lies in one hand only), and the
        largest bonus for the last tile (capicú or dominao, chuchazo's 100); the award's rounding up,
        at most ``unit - 1`` for each loser (all the seats but one); a lone [0-0] counting ``lone_blank``."""
        if self.count == COUNT["award"]:
            return (self.unit - 1) * (len(self.teams) - 1)
        fixed = {COUNT["game"]: 1, COUNT["milo"]: 2}.get(self.count, 0)
        return (fixed + self.blank + max(self.capicu, 100 if self.chuchazo else 0) + self.salida
                + self.lone_blank)

    def ints(self) -> tuple[int, ...]:
        """The flat tuple the compiled cores take: the fields in order, then one side per seat."""
        *head, teams = astuple(self)
        return (*head, len(teams), *teams)


def describe(rules) -> LeafScoring | None:
    """The description of ``rules.value`` (a :class:`Variant` or one player against the rest), or
    None when a policy is one the compiled evaluator does not know."""
    if type(rules) is Variant or _plain_variant(rules):
        return _describe(rules, -1)
    variant, seat = getattr(rules, "variant", None), getattr(rules, "seat", None)
    # one player against the rest (analysis.AgainstTheRest): recognised by its own class name, so
    # that a look-alike with another value is not taken for it
    if (type(rules).__name__ == "AgainstTheRest" and type(rules).__module__ == "analyzer.analysis"
            and isinstance(variant, Variant) and _plain_variant(variant) and isinstance(seat, int)
            and 0 <= seat < variant.players):
        return _describe(variant, seat)
    return None


def _plain_variant(rules) -> bool:
    cls = type(rules)
    return (isinstance(rules, Variant) and cls.value is Variant.value and cls.hand_result is Variant.hand_result)


def _describe(variant: Variant, view: int) -> LeafScoring | None:
    seating = variant.seating
    if not 2 <= seating.players <= 4 or (view < 0 and seating.sides != 2):
        return None
    block, scoring = variant.block, variant.scoring
    if type(block) is KozelBlock and type(scoring) is KozelScoring and view < 0:
        # (KozelScoring is a PointScoring("bad") whose other options it does not read; its remainders count a lone
        # [0-0] as 10; a fish is the team totals' lower, equal: the eggs, or without eggs each charged its own)
        return LeafScoring(view, seating.sides, BY["team"], TIE["draw"], 0, 0,
                           COUNT["charged" if block.eggs else "charged-each"], 1, 0, 0, 0, 0, 0, 1, 0, 0,
                           _KOZEL_LONE_BLANK, tuple(seating.teams))
    if type(block) is BlockRule:            # (its ``by`` is not read: always the team totals, a tie drawn)
        rule = (0, 0, 0, 0)
    elif type(block) is BlockDecider and block.by in BY and block.tie in TIE and block.blank >= 0:
        rule = (BY[block.by], TIE[block.tie], block.blank, int(bool(block.doubles_once)))
    else:
        return None
    if type(scoring) is HandScoring and scoring.count in (Count.LOSERS, Count.ALL):
        # the same as PointScoring(count) with no option (HandScoring hands a replay or own-pips tie to it)
        hand = (COUNT[scoring.count], 1, 0, 0, 0, 0, 0, 1, 0, 0, 0)
    elif type(scoring) is DifferenceAward and scoring.unit >= 1:
        hand = (COUNT["award" if scoring.award_hand else "nothing"], 1, 0, 0, 0, 0, 0, scoring.unit, 0, 0, 0)
    elif (type(scoring) is PointScoring and scoring.count in _POINT_COUNTS and scoring.chuchazo in CHUCHAZO
          and scoring.divide >= 1 and scoring.blank >= 0 and scoring.capicu >= 0 and scoring.salida >= 0):
        # (the salida of a passed double lead is paid as played, with the pass bonuses: not the leaf's)
        hand = (COUNT[scoring.count], scoring.divide, scoring.blank, scoring.capicu, CHUCHAZO[scoring.chuchazo],
                int(scoring.tens), int(bool(scoring.doubled)), 1,
                (2 if scoring.capicu_doubles else 1) if scoring.capicu_double else 0,
                scoring.salida if scoring.salida_won else 0, 0)
    else:
        return None
    return LeafScoring(view, seating.sides, *rule, *hand, tuple(seating.teams))


def standard_scoring(variant) -> tuple[bool, int]:
    """``(True, cu)`` when the variant scores with the standard policies, else ``(False, 0)``.

    Standard: ``Variant``'s own ``value``/``hand_result``, a ``BlockRule`` (the side with fewer
    pips wins a blocked hand, equal pips is a draw) and a ``HandScoring`` counting the losers'
    pips (``cu = 0``) or every pip left (``cu = 1``), for two sides. Also bad points (``cu = -1``:
    a ``PointScoring("bad")`` with no bonus for [0-0] and no doubling, whatever the block rule:
    the value is the other side's pips minus one's own). The search then writes the value of a
    finished hand inline from the two sides' pip totals and prunes with its bounds.
    """
    cls = type(variant)
    if not (cls.value is Variant.value and cls.hand_result is Variant.hand_result
            and max(variant.seating.teams) == 1):
        return False, 0
    scoring = variant.scoring
    if (type(variant.block) is BlockRule and variant.block.by == "team"
            and type(scoring) is HandScoring and scoring.count in (Count.LOSERS, Count.ALL)):
        return True, int(scoring.count == Count.ALL)
    if type(scoring) is PointScoring and scoring.count == Count.BAD and not scoring.blank and not scoring.doubled:
        return True, -1
    return False, 0


def search_bound(rules, standard: tuple[bool, int]) -> tuple[int, int]:
    """What a side loses at most under ``rules``, for the block search's bound: the kind
    (:attr:`LeafScoring.bound`; ``NO_BOUND``: nothing known) and the points beyond the pips
    (:attr:`LeafScoring.most`). ``standard``: :func:`standard_scoring` of ``rules`` (its ``cu`` 1, all
    pips; else one's own)."""
    if standard[0]:
        return (ALL_PIPS if standard[1] == 1 else OWN_PIPS), 0
    described = describe(rules)
    if described is None:
        return NO_BOUND, 0
    return described.bound, described.most


def value_bound(rules) -> tuple[bool, int] | None:
    """How a finished hand's value under ``rules`` is bounded either way, from :func:`search_bound`:
    ``(False, most)`` by the pips still held at the end plus ``most``, ``(True, most)`` by ``most`` alone
    (whatever the pips); None where nothing bounds it (points scored during play or pass bonuses, which a
    hand pays as it goes)."""
    if getattr(rules, "play", None) is not None or counts_pass_bonuses(rules):
        return None
    kind, most = search_bound(rules, standard_scoring(rules))
    if kind == NO_BOUND:
        return None
    return kind == FIXED, most


def hand_bound(rules, position) -> int | None:
    """The most either side can still win or lose in the hand of ``position`` under ``rules`` (a value of it
    lies in ``[-bound, +bound]``), from :func:`value_bound`: every pip of the set not yet on the table
    (whoever holds them at the end: the hands, the boneyard) and the points beyond the pips; None where
    nothing bounds it."""
    bound = value_bound(rules)
    if bound is None:
        return None
    fixed, most = bound
    if fixed:
        return most
    n = position.max_pip
    on_table = sum(move.tile.pips for move, *_ in position.history if move.tile is not None)
    return n * (n + 1) * (n + 2) // 2 - on_table + most


def counts_pass_bonuses(rules) -> bool:
    """Whether ``rules`` pays pass bonuses (``PointScoring.pass_bonus``; bad points have none): the block
    searches then pay each play's bonus as it falls (:func:`pass_bonus_table`)."""
    scoring = getattr(rules, "scoring", None)
    return isinstance(scoring, PointScoring) and scoring.pays_as_played


def pass_bonus_table(teams: tuple[int, ...], rule: str = PASS_PR, unit: int = 25) -> tuple[list, list, int]:
    """The pass bonuses (``PointScoring.play_bonus`` under ``rule``, ``PointScoring.pass_rule``) of the seats of
    ``teams``, as the block searches pay them: ``bonus[s][k]``, what seat ``s``'s side gets for a play that the
    next ``k`` seats pass (``k = n - 1``: all of them, ``s`` plays again), as ``(when a bonus was paid before,
    when none was)``; ``blocking[s]``, for a play that blocks the hand; and the most a play may earn. The plays
    of the table are never the lead (the searches play a lead on the position, and a lead's bonus is among
    those its history paid: ``Solver._paid``), so the Dominican lead's 25 or 50 is not in it."""
    n = len(teams)
    opponents = [sum(1 for t in teams if t != teams[s]) for s in range(n)]

    def pay(k: int, s: int, first: bool, blocking: bool = False) -> int:
        return PointScoring.play_bonus(PassedPlay(k, first, blocking), n, opponents[s], rule, unit)
    bonus = [[(pay(k, s, False), pay(k, s, True)) for k in range(n)] for s in range(n)]
    blocking = [pay(0, s, False, True) for s in range(n)]
    return bonus, blocking, max([x for row in bonus for pair in row for x in pair] + blocking)
