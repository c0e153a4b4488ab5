"""``domino import`` (issue 65, item 7): move logs of other programs made records. The samples in
tests/data/import/ are written by hand by the formats' documented rules (the Kozel video parser's
contracts/format.md, yard-dominoes' apps/web/src/replay.ts): each carries games of the bundled records
(records/match-kozel.dom, records/match-jamaican.dom, records/variant-cutthroat-draw.dom, records/seed2.dom),
so an imported game's moves are checked against that record, and the record validates. The Kozel video parser's
own example and test fixture (real files of the format, tests/data/README.md) are checked against transcriptions
of them made by hand."""
import json
import re

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.diagnostics import Severity
from analyzer.generate import random_game
from analyzer.match import replay_record
from analyzer.notation import parse, read, write
from analyzer.notation.imports import ImportSourceError, import_log
from analyzer.notation.imports.common import word_names
from conftest import ROOT

DATA = ROOT / "tests" / "data" / "import"
RECORDS = ROOT / "records"


def _imported(fmt: str, name: str, **kw):
    path = DATA / name
    imported = import_log(fmt, path.read_text(encoding="utf-8"), str(path), **kw)
    record = parse(write(imported.record), "imported.dom")       # (as the command writes it and reads it back)
    assert record.errors == []
    return imported, record


def _plays(game, seat_of=None) -> list[tuple]:
    """Each move as (the mover's seat, the tile or None, a draw); the seat by the game's players."""
    seats = {p: k for k, p in enumerate(seat_of or game.players)}
    return [(seats[m.player], m.tile, m.draw) for m in game.moves]


def _problem(fmt: str, text: str) -> list:
    with pytest.raises(ImportSourceError) as caught:
        import_log(fmt, text, "log")
    return caught.value.diagnostics


# ---- the Kozel video parser's kozel-game-v1 JSON ------------------------------------------------------------

def test_a_kozel_game_of_two_rounds_imports_as_the_games_it_records():
    imported, record = _imported("kozel-video", "kozel-two-rounds.json")
    replays = replay_record(record)
    assert [rep.valid for rep in replays] == [True, True]
    source = json.loads((DATA / "kozel-two-rounds.json").read_text(encoding="utf-8"))
    names = word_names(["Оля", "Пётр Иванов", "Ира", "Max"])
    for game, round_ in zip(record.games, source["rounds"]):
        assert game.tags["Variant"] == "kozel" and game.tags["Rules"] == "eggs=yes, limit=101"
        assert game.players == ("Оля", "Пётр_Иванов", "Ира", "Max")         # by seat, 1 to 4
        assert [(m.player, m.tile and sorted((m.tile.low, m.tile.high))) for m in game.moves] == \
            [(names[m["player"]], m.get("stone") and sorted(int(h) for h in m["stone"].split("-")))
             for m in round_["moves"]]
        assert {h.player: sorted(f"{t.low}-{t.high}" for t in h.tiles) for h in game.hands} == \
            {names[p]: sorted(tiles) for p, tiles in round_["deal"].items()}
    # the two rounds are games 1 and 2 of records/match-kozel.dom, its seats A to D here seats 1 to 4
    kozel = read(RECORDS / "match-kozel.dom").games[:2]
    assert [_plays(g) for g in record.games] == [_plays(g) for g in kozel]
    assert [g.tags["Result"] for g in record.games] == ["Оля/Ира 30 domino", "Пётр_Иванов/Max 5 domino"]
    assert [g.tags["Result"].split(" ", 1)[1] for g in record.games] == \
        [g.tags["Result"].split(" ", 1)[1] for g in kozel]
    assert record.games[1].tags["Score"] == "Оля/Ира 0, Пётр_Иванов/Max 30"
    assert imported.places[1][3] == "rounds[1].moves[3], line 60"


def test_a_kozel_tile_that_is_none_is_an_error_at_its_path_and_line():
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8").replace('"stone": "4-2"', '"stone": "4-9"')
    (problem,) = _problem("kozel-video", text)
    assert problem.code == "bad-tile" and problem.line == 25
    assert problem.message.startswith("rounds[0].moves[6].stone: '4-9' is no tile")


def test_a_kozel_move_by_no_player_of_the_teams_is_an_error_at_its_place():
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    text = text.replace('{"player": "Ира", "action": "pass"}', '{"player": "Ivan", "action": "pass"}', 1)
    (problem,) = _problem("kozel-video", text)
    assert problem.code == "unknown-player" and problem.line == 41
    assert problem.message == "rounds[0].moves[22].player: 'Ivan' is no player of the teams"


