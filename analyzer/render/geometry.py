"""Where every tile of a table goes: the one drawing of a position, which the report's page, ``domino diagram``
and the board all draw from (the page's script only puts ready tiles at the places given here).

A line of play has its lead in the middle and runs out both ways, turning at the edge (``half`` units from the
centre) into a snake, a double across the line, the tile at a corner upright. A layout with arms (French, cross,
tree) has the lead in the middle and an arm out of each side (arms 1 to 4 right, left, up, down, in the order they
were started): a long arm turns clockwise once, into the quarter no other arm enters; an arm that branches from a
double runs straight out of that double's side when nothing is in its way, else it is drawn apart, as a labelled
strip under the layout (:func:`plan_arms` decides which, once for every step of what is shown, so that a tile
stays where it is while one steps through).

Coordinates are in units of half a tile's short side (:data:`U` = 10 a half), y downwards; a :class:`Place` is a
tile's top left corner, whether it stands upright and which number is on its top (left) half."""
from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..i18n import N_, gettext, language

if TYPE_CHECKING:
    from .model import Board, Layout

__all__ = ["U", "GAP", "WIDE", "NARROW", "Place", "Label", "Scene", "Plan", "line_places", "line_box", "arms_scene", "planned_scenes",
           "plan_arms", "arms_box", "board_scene", "tile_key"]

U = 10                  # the short side of a tile
GAP = 1                 # between two tiles of a line
WIDE = 130              # how far a line of play runs from its lead before it turns: a wide screen, the diagram
NARROW = 50             # ... and on a phone (the tiles of the line as large as those of a hand: report.js)
REACH = (120, 70)       # how far from the centre an arm runs before it turns (across, up and down)
FONT = 6                # the size of an arm's label
_SIDES = ((1, 0), (-1, 0), (0, -1), (0, 1))
_SIDE_WORDS = (N_("right"), N_("left"), N_("up"), N_("down"))


_KEYS: dict[tuple[int, int], str] = {}


def tile_key(a: int, b: int) -> str:
    """A tile's name on the page, whichever way it lies: ``"3-5"`` (as the hands name it)."""
    key = _KEYS.get((a, b))
    if key is None:
        key = _KEYS[(a, b)] = f"{min(a, b)}-{max(a, b)}"
    return key


@dataclass(slots=True)
class Place:
    """A tile on the table: its top left corner, upright or not, ``a`` on its top (left) half."""

    x: float
    y: float
    vertical: bool
    a: int
    b: int
    lead: bool = False
    arm: int | None = None           # a layout with arms: the arm (0: the lead tile) and the tile's index on it
    k: int = 0
    apart: bool = False              # on an arm drawn apart, under the layout
    rank: int = 0                    # a line of play: where it stands from the lead (-1: next to it on the left)
    centre: tuple[float, float] = (0.0, 0.0)      # (the middle of the tile, and the way its arm runs there:
    way: tuple[int, int] = (0, 0)                  # where an arm that branches from a double leaves it)

    @property
    def key(self) -> str:
        return tile_key(self.a, self.b)

    @property
    def w(self) -> float:
        return U if self.vertical else 2 * U

    @property
    def h(self) -> float:
        return 2 * U if self.vertical else U


@dataclass(slots=True)
class Label:
    """An arm's label: where it stands, its words (``arm 1: 5, closed``) and what the words of the open ends
    say of it (``where``: right, from [4-4] on arm 1...; ``state``: 5, closed); ``box``: the room it takes."""

    arm: int
    x: float
    y: float
    anchor: str                      # start / middle / end
    words: str
    where: str
    state: str
    apart: bool = False
    head: str = field(default="", compare=False)     # the words start with it (``arm 1``, in the active language)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def __post_init__(self):
        w = len(self.words) * FONT * 0.56
        x0 = self.x if self.anchor == "start" else self.x - w if self.anchor == "end" else self.x - w / 2
        self.box = (x0, self.y - FONT * 0.8, w, FONT)


@dataclass
class Scene:
    """A layout with arms, placed: its tiles, each arm's label (in arm order). (Scenes of the same layout share their
    tiles and labels: the drawing of a layout is kept, :func:`_sketch`; read them, never change them.)"""

    tiles: list[Place] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    frame: tuple[float, float, float, float] | None = field(default=None, compare=False, repr=False)
    """(what :func:`_frame` gives of its tiles and labels, known already; None: not known, or nothing)"""


