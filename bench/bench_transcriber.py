"""A scripted transcriber at the board: score sheets without hands entered move by move in the real page
(headless Chromium through Playwright, the real server on 127.0.0.1), counting the clicks and keystrokes
and timing each click to the board's answer (the next position drawn), median and worst; the baseline,
measured in the same run, is the library's own work for the same move in this process (the move written
into the text, ``enter_move``, and the next board, ``position_data``).

    python bench/bench_transcriber.py                 # a partnership, a Fives-and-Threes and a draw-game hand
    python bench/bench_transcriber.py --seeds 3 5 7   # the generated games to enter

Each sheet is a generated legal game (``analyzer.generate.random_game``) given as a score sheet gives it:
the tags, every hand ``?``, the plays. Every move is one click on the move the board offers (the server
lists each tile the mover could hold, ``analyzer.rules.offers``); the goal is one click a move and no typed
move. The draw game's sheet (seed 7) has the opener add a matching tile to his double (004): that move too
is one click, on the tile the board offers him out of turn. At the end the page's text must equal the sheet
(checked: the bench fails otherwise).

The match row (#66): a 3-game match sheet (``records/match-milo.dom``, every hand ``?``)
entered from game 1's header alone: each game's moves clicked, then at each game's end the result the sheet
shows clicked among those its deals give (where the hidden tiles leave it open) and "Next game", which writes
the next header (number, players, the lead the rules name). Keys: the names typed once (the Players tag of game
1's header); none between games. The page's games must read back as the sheet's (moves, leads, results).

    python bench/bench_transcriber.py --match-only    # the match row alone
"""
from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOKEN = "bench-transcriber-token"


def sheet(variant: str, seed: int) -> tuple[str, list[tuple[str, str, int | None]]]:
    """The sheet's header (every hand ``?``) and its moves ``(player, move, claim)``."""
    from analyzer.generate import random_game
    from analyzer.match import replay_record
    from analyzer.notation import parse, write
    from analyzer.record import Record

    game = random_game(variant, seed)
    rep = replay_record(parse(write(Record([game], "x", [])), "x"))[0]
    moves = [(s.entry.player, str(s.move), s.entry.claim) for s in rep.steps if s.move is not None]
    rules = f'[Rules "{game.tags["Rules"]}"]\n' if "Rules" in game.tags else ""
    header = (f'[Event "sheet {variant} {seed}"]\n[Variant "{variant}"]\n{rules}[Players "{", ".join(rep.players)}"]\n'
              f'[Lead "{moves[0][0]}"]\n\n' + "".join(f"{p}: ?\n" for p in rep.players))
    return header, moves


def baseline(header: str, moves) -> list[float]:
    """The library's time for each move: written into the text, then the next board."""
    from analyzer.server.library import BoardRecord, enter_move, position_data

    text, out = header, []
    position_data(BoardRecord(text, "<board>"))
    for player, move, claim in moves:
        start = time.perf_counter()
        text = enter_move(BoardRecord(text, "<board>"), 0, move + (f" +{claim}" if claim else ""), player)["text"]
        position_data(BoardRecord(text, "<board>"))
        out.append(time.perf_counter() - start)
    return out


def transcribe(page, base: str, path: Path, moves) -> tuple[list[float], int, int]:
    """Enter ``moves`` by clicks in the page; (seconds from each click to the next board, clicks, keystrokes)."""
    page.goto(f"{base}/?token={TOKEN}&path={path}")
    page.wait_for_selector("#tomove:has-text('to move')")
    times: list[float] = []
    return times, click_moves(page, [(player, move) for player, move, _claim in moves], times), 0


def click_moves(page, moves, times: list[float]) -> int:
    """Click each of ``moves`` ``(player, move)`` on the board once the board before it is drawn; each click's
    seconds to the next board go to ``times``; the clicks made."""
    for k, (player, move) in enumerate(moves, 1):
        # (the board after the last click is drawn: its moves are this one's; the opener's extra tile is his)
        button = page.locator(f'#legal button.move[data-move="{move}"][data-player="{player}"]')
        button.wait_for()
        start = time.perf_counter()
        button.click()
        page.wait_for_selector(f"#stepinfo:has-text('after move {k} of {k}')")
        times.append(time.perf_counter() - start)
    return len(moves)


