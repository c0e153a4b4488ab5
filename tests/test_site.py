"""``domino site`` (analyzer/site): the folder it builds, and the site's API answering as the server's does
(one API layer: the same table of routes, analyzer/server/api.py). The site in a real browser is
tests/test_site_browser.py."""
from __future__ import annotations

import json
import random
import signal
import shutil
import subprocess
import sys
import zipfile

import pytest

from analyzer.i18n import LANGUAGES
from analyzer.site.build import CATALOGUES, PYODIDE_FILES, SiteError, build_site, bundle_python
from analyzer.site.worker import BROWSER_BUDGET, SiteApi
from conftest import RECORDS, ROOT, board_client


@pytest.fixture(scope="module")
def fake_pyodide(tmp_path_factory):
    """A folder laid out as Pyodide's npm package (the build copies it; nothing here runs it)."""
    folder = tmp_path_factory.mktemp("pyodide")
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(b"{\"version\": \"0.27.7\"}" if name == "package.json" else
                                    b"{\"info\": {\"version\": \"0.27.7\"}, \"packages\": {\"numpy\": {}}}"
                                    if name == "pyodide-lock.json" else name.encode())
    return folder


@pytest.fixture(scope="module")
def python_zip():
    return zipfile.ZipFile(__import__("io").BytesIO(bundle_python()))


