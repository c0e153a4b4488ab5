"""The report's line view, in headless Chromium: step through an alternative's best line on the board and
see, at every step, the table that replaying the line gives; then get back to the game. Desktop and
phone widths; a line of play, a layout with arms and a draw game."""
from __future__ import annotations

import json

import pytest

from analyzer.match import replay_record
from analyzer.notation import read
from analyzer.position import tiles_of
from analyzer.render import render_html
from analyzer.archive.task import report_model
from analyzer.tiles import Move
from conftest import RECORDS, wait_ready
from test_cli import run
from analyzer.analysis import AnalysisSettings


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """``domino report`` of each record, written once."""
    folder = tmp_path_factory.mktemp("lines")
    out = {}
    for name in ("seed1.dom", "variant-cross.dom", "variant-draw.dom"):
        path = folder / (name + ".html")
        result = run("report", str(RECORDS / name), "-o", str(path))
        assert f"wrote {path}" in result.output
        out[name] = path
    return out


def _lines(page, at: int) -> list[list[str]]:
    """The moves of each alternative's line at move ``at``, as the page lists them over the board once its button
    is clicked (then back to the game)."""
    return page.evaluate("""at => Array.from(document.querySelectorAll('#g1 button.show-line[data-at="' + at + '"]'))
        .map(b => {
            b.click();
            const moves = Array.from(document.querySelectorAll('#g1 .line-view .line-moves li')).map(li => li.textContent);
            document.querySelector('#g1 .line-view .back-to-game').click();
            return [parseInt(b.dataset.alt, 10), moves];
        })""", at)


def _on_board(page) -> list[tuple[int, int]]:
    """The tiles the board draws, each as (low, high)."""
    titles = page.evaluate("Array.from(document.querySelectorAll('#g1 svg.line g.dt > title')).map(t => t.textContent)")
    return sorted(tuple(sorted(map(int, t.strip("[]").split("-")))) for t in titles)


def _table(pos) -> list[tuple[int, int]]:
    return sorted((t.low, t.high) for t, _ in pos.line())


def _replayed(rep, at: int, moves: list[str]):
    """The position after the line ``moves`` from the table before move ``at``: each move by the player
    to move, played with the record's own rules."""
    pos = rep.position_at(at - 1)
    for text in moves:
        name, _, move = text.partition(" ")
        assert name == rep.players[pos.turn]
        pos.push(Move.parse(move))
        yield pos


def _decision_moves(rep, page) -> list[int]:
    return page.evaluate("Array.from(new Set(Array.from(document.querySelectorAll('#g1 button.show-line'))"
                         ".map(b => parseInt(b.dataset.at, 10))))")


