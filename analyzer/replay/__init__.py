"""Replay a recorded game move by move and collect every error, never stopping at the first one."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

from ..diagnostics import Diagnostic
from ..i18n import gettext
from ..position import Outcome, Position, ends_text, mask_of
from ..record import Game, MoveEntry, Span, StatedResult
from ..rules import HandFacts, HandResult, LeadRequirement, Variant
from ..rules.facts import hand_facts
from ..rules.mechanics import position_for, turn_up
from ..rules.modes import Turns
from ..rules.judge import Judge, Written
from ..rules.dealt import judge_deal
from ..rules.lead import LeadGame, RecordedLead, ShownDeal, judge_lead
from ..rules.claims import Problem
from ..rules.replayed import after_end, out_skipped, pass_inserted, skips_out, unknown_player
from ..tiles import Move, Tile
from .irregular import WhistIrregularities
from .placement import Placing
from .result import HandEnding, wins
from .step import Step
from .tags import false_plays, resolve_variant, starter_tag
from .setup import setup_start
from ..notation.setup import read_setup
from ..rules.codes import Code
from ..diagnostics import Severity

__all__ = ["Replay", "Step", "MatchTerms", "replay", "ends_text", "hand_facts", "wins"]


@dataclass(frozen=True)
class MatchTerms:
    """What a match decides of one of its games, as the replayer takes it: who must ``lead`` it (None: the
    variant's rule) and what it is ``worth`` after drawn games (None: the hand's own point; the Result tag may
    state it instead)."""

    lead: LeadRequirement | None = None
    worth: int | None = None


class _Run(NamedTuple):
    errors: int
    steps: list
    first: int | None


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
    worth: int | None = None    # what the game is worth in its match after drawn games (see ``replay``)
    written: Game | None = None  # the game as written, when it leaves forced passes out (``game`` has them)
    setup_lacks: tuple | None = None   # a game set up from a position: ((seat, numbers), ...) the passes proved
    start_scores: tuple[int, ...] | None = None   # ... and each seat's points scored before it (All Fives)
    # who may lead where neither the record nor the rules name one player (rules/lead.py's verdict): every seat the
    # rules allow, in seat order (the holder of a tile whose hand is not shown, say); None: the leader is named
    leaders: tuple[int, ...] | None = None

    @property
    def terms(self) -> MatchTerms:
        """What the match decided of this game (its lead and worth), to replay an edited copy under the same."""
        return MatchTerms(self.lead, self.worth)
    deal_results: tuple[str, ...] = ()    # a sheet without hands whose deals end otherwise: their results in words
    # a sheet: every way the deals it allows end the hand (``result`` is theirs where they all agree on the winner
    # and points; what each side scores may still differ, as here): ``analyzer.replay.result.DealOutcome``
    outcomes: tuple = ()
    outcomes_drawn: int = 0     # ... those of this many deals drawn (too many to list), not of every one (0)

    @cached_property
    def diagnostics(self) -> list[Diagnostic]:
        out = list(self.notation) + list(self.deal_diagnostics)
        for step in self.steps:
            out.extend(step.diagnostics)
        out.extend(self.end_diagnostics)
        return out

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == Severity.ERROR]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def redealt(self) -> bool:
        """The game is dealt again: marked so (``[Redeal "C"]``), or a deal with no moves where a hand
        holds the doubles for a new deal (the record goes on with the next deal). It counts for nothing."""
        return "Redeal" in self.game.tags or redeal_inferred(self.game, self.variant, self.initial)

    @property
    def deal_ok(self) -> bool:
        return not any(d.severity == Severity.ERROR for d in self.deal_diagnostics)

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
        return self.start_scores or (0,) * len(self.players)

    @property
    def actual_result(self) -> StatedResult | None:
        """The hand's result as a Result tag states it (``B/D 10 domino``), None when it is not known."""
        r = self.result
        if r is None:
            return None
        side = None if r.winner is None else tuple(self.variant.side_name(r.winner, self.players).split("/"))
        return StatedResult(side, r.points if side else 0, r.termination, any(n == "milo" for n, _ in r.bonuses))

    def result_dict(self) -> dict | None:
        if self.result is None:
            return None
        r = self.result
        winners = None if r.winner is None else [self.players[s] for s in self.variant.seating.members(r.winner)]
        return {"termination": r.termination, "winner": winners, "points": r.points,
                "seat": self.players[r.seat]}


