"""The luck of each tile drawn from the boneyard, with every hand open (draw games).

**Definition.** Take a draw of tile ``t`` by player P at step ``k`` of a record whose every hand is
known. The *public view* at that moment is everything the table has seen: the tiles played, who moved,
passed and drew, but no tile in a hand or drawn. The tiles P *could have drawn* (``candidates``) are
the tiles the public cannot place at that moment, other than P's own:

- every tile of the boneyard then (``t`` and the tiles still face down, those that will stay there
  too), and
- every tile in another player's hand then, unless the public record rules it out: drawing ``c``
  instead of ``t`` means exchanging ``c`` and ``t`` between their places (``c``'s place in a hand
  now holds ``t``; a tile that player drew earlier as ``c`` was ``t``), and the record up to and with
  the draw, so rewritten, is replayed by the rules (``analyzer.replay``): a candidate is kept only
  where every move of it stays legal (a pass with ``t`` in hand, a lead the rules forbid, a run of
  draws that should have stopped, rule the exchange out).

P's own tiles are no candidates: drawing one of them instead would leave every hand as it is.

For each candidate the deal is the record's deal (and the analysis's boneyard order: the tiles the
record shows drawn, in that order, then the rest ascending) with ``c`` and ``t`` exchanged; its
*value* is the open-hands value (best play by everyone, :class:`~analyzer.search.TreeSearch`) of the
position right after the draw, in points for the drawer's side (in a game of individual players,
for the drawer against all the others: :class:`~analyzer.analysis.AgainstTheRest`), counting the
points scored during play so far as the analysis's values do. The draw's **luck** is the value of
the tile drawn less the mean of the values over the candidates (an exact fraction, the tile drawn
among them with the same weight as each other). So the lucks of a draw's candidates, were each drawn,
would sum to zero; a draw whose every candidate gives the same value has luck 0.

On the match scale (``with_mwc``) the same is done with each value's match-winning chance (the MWC
after a hand that ends with that result) in place of the points.

The deal's luck (:func:`~analyzer.analysis.luck.deal_luck`) values the lead with the boneyard order
the record reveals, so it already holds what the boneyard as a whole gave; a draw's luck measures
the tile drawn against the others it could have been at that moment. The two are shown apart, and
their sum is the hand's luck in ``stats``."""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ..position import tiles_of
from ..replay import replay
from ..search.core import TABLE_MB
from ..search.tree import NO_EXTRA, SearchLimit, TreeSearch, revealed, revealed_order
from ..search.block import SolverError
from ..tiles import Tile
from . import AgainstTheRest, DrawnLuck, GameAnalysis, SideLuck
from .lucksums import draw_totals
from ..rules.modes import Layout

__all__ = ["DrawLuck", "draw_lucks", "with_mwc", "with_luck", "match_chance", "with_match"]


@dataclass(frozen=True)
class DrawLuck:
    """The luck of one draw (see the module): the step, who drew what, and the values (for the drawer's
    side, or for the drawer in a game of individual players) of the tile drawn and of every candidate."""

    index: int                          # the step of the record (the draw)
    player: str
    seat: int
    side: int                           # the drawer's side (in a game of individuals: his seat)
    tile: Tile
    value: int                          # the value after drawing ``tile``
    candidates: tuple[Tile, ...]        # the tiles he could have drawn, ``tile`` among them
    values: tuple[int, ...]             # the value after drawing each candidate, in that order
    mwc: float | None = None            # the luck in match-winning chance (for the drawer's side)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(self.values), len(self.values))

    @property
    def points(self) -> Fraction:
        """The luck in points: the value of the tile drawn less the candidates' mean."""
        return self.value - self.mean

    def as_dict(self) -> dict:
        return {"tile": str(self.tile), "player": self.player, "value": self.value, "mean": round(float(self.mean), 3),
                "points": round(float(self.points), 3), "candidates": len(self.candidates),
                "mwc": None if self.mwc is None else round(self.mwc, 6)}


