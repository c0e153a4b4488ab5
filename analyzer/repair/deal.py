"""One deal of a game under repair: whether it is sound and the state before the lead, as the
replayer gives them, and what is wrong with a broken deal (the deal edits of the lean search)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..position import Position
from ..record import HandEntry
from ..tiles import Tile
from .edits import _SEAT

if TYPE_CHECKING:
    from .lean import _Search

_LEAD_CODES = frozenset({"lead-player", "lead-double"})   # the replayer's complaints about who leads


def _deal_key(hands) -> tuple:
    """A deal as its content: the same hands in another order are the same deal."""
    return tuple((e.player, None if e.tiles is None else tuple(sorted(e.tiles))) for e in hands)


class _Deal:
    """One deal of the game. Whether it is sound, and the state before the lead for each leader,
    come from the replayer itself (a replay of the deal alone, cached); what is wrong with a broken
    deal (tiles dealt twice, foreign or missing, hands of the wrong size) is worked out here, to
    propose the deal edits."""

    def __init__(self, search: _Search, hands: tuple[HandEntry, ...]):
        self.search = search
        self.entries = hands
        self.key = _deal_key(hands)
        self._leads: dict[int | None, tuple[tuple, str | None]] = {}
        self.positions: dict[int | None, Position] = {}    # the replayer's position before the lead
        self._ok: bool | None = None
        v = search.variant
        valid = search.valid_tiles
        size = v.dealing.hand_size
        seen: dict[Tile, tuple[int, int]] = {}
        self.dups: dict[Tile, list[tuple[int, int]]] = {}      # tile -> (hand entry, place in it)
        self.foreign: list[tuple[int, int]] = []
        self.sizes: list[tuple[int, int]] = []                 # (hand entry, size) for wrong sizes
        for h, entry in enumerate(hands):
            if entry.tiles is None or entry.player not in search.seat_of:
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
        self.hidden = any(e.tiles is None for e in hands) or len(hands) < len(search.players)
        # the deal edits it needs at least: a deal edit changes, deletes or adds one written tile, so
        # each copy of a tile beyond its first and each foreign tile takes an edit of its own
        self.floor = sum(len(places) - 1 for places in self.dups.values()) + len(self.foreign)

    @property
    def ok(self) -> bool:
        """Whether the deal itself is sound (who leads aside)."""
        if self._ok is None:
            self.lead_state(self.search.lead_seat)
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
        s = self.search
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
            code = "lead-player"
            expected = str(errors[0].details.get("expected", "")).split(" or ")[0]
            turn = s.seat_of.get(expected, turn)
        hidden = tuple(pos.hidden) if any(pos.hidden) else None
        lacks = (0,) * len(s.players) if hidden else None
        state = (tuple(pos.hands), None, turn, 0, -1, None, 0, hidden, pos.pool, lacks, pos.opening)
        return state, code

    def leader(self, seq: list) -> int | None:
        """Who leads ``seq``: the Lead tag's player, else the first mover the record names."""
        leader = self.search.lead_seat
        if leader is None:
            leader = next((c[_SEAT] for c in seq if c[_SEAT] is not None), None)
        return leader

    def initial(self, seq: list) -> tuple[tuple, str | None]:
        """The state before the first move of ``seq`` (see :meth:`lead_state`)."""
        return self.lead_state(self.leader(seq))
