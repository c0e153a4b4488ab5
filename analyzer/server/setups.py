"""The board's set-up form and its problem sets (docs/board.md), through the same door as the rest of the board
(:mod:`analyzer.server.library`): plain data in, plain data out, no web framework.

- :func:`setup_text`: a position's parts as the form gathers them (the tiles on the table, or its two ends and
  counts; each hand's tiles shown and how many more; who moves; what the passes proved; the points scored in
  the hand and the match score) written as a set-up record in the notation (:mod:`analyzer.notation.setup`),
  and its validation: whether the rules can reach the position is the validator's to say, at its line.
- :func:`problem_set_data`: the problems of a problem set as ``domino train --json`` writes it, each with its
  answer; :func:`book_data`: those of a book of problems (record files whose games are set-ups with a
  ``Problem`` tag), answered on request by :func:`problem_answer`, the analysis of the position as
  ``domino analyze --json`` gives it (``to_move``), in the answer's form a problem set has
  (:func:`analyzer.train.decision_answer`)."""
from __future__ import annotations

import json
import re
from typing import Callable

from ..notation import parse, write
from ..notation.setup import SetUp, position_hand, setup_record
from ..train import decision_answer
from .library import (AnalysisRequest, BoardError, BoardRecord, analyze_document, chosen_variant, seat_names, tile_list,
                      validate_document)

__all__ = ["setup_text", "problem_set_data", "book_data", "problem_answer", "PROBLEM_TAG"]

#: a record's text holds a problem: its Problem tag (how a folder is told to be a book of problems)
PROBLEM_TAG = re.compile(r'\[\s*Problem\s+"')


def _count(value, what: str, high: int = 10**6) -> int | None:
    """``value``: a whole number from 0 to ``high``, or None (not given)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise BoardError(f"{what}: give a whole number from 0 to {high:,}, or nothing")
    return value


def _numbers(values, what: str, max_pip: int) -> tuple[int, ...]:
    """``values``: numbers of the set (from 0 to ``max_pip``), each once, in order."""
    if not isinstance(values, list) or any(_count(x, what, max_pip) is None for x in values):
        raise BoardError(f"{what}: give a list of numbers from 0 to {max_pip}")
    return tuple(sorted(set(values)))


def _words(value, what: str) -> str:
    if value is not None and not isinstance(value, str):
        raise BoardError(f"{what} is text")
    return (value or "").strip()


def _table(table, max_pip: int) -> dict:
    """The table of the form: ``{"line": [[a, b], ...]}`` (its tiles in order from one open end to the other),
    or ``{"ends": [a, b], "counts": [[number, tiles], ...], "on_table": N}`` (known only by counts); empty:
    nothing on the table yet (the lead)."""
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise BoardError('"table" is {"line": [[low, high], ...]} or {"ends": [a, b], "counts": [[n, c], ...], '
                         '"on_table": N}')
    if table.get("line") is not None:
        line = tile_list("the line", table["line"], max_pip)
        return {"line": tuple(line)} if line else {}
    ends = table.get("ends")
    if ends is None:
        return {}
    if not (isinstance(ends, list) and len(ends) == 2 and all(_count(x, "an end", max_pip) is not None for x in ends)):
        raise BoardError(f"the table's ends: give the two open numbers, each from 0 to {max_pip}")
    counts = table.get("counts") or []
    if not isinstance(counts, list) or not all(isinstance(c, list) and len(c) == 2 for c in counts):
        raise BoardError("the table's counts: give [[number, tiles on the table that carry it], ...]")
    pairs = tuple((_count(n, "a counted number", max_pip), _count(c, "a count", 99)) for n, c in counts)
    return {"ends": (ends[0], ends[1]), "counts": tuple(p for p in pairs if None not in p),
            "on_table": _count(table.get("on_table"), "the tiles on the table", 99)}


def _per_side(values, v, names: list[str], what: str) -> list[tuple[str, int]]:
    """Each side's number as the form gives them (one a side of ``v``, in its order; null: not given), with
    the side's name as the tags write it (``A/C``)."""
    if values is None:
        return []
    if not isinstance(values, list) or len(values) != v.seating.sides:
        raise BoardError(f"{what}: give one number a side ({v.seating.sides}), null for none")
    return [(v.side_name(side, tuple(names)), _count(x, what)) for side, x in enumerate(values) if x is not None]