class _Replayer(HandEnding, WhistIrregularities, Placing):
    insert_passes = False       # the record leaves forced passes out (see ``replay``)
    skip_out = False            # the strict block game: a player who is out may be skipped (his pass inserted)
    false_plays: dict = {}      # Domino Whist: (player, tile) -> where a false play that stands lies
    worth: int | None = None    # what the game is worth in its match after drawn games (Jamaican, Chiva)
    exposed_rows: tuple = ()    # Domino Whist §8: (row, tiles) exposed during play, binding from that row

    def __init__(self, game: Game, variant: Variant, source: str):
        self.game = game
        self.variant = variant
        self.source = source
        self.players = self._players()
        self.seat_of = {name: seat for seat, name in enumerate(self.players)}
        self.played: dict[Tile, int | None] = {}
        self.runs = variant.turns == Turns.RUN     # Hungarian: the hand goes on until nobody can play
        self.judge = Judge(variant, self.players, played_line=self.played.get)     # (no cycle back to self)
        self.path: list[tuple[int, Move]] = []          # the undecided placements taken so far (see Placing)
        self.chosen: dict[tuple, tuple[Move, bool]] = {}

    # -- diagnostics ------------------------------------------------------------------------
    def diag(self, code: str, message: str, pos: Span | None, severity: str = "error", **details) -> Diagnostic:
        line = pos.line if pos and pos.line else None
        column = pos.column if pos and pos.line else None
        return Diagnostic(severity, code, message, line, column, self.source, details)

    def problem(self, problem: Problem, pos: Span | None) -> Diagnostic:
        """The diagnostic of a problem the rules made, at ``pos``."""
        return self.diag(problem.code, problem.message, pos, problem.severity, **problem.details)

    def _players(self) -> tuple[str, ...]:
        if self.game.players:
            return tuple(self.game.players)
        return tuple(h.player for h in self.game.hands)

    # -- the deal ---------------------------------------------------------------------------
    def deal(self) -> tuple[Position, list[Diagnostic]]:
        """The position of the deal the record shows, and what is wrong with it (rules/dealt.py judges)."""
        v = self.variant
        game = self.game
        verdict = judge_deal(v, self.players, game.hands, redeal_tag=game.tags.get("Redeal"),
                             has_moves=bool(game.moves))
        places = {"game": game.pos, "hands": game.hands[0].pos if game.hands else None,
                  "Redeal": game.tag_pos.get("Redeal", game.pos), "move": game.moves[0].pos if game.moves else None}
        out = [self.diag(p.code, p.message, places[p.where] if isinstance(p.where, str) else p.where, p.severity,
                         **p.details) for p in verdict.problems]
        hands, partial = list(verdict.hands), verdict.partial
        size = v.dealing.hand_size
        valid_mask = v.dealing.mask
        hidden = [partial[s] if h is not None else size for s, h in enumerate(hands)]
        pos = position_for(v, [h if h is not None else () for h in hands], 0, max_pip=v.dealing.max_pip,
                           hidden=hidden)
        pos.pool &= valid_mask
        # a partly known hand decides what its known tiles decide (who holds the tile that must
        # lead); rules that weigh whole hands (the highest double, the heaviest hand) need them whole
        self.hands = hands
        self.whole = [h is not None and not partial[s] for s, h in enumerate(hands)]
        return pos, out

    # -- the lead ---------------------------------------------------------------------------
    def lead(self, pos: Position) -> list[Diagnostic]:
        """Check who leads (rules/lead.py decides) and set the tiles the lead may be (``pos.opening``)."""
        game = self.game
        starter, out = starter_tag(game, self.source)
        verdict = judge_lead(self.variant, LeadGame(game.number, self.players, self.requirement),
                             ShownDeal(self.hands, self.whole), _recorded_lead(game, self.seat_of, starter))
        if verdict.tiles:
            pos.opening = verdict.tiles
        pos.turn = verdict.leader or 0
        self.leader = pos.turn
        if verdict.leader is None:
            self.leaders = verdict.leaders if verdict.leaders is not None else tuple(range(len(self.players)))
        if verdict.starter is not None and pos.n:        # (a game of tags alone has no seat to turn it up for)
            turn_up(pos, verdict.starter, pos.turn)       # the line opened by a tile from the boneyard
            self.played[verdict.starter] = _lead_place(game, "Starter").line or None   # where it lies: the tag
        return out + [self.diag(p.code, p.message, _lead_place(game, p.where), p.severity, **p.details)
                      for p in verdict.problems]

    # -- the moves -------------------------------------------------------------------------
    def run(self, pos: Position, start: int, collect: bool, moves: list[MoveEntry] | None = None,
            give_up: int | None = None) -> _Run:
        """Replay moves ``start..`` on ``pos``: the error count, (when ``collect``) the steps, and the
        index of the first move with an error (``len(moves)``: only the end disagrees; None: none).

        The position is left after the last move when collecting, and restored otherwise. ``moves``:
        the entries to read (default the game's; a look-ahead with omitted passes reads a copy).
        ``give_up`` (a look-ahead only): stop at a first error before that index, the count then partial
        (``choose`` has another placement whose first error comes later: this one is worse whatever follows)."""
        errors = 0
        soft = 0            # warnings among them (a missed claim): they weigh a placement, but are no error
        first: int | None = None
        steps: list[Step] = []
        pushed = 0
        at_start = self._snapshot(pos)
        # with omitted passes, the passes found are written into the moves (a look-ahead into a copy)
        moves = self.game.moves if collect or not (self.insert_passes or self.skip_out) else list(moves or self.game.moves)
        i = start - 1
        while (i := i + 1) < len(moves):
            entry = moves[i]
            if self.exposed_rows:
                self.expose(pos, moves, i, collect)
            seat = self.seat_of.get(entry.player)
            before = pos.ends
            diags: list[Diagnostic] = []
            out = self.skip_out and skips_out(pos)
            forced = self.forced_pass(pos, entry, seat) if self.insert_passes or out else None
            if forced is not None:
                moves.insert(i, forced)
                entry, seat = forced, pos.turn
                if collect:
                    diags.append(self.problem(pass_inserted(entry.player, pos.ends_text(), out, self.runs), entry.pos))
            move: Move | None = None
            lacks: tuple[int, ...] = ()
            scored = 0
            if entry.is_muggins:
                problems, scored = self.muggins(entry, seat)
                errors += len(problems)
                if collect:
                    diags += [self.diag(code, message, entry.pos, **details) for code, message, details in problems]
                    if not problems and scored:
                        _withdraw_missed(steps, entry)
            elif seat is None:
                errors += 1
                if collect:
                    diags.append(self.problem(unknown_player(entry.player, self.players), entry.pos))
            elif (outcome := pos.outcome()) is not None:
                errors += self._after_end(pos, entry, outcome, collect, diags)
            else:
                move, lacks, wrong, warned = self._judged(pos, moves, i, seat, collect, diags)
                errors += wrong
                soft += warned
                pushed += move is not None
            if not entry.is_muggins:
                problems, scored = self.score_play(pos, entry, seat, move)
                errors += len(problems)
                soft += sum(p[3] != Severity.ERROR for p in problems) if problems else 0
                if collect and problems:
                    diags += [self.diag(code, message, entry.pos, severity=severity, **details)
                              for code, message, details, severity in problems]
            if collect:
                steps.append(Step(i, entry, seat, move, before, pos.ends, tuple(pos.hands), lacks, diags,
                                  boneyard=pos.stock if self.variant.drawing is not None and pos.draws else None,
                                  scores=tuple(self.scores) if self.variant.play is not None else None,
                                  scored=scored, arms=getattr(pos, "arms", None)))
            if first is None and errors > soft:
                first = i
                if give_up is not None and i < give_up and not collect:
                    break
        if not collect:
            # the stated result can decide a placement as well (only some ends block the hand)
            if first is None or give_up is None or first >= give_up:
                errors += sum(d.severity == Severity.ERROR for d in self.finish(pos, [])[2])
            if first is None and errors > soft:
                first = len(moves)
            for _ in range(pushed):
                pos.pop()
            self._restore(pos, at_start)
        return _Run(errors, steps, first)

    def _snapshot(self, pos: Position) -> tuple:
        """What a look-ahead changes besides the moves it pushes: the turn, the tiles played, the passes
        proved, the scores (``_restore`` puts them back)."""
        return pos.turn, dict(self.played), list(self.lacks), list(self.scores), self.pending

    def _restore(self, pos: Position, saved: tuple) -> None:
        pos.turn, self.played, self.lacks, self.scores, self.pending = saved

    def _after_end(self, pos: Position, entry: MoveEntry, outcome: Outcome, collect: bool,
                   diags: list[Diagnostic]) -> int:
        """An entry after the hand was over: its errors (one, or none for a pass that shows a block)."""
        out = tuple(s for s in range(pos.n) if pos.count(s) == 0) if self.runs else None
        problem = after_end(entry, outcome, self.players, out)
        if problem is None:
            return 0
        if collect:
            diags.append(self.problem(problem, entry.pos))
        return 1

    def _judged(self, pos: Position, moves: list[MoveEntry], i: int, seat: int, collect: bool,
                diags: list[Diagnostic]) -> tuple[Move | None, tuple[int, ...], int, int]:
        """Entry ``i`` by a known player in a hand still on, as the judge sees it, applied when playable:
        the move pushed (None: none), the numbers a pass proves its player lacks, the errors, the
        warnings among them."""
        entry = moves[i]
        errors = soft = 0
        move: Move | None = None
        lacks: tuple[int, ...] = ()
        problem, adding = self.judge.turn(pos, seat, entry.is_play)
        if adding:
            pos.turn = seat           # the opener adds a matching tile to his lead
        elif problem is not None:
            errors += 1
            if collect:
                diags.append(self.diag(problem.code, problem.message, entry.pos, **problem.details))
            pos.turn = seat
        verdict = self.judge.entry(pos, entry.tile, seat, draw=entry.draw, written=Written(
            entry.end, entry.arm, self.standing(moves, i, seat) if self.false_plays else None,
            entry.arm is not None and self.followed(moves, i, seat)))
        candidates = list(verdict.moves)
        errors += len(verdict.problems)
        soft += sum(p.severity != Severity.ERROR for p in verdict.problems) if verdict.problems else 0
        if collect:
            for p in verdict.problems:
                diags.append(self.diag(p.code, p.message, entry.pos, severity=p.severity, **p.details))
        if candidates and entry.is_play and pos.hidden[seat]:
            exposed = self.exposed_pass(seat, entry.tile)
            if exposed is not None:
                errors += 1
                if collect:
                    diags.append(exposed)
        if verdict.playable:
            move = self.placed(pos, moves, i, candidates, collect, diags)
            if move.is_pass and pos.ends is not None:
                lacks = pos.numbers_open()
            pos.push(move)
            if move.draw:         # what his passes proved no longer holds
                self.lacks = [item for item in self.lacks if item[0] != seat]
            elif move.tile is not None:
                self.played[move.tile] = entry.pos.line or None
            elif lacks:
                self.lacks.append((seat, lacks, entry))
        elif not entry.draw:
            pos.turn = (seat + 1) % pos.n     # the recorded mover had his turn
        return move, lacks, errors, soft

    def forced_pass(self, pos: Position, entry: MoveEntry, seat: int | None) -> MoveEntry | None:
        """With omitted passes: the pass the record leaves out before ``entry``, when the player to move
        is not its mover and the judge says that player can only pass (None: nothing to insert)."""
        if entry.is_muggins or seat is None or seat == pos.turn or pos.outcome() is not None:
            return None
        problem, adding = self.judge.turn(pos, seat, entry.is_play)
        if problem is None or adding:
            return None
        verdict = self.judge.entry(pos, None, pos.turn)
        if verdict.problems or not verdict.playable:
            return None
        return MoveEntry(self.players[pos.turn], None, round=entry.round, pos=entry.pos)

    # -- scoring during play (All Fives) ----------------------------------------------------
    def score_play(self, pos: Position, entry: MoveEntry, seat: int | None, move: Move | None
                   ) -> tuple[list[tuple], int]:
        """Score an applied play (``move``) for the variant's per-play scoring and check the claim;
        the problems are (code, message, details, severity). Any entry ends the chance of a Muggins
        call on the play before it."""
        self.pending = None
        points, problem = self.judge.claim(pos, seat, move, entry.claim)
        if problem is not None and problem.code == Code.MISSED_SCORE:
            self.pending = (seat, points)
            return [(problem.code, problem.message, problem.details, Severity.WARNING)], 0
        if points:
            self.scores[seat] += points      # the running score counts what the ends give
        return ([(problem.code, problem.message, problem.details, Severity.ERROR)] if problem else []), points

    def muggins(self, entry: MoveEntry, seat: int | None) -> tuple[list[tuple], int]:
        """Check a Muggins call: the previous play's unclaimed points, called by the next player."""
        pending, self.pending = self.pending, None
        problem, keep = self.judge.muggins(seat, entry.muggins, pending, entry.player)
        if problem is not None:
            if keep:
                self.pending = pending      # he may still call it right
            return [(problem.code, problem.message, problem.details)], 0
        self.scores[seat] += pending[1]
        return [], pending[1]


