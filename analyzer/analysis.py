"""Whole-record analysis: the exact value of every alternative at every decision of a hand.

The result is plain data (dataclasses of ints and strings) that the report and the CLI use
without calling the search again."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

from .position import Position
from .replay import Replay, replay_record
from .rules import HandFacts, Seating, Variant
from .solver import Solver, SolverError
from .tiles import Move

__all__ = ["Thresholds", "Alternative", "Decision", "GameAnalysis", "analyze", "analyze_replay"]


@dataclass(frozen=True)
class Thresholds:
    """The smallest loss, in points, that makes a move an inaccuracy, a mistake or a blunder."""

    inaccuracy: int = 3
    mistake: int = 10
    blunder: int = 25

    @classmethod
    def parse(cls, text: str) -> Thresholds:
        """Read ``"3,10,25"``."""
        try:
            a, b, c = (int(x) for x in text.split(","))
        except ValueError:
            raise ValueError(f"thresholds are three whole numbers of points like 3,10,25, not {text!r}") from None
        if not 0 < a <= b <= c:
            raise ValueError(f"thresholds must grow: inaccuracy <= mistake <= blunder, got {text!r}")
        return cls(a, b, c)

    def classify(self, loss: int) -> str | None:
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None


class AgainstTheRest:
    """A game of individual players seen by one of them, ``seat``, as two sides: he alone against
    all the others, who play to minimise his score (the "paranoid" assumption). The value of a
    finished hand is his: the points when he wins it, minus the winner's points when another does."""

    def __init__(self, variant: Variant, seat: int):
        self.variant = variant
        self.seat = seat
        self.players = variant.players
        self.seating = Seating(variant.players, tuple(0 if s == seat else 1 for s in range(variant.players)))
        self.end = getattr(variant, "end", "one")
        self.block = None            # no fast path: every leaf is scored by the real variant
        self.scoring = variant.scoring
        self.name = variant.name

    def value(self, facts: HandFacts) -> int:
        result = self.variant.hand_result(facts)
        if result.winner is None:
            return 0
        return result.points if result.winner == self.variant.seating.teams[self.seat] else -result.points


@dataclass
class Alternative:
    move: str
    value: int
    best: bool = False
    played: bool = False


@dataclass
class Decision:
    """A position where the mover had a real choice, and what each choice was worth (for A/C)."""

    index: int                    # the step of the record
    player: str
    side: int                     # the mover's side (0: A/C maximises, 1: minimises)
    line: int | None
    column: int | None
    round: int | None
    played: str
    played_value: int
    alternatives: list[Alternative]
    best_value: int
    loss: int                     # from the mover's side, never negative
    cls: str | None               # inaccuracy / mistake / blunder

    def as_dict(self) -> dict:
        d = asdict(self)
        d["class"] = d.pop("cls")
        return d


