"""The board's requests for editing and following an analysis (docs/board.md), with Starlette's test client:
a fair analysis's progress, a move put before the end of a game, a variation written into the record as a
comment, a new record from the form's choices, and bad bodies answered with a clear JSON error."""
from __future__ import annotations

import dataclasses
import json
import socket
import threading

import pytest
from hypothesis import example, HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from analyzer.generate import random_game  # noqa: E402
from analyzer.match import replay_record  # noqa: E402
from analyzer.notation import parse, write  # noqa: E402
from analyzer.notation.writer import table_writable, write_table  # noqa: E402
from analyzer.record import Record  # noqa: E402
from analyzer.rules.catalog import catalog  # noqa: E402
from analyzer.server.app import MAX_BODY  # noqa: E402
from analyzer.server.library import BoardRecord, AnalysisRequest, analyze_document, enter_move, write_variation  # noqa: E402

from conftest import BOARD_TOKEN, HANG_SECONDS, RECORDS, SEED_DEAL, SEED_HANDS, board_client, served_board, wait_until  # noqa: E402

HEAD = '[Event "x"]\n[Variant "partnership"]\n[Players "A, B, C, D"]\n[Lead "B"]\n\n' + SEED_DEAL + "\n\n"
FULL = HEAD + "1. B [1-1] C pass D [1-5]@1\n2. A [1-4]@1\n"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with board_client([str(tmp_path_factory.mktemp("roots"))]) as c:
        yield c


def _post(client, route, body):
    out = client.post(route, json=body)
    return out.status_code, out.json()


def _validate(client, text):
    return _post(client, "/api/validate", {"text": text})[1]


# ---- progress --------------------------------------------------------------------------------------------

def test_a_fair_analysis_reports_its_moves_then_its_deals():
    """The progress counts the moves valued with all hands open, then the deals (phase ``deals``): a decision whose
    best is not told apart draws more deals (the adaptive sampling), and the total is the most deals there may still be
    (each decision not told apart counted at its budget), so it never grows while the count goes on (a bar
    never grows longer while it fills) and ends equal to the deals solved, every deal of every judged
    decision the analysis reports (``fair.deals``; a part of a round's deals that was not full is solved
    again, whole: the count is of the deals searched). (The book deal, every hand written, judged fairly: a
    record that hides a hand is a sheet, whose count is of its deals and its hands, test_sheet_progress.)"""
    text = RECORDS.joinpath("seed2.dom").read_text(encoding="utf-8")
    seen: list[dict] = []
    doc = analyze_document(BoardRecord(text, "x"), AnalysisRequest(fair=True, decision_deals=60, exact_below=10),
                           progress=seen.append)
    decisions = [d for d in doc["games"][0]["decisions"] if d.get("fair")]
    solved = sum(d["fair"]["deals"] for d in decisions)
    moves = [s for s in seen if s["phase"] == "moves"]
    counted = [s for s in seen if s["phase"] == "deals" and s["total"] is not None]
    assert {s["phase"] for s in seen} == {"moves", "deals"}
    assert seen.index(moves[-1]) < seen.index(counted[0])
    # (every hand written: every move is valued with all hands open)
    assert moves[-1]["total"] == moves[-1]["done"] == len(parse(text).games[0].moves)
    assert [s["done"] for s in moves] == sorted(s["done"] for s in moves)
    assert any(d["fair"]["deals"] > 60 for d in decisions)   # (some best not told apart at 60: more drawn)
    done, totals = [s["done"] for s in counted], [s["total"] for s in counted]
    assert done == sorted(done) and totals == sorted(totals, reverse=True)
    assert all(0 <= s["done"] <= s["total"] for s in counted)
    assert counted[-1]["done"] == counted[-1]["total"] >= solved > 0


