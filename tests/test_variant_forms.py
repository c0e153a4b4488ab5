"""The forms real logs take beyond the rule texts (issue 56, item 4): the hand size of the plain draw game, the
stock's last tiles never drawn (Muggins), a block won by the player who laid the last tile, a progression's table
listed from another seat, a player who is out skipped in the strict block game, and every error that a tag would
make valid naming the tag. Each test names the sentence it checks."""
from pathlib import Path

import pytest

from analyzer.generate import random_game
from analyzer.match import progression_seats, replay_match, replay_record
from analyzer.notation import parse, write
from analyzer.notation.writer import write_game
from analyzer.rules import HandFacts, HandResult, find_variant
from analyzer.tiles import Tile

RECORDS = Path(__file__).resolve().parent.parent / "records"
T = Tile.parse


def _replay_text(text: str, name: str = "form.dom"):
    return replay_record(parse(text, name))


def _codes(rep) -> list[str]:
    return [d.code for d in rep.errors]


# -- the plain draw game with another hand size -------------------------------------------------------------
def test_draw_hand_option_deals_seven():
    """Most computer logs of the two-player draw game deal 7 tiles each: ``hand=7`` reads them, the default stays the
    text's 8 ("Bei zwei Spielern erhält jeder 8 Steine", 004)."""
    assert find_variant("draw").dealing.hand_size == 8
    assert find_variant("draw", "hand=7").dealing.hand_size == 7
    assert find_variant("draw", players=4).dealing.hand_size == 5
    for seed in range(6):
        game = random_game(find_variant("draw", "hand=7"), seed)
        assert all(len(h.tiles) == 7 for h in game.hands)
        (rep,) = _replay_text(write_game(game))
        assert rep.valid, [d.message for d in rep.errors]
        text = write_game(game).replace('[Rules "hand=7"]\n', "")
        (rep,) = _replay_text(text)
        assert "deal-size" in _codes(rep)


def test_draw_hand_option_leaves_tiles_to_draw():
    """A hand size that leaves nothing to draw is refused (a draw game needs a boneyard)."""
    from analyzer.rules import BadOptionValue
    with pytest.raises(BadOptionValue):
        find_variant("draw", "hand=13")


# -- Muggins: the last two tiles of the stock are never drawn ---------------------------------------------
def test_all_fives_keep_two_never_draws_the_last_two():
    """Foster's Muggins: "the last two tiles of the stock are never drawn" (``keep=2``); 003's All Fives lets every
    tile be drawn (the default ``keep=0``)."""
    assert find_variant("all-fives").drawing.keep == 0
    keep = find_variant("all-fives", "keep=2")
    assert keep.drawing.keep == 2
    lows = []
    for seed in range(12):
        game = random_game(keep, seed)
        (rep,) = _replay_text(write_game(game))
        assert rep.valid, [d.message for d in rep.errors]
        stocks = [s.boneyard for s in rep.steps if s.boneyard is not None]
        lows.append(min(stocks))
    assert min(lows) == 2          # some hand drew down to the kept two, none below
    free = [min(s.boneyard for s in _replay_text(write_game(random_game(find_variant("all-fives"), seed)))[0].steps
                if s.boneyard is not None) for seed in range(12)]
    assert min(free) < 2


# -- block=last ------------------------------------------------------------------------------------------------
def _blocked(seat: int, pips: list[int]) -> HandFacts:
    return HandFacts("blocked", seat, tuple(pips), tuple(1 for _ in pips), 0)


def test_block_last_the_player_who_laid_the_last_tile_wins():
    """``block=last``: "the player who laid the last tile wins a block", whatever the pips; the winners count the
    losers' pips as after any block."""
    v = find_variant("partnership", "block=last")
    result = v.hand_result(_blocked(1, [3, 20, 4, 10]))        # B laid the last tile; B/D hold 30 against 7
    assert result.winner == 1 and result.points == 7
    assert find_variant("partnership").hand_result(_blocked(1, [3, 20, 4, 10])).winner == 0