@dataclass
class Plan:
    """The branch arms drawn apart, and where their strips start: one plan for every step shown."""

    strips: set[int] = field(default_factory=set)
    top: float = 0.0
    left: float = 0.0


def _box(item) -> tuple[float, float, float, float]:
    return item.box if isinstance(item, Label) else (item.x, item.y, item.w, item.h)


class _Taken:
    """The boxes a scene has placed, by the cells of a grid they cover: whether a box overlaps one of them
    (:func:`_overlap`) is asked of those in its own cells alone (two boxes that overlap share a point inside both,
    so a cell), not of every tile of the cross."""

    CELL = 4 * U

    def __init__(self):
        self.cells: dict[tuple[int, int], list] = {}

    def add(self, box) -> None:
        x, y, w, h = box
        c, cells = self.CELL, self.cells
        for i in range(math.floor(x / c), math.floor((x + w) / c) + 1):
            for j in range(math.floor(y / c), math.floor((y + h) / c) + 1):
                held = cells.get((i, j))
                if held is None:
                    cells[i, j] = [box]
                else:
                    held.append(box)

    def meets(self, box) -> bool:
        x, y, w, h = box
        c, cells = self.CELL, self.cells
        for i in range(math.floor(x / c), math.floor((x + w) / c) + 1):
            for j in range(math.floor(y / c), math.floor((y + h) / c) + 1):
                for other in cells.get((i, j), ()):
                    if _overlap(box, other):
                        return True
        return False


def _overlap(a, b) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return min(ax + aw, bx + bw) - max(ax, bx) > 0.01 and min(ay + ah, by + bh) - max(ay, by) > 0.01


# ---- a line of play --------------------------------------------------------------------------------

def _run(out: list, tiles: list[tuple[int, int, int]], x: float, way: int, half: float, lead: int) -> None:
    """Place ``tiles`` (index, inner number, outer number) running from ``x`` along ``way`` (1 right, -1 left):
    the right arm turns down at the edge, the left arm up; the tile after a corner runs back under it."""
    turn, row, corner = way, 0.0, None
    for i, inner, outer in tiles:
        double, rank = inner == outer, i - lead
        if corner is not None:
            if double:              # crosswise to the turn: flat under the corner
                mid = (corner[0] + corner[1]) / 2
                p = Place(mid - U, row - U / 2, False, inner, outer, rank=rank)
                x = mid + way * U
            else:
                edge = corner[1] if way < 0 else corner[0]
                p = Place(edge - 2 * U if way < 0 else edge, row - U / 2, False,
                          outer if way < 0 else inner, inner if way < 0 else outer, rank=rank)
                x = edge + way * 2 * U
            corner = None
        else:
            start = x + way * GAP
            far = start + way * (U if double else 2 * U)
            if not double and abs(far) > half:        # no room: this tile turns the corner
                low = start if way > 0 else start - U
                p = Place(low, row - U / 2 if turn > 0 else row + U / 2 - 2 * U, True,
                          inner if turn > 0 else outer, outer if turn > 0 else inner, rank=rank)
                corner = (low, low + U)
                row += turn * (2 * U + GAP)
                way = -way
            elif double:
                p = Place(min(start, far), row - U, True, inner, outer, rank=rank)
                x = far
            else:
                p = Place(min(start, far), row - U / 2, False, inner if way > 0 else outer,
                          outer if way > 0 else inner, rank=rank)
                x = far
        out[i] = p


def line_places(line: list[tuple[int, int]], lead: int | None, half: float = WIDE) -> list[Place]:
    """Each tile of the line of play ``line`` (left to right, each as (left half, right half); the lead at index
    ``lead``) where it lies, in the line's order (none before the lead)."""
    if lead is None or not line:
        return []
    out: list = [None] * len(line)
    a, b = line[lead]
    double = a == b
    out[lead] = Place(-U / 2, -U, True, a, b, lead=True) if double else Place(-U, -U / 2, False, a, b, lead=True)
    _run(out, [(i, line[i][0], line[i][1]) for i in range(lead + 1, len(line))], U / 2 if double else U, 1, half, lead)
    _run(out, [(j, line[j][1], line[j][0]) for j in range(lead - 1, -1, -1)], -U / 2 if double else -U, -1, half, lead)
    return out


