"""Reasons over deals (``analysis.reasons.over_deals``): the fair verdict's ("in k of the n deals he could not rule
out", ``analysis.dealreasons``) and a sheet's ("in k of the n deals the sheet allows").

The counts are checked against an explicit enumeration of the worlds, independent of the inference: every way of
giving the tiles the mover has not seen to the hand he cannot see, each written into the record cut at the
decision and kept where the record's moves before it replay legally (each pass forced); in each, the brute force of
``test_reasons`` (plain minimax, the rules reading each finished hand) gives the two lines after the move played and
after the fair best move, and the reasons read off them where the move played loses there."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from analyzer.analysis import AnalysisSettings, alternative_text, analyze_replay
from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.analysis.dealreasons import fair_reasons, sheet_reasons
from analyzer.analysis.sheets import sheet_analyze
from analyzer.analysis.reasons import CODES, explain, shown_facts, walk_line
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.tiles import tile_set
from test_reasons import _at, _pushed, before, minimax, principal, setup

# Bob's [1-3] at move 4 opens the 1 Ann showed with [1-6] (test_reasons' opens-opponent-number set-up); Ann, who
# passed on 3 and 4 at move 1, holds two tiles Bob cannot see
OPENS = ("block", "Ann, Bob", "3 4", 8, {"Ann": "[0-0] [1-2] [1-6]", "Bob": "[1-3] [1-4] [4-6]"},
         "Ann pass Bob [1-4]@4 Ann [1-6]@1 Bob [1-3]@3 Ann [1-2]@1 Bob [4-6]@6", 3)
# Bob's [3-5] at move 4 where [5-5] makes Ann pass again (test_reasons' void-missed set-up)
VOID = ("block", "Ann, Bob", "2 0", 8, {"Ann": "[1-1] [2-3] [2-6]", "Bob": "[0-5] [3-5] [5-5]"},
        "Ann [2-6]@2 Bob [0-5]@0 Ann pass Bob [3-5]@5 Ann [2-3]@3", 3)


def fair_of(text: str, index: int, deals: int):
    rep = replay_record(parse(text))[0]
    assert rep.valid, [d.message for d in rep.diagnostics]
    out = fair_analyze(rep, analyze_replay(rep, AnalysisSettings(reasons=True)),
                       settings=FairSettings(exact_below=5000), run=FairRun(workers=1))
    out = fair_reasons(rep, out, deals=deals)
    return rep, next(d for d in out.decisions if d.index == index)


def enumerated(case, index: int, best: str) -> tuple[int, Counter]:
    """The worlds the mover at ``index`` could not rule out, by explicit enumeration (see the module), and per code in
    how many of them it holds with the move played losing there, by the brute force's lines."""
    variant, players, ends, table, hands, moves, _ = case
    names = [p.strip() for p in players.split(",")]
    tokens = moves.split()
    cut = []
    while len(cut) < index:              # the moves before the decision, as "Name move" pairs
        cut.append(f"{tokens[0]} {tokens[1]}")
        tokens = tokens[2:]
    rep0 = replay_record(parse(setup(variant, players, ends, table, hands, moves)))[0]
    mover = rep0.steps[index].seat
    other = 1 - mover
    laid = {str(rep0.steps[i].move.tile) for i in range(index) if rep0.steps[i].seat == other
            and rep0.steps[i].move.is_play}
    mine = set(hands[names[mover]].split())
    held = len(hands[names[other]].split()) - len(laid)
    unseen = [str(t) for t in tile_set(6) if str(t) not in mine | laid]
    worlds, counts = 0, Counter()       # (counts["loses"]: the worlds where the move played loses)
    played_text = str(rep0.steps[index].move)
    for pick in combinations(unseen, held):
        world = dict(hands)
        world[names[other]] = " ".join(sorted(laid) + list(pick))
        rep = replay_record(parse(setup(variant, players, ends, table, world, " ".join(cut) + " "
                                        + f"{names[mover]} {played_text}")))[0]
        if not rep.valid:
            continue
        worlds += 1
        codes = codes_in_world(rep, index, played_text, best)
        counts.update(codes | ({"loses"} if codes else set()))
    return worlds, counts


