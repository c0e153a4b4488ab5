"""Issue 72: no exception of the replay or the analysis ends a run. A failure of the analyser on one record
(a bug, simulated here where the code would meet it) is that record's ``internal-error``; every other record
of the run is still read, replayed, analysed and shown, by every command, in text and with ``--json``."""
import json

import pytest
from click.testing import CliRunner

import analyzer.match as match
import analyzer.pipeline as pipeline
from analyzer.cli import main
from conftest import RECORDS

GOOD = RECORDS / "seed2.dom"


@pytest.fixture
def broken(monkeypatch, tmp_path):
    """A copy of the book's deal whose replay raises (its Event says so), beside the record itself."""
    real = match.replay_record

    def failing(record, *args, **kwargs):
        if any(g.tags.get("Event", "").startswith("broken") for g in record.games):
            raise RuntimeError("a bug")
        return real(record, *args, **kwargs)

    monkeypatch.setattr(pipeline, "replay_record", failing)
    path = tmp_path / "broken.dom"
    path.write_text(GOOD.read_text(encoding="utf-8").replace('[Event "', '[Event "broken ', 1), encoding="utf-8")
    return str(path)


def _run(*args):
    res = CliRunner().invoke(main, [*args])
    assert "Traceback" not in res.output and "internal error (" not in res.output, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    return res


BUG = "error[internal-error] the analyser failed on this record (RuntimeError: a bug)"


@pytest.mark.parametrize("command", [["replay"], ["analyze", "--max-nodes", "20000"], ["validate"],
                                     ["analyze", "--fair", "--decision-deals", "3", "--seed", "1", "--max-nodes", "20000"]])
def test_a_record_the_replay_fails_on_is_its_error_and_the_next_record_is_still_shown(broken, command):
    res = _run(*command, broken, str(GOOD))
    assert res.exit_code == 1 and BUG in res.output
    assert "2 records (1 game): 1 valid, 1 invalid" in res.output
    shown = res.output.split(BUG)[1]           # the record after the broken one, shown after its error
    assert "Game 1" in shown or "game 1" in shown


@pytest.mark.parametrize("command", [["replay"], ["analyze", "--max-nodes", "20000"],
                                     ["analyze", "--fair", "--decision-deals", "3", "--seed", "1", "--max-nodes", "20000"]])
def test_with_json_the_document_holds_the_other_records_and_counts_the_failed_one(broken, command):
    res = _run(*command, "--json", broken, str(GOOD))
    document = json.loads(res.stdout)
    assert res.exit_code == 1 and [g["file"] for g in document["games"]] == [str(GOOD)]
    assert document["summary"]["records"] == 2 and document["summary"]["invalid"] == 1


def test_a_failure_writing_a_replay_s_words_is_that_record_s_error(monkeypatch, tmp_path):
    import analyzer.render.text as text

    real = text.replay_text

    def failing(number, rep, *args, **kwargs):
        if rep.title.startswith("broken"):
            raise RuntimeError("a bug")
        return real(number, rep, *args, **kwargs)

    monkeypatch.setattr(text, "replay_text", failing)
    path = tmp_path / "broken.dom"
    path.write_text(GOOD.read_text(encoding="utf-8").replace('[Event "', '[Event "broken ', 1), encoding="utf-8")
    res = _run("replay", str(path), str(GOOD))
    assert res.exit_code == 1 and BUG in res.output and "Game 1" in res.output.split(BUG)[1]
