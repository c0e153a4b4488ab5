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
    # swap the winners of table 1 with a pair of table 2 in round 2 (each keeps his partner): the movement
    # is broken
    lines = text.splitlines()
    k = lines.index("round 2") + 1
    a, b = lines[k], lines[k + 1]
    x = "-".join(map(str, sorted(winners1)))
    y = "-".join(map(str, t.rounds()[2][1].pairs[0]))
    lines[k], lines[k + 1] = a.replace(x, y), b.replace(y, x)
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


# §12: "Nehmen gleich viele Damen wie Herren teil, und wünscht man nur Partien mit gemischten Paaren, so
#  ziehen die Damen die Karten mit den geraden Nummern, die Herren diejenigen mit den ungeraden Nummern. Bei
#  acht Teilnehmern werden nur die ersten vier, bei zwölf die ersten sechs Runden des obigen Spielplans
#  gespielt."
@pytest.mark.parametrize("n,rounds", [(8, 4), (12, 6)])
def test_mixed_pairs_the_first_rounds_of_the_scheme_pair_every_lady_with_every_gentleman(n, rounds):
    plan = SCHEMES[n][:rounds]
    partners, _ = meetings(plan)
    assert all(a % 2 != b % 2 for rnd in plan for table in rnd for a, b in table)        # every pair mixed
    lady_gentleman = [(a, b) for a in range(2, n + 1, 2) for b in range(1, n + 1, 2)]
    assert {partners[tuple(sorted(p))] for p in lady_gentleman} == {1}                    # each pair once
    assert any(a % 2 == b % 2 for table in SCHEMES[n][rounds] for a, b in table)         # the next round is not


def test_a_mixed_pairs_tournament_file():
    text = (RECORDS / "tournament-mixed.tour").read_text()
    assert check_tournament(parse_tournament(text)) == []
    full = (RECORDS / "tournament-8.tour").read_text().replace('[Scheme "8"]', '[Scheme "8"]\n[Pairs "mixed"]')
    codes = [d.code for d in check_tournament(parse_tournament(full))]
    assert "tournament-rounds" in codes and "tournament-mixed" in codes                  # rounds 5-7 too
    ladies = parse_tournament(text.replace('[Ladies "2, 4, 6, 8"]', '[Ladies "1, 3, 5, 7"]'))
    assert [d.code for d in check_tournament(ladies)] == ["tournament-mixed"]
    five = parse_tournament('[Scheme "5"]\n[Pairs "mixed"]\nround 1\ntable 1: 1-2 vs 3-4 10 20\n')
    assert "tournament-mixed" in [d.code for d in check_tournament(five)]


