"""The game log of the Kozel video parser (``kozel-game-v1``, Veselchak-U/domino_video_parser,
``contracts/format.md``): one JSON document a finished game, its rounds each a deal of the four hands and
the moves, each move a player, an action (``start``, ``left``, ``right``, ``pass``) and a tile. The contract
writes the tile as it lies, left to right; the parser's own example and its earlier logs write it low-high
whichever way it lies: a tile is read in either order and placed by the side its move names. Each round
becomes a game of the record (``kozel``); a round with no result gets ``[Result "*"]``."""
from __future__ import annotations

from typing import NamedTuple

from ...i18n import N_, gettext, ngettext
from ...record import Game, HandEntry, MoveEntry, Record
from ...rules.codes import Code
from ...tiles import Tile
from .common import Imported, Problems, Stream, Streamed, collected, read_tile, word_names
from .jsonplaces import JsonStream, path_text

__all__ = ["import_kozel", "stream_kozel"]

FORMAT = "kozel-game-v1"
_ACTIONS = ("start", "left", "right", "pass")


class _Doc:
    """The JSON document and its problems: values looked up by path, each problem at its place."""

    def __init__(self, text: str, source: str):
        self.json = JsonStream(text, "rounds")
        self.problems = Problems(source)

    def bad(self, path: tuple, message: str, code: Code = Code.SYNTAX) -> None:
        line, column = self.json.place(path)
        self.problems.add(code, message, line, column, path_text(path))

    def get(self, value, path: tuple, key, kind: type | tuple, what: str, required: bool = True):
        """``value[key]`` when it is of ``kind``; else the problem said and None."""
        if not isinstance(value, dict):
            return None
        if key not in value:
            if required:
                self.bad(path, gettext("has no {key}: {what}", key=repr(key), what=gettext(what)))
            return None
        got = value[key]
        if not isinstance(got, kind) or isinstance(got, bool) and bool not in (kind if isinstance(kind, tuple)
                                                                                else (kind,)):
            self.bad(path + (key,), gettext("should be {what}", what=gettext(what)))
            return None
        return got

    def place(self, path: tuple) -> str:
        line, _column = self.json.place(path)
        return path_text(path) + (", " + gettext("line {line}", line=line) if line else "")


def import_kozel(text: str, source: str = "<kozel>", variant: str | None = None,
                 rules: dict[str, str] | None = None) -> Imported:
    """The record of a ``kozel-game-v1`` document: a game for each round (variant ``kozel``, its ``eggs`` and
    ``limit`` from ``fishVariant`` and ``scoreLimit``; ``variant`` and ``rules`` override them), every hand
    known, the lead, the result and the running records as the document states them (a round without a result:
    ``Result "*"``). Raises
    :class:`~.common.ImportSourceError` with every problem at its place (a JSON path and its line)."""
    return collected(stream_kozel(text, source, variant, rules), source)


