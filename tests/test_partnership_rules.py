"""The rules of "Domino mit Partner" (000) that issue 16 found missing: a further match, the Great
Lakes [0-0] in a block, Doscientos' last-or-right leader and handing the lead over, and the South
American re-deal on five doubles."""
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.rules import HandFacts, find_variant
from analyzer.tiles import Tile
from conftest import RECORDS

T = Tile.parse
SEED2_MOVES = """1. B [1-1] C pass D [1-5]
2. A [1-4] B pass C [4-5]@5 D [0-4]
3. A [0-5] B pass C [2-5] D [1-2]
4. A [4-4] B [0-1] C [0-2] D pass
5. A [2-2] B [2-6] C [4-6]@6 D pass
6. A [3-4] B [2-3] C [2-4]@2"""


def codes(rep, severity="error"):
    return [d.code for d in rep.diagnostics if d.severity == severity]


# "Wenn die  Spieler eine weitere Partie spielen möchten, dann wird das erste Spiel der neuen Partie von
#  dem Spieler begonnen, der rechts von dem Spieler sitzt, der die vorherige Partie begonnen hatte, und
#  dieser Spieler kann das Spiel mit einem beliebigen Stein eröffnen."
def test_a_further_match_is_led_by_the_player_right_of_the_last_first_leader_with_any_tile():
    reps = replay_record(read(RECORDS / "match-further.dom"))
    assert [r.valid for r in reps] == [True, True, True], [r.errors for r in reps]
    assert reps[1].match.state.over and reps[2].match.new_match
    assert reps[0].players[reps[0].initial.turn] == "D" and reps[2].players[reps[2].initial.turn] == "A"
    assert reps[2].steps[0].move.tile == T("[3-6]") and T("[6-6]") in reps[2].game.hand_of("C").tiles
    assert "right" in reps[2].match.lead_rule


def test_in_a_further_match_the_six_six_holder_or_any_other_player_is_a_wrong_leader():
    text = (RECORDS / "match-further.dom").read_text()
    last = text.rindex('[Lead "A"]')
    for number in ("1", "2", "7"):     # however the record numbers the new match's games
        t = text[:last] + text[last:].replace('[Lead "A"]', '[Lead "B"]').replace(
            "1. A [3-6] B [3-3] C [3-4] D [2-6]", "1. B [3-3] C [3-4] D [2-6] A [3-6]")
        head = t.rindex('[Game "1"]')
        t = t[:head] + t[head:].replace('[Game "1"]', f'[Game "{number}"]', 1)
        reps = replay_record(parse(t))
        assert "lead-player" in codes(reps[2]), number
        assert "A must lead" in next(d.message for d in reps[2].errors if d.code == "lead-player")


# "Es gibt eine Variante, bei der [0-0] 50 Punkte zählt und nicht null Punkte, die nötige Punktzahl zum
#  Gewinn einer Partie ist dann 101."  The tile counts 50 wherever pips are counted (default); the
#  other reading (blank-count=score) counts it only in the winners' score.
def test_great_lakes_double_blank_counts_fifty_when_a_block_is_decided():
    v = find_variant("great-lakes-101")
    blank = T("[0-0]").bit
    f = HandFacts("blocked", 2, (11, 17, 15, 33), (2, 3, 2, 4), 1, hands=(blank | T("[5-6]").bit, 0, 0, 0))
    r = v.hand_result(f)
    assert r.winner == 1 and r.points == 11 + 17 + 15 + 33 + 50           # 76 against 50: B/D win
    other = find_variant("great-lakes-101", "blank-count=score").hand_result(f)
    assert other.winner == 0 and other.points == 126                       # 26 against 50: A/C win
    reps = replay_record(read(RECORDS / "variant-great-lakes-blank.dom"))
    assert reps[0].valid and reps[0].result.winner == 1 and reps[0].result.points == 126
    (rep,) = replay_record(read(RECORDS / "variant-great-lakes-blank.dom"), rules={"blank-count": "score"})
    assert "result-mismatch" in codes(rep)


# Doscientos: "Bei jedem gesperrten Spiel – selbst dann, wenn es nicht unentschieden ist – ist der
#  Gewinner der Spieler, der den letzten Stein gesetzt hat oder der Spieler zu seiner Rechten, wer auch
#  immer die geringere Punktzahl hat" and "der Gewinner eines Spieles spielt im nächsten Spiel als erster".
def test_doscientos_the_player_who_wins_a_last_or_right_block_leads_next():
    v = find_variant("doscientos", "block=last-or-right")
    f = HandFacts("blocked", 2, (11, 17, 15, 33), (2, 3, 2, 4), 1)
    r = v.hand_result(f)
    assert r.winner == 0 and v.lead.requirement(1, r, f, v.seating).seats == {2}      # C, not A (11)
    assert find_variant("doscientos").lead.requirement(1, r, f, v.seating).seats == {0}
    reps = replay_record(read(RECORDS / "match-doscientos-block.dom"))
    assert [x.valid for x in reps] == [True, True]
    t = (RECORDS / "match-doscientos-block.dom").read_text().replace("block=last-or-right, ", "")
    assert "lead-player" in codes(replay_record(parse(t))[1])


