"""The moves offered where the mover's hand is unknown or partly known (``analyzer.rules.offers`` through
the board's ``/api/position``): every tile he could hold that fits, each end apart, the pass and the draw only
where the rules allow them, no tile his passes exclude; the moves of real games with the hands hidden are
always among them, and each one offered, written in, is judged legal by ``validate``."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse, write
from analyzer.record import Record
from analyzer.server.library import BoardRecord, enter_move, position_data, validate_document

from conftest import board_client

HEAD = '[Event "x"]\n[Variant "{v}"]\n[Players "{p}"]\n[Lead "A"]\n\n'


def _sheet(variant: str, players: str, moves: str = "") -> str:
    names = players.split(", ")
    return HEAD.format(v=variant, p=players) + "".join(f"{n}: ?\n" for n in names) + ("\n" + moves if moves else "")


def test_the_leader_of_unknown_hands_may_lead_any_tile_and_not_pass_or_draw():
    for variant, players in (("partnership", "A, B, C, D"), ("all-fives", "A, B"), ("draw", "A, B")):
        legal = position_data(BoardRecord(_sheet(variant, players), "x"))["legal"]
        assert sorted(m["kind"] for m in legal) == ["play"] * 28, variant
        assert [m["tile"] for m in legal] == sorted(m["tile"] for m in legal)          # by their numbers


def test_each_end_apart_and_the_tiles_on_the_table_and_excluded_by_passes_left_out():
    text = _sheet("partnership", "A, B, C, D", "1. A [2-6] B pass\n")
    legal = position_data(BoardRecord(text, "x"))["legal"]          # C: ends 2 and 6
    moves = {m["move"] for m in legal}
    assert "[2-6]@2" not in moves and "[2-6]@6" not in moves          # on the table
    assert {"[2-2]@2", "[6-6]@6", "[0-2]@2", "[0-6]@6", "pass"} <= moves
    assert all(m["kind"] == "pass" or 2 in m["tile"] or 6 in m["tile"] for m in legal)
    # B passed on 2 and 6: at his next turn no tile of a 2 or a 6 is offered him, though the ends still show them
    text = _sheet("partnership", "A, B, C, D", "1. A [2-6] B pass C [2-3]@2 D [6-4]@6\n")
    legal = position_data(BoardRecord(text, "x"))["legal"]          # A: ends 3 and 4
    assert {"[3-4]@3", "[3-4]@4"} <= {m["move"] for m in legal}                 # a tile that fits both: twice
    text += "2. A [3-4]@3\n"
    legal = position_data(BoardRecord(text, "x"))["legal"]          # B: ends 4 and 4
    assert legal and all(not ({2, 6} & set(m["tile"])) for m in legal if m["tile"])


def test_a_partly_known_hand_is_offered_its_tiles_and_the_unseen_ones():
    text = (HEAD.format(v="partnership", p="A, B, C, D") + "A: [6-6] ? ? ? ? ? ?\nB: [0-0] [0-1] [0-2] [0-3] [0-4] [0-5] "
            "[0-6]\nC: ?\nD: ?\n")
    legal = position_data(BoardRecord(text, "x"))["legal"]
    tiles = {tuple(m["tile"]) for m in legal}
    assert (6, 6) in tiles and not any(t[0] == 0 for t in tiles) and len(tiles) == 28 - 7


@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["partnership", "draw", "all-fives", "block"]))
def test_the_moves_of_a_real_game_are_offered_with_the_hands_hidden(seed, variant):
    """A random legal game, its hands made unknown: at every move the move played is among those offered, and
    the text written move by move from the offers alone validates with no error."""
    game = random_game(variant, seed)
    rep = replay_record(parse(write(Record([game], "x", [])), "x"))[0]
    names = ", ".join(rep.players)
    lead = rep.steps[0].entry.player
    text = (f'[Event "x"]\n[Variant "{variant}"]\n[Players "{names}"]\n[Lead "{lead}"]\n'
            + "".join(f'[{k}]\n' for k in ()) + "\n" + "".join(f"{n}: ?\n" for n in rep.players))
    if "Rules" in game.tags:
        pytest.skip("a variant with options")
    for s in rep.steps:
        if s.move is None:
            continue
        board = position_data(BoardRecord(text, "x"))
        # (the opener adding a matching tile to his lead, the draw game's rule 004: offered him out of turn)
        offered = {m["move"]: m for m in board["legal"] if m["player"] == s.entry.player}
        assert board["turn"] == s.entry.player or s.index == 1 and all(m.get("extra") for m in offered.values())
        assert str(s.move) in offered, (str(s.move), sorted(offered))
        m = offered[str(s.move)]
        text = enter_move(BoardRecord(text, "x"), 0, m["move"] + (f" +{m['claim']}" if m["claim"] else ""), m["player"])["text"]
    errors = [d for g in validate_document(text, "x")["games"] for d in g["diagnostics"] if d["severity"] == "error"]
    assert errors == [], (text, errors)


def test_a_result_is_written_only_when_the_hand_is_over():
    from analyzer.server.library import BoardRecord, BoardError, result_entry

    with pytest.raises(BoardError, match="not over"):
        result_entry(BoardRecord(_sheet("partnership", "A, B, C, D", "1. A [2-6] B pass\n"), "x"), 0)
    game = random_game("all-fives", 7)
    full = write(Record([game], "x", []))
    stated = game.tags["Result"]
    assert result_entry(BoardRecord(full.replace(f'[Result "{stated}"]\n', ""), "x"), 0) == {"text": full, "result": stated,
                                                                            "closing": None}


# the draw game (004): "highest double opens and may add a matching tile"; a hand of 8 for two players
DRAW = ('[Event "x"]\n[Variant "draw"]\n[Players "A, B"]\n[Lead "A"]\n\n'
        "A: [6-6] [3-6] [5-6] [0-1] [0-2] [0-3] [1-1] [0-4]\nB: [0-0] [1-2] [1-3] [2-2] [2-3] [3-3] [4-4] [0-5]\n\n"
        "1. A [6-6]\n")


@pytest.mark.parametrize("hands", ["known", "unknown"])
def test_the_draw_game_openers_extra_tile_is_offered_through_the_api(hands):
    """After the opener's double, the board offers him (out of turn, marked ``extra``) each matching tile he could
    add: with his hand known, exactly his tiles with a 6; with it unknown, every unseen tile with a 6. Entered
    through /api/enter, the record validates and he has added it: nothing more is offered him, B is to move."""
    text = DRAW if hands == "known" else re.sub(r"^([AB]): .*$", r"\1: ?", DRAW, flags=re.M)
    with board_client([]) as client:
        board = client.post("/api/position", json={"text": text}).json()
        assert board["turn"] == "B"
        extra = [m for m in board["legal"] if m.get("extra")]
        assert {m["player"] for m in extra} == {"A"} and all(m["kind"] == "play" and m["end"] == 6 for m in extra)
        tiles = sorted(tuple(m["tile"]) for m in extra)
        assert tiles == ([(3, 6), (5, 6)] if hands == "known" else [(k, 6) for k in range(6)])
        assert all(not m.get("extra") for m in board["legal"] if m["player"] == "B")
        m = next(m for m in extra if m["tile"] == [3, 6])
        entered = client.post("/api/enter", json={"text": text, "move": m["move"], "player": m["player"]}).json()
        checked = client.post("/api/validate", json={"text": entered["text"]}).json()
        assert [d["code"] for d in checked["games"][0]["diagnostics"] if d["severity"] == "error"] == []
        after = client.post("/api/position", json={"text": entered["text"]}).json()
        assert after["turn"] == "B" and not any(m.get("extra") for m in after["legal"])
        assert after["board"]["line"] != board["board"]["line"]
    # where the opener holds no other tile of his double's number, none is offered
    plain = DRAW.replace("[3-6] [5-6]", "[3-4] [4-5]")
    assert not any(m.get("extra") for m in position_data(BoardRecord(plain, "x"))["legal"])
