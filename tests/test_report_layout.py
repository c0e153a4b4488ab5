"""The HTML report of a layout with arms (French and cross domino): the model of the layout and its
picture in a real browser, a cross of four arms out of the spinner.

The facts checked come from the rules and the records: the tiles the record plays, the halves that
must match, the open ends the replay gives each arm. The browser tests drive Debian's Chromium
(/usr/bin/chromium) through Playwright, as ``test_report.py`` does, and are skipped without them."""
from __future__ import annotations

import dataclasses
import pathlib
import re
from collections import Counter

import pytest

from analyzer.notation import read
from analyzer.match import replay_record
from analyzer.archive.task import report_model
from analyzer.render import render_html
from analyzer.render.model import ArmView, Layout
from analyzer.rules.layout import CLOSED, DOUBLE, START
from conftest import RECORDS, ROOT

CROSS = RECORDS / "variant-cross.dom"
FRENCH = RECORDS / "variant-french.dom"
HOSTILE = "<script>alert(1)</script>"
HOSTILE_COMMENT = "<img src=x onerror=alert(2)>"


def played(game) -> list[tuple[int, int]]:
    """The tiles the record's moves lay, as (low, high), straight from the record."""
    return [(m.tile.low, m.tile.high) for m in game.moves if m.tile is not None and not m.draw]


def pair(t) -> tuple[int, int]:
    return (min(t), max(t))


def title_pair(title: str) -> tuple[int, int]:
    """``"[4-2]"`` (a drawn tile's title) -> (2, 4)."""
    return pair([int(n) for n in re.findall(r"\d+", title)])


def layout_tiles(layout) -> list[tuple[int, int]]:
    return [pair(layout.lead)] + [pair(t) for a in layout.arms for t in a.tiles]


# ---- fixtures -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def records():
    return {"cross": read(CROSS), "french": read(FRENCH)}


@pytest.fixture(scope="module")
def models(records):
    # the exact search does not model arms and is slow on these deals: the layout needs no analysis
    return {name: report_model(record, analyse=False) for name, record in records.items()}


@pytest.fixture(scope="module")
def replays(records):
    return {name: list(replay_record(record)) for name, record in records.items()}


@pytest.fixture(scope="module")
def pages(models, tmp_path_factory) -> dict[str, pathlib.Path]:
    out = {}
    for name, model in models.items():
        path = tmp_path_factory.mktemp("layout") / f"{name}.html"
        path.write_text(render_html(model), encoding="utf-8")
        out[name] = path
    return out


def branched_model():
    """The cross game with a made-up tree of arms on its last board, as the double-nine cross makes
    them (every double opens two arms from its sides): arms 5 and 6 from the [1-1] of arm 1, 7 and 8
    from the [3-3] of arm 2, 9 and 10 from the [5-5] of arm 6, one of which would cross arm 4. Each tile once,
    as in any layout the rules make (the page names a tile by its numbers)."""
    model = report_model(read(CROSS), analyse=False)
    move = model.games[0].moves[-1]
    arms = [ArmView(1, None, [(6, 1), (1, 1), (1, 2)], 2, "open"),
            ArmView(2, None, [(6, 3), (3, 3)], 3, "open"),
            ArmView(3, None, [(6, 5)], 5, "open"),
            ArmView(4, None, [(6, 0), (0, 8)], 8, "open"),
            ArmView(5, (1, 1), [(1, 4), (4, 0)], 0, "open"),
            ArmView(6, (1, 1), [(1, 5), (5, 5)], 5, "open"),
            ArmView(7, (2, 1), [(3, 9)], 9, "open"),
            ArmView(8, (2, 1), [], 3, "open"),
            ArmView(9, (6, 1), [(5, 2), (2, 3)], 3, "open"),
            ArmView(10, (6, 1), [(5, 7), (7, 3)], 3, "open")]
    game = model.games[0]
    moved = dataclasses.replace(move, board=dataclasses.replace(move.board, layout=Layout((6, 6), arms)))
    return dataclasses.replace(model, games=[dataclasses.replace(game, moves=game.moves[:-1] + [moved])]
                               + model.games[1:])


