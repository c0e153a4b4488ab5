"""Suggest the repair of a broken transcription: the fewest, most plausible edits that make it legal.

A record that does not replay was usually copied wrong: a row dropped, a tile mistyped, a cell put in
the next column. :func:`repair` searches for the smallest sets of edits after which every move is
legal and, when the record states a result (its ``Result`` tag), the hand ends exactly so. Repairs
are ranked by the number of edits, then by how likely each edit is as a slip of the pen (the cost
table below), and the best few come back as plain data, each with its repaired copy of the game.
The input game is never changed.

Edits and their costs (lower is a likelier slip; a repair costs the sum of its edits)::

    kind            what the copyist did                                          cost
    insert-move     dropped a Muggins call, where the record leaves a play's       0.25
                    points unclaimed and the Score tag counts just that call
                    (the slip shows twice; see analyzer.repair.muggins)
    change-end      wrote the wrong open number (@n) for a tile                    0.3
    change-result   wrote the wrong Result tag (side, points or how it ended)      0.3
                    while the moves agree with each other
    change-score    wrote the wrong match score (Score tag) after a legal game     0.3
    change-arm      wrote the wrong arm (>n) for a tile, or one it did not need    0.3
    change-tile     one half of a tile off by one:   [5-6] for [5-5]               0.4
    change-draw     one half of a drawn tile off by one: draws [2-6] for [2-5]     0.4
    change-claim    wrote the wrong points (+n) for a play, or a claim for a       0.4
                    pass or a draw
    change-muggins  wrote the wrong points for a Muggins call                      0.4
    change-player   put the cell in the next column (the neighbour's move)         0.5
    change-deal     one half of a dealt tile off by one                            0.5
    change-arm      wrote an arm (>n) the tile did not have                        0.5
    insert-move     dropped a pass                                                 0.6
    insert-cell     dropped a pass from a table row (the cells after it stand      0.6
                    one column to the left; it puts them back), a tile: 0.8
    insert-move     dropped a draw                                                 0.6
                    (0.55 written as the record writes that player's draws:
                    ``draws ?`` where it never shows them, a tile where it always does)
    change-draw     a play written for a draw of the same tile, or the reverse     0.6
    swap-moves      swapped two neighbouring cells (same row, or same column       0.6
                    in the next row)
    swap-order      wrote two moves in the wrong order (the next player's first;   0.6
                    the PGN-like form, where each move names its player)
    change-tile     one half changed by more than one: [2-6] for [5-6]             0.7
    delete-move     wrote a pass that was never made                               0.7
    delete-cell     wrote a cell of a table row twice (the cells after it stand    0.7
                    one column to the right; it puts them back), a tile: 0.8;
                    also a cell of a full row that has one too many
    delete-move     wrote a draw that was never made                               0.7
    insert-move     dropped a tile                                                 0.8
    delete-move     wrote a tile that was never played                             0.8
    delete-move     wrote a Muggins call that was never made                       0.8
    change-deal     one half of a dealt tile changed by more than one              0.8
    change-tile     both halves off by one                                         0.9
    change-tile     a tile for a pass, or a pass for a tile                        0.9
    change-player   put the cell in a column that is not next to it                0.9
    deal-add        dropped a tile from a hand (the hand is short)                 0.9
    deal-delete     wrote a tile into a hand twice (the hand is long)              0.9
    insert-row      dropped a whole row of the table (one edit)                    1.0
    delete-row      copied a row twice (one edit)                                  1.0
    swap-moves      swapped two cells further apart                                1.0
    change-tile     both halves changed                                            1.0
    change-deal     both halves of a dealt tile changed                            1.1

A drawn tile changed by more costs what change-tile costs for it (0.7 to 1.0). "Swapped halves"
([6-5] for [5-6]) is no slip at all: a tile reads the same either way round. An entry inserted or
changed to a tile that fits several open ends or arms is written with its ``@n`` (and ``>n``), one
candidate for each; an inserted play of All Fives claims what it scores (``+n``) unless a Muggins
call follows it. A missed claim is left alone: it is a warning, not an error.

The search. A repair must touch the record at or before its first error (the moves before it are
legal and stay so unless an edit changes them), so the edits are searched left to right: each edit
lies at or before the first error of the record as the earlier edits left it, and whatever an edit
writes (a changed tile, an inserted move or row, the move swapped in) must be legal where it
stands, so only the mover's legal moves at that point are ever tried. A depth-limited search applies
one edit, replays from the edit point to the next first error, and tries the next edit there.
Replaying uses a lean checker of its own for the moves (the rules of :func:`analyzer.replay.replay`
on bit-mask states kept for every move of the line, so a trial restarts from the edit point instead
of from the deal; when a tile fits both open ends it follows both; a hand ends the variant's way);
the deal, who may lead and with what, and the score of a finished hand are the replayer's own (a
replay of the deal alone per deal and leader, and a full replay of a line that ends the stated way,
both cached). Deal edits come first:
they fix a broken deal (a tile dealt twice, a tile missing, a hand of the wrong size) or, in pairs,
exchange a tile between two hands. Every repair that is returned is confirmed by
:func:`~analyzer.replay.replay`.

Two rules prune further without losing a repair. A tile an edit writes that the record plays again
later needs an edit of its own at that later cell (nothing left of it can change any more), so the
last edit may write only tiles the rest of the record never plays, and the one before it at most one
such tile (or a row's worth, which one deleted row removes). And some errors the last edit must
cure are local: a move out of turn needs a move more or fewer before it, a foreign tile or an
unknown player an edit at that move, a tile played twice an edit at either play, a tile from
another hand a swap with it (unless the hand ends earlier and only passes follow).

A log that leaves forced passes out (``[Passes "omitted"]``, or ``--insert-passes``) is repaired as
written: the lean checker lets every player before the mover who can only pass, pass, as the replayer
inserts those passes, and the repaired record leaves them out as well (the position path does not
insert them).

Draws, claims, arms and runs. The lean checker knows one kind of game: turns in order on a
two-ended line. The draw games, All Fives (claimed points and Muggins calls), the layouts with arms
(French, cross) and Hungarian runs -- and any record that writes a draw, a claim, a Muggins call or
an arm, or a Domino Whist false play that stands (its FalsePlay tag) -- take the position path instead: the same left-to-right search, whose checker drives the
variant's own position (:func:`analyzer.rules.mechanics.position_for`, as the replayer sets it up for
the deal) entry by entry with the replayer's rules, keeping a copy of the position before every
entry; the candidates are the mover's legal entries there (plays on every end or arm they fit, the
pass, a draw of every tile the boneyard may hold, and the false play a FalsePlay tag says stands, where
it lies) and the edits of the table above. A trial costs
about ten lean ones, so this path searches one edit first and stops at the smallest size that has a
repair (its counts say nothing of larger ones), its budget is 40,000 trials, the variant's scoring of
the final position rules a line out before the replayer is asked, and the last edit's focus is
sharper: a move out of turn (one turn per play or pass) needs the number of plays and passes before
it changed (a draw keeps the turn); a tile that fits no end or arm, or a claim the ends do not give,
needs the plays before it changed (draws, passes and claims cannot help); a tile not held needs a
draw of it (or a swap); a tile drawn that is not in the boneyard an edit at an entry with that tile.
A sound deal gets its deal edits from the first error: a dealt tile that should have been a boneyard
tile (one edit) or another hand's (an exchange, two).

Tags: a record whose moves all agree with each other but whose Result tag states another result
(side, points or how the hand ended) gets the one edit that writes the true result
(``change-result``); a wrong match score is mended the same way by :mod:`analyzer.repair.triage`,
which sees the match. A broken record with a wrong Result as well is searched as before (the moves
must reproduce the stated result); when nothing is found so, the moves are searched with one edit
fewer for any end, and each such repair gets the edit of the Result tag to the result it gives.

A table row written with cells too many (the reader keeps one cell per column and reports the rest,
``too-many-cells``): given the reader's errors (``notation``), every repair deletes cells of that row,
wherever they stand, and the cells after them come back into their columns, the ones the reader left
out too; each way is searched with the edits left (:mod:`analyzer.repair.overflow`).

Exposed tiles (Domino Whist §8, the ``Exposed`` tag): both checkers hold every player to them as the
judge does -- the lean state keeps the live exposed tiles and asks :func:`analyzer.position.exposed_turn`
at each play, the position path asks the judge -- so a slip that involves an exposed tile is found like
any other and no candidate that breaks the rule is kept. A tile exposed during play lies open from its
row as the repaired record numbers its rows (see :mod:`analyzer.repair.exposed`). A record whose only
errors are exposed tiles not played (nothing else wrong) is not searched: it reads as that irregularity
of play, and the error stands (the report's ``problem`` says so); a record with other errors too is
searched as usual (a repair makes every move legal), and when nothing is found the report says that the
exposed tile may have been a real irregularity beside a slip.

What it does not do: change the Lead tag, insert or change moves after the hand is over (it deletes
them; nor does a swap or a shift of cells write a pass after the end where the record has a tile: a
stray pass before the last cell of a short last row is deleted, 0.7, not swapped behind the tile that
ends the hand, 0.6, which would add a pass nobody wrote), restore a dropped first row unless what
remains starts a row, or exchange tiles between hands in one edit (that takes two deal edits). Two edits at one cell
are tried only as "the cell goes to the player on turn, then its tile changes or is swapped". On the
position path it does not insert a whole dropped row (each entry is an edit of its own), change who
leads when no Lead tag names him, add a claim or a Muggins call the record did not write (a missed
score is only a warning; but a dropped call that the match's Score tag counts is put back by
:func:`analyzer.repair.triage.search_slips`, which sees the match), or turn a draw into ``draws ?``;
and it cannot tell apart draws of tiles
the record never shows again: every boneyard tile that leaves the stated result is an equally good
repair, and the report says how many tie.
"""
from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext
from ..inference.meter import StepsSpent, metered
from ..record import Game
from ..replay import MatchTerms, Replay, replay, resolve_variant
from ..match import check_decided_result   # (the stated result, checked as the match checks it)
from ..rules import Variant
from ..rules.codes import Code
from .builder import repaired_result
from .edits import NAME, ORIG, TILE, COSTS, Edit, Repair, RepairLimits, RepairReport, edit_count, tile_slip_cost
from .overflow import overflow_repairs, overflow_rows
from .positional import Entry, needs_positions
from .search import REPLAY_WORK, STEP_WORK, PositionSearch, Search, out_of_time, replayed_within, work_left
from ..diagnostics import Severity

