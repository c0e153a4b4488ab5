"""Domino Whist tournaments (001 §12, §13): a file of rounds and tables, checked against the movement
schemes of the text, with each player's tally and the standings.

A tournament file is plain text::

    [Event "Club evening"]
    [Scheme "8"]                       4, 5, 8 or 12: the tables of §12; movement: §13
    [Names "1 Anna, 2 Bert, 3 Carl"]    optional
    [Pairs "mixed"]                     optional, 8 or 12: §12's mixed pairs (the first 4 or 6 rounds)
    [Ladies "2, 4, 6, 8"]               optional with mixed pairs: the ladies (even numbers)
    [Partners "redraw"]                 optional, movement: §13's partners drawn before each match
    round 1
    table 1: 1-6 vs 2-5 45 80          the pairs (player numbers) and each pair's bad points
    table 2: 3-8 vs 4-7 101 60 drew 3 [6-6], 8 [5-6], 4 [0-1], 7 [2-3]     the tiles drawn (redraw)

Each table's match is won by the pair with fewer bad points (§9); a player's tally for a round is
the difference, won or lost (§9: "Jeder Spieler der verlierenden Partei zahlt an einen der Gewinner
den der Punktedifferenz entsprechenden Betrag"), and the standings rank the players by their total."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..rules.codes import Code
from ..rules.matchplay import PROGRESSION_FIVE, draw_rank
from ..tiles import Tile
from ..i18n import gettext, ngettext

__all__ = ["SCHEMES", "Table", "Tournament", "parse_tournament", "check_tournament", "tallies", "round_scores", "standings",
           "ranking", "redrawn_pairs", "number"]

Pair = tuple[int, int]


def _rounds(text: str) -> tuple[tuple[tuple[Pair, Pair], ...], ...]:
    """``"1-6/2-5 3-8/4-7; ..."``: rounds separated by ``;``, tables by spaces, the pairs by ``/``."""
    out = []
    for rnd in text.split(";"):
        tables = []
        for table in rnd.split():
            a, b = table.split("/")
            tables.append(tuple(tuple(sorted(int(x) for x in p.split("-"))) for p in (a, b)))
        out.append(tuple(tables))
    return tuple(out)


# The schemes printed in §12, round by round, table by table (player numbers as on the tallies).
SCHEMES = {
    4: _rounds("1-2/3-4; 1-3/2-4; 1-4/2-3"),
    5: tuple((pairs,) for pairs in PROGRESSION_FIVE),
    8: _rounds("1-6/2-5 3-8/4-7; 2-3/5-8 1-4/6-7; 1-8/3-6 2-7/4-5; 1-2/3-4 5-6/7-8; "
               "1-7/2-8 3-5/4-6; 2-6/3-7 1-5/4-8; 2-4/6-8 1-3/5-7"),
    12: _rounds("1-2/3-4 5-6/7-8 9-10/11-12; 3-6/7-10 1-4/9-12 2-11/5-8; 4-11/7-12 2-9/3-8 1-6/5-10; "
                "3-10/5-12 1-8/2-7 4-9/6-11; 1-10/8-11 3-12/6-9 2-5/4-7; 1-12/6-7 4-5/10-11 2-3/8-9; "
                "2-6/3-11 7-9/8-10 1-5/4-12; 2-12/5-9 3-7/4-8 1-11/6-10; 1-7/4-10 3-9/5-11 2-8/6-12; "
                "6-8/9-11 2-4/10-12 1-3/5-7; 1-9/7-11 2-10/3-5 4-6/8-12"),
}
MOVEMENT_ROUNDS = 4         # §13: "Es werden vier Runden gespielt."
MIXED_ROUNDS = {8: 4, 12: 6}  # §12: "Bei acht Teilnehmern werden nur die ersten vier, bei zwölf die ersten sechs
                              #  Runden des obigen Spielplans gespielt."


@dataclass(frozen=True)
class Table:
    """One table of one round: the two pairs and each pair's bad points (None: not given)."""

    round: int
    number: int
    pairs: tuple[Pair, Pair]
    points: tuple[int, int] | None
    line: int
    drew: tuple[tuple[int, Tile], ...] = ()    # §13 re-draw: the tile each player at the table drew

    @property
    def winner(self) -> int | None:
        """0 or 1: the pair with fewer bad points (None: equal or not given)."""
        if self.points is None or self.points[0] == self.points[1]:
            return None
        return 0 if self.points[0] < self.points[1] else 1

    def players(self) -> set[int]:
        return set(self.pairs[0]) | set(self.pairs[1])


