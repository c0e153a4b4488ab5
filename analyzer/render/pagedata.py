"""The data each game's page carries for its script (``static/report.js``): numbers and our own short strings,
never text of the record (names and comments reach the page only through the escaped template): the boards
after each move, where each tile lies (:mod:`~analyzer.render.geometry`, the one drawing), each alternative's
best line once, the drawings of every position to save, as plain JSON (:func:`packed_game`: what repeats written
once and named by index, no strings of our own format) and deflated (:func:`deflated`). No jinja2 here:
:mod:`~analyzer.render.page` puts it into the page."""
from __future__ import annotations

import base64
import json
import zlib

from .geometry import NARROW, WIDE, Label, Place, arms_box, line_box, line_places, planned_scenes, tile_key
from .model import Board, GameReport, LineView

__all__ = ["game_data", "packed_game", "deflated", "DEFLATE_LEVEL", "board_data", "table_data",
           "line_data", "lines_data", "place_data", "packed_diagrams", "line_delta", "packed_lines", "page_label",
           "Spots", "Shared", "short"]


def board_data(board: Board, seat: int | None) -> dict:
    """A table's numbers for the page's script, but for where its tiles lie (:func:`table_data`: the tiles it
    adds to the table before it): the hands, counts, pips and passes, the open ends and the last tile (``seat``:
    who laid it, None before the first move)."""
    return {"hands": [[f"{a}-{b}" for a, b in hand] for hand in board.hands],
            "counts": board.counts, "pips": board.pips, "voids": board.voids,
            "ends": list(board.ends) if board.ends else None,
            "last": list(board.last) if board.last else None, "seat": seat}


def short(v: float):
    """A coordinate as short as JSON writes it: 5 rather than 5.0."""
    v = round(v, 2)
    return int(v) if v == int(v) else v


def place_data(p: Place) -> list:
    """A tile where :mod:`~analyzer.render.geometry` puts it, for the script, without its numbers (the page names
    the tile: ``"3-5"``): ``[x, y, upright, the higher number on top (left), lead]`` and, on a layout with arms,
    ``arm, index on the arm``, else its place in the line from the lead (the page draws a line left to right).
    Many tiles of a game and its lines share a place."""
    out = [short(p.x), short(p.y), int(p.vertical), int(p.a > p.b), int(p.lead)]
    return out + [p.arm, p.k] if p.arm is not None else out + [p.rank]


def _label_data(label: Label) -> list:
    """An arm's label as the page's data carries it: its words without their head (``arm 1``: the page writes that
    part itself, in its own style)."""
    words = label.words[len(label.head):] if label.head and label.words.startswith(label.head) else label.words
    return [short(label.x), short(label.y), label.anchor, words, label.where, label.state, int(label.apart)]


def _box_data(box) -> list:
    x0, y0, x1, y1 = box
    return [short(x0), short(y0), short(x1 - x0), short(y1 - y0)]


def _keys(board: Board) -> set[str]:
    if board.layout is not None:
        lay = board.layout
        return set() if lay.lead is None else {tile_key(*lay.lead)} | {tile_key(*t) for a in lay.arms for t in a.tiles}
    return {tile_key(*p) for p in board.line}


def _labels_change(before: dict, after: dict) -> dict:
    """The labels of ``after`` that differ from ``before``'s (by arm), an arm gone as None."""
    out = {arm: value for arm, value in after.items() if before.get(arm) != value}
    out.update({arm: None for arm in before if arm not in after})
    return out


class Spots(list):
    """The distinct places of the tiles of a game and its lines (:func:`place_data`), each written once."""

    def __init__(self):
        super().__init__()
        self._seen: dict[tuple, int] = {}
        self._raw: dict[tuple, int] = {}         # by the place's own numbers: the same place met again, at once

    def index(self, p: Place) -> int:
        raw = (p.x, p.y, p.vertical, p.a > p.b, p.lead, p.arm, p.k, p.rank)
        found = self._raw.get(raw)
        if found is None:
            data = place_data(p)
            found = self._raw[raw] = self._seen.setdefault(tuple(data), len(self))
            if found == len(self):
                self.append(data)
        return found


