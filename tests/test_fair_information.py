"""What a player knows, checked against the rules: every deal that could lie behind what he saw,
listed by brute force (each way to put the tiles he has not seen into the hands and the sleepers),
kept when the replayer (the rules' one judge) finds no error in the record's moves seen so far on
that deal; the inference's count, worlds and probabilities, and the fair analysis's deals, must
be exactly these."""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from analyzer.analysis.fair import FairRun, FairSettings, fair_analyze
from analyzer.inference import worlds_at
from analyzer.match import replay_record
from analyzer.notation import parse
from analyzer.position import tiles_of
from analyzer.record import HandEntry
from analyzer.replay import MatchTerms, replay
from analyzer.rules.policies import Dealing
from analyzer.rules.variants import find_variant
from analyzer.tiles import Tile


def deals_seen(rep, seen: int, viewer: int, turn: bool = False) -> list[tuple[frozenset, ...]]:
    """Every deal consistent with what ``viewer`` saw in the first ``seen`` moves, as the tiles each
    hand holds then (and the sleepers last, if any): the record's moves replayed on each candidate deal.
    ``turn``: the viewer is to move now, and the replay takes his move too (it shows whose turn it is)."""
    game, n = rep.game, len(rep.players)
    dealt = [set(h.tiles) for h in game.hands]
    played = [set() for _ in range(n)]
    for step in rep.steps[:seen]:
        if step.move is not None and step.move.tile is not None:
            played[step.seat].add(step.move.tile)
    known = set(dealt[viewer]).union(*played)
    unseen = [t for t in rep.variant.dealing.tiles if t not in known]
    sizes = [0 if s == viewer else len(dealt[s]) - len(played[s]) for s in range(n)]
    tags = {k: v for k, v in game.tags.items() if k != "Result"}
    out = []

    def place(s: int, left: list[Tile], chosen: list[set]):
        if s == n:
            yield chosen, left
            return
        for pick in itertools.combinations(left, sizes[s]):
            yield from place(s + 1, [t for t in left if t not in pick], chosen + [set(pick)])

    for chosen, rest in place(0, unseen, []):
        hands = [dealt[s] if s == viewer else played[s] | chosen[s] for s in range(n)]
        trial = dataclasses.replace(game, tags=tags, moves=list(game.moves[:seen + turn]),
                                    hands=tuple(HandEntry(p, tuple(sorted(h))) for p, h in zip(game.players, hands)))
        if replay(trial, rep.variant, terms=rep.terms).valid:
            out.append(tuple(frozenset(h - played[s]) for s, h in enumerate(hands)) + ((frozenset(rest),) if rest else ()))
    return out


def assert_view_is_the_rules(rep, seen: int, viewer: int, turn: bool = False) -> list:
    """The inference's worlds and probabilities for ``viewer`` are those of :func:`deals_seen`."""
    expected = deals_seen(rep, seen, viewer, turn)
    worlds = worlds_at(rep, seen, viewer)
    assert worlds.count == len(expected)
    listed = [tuple(frozenset(tiles_of(mask)) for mask in w) for w in worlds]
    assert len(set(listed)) == len(listed) and set(listed) == set(expected)
    probs = worlds.probabilities()
    for h, holder in enumerate(worlds.view.holders):
        held = Counter(t for deal in expected for t in deal[h])
        assert probs[holder] == {t: Fraction(c, len(expected)) for t, c in held.items()}
    return expected


# 002: "Das erste Spiel wird von dem Besitzer der Doppelsechs begonnen. Bei Turnieren muss dieser
#  Spieler die [6-6] vorsetzen. In informeller Runde kann der Besitzer der [6-6] ansagen, dass er die
#  Doppelsechs hat und dann einen beliebigen Stein spielen."
JAMAICAN_INFORMAL = """[Variant "jamaican"]
[Rules "mode=informal"]
[Game "1"]
[Players "A, B, C, D"]
[Lead "B"]
[Result "B/D 1 domino"]

A: [0-2] [0-4] [0-6] [1-5] [3-3] [3-5] [5-6]
B: [1-2] [1-6] [2-3] [2-6] [3-6] [4-5] [6-6]
C: [0-0] [1-1] [1-3] [1-4] [2-4] [4-6] [5-5]
D: [0-1] [0-3] [0-5] [2-2] [2-5] [3-4] [4-4]

1. B [2-6] C [4-6] D [4-4]
2. A [0-4] B [1-2] C [1-4] D [0-5]
3. A [5-6] B [3-6] C [2-4] D [0-3]
4. A [0-2]@2 B pass C [0-0] D [0-1]
5. A [1-5] B [4-5] C pass D [3-4]
6. A [3-5] B pass C [5-5] D [2-5]
7. A [0-6] B [6-6] C pass D [2-2]
"""


