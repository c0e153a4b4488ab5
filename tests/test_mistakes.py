"""The biggest mistakes across an archive (issue 86 item 3): ``domino stats PATH... --mistakes N [--skip K]
[--player NAME] [--site URL]`` over generated records.

What is checked comes from elsewhere than the list itself: the moves graded and their losses from ``analyze
--json`` of each record (the analysis's own verdicts, counted here); each place from the record's text (the move
played is written at that line and column); each link by reading it back (``site --read``'s codec): it carries
the record and opens it at the position the player faced, whose mover (replayed by the rules) is the player
named; the pages by joining them (``--skip``) into the whole list."""
from __future__ import annotations

import json
import random
from html import escape

import pytest
from click.testing import CliRunner

from analyzer.archive import Options, load, run
from analyzer.archive.mistakes import biggest_mistakes, mistakes_table
from analyzer.archive.stats import player_key
from analyzer.cli import main
from analyzer.generate import random_hand
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.notation.link import read_fragment
from analyzer.notation.writer import write
from analyzer.record import Record
from analyzer.rules import find_variant

#: a pair of players a record, a name spelt in capitals in one record (the same player: case does not count)
PLAYERS = ("Ana", "Beto", "Carla", "Dario")
RECORDS = 8


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mistakes")
    rng = random.Random(86)
    for number in range(RECORDS):
        names = tuple(rng.sample(PLAYERS, 2))
        if number == 3:
            names = (names[0].upper(), names[1])
        record = Record(source=f"m-{number}")
        for _ in range(rng.choice((1, 2))):
            game, _, _ = random_hand(find_variant("block", players=2), rng, None, names)
            record.games.append(game)
        (folder / f"m-{number}.dom").write_text(write(record), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def results(archive):
    return list(run(load([str(archive)]), Options("analyze", triage=False)))


@pytest.fixture(scope="module")
def graded(archive):
    """Every graded move, from ``analyze --json`` of each record: (loss, source, game, index, player, class)."""
    out = []
    for path in sorted(archive.glob("*.dom")):
        got = CliRunner().invoke(main, ["analyze", "--json", "--jobs", "1", str(path)])
        for number, game in enumerate(json.loads(got.stdout)["games"], 1):
            for d in game["decisions"]:
                if d["class"] is not None:
                    out.append((d["loss"], str(path), number, d["index"], d["player"], d["class"]))
    return out


def test_the_list_is_every_graded_move_largest_loss_first(results, graded):
    page = biggest_mistakes(results, 1000)
    assert page.total == len(graded) > 5 and page.next is None
    assert sorted((m.loss, m.source, m.game, m.index, m.player, m.grade) for m in page.mistakes) == sorted(graded)
    losses = [m.loss for m in page.mistakes]
    assert losses == sorted(losses, reverse=True)
    assert [m.rank for m in page.mistakes] == list(range(1, len(graded) + 1))
    assert all(m.move == m.index + 1 for m in page.mistakes)        # "move N": the N-th move, index N - 1


def test_pages_joined_are_the_whole_list(results):
    whole = biggest_mistakes(results, 1000).mistakes
    joined, skip = [], 0
    while skip is not None:
        page = biggest_mistakes(results, 3, skip)
        joined.extend(page.mistakes)
        skip = page.next
    assert joined == list(whole)
    assert biggest_mistakes(results, 3, len(whole)).mistakes == ()
    assert "no more graded moves" in mistakes_table(biggest_mistakes(results, 3, len(whole)))


def test_a_players_mistakes_whatever_the_case_of_his_name(results, graded):
    for name in PLAYERS:
        mine = [g for g in graded if player_key(g[4]) == player_key(name)]
        page = biggest_mistakes(results, 1000, player=name.lower())
        assert page.total == len(mine)
        assert sorted((m.loss, m.source, m.game, m.index) for m in page.mistakes) == sorted(g[:4] for g in mine)


def test_each_place_is_the_move_in_the_record_and_each_link_opens_its_position(results):
    base = "https://example.org/domino/"
    for m in biggest_mistakes(results, 1000, base=base).mistakes:
        text = open(m.source, encoding="utf-8").read()
        line = text.splitlines()[m.line - 1]
        assert line[m.column - 1:].startswith(m.played.split("@")[0]), (m.place, line)
        assert m.link.startswith(base + "#r=")
        link = read_fragment(m.link)
        assert link.text == text and (link.game, link.step) == (m.game, m.index)
        rep = replay_record(parse(text, m.source))[m.game - 1]
        assert rep.players[rep.steps[m.index].seat] == m.player     # the position the player faced


def test_the_command_line_prints_text_json_and_a_page(archive, results, tmp_path):
    first = biggest_mistakes(results, 2)
    got = CliRunner().invoke(main, ["stats", "--jobs", "1", str(archive), "--mistakes", "2", "--json"])
    assert got.exit_code == 0, got.output
    data = json.loads(got.stdout)
    assert [(m["source"], m["game"], m["move"], m["loss"]) for m in data["mistakes"]] == \
        [(m.source, m.game, m.move, m.loss) for m in first.mistakes]
    assert data["next"] == 2 and data["total"] == first.total
    page = tmp_path / "m.html"
    got = CliRunner().invoke(main, ["stats", "--jobs", "1", str(archive), "--mistakes", "2", "--skip", "2",
                                    "--site", "https://example.org/d/", "--page", str(page)])
    assert got.exit_code == 0, got.output
    lines = got.stdout.splitlines()
    assert lines[0].startswith(f"The biggest mistakes, 3 to 4 of {first.total}")
    assert lines[-1] == "next: --skip 4"
    html = page.read_text(encoding="utf-8")
    second = biggest_mistakes(results, 2, 2, base="https://example.org/d/")
    for m in second.mistakes:
        assert f'<a href="{escape(m.link)}">{escape(m.place)}</a>' in html      # (escaped: &amp;m=)


def test_its_settings_alone_and_other_tables_are_usage_errors(archive):
    for args in (["--skip", "2"], ["--player", "Ana"], ["--mistakes", "2", "--by", "month"],
                 ["--mistakes", "2", "--csv"], ["--mistakes", "2", "--fair"]):
        got = CliRunner().invoke(main, ["stats", "--jobs", "1", str(archive), *args])
        assert got.exit_code == 2, (args, got.output)


@pytest.mark.parametrize("width", [1366, 390])
def test_the_page_shows_every_mistake_a_click_from_its_position_inside_the_screen(open_page, results, tmp_path,
                                                                                   width):
    from analyzer.render.trend import render_mistakes

    found = biggest_mistakes(results, 6, base="https://example.org/d/")
    path = tmp_path / "mistakes.html"
    path.write_text(render_mistakes(found, "The biggest mistakes"), encoding="utf-8")
    page, seen = open_page(path, width=width, height=900)
    links = page.locator("#mistakes tbody tr td:nth-child(2) a")
    assert links.count() == len(found.mistakes) == 6
    assert [links.nth(k).get_attribute("href") for k in range(6)] == [m.link for m in found.mistakes]
    for k in range(6):                  # each link seen and inside the screen's width, whatever the width
        box = links.nth(k).bounding_box()
        assert box is not None and box["width"] > 0 and box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert seen.errors == [] and [u for u in seen.requests if not u.startswith("file:")] == []
    page.screenshot(path=f"/tmp/mistakes-{width}.png", full_page=False)
