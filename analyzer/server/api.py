"""The board's API without a web framework: each route's reading of its JSON request and the library call
that answers it, and each error's status. The server (``app``, Starlette) and the static site's worker
(``analyzer.site.worker``, Pyodide in the browser) both answer ``/api/<route>`` through this module, so
there is one API layer: the server adds only what a server has (threads, worker processes that a cancel
ends, a client that may go away), the site only what a browser page has.

A handler takes the request's JSON object (a dict) and returns the answer's; a bad request raises
:class:`ApiError` with its status; :func:`error_answer` turns any exception into ``(status, {"error": ...})``,
never a traceback."""
from __future__ import annotations

import dataclasses
import logging
import uuid

from ..i18n import gettext, negotiate, number
from ..inference.memo import DealMemo, remembering
from .files import FileConflict, FileRefused, Roots
from .jobs import Busy, Cancelled
from .library import (AnalysisRequest, BoardError, BoardRecord, ExactBound, NewGame, branch_text, enter_move, new_record,
                      next_game, position_data, result_entry, variant_tags, variants_data, write_variation)
from .setups import PROBLEM_TAG, book_data, problem_set_data, setup_text

__all__ = ["ApiError", "ROUTES", "MAX_DECISION_DEALS", "RETIRED_KEYS", "current_keys", "DEALS", "remembered_route", "check_call", "analysis_call", "answer_call", "job_name", "FileRoutes",
           "error_answer", "language"]

_log = logging.getLogger("analyzer.server")
MAX_DECISION_DEALS = 51_200     # the most deals a decision may be given (``max_decision_deals``: "More deals")

#: A request's keys renamed (issue 86, one vocabulary: ``docs/glossary.md``): each retired key -> its name now. A
#: request that gives the retired one alone is read as before, for one version; given both, the new one counts.
RETIRED_KEYS = {"worlds": "decision_deals", "max_worlds": "max_decision_deals"}

#: The deals of the sheets (games that do not write every hand) the board was last asked about, kept for the next
#: request on the same games (``analyzer.inference.memo``): every request sends the whole text, and a click changes
#: one game. One memo for every route a plain call answers, here and in the static site's worker; a worker process
#: that runs the checks keeps its own (``jobs``).
DEALS = DealMemo()


class ApiError(Exception):
    def __init__(self, message: str, status: int = 400, **more):
        super().__init__(message)
        self.status, self.more = status, more


def language(data: dict) -> str:
    """The language a request asks its words in (``lang``, the page's: ``i18n.js``), one with a catalogue as
    :func:`analyzer.i18n.negotiate` picks it, else English: the pipeline's words (diagnostics, verdicts, the analysis)
    are made in it."""
    asked = data.get("lang")
    return negotiate([asked]) if isinstance(asked, str) and len(asked) < 40 else "en"


def _text(data: dict) -> str:
    text = data.get("text")
    if not isinstance(text, str):
        raise ApiError(gettext('give the record as "text", a string'))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ApiError(gettext('"text" holds a character no file can hold (a lone surrogate at {place})',
                               place=exc.start)) from None
    return text


def _rules(data: dict) -> tuple[str | None, dict[str, str]]:
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise ApiError(gettext('"variant" is a name (see `domino variants`) or null'))
    rules = data.get("rules") or {}
    if not isinstance(rules, dict) or not all(isinstance(k, str) and isinstance(v, (str, int))
                                              for k, v in rules.items()):
        raise ApiError(gettext('"rules" is an object of option names and values, like {example}',
                              example='{"players": "2"}'))
    return variant or None, {k: str(v) for k, v in rules.items()}


def _int(data: dict, key: str, default=None, low: int = 0, high: int | None = None):
    """``data[key]``, a whole number in bounds (absent: ``default``; null only where the default is null)."""
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        if high is not None:
            told = (gettext('"{key}" is a whole number from {low} to {high}', key=key, low=low, high=number(high))
                    if default is None else
                    gettext('"{key}" is a whole number from {low} to {high}, or left out', key=key, low=low,
                            high=number(high)))
        else:
            told = (gettext('"{key}" is a whole number of at least {low}', key=key, low=low) if default is None else
                    gettext('"{key}" is a whole number of at least {low}, or left out', key=key, low=low))
        raise ApiError(told)
    return value


def _label(data: dict) -> str:
    name = data.get("name")
    return name if isinstance(name, str) and name and len(name) < 1000 else "<board>"


def _moves(data: dict, key: str = "line") -> list[str] | None:
    line = data.get(key)
    if line is not None and not (isinstance(line, list) and all(isinstance(m, str) for m in line)):
        raise ApiError(gettext('"{key}" is a list of moves like "B [0-1]"', key=key))
    return line


def _record(data: dict) -> BoardRecord:
    """The record a request works on: its text, its name, the variant and rules chosen."""
    variant, rules = _rules(data)
    return BoardRecord(_text(data), _label(data), variant, rules)


