"""``domino diagram``: a position as a standalone SVG, the tiles on the table and in the hands as the
rules leave them, the last move marked, hands face up or down as asked, names escaped."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse, read, write
from analyzer.record import Record
from analyzer.render.diagram import game_diagram, position_at

from conftest import RECORDS, ROOT

SVG = "{http://www.w3.org/2000/svg}"


def _rects(svg: str, cls: str) -> list:
    root = ET.fromstring(svg)
    return [r for r in root.iter(SVG + "rect") if r.get("class") == cls]


def _replay(name: str, game: int = 0):
    return replay_record(parse((RECORDS / name).read_text(encoding="utf-8"), name))[game]


def test_the_book_deal_after_round_two():
    """After round 2 of the book deal (8 moves: B [1-1], C pass, D [1-5], A [1-4], B pass, C [4-5], D [0-4],
    and A's...) every tile laid is on the table once, the rest in the hands; the last tile is marked."""
    rep = _replay("seed1.dom")
    played = [s for s in rep.steps[:7] if s.move is not None and s.move.is_play]
    svg = game_diagram(rep, 7, "all")
    tiles = _rects(svg, "tile")
    last = _rects(svg, "tile last")
    assert len(last) == 1
    assert len(tiles) + len(last) == 28                 # 5 on the table, 23 in the four hands, all face up
    assert len(played) == 5 and _rects(svg, "back") == []
    assert "after move 7 (D [0-4]" in svg


def test_hands_face_down_but_one():
    rep = _replay("seed1.dom")
    svg = game_diagram(rep, 0, "C")
    assert len(_rects(svg, "back")) == 21 and len(_rects(svg, "tile")) == 7
    svg = game_diagram(rep, 0, "none")
    assert len(_rects(svg, "back")) == 28 and "the deal" in svg


def test_a_layout_with_arms_is_a_cross():
    rep = _replay("variant-french.dom", 2)
    svg = game_diagram(rep, len(rep.steps), "none")
    root = ET.fromstring(svg)
    labels = [t.text for t in root.iter(SVG + "text") if t.get("class") == "arm"]
    assert len(labels) == 4 and sorted(label.split(":")[0] for label in labels) == ["1", "2", "3", "4"]
    on_table = sum(1 for s in rep.steps if s.move is not None and s.move.is_play)
    assert len(_rects(svg, "tile")) + len(_rects(svg, "tile last")) == on_table


def test_names_from_the_record_are_escaped():
    game = random_game("partnership", seed=1)
    game.tags["Event"] = "<script>alert(1)</script> & co"
    svg = game_diagram(replay_record(Record(games=[game]))[0], 3, "all")
    ET.fromstring(svg)                                 # well-formed
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_the_command(tmp_path):
    out = tmp_path / "pos.svg"
    done = subprocess.run([sys.executable, "-m", "analyzer", "diagram", str(RECORDS / "seed1.dom"), "--game", "1",
                           "--move", "7", "--face-up", "B", "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == game_diagram(_replay("seed1.dom"), 7, "B")
    bad = subprocess.run([sys.executable, "-m", "analyzer", "diagram", str(RECORDS / "seed1.dom"), "--game", "2",
                          "-o", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "holds 1 game" in bad.stderr and "Traceback" not in bad.stderr
    record = tmp_path / "two.dom"
    record.write_text(write(Record(games=[random_game("draw", seed=2)])), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "analyzer", "diagram", str(record), "-o", str(out), "--face-up", "none"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and "after move" in out.read_text(encoding="utf-8")


def test_a_bad_variant_or_rule_is_a_usage_error(tmp_path):
    for extra in (["--variant", "tiddlywinks"], ["--rule", "nonsense=9"], ["--face-up", "Z"]):
        done = subprocess.run([sys.executable, "-m", "analyzer", "diagram", str(RECORDS / "seed1.dom"), *extra,
                               "-o", str(tmp_path / "p.svg")], capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 2 and "Traceback" not in done.stderr and "Error:" in done.stderr, extra
        assert not (tmp_path / "p.svg").exists()


def test_the_board_after_the_openers_extra_tile_has_the_other_player_to_move():
    """004: "Wer den höchsten Pasch hat ... darf, wenn er einen passenden hat, auch diesen anlegen": after
    Ben's [6-6] and his extra [3-6] it is Anna's turn, and the position drawn (and offered by the board)
    says so."""
    rep = replay_record(read(str(RECORDS / "draw-one-view-extra.dom")))[0]
    ben, anna = rep.players.index("Ben"), rep.players.index("Anna")
    assert [position_at(rep, k)[0].turn for k in (1, 2, 3)] == [ben, anna, ben]
