"""Draw games (004 Grundregel, 003 Ziehspiel, Cut Throat and Chiva with a boneyard) and Hungarian
runs (004), each rule tested with the seed text's own sentence above it."""
import random

import pytest

from analyzer.match import random_match
from analyzer.notation import parse, write
from analyzer.notation.writer import table_writable
from analyzer.position import mask_of
from analyzer.match import replay_record
from analyzer.rules import HandFacts, find_variant
from analyzer.rules.mechanics import position_for
from analyzer.rules.turns import DrawPosition, RunPosition
from analyzer.tiles import DRAW, PASS, Move, Tile, tile_set

T = Tile.parse

# A two-player draw deal: A holds [6-6] and every other 6 but [0-6], so after A's lead B cannot play
# and must draw; [0-6] is the only boneyard tile that carries a 6.
A_HAND = "[6-6] [2-4] [1-6] [2-6] [3-6] [4-6] [5-6] [0-0]"
B_HAND = "[1-1] [2-2] [3-3] [4-4] [5-5] [0-1] [0-2] [0-3]"
BONEYARD = sorted(set(tile_set()) - {T(t) for t in (A_HAND + " " + B_HAND).replace("] [", "]|[").split("|")})
NO_SIX = [t for t in BONEYARD if not t.matches(6)]


def draw_game(moves: str, variant: str = "draw", rules: str = "", hands=(A_HAND, B_HAND)) -> object:
    tags = f'[Variant "{variant}"]\n' + (f'[Rules "{rules}"]\n' if rules else "")
    names = "ABC"[:len(hands)]
    deal = "\n".join(f"{n}: {h}" for n, h in zip(names, hands))
    (rep,) = replay_record(parse(f"{tags}{deal}\n\n{moves}\n", "draw.dom"))
    return rep


def codes(rep) -> list[str]:
    return [d.code for d in rep.errors]


def test_the_boneyard_of_the_constructed_deal():
    assert len(BONEYARD) == 12 and len(NO_SIX) == 11 and T("[0-6]") in BONEYARD


# -- the draw game (004 Grundregel) ----------------------------------------------------------------
# "Bei 2 Spielern erhält jeder 8 Steine, bei 3 oder 4 Spielern jeder 5, bei 5 oder 6 jeder 4 Steine.
#  ... Die übrigen Steine bleiben verdeckt als „Talon“ in der Mitte liegen."
@pytest.mark.parametrize("players,size", [(2, 8), (3, 5), (4, 5), (5, 4), (6, 4)])
def test_hand_sizes_and_the_boneyard(players, size):
    v = find_variant("draw", players=players)
    assert v.players == players and v.dealing.hand_size == size
    hands = [[]] * players
    pos = position_for(v, [tile_set()[i * size:(i + 1) * size] for i in range(players)])
    assert isinstance(pos, DrawPosition) and pos.stock == 28 - players * size
    assert hands and not v.exact_search and "order the record reveals" in v.search_note


# "Wer den höchsten Pasch hat ... beginnt: Er legt diesen Stein offen aus und darf, wenn er einen
#  passenden hat, auch diesen anlegen."
def test_the_highest_double_opens_and_its_holder_may_add_a_matching_tile():
    rep = draw_game("1. A [6-6] A [1-6] B [0-0]")   # B has no [0-0]: it is his turn all the same
    assert codes(rep) == ["tile-not-held"]
    ok = draw_game("1. A [6-6] A [1-6] B [1-1]")
    assert ok.valid, ok.errors
    assert ok.steps[1].ends_after == (1, 6)
    without = draw_game("1. A [6-6] B draws [0-4]")      # he may, not must
    assert without.valid and without.final.turn == 1
    wrong = draw_game("1. B [5-5]")
    assert codes(wrong) == ["lead-player", "lead-tile"]
    assert "holds the highest double [6-6]" in wrong.errors[0].message


# "Wenn ein Spieler keinen passenden Stein hat, muss er aus dem Talon einen Stein aufnehmen. Wenn auch
#  dieser Stein nicht passt, muss weiter „gekauft“ werden, bis ein Stein verwendet werden kann."
def test_a_player_who_cannot_play_draws_until_he_can():
    # the ends are 6 and 6 after the lead; B holds no 6
    ok = draw_game("1. A [6-6] B draws [0-4] B draws [1-2] B draws [0-6] B [0-6] A [0-0]")
    assert ok.valid, ok.errors
    assert [s.move.draw for s in ok.steps] == [False, True, True, True, False, False]
    assert ok.steps[3].hands_after[1] & T("[0-6]").bit and ok.final.stock == 9
    # handing the turn over while he still cannot play
    rep = draw_game("1. A [6-6] B draws [0-4] A [1-6]")
    assert codes(rep) == ["turn-order"] and "has drawn" in rep.errors[0].message