def test_a_kozel_tile_is_read_in_either_order_and_placed_by_the_side_named():
    """The app writes every tile low-high, the format's contract left to right: each is placed by its side."""
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    turned = re.sub(r'"stone": "(\d)-(\d)"', lambda m: f'"stone": "{m[2]}-{m[1]}"', text)
    assert turned != text
    as_laid, record = _imported("kozel-video", "kozel-two-rounds.json")
    other = parse(write(import_log("kozel-video", turned, "log").record), "imported.dom")
    assert [g.moves for g in other.games] == [g.moves for g in record.games]
    assert all(rep.valid for rep in replay_record(other))
    laid = sum(m.tile is not None for g in record.games for m in g.moves)
    assert not any("other way round" in n for n in as_laid.notes)
    doubles = sum(m.tile is not None and m.tile.is_double for g in record.games for m in g.moves)
    (note,) = [n for n in import_log("kozel-video", turned, "log").notes if "other way round" in n]
    assert note.startswith(f"{laid - doubles} of the {laid} tiles laid are written the other way round")


def test_a_kozel_tile_that_fits_the_side_named_in_neither_order_is_an_error():
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    # rounds[0].moves[1]: [5-1] laid left of the lead [1-1]; [5-2] has no 1 to go against it
    (problem,) = _problem("kozel-video", text.replace('"stone": "5-1"', '"stone": "5-2"', 1))
    assert problem.code == "tile-no-match" and problem.message.startswith("rounds[0].moves[1].stone: '5-2' laid "
                                                                          "left has no 1 to go against the left end")


def test_a_kozel_round_whose_start_has_no_tile_is_one_error_at_its_place():
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    start = '{"player": "Оля", "action": "start", "stone": "1-1"}'
    assert start in text
    (problem,) = _problem("kozel-video", text.replace(start, '{"player": "Оля", "action": "start"}', 1))
    assert problem.code == "bad-move" and problem.message == "rounds[0].moves[0]: has no 'stone': a start lays a tile"


@pytest.mark.parametrize("first", ['{"player": "Оля", "action": "left", "stone": "1-1"}',
                                   '{"player": "Оля", "action": "pass"}',
                                   '{"player": "Zed", "action": "start", "stone": "1-1"}'])
def test_a_kozel_round_whose_first_move_is_no_start_is_one_error_at_its_place(first):
    # (issue 87 item 1: a first move that is not a start, then a tile laid left, was an IndexError)
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    start = '{"player": "Оля", "action": "start", "stone": "1-1"}'
    (problem,) = _problem("kozel-video", text.replace(start, first, 1))
    assert problem.line == 19 and problem.message.startswith("rounds[0].moves[0].")


def test_a_kozel_number_past_pythons_digit_limit_is_an_error_at_its_place():
    # (issue 87 item 1: {"scoreLimit": 1000...0} of 4,301 digits was an internal error, ValueError)
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    big = text.replace('"scoreLimit": 101', '"scoreLimit": 1' + "0" * 4300)
    (problem,) = _problem("kozel-video", big)
    assert (problem.code, problem.line, problem.column) == ("syntax", 4, 17) and "4301 digits" in problem.message
    result = CliRunner().invoke(main, ["import", "kozel-video", "-"], input=big)
    assert result.exit_code == 1 and "<stdin>:4:17:" in result.output and "internal error" not in result.output
    # a number as long inside a string is no number: the importer reads on and finds the real problem
    (problem,) = _problem("kozel-video", text.replace('"Запад"', '"' + "1" * 4400 + '"', 1).replace(
        '"scoreLimit": 101', '"scoreLimit": -' + "9" * 4400))
    assert (problem.line, problem.column) == (4, 17)


# the Kozel video parser's own files (Veselchak-U/domino_video_parser, tests/data/README.md): its contract's example
# (every tile written low-high) and its test fixture, in both the versions it had (low-high; as the tiles lie)
KOZEL_REAL = [("kozel-game.example.json", "kozel-game.example.dom"),
              ("kozel-sample_game.json", "kozel-sample_game.dom"),
              ("kozel-sample_game.oriented.json", "kozel-sample_game.dom")]


