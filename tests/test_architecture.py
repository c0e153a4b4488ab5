"""The layout the architecture promises (docs/architecture.md): one direction through the pipeline,
no import cycle, small modules, each outside library in its one place, no class tests on positions."""
import ast
import functools
import pathlib
import re

import networkx as nx

ROOT = pathlib.Path(__file__).resolve().parent.parent / "analyzer"
MODULES = sorted(ROOT.rglob("*.py"))


def _name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _defines_anything(init: pathlib.Path) -> bool:
    """Whether a package's ``__init__.py`` holds more than its docstring (and ``from __future__``)."""
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        return True
    return False


@functools.lru_cache
def _index(root: pathlib.Path) -> tuple[dict[str, pathlib.Path], dict[str, bool]]:
    """The modules under ``root`` by name, and for each package whether its ``__init__`` defines anything."""
    names = {_name(p, root): p for p in root.rglob("*.py")}
    return names, {name: _defines_anything(p) for name, p in names.items() if p.name == "__init__.py"}


def _imports(path: pathlib.Path, root: pathlib.Path = ROOT):
    """Every module ``path`` imports, at any depth: at module level, inside functions and under
    ``TYPE_CHECKING`` alike. ``from package import module`` imports that module; an import of a module
    inside a package is also an import of the package's ``__init__`` when that defines anything (Python
    runs it first), unless the importer lives in that package itself."""
    names, packages = _index(root)
    me = _name(path, root)
    here = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]

    def submodule(package: str, name: str) -> bool:  # a Python module, or a compiled core beside its C source
        return f"{package}.{name}" in names or (
            package in packages and any(names[package].parent.glob(name + ".*")))

    direct = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            modules = [f"{module}.{alias.name}" for alias in node.names if submodule(module, alias.name)]
            if len(modules) < len(node.names):  # a name the module itself defines
                direct.append(module)
            direct += modules
        elif isinstance(node, ast.Import):
            direct += [alias.name for alias in node.names]
    for target in direct:
        yield target
        parts = target.split(".")
        for depth in range(1, len(parts) + 1):
            package = ".".join(parts[:depth])
            if packages.get(package) and package != me and not me.startswith(package + "."):
                yield package


def _graph(root: pathlib.Path = ROOT) -> nx.DiGraph:
    graph = nx.DiGraph()
    top = root.name
    for path in sorted(root.rglob("*.py")):
        me = _name(path, root)
        graph.add_node(me)
        for target in _imports(path, root):
            if (target == top or target.startswith(top + ".")) and target != me:
                graph.add_edge(me, target)
    return graph