# §13: "Sollen die Partnerschaften nach jeder Runde gewechselt werden, so wird vor jeder Partie gelost; sollten
#  dabei die Spieler mit ihren bisherigen oder früheren Partnern zusammengeführt werden, so bildet der
#  Teilnehmer, der den höchsten Stein gezogen hat, eine Mannschaft mit demjenigen, der den dritthöchsten Stein
#  gezogen hat."  With §3: "Hoch" gegen "Niedrig", and [0-6] above [2-4] ("6-1 gilt also höher als 4-3").
def test_partners_drawn_before_each_match_of_the_movement():
    from analyzer.match.tournament import redrawn_pairs
    from analyzer.tiles import Tile
    drew = {9: Tile(0, 6), 10: Tile(2, 6), 4: Tile(2, 4), 11: Tile(2, 3)}     # 10, 9, 4, 11 from the highest
    assert set(redrawn_pairs(drew, set())) == {(9, 10), (4, 11)}
    assert set(redrawn_pairs(drew, {frozenset((4, 11))})) == {(4, 10), (9, 11)}    # 4 and 11 were partners
    both = {frozenset((4, 11)), frozenset((4, 10))}
    assert set(redrawn_pairs(drew, both)) == {(4, 10), (9, 11)}                      # the text's rule stands
    assert set(redrawn_pairs(drew, both, fresh=True)) == {(10, 11), (4, 9)}          # the other reading
    text = (RECORDS / "tournament-redraw.tour").read_text()
    t = parse_tournament(text)
    assert check_tournament(t) == [] and len(t.rounds()) == 4
    assert "table 1: 4-10 vs 9-11 130 86 drew 9 [0-6], 10 [2-6], 4 [2-4], 11 [2-3]" in text   # round 2
    wrong = parse_tournament(text.replace("table 1: 4-10 vs 9-11", "table 1: 9-10 vs 4-11"))
    found = check_tournament(wrong)           # plain "Hoch gegen Niedrig" (the winners change, so the movement too)
    (err,) = [d for d in found if d.code != "tournament-movement"]
    assert err.code == "tournament-partners" and "4-10 vs 9-11" in err.message
    assert err.line == text.splitlines().index("round 2") + 2
    bare = parse_tournament(text.replace(" drew 9 [0-6], 10 [2-6], 4 [2-4], 11 [2-3]", ""))
    assert [(d.code, d.severity) for d in check_tournament(bare)] == [("tournament-draw", "warning")]
    odd = parse_tournament(text.replace("drew 9 [0-6], 10 [2-6]", "drew 9 [0-6], 1 [2-6]"))
    assert [d.code for d in check_tournament(odd)] == ["tournament-draw"]


def test_the_tournament_command_reports_a_missing_draw_as_a_warning(tmp_path):
    from click.testing import CliRunner
    from analyzer.cli import main
    bare = tmp_path / "bare.tour"
    bare.write_text((RECORDS / "tournament-redraw.tour").read_text()
                    .replace(" drew 9 [0-6], 10 [2-6], 4 [2-4], 11 [2-3]", ""))
    out = CliRunner().invoke(main, ["tournament", str(bare)])
    assert out.exit_code == 0 and "warning[tournament-draw]" in out.output and "agrees with its scheme" in out.output


def _run(path, *options):
    from click.testing import CliRunner
    from analyzer.cli import main
    out = CliRunner().invoke(main, ["tournament", *options, str(path)])
    assert "Traceback" not in out.output and "internal error" not in out.output
    return out


def test_the_tournament_command_reports_a_file_that_is_not_utf8_as_the_record_commands_do(tmp_path):
    latin = tmp_path / "latin1.tour"
    latin.write_bytes('[Event "Caf\u00e9"]\n'.encode("latin-1"))
    out = _run(latin)
    assert out.exit_code == 1 and f"{latin}:1:12: error[not-utf8]" in out.output and "0xE9" in out.output
    binary = tmp_path / "nul.tour"
    binary.write_bytes(b'[Scheme "8"]\0\n')
    out = _run(binary)
    assert out.exit_code == 1 and "error[binary]" in out.output


def test_the_tournament_command_reads_a_file_with_a_byte_order_mark(tmp_path):
    text = (RECORDS / "tournament-8.tour").read_text()
    bom = tmp_path / "bom.tour"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    out = _run(bom)
    assert out.exit_code == 0 and "agrees with its scheme" in out.output and "Hanna" in out.output
    bom.write_bytes(b"\xef\xbb\xbf" + text.replace("table 1: 1-6 vs 2-5", "table 1: 1-2 vs 6-5").encode())
    out = _run(bom)                     # the lines are counted as before, and the first one is read
    problems = [line for line in out.output.splitlines() if "error[" in line]
    assert out.exit_code == 1 and len(problems) == 1 and f"{bom}:6:1: error[tournament-scheme]" in problems[0]


def _lines(text):
    return text.split("\n")