@pytest.mark.slow
@pytest.mark.parametrize("width,height", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_stepping_through_a_line_shows_the_tables_the_line_gives(browser, pages, width, height):
    (rep,) = replay_record(read(RECORDS / "seed1.dom"))
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(pages["seed1.dom"].as_uri() + "#g1-m18")
        wait_ready(page)
        # C's [3-6] at move 18 (the book's critical move): every alternative has its line
        lines = _lines(page, 18)
        assert len(lines) == 4
        for alt, moves in lines:
            page.locator(f'#g1 button.show-line[data-at="18"][data-alt="{alt}"]').click()
            assert page.locator("#g1 .line-view").is_visible()
            assert page.locator("#g1 .line-view").inner_text().count("Back to the game") == 1
            for j, pos in enumerate(_replayed(rep, 18, moves), 1):
                assert page.get_attribute("#g1", "data-line-step") == str(j)
                assert _on_board(page) == _table(pos), (alt, j)
                for seat in range(4):
                    held = page.evaluate(f"""Array.from(document.querySelectorAll('#g1 .hand[data-seat="{seat}"] .tile:not(.gone)'))
                        .map(t => t.dataset.t)""")
                    assert sorted(held) == sorted(f"{t.low}-{t.high}" for t in tiles_of(pos.hands[seat])), (alt, j, seat)
                page.keyboard.press("ArrowRight")
            assert pos.outcome() is not None         # the line runs to the end of the hand
            # the first step back shows the table before the move
            page.keyboard.press("Home")
            assert _on_board(page) == _table(rep.position_at(17))
        # back to the game: the move's table again, the arrows step the game
        page.locator("#g1 .line-view button.back-to-game").click()
        assert not page.locator("#g1 .line-view").is_visible()
        assert page.get_attribute("#g1", "data-current") == "18"
        assert _on_board(page) == _table(rep.position_at(18))
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#g1", "data-current") == "19"
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        assert errors == []
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["variant-cross.dom", "variant-draw.dom"])
def test_lines_with_arms_and_draws_show_the_tables_the_line_gives(open_page, pages, name):
    (rep,) = replay_record(read(RECORDS / name))
    page, seen = open_page(pages[name])
    decisions = _decision_moves(rep, page)
    assert decisions
    for at in decisions[-2:]:
        page.evaluate(f"location.hash = '#g1-m{at}'")
        for alt, moves in _lines(page, at)[:2]:
            page.locator(f'#g1 button.show-line[data-at="{at}"][data-alt="{alt}"]').click()
            for j, pos in enumerate(_replayed(rep, at, moves), 1):
                assert _on_board(page) == _table(pos), (at, alt, j)
                if j < len(moves):
                    page.locator("#g1 .controls .next").click()
            assert page.locator("#g1 .controls .next").is_disabled()
        page.keyboard.press("Escape")
        assert page.get_attribute("#g1", "data-line") is None
        assert _on_board(page) == _table(rep.position_at(at))
    assert seen.errors == []


def test_the_line_moves_are_escaped(open_page, tmp_path):
    """The page sends each line's moves once, without the names; the script lists them under the mover's name
    as the hands show it, as text."""
    from test_report import HOSTILE_NAME, _hostile_record, _page_data

    html = render_html(report_model(_hostile_record()))
    assert html.count('class="show-line"') > 10
    assert HOSTILE_NAME not in html
    assert '<b>&lt;script&gt;alert(1)&lt;/script&gt;</b>' in html
    data = json.dumps(_page_data(html), ensure_ascii=False)
    assert data.count('"said": ["') > 10 and HOSTILE_NAME not in data   # each line's words sent as data, the names added by the script
    path = tmp_path / "hostile.html"
    path.write_text(html, encoding="utf-8")
    page, seen = open_page(path)
    listed = page.evaluate("""() => Array.from(document.querySelectorAll('button.show-line')).flatMap(b => {
        b.click();
        return Array.from(document.querySelectorAll('.line-view .line-moves li')).map(li => li.textContent);
    })""")
    assert f"{HOSTILE_NAME} [2-2]@2" in listed
    assert page.locator(".line-moves script").count() == 0 and seen.dialogs == [] and seen.errors == []


@pytest.mark.parametrize("name", ["seed1.dom", "variant-cross.dom", pytest.param("variant-french.dom", marks=pytest.mark.slow),
                                  "variant-draw.dom",
                                  "variant-all-fives.dom", "variant-pub-fives-threes.dom", "match-chiva-3-draw.dom"])
def test_every_line_of_the_analysis_is_on_the_page_and_ends_the_hand(name):
    """No line is dropped: each alternative the analysis gives a line has it on the page, one table per move,
    each the table replaying the line gives, the last one a finished hand."""
    from analyzer.analysis import analyze_replay
    from analyzer.render import build_report

    for rep in replay_record(read(RECORDS / name))[:2]:
        analysis = analyze_replay(rep, AnalysisSettings(lines=True))
        game = build_report(name, [rep], [analysis]).games[0]
        given = {(d.index, a.move): a.line for d in analysis.decisions for a in d.alternatives if a.line}
        shown = {(m.index, a.move): a.line for m in game.moves if m.decision for a in m.decision.alternatives
                 if a.line is not None}
        assert given and set(shown) == {key for key in given if key[0] in {m.index for m in game.moves if m.decision}}
        for key, line in shown.items():
            assert list(line.moves) == list(given[key]) and len(line.steps) == len(line.moves) == len(line.seats)
            for pos, step in zip(_replayed(rep, key[0] + 1, line.moves), line.steps):
                assert step.count == pos.count(step.seat) and step.ends == pos.ends, key
                if step.layout is not None:
                    laid = [step.layout.lead] + [t for arm in step.layout.arms for t in arm.tiles]
                    assert _table(pos) == sorted(tuple(sorted(p)) for p in laid), key
            if not pos.has_arms:
                assert _table(pos) == sorted(tuple(sorted(p)) for p in line.line), key
            assert pos.outcome() is not None, key


