"""The first position of a game set up from a position (``[SetUp "1"]``, :mod:`analyzer.notation.setup`).

The hands are the hands at the position, the tiles of the Line tag lie on the table (laid, as a turned-up
starter is, through no hand: each is taken into the hand of the player before the mover and pushed, so the
position's line, its ends and its drawing are the ones a game played to there has), the boneyard holds what
the Boneyard tag says, and the player of the ToMove tag moves. A position the rules cannot reach is an error
at the tag or hand that says it: a tile of no set or twice (``setup-tiles``), more tiles of a number than
the set holds, ends the tiles on the table cannot make (``setup-ends``), hand sizes that do not add up
(``setup-count``)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..diagnostics import Diagnostic
from ..i18n import gettext
from ..notation.setup import SetUp, line_ends, value_place
from ..position import Position, tiles_of
from ..record import Game, MoveEntry, Span
from ..rules import Variant
from ..rules.codes import Code
from ..rules.mechanics import Mechanic, position_for
from ..rules.replayed import out_skipped
from ..tiles import Move, Tile

__all__ = ["SetUpStart", "setup_start", "table_mask"]


@dataclass
class SetUpStart:
    """The first position of a set-up game and what the set-up says besides it."""

    position: Position
    diagnostics: list[Diagnostic]
    lacks: list[tuple[int, tuple[int, ...]]]      # (seat, numbers) his passes proved he lacks
    scores: list[int]                             # each seat's points scored in the hand so far
    players: tuple[str, ...] = ()
    where: Span | None = None                     # the Lacks tag
    pending: tuple[int, int] | None = None        # (seat, points) a Muggins call may still take (the Pending tag)

    def lacks_entries(self, game: Game) -> list[tuple[int, tuple[int, ...], MoveEntry]]:
        """The lacks as the replay keeps a pass's: ``(seat, numbers, entry)``, the entry a pass standing
        where the Lacks tag does."""
        at = self.where or game.pos
        return [(seat, numbers, MoveEntry(self.players[seat], None, pos=at)) for seat, numbers in self.lacks]


def table_mask(pos: Position) -> int:
    """The tiles lying on the table of ``pos`` (neither in a known hand nor among the unseen ones)."""
    held = pos.pool
    for hand in pos.hands:
        held |= hand
    return ((1 << len(pos.tiles)) - 1) & ~held


class _Checker:
    def __init__(self, game: Game, source: str):
        self.game, self.source, self.found = game, source, []

    def __call__(self, code: Code, message: str, at: Span | None, **details) -> None:
        at = at or self.game.pos
        self.found.append(Diagnostic("error", code, message, at.line or None, at.column or None, self.source, details))

    def tag(self, name: str) -> Span:
        return value_place(self.game, name) if name in self.game.tags else self.game.pos


def setup_start(game: Game, variant: Variant, players: tuple[str, ...], setup: SetUp, source: str) -> SetUpStart:
    """The first position of ``game`` (set up as ``setup`` says) under ``variant``, and its problems."""
    check = _Checker(game, source)
    seat_of = {name: seat for seat, name in enumerate(players)}
    dealing = variant.dealing
    every = dealing.mask
    n = len(players)
    hands: list[tuple[Tile, ...]] = [()] * n
    hidden = [0] * n
    owner: dict[Tile, str] = {}
    for hand in game.hands:
        seat = seat_of.get(hand.player)
        if seat is None:
            continue
        tiles = tuple(hand.tiles or ())
        for k, tile in enumerate(tiles):
            at = hand.tile_pos[k] if k < len(hand.tile_pos) else hand.pos
            if not tile.bit & every:
                check(Code.SETUP_TILES, gettext("{tile} is no tile of the double-{pips} set", tile=tile,
                                                pips=dealing.max_pip), at, tile=str(tile))
            elif tile in owner:
                check(Code.SETUP_TILES, gettext("{tile} is {player}'s and {other}'s: a tile lies in one place",
                                                tile=tile, player=hand.player, other=owner[tile]),
                      at, tile=str(tile))
            owner.setdefault(tile, hand.player)
        hands[seat] = tuple(t for t in tiles if t.bit & every)
        hidden[seat] = hand.unknown if hand.tiles is not None else 1     # 'B: ?': one tile not shown
    line = tuple(setup.line or ())
    if setup.spinner is not None:               # (a layout with arms: its tiles are checked as a line's)
        line = (setup.spinner,) + tuple(t for arm in setup.arms for t in arm)
    where = "Arms" if setup.spinner is not None else "Line"
    for tile in line:
        if not tile.bit & every:
            check(Code.SETUP_TILES, gettext("{tile} in the {tag} tag is no tile of the double-{pips} set",
                                            tile=tile, tag=where, pips=dealing.max_pip),
                  check.tag(where), tile=str(tile))
        elif tile in owner:
            check(Code.SETUP_TILES, gettext("{tile} lies on the table and in {player}'s hand", tile=tile,
                                            player=owner[tile]), check.tag(where),
                  tile=str(tile))
    _check_seats(check, variant, players)
    _check_numbers(check, setup, hands, dealing.max_pip, every, owner)
    _check_sizes(check, variant, setup, hands, hidden, len(dealing.tiles))
    turn = 0
    if setup.to_move is not None:
        if setup.to_move in seat_of:
            turn = seat_of[setup.to_move]
        else:
            check(Code.SETUP_COUNT, gettext("the ToMove tag names {name}, who is no player of this game ({players})",
                                            name=setup.to_move, players=', '.join(players)), check.tag("ToMove"))
    lacks = []
    for name, numbers in setup.lacks:
        if name not in seat_of:
            check(Code.SETUP_COUNT, gettext("the Lacks tag names {name}, who is no player of this game", name=name),
                  check.tag("Lacks"))
            continue
        held = [t for t in hands[seat_of[name]] if any(t.matches(x) for x in numbers)]
        if held:
            check(Code.SETUP_TILES, gettext("the Lacks tag says {name} has no {numbers}, but his hand holds {tile}",
                                            name=name, numbers=gettext(" and no ").join(map(str, numbers)),
                                            tile=held[0]), check.tag("Lacks"))
        lacks.append((seat_of[name], numbers))
    scores = _scores(check, variant, players, setup)
    laid = tuple(t for t in line if t.bit & every and t not in owner)
    if setup.spinner is None and line and line_ends(line) is None:
        laid = ()                                   # (reported: tiles that do not join)
    arms = Mechanic.ARMS in variant.mechanics
    if arms and (setup.line or setup.ends) or not arms and setup.spinner is not None:
        check(Code.BAD_SETUP, gettext("{variant} lays arms: write the layout as the Arms tag", variant=variant.name)
              if arms else gettext("{variant} lays a line of two open ends: write the layout as the Line tag",
                                   variant=variant.name),
              check.tag("Arms" if setup.spinner is not None else "Line" if setup.line else "Ends"))
        laid, setup = (), replace(setup, line=None, ends=None, spinner=None, arms=())
    elif arms and setup.spinner is not None and laid == line and not _arms_laid(variant, setup):
        check(Code.SETUP_ENDS, gettext("the tiles of the Arms tag do not make that layout: the spinner is a double, "
                                       "its sides are filled in order, each tile matches the one before it on its "
                                       "arm"),
              check.tag("Arms"))
        laid = ()
    if n != variant.players:
        laid = ()                                   # (reported: no seat to lay the table through)
    if setup.ends is not None and any(x > dealing.max_pip for x in setup.ends):
        setup = replace(setup, ends=None)           # (reported: a number of no set)
    pos = _position(variant, hands, hidden, turn, laid if laid == line else (), setup)
    if setup.line is None and setup.ends is not None and not pos.pool:
        _check_table(check, setup, tiles_of(table_mask(pos), dealing.max_pip))
    if setup.drawn:
        if not pos.draws:
            check(Code.BAD_SETUP, gettext("{variant} has no drawing: the Drawn tag belongs to a draw game",
                                          variant=variant.name),
                  check.tag("Drawn"))
        else:
            pos.drawn_before(setup.drawn)
    pending = None
    if setup.pending is not None:
        name, points = setup.pending
        if variant.play is None:
            check(Code.BAD_SETUP, gettext("{variant} scores nothing during play: the Pending tag belongs to All "
                                          "Fives", variant=variant.name),
                  check.tag("Pending"))
        elif name not in seat_of:
            check(Code.SETUP_COUNT, gettext("the Pending tag names {name}, who is no player of this game", name=name),
                  check.tag("Pending"))
        else:
            pending = (seat_of[name], points)
    return SetUpStart(pos, check.found, lacks, scores, players, check.tag("Lacks"), pending)


def _check_seats(check: _Checker, variant: Variant, players: tuple[str, ...]) -> None:
    """The players a set-up needs, whatever order its tags and hands were typed in: as many as the variant
    seats (named by the Players tag, else by the hands), and a hand for each (at the tag that names them)."""
    game = check.game
    at = check.tag("Players") if "Players" in game.tags else game.tag_pos.get("SetUp", game.pos)
    if len(players) != variant.players:
        check(Code.PLAYERS, gettext("the {variant} game has {players} players, the set-up names {n} ({names}): name "
                                    "them in the Players tag, or write each player's hand ('A: [0-5] ...', a ? for "
                                    "each tile not shown)", variant=variant.name, players=variant.players,
                                    n=len(players), names=', '.join(players) or gettext("none")), at)
    shown = {hand.player for hand in game.hands}
    missing = [name for name in players if name not in shown]
    if missing and len(players) == variant.players:
        check(Code.SETUP_COUNT, gettext("the set-up shows no hand of {players}: write each player's hand ({example}, "
                                        "a ? for each tile not shown)", players=', '.join(missing),
                                        example=f"'{missing[0]}: [0-5] ...'"), at)


def _check_numbers(check: _Checker, setup: SetUp, hands, max_pip: int, every: int, owner: dict) -> None:
    """Numbers: a count of more tiles than the set has of that number (less those in known hands), an end
    of no set, an end no tile left for the table can make."""
    of_number = max_pip + 1                   # tiles carrying a given number in a double-max_pip set
    for number, count in setup.counts:
        in_hands = sum(t.matches(number) for t in owner)
        if number > max_pip or count + in_hands > of_number:
            words = {"count": count, "number": number, "pips": max_pip,
                     "have": of_number if number <= max_pip else 0, "held": in_hands}
            check(Code.SETUP_TILES, gettext("the Counts tag puts {count} tiles with a {number} on the table, but the "
                                            "double-{pips} set has {have} of them and the hands shown hold {held}",
                                            **words) if in_hands else
                  gettext("the Counts tag puts {count} tiles with a {number} on the table, but the double-{pips} set "
                          "has {have} of them", **words),
                  check.tag("Counts"), number=number)
    if setup.ends is None or setup.line is not None:
        return
    counts = dict(setup.counts)
    for end in sorted(set(setup.ends)):
        free = [t for t in tiles_of(every, max_pip) if t.matches(end) and t not in owner]
        if end > max_pip or not free or counts.get(end, 1) == 0:
            why = (gettext("the double-{pips} set has no {end}", pips=max_pip, end=end) if end > max_pip else
                   gettext("the Counts tag puts no tile with a {end} on the table", end=end) if free else
                   gettext("every tile with a {end} is in a hand shown", end=end))
            check(Code.SETUP_ENDS, gettext("the table cannot show a {end} at an end: {why}", end=end, why=why),
                  check.tag("Ends"), end=end)


def _check_table(check: _Checker, setup: SetUp, table: list[Tile]) -> None:
    """Where every hand is shown and nothing is left undealt, the tiles on the table are the rest: their
    counts must be the Counts tag's, and they must carry the ends."""
    for number, count in setup.counts:
        have = sum(t.matches(number) for t in table)
        if have != count:
            check(Code.SETUP_TILES, gettext("the Counts tag puts {count} tiles with a {number} on the table, but the "
                                            "tiles no hand holds, which lie there, carry it on {have}", count=count,
                                            number=number, have=have), check.tag("Counts"),
                  number=number)
    for end in sorted(set(setup.ends)):
        if not any(t.matches(end) for t in table):
            check(Code.SETUP_ENDS, gettext("the table cannot show a {end} at an end: {why}", end=end,
                                           why=gettext("no tile left for it carries one")),
                  check.tag("Ends"), end=end)