def test_the_six_six_holder_who_leads_any_tile_is_known_to_hold_it():
    (rep,) = replay_record(parse(JAMAICAN_INFORMAL))
    assert rep.valid
    six_six = Tile(6, 6)
    # B announced the [6-6] and led [2-6]: from the lead on, every other player knows B holds it
    for viewer in (0, 2, 3):
        for seen in (1, 9, 17):
            assert worlds_at(rep, seen, viewer).probabilities()["B"][six_six] == 1
    # late in the hand, the deals each player could not tell apart are exactly those the rules allow
    for seen in (17, 20, 23):
        for viewer in (0, 2, 3):
            deals = assert_view_is_the_rules(rep, seen, viewer)
            assert deals and all(six_six in deal[1] for deal in deals)
    # and the fair analysis judges A's decisions on those deals only
    out = fair_analyze(rep, settings=FairSettings(seats=["A"], exact_below=2_000), run=FairRun(workers=1))
    judged = [d for d in out.decisions if d.fair is not None and d.index >= 15]
    assert judged
    for decision in judged:
        assert decision.fair.method == "exact"
        assert decision.fair.worlds == decision.fair.total == len(deals_seen(rep, decision.index, 0))


# 000: "Einige spielen so, dass jedes Spiel mit einem Doppel beginnen muss, es sei denn, dass keiner
#  der Spieler des beginnenden Spiels ein solches hat."
OPEN_DOUBLE = """[Variant "partnership"]
[Rules "open=double"]
[Game "2"]
[Players "A, B, C, D"]
[Lead "A"]

A: [0-5] [1-2] [1-5] [2-3] [3-5] [4-6] [5-6]
B: [0-2] [0-3] [1-1] [1-3] [2-2] [5-5] [6-6]
C: [0-1] [0-4] [1-6] [2-4] [2-6] [3-6] [4-5]
D: [0-0] [0-6] [1-4] [2-5] [3-3] [3-4] [4-4]

1. A [4-6] B [6-6]@6 C [2-6]@6 D [3-4]@4
2. A [2-3]@3 B [0-2]@2 C [0-4]@0 D [4-4]@4
3. A [1-2]@2 B [1-3]@1 C [2-4]@4 D [2-5]@2
4. A [5-6]@5 B [0-3]@3 C [3-6]@6 D [0-0]@0
5. A [3-5]@3 B [5-5]@5 C [4-5]@5 D [0-6]@0
6. A pass B pass C [1-6]@6 D [1-4]@1
"""


def test_a_lead_that_is_no_double_shows_the_leading_side_holds_none():
    (rep,) = replay_record(parse(OPEN_DOUBLE))
    assert rep.valid
    # A led [4-6]: so neither A nor his partner C holds a double, as everybody at the table knows
    for viewer in (1, 2, 3):
        probs = worlds_at(rep, 1, viewer).probabilities()
        for seat in ("A", "C"):
            assert not [t for t in probs[seat] if t.is_double]
    for seen in (14, 16):
        for viewer in (1, 3):
            deals = assert_view_is_the_rules(rep, seen, viewer)
            assert deals and not [t for deal in deals for t in deal[0] | deal[2] if t.is_double]
    out = fair_analyze(rep, settings=FairSettings(seats=["B", "D"], exact_below=2_000), run=FairRun(workers=1))
    judged = [d for d in out.decisions if d.fair is not None and d.index >= 14]
    assert judged
    for decision in judged:
        seat = rep.steps[decision.index].seat
        assert decision.fair.worlds == decision.fair.total == len(deals_seen(rep, decision.index, seat))


