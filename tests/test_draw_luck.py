"""The luck of each drawn tile (``analyzer.analysis.drawluck``, issue #30 item 3) against an independent
reference: the candidates counted from the record (every tile of the set neither on the table nor in the
drawer's hand at the draw; one from another hand kept where the record, with the two tiles exchanged,
still replays by the rules), and each exchanged deal valued by the plain minimax of
``tests/minimax_reference.py`` (``DrawReference``: no pruning, no table, nothing of ``analyzer.search``)
over the boneyard order the analysis uses (the tiles drawn, in order, then the rest ascending), the
two tiles exchanged in it too."""
from __future__ import annotations

import functools
import json
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from analyzer.analysis import AgainstTheRest
from analyzer.analysis.drawluck import DrawLuck, draw_lucks, with_match
from analyzer.analysis.lucksums import side_totals
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.replay import replay
from analyzer.rules import find_variant
from analyzer.tiles import Tile, tile_set
from conftest import RECORDS
from minimax_reference import DrawReference

#: the most tiles left in the hands after a draw for the plain minimax to take it
SMALL = 8


def _exchanged(rep, last: int, t, c):
    """The record's game up to and with step ``last``, tiles ``t`` and ``c`` exchanged everywhere, replayed."""
    swap = {t: c, c: t}
    game = rep.game
    entry = rep.steps[last].entry
    upto = next(j for j, m in enumerate(game.moves) if m is entry)
    hands = tuple(replace(h, tiles=tuple(swap.get(x, x) for x in h.tiles)) for h in game.hands)
    moves = [replace(m, tile=swap.get(m.tile, m.tile)) for m in game.moves[:upto + 1]]
    return replay(replace(game, hands=hands, moves=moves, tags=dict(game.tags, Result="*")), rep.variant,
                  terms=rep.terms)


def reference(rep, k: int, order: list):
    """``{candidate: value for the drawer's side after drawing it}`` at the draw of step ``k``, or None when
    the hand left is too large for the plain minimax."""
    variant = rep.variant
    steps = rep.steps
    seat, t = steps[k].seat, steps[k].move.tile
    dealt = [set(h.tiles) for h in rep.game.hands]
    held = set(dealt[seat])
    table = set()
    for s in steps[:k]:
        if s.move is None or s.move.tile is None:
            continue
        if s.move.draw:
            if s.seat == seat:
                held.add(s.move.tile)
        else:
            table.add(s.move.tile)
            held.discard(s.move.tile)
    starter = rep.game.tags.get("Starter")
    unseen = [x for x in tile_set(variant.dealing.max_pip) if x not in table and x not in held
              and str(x) != (starter or "").strip()]
    n_drawn = sum(1 for s in steps[:k] if s.move is not None and s.move.draw)
    yard = set(order[n_drawn:])
    left = sum(len(h) for h in dealt) + n_drawn + 1 - len(table)     # tiles in the hands after the draw
    if left > SMALL:
        return None
    individual = variant.seating.sides > 2
    rules = AgainstTheRest(variant, seat) if individual else variant
    sign = 1 if individual or variant.seating.teams[seat] == 0 else -1
    out = {}
    for c in unseen:
        again = _exchanged(rep, k, t, c)
        if c not in yard and not (again.deal_ok and again.legal_prefix == len(again.steps) == k + 1):
            continue
        world = [c if x == t else t if x == c else x for x in order]
        pos = again.position_at(k + 1)
        out[c] = sign * DrawReference(rules, world).value(pos)
    return out


def analysis_order(rep) -> list:
    drawn = [s.move.tile for s in rep.steps if s.move is not None and s.move.draw]
    dealt = {x for h in rep.game.hands for x in h.tiles}
    starter = (rep.game.tags.get("Starter") or "").strip()
    rest = sorted(x for x in tile_set(rep.variant.dealing.max_pip) if x not in dealt and x not in drawn
                  and str(x) != starter)
    return drawn + rest


def _games():
    for name in ("variant-draw.dom", "variant-cutthroat-draw.dom", "variant-draw-starter.dom", "variant-draw-003.dom"):
        yield from replay_record(read(RECORDS / name))
    for variant, seeds in ((find_variant("draw", {"players": "3"}), range(3)),
                           (find_variant("draw", {"players": "4"}), range(3)),
                           (find_variant("draw", {"players": "2", "draw": "one"}), range(3)),
                           (find_variant("all-fives", {}), range(2))):
        for seed in seeds:
            yield replay(random_game(variant, seed=seed), variant)


