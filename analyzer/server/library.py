"""The board's one door into the rest of the library.

Every call the server makes into the analyser goes through this module (and nothing here knows the
web framework), so the documents it answers are built exactly as the command line builds them:
``validate_document`` is what ``domino validate --json`` prints for a text, ``analyze_document`` what
``domino analyze --json`` prints. When the code that builds the command line's JSON moves, only the
imports of this module change.

Each function takes plain data and returns plain data (JSON-able dicts); a request no record could
answer raises :class:`BoardError` with a message for the user."""
from __future__ import annotations

import contextlib
import dataclasses
import re
from typing import Callable

from ..archive import Summary
from ..analysis.gradecounts import grade_counts
from ..analysis.hiddenwords import exact_progress_words
from ..archive.inputs import expand
from ..codec import to_data
from ..diagnostics import DominoError
from ..i18n import N_, gettext, language, ngettext, number
# (the deals of a sheet, loaded with the board and its workers, not by the first request on a sheet: the match's
# replay asks for them lazily, as the command line's start-up wants)
from ..inference.sheet import listing
from ..match import replay_record
from ..notation import parse, write
from ..notation.setup import is_setup
from ..notation.writer import rewrite, write_closing, write_comment
from ..pipeline import (GameProgress, Options, again, analyse, analyze_entry, check_rules, judge_fairly, process,
                        read_text, run_record, safely, sheet_run, validation_json)
from ..record import MAX_DIGITS, NOWHERE, Game, HandEntry, MoveEntry, Record, StatedResult
from ..render.diagram import position_at, table_svg
from ..render.model import board_view
from ..render.text import fair_text, view_words
from ..render.verdicts import OVER_HANDS, contradiction_text, fair_cut_words, sheet_deals_words, alternative_marks, how_words, loss_range_words, open_verdict, over_text, team_words, verdict_word
from ..rules import UnknownVariant, find_family, find_variant
from ..rules.catalog import catalog
from ..rules.modes import Termination
from ..search import NODE_LIMIT
from ..tiles import Move, Tile
from ..workers import worker_pool

__all__ = ["BoardError", "BoardRecord", "AnalysisRequest", "ExactBound", "NewGame", "validate_document", "analyze_document", "position_data", "enter_move", "repair_text",
           "write_variation", "branch_text", "result_entry", "next_game", "variant_tags", "variants_data", "new_record", "record_files",
           "chosen_variant", "seat_names", "tile_list", "NODE_LIMIT", "explained"]


class BoardError(ValueError):
    """A request the library cannot answer (an unknown variant, a game or step that is not there)."""


@dataclasses.dataclass(frozen=True)
class BoardRecord:
    """The record the board works on: its ``text``, read as the file ``label``, under ``variant`` (None: as its
    tags say) with ``rules`` (option: value)."""

    text: str
    label: str = "<board>"
    variant: str | None = None
    rules: dict | None = None

    def replays(self):
        """The record read, and its games replayed (an unknown variant or rule is a :class:`BoardError`)."""
        return _replays(self.text, self.label, self.variant, self.rules)


@dataclasses.dataclass(frozen=True)
class ExactBound:
    """How far a fair analysis values decisions exactly under hidden information (the CFR+ solver's bound, as
    ``--exact-hand``, ``--exact-seconds`` and ``--exact-memory``): every hand at most ``hand`` tiles (0: none), each
    decision's CPU ``seconds`` and ``memory_mb`` (None: the pipeline's defaults). The board's is the one ``domino
    serve`` was started with (its most: a request may ask fewer tiles); the static site's is the default."""

    hand: int = Options.fair_exact_hand
    seconds: float | None = None
    memory_mb: int | None = None


@dataclasses.dataclass(frozen=True)
class AnalysisRequest:
    """What the board asks of an analysis, as ``domino analyze --json``'s options: ``fair`` (``--fair``), ``lines``
    (``--lines``), ``max_nodes`` (``--max-nodes``), and for the fair analysis ``seed``, ``decision_deals`` (the deals
    drawn first for each decision, ``--decision-deals``), ``exact_below`` and ``max_decision_deals`` (the most a
    decision may be given where its best is not told apart, ``--max-decision-deals``; None: the command's default
    budget); for a sheet without hands the CPU budgets ``values_seconds`` and ``fair_seconds`` (``--values-seconds``,
    ``--fair-seconds``: whole seconds, None: no budget; the pipeline's defaults, ``Options``); ``exact``, the fair
    analysis's exact values under hidden information (:class:`ExactBound`)."""

    fair: bool = False
    lines: bool = False
    max_nodes: int | None = None
    seed: int = 0
    decision_deals: int = 200
    exact_below: int = 1000
    max_decision_deals: int | None = None
    values_seconds: float | None = Options.values_seconds
    fair_seconds: float | None = Options.fair_seconds
    exact: ExactBound = ExactBound()


@dataclasses.dataclass(frozen=True)
class NewGame:
    """A new record's game as the board's form gives it (:func:`new_record`): the ``players`` in play order (None:
    ``A``, ``B``, ...), their ``hands`` (None: not known), the ``event``, the ``lead`` and a draw game's ``starter``."""

    players: list[str] | None = None
    hands: list | None = None
    event: str | None = None
    lead: str | None = None
    starter: list | None = None


def _options(mode: str, variant: str | None, rules: dict[str, str], **more) -> Options:
    """The command line's options for ``mode``, its words in the active language (the request's: ``api.language``);
    an unknown variant or rule is a :class:`BoardError`."""
    try:
        if variant:
            find_variant(variant, rules)
        else:
            check_rules(rules)
    except (UnknownVariant, DominoError, ValueError) as exc:
        raise BoardError(str(exc)) from None
    return Options(mode, variant or None, tuple(sorted(rules.items())), **{"language": language(), **more})


def validate_document(text: str, label: str, variant: str | None = None, rules: dict | None = None) -> dict:
    """What ``domino validate --json`` prints for ``text`` read as the file ``label``."""
    options = _options("validate", variant, rules or {})
    result = process(label, text.encode("utf-8"), options)
    summary = Summary()
    summary.add(result)
    return {"games": validation_json(result, {}), "summary": summary.as_dict()}


def analyze_document(doc: BoardRecord, asked: AnalysisRequest = AnalysisRequest(),
                     progress: Callable[[dict], None] | None = None, processes: int = 1) -> dict:
    """What ``domino analyze --json`` prints for ``doc`` with the options ``asked`` (:class:`AnalysisRequest`):
    the fair analysis too where asked or where a game of the text has a hand that is not known, as the
    command does; the record read and replayed once (``analyzer.pipeline``). ``progress`` is told how far
    the analysis has come: ``{"phase": "moves", "done", "total", "games"}`` as the moves of all games
    are valued with the hands open, then in a fair analysis ``{"phase": "deals", "game", "games", "done", "total"}`` as
    each game's deals are solved (game from 1; ``total`` None until they are listed, then the most deals
    there may still be, every decision not told apart counted at its budget: it only shrinks, so a bar
    never grows while it fills, and ends equal to the deals solved). ``processes``: the fair analysis's worlds (a
    sheet's deals) are solved in that many processes (the board's: its cores, as ``--jobs``; 1: in this one, as the
    static site's), which end when this one is killed (a cancel); the values are the same whatever the number."""
    text, label, fair, worlds, max_worlds = doc.text, doc.label, asked.fair, asked.decision_deals, asked.max_decision_deals
    options = _options("analyze", doc.variant, doc.rules or {}, max_nodes=asked.max_nodes, lines=asked.lines,
                       values_seconds=asked.values_seconds, fair_seconds=asked.fair_seconds)
    summary = Summary()
    run = read_text(label, text, options)
    hidden_only = not fair and bool(run.replays) and run.partial
    if hidden_only:
        fair = True           # as the command does for the games whose hands are not all known
    if not fair:
        moves = _progress_moves(progress, run) if progress is not None else None
        result = safely(label, lambda: run_record(run, moves))
        summary.add(result)
        analyses = [analyze_entry(result["source"], game) for game in result["games"]]
        return explained({"games": analyses, "summary": summary.as_dict()}, run.analyses or [])
    if max_worlds is not None and max_worlds < worlds:
        raise BoardError(f"max_decision_deals: {max_worlds} is fewer than the {worlds} deals drawn first")
    exact = asked.exact
    run.options = dataclasses.replace(options, fair_worlds=worlds, fair_seed=asked.seed, fair_exact_below=asked.exact_below,
                                      fair_max_worlds=max_worlds, fair_hidden_only=hidden_only, fair_exact_hand=exact.hand,
                                      fair_exact_seconds=exact.seconds,
                                      fair_exact_memory=None if exact.memory_mb is None else exact.memory_mb << 20)
    pool = worker_pool if processes > 1 else None
    if progress is None:
        result = safely(label, lambda: judge_fairly(run, every_deal=True, workers=processes, pool=pool).data())
    else:
        moves = _progress_moves(progress, run)
        bar = _progress_bar(progress, len(run.replays))
        result = safely(label, lambda: judge_fairly(analyse(run, moves, sheet_run(processes, pool)), every_deal=True,
                                                    workers=processes, pool=pool, bar=bar).data())
    summary.add(result)
    analyses = [analyze_entry(label, game, _told_how(run.analyses[k]))
                for k, game in enumerate(result["games"][:run.judged])]
    return explained({"games": analyses, "summary": summary.as_dict()}, (run.analyses or [])[:run.judged])


