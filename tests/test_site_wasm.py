"""The compiled block search in the browser (issue 81 items 2 and 3): Pyodide under Node, loaded as the site's worker
loads it (the site's WebAssembly modules instantiated first, tests/wasm/pyodide_run.mjs), runs the block search on
``_core.wasm`` through :mod:`analyzer.search.wasmcore`; its values and node counts equal the CPython extension's on
random block positions, and the page's analysis of bundled records, exact and fair, equals ``domino analyze
--json``'s for the same record, options and seed. Where CI builds the modules (DOMINO_REQUIRE_COMPILED=1) a missing
module, Pyodide or Node fails; elsewhere the tests skip, saying why."""
from __future__ import annotations

import inspect
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require_built

from analyzer.search.core import arms_core, compiled_core
from analyzer.search.wasm import wasm_path
from analyzer.site.build import SiteError, build_site, find_pyodide
from test_wasm_kernels import (_plain as plain, _unsnap, arms_cases, cfr_cases, core_cases, draw_cases, race_cases,
                               run_arms_native, run_cfr_native, run_core_native, run_draw_native, run_race_native,
                               wrong_cfr)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
RUN = Path(__file__).parent / "wasm" / "pyodide_run.mjs"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A site built from this tree, with its WebAssembly modules (or the test skipped, failed under CI)."""
    try:
        pyodide = find_pyodide()
    except SiteError:
        pyodide = None
    missing = [what for what, gone in (("Pyodide's npm package", pyodide is None), ("node", shutil.which("node") is None),
                                       ("the _core wasm module", wasm_path("core") is None),
                                       ("the _core extension", compiled_core() is None)) if gone]
    require_built(missing, "not installed or not built")
    folder = tmp_path_factory.mktemp("site")
    build_site(folder, pyodide)
    assert json.loads((folder / "site.json").read_text())["wasm"]["core"] == "wasm/_core.wasm"
    return folder


def in_pyodide(site: Path, script: str, data) -> object:
    """What ``script`` leaves in ``OUTPUT`` (JSON) run in Pyodide under Node with ``data`` as its input."""
    source = site.parent / f"{site.name}-script.py"
    source.write_text(script)
    given = site.parent / f"{site.name}-input.json"
    given.write_text(json.dumps(data))
    done = subprocess.run(["node", str(RUN), str(site), str(source), str(given)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


BINDING = """
import json
from analyzer.search.core import CORE_BINDING, compiled_core
assert CORE_BINDING == "wasm", CORE_BINDING
cases = json.load(open("/home/pyodide/input.json"))
"""


def tables_after(cases: list[dict], core, arms) -> list:
    """The table's counts (slots now and at most, used, bytes, and for the block search's stores and replaced) after
    each case's first search, for the first cases of the block search (``cases[0]``) and of the search over arms
    (``cases[1]``), searched by the modules ``core`` and ``arms`` (an extension, or its wasm binding)."""
    out = []
    for case in cases[0]:
        g, c = case["deal"], case["calls"][0]
        table = core.Table(case["entries"])
        deal = core.BlockDeal(table, g["n"], g["max_pip"], g["sides"], [int(h) for h in g["dealt"]], g["cu"], None,
                              g["scoring"], g["leader"], g["bound"], g["most"], g["bonus"])
        deal.mtdf([int(h) for h in c["hands"]], c["pips"], int(c["K"]), c["e"], c["s"], c["alpha"], c["beta"],
                  c["guess"], None)
        out.append([table.entries, table.max_entries, table.used, table.nbytes, table.stores, table.replaced])
    for case in cases[1]:
        g, c = case["search"], case["calls"][0]
        search = arms.ArmSearch(g["n"], g["max_pip"], g["french"], g["branch"], g["maximiser"], g["opponent"],
                                g["scoring"], g["param"], g["sides"], None, case["entries"], g["described"], g["leader"])
        search.search(tuple(int(h) for h in c["hands"]), tuple(c["arms"]), c["s"], c["alpha"], c["beta"], 10 ** 7)
        out.append([search.max_entries, search.used, search.nbytes, search.replaced])
    return out


def test_the_wasm_binding_in_pyodide_equals_the_extension_on_random_block_positions(site):
    cases = core_cases(300, 8181)
    assert {c["op"] for case in cases for c in case["calls"]} >= {"mtdf", "plays", "line", "worlds", "ends"}
    native = run_core_native(cases)
    few = [cases[:40], arms_cases(40, 8184)]
    script = (BINDING + inspect.getsource(run_core_native) + inspect.getsource(tables_after)
              + "from analyzer.search.core import arms_core\n"
              + "OUTPUT = json.dumps([run_core_native(cases[0]), tables_after(cases[1], compiled_core(), arms_core())])\n")
    got, tables = in_pyodide(site, script, [cases, few])
    # the tables read from the modules' memory as the extensions' getters give them (full ones replacing entries)
    assert tables == tables_after(few, compiled_core(), arms_core())
    assert any(row[-1] for row in tables)
    for case, want, have in zip(cases, native, got):
        assert have == want, case            # every value, line and node count
    assert len(got) == len(native) == 300
    assert sum(c.get("nodes", 0) for row in native for c in row) > 20_000        # (real searches)


ARMS_BINDING = """
import json
from analyzer.search.core import ARMS_BINDING, arms_core
assert ARMS_BINDING == "wasm", ARMS_BINDING
cases = json.load(open("/home/pyodide/input.json"))
"""


def test_the_wasm_search_over_arms_in_pyodide_equals_the_extension_on_random_states(site):
    cases = arms_cases(200, 8182)
    native = run_arms_native(cases)
    script = ARMS_BINDING + inspect.getsource(run_arms_native) + "\nOUTPUT = json.dumps(run_arms_native(cases))\n"
    got = in_pyodide(site, script, cases)
    assert len(got) == len(native) == 200
    for case, want, have in zip(cases, native, got):
        assert have == json.loads(json.dumps(want)), case         # every value, line and node count
    assert any(c.get("steps") for row in native for c in row)
    assert sum(c["nodes"] for row in native for c in row) > 5_000


DRAW_BINDING = """
import json
from analyzer.search.core import DRAW_BINDING, draw_core
assert DRAW_BINDING == "wasm", DRAW_BINDING
cases = json.load(open("/home/pyodide/input.json"))
"""


def test_the_wasm_search_of_draw_games_in_pyodide_equals_the_extension_on_random_decisions(site):
    cases = draw_cases(150, 8183)
    assert {c["op"] for case in cases for c in case["calls"]} == {"search", "line", "ends", "worlds"}
    native = run_draw_native(cases)
    script = (DRAW_BINDING + inspect.getsource(plain) + inspect.getsource(run_draw_native)
              + "\nOUTPUT = json.dumps(run_draw_native(cases))\n")
    got = in_pyodide(site, script, cases)
    assert len(got) == len(native) == len(cases)
    for case, want, have in zip(cases, native, got):
        assert have == json.loads(json.dumps(want)), case         # every value, line, end and node count
    assert {case["search"]["run"] for case in cases} == {False, True}


RACE_BINDING = """
import json
from array import array
from analyzer.equity import race, store
from analyzer.search import wasmrace
assert race._race is wasmrace and store._race is wasmrace, (race._race, store._race)
assert race.RACE_CORE == store.FIND_CORE == "compiled"
calls, wrong = json.load(open("/home/pyodide/input.json"))
"""


def refused(calls: list[dict]) -> list:
    """Each call's error, as ``[the exception's type, its text]`` (None where it raised none)."""
    from analyzer.equity.race import _race

    out = []
    for c in calls:
        try:
            getattr(_race, c["op"])(*[_unsnap(a) for a in c["args"]])
            out.append(None)
        except Exception as e:      # (what is compared: the kind of error and its words)
            out.append([type(e).__name__, str(e)])
    return out


def _wrong(calls: list[dict]) -> list[dict]:
    """Calls the race solver refuses, made from the first ``sweep`` and ``one_hand`` among ``calls``: an array too
    short, a grid larger than its box, ``starts`` not from 0, a lead out of range, a read-only array to write, a block
    of columns that do not divide it."""
    sweep = next(c for c in calls if c["op"] == "sweep")
    hand = next(c for c in calls if c["op"] == "one_hand")
    out = []

    def changed(call, at, value):
        args = json.loads(json.dumps(call["args"]))
        args[at] = value(args[at])
        out.append({"op": call["op"], "args": args})

    changed(sweep, 11, lambda v: {**v, "v": v["v"][:-1]})                          # values too short
    changed(sweep, 2, lambda g: {"tuple": [x + 100 for x in g["tuple"]]})          # a grid outside its box
    changed(sweep, 4, lambda s: {**s, "v": [1] + s["v"][1:]})                       # starts not from 0
    changed(sweep, 7, lambda n: {**n, "v": [99] * len(n["v"])})                     # a lead out of range
    changed(hand, 4, lambda b: {"tuple": b["tuple"][:-1]})                          # box and coords apart
    out.append({"op": "find", "args": [{"t": "B", "v": [0] * 12}, 5, 3]})            # 12 bytes in columns of 5
    out.append({"op": "undiff", "args": [{"t": "I", "v": [1, 2, 3]}, {"tuple": [2]}]})
    return out


def test_the_wasm_race_solver_in_pyodide_equals_the_extension_on_random_races(site):
    from analyzer.equity.race import _race

    if wasm_path("race") is None or _race is None:
        pytest.skip("the _race extension or its wasm module not built")
    calls, positions = race_cases(300, 8185)
    assert positions >= 300
    wrong = _wrong(calls)
    native, errors = run_race_native(calls), refused(wrong)
    assert all(errors), errors
    script = (RACE_BINDING + inspect.getsource(plain) + inspect.getsource(_unsnap) + inspect.getsource(run_race_native)
              + inspect.getsource(refused) + "\nOUTPUT = json.dumps([run_race_native(calls), refused(wrong)])\n")
    got, got_errors = in_pyodide(site, script, [calls, wrong])
    assert len(got) == len(native) == len(calls)
    for call, want, have in zip(calls, native, got):
        assert have == json.loads(json.dumps(want)), call["op"]      # every answer and every array it wrote
    assert got_errors == errors
    assert {"live", "close", "back", "sweep", "one_hand", "between", "undiff", "place", "find"} <= {c["op"] for c in calls}


PAGE = """
import json
from analyzer.site.worker import SiteApi, site_info
api = SiteApi("/home/pyodide/records")
OUTPUT = json.dumps({"info": site_info(), "answers": [api.answer(r["route"], r["body"])
                                                        for r in json.load(open("/home/pyodide/input.json"))]})