def stream_kozel(text: str, source: str = "<kozel>", variant: str | None = None,
                 rules: dict[str, str] | None = None) -> Stream:
    """:func:`import_kozel` as a stream: each round's game as it is read (:class:`~.common.Streamed`; the rounds
    read from the text one at a time, the memory that of one round), none after the first problem; the notes at
    the end, or :class:`~.common.ImportSourceError` with every problem. The JSON is read through once before the
    first round is given (malformed text is its error before any game)."""
    doc = _Doc(text, source)
    if doc.json.error:
        message, line, column = doc.json.error
        doc.problems.add(Code.SYNTAX, gettext("not JSON: {reason}", reason=message), line, column)
        doc.problems.check()
    for path, line, column in doc.json.twice:
        doc.problems.add(Code.SYNTAX, gettext("this key is given twice in its object (the format forbids it)"), line,
                         column,
                         path_text(path))
    data = doc.json.data
    if not isinstance(data, dict):
        doc.bad((), gettext("should be an object, the {format} game", format=FORMAT))
        doc.problems.check()
    header = _header(doc, data, variant, rules)
    seats = _teams(doc, data)
    doc.get(data, (), "rounds", list, N_("the rounds, a list"))
    doc.problems.check()
    order = tuple(seats[s][0] for s in sorted(seats))
    names = word_names(list(order))
    table = _Table(order, names, _sides(seats, names), header)
    held, eggs, turned, laid, unscored = None, 0, 0, 0, []
    for i, round_, line, twice in doc.json.items():
        for path, at_line, column in twice:
            doc.problems.add(Code.SYNTAX, gettext("this key is given twice in its object (the format forbids it)"),
                             at_line,
                             column, path_text(path))
        game, where, eggs, turns = _round(doc, round_, ("rounds", i), i, table, eggs)
        turned += turns
        laid += sum(m.tile is not None for m in game.moves)
        if game.tags.get("Result") == "*":
            unscored.append(game.tags["Game"])
        if held is not None and not doc.problems:
            yield held
        held = Streamed(game, where, line)      # (one round held back: the last one carries the game's result)
    if held is None:
        doc.bad(("rounds",), gettext("holds no round"))
    doc.problems.check()
    _final(doc, data, [held.game])
    yield held
    notes = [gettext("the line's left and right: a tile's open number is kept where it fits both ends (@N)")]
    if turned:
        notes.append(ngettext("{turned} of the {n} tile laid is written the other way round than it lies (the app "
                              "writes each tile low-high): it is placed by the side its move names",
                              "{turned} of the {n} tiles laid are written the other way round than they lie (the app "
                              "writes each tile low-high): each is placed by the side its move names", laid,
                              turned=turned))
    if unscored:
        notes.append(ngettext("round {rounds} carries no result: Result \"*\" (the replay reckons it from the moves "
                              "where they end the round)", "rounds {rounds} carry no result: Result \"*\" (the replay "
                              "reckons it from the moves where they end the round)", len(unscored),
                              rounds=', '.join(unscored)))
    if any(names[n] != n for n in order):
        words = ", ".join(gettext("{name} is {word}", name=repr(n), word=names[n]) for n in order if names[n] != n)
        notes.append(gettext("names made words of the notation: {names}", names=words))
    return tuple(notes)


def _header(doc: _Doc, data: dict, variant: str | None, rules: dict[str, str] | None) -> dict[str, str]:
    """The tags every round's game carries: the variant and its rules, from the document's header."""
    fmt = doc.get(data, (), "format", str, N_('the format, "kozel-game-v1"'))
    if fmt is not None and fmt != FORMAT:
        doc.bad(("format",), gettext("is {value}; this importer reads {format}", value=repr(fmt),
                                     format=repr(FORMAT)))
    fish = doc.get(data, (), "fishVariant", str, N_('"withEggs" or "withoutEggs"'))
    if fish is not None and fish not in ("withEggs", "withoutEggs"):
        doc.bad(("fishVariant",), gettext('is {value}, not "withEggs" or "withoutEggs"', value=repr(fish)))
    limit = doc.get(data, (), "scoreLimit", int, N_("the limit, 101 or 50"))
    if limit is not None and limit not in (101, 50):
        doc.bad(("scoreLimit",), gettext("is {value}, not 101 or 50", value=limit))
    chosen = {"eggs": "no" if fish == "withoutEggs" else "yes", "limit": str(limit or 101)}
    chosen.update(rules or {})
    return {"Variant": variant or "kozel", "Rules": ", ".join(f"{k}={v}" for k, v in chosen.items())}


