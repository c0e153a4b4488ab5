"""Jamaican and Caribbean dominoes (002), the rules issue 16 found missing: Cut Throat played "wie
beim Partnerspiel" after a reset and after a drawn game, Chiva's lead after a drawn game, and a Result
tag that states what a game is worth after drawn games."""
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.replay import MatchTerms, replay
from analyzer.rules import HandFacts, LeadRequirement, find_variant
from analyzer.tiles import Tile
from conftest import RECORDS

T = Tile.parse


def codes(rep, severity="error"):
    return [d.code for d in rep.diagnostics if d.severity == severity]


def won(v, seat, n):
    pips = tuple(0 if s == seat else 5 for s in range(n))
    return v.hand_result(HandFacts("domino", seat, pips, tuple(1 for _ in range(n)), 0))


def drawn(v, n):
    return v.hand_result(HandFacts("blocked", 0, (3,) * n, (1,) * n, 0))


# Cut Throat: "Es wird wie beim Partnerspiel gespielt."  The partner game: "Bei einem Unentschieden,
#  wird ein neues Spiel gespielt. Wenn der Spielstand 0 – 0 war, beginnt der Besitzer von [6-6] dieses
#  neue Spiel, aber dieses Spiel ist dann 2 Punkte wert" and "Wenn aber das andere Team ein Spiel
#  gewinnt, dann steht es wieder 0 – 0, und das nächste Spiel wird von dem Spieler, der die Doppelsechs
#  hat, begonnen."
def test_cut_throat_a_drawn_game_makes_the_next_worth_more_and_at_zero_the_six_six_holder_leads():
    v = find_variant("cutthroat", "players=3")
    s = v.match.start(3)
    s = v.match.apply(s, drawn(v, 3))
    assert s.scores == (0, 0, 0) and v.match.worth(s) == 2
    assert v.lead.requirement(0, drawn(v, 3), None, v.seating, v.match.lead(s, v.seating)).holder_of is not None
    s = v.match.apply(s, won(v, 1, 3))
    assert s.scores == (0, 2, 0) and v.match.worth(s) == 1                  # "2 Punkte wert"
    s = v.match.apply(s, drawn(v, 3))
    req = v.lead.requirement(1, drawn(v, 3), None, v.seating, v.match.lead(s, v.seating))
    assert req.seats == {1}                                                 # "dann beginnt dieses Team"
    s = v.match.apply(s, won(v, 0, 3))
    s = v.match.apply(s, won(v, 2, 3))                                      # everybody has won once
    assert s.scores == (0, 0, 0)
    assert v.match.lead(s, v.seating).holder_of is not None                 # the [6-6] holder leads
    other = find_variant("cutthroat", "players=3, reset-lead=winner")
    assert other.match.lead(s, other.seating).seats == {2}
    plain = find_variant("cutthroat", "players=3, draw-worth=no")
    t = plain.match.apply(plain.match.apply(plain.match.start(3), drawn(plain, 3)), won(plain, 1, 3))
    assert t.scores == (0, 1, 0) and plain.match.worth(t) is None