"""

#: Block games of different families the block search serves: partnership (International), a partnership sheet
#: without hands, two players (OpenSpiel's block of seven), three players each for himself (cutthroat), Milo; French
#: domino (the search over arms); a draw game, Quinientos (All Fives' points) and Hungarian (the search of draw games).
RECORDS = ("seed2.dom", "sheet-partnership.dom", "openspiel-block7-1.dom", "match-cutthroat-partner-rules.dom",
           "match-milo.dom", "match-french.dom", "variant-draw.dom", "match-quinientos.dom", "match-hungarian-3.dom")
FAIR = ("seed2.dom", 7)


def _plain(answer: dict) -> dict:
    """An analysis without what names its file (the page's record is ``<board>``)."""
    answer = json.loads(json.dumps(answer))
    for game in answer["games"]:
        game.pop("file", None)
        for d in game.get("diagnostics", ()):
            d.pop("text", None)
    return answer


def _within(want, got, where="") -> None:
    """``got`` holds everything ``want`` holds, equal (the board's API adds words and marks of its own to the
    analysis: a fair verdict's ``how``, each alternative's ``marks``, ...)."""
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        for key, value in want.items():
            assert key in got, f"{where}.{key}"
            _within(value, got[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (x, y) in enumerate(zip(want, got)):
            _within(x, y, f"{where}[{i}]")
    else:
        assert got == want, f"{where}: {got!r} in the page, {want!r} in analyze --json"


def _cli(record: str, *options: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "analyzer", "analyze", "--json", *options, f"records/{record}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_the_pages_analysis_on_the_wasm_core_equals_the_command_lines(site):
    requests = [{"route": "analyze", "body": {"text": (ROOT / "records" / name).read_text(encoding="utf-8")}}
                for name in RECORDS]
    name, seed = FAIR
    requests.append({"route": "analyze", "body": {"text": (ROOT / "records" / name).read_text(encoding="utf-8"),
                                                  "fair": True, "seed": seed}})
    got = in_pyodide(site, PAGE, requests)
    info = got["info"]
    assert info["binding"] == "wasm" and info["compiled"] and "pure-Python" not in info["note"]
    assert info["search"] == "compiled (WebAssembly)"           # every search the site runs
    answers = got["answers"]
    assert all(status == 200 for status, _ in answers), [a for s, a in answers if s != 200]
    for record, (_, answer) in zip(RECORDS, answers):
        want = _cli(record)
        assert want["games"] and any(g["decisions"] for g in want["games"]), record
        _within(_plain(want), _plain(answer), record)
    fair = answers[-1][1]
    want = _cli(name, "--fair", "--seed", str(seed))
    assert any(d.get("fair") for g in want["games"] for d in g["decisions"])
    _within(_plain(want), _plain(fair), name)


def test_kozels_charges_are_searched_on_the_wasm_core_as_on_the_command_line(site):
    """Kozel's charges (a lone [0-0] counting 10, the fish's eggs) are described to the kernels
    (``scoring.describe``: ``COUNT["charged"]``), so the site searches Kozel on ``_core.wasm`` as the command line
    does on the extension: the same analysis, and neither says a search asks Python or runs in pure Python."""
    name = "house-kozel-fence.dom"
    got = in_pyodide(site, PAGE, [{"route": "analyze", "body": {
        "text": (ROOT / "records" / name).read_text(encoding="utf-8")}}])
    status, answer = got["answers"][0]
    assert status == 200
    want = _plain(_cli(name))
    answer = _plain(answer)
    assert want["games"] and any(g["decisions"] for g in want["games"])
    for game in want["games"] + answer["games"]:
        assert "Python" not in (game.get("note") or ""), game.get("note")
    _within(want, answer, name)


CFR_BINDING = """
import json
from analyzer.hidden import cfr
from analyzer.search import wasmcfr
from analyzer.site.worker import site_info
assert cfr.CFR_BINDING == "wasm" and cfr.CFR_CORE == "compiled" and cfr.kernel() is wasmcfr, cfr.CFR_BINDING
from analyzer.hidden import ranges
built = []
_compiled_build = ranges._compiled_build
ranges._compiled_build = lambda module, *a: built.append(module) or _compiled_build(module, *a)
runs, requests = json.load(open("/home/pyodide/input.json"))
"""

#: A block-for-two record whose fair analysis values a decision by CFR+ (move 12: 1 and 2 tiles in hand, 2,040
#: public deals; 0.1 s natively)
CFR_RECORD = ("openspiel-block7-5.dom", 7)


def test_the_wasm_cfr_kernel_in_pyodide_equals_the_extension_and_the_pages_fair_analysis_uses_it(site):
    """In the browser's Python the CFR+ solver runs on ``_cfr.wasm`` (:mod:`analyzer.search.wasmcfr`, picked where the
    extension is missing; the range tree built there too) and the page says so: random runs of both trees give the extension's every double, bit for
    bit (and each broken tree its error), and the page's fair analysis of a block-for-two record whose decision the CFR+ solver values equals
    ``domino analyze --fair --json``'s (its brackets and iteration count too)."""
    from analyzer.hidden.cfr import kernel

    missing = [what for what, gone in (("the _cfr extension", kernel() is None),
                                       ("the _cfr wasm module", wasm_path("cfr") is None)) if gone]
    require_built(missing, "not built (setup.py builds them with a C compiler, clang and lld)")
    runs = cfr_cases(60, 8186)
    made = len(runs)                    # (two trees a block game, one a draw game)
    runs += wrong_cfr(runs)
    native = run_cfr_native(runs, kernel())
    assert native[:made] == [[c.get("got") for c in r["calls"]] for r in runs[:made]]   # (the runs made again)
    assert all(isinstance(x[1], str) for x in native[made:])                           # (and those refused)
    name, seed = CFR_RECORD
    requests = [{"route": "analyze", "body": {"text": (ROOT / "records" / name).read_text(encoding="utf-8"),
                                              "fair": True, "seed": seed}}]
    script = (CFR_BINDING + inspect.getsource(run_cfr_native) + "from analyzer.site.worker import SiteApi\n"
              "api = SiteApi('/home/pyodide/records')\n"
              "OUTPUT = json.dumps([site_info(), run_cfr_native(runs, cfr.kernel()), "
              "[api.answer(r['route'], r['body']) for r in requests], "
              "[getattr(m, '__name__', '') for m in built]])\n")
    info, got, answers, built = in_pyodide(site, script, [runs, requests])
    assert built and set(built) == {"analyzer.search.wasmcfr"}      # (the range tree built in the module too)
    assert info["cfr"] == "wasm" and info["search"] == "compiled (WebAssembly)"
    assert got == native
    (status, answer), = answers
    assert status == 200
    want = _plain(_cli(name, "--fair", "--seed", str(seed)))
    hidden = [d["fair"]["hidden"] for g in want["games"] for d in g["decisions"]
              if d.get("fair") and d["fair"]["method"] == "exact-hidden"]
    assert hidden and all(h["solver"] == "cfr" for h in hidden)
    _within(want, _plain(answer), name)
