"""The one judge of legality: is a recorded entry legal in a position, and if not, why.

Every caller that needs to know whether a move may be made asks :class:`Judge`: the replayer turns
its verdicts into diagnostics, the repair search asks it for the codes alone (``explain=False``
skips the messages), and the searches' move generators are tested against it
(``tests/test_judge.py``). A verdict is the moves the entry may stand for (several when the record
leaves the end or arm open) and its problems, each with the code the validator reports; a problem
that ``applies`` still lets the move be made (the replay goes on from it), one that does not means
the entry cannot be played at all.

The judge reads the position only through its mechanics contract (``draws``, ``has_arms``,
``drawn``, ``can_draw``, ``may_add``, ``filling``, ``arm_problem``...), never its class, so a new
mechanic is judged as soon as its position answers that contract.
"""
from __future__ import annotations

from typing import Callable, Mapping, NamedTuple

from ..position import Position, exposed_turn, placed, tiles_of
from ..tiles import PASS, Move, Tile
from .claims import ClaimJudge, Problem
from .codes import Code
from ..i18n import gettext, ngettext
from .hints import keep_hint
from .modes import Layout, Turns

__all__ = ["Judge", "Problem", "Verdict", "Written", "tiles_text"]


class Written(NamedTuple):
    """Where a record lays a tile, beyond the tile itself, and what came after it: the ``end`` or ``arm`` it
    names (None: not said; on a line ``arm`` 1 or 2 names an end of the line); ``stands``: where the tile lies
    if it is a false play that stands (Domino Whist §8: the next player has moved since), a ``Move`` with
    ``open``; ``followed``: the next player has moved since (a placement against Domino Whist §6 then stands)."""

    end: int | None = None
    arm: int | None = None
    stands: Move | None = None
    followed: bool = False


_ANYWHERE = Written()


def tiles_text(tiles) -> str:
    """Tiles in words, sorted: ``"[0-1] [2-5]"``, or ``"nothing"``."""
    return " ".join(str(t) for t in sorted(tiles)) or gettext("nothing")


class Verdict(NamedTuple):
    """What a recorded entry may stand for (``moves``) and what is wrong with it (``problems``)."""

    moves: tuple[Move, ...]
    problems: tuple[Problem, ...] = ()

    @property
    def legal(self) -> bool:
        return bool(self.moves) and not self.problems

    @property
    def code(self) -> Code | None:
        """The first problem's code (None: legal)."""
        return self.problems[0].code if self.problems else None

    @property
    def playable(self) -> bool:
        """Whether the move can be made (every problem still applies)."""
        return bool(self.moves) and (not self.problems or all(p.applies for p in self.problems))


_OK_PASS = Verdict((PASS,))