@dataclass
class Tournament:
    tags: dict[str, str] = field(default_factory=dict)
    tables: list[Table] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    source: str = "<tournament>"
    tag_lines: dict[str, int] = field(default_factory=dict)     # the line each tag is given on
    round_lines: dict[int, int] = field(default_factory=dict)   # the line of each "round N"

    def rounds(self) -> dict[int, list[Table]]:
        out: dict[int, list[Table]] = {}
        for t in self.tables:
            out.setdefault(t.round, []).append(t)
        return {r: sorted(ts, key=lambda t: t.number) for r, ts in sorted(out.items())}

    def name(self, player: int) -> str:
        for part in self.tags.get("Names", "").split(","):
            number, _, name = part.strip().partition(" ")
            if number == str(player) and name.strip():
                return name.strip()
        return str(player)


# Numbers are ASCII digits only (re.ASCII), as int() reads them, and at most MAX_DIGITS long: no
# tournament has a billion players or bad points, and int() refuses a number of thousands of digits.
MAX_DIGITS = 9
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$', re.ASCII)
_ROUND = re.compile(r"^round\s+(\d+)\s*$", re.I | re.ASCII)
_TABLE = re.compile(r"^table\s+(\d+)\s*:\s*(\d+)\s*-\s*(\d+)\s+vs\.?\s+(\d+)\s*-\s*(\d+)(?:\s+(\d+)\s+(\d+))?"
                    r"(?:\s+drew\s+(.*?))?\s*$", re.I | re.ASCII)
_DREW = re.compile(r"^(\d+)\s+(\[\d-\d\])$", re.ASCII)


def number(text: str) -> int | None:
    """The number ``text`` writes (ASCII digits, at most MAX_DIGITS of them), or None: never raises
    (``str.isdigit`` takes '²', which ``int`` refuses)."""
    text = text.strip()
    if not text.isascii() or not text.isdecimal() or len(text) > MAX_DIGITS:
        return None
    return int(text)


def _too_long(m: re.Match, offset: int) -> tuple[int, str] | None:
    """(column, digits) of the first number of a matched line longer than MAX_DIGITS, or None."""
    for k in range(1, (m.re.groups or 0) + 1):
        group = m.group(k)
        if group is not None and group.isdecimal() and len(group) > MAX_DIGITS:
            return offset + m.start(k) + 1, group
    return None


def _drew(text: str) -> tuple[tuple[int, Tile], ...] | None:
    """``"1 [6-6], 5 [4-4], ..."`` -> ((1, [6-6]), (5, [4-4]), ...); None when it cannot be read."""
    out = []
    for part in text.split(","):
        m = _DREW.match(part.strip())
        if not m or number(m.group(1)) is None:
            return None
        try:
            out.append((number(m.group(1)), Tile.parse(m.group(2))))
        except ValueError:
            return None
    return tuple(out)


_UNREAD = -1     # the round of the tables under a "round" line that cannot be read: they are left out