def redeal_inferred(game: Game, variant: Variant, initial: Position | None = None) -> bool:
    """A game with a whole deal and no moves, without a Redeal tag, in which a hand holds the doubles
    for a new deal (000: "Wenn ein Spieler fünf oder mehr Doppelsteine bekommen hat, werden die Steine
    zusammengeworfen und es wird noch einmal gegeben"): it reads as dealt again. A hand written ``?`` counts
    where the deal replayed (``initial``) knows it all the same: the rest of the set, every other hand written."""
    if game.moves or "Redeal" in game.tags or len(game.hands) != variant.players:
        return False
    if any(hand.tiles is not None and not hand.unknown and variant.dealing.redeal_due(set(hand.tiles))
           for hand in game.hands):
        return True
    return (initial is not None and len(initial.hands) == variant.players and not any(initial.hidden)
            and any(variant.dealing.redeal_due_mask(hand) for hand in initial.hands))


def _withdraw_missed(steps: list[Step], call: MoveEntry) -> None:
    """A Muggins call collected the points a play left unclaimed: that play's ``missed-score`` warning is
    withdrawn, kept as a note that says who took them."""
    for step in reversed(steps):
        for k, d in enumerate(step.diagnostics):
            if d.code == Code.MISSED_SCORE and d.severity == Severity.WARNING:
                words = {"player": step.entry.player, "caller": call.player, "points": call.muggins,
                         "line": call.pos.line}
                step.diagnostics[k] = replace(d, severity="info", message=(
                    gettext("{player} does not claim the points; {caller} takes them with muggins ({points}, line "
                            "{line})", **words) if call.pos.line else
                    gettext("{player} does not claim the points; {caller} takes them with muggins", **words)))
                return


