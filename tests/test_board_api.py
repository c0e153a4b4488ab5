"""The board's JSON API (docs/board.md) with Starlette's test client: the command line's JSON over HTTP,
the board at a position from the judge, moves written in the record's own form, files only under the
roots with the conflict check, and bad requests answered with a clear JSON error, never a traceback."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():      # (Starlette 1.x would rather have httpx2 drive its test client)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from analyzer.generate import random_game  # noqa: E402
from analyzer.notation import write  # noqa: E402
from analyzer.record import Record  # noqa: E402
from analyzer.server import create_app  # noqa: E402
from analyzer.server.app import MAX_BODY  # noqa: E402
from analyzer.server.library import BoardRecord, AnalysisRequest, analyze_document  # noqa: E402
from analyzer.cli import main  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from conftest import BOARD_AUTH, BOARD_TOKEN, HANG_SECONDS, board_client, RECORDS, ROOT, SEED_DEAL, served_board, wait_until  # noqa: E402

AUTH = BOARD_AUTH


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("records")
    for name in ("seed1.dom", "seed1-table.txt", "errors.dom", "variant-all-fives.dom", "variant-french.dom"):
        shutil.copy(RECORDS / name, root / name)
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.dom").write_text("[Event \"not yours\"]\n", encoding="utf-8")
    return root, outside


@pytest.fixture(scope="module")
def board_roots(folder):
    """The roots of the module's board (``client``, conftest.py)."""
    return [str(folder[0])]


def _cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def _no_file(doc):
    """The document without its ``file`` fields (the API reads a text, not a file) and its fair verdicts' ``how``,
    ``text``, ``verdict_word`` and ``hindsight`` (the words the board shows, which the command prints in its text:
    see the test of them below); on a sheet without hands also the words of its deals and of its values over them,
    the verdict over the hands and each move's marks (``library._told_how``: the report's and the command line's
    words); and the numbers' words the board adds beside the analysis (``explained``, ``library.explained``)."""
    if isinstance(doc, dict):
        return {k: _no_file(v) for k, v in doc.items() if k != "file"
                and not (k in ("how", "text", "verdict_word", "hindsight") and "method" in doc)
                and not (k == "explained" and "games" in doc)
                and not (k == "words" and ("mean" in doc or "method" in doc or "count" in doc))
                and not (k == "marks" and "move" in doc)}
    if isinstance(doc, list):
        return [_no_file(v) for v in doc]
    return doc


@pytest.mark.parametrize("name", ["errors.dom", "seed1-table.txt", "variant-all-fives.dom"])
def test_validate_answers_what_validate_json_prints(client, name):
    path = str(RECORDS / name)
    api = client.post("/api/validate", json={"text": (RECORDS / name).read_text(encoding="utf-8"), "name": path,
                                             "variant": None, "rules": {}})
    assert api.status_code == 200
    assert _no_file(api.json()) == _no_file(_cli("validate", "--json", path))


def test_analyze_answers_what_analyze_json_prints(client):
    path = str(RECORDS / "seed1.dom")
    body = {"text": (RECORDS / "seed1.dom").read_text(encoding="utf-8"), "name": path, "variant": None, "rules": {},
            "lines": True, "max_nodes": 2_000_000}
    api = client.post("/api/analyze", json=body)
    assert api.status_code == 200, api.text
    assert _no_file(api.json()) == _no_file(_cli("analyze", "--json", "--lines", "--max-nodes", "2000000", path))
    first = api.json()["games"][0]["decisions"][0]
    assert first["player"] == "B" and first["played"] == "[1-1]"


