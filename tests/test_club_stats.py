"""A club's statistics (issue 86 item 3): ``domino stats --by month|event|head-to-head`` and ``--from``/``--to`` over a
generated archive of 300 records, 8 players, with Date and Event tags. Every total is checked against a count kept
here while the games were generated (the generator's own hand results: who won, for how many points), never
against what the tool printed; the seating is the rules' (partnership: partners opposite, seats 1+3 and 2+4; Cut
Throat and the two-player draw game: each for himself)."""
from __future__ import annotations

import datetime
import json
import math
import random
from collections import Counter, defaultdict

import pytest
from click.testing import CliRunner

from analyzer.archive import Options, load, run
from analyzer.archive.league import (game_date, head_to_head, head_to_head_csv, in_range, period_rows,
                                     periods_table)
from analyzer.codec import to_data
from analyzer.cli import main
from analyzer.generate import random_hand
from analyzer.notation.writer import write
from analyzer.record import Record
from analyzer.rules import find_variant

PLAYERS = ("Ana", "Beto", "Carla", "Dario", "Elena", "Fidel", "Gisela", "Hugo")
EVENTS = ("Liga de invierno", "Copa del barrio", "Torneo relampago")
#: variant -> the sides of its seats (the rules: partnership "partners opposite"; the others each for himself)
SIDES = {"partnership": (0, 1, 0, 1), "cutthroat": (0, 1, 2, 3), "draw": (0, 1)}
RECORDS = 300


def _month(day: datetime.date | None) -> str:
    return "undated" if day is None else f"{day.year:04d}-{day.month:02d}"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """The archive's folder and what was generated: each game as (record, date, event, variant, players by seat,
    winning side or None, points)."""
    folder = tmp_path_factory.mktemp("club")
    rng = random.Random(86)
    games = []
    for number in range(RECORDS):
        variant = rng.choice(tuple(SIDES))
        players = tuple(rng.sample(PLAYERS, len(SIDES[variant])))
        day = datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randrange(200))
        dated = number % 10 != 0                    # every tenth record has no date at all
        event = None if number % 7 == 0 else rng.choice(EVENTS)
        record = Record(source=f"club-{number}")
        # one record spells a name in capitals: the same player (case and blanks do not count)
        spelt = tuple(p.upper() if number == 5 and seat == 0 else p for seat, p in enumerate(players))
        for k in range(rng.choice((1, 1, 2))):
            game, _, result = random_hand(find_variant(variant), rng, None, spelt)
            if event is not None:
                game.tags["Event"] = event
            if dated and (k == 0 or number % 3 == 0):       # later games inherit the first's date, or repeat it
                game.tags["Date"] = f"{day:%Y.%m.%d}"
            record.games.append(game)
            games.append((number, day if dated else None, event, variant, players, result.winner, result.points))
        (folder / f"club-{number:03d}.dom").write_text(write(record), encoding="utf-8")
    return folder, games


@pytest.fixture(scope="module")
def results(club):
    """The runner's results of the archive, without analysis (the counts need none), as ``stats --counts`` has
    them: worked out once for the tests of the library's tables."""
    return list(run(load([str(club[0])]), Options("validate", triage=False)))


def _stats(*args) -> dict:
    result = CliRunner().invoke(main, ["stats", "--jobs", "1", *map(str, args)])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _expected_periods(games, period_of) -> dict[tuple[str, str], Counter]:
    """Each (period, player)'s records, games, won, points won and conceded, counted from the generated games."""
    out: dict[tuple[str, str], Counter] = defaultdict(Counter)
    records = defaultdict(set)
    for number, day, event, variant, players, winner, points in games:
        period = period_of(day, event)
        for seat, player in enumerate(players):
            c = out[(period, player)]
            records[(period, player)].add(number)
            c["games"] += 1
            mine = SIDES[variant][seat] == winner
            c["won"] += mine
            c["points_won"] += points if mine else 0
            c["points_conceded"] += points if winner is not None and not mine else 0
    for k, c in out.items():
        c["records"] = len(records[k])
    return out