__all__ = ["repair", "first_error", "tag_repair", "RepairLimits", "RepairReport", "Repair", "Edit", "COSTS",
           "tile_slip_cost"]

_DOING = {
    "insert-row": N_("insert a row"), "delete-row": N_("delete a row"), "insert-move": N_("insert a move"),
    "delete-move": N_("delete a move"), "insert-cell": N_("insert a dropped cell"), "delete-cell": N_("delete a cell"),
    "change-tile": N_("change a tile"), "change-end": N_("change an open number"),
    "change-player": N_("move a cell to another column"), "swap-moves": N_("swap two moves"),
    "swap-order": N_("put two moves in order"),
    "change-deal": N_("change a dealt tile"), "deal-add": N_("add a tile to a hand"),
    "deal-delete": N_("remove a tile from a hand"),
    "change-draw": N_("change a draw"), "change-arm": N_("change an arm"), "change-claim": N_("change a claim"),
    "change-muggins": N_("change a Muggins call"),
    "change-result": N_("change the Result tag"), "change-score": N_("change the Score tag"),
}


def in_common(repairs: list[Repair]) -> list[str]:
    """What several equally good repairs have in common: "all insert a row in round 7"."""
    if len(repairs) < 2:
        return []
    out = []
    sizes = {len(r.edits) for r in repairs}
    if len(sizes) == 1:
        for slot in range(sizes.pop()):
            edits = [r.edits[slot] for r in repairs]
            kinds = {e.kind for e in edits}
            what = gettext(_DOING[edits[0].kind]) if len(kinds) == 1 else gettext("make an edit")
            if len({(e.line, e.column, e.index, e.at_end) for e in edits}) == 1 and edits[0].where:
                out.append(gettext("all {what} at the same place ({place})", what=what, place=edits[0].where))
            elif len({(e.index, e.at_end) for e in edits}) == 1 and edits[0].player and edits[0].index is not None:
                out.append(gettext("all {what} at {player}'s move (move {number})", what=what,
                                   player=edits[0].player, number=edits[0].index + 1))
            elif len({e.round for e in edits}) == 1 and edits[0].round is not None:
                out.append(gettext("all {what} in round {round}", what=what, round=edits[0].round))
            elif len({e.player for e in edits}) == 1 and edits[0].player:
                out.append(gettext("all {what} of {player}", what=what, player=edits[0].player))
            elif len(kinds) == 1:
                out.append(gettext("all {what}", what=what))
    results = {r.result_text for r in repairs}
    if len(results) == 1:
        out.append(gettext("all give the same result: {result}", result=results.pop()))
    return out


