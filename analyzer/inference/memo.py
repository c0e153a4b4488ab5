"""The deals of a sheet kept for the next call that asks of the same game (:func:`remembering`).

Listing the deals a sheet allows (a record that does not write every hand) is the dearest part of replaying it:
a Kozel match of nine handless games takes a few tenths of a second, where the same match with its hands written
takes a hundredth. A caller that replays the same record again and again, each time with a small change (the
board: every request sends the whole text, and a click changes one game), opens :func:`remembering` with a
:class:`DealMemo` it keeps; within the block the deals of a game whose own content, variant and match terms were
seen before are taken from the memo instead of listed again. A game's key is what it is made of as read (its
tags, players, hands and moves: not where it stands in the text, so an edit of another game leaves it alone),
the variant with its rules, and what the match decided of it (who leads, its worth): any change of these lists
its deals anew.

Outside :func:`remembering` nothing is kept: the library holds no cache of its own, and a memo lives as long as
its caller keeps it. A value is kept with the steps listing it cost (:mod:`analyzer.inference.meter`), and a
caller whose meter remembers (the record's budget of its sheets' checks) takes it charged those steps, the count
the same as had it listed the deals again; any other metered caller (the repair search, which must count every step
and would fill the memo with its candidates) always lists anew. A :class:`DealMemo` is bounded (the least recently
used game goes first) and may be shared by threads.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Hashable, Iterator, NamedTuple, TypeVar

from .meter import current_meter, metered

__all__ = ["DealMemo", "remembering", "remembered", "game_key"]

T = TypeVar("T")

SIZE = 96       # the values a memo keeps by default: of 32 games, each its deals, their listing and the result they give


class DealMemo:
    """The deals of the last ``size`` games asked of (each a value the inference computed, under its key), and
    how often one was computed (``computed``) or taken from here (``reused``)."""

    def __init__(self, size: int = SIZE):
        if size < 1:
            raise ValueError(f"a memo keeps at least one game, not {size}")
        self.size = size
        self.computed = 0
        self.reused = 0
        self._kept: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept under ``key``, else ``compute()`` kept (an exception it raises is not kept). Two threads
        asking for a key not yet kept may both compute it: the values are equal, the last one is kept."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                self.reused += 1
                return self._kept[key]        # type: ignore[return-value]
        value = compute()
        with self._lock:
            self.computed += 1
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_MEMO: ContextVar[DealMemo | None] = ContextVar("deal_memo", default=None)


@contextmanager
def remembering(memo: DealMemo | None) -> Iterator[DealMemo | None]:
    """Within the block the deals of a game are taken from ``memo`` where it holds them, else listed and kept
    there (None: nothing kept, as outside any block)."""
    token = _MEMO.set(memo)
    try:
        yield memo
    finally:
        _MEMO.reset(token)


def game_key(rep) -> tuple:
    """What the deals of the replayed game ``rep`` depend on: the game as read (not its place in the text), the
    variant and its rules, what the match decided of it, whether passes were put in, and a set-up's start."""
    g = rep.game
    return (tuple(sorted(g.tags.items())), tuple(g.players), tuple(g.hands), tuple(g.moves), tuple(g.comments),
            g.remark, rep.variant, tuple(rep.players), rep.lead, rep.worth, rep.written is not None,
            rep.setup_lacks, rep.start_scores)


class _Costed(NamedTuple):
    """A value kept, and the steps computing it took."""

    value: object
    steps: int


def remembered(rep, what: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, the value ``what`` of game ``rep``'s deals, taken from the memo of the enclosing
    :func:`remembering` block where it holds it (computed and kept there otherwise; computed alone outside a
    block, or under a meter that does not remember). Under a meter that remembers, a value taken from the memo
    is charged the steps it cost (see the module)."""
    memo = _MEMO.get()
    meter = current_meter()
    if memo is None or (meter is not None and not meter.remember):
        return compute()
    try:
        key = (what, game_key(rep))
        hash(key)
    except TypeError:                 # (a game holding something unhashable: not kept)
        return compute()
    fresh = []

    def costed() -> _Costed:
        fresh.append(True)
        if meter is None:             # (counted all the same, for a metered caller that takes it later)
            with metered(float("inf"), remember=True) as counting:
                value = compute()
            return _Costed(value, counting.spent)
        before = meter.spent
        value = compute()
        return _Costed(value, meter.spent - before)
    kept = memo.get(key, costed)
    if not fresh and meter is not None:
        meter.charge(kept.steps)
    return kept.value                 # type: ignore[return-value]