@pytest.mark.slow
def test_more_deals_pass_the_adaptive_budget_as_the_command_does():
    """``max_decision_deals`` is ``domino analyze --max-decision-deals``: the API's analysis with it is the command's, and no
    decision is given more deals than the budget, nor fewer than the deals drawn first."""
    from conftest import ROOT
    import subprocess
    import sys

    path = RECORDS / "seed2.dom"         # (every hand written: judged fairly as a record, not a sheet)
    text = path.read_text(encoding="utf-8")
    for budget in (60, 120):
        api = analyze_document(BoardRecord(text, str(path)), AnalysisRequest(fair=True, decision_deals=60, exact_below=10,
                                                                                 max_decision_deals=budget))
        out = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--json", "--fair", "--decision-deals", "60",
                              "--max-decision-deals", str(budget), "--exact-below", "10", str(path)], capture_output=True,
                             text=True, cwd=ROOT)
        cli = json.loads(out.stdout)
        drawn = [d["fair"]["deals"] for d in api["games"][0]["decisions"] if d.get("fair")]
        assert drawn == [d["fair"]["deals"] for d in cli["games"][0]["decisions"] if d.get("fair")]
        assert drawn and all(60 <= n <= budget for n in drawn)
        for d in api["games"][0]["decisions"]:      # (the board's words for how each verdict was reached)
            if d.get("fair") is None:
                continue
            assert d["fair"].pop("how").startswith(f"open-hands mean of {d['fair']['deals']} of ")
            for words in ("text", "verdict_word", "hindsight"):          # (the command line's words of it)
                d["fair"].pop(words, None)
        assert api["games"][0]["decisions"] == cli["games"][0]["decisions"]
    assert max(drawn) == 120           # (a best not told apart at 60 deals is given the budget)
    with pytest.raises(Exception, match="fewer than the 60 deals"):
        analyze_document(BoardRecord(text, "x"), AnalysisRequest(fair=True, decision_deals=60, max_decision_deals=30))


def test_sheet_progress():
    """A sheet's analysis counts the hands judged: the count only grows, the total only shrinks, and both end
    at the hands judged (here A's one and B's, whose deals the sheet's values were found over first)."""
    text = RECORDS.joinpath("sheet-draw.dom").read_text(encoding="utf-8")
    seen: list[dict] = []
    doc = analyze_document(BoardRecord(text, "x"), AnalysisRequest(decision_deals=20, exact_below=10), progress=seen.append)
    counted = [s for s in seen if s["phase"] == "deals" and s["total"] is not None]
    done, totals = [s["done"] for s in counted], [s["total"] for s in counted]
    assert counted and done == sorted(done) and totals == sorted(totals, reverse=True)
    assert doc["games"][0]["deals"]["analysed"] >= 1
    assert counted[-1]["done"] == counted[-1]["total"] >= 2


def test_an_exact_analysis_reports_the_moves_it_values():
    """seed1.dom breaks the rules at its 24th move (A's [5-6] fits neither end): of its 29 written moves,
    the 23 before the broken one are valued, and the count ends there."""
    text = RECORDS.joinpath("seed1.dom").read_text(encoding="utf-8")
    seen: list[dict] = []
    analyze_document(BoardRecord(text, "x"), progress=seen.append)
    assert {s["phase"] for s in seen} == {"moves"} and {s["total"] for s in seen} == {len(parse(text).games[0].moves)}
    assert [s["done"] for s in seen] == list(range(0, 24))


def test_progress_of_a_running_analysis_and_of_none(tmp_path):
    """``/api/progress`` follows a long fair analysis (the French record's three hands over thousands of
    deals) while it runs; after its cancel it is not running."""
    text = RECORDS.joinpath("variant-french.dom").read_text(encoding="utf-8")
    games = len(parse(text).games)
    with board_client([str(tmp_path)]) as c:
        assert _post(c, "/api/progress", {"job": "none"}) == (200, {"job": "none", "running": False, "phase": None,
                                                                   "game": None, "games": None,
                                                                   "done": None, "total": None, "words": None})
        answer = {}
        thread = threading.Thread(target=lambda: answer.setdefault("out", c.post(
            "/api/analyze", json={"text": text, "job": "long", "fair": True, "decision_deals": 5000,
                                    "exact_below": 1})))
        thread.start()
        seen = []

        def progressed() -> bool:
            status, doc = _post(c, "/api/progress", {"job": "long"})
            assert status == 200
            if doc["running"] and doc["total"]:
                seen.append(doc)
            return len(seen) >= 3 and seen[-1]["done"] > seen[0]["done"]
        wait_until(progressed, "three reports of a running analysis, the last further on", every=0.1)
        assert all(d["games"] == games and 0 <= d["done"] <= d["total"] for d in seen), seen
        assert _post(c, "/api/cancel", {"job": "long"})[1] == {"cancelled": True}
        thread.join(HANG_SECONDS)
        assert answer["out"].status_code == 409
        assert _post(c, "/api/progress", {"job": "long"})[1]["running"] is False


