"""Domino Whist §8, irregularities, on the book's example deal (seed 001's rules, seed 000's deal)."""
from analyzer.notation import parse
from analyzer.match import replay_record
from analyzer.rules import find_variant
from conftest import SEED_DEAL

ROUNDS_1_2 = "1. B [1-1] C pass D [1-5]\n2. A [1-4] B pass"   # the open ends are then 4 and 5


def whist(tags: str, moves: str):
    (rep,) = replay_record(parse(f'[Variant "whist"]\n[Players "A, B, C, D"]\n{tags}\n{SEED_DEAL}\n{moves}'))
    return rep


# "Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
#  Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht
#  angelegt werden kann, gespielt werden."
def test_an_exposed_tile_must_be_played_at_the_first_legal_chance():
    rep = whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-5]@5")
    (err,) = [d for d in rep.errors if d.code == "exposed-tile"]
    assert err.line == 9 and "[4-6]" in err.message and "Aufgedeckte Steine" in err.message
    assert err in rep.steps[-1].diagnostics
    # played at once, it is fine; and a chance that has passed does not come back
    assert whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-6]").valid
    assert not [d for d in whist('[Exposed "C [4-6]"]', ROUNDS_1_2 + " C [4-5] D [0-4]\n3. A [0-5] B pass C [2-5]")
                .errors if d.code == "exposed-tile" and d.line != 9]


def test_an_exposed_tile_that_does_not_fit_waits_for_its_chance():
    # C passes on the 1s in round 1 although [4-6] is exposed: it did not fit, so no fault
    rep = whist('[Exposed "C [4-6]"]', "1. B [1-1] C pass")
    assert rep.valid


def test_the_exposed_tag_must_name_a_tile_the_player_was_dealt():
    rep = whist('[Exposed "C [1-1]"]', "1. B [1-1]")
    assert [d.code for d in rep.errors] == ["bad-exposed"]
    rep = whist('[Exposed "C four-six"]', "1. B [1-1]")
    assert [d.code for d in rep.errors] == ["bad-exposed"]


# "Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
#  Stein offen auf dem Tisch liegen bleiben": a tile exposed during play binds from that moment, not
#  from the start: ``[Exposed "C [4-6] from 3"]``.
def test_a_tile_exposed_during_play_binds_only_from_the_row_it_was_exposed():
    moves = ROUNDS_1_2 + " C [4-5]@5 D [0-4]\n3. A [0-5] B pass C [2-5]"
    # exposed before play: C should have played [4-6] in row 2 (on the 4)
    assert [d.line for d in whist('[Exposed "C [4-6]"]', moves).errors if d.code == "exposed-tile"] == [9]
    # exposed in row 3: row 2 is free, but in row 3 the [4-6] fits the 4 and C plays [2-5]
    rep = whist('[Exposed "C [4-6] from 3"]', moves)
    (err,) = [d for d in rep.errors if d.code == "exposed-tile"]
    assert err.line == 10 and "before row 3" in err.message
    assert whist('[Exposed "C [4-6] from 4"]', moves).valid
    assert [d.code for d in whist('[Exposed "C [4-6] from x"]', moves).errors] == ["bad-exposed"]


