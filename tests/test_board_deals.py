"""The board on a sheet (issue 80, item 6): the deals of a game listed once and kept until the game changes
(``analyzer.inference.memo``, opened by the API layer ``analyzer.server.api`` for every route and by the checks'
workers), and a lead that any of several players may make offered to each of them (who may lead: rules/lead.py).

The sheet is records/match-kozel.dom with every hand written ``?``: nine games of Kozel whose deals the match
replay lists to check each written result (``analyzer.match.check_decided_result``)."""
import re
import threading

from analyzer.inference.memo import DealMemo, remembering
from analyzer.inference.meter import metered
from analyzer.server import api
from analyzer.server.library import BoardRecord, position_data, validate_document
from conftest import RECORDS

WRITTEN = (RECORDS / "match-kozel.dom").read_text(encoding="utf-8")
HANDLESS = re.sub(r"^([A-D]): \[.*$", r"\1: ?", WRITTEN, flags=re.M)
GAMES = WRITTEN.count("[Game ")


def _games(text: str) -> list[str]:
    return ["[Event" + part for part in text.split("[Event")[1:]]


def test_the_sheet_hides_every_hand():
    assert GAMES == 9 and HANDLESS.count(": ?") == 4 * GAMES and "] [" not in HANDLESS.split("1. ")[0]


def test_a_second_request_on_the_same_sheet_lists_no_deal_again():
    memo = DealMemo()
    with remembering(memo):
        first = position_data(BoardRecord(HANDLESS), GAMES - 1)
    listed = memo.computed
    assert listed >= GAMES           # (each game's deals, and each listed with how its hand ends)
    with remembering(memo):
        again = position_data(BoardRecord(HANDLESS), GAMES - 1)
    assert memo.computed == listed and memo.reused >= listed
    assert again == first


def test_the_api_routes_keep_the_deals_in_one_memo():
    before = api.DEALS.computed
    api.ROUTES["position"]({"text": HANDLESS, "game": 2})
    listed = api.DEALS.computed
    assert listed >= before
    reused = api.DEALS.reused
    api.ROUTES["position"]({"text": HANDLESS, "game": 5})
    api.ROUTES["result"]({"text": HANDLESS, "game": 5})
    assert api.DEALS.computed == listed and api.DEALS.reused > reused


def test_an_edit_of_a_game_lists_that_games_deals_alone_again():
    memo = DealMemo()
    with remembering(memo):
        validate_document(HANDLESS, "sheet.dom")
    listed = memo.computed
    games = _games(HANDLESS)
    # game 9's last move taken back (its Result and Score with it): its text changes, no other game's does
    last = games[-1]
    cut = re.sub(r'\[(Result|Score) "[^"]*"\]\n', "", last).rstrip("\n").rsplit(" ", 2)[0] + "\n"
    assert cut != last
    edited = "".join(games[:-1]) + cut
    with remembering(memo):
        warm = validate_document(edited, "sheet.dom")
    assert 0 < memo.computed - listed <= 3          # (game 9's deals, their listing, the result they give)
    assert warm == validate_document(edited, "sheet.dom")        # (the same answer as with nothing kept)


def test_a_game_moved_down_the_text_keeps_its_deals_and_says_its_new_lines():
    """An edit of game 1 that adds lines: the later games' deals are kept, and every diagnostic names its new
    line, as the record read afresh does."""
    memo = DealMemo()
    with remembering(memo):
        validate_document(HANDLESS, "sheet.dom")
    listed = memo.computed
    games = _games(HANDLESS)
    longer = games[0].replace("\n\nA: ?", "\n\n{a comment of two\nlines}\nA: ?", 1)
    edited = longer + "".join(games[1:])
    with remembering(memo):
        warm = validate_document(edited, "sheet.dom")
    assert 0 < memo.computed - listed <= 3         # (game 1's alone, its comment part of it: deals, listing, result)
    cold = validate_document(edited, "sheet.dom")
    assert warm == cold
    lines = [d["line"] for g in warm["games"] for d in g["diagnostics"] if d.get("line")]
    assert lines and max(lines) > HANDLESS.count("\n") - 40      # (diagnostics of the later games among them)


def test_a_change_of_the_variants_rules_lists_the_deals_again():
    memo = DealMemo()
    with remembering(memo):
        validate_document(HANDLESS, "sheet.dom")
        listed = memo.computed
        validate_document(HANDLESS, "sheet.dom", rules={"eggs": "no"})
    assert memo.computed >= listed + GAMES