def codes_in_world(rep, index: int, played: str, best: str) -> set[str]:
    """The codes the brute force's lines give the move ``played`` at ``index`` against ``best`` (none where it does
    not lose there)."""
    pos, points, leader = before(rep, index)
    moves = {alternative_text(m): m for m in pos.legal_moves()}
    values = {}
    for text in (played, best):
        after = _pushed(rep, pos, moves[text], points)
        values[text] = minimax(rep, pos, leader, after)
        pos.pop()
    sign = 1 if rep.variant.seating.teams[pos.turn] == 0 else -1
    if sign * (values[best] - values[played]) <= 0:
        return set()
    lines = []
    for text in (played, best):
        start = pos.copy()
        after = _pushed(rep, start, moves[text], points)
        rest = principal(rep, start, leader, after) if start.outcome() is None else []
        lines.append(walk_line(pos, moves[text], None, rep.variant, leader, points, rep.players, rest))
    analysis = analyze_replay(rep, AnalysisSettings())
    d = next(d for d in analysis.decisions if d.index == index)
    d = replace(d, played_value=values[played], best_value=values[best])     # (against ``best``)
    shown = shown_facts([(i, *_at(rep, i)) for i in range(index)])
    return {r.code for r in explain(d, *lines, pos, shown, rep.players, rep.variant.seating.teams)}


@pytest.mark.slow
@pytest.mark.parametrize("case", [OPENS, VOID], ids=["opens", "void"])
def test_the_fair_reasons_count_the_worlds_an_explicit_enumeration_finds(case):
    variant, players, ends, table, hands, moves, index = case
    rep, d = fair_of(setup(variant, players, ends, table, hands, moves), index, deals=1000)
    assert d.fair.method == "exact" and d.fair.cls is not None
    over = [r for r in d.reasons if r.over is not None]
    assert over, "a move the fair verdict grades gets reasons over its deals"
    worlds, counts = enumerated(case, index, d.fair.best)
    assert worlds == d.fair.total
    for r in over:
        assert (r.over.kind, r.over.drawn, r.over.deals, r.over.total) == ("fair", False, worlds, worlds)
        assert r.over.holds == counts[r.code] and r.over.loses == counts["loses"], r.code
        assert r.sentence.startswith(f"in {counts[r.code]} of the {worlds} deals {d.player} could not rule out")
        assert sum(r.over.counts) <= r.over.holds * 1 and list(r.over.counts) == sorted(r.over.counts, reverse=True)
    assert {r.code for r in over} == {c for c in counts if c not in ("unexplained", "loses")}
    # the open-hands reasons of the deal played come first, as before
    assert [r.over is None for r in d.reasons] == sorted((r.over is None for r in d.reasons), reverse=True)


def test_the_fair_reasons_say_where_their_deals_are_drawn():
    variant, players, ends, table, hands, moves, index = VOID
    rep, d = fair_of(setup(variant, players, ends, table, hands, moves), index, deals=10)
    over = [r for r in d.reasons if r.over is not None]
    assert over and all(r.over.drawn and r.over.deals == 10 and r.over.total == d.fair.total for r in over)
    assert all(r.sentence.startswith(f"in {r.over.holds} of 10 deals drawn from the {d.fair.total:,} Bob could not "
                                     "rule out") for r in over)
    assert all(r.code in CODES for r in over)


# ---- a sheet without hands: its graded moves' reasons over the deals it allows -------------------------------------

def sheet(moves: str) -> str:
    """A block game of three tiles a hand between Ann and Bob, written as a sheet: no hand shown."""
    return ('[Variant "block"]\n[Rules "hand=3"]\n[Players "Ann, Bob"]\n[Lead "Ann"]\n\nAnn: ? ? ?\nBob: ? ? ?\n\n1. '
            + moves + "\n")


# Bob's [2-6] at move 2: Ann holds one tile the sheet does not show; Ann's [1-6] lead: Bob's two tiles not shown
SHEETS = [("Ann [1-6] Bob [2-6]@6 Ann [2-4]@2 Bob [1-5]@1 Ann pass Bob [1-4]@4", 1),
          ("Ann [0-2] Bob [0-4]@0 Ann [4-5]@4 Bob pass Ann [3-5]@5", 0)]