def explained(document: dict, analyses=None) -> dict:
    """``document`` (what ``analyze --json`` prints) with every number's meaning in words, where the board shows
    it (#66), in a key of its own, ``explained`` (the analysis itself left exactly as the command prints it):
    ``legends``, one a game (the unit, whose values they are and which way; what a loss, a fair value and
    "deals, sampled" mean; what the values assume, the game's ``note``, as the report says it), and ``views``, one
    a game, each decision's (in the order of its ``decisions``) ``render.text.view_words`` ("A/C values: B wants
    lower"), and ``to_move``, the view of each game's decision where its record stops (or None); with the game
    ``analyses`` (``GameAnalysis``, the document's), ``grades``: each player's grade counts and accuracy in each
    game and over the record (``analysis.gradecounts.GradeCounts``, as data). Plain data out."""
    legends, views, to_move = [], [], []
    for g in document.get("games", []):
        sides = g.get("sides") or []
        each = bool(g.get("perspective"))

        def view(d):
            return view_words(d["player"], d["side"], sides, each) if "player" in d and "side" in d else None
        views.append([view(d) for d in g.get("decisions", [])])
        to_move.append(view(g["to_move"]) if isinstance(g.get("to_move"), dict) else None)
        legends.append(values_legend(sides, each, g.get("note")))
    more = {} if analyses is None else {"grades": to_data(grade_counts(analyses))}
    return {**document, "explained": {"legends": legends, "views": views, "to_move": to_move, **more}}


def values_legend(sides: list[str], each: bool, note: str | None) -> str:
    """The legend of a game's values on the board, in the active language: their unit, whose they are and which
    way (``sides``: the game's sides; ``each``: each player for himself), what a loss and a fair value are and how a
    fair value was reached (``how_words``' words, as the board shows them), and what the values assume (the game's
    ``note``, in the analysis's own words: a Jamaican hand's +1 / -1, a hand worth a fixed number of points, so the
    values only say who wins)."""
    if each or not sides:
        whose = gettext("each decision's values are its mover's against the rest (+: he gains)")
    elif len(sides) == 1:
        whose = gettext("values are for {side} (+: {side} ahead)", side=sides[0])
    else:
        whose = ngettext("values are for {side} (+: {side} ahead; {others} wants them low)",
                         "values are for {side} (+: {side} ahead; {others} want them low)", len(sides) - 1,
                         side=sides[0], others=", ".join(sides[1:]))
    legend = gettext('Points of the hand with best play from the position on ({whose}). A loss is the points a move '
                     'gives away against the best. A fair value is the mean over the deals the mover could not tell '
                     'apart, with its 95% interval; "{sampled}": {drawn} of them drawn at random and each solved with '
                     'all hands open, "{every}": every one of them solved.', whose=whose, drawn=number(200),
                     sampled=gettext("open-hands mean of {n} of {total} deals, sampled", n=number(200),
                                     total=number(3060)),
                     every=gettext("all {n} deals, open-hands mean", n=number(480)))
    return legend + (" " + gettext("The values assume: {note}", note=note) if note else "")


def _told_how(analysis) -> dict:
    """The analysis's plain data (``codec.to_data``) with each fair verdict's ``"how"``: how it was reached in the words of the report
    and the command line (``render.verdicts.how_words``: "exact under hidden information, 360 public deals", "200 of
    3,060 deals, sampled"), for the board to show as it is; and the words ``analyze --fair`` prints for it: its
    line (``"text"``, ``render.text.fair_text``), its one verdict word (``"verdict_word"``, ``verdict_word``:
    "real mistake", "hindsight only") and the open-hands half labelled as hindsight (``"hindsight"``,
    ``open_verdict``)."""
    data = to_data(analysis)
    shown = list(zip(data.get("decisions", []), analysis.decisions))
    if data.get("to_move") and analysis.to_move is not None:
        shown.append((data["to_move"], analysis.to_move))
    for d, decision in shown:
        if isinstance(d.get("fair"), dict) and decision.fair is not None:
            d["fair"]["how"] = how_words(decision.fair)
            d["fair"]["text"] = fair_text(decision, team=False).strip()     # (its bracket: "team_words")
            d["fair"]["verdict_word"] = verdict_word(decision)
            # (a sheet's move: its loss with every hand open is over the deals, in the note's own sentence already)
            d["fair"]["hindsight"] = open_verdict(decision) if decision.played and decision.loss_over is None else None
            if decision.fair.team is not None:         # a partnership decision's bracket under hidden information
                d["fair"]["team_words"] = team_words(decision.fair)
            why = contradiction_text(decision.fair)     # a two-player verdict's best its open brackets overturned
            if why is not None:
                d["fair"]["contradiction_words"] = why
            if decision.fair.method == OVER_HANDS:      # a sheet: the verdict over the hands he may have held
                words = fair_text(decision).strip()
                d["fair"]["words"] = words[:1].upper() + words[1:]
        _sheet_words(d, decision, analysis.deals.analysed if analysis.deals is not None else None)
    if isinstance(data.get("deals"), dict) and analysis.deals is not None:
        deals = analysis.deals
        data["deals"]["words"] = f"Deals: {sheet_deals_words(deals)}. Result: {deals.result_words()}."
    if isinstance(data.get("fair_cut"), dict) and analysis.fair_cut is not None:
        data["fair_cut"]["words"] = fair_cut_words(analysis.fair_cut)
    return data


def _sheet_words(d: dict, decision, analysed: int | None = None) -> None:
    """A sheet's decision (``d``, its JSON) with the words of its values over the deals the sheet allows, as the
    command line and the report write them: the loss of the move played (``loss_over_deals.words``,
    ``render.verdicts.loss_range_words``), each move's value (``over_deals.words``, ``over_text``) and its marks
    (``marks``, ``alternative_marks``: the fair best where there is a fair verdict, hindsight's pick)."""
    if decision.loss_over is None or not isinstance(d.get("loss_over_deals"), dict):
        return
    d["loss_over_deals"]["words"] = loss_range_words(decision.loss_over, analysed)
    for a, alt in zip(d.get("alternatives", []), decision.alternatives):
        a["marks"] = alternative_marks(decision, alt)
        if alt.over_deals is not None and isinstance(a.get("over_deals"), dict):
            a["over_deals"]["words"] = over_text(alt.over_deals, analysed)


