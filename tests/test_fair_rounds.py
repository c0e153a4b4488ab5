"""The adaptive rounds of the fair analysis (issue 54): one pool of processes serves every round of a record,
with the same verdicts as one process; the progress counts against the budget, which only shrinks, so a bar
drawn from it never runs past its length."""
from __future__ import annotations

import pathlib
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor

from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.search.core import SearchBudget
from analyzer.cli import output
from analyzer.match import replay_record
from analyzer.notation import read

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
SETTINGS = FairSettings(seats=("C",), worlds=20, max_worlds=160, exact_below=1, seed=7)


def _game():
    (rep,) = replay_record(read(RECORDS / "seed2.dom"))
    return rep


def _said(analysis):
    return [(d.index, d.fair.best, d.fair.tied, d.fair.worlds, [a.fair.mean for a in d.alternatives])
            for d in analysis.decisions if d.fair is not None]


def test_one_pool_serves_every_round_with_the_verdicts_of_one_process():
    made = []

    def pool(**options):
        made.append(options)
        return ProcessPoolExecutor(**options)

    rounds = []
    pooled = fair_analyze(_game(), settings=SETTINGS,
                          run=FairRun(workers=2, pool=pool, progress=lambda done, total: rounds.append(total)))
    alone = fair_analyze(_game(), settings=SETTINGS, run=FairRun(workers=1))
    assert _said(pooled) == _said(alone)
    assert any(worlds > 20 for _, _, _, worlds, _ in _said(alone))        # (more than one round was drawn)
    assert len(made) == 1 and made[0]["max_workers"] == 2


def test_the_progress_counts_against_a_budget_that_only_shrinks():
    seen = []
    analysis = fair_analyze(_game(), settings=SETTINGS,
                            run=FairRun(workers=1, progress=lambda done, total: seen.append((done, total))))
    dones, totals = [d for d, _ in seen], [t for _, t in seen]
    assert dones == sorted(dones) and totals == sorted(totals, reverse=True)
    assert all(d <= t for d, t in seen)
    sampled = [d for d in analysis.decisions if d.fair is not None]
    assert totals[0] == 160 * len(sampled)                 # every decision at the budget, at first
    assert seen[-1] == (sum(d.fair.worlds for d in sampled),) * 2      # each world counted once, at the end


def test_the_worlds_bar_is_re_based_to_the_budget(monkeypatch):
    monkeypatch.setattr(output, "_terminal", lambda: True)
    shown = output.WorldsBar("seed2.dom")
    with shown as told:
        told.deals(10, 400)
        assert shown.bar.length == 400 and shown.bar.pos == 10
        told.deals(200, 250)                # decisions settled: fewer deals than the budget allowed
        assert shown.bar.length == 250 and shown.bar.pos == 200
        told.deals(250, 250)
        assert shown.bar.pos == shown.bar.length == 250


# ---- a decision past the node limit (issue 55: a report of a mutated French record ran for minutes) ---------

OVER = pathlib.Path(__file__).resolve().parent / "data" / "fuzz55" / "fair-french-over-the-node-limit.dom"


def _solves(monkeypatch) -> list[tuple[tuple[int, int], int, bool]]:
    """Each world-solving task the fair analysis runs in this process: (its decision and seat, its part, whether
    it came back past the node limit)."""
    from analyzer.analysis import fair

    runs, solve = [], fair._solve

    def counted(task):
        got = solve(task)
        plan = fair._JOB["plans"][task[0]]
        runs.append(((plan.k, plan.seat), task[1], got is None))
        return got
    monkeypatch.setattr(fair, "_solve", counted)
    return runs


def test_a_decision_past_the_node_limit_solves_no_more_of_its_worlds(monkeypatch):
    # a mutated French record (hidden hands: the fair analysis; 200 worlds a decision, in 8 parts of 25): at a
    # small node limit most decisions need more in their first world; each such decision is not valued whatever
    # its other parts give, so none of them is started (each would spend the node limit again on its first world)
    runs = _solves(monkeypatch)
    rep = next(r for r in replay_record(read(OVER)) if r.deal_ok and r.steps)
    analysis = fair_analyze(rep, settings=FairSettings(worlds=200, budget=SearchBudget(node_limit=2000)),
                            run=FairRun(workers=1))
    failed = {plan for plan, _, over in runs if over}
    assert len(failed) >= 5                                 # (the record's point: many decisions past the limit)
    for plan in failed:
        parts = [(part, over) for p, part, over in runs if p == plan]
        assert parts[-1][1] and not any(over for _, over in parts[:-1])     # nothing solved after the first past it
    assert "not valued" in analysis.fair_note and "2,000 positions" in analysis.fair_note
    over = [d for d in analysis.decisions if d.index in {k for k, _ in failed}]
    assert over and all(d.fair is None for d in over)


# ---- racing (issue 71): the rounds after the first value only the moves still in contention ----------------------

def _every_move_valued(monkeypatch):
    """The fair analysis as it was before racing: every move valued in every world drawn."""
    from analyzer.analysis import fair
    from analyzer.search.worlds import WorldsSolver

    real = WorldsSolver.values
    monkeypatch.setattr(WorldsSolver, "values", lambda self, position, deals, only=None: real(self, position, deals))
    monkeypatch.setattr(fair, "_kept", lambda row, only: row)


def _written(alternative) -> dict:
    """The alternative's fair value as the JSON writes it."""
    from analyzer.codec import to_data

    return to_data(alternative, fair=True)["fair"]


def _counted(alternative) -> int:
    return sum(n for _, n in alternative.fair.values)


def test_a_move_out_of_contention_keeps_the_values_of_its_first_worlds_and_the_verdict_stands(monkeypatch):
    """Racing drops from the worlds drawn after a look the moves the best is told apart from at that look: they
    keep their values in the worlds they were valued in (the first ones drawn, the same worlds as with every move
    valued), the moves still in contention and the move played are valued in every world as before, so the best
    and their means are those of the analysis that values every move in every world, and the moves not told apart
    from the best are among the ones it names."""
    settings = replace(SETTINGS, worlds=25, max_worlds=200)
    raced = fair_analyze(_game(), settings=settings, run=FairRun(workers=1))
    with monkeypatch.context() as m:
        _every_move_valued(m)
        whole = fair_analyze(_game(), settings=settings, run=FairRun(workers=1))
    dropped = 0
    for fast, slow in zip(*[[d for d in a.decisions if d.fair is not None] for a in (raced, whole)]):
        assert (fast.index, fast.fair.worlds) == (slow.index, slow.fair.worlds)
        assert fast.fair.best == slow.fair.best
        assert set(fast.fair.tied) <= set(slow.fair.tied) or not slow.fair.tied
        for a, b in zip(fast.alternatives, slow.alternatives):
            counted = _counted(a)
            assert counted % 25 == 0 and counted <= fast.fair.worlds        # (whole parts: the first worlds)
            if counted == fast.fair.worlds:
                assert a.fair == b.fair                   # valued in every world: as before
                assert a.fair.worlds is None and "worlds" not in _written(a)
            else:
                dropped += 1
                # its value says over how many worlds it stands (the JSON too: schema version 3)
                assert a.fair.worlds == counted and _written(a)["worlds"] == counted
                assert a.move != fast.played and a.move != fast.fair.best       # (both valued in every world)
                # its values are those of the same first worlds with every move valued (checked on its worst)
                assert a.fair.spread.low >= b.fair.spread.low
    assert dropped            # (this record's settings drop some: the test sees racing at work)