def test_draw_validation_codes():
    # a draw by a player who could play
    bad = draw_game("1. A [6-6] A [1-6] B draws [0-4]")
    assert codes(bad) == ["draw-not-allowed"]
    assert "could play [0-1] [1-1]" in bad.errors[0].message
    # drawing on after the drawn tile fits
    rep = draw_game("1. A [6-6] B draws [0-6] B draws [1-2]")
    assert codes(rep) == ["draw-too-long"]
    # a tile that is not in the boneyard
    rep = draw_game("1. A [6-6] B draws [3-6]")
    assert codes(rep) == ["draw-not-in-boneyard"] and "A's hand" in rep.errors[0].message
    rep = draw_game("1. A [6-6] B draws [6-6]")
    assert codes(rep) == ["draw-not-in-boneyard"] and "on the table" in rep.errors[0].message
    # a pass by a player who must draw
    rep = draw_game("1. A [6-6] B pass")
    assert codes(rep) == ["must-draw"]
    assert "12 tiles, of which 2 stay there" in rep.errors[0].message


# "... und sind alle Steine bis auf zwei, die im Talon bleiben, gekauft ..."
def test_the_last_two_tiles_stay_in_the_boneyard():
    ten = " ".join(f"B draws {t}" for t in NO_SIX[:10])
    rep = draw_game(f"1. A [6-6] {ten} B pass A [1-6] B [1-1]")
    assert rep.valid, rep.errors
    assert rep.final.stock == 2
    rep = draw_game(f"1. A [6-6] {ten} B draws {NO_SIX[10]}")
    assert codes(rep) == ["boneyard-empty"] and "the last 2 are never drawn" in rep.errors[0].message
    # under the 003 form every tile may be drawn
    rep = draw_game(f"1. A [6-6] B draws {NO_SIX[0]} B pass A [1-6]", rules="draw=one")
    assert rep.valid, rep.errors


# "Gewonnen hat, wer zuerst sämtliche Steine angelegt hat. Kann [k]ein Spieler mehr anlegen und sind alle
#  Steine bis auf zwei ... gekauft, so gewinnt der Spieler, der in seinen restlichen Steinen die geringste
#  Punktezahl aufweist, wobei Pasche nur einfach gezählt werden."
def test_blocked_draw_game_lowest_pips_with_doubles_counted_once():
    v = find_variant("draw")
    a, b = mask_of([T("[6-6]")]), mask_of([T("[2-5]")])
    facts = HandFacts("blocked", 0, (12, 7), (1, 1), 0, (a, b))
    assert v.hand_result(facts).winner == 0           # [6-6] counts 6, [2-5] counts 7
    assert find_variant("draw", "doubles=full").hand_result(facts).winner == 1
    pos = DrawPosition([[T("[5-5]"), T("[6-6]")], [T("[2-4]")]], 0).setup(stock=2, keep=2)
    pos.push(Move(T("[5-5]")))
    assert pos.outcome().termination == "blocked"      # nobody can play, two tiles left
    pos = DrawPosition([[T("[5-5]"), T("[6-6]")], [T("[2-4]")]], 0).setup(stock=3, keep=2)
    pos.push(Move(T("[5-5]")))
    assert pos.outcome() is None and pos.legal_moves() == [DRAW]


def test_first_out_wins_a_draw_game():
    pos = DrawPosition([[T("[6-6]")], [T("[1-2]")]], 0).setup(stock=10, keep=2)
    pos.push(Move(T("[6-6]")))
    assert pos.outcome().termination == "domino" and pos.outcome().seat == 0


# 003: "Wenn ein Spieler nicht fortfahren kann, zieht er einen Stein aus dem verdeckten Stapel in der Mitte,
#  es sei denn und bis alle Steine genommen sind, in welchem Fall sein Zug weitergegeben wird."
def test_the_003_form_draws_one_tile_then_passes():
    v = find_variant("draw", "draw=one")
    assert (v.drawing.rule, v.drawing.keep, v.opening.extra) == ("one", 0, False)
    rep = draw_game("1. A [6-6] B draws [0-4] B pass A [1-6]", rules="draw=one")
    assert rep.valid, rep.errors
    rep = draw_game("1. A [6-6] B draws [0-4] B draws [1-2]", rules="draw=one")
    assert codes(rep) == ["draw-too-long"] and "one tile" in rep.errors[0].message
    pos = DrawPosition([[T("[6-6]"), T("[0-6]")], [T("[1-2]")]], 0).setup(stock=1, keep=0, rule="one")
    pos.push(Move(T("[6-6]")))
    assert pos.legal_moves() == [DRAW]
    pos.push(Move(T("[1-3]"), None, True))
    assert pos.legal_moves() == [PASS] and pos.stock == 0
    assert pos.pop() == Move(T("[1-3]"), None, True) and pos.stock == 1