def _progress_moves(report: Callable[[dict], None], run):
    """``analyse``'s ``progress(moves)``: tells ``report`` the moves valued with all hands open, of all games."""
    total = sum(len(rep.steps) for rep in run.replays)
    done = [0]

    def moved(count: int) -> None:
        done[0] += count
        report({"phase": "moves", "game": None, "games": len(run.replays), "done": done[0], "total": total})
    report({"phase": "moves", "game": None, "games": len(run.replays), "done": 0, "total": total})
    return moved


def _progress_bar(report: Callable[[dict], None], games: int):
    """``judge_fairly``'s ``bar``: for game ``number``, the ``progress(done, total)`` of its deals, told to
    ``report`` as it comes: the fair analysis counts every deal solved, its ``total`` the most deals there may
    still be (every decision not told apart counted at its budget), which only shrinks, so a bar never grows
    longer while it fills, and ends equal to the deals solved; before them, as each decision valued exactly under
    hidden information begins, ``{"phase": "exact", "game", "games", "words"}`` (``GameProgress.exact``)."""
    @contextlib.contextmanager
    def bar(number: int):
        def progress(done: int, total: int) -> None:
            report({"phase": "deals", "game": number, "games": games, "done": done, "total": total})

        def exact(step: int, at: int, count: int, seconds: float) -> None:     # (before any deal: the exact solver's)
            report({"phase": "exact", "game": number, "games": games, "words": exact_progress_words(step, at, count,
                                                                                                    seconds)})
        report({"phase": "deals", "game": number, "games": games, "done": 0, "total": None})
        yield GameProgress(progress, exact)
    return bar


# ---- the board ----------------------------------------------------------------------------------

def _replays(text: str, label: str, variant: str | None, rules: dict | None):
    options = _options("validate", variant, rules or {})
    record = parse(text, label)
    return record, replay_record(record, options.variant, rules=dict(options.rules))


#: a step asked for that the game has not (``{step}``; ``{steps}`` its last)
NOT_A_STEP = N_("step {step} is not a move of the game: 0 (the deal) to {steps}")
#: the board's words for a text with no game in it (its first look at an empty editor), in the request's language
NO_GAME = N_("the text holds no game yet: write the tags and the hands (A: [0-0] [1-1] ...)")


def _game(replays, game: int):
    if not replays:
        raise BoardError(gettext(NO_GAME))
    if not isinstance(game, int) or not 0 <= game < len(replays):
        raise BoardError(gettext("there is no game {game}: the text holds {games}",
                                 game=game + 1 if isinstance(game, int) else repr(game), games=len(replays)))
    return replays[game]


def _written(record, game: int):
    """Game ``game`` as the text writes it (a text with no tag, hand or move yet writes none)."""
    if not 0 <= game < len(record.games):
        raise BoardError(gettext(NO_GAME))
    return record.games[game]


def _pair(tile) -> list[int] | None:
    return None if tile is None else [tile.low, tile.high]


def position_data(doc: BoardRecord, game: int = 0, step: int | None = None, cursor: tuple[int, int] | None = None,
                  line: list[str] | None = None, along: int = 0, best: str | None = None) -> dict:
    """The board of ``doc`` before step ``step`` (0: the deal; None or past the end: after the last move) of game
    ``game``: the hands as far as the record knows them, the table, the player to move and every move
    the rules allow him there, each with the entry that writes it into the record. ``cursor`` (line,
    column) instead of ``game`` and ``step``: the game the cursor is in, after the moves before it.
    ``line`` (an alternative's line, ``analyze --lines``: ``["B [0-1]", "C pass", ...]``) and ``along``:
    the board after the first ``along`` moves of that line played from there, each judged legal. ``best``: the
    move the analysis names best for the player to move there (as ``analyze`` writes it, ``[2-3]@2``): the
    table is drawn after it, its tile marked as the best move's (``"best"``: the move drawn so, or None where
    it lays no tile or the rules do not allow it there)."""
    record, replays = doc.replays()
    if cursor is not None and replays:
        game, step = _at_cursor(record, replays, cursor)
    rep = _game(replays, game)
    steps = len(rep.steps)
    if step is None or step > steps:
        step = steps
    if not isinstance(step, int) or step < 0:
        raise BoardError(gettext(NOT_A_STEP, step=repr(step), steps=steps))
    pos, voids, last, shown = position_at(rep, step)
    variation = None
    if line is not None:
        if shown < step:
            raise BoardError(gettext("the record breaks the rules at move {n}: no line can be played after it", n=shown + 1))
        last = _play_line(rep, pos, line, along, last)
        variation = {"line": list(line), "along": along}
    view = board_view(pos, voids, last)
    board = dataclasses.asdict(view)
    outcome = pos.outcome()
    stopped = None
    if not rep.deal_ok:
        stopped = "the deal has errors, so no move can be judged"
    elif shown < step:
        stopped = (f"the record breaks the rules at move {shown + 1}: the board shows the position before it")
    # where the record breaks the rules: what was legal there (the entering stays at the end of the game)
    seated = len(rep.players) == rep.variant.players == pos.n        # (a text still being typed may not be)
    moving = outcome is None and rep.deal_ok and seated
    legal = _legal(rep, pos, voids) if moving else []
    drawing = table_svg(view, gettext("the table of {title}", title=rep.title))
    marked = None
    if best is not None and moving and variation is None and shown == step:
        after = pos.copy()
        try:
            laid = _play_line(rep, after, [f"{rep.players[pos.turn]} {best}"], 1, None)
        except BoardError:
            laid = None
        if laid is not None:
            marked = best
            drawing = table_svg(board_view(after, voids, laid), gettext(
                "the table of {title}, with the best move, {best}, laid and marked", title=rep.title, best=best),
                best=True)
    seats = lead_seats(rep, pos) if moving else None
    if moving and not pos.history and step == 0 and variation is None:
        seats, legal = _open_leads(rep, seats, legal)
    return {
        "game": game, "games": len(replays), "step": step, "shown": shown, "steps": steps,
        "title": rep.title, "variant": rep.variant.name, "players": list(rep.players), "setup": is_setup(rep.game),
        "hidden": list(pos.hidden), "board": board, "ends": pos.ends_text(),
        # the table as ``domino diagram`` and the report's saved diagram draw it (one drawing), the last tile marked
        "drawing": drawing, "best": marked,
        "turn": rep.players[pos.turn] if moving else None,
        # several players may lead (the holder of a tile not shown): each of them, and ``legal`` holds their moves
        "leaders": [rep.players[s] for s in seats] if seats else None,
        "over": None if outcome is None else {"termination": outcome.termination, "seat": rep.players[outcome.seat]},
        **_result_offer(doc.text, record, game, rep, outcome is not None and step == steps and variation is None),
        "stopped": stopped, "legal": legal, "at_end": step == steps and variation is None, "variation": variation,
        "moves": [{"player": s.entry.player, "move": s.entry.text if s.move is None else str(s.move),
                   "line": s.entry.pos.line or None, "column": s.entry.pos.column or None}
                  for s in rep.steps],
    }


def _result_offer(text: str, record, game: int, rep, ended: bool) -> dict:
    """What the board offers to write as the game's result, where it stands at the game's end (``ended``: the board
    shows the end of the game as written, no variation, and the hand is over): ``result``, the
    result as a Result tag would state it; ``stated``, the Result tag the game has; ``closing``, the lines a
    book table without a Result tag is closed with instead (:func:`closing_words`); ``written``: whether the
    record states it already (its Result tag says so, or its table has its closing remark)."""
    g = record.games[game] if game < len(record.games) else None
    stated = g.tags.get("Result") if g is not None else None
    words = None
    if ended and rep.legal_prefix == len(rep.steps):
        words = None if rep.actual_result is None else str(rep.actual_result)
    closing = _closing(text, g, rep) if words is not None and g is not None else None
    if closing is not None:
        written = False
    elif g is not None and g.form == "table" and stated is None and g.remark is not None:
        written = True                # (its closing remark says how it ended; validate checks a blocked one)
    else:
        written = stated == words
    # a sheet whose hidden tiles decide the result: each result a deal it allows gives, for the user to pick the one
    # the sheet shows (none where the rules decide it, or the record states one)
    possible = _possible_results(rep) if words is None and stated is None and ended else []
    return {"result": words, "stated": stated, "closing": None if closing is None else [x for x in closing[:1] if x]
            + list(closing[1]), "written": written, "results": possible}


