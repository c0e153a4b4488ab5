"""Validation costs at most some three times the replay (issue 72, item 5): the slip search behind ``validate``
replays only what a trial changes, and stops at a bound of work and of time that grows with the record, saying so.

The timings themselves are the bench's (bench/bench_triage.py, bench/campaign_inputs.py); these tests check what makes
them so: a deal tried is not checked over the deals its hidden hands allow, the match's replays are taken from
the record's budget, a search out of time stops with its note, and the inputs the campaign found."""
from __future__ import annotations

import re

import pytest

import analyzer.inference.sheet as sheet
import analyzer.repair.triage as triage_module
from analyzer.archive.runner import Options, process
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.pipeline import again
from analyzer.repair.deal import Deals
from analyzer.repair.search import MOVE_WORK, REPLAY_WORK, shared_work
from analyzer.repair.setting import Setting
from analyzer.repair.triage import RECORD_WORK, triage_games
from conftest import RECORDS, ROOT

DATA = ROOT / "tests" / "data" / "issue72"


def test_a_deal_the_slip_search_tries_is_not_checked_over_the_deals_its_hidden_hands_allow(monkeypatch):
    # a sheet (every hand hidden) with a slip: each deal the search tried was replayed with its stated result
    # checked over every deal the hidden hands allow (a listing of up to 1,000 deals, for a deal with no move):
    # 2.1 s of triage against 0.02 s of replay here, and 14.7 s against 0.08 s in the campaign's input
    (rep,) = replay_record(read(DATA / "sheet-slip-deal-trials.dom"))
    assert not rep.valid and all(rep.initial.hidden)
    listed = []
    real = sheet.listing
    monkeypatch.setattr(sheet, "listing", lambda *a, **k: listed.append(a) or real(*a, **k))
    setting = Setting.of(rep.game, rep.variant, rep.lead, rep.worth)
    deal = Deals(setting).of(tuple(rep.game.hands))
    for leader in (None, 0, 1):
        state, code = deal.lead_state(leader)
        assert code in (None, "lead-player") and state is not None
    assert deal.ok and listed == []
    # the record's own replay still checks its result over the deals (the search's confirmations do too)
    replay_record(read(DATA / "sheet-slip-deal-trials.dom"))
    assert listed


def _match_with_a_slip_in_every_game() -> str:
    """records/match-whist-progression-five.dom (32 games of a match) with one tile of each game's first row
    miscopied (a half off by one): every game broken, each repaired game replaying the match again."""
    text = (RECORDS / "match-whist-progression-five.dom").read_text(encoding="utf-8")
    games = re.split(r"(?=^\[Game )", text, flags=re.M)

    def miscopy(game: str) -> str:
        m = re.search(r"^1\. \w+ \[(\d)-(\d)\]", game, re.M)
        if m is None:
            return game
        a, b = int(m.group(1)), int(m.group(2))
        wrong = f"[{a}-{b + 1}]" if b < 6 else f"[{a}-{a - 1 if a else 1}]"
        return game[:m.start(1) - 1] + wrong + game[m.end(2) + 1:]
    return "".join(miscopy(g) for g in games)


def test_the_match_replays_of_a_repaired_game_are_taken_from_the_record_s_budget():
    # each repaired game of a match replays the match (its repairs checked there, then the rest replayed with it):
    # up to 1,000 games replayed, some 30 times the match's own replay, beside the searches' budget
    record = parse(_match_with_a_slip_in_every_game(), "match.dom")
    replays = replay_record(record)
    assert len(replays) >= 30 and all(rep.match is not None for rep in replays)
    assert sum(not rep.valid for rep in replays) >= 25
    replayed = []
    replay_again = again(record, None, {}, False)

    def counted(games):
        replayed.append(len(games))
        return replay_again(games)
    triages, reports = triage_games(replays, counted)
    moves = sum(len(rep.game.moves) + len(rep.game.hands) for rep in replays)
    budget = RECORD_WORK + MOVE_WORK * moves
    match_work = REPLAY_WORK * sum(len(rep.game.moves) + len(rep.game.hands) + 1 for rep in replays)
    spent = sum(r.work for r in reports.values()) + match_work * len(replayed)
    assert replayed and spent <= budget + match_work * 6        # (a repaired game's replays checked before it)
    assert sum(replayed) <= 3 * len(replays) * 6
    # the games triaged on their own past it still get their marks: every error primary or following a slip
    assert all(t is not None and all("follow_on" in d.details for d in t.diagnostics if d.severity == "error")
               for rep, t in zip(replays, triages) if not rep.valid)