# ---- a move before the end ------------------------------------------------------------------------------

def test_a_move_put_before_the_end_is_checked_with_the_moves_after_it(client):
    """The record leaves C's pass out (his hand holds no 1): the judge offers it at step 1, and put there it
    makes the record valid; the moves after it go on from it."""
    text = HEAD + "1. B [1-1] D [1-5]@1\n2. A [1-4]@1\n"
    before = _validate(client, text)
    assert before["summary"]["invalid"] == 1
    status, board = _post(client, "/api/position", {"text": text, "game": 0, "step": 1})
    assert status == 200 and board["turn"] == "C" and [m["move"] for m in board["legal"]] == ["pass"]
    status, out = _post(client, "/api/enter", {"text": text, "game": 0, "step": 1, "move": "pass"})
    assert status == 200 and out["step"] == 1 and out["after"] == 2
    assert out["text"] == FULL
    assert out["text"][:out["offset"]].endswith("C pass")
    assert _validate(client, out["text"])["summary"]["valid"] == 1


def test_a_move_put_into_a_table_keeps_the_table(client):
    """In the book's table (seed1-table.txt) C's pass of the first round left out and put back by the board:
    the table is written again as it was, its header and its word for a pass kept."""
    book = RECORDS.joinpath("seed1-table.txt").read_text(encoding="utf-8")
    assert "1 ---- [1-1] passt [1-5]\n" in book
    cut = book.replace("1 ---- [1-1] passt [1-5]\n", "1 ---- [1-1] ----  [1-5]\n")
    assert _validate(client, cut)["summary"]["invalid"] == 1
    status, out = _post(client, "/api/enter", {"text": cut, "game": 0, "step": 1, "move": "pass", "player": "C"})
    assert status == 200, out
    assert "Runde Spieler A Spieler B Spieler C Spieler D" in out["text"]
    assert parse(out["text"]).games[0].moves == parse(book).games[0].moves
    # (the book's table breaks the rules later on: the same diagnostics as the book's own)
    codes = [[d["code"] for d in g["diagnostics"]] for g in _validate(client, out["text"])["games"]]
    assert codes == [[d["code"] for d in g["diagnostics"]] for g in _validate(client, book)["games"]]
    assert out["text"][:out["offset"]].endswith("passt")


def test_a_move_before_the_end_that_breaks_the_rules_is_written_and_flagged(client):
    status, out = _post(client, "/api/enter", {"text": FULL, "game": 0, "step": 1, "move": "[6-6]", "player": "C"})
    assert status == 200 and out["after"] == 3
    # (C's two moves in a row: the round begins again with his second)
    assert out["text"].endswith("\n1. B [1-1] C [6-6]\n2. C pass D [1-5]@1\n3. A [1-4]@1\n")
    assert _validate(client, out["text"])["summary"]["invalid"] == 1
    for body in ({"step": 9}, {"step": -1}, {"step": "2"}):
        status, doc = _post(client, "/api/enter", {"text": FULL, "move": "pass", **body})
        assert status in (400, 422) and "step" in doc["error"], body


# ---- variations ---------------------------------------------------------------------------------------