def parse_tournament(text: str, source: str = "<tournament>") -> Tournament:
    """Read a tournament file; each line that cannot be read is an error naming it."""
    t = Tournament(source=source)
    current = None
    filled: set[int] = set()        # the rounds with a line of their own under them

    def error(code: str, message: str, line: int, column: int = 1) -> None:
        t.errors.append(Diagnostic("error", code, message, line, column, source))

    for n, raw in enumerate(text.split("\n"), 1):       # lines as an editor counts them ("\r\n" too)
        line = raw.strip()
        offset = len(raw) - len(raw.lstrip())
        if not line or line.startswith(("#", ";")):
            continue
        if m := _TAG.match(line):
            if m.group(1) in t.tags:        # as a record's tags (duplicate-tag)
                t.errors.append(Diagnostic("warning", Code.DUPLICATE_TAG, gettext("the {tag} tag is given twice (line {line} and here); the last "
                                                   "one counts", tag=m.group(1), line=t.tag_lines[m.group(1)]),
                                           n, 1, source))
            t.tags[m.group(1)] = m.group(2)
            t.tag_lines[m.group(1)] = n
            continue
        m = _ROUND.match(line) or _TABLE.match(line)
        if m and (long := _too_long(m, offset)):
            error(Code.TOURNAMENT_NUMBER, gettext("the number {digits}... has {n} digits; a tournament file's numbers have at "
                                                  "most {most}", digits=long[1][:12], n=len(long[1]), most=MAX_DIGITS),
                  n, long[0])
            if m.re is _ROUND:
                current = _UNREAD
        elif m and m.re is _ROUND:
            current = int(m.group(1))
            if current in t.round_lines:
                error(Code.TOURNAMENT_ROUNDS, gettext("round {round} is given twice (line {line} and here); the tables under "
                                                  "both are checked as one round", round=current,
                                                  line=t.round_lines[current]), n)
            t.round_lines.setdefault(current, n)
        elif m and current is None:
            error(Code.TOURNAMENT_SYNTAX, gettext("a table before the first round: write \"round 1\" above {line}",
                                                  line=repr(line)), n)
        elif m:
            a, b, c, d = (int(m.group(k)) for k in range(2, 6))
            points = (int(m.group(6)), int(m.group(7))) if m.group(6) else None
            drew = _drew(m.group(8)) if m.group(8) else ()
            if drew is None:
                error(Code.TOURNAMENT_SYNTAX, gettext("cannot read the tiles drawn in {line}; write \"drew 1 [6-6], 5 [4-4], "
                                                  "3 [0-1], 8 [2-3]\"", line=repr(line)), n)
                drew = ()
            if current != _UNREAD:
                t.tables.append(Table(current, int(m.group(1)), (tuple(sorted((a, b))), tuple(sorted((c, d)))),
                                      points, n, drew))
        else:
            error(Code.TOURNAMENT_SYNTAX, gettext("cannot read {line}; write \"round N\" and then \"table T: 1-6 vs 2-5 45 80\" "
                                              "(the pairs and their bad points)", line=repr(line)), n)
            if line[:5].lower() == "round":
                current = _UNREAD       # its tables are not put into the round before
            elif current is not None:
                filled.add(current)     # a line of the round that cannot be read: it is said so, above
        if m and m.re is _TABLE and current is not None:
            filled.add(current)
    for r, line in t.round_lines.items():
        if r not in filled:
            error(Code.TOURNAMENT_ROUNDS, gettext("round {round} has no tables (\"table 1: 1-6 vs 2-5 45 80\" under it)",
                                                  round=r), line)
    t.errors.sort(key=lambda d: d.line)
    return t