def test_block_last_the_blocker_leads_next_with_the_winners_lead():
    """With ``lead=winner-lowest`` the winner of the last game leads the next: after a block won by the last
    player, he leads."""
    v = find_variant("partnership", "block=last, lead=winner-lowest")
    facts = _blocked(3, [3, 20, 4, 10])
    prev = v.hand_result(facts)
    req = v.lead.requirement(0, prev, facts, v.seating)
    assert req.seats == frozenset({3})


# -- a progression's table from another seat ----------------------------------------------------------------
def test_progression_seats_compared_as_circles():
    """§12: "dass zwei der vier Spieler an ihrem Platz bleiben und nur die beiden anderen ihre Plätze tauschen": the
    same table listed from another seat is the same seating (no false ``seat-draw``)."""
    before = ("B", "A", "C", "D")
    assert progression_seats(before, ("D", "A", "C", "B")) is None          # B and D swap
    assert progression_seats(before, ("C", "B", "A", "D")) is None          # the same, listed from C's seat
    assert progression_seats(before, ("A", "C", "D", "B")) is not None      # nobody moved: listed from A's seat
    assert progression_seats(before, ("B", "A", "C", "D")) is not None


def test_progression_record_with_a_match_listed_from_another_seat():
    """The record of a progression stays valid when the second match's Players tag lists its table from another
    seat (the play order is the same circle)."""
    text = (RECORDS / "match-whist-progression.dom").read_text()
    assert text.count('[Players "B, A, C, D"]') == 3
    turned = text.replace('[Players "B, A, C, D"]', '[Players "C, D, B, A"]')
    rep = replay_match(parse(turned, "progression.dom").games)
    assert all(r.valid for r in rep.replays), [d.message for r in rep.replays for d in r.errors]
    assert "seat-draw" not in [d.code for r in rep.replays for d in r.diagnostics]


# -- the strict block game: a player who is out is skipped --------------------------------------------------
def _strict_game_with_an_out_player():
    v = find_variant("block", "out=pair")
    for seed in range(200):
        game = random_game(v, seed)
        held = {h.player: len(h.tiles) for h in game.hands}
        played: dict[str, int] = {}
        for k, m in enumerate(game.moves):
            if m.tile is None and played.get(m.player, 0) == held[m.player]:
                return game, k
            if m.tile is not None:
                played[m.player] = played.get(m.player, 0) + 1
    raise AssertionError("no random strict block game has a player out before the end")


def test_strict_block_game_skips_a_player_who_is_out():
    """003, "(oder in einem strengeren Format, bis beide Spieler eines Paares ausscheiden)": the hand goes on after a
    player is out; he holds no tile, so a log that simply skips him is valid (an info says so), never "holds nothing
    that fits"."""
    game, k = _strict_game_with_an_out_player()
    out = game.moves[k].player
    del game.moves[k]
    (rep,) = _replay_text(write(parse(write_game(game))))
    assert rep.valid, [d.message for d in rep.errors]
    infos = [d for d in rep.diagnostics if d.code == "pass-inserted"]
    assert infos and f"{out} is out" in infos[0].message
    assert not any("nothing that fits" in d.message for d in rep.diagnostics)
    (written,) = _replay_text(write_game(game))
    assert written.result == rep.result


# -- errors that a tag would make valid name the tag -----------------------------------------------------
def _without(name: str, tag: str):
    text = "".join(line for line in (RECORDS / name).read_text().splitlines(keepends=True)
                   if not line.startswith(f"[{tag} "))
    (rep,) = _replay_text(text, name)
    return rep


@pytest.mark.parametrize("record, tag, code", [
    ("whist-false-play.dom", "FalsePlay", "tile-no-match"),
    ("passes-omitted.dom", "Passes", "turn-order"),
    ("variant-doscientos-handover.dom", "LeadFrom", "lead-player"),
    ("variant-draw-starter.dom", "Starter", "lead-tile"),
])
def test_an_error_a_tag_would_make_valid_names_the_tag(record, tag, code):
    """A false play that stands (Domino Whist §8), forced passes left out, a lead handed to the partner (Doscientos)
    and a line opened from the boneyard are valid with their tag; without it the error says which tag."""
    (valid,) = _replay_text((RECORDS / record).read_text(), record)
    assert valid.valid or tag == "FalsePlay"
    rep = _without(record, tag)
    named = [d for d in rep.errors if d.code == code]
    assert named and all(tag in d.message for d in named), [d.message for d in rep.errors]