def test_a_scheme_or_number_that_is_no_number_is_an_error_at_its_line(tmp_path):
    text = (RECORDS / "tournament-8.tour").read_text()
    # '²' passes str.isdigit() but not int(); the other problems of the file are still found
    bad = text.replace('[Scheme "8"]', '[Scheme "\u00b2"]').replace("round 3\n", "round 3\ntabel 3: 1-2 vs 3-4\n")
    found = check_tournament(parse_tournament(bad))
    assert [(d.code, d.line) for d in found] == [("tournament-scheme", 3), ("tournament-syntax", 12)]
    assert "'\u00b2'" in found[0].message and "4, 5, 8, 12" in found[0].message
    path = tmp_path / "scheme.tour"
    path.write_text(bad)
    out = _run(path)
    assert out.exit_code == 1 and f"{path}:3:1: error[tournament-scheme]" in out.output
    assert f"{path}:12:1: error[tournament-syntax]" in out.output


def test_a_number_too_long_to_read_is_an_error_at_its_place(tmp_path):
    text = (RECORDS / "tournament-8.tour").read_text()
    huge = "9" * 5000                   # int() refuses it (and its sums could not be printed)
    bad = text.replace("table 2: 3-8 vs 4-7 129 67", f"table 2: 3-8 vs 4-7 {huge} 67")
    bad = bad.replace("table 1: 1-2 vs 3-4", "table 1: 1-3 vs 2-4")              # round 4: a scheme error
    found = check_tournament(parse_tournament(bad))
    assert [(d.code, d.line, d.column) for d in found] == [("tournament-table", 5, 1), ("tournament-number", 7, 21),
                                                          ("tournament-scheme", 15, 1)]     # table 2 is not read
    assert "5000 digits" in found[1].message and "at most 9" in found[1].message
    # a round whose number cannot be read: its tables are not put into the round before
    rnd = text.replace("round 2\n", f"round {huge}\n")
    found = [(d.code, d.line) for d in check_tournament(parse_tournament(rnd))]
    assert ("tournament-number", 8) in found and "tournament-seat" not in [code for code, _ in found]
    mixed = (RECORDS / "tournament-mixed.tour").read_text()
    ladies = parse_tournament(mixed.replace('[Ladies "2, 4, 6, 8"]', f'[Ladies "2, 4, {huge}, 8"]'))
    (err,) = check_tournament(ladies)
    assert err.code == "tournament-mixed" and err.line == _lines(mixed).index('[Ladies "2, 4, 6, 8"]') + 1
    assert "cannot read" in err.message
    path = tmp_path / "huge.tour"
    path.write_text(bad)
    out = _run(path)
    assert out.exit_code == 1 and f"{path}:7:21: error[tournament-number]" in out.output


def _drop(text, line):
    lines = _lines(text)
    assert line in lines
    lines.remove(line)
    return "\n".join(lines)


def test_a_round_of_the_movement_without_one_of_its_tables(tmp_path):
    text = (RECORDS / "tournament-movement.tour").read_text()
    gone = _drop(text, "table 1: 1-3 vs 5-8 82 107")                                 # round 2, line 9
    gone = gone.replace("table 2: 11-12 vs 2-4 74 104", "table 2: 11-12 vs 5-8 74 104")  # round 4: 2-4 and
    gone = gone.replace("table 3: 5-8 vs 9-10 130 65", "table 3: 2-4 vs 9-10 130 65")    # 5-8 change tables
    gone += "tabel 4: 1-2 vs 3-4\n"
    found = check_tournament(parse_tournament(gone))
    assert [(d.code, d.line) for d in found] == [("tournament-table", 8), ("tournament-movement", 17),
                                                 ("tournament-movement", 18), ("tournament-syntax", 19)]
    assert found[0].message.startswith("round 2 has no table 1") and "1 to 3" in found[0].message
    path = tmp_path / "missing-table.tour"
    path.write_text(gone)
    out = _run(path)
    assert out.exit_code == 1 and f"{path}:8:1: error[tournament-table] round 2 has no table 1" in out.output
    assert "4 errors" in out.output


