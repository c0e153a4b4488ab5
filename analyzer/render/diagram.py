"""A position as a standalone SVG diagram (``domino diagram``): the line of play or the layout with its
arms, the hands shown or face down, the last move marked. Plain data in (the report's
:class:`~analyzer.render.model.Board`), text out; every name from the record is escaped."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from ..position import Position
from ..replay import Replay
from ..tiles import Tile
from .geometry import U as GU, board_scene
from .model import Board, board_view

__all__ = ["PIP_LAYOUT", "positions", "position_at", "Diagram", "diagram_svg", "table_svg", "game_diagram", "game_diagrams"]

# Where the pips of each number sit on a square face of 10 x 10 (numbers above 9 are written).
_C, _L, _R = 5.0, 2.6, 7.4
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(_C, _C)],
    2: [(_L, _L), (_R, _R)],
    3: [(_L, _L), (_C, _C), (_R, _R)],
    4: [(_L, _L), (_R, _L), (_L, _R), (_R, _R)],
    5: [(_L, _L), (_R, _L), (_C, _C), (_L, _R), (_R, _R)],
    6: [(_L, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_R, _R)],
    7: [(_L, _L), (_R, _L), (_L, _C), (_C, _C), (_R, _C), (_L, _R), (_R, _R)],
    8: [(_L, _L), (_C, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_C, _R), (_R, _R)],
    9: [(x, y) for y in (_L, _C, _R) for x in (_L, _C, _R)],
}

U = 20                  # the side of a tile's half, in SVG units
GAP = 3                 # between the tiles of a hand


def positions(rep: Replay) -> Iterator[tuple[Position, list[set[int]], Tile | None, int]]:
    """The position of game ``rep`` after each number of moves, from none to all of them, as :func:`position_at`
    gives it: one walk through the game (each drawing of a game's positions would replay it from the deal
    again). The position and its voids are the walk's own, changed in place as it goes on."""
    pos = rep.initial.copy()
    voids: list[set[int]] = [set() for _ in range(pos.n)]
    last = None
    legal = min(len(rep.steps), rep.legal_prefix) if rep.deal_ok else 0
    for shown in range(len(rep.steps) + 1):
        if 0 < shown <= legal:
            s = rep.steps[shown - 1]
            if s.move is not None:
                pos.turn = s.seat         # each move by its seat, as the replay made it (the opener's extra tile too)
                pos.push(s.move)
                if s.move.is_play:
                    last = s.move.tile
            if s.seat is not None:
                voids[s.seat].update(s.lacks)
        moved = min(shown, legal)
        nxt = rep.steps[moved].seat if moved < len(rep.steps) else None
        if nxt is not None and pos.may_add(nxt):      # the opener who adds his extra tile (004) moves again
            pos.turn = nxt
        yield pos, voids, last, moved


def position_at(rep: Replay, step: int) -> tuple[Position, list[set[int]], Tile | None, int]:
    """The position of game ``rep`` after ``step`` moves, as far as the record is legal: ``(position,
    the numbers each seat's passes prove he lacks, the last tile laid, the moves played)``."""
    for k, at in enumerate(positions(rep)):
        if k >= step:
            break
    return at


@dataclass(frozen=True)
class Diagram:
    """What the picture shows: the table, each player's name, and which hands are face up."""

    board: Board
    players: tuple[str, ...]
    shown: tuple[bool, ...]          # per seat: the hand face up (True) or face down
    caption: str
    max_pip: int = 6


class _Canvas:
    def __init__(self):
        self.items: list[str] = []
        self.x0 = self.y0 = 0.0
        self.x1 = self.y1 = 0.0

    def grow(self, x: float, y: float, w: float, h: float) -> None:
        self.x0, self.y0 = min(self.x0, x), min(self.y0, y)
        self.x1, self.y1 = max(self.x1, x + w), max(self.y1, y + h)

    def text(self, x: float, y: float, words: str, size: float = 11, anchor: str = "start", cls: str = "") -> None:
        self.items.append(f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" text-anchor="{anchor}"'
                          f'{" class=" + quoteattr(cls) if cls else ""}>{escape(words)}</text>')
        width = len(words) * size * 0.6
        self.grow(x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0), y - size, width, size * 1.3)

    def tile(self, x: float, y: float, a: int, b: int, vertical: bool = False, last: bool = False,
             best: bool = False) -> None:
        """A tile with ``a`` on its left (top, when ``vertical``) half (``best``: marked as the best move's)."""
        self.items.append(_tile_text(x, y, a, b, vertical, last, best))
        self.grow(x, y, U if vertical else 2 * U, 2 * U if vertical else U)

    def hand(self, x: float, y: float, tiles: tuple[tuple[int, int], ...], backs: int) -> None:
        """A hand in a row from (x, y): ``tiles`` face up, then ``backs`` tiles face down."""
        if tiles or backs:
            self.items.append(_hand_text(x, y, tiles, backs))
            self.grow(x, y, (len(tiles) + backs) * (2 * U + GAP) - GAP, U)


