"""Sheets without hands (issue 65): the deals a whole record allows, a sheet no deal fits, and every move
judged over those deals.

The references are independent of the inference: a deal is one the sheet allows when the record with that
deal written replays without an error (the replay's own judge, the written result included), found by
trying every way to give the tiles nobody laid to the hands; a sheet made from a complete record always
allows that record's deal; where it allows one deal, its analysis is the analysis of the record with
that deal written."""
from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from analyzer.analysis import AnalysisSettings, analyze_replay
from analyzer.analysis.settings import FairRun
from analyzer.analysis.sheets import sheet_analyze, written_game
from analyzer.inference import NoWorld, worlds_at
from analyzer.inference.sheet import SheetDeal, first_contradiction, sheet_deals
from analyzer.generate import random_game
from analyzer.match import random_hand, replay_record
from analyzer.notation import read, write
from analyzer.position import mask_of, tiles_of
from analyzer.record import Game, Record
from analyzer.replay import replay
from analyzer.replay.result import result_sentence

from conftest import RECORDS
from test_cli import run
from test_inference import FAMILIES, random_record, small


def sheet_of(game: Game, keep: tuple[str, ...] = ()) -> Game:
    """``game`` written again with every hand but those of ``keep`` as ``?``."""
    return dataclasses.replace(game, hands=tuple(h if h.player in keep else dataclasses.replace(h, tiles=None, unknown=0)
                                                 for h in game.hands))


def with_result(game: Game, variant) -> Game:
    """``game`` with the Result tag its complete record gives (where the hand is over and the tag, written as
    the replay words the result, reads back as that result)."""
    rep = replay(game, variant)
    if rep.outcome is None or rep.result is None:
        return game
    side = "draw" if rep.result.winner is None else f"{rep.side_name(rep.result.winner)} {rep.result.points}"
    tagged = dataclasses.replace(game, tags={**game.tags, "Result": f"{side} {rep.outcome.termination}"})
    return tagged if replay(tagged, variant).valid else game


def brute_deals(rep, variant) -> list[tuple[int, ...]]:
    """Every deal of a game without draws whose record, written with it, replays without an error: each
    player's laid tiles are his, the other tiles are given to the hands (and the sleepers) in every way the
    hands' sizes allow, and the replay judges."""
    n = len(rep.players)
    laid = [0] * n
    for step in rep.steps:
        if step.move is not None and step.move.tile is not None:
            laid[step.seat] |= step.move.tile.bit
    rest = [t for t in variant.dealing.tiles if not any(t.bit & m for m in laid)]
    sizes = [variant.dealing.hand_size - laid[s].bit_count() for s in range(n)]
    out = []

    def place(s: int, left: list, hands: list[int]):
        if s == n:
            yield tuple(hands)
            return
        for chosen in itertools.combinations(left, sizes[s]):
            yield from place(s + 1, [t for t in left if t not in chosen], hands + [laid[s] | mask_of(chosen)])

    for hands in place(0, rest, []):
        written = written_game(rep, SheetDeal(hands))
        if replay(written, variant).valid:
            out.append(hands)
    return out


def _sheets(count: int, seed: int = 0):
    """Small sheets of every block family: (name, variant, complete game, sheet replayed)."""
    rng = random.Random(seed)
    for name, variant in FAMILIES:
        for _ in range(count):
            game = with_result(random_record(variant, rng), variant)
            sheet = sheet_of(game)
            rep = replay(sheet, variant)
            if rep.valid:
                yield name, variant, game, rep


@pytest.mark.parametrize("name,variant", FAMILIES, ids=[f for f, _ in FAMILIES])
def test_the_deals_a_sheet_allows_are_those_whose_written_record_replays_without_an_error(name, variant):
    rng = random.Random(65)
    checked = 0
    for _ in range(6):
        game = with_result(random_record(variant, rng), variant)
        rep = replay(sheet_of(game), variant)
        if not rep.valid:
            continue
        found = sheet_deals(rep, max_deals=10_000)
        brute = brute_deals(rep, variant)
        assert found.count == len(brute) and found.method == "all"
        assert sorted(d.hands[:len(rep.players)] for d in found.deals) == sorted(brute)
        # the deal of the complete record is always among them
        truth = tuple(mask_of(h.tiles) for h in game.hands)
        assert truth in brute
        checked += 1
    assert checked >= 3