def test_the_site_holds_the_page_pyodide_the_python_and_the_records(tmp_path, fake_pyodide):
    built = build_site(tmp_path / "site", pyodide=fake_pyodide)
    folder = built.folder
    for name in ["index.html", "site.json", "site/worker.js", "site/transport.js", "site/link.js", "static/board.js",
                 "static/board.css", "python/domino.zip", "records/seed1.dom"] + [f"pyodide/{n}" for n in PYODIDE_FILES]:
        assert (folder / name).is_file(), name
    manifest = json.loads((folder / "site.json").read_text())
    assert manifest["pyodide"] == "0.27.7" and "seed1.dom" in manifest["records"]
    assert manifest["sizes"]["python/domino.zip"] == (folder / "python/domino.zip").stat().st_size
    page = (folder / "index.html").read_text()
    # relative addresses (any path on any host), the site's scripts before the board's, no CDN anywhere
    assert '"/static/' not in page and page.index("site/transport.js") < page.index("static/board.js")
    assert "http://" not in page and "https://" not in page
    assert 'id="copylink"' in page and "wasm-unsafe-eval" in page
    # installable: the manifest and its icons (made here, no download), allowed by the page's policy
    assert 'href="site/manifest.webmanifest"' in page and "manifest-src 'self'" in page
    app = json.loads((folder / "site/manifest.webmanifest").read_text())
    assert {i["src"] for i in app["icons"]} <= {p.name for p in (folder / "site").iterdir()}
    assert (folder / "site/icon-192.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (folder / "site/manifest.webmanifest").resolve().parent.parent == folder.resolve()
    # Pyodide's lock file without its packages (the site loads none; their wheels are on its CDN)
    assert json.loads((folder / "pyodide/pyodide-lock.json").read_text())["packages"] == {}


def _worker_site(folder):
    """The SITE the service worker was written with (sw.js's first statement)."""
    text = (folder / "sw.js").read_text()
    head = text[len("var SITE = "):text.index(";\n")]
    return json.loads(head), text


def test_the_service_worker_keeps_every_file_the_page_reads_and_is_versioned_by_the_build(tmp_path, fake_pyodide):
    folder = build_site(tmp_path / "site", pyodide=fake_pyodide).folder
    site, text = _worker_site(folder)
    manifest = json.loads((folder / "site.json").read_text())
    assert site["version"] == manifest["version"]
    every = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    # every file but itself, what only Node reads, and the lazy files (kept when first read) is kept at once
    assert set(site["cache"]) == every - {"sw.js", "pyodide/pyodide.mjs", "pyodide/package.json"} - set(site["lazy"])
    # (kept when first read: the package's data only some calls read, and the board's catalogues, one read a page)
    catalogues = {name for name in site["lazy"] if name.startswith(CATALOGUES)}
    assert catalogues == {f"{CATALOGUES}{code}.json" for code in LANGUAGES}
    assert set(site["lazy"]) - catalogues == set(manifest["lazy"].values()) and site["lazy"]
    assert all(name.startswith(("python/lazy/analyzer/equity/data/", "python/lazy/analyzer/locale/", "python/lazy/babel/"))
               for name in set(site["lazy"]) - catalogues)
    assert {"index.html", "site.json", "python/domino.zip", "pyodide/pyodide.asm.wasm", "site/worker.js"} <= set(site["cache"])
    # it answers only the site's own files under its scope, and deletes only its own older caches
    assert "indexOf(SCOPE) !== 0" in text and 'PREFIX = "domino-site " + SCOPE + " "' in text
    # a file changed is a new version (a new cache); the same files, the same version
    again = build_site(folder, pyodide=fake_pyodide, force=True).folder
    assert _worker_site(again)[0]["version"] == site["version"]
    shelf = tmp_path / "records"
    shelf.mkdir()
    (shelf / "seed1.dom").write_text((RECORDS / "seed1.dom").read_text() + "\n")
    changed = build_site(folder, pyodide=fake_pyodide, force=True, records=("seed1.dom",), records_folder=shelf).folder
    assert _worker_site(changed)[0]["version"] != site["version"]


def test_the_python_zip_has_the_package_and_its_pure_python_dependencies_only(python_zip):
    names = set(python_zip.namelist())
    for needed in ["analyzer/site/worker.py", "analyzer/server/api.py", "analyzer/server/library.py",
                   "analyzer/grammar/record.lark", "lark/__init__.py", "jinja2/__init__.py", "markupsafe/__init__.py"]:
        assert needed in names, needed
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c", ".pyc"))]
    # neither the command line, nor networkx (its tree of lines only), nor the equity tables, the catalogues and
    # Babel's CLDR data (lazy files: the pipeline's analyzer.po and its languages' data only, docs/site.md)
    assert not [n for n in names if n.startswith(("analyzer/cli/", "click/", "starlette/", "networkx/",
                                                  "analyzer/equity/data/", "analyzer/locale/", "babel/locale-data/"))]
    assert "babel/messages/pofile.py" in names and "babel/global.dat" not in names


def test_the_sites_routes_need_neither_networkx_nor_an_equity_table():
    """What the site leaves out of its first download is what none of its routes reads: each route on the
    bundled records (a partnership game, two matches, a draw game) with networkx unimportable and every file
    opened recorded; jinja2 (the reports' pages) is not even imported, at start or by a route."""
    script = """
import json, os, sys, tempfile
sys.modules["networkx"] = None
opened = []
sys.addaudithook(lambda ev, args: opened.append(args[0]) if ev == "open" and isinstance(args[0], str) else None)
from analyzer.site.worker import SiteApi
api = SiteApi(tempfile.mkdtemp())
started = "jinja2" in sys.modules
statuses = []
for name in ["seed1.dom", "match-kozel.dom", "match-quinientos.dom", "variant-draw.dom"]:
    text = open(os.path.join("records", name), encoding="utf-8").read()
    for route, body in [("validate", {}), ("position", {"game": 0, "step": 3}), ("analyze", {"lines": True})]:
        statuses.append(api.answer(route, {"text": text, **body})[0])
fair = {"fair": True, "decision_deals": 2, "max_decision_deals": 2, "max_nodes": 2000}
statuses.append(api.answer("analyze", {"text": open("records/seed1.dom", encoding="utf-8").read(), **fair})[0])
print(json.dumps({"statuses": statuses, "tables": [p for p in opened if "equity" in p and "data" in p],
                  "jinja2": [started, "jinja2" in sys.modules]}))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(found["statuses"]) == {200} and found["tables"] == []
    assert found["jinja2"] == [False, False]         # (the worker starts without jinja2: no route renders a page)
    assert bundle_python() == bundle_python()        # the same bytes each build: the browser's cache holds


def test_the_zip_carries_the_record_parser_saved_and_it_reads_every_record_as_the_grammar_built_one(python_zip):
    """The worker loads the parser from the tables the zip carries instead of building it from the grammar in the
    browser; a parser so loaded reads every bundled record as the one built from the grammar, and tables saved from
    another grammar (or lark) are not taken."""
    from analyzer.notation import reader
    from analyzer.site.build import SAVED_PARSER

    saved = python_zip.read(SAVED_PARSER)
    texts = [(path.name, path.read_text(encoding="utf-8")) for path in sorted(RECORDS.iterdir())
             if path.suffix in (".dom", ".txt") and path.is_file()]
    built = [reader.parse(text, name) for name, text in texts]
    try:
        assert not reader.use_saved_parser(saved.replace(b"domino-parser ", b"domino-parser 0", 1))
        assert reader.use_saved_parser(saved)
        assert reader.parser() is not None and reader._SAVED == [saved]     # (loaded from them: kept, not dropped)
        assert [reader.parse(text, name) for name, text in texts] == built and len(texts) > 50
        assert sum(len(r.games) for r in built) > 100 and any(r.errors for r in built)
    finally:
        reader._SAVED.clear()
        reader._parser.cache_clear()


def test_a_folder_not_empty_is_never_overwritten(tmp_path, fake_pyodide):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(SiteError, match="not empty"):
        build_site(tmp_path, pyodide=fake_pyodide)
    with pytest.raises(SiteError, match="no site.json"):
        build_site(tmp_path, pyodide=fake_pyodide, force=True)
    assert (tmp_path / "mine.txt").read_text() == "keep me"
    site = tmp_path / "site"
    build_site(site, pyodide=fake_pyodide)
    assert build_site(site, pyodide=fake_pyodide, force=True).sizes["index.html"] > 0


def test_without_pyodide_the_build_says_what_to_install(tmp_path):
    with pytest.raises(SiteError, match="npm package"):
        build_site(tmp_path / "site", pyodide=tmp_path)


def _cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "analyzer", "site", *args], capture_output=True, text=True, cwd=cwd)


def test_the_command_builds_and_makes_and_reads_links(tmp_path, fake_pyodide):
    out = _cli("-o", str(tmp_path / "site"), "--pyodide", str(fake_pyodide))
    assert out.returncode == 0 and "static site" in out.stdout and (tmp_path / "site" / "index.html").is_file()
    again = _cli("-o", str(tmp_path / "site"), "--pyodide", str(fake_pyodide))
    assert again.returncode == 1 and "not empty" in again.stderr and "Traceback" not in again.stderr
    link = _cli("--link", str(RECORDS / "seed1.dom"), "--at", "g1.15", "--base", "https://example.org/d/")
    assert link.returncode == 0 and link.stdout.startswith("https://example.org/d/#r=")
    assert link.stdout.strip().endswith("&m=g1.15")
    read = _cli("--read", link.stdout.strip())
    assert read.stdout == (RECORDS / "seed1.dom").read_text(encoding="utf-8") and "g1.15" in read.stderr
    broken = _cli("--read", link.stdout.strip()[:120])
    assert broken.returncode == 1 and "opens nothing" in broken.stderr and "Traceback" not in broken.stderr
    bad = _cli("--link", str(RECORDS / "seed1.dom"), "--at", "move 15")
    assert bad.returncode == 2 and "g1.15" in bad.stderr


# ---- one API layer: the site's answers are the server's ----------------------------------------------------

@pytest.fixture(scope="module")
def served_and_site(tmp_path_factory):
    server_folder = tmp_path_factory.mktemp("served")
    site_folder = tmp_path_factory.mktemp("site")
    for name in ("seed1.dom", "errors.dom"):
        shutil.copy(RECORDS / name, server_folder / name)
        shutil.copy(RECORDS / name, site_folder / name)
    with board_client([str(server_folder)]) as client:
        yield client, SiteApi(str(site_folder), BROWSER_BUDGET), server_folder, site_folder


SEED = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
ERRORS = (RECORDS / "errors.dom").read_text(encoding="utf-8")
SAME = [
    ("position", {"text": SEED, "step": 5}),
    ("position", {"text": SEED, "cursor": {"line": 17, "column": 3}}),
    ("position", {"text": SEED, "game": 7}),
    ("enter", {"text": SEED, "step": 3, "move": "[0-0]", "player": "B"}),
    ("validate", {"text": ERRORS}),
    ("repair", {"text": ERRORS}),
    ("variants", {}),
    ("tags", {"text": SEED}),
    ("position", {"text": 5}),
    ("position", {"text": SEED, "variant": "no-such-variant"}),
    ("enter", {"text": SEED}),
    ("analyze", {"text": SEED, "max_decision_deals": 3, "decision_deals": 10}),
    ("analyze", {"text": SEED, "max_worlds": 3, "worlds": 10}),          # (the retired keys: read a version more)
    ("analyze", {"text": SEED}),
]


@pytest.mark.parametrize("route,body", SAME, ids=[f"{r}-{k}" for k, (r, _) in enumerate(SAME)])
def test_the_site_answers_each_route_as_the_server_does(served_and_site, route, body):
    client, api, *_ = served_and_site
    served = client.post(f"/api/{route}", json=body)
    status, answer = api.answer(route, body)
    assert status == served.status_code
    assert json.loads(json.dumps(answer)) == served.json()


def test_the_sites_files_are_kept_with_the_servers_conflict_check(served_and_site):
    _client, api, _server_folder, site_folder = served_and_site
    status, listing = api.answer("files", {})
    assert status == 200 and sorted(f["name"] for f in listing["files"]) == sorted(
        [f"{site_folder.name}/errors.dom", f"{site_folder.name}/seed1.dom"])
    status, opened = api.answer("open", {"path": str(site_folder / "seed1.dom")})
    assert status == 200 and opened["text"] == SEED
    # a new file must not exist yet: a link's record written twice keeps the reader's own edits
    assert api.answer("save", {"path": "mine.dom", "text": SEED + "\n", "token": None})[0] == 200
    status, refused = api.answer("save", {"path": "mine.dom", "text": "other", "token": None})
    assert status == 409 and "exists already" in refused["error"]
    assert (site_folder / "mine.dom").read_text() == SEED + "\n"
    assert api.answer("open", {"path": "../outside.dom"})[0] == 403


def test_the_sites_fair_analysis_takes_the_browser_budget_and_tells_its_progress(served_and_site):
    _client, api, *_ = served_and_site
    steps = []
    status, answer = api.answer("analyze", {"text": SEED, "fair": True}, steps.append)
    assert status == 200 and answer["games"] and answer["games"][0]["decisions"]
    deals = [s for s in steps if s["phase"] == "deals"]
    assert deals and deals[-1]["done"] == deals[-1]["total"]
    # no decision was given more deals than the budget allows
    assert deals[-1]["total"] <= BROWSER_BUDGET["max_decision_deals"] * len(answer["games"][0]["decisions"])
    assert api.answer("site", {})[1]["search"]


# ---- issue 87 item 5: the new site built beside the old one and swapped in; a kill or a full disk leaves it whole ---

def _whole(folder) -> dict:
    """The site in ``folder`` checked whole (every file site.json names, of its size, and no other but site.json and
    sw.js): each file's bytes by its path."""
    sizes = json.loads((folder / "site.json").read_text(encoding="utf-8"))["sizes"]
    found = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert set(found) == set(sizes) | {"site.json", "sw.js"}
    assert all(len(found[name]) == size for name, size in sizes.items())
    return found


@pytest.fixture(scope="module")
def big_pyodide(tmp_path_factory, fake_pyodide):
    """Pyodide's package with a WebAssembly file of 24 MB: a build long enough to be killed in the middle."""
    folder = tmp_path_factory.mktemp("big-pyodide")
    for name in PYODIDE_FILES:
        shutil.copyfile(fake_pyodide / name, folder / name)
    (folder / "pyodide.asm.wasm").write_bytes(random.Random(87).randbytes(24 << 20))
    return folder


@pytest.mark.slow
def test_a_build_killed_at_any_moment_leaves_the_old_site_or_the_new_whole(tmp_path, fake_pyodide, big_pyodide):
    site = tmp_path / "site"
    old = _whole(build_site(site, pyodide=fake_pyodide, records=("seed1.dom",)).folder)
    script = (f"from analyzer.site.build import build_site; build_site({str(site)!r}, pyodide={str(big_pyodide)!r}, "
              "force=True)")
    rng, outcomes = random.Random(5), []
    for _ in range(8):
        child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
        try:                            # (killed at a random moment of its build, unless it ended before)
            child.wait(timeout=rng.uniform(0.2, 2.0))
        except subprocess.TimeoutExpired:
            child.send_signal(signal.SIGKILL)
            child.wait()
        now = _whole(site)               # (never a folder half old, half new, nor an empty one)
        outcomes.append(now == old)
        if now != old:
            assert len(now["pyodide/pyodide.asm.wasm"]) == 24 << 20
            old = now
    build_site(site, pyodide=fake_pyodide, force=True)          # what a killed build left beside it is its own
    assert [p.name for p in tmp_path.iterdir()] == ["site"] and _whole(site)


@pytest.mark.parametrize("after", [0, 3, 20])
def test_a_full_disk_leaves_the_old_site_whole_and_names_the_file_written(tmp_path, fake_pyodide, monkeypatch, after):
    import errno
    import pathlib

    site = tmp_path / "site"
    old = _whole(build_site(site, pyodide=fake_pyodide, records=("seed1.dom",)).folder)
    written = []
    real_write, real_copy = pathlib.Path.write_bytes, shutil.copyfileobj

    def full(*args):
        written.append(args)
        if len(written) > after:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pathlib.Path, "write_bytes", lambda self, data: (full(self), real_write(self, data))[1])
    monkeypatch.setattr(shutil, "copyfileobj", lambda a, b, n=0: (full(b.name), real_copy(a, b, n))[1])
    with pytest.raises(SiteError) as caught:
        build_site(site, pyodide=fake_pyodide, force=True)
    monkeypatch.undo()
    message = str(caught.value)
    assert message.startswith(str(site) + "/") and "No space left on device" in message
    assert str(fake_pyodide) not in message and "left as it was" in message
    assert _whole(site) == old and [p.name for p in tmp_path.iterdir()] == ["site"]