def draw_lucks(rep, node_limit: int | None = None, table_mb: float = TABLE_MB) -> list[DrawLuck | None]:
    """The luck of every draw of ``rep`` (a replayed game with every hand known, its legal prefix), in
    the order drawn; None for a draw whose values the search could not find within ``node_limit``. An
    empty list for a game with no draw of a named tile, a hidden hand or a deal with errors."""
    variant = rep.variant
    pos0 = rep.initial
    steps = rep.steps[:rep.legal_prefix]
    draws = [k for k, s in enumerate(steps) if s.move is not None and s.move.draw]
    if (not draws or any(pos0.hidden) or not rep.deal_ok or not pos0.draws or variant.layout != Layout.LINE
            or len(rep.players) != variant.players or any(steps[k].move.tile is None for k in draws)):
        return []
    order = tuple(revealed_order(pos0, [steps[k].move.tile for k in draws]))
    individual = variant.seating.sides > 2
    searches: dict[int, TreeSearch] = {}

    def search_for(seat: int) -> TreeSearch:
        key = seat if individual else -1
        if key not in searches:
            rules = AgainstTheRest(variant, seat) if individual else variant
            searches[key] = TreeSearch(rules, node_limit, table_mb)
        return searches[key]

    out = []
    for n, k in enumerate(draws):
        try:
            out.append(_one_draw(rep, steps, k, order, n, search_for))
        except (SearchLimit, SolverError):
            out.append(None)
    return out


def _one_draw(rep, steps, k: int, order: tuple, n: int, search_for) -> DrawLuck:
    """The luck of the draw at step ``k`` (the ``n``-th draw of the record)."""
    variant = rep.variant
    individual = variant.seating.sides > 2
    step = steps[k]
    seat, t = step.seat, step.move.tile
    side = seat if individual else variant.seating.teams[seat]
    before = _walk(rep.initial, order, steps[:k])
    candidates = list(order[n:])               # the boneyard then (``t`` first)
    for q in range(len(before.hands)):
        if q != seat:
            candidates += [c for c in tiles_of(before.hands[q], before.max_pip) if _consistent(rep, k, t, c)]
    search = search_for(seat)
    sign = 1 if individual or side == 0 else -1
    scored = _scored(steps[:k + 1], seat if individual else None, variant)
    values = []
    yard = set(order[n:])
    for c in candidates:
        swap = {t: c, c: t}
        world = order if c == t else tuple(swap.get(x, x) for x in order)
        if c in yard:           # the deal up to the draw is the same: only the boneyard's order differs
            after = before.copy()
            after.order = world
            _advance(after, step, swap)
        else:
            after = _walk(rep.initial, world, steps[:k + 1], swap)
        values.append(sign * (scored + search.solve(after)))
    return DrawLuck(step.index, step.entry.player, seat, side, t, values[0], tuple(candidates), tuple(values))


def _scored(steps, seat: int | None, variant) -> int:
    """The points scored during play before the position after ``steps``: for the first side, or (``seat``)
    for that seat against the others, as the analysis counts them."""
    points = next((s.scores for s in reversed(steps) if s.scores is not None), None)
    if points is None:
        return 0
    if seat is not None:
        return 2 * points[seat] - sum(points)
    teams = variant.seating.teams
    return sum(p if teams[s] == 0 else -p for s, p in enumerate(points))


def _walk(initial, order: tuple, steps, swap: dict | None = None):
    """The position after ``steps`` from the deal ``initial`` with the boneyard drawn in ``order``; with
    ``swap`` (two tiles, each mapped to the other), the deal with those tiles exchanged in the hands too and
    in the moves (``order`` has them exchanged already)."""
    pos = revealed(initial.copy(), list(order))
    if swap:
        for q, hand in enumerate(pos.hands):
            for a, b in swap.items():
                if hand & a.bit and not hand & b.bit:
                    pos.hands[q] = hand ^ a.bit ^ b.bit
        for a, b in swap.items():
            if pos.pool & a.bit and not pos.pool & b.bit:
                pos.pool ^= a.bit ^ b.bit
                break
    for s in steps:
        if pos.outcome() is not None:
            break
        _advance(pos, s, swap)
    return pos


def _advance(pos, step, swap: dict | None = None) -> None:
    """Push ``step``'s move on ``pos`` (its tile exchanged by ``swap``), after the opener's choice to add no
    tile to his lead where the step shows he made it (as the analysis's line does)."""
    if step.move is None:
        return
    if getattr(pos, "offer", -1) >= 0 and not (step.seat == pos.offer and step.move.is_play):
        pos.push(NO_EXTRA)
    move = step.move
    if swap and move.tile in swap:
        move = replace(move, tile=swap[move.tile])
    pos.push(move)