def test_a_variation_is_written_as_a_comment_after_its_branch(client):
    """The notation has no form for a variation: it is written as the comment of the move it branches from
    (before the first move for one from the deal), and the record's moves stay as they were."""
    status, out = _post(client, "/api/variation", {"text": FULL, "game": 0, "step": 3,
                                                   "line": ["A [1-3]@1", "B [2-3]@3"]})
    assert status == 200, out
    assert out["comment"] == "{variation: A [1-3]@1 B [2-3]@3}"
    assert "1. B [1-1] C pass D [1-5]@1 {variation: A [1-3]@1 B [2-3]@3}\n2. A [1-4]@1\n" in out["text"]
    game = parse(out["text"]).games[0]
    assert game.moves[2].comment == "variation: A [1-3]@1 B [2-3]@3"
    assert [m.tile for m in game.moves] == [m.tile for m in parse(FULL).games[0].moves]
    assert out["text"][:out["offset"]].endswith(out["comment"])
    status, out = _post(client, "/api/variation", {"text": FULL, "game": 0, "step": 0, "line": ["B [0-0]"]})
    assert status == 200 and parse(out["text"]).games[0].comments == ["variation: B [0-0]"]
    assert _validate(client, out["text"])["summary"]["valid"] == 1


def test_a_variation_in_a_table_stands_in_its_row(client):
    book = RECORDS.joinpath("seed1-table.txt").read_text(encoding="utf-8")
    status, out = _post(client, "/api/variation", {"text": book, "step": 2, "line": ["D [1-2]@1"]})
    assert status == 200 and "1 ---- [1-1] passt {variation: D [1-2]@1} [1-5]\n" in out["text"]
    assert parse(out["text"]).games[0].moves[1].comment == "variation: D [1-2]@1"


@pytest.mark.parametrize("body,status,words", [
    ({"step": 3, "line": ["A [6-6]"]}, 422, "not legal there"),
    ({"step": 3, "line": ["B [2-3]"]}, 422, "not legal there"),
    ({"step": 3, "line": []}, 400, "line"),
    ({"step": 3, "line": "A [1-3]"}, 400, "line"),
    ({"step": 3, "line": [5]}, 400, "line"),
    ({"step": 12, "line": ["A [1-3]@1"]}, 422, "step"),
    ({"step": 3, "game": 4, "line": ["A [1-3]@1"]}, 422, "game 5"),
])
def test_a_variation_the_rules_do_not_allow_is_refused(client, body, status, words):
    got, doc = _post(client, "/api/variation", {"text": FULL, **body})
    assert got == status and words in doc["error"]


# ---- a new record ----------------------------------------------------------------------------------------

def test_the_variants_for_the_form_are_those_of_the_command():
    with board_client([]) as c:
        status, doc = _post(c, "/api/variants", {})
    assert status == 200
    families = [item for item in doc["variants"] if "preset_of" not in item]
    assert [{k: v for k, v in item.items() if k not in ("players", "hand_size", "max_pip")}
            for item in families] == json.loads(json.dumps(catalog()))
    # then every named preset of the catalogue, each set of options once (an alias of the same options left out)
    presets = {item["name"]: (item["preset_of"], item["options_set"]) for item in doc["variants"] if "preset_of" in item}
    for family in catalog():
        offered = [opts for name, (of, opts) in presets.items() if of == family["name"]]
        assert sorted(map(str, offered)) == sorted({str(o) for o in family["presets"].values()})
    assert presets["great-lakes"][0] == "partnership" and presets["kozel-50"][0] == "kozel"
    deal = {v["name"]: (v["players"], v["hand_size"], v["max_pip"]) for v in doc["variants"]}
    # the rule texts: partnership deals all 28 tiles to four, the draw game seven or eight to two
    assert deal["partnership"] == (4, 7, 6) and deal["draw"][0] == 2


@pytest.mark.parametrize("preset", ["great-lakes", "milo", "pub-fives-threes", "kozel-50", "double-nine-cross"])
def test_a_new_record_from_a_preset_names_the_preset_and_reads_with_its_options(client, preset):
    """A preset chosen in the form is written by its own name, so the record reads with the preset's options
    (writing the family's name would drop them), and the deal is the preset's."""
    from analyzer.rules import find_variant
    status, out = _post(client, "/api/new", {"variant": preset, "rules": {}})
    assert status == 200, out
    game = parse(out["text"]).games[0]
    assert game.tags["Variant"] == preset
    chosen = find_variant(preset)
    assert find_variant(game.tags["Variant"], game.tags.get("Rules")) == chosen
    assert len(game.players) == chosen.players
    assert out["validation"] == _validate(client, out["text"])