def replay(game: Game, variant: Variant | str | None = None, source: str = "<record>", *,
           rules: dict[str, str] | None = None, terms: MatchTerms = MatchTerms(),
           insert_passes: bool = False) -> Replay:
    """Replay ``game`` under ``variant`` (default: the record's Variant tag, else partnership).

    ``rules``: options on top of the record's Rules tag (``{"target": "200"}``). ``terms``: who must
    lead, as the earlier games of a match decide it, and what the game is worth in its match after drawn
    games (the match validator passes them; the Result tag may state the worth instead of the hand's own
    point). ``insert_passes`` (or the game's tag ``[Passes "omitted"]``): the record leaves forced passes out;
    where the next recorded mover is not the player to move and the judge says that player can only
    pass, the pass is inserted (``pass-inserted``, info) and ``Replay.game`` holds the completed moves."""
    lead, worth = terms.lead, terms.worth
    variant, diags = resolve_variant(game, variant, rules, source)
    insert_passes = insert_passes or game.tags.get("Passes", "").strip().lower() == "omitted"
    written = None
    skip_out = out_skipped(variant)
    if insert_passes or skip_out:
        written, game = game, replace(game, moves=list(game.moves))
    r = _Replayer(game, variant, source)
    r.insert_passes = insert_passes
    r.skip_out = skip_out
    r.worth = worth
    if "FalsePlay" in game.tags and variant.irregularities:
        r.false_plays, problems = false_plays(game, r.seat_of, source)
        diags.extend(problems)
    r.played.clear()
    r.lacks = []
    r.requirement = lead
    r.reveals = []
    r.facts = None
    r.scores = [0] * len(r.players)
    r.pending = None
    r.leaders = None
    setup, setup_diags = read_setup(game, source)
    diags.extend(setup_diags)
    if setup is None:
        pos, deal_diags = r.deal()
        diags.extend(deal_diags)
        diags.extend(r.lead(pos))
    else:                       # a game set up from a position: no deal, no lead (see .setup)
        start = setup_start(game, variant, r.players, setup, source)
        pos, r.lacks, r.scores, r.leader = start.position, start.lacks_entries(game), start.scores, start.position.turn
        r.setup_lacks, r.start_scores = list(r.lacks), tuple(r.scores)
        r.pending = start.pending      # (a position cut between a scoring play and its Muggins call)
        diags.extend(start.diagnostics)
    if variant.irregularities and game.tags.get("Exposed", "").strip():
        diags.extend(_exposures(r, pos))
    initial = pos.copy()
    r.late_exposed = []
    steps = r.run(pos, 0, collect=True).steps
    diags.extend(r.late_exposed)
    if r.reveals:      # tiles exposed during play lie open in every position built from the deal
        initial.expose(sum(tiles for at, tiles in r.reveals if at == 0))
        initial.reveal = tuple((at, tiles) for at, tiles in r.reveals if at)
    outcome, result, end_diags = r.finish(pos, steps)
    # what could not be checked is said after everything that was (see ``lead``)
    end_diags.extend(d for d in diags if d.code.startswith("unchecked-"))
    diags = [d for d in diags if not d.code.startswith("unchecked-")]
    if variant.irregularities:
        from ..rules.irregularities import with_rules
        steps = with_rules(steps)
    out = Replay(game, variant, source, r.players, initial, steps, diags, end_diags, outcome, result, pos,
                 facts=r.facts, lead=lead, worth=worth, written=written,
                 setup_lacks=None if setup is None else tuple((s, x) for s, x, _ in r.setup_lacks),
                 start_scores=None if setup is None else r.start_scores, leaders=r.leaders)
    return out


