"""The report's hands: what each row shows at every move of a record, and whose values a game of
individual players shows.

The facts come from the records themselves: the tiles dealt, the tiles the moves draw and play. The
browser tests drive Debian's Chromium (/usr/bin/chromium) through Playwright, as ``test_report.py``
does, and are skipped without them."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyzer.archive.task import report_model
from analyzer.cli import main
from analyzer.match import replay_record
from analyzer.notation import parse, read
from analyzer.replay.json import result_text
from analyzer.render import render_html
from conftest import RECORDS

DRAW = RECORDS / "variant-draw.dom"          # B draws [4-4] and [2-5] at moves 3 and 4, A four tiles later
SEED = (RECORDS / "seed2.dom").read_text()


def held(record_text: str) -> list[tuple[dict, dict]]:
    """After every move (index 0: the deal), from the record's text alone: what each player holds (his
    dealt tiles, plus each tile he has drawn, less each tile he has played) and what he has held so far
    (his dealt tiles and those he has drawn)."""
    (game,) = parse(record_text).games
    hands = {h.player: {(t.low, t.high) for t in h.tiles} for h in game.hands}
    ever = {p: set(ts) for p, ts in hands.items()}

    def now():
        return {p: set(ts) for p, ts in hands.items()}, {p: set(ts) for p, ts in ever.items()}

    out = [now()]
    for m in game.moves:
        if m.tile is not None:
            pair = (m.tile.low, m.tile.high)
            if m.draw:
                hands[m.player].add(pair)
                ever[m.player].add(pair)
            else:
                hands[m.player].discard(pair)
        out.append(now())
    return out


def test_every_drawn_tile_is_in_the_drawer_s_row_from_its_draw():
    model = report_model(read(DRAW), analyse=False)
    (game,) = model.games
    drawn = {p.name: [(t, k) for t, k in p.drawn] for p in game.players}
    assert drawn["B"][:2] == [((4, 4), 3), ((2, 5), 4)]
    (record,) = parse(DRAW.read_text()).games
    assert sorted(t for t, _ in drawn["A"] + drawn["B"]) == sorted(
        (m.tile.low, m.tile.high) for m in record.moves if m.draw)


def test_a_partly_known_hand_shows_the_tiles_the_record_gives():
    text = SEED.replace("D: [0-3] [0-4] [1-2] [1-5] [3-5] [5-5] [6-6]", "D: [0-3] [0-4] ? ? ? ? ?")
    assert text != SEED
    model = report_model(parse(text, "partial.dom"), analyse=False)
    (d,) = [p for p in model.games[0].players if p.name == "D"]
    assert d.dealt == [(0, 3), (0, 4)] and d.unknown == 5 and d.known
    html = render_html(model)
    assert "and 5 unknown" in html and "hand not known" not in html


def test_a_game_of_individual_players_words_each_value_as_its_player_s():
    # Cut Throat for three: each decision is valued for its mover against the two others; a value
    # below 0 does not say which of them wins, so it is never worded as another player's win
    model = report_model(read(RECORDS / "variant-cutthroat-3.dom"))
    game = model.games[0]
    assert game.individual and len(game.sides) == 3
    for v in (-7, 0, 5):
        words = game.value_words(v)
        assert words.endswith(f"for {game.players[0].name}") and " win " not in words
    html = render_html(model)
    deciders = {m.player for m in game.moves if m.decision is not None}
    assert len(deciders) > 1
    for name in deciders:
        assert f'<th>Value (<span class="pname">{name}</span>)</th>' in html
    # two sides: a value still names the side that wins it
    two = report_model(read(RECORDS / "seed2.dom"), analyse=False).games[0]
    assert two.value_words(46) == "A/C win 46" and two.value_words(-10) == "B/D win 10"
    # two players: each side is one player, who "wins" (the page, the replay and the analysis alike)
    duel = report_model(read(RECORDS / "variant-draw.dom"), analyse=False).games[0]
    assert len(duel.players) == 2 and duel.value_words(5) == "A wins 5" and duel.value_words(-1) == "B wins 1"
    (rep,) = replay_record(read(RECORDS / "variant-draw.dom"))
    assert result_text(rep).endswith(f"{rep.players[rep.result.winner]} wins {rep.result.points}")
    out = CliRunner().invoke(main, ["analyze", str(RECORDS / "variant-draw.dom")]).output
    assert "(positive: A wins)" in out


# ---- in the browser --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def draw_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("hands") / "draw.html"
    out.write_text(render_html(report_model(read(DRAW), analyse=False)), encoding="utf-8")
    return out


def test_each_row_shows_what_its_player_holds_at_every_move(open_page, draw_page):
    want = held(DRAW.read_text())
    page, seen = open_page(draw_page)
    for k, (hands, ever) in enumerate(want):
        page.evaluate(f"location.hash = '#g1-m{k}'")
        page.wait_for_function(f"document.querySelector('#g1 .counter').textContent.startsWith('{k} /')")
        shown = page.evaluate("""() => {
            const out = {};
            document.querySelectorAll('#g1 .hand').forEach(h => {
                const name = h.querySelector('.who b').textContent;
                const shown = [...h.querySelectorAll('.tile')].filter(t => t.getClientRects().length);
                out[name] = [shown.filter(t => !t.classList.contains('gone')).map(t => t.getAttribute('data-t')),
                             shown.map(t => t.getAttribute('data-t'))];
            });
            return out;
        }""")
        for name, tiles in hands.items():
            # in hand: shown and not greyed; played: greyed; drawn later: not shown at all
            assert sorted(shown[name][0]) == sorted(f"{a}-{b}" for a, b in tiles), (k, name)
            assert sorted(shown[name][1]) == sorted(f"{a}-{b}" for a, b in ever[name]), (k, name)
    assert not seen.errors


def test_a_hand_of_fourteen_tiles_leaves_its_count_on_one_line(open_page, tmp_path):
    """Cut Throat for two deals 14 tiles a hand: the tiles wrap within their column and the count beside them
    ("14 tiles left · 85 pips") keeps a readable width (it was squeezed to a letter a line)."""
    two = RECORDS / "match-cutthroat-partner-rules.dom"
    out = tmp_path / "two.html"
    out.write_text(render_html(report_model(read(two), analyse=False)), encoding="utf-8")
    page, seen = open_page(out)
    sizes = page.evaluate("""() => [...document.querySelectorAll('#g1 .hand')].map(h => {
        const c = h.querySelector('.count').getBoundingClientRect(), t = h.querySelector('.htiles').getBoundingClientRect();
        return [c.width, c.height, t.right, c.left, h.querySelectorAll('.tile').length];
    })""")
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#g1 .count')).lineHeight) || 18")
    assert [n for *_, n in sizes] == [14, 14]
    for width, height, tiles_right, count_left, _ in sizes:
        assert width >= 100 and height <= 2.5 * line        # a line or two, not a column of letters
        assert tiles_right <= count_left                     # the tiles wrap before the count
    assert not seen.errors
