"""A position as a standalone SVG diagram (``domino diagram``): the line of play or the layout with its
arms, the hands shown or face down, the last move marked. Plain data in (the report's
:class:`~analyzer.report.model.Board`), text out; every name from the record is escaped."""
from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ..position import Position
from ..replay import Replay
from ..tiles import Tile
from .model import Board, board_view
from .render import PIP_LAYOUT

__all__ = ["position_at", "Diagram", "diagram_svg", "table_svg", "game_diagram"]

U = 20                  # the side of a tile's half, in SVG units
GAP = 3
PER_ROW = 12            # tiles in a row of a line of play before it wraps


def position_at(rep: Replay, step: int) -> tuple[Position, list[set[int]], Tile | None, int]:
    """The position of game ``rep`` after ``step`` moves, as far as the record is legal: ``(position,
    the numbers each seat's passes prove he lacks, the last tile laid, the moves played)``."""
    shown = min(step, rep.legal_prefix) if rep.deal_ok else 0
    pos = rep.initial.copy()
    voids: list[set[int]] = [set() for _ in range(pos.n)]
    last = None
    for s in rep.steps[:shown]:
        if s.move is not None:
            pos.turn = s.seat         # each move by its seat, as the replay made it (the opener's extra tile too)
            pos.push(s.move)
            if s.move.is_play:
                last = s.move.tile
        if s.seat is not None:
            voids[s.seat].update(s.lacks)
    nxt = rep.steps[shown].seat if shown < len(rep.steps) else None
    if nxt is not None and pos.may_add(nxt):      # the opener who adds his extra tile (004) moves again
        pos.turn = nxt
    return pos, voids, last, shown


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

    def face(self, x: float, y: float, n: int) -> None:
        """The half showing ``n`` with its top left corner at (x, y)."""
        if n in PIP_LAYOUT:
            for px, py in PIP_LAYOUT[n]:
                self.items.append(f'<circle cx="{x + px * U / 10:g}" cy="{y + py * U / 10:g}" r="{U * 0.1:g}" class="pip"/>')
        else:
            self.items.append(f'<text x="{x + U / 2:g}" y="{y + U * 0.72:g}" font-size="{U * 0.62:g}" '
                              f'text-anchor="middle" class="pip">{n}</text>')

    def tile(self, x: float, y: float, a: int, b: int, vertical: bool = False, last: bool = False) -> None:
        """A tile with ``a`` on its left (top, when ``vertical``) half."""
        w, h = (U, 2 * U) if vertical else (2 * U, U)
        self.items.append(f'<rect x="{x + .5:g}" y="{y + .5:g}" width="{w - 1:g}" height="{h - 1:g}" rx="3" '
                          f'class="tile{" last" if last else ""}"/>')
        if vertical:
            self.items.append(f'<line x1="{x + 3:g}" y1="{y + U:g}" x2="{x + U - 3:g}" y2="{y + U:g}" class="bar"/>')
            self.face(x, y, a)
            self.face(x, y + U, b)
        else:
            self.items.append(f'<line x1="{x + U:g}" y1="{y + 3:g}" x2="{x + U:g}" y2="{y + U - 3:g}" class="bar"/>')
            self.face(x, y, a)
            self.face(x + U, y, b)
        self.grow(x, y, w, h)

    def back(self, x: float, y: float) -> None:
        self.items.append(f'<rect x="{x + .5:g}" y="{y + .5:g}" width="{2 * U - 1:g}" height="{U - 1:g}" rx="3" class="back"/>')
        self.grow(x, y, 2 * U, U)


def _is(pair, last) -> bool:
    return last is not None and sorted(pair) == sorted(last)


def _line(c: _Canvas, board: Board) -> float:
    """The line of play left to right, wrapped into rows; the height it takes."""
    x = y = 0.0
    for k, (a, b) in enumerate(board.line):
        if k and k % PER_ROW == 0:
            x, y = 0.0, y + 2 * U + 2 * GAP
        double = a == b
        c.tile(x, y + (0 if double else U / 2), a, b, vertical=double, last=_is((a, b), board.last))
        x += (U if double else 2 * U) + GAP
    if not board.line:
        c.text(0, U, "nothing played yet", cls="note")
    return c.y1


_DIRECTIONS = {1: (1, 0), 2: (-1, 0), 3: (0, -1), 4: (0, 1)}     # arm 1 right, 2 left, 3 up, 4 down