@pytest.mark.parametrize("log, oracle", KOZEL_REAL)
def test_the_kozel_parsers_own_logs_import_as_transcribed_by_hand(log, oracle):
    """Each round agrees move for move with the transcription made by hand from the log (each tile placed by the
    side its move names, @N where it fits both ends), and so do the hands, the results and the running scores."""
    _imported_log, record = _imported("kozel-video", log)
    by_hand = read(DATA / oracle)
    assert len(record.games) == len(by_hand.games) == 3
    for got, want in zip(record.games, by_hand.games):
        assert got.players == want.players
        assert [(m.player, m.tile, m.end) for m in got.moves] == [(m.player, m.tile, m.end) for m in want.moves]
        assert {h.player: set(h.tiles) for h in got.hands} == {h.player: set(h.tiles) for h in want.hands}
        for tag in ("Variant", "Rules", "Lead", "Result", "Score"):
            assert got.tags[tag] == want.tags[tag], tag
    assert all(rep.valid for rep in replay_record(record))
    assert all(rep.valid for rep in replay_record(by_hand))


def test_the_kozel_logs_low_high_and_as_laid_are_the_same_game():
    _a, low_high = _imported("kozel-video", "kozel-sample_game.json")
    _b, as_laid = _imported("kozel-video", "kozel-sample_game.oriented.json")
    assert [g.moves for g in low_high.games] == [g.moves for g in as_laid.games]


def test_a_kozel_log_whose_rounds_carry_no_result_imports_with_an_open_result():
    source = json.loads((DATA / "kozel-game.example.json").read_text(encoding="utf-8"))
    del source["result"]
    for round_ in source["rounds"]:
        del round_["result"]
    imported = import_log("kozel-video", json.dumps(source, ensure_ascii=False, indent=1), "log")
    record = parse(write(imported.record), "imported.dom")
    assert [g.tags["Result"] for g in record.games] == ["*", "*", "*"]
    assert not any("Score" in g.tags for g in record.games)
    assert any(n.startswith("rounds 1, 2, 3 carry no result") for n in imported.notes)
    # the moves are the log's still, and the replay reckons each round's end from them
    by_hand = read(DATA / "kozel-game.example.dom")
    assert [g.moves for g in record.games] == [g.moves for g in parse(write(import_log(
        "kozel-video", (DATA / "kozel-game.example.json").read_text(encoding="utf-8"), "log").record)).games]
    replays = replay_record(record)
    assert all(rep.valid for rep in replays)
    assert [rep.outcome.termination for rep in replays] == \
        [rep.outcome.termination for rep in replay_record(by_hand)] == ["blocked", "domino", "blocked"]


def test_malformed_json_is_an_error_at_its_line_and_column():
    text = (DATA / "kozel-two-rounds.json").read_text(encoding="utf-8")
    (problem,) = _problem("kozel-video", text[:700])       # (cut inside a string on its line)
    assert problem.code == "syntax" and problem.message.startswith("not JSON:")
    assert problem.line == text[:700].count("\n") + 1
    (problem,) = _problem("kozel-video", text.replace('"scoreLimit": 101,', '"scoreLimit": 101, "scoreLimit": 50,'))
    assert problem.message.startswith("scoreLimit: this key is given twice") and problem.line == 4


def test_kozel_header_problems_are_named():
    said = [d.message for d in _problem("kozel-video", json.dumps({"format": "kozel-game-v2", "fishVariant": "x",
                                                                  "scoreLimit": 7, "teams": [], "rounds": []}))]
    assert said[:3] == ["format: is 'kozel-game-v2'; this importer reads 'kozel-game-v1'",
                        "fishVariant: is 'x', not \"withEggs\" or \"withoutEggs\"", "scoreLimit: is 7, not 101 or 50"]


# ---- the yard-dominoes share code ----------------------------------------------------------------------------

def test_yard_share_codes_import_as_the_hands_they_encode():
    imported, record = _imported("yard", "yard-hands.txt")
    assert all(rep.valid for rep in replay_record(record))
    four, two = record.games
    assert four.tags["Variant"] == "jamaican" and four.players == ("P1", "P2", "P3", "P4")
    assert two.tags["Variant"] == "cutthroat" and two.tags["Rules"] == "players=2, draw=yes"
    jamaican = read(RECORDS / "match-jamaican.dom").games[0]
    assert _plays(four) == _plays(jamaican)
    draws = read(RECORDS / "variant-cutthroat-draw.dom").games[0]
    assert _plays(two) == [(s, None if d else t, d) for s, t, d in _plays(draws)]    # a drawn tile is not shown
    # no hand is in the code: the tiles played, ? for the rest; a draw game's hands are ?
    assert [(h.tiles is not None and len(h.tiles), h.unknown) for h in four.hands] == [(7, 0), (6, 1), (4, 3), (6, 1)]
    assert [h.tiles for h in two.hands] == [None, None]
    assert imported.places[0][:2] == ("line 3, column 12 (the code's character 6)",
                                      "line 3, column 14 (the code's character 8)")