def test_the_boards_exact_values_under_hidden_information_are_as_far_as_serve_was_started(client):
    """``domino serve --exact-hand N`` (and ``--exact-seconds``, ``--exact-memory``) bound the board's fair analysis as
    ``analyze --fair`` takes them: the board answers what the command prints with the same bound; a page may ask
    fewer tiles (``exact_hand``), never more than the board was started with."""
    from analyzer.server.library import ExactBound

    path = str(RECORDS / "openspiel-block7-5.dom")      # move 12: a decision of the block game for two, 1 tile a hand
    text = (RECORDS / "openspiel-block7-5.dom").read_text(encoding="utf-8")
    body = {"text": text, "name": path, "fair": True}

    def hidden(doc) -> list[int]:
        return [k for k, d in enumerate(doc["games"][0]["decisions"]) if "hidden" in d.get("fair", {})]
    by_default = client.post("/api/analyze", json=body).json()
    assert _no_file(by_default) == _no_file(_cli("analyze", "--json", "--fair", path)) and hidden(by_default)
    fewer = client.post("/api/analyze", json={**body, "exact_hand": 0}).json()
    assert _no_file(fewer) == _no_file(_cli("analyze", "--json", "--fair", "--exact-hand", "0", path))
    assert hidden(fewer) == []
    more = client.post("/api/analyze", json={**body, "exact_hand": 4})
    assert more.status_code == 400 and '"exact_hand" is a whole number from 0 to 3' in more.json()["error"]
    started = ExactBound(hand=0)
    with TestClient(create_app([str(RECORDS)], token=BOARD_TOKEN, exact=started), raise_server_exceptions=False,
                    headers=AUTH) as board:
        assert board.post("/api/analyze", json=body).json() == fewer
        assert board.post("/api/analyze", json={**body, "exact_hand": 1}).status_code == 400
    # its memory cap, as the command's --exact-memory: moves 9 and 10 of this record (3 tiles a hand, 775,200 and
    # 116,280 deals) take more than 1 MB, move 12 (2,040 deals) less
    seed372 = CliRunner().invoke(main, ["new", "--variant", "block", "--players", "2", "--seed", "372"]).output
    capped = analyze_document(BoardRecord(seed372, "seed372.dom"),
                              AnalysisRequest(fair=True, exact=ExactBound(memory_mb=1)))["games"][0]
    for move in (9, 10):
        assert (f"move {move} not valued exactly under hidden information: its public tree takes more than 1 MB of "
                "memory") in capped["fair_note"]
    assert [d["index"] + 1 for d in capped["decisions"] if "hidden" in d.get("fair", {})] == [12]     # (index: from 0)


def test_serve_starts_the_board_with_its_exact_bound(monkeypatch):
    import analyzer.server as server
    from analyzer.server.library import ExactBound

    told = []
    monkeypatch.setattr(server, "serve", lambda paths, at, started=None, exact=None: told.append(exact))
    runner = CliRunner()
    assert runner.invoke(main, ["serve", str(RECORDS)]).exit_code == 0
    res = runner.invoke(main, ["serve", "--exact-hand", "4", "--exact-seconds", "60", "--exact-memory", "6000",
                               str(RECORDS)])
    assert res.exit_code == 0, res.output
    assert told == [ExactBound(), ExactBound(4, 60.0, 6000)]
    assert runner.invoke(main, ["serve", "--exact-hand", "6", str(RECORDS)]).exit_code == 2


def test_analyze_with_variant_and_rules_as_the_command(client):
    """A record read under another variant's rules (block7: two players, seven tiles) as ``--variant``/``--rule``."""
    text = RECORDS.joinpath("variant-block7.dom").read_text(encoding="utf-8")
    api = client.post("/api/validate", json={"text": text, "name": "x.dom", "variant": "block", "rules": {"players": "2"}})
    path = str(RECORDS / "variant-block7.dom")
    cli = _cli("validate", "--json", "--variant", "block", "--rule", "players=2", path)
    strip = lambda doc: json.loads(json.dumps(_no_file(doc)).replace(path, "x.dom"))  # noqa: E731
    assert strip(api.json()) == strip(cli)


def test_position_gives_the_board_and_the_judges_moves(client):
    """Before A's first move of the book deal (step 3: B [1-1], C pass, D [1-5]) the ends are 1 and 5,
    and A may lay [1-3] or [1-4] on the 1, [0-5] or [5-6] on the 5."""
    text = RECORDS.joinpath("seed1.dom").read_text(encoding="utf-8")
    out = client.post("/api/position", json={"text": text, "game": 0, "step": 3}).json()
    assert out["turn"] == "A"
    assert sorted(m["move"] for m in out["legal"]) == ["[0-5]@5", "[1-3]@1", "[1-4]@1", "[5-6]@5"]
    assert out["board"]["ends"] == [5, 1] or sorted(out["board"]["ends"]) == [1, 5]
    assert out["board"]["counts"] == [7, 6, 7, 6]
    assert [1, 1] not in out["board"]["hands"][1]            # B's [1-1] is on the table
    game = random_game("partnership", seed=3)
    end = client.post("/api/position", json={"text": write(Record(games=[game])), "game": 0}).json()
    last = game.moves[-1].player
    assert end["over"]["seat"] == last and end["legal"] == [] and end["turn"] is None
    assert end["board"]["counts"][game.players.index(last)] == 0