# 001 §8: "Wird im Zuge der Aufnahme der Steine oder während des Spiels ein Stein aufgedeckt, so muss
#  dieser Stein offen auf dem Tisch liegen bleiben und bei der ersten Gelegenheit, bei der er
#  regelgerecht angelegt werden kann, gespielt werden."
@pytest.mark.slow
def test_an_exposed_tile_is_known_to_every_player_from_the_moment_it_lies_open():
    from conftest import RECORDS

    text = (RECORDS / "whist-equal-ends.dom").read_text()
    text = text.replace('[Lead "B"]', '[Lead "B"]\n[Exposed "C [3-3], D [3-5] from 4"]')
    (rep,) = replay_record(parse(text))
    assert rep.valid
    three_three, three_five = Tile(3, 3), Tile(3, 5)
    row4 = next(k for k, st in enumerate(rep.steps) if st.entry.round == 4)
    for viewer in (0, 1):
        before = worlds_at(rep, row4 - 1, viewer).probabilities()
        assert before["C"][three_three] == 1 and before["D"][three_five] < 1
        after = worlds_at(rep, row4, viewer).probabilities()
        assert after["C"][three_three] == 1 and after["D"][three_five] == 1
    for seen, viewer in ((row4 + 8, 1), (row4 + 10, 0)):
        deals = assert_view_is_the_rules(rep, seen, viewer)
        assert deals and all(three_three in deal[2] and three_five in deal[3] for deal in deals)
    # (worlds=2: the sampled decision, B's lead, is solved by the general search while C's [3-3] lies open)
    out = fair_analyze(rep, settings=FairSettings(seats=["B"], exact_below=2_000, worlds=2), run=FairRun(workers=1))
    (decision,) = [d for d in out.decisions if d.fair is not None and d.fair.method == "exact"]
    assert decision.index > row4
    assert decision.fair.worlds == decision.fair.total == len(deals_seen(rep, decision.index, 1))


# 000: "Ein gesperrtes Spiel - das ist ein Spiel, bei dem vier Spieler nacheinander passen": nobody
# sees a block; it shows itself by the passes, so a pass does not show that the hand went on.
def test_a_pass_does_not_show_that_the_hand_was_not_blocked():
    from conftest import RECORDS

    (rep,) = replay_record(parse((RECORDS / "variant-block7.dom").read_text()))
    assert rep.valid
    # "4. A pass": after it A cannot tell whether B holds a tile for the open ends or the hand is blocked
    seen = next(k for k, st in enumerate(rep.steps) if st.entry.round == 4 and st.move.tile is None) + 1
    ends = rep.steps[seen - 1].ends_before
    deals = assert_view_is_the_rules(rep, seen, 0)
    assert any(not any(t.matches(e) for t in deal[1] for e in ends) for deal in deals)


# 003: "Der höchste gehaltene Doppelstein wird von der Person gespielt, die ihn in der Hand hat":
# the leader opens as the holder of the highest double dealt, so with his highest double, whether
# or not the record shows the other hands.
def test_a_leader_whose_hand_is_known_opens_with_his_highest_double_when_other_hands_are_hidden():
    from conftest import RECORDS

    full = (RECORDS / "variant-block7.dom").read_text()
    hidden = "\n".join("B: ?" if line.startswith("B: ") else line for line in full.splitlines())
    (rep,) = replay_record(parse(hidden))
    assert rep.deal_ok and rep.initial.hidden[1]
    out = fair_analyze(rep, settings=FairSettings(seats=["A"], worlds=4, exact_below=1), run=FairRun(workers=1))
    assert out.decisions and all(d.index != 0 for d in out.decisions)      # A's [6-6] lead is no decision
    for text in (full, hidden):
        (wrong,) = replay_record(parse(text.replace("1. A [6-6] B [4-6]", "1. A [3-3] B [4-6]")))
        assert [d.code for d in wrong.diagnostics if d.line == 14][:1] == ["lead-tile"]


