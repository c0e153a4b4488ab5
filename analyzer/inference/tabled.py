"""The worlds of a game set up with its table known only by counts (``[Ends "3 6"]``, ``[Counts "5:4 6:3"]``)
and a hand hidden: the tiles on the table are not named, so a world also says which they are.

The tiles the viewer has not seen go to the hands (as in any view: :mod:`analyzer.inference.deals`) or to
the table, whose tiles must carry each number of the Counts tag as often as it says, and must make a line
with the set-up's two ends: joined (every number on them in one piece) and with the ends the only numbers
on an odd number of tile halves (none when both ends show the same number), which is when a line can be
laid from one end to the other. Each such table is listed (at most :data:`MOST_TABLES`, found by walking
the unseen tiles with the counts left as the bound); the worlds are then, for each table, the placements of
the other tiles (:class:`~analyzer.inference.placements.Placements`), counted, drawn, listed and weighed
as one. The table is a holder of the view (``"table"``, or ``"table or sleepers"`` where tiles are left
undealt)."""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from ..position import tiles_of
from ..tiles import Tile
from .placements import InferenceUnsupported, Placements
from .worlds import View

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
            raise InferenceUnsupported(
                f"the tiles on the table are known only by counts, and they can be more than {MOST_TABLES:,} sets of "
                "tiles: too many to list; name the tiles on the table (the Line tag), or give more of their counts")
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
    """A :class:`View` whose holder ``rest`` (the sleepers' place) also takes the tiles on the table: one of
    ``tables`` (masks), the other ``sleepers`` tiles of it undealt."""

    rest: int = -1
    sleepers: int = 0
    tables: tuple[int, ...] = ()

    def worlds(self) -> TableWorlds:
        return TableWorlds(self)


class TableWorlds:
    """The worlds of a :class:`TableView`: for each table, the placements of the other unseen tiles into the
    hands (and the sleepers), counted, drawn uniformly, listed and weighed as one set."""

    def __init__(self, view: TableView):
        self.view = view
        self.orders = 1
        self._parts: list[tuple[int, tuple[Tile, ...], Placements]] = []
        for table in view.tables:
            unseen = tuple(t for t in view.unseen if not t.bit & table)
            allowed = tuple(a if view.sleepers else a & ~(1 << view.rest)
                            for t, a in zip(view.unseen, view.allowed) if not t.bit & table)
            room = tuple(view.sleepers if h == view.rest else r for h, r in enumerate(view.room))
            placements = Placements(unseen, allowed, room)
            if placements.count:
                self._parts.append((table, unseen, placements))
        self.count = sum(p.count for *_, p in self._parts)

    def _fixed(self, table: int) -> tuple[int, ...]:
        return tuple(f | table if h == self.view.rest else f for h, f in enumerate(self.view.fixed))

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One world drawn uniformly (a mask per holder, the table's tiles in the table's holder)."""
        from .worlds import NoWorld
        if not self.count:
            raise NoWorld("no world fits what the viewer has seen")
        pick = rng.randrange(self.count)
        for table, _, placements in self._parts:
            if pick < placements.count:
                return placements.sample(rng, self._fixed(table))
            pick -= placements.count
        raise AssertionError("a pick below the count falls in a part")

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for table, _, placements in self._parts:
            yield from placements.each(self._fixed(table))

    def probabilities(self) -> dict[str, dict[Tile, Fraction]]:
        """The exact probability of every tile being in every holder (tiles the viewer saw there: 1)."""
        view = self.view
        out: dict[str, dict[Tile, Fraction]] = {name: {} for name in view.holders}
        for h, name in enumerate(view.holders):
            for t in tiles_of(view.fixed[h]):
                out[name][t] = Fraction(1)
        if not self.count:
            return out
        rest = view.holders[view.rest]
        for table, unseen, placements in self._parts:
            for tile in view.unseen:
                if tile.bit & table:
                    out[rest][tile] = out[rest].get(tile, 0) + Fraction(placements.count, self.count)
            for tile, row in zip(unseen, placements.weights()):
                for h, w in enumerate(row):
                    if w:
                        out[view.holders[h]][tile] = out[view.holders[h]].get(tile, 0) + Fraction(w, self.count)
        return out


def table_view(rep, base: View) -> TableView:
    """The view ``base`` (of a game set up with its table by counts: the table's tiles among the sleepers')
    with the tables the set-up allows listed; InferenceUnsupported where they are too many, or where a
    later move shows more of the hands than single tiles (a run, a player moving again)."""
    from ..notation.setup import read_setup
    setup, _ = read_setup(rep.game)
    if base.must is not None:
        raise InferenceUnsupported("the tiles on the table are known only by counts, and a player moves again: "
                                   "such worlds are not listed yet")
    rest = len(base.holders) - 1
    sleepers = rep.variant.dealing.sleepers(len(rep.players))
    size = base.room[rest] - sleepers
    tables = counted_tables(base.unseen, size, dict(setup.counts), tuple(setup.ends))
    holders = base.holders[:rest] + ("table or sleepers" if sleepers else "table",)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(View)}
    fields.update(holders=holders, allowed=tuple(a | 1 << rest for a in base.allowed))   # (any may lie there)
    return TableView(**fields, rest=rest, sleepers=sleepers, tables=tuple(tables))
