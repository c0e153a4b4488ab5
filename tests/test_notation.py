"""The notation: book tables and PGN-like records, read and written back."""
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.diagnostics import NotationError
from analyzer.generate import random_game
from analyzer.notation import parse, read, write, write_table
from analyzer.record import ANNOTATIONS, Game, HandEntry, MoveEntry, Record, Span, StatedResult
from analyzer.tiles import Tile
from conftest import RECORDS, SEED_DEAL, SEED_HANDS, SEEDS

SEED_TEXT = (SEEDS / "000_3c92c1f714ce882e.txt").read_text(encoding="utf-8")


def _line_end(text: str, marker: str, start: int = 0) -> int:
    return text.index("\n", text.index(marker, start))


def book_table_one() -> str:
    """The seed text from "Spieler A:" down to the last row of the first table, as printed."""
    start = SEED_TEXT.index("Spieler A:")
    return SEED_TEXT[start:_line_end(SEED_TEXT, "8 passt [1-6]", start)]


def book_table_two() -> str:
    """The deal of the seed text followed by its second table, both as printed."""
    start = SEED_TEXT.index("Spieler A:")
    deal = SEED_TEXT[start:SEED_TEXT.index("Runde", start)]
    table = SEED_TEXT.index("Runde", _line_end(SEED_TEXT, "8 passt [1-6]", start))
    return deal + SEED_TEXT[table:_line_end(SEED_TEXT, "Das Spiel ist gesperrt!", table)]


def only_game(text: str, source: str = "t.dom") -> Game:
    record = parse(text, source)
    assert not record.errors, "\n".join(map(str, record.errors))
    (game,) = record.games
    return game


def plays(game: Game, round_no: int | None = None) -> list[str]:
    return [f"{m.player} {'pass' if m.tile is None else m.tile}" for m in game.moves
            if round_no is None or m.round == round_no]


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


# ---- the book's tables, pasted as printed ------------------------------------------------------

def test_the_first_book_table_reads_as_printed():
    text = book_table_one()
    assert "\xa0" in text and "[3-6]*" in text and "----" in text     # really the printed bytes
    game = only_game(text)
    assert game.form == "table"
    assert game.players == ("A", "B", "C", "D")
    for player, hand in SEED_HANDS.items():
        assert game.hand_of(player).tiles == tiles(hand)
    assert game.hand_of("A").tiles == tiles("[0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]")
    assert plays(game, 1) == ["B [1-1]", "C pass", "D [1-5]"]        # row 1: A's cell is ----
    first = game.moves[0]
    assert (first.player, first.tile, first.round, first.end) == ("B", Tile(1, 1), 1, None)
    (critical,) = [m for m in game.moves if m.annotation]
    assert (critical.round, critical.player, critical.tile, critical.annotation) == (5, "C", Tile(3, 6), "*")
    assert plays(game, 8) == ["A pass", "B [1-6]"]                   # the last row has two cells
    assert len(game.moves) == 29
    assert game.remark is None and game.comments == [] and game.tags == {}


def test_the_second_book_table_keeps_its_remark():
    game = only_game(book_table_two())
    assert game.players == ("A", "B", "C", "D")
    assert game.remark == "Das Spiel ist gesperrt!"
    assert plays(game, 5) == ["A [2-2]", "B [2-6]", "C [4-6]", "D pass"]
    assert plays(game, 6) == ["A [3-4]", "B [2-3]", "C [2-4]"]
    assert [m.round for m in game.moves] == [1] * 3 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 3


def test_the_whole_book_excerpt_with_its_prose_reads_as_two_games():
    start = SEED_TEXT.index("Spieler A:")
    record = parse(SEED_TEXT[start:_line_end(SEED_TEXT, "Das Spiel ist gesperrt!", start)])
    assert record.errors == []
    one, two = record.games
    assert one.remark.startswith("Spieler B macht Domino und die Spieler A und C verlieren 10 Punkte.")
    assert "[3-6] statt [4-6]" in one.remark
    assert two.hands == () and two.players == ("A", "B", "C", "D")
    assert two.remark == "Das Spiel ist gesperrt!"
    assert plays(two) == plays(only_game(book_table_two()))