def test_a_move_with_no_open_hands_value_is_not_called_best(tmp_path):
    import re

    from conftest import RECORDS
    from test_cli import run

    full = (RECORDS / "variant-block7.dom").read_text()
    path = tmp_path / "one-view.dom"
    path.write_text("\n".join("B: ?" if line.startswith("B: ") else line for line in full.splitlines()))
    out = run("analyze", str(path), "--decision-deals", "4", "--exact-below", "1").output
    assert "every one analysed" in out
    lines = [line for line in out.splitlines() if line.startswith("  move ")]
    # B's hand is hidden: no move has a value with every hand open of its own, so none is "best" by one; each is
    # valued over the deals the record allows (a sheet: docs/fair.md), its loss their mean, least and most
    loss = re.compile(r"\(hindsight\) it loses "
                      r"(\d+\.\d+ on average \(least \d+, most \d+; over \d+ deals\)|0 in each of \d+ deals)")
    assert lines and all(loss.search(line) for line in lines)
    # "best" only of the best on average told apart from every other move: by its paired gap to the closest one
    # over the deals both could be played in (every deal is listed here, so the gap is exact: no interval, above 0)
    for line in lines:
        best = re.search(r"; best on average \S+, ahead of \S+ by (\d+\.\d+) over the [\d,]+ deals? both could", line)
        tied = re.search(r"; [^;]+ and \S+ not told apart", line)
        assert best and float(best.group(1)) > 0 if "; best" in line else tied


def test_analyze_fair_keeps_the_output_options_or_refuses_them_by_name(tmp_path):
    import json

    from conftest import RECORDS
    from test_cli import run

    block7, seed1 = str(RECORDS / "variant-block7.dom"), str(RECORDS / "seed1.dom")
    fair = ("--fair", "--decision-deals", "4", "--exact-below", "1")
    res = run("analyze", block7, *fair, "--jsonl")
    (line,) = [line for line in res.output.splitlines() if line.startswith("{")]
    (game,) = json.loads(line)["games"]
    assert game["analysis"]["fair_seats"] == ["A", "B"]
    res = run("analyze", seed1, *fair, "--quiet")
    assert res.exit_code == 1 and res.output.strip()
    assert all("error[" in line for line in res.output.splitlines())
    for option, value in (("--graph", str(tmp_path / "tree.json")), ("--cache", str(tmp_path / "cache")),
                          ("--scheduler", "tcp://127.0.0.1:1")):
        res = run("analyze", block7, *fair, option, value)
        assert res.exit_code == 2 and option in res.output and "--fair" in res.output


def test_a_setting_of_the_fair_analysis_without_it_is_a_usage_error_naming_the_option(tmp_path):
    from conftest import RECORDS
    from test_cli import run

    block7 = str(RECORDS / "variant-block7.dom")
    for option, value in (("--seat", "A"), ("--decision-deals", "50"), ("--exact-below", "10"), ("--seed", "3")):
        for command in (("analyze", block7), ("report", block7, "-o", str(tmp_path / "page.html"))):
            res = run(*command, option, value)
            assert res.exit_code == 2 and option in res.output and "--fair" in res.output
    assert run("analyze", block7, "--fair", "--seat", "A", "--decision-deals", "2", "--exact-below", "1").exit_code == 0


def test_a_hand_written_as_one_question_mark_a_tile_is_read_as_unknown():
    # docs/notation.md: "one `?` for each tile it does not" show; with none shown, seven of them
    from conftest import RECORDS

    full = (RECORDS / "variant-block7.dom").read_text()
    texts = ["\n".join(f"B: {hand}" if line.startswith("B: ") else line for line in full.splitlines())
             for hand in ("?", "? ? ? ? ? ? ?")]
    one, seven = (replay_record(parse(text))[0] for text in texts)
    assert not parse(texts[1]).errors and seven.deal_ok
    assert seven.initial.hidden == one.initial.hidden == [0, 7]
    assert worlds_at(seven, 5, 0).count == worlds_at(one, 5, 0).count
    assert [d.code for d in parse(texts[1].replace("B: ? ? ? ? ? ? ?", "B: ? ?")).errors] == []
    (short,) = replay_record(parse(texts[1].replace("B: ? ? ? ? ? ? ?", "B: ? ?")))
    assert "deal-size" in [d.code for d in short.diagnostics]


# 004, Hungarian: "Je mehr Steine er unterbringen kann, umso besser für ihn. Ist er am Ende, versucht
#  der nächste Spieler möglichst viele seiner Steine an der Kette anzusetzen": a player plays while he
#  can, so when the turn passes after his play, he held no tile that could be laid then.
def test_the_end_of_a_run_shows_the_runner_holds_nothing_that_fits():
    from conftest import RECORDS

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    assert rep.valid
    ended = [k for k in range(1, len(rep.steps)) if rep.steps[k].seat != rep.steps[k - 1].seat]
    for seen in (14, 17):                        # C after B's run; A after C's run
        assert seen in ended
        mover = rep.steps[seen].seat
        runner = rep.steps[seen - 1].seat
        deals = assert_view_is_the_rules(rep, seen, mover, turn=True)
        ends = rep.steps[seen].ends_before
        assert deals and not [t for deal in deals for t in deal[runner] if any(t.matches(e) for e in ends)]


