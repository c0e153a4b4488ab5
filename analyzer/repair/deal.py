"""One deal of a game under repair: whether it is sound and the state before the lead, as the
replayer gives them, and what is wrong with a broken deal; the deals a search meets, each made once;
and the deal edits both searches try (:class:`DealEdits`)."""
from __future__ import annotations

from dataclasses import replace

from ..position import Position, tiles_of
from ..notation.setup import is_setup
from ..record import HandEntry
from ..tiles import Tile
from .edits import SEAT, TILE, COSTS, tile_slip_cost
from .setting import Setting
from ..rules.codes import Code
from ..diagnostics import Severity

_LEAD_CODES = frozenset({Code.LEAD_PLAYER, Code.LEAD_DOUBLE})   # the replayer's complaints about who leads


def deal_key(hands) -> tuple:
    """A deal as its content: the same hands in another order are the same deal."""
    return tuple((e.player, None if e.tiles is None else tuple(sorted(e.tiles))) for e in hands)


class Deal:
    """One deal of the game. Whether it is sound, and the state before the lead for each leader,
    come from the replayer itself (a replay of the deal alone, cached); what is wrong with a broken
    deal (tiles dealt twice, foreign or missing, hands of the wrong size) is worked out here, to
    propose the deal edits."""

    def __init__(self, setting: Setting, hands: tuple[HandEntry, ...], deals: Deals | None = None):
        self.setting = setting
        self.entries = hands
        self._deals = deals             # (which counts the deal's replays: a search's work)
        self.key = deal_key(hands)
        self._leads: dict[int | None, tuple[tuple, str | None]] = {}
        self.positions: dict[int | None, Position] = {}    # the replayer's position before the lead
        self._ok: bool | None = None
        self.exposures: tuple[tuple[int, int], ...] | None = None   # (row, tiles) exposed during play: see .exposed
        v = setting.variant
        valid = setting.valid_tiles
        size = v.dealing.hand_size
        seen: dict[Tile, tuple[int, int]] = {}
        off = 0                                                # tiles too many or too few, hand by hand
        self.dups: dict[Tile, list[tuple[int, int]]] = {}      # tile -> (hand entry, place in it)
        self.foreign: list[tuple[int, int]] = []
        self.sizes: list[tuple[int, int]] = []                 # (hand entry, size) for wrong sizes
        for h, entry in enumerate(hands):
            if entry.tiles is None or entry.player not in setting.seat_of:
                continue
            for k, tile in enumerate(entry.tiles):
                if tile not in valid:
                    self.foreign.append((h, k))
                elif tile in seen:
                    self.dups.setdefault(tile, [seen[tile]]).append((h, k))
                else:
                    seen[tile] = (h, k)
            if len(entry.tiles) != size:
                self.sizes.append((h, len(entry.tiles)))
            off += abs(len(entry.tiles) + entry.unknown - size)     # (the replayer's count: the unknown tiles too)
        self.missing = sorted(valid - set(seen))
        self.hidden = any(e.tiles is None for e in hands) or len(hands) < len(setting.players)
        # the deal edits it needs at least: a deal edit changes, deletes or adds one written tile, so
        # each copy of a tile beyond its first and each foreign tile takes an edit of its own; so does each tile a
        # dealt hand has too many or too few (the replayer's deal-size; a deletion may mend a copy and a size at
        # once: the larger of the two counts; a game set up from a position has hands of any size)
        self.floor = max(sum(len(places) - 1 for places in self.dups.values()) + len(self.foreign),
                         0 if is_setup(setting.game) else off)

    @property
    def ok(self) -> bool:
        """Whether the deal itself is sound (who leads aside)."""
        if self._ok is None:
            self.lead_state(self.setting.lead_seat)
        return self._ok

    def lead_state(self, leader: int | None) -> tuple[tuple, str | None]:
        """The state before the lead when ``leader`` leads (None: as the record decides), and the
        error code: "deal" for a broken deal, "lead-player" when the rules want another leader (the
        state then has that player to move)."""
        got = self._leads.get(leader)
        if got is None:
            got = self._leads[leader] = self._replay_deal(leader)
        return got

    def _replay_deal(self, leader: int | None) -> tuple[tuple, str | None]:
        s = self.setting
        tags = {k: v for k, v in s.game.tags.items() if k != "Result"}
        if leader is not None:
            tags["Lead"] = s.players[leader]
        stub = replace(s.game, tags=tags, hands=self.entries, moves=[])
        if self._deals is not None:
            self._deals.replayed += 1
        rep = s.dealt(stub)
        pos = self.positions[leader] = rep.initial
        code = None
        errors = [d for d in rep.deal_diagnostics if d.severity == Severity.ERROR]
        deal_errors = [d for d in errors if d.code not in _LEAD_CODES]
        if self._ok is None:
            self._ok = not deal_errors
        turn = pos.turn
        if deal_errors:
            code = "deal"
        elif errors:
            code = Code.LEAD_PLAYER
            expected = str(errors[0].details.get("expected", "")).split(" or ")[0]
            turn = s.seat_of.get(expected, turn)
        hidden = tuple(pos.hidden) if any(pos.hidden) else None
        lacks = (0,) * len(s.players) if hidden else None
        state = (tuple(pos.hands), None, turn, 0, -1, None, 0, hidden, pos.pool, lacks, pos.opening, pos.exposed)
        return state, code

    def leader(self, seq: list) -> int | None:
        """Who leads ``seq``: the Lead tag's player, else the first mover the record names."""
        leader = self.setting.lead_seat
        if leader is None:
            leader = next((c[SEAT] for c in seq if c[SEAT] is not None), None)
        return leader

    def initial(self, seq: list) -> tuple[tuple, str | None]:
        """The state before the first move of ``seq`` (see :meth:`lead_state`)."""
        return self.lead_state(self.leader(seq))