@dataclass
class GameAnalysis:
    title: str
    players: list[str]
    sides: list[str]                      # "A/C", "B/D"
    decisions: list[Decision] = field(default_factory=list)
    moves: list[tuple[str, str]] = field(default_factory=list)   # the analysed line: (player, move)
    values: list[int | None] = field(default_factory=list)   # value before the first move, then after each step
    critical: Decision | None = None
    turning_point: int | None = None      # the step after which the value first changes sign
    analysed_steps: int = 0
    stopped: str | None = None            # why the analysis stops before the end of the record
    note: str | None = None               # what the values assume (the variant's search note)
    perspective: str | None = None        # whose values these are, when not the first side's
    lines: list[dict] = field(default_factory=list)          # best continuations, when asked for

    def as_dict(self) -> dict:
        return {
            "title": self.title, "players": self.players, "sides": self.sides,
            "decisions": [d.as_dict() for d in self.decisions],
            "moves": [{"player": p, "move": m} for p, m in self.moves],
            "values": self.values,
            "critical": self.critical.as_dict() if self.critical else None,
            "turning_point": self.turning_point,
            "analysed_steps": self.analysed_steps, "stopped": self.stopped,
            "note": self.note, "perspective": self.perspective,
        }


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def analyze_replay(rep: Replay, thresholds: Thresholds = Thresholds(), lines: bool = False,
                   solver: Solver | None = None) -> GameAnalysis:
    """Analyse the legal prefix of a replayed game with every hand open."""
    variant = rep.variant
    teams = variant.seating.teams
    if len(rep.players) != variant.players:
        out = GameAnalysis(rep.title, list(rep.players), [])
        out.stopped = (f"the record names {len(rep.players)} players; the {variant.name} game has "
                       f"{variant.players}, so nothing can be analysed")
        return out
    out = GameAnalysis(rep.title, list(rep.players),
                       [rep.side_name(s) for s in range(variant.seating.sides)])
    if not rep.deal_ok or any(rep.initial.hidden):
        out.stopped = ("the deal is not fully known, so exact values cannot be computed"
                       if rep.deal_ok else "the deal has errors, so nothing can be analysed")
        return out
    out.note = variant.search_note or None
    if variant.drawing is not None or variant.turns != "one" or variant.layout != "line":
        # what is drawn is chance, a run of plays is not a one-tile-per-turn game tree, and the
        # solver plays on a line with two ends
        out.stopped, out.note = f"no exact search for this game: {variant.search_note}", None
        return out
    individual = variant.seating.sides > 2
    if individual:
        # every decision is valued for its mover against all the others; the running values
        # follow the first player of the play order
        out.sides = list(rep.players)
        out.perspective = (f"each decision is valued for its mover against all the others; the running "
                           f"values are {rep.players[0]}'s")
        solvers = {seat: Solver(AgainstTheRest(variant, seat)) for seat in range(variant.players)}
        teams = tuple(0 if s == 0 else 1 for s in range(variant.players))
    prefix = rep.legal_prefix
    if prefix < len(rep.steps):
        bad = rep.steps[prefix]
        first = next(d for d in bad.diagnostics if d.severity == "error")
        out.stopped = (f"the analysis stops before move {prefix + 1} (line {bad.entry.pos.line}): "
                       f"{first.code}: {first.message}")
    solver = solvers[0] if individual else (solver or Solver(variant))
    pos: Position = rep.initial.copy()
    try:
        out.values.append(solver.solve(pos))
    except (SolverError, NotImplementedError) as exc:
        out.stopped = f"no exact search for this game: {exc}"
        return out
    for step in rep.steps[:prefix]:
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        after = None
        if len(moves) > 1:
            mover = solvers[pos.turn] if individual else solver
            values = mover.values(pos)
            side = 0 if individual else teams[pos.turn]
            pick = max if side == 0 else min
            best = pick(v for _, v in values)
            played_value = next(v for m, v in values if m == step.move)
            loss = abs(best - played_value)
            alts = [Alternative(str(m), v, v == best, m == step.move) for m, v in values]
            out.decisions.append(Decision(
                step.index, step.entry.player, side, step.entry.pos.line or None, step.entry.pos.column or None,
                step.entry.round, str(step.move), played_value, alts, best, loss, thresholds.classify(loss)))
            if lines:
                out.lines.append(_lines(mover, pos, step.index, values, step.move))
            if not individual:
                after = played_value      # already solved: the value of the move played
        pos.push(step.move)
        out.moves.append((step.entry.player, str(step.move)))
        out.values.append(solver.solve(pos) if after is None else after)
        out.analysed_steps += 1
    lossy = [d for d in out.decisions if d.loss > 0]
    if lossy:
        out.critical = max(lossy, key=lambda d: (d.loss, -d.index))
    for i in range(1, len(out.values)):
        if _sign(out.values[i]) != _sign(out.values[i - 1]):
            out.turning_point = rep.steps[i - 1].index
            break
    return out


def _lines(solver: Solver, pos: Position, index: int, values: list[tuple[Move, int]], played: Move) -> dict:
    """Each alternative at a decision with its best continuation to the end of the hand."""
    alts = []
    for move, value in values:
        seat = pos.turn
        pos.push(move)
        continuation = solver.best_line(pos)
        seats = []
        s = pos.turn
        for m in continuation:
            seats.append(s)
            s = (s + 1) % pos.n
        pos.pop()
        alts.append({"move": str(move), "seat": seat, "value": value, "played": move == played,
                     "continuation": [(seat_, str(m)) for seat_, m in zip(seats, continuation)]})
    return {"index": index, "alternatives": alts}


def analyze(record, variant=None, thresholds: Thresholds = Thresholds(), lines: bool = False,
            progress: Callable[[int], None] | None = None,
            rules: dict[str, str] | None = None) -> list[GameAnalysis]:
    """Analyse every game of a record (see ``analyze_replay``)."""
    out = []
    for rep in replay_record(record, variant, rules=rules):
        out.append(analyze_replay(rep, thresholds, lines))
        if progress:
            progress(1)
    return out