def test_a_record_with_a_hidden_hand_is_not_said_to_be_unfinished_when_it_may_be_over():
    from conftest import RECORDS

    full = (RECORDS / "variant-block7.dom").read_text()
    hidden = "\n".join("B: ?" if line.startswith("B: ") else line for line in full.splitlines())
    (rep,) = replay_record(parse(hidden))
    # the full record ends blocked (B holds [2-4], nothing for the 1 and the 0); with B's hand hidden
    # his last tile may or may not fit, so the record cannot show the hand over, nor prove it is not
    assert replay_record(parse(full))[0].outcome.termination == "blocked"
    # the deals the sheet allows that end the hand as the record states show it over: no error, the result checked
    assert not [d for d in rep.diagnostics if d.code == "result-mismatch"]
    (shown,) = [d for d in rep.diagnostics if d.code == "deals-result"]
    assert "the moves do not show that the hand is over, but" in shown.message and "end it as the record states" \
        in shown.message
    # and where no deal ends it so, the record's own words stay: written as a domino, it is not shown over
    wrong = replay_record(parse(hidden.replace("blocked", "domino")))[0]
    assert [d.code for d in wrong.errors] == ["result-mismatch"]


# -- rules on whole hands: no per-tile fact, so the per-tile worlds are filtered by them ------------
@pytest.mark.slow
def test_the_hungarian_leader_holds_the_heaviest_hand_dealt():
    # 004: "Der Spieler mit der höchsten Augenzahl beginnt mit dem Auslegen": A led, so no other hand
    # was dealt more pips than A's (a tie leaves either free to lead)
    from conftest import RECORDS

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    assert rep.valid and rep.steps[0].seat == 0
    # C in his first run (the next move is his own: who moves next tells the others more, see
    # test_inference_facts), where the rule leaves 514 of the 1,484 deals the single tiles allow
    deals = assert_view_is_the_rules(rep, 9, 2)
    assert len(deals) == 514
    played = [sum(st.move.tile.pips for st in rep.steps[:9] if st.seat == s) for s in range(3)]
    assert all(played[0] + sum(t.pips for t in deal[0]) >= played[s] + sum(t.pips for t in deal[s])
               for deal in deals for s in (1, 2))


SMALL = 3_000           # the views the brute force lists here (each of its deals is replayed)


def _small(name: str, hand: int, max_pip: int, **options):
    from test_inference import small

    return small(name, hand, max_pip, **options)


def _random_rep(variant, key: str, lead=None, keep=lambda rep: True):
    from analyzer.match import random_hand

    rng = random.Random(key)
    while True:
        game = random_hand(variant, rng, lead)[0]
        rep = replay(game, variant, terms=MatchTerms(lead))
        assert rep.valid, rep.errors
        if keep(rep):
            return rep


def test_hungarian_worlds_on_small_deals_are_those_the_rules_allow():
    for players, hand, max_pip in (("2", 4, 3), ("3", 2, 4)):
        variant = _small("hungarian", hand, max_pip, players=players)
        rep = _random_rep(variant, f"whole-hungarian-{players}")
        filtered = 0
        # the view of the player to move (whose decision it is): the reference takes his move too, as
        # it shows that the turn has come to him (a run before it is over)
        for seen in range(len(rep.steps)):
            viewer = rep.steps[seen].seat
            worlds = worlds_at(rep, seen, viewer)
            if per_tile(worlds) <= SMALL:
                filtered += worlds.count < per_tile(worlds)
                assert_view_is_the_rules(rep, seen, viewer, turn=True)
        assert filtered        # the lead ruled out some deal the per-tile facts allowed
        # the fair analysis judges each decision on exactly those deals
        out = fair_analyze(rep, settings=FairSettings(exact_below=SMALL), run=FairRun(workers=1))
        judged = [d for d in out.decisions if d.fair is not None and d.fair.method == "exact"]
        assert judged
        for decision in judged:
            seat = rep.steps[decision.index].seat
            assert decision.fair.worlds == decision.fair.total == worlds_at(rep, decision.index, seat).count