def sheet_deals_enumerated(moves: str) -> list:
    """Every deal the sheet allows, by explicit enumeration: each hand the tiles its player laid and the others of
    three from those nobody laid, kept where the record replays legally with them written (each pass forced)."""
    rep = replay_record(parse(sheet(moves)))[0]
    laid = [[str(st.move.tile) for st in rep.steps if st.seat == s and st.move.is_play] for s in (0, 1)]
    free = [str(t) for t in tile_set(6) if str(t) not in laid[0] + laid[1]]
    out = []
    for ann in combinations(free, 3 - len(laid[0])):
        for bob in combinations([t for t in free if t not in ann], 3 - len(laid[1])):
            text = sheet(moves).replace("Ann: ? ? ?", "Ann: " + " ".join(laid[0] + list(ann))) \
                .replace("Bob: ? ? ?", "Bob: " + " ".join(laid[1] + list(bob)))
            written = replay_record(parse(text))[0]
            if written.valid:
                out.append(written)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("moves,index", SHEETS, ids=["bob", "lead"])
def test_a_sheets_reasons_count_the_deals_an_explicit_enumeration_finds(moves, index):
    rep = replay_record(parse(sheet(moves)))[0]
    analysis = sheet_reasons(rep, sheet_analyze(rep, AnalysisSettings()), deals=1000)
    d = next(d for d in analysis.decisions if d.index == index)
    best = next(a.move for a in d.alternatives if a.best)
    assert d.cls and d.reasons and best != d.played
    deals = sheet_deals_enumerated(moves)
    assert len(deals) == analysis.deals_found.count
    read, counts = 0, Counter()
    for written in deals:
        legal = {alternative_text(m) for m in written.position_at(index).legal_moves()}
        if d.played not in legal or best not in legal:
            continue                # (the best on average is not his to play in this deal: not read)
        read += 1
        codes = codes_in_world(written, index, d.played, best)
        counts.update(codes | ({"loses"} if codes else set()))
    for r in d.reasons:       # never a reason read off one deal as if it were the game: each over the deals
        assert r.over is not None and r.over.kind == "sheet" and not r.facts.played_line
        assert (r.over.holds, r.over.deals, r.over.total, r.over.drawn, r.over.loses) == \
            (counts[r.code], read, len(deals), False, counts["loses"])
        assert r.sentence.startswith(f"in {counts[r.code]} of the {read} deals the sheet allows" if read == len(deals)
                                     else f"in {counts[r.code]} of {read} deals read of the {len(deals)} the sheet")
    assert {r.code for r in d.reasons} == {c for c in counts if c not in ("unexplained", "loses")}


@pytest.mark.slow
def test_a_sheets_move_gets_no_reason_where_none_holds_and_the_text_shows_them(tmp_path, monkeypatch):
    """Where no code holds in any deal the sheet allows, the move has no reasons (not one read off a deal); the
    command's text and JSON give them as the open-hands reasons are given."""
    import json

    from analyzer.analysis import hiddenfair

    # (the sheet's decisions of 3 and 2 tiles, 155,040 deals each, are valued exactly by default, some 5 CPU s
    # each: the reasons here are the sampled verdicts', as before that default)
    monkeypatch.setattr(hiddenfair, "CFR_RANGES_DEALS", 120_000)

    from click.testing import CliRunner

    from analyzer.cli import main

    moves, index = SHEETS[0]
    rep = replay_record(parse(sheet(moves)))[0]
    analysis = sheet_analyze(rep, AnalysisSettings())
    d = next(d for d in analysis.decisions if d.index == index)
    (kept,) = sheet_reasons(rep, replace(analysis, decisions=(d,)), deals=1000).decisions
    assert kept.reasons
    # the same deals, but a move that loses in none of them (the best itself played): no reason at all
    best = next(a.move for a in d.alternatives if a.best)
    assert sheet_reasons(rep, replace(analysis, decisions=(replace(d, played=best),))).decisions[0].reasons is None
    path = tmp_path / "sheet.dom"
    path.write_text(sheet(moves), encoding="utf-8")
    text = CliRunner().invoke(main, ["analyze", str(path), "--jobs", "1"]).stdout
    assert f"    - {kept.reasons[0].sentence} [{kept.reasons[0].code}]" in text.splitlines()
    data = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--json", "--jobs", "1"]).stdout)
    said = next(x for x in data["games"][0]["decisions"] if x["index"] == index)["reasons"]
    assert said[0]["over"]["kind"] == "sheet" and said[0]["code"] == kept.reasons[0].code