def test_a_table_the_movement_has_not_is_worded_as_such(tmp_path):
    text = (RECORDS / "tournament-movement.tour").read_text()
    typo = text.replace("table 2: 6-7 vs 9-10 128 80", "table 22: 6-7 vs 9-10 128 80")     # round 2, line 10
    typo = typo.replace("table 2: 11-12 vs 2-4 74 104", "table 2: 11-12 vs 5-8 74 104")
    typo = typo.replace("table 3: 5-8 vs 9-10 130 65", "table 3: 2-4 vs 9-10 130 65")
    found = check_tournament(parse_tournament(typo))
    assert [(d.code, d.line) for d in found] == [("tournament-table", 8), ("tournament-table", 10),
                                                 ("tournament-movement", 18), ("tournament-movement", 19)]
    assert found[0].message.startswith("round 2 has no table 2")
    assert found[1].message.startswith("round 2, table 22: the movement of §13 keeps the tables, here 1 to 3")
    assert not any("  " in d.message or d.message.endswith(" ") for d in found)
    assert "seats 2, 4, 11, 12 here" in found[2].message     # 3: its losers stay, table 3's winners come


def test_a_round_of_a_scheme_without_one_of_its_tables_or_with_a_table_0(tmp_path):
    text = (RECORDS / "tournament-8.tour").read_text()
    gone = _drop(text, "table 1: 2-3 vs 5-8 102 94")                                 # round 2 (line 8)
    gone = gone.replace("table 1: 1-8 vs 3-6", "table 1: 1-3 vs 8-6")                 # round 3: now line 11
    found = check_tournament(parse_tournament(gone))
    assert [(d.code, d.line) for d in found] == [("tournament-table", 8), ("tournament-scheme", 11)]
    assert found[0].message == "round 2 has no table 1 (the scheme for 8 players has 2-3 vs 5-8 there)"
    zero = text.replace("table 2: 3-8 vs 4-7", "table 0: 3-8 vs 4-7")               # was taken for table 2
    found = check_tournament(parse_tournament(zero))
    assert [(d.code, d.line) for d in found] == [("tournament-table", 5), ("tournament-scheme", 7)]
    assert "no table 2" in found[0].message and "table 0" in found[1].message and "no such table" in found[1].message
    twice = text.replace("table 2: 3-8 vs 4-7 129 67", "table 1: 3-8 vs 4-7 129 67")
    found = check_tournament(parse_tournament(twice))
    assert [(d.code, d.line) for d in found] == [("tournament-table", 5), ("tournament-table", 7),
                                                 ("tournament-scheme", 7)]
    assert "table 1 is given twice (line 6 and here)" in found[1].message


def test_a_file_without_rounds_or_with_rounds_out_of_place(tmp_path):
    tags = "".join(line + "\n" for line in _lines((RECORDS / "tournament-movement.tour").read_text())
                   if line.startswith("["))
    (err,) = check_tournament(parse_tournament(tags))
    assert err.code == "tournament-rounds" and err.line is None and "no rounds" in err.message
    path = tmp_path / "tags.tour"
    path.write_text(tags)
    out = _run(path)
    assert out.exit_code == 1 and "no rounds" in out.output and "agrees" not in out.output
    path.write_text("")
    out = _run(path)
    assert out.exit_code == 1 and "no rounds" in out.output and "no Scheme tag" in out.output
    text = (RECORDS / "tournament-movement.tour").read_text()
    # round 3 lost its line: its tables join round 2, each number twice; round 4 is no longer checked
    # against a round 3, which the file has not
    merged = _drop(text, "round 3")
    found = [d for d in check_tournament(parse_tournament(merged)) if d.code != "tournament-seat"]
    assert [(d.code, d.line) for d in found] == [
        ("tournament-rounds", None), ("tournament-table", 12), ("tournament-table", 13), ("tournament-table", 14)]
    assert found[0].message.startswith("the file has no round 3")
    assert "table 1 is given twice (line 9 and here)" in found[1].message
    empty = text.replace("round 3\n", "round 3\nround 3\n").replace("round 4\n", "table 1: 1-2 vs 3-4\nround 4\n", 1)
    found = check_tournament(parse_tournament("table 1: 1-2 vs 3-4\n" + empty))
    assert [(d.code, d.line) for d in found] == [("tournament-syntax", 1), ("tournament-rounds", 14),
                                                 ("tournament-seat", 18), ("tournament-table", 18)]
    assert "a table before the first round" in found[0].message
    assert "round 3 is given twice (line 13 and here)" in found[1].message
    first = parse_tournament("round 1\nround 2\ntable 1: 1-2 vs 3-4 10 20\n")
    assert [(d.code, d.line, d.message) for d in first.errors] == [
        ("tournament-rounds", 1, 'round 1 has no tables ("table 1: 1-6 vs 2-5 45 80" under it)')]


