"""A set-up whose table is known only by counts (``Ends``, ``Counts``) with hands hidden (issue 51, item 2):
the worlds of the mover's view are exactly those a brute force lists (every way to take the hidden tiles
and the table from the tiles he has not seen: the table carrying each number as the Counts tag says and
making a line with the two ends, as networkx's Euler path test says; the hands by their sizes and what
they lack), and the fair analysis over them is the mean of the open-hands values of each world written
with every hand shown. In a draw game a world is also the boneyard's order (each counted, as the brute force
lists them), and the fair value the mean of the search of each world drawing in its order, the table written
as a line. Where the tables are too many, the analysis says so (no traceback)."""
from __future__ import annotations

import itertools
import random
from statistics import fmean

import networkx as nx
import pytest
from click.testing import CliRunner

from analyzer.analysis import analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.cli import main
from analyzer.inference import worlds_at
from analyzer.notation import parse
from analyzer.replay import replay
from analyzer.search import TreeSearch, revealed
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
    fair = fair_analyze(replay(parse(_text(counts, lacks)).games[0]), settings=FairSettings(exact_below=1000),
                        run=FairRun(workers=1)).to_move
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
    out = fair_analyze(replay(parse(text).games[0]), settings=FairSettings(worlds=8), run=FairRun(workers=1))
    assert out.fair_note.startswith("no fair analysis: the tiles on the table are known only by counts")
    assert "more than 3 sets" in out.fair_note
    assert out.to_move is None or out.to_move.fair is None
    result = CliRunner().invoke(main, ["analyze", "-"], input=text)
    assert result.exit_code == 0 and "Traceback" not in result.output and "more than 3 sets" in result.output


# A draw game set up by counts: a world is also the boneyard's order (every order of its tiles: nobody has
# drawn yet), and each table weighs as many worlds as the hands and orders it leaves.
DRAW_A = [Tile.of(0, 0), Tile.of(0, 1), Tile.of(1, 1), Tile.of(2, 2), Tile.of(0, 2), Tile.of(5, 6), Tile.of(6, 6)]
DRAW = """[Event "draw, the table by counts"]
[Variant "draw"]
[Players "A, B"]
[SetUp "1"]
[Ends "3 6"]
[Counts "{COUNTS}"]
[OnTable "15"]
[Boneyard "3"]
[ToMove "A"]
{LACKS}[Result "*"]

A: [0-0] [0-1] [1-1] [2-2] [0-2] [5-6] [6-6]
B: ? ? ?
"""


def _draw_brute(counts: dict[int, int], lacks: set[int]) -> set[tuple]:
    """Every world by enumeration: the table (15 of the tiles A does not hold), B's hand (3, none with a
    number of ``lacks``) and the boneyard's order (every order of the 3 tiles left)."""
    unseen = [t for t in SET if t not in DRAW_A]
    worlds = set()
    for hidden in itertools.combinations(unseen, 6):
        table = [t for t in unseen if t not in hidden]
        if any(sum(t.matches(x) for t in table) != c for x, c in counts.items()) or not _line(table, (3, 6)):
            continue
        for b in itertools.combinations(hidden, 3):
            if any(t.matches(x) for t in b for x in lacks):
                continue
            for order in itertools.permutations([t for t in hidden if t not in b]):
                worlds.add((frozenset(table), frozenset(b), order))
    return worlds


DRAW_CASES = [("0:4 1:2 2:4 3:6 4:4 5:4 6:5", "", set()),
              ("0:4 1:2 2:4 3:6", "B 4", {4}),
              ("1:2 3:6 6:5", "B 4", {4})]


def _draw_world(worlds, world) -> tuple:
    """A world of a draw game by counts as the brute force writes it: (table, B's dealt hand, boneyard order)."""
    b, order = frozenset(t for t in SET if t.bit & worlds.view.deal(world)[1]), worlds.view.order(world)
    return frozenset(t for t in SET if t not in DRAW_A) - b - set(order), b, order


def _counted(counts: str) -> dict[int, int]:
    return {int(x): int(c) for x, c in (p.split(":") for p in counts.split())}


@pytest.mark.parametrize("counts, lacks, lacking", DRAW_CASES)
def test_the_worlds_of_a_draw_game_by_counts_are_the_brute_forces(counts, lacks, lacking):
    text = DRAW.format(COUNTS=counts, LACKS=f'[Lacks "{lacks}"]\n' if lacks else "")
    rep = replay(parse(text).games[0])
    assert rep.valid, [str(d) for d in rep.errors]
    worlds = worlds_at(rep, 0, 0)
    unseen = frozenset(t for t in SET if t not in DRAW_A)
    mine = {_draw_world(worlds, world) for world in worlds}
    theirs = _draw_brute(_counted(counts), lacking)
    assert worlds.count == len(mine) == len(theirs) > 6 and mine == theirs
    # each tile's probability in each place, as the brute force counts it
    probs = worlds.probabilities()
    for at, name in enumerate(("table", "B")):
        for tile in unseen:
            assert probs[name].get(tile, 0) * len(theirs) == sum(tile in w[at] for w in theirs)
    for tile in unseen:
        assert probs["boneyard"].get(tile, 0) * len(theirs) == sum(tile in w[2] for w in theirs)
    # a world drawn is one of them
    rng = random.Random(5)
    for _ in range(20):
        assert _draw_world(worlds, worlds.sample(rng)) in theirs


