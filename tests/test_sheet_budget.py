"""The checks of a record's sheets share one budget of work (``analyzer.match.SheetBudget``): a game hiding every hand
may take a couple of seconds to check over the deals its moves allow, so a file of many such games took as many times
that. While the record's checks have taken fewer than ``SHEET_STEPS`` steps of the inference, a game is checked in
full; past them each later game gets ``SHEET_GAME_STEPS``, and one that needs more keeps its moves' diagnostics, no
error its deals were to confirm, and an info at its place saying which check was cut and why.

The games are bundled records with every hand written ``?``: the first game of the Kozel match (its deals counted, a
domino) and the three-player Hungarian game (whose moves do not show that the hand is over: its deals do), each alone
(no Game tags: each game's check its own, not the match's). The budgets are made small so that the cut comes within
a few games; the work is counted in the inference's steps, never timed."""
from __future__ import annotations

import re
import time
import types

import pytest

import analyzer.match as match_module
from analyzer.inference.memo import DealMemo, remembering
from analyzer.match import SheetBudget, replay_record
from analyzer.notation import parse
from analyzer.server.library import validate_document
from conftest import RECORDS


def _alone_handless(name: str) -> str:
    """The first game of ``records/NAME`` with every hand written ``?``, without its Game and Score tags."""
    text = (RECORDS / name).read_text(encoding="utf-8")
    first = "[Event" + text.split("[Event")[1]
    first = re.sub(r'^\[(Game|Score) "[^"]*"\]\n', "", first, flags=re.M)
    return re.sub(r"^([A-Z]): \[.*$", r"\1: ?", first, flags=re.M).rstrip("\n") + "\n\n"


KOZEL = _alone_handless("match-kozel.dom")            # its deals counted by how the hand ends
HUNGARIAN = _alone_handless("variant-hungarian.dom")  # its moves do not show the hand over: its deals do


class _Kept(SheetBudget):
    """The budgets of the records read, kept to be looked at."""

    made: list = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.made.append(self)


def _read(text: str, monkeypatch, steps: float, game_steps: int):
    monkeypatch.setattr(match_module, "SHEET_STEPS", steps)
    monkeypatch.setattr(match_module, "SHEET_GAME_STEPS", game_steps)
    monkeypatch.setattr(match_module, "SheetBudget", _Kept)
    _Kept.made = []
    replays = replay_record(parse(text, "sheets.dom"))
    (budget,) = _Kept.made
    return replays, budget


def _costs(monkeypatch) -> dict[str, int]:
    """What each game's check costs in full, alone (the reference: a budget that never runs out)."""
    costs = {}
    for name, text in (("kozel", KOZEL), ("hungarian", HUNGARIAN)):
        (rep,), budget = _read(text, monkeypatch, float("inf"), 0)
        assert rep.valid and any(d.code == "deals-result" for d in rep.diagnostics)
        costs[name] = budget.spent
    return costs


def test_the_games_past_the_record_s_budget_get_the_cheaper_check_and_say_so(monkeypatch):
    costs = _costs(monkeypatch)
    assert costs["hungarian"] < costs["kozel"]         # (the Kozel count fills more states than three deals listed)
    order = ["kozel", "hungarian"] * 3
    full, _ = _read("".join(KOZEL if g == "kozel" else HUNGARIAN for g in order), monkeypatch, float("inf"), 0)
    # the record's budget: two Kozel checks less a step (the third game, a Kozel, starts within it and ends past it);
    # each later game gets what a Hungarian check needs, not what a Kozel one does
    steps, game_steps = 2 * costs["kozel"] - 1, costs["hungarian"]
    replays, budget = _read("".join(KOZEL if g == "kozel" else HUNGARIAN for g in order), monkeypatch, steps,
                            game_steps)
    assert len(replays) == len(order)                                   # every game read
    assert not any(rep.errors for rep in replays)                       # no false error
    cut = [k for k, rep in enumerate(replays) if any(d.code == "deals-check-stopped" for d in rep.diagnostics)]
    assert cut == [4] and len(budget.cut) == 1 and budget.cut[0] is replays[4]    # the Kozel game after the budget
    # the games checked in full or within the cheaper check say what the unbounded read says
    for k, (rep, whole) in enumerate(zip(replays, full)):
        if k not in cut:
            assert [d.key for d in rep.diagnostics] == [d.key for d in whole.diagnostics]
            assert rep.result == whole.result and rep.outcomes == whole.outcomes
    # the cut game: its moves' diagnostics, not the deals' (its result not known), and the note at its place
    rep, whole = replays[4], full[4]
    (note,) = [d for d in rep.diagnostics if d.code == "deals-check-stopped"]
    assert (note.severity, note.line) == ("info", rep.game.pos.line)
    assert "were not searched" in note.message and f"{steps:,} steps" in note.message
    assert rep.result is None and not rep.outcomes and whole.result is not None
    assert any(d.code == "unchecked-result" for d in rep.diagnostics)     # (the deals gave it; the moves do not)
    assert [d.key for d in rep.diagnostics if d is not note and d.code != "unchecked-result"] == [
        d.key for d in whole.diagnostics if d.code != "deals-result"]
    # the work: the budget, the game that began within it, and the cheaper check of each later game
    assert budget.spent <= steps + costs["kozel"] + game_steps * 3