def first_error(game: Game, variant: Variant | str | None = None, *, rules: dict[str, str] | None = None,
                terms: MatchTerms = MatchTerms()) -> tuple[int | None, str | None]:
    """Where the repair search's own checker sees the first error of ``game``: the move's index
    (-1: the deal; ``len(game.moves)``: the end disagrees with the stated result) and a short code,
    or (None, None) when the record is legal. It agrees with ``replay(game).valid``; when a tile
    fits both ends it follows both, so the index may lie past ``Replay.legal_prefix``. ``terms`` as for
    :func:`repair`."""
    variant, _ = resolve_variant(game, variant, rules)
    search = _searcher(game, variant)(game, variant, 0, 0, terms.lead, terms.worth)
    search.max_work = float("inf")      # (no search: its stated result checked over every deal it allows)
    return search.run(search.cells(game), 0, None, search.deal_for(tuple(game.hands)), None)


def _searcher(game: Game, variant: Variant) -> type[Search]:
    """The lean search for the two-ended block games, the position path for everything else."""
    return PositionSearch if needs_positions(game, variant) else Search


def repair(game: Game, variant: Variant | str | None = None, *, rules: dict[str, str] | None = None,
           terms: MatchTerms = MatchTerms(), limits: RepairLimits = RepairLimits(),
           notation: list[Diagnostic] | None = None) -> RepairReport:
    """Find the smallest, likeliest sets of at most ``limits.max_edits`` edits that make ``game`` legal and
    agree with its stated result; return the best ``limits.limit`` (each with a repaired copy of the game).

    ``variant`` and ``rules`` as for :func:`~analyzer.replay.replay` (default: the record's Variant
    and Rules tags); ``terms``: who must lead, and what the game is worth after drawn games (its Result
    may state that), when a match decides them, as the replayer takes them.
    ``limits.max_nodes`` bounds the number of candidate records tried (the report says when it stopped); by
    default 400,000 for the two-ended block games and 40,000 on the slower position path (draws,
    claims, arms, runs). ``notation``: the errors met reading the game (``Record.errors``, or
    ``Replay.notation``): a table row reported with cells too many is repaired with every cell it
    was written with (see :mod:`analyzer.repair.overflow`)."""
    variant, problems = resolve_variant(game, variant, rules)
    rows = overflow_rows(game, notation) if notation else []
    if rows:
        return _overflowing(game, rows, variant, terms, limits)
    max_edits, limit, max_nodes = limits.max_edits, limits.limit, limits.max_nodes
    lead, worth = terms.lead, terms.worth
    kind = _searcher(game, variant)
    if max_nodes is None:
        max_nodes = kind.default_nodes
    # a candidate replays the deal as listed: a deal listed many times over (hand lines repeated by the
    # hundred) costs that many times more per candidate, so the bound shrinks by as much (the work stays bounded)
    copies = len(game.hands) / max(len(game.players), 1)
    if copies > 2:
        max_nodes = max(1, int(max_nodes / copies))
    search = kind(game, variant, max_edits, max_nodes, lead, worth)
    stated = game.tags.get("Result")
    original = search.replayed(game)
    if original.valid:
        return RepairReport(game, True, stated, max_edits, [], {}, 0, [], True, 0)
    mended = tag_repair(original, "Result", "change-result", str(original.actual_result)
                        if original.actual_result is not None else None, Code.RESULT_MISMATCH)
    search.problem = _why_not(search.problem, problems, original.errors)
    _, legal = search.search(game)
    search.settle()
    work = search.work
    if legal:     # the replayer objects to something no edit of moves or deal touches
        search.problem = gettext("no edit of the moves or the deal can help: {message}",
                                 message=original.errors[0].message)
    confirmed, counts, best_rank = _confirmed(search, limit)
    cut = False             # the repairs of the second search not all confirmed: the work ran out
    if not confirmed and mended is None and stated is not None and search.problem is None and max_edits > 1:
        # nothing ends as stated: the Result tag may be a slip too (one edit of it, the rest of the moves)
        second = kind(game, variant, max_edits - 1, max_nodes, lead, worth)
        second.max_work = min(second.max_work, max(0, search.max_work - search.work))   # one budget, shared
        confirmed = _with_result(second, game, limit)
        cut = second.out_of_work
        second.settle()
        work += second.work
        counts = {}
        for r in confirmed:
            counts[len(r.edits)] = counts.get(len(r.edits), 0) + 1
        best_rank = (len(confirmed[0].edits), round(confirmed[0].cost, 6)) if confirmed else None
    if mended is not None:        # the tag edit ranks with the others by its size and cost
        confirmed.append(mended)
        confirmed.sort(key=lambda r: (len(r.edits), round(r.cost, 6)))
        counts[1] = counts.get(1, 0) + 1
        best_rank = (len(confirmed[0].edits), round(confirmed[0].cost, 6))
    counts = {k: v for k, v in counts.items() if v > 0}
    if not confirmed and search.problem is None and any(d.code == Code.EXPOSED_TILE for d in original.errors):
        search.problem = _unkept(original.errors, max_edits, not search.stopped)
    best = [r for r in confirmed if (len(r.edits), round(r.cost, 6)) == best_rank]
    return RepairReport(game, False, stated, max_edits, confirmed[:max(limit, 0)], counts, len(best),
                        in_common(best), not search.stopped and not cut, search.nodes, search.problem, work)