def test_a_new_record_from_the_form(client):
    """The seed deal entered hand by hand (B and D known, A partly, C not at all) is written as a record
    the reader reads back as that deal, and validated."""
    def tiles(player):
        return [[int(t[1]), int(t[3])] for t in SEED_HANDS[player].split()]
    body = {"variant": "partnership", "rules": {}, "players": ["A", "B", "C", "D"], "event": "Club night",
            "lead": "B", "hands": [{"tiles": tiles("A")[:2]}, {"tiles": tiles("B")}, None, {"tiles": tiles("D")}]}
    status, out = _post(client, "/api/new", body)
    assert status == 200, out
    game = parse(out["text"]).games[0]
    assert game.tags["Event"] == "Club night" and game.tags["Lead"] == "B" and game.players == ("A", "B", "C", "D")
    assert game.hand_of("A").unknown == 5 and len(game.hand_of("A").tiles) == 2
    assert game.hand_of("C").tiles is None
    assert " ".join(str(t) for t in game.hand_of("B").tiles) == SEED_HANDS["B"]
    assert "A: [0-5] [1-3] ? ? ? ? ?\n" in out["text"]
    assert out["validation"] == _validate(client, out["text"])
    assert out["validation"]["summary"]["valid"] == 1


def test_a_new_record_with_rules_names_them_in_its_tags(client):
    status, out = _post(client, "/api/new", {"variant": "draw", "rules": {"players": "3"},
                                             "players": ["Ann", "Bob", "Cy"], "hands": None})
    assert status == 200, out
    assert '[Rules "players=3"]' in out["text"] and "Cy: ?" in out["text"]


@pytest.mark.parametrize("body,status,words", [
    ({"players": ["A", "B", "C"]}, 422, "seats 4"),
    ({"players": ["A", "A", "C", "D"]}, 422, "'A' is given twice"),
    ({"players": ["A", "B", "C", " "]}, 422, "player 4 has no name"),
    ({"players": ["A", "B", "C", "x" * 41]}, 422, "player 4's name 'xxxx"),
    ({"hands": [{"tiles": [[0, 0]]}, {"tiles": [[0, 0]]}, None, None]}, 422, "dealt once"),
    ({"hands": [{"tiles": [[0, 7]]}, None, None, None]}, 422, "0 to 6"),
    ({"hands": [{"tiles": [[0, k] for k in range(7)] + [[1, 1]]}, None, None, None]}, 422, "holds 7"),
    ({"hands": [{"tiles": "[0-0]"}, None, None, None]}, 422, "[[low, high]"),
    ({"hands": [None]}, 422, "one hand a player"),
    ({"hands": "none"}, 400, "hands"),
    ({"variant": "tiddlywinks"}, 422, "tiddlywinks"),
    ({"rules": {"no-such": "1"}}, 422, "no-such"),
    ({"lead": "Z"}, 422, "lead"),
    ({"players": "A B C D"}, 400, "players"),
])
def test_a_new_record_from_bad_choices_is_refused_with_a_reason(client, body, status, words):
    got, doc = _post(client, "/api/new", {"variant": "partnership", **body})
    assert got == status and words in doc["error"], doc


@pytest.mark.parametrize("route", ["/api/progress", "/api/variation", "/api/variants", "/api/new"])
def test_bad_bodies_get_a_json_error(client, route):
    for content in (b"not json", b"[1, 2]", b"\xff\xfe", b'{"text": 5, "job": 5, "line": 5, "players": 5}'):
        out = client.post(route, content=content, headers={"content-type": "application/json"})
        if route == "/api/variants" and content.startswith(b"{"):
            assert out.status_code == 200
            continue
        assert 400 <= out.status_code < 500, (route, content, out.status_code)
        assert set(out.json()) >= {"error"} and "Traceback" not in out.text


# ---- an oversized body without a declared length ---------------------------------------------------------