def test_the_record_files_hold_the_tables_verbatim_under_a_tag_header():
    one = (RECORDS / "seed1-table.txt").read_text(encoding="utf-8")
    assert one.rstrip("\n").endswith(book_table_one())
    two = (RECORDS / "seed2-table.txt").read_text(encoding="utf-8")
    assert book_table_two() in two
    game1 = only_game(one)
    assert game1.tags["Event"] == "INTERNATIONAL DOMINOES, example deal"
    assert game1.tags["Variant"] == "partnership"
    assert "Anderson" in game1.tags["Source"] and "Game" not in game1.tags
    assert StatedResult.parse(game1.tags["Result"]) == StatedResult(("B", "D"), 10, "domino")
    game2 = only_game(two)
    assert StatedResult.parse(game2.tags["Result"]) == StatedResult(("A", "C"), 46, "blocked")
    assert list(game1.tags) == ["Event", "Source", "Variant", "Result"]


def test_the_pgn_records_give_the_same_games_as_the_tables():
    for n in (1, 2):
        table = read(RECORDS / f"seed{n}-table.txt")
        pgn = read(RECORDS / f"seed{n}.dom")
        assert not table.errors and not pgn.errors
        (t,), (p,) = table.games, pgn.games
        assert p.form == "pgn" and p.players == t.players and p.hands == t.hands
        assert [(m.player, m.tile, m.round) for m in p.moves] == [(m.player, m.tile, m.round) for m in t.moves]
        assert p.tags["Result"] == t.tags["Result"]
    pgn1 = read(RECORDS / "seed1.dom").games[0]
    critical = next(m for m in pgn1.moves if m.annotation == "*")
    assert (critical.tile, critical.end) == (Tile(3, 6), 6)
    assert "statt [4-6]" in critical.comment
    assert pgn1.remark.startswith("Spieler B macht Domino")
    assert read(RECORDS / "seed2.dom").games[0].remark.splitlines()[0] == "Das Spiel ist gesperrt!"


# ---- keywords, names, the parts of a move ---------------------------------------------------------

def test_english_keywords_and_any_names_work_in_a_table():
    game = only_game("""Player Nord: [0-1] [2-3]
Player Ost: [1-1]
Sued: ?
West: [4-5]
Round Nord Ost Sued West
1 [0-1] PASS ---- pass
2 ---- [1-1]
""")
    assert game.players == ("Nord", "Ost", "Sued", "West")
    assert game.hand_of("Sued").tiles is None
    assert plays(game) == ["Nord [0-1]", "Ost pass", "West pass", "Ost [1-1]"]
    table = only_game("Runde Spieler Maria Player Jose Ana\n1 [6-6] passt\n")
    assert table.players == ("Maria", "Jose", "Ana") and table.hands == ()


def test_german_keywords_work_in_the_move_list():
    game = only_game("Spieler Maria: [6-6]\nSpieler Jose: ?\n1. Maria [6-6] Jose passt")
    assert game.players == ("Maria", "Jose") and plays(game) == ["Maria [6-6]", "Jose pass"]


def test_the_players_tag_gives_the_play_order():
    deal = "A: ?\nB: ?\nC: ?\n1. C [1-1]"
    assert only_game(f'[Players "C, A, B"]\n{deal}').players == ("C", "A", "B")
    assert only_game(f'[Players "C A B"]\n{deal}').players == ("C", "A", "B")
    assert only_game(deal).players == ("A", "B", "C")                   # the deal's order
    assert only_game("A: ?\n1. B [1-1] A pass").players == ("A", "B")   # then the movers


def test_tiles_are_normalised_and_written_low_half_first():
    game = only_game("A: [6-3] [ 5 | 2 ] [12-10]\n1. A [6-3]")
    assert game.hand_of("A").tiles == (Tile(3, 6), Tile(2, 5), Tile(10, 12))
    assert game.moves[0].tile == Tile(3, 6)
    assert "A: [3-6] [2-5] [10-12]" in write(game)


def test_the_open_number_a_tile_went_on():
    game = only_game("A: ?\nB: ?\n1. A [4-4] B [4-6]@4 A [6-6]@ 6")
    assert [m.end for m in game.moves] == [None, 4, 6]
    assert "B [4-6]@4" in write(game)
    record = parse("A: ?\n1. A [4-6]@3")
    (error,) = record.errors
    assert error.code == "bad-end" and (error.line, error.column) == (2, 11)
    assert record.games[0].moves[0].end is None


