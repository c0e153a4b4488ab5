"""Domino Whist tournaments (001 §12, §13): a file of rounds and tables, checked against the movement
schemes of the text, with each player's tally and the standings.

A tournament file is plain text::

    [Event "Club evening"]
    [Scheme "8"]                       4, 5, 8 or 12: the tables of §12; movement: §13
    [Names "1 Anna, 2 Bert, 3 Carl"]    optional
    round 1
    table 1: 1-6 vs 2-5 45 80          the pairs (player numbers) and each pair's bad points
    table 2: 3-8 vs 4-7 101 60

Each table's match is won by the pair with fewer bad points (§9); a player's tally for a round is
the difference, won or lost (§9: "Jeder Spieler der verlierenden Partei zahlt an einen der Gewinner
den der Punktedifferenz entsprechenden Betrag"), and the standings rank the players by their total."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic

__all__ = ["SCHEMES", "Table", "Tournament", "parse_tournament", "check_tournament", "tallies", "standings"]

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
    5: _rounds("1-2/3-4; 1-5/2-3; 1-4/2-5; 1-3/4-5; 2-4/3-5"),
    8: _rounds("1-6/2-5 3-8/4-7; 2-3/5-8 1-4/6-7; 1-8/3-6 2-7/4-5; 1-2/3-4 5-6/7-8; "
               "1-7/2-8 3-5/4-6; 2-6/3-7 1-5/4-8; 2-4/6-8 1-3/5-7"),
    12: _rounds("1-2/3-4 5-6/7-8 9-10/11-12; 3-6/7-10 1-4/9-12 2-11/5-8; 4-11/7-12 2-9/3-8 1-6/5-10; "
                "3-10/5-12 1-8/2-7 4-9/6-11; 1-10/8-11 3-12/6-9 2-5/4-7; 1-12/6-7 4-5/10-11 2-3/8-9; "
                "2-6/3-11 7-9/8-10 1-5/4-12; 2-12/5-9 3-7/4-8 1-11/6-10; 1-7/4-10 3-9/5-11 2-8/6-12; "
                "6-8/9-11 2-4/10-12 1-3/5-7; 1-9/7-11 2-10/3-5 4-6/8-12"),
}
MOVEMENT_ROUNDS = 4         # §13: "Es werden vier Runden gespielt."


@dataclass(frozen=True)
class Table:
    """One table of one round: the two pairs and each pair's bad points (None: not given)."""

    round: int
    number: int
    pairs: tuple[Pair, Pair]
    points: tuple[int, int] | None
    line: int

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

    def rounds(self) -> dict[int, list[Table]]:
        out: dict[int, list[Table]] = {}
        for t in self.tables:
            out.setdefault(t.round, []).append(t)
        return {r: sorted(ts, key=lambda t: t.number) for r, ts in sorted(out.items())}

    def name(self, player: int) -> str:
        for part in self.tags.get("Names", "").split(","):
            number, _, name = part.strip().partition(" ")
            if number == str(player) and name:
                return name
        return str(player)


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
_ROUND = re.compile(r"^round\s+(\d+)\s*$", re.I)
_TABLE = re.compile(r"^table\s+(\d+)\s*:\s*(\d+)\s*-\s*(\d+)\s+vs\.?\s+(\d+)\s*-\s*(\d+)(?:\s+(\d+)\s+(\d+))?\s*$", re.I)


def parse_tournament(text: str, source: str = "<tournament>") -> Tournament:
    """Read a tournament file; each line that cannot be read is an error naming it."""
    t = Tournament(source=source)
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if m := _TAG.match(line):
            t.tags[m.group(1)] = m.group(2)
        elif m := _ROUND.match(line):
            current = int(m.group(1))
        elif (m := _TABLE.match(line)) and current is not None:
            a, b, c, d = (int(m.group(k)) for k in range(2, 6))
            points = (int(m.group(6)), int(m.group(7))) if m.group(6) else None
            t.tables.append(Table(current, int(m.group(1)), (tuple(sorted((a, b))), tuple(sorted((c, d)))),
                                  points, n))
        else:
            t.errors.append(Diagnostic("error", "tournament-syntax", f"cannot read {line!r}; write \"round N\" "
                                       "and then \"table T: 1-6 vs 2-5 45 80\" (the pairs and their bad points)",
                                       n, 1, source))
    return t