# Doscientos: "Es kommt auch vor (wenn man sich vor dem Spiel darauf einigt), dass bei jedem Spiel der
#  Spieler, der das Recht des ersten Ausspiels hat, das Ausspiel seinem Partner überlässt, der mit jedem
#  beliebigen Stein beginnen kann."
def test_doscientos_the_leader_may_hand_the_lead_to_his_partner_when_agreed():
    text = (RECORDS / "variant-doscientos-handover.dom").read_text()
    (rep,) = replay_record(parse(text))
    assert rep.valid and rep.steps[0].move.tile == T("[1-1]") and rep.players[rep.initial.turn] == "B"
    (rep,) = replay_record(parse(text.replace('[Rules "hand-over=yes"]\n', "")))        # not agreed
    assert {"lead-handover", "lead-player"} <= set(codes(rep))
    (rep,) = replay_record(parse(text.replace('[LeadFrom "D"]', '[LeadFrom "A"]')))      # A has no lead
    assert "lead-handover" in codes(rep)
    (rep,) = replay_record(parse(text.replace('[LeadFrom "D"]\n', "")))                 # the record must say so
    assert "lead-player" in codes(rep)


# South American: "Wenn ein Spieler fünf oder mehr Doppelsteine bekommen hat, werden die Steine
#  zusammengeworfen und es wird noch einmal gegeben."  (000 otherwise: "er kann darauf fordern")
FIVE_DOUBLES = {"A": "[0-3] [0-4] [0-5] [0-6] [1-2] [1-3] [5-5]", "B": "[1-4] [1-5] [1-6] [2-3] [2-4] [2-5] [6-6]",
                "C": "[0-0] [0-1] [0-2] [1-1] [2-2] [3-3] [4-4]", "D": "[2-6] [3-4] [3-5] [3-6] [4-5] [4-6] [5-6]"}


def test_south_american_five_doubles_force_a_new_deal():
    deal = "\n".join(f"{p}: {t}" for p, t in FIVE_DOUBLES.items())
    (rep,) = replay_record(parse(f'[Variant "south-american"]\n{deal}\n1. B [6-6]'))
    assert [d.severity for d in rep.diagnostics if d.code == "redeal"] == ["error"]
    (rep,) = replay_record(parse(f'[Rules "redeal=5"]\n{deal}\n1. B [6-6]'))           # "kann fordern"
    assert [d.severity for d in rep.diagnostics if d.code == "redeal"] == ["warning"] and rep.valid


def test_a_redeal_inside_a_match_counts_for_nothing_and_is_checked():
    reps = replay_record(read(RECORDS / "match-south-american-redeal.dom"))
    assert [r.valid for r in reps] == [True, True] and reps[0].redealt and reps[0].result is None
    assert reps[0].match.state.games == 0 and reps[1].match.number == 1 and reps[1].match.state.wins == (0, 1)
    assert "redeal-game" in codes(reps[0], "info")
    text = (RECORDS / "match-south-american-redeal.dom").read_text()
    reps = replay_record(parse(text.replace('[Redeal "C"]', '[Redeal "A"]')))          # A has one double
    assert "redeal-unfounded" in codes(reps[0])
    reps = replay_record(parse(text.replace('[Variant "south-american"]\n[Players "A, B, C, D"]\n[Redeal',
                                            '[Variant "partnership"]\n[Players "A, B, C, D"]\n[Redeal', 1)))
    assert "redeal-unfounded" in codes(reps[0])                                           # no re-deal rule
    reps = replay_record(parse('[Variant "south-american"]\n[Redeal "C"]\n'
                               + "\n".join(f"{p}: {t}" for p, t in FIVE_DOUBLES.items()) + "\n1. B [6-6]"))
    assert "redeal-played" in codes(reps[0])


# Great Lakes: "Es gibt eine Variante, bei der [0-0] 50 Punkte zählt und nicht null Punkte"; Doscientos:
#  "Normalerweise wird das Spiel von dem Team gewonnen, das weniger Punkte hat, und das Mitglied dieses
#  Teams mit weniger Punkten beginnt das nächste Spiel."  The [0-0] counts 50 also when the fewest pips
#  choose the leader (blank-count=everywhere); with blank-count=score only in the score.
def test_great_lakes_double_blank_counts_fifty_when_the_fewest_pips_choose_the_leader():
    v = find_variant("doscientos", "blank=50")
    blank = T("[0-0]").bit
    f = HandFacts("blocked", 2, (1, 27, 9, 35), (2, 3, 2, 4), 0,
                  hands=(blank | T("[0-1]").bit, 0, T("[0-3]").bit | T("[1-5]").bit, 0))
    r = v.hand_result(f)
    assert r.winner == 0 and r.points == 1 + 27 + 9 + 35 + 50                # 60 against 62: A/C win
    assert v.lead.requirement(0, r, f, v.seating).seats == {2}                # C (9), not A (1 + 50)
    other = find_variant("doscientos", "blank=50, blank-count=score")
    assert other.lead.requirement(0, other.hand_result(f), f, other.seating).seats == {0}
    reps = replay_record(read(RECORDS / "match-great-lakes-blank-lead.dom"))
    assert [x.valid for x in reps] == [True, True] and reps[1].players[reps[1].initial.turn] == "C"
    reps = replay_record(read(RECORDS / "match-great-lakes-blank-lead.dom"), rules={"blank-count": "score"})
    assert "lead-player" in codes(reps[1])
