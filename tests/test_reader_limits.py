"""The reader on pathological input: a bounded list of problems, nothing readable lost, lines and
comments of any length. (How long each takes is measured by bench/bench_fuzz.py, not here.)"""
import pytest

from analyzer.notation import parse, write
from analyzer.notation.recovery import MAX_DIAGNOSTICS
from analyzer.tiles import Tile

TILES = [str(Tile.of(i % 7, (i * 3 + 1) % 7)) for i in range(400)]     # low half first, as read

# name -> text; bench/bench_fuzz.py times these same inputs
PATHOLOGICAL = {
    "brackets": "[" * 2000,
    "tiles without players": " ".join(TILES),
    "quotes": '"' * 20_000,
    "unclosed braces": "{\n" * 2000,
    "huge comment": "A: ?\n1. A [1-1] {" + "x" * 5_000_000 + "}",
    "huge line": "A: ?\n1. A [1-1] " + "x" * 1_000_000,
    "bad tiles": "A: ?\n1. " + " ".join(["A [7-x]"] * 3000),
    "many moves": "A: ?\nB: ?\n" + " ".join(f"A {t} B pass" for t in TILES * 5),
}


def _bounded(record):
    assert len(record.errors) <= MAX_DIAGNOSTICS + 1
    if len(record.errors) == MAX_DIAGNOSTICS + 1:
        last = record.errors[-1]
        assert last.code == "too-many-errors" and last.details["left_out"] > 0
        assert str(last.details["left_out"]) in last.message
    for d in record.errors:
        assert len(d.message) < 400 and (d.context is None or max(map(len, d.context.split("\n"))) < 120)


def test_a_text_of_brackets_gives_a_bounded_list_and_says_how_many_more():
    record = parse(PATHOLOGICAL["brackets"])
    _bounded(record)
    assert len(record.errors) == MAX_DIAGNOSTICS + 1 and record.errors[0].line == 1
    # every bracket but the ones listed is counted, none is lost without a word
    assert MAX_DIAGNOSTICS + record.errors[-1].details["left_out"] >= 1999


def test_a_list_of_tiles_without_players_is_one_error_that_keeps_every_tile():
    record = parse(PATHOLOGICAL["tiles without players"])
    _bounded(record)
    (error,) = record.errors
    assert error.code == "no-player" and (error.line, error.column) == (1, 1)
    assert error.details["count"] == 400 and error.details["moves"] == TILES
    assert "399" in error.message


def test_a_text_of_quotes_gives_a_bounded_list():
    record = parse(PATHOLOGICAL["quotes"])
    _bounded(record)
    assert record.errors and record.games == []


def test_unclosed_braces_give_a_bounded_list_and_say_how_many_more():
    record = parse(PATHOLOGICAL["unclosed braces"])
    _bounded(record)
    assert record.errors[-1].code == "too-many-errors"
    assert MAX_DIAGNOSTICS + record.errors[-1].details["left_out"] >= 2000


def test_a_huge_comment_is_kept_whole():
    record = parse(PATHOLOGICAL["huge comment"])
    assert not record.errors
    (move,) = record.games[0].moves
    assert move.comment == "x" * 5_000_000


def test_a_huge_line_is_quoted_in_part():
    record = parse(PATHOLOGICAL["huge line"])
    _bounded(record)
    assert record.errors and record.games[0].moves[0].tile is not None


def test_thousands_of_bad_tiles_give_a_bounded_list_and_keep_the_good_move_before_them():
    record = parse("A: ?\n1. A [1-1] " + PATHOLOGICAL["bad tiles"].split("1. ", 1)[1])
    _bounded(record)
    assert [d.code for d in record.errors[:-1]] == ["bad-tile"] * MAX_DIAGNOSTICS
    assert record.errors[-1].details["left_out"] == 3000 - MAX_DIAGNOSTICS
    assert [str(m.tile) for m in record.games[0].moves] == ["[1-1]"]


def test_thousands_of_moves_are_all_kept():
    record = parse(PATHOLOGICAL["many moves"])
    assert not record.errors
    assert [str(m.tile) for m in record.games[0].moves if m.tile is not None] == TILES * 5


@pytest.mark.parametrize("text", ["Game of the year\n", "Das Spiel vom 3. Mai\n", "Title\n",
                                  "INTERNATIONAL DOMINOES\n"])
def test_a_stray_first_line_is_reported_and_the_tags_after_it_are_read(text):
    record = parse(text + '[Event "x"]\n[Site "y"]\nA: [1-1]\nB: ?\n1. A [1-1] B pass\n')
    assert record.errors and record.errors[0].line == 1
    (game,) = record.games
    assert game.tags == {"Event": "x", "Site": "y"}
    assert [m.text for m in game.moves] == ["[1-1]", "pass"]


@pytest.mark.parametrize("comment", [" ", "  ", "\t", " a ", "a  b", " two\tblanks  ", "\xa0x\xa0"])
def test_blanks_in_comments_survive_the_round_trip(comment):
    text = f'[Event "x"]\n{{{comment}}}\nA: ?\n1. A [1-1] {{{comment}}} A pass\n'
    record = parse(text)
    assert not record.errors
    game = record.games[0]
    assert game.comments == [comment] and game.moves[0].comment == comment
    assert parse(write(record)) == record


