"""The worlds of a game set up with its table known only by counts (``[Ends "3 6"]``, ``[Counts "5:4 6:3"]``)
and a hand hidden: the tiles on the table are not named, so a world also says which they are.

The tiles the viewer has not seen go to the hands (as in any view: :mod:`analyzer.inference.deals`) or to
the table, whose tiles must carry each number of the Counts tag as often as it says, and must make a line
with the set-up's two ends: joined (every number on them in one piece) and with the ends the only numbers
on an odd number of tile halves (none when both ends show the same number), which is when a line can be
laid from one end to the other. Each such table is listed (at most :data:`MOST_TABLES`, found by walking
the unseen tiles with the counts left as the bound); the worlds are then, for each table, the worlds of
the other tiles, counted, drawn, listed and weighed as one (each table weighs as many worlds as it leaves).
Without drawing, those are the placements into the hands (and the sleepers), and the table is a holder of
the view (``"table"``, or ``"table or sleepers"`` where tiles are left undealt). In a draw game they are the
draw view's worlds (:mod:`analyzer.inference.boneyard`: the hands, the draws and the boneyard's order),
and the table a place of its own (``"table"``), in no world's holders: a world's boneyard says which
tiles lie off it."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..i18n import gettext, number
from ..position import tiles_of
from ..tiles import Tile
from .boneyard import DrawView
from .placements import InferenceUnsupported
from .worlds import NoWorld, View, Worlds

__all__ = ["MOST_TABLES", "TableView", "TableWorlds", "table_view", "makes_line", "counted_tables"]

#: the most tables listed (and a hundred times as many steps of the walk that finds them)
MOST_TABLES = 20_000


def makes_line(tiles: list[Tile], ends: tuple[int, int]) -> bool:
    """Whether ``tiles`` can be laid as one line with ``ends`` open: joined, and the ends the only numbers
    on an odd number of halves (none when the ends are alike)."""
    if not tiles:
        return False
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    odd: set[int] = set()
    for tile in tiles:
        parent[root(tile.low)] = root(tile.high)
        if not tile.is_double:
            odd ^= {tile.low, tile.high}
    a, b = ends
    if a not in parent or b not in parent or len({root(x) for x in parent}) != 1:
        return False
    return odd == ({a, b} if a != b else set())


def counted_tables(unseen: tuple[Tile, ...], size: int, counts: dict[int, int], ends: tuple[int, int]) -> list[int]:
    """Every set of ``size`` tiles of ``unseen`` (a mask each) that carries each number of ``counts`` as often
    as it says and makes a line with ``ends``; InferenceUnsupported where there are too many to list."""
    left = {x: sum(t.matches(x) for t in unseen) for x in counts}
    need = dict(counts)
    found: list[int] = []
    chosen: list[Tile] = []
    steps = [0]

    def walk(i: int, room: int) -> None:
        steps[0] += 1
        if steps[0] > 100 * MOST_TABLES or len(found) > MOST_TABLES:
            raise InferenceUnsupported(gettext(
                "the tiles on the table are known only by counts, and they can be more than {most} sets of tiles: "
                "too many to list; name the tiles on the table (the Line tag), or give more of their counts",
                most=number(MOST_TABLES)))
        if any(need[x] < 0 or need[x] > left[x] for x in need) or room > len(unseen) - i:
            return
        if room == 0:
            if not any(need.values()) and makes_line(chosen, ends):
                mask = 0
                for tile in chosen:
                    mask |= tile.bit
                found.append(mask)
            return
        tile = unseen[i]
        carried = [x for x in need if tile.matches(x)]
        for x in carried:
            left[x] -= 1
            need[x] -= 1
        chosen.append(tile)
        walk(i + 1, room - 1)
        chosen.pop()
        for x in carried:
            need[x] += 1
        walk(i + 1, room)
        for x in carried:
            left[x] += 1

    walk(0, size)
    return found


@dataclass(frozen=True)
class TableView(View):
    """A :class:`View` whose unseen tiles also fill the table: one of ``tables`` (masks). In a game without
    drawing its holder ``rest`` (the sleepers' place) takes the table's tiles, the other ``sleepers`` tiles
    of it undealt; in a draw game (``rest`` -1) the table is a place of its own (``"table"``), and ``base``
    (a :class:`~analyzer.inference.boneyard.DrawView`) places the other tiles: the hands, the draws and the
    boneyard in its order. A world is the base's world of the tiles off the table."""

    rest: int = -1
    sleepers: int = 0
    tables: tuple[int, ...] = ()
    base: View | None = None

    def deal(self, world) -> tuple[int, ...]:
        return (self.base or super()).deal(world)

    def order(self, world) -> tuple[Tile, ...] | None:
        return (self.base or super()).order(world)

    def worlds(self) -> TableWorlds:
        return TableWorlds(self)

    def off_table(self, table: int) -> View:
        """The view of the worlds whose table is ``table``: its tiles taken from the unseen ones (in a game
        without drawing, laid in the holder ``rest``, which keeps room only for the sleepers)."""
        kept = [(t, a) for t, a in zip(self.unseen, self.allowed) if not t.bit & table]
        unseen, allowed = tuple(t for t, _ in kept), tuple(a for _, a in kept)
        if self.base is not None:
            return dataclasses.replace(self.base, unseen=unseen, allowed=allowed)
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(View)}
        fields.update(unseen=unseen, allowed=tuple(a if self.sleepers else a & ~(1 << self.rest) for a in allowed),
                      room=tuple(self.sleepers if h == self.rest else r for h, r in enumerate(self.room)),
                      fixed=tuple(f | table if h == self.rest else f for h, f in enumerate(self.fixed)))
        return View(**fields)