def test_a_tampered_yard_code_is_an_error_at_its_character():
    """replay.test.ts: 6-6 posed, then 1-3 claimed on the left end: it does not touch."""
    (problem,) = _problem("yard", "10040PrL9")
    assert (problem.code, problem.line, problem.column) == ("tile-no-match", 1, 8)
    assert problem.message == "[1-3] does not fit the left end, which shows 6"


@pytest.mark.parametrize("code, column, said", [
    ("1004", 5, "ends after 4 characters"), ("10040PrL", 9, "ends after the step 'L'"), ("x0040Pr", 1, "version"),
    ("10050Pr", 4, "the seats are '5'"), ("14040Pr", 2, "posed is '4'"), ("10049Pr", 5, "format is '9'"),
    ("10040Zr", 6, "'Z' is no step"), ("10040Pz", 7, "'z' stands for no tile"), ("10040", 6, "no step"),
    ("10040PrPr", 8, "posed once"), ("10040LrPr", 6, "the first tile is the pose")])
def test_a_broken_yard_code_is_an_error_at_its_character(code, column, said):
    (problem,) = _problem("yard", code)
    assert problem.line == 1 and problem.column == column and said in problem.message


def test_the_rubbish_yard_dominoes_rejects_is_rejected_here_too():
    """The codes replay.test.ts gives as rubbish to be rejected: each an error, none a traceback."""
    for bad in ["", "x", "1", "9004Pa", "1004", "1004Z", "1004P", "1004Pz", "1904Pa", "1094Pa", "1000Pa",
                "not-a-hand", "1004" + "P" * 50]:
        problems = _problem("yard", bad)
        assert problems and all(p.line == 1 and p.column for p in problems)


# ---- a plain CSV move list ---------------------------------------------------------------------------------------

def test_a_csv_move_list_imports_as_the_game_it_lists():
    imported, record = _imported("csv", "moves.csv")
    (rep,) = replay_record(record)
    assert rep.valid
    (game,) = record.games
    book = read(RECORDS / "seed2.dom").games[0]
    assert [(m.player, m.tile) for m in game.moves] == [(m.player, m.tile) for m in book.moves]
    assert game.tags["Variant"] == "partnership" and game.tags["Lead"] == "B"
    assert {h.player: h.unknown for h in game.hands} == {"B": 3, "C": 2, "D": 4, "A": 2}
    assert imported.places[0][:2] == ("line 4", "line 5")


def test_csv_problems_are_errors_at_their_line_and_column():
    text = "player;tile;side\nA;1-1;\nB;1-7;left\n;2-2;\nC;1-2;up\nD;\"2-2;\n"
    said = [(d.code, d.line, d.column) for d in _problem("csv", text)]
    assert said == [("bad-tile", 3, 3), ("no-player", 4, 1), ("bad-move", 5, 7), ("syntax", 6, 3)]
    (problem,) = _problem("csv", "A,1-1,\nB,2-3,right\n")
    assert (problem.code, problem.line, problem.column) == ("tile-no-match", 2, 7)
    assert problem.message == "[2-3] does not fit the right end, which shows 1"


@pytest.mark.parametrize("variant, seed", [("partnership", 1), ("partnership", 2), ("cutthroat", 3), ("draw", 4)])
def test_a_generated_game_written_as_csv_rows_comes_back_move_for_move(variant, seed):
    game = random_game(variant, seed)
    rows = ["player,tile,side"]
    for m in game.moves:
        if m.draw:
            rows.append(f"{m.player},{m.tile.low}-{m.tile.high},draw")
        elif m.tile is None:
            rows.append(f"{m.player},pass,")
        else:
            rows.append(f"{m.player},{m.tile.high}-{m.tile.low}," + (f"@{m.end}" if m.end is not None else ""))
    imported = import_log("csv", "\n".join(rows) + "\n", "rows.csv", variant=variant)
    (back,) = parse(write(imported.record)).games
    assert [(m.player, m.tile, m.end, m.draw) for m in back.moves] == \
        [(m.player, m.tile, m.end, m.draw) for m in game.moves]
    assert all(rep.valid for rep in replay_record(parse(write(imported.record))))