def check_tournament(t: Tournament) -> list[Diagnostic]:
    """The tournament against its scheme (§12) or the movement (§13); its errors, line by line."""
    out = list(t.errors)
    scheme = t.tags.get("Scheme", "").strip().lower()
    size = number(scheme)

    def err(code: str, message: str, line: int | None) -> None:
        out.append(Diagnostic("error", code, message, line, 1 if line else None, t.source))

    rounds = t.rounds()
    numbered = _numbered_tables(rounds, err)
    if not rounds and not t.round_lines:
        err(Code.TOURNAMENT_ROUNDS, gettext("the file has no rounds: write \"round 1\" and under it its tables "
                                         "(\"table 1: 1-6 vs 2-5 45 80\")"), None)
    pairs = t.tags.get("Pairs", "").strip().lower()
    mixed = pairs == "mixed"
    if pairs and not mixed:
        err(Code.TOURNAMENT_SYNTAX, gettext("the Pairs tag must be mixed (§12), not {value}", value=repr(t.tags['Pairs'])),
            t.tag_lines.get("Pairs"))
    if "Ladies" in t.tags and not mixed:
        out.append(Diagnostic("warning", Code.TOURNAMENT_MIXED, gettext("the Ladies tag counts only with [Pairs \"mixed\"] "
                                                                      "(§12); it is not checked"),
                              t.tag_lines["Ladies"], 1, t.source))
    if size in SCHEMES:
        _check_scheme_rounds(t, size, mixed, rounds, numbered, err)
    elif scheme == "movement":
        _check_movement_rounds(t, rounds, numbered, out, err)
    elif "Scheme" in t.tags:
        err(Code.TOURNAMENT_SCHEME, gettext("the Scheme tag must be 4, 5, 8, 12 (the schemes of §12) or movement (§13), "
                                          "not {value}", value=repr(t.tags['Scheme'])), t.tag_lines.get("Scheme"))
    else:
        err(Code.TOURNAMENT_SCHEME, gettext("the file has no Scheme tag: [Scheme \"8\"] (4, 5, 8, 12: the schemes of §12) "
                                          "or [Scheme \"movement\"] (§13)"), None)
    def warn(code: str, message: str, line: int | None) -> None:
        out.append(Diagnostic("warning", code, message, line, 1 if line else None, t.source))

    if "Partners" in t.tags and scheme != "movement":
        warn(Code.TOURNAMENT_DRAW, gettext("the Partners tag counts only with [Scheme \"movement\"] (§13: the partners "
                                        "drawn before each match); it is not checked"), t.tag_lines["Partners"])
    drawn = [table for table in t.tables if table.drew]
    if drawn and "Partners" not in t.tags:
        warn(Code.TOURNAMENT_DRAW, ngettext("the tiles drawn (\"drew ...\", {n} table from here) count only with [Scheme "
                                         "\"movement\"] and [Partners \"redraw\"] (§13); they are not checked",
                                         "the tiles drawn (\"drew ...\", {n} tables from here) count only with [Scheme "
                                         "\"movement\"] and [Partners \"redraw\"] (§13); they are not checked",
                                         len(drawn)),
             min(table.line for table in drawn))
    if mixed and size not in MIXED_ROUNDS:
        err(Code.TOURNAMENT_MIXED, gettext("§12: mixed pairs are played with the schemes for 8 or 12 players only"),
            t.tag_lines.get("Pairs"))
    return sorted(out, key=lambda d: (d.line is not None, d.line or 0))     # the file's own first, then by line


def _numbered_tables(rounds: dict[int, list[Table]], err) -> dict[int, dict[int, Table]]:
    """Round by round, each table number's first table; a player seated twice in a round and a table
    given twice are errors (the later of two lines is wrong)."""
    numbered: dict[int, dict[int, Table]] = {}
    for r, tables in rounds.items():
        seen: set[int] = set()
        numbered[r] = {}
        for table in sorted(tables, key=lambda table: table.line):     # the later of two lines is wrong
            if len(table.players()) != 4 or seen & table.players():
                err(Code.TOURNAMENT_SEAT, gettext("round {round}: a player sits twice (table {table})", round=r,
                                                 table=table.number), table.line)
            seen |= table.players()
            if table.number in numbered[r]:
                err(Code.TOURNAMENT_TABLE, gettext("round {round}: table {table} is given twice (line {line} and here)",
                                                  round=r, table=table.number, line=numbered[r][table.number].line),
                    table.line)
            numbered[r].setdefault(table.number, table)
    return numbered


def _check_scheme_rounds(t: Tournament, size: int, mixed: bool, rounds: dict[int, list[Table]],
                         numbered: dict[int, dict[int, Table]], err) -> None:
    """§12: every round of the scheme for ``size`` players there, each table as the scheme seats it."""
    plan = SCHEMES[size]
    if mixed:
        plan = _check_mixed(t, size, err)
    for r in range(1, len(plan) + 1):
        if r not in rounds and r not in t.round_lines and (rounds or t.round_lines):
            err(Code.TOURNAMENT_ROUNDS, gettext("the scheme for {size} players has {n} rounds; the file has no round "
                                               "{round}", size=size, n=len(plan), round=r), None)
    for r, tables in rounds.items():
        if not 1 <= r <= len(plan):
            err(Code.TOURNAMENT_ROUNDS, gettext("round {round} is not in the scheme for {size} players", round=r,
                                               size=size),
                t.round_lines.get(r, tables[0].line))
            continue
        expected = plan[r - 1]
        for k, want in enumerate(expected, 1):
            if k not in numbered[r]:
                err(Code.TOURNAMENT_TABLE, gettext("round {round} has no table {table} (the scheme for {size} players has "
                                                  "{pairs} there)", round=r, table=k, size=size, pairs=_match(want)),
                    t.round_lines.get(r, tables[0].line))
        for table in tables:
            want = expected[table.number - 1] if 1 <= table.number <= len(expected) else None
            if want is None or set(want) != set(table.pairs):
                shown = _match(want) if want else gettext("no such table")
                err(Code.TOURNAMENT_SCHEME, gettext("round {round}, table {table}: the scheme for {size} players has "
                                                    "{pairs}", round=r, table=table.number, size=size, pairs=shown),
                    table.line)


