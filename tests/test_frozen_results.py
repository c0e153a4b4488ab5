"""The results of an analysis are frozen values (issue 69, item 1): a later step (the fair analysis, the draws'
luck, the match scale, a page's view of who holds what) gives a new value composed of the one it was given and its
own figures, and leaves the one it was given as it was."""
from __future__ import annotations

import dataclasses

import pytest

from analyzer.analysis import Alternative, Decision, GameAnalysis, Played, analyze_replay
from analyzer.analysis.drawluck import draw_lucks, with_luck
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.codec import to_data
from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.pipeline import mover_views
from conftest import RECORDS


def _seed_game():
    (rep,) = replay_record(read(RECORDS / "variant-block7.dom"))
    return rep


def test_every_result_type_of_an_analysis_refuses_a_write():
    rep = _seed_game()
    analysis = analyze_replay(rep)
    decision = analysis.decisions[0]
    for value, name in ((analysis, "stopped"), (analysis, "decisions"), (decision, "fair"), (decision, "loss"),
                        (decision.alternatives[0], "fair"), (decision.alternatives[0], "line"),
                        (analysis.moves[0], "move")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, None)
    # (its sequences are tuples: nothing can be appended to a finished result either)
    assert isinstance(analysis.decisions, tuple) and isinstance(decision.alternatives, tuple)
    assert isinstance(analysis.moves, tuple) and isinstance(analysis.values, tuple)
    assert all(dataclasses.is_dataclass(t) and t.__dataclass_params__.frozen
               for t in (GameAnalysis, Decision, Alternative, Played))


def _fair_parts_cleared(d: Decision) -> Decision:
    return dataclasses.replace(d, fair=None, alternatives=tuple(dataclasses.replace(a, fair=None)
                                                                for a in d.alternatives))


def test_the_fair_analysis_leaves_the_open_hands_analysis_it_was_given_as_it_was():
    rep = _seed_game()
    base = analyze_replay(rep)
    written = to_data(base)
    judged = fair_analyze(rep, base, settings=FairSettings(seats=("A",), worlds=8, exact_below=8),
                          run=FairRun(workers=1))
    # the analysis given: no verdict written into it, its data as before
    assert not base.fair and all(d.fair is None and all(a.fair is None for a in d.alternatives)
                                 for d in base.decisions)
    assert to_data(base) == written
    # the new one: A's decisions judged, and every open-hands figure as the analysis given had it
    assert judged.fair and judged is not base
    fair = [d for d in judged.decisions if d.fair is not None]
    assert fair and all(d.player == "A" for d in fair)
    valued = [d for d in judged.decisions if d.played_value is not None]
    assert [_fair_parts_cleared(d) for d in valued] == list(base.decisions)
    # its critical move is its own decision (with the verdict), not the one of the analysis given
    if base.critical is not None:
        assert any(judged.critical is d for d in judged.decisions)
        assert _fair_parts_cleared(judged.critical) == base.critical
    # a page's view of who holds what: new analyses again, those given unchanged
    viewed = mover_views([judged])
    assert all(getattr(d.fair, "holds", None) is None for d in judged.decisions if d.fair is not None)
    assert any(d.fair is not None and d.fair.holds is not None for d in viewed[0].decisions)


def test_the_draws_luck_is_composed_into_a_new_analysis():
    (rep,) = replay_record(read(RECORDS / "variant-draw.dom"))[:1]
    analysis = analyze_replay(rep)
    written = to_data(analysis)
    lucks = draw_lucks(rep)
    lucky = with_luck(analysis, lucks, rep.steps)
    assert to_data(analysis) == written and all(m.luck is None for m in analysis.moves)
    draws = [k for k, s in enumerate(rep.steps) if s.move is not None and s.move.draw and k < len(analysis.moves)]
    assert draws and [k for k, m in enumerate(lucky.moves) if m.luck is not None] == draws
    # the per-side totals count each draw valued once, for its drawer's side
    assert sum(t.draws for t in lucky.draw_luck) == sum(1 for x in lucks if x is not None)


def test_an_analysis_composed_with_the_draws_luck_and_the_match_scale_comes_back_from_its_json():
    """The composed parts (each draw's ``draw_luck``, the sides' totals, the MWC of each move and decision, the
    match scale) are written in their places by the codec and read back into their types: written again, the
    same JSON."""
    import json

    from click.testing import CliRunner

    from analyzer.cli import main
    from analyzer.codec import from_data

    out = CliRunner().invoke(main, ["analyze", "--json", "--scale", "match", str(RECORDS / "variant-draw.dom")])
    games = json.loads(out.stdout)
    games = games["games"] if isinstance(games, dict) else games
    composed = [{k: v for k, v in g.items() if k not in ("file", "valid", "diagnostics")} for g in games]
    assert any("draw_luck" in a and "match_scale" in a for a in composed)
    for data in composed:
        back = from_data(GameAnalysis, data)
        assert to_data(back) == data
        assert [m.luck is not None for m in back.moves] == ["draw_luck" in m for m in data.get("moves", [])]
        if "match_scale" in data and any("mwc_loss" in d for d in data["decisions"]):
            assert all(d.on_scale is not None for d in back.decisions)