# ---- the model ------------------------------------------------------------------------------------

def test_a_line_game_keeps_its_line_and_has_no_layout():
    model = report_model(read(RECORDS / "seed1.dom"), analyse=False)
    game = model.games[0]
    assert game.layout == "line"
    assert all(m.board.layout is None for m in game.moves) and game.start.layout is None


@pytest.mark.parametrize("name", ["cross", "french"])
def test_after_the_record_the_layout_holds_exactly_the_tiles_played(name, models, records):
    for game, written in zip(models[name].games, records[name].games):
        assert game.layout == name and game.valid
        layout = game.moves[-1].board.layout
        assert Counter(layout_tiles(layout)) == Counter(played(written))
        assert layout.tiles == len(played(written))
        assert layout.lead == pair(played(written)[0]) and layout.lead[0] == layout.lead[1]


@pytest.mark.parametrize("name", ["cross", "french"])
def test_every_arm_joins_matching_halves_from_the_spinner_out(name, models, replays):
    for game, rep in zip(models[name].games, replays[name]):
        for move, step in zip(game.moves, rep.steps):
            layout = move.board.layout
            spinner = layout.lead[0]
            assert [a.number for a in layout.arms] == [1, 2, 3, 4]
            for arm, rules in zip(layout.arms, step.arms):
                assert arm.origin is None
                halves = [spinner] + [h for t in arm.tiles for h in t] + [arm.open]
                # near of the first tile == the spinner, far of one == near of the next, last far == open
                assert all(a == b for a, b in zip(halves[::2], halves[1::2])), (move.number, arm)
                assert (arm.open, arm.state) == (rules.number, rules.state)


def test_in_french_every_arm_takes_its_double_second(models):
    # 002: "Der nächste Stein, der an einen der vier Arme gespielt wird, muss der entsprechende
    # Doppelstein sein"
    for game in models["french"].games:
        for arm in game.moves[-1].board.layout.arms:
            if len(arm.tiles) > 1:
                near, far = arm.tiles[0]
                assert arm.tiles[1] == (far, far), arm


@pytest.mark.parametrize("name", ["cross", "french"])
def test_the_layout_grows_one_played_tile_at_a_time(name, models, records):
    for game, written in zip(models[name].games, records[name].games):
        assert game.start.layout.lead is None and game.start.layout.arms == []
        first = game.moves[0].board.layout
        assert first.tiles == 1 and all(a.state == START and not a.tiles for a in first.arms)
        before = first
        for move, entry in zip(game.moves[1:], written.moves[1:]):
            now = move.board.layout
            grown = [(a.number, t) for a, b in zip(now.arms, before.arms) for t in a.tiles[len(b.tiles):]]
            assert all(a.tiles[:len(b.tiles)] == b.tiles for a, b in zip(now.arms, before.arms))
            if entry.tile is None or entry.draw:           # a pass or a sleeper drawn: nothing is laid
                assert grown == [] and now == before
            else:
                ((arm, tile),) = grown
                assert pair(tile) == (entry.tile.low, entry.tile.high) and move.text.endswith(f", arm {arm}")
            before = now


def test_a_move_that_names_its_arm_lands_on_that_arm(models, records):
    game, written = models["cross"].games[0], records["cross"].games[0]
    named = [(k, m) for k, m in enumerate(written.moves) if m.arm is not None]
    assert named                            # "[1-5]@1>2": the tile goes on arm 2, on its 1
    for k, entry in named:
        arm = game.moves[k].board.layout.arms[entry.arm - 1]
        assert pair(arm.tiles[-1]) == (entry.tile.low, entry.tile.high)
        assert arm.tiles[-1][0] == entry.end


# ---- the page in a browser ------------------------------------------------------------------------

