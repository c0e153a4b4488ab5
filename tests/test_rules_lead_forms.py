"""The lead forms of issue 31 (items 3, 6, 9, 10, 11, 14): who leads and with what where the seats change
hands, where the lead is drawn, where anyone leads any tile, where the opener adds his extra tile unseen,
and where the record does not say which game it is; each quoting its text, on records written for it."""
from __future__ import annotations

from pathlib import Path

import pytest

from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.rules import find_variant
from conftest import RECORDS

DATA = Path(__file__).parent / "data"


def quoted(seed: str, text: str) -> str:
    """``text``, checked to stand verbatim in the rule text ``seed`` (tests/data holds the copies)."""
    (path,) = DATA.glob(f"{seed}_*.txt")
    assert " ".join(text.split()) in " ".join(path.read_text(encoding="utf-8").split())
    return text


def valid_game(name: str):
    """The one game of the record ``name`` in records/, replayed (it must be valid), and the record's text."""
    path = RECORDS / name
    (rep,) = replay_record(read(path))
    assert rep.valid, rep.errors
    return rep, path.read_text(encoding="utf-8")


def leaders(reps) -> list[str]:
    return [r.players[r.initial.turn] for r in reps]


# -- item 3: Domino Whist for five, the lead goes round the seats ----------------------------------
ROUND = quoted("001", "Das Eröffnen wechselt nach jedem Spiel im Uhrzeiger: Das zweite Spiel eröffnet daher der "
                      "Spieler zur Linken von Vorhand")
PAIR = quoted("001", "Die Zweier-Mannschaft spielt ohne Unterbrechung, während sich die Spieler der "
                     "Dreier-Mannschaft abwechseln.")