@pytest.mark.parametrize("name", ["seed1.dom", "variant-draw.dom", "variant-all-fives.dom"])
def test_each_step_of_a_line_puts_its_tile_where_the_geometry_draws_the_table(name):
    """The page's data gives each move of a line once (the tile it lays) and the place of that tile, one of the
    game's spots: laid in turn from the table before the decision, the places are those the one drawing
    (``render.geometry``, as ``domino diagram`` and the board draw) gives the table after the move, in each view
    (a wide screen's and a phone's), and the line's data is far smaller than a table a step."""
    from analyzer.render.geometry import line_places
    from analyzer.render.pagedata import game_data, lines_data

    model = report_model(read(RECORDS / name))
    checked = 0
    for game in model.games:
        data = game_data(game, None)
        lines = lines_data(game, data)
        spots, views = data["table"]["spots"], data["table"]["views"]
        for m in game.moves:
            if m.decision is None:
                continue
            for a, line in zip(m.decision.alternatives, lines.get(str(m.number), [])):
                if a.line is None:
                    assert line is None
                    continue
                for view, own in zip(views, line["views"], strict=True):
                    places = dict(view["at"])
                    for step, put in zip(line["steps"], own["put"], strict=True):
                        if put is not None:
                            places[step[1]] = put
                    want = {p.key: [p.x, p.y, int(p.vertical), int(p.a > p.b)]
                            for p in line_places(a.line.line, a.line.lead, view["half"])}
                    drawn = {k: spots[places[k]][:4] for k in want}
                    assert drawn == want, (m.number, a.move)
                    checked += 1
                assert len(repr(line)) < 60 * len(line["steps"]) + 200
    assert checked > 20


@pytest.mark.parametrize("variant,seed", [("partnership", 1), ("whist", 2), ("draw", 3), ("cross", 4), ("block", 5)])
def test_lines_that_share_positions_give_each_line_as_played_alone(variant, seed):
    """The page's lines reach many positions twice (the line of the move played at one decision goes on as the
    best line of the next): each position is played once (``model.LinePlayer``) and its step kept for the next
    line. Every line of the page must be step for step the line played alone on the table before its decision
    (the reference: ``line_steps``, nothing kept), and some steps must indeed be shared."""
    from analyzer.match import random_match
    from analyzer.notation import parse, write
    from analyzer.render.model import line_steps

    record = parse(write(random_match(variant, seed=seed, games=1)), "generated")
    model = report_model(record)
    rep, game = replay_record(record)[0], model.games[0]
    pos, lines, shared, seen = rep.initial.copy(), 0, 0, set()
    for step, view in zip(rep.steps, game.moves):
        pos.turn = step.seat
        for a in (view.decision.alternatives if view.decision else ()):
            if a.line is not None:
                assert a.line == line_steps(pos, a.line.moves, list(rep.players)), (view.number, a.move)
                shared += sum(id(s) in seen for s in a.line.steps)
                seen.update(id(s) for s in a.line.steps)
                lines += 1
        pos.push(step.move)
    assert lines > 10 and shared > 0


