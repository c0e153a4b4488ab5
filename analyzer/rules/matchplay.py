"""The match: its running score and when it is over (``MatchScoring``, ``MatchState``), and who sits
where and who sits out across a match of Domino Whist (§3, §10, §11: ``SeatDraw``)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..i18n import gettext, ngettext
from ..tiles import Tile
from .modes import MatchKind, ResetLead, Termination
from .policies import SIX_SIX, HandResult, LeadRequirement, Seating

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["MatchState", "MatchScoring", "SeatDraw", "draw_rank", "settlement", "seat_now", "PROGRESSION_FIVE",
           "parse_clock"]

# §12, five players: "so benötigt man fünf Runden, und jeder Spieler muss einmal pausieren" — the pairs of
# each round (match) by player number, 1 the highest draw; the one not named pauses.
PROGRESSION_FIVE = (((1, 2), (3, 4)), ((1, 5), (2, 3)), ((1, 4), (2, 5)), ((1, 3), (4, 5)), ((2, 4), (3, 5)))


# -- match scoring --------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchState:
    """The running score of a match after some games."""

    scores: tuple[int, ...]
    wins: tuple[int, ...]
    games: int = 0
    pending: int = 0                   # drawn games since the last win (Jamaican: the next is worth more)
    playoff: bool = False              # the next game decides a 1-1 (Jamaican option)
    over: bool = False
    winner: int | None = None          # the side that won the match
    drawn: bool = False                # the match ended drawn (South American)
    note: str = ""                     # what happened in the last game (a reset, a bonus...)
    last: int | None = None            # the side that won the last game that was won (Cut Throat)
    fence: tuple[int, ...] = ()        # Kozel: the charges each side has on the fence (record still 0)
    eggs: int = 0                      # Kozel: the eggs carried to the next loser


@dataclass(frozen=True, slots=True)
class MatchScoring:
    """The match.

    ``kind``: ``points`` (the first side to reach ``target`` points wins; when several reach it
    in one game the higher total wins, or the lower with ``lower_wins``), ``bad`` (bad points: the match ends when a side reaches
    ``target``, the side with fewer wins), ``games`` (the first side to win ``target`` games wins,
    but only if every other side has won ``min_other``; else the match is drawn), ``straight``
    (Jamaican: ``target`` wins in a row, a loss resets both to 0, a draw makes the next game worth
    one more), ``cutthroat`` (first to ``target`` wins provided someone still has 0; once everyone
    has won a game all reset), ``shutout`` (Chiva for three: the same without the reset). ``first_wins``: bonuses for the winners of the first games won by
    domino (Quinientos 100/75/50/25). ``playoff``: Jamaican 1-1 play-off. ``target`` 0: no end.
    ``draw_bonus`` (``straight``, ``cutthroat``, ``shutout``): a drawn game makes the next one worth a point
    more (Jamaican: "dann bekommen sie zwei Punkte"; Cut Throat "wie beim Partnerspiel"; Chiva as the
    Jamaican game, for two or three too). ``reset_lead`` (``cutthroat``, a ``ResetLead``): who leads once all scores are back to 0: ``six-six``
    (the [6-6] holder, as at 0-0 in the partner game) or ``winner`` (the winner of the last game)."""

    target: int = 100
    kind: MatchKind = MatchKind.POINTS
    min_other: int = 0
    first_wins: tuple[int, ...] = ()
    playoff: bool = False
    draw_bonus: bool = False
    reset_lead: ResetLead = ResetLead.WINNER
    lower_wins: bool = False       # ``points``: both sides over the target, the lower total wins (000, own pips)
    cap: bool = False              # ``points``: points past the target are not scored, a side stops at it (issue 67)
    skip: bool = False             # ``points``: "no caben" (teamocuba.com): a hand's points that would take a side
                                   # past the target are not scored at all, and the match goes on
    minutes: int = 0               # the match also ends on time: the hand being played when ``minutes`` run out
                                   # is the last (Brasília, 150 points or 30 minutes; :meth:`timed`)

    def __post_init__(self):
        object.__setattr__(self, "kind", MatchKind(self.kind))    # a bare string becomes its member (a wrong one fails here)
        object.__setattr__(self, "reset_lead", ResetLead(self.reset_lead))

    def worth(self, state: MatchState) -> int | None:
        """What the next game is worth in the match after drawn games, when that differs from the
        hand's own point (a Result tag may state either); None when drawn games add nothing."""
        if self.draw_bonus and self.kind in (MatchKind.STRAIGHT, MatchKind.CUTTHROAT, MatchKind.SHUTOUT):
            return 1 + state.pending
        return None

    def stated_points(self, result: HandResult, worth: int | None) -> tuple[int, ...]:
        """The points a Result tag may state for a hand of ``result`` (``worth``: :meth:`worth` of the match before
        it): the hand's own points, or after drawn games what the game is worth in the match."""
        return (result.points,) + ((worth,) if worth else ())

    def stated_words(self, result: HandResult, worth: int | None) -> str:
        """What a ``result-mismatch`` adds about the other points a Result tag may state (:meth:`stated_points`)."""
        return (" " + gettext("(in the match, after drawn games, {worth})", worth=worth)
                if worth and worth != result.points else "")

    def stated_reading(self, stated: int | None, result: HandResult, worth: int | None) -> str:
        """Which of :meth:`stated_points` a Result tag stating ``stated`` points was read as, where the match says
        two (Kozel: the hand's charge, or with the eggs carried); "" where there is nothing to say."""
        return ""

    def start(self, sides: int) -> MatchState:
        return MatchState((0,) * sides, (0,) * sides)

    def open_below(self) -> int | None:
        """In a race to a target of points or bad points (``points``, ``bad``, a target set): the target, below which no
        score ends the match: a hand that leaves every side's score below it, and is not played again (``void``),
        adds its scores (a bonus for the first games won too), counts the game and its winner, and leaves the match
        going on (:meth:`apply`); the match does not say who leads next (:meth:`lead`). None for any other match."""
        return self.target if self.kind in (MatchKind.POINTS, MatchKind.BAD) and self.target else None

    def apply(self, state: MatchState, result: HandResult) -> MatchState:
        """The match after one more hand."""
        sides = len(state.scores)
        scores = list(state.scores)
        wins = list(state.wins)
        games = state.games + 1
        note = ""
        if result.void:
            if not any(result.scores):
                return replace(state, games=games, note=gettext("the hand does not count and is played again"))
            # pass bonuses are paid as they fall (000: "den Punktestand mit Pokerchips festzuhalten"), so a
            # hand played again keeps them: they count like any other points below (it has no winner)
            note = gettext("the hand does not count and is played again; its pass bonuses stand")
        if result.winner is not None:
            wins[result.winner] += 1
        if self.kind == MatchKind.STRAIGHT:
            return self._straight(state, result, games, wins)
        if self.kind in (MatchKind.CUTTHROAT, MatchKind.SHUTOUT):
            bonus = self.draw_bonus
            if result.winner is None:
                pending = state.pending + 1 if bonus else 0
                return replace(state, games=games, wins=tuple(wins), pending=pending,
                               note=gettext("a draw: the next game is worth {worth}", worth=pending + 1) if bonus else
                               "")
            w = result.winner
            worth = 1 + state.pending if bonus else 1
            scores[w] += worth
            note = ngettext("{points} points (after {n} drawn game)", "{points} points (after {n} drawn games)",
                            worth - 1, points=worth) if worth > 1 else ""
            if self.target and scores[w] >= self.target and 0 in scores:
                return MatchState(tuple(scores), tuple(wins), games, over=True, winner=w, note=note, last=w)
            if self.kind == MatchKind.CUTTHROAT and all(s >= 1 for s in scores):
                return MatchState((0,) * sides, tuple(wins), games, last=w,
                                  note=gettext("everybody has won a game: all scores go back to 0"))
            return MatchState(tuple(scores), tuple(wins), games, note=note, last=w)
        if result.at_once and self.kind == MatchKind.POINTS and self.target:
            ended = self._ended_at_once(state, result, games, wins)
            if ended is not None:
                return ended
        added = result.added(sides)
        if (self.first_wins and result.winner is not None and games <= len(self.first_wins)
                and result.termination == Termination.DOMINO):
            bonus = self.first_wins[games - 1]
            added[result.winner] += bonus
            note = gettext("bonus {bonus} for winning game {number}", bonus=bonus, number=games)
        for s in range(sides):
            if self.skip and self.target and self.kind == MatchKind.POINTS and added[s] > 0 \
                    and scores[s] + added[s] > self.target:
                note = (note + "; " if note else "") + gettext(
                    "{points} points would pass the target of {target} from {score}: not scored (no caben)",
                    points=added[s], target=self.target, score=scores[s])
                continue
            scores[s] += added[s]
            if self.cap and self.target and self.kind == MatchKind.POINTS and scores[s] > self.target:
                note = (note + "; " if note else "") + gettext(
                    "{points} points past the target are not scored (no caben): {target}",
                    points=scores[s] - self.target, target=self.target)
                scores[s] = self.target
        if self.kind == MatchKind.GAMES:
            reached = [s for s in range(sides) if wins[s] >= self.target]
            if self.target and reached:
                w = reached[0]
                if all(wins[s] >= self.min_other for s in range(sides) if s != w):
                    return MatchState(tuple(scores), tuple(wins), games, over=True, winner=w, note=note)
                return MatchState(tuple(scores), tuple(wins), games, over=True, drawn=True,
                                  note=gettext("the other side has fewer than {n} games: the match is drawn",
                                               n=self.min_other))
            return MatchState(tuple(scores), tuple(wins), games, note=note)
        bound = self.open_below()         # (points or bad points: the kinds left here)
        reached = [s for s in range(sides) if bound is not None and scores[s] >= bound]
        if reached:
            if self.kind == MatchKind.BAD:
                low = min(scores)
                if scores.count(low) == 1:
                    return MatchState(tuple(scores), tuple(wins), games, over=True, winner=scores.index(low), note=note)
                return MatchState(tuple(scores), tuple(wins), games, over=True, drawn=True, note=note)
            if len(reached) == 1:
                return MatchState(tuple(scores), tuple(wins), games, over=True, winner=reached[0], note=note)
            # 000, each side credited its own pips on a tied block: "können beide Teams gleichzeitig 100
            # oder mehr Punkte ... erreichen; die Gewinner sind dann das Team, das insgesamt weniger
            # Punkte hat" (``lower_wins``). Otherwise only pass bonuses let both sides score in one hand,
            # and the text is silent: there the higher total wins, as in any race to the target.
            lower = self.lower_wins
            best = (min if lower else max)(scores[s] for s in reached)
            tops = [s for s in reached if scores[s] == best]
            if len(tops) == 1:
                return MatchState(tuple(scores), tuple(wins), games, over=True, winner=tops[0],
                                  note=gettext("both sides reached the target: the lower total wins") if lower else
                                  gettext("both sides reached the target: the higher total wins"))
            return MatchState(tuple(scores), tuple(wins), games,
                              note=gettext("both sides reached the target with equal totals: another game is "
                                           "played (\"Bei gleicher Punktzahl wird noch ein weiteres Spiel "
                                           "gespielt\")"))
        return MatchState(tuple(scores), tuple(wins), games, note=note)

    def _ended_at_once(self, state: MatchState, result: HandResult, games: int, wins: list[int]) -> MatchState | None:
        """The match when the points a hand paid at its start (``result.at_once``: the salida) take a side to the
        target on their own: it is over on the spot, the rest of the hand unscored (teamocuba.com: with 20 points
        to go, a lead the next player cannot answer ends the match); None when they do not. Points that would pass
        the target do not end it under "no caben" (``skip``): they are not scored."""
        scores = list(state.scores)
        for s, v in enumerate(result.at_once):
            if v > 0 and scores[s] + v >= self.target and not (self.skip and scores[s] + v > self.target):
                scores[s] = self.target if self.cap else scores[s] + v
                return MatchState(tuple(scores), tuple(wins), games, over=True, winner=s,
                                  note=gettext("the salida's {points} points reach the target of {target} at the "
                                               "lead: the match ends on the spot, the rest of the hand is not scored",
                                               points=v, target=self.target))
        return None

    def timed(self, state: MatchState, clock: float) -> MatchState:
        """The match after a hand that ended with ``clock`` minutes played (the record's Clock tag): with a time
        limit (``minutes``) that has run out, the match is over, though no side reached the target: the higher
        score wins, equal scores draw it (the Brasília rules: "150 pontos ou 30 minutos, o que alcançar primeiro";
        the hand under way when time runs out is played to its end, so the hand that ends past the limit is the
        last)."""
        if not self.minutes or state.over or clock < self.minutes:
            return state
        top = max(state.scores)
        if state.scores.count(top) > 1:
            return replace(state, over=True, drawn=True, note=gettext(
                "time is up ({clock} played, the limit {minutes} minutes): the match ends on time with equal scores, "
                "drawn", clock=_clock_text(clock), minutes=self.minutes))
        note = gettext("time is up ({clock} played, the limit {minutes} minutes): the match ends on time",
                       clock=_clock_text(clock), minutes=self.minutes)
        return replace(state, over=True, winner=state.scores.index(top), note=note)

    def _straight(self, state: MatchState, result: HandResult, games: int, wins: list[int]) -> MatchState:
        sides = len(state.scores)
        scores = list(state.scores)
        if result.winner is None:
            pending = state.pending + 1 if self.draw_bonus else 0
            return MatchState(tuple(scores), tuple(wins), games, pending, state.playoff,
                              note=gettext("a draw: the next game is worth {worth}", worth=pending + 1)
                              if self.draw_bonus else "")
        w = result.winner
        worth = 1 + state.pending
        if state.playoff:
            scores = [0] * sides
            scores[w] = 2
            note = gettext("the play-off is won: 2-0")
        elif all(scores[s] == 0 for s in range(sides) if s != w):
            scores[w] += worth
            note = ngettext("{n} point", "{n} points", worth)
        elif self.playoff and scores[1 - w] == 1 and scores[w] == 0 and sides == 2:
            scores[w] = 1
            return MatchState(tuple(scores), tuple(wins), games, 0, True, note=gettext("1-1: a play-off game follows"))
        else:
            scores = [0] * sides
            note = gettext("the leading side lost: the score goes back to 0-0")
        if self.target and scores[w] >= self.target:
            return MatchState(tuple(scores), tuple(wins), games, over=True, winner=w, note=note)
        return MatchState(tuple(scores), tuple(wins), games, note=note)

    def carried(self, result: HandResult) -> int:
        """The points ``result`` leaves to be paid by a later hand's loser (Kozel's eggs); 0 in every other match."""
        return 0

    def lead(self, state: MatchState, seating: Seating) -> LeadRequirement | None:
        """Who leads the next game when the match state decides it (``straight``; ``cutthroat``
        played "wie beim Partnerspiel": at all 0 the [6-6] holder, else the last winner; ``shutout``:
        the winner of the last game that was won, with no points yet the [6-6] holder)."""
        if self.kind == MatchKind.CUTTHROAT and state.games:
            if not any(state.scores) and (self.reset_lead == ResetLead.SIX_SIX or state.last is None):
                return LeadRequirement(holder_of=SIX_SIX, reason=gettext("with every score at 0 the [6-6] holder leads"))
            if state.last is not None:
                return LeadRequirement(frozenset(seating.members(state.last)),
                                       reason=gettext("the winner of the last game that was won leads"))
            return None
        if self.kind not in (MatchKind.STRAIGHT, MatchKind.SHUTOUT):
            return None
        leading = [s for s, v in enumerate(state.scores) if v > 0]
        if self.kind == MatchKind.SHUTOUT and leading and state.last is not None:
            leading = [state.last]         # Chiva for three: the winner of the last game that was won
        if state.playoff or not leading:
            if state.playoff:
                return None
            return LeadRequirement(holder_of=SIX_SIX, reason=gettext("at 0-0 the [6-6] holder leads"), or_highest=True)
        return LeadRequirement(frozenset(seating.members(leading[0])),
                               reason=gettext("the side with points leads"))