def line_box(places: list[Place], half: float = WIDE) -> tuple[float, float, float, float]:
    """The frame of a line of play: as wide as the line may run, and as tall as its rows (x0, y0, x1, y1)."""
    x0, x1, y0, y1 = -half - 2 * U, half + 2 * U, -U - 2, U + 2
    if places:
        x0, y0 = min(x0, min(p.x for p in places) - 2), min(y0, min(p.y for p in places) - 2)
        x1 = max(x1, max(p.x + (U if p.vertical else 2 * U) for p in places) + 2)
        y1 = max(y1, max(p.y + (2 * U if p.vertical else U) for p in places) + 2)
    return (x0, y0, x1, y1)


# ---- a layout with arms ----------------------------------------------------------------------------

def _cw(d):
    return (-d[1], d[0])             # y grows downwards: right -> down -> left -> up


def _ccw(d):
    return (d[1], -d[0])


def _halves(c0, c1, n0, n1, **rest) -> Place:
    """A tile from the centres of its two halves, ``n0`` on the first."""
    first = c0[0] < c1[0] or c0[1] < c1[1]
    return Place(min(c0[0], c1[0]) - U / 2, min(c0[1], c1[1]) - U / 2, c0[0] == c1[0],
                 n0 if first else n1, n1 if first else n0, **rest)


def _across(c, d, n, **rest) -> Place:
    """A double lying crosswise to an arm that runs along ``d``."""
    if d[0]:
        return Place(c[0] - U / 2, c[1] - U, True, n, n, **rest)
    return Place(c[0] - U, c[1] - U / 2, False, n, n, **rest)


def _walk(arm, start, d, reach: float, apart: bool = False):
    """The tiles of one arm from ``start`` (the middle of the edge it leaves), running along ``d``: the
    placed tiles, the point past its open end and the way it runs there."""
    x, y = start
    turned, placed = False, []
    for k, (near, far) in enumerate(arm.tiles):
        double = near == far
        length = U if double else 2 * U
        after = k > 0 and arm.tiles[k - 1][0] == arm.tiles[k - 1][1]   # no corner right after a crosswise double
        extra = {"arm": arm.number, "k": k, "apart": apart}
        if not turned and not double and not after and x * d[0] + y * d[1] + GAP + length > reach:
            w = _cw(d)                                     # the near half goes on, the far half turns
            mid = (x + d[0] * (GAP + U / 2), y + d[1] * (GAP + U / 2))
            c = (mid[0] + w[0] * U, mid[1] + w[1] * U)
            d, turned = w, True
            p = _halves(mid, c, near, far, centre=c, way=d, **extra)
            x, y = c[0] + d[0] * U / 2, c[1] + d[1] * U / 2
        else:
            c = (x + d[0] * (GAP + length / 2), y + d[1] * (GAP + length / 2))
            h = (d[0] * U / 2, d[1] * U / 2)
            p = (_across(c, d, near, centre=c, way=d, **extra) if double
                 else _halves((c[0] - h[0], c[1] - h[1]), (c[0] + h[0], c[1] + h[1]), near, far, centre=c, way=d,
                              **extra))
            x, y = c[0] + d[0] * length / 2, c[1] + d[1] * length / 2
        placed.append(p)
    return placed, (x, y), d


def _state(arm) -> str:
    """An arm's open end in words, in the active language: ``5``, ``5, closed``, ``empty (takes a 0)``."""
    if arm.state == "start":
        return gettext("empty (takes a {number})", number=arm.open)
    if arm.state == "closed":
        return gettext("{number}, closed", number=arm.open)
    if arm.state == "double":
        return gettext("{number}, needs {tile}", number=arm.open, tile=f"[{arm.open}-{arm.open}]")
    return str(arm.open)


def _head(arm) -> str:
    """The head of an arm's label (``arm 1``), which the page writes in its own style."""
    return gettext("arm {arm}", arm=arm.number)


