"""The repair of Domino Whist records with exposed tiles (seed 001 §8, "Aufgedeckte Steine").

"Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss dieser
Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er regelgerecht
angelegt werden kann, gespielt werden."

The repair's checkers read that rule as the judge does: a copyist's slip is undone whether or not it
touches an exposed tile, no candidate that breaks the rule is kept, and a record whose only fault is an
exposed tile not played (a real irregularity) is left as it is.
"""
import functools
import random
from dataclasses import replace

import pytest

from analyzer.generate import random_game
from analyzer.notation import parse
from analyzer.record import Game, StatedResult
from analyzer.repair import RepairLimits, first_error, repair
from analyzer.repair.search import Search as _Search
from analyzer.replay import replay, resolve_variant
from conftest import SEED_DEAL
from test_repair import _typo, content, corrupt

# the book's example deal (seed 000) in full, row 7 included, played under the whist rules (B leads);
# in row 5 C played [3-6] where [4-6] fitted too (the book's critical move)
SEED_TABLE = """Runde Spieler A Spieler B Spieler C Spieler D

1 ---- [1-1] passt [1-5]
2 [1-4] passt [4-5] [0-4]
3 [0-5] passt [2-5] [1-2]
4 [4-4] [0-1] [0-2] passt
5 [2-2] [2-6] [3-6] [0-3]
6 [3-4] [2-3] [2-4] passt
7 passt [0-0] [4-6] [6-6]
8 [5-6] [0-6] passt [5-5]
9 passt [1-6]
"""


def seed_whist(exposed: str, table: str = SEED_TABLE) -> Game:
    (game,) = parse(f'[Variant "whist"]\n[Players "A, B, C, D"]\n[Lead "B"]\n[Exposed "{exposed}"]\n'
                    f'{SEED_DEAL}\n\n{table}').games
    return game


def test_the_seed_game_obeys_each_exposure_it_is_tested_with():
    assert replay(seed_whist("C [3-6] from 5")).valid      # his [3-6] exposed: he played it at once
    assert replay(seed_whist("C [4-6] from 7")).valid      # [4-6] exposed in row 7, where he played it
    assert replay(seed_whist("")).valid


def test_the_copyists_tile_for_an_exposed_tile_is_changed_back():
    # C's [3-6] lay open from row 5 and he played it there; the copy says [4-6] (his tile of row 7)
    game = seed_whist("C [3-6] from 5", SEED_TABLE.replace("5 [2-2] [2-6] [3-6]", "5 [2-2] [2-6] [4-6]"))
    codes = [d.code for d in replay(game).errors]
    assert codes[0] == "exposed-tile" and len(codes) > 1          # the line he left breaks later moves
    report = repair(game)
    assert report.counts[1] == 1 and report.tied == 1
    (edit,) = report.best.edits
    assert (edit.kind, edit.player, edit.round, edit.before, edit.after) == ("change-tile", "C", 5, "[4-6]", "[3-6]")
    assert content(report.best.game) == content(seed_whist("C [3-6] from 5"))


def test_a_player_who_ignored_his_exposed_tile_is_an_irregularity_that_stands(tmp_path):
    # C's [4-6] lay open from row 5 and fitted there, but he played [3-6] (the book's critical move):
    # nothing else is wrong, so the record shows the irregularity itself, and no edit is offered
    game = seed_whist("C [4-6] from 5")
    rep = replay(game)
    (error,) = rep.errors
    k = next(k for k, m in enumerate(game.moves) if m.round == 5 and m.player == "C")
    assert error.code == "exposed-tile" and (error.line, error.column) == (game.moves[k].pos.line, game.moves[k].pos.column)
    assert first_error(game) == (k, "exposed-tile")        # the repair's checker sees it where the judge does
    report = repair(game)
    assert not report.valid and report.repairs == [] and report.counts == {}
    assert "irregularity of play" in report.problem and "[4-6]" in report.problem
    assert "nothing is repaired" in report.problem

    from click.testing import CliRunner
    from analyzer.cli import main
    text = (f'[Variant "whist"]\n[Players "A, B, C, D"]\n[Lead "B"]\n[Exposed "C [4-6] from 5"]\n{SEED_DEAL}\n\n'
            f'{SEED_TABLE}')
    record = tmp_path / "ignored.dom"
    record.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["validate", "--repair", str(record)]).output
    assert "error[exposed-tile]" in out and "irregularity of play" in out
    assert "likely slip" not in out and "Traceback" not in out