def _got(rows: list[dict]) -> dict[tuple[str, str], Counter]:
    fields = ("records", "games", "won", "points_won", "points_conceded")
    # (the name spelt in capitals in one record is the same player: the first spelling met is the one shown)
    return {(r["period"], r["player"].title()): Counter({f: r[f] for f in fields if r[f]}) for r in rows}


@pytest.mark.slow          # (the command over the 300 records: some seconds)
def test_the_months_counts_are_those_of_the_games_played(club):
    folder, games = club
    data = _stats("--by", "month", "--counts", "--json", folder)
    assert data["by"] == "month" and data["unread"] == []
    expected = _expected_periods(games, lambda day, event: _month(day))
    assert _got(data["rows"]) == {k: +c for k, c in expected.items()}
    assert len({r["player"].casefold() for r in data["rows"]}) == 8
    periods = [r["period"] for r in data["rows"]]
    assert periods == sorted(periods, key=lambda p: (p == "undated", p))        # months in order, undated last
    assert all(r["decisions"] == 0 and r["accuracy"] is None and r["error_rate"] is None for r in data["rows"])
    # the whole archive's games: each game counted once for each player who sat in it
    assert sum(r["games"] for r in data["rows"]) == sum(len(g[4]) for g in games)


def test_the_events_counts_are_those_of_the_games_played(club, results):
    folder, games = club
    data = to_data(period_rows(results, "event"))
    expected = _expected_periods(games, lambda day, event: event or "(no event)")
    assert _got(data["rows"]) == {k: +c for k, c in expected.items()}


def test_a_date_range_keeps_the_games_dated_in_it(club, results):
    folder, games = club
    start, end = datetime.date(2026, 3, 1), datetime.date(2026, 4, 15)
    kept, dropped = in_range(results, start, end)
    expected = _expected_periods([g for g in games if g[1] is not None and start <= g[1] <= end],
                                 lambda day, event: _month(day))
    assert _got(to_data(period_rows(kept, "month"))["rows"]) == {k: +c for k, c in expected.items()}
    assert dropped == sum(g[1] is None for g in games)
    assert in_range(results, None, None) == (results, 0)


@pytest.mark.slow
def test_the_command_takes_a_date_range_and_says_what_it_left_out(club):
    folder, games = club
    start = datetime.date(2026, 6, 1)
    result = CliRunner().invoke(main, ["stats", "--jobs", "1", "--by", "event", "--counts", "--json",
                                       "--from", "2026.06.01", str(folder)])
    assert result.exit_code == 0, result.output
    expected = _expected_periods([g for g in games if g[1] is not None and g[1] >= start],
                                 lambda day, event: event or "(no event)")
    assert _got(json.loads(result.stdout)["rows"]) == {k: +c for k, c in expected.items()}
    assert f"{sum(g[1] is None for g in games)} games left out by --from/--to" in result.stderr