def parse_clock(text: str) -> float:
    """The minutes a ``Clock`` tag states: ``"31:20"`` (minutes and seconds played in the match when the hand
    ended) or ``"31"``; ValueError with the forms it takes."""
    minutes, colon, seconds = text.strip().partition(":")
    if not _digits(minutes) or (colon and not (_digits(seconds) and len(seconds) == 2 and int(seconds) < 60)) \
            or len(minutes) > 4:
        raise ValueError(gettext("cannot read the clock {text}; write the time played in the match when the hand "
                                 "ended as minutes and seconds ({both}) or minutes ({minutes})",
                                 text=repr(text.strip()[:20]), both='"31:20"', minutes='"31"'))
    return int(minutes) + (int(seconds) / 60 if colon else 0)


def _digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdecimal`` takes "٣" too)."""
    return text.isascii() and text.isdecimal()


def _clock_text(clock: float) -> str:
    whole = int(clock)
    return f"{whole}:{round((clock - whole) * 60):02d}"


# -- Domino Whist: seats, partnerships and who sits out, by drawn tiles (001 §3, §10, §11) -----------
def draw_rank(tile: Tile) -> tuple[int, int]:
    """The rank of a tile drawn for seats (Domino Whist §3): pips first, then the higher half.

    "Ziehen zwei Spieler Steine mit derselben Augensumme, z.B. 4-3 und 6-1, so entscheidet die
    höchste einzelne Zahl, 6-1 gilt also höher als 4-3." """
    return (tile.pips, tile.high)