class Judge(ClaimJudge):
    """Judges entries for one game: the ``variant``'s rules, the ``players``' names for the messages.
    The points claimed during play are judged by its base, :class:`~analyzer.rules.claims.ClaimJudge`.

    ``explain``: build the messages (the replayer) or give the codes alone (the repair search, whose
    trials must be cheap). ``played_line``: where a tile was played, for "already played (line N)"."""

    def __init__(self, variant, players: tuple[str, ...], *, explain: bool = True,
                 played_line: Callable[[Tile], int | None] | None = None):
        super().__init__(variant, players, explain=explain)
        self.played_line = played_line
        self.valid_mask = variant.dealing.mask
        self.exposures: Mapping[int, str] = {}   # Domino Whist §8: an exposed tile's bit -> how it was exposed

    # -- whose turn -------------------------------------------------------------------------
    def turn(self, pos: Position, seat: int, is_play: bool) -> tuple[Problem | None, bool]:
        """Whether ``seat`` may move now: (the problem, or None; whether he moves out of the position's turn
        rightly: the opener adding a matching tile to his lead, or in Hungarian a player going on with his run
        from tiles the record does not show, which may fit where those it shows do not)."""
        if seat == pos.turn:
            return None, False
        if is_play and pos.may_add(seat):
            return None, True
        if (is_play and self.variant.turns == Turns.RUN and pos.hidden[seat] and pos.history
                and pos.history[-1][1] == seat and pos.history[-1][0].tile is not None):
            return None, True     # (004: "so viele Steine wie möglich": his run goes on, with a tile not shown)
        mover = self.players[pos.turn] if self.explain else ""
        name = self.players[seat] if self.explain else ""
        if self.variant.turns == Turns.RUN and pos.history and pos.history[-1][1] == pos.turn \
                and pos.history[-1][0].tile is not None:
            def message():
                return gettext("{mover} could still play {tiles} on {ends}: a player keeps playing as long as they "
                               "can, so it is not {player}'s turn yet", mover=mover,
                               tiles=tiles_text(pos.playable(pos.turn)), ends=pos.ends_text(), player=name)
            return self._problem(Code.RUN_UNFINISHED, message, lambda: {
                "expected": mover, "playable": [str(t) for t in pos.playable(pos.turn)]}), False
        if pos.drawn(pos.turn):
            return self._problem(Code.TURN_ORDER, lambda: gettext(
                "it is {mover}'s turn, not {player}'s: {mover} has drawn and must play or go on drawing", mover=mover,
                player=name), lambda: {"expected": mover}), False
        def due() -> str:           # what the player on turn could do there, when the record shows his hand
            if pos.ends is None or pos.hidden[pos.turn]:
                return ""
            playable = pos.playable(pos.turn)
            if not playable and not pos.hands[pos.turn]:
                return gettext("; {mover} holds no tile", mover=mover)
            if not playable:
                omitted = (gettext("; if the record leaves forced passes out, say so with the tag [Passes "
                                   "\"omitted\"]") if not self.pass_(pos, pos.turn).problems else "")
                return gettext("; {mover} holds nothing that fits the open ends {ends}", mover=mover,
                               ends=pos.ends_text()) + omitted
            return gettext("; {mover} could play {tiles} on the open ends {ends}", mover=mover,
                           tiles=tiles_text(playable), ends=pos.ends_text())
        return self._problem(Code.TURN_ORDER, lambda: gettext("it is {mover}'s turn, not {player}'s", mover=mover,
                                                              player=name) + due(),
                             lambda: {"expected": mover}), False

    # -- an entry ---------------------------------------------------------------------------
    def entry(self, pos: Position, tile: Tile | None, seat: int, *, draw: bool = False,
              written: Written = _ANYWHERE) -> Verdict:
        """The verdict on one recorded entry by ``seat`` on his turn: a play of ``tile`` (laid as ``written``
        says), a pass (``tile`` None), or a draw (``draw``; ``tile`` None when the record does not say
        which)."""
        if draw:
            return self.draw(pos, tile, seat)
        verdict = self.pass_(pos, seat) if tile is None else self.play(pos, tile, seat, written)
        if pos.exposed:
            missed, _ = exposed_turn(pos.exposed, pos.playable_mask(seat), tile.bit if tile is not None else 0)
            if missed:
                return Verdict(verdict.moves, verdict.problems + (self._exposed(pos, seat, tile, missed),))
        return verdict

    def _exposed(self, pos: Position, seat: int, tile: Tile | None, due: int) -> Problem:
        """Domino Whist §8: ``seat`` holds exposed tiles that fit (``due``) and makes another entry."""
        tiles = tiles_of(due, pos.max_pip)

        def message() -> str:
            hows = dict.fromkeys(self.exposures.get(t.bit) or gettext("exposed") for t in tiles)
            words = {"player": self.players[seat], "tiles": gettext(" and ").join(map(str, tiles)),
                     "how": "; ".join(hows), "entry": tile or gettext("a pass")}
            if len(tiles) == 1:
                return (gettext("{player}'s {tiles} is exposed ({how}) and fits the open ends here, so it must be "
                                "played now, not {entry}", **words) if pos.ends is not None else
                        gettext("{player}'s {tiles} is exposed ({how}) and may lead here, so it must be played now, "
                                "not {entry}", **words))
            return (gettext("{player}'s {tiles} are exposed ({how}) and fit the open ends here, so one of them must "
                            "be played now, not {entry}", **words) if pos.ends is not None else
                    gettext("{player}'s {tiles} are exposed ({how}) and may lead here, so one of them must be played "
                            "now, not {entry}", **words))
        return self._problem(Code.EXPOSED_TILE, message, lambda: {"tile": str(tiles[0]),
                                                              "exposed": [str(t) for t in tiles]})

    def pass_(self, pos: Position, seat: int) -> Verdict:
        """A pass: legal when the mover holds nothing that fits and may not draw."""
        name = self.players[seat] if self.explain else ""
        if pos.ends is None:
            return Verdict((PASS,), (self._problem(
                Code.FALSE_PASS, lambda: gettext("{player} passes on the lead; the leader must play a tile",
                                                 player=name),
                lambda: {"playable": [str(t) for t in pos.playable(seat)]}),))
        if pos.playable_mask(seat):
            return Verdict((PASS,), (self._problem(
                Code.FALSE_PASS, lambda: gettext("{player} passes but could play {tiles} on the open ends {ends}",
                                                 player=name, tiles=tiles_text(pos.playable(seat)),
                                                 ends=pos.ends_text()),
                lambda: {"open_ends": list(pos.ends), "playable": [str(t) for t in pos.playable(seat)]}),))
        if pos.draws and pos.can_draw(seat):
            # whatever the hand holds: one who can play plays, one who cannot draws (003, 004: "muss er aus dem
            # Talon einen Stein aufnehmen"); a pass is a pass only once nothing may be drawn
            def message() -> str:
                where = f"{gettext(pos.stock_words[0])} ({_stock_text(pos)})"
                text = (gettext("{player} passes but cannot play on {ends} and must draw from the {where}",
                                player=name, ends=pos.ends_text(), where=where)
                        if not pos.hidden[seat] else
                        gettext("{player} passes with tiles left to draw from the {where}: a player who cannot play "
                                "on {ends} draws, one who can plays", player=name, ends=pos.ends_text(), where=where))
                return text + keep_hint(self.variant, pos.stock, gettext(pos.stock_words[0]))
            return Verdict((PASS,), (self._problem(
                Code.MUST_DRAW, message,
                lambda: {"open_ends": list(pos.ends), "boneyard": pos.stock}),))
        return _OK_PASS

    def play(self, pos: Position, tile: Tile, seat: int, written: Written = _ANYWHERE) -> Verdict:
        """A play of ``tile``: every placement it may stand for (the end or arm the record has ``written``,
        else every one that takes it; on a line arm 1 or 2 names an end of the line)."""
        end, arm, stands, followed = written
        name = self.players[seat] if self.explain else ""
        bit = tile.bit
        if not bit & self.valid_mask:
            return Verdict((), (self._problem(Code.TILE_FOREIGN, lambda: gettext("{tile} is not a tile of this set",
                                                                                 tile=tile),
                                              applies=False),))
        holder = None
        for s, hand in enumerate(pos.hands):
            if hand & bit:
                holder = s
                break
        if holder is None and not pos.pool & bit:
            def message():
                line = self.played_line(tile) if self.played_line else None
                return (gettext("{tile} was already played (line {line})", tile=tile, line=line) if line else
                        gettext("{tile} was already played", tile=tile))
            return Verdict((), (self._problem(Code.TILE_ALREADY_PLAYED, message, applies=False),))
        if holder != seat and not (holder is None and pos.hidden[seat]):
            def message():
                if holder is not None:
                    why = gettext("it is in {holder}'s hand", holder=self.players[holder])
                elif pos.hidden[seat] == 0 and not pos.hands[seat]:
                    why = gettext("{player} has no tiles left", player=name)
                elif pos.ends is None and pos.draws and pos.pool & bit:
                    why = gettext("it was not dealt to anyone; if it was turned up from the boneyard to open the "
                                  "line, say so with the tag [Starter \"{tile}\"]", tile=tile)
                else:
                    why = gettext("it was not dealt to anyone")
                return gettext("{player} does not hold {tile}: {why}; {player} holds {tiles}", player=name, tile=tile,
                               why=why, tiles=tiles_text(tiles_of(pos.hands[seat], pos.max_pip)))
            return Verdict((), (self._problem(Code.TILE_NOT_HELD, message, lambda: {
                "holder": None if holder is None else self.players[holder]}, applies=False),))
        if pos.ends is None:
            if pos.opening and not pos.opening & bit:
                return Verdict((placed(tile, None),), (self._problem(
                    Code.LEAD_TILE, lambda: gettext("this hand must be opened with {tiles}, not {tile}",
                                                    tiles=tiles_text(tiles_of(pos.opening, pos.max_pip)), tile=tile)
                    + self._lead_tags(pos),
                    lambda: {"expected": [str(t) for t in tiles_of(pos.opening, pos.max_pip)]}),))
            return Verdict((placed(tile, None),))
        if pos.has_arms:
            return self._arm_play(pos, tile, seat, end, arm)
        placements = pos.placements(tile)
        if not placements and stands is not None and self.variant.irregularities == "whist":
            return self._false_play(pos, tile, seat, stands)
        if not placements:
            return Verdict((), (self._problem(
                Code.TILE_NO_MATCH, lambda: gettext("{tile} does not fit the open ends {ends}; {could}", tile=tile,
                                                    ends=pos.ends_text(), could=self._could(pos, seat)),
                lambda: {"open_ends": list(pos.ends), "playable": [str(t) for t in pos.playable(seat)]},
                applies=False),))
        if end is not None:
            stated = [m for m in placements if m.end == end]
            if not stated:
                return Verdict(tuple(placements), (self._problem(
                    Code.END_MISMATCH, lambda: gettext("{tile} cannot go on the {end}: the open ends are {ends}",
                                                       tile=tile, end=end, ends=pos.ends_text()),
                    lambda: {"open_ends": list(pos.ends)}),))
            placements = stated
        if arm is not None:
            return self._line_end(pos, tile, seat, placements, arm, followed)
        return Verdict(tuple(placements))

    def _line_end(self, pos: Position, tile: Tile, seat: int, placements: list[Move], arm: int, followed: bool
                  ) -> Verdict:
        """A play on a named end of the line (``>1``: the end the lead's lower half faces, ``>2``: the
        other), and Domino Whist §6: "Zeigen beide Enden der Kette die gleiche Augenzahl, so muss ein
        Spieler an dem Ende anlegen, das ihm näher bzw. zu seiner Rechten liegt" (``Position.equal_end``).
        A tile on the other end is laid "regelwidrig" (§8): it stands once the next player has moved."""
        if arm not in (1, 2):
            return Verdict(tuple(placements), (self._problem(
                Code.BAD_ARM, lambda: gettext(">{arm} names no end of the line: >1 is the end the lead's lower half "
                                              "faces, >2 the other", arm=arm), lambda: {"open_ends": list(pos.ends)}),))
        number = pos.ends[arm - 1]
        if not any(m.end == number for m in placements):
            return Verdict(tuple(placements), (self._problem(
                Code.END_MISMATCH, lambda: gettext("{tile} cannot go on end {arm} of the line: its open number is "
                                                   "{number}", tile=tile, arm=arm, number=number),
                lambda: {"open_ends": list(pos.ends)}),))
        move = Move(tile, number, arm=arm)
        rule = pos.equal_end(seat)
        if not self.variant.equal_ends or pos.ends[0] != pos.ends[1] or arm == rule:
            return Verdict((move,))
        name = self.players[seat] if self.explain else ""
        return Verdict((move,), (self._problem(
            Code.EQUAL_ENDS, lambda: gettext("both ends show {number}: {player} must lay {tile} on the end nearer them "
                                             "or to their right, end {rule} (§6), not end {arm}", number=number,
                                             player=name, tile=tile, rule=rule, arm=arm)
            + (gettext("; the next player has moved, so it stands (§8)") if followed else ""),
            lambda: {"expected": rule}, severity="warning" if followed else "error"),))

    def _false_play(self, pos: Position, tile: Tile, seat: int, stands: Move) -> Verdict:
        """Domino Whist §8: "Hat der nachfolgende Spieler bereits angelegt oder gepasst, so ist das
        fehlerhafte Spiel gültig": the tile lies where it was put, an irregularity that stands."""
        if stands.end not in pos.ends or stands.open is None or not tile.matches(stands.open):
            return Verdict((), (self._problem(
                Code.TILE_NO_MATCH, lambda: gettext("{tile} does not fit the open ends {ends}, and the FalsePlay tag's "
                                                    "{stands} names no open end and half of it; {could}", tile=tile,
                                                    ends=pos.ends_text(), stands=stands,
                                                    could=self._could(pos, seat)),
                lambda: {"open_ends": list(pos.ends)}, applies=False),))
        return Verdict((Move(tile, stands.end, open=stands.open),), (self._problem(
            Code.FALSE_PLAY_STANDS, lambda: gettext("{tile} does not fit the open ends {ends} ({could}); it lies on "
                                                    "the {end}, leaving {open} open", tile=tile, ends=pos.ends_text(),
                                                    could=self._could(pos, seat), end=stands.end, open=stands.open),
            lambda: {"open_ends": list(pos.ends), "end": stands.end, "open": stands.open}, severity="warning"),))

    def _lead_tags(self, pos: Position) -> str:
        """The tags that would make another lead valid, named in the error (a lead handed to the partner, a line
        opened by a tile turned up from the boneyard)."""
        if self.variant.lead.hand_over:
            return gettext("; if the lead was handed to the partner, who leads any tile, say so with the tag LeadFrom")
        if pos.draws and self.variant.layout == Layout.LINE:
            return gettext("; if the line was opened by a tile turned up from the boneyard, say so with the tag "
                           "Starter ({example})", example='[Starter "[4-5]"]')
        return ""

    def _could(self, pos: Position, seat: int) -> str:
        name = self.players[seat]
        playable = pos.playable(seat)
        return (gettext("{player} could play {tiles}", player=name, tiles=tiles_text(playable)) if playable else
                gettext("{player} holds nothing that fits", player=name))

    def _arm_details(self, pos: Position, seat: int) -> dict:
        return {"open_ends": list(pos.ends), "arms": [list(a) for a in pos.arms],
                "playable": [str(t) for t in pos.playable(seat)]}

    def _arm_play(self, pos: Position, tile: Tile, seat: int, end: int | None, arm: int | None) -> Verdict:
        """``play`` on a layout with arms (see ``analyzer.rules.layout``): the arm a tile may go on."""
        def details():
            return self._arm_details(pos, seat)
        if arm is not None:
            problem = pos.arm_problem(arm, tile)
            if problem is not None:
                code, reason = problem
                return Verdict((), (self._problem(code, lambda: gettext(
                    "{tile} cannot go on arm {arm}: {reason}; the layout: {ends}; {could}", tile=tile, arm=arm,
                    reason=reason, ends=pos.ends_text(), could=self._could(pos, seat)),
                                                  details, applies=False),))
            move = Move(tile, pos.arms[arm - 1].number, arm=arm)
            if end is not None and end != move.end:
                return Verdict((move,), (self._problem(
                    Code.END_MISMATCH, lambda: gettext("{tile} on arm {arm} goes on its {number}, not on a {end}",
                                                       tile=tile, arm=arm, number=move.end, end=end), details),))
            return Verdict((move,))
        placements = pos.placements(tile)
        problems: tuple[Problem, ...] = ()
        if end is not None and placements:
            stated = [m for m in placements if m.end == end]
            if not stated:
                problems = (self._problem(Code.END_MISMATCH, lambda: gettext(
                    "{tile} cannot go on a {end}: the layout is {ends}", tile=tile, end=end, ends=pos.ends_text()),
                    details),)
            else:
                placements = stated
        if placements:
            return Verdict(tuple(placements), problems)
        # why not: a closed arm or a skipped double before a plain mismatch
        reasons = [pos.arm_problem(k, tile) for k in range(1, len(pos.arms) + 1)]
        for code in (Code.ARM_CLOSED, Code.DOUBLE_SKIPPED):
            found = [reason for c, reason in filter(None, reasons) if c == code]
            if found:
                return Verdict((), (self._problem(code, lambda: gettext(
                    "{tile} cannot be played now: {reason}; the layout: {ends}; {could}", tile=tile, reason=found[0],
                    ends=pos.ends_text(), could=self._could(pos, seat)),
                                                  details, applies=False),))
        return Verdict((), (self._problem(Code.TILE_NO_MATCH, lambda: gettext(
            "{tile} does not fit the open ends: {ends}; {could}", tile=tile, ends=pos.ends_text(),
            could=self._could(pos, seat)), details, applies=False),))

    def draw(self, pos: Position, tile: Tile | None, seat: int) -> Verdict:
        """A draw (of ``tile``, or of a tile the record does not name): legal when the mover cannot
        play, may draw now and the tile is in the boneyard."""
        name = self.players[seat] if self.explain else ""
        v = self.variant
        if v.drawing is None or not pos.draws:
            return Verdict((), (self._problem(
                Code.NO_BONEYARD, lambda: gettext("{player} draws {tile}, but in the {variant} game nobody draws: the "
                                                  "tiles not dealt take no part in the hand", player=name, tile=tile,
                                                  variant=v.name) if tile else
                gettext("{player} draws, but in the {variant} game nobody draws: the tiles not dealt take no part in "
                        "the hand", player=name, variant=v.name), applies=False),))
        _, where, empty = pos.stock_words
        if tile is not None and not (tile.bit & self.valid_mask and pos.pool & tile.bit):
            def message():
                if not tile.bit & self.valid_mask:
                    why = gettext("it is not a tile of this set")
                else:
                    holder = next((s for s, h in enumerate(pos.hands) if h & tile.bit), None)
                    why = (gettext("{player} holds it already", player=name) if holder == seat else
                           gettext("it is on the table") if holder is None else
                           gettext("it is in {holder}'s hand", holder=self.players[holder]))
                return gettext("{player} draws {tile}, which is not {where}: {why}", player=name, tile=tile,
                               where=gettext(where), why=why)
            return Verdict((), (self._problem(Code.DRAW_NOT_IN_BONEYARD, message, lambda: {"tile": str(tile)},
                                              applies=False),))
        if pos.stock <= 0:
            return Verdict((), (self._problem(Code.BONEYARD_EMPTY, lambda: gettext("{player} draws, but {empty}",
                                                                                   player=name, empty=gettext(empty)),
                                              lambda: {"boneyard": 0}, applies=False),))
        move = (Move(tile, None, True),)
        if pos.has_arms and pos.ends is not None and not pos.filling() and pos.outcome() is None:
            return Verdict(move, (self._problem(
                Code.DRAW_NOT_ALLOWED, lambda: gettext(
                    "{player} draws, but every side of the spinner has a tile: the sleepers are drawn only to fill the "
                    "spinner, and after that a player who cannot play passes; the layout: {ends}", player=name,
                    ends=pos.ends_text()), lambda: {"arms": [list(a) for a in pos.arms]}),))
        problems: list[Problem] = []
        playable = pos.playable_mask(seat)
        if pos.outcome() is None and (playable or pos.ends is None):
            def what():
                return (gettext("could play {tiles} on {ends}", tiles=tiles_text(pos.playable(seat)),
                                ends=pos.ends_text()) if pos.ends is not None else
                        gettext("leads and must play a tile"))

            def details():
                return {"playable": [str(t) for t in pos.playable(seat)]}
            drawn = pos.drawn(seat)
            if drawn:
                problems.append(self._problem(Code.DRAW_TOO_LONG, lambda: ngettext(
                    "{player} draws again, but after the {n} tile drawn, {player} {what}: a player draws only until "
                    "they can play", "{player} draws again, but after the {n} tiles drawn, {player} {what}: a player "
                    "draws only until they can play", drawn, player=name, what=what()), details))
            else:
                problems.append(self._problem(Code.DRAW_NOT_ALLOWED, lambda: gettext(
                    "{player} draws, but {what}: only a player who cannot play draws", player=name, what=what()),
                    details))
        elif pos.rule == "one" and pos.drawn(seat):
            problems.append(self._problem(Code.DRAW_TOO_LONG, lambda: gettext(
                "{player} draws a second tile in one turn: under draw=one a player draws one tile and passes if it "
                "does not fit", player=name)))
        if pos.stock <= pos.keep:
            problems.append(self._problem(
                Code.BONEYARD_EMPTY, lambda: ngettext(
                    "{player} draws, but only {n} tile is left in the boneyard and the last {keep} are never drawn; "
                    "{player} must pass", "{player} draws, but only {n} tiles are left in the boneyard and the last "
                    "{keep} are never drawn; {player} must pass", pos.stock, player=name, keep=pos.keep),
                lambda: {"boneyard": pos.stock, "keep": pos.keep}))
        return Verdict(move, tuple(problems))

    # -- what a pass proved -----------------------------------------------------------------
    @staticmethod
    def contradicted(lacks, seat: int, tile: Tile):
        """The first of ``lacks`` ((passer, numbers, ...) items: what a player's passes proved he did
        not hold) that a play of ``tile`` by ``seat`` proves false, or None."""
        for item in lacks:
            if item[0] == seat and any(tile.matches(n) for n in item[1]):
                return item
        return None

def _stock_text(pos: Position) -> str:
    text = ngettext("{n} tile", "{n} tiles", pos.stock)
    return text + (gettext(", of which {keep} stay there", keep=pos.keep) if pos.keep else "")