def table_data(boards: list[Board], data: list[dict]) -> dict:
    """Where the tiles of a game's table lie at each of its ``boards`` (the deal, then after each move), for the
    script (each board's ``data``, :func:`board_data`, gains the tiles it adds, ``put``, and any it takes away,
    ``drop``; on a layout with arms the labels that change, ``labels``, and tiles placed anew, ``moved``): per
    view (a line of play: a wide screen and a phone's, ``geometry.WIDE`` and ``NARROW``) the frame and every
    tile's place by its name (``"3-5"``), an index into ``spots``, the places themselves (:func:`place_data`;
    the lines of the game's alternatives place their tiles by the same list: :func:`line_data`). Drawn by
    :mod:`~analyzer.render.geometry`, as ``domino diagram``."""
    spots = Spots()
    arms = any(b.layout is not None for b in boards)
    if arms:
        scenes = planned_scenes([b.layout for b in boards])
        views = [{"half": None, "box": _box_data(arms_box(scenes)), "at": {}}]
        before_labels: dict = {}
        for d, scene in zip(data, scenes):
            at, moved = views[0]["at"], {}
            for p in scene.tiles:
                place = spots.index(p)
                if at.setdefault(p.key, place) != place:
                    moved[p.key] = place
            labels = {str(label.arm): _label_data(label) for label in scene.labels}
            change = _labels_change(before_labels, labels)
            if change:
                d["labels"] = change
            if moved:
                d["moved"] = moved
            before_labels = labels
    else:
        views = []
        for half in (WIDE, NARROW):
            last = line_places(boards[-1].line, boards[-1].lead, half)
            at = {p.key: spots.index(p) for p in last}
            for b in boards[:-1]:           # a tile that leaves the line before the end (none does, in the rules here)
                if not _keys(b) <= at.keys():
                    for p in line_places(b.line, b.lead, half):
                        at.setdefault(p.key, spots.index(p))
            views.append({"half": half, "box": _box_data(line_box(last, half)), "at": at})
    before: set[str] = set()
    for b, d in zip(boards, data):
        keys = _keys(b)
        d["put"] = sorted(keys - before)
        if before - keys:
            d["drop"] = sorted(before - keys)
        before = keys
    return {"arms": arms, "views": views, "spots": spots}


def game_data(game: GameReport, ch=None) -> dict:
    """Everything the page's script needs to draw the table at each move but the alternatives' lines (packed
    straight from the game's, :func:`packed_game`): numbers only, no text of the record (names and comments reach
    the page only through the escaped template). ``ch``: the page's value chart (``render.chart``), whose x of move 0
    and step between moves the script reads (None: no chart)."""
    boards = [game.start] + [m.board for m in game.moves]
    data = [board_data(game.start, None)] + [board_data(m.board, m.seat) for m in game.moves]
    return {
        "game": game.number, "moves": len(game.moves), "critical": game.critical, "mistakes": game.mistakes,
        "chart": {"x0": ch.x0, "dx": ch.dx} if ch else None,
        "boards": data, "table": table_data(boards, data),
        "diagrams": packed_diagrams(game.diagrams),
    }


def packed_diagrams(diagrams: list[str]) -> dict | None:
    """The SVG of every position of a game for the page to save: each drawing by its lines against the drawing before
    (:func:`line_delta`), ``{"plans": [a plan a drawing], "lines": [every new line in order]}`` (a position repeats
    most of the one before). It travels in the game's data, deflated with the rest of it (:func:`deflated`); the
    script only ever makes a file or an image of it, never markup of the page."""
    if not diagrams:
        return None
    plans, fresh, before = [], [], []
    for svg in diagrams:
        lines = svg.split("\n")
        plans.append(line_delta(before, lines, fresh))
        before = lines
    return {"plans": plans, "lines": fresh}