def _arms(c: _Canvas, board: Board) -> float:
    """The layout with arms as a cross around its lead: the spinner's arms 1 to 4 right, left, up and
    down, each tile outward from the lead (a double across its arm); branch arms in rows below."""
    lay = board.layout
    if lay.lead is None:
        c.text(0, U, "nothing played yet", cls="note")
        return c.y1
    a, b = lay.lead
    double = a == b
    # the lead: a spinner lies across arms 1 and 2
    lw, lh = (U, 2 * U) if double else (2 * U, U)
    lx, ly = -lw / 2, -lh / 2
    c.tile(lx, ly, b if not double else a, a if not double else b, vertical=double,
           last=_is(lay.lead, board.last) and not any(arm.tiles for arm in lay.arms))
    branches = []
    for arm in lay.arms:
        if arm.origin is not None or arm.number not in _DIRECTIONS:
            branches.append(arm)
            continue
        dx, dy = _DIRECTIONS[arm.number]
        # where the arm leaves the lead
        if dx:
            edge = (lx + lw) if dx > 0 else lx
            x, y = edge + dx * GAP, 0.0
        else:
            edge = (ly + lh) if dy > 0 else ly
            x, y = 0.0, edge + dy * GAP
        for near, far in arm.tiles:
            crosswise = near == far
            horizontal = (dx != 0) != crosswise
            w, h = (2 * U, U) if horizontal else (U, 2 * U)
            # the tile's near half toward the lead
            if dx > 0 or dy > 0:
                first, second = near, far
            else:
                first, second = far, near
            if crosswise:
                first = second = near
            tx = x if dx > 0 else x - w if dx < 0 else -w / 2
            ty = y if dy > 0 else y - h if dy < 0 else -h / 2
            c.tile(tx, ty, first, second, vertical=not horizontal, last=_is((near, far), board.last))
            x, y = x + dx * (w + GAP), y + dy * (h + GAP)
        label = f"{arm.number}: " + ("closed" if arm.state == "closed" else str(arm.open))
        c.text(x + dx * U * 0.9, y + dy * U * 0.9 + (4 if not dy else 0), label, size=10,
               anchor="middle", cls="arm")
    y = c.y1 + 2 * GAP
    for arm in branches:
        y += 1.2 * U
        c.text(c.x0, y, f"arm {arm.number} (from a double of arm {arm.origin[0] if arm.origin else '?'}): "
               + ("closed" if arm.state == "closed" else f"open {arm.open}"), size=10, cls="arm")
        x = c.x0
        y += GAP
        for near, far in arm.tiles:
            c.tile(x, y, near, far, last=_is((near, far), board.last))
            x += 2 * U + GAP
        y += U
    return c.y1


def _table(c: _Canvas, board: Board) -> None:
    _arms(c, board) if board.layout is not None else _line(c, board)


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
        x = left
        tiles = d.board.hands[seat] if d.shown[seat] else []
        for a, b in tiles:
            c.tile(x, y, a, b)
            x += 2 * U + GAP
        for _ in range(count - len(tiles)):
            c.back(x, y)
            x += 2 * U + GAP
        y += U + 1.3 * U
    c.text(left, y, d.caption, size=12, cls="caption")
    return _svg(c, d.caption)


def table_svg(board: Board, label: str) -> str:
    """The standalone SVG of the table of ``board`` alone (the line of play or the layout with its arms, the
    last tile marked), drawn as :func:`diagram_svg` draws it: the board's picture. ``label``: its accessible
    name (escaped)."""
    c = _Canvas()
    _table(c, board)
    return _svg(c, label)


def _svg(c: _Canvas, label: str) -> str:
    pad = 10
    x0, y0, w, h = c.x0 - pad, c.y0 - pad, c.x1 - c.x0 + 2 * pad, c.y1 - c.y0 + 2 * pad
    style = ("text{font-family:DejaVu Sans,Arial,sans-serif;fill:#1d2330}.tile{fill:#fffdf6;stroke:#222;stroke-width:1}"
             ".tile.last{fill:#ffe08a;stroke:#9a6a00;stroke-width:2}.back{fill:#3d5a80;stroke:#222;stroke-width:1}"
             ".bar{stroke:#666;stroke-width:1}.pip{fill:#222}.arm{fill:#2f6b45}.note{fill:#5b6475}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:g} {y0:g} {w:g} {h:g}" width="{w:g}" height="{h:g}" '
            f'role="img" aria-label={quoteattr(label)}>\n<style>{style}</style>\n'
            f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}" fill="#ffffff"/>\n'
            + "\n".join(c.items) + "\n</svg>\n")


def game_diagram(rep: Replay, step: int, hands: str = "all") -> str:
    """The SVG of game ``rep`` after ``step`` moves (as far as the record is legal); ``hands``: ``all``,
    ``none`` or a player's name (his hand face up, the others face down)."""
    pos, voids, last, shown = position_at(rep, step)
    names = tuple(rep.players)
    if hands not in ("all", "none") and hands not in names:
        raise ValueError(f"--hands is all, none or a player of this game ({', '.join(names)}), not {hands!r}")
    face = tuple(hands == "all" or hands == name for name in names)
    if shown == 0:
        caption = f"{rep.title}: " + ("the position set up" if rep.setup_lacks is not None else "the deal")
    else:
        s = rep.steps[shown - 1]
        caption = f"{rep.title}: after move {shown} ({s.entry.player} {s.entry.text if s.move is None else s.move})"
    if shown < step:
        caption += f"; the record breaks the rules at move {shown + 1}"
    return diagram_svg(Diagram(board_view(pos, voids, last), names, face, caption, pos.max_pip))
