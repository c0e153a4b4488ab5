"""Whether the deal a record shows is one the rules allow, decided here: the players, the tiles of the
set dealt once each, the size of each hand, the doubles that call for a re-deal, a hand that is the
rest of the set, and the Redeal tag (003's and 000's re-deal on many doubles). The replayer asks
:func:`judge_deal` and turns its problems into diagnostics."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Sequence

from ..i18n import N_, gettext, ngettext
from ..position import tiles_of
from ..record import HandEntry, Span
from ..tiles import Tile
from .codes import Code
from .hints import deal_size_hint
from .judge import tiles_text
from ..diagnostics import Severity

__all__ = ["DealProblem", "DealVerdict", "judge_deal"]


class DealProblem(NamedTuple):
    """What is wrong with a deal: the validator's ``code`` and ``message``, ``where`` it is shown (a
    place in the record, or ``"game"``, ``"hands"``, ``"Redeal"``, ``"move"``: the game, its first
    hand, the Redeal tag, its first move), ``details`` for the JSON output, and its ``severity``."""

    code: Code
    message: str
    where: Span | str | None
    details: Mapping[str, Any] = MappingProxyType({})
    severity: str = "error"


@dataclass(frozen=True)
class DealVerdict:
    """The hands as dealt (None: not shown), the tiles of each the record does not show, and the problems."""

    hands: tuple[frozenset[Tile] | set[Tile] | None, ...]
    partial: tuple[int, ...]
    problems: tuple[DealProblem, ...]


def judge_deal(variant, players: Sequence[str], entries: Sequence[HandEntry], *, redeal_tag: str | None = None,
               has_moves: bool = False) -> DealVerdict:
    """The deal of ``entries`` (the record's hands) among ``players``, judged under ``variant``."""
    out: list[DealProblem] = []
    v = variant
    n = len(players)
    seat_of = {name: seat for seat, name in enumerate(players)}
    if n != v.players:
        out.append(DealProblem(Code.PLAYERS, gettext("the {variant} game has {players} players, the record names {n} "
                                                     "({names})", variant=v.name, players=v.players, n=n,
                                                     names=', '.join(players) or gettext("none")), "game"))
    valid_mask = v.dealing.mask
    size = v.dealing.hand_size
    hands: list[set[Tile] | None] = [None] * n
    partial = [0] * n             # tiles of a partly known hand the record does not show
    seen_mask = 0                 # the tiles dealt so far; by bit: to whom and where
    seen: dict[int, tuple[str, Span]] = {}
    shown = {len(e.tiles) + e.unknown for e in entries if e.tiles is not None and e.player in seat_of}
    # every hand shown has the same other size: the option that deals it, named in the error (issue 56)
    hint = deal_size_hint(v, shown.pop()) if len(shown) == 1 and size not in shown else ""
    for entry in entries:
        seat = seat_of.get(entry.player)
        if seat is None:
            out.append(DealProblem(Code.UNKNOWN_PLAYER, gettext("the deal names {name}, who is not one of the players "
                                                                "({players})", name=repr(entry.player),
                                                                players=', '.join(players)), entry.pos))
            continue
        if entry.tiles is None:
            continue
        hand: set[Tile] = set()
        for k, tile in enumerate(entry.tiles):
            where = entry.tile_pos[k] if k < len(entry.tile_pos) else entry.pos
            if tile.bit & valid_mask and not tile.bit & seen_mask:       # a tile of the set, dealt once
                seen_mask |= tile.bit
                seen[tile.bit] = (entry.player, where)
                hand.add(tile)
            elif tile in v.dealing.set_aside:
                out.append(DealProblem(Code.DEAL_FOREIGN, gettext("{tile} is set aside in the {n}-player {variant} "
                                                                  "game and is dealt to nobody", tile=tile, n=n,
                                                                  variant=v.name), where, {"tile": str(tile)}))
            elif not tile.bit & valid_mask:
                out.append(DealProblem(Code.DEAL_FOREIGN, gettext("{tile} is not a tile of this set (double-{pips})",
                                                                  tile=tile, pips=v.dealing.max_pip),
                                       where, {"tile": str(tile)}))
            else:
                # either copy may be the slip, so both places are marked
                holder, first = seen[tile.bit]
                again = entry.player
                twice = N_("{tile} is dealt twice: to {here} here and to {there} at line {line}")
                out.append(DealProblem(Code.DEAL_DUPLICATE, gettext(twice, tile=tile, here=holder, there=again,
                                                                    line=where.line), first, {"tile": str(tile)}))
                out.append(DealProblem(Code.DEAL_DUPLICATE, gettext(twice, tile=tile, here=again, there=holder,
                                                                    line=first.line), where, {"tile": str(tile)}))
        if len(entry.tiles) + entry.unknown != size:
            out.append(DealProblem(Code.DEAL_SIZE, ngettext("{player} is dealt {n} tile; each player gets {size}",
                                                            "{player} is dealt {n} tiles; each player gets {size}",
                                                            len(entry.tiles) + entry.unknown, player=entry.player,
                                                            size=size) + hint, entry.pos))
        hands[seat] = hand
        partial[seat] = entry.unknown
        if v.dealing.redeal_due(hand) and redeal_tag is None:
            doubles = sum(t.is_double for t in hand)
            must = v.dealing.forced and has_moves
            # a deal with no moves after it reads as dealt again (``replay.redeal_inferred``): said, not warned
            why = (gettext("{n} doubles: under redeal={redeal}", n=doubles, redeal=v.dealing.redeal)
                   if doubles >= v.dealing.redeal else
                   gettext("{n} tiles of one number: with {suit} or more", n=v.dealing.longest_suit(hand),
                           suit=v.dealing.suit))
            out.append(DealProblem(Code.REDEAL, (gettext("{player} is dealt {why} the tiles must be dealt again, so "
                                                         "this hand may not be played", player=entry.player, why=why)
                                                 if must else
                                                 gettext("{player} is dealt {why} the tiles may be dealt again",
                                                         player=entry.player, why=why))
                                   + ("" if has_moves else gettext("; no move follows, so the record reads as dealt "
                                                                   "again")),
                                   entry.pos, {"doubles": doubles},
                                   "error" if must else "warning" if has_moves else "info"))
    known = [h for h in hands if h is not None]
    if (len(known) == n - 1 and v.dealing.all_dealt(n) and not any(p.severity == Severity.ERROR for p in out)
            and not any(partial)):
        # one unknown hand in a game where every tile is dealt: it is the rest of the set
        seat = hands.index(None)
        rest = set(tiles_of(valid_mask & ~seen_mask, v.dealing.max_pip))
        if len(rest) == size:
            hands[seat] = rest
            seen_mask = valid_mask
            out.append(DealProblem(Code.HAND_INFERRED, gettext("{player}'s hand is the rest of the set: {tiles}",
                                                               player=players[seat], tiles=tiles_text(sorted(rest))),
                                   "game", severity="info"))
    if all(h is not None for h in hands) and v.dealing.all_dealt(n) and known and not any(partial):
        if valid_mask & ~seen_mask:
            missing = sorted(tiles_of(valid_mask & ~seen_mask, v.dealing.max_pip))
            out.append(DealProblem(Code.DEAL_MISSING, gettext("every tile is dealt in this game, but nobody holds "
                                                              "{tiles}", tiles=tiles_text(missing)),
                                   "hands", {"tiles": [str(t) for t in missing]}))
    out += _redeal(v, players, seat_of, hands, redeal_tag, has_moves)
    return DealVerdict(tuple(hands), tuple(partial), tuple(out))


def _redeal(variant, players, seat_of, hands, name: str | None, has_moves: bool) -> list[DealProblem]:
    """A game marked ``[Redeal "C"]``: C showed his doubles and the tiles were dealt again, so
    the game has its deal and no moves, and counts for nothing."""
    if name is None:
        return []
    seat = seat_of.get(name.strip())
    if seat is None:
        return [DealProblem(Code.UNKNOWN_PLAYER, gettext("the Redeal tag names {name}, who is not one of the players "
                                                         "({players})", name=repr(name), players=', '.join(players)),
                            "Redeal")]
    out = []
    problem = variant.dealing.redeal_problem(hands[seat] if seat < len(hands) else None)
    if problem:
        out.append(DealProblem(Code.REDEAL_UNFOUNDED, gettext("the game is marked as dealt again for {player}'s "
                                                              "doubles, but {reason}", player=name.strip(),
                                                              reason=problem), "Redeal"))
    if has_moves:
        out.append(DealProblem(Code.REDEAL_PLAYED, gettext("a game dealt again is not played: it has no moves"),
                               "move"))
    return out