def test_an_ignored_exposed_tile_beside_a_slip_is_not_rewritten_and_the_report_says_why():
    # the irregularity of the test above and a copyist's [5-6] for D's [5-5] in row 8: a repair must make
    # every move legal, so it cannot keep the irregularity, and it does not play C's [4-6] in row 5 for him
    game = seed_whist("C [4-6] from 5", SEED_TABLE.replace("8 [5-6] [0-6] passt [5-5]", "8 [5-6] [0-6] passt [5-6]"))
    assert [d.code for d in replay(game).errors] == ["exposed-tile", "tile-already-played"]
    report = repair(game)
    assert report.repairs == []
    assert report.message.startswith("no repair within 2 edits; its exposed tiles not played ([4-6]")
    assert "may be a real irregularity" in report.message


def test_a_row_copied_twice_before_a_tile_exposed_during_play_is_deleted():
    # row 1 written twice pushes every row number up by one, so "from 7" would bind a row early
    header, rows = SEED_TABLE.split("\n\n")
    rows = rows.splitlines()
    table = header + "\n\n" + "\n".join(f"{k} {row.split(' ', 1)[1]}" for k, row in enumerate(rows[:1] + rows, 1))
    game = seed_whist("C [4-6] from 7", table)
    assert [m.round for m in game.moves][:8] == [1, 1, 1, 2, 2, 2, 3, 3]
    report = repair(game)
    assert report.smallest == 1
    (edit,) = report.best.edits
    assert edit.kind == "delete-row"
    assert content(report.best.game) == content(seed_whist("C [4-6] from 7"))


# ---- random Domino Whist games with exposed tiles, and slips of the pen in them -------------------