def _check_sizes(check: _Checker, variant: Variant, setup: SetUp, hands, hidden, set_size: int) -> None:
    """Hand sizes: each hand holds no more than he could (dealt, in a block game); the hands, the table
    and the boneyard make the set; in a block game the tiles on the table came from the hands."""
    size = variant.dealing.hand_size
    n = len(hands)
    held = [len(h) + hidden[s] for s, h in enumerate(hands)]
    # a player out ends the hand, but where it goes on past him while another holds a tile (Hungarian, whose others
    # play on while one of them can, 004; the strict block game, until both of a pair are out: rules.replayed)
    goes_on = out_skipped(variant) and any(held)
    for seat, count in enumerate(held):
        if count == 0 and not goes_on and variant.end.value == "one" and setup.pending is None:
            # (with a Muggins call pending the hand's last play may still be called: a set-up may stand there)
            hand = next((h for h in check.game.hands if h.player == check.game.players[seat]), None) \
                if check.game.players else None
            if hand is None and check.game.players:
                continue                            # (reported: a hand the set-up does not show)
            check(Code.SETUP_COUNT, gettext("{player} holds no tile: the hand is over, and a set-up stands before its "
                                            "end", player=hand.player) if hand else
                  gettext("a player holds no tile: the hand is over, and a set-up stands before its end"),
                  hand.pos if hand else None)
    table = setup.table_count
    drawing = variant.drawing is not None
    sleepers = variant.dealing.sleepers(n)
    boneyard = setup.boneyard
    where = check.tag("Boneyard") if "Boneyard" in check.game.tags else (
        check.game.hands[0].pos if check.game.hands else check.game.pos)
    if not drawing:
        for seat, count in enumerate(held):
            if count > size:
                hand = next((h for h in check.game.hands if h.player == check.game.players[seat]), None) \
                    if check.game.players else None
                check(Code.SETUP_COUNT, gettext("a hand of {count} tiles in a game whose hands are dealt {size}",
                                                count=count, size=size),
                      hand.pos if hand else where)
        if boneyard is not None and boneyard != sleepers:
            check(Code.SETUP_COUNT, gettext("the Boneyard tag says {boneyard}, but this game leaves {sleepers} tiles "
                                            "undealt, and nobody draws", boneyard=boneyard, sleepers=sleepers), where)
        boneyard = sleepers
        if table is not None and table != n * size - sum(held):
            check(Code.SETUP_COUNT, gettext("the hands hold {held} tiles and {table} lie on the table: {n} hands of "
                                            "{size} make {all}", held=sum(held), table=table, n=n, size=size,
                                            all=n * size), where)
        return
    if boneyard is None:
        if table is None:
            check(Code.SETUP_COUNT, gettext("a draw game set up without its line needs the Boneyard tag (how many "
                                            "tiles are left to draw)"), where)
        return
    if table is not None and sum(held) + table + boneyard != set_size:
        check(Code.SETUP_COUNT, gettext("the hands hold {held} tiles, {table} lie on the table and {boneyard} in the "
                                        "boneyard: {sum}, but the set has {size}", held=sum(held), table=table,
                                        boneyard=boneyard, sum=sum(held) + table + boneyard, size=set_size), where)