def test_five_players_the_seat_at_the_leaders_left_leads_whoever_sits_there_now():
    reps = replay_record(read(RECORDS / "match-whist-five-seats.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    # game 1: A leads, D at his left; game 2: D pauses, E moved into D's seat, B into E's: E leads
    assert [r.players for r in reps] == [("A", "D", "C", "E"), ("A", "E", "C", "B")]
    assert leaders(reps) == ["A", "E"]
    assert "E, in that seat, leads" in reps[1].match.lead_rule
    # B, who came back, does not lead: he does not sit at A's left
    text = (RECORDS / "match-whist-five-seats.dom").read_text(encoding="utf-8")
    wrong = text.replace('[Lead "E"]', '[Lead "B"]').replace("1. E [3-5] C [3-6] B [1-6]", "1. B [1-6] A [0-6]")
    (err,) = [d for d in replay_record(parse(wrong))[1].errors if d.code == "lead-player"]
    assert err.details["expected"] == "E"


def test_the_seat_the_lead_passes_to_is_found_by_the_pair_who_keep_their_places():
    from analyzer.rules.matchplay import seat_now
    from analyzer.rules.policies import Seating
    seating = Seating.partners()
    last = ("A", "D", "C", "E")              # A and C the pair: they play every game, opposite each other
    assert seat_now(last, ("A", "E", "C", "B"), 1, seating) == 1        # D's seat, now E's
    assert seat_now(last, ("E", "C", "B", "A"), 1, seating) == 0        # the same table written from E
    assert seat_now(last, ("A", "E", "C", "B"), 2, seating) == 2        # C's seat, C's still
    # a table with no partners of the last game still partners (six players): the seats cannot be tied
    assert seat_now(("A", "E", "C", "D"), ("A", "B", "F", "D"), 1, seating) is None


# -- item 6: Doscientos, "der höchste Stein beginnt" ----------------------------------------------
DRAWN = quoted("000", "Oft wird ein Dominostein gezogen, um das Recht des Ausspiels beim ersten Spiel einer Partie zu "
                      "bestimmen, der höchste Stein beginnt. Wird so gespielt, braucht der Spieler, der das Spiel "
                      "beginnt, die [6-6] nicht vorzusetzen.")


def test_doscientos_with_a_drawn_lead_checks_the_tiles_drawn():
    reps = replay_record(read(RECORDS / "match-doscientos-drawn-lead.dom"))
    assert all(r.valid for r in reps), [r.errors for r in reps]
    assert leaders(reps) == ["D", "D"]           # D drew [4-6], the highest; he won game 1 and leads game 2
    assert reps[0].game.moves[0].tile != find_variant("partnership").opening.first_game_tile
    text = (RECORDS / "match-doscientos-drawn-lead.dom").read_text(encoding="utf-8")
    # C draws the highest tile instead: C must lead, not D
    other = replay_record(parse(text.replace("C [0-5], D [4-6]", "C [4-6], D [0-5]")))
    (err,) = [d for d in other[0].errors if d.code == "lead-player"]
    assert err.details["expected"] == "C" and "höchste Stein beginnt" in err.message
    assert other[1].valid                        # the later games go by the winner, as before
    # a drawn lead needs no seats: the tag names the players only for the lead (no Whist partnership check)
    assert not [d for r in reps for d in r.diagnostics if d.code in ("seat-draw", "sit-out")]
    # without first=draw, the [6-6] holder (B) must lead the first game with it, whatever was drawn
    six = replay_record(parse(text.replace('[Rules "first=draw"]', "")))
    assert {d.code for d in six[0].errors} >= {"lead-player"}


def test_a_seat_draw_for_someone_not_playing_is_an_error():
    text = (RECORDS / "match-doscientos-drawn-lead.dom").read_text(encoding="utf-8")
    reps = replay_record(parse(text.replace("D [4-6]", "Z [4-6]")))
    assert "bad-seat-draw" in [d.code for d in reps[0].errors]


# -- item 9: the two-player block game with a free lead --------------------------------------------
BLOCK = quoted("003", "Der höchste gehaltene Doppelstein wird von der Person gespielt, die ihn in der Hand hat")
OPENSPIEL = sorted(RECORDS.glob("openspiel-block7-*.dom"))


def test_six_openspiel_style_logs_validate_and_are_analysed():
    from analyzer.analysis import analyze_replay
    assert len(OPENSPIEL) == 6
    not_highest = 0
    for path in OPENSPIEL:
        record = read(path)
        (game,) = record.games
        assert game.tags["Passes"] == "omitted" and not any(m.is_pass for m in game.moves)
        (rep,) = replay_record(record)
        assert rep.valid, (path.name, rep.errors)
        assert rep.variant == find_variant("block7", {"lead": "any"})
        doubles = [t for hand in rep.initial.hands for t in _tiles(hand) if t.is_double]
        not_highest += game.moves[0].tile != max(doubles)
        result = analyze_replay(rep)
        assert result.decisions and result.values[0] is not None and result.stopped is None
        # the lead is a free choice: every tile of the leader's hand is one of the first move's alternatives
        first = result.decisions[0]
        assert first.index == 0 and len(first.alternatives) == 7
    assert not_highest == 6
    # under the text's rule (the default) the same logs lead the wrong tile
    (rep,) = replay_record(read(OPENSPIEL[0]), rules={"lead": "double"})
    assert {d.code for d in rep.errors} & {"lead-player", "lead-tile"}


def _tiles(mask: int):
    from analyzer.position import tiles_of
    return tiles_of(mask, 6)


def test_block7_lead_options():
    double, free, drawn = (find_variant("block7", {"lead": k}) for k in ("double", "any", "draw"))
    assert double.opening == find_variant("block7").opening
    assert double.opening.highest_double and not free.opening.highest_double and drawn.opening.drawn
    reps = replay_record(read(RECORDS / "variant-block7-drawn-lead.dom"))
    assert all(r.valid for r in reps) and leaders(reps) == ["Ben"]
    text = (RECORDS / "variant-block7-drawn-lead.dom").read_text(encoding="utf-8")
    (rep,) = replay_record(parse(text.replace("Ben [2-5]", "Ben [0-1]")))
    (err,) = [d for d in rep.errors if d.code == "lead-player"]
    assert err.details["expected"] == "Anna"


# -- item 14: the first game's forced lead in a record that does not say which game it is ------------
FIRST = quoted("000", "Beim ersten Spiel einer neuen Partie fängt der Spieler mit der [6-6] an und muss diese "
                      "Doppelsechs vorsetzen. Bei den folgenden Spielen beginnt der Spieler rechts vom dem, der das "
                      "vorherige Spiel begonnen hat, und der Spieler kann mit jedem beliebigen Stein das Spiel eröffnen.")


def test_an_untagged_six_six_lead_reads_as_the_first_games_forced_lead():
    from analyzer.analysis import analyze_replay
    rep, text = valid_game("partnership-untagged-first-lead.dom")
    assert "Game" not in rep.game.tags
    (note,) = [d for d in rep.diagnostics if d.code == "assumed-first-game"]
    assert note.severity == "info" and "first game" in note.message and "[Game" in note.message
    assert not [d for d in rep.diagnostics if d.code == "unchecked-lead"]
    # the lead is forced: no decision at B's [6-6], and the search starts from it as the only lead
    result = analyze_replay(rep)
    assert result.decisions and all(d.index != 0 for d in result.decisions)
    assert rep.initial.legal_moves() == [m for m in rep.initial.legal_moves() if str(m.tile) == "[6-6]"]
    # said to be game 2 of a match (an excerpt), the same lead is B's free choice among his seven tiles
    (later,) = replay_record(parse(text.replace('[Players', '[Game "2"]\n[Players', 1)))
    assert later.valid and not [d for d in later.diagnostics if d.code == "assumed-first-game"]
    first = analyze_replay(later).decisions[0]
    assert first.index == 0 and len(first.alternatives) == 7


def test_an_untagged_lead_of_another_tile_stays_unchecked():
    text = (RECORDS / "partnership-untagged-first-lead.dom").read_text(encoding="utf-8")
    # B leads [4-4] instead (not the first game's tile): which game it is stays open, the lead unchecked
    moved = text.replace("1. B [6-6] C [1-6] D [2-6]", "1. B [4-4]")
    (rep,) = replay_record(parse(moved))
    assert "unchecked-lead" in [d.code for d in rep.diagnostics]
    assert "assumed-first-game" not in [d.code for d in rep.diagnostics]
    assert not [d for d in rep.errors if d.code.startswith("lead")]


# -- item 11: the opener's extra tile in a draw game logged by the other player ----------------------
EXTRA = quoted("004", "Wer den höchsten Pasch hat - einen Stein mit zwei gleichen Punktezahlen auf beiden Steinhälften "
                      "– beginnt: Er legt diesen Stein offen aus und darf, wenn er einen passenden hat, auch diesen "
                      "anlegen.")


def test_the_opener_adds_his_extra_tile_from_a_hand_the_log_does_not_show():
    rep, text = valid_game("draw-one-view-extra.dom")
    assert rep.game.hands[1].tiles is None                     # Ben: ?
    # Ben leads [6-6] and adds [3-6] out of turn, both from his unseen tiles; then Anna plays on the 6
    assert [(s.seat, str(s.move.tile)) for s in rep.steps[:3]] == [(1, "[6-6]"), (1, "[3-6]"), (0, "[1-6]")]
    assert [rep.position_at(k).hidden[1] for k in (0, 1, 2)] == [8, 7, 6]
    assert not [d for d in rep.diagnostics if d.code == "turn-order"]
    # the extra tile must still fit the lead and be one nobody is seen to hold
    (held,) = replay_record(parse(text.replace("Ben [3-6] Anna [1-6]@6", "Ben [1-6] Anna [3-6]@6")))
    assert [d.code for d in held.errors][0] == "tile-not-held"
    (unfit,) = replay_record(parse(text.replace("Ben [3-6] Anna [1-6]@6", "Ben [2-4] Anna [1-6]@6")))
    assert "tile-no-match" in [d.code for d in unfit.errors]


def test_an_unseen_opener_may_add_only_where_an_unseen_tile_fits():
    from analyzer.rules.mechanics import position_for
    from analyzer.tiles import Tile
    v = find_variant("draw")
    sixes = [Tile(k, 6) for k in range(6)]               # every other tile with a 6: in Anna's hand
    anna = sixes + [Tile(0, 0), Tile(1, 1)]
    pos = position_for(v, [anna, ()], 1, max_pip=6, hidden=[0, 8])
    pos.push(_play(Tile(6, 6)))
    assert pos.bonus == 1 and not pos.may_add(1)         # no unseen tile fits the 6: he cannot add one
    pos = position_for(v, [anna[1:], ()], 1, max_pip=6, hidden=[0, 8])
    pos.push(_play(Tile(6, 6)))
    assert pos.may_add(1)                                # [0-6] is unseen: it may be his


def _play(tile):
    from analyzer.tiles import Move
    return Move(tile)


# -- item 10: a line opened by a tile turned up from the boneyard -----------------------------------
def test_a_line_opened_by_a_tile_turned_up_from_the_boneyard():
    from analyzer.analysis import analyze_replay
    from analyzer.tiles import Tile
    rep, _ = valid_game("variant-draw-starter.dom")
    start = rep.initial
    # [4-5] lies on the table before anyone plays: from no hand, one tile less in the boneyard (28 - 16 - 1)
    assert start.ends in ((4, 5), (5, 4)) and start.line() == [(Tile(4, 5), False)]
    assert start.stock == 11 and not start.pool & Tile(4, 5).bit
    assert [start.count(s) for s in (0, 1)] == [8, 8]
    # Anna plays first, on it: the highest double ([6-6], hers) does not open
    assert rep.players[rep.steps[0].seat] == "Anna" and rep.steps[0].move.tile == Tile(0, 4)
    assert start.turn == 0 and start.bonus == -1            # no extra tile: nobody led from a hand
    result = analyze_replay(rep)
    first = result.decisions[0]
    assert first.index == 0 and {a.move for a in first.alternatives} == {"[0-4]@4", "[3-4]@4", "[4-6]@4"}


def test_the_starter_tag_is_checked():
    text = (RECORDS / "variant-draw-starter.dom").read_text(encoding="utf-8")
    (held,) = replay_record(parse(text.replace('[Starter "[4-5]"]', '[Starter "[0-4]"]')))
    (err,) = [d for d in held.errors if d.code == "bad-starter"]
    assert "Anna holds it" in err.message and err.line == 5
    (bad,) = replay_record(parse(text.replace('[Starter "[4-5]"]', '[Starter "the [4-5]"]')))
    assert "cannot read the Starter tag" in [d for d in bad.errors if d.code == "bad-starter"][0].message
    block_text = (RECORDS / "variant-block7.dom").read_text(encoding="utf-8")
    (nobone,) = replay_record(parse(block_text.replace('[Lead "A"]', '[Lead "A"]\n[Starter "[0-0]"]')))
    assert "no boneyard" in [d for d in nobone.errors if d.code == "bad-starter"][0].message


def test_an_unseen_hand_with_a_starter_is_inferred_and_judged_fair():
    from analyzer.inference import worlds_at
    text = (RECORDS / "variant-draw-starter.dom").read_text(encoding="utf-8")
    hidden = text.replace("Ben: [0-2] [0-3] [0-5] [0-6] [2-4] [2-5] [3-5] [5-6]", "Ben: ?").replace(
        "Ben draws [1-6]", "Ben draws ?")
    (rep,) = replay_record(parse(hidden))
    assert rep.valid, rep.errors
    # Anna sees her 8 tiles and the starter: the other 19 lie in Ben's 8 and the boneyard's 11 (in order)
    worlds = worlds_at(rep, 0, 0)
    assert worlds.count == _choose(19, 8) * _factorial(11)


def _choose(n, k):
    import math
    return math.comb(n, k)


def _factorial(n):
    import math
    return math.factorial(n)


def _starter_game(variant, seed: int) -> tuple[str, list]:
    """A random legal hand of a draw ``variant`` whose line is opened from the boneyard, as record text
    (every move written, draws with their tiles), and the moves played."""
    import random
    from analyzer.generate import SEAT_NAMES
    from analyzer.position import mask_of
    from analyzer.rules.mechanics import position_for, turn_up
    from analyzer.tiles import Move
    rng = random.Random(seed)
    n = variant.players
    size = variant.dealing.hand_size
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    hands = [sorted(tiles[k * size:(k + 1) * size]) for k in range(n)]
    bone = tiles[n * size:]
    starter, first = bone.pop(), rng.randrange(n)
    pos = position_for(variant, hands, 0, max_pip=6)
    pos.pool &= mask_of(variant.dealing.tiles)
    turn_up(pos, starter, first)
    names = SEAT_NAMES[:n]
    moves, played = [], []
    while (legal := pos.legal_moves()):
        seat, move = pos.turn, rng.choice(legal)
        if move.draw:
            move = Move(bone.pop(), None, True)
        two = sum(m.tile == move.tile for m in legal) > 1
        pos.push(move)
        played.append(move)
        text = (f"draws {move.tile}" if move.draw else "pass" if move.tile is None
                else f"{move.tile}" + (f"@{move.end}" if two else ""))
        moves.append(f"{names[seat]} {text}")
    head = ['[Variant "draw"]', f'[Rules "players={n}, draw={variant.option("draw")}"]',
            f'[Players "{", ".join(names)}"]', f'[Starter "{starter}"]', f'[Lead "{names[first]}"]', ""]
    deal = [f"{names[s]}: {' '.join(map(str, hands[s]))}" for s in range(n)]
    rows = [f"{k + 1}. {m}" for k, m in enumerate(moves)]
    return "\n".join(head + deal + [""] + rows) + "\n", played


@pytest.mark.parametrize("players,draw", [(2, "until"), (3, "until"), (4, "one"), (2, "one")])
def test_random_hands_opened_from_the_boneyard_replay_as_played(players, draw):
    variant = find_variant("draw", {"players": str(players), "draw": draw})
    for seed in range(12):
        text, played = _starter_game(variant, seed)
        (rep,) = replay_record(parse(text))
        assert rep.valid, (seed, rep.errors)
        assert [s.move for s in rep.steps] == played
        # the tiles are conserved: dealt, drawn and the starter are what is held and on the table
        start, end = rep.initial, rep.final
        assert start.stock == len(variant.dealing.tiles) - players * variant.dealing.hand_size - 1
        on_table = [t for t, _ in end.line()]
        assert len(on_table) == len(set(on_table)) == 1 + sum(m.is_play for m in played)
        assert on_table.count(_starter_of(text)) == 1
        # push/pop undo restores the position opened from the boneyard
        pos = start.copy()
        key = pos.key()
        for s in rep.steps:
            pos.turn = s.seat
            pos.push(s.move)
        for _ in rep.steps:
            pos.pop()
        assert pos.key() == key and pos.stock == start.stock and pos.ends == start.ends


def _starter_of(text: str):
    from analyzer.tiles import Tile
    return Tile.parse(text.split('[Starter "')[1].split('"')[0])
