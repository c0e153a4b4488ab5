"""The compiled kernels' standalone WebAssembly modules (issue 81: one C kernel, two bindings) against their CPython
extensions: the same values and the same node counts on at least a thousand random positions of every family each
kernel serves, the modules run in Node (tests/wasm/kernels.mjs) once a batch. Where CI builds them
(DOMINO_REQUIRE_COMPILED=1) a missing module or a missing Node fails; elsewhere the tests skip, saying why."""
from __future__ import annotations

import json
import random
import shutil
import struct
import subprocess
from array import array
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

import pytest

from conftest import require_built

from analyzer.analysis import AgainstTheRest
from analyzer.position import Position
from analyzer.rules import find_variant
from analyzer.search import Solver, blockdeal
from analyzer.search.core import SearchLimit, arms_core, compiled_core, draw_core
from analyzer.search.wasm import wasm_path
from analyzer.hidden.walk import legal_bit
from test_core import CASES, _deal

HARNESS = Path(__file__).parent / "wasm" / "kernels.mjs"


def _module(kernel: str, extension) -> Path:
    """The kernel's wasm module and Node, or the test skipped (failed where CI must have them)."""
    missing = [what for what, gone in (("the CPython extension", extension is None),
                                       (f"the {kernel} wasm module", wasm_path(kernel) is None),
                                       ("node", shutil.which("node") is None)) if gone]
    require_built(missing, "not built or not installed (setup.py builds the modules with clang and lld)")
    return wasm_path(kernel)


