"""Who may lead a hand and with what, and what a lead reveals: decided here, once.

The rules (``Opening``, and the ``LeadRequirement`` a match passes for its later games) say who must
lead: the holder of a tile (with it or with any tile), the players of a side (a partner holding a
double, under the doubles rule), the holder of the highest double dealt, the heaviest hand
(Hungarian), the highest tile drawn before the match (:func:`drawn_requirement`), or anyone; a draw
game's line may be opened by a tile turned up from the boneyard instead (:func:`starter_lead`).
:func:`judge_lead` checks the leader a record names against a deal it may
show only in part, :func:`deal_lead` chooses among the leaders a full deal allows (the random
games), and :func:`reveals` says what the first tile led shows to everyone who saw it. Each answers
with the same :class:`LeadVerdict` (or, for what a lead shows, :class:`Revealed`); the replayer, the
match, the inference and, through the opening tiles a position carries, the searches ask them.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence

from ..i18n import gettext
from ..tiles import Tile
from .judge import tiles_text
from .policies import Dealing, LeadRequirement, Opening, Seating
from .codes import Code
from ..rules.modes import Layout

__all__ = ["LeadProblem", "LeadVerdict", "Revealed", "requirement", "forced_tile", "holder_tile", "highest",
           "heaviest", "heaviest_of", "double_leaders", "dealt_leaders", "weighs_whole_hands", "highest_leads",
           "judge_lead", "deal_lead", "lead_tiles", "drawn_requirement", "starter_lead", "reveals", "LeadGame",
           "ShownDeal", "RecordedLead"]

Hands = Sequence[set[Tile] | frozenset[Tile] | None]


@dataclass(frozen=True)
class LeadGame:
    """The game a lead is judged in: its ``number`` in the match (the Game tag's; None: not known), its
    ``players`` seat by seat, and what the match ``decided`` of its lead (None: nothing)."""

    number: int | None
    players: Sequence[str]
    decided: LeadRequirement | None = None


@dataclass(frozen=True)
class ShownDeal:
    """The deal as a record shows it: each seat's ``hands`` (None: not shown) and whether it is shown
    ``whole`` (in full; rules that weigh whole hands need every one whole)."""

    hands: Hands
    whole: Sequence[bool]


@dataclass(frozen=True)
class RecordedLead:
    """What a record says of its lead: the Lead tag (``lead_tag``), the LeadFrom tag (``giver_tag``: the player
    who handed the lead to his partner), the seat of the first move (``first_mover``) and the tile it leads
    (``first_tile``), whether anyone moves (``has_moves``), and the Starter tag's tile turned up from the
    boneyard to open the line (``starter``)."""

    lead_tag: str | None = None
    giver_tag: str | None = None
    first_mover: int | None = None
    has_moves: bool = False
    first_tile: Tile | None = None
    starter: Tile | None = None


class LeadProblem(NamedTuple):
    """What is wrong with a lead: the validator's ``code`` and ``message``, ``where`` it is shown
    (``"game"``: the game itself, ``"move"``: its first move, or the tag it concerns: ``"Lead"``,
    ``"LeadFrom"``), ``details`` for the JSON output, and its ``severity``."""

    code: Code
    message: str
    where: str
    details: Mapping[str, Any] = MappingProxyType({})
    severity: str = "error"


@dataclass(frozen=True)
class LeadVerdict:
    """Who leads and with what. ``leader``: the seat that leads (the one the record names, else the
    one the rules name; None when neither does: then the rules let any of ``leaders`` lead);
    ``leaders``: the seats the rules allow to lead (None: anyone); ``tiles``: the tiles the lead may
    be, a bit mask (0: any tile); ``problems``: what is wrong with the lead the record shows; ``game``:
    the game of the match the lead is judged as (the Game tag's, or the one a forced lead shows; None:
    not known); ``starter``: the tile turned up from the boneyard to open the line, where it may be."""

    leader: int | None
    leaders: tuple[int, ...] | None = None
    tiles: int = 0
    problems: tuple[LeadProblem, ...] = field(default=())
    game: int | None = None
    starter: Tile | None = None


# -- the rules of the lead ---------------------------------------------------------------------
def forced_tile(opening: Opening, game_number: int | None) -> Tile | None:
    """The tile the hand must be opened with, if the rules name one regardless of the deal."""
    if opening.every_game_tile is not None:
        return opening.every_game_tile
    if game_number == 1 and not opening.holder_only:
        return opening.first_game_tile
    return None


def holder_tile(opening: Opening, game_number: int | None) -> Tile | None:
    """The tile whose holder must lead this hand (with it or not)."""
    if opening.every_game_tile is not None:
        return opening.every_game_tile
    if game_number == 1:
        return opening.first_game_tile
    return None


def requirement(opening: Opening, game_number: int | None, decided: LeadRequirement | None = None) -> LeadRequirement:
    """Who must lead this hand and with what: every hand's tile, else what the match ``decided``,
    else the first game's holder (nothing, where the rules and the match say nothing)."""
    if opening.every_game_tile is not None:
        return LeadRequirement(holder_of=opening.every_game_tile, tile=opening.every_game_tile,
                               reason=gettext("every hand is opened by its holder with it"))
    if decided is not None:
        return decided
    tile = holder_tile(opening, game_number)
    if tile is None:
        return LeadRequirement()
    return LeadRequirement(holder_of=tile, tile=forced_tile(opening, game_number), reason=gettext("in the first game of a match"))


def drawn_requirement(variant, draw, names: Sequence[str]) -> LeadRequirement | None:
    """Who leads the first game of a match by the tiles drawn before it (``draw``, a
    :class:`~analyzer.rules.matchplay.SeatDraw`; ``names``: the game's players in play order), with any
    tile: Domino Whist draws for the seats and the lead (001 §3), a variant whose ``Opening.drawn`` says
    so for the lead alone (000: "der höchste Stein beginnt"). None: the draw names no leader among them."""
    who = draw.first_leader(tuple(names))
    if who is None or not (variant.irregularities == "whist" or variant.opening.drawn):
        return None
    reason = ("§3: the tiles drawn for the seats decide who leads the first game" if variant.irregularities == "whist"
              else "the highest tile drawn leads the first game (\"der höchste Stein beginnt\")")
    return LeadRequirement(frozenset({list(names).index(who)}), reason=reason)


def highest(hands: Hands) -> tuple[int, Tile] | None:
    """The seat holding the highest double among the known hands, and that double."""
    best = None
    for seat, hand in enumerate(hands):
        for t in hand or ():
            if t.is_double and (best is None or t > best[1]):
                best = (seat, t)
    return best


def heaviest(hands: Hands) -> frozenset[int]:
    """The seats whose known hands hold the most pips (several on a tie)."""
    return heaviest_of({s: sum(t.pips for t in h) for s, h in enumerate(hands) if h is not None})


def heaviest_of(totals: dict[int, int]) -> frozenset[int]:
    """The seats with the most pips of ``totals`` (seat -> pips in his hand)."""
    top = max(totals.values(), default=None)
    return frozenset(s for s, p in totals.items() if p == top)


def double_leaders(opening: Opening, seats, hands: Hands, seating: Seating) -> frozenset[int] | None:
    """With the doubles rule: the seats that may lead when ``seats`` are to lead — the players of
    their side who hold a double, if the side holds one (None: the side has none, or unknown)."""
    if not opening.double or seats is None:
        return None
    sides = {seating.teams[s] for s in seats}
    holders = frozenset(s for s, h in enumerate(hands) if h and seating.teams[s] in sides
                        and any(t.is_double for t in h))
    return holders or None


def dealt_leaders(opening: Opening, hands: Sequence[set[Tile]], req: LeadRequirement, *,
                  highest_first: bool = False) -> frozenset[int] | None:
    """The seats that may lead by what the whole hands dealt decide beyond single tiles (None:
    the rules weigh no whole hand here): the heaviest hands (Hungarian), or, where the holder of
    ``req.holder_of`` leads and nobody holds it (``or_highest``), the holder of the highest
    double dealt (everyone when no double is dealt); ``highest_first``: the highest double dealt
    opens (:func:`highest_leads`), so its holder leads (everyone when no double is dealt)."""
    if highest_first:
        best = highest(hands)
        return frozenset(range(len(hands))) if best is None else frozenset({best[0]})
    if req.holder_of is not None and req.or_highest:
        holder = next((s for s, h in enumerate(hands) if req.holder_of in h), None)
        if holder is not None:
            return frozenset({holder})
        best = highest(hands)
        return frozenset(range(len(hands))) if best is None else frozenset({best[0]})
    if opening.heaviest_hand and req.tile is None and not opening.double:
        return heaviest(hands)
    return None


def weighs_whole_hands(opening: Opening, req: LeadRequirement, dealing: Dealing, players: int, *,
                       highest_first: bool = False) -> bool:
    """Whether who led tells something of the whole hands dealt (:func:`dealt_leaders`): the
    heaviest hand leads, or the highest double dealt where the tile whose holder leads may lie
    among the tiles nobody was dealt, or (``highest_first``) the highest double dealt opens."""
    return opening.heaviest_hand or highest_first or (req.or_highest and not dealing.all_dealt(players))


def highest_leads(opening: Opening, game_number: int | None, decided: LeadRequirement | None) -> bool:
    """Whether the holder of the highest double dealt opens this hand with it (every hand, or the first
    game of a match; 003: "Der Spieler mit dem höchsten Doppel beginnt")."""
    return opening.highest_double or (opening.first_highest and game_number == 1 and decided is None)


# -- a recorded lead ---------------------------------------------------------------------------
def judge_lead(variant, game: LeadGame, shown: ShownDeal, record: RecordedLead, *, hints: bool = True) -> LeadVerdict:
    """The lead of a recorded hand in ``game``: the deal as the record ``shown`` it, the leader the ``record``
    names (the Lead tag, else the first mover), the tile led first, the player who handed the lead to his
    partner (the LeadFrom tag), and what the match decided. The verdict's ``leader`` is None when neither
    the record nor the rules name one; its ``game`` is the game number the lead is judged as. A record
    whose line is opened by a tile turned up from the boneyard (the Starter tag): see :func:`starter_lead`.
    ``hints``: a first game's lead error names another value of an option that allows the lead (not when judging
    under that value)."""
    out: list[LeadProblem] = []
    op = variant.opening
    hands, players, decided = shown.hands, game.players, game.decided
    lead_tag, giver_tag = record.lead_tag, record.giver_tag
    seat_of = {name: seat for seat, name in enumerate(players)}
    if record.starter is not None:
        return starter_lead(variant, hands, game, record)
    game_number = game.number
    if op.every_game_tile is None and decided is None and game_number is None and op.first_game_tile is not None \
            and record.has_moves:
        game_number = _which_game(op, record.first_tile, out)
    req = requirement(op, game_number, decided)
    if giver_tag is not None:
        req, problem = _hand_over(variant, req, giver_tag, hands, players, seat_of)
        if problem:
            out.append(problem)
    leader = None
    if lead_tag:
        leader = seat_of.get(lead_tag.strip())
        if leader is None:
            out.append(LeadProblem(Code.UNKNOWN_PLAYER, gettext("the Lead tag names {name}, who is not one of the "
                                                                "players ({players})", name=repr(lead_tag),
                                                                players=', '.join(players)), "Lead"))
    if leader is None:
        leader = record.first_mover
    req, leaders, leader = _holder_leads(req, shown, players, leader, out)
    seats = double_leaders(op, req.seats, hands, variant.seating) or req.seats
    if seats is not req.seats:
        req = replace(req, seats=seats, reason=req.reason + gettext("; the hand opens with a double, so a player "
                                                                    "of that side who holds one leads"))
    if req.seats is not None:
        leaders = req.seats if leaders is None else leaders & req.seats
        if leader is not None and leader not in req.seats:
            names = " or ".join(players[s] for s in sorted(req.seats) if s < len(players))
            out.append(LeadProblem(Code.LEAD_PLAYER, gettext(
                "{names} must lead this game ({reason}), not {player}", reason=req.reason, player=players[leader],
                names=gettext(" or ").join(players[s] for s in sorted(req.seats) if s < len(players))),
                "move", {"expected": names}))
    tiles, leaders, leader = _opening_tiles(variant, req, replace(game, number=game_number), shown,
                                            (leader, leaders), out)
    if variant.lead.hand_over and giver_tag is None and leader is not None:
        out[:] = [_name_lead_from(p, variant, players, leader) for p in out]
    if req.otherwise and leader is not None:
        out[:] = [_name_option(p, req, players, leader) for p in out]
    if hints and game_number == 1 and decided is None and leader is not None and any(p.code in _LEAD_CODES for p in out):
        out[:] = _name_first_option(variant, game, shown, record, out, players[leader])
    if leader is None and leaders is not None and len(leaders) == 1:
        leader = next(iter(leaders))        # the one player the rules let lead, the record naming none yet
    return LeadVerdict(leader, None if leaders is None else tuple(sorted(leaders)), tiles, tuple(out), game_number)


_LEAD_CODES = (Code.LEAD_PLAYER, Code.LEAD_TILE)


def _name_first_option(variant, game: LeadGame, shown: ShownDeal, record: RecordedLead, out: list[LeadProblem],
                       leader: str) -> list[LeadProblem]:
    """A first game's lead that another value of an option of the first lead allows (the Cuban ``first=draw``: the
    lead drawn by lot, any player and tile): its problems name the option, as that variant's judge finds the lead
    right (``hints.first_lead_changes``)."""
    from .hints import first_lead_changes
    for option, other in first_lead_changes(variant):
        if not any(p.code in _LEAD_CODES for p in judge_lead(other, game, shown, record, hints=False).problems):
            return [p._replace(message=p.message + gettext("; under {rules} {player} may lead it as recorded",
                                                           rules=f'[Rules "{option}"]', player=leader))
                    if p.code in _LEAD_CODES else p for p in out]
    return out


def _name_lead_from(problem: LeadProblem, variant, players: Sequence[str], leader: int) -> LeadProblem:
    """A lead by the partner of the player who had it, where the rules let a player hand the lead over: the
    problem names the tag that makes it valid (``LeadFrom``)."""
    if problem.code != Code.LEAD_PLAYER:
        return problem
    expected = str(problem.details.get("expected", ""))
    givers = [players[s] for s in variant.seating.partners_of(leader) if players[s] in expected.split(" or ")]
    if not givers:
        return problem
    return problem._replace(message=problem.message + gettext(
        "; if {player} handed the lead to their partner, say so with the tag {tag}", player=givers[0],
        tag=f'[LeadFrom "{givers[0]}"]'))


def _name_option(problem: LeadProblem, req: LeadRequirement, players: Sequence[str], leader: int) -> LeadProblem:
    """A lead that another value of one of the variant's options allows (``LeadRequirement.otherwise``; Kozel's
    ``zero-lead=winner``): the problem names the option."""
    if problem.code not in (Code.LEAD_PLAYER, Code.LEAD_TILE):
        return problem
    for option, seats, reason in req.otherwise:
        if seats and leader in seats:
            return problem._replace(message=problem.message + gettext(
                "; under {rules} {player} leads ({reason})", rules=f'[Rules "{option}"]', player=players[leader],
                reason=reason))
    return problem


def starter_lead(variant, hands: Hands, game: LeadGame, record: RecordedLead) -> LeadVerdict:
    """A draw game whose line is opened by the ``record``'s starter, a tile turned up from the boneyard, not led
    from a hand: nobody leads a tile, so no rule of the lead binds the first player's tile (he plays on the
    starter, or draws); he is the one the record names (the Lead tag, else the first mover), among those
    the match allows. The problems: a variant without a boneyard to turn a tile up from, a tile not of
    the set, or one a hand the record shows holds."""
    out: list[LeadProblem] = []
    starter, players, decided = record.starter, game.players, game.decided
    lead_tag, first_mover = record.lead_tag, record.first_mover
    if variant.drawing is None or variant.layout != Layout.LINE:
        out.append(LeadProblem(Code.BAD_STARTER, gettext(
            "the Starter tag turns {tile} up from the boneyard, but {variant} has no boneyard to draw a line's first "
            "tile from (only a draw game with a line does)", tile=starter, variant=variant.name), "Starter"))
    elif starter not in variant.dealing.tiles:
        out.append(LeadProblem(Code.BAD_STARTER, gettext("the Starter tag names {tile}, which is not a tile of this "
                                                         "set", tile=starter), "Starter"))
    else:
        holder = next((s for s, h in enumerate(hands) if h is not None and starter in h), None)
        if holder is not None:
            out.append(LeadProblem(Code.BAD_STARTER, gettext("the Starter tag turns {tile} up from the boneyard, but "
                                                             "{holder} holds it", tile=starter,
                                                             holder=players[holder]), "Starter",
                                   {"holder": players[holder]}))
    leader = first_mover
    if lead_tag:
        leader = next((s for s, name in enumerate(players) if name == lead_tag.strip()), None)
        if leader is None:
            out.append(LeadProblem(Code.UNKNOWN_PLAYER, gettext("the Lead tag names {name}, who is not one of the "
                                                                "players ({players})", name=repr(lead_tag),
                                                                players=', '.join(players)), "Lead"))
            leader = first_mover
    seats = decided.seats if decided is not None else None
    if seats is not None and leader is not None and leader not in seats:
        names = " or ".join(players[s] for s in sorted(seats) if s < len(players))
        out.append(LeadProblem(Code.LEAD_PLAYER, gettext(
            "{names} must play first this game ({reason}), not {player}", reason=decided.reason, player=players[leader],
            names=gettext(" or ").join(players[s] for s in sorted(seats) if s < len(players))),
            "move", {"expected": names}))
    ok = not any(p.code == Code.BAD_STARTER for p in out)
    return LeadVerdict(leader, None if seats is None else tuple(sorted(seats)), 0, tuple(out),
                       starter=starter if ok else None)


def _which_game(op: Opening, first_tile: Tile | None, out: list[LeadProblem]) -> int | None:
    """The game a record that does not say which game of a match it is reads as: a lead of the first
    game's forced tile (000: "Beim ersten Spiel einer neuen Partie fängt der Spieler mit der [6-6] an
    und muss diese Doppelsechs vorsetzen") is the first game's (1, said as an info); any other lead
    leaves it open (None) and the lead unchecked, since the match decides the later games' leads."""
    tile = forced_tile(op, 1)
    if tile is not None and first_tile == tile:
        out.append(LeadProblem(
            Code.ASSUMED_FIRST_GAME, gettext(
                "the record does not say which game of a match this is; {tile} leads, as its holder must lead it in "
                "the first game, so it is read as the first game (its lead forced); add {tag} if it is another",
                tile=tile, tag='[Game "N"]'), "game", {"rule": "lead", "game": 1}, "info"))
        return 1
    out.append(LeadProblem(
        Code.UNCHECKED_LEAD, gettext(
            "who leads is not checked: in the first game of a match the holder of {tile} leads it, in the others the "
            "match decides, and the record does not say which game this is; if it is the first game of a match, add "
            "[Game \"1\"] to have the lead checked, else add [Game \"N\"] with its number and the games before it "
            "(or a Score tag)", tile=op.first_game_tile) if tile else gettext(
            "who leads is not checked: in the first game of a match the holder of {tile} leads, in the others the "
            "match decides, and the record does not say which game this is; if it is the first game of a match, add "
            "[Game \"1\"] to have the lead checked, else add [Game \"N\"] with its number and the games before it "
            "(or a Score tag)", tile=op.first_game_tile), "game", {"rule": "lead"}, "info"))
    return None


def _holder_leads(req: LeadRequirement, shown: ShownDeal, players: Sequence[str], leader: int | None,
                  out: list[LeadProblem]) -> tuple[LeadRequirement, frozenset[int] | None, int | None]:
    """The holder of the tile that must lead (or, when it lies in the boneyard, of the highest double
    dealt), where the record shows him: the requirement, who may lead, the leader."""
    hands, whole = shown.hands, shown.whole
    leaders: frozenset[int] | None = None
    if req.holder_of is not None:
        holder = next((s for s, h in enumerate(hands) if h is not None and req.holder_of in h), None)
        held = req.holder_of
        if holder is None and req.or_highest and all(whole[:len(players)]):
            holder, held = highest(hands) or (None, held)   # it lies in the boneyard
            req = replace(req, reason=req.reason + gettext("; nobody holds it: the highest double dealt leads"))
        if holder is not None:
            leaders = frozenset({holder})
            if leader is not None and holder != leader:
                words = {"holder": players[holder], "tile": held, "reason": req.reason, "player": players[leader]}
                out.append(LeadProblem(Code.LEAD_PLAYER, (
                    gettext("{holder} holds {tile} and must lead it ({reason}), not {player}", **words) if req.reason
                    else gettext("{holder} holds {tile} and must lead it, not {player}", **words))
                    if req.tile is not None else (
                    gettext("{holder} holds {tile} and must lead ({reason}), not {player}", **words) if req.reason
                    else gettext("{holder} holds {tile} and must lead, not {player}", **words)),
                                       "move", {"expected": players[holder]}))
        if leader is None:
            leader = holder
    return req, leaders, leader


def _opening_tiles(variant, req: LeadRequirement, game: LeadGame, shown: ShownDeal,
                   chosen: tuple[int | None, frozenset[int] | None], out: list[LeadProblem]
                   ) -> tuple[int, frozenset[int] | None, int | None]:
    """The tiles the lead may be (0: any), by the tile the requirement names or the opening's rule (a
    double, the heaviest hand, the highest double), and who may lead and who leads as that rule says
    (``chosen``: the leader and the leaders allowed so far)."""
    op = variant.opening
    game_number, players, (hands, whole) = game.number, game.players, (shown.hands, shown.whole)
    leader, leaders = chosen
    tiles = 0
    highest_rule = op.highest_double or (op.first_highest and game_number == 1 and req.seats is None)
    if req.tile is not None:
        tiles = req.tile.bit
    elif op.double and leader is not None and whole[leader]:
        tiles = _double_lead(variant, hands, players, leader, out)
    elif op.heaviest_hand and all(whole[:len(players)]):
        seats = heaviest(hands)
        leaders = seats or leaders
        if leader is not None and seats and leader not in seats:
            top = max(sum(t.pips for t in h) for h in hands if h is not None)
            names = " or ".join(players[s] for s in sorted(seats))
            out.append(LeadProblem(Code.LEAD_PLAYER, gettext(
                "{names} holds the most pips ({top}) and opens, not {player} ({pips})", top=top, player=players[leader],
                pips=sum(t.pips for t in hands[leader]), names=gettext(" or ").join(players[s] for s in sorted(seats))),
                                   "move", {"expected": names}))
        if leader is None and seats:
            leader = min(seats)
    elif highest_rule and all(whole[:len(players)]):
        best = highest(hands)
        if best is not None:
            seat, tile = best
            tiles, leaders = tile.bit, frozenset({seat})
            if leader is not None and leader != seat:
                out.append(LeadProblem(Code.LEAD_PLAYER, gettext("{holder} holds the highest double {tile} and opens "
                                                                 "with it, not {player}", holder=players[seat],
                                                                 tile=tile, player=players[leader]),
                                       "move", {"expected": players[seat]}))
            if leader is None:
                leader = seat
    elif highest_rule and leader is not None and whole[leader]:
        # other hands unknown: the leader opens as the holder of the highest double dealt, so with his highest
        doubles = [t for t in hands[leader] if t.is_double]
        if doubles:
            tiles = max(doubles).bit
    return tiles, leaders, leader


def _double_lead(variant, hands: Hands, players: Sequence[str], leader: int, out: list[LeadProblem]) -> int:
    """Every hand opens with a double: the leader's doubles, or (he has none) the problem when a
    partner of his holds one."""
    doubles = [t for t in hands[leader] if t.is_double]
    if doubles:
        return _mask(doubles)
    side = variant.seating.teams[leader]
    for s, h in enumerate(hands):
        if s != leader and h and variant.seating.teams[s] == side and any(t.is_double for t in h):
            out.append(LeadProblem(Code.LEAD_DOUBLE, gettext(
                "every hand opens with a double unless the leading side has none: {player} has none but {partner} has "
                "{tiles}, so {partner} leads", player=players[leader], partner=players[s],
                tiles=tiles_text(t for t in h if t.is_double)), "move", {"expected": players[s]}))
            break
    return 0


def _hand_over(variant, req: LeadRequirement, name: str, hands: Hands, players: Sequence[str],
               seat_of: dict[str, int]) -> tuple[LeadRequirement, LeadProblem | None]:
    """``[LeadFrom "A"]``: A, who has the lead, hands it to his partner (the lead policy says
    whether he may); the partner then leads, with any tile."""
    giver = seat_of.get(name.strip())
    if giver is None:
        return req, LeadProblem(Code.UNKNOWN_PLAYER, gettext("the LeadFrom tag names {name}, who is not one of the "
                                                             "players ({players})", name=repr(name),
                                                             players=', '.join(players)), "LeadFrom")
    holder = None
    if req.holder_of is not None:
        holder = next((s for s, h in enumerate(hands) if h is not None and req.holder_of in h), None)
    handed, problem = variant.lead.handed(req, giver, holder, variant.seating)
    if problem:
        return req, LeadProblem(Code.LEAD_HANDOVER, gettext("{player} may not hand the lead to his partner: {reason}",
                                                            player=name.strip(), reason=problem),
                                "LeadFrom")
    return handed, None


def _mask(tiles) -> int:
    out = 0
    for t in tiles:
        out |= t.bit
    return out


# -- a dealt lead ------------------------------------------------------------------------------
def deal_lead(variant, hands: Sequence[Sequence[Tile]], req: LeadRequirement | None) -> LeadVerdict:
    """The lead of a full deal (every hand known, nobody named yet), as the random games play it:
    ``leader`` when the rules name the seat, else the ``leaders`` to choose from; and the ``tiles``
    he may lead (with the doubles rule, those of the chosen leader: see :func:`lead_tiles`)."""
    op = variant.opening
    sets = [set(h) for h in hands]
    if req is not None and req.holder_of is not None:
        for s, h in enumerate(hands):
            if req.holder_of in h:
                return LeadVerdict(s, (s,), lead_tiles(variant, hands, s, req))
        best = highest(sets) if req.or_highest else None
        if best is not None:
            return LeadVerdict(best[0], (best[0],), lead_tiles(variant, hands, best[0], req))
    if op.highest_double or (op.first_highest and req is None):
        best = highest(sets)
        if best is not None:
            return LeadVerdict(best[0], (best[0],), lead_tiles(variant, hands, best[0], req))
    if op.heaviest_hand:
        return LeadVerdict(None, tuple(sorted(heaviest(sets))))
    seats = sorted(req.seats) if req is not None and req.seats is not None else list(range(variant.players))
    wider = double_leaders(op, req.seats if req else None, sets, variant.seating)
    if wider:
        seats = sorted(wider)
    if op.double and not (req and req.tile):
        # the lead is a double when the leading side has one: lead from a seat that holds one
        with_double = [s for s in seats if any(t.is_double for t in hands[s])]
        if with_double:
            return LeadVerdict(None, tuple(with_double))
        side_has = [s for s in seats if any(any(t.is_double for t in hands[p])
                                            for p in variant.seating.members(variant.seating.teams[s]))]
        seats = [s for s in seats if s not in side_has] or seats
    return LeadVerdict(None, tuple(seats))


def lead_tiles(variant, hands: Sequence[Sequence[Tile]], leader: int, req: LeadRequirement | None) -> int:
    """The tiles ``leader`` may open a full deal with (a mask; 0: any)."""
    op = variant.opening
    if req is not None and req.tile is not None:
        return req.tile.bit
    if op.double:
        return _mask(t for t in hands[leader] if t.is_double)
    if op.highest_double or (op.first_highest and req is None):
        best = highest([set(h) for h in hands])
        return best[1].bit if best else 0
    return 0


# -- what a lead reveals -----------------------------------------------------------------------
@dataclass(frozen=True)
class Revealed:
    """What the first tile led shows everyone: ``absent``, doubles no hand was dealt (those above a
    double led as the highest one dealt); ``holder``, a seat known to hold a tile he did not lead,
    and that tile (a bit); ``lacks``, per seat the tiles he was not dealt (the doubles of a side that
    led no double under the doubles rule)."""

    absent: int = 0
    holder: tuple[int, int] | None = None
    lacks: Mapping[int, int] = field(default_factory=dict)


def reveals(variant, game: LeadGame, seat: int | None, tile: Tile | None, giver_tag: str | None = None) -> Revealed:
    """What the lead of ``tile`` by ``seat`` (None: nobody leads; ``tile`` None: ``seat`` is to lead
    and has not yet, since who leads is known before he does) shows, in ``game`` whose LeadFrom tag
    is ``giver_tag``.

    The highest double dealt leads: no hand holds a double above it, and a lead that is no double
    shows that no hand holds a double (003: "Der Spieler mit dem höchsten Doppel beginnt"; with none
    dealt, anyone leads anything). The holder of a tile leads
    with any tile (002: "In informeller Runde kann der Besitzer der [6-6] ansagen, dass er die
    Doppelsechs hat und dann einen beliebigen Stein spielen"; a match's game led by the [6-6]
    holder): everybody knows the leader holds it, or, when he handed the lead to his partner, the
    one who handed it. Every hand opens with a double unless the leading side holds none (000:
    "dass jedes Spiel mit einem Doppel beginnen muss, es sei denn, dass keiner der Spieler des
    beginnenden Spiels ein solches hat"): a lead that is no double shows that neither the leader
    nor his partner holds one. Before the lead, the holder of the tile that must lead (with it or
    not) is known to be the player to lead."""
    if seat is None:
        return Revealed()
    op = variant.opening
    game_number, decided, players = game.number, game.decided, game.players
    n = len(players)
    absent = 0
    if tile is not None and highest_leads(op, game_number, decided):
        absent = _mask(t for t in variant.dealing.tiles if t.is_double and (t > tile or not tile.is_double))
    req = requirement(op, game_number, decided)
    holder = None
    if (req.holder_of is not None and (req.tile is None or tile is None)
            and not (req.or_highest and not variant.dealing.all_dealt(n))):   # else it may lie in the boneyard
        holder = (seat, req.holder_of.bit)
        if giver_tag is not None:
            holder = (players.index(giver_tag.strip()), req.holder_of.bit) if giver_tag.strip() in players else None
    lacks: dict[int, int] = {}
    if op.double and tile is not None and not tile.is_double and giver_tag is None and req.tile is None:
        doubles = _mask(t for t in variant.dealing.tiles if t.is_double)
        teams = variant.seating.teams
        lacks = {s: doubles for s in range(n) if teams[s] == teams[seat]}
    return Revealed(absent, holder, lacks)
