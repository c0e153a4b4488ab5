"""Counts of the shapes issue 69 asks to remove, in two trees measured in the same run: library functions over six
parameters (outside ``analyzer/cli/``), string literals that spell a diagnostic code outside ``rules/codes.py``,
comparisons of a ``severity``, a ``layout`` or a scoring ``count`` attribute with a string, and the JSON builders (functions that make or fill the plain data
of a result: ``as_dict``/``from_dict``/``*_data``/``*_json``/``annotate``; the dict literals that build an ``analyze
--json`` entry; the calls that hand a step a result's plain data already built to add its keys, or that add to a
value built (``annotate``); and item assignments with a string key into a nested dict, ``x[...]["key"] = ...``), and
the result types' shape (item 1): the result types of an analysis that are not frozen, and the assignments to an
attribute named as one of their fields in the modules that make or take analyses (``analysis/``, ``pipeline.py``;
outside ``self.``, and ``pos.`` a position's: a step writing into a result another built; the private draft
``analysis._Draft`` that ``analyze_replay`` fills before it makes its frozen result counts too, and the counters of
``analysis.luck``'s rows that share a name: ``--list``).

    python bench/count_shapes.py                        # this tree against /work/main
    python bench/count_shapes.py --before /work/main --list

A function's parameters are its positional and keyword ones, ``self``/``cls`` not counted, ``*args``/``**kw`` not
counted. ``--list`` names each function over six parameters and each literal found in this tree.
"""
from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SEVERITIES = {"error", "warning", "info"}
LAYOUTS = {"line", "french", "cross", "tree"}
RESULT_TYPES = {"GameAnalysis", "Decision", "Alternative", "Played", "FairDecision", "FairValue", "WorstWorld"}
BUILDER = re.compile(r"^(as_dict|from_dict|to_dict|annotate|_?annotate_\w+|\w+_data|\w+_json)$")


def _codes(tree: Path) -> set[str]:
    text = (tree / "analyzer/rules/codes.py").read_text(encoding="utf-8")
    return set(re.findall(r'^\s+[A-Z_]+ = "([a-z-]+)"', text, re.M))


def _modes(tree: Path) -> set[str]:
    """The scoring modes: the ``count`` values the C cores' table lists (``search/core``)."""
    for path in (tree / "analyzer/search").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        m = re.search(r"^COUNT\s*=\s*\{([^}]*)\}", text, re.M)
        if m:
            return set(re.findall(r'"([a-z_-]+)"\s*:', m.group(1)))
    return set()