def _check_movement_rounds(t: Tournament, rounds: dict[int, list[Table]], numbered: dict[int, dict[int, Table]],
                           out: list[Diagnostic], err) -> None:
    """§13: the rounds of the movement, its tables kept, the pairs moved from round to round, the
    partners kept or drawn again (the Partners tag)."""
    for r, tables in rounds.items():
        if not 1 <= r <= MOVEMENT_ROUNDS:
            err(Code.TOURNAMENT_ROUNDS, gettext("round {round} is not in the movement: §13 plays four rounds, 1 to "
                                               "{last}", round=r, last=MOVEMENT_ROUNDS),
                t.round_lines.get(r, tables[0].line))
    for r in range(1, min(max(rounds, default=0), MOVEMENT_ROUNDS + 1)):
        if r not in rounds and r not in t.round_lines:
            err(Code.TOURNAMENT_ROUNDS, gettext("the file has no round {round} (the movement is checked from round to "
                                               "round)", round=r), None)
    # the tables of the movement: as many as most rounds have (the most of them when that is a tie)
    counts = Counter(len(tables) for tables in numbered.values())
    last = max(counts, key=lambda k: (counts[k], k), default=0)
    for r, tables in numbered.items():
        for k in range(1, last + 1):
            if k not in tables:
                err(Code.TOURNAMENT_TABLE, gettext("round {round} has no table {table} (the movement of §13 keeps the "
                                                  "tables, here 1 to {last})", round=r, table=k, last=last),
                    t.round_lines.get(r))
        for k, table in tables.items():
            if not 1 <= k <= last:
                err(Code.TOURNAMENT_TABLE, gettext("round {round}, table {table}: the movement of §13 keeps the tables, "
                                                  "here 1 to {last} (as most rounds have)", round=r, table=k,
                                                  last=last), table.line)
    for r in rounds:
        if r + 1 in rounds:
            _check_movement(numbered[r], numbered[r + 1], r, last, err)
    redraw = t.tags.get("Partners", "").strip().lower()
    if redraw in ("redraw", "redraw-fresh"):
        _check_redraw(t, redraw == "redraw-fresh", out)
    elif redraw:
        err(Code.TOURNAMENT_SYNTAX, gettext("the Partners tag must be redraw (§13) or redraw-fresh, not {value}",
                                          value=repr(t.tags['Partners'])), t.tag_lines.get("Partners"))
    else:
        for r in rounds:
            if r + 1 in rounds:
                _check_kept_partners(numbered[r], numbered[r + 1], r, err)


def _check_mixed(t: Tournament, n: int, err) -> tuple:
    """§12, mixed pairs: "so ziehen die Damen die Karten mit den geraden Nummern, die Herren diejenigen mit
    den ungeraden Nummern. Bei acht Teilnehmern werden nur die ersten vier, bei zwölf die ersten sechs
    Runden des obigen Spielplans gespielt." The rounds to play, and every pair a lady and a man."""
    ladies = t.tags.get("Ladies")
    if ladies is not None:
        parts = [part.strip() for part in ladies.split(",")]
        named = {number(part) for part in parts}
        if None in named:
            bad = next(part for part in parts if number(part) is None)
            err(Code.TOURNAMENT_MIXED, gettext("the Ladies tag names the ladies by their numbers (\"2, 4, 6, 8\"); "
                                              "cannot read {value}", value=repr(bad)), t.tag_lines.get("Ladies"))
        elif named != set(range(2, n + 1, 2)):
            err(Code.TOURNAMENT_MIXED, gettext("§12: the ladies draw the even numbers (2 to {n}); the Ladies tag names "
                                              "{named}", n=n, named=', '.join(map(str, sorted(named)))),
                t.tag_lines.get("Ladies"))
    for table in t.tables:
        for a, b in table.pairs:
            if a % 2 == b % 2:
                err(Code.TOURNAMENT_MIXED, gettext("round {round}, table {table}: {pair} is no mixed pair (a lady holds "
                                                  "an even number, a man an odd one)", round=table.round,
                                                  table=table.number, pair=f"{a}-{b}"), table.line)
    return SCHEMES[n][:MIXED_ROUNDS[n]] if n in MIXED_ROUNDS else SCHEMES[n]