@functools.cache
def _compared() -> list:
    """Every small draw of the games: (game, tool's luck, reference values)."""
    return list(_small_draws())


def _small_draws():
    for rep in _games():
        order = analysis_order(rep)
        draws = [k for k, s in enumerate(rep.steps) if s.move is not None and s.move.draw]
        for k, luck in zip(draws, draw_lucks(rep)):
            ref = reference(rep, k, order)
            if ref is not None:
                yield rep, luck, ref


def test_each_draws_luck_equals_plain_minimax_over_the_exchanged_deals():
    checked = 0
    for rep, luck, ref in _compared():
        assert set(luck.candidates) == set(ref), (rep.source, luck.index)
        got = dict(zip(luck.candidates, luck.values))
        # the tool counts the points scored so far, the reference only those to come: compare differences
        assert {c: v - luck.value for c, v in got.items()} == {c: v - ref[luck.tile] for c, v in ref.items()}
        mean = Fraction(sum(ref.values()), len(ref))
        assert luck.points == ref[luck.tile] - mean
        checked += 1
    assert checked >= 15


def test_a_draw_all_of_whose_candidates_give_one_value_has_no_luck_and_the_only_winning_tile_has_some():
    same = only = 0
    for rep, luck, ref in _compared():
        values = set(ref.values())
        if len(values) == 1:
            assert luck.points == 0
            same += 1
        best = max(values)
        if len(values) > 1 and ref[luck.tile] == best and sum(v == best for v in ref.values()) == 1:
            assert luck.points > 0          # the only tile that gives the best result, drawn
            only += 1
    assert same and only


def test_the_candidates_are_the_boneyard_and_the_tiles_of_other_hands_the_record_allows():
    rep = replay_record(read(RECORDS / "variant-draw.dom"))[0]
    first = draw_lucks(rep)[0]          # 2. ... B draws [4-4]: A has played [5-6], B [5-5]
    a_hand = {x for x in rep.game.hand_of("A").tiles} - {x for x in [first.tile]}
    played = {s.move.tile for s in rep.steps[:first.index] if s.move is not None and not s.move.draw}
    assert str(first.tile) == "[4-4]"
    assert set(first.candidates) >= (a_hand - played)
    assert not set(first.candidates) & set(rep.game.hand_of("B").tiles)
    assert len(first.candidates) == 12 + 7          # the 12 tiles of the boneyard, A's 7 left


def test_a_tile_whose_exchange_breaks_a_pass_is_no_candidate():
    # from the public view a player who passed holds no tile of the open numbers then: a tile of his
    # that the exchange would turn into such a tile is ruled out
    checked = 0
    for rep in _games():
        draws = [k for k, s in enumerate(rep.steps) if s.move is not None and s.move.draw]
        for k, luck in zip(draws, draw_lucks(rep)):
            t = luck.tile
            for q in range(rep.variant.players):
                if q == luck.seat:
                    continue
                for p in rep.steps[:k]:
                    if p.seat != q or p.move is None or not p.move.is_pass or not p.ends_before \
                            or not set(p.ends_before) & {t.low, t.high}:
                        continue
                    kept = rep.position_at(p.index).hands[q] & rep.position_at(k).hands[q]
                    assert not [c for c in luck.candidates if kept & c.bit]
                    checked += 1
    assert checked


def test_side_totals_count_a_draw_for_the_drawers_side_and_against_the_other():
    rep = replay_record(read(RECORDS / "variant-cutthroat-draw.dom"))[0]
    lucks = draw_lucks(rep)
    points, _ = side_totals(lucks, 2)
    own = [sum((x.points for x in lucks if x.side == side), Fraction(0)) for side in (0, 1)]
    assert points == [own[0] - own[1], own[1] - own[0]]


def test_a_hidden_hand_gives_no_draw_luck():
    variant = find_variant("draw", {"players": "2"})
    rep = next(r for r in (replay(random_game(variant, seed=seed)) for seed in range(20))
               if any(s.move is not None and s.move.draw for s in r.steps))
    assert draw_lucks(rep)
    hidden = replace(rep.game, hands=tuple(replace(h, tiles=None) if k else h for k, h in enumerate(rep.game.hands)))
    assert draw_lucks(replay(hidden, rep.variant)) == []