def test_head_to_head_counts_opponents_only_and_pairs_whoever_sat_first(club, results):
    folder, games = club
    data = to_data(head_to_head(results))
    versus: dict[tuple[str, str], Counter] = defaultdict(Counter)
    pairs: dict[tuple[str, str], Counter] = defaultdict(Counter)
    together: dict[str, Counter] = defaultdict(Counter)
    for _, _, _, variant, players, winner, points in games:
        sides = SIDES[variant]
        for a, pa in enumerate(players):
            for b, pb in enumerate(players):
                if sides[a] == sides[b]:
                    continue            # partners are never opponents
                c = versus[(pa, pb)]
                c["games"] += 1
                c["won"] += winner == sides[a]
                c["lost"] += winner == sides[b]
                c["points_won"] += points if winner == sides[a] else 0
                c["points_conceded"] += points if winner == sides[b] else 0
        if variant == "partnership":
            ac, bd = "/".join(sorted((players[0], players[2]))), "/".join(sorted((players[1], players[3])))
            for pair, other, side in ((ac, bd, 0), (bd, ac, 1)):
                for c in (pairs[(pair, other)], together[pair]):
                    c["games"] += 1
                    c["won"] += winner == side
                    c["points_won"] += points if winner == side else 0
                    c["points_conceded"] += points if winner == 1 - side else 0
                pairs[(pair, other)]["lost"] += winner == 1 - side
    keys = ("games", "won", "lost", "points_won", "points_conceded")

    def got(rows):
        return {(r["player"].title(), r["opponent"].title()): Counter({k: r[k] for k in keys if r[k]}) for r in rows}

    assert got(data["players"]) == {k: +c for k, c in versus.items()}
    assert len(data["players"]) == 8 * 7        # every two of the 8 met as opponents, in both orders
    assert got(data["pairs"]) == {k: +c for k, c in pairs.items()}
    assert {r["pair"].title(): Counter({k: r[k] for k in keys if k in r and r[k]}) for r in data["partners"]} \
        == {k: +c for k, c in together.items()}
    for row in data["players"]:         # each match-up is seen from both sides alike
        mirror = next(r for r in data["players"] if (r["player"], r["opponent"]) == (row["opponent"], row["player"]))
        assert (mirror["games"], mirror["won"], mirror["points_won"]) == (row["games"], row["lost"],
                                                                          row["points_conceded"])


def test_the_text_and_csv_name_every_period_and_player(club, results):
    folder, games = club
    text = periods_table(period_rows(results, "month"))
    for month in {_month(g[1]) for g in games}:
        assert f"month {month}\n" in text
    assert "Wilson" in text
    lines = head_to_head_csv(head_to_head(results)).splitlines()
    assert lines[0] == "kind,player,opponent,games,won,lost,points_won,points_conceded"
    assert sum(line.startswith("player,") for line in lines) == 56


def _wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval of a proportion k/n (its textbook formula)."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_accuracy_and_error_rate_come_from_the_analysed_decisions_with_their_intervals(tmp_path):
    """A few small analysed games: each player's accuracy is the share of his graded-ok decisions, with Wilson's
    interval; his error rate the mean loss of his decisions, inside its interval."""
    rng = random.Random(7)
    for number in range(4):
        players = tuple(rng.sample(PLAYERS, 2))
        game, _, _ = random_hand(find_variant("draw"), rng, None, players)
        game.tags["Date"] = f"2026.0{1 + number % 2}.1{number}"
        (tmp_path / f"g{number}.dom").write_text(write(Record(source="g", games=[game])), encoding="utf-8")
    analysed = CliRunner().invoke(main, ["analyze", "--json", "--jobs", "1", str(tmp_path)])
    decisions = defaultdict(list)           # (month, player) -> the decisions analyze gives
    for game in json.loads(analysed.stdout)["games"]:
        month = "2026-0" + ("1" if game["file"].endswith(("g0.dom", "g2.dom")) else "2")
        for d in game["decisions"]:
            decisions[(month, d["player"])].append(d)
    data = _stats("--by", "month", "--json", tmp_path)
    assert {(r["period"], r["player"]) for r in data["rows"] if r["decisions"]} == set(decisions)
    for row in data["rows"]:
        mine = decisions.get((row["period"], row["player"]), [])
        assert row["decisions"] == len(mine)
        if not mine:
            continue
        ok = sum(d["class"] is None for d in mine)
        assert row["accuracy"] == round(100 * ok / len(mine), 1)
        low, high = _wilson(ok, len(mine))
        assert row["accuracy_low"] == pytest.approx(100 * low, abs=0.06)
        assert row["accuracy_high"] == pytest.approx(100 * high, abs=0.06)
        mean = sum(d["loss"] for d in mine) / len(mine)
        assert row["error_rate"] == round(mean, 2)
        if len(mine) > 1:
            assert row["error_low"] <= row["error_rate"] <= row["error_high"] and row["error_low"] < row["error_high"]


