"""The board's one door into the rest of the library.

Every call the server makes into the analyser goes through this module (and nothing here knows the
web framework), so the documents it answers are built exactly as the command line builds them:
``validate_document`` is what ``domino validate --json`` prints for a text, ``analyze_document`` what
``domino analyze --json`` prints. When the code that builds the command line's JSON moves, only the
imports of this module change.

Each function takes plain data and returns plain data (JSON-able dicts); a request no record could
answer raises :class:`BoardError` with a message for the user."""
from __future__ import annotations

import dataclasses

from ..archive import Summary
from ..archive.inputs import expand
from ..diagnostics import DominoError
from ..match import replay_record
from ..notation import parse, write
from ..pipeline import (Options, again, check_rules, judge_fairly, process, read_text, run_record, safely,
                        validation_json)
from ..record import Game, MoveEntry
from ..report.diagram import position_at
from ..report.model import board_view
from ..rules import UnknownVariant, find_variant
from ..search import NODE_LIMIT
from ..tiles import Move

__all__ = ["BoardError", "validate_document", "analyze_document", "position_data", "enter_move", "repair_text",
           "record_files", "NODE_LIMIT"]


class BoardError(ValueError):
    """A request the library cannot answer (an unknown variant, a game or step that is not there)."""


def _options(mode: str, variant: str | None, rules: dict[str, str], **more) -> Options:
    """The command line's options for ``mode``; an unknown variant or rule is a :class:`BoardError`."""
    try:
        if variant:
            find_variant(variant, rules)
        else:
            check_rules(rules)
    except (UnknownVariant, DominoError, ValueError) as exc:
        raise BoardError(str(exc)) from None
    return Options(mode, variant or None, tuple(sorted(rules.items())), **more)


def validate_document(text: str, label: str, variant: str | None = None, rules: dict | None = None) -> dict:
    """What ``domino validate --json`` prints for ``text`` read as the file ``label``."""
    options = _options("validate", variant, rules or {})
    result = process(label, text.encode("utf-8"), options)
    summary = Summary()
    summary.add(result)
    return {"games": validation_json(result, {}), "summary": summary.as_dict()}


def analyze_document(text: str, label: str, variant: str | None = None, rules: dict | None = None,
                     fair: bool = False, lines: bool = False, max_nodes: int | None = None,
                     seed: int = 0, worlds: int = 200, exact_below: int = 1000) -> dict:
    """What ``domino analyze --json`` prints for ``text`` (``--fair``, ``--lines``, ``--max-nodes``): the
    fair analysis too where asked or where a game of the text has a hand that is not known, as the
    command does; the record read and replayed once (``analyzer.pipeline``)."""
    options = _options("analyze", variant, rules or {}, max_nodes=max_nodes, lines=lines)
    summary = Summary()
    run = read_text(label, text, options)
    if not fair and run.replays and run.partial:
        fair = True           # as the command does for records whose hands are not all known
    if not fair:
        result = safely(label, lambda: run_record(run))
        summary.add(result)
        analyses = [{"file": result["source"], **game["analysis"], "valid": game["valid"],
                     "diagnostics": game["diagnostics"]} for game in result["games"]]
        return {"games": analyses, "summary": summary.as_dict()}
    run.options = dataclasses.replace(options, fair_worlds=worlds, fair_seed=seed, fair_exact_below=exact_below)
    result = safely(label, lambda: judge_fairly(run, every_deal=True, workers=1).data())
    summary.add(result)
    analyses = [{"file": label, **run.analyses[k].as_dict(), "valid": game["valid"],
                 "diagnostics": game["diagnostics"]} for k, game in enumerate(result["games"][:run.judged])]
    return {"games": analyses, "summary": summary.as_dict()}


# ---- the board ----------------------------------------------------------------------------------

def _replays(text: str, label: str, variant: str | None, rules: dict | None):
    options = _options("validate", variant, rules or {})
    record = parse(text, label)
    return record, replay_record(record, options.variant, rules=dict(options.rules))


def _game(replays, game: int):
    if not replays:
        raise BoardError("the text holds no game yet: write the tags and the hands (A: [0-0] [1-1] ...)")
    if not isinstance(game, int) or not 0 <= game < len(replays):
        raise BoardError(f"there is no game {game + 1 if isinstance(game, int) else game!r}: the text holds "
                         f"{len(replays)}")
    return replays[game]


def _pair(tile) -> list[int] | None:
    return None if tile is None else [tile.low, tile.high]