def _why_not(problem: str | None, problems: list[Diagnostic], errors: list[Diagnostic]) -> str | None:
    """Why the record is not searched (None: it is), given the search's own ``problem`` (its Result
    tag unreadable, say), the ``problems`` of its variant and the replayer's ``errors``."""
    if any(d.severity == Severity.ERROR for d in problems):
        return next(d.message for d in problems if d.severity == Severity.ERROR)
    if any(d.code in _UNEDITABLE for d in errors):     # no edit of moves or deal changes the players
        return gettext("no edit of the moves or the deal can help: {message}",
                       message=next(d.message for d in errors if d.code in _UNEDITABLE))
    if all(d.code == Code.EXPOSED_TILE for d in errors):
        return _irregular(errors)
    if all(d.code == Code.BAD_EXPOSED for d in errors):     # the moves and the deal agree: the tag does not
        return gettext("the Exposed tag is what is wrong ({message}): correct the tag; no edit of the moves is made "
                       "to fit it", message=errors[0].message)
    return problem


def _confirmed(search: Search, limit: int) -> tuple[list[Repair], dict[int, int], tuple | None]:
    """The repairs ``search`` found, best first, that the replayer confirms: the best ``limit`` and
    the ones tied with the last of them (up to ``_MAX_TIES`` more); how many of each size there are;
    and the best rank (size, cost)."""
    builder = search.builder
    found = list(search.found.values())
    singles = {_ident(f.edits[0]) for f in found if f.size == 1}
    found = [f for f in found if f.size == 1 or not any(_ident(e) in singles for e in f.edits)]
    found.sort(key=lambda f: (f.size, round(f.cost, 6), _order(f.edits)))
    counts: dict[int, int] = {}
    for f in found:
        counts[f.size] = counts.get(f.size, 0) + 1
    confirmed: list[Repair] = []
    best_rank = None
    for size, cost, edits, seq, deal in found:
        rank = (size, round(cost, 6))
        if len(confirmed) >= limit and rank != best_rank or len(confirmed) >= limit + _MAX_TIES:
            break
        # each replay taken from the record's budget of work (the replayer may reject thousands the checker found),
        # and so is the check of a game hiding hands, its stated result over the deals they allow (stopped where
        # the work runs out); its time bounds it too
        if work_left(REPLAY_WORK * (len(seq) + 1)) < 0 or out_of_time():
            search.out_of_work = True
            break
        repaired = builder.game_for(seq, deal)
        rep, spent = replayed_within(search.setting, repaired, work_left())
        work_left(spent)
        if rep is None:
            search.out_of_work = True
            break
        if not rep.valid:          # the checker and the replayer disagree: trust the replayer
            counts[size] -= 1
            continue
        best_rank = best_rank or rank
        before, after = builder.rows(seq, deal, edits, repaired)
        confirmed.append(Repair(tuple(builder.edit(e) for e in edits), round(cost, 3), repaired, rep.result_dict(),
                                repaired_result(rep), before, after, rep))
    return confirmed, counts, best_rank