@pytest.mark.parametrize("annotation", ANNOTATIONS)
def test_annotations_glued_or_spaced(annotation):
    glued = only_game(f"A: ?\nB: ?\n1. A [3-6]{annotation} B pass{annotation}")
    spaced = only_game(f"A: ?\nB: ?\n1. A [3-6] {annotation} B pass {annotation}")
    assert [m.annotation for m in glued.moves] == [annotation, annotation]
    assert glued == spaced
    table = only_game(f"Runde A B\n1 [3-6]{annotation} passt {annotation}\n")
    assert [m.annotation for m in table.moves] == [annotation, annotation]


def test_unknown_hands():
    game = only_game(SEED_DEAL.replace("C: [0-2] [2-4] [2-5] [3-3] [3-6] [4-5] [4-6]", "C: ?"))
    assert game.hand_of("C").tiles is None and game.hand_of("D").tiles == tiles(SEED_HANDS["D"])
    assert "C: ?" in write(game)


def test_comments_and_remarks_go_where_they_belong():
    game = only_game('[Event "x"] {before the deal}\nA: ? {after the deal}\nB: ?\n'
                     '1. A [1-1] {after A} {and more} B pass 2. {after the number} '
                     'A [1-2]\n; blocked\n; really')
    assert game.comments == ["before the deal", "after the deal"]
    assert [m.comment for m in game.moves] == ["after A and more", "after the number", None]
    assert game.remark == "blocked\nreally"


def test_a_comment_left_open_over_rows_of_moves_is_pointed_out():
    pgn = (RECORDS / "seed2.dom").read_text(encoding="utf-8")
    broken = pgn.replace("{statt [3-6] im ersten Spiel}", "{statt [3-6] im ersten Spiel") \
                .replace("; Das Spiel ist gesperrt!", "{x} ; Das Spiel ist gesperrt!")
    row = "6. A [3-4] B [2-3] C [2-4]"
    opened = next(k for k, line in enumerate(broken.splitlines(), 1) if "{statt" in line)
    record = parse(broken)
    warnings = [d for d in record.errors if d.code == "comment-swallows-rows"]
    assert [(d.severity, d.line) for d in warnings] == [("warning", opened)]
    assert f"line {opened + 1}" in warnings[0].message and row in warnings[0].message
    assert len(record.games[0].moves) < len(parse(pgn).games[0].moves)      # the rows it swallowed are gone
    table = (RECORDS / "seed2-table.txt").read_text(encoding="utf-8")
    broken = table.replace("3 [0-5] passt", "3 [0-5] {hm passt").replace("6 [3-4]", "6 } [3-4]")
    assert [d.line for d in parse(broken).errors if d.code == "comment-swallows-rows"] == \
        [next(k for k, line in enumerate(broken.splitlines(), 1) if "{hm" in line)]
    # a comment over several lines that holds prose, even with tiles in it, is no slip
    prose = only_game("A: ?\n1. A [1-1] {a long note\nabout [1-2] and\nwhat A: could [2-2] do}\nB pass")
    assert prose.moves[0].comment == "a long note about [1-2] and what A: could [2-2] do"
    assert not parse("A: ?\n1. A [1-1] {a long note\nabout [1-2] and\nwhat A: could [2-2] do}").errors


def test_braces_in_comments_are_escaped():
    game = only_game(r"A: ?" + "\n" + r"1. A [1-1] {a \} and a \{ and a \\ and C:\path}")
    assert game.moves[0].comment == r"a } and a { and a \ and C:\path"
    back = parse(write(game))
    assert not back.errors and back.games[0] == game
    made = Game(players=("A",), hands=(HandEntry("A", None),),
                moves=[MoveEntry("A", Tile(1, 1), comment="{x}} y\\")], comments=["}"],
                remark="ends with } and {")
    assert parse(write(made)).games == [made]


# ---- several games, positions ------------------------------------------------------------------