# §3: "Einander gegenüber sitzende Spieler sind Partner für die Dauer einer Partie. So wie beim
#  Kartenspiel Whist spielt 'Hoch' gegen 'Niedrig'. Ziehen zwei Spieler Steine mit derselben
#  Augensumme, z.B. 4-3 und 6-1, so entscheidet die höchste einzelne Zahl, 6-1 gilt also höher als 4-3."
def test_the_seat_draw_decides_the_partnerships_and_the_first_leader():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.rules import SeatDraw
    draw = SeatDraw.parse("A [0-1], B [1-6], C [0-2], D [3-4]")
    assert draw.ranked()[:2] == ["B", "D"] and draw.teams() == (("B", "D"), ("C", "A"))
    (rep,) = replay_record(read(RECORDS / "whist-seat-draw.dom"))
    assert rep.valid and rep.match.lead_rule.startswith("§3")
    text = (RECORDS / "whist-seat-draw.dom").read_text()
    # B and C drawn high would have to sit opposite each other
    (rep,) = replay_record(parse(text.replace("C [0-2], D [3-4]", "C [3-4], D [0-2]")))
    assert [d.code for d in rep.errors] == ["seat-draw"]
    # D drawn highest: D leads the first game, not B
    (rep,) = replay_record(parse(text.replace("B [1-6], C [0-2], D [3-4]", "B [3-4], C [0-2], D [1-6]")))
    assert [d.code for d in rep.errors][:1] == ["lead-player"]
    # the whist cut: the highest deals and the next player leads
    (rep,) = replay_record(parse(text.replace('[Variant "whist"]', '[Variant "whist"]\n[Rules "seat-lead=after-highest"]')))
    assert "lead-player" in [d.code for d in rep.errors]
    (rep,) = replay_record(parse(text.replace("D [3-4]", "D [3-4], E [0-0]")))
    assert [d.code for d in rep.errors] == ["bad-seat-draw"]


# §10: "Die zwei hohen Steine bilden eine Partnerschaft gegen die drei niederen Steine ... Beim ersten
#  Spiel pausiert der mit dem niedersten Stein, beim zweiten Spiel der mit dem nächst höheren, usf."
#  §11: "Beim ersten Spiel pausieren die beiden Spieler, die die niedersten Steine gezogen haben, beim
#  zweiten Spiel die nächst höheren usf."
def test_five_and_six_players_sit_out_in_turn():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.rules import SeatDraw
    five = SeatDraw.parse("A [5-6], B [1-2], C [3-6], D [0-4], E [2-3]")
    assert five.teams() == (("A", "C"), ("E", "D", "B"))
    assert [five.sitting_out(k) for k in range(1, 5)] == [("B",), ("D",), ("E",), ("B",)]
    six = SeatDraw.parse("A [5-6], B [1-2], C [3-6], D [0-4], E [2-3], F [6-6]")
    assert six.teams() == (("F", "A", "C"), ("E", "D", "B"))
    assert [six.sitting_out(k) for k in (1, 2, 3)] == [("C", "B"), ("A", "D"), ("F", "E")]
    reps = replay_record(read(RECORDS / "match-whist-five.dom"))
    assert all(r.valid for r in reps) and [r.players for r in reps][1] == ("A", "B", "C", "E")
    text = (RECORDS / "match-whist-five.dom").read_text()
    reps = replay_record(parse(text.replace('[Players "A, B, C, E"]', '[Players "A, D, C, E"]')
                               .replace("\nB: ", "\nD: ", 1)))
    assert "sit-out" in [d.code for d in reps[1].errors]