NO_TABLE = ("variant-draw.dom", "variant-cutthroat-draw.dom", "variant-draw-starter.dom")     # (no MWC table)


def _stats_results(stated: bool = True, names=("variant-draw.dom", "variant-cutthroat-draw.dom",
                                               "match-chiva-2-draw.dom", "variant-draw-starter.dom")):
    """The plain results ``stats`` works from, of the two-sided draw records; these variants have no MWC
    table (so no deal luck) yet: each game is given a stated deal luck, as a table would (``stated``)."""
    from analyzer.analysis import hand_value
    from analyzer.pipeline import Options, read_text, run_record

    out, lucks = [], []
    for name in names:
        run = read_text(name, (RECORDS / name).read_text(encoding="utf-8"), Options(mode="analyze", scale="match"))
        result = run_record(run)
        for k, game in enumerate(result["games"]):
            if stated:      # (with the hand as played, for the first side: what a table's luck carries)
                rep = run.replays[k]
                game["analysis"]["match_scale"]["luck"] = {"points": (k % 3) - 0.75, "mwc": None,
                                                           "result": hand_value(rep.variant, rep.result)}
            lucks.append((game, run.draw_lucks[k] or []))
        out.append(result)
    return out, lucks


def test_stats_shows_the_draws_luck_beside_the_deals_and_the_result_is_luck_plus_adjusted():
    from analyzer.archive.stats import player_rows

    results, lucks = _stats_results()
    expected: dict[str, Fraction] = {}
    dealt: dict[str, float] = {}
    for game, draws in lucks:
        sides = game["analysis"]["sides"]
        for name in game["players"]:
            side = next(k for k, s in enumerate(sides) if name in s.split("/"))
            expected[name] = expected.get(name, Fraction(0)) + sum(
                (x.points if x.side == side else -x.points for x in draws), Fraction(0))
            stated = game["analysis"]["match_scale"]["luck"]["points"]
            dealt[name] = dealt.get(name, 0.0) + (stated if side == 0 else -stated)
    rows = {row.player: row for row in player_rows(results)}
    assert any(abs(v) > 1 for v in expected.values())
    for name, row in rows.items():
        assert row.draw_luck == pytest.approx(float(expected[name]), abs=0.006)
        assert row.luck == pytest.approx(dealt[name], abs=0.011)         # the deals' luck alone
        assert row.result == pytest.approx(row.luck + row.adjusted, abs=0.011)
    pairs = player_rows(results, by="pair")
    assert sum(row.draw_luck for row in pairs) == pytest.approx(0, abs=0.02)     # a hand is zero-sum


def test_the_draws_luck_is_shown_where_no_table_gives_the_deals():
    from analyzer.archive.stats import player_rows

    with_deal = {row.player: row for row in player_rows(_stats_results(names=NO_TABLE)[0])}
    results, _ = _stats_results(stated=False, names=NO_TABLE)
    assert all(g["analysis"]["match_scale"].get("luck") is None for r in results for g in r["games"])
    for row in player_rows(results):
        assert row.luck_hands == 0 and row.luck is None and row.adjusted is None
        assert row.draw_luck == with_deal[row.player].draw_luck


def test_a_draw_not_valued_is_left_out_of_the_draws_luck_only():
    from analyzer.archive.stats import player_rows

    results, _ = _stats_results()
    game = results[0]["games"][0]
    draw = next(m for m in game["analysis"]["moves"] if "draw_luck" in m)
    points = draw["draw_luck"]["points"]
    assert points != 0
    full = {row.player: row for row in player_rows(results)}
    draw["draw_luck"] = None            # as where the search passed its node limit
    cut = {row.player: row for row in player_rows(results)}
    for name in game["players"]:
        assert (cut[name].luck_hands, cut[name].luck, cut[name].result) == \
            (full[name].luck_hands, full[name].luck, full[name].result)
        own = name == draw["player"] or name in next(s for s in game["analysis"]["sides"] if draw["player"] in s.split("/")).split("/")
        assert cut[name].draw_luck == pytest.approx(full[name].draw_luck - (points if own else -points), abs=0.011)


