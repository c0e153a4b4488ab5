"""Issue 55 on the board: it opens and writes only record files under its roots, every call needs the run's
token (as Jupyter's), the Host check holds for every ``--host``, every refusal and every bad body is a JSON
4xx (a hypothesis fuzz of every route finds no 5xx), a validation superseded by the next is ended, and the
real server stops at once on SIGTERM and Ctrl-C with an analysis running."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from analyzer.server import create_app  # noqa: E402
from analyzer.server.guard import allowed_hosts  # noqa: E402
from analyzer.server.jobs import Cancelled, Workers  # noqa: E402

from conftest import BOARD_AUTH, BOARD_TOKEN, HANG_SECONDS, RECORDS, ROOT, wait_until  # noqa: E402

AUTH = BOARD_AUTH
SEED = RECORDS.joinpath("seed1.dom").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("root")
    outside = tmp_path_factory.mktemp("outside")
    (root / "seed1.dom").write_text(SEED, encoding="utf-8")
    (root / "sub").mkdir()
    (root / ".git").mkdir()
    (root / ".git" / "x.dom").write_text("[Event \"hidden\"]\n", encoding="utf-8")
    (root / ".hidden.dom").write_text("[Event \"hidden\"]\n", encoding="utf-8")
    (root / "evil.sh").write_text("echo hi\n", encoding="utf-8")
    (outside / "secret.dom").write_text("[Event \"not yours\"]\n", encoding="utf-8")
    (root / "link.dom").symlink_to(outside / "secret.dom")
    (root / "linkdir").symlink_to(outside, target_is_directory=True)
    return root, outside


@pytest.fixture(scope="module")
def board_roots(tree):
    """The roots of the module's board (``client``, conftest.py)."""
    return [str(tree[0])]


# ---- which files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["x.sh", "evil.sh", ".hidden.dom", ".git/x.dom", "sub/.x.dom", "sub/new/x.dom",
                                  "link.dom", "linkdir/secret.dom", "linkdir/new.dom", "../outside.dom", "sub"])
def test_only_record_files_under_the_roots(client, tree, name):
    """Another extension, a dot-file or dot-folder, a folder that does not exist, a link out of the root: each
    refused with a JSON 403, for opening and for saving, and nothing written."""
    root, outside = tree
    before = sorted(p.name for p in outside.iterdir())
    for route, body in (("/api/open", {"path": name}), ("/api/save", {"path": name, "text": "x", "token": None}),
                        ("/api/open", {"path": str(root / name)})):
        out = client.post(route, json=body)
        assert out.status_code == 403 and out.headers["content-type"] == "application/json", (route, out.text)
        assert out.json()["error"]
    assert not (root / "sub" / "new").exists() and not (root / "x.sh").exists()
    assert (root / "evil.sh").read_text() == "echo hi\n" and sorted(p.name for p in outside.iterdir()) == before


def test_a_new_record_file_is_written_with_the_usual_mode(client, tree):
    root, _ = tree
    for name in ("x.dom", "sub/y.txt"):
        out = client.post("/api/save", json={"path": name, "text": SEED, "token": None})
        assert out.status_code == 200, out.text
        mask = os.umask(0)
        os.umask(mask)
        assert (root / name).read_text(encoding="utf-8") == SEED
        assert (root / name).stat().st_mode & 0o777 == 0o666 & ~mask
        assert not [p for p in (root / name).parent.iterdir() if p.name.endswith(".part")]
    listed = {f["name"] for f in client.post("/api/files", json={}).json()["files"]}
    assert not any(n.startswith(".") or "/." in n or n.endswith(".sh") or "link" in n for n in listed), listed


# ---- the token -------------------------------------------------------------------------------------

def test_every_call_needs_the_token(tree):
    app = create_app([str(tree[0])], token=BOARD_TOKEN)
    with TestClient(app, raise_server_exceptions=False) as c:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": BOARD_TOKEN}):
            out = c.post("/api/files", json={}, headers=headers)
            assert out.status_code == 401 and "token" in out.json()["error"]
        assert c.post("/api/files", json={}, headers=AUTH).status_code == 200
        assert c.post(f"/api/files?token={BOARD_TOKEN}", json={}).status_code == 200
        # the page: only with the token, which it then keeps in a cookie for this port and gives its script
        assert c.get("/").status_code == 401 and c.get("/").headers["content-type"] == "application/json"
        page = c.get(f"/?token={BOARD_TOKEN}")
        assert page.status_code == 200 and f'content="{BOARD_TOKEN}"' in page.text
        cookie = page.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert c.get("/").status_code == 200                # (the cookie now)
        c.cookies.clear()
        assert c.get("/").status_code == 401
        assert c.post("/api/files", json={}).status_code == 401   # (a cookie never opens the API)
        assert c.get("/static/board.js").status_code == 200


