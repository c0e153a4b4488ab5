"""Issue 51 on the board's API (Starlette's test client): the set-up form's parts written as a set-up record (the
very text of the bundled problems, docs/problems/, from their parts), a position the rules cannot reach written
all the same and flagged at its line; problem sets (``domino train --json``) and books of problems (folders of
set-up records with a Problem tag) read only under the roots, by the same rules as record files; a book
problem's answer equal to what ``domino analyze --json`` says of its position."""
from __future__ import annotations

import json
import re
import shutil
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from analyzer.notation import parse  # noqa: E402
from analyzer.notation.setup import read_setup  # noqa: E402
from analyzer.server import create_app  # noqa: E402

from conftest import BOARD_TOKEN, ROOT, analyze_to_move  # noqa: E402

PROBLEMS = ROOT / "docs" / "problems"
TRAIN = ROOT / "tests" / "data" / "train-seed-B.json"     # `domino train records/seed1.dom records/seed2.dom --player B --json`


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    outside = tmp_path_factory.mktemp("outside")
    shutil.copytree(PROBLEMS, root / "book")
    shutil.copy(TRAIN, root / "maria.json")
    shutil.copy(ROOT / "records" / "seed1.dom", root / "seed1.dom")       # a record, no problem in it
    (root / ".hidden.json").write_bytes(TRAIN.read_bytes())
    (root / ".git").mkdir()
    shutil.copytree(PROBLEMS, root / ".git" / "book")
    (root / "other.json").write_text('{"not": "a problem set"}', encoding="utf-8")
    (outside / "secret.json").write_bytes(TRAIN.read_bytes())
    shutil.copytree(PROBLEMS, outside / "book")
    (root / "link.json").symlink_to(outside / "secret.json")
    (root / "linkdir").symlink_to(outside / "book", target_is_directory=True)
    return root, outside


@pytest.fixture(scope="module")
def board_roots(tree):
    return [str(tree[0])]


def _parts(text: str) -> dict:
    """The set-up form's parts of the set-up record ``text``, as the page sends them."""
    game = parse(text).games[0]
    setup, problems = read_setup(game)
    assert problems == []
    names = list(game.players)
    voids = dict(setup.lacks)
    return {"variant": game.tags["Variant"], "players": names, "event": game.tags["Event"],
            "problem": game.tags.get("Problem"), "table": {"line": [[t.low, t.high] for t in setup.line]},
            "hands": [{"tiles": [[t.low, t.high] for t in h.tiles or ()], "unknown": h.unknown if h.tiles is not None
                       else 1} for h in game.hands],
            "to_move": setup.to_move, "lacks": [list(voids.get(n, ())) for n in names], "boneyard": setup.boneyard}


def _without(text: str, *tags: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not any(line.startswith(f"[{t} ") for t in tags))


@pytest.mark.parametrize("name", ["1-seed1-open.dom", "2-seed2-hidden.dom"])
def test_the_form_writes_the_bundled_problems_from_their_parts(client, name):
    """Each bundled problem (every hand shown; the others' hands by their count, with the passes' voids) given as
    the form's parts is written letter for letter as the file (its Source tag aside, which the form has not)."""
    text = (PROBLEMS / name).read_text(encoding="utf-8")
    out = client.post("/api/setup", json=_parts(text))
    assert out.status_code == 200, out.text
    assert out.json()["text"].replace('[Result "*"]\n', "") == _without(text, "Source", "Result")
    assert out.json()["validation"]["summary"]["valid"] == 1


def test_the_points_of_the_hand_and_the_match_score(client):
    """All Fives: the points scored in the hand, a side each (here a player each), and the match score."""
    text = (PROBLEMS / "3-all-fives.dom").read_text(encoding="utf-8")
    body = {**_parts(text), "points": [5, 10], "match_score": [40, 25]}
    out = client.post("/api/setup", json=body).json()
    assert '[Points "A 5, B 10"]' in out["text"] and '[MatchScore "A 40, B 25"]' in out["text"]
    assert '[Boneyard "18"]' in out["text"] and out["validation"]["summary"]["valid"] == 1
    # a variant that scores nothing during play: the Points tag is written, and the validator flags it
    partnership = client.post("/api/setup", json={**_parts((PROBLEMS / "1-seed1-open.dom").read_text()),
                                                  "points": [10, None]}).json()
    assert '[Points "A/C 10"]' in partnership["text"]
    assert partnership["validation"]["summary"]["errors"] == {"setup-count": 1}