# 000, South American: "Wenn ein Spieler fünf oder mehr Doppelsteine bekommen hat, werden die Steine
#  zusammengeworfen und es wird noch einmal gegeben": a hand that is played held fewer.
def test_a_forced_redeal_rules_out_worlds_with_that_many_doubles_in_one_hand():
    variant = find_variant("south-american")
    variant = dataclasses.replace(variant, dealing=Dealing(2, 3, (), 2, True))     # two doubles force it here
    rep = _random_rep(variant, "whole-redeal")
    filtered = 0
    for seen in range(1, len(rep.steps)):
        for viewer in range(4):
            worlds = worlds_at(rep, seen, viewer)
            if per_tile(worlds) > SMALL:
                continue
            filtered += worlds.count < per_tile(worlds)
            deals = assert_view_is_the_rules(rep, seen, viewer)
            assert all(sum(t.is_double for t in deal[s]) + sum(st.move.tile.is_double for st in rep.steps[:seen]
                                                               if st.seat == s and st.move.tile) < 2
                       for deal in deals for s in range(4))
    assert filtered
    # the worlds are drawn uniformly among the allowed ones (a chi-square test, 5 sd)
    worlds = worlds_at(rep, 1, 0)
    kept = set(worlds)
    assert len(kept) == worlds.count < per_tile(worlds)
    rng, n = random.Random(3), 20 * len(kept)
    counts = Counter(worlds.sample(rng) for _ in range(n))
    assert set(counts) <= kept
    chi2 = sum((counts.get(w, 0) - n / len(kept)) ** 2 / (n / len(kept)) for w in kept)
    assert chi2 < len(kept) - 1 + 5 * math.sqrt(2 * (len(kept) - 1))
    # where the re-deal is only allowed (redeal=N without must-redeal), such a hand may be played
    free = dataclasses.replace(variant, dealing=Dealing(2, 3, (), 2, False))
    (rep,) = [replay(rep.game, free)]
    assert all(worlds_at(rep, seen, 0).count == worlds_at(rep, seen, 0)._base.count for seen in (1, 3))


def draw_deals_seen(rep, seen: int, viewer: int) -> list:
    """Every (deal, boneyard order) of a draw game that agrees with the first ``seen`` moves as
    ``viewer`` saw them: those of ``test_boneyard.brute_worlds`` (each move legal in the position)
    kept when the replayer finds no error in the record's moves on that deal, each draw naming the
    tile the order puts there (so the judge decides who may lead, too)."""
    from test_boneyard import brute_worlds

    game = rep.game
    tags = {k: v for k, v in game.tags.items() if k != "Result"}
    out = []
    for hands, order in brute_worlds(rep, seen, viewer):
        drawn, moves = iter(order), []
        for entry, step in zip(game.moves, rep.steps[:seen]):
            moves.append(dataclasses.replace(entry, tile=next(drawn)) if step.move.draw else entry)
        trial = dataclasses.replace(game, tags=tags, moves=moves, hands=tuple(
            HandEntry(p, tuple(sorted(tiles_of(h, rep.initial.max_pip)))) for p, h in zip(game.players, hands)))
        if replay(trial, rep.variant, terms=rep.terms).valid:
            out.append((hands, order))
    return out