def setup_text(data: dict) -> dict:
    """A set-up record from the form's parts, written as the notation's writer writes it, and its validation
    (``{"text", "validation"}``). ``data``: ``variant``, ``rules``, ``players`` (names in play order), ``event``,
    ``problem`` (the question, for a ``Problem`` tag), ``table`` (:func:`_table`), ``hands`` (one a player:
    ``{"tiles": [[a, b], ...], "unknown": N}``, N more not shown), ``to_move``, ``lacks`` (one a player: the
    numbers his passes proved he lacks), ``boneyard``, ``points`` and ``match_score`` (one a side, or null).
    What the form cannot write is a :class:`BoardError`; a position the rules cannot reach is written all the
    same, and its validation says where and why (nothing the user chose is lost)."""
    rules = data.get("rules") or {}
    v = chosen_variant(data.get("variant"), rules)
    max_pip = v.dealing.max_pip
    names = seat_names(v, data.get("players"))
    hands, lacks = data.get("hands"), data.get("lacks")
    if not isinstance(hands, list) or len(hands) != len(names):
        raise BoardError(f"give one hand a player ({len(names)}): {{\"tiles\": [[low, high], ...], \"unknown\": N}}")
    dealt = []
    for name, hand in zip(names, hands):
        hand = hand or {}
        if not isinstance(hand, dict):
            raise BoardError(f"{name}'s hand: give {{\"tiles\": [[low, high], ...], \"unknown\": N}}")
        tiles = tile_list(f"{name}'s hand", hand.get("tiles") or [], max_pip)
        dealt.append(position_hand(name, tiles, _count(hand.get("unknown", 0), f"{name}'s tiles not shown", 99) or 0))
    if lacks is not None and (not isinstance(lacks, list) or len(lacks) != len(names)):
        raise BoardError(f"give the numbers each player lacks, one list a player ({len(names)})")
    voids = tuple((name, _numbers(numbers, f"the numbers {name} lacks", max_pip))
                  for name, numbers in zip(names, lacks or []) if numbers)
    to_move = _words(data.get("to_move"), "the player to move") or None
    if to_move is not None and to_move not in names:
        raise BoardError(f"the player to move, {to_move!r}, is not one of the players ({', '.join(names)})")
    score = _per_side(data.get("match_score"), v, names, "the match score")
    setup = SetUp(**_table(data.get("table"), max_pip), boneyard=_count(data.get("boneyard"), "the boneyard", 99),
                  to_move=to_move, lacks=voids, points=tuple(_per_side(data.get("points"), v, names, "the points")),
                  match_score=", ".join(f"{side} {n}" for side, n in score) or None)
    variant = _words(data.get("variant"), "the variant")
    tags = {"Event": _words(data.get("event"), "the event") or "a position", "Variant": variant or v.name,
            "Players": ", ".join(names)}
    if rules:
        tags["Rules"] = ", ".join(f"{k}={val}" for k, val in sorted(rules.items()))
    game = setup_record(setup, dealt, tags, _words(data.get("problem"), "the question") or None)
    text = write(game)
    return {"text": text, "validation": validate_document(text, "<board>")}


# ---- problem sets ---------------------------------------------------------------------------------

def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _alternative(a) -> dict | None:
    if not isinstance(a, dict) or not isinstance(a.get("move"), str):
        return None
    bracket = _pair(a.get("loss_bracket"))      # (only where the answer has one: train.decision_answer)
    return {"move": a["move"], "fair": _number(a.get("fair")), "ci95": _pair(a.get("ci95")),
            **({"loss_bracket": bracket} if bracket is not None else {}), "p_win": _number(a.get("p_win")),
            "best": a.get("best") is True, "played": a.get("played") is True}


def _pair(value) -> list[float] | None:
    """Two numbers (an interval, a bracket), else None."""
    return [float(x) for x in value] if isinstance(value, list) and len(value) == 2 and all(
        _number(x) is not None for x in value) else None