def _possible_results(rep) -> list[str]:
    """Each result, as a Result tag states it, that some deal the sheet ``rep`` allows gives its finished hand
    (``inference.sheet.listing``, up to the match's own bound); [] where they are not listed."""
    from ..match import DEALS_CHECKED

    if not any(rep.initial.hidden) or rep.outcome is None:
        return []
    listed = listing(rep, DEALS_CHECKED)
    if listed is None:
        return []
    found: dict[str, None] = {}
    for r in sorted((r for r in listed.results if r is not None),
                    key=lambda r: (r.winner is None, r.winner or 0, r.points)):
        side = None if r.winner is None else tuple(rep.variant.side_name(r.winner, rep.players).split("/"))
        found[str(StatedResult(side, r.points if side else 0, r.termination,
                               any(n == "milo" for n, _ in r.bonuses)))] = None
    return list(found)


def _closing(text: str, g: Game, rep) -> tuple[str | None, tuple[str, ...]] | None:
    """The closing line of book table ``g`` (read from ``text``) with no Result tag and no closing remark yet,
    in the sheet's own words: (the words after its last row's cells, the lines of prose under it); None for
    another game, or one that states its result already."""
    if g.form != "table" or "Result" in g.tags or g.remark is not None or rep.result is None or not g.table_pos.line:
        return None
    return closing_words(text.split("\n")[g.table_pos.line - 1], rep.result, rep.variant.seating, rep.players)


def closing_words(header: str, r, seating, players) -> tuple[str | None, tuple[str, ...]]:
    """How a book table whose header row is ``header`` closes on result ``r`` (a ``HandResult``), in the
    header's language (``Runde``/``Spieler``: German, else English) and naming the players as its columns do:
    as the book closes its tables (000), a blocked game's last row ends with ``Das Spiel ist gesperrt!`` and
    the winners are named under it (``Die Spieler A und C gewinnen 46 Punkte.``); a domino is said under it
    (``Spieler B macht Domino und die Spieler A und C verlieren 10 Punkte.``). (the words after the last
    row's cells or None, the lines of prose)."""
    german = bool(re.match(r"\s*runde\b", header, re.I) or re.search(r"\bspieler\b", header, re.I))
    word = re.search(r"\b(spieler|player)\b", header, re.I)
    title = word.group(1).capitalize() if word else ""
    and_ = " und " if german else " and "

    def who(seats, first: bool = False) -> str:
        names = [players[s] for s in seats]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + and_ + names[-1]
        if len(names) == 1:
            return f"{title} {listed}".strip()
        many = f"{title}s" if title and not german else title
        head = ("die " if german else "the ") + many if title else ""
        out = f"{head} {listed}".strip()
        return out[:1].upper() + out[1:] if first else out

    def verb(seats, de: str, en: str) -> str:
        one = len(seats) == 1
        return (de + ("t" if one else "en")) if german else (en + ("s" if one else ""))

    points = f"{r.points} {('Punkt' if r.points == 1 else 'Punkte') if german else ('point' if r.points == 1 else 'points')}"
    winners = seating.members(r.winner) if r.winner is not None else ()
    draw = "Das Spiel ist unentschieden." if german else "The game is a draw."
    if r.termination == Termination.BLOCKED:
        said = f"{who(winners, True)} {verb(winners, 'gewinn', 'win')} {points}." if winners else draw
        return ("Das Spiel ist gesperrt!" if german else "The game is blocked!"), (said,)
    call = "Milo" if any(n == "milo" for n, _ in r.bonuses) else "Domino"
    out = f"{who([r.seat], True)} {'macht ' + call if german else 'goes out (' + call.lower() + ')'}"
    if not winners:
        return None, (f"{out}. {draw}",)
    if seating.sides == 2 and r.seat in winners:
        losers = seating.members(1 - r.winner)
        return None, (f"{out}{and_}{who(losers)} {verb(losers, 'verlier', 'lose')} {points}.",)
    if tuple(winners) == (r.seat,):
        return None, (f"{out}{and_}{verb(winners, 'gewinn', 'win')} {points}.",)
    return None, (f"{out}. {who(winners, True)} {verb(winners, 'gewinn', 'win')} {points}.",)


def _play_line(rep, pos, line: list[str], along: int, last):
    """Play the first ``along`` moves of ``line`` on ``pos``, each one the rules allow the player to move
    (:class:`BoardError` names the first that is not); the last tile laid."""
    if not isinstance(line, list) or not all(isinstance(m, str) for m in line):
        raise BoardError("a line is a list of moves like \"B [0-1]\"")
    if not isinstance(along, int) or not 0 <= along <= len(line):
        raise BoardError(f"along is a number of the line's moves, 0 to {len(line)}")
    for k, item in enumerate(line[:along], 1):
        player, _, text = item.partition(" ")
        if text == "no extra tile":
            continue                  # the opener adds no tile to his lead: no move on the board
        try:
            move = Move.parse(text)
        except ValueError as exc:
            raise BoardError(f"move {k} of the line ({item!r}): {exc}") from None
        seat = rep.players.index(player) if player in rep.players else pos.turn
        if seat != pos.turn and move.is_play and pos.may_add(seat):
            pos.turn = seat           # the opener adds a matching tile to his lead (as the replay has it)
        legal = pos.legal_moves()
        drawn = move.draw and move.tile is not None and any(m.draw for m in legal) and pos.pool & move.tile.bit
        if player != rep.players[pos.turn] or not (move in legal or drawn):
            raise BoardError(f"move {k} of the line, {item}, is not legal there: {rep.players[pos.turn]} is to move, "
                             f"with {', '.join(str(m) for m in legal) or 'nothing'}")
        pos.push(move)
        if move.is_play:
            last = move.tile
    return last


def _at_cursor(record, replays, cursor: tuple[int, int]) -> tuple[int, int]:
    """The game the cursor (line, column) is in and the moves of it that begin before the cursor."""
    line, column = cursor
    game = 0
    for k, g in enumerate(record.games[:len(replays)]):
        if g.pos.line and g.pos.line <= line:
            game = k
    step = sum(1 for s in replays[game].steps
               if s.entry.pos.line and (s.entry.pos.line, s.entry.pos.column) < (line, column))
    return game, step


def _legal(rep, pos, voids) -> list[dict]:
    """Every move the player to move may make, as the judge has it (``Position.legal_moves`` is the
    judge's set, ``tests/test_judge.py``); a draw names each tile that may be drawn (the record writes
    which one the player took). A player whose hand the record does not show whole: every move he could
    make, each tile he could hold (``analyzer.rules.offers``: not yet seen, not excluded by his passes,
    ``voids``: the numbers each seat's passes prove he lacks) judged by the rules. Before the lead, where
    the rules let any of several players lead (:func:`lead_seats`): the moves of each of them, seat by seat.
    Then the plays of the draw game's opener who may still add a matching tile to his lead (004), out of
    turn (``"extra": true``)."""
    from ..rules.offers import extra_offers

    out = []
    for seat in lead_seats(rep, pos) or (pos.turn,):
        turn, pos.turn = pos.turn, seat
        try:
            out += _moves_of(rep, pos, seat, voids)
        finally:
            pos.turn = turn
    opener = pos.bonus
    extra = extra_offers(rep.variant, rep.players, pos, voids[opener]) if opener >= 0 else []
    return out + [{**_move_data(rep, pos, opener, move), "extra": True} for move in extra]