def _scores(check: _Checker, variant: Variant, players, setup: SetUp) -> list[int]:
    """Each seat's points in the hand so far from the Points tag (a side's points go to its first player
    named, as the replay counts them per seat)."""
    scores = [0] * len(players)
    if not setup.points:
        return scores
    if variant.play is None:
        check(Code.SETUP_COUNT, gettext("the Points tag gives points scored during the hand, but {variant} scores "
                                        "none during play", variant=variant.name), check.tag("Points"))
        return scores
    seat_of = {name: seat for seat, name in enumerate(players)}
    for side, points in setup.points:
        names = side.split("/")
        if not all(name in seat_of for name in names):
            check(Code.SETUP_COUNT, gettext("the Points tag names {side}, no side of this game", side=side),
                  check.tag("Points"))
            continue
        scores[seat_of[names[0]]] += points
    return scores


def _position(variant: Variant, hands, hidden, turn: int, line: tuple[Tile, ...], setup: SetUp) -> Position:
    """The position: the hands, the line laid through the hand of the player before the mover, the
    boneyard, the mover to move."""
    n = len(hands)
    pos = position_for(variant, [h for h in hands], turn, max_pip=variant.dealing.max_pip, hidden=hidden)
    pos.pool &= variant.dealing.mask
    before = (turn - 1) % n if n else 0
    if line and setup.spinner is not None:
        _lay_arms(pos, setup, before)
    elif line:
        _lay(pos, line, before)
    elif setup.ends is not None:        # the table known by its ends and counts: its tiles are not named
        pos.ends = tuple(setup.ends)
        rest = pos.pool & ~_unseen_mask(hidden, setup, pos)
        pos.pool &= ~rest
    if Mechanic.DRAW in variant.mechanics or variant.drawing is not None:
        held = sum(len(h) + hidden[s] for s, h in enumerate(hands))
        stock = setup.boneyard if setup.boneyard is not None else len(variant.dealing.tiles) - held - len(line)
        pos.stock = max(stock, 0)
        pos.bonus = -1
    pos.turn = turn
    pos.passes = 0
    return pos