def test_position_stops_before_an_error(client):
    text = RECORDS.joinpath("seed1-table.txt").read_text(encoding="utf-8")
    out = client.post("/api/position", json={"text": text, "game": 0}).json()
    assert out["stopped"] and out["shown"] == 23 < out["steps"]
    # before A's [5-6] that does not fit 0 and 4 (line 23 of seed1.dom: round 7), A holds nothing that fits
    assert out["turn"] == "A" and [m["move"] for m in out["legal"]] == ["pass"]


def test_enter_writes_the_move_in_the_records_form(client):
    pgn = "[Variant \"partnership\"]\n[Players \"A, B, C, D\"]\n\n" + SEED_DEAL + "\n\n1. B [1-1] C pass D [1-5]\n"
    out = client.post("/api/enter", json={"text": pgn, "game": 0, "move": "[1-4]@1"}).json()
    assert out["text"].endswith("1. B [1-1] C pass D [1-5]\n2. A [1-4]@1\n")
    again = client.post("/api/enter", json={"text": out["text"], "game": 0, "move": "pass"}).json()
    assert again["text"].endswith("2. A [1-4]@1 B pass\n")
    assert client.post("/api/validate", json={"text": again["text"]}).json()["games"][0]["valid"]
    # a table: a cell in the player's column, the record's own word for a pass
    table = RECORDS.joinpath("seed1-table.txt").read_text(encoding="utf-8").split("\n")
    cut = "\n".join(table[:table.index("3 [0-5] passt [2-5] [1-2]") + 1]) + "\n"
    out = client.post("/api/enter", json={"text": cut, "game": 0, "move": "[4-4]@4"}).json()
    assert out["text"].split("\n")[-2].split() == ["4", "[4-4]@4"]
    out = client.post("/api/enter", json={"text": out["text"], "game": 0, "move": "[0-1]@1"}).json()
    out = client.post("/api/enter", json={"text": out["text"], "game": 0, "move": "[0-2]@0"}).json()
    out = client.post("/api/enter", json={"text": out["text"], "game": 0, "move": "pass"}).json()
    assert out["text"].split("\n")[-2].split() == ["4", "[4-4]@4", "[0-1]@1", "[0-2]@0", "passt"]
    checked = client.post("/api/validate", json={"text": out["text"]}).json()["games"][0]
    # (the cut record still states the book's result: that is its one error)
    assert [d["code"] for d in checked["diagnostics"] if d["severity"] == "error"] == ["result-mismatch"]


def test_enter_into_an_empty_game_and_an_illegal_move_is_written_and_flagged(client):
    fresh = "[Variant \"partnership\"]\n[Players \"A, B, C, D\"]\n[Lead \"B\"]\n\n" + SEED_DEAL + "\n"
    out = client.post("/api/enter", json={"text": fresh, "game": 0, "move": "[1-1]"}).json()
    assert out["text"].endswith(SEED_DEAL + "\n\n1. B [1-1]\n")
    bad = client.post("/api/enter", json={"text": out["text"], "game": 0, "move": "[6-6]", "player": "C"}).json()
    diags = client.post("/api/validate", json={"text": bad["text"]}).json()["games"][0]["diagnostics"]
    assert any(d["severity"] == "error" and d["line"] == bad["text"].count("\n") for d in diags)


def test_repair_applies_the_likely_slip(client):
    """errors.dom's first game deals A six tiles: the likely slip is the [5-6] dropped from A's hand."""
    text = RECORDS.joinpath("errors.dom").read_text(encoding="utf-8")
    out = client.post("/api/repair", json={"text": text, "game": 0})
    assert out.status_code == 200, out.text
    fixed = out.json()["text"]
    assert "A: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]" in fixed
    assert len(fixed.split("\n")) == len(text.split("\n"))
    games = client.post("/api/validate", json={"text": fixed}).json()["games"]
    assert games[0]["valid"]


