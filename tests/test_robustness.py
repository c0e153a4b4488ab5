"""Nothing breaks: records found by fuzzing that once made the analyser fail, the exit status of every
command on broken records, and a seeded fuzz run of the library's stages (issue 34)."""
from __future__ import annotations

from dataclasses import replace

from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.repair import COSTS, Edit, repair
from analyzer.repair.triage import triage_games
from conftest import RECORDS


def _record(name: str, *changes: tuple[str, str]) -> str:
    """A bundled record with each ``(old, new)`` replaced once (the mutation fuzzing found)."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# ---- 1. the causes of internal errors, each on its minimised record ------------------------------------

# Domino Whist's equal-ends game with D's [6-6] miscopied as [1-6] (B holds [1-6]) and the Result
# tag wrong too: the repairs that mend it are one dealt tile (B's copy or D's) plus the Result tag,
# two equally good ones whose second edit is the same change-result edit. Describing what they have
# in common once raised KeyError: 'change-result' (the validator's internal error).
TIED_RESULT = _record("whist-equal-ends.dom", ('[Result "A/C 16 blocked"]', '[Result "A/C 10 domino"]'),
                      ("D: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]", "D: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [1-6]"))


def test_tied_repairs_that_share_a_result_tag_edit():
    (rep,) = replay_record(parse(TIED_RESULT))
    codes = sorted(d.code for d in rep.errors)
    # [1-6] is dealt twice, [6-6] to nobody, and the stated result is not the hand's
    assert codes == ["deal-duplicate", "deal-duplicate", "deal-missing", "result-mismatch"]
    report = repair(rep.game, variant=rep.variant)
    assert report.tied >= 2
    best = report.repairs[:report.tied]
    for fix in best:
        assert [e.kind for e in fix.edits] == ["change-deal", "change-result"]
        assert fix.edits[1].after == "A/C 16 blocked"       # the result of the deal as dealt
    assert any(line.startswith("all change the Result tag") for line in report.common)
    (t,), _ = triage_games([rep])
    assert t.best is not None and not any(d.code == "internal-error" for d in t.diagnostics)


def test_every_edit_kind_is_described():
    """Every kind of edit the searches make has its words wherever edits are described: in a repair's
    line and in what equally good repairs have in common."""
    from analyzer.repair import _DOING

    kinds = {key.split("/")[0] for key in COSTS}
    for kind in kinds:
        assert kind in _DOING, kind
        text = str(Edit(kind, 3, 1, "A", "[1-2]", "[1-3]", index=0, round=1))
        assert not text.startswith(f"{kind}:"), text      # the generic fallback: no words for it


# A's log of a draw game with his first draw of round 9 miscopied ([6-6] as [1-6], which he could
# have laid at once) and the Score tag wrong too: in the match's check of the repairs each gets the
# same change-score edit, and describing what the tied ones share once raised KeyError: 'change-score'.
TIED_SCORE = _record("draw-one-view.dom", ('[Score "A 0, B 1"]', '[Score "A 2, B 1"]'),
                     ("9. A draws [6-6]", "9. A draws [1-6]"))


def test_tied_repairs_that_share_a_score_tag_edit():
    record = parse(TIED_SCORE)
    (rep,) = replay_record(record)
    # drawing on with a playable tile in hand, twice; and the running score is not the match's
    assert sorted(d.code for d in rep.errors) == ["draw-too-long", "draw-too-long", "score-mismatch"]
    (t,), reports = triage_games([rep], lambda games: replay_record(replace(record, games=games)))
    best = reports[0].repairs[:reports[0].tied]
    assert best and all(fix.edits[-1].kind == "change-score" and fix.edits[-1].after == "A 0, B 1" for fix in best)
    assert t.best is not None and not any(d.code == "internal-error" for d in t.diagnostics)
