"""Replay a recorded game move by move and collect every error, never stopping at the first one."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ..diagnostics import Diagnostic
from ..position import Outcome, Position, mask_of, tiles_of
from ..record import Game, MoveEntry, Span, StatedResult
from ..rules import (HandFacts, HandResult, LeadRequirement, UnknownVariant, Variant, VariantError, find_variant,
                    parse_rules)
from ..rules.ending import position_for
from ..rules.layout import Arm, ArmPosition
from ..rules.turns import DrawPosition
from ..tiles import PASS, Move, Tile

__all__ = ["Replay", "Step", "replay", "replay_record", "ends_text"]

BLOCK_WORDS = ("gesperrt", "blocked", "block", "trancado", "tranque")


def ends_text(ends: tuple[int, int] | None) -> str:
    if ends is None:
        return "none (nothing played yet)"
    a, b = sorted(ends)
    return f"{a} and {b}" if a != b else f"{a} and {b} (both ends {a})"


def open_text(pos: Position) -> str:
    """The open ends of ``pos``: ``"3 and 5"``, or every arm of a layout with arms."""
    return pos.ends_text() if isinstance(pos, ArmPosition) else ends_text(pos.ends)


def _tiles_text(tiles) -> str:
    return " ".join(str(t) for t in sorted(tiles)) or "nothing"


@dataclass
class Step:
    """One recorded move and what the replay made of it."""

    index: int
    entry: MoveEntry
    seat: int | None                  # the mover the record names (None: an unknown name)
    move: Move | None                 # the move applied to the position, None when it could not be
    ends_before: tuple[int, int] | None
    ends_after: tuple[int, int] | None
    hands_after: tuple[int, ...]      # every seat's known tiles after the move (bit masks)
    lacks: tuple[int, ...] = ()       # numbers a pass proves the mover does not hold
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ends_hand: bool = False           # this move finished the hand
    boneyard: int | None = None       # tiles left in the boneyard after the move (draw games)
    scores: tuple[int, ...] | None = None   # each seat's points scored during play so far (All Fives)
    scored: int = 0                   # the points this entry scored (a claimed play or a muggins call)
    arms: tuple[Arm, ...] | None = None   # every arm after the move (a layout with arms: French, cross)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclass
class Replay:
    """The outcome of replaying one game against a variant."""

    game: Game
    variant: Variant
    source: str
    players: tuple[str, ...]
    initial: Position
    steps: list[Step]
    deal_diagnostics: list[Diagnostic]
    end_diagnostics: list[Diagnostic]
    outcome: Outcome | None
    result: HandResult | None
    final: Position
    notation: list[Diagnostic] = field(default_factory=list)   # syntax errors inside this game's text
    facts: HandFacts | None = None    # what the scoring looked at, once the hand is over
    match: object | None = None       # the match after this game (analyzer.match.MatchEntry), in a match
    lead: LeadRequirement | None = None   # who had to lead, as the match decided it (None: the variant's rule)

    @cached_property
    def diagnostics(self) -> list[Diagnostic]:
        out = list(self.notation) + list(self.deal_diagnostics)
        for step in self.steps:
            out.extend(step.diagnostics)
        out.extend(self.end_diagnostics)
        return out

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def deal_ok(self) -> bool:
        return not any(d.severity == "error" for d in self.deal_diagnostics)

    @property
    def title(self) -> str:
        tags = self.game.tags
        return tags.get("Event") or tags.get("Source") or "untitled game"

    @property
    def legal_prefix(self) -> int:
        """How many steps replay cleanly before the first move with an error."""
        if not self.deal_ok:
            return 0
        for step in self.steps:
            if not step.ok:
                return step.index
        return len(self.steps)

    def position_at(self, index: int) -> Position:
        """A fresh position after the first ``index`` steps (only the moves that could be applied)."""
        pos = self.initial.copy()
        for step in self.steps[:index]:
            if step.move is not None:
                pos.turn = step.seat
                pos.push(step.move)
        if index < len(self.steps) and self.steps[index].seat is not None and pos.outcome() is None:
            pos.turn = self.steps[index].seat
        return pos

    def side_name(self, side: int) -> str:
        return self.variant.side_name(side, self.players)

    @property
    def scores(self) -> tuple[int, ...] | None:
        """Each player's points scored during play (All Fives), after the last entry; None when the
        variant scores nothing during play."""
        if self.variant.play is None:
            return None
        for step in reversed(self.steps):
            if step.scores is not None:
                return step.scores
        return (0,) * len(self.players)

    def result_dict(self) -> dict | None:
        if self.result is None:
            return None
        r = self.result
        winners = None if r.winner is None else [self.players[s] for s in self.variant.seating.members(r.winner)]
        return {"termination": r.termination, "winner": winners, "points": r.points,
                "seat": self.players[r.seat]}


class _Replayer:
    def __init__(self, game: Game, variant: Variant, source: str):
        self.game = game
        self.variant = variant
        self.source = source
        self.players = self._players()
        self.seat_of = {name: seat for seat, name in enumerate(self.players)}

    # -- diagnostics ------------------------------------------------------------------------
    def diag(self, code: str, message: str, pos: Span | None, severity: str = "error", **details) -> Diagnostic:
        line = pos.line if pos and pos.line else None
        column = pos.column if pos and pos.line else None
        return Diagnostic(severity, code, message, line, column, self.source, details)

    def _players(self) -> tuple[str, ...]:
        if self.game.players:
            return tuple(self.game.players)
        return tuple(h.player for h in self.game.hands)

    # -- the deal ---------------------------------------------------------------------------
    def deal(self) -> tuple[Position, list[Diagnostic]]:
        out: list[Diagnostic] = []
        v = self.variant
        n = len(self.players)
        if n != v.players:
            out.append(self.diag("players", f"the {v.name} game has {v.players} players, the record names {n}"
                                 f" ({', '.join(self.players) or 'none'})", self.game.pos))
        valid_tiles = set(v.dealing.tiles)
        size = v.dealing.hand_size
        hands: list[set[Tile] | None] = [None] * n
        partial = [0] * n             # tiles of a partly known hand the record does not show
        seen: dict[Tile, str] = {}
        first_place: dict[Tile, Span] = {}
        for entry in self.game.hands:
            seat = self.seat_of.get(entry.player)
            if seat is None:
                out.append(self.diag("unknown-player", f"the deal names {entry.player!r}, who is not one of the "
                                     f"players ({', '.join(self.players)})", entry.pos))
                continue
            if entry.tiles is None:
                continue
            hand: set[Tile] = set()
            for k, tile in enumerate(entry.tiles):
                where = entry.tile_pos[k] if k < len(entry.tile_pos) else entry.pos
                if tile in v.dealing.set_aside:
                    out.append(self.diag("deal-foreign", f"{tile} is set aside in the {n}-player {v.name} game "
                                         "and is dealt to nobody", where, tile=str(tile)))
                elif tile not in valid_tiles:
                    out.append(self.diag("deal-foreign", f"{tile} is not a tile of this set "
                                         f"(double-{v.dealing.max_pip})", where, tile=str(tile)))
                elif tile in seen:
                    # either copy may be the slip, so both places are marked
                    holder = seen[tile]
                    first = first_place[tile]
                    again = entry.player
                    out.append(self.diag("deal-duplicate", f"{tile} is dealt twice: to {holder} here and to "
                                         f"{again} at line {where.line}", first, tile=str(tile)))
                    out.append(self.diag("deal-duplicate", f"{tile} is dealt twice: to {again} here and to "
                                         f"{holder} at line {first.line}", where, tile=str(tile)))
                else:
                    seen[tile] = entry.player
                    first_place[tile] = where
                    hand.add(tile)
            if len(entry.tiles) + entry.unknown != size:
                out.append(self.diag("deal-size", f"{entry.player} is dealt {len(entry.tiles) + entry.unknown} "
                                     f"tiles; each player gets {size}", entry.pos))
            hands[seat] = hand
            partial[seat] = entry.unknown
            doubles = sum(t.is_double for t in hand)
            if v.dealing.redeal and doubles >= v.dealing.redeal:
                out.append(self.diag("redeal", f"{entry.player} is dealt {doubles} doubles: under redeal="
                                     f"{v.dealing.redeal} the tiles may be dealt again", entry.pos,
                                     severity="warning", doubles=doubles))
        known = [h for h in hands if h is not None]
        if len(known) == n - 1 and v.dealing.all_dealt(n) and self.deal_ok(out) and not any(partial):
            # one unknown hand in a game where every tile is dealt: it is the rest of the set
            seat = hands.index(None)
            rest = valid_tiles - set(seen)
            if len(rest) == size:
                hands[seat] = rest
                seen.update((t, self.players[seat]) for t in rest)
                out.append(self.diag("hand-inferred", f"{self.players[seat]}'s hand is the rest of the set: "
                                     f"{_tiles_text(sorted(rest))}", self.game.pos, severity="info"))
        if all(h is not None for h in hands) and v.dealing.all_dealt(n) and known and not any(partial):
            missing = sorted(valid_tiles - set(seen))
            if missing:
                out.append(self.diag("deal-missing", f"every tile is dealt in this game, but nobody holds "
                                     f"{_tiles_text(missing)}", self.game.hands[0].pos if self.game.hands else None,
                                     tiles=[str(t) for t in missing]))
        hidden = [partial[s] if h is not None else size for s, h in enumerate(hands)]
        pos = position_for(v, [h if h is not None else () for h in hands], 0, max_pip=v.dealing.max_pip,
                           hidden=hidden)
        pos.pool &= mask_of(valid_tiles)
        # a partly known hand decides what its known tiles decide (who holds the tile that must
        # lead); rules that weigh whole hands (the highest double, the heaviest hand) need them whole
        self.hands = hands
        self.whole = [h is not None and not partial[s] for s, h in enumerate(hands)]
        return pos, out

    @staticmethod
    def deal_ok(diags: list[Diagnostic]) -> bool:
        return not any(d.severity == "error" for d in diags)

    # -- the lead ---------------------------------------------------------------------------
    def lead(self, pos: Position) -> list[Diagnostic]:
        """Check who leads and set the tiles the lead may be (``pos.opening``)."""
        out: list[Diagnostic] = []
        op = self.variant.opening
        number = self.game.number
        req = self.requirement
        if op.every_game_tile is not None:
            req = LeadRequirement(holder_of=op.every_game_tile, tile=op.every_game_tile,
                                  reason="every hand is opened by its holder with it")
        elif req is None:
            holder_tile = op.holder_tile(number)
            req = LeadRequirement(holder_of=holder_tile, tile=op.forced_tile(number),
                                  reason="in the first game of a match") if holder_tile else LeadRequirement()
        leader = None
        lead_tag = self.game.tags.get("Lead")
        if lead_tag:
            leader = self.seat_of.get(lead_tag.strip())
            if leader is None:
                out.append(self.diag("unknown-player", f"the Lead tag names {lead_tag!r}, who is not one of "
                                     f"the players ({', '.join(self.players)})", self.game.tag_pos.get("Lead")))
        if leader is None:
            first = next((m for m in self.game.moves if m.player in self.seat_of), None)
            if first is not None:
                leader = self.seat_of[first.player]
        where = self.game.moves[0].pos if self.game.moves else self.game.pos
        if req.holder_of is not None:
            holder = next((s for s, h in enumerate(self.hands) if h is not None and req.holder_of in h), None)
            if holder is not None and leader is not None and holder != leader:
                out.append(self.diag("lead-player", f"{self.players[holder]} holds {req.holder_of} and must lead"
                                     f"{' it' if req.tile is not None else ''}"
                                     f"{' (' + req.reason + ')' if req.reason else ''}, not {self.players[leader]}",
                                     where, expected=self.players[holder]))
            if leader is None:
                leader = holder
        seats = op.double_leaders(req.seats, self.hands, self.variant.seating) or req.seats
        if seats is not req.seats:
            req = LeadRequirement(seats, req.holder_of, req.tile, req.reason + "; the hand opens with a double, "
                                  "so a player of that side who holds one leads")
        if req.seats is not None and leader is not None and leader not in req.seats:
            names = " or ".join(self.players[s] for s in sorted(req.seats) if s < len(self.players))
            out.append(self.diag("lead-player", f"{names} must lead this game ({req.reason}), not "
                                 f"{self.players[leader]}", where, expected=names))
        if req.tile is not None:
            pos.opening = req.tile.bit
        elif op.double and leader is not None and self.whole[leader]:
            doubles = [t for t in self.hands[leader] if t.is_double]
            if doubles:
                pos.opening = mask_of(doubles)
            else:
                side = self.variant.seating.teams[leader]
                for s, h in enumerate(self.hands):
                    if s != leader and h and self.variant.seating.teams[s] == side and any(t.is_double for t in h):
                        out.append(self.diag("lead-double", f"every hand opens with a double unless the leading side "
                                             f"has none: {self.players[leader]} has none but {self.players[s]} has "
                                             f"{_tiles_text(t for t in h if t.is_double)}, so {self.players[s]} "
                                             f"leads", where, expected=self.players[s]))
                        break
        elif op.heaviest_hand and all(self.whole[:len(self.players)]):
            seats = op.heaviest(self.hands)
            if leader is not None and seats and leader not in seats:
                top = max(sum(t.pips for t in h) for h in self.hands if h is not None)
                names = " or ".join(self.players[s] for s in sorted(seats))
                out.append(self.diag("lead-player", f"{names} holds the most pips ({top}) and opens, not "
                                     f"{self.players[leader]} ({sum(t.pips for t in self.hands[leader])})",
                                     where, expected=names))
            if leader is None and seats:
                leader = min(seats)
        elif ((op.highest_double or (op.first_highest and number == 1 and req.seats is None))
              and all(self.whole[:len(self.players)])):
            best = op.highest(self.hands)
            if best is not None:
                seat, tile = best
                pos.opening = tile.bit
                if leader is not None and leader != seat:
                    out.append(self.diag("lead-player", f"{self.players[seat]} holds the highest double {tile} and "
                                         f"opens with it, not {self.players[leader]}", where,
                                         expected=self.players[seat]))
                if leader is None:
                    leader = seat
        pos.turn = leader or 0
        self.leader = pos.turn
        return out

    # -- one move ---------------------------------------------------------------------------
    def check(self, pos: Position, entry: MoveEntry, seat: int) -> tuple[list[Move], list[tuple]]:
        """The candidate moves for a recorded entry and the problems with it.

        Problems are (code, message, details, apply) tuples; ``apply`` False means the move is
        skipped. More than one candidate means the record leaves the placement open."""
        name = self.players[seat]
        problems: list[tuple] = []
        if entry.tile is None:
            playable = pos.playable(seat)
            if playable and pos.ends is not None:
                problems.append(("false-pass", f"{name} passes but could play {_tiles_text(playable)} "
                                 f"on the open ends {open_text(pos)}",
                                 {"open_ends": list(pos.ends), "playable": [str(t) for t in playable]}, True))
            elif pos.ends is None:
                problems.append(("false-pass", f"{name} passes on the lead; the leader must play a tile",
                                 {"playable": [str(t) for t in playable]}, True))
            elif isinstance(pos, DrawPosition) and not pos.hidden[seat] and pos.can_draw(seat):
                problems.append(("must-draw", f"{name} passes but cannot play on {open_text(pos)} and must "
                                 f"draw from the {self._stock_words(pos)[0]} ({self._boneyard_text(pos)})",
                                 {"open_ends": list(pos.ends), "boneyard": pos.stock}, True))
            return [PASS], problems
        tile = entry.tile
        if tile not in self.variant.dealing.tiles:
            return [], [("tile-foreign", f"{tile} is not a tile of this set", {}, False)]
        if self.played.get(tile) is not None:
            line = self.played[tile]
            return [], [("tile-already-played", f"{tile} was already played" + (f" (line {line})" if line else ""),
                         {}, False)]
        holder = next((s for s, h in enumerate(pos.hands) if h & tile.bit), None)
        if holder != seat and not (holder is None and pos.hidden[seat] and pos.pool & tile.bit):
            if holder is not None:
                why = f"it is in {self.players[holder]}'s hand"
            elif pos.hidden[seat] == 0 and self.hands[seat] is None:
                why = f"{name} has no tiles left"
            else:
                why = "it was not dealt to anyone"
            return [], [("tile-not-held", f"{name} does not hold {tile}: {why}; {name} holds "
                         f"{_tiles_text(tiles_of(pos.hands[seat], pos.max_pip))}",
                         {"holder": None if holder is None else self.players[holder]}, False)]
        if pos.ends is None:
            if pos.opening and not pos.opening & tile.bit:
                forced = tiles_of(pos.opening, pos.max_pip)
                problems.append(("lead-tile", f"this hand must be opened with {_tiles_text(forced)}, not {tile}",
                                 {"expected": [str(t) for t in forced]}, True))
            return [Move(tile, None)], problems
        if isinstance(pos, ArmPosition):
            return self.check_arm(pos, entry, seat)
        placements = pos.placements(tile)
        if not placements:
            playable = pos.playable(seat)
            could = (f"{name} could play {_tiles_text(playable)}" if playable
                     else f"{name} holds nothing that fits")
            return [], [("tile-no-match", f"{tile} does not fit the open ends {ends_text(pos.ends)}; {could}",
                         {"open_ends": list(pos.ends), "playable": [str(t) for t in playable]}, False)]
        if entry.end is not None:
            stated = [m for m in placements if m.end == entry.end]
            if not stated:
                problems.append(("end-mismatch", f"{tile} cannot go on the {entry.end}: the open ends are "
                                 f"{ends_text(pos.ends)}", {"open_ends": list(pos.ends)}, True))
            else:
                placements = stated
        return placements, problems

    def check_arm(self, pos: ArmPosition, entry: MoveEntry, seat: int) -> tuple[list[Move], list[tuple]]:
        """``check`` for a layout with arms: the arm a tile may go on (see ``analyzer.rules.layout``)."""
        name, tile = self.players[seat], entry.tile
        playable = pos.playable(seat)
        could = f"{name} could play {_tiles_text(playable)}" if playable else f"{name} holds nothing that fits"
        details = {"open_ends": list(pos.ends), "arms": [list(a) for a in pos.arms],
                   "playable": [str(t) for t in playable]}
        problems: list[tuple] = []
        if entry.arm is not None:
            problem = pos.arm_problem(entry.arm, tile)
            if problem is not None:
                code, reason = problem
                return [], [(code, f"{tile} cannot go on arm {entry.arm}: {reason}; the layout: "
                             f"{pos.ends_text()}; {could}", details, False)]
            move = Move(tile, pos.arms[entry.arm - 1].number, arm=entry.arm)
            if entry.end is not None and entry.end != move.end:
                problems.append(("end-mismatch", f"{tile} on arm {entry.arm} goes on its {move.end}, not on a "
                                 f"{entry.end}", details, True))
            return [move], problems
        placements = pos.placements(tile)
        if entry.end is not None and placements:
            stated = [m for m in placements if m.end == entry.end]
            if not stated:
                problems.append(("end-mismatch", f"{tile} cannot go on a {entry.end}: the layout is "
                                 f"{pos.ends_text()}", details, True))
            else:
                placements = stated
        if placements:
            return placements, problems
        # why not: a closed arm or a skipped double before a plain mismatch
        reasons = [pos.arm_problem(k, tile) for k in range(1, len(pos.arms) + 1)]
        for code in ("arm-closed", "double-skipped"):
            found = [reason for c, reason in filter(None, reasons) if c == code]
            if found:
                return [], [(code, f"{tile} cannot be played now: {found[0]}; the layout: {pos.ends_text()}; "
                             f"{could}", details, False)]
        return [], [("tile-no-match", f"{tile} does not fit the open ends: {pos.ends_text()}; {could}",
                     details, False)]

    @staticmethod
    def _stock_words(pos: DrawPosition) -> tuple[str, str, str]:
        """What the tiles to draw from are called (cross domino draws from the sleepers): the name, a
        tile that is not there, and when none is left."""
        if isinstance(pos, ArmPosition):
            return "sleepers", "among the sleepers", "the sleepers are all drawn"
        return "boneyard", "in the boneyard", "the boneyard is empty"

    @staticmethod
    def _boneyard_text(pos: DrawPosition) -> str:
        text = f"{pos.stock} tile{'s' * (pos.stock != 1)}"
        return text + (f", of which {pos.keep} stay there" if pos.keep else "")

    def check_draw(self, pos: Position, entry: MoveEntry, seat: int) -> tuple[list[Move], list[tuple]]:
        """The draw a recorded ``draws`` entry stands for and the problems with it (see ``check``)."""
        name = self.players[seat]
        v = self.variant
        tile = entry.tile
        if v.drawing is None or not isinstance(pos, DrawPosition):
            return [], [("no-boneyard", f"{name} draws{' ' + str(tile) if tile else ''}, but in the {v.name} game "
                         "nobody draws: the tiles not dealt take no part in the hand", {}, False)]
        _, where, empty = self._stock_words(pos)
        if tile is not None:
            why = None
            if tile not in v.dealing.tiles:
                why = "it is not a tile of this set"
            elif not pos.pool & tile.bit:
                holder = next((s for s, h in enumerate(pos.hands) if h & tile.bit), None)
                why = (f"{name} holds it already" if holder == seat else "it is on the table" if holder is None
                       else f"it is in {self.players[holder]}'s hand")
            if why:
                return [], [("draw-not-in-boneyard", f"{name} draws {tile}, which is not {where}: {why}",
                             {"tile": str(tile)}, False)]
        if pos.stock <= 0:
            return [], [("boneyard-empty", f"{name} draws, but {empty}", {"boneyard": 0}, False)]
        problems: list[tuple] = []
        if isinstance(pos, ArmPosition) and pos.ends is not None and not pos.filling() and pos.outcome() is None:
            problems.append(("draw-not-allowed", f"{name} draws, but every side of the spinner has a tile: the "
                             "sleepers are drawn only to fill the spinner, and after that a player who cannot play "
                             f"passes; the layout: {pos.ends_text()}", {"arms": [list(a) for a in pos.arms]}, True))
            return [Move(tile, None, True)], problems
        playable = pos.playable(seat)
        if pos.outcome() is None and (playable or pos.ends is None):
            what = (f"could play {_tiles_text(playable)} on {open_text(pos)}" if pos.ends is not None
                    else "leads and must play a tile")
            if pos.drawn(seat):
                problems.append(("draw-too-long", f"{name} draws again, but after the {pos.drawn(seat)} tile"
                                 f"{'s' * (pos.drawn(seat) > 1)} he drew he {what}: a player draws only until he "
                                 "can play", {"playable": [str(t) for t in playable]}, True))
            else:
                problems.append(("draw-not-allowed", f"{name} draws, but he {what}: only a player who cannot "
                                 "play draws", {"playable": [str(t) for t in playable]}, True))
        elif pos.rule == "one" and pos.drawn(seat):
            problems.append(("draw-too-long", f"{name} draws a second tile in one turn: under draw=one a player "
                             "draws one tile and passes if it does not fit", {}, True))
        if pos.stock <= pos.keep:
            problems.append(("boneyard-empty", f"{name} draws, but only {pos.stock} tile"
                             f"{'s' * (pos.stock != 1)} are left in the boneyard and the last {pos.keep} are never "
                             "drawn; he must pass", {"boneyard": pos.stock, "keep": pos.keep}, True))
        return [Move(tile, None, True)], problems

    def run(self, pos: Position, start: int, collect: bool) -> tuple[int, list[Step]]:
        """Replay moves ``start..`` on ``pos``; return the error count and (when ``collect``) the steps.

        The position is left after the last move when collecting, and restored otherwise."""
        errors = 0
        steps: list[Step] = []
        pushed = 0
        turn_at_start = pos.turn
        played_at_start = dict(self.played)
        lacks_at_start = list(self.lacks)
        scores_at_start, pending_at_start = list(self.scores), self.pending
        moves = self.game.moves
        for i in range(start, len(moves)):
            entry = moves[i]
            seat = self.seat_of.get(entry.player)
            before = pos.ends
            diags: list[Diagnostic] = []
            move: Move | None = None
            lacks: tuple[int, ...] = ()
            scored = 0
            if entry.is_muggins:
                problems, scored = self.muggins(entry, seat)
                errors += len(problems)
                if collect:
                    diags += [self.diag(code, message, entry.pos, **details) for code, message, details in problems]
            elif seat is None:
                errors += 1
                if collect:
                    diags.append(self.diag("unknown-player", f"{entry.player!r} is not one of the players "
                                           f"({', '.join(self.players)})", entry.pos))
            elif (outcome := pos.outcome()) is not None:
                if not entry.is_pass:
                    errors += 1
                    if collect:
                        how = (f"{self.players[outcome.seat]} went out" if outcome.termination == "domino"
                               else "it was blocked")
                        what = ("draws" + (f" {entry.tile}" if entry.tile else "") if entry.draw
                                else f"plays {entry.tile}")
                        diags.append(self.diag("play-after-end", f"{entry.player} {what} after the hand "
                                               f"was over ({how})", entry.pos))
            else:
                if seat != pos.turn and entry.is_play and isinstance(pos, DrawPosition) and pos.may_add(seat):
                    pos.turn = seat           # the opener adds a matching tile to his lead
                elif seat != pos.turn:
                    errors += 1
                    if collect:
                        diags.append(self._turn_problem(pos, entry))
                    pos.turn = seat
                if entry.draw:
                    candidates, problems = self.check_draw(pos, entry, seat)
                else:
                    candidates, problems = self.check(pos, entry, seat)
                errors += len(problems)
                if collect:
                    for code, message, details, _apply in problems:
                        diags.append(self.diag(code, message, entry.pos, **details))
                if candidates and entry.is_play and pos.hidden[seat]:
                    exposed = self.exposed_pass(seat, entry.tile)
                    if exposed is not None:
                        errors += 1
                        if collect:
                            diags.append(exposed)
                if candidates and all(p[3] for p in problems):
                    if len(candidates) > 1:
                        move, ambiguous = self.choose(pos, i, candidates)
                        if ambiguous and collect:
                            pos.push(move)
                            harmless = pos.outcome() is not None
                            pos.pop()
                            where = (f"arms {' and '.join(str(c.arm) for c in candidates)} ({open_text(pos)})"
                                     if move.arm is not None else f"both open ends ({ends_text(pos.ends)})")
                            taken = f"arm {move.arm}" if move.arm is not None else f"the {move.end}"
                            diags.append(self.diag(
                                "ambiguous-end", f"{entry.tile} fits {where} and "
                                f"the rest of the record does not decide which; taken on {taken}"
                                + ("; it ends the hand either way" if harmless else ""),
                                entry.pos, severity="info" if harmless else "warning",
                                choices=[c.end for c in candidates]))
                    else:
                        move = candidates[0]
                    if move.is_pass and pos.ends is not None:
                        lacks = pos.numbers_open()
                    pos.push(move)
                    pushed += 1
                    if move.draw:         # what his passes proved no longer holds
                        self.lacks = [item for item in self.lacks if item[0] != seat]
                    elif move.tile is not None:
                        self.played[move.tile] = entry.pos.line or None
                    elif lacks:
                        self.lacks.append((seat, lacks, entry))
                elif not entry.draw:
                    pos.turn = (seat + 1) % pos.n     # the recorded mover had his turn
            if not entry.is_muggins:
                problems, scored = self.score_play(pos, entry, seat, move)
                errors += len(problems)
                if collect:
                    diags += [self.diag(code, message, entry.pos, severity=severity, **details)
                              for code, message, details, severity in problems]
            if collect:
                steps.append(Step(i, entry, seat, move, before, pos.ends, tuple(pos.hands), lacks, diags,
                                  boneyard=pos.stock if self.variant.drawing is not None
                                  and isinstance(pos, DrawPosition) else None,
                                  scores=tuple(self.scores) if self.variant.play is not None else None,
                                  scored=scored, arms=getattr(pos, "arms", None)))
        if not collect:
            # the stated result can decide a placement as well (only some ends block the hand)
            errors += sum(d.severity == "error" for d in self.finish(pos, [])[2])
            for _ in range(pushed):
                pos.pop()
            pos.turn = turn_at_start
            self.played = played_at_start
            self.lacks = lacks_at_start
            self.scores, self.pending = scores_at_start, pending_at_start
        return errors, steps

    def _turn_problem(self, pos: Position, entry: MoveEntry) -> Diagnostic:
        """Why it is not ``entry.player``'s turn: the player to move, and what keeps him there."""
        mover = self.players[pos.turn]
        if self.variant.turns == "run" and pos.history and pos.history[-1][1] == pos.turn \
                and pos.history[-1][0].tile is not None:
            playable = pos.playable(pos.turn)
            return self.diag("run-unfinished", f"{mover} could still play {_tiles_text(playable)} on "
                             f"{ends_text(pos.ends)}: a player keeps playing as long as he can, so it is not "
                             f"{entry.player}'s turn yet", entry.pos, expected=mover,
                             playable=[str(t) for t in playable])
        if isinstance(pos, DrawPosition) and pos.drawn(pos.turn):
            return self.diag("turn-order", f"it is {mover}'s turn, not {entry.player}'s: {mover} has drawn and "
                             "must play or go on drawing", entry.pos, expected=mover)
        return self.diag("turn-order", f"it is {mover}'s turn, not {entry.player}'s", entry.pos, expected=mover)

    def exposed_pass(self, seat: int, tile: Tile) -> Diagnostic | None:
        """An earlier pass of ``seat`` that this tile proves false (a block game has no drawing)."""
        for passer, numbers, entry in self.lacks:
            if passer == seat and any(tile.matches(n) for n in numbers):
                number = next(n for n in numbers if tile.matches(n))
                return self.diag("false-pass", f"{self.players[seat]} passed at line {entry.pos.line} with "
                                 f"{' and '.join(map(str, numbers))} open, so held no {number}; yet he now plays {tile}",
                                 entry.pos, revealed_by=str(tile))
        return None

    def choose(self, pos: Position, i: int, candidates: list[Move]) -> tuple[Move, bool]:
        """Pick the placement the rest of the record agrees with; say whether it stays undecided."""
        scored = []
        entry = self.game.moves[i]
        for move in candidates:
            scores, pending = list(self.scores), self.pending
            pos.push(move)
            self.played[move.tile] = -1
            claimed = [p for p in self.score_play(pos, entry, pos.history[-1][1], move)[0] if p[3] == "error"]
            errors, _ = self.run(pos, i + 1, collect=False)
            errors += len(claimed)
            del self.played[move.tile]
            pos.pop()
            self.scores, self.pending = scores, pending
            scored.append((errors, move))
        scored.sort(key=lambda s: s[0])
        return scored[0][1], scored[0][0] == scored[1][0]

    # -- scoring during play (All Fives) ----------------------------------------------------
    def score_play(self, pos: Position, entry: MoveEntry, seat: int | None, move: Move | None
                   ) -> tuple[list[tuple], int]:
        """Score an applied play (``move``) for the variant's per-play scoring and check the claim;
        the problems are (code, message, details, severity). Any entry ends the chance of a Muggins
        call on the play before it."""
        self.pending = None
        play = self.variant.play
        name = entry.player
        if move is None or not move.is_play or seat is None:
            if entry.claim is not None and move is not None:
                what = "a draw" if move.draw else "a pass"
                return [("wrong-score", f"{name} claims {entry.claim} for {what}; only a play scores",
                         {"claimed": entry.claim, "scores": 0}, "error")], 0
            return [], 0
        if play is None:
            if entry.claim is not None:
                return [("wrong-score", f"{name} claims {entry.claim}, but in the {self.variant.name} game "
                         "nobody scores during play", {"claimed": entry.claim, "scores": 0}, "error")], 0
            return [], 0
        total = play.ends_total(pos.line(), pos.ends)
        points = play.points(total)
        if entry.claim is None:
            if points:
                self.pending = (seat, points)
                return [("missed-score", f"{name} does not claim his points: {play.explain(total)}; the next "
                         f"player, {self.players[(seat + 1) % pos.n]}, may take them with muggins",
                         {"scores": points, "total": total}, "warning")], 0
            return [], 0
        self.scores[seat] += points      # the running score counts what the ends give
        if entry.claim != points:
            return [("wrong-score", f"{name} claims {entry.claim}, but {play.explain(total)}",
                     {"claimed": entry.claim, "scores": points, "total": total}, "error")], points
        return [], points

    def muggins(self, entry: MoveEntry, seat: int | None) -> tuple[list[tuple], int]:
        """Check a Muggins call: the previous play's unclaimed points, called by the next player."""
        pending, self.pending = self.pending, None
        name = entry.player
        if self.variant.play is None:
            return [("bad-muggins", f"{name} calls muggins, but in the {self.variant.name} game nobody scores "
                     "during play", {})], 0
        if seat is None:
            return [("bad-muggins", f"{name!r}, who calls muggins, is not one of the players "
                     f"({', '.join(self.players)})", {})], 0
        if pending is None:
            return [("bad-muggins", f"{name} calls muggins {entry.muggins}, but the entry before it is no "
                     "scoring play left unclaimed", {})], 0
        scorer, points = pending
        nxt = (scorer + 1) % len(self.players)
        if seat != nxt:
            return [("bad-muggins", f"{name} calls muggins on {self.players[scorer]}'s unclaimed {points}, but "
                     f"only the next player, {self.players[nxt]}, may", {"expected": self.players[nxt]})], 0
        if entry.muggins != points:
            self.pending = pending      # he may still call it right
            return [("bad-muggins", f"{name} calls muggins {entry.muggins}, but {self.players[scorer]} left "
                     f"{points} unclaimed", {"scores": points})], 0
        self.scores[seat] += points
        return [], points

    # -- the result -------------------------------------------------------------------------
    def finish(self, pos: Position, steps: list[Step]) -> tuple[Outcome | None, HandResult | None, list[Diagnostic]]:
        out: list[Diagnostic] = []
        outcome = pos.outcome()
        result = None
        self.facts = None
        if outcome is not None:
            for step in reversed(steps):
                if step.move is not None:
                    step.ends_hand = True
                    break
            if not any(pos.hidden) and pos.n == self.variant.players:   # else the seats do not fit
                facts = hand_facts(pos, outcome.termination, outcome.seat, self.leader,
                                   tuple(self.scores) if self.variant.play is not None else None)
                result = self.variant.hand_result(facts)
                self.facts = facts
        tag = self.game.tags.get("Result")
        tag_pos = self.game.tag_pos.get("Result", self.game.pos)
        stated = None
        if tag is not None:
            try:
                stated = StatedResult.parse(tag)
            except ValueError as exc:
                out.append(self.diag("result-syntax", str(exc), tag_pos))
        last_pos = steps[-1].entry.pos if steps else self.game.pos
        if outcome is None:
            if stated is not None:
                out.append(self.diag("result-mismatch", f"the record states \"{stated}\" but after its last move the "
                                     f"hand is not over: {self._unfinished(pos)}", tag_pos))
            elif self.game.moves:
                out.append(self.diag("incomplete", f"the record ends before the hand is over: {self._unfinished(pos)}",
                                     last_pos, severity="warning"))
        elif stated is not None:
            problem = self._compare(stated, outcome, result)
            if problem:
                out.append(self.diag("result-mismatch", f"the record states \"{stated}\" but {problem}", tag_pos))
        remark = (self.game.remark or "").lower()
        if any(w in remark for w in BLOCK_WORDS) and (outcome is None or outcome.termination != "blocked"):
            out.append(self.diag("remark-mismatch", f"the remark says the hand is blocked, but "
                                 f"{'it is not over' if outcome is None else 'it ended by domino'}", last_pos,
                                 severity="warning"))
        return outcome, result, out

    def _unfinished(self, pos: Position) -> str:
        parts = []
        for s in range(pos.n):
            left = _tiles_text(tiles_of(pos.hands[s], pos.max_pip)) if not pos.hidden[s] else f"{pos.count(s)} tiles"
            parts.append(f"{self.players[s]} still holds {left}")
        return "; ".join(parts)

    def _compare(self, stated: StatedResult, outcome: Outcome, result: HandResult | None) -> str | None:
        teams = self.variant.seating.teams
        actual = self._describe(outcome, result)
        if stated.termination and stated.termination != outcome.termination:
            return f"the hand ends {actual}"
        if result is None:
            return None
        if stated.side is None:
            return None if result.winner is None else f"the hand ends {actual}"
        seats = [self.seat_of.get(name) for name in stated.side]
        if None in seats:
            return f"{'/'.join(stated.side)} are not players of this game ({', '.join(self.players)})"
        if result.winner is None or any(teams[s] != result.winner for s in seats):
            return f"the hand ends {actual}"
        if stated.points != result.points:
            return f"the hand ends {actual}"
        return None

    def _describe(self, outcome: Outcome, result: HandResult | None) -> str:
        who = self.players[outcome.seat]
        how = f"with {who} going out (domino)" if outcome.termination == "domino" else "blocked"
        if result is None:
            return how
        if result.winner is None:
            return f"{how}, a draw"
        return f"{how}, {self.variant.side_name(result.winner, self.players)} winning {result.points}"