def test_the_true_deal_is_never_excluded_in_any_family_with_some_hands_written():
    rng = random.Random(7)
    for name, variant in FAMILIES:
        for k in range(4):
            game = with_result(random_record(variant, rng), variant)
            keep = tuple(p for s, p in enumerate(game.players) if (s + k) % 3 == 0)
            rep = replay(sheet_of(game, keep), variant)     # (valid or not: a sheet may stop short of its passes)
            truth = tuple(mask_of(h.tiles) for h in game.hands)
            worlds = worlds_at(rep, len(rep.steps), record=True)
            assert truth in {worlds.view.deal(w) for w in worlds}, name


def test_a_draw_games_deals_hold_the_deal_and_the_draws_of_its_record():
    listed = 0
    for seed in range(6):
        variant = small("draw", 3, 4) if seed % 2 else small("draw", 4, 5)
        game = random_hand(variant, random.Random(seed))[0]
        rep_full = replay(game, variant)
        sheet = sheet_of(game, keep=(game.players[0],) if seed % 3 == 0 else ())
        rep = replay(sheet, variant)        # (valid or not: a draw game's sheet may not show that the hand is over)
        found = sheet_deals(rep, max_deals=5_000)
        truth = tuple(mask_of(h.tiles) for h in game.hands)
        drawn = tuple(st.move.tile for st in rep_full.steps if st.move is not None and st.move.draw)
        if found.method == "all":              # (every deal listed: the record's own is among them)
            listed += 1
            assert any(d.hands == truth and d.order[:len(drawn)] == drawn for d in found.deals)
        for deal in found.deals[:20]:          # each one written replays without an error
            assert replay(written_game(rep, deal), variant).valid
    assert listed >= 2


def test_where_a_sheet_allows_one_deal_its_analysis_is_the_records_with_that_deal_written():
    seen = 0
    for name, variant, game, rep in _sheets(12, seed=3):
        found = sheet_deals(rep)
        if found.count != 1:
            continue
        seen += 1
        got = sheet_analyze(rep)
        full = analyze_replay(replay(game, variant))
        assert got.deals.count == 1 and got.values == full.values
        assert [(d.index, d.played, d.loss, [(a.move, a.value) for a in d.alternatives]) for d in got.decisions] == \
               [(d.index, d.played, d.loss, [(a.move, a.value) for a in d.alternatives]) for d in full.decisions]
        for d in got.decisions:
            assert d.loss_over.mean == d.loss == d.loss_over.min == d.loss_over.max
        assert (got.critical and got.critical.index) == (full.critical and full.critical.index)
    assert seen >= 2


def test_the_values_over_the_deals_are_the_mean_least_and_most_of_each_deals_own():
    checked = 0
    for name, variant, game, rep in _sheets(6, seed=11):
        found = sheet_deals(rep)
        if not 2 <= found.count <= 12 or not any(st.move is not None and st.move.tile is not None for st in rep.steps):
            continue
        checked += 1
        got = sheet_analyze(rep, run=FairRun(workers=1))
        per_deal = [analyze_replay(replay(written_game(rep, d), variant)) for d in found.deals]
        for decision in got.decisions:
            for alt in decision.alternatives:
                values = [a.value for in_deal in per_deal for d in in_deal.decisions if d.index == decision.index
                          for a in d.alternatives if a.move == alt.move]
                assert alt.over_deals.deals == len(values)
                assert (alt.over_deals.min, alt.over_deals.max) == (min(values), max(values))
                assert alt.over_deals.mean == pytest.approx(sum(values) / len(values), abs=1e-4)
            losses = [next((d.loss for d in in_deal.decisions if d.index == decision.index), 0) for in_deal in per_deal]
            assert decision.loss_over.mean == pytest.approx(sum(losses) / len(losses), abs=1e-4)
            assert (decision.loss_over.min, decision.loss_over.max) == (min(losses), max(losses))
    assert checked >= 3