def test_tags_given_twice_or_with_a_value_not_read_are_said_at_their_lines(tmp_path):
    text = (RECORDS / "tournament-8.tour").read_text()
    tags = text.replace('[Scheme "8"]', '[Scheme "8"]\n[Pairs "mixd"]\n[Ladies "2, 4, 6, 8"]\n[Scheme "8"]')
    tags = tags.replace("table 1: 1-8 vs 3-6", "table 1: 1-3 vs 8-6")                   # round 3 (line 15)
    found = check_tournament(parse_tournament(tags))
    assert [(d.severity, d.code, d.line) for d in found] == [
        ("error", "tournament-syntax", 4), ("warning", "tournament-mixed", 5), ("warning", "duplicate-tag", 6),
        ("error", "tournament-scheme", 15)]
    assert "'mixd'" in found[0].message and "Pairs" in found[0].message
    assert "Scheme tag is given twice (line 3 and here)" in found[2].message
    path = tmp_path / "tags.tour"
    path.write_text(tags)
    out = _run(path)
    assert out.exit_code == 1 and out.output.splitlines()[4].endswith(": 8 scheme, 7 rounds: 2 errors")
    path.write_text(text.replace("table 1: 1-8 vs 3-6", "table 1: 1-3 vs 8-6"))
    assert _run(path).output.splitlines()[1].endswith(": 8 scheme, 7 rounds: 1 error")


def test_players_of_the_same_name_keep_their_own_rounds_in_the_standings(tmp_path):
    path = tmp_path / "names.tour"
    path.write_text((RECORDS / "tournament-8.tour").read_text().replace("2 Bert", "2 Anna"))
    out = _run(path)
    rows = [line.split() for line in out.output.splitlines() if line.strip().startswith(("6.", "8."))]
    assert [row[1] for row in rows] == ["Anna", "Anna"]
    for row in rows:                   # each total is the sum of the rounds shown with it
        assert int(row[2]) == sum(int(v) for v in " ".join(row[3:]).strip("()").split())


def test_tiles_drawn_or_a_partners_tag_that_are_not_checked_are_said_so():
    redraw = (RECORDS / "tournament-redraw.tour").read_text()
    bare = "\n".join(line for line in _lines(redraw) if not line.startswith("[Partners"))
    first = next(k for k, line in enumerate(_lines(bare), 1) if " drew " in line)
    found = check_tournament(parse_tournament(bare + "tabel 9\n"))
    assert [(d.severity, d.code, d.line) for d in found] == [("warning", "tournament-draw", first),
                                                               ("error", "tournament-syntax", len(_lines(bare)))]
    assert "12 tables from here" in found[0].message and "not checked" in found[0].message
    mixed = (RECORDS / "tournament-mixed.tour").read_text().replace('[Pairs "mixed"]',
                                                                      '[Pairs "mixed"]\n[Partners "redraw"]')
    line = _lines(mixed).index('[Partners "redraw"]') + 1
    found = check_tournament(parse_tournament(mixed.replace("table 1: 1-6 vs 2-5", "table 1: 1-2 vs 6-5")))
    assert [(d.severity, d.code, d.line) for d in found] == [("warning", "tournament-draw", line),
                                                               ("error", "tournament-scheme",
                                                                _lines(mixed).index("round 1") + 2)]


