"""The settings the compiled kernels read are one declared contract (issue 81): the layout of
``LeafScoring.ints()`` is the list ``LEAF_SCORING_FIELDS`` of ``analyzer/search/_leaf.h``, which the kernels read
and the CPython binding shows as ``_core.LEAF_FIELDS``; both must name the dataclass's fields in its order (the
codes of each field's values are checked against the header's enums by tests/test_names.py)."""
from __future__ import annotations

import re
from dataclasses import fields

import pytest

from analyzer.search.core import compiled_core
from analyzer.search.scoring import LeafScoring
from conftest import ROOT

#: the fields before the seats' sides, in the order ``ints()`` gives them
FIELDS = tuple(f.name for f in fields(LeafScoring) if f.name != "teams")


def test_the_header_declares_the_layout_the_python_side_fills():
    header = (ROOT / "analyzer" / "search" / "_leaf.h").read_text(encoding="utf-8")
    lines = iter(header[header.index("#define LEAF_SCORING_FIELDS(X)"):].splitlines())
    body = ""
    while (line := next(lines)).endswith("\\"):         # (the macro's lines, each but the last ending in a backslash)
        body += line
    body += line
    assert tuple(re.findall(r"X\((\w+)\)", body)) == FIELDS
    assert [f.name for f in fields(LeafScoring)][-1] == "teams"      # (then the count of seats, one side a seat)


@pytest.mark.skipif(compiled_core() is None, reason="the compiled core was not built (no C compiler)")
def test_the_compiled_kernel_reads_the_layout_the_python_side_fills():
    assert compiled_core().LEAF_FIELDS == FIELDS
    ints = LeafScoring(*range(len(FIELDS)), teams=(0, 1, 0, 1)).ints()
    assert ints[:len(FIELDS)] == tuple(range(len(FIELDS))) and ints[len(FIELDS):] == (4, 0, 1, 0, 1)


def test_the_range_builds_arrays_are_read_as_the_header_declares_them():
    """``_ranges_kernel.h``'s ``RB_ITEMS`` (each array's bytes an item), ``RB_TOO_LONG`` and ``RB_RUN_BYTES`` are those
    the Python side reads the build's arrays by (``wasmcfr.BUILD_ITEMS``, ``ranges._RB_CODES``), stops on and counts a
    run's least by (``ranges.RUN_BYTES``: the build's cap and ``memory()`` count alike)."""
    from array import array

    from analyzer.hidden import ranges
    from analyzer.search import wasmcfr

    header = (ROOT / "analyzer" / "hidden" / "_ranges_kernel.h").read_text(encoding="utf-8")
    assert re.search(r'#define RB_ITEMS "(\d+)"', header).group(1) == wasmcfr.BUILD_ITEMS
    assert int(re.search(r"#define RB_TOO_LONG (\d+)", header).group(1)) == wasmcfr.RB_TOO_LONG
    assert int(re.search(r"#define RB_RUN_BYTES (\d+)", header).group(1)) == ranges.RUN_BYTES
    # the runs' arrays, of both forms, and the most hands a player's indices of 16 bits hold
    cfr = (ROOT / "analyzer" / "hidden" / "_cfr_kernel.h").read_text(encoding="utf-8")
    assert re.search(r'#define CFR_ITEMS "(\d+)"', cfr).group(1) == wasmcfr.DEAL_ITEMS
    assert re.search(r'#define RANGE_ITEMS "(\d+)"', cfr).group(1) == wasmcfr.RANGE_ITEMS
    assert int(re.search(r"#define CFR_HANDS (\d+)", cfr).group(1)) == ranges.CFR_HANDS == 2 ** 16 - 1
    assert re.search(r"typedef uint16_t CfrHand;", cfr)
    assert "".join(str(array(code).itemsize) for code in ranges._RB_CODES) == wasmcfr.BUILD_ITEMS