def test_a_repair_of_a_german_book_table_changes_only_its_rows_in_the_sheets_words(client):
    """The book's table as printed (seed1-table.txt) drops a row before round 7 (the likely slip): the repair
    puts the row back in the sheet's own words (``passt``, its columns), renumbers the rounds after it, and
    leaves every other line as it was (``Spieler A:``, the rows before it)."""
    text = RECORDS.joinpath("seed1-table.txt").read_text(encoding="utf-8")
    out = client.post("/api/repair", json={"text": text, "game": 0})
    assert out.status_code == 200, out.text
    fixed = out.json()["text"]
    old, new = text.split("\n"), fixed.split("\n")
    first = next(k for k, (a, b) in enumerate(zip(old, new)) if a != b)
    assert old[:first] == new[:first] and any(line.startswith("Spieler A:") for line in new[:first])
    assert "pass " not in fixed.replace("passt", "") and " pass\n" not in fixed
    assert new[first].split()[0] == "7" and "passt" in new[first].split()
    assert [line.split()[1:] for line in new[first + 1:first + 3]] == [line.split()[1:] for line in old[first:first + 2]]
    games = client.post("/api/validate", json={"text": fixed}).json()["games"]
    assert games[0]["valid"]


def test_files_open_and_save_with_the_conflict_check(client, folder):
    root, _ = folder
    listing = client.post("/api/files", json={}).json()
    names = {f["name"] for f in listing["files"]}
    assert os.path.join(root.name, "seed1.dom") in names
    path = str(root / "seed1.dom")
    opened = client.post("/api/open", json={"path": path}).json()
    assert opened["text"] == (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    saved = client.post("/api/save", json={"path": path, "text": opened["text"] + "\n", "token": opened["token"]})
    assert saved.status_code == 200 and (root / "seed1.dom").read_text(encoding="utf-8").endswith("\n\n")
    # the old token no longer fits: the file changed since it was opened (by our own save here)
    stale = client.post("/api/save", json={"path": path, "text": "lost?", "token": opened["token"]})
    assert stale.status_code == 409 and "changed on disk" in stale.json()["error"]
    assert stale.json()["token"] == saved.json()["token"]
    (root / "seed1.dom").write_text("[Event \"edited elsewhere\"]\n", encoding="utf-8")
    stale = client.post("/api/save", json={"path": path, "text": "x", "token": saved.json()["token"]})
    assert stale.status_code == 409 and (root / "seed1.dom").read_text(encoding="utf-8") == "[Event \"edited elsewhere\"]\n"
    new = client.post("/api/save", json={"path": str(root / "new.dom"), "text": "[Event \"new\"]\n", "token": None})
    assert new.status_code == 200 and (root / "new.dom").exists()
    again = client.post("/api/save", json={"path": str(root / "new.dom"), "text": "", "token": None})
    assert again.status_code == 409


@pytest.mark.parametrize("body", [
    {"path": "../outside/secret.dom"},
    {"path": "/etc/passwd"},
])
def test_a_path_outside_the_roots_is_refused(client, folder, body):
    _, outside = folder
    for route in ("/api/open", "/api/save"):
        out = client.post(route, json={**body, "text": "x", "token": None})
        assert out.status_code == 403 and "outside" in out.json()["error"]
    assert (outside / "secret.dom").read_text(encoding="utf-8") == "[Event \"not yours\"]\n"
    absolute = client.post("/api/open", json={"path": str(outside / "secret.dom")})
    assert absolute.status_code == 403


def test_a_link_out_of_the_root_is_refused(client, folder):
    root, outside = folder
    link = root / "link.dom"
    if not link.exists():
        link.symlink_to(outside / "secret.dom")
    assert client.post("/api/open", json={"path": str(link)}).status_code == 403


@pytest.mark.parametrize("route", ["/api/validate", "/api/analyze", "/api/position", "/api/enter", "/api/repair",
                                   "/api/open", "/api/save"])
def test_bad_bodies_get_a_json_error(client, route):
    for content in (b"not json", b"[1, 2]", b"\xff\xfe", b'{"text": 5}', b""):
        out = client.post(route, content=content, headers={"content-type": "application/json"})
        assert 400 <= out.status_code < 500, (route, content, out.status_code)
        assert set(out.json()) >= {"error"} and "Traceback" not in out.text


def test_a_huge_body_is_refused(client):
    out = client.post("/api/validate", content=b'{"text": "' + b"x" * (MAX_BODY + 10) + b'"}',
                      headers={"content-type": "application/json"})
    assert out.status_code == 413 and "larger" in out.json()["error"]
    # a body that does not declare its length is stopped at the cap too
    out = client.post("/api/validate", content=iter([b'{"text": "'] + [b"x" * 65536] * (MAX_BODY // 65536 + 2)),
                      headers={"content-type": "application/json"})
    assert out.status_code == 413 and "larger" in out.json()["error"]


def test_an_unknown_variant_or_rule_is_named(client):
    out = client.post("/api/validate", json={"text": "", "variant": "tiddlywinks"})
    assert out.status_code == 422 and "tiddlywinks" in out.json()["error"]
    out = client.post("/api/analyze", json={"text": "", "rules": {"no-such-option": "1"}})
    assert out.status_code == 422 and "no-such-option" in out.json()["error"]
    out = client.post("/api/position", json={"text": RECORDS.joinpath("seed1.dom").read_text(), "game": 7})
    assert out.status_code == 422 and "game 8" in out.json()["error"]


def test_the_page_has_a_strict_policy_and_unknown_routes_are_json(client):
    page = client.get("/")
    assert page.status_code == 200 and "default-src 'none'" in page.headers["content-security-policy"]
    assert client.get("/api/nothing").json()["error"] == "no such page"
    assert client.get("/api/validate").status_code == 405


def test_an_analysis_can_be_cancelled(folder):
    """A long analysis (a French hand, no node limit to speak of) is ended by its cancel; the next one runs."""
    import threading

    text = RECORDS.joinpath("variant-french.dom").read_text(encoding="utf-8")
    with board_client([str(folder[0])]) as c:
        answer = {}

        def run():
            answer["out"] = c.post("/api/analyze", json={"text": text, "job": "long", "fair": True, "decision_deals": 5000,
                                                         "exact_below": 1})
        thread = threading.Thread(target=run)
        thread.start()
        wait_until(lambda: c.post("/api/cancel", json={"job": "long"}).json()["cancelled"]
                   or not thread.is_alive(), "the analysis to run (and be cancelled)", every=0.2)
        thread.join(HANG_SECONDS)
        assert not thread.is_alive()
        assert answer["out"].status_code == 409 and answer["out"].json().get("cancelled")
        quick = c.post("/api/analyze", json={"text": RECORDS.joinpath("seed1.dom").read_text(), "max_nodes": 10**6})
        assert quick.status_code == 200 and quick.json()["games"][0]["values"][0] == 18


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its children, theirs, ...), by /proc: a worker's pool may be its children or a
    fork server's."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(parent, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for kid in kids.get(todo.pop(), []):
            if kid not in found:
                found.add(kid)
                todo.append(kid)
    return found


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_sheets_analysis_runs_on_the_boards_cores_and_its_cancel_ends_them_all(folder, monkeypatch):
    """Issue 80: the board solves a sheet's deals in as many processes as the command line's ``--jobs`` gives (its
    worker, which the server started, starts a pool of its own: a daemon could not), and a cancel ends the pool's
    processes with the worker, none left at work; the next analysis of a sheet runs to its answer the same way."""
    import threading

    monkeypatch.setenv("PYTHON_CPU_COUNT", "2")        # (the board's cores, as --jobs counts them: two)
    text = RECORDS.joinpath("sheet-kozel.dom").read_text(encoding="utf-8")      # (no budget: minutes of work)
    with board_client([str(folder[0])]) as c:
        workers = c.app.state.workers
        answer = {}

        def run():
            answer["out"] = c.post("/api/analyze", json={"text": text, "job": "sheet", "values_seconds": None,
                                                         "fair_seconds": None})
        thread = threading.Thread(target=run)
        thread.start()
        seen: set[int] = set()

        def pooled():
            worker = workers._running.get("sheet")
            if worker is not None and (workers.progress("sheet") or {}).get("phase") == "deals":
                seen.update(_descendants(worker.process.pid))
            return len(seen) >= 2 or not thread.is_alive()
        wait_until(pooled, "the sheet's deals solved in a pool", every=0.2)
        assert len(seen) >= 2, answer          # (the pool's processes, and a fork server's where it has one)
        assert c.post("/api/cancel", json={"job": "sheet"}).json()["cancelled"]
        thread.join(HANG_SECONDS)
        assert answer["out"].status_code == 409 and answer["out"].json().get("cancelled")
        wait_until(lambda: not any(_not_ended(pid) for pid in seen),
                   "the pool's processes to end with the worker", seconds=30)
        small = RECORDS.joinpath("sheet-partnership.dom").read_text(encoding="utf-8")    # (its moves allow 2 deals)
        out = c.post("/api/analyze", json={"text": small})
        assert out.status_code == 200, out.text
        assert out.json()["games"][0]["deals"]["analysed"] == 2


def _not_ended(pid: int) -> bool:
    """Whether ``pid`` is a process not yet ended (a zombie has ended: its parent has not yet collected it)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_another_sites_page_cannot_use_the_board(client, folder):
    """A page of another site can send a form or text/plain without asking; the board refuses both, and
    a request that names another origin."""
    root, _ = folder
    body = json.dumps({"path": str(root / "planted.dom"), "text": "x", "token": None})
    out = client.post("/api/save", content=body, headers={"content-type": "text/plain"})
    assert out.status_code == 415 and not (root / "planted.dom").exists()
    out = client.post("/api/save", content=body, headers={"content-type": "application/json",
                                                           "origin": "http://evil.example"})
    assert out.status_code == 403 and not (root / "planted.dom").exists()


def test_only_its_own_host_names(folder):
    app = create_app([str(folder[0])], token=BOARD_TOKEN, hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://rebound.example", raise_server_exceptions=False, headers=AUTH) as c:
        assert c.post("/api/files", json={}).status_code == 400
    with TestClient(app, base_url="http://127.0.0.1:8765", raise_server_exceptions=False, headers=AUTH) as c:
        assert c.post("/api/files", json={}).status_code == 200


@pytest.mark.slow
def test_a_record_with_a_hidden_hand_gets_the_fair_analysis_of_the_command(client):
    """draw-one-view.dom shows one player's hand only: like ``domino analyze --json``, the API answers with
    the fair analysis (each move of that player judged over the deals he could not tell apart)."""
    path = str(RECORDS / "draw-one-view.dom")
    api = client.post("/api/analyze", json={"text": (RECORDS / "draw-one-view.dom").read_text(encoding="utf-8"),
                                            "name": path})
    assert api.status_code == 200, api.text
    cli = _cli("analyze", "--json", path)
    assert _no_file(api.json()) == _no_file(cli)
    assert api.json()["games"][0]["fair_seats"]


def test_position_along_an_alternatives_line(client):
    """The board after some moves of an alternative's line (``analyze --lines``), each judged legal; a move
    the rules do not allow there is named."""
    text = RECORDS.joinpath("seed1.dom").read_text(encoding="utf-8")
    analysis = client.post("/api/analyze", json={"text": text, "lines": True, "max_nodes": 10**6}).json()
    alt = next(a for a in analysis["games"][0]["decisions"][0]["alternatives"] if a["best"])
    line = alt["line"]
    for along in (0, 1, len(line)):
        out = client.post("/api/position", json={"text": text, "game": 0, "step": 0, "line": line, "along": along})
        assert out.status_code == 200, out.text
        board = out.json()
        assert sum(board["board"]["counts"]) == 28 - sum(1 for m in line[:along] if "pass" not in m)
    assert board["over"] is not None and board["legal"] == [] and board["variation"]["along"] == len(line)
    bad = client.post("/api/position", json={"text": text, "game": 0, "step": 0, "line": ["C [0-2]"], "along": 1})
    assert bad.status_code == 422 and "B is to move" in bad.json()["error"]


@pytest.mark.parametrize("text", ["", "[Event \"x\"]\n", "[Players \"A, B\"]\n\nA: [0-0]\n", "A: ?\nB: ?\n\n1. A [0-0]\n"])
def test_the_board_of_a_text_still_being_typed(client, text):
    """Whatever a half-typed record holds, the board answers (a position, or why there is none), never a 500."""
    for body in ({"text": text, "cursor": {"line": 1, "column": 1}}, {"text": text, "game": 0}):
        out = client.post("/api/position", json=body)
        assert out.status_code in (200, 422), out.text
        if out.status_code == 200:
            assert out.json()["legal"] == [] or out.json()["turn"] in out.json()["players"]
    assert client.post("/api/validate", json={"text": text}).status_code == 200


_TEXTS = [RECORDS.joinpath(n).read_text(encoding="utf-8") for n in
          ("seed1.dom", "seed1-table.txt", "variant-french.dom", "variant-draw.dom", "variant-all-fives.dom")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(which=st.integers(0, len(_TEXTS) - 1), at=st.floats(0, 1), cut=st.integers(0, 40),
       put=st.sampled_from(["", "?", "[0-0]", "pass", "\n", "A: ", "draws ", "[9-9]", "1. ", "{", "\""]),
       line=st.integers(1, 60), column=st.integers(1, 40))
@example(which=0, at=0.5440375087843526, cut=1, put="pass", line=1, column=1)  # a move by "Cpass": KeyError once
def test_a_mangled_record_gets_a_board_or_a_reason(which, at, cut, put, line, column):
    """A record cut and patched anywhere (as while typing): the board's library answers with a position or
    a :class:`BoardError` naming why not, never anything else."""
    from analyzer.server.library import BoardRecord, BoardError, enter_move, position_data

    text = _TEXTS[which]
    a = int(at * len(text))
    text = text[:a] + put + text[a + cut:]
    for call in (lambda: position_data(BoardRecord(text, "x"), cursor=(line, column)), lambda: position_data(BoardRecord(text, "x")),
                 lambda: enter_move(BoardRecord(text, "x"), 0, "pass")):
        try:
            call()
        except BoardError:
            pass


# ---- issue 34, item 5: many requests at once, and a client that goes away mid-analysis ----------------

@pytest.fixture(scope="module")
def live(folder):
    """The board served by uvicorn on 127.0.0.1 (a real socket: a client can go away)."""
    with served_board([str(folder[0])]) as port:
        yield port


def _post(port: int, path: str, body: dict, timeout: float = HANG_SECONDS) -> tuple[int, dict]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **AUTH})
        res = conn.getresponse()
        return res.status, json.loads(res.read())
    finally:
        conn.close()


def test_many_requests_at_once_each_get_their_own_answer(live):
    """Twelve clients at once (validations of different records, positions, analyses): each gets the answer
    to its own text or a JSON 'busy' (at most two analyses run at a time), never another's, never a 500."""
    from concurrent.futures import ThreadPoolExecutor

    names = ("seed1.dom", "errors.dom", "variant-all-fives.dom", "seed1-table.txt")
    texts = {n: RECORDS.joinpath(n).read_text(encoding="utf-8") for n in names}
    jobs = [("/api/validate", {"text": texts[n], "name": str(RECORDS / n)}) for n in names * 2]
    jobs += [("/api/position", {"text": texts["seed1.dom"], "game": 0, "step": k}) for k in (0, 5)]
    jobs += [("/api/analyze", {"text": texts["seed1.dom"], "max_nodes": 10 ** 6}) for _ in range(2)]
    with ThreadPoolExecutor(len(jobs)) as pool:
        answers = list(pool.map(lambda job: _post(live, *job), jobs))
    for (path, body), (status, doc) in zip(jobs, answers):
        if path == "/api/validate":
            assert status == 200 and _no_file(doc) == _no_file(_cli("validate", "--json", body["name"]))
        elif path == "/api/position":
            assert status == 200 and doc["step"] == body["step"]
        else:
            assert status == 200 and doc["games"][0]["values"][0] == 18 or status == 503 and "error" in doc


def test_a_client_that_goes_away_mid_analysis_frees_its_worker(live):
    """A long analysis (a French hand's fair analysis over thousands of deals) whose client closes the
    connection is ended: it no longer runs (a cancel finds nothing to cancel), and the next analyses run."""
    import socket

    text = RECORDS.joinpath("variant-french.dom").read_text(encoding="utf-8")
    body = json.dumps({"text": text, "job": "gone", "fair": True, "decision_deals": 5000, "exact_below": 1}).encode()
    with socket.create_connection(("127.0.0.1", live)) as s:
        s.sendall(b"POST /api/analyze?token=" + BOARD_TOKEN.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        wait_until(lambda: _post(live, "/api/cancel", {"job": "nothing"})[0] == 200 and _running(live, "gone"),
                   "the analysis to run", every=0.1)
        assert _busy(live, "gone")              # another of that name is refused while it runs
    # the connection is closed: the server ends the analysis
    wait_until(lambda: not _running(live, "gone"), "the server to end the analysis of a client gone", every=0.1)
    for _ in range(3):                  # no worker is left stuck: analyses run one after the other
        status, doc = _post(live, "/api/analyze", {"text": RECORDS.joinpath("seed1.dom").read_text(),
                                                    "max_nodes": 10 ** 6})
        assert status == 200 and doc["games"][0]["values"][0] == 18


def _running(port: int, job: str) -> bool:
    """Whether the analysis ``job`` runs, as its progress says (asking so starts nothing: an analysis of that name
    started to find out could take the name before the one awaited, which would then be refused as busy)."""
    status, doc = _post(port, "/api/progress", {"job": job})
    return status == 200 and doc["running"]


def _busy(port: int, job: str) -> bool:
    """Whether starting another analysis named ``job`` is refused as busy (a JSON 503)."""
    status, doc = _post(port, "/api/analyze", {"text": "", "job": job})
    return status == 503 and "running already" in doc["error"]


def test_each_fair_verdict_says_how_it_was_reached_in_the_commands_words():
    # the draw game's last decision is valued exactly under hidden information (by the CFR+ solver over its 6 deals,
    # the 2 tiles still to draw chance's), the others sampled: the board shows the words domino analyze --fair prints
    # for each (report.verdicts.how_words), not a code
    text = (RECORDS / "variant-draw.dom").read_text(encoding="utf-8")
    doc = analyze_document(BoardRecord(text, "variant-draw.dom"), AnalysisRequest(fair=True))
    hows = {d["fair"]["method"]: d["fair"]["how"] for d in doc["games"][0]["decisions"] if d.get("fair")}
    assert hows["exact-hidden"] == "exact under hidden information to 0.001 (CFR+), 6 public deals"
    assert hows["sampled"].endswith("deals, sampled") and " of " in hows["sampled"]
    printed = CliRunner().invoke(main, ["analyze", "--fair", "--jobs", "1", str(RECORDS / "variant-draw.dom")]).output
    assert all(how in printed for how in hows.values()), printed


# ---- issue 72: a set-up typed tags first, a deeply nested body, a bug on one request: 4xx named, never 500 --------

def test_a_set_up_typed_tags_first_gets_a_board_or_a_reason_on_every_keystroke(client):
    text = (ROOT / "tests" / "data" / "issue72" / "setup-tags-first.dom").read_text(encoding="utf-8")
    for k in range(len(text) + 1):
        for route, body in (("/api/position", {"text": text[:k], "game": 0}), ("/api/result", {"text": text[:k]}),
                            ("/api/position", {"text": text[:k], "cursor": {"line": 2, "column": 1}})):
            out = client.post(route, json=body)
            assert out.status_code in (200, 422) and "error" in out.json() or out.status_code == 200, \
                (route, k, out.status_code, out.text)


@pytest.mark.parametrize("route", ["/api/validate", "/api/position", "/api/result", "/api/save"])
def test_a_deeply_nested_body_is_a_bad_request_named(client, route):
    body = b'{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    out = client.post(route, content=body, headers={"content-type": "application/json"})
    assert out.status_code == 400 and "nests" in out.json()["error"], out.text


def test_a_bug_on_one_request_is_its_answer_named_not_a_500(client, monkeypatch):
    import analyzer.server.api as app  # (the routes read their requests and call the library there)

    def failing(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(app, "result_entry", failing)
    out = client.post("/api/result", json={"text": RECORDS.joinpath("seed1.dom").read_text()})
    assert out.status_code == 422 and "RuntimeError: a bug" in out.json()["error"], out.text
    assert client.post("/api/position", json={"text": RECORDS.joinpath("seed1.dom").read_text()}).status_code == 200


# ---- issue 87 item 2: a text of tags only and a set-up's players not a list: clear errors in words ----------------

@pytest.mark.parametrize("route, body, words", [
    ("next", {"text": '[Event "x"]'}, "names no players yet"),
    ("next", {"text": '[R""'}, "names no players yet"),
    ("setup", {"players": 1}, '"players": give a list of names'),
    ("setup", {"players": "AB", "hands": [None, None]}, '"players": give a list of names'),
])
def test_a_text_of_tags_only_and_players_not_a_list_are_clear_errors_on_the_board_and_the_site(
        client, caplog, tmp_path, route, body, words):
    from analyzer.site.worker import SiteApi

    with caplog.at_level("ERROR", logger="analyzer.server"):
        answer = client.post(f"/api/{route}", json=body)
    assert 400 <= answer.status_code < 500 and words in answer.json()["error"]
    assert "please report" not in answer.json()["error"] and not caplog.records      # (no traceback logged)
    site = json.loads(SiteApi(str(tmp_path)).call(route, json.dumps(body)))
    assert 400 <= site["status"] < 500 and words in site["data"]["error"]


def test_a_variation_on_an_empty_text_is_a_clear_error(client):
    # (issue 87's campaign: an IndexError, "please report it")
    answer = client.post("/api/variation", json={"text": "", "line": ["B [0-1]", "[6-6]"], "game": 0})
    assert answer.status_code == 422 and "names no players yet" in answer.json()["error"]