# 002, Chiva for two or three is a draw game; after a drawn game the [6-6] holder leads (draw-lead=six-six,
# and at 0-0 under the default: "when it lies in the boneyard, the holder of the highest double dealt"), with any tile:
# the lead shows that the leader holds it, or that it lies in the boneyard and his highest double
# is above every double the others were dealt (or that nobody was dealt a double).
def test_who_leads_a_chiva_draw_game_after_a_drawn_one_shows_the_doubles_dealt():
    from analyzer.rules.policies import LeadRequirement
    from test_boneyard import play

    variant = _small("chiva", 3, 3, players="2", **{"draw-lead": "six-six"})
    # the set's top double stands for the [6-6] of the full set (the small set has none)
    req = LeadRequirement(holder_of=Tile(3, 3), reason="after a drawn game", or_highest=True)
    assert variant.lead.tie == "six-six" and variant.dealing.sleepers(2) > 0
    checked = filtered = 0
    for key in range(6):
        rep = _random_rep(variant, f"whole-chiva-{key}", req,
                          keep=lambda rep: not rep.steps[0].move.tile.is_double)    # the lead itself is no proof
        for seen in range(1, len(rep.steps)):
            viewer = rep.steps[seen].seat
            worlds = worlds_at(rep, seen, viewer)
            if worlds.count > SMALL or per_tile(worlds) > 2 * SMALL:
                continue
            expected = draw_deals_seen(rep, seen, viewer)
            view = worlds.view
            listed = [(view.deal(w), view.order(w)) for w in worlds]
            assert worlds.count == len(expected) == len(listed)
            assert sorted(listed, key=repr) == sorted(expected, key=repr)
            held = Counter()                          # each tile's chance to be in each hand now, or undrawn
            for hands, order in expected:
                pos = play(rep, hands, order, seen)
                for s, name in enumerate(rep.players):
                    held.update((name, t) for t in tiles_of(pos.hands[s], rep.initial.max_pip))
                held.update(("boneyard", t) for t in order[len(order) - pos.stock:])
            for holder, probs in worlds.probabilities().items():
                assert probs == {t: Fraction(c, len(expected)) for (h, t), c in held.items() if h == holder}
            checked += 1
            filtered += worlds.count < per_tile(worlds)
    assert checked >= 3 and filtered


def test_the_rule_on_doubles_is_not_asked_again_where_the_other_tiles_have_no_world(monkeypatch):
    """Each placement of the unseen doubles is judged by the rule on whole hands (here Chiva's: after
    a drawn game the [6-6] holder leads, else the holder of the highest double dealt), then the other
    tiles are counted in the room it leaves; a room found to leave them no world is not judged again
    for the placements after (the public view of the record's second game: most of them, at some
    moves). The worlds are unchanged."""
    import analyzer.inference.placements as placements
    from conftest import RECORDS
    from analyzer.inference import Worlds

    rep = replay_record(parse((RECORDS / "match-chiva-2-draw.dom").read_text()))[1]
    before = {seen: worlds_at(rep, seen, None).probabilities() for seen in range(0, rep.legal_prefix + 1, 14)}
    empty, asked = set(), []
    tally, allows = placements.DoublesFirst.tally, Worlds._allows

    def counting_tally(self, room):
        out = tally(self, room)
        if not out.count:
            empty.add(room)
        return out

    def judged(self, world):
        v = self.view
        asked.append(tuple(r - (w & ~f).bit_count() for r, w, f in zip(v.room, world, v.fixed)))
        return allows(self, world)

    monkeypatch.setattr(placements.DoublesFirst, "tally", counting_tally)
    monkeypatch.setattr(Worlds, "_allows", judged)
    met = 0
    for seen, probs in before.items():
        empty.clear(), asked.clear()
        worlds = worlds_at(rep, seen, None)
        assert worlds.view.whole is not None and worlds.view.whole.leader is not None
        assert worlds.probabilities() == probs
        met += len(empty)
        first = {}
        for i, room in enumerate(asked):
            first.setdefault(room, i)
        assert all(first[room] == i for i, room in enumerate(asked) if room in empty), seen
    assert met            # rooms that leave the other tiles no world were met, and judged once each


def per_tile(worlds) -> int:
    """The number of worlds by the per-tile facts alone (no rule on whole hands)."""
    from analyzer.inference import Worlds

    return Worlds(dataclasses.replace(worlds.view, whole=None)).count


def test_the_heaviest_hand_program_equals_filtering_every_deal_and_draws_uniformly():
    from conftest import RECORDS
    from analyzer.inference import Worlds

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    worlds = worlds_at(rep, 7, 2)                       # C's first decision
    view = worlds.view
    played = [sum(t.pips for t in tiles_of(mask)) for mask in view.played]

    def heaviest(world):                               # 004: A, who led, holds the most pips
        pips = [played[s] + sum(t.pips for t in tiles_of(world[s])) for s in range(3)]
        return pips[0] == max(pips)

    kept = [w for w in Worlds(dataclasses.replace(view, whole=None)) if heaviest(w)]
    assert 0 < len(kept) < per_tile(worlds)
    assert worlds.count == len(kept) and sorted(worlds) == sorted(kept)
    probs = worlds.probabilities()
    for h, holder in enumerate(view.holders):
        held = Counter(t for w in kept for t in tiles_of(w[h] & ~view.fixed[h]))
        assert {t: p for t, p in probs[holder].items() if not t.bit & view.fixed[h]} == {
            t: Fraction(c, len(kept)) for t, c in held.items()}
    # drawn uniformly among them (a chi-square test, 5 sd)
    rng, n = random.Random(7), 20 * len(kept)
    counts = Counter(worlds.sample(rng) for _ in range(n))
    assert set(counts) <= set(kept)
    chi2 = sum((counts.get(w, 0) - n / len(kept)) ** 2 / (n / len(kept)) for w in kept)
    assert chi2 < len(kept) - 1 + 5 * math.sqrt(2 * (len(kept) - 1))