def line_delta(before: list[str], lines: list[str], fresh: list[str]) -> list[int]:
    """``lines`` against ``before``: pairs ``first, count`` in a flat list, each ``count`` lines of ``before`` from
    ``first`` on, or (``first`` -1) the next ``count`` lines of ``fresh``, where the new ones are added; in order,
    they give ``lines`` back. A line ``before`` holds starts a run at its first place there, and the run goes on
    while the next line is the one after it in ``before``."""
    first = dict(zip(reversed(before), range(len(before) - 1, -1, -1)))    # (the last written wins: the first place)
    after = before + [None]         # the line after a run's end (None, no line, after the last)
    plan: list[int] = []
    nxt = len(before)               # where the run in hand would go on (the end: none in hand)
    for line in lines:
        if after[nxt] == line:
            plan[-1] += 1
            nxt += 1
            continue
        k = first.get(line)
        if k is not None:
            plan += (k, 1)
            nxt = k + 1
        elif nxt == -1:             # (a new line after new lines)
            plan[-1] += 1
            fresh.append(line)
        else:
            plan += (-1, 1)
            nxt = -1
            fresh.append(line)
    return plan


def lines_data(game: GameReport, data: dict) -> dict:
    """Each alternative's best line as the script reads it, unpacked: by the decision's move number, for each
    alternative in the order the page lists them, :func:`line_data` (None: no line); ``data``: the game's
    :func:`game_data`. What :func:`packed_lines` packs (it makes the same from the game's lines at once)."""
    boards, table = [game.start] + [m.board for m in game.moves], data["table"]
    out = {}
    labels = _game_labels(boards, table)
    for m in game.moves:
        if m.decision is not None and any(a.line for a in m.decision.alternatives):
            out[str(m.number)] = [None if a.line is None else line_data(a.line, boards[m.number - 1], table,
                                                                        labels[m.number - 1])
                                  for a in m.decision.alternatives]
    return out


def _game_labels(boards: list[Board], table: dict) -> list[dict]:
    """The labels of a layout with arms at each board of the game, as the script holds them."""
    if not table["arms"]:
        return [{} for _ in boards]
    return [{str(label.arm): _label_data(label) for label in scene.labels}
            for scene in planned_scenes([b.layout for b in boards])]


def line_data(line: LineView, start: Board, table: dict, labels: dict) -> dict:
    """One alternative's best line for the script, from the table ``start`` before the decision: each move once,
    as ``[seat, the tile laid or drawn ("3-5", None for a pass), laid, the mover's tiles left, his pips, the open
    ends]`` (and on a layout with arms the labels that change), and per view of the game's ``table`` the frame of
    the line, the place of the tile each move lays (``put``: an index into the game's ``spots``, None for none)
    and, where the line draws a tile of the table before it elsewhere than the game does, its place (``base``).
    (:func:`packed_lines` packs the same, made straight from the lines of a line of play.)
    """
    spots = table["spots"]
    if table["arms"]:
        steps = [_step_data(s) for s in line.steps]
        layouts = [start.layout] + [s.layout for s in line.steps]
        scenes = planned_scenes(layouts)
        game_at = table["views"][0]["at"]
        base = {}
        for p in scenes[0].tiles:
            spot = spots.index(p)
            if game_at.get(p.key) != spot:
                base[p.key] = spot
        put = []
        for s, scene in zip(line.steps, scenes[1:]):
            key = tile_key(*s.tile) if s.laid and s.tile else None
            laid = next((p for p in scene.tiles if p.key == key), None) if key else None
            put.append(None if laid is None else spots.index(laid))
        view = {"box": _box_data(arms_box(scenes)), "put": put}
        if base:
            view["base"] = base
        out = {"views": [view]}
        before = labels
        for k, scene in enumerate(scenes):
            now = {str(label.arm): _label_data(label) for label in scene.labels}
            change = _labels_change(before, now)
            if k == 0 and change:
                out["labels"] = change
            elif k and change:
                steps[k - 1].append(change)
            before = now
    else:
        steps = [_step_data(s) for s in line.steps]
        views = []
        for view in table["views"]:
            placed = line_places(line.line, line.lead, view["half"])
            where = {p.key: p for p in placed}
            views.append({"box": _box_data(line_box(placed, view["half"])),
                          "put": [spots.index(where[st[1]]) if st[2] and st[1] else None for st in steps]})
        out = {"views": views}
    out["steps"] = steps
    return out