def run_wasm(kernel: str, cases: list, tmp_path: Path, timed: bool = False) -> list:
    """What the wasm module of ``kernel`` computes for ``cases``, run in Node once (``timed``: and the seconds the
    kernel's calls took there, the module compiled and the cases read before)."""
    module = _module(kernel, True)
    source = tmp_path / f"{kernel}-cases.json"
    source.write_text(json.dumps(cases))
    done = subprocess.run(["node", str(HARNESS), kernel, str(module), str(source)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    return (got["results"], got["seconds"]) if timed else got["results"]


def same_in_wasm(kernel: str, extension, cases: list, run_native, tmp_path: Path) -> list:
    """What the CPython extension computes for ``cases`` (``run_native``), held equal, case by case, to what the wasm
    module of the same kernel computes for them in Node; the extension's results."""
    _module(kernel, extension)
    native = run_native(cases)
    wasm = run_wasm(kernel, cases, tmp_path)
    assert len(wasm) == len(native) == len(cases)
    for case, mine, theirs in zip(cases, wasm, native):
        assert mine == theirs, case
    return native


# -- the block search: _core ---------------------------------------------------------------------------------------

#: the two-ended block variants, each scoring as the core takes it: inline, described (``LeafScoring.ints()``), with
#: pass bonuses; two to four players (a scoring the kernel asks of Python has no wasm counterpart: left out)
CORE_CASES = [case for case in CASES if case[0] != "block"] + [("block", {})]


def _captured(module, getter: str, kind: str, make):
    """What ``make()`` returns while ``module``'s ``getter()`` (``compiled_core``, ...) gives a stand-in of the
    compiled module whose ``kind`` (``BlockDeal``, ...) writes down the arguments it is made with; and those."""
    real, seen = getattr(module, getter)(), {}

    def record(*args):
        seen["args"] = args
        return getattr(real, kind)(*args)

    stand_in = SimpleNamespace(**{name: getattr(real, name) for name in dir(real) if not name.startswith("__")})
    setattr(stand_in, kind, record)
    with mock.patch.object(module, getter, lambda: stand_in):
        made = make()
    return made, seen.get("args")


def core_cases(count: int, seed: int, sizes: tuple[int, int] = (3, 6), played: int = 2) -> list[dict]:
    """``count`` random positions of two-ended block games (every variant of ``CORE_CASES``, hands of ``sizes``
    tiles, 1 to ``played`` moves a tile of a hand played at random), each a deal's arguments and the calls on it:
    MTD(f) in a full or a null window (with a node limit now and then), every move's value (``plays``), the
    principal line, and for deals the kernel scores itself without pass bonuses the worlds of the fair analysis (the
    real deal and others with the same hand sizes)."""
    rng = random.Random(seed)
    variants = [find_variant(name, options) for name, options in CORE_CASES]
    out = []
    while len(out) < count:
        variant = rng.choice(variants)
        size = rng.randint(*sizes) if variant.players == 4 else rng.randint(sizes[0], max(sizes[0], sizes[1] - 1))
        hands, leader = _deal(variant, rng, size)
        pos = Position(hands, leader, max_pip=variant.dealing.max_pip)
        for _ in range(rng.randint(1, played * size)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        moves = pos.legal_moves()
        if not moves or moves[0].tile is None or pos.ends is None:
            continue
        view = variant if variant.seating.sides == 2 else AgainstTheRest(variant, rng.randrange(variant.players))
        solver = Solver(view, core="compiled")
        deal, args = _captured(blockdeal, "compiled_core", "BlockDeal", lambda: solver._deal(pos))
        if args is None or args[6] is not None:          # (not compiled, or a leaf asked of Python)
            continue
        K, e = deal.set_state(pos)
        _, K = solver._paid(deal, pos, K)
        table, n, max_pip, sides, dealt, cu, _, scoring, leader_, bound, most, bonus = args
        state = {"hands": [str(h) for h in deal.hands], "pips": list(deal.pips), "K": str(K), "e": e, "s": pos.turn}
        budget = rng.choice([None, None, None, rng.randint(1, 400)])
        calls = [{"op": "mtdf", **state, "alpha": -(1 << 30), "beta": 1 << 30, "guess": rng.randint(-20, 20),
                  "budget": budget}]
        g = rng.randint(-30, 30)
        calls.append({"op": "mtdf", **state, "alpha": g - 1, "beta": g, "guess": 0, "budget": None})
        a, b = pos.ends
        codes = [[m.tile.index, deal.ends_code(m.tile.other(a), b) if m.end == a else deal.ends_code(a, m.tile.other(b))]
                 for m in moves]
        if bonus is None:
            calls.append({"op": "plays", **state, "moves": codes, "budget": rng.choice([10 ** 6, rng.randint(1, 300)])})
        calls.append({"op": "line", **{k: state[k] for k in ("hands", "pips", "K", "s")}, "a": a, "b": b,
                      "first": rng.randint(0, 15), "value": None, "budget": 10 ** 6, "guess": 0})
        if bonus is None:       # where each move's line ends (the extension's values, now and then one wrong or missing)
            values, _, over = deal.core.plays(list(deal.hands), list(deal.pips), K, e, pos.turn,
                                              [tuple(m) for m in codes], 10 ** 6)
            if not over:
                if rng.random() < 0.3:
                    i = rng.randrange(len(values))
                    values[i] = None if values[i] is None else values[i] + rng.choice([-1, 1])
                if rng.random() < 0.1:
                    values = values[:-1]
                calls.append({"op": "ends", **{k: state[k] for k in ("hands", "pips", "K", "s")}, "a": a, "b": b,
                              "first": rng.randint(0, 15), "values": values,
                              "budget": rng.choice([10 ** 6, 10 ** 6, rng.randint(1, 200)])})
        if bonus is None and scoring is not None or cu in (0, 1) and bonus is None:
            after = [[*((m.tile.other(a), b) if m.end == a else (a, m.tile.other(b))), 0] for m in moves]
            calls.append({"op": "worlds", "deals": [[str(h) for h in d] for d in _worlds(deal, pos, rng)],
                          "K": str(K), "e": e, "s": pos.turn, "moves": codes, "after": after,
                          "budget": rng.choice([10 ** 6, 10 ** 6, rng.randint(50, 2000)])})
        out.append({"entries": rng.choice([256, 4096, 1 << 16]),
                    "deal": {"n": n, "max_pip": max_pip, "sides": list(sides), "dealt": [str(h) for h in dealt],
                             "cu": cu, "scoring": None if scoring is None else list(scoring), "leader": leader_,
                             "bound": bound, "most": most, "bonus": None if bonus is None else list(bonus)},
                    "calls": calls})
    return out


def _worlds(deal, pos, rng) -> list[tuple[int, ...]]:
    """The real deal and two others: the tiles the mover does not hold dealt again to the other seats, each keeping
    its count of tiles (the tiles played stay with the seats that played them)."""
    mover = pos.turn
    played = [d & ~h for d, h in zip(deal.dealt, deal.hands)]
    free = [bit for s, h in enumerate(deal.hands) if s != mover for bit in range(64) if h >> bit & 1]
    worlds = [tuple(deal.dealt)]
    for _ in range(2):
        rng.shuffle(free)
        hands, at = [], 0
        for s, h in enumerate(deal.hands):
            if s == mover:
                hands.append(h)
                continue
            k = bin(h).count("1")
            hands.append(sum(1 << bit for bit in free[at:at + k]))
            at += k
        worlds.append(tuple(p | h for p, h in zip(played, hands)))
    return worlds


def run_core_native(cases: list[dict]) -> list:
    """What the CPython extension ``_core`` computes for ``cases`` (as tests/wasm/kernels.mjs reports it)."""
    core = compiled_core()
    results = []
    for case in cases:
        g = case["deal"]
        table = core.Table(case["entries"])
        deal = core.BlockDeal(table, g["n"], g["max_pip"], g["sides"], [int(h) for h in g["dealt"]], g["cu"], None,
                              g["scoring"], g["leader"], g["bound"], g["most"], g["bonus"])
        got = []
        for c in case["calls"]:
            before = deal.nodes
            hands = [int(h) for h in c.get("hands", [])]
            if c["op"] == "mtdf":
                value = deal.mtdf(hands, c["pips"], int(c["K"]), c["e"], c["s"], c["alpha"], c["beta"], c["guess"],
                                  c["budget"])
                got.append({"value": value, "nodes": deal.nodes - before})
            elif c["op"] == "plays":
                values, states, over = deal.plays(hands, c["pips"], int(c["K"]), c["e"], c["s"],
                                                  [tuple(m) for m in c["moves"]], c["budget"])
                got.append({"values": values, "states": str(states), "over": over, "nodes": deal.nodes - before})
            elif c["op"] == "line":
                steps, states, over, ends = deal.line(hands, c["pips"], int(c["K"]), c["a"], c["b"], c["s"],
                                                      c["first"], c["value"], c["budget"], c["guess"])
                got.append({"steps": [list(x) for x in steps], "states": str(states), "over": over,
                            "ends": list(ends), "nodes": deal.nodes - before})
            elif c["op"] == "ends":
                try:
                    ends = deal.ends(hands, c["pips"], int(c["K"]), c["a"], c["b"], c["s"], c["first"], c["values"],
                                     c["budget"])
                except ValueError as e:
                    got.append({"error": str(e)})
                    continue
                got.append({"ends": [None if x is None else [[str(h) for h in x[0]], x[1], x[2], list(x[3])]
                                     for x in ends], "nodes": deal.nodes - before})
            else:
                values, over, lines = deal.worlds([[int(h) for h in d] for d in c["deals"]], int(c["K"]), c["e"],
                                                  c["s"], [tuple(m) for m in c["moves"]], c["budget"],
                                                  [tuple(x) for x in c["after"]])
                got.append({"values": values, "over": over,
                            "lines": [None if row is None else
                                      [None if x is None else [[list(s) for s in x[0]], list(x[1])] for x in row]
                                      for row in lines],
                            "nodes": deal.nodes - before})
        results.append(got)
    return results


def test_the_wasm_block_search_equals_the_extension_on_a_thousand_random_positions(tmp_path):
    cases = core_cases(1000, 81)
    calls = [c["op"] for case in cases for c in case["calls"]]
    assert {"mtdf", "plays", "line", "worlds", "ends"} <= set(calls)
    native = same_in_wasm("core", compiled_core(), cases, run_core_native, tmp_path)
    ends = [c for got in native for c in got if "ends" in c]
    assert any(x is not None for c in ends for x in c["ends"]) and any(None in c["ends"] for c in ends)
    assert any("error" in c for got in native for c in got)
    searched = sum(c.get("nodes", 0) for got in native for c in got)
    assert searched > 100_000          # (real searches, not trivial ones)
    # the families are all there: each scoring, two to four seats, limits reached and not
    assert {case["deal"]["n"] for case in cases} == {2, 3, 4}
    assert any(case["deal"]["bonus"] for case in cases) and any(case["deal"]["scoring"] for case in cases)
    assert any(c["value"] is None for got in native for c in got if "value" in c)


# -- the search over layouts with arms: _arms ----------------------------------------------------------------------

def arms_cases(count: int, seed: int) -> list[dict]:
    """``count`` random states of layouts with arms where the search over arms takes over (every family of
    tests/test_arms_core.py's ``ARMS``: the French spinner, the cross with and without sleepers, double-six and
    double-nine; each view, two sides or one seat against the rest), each the search's arguments and the calls on
    it: the state's value in a full window (with a node limit now and then) and in a null window, and its principal
    line from that value."""
    from analyzer.search import TreeSearch, tree
    from test_arms_core import ARMS, arm_states
    from test_search import rules_for

    rng = random.Random(seed)
    families = [(find_variant(name, options), size, lead, sleepers) for name, options, size, lead, sleepers in ARMS]
    states = [arm_states(variant, rng, size, lead, sleepers, 10 ** 9) for variant, size, lead, sleepers in families]
    out = []
    while len(out) < count:
        k = rng.randrange(len(families))
        variant = families[k][0]
        pos = next(states[k])
        view = rules_for(variant, rng.randrange(variant.players) if variant.seating.sides > 2 else 0)
        search = TreeSearch(view, core="compiled")
        _, args = _captured(tree, "arms_core", "ArmSearch", lambda: search._arm_deal(pos))
        n, max_pip, french, branch, maximiser, opponent, mode, param, sides, _, _, described, leader = args
        if mode == 2:                   # (a leaf asked of Python: no wasm counterpart)
            continue
        hands = [str(h) for h in pos.hands]
        from analyzer.search.tree import _STATE_CODE
        codes = [(a.number << 2) | _STATE_CODE[a.state] for a in pos.arms]
        g = rng.randint(-40, 40)
        out.append({"entries": rng.choice([64, 1024, 1 << 16]),
                    "search": {"n": n, "max_pip": max_pip, "french": int(french), "branch": int(branch),
                               "maximiser": list(maximiser), "opponent": list(opponent), "scoring": mode,
                               "param": param, "sides": list(sides), "described": described and list(described),
                               "leader": leader},
                    "calls": [{"op": "search", "hands": hands, "arms": sorted(codes), "s": pos.turn,
                               "alpha": -(1 << 30), "beta": 1 << 30,
                               "budget": rng.choice([10 ** 7, 10 ** 7, rng.randint(1, 300)])},
                              {"op": "search", "hands": hands, "arms": sorted(codes), "s": pos.turn, "alpha": g - 1,
                               "beta": g, "budget": 10 ** 7},
                              {"op": "line", "hands": hands, "arms": codes, "s": pos.turn, "value": None,
                               "limit": rng.choice([10 ** 7, rng.randint(1, 300)]), "spent": rng.randint(0, 3)}]})
    return out


def run_arms_native(cases: list[dict]) -> list:
    """What the CPython extension ``_arms`` computes for ``cases`` (as tests/wasm/kernels.mjs reports it); a line's
    value is the first call's (a state whose value was not found has no line call)."""
    results = []
    for case in cases:
        g = case["search"]
        core = arms_core().ArmSearch(g["n"], g["max_pip"], g["french"], g["branch"], g["maximiser"], g["opponent"],
                                     g["scoring"], g["param"], g["sides"], None, case["entries"], g["described"],
                                     g["leader"])
        got = []
        for c in case["calls"]:
            hands = tuple(int(h) for h in c["hands"])
            if c["op"] == "search":
                value, nodes = core.search(hands, tuple(c["arms"]), c["s"], c["alpha"], c["beta"], c["budget"])
                got.append({"value": value, "nodes": nodes})
            elif got[0]["value"] is not None:
                steps, nodes, after = core.line(hands, tuple(c["arms"]), c["s"], got[0]["value"], c["limit"],
                                                c["spent"])
                got.append({"steps": steps and [list(x) for x in steps], "nodes": nodes, "after": after})
        results.append(got)
    return results


def test_the_wasm_search_over_arms_equals_the_extension_on_a_thousand_random_states(tmp_path):
    cases = arms_cases(1000, 81)
    native = same_in_wasm("arms", arms_core(), cases, run_arms_native, tmp_path)
    assert sum(c["nodes"] for got in native for c in got) > 20_000
    assert {(case["search"]["max_pip"], case["search"]["french"], case["search"]["scoring"]) for case in cases} >= {
        (6, 1, 1), (6, 0, 0), (9, 0, 0)}
    assert any(c.get("steps") for got in native for c in got) and any(c["value"] is None for got in native
                                                                        for c in got if "value" in c)


# -- the search of draw games, All Fives and Hungarian: _draw -------------------------------------------------------

class _Recorded:
    """A compiled ``DrawSearch`` whose calls are written down (their name and arguments), in order."""

    def __init__(self, core, args):
        self.core, self.args, self.calls = core, args, []

    def __getattr__(self, name):
        found = getattr(self.core, name)
        if name not in ("search", "line", "ends", "worlds"):
            return found

        def call(*args):
            self.calls.append((name, args))
            return found(*args)
        return call


def _recording(log: list):
    """A stand-in for ``draw_core()`` whose searches are :class:`_Recorded`, each added to ``log``."""
    real = draw_core()

    class Recorder:
        @staticmethod
        def DrawSearch(*args):
            log.append(_Recorded(real.DrawSearch(*args), args))
            return log[-1]
    return lambda: Recorder


def _json_call(name: str, args: tuple) -> dict:
    """A recorded call as tests/wasm/kernels.mjs takes it (the masks as decimal strings)."""
    if name == "worlds":
        hands, orders, mover, k, roots, limit, *lines = args
        return {"op": name, "hands": [[str(h) for h in w] for w in hands], "orders": [[str(t) for t in o]
                                                                                      for o in orders],
                "mover": mover, "k": k, "roots": [list(r) for r in roots], "limit": limit, "lines": bool(lines and
                                                                                                        lines[0])}
    hands, *rest = args
    call = {"op": name, "hands": [str(h) for h in hands], "state": list(rest[:12])}
    if name == "search":
        call.update(alpha=rest[12], beta=rest[13], budget=rest[14])
    elif name == "line":
        call.update(value=rest[12], limit=rest[13], spent=rest[14])
    else:
        call.update(value=rest[12], values=rest[13], limit=rest[14])
    return call


def draw_cases(count: int, seed: int) -> list[dict]:
    """At least ``count`` random decisions of draw games, All Fives and Hungarian (every family of
    tests/test_draw_core.py: ``FAMILIES``, ``HUNGARIAN`` and the scorings of ``NEWLY_WRITTEN``; each view), each one
    compiled search and every call the analysis made on it: the decision's values, its principal line and where the
    lines end (``TreeSearch.values``, ``best_line``, ``draw.ends_at``), and the fair analysis's worlds with their lines (``DrawWorlds.lines``;
    the other hands dealt again, the boneyard as it lies). A search whose scoring is asked of Python is left out (no
    wasm counterpart)."""
    from analyzer.search import TreeSearch, draw as draw_module, drawworlds
    from test_draw_core import FAMILIES, HUNGARIAN, NEWLY_WRITTEN, _other_deals
    from test_search import rules_for, small_deal

    rng = random.Random(seed)
    families = ([(find_variant(name, options), size, lead, yard) for name, options, size, lead, yard in FAMILIES
                 + HUNGARIAN] + list(NEWLY_WRITTEN))
    out, decisions = [], 0
    saved = draw_module.draw_core, drawworlds.draw_core
    try:
        while decisions < count:
            variant, size, lead, yard = rng.choice(families)
            pos = small_deal(variant, rng, size, lead, yard)
            while pos.outcome() is None and decisions < count:
                moves = pos.legal_moves()
                if len(moves) > 1 and rng.random() < 0.5:
                    rules = rules_for(variant, rng.randrange(variant.players) if variant.seating.sides > 2 else 0)
                    log = []
                    draw_module.draw_core = drawworlds.draw_core = _recording(log)
                    search = TreeSearch(rules, core="compiled", node_limit=rng.choice([10 ** 7, 10 ** 7, 40]))
                    try:
                        values = [v for _, v in search.values(pos)]
                        search.best_line(pos)
                        best = (max if rules.seating.teams[pos.turn] == 0 else min)(values)
                        draw_module.ends_at(search, pos, best)
                        draw_module.ends_at(search, pos, best, values)
                    except SearchLimit:
                        pass
                    worlds = [(h, tuple(t.bit for t in getattr(pos, "order", ()))) for h in _other_deals(pos, rng, 2)]
                    try:
                        drawworlds.DrawWorlds(rules, node_limit=rng.choice([10 ** 7, 100])).lines(pos, worlds)
                    except SearchLimit:
                        pass
                    draw_module.draw_core, drawworlds.draw_core = saved
                    kept = [r for r in log if r.args[7] is not None and r.calls]
                    decisions += bool(kept)
                    for r in kept:
                        n, max_pip, order, limit, until, scores, maximiser, described, _, entries, leader, *more = r.args
                        bound = more[0] if more else None
                        out.append({"search": {"n": n, "max_pip": max_pip, "order": [str(t) for t in order],
                                               "limit": limit, "until": until, "scores": scores,
                                               "maximiser": list(maximiser), "described": list(described),
                                               "entries": entries, "leader": leader,
                                               "bound": None if bound is None else list(bound),
                                               "run": bool(more[1]) if len(more) > 1 else False},
                                    "calls": [_json_call(name, args) for name, args in r.calls]})
                pos.push(rng.choice(moves))
    finally:
        draw_module.draw_core, drawworlds.draw_core = saved
    return out


def _plain(x):
    """A result as JSON has it (tuples as lists)."""
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    return x


def run_draw_native(cases: list[dict]) -> list:
    """What the CPython extension ``_draw`` computes for ``cases`` (as tests/wasm/kernels.mjs reports it)."""
    results = []
    for case in cases:
        g = case["search"]
        core = draw_core().DrawSearch(g["n"], g["max_pip"], [int(t) for t in g["order"]], g["limit"], g["until"],
                                      g["scores"], g["maximiser"], g["described"], None, g["entries"], g["leader"],
                                      None if g["bound"] is None else tuple(g["bound"]), g["run"])
        got = []
        for c in case["calls"]:
            if c["op"] == "worlds":
                found = core.worlds([[int(h) for h in w] for w in c["hands"]], [[int(t) for t in o] for o in c["orders"]],
                                    c["mover"], c["k"], c["roots"], c["limit"], c["lines"])
                got.append(_plain(found))
                continue
            hands = tuple(int(h) for h in c["hands"])
            if c["op"] == "search":
                got.append(_plain(core.search(hands, *c["state"], c["alpha"], c["beta"], c["budget"])))
            elif c["op"] == "line":
                got.append(_plain(core.line(hands, *c["state"], c["value"], c["limit"], c["spent"])))
            else:
                found = core.ends(hands, *c["state"], c["value"], c["values"], c["limit"])
                ends = [found] if c["values"] is None else found
                n = g["n"]
                got.append([None if e is None else [*(str(h) for h in e[:n]), *e[n:]] for e in ends])
        results.append(got)
    return results


def test_the_wasm_search_of_draw_games_equals_the_extension_on_a_thousand_random_decisions(tmp_path):
    cases = draw_cases(1000, 81)
    native = same_in_wasm("draw", draw_core(), cases, run_draw_native, tmp_path)
    ops = {c["op"] for case in cases for c in case["calls"]}
    assert ops == {"search", "line", "ends", "worlds"}, ops
    searched = [got for case, result in zip(cases, native) for c, got in zip(case["calls"], result)
                if c["op"] == "search"]
    assert sum(nodes for _, nodes in searched) > 20_000 and any(value is None for value, _ in searched)
    assert {case["search"]["run"] for case in cases} == {False, True}
    assert {case["search"]["scores"] >= 0 for case in cases} == {False, True}


# -- the race solver of the match tables: _race --------------------------------------------------------------------

def _snap(x):
    """An argument of a ``_race`` call as JSON holds it: an array with its type code, a tuple, a number."""
    if isinstance(x, (array, bytearray, bytes, memoryview)):
        view = memoryview(x)
        return {"t": "B" if view.format in ("B", "c") else view.format, "v": view.cast("B").tolist()
                if view.format == "c" else view.tolist()}
    if isinstance(x, tuple):
        return {"tuple": list(x)}
    return x


def _unsnap(x):
    if isinstance(x, dict) and "t" in x:
        return array(x["t"], x["v"])
    if isinstance(x, dict):
        return tuple(x["tuple"])
    return x


class _RaceRecorder:
    """``_race`` whose calls are written down (their name and a copy of their arguments), in order."""

    def __init__(self, real):
        self.real, self.calls = real, []

    def __getattr__(self, name):
        found = getattr(self.real, name)

        def call(*args):
            self.calls.append({"op": name, "args": [_snap(a) for a in args]})
            return found(*args)
        return call


def race_cases(count: int, seed: int) -> tuple[list[dict], int]:
    """Calls of the race solver's loops on random races until their positions number at least ``count`` (each
    family of tests/test_equity_race.py's ``RACES``: Hungarian's bad points, All Fives for three and four, All
    Fives and Threes, the draw game; random small targets and models of hand results, a lattice now and then): each
    race solved (``live``, ``close``, ``back``, ``reached``, ``sweep``), a position one hand from it with a known
    leader (``one_hand``) and a hand between a lattice's points (``between``); and the shipped tables' readers on
    random numbers (``undiff``, ``place``, ``find``). Returns the calls and the positions solved."""
    from analyzer.equity import race as race_module
    from analyzer.equity.model import HandModel, ModeSample, Outcome
    from analyzer.equity.race import dump_values, load_values, race_arrays, side_leads_results, solve_race
    from analyzer.equity.table import hand_rows, state_key
    from test_equity_race import RACES, _race, _state

    rng = random.Random(seed)
    recorder = _RaceRecorder(race_module._race)
    solved_positions = races = 0
    saved = race_module._race
    race_module._race = recorder
    try:
        while solved_positions < count or races < 30:
            name, rules = rng.choice(RACES)
            lattice = rng.random() < 0.3 and name in ("hungarian", "draw")
            step = 5 if name == "all-fives" else 1
            if lattice:
                step = rng.randint(2, 4)
                v = _race(name, rules, rng.randint(5, 14) if name == "hungarian" else rng.randint(2, 4) * step)
            else:
                v = _race(name, rules, rng.randint(2, 5) * step)
            target, sides = v.match.target, v.seating.sides
            outcomes = Counter()
            for _ in range(rng.randint(1, 6)):
                points = target + 1 if lattice else target // step + 1
                scores = tuple(rng.randint(0, points) * (1 if lattice else step) for _ in range(sides))
                nxt = rng.choice([("any",)] * 3 + [("side", r) for r in range(sides)] * (not lattice))
                void = rng.random() < 0.5 and not any(scores)
                outcomes[Outcome(None, 0, scores, "" if void else "domino", void, nxt)] += rng.randint(1, 4)
            model = HandModel(v.name, dict(v.options), {"open": ModeSample(sum(outcomes.values()), outcomes)})
            solved = solve_race(v, model, race_arrays(v, model, lattice=step if lattice else None))
            solved_positions += len(solved)
            races += 1
            for _ in range(3):          # a known leader one hand from the race's positions
                seat = rng.randrange(sides)
                lead = ("side", seat)
                real = tuple(rng.randint(0, target - 1) for _ in range(sides))
                if lattice:             # (at real running scores, between the lattice's points)
                    key = (state_key(v, _state(real)), lead)
                    if lead not in solved.arrays.leads:
                        solved.after_hand(hand_rows(v, model, key, {}))
                    continue
                again = load_values(dump_values(solved, side_leads_results(v, model, solved.arrays)))
                scores = tuple(x // solved.arrays.step * solved.arrays.step for x in real)
                if again.led(lead) is not None and solved.arrays.point(scores) is not None:
                    again.one_hand(((scores, *solved.arrays.rest), lead), again.led(lead))
    finally:
        race_module._race = saved
    calls = recorder.calls
    for _ in range(20):                 # the shipped tables' readers: numbers packed as differences, and placed
        dims = tuple(rng.randint(1, 5) for _ in range(rng.randint(1, 4)))
        size = 1
        for d in dims:
            size *= d
        calls.append({"op": "undiff", "args": [_snap(array("I", (rng.getrandbits(32) for _ in range(size * 2)))),
                                               {"tuple": list(dims)}]})
        leads, sides, points = rng.randint(1, 3), rng.randint(2, 4), rng.randint(1, 30)
        calls.append({"op": "place", "args": [_snap(array("i", (rng.randint(0, 1 << 20)
                                                                for _ in range(points * leads * (sides - 1))))),
                                              _snap(array("d", [0.0] * (points * leads * sides))), leads, sides,
                                              float(1 << 20)]})
        columns, rows = rng.randint(1, 4), rng.randint(1, 40)
        firsts = [rng.randint(1, 9) for _ in range(rows)]
        block = array("i", firsts + [rng.randint(-1000, 1000) for _ in range(rows * (columns - 1))])
        n = sum(firsts[:rng.randint(1, rows)]) if rng.random() < 0.7 else rng.randint(0, sum(firsts) + 3)
        calls.append({"op": "find", "args": [_snap(array("B", block.tobytes())), columns, n]})
    return calls, solved_positions


def run_race_native(calls: list[dict]) -> list:
    """What the CPython extension ``_race`` computes for ``calls``: each call's answer and its array arguments
    after it (as tests/wasm/kernels.mjs reports them)."""
    from analyzer.equity.race import _race    # (the extension itself: the race solver's compiled loops)

    out = []
    for c in calls:
        args = [_unsnap(a) for a in c["args"]]
        got = getattr(_race, c["op"])(*args)
        out.append({"result": _plain(got), "after": [a.tolist() for a in args if isinstance(a, array)]})
    return out


def test_the_wasm_race_solver_equals_the_extension_on_a_thousand_random_positions(tmp_path):
    from analyzer.equity.race import _race

    calls, positions = race_cases(1000, 81)
    assert positions >= 1000
    native = same_in_wasm("race", _race, calls, run_race_native, tmp_path)
    ops = {c["op"] for c in calls}
    assert {"live", "close", "back", "sweep", "one_hand", "between", "undiff", "place", "find"} <= ops, ops
    for op in ("one_hand", "between", "find"):
        assert any(got["result"] is not None for call, got in zip(calls, native) if call["op"] == op), op


# -- the CFR+ kernel of the hidden-information solver: _cfr --------------------------------------------------------

def _bits(values, item: int) -> list:
    """An array as JSON carries it to tests/wasm/kernels.mjs: ints as they are, doubles as their 64 bits (hex; a
    binding's ``bytes`` of doubles, as ``average()`` gives them, read as doubles)."""
    if isinstance(values, bytes):
        values = memoryview(values).cast("d")
    return [struct.pack("<d", v).hex() for v in values] if item == 8 else list(values)


class _CfrRecorder:
    """A stand-in for the compiled CFR+ module whose runs are written down: the arrays each was made of, and each call
    on it with its answer (doubles as their bits)."""

    def __init__(self, real):
        self.real, self.runs, self.made = real, [], []
        self.Run = lambda *args: self._made("Run", args)
        self.RangeRun = lambda *args: self._made("RangeRun", args)

    def _made(self, kind: str, args: tuple):
        from analyzer.search.wasmcfr import DEAL_ITEMS, RANGE_ARRAYS, RANGE_ITEMS

        run = getattr(self.real, kind)(*args)
        if kind == "Run":
            arrays = [*args[0:2], *args[4:14], *args[15:21]]
            numbers = {"nh0": args[2], "nh1": args[3], "size": args[14]}
        else:
            arrays = list(args[:len(RANGE_ARRAYS)])
            numbers = {"nh0": 0, "nh1": 0, "size": args[len(RANGE_ARRAYS)]}
        items = DEAL_ITEMS if kind == "Run" else RANGE_ITEMS
        record = {"range": int(kind == "RangeRun"), "items": items, **numbers, "forced": list(args[-2:]),
                  "arrays": [_bits(a, int(i)) for a, i in zip(arrays, items)],
                  "calls": [{"op": "held", "got": run.held()}]}       # (the bytes its set-up allocated)
        self.runs.append(record)
        self.made.append(_CfrCalls(run, record["calls"]))
        return self.made[-1]


class _CfrCalls:
    def __init__(self, run, calls):
        self.run, self.calls = run, calls

    def iterate(self, count):
        self.run.iterate(count)
        self.calls.append({"op": "iterate", "count": count})

    def threads(self, count):
        got = self.run.threads(count)
        self.calls.append({"op": "threads", "count": count, "got": got})
        return got

    def force(self, forced_set, forced_move, keep=False):
        self.run.force(forced_set, forced_move, keep)
        self.calls.append({"op": "force", "set": forced_set, "move": forced_move, "keep": int(keep)})

    def bracket(self):
        got = self.run.bracket()
        self.calls.append({"op": "bracket", "got": _bits(got, 8)})
        return got

    def hand_values(self):
        got = self.run.hand_values()
        self.calls.append({"op": "hand_values", "got": _bits(got, 8)})
        return got

    def average(self):
        got = self.run.average()
        self.calls.append({"op": "average", "got": _bits(got, 8)})
        return got

    def set_average(self, i, width):
        call = {"op": "set_average", "set": i, "width": width}
        self.calls.append(call)
        try:
            got = self.run.set_average(i, width)
        except ValueError as e:
            call["got"] = [1, str(e)]
            raise
        call["got"] = _bits(got, 8)
        return got


def _public_game(rng):
    """A random position of the block game for two a few moves in, and the hands each player may hold by what he
    has seen (every hand of his count from the tiles he has not seen: his own, the other's, a sleeper or two)."""
    from itertools import combinations

    from analyzer.rules.mechanics import position_for
    from analyzer.tiles import tile_set

    rules = find_variant("block", {"players": "2"})
    while True:
        max_pip = rng.choice([3, 4, 5, 6])
        tiles = list(tile_set(max_pip))
        rng.shuffle(tiles)
        size, moves = rng.choice([(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (2, 3)])
        a, b = tiles[:size + (moves + 1) // 2], tiles[size + (moves + 1) // 2:2 * size + moves]
        if len(b) != size + moves // 2:
            continue
        pos = position_for(rules, [a, b], 0, max_pip=max_pip)
        for _ in range(moves):
            legal = pos.legal_moves()
            if not legal or legal[0].tile is None:
                break
            pos.push(rng.choice(legal))
        else:
            counts = [pos.count(0), pos.count(1)]
            if pos.outcome() is not None or not pos.legal_moves() or pos.legal_moves()[0].tile is None:
                continue
            unseen = tiles[2 * size + moves:][:rng.choice([0, 0, 1] if size > 1 else [0, 1, 2])]
            pool = [bit for h in pos.hands for bit in range(64) if h >> bit & 1] + [t.index for t in unseen]
            hands = [sorted(sum(1 << bit for bit in c) for c in combinations(pool, counts[s])) for s in (0, 1)]
            return rules, pos, hands


def cfr_cases(count: int, seed: int, most: tuple[int, ...] = (20, 100, 300)) -> list[dict]:
    """``count`` random positions of the block game for two (1 or 2 tiles a hand, a few moves in, a sleeper or two
    unseen), each solved as the fair analysis solves it, on both forms of the tree: over the deals (every disjoint pair
    of the players' possible hands, now and then weighted at random) and over the hands (each hand weighing 1, or now
    and then at random with many weighing nothing: hands that reach nothing from the root), the
    game or a move of the mover's hand held to one legal move (a forced set; now and then after the game's solve on the
    same run, as a decision's moves are solved), CFR run until its bracket closes to a
    width drawn at random or a count of iterations drawn from ``most``: every call on the extension's runs, with its
    answer. One in eight is instead the draw game for two of the double-three set with 2 tiles still to draw (the tree
    over deals with its draw nodes: a few deals of test_hidden_draw's, weighted at random; or, half of those, the tree
    over the hands with its draw nodes, each hand weighted at random)."""
    from analyzer.hidden import cfr
    from analyzer.hidden.ranges import build_ranges
    from test_hidden_draw import DRAW, EARLY, _hand_lists, early

    rng = random.Random(seed)
    recorder = _CfrRecorder(cfr.kernel())
    with mock.patch.object(cfr, "kernel", lambda: recorder):
        for _ in range(count):
            if rng.random() < 0.125:
                if rng.random() < 0.5:
                    deals = [early(*d) for d in rng.sample(EARLY, rng.randint(2, 5))]
                    tree = cfr.build_tree(DRAW, [tuple(p.hands) for p in deals], rng.choice([0, 1]),
                                          [rng.randint(1, 4) for _ in deals], deals[0])
                else:                                    # (the same over the hands: its draw nodes' pairs)
                    hands, weights, deals, _ = _hand_lists(rng)
                    tree = build_ranges(DRAW, deals[0], 0, hands, weights=weights, compiled=False)
                got = cfr.solve(tree, tol=rng.choice([1e-3, 1e-5, 1e-7]), budget=600, max_iterations=rng.choice(most),
                                compiled=True, every=rng.choice([1, 10]), average=_root_set(tree))
                recorder.runs[-1]["iterations"] = got.iterations
                _read_averages(recorder.made[-1], tree, rng)
                continue
            rules, pos, hands = _public_game(rng)
            mover = pos.turn
            deals = [(x, y) if mover == 0 else (y, x) for x in hands[mover] for y in hands[1 - mover] if not x & y]
            weights = [rng.randint(1, 5) for _ in deals] if rng.random() < 0.3 else None
            by_hand = None
            if rng.random() < 0.3:                       # (hands weighing nothing: their reach 0 from the root)
                by_hand = [[rng.choice([0, 0, 1, 2, 5]) for _ in hands[s]] for s in (mover, 1 - mover)]
                x, y = rng.choice([(x, y) for x in hands[mover] for y in hands[1 - mover] if not x & y])
                by_hand[0][hands[mover].index(x)] = by_hand[1][hands[1 - mover].index(y)] = 1   # (a deal weighing)
            trees = [cfr.build_tree(rules, deals, mover, weights, pos),
                     build_ranges(rules, pos, mover, (hands[mover], hands[1 - mover]), weights=by_hand)]
            t = rng.choice(trees) if rng.random() < 0.5 else None
            for tree in trees:
                tol = rng.choice([1e-3, 1e-5, 1e-7])
                limit = rng.choice(most)
                forced = None
                if tree is t:                            # (a forced set: the mover's hand held to one legal move)
                    i = tree.iset_at[0]
                    legal = [a for a in range(tree.child_at[1] - tree.child_at[0])
                             if legal_bit(tree.legal, tree.slot[i] + a)]
                    forced = (i, rng.choice(legal))
                every = rng.choice([1, 10])
                if forced is not None and rng.random() < 0.5:     # (as a decision: the game first, then the move on
                    run = cfr.start_run(tree, None, compiled=True)  # the same run, its regrets the warm start)
                    cfr.solve(tree, tol=tol, budget=600, max_iterations=limit, every=every, run=run)
                    got = cfr.solve(tree, tol=tol, budget=600, forced=forced, max_iterations=limit, every=every,
                                    run=run)
                else:
                    got = cfr.solve(tree, tol=tol, budget=600, forced=forced, max_iterations=limit, compiled=True,
                                    every=every, average=_root_set(tree))
                recorder.runs[-1]["iterations"] = got.iterations
                _read_averages(recorder.made[-1], tree, rng)
    return recorder.runs


def _root_set(tree):
    """The first information set at the root and its node's count of moves (what a decision reads), or None."""
    if tree.iset_at[1] == tree.iset_at[0]:
        return None
    return tree.iset_at[0], tree.child_at[1] - tree.child_at[0]


def _read_averages(run, tree, rng) -> None:
    """The whole average of a solved run, one information set's drawn at random (by its node's moves, now and then
    more), and now and then a call the kernel refuses: a set that is none, too few moves for a set's legal ones."""
    from bisect import bisect_right

    run.average()
    sets = len(tree.iset_hand)
    if not sets:
        return
    i = rng.randrange(sets)
    n = bisect_right(tree.iset_at, i) - 1
    run.set_average(i, tree.child_at[n + 1] - tree.child_at[n] + rng.choice([0, 0, 0, 2]))
    if rng.random() < 0.2:
        for bad in ((rng.choice([-1, sets]), 1), (i, 0)):
            try:
                run.set_average(*bad)
            except ValueError:
                pass


def run_cfr_native(runs: list[dict], module) -> list:
    """Each recorded CFR+ run (:func:`cfr_cases`) made again on ``module`` (the extension ``analyzer.hidden._cfr``, or
    its wasm binding in Pyodide) from its arrays and called as it was recorded: each answer's doubles as their bits
    (hex), an iteration's None; a run refused, ``[its error's kind, its text]`` (as tests/wasm/kernels.mjs reports
    them)."""
    import struct
    from array import array

    out = []
    for r in runs:
        arrays = [array("d", [struct.unpack("<d", bytes.fromhex(v))[0] for v in a]) if item == "8"
                  else array({"4": "i", "2": "H", "1": "B"}[item], a) for a, item in zip(r["arrays"], r["items"])]
        forced = r["forced"]
        try:
            if r["range"]:
                run = module.RangeRun(*arrays, r["size"], *forced)
            else:
                run = module.Run(*arrays[:2], r["nh0"], r["nh1"], *arrays[2:12], r["size"], *arrays[12:], *forced)
        except ValueError as e:
            out.append([1, str(e)])
            continue
        got = []
        for c in r["calls"]:
            if c["op"] == "iterate":
                run.iterate(c["count"])
                got.append(None)
            elif c["op"] == "force":
                run.force(c["set"], c["move"], c.get("keep", 0))
                got.append(None)
            elif c["op"] == "threads":
                got.append(run.threads(c["count"]))
            elif c["op"] == "held":
                got.append(run.held())
            elif c["op"] == "set_average":
                try:
                    values = memoryview(run.set_average(c["set"], c["width"])).cast("d")
                except ValueError as e:
                    got.append([1, str(e)])
                    continue
                got.append([struct.pack("<d", v).hex() for v in values])
            else:
                values = getattr(run, c["op"])()
                values = memoryview(values).cast("d") if isinstance(values, bytes) else values   # (average's bytes)
                got.append([struct.pack("<d", v).hex() for v in values])
        out.append(got)
    return out


def wrong_cfr(runs: list[dict]) -> list[dict]:
    """Runs the kernel refuses, made from the first recorded run of each tree: an array too short for the others, a
    node's list past its array, a node's list running backwards, a hand out of range, a deal's hand out of range
    (deals), a mask negative and a value table past its array (hands); and a set held to a move its hand may not
    make."""
    import copy
    from analyzer.search.wasmcfr import DEAL_ARRAYS, RANGE_ARRAYS

    out = []

    def changed(run, name, change):
        names = RANGE_ARRAYS if run["range"] else DEAL_ARRAYS
        bad = copy.deepcopy(run)
        bad["calls"] = []
        k = names.index(name)
        bad["arrays"][k] = change(bad["arrays"][k])
        out.append(bad)

    deal = next(r for r in runs if not r["range"] and len(r["arrays"][2]) > 3)
    hands = next(r for r in runs if r["range"] and len(r["arrays"][4]) > 3 and any(r["arrays"][20]))
    draws = next(r for r in runs if not r["range"] and r["arrays"][DEAL_ARRAYS.index("parent0")])
    changed(draws, "parent0", lambda a: a[:-1] + [len(a)])          # (a hand drawn from one after it)
    changed(draws, "parent1", lambda a: a[:-1])                     # (a parent array too short)
    over = next(r for r in runs if r["range"] and r["arrays"][RANGE_ARRAYS.index("draw_child")])
    changed(over, "draw_parent", lambda a: [2 ** 16 - 1, *a[1:]])   # (a drawn hand out of range)
    changed(over, "draw_at", lambda a: a[:-1])                      # (the draws' starts too short)
    for run in (deal, hands):
        changed(run, "mask1" if run["range"] else "hand1", lambda a: a[:-1])
        changed(run, "child_at", lambda a: a[:-1] + [a[-1] + 1000])
        changed(run, "child_at", lambda a: [a[0], a[2] + 1, *a[2:]])
        changed(run, "iset_hand", lambda a: [2 ** 16 - 1, *a[1:]])       # (past the hands: 16 bits)
    changed(deal, "hand0", lambda a: [-1, *a[1:]])
    changed(hands, "mask0", lambda a: [-1, *a[1:]])
    changed(hands, "table_at", lambda a: [x + 10 ** 6 for x in a])
    for run in runs:            # a set held to a move its hand may not make
        names = RANGE_ARRAYS if run["range"] else DEAL_ARRAYS
        iset_at, slot, legal, child_at = (run["arrays"][names.index(k)] for k in ("iset_at", "slot", "legal",
                                                                                   "child_at"))
        illegal = [(i, a) for i in range(iset_at[0], iset_at[1]) for a in range(child_at[1] - child_at[0])
                   if not legal_bit(legal, slot[i] + a)]
        if illegal:
            out.append({**copy.deepcopy(run), "calls": [], "forced": list(illegal[0])})
            break
    return out


@pytest.mark.slow          # (some 5 s of processor time: 2,000 trees built in Python, the runs in Node)
def test_the_wasm_cfr_kernel_equals_the_extension_bit_for_bit_on_a_thousand_random_positions(tmp_path):
    """Each CFR+ run the solver makes on a thousand random block-for-two positions, over deals and over hands, made
    again in the wasm module in Node from the same arrays and called as the extension was: every bracket, hand value
    and average the same double, bit for bit (the same C, IEEE doubles, no fused multiply-add on either side: x86-64's
    baseline and wasm32 have none), so the solver stops after the same iterations; each run's set-up allocates the same
    bytes (``held``: what ``memory()`` counts, tests/test_range_build.py); and the runs the extension refuses the
    module refuses, with the same words."""
    from analyzer.hidden.cfr import kernel

    _module("cfr", kernel())
    runs = cfr_cases(1000, 81)
    assert run_cfr_native(runs[:50], kernel()) == [[c.get("got") for c in r["calls"]] for r in runs[:50]]
    wrong = wrong_cfr(runs)
    refused = run_cfr_native(wrong, kernel())
    assert all(isinstance(x[1], str) for x in refused), refused
    assert len({x[1] for x in refused}) >= 7               # (each a check of its own)
    wasm = run_wasm("cfr", runs + wrong, tmp_path)
    assert len(wasm) == len(runs) + len(wrong) and len(runs) > 1_800        # (two trees a block game, one a draw)
    for run, got in zip(runs, wasm):
        assert got == [c.get("got") for c in run["calls"]], (run["range"], run["forced"])
    assert wasm[len(runs):] == refused
    assert {r["range"] for r in runs} == {0, 1}
    assert any(r["range"] and _bits([0.0], 8)[0] in r["arrays"][2] for r in runs)   # (range hands weighing nothing)
    assert sum(not r["range"] and bool(r["arrays"][16]) for r in runs) > 50           # (trees with draw nodes)
    assert any(r["forced"][0] >= 0 for r in runs) and any(r["forced"][0] < 0 for r in runs)
    assert any(c["op"] == "force" and c["set"] >= 0 for r in runs for c in r["calls"])   # (warm starts too)
    assert all(c["got"] > 0 for r in runs for c in r["calls"] if c["op"] == "held")     # (the same bytes, counted)
    averages = [c for r in runs for c in r["calls"] if c["op"] == "set_average"]
    assert sum(isinstance(c["got"][0], str) for c in averages) > 1_000         # (one set's average, read)
    assert sum(isinstance(c["got"][0], int) for c in averages) > 50            # (and refused, with the same words)
    iterations = [r["iterations"] for r in runs]
    assert sum(iterations) > 20_000 and len(set(iterations)) > 20       # (real runs, of many lengths)