def test_the_worlds_after_moves_of_a_draw_game_by_counts_are_the_brute_forces_that_agree_with_them():
    """A plays [6-6] (the ends stay 3 and 6), B draws a tile unseen and plays [3-4]: B was dealt nothing with a
    3 or a 6, the [3-4] is the first tile of the boneyard, and it did not lie on the table."""
    counts = DRAW_CASES[1][0]
    text = DRAW.format(COUNTS=counts, LACKS="") + "\n1. A [6-6]@6 B draws ? B [3-4]@3\n"
    rep = replay(parse(text).games[0])
    assert rep.valid, [str(d) for d in rep.errors]
    worlds = worlds_at(rep, 3, 0)
    mine = {_draw_world(worlds, world) for world in worlds}
    theirs = {(table, b, order)
              for table, b, order in _draw_brute(_counted(counts), set())
              if not any(t.matches(3) or t.matches(6) for t in b) and order[0] == Tile.of(3, 4)}
    assert worlds.count == len(mine) == len(theirs) > 2 and mine == theirs


def _draw_shown(table, b) -> str:
    """The record of a world with every hand shown and the table listed as a line from 3 to 6."""
    graph = nx.MultiGraph()
    graph.add_edges_from((t.low, t.high) for t in table)
    line = " ".join(f"[{u}-{v}]" for u, v in nx.eulerian_path(graph, source=3))
    text = DRAW.format(COUNTS="", LACKS="").replace('[Counts ""]', f'[Line "{line}"]')
    return text.replace("B: ? ? ?", "B: " + " ".join(str(t) for t in sorted(b)))


def test_the_fair_values_of_a_draw_game_by_counts_are_the_means_over_its_worlds():
    counts = DRAW_CASES[0][0]
    theirs = _draw_brute(_counted(counts), set())
    text = DRAW.format(COUNTS=counts, LACKS="")
    fair = fair_analyze(replay(parse(text).games[0]), settings=FairSettings(exact_below=1000),
                        run=FairRun(workers=1)).to_move
    assert fair.fair.method == "exact" and fair.fair.total == len(theirs)
    each: dict[str, list[int]] = {}
    shown = {}
    for table, b, order in theirs:
        if (table, b) not in shown:
            rep = shown[table, b] = replay(parse(_draw_shown(table, b)).games[0])
            assert rep.valid, [str(d) for d in rep.errors]
        rep = shown[table, b]
        for move, value in TreeSearch(rep.variant).values(revealed(rep.initial.copy(), list(order))):
            each.setdefault(str(move), []).append(value)
    assert {str(a.move): a.fair.mean for a in fair.alternatives} == \
        {move: pytest.approx(fmean(values), abs=5e-5) for move, values in each.items()}     # (means to 4 places)


DRAW_RECORD = """[Event "draw by counts"]
[Variant "draw"]
[Players "A, B"]
[SetUp "1"]
[Ends "3 6"]
[OnTable "6"]
[Boneyard "12"]
[ToMove "A"]
[Result "*"]

A: [0-1] [0-4] [2-4] [3-6]
B: ? ? ? ? ? ?
"""


def test_a_draw_game_by_counts_gets_the_fair_analysis_of_every_legal_move():
    rep = replay(parse(DRAW_RECORD).games[0])
    assert rep.valid, [str(d) for d in rep.errors]
    out = fair_analyze(rep, settings=FairSettings(worlds=24), run=FairRun(workers=1))
    legal = {str(m) for m in rep.initial.legal_moves()}
    assert legal == {"[3-6]@3", "[3-6]@6"}          # (only the 3-6 fits either end; A may not draw)
    assert "no fair analysis" not in out.fair_note and "not listed yet" not in out.fair_note
    assert out.to_move.fair is not None and out.to_move.fair.total == worlds_at(rep, 0, 0).count
    assert {str(a.move) for a in out.to_move.alternatives if a.fair is not None} == legal
    result = CliRunner().invoke(main, ["analyze", "-"], input=DRAW_RECORD)
    assert result.exit_code == 0 and "Traceback" not in result.output and "not listed yet" not in result.output
    assert "fair (A's view" in result.output


def test_a_player_moving_twice_on_a_table_known_by_its_ends_is_an_error_at_the_move():
    """Issue 87 item 4 (minimised): All Fives set up by its ends alone (no tile of the table named), B plays twice.
    Each play counts the open ends ("Summe ... ein Vielfaches von fünf"): [2-5] on the 2 leaves 5 and 0, which scores
    5 (the end no move covered counts its number once; it was the lone tile's 7 pips); the second play by B is a
    turn-order error at its place (it was internal-error, TypeError, from the count of the ends)."""
    text = ('[Variant "all-fives"]\n[Players "A, B"]\n[SetUp "1"]\n[Ends "2 0"]\n[Boneyard "0"]\n[ToMove "B"]\n\n'
            "A: [1-1]\nB: [2-5] [5-6]\n\n1. B [2-5] +5 B [5-6]\n")
    result = CliRunner().invoke(main, ["validate", "-"], input=text)
    assert "internal" not in result.output and result.exit_code == 1
    (error,) = [line for line in result.output.splitlines() if "error[" in line]
    assert error.strip().startswith("<stdin>:11:17: error[turn-order] it is A's turn, not B's")
