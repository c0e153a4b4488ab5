"""One deal of a game under repair: whether it is sound and the state before the lead, as the
replayer gives them, and what is wrong with a broken deal (the deal edits of the lean search)."""
from __future__ import annotations

from dataclasses import replace

from ..position import Position, tiles_of
from ..record import HandEntry
from ..tiles import Tile
from .edits import _SEAT, _TILE, COSTS, tile_slip_cost
from .setting import Setting
from ..rules.codes import Code

_LEAD_CODES = frozenset({Code.LEAD_PLAYER, Code.LEAD_DOUBLE})   # the replayer's complaints about who leads


def _deal_key(hands) -> tuple:
    """A deal as its content: the same hands in another order are the same deal."""
    return tuple((e.player, None if e.tiles is None else tuple(sorted(e.tiles))) for e in hands)


class _Deal:
    """One deal of the game. Whether it is sound, and the state before the lead for each leader,
    come from the replayer itself (a replay of the deal alone, cached); what is wrong with a broken
    deal (tiles dealt twice, foreign or missing, hands of the wrong size) is worked out here, to
    propose the deal edits."""

    def __init__(self, setting: Setting, hands: tuple[HandEntry, ...]):
        self.setting = setting
        self.entries = hands
        self.key = _deal_key(hands)
        self._leads: dict[int | None, tuple[tuple, str | None]] = {}
        self.positions: dict[int | None, Position] = {}    # the replayer's position before the lead
        self._ok: bool | None = None
        self.exposures: tuple[tuple[int, int], ...] | None = None   # (row, tiles) exposed during play: see .exposed
        v = setting.variant
        valid = setting.valid_tiles
        size = v.dealing.hand_size
        seen: dict[Tile, tuple[int, int]] = {}
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
        self.missing = sorted(valid - set(seen))
        self.hidden = any(e.tiles is None for e in hands) or len(hands) < len(setting.players)
        # the deal edits it needs at least: a deal edit changes, deletes or adds one written tile, so
        # each copy of a tile beyond its first and each foreign tile takes an edit of its own
        self.floor = sum(len(places) - 1 for places in self.dups.values()) + len(self.foreign)

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
        rep = s.replayed(stub)
        pos = self.positions[leader] = rep.initial
        code = None
        errors = [d for d in rep.deal_diagnostics if d.severity == "error"]
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
            leader = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        return leader

    def initial(self, seq: list) -> tuple[tuple, str | None]:
        """The state before the first move of ``seq`` (see :meth:`lead_state`)."""
        return self.lead_state(self.leader(seq))


class _DealEdits:
    """The deal edits of the lean search (a part of :class:`analyzer.repair.lean._Search`)."""

    def deal_candidates(self, seq, deal, frontiers, L, code, depth):
        entries = deal.entries
        if not deal.ok:
            if deal.floor > depth:      # more than the edits left can mend (a hand written twice over)
                return
            spots = [spot for places in deal.dups.values() for spot in places] + deal.foreign
            size = self.variant.dealing.hand_size
            long = {h for h, k in deal.sizes if k > size}
            short = {h for h, k in deal.sizes if k < size}
            for h, k in spots:
                old = entries[h].tiles[k]
                for tile in deal.missing:
                    cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                    yield self.deal_edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))
            for h in long:          # a tile too many: written twice, or (any) meant for a short hand
                for k, old in enumerate(entries[h].tiles):
                    if short or (h, k) in spots:
                        yield self.deal_edit(seq, deal, h, k, None,
                                             ("deal-delete", COSTS["deal-delete"], (h, k), old, None, None))
            for h in short:
                for tile in deal.missing:
                    yield self.deal_edit(seq, deal, h, None, tile, ("deal-add", COSTS["deal-add"], (h, None), None, tile, None))
            return
        if depth < 2 or L < 0 or L >= len(seq) or deal.hidden:
            return
        # an exchange between two hands takes two deal edits; the first puts the tile in question
        # into the mover's hand (or takes a playable tile out of it), the second restores the set
        c = seq[L]
        seat = c[_SEAT]
        if seat is None:
            return
        h = next((i for i, e in enumerate(entries) if e.player == self.players[seat]), None)
        if h is None or entries[h].tiles is None:
            return
        if code == Code.TILE_NOT_HELD and c[_TILE] is not None and c[_TILE] in self.valid_tiles:
            for k, old in enumerate(entries[h].tiles):
                cost = tile_slip_cost(old, c[_TILE]) + COSTS["change-deal/extra"]
                yield self.deal_edit(seq, deal, h, k, c[_TILE], ("change-deal", cost, (h, k), old, c[_TILE], None))
        elif code == Code.FALSE_PASS and c[_TILE] is None:
            playable = [t for t in self.legal(frontiers[L]) if t is not None]
            if not playable:
                # a pass with the hand's last numbers; the frontier tells what fits
                st = frontiers[L][0]
                ends = st[1]
                if ends is None:
                    return
                fit = self.match[ends[0]] | self.match[ends[1]]
                playable = tiles_of(st[0][seat] & fit, self.max_pip)
            others = [t for i, e in enumerate(entries) if i != h and e.tiles for t in e.tiles]
            for k, old in enumerate(entries[h].tiles):
                if old not in playable:
                    continue
                for tile in others:
                    cost = tile_slip_cost(old, tile) + COSTS["change-deal/extra"]
                    yield self.deal_edit(seq, deal, h, k, tile, ("change-deal", cost, (h, k), old, tile, None))

    def deal_edit(self, seq, deal, h, k, tile, edit):
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
        return seq, self.deal_for(tuple(hands)), 0, edit, -1