def test_a_metered_caller_lists_anew_and_keeps_nothing():
    memo = DealMemo()
    with remembering(memo), metered(float("inf")):
        validate_document(HANDLESS, "sheet.dom")
    assert memo.computed == 0 and len(memo) == 0


def test_the_memo_is_bounded_and_drops_the_least_recently_used():
    memo = DealMemo(3)
    for k in range(5):
        memo.get(k, lambda k=k: k * k)
    assert len(memo) == 3 and memo.get(4, lambda: None) == 16 and memo.get(0, lambda: "again") == "again"
    assert memo.computed == 6 and memo.reused == 1


def test_threads_sharing_one_memo_get_the_answer_of_a_lone_request():
    memo = DealMemo()
    alone = validate_document(HANDLESS, "sheet.dom")
    answers, failures = [], []

    def ask():
        try:
            with remembering(memo):
                answers.append(validate_document(HANDLESS, "sheet.dom"))
        except Exception as exc:  # (reported below)
            failures.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures and len(answers) == 4 and all(a == alone for a in answers)


# ---- a lead that any of several players may make -------------------------------------------------------------

def _hide(text: str) -> str:
    return re.sub(r"^(\S+): \[.*$", r"\1: ?", text, flags=re.M)


def _first_game_without_lead(text: str) -> str:
    first = _games(text)[0]
    return re.sub(r'\[Lead "[^"]*"\]\n', "", first).split("\n1. ")[0] + "\n"


def test_the_first_games_lead_is_offered_to_each_player_who_may_hold_its_tile():
    """Kozel: the holder of [1-1] leads it in the first game (rules/lead.py). With the hands not written, any of
    the four may hold it: each is offered the lead; with them written, the holder alone."""
    sheet = position_data(BoardRecord(_first_game_without_lead(HANDLESS)), 0, 0)
    assert sheet["leaders"] == ["A", "B", "C", "D"]
    assert [(m["player"], m["move"]) for m in sheet["legal"]] == [(p, "[1-1]") for p in "ABCD"]
    dealt = position_data(BoardRecord(_first_game_without_lead(WRITTEN)), 0, 0)
    holder = next(line[0] for line in WRITTEN.split("\n\n")[1].splitlines() if "[1-1]" in line)
    assert dealt["leaders"] is None and [(m["player"], m["move"]) for m in dealt["legal"]] == [(holder, "[1-1]")]


def test_the_lead_after_a_drawn_game_at_nought_is_offered_to_each_player_and_taken_from_any():
    """Kozel after a fish while both records are 0: the [1-1] holder leads again (the Kozel video parser's example,
    game 2: its round 1 ended in eggs at 0:0). The next game's header names no leader; each of the four is offered
    [1-1], and whoever the transcriber clicks leads it, the record valid."""
    from conftest import ROOT

    example = _hide((ROOT / "tests" / "data" / "import" / "kozel-game.example.dom").read_text(encoding="utf-8"))
    first = "".join(_games(example)[:1])
    with remembering(DealMemo()):           # (game 1 allows 25,200 deals: listed once for the test's requests)
        _offered_to_each(first)


def _offered_to_each(first: str) -> None:
    from analyzer.notation import parse
    from analyzer.match import replay_record
    from analyzer.server.library import enter_move, next_game

    header = next_game(first, "sheet.dom")
    assert header["lead"] is None and "[1-1] holder" in header["reason"]
    board = position_data(BoardRecord(header["text"]), 1, 0)
    players = ["Анна", "Борис", "Иван", "Дарья"]
    assert board["leaders"] == players
    assert [(m["player"], m["move"]) for m in board["legal"]] == [(p, "[1-1]") for p in players]
    for player in players:
        text = enter_move(BoardRecord(header["text"]), 1, "[1-1]", player)["text"]
        second = replay_record(parse(text, "sheet.dom"))[1]
        assert second.steps[0].entry.player == player and second.legal_prefix == 1
        assert not [d for d in second.errors if d.code.startswith("lead")]
    # once the lead is written, one player is to move
    led = position_data(BoardRecord(enter_move(BoardRecord(header["text"]), 1, "[1-1]", "Иван")["text"]), 1)
    assert led["leaders"] is None and led["turn"] == "Дарья"