def redrawn_pairs(drew: dict[int, Tile], before: set[frozenset[int]], fresh: bool = False) -> tuple[Pair, Pair]:
    """§13: the partnerships at a table from the tiles drawn before the match. "Hoch gegen Niedrig" (§3):
    the two highest against the two lowest; "sollten dabei die Spieler mit ihren bisherigen oder früheren
    Partnern zusammengeführt werden, so bildet der Teilnehmer, der den höchsten Stein gezogen hat, eine
    Mannschaft mit demjenigen, der den dritthöchsten Stein gezogen hat." ``before``: the pairs that have
    played together. ``fresh`` (the other reading): when that too joins earlier partners, the highest
    partners the lowest if that pairs nobody again."""
    r = sorted(drew, key=lambda p: draw_rank(drew[p]), reverse=True)
    options = [(r[0], r[1]), (r[0], r[2])] + ([(r[0], r[3])] if fresh else [])

    def split(mate: tuple[int, int]) -> tuple[Pair, Pair]:
        rest = tuple(sorted(p for p in r if p not in mate))
        return tuple(sorted(mate)), rest

    for mate in options:
        if not any(frozenset(pair) in before for pair in split(mate)):
            return split(mate)
    return split(options[1])


def _check_redraw(t: Tournament, fresh: bool, out: list[Diagnostic]) -> None:
    """Each table's pairs against the tiles its players drew (§13, partners changed after every round)."""
    before: set[frozenset[int]] = set()
    for r, tables in t.rounds().items():
        for table in tables:
            if not table.drew:
                out.append(Diagnostic("warning", Code.TOURNAMENT_DRAW, gettext(
                    "round {round}, table {table}: the partners are drawn before each match (§13), but the tiles "
                    "drawn are not given (\"drew 1 [6-6], ...\"), so the pairs are not checked", round=r,
                    table=table.number), table.line, 1,
                                      t.source))
                continue
            drew = dict(table.drew)
            if set(drew) != table.players() or len(set(drew.values())) != 4 or len(table.drew) != 4:
                out.append(Diagnostic("error", Code.TOURNAMENT_DRAW, gettext(
                    "round {round}, table {table}: the tiles drawn must be four different tiles, one for each player "
                    "at the table ({players})", round=r, table=table.number,
                    players=', '.join(map(str, sorted(table.players())))), table.line, 1, t.source))
                continue
            want = redrawn_pairs(drew, before, fresh)
            if set(want) != set(table.pairs):
                out.append(Diagnostic("error", Code.TOURNAMENT_PARTNERS, gettext(
                    "round {round}, table {table}: by the tiles drawn the pairs are {pairs} (§13: the highest partners "
                    "the second, or the third when that would join earlier partners)", round=r, table=table.number,
                    pairs=_match(want)), table.line, 1, t.source))
        before |= {frozenset(pair) for table in tables for pair in table.pairs}


def _check_kept_partners(before: dict[int, Table], after: dict[int, Table], r: int, err) -> None:
    """§13: "Sollen die Partnerschaften nach jeder Runde gewechselt werden, so wird vor jeder Partie
    gelost": without that draw (the Partners tag, and the tiles drawn) the pairs of round ``r`` play
    together in the next round too. A pair of round ``r + 1`` whose two players both played round ``r``,
    but not together, changed partners without a draw (a table that gives the tiles drawn had one: without
    the Partners tag they are not checked, and that is said apart)."""
    mate: dict[int, int] = {}
    for table in before.values():
        for a, b in table.pairs:
            mate[a], mate[b] = b, a
    for table in after.values():
        for a, b in table.pairs:
            if a in mate and b in mate and mate[a] != b and not table.drew:
                err(Code.TOURNAMENT_PARTNERS, gettext(
                    "round {round}, table {table}: {a}-{b} play together, but in round {before} {a} partnered {mate_a} "
                    "and {b} partnered {mate_b}; §13 changes partners only by lot before each match (\"so wird vor "
                    "jeder Partie gelost\": [Partners \"redraw\"] and the tiles drawn, \"drew 1 [6-6], ...\")",
                    round=r + 1, table=table.number, a=a, b=b, before=r, mate_a=mate[a], mate_b=mate[b]), table.line)