@dataclass(frozen=True)
class SeatDraw:
    """The tiles each person drew before a Domino Whist match (the ``SeatDraw`` tag, ``"A [6-1], B [4-3],
    C [2-2], D [0-5]"``), and what follows from them.

    §3 (four): "Einander gegenüber sitzende Spieler sind Partner ... 'Hoch' gegen 'Niedrig'": the two
    highest draws are partners. §10 (five): "Die zwei hohen Steine bilden eine Partnerschaft gegen die
    drei niederen Steine ... Beim ersten Spiel pausiert der mit dem niedersten Stein, beim zweiten Spiel
    der mit dem nächst höheren, usf." §11 (six): the three high against the three low; "Beim ersten
    Spiel pausieren die beiden Spieler, die die niedersten Steine gezogen haben, beim zweiten Spiel die
    nächst höheren usf." — read as each team's lowest (two must play for each team), then each team's
    next higher, in turn. ``lead``: who leads the first game, ``highest`` (the highest draw, as "der
    höchste Stein beginnt" of 000) or ``after-highest`` (whist: the highest cut deals, the next player
    leads)."""

    tiles: tuple[tuple[str, Tile], ...]
    lead: str = "highest"
    progression: bool = False          # §12: the matches form a progression (four or five people)

    @classmethod
    def parse(cls, text: str, lead: str = "highest", progression: bool = False) -> SeatDraw:
        """Read ``"A [6-1], B [4-3], ..."``; ValueError naming the part that cannot be read."""
        out = []
        for part in text.split(","):
            words = part.split(None, 1)
            try:
                tile = Tile.parse(words[1]) if len(words) == 2 else None
            except ValueError:
                tile = None
            if tile is None:
                raise ValueError(gettext("cannot read {part} in the SeatDraw tag; write each person and the tile "
                                         "drawn, e.g. {example}", part=repr(part.strip()),
                                         example='"A [6-1], B [4-3], C [2-2], D [0-5]"'))
            out.append((words[0], tile))
        tiles = [t for _, t in out]
        if len(set(tiles)) != len(tiles):
            raise ValueError(gettext("the SeatDraw tag names a tile twice; each person draws a different tile"))
        if len({n for n, _ in out}) != len(out):
            raise ValueError(gettext("the SeatDraw tag names a person twice; each person draws one tile"))
        return cls(tuple(out), lead, progression)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.tiles)

    def ranked(self) -> list[str]:
        """The names, highest draw first."""
        return [n for n, t in sorted(self.tiles, key=lambda p: draw_rank(p[1]), reverse=True)]

    def teams(self, part: int = 1) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The high team and the low team (§3: two and two, §10: two and three, §11: three and three).

        ``part``: the match's place in a progression of four (§12: "In der ersten Partie bilden die beiden
        hohen Steine eine Partnerschaft gegen die beiden niedrigen Steine ... Nun bilden die Spieler,
        welche den höchsten und den dritthöchsten Stein gezogen haben, eine Partnerschaft ... In der
        dritten Partie spielen nun die Spieler, die den höchsten und den niedrigsten Stein gezogen haben,
        gegen die beiden übrigen"), then again from the first. Five in a progression: the pairs of the
        ``part``-th round of the five-player scheme (``PROGRESSION_FIVE``), the draws numbered from the
        highest, as the four-player scheme numbers them."""
        ranked = self.ranked()
        if len(ranked) == 5 and self.progression:
            pairs = PROGRESSION_FIVE[(part - 1) % 5]
            return tuple(tuple(ranked[k - 1] for k in pair) for pair in pairs)
        if len(ranked) == 4:
            mate = ranked[1 + (part - 1) % 3]
            return (ranked[0], mate), tuple(n for n in ranked[1:] if n != mate)
        k = 3 if len(ranked) == 6 else 2
        return tuple(ranked[:k]), tuple(ranked[k:])

    def sitting_out(self, game: int, part: int = 1) -> tuple[str, ...]:
        """Who sits out the ``game``-th game of the match (from 1); in a progression of five, the whole
        ``part``-th match."""
        if len(self.tiles) == 5 and self.progression:
            seated = {n for pair in self.teams(part) for n in pair}
            return tuple(n for n in self.ranked() if n not in seated)
        high, low = self.teams()
        if len(self.tiles) == 5:
            return (low[::-1][(game - 1) % 3],)
        if len(self.tiles) == 6:
            return high[::-1][(game - 1) % 3], low[::-1][(game - 1) % 3]
        return ()

    def seat_problem(self, players: tuple[str, ...], seating: Seating, part: int = 1) -> str | None:
        """Why the players of a game (in play order) do not sit as the draw says (None: they do)."""
        high, _ = self.teams(part)
        sides = {seating.teams[s] for s, name in enumerate(players) if name in high}
        if len(sides) > 1:
            present = [n for n in players if n in high]
            return gettext("{players} are partners by the tiles they drew, so they sit opposite each other; the play "
                           "order {order} does not seat them so", players=gettext(" and ").join(present),
                           order=', '.join(players))
        return None

    def first_leader(self, players: tuple[str, ...]) -> str | None:
        """Who leads the first game of the match (Vorhand), among the game's players in play order."""
        top = self.ranked()[0]
        if top not in players:
            return None
        if self.lead == "after-highest":
            return players[(players.index(top) + 1) % len(players)]
        return top