@pytest.mark.slow
def test_a_cuban_sheets_free_lead_is_valued_in_each_deal_as_the_record_with_that_deal_written_values_it():
    """The Cuban double-nine's free lead needs more than the fair worlds' 2 million positions in most deals (here
    in both deals the sheet allows); the record with a deal written values it (its search's limit is the double-nine
    deal's, ``Variant.search_scale``), so the sheet does too: each lead's mean is over both deals, that of their
    written records' values (before, every lead was left out of the sheet's means, past the limit)."""
    game = random_game("cuban", 22)
    sheet = dataclasses.replace(game, hands=tuple(h if i < 2 else dataclasses.replace(h, tiles=None, unknown=0)
                                                  for i, h in enumerate(game.hands)))       # (C and D: ?)
    rep = replay(sheet, "cuban")
    found = sheet_deals(rep)
    assert found.count == 2 and found.exact
    got = sheet_analyze(rep, run=FairRun(workers=1), seconds=None)
    per_deal = [analyze_replay(replay(written_game(rep, d), "cuban"), AnalysisSettings(steps=frozenset({0})))
                for d in found.deals]
    lead = next(d for d in got.decisions if d.index == 0)
    assert len(lead.alternatives) == 10
    for alt in lead.alternatives:
        values = [a.value for in_deal in per_deal for a in in_deal.decisions[0].alternatives if a.move == alt.move]
        assert len(values) == 2 and None not in values
        assert alt.over_deals.deals == 2
        assert alt.over_deals.mean == pytest.approx(sum(values) / 2, abs=1e-4)
        assert (alt.over_deals.min, alt.over_deals.max) == (min(values), max(values))


def test_a_written_result_no_deal_gives_is_an_error_at_the_result_tag():
    rec = read(RECORDS / "sheet-partnership.dom")
    game = rec.games[0]
    rep = replay_record(rec)[0]
    assert rep.valid
    results = {result_sentence(r.outcome, r.result, r.variant, r.players)
               for r in (replay(written_game(rep, d), rep.variant) for d in sheet_deals(rep).deals)}
    assert results == {"A goes out (domino); A/C win 12"}        # the sheet's own Result tag
    wrong = dataclasses.replace(game, tags={**game.tags, "Result": "A/C 30 domino"})
    bad = replay_record(Record([wrong]))[0]
    assert [d.code for d in bad.errors] == ["result-mismatch"]
    assert bad.errors[0].line == game.tag_pos["Result"].line


def contradicted_sheets(seed: int = 9, tries: int = 80):
    """Sheets altered at random (one tile laid swapped for another not laid), whose moves replay without an
    error but which no deal fits: (variant, sheet game, replay, the problem)."""
    rng = random.Random(seed)
    for name, variant in FAMILIES[:6]:
        for _ in range(tries):
            game = random_record(variant, rng)
            plays = [i for i, m in enumerate(game.moves) if m.tile is not None and not m.draw]
            i = rng.choice(plays[1:])
            pool = [t for t in variant.dealing.tiles if t not in {m.tile for m in game.moves}]
            if not pool:
                continue
            moves = list(game.moves)
            moves[i] = dataclasses.replace(moves[i], tile=rng.choice(pool), end=None)
            sheet = sheet_of(dataclasses.replace(game, moves=moves))
            rep = replay(sheet, variant)
            if not rep.deal_ok or any(not st.ok for st in rep.steps):
                continue
            problem = first_contradiction(rep)
            if problem is not None:
                yield variant, sheet, rep, problem


def test_a_move_no_deal_allows_is_an_error_at_that_move_with_what_it_contradicts():
    """Where the replay finds no error in an altered sheet but no deal fits, no deal written into it replays
    without an error, and the error is at the first move after which the inference finds no deal (every deal
    before it still fitting), naming its player."""
    found = 0
    for variant, sheet, rep, problem in contradicted_sheets():
        assert brute_deals(rep, variant) == []
        if problem.step is None:
            continue
        found += 1
        k = problem.step
        worlds_at(rep, k, record=True)              # deals fit every move before it
        with pytest.raises(NoWorld):
            worlds_at(rep, k + 1, record=True)
        assert rep.players[rep.steps[k].seat] in str(problem)
    assert found >= 2


def test_validate_names_the_move_of_a_sheet_no_deal_fits(tmp_path):
    variant, sheet, rep, problem = next((v, s, r, p) for v, s, r, p in contradicted_sheets() if p.step is not None)
    path = tmp_path / "altered.dom"
    path.write_text(write(Record([sheet])), encoding="utf-8")
    again = replay_record(read(path), variant)[0]
    errors = [d for d in again.errors]
    assert [d.code for d in errors] == ["no-deal"]
    step = again.steps[problem.step]
    assert (errors[0].line, errors[0].column) == (step.entry.pos.line, step.entry.pos.column)
    assert step.entry.player in errors[0].message