def test_a_tied_table_scores_0_and_one_without_points_is_shown_unknown_in_every_output(tmp_path):
    """§9: the pair with fewer bad points wins, and each loser pays the difference: two pairs that end
    equal exchange nothing (0 each, a round the players sat in), and a table that gives no points
    leaves that round unknown; the rounds keep their places in the text, JSON and CSV alike."""
    import csv
    import io
    import json

    text = (RECORDS / "tournament-8.tour").read_text()
    text = text.replace("table 1: 1-6 vs 2-5 118 50", "table 1: 1-6 vs 2-5 90 90")     # round 1: a tie
    text = text.replace("table 2: 1-4 vs 6-7 108 80", "table 2: 1-4 vs 6-7")           # round 2: no points
    text = text.replace("1 Anna", "1 =HYPERLINK(\"x\")")
    path = tmp_path / "t.tour"
    path.write_text(text)
    t = parse_tournament(text)
    expected = {1: 0, 2: None, 3: 78}       # Anna (1) in rounds 1-3: the tie, no points, a win (44 against 122)
    got = json.loads(_run(path, "--json").output)
    anna = next(row for row in got["standings"] if row["number"] == 1)
    assert {int(r): v for r, v in anna["rounds"].items() if int(r) <= 3} == expected
    assert anna["total"] == sum(v for v in anna["rounds"].values() if v is not None) == sum(tallies(t)[1])
    assert anna["rounds"]["1"] == next(r for r in got["standings"] if r["number"] == 2)["rounds"]["1"] == 0
    line = next(line for line in _run(path).output.splitlines() if "HYPERLINK" in line)
    assert line.split("(")[-1].split()[:3] == ["+0", "?", "+78"]
    rows = list(csv.DictReader(io.StringIO(_run(path, "--csv").stdout)))
    row = next(r for r in rows if r["number"] == "1")
    assert row["player"].startswith("'=") and (row["round 1"], row["round 2"], row["round 3"]) == ("0", "", "78")
    assert len(rows) == 8 and int(row["total"]) == anna["total"]
    assert _run(path, "--json", "--csv").exit_code == 2


# §13: "Sollen die Partnerschaften nach jeder Runde gewechselt werden, so wird vor jeder Partie gelost": the
#  pairs of a movement without that draw keep their partners from round to round.
def test_the_movement_keeps_partners_unless_they_are_drawn():
    text = (RECORDS / "tournament-movement.tour").read_text()
    assert check_tournament(parse_tournament(text)) == []
    # round 2, table 1: the pairs 1-3 and 5-8 meet; written as 1-5 vs 3-8 they changed partners, undrawn
    mixed = parse_tournament(text.replace("table 1: 1-3 vs 5-8 82 107", "table 1: 1-5 vs 3-8 82 107"))
    found = [d for d in check_tournament(mixed) if d.line == 9]     # (the rounds after it move them on too)
    assert [d.code for d in found] == ["tournament-partners", "tournament-partners"]
    assert "1-5 play together, but in round 1 1 partnered 3 and 5 partnered 8" in found[0].message
    assert "gelost" in found[0].message
    # the same change with partners drawn before each match is the redraw's business (checked by the tiles)
    drawn = parse_tournament(text.replace('[Scheme "movement"]', '[Scheme "movement"]\n[Partners "redraw"]')
                             .replace("table 1: 1-3 vs 5-8 82 107", "table 1: 1-5 vs 3-8 82 107"))
    assert "tournament-partners" not in [d.code for d in check_tournament(drawn)]
