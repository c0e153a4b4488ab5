"""Every alternative's best line (``analyze --lines``), played out with the rules, scores exactly its value.

The line of an alternative is written into the record in place of the rest of the hand (the moves
before the decision kept, the line after them, a claim for every point scored during play) and the
game is replayed by the replayer, which judges every move; the hand's score it then finds, for the
first side (or, in a game of individual players, for the mover against the rest), is the value the
analysis gave the alternative."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from analyzer.analysis import AgainstTheRest, analyze_replay
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.record import MoveEntry, Record
from analyzer.tiles import Move

from conftest import RECORDS, ROOT
from analyzer.analysis import AnalysisSettings

# every variant family with an open-hands analysis: partnership and block, draw, All Fives (and the
# pubs' Fives and Threes), French and cross arms, Hungarian runs, a game of individual players
FAMILY_RECORDS = ["seed1.dom", "variant-block7.dom", "variant-draw.dom", "variant-draw-003.dom",
                  "variant-all-fives.dom", "variant-pub-fives-threes.dom",
                  pytest.param("variant-french.dom", marks=pytest.mark.slow), "variant-cross.dom",
                  "variant-hungarian.dom", "variant-cutthroat-3.dom"]
GENERATED = [("partnership", 3), ("block7", 5), ("draw", 2), ("all-fives", 1), ("hungarian", 4)]


def _entry(player: str, text: str, pos, variant) -> MoveEntry | None:
    """The record's entry for one move of a line (None: the opener adds no tile, which is not written),
    pushed on ``pos``; a play that scores during play claims its points."""
    if text == "no extra tile":
        return None
    move = Move.parse(text)
    pos.push(move)
    claim = None
    if variant.play is not None and move.is_play:
        claim = variant.play.points(variant.play.ends_total(pos.line(), pos.ends)) or None
    return MoveEntry(player, move.tile, move.end, draw=move.draw, claim=claim, arm=move.arm)


def _played_out(record: Record, number: int, rep, index: int, line: list[str]):
    """The game ``number`` of ``record`` with its moves from step ``index`` on replaced by ``line``, replayed."""
    pos = rep.initial.copy()
    for step in rep.steps[:index]:
        if step.move is not None:
            pos.push(step.move)
    moves = [step.entry for step in rep.steps[:index]]
    for item in line:
        player, text = item.split(" ", 1)
        entry = _entry(player, text, pos, rep.variant)
        if entry is not None:
            moves.append(entry)
    game = record.games[number]
    tags = {k: v for k, v in game.tags.items() if k not in ("Result", "Score")}
    games = list(record.games[:number]) + [dataclasses.replace(game, moves=moves, tags=tags)]
    return replay_record(dataclasses.replace(record, games=games))[number]


def _value(rep, variant, seat: int | None) -> int:
    """The finished hand's score as the analysis counts it: for the first side, or for ``seat`` against the rest."""
    facts = rep.facts
    if seat is None:
        return variant.value(facts)
    points = facts.play_points or (0,) * variant.players
    return AgainstTheRest(variant, seat).value(facts) + 2 * points[seat] - sum(points)


def _check_lines(record: Record) -> int:
    checked = 0
    for number, rep in enumerate(replay_record(record)):
        if not rep.deal_ok or any(rep.initial.hidden):
            continue
        analysis = analyze_replay(rep, AnalysisSettings(lines=True))
        individual = rep.variant.seating.sides > 2
        assert analysis.decisions, f"{record.source} game {number + 1}: no decision to check"
        for d in analysis.decisions:
            for alt in d.alternatives:
                assert alt.line is not None and alt.line[0].endswith(alt.move), (d.index, alt)
                # the opener of a draw game who added no tile to his lead chose so right after it
                start = d.index + 1 if d.played == "no extra tile" else d.index
                out = _played_out(record, number, rep, start, alt.line)
                errors = [str(x) for x in out.diagnostics if x.severity == "error"]
                assert not errors, (record.source, d.index, alt.move, alt.line, errors)
                assert out.facts is not None, (record.source, d.index, alt.move, "the line does not end the hand")
                seat = rep.players.index(d.player) if individual else None
                assert _value(out, rep.variant, seat) == alt.value, (record.source, d.index, alt.move, alt.line)
                checked += 1
    return checked


@pytest.mark.parametrize("name", FAMILY_RECORDS)
def test_every_line_of_a_record_scores_its_value(name):
    path = RECORDS / name
    record = parse(path.read_text(encoding="utf-8"), str(path))
    assert _check_lines(record) > 0


@pytest.mark.parametrize("variant,seed", GENERATED)
def test_every_line_of_a_generated_game_scores_its_value(variant, seed):
    game = random_game(variant, seed=seed)
    assert _check_lines(Record(source=f"<random {variant} {seed}>", games=[game])) > 0


def test_analyze_lines_on_the_command_line():
    """``--lines``: each alternative of the JSON carries its line, the move itself first, in play order;
    the text output prints it under the alternative."""
    path = str(RECORDS / "seed1.dom")
    out = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--lines", "--json", path],
                         capture_output=True, text=True, cwd=ROOT)
    data = json.loads(out.stdout)
    first = data["games"][0]["decisions"][0]
    assert first["player"] == "B"
    for alt in first["alternatives"]:
        assert alt["line"][0] == f"B {alt['move']}"
        assert [item.split()[0] for item in alt["line"][:4]] == ["B", "C", "D", "A"]
    plain = subprocess.run([sys.executable, "-m", "analyzer", "analyze", path], capture_output=True, text=True,
                           cwd=ROOT)
    assert "line:" not in plain.stdout
    assert all("line" not in alt for alt in json.loads(subprocess.run(
        [sys.executable, "-m", "analyzer", "analyze", "--json", path], capture_output=True, text=True,
        cwd=ROOT).stdout)["games"][0]["decisions"][0]["alternatives"])
    text = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--lines", path], capture_output=True,
                          text=True, cwd=ROOT).stdout
    assert "          line: B [1-1], C pass" in text


def test_lines_with_the_fair_analysis():
    """``--fair --lines``: the open-hands lines stay beside the fair values."""
    out = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--fair", "--lines", "--decision-deals", "4",
                          "--exact-below", "1", "--json", str(RECORDS / "variant-block7.dom")],
                         capture_output=True, text=True, cwd=ROOT)
    game = json.loads(out.stdout)["games"][0]
    alts = [a for d in game["decisions"] for a in d["alternatives"]]
    assert alts and all(a["line"][0].split(" ", 1)[1] == a["move"] and "fair" in a for a in alts)