def _teams(doc: _Doc, data: dict) -> dict[int, tuple[str, str]]:
    """The players by seat (1 to 4): each its name and its team's name; every problem of the teams said."""
    seats: dict[int, tuple[str, str]] = {}
    teams = doc.get(data, (), "teams", list, N_("the two teams, a list"))
    if teams is None:
        return seats
    if len(teams) != 2:
        doc.bad(("teams",), gettext("holds {n} teams, not 2", n=len(teams)))
    seen: set[str] = set()
    for t, team in enumerate(teams):
        at = ("teams", t)
        name = doc.get(team, at, "name", str, N_("the team's name"))
        players = doc.get(team, at, "players", list, N_("the team's two players, a list")) or []
        if len(players) != 2:
            doc.bad(at + ("players",), gettext("holds {n} players, not 2", n=len(players)))
        for p, player in enumerate(players):
            there = at + ("players", p)
            who = doc.get(player, there, "name", str, N_("the player's name"))
            seat = doc.get(player, there, "seat", int, N_("the seat, 1 to 4"))
            if who is not None and (not who.strip() or who in seen):
                doc.bad(there + ("name",), gettext("is empty") if not who.strip() else
                        gettext("{name} is a name given twice", name=repr(who)))
            if seat is not None and not 1 <= seat <= 4:
                doc.bad(there + ("seat",), gettext("is {value}, not a seat 1 to 4", value=seat))
            elif seat is not None and seat in seats:
                doc.bad(there + ("seat",), gettext("seat {seat} is taken twice", seat=seat))
            elif seat is not None and who is not None:
                seats[seat] = (who, name or f"team {t + 1}")
            seen.add(who or "")
    if len(seats) == 4 and (seats[1][1] != seats[3][1] or seats[2][1] != seats[4][1]):
        doc.bad(("teams",), gettext("partners sit opposite: one team at seats 1 and 3, the other at 2 and 4"))
    elif not doc.problems and len(seats) != 4:
        doc.bad(("teams",), gettext("the four seats 1 to 4 are not all taken"))
    return seats


def _sides(seats: dict[int, tuple[str, str]], names: dict[str, str]) -> dict[str, tuple[str, str]]:
    """Each team's name: its players' names in the notation, in seat order (the side ``Анна/Иван``)."""
    return {seats[a][1]: (names[seats[a][0]], names[seats[b][0]]) for a, b in ((1, 3), (2, 4))}


class _Table(NamedTuple):
    """The game's table, the same for every round: the players' names in seat ``order``, each one's name in the
    notation (``names``), each team's side (``sides``: its two players' notation names) and the ``header`` tags."""

    order: tuple
    names: dict
    sides: dict
    header: dict


class _Written(NamedTuple):
    """A move as the format writes it, each part None where it cannot be read (its problem said): the ``player``'s
    notation name, the ``action`` (start, left, right or pass) and the ``stone``."""

    player: str | None
    action: str | None
    stone: str | None


def _round(doc: _Doc, round_, at: tuple, i: int, table: _Table, eggs: int | None
           ) -> tuple[Game, tuple[str, ...], int | None, int]:
    """One round as a game at the ``table``; the eggs carried after it (None: not known, after a round the log
    gives no result) and how many of its tiles are written the other way round than they lie."""
    order, names, sides, header = table
    if not isinstance(round_, dict):
        doc.bad(at, gettext("should be an object, a round: its number, deal, moves and result"))
    number = doc.get(round_, at, "number", int, N_("the round's number"))
    if number is not None and number != i + 1:
        doc.bad(at + ("number",), gettext("is {value}: round {n} of the list is numbered {n}", value=number, n=i + 1))
    hands = _deal(doc, doc.get(round_, at, "deal", dict, N_("the four hands dealt")) or {}, at + ("deal",), order, names)
    moves, places, turned = _moves(doc, doc.get(round_, at, "moves", list, N_("the moves, a list")) or [], at + ("moves",),
                           names, len(order))
    tags = {"Event": " v ".join(sides), "Game": str(i + 1), **header,
            "Players": ", ".join(names[p] for p in order)}
    if moves:
        tags["Lead"] = moves[0].player
    result = doc.get(round_, at, "result", dict, N_("the round's result"), required=False)
    if isinstance(round_, dict) and result is None and "result" not in round_:
        tags["Result"] = "*"            # (a log of rounds not scored: the replay reckons what the moves show)
        eggs = None
    elif result is not None:
        eggs = _result(doc, result, at + ("result",), sides, tags, eggs)
    return Game(tags=tags, players=tuple(names[p] for p in order), hands=hands, moves=moves), places, eggs, turned