def _unseen_mask(hidden, setup: SetUp, pos: Position) -> int:
    """Where the tiles on the table are not named: the pool's tiles that may still be held or in the
    boneyard (all of them), or none when nobody holds a tile not shown and no tile is left undealt (the
    tiles not in a hand are then the table's, known)."""
    return pos.pool if any(hidden) or setup.boneyard else 0


def _arms_laid(variant: Variant, setup: SetUp) -> bool:
    """Whether the Arms tag's tiles make that layout under ``variant`` (laid on a position of its own)."""
    pos = position_for(variant, [()] * variant.players, 0, max_pip=variant.dealing.max_pip)
    return _lay_arms(pos, setup, 0)


def _to_lay(pos: Position, tile: Tile, before: int) -> None:
    """Give ``tile`` (of the table's) to seat ``before`` to lay next: out of the pool, into his hand, his turn."""
    pos.pool &= ~tile.bit
    pos.hands[before] |= tile.bit
    pos.turn = before


def _lay_arms(pos: Position, setup: SetUp, before: int) -> bool:
    """Lay the spinner and each arm outward, depth by depth (every side of the spinner is filled before an
    arm goes on), through the hand of seat ``before``; False where a tile cannot go on its arm."""
    def put(tile: Tile, arm: int | None) -> bool:
        _to_lay(pos, tile, before)
        if arm is None:
            move = Move(tile)
        elif pos.arm_problem(arm, tile) is None:        # (not placements: it gives one of arms alike)
            move = Move(tile, pos.arms[arm - 1].number, arm=arm)
        else:
            pos.hands[before] &= ~tile.bit
            return False
        pos.push(move)
        return True

    if not setup.spinner.is_double or not put(setup.spinner, None):
        return False
    for depth in range(max(map(len, setup.arms), default=0)):
        for k, arm in enumerate(setup.arms, 1):
            if depth < len(arm) and not put(arm[depth], k):
                return False
    return True