def _step_data(s) -> list:
    """A line's step for the script: ``[seat, tile ("3-5"), laid, count, pips, ends]`` (:func:`line_data`)."""
    return [s.seat, None if s.tile is None else tile_key(*s.tile), int(s.laid), s.count, s.pips,
            list(s.ends) if s.ends else None]


class Shared(list):
    """Distinct values of the page's data (lists of numbers and strings), each written once: the data names
    one by its index in the list."""

    def __init__(self):
        super().__init__()
        self._at: dict[str, int] = {}

    def index(self, value: list) -> int:
        key = json.dumps(value, separators=(",", ":"))
        found = self._at.get(key)
        if found is None:
            found = self._at[key] = len(self)
            self.append(value)
        return found

    def change(self, labels: dict | None) -> dict | None:
        """A layout's label changes by arm (:func:`_labels_change`) as indexes into this list (None: gone)."""
        return None if labels is None else {arm: None if v is None else self.index(v) for arm, v in labels.items()}


def _line_rows(line: dict, said: tuple[str, ...], labels: Shared, start: dict) -> list[tuple]:
    """Each move of a line of :func:`line_data` as the page carries it: the move (:func:`_step_row`, with the labels
    it changes as indexes into ``labels``), its words, the place of its tile in each view, and the move as the page
    writes it (:func:`_written`; ``start``: the board before the line, :func:`board_data`). The first three are
    what two lines must share to share a tail."""
    rows = []
    counts, pips, ends = list(start["counts"]), list(start["pips"]), start["ends"]
    for j, st in enumerate(line["steps"]):
        seat, tile, laid, count, pips_, ends_ = st[:6]
        change = labels.change(st[6]) if len(st) > 6 else None
        step = _step_row((seat, tile, laid, count, pips_, ends_), change)
        quiet = not change and _quiet(tile, (count, pips_, ends_), (counts[seat], pips[seat], ends))
        puts = tuple(v["put"][j] for v in line["views"])
        rows.append((_key(step), said[j], puts, _written(step, quiet)))
        counts[seat], pips[seat], ends = count, pips_, ends_
    return rows


def _step_row(step: tuple, change: dict | None = None) -> list:
    """A line's move (``seat, tile, laid, count, pips, ends``) as the page carries it: ``[seat, tile ("3-5", None),
    laid (0/1), count, pips, ends]`` and, on a layout with arms, the labels it changes (``{arm: index into the game's
    labels, None: gone}``)."""
    seat, tile, laid, count, pips, ends = step
    row = [seat, tile, int(laid), count, pips, list(ends) if ends else None]
    return row + [change] if change else row


def _key(row: list) -> str:
    return json.dumps(row, sort_keys=True, separators=(",", ":"))


def _quiet(tile, after: tuple, before: tuple) -> bool:
    """A pass that changes nothing: no tile, and the mover's count and pips and the open ends (``after``, each
    ``(count, pips, ends)``) as they were (``before``)."""
    (count, pips, ends), (count_before, pips_before, ends_before) = after, before
    return tile is None and count == count_before and pips == pips_before and (ends or None) == (ends_before or None)


def _written(step: list, quiet: bool) -> list:
    """A line's move as the page writes it: a quiet pass (:func:`_quiet`) as ``[seat]`` alone (the numbers before it
    stand)."""
    return step[:1] if quiet else step


def packed_lines(game: GameReport, data: dict, labels: Shared) -> dict:
    """Each alternative's best line as the page carries it (:func:`lines_data`, made from the game's lines at once),
    each line's moves once and what lines have in common once: a line whose last moves are those of another line
    (the same moves from the same table, laid at the same places) gives only its own first moves and ``tail``,
    ``[at, alt, first]``: the rest is that line's from its move ``first``. Its moves are ``steps`` (:func:`_step_row`;
    a pass that changes nothing but whose turn it is: ``[seat]``), their words ``said`` (the page names the mover),
    each view's ``box`` and ``put`` (the spot of each move's tile, :func:`line_data`; None for none). ``data``: the
    game's :func:`game_data`, a line of decision ``at`` starting from its board ``at - 1``. The tails:
    :class:`_PlayLines` on a line of play, :class:`_ArmLines` on a layout with arms."""
    table, boards = data["table"], data["boards"]
    decisions = [m for m in game.moves if m.decision is not None and any(a.line for a in m.decision.alternatives)]
    pack = _ArmLines(game, table, labels) if table["arms"] else _PlayLines(decisions, table)
    return {str(m.number): [None if a.line is None else pack(m.number, alt, a.line, boards[m.number - 1])
                            for alt, a in enumerate(m.decision.alternatives)] for m in decisions}


