"""Grading on the match scale: each alternative valued by the match-winning chance (MWC) after the hand.

With every hand open an alternative's value is the hand's exact result (the points of the winning
side, its sign the winner), so its MWC is the chance, from the shipped table (``analyzer.equity``), that
the first side wins the match once that result is added to the match score (and the next hand is led
as the rules say). The loss of a move is the mover's drop in MWC from his best alternative's; a move is
classed by ``MwcThresholds``. The match position before a hand comes from the record: the games before
it in the file (the match's own replay), else its ``Score`` tag (the score after the hand, less the
hand's result); a hand with neither is graded in points only, and says so.

**Individual players** (Cut Throat for three or four): each decision is valued for its mover against all
the others (``AgainstTheRest``), so each alternative's MWC is the *mover's* chance to win the match, and
his loss his drop from his best alternative. A positive value is his win of the hand, 0 a drawn hand; a
negative one says only that another player wins it: as the values assume the others play against him,
the MWC is the least he keeps over the players who might win it (``value_chance``). The running values,
the MWC before the hand (``mwc_before``) and ``luck`` are the first player's; ``mwc_each`` gives every
player's chance before the hand, ``luck_each`` every player's deal luck where it was asked for (else there is
none: ``analysis.luck``).

**In a fair analysis** (``--fair``) each alternative's match-winning chance is the mean, over the worlds
the mover could not tell apart, of the MWC of that world's result (``fair_mwc``): the chance of the
match as the mover could know it; the fair MWC loss is his drop from his best alternative by that mean.
Where both sides may score in a hand, a world's result is the hand played out along the alternative's
principal variation in that world, as with every hand open (``fair_analyze(results=True)``).

**The thresholds** (inaccuracy / mistake / blunder: a drop of 0.02 / 0.06 / 0.15 in MWC). At the start
of a match to 100, where every point counts about alike, the MWC after winning the first hand by 3 / 10 /
25 points lies 0.018 / 0.060 / 0.154 above the MWC after a drawn first hand (the shipped partnership
table, either side winning); the match thresholds are the points scale's 3 / 10 / 25 there, rounded.
So at the start of a match both scales agree; near its end they part: at 99-0 no point matters to the
leader but the ones that lose the hand, and at 95-95 every hand is the match."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable, NamedTuple

from ..i18n import gettext
from ..equity import TABLES_ENV, MatchPosition, first_lead, load_table, supported, table_name, table_problem
from ..match import opens_match, score_before
from ..replay import Replay
from ..rules import HandResult, Variant
from ..rules.modes import MatchKind
from . import Decision, GameAnalysis, GradeOnScale, OnScale

__all__ = ["MwcThresholds", "MatchScale", "Before", "match_scale", "match_positions", "value_result", "value_chance", "why_not",
           "fair_chance", "mover_drop"]


@dataclass(frozen=True)
class MwcThresholds:
    """The smallest drop in match-winning chance that makes a move an inaccuracy, a mistake or a blunder."""

    inaccuracy: float = 0.02
    mistake: float = 0.06
    blunder: float = 0.15

    def classify(self, loss: float) -> str | None:
        if loss >= self.blunder - 1e-12:
            return "blunder"
        if loss >= self.mistake - 1e-12:
            return "mistake"
        if loss >= self.inaccuracy - 1e-12:
            return "inaccuracy"
        return None


@dataclass(frozen=True)
class MatchScale:
    """One hand graded on the match scale (a value: :func:`match_scale` makes it whole, the deal's luck is given by
    ``dataclasses.replace``). ``known`` False: no match position (``note`` says why), and
    nothing else is set. ``mwc[i][j]``: the MWC (first side) after alternative ``j`` of decision ``i``;
    ``loss[i]``, ``cls[i]``: the mover's drop in MWC and its class (None where a value is missing)."""

    known: bool
    note: str
    position: MatchPosition | None = None
    before: float | None = None               # the MWC before the hand (the mean over the hands to come)
    each: list[float] | None = None           # individual players: each player's MWC before the hand
    mwc: list[list[float | None]] = field(default_factory=list)
    loss: list[float | None] = field(default_factory=list)
    cls: list[str | None] = field(default_factory=list)
    critical: int | None = None                # the decision that lost the most MWC
    luck: object | None = None                 # the deal's luck (``analysis.luck.DealLuck``), when known
    luck_each: list | None = None              # individual players, where asked for: each player's (or None)
    table: str | None = None                   # the MWC table the variant has (its file's name), None: none
    # in a fair analysis: per decision, each alternative's mean MWC over the worlds, the drop and its class
    fair_mwc: list[list[float | None]] = field(default_factory=list)
    fair_loss: list[float | None] = field(default_factory=list)
    fair_cls: list[str | None] = field(default_factory=list)
    # the MWC (first side) after each step of the line played (a report's MWC line): where each alternative's result
    # is known (``analysis.outcomes``), from its principal variation's result (the deal's alone where only its result
    # was read: ``outcomes.principal_results``' ``played``); else from the running values, each the result it stands
    # for (None: not graded on the match scale)
    running: list[float | None] | None = None
    # a record that stops at a decision (a set-up problem): each alternative's MWC, open-hands and fair
    to_move: list[tuple[float | None, float | None]] = field(default_factory=list)

    def as_dict(self) -> dict:
        p = self.position
        return {"known": self.known, "note": self.note,
                "scores": list(p.state.scores) if p else None, "lead": list(p.lead) if p else None,
                "mwc_before": _r(self.before), "critical": self.critical,
                "mwc_each": None if self.each is None else [_r(x) for x in self.each],
                "luck": self.luck.as_dict() if self.luck is not None else None, "table": self.table,
                "luck_each": None if self.luck_each is None else [None if x is None else x.as_dict()
                                                                  for x in self.luck_each]}

    def applied(self, analysis: GameAnalysis) -> GameAnalysis:
        """``analysis`` composed with the match scale: each alternative's MWC (``Alternative.on_scale``: its
        ``"mwc"``), each decision's loss and class in MWC (``Decision.on_scale``: ``"mwc_loss"``, ``"mwc_class"``,
        None where not known), their fair counterparts on the fair values and verdicts, and the game's grading
        (``GameAnalysis.match_scale``: ``"match_scale"``); ``analysis`` itself is left as it was."""
        decisions = tuple(self._applied(d, i) for i, d in enumerate(analysis.decisions))
        to_move = analysis.to_move
        if self.known and to_move is not None and self.to_move:
            alts = [replace(alt, on_scale=OnScale(_r(mwc)),
                            fair=alt.fair if alt.fair is None else replace(alt.fair, on_scale=OnScale(_r(fair))))
                    for alt, (mwc, fair) in zip(to_move.alternatives, self.to_move)]
            to_move = replace(to_move, alternatives=tuple(alts) + to_move.alternatives[len(alts):])
        return replace(analysis, decisions=decisions, to_move=to_move, match_scale=self)

    def _applied(self, d: Decision, i: int) -> Decision:
        """Decision ``i`` on the match scale, its fair parts too where the fair analysis graded it so."""
        known = self.known and i < len(self.mwc)
        fair = i < len(self.fair_mwc)
        alts = tuple(replace(alt, on_scale=OnScale(_r(self.mwc[i][j]) if known else None),
                             fair=alt.fair if alt.fair is None or not fair
                             else replace(alt.fair, on_scale=OnScale(_r(self.fair_mwc[i][j]))))
                     for j, alt in enumerate(d.alternatives))
        grade = GradeOnScale(_r(self.loss[i]), self.cls[i]) if known else GradeOnScale(None, None)
        verdict = d.fair if d.fair is None or not fair else replace(
            d.fair, on_scale=GradeOnScale(_r(self.fair_loss[i]), self.fair_cls[i]))
        return replace(d, alternatives=alts, on_scale=grade, fair=verdict)


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def value_result(variant: Variant, value: int) -> HandResult:
    """The hand's result that an open-hands value (points for side 0) stands for: the sign the winner,
    the size his points (0: a drawn hand)."""
    if value == 0:
        return HandResult("blocked", None, 0, 0, (0, 0), void=variant.lead.void_same and _void_draws(variant))
    w = 0 if value > 0 else 1
    pts = abs(value)
    seat = variant.seating.members(w)[0]          # a player of the winning side went out (who leads next)
    return HandResult("domino", w, pts, seat, (pts, 0) if w == 0 else (0, pts))