def _deal(doc: _Doc, deal: dict, at: tuple, order: tuple, names: dict) -> tuple[HandEntry, ...]:
    """The hands dealt, in seat order (a player the deal leaves out: ``?``)."""
    for name in deal:
        if name not in names:
            doc.bad(at + (name,), gettext("{name} is no player of the teams", name=repr(name)), Code.UNKNOWN_PLAYER)
    hands = []
    for player in order:
        stones = doc.get(deal, at, player, list, N_("the player's seven tiles, a list"), required=False)
        if stones is None:
            hands.append(HandEntry(names[player], None))
            continue
        tiles = []
        for k, stone in enumerate(stones):
            got = read_tile(stone) if isinstance(stone, str) else gettext("should be a tile, a string such as \"1-6\"")
            if isinstance(got, str):
                doc.bad(at + (player, k), got, Code.BAD_TILE)
            else:
                tiles.append(Tile.of(*got))
        hands.append(HandEntry(names[player], tuple(tiles)))
    return tuple(hands)


def _moves(doc: _Doc, moves: list, at: tuple, names: dict, seats: int) -> tuple[list[MoveEntry], tuple[str, ...], int]:
    """The moves, each with the open number it went on where the tile fits both ends, and how many tiles are
    written the other way round than they lie. A tile is placed by the side its action names, whichever way
    it is written (the app writes every tile low-high; the format's contract, left to right)."""
    out: list[MoveEntry] = []
    places: list[str] = []
    line = _Line()
    for k, move in enumerate(moves):
        there = at + (k,)
        player = doc.get(move, there, "player", str, N_("the player's name"))
        action = doc.get(move, there, "action", str, N_("start, left, right or pass"))
        stone = doc.get(move, there, "stone", str, N_("the tile, such as \"1-6\""), required=False)
        if player is not None and player not in names:
            doc.bad(there + ("player",), gettext("{name} is no player of the teams", name=repr(player)),
                    Code.UNKNOWN_PLAYER)
            player = None
        if action is not None and action not in _ACTIONS:
            doc.bad(there + ("action",), gettext("is {value}, not start, left, right or pass", value=repr(action)),
                    Code.BAD_MOVE)
            action = None
        entry = _move(doc, there, k, _Written(names.get(player or ""), action, stone), line, seats)
        if entry is not None:
            out.append(entry)
            places.append(doc.place(there))
    return out, tuple(places), line.turned


class _Line:
    """The open ends of the line as the moves tell them: each way the line may lie (left end, right end; None:
    not known after a tile that could not be read). A tile that is no double, led first, may lie either way
    round until the first tile laid against it says which; ``turned`` counts the tiles written the other way
    round than they lie (the start's once its way is known)."""

    def __init__(self):
        self.ways: list[tuple] = [(None, None)]          # (no start read yet: nothing checked)
        self.start: tuple[int, int] | None = None       # the start as written, until its way is known
        self.turned = 0

    def begin(self, a: int, b: int) -> None:
        self.ways = [(a, b)] if a == b else [(a, b), (b, a)]
        self.start = (a, b)

    def lay(self, side: int, a: int, b: int) -> tuple[int | None, list[int]]:
        """Lay the tile ``a-b`` at ``side`` (0 left, 1 right): the number it touches (None: the end is not
        known), and where it fits no way the line may lie, the numbers that end shows (else [])."""
        fits = [way for way in self.ways if way[side] is None or way[side] in (a, b)]
        if not fits:
            return None, [way[side] for way in self.ways]
        way = fits[0]                   # (two ways fit only a tile holding both ends: the start itself)
        if self.start is not None and way != self.start:
            self.turned += 1            # the start lies the other way round than written
        self.start = None
        end = way[side]
        if end is None:
            self.ways = [(None, way[1]) if side == 0 else (way[0], None)]
            return None, []
        if a != b and (a if side == 0 else b) == end:
            self.turned += 1            # written outer half first on the left, or inner half last on the right
        outer = b if a == end else a
        self.ways = [(outer, way[1]) if side == 0 else (way[0], outer)]
        return end, []

    def other_end(self, side: int) -> int | None:
        return self.ways[0][1 - side] if len(self.ways) == 1 else None