def whist_table(seed: int) -> Game:
    """A legal random Domino Whist game written as a table: every move in its numbered row."""
    game = random_game("whist", seed=seed)
    first = game.players.index(game.moves[0].player)
    moves = [replace(m, round=1 + (first + k) // len(game.players)) for k, m in enumerate(game.moves)]
    return replace(game, moves=moves, form="table")


def with_exposures(game: Game) -> list[Game]:
    """``game`` with each Exposed tag it obeys where the rule decided something: a tile its holder
    played at a turn where he had other plays, exposed before play or from its row on."""
    rep = replay(game)
    assert rep.valid
    out = []
    for k, step in enumerate(rep.steps):
        if step.move is None or step.move.tile is None:
            continue
        if len({m.tile for m in rep.position_at(k).plays()}) < 2:
            continue
        name, tile = step.entry.player, step.move.tile
        for tag in (f"{name} {tile}", f"{name} {tile} from {step.entry.round}"):
            exposed = replace(game, tags={**game.tags, "Exposed": tag})
            if replay(exposed).valid:
                out.append(exposed)
    return out


def _exposed_index(game: Game) -> int:
    name, tile = game.tags["Exposed"].split()[:2]
    return next(k for k, m in enumerate(game.moves) if m.player == name and str(m.tile) == tile)


def slip(game: Game, kind: str, rng: random.Random) -> Game | None:
    """``game`` with one slip of the pen: a typo of the exposed tile, the exposed tile's cell swapped
    with its neighbour's, or one of test_repair's slips anywhere (a dropped row, a typo...)."""
    moves = list(game.moves)
    k = _exposed_index(game)
    if kind == "typo-exposed":
        moves[k] = replace(moves[k], tile=_typo(rng, moves[k].tile), end=None)
    elif kind == "swap-exposed":
        j = k + 1 if k == 0 or (k + 1 < len(moves) and rng.random() < 0.5) else k - 1
        a, b = moves[k], moves[j]
        moves[k], moves[j] = replace(a, tile=b.tile, end=b.end), replace(b, tile=a.tile, end=a.end)
    else:
        return corrupt(game, kind, rng)
    return replace(game, moves=moves, tags=dict(game.tags))


SLIPS = ("typo-exposed", "swap-exposed", "drop-row", "typo-tile", "duplicate-row", "drop-move")


def slipped(seeds: range, per: int = 3, result: bool = True):
    """(original, broken, kind): ``per`` exposures of each seed's game (half of them during play), each
    broken by one slip of every kind (a slip that leaves the record legal is drawn again)."""
    for seed in seeds:
        rng = random.Random(seed)
        games = with_exposures(whist_table(seed))
        for original in rng.sample(games, min(per, len(games))):
            if not result:
                original = replace(original, tags={k: v for k, v in original.tags.items() if k != "Result"})
            for kind in SLIPS:
                for _ in range(10):
                    broken = slip(original, kind, rng)
                    if broken is not None and not replay(broken).valid:
                        yield original, broken, kind
                        break


def reproduces_stated_result(game: Game) -> bool:
    rep = replay(game)
    if not rep.valid or "Result" not in game.tags:
        return rep.valid
    stated, got = StatedResult.parse(game.tags["Result"]), rep.result_dict()
    return (got["termination"] == stated.termination and got["points"] == stated.points
            and sorted(got["winner"] or []) == sorted(stated.side or []))


def true_rank(report, original: Game) -> int | None:
    """How many better ranks (edits, cost) come before the repair that gives back ``original``."""
    ranks = sorted({(len(r.edits), r.cost) for r in report.repairs})
    return next((ranks.index((len(r.edits), r.cost)) for r in report.repairs if content(r.game) == content(original)),
                None)


@functools.cache
def _cases() -> list:
    return list(slipped(range(12)))


@pytest.mark.parametrize("kind", SLIPS)
def test_one_slip_in_a_record_with_an_exposed_tile_is_undone_first(kind):
    cases = [(o, b) for o, b, k in _cases() if k == kind]
    assert len(cases) >= 30
    during = 0
    for original, broken in cases:
        during += "from" in original.tags["Exposed"]
        report = repair(broken, limits=RepairLimits(max_edits=2))
        for fix in report.repairs:      # every repair offered keeps the rule (and the stated result)
            assert reproduces_stated_result(fix.game), [str(e) for e in fix.edits]
        rank = true_rank(report, original)
        if rank != 0:   # not first: only where the cost table ranks it so without the tag too
            plain = repair(replace(broken, tags={k: v for k, v in broken.tags.items() if k != "Exposed"}),
                           limits=RepairLimits(max_edits=2))
            assert rank is not None and true_rank(plain, original) is not None, (kind, original.tags["Exposed"])
            assert rank <= true_rank(plain, original)
    assert during >= len(cases) // 3


def found_lines_replay_clean(kind, broken: Game) -> int:
    """Search ``broken`` for one-edit repairs with the checker ``kind`` and check that every line it
    keeps replays clean under the judge, and that it sees an error where the judge does; how many."""
    assert (first_error(broken)[0] is None) == replay(broken).valid
    search = kind(broken, resolve_variant(broken, None, None)[0], 1, kind.default_nodes)
    search.search(broken)
    for found in search.found.values():
        assert replay(search.builder.game_for(found.seq, found.deal)).valid
    return len(search.found)


def test_the_repair_checker_keeps_no_candidate_that_breaks_the_exposed_rule():
    """Without a Result tag the checker's own verdict decides what the search keeps: each line it
    finds must replay clean under the judge, and it sees an error exactly where the judge does."""
    checked = 0
    for original, broken, _ in slipped(range(12, 20), per=2, result=False):
        assert first_error(original) == (None, None)
        checked += found_lines_replay_clean(_Search, broken)
    assert checked > 50


def test_the_position_path_keeps_no_candidate_that_breaks_the_exposed_rule():
    """The same on the position path (a whist record with a false play that stands, its FalsePlay
    tag): its checker asks the judge for each entry, the exposed tiles included."""
    from analyzer.notation import read
    from analyzer.repair.search import PositionSearch as _PositionSearch
    from conftest import RECORDS

    (game,) = read(RECORDS / "whist-false-play.dom").games
    game = replace(game, tags={k: v for k, v in game.tags.items() if k != "Result"})
    rng, checked = random.Random(1), 0
    for original in with_exposures(game):
        for kind in ("typo-exposed", "swap-exposed", "typo-tile", "drop-move"):
            broken = slip(original, kind, rng)
            if broken is not None and not replay(broken).valid:
                checked += found_lines_replay_clean(_PositionSearch, broken)
    assert checked > 30


def test_an_exposed_tag_at_odds_with_moves_that_agree_is_not_mended_by_editing_the_moves():
    # C played his [4-5] in row 2; the tag says it was exposed during play before row 4. The moves and
    # the deal agree with each other: the tag is wrong. Deleting row 3 (so that row 4 never comes) would
    # make the record valid, but rewrites the game to fit a wrong tag: no repair, the report says why
    from test_exposed_tiles import ROWS_1_3, whist

    rep = whist('[Exposed "C [4-5] from 4"]', ROWS_1_3 + "4. A [4-4] B [0-1]")
    assert [d.code for d in rep.errors] == ["bad-exposed"]
    report = repair(rep.game)
    assert not report.valid and report.repairs == []
    assert "the Exposed tag is what is wrong" in report.problem and "C's [4-5]" in report.problem