def value_chance(table, variant: Variant, position: MatchPosition, leader: int, value: int, seat: int = 0) -> float:
    """The MWC after the hand led by seat ``leader``, for the side whose open-hands value ``value`` is: side
    0 in a game of two sides (``value_result``); in a game of individual players, ``seat``, valued against
    all the others: his win of the hand, a drawn hand, or (negative) the least MWC he keeps over the
    others who might win it instead (see the module's note)."""
    if variant.seating.sides == 2:
        return table.after(position, value_result(variant, value), leader)
    sides = variant.seating.sides
    if value == 0:
        drawn = HandResult("blocked", None, 0, 0, (0,) * sides, void=variant.lead.void_same and _void_draws(variant))
        return table.after_each(position, drawn, leader)[seat]
    winners = [seat] if value > 0 else [w for w in range(sides) if w != seat]
    pts = abs(value)
    return min(table.after_each(position, HandResult("domino", w, pts, variant.seating.members(w)[0],
                                                     tuple(pts if s == w else 0 for s in range(sides))),
                                leader)[seat] for w in winners)


@lru_cache(maxsize=64)
def _void_draws(variant: Variant) -> bool:
    table = load_table(variant)
    if table is None:
        return False
    return any(o.winner is None and o.void for s in table.model.modes.values() for o in s.outcomes)