def _open_leads(rep, seats: tuple[int, ...] | None, legal: list[dict]) -> tuple[tuple[int, ...] | None, list[dict]]:
    """The leaders and their leads of a game not led yet whose match the deals of a game before leave open in who
    must lead it (``MatchEntry.leads``: its result not fixed, the lead depending on it): the game replayed under each
    requirement, rules/lead.py judging each, and the leads of every one of them (each player any of them lets lead,
    with the leads it lets him make); else ``seats`` and ``legal`` as they are."""
    from ..replay import replay

    entry = rep.match
    leads = getattr(entry, "leads", ()) if entry is not None else ()
    if len(leads) < 2:
        return seats, legal
    every: list[int] = []
    moves: dict[tuple, dict] = {}
    for req in leads:
        other = replay(rep.game, rep.variant, rep.source, terms=dataclasses.replace(rep.terms, lead=req))
        pos, voids, _last, _shown = position_at(other, 0)
        if pos.outcome() is not None or not other.deal_ok:
            continue
        for seat in lead_seats(other, pos) or (pos.turn,):
            every.append(seat)
        for move in _legal(other, pos, voids):
            moves.setdefault((move["player"], move["move"], bool(move.get("extra"))), move)
    if not every:
        return seats, legal
    order = sorted(set(every))
    return (tuple(order) if len(order) > 1 else None), sorted(
        moves.values(), key=lambda m: (order.index(rep.players.index(m["player"])) if m["player"] in rep.players
                                       else len(order)))


def lead_seats(rep, pos) -> tuple[int, ...] | None:
    """The seats that may lead ``pos``, the deal of ``rep`` before anyone moves, where the rules leave it to more
    than one of them (``Replay.leaders``, as rules/lead.py judges the record: the holder of a tile the record does
    not show, say); None where one player leads (``pos.turn``)."""
    seats = rep.leaders
    if seats is None or len(seats) < 2 or pos.history or pos.outcome() is not None:
        return None
    return seats


def _moves_of(rep, pos, seat: int, voids) -> list[dict]:
    """The moves of ``seat``, the player to move in ``pos`` (see :func:`_legal`)."""
    from ..position import tiles_of
    from ..rules.offers import offers

    if pos.hidden[seat]:
        return [_move_data(rep, pos, seat, move) for move in offers(rep.variant, rep.players, pos, voids[seat])]
    out = []
    for move in pos.legal_moves():
        if move.draw and move.tile is None:
            for tile in tiles_of(pos.pool, pos.max_pip):
                out.append(_move_data(rep, pos, seat, Move(tile, None, True)))
            continue
        if move.arm == 0 and move.tile is None and not move.draw:
            continue         # the opener's "no extra tile" is no entry of the record: the next move is
        out.append(_move_data(rep, pos, seat, move))
    return out


def _move_data(rep, pos, seat: int, move: Move) -> dict:
    kind = "draw" if move.draw else "pass" if move.tile is None else "play"
    return {"player": rep.players[seat], "move": str(move), "kind": kind, "tile": _pair(move.tile),
            "end": move.end, "arm": move.arm, "claim": _claim(rep.variant, pos, move, seat)}


def _claim(variant, pos, move: Move, seat: int) -> int | None:
    """The points a play by ``seat`` scores at once (All Fives), which the record claims after the move."""
    if variant.play is None or not move.is_play:
        return None
    turn, pos.turn = pos.turn, seat
    pos.push(move)
    try:
        return variant.play.points(variant.play.ends_total(pos.line_ends(), pos.ends)) or None
    finally:
        pos.pop()
        pos.turn = turn


def enter_move(doc: BoardRecord, game: int, move: str, player: str | None = None, step: int | None = None) -> dict:
    """``doc``'s text with ``move`` (as :meth:`Move.parse` reads it, ``claim`` points added by ``+N``) written into
    game ``game`` in the record's own form: a cell of its table, or a move of its list. ``step`` (the
    moves played before it; None or the game's length: after its last move, a new numbered row where
    the round begins again): before move ``step`` + 1, the moves after it going on from it (their rows
    numbered anew). ``player``: who makes it (default the player to move there). An illegal move is
    written all the same, as a score sheet may show one; validation flags it. Returns ``{"text",
    "offset", "step", "after"}``: the new text, where the entry ends in it, its step and how many
    written moves now follow it (checked against it)."""
    text = doc.text
    record, replays = doc.replays()
    rep = _game(replays, game)
    steps = len(rep.steps)
    if step is not None and not 0 <= step <= steps:
        raise BoardError(gettext(NOT_A_STEP, step=step, steps=steps))
    called = re.fullmatch(r"\s*muggins\s+(\d+)\s*", move, re.I)
    if called:                       # a Muggins call (All Fives): the points the player before missed, no move
        if len(called.group(1)) > MAX_DIGITS:
            raise BoardError(f"a Muggins call is a number of points of at most {MAX_DIGITS} digits")
        if player is None or player not in rep.players:
            raise BoardError(f"name who calls Muggins: one of the players ({', '.join(rep.players)})")
        entry = MoveEntry(player, None, muggins=int(called.group(1)))
        if step is None or step == steps:
            return {**_insert(text, record.games[game], rep, entry), "step": steps, "after": 0}
        return _insert_before(text, record, game, rep, step, entry)
    words = move.strip().split(" +")
    try:
        parsed = Move.parse(words[0])
        claim = None
        if len(words) > 1:
            if not words[1].isdigit() or len(words[1]) > MAX_DIGITS:
                raise ValueError(f"a claim is a number of points of at most {MAX_DIGITS} digits, not {words[1][:20]!r}")
            claim = int(words[1])
    except ValueError as exc:
        raise BoardError(str(exc)) from None
    if player is None:
        data = position_data(doc, game, step)
        player = data["turn"]
        if player is None:
            raise BoardError(gettext("nobody is to move here: name the player"))
    if player not in rep.players:
        raise BoardError(f"{player!r} is not a player of this game ({', '.join(rep.players)})")
    entry = MoveEntry(player, parsed.tile, parsed.end, draw=parsed.draw, claim=claim, arm=parsed.arm)
    if step is None or step == steps:
        return {**_insert(text, record.games[game], rep, entry), "step": steps, "after": 0}
    return _insert_before(text, record, game, rep, step, entry)


def _insert_before(text: str, record: Record, game: int, rep, step: int, entry: MoveEntry) -> dict:
    """``text`` with ``entry`` put before move ``step`` + 1 of game ``game``: the game's moves from there
    on written anew in the record's own form (``notation.writer.rewrite``: a table keeps its layout)."""
    old = record.games[game]
    at = next((k for k, m in enumerate(old.moves) if m is rep.steps[step].entry), None)
    if at is None:
        raise BoardError(f"move {step + 1} is not written in the record (the replayer added it): "
                         "enter the move before the next written one")
    order = {name: k for k, name in enumerate(rep.players)}
    numbered = any(m.round is not None for m in old.moves)     # (a list may leave its moves unnumbered)
    moves = list(old.moves[:at])
    for m in [entry] + old.moves[at:]:
        prev = moves[-1] if moves else None
        # a round goes on while the players come in their order (a player who drew goes on in it)
        goes_on = prev is not None and (order.get(m.player, -1) > order.get(prev.player, -1)
                                        or m.player == prev.player and prev.draw)
        number = (old.moves[at].round or 1) if prev is None else (prev.round or 1) + (0 if goes_on else 1)
        # (placed anew: a table's rows are then made by their rounds, not by the lines they stood on)
        moves.append(dataclasses.replace(m, round=number if numbered else None, pos=NOWHERE))
    games = list(record.games)
    games[game] = dataclasses.replace(old, moves=moves)
    new = rewrite(text, record, games)
    return {"text": new, "offset": _after_move(new, record.source, game, at), "step": step,
            "after": len(old.moves) - at}


def _after_move(text: str, source: str, game: int, at: int) -> int:
    """The offset in ``text`` just after move ``at`` (0-based, as written) of game ``game``: where the next
    move on its line begins (the blanks before it left out), else the end of its line."""
    moves = parse(text, source).games[game].moves
    rows = text.split("\n")
    line = moves[at].pos.line
    start = sum(len(x) + 1 for x in rows[:line - 1])
    nxt = moves[at + 1] if at + 1 < len(moves) else None
    if nxt is None or nxt.pos.line != line:
        return start + len(rows[line - 1].rstrip())
    cut = rows[line - 1][:nxt.pos.column - 1].rstrip()
    if cut.endswith(" " + nxt.player):          # a list's move: its player's name before it
        cut = cut[:-len(nxt.player)].rstrip()
    return start + len(cut)