def position_data(text: str, label: str, game: int = 0, step: int | None = None, variant: str | None = None,
                  rules: dict | None = None, cursor: tuple[int, int] | None = None,
                  line: list[str] | None = None, along: int = 0) -> dict:
    """The board before step ``step`` (0: the deal; None or past the end: after the last move) of game
    ``game``: the hands as far as the record knows them, the table, the player to move and every move
    the rules allow him there, each with the entry that writes it into the record. ``cursor`` (line,
    column) instead of ``game`` and ``step``: the game the cursor is in, after the moves before it.
    ``line`` (an alternative's line, ``analyze --lines``: ``["B [0-1]", "C pass", ...]``) and ``along``:
    the board after the first ``along`` moves of that line played from there, each judged legal."""
    record, replays = _replays(text, label, variant, rules)
    if cursor is not None and replays:
        game, step = _at_cursor(record, replays, cursor)
    rep = _game(replays, game)
    steps = len(rep.steps)
    if step is None or step > steps:
        step = steps
    if not isinstance(step, int) or step < 0:
        raise BoardError(f"step {step!r} is not a move of the game: 0 (the deal) to {steps}")
    pos, voids, last, shown = position_at(rep, step)
    variation = None
    if line is not None:
        if shown < step:
            raise BoardError(f"the record breaks the rules at move {shown + 1}: no line can be played after it")
        last = _play_line(rep, pos, line, along, last)
        variation = {"line": list(line), "along": along}
    board = dataclasses.asdict(board_view(pos, voids, last))
    outcome = pos.outcome()
    stopped = None
    if not rep.deal_ok:
        stopped = "the deal has errors, so no move can be judged"
    elif shown < step:
        stopped = (f"the record breaks the rules at move {shown + 1}: the board shows the position before it")
    # where the record breaks the rules: what was legal there (the entering stays at the end of the game)
    seated = len(rep.players) == rep.variant.players == pos.n        # (a text still being typed may not be)
    moving = outcome is None and rep.deal_ok and seated
    legal = _legal(rep, pos) if moving else []
    return {
        "game": game, "games": len(replays), "step": step, "shown": shown, "steps": steps,
        "title": rep.title, "variant": rep.variant.name, "players": list(rep.players),
        "hidden": list(pos.hidden), "board": board, "ends": pos.ends_text(),
        "turn": rep.players[pos.turn] if moving else None,
        "over": None if outcome is None else {"termination": outcome.termination, "seat": rep.players[outcome.seat]},
        "stopped": stopped, "legal": legal, "at_end": step == steps and variation is None, "variation": variation,
        "moves": [{"player": s.entry.player, "move": s.entry.text if s.move is None else str(s.move),
                   "line": s.entry.pos.line or None, "column": s.entry.pos.column or None}
                  for s in rep.steps],
    }


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


def _legal(rep, pos) -> list[dict]:
    """Every move the player to move may make, as the judge has it (``Position.legal_moves`` is the
    judge's set, ``tests/test_judge.py``); a draw names each tile that may be drawn (the record writes
    which one the player took)."""
    from ..position import tiles_of

    out = []
    seat = pos.turn
    for move in pos.legal_moves():
        if move.draw and move.tile is None:
            for tile in tiles_of(pos.pool, pos.max_pip):
                out.append(_move_data(rep, pos, seat, Move(tile, None, True)))
            continue
        if move.arm == 0 and move.tile is None and not move.draw:
            continue             # the opener's "no extra tile" is no entry of the record: the next move is
        out.append(_move_data(rep, pos, seat, move))
    return out


def _move_data(rep, pos, seat: int, move: Move) -> dict:
    kind = "draw" if move.draw else "pass" if move.tile is None else "play"
    return {"player": rep.players[seat], "move": str(move), "kind": kind, "tile": _pair(move.tile),
            "end": move.end, "arm": move.arm, "claim": _claim(rep.variant, pos, move)}


def _claim(variant, pos, move: Move) -> int | None:
    """The points a play scores at once (All Fives), which the record claims after the move."""
    if variant.play is None or not move.is_play:
        return None
    pos.push(move)
    try:
        return variant.play.points(variant.play.ends_total(pos.line(), pos.ends)) or None
    finally:
        pos.pop()


def enter_move(text: str, label: str, game: int, move: str, player: str | None = None,
               variant: str | None = None, rules: dict | None = None) -> dict:
    """``text`` with ``move`` (as :meth:`Move.parse` reads it, ``claim`` points added by ``+N``) written after
    the last move of game ``game`` in the record's own form: a cell of its table, or a move of its list
    (a new numbered row where the round begins again). ``player``: who makes it (default the player to
    move). An illegal move is written all the same, as a score sheet may show one; validation flags it.
    Returns ``{"text", "offset"}``: the new text and where the entry ends in it."""
    record, replays = _replays(text, label, variant, rules)
    rep = _game(replays, game)
    words = move.strip().split(" +")
    try:
        parsed = Move.parse(words[0])
        claim = int(words[1]) if len(words) > 1 else None
    except ValueError as exc:
        raise BoardError(str(exc)) from None
    if player is None:
        data = position_data(text, label, game, None, variant, rules)
        player = data["turn"]
        if player is None:
            raise BoardError("nobody is to move here: name the player")
    if player not in rep.players:
        raise BoardError(f"{player!r} is not a player of this game ({', '.join(rep.players)})")
    entry = MoveEntry(player, parsed.tile, parsed.end, draw=parsed.draw, claim=claim, arm=parsed.arm)
    return _insert(text, record.games[game], rep, entry)


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
        same_row = order.get(entry.player, 0) > order.get(last.player, 0)
        number = (last.round or 0) + (0 if same_row else 1)
    else:
        at = max([h.pos.line for h in game.hands if h.pos.line] + [game.table_pos.line, game.pos.line, 1]) - 1
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
    written = write(best.game).rstrip("\n").split("\n")
    lines[start:end] = written + ([""] if end < len(lines) else [])
    return {"text": "\n".join(lines), "likely": t.likely}


def _game_span(record, game: int, count: int) -> tuple[int, int]:
    """The lines (0-based, end exclusive) that hold game ``game`` of ``record``."""
    games = record.games
    starts = [max(1, g.pos.line) - 1 for g in games]
    end = starts[game + 1] if game + 1 < len(games) else count
    return starts[game], end


def record_files(roots: list[str]) -> list[str]:
    """The record files under ``roots`` (files as themselves, folders searched as the command line does)."""
    return expand(roots)