def hand_facts(pos: Position, termination: str, seat: int, leader: int,
               play_points: tuple[int, ...] | None = None) -> HandFacts:
    """Everything a scoring policy may look at in a finished hand, read off the position
    (``play_points``: what each seat scored during play, which the position does not know)."""
    last = ends_before = None
    for move, _seat, ends, *_ in reversed(pos.history):
        if move.tile is not None:
            last, ends_before = move.tile, ends
            break
    return HandFacts(termination, seat, tuple(pos.pips(s) for s in range(pos.n)),
                     tuple(pos.count(s) for s in range(pos.n)), leader, tuple(pos.hands), last, ends_before,
                     tuple((s, m.tile) for m, s, *_ in pos.history), play_points)


def _tag_diag(game: Game, tag: str, code: str, message: str, source: str) -> Diagnostic:
    where = game.tag_pos.get(tag)
    return Diagnostic("error", code, message, where.line if where else None, where.column if where else None, source)


def resolve_variant(game: Game, variant: Variant | str | None = None, rules: dict[str, str] | None = None,
                    source: str = "<record>") -> tuple[Variant, list[Diagnostic]]:
    """The variant a game is played under: ``variant`` (else the Variant tag, else partnership) with
    the Rules tag's options and then ``rules`` on top; the problems found, as diagnostics."""
    diags: list[Diagnostic] = []
    if isinstance(variant, Variant):
        if not rules:
            return variant, diags
        name, options = variant.name, dict(variant.options)
    else:
        name = variant or game.tags.get("Variant")
        options = {}
        tag = game.tags.get("Rules")
        if tag and tag.strip():
            try:
                options.update(parse_rules(tag))
            except VariantError as exc:
                diags.append(_tag_diag(game, "Rules", "bad-rule", str(exc), source))
    options.update(rules or {})
    players = len(game.players) if game.players else (len(game.hands) or None)
    try:
        return find_variant(name, options, players=players), diags
    except UnknownVariant as exc:
        diags.append(_tag_diag(game, "Variant", "unknown-variant", str(exc), source))
        return find_variant(None), diags
    except VariantError as exc:
        diags.append(_tag_diag(game, "Rules", "bad-rule", str(exc), source))
        try:
            return find_variant(name, players=players), diags
        except VariantError:
            return find_variant(None), diags


def replay(game: Game, variant: Variant | str | None = None, source: str = "<record>", *,
           rules: dict[str, str] | None = None, lead: LeadRequirement | None = None) -> Replay:
    """Replay ``game`` under ``variant`` (default: the record's Variant tag, else partnership).

    ``rules``: options on top of the record's Rules tag (``{"target": "200"}``). ``lead``: who must
    lead, as the earlier games of a match decide it (the match validator passes it)."""
    variant, diags = resolve_variant(game, variant, rules, source)
    r = _Replayer(game, variant, source)
    r.played = {}
    r.lacks = []
    r.requirement = lead
    r.facts = None
    r.scores = [0] * len(r.players)
    r.pending = None
    pos, deal_diags = r.deal()
    diags.extend(deal_diags)
    diags.extend(r.lead(pos))
    initial = pos.copy()
    _, steps = r.run(pos, 0, collect=True)
    outcome, result, end_diags = r.finish(pos, steps)
    if variant.irregularities:
        from ..rules.irregularities import annotate, check_exposed
        annotate(variant, steps, end_diags)
        diags.extend(check_exposed(r, initial, steps))
    return Replay(game, variant, source, r.players, initial, steps, diags, end_diags, outcome, result, pos,
                  facts=r.facts, lead=lead)