def test_the_heaviest_hand_weights_walk_only_the_states_the_count_reached():
    """The probabilities of the heaviest-hand program are its count's states walked forward: where the
    count decided a state (the leader stays heaviest whatever follows) the walk goes on by the room
    alone, as the count did, and adds no state of its own; they equal the deals the rule keeps,
    filtered one by one (004: the leader, A, holds the most pips), at every view of each player."""
    from conftest import RECORDS
    from analyzer.inference import Worlds

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    checked = 0
    for seat in range(3):
        for seen in range(rep.legal_prefix + 1):
            worlds = worlds_at(rep, seen, seat)
            view = worlds.view
            assert view.whole is not None
            states = len(worlds._base._ways)
            probs = worlds.probabilities()
            assert len(worlds._base._ways) == states, (seat, seen)
            if per_tile(worlds) > 2_000:
                continue
            played = [sum(t.pips for t in tiles_of(mask)) for mask in view.played]

            def heaviest(world):
                pips = [played[s] + sum(t.pips for t in tiles_of(world[s])) for s in range(3)]
                return pips[0] == max(pips)

            kept = [w for w in Worlds(dataclasses.replace(view, whole=None)) if heaviest(w)]
            assert worlds.count == len(kept), (seat, seen)
            for h, holder in enumerate(view.holders):
                held = Counter(t for w in kept for t in tiles_of(w[h] & ~view.fixed[h]))
                assert {t: p for t, p in probs[holder].items() if not t.bit & view.fixed[h]} == {
                    t: Fraction(c, len(kept)) for t, c in held.items()}, (seat, seen, holder)
            checked += 1
    assert checked > 30


def test_the_south_american_record_keeps_exactly_the_deals_without_five_doubles_in_a_hand():
    from conftest import RECORDS
    from analyzer.inference import Worlds

    rep = replay_record(parse((RECORDS / "match-south-american-redeal.dom").read_text()))[1]
    assert rep.valid and rep.variant.dealing.forced
    worlds = worlds_at(rep, 13, 2)                       # C, before his fifth tile
    view = worlds.view
    every = list(Worlds(dataclasses.replace(view, whole=None)))       # the per-tile facts alone
    doubles = [sum(t.is_double for t in tiles_of(mask)) for mask in view.played]

    def five(world):
        return any(doubles[s] + sum(t.is_double for t in tiles_of(world[s])) >= 5 for s in range(4))

    assert set(worlds) == {w for w in every if not five(w)} != set(every)


def test_a_view_too_big_to_weigh_the_heaviest_hand_leaves_that_rule_out(monkeypatch):
    import analyzer.inference.placements as placements
    from conftest import RECORDS

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    assert worlds_at(rep, 7, 2).view.whole is not None
    monkeypatch.setattr(placements, "HEAVY_STATES", 10)
    worlds = worlds_at(rep, 7, 2)
    assert worlds.view.whole is None and worlds.count == per_tile(worlds) == len(set(worlds))


@pytest.mark.slow
def test_every_seat_view_of_the_hungarian_record_keeps_the_heaviest_hand_rule():
    """The state budget of the heaviest-hand program leaves the rule out only where three or more hands
    are unseen early on (the public view): each player's own view of the 3-player record keeps it at
    every move, so the fair analysis judges every move of it on the deals the rules allow."""
    from conftest import RECORDS

    (rep,) = replay_record(parse((RECORDS / "variant-hungarian.dom").read_text()))
    for seat in range(len(rep.players)):
        assert all(worlds_at(rep, k, seat).view.whole is not None for k in range(len(rep.steps) + 1)), seat
    assert worlds_at(rep, 0, None).view.whole is None          # the public view, at the deal: left out