# §5: "Das Eröffnen wechselt nach jedem Spiel im Uhrzeiger: Das zweite Spiel eröffnet daher der Spieler zur
#  Linken von Vorhand, das dritte der Partner von Vorhand, usw." §10 and §11 change who sits at the table,
#  not this: the lead goes round the seats, and the player who comes back sits where the one now pausing sat
#  (the partners sit opposite), so when the next seat's player pauses, the one in his seat leads.
def test_five_and_six_players_pass_the_lead_round_the_seats():
    from conftest import RECORDS
    from analyzer.match import _Prev, next_requirement
    from analyzer.notation import read
    from analyzer.rules import HandResult
    text = (RECORDS / "match-whist-five.dom").read_text()
    reps = replay_record(read(RECORDS / "match-whist-five.dom"))
    # game 1: A leads, D sits on his left; game 2: D pauses, B has his seat and leads; game 3: C, after B
    assert [r.players[r.initial.turn] for r in reps] == ["A", "B", "C"] and all(r.valid for r in reps)
    assert "D pauses this game" in reps[1].match.lead_rule
    (game3,) = [r for r in replay_record(parse(text.replace('[Lead "C"]', '[Lead "B"]')
                                                   .replace("1. C [4-6] D [6-6]", "1. B [2-6] C [4-6] D [6-6]")))
                if r.game.number == 3]
    (err,) = [d for d in game3.errors if d.code == "lead-player"]
    assert err.details["expected"] == "C"
    # six (§11): F/A/C against E/D/B; the last game's table was A, E, C, D (F and B paused)
    six = find_variant("whist", {"players": "6"})
    won = HandResult("domino", 0, 10, 0)
    for leader, now, expected in [
            (0, ("A", "E", "F", "B"), "E"),     # A led, E on his left plays again: E leads
            (0, ("A", "B", "F", "D"), "B"),     # E pauses: B comes back to his seat, opposite D, and leads
            (3, ("F", "B", "C", "D"), "F"),     # D led, A on his left pauses: F has his seat, opposite C
            (3, ("C", "D", "F", "B"), "F")]:    # the same table written from another seat
        last = _Prev(("A", "E", "C", "D"), won, None, leader)
        req = next_requirement(six, last, six.match.start(2), now)
        assert {now[s] for s in req.seats} == {expected}, (leader, now)


# §9: "Die Partei mit der geringeren Zahl von Schlechtpunkten ist Sieger. Jeder Spieler der verlierenden
#  Partei zahlt an einen der Gewinner den der Punktedifferenz entsprechenden Betrag."  §10: "Jeder Spieler
#  der Zweier-Mannschaft gewinnt bzw. verliert den der Punktedifferenz entsprechenden Betrag. Jeder
#  Spieler der Dreier-Mannschaft gewinnt bzw. verliert jedoch nur zwei Drittel".  §11: "Am Ende der
#  Partie zahlt jeder der drei Verlierer an einen der drei Gewinner die errechnete Differenz."
def test_the_settlement_of_a_match():
    from fractions import Fraction
    from analyzer.match import random_match, replay_match
    from analyzer.rules.matchplay import settlement
    assert settlement((88, 105), 0, (("A", "C"), ("B", "D")), 4) == {"A": 17, "C": 17, "B": -17, "D": -17}
    five = settlement((100, 40), 1, (("A", "C"), ("E", "D", "B")), 5)
    assert five == {"A": -60, "C": -60, "E": 40, "D": 40, "B": 40}
    assert settlement((100, 41), 1, (("A", "C"), ("E", "D", "B")), 5)["E"] == Fraction(118, 3)
    six = settlement((30, 101), 0, (("F", "A", "C"), ("E", "D", "B")), 6)
    assert set(six.values()) == {71, -71} and sum(six.values()) == 0
    for seed in range(3):
        report = replay_match(random_match("whist", seed, games=15).games)
        s = report.state
        assert s.over and s.winner is not None
        paid = report.settlement
        winners = {n for n, v in paid.items() if v > 0}
        assert set(report.winner.split("/")) == winners and set(paid.values()) == {abs(s.scores[0] - s.scores[1]),
                                                                                    -abs(s.scores[0] - s.scores[1])}
        assert any(d.code == "settlement" for d in report.replays[-1].diagnostics)
    assert replay_match(random_match("partnership", 0, games=15).games).settlement is None