def test_a_tile_drawn_after_every_seat_passed_is_still_played():
    # 003 with one tile a turn: both players drew and passed; A then draws the last tile, and it fits
    pos = DrawPosition([[T("[6-6]"), T("[0-1]")], [T("[1-2]")]], 0).setup(stock=3, keep=0, rule="one")
    pos.push(Move(T("[6-6]")))
    for seat, tile in ((1, "[0-3]"), (0, "[0-4]")):
        pos.push(Move(T(tile), None, True))
        assert pos.legal_moves() == [PASS]
        pos.push(PASS)
    assert pos.passes == 2 and pos.outcome() is None
    pos.push(Move(T("[3-6]"), None, True))          # B draws the last tile: it fits the six
    assert pos.stock == 0 and pos.outcome() is None
    assert [m.tile for m in pos.legal_moves()] == [T("[3-6]")]
    pos.push(pos.legal_moves()[0])
    assert pos.outcome() is None and sorted(pos.ends) == [3, 6]      # and B still holds [0-3] for the three


def test_a_draw_in_a_game_without_a_boneyard_is_reported():
    (rep,) = replay_record(parse('[Variant "block"]\nA: ?\nB: ?\nC: ?\nD: ?\n1. A [6-6] B draws [1-2]'))
    assert "no-boneyard" in codes(rep)


def test_an_unknown_drawn_tile_is_tracked_as_hidden():
    rep = draw_game("1. A [6-6] B draws ? B draws ? B [4-6]", hands=(A_HAND, "?"))
    # B's hand is unknown: he may hold or draw a 6; nothing contradicts the record
    assert rep.final.hidden[1] == 8 + 2 and rep.final.stock == 10
    assert "tile-not-held" in codes(rep)        # [4-6] is in A's hand
    rep = draw_game("1. A [6-6] B draws ? B draws ?", hands=(A_HAND, "?"))
    assert rep.valid


def test_draws_round_trip_and_keep_out_of_tables():
    text = '[Variant "draw"]\nA: ?\nB: ?\n\n1. A [6-6] B draws [0-4]! B kauft ? B zieht [1-2] B draw [0-6]\n'
    record = parse(text)
    assert not record.errors
    moves = record.games[0].moves
    assert [m.draw for m in moves] == [False, True, True, True, True] and moves[2].tile is None
    back = parse(write(record))
    assert back == record and "B draws ?" in write(record)
    assert not table_writable(record.games[0])


# -- Cut Throat and Chiva with a boneyard (002) ------------------------------------------------------
# "Bei 2 Spielern bekommt jeder 14 Steine. (Es kann ausgemacht werden, dass jeder nur 7 Steine bekommt
#  und die restlichen Steine einen Talon bilden, von dem ein Spieler ziehen muss, wenn er nicht spielen kann.)"
def test_cutthroat_two_players_with_a_boneyard():
    v = find_variant("cutthroat", "draw=yes")
    assert (v.players, v.dealing.hand_size, v.drawing.keep) == (2, 7, 0)
    assert find_variant("cutthroat", players=2).dealing.hand_size == 14
    with pytest.raises(Exception, match="two-player"):
        find_variant("cutthroat", "draw=yes, players=4")
    record = random_match(v, 3, games=4)
    assert any(m.draw for g in record.games for m in g.moves)
    assert all(r.valid for r in replay_record(parse(write(record))))


# "Chiva mit zwei oder drei Spielern wird als ein Dominospiel mit Ziehen gespielt, jeder Spieler bekommt
#  anfangs 7 Steine. Ein Spieler, der keinen Stein anlegen kann, zieht so lange vom Talon, bis er einen Stein
#  anlegen kann oder der Talon aufgebraucht ist. Beim Dreierspiel gewinnt man die Partie mit 4
#  Gewinnpunkten, vorausgesetzt einer der anderen Spieler hat noch keinen Punkt."
def test_chiva_for_two_and_three_draws_until_playable_or_empty():
    three = find_variant("chiva", players=3)
    assert (three.players, three.dealing.hand_size, three.drawing.rule, three.drawing.keep) == (3, 7, "until", 0)
    assert find_variant("chiva").drawing is None
    m = three.match
    state = m.start(3)
    from analyzer.rules import HandResult
    win = lambda s: HandResult("domino", s, 1, s)     # noqa: E731
    for side in (0, 1, 0, 2, 0, 0):
        state = m.apply(state, win(side))
    assert state.over is False and state.scores == (4, 1, 1)   # everyone has a point: no winner
    state = m.start(3)
    for side in (0, 1, 0, 0, 0):
        state = m.apply(state, win(side))
    assert state.over and state.winner == 0                    # C still has none
    reps = replay_record(parse(write(random_match(three, 5, games=5))))
    assert all(r.valid for r in reps)