def _unpacked_steps(packed: dict, at: str, alt: int, starts: dict) -> tuple[list, list, list]:
    """A line of ``pagedata.packed_lines`` read back as the page's script reads it (report.js: joinLines and
    lineBoards): its moves as ``[seat, tile, laid, count, pips, ends, (labels)]``, a pass written ``[seat]`` taking
    the numbers of the board before it (``starts``: the board before each decision's lines, by its move number),
    its words and each view's places, a line's ``tail`` from the line it names."""
    line, start = packed[at][alt], starts[at]
    steps = []
    counts, pips, ends = list(start["counts"]), list(start["pips"]), start["ends"]
    assert len(line["said"]) == len(line["steps"])
    for st in line["steps"]:
        if len(st) == 1:
            seat = st[0]
            st = [seat, None, 0, counts[seat], pips[seat], ends]
        counts[st[0]], pips[st[0]], ends = st[3], st[4], st[5]
        steps.append(list(st))
    said = list(line["said"])
    puts = [list(v["put"]) for v in line["views"]]
    if "tail" in line:
        t_at, t_alt, first = line["tail"]
        # the rest of the named line, read in its own context, from its move ``first`` on
        rest_steps, rest_said, rest_puts = _unpacked_steps(packed, str(t_at), t_alt, starts)
        steps += rest_steps[first:]
        said += rest_said[first:]
        puts = [p + r[first:] for p, r in zip(puts, rest_puts)]
    return steps, said, puts



@pytest.mark.parametrize("variant,seed", [("partnership", 1), ("whist", 2), ("draw", 3), ("cross", 4), ("block", 5),
                                          ("french", 6), ("all-fives", 7)])
def test_the_packed_lines_read_back_as_the_lines(variant, seed):
    """The lines as the page carries them (``pagedata.packed_lines``: a line's moves once, a pass that changes nothing
    as ``[seat]``, the labels a move changes in its move, what lines share as a ``tail``) read back, as the page's
    script reads them, into every move of every line, its words and the place of its tile in each view."""
    from analyzer.match import random_match
    from analyzer.notation import parse, write
    from analyzer.render.pagedata import game_data, lines_data, packed_game

    game = report_model(parse(write(random_match(variant, seed=seed, games=1)), "generated")).games[0]
    data = game_data(game, None)
    packed = packed_game(data, game)
    lines = lines_data(game, data)          # (the reference: each line unpacked, its places in the same spots)
    said = {str(m.number): [a.line.said if a.line else None for a in m.decision.alternatives]
            for m in game.moves if m.decision is not None}
    starts = {at: data["boards"][int(at) - 1] for at in lines}
    index = {json_key(v): k for k, v in enumerate(_shared_labels(data, lines))}
    checked = quiet = 0
    for at, alts in lines.items():
        for alt, line in enumerate(alts):
            if line is None:
                assert packed["lines"][at][alt] is None
                continue
            steps, words, puts = _unpacked_steps(packed["lines"], at, alt, starts)
            want = [st[:6] + ([{arm: None if v is None else index[json_key(v)] for arm, v in st[6].items()}]
                              if len(st) > 6 else []) for st in line["steps"]]
            assert steps == want, (at, alt)
            assert words == list(said[at][alt]), (at, alt)
            assert puts == [v["put"] for v in line["views"]], (at, alt)
            quiet += sum(len(st) == 1 for st in packed["lines"][at][alt]["steps"])
            checked += 1
    assert checked > 5
    if variant in ("partnership", "whist", "block"):
        assert quiet > 0         # blocked and passing players: some passes packed short


def json_key(value) -> str:
    return json.dumps(value, sort_keys=True)


def _shared_labels(data: dict, lines: dict) -> list:
    """The labels of the game's data in the order ``packed_game`` numbers them (the boards' first, then the lines')."""
    from analyzer.render.pagedata import Shared

    shared = Shared()
    for b in data["boards"]:
        shared.change(b.get("labels"))
    for alts in lines.values():
        for line in alts:
            if line is not None:
                for st in line["steps"]:
                    shared.change(st[6] if len(st) > 6 else None)
                shared.change(line.get("labels"))
    return list(shared)