def test_several_games_in_one_file():
    text = ('[Event "one"]\nA: [1-1]\nB: ?\n1. A [1-1] B pass\n'
            'A: [2-2]\nB: ?\n1. A [2-2]\n'                         # a deal after moves: game 2
            '[Event "three"]\nRunde A B\n1 [3-3] passt\n'          # tags + table: game 3
            'Runde A B\n1 ---- [4-4]\n'                            # a header after a table: game 4
            '[Event "five"]\n[Result "*"]\nA: ?\n')                # the last game may have no moves
    record = parse(text)
    assert not record.errors
    assert [g.tags.get("Event") for g in record.games] == ["one", None, "three", None, "five"]
    assert [plays(g) for g in record.games] == [["A [1-1]", "B pass"], ["A [2-2]"], ["A [3-3]", "B pass"],
                                                 ["B [4-4]"], []]
    assert [g.pos.line for g in record.games] == [1, 5, 8, 11, 13]
    assert [g.form for g in record.games] == ["pgn", "pgn", "table", "table", "pgn"]
    assert parse(write(record)) == record


def test_a_bare_move_list_is_a_game():
    game = only_game("{from memory} 1. B [1-1] C pass")
    assert game.players == ("B", "C") and game.comments == ["from memory"] and game.hands == ()


def test_positions_point_into_the_source():
    text = '[Event "x"]\n[Result "*"]\nA: [0-1]\n  [2-3]\nB: ?\n1. A [0-1] B  pass\n'
    game = only_game(text)
    assert game.pos == Span(1, 1)
    assert game.tag_pos == {"Event": Span(1, 1), "Result": Span(2, 1)}
    assert game.hand_of("A").pos == Span(3, 1)
    assert game.hand_of("A").tile_pos == (Span(3, 4), Span(4, 3))
    assert [m.pos for m in game.moves] == [Span(6, 6), Span(6, 15)]
    table = only_game(book_table_one())
    critical = next(m for m in table.moves if m.annotation)
    line = book_table_one().split("\n")[critical.pos.line - 1]
    assert line[critical.pos.column - 1:].startswith("[3-6]*")


def test_tag_names_may_be_any_word_and_values_escape_quotes():
    game = only_game('[Round "3"]\n[Annotator "say \\"hi\\" \\\\o/"]\n[Event "x"]\nA: ?\n')
    assert game.tags == {"Round": "3", "Annotator": 'say "hi" \\o/', "Event": "x"}
    assert list(game.tags) == ["Round", "Annotator", "Event"]
    assert parse(write(game)).games == [game]


def test_read_names_the_path_as_given(tmp_path):
    path = tmp_path / "broken.dom"
    path.write_text("A: [1-1]\n1. A [1-1] B\n", encoding="utf-8")
    record = read(path)
    assert record.source == str(path)
    assert record.errors and all(d.source == str(path) for d in record.errors)
    with pytest.raises(NotationError):
        read(tmp_path / "missing.dom")


# ---- writing -----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(p for p in RECORDS.iterdir() if p.suffix in (".dom", ".txt", ".pgn")),
                         ids=lambda p: p.name)
def test_every_record_file_reads_back_equal_from_the_writer(path):
    record = read(path)
    if path.name.startswith("errors-syntax"):
        # written to show a syntax error: what could be read still writes back equal
        assert [d.code for d in record.errors] == ["syntax"]
    else:
        assert not [d for d in record.errors if d.severity == "error"], record.errors
    text = write(record)
    again = parse(text)
    # the writer drops what could not be read; every other notation finding stays
    assert [d.code for d in again.errors] == [d.code for d in record.errors if d.code != "syntax"]
    assert again == record
    assert write(again) == text
    for game in record.games:
        try:
            table = write_table(game)
        except ValueError:   # a move by someone who is not a player has no column; a draw, a claim or
            # a muggins call no cell
            assert (path.name.startswith("errors") and game.tags.get("Expect") == "unknown-player"
                    or any(m.draw or m.claim is not None or m.is_muggins for m in game.moves))
            continue
        assert parse(table).games == [game]


def test_a_table_whose_deal_is_in_another_order_is_written_as_a_table():
    text = "B: ?\nA: ?\nRunde A B\n1 [1-1] passt\n"
    record = parse(text)
    assert record.games[0].players == ("A", "B") and record.games[0].hands[0].player == "B"
    assert "Round" in write(record) and parse(write(record)) == record