def seat_now(last: tuple[str, ...], now: tuple[str, ...], seat: int, seating: Seating) -> int | None:
    """Where the table's seat ``seat`` of the last game (``last``: its players in play order) is in this
    one (``now``), when the people change between games (Domino Whist for five or six, §10, §11).

    The table's seats stay; the people in them change. A pair who play both games as partners kept
    their places (§10: "Die Zweier-Mannschaft spielt ohne Unterbrechung"), so their seats tie the two
    tables together, whoever of the others sits where now. None: no such pair (the six-player game),
    so the seats cannot be told apart by the table alone."""
    n = len(last)
    if len(now) != n or not 0 <= seat < n:
        return None
    for k, name in enumerate(last):
        if name not in now:
            continue
        j = now.index(name)
        if all(last[p] in now and now.index(last[p]) in seating.partners_of(j) for p in seating.partners_of(k)):
            return (j + seat - k) % n
    return None


def settlement(scores: tuple[int, ...], winner: int, sides: tuple[tuple[str, ...], ...],
               people: int) -> dict[str, Fraction]:
    """What each person wins (positive) or pays (negative) when a Domino Whist match is over (§9:
    "Jeder Spieler der verlierenden Partei zahlt an einen der Gewinner den der Punktedifferenz
    entsprechenden Betrag"; §10, five: the pair wins or loses the difference each, "Jeder Spieler der
    Dreier-Mannschaft gewinnt bzw. verliert jedoch nur zwei Drittel"; §11, six: each of the three
    losers pays one of the three winners the difference). ``sides``: the people of side 0 and side 1
    (a side of three in the five-player game counts two thirds)."""
    from fractions import Fraction      # (start-up: fractions and decimal load with a match's settlement only)

    difference = Fraction(abs(scores[0] - scores[1]))
    out: dict[str, Fraction] = {}
    for side, members in enumerate(sides):
        share = difference * Fraction(2, 3) if people == 5 and len(members) == 3 else difference
        for name in members:
            out[name] = share if side == winner else -share
    return out