def _label_at(arm, where: str, at, d) -> Label:
    head = _head(arm)
    words = f"{head}: " + (gettext("empty") if arm.state == "start" else _state(arm))
    x, y = at[0] + d[0] * 3, at[1] + d[1] * 3
    anchor = "start" if d[0] > 0 else "end" if d[0] < 0 else "middle"
    y = y + FONT * 0.8 if d[1] > 0 else y - FONT * 0.2 if d[1] < 0 else y + FONT * 0.35
    return Label(arm.number, x, y, anchor, words, where, _state(arm), head=head)


def _label_spots(arm, where: str, tiles: list[Place], end, d):
    """Where an arm's label may go, best first: just beyond its open end, else beside its last tile (each made when
    asked for: the first one mostly does)."""
    yield _label_at(arm, where, end, d)
    if tiles:
        last = tiles[-1]
        cx, cy = last.x + last.w / 2, last.y + last.h / 2
        for w in (_ccw(d), _cw(d)):
            reach = last.w / 2 if w[0] else last.h / 2
            yield _label_at(arm, where, (cx + w[0] * reach, cy + w[1] * reach), w)


class _Arm(NamedTuple):
    """An arm of a layout as the drawing reads it (:class:`~analyzer.render.model.ArmView`'s fields, hashable)."""

    number: int
    origin: tuple[int, int] | None
    tiles: tuple[tuple[int, int], ...]
    open: int
    state: str


def _arms_of(lay: Layout) -> tuple[_Arm, ...]:
    return tuple(_Arm(a.number, None if a.origin is None else tuple(a.origin), tuple(a.tiles), a.open, a.state)
                 for a in lay.arms)


class _Sketch:
    """A layout's scene but for the arms drawn apart (whose strips' place the plan sets last): its tiles, its labels
    (in arm order), the arms drawn apart, and the arm :func:`_clash` finds, by the branch arms asked of it."""

    __slots__ = ("arms", "tiles", "labels", "apart", "extent", "frame", "clashes")

    def __init__(self, arms: tuple[_Arm, ...], tiles: list[Place], labels: list[Label], apart: list[_Arm]):
        self.arms, self.tiles, self.labels, self.apart = arms, tiles, labels, apart
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        for item in tiles + labels:
            x, y, w, h = _box(item)
            x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x + w), max(y1, y + h)
        self.extent = (x0, y0, x1, y1)              # (what its items cover: the left and the bottom of the plan's)
        self.frame = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)   # (:func:`_frame`: rounding keeps the order, so the same)
        self.clashes: dict[frozenset, int] = {}

    def clash(self, branch: frozenset) -> int:
        found = self.clashes.get(branch)
        if found is None:
            found = self.clashes[branch] = _clash(self.tiles + self.labels, branch)
        return found


@lru_cache(maxsize=2048)        # (a page's lines keep coming back to the same layouts: those of its game, a move on)
def _sketch(lead: tuple[int, int], arms: tuple[_Arm, ...], strips: frozenset, lang: str = "en") -> _Sketch:
    """The layout of ``lead`` and ``arms`` drawn with the arms ``strips`` (and any with no room beside its double)
    apart, but for those: :func:`arms_scene` adds them where the plan puts their strips. ``lang``: the active
    language, whose words its labels hold (a part of the cache's key)."""
    a, b = lead
    spinner = a == b
    tiles = [Place(-U / 2, -U, True, a, b, lead=True, arm=0) if spinner
             else Place(-U, -U / 2, False, b, a, lead=True, arm=0)]
    starts = (((U / 2, 0), (-U / 2, 0), (0, -U), (0, U)) if spinner
              else ((U, 0), (-U, 0), (0, -U / 2), (0, U / 2)))
    drawn: dict[int, list[Place]] = {}
    sides: dict[tuple, int] = {}
    spots, apart, main = [], [], 0
    for arm in arms:
        if arm.origin is None and main < 4:
            d = _SIDES[main]
            placed, end, way = _walk(arm, starts[main], d, REACH[0] if d[0] else REACH[1])
            drawn[arm.number] = placed
            tiles += placed
            spots.append(_label_spots(arm, gettext(_SIDE_WORDS[main]), placed, end, way))
            main += 1
    for arm in arms:
        if arm.number in drawn:
            continue
        parent = drawn.get(arm.origin[0]) if arm.origin else None
        double = parent[arm.origin[1]] if parent and arm.origin[1] < len(parent) else None
        side = sides.get(arm.origin, 0) if arm.origin else 2
        if arm.origin:
            sides[arm.origin] = side + 1
        if double is not None and double.a == double.b and side < 2 and arm.number not in strips:
            d = _cw(double.way) if side else _ccw(double.way)
            start = (double.centre[0] + d[0] * U, double.centre[1] + d[1] * U)
            placed, end, way = _walk(arm, start, d, math.inf)
            drawn[arm.number] = placed
            tiles += placed
            spots.append(_label_spots(arm, gettext("from {tile} on arm {arm}", tile=f"[{double.a}-{double.b}]",
                                                   arm=arm.origin[0]), placed, end, way))
        else:
            apart.append(arm)
    taken = _Taken()
    for p in tiles:
        taken.add((p.x, p.y, p.w, p.h))
    labels = []
    for choice in spots:                  # each label where it covers no tile and no label before it
        first = next(choice)
        label = next((s for s in choice if not taken.meets(s.box)), first) if taken.meets(first.box) else first
        labels.append(label)
        taken.add(label.box)
    labels.sort(key=lambda label: label.arm)
    return _Sketch(arms, tiles, labels, apart)