def _position(data):
    doc = _record(data)
    cursor = data.get("cursor")
    if cursor is not None:
        if not isinstance(cursor, dict):
            raise ApiError(gettext('"cursor" is {example}', example='{"line": N, "column": N}'))
        cursor = (_int(cursor, "line", 1, 1), _int(cursor, "column", 1, 1))
    line = _moves(data)
    best = data.get("best")
    if best is not None and not isinstance(best, str):
        raise ApiError(gettext('"best" is the move the analysis names best there, like "[2-3]@2", or null'))
    return position_data(doc, _int(data, "game", 0), _int(data, "step", None), cursor, line, _int(data, "along", 0), best)


def _enter(data):
    doc = _record(data)
    move = data.get("move")
    player = data.get("player")
    if not isinstance(move, str) or (player is not None and not isinstance(player, str)):
        raise ApiError(gettext('give the move as "move" ("[3-6]@6", "pass", "draws [2-5]") and "player" as a name'))
    return enter_move(doc, _int(data, "game", 0), move, player, _int(data, "step", None))


def _variation(data):
    doc = _record(data)
    line = _moves(data)
    if not line:
        raise ApiError(gettext('give the variation as "line", a list of moves like "B [0-1]", and where it starts as '
                                 '"step"'))
    return write_variation(doc, _int(data, "game", 0), _int(data, "step", 0), line)


def _branch(data):
    doc = _record(data)
    line = _moves(data)
    if line is None:
        raise ApiError(gettext('give the variation as "line", a list of moves like "B [0-1]", and how many of them as '
                                 '"along"'))
    return branch_text(doc, _int(data, "game", 0), _int(data, "step", 0), line, _int(data, "along", 0))


def _result(data):
    doc = _record(data)
    chosen = data.get("result")
    if chosen is not None and not isinstance(chosen, str):
        raise ApiError(gettext('"result" is a result as a Result tag states it ("A/C 1 blocked"), or left out'))
    return result_entry(doc, _int(data, "game", 0), chosen)


def _next(data):
    variant, rules = _rules(data)
    return next_game(_text(data), _label(data), variant, rules)


def _tags(data):
    variant, rules = _rules(data)
    return variant_tags(_text(data), _label(data), variant, rules)


def _variants(data):
    return variants_data(*_rules(data))


def _new(data):
    variant, rules = _rules(data)
    players, hands = data.get("players"), data.get("hands")
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise ApiError(gettext('"players" is a list of names in play order, or null'))
    if hands is not None and not isinstance(hands, list):
        raise ApiError(gettext('"hands" is a list, one a player: null or {example}',
                              example='{"tiles": [[low, high], ...], "unknown": N}'))
    event, lead = data.get("event"), data.get("lead") or None
    if (event is not None and not isinstance(event, str)) or (lead is not None and not isinstance(lead, str)):
        raise ApiError(gettext('"event" and "lead" are strings'))
    starter = data.get("starter")
    if starter is not None and not isinstance(starter, list):
        raise ApiError(gettext('"starter" is the tile turned up to open the line, [low, high], or null'))
    return new_record(variant, rules, NewGame(players, hands, event, lead, starter))


def _setup(data):
    variant, rules = _rules(data)
    return setup_text({**data, "variant": variant, "rules": rules})


def remembered_route(handler, memo: DealMemo | None = None):
    """``handler`` answering with the deals of the games it replays kept in ``memo`` (default :data:`DEALS`)."""
    def answer(data):
        with remembering(memo or DEALS):
            return handler(data)
    answer.__name__ = answer.__qualname__ = getattr(handler, "__name__", "answer")
    answer.__doc__ = handler.__doc__
    return answer


#: The routes a plain call answers (no worker): route -> handler(request) -> answer. They keep no state but the
#: deals of the sheets they replayed (:data:`DEALS`).
ROUTES = {route: remembered_route(handler) for route, handler in (
    ("position", _position), ("enter", _enter), ("variation", _variation), ("branch", _branch),
    ("result", _result), ("next", _next), ("tags", _tags), ("variants", _variants), ("new", _new),
    ("setup", _setup))}


def job_name(data: dict, kind: str | None = None) -> tuple[str, bool]:
    """The job's name a request gives (``job``), and whether it is the page's own (its next replaces its last);
    without one a fresh name. ``kind``: a check's kind (validate, repair), put before the page's name."""
    job = data.get("job")
    if isinstance(job, str) and 0 < len(job) <= 100:
        return (f"{kind}:{job}" if kind else job), True
    return (f"{kind}:" if kind else "") + uuid.uuid4().hex, False


def check_call(kind: str, data: dict) -> tuple[str, dict]:
    """A page's check (``kind``: validate, repair): the library function's name and its keyword arguments."""
    variant, rules = _rules(data)
    kwargs = dict(text=_text(data), label=_label(data), variant=variant, rules=rules)
    if kind == "validate":
        return "validate_document", kwargs
    if kind == "repair":
        return "repair_text", {**kwargs, "game": _int(data, "game", 0)}
    raise ValueError(f"no check {kind!r}")