def _packed_line(own: list[tuple], views: list[dict], tail: list[int] | None) -> dict:
    """A line as :func:`packed_lines` writes it: its own moves (rows of :func:`_line_rows`), each view with their
    places, and the line whose moves it ends with."""
    one = {"steps": [r[3] for r in own], "said": [r[1] for r in own],
           "views": [dict(view, put=[r[2][v] for r in own]) for v, view in enumerate(views)]}
    if tail is not None:
        one["tail"] = tail
    return one


class _PlayLines:
    """The lines of a game with a line of play, packed (:func:`packed_lines`). ``model.LinePlayer`` gives each
    position the lines reach one step, the child of the step before it, so two lines that end on the same step end
    with the same moves (those of the shorter), to the same line of play, from the same tables: every line but the
    longest of those ending on a step is that one's tail, and nothing of it is written but its frames."""

    def __init__(self, decisions: list, table: dict):
        self.table = table
        self.longest: dict[int, tuple[int, int, int]] = {}     # a line's last step -> (length, at, alt) of the longest
        for m in decisions:
            for alt, a in enumerate(m.decision.alternatives):
                if a.line is not None and a.line.steps:
                    key, n = id(a.line.steps[-1]), len(a.line.steps)
                    if n > self.longest.get(key, (0,))[0]:
                        self.longest[key] = (n, m.number, alt)
        self.rows: dict[int, tuple] = {}           # a step's row and tile laid (:func:`_own_rows`), by the step
        self.places: dict = {}                     # a line of play's places, frame and spots (:func:`_line_views`)

    def __call__(self, at: int, alt: int, line: LineView, start: dict) -> dict:
        views = _line_views(line, self.table, self.places)
        n, tail = len(line.steps), None
        if n:
            longest, t_at, t_alt = self.longest[id(line.steps[-1])]
            if (t_at, t_alt) != (at, alt):
                n, tail = 0, [t_at, t_alt, longest - n]
        return _packed_line(_own_rows(line, n, start, views, self.table["spots"], self.rows),
                            [{"box": box} for _, box, _ in views], tail)


class _ArmLines:
    """The lines of a game with a layout with arms, packed (:func:`packed_lines`). Each line has its own plan of the
    arms, so a line shares the moves another ends with only where they are written alike: each suffix of a line's
    moves, as written, gets a number (the move and the number of the suffix after it, looked up once), and a line
    ends with the line that first wrote its longest suffix written before."""

    def __init__(self, game: GameReport, table: dict, labels: Shared):
        self.game, self.table, self.labels = game, table, labels
        self.game_labels = _game_labels([game.start] + [m.board for m in game.moves], table)
        self.seen: dict[int, list[int]] = {}           # a suffix's number -> [at, alt, first] of its first line
        self.suffixes: dict[tuple, int] = {}           # (a move, the number of the suffix after it) -> its number

    def __call__(self, at: int, alt: int, line: LineView, start: dict) -> dict:
        unpacked = line_data(line, self.game.start if at == 1 else self.game.moves[at - 2].board, self.table,
                             self.game_labels[at - 1])
        rows = _line_rows(unpacked, line.said, self.labels, start)
        ids = [0] * (len(rows) + 1)       # ids[j]: the number of the moves from j to the end (the empty one: 0)
        for j in range(len(rows) - 1, -1, -1):
            key = (rows[j][:3], ids[j + 1])
            ids[j] = self.suffixes.get(key) or self.suffixes.setdefault(key, len(self.suffixes) + 1)
        cut = next((j for j in range(len(rows)) if ids[j] in self.seen), len(rows))
        for j in range(cut):
            self.seen.setdefault(ids[j], [at, alt, j])
        one = _packed_line(rows[:cut], unpacked["views"], self.seen[ids[cut]] if cut < len(rows) else None)
        if unpacked.get("labels"):
            one["labels"] = self.labels.change(unpacked["labels"])
        return one