# the browser and open_page fixtures are in conftest.py


# Every tile drawn in a game's board: its arm, its rectangle on the screen, its halves (the number and
# the centre of each, in the SVG's own units) and whether it is the highlighted last tile.
DRAWN = """(game) => {
    const svg = document.querySelector(`#g${game} svg.line`);
    return [...svg.querySelectorAll("g.dt")].map(g => {
        const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(g.getAttribute("transform"));
        const x = +m[1], y = +m[2], r = g.querySelector("rect").getBoundingClientRect();
        const halves = [...g.querySelectorAll("g.face")].map(u => ({
            n: +u.dataset.n, x: x + u.transform.baseVal.consolidate().matrix.e + 5,
            y: y + u.transform.baseVal.consolidate().matrix.f + 5}));
        const rect = g.querySelector("rect");
        return {arm: +g.dataset.arm, k: +g.dataset.k, title: g.querySelector("title").textContent,
                last: g.classList.contains("last"), halves,
                box: {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom},
                rect: {x, y, width: +rect.getAttribute("width"), height: +rect.getAttribute("height")}};
    });
}"""

LABELS = """(game) => Object.fromEntries([...document.querySelectorAll(`#g${game} svg.line text.arm-label`)]
    .map(t => {
        const b = t.getBBox();
        return [t.dataset.arm, {text: t.textContent, box: {x: b.x, y: b.y, width: b.width, height: b.height}}];
    }))"""

# Step a game from where it stands to its last move with its "next" button, and what each step shows.
WALK = f"""(game) => {{
    const drawn = {DRAWN}, labels = {LABELS};
    const next = document.querySelector(`#g${{game}} .controls .next`), seen = [];
    while (!next.disabled) {{
        next.click();
        seen.push({{move: +document.querySelector(`#g${{game}}`).dataset.current, drawn: drawn(game),
                   labels: labels(game)}});
    }}
    return seen;
}}"""


def current(page, game: int = 1) -> int:
    return int(page.locator(f"#g{game}").get_attribute("data-current"))


def overlaps(drawn) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(drawn):
        for b in drawn[i + 1:]:
            dx = min(a["box"]["x1"], b["box"]["x1"]) - max(a["box"]["x0"], b["box"]["x0"])
            dy = min(a["box"]["y1"], b["box"]["y1"]) - max(a["box"]["y0"], b["box"]["y0"])
            if dx > 0.05 and dy > 0.05:
                out.append((a["title"], b["title"]))
    return out


def joins(a, b) -> bool:
    """Whether tiles a and b touch, and every half of one that touches a half of the other shows the
    same number (a half is a square of 10 around its centre; tiles lie 1 apart)."""
    touching = []
    for p in a["halves"]:
        for q in b["halves"]:
            dx, dy = abs(p["x"] - q["x"]), abs(p["y"] - q["y"])
            if (10 <= dx <= 11.5 and dy <= 5.5) or (10 <= dy <= 11.5 and dx <= 5.5):
                touching.append(p["n"] == q["n"])
    return bool(touching) and all(touching)


def side_facts(drawn) -> list[str]:
    """Every way the drawn tiles break the cross: arm 1 right of the spinner, 2 left, 3 above, 4 below."""
    (spinner,) = [t for t in drawn if t["arm"] == 0]
    s = spinner["box"]
    wrong = []
    for t in drawn:
        b, arm = t["box"], t["arm"]
        if (arm == 1 and b["x0"] < s["x1"] - 0.05 or arm == 2 and b["x1"] > s["x0"] + 0.05
                or arm == 3 and b["y1"] > s["y0"] + 0.05 or arm == 4 and b["y0"] < s["y1"] - 0.05):
            wrong.append(f"arm {arm}: {t['title']}")
    return wrong


def arm_chains(drawn) -> dict[int, list]:
    chains: dict[int, list] = {}
    for t in sorted(drawn, key=lambda t: (t["arm"], t["k"])):
        chains.setdefault(t["arm"], []).append(t)
    return chains