def match_sheet() -> tuple[str, list[dict]]:
    """Game 1's header (names, lead, hands ``?``) and the three games of the match sheet: their moves, leads,
    results."""
    import re

    from analyzer.notation import parse
    from analyzer.server.library import BoardRecord, position_data

    text = (ROOT / "records" / "match-milo.dom").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^(\w+): \[.*$", r"\1: ?", text)         # (the file holds the match's three games)
    games = []
    for k, g in enumerate(parse(text, "sheet").games):
        moves = [(m["player"], m["move"]) for m in position_data(BoardRecord(text, "sheet"), k)["moves"]]
        games.append({"moves": moves, "lead": g.tags.get("Lead"), "result": g.tags.get("Result")})
    first = parse(text, "sheet").games[0]
    header = (f'[Event "a match"]\n[Game "1"]\n[Variant "{first.tags["Variant"]}"]\n[Rules "{first.tags["Rules"]}"]\n'
              f'[Players "{first.tags["Players"]}"]\n[Lead "{first.tags["Lead"]}"]\n\n'
              + "".join(f"{p}: ?\n" for p in first.players))
    return header, games


def match_baseline(header: str, games) -> list[float]:
    """The library's time for each move of the match (written into the text, then the next board), the result
    and the next header written between games as the page has them written."""
    from analyzer.server.library import BoardRecord, enter_move, next_game, position_data, result_entry

    text, out = header, []
    for k, game in enumerate(games):
        for player, move in game["moves"]:
            start = time.perf_counter()
            text = enter_move(BoardRecord(text, "<board>"), k, move, player)["text"]
            position_data(BoardRecord(text, "<board>"), k)
            out.append(time.perf_counter() - start)
        if k < len(games) - 1:
            if game["result"] in position_data(BoardRecord(text, "<board>"), k)["results"]:
                text = result_entry(BoardRecord(text, "<board>"), k, result=game["result"])["text"]
            text = next_game(text, "<board>")["text"]
    return out


def transcribe_match(page, base: str, path: Path, games) -> tuple[list[float], int, int, int]:
    """Enter the match by clicks; (seconds from each move's click to the next board, clicks on moves, clicks
    between games, keys between games)."""
    page.goto(f"{base}/?token={TOKEN}&path={path}")
    page.wait_for_selector("#tomove:has-text('to move')")
    times, clicks, between = [], 0, 0
    for number, game in enumerate(games, 1):
        page.wait_for_selector("#stepinfo:has-text('the deal')")
        clicks += click_moves(page, game["moves"], times)
        if number == len(games):
            break
        pick = page.locator(f'#legal button[data-result="{game["result"]}"]')
        page.wait_for_selector("#nextgame")
        if pick.count():
            pick.click()
            between += 1
            page.wait_for_selector("#legal button[data-result]", state="detached")
        page.click("#nextgame")
        between += 1
        page.wait_for_selector(f"#stepinfo:has-text('game {number + 1} of {number + 1}')")
    return times, clicks, between, 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs=3, default=(3, 5, 7), metavar=("PARTNERSHIP", "FIVES_THREES", "DRAW"))
    parser.add_argument("--match-only", action="store_true", help="only the 3-game match sheet")
    args = parser.parse_args()

    import uvicorn
    from playwright.sync_api import sync_playwright

    from analyzer.server import create_app
    from analyzer.server.jobs import Workers

    sheets = [] if args.match_only else [
        ("partnership", *sheet("partnership", args.seeds[0])),
        ("all-fives-threes", *sheet("all-fives-threes", args.seeds[1])), ("draw", *sheet("draw", args.seeds[2]))]
    match_header, match_games = match_sheet()
    folder = Path(tempfile.mkdtemp(prefix="bench-transcriber-"))
    (folder / "match.dom").write_text(match_header, encoding="utf-8")
    for variant, header, _ in sheets:
        (folder / f"{variant}.dom").write_text(header, encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    workers, checks = Workers(), Workers(limit=2, queue=True)
    checks.warm()
    server = uvicorn.Server(uvicorn.Config(create_app([str(folder)], workers, token=TOKEN, checks=checks),
                                           host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    print("a sheet without hands entered by clicks; seconds from a click to the next board drawn;")
    print("baseline: the same move written and the next board made by the library in this process")
    print(f"{'sheet':18} {'moves':>5} {'clicks':>6} {'keys':>4} {'median':>7} {'worst':>7} {'base med':>8} "
          f"{'base worst':>10} {'ratio':>6}")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            for variant, header, moves in sheets:
                page = browser.new_page(viewport={"width": 1366, "height": 900})
                path = folder / f"{variant}.dom"
                times, clicks, keys = transcribe(page, base, path, moves)
                text = page.input_value("#text")
                page.close()
                base_times = baseline(header, moves)
                from analyzer.server.library import BoardRecord, enter_move
                expected = header
                for player, move, claim in moves:
                    expected = enter_move(BoardRecord(expected, "<board>"), 0, move + (f" +{claim}" if claim else ""), player)["text"]
                if text != expected:
                    raise SystemExit(f"{variant}: the page's text is not the sheet:\n{text}\n---\n{expected}")
                med, worst = statistics.median(times), max(times)
                bmed, bworst = statistics.median(base_times), max(base_times)
                print(f"{variant:18} {len(moves):5d} {clicks:6d} {keys:4d} {med:7.3f} {worst:7.3f} {bmed:8.3f} "
                      f"{bworst:10.3f} {med / bmed:6.1f}")
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            times, clicks, between, keys = transcribe_match(page, base, folder / "match.dom", match_games)
            text = page.input_value("#text")
            page.close()
            from analyzer.notation import parse
            from analyzer.server.library import BoardRecord, position_data
            got = parse(text, "page").games
            for k, (mine, theirs) in enumerate(zip(got, match_games)):
                moves = [(m["player"], m["move"]) for m in position_data(BoardRecord(text, "page"), k)["moves"]]
                if moves != theirs["moves"] or mine.tags.get("Lead") != theirs["lead"] or \
                        (k < len(match_games) - 1 and mine.tags.get("Result") != theirs["result"]):
                    raise SystemExit(f"match game {k + 1}: the page's record is not the sheet's:\n{text}")
            if len(got) != len(match_games):
                raise SystemExit(f"the page holds {len(got)} games, not {len(match_games)}")
            names = len(parse(match_header, "h").games[0].tags["Players"])
            n = sum(len(g["moves"]) for g in match_games)
            base_times = match_baseline(match_header, match_games)
            print(f"\n3-game match sheet (match-milo.dom, hands ?): {n} moves, {clicks} clicks on "
                  f"moves ({clicks / n:.2f} a move), {between} clicks between games (a result picked among the "
                  f"deals' where they leave it open, Next game), {keys} keys between games; keys once: the names "
                  f"({names} characters of the Players tag); a click to the next board: median "
                  f"{statistics.median(times):.3f} s, worst {max(times):.3f} s; the library's own work a move "
                  f"(baseline, this process): median {statistics.median(base_times):.3f} s, worst "
                  f"{max(base_times):.3f} s (ratio of medians {statistics.median(times) / statistics.median(base_times):.1f})")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
        workers.close()
        checks.close()


if __name__ == "__main__":
    main()