def test_an_oversized_chunked_body_gets_a_json_413(tmp_path):
    """A body sent in chunks (no Content-Length) over the cap, to a real uvicorn: the answer is the JSON 413,
    not the framework's plain text."""
    with served_board([str(tmp_path)]) as port:
        for route in ("/api/validate", "/api/new", "/api/variation"):
            with socket.create_connection(("127.0.0.1", port), timeout=HANG_SECONDS) as s:
                s.sendall(f"POST {route}?token={BOARD_TOKEN} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n".encode())
                chunk = b"x" * 65536
                try:
                    for _ in range(MAX_BODY // len(chunk) + 4):
                        s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                    s.sendall(b"0\r\n\r\n")
                except OSError:
                    pass              # (the server may answer and close before the rest is sent)
                head, body = _answer(s)
            assert head.startswith(b"HTTP/1.1 413") and b"application/json" in head.lower(), head
            assert "larger" in json.loads(body)["error"]


def _answer(s) -> tuple[bytes, bytes]:
    """The head and body of the one answer on ``s`` (its Content-Length read)."""
    data = b""
    while b"\r\n\r\n" not in data:
        more = s.recv(65536)
        if not more:
            break
        data += more
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        more = s.recv(65536)
        if not more:
            break
        body += more
    return head, body


# ---- invariants over generated games ------------------------------------------------------------------

VARIANTS = ["partnership", "draw", "all-fives", "french", "block", "hungarian", "cross"]


def _key(m):
    return (m.player, m.tile, m.end, m.arm, m.draw, m.claim, m.muggins, m.round)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), where=st.floats(0, 1, exclude_max=True),
       table=st.booleans())
@example(variant="all-fives", seed=2, where=1 / 39, table=False)     # a Muggins call put back (#66)
@example(variant="all-fives", seed=2, where=1 / 39, table=True)
def test_a_move_left_out_and_put_back_by_the_board_gives_the_game_again(variant, seed, where, table):
    """Any move of a legal game (every variant family; the list and the table form) left out of its text and
    put back by ``/api/enter`` at its step gives the game's moves again, rounds and all. (Not the last move:
    that one is entered after the end, ``test_board_api``.)"""
    game = random_game(variant, seed=seed)
    if table and not table_writable(game):
        table = False
    k = int(where * (len(game.moves) - 1))
    cut = dataclasses.replace(game, moves=game.moves[:k] + game.moves[k + 1:])
    text = write_table(cut) if table else write(Record([cut]))
    move = game.moves[k]
    out = enter_move(BoardRecord(text, "<board>"), 0, move.notation(marks=False).replace("passt", "pass"), move.player, step=k)
    assert [_key(m) for m in parse(out["text"]).games[0].moves] == [_key(m) for m in game.moves]
    assert out["step"] == k and out["after"] == len(game.moves) - 1 - k


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), where=st.floats(0, 1), length=st.integers(1, 4),
       table=st.booleans())
@example(variant="draw", seed=0, where=0.0, length=2, table=False)    # the opener adds a tile to his lead (004)
def test_a_variation_written_in_leaves_the_moves_as_they_were(variant, seed, where, length, table):
    """The game's own next moves, played as a variation from any step and written in, stand in the record as
    one comment (where the variation branches) and change none of its moves."""
    game = random_game(variant, seed=seed)
    if table and not table_writable(game):
        table = False
    text = write_table(game) if table else write(Record([game]))
    rep = replay_record(parse(text), None)[0]
    k = int(where * len(rep.steps))
    line = [f"{s.entry.player} {s.move}" for s in rep.steps[k:k + length] if s.move is not None]
    assume(line and len(line) == len(rep.steps[k:k + length]))
    out = write_variation(BoardRecord(text, "<board>"), 0, k, line)
    after = parse(out["text"]).games[0]
    assert [_key(m) for m in after.moves] == [_key(m) for m in game.moves]
    words = "variation: " + " ".join(line)
    placed = after.moves[k - 1].comment if k else after.comments[-1]
    assert placed is not None and words in placed
    assert out["text"].count("{variation: ") == 1