def labels_in_the_way(drawn, labels) -> list[str]:
    """Every label that covers a tile or another label (in the SVG's units)."""
    def meet(a, b):
        return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 0.05
                and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 0.05)
    boxes = sorted(labels.items())
    out = [f"label {a} on {t['title']}" for a, label in boxes for t in drawn if meet(label["box"], t["rect"])]
    out += [f"labels {a} and {b}" for i, (a, p) in enumerate(boxes) for b, q in boxes[i + 1:]
            if meet(p["box"], q["box"])]
    return out


def expected_label(k: int, arm) -> str:
    """What the rules say of arm k, as its label must show it."""
    if arm.state == START:
        return f"arm {k}: empty"
    if arm.state == CLOSED:
        return f"arm {k}: {arm.number}, closed"
    if arm.state == DOUBLE:
        return f"arm {k}: {arm.number}, needs [{arm.number}-{arm.number}]"
    return f"arm {k}: {arm.number}"


@pytest.mark.parametrize("name", ["cross", "french"])
def test_the_whole_record_is_a_cross_of_four_arms_without_overlap(name, open_page, pages, records):
    page, seen = open_page(pages[name])
    for g, written in enumerate(records[name].games, 1):
        page.click(f"#g{g} .controls .last")
        drawn = page.evaluate(DRAWN, g)
        tiles = played(written)
        assert sorted(title_pair(t["title"]) for t in drawn) == sorted(tiles)
        assert side_facts(drawn) == []
        assert overlaps(drawn) == []
        chains = arm_chains(drawn)
        assert sorted(chains) == [0, 1, 2, 3, 4]
        spinner = chains[0][0]
        for arm in (1, 2, 3, 4):
            line = [spinner] + chains[arm]
            assert all(joins(a, b) for a, b in zip(line, line[1:])), (g, arm)
        (last,) = [t for t in drawn if t["last"]]
        assert title_pair(last["title"]) == tiles[-1]
        ends = page.locator(f"#g{g} .board .ends").inner_text()
        assert all(f"arm {k} ({side})" in ends for k, side in enumerate(("right", "left", "up", "down"), 1))
    legend = page.locator("#g1 .arms-legend").inner_text()
    assert "arm 1 runs right, arm 2 left, arm 3 up and arm 4 down" in legend and ">N" in legend
    # a picture to look at, of the last game's whole layout
    out = ROOT / "test-artifacts" / f"{name}-layout.png"
    out.parent.mkdir(exist_ok=True)
    png = page.locator(f"#g{len(records[name].games)} .board").screenshot(path=str(out))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    (spinner,) = [t["box"] for t in drawn if t["arm"] == 0]
    assert spinner["x1"] - spinner["x0"] >= 15                   # tiles are drawn at a readable size
    assert seen.errors == [] and seen.dialogs == []
    assert seen.requests == [pages[name].as_uri()]


@pytest.mark.parametrize("name", ["cross", "french"])
def test_stepping_through_moves_redraws_the_layout_and_its_labels(name, open_page, pages, records, replays):
    page, seen = open_page(pages[name])
    for g, (written, rep) in enumerate(zip(records[name].games, replays[name]), 1):
        assert current(page, g) == 0
        assert page.locator(f"#g{g} svg.line g.dt").count() == 0
        assert "nothing played yet" in page.locator(f"#g{g} svg.line").inner_html()
        steps = page.evaluate(WALK, g)
        assert [s["move"] for s in steps] == list(range(1, len(written.moves) + 1))
        laid = 0
        for shown, entry, step in zip(steps, written.moves, rep.steps):
            laid += entry.tile is not None and not entry.draw
            assert len(shown["drawn"]) == laid
            assert {int(a): v["text"] for a, v in shown["labels"].items()} == {
                a: expected_label(a, arm) for a, arm in enumerate(step.arms, 1)}
            assert side_facts(shown["drawn"]) == [] and overlaps(shown["drawn"]) == []
            # labels stand beyond their arm's open end, clear of every tile
            assert labels_in_the_way(shown["drawn"], shown["labels"]) == [], shown["move"]
        assert [t["arm"] for t in steps[0]["drawn"]] == [0]           # move 1: only the spinner
        # and back with the keys: move 1 is the spinner alone again
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        assert current(page, g) == len(written.moves) - 1
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert current(page, g) == 1
        assert [t["arm"] for t in page.evaluate(DRAWN, g)] == [0]
        assert "arm 1 (right): empty (takes a" in page.locator(f"#g{g} .board .ends").inner_text()
        page.click(f"#g{g} .controls .last")
    assert seen.errors == []