def current_keys(data: dict) -> dict:
    """``data`` (a request) with each retired key (:data:`RETIRED_KEYS`) under its name now, where the request does
    not give the new one too (the retired one is then dropped)."""
    out = {k: v for k, v in data.items() if k not in RETIRED_KEYS}
    for old, new in RETIRED_KEYS.items():
        if old in data and new not in data:
            out[new] = data[old]
    return out


def _decision_deals(data: dict) -> tuple[int, int | None]:
    """A fair analysis's deals for one decision: drawn first (``decision_deals``, as ``--decision-deals``), and the
    most it may be given (``max_decision_deals``, as ``--max-decision-deals``; None: the command's default)."""
    data = current_keys(data)
    first = _int(data, "decision_deals", 200, 2, 10_000)
    most = _int(data, "max_decision_deals", None, 2, MAX_DECISION_DEALS)
    if most is not None and most < first:
        raise ApiError(gettext('"max_decision_deals" ({most}) is fewer than the {first} deals drawn first '
                               '("decision_deals")', most=number(most), first=number(first)))
    return first, most


def analysis_call(data: dict, cap: int, exact: ExactBound = ExactBound()) -> dict:
    """``library.analyze_document``'s keyword arguments for an ``analyze`` request, each decision's search
    bounded by ``cap`` nodes at most, and its exact values under hidden information by ``exact`` (the request's
    ``exact_hand`` may ask fewer tiles a hand) (with ``progress=True``: the caller puts its own reporter there)."""
    doc = _record(data)
    first, most = _decision_deals(data)
    exact = dataclasses.replace(exact, hand=_int(data, "exact_hand", exact.hand, 0, exact.hand))
    return dict(doc=doc, asked=AnalysisRequest(
        fair=bool(data.get("fair", False)), lines=bool(data.get("lines", False)),
        max_nodes=min(_int(data, "max_nodes", cap, 1), cap), seed=_int(data, "seed", 0), decision_deals=first,
        max_decision_deals=most, exact_below=_int(data, "exact_below", 1000, 1, 100_000),
        values_seconds=_seconds(data, "values_seconds", AnalysisRequest.values_seconds),
        fair_seconds=_seconds(data, "fair_seconds", AnalysisRequest.fair_seconds), exact=exact), progress=True)


def _seconds(data: dict, key: str, default: float | None) -> float | None:
    """A sheet's CPU budget, ``data[key]``: whole seconds, 0 or more, or null (no budget), as ``--values-seconds``
    and ``--fair-seconds`` take it (absent: ``default``)."""
    if key not in data:
        return default
    value = data[key]
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ApiError(gettext('"{key}" is whole CPU seconds, 0 or more, or null for no budget, or left out', key=key))
    return value


def answer_call(data: dict) -> dict:
    """``setups.problem_answer``'s keyword arguments for an ``answer`` request (the answer to a problem)."""
    first, most = _decision_deals(data)
    return dict(doc=BoardRecord(_text(data), _label(data)),
                asked=AnalysisRequest(seed=_int(data, "seed", 0), decision_deals=first, max_decision_deals=most), progress=True)


class FileRoutes:
    """The routes that read and write the record files of ``files`` (a server's folders, or the site's
    folder in the browser's storage)."""

    def __init__(self, files: Roots):
        self.files = files

    def problem_sets(self, _data):
        return {"sets": self.files.problem_sets(PROBLEM_TAG.search)}

    def problems(self, data):
        real, kind, name, content = self.files.problems(data.get("path"))
        found = problem_set_data(content, name) if kind == "train" else book_data(content)
        return {"path": real, "name": name, **found}

    def listing(self, _data):
        return {"roots": self.files.paths, "files": self.files.listing()}

    def open_file(self, data):
        return self.files.open(data.get("path"))

    def save_file(self, data):
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ApiError(gettext('"token" is the token the file was opened with, or null for a new file'))
        return self.files.save(data.get("path"), _text(data), token)

    def routes(self) -> dict:
        return {"files": self.listing, "open": self.open_file, "save": self.save_file,
                "problemsets": self.problem_sets, "problems": self.problems}


def error_answer(exc: Exception, where: str = "") -> tuple[int, dict]:
    """The status and JSON answer of an exception a handler raised: a bad request's own, the library's
    refusal (422), a file refused (403) or changed on disk (409, with its token), too busy (503), cancelled
    (409); any other is a bug on this request's record, named (422), logged, never a traceback."""
    if isinstance(exc, ApiError):
        return exc.status, {"error": str(exc), **exc.more}
    if isinstance(exc, BoardError):
        return 422, {"error": str(exc)}
    if isinstance(exc, FileRefused):
        return 403, {"error": str(exc)}
    if isinstance(exc, FileConflict):
        return 409, {"error": str(exc), "token": exc.token}
    if isinstance(exc, Busy):
        return 503, {"error": str(exc)}
    if isinstance(exc, Cancelled):
        return 409, {"error": str(exc), "cancelled": True}
    _log.error("internal error on %s", where, exc_info=exc)
    return 422, {"error": f"the board failed on this record ({type(exc).__name__}: {str(exc)[:200]}); "
                          "please report it"}