def why_not(variant: Variant, results: bool = False) -> str | None:
    """Why ``variant``'s hands cannot be graded on the match scale (None: they can); ``results``: each
    alternative's hand result is known (``analysis.outcomes``), not only its value. A table file that cannot be
    read is said first, and a missing table before the results not known: the results are read only where a
    table is, so the table is what is missing."""
    table = load_table(variant)
    if table is None and table_problem(variant):
        return table_problem(variant)
    kind = variant.match.kind
    if variant.seating.sides != 2 and kind not in (MatchKind.CUTTHROAT, MatchKind.SHUTOUT, MatchKind.POINTS,
                                                   MatchKind.BAD):
        return gettext("the match scale covers games of individual players where a hand's winner (Cut Throat, Chiva), "
                       "each player's points (All Fives) or bad points (French, Hungarian) are what the match reads")
    if kind not in (MatchKind.POINTS, MatchKind.STRAIGHT, MatchKind.GAMES,      # (games: its winner)
                    MatchKind.CUTTHROAT, MatchKind.SHUTOUT, MatchKind.BAD):
        return gettext("an open-hands value does not give both sides' {kind} points of the hand, which the match "
                       "scale needs", kind=kind)
    if table is None:
        cannot = supported(variant)
        if cannot:
            return gettext("no match-winning-chance table: {why}", why=cannot)
        rules = "".join(f" --rule {k}={v}" for k, v in variant.options)
        return gettext("no match-winning-chance table is shipped for {variant}: make one with `{command}` and set "
                       "{setting}", variant=variant.name + (f" ({variant.rules_text})" if variant.rules_text else ""),
                       command=f"domino equity --variant {variant.name}{rules} -o "
                               f"DIR/{table_name(variant)[:-len('.json')]}.mwc", setting=f"{TABLES_ENV}=DIR")
    if kind == MatchKind.BAD and not results:
        return (gettext("an open-hands value does not give both sides' bad points of the hand, which the match scale "
                        "needs (each alternative's result along its line)") if variant.seating.sides == 2 else
                gettext("an open-hands value does not give every player's bad points of the hand, which the match "
                        "scale needs (each alternative's result along its line)"))
    return None


class Before(NamedTuple):
    """A hand's place in its match (:func:`match_positions`): the match ``position`` before it (None: not known),
    the seat that led it (``leader``), and where the position comes from, or why none is known (``note``)."""

    position: MatchPosition | None
    leader: int | None
    note: str = ""