def _drawn(lay: Layout, strips: set[int]) -> _Sketch:
    """:func:`_sketch` of ``lay`` (which has a lead) with those of ``strips`` among its own arms."""
    arms = _arms_of(lay)
    return _sketch(tuple(lay.lead), arms, frozenset(a.number for a in arms if a.number in strips), language())


def _scene(sketch: _Sketch, plan: Plan) -> Scene:
    """``sketch`` with the arms it draws apart put in their strips, where ``plan`` places them."""
    if not sketch.apart:
        return Scene(list(sketch.tiles), list(sketch.labels), sketch.frame)
    tiles, labels = [], []
    y = plan.top
    for arm in sketch.apart:
        if arm.origin:
            t = sketch.arms[arm.origin[0] - 1].tiles[arm.origin[1]]
            where = gettext("from {tile} on arm {arm}", tile=f"[{t[0]}-{t[1]}]", arm=arm.origin[0])
        else:
            where = gettext("from the lead")
        head = _head(arm)
        labels.append(Label(arm.number, plan.left, y + FONT, "start", f"{head}, {where}: {_state(arm)}",
                            where, _state(arm), apart=True, head=head))
        placed, _, _ = _walk(arm, (plan.left - GAP, y + FONT + 3 + U), (1, 0), math.inf, apart=True)
        tiles += placed
        y += FONT + 3 + 2 * U + 6
    return Scene(sketch.tiles + tiles, sorted(sketch.labels + labels, key=lambda label: label.arm),
                 _frame(tiles + labels, sketch.frame))


def arms_scene(lay: Layout | None, plan: Plan | None = None) -> Scene:
    """Every tile and label of the layout ``lay`` placed by ``plan`` (:func:`plan_arms`; none: no arm apart)."""
    if lay is None or lay.lead is None:
        return Scene()
    plan = plan or Plan()
    return _scene(_drawn(lay, plan.strips), plan)


def _clash(items: list, branch: frozenset) -> int:
    """The branch arm to draw apart because it meets a tile or label of another arm, or 0: ``items``, the tiles and
    labels of a scene but those drawn apart."""
    boxes = [_box(p) for p in items]
    # the first pair in the items' order that meets (as the plain double loop finds it), found along x: a pair
    # whose boxes do not share some x meets nowhere, so each item is tried only against those that start before
    # it ends (a line of the cross has a hundred items: the double loop was most of a report's time)
    by_x = sorted(range(len(items)), key=lambda i: boxes[i][0])
    first = None
    for at, i in enumerate(by_x):
        right = boxes[i][0] + boxes[i][2]
        for j in by_x[at + 1:]:
            if boxes[j][0] > right:
                break
            pair = (i, j) if i < j else (j, i)
            if (first is None or pair < first) and items[i].arm != items[j].arm and _overlap(boxes[i], boxes[j]) \
                    and (items[i].arm in branch or items[j].arm in branch):
                first = pair
    if first is None:
        return 0
    later, sooner = max(items[first[0]].arm, items[first[1]].arm), min(items[first[0]].arm, items[first[1]].arm)
    return later if later in branch else sooner