def test_write_table_lines_up_the_columns():
    table = write_table(only_game(book_table_one()))
    assert "Round  A       B       C       D" in table
    assert "5      [2-2]   [2-6]   [3-6]*  [0-3]" in table
    game = Game(players=("A", "B"), moves=[MoveEntry("B", None, round=1), MoveEntry("A", None, round=1)])
    assert write_table(game).splitlines()[1:] == ["1      ----  pass", "1      pass"]
    assert parse(write_table(game)).games[0] == game
    with pytest.raises(ValueError):
        write_table(Game(players=("A", "B"), moves=[MoveEntry("B", None)]))


# ---- errors --------------------------------------------------------------------------------------

def test_a_garbage_word_in_a_row_is_reported_and_the_other_rows_are_read():
    lines = book_table_one().split("\n")
    row = next(i for i, line in enumerate(lines) if line.startswith("3 "))
    lines[row] = "3 [0-5] passt xyz! [1-2]"          # C's cell is garbage
    record = parse("\n".join(lines), "book.txt")
    (error,) = record.errors
    assert (error.code, error.line, error.column, error.source) == ("bad-move", row + 1, 15, "book.txt")
    game = record.games[0]
    assert plays(game, 2) == ["A [1-4]", "B pass", "C [4-5]", "D [0-4]"]
    assert plays(game, 3) == ["A [0-5]", "B pass", "D [1-2]"]        # D keeps his column
    assert plays(game, 4) == ["A [4-4]", "B [0-1]", "C [0-2]", "D pass"]
    assert len(game.moves) == 28

    lines[row] = "3 [0-5] passt } [2-5] [1-2]"      # a stray brace between the cells
    record = parse("\n".join(lines), "book.txt")
    (error,) = record.errors
    assert (error.code, error.line, error.column) == ("syntax", row + 1, 15)
    assert error.message.startswith("unexpected '}'; expected one of: a tile like [3-6], pass, ")
    assert error.context == "3 [0-5] passt } [2-5] [1-2]\n              ^"
    game = record.games[0]
    assert plays(game, 3) == ["A [0-5]", "B pass", "C [2-5]", "D [1-2]"]
    assert len(game.moves) == 29


def test_a_syntax_error_has_line_column_caret_and_what_was_expected():
    text = '[Event "x"]\nA: ?\nB: ?\n1. A [1-1] B pass\n2. A [1-2] B ] [2-2]\n3. A pass B [2-3]\n'
    record = parse(text, "t.dom")
    (error,) = record.errors
    assert (error.code, error.severity, error.line, error.column) == ("syntax", "error", 5, 14)
    assert error.message.startswith("unexpected ']'; expected one of: a tile like [3-6], pass")
    assert error.context == "2. A [1-2] B ] [2-2]\n             ^"
    assert str(error).startswith("t.dom:5:14: error[syntax] unexpected ']'")
    assert plays(record.games[0]) == ["A [1-1]", "B pass", "A [1-2]", "B [2-2]", "A pass", "B [2-3]"]


def test_bad_tiles_keep_their_cell_and_are_left_out_of_a_hand():
    record = parse("A: [0-1] [7-x] [2-3]\nRunde A B C\n1 [7-x] [1-1] passt\n")
    assert [(d.code, d.line, d.column) for d in record.errors] == [("bad-tile", 1, 10), ("bad-tile", 3, 3)]
    game = record.games[0]
    assert game.hand_of("A").tiles == (Tile(0, 1), Tile(2, 3))
    assert plays(game) == ["B [1-1]", "C pass"]


def test_a_missing_bracket_is_supplied():
    record = parse('[Event "x"\n[Site "y"]\nA: ?\n1. A [1-1]')
    (error,) = record.errors
    assert (error.line, error.column) == (2, 1) and "expected ']'" in error.message
    assert record.games[0].tags == {"Event": "x", "Site": "y"}


def test_an_unfinished_record_keeps_what_it_has():
    record = parse('[Event "x"]\nA: [1-1]\n1. A [1-1] B')
    assert [(d.code, d.line, d.column) for d in record.errors] == [("syntax", 3, 13)]
    assert record.errors[0].message == "unexpected end of text; expected one of: a tile like [3-6], pass"
    assert plays(record.games[0]) == ["A [1-1]"]
    record = parse('[Event "x"]\nA: [1-1]\n[Result "*"')       # tags may also follow the hands
    assert record.games[0].tags == {"Event": "x", "Result": "*"} and len(record.errors) == 1
    record = parse('[Event "x"]\n[Result')
    assert record.games[0].tags == {"Event": "x"} and "a quoted value" in record.errors[0].message