_MAX_TIES = 200

# errors no edit can mend: the number of players is the record's (its columns, tags and deal), and
# every edit keeps it; searching such a game would only try every candidate in vain (slowly: each
# replays a deal that cannot be dealt)
_UNEDITABLE = frozenset({Code.PLAYERS})


def _exposed_tiles(errors: list[Diagnostic]) -> str:
    """The exposed tiles that the ``exposed-tile`` errors among ``errors`` say were not played."""
    return " ".join(dict.fromkeys(t for d in errors if d.code == Code.EXPOSED_TILE for t in d.details.get("exposed", ())))


def _irregular(errors: list[Diagnostic]) -> str:
    """Why a record whose only errors are exposed tiles not played is not repaired: nothing else is
    wrong, so it reads as the irregularity itself (Domino Whist §8), and an edit would write a game
    that was not played."""
    return gettext("the only errors are exposed tiles not played at their first chance ({tiles}; Domino Whist §8) "
                   "and nothing else is wrong: the record reads as that irregularity of play, not as a slip of the "
                   "pen, so the error stands and nothing is repaired", tiles=_exposed_tiles(errors))


def _unkept(errors: list[Diagnostic], max_edits: int, complete: bool) -> str:
    """What to say when no repair is found of a record with exposed tiles not played and other errors:
    the exposed tile may have been a real irregularity, which a repair (a legal record) cannot keep."""
    return (gettext("no repair within {edits}; its exposed tiles not played ({tiles}; Domino Whist §8) may be a real "
                    "irregularity of play beside a slip of the pen, and a repair keeps none: it makes every move "
                    "legal", edits=edit_count(max_edits), tiles=_exposed_tiles(errors)) if complete else
            gettext("no repair within {edits} (the search stopped early); its exposed tiles not played ({tiles}; "
                    "Domino Whist §8) may be a real irregularity of play beside a slip of the pen, and a repair keeps "
                    "none: it makes every move legal", edits=edit_count(max_edits), tiles=_exposed_tiles(errors)))