def test_a_cut_game_whose_moves_do_not_show_its_end_is_no_error(monkeypatch):
    # nothing left for any check: every game is cut, the Hungarian game's "the record does not show that the hand is
    # over" (which only its deals could confirm or take away) said in the note, not as an error
    (rep,), budget = _read(HUNGARIAN, monkeypatch, 0, 1)
    (alone,), _ = _read(HUNGARIAN, monkeypatch, float("inf"), 0)
    assert alone.valid and len(budget.cut) == 1 and budget.cut[0] is rep
    assert rep.valid and rep.result is None
    (note,) = [d for d in rep.diagnostics if d.code == "deals-check-stopped"]
    assert "do not show that the hand is over" in note.message
    assert budget.spent <= 1 + 1          # (the step that passed the limit: the check stopped there)


def test_past_the_record_s_cpu_net_no_later_game_is_searched(monkeypatch):
    # the safety net of CPU time, for what the steps do not count: a machine on which the first game's check took past
    # it (the checks' clock made a million times as fast) searches no later game's deals, whatever steps are left
    real = time.process_time
    monkeypatch.setattr(match_module, "time", types.SimpleNamespace(process_time=lambda: 1e6 * real()))
    replays, budget = _read(KOZEL + HUNGARIAN + KOZEL, monkeypatch, float("inf"), 10 ** 9)
    assert any(d.code == "deals-result" for d in replays[0].diagnostics)       # the first game checked in full
    assert len(budget.cut) == 2 and budget.cut[0] is replays[1] and budget.cut[1] is replays[2]
    assert not any(rep.errors for rep in replays)
    for rep in replays[1:]:
        (note,) = [d for d in rep.diagnostics if d.code == "deals-check-stopped"]
        assert "s of CPU" in note.message and rep.result is None
    assert budget.spent == _costs(monkeypatch)["kozel"]                      # (no step taken past the first game)


@pytest.mark.parametrize("steps", [0, 1_000])
def test_the_board_s_memo_gives_the_cuts_a_fresh_read_gives(monkeypatch, steps):
    # a game's deals kept by the board's memo are charged the steps they cost: a second request on the same text
    # cuts the same games as a read with nothing kept (were they free, it would check more of them)
    monkeypatch.setattr(match_module, "SHEET_STEPS", steps)
    monkeypatch.setattr(match_module, "SHEET_GAME_STEPS", 100)
    text = (KOZEL + HUNGARIAN) * 2
    cold = validate_document(text, "sheets.dom")
    memo = DealMemo()
    with remembering(memo):
        first = validate_document(text, "sheets.dom")
        again = validate_document(text, "sheets.dom")
    assert memo.reused
    assert first == cold and again == cold
    assert any(d["code"] == "deals-check-stopped" for g in cold["games"] for d in g["diagnostics"])


def test_deals_kept_past_their_meter_charge_the_meter_that_uses_them():
    # the deals a memo keeps outlive the meter they were counted under: a later check that lists them (each world a
    # step, each state of the placements' programme built as the listing asks) or scores their endings charges its
    # own meter, never the closed one (which, spent, would stop a check it has no part in)
    from analyzer.inference.meter import metered
    from analyzer.inference.sheet import _Ending, record_worlds

    (rep,) = replay_record(parse(HUNGARIAN, "h.dom"), sheets=False)
    with metered(float("inf")) as made:
        worlds = record_worlds(rep)
        ending = _Ending(rep, worlds)
    before = made.spent
    with metered(float("inf")) as using:
        endings = [ending.ending(w) for w in worlds]
    assert made.spent == before and using.spent >= len(endings) > 0