def _lay(pos: Position, line: tuple[Tile, ...], before: int) -> None:
    """Lay ``line`` on the empty table of ``pos``, tile by tile, through the hand of seat ``before``, so that
    the Line's first open end is end 1 (``>1``) and its last end 2, as :meth:`Position.line` shows them.

    A lead lies lower half to end 1; so the line is laid from its first tile that reads lower half first
    (or a double), outward to the right (end 2) and then to the left (end 1), each tile on the end named,
    which matters where both ends show one number. A Line none of whose tiles reads so is the picture of
    one that does read from its other end: laid from there (end 1 is then its last end)."""
    left, _ = line_ends(line)
    halves = []                                 # each tile's (left, right) halves, reading the Line
    for tile in line:
        halves.append((left, tile.other(left)))
        left = halves[-1][1]
    lead = next((k for k, (a, b) in enumerate(halves) if a <= b), None)
    if lead is None:
        _lay(pos, tuple(reversed(line)), before)
        return

    def put(move: Move) -> None:
        _to_lay(pos, move.tile, before)
        pos.push(move)
    put(Move(line[lead]))
    for k in range(lead + 1, len(line)):
        put(Move(line[k], halves[k][0], arm=2))
    for k in range(lead - 1, -1, -1):
        put(Move(line[k], halves[k][1], arm=1))