def _answer(p: dict) -> dict:
    """A problem's answer as a problem set gives it, each field of the type it should have (anything else left
    out: the file is the user's, and may have been edited)."""
    given = p.get("alternatives") if isinstance(p.get("alternatives"), list) else []
    alternatives = [a for a in map(_alternative, given) if a is not None]
    def strings(key: str) -> list[str]:
        return [x for x in p[key] if isinstance(x, str)] if isinstance(p.get(key), list) else []
    return {"best": _text(p.get("best")), "played": _text(p.get("played")), "loss": _number(p.get("loss")),
            "cls": _text(p.get("cls")), "verdict": _text(p.get("verdict")), "method": _text(p.get("method")),
            "deals": _number(p.get("deals", p.get("worlds"))), "tied": strings("tied"), "view": _text(p.get("view")),
            "line": strings("line"), "alternatives": alternatives,
            "worlds": _number(p.get("deals", p.get("worlds")))}      # (``deals`` under its former name: deprecated)


def problem_set_data(text: str, name: str) -> dict:
    """The problems of the problem set ``text`` (the JSON ``domino train --json`` writes; ``name``: its file):
    ``{"kind": "train", "player", "problems": [{"question", "position", "source", "game", "player", "answer"}],
    "skipped"}`` (``skipped``: problems with no position the set-up form can give, left out)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BoardError(f"{name} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        raise BoardError(f"{name} is no problem set (domino train --json writes one: an object with its "
                         "\"problems\")")
    out, skipped = [], 0
    for p in data["problems"]:
        if not isinstance(p, dict) or not _text(p.get("position")).strip():
            skipped += 1
            continue
        out.append({"question": _text(p.get("question")) or "What do you play?", "position": p["position"],
                    "source": _text(p.get("source")), "game": p["game"] if isinstance(p.get("game"), int) else None,
                    "player": _text(p.get("player")), "title": _text(p.get("title")), "answer": _answer(p)})
    return {"kind": "train", "player": _text(data.get("player")), "problems": out, "skipped": skipped}


def book_data(files: list[tuple[str, str]]) -> dict:
    """The problems of a book: every game with a ``Problem`` tag in the record files ``files`` ((name, text)),
    in order, each written alone as its position's record; answered on request (:func:`problem_answer`).
    ``{"kind": "book", "problems": [...], "skipped": 0}``."""
    out = []
    for name, text in files:
        if not PROBLEM_TAG.search(text):
            continue
        for number, game in enumerate(parse(text, name).games, 1):
            question = game.tags.get("Problem", "").strip()
            if question:
                out.append({"question": question, "position": write(game), "source": name, "game": number,
                            "player": game.tags.get("ToMove", ""), "title": game.tags.get("Event", ""),
                            "answer": None})
    if not out:
        raise BoardError("no game there has a Problem tag: a book of problems is a folder of set-up records, "
                         "each with its question in a Problem tag")
    return {"kind": "book", "player": "", "problems": out, "skipped": 0}


def problem_answer(doc: BoardRecord, asked: AnalysisRequest = AnalysisRequest(),
                   progress: Callable[[dict], None] | None = None) -> dict:
    """The answer to the problem whose position is ``doc`` (a record that stops at a decision): the decision
    where it stops as ``domino analyze --json`` values it (``to_move``: exact where every hand is shown, else
    the fair analysis from the mover's view, ``asked``'s ``seed``, ``decision_deals``, ``max_decision_deals``), in a problem set's
    form (:func:`analyzer.train.decision_answer`)."""
    document = analyze_document(doc, asked, progress=progress)
    if not document["games"]:
        raise BoardError("the problem's text holds no game")
    game = document["games"][0]
    errors = [d for d in game.get("diagnostics") or [] if d.get("severity") == "error"]
    if not game.get("valid", True) or errors:
        first = errors[0] if errors else {}
        raise BoardError("the problem's position is not valid" + (f" (line {first.get('line')}: "
                                                                  f"{first.get('message')})" if first else ""))
    decision = game.get("to_move")
    if decision is None:
        raise BoardError("the problem's record does not stop at a decision: no move to choose there "
                         "(a forced move, the hand over, or a Result tag stated)")
    return decision_answer({"analysis": game}, decision)
