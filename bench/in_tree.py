"""A call of a bench script's own function run in another source tree (the benches that measure two trees in one run).

    from in_tree import in_tree
    rows = in_tree(tree, "bench_cfr_speed", "worker(6, 3, 85)")   # that tree's analyzer, this script's code

The call runs in a fresh Python process whose ``analyzer`` is ``tree``'s (its path first) and whose bench module is
this folder's (the same measuring code for both trees); each line it prints is one JSON value, returned in order.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def in_tree(tree: Path, module: str, call: str) -> list:
    """``module.call`` (a call's source, such as ``"worker(6, 3, 85)"``) in a process of ``tree``: the JSON lines it
    printed (a failure raises ``CalledProcessError``)."""
    code = (f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import {module} as b; b.{call}")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]