def test_the_host_check_holds_for_every_host(tree):
    assert allowed_hosts("0.0.0.0") == ["127.0.0.1", "localhost", "::1"]
    names = allowed_hosts("192.168.7.7", ("board.lan",))
    assert "192.168.7.7" in names and "board.lan" in names and "localhost" in names
    app = create_app([str(tree[0])], token=BOARD_TOKEN, hosts=names)
    for base, ok in (("http://192.168.7.7:8765", True), ("http://localhost:8765", True), ("http://[::1]:9", True),
                     ("http://board.lan", True), ("http://rebound.example:8765", False), ("http://192.168.7.8", False)):
        with TestClient(app, base_url=base, raise_server_exceptions=False, headers=AUTH) as c:
            out = c.post("/api/files", json={})
            assert (out.status_code == 200) == ok, (base, out.text)
            if not ok:
                assert out.status_code == 400 and "host name" in out.json()["error"]


# ---- bad bodies ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("route,body,words", [
    ("/api/variants", {"rules": {"players": 3}}, "players"),
    ("/api/variants", {"variant": "all-fives", "rules": {"players": "x"}}, "players"),
    ("/api/variants", {"variant": "all-fives", "rules": {"target": "-5"}}, "target"),
    ("/api/analyze", {"text": SEED, "max_nodes": None}, "max_nodes"),
    ("/api/analyze", {"text": SEED, "decision_deals": None}, "decision_deals"),
    ("/api/analyze", {"text": SEED, "max_decision_deals": "800"}, "max_decision_deals"),
    ("/api/analyze", {"text": SEED, "max_decision_deals": 10**6}, "max_decision_deals"),
    ("/api/analyze", {"text": SEED, "decision_deals": 400, "max_decision_deals": 200}, "fewer than the 400 deals"),
    ("/api/analyze", {"text": SEED, "worlds": 400, "max_worlds": 200}, "fewer than the 400 deals"),    # (retired keys)
    ("/api/validate", {"text": "\ud800"}, "surrogate"),
])
def test_bad_bodies_are_a_clear_4xx(client, route, body, words):
    out = client.post(route, content=json.dumps(body), headers={"content-type": "application/json"})
    assert 400 <= out.status_code < 500 and words in out.json()["error"], out.text


ROUTES = ("validate", "analyze", "cancel", "progress", "position", "enter", "repair", "variation", "variants", "new",
          "files", "open", "save", "setup", "problemsets", "problems", "answer")
_scalar = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False) | \
    st.text(max_size=30) | st.sampled_from(["[3-6]@6", "pass", "B [1-1]", "partnership", "all-fives", "x.dom"])