def _entry_text(entry: MoveEntry, table: bool, pass_word: str) -> str:
    body = entry.notation(marks=False, pass_word=pass_word)
    return body if table else f"{entry.player} {body}"


def _insert(text: str, game: Game, rep, entry: MoveEntry) -> dict:
    lines = text.split("\n")
    table = game.form == "table"
    order = {name: k for k, name in enumerate(rep.players)}
    moves = [m for m in game.moves if m.pos.line]
    pass_word = "pass"
    if table:
        passes = [m for m in moves if m.is_pass]
        if passes:
            row = lines[passes[0].pos.line - 1]
            word = row[passes[0].pos.column - 1:].split()
            pass_word = word[0] if word else "pass"
    cell = _entry_text(entry, table, pass_word)
    if moves:
        last = moves[-1]
        at = last.pos.line - 1
        # a move by a name that is not one of the players (a record mangled while typing: "Cpass") starts a row
        same_row = (entry.player in order and last.player in order
                    and order[entry.player] > order[last.player])
        number = (last.round or 0) + (0 if same_row else 1)
    else:
        # after the game's last line before its moves: its hands, its table's header, else its last tag (a move is
        # never written into the header: a game whose header is typed but whose hands are not yet)
        at = max([h.pos.line for h in game.hands if h.pos.line] + [s.line for s in game.tag_pos.values() if s.line]
                 + [game.table_pos.line, game.pos.line, 1]) - 1
        same_row, number = False, 1
    if same_row:
        gap = order[entry.player] - order[last.player] - 1
        add = ("  ".join(["----"] * gap + [cell]) if table else cell)
        lines[at] = lines[at].rstrip() + ("  " if table else " ") + add
        offset = sum(len(x) + 1 for x in lines[:at]) + len(lines[at])
    else:
        lead = order.get(entry.player, 0)
        row = (f"{number}  " + "  ".join(["----"] * lead + [cell])) if table else f"{number}. {cell}"
        if not moves and not table and at + 1 < len(lines) and lines[at + 1].strip() == "":
            at += 1        # below the blank line that closes the deal
        elif not moves and not table:
            lines.insert(at + 1, "")
            at += 1
        lines.insert(at + 1, row)
        offset = sum(len(x) + 1 for x in lines[:at + 1]) + len(row)
    new = "\n".join(lines)
    if text.endswith("\n") and not new.endswith("\n"):
        new += "\n"
    return {"text": new, "offset": offset}


def _line_from(rep, step: int, line: list[str], along: int) -> None:
    """Check that the first ``along`` moves of ``line`` may be played from step ``step`` of ``rep``: each
    legal in turn (:class:`BoardError` names the step, the broken record or the move that is not)."""
    if not isinstance(step, int) or not 0 <= step <= len(rep.steps):
        raise BoardError(gettext(NOT_A_STEP, step=repr(step), steps=len(rep.steps)))
    if not rep.players:
        raise BoardError("the game names no players yet: write the hands (A: [0-0] [1-1] ...) before a variation")
    pos, _, last, shown = position_at(rep, step)
    if shown < step or not rep.deal_ok:
        raise BoardError(gettext("the record breaks the rules at move {n}: no variation can be played after it", n=shown + 1))
    _play_line(rep, pos, line, along, last)


def write_variation(doc: BoardRecord, game: int, step: int, line: list[str]) -> dict:
    """``doc``'s text with the variation ``line`` (moves like ``"C pass"``, each judged legal in turn from step
    ``step`` of game ``game``) written in: the notation has no form for a variation, so it is written
    as a comment, ``{variation: C pass D [1-5]@1 ...}``, after the move it branches from (before the
    first move for one from the deal). ``{"text", "offset", "comment"}``."""
    text = doc.text
    record, replays = doc.replays()
    rep = _game(replays, game)
    if not isinstance(line, list) or not line:
        raise BoardError(gettext("the variation has no move: play one on the board first"))
    _line_from(rep, step, line, len(line))
    note = write_comment("variation: " + " ".join(line))
    old = record.games[game]
    rows = text.split("\n")
    before = rep.steps[step - 1].entry if step else None
    at = next((k for k, m in enumerate(old.moves) if m is before), None) if before is not None else None
    if at is not None and before.pos.line:
        end = _after_move(text, record.source, game, at)
        new, offset = text[:end] + " " + note + text[end:], end + 1 + len(note)
    else:
        first = next((m.pos.line for m in old.moves if m.pos.line), None)
        where = first - 1 if first else _game_span(record, game, len(rows))[1]
        while not first and where > 0 and not rows[where - 1].strip():
            where -= 1             # (after the game's last line, not after the blank lines that close it)
        rows.insert(where, note)
        new = "\n".join(rows)
        offset = sum(len(x) + 1 for x in rows[:where]) + len(note)
    if [dataclasses.replace(m, comment=None) for m in parse(new, record.source).games[game].moves] != \
            [dataclasses.replace(m, comment=None) for m in old.moves]:
        raise BoardError("the variation could not be written as a comment there without changing the moves")
    return {"text": new, "offset": offset, "comment": note}


def branch_text(doc: BoardRecord, game: int, step: int, line: list[str], along: int) -> dict:
    """A record of game ``game`` of ``doc`` alone that ends at the position of a variation: its first ``step`` moves, then
    the first ``along`` moves of ``line`` (each judged legal in turn), its result left open; what the board
    analyses to value the position a variation shows. ``{"text", "step"}`` (``step``: the moves it holds)."""
    record, replays = doc.replays()
    rep = _game(replays, game)
    _line_from(rep, step, line, along)
    moves = [dataclasses.replace(s.entry, pos=NOWHERE, round=None, comment=None) for s in rep.steps[:step]]
    for item in line[:along]:
        player, _, words = item.partition(" ")
        if words == "no extra tile":
            continue
        move = Move.parse(words)
        moves.append(MoveEntry(player, move.tile, move.end, draw=move.draw, arm=move.arm))
    old = _written(record, game)
    tags = {k: v for k, v in old.tags.items() if k != "Result"}
    branch = dataclasses.replace(old, tags=tags, moves=moves)
    return {"text": write(Record([branch], record.source, [])), "step": len(moves)}


def result_entry(doc: BoardRecord, game: int, result: str | None = None) -> dict:
    """``doc``'s text with game ``game``'s result, as the rules reckon it after its last move, written in the record's
    form: a book table with no Result tag and no closing remark is closed by its own closing line in the sheet's
    words (:func:`closing_words`, ``notation.writer.write_closing``); any other game gets it in its ``Result``
    tag (the tag written anew where the game has one, else added after its last tag). ``{"text", "result",
    "closing"}`` (``closing``: the closing line's words written, else None). ``result``: for a sheet whose hidden
    tiles leave it open, the one the sheet shows, among those its deals give (``_possible_results``)."""
    text = doc.text
    record, replays = doc.replays()
    rep = _game(replays, game)
    stated = rep.actual_result if rep.valid or rep.legal_prefix == len(rep.steps) else None
    if stated is None and result is not None:
        possible = _possible_results(rep)
        if result not in possible:
            raise BoardError(f"game {game + 1} cannot end {result!r} in any deal its moves allow"
                             + (f": it ends {', or '.join(possible)}" if possible else ""))
        rows = _set_tag(text.split("\n"), _written(record, game), "Result", result)
        return {"text": "\n".join(rows), "result": result, "closing": None}
    if stated is None:
        raise BoardError(gettext("game {game} is not over by the rules after its last move: no result to write", game=game + 1))
    words = str(stated)
    closing = _closing(text, _written(record, game), rep)
    if closing is not None:           # a book table: closed by its own closing line, in its own words
        try:
            new = write_closing(text, record, game, *closing)
            return {"text": new, "result": words, "closing": [x for x in closing[:1] if x] + list(closing[1])}
        except ValueError:
            pass                      # (words the table would not read back: the Result tag instead)
    rows = _set_tag(text.split("\n"), _written(record, game), "Result", words)
    return {"text": "\n".join(rows), "result": words, "closing": None}