def test_a_date_reads_as_the_notation_writes_it():
    assert game_date("2026.03.14") == ("2026", "03", "14")
    assert game_date("2026-03-14") == ("2026", "03", "14")
    assert game_date("2026.03.??") == ("2026", "03", "??")
    assert game_date("????.??.??") == ("????", "??", "??")
    for bad in ("2026.02.30", "2026.13.01", "14 March 2026", "", None):
        assert game_date(bad) is None


def test_an_unreadable_date_is_named_and_counted_undated():
    result = {"source": "club/x.dom", "games": [
        {"title": "x", "event": None, "players": ["Ana", "Beto"], "variant": "draw", "date": "March 2026",
         "result": {"winner": ["Ana"], "points": 5}, "analysis": None}]}
    periods = period_rows([result], "month")
    assert periods.unread == ('club/x.dom: x: Date "March 2026"',)
    assert {(r.period, r.player, r.won, r.points_won, r.points_conceded) for r in periods.rows} == {
        ("undated", "Ana", 1, 5, 0), ("undated", "Beto", 0, 0, 5)}
    assert head_to_head([result]).pairs == ()       # no partnership game: no pairs


def test_usage_errors_name_the_option(tmp_path):
    for args, word in ((["--by", "player", "--counts"], "--counts"), (["--by", "month", "--scale", "match"], "--fair"),
                       (["--from", "2026-05-01", "--to", "2026-04-01"], "--to"), (["--from", "May"], "--from")):
        result = CliRunner().invoke(main, ["stats", *args, str(tmp_path)])
        assert result.exit_code == 2 and word in result.output and "Traceback" not in result.output


# ---- invariants over any archive (hypothesis): plain results written here, as the runner gives them ----------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_day = st.dates(datetime.date(2025, 11, 1), datetime.date(2026, 3, 31))
_game = st.tuples(st.sampled_from(("partnership", "cutthroat", "draw")), st.randoms(use_true_random=False),
                  st.one_of(st.none(), _day), st.integers(-1, 3), st.integers(0, 40))


def _plain(games) -> list[dict]:
    out = []
    for k, (variant, rnd, day, winner, points) in enumerate(games):
        players = rnd.sample(PLAYERS, len(SIDES[variant]))
        sides = SIDES[variant]
        won = None if winner < 0 or winner > max(sides) else [p for p, s in zip(players, sides) if s == winner]
        out.append({"source": f"r{k}", "error": None, "games": [
            {"title": "g", "event": None, "players": players, "variant": variant,
             "date": None if day is None else f"{day:%Y.%m.%d}", "analysis": None,
             "result": None if won is None else {"winner": won, "points": points}}]})
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(_game, max_size=25), _day, _day)
def test_a_range_splits_into_its_parts_and_head_to_head_mirrors(games, a, b):
    results = _plain(games)
    a, b = min(a, b), max(a, b)

    def total(rows):
        return Counter({k: sum(getattr(r, k) for r in rows) for k in ("games", "won", "points_won",
                                                                         "points_conceded")})
    whole, _ = in_range(results, None, b)
    left, _ = in_range(results, None, a)
    right, _ = in_range(results, a + datetime.timedelta(days=1), b)
    assert total(period_rows(whole).rows) == total(period_rows(left).rows) + total(period_rows(right).rows)
    rows = period_rows(results).rows
    # every game counted once a player who sat in it; a game won gives its points to each winner and each loser
    assert sum(r.games for r in rows) == sum(len(SIDES[g[0]]) for g in games)
    h2h = head_to_head(results)
    seen = {(r.player, r.opponent): r for r in h2h.players}
    for r in h2h.players + h2h.pairs:
        m = next(x for x in h2h.players + h2h.pairs if (x.player, x.opponent) == (r.opponent, r.player))
        assert (m.games, m.won, m.lost, m.points_won, m.points_conceded) == (r.games, r.lost, r.won,
                                                                             r.points_conceded, r.points_won)
    assert all(r.won + r.lost <= r.games for r in seen.values())