def setup_game(rep, k: int, hidden: tuple[str, ...] = ()) -> Game:
    """The game ``rep`` (a :class:`analyzer.replay.Replay` of a line game) cut before its move ``k``,
    written as a set-up: the line on the table, every hand as it is then (the players of ``hidden`` by
    the count of their tiles), the boneyard, the mover, what the passes so far proved, the points scored,
    and the moves from ``k`` on. Tags other than the set-up's and Result are kept."""
    from ..notation.setup import SETUP_TAGS, position_hand, setup_tags
    pos = rep.position_at(k)
    n = len(rep.players)
    lacks: dict[int, set[int]] = {}
    for step in rep.steps[:k]:
        if step.move is not None and step.move.draw:
            lacks.pop(step.seat, None)
        elif step.lacks and step.seat is not None:
            lacks.setdefault(step.seat, set()).update(step.lacks)
    scores = rep.steps[k - 1].scores if k and rep.steps[k - 1].scores is not None else None
    points = ()
    if scores is not None and rep.variant.play is not None:
        sides: dict[str, int] = {}
        for seat in range(n):
            side = rep.variant.side_name(rep.variant.seating.teams[seat], rep.players)
            sides[side] = sides.get(side, 0) + scores[seat]
        points = tuple(sides.items())
    drawing = rep.variant.drawing is not None or pos.draws
    spinner, arms = None, ()
    if pos.has_arms:
        chains = pos.chains()
        if any(chain.origin is not None for chain in chains) or (pos.lead_tile() and not pos.lead_tile().is_double):
            raise ValueError("the set-up form gives a spinner's arms, not the branches of a tree")
        spinner = pos.lead_tile()
        arms = tuple(tuple(Tile.of(*halves) for halves in chain.tiles) for chain in chains if chain.tiles)
    pending = None          # a play's points left unclaimed, the next entry a Muggins call may take them with
    if k and rep.variant.play is not None and rep.steps[k - 1].seat is not None:
        missed = next((d for d in rep.steps[k - 1].diagnostics if d.code == Code.MISSED_SCORE), None)
        if missed is not None:
            pending = (rep.players[rep.steps[k - 1].seat], missed.details["scores"])
    setup = SetUp(line=None if pos.has_arms else tuple(t for t, _ in pos.line()),
                  boneyard=pos.stock if drawing else None, spinner=spinner, arms=arms,
                  to_move=rep.players[pos.turn],
                  lacks=tuple((rep.players[s], tuple(sorted(x))) for s, x in sorted(lacks.items())),
                  points=points, drawn=pos.drawn(pos.turn) if pos.draws else 0, pending=pending)
    dealt = SETUP_TAGS + ("Lead", "LeadFrom", "Starter", "SeatDraw", "Deal", "Redeal")
    tags = {name: value for name, value in rep.game.tags.items() if name not in dealt}
    tags.update(setup_tags(setup))
    hands = []
    for s, name in enumerate(rep.players):
        shown = () if name in hidden else tuple(tiles_of(pos.hands[s], pos.max_pip))
        hands.append(position_hand(name, shown, pos.count(s) - len(shown)))
    moves = list(rep.game.moves[k:])
    return Game(tags=tags, players=tuple(rep.players), hands=tuple(hands), moves=moves)