# -- errors that an option would make valid name the option ---------------------------------------------------
def _without_rules(variant: str, rules: str, code: str, seeds: int = 200):
    """The first random game of ``variant`` with ``rules`` (valid) whose record, its Rules tag taken away, has an
    error ``code``: that error, and the game's record."""
    for seed in range(seeds):
        text = write_game(random_game(find_variant(variant, rules), seed))
        (valid,) = _replay_text(text)
        assert valid.valid, [d.message for d in valid.errors]
        (rep,) = _replay_text(text.replace(f'[Rules "{rules}"]\n', ""))
        named = [d for d in rep.errors if d.code == code]
        if named:
            return named, rep
    raise AssertionError(f"no random {variant} game with {rules} is {code} without it")


@pytest.mark.parametrize("variant, rules, code", [
    ("draw", "hand=7", "deal-size"),            # most computer logs of the two-player draw game deal 7 tiles
    ("block", "players=2, hand=8", "deal-size"),
    ("partnership", "block=last", "result-mismatch"),    # "the player who laid the last tile wins a block"
    ("all-fives", "keep=2", "result-mismatch"),          # Foster's Muggins: the stock's last two tiles never drawn
])
def test_an_error_an_option_would_make_valid_names_the_option(variant, rules, code):
    """A record valid under an option of its variant, written without it, gets errors that name the option (as an
    error a tag would make valid names the tag): a 7-tile draw game's `deal-size` names [Rules "hand=7"], a block the
    last player wins names block=last, a hand blocked with two tiles left in the stock names keep=2."""
    option = rules.split(", ")[-1]
    named, rep = _without_rules(variant, rules, code)
    assert all(f'[Rules "{option}"]' in d.message for d in named), [d.message for d in named]
    if code == "deal-size":
        assert len(named) == len(rep.game.hands)      # each hand's error names it


def test_a_pass_before_the_last_two_tiles_of_the_stock_names_keep():
    """Muggins (Foster): "the last two tiles of the stock are never drawn", so a player who cannot play passes while
    two remain; without keep=2 the pass is `must-draw`, and the error names [Rules "keep=2"]."""
    named, rep = _without_rules("all-fives", "keep=2", "result-mismatch")
    names = [p.strip() for p in rep.game.tags["Players"].split(",")]
    assert 0 < rep.final.stock <= 2 and not any(rep.final.playable_mask(s) for s in range(rep.final.n))
    turn = rep.final.turn                   # (a player who has drawn this turn passes; the next one must draw)
    passes = " ".join(f"{names[(turn + k) % len(names)]} pass" for k in range(len(names)))
    text = write_game(rep.game).replace(f'[Result "{rep.game.tags["Result"]}"]\n', "") + passes + "\n"
    (passed,) = _replay_text(text)
    must = [d for d in passed.errors if d.code == "must-draw"]
    assert must and all('[Rules "keep=2"]' in d.message for d in must), [d.message for d in passed.errors]


def test_an_error_no_single_option_would_make_valid_names_none():
    """A hand of 7 in the partnership game, which deals 7, is no deal-size error; a draw game whose hands differ in
    size (7 and 8) has no one hand size to name, so its errors name no option."""
    game = random_game(find_variant("draw", "hand=7"), 1)
    text = write_game(game).replace('[Rules "hand=7"]\n', "")
    first = game.hands[0]
    spare = next(t for t in (Tile(a, b) for a in range(7) for b in range(a, 7))
                 if all(t not in h.tiles for h in game.hands) and str(t) not in text)
    line = f"{first.player}: " + " ".join(map(str, first.tiles))
    (rep,) = _replay_text(text.replace(line, f"{line} {spare}"))
    sizes = [d for d in rep.errors if d.code == "deal-size"]
    assert sizes and not any("[Rules" in d.message for d in sizes)