def _package(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    """A small package ``pkg`` of ``files`` (path -> text) under ``tmp_path``, for the checkers' own tests."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path / "pkg"


def test_the_import_graph_sees_deferred_imports_and_package_inits(tmp_path):
    """The checker itself, on a small package: an import inside a function, one under TYPE_CHECKING, a
    name from a package's ``__init__``, and a module inside a package whose ``__init__`` defines names
    (Python runs the ``__init__`` first) are all edges; an empty ``__init__`` is none. Together they
    close one circle that no module-level import shows."""
    files = {
        "pkg/__init__.py": "from .core import Core\n",
        "pkg/core.py": "def f():\n    from .late import g\n",
        "pkg/late.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .typed import T\n",
        "pkg/typed.py": "from .sub.leaf import x\n",
        "pkg/sub/__init__.py": '"""Nothing defined."""\n',
        "pkg/sub/leaf.py": "def h():\n    from ..user import mod\n",
        "pkg/other/__init__.py": "from .. import Core\n",
        "pkg/other/mod.py": "y = 2\n",
        "pkg/user.py": "from .other import mod\n",
    }
    graph = _graph(_package(tmp_path, files))
    assert {("pkg.core", "pkg.late"), ("pkg.late", "pkg.typed"), ("pkg.typed", "pkg.sub.leaf"),
            ("pkg.other", "pkg"), ("pkg.user", "pkg.other.mod"), ("pkg.user", "pkg.other")} <= set(graph.edges)
    assert ("pkg.typed", "pkg.sub") not in graph.edges
    assert [sorted(cycle) for cycle in nx.simple_cycles(graph)] == [
        ["pkg", "pkg.core", "pkg.late", "pkg.other", "pkg.sub.leaf", "pkg.typed", "pkg.user"]]


def test_no_import_cycle():
    """No circle at any depth (docs/architecture.md): each module imports only what lies to its left."""
    graph = _graph()
    assert sorted(" -> ".join(cycle) for cycle in nx.simple_cycles(graph)) == []
    # and between the parts of the pipeline
    parts = nx.DiGraph((a.split(".")[1], b.split(".")[1]) for a, b in graph.edges
                       if a.count(".") and b.count(".") and a.split(".")[1] != b.split(".")[1])
    assert list(nx.simple_cycles(parts)) == []


#: The compiled cores: extension modules named with an underscore, imported as modules.
COMPILED_CORES = {"analyzer.search._core", "analyzer.search._arms", "analyzer.search._draw", "analyzer.equity._race",
                  "analyzer.hidden._cfr"}


def _private_imports(root: pathlib.Path = ROOT) -> list[str]:
    """Each ``from x import _name`` (a private name, not a dunder) of a module under ``root``, at any depth."""
    names, _ = _index(root)
    found = []
    for path in sorted(root.rglob("*.py")):
        me = _name(path, root)
        here = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and f"{module}.{alias.name}" not in COMPILED_CORES:
                    found.append(f"{me}:{node.lineno}: from {module} import {alias.name}")
    return found


def test_the_private_import_check_sees_private_names(tmp_path):
    """The checker itself: a private name imported from a sibling, inside a function too, is found, and
    so is an underscored module its allow-list does not name; a dunder and a public name are not."""
    files = {
        "pkg/__init__.py": "",
        "pkg/a.py": "_hidden = 1\n__version__ = '1'\nshown = 2\n",
        "pkg/b.py": "from .a import __version__, shown\ndef f():\n    from .a import _hidden\n",
        "pkg/search/__init__.py": "",
        "pkg/search/core.py": "from . import _core\n",
    }
    found = _private_imports(_package(tmp_path, files))
    assert found == ["pkg.b:3: from pkg.a import _hidden", "pkg.search.core:1: from pkg.search import _core"]


def test_no_private_name_is_imported_from_another_module():
    """What modules share has a public name (docs/architecture.md): an underscore says no other module
    touches it. Allowed: the compiled cores (extension modules)."""
    assert _private_imports() == []


def test_click_only_in_the_cli_and_jinja2_only_in_the_rendering_of_pages():
    for path in MODULES:
        imported = set(_imports(path))
        name = _name(path)
        if "click" in imported:
            assert name.startswith("analyzer.cli"), name
        if any(m and m.startswith("jinja2") for m in imported):
            assert name == "analyzer.render.page", name
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


def test_every_package_is_installed():
    """``pip install .`` (not editable) installs each package of the source tree: pyproject lists them
    all (an unlisted one works in the tests, which import the tree, and fails for every user)."""
    import tomllib

    project = tomllib.loads((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(project["tool"]["setuptools"]["packages"])
    found = {_name(p) for p in ROOT.rglob("__init__.py")}
    assert found - listed == set()


def _codes_made(path: pathlib.Path) -> list[str]:
    """Each ``Code`` member a module passes to a call (makes a problem with), by line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            for arg in list(node.args) + [k.value for k in node.keywords]:
                if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "Code":
                    found.append(f"{path.name}:{node.lineno}: Code.{arg.attr}")
    return found


def test_the_replay_of_moves_makes_no_problem_itself(tmp_path):
    """A problem of a move is made in ``rules/`` (the judge, ``rules/replayed.py``): the replayer of the
    moves only finds where one applies and turns it into a diagnostic; it compares codes, never makes
    one. (The end of a hand, ``replay/result.py``, and the tags, ``replay/tags.py``, make their own.)"""
    (tmp_path / "m.py").write_text("def f(self):\n    self.diag(Code.FALSE_PASS, 'x')\n    return x == Code.TURN_ORDER\n")
    assert _codes_made(tmp_path / "m.py") == ["m.py:2: Code.FALSE_PASS"]
    moves = [ROOT / "replay" / name for name in ("__init__.py", "step.py", "irregular.py")]
    assert [line for path in moves for line in _codes_made(path)] == []


#: what the pipeline's steps do (read, replay, search, analyse, repair, run): the rendering package imports none
WORK = ("match", "repair", "pipeline", "search", "inference", "equity", "hidden", "archive", "server", "cli", "site",
        "generate", "train", "workers")


def _called_imports(path: pathlib.Path):
    """Each name ``path`` imports from this package (at any depth) and calls: (the name, its module)."""
    tree = ast.parse(path.read_text())
    here = _name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else _name(path)
    imported = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            base = here.split(".")[:len(here.split(".")) - node.level + 1]
            for alias in node.names:
                imported[alias.asname or alias.name] = (alias.name, ".".join(base + [node.module]))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in imported:
            yield imported[node.func.id]


def test_the_rendering_builds_nothing():
    """The rendering package (``analyzer.render``) draws and words what it is given (issue 88 item 1): it imports
    none of the pipeline's working steps, and of the analysis and the replay it calls only types and functions
    that reach no search, inference, match or repair (each a reading of values already computed), never a
    replay or an analysis."""
    import importlib
    import inspect

    graph = _graph()
    working = {n for n in graph if any(n == f"analyzer.{w}" or n.startswith(f"analyzer.{w}.") for w in WORK)}
    found = []
    for path in MODULES:
        me = _name(path)
        if me != "analyzer.render" and not me.startswith("analyzer.render."):
            continue
        found += [f"{me} imports {t}" for t in _imports(path) if t in working]
        for name, module in _called_imports(path):
            obj = getattr(importlib.import_module(module), name, None)
            if obj is None or inspect.isclass(obj) or not module.startswith(("analyzer.analysis", "analyzer.replay")):
                continue
            defined = obj.__module__
            reach = nx.descendants(graph, defined) & working if defined in graph else set()
            if reach or name in ("replay", "replay_game", "analyze", "fair_analyze"):
                found.append(f"{me} calls {defined}.{name}, which reaches {sorted(reach)[:3]}")
    assert found == [], "\n".join(found)


#: a name that carries a number as a word of its own (``campaign_72``, ``test_rules_31_leads``, ``issue87``): the
#: issue it was made for, not what it does or tests
_NUMBERED = re.compile(r"(?:^|_)(?:issue)?\d+(?:_|$)")


def test_no_module_test_or_benchmark_is_named_by_an_issue_number():
    """A module, a test file and a benchmark are named by what they do, test or measure; the issue they were made
    for is history (the commit messages, a docstring), not a name a reader must look up."""
    assert [_NUMBERED.search(stem) is not None for stem in
            ("campaign_72", "test_rules_31_leads", "issue87", "bench_sheet_sizes", "test_board_phone", "b2b")] == \
        [True, True, True, False, False, False]
    top = ROOT.parent
    named = sorted(str(p.relative_to(top)) for folder in ("analyzer", "tests", "bench")
                   for p in (top / folder).rglob("*.py")
                   if "node_modules" not in p.parts and _NUMBERED.search(p.stem))
    assert named == []


def test_every_benchmark_is_listed_where_the_suite_is_described():
    """bench/README.md lists each script of bench/ (``bench/run.py --list``'s listing, pasted), and bench/run.py
    reads each one's purpose from its docstring: a script without one has no line to show."""
    import ast as _ast

    bench = ROOT.parent / "bench"
    readme = (bench / "README.md").read_text(encoding="utf-8")
    scripts = [p for p in sorted(bench.glob("*.py")) if p.name != "run.py"]
    assert [p.stem for p in scripts if not re.search(rf"^  {re.escape(p.stem)}\s", readme, re.M)] == []
    assert [p.name for p in scripts if not _ast.get_docstring(_ast.parse(p.read_text(encoding="utf-8")))] == []