def test_on_a_long_table_row_free_text_and_stray_words_are_told_apart_as_on_a_short_one():
    remark = "Das Spiel ist gesperrt, " * 12                    # a row over 200 characters long
    for words in ("", "x " * 120):
        text = f"Runde A B C\n1 [1-1] [1-2] {words}{remark}\n2 [2-2] {{ein [Kommentar]}}\n"
        record = parse(text)
        game = record.games[0]
        assert [str(m.tile) for m in game.moves] == ["[1-1]", "[1-2]", "[2-2]"]
        assert game.moves[1].comment == (words + remark).strip()
        assert game.moves[2].comment == "ein [Kommentar]" and not record.errors
    stray = parse("Runde A B C D\n1 [1-1] " + "x " * 150 + "[1-2]\n").errors
    # three stray words fill the columns B to D, the fourth is one cell too many
    assert [d.code for d in stray[:3]] == ["bad-move"] * 3 and stray[3].code in ("bad-move", "too-many-cells")
    assert {d.code for d in stray[3:5]} == {"bad-move", "too-many-cells"} and stray[3].column == stray[4].column


# ---- numbers: every number of a record is bounded where it is read (issue 55) ---------------------------
# Python's int() refuses a text of more than 4,300 digits; a record's numbers have at most MAX_DIGITS.

import re  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from analyzer.cli import main as cli  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.record import MAX_DIGITS  # noqa: E402
from conftest import RECORDS  # noqa: E402

# name -> (record, the text of a number, what replaces it with a number of {n} digits, where it stands)
NUMBERS = {
    "game tag": ("seed1.dom", '[Variant "partnership"]', '[Game "{n}"]\n[Variant "partnership"]', (3, 1)),
    "move number": ("seed1.dom", "\n3. A [0-5]", "\n{n}. A [0-5]", (17, 1)),
    "row number": ("seed1-table.txt", "\n2 [1-4]", "\n{n} [1-4]", (17, 1)),
    "claim": ("match-all-fives-4.dom", "B [1-3] +15", "B [1-3] +{n}", (17, 34)),
    "muggins call": ("match-all-fives-4.dom", "C [3-4] D [5-6]", "C [3-4] D muggins {n} D [5-6]", (17, 56)),
}


def _with_number(name: str, digits: int) -> str:
    record, old, new, _ = NUMBERS[name]
    text = (RECORDS / record).read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new.format(n="9" * digits), 1)


@pytest.mark.parametrize("digits", [MAX_DIGITS + 1, 4301])
@pytest.mark.parametrize("name", list(NUMBERS))
def test_a_number_too_long_is_one_error_at_its_place_and_the_rest_is_read(name, digits):
    record, *_, place = NUMBERS[name]
    original = parse((RECORDS / record).read_text(encoding="utf-8"))
    read = parse(_with_number(name, digits))
    (error,) = [d for d in read.errors if d.code == "number-too-long"]
    assert (error.line, error.column) == place and str(digits) in error.message and len(error.message) < 300
    assert [d.code for d in read.errors if d is not error] == [d.code for d in original.errors]
    # nothing else lost: every game and every move of the record is read, in order
    assert len(read.games) == len(original.games)
    moves = [[(m.player, m.tile) for m in g.moves] for g in read.games]
    before = [[(m.player, m.tile) for m in g.moves] for g in original.games]
    assert moves == before          # (a muggins call is no move of the list: the unreadable one is left out)
    assert parse(write(read)) == read


@pytest.mark.parametrize("name", ["move number", "row number"])
def test_a_move_or_row_number_too_long_is_taken_as_the_one_after_the_number_before(name):
    # the records number their rows 1, 2, 3...: the number after the one before is the one replaced
    original = parse((RECORDS / NUMBERS[name][0]).read_text(encoding="utf-8")).games[0]
    assert [m.round for m in parse(_with_number(name, 4301)).games[0].moves] == [m.round for m in original.moves]


def test_a_claim_too_long_is_not_read_and_the_play_stands():
    read = parse(_with_number("claim", 4301))
    move = next(m for m in read.games[0].moves if m.player == "B" and str(m.tile) == "[1-3]" and not m.draw)
    assert move.claim is None


def test_a_game_tag_too_long_leaves_the_game_unnumbered_and_replays():
    read = parse(_with_number("game tag", 4301))
    assert read.games[0].number is None and len(read.games[0].tags["Game"]) == 4301
    for rep in replay_record(read):
        assert not {"internal-error", "notation"} & {d.code for d in rep.diagnostics}


def _cli(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for bad in ("Traceback", "internal", "int_max_str_digits", "Exceeds the limit"):
        assert bad not in result.output, result.output[-800:]
    return result


@pytest.mark.parametrize("name", ["game tag", "move number", "claim"])
def test_validate_and_replay_report_a_number_too_long_and_still_print_the_other_records(tmp_path, name):
    path = tmp_path / "big.dom"
    path.write_text(_with_number(name, 4301), encoding="utf-8")
    other = str(RECORDS / "seed2.dom")
    line, column = NUMBERS[name][3]
    for command in ("validate", "replay"):
        result = _cli(command, str(path), other)
        assert result.exit_code == 1
        assert f"{path}:{line}:{column}: error[number-too-long]" in result.output
        # the other record is read and printed too (its places, and the run's count of two records)
        assert f"{other}:" in result.output and "2 records (" in result.output


@pytest.mark.parametrize("tag, code", [('[Rules "players=4"]', "bad-rule"), ('[Result "C 45 domino"]', "result-syntax")])
def test_a_tag_number_too_long_is_the_tag_s_error_in_a_short_message(tag, code):
    text = (RECORDS / "match-all-fives-4.dom").read_text(encoding="utf-8")
    long = re.sub(r"\d+", "9" * 4301, tag, count=1)
    read = parse(text.replace(tag, long, 1))
    reps = replay_record(read)
    found = [d for rep in reps for d in rep.diagnostics if d.code == code]
    assert found and found[0].line == read.games[0].tag_pos[tag[1:].split()[0]].line
    assert all(len(d.message) < 400 for rep in reps for d in rep.diagnostics)
    assert not {"internal-error", "notation"} & {d.code for rep in reps for d in rep.diagnostics}
