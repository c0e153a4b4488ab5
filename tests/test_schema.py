"""The JSON Schema shipped with the package (``analyzer/schemas/results.schema.json``, issue 69 item 1): a valid
draft 2020-12 schema, accepting what ``analyze --json`` (plain, ``--lines``, ``--scale match``, ``--fair``),
``validate --json``, ``--jsonl`` and the board's ``analyze_document`` print for real records, and the documents
pinned before the results were typed (``tests/data/json-archive.*.json``); refusing a document that breaks its
contract (a severity not of the three, a decision without its loss, an analyze entry without its file)."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.schemas import schema
from conftest import ROOT
from schema_check import check


def run(*args) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.stdout


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("args", [
    ("analyze", "records/seed1.dom", "records/errors.dom", "records/sheet-partnership.dom"),
    ("analyze", "--lines", "records/variant-draw.dom"),
    ("analyze", "--scale", "match", "records/match-french.dom", "records/variant-draw.dom"),
    ("analyze", "--fair", "--decision-deals", "8", "records/draw-one-view.dom"),
    ("validate", "records/errors.dom", "records/errors-syntax.dom", "records/seed1.dom"),
    ("validate", "tests/data/sheet-open-results.dom"),
])
def test_the_schema_accepts_what_the_commands_print(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    check(json.loads(run(*args, "--json", "--jobs", "1")))


def test_the_schema_accepts_each_record_result_of_jsonl(monkeypatch):
    monkeypatch.chdir(ROOT)
    lines = run("analyze", "records/seed2.dom", "records/errors.dom", "--jsonl", "--jobs", "1").splitlines()
    assert len(lines) == 2
    for line in lines:
        check(json.loads(line))


def test_the_schema_accepts_the_results_a_sheets_deals_leave_open_in_jsonl(monkeypatch):
    monkeypatch.chdir(ROOT)
    (line,) = run("validate", "tests/data/sheet-open-results.dom", "--jsonl", "--jobs", "1").splitlines()
    document = json.loads(line)
    check(document)
    assert {tuple(r["scores"].values()) for r in document["games"][0]["possible"]["results"]} == {
        (0, 0, 11), (0, 0, 12), (0, 0, 15)}


def test_the_schema_accepts_a_file_that_is_no_record(tmp_path, monkeypatch):
    (tmp_path / "binary.dom").write_bytes(b"\x00\x01\x02 not a record")
    (tmp_path / "empty.dom").write_text("")
    for args in (("validate", "--json"), ("analyze", "--jsonl"), ("validate", "--jsonl")):
        out = run(*args, "--jobs", "1", tmp_path)
        for document in ([json.loads(out)] if "--json" in args else [json.loads(line) for line in out.splitlines()]):
            check(document)


@pytest.mark.parametrize("command", ["analyze", "validate"])
def test_the_schema_accepts_the_documents_pinned_before_the_results_were_typed(command):
    check(json.loads((ROOT / "tests" / "data" / f"json-archive.{command}.json").read_text(encoding="utf-8")))


def test_the_schema_accepts_the_boards_analysis():
    from analyzer.server.library import BoardRecord, analyze_document

    check(analyze_document(BoardRecord((ROOT / "records" / "seed1.dom").read_text(encoding="utf-8"), "seed1.dom")))


def test_the_schema_refuses_a_document_that_breaks_its_contract():
    document = json.loads((ROOT / "tests" / "data" / "json-archive.analyze.json").read_text(encoding="utf-8"))
    check(document)
    broken = copy.deepcopy(document)
    broken["games"][0]["diagnostics"].append({"severity": "fatal", "code": "syntax", "line": 1, "column": 1,
                                              "message": "m", "text": "t"})
    with pytest.raises(jsonschema.ValidationError):
        check(broken)
    broken = copy.deepcopy(document)
    del broken["games"][0]["decisions"][0]["loss"]
    with pytest.raises(jsonschema.ValidationError):
        check(broken)
    broken = copy.deepcopy(document)
    del broken["games"][0]["file"]
    with pytest.raises(jsonschema.ValidationError):
        check(broken)


def test_the_schema_names_every_key_the_result_types_write():
    """The schema and the result types agree: every key the codec may write for an analysis, a decision, an
    alternative, a fair verdict and a fair value (``codec.keys``, from their fields' metadata) is a property of its
    schema definition, so a field added to a type without the schema fails here; and each property the schema names
    is one the type writes (the board's ``how``, the server's words, aside)."""
    from analyzer import codec
    from analyzer.analysis import Alternative, Decision, GameAnalysis
    from analyzer.analysis.fair import FairDecision, FairValue

    board_words = {"how", "text", "verdict_word", "hindsight", "team_words", "contradiction_words"}
    for cls, name in [(GameAnalysis, "analysis"), (Decision, "decision"), (Alternative, "alternative"),
                      (FairDecision, "fair_verdict"), (FairValue, "fair_value")]:
        named = set(schema()["$defs"][name]["properties"])
        written = codec.keys(cls)
        assert len(set(written)) == len(written), cls          # (no key written twice)
        assert set(written) <= named, (cls.__name__, set(written) - named)
        assert named - board_words <= set(written), (cls.__name__, named - board_words - set(written))


def test_the_schema_names_every_key_a_sheets_values_write():
    """A sheet's values over the deals and its fair loss over the hands (``analysis.dealvalues``): every key their
    ``as_dict`` may write, the gap to the best on average and the hands drawn included, is named in the schema."""
    from analyzer.analysis.dealvalues import OverDeals, OverHands

    over = OverDeals(1.5, -3, 7, 40, (0.5, 2.5), 2.0, (0.1, 3.9), 12, 200, "cpu-budget")
    assert set(over.as_dict()) == set(schema()["$defs"]["over_deals"]["properties"]) - {"words"}
    assert OverDeals.from_dict(over.as_dict()) == over
    hands = OverHands(2.0, (0.5, 3.5), 0.0, 4.0, 56, 7, 3, None, 8)
    named = schema()["$defs"]["fair_verdict"]["properties"]["over_hands"]["properties"]
    assert set(hands.as_dict()) == set(named)