def _move(doc: _Doc, at: tuple, k: int, written: _Written, line: _Line, seats: int) -> MoveEntry | None:
    """The ``k``-th move of a round as ``written`` (None where it cannot be read: its problem is said); ``line``
    follows the line's ends."""
    player, action, stone = written
    if player is None or action is None:
        return None
    if (action == "start") != (k == 0):
        doc.bad(at + ("action",), gettext("the first move of a round is its start, and only the first") if k == 0
                else gettext("a round has one start, its first move"), Code.BAD_MOVE)
        return None
    if action == "pass":
        if stone is not None:
            doc.bad(at + ("stone",), gettext("a pass has no tile"), Code.BAD_MOVE)
        return MoveEntry(player, None, round=k // seats + 1)
    if stone is None:
        doc.bad(at, gettext("has no 'stone': a {action} lays a tile", action=action), Code.BAD_MOVE)
        return None
    got = read_tile(stone)
    if isinstance(got, str):
        doc.bad(at + ("stone",), got, Code.BAD_TILE)
        line.ways = [(None, None)]      # (the ends are not known after it: not checked until the tiles tell them)
        return None
    a, b = got
    tile = Tile.of(a, b)
    if action == "start":
        line.begin(a, b)
        return MoveEntry(player, tile, round=1)
    side = 0 if action == "left" else 1
    touching, shown = line.lay(side, a, b)
    if shown:
        numbers = gettext(" or ").join(map(str, sorted(set(shown))))
        doc.bad(at + ("stone",), gettext("{tile} laid {action} has no {numbers} to go against the {action} end, which "
                                         "shows {numbers}", tile=repr(stone), action=action, numbers=numbers),
                Code.TILE_NO_MATCH)
        line.ways = [(None, w[1]) if side == 0 else (w[0], None) for w in line.ways[:1]]
        return None
    other = line.other_end(side)
    end = touching if touching is not None and tile.matches(other) and other != touching else None
    return MoveEntry(player, tile, end, round=k // seats + 1)


def _result(doc: _Doc, result: dict, at: tuple, sides: dict, tags: dict, eggs: int | None) -> int:
    """The Result and Score tags of a round from its result (``eggs``: those carried into it; None: not known,
    the points then left out); the eggs carried after it."""
    reason = doc.get(result, at, "reason", str, N_("emptyHand, fish or eggs"))
    winner = doc.get(result, at, "winner_team", (str, type(None)), N_("the winning team's name, or null"))
    scored = doc.get(result, at, "round_score", dict, N_("each team's charge in the round"))
    total = doc.get(result, at, "total_score", dict, N_("each team's record after the round"))
    after = doc.get(result, at, "eggs", int, N_("the eggs carried"), required=False) or 0
    if reason is not None and reason not in ("emptyHand", "fish", "eggs"):
        doc.bad(at + ("reason",), gettext("is {value}, not emptyHand, fish or eggs", value=repr(reason)))
        return after
    for key, value in (("winner_team", winner), *((f"{key}.{team}", team) for key, d in
                                                  (("round_score", scored), ("total_score", total)) for team in d or {})):
        if value is not None and value not in sides:
            doc.bad(at + tuple(key.split(".", 1)), gettext("{value} is no team of the game", value=repr(value)),
                    Code.UNKNOWN_PLAYER)
            return after
    if reason == "emptyHand" and winner is None:
        doc.bad(at + ("winner_team",), gettext("a round won by going out has a winner"))
        return after
    ending = "domino" if reason == "emptyHand" else "blocked"
    if winner is None:
        tags["Result"] = f"draw {ending}"
    else:
        loser = next(team for team in sides if team != winner)
        charge = (scored or {}).get(loser)
        points = charge - eggs if isinstance(charge, int) and eggs is not None and charge >= eggs else None
        tags["Result"] = "/".join(sides[winner]) + (f" {points}" if points is not None else "") + f" {ending}"
    if total and all(isinstance(total.get(team), int) for team in sides):
        tags["Score"] = ", ".join(f"{'/'.join(sides[team])} {total[team]}" for team in sides)
    return after


def _final(doc: _Doc, data: dict, games: list[Game]) -> None:
    """The game's own result (the winner, or a draw) as a comment of the last round's game."""
    result = doc.get(data, (), "result", dict, N_("the game's result"), required=False)
    if not result or not games:
        return
    if result.get("draw") is True:
        games[-1].comments.append(f"{FORMAT}: the game is drawn")
    elif isinstance(result.get("winner"), str):
        games[-1].comments.append(f"{FORMAT}: the game is won by {result['winner']}")