@functools.cache
def _partnership_chance():
    from analyzer.analysis.drawluck import match_chance
    from analyzer.equity import MatchPosition

    variant = find_variant("partnership")
    return match_chance(variant, MatchPosition(variant.match.start(2), ("side", 0)), 0)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(-4, 4) | st.integers(-60, 60), st.integers(0, 1)), min_size=1, max_size=20),
       st.integers(0, 99), st.integers(0, 99), st.integers(0, 1))
def test_a_draws_mwc_is_the_tables_after_the_hand_the_value_stands_for(asked, ours, theirs, leader):
    # asked in any order, values again and for either side: each answer is the table's chance after the hand the
    # value stands for, for the side asked about (the closure keeps answers: it must not mix values or sides up)
    from analyzer.analysis.drawluck import match_chance
    from analyzer.analysis.match_scale import value_result
    from analyzer.equity import MatchPosition, load_table

    variant = find_variant("partnership")
    position = MatchPosition(replace(variant.match.start(2), scores=(ours, theirs)), ("side", leader))
    chance, table = match_chance(variant, position, leader), load_table(variant)
    for value, side in asked:
        first = table.after(position, value_result(variant, value if side == 0 else -value), leader)
        assert chance(value, side) == (first if side == 0 else 1 - first)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-60, 60), min_size=2, max_size=12, unique=True), st.integers(0, 1))
def test_on_the_match_scale_the_best_tile_drawn_gains_and_the_worst_loses(values, side):
    # at 0-0 in a match to 100 every point more is a better chance for the side that wins it
    chance = _partnership_chance()
    for first in (max(values), min(values)):
        rest = [v for v in values if v != first]
        luck = DrawLuck(0, "A", side, side, Tile(0, 0), first, (Tile(0, 0),) * len(values), tuple([first] + rest))
        (scaled,) = with_match([luck], chance)
        assert (scaled.mwc > 0) == (first == max(values)) and (scaled.mwc < 0) == (first == min(values))


def test_analyze_json_gives_each_draw_its_luck_and_the_text_each_sides_total():
    from click.testing import CliRunner

    from analyzer.cli import main

    path = str(RECORDS / "variant-draw.dom")
    out = CliRunner().invoke(main, ["analyze", "--json", path])
    (game,) = json.loads(out.output)["games"]
    moves = game["moves"]
    rep = replay_record(read(RECORDS / "variant-draw.dom"))[0]
    lucks = draw_lucks(rep)
    drawn = [m for m in moves if "draw_luck" in m]
    assert [m["move"] for m in drawn] == [m["move"] for m in moves if m["move"].startswith("draws ")]
    assert all(set(m) == {"player", "move", "draw_luck"} for m in drawn)         # only a key added
    assert all(set(m) == {"player", "move"} for m in moves if m not in drawn)
    for m, luck in zip(drawn, lucks):
        assert m["draw_luck"]["tile"] == str(luck.tile) and m["draw_luck"]["candidates"] == len(luck.candidates)
        assert m["draw_luck"]["points"] == pytest.approx(float(luck.points), abs=0.001)
    text = CliRunner().invoke(main, ["analyze", path]).output
    points, _ = side_totals(lucks, 2)
    assert [(t["side"], t["draws"]) for t in game["draw_luck"]] == [("A", 4), ("B", 3)]     # the record's draws
    assert [t["points"] for t in game["draw_luck"]] == pytest.approx([float(p) for p in points], abs=0.005)
    assert f"In all: A {float(points[0]):+.2f}; B {float(points[1]):+.2f}" in text


def test_the_pages_summary_shows_each_sides_draw_luck():
    from analyzer.pipeline import Options, read_text
    from analyzer.archive.task import finish, page

    name = "variant-cutthroat-draw.dom"
    run = read_text(name, (RECORDS / name).read_text(encoding="utf-8"), Options(mode="report"))
    html = finish(run)["page"]
    (game,) = page(run).games
    lucks = draw_lucks(run.replays[0])
    points, _ = side_totals(lucks, 2)
    assert [(side, round(p, 6)) for side, p, _, _ in game.draw_luck] == [("A", round(float(points[0]), 6)),
                                                                          ("B", round(float(points[1]), 6))]
    assert [n for *_, n in game.draw_luck] == [sum(x.side == s for x in lucks) for s in (0, 1)]
    assert "Luck of the draws" in html and f"{float(points[0]):+.2f} points" in html