def _overflowing(game: Game, rows: list, variant: Variant, terms: MatchTerms, limits: RepairLimits) -> RepairReport:
    """The repairs of a game with table rows written with cells too many: one of their cells goes
    (each way searched on its own, with the edits left; see :mod:`analyzer.repair.overflow`)."""
    max_edits, limit = limits.max_edits, limits.limit

    def search(fixed: Game, edits: int, nodes: int | None) -> RepairReport:
        return repair(fixed, variant, terms=terms, limits=RepairLimits(edits, limit, nodes))

    if limits.max_nodes is None:           # the whole search keeps the one budget, shared by the ways
        limits = replace(limits, max_nodes=_searcher(game, variant).default_nodes)
    found, counts, complete, searched, problem = overflow_repairs(game, rows, limits, search, variant, terms)
    rank = (len(found[0].edits), round(found[0].cost, 6)) if found else None
    best = [r for r in found if (len(r.edits), round(r.cost, 6)) == rank]
    return RepairReport(game, False, game.tags.get("Result"), max_edits, found[:max(limit, 0)], counts, len(best),
                        in_common(best), complete, searched, problem)


def _with_result(search: Search, game: Game, limit: int) -> list[Repair]:
    """The repairs of the moves that make ``game`` legal, whatever its end, each with the edit of its
    Result tag to the result it then has (a broken record whose Result tag is wrong as well)."""
    search.stated = None
    search.search(game)
    found = sorted(search.found.values(), key=lambda f: (f.size, round(f.cost, 6), _order(f.edits)))
    out: list[Repair] = []
    for _, cost, edits, seq, deal in found[:limit + _MAX_TIES]:
        repaired = search.builder.game_for(seq, deal)
        # (the checks of a game hiding hands over the deals they allow: within the record's work, the search's taken)
        with metered((work_left() - search.work) / STEP_WORK) as meter:
            try:
                rep = search.replayed(repaired)
                actual = rep.actual_result
                tagged = tag_repair(rep, "Result", "change-result", str(actual) if actual is not None else None,
                                    Code.RESULT_MISMATCH)
            except StepsSpent:
                search.out_of_work = True
        search.work += meter.spent * STEP_WORK
        if search.out_of_work:
            break
        if tagged is None:
            continue
        before, after = search.builder.rows(seq, deal, edits, repaired)
        out.append(Repair(tuple(search.builder.edit(e) for e in edits) + tagged.edits, round(cost + tagged.cost, 3),
                          tagged.game, tagged.result, tagged.result_text, before + tagged.rows_before,
                          after + tagged.rows_after, tagged.replay))
        if len(out) >= limit:
            break
    return out