# §8 "Fehlerhaftes Anlegen": "Legt ein Spieler einen Stein regelwidrig an, so muss er den Stein zurücknehmen
#  und den Fehler korrigieren ... Hat der nachfolgende Spieler bereits angelegt oder gepasst, so ist das
#  fehlerhafte Spiel gültig, und es kann keine Korrektur mehr verlangt werden."
def test_a_false_play_stands_once_the_next_player_has_moved():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.tiles import Move, Tile
    (rep,) = replay_record(read(RECORDS / "whist-false-play.dom"))
    assert rep.valid and rep.result.winner == 1 and rep.result.points == 13
    (stands,) = [d for d in rep.diagnostics if d.code == "false-play-stands"]
    assert stands.severity == "warning" and "Fehlerhaftes Anlegen" in stands.message
    false = next(s for s in rep.steps if s.entry.tile == Tile(3, 3))
    # (§6: D's [1-5] on B's [1-1] went on D's end, the second, so the line reads 4 ... 5)
    assert false.move == Move(Tile(3, 3), 5, open=3) and false.ends_before == (4, 5) and false.ends_after == (4, 3)
    assert Move.parse("[3-3]@5=3") == false.move and str(false.move) == "[3-3]@5=3"
    text = (RECORDS / "whist-false-play.dom").read_text()
    # without the tag nothing says where the tile lies: the false play is an error, and the tile stays in hand
    (rep,) = replay_record(parse(text.replace('[FalsePlay "C [3-3]@5=3"]\n', "")))
    assert "tile-no-match" in [d.code for d in rep.errors]
    # the tag must name an open end and a half of the tile
    (rep,) = replay_record(parse(text.replace("@5=3", "@6=3")))
    assert "tile-no-match" in [d.code for d in rep.errors]
    (rep,) = replay_record(parse(text.replace("@5=3", "@5")))
    assert "bad-false-play" in [d.code for d in rep.errors]


def test_a_false_play_not_yet_followed_by_the_next_player_does_not_stand():
    moves = "1. B [1-1] C pass D [1-5]\n2. A [1-4] B pass C [3-3]"
    rep = whist('[FalsePlay "C [3-3]@5=3"]', moves)
    assert "tile-no-match" in [d.code for d in rep.errors] and "false-play-stands" not in [d.code for d in rep.diagnostics]
    # in another variant the tag means nothing
    (rep,) = replay_record(parse(f'[FalsePlay "C [3-3]@5=3"]\n{SEED_DEAL}\n{moves} D [3-5]'))
    assert "tile-no-match" in [d.code for d in rep.errors]


