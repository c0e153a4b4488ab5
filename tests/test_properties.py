"""Properties of the replayer over random legal games, and fuzzing of the reader and validator."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.analysis import analyze
from analyzer.generate import random_game
from analyzer.notation import parse, write
from analyzer.record import Game, HandEntry, MoveEntry
from analyzer.replay import replay
from analyzer.match import replay_record
from analyzer.tiles import Tile
from conftest import RECORDS
from analyzer.analysis import AnalysisSettings
from analyzer.search.core import SearchBudget

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def through_text(game: Game):
    """Write a game out and read it back, as a user's file would be."""
    record = parse(write(game), "prop.dom")
    assert not record.errors, record.errors
    (rep,) = replay_record(record)
    return rep


@FAST
@given(seed=st.integers(0, 10**6), ends=st.sampled_from(["needed", "none", "all"]))
def test_random_legal_games_written_and_read_back_validate_clean(seed, ends):
    game = random_game(seed=seed, ends=ends)
    rep = through_text(game)
    assert rep.valid, [str(d) for d in rep.errors]
    assert rep.result is not None
    assert [m.tile for m in rep.game.moves] == [m.tile for m in game.moves]


def _held_by(rep, step_index, seat):
    return rep.steps[step_index - 1].hands_after[seat] if step_index else rep.initial.hands[seat]


@FAST
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6), kind=st.sampled_from(
    ["pass-for-tile", "tile-for-pass", "foreign-tile", "other-player"]))
def test_corrupting_one_move_gives_an_error_at_that_move(seed, pick, kind):
    game = random_game(seed=seed)
    good = replay(game)
    moves = list(game.moves)
    rng = random.Random(pick)
    players = game.players
    if kind == "pass-for-tile":        # he played, so he could play: a pass is false
        i = rng.choice([k for k, m in enumerate(moves) if m.tile is not None and k > 0])
        moves[i] = MoveEntry(moves[i].player, None)
    elif kind == "tile-for-pass":      # he passed, so nothing he held fitted
        passes = [k for k, m in enumerate(moves) if m.tile is None]
        if not passes:
            return
        i = rng.choice(passes)
        seat = players.index(moves[i].player)
        from analyzer.position import tiles_of
        held = tiles_of(_held_by(good, i, seat))
        moves[i] = MoveEntry(moves[i].player, rng.choice(held))
    elif kind == "foreign-tile":       # a tile he does not hold (someone else's, or played)
        i = rng.choice([k for k, m in enumerate(moves) if m.tile is not None])
        seat = players.index(moves[i].player)
        from analyzer.position import tiles_of
        mine = set(tiles_of(_held_by(good, i, seat)))
        others = [t for t in (Tile(a, b) for b in range(7) for a in range(b + 1)) if t not in mine]
        moves[i] = MoveEntry(moves[i].player, rng.choice(others))
    else:                              # the move given to someone whose turn it is not
        i = rng.randrange(1, len(moves))
        seat = players.index(moves[i].player)
        moves[i] = MoveEntry(players[(seat + rng.randrange(1, 4)) % 4], moves[i].tile)
    game.moves = moves
    rep = through_text(game)
    errors = [d for d in rep.steps[i].diagnostics if d.severity == "error"]
    assert errors, (kind, i, [str(d) for d in rep.errors])
    assert errors[0].line == rep.steps[i].entry.pos.line


@FAST
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_corrupting_one_dealt_tile_gives_an_error_at_that_tile(seed, pick):
    game = random_game(seed=seed)
    rng = random.Random(pick)
    h = rng.randrange(4)
    k = rng.randrange(7)
    other = rng.choice([x for x in range(4) if x != h])
    hands = list(game.hands)
    tiles = list(hands[h].tiles)
    tiles[k] = rng.choice(hands[other].tiles)         # now dealt twice, and one tile is missing
    hands[h] = HandEntry(hands[h].player, tuple(tiles))
    game.hands = tuple(hands)
    record = parse(write(game))
    (rep,) = replay_record(record)
    spot = record.games[0].hand_of(game.hands[h].player).tile_pos[k]
    assert any(d.code == "deal-duplicate" and (d.line, d.column) == (spot.line, spot.column) for d in rep.errors)
    assert any(d.code == "deal-missing" for d in rep.errors)


SAMPLES = [p.read_text() for p in sorted(RECORDS.glob("*")) if p.suffix in (".dom", ".txt")]
ALPHABET = "[]-0123456789 \n\t{}\"ABCDpasst*!?@.:;Runde Spieler----"


@settings(max_examples=150, deadline=None)
@given(sample=st.sampled_from(SAMPLES), edits=st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["insert", "delete", "replace"]),
              st.text(ALPHABET, min_size=1, max_size=4)), min_size=1, max_size=6))
def test_mutated_records_never_break_the_validator(sample, edits):
    text = sample
    for where, kind, piece in edits:
        i = where % (len(text) + 1)
        if kind == "insert":
            text = text[:i] + piece + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + len(piece):]
        else:
            text = text[:i] + piece + text[i + len(piece):]
    for rep in replay_record(parse(text, "fuzz.dom")):
        for d in rep.diagnostics:
            assert d.code != "internal" and d.message
            assert d.line is None or d.line >= 1


@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=300))
def test_random_text_never_breaks_the_validator(text):
    for rep in replay_record(parse(text, "fuzz.dom")):
        assert all(d.code != "internal" for d in rep.diagnostics)


@settings(max_examples=12, deadline=None)
@given(sample=st.sampled_from(SAMPLES), cut=st.integers(0, 10**6))
def test_analysis_of_a_truncated_record_never_breaks(sample, cut):
    text = sample[: cut % (len(sample) + 1)]
    # the node limit keeps the long layout games (French, double-nine) quick; past it the analysis stops cleanly
    for result in analyze(parse(text, "fuzz.dom"), settings=AnalysisSettings(budget=SearchBudget(20_000))):
        assert result.analysed_steps >= 0
