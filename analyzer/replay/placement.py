"""Where a tile the record leaves undecided went (a book table prints no ``@N``; a tile that fits two arms):
the placement the rest of the record agrees with, found by looking ahead.

A part of the replayer (:class:`analyzer.replay._Replayer`), which holds the game and what the replay has
found so far (``played``, ``scores``, ``pending``; ``path``, the undecided placements taken, and ``chosen``, the
choices made by entry and path), replays the rest of the record (``run``) and scores a play (``score_play``)."""
from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..position import Position, ends_text
from ..record import MoveEntry
from ..rules.replayed import undecided_placement
from ..tiles import Move


class Placing:
    """The replayer's placement of a playable entry: ``placed``, ``choose``."""

    def placed(self, pos: Position, moves: list[MoveEntry], i: int, candidates: list[Move], collect: bool,
               diags: list[Diagnostic]) -> Move:
        """The placement of the playable entry ``moves[i]``: the one candidate, or the one the rest of the record
        agrees with (``choose``), said when the record leaves it undecided."""
        entry = moves[i]
        if len(candidates) <= 1:
            return candidates[0]
        # what is replayed from here depends only on the placements taken before: the same choice again
        # (the replay's own, after a look-ahead of the placement it takes found it) is not looked for again;
        # not where passes are inserted (each look-ahead reads its own copy of the moves, numbered anew)
        key = (i, tuple(self.path))
        found = None if self.insert_passes or self.skip_out else self.chosen.get(key)
        if found is None:
            found = self.chosen[key] = self.choose(pos, i, candidates, moves)
        move, ambiguous = found
        self.path.append((i, move))
        if ambiguous and collect:
            pos.push(move)
            harmless = pos.outcome() is not None
            pos.pop()
            ends = pos.ends_text() if move.arm is not None else ends_text(pos.ends)   # (a line: both its ends)
            diags.append(self.problem(undecided_placement(entry.tile, candidates, move, pos.has_arms, ends, harmless),
                                      entry.pos))
        return move

    def choose(self, pos: Position, i: int, candidates: list[Move], moves: list[MoveEntry] | None = None
               ) -> tuple[Move, bool]:
        """Pick the placement the rest of the record agrees with; say whether it stays undecided.

        A placement under which the first error comes later wins (a move is reported illegal only if
        it is illegal under every placement the record allows), then the one with fewer errors. Each
        look-ahead first stops at its first error (where it comes is all a placement that loses needs:
        the errors after it, nested undecided placements among them, would only be counted); only the
        placements whose first error comes latest, if it comes at all, are then counted to the end."""
        moves = moves if moves is not None else self.game.moves
        looked = [self._ahead(pos, i, move, moves, whole=False) for move in candidates]
        latest = max(at for _, at, _ in looked)
        scored = []
        for move, (errors, at, whole) in zip(candidates, looked):
            if at == latest and not whole:
                errors, at, _ = self._ahead(pos, i, move, moves, whole=True)
            scored.append(((-at, errors), move))
        scored.sort(key=lambda s: s[0])
        return scored[0][1], scored[0][0] == scored[1][0]

    def _ahead(self, pos: Position, i: int, move: Move, moves: list[MoveEntry], whole: bool
               ) -> tuple[int, int, bool]:
        """The rest of the record after entry ``i`` placed as ``move``: its errors, the index of its first
        error (``len(self.game.moves) + 1`` when none comes), and whether those errors are all of them
        (``whole``: counted to the end; else the look-ahead stops at its first error)."""
        clean = len(self.game.moves) + 1
        scores, pending, taken = list(self.scores), self.pending, len(self.path)
        self.path.append((i, move))
        pos.push(move)
        self.played[move.tile] = -1
        claimed = [p for p in self.score_play(pos, moves[i], pos.history[-1][1], move)[0] if p[3] == Severity.ERROR]
        if claimed and not whole:                 # (its first error is the placement itself)
            errors, first, counted = len(claimed), i, False
        else:
            errors, _, first = self.run(pos, i + 1, collect=False, moves=moves,
                                        give_up=None if whole else clean)
            counted = whole or first is None         # (none: it went to the end)
            if claimed:
                errors, first = errors + len(claimed), i
        del self.played[move.tile]
        del self.path[taken:]
        pos.pop()
        self.scores, self.pending = scores, pending
        return errors, clean if first is None else first, counted

