"""The report's plan of a cross (which branch arms are drawn apart) against a plain reference: the fast paths of
``report.geometry`` (the clash found along x, the scenes kept by the strips among a step's own arms, the scenes of
the last look reused) give the very plan and scenes of the plain double loop that draws every step again after
each arm put apart. The layouts are those a real report draws: every board and every alternative's best line of
records/variant-cross-9.dom (arms put apart in 19 of its 74 plans) and of a cross without any."""
from __future__ import annotations

import math

import pytest

from analyzer.report import geometry, pagedata
from analyzer.report.geometry import Plan, arms_scene, plan_arms, planned_scenes

from conftest import ROOT


def plain_clash(scene, branch) -> int:
    items = [p for p in scene.tiles + scene.labels if not p.apart]
    for i, p in enumerate(items):
        for q in items[i + 1:]:
            if p.arm != q.arm and geometry._overlap(geometry._box(p), geometry._box(q)):
                later, sooner = max(p.arm, q.arm), min(p.arm, q.arm)
                if later in branch:
                    return later
                if sooner in branch:
                    return sooner
    return 0


def plain_plan(layouts) -> Plan:
    plan = Plan()
    layouts = [lay for lay in layouts if lay is not None and lay.lead is not None]
    branch = {a.number for lay in layouts for a in lay.arms if a.origin is not None}
    if not branch:
        return plan
    again = True
    while again:
        again = False
        for lay in layouts:
            arm = plain_clash(arms_scene(lay, plan), branch)
            if arm:
                plan.strips.add(arm)
                again = True
                break
    if plan.strips:
        bottom, left = -math.inf, math.inf
        for lay in layouts:
            scene = arms_scene(lay, plan)
            for item in scene.tiles + scene.labels:
                if not item.apart:
                    x, y, w, h = geometry._box(item)
                    bottom, left = max(bottom, y + h), min(left, x)
        plan.top, plan.left = bottom + 8, left
    return plan


def drawn_layouts(monkeypatch, record: str, out) -> list[list]:
    """Every list of layouts the report of ``record`` plans."""
    from click.testing import CliRunner

    from analyzer.cli import main

    seen = []
    monkeypatch.setattr(pagedata, "planned_scenes", lambda layouts: seen.append(list(layouts)) or planned_scenes(layouts))
    result = CliRunner().invoke(main, ["report", str(ROOT / "records" / record), "-o", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output[-500:]
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("record, apart", [("variant-cross-9.dom", True), ("variant-cross.dom", False)])
def test_the_plan_and_scenes_of_a_cross_are_the_plain_loops(monkeypatch, tmp_path, record, apart):
    every = drawn_layouts(monkeypatch, record, tmp_path / "page.html")
    assert every
    strips = 0
    for layouts in every:
        plan = plain_plan(layouts)
        assert plan_arms(layouts) == plan
        assert planned_scenes(layouts) == [arms_scene(lay, plan) for lay in layouts]
        strips += bool(plan.strips)
    assert bool(strips) == apart           # (the record puts arms apart, or none: both paths are seen)
