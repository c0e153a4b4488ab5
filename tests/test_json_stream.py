"""``--json`` written as the records finish: the same bytes as the whole document written at the end (as the
tool wrote it before it streamed), each record's games on standard output before the next record is worked
out, and nothing of a finished record held by the command.

Each test here compares what two runs in this process wrote (or one against the document pinned): the slip search's
safety net of CPU time is kept out of the way (``units_only``), so that its units of work alone bound it, the same
in both runs however loaded the machine."""
from __future__ import annotations

import json
import sys
import time
import types

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

import analyzer.repair.search as search_module
import analyzer.repair.triage as triage_module
from analyzer.archive import Summary
from analyzer.cli import main
from analyzer.cli.output import JsonGames, finish
from conftest import ROOT
import pinned
from schema_check import check

ARCHIVE = pinned.ARCHIVE
pytestmark = pytest.mark.usefixtures("units_only")


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("command", ["analyze", "validate", "replay"])
def test_the_streamed_document_is_the_one_written_whole_before(command, monkeypatch):
    """The document streamed is ``json.dumps(indent=2)`` of the whole, and as data the one pinned before --json
    streamed (``tests/pinned.py``: a key added since allowed, no value changed)."""
    monkeypatch.chdir(ROOT)
    result = cli(*pinned.arguments(command))
    assert result.exit_code == 1            # (the broken record)
    document = json.loads(result.stdout)
    assert result.stdout == json.dumps(document, indent=2) + "\n"
    assert pinned.differences(json.loads(pinned.PINNED[command].read_text(encoding="utf-8")), document) == []
    if command != "replay":             # (the schema: analyze and validate; replay's own shape is not in it)
        check(json.loads(result.stdout))


#: bundled records of every kind the summary counts: games with errors (a syntax error, a wrong lead, the book's slip
#: in a table), valid ones (matches, a partnership game, an all-fives game); the test adds a record that cannot be read
ASSEMBLED = ("errors-syntax.dom", "errors.dom", "errors-lead-tile.dom", "seed1-table.txt", "seed2.dom", "match-milo.dom",
             "match-french.dom", "variant-all-fives.dom", "my-game.dom")


@pytest.mark.slow
def test_analyze_json_of_bundled_records_is_their_jsonl_assembled(tmp_path, monkeypatch):
    """The document of a folder of bundled records (:data:`ASSEMBLED`), streamed, is the one built from their
    ``--jsonl`` lines (each record's result as it was) the way the document was built whole: each game of a record
    without a record error, with the summary of all the results, ``json.dumps(indent=2)``."""
    folder = tmp_path / "records"
    folder.mkdir()
    for name in ASSEMBLED:
        (folder / name).write_bytes((ROOT / "records" / name).read_bytes())
    (folder / "utf16.dom").write_bytes("[Players \"A, B\"]\n".encode("utf-16"))     # (a record error: not UTF-8)
    monkeypatch.chdir(tmp_path)
    lines = cli("analyze", "records", "--jsonl", "--jobs", "1").stdout.splitlines()
    results = [json.loads(line) for line in lines]
    assert len(results) == len(ASSEMBLED) + 1
    summary, games = Summary(), []
    for result in results:
        summary.add(result)
        if not result["error"]:
            games += [{"file": result["source"], **g["analysis"], "valid": g["valid"], "diagnostics": g["diagnostics"]}
                      for g in result["games"]]
    assert any(r["error"] for r in results) and any(not g["valid"] for g in games) and any(g["valid"] for g in games)
    expected = json.dumps({"games": games, "summary": summary.as_dict()}, indent=2) + "\n"
    assert cli("analyze", "records", "--json", "--jobs", "1").stdout == expected


def test_a_run_on_a_loaded_machine_writes_what_a_run_on_an_idle_one_does(monkeypatch):
    """Two runs of validate of the pinned archive (the book's broken seed1 searched for its slip), the second on a
    machine so loaded that the slip search's processor seconds count a hundred times over (its clock made so): the
    same document, the slip found in both (the search bounded by its units of work, not the clock)."""
    monkeypatch.chdir(ROOT)
    idle = cli(*pinned.arguments("validate"))
    real = time.process_time
    loaded = types.SimpleNamespace(process_time=lambda: 100 * real())
    monkeypatch.setattr(search_module, "time", loaded)
    monkeypatch.setattr(triage_module, "time", loaded)
    assert cli(*pinned.arguments("validate")).stdout == idle.stdout
    assert any("likely" in g for g in json.loads(idle.stdout)["games"])


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=8)


