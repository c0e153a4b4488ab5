"""Rules of issue 31 that the re-check found missing or wrong: §12's seats in a progression, §13's partners
changed only by a draw, Chiva after a drawn game, ... each quoting its text, on records written for it."""
from __future__ import annotations

from analyzer.match import progression_seats, replay_record
from analyzer.notation import parse, read
from conftest import RECORDS


# 001 §12: "Ist die erste Partie zu Ende, so bleibt derjenige Spieler, welcher beim nächsten Einzelspiel die
# Vorhand hätte, an seinem Platz ... Die Sitzordnung ist durch die Bedingung festgelegt, dass zwei der vier
# Spieler an ihrem Platz bleiben und nur die beiden anderen ihre Plätze tauschen."
def test_progression_two_keep_their_places_two_swap():
    reps = replay_record(read(RECORDS / "match-whist-progression.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    # match 2 -> 3: from B, A, C, D to D, A, C, B: A and C stay (C leads next), B and D swap
    assert [reps[k].players for k in (4, 5)] == [("B", "A", "C", "D"), ("D", "A", "C", "B")]
    text = (RECORDS / "match-whist-progression.dom").read_text()
    # the same partners (B-A against C-D) with three people moved: B, A, C, D -> C, A, D, B (B, C, D move)
    at = text.index('[Players "D, A, C, B"]')
    head, tail = text[:at], text[at:]
    moved = head + tail.replace('[Players "D, A, C, B"]', '[Players "C, B, D, A"]', 2)
    errors = [d for r in replay_record(parse(moved)) for d in r.errors if d.code == "seat-draw"]
    assert errors and "two of the four keep their places" in errors[0].message


def test_progression_seats_rule():
    assert progression_seats(("A", "B", "C", "D"), ("B", "A", "C", "D")) is None
    assert "keep their places" in progression_seats(("A", "B", "C", "D"), ("B", "C", "A", "D"))   # three move
    assert "nobody moves" in progression_seats(("A", "B", "C", "D"), ("A", "B", "C", "D"))
    # the player who would lead the next game is one of the two who swap
    assert "keeps his place" in progression_seats(("B", "A", "C", "D"), ("B", "C", "A", "D"), keeper="C")
    assert progression_seats(("B", "A", "C", "D"), ("D", "A", "C", "B"), keeper="C") is None


# 002, Chiva: "Das Viererspiel ist ähnlich dem jamaikanischen Spiel mit Partner, das weiter oben beschrieben
# wurde. Der Unterschied besteht darin, dass man nur 4 Siegpunkte nacheinander erzielen muss ..." — the
# differences leave drawn games alone, so they go as in the Jamaican game: "Wenn ein Team schon Punkte
# erzielt hat, dann beginnt dieses Team das nächste Spiel" (draw-lead=jamaican, the default); the [6-6]
# holder after every drawn game is the other reading (draw-lead=six-six).
def test_chiva_after_a_drawn_game_reads_as_the_jamaican_game_by_default():
    from analyzer.rules import find_variant
    from analyzer.rules.policies import HandFacts
    v = find_variant("chiva")
    won = v.hand_result(HandFacts("domino", 1, (5, 0, 5, 5), (1, 1, 1, 1), 0))
    drawn = v.hand_result(HandFacts("blocked", 0, (3, 3, 3, 3), (1, 1, 1, 1), 0))
    state = v.match.apply(v.match.apply(v.match.start(2), won), drawn)
    assert v.lead.requirement(1, drawn, None, v.seating, v.match.lead(state, v.seating)).seats == {1, 3}
    six = find_variant("chiva", "draw-lead=six-six")
    assert six.lead.requirement(1, drawn, None, six.seating, six.match.lead(state, six.seating)).holder_of is not None
    # three players: C won game 5, game 6 is drawn, so C leads game 7 (the [6-6] holder B under six-six)
    reps = replay_record(read(RECORDS / "match-chiva-3-draw-jamaican.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    assert reps[-2].result.winner is None and reps[-1].players[reps[-1].initial.turn] == "C"
    assert reps[-1].match.state.over and reps[-1].match.state.scores == (3, 0, 4)
    other = replay_record(read(RECORDS / "match-chiva-3-draw-jamaican.dom"), rules={"draw-lead": "six-six"})
    (err,) = [d for d in other[-1].errors if d.code == "lead-player"]
    assert "B" in err.message and "[6-6]" in err.message
    # the record written for the six-six reading says so, and is valid under it
    assert all(r.valid for r in replay_record(read(RECORDS / "match-chiva-3-draw.dom")))
