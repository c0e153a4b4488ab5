"""The layout the architecture promises (docs/architecture.md): one direction through the pipeline,
no import cycle, small modules, each outside library in its one place, no class tests on positions."""
import ast
import pathlib
import re

import networkx as nx

ROOT = pathlib.Path(__file__).resolve().parent.parent / "analyzer"
MODULES = sorted(ROOT.rglob("*.py"))


def _name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path):
    """The modules ``path`` imports at module level (lazy imports inside functions are not edges)."""
    package = _name(path) if path.name == "__init__.py" else _name(path).rsplit(".", 1)[0]
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def test_no_import_cycle():
    graph = nx.DiGraph()
    for path in MODULES:
        for target in _imports(path):
            if target and target.startswith("analyzer"):
                graph.add_edge(_name(path), target)
    assert list(nx.simple_cycles(graph)) == []
    # and between the parts of the pipeline
    parts = nx.DiGraph((a.split(".")[1], b.split(".")[1]) for a, b in graph.edges
                       if a.count(".") and b.count(".") and a.split(".")[1] != b.split(".")[1])
    assert list(nx.simple_cycles(parts)) == []


def test_no_module_over_800_lines():
    long = {_name(p): n for p in MODULES if (n := len(p.read_text().splitlines())) > 800}
    assert long == {}


def test_click_only_in_the_cli_and_jinja2_only_in_report_rendering():
    for path in MODULES:
        imported = set(_imports(path))
        name = _name(path)
        if "click" in imported:
            assert name.startswith("analyzer.cli"), name
        if any(m and m.startswith("jinja2") for m in imported):
            assert name == "analyzer.report.render", name
        if any(m and m.split(".")[0] in ("starlette", "uvicorn") for m in imported):
            assert name.startswith("analyzer.server"), name


def test_callers_never_tell_positions_apart_by_class():
    """Positions answer the mechanics contract (``draws``, ``has_arms``...); no caller asks their class."""
    pattern = re.compile(r"isinstance\([^)]*(Position|pos)\b")
    for path in MODULES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert not pattern.search(line), f"{_name(path)}:{number}: {line.strip()}"


def test_every_name_a_module_exports_exists():
    """``from analyzer.x import *`` works: each name of a module's ``__all__`` is defined there."""
    import importlib

    missing = []
    for path in MODULES:
        if path.name == "__main__.py":
            continue
        module = importlib.import_module(_name(path))
        missing += [f"{module.__name__}.{n}" for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert missing == []