def match_scale(analysis, variant: Variant, before: Before, results=None,
                thresholds: MwcThresholds = MwcThresholds()) -> MatchScale:
    """Grade ``analysis`` (a ``GameAnalysis`` with every hand open) on the match scale, from the match
    position before the hand, led by its leader (``before``). ``results``: the hand's results along the principal
    variations (``analysis.outcomes.PrincipalResults``), which grade each alternative, and give the MWC of
    the line played (``running``), where both sides may score in a hand (bad points, points during play)
    instead of the result a value stands for; a fair analysis is then graded by each world's result (its
    alternatives' ``fair.results``: ``fair_analyze(results=True)``), and not where it has none."""
    position, leader, note = before
    table = load_table(variant)
    name = None if table is None else table_name(variant)
    if position is None or leader is None:
        return MatchScale(False, gettext("{note}: graded in points only",
                                         note=note or gettext("no match position is known for this hand")), table=name)
    why = why_not(variant, results is not None)
    if why and not analysis.decisions and not analysis.values and why_not(variant, True) is None:
        # (the results were not read only because nothing was analysed: say that, not what results would give)
        return MatchScale(False, gettext("no move of this hand was analysed: nothing to grade"), table=name)
    if why:
        return MatchScale(False, gettext("{note}: graded in points only", note=why), table=name)
    if position.state.over:
        score = "-".join(map(str, position.state.scores))
        return MatchScale(False, gettext("the match was over before this hand, at {score}: graded in points only",
                                         score=score), table=name)
    individual = variant.seating.sides != 2
    mwc: list[list[float | None]] = []
    losses: list[float | None] = []
    classes: list[str | None] = []
    memo: dict[tuple[int, int], float] = {}

    def after(value: int | None, seat: int = 0) -> float | None:
        if value is None:
            return None
        if (seat, value) not in memo:
            memo[seat, value] = value_chance(table, variant, position, leader, value, seat)
        return memo[seat, value]

    def seat_of(d) -> int:
        """Whose chances an alternative of ``d`` is graded by: side 0's, or in a game of individuals its mover's."""
        return analysis.players.index(d.player) if individual and d.player in analysis.players else 0

    def mover(d) -> Callable[[int | None], float | None]:
        """The MWC of an alternative of ``d`` by its value (:func:`seat_of`)."""
        seat = seat_of(d)
        return lambda value: after(value, seat)

    each: dict[int, tuple[float, ...]] = {}       # id of a result of ``results`` (they live as long) -> MWCs

    def exact(result: HandResult | None, seat: int = 0) -> float | None:
        """The MWC of ``seat`` (side 0, or in a game of individuals that player) once the hand ends with ``result``
        (the alternatives of a hand often end it with the same result, read once: ``analysis.outcomes``)."""
        if result is None:
            return None
        got = each.get(id(result))
        if got is None:
            got = each[id(result)] = table.after_each(position, result, leader)
        return got[seat]

    # the first side's MWC after each step of the line played: from its results where they were read, else from
    # the values (each the result it stands for)
    running = [after(v) for v in analysis.values] if results is None else [exact(r) for r in results.line]
    for i, d in enumerate(analysis.decisions):
        if results is not None:
            seat = seat_of(d)
            chances = [None if a.value is None else exact(r, seat) for a, r in zip(d.alternatives, results.alternatives[i])]
        else:
            chances = [mover(d)(a.value) for a in d.alternatives]
        mwc.append(chances)
        loss = None if d.unsolved else mover_drop(d, chances)
        losses.append(loss)
        classes.append(None if loss is None else thresholds.classify(loss))
    lossy = [(v, -i) for i, v in enumerate(losses) if v]
    fair: tuple[list, list, list] = ([], [], [])
    if getattr(analysis, "fair", False):
        def mover_exact(d) -> Callable[[HandResult | None], float | None]:
            seat = seat_of(d)
            return lambda result: exact(result, seat)
        fair = _grade_fairly(analysis, mover, thresholds, None if results is None else mover_exact)
    d = getattr(analysis, "to_move", None)
    to_move = [] if d is None or results is not None else [     # (where each world's result is needed, not read for it)
        (mover(d)(a.value), None if a.fair is None else fair_chance(a.fair, mover(d))) for a in d.alternatives]
    return MatchScale(True, note, position, table.chance(position), list(table.chances(position)) if individual else None,
                      mwc, losses, classes, -max(lossy)[1] if lossy else None, table=name, fair_mwc=fair[0],
                      fair_loss=fair[1], fair_cls=fair[2], running=running, to_move=to_move)


def fair_chance(fair, after, exact=None) -> float | None:
    """An alternative's MWC in a fair analysis: the mean over its worlds (``fair.values``: each value
    and in how many worlds) of ``after(value)``, the MWC of that world's result. ``exact``: where both
    sides may score in the hand, the MWC of a world's result itself (``fair.results``, each world's
    result along the alternative's principal variation in it): None without them."""
    if exact is not None:
        counts = getattr(fair, "results", None) or ()
        chances = [(exact(r), n) for r, n in counts]
        if not chances or any(c is None for c, _ in chances):
            return None
        return sum(n * c for c, n in chances) / sum(n for _, n in chances)
    counts = getattr(fair, "values", ())
    if not counts:
        return None
    return sum(n * after(v) for v, n in counts) / sum(n for _, n in counts)