def test_a_table_known_by_its_ends_and_counts(client):
    """Problem 2 with its table given as the column gives it: the ends 2 and 4 and how many tiles carry each
    number (counted from its line), 12 tiles on the table; valid, and analysed."""
    text = (PROBLEMS / "2-seed2-hidden.dom").read_text(encoding="utf-8")
    line = read_setup(parse(text).games[0])[0].line
    counts = {n: sum(1 for t in line if n in (t.low, t.high)) for n in range(7)}
    body = {**_parts(text), "table": {"ends": [2, 4], "counts": [[n, c] for n, c in counts.items() if c],
                                      "on_table": len(line)}}
    out = client.post("/api/setup", json=body).json()
    assert '[Ends "2 4"]\n[Counts "0:4 1:5 2:4 4:4 5:4"]\n[OnTable "12"]\n' in out["text"]
    assert "[Line " not in out["text"] and out["validation"]["summary"]["valid"] == 1


def test_a_position_the_rules_cannot_reach_is_written_and_flagged_at_its_line(client):
    """A tile on the line and in a hand, and hand sizes that do not add up: written as chosen (nothing the user
    clicked is lost), and the validation names each at its line."""
    text = (PROBLEMS / "1-seed1-open.dom").read_text(encoding="utf-8")
    body = _parts(text)
    body["hands"][0]["tiles"].append([4, 4])          # [4-4] lies at the end of the line
    out = client.post("/api/setup", json=body).json()
    rows = out["text"].split("\n")
    codes = {d["code"]: d for g in out["validation"]["games"] for d in g["diagnostics"] if d["severity"] == "error"}
    assert "setup-tiles" in codes and "[4-4]" in rows[codes["setup-tiles"]["line"] - 1]
    assert "[4-4]" in codes["setup-tiles"]["message"]


@pytest.mark.parametrize("change,words", [
    ({"table": {"line": [[3, 9]]}}, "from 0 to 6"),
    ({"to_move": "Z"}, "not one of the players"),
    ({"hands": [{"tiles": []}]}, "one hand a player"),
    ({"lacks": [[7], [], [], []]}, "from 0 to 6"),
    ({"players": ["A", "A", "C", "D"]}, "'A' is given twice"),
    ({"table": {"ends": [2]}}, "two open numbers"),
    ({"boneyard": -1}, "boneyard"),
    ({"points": [1]}, "one number a side"),
    ({"variant": "no-such-game"}, "no-such-game"),
])
def test_what_the_form_cannot_write_is_a_clear_422(client, change, words):
    body = {**_parts((PROBLEMS / "1-seed1-open.dom").read_text()), **change}
    out = client.post("/api/setup", json=body)
    assert out.status_code == 422 and words in out.json()["error"], out.text


# ---- problem sets -----------------------------------------------------------------------------------

def test_the_problem_sets_under_the_roots(client, tree):
    """The book (a folder of set-up records with a Problem tag) and the train set; not a hidden one, not one
    through a link out of the root, not a JSON that is no problem set, not a folder of records without problems."""
    root, _ = tree
    sets = client.post("/api/problemsets", json={}).json()["sets"]
    assert [(s["name"], s["kind"]) for s in sets] == [(f"{root.name}/book/", "book"),
                                                      (f"{root.name}/maria.json", "train")]


def test_a_book_of_problems(client, tree):
    """Each game with a Problem tag, its question and its position's record, in the files' order."""
    out = client.post("/api/problems", json={"path": "book"}).json()
    assert out["kind"] == "book" and [p["question"] for p in out["problems"]] == [
        parse(f.read_text()).games[0].tags["Problem"] for f in sorted(PROBLEMS.glob("*.dom"))]
    first = out["problems"][0]
    assert first["position"] == (PROBLEMS / "1-seed1-open.dom").read_text() and first["answer"] is None
    # one record file of it is a book too
    one = client.post("/api/problems", json={"path": "book/3-all-fives.dom"}).json()
    assert [p["player"] for p in one["problems"]] == ["B"]
    assert client.post("/api/problems", json={"path": "seed1.dom"}).status_code == 422