@lru_cache(maxsize=512)        # (a game's hands, a few hundred: the hands of games done before are not met again)
def _hand_text(x: float, y: float, tiles: tuple[tuple[int, int], ...], backs: int) -> str:
    """A hand's SVG (:meth:`_Canvas.hand`): a hand no move changed is drawn in position after position, so each is
    written once. A tile face up is drawn at its own origin and moved to its place, so that a tile that shifts along
    its hand as the tiles before it leave is the same text but for the move (the page packs the diagrams of every
    position of a game, each against the one before it: a third of the size)."""
    items = []
    for a, b in tiles:
        items.append(f'<g transform="translate({x:g} {y:g})">\n{_tile_text(0, 0, a, b, False, False)}\n</g>')
        x += 2 * U + GAP
    for _ in range(backs):
        items.append(f'<rect x="{x + .5:g}" y="{y + .5:g}" width="{2 * U - 1:g}" height="{U - 1:g}" rx="3" class="back"/>')
        x += 2 * U + GAP
    return "\n".join(items)


@lru_cache(maxsize=4096)
def _face(x: float, y: float, n: int) -> str:
    """The half showing ``n`` with its top left corner at (x, y) (each written once: the halves of the tiles in
    the hands are all drawn at the same two places)."""
    if n in PIP_LAYOUT:
        return "".join(f'<circle cx="{x + px * U / 10:g}" cy="{y + py * U / 10:g}" r="{U * 0.1:g}" class="pip"/>'
                       for px, py in PIP_LAYOUT[n])
    return (f'<text x="{x + U / 2:g}" y="{y + U * 0.72:g}" font-size="{U * 0.62:g}" '
            f'text-anchor="middle" class="pip">{n}</text>')


@lru_cache(maxsize=8192)
def _tile_text(x: float, y: float, a: int, b: int, vertical: bool, last: bool, best: bool = False) -> str:
    """A tile's SVG, on one line: the same tile at the same place is drawn in position after position (the diagram
    of every position of a game), so each is written once; and the page packs those diagrams line by line against
    the one before (``pagedata.packed_diagrams``), a tile a line."""
    w, h = (U, 2 * U) if vertical else (2 * U, U)
    rect = (f'<rect x="{x + .5:g}" y="{y + .5:g}" width="{w - 1:g}" height="{h - 1:g}" rx="3" '
            f'class="tile{" best" if best else " last" if last else ""}"/>')
    if vertical:
        return "".join([rect, f'<line x1="{x + 3:g}" y1="{y + U:g}" x2="{x + U - 3:g}" y2="{y + U:g}" class="bar"/>',
                        _face(x, y, a), _face(x, y + U, b)])
    return "".join([rect, f'<line x1="{x + U:g}" y1="{y + 3:g}" x2="{x + U:g}" y2="{y + U - 3:g}" class="bar"/>',
                    _face(x, y, a), _face(x + U, y, b)])


def _is(pair, last) -> bool:
    return last is not None and sorted(pair) == sorted(last)


SCALE = U / GU          # the diagram's units to the geometry's (``render.geometry``: the page's)


def _table(c: _Canvas, board: Board, best: bool = False) -> None:
    """The table of ``board`` as the page draws it (``render.geometry``): the line of play as a snake, or the
    layout with its arms and their labels; the last tile marked (``best``: marked as the best move's, the board
    the one after it)."""
    scene = board_scene(board)
    for p in scene.tiles:
        mark = _is((p.a, p.b), board.last)
        c.tile(p.x * SCALE, p.y * SCALE, p.a, p.b, vertical=p.vertical, last=mark and not best, best=mark and best)
    for label in scene.labels:
        words = (f"{label.arm}{label.words[len(label.head):]}" if label.head and label.words.startswith(label.head)
                 else label.words)
        c.text(label.x * SCALE, label.y * SCALE, words, size=11, anchor=label.anchor, cls="arm")
    if not scene.tiles:
        c.text(0, U, "nothing played yet", cls="note")