def tree_problems(drawn, labels, layout) -> list[str]:
    """Every way the drawn tree breaks the layout: an arm that does not join its halves, a branch that
    neither leaves its double from the side nor stands apart under the cross with a label saying
    where it comes from, an arm without its label."""
    problems = []
    chains = arm_chains(drawn)
    bottom = max(t["box"]["y1"] for t in drawn if t["arm"] <= 4)
    for arm in layout.arms:
        tiles = chains.get(arm.number, [])
        if [title_pair(t["title"]) for t in tiles] != [pair(t) for t in arm.tiles]:
            problems.append(f"arm {arm.number}: drawn {[t['title'] for t in tiles]}, laid {arm.tiles}")
            continue
        if not all(joins(a, b) for a, b in zip(tiles, tiles[1:])):
            problems.append(f"arm {arm.number} does not join")
        label = labels.get(arm.number, "")
        if arm.origin is None:
            if tiles and not joins(chains[0][0], tiles[0]):
                problems.append(f"arm {arm.number} does not start at the spinner")
            if not label.startswith(f"arm {arm.number}: "):
                problems.append(f"arm {arm.number}: label {label!r}")
            continue
        parent, index = arm.origin
        double = layout.arms[parent - 1].tiles[index]
        drawn_double = next((t for t in chains.get(parent, []) if t["k"] == index), None)
        if label.startswith(f"arm {arm.number}: "):         # drawn out of the double's side
            if drawn_double is None:
                problems.append(f"arm {arm.number} is drawn from a double that is not drawn")
                continue
            (a, b) = [(h["x"], h["y"]) for h in drawn_double["halves"]]
            upright = abs(a[0] - b[0]) < 0.1
            if tiles and not (joins(drawn_double, tiles[0]) and all(
                    abs(h["x"] - a[0]) < 0.1 if upright else abs(h["y"] - a[1]) < 0.1
                    for t in tiles[:1] for h in t["halves"])):
                problems.append(f"arm {arm.number} does not leave [{double[0]}-{double[1]}] from its side")
        elif label.startswith(f"arm {arm.number}, from [{double[0]}-{double[1]}] on arm {parent}: "):
            if any(t["box"]["y0"] < bottom for t in tiles):
                problems.append(f"arm {arm.number} stands apart but not under the cross")
        else:
            problems.append(f"arm {arm.number}: label {label!r}")
    return problems


def test_a_branch_leaves_its_double_or_stands_apart(open_page, tmp_path):
    model = branched_model()
    layout = model.games[0].moves[-1].board.layout
    path = tmp_path / "branched.html"
    path.write_text(render_html(model), encoding="utf-8")
    page, seen = open_page(path)
    page.click("#g1 .controls .last")
    drawn = page.evaluate(DRAWN, 1)
    labels = {int(a): v["text"] for a, v in page.evaluate(LABELS, 1).items()}
    assert len(drawn) == layout.tiles and overlaps(drawn) == [] and side_facts(drawn) == []
    assert tree_problems(drawn, labels, layout) == []
    assert labels_in_the_way(drawn, page.evaluate(LABELS, 1)) == []
    # nothing is in the way above the [1-1] next to the spinner: arm 5 leaves it from its side
    assert labels[5] == "arm 5: 0"
    # of the two arms out of the [5-5] below arm 1, the one that runs back towards the centre would
    # cross arm 4: it stands apart, the other leaves the [5-5] from its side
    apart = [k for k in (9, 10) if labels[k] == f"arm {k}, from [5-5] on arm 6: 3"]
    beside = [k for k in (9, 10) if labels[k] == f"arm {k}: 3"]
    assert len(apart) == len(beside) == 1
    assert seen.errors == []


