"""The report's plan of a cross (which branch arms are drawn apart) against a plain reference: the fast paths of
``render.geometry`` (the clash found along x, each layout's drawing but its arms apart kept by its value and its
own strips, across plans, a restart drawing again only the steps that have the arm put apart, the labels placed
against a grid, the frame kept with the scene) give the very plan and scenes of the plain double loop that draws
every step whole again after each arm put apart, labels placed against every box before them. The layouts are
those a real report draws: every board and every alternative's best line of records/variant-cross-9.dom (arms put
apart in 19 of its 74 plans) and of a cross without any; and random cross games, whole and from any move."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from analyzer.match import random_match, replay_record
from analyzer.render import geometry, pagedata
from analyzer.render.geometry import Label, Plan, Scene, arms_box, arms_scene, plan_arms, planned_scenes
from analyzer.render.model import build_report
from analyzer.rules import find_variant

from conftest import ROOT


def plain_scene(lay, plan) -> Scene:
    """The layout ``lay`` drawn whole by ``plan`` in one pass, each label put where it meets no box before it."""
    out = Scene()
    if lay is None or lay.lead is None:
        return out
    a, b = lay.lead
    spinner = a == b
    U = geometry.U
    out.tiles.append(geometry.Place(-U / 2, -U, True, a, b, lead=True, arm=0) if spinner
                     else geometry.Place(-U, -U / 2, False, b, a, lead=True, arm=0))
    starts = ((U / 2, 0), (-U / 2, 0), (0, -U), (0, U)) if spinner else ((U, 0), (-U, 0), (0, -U / 2), (0, U / 2))
    drawn, sides, spots, apart, main = {}, {}, [], [], 0
    for arm in lay.arms:
        if arm.origin is None and main < 4:
            d = geometry._SIDES[main]
            tiles, end, way = geometry._walk(arm, starts[main], d, geometry.REACH[0] if d[0] else geometry.REACH[1])
            drawn[arm.number] = tiles
            out.tiles += tiles
            spots.append(list(geometry._label_spots(arm, geometry._SIDE_WORDS[main], tiles, end, way)))
            main += 1
    for arm in lay.arms:
        if arm.number in drawn:
            continue
        parent = drawn.get(arm.origin[0]) if arm.origin else None
        double = parent[arm.origin[1]] if parent and arm.origin[1] < len(parent) else None
        side = sides.get(tuple(arm.origin), 0) if arm.origin else 2
        if arm.origin:
            sides[tuple(arm.origin)] = side + 1
        if double is not None and double.a == double.b and side < 2 and arm.number not in plan.strips:
            d = geometry._cw(double.way) if side else geometry._ccw(double.way)
            tiles, end, way = geometry._walk(arm, (double.centre[0] + d[0] * U, double.centre[1] + d[1] * U), d,
                                             math.inf)
            drawn[arm.number] = tiles
            out.tiles += tiles
            spots.append(list(geometry._label_spots(arm, f"from [{double.a}-{double.b}] on arm {arm.origin[0]}",
                                                    tiles, end, way)))
        else:
            apart.append(arm)
    boxes = [(p.x, p.y, p.w, p.h) for p in out.tiles]
    for choice in spots:
        label = next((s for s in choice if not any(geometry._overlap(s.box, box) for box in boxes)), choice[0])
        out.labels.append(label)
        boxes.append(label.box)
    y = plan.top
    for arm in apart:
        if arm.origin:
            t = lay.arms[arm.origin[0] - 1].tiles[arm.origin[1]]
            where = f"from [{t[0]}-{t[1]}] on arm {arm.origin[0]}"
        else:
            where = "from the lead"
        state = geometry._state(arm)
        out.labels.append(Label(arm.number, plan.left, y + geometry.FONT, "start",
                                f"arm {arm.number}, {where}: {state}", where, state, apart=True))
        tiles, _, _ = geometry._walk(arm, (plan.left - geometry.GAP, y + geometry.FONT + 3 + U), (1, 0), math.inf,
                                     apart=True)
        out.tiles += tiles
        y += geometry.FONT + 3 + 2 * U + 6
    out.labels.sort(key=lambda label: label.arm)
    return out


def plain_box(scenes) -> tuple:
    x0, y0, x1, y1 = -120.0, -50.0, 120.0, 50.0
    for scene in scenes:
        for item in scene.tiles + scene.labels:
            x, y, w, h = geometry._box(item)
            x0, y0, x1, y1 = min(x0, x - 3), min(y0, y - 3), max(x1, x + w + 3), max(y1, y + h + 3)
    return (x0, y0, x1, y1)


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
            arm = plain_clash(plain_scene(lay, plan), branch)
            if arm:
                plan.strips.add(arm)
                again = True
                break
    if plan.strips:
        bottom, left = -math.inf, math.inf
        for lay in layouts:
            scene = plain_scene(lay, plan)
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
        strips += bool(the_plain_plan_and_scenes(layouts).strips)
    assert bool(strips) == apart           # (the record puts arms apart, or none: both paths are seen)


def the_plain_plan_and_scenes(layouts) -> Plan:
    """Assert that the plan, the scenes and their frame of ``layouts`` are the plain loops'; the plan."""
    plan = plain_plan(layouts)
    assert plan_arms(layouts) == plan
    scenes = planned_scenes(layouts)
    assert scenes == [plain_scene(lay, plan) for lay in layouts] == [arms_scene(lay, plan) for lay in layouts]
    assert arms_box(scenes) == plain_box(scenes)
    return plan


def cross_layouts(seed: int) -> list:
    """The layout at every move of a random double-nine cross game (a layout grows by one tile a move, or stays)."""
    (rep,) = replay_record(random_match(find_variant("cross", {"set": "9"}), seed, games=1))
    game = build_report("random", [rep]).games[0]
    return [game.start.layout] + [m.board.layout for m in game.moves]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 40))
def test_a_random_cross_game_from_any_move_is_planned_as_the_plain_loops(seed, at):
    """Every random game and every part of it from move ``at`` on (as an alternative's line starts from the table
    of its decision): the drawings kept from the examples before are those of other plans of the same layouts."""
    layouts = cross_layouts(seed)
    the_plain_plan_and_scenes(layouts)
    the_plain_plan_and_scenes(layouts[min(at, len(layouts) - 1):])


def test_random_cross_games_put_arms_apart():
    """(The random games of the test above are planned with arms apart too, not only without.)"""
    assert any(plan_arms(cross_layouts(seed)).strips for seed in range(4))