def _consistent(rep, k: int, t: Tile, c: Tile) -> bool:
    """Whether the record up to and with step ``k`` (a draw of ``t``), with ``c`` (in another hand then) and
    ``t`` exchanged everywhere, is one the rules accept: the public moves could have been made with ``t``
    where ``c`` was."""
    swap = {t: c, c: t}
    game = rep.game
    entry = rep.steps[k].entry
    last = next(j for j, m in enumerate(game.moves) if m is entry)
    hands = tuple(replace(h, tiles=tuple(swap.get(x, x) for x in h.tiles)) if h.tiles and swap.keys() & set(h.tiles)
                  else h for h in game.hands)
    moves = [replace(m, tile=swap[m.tile]) if m.tile in swap else m for m in game.moves[:last + 1]]
    tags = dict(game.tags, Result="*")
    again = replay(replace(game, hands=hands, moves=moves, tags=tags), rep.variant, rep.source, terms=rep.terms)
    return again.deal_ok and again.legal_prefix == len(again.steps) == k + 1


def with_mwc(luck: DrawLuck, chance) -> DrawLuck:
    """``luck`` with its luck in match-winning chance: ``chance(value)`` the drawer's side's MWC after a
    hand whose open-hands value for that side is ``value``."""
    chances = [chance(v) for v in luck.values]
    return replace(luck, mwc=chances[0] - sum(chances) / len(chances))


def with_luck(analysis: GameAnalysis, lucks: list[DrawLuck | None], steps) -> GameAnalysis:
    """``analysis`` composed with its draws' luck: each draw's move (``Played.luck``: written as its
    ``"draw_luck"``, None where its values are missing) and each side's total (``GameAnalysis.draw_luck``:
    :func:`~analyzer.analysis.lucksums.draw_totals`' ``side``, ``points``, ``mwc``, ``draws``); ``analysis`` itself is left as it was.
    ``steps``: the replay's steps, whose draws the lucks are, in order."""
    moves = list(analysis.moves)
    draws = [k for k, s in enumerate(steps) if s.move is not None and s.move.draw]
    for k, luck in zip(draws, lucks):
        if k < len(moves):
            moves[k] = replace(moves[k], luck=DrawnLuck(luck))
    totals = draw_totals(list(analysis.sides), [(m.player, None if m.luck.draw_luck is None else m.luck.draw_luck.as_dict())
                                            for m in moves if m.luck is not None])
    return replace(analysis, moves=tuple(moves), draw_luck=None if totals is None else tuple(
        SideLuck(name, round(points, 3), None if mwc is None else round(mwc, 6), count)
        for name, points, mwc, count in totals))


def match_chance(variant, position, leader: int):
    """``chance(value, side)``: ``side``'s match-winning chance after a hand whose open-hands value for
    that side is ``value`` (``position``: the match position before the hand, ``leader`` its leading seat);
    None where the variant has no MWC table for two sides or the match is over."""
    from ..equity import load_table             # (the tables: loaded where the match scale is asked for)
    from .match_scale import value_result, why_not

    if variant.seating.sides != 2:        # (a value of individual players does not say who else scored)
        return None
    table = load_table(variant)
    if table is None or position is None or position.state.over or why_not(variant) is not None:
        return None

    firsts: dict[int, float] = {}       # side 0's MWC by side 0's value: the tiles a drawer could have drawn
    #                                     give a hand's few values again and again

    def chance(value: int, side: int) -> float:
        value = value if side == 0 else -value
        first = firsts.get(value)
        if first is None:
            first = firsts[value] = table.after(position, value_result(variant, value), leader)
        return first if side == 0 else 1 - first
    return chance


def with_match(lucks: list[DrawLuck | None], chance) -> list[DrawLuck | None]:
    """``lucks`` with their luck in match-winning chance (``chance`` from :func:`match_chance`)."""
    return [None if x is None else with_mwc(x, lambda v, side=x.side: chance(v, side)) for x in lucks]