def check_tournament(t: Tournament) -> list[Diagnostic]:
    """The tournament against its scheme (§12) or the movement (§13); its errors, line by line."""
    out = list(t.errors)
    scheme = t.tags.get("Scheme", "").strip().lower()

    def err(code: str, message: str, line: int | None) -> None:
        out.append(Diagnostic("error", code, message, line, 1 if line else None, t.source))

    rounds = t.rounds()
    for r, tables in rounds.items():
        seen: set[int] = set()
        for table in tables:
            if len(table.players()) != 4 or seen & table.players():
                err("tournament-seat", f"round {r}: a player sits twice (table {table.number})", table.line)
            seen |= table.players()
    if scheme.isdigit() and int(scheme) in SCHEMES:
        plan = SCHEMES[int(scheme)]
        if len(rounds) != len(plan):
            err("tournament-rounds", f"the scheme for {scheme} players has {len(plan)} rounds; the file has "
                f"{len(rounds)}", None)
        for r, tables in rounds.items():
            if not 1 <= r <= len(plan):
                err("tournament-rounds", f"round {r} is not in the scheme for {scheme} players", tables[0].line)
                continue
            expected = plan[r - 1]
            for table in tables:
                want = expected[table.number - 1] if table.number <= len(expected) else None
                if want is None or set(want) != set(table.pairs):
                    shown = (f"{want[0][0]}-{want[0][1]} vs {want[1][0]}-{want[1][1]}" if want
                             else "no such table")
                    err("tournament-scheme", f"round {r}, table {table.number}: the scheme for {scheme} players "
                        f"has {shown}", table.line)
    elif scheme == "movement":
        if len(rounds) > MOVEMENT_ROUNDS:
            err("tournament-rounds", f"§13: four rounds are played; the file has {len(rounds)}", None)
        order = list(rounds)
        for before, after in zip(order, order[1:]):
            _check_movement(rounds[before], rounds[after], before, err)
    else:
        err("tournament-scheme", "the Scheme tag must be 4, 5, 8, 12 (the schemes of §12) or movement (§13)", None)
    return out


def _check_movement(before: list[Table], after: list[Table], r: int, err) -> None:
    """§13: "Nach jeder Partie bleiben die Gewinner an Tisch Nr. 1 sitzen, die Verlierer an Tisch Nr. 1
    rücken an den Tisch mit der höchsten Nummer. An allen anderen Tischen bleiben die Verlierer sitzen,
    und die Gewinner rücken an den Tisch mit der nächst niedrigeren Nummer." """
    last = max(t.number for t in before)
    by_number = {t.number: t for t in before}
    if any(t.winner is None for t in before):
        return          # without every result the next seats cannot be told
    winners = {n: set(t.pairs[t.winner]) for n, t in by_number.items()}
    losers = {n: set(t.pairs[1 - t.winner]) for n, t in by_number.items()}
    for table in after:
        n = table.number
        if n == 1:
            want = winners[1] | winners.get(2, set())
        elif n == last:
            want = losers[n] | losers[1]
        else:
            want = losers.get(n, set()) | winners.get(n + 1, set())
        if table.players() != want:
            err("tournament-movement", f"round {r + 1}, table {n}: after round {r} the movement of §13 seats "
                f"{', '.join(map(str, sorted(want)))} here", table.line)


def tallies(t: Tournament) -> dict[int, list[int]]:
    """Each player's score round by round: the difference of the bad points, won or lost (§9)."""
    out: dict[int, list[int]] = {}
    for table in t.tables:
        if table.points is None or table.winner is None:
            continue
        diff = abs(table.points[0] - table.points[1])
        for k, pair in enumerate(table.pairs):
            for p in pair:
                out.setdefault(p, []).append(diff if k == table.winner else -diff)
    return out


def standings(t: Tournament) -> list[tuple[int, str, int]]:
    """(place, name, total), the highest total first; equal totals share a place."""
    totals = sorted(((sum(v), p) for p, v in tallies(t).items()), key=lambda x: (-x[0], x[1]))
    out, place = [], 0
    for k, (total, p) in enumerate(totals):
        if k == 0 or total != totals[k - 1][0]:
            place = k + 1
        out.append((place, t.name(p), total))
    return out