def test_moves_without_a_player_and_extra_cells_are_reported():
    record = parse("A: ?\nB: ?\n1. A [1-1] [1-2] [2-2] B pass")
    (error,) = record.errors
    assert error.code == "no-player" and "[1-2]" in error.message and error.details["count"] == 2
    assert plays(record.games[0]) == ["A [1-1]", "B pass"]
    record = parse("Runde A B\n1 [1-1] passt [1-2]@2* ----\n2 passt\n")
    assert [d.code for d in record.errors] == ["too-many-cells"]
    # the cells left out, as data (the repair puts them back when another cell was written twice)
    assert record.errors[0].details["cells"] == [
        {"text": "[1-2]", "move": True, "tile": "[1-2]", "end": 2, "arm": None, "annotation": "*", "line": 2,
         "column": 15},
        {"text": "----", "move": False, "line": 2, "column": 24}]
    assert plays(record.games[0]) == ["A [1-1]", "B pass", "A pass"]


def test_notation_warnings():
    record = parse('[Players "A, B"]\n[Players "A, B"]\nA: ?\nA: ?\nC: ?\n1. A [1-1] D pass')
    assert sorted(d.code for d in record.errors) == ["duplicate-hand", "duplicate-tag",
                                                     "unknown-player", "unknown-player"]
    assert all(d.severity == "warning" for d in record.errors)


def test_a_failing_rule_is_reported_where_it_stands_and_the_other_games_are_kept(monkeypatch):
    from analyzer.notation.reader import RecordTransformer

    def broken(self, *args):
        raise ValueError("no such hand")

    monkeypatch.setattr(RecordTransformer, "unknown", broken)
    record = parse("A: [1-1]\n1. A [1-1]\nB: ?\n1. B pass\nC: [2-2]\n1. C pass")
    (error,) = record.errors
    assert (error.code, error.message, error.line) == ("notation", "no such hand", 3)
    assert [g.players for g in record.games] == [("A",), ("C",)]


def test_the_complete_examples_in_the_docs_read_cleanly():
    import re
    docs = (RECORDS.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```\n(.*?)```", docs, re.S) if "..." not in b]
    assert blocks
    for block in blocks:
        record = parse(block)
        assert record.games and not record.errors, record.errors


def test_empty_text_is_an_empty_record():
    assert parse("") == Record() and parse("  \n{just a comment}\n").games == []


# ---- parse() never raises -------------------------------------------------------------------------

PIECES = st.sampled_from(list("[]{}()-@:;!?*.,\"\\ \t\n\xa0|0123456789ABCDpasstRunde") +
                           ["[3-6]", "pass", "passt", "----", "Spieler ", "Runde ", "[Event \"", "A:", "1.", "\n"])


WRITER_NEVER_CAUSES = {"syntax", "bad-tile", "bad-move", "bad-end", "no-player", "too-many-cells"}


def _check(record: Record) -> None:
    assert isinstance(record, Record)
    assert not [d for d in record.errors if d.code == "internal"], record.errors
    for d in record.errors:
        if d.code == "syntax":
            assert d.line >= 1 and d.column >= 1 and "^" in d.context


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text_never_raises(text):
    _check(parse(text))


def mutated_record(data) -> str:
    """A file of records/ cut and spliced with pieces of the notation a few times."""
    path = data.draw(st.sampled_from(sorted(RECORDS.iterdir())))
    text = path.read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 8))
        text = text[:at] + "".join(data.draw(st.lists(PIECES, max_size=3))) + text[at + cut:]
    return text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records_never_raise(data):
    text = mutated_record(data)
    record = parse(text)
    _check(record)
    again = parse(write(record))        # whatever was read can be written and read back
    assert not [d for d in again.errors if d.code in WRITER_NEVER_CAUSES], again.errors
    assert again == record


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["A", "B", "C"]), min_size=1, max_size=12),
       st.lists(st.sampled_from([None, "!", "?", "*", "!?"]), min_size=12, max_size=12),
       st.lists(st.sampled_from([None, "good", "a } b", "x\\y"]), min_size=12, max_size=12))
