"""A set-up whose table is known only by counts (``Ends``, ``Counts``) with hands hidden (issue 51, item 2):
the worlds of the mover's view are exactly those a brute force lists (every way to take the hidden tiles
and the table from the tiles he has not seen: the table carrying each number as the Counts tag says and
making a line with the two ends, as networkx's Euler path test says; the hands by their sizes and what
they lack), and the fair analysis over them is the mean of the open-hands values of each world written
with every hand shown. Where the tables are too many, the analysis says so (no traceback)."""
from __future__ import annotations

import itertools
from statistics import fmean

import networkx as nx
import pytest
from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import fair_analyze
from analyzer.cli import main
from analyzer.inference import worlds_at
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.tiles import Tile

SET = [Tile.of(a, b) for a in range(7) for b in range(a, 7)]
D = [Tile.of(0, 3), Tile.of(1, 5), Tile.of(4, 6)]
ROOM = {"A": 2, "B": 1, "C": 2}          # the hidden hands' sizes; 20 tiles on the table

RECORD = """[Event "column, the table by counts"]
[Variant "partnership"]
[Players "A, B, C, D"]
[SetUp "1"]
[Ends "0 5"]
[Counts "{COUNTS}"]
[ToMove "D"]
{LACKS}[Result "*"]

A: {A}
B: {B}
C: {C}
D: [0-3] [1-5] [4-6]
"""


def _text(counts: str, lacks: str = "", hands=None) -> str:
    shown = {name: " ".join(str(t) for t in hands[name]) if hands else " ".join("?" * room)
             for name, room in ROOM.items()}
    return RECORD.format(COUNTS=counts, LACKS=f'[Lacks "{lacks}"]\n' if lacks else "", **shown)


def _line(tiles, ends) -> bool:
    graph = nx.MultiGraph()
    graph.add_edges_from((t.low, t.high) for t in tiles)
    odd = {v for v, d in graph.degree() if d % 2}
    a, b = ends
    return (a in graph and b in graph and nx.is_connected(graph) and nx.has_eulerian_path(graph)
            and odd == ({a, b} if a != b else set()))


def _brute(counts: dict[int, int], lacks: dict[str, set[int]]) -> set[tuple]:
    """Every world by enumeration: the hidden hands' tiles (A, B, C), the rest on the table."""
    unseen = [t for t in SET if t not in D]
    worlds = set()
    for hidden in itertools.combinations(unseen, sum(ROOM.values())):
        table = [t for t in unseen if t not in hidden]
        if any(sum(t.matches(x) for t in table) != c for x, c in counts.items()) or not _line(table, (0, 5)):
            continue
        for a in itertools.combinations(hidden, ROOM["A"]):
            rest = [t for t in hidden if t not in a]
            for b in itertools.combinations(rest, ROOM["B"]):
                c = tuple(t for t in rest if t not in b)
                hands = {"A": a, "B": b, "C": c}
                if any(t.matches(x) for name, numbers in lacks.items() for t in hands[name] for x in numbers):
                    continue
                worlds.add((frozenset(a), frozenset(b), frozenset(c)))
    return worlds


CASES = [("0:5 1:5 2:6 3:5 4:5 5:5 6:5", "", {}),
         ("2:6 5:5 6:5", "A 2", {"A": {2}}),
         ("0:5 2:6 3:5 6:5", "B 0, C 4", {"B": {0}, "C": {4}})]


@pytest.mark.parametrize("counts, lacks, lacking", CASES)
def test_the_worlds_of_a_table_by_counts_are_the_brute_forces(counts, lacks, lacking):
    rep = replay(parse(_text(counts, lacks)).games[0])
    assert rep.valid, [str(d) for d in rep.errors]
    worlds = worlds_at(rep, 0, 3)
    mine = {tuple(frozenset(t for t in SET if t.bit & w[s]) for s in range(3)) for w in worlds}
    theirs = _brute({int(x): int(c) for x, c in (p.split(":") for p in counts.split())}, lacking)
    assert worlds.count == len(mine) == len(theirs) > 1 and mine == theirs
    # each tile's probability in each hand, as the brute force counts it
    probs = worlds.probabilities()
    for s, name in enumerate("ABC"):
        for tile in {t for w in theirs for t in w[s]}:
            assert probs[name][tile] * len(theirs) == sum(tile in w[s] for w in theirs)


def test_the_fair_values_are_the_means_over_those_worlds_each_with_every_hand_shown():
    counts, lacks, lacking = CASES[0]
    theirs = _brute({int(x): int(c) for x, c in (p.split(":") for p in counts.split())}, lacking)
    assert len(theirs) <= 60
    fair = fair_analyze(replay(parse(_text(counts, lacks)).games[0]), workers=1, exact_below=1000).to_move
    assert fair.fair.method == "exact" and fair.fair.total == len(theirs)
    each: dict[str, list[int]] = {}
    for a, b, c in theirs:
        shown = replay(parse(_text(counts, lacks, {"A": sorted(a), "B": sorted(b), "C": sorted(c)})).games[0])
        assert shown.valid, [str(d) for d in shown.errors]
        for alt in analyze_replay(shown).to_move.alternatives:
            each.setdefault(str(alt.move), []).append(alt.value)
    assert {str(a.move): a.fair.mean for a in fair.alternatives} == \
        {move: pytest.approx(fmean(values), abs=5e-5) for move, values in each.items()}     # (means to 4 places)


def test_too_many_tables_is_said_not_raised(monkeypatch):
    monkeypatch.setattr("analyzer.inference.tabled.MOST_TABLES", 3)      # (the 60 worlds' tables are more)
    text = _text(CASES[0][0])
    out = fair_analyze(replay(parse(text).games[0]), workers=1, worlds=8)
    assert out.fair_note.startswith("no fair analysis: the tiles on the table are known only by counts")
    assert "more than 3 sets" in out.fair_note
    assert out.to_move is None or out.to_move.fair is None
    result = CliRunner().invoke(main, ["analyze", "-"], input=text)
    assert result.exit_code == 0 and "Traceback" not in result.output and "more than 3 sets" in result.output