def test_a_problem_set_of_domino_train(client):
    """Each problem of the file with its answer as the file gives it (best, played, the values and intervals)."""
    given = json.loads(TRAIN.read_text())["problems"]
    out = client.post("/api/problems", json={"path": "maria.json"}).json()
    assert out["kind"] == "train" and out["player"] == "B" and len(out["problems"]) == len(given)
    for mine, theirs in zip(out["problems"], given):
        assert mine["position"] == theirs["position"] and mine["question"] == theirs["question"]
        answer = mine["answer"]
        assert (answer["best"], answer["played"], answer["line"]) == (theirs["best"], theirs["played"], theirs["line"])
        assert answer["alternatives"] == theirs["alternatives"]
    bad = client.post("/api/problems", json={"path": "other.json"})
    assert bad.status_code == 422 and "no problem set" in bad.json()["error"]


@pytest.mark.parametrize("path", [".hidden.json", ".git/book", "link.json", "linkdir", "linkdir/1-seed1-open.dom",
                                  "../outside/secret.json", "/etc/passwd", "/etc", "book/../../x.json"])
def test_problem_sets_only_under_the_roots(client, path):
    out = client.post("/api/problems", json={"path": path})
    assert out.status_code == 403 and out.headers["content-type"] == "application/json", out.text


def test_a_problem_set_is_read_never_opened_as_a_record_nor_written(client, tree):
    root, _ = tree
    before = (root / "maria.json").read_bytes()
    assert client.post("/api/open", json={"path": "maria.json"}).status_code == 403
    assert client.post("/api/save", json={"path": "maria.json", "text": "x", "token": None}).status_code == 403
    assert client.post("/api/open", json={"path": "book"}).status_code == 403
    assert (root / "maria.json").read_bytes() == before


def test_the_new_routes_need_the_token(tree):
    with TestClient(create_app([str(tree[0])], token=BOARD_TOKEN), raise_server_exceptions=False) as c:
        for route in ("setup", "problemsets", "problems", "answer"):
            assert c.post(f"/api/{route}", json={"path": "maria.json"}).status_code == 401



@pytest.mark.parametrize("name", ["1-seed1-open.dom", "2-seed2-hidden.dom", "3-all-fives.dom"])
def test_a_book_problems_answer_is_what_analyze_says(client, tmp_path, name):
    """The answer to a book problem: every move's value as ``domino analyze --json`` gives the position's
    decision (exact where every hand is shown; else the fair mean and its interval, same seed and deals)."""
    text = (PROBLEMS / name).read_text(encoding="utf-8")
    answer = client.post("/api/answer", json={"text": text})
    assert answer.status_code == 200, answer.text
    answer = answer.json()
    decision = analyze_to_move(text, tmp_path)
    exact = "fair" not in decision
    assert answer["method"] == ("exact" if exact else decision["fair"]["method"])
    want = {a["move"]: (a["value"], [a["value"], a["value"]]) if exact else (a["fair"]["mean"], a["fair"]["ci95"])
            for a in decision["alternatives"]}
    assert {a["move"]: (a["fair"], a["ci95"]) for a in answer["alternatives"]} == want
    # (a fair verdict that names no best: the answer picks one of the moves it cannot tell apart)
    best = [a["move"] for a in decision["alternatives"] if a["best"]] if exact else \
        [decision["fair"]["best"]] if decision["fair"]["best"] else decision["fair"]["tied"]
    assert answer["best"] in best and answer["alternatives"][0]["best"]


def test_an_answer_needs_a_position_that_stops_at_a_decision(client):
    text = (PROBLEMS / "1-seed1-open.dom").read_text(encoding="utf-8")
    # D to move there holds no 2 and no 4: his pass is forced
    out = client.post("/api/answer", json={"text": text.replace('[ToMove "B"]', '[ToMove "D"]')})
    assert out.status_code == 422 and "decision" in out.json()["error"], out.text
    broken = client.post("/api/answer", json={"text": re.sub(r"A: \[2-2\]", "A: [4-4]", text)})
    assert broken.status_code == 422 and "not valid" in broken.json()["error"]