def _moves(n: int, last: int) -> tuple[int, int]:
    """§13: the tables the winners and the losers of table ``n`` (of 1 to ``last``) go to."""
    return (1, last) if n == 1 else (n - 1, n)


def _check_movement(before: dict[int, Table], after: dict[int, Table], r: int, last: int, err) -> None:
    """§13: "Nach jeder Partie bleiben die Gewinner an Tisch Nr. 1 sitzen, die Verlierer an Tisch Nr. 1
    rücken an den Tisch mit der höchsten Nummer. An allen anderen Tischen bleiben die Verlierer sitzen,
    und die Gewinner rücken an den Tisch mit der nächst niedrigeren Nummer." ``before`` and ``after``: the
    tables of round ``r`` and the next by number, the movement's being 1 to ``last``. A table whose players
    come from a table that is missing (an error of its own) is not checked."""
    if any(t.winner is None for t in before.values()):
        return          # without every result the next seats cannot be told
    seats: dict[int, set[int]] = {}
    for n, table in before.items():
        if 1 <= n <= last:
            to_winners, to_losers = _moves(n, last)
            seats.setdefault(to_winners, set()).update(table.pairs[table.winner])
            seats.setdefault(to_losers, set()).update(table.pairs[1 - table.winner])
    for n, table in after.items():
        sources = {k for k in (1, n, n + 1) if 1 <= k <= last and n in _moves(k, last)}
        if not sources or not sources <= before.keys():
            continue    # not a table of the movement, or one it fills from a missing table: said already
        if table.players() != seats[n]:
            err(Code.TOURNAMENT_MOVEMENT, gettext("round {round}, table {table}: after round {before} the movement of §13 "
                                                 "seats {players} here", round=r + 1, table=n, before=r,
                                                 players=', '.join(map(str, sorted(seats[n])))), table.line)


def _match(pairs: tuple[Pair, Pair]) -> str:
    return gettext("{first} vs {second}", first=f"{pairs[0][0]}-{pairs[0][1]}", second=f"{pairs[1][0]}-{pairs[1][1]}")


def round_scores(t: Tournament) -> dict[int, dict[int, int | None]]:
    """Each player's score in each round he sat at a table: the difference of the bad points, won or
    lost (§9); 0 when both pairs ended equal (no winner); None when the table gives no points."""
    out: dict[int, dict[int, int | None]] = {}
    for table in sorted(t.tables, key=lambda table: table.round):
        for k, pair in enumerate(table.pairs):
            score = None
            if table.points is not None:
                diff = abs(table.points[0] - table.points[1])
                score = 0 if table.winner is None else (diff if k == table.winner else -diff)
            for p in pair:
                out.setdefault(p, {})[table.round] = score
    return out


def tallies(t: Tournament) -> dict[int, list[int]]:
    """Each player's scores, round by round, of the rounds whose table gives its points."""
    return {p: [v for v in rounds.values() if v is not None] for p, rounds in round_scores(t).items()}


def ranking(t: Tournament) -> list[tuple[int, int, int]]:
    """(place, player number, total), the highest total first; equal totals share a place."""
    totals = sorted(((sum(v), p) for p, v in tallies(t).items()), key=lambda x: (-x[0], x[1]))
    out, place = [], 0
    for k, (total, p) in enumerate(totals):
        if k == 0 or total != totals[k - 1][0]:
            place = k + 1
        out.append((place, p, total))
    return out


def standings(t: Tournament) -> list[tuple[int, str, int]]:
    """(place, name, total), the highest total first; equal totals share a place."""
    return [(place, t.name(p), total) for place, p, total in ranking(t)]
