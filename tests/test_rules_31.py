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
