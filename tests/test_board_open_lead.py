"""The board on a sheet whose last game's result the deals leave open (issue 80, item 6): the next game's lead is
offered to each player one of the results they allow lets lead, with the leads it lets him make (rules/lead.py
judging each), and the match score before it is the range they allow, never one of them as fact.

Kozel (rules/lead.py, the variant's lead policy): after a fish the fisher, the last player to lay a tile that is no
double, leads any tile; after a drawn fish while both records are 0 the [1-1] holder leads it."""
import re

from analyzer.inference.memo import DealMemo, remembering
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.server.library import BoardRecord, enter_move, next_game, position_data
from conftest import RECORDS, ROOT

EXAMPLE = ROOT / "tests" / "data" / "import" / "kozel-game.example.dom"
PLAYERS = ["Анна", "Борис", "Иван", "Дарья"]


def _hide(text: str) -> str:
    return re.sub(r"^(\S+): \[.*$", r"\1: ?", text, flags=re.M)


def _games(text: str) -> list[str]:
    return ["[Event" + part for part in text.split("[Event")[1:]]


def _open(game: str) -> str:
    """``game`` with its Result and Score tags taken away: what its moves and the deals they allow say alone."""
    return re.sub(r'\[(Result|Score) "[^"]*"\]\n', "", game)


def test_after_a_fish_at_nought_whose_winner_the_deals_leave_open_each_possible_leader_is_offered_his_leads():
    """The example's first game is a fish at 0:0 (its record: drawn, eggs). Its hands not written and its result
    not stated, the deals allow it drawn or won by Анна/Иван: then Анна, the fisher, leads any tile, else the [1-1]
    holder leads it, whoever he is. The next game's header names no leader and says why; the board offers Анна
    every tile and each of the others [1-1] alone; each lead offered is valid, a lead none allows is an error."""
    sheet = _open(_games(_hide(EXAMPLE.read_text(encoding="utf-8")))[0])
    with remembering(DealMemo()):           # (the first game's deals listed once for the test's requests)
        _offered_each_lead(sheet)


def _offered_each_lead(sheet: str) -> None:
    first = replay_record(parse(sheet, "sheet.dom"), match=True)[0]
    assert first.result is None
    ends = {(o.result.winner, o.result.termination) for o in first.outcomes}
    assert (None, "blocked") in ends and (0, "blocked") in ends
    assert "to" in first.match.score              # (the match score after it: a range, not one of them)
    header = next_game(sheet, "sheet.dom")
    assert header["lead"] is None and header["result"] is None
    assert "leave its result open" in header["reason"] and "fisher" in header["reason"] \
        and "[1-1] holder" in header["reason"]
    board = position_data(BoardRecord(header["text"]), 1, 0)
    assert board["leaders"] == PLAYERS
    offered: dict[str, set[str]] = {}
    for m in board["legal"]:
        offered.setdefault(m["player"], set()).add(m["move"])
    assert len(offered["Анна"]) == 28 and "[0-0]" in offered["Анна"]
    assert all(offered[p] == {"[1-1]"} for p in PLAYERS[1:])
    for player, move in [("Анна", "[0-0]"), ("Дарья", "[1-1]")]:
        second = replay_record(parse(enter_move(BoardRecord(header["text"]), 1, move, player)["text"], "s.dom"),
                               match=True)[1]
        assert second.steps[0].entry.player == player
        assert not [d for d in second.errors if d.code.startswith("lead")], (player, move)
    wrong = header["text"] + "\n1. Борис [0-0]\n"
    second = replay_record(parse(wrong, "s.dom"), match=True)[1]
    assert [d for d in second.errors if d.code.startswith("lead")]


def test_a_fish_whose_result_the_deals_leave_open_names_the_fisher_who_leads_in_every_one():
    """records/match-kozel.dom's seventh game is a fish by D (its record: drawn, 26 eggs carried). Its hands, Result
    and Score not written, the deals allow it drawn or won either way, with a range of points: the match score
    before the eighth game is each side's range, and D, the fisher in every one of them, leads it: the header
    names him and the board offers his leads alone (not the first player named)."""
    games = _games(_hide((RECORDS / "match-kozel.dom").read_text(encoding="utf-8")))
    sheet = "".join(games[:6]) + _open(games[6])
    seventh = replay_record(parse(sheet, "sheet.dom"), match=True)[6]
    assert seventh.result is None and len({o.result for o in seventh.outcomes}) > 1
    header = next_game(sheet, "sheet.dom")
    assert header["lead"] == "D" and "fisher" in header["reason"]
    assert re.fullmatch(r"A/C \d+ (to|or) \d+, B/D \d+ (to|or) \d+", header["score"]), header["score"]
    unnamed = re.sub(r'\[Lead "D"\]\n', "", header["text"])         # (the header without the tag: the rules say)
    board = position_data(BoardRecord(unnamed), 7, 0)
    assert board["turn"] == "D" and board["leaders"] is None
    assert {m["player"] for m in board["legal"]} == {"D"} and len(board["legal"]) == 28