_value = st.recursive(_scalar, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
_keys = st.sampled_from(["text", "name", "variant", "rules", "game", "step", "cursor", "line", "along", "move",
                         "player", "players", "hands", "event", "lead", "job", "path", "token", "max_nodes", "seed",
                         "decision_deals", "max_decision_deals", "worlds", "max_worlds", "exact_below", "fair", "lines", "table", "to_move", "lacks", "boneyard",
                         "points", "match_score", "problem"])
_texts = st.sampled_from([SEED, SEED[:300], "", "A: ?\nB: ?\n\n1. A [0-0]\n", "[Variant \"all-fives\"]\n"])


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(route=st.sampled_from(ROUTES), body=st.dictionaries(_keys, _value, max_size=6), text=st.none() | _texts,
       raw=st.none() | st.binary(max_size=40))
def test_no_body_gets_a_5xx(client, route, body, text, raw):
    """Every route, any JSON body (fields of every type, the record texts among them) or bytes: a 2xx or a JSON
    4xx, never a 5xx (an analysis is kept small: no fair analysis of thousands of deals)."""
    if text is not None:
        body["text"] = text
    if route == "analyze":
        body.update(fair=False, max_nodes=10**5)
    if route == "answer":
        body.update(decision_deals=2, max_decision_deals=2)
    content = raw if raw is not None else json.dumps(body)
    out = client.post(f"/api/{route}", content=content, headers={"content-type": "application/json"})
    assert out.status_code < 500, (route, body, out.text)
    if out.status_code >= 400:
        assert out.headers["content-type"] == "application/json" and out.json()["error"]


# ---- cancelling, stopping --------------------------------------------------------------------------------

def test_a_job_superseded_by_the_next_of_its_name_is_ended():
    """A page's next validation replaces its last (the job's name is the page's): the one running is ended at
    once and answers cancelled, the new one runs. (A long fair analysis stands for a slow validation.)"""
    workers = Workers(limit=2, queue=True)
    french = RECORDS.joinpath("variant-french.dom").read_text(encoding="utf-8")
    answer = {}

    def long():
        try:
            answer["long"] = workers.run("page", "analyze_document", text=french, label="x", fair=True, worlds=5000,
                                         exact_below=1, progress=True)
        except Cancelled as exc:
            answer["long"] = exc
    thread = threading.Thread(target=long)
    thread.start()
    try:
        wait_until(lambda: workers.progress("page") is not None, "the long job to run")
        quick = workers.run("page", "validate_document", replace=True, text=SEED, label="x")
        assert quick["summary"]["games"] == 1 and quick["games"][0]["diagnostics"]
        thread.join(HANG_SECONDS)
        assert isinstance(answer["long"], Cancelled)
    finally:
        workers.close()
        thread.join(HANG_SECONDS)


def _start_server(folder):
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", str(folder), "--port", "0", "--token",
                             BOARD_TOKEN], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)", line)
    assert found and found.group(2) == BOARD_TOKEN, line
    return proc, int(found.group(1))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_server_stops_at_once_with_an_analysis_running(tmp_path, sig):
    """A real ``domino serve`` with a long analysis running (a French hand's fair analysis over thousands of
    deals) stops on SIGTERM or Ctrl-C (SIGINT) without waiting for it, and no worker is left behind."""
    import http.client

    (tmp_path / "seed1.dom").write_text(SEED, encoding="utf-8")
    proc, port = _start_server(tmp_path)
    french = RECORDS.joinpath("variant-french.dom").read_text(encoding="utf-8")

    def post(path, body, timeout=HANG_SECONDS):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **AUTH})
        res = conn.getresponse()
        return res.status, json.loads(res.read())
    try:
        assert post("/api/files", {})[0] == 200
        thread = threading.Thread(target=lambda: _quietly(post, "/api/analyze", {
            "text": french, "job": "long", "fair": True, "decision_deals": 5000, "exact_below": 1}), daemon=True)
        thread.start()
        wait_until(lambda: post("/api/progress", {"job": "long"})[1]["running"], "the analysis to run", every=0.1)
        children = _children(proc.pid)
        assert children
        proc.send_signal(sig)
        assert proc.wait(HANG_SECONDS) is not None
        wait_until(lambda: not any(_alive(c) for c in children), "the workers to end")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _quietly(fn, *args):
    import http.client

    try:
        fn(*args)
    except (OSError, http.client.HTTPException, ValueError):
        pass            # (the server stopped under it: the connection closed, the answer cut short or never sent)


def _children(pid: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return []
    return [int(x) for x in out.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_pages_check_replaced_by_its_next_answers_superseded_not_an_error(tree):
    """Over HTTP: a page's validation still running when its next arrives (the same ``job``) answers 200
    ``{"superseded": true}``, not a 4xx (the browser would show a failed load in its console, though the page
    dropped the request); the next answers the validation. (A long text stands for a slow validation.)"""
    from conftest import board_client

    slow = SEED + "\n" + "\n".join(SEED.replace('[Event "', f'[Event "{k} ') for k in range(60))
    with board_client([str(tree[0])]) as c:
        answer = {}
        first = threading.Thread(target=lambda: answer.setdefault("first", c.post(
            "/api/validate", json={"text": slow, "job": "page"})))
        first.start()
        wait_until(lambda: c.app.state.checks.progress("validate:page") is not None or not first.is_alive(),
                   "the first validation to run")
        second = c.post("/api/validate", json={"text": SEED, "job": "page"})
        first.join(HANG_SECONDS)
        assert second.status_code == 200 and second.json()["summary"]["games"] == 1
        # (the first, of 61 games, still runs when the second comes: it is ended)
        assert answer["first"].status_code == 200 and answer["first"].json() == {"superseded": True}