@settings(max_examples=60)
@given(st.lists(st.dictionaries(st.text(max_size=5), JSON, max_size=4), max_size=3),
       st.dictionaries(st.text(max_size=5), JSON, max_size=3))
def test_json_games_writes_what_json_dumps_writes_of_the_whole(games, summary):
    """Any games and summary (strings with newlines, quotes and any character, empty lists and objects, no
    game at all): the document streamed game by game is ``json.dumps`` of the whole with ``indent=2``."""
    runner = CliRunner()

    def write():
        document = JsonGames(True)
        for game in games:
            document.add(game)
        document.close(summary)
    with runner.isolation() as (out, _err, *_):
        write()
        sys.stdout.flush()
        written = out.getvalue().decode("utf-8")
    assert written == json.dumps({"games": games, "summary": summary}, indent=2) + "\n"


def test_json_games_off_writes_nothing_and_finish_prints_the_summary_line():
    with CliRunner().isolation() as (out, err, *_):
        document = JsonGames(False)
        document.add({"file": "x"})
        with pytest.raises(SystemExit) as exit_:
            finish(Summary(), quiet=False, games=document)
        sys.stdout.flush()
        assert out.getvalue().decode() == "0 records (0 games): 0 valid, 0 invalid\n"     # (the line, no document)
    assert exit_.value.code == 0


def test_each_record_is_written_before_the_next_is_worked_out(monkeypatch):
    """With ``--jobs 1`` the records are worked out one by one: when the runner takes up record k+1, the games
    of records 1..k are already on standard output (the document is written as the records finish, not held
    to the end)."""
    import analyzer.archive.runner as runner

    monkeypatch.chdir(ROOT)
    seen = []
    real = runner.process

    def watched(label, data, options, step=None, exact=None):
        sys.stdout.flush()
        seen.append((label, sys.stdout.buffer.getvalue().decode("utf-8").count('"file": ')))
        return real(label, data, options, step, exact)
    monkeypatch.setattr(runner, "process", watched)
    result = cli("analyze", ARCHIVE, "--json", "--jobs", "1")
    assert pinned.differences(json.loads(pinned.PINNED["analyze"].read_text(encoding="utf-8")),
                              json.loads(result.stdout)) == []
    files = [g["file"] for g in json.loads(result.stdout)["games"]]      # (in input order)
    order = list(dict.fromkeys(files))
    assert [label for label, _ in seen] == order[1:]         # (the first was read already: all partial?)
    for label, written in seen:
        assert written == sum(order.index(f) < order.index(label) for f in files), (label, written)


def test_the_pinned_documents_are_compared_as_data():
    """A key added is no difference, nor a diagnostic reworded; a value changed, a key gone or an item more is,
    each named by its place."""
    old = {"games": [{"valid": False, "diagnostics": [{"severity": "error", "code": "false-pass", "line": 3,
                                                       "message": "C passes", "text": "f:3:1: C passes"}]}]}
    reworded = json.loads(json.dumps(old))
    reworded["games"][0]["diagnostics"][0].update(message="C passed", text="f:3:1: C passed", hint="h")
    reworded["games"][0]["new_key"] = 1
    assert pinned.differences(old, reworded) == []
    moved = json.loads(json.dumps(old))
    moved["games"][0]["diagnostics"][0]["line"] = 4
    assert pinned.differences(old, moved) == ["$.games[0].diagnostics[0].line: 3 pinned, 4 now"]
    del moved["games"][0]["valid"]
    assert "$.games[0].valid: missing" in pinned.differences(old, moved)
    assert pinned.differences(old, {"games": []}) == ["$.games: 1 items pinned, 0 now"]
    assert pinned.differences({"valid": 1}, {"valid": True}) == ["$.valid: 1 pinned, True now"]
    assert pinned.differences({"message": "a"}, {"message": "b"}) != []      # (words outside a diagnostic count)