def diagram_svg(d: Diagram) -> str:
    """The standalone SVG of ``d``."""
    c = _Canvas()
    _table(c, d.board)
    y = c.y1 + 2 * U
    left = c.x0
    for seat, name in enumerate(d.players):
        count = d.board.counts[seat]
        c.text(left, y, f"{name}: {count} tile{'s' * (count != 1)}", size=12, cls="who")
        y += 6
        tiles = tuple(map(tuple, d.board.hands[seat])) if d.shown[seat] else ()
        c.hand(left, y, tiles, count - len(tiles))
        y += U + 1.3 * U
    c.text(left, y, d.caption, size=12, cls="caption")
    return _svg(c, d.caption)


def table_svg(board: Board, label: str, best: bool = False) -> str:
    """The standalone SVG of the table of ``board`` alone (the line of play or the layout with its arms, the
    last tile marked), drawn as :func:`diagram_svg` draws it: the board's picture. ``label``: its accessible
    name (escaped). ``best``: ``board`` is the table after the best move, its tile (``board.last``) marked as
    the best move's (green, dashed) instead of as the last one laid."""
    c = _Canvas()
    _table(c, board, best)
    return _svg(c, label)


def _svg(c: _Canvas, label: str) -> str:
    pad = 10
    x0, y0, w, h = c.x0 - pad, c.y0 - pad, c.x1 - c.x0 + 2 * pad, c.y1 - c.y0 + 2 * pad
    style = ("text{font-family:DejaVu Sans,Arial,sans-serif;fill:#1d2330}.tile{fill:#fffdf6;stroke:#222;stroke-width:1}"
             ".tile.last{fill:#ffe08a;stroke:#9a6a00;stroke-width:2}.tile.best{fill:#d6f0dc;stroke:#1d7a3a;stroke-width:2.5;"
             "stroke-dasharray:5 3}.back{fill:#3d5a80;stroke:#222;stroke-width:1}"
             ".bar{stroke:#666;stroke-width:1}.pip{fill:#222}.arm{fill:#2f6b45}.note{fill:#5b6475}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:g} {y0:g} {w:g} {h:g}" width="{w:g}" height="{h:g}" '
            f'role="img" aria-label={quoteattr(label)}>\n<style>{style}</style>\n'
            f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>\n'
            + "\n".join(c.items) + "\n</svg>\n")


def game_diagram(rep: Replay, step: int, hands: str = "all") -> str:
    """The SVG of game ``rep`` after ``step`` moves (as far as the record is legal); ``hands``: ``all``,
    ``none`` or a player's name (his hand face up, the others face down)."""
    return _drawing(rep, step, position_at(rep, step), _faces(rep, hands))


def game_diagrams(rep: Replay, hands: str = "all") -> list[str]:
    """The SVG of game ``rep`` after each number of moves, from none to all of them: :func:`game_diagram` of
    every step, drawn in one walk through the game (the page's diagrams to save)."""
    face = _faces(rep, hands)
    return [_drawing(rep, k, at, face) for k, at in enumerate(positions(rep))]


def _faces(rep: Replay, hands: str) -> tuple[bool, ...]:
    """Per seat, whether ``hands`` shows his hand face up."""
    names = tuple(rep.players)
    if hands not in ("all", "none") and hands not in names:
        raise ValueError(f"the hands face up are all, none or a player of this game ({', '.join(names)}), not {hands!r}")
    return tuple(hands == "all" or hands == name for name in names)


def _drawing(rep: Replay, step: int, at: tuple, face: tuple[bool, ...]) -> str:
    """The SVG of game ``rep`` after ``step`` moves, ``at`` its position (:func:`position_at`)."""
    pos, voids, last, shown = at
    if shown == 0:
        caption = f"{rep.title}: " + ("the position set up" if rep.setup_lacks is not None else "the deal")
    else:
        s = rep.steps[shown - 1]
        caption = f"{rep.title}: after move {shown} ({s.entry.player} {s.entry.text if s.move is None else s.move})"
    if shown < step:
        caption += f"; the record breaks the rules at move {shown + 1}"
    return diagram_svg(Diagram(board_view(pos, voids, last), tuple(rep.players), face, caption, pos.max_pip))