def test_written_games_read_back_equal(players, annotations, comments):
    moves = [MoveEntry(p, Tile.of(i % 7, (i * 3) % 7) if i % 3 else None,
                       annotation=annotations[i], comment=comments[i], round=i // 3 + 1)
             for i, p in enumerate(players)]
    game = Game(tags={"Players": "A, B, C"}, players=("A", "B", "C"),
                hands=(HandEntry("A", None), HandEntry("B", (Tile(0, 0),)), HandEntry("C", None)),
                moves=moves, remark="gesperrt")
    assert parse(write(game)).games == [game]
    assert parse(write(replace(game, tags={}))).games == [replace(game, tags={})]


# ---- a table stays a table ---------------------------------------------------------------------

def _table_text(seed: int) -> str:
    """A legal random game written as the book table, with a comment in a cell, one before the
    first row and the remark as a line of prose under the rows."""
    game = random_game(seed=seed)
    first = game.players.index(game.moves[0].player)
    n = len(game.players)
    moves = [replace(m, round=1 + (first + k) // n) for k, m in enumerate(game.moves)]
    moves[5] = replace(moves[5], comment="gut gespielt")
    game = replace(game, moves=moves, comments=["aus dem Turnier"])
    return write_table(game) + "Das Spiel ist aus.\n"


def test_a_table_is_written_back_as_the_same_table():
    text = _table_text(4)
    record = parse(text)
    assert not record.errors and record.games[0].form == "table"
    assert record.games[0].remark == "Das Spiel ist aus." and record.games[0].moves[5].comment == "gut gespielt"
    assert write(record) == text


def test_a_repaired_table_is_written_as_the_table_it_was():
    from analyzer.repair import repair
    from analyzer.replay import replay

    text = _table_text(4)
    (original,) = parse(text).games
    played = [m for m in original.moves if m.tile is not None]
    slip, typo = played[6].tile, Tile.of(played[6].tile.low, (played[6].tile.high + 1) % 7)
    row = next(line for line in text.split("\n") if str(slip) in line and line[:1].isdigit())
    slipped = parse(text.replace(row, row.replace(str(slip), str(typo))))
    assert not replay(slipped.games[0]).valid
    best = repair(slipped.games[0]).best
    assert best is not None and best.game == original
    assert write(replace(slipped, games=[best.game])) == text


# ---- the record lexer reads as lark's contextual lexer does ---------------------------------------

def _reading_with(lark):
    """``parse`` with the parser ``lark`` instead of the record parser."""
    from analyzer.notation import reader

    def read_with(text: str) -> Record:
        own = reader.parser
        reader.parser = lambda: lark
        try:
            return parse(text)
        finally:
            reader.parser = own
    return read_with


@pytest.fixture(scope="module")
def lark_lexed():
    """``parse`` with lark's own contextual lexer instead of the record lexer (the reference)."""
    from lark import Lark

    from analyzer.notation import reader

    return _reading_with(Lark(reader.grammar_text(), parser="lalr", lexer="contextual", maybe_placeholders=True,
                              transformer=reader.RecordTransformer()))


@pytest.fixture(scope="module")
def shared_lexed():
    """``parse`` with a record lexer whose states never compile their own expressions: every token is read by
    the expression of every terminal where that reads alike (a state's first tokens in each process), the
    state's own only where it does not."""
    from lark import Lark

    from analyzer.notation import lexer, reader

    class SharedLexer(lexer.RecordLexer):
        def _scanner(self, state, parser_state):
            scanner = super()._scanner(state, parser_state)
            scanner.uses = -1               # (never counts down to its own expression)
            return scanner

    return _reading_with(Lark(reader.grammar_text(), parser="lalr", lexer=SharedLexer, maybe_placeholders=True,
                              transformer=reader.RecordTransformer()))


def _same_reading(text: str, read_with_lark) -> None:
    ours, theirs = parse(text), read_with_lark(text)
    assert ours.errors == theirs.errors          # codes, messages, lines, columns, carets
    assert ours == theirs
    for a, b in zip(ours.games, theirs.games):  # and every position (records compare without them)
        assert (a.pos, a.tag_pos, a.comment_pos, a.table_pos) == (b.pos, b.tag_pos, b.comment_pos, b.table_pos)
        assert [(m.pos, m.comment_pos) for m in a.moves] == [(m.pos, m.comment_pos) for m in b.moves]
        assert [(h.pos, h.tile_pos) for h in a.hands] == [(h.pos, h.tile_pos) for h in b.hands]


def test_the_record_lexer_reads_every_record_file_as_lark_does(lark_lexed):
    for path in sorted(RECORDS.iterdir()):
        _same_reading(path.read_text(encoding="utf-8"), lark_lexed)
    _same_reading("", lark_lexed)
    _same_reading("  \n\t ", lark_lexed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_record_lexer_reads_mutated_records_and_random_text_as_lark_does(lark_lexed, data):
    _same_reading(mutated_record(data), lark_lexed)
    _same_reading(data.draw(st.text(max_size=80)), lark_lexed)
    _same_reading("".join(data.draw(st.lists(PIECES, max_size=30))), lark_lexed)


def test_every_terminals_expression_reads_every_record_file_as_lark_does(lark_lexed, shared_lexed):
    for path in sorted(RECORDS.iterdir()):
        text = path.read_text(encoding="utf-8")
        assert shared_lexed(text) == lark_lexed(text)
    _same_reading("", shared_lexed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_terminals_expression_reads_mutated_records_and_random_text_as_lark_does(lark_lexed, shared_lexed,
                                                                                        data):
    for text in (mutated_record(data), data.draw(st.text(max_size=80)),
                 "".join(data.draw(st.lists(PIECES, max_size=30)))):
        ours, theirs = shared_lexed(text), lark_lexed(text)
        assert ours.errors == theirs.errors and ours == theirs
        assert [[m.pos for m in g.moves] for g in ours.games] == [[m.pos for m in g.moves] for g in theirs.games]


def test_an_entry_is_written_once_as_it_is_read():
    """``MoveEntry.notation``, the one writer of an entry's text: each form the notation has (a play
    with its end, arm, mark and claim; a draw, shown or not; a pass; a Muggins call) reads back as the
    same entry, and the shorter forms the views show leave out what they are asked to."""
    entries = [MoveEntry("B", Tile(2, 4), 4, "!", claim=10, arm=2), MoveEntry("C", Tile(3, 4), draw=True),
               MoveEntry("D", None, draw=True), MoveEntry("A", None), MoveEntry("C", None, muggins=5)]
    texts = [e.notation() for e in entries]
    assert texts == ["[2-4]@4>2! +10", "draws [3-4]", "draws ?", "pass", "muggins 5"]
    game = parse('[Variant "all-fives"]\n\n' + " ".join(f"{e.player} {t}" for e, t in zip(entries, texts)),
                 "entries.dom").games[0]
    assert [replace(m, pos=Span(0, 0), round=None) for m in game.moves] == entries
    played = entries[0]
    assert played.notation(where=False, marks=False) == "[2-4] +10"
    assert played.text == "[2-4]" and played.notation(pass_word="-") == "[2-4]@4>2! +10"
    assert entries[3].notation(pass_word="-") == "-"


def test_tiles_after_a_question_mark_are_shown_at_their_place():
    """A hand's tiles after its ``?`` on a line of their own make syntax errors found by the reader's rules
    (not the parser's); they show their source line and a caret like every syntax error (found by
    ``test_mutated_records_never_raise``: a tag cut open by ``A:?``)."""
    text = '[Game "1"]\n[Score "A/C 26, B/D A:? [1-4] [1-5]\nA: [2-3]\n'
    record = parse(text)
    after = [d for d in record.errors if "after '?'" in d.message]
    assert after
    _check(record)
    for d in after:
        line, caret = d.context.splitlines()[-2:]
        assert line == text.splitlines()[d.line - 1] and caret.index("^") == d.column - 1


def test_a_table_player_no_play_can_name_is_an_error_at_the_tag_and_the_round_trip_holds():
    # found by the issue-55 campaign (seed 56): a Players tag mangled to "A, B,[passC, D" over a table whose
    # columns it names; the column's plays were read for "[passC", which the writer cannot write back
    from analyzer.notation import write
    text = (SEEDS / "fuzz56" / "players-tag-unwritable-name.dom").read_text(
        encoding="utf-8")
    record = parse(text)
    said = [d for d in record.errors if d.code == "players" and "[passC" in str(d)]
    assert said and (said[0].line, said[0].column) == (4, 1)
    assert all(m.player != "[passC" for g in record.games for m in g.moves)
    assert parse(write(record)) == record