def test_a_partial_folder_the_build_left_is_its_own_and_replaced_with_force(tmp_path, fake_pyodide):
    from analyzer.site.build import MARKER

    site = tmp_path / "site"
    (site / "pyodide").mkdir(parents=True)
    (site / MARKER).write_text("partial")
    (site / "pyodide" / "pyodide.js").write_text("half")
    with pytest.raises(SiteError, match="not empty"):
        build_site(site, pyodide=fake_pyodide)
    assert _whole(build_site(site, pyodide=fake_pyodide, force=True).folder)
    assert not (site / MARKER).exists()


# ---- issue 80 item 3: a sheet's CPU budgets in the page -------------------------------------------------------------

def test_the_sites_analysis_gives_a_sheet_the_pages_budgets_unless_the_request_names_its_own(tmp_path, monkeypatch):
    """The page's analysis of a sheet without hands is bounded by the site's budgets (``SITE_SECONDS``: values 15 s,
    fair verdicts 15 s), no larger than the command line's 20 s each; a request's own ``values_seconds`` and
    ``fair_seconds`` (null: no budget) are the request's, read as the server reads them."""
    from analyzer.server import library
    from analyzer.site.worker import SITE_SECONDS

    asked = []
    monkeypatch.setattr(library, "analyze_document", lambda **kwargs: asked.append(kwargs["asked"]) or {})
    api = SiteApi(str(tmp_path / "site"))
    assert api.answer("analyze", {"text": SEED})[0] == 200
    assert api.answer("analyze", {"text": SEED, "fair": True, "values_seconds": None, "fair_seconds": 5})[0] == 200
    assert (asked[0].values_seconds, asked[0].fair_seconds) == (15, 15) == tuple(SITE_SECONDS.values())
    assert library.AnalysisRequest().values_seconds == 20 and library.AnalysisRequest().fair_seconds == 20
    assert all(SITE_SECONDS[k] <= getattr(library.AnalysisRequest(), k) for k in SITE_SECONDS)
    assert (asked[1].values_seconds, asked[1].fair_seconds) == (None, 5)
    assert api.answer("analyze", {"text": SEED, "fair_seconds": -1})[0] == 400       # (the server's reading)