# §12: "Beim Spiel zu viert besteht eine vollständige Progression aus drei Partien mit wechselnden
#  Partnerschaften. In der ersten Partie bilden die beiden hohen Steine eine Partnerschaft gegen die
#  beiden niedrigen Steine. Ist die erste Partie zu Ende, so bleibt derjenige Spieler, welcher beim
#  nächsten Einzelspiel die Vorhand hätte, an seinem Platz; er hat die Vorhand im ersten Spiel der zweiten
#  Partie. Nun bilden die Spieler, welche den höchsten und den dritthöchsten Stein gezogen haben, eine
#  Partnerschaft ... In der dritten Partie spielen nun die Spieler, die den höchsten und den niedrigsten
#  Stein gezogen haben, gegen die beiden übrigen."
def test_a_progression_of_three_matches_changes_partners_and_keeps_the_lead():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.rules import SeatDraw
    draw = SeatDraw.parse("A [0-1], B [1-6], C [0-2], D [3-4]")       # B, D, C, A from the highest
    assert [draw.teams(part)[0] for part in (1, 2, 3, 4)] == [("B", "D"), ("B", "C"), ("B", "A"), ("B", "D")]
    reps = replay_record(read(RECORDS / "match-whist-progression.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    starts = [k for k, r in enumerate(reps) if r.match.new_match]
    assert starts == [2, 5]
    for k in starts:      # the player who would have led the next game leads the next match's first
        before, first = reps[k - 1], reps[k]
        would = before.players[(before.initial.turn + 1) % 4]
        assert first.players[first.initial.turn] == would and first.match.lead_rule.startswith("§12")
    assert reps[3].side_name(0) == "B/C" and set(reps[5].side_name(1).split("/")) == {"A", "B"}
    text = (RECORDS / "match-whist-progression.dom").read_text()
    wrong = text.replace('[Players "B, A, C, D"]', '[Players "A, B, C, D"]')   # match 2 seated as match 1
    assert "seat-draw" in [d.code for d in replay_record(parse(wrong))[2].errors]
    plain = text.replace("progression=yes", "progression=no").replace('[Players "B, A, C, D"]', '[Players "A, B, C, D"]')
    assert "seat-draw" not in [d.code for r in replay_record(parse(plain)) for d in r.errors]


# §12: "Nehmen fünf Spieler teil, so benötigt man fünf Runden, und jeder Spieler muss einmal pausieren:
#  1-2 vs. 3-4 (Pause 5), 1-5 vs. 2-3 (4), 1-4 vs. 2-5 (3), 1-3 vs. 4-5 (2), 2-4 vs. 3-5 (1)", the players
#  numbered by the tiles drawn as in the four-player progression ("In der ersten Partie bilden die beiden
#  hohen Steine eine Partnerschaft gegen die beiden niedrigen Steine"; §10: "Vor Beginn der Partie zieht
#  jeder Spieler einen Stein").
def test_a_progression_of_five_matches_for_five_players():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.rules import SeatDraw
    draw = SeatDraw.parse("A [5-6], B [1-2], C [3-6], D [0-4], E [2-3]", progression=True)
    assert draw.ranked() == ["A", "C", "E", "D", "B"]                   # [2-3] (5 pips) above [0-4] (4)
    assert [draw.teams(k) for k in (1, 2)] == [(("A", "C"), ("E", "D")), (("A", "B"), ("C", "E"))]
    assert [draw.sitting_out(1, k) for k in range(1, 6)] == [("B",), ("D",), ("E",), ("C",), ("A",)]
    reps = replay_record(read(RECORDS / "match-whist-progression-five.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps if not r.valid]
    firsts = [k for k, r in enumerate(reps) if k == 0 or r.match.new_match]
    assert len(firsts) == 5
    paused = [({"A", "B", "C", "D", "E"} - set(reps[k].players)).pop() for k in firsts]
    assert paused == ["B", "D", "E", "C", "A"]                          # everyone pauses once
    for start, end in zip(firsts, firsts[1:] + [len(reps)]):
        assert {frozenset(r.players) for r in reps[start:end]} == {frozenset(reps[start].players)}
    last = reps[-1]
    paid = {d.code: d.details for d in last.diagnostics}["settlement"]["settlement"]
    diff = abs(last.match.state.scores[0] - last.match.state.scores[1])
    assert sorted(paid) == ["B", "C", "D", "E"] and {abs(int(v)) for v in paid.values()} == {diff}   # no two thirds
    text = (RECORDS / "match-whist-progression-five.dom").read_text()
    head, first, rest = text.partition('[Players "A, E, C, D"]')
    game1, _, rest = rest.partition('[Game "2"]')
    b_plays = game1.replace("\nD: ", "\nB: ").replace(" D ", " B ").replace("E/D", "E/B")
    (rep, *_) = replay_record(parse(head + '[Players "A, E, C, B"]' + b_plays + '[Game "2"]' + rest))
    assert [d.code for d in rep.errors] == ["sit-out"] and "pauses match 1" in rep.errors[0].message
    twice = text.replace("D [0-4]", "B [0-4]", 1)
    assert "bad-seat-draw" in [d.code for d in replay_record(parse(twice))[0].errors]
    k = text.index('[Players "A, C, B, E"]')
    wrong = text[:k] + '[Players "A, B, C, E"]' + text[k + len('[Players "A, C, B, E"]'):]
    assert "seat-draw" in [d.code for r in replay_record(parse(wrong)) for d in r.errors]


# §6: "Zeigen beide Enden der Kette die gleiche Augenzahl, so muss ein Spieler an dem Ende anlegen, das ihm
#  näher bzw. zu seiner Rechten liegt."  §5: "Beginnt Vorhand das Spiel mit einem einfachen Stein, so legt er
#  diesen Stein so in die Mitte des Tisches, dass die höhere Augenzahl zu seinem Partner weist. Beginnt
#  Vorhand mit einem Doppel, so legt er diesen Stein so in die Mitte des Tisches, dass die Enden zu den beiden
#  Gegnern zeigen."  The line runs from the leader (end 1) to his partner (end 2); play goes clockwise ("im
#  Uhrzeiger"), so the player after the leader has end 1 to his right, the fourth end 2.
def test_on_two_equal_ends_a_tile_goes_on_the_end_nearer_its_player_or_to_his_right():
    from conftest import RECORDS
    from analyzer.notation import read
    from analyzer.position import Position
    from analyzer.tiles import Move, Tile
    pos = Position([[Tile(2, 5)], [Tile(1, 2)], [Tile(2, 6)], [Tile(2, 3)]])
    pos.equal_side = 1
    pos.push(Move(Tile(2, 5)))                       # the leader: [2-5], its 5 toward his partner
    assert pos.ends == (2, 5)
    pos.push(Move(Tile(1, 2), 2))                    # the second player: on the leader's 2, end 1
    assert pos.ends == (1, 5) and [pos.equal_end(s) for s in range(4)] == [1, 1, 2, 2]
    (rep,) = replay_record(read(RECORDS / "whist-equal-ends.dom"))
    assert rep.valid and [d.code for d in rep.diagnostics if d.severity != "info"] == []
    d15 = rep.steps[2]
    assert d15.ends_before == (1, 1) and d15.ends_after == (1, 5)            # D's [1-5] on his end 2
    from analyzer.analysis import analyze
    (analysis,) = analyze(read(RECORDS / "whist-equal-ends.dom"))     # the end named is no other decision
    d15 = next(d for d in analysis.decisions if d.player == "D")
    assert d15.played == "[1-5]@1>2" and [a.move for a in d15.alternatives if a.played] == ["[1-5]@1"]
    # unrecorded ends follow the same rule: the line without >N is the same
    text = (RECORDS / "whist-equal-ends.dom").read_text()
    (bare,) = replay_record(parse(text.replace(">2", "")))
    assert [s.ends_after for s in bare.steps] == [s.ends_after for s in rep.steps]
    assert [s.ends_after for s in replay_record(parse(text.replace(">2", "").replace('"whist"', '"partnership"')
                                                      .replace("A/C 16", "A/C 46")))[0].steps][2] == (5, 1)
    # D's [1-5] on end 1: laid against §6, but A has moved since, so it stands (§8)
    (wrong,) = replay_record(parse(text.replace("D [1-5]>2", "D [1-5]>1")))
    (err,) = [d for d in wrong.diagnostics if d.code == "equal-ends"]
    assert err.severity == "warning" and "end 2" in err.message and wrong.steps[2].ends_after == (5, 1)
    assert wrong.result == rep.result                                       # the game is the same
    # as the last entry nobody has moved since: it must be taken back
    rep = whist("", "1. B [1-1] C pass D [1-5]>1")
    assert [(d.code, d.severity) for d in rep.errors] == [("equal-ends", "error")]
    assert [d.code for d in whist("", "1. B [1-1] C pass D [1-5]>3 A [1-4]").errors] == ["bad-arm"]
    assert [d.code for d in whist("", "1. B [1-1] C pass D [1-5]>2\n2. A [1-4]>2").errors] == ["end-mismatch"]
    # the other reading: a double lead lies lengthwise, its ends toward the opponents (C: end 1, A: end 2);
    # the leader B and his partner D take the end on their right: D end 1, B end 2
    (other,) = replay_record(parse(text.replace('[Variant "whist"]', '[Variant "whist"]\n[Rules "double-lead=lengthwise"]')))
    assert [d.message.split(":")[0] for d in other.diagnostics if d.code == "equal-ends"] == ["both ends show 1",
                                                                                              "both ends show 4"]