def test_analyze_judges_every_move_of_a_sheet_in_text_and_json():
    path = str(RECORDS / "sheet-partnership.dom")
    res = run("analyze", "--json", path)
    assert res.exit_code == 0, res.output
    game = json.loads(res.stdout)["games"][0]
    rep = replay_record(read(path))[0]
    count = len(brute_deals(rep, rep.variant))      # (the replay's judge over every way to give the tiles left)
    assert count == 2 and game["deals"]["count"] == count and game["deals"]["method"] == "all"
    assert game["fair_seats"] == ["A", "B", "C", "D"]
    for d in game["decisions"]:
        assert d["played_value"] is None and d["loss_over_deals"]["deals"] == count
        assert all(a["value"] is None and a["over_deals"]["deals"] >= 1 for a in d["alternatives"])
        assert d["fair"] is not None
    # every player with a choice is judged
    assert {d["player"] for d in game["decisions"]} == {"A", "B", "C", "D"}
    text = run("analyze", path).output
    assert f"Deals: {count} deals the sheet allows, every one analysed" in text
    assert "Critical move:" in text and "Fair critical move:" in text


@pytest.mark.slow
def test_a_kozel_match_and_a_draw_game_without_hands_are_judged_move_by_move():
    # (a few deals and hands keep it short)
    for name, games in (("sheet-kozel.dom", 3), ("sheet-draw.dom", 1)):
        res = run("analyze", "--json", "--max-deals", "12", "--hands", "1", "--decision-deals", "4", "--exact-below", "4",
                  str(RECORDS / name))
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)["games"]
        assert len(data) == games
        for game in data:
            assert game["deals"]["count"] >= 1, name
            assert game["decisions"] and all(d["fair"] is not None for d in game["decisions"]), name


def test_train_makes_problems_of_a_sheets_moves_where_it_fixes_the_players_hand():
    """C's hand is the same in every deal the partnership log allows: his graded moves are problems, the
    position showing his hand; D may have held two hands, so no one position is the one he saw."""
    path = str(RECORDS / "sheet-partnership.dom")
    rep = replay_record(read(path))[0]
    hands = {p: {d.hands[s] for d in sheet_deals(rep).deals} for s, p in enumerate(rep.players)}
    assert len(hands["C"]) == 1 and len(hands["D"]) > 1
    mine = json.loads(run("train", "--player", "C", "--decision-deals", "20", "--json", path).stdout.split("\n1 record")[0])
    assert mine["problems"]
    (hand,) = hands["C"]
    for problem in mine["problems"]:
        line = next(x for x in problem["position"].splitlines() if x.startswith("C:"))
        shown = set(line[2:].split())
        assert shown and shown <= {str(t) for t in tiles_of(hand, rep.initial.max_pip)}
        assert problem["alternatives"]
    theirs = json.loads(run("train", "--player", "D", "--decision-deals", "20", "--json", path).stdout.split("\n1 record")[0])
    assert theirs["problems"] == []


def test_a_hungarian_sheet_follows_its_runs_and_its_deals_show_the_block():
    """Hungarian (004: "so viele Steine wie möglich"): a player going on with his run from tiles the sheet does not
    show is no turn-order error, and a hand the sheet leaves blocked without its last passes is over in the deals
    that give its written result: no error, the result checked against them."""
    checked = 0
    for seed in range(6):
        game = random_game("hungarian", seed)
        full = replay(game, "hungarian")
        if not full.valid:
            continue
        rep = replay_record(Record([sheet_of(game)]), "hungarian")[0]
        assert rep.valid, [str(d) for d in rep.errors]
        truth = tuple(mask_of(h.tiles) for h in game.hands)
        worlds = worlds_at(rep, len(rep.steps), record=True)
        if worlds.count <= 5_000:
            assert truth in {worlds.view.deal(w) for w in worlds}
        if full.outcome.termination == "blocked":
            assert any(d.code == "deals-result" for d in rep.diagnostics)
        checked += 1
    assert checked >= 3