# the tags a game's header takes from the game before it (the match's, not the hand's: not its number, lead, result,
# score, deal or source)
_MATCH_TAGS = ("Event", "Site", "Date", "Round", "Variant", "Rules", "Passes")


def next_game(text: str, label: str, variant: str | None = None, rules: dict | None = None) -> dict:
    """``text`` with the header of the game that follows its last one, as the match and the variant decide it:
    its ``Game`` number (1 again where the match is over: the next match begins), the tags of the match
    (:data:`_MATCH_TAGS`), the same players in the same order, the ``Lead`` where the rules name one player
    (``analyzer.match.next_requirement``, from the last game's result and the match score), and a ``?`` hand a
    player, ready for the first move. The last game must be over by the rules (a :class:`BoardError` says what
    is missing); its result, where the rules reckon it and the record does not state it yet, is written first
    (:func:`result_entry`). ``{"text", "offset", "game", "number", "lead", "result", "reason", "match_over", "score"}``: ``offset``
    the end of the new header, ``game`` the new game's index, ``lead`` the player who leads (None: the rules or
    the deal decide it), ``reason`` why, ``score`` the match score before it (None: not known)."""
    from ..match import next_requirement, open_requirements

    options = _options("validate", variant, rules or {})
    record = parse(text, label)
    if not record.games:
        raise BoardError(gettext(NO_GAME))
    replays = replay_record(record, options.variant, rules=dict(options.rules), match=True)
    last, g = replays[-1], record.games[-1]
    if not last.players:
        raise BoardError(f"game {len(replays)} names no players yet: write the hands (A: [0-0] [1-1] ...) and play "
                         "it to its end before the next game")
    pos, _voids, _tile, shown = position_at(last, len(last.steps))
    if shown < len(last.steps):
        raise BoardError(gettext("game {game} breaks the rules at move {n}: mend it before the next game", game=len(replays),
                                 n=shown + 1))
    if pos.outcome() is None:
        raise BoardError(gettext("game {game} is not over yet: {player} is to move", game=len(replays),
                                 player=last.players[pos.turn]))
    offer = _result_offer(text, record, len(replays) - 1, last, pos.outcome() is not None)
    result = None
    if offer["result"] is not None and not offer["written"]:     # the result the rules reckon, written first
        result = offer["result"]
        text = result_entry(BoardRecord(text, label, variant, rules), len(replays) - 1)["text"]
        record = parse(text, label)
        replays = replay_record(record, options.variant, rules=dict(options.rules), match=True)
        last, g = replays[-1], record.games[-1]
    v, names = last.variant, tuple(last.players)
    entry = getattr(last, "match", None)
    state = entry.state if entry is not None else None
    over = state is not None and state.over
    req, reason = None, None
    if state is not None and not over and len(names) == v.players:
        req = next_requirement(v, last, state, names)
        reqs = open_requirements(v, last, names) if req is None else ()
        if len({(r.seats, r.holder_of, r.tile) for r in reqs}) == 1:
            req = reqs[0]       # (the deals leave the last game's result open, but not who leads this one)
        elif reqs:
            reason = (f"the deals of game {entry.number} leave its result open, and who leads this game depends on "
                      "it: " + "; or ".join(dict.fromkeys(r.reason for r in reqs if r.reason)))
    number = 1 if over else (entry.number + 1 if entry is not None else len(replays) + 1)
    lead = names[min(req.seats)] if req is not None and req.seats is not None and len(req.seats) == 1 else None
    tags = {k: g.tags[k] for k in _MATCH_TAGS if k in g.tags}
    tags["Game"] = str(number)
    tags["Players"] = ", ".join(names)
    if lead is not None:
        tags["Lead"] = lead
    header = write(Record([Game(tags=tags, players=names, hands=tuple(HandEntry(n, None) for n in names))],
                          record.source, []))
    head = text.rstrip("\n")
    new = (head + "\n\n" if head else "") + header.rstrip("\n") + "\n"
    score = entry.score if entry is not None and entry.before is not None and not over else None
    return {"text": new, "offset": len(new), "game": len(replays), "number": number, "lead": lead, "result": result,
            "reason": reason or (req.reason if req is not None else "") or None, "match_over": over,
            "score": score or None}


def _set_tag(rows: list[str], g: Game, name: str, value: str) -> list[str]:
    """``rows`` (the text's lines) with game ``g``'s tag ``name`` set to ``value``: written anew where the game
    has it, else added after its last tag (before its first line when it has none)."""
    tag = f'[{name} "{value}"]'
    where = g.tag_pos.get(name)
    rows = list(rows)
    if where is not None and where.line:
        row = rows[where.line - 1]
        new = re.sub(r'\[\s*' + name + r'\s+"[^"\n]*"\s*\]', lambda _m: tag, row, count=1)
        if new == row and tag not in row:
            raise BoardError(f"line {where.line}: the {name} tag could not be written anew there")
        rows[where.line - 1] = new
    else:
        lines = [span.line for span in g.tag_pos.values() if span.line]
        rows.insert(max(lines) if lines else max(1, g.pos.line) - 1, tag)
    return rows


def variant_tags(text: str, label: str, variant: str | None, rules: dict | None = None) -> dict:
    """``text`` with the variant and rules chosen in the page written into every game's ``Variant`` and
    ``Rules`` tags, so that the file reads as the page judged it; ``{"text", "validation"}`` (its validation
    as the file now reads it, with no variant given from outside)."""
    options = _options("validate", variant, rules or {})
    if not options.variant and not options.rules:
        raise BoardError("choose a variant (or rules) to write into the record")
    record = parse(text, label)
    rows = text.split("\n")
    for g in reversed(record.games):          # (from the last game: a tag added moves the lines after it)
        if options.rules:
            rows = _set_tag(rows, g, "Rules", ", ".join(f"{k}={v}" for k, v in options.rules))
        if options.variant:
            rows = _set_tag(rows, g, "Variant", find_variant(options.variant).name)
    new = "\n".join(rows)
    return {"text": new, "validation": validate_document(new, label)}


def chosen_variant(variant: str | None, rules: dict | None):
    """The variant chosen (default partnership) under ``rules``; an unknown one is a :class:`BoardError`."""
    options = _options("validate", variant, rules or {})
    try:
        return find_variant(options.variant or "partnership", dict(options.rules))
    except (UnknownVariant, DominoError, ValueError) as exc:
        raise BoardError(str(exc)) from None


def variants_data(variant: str | None = None, rules: dict | None = None) -> dict:
    """Every variant as ``domino variants --json`` lists it, with its deal under its default options
    (``players``, ``hand_size``, ``max_pip``: the new-record form's choices), and ``deal``: that of
    ``variant`` (default partnership) under ``rules``."""
    out = []
    for item in catalog():
        v = find_variant(item["name"])
        out.append({**item, "players": v.players, "hand_size": v.dealing.hand_size, "max_pip": v.dealing.max_pip})
    for item in catalog():          # then each named preset once (an alias of the same options only once)
        seen: list[dict] = []
        for name, options in item["presets"].items():
            if options in seen:
                continue
            seen.append(options)
            v = find_variant(name)
            out.append({"name": name, "preset_of": item["name"], "options_set": options,
                        "description": f"{item['name']} with " + ", ".join(f"{k}={x}" for k, x in options.items()),
                        "players": v.players, "hand_size": v.dealing.hand_size, "max_pip": v.dealing.max_pip})
    v = chosen_variant(variant, rules)
    return {"variants": out, "deal": {"variant": v.name, "players": v.players, "hand_size": v.dealing.hand_size,
                                      "max_pip": v.dealing.max_pip, "draws": v.drawing is not None,
                                      "scores_in_play": v.play is not None,
                                      "sides": [list(v.seating.members(side)) for side in range(v.seating.sides)]}}