class Deals:
    """The deals a search meets, each made once (the same hands in another order are one deal)."""

    def __init__(self, setting: Setting):
        self.setting = setting
        self.known: dict[tuple, Deal] = {}
        self.replayed = 0           # deals replayed so far (a replay of the hands alone, for each leader tried)

    def of(self, hands: tuple[HandEntry, ...]) -> Deal:
        key = deal_key(hands)
        deal = self.known.get(key)
        if deal is None:
            deal = self.known[key] = Deal(self.setting, hands, self)
        return deal


class DealEdits:
    """The deal edits of the repair search: those of a broken deal (both paths), and in a sound deal
    the first of an exchange (the lean search) or a dealt tile mistyped (the position path)."""

    def __init__(self, setting: Setting, deals: Deals):
        self.s = setting
        self.deals = deals

    def broken(self, seq, deal, depth):
        """The edits of a broken deal (a tile dealt twice or foreign, a hand of the wrong size): a
        dealt tile changed to a missing one, a tile too many deleted, a missing tile added. An edit whose deal
        still needs more deal edits than are left after it (``Deal.floor``) is not tried: no repair lies that way
        (a hand written empty or listed hundreds of times would otherwise try every missing tile in it)."""
        if deal.floor > depth:      # more than the edits left can mend (a hand written twice over)
            return
        for candidate in self._broken(seq, deal):
            if candidate[1].floor < depth:
                yield candidate

    def _broken(self, seq, deal):
        entries = deal.entries
        spots = [spot for places in deal.dups.values() for spot in places] + deal.foreign
        size = self.s.variant.dealing.hand_size
        long = {h for h, k in deal.sizes if k > size}
        short = {h for h, k in deal.sizes if k < size}
        for h, k in spots:
            old = entries[h].tiles[k]
            for tile in deal.missing:
                cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                yield self.edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))
        for h in long:          # a tile too many: written twice, or (any) meant for a short hand
            for k, old in enumerate(entries[h].tiles):
                if short or (h, k) in spots:
                    yield self.edit(seq, deal, h, k, None,
                                    ("deal-delete", COSTS["deal-delete"], (h, k), old, None, None))
        for h in short:
            for tile in deal.missing:
                yield self.edit(seq, deal, h, None, tile, ("deal-add", COSTS["deal-add"], (h, None), None, tile, None))

    def exchange(self, trial, depth: int, legal):
        """The lean search's edits of a sound deal: the first of an exchange between two hands
        (two deal edits), at the ``trial``'s error ``L``; ``legal``: the mover's legal moves in a frontier."""
        seq, deal, frontiers, L, code = trial
        entries = deal.entries
        if depth < 2 or L < 0 or L >= len(seq) or deal.hidden:
            return
        # an exchange between two hands takes two deal edits; the first puts the tile in question
        # into the mover's hand (or takes a playable tile out of it), the second restores the set
        c = seq[L]
        seat = c[SEAT]
        if seat is None:
            return
        h = next((i for i, e in enumerate(entries) if e.player == self.s.players[seat]), None)
        if h is None or entries[h].tiles is None:
            return
        if code == Code.TILE_NOT_HELD and c[TILE] is not None and c[TILE] in self.s.valid_tiles:
            for k, old in enumerate(entries[h].tiles):
                cost = tile_slip_cost(old, c[TILE]) + COSTS["change-deal/extra"]
                yield self.edit(seq, deal, h, k, c[TILE], ("change-deal", cost, (h, k), old, c[TILE], None))
        elif code == Code.FALSE_PASS and c[TILE] is None:
            playable = [t for t in legal(frontiers[L]) if t is not None]
            if not playable:
                # a pass with the hand's last numbers; the frontier tells what fits
                st = frontiers[L][0]
                ends = st[1]
                if ends is None:
                    return
                fit = self.s.match[ends[0]] | self.s.match[ends[1]]
                playable = tiles_of(st[0][seat] & fit, self.s.max_pip)
            others = [t for i, e in enumerate(entries) if i != h and e.tiles for t in e.tiles]
            for k, old in enumerate(entries[h].tiles):
                if old not in playable:
                    continue
                for tile in others:
                    cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                    yield self.edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))

    def in_sound_deal(self, trial, depth: int):
        """The position path's edits of a sound deal: a dealt tile mistyped for one nobody was dealt
        (a boneyard tile, or a sleeper) takes one edit, for one of another hand two (an exchange): a
        tile played that the player was not dealt; a tile he could play when he passes or draws; a
        tile drawn that the deal gives to someone. Where the record does not show every hand, only
        the first: a tile played that the player's shown hand was not dealt, or that a hand not shown
        plays and the deal gives to a shown one."""
        seq, deal, frontiers, L, code = trial
        if L < 0 or L >= len(seq) or (deal.hidden and code != Code.TILE_NOT_HELD):
            return
        c = seq[L]
        entries = deal.entries
        mine = next((i for i, e in enumerate(entries) if c.seat is not None and e.player == self.s.players[c.seat]), None)
        tile = c.entry.tile
        holder = next((i for i, e in enumerate(entries) if e.tiles and tile in e.tiles), None)
        if code in (Code.TILE_NOT_HELD, Code.LEAD_PLAYER, Code.LEAD_TILE, Code.LEAD_DOUBLE) and tile is not None \
                and not c.entry.draw and mine is not None and entries[mine].tiles is not None \
                and not entries[mine].unknown and tile not in entries[mine].tiles:
            # (the lead too: the tile the leader was not dealt may be why another should lead)
            changes = [(mine, k, old, tile) for k, old in enumerate(entries[mine].tiles)]
        elif code in (Code.LEAD_PLAYER, Code.LEAD_TILE, Code.LEAD_DOUBLE) and tile is not None and not deal.hidden:
            # the leader led a tile he holds, but the deal gives another a double that must lead
            # (the highest, or the one the rules want): that double was a tile nobody was dealt
            changes = [(h, k, old, new) for h, e in enumerate(entries) if h != mine and e.tiles
                       for k, old in enumerate(e.tiles) if old.is_double for new in deal.missing]
        elif code == Code.TILE_NOT_HELD and tile is not None and holder is not None and holder != mine and deal.hidden:
            # a hand the record does not show plays a tile the deal gives to a hand it shows: that
            # hand's tile was another, one nobody is shown to hold
            shown = {t for e in entries if e.tiles for t in e.tiles}
            changes = [(holder, entries[holder].tiles.index(tile), tile, new) for new in sorted(self.s.valid_tiles - shown)]
        elif deal.hidden:
            return
        elif code == Code.RUN_UNFINISHED:      # the player before could still play: a tile he was not dealt
            seat = frontiers[L][0].pos.turn
            mine = next((i for i, e in enumerate(entries) if e.player == self.s.players[seat]), None)
            if mine is None or entries[mine].tiles is None:
                return
            playable = set(tiles_of(frontiers[L][0].pos.playable_mask(seat), self.s.max_pip))
            changes = [(mine, k, old, new) for k, old in enumerate(entries[mine].tiles) if old in playable
                       for new in deal.missing]
        elif code in (Code.FALSE_PASS, Code.DRAW_NOT_ALLOWED, Code.DRAW_TOO_LONG) and mine is not None:
            playable = set(tiles_of(frontiers[L][0].pos.playable_mask(c.seat), self.s.max_pip))
            others = [t for i, e in enumerate(entries) if i != mine and e.tiles for t in e.tiles]
            changes = [(mine, k, old, new) for k, old in enumerate(entries[mine].tiles) if old in playable
                       for new in deal.missing + (others if depth > 1 else [])]
        elif code == Code.DRAW_NOT_IN_BONEYARD and tile is not None:
            if holder is None:
                return
            changes = [(holder, entries[holder].tiles.index(tile), tile, new) for new in deal.missing]
        else:
            return
        for h, k, old, new in changes:
            dealt = any(new in e.tiles for e in entries if e.tiles)
            if new == old or new not in self.s.valid_tiles or (dealt and depth < 2):
                continue
            cost = tile_slip_cost(old, new) + COSTS["change-deal/extra"]
            yield self.edit(seq, deal, h, k, new, ("change-deal", cost, (h, k), old, new, None))

    def edit(self, seq, deal, h, k, tile, edit):
        """``deal`` with the tile at place ``k`` of hand entry ``h`` changed to ``tile`` (``k`` None: added;
        ``tile`` None: deleted), as a candidate of the search (the moves as they are)."""
        entry = deal.entries[h]
        tiles = list(entry.tiles)
        if k is None:
            tiles.append(tile)
        elif tile is None:
            del tiles[k]
        else:
            tiles[k] = tile
        places = list(entry.tile_pos)
        if tile is None and k is not None and k < len(places):
            del places[k]
        hands = list(deal.entries)
        hands[h] = replace(entry, tiles=tuple(tiles), tile_pos=tuple(places))
        return seq, self.deals.of(tuple(hands)), 0, edit, -1