def plan_arms(layouts: list[Layout | None]) -> Plan:
    """Which branch arms are drawn apart so that, at every step of ``layouts``, no arm meets another (a branch
    arm that would is put in a strip under everything the cross ever covers)."""
    return _planned(layouts)[0]


def planned_scenes(layouts: list[Layout | None]) -> list[Scene]:
    """Every step of ``layouts`` drawn by their one plan: ``[arms_scene(lay, plan_arms(layouts)) for lay in
    layouts]``, each step's drawing of the planning kept, its arms apart put where the plan places their strips."""
    plan, drawn = _planned(layouts)
    return [Scene() if lay is None or lay.lead is None else _scene(drawn[k], plan) for k, lay in enumerate(layouts)]


def _planned(layouts: list[Layout | None]) -> tuple[Plan, dict[int, _Sketch]]:
    """:func:`plan_arms`'s plan, and the sketch of each layout with a lead (by its index in ``layouts``) by the
    strips of the plan.

    The plain plan draws every step, puts apart the branch arm of the first clash it meets, and draws every step
    again, until no step clashes. A step's drawing depends on the strips only through the arms it has, so each
    step keeps its sketch (:func:`_sketch`, by its own strips: the same layouts of a page's other lines too) and the
    clash found in it, and after an arm is put apart only the steps that have it are drawn again, from the first
    of them (the steps before it clashed with nothing, and nothing of them changed)."""
    plan = Plan()
    steps = [k for k, lay in enumerate(layouts) if lay is not None and lay.lead is not None]
    arms = {k: _arms_of(layouts[k]) for k in steps}
    branch = frozenset(a.number for k in steps for a in arms[k] if a.origin is not None)
    drawn: dict[int, _Sketch] = {}
    mine = {}
    for k in steps:
        lead, own = tuple(layouts[k].lead), arms[k]
        drawn[k] = _sketch(lead, own, frozenset(), language())
        mine[k] = frozenset(a.number for a in own)
    if not branch:
        return plan, drawn
    at = 0
    while at < len(steps):
        k = steps[at]
        arm = drawn[k].clash(mine[k] & branch)
        if not arm:
            at += 1
            continue
        plan.strips.add(arm)          # every step that has the arm drawn again; the search goes on from the first
        first = None
        for n, j in enumerate(steps):
            if arm in mine[j]:
                drawn[j] = _sketch(tuple(layouts[j].lead), arms[j], mine[j] & plan.strips, language())
                first = n if first is None else first
        at = min(at, first)
    if plan.strips:
        bottom, left = -math.inf, math.inf
        for sketch in drawn.values():
            bottom, left = max(bottom, sketch.extent[3]), min(left, sketch.extent[0])
        plan.top, plan.left = bottom + 8, left
    return plan, drawn


def _frame(items, frame: tuple[float, float, float, float] | None = None):
    """The frame that holds ``items`` (tiles and labels) and ``frame`` with 3 units to spare (x0, y0, x1, y1), None
    for none."""
    for item in items:
        x, y, w, h = _box(item)
        if frame is None:
            frame = (x - 3, y - 3, x + w + 3, y + h + 3)
        else:
            frame = (min(frame[0], x - 3), min(frame[1], y - 3), max(frame[2], x + w + 3), max(frame[3], y + h + 3))
    return frame


def arms_box(scenes: list[Scene]) -> tuple[float, float, float, float]:
    """The frame that holds every one of ``scenes`` (a small layout is not blown up): (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = -120.0, -50.0, 120.0, 50.0
    for scene in scenes:
        frame = scene.frame if scene.frame is not None else _frame(scene.tiles + scene.labels)
        if frame is not None:
            x0, y0, x1, y1 = min(x0, frame[0]), min(y0, frame[1]), max(x1, frame[2]), max(y1, frame[3])
    return (x0, y0, x1, y1)


def board_scene(board: Board, half: float = WIDE) -> Scene:
    """The table of ``board`` alone, placed (a layout with arms by its own plan): the diagram's and the board's."""
    if board.layout is not None:
        return arms_scene(board.layout, plan_arms([board.layout]))
    return Scene([p for p in line_places(board.line, board.lead, half) if p is not None])