def test_the_cut_throat_record_follows_the_partner_game():
    reps = replay_record(read(RECORDS / "match-cutthroat-partner-rules.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    # game 4 resets the scores (A won after B): B holds [6-6] and leads game 5, not A
    assert reps[3].match.state.scores == (0, 0) and reps[3].result.winner == 0
    assert reps[4].players[reps[4].initial.turn] == "B" and "[6-6]" in reps[4].match.lead_rule
    # game 5 is drawn at 0-0: game 6 is worth 2, and its Result tag says so
    assert reps[4].result.winner is None and reps[5].match.state.scores == (0, 2)
    assert reps[5].game.tags["Result"].startswith("B 2")
    text = (RECORDS / "match-cutthroat-partner-rules.dom").read_text()
    reps = replay_record(parse(text.replace('[Rules "players=2"]', '[Rules "players=2, reset-lead=winner"]')))
    assert "lead-player" in codes(reps[4])


# Chiva: "Das Viererspiel ist ähnlich dem jamaikanischen Spiel mit Partner"; after a drawn game the
#  [6-6] holder leads (the other reading, draw-lead=jamaican: the side with points, at 0-0 the holder).
def test_chiva_after_a_drawn_game_the_six_six_holder_leads():
    v = find_variant("chiva")
    req = v.lead.requirement(0, drawn(v, 4), None, v.seating, v.match.lead(v.match.start(2), v.seating))
    assert req.holder_of is not None and req.seats is None
    reps = replay_record(read(RECORDS / "match-chiva-draw.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    assert reps[0].result.winner is None and reps[1].match.state.scores == (2, 0)
    text = (RECORDS / "match-chiva-draw.dom").read_text()
    wrong = text.replace('[Lead "C"]', '[Lead "D"]', 1)
    assert "lead-player" in codes(replay_record(parse(wrong))[1])
    j = find_variant("chiva", "draw-lead=jamaican")
    s = j.match.apply(j.match.apply(j.match.start(2), won(j, 1, 4)), drawn(j, 4))
    assert j.lead.requirement(1, drawn(j, 4), None, j.seating, j.match.lead(s, j.seating)).seats == {1, 3}


# "dann bekommen die Gewinner die entsprechende Punktzahl (einen Punkt für das laufende Spiel und einen
#  Punkt für jedes unentschiedene Spiel, das voranging)": the Result tag may state those points.
def test_a_jamaican_or_chiva_result_may_state_the_points_after_drawn_games():
    text = (RECORDS / "match-chiva-draw.dom").read_text()
    assert '[Result "A/C 2 domino"]' in text
    reps = replay_record(parse(text.replace('[Result "A/C 2 domino"]', '[Result "A/C 1 domino"]')))
    assert reps[1].valid                                  # the hand's own point is still right
    reps = replay_record(parse(text.replace('[Result "A/C 2 domino"]', '[Result "A/C 3 domino"]')))
    assert "result-mismatch" in codes(reps[1]) and "after drawn games, 2" in reps[1].errors[0].message
    seed2 = (RECORDS / "seed2.dom").read_text().replace('[Variant "partnership"]', '[Variant "jamaican"]')
    v = find_variant("jamaican")
    s = v.match.apply(v.match.apply(v.match.start(2), drawn(v, 4)), drawn(v, 4))
    assert v.match.worth(s) == 3
    # the book's blocked game: B holds the single lowest hand (13), so B/D win the game, here worth 3
    for stated, ok in (("B/D 3 blocked", True), ("B/D 1 blocked", True), ("B/D 2 blocked", False)):
        game = parse(seed2.replace('[Result "A/C 46 blocked"]', f'[Result "{stated}"]')).games[0]
        rep = replay(game, v, terms=MatchTerms(LeadRequirement(), 3))
        assert ("result-mismatch" not in codes(rep)) == ok, stated


# "Chiva mit zwei oder drei Spielern wird als ein Dominospiel mit Ziehen gespielt" and is Chiva all the
#  same: after a drawn game, as in the four-player game ("ähnlich dem jamaikanischen Spiel mit Partner":
#  "Wenn der Spielstand 0 – 0 war, beginnt der Besitzer von [6-6] dieses neue Spiel, aber dieses Spiel ist
#  dann 2 Punkte wert"), the [6-6] holder leads, any tile, and the next game is worth a point more (the
#  other readings: draw-lead=jamaican, draw-worth=no). The [6-6] may lie in the boneyard: then the holder
#  of the highest double dealt, who opens a first game.
def test_chiva_for_two_or_three_after_a_drawn_game():
    three = find_variant("chiva", "players=3, draw-lead=six-six")
    req = three.lead.requirement(0, drawn(three, 3), None, three.seating)
    assert req.holder_of is not None and req.or_highest and req.tile is None
    s = three.match.apply(three.match.apply(three.match.start(3), won(three, 0, 3)), drawn(three, 3))
    assert three.match.worth(s) == 2 and three.match.apply(s, won(three, 2, 3)).scores == (1, 0, 2)
    reps = replay_record(read(RECORDS / "match-chiva-3-draw.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    last = reps[-1]
    assert reps[-2].result.winner is None and last.players[last.initial.turn] == "B"
    assert all(T("[6-6]") not in h.tiles for h in last.game.hands) and T("[5-5]") in last.game.hand_of("B").tiles
    assert last.match.state.over and last.match.state.scores == (3, 0, 4)     # C wins 2 and the match
    text = (RECORDS / "match-chiva-3-draw.dom").read_text()
    k = text.rindex('[Lead "B"]')
    wrong = text[:k] + text[k:].replace('[Lead "B"]', '[Lead "A"]', 1)
    (err,) = [d for d in replay_record(parse(wrong))[-1].errors if d.code == "lead-player"]
    assert "B holds [5-5] and must lead" in err.message
    # draw-worth=no, the other reading of the worth: game 7 counts one point, so C has 3 and the match goes on
    plain = replay_record(parse(text), rules={"draw-worth": "no"})[-1]
    assert {"result-mismatch", "score-mismatch"} <= set(codes(plain)) and not plain.match.state.over
    # draw-lead=jamaican: the winner of the last game that was won (C won game 5) leads instead
    assert "lead-player" in codes(replay_record(parse(text), rules={"draw-lead": "jamaican"})[-1])
    two = replay_record(read(RECORDS / "match-chiva-2-draw.dom"))
    assert all(r.valid for r in two) and two[1].players[two[1].initial.turn] == "B"
    assert two[1].match.state.scores == (2, 0)
