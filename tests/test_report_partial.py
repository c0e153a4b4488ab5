"""`report` says what `analyze` says (issue 54, item 5): a record with hidden hands gets the fair analysis on
its page as `analyze` gives it (the pipeline chooses the analysis, the page renders it), and the page says
nothing of open-hands values where there are none."""
from __future__ import annotations

import json
import pathlib
import re
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from analyzer.cli import main
from analyzer.render.model import move_words
from analyzer.render.verdicts import tied_words

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "records"
# the bundled records with hands the record does not show (``B: ?``)
PARTIAL = ["draw-one-view.dom", "draw-one-view-extra.dom"]


def _verdicts(decisions: list[dict]) -> list[tuple]:
    return [(d["index"], d["fair"]["best"], tuple(d["fair"]["tied"]), d["fair"]["verdict"], d["fair"]["class"],
             d["fair"]["deals"], d["fair"]["loss"], d["fair"]["method"], json.dumps(d["fair"].get("over_hands")))
            for d in decisions if d.get("fair")]


def _analyze(path: pathlib.Path, *extra: str) -> list[tuple]:
    res = CliRunner().invoke(main, ["analyze", str(path), "--json", *extra])
    assert res.exit_code in (0, 1), res.output
    return _verdicts(json.loads(res.stdout)["games"][0]["decisions"])


def _report(path: pathlib.Path, out: pathlib.Path, *extra: str) -> tuple[list[tuple], str]:
    res = CliRunner().invoke(main, ["report", str(path), "-o", str(out), "--jsonl", *extra])
    assert res.exit_code in (0, 1), res.output
    data = json.loads(res.stdout.splitlines()[0])
    return _verdicts(data["games"][0]["analysis"]["decisions"]), out.read_text(encoding="utf-8")


def _sections(html: str) -> dict[int, str]:
    """The page's detail of each move, by its number."""
    parts = re.split(r'<section class="detail(?: critical)?" data-move="(\d+)"', html)
    return {int(parts[k]): parts[k + 1] for k in range(1, len(parts) - 1, 2)}


@pytest.mark.slow
@pytest.mark.parametrize("name", PARTIAL)
def test_report_gives_the_fair_verdicts_analyze_gives(name, tmp_path):
    said = _analyze(RECORDS / name)
    shown, html = _report(RECORDS / name, tmp_path / "page.html")
    assert said and shown == said
    sections = _sections(html)
    for index, best, tied, _verdict, _cls, worlds, loss, method, over in said:
        section = sections[index + 1]
        hands = json.loads(over)
        if method == "over-hands":      # (a sheet: B's hand is not written, his moves judged over his hands)
            if hands["max"] == 0:
                assert "it is best in every one of them." in section
            else:
                assert f"it loses <b>{loss:.2f}</b>" in section
                assert f"a real mistake in {hands['real']} of {hands['judged']} hands." in section
        elif tied:
            assert tied_words(SimpleNamespace(tied=tied, method=method, worlds=worlds), move_words) in section
        elif loss > 0:
            assert re.search(re.escape(f"best: {move_words(best)}") + r"(\.|, ahead of )", section), section
        else:           # (the gap to the next move and its interval, where one is told apart: #69 item 3)
            assert re.search(r"it is best(\.|, ahead of )", section), section
    # no open-hands values: no sentence about them
    assert "With every hand open" not in html and "hindsight's pick</span> the best" not in html


def test_report_with_fair_and_a_seed_gives_what_analyze_gives(tmp_path):
    extra = ["--fair", "--decision-deals", "30", "--max-decision-deals", "120", "--seed", "3"]
    said = _analyze(RECORDS / "draw-one-view.dom", *extra)
    shown, _ = _report(RECORDS / "draw-one-view.dom", tmp_path / "page.html", *extra)
    assert said and shown == said


def test_a_partial_record_to_move_says_nothing_of_open_hands(tmp_path):
    """A record that stops at a decision, the other hand hidden: the page's question is answered by the fair
    analysis alone, never as "with every hand open"."""
    text = (RECORDS / "variant-all-fives-to-move.dom").read_text(encoding="utf-8")
    text = re.sub(r"^B: .*$", "B: ?", text, flags=re.M)
    path = tmp_path / "to-move.dom"
    path.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(main, ["report", str(path), "-o", str(tmp_path / "page.html")])
    assert res.exit_code == 0, res.output
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "What should" in html and "By what A knows" in html
    assert "With every hand open" not in html and 'class="badge best-badge">best</span>' not in html.split(
        'class="to-move"')[1]


def test_the_page_counts_no_worlds_itself(monkeypatch):
    """Who holds what comes from the pipeline (``mover_views``, over the worlds the fair analysis counted): the
    page built from the analysis alone shows none and counts nothing."""
    import analyzer.inference as inference
    from analyzer.analysis import analyze_replay
    from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
    from analyzer.match import replay_record
    from analyzer.notation import read
    from analyzer.pipeline import mover_views
    from analyzer.render import build_report, render_html

    (rep,) = replay_record(read(RECORDS / "draw-one-view.dom"))
    analysis = fair_analyze(rep, analyze_replay(rep), settings=FairSettings(worlds=4, exact_below=400),
                            run=FairRun(workers=1))

    def counted(*args, **kwargs):
        raise AssertionError("the page counted worlds")

    with monkeypatch.context() as m:
        for name in ("holds_of", "holds_table", "worlds_at"):
            m.setattr(inference, name, counted)
        model = build_report("draw-one-view.dom", [rep], [analysis])
        render_html(model)
    assert all(move.holds is None for move in model.games[0].moves)
    (analysis,) = mover_views([analysis])
    judged = [move for move in build_report("draw-one-view.dom", [rep], [analysis]).games[0].moves
              if move.decision is not None and move.decision.fair is not None]
    assert judged and all(move.holds is not None for move in judged)
