"""The pipeline reads a record once: whatever the command and its options, a record is parsed once
and its games replayed once (the repair search replays its candidate records, which are other games)."""
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import analyzer.match as match
import analyzer.notation.reader as reader
from analyzer.cli import main

RECORDS = Path(__file__).resolve().parent.parent / "records"


@pytest.fixture
def counted(monkeypatch):
    """Count the parses of a record text and the replays of a parsed record, wherever the code calls
    them from (every module of the analyser that holds the two functions gets the counting ones); the
    first text parsed is the record's (the writer reads its repaired text back to check it: another text)."""
    for name in ("validate", "analyze"):
        main.commands[name]          # (its modules loaded, so that their names are counted too)
    import analyzer.pipeline  # noqa: F401
    real_parse, real_replay = reader.parse, match.replay_record
    parsed: set[int] = set()
    calls = {"parse": 0, "replay": 0}

    texts: set[str] = set()

    def parse(text, *args, **kwargs):
        if not texts or text in texts:      # the record's text (not the repaired text read back to check it)
            calls["parse"] += 1
            texts.add(text)
        record = real_parse(text, *args, **kwargs)
        parsed.add(id(record))
        return record

    def replay_record(record, *args, **kwargs):
        if id(record) in parsed:      # the record as read (not a repaired copy of it)
            calls["replay"] += 1
        return real_replay(record, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.startswith("analyzer") and module is not None:
            for attr, fake, real in (("parse", parse, real_parse), ("replay_record", replay_record, real_replay)):
                if getattr(module, attr, None) is real:
                    monkeypatch.setattr(module, attr, fake)
    return calls


def test_validate_repair_write_repaired_parses_and_replays_a_record_once(counted, tmp_path):
    """The book's table breaks the rules in round 7: the repair search and the repaired record come
    from the one reading of the file (they read it three times)."""
    out = tmp_path / "repaired.txt"
    res = CliRunner().invoke(main, ["validate", "--repair", "--write-repaired", str(out),
                                    str(RECORDS / "seed1-table.txt")])
    assert res.exit_code == 1 and out.exists() and "1. " in res.stdout
    assert counted == {"parse": 1, "replay": 1}


@pytest.mark.parametrize("args", [["--decision-deals", "5"], ["--fair", "--decision-deals", "5"]])
def test_analyze_of_a_partial_record_parses_and_replays_it_once(counted, args):
    """A record kept by one player (the other's hand unseen) gets the fair analysis: seeing that its
    hands are not all known and analysing it is one reading of the file (it was two)."""
    res = CliRunner().invoke(main, ["analyze", *args, str(RECORDS / "draw-one-view.dom")])
    assert res.exit_code == 0 and "fair (" in res.stdout
    assert counted == {"parse": 1, "replay": 1}


def test_analyze_of_a_full_record_parses_and_replays_it_once(counted):
    """The check for hidden hands reads the first record; its analysis goes on from that reading."""
    res = CliRunner().invoke(main, ["analyze", "--max-nodes", "20000", str(RECORDS / "seed2.dom")])
    assert res.exit_code == 0 and "Game 1:" in res.stdout
    assert counted == {"parse": 1, "replay": 1}
