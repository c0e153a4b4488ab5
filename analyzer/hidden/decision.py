"""One decision valued exactly under hidden information (see :mod:`analyzer.hidden`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..inference import view_at, worlds_at, world_position
from ..position import Position
from ..search.tree import revealed
from ..tiles import Move
from .game import build_game
from .lp import behaviour, forced_value, solve_game

__all__ = ["HiddenDecision", "hidden_decision", "public_deals", "public_game", "public_hands", "within_bound", "MAX_DEALS", "MAX_HAND", "TooLarge", "public_ranges",
           "public_stock_down", "stock_down_positions"]

#: The size bound (docs/hidden.md, bench/bench_hidden.py): at most this many deals for one decision, and
#: every hand at most :data:`MAX_HAND` tiles; solved in seconds within it.
MAX_DEALS = 700
MAX_HAND = 4


class TooLarge(ValueError):
    """The decision has more deals than the bound."""


@dataclass(frozen=True)
class HiddenDecision:
    """The exact hidden-information values of one decision, all for side 0 (as the exact search's).

    ``value``: the game value (the mean over every deal of the position, both players optimal by what they
    know); ``moves``: each legal move of the mover with the game value when his actual hand plays it (his
    other possible hands, and the opponent, still optimal); ``strategy``: the probability of each move in the
    mover's optimal strategy at this decision (the LP's; more than one move where he must mix or where moves
    are equally good); ``reach``: the weight of the deals that give the mover his actual hand (a move's loss
    per such deal is its value's gap to ``value`` divided by it)."""

    mover: int
    deals: int
    value: float
    moves: tuple[tuple[Move, float], ...]
    strategy: tuple[tuple[Move, float], ...]
    reach: float
    infosets: tuple[int, int]       # the information sets of the mover and of the other player
    nodes: int
    hand_value: float = 0.0         # the mean over the deals that give the mover his actual hand, both playing
    #                                 the optimal strategies found (side 0)
    method: str = "lp"              # "lp" (the sequence-form LP) or "cfr" (CFR+ on the public tree: hidden.cfr)
    bounds: tuple[float, float] | None = None     # "cfr": the certified bracket of ``value`` (side 0, low to high)
    move_bounds: tuple[tuple[Move, float, float], ...] | None = None   # "cfr": each move's value's bracket
    closed: bool = True             # every bracket within the precision asked ("lp": exact to the LP's precision)
    iterations: int = 0             # "cfr": the iterations run, all the solves together
    seconds: float = 0.0            # "cfr": the time taken
    memory: int = 0                 # "cfr": the bytes of the flattened tree and of one run's arrays

    def loss(self, move: Move) -> float:
        """What ``move`` costs the mover per deal that gives him his hand, against the best (>= 0)."""
        best = max(v * self._sign() for _, v in self.moves)
        return (best - dict(self.moves)[move] * self._sign()) / self.reach

    def width(self) -> float:
        """The widest of its brackets (the game value's and each move's) in points per deal that gives the mover his
        actual hand: 0 where the values are exact (the LP's)."""
        if self.bounds is None:
            return 0.0
        spans = [self.bounds] + [(lo, up) for _, lo, up in self.move_bounds or ()]
        return max(up - lo for lo, up in spans) / self.reach

    def hand_values(self) -> tuple[tuple[Move, float], ...]:
        """Each move's value per deal that gives the mover his actual hand (side 0): ``hand_value`` less what
        the move costs against the game value (``(value - move's value) / reach``). Where he need not mix, the
        best move's is ``hand_value`` and the gap between two moves is the gap between their losses."""
        return tuple((m, self.hand_value - (self.value - v) / self.reach) for m, v in self.moves)

    def _sign(self) -> int:
        return 1 if self.mover == 0 else -1


def hidden_decision(rules, pos: Position, deals: Sequence[Position], weights: Sequence[float] | None = None
                    ) -> HiddenDecision:
    """The decision of the player to move in ``pos`` (his actual hand), in the game dealt one of ``deals``
    (positions of the same moment, each player's hand and the boneyard's order filled in; ``pos``'s own deal
    must be one of them). ``rules``: the variant (two seats, side 0 against side 1)."""
    mover = pos.turn
    game = build_game(rules, deals, mover, weights)
    solved = solve_game(game)
    key = (mover, (("hand", pos.hands[mover]),))
    at = game.index[0].get(key)
    sign = 1 if rules.seating.teams[mover] == 0 else -1
    moves = pos.legal_moves()
    reach = sum(w for d, w in zip(deals, weights or [1.0] * len(deals)) if d.hands[mover] == pos.hands[mover])
    reach /= float(sum(weights or [1.0] * len(deals)))
    if at is None:                  # one legal move: no choice
        values = tuple((m, sign * solved.value) for m in moves)
        strategy = tuple((m, 1.0) for m in moves)
    else:
        node = game.infosets[0][at]
        values = tuple((m, float(sign * forced_value(game, node, k))) for k, m in enumerate(node.moves))
        strategy = tuple(zip(node.moves, map(float, behaviour(node, solved.plans[0]))))
    x, y = solved.plans
    mine = game.by_hand.get(pos.hands[mover], {})
    hand_value = sign * sum(x[s1] * y[s2] * w for (s1, s2), w in mine.items()) / reach
    return HiddenDecision(mover, len(deals), float(sign * solved.value), values, strategy, reach,
                          (len(game.infosets[0]), len(game.infosets[1])), game.nodes, float(hand_value))


def within_bound(pos: Position, deals: int) -> bool:
    """Whether a decision of ``pos`` with ``deals`` deals is small enough to solve exactly here (two players,
    every hand at most :data:`MAX_HAND` tiles, at most :data:`MAX_DEALS` deals)."""
    return pos.n == 2 and deals <= MAX_DEALS and all(pos.count(s) <= MAX_HAND for s in range(pos.n))


def public_deals(rep, seen: int, limit: int = MAX_DEALS) -> list[Position]:
    """The positions after the first ``seen`` moves of the replayed block game ``rep``, one for every deal
    the public record allows (what nobody at the table can rule out: :func:`analyzer.inference.worlds_at`
    with the public view). :class:`TooLarge` past ``limit``. A draw game's: :func:`public_game`."""
    if rep.variant.drawing is not None:
        raise ValueError("a draw game's deals weigh differently: list them with public_game")
    return public_game(rep, seen, limit)[0]


def public_hands(rep, seen: int, limit: int) -> tuple[Position, list[tuple[int, ...]]]:
    """The deals the public record of the block game ``rep`` allows after its first ``seen`` moves, as
    :func:`public_deals` lists them, but each as the hands' tile masks by seat (each dealt hand less the tiles its
    seat has played), with the position after those moves in the actual deal: some 5 microseconds a deal, not the
    replay of the record a position each takes. :class:`TooLarge` past ``limit``."""
    if rep.variant.drawing is not None:
        raise ValueError("a draw game's deals weigh differently: list them with public_game")
    worlds = worlds_at(rep, seen)
    if worlds.count > limit:
        raise TooLarge(f"{worlds.count:,} deals agree with the record here; the exact hidden-information "
                       f"solver takes at most {limit:,}")
    played = [0] * len(rep.players)
    for st in rep.steps[:seen]:
        if st.move is not None and st.move.tile is not None:
            played[st.seat] |= st.move.tile.bit
    view = worlds.view
    out = []
    for w in worlds:
        dealt = view.deal(w)
        out.append(tuple(dealt[s] & ~played[s] for s in range(len(played))))
    pos = rep.position_at(seen)
    first = world_position(rep, view.deal(next(iter(worlds))), seen)     # (the bookkeeping checked once)
    if tuple(first.hands) != out[0] or tuple(pos.hands) not in set(out):
        raise ValueError("the public deals' hands do not follow from the record's moves")
    return pos, out


def public_ranges(rep, seen: int) -> tuple[Position, tuple[list[int], ...]]:
    """The deals the public record of the block game ``rep`` allows after its first ``seen`` moves, as each seat's
    possible hands (tile masks: his hand now), without listing the deals: they are every pair of hands sharing no
    tile, where what the record shows is per tile (the passes, the lead; no fact on whole hands dealt); the count of
    those pairs is checked against the record's count of deals. With the position after those moves in the actual
    deal. ValueError where the deals are not such pairs."""
    from itertools import combinations

    from .ranges import disjoint_pairs

    if rep.variant.drawing is not None or len(rep.players) != 2:
        raise ValueError("the public hands of a block game for two")
    view = view_at(rep, seen)
    if view.whole is not None or view.must is not None or any(view.fixed[2:]):
        raise ValueError("the record shows facts of whole hands: its deals are no pairs of per-tile hands")
    hands = []
    for s in range(2):
        free = [t.bit for i, t in enumerate(view.unseen) if view.allowed[i] >> s & 1]
        hands.append([view.fixed[s] | sum(c) for c in combinations(free, view.room[s])])
    pos = rep.position_at(seen)
    count = worlds_at(rep, seen).count
    if disjoint_pairs(hands[0], hands[1]) != count or any(pos.hands[s] not in set(hands[s]) for s in range(2)):
        raise ValueError("the public deals are not the disjoint pairs of the players' hands")
    return pos, tuple(hands)


#: A draw game's public worlds listed to find its distinct deals: at most this many times the bound (its
#: worlds count every order of the tiles drawn and left, most of which make the same game from here)
LISTED = 50


def public_game(rep, seen: int, limit: int = MAX_DEALS) -> tuple[list[Position], list[int]]:
    """The deals the public record allows after the first ``seen`` moves of ``rep`` (as
    :func:`public_deals`) and the weight of each. In a draw game a public world is the deal and the
    boneyard's whole order; two worlds that leave the same hands and the same order of the tiles that may
    still be drawn make the same game from here, so they are one deal here (its position with the boneyard
    revealed: :func:`analyzer.search.revealed`) weighing as many worlds. :class:`TooLarge` past ``limit``
    deals (or, in a draw game, past ``LISTED`` times it worlds)."""
    worlds = worlds_at(rep, seen)
    drawing = rep.variant.drawing is not None
    if worlds.count > limit * (LISTED if drawing else 1):
        raise TooLarge(f"{worlds.count:,} deals agree with the record here; the exact hidden-information "
                       f"solver takes at most {limit:,}")
    view = worlds.view
    if not drawing:
        return [world_position(rep, view.deal(w), seen) for w in worlds], [1] * worlds.count
    events = [(st.seat, st.move) for st in rep.steps[:seen] if st.move is not None]
    drawn = sum(1 for _, move in events if move.draw)
    keep = rep.position_at(seen).keep
    found: dict[tuple, list] = {}
    for w in worlds:
        order = view.order(w)
        hands = list(view.deal(w))
        taken = 0
        for s, move in events:
            if move.draw:
                hands[s] |= order[taken].bit
                taken += 1
            elif move.tile is not None:
                hands[s] &= ~move.tile.bit
        key = (tuple(hands), tuple(order[drawn:len(order) - keep]))
        if key in found:
            found[key][1] += 1
        elif len(found) >= limit:
            raise TooLarge(f"more than {limit:,} distinct deals agree with the record here; the exact "
                           f"hidden-information solver takes at most {limit:,}")
        else:
            found[key] = [(view.deal(w), order), 1]
    deals, weights = [], []
    for (deal, order), weight in found.values():
        pos = world_position(rep, deal, seen, order)
        turn = pos.turn
        pos = revealed(pos, list(order))
        pos.turn = turn
        deals.append(pos)
        weights.append(weight)
    return deals, weights


def public_stock_down(rep, seen: int, limit: int) -> tuple[Position, list[tuple[int, ...]], list[int]]:
    """The deals the public record of the draw game for two ``rep`` allows after its first ``seen`` moves, as
    :func:`public_game` weighs them, but each as the hands' tile masks by seat, with the position after those moves in
    the actual deal. A deal is the two hands (the boneyard: the tiles neither holds, off the board), and it weighs as
    many worlds as give them. Those are listed as the placements of the tiles (the dealt hands, each player's drawn
    tiles, the boneyard), not as the worlds (every order of each player's draws and of the boneyard, a constant
    count a placement: some 10 to 100 times fewer). With nothing left to draw the boneyard's order no longer matters;
    with tiles still to draw, every order of the boneyard is alike given the placement, so what is drawn next is
    chance's (the tree's draw nodes, :func:`analyzer.hidden.cfr.build_tree`). The weights are per placement (a common
    factor of :func:`public_game`'s). :class:`TooLarge` past ``limit`` deals or ``LISTED`` times it placements;
    ValueError where the worlds are not a draw game's plain ones."""
    from ..inference.boneyard import DrawWorlds

    pos = rep.position_at(seen)
    if rep.variant.drawing is None or len(rep.players) != 2 or not pos.draws or pos.has_arms:
        raise ValueError("the deals of a draw game for two")
    worlds = worlds_at(rep, seen)
    if type(worlds) is not DrawWorlds:
        raise ValueError("the draw game's worlds are not the plain placements of its tiles")
    placements = worlds.count // worlds.orders
    if placements > limit * LISTED:
        raise TooLarge(f"{placements:,} placements of the tiles agree with the record here; the exact "
                       f"hidden-information solver takes at most {limit:,} deals")
    view = worlds.view
    played = [0, 0]
    for st in rep.steps[:seen]:
        if st.move is not None and st.move.tile is not None and not st.move.draw:
            played[st.seat] |= st.move.tile.bit
    holder = [view.owner[h] if view.owner[h] < 2 else -1 for h in range(len(view.owner))]
    found: dict[tuple[int, ...], int] = {}
    for masks in worlds.placements():
        hands = [masks[0], masks[1]]
        for h in range(2, len(masks)):
            if holder[h] >= 0:
                hands[holder[h]] |= masks[h]
        key = (hands[0] & ~played[0], hands[1] & ~played[1])
        if key in found:
            found[key] += 1
        elif len(found) >= limit:
            raise TooLarge(f"more than {limit:,} distinct deals agree with the record here; the exact "
                           f"hidden-information solver takes at most {limit:,}")
        else:
            found[key] = 1
    if tuple(pos.hands) not in found or any(pos.hidden):
        raise ValueError("the public deals' hands do not hold the record's own")
    return pos, list(found), list(found.values())


def stock_down_positions(pos: Position, hands: Sequence[tuple[int, ...]]) -> list[Position]:
    """The positions of :func:`public_stock_down`'s deals (``hands``: the tile masks by seat) from ``pos``, the
    position of that moment in the actual deal: each a copy with the hands replaced and the tiles neither holds in
    the boneyard (nothing is drawn from it any more: its order does not matter). What the LP takes."""
    unseen = pos.pool | pos.hands[0] | pos.hands[1]
    out = []
    for h in hands:
        p = pos.copy()
        p.hands[0], p.hands[1] = h
        p.pool = unseen & ~(h[0] | h[1])
        out.append(p)
    return out