# -- Hungarian (004) ------------------------------------------------------------------------------
# "Bei 2 Mitspielern erhält jeder 12 Steine, bei 3 jeder 8 und bei vier jeder 6 Steine. Der Rest der Steine
#  scheidet jeweils aus."
@pytest.mark.parametrize("players,size", [(2, 12), (3, 8), (4, 6)])
def test_hungarian_deal(players, size):
    v = find_variant("hungarian", players=players)
    assert v.dealing.hand_size == size and v.drawing is None and v.turns == "run"
    assert v.exact_search == (players == 2)       # more players: each against all the others


def _hungarian_game(seed: int = 0, players: int = 2):
    record = random_match(find_variant("hungarian", players=players), seed, games=1)
    return record, record.games[0]


# "Der Spieler mit der höchsten Augenzahl beginnt ... Je mehr Steine er unterbringen kann, umso besser für
#  ihn. Ist er am Ende, versucht der nächste Spieler möglichst viele seiner Steine an der Kette anzusetzen usw."
def test_hungarian_runs_consecutive_plays_and_an_unfinished_run():
    for seed in range(6):
        record, game = _hungarian_game(seed)
        (rep,) = replay_record(parse(write(record)))
        assert rep.valid, rep.errors
        runs = [i for i in range(1, len(game.moves)) if game.moves[i].player == game.moves[i - 1].player
                and game.moves[i].is_play and game.moves[i - 1].is_play]
        if runs:
            break
    assert runs, "some random hand has a run of two plays"
    # hand the turn over in the middle of the run: the next player's move comes too early
    i = runs[0]
    moves = game.moves
    other = next(m for m in moves[i:] if m.player != moves[i].player)
    game.moves = moves[:i] + [other]
    (rep,) = replay_record(parse(write(record)), match=False)
    assert codes(rep)[0] == "run-unfinished"
    assert "keeps playing as long as they can" in rep.errors[0].message


def test_hungarian_the_heaviest_hand_opens():
    record, game = _hungarian_game(1)
    hands = [sum(t.pips for t in h.tiles) for h in game.hands]
    lead = game.tags["Lead"]
    assert hands[game.players.index(lead)] == max(hands)
    light = game.players[hands.index(min(hands))]
    text = write(record).replace(f'[Lead "{lead}"]', f'[Lead "{light}"]')
    (rep,) = replay_record(parse(text))
    assert "lead-player" in codes(rep) and "holds the most pips" in rep.errors[0].message


# "Kann keiner der Spieler mehr auslegen, notiert ein Buchführer die jedem Spieler verbleibenden Punkte ...
#  Wer zuerst die Hundert überschreitet, hat verloren."
def test_hungarian_pips_left_are_written_down_and_past_100_loses():
    v = find_variant("hungarian", players=3)
    result = v.hand_result(HandFacts("blocked", 0, (30, 12, 0), (3, 2, 0), 0))
    assert result.scores == (30, 12, 0)
    state = v.match.start(3)
    from analyzer.rules import HandResult
    state = v.match.apply(state, HandResult("blocked", 2, 0, 0, (100, 20, 5)))
    assert not state.over                              # 100 is not past 100
    state = v.match.apply(state, HandResult("blocked", 2, 0, 0, (1, 3, 4)))
    assert state.over and state.winner == 2
    pos = RunPosition([[T("[6-6]"), T("[5-6]")], [T("[0-0]")]], 0)
    pos.push(Move(T("[6-6]")))
    assert pos.turn == 0                               # he can still play [5-6]
    pos.push(Move(T("[5-6]"), 6))
    assert pos.outcome() is not None and pos.outcome().termination == "domino"


def test_random_draw_games_draw_only_when_stuck():
    rng = random.Random(4)
    for name, opts in (("draw", {}), ("draw", {"draw": "one"}), ("draw", {"players": "4"})):
        v = find_variant(name, opts)
        record = random_match(v, rng.randrange(1000), games=3)
        for rep in replay_record(parse(write(record))):
            assert rep.valid, rep.errors
            for step in rep.steps:
                if step.move is not None and step.move.draw:
                    pos = rep.position_at(step.index)
                    assert not pos.playable(step.seat)
