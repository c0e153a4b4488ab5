"""Random legal games, for tests, benchmarks and the repair search's own checks: :func:`random_hand`, the one
generator (:func:`random_game` is one hand of it, :func:`analyzer.match.random_match` a match of them)."""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable

from .position import Position, mask_of
from .record import Game, HandEntry, MoveEntry
from .rules import HandFacts, HandResult, LeadRequirement, Variant, find_variant
from .rules.facts import hand_facts
from .rules.lead import deal_lead, lead_tiles
from .rules.mechanics import position_for
from .tiles import Move, Tile
from .rules.modes import End, Layout, Turns

__all__ = ["random_deal", "play_out", "random_hand", "random_game", "SEAT_NAMES", "PlainGame"]

SEAT_NAMES = ("A", "B", "C", "D", "E", "F")


def random_deal(variant: Variant, rng: random.Random, hand_size: int | None = None) -> list[list[Tile]]:
    """Shuffle the variant's set and deal each player ``hand_size`` tiles (default: the variant's)."""
    return _shuffled(variant, rng, hand_size or variant.dealing.hand_size)[0]


def _shuffled(variant: Variant, rng: random.Random, size: int) -> tuple[list[list[Tile]], list[Tile]]:
    """The variant's set shuffled and dealt ``size`` tiles a player: the hands, and the rest in the
    shuffled order (a draw game's boneyard, face down)."""
    tiles = list(variant.dealing.tiles)
    rng.shuffle(tiles)
    n = variant.players
    return [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)], tiles[n * size:]


def play_out(pos: Position, choose: Callable[[list[Move]], Move]) -> list[tuple[int, Move, bool]]:
    """Play ``pos`` to the end of the hand, ``choose`` picking among the legal moves.

    Each entry is (seat, move, two_ways): ``two_ways`` when the tile could have gone on either end."""
    played = []
    while (moves := pos.legal_moves()):
        seat = pos.turn
        move = choose(moves)
        two_ways = sum(m.tile == move.tile for m in moves) > 1
        pos.push(move)
        played.append((seat, move, two_ways))
    return played


def _plain(variant: Variant) -> bool:
    """Whether every random two-ended block hand, led by anyone with any tile, is a legal hand of
    ``variant`` (the opening rules that hold in a game without a Game tag let anyone lead)."""
    op = variant.opening
    return (variant.drawing is None and variant.turns == Turns.ONE and variant.layout == Layout.LINE
            and variant.play is None and variant.end == End.ONE and op.every_game_tile is None
            and not (op.double or op.highest_double or op.heaviest_hand))


@dataclass(frozen=True)
class PlainGame:
    """How a plain two-ended block game is dealt and written (:func:`random_game`): ``hand_size`` tiles a hand and
    ``leader`` to lead (None: the rules' deal and lead); ``ends``: write the open number (and arm) a tile went on
    ``"needed"`` (only when it fits two places), for ``"all"`` tiles, or for ``"none"`` (the replayer must infer
    them). The defaults are every variant's."""

    hand_size: int | None = None
    leader: int | None = None
    ends: str = "needed"