def _compared(node: ast.Compare) -> tuple[set[str], list[str]]:
    """The attributes ``node`` (a comparison) compares (``d.severity``: ``{"severity"}``) and the string constants
    it compares them with: ``x.a == "b"``, ``x.a in ("b", "c")``."""
    attrs, out = set(), []
    for side in [node.left, *node.comparators]:
        if isinstance(side, ast.Constant) and isinstance(side.value, str):
            out.append(side.value)
        elif isinstance(side, (ast.Tuple, ast.Set, ast.List)):
            out += [e.value for e in side.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif isinstance(side, ast.Attribute):
            attrs.add(side.attr)
        elif isinstance(side, ast.Name):
            attrs.add(side.id)
    return attrs, out


def _writer(node: ast.Call) -> bool:
    """Whether a call hands a step the plain data of a result already built, to add its keys to it
    (``annotate(game["analysis"], ...)``, ``value_draws(run, out["games"])``)."""
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    built = any(isinstance(a, ast.Subscript) and isinstance(a.slice, ast.Constant) and a.slice.value in ("games", "analysis")
                or isinstance(a, ast.Subscript) and isinstance(a.value, ast.Subscript)
                and isinstance(a.value.slice, ast.Constant) and a.value.slice.value == "games" for a in node.args)
    return (built and name in ("annotate", "value_draws", "grade_on_match_scale")) or ANNOTATE.match(name) is not None


ANNOTATE = re.compile(r"^_?annotate(_\w+)?$")


def _results(tree: Path) -> tuple[list[str], set[str]]:
    """The result types of an analysis that are not frozen (``path:line name``), and the fields of them all."""
    mutable, names = [], set()
    for path in sorted((tree / "analyzer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            own = {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            if node.name in RESULT_TYPES and "analysis/" in path.as_posix():
                names |= own
                frozen = any(isinstance(d, ast.Call) and any(k.arg == "frozen" and getattr(k.value, "value", False)
                                                             for k in d.keywords) for d in node.decorator_list)
                if not frozen:
                    mutable.append(f"{path.relative_to(tree).as_posix()}:{node.lineno} {node.name}")
    return mutable, names


def count(tree: Path) -> dict:
    codes, modes = _codes(tree), _modes(tree)
    out = {"functions over 6 parameters": [], "code literals": [], "severity comparisons": [],
           "layout comparisons": [], "scoring mode comparisons": [], "termination comparisons": [],
           "JSON builder functions": [], "analyze --json entry builders": [], "writes into a built result": [],
           "dict item writes": [], "mutable result types": [], "result field writes": []}
    out["mutable result types"], fields = _results(tree)
    for path in sorted((tree / "analyzer").rglob("*.py")):
        rel = path.relative_to(tree).as_posix()
        mod = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(mod):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs if a.arg not in ("self", "cls")]
                if len(names) > 6 and not rel.startswith("analyzer/cli/"):
                    out["functions over 6 parameters"].append(f"{rel}:{node.lineno} {node.name} {len(names)}")
                if BUILDER.match(node.name):
                    out["JSON builder functions"].append(f"{rel}:{node.lineno} {node.name}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in codes \
                    and rel != "analyzer/rules/codes.py" and "-" in node.value:
                out["code literals"].append(f"{rel}:{node.lineno} {node.value}")
            elif isinstance(node, ast.Compare):
                attrs, values = _compared(node)
                for value in values:
                    if value in SEVERITIES and "severity" in attrs:
                        out["severity comparisons"].append(f"{rel}:{node.lineno} {value}")
                    if value in LAYOUTS and "layout" in attrs:
                        out["layout comparisons"].append(f"{rel}:{node.lineno} {value}")
                    if value in ("domino", "blocked") and "termination" in attrs:
                        out["termination comparisons"].append(f"{rel}:{node.lineno} {value}")
                    if value in modes and "count" in attrs:
                        out["scoring mode comparisons"].append(f"{rel}:{node.lineno} {value}")
            elif isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if {"file", "valid", "diagnostics"} <= keys and "title" not in keys:
                    out["analyze --json entry builders"].append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.Call) and _writer(node):
                out["writes into a built result"].append(f"{rel}:{node.lineno}")
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for t in target.elts if isinstance(target, ast.Tuple) else [target]:
                        if isinstance(t, ast.Attribute) and t.attr in fields and (rel.startswith("analyzer/analysis/")
                                                                                  or rel == "analyzer/pipeline.py") \
                                and not (isinstance(t.value, ast.Name) and t.value.id in ("self", "pos")):
                            out["result field writes"].append(f"{rel}:{node.lineno} {ast.unparse(t)}")
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                            and isinstance(target.slice.value, str) and isinstance(target.value, ast.Subscript):
                        out["dict item writes"].append(f"{rel}:{node.lineno}")
    return out


def sizes(tree: Path) -> None:
    """Print the sizes docs/architecture.md reports: modules and lines, the largest modules, functions and classes."""
    mods, funcs, classes = [], [], []
    for path in sorted((tree / "analyzer").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(tree / "analyzer").as_posix()
        mods.append((text.count("\n"), rel))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs.append((node.end_lineno - node.lineno + 1, f"{rel} {node.name}"))
            elif isinstance(node, ast.ClassDef):
                classes.append((node.end_lineno - node.lineno + 1, f"{rel} {node.name}"))
    lines = sorted(n for n, _ in mods)
    print(f"{len(mods)} modules, {sum(lines):,} lines (median {lines[len(lines) // 2]}); {len(funcs):,} functions, "
          f"{sum(n > 60 for n, _ in funcs)} over 60 lines, {sum(n > 80 for n, _ in funcs)} over 80")
    for title, items in (("modules", mods), ("functions", funcs), ("classes", classes)):
        print(f"largest {title}: " + ", ".join(f"{name} {n}" for n, name in sorted(items, reverse=True)[:5]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/main")
    parser.add_argument("--list", action="store_true", help="list what is counted in this tree")
    parser.add_argument("--sizes", action="store_true", help="the sizes of this tree (docs/architecture.md)")
    args = parser.parse_args()
    if args.sizes:
        sizes(HERE)
        return
    before, after = count(Path(args.before)), count(HERE)
    print(f"{'count':<30} {'before':>7} {'after':>7}")
    for key in before:
        print(f"{key:<30} {len(before[key]):>7} {len(after[key]):>7}")
    if args.list:
        for key, items in after.items():
            print(f"\n{key} (this tree):")
            for item in items:
                print("  " + item)


if __name__ == "__main__":
    main()