def _grade_fairly(analysis, mover, thresholds: MwcThresholds, mover_exact=None) -> tuple[list, list, list]:
    """The fair analysis's decisions of ``analysis`` graded on the match scale (see the module's note): per decision,
    each alternative's fair MWC, the drop and its class; ``mover(d)``: the MWC of a value of decision ``d``, for the
    side its values are for; ``mover_exact(d)`` (where both sides may score in a hand): the MWC of a world's result,
    for that side."""
    out: tuple[list, list, list] = ([], [], [])
    for d in analysis.decisions:
        after = mover(d)
        exact = None if mover_exact is None else mover_exact(d)
        chances = [None if a.fair is None else fair_chance(a.fair, after, exact) for a in d.alternatives]
        out[0].append(chances)
        loss = None if d.fair is None else mover_drop(d, chances)
        out[1].append(loss)
        out[2].append(None if loss is None else thresholds.classify(loss))
    return out


def mover_drop(decision, chances: list[float | None]) -> float | None:
    """The mover's drop in MWC (first side's ``chances`` of each alternative) from his best
    alternative to the move played (None where the move played or every alternative has none)."""
    known = [c for c in chances if c is not None]
    played = next((c for a, c in zip(decision.alternatives, chances) if a.played), None)
    if not known or played is None:
        return None
    if decision.side == 0:
        return max(0.0, max(known) - played)
    return max(0.0, played - min(known))


def match_positions(replays: list[Replay]) -> list[Before]:
    """For each replayed game of a record: the match position before it, the seat that led it, and
    where the position comes from (or why none is known). The games before it in the file (the match's own
    replay, ``analyzer.match``: a file that starts at ``[Game "N"]``, N > 1, starts from that game's Score tag,
    never from 0-0), else its Score tag (the score after the hand, less the hand's result), else none. The lead is
    the first game's (the rules of the first game: 000's forced [6-6]) only for the first game of a match."""
    out = []
    for rep in replays:
        v = rep.variant
        leader = rep.initial.turn if rep.players and len(rep.players) == v.players else None
        entry = getattr(rep, "match", None)
        if entry is not None:
            if entry.before is None:
                out.append((None, leader, entry.how))
                continue
            lead = first_lead(v) if entry.opens else _lead_of(v, leader)
            out.append((MatchPosition(entry.before, lead), leader, entry.how))
            continue
        given = rep.game.tags.get("MatchScore") if getattr(rep, "setup_lacks", None) is not None else None
        if given is not None:           # a game set up from a position: the match score before it
            out.append(_set_up(v, rep, leader, given))
            continue
        stated = rep.game.tags.get("Score")
        if stated is None:
            out.append((None, leader, gettext("no match position: the record has no Game tags and no Score tag")))
            continue
        try:
            if leader is None:
                raise ValueError("its players are not the variant's")
            state = score_before(v, rep, stated)
        except ValueError as exc:
            out.append((None, leader, gettext("no match position from the Score tag {tag}: {why}", tag=repr(stated),
                                              why=exc)))
            continue
        lead = first_lead(v) if opens_match(rep) else _lead_of(v, leader)
        out.append((MatchPosition(state, lead), leader,
                    gettext("the Score tag (the score after the hand, less the hand's result)")))
    return [Before(*x) for x in out]


def _set_up(v: Variant, rep: Replay, leader: int | None, given: str) -> tuple[MatchPosition | None, int | None, str]:
    """The match position of a game set up from a position, from its MatchScore tag (the score before the hand)."""
    try:
        state = score_before(v, rep, given, after=False)
    except ValueError as exc:
        return None, leader, gettext("no match position from the MatchScore tag {tag}: {why}", tag=repr(given), why=exc)
    return MatchPosition(state, _lead_of(v, leader)), leader, gettext("the MatchScore tag (the score before the hand)")


def _lead_of(variant: Variant, leader: int | None) -> tuple:
    return ("any",) if leader is None else ("side", variant.seating.teams[leader])