def new_record(variant: str | None, rules: dict | None, game: NewGame = NewGame()) -> dict:
    """A new record's text, written as the writer writes a game (tags, the deal; ``Rules`` for options),
    and what ``validate`` says of it. ``game`` (:class:`NewGame`): ``players`` in play order (default ``A``, ``B``, ...); ``hands``,
    one a player: ``null`` (not known: ``?``) or ``{"tiles": [[low, high], ...], "unknown": N}`` (N more
    tiles not known; default: the rest of the variant's hand). A name as a sheet spells it ("Mohammed>.") is
    written as the notation's word for it (:func:`seat_names`); ``lead`` may be given either way. ``starter``
    (``[low, high]``, a draw game): the tile turned up from the boneyard that opens the line (the ``Starter``
    tag). ``{"text", "validation", "renamed"}`` (``renamed``: each name written otherwise, and how)."""
    players, hands, event, lead, starter = game.players, game.hands, game.event, game.lead, game.starter
    v = chosen_variant(variant, rules)
    spelled = list(players) if players else None
    names = seat_names(v, players)
    renamed = {a: b for a, b in zip(spelled or [], names) if a.strip() != b}
    if lead is not None and spelled and lead in spelled:
        lead = names[spelled.index(lead)]
    hands = list(hands) if hands is not None else [None] * len(names)
    if len(hands) != len(names):
        raise BoardError(f"give one hand a player ({len(names)}), null for a hand not known")
    dealt = [_new_hand(name, hand, v.dealing.hand_size, v.dealing.max_pip) for name, hand in zip(names, hands)]
    seen: dict[Tile, str] = {}
    for hand in dealt:
        for tile in hand.tiles or ():
            if tile in seen:
                raise BoardError(f"{tile} is in {seen[tile]}'s hand and in {hand.player}'s: a tile is dealt once")
            seen[tile] = hand.player
    if lead is not None and lead not in names:
        raise BoardError(f"the lead {lead!r} is not one of the players ({', '.join(names)})")
    preset = bool(variant) and bool(find_family(variant)[1])        # a named preset is written by its name
    tags = {"Event": (event or "").strip() or "new game", "Variant": variant.strip() if preset else v.name,
            "Players": ", ".join(names)}
    if rules:
        tags["Rules"] = ", ".join(f"{k}={val}" for k, val in sorted(rules.items()))
    if lead:
        tags["Lead"] = lead
    if starter is not None:
        if v.drawing is None:
            raise BoardError(f"{v.name} has no boneyard: no tile is turned up to open the line")
        (tile,) = tile_list("the starter tile", [starter], v.dealing.max_pip)
        if tile in seen:
            raise BoardError(f"the starter tile {tile} is in {seen[tile]}'s hand: it is turned up from the boneyard")
        tags["Starter"] = str(tile)
    text = write(Record([Game(tags=tags, players=tuple(names), hands=tuple(dealt))], "<board>", []))
    return {"text": text, "validation": validate_document(text, "<board>"), "renamed": renamed}


def seat_names(v, players: list[str] | None) -> list[str]:
    """The players' names in play order for variant ``v`` (None: A, B, ...), each as the notation writes a
    player: a name as a sheet spells it, with any characters ("Mohammed>.", "Пётр Иванов", "7"), becomes the
    notation's word for it (``notation.imports.common.word_names``, as the importers write them: "Mohammed",
    "Пётр_Иванов", "P_7"). The wrong count, an empty or overlong name, or two names that are one are a
    :class:`BoardError` naming it."""
    from ..notation.imports.common import word_names

    if players is not None and not isinstance(players, list):
        raise BoardError('"players": give a list of names in play order (["Ann", "Bob", ...]), or nothing')
    names = [n.strip() if isinstance(n, str) else n for n in players] if players else \
        [chr(ord("A") + k) for k in range(v.players)]
    if len(names) != v.players:
        raise BoardError(f"{v.name} seats {v.players} players: give {v.players} names, not {len(names)}")
    for k, n in enumerate(names, 1):
        if not isinstance(n, str) or not n:
            raise BoardError(f"player {k} has no name: give each player a name")
        if len(n) > 40 or "\n" in n:
            raise BoardError(f"player {k}'s name {n[:40]!r}... is longer than 40 characters" if len(n) > 40 else
                             f"player {k}'s name {n!r} holds a line break")
    for k, n in enumerate(names):
        if n in names[:k]:
            raise BoardError(f"the name {n!r} is given twice: give each player his own name")
    words = word_names(names)
    return [words[n] for n in names]


def tile_list(what: str, tiles, max_pip: int) -> list[Tile]:
    """``tiles`` (``[[low, high], ...]`` from the page) as tiles of the double-``max_pip`` set, in the order
    given; ``what`` (``"A's hand"``) names them in the :class:`BoardError` for anything else."""
    if not isinstance(tiles, list) or not all(isinstance(t, list) and len(t) == 2 and
                                              all(isinstance(x, int) and not isinstance(x, bool) for x in t)
                                              for t in tiles):
        raise BoardError(f"{what}: give its tiles as [[low, high], ...]")
    if any(not 0 <= x <= max_pip for t in tiles for x in t):
        raise BoardError(f"{what}: this set's tiles go from 0 to {max_pip}")
    return [Tile(min(t), max(t)) for t in tiles]


def _new_hand(name: str, hand, size: int, max_pip: int) -> HandEntry:
    if hand is None:
        return HandEntry(name, None)
    known = tuple(sorted(tile_list(f"{name}'s hand", hand.get("tiles") if isinstance(hand, dict) else None,
                                   max_pip)))
    if len(set(known)) != len(known):
        raise BoardError(f"{name}'s hand holds a tile twice")
    unknown = hand.get("unknown", size - len(known))
    if not isinstance(unknown, int) or isinstance(unknown, bool) or unknown < 0 or len(known) + unknown > size:
        raise BoardError(f"{name}'s hand: {len(known)} tiles known, and a hand holds {size}")
    if not known and unknown:
        return HandEntry(name, None)
    return HandEntry(name, known, unknown=unknown)


def repair_text(text: str, label: str, game: int, variant: str | None = None, rules: dict | None = None) -> dict:
    """``text`` with game ``game`` replaced by its likely repair (the one ``validate`` names as the likely
    slip): the rows the repair changes, where the text holds them as the repair read them, else the
    game written anew. ``{"text", "likely"}``."""
    from ..repair.triage import triage_games

    options = _options("validate", variant, rules or {})
    record, replays = _replays(text, label, variant, rules)
    rep = _game(replays, game)
    if rep.valid:
        raise BoardError(f"game {game + 1} is valid: nothing to repair")
    triages, _ = triage_games(replays, again(record, options.variant, dict(options.rules)))
    t = triages[game]
    if t is None or t.best is None:
        raise BoardError(f"no likely slip was found in game {game + 1} within the bounded search; "
                         "`domino validate --repair` searches further")
    best = t.best
    lines = text.split("\n")
    start, end = _game_span(record, game, len(lines))
    before, after = best.rows_before, best.rows_after
    body = [x.strip() for x in lines[start:end]]
    if before:
        for k in range(len(body) - len(before) + 1):
            if body[k:k + len(before)] == [r.strip() for r in before]:
                lines[start + k:start + k + len(before)] = after
                return {"text": "\n".join(lines), "likely": t.likely}
    games = list(record.games)      # (a book table keeps its words and spacing: only its changed cells anew)
    games[game] = best.game
    return {"text": rewrite(text, record, games), "likely": t.likely}


def _game_span(record, game: int, count: int) -> tuple[int, int]:
    """The lines (0-based, end exclusive) that hold game ``game`` of ``record``."""
    games = record.games
    starts = [max(1, g.pos.line) - 1 for g in games]
    end = starts[game + 1] if game + 1 < len(games) else count
    return starts[game], end


def record_files(roots: list[str]) -> list[str]:
    """The record files under ``roots`` (files as themselves, folders searched as the command line does)."""
    return expand(roots)