class TableWorlds:
    """The worlds of a :class:`TableView`: for each table, the worlds of the other unseen tiles
    (:meth:`TableView.off_table`), counted, drawn uniformly, listed and weighed as one set: each table
    weighs as many worlds as it has."""

    def __init__(self, view: TableView):
        self.view = view
        self.orders = 1
        self._parts: list[tuple[int, Worlds]] = []
        for table in view.tables:
            worlds = view.off_table(table).worlds()
            if worlds.count:
                self._parts.append((table, worlds))
        self.count = sum(w.count for _, w in self._parts)

    def sample(self, rng: random.Random):
        """One world drawn uniformly (as the base view draws it; without drawing, a mask per holder, the
        table's tiles in the table's holder)."""
        if not self.count:
            raise NoWorld(gettext("no world fits what the viewer has seen"))
        pick = rng.randrange(self.count)
        for _, worlds in self._parts:
            if pick < worlds.count:
                return worlds.sample(rng)
            pick -= worlds.count
        raise AssertionError("a pick below the count falls in a part")

    def __iter__(self) -> Iterator:
        for _, worlds in self._parts:
            yield from worlds

    def probabilities(self) -> dict[str, dict[Tile, Fraction]]:
        """The exact probability of every tile being in every place (tiles the viewer saw there: 1): each
        table's, weighed by its worlds."""
        view = self.view
        names, known, _ = (view.base or view).places()
        out: dict[str, dict[Tile, Fraction]] = {name: {} for name in names}
        if view.base is not None:
            out["table"] = {}
        if not self.count:
            return {name: {t: Fraction(1) for t in tiles_of(known[h])} if h < len(known) else {}
                    for h, name in enumerate(out)}
        for table, worlds in self._parts:
            weight = Fraction(worlds.count, self.count)
            probs = worlds.probabilities()
            if view.base is not None:
                probs["table"] = {t: Fraction(1) for t in tiles_of(table)}
            for name, row in probs.items():
                for tile, p in row.items():
                    out[name][tile] = out[name].get(tile, 0) + p * weight
        return out


def table_view(rep, base: View) -> TableView:
    """The view ``base`` (of a game set up with its table by counts: without drawing, the table's tiles among
    the sleepers'; in a draw game, among no holder's) with the tables the set-up allows listed;
    InferenceUnsupported where they are too many, or where a later move shows more of the hands than single
    tiles (a run, a player moving again)."""
    from ..notation.setup import read_setup
    setup, _ = read_setup(rep.game)
    if base.must is not None:
        raise InferenceUnsupported(gettext("the tiles on the table are known only by counts, and a player moves "
                                           "again: such worlds are not listed yet"))
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(View)}
    ends = tuple(setup.ends)
    if isinstance(base, DrawView):        # the table a place of its own; the others as the draw view has them
        free = tuple(t for t in base.unseen if not t.bit & base.gone)     # (a tile played later was not on it)
        tables = counted_tables(free, len(base.unseen) - sum(base.room), dict(setup.counts), ends)
        return TableView(**fields, tables=tuple(tables), base=base)
    rest = len(base.holders) - 1
    sleepers = rep.variant.dealing.sleepers(len(rep.players))
    tables = counted_tables(base.unseen, base.room[rest] - sleepers, dict(setup.counts), ends)
    fields.update(holders=base.holders[:rest] + ("table or sleepers" if sleepers else "table",),
                  allowed=tuple(a | 1 << rest for a in base.allowed))   # (any may lie there)
    return TableView(**fields, rest=rest, sleepers=sleepers, tables=tuple(tables))
