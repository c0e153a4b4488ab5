"""Domino Whist tournaments (001 §12 progressions, §13 the movement): the schemes of the text, a
tournament file checked against them, the tallies and the standings."""
from collections import Counter
from itertools import combinations

import pytest

from analyzer.match.tournament import SCHEMES, check_tournament, parse_tournament, standings, tallies
from conftest import RECORDS


def meetings(plan):
    partners, opponents = Counter(), Counter()
    for rnd in plan:
        for a, b in rnd:
            partners[a] += 1
            partners[b] += 1
            for x in a:
                for y in b:
                    opponents[frozenset((x, y))] += 1
    return partners, opponents


# "Dieses Spielschema ist so gestaltet, dass jeder Spieler jeden anderen Teilnehmer genau einmal als
#  Partner und genau zweimal als Gegner trifft." (five players; the four-player progression has "drei
#  Partien mit wechselnden Partnerschaften"; the two- and three-table schemes are played "nach dem vom
#  Bridge her bekannten System", everyone partnering everyone once)
@pytest.mark.parametrize("n,rounds", [(4, 3), (5, 5), (8, 7), (12, 11)])
def test_the_schemes_as_printed(n, rounds):
    plan = SCHEMES[n]
    assert len(plan) == rounds
    for rnd in plan:
        seated = [p for table in rnd for pair in table for p in pair]
        assert len(seated) == len(set(seated)) == 4 * (n // 4)       # five: one pauses each round
    partners, opponents = meetings(plan)
    assert {partners[p] for p in combinations(range(1, n + 1), 2)} == {1}
    if n <= 8:
        assert {opponents[frozenset(p)] for p in combinations(range(1, n + 1), 2)} == {2}
    assert [p for p in range(1, 6) if not any(p in pair for table in SCHEMES[5][4] for pair in table)] == [1]


def test_a_two_table_tournament_file_is_checked_and_ranked():
    text = (RECORDS / "tournament-8.tour").read_text()
    t = parse_tournament(text)
    assert check_tournament(t) == [] and len(t.rounds()) == 7
    # round 1, table 1: 1-6 vs 2-5, 118 against 50: 2 and 5 win 68, 1 and 6 lose it
    assert tallies(t)[2][0] == 68 and tallies(t)[1][0] == -68
    table = standings(t)
    assert [place for place, _, _ in table] == sorted(place for place, _, _ in table)
    assert sum(total for _, _, total in table) == 0 and table[0][2] == max(sum(v) for v in tallies(t).values())
    assert table[0][1] == t.name(max(tallies(t), key=lambda p: sum(tallies(t)[p])))
    wrong = parse_tournament(text.replace("table 1: 1-6 vs 2-5", "table 1: 1-2 vs 6-5"))
    (err,) = check_tournament(wrong)
    assert err.code == "tournament-scheme" and err.line == 6 and "1-6 vs 2-5" in err.message
    bad = parse_tournament(text + "tabel 3: 1-2 vs 3-4\n")
    assert [d.code for d in check_tournament(bad)] == ["tournament-syntax"]


# §13: "Nach jeder Partie bleiben die Gewinner an Tisch Nr. 1 sitzen, die Verlierer an Tisch Nr. 1 rücken an
#  den Tisch mit der höchsten Nummer. An allen anderen Tischen bleiben die Verlierer sitzen, und die
#  Gewinner rücken an den Tisch mit der nächst niedrigeren Nummer. Es werden vier Runden gespielt."
def test_the_tournament_movement():
    text = (RECORDS / "tournament-movement.tour").read_text()
    t = parse_tournament(text)
    assert check_tournament(t) == [] and len(t.rounds()) == 4
    r1 = t.rounds()[1]
    winners1 = set(r1[0].pairs[r1[0].winner])
    assert winners1 <= t.rounds()[2][0].players()                     # the winners of table 1 stay
    assert set(r1[0].pairs[1 - r1[0].winner]) <= t.rounds()[2][2].players()   # its losers go to table 3
    # swap a winner of table 1 with a player of table 2 in round 2: the movement is broken
    lines = text.splitlines()
    k = lines.index("round 2") + 1
    a, b = lines[k], lines[k + 1]
    x = sorted(winners1)[0]
    y = next(p for p in t.rounds()[2][1].players())
    swap = {str(x): str(y), str(y): str(x)}
    fix = lambda s: " ".join(swap.get(w, w) for w in s.replace("-", " - ").split()).replace(" - ", "-")
    lines[k], lines[k + 1] = fix(a), fix(b)
    codes = [d.code for d in check_tournament(parse_tournament("\n".join(lines)))]
    assert codes and set(codes) == {"tournament-movement"}
    five = parse_tournament(text + "round 5\ntable 1: 1-2 vs 3-4 10 20\n")
    assert "tournament-rounds" in [d.code for d in check_tournament(five)]


def test_the_tournament_command(tmp_path):
    from click.testing import CliRunner
    from analyzer.cli import main
    ok = CliRunner().invoke(main, ["tournament", str(RECORDS / "tournament-8.tour")])
    assert ok.exit_code == 0 and "agrees with its scheme" in ok.output and " 1. " in ok.output
    bad = tmp_path / "bad.tour"
    bad.write_text((RECORDS / "tournament-8.tour").read_text().replace("1-6 vs 2-5", "1-2 vs 6-5"))
    out = CliRunner().invoke(main, ["tournament", str(bad)])
    assert out.exit_code == 1 and "tournament-scheme" in out.output and "Traceback" not in out.output