def test_stats_counts_a_sheets_reasons_over_its_deals_once_a_move(tmp_path, monkeypatch):
    import json

    from analyzer.analysis import hiddenfair

    monkeypatch.setattr(hiddenfair, "CFR_RANGES_DEALS", 120_000)     # (as above: the sampled verdicts' reasons)

    from click.testing import CliRunner

    from analyzer.cli import main

    path = tmp_path / "sheet.dom"
    path.write_text(sheet(SHEETS[1][0]), encoding="utf-8")
    rows = json.loads(CliRunner().invoke(main, ["stats", str(path), "--json"]).stdout)
    data = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--json", "--jobs", "1"]).stdout)
    counts: dict[str, Counter] = {}
    for d in data["games"][0]["decisions"]:
        assert all(r["over"]["kind"] == "sheet" for r in d.get("reasons") or ())
        counts.setdefault(d["player"], Counter()).update({r["code"] for r in d.get("reasons") or ()})
    assert any(counts.values())
    for row in rows:
        said = dict((code, int(n)) for code, n in (part.rsplit(" ", 1) for part in (row["reasons"] or "").split(", ")
                                                   if part))
        assert said == dict(counts.get(row["player"], {})), row["player"]


def test_analyze_fair_gives_the_reasons_over_the_deals_under_the_move(tmp_path):
    import json

    from click.testing import CliRunner

    from analyzer.cli import main

    variant, players, ends, table, hands, moves, index = VOID
    path = tmp_path / "void.dom"
    path.write_text(setup(variant, players, ends, table, hands, moves), encoding="utf-8")
    text = CliRunner().invoke(main, ["analyze", str(path), "--fair", "--jobs", "1"]).stdout
    over = [line for line in text.splitlines() if line.startswith("    - in ") and "Bob could not rule out" in line]
    assert over and all(line.endswith("]") for line in over)
    data = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--fair", "--json", "--jobs", "1"]).stdout)
    d = next(x for x in data["games"][0]["decisions"] if x["index"] == index)
    fair = [r for r in d["reasons"] if "over" in r]
    assert [f"    - {r['sentence']} [{r['code']}]" for r in fair] == over
    assert all(r["over"]["kind"] == "fair" for r in fair)
    # the deals Bob could not rule out are those of the open-hands mean (here valued exactly by CFR+ instead, over
    # every deal of the public's: both hands unknown); without the exact solver the verdict is their mean
    data = json.loads(CliRunner().invoke(main, ["analyze", str(path), "--fair", "--json", "--jobs", "1",
                                                "--exact-hand", "0", "--no-exact-hidden"]).stdout)
    d = next(x for x in data["games"][0]["decisions"] if x["index"] == index)
    assert d["fair"]["estimates"] == "open-hands mean"
    assert all(r["over"]["total"] == d["fair"]["total_deals"] for r in d["reasons"] if "over" in r)


def test_a_count_of_deals_that_is_an_estimate_is_said_to_be_one():
    """A sheet whose deals are too many to count (``SheetDeals.exact`` false) gives their number as an estimate."""
    from analyzer.analysis.reasons import Facts, Reason, over_deals

    out = Reason("opponent-out", Facts(player="Bob", tiles=("[1-3]",)), "lets Bob go out with [1-3]")
    read = [(out,), (), None, (out,)]
    (r,) = over_deals(read, 12_345, True, "sheet", "Ann", "[6-6]@6", estimated=True)
    assert (r.over.holds, r.over.deals, r.over.loses, r.over.estimated) == (2, 3, 2, True)
    assert r.sentence == ("in 2 of 3 deals drawn from an estimated 12,345 the sheet allows, an opponent goes out "
                          "(Bob in 2)")
    (r,) = over_deals(read, 12_345, True, "sheet", "Ann", "[6-6]@6")
    assert r.sentence.startswith("in 2 of 3 deals drawn from the 12,345 the sheet allows")


def test_a_sheets_reasons_stop_at_their_cpu_budget():
    """The reading of a sheet's reasons is bounded (``seconds``: the command line gives it a share of the values'
    budget): with no time left no deal is read and no move gets a reason over the deals; unbounded, the same move
    gets its reasons, read over every deal where both moves could be played."""
    moves, index = SHEETS[1]
    rep = replay_record(parse(sheet(moves)))[0]
    analysis = sheet_analyze(rep, AnalysisSettings())
    d = next(d for d in analysis.decisions if d.index == index)
    assert d.cls and not d.reasons
    free = next(x for x in sheet_reasons(rep, analysis).decisions if x.index == index)
    assert free.reasons and all(r.over.deals > 0 for r in free.reasons)
    cut = next(x for x in sheet_reasons(rep, analysis, seconds=0).decisions if x.index == index)
    assert not cut.reasons
