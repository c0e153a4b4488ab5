"""The suite's own rule: no verdict by the clock. A test waits for the event it needs (conftest.wait_until,
playwright's expect, a process's end), bounded only to catch a hang; it never sleeps for a while and then
looks, never asserts how long something took, and never gives hypothesis a deadline."""
from __future__ import annotations

import ast

from conftest import ROOT

CLOCKS = {"monotonic", "perf_counter", "process_time", "time", "monotonic_ns", "perf_counter_ns", "time_ns"}


def _trees():
    for path in sorted((ROOT / "tests").glob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _parents(tree) -> dict:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_time_call(node, names) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "time")


def _in_a_poll(node, parents) -> bool:
    """Whether ``node`` is inside a ``while`` loop (of its own function): the pause, or the hang bound, of a
    poll (``for _ in range(100)`` around a pause is a clock: a hundred pauses)."""
    up = parents.get(node)
    while up is not None and not isinstance(up, (ast.While, ast.For, ast.FunctionDef)):
        up = parents.get(up)
    return isinstance(up, ast.While)


def test_no_test_asserts_a_time_or_sleeps_and_then_looks():
    # (inside a loop that polls for an event, a pause and the bound that fails a hang are what waiting is)
    found = []
    for name, tree in _trees():
        parents = _parents(tree)
        for node in ast.walk(tree):
            where = f"{name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Assert) and any(_is_time_call(n, CLOCKS) for n in ast.walk(node.test)) \
                    and not _in_a_poll(node, parents):
                found.append(f"{where}: an assert on the clock")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "wait_for_timeout":
                found.append(f"{where}: wait_for_timeout (wait for what the page shows: expect, conftest.settled)")
            if _is_time_call(node, {"sleep"}) and not _in_a_poll(node, parents):
                found.append(f"{where}: time.sleep outside a while loop that polls (use conftest.wait_until)")
    assert found == [], found


def test_no_property_test_has_a_deadline():
    found = []
    for name, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in (
                    "settings", "register_profile"):
                for keyword in node.keywords:
                    if keyword.arg == "deadline" and not (isinstance(keyword.value, ast.Constant)
                                                          and keyword.value.value is None):
                        found.append(f"{name}:{node.lineno}: deadline={ast.unparse(keyword.value)}")
    assert found == [], found