def _recorded_lead(game: Game, seat_of: dict[str, int], starter: Tile | None) -> RecordedLead:
    """What the record says of its lead, as :func:`analyzer.rules.lead.judge_lead` reads it: the Lead and
    LeadFrom tags, who moves first and with what, whether anyone moves, the tile the Starter tag turns up."""
    first = next((m for m in game.moves if m.player in seat_of), None)
    return RecordedLead(lead_tag=game.tags.get("Lead"), giver_tag=game.tags.get("LeadFrom"),
                        first_mover=None if first is None else seat_of[first.player], has_moves=bool(game.moves),
                        first_tile=None if first is None else first.tile, starter=starter)


def _lead_place(game: Game, where: str) -> Span | None:
    """Where a problem of the lead is shown: the game, its first move, or the tag it concerns."""
    if where == "game":
        return game.pos
    if where == "move":
        return game.moves[0].pos if game.moves else game.pos
    return game.tag_pos.get(where) if where == "Lead" else game.tag_pos.get(where, game.pos)


def _exposures(r: _Replayer, pos: Position) -> list[Diagnostic]:
    """Domino Whist §8: the tiles the Exposed tag names lie open on ``pos`` (the deal) or, exposed during
    play, from their row on; the judge holds their holders to them. The tag's problems."""
    from ..rules.irregularities import read_exposed
    found, problems = read_exposed(r, pos)
    pos.reveal = ()               # exposures are tracked from here (see ``Position.due``)
    pos.expose(mask_of(tile for _, tile, row, _ in found if not row))
    rows: dict[int, int] = {}
    for _, tile, row, _ in found:
        if row:
            rows[row] = rows.get(row, 0) | tile.bit
    r.exposed_rows = tuple(rows.items())
    r.exposed_found = found
    r.judge.exposures = {tile.bit: how for _, tile, _, how in found}
    return problems