def random_hand(variant: Variant, rng: random.Random, req: LeadRequirement | None = None,
                names: tuple[str, ...] | None = None, plain: PlainGame = PlainGame()
                ) -> tuple[Game, HandFacts, HandResult]:
    """One random legal hand of ``variant`` whose lead obeys ``req``, as a record game: the one
    generator of random games (:func:`random_game` and :func:`analyzer.match.random_match` play theirs).
    ``plain``: the deal, lead and writing of a plain two-ended block game (:class:`PlainGame`)."""
    hand_size, leader, ends = plain.hand_size, plain.leader, plain.ends
    n = variant.players
    names = names or SEAT_NAMES[:n]
    size = hand_size or variant.dealing.hand_size
    every = variant.opening.every_game_tile
    if every is not None:           # every hand is opened by its holder with it (French: [0-0])
        req = LeadRequirement(holder_of=every, tile=every)
    while True:
        hands, boneyard = _shuffled(variant, rng, size)
        if not variant.dealing.redeal or not any(variant.dealing.redeal_due(set(h)) for h in hands):
            break
    if leader is None:
        verdict = deal_lead(variant, hands, req)
        leader = verdict.leader if verdict.leader is not None else rng.choice(verdict.leaders)
    pos = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = lead_tiles(variant, hands, leader, req)
    moves = []
    play, scores = variant.play, [0] * n
    row, last = 1, -1
    while (legal := pos.legal_moves()):
        if pos.may_add(pos.bonus) and rng.random() < 0.5:
            pos.turn = pos.bonus       # the opener adds a matching tile to his lead
            legal = pos.legal_moves()
        seat = pos.turn
        move = rng.choice(legal)
        if move.draw:
            move = Move(boneyard.pop(), None, True)
        write = ends == "all" or (ends == "needed" and sum(m.tile == move.tile for m in legal) > 1)
        pos.push(move)
        if seat < last:
            row += 1       # a table row holds one round, the players in play order
        last = seat
        points = play.points(play.ends_total(pos.line_ends(), pos.ends)) if play and move.is_play else 0
        claim = points if points and rng.random() < 0.8 else None    # now and then a score is missed
        moves.append(MoveEntry(names[seat], move.tile, move.end if write else None, round=row, draw=move.draw,
                               claim=claim, arm=move.arm if write else None))
        if claim:
            scores[seat] += points
        elif points and rng.random() < 0.5:                            # and the next player calls muggins
            scores[(seat + 1) % n] += points
            moves.append(MoveEntry(names[(seat + 1) % n], None, round=row, muggins=points))
    outcome = pos.outcome()
    facts = hand_facts(pos, outcome.termination, outcome.seat, leader, tuple(scores) if play else None)
    result = variant.hand_result(facts)
    tags = {"Source": "generated by analyzer.generate.random_hand", "Variant": variant.name}
    if variant.options:
        tags["Rules"] = variant.rules_text
    tags.update({"Players": ", ".join(names), "Lead": names[leader]})
    if result.winner is None:
        tags["Result"] = f"draw {result.termination}"
    else:
        called = "milo" if any(name == "milo" for name, _ in result.bonuses) else result.termination   # (000)
        tags["Result"] = f"{variant.side_name(result.winner, names)} {result.points} {called}"
    game = Game(tags=tags, players=tuple(names), hands=tuple(HandEntry(names[s], tuple(hands[s])) for s in range(n)),
                moves=moves)
    return game, facts, result


def random_game(variant: Variant | str | None = None, seed: int = 0, hand_size: int | None = None,
                leader: int | None = None, ends: str = "needed") -> Game:
    """A complete legal game with a random deal and random legal moves (:func:`random_hand`), as a
    record its variant's validator accepts (every variant and option: a test checks them all).

    ``ends``: write the open number a tile went on ``"needed"`` (only when it fits both ends with
    different numbers), for ``"all"`` tiles, or for ``"none"`` (the replayer must infer them).
    ``hand_size``, ``leader`` and ``ends`` other than ``"needed"`` are for the plain two-ended block
    games (a variant whose rules decide the lead, draw, score during play or lay arms is played as its
    rules say)."""
    variant = variant if isinstance(variant, Variant) else find_variant(variant)
    if not _plain(variant) and (hand_size is not None or leader is not None or ends != "needed"):
        raise ValueError(f"hand_size, leader and ends are for plain block games, not for {variant.name}")
    rng = random.Random(seed)
    game, _, _ = random_hand(variant, rng, None, SEAT_NAMES[:variant.players], PlainGame(hand_size, leader, ends))
    game.moves[:] = [replace(m, round=None) for m in game.moves]
    game.tags = {"Event": f"random game {seed}", **game.tags,
                 "Source": "generated by analyzer.generate.random_game"}
    return game
