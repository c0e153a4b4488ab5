"""Names for codes and modes (issue 69 item 4): the scoring modes, the tie and winner rules and the chuchazo bonus
are numbered once for the compiled cores, in the order their C enums (``analyzer/search/_leaf.h``) give; every
variant's scoring mode is a ``Count``; a severity is one of three (a misspelt one refused), printed and written to
JSON as its text; the diagnostic codes and terminations a real record gives are members of their enums."""
from __future__ import annotations

import json
import re

import pytest

from analyzer.diagnostics import Diagnostic, Severity
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.rules import VARIANTS
from analyzer.rules.codes import Code
from analyzer.rules.modes import Count, Termination
from analyzer.rules.policies import HandScoring, PointScoring
from analyzer.search.scoring import BY, CHUCHAZO, COUNT, TIE
from conftest import RECORDS, ROOT

HEADER = (ROOT / "analyzer" / "search" / "_leaf.h").read_text(encoding="utf-8")


def c_enum(prefix: str) -> list[str]:
    """The members of the C enum of ``_leaf.h`` whose names start with ``prefix``, in order."""
    body = next(m.group(1) for m in re.finditer(r"enum\s*\{([^}]*)\}", HEADER) if f"{prefix}_" in m.group(1))
    return [name.strip() for name in re.sub(r"/\*.*?\*/", "", body, flags=re.S).split(",") if name.strip()]


@pytest.mark.parametrize("prefix, table", [("COUNT", COUNT), ("BY", BY), ("TIE", TIE), ("CHUCHAZO", CHUCHAZO)])
def test_the_tables_number_the_modes_as_the_c_enums_do(prefix, table):
    names = [f"{prefix}_{(key or 'none').upper().replace('-', '_')}" for key in sorted(table, key=table.get)]
    assert names == c_enum(prefix)
    assert sorted(table.values()) == list(range(len(table)))


def test_the_scoring_modes_are_counts_first_in_the_cores_order():
    assert list(COUNT)[:len(Count)] == [mode.value for mode in Count]


def test_every_variants_scoring_mode_is_a_count():
    seen = set()
    for variant in VARIANTS.values():
        scoring = variant.scoring
        if isinstance(scoring, (PointScoring, HandScoring)):
            assert scoring.count in set(Count), variant.name
            seen.add(Count(scoring.count))
    assert {Count.LOSERS, Count.BAD} <= seen       # (the plain count and Whist's bad points at least)


def test_a_severity_is_one_of_three_and_prints_as_its_text():
    d = Diagnostic("error", Code.TILE_NO_MATCH, "no match", 3, 5, "x.dom")
    assert d.severity is Severity.ERROR
    assert str(d) == "x.dom:3:5: error[tile-no-match] no match"
    assert json.dumps(d.as_dict()) == ('{"severity": "error", "code": "tile-no-match", "line": 3, "column": 5, '
                                       '"message": "no match"}')
    with pytest.raises(ValueError):
        Diagnostic("fatal", Code.TILE_NO_MATCH, "no match")


def test_a_records_codes_and_terminations_are_members():
    reps = replay_record(parse((RECORDS / "errors.dom").read_text(encoding="utf-8"), "errors.dom"))
    codes = {d.code for rep in reps for d in rep.diagnostics}
    assert codes and codes <= set(Code)
    assert {d.severity for rep in reps for d in rep.diagnostics} <= set(Severity)
    reps = replay_record(parse((RECORDS / "match-french.dom").read_text(encoding="utf-8"), "match-french.dom"))
    ends = {rep.outcome.termination for rep in reps if rep.outcome is not None}
    assert ends and ends <= set(Termination)