@pytest.mark.skipif(not (RECORDS / "variant-cross-9.dom").exists(), reason="no double-nine cross record")
def test_a_tree_of_arms_from_a_record(open_page, tmp_path):
    record = read(RECORDS / "variant-cross-9.dom")
    model = report_model(record, analyse=False)
    path = tmp_path / "tree.html"
    path.write_text(render_html(model), encoding="utf-8")
    page, seen = open_page(path)
    for g, (game, written) in enumerate(zip(model.games, record.games), 1):
        steps = page.evaluate(WALK, g)
        assert len(steps) == len(game.moves)
        for shown, move in zip(steps, game.moves):
            drawn, layout = shown["drawn"], move.board.layout
            labels = {int(a): v["text"] for a, v in shown["labels"].items()}
            assert len(drawn) == layout.tiles
            assert overlaps(drawn) == [] and side_facts(drawn) == []
            assert tree_problems(drawn, labels, layout) == [], shown["move"]
            assert labels_in_the_way(drawn, shown["labels"]) == [], shown["move"]
        assert any(a.origin for a in layout.arms)                     # the record does branch
        assert sorted(title_pair(t["title"]) for t in drawn) == sorted(played(written))
    assert seen.errors == []


def test_hostile_names_stay_text_in_a_layout_page(open_page, tmp_path):
    record = read(CROSS)
    game = record.games[0]
    rename = {"A": HOSTILE}
    game.players = tuple(rename.get(p, p) for p in game.players)
    game.hands = tuple(dataclasses.replace(h, player=rename.get(h.player, h.player)) for h in game.hands)
    game.moves = [dataclasses.replace(m, player=rename.get(m.player, m.player),
                                      comment=HOSTILE_COMMENT if k == 0 else m.comment)
                  for k, m in enumerate(game.moves)]
    game.tags["Lead"] = HOSTILE
    html = render_html(report_model(record, analyse=False))
    assert HOSTILE not in html and HOSTILE_COMMENT not in html
    path = tmp_path / "hostile.html"
    path.write_text(html, encoding="utf-8")
    page, seen = open_page(path)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert seen.dialogs == [] and page.locator("img").count() == 0
    body = page.locator("body").inner_text()
    assert HOSTILE in body and HOSTILE_COMMENT in body
    assert page.locator("#g1 svg.line g.dt").count() == 1 and seen.errors == []


def test_draws_and_muggins_calls_are_shown_as_what_they_are():
    # "B draws [3-4]" and "A muggins 5" are no plays and no passes: the move table says what they are
    model = report_model(read(RECORDS / "variant-all-fives.dom"), analyse=False)
    (call,) = [m for m in model.games[0].moves if m.kind == "muggins"]
    assert call.applied and call.text == "muggins 5" and call.player == "A"
    html = render_html(model)
    assert '<span class="mv-text">muggins 5</span>' in html
    model = report_model(read(RECORDS / "variant-draw.dom"), analyse=False)
    record_draws = read(RECORDS / "variant-draw.dom").games[0].moves
    drawn = [m for m in model.games[0].moves if m.kind == "draw"]
    assert len(drawn) == sum(1 for e in record_draws if e.draw) > 0
    assert all(m.text.startswith("draws [") and m.applied for m in drawn)
    assert all(f'<span class="mv-text">{m.text}</span>' in render_html(model) for m in drawn[:1])