def test_names_are_made_words_of_the_notation():
    assert word_names(["Алексей Петров", "7", "pass", "A b", "A-b", "Nord"]) == \
        {"Алексей Петров": "Алексей_Петров", "7": "P_7", "pass": "pass_", "A b": "A_b", "A-b": "A_b_2", "Nord": "Nord"}


# ---- the command ------------------------------------------------------------------------------------------------

def test_the_command_writes_the_record_and_never_over_a_file_without_force(tmp_path):
    out = tmp_path / "kozel.dom"
    source = str(DATA / "kozel-two-rounds.json")
    done = CliRunner().invoke(main, ["import", "kozel-video", source, "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "imported 2 games, 61 moves" in done.output and "every game valid" in done.output
    assert parse(out.read_text(encoding="utf-8")).games[0].tags["Variant"] == "kozel"
    out.write_text("mine\n", encoding="utf-8")
    again = CliRunner().invoke(main, ["import", "kozel-video", source, "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output and out.read_text(encoding="utf-8") == "mine\n"
    forced = CliRunner().invoke(main, ["import", "kozel-video", source, "-o", str(out), "--force"])
    assert forced.exit_code == 0 and out.read_text(encoding="utf-8").startswith("[Event")


def test_the_command_prints_the_record_without_an_output_file():
    done = CliRunner().invoke(main, ["import", "yard", str(DATA / "yard-hands.txt")])
    assert done.exit_code == 0 and '[Variant "jamaican"]' in done.output


def test_a_log_that_cannot_be_imported_is_said_at_its_place_with_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("player,tile,side\nA,1-1,\nB,9-9,\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["import", "csv", str(bad), "-o", str(tmp_path / "out.dom")])
    assert done.exit_code == 1 and "Traceback" not in done.output and done.exception is None or \
        isinstance(done.exception, SystemExit)
    assert f"{bad}:3:3: error[bad-tile] '9-9' is no tile of the double-six set" in done.output
    assert not (tmp_path / "out.dom").exists()


def test_an_imported_game_that_breaks_the_rules_exits_1_with_its_place_in_the_source(tmp_path):
    text = (DATA / "moves.csv").read_text(encoding="utf-8").replace("D,1-2,", "D,1-3,")
    (tmp_path / "m.csv").write_text(text, encoding="utf-8")
    done = CliRunner().invoke(main, ["import", "csv", str(tmp_path / "m.csv"), "-o", str(tmp_path / "m.dom")])
    assert done.exit_code == 1 and "0 valid, 1 invalid" in done.output
    assert "error[tile-no-match] [1-3] does not fit the open ends 2 and 4" in done.output
    assert f"in {tmp_path / 'm.csv'}: line 14" in done.output
    assert (tmp_path / "m.dom").exists()        # (written all the same, for validate --repair)


def test_an_unknown_variant_is_a_usage_error():
    done = CliRunner().invoke(main, ["import", "csv", str(DATA / "moves.csv"), "--variant", "nonesuch"])
    assert done.exit_code == 2 and "Traceback" not in done.output


def test_after_a_kozel_round_without_result_the_next_results_points_are_left_out():
    """The eggs carried out of a round the log gives no result for are not known: the next round's Result names its
    winners and ending without points (its charge, less eggs not known, is not the hand's own), and still validates."""
    source = json.loads((DATA / "kozel-game.example.json").read_text(encoding="utf-8"))
    del source["rounds"][0]["result"]
    record = parse(write(import_log("kozel-video", json.dumps(source, ensure_ascii=False), "log").record))
    assert [g.tags["Result"] for g in record.games] == ["*", "Борис/Дарья domino", "Борис/Дарья 73 blocked"]
    assert all(rep.valid for rep in replay_record(record))


# ---- issue 87 item 6: an import checks each game move by move (no search of a sheet's deals), with progress ----

def test_an_import_checks_its_games_move_by_move_without_searching_their_deals(monkeypatch, tmp_path):
    import analyzer.inference.sheet as sheet

    def searched(*args, **kw):
        raise AssertionError("an import searched the deals of a game it imported")

    for name in ("listing", "sheet_result", "decided_result", "first_contradiction"):
        monkeypatch.setattr(sheet, name, searched)
    out = tmp_path / "moves.dom"
    result = CliRunner().invoke(main, ["import", "csv", str(DATA / "moves.csv"), "-o", str(out)])
    assert result.exit_code == 0 and "every game valid" in result.output and "move by move" in result.output
    monkeypatch.undo()
    # the record written is the one `validate` (which does search the deals) finds valid
    assert all(rep.valid for rep in replay_record(read(out)))


def test_replaying_a_record_tells_its_progress_game_by_game():
    record = read(RECORDS / "seed1.dom")
    told = []
    replay_record(record, match=False, progress=lambda done, total: told.append((done, total)))
    n = len(record.games)
    assert told == [(k, n) for k in range(1, n + 1)]


def test_the_import_shows_a_progress_bar_once_a_second_has_passed(monkeypatch):
    from analyzer.cli import importing

    clock = iter([0.0, 0.5, 1.5, 2.0, 3.0])
    bar = importing._Progress("checking the games")
    bar.clock, bar.start = (lambda: next(clock)), 0.0
    shown = []
    monkeypatch.setattr(importing.click, "progressbar", lambda **kw: shown.append(kw) or _Bar(shown))
    with bar:
        for k in range(1, 5):
            bar(k, 4)
    # nothing shown in the first second (games 1 and 2), then the games done so far, then each game
    assert shown[0]["length"] == 4 and shown[1:] == [("update", 3), ("update", 1), "closed"]


class _Bar:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def update(self, n):
        self.log.append(("update", n))

    def __exit__(self, *exc):
        self.log.append("closed")


# ---- issue 87 item 7: -o onto its own input; a full disk leaves no folder it made -----------------------------------

@pytest.mark.parametrize("force", [[], ["--force"]])
def test_an_import_onto_its_own_input_says_it_is_the_input(tmp_path, force):
    source = tmp_path / "moves.csv"
    source.write_bytes((DATA / "moves.csv").read_bytes())
    result = CliRunner().invoke(main, ["import", "csv", str(source), "-o", str(source), *force])
    assert result.exit_code == 2 and f"is the input {source}" in result.output
    assert source.read_bytes() == (DATA / "moves.csv").read_bytes()


def test_a_full_disk_during_an_import_leaves_no_folder_it_made(tmp_path, monkeypatch):
    import errno
    import os as os_module

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os_module, "fsync", full)
    out = tmp_path / "new" / "dir" / "x.dom"
    result = CliRunner().invoke(main, ["import", "csv", str(DATA / "moves.csv"), "-o", str(out)])
    assert result.exit_code == 1 and f"{out}: cannot be written (No space left on device)" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_yard_code_of_three_seats_that_draws_is_an_error_at_the_draw():
    # (issue 87's campaign: the cut-throat game of three never draws; it was BadOptionValue out of the importer)
    (problem,) = _problem("yard", "12230D")
    assert (problem.code, problem.line, problem.column) == ("unknown-variant", 1, 6)
    assert "no variant plays this code" in problem.message and "3-player" in problem.message


# ---- a big import, streamed (issue 87 item 3) --------------------------------------------------------------------

def _csv_games(games: int) -> str:
    """tests/data/import/moves.csv (records/seed2.dom's block, 22 moves) as ``games`` games of one CSV."""
    rows = [r for r in (DATA / "moves.csv").read_text(encoding="utf-8").splitlines() if r and not r.startswith("#")]
    return "\n".join(["game," + rows[0]] + [f"{g},{row}" for g in range(1, games + 1) for row in rows[1:]]) + "\n"


def _streamed_import(text: str) -> tuple[str, int, int]:
    """The command's streamed import of the CSV ``text`` (its own ``_streamed``): the SHA-256 of the record it
    writes (the pieces hashed as they come, never held), the games valid, and the peak of the memory Python
    allocated meanwhile (tracemalloc; the source's text made before)."""
    import hashlib
    import tracemalloc

    from analyzer.cli.importing import _streamed, _Tally
    from analyzer.notation.imports import stream_log

    digest, tally = hashlib.sha256(), _Tally()
    tracemalloc.start()
    try:
        for piece in _streamed(stream_log("csv", text, "big.csv"), "big.dom", tally, lambda done, total: None,
                               text.count("\n") + 1):
            digest.update(piece.encode("utf-8"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return digest.hexdigest(), tally.valid, peak


@pytest.mark.slow
def test_a_big_import_is_streamed_its_memory_flat_and_its_record_the_games_one_after_another():
    import hashlib

    # the record of n games is the one game's record n times, each with its own Event, a blank line between
    one = write(import_log("csv", _csv_games(1), "one.csv").record)
    assert one.startswith('[Event "game 1"]\n')

    def expected(games: int) -> str:
        return hashlib.sha256("\n".join(one.replace('"game 1"', f'"game {g}"', 1)
                                        for g in range(1, games + 1)).encode("utf-8")).hexdigest()

    small, big = _csv_games(100), _csv_games(1000)
    digest, valid, peak_small = _streamed_import(small)
    assert (digest, valid) == (expected(100), 100)
    digest, valid, peak_big = _streamed_import(big)
    assert (digest, valid) == (expected(1000), 1000)
    # ten times the games: under 1 KB more a game (the readers' bounded caches filling), where the whole record held
    # took some 23 KB a game (bench/timings/import-growth-87.txt)
    assert (peak_big - peak_small) / 900 < 1024, (peak_small, peak_big)


def test_a_problem_in_the_last_game_of_a_stream_writes_no_file(tmp_path):
    bad = tmp_path / "late.csv"
    bad.write_text(_csv_games(3).rstrip("\n") + "\n3,A,9-9,\n", encoding="utf-8")
    out = tmp_path / "new" / "late.dom"
    done = CliRunner().invoke(main, ["import", "csv", str(bad), "-o", str(out)])
    assert done.exit_code == 1 and f"{bad}:68:5: error[bad-tile] '9-9' is no tile" in done.output, done.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late.csv"]      # (no file, no temporary file, no folder)


def test_an_invalid_game_of_a_stream_is_said_at_its_line_in_the_whole_record(tmp_path):
    text = _csv_games(3)
    head, rows = text.split("\n", 1)
    lines = rows.splitlines()
    lines[22 + 10] = lines[22 + 10].replace("D,1-2,", "D,1-3,")      # (game 2's move that breaks the rules)
    (tmp_path / "m.csv").write_text(head + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["import", "csv", str(tmp_path / "m.csv"), "-o", str(tmp_path / "m.dom")])
    assert done.exit_code == 1 and "2 valid, 1 invalid" in done.output, done.output
    said = [line for line in done.output.splitlines() if line.startswith(f"{tmp_path / 'm.dom'}:")]
    whole = parse((tmp_path / "m.dom").read_text(encoding="utf-8"), str(tmp_path / "m.dom"))
    (rep,) = [r for r in replay_record(whole, match=False, sheets=False) if not r.valid]
    errors = [str(d) for d in rep.diagnostics if d.severity == Severity.ERROR]
    assert said == errors and "error[tile-no-match] [1-3]" in said[0]   # (at their lines in the record written)
    assert f"in {tmp_path / 'm.csv'}: line {2 + 22 + 10}" in done.output


# ---- a Kozel log streamed: its rounds read one at a time, checked as a match game by game ------------------------

def _kozel_rounds(rounds: int, results: bool = True) -> str:
    """The Kozel video parser's own example (tests/data/import/kozel-game.example.json, three rounds) as a log of
    ``rounds`` rounds: its rounds again and again, numbered on (their results left out unless ``results``; the
    example's own three rounds whole)."""
    log = json.loads((DATA / "kozel-game.example.json").read_text(encoding="utf-8"))
    if rounds == 3 and results:
        return json.dumps(log, ensure_ascii=False, indent=1)
    played = log.pop("rounds")
    log.pop("result", None)
    log["rounds"] = [{**{k: v for k, v in played[g % 3].items() if k != "result"}, "number": g + 1}
                     for g in range(rounds)]
    return json.dumps(log, ensure_ascii=False, indent=1)


def _kozel_streamed(text: str) -> tuple[list[str], int, int, list]:
    """The command's streamed import of a Kozel log (its own ``_streamed``): the record's pieces (kept only when
    few), the games valid, the peak of the memory Python allocated meanwhile, and the progress told."""
    import tracemalloc

    from analyzer.cli.importing import _streamed, _Tally
    from analyzer.notation.imports import stream_log

    pieces, tally, told = [], _Tally(), []
    tracemalloc.start()
    try:
        for piece in _streamed(stream_log("kozel-video", text, "log.json"), "log.dom", tally,
                               lambda done, total: told.append((done, total)), text.count("\n") + 1):
            if len(pieces) < 10:
                pieces.append(piece)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return pieces, tally.valid, peak, told


def test_a_kozel_log_streamed_writes_the_record_its_whole_reading_gives():
    # the parser's own example: the pieces joined are the record of the log read whole, each round's game as its
    # transcription by hand, and the progress is told round by round up to the log's last line
    text = (DATA / "kozel-game.example.json").read_text(encoding="utf-8")
    pieces, valid, _peak, told = _kozel_streamed(text)
    assert "".join(pieces) == write(import_log("kozel-video", text, "log.json").record) and valid == 3
    by_hand = read(DATA / "kozel-game.example.dom")
    assert [g.moves for g in parse("".join(pieces)).games] == [g.moves for g in by_hand.games]
    lines = [done for done, _total in told]
    assert lines == sorted(lines) and len(lines) == 3 and lines[-1] <= text.count("\n") + 1
    assert text.splitlines()[lines[0] - 1].strip() in ("}", "},")        # (round 1 read up to its end)


@pytest.mark.slow
def test_a_long_kozel_log_is_streamed_its_memory_flat():
    _pieces, valid, peak_small, _told = _kozel_streamed(_kozel_rounds(40))
    assert valid == 40
    _pieces, valid, peak_big, _told = _kozel_streamed(_kozel_rounds(400))
    assert valid == 400
    # ten times the rounds: under 1 KB more a round (the readers' bounded caches filling), where the log read whole
    # took some 43 KB a round (bench/timings/import-growth-kozel.txt)
    assert (peak_big - peak_small) / 360 < 1024, (peak_small, peak_big)


def test_a_streamed_kozel_log_is_checked_as_a_match_its_errors_at_their_lines_in_the_record(tmp_path):
    # the parser's own example with round 2's running record wrong (the teams' totals swapped, 7 more): the match's
    # score, checked game by game as the rounds come, is wrong there, and the error is at game 2's Score tag, at
    # its line in the whole record written (a game read back alone, its places moved to the record's lines)
    log = json.loads((DATA / "kozel-game.example.json").read_text(encoding="utf-8"))
    total = log["rounds"][1]["result"]["total_score"]
    a, b = list(total)
    total[a], total[b] = total[b] + 7, total[a]
    (tmp_path / "k.json").write_text(json.dumps(log, ensure_ascii=False, indent=1), encoding="utf-8")
    out = tmp_path / "k.dom"
    done = CliRunner().invoke(main, ["import", "kozel-video", str(tmp_path / "k.json"), "-o", str(out)])
    assert done.exit_code == 1 and "2 valid, 1 invalid" in done.output, done.output
    said = [line for line in done.output.splitlines() if line.startswith(f"{out}:")]
    written = out.read_text(encoding="utf-8")
    score_lines = [n for n, line in enumerate(written.splitlines(), 1) if line.startswith("[Score ")]
    whole = parse(written, str(out))
    replays = replay_record(whole)                      # (the record read whole: a match)
    assert [rep.valid for rep in replays] == [True, False, True]
    assert said == [str(d) for d in replays[1].diagnostics if d.severity == Severity.ERROR]
    (line,) = said
    assert line.startswith(f"{out}:{score_lines[1]}:1: error[score-mismatch]"), line


def test_a_problem_in_a_late_round_of_a_kozel_log_is_at_its_line_and_path():
    text = _kozel_rounds(9, results=False)
    at = text.index('"number": 8')
    bad = text[:at] + text[at:].replace('"action": "left"', '"action": "up"', 1)
    problem = _problem("kozel-video", bad)[0]         # (then the next tile, which went against the one left out)
    line = bad[:bad.index('"up"', at)].count("\n") + 1
    assert (problem.code, problem.line) == ("bad-move", line) and problem.message.startswith("rounds[7].moves[")
    twice = text[:at] + '"number": 8, ' + text[at:]
    (problem,) = _problem("kozel-video", twice)
    assert problem.message.startswith("rounds[7].number: this key is given twice")
    assert problem.line == twice[:at].count("\n") + 1


@pytest.mark.parametrize("spoil", [
    lambda t: t.rstrip() + ",",                                     # (data after the object)
    lambda t: t.replace("}\n ]", "},\n ]", 1),                     # (a comma after the last round)
    lambda t: t.replace('"number": 7', '"number": 7 "x": 1', 1),   # (a member without its comma, in round 7)
    lambda t: t[:t.index('"number": 8')] + "[" + t[t.index('"number": 8'):],
    lambda t: "\ufeff" + t])
def test_malformed_json_anywhere_in_a_streamed_log_is_jsons_own_error_before_any_game(spoil):
    text = spoil(_kozel_rounds(9, results=False))
    with pytest.raises(json.JSONDecodeError) as said:
        json.loads(text)
    from analyzer.notation.imports import stream_log

    stream = stream_log("kozel-video", text, "log")
    with pytest.raises(ImportSourceError) as caught:
        next(stream)                                    # (the first game is never given)
    (problem,) = caught.value.diagnostics
    assert (problem.message, problem.line, problem.column) == \
        (f"not JSON: {said.value.msg}", said.value.lineno, said.value.colno)