def test_a_search_out_of_its_time_stops_and_says_so(monkeypatch):
    # the units of work bound what a trial does; a trial whose cost they do not say is bounded by the record's
    # time: RECORD_SECONDS and READ_TIMES its parse and replay (here none: every search stops at once)
    monkeypatch.setattr(triage_module, "RECORD_SECONDS", 0.0)
    replays = replay_record(read(RECORDS / "seed1.dom"))
    assert not replays[0].valid
    triages, reports = triage_games(replays, read_cpu=0.0)
    report = reports[0]
    assert not report.complete and report.best is None and report.searched <= 1
    (note,) = [d for d in triages[0].diagnostics if d.code == "slip-search-stopped"]
    assert note.severity == "info" and "work and time" in note.message
    # with time the same record's slip is found, as before
    triages, reports = triage_games(replays, read_cpu=1.0)
    assert reports[0].best is not None and "slip-search-stopped" not in {d.code for d in triages[0].diagnostics}


def test_validate_gives_the_search_a_time_that_grows_with_the_record_s_replay(monkeypatch):
    # the pipeline measures the parse and replay and the triage's time is a multiple of it (none: stopped at once)
    monkeypatch.setattr(triage_module, "RECORD_SECONDS", 0.0)
    monkeypatch.setattr(triage_module, "READ_TIMES", 0.0)
    data = (RECORDS / "seed1.dom").read_bytes()
    result = process("seed1.dom", data, Options("validate"))
    codes = [d["code"] for g in result["games"] for d in g["diagnostics"]]
    assert "slip-search-stopped" in codes and "internal-error" not in codes
    # ``validate --repair`` (the search asked for) has no bound of time
    result = process("seed1.dom", data, Options("validate", repair_edits=2))
    assert "slip-search-stopped" not in [d["code"] for g in result["games"] for d in g["diagnostics"]]


def test_shared_work_without_seconds_never_runs_out_of_time():
    from analyzer.repair.search import out_of_time
    with shared_work(10, None):
        assert not out_of_time()
    with shared_work(10, -1.0):
        assert out_of_time()
    assert not out_of_time()



def test_a_match_is_not_replayed_for_a_repaired_game_past_the_record_s_time(monkeypatch):
    # a match replayed checks each stated result over the deals its hidden hands allow (seconds, where its units
    # say milliseconds: 16 s of a 25 s triage in the campaign's input): each repaired game's replays of the match
    # are made only where the time left holds six of them
    monkeypatch.setattr(triage_module, "RECORD_SECONDS", 0.0)
    record = parse(_match_with_a_slip_in_every_game(), "match.dom")
    replays = replay_record(record)
    replayed = []
    replay_again = again(record, None, {}, False)
    triage_games(replays, lambda games: replayed.append(len(games)) or replay_again(games), read_cpu=0.0)
    assert replayed == []
    monkeypatch.setattr(triage_module, "RECORD_SECONDS", 60.0)
    triage_games(replays, lambda games: replayed.append(len(games)) or replay_again(games), read_cpu=0.01)
    assert replayed


def test_stats_of_a_sheet_in_a_match_is_no_internal_error():
    # found by the campaign (a tag order of records/sheet-kozel.dom; the bundled record itself fails the same):
    # stats grades every game on the match scale, and a sheet's second game (a match position before it, no hand
    # known) had its principal variation played out by the open-hands solver: 'SolverError: the solver needs
    # every hand known', the record's internal-error
    from click.testing import CliRunner
    from analyzer.cli import main
    for args in (["stats"], ["stats", "--json"], ["stats", "--scale", "match"]):
        res = CliRunner().invoke(main, args + [str(DATA / "sheet-stats-match-scale.dom")])
        assert res.exit_code == 0, res.output
        assert "internal" not in res.output and "Traceback" not in res.output


def test_the_games_after_the_record_s_time_are_not_searched_and_say_so(monkeypatch):
    # a search's set-up replays its game again (its first error, the record as the replayer has it): the games
    # met once the time is up get their errors and the note without one (a file of 80 broken records spent a
    # quarter of a second past its bound so)
    import analyzer.repair.triage as t
    monkeypatch.setattr(t, "RECORD_SECONDS", 0.0)
    searched = []
    monkeypatch.setattr(t, "search_slips", lambda rep, **k: searched.append(rep) or pytest.fail("searched"))
    replays = replay_record(read(RECORDS / "seed1.dom"))
    triages, reports = triage_games(replays, read_cpu=0.0)
    assert searched == [] and not reports[0].complete and reports[0].searched == 0
    assert "slip-search-stopped" in {d.code for d in triages[0].diagnostics}
    assert [d.key for d in triages[0].diagnostics if d.code != "slip-search-stopped"] == [d.key for d in replays[0].diagnostics]