def tag_repair(rep: Replay, tag: str, kind: str, value: str | None, code: str) -> Repair | None:
    """The one-edit repair that writes ``value`` into the ``tag`` of a game whose only errors are
    ``code`` (the moves agree with each other, only the tag does not), confirmed by the replayer."""
    errors = rep.errors
    if value is None or not errors or any(d.code != code for d in errors):
        return None
    game = rep.game
    before = game.tags.get(tag)
    fixed = replace(game, tags={**game.tags, tag: value})
    if tag == "Result":
        again = check_decided_result(replay(fixed, rep.variant, rep.source, terms=rep.terms))
        if not again.valid:
            return None
    else:
        again = rep
    where = game.tag_pos.get(tag)
    edit = Edit(kind, where.line if where else None, where.column if where else None, None, before, value,
                cost=COSTS[kind])
    return Repair((edit,), COSTS[kind], fixed, again.result_dict(), repaired_result(again),
                  [f'[{tag} "{before}"]'], [f'[{tag} "{value}"]'], again)


def _orig(cell: tuple | None) -> int | None:
    """The index in the input of a lean cell or an Entry (None: inserted or absent)."""
    if cell is None:
        return None
    return cell.orig if isinstance(cell, Entry) else cell[ORIG]


def _ident(raw: tuple) -> tuple:
    kind, _, anchor, before, after, extra = raw
    if kind in ("change-deal", "deal-add", "deal-delete"):
        return (kind, anchor, before, after)
    if isinstance(anchor, Entry) or isinstance(extra, Entry):       # the position path: texts
        return (kind, _orig(anchor) if anchor is not None else -1, before, after, _orig(extra) if isinstance(extra, Entry) else extra)
    orig = anchor[ORIG] if anchor is not None else -1
    if kind == "insert-row":
        after = tuple((c[NAME], c[TILE]) for c in after)
    if kind in ("swap-moves", "swap-order"):
        before = before[ORIG]
    if kind == "delete-row":
        before = tuple(c[ORIG] for c in before)
    return (kind, orig, before, after, extra)


def _order(edits: tuple) -> tuple:
    out = []
    for raw in edits:
        anchor = raw[2]
        if raw[0] in ("change-deal", "deal-add", "deal-delete"):
            out.append((-1, anchor[0], anchor[1] if anchor[1] is not None else -1))
        else:
            orig = _orig(anchor)
            out.append((orig if orig is not None else 10 ** 6, 0, 0))
    return tuple(out)