def _line_views(line: LineView, table: dict, kept: dict) -> list[tuple]:
    """Per view of the game's ``table``, where the tiles of ``line``'s line of play lie (by the tile's name), its
    frame, and the spots of those asked for (by the name): kept by the line of play, lead and view (``kept``: the
    game's, many lines end on the same table)."""
    out, row = [], tuple(line.line)
    for view in table["views"]:
        key = (row, line.lead, view["half"])
        found = kept.get(key)
        if found is None:
            placed = line_places(line.line, line.lead, view["half"])
            found = kept[key] = ({p.key: p for p in placed}, _box_data(line_box(placed, view["half"])), {})
        out.append(found)
    return out


def _own_rows(line: LineView, cut: int, start: dict, views: list[tuple], spots: Spots, made_rows: dict) -> list[tuple]:
    """The first ``cut`` moves of a line of play as :func:`_line_rows` gives them, straight from its steps (each
    step's row made once, ``made_rows``; ``views``: :func:`_line_views`)."""
    rows = []
    counts, pips, ends = list(start["counts"]), list(start["pips"]), start["ends"]
    for j in range(cut):
        s = line.steps[j]
        made = made_rows.get(id(s))
        if made is None:
            tile = None if s.tile is None else tile_key(*s.tile)
            made = made_rows[id(s)] = (_step_row((s.seat, tile, s.laid, s.count, s.pips, s.ends)),
                                       tile if s.laid else None)
        step, laid, puts = made[0], made[1], []
        for where, _, spot in views:
            if laid is None:
                puts.append(None)
                continue
            k = spot.get(laid)
            if k is None:
                k = spot[laid] = spots.index(where[laid])
            puts.append(k)
        quiet = _quiet(s.tile, (s.count, s.pips, s.ends), (counts[s.seat], pips[s.seat], ends))
        rows.append((None, line.said[j], tuple(puts), _written(step, quiet)))
        counts[s.seat], pips[s.seat], ends = s.count, s.pips, s.ends
    return rows


def packed_game(data: dict, game: GameReport) -> dict:
    """:func:`game_data` as the page carries it, plain JSON: the game's lines packed (:func:`packed_lines`), each
    board with the labels that change named by their index into ``labels`` (an arm's label once each,
    :func:`page_label`, the boards and lines naming them by index)."""
    labels = Shared()
    boards = []
    for b in data["boards"]:
        if "labels" in b:
            b = dict(b, labels=labels.change(b["labels"]))
        boards.append(b)
    lines = packed_lines(game, data, labels)          # (it adds spots: the spots are listed after it)
    table = dict(data["table"], spots=list(data["table"]["spots"]))
    return dict(data, boards=boards, table=table, lines=lines, labels=[page_label(v) for v in labels])


def page_label(label: list) -> list:
    """An arm's label of :func:`_label_data` as the page carries it: ``[x, y, anchor, words, where, state]``."""
    x, y, anchor, words, where, state, _ = label
    return [x, y, anchor, words, where, state]


DEFLATE_LEVEL = 6      # zlib's level for a game's data (its default): seed1's two games, 215 KB of JSON, to 37.7 KB of
                       # base64 in 3.3 ms of CPU (level 4: 42.4 KB, 1.6 ms; level 9: 36.9 KB, 7.1 ms), a page's render
                       # 15 to 150 ms; bench/bench_report_pages.py gives the pages' sizes and times


def deflated(data: dict) -> str:
    """A game's data as the page carries it: :func:`packed_game`'s JSON (compact, as UTF-8), deflated (zlib) and in
    base64, nothing in it to escape. The script inflates it with the browser's DecompressionStream before it sets
    the game up (a game's data, the packed drawings with it, is a fifth of its JSON)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return base64.b64encode(zlib.compress(text.encode("utf-8"), DEFLATE_LEVEL)).decode("ascii")
