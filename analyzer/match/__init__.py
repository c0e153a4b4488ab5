"""Matches: a record whose games carry ``Game`` tags is validated as one match.

For each game the validator works out who must lead it (from the variant's lead policy, the last
game's result and the match score), replays it with that requirement, adds its result to the
running score and checks the score the record states after it (``[Score "A/C 46, B/D 10"]``).
It says when the match is over and who won it.

``random_match`` plays random legal matches of any variant: the conformance test replays them."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
from ..record import Game, HandEntry, MoveEntry, Record
from ..replay import Replay, hand_facts, replay, resolve_variant
from ..rules import HandFacts, HandResult, LeadRequirement, MatchState, Variant, find_variant
from ..rules.ending import position_for
from ..position import mask_of
from ..tiles import Move, Tile

__all__ = ["MatchEntry", "MatchReport", "replay_match", "next_requirement", "parse_score", "score_text",
           "random_match", "random_hand", "SEAT_NAMES"]

SEAT_NAMES = ("A", "B", "C", "D", "E", "F")


@dataclass
class MatchEntry:
    """The match after one game: the running score, and what the rules made of the game."""

    number: int                      # the game's place in the match, from 1
    lead_rule: str                   # who had to lead it, and why ("" when anyone could)
    result: HandResult | None
    state: MatchState                # the match after this game
    score: str                       # "A/C 46, B/D 10"
    new_match: bool = False          # this game starts a new match (the one before was over)

    def as_dict(self) -> dict:
        s = self.state
        return {"game": self.number, "lead_rule": self.lead_rule, "score": self.score,
                "scores": list(s.scores), "wins": list(s.wins), "over": s.over, "winner": s.winner,
                "drawn": s.drawn, "note": s.note, "new_match": self.new_match}


@dataclass
class MatchReport:
    """Every game of a match replayed, with the running score after each."""

    variant: Variant
    replays: list[Replay]
    entries: list[MatchEntry] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)

    @property
    def state(self) -> MatchState | None:
        return self.entries[-1].state if self.entries else None

    @property
    def over(self) -> bool:
        return bool(self.state and self.state.over)

    @property
    def winner(self) -> str | None:
        s = self.state
        return self.sides[s.winner] if s and s.winner is not None and s.winner < len(self.sides) else None

    def summary(self) -> str:
        s = self.state
        if s is None:
            return "no game of the match could be scored"
        if s.over:
            return f"match over after {s.games} games: " + ("drawn" if s.drawn else f"{self.winner} win") + \
                f" ({self.entries[-1].score})"
        return f"match not over after {s.games} games: {self.entries[-1].score}"


def score_text(variant: Variant, names: tuple[str, ...], scores: tuple[int, ...]) -> str:
    return ", ".join(f"{variant.side_name(side, names)} {v}" for side, v in enumerate(scores))


def parse_score(text: str) -> dict[frozenset[str], int]:
    """Read a Score tag: ``"A/C 46, B/D 10"`` -> ``{{A, C}: 46, {B, D}: 10}``."""
    out = {}
    for part in text.split(","):
        side, _, value = part.strip().rpartition(" ")
        if not side or not value.lstrip("-").isdigit():
            raise ValueError(f"cannot read the score {text!r}; write it as \"A/C 46, B/D 10\"")
        out[frozenset(side.strip().split("/"))] = int(value)
    return out


def next_requirement(variant: Variant, prev: Replay | None, state: MatchState, names: tuple[str, ...]
                     ) -> LeadRequirement | None:
    """Who must lead the next game, given the last one and the match so far (seats of ``names``)."""
    if prev is None or prev.result is None or len(prev.players) != variant.players:
        return None         # nothing to go by (a game whose players do not fit the variant)
    prev_leader = prev.initial.turn
    req = variant.lead.requirement(prev_leader, prev.result, prev.facts, variant.seating,
                                   variant.match.lead(state, variant.seating))
    if req.seats is None:
        return req
    # the seats of the last game, by name, in this game's order
    seats = frozenset(names.index(prev.players[s]) for s in req.seats
                      if s < len(prev.players) and prev.players[s] in names)
    return LeadRequirement(seats, req.holder_of, req.tile, req.reason)


def _diag(rep: Replay, code: str, message: str, tag: str | None, severity: str = "error", **details) -> Diagnostic:
    where = rep.game.tag_pos.get(tag) if tag else None
    where = where or rep.game.pos
    return Diagnostic(severity, code, message, where.line or None, where.column or None, rep.source, details)


def replay_match(games: list[Game], variant: Variant | str | None = None, source: str = "<record>", *,
                 rules: dict[str, str] | None = None) -> MatchReport:
    """Replay ``games`` as one match (and the next match, when one is over and games follow)."""
    first = games[0]
    chosen, diags = resolve_variant(first, variant, rules, source)
    sides = chosen.seating.sides
    state = chosen.match.start(sides)
    report = MatchReport(chosen, [])
    prev: Replay | None = None
    number = 0
    for k, game in enumerate(games):
        names = tuple(game.players) if game.players else tuple(h.player for h in game.hands)
        new_match = state.over
        if new_match:
            state = chosen.match.start(sides)
            prev = None
            number = 0
        number += 1
        req = next_requirement(chosen, prev, state, names) if len(names) == chosen.players else None
        if req is None and number == 1 and game.number not in (None, 1):
            req = LeadRequirement()      # an excerpt that starts later in a match
        rep = replay(game, chosen, source, lead=req)
        if k == 0:
            rep.deal_diagnostics[:0] = diags
        if new_match:
            rep.end_diagnostics.append(_diag(rep, "match-over", "the match before was already over; this game "
                                             "starts a new match", "Game", severity="info"))
        if rep.result is not None and len(rep.players) == chosen.players:
            state = chosen.match.apply(state, rep.result)
        elif rep.players:
            rep.end_diagnostics.append(_diag(rep, "match-unscored", "the result of this game is not known, so the "
                                             "running score leaves it out", None, severity="warning"))
        shown = score_text(chosen, rep.players, state.scores) if len(rep.players) >= chosen.players else ""
        if not report.sides and len(rep.players) == chosen.players:
            report.sides = [chosen.side_name(s, rep.players) for s in range(sides)]
        stated = game.tags.get("Score")
        if stated is not None and rep.result is not None:
            _check_score(rep, stated, state, chosen)
        if state.note:
            rep.end_diagnostics.append(_diag(rep, "match-note", state.note, None, severity="info"))
        if state.over:
            who = "drawn" if state.drawn else f"won by {chosen.side_name(state.winner, rep.players)}"
            rep.end_diagnostics.append(_diag(rep, "match-end", f"the match is over: {who} ({shown})", None,
                                             severity="info"))
        rep.__dict__.pop("diagnostics", None)
        entry = MatchEntry(number, req.reason if req else "", rep.result, state, shown, new_match)
        rep.match = entry
        report.entries.append(entry)
        report.replays.append(rep)
        prev = rep
    return report


def _check_score(rep: Replay, stated: str, state: MatchState, variant: Variant) -> None:
    try:
        claimed = parse_score(stated)
    except ValueError as exc:
        rep.end_diagnostics.append(_diag(rep, "score-syntax", str(exc), "Score"))
        return
    actual = {frozenset(variant.side_name(s, rep.players).split("/")): v for s, v in enumerate(state.scores)}
    for side, value in claimed.items():
        if side not in actual:
            rep.end_diagnostics.append(_diag(rep, "score-mismatch", f"the Score tag names {'/'.join(sorted(side))}, "
                                             f"which is not a side of this game ({', '.join('/'.join(sorted(s)) for s in actual)})",
                                             "Score"))
        elif actual[side] != value:
            rep.end_diagnostics.append(_diag(rep, "score-mismatch", f"the record states the match score "
                                             f"\"{stated}\" but after this game it is "
                                             f"{score_text(variant, rep.players, state.scores)}", "Score",
                                             expected=score_text(variant, rep.players, state.scores)))
            return


# -- random legal matches ---------------------------------------------------------------------
def _lead_mask(variant: Variant, hands: list[list[Tile]], leader: int, req: LeadRequirement | None) -> int:
    op = variant.opening
    if req is not None and req.tile is not None:
        return req.tile.bit
    if op.double:
        doubles = [t for t in hands[leader] if t.is_double]
        return mask_of(doubles)
    if op.highest_double or (op.first_highest and req is None):
        best = op.highest([set(h) for h in hands])
        return best[1].bit if best else 0
    return 0


def _choose_leader(variant: Variant, hands: list[list[Tile]], req: LeadRequirement | None,
                   rng: random.Random) -> int:
    n = variant.players
    if req is not None and req.holder_of is not None:
        for s, h in enumerate(hands):
            if req.holder_of in h:
                return s
    if variant.opening.highest_double or (variant.opening.first_highest and req is None):
        best = variant.opening.highest([set(h) for h in hands])
        if best is not None:
            return best[0]
    if variant.opening.heaviest_hand:
        return rng.choice(sorted(variant.opening.heaviest([set(h) for h in hands])))
    seats = sorted(req.seats) if req is not None and req.seats is not None else list(range(n))
    wider = variant.opening.double_leaders(req.seats if req else None, [set(h) for h in hands], variant.seating)
    if wider:
        seats = sorted(wider)
    if variant.opening.double and not (req and req.tile):
        # the lead is a double when the leading side has one: lead from a seat that holds one
        with_double = [s for s in seats if any(t.is_double for t in hands[s])]
        if with_double:
            return rng.choice(with_double)
        side_has = [s for s in seats if any(any(t.is_double for t in hands[p])
                                            for p in variant.seating.members(variant.seating.teams[s]))]
        seats = [s for s in seats if s not in side_has] or seats
    return rng.choice(seats)


def random_hand(variant: Variant, rng: random.Random, req: LeadRequirement | None = None,
                names: tuple[str, ...] | None = None) -> tuple[Game, HandFacts, HandResult]:
    """One random legal hand of ``variant`` whose lead obeys ``req``, as a record game."""
    n = variant.players
    names = names or SEAT_NAMES[:n]
    size = variant.dealing.hand_size
    every = variant.opening.every_game_tile
    if every is not None:           # every hand is opened by its holder with it (French: [0-0])
        req = LeadRequirement(holder_of=every, tile=every)
    while True:
        tiles = list(variant.dealing.tiles)
        rng.shuffle(tiles)
        hands = [sorted(tiles[i * size:(i + 1) * size]) for i in range(n)]
        if not variant.dealing.redeal or all(sum(t.is_double for t in h) < variant.dealing.redeal for h in hands):
            break
    leader = _choose_leader(variant, hands, req, rng)
    pos = position_for(variant, hands, leader, max_pip=variant.dealing.max_pip)
    pos.pool &= mask_of(variant.dealing.tiles)
    pos.opening = _lead_mask(variant, hands, leader, req)
    boneyard = tiles[n * size:]        # the rest, face down in its shuffled order (draw games)
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
        two_ways = sum(m.tile == move.tile for m in legal) > 1
        pos.push(move)
        if seat < last:
            row += 1       # a table row holds one round, the players in play order
        last = seat
        points = play.points(play.ends_total(pos.line(), pos.ends)) if play and move.is_play else 0
        claim = points if points and rng.random() < 0.8 else None    # now and then a score is missed
        moves.append(MoveEntry(names[seat], move.tile, move.end if two_ways else None, round=row, draw=move.draw,
                               claim=claim, arm=move.arm if two_ways else None))
        if claim:
            scores[seat] += points
        elif points and rng.random() < 0.5:                            # and the next player calls muggins
            scores[(seat + 1) % n] += points
            moves.append(MoveEntry(names[(seat + 1) % n], None, round=row, muggins=points))
    outcome = pos.outcome()
    facts = hand_facts(pos, outcome.termination, outcome.seat, leader, tuple(scores) if play else None)
    result = variant.hand_result(facts)
    tags = {"Source": "generated by analyzer.match.random_hand", "Variant": variant.name}
    if variant.options:
        tags["Rules"] = variant.rules_text
    tags.update({"Players": ", ".join(names), "Lead": names[leader]})
    if result.winner is None:
        tags["Result"] = f"draw {result.termination}"
    else:
        tags["Result"] = f"{variant.side_name(result.winner, names)} {result.points} {result.termination}"
    game = Game(tags=tags, players=tuple(names), hands=tuple(HandEntry(names[s], tuple(hands[s])) for s in range(n)),
                moves=moves)
    return game, facts, result


def random_match(variant: Variant | str | None = None, seed: int = 0, games: int = 6,
                 stop_at_end: bool = True) -> Record:
    """A random legal match of ``variant``: up to ``games`` games (fewer when the match ends), each with
    Game, Lead, Result and Score tags."""
    variant = variant if isinstance(variant, Variant) else find_variant(variant)
    rng = random.Random(seed)
    names = SEAT_NAMES[:variant.players]
    state = variant.match.start(variant.seating.sides)
    out = Record(source=f"<random {variant.name} match {seed}>")
    prev = None
    for k in range(1, games + 1):
        op = variant.opening
        holder = op.holder_tile(1)
        req = LeadRequirement(holder_of=holder, tile=op.forced_tile(1)) if holder else None
        if prev is not None:
            prev_game, prev_facts, prev_result = prev
            fake = _Prev(names, prev_result, prev_facts, names.index(prev_game.tags["Lead"]))
            req = next_requirement(variant, fake, state, names)
        game, facts, result = random_hand(variant, rng, req, names)
        game.tags = {"Event": f"random {variant.name} match {seed}", "Game": str(k), **game.tags}
        state = variant.match.apply(state, result)
        game.tags["Score"] = score_text(variant, names, state.scores)
        out.games.append(game)
        prev = (game, facts, result)
        if state.over and stop_at_end:
            break
    return out


class _Prev:
    """The little of a replay that ``next_requirement`` reads, for a generated game."""

    def __init__(self, players, result, facts, leader):
        self.players = players
        self.result = result
        self.facts = facts

        class _Initial:
            turn = leader
        self.initial = _Initial()


def replay_record(record, variant: Variant | str | None = None, *, rules: dict[str, str] | None = None,
                  match: bool | None = None) -> list[Replay]:
    """Replay every game of a record; each notation error goes to the game whose text holds it.

    A record that holds a match (its games carry ``Game`` tags) is validated as one (see
    :mod:`analyzer.match`): who leads each game and the running score; ``match=False`` skips that."""
    games = record.games
    if match is None:
        match = any(g.number is not None for g in games)
    if match and games:
        replays = replay_match(games, variant, record.source, rules=rules).replays
    else:
        replays = [replay(g, variant, record.source, rules=rules) for g in games]
        for game, rep in zip(games, replays):
            if game.tags.get("Score") is not None:
                rep.end_diagnostics.append(_diag(
                    rep, "unchecked-score", "the Score tag is not checked: the record does not say which game of "
                    "the match this is; give every game its [Game \"N\"] tag (the games of the match from the "
                    "first) to have the running score checked", "Score", severity="info", rule="score"))
    starts = [g.pos.line or 0 for g in games]
    for diag in record.errors:
        k = 0
        for j, start in enumerate(starts):
            if diag.line is not None and start <= diag.line:
                k = j
        if replays:
            replays[k].notation.append(diag)
            replays[k].__dict__.pop("diagnostics", None)
    if not replays:
        empty = replay(Game(), variant, record.source, rules=rules)
        empty.notation.extend(record.errors)
        empty.deal_diagnostics.clear()
        empty.end_diagnostics[:] = [Diagnostic("error", "no-game", "no game found: a record needs a deal "
                                               "(\"A: [0-5] ...\") or a move list", None, None, record.source)]
        replays.append(empty)
    return replays
