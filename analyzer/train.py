"""Problems from one's own games: a player's real mistakes, as positions to solve again.

:func:`problems` reads the pipeline's results of a fair analysis (``analyze --fair`` over an archive: the
same results ``domino stats --fair`` sums up) and keeps the decisions of one player that the fair
analysis graded (its loss, by what he could know, reaches a class: ``inaccuracy``, ``mistake`` or
``blunder``), real mistakes first (the gap to the best is significant over the worlds), then by loss.
Each :class:`Problem` is the position he faced as he saw it (a set-up game, :mod:`analyzer.notation.setup`,
with his hand shown and the others' by their counts, and its drawing), the question, and the answer: the
best move, the move played, every alternative's fair value with its 95% interval, and the best line with
every hand open. The HTML page is :mod:`analyzer.render.problems`'s; :func:`anki_deck` writes an Anki deck
with genanki (the optional extra ``anki``)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from .analysis.grades import grade_word
from .archive.stats import player_key
from .i18n import N_, decimal, gettext
from .notation import parse, read, write
from .outputs import GENERATOR, OutputError, write_atomic
from .replay import replay
from .replay.setup import setup_game

__all__ = ["Problem", "problems", "CLASSES", "anki_deck", "problem_set", "problem_line", "book_problems", "decision_answer"]

#: the classes of a graded move, least first (``--min-class``)
CLASSES = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Problem:
    """One decision of the player, to solve again. ``position``: the set-up record of the position as he
    saw it (moves cut before his, his hand shown, every other by its count); ``svg``: its drawing;
    ``alternatives``: ``{"move", "fair", "ci95", "p_win", "best", "played"}`` per legal move, best first;
    ``line``: the best move's line with every hand open (as ``analyze --lines`` gives it; empty: not known)."""

    source: str
    game: int                   # the game's number in its file (1: the first)
    title: str
    player: str
    step: int                   # the move's index in the game (``analyze --json``'s ``index``)
    round: int | None
    line_number: int | None
    question: str
    played: str
    best: str
    loss: float
    cls: str
    verdict: str                # "real" or "uncertain" (see analysis.fair)
    method: str                 # "exact" or "sampled"
    deals: int                  # the deals the fair verdict was reached over (as ``analyze --json``'s ``deals``)
    alternatives: tuple[dict, ...]
    line: tuple[str, ...] = ()
    position: str = ""
    svg: str = field(default="", repr=False)
    tied: tuple[str, ...] = ()          # the moves the best is not told apart from (a book's problem)
    view: str = ""                      # whose values they are: "A/C values: B wants lower"
    scale: str = "points"               # "match": graded on the match-winning chance (``loss`` a fraction)
    why: tuple[str, ...] = ()           # why the move played lost with every hand open (``analysis.reasons``)

    def as_dict(self, drawing: bool = False) -> dict:
        out = asdict(self)
        out["alternatives"] = [dict(a) for a in self.alternatives]
        out["line"] = list(self.line)
        out["why"] = list(self.why)
        out["worlds"] = self.deals          # (deals under its former name: deprecated, as the analysis's ``worlds``)
        if not drawing:
            del out["svg"]
        return out


def _on_match_scale(decision: dict) -> bool:
    """Whether the fair analysis graded ``decision`` on the match scale (its hand's match position known)."""
    return (decision.get("fair") or {}).get("mwc_loss") is not None


def _graded(decision: dict, least: int, scale: str) -> bool:
    from .render.verdicts import OVER_HANDS

    fair = decision.get("fair") or {}
    if fair.get("method") == OVER_HANDS:
        return False        # (a sheet's verdict over several hands he may have held: no one position he saw)
    cls = fair.get("mwc_class" if scale == "match" and _on_match_scale(decision) else "class")
    return cls in CLASSES and CLASSES.index(cls) >= least and fair.get("verdict") in ("real", "uncertain")


def problems(results, player: str, min_class: str = "inaccuracy", most: int | None = None,
             scale: str = "points") -> list[Problem]:
    """The problems of ``player`` (by name, as ``stats`` counts him: case and blanks aside) in ``results``
    (the pipeline's results of an analysis with the fair analysis): each decision of his the fair analysis
    graded ``min_class`` or worse, real mistakes first, then by fair loss (largest first); at most ``most``.
    ``scale`` "match" (the results of an analysis on the match scale): a decision whose hand has its match
    position is graded, answered and ordered by the match-winning chance its player could expect (the fair
    MWC: each alternative's mean over the worlds); one whose hand has none is graded in points, as ``analyze``
    grades it, and comes after those graded on the match scale (a loss in points is no fraction of a match)."""
    least = CLASSES.index(min_class)
    key = player_key(player)
    found = []
    for result in results:
        games = result.get("games") or []
        record = None
        for number, game in enumerate(games, 1):
            analysis = game.get("analysis") or {}
            for d in analysis.get("decisions", []):
                if player_key(d["player"]) != key or not _graded(d, least, scale):
                    continue
                if record is None:
                    record = _replays(result["source"])
                found.append(_problem(result["source"], number, game, d, record, scale == "match"))
    found.sort(key=lambda p: (p.scale != "match", p.verdict != "real", -p.loss, p.source, p.game, p.step))
    return found if most is None else found[:most]


def _replays(source: str) -> list:
    """The replayed games of the record at ``source``, as a match replays them (a game may take its deal
    from the one before: ``Deal "same"``); none where it cannot be read again (gone since: no drawing)."""
    from .match import replay_record
    try:
        return replay_record(read(source))
    except Exception:
        return []


def _problem(source: str, number: int, game: dict, d: dict, replays: list, match: bool = False) -> Problem:
    """The problem of decision ``d``; ``match``: on the match scale where its hand has a match position (the
    best move the one of the highest fair MWC for the mover: it may differ from the best in points)."""
    fair = d["fair"]
    match = match and _on_match_scale(d)
    answer = decision_answer(game, d, match)
    loss, cls = (float(fair["mwc_loss"]), fair["mwc_class"]) if match else (float(fair["loss"]), fair["class"])
    position, svg = _position(replays, number, d["index"], d["player"])
    return Problem(source, number, game.get("title") or "", d["player"], d["index"], d.get("round"), d.get("line"),
                   f"{d['player']} to play: what do you play?", d["played"], answer["best"], loss, cls,
                   fair["verdict"], fair["method"], int(fair["deals"]),
                   tuple(answer["alternatives"]),
                   tuple(answer["line"]), position, svg, view=answer["view"], scale="match" if match else "points",
                   why=tuple(r["sentence"] for r in d.get("reasons") or ()))


def _view(game: dict, d: dict) -> str:
    """Whose values a problem's are and which way its player wants them (``analyze``'s words; ``game``: the
    pipeline's game, its analysis holding the sides)."""
    from .render.text import view_words
    analysis = game.get("analysis") or {}
    return view_words(d["player"], d["side"], analysis.get("sides") or [], bool(analysis.get("perspective")))


def _position(replays: list, number: int, step: int, player: str) -> tuple[str, str]:
    """The set-up text of the position before move ``step`` of game ``number`` as ``player`` saw it, and its
    drawing (his hand face up); empty where the set-up form cannot give it (the branches of a tree layout)."""
    from .render.diagram import game_diagram
    if number > len(replays):
        return "", ""
    rep = replays[number - 1]
    if step >= len(rep.steps):
        return "", ""
    rep = _with_his_hand(rep, player)
    others = tuple(name for name in rep.players if name != player)
    try:
        game = setup_game(rep, step, others)
    except ValueError:                      # (a tree of arms: no set-up form yet)
        return "", ""
    game.tags["Result"] = "*"
    game.moves.clear()
    game.tags["Problem"] = f"{player} to play: what do you play?"
    text = write(game)
    cut = replay(parse(text).games[0])
    if cut.errors:
        return text, ""
    return text, game_diagram(cut, 0, player)


def _with_his_hand(rep, player: str):
    """``rep``, where it is a sheet that does not write ``player``'s hand but fixes it (every deal it allows gives
    him the same tiles: he went out), with a deal it allows written: the position he saw shows his hand."""
    from .inference.sheet import is_sheet, sheet_deals
    seat = rep.players.index(player) if player in rep.players else None
    if seat is None or not is_sheet(rep) or not rep.initial.hidden[seat]:
        return rep
    from .analysis.sheets import written_replay
    from .inference import InferenceUnsupported, NoWorld
    try:
        found = sheet_deals(rep, max_deals=200)
    except (NoWorld, InferenceUnsupported, ValueError):
        return rep
    if not found.exact or found.method != "all" or len({d.hands[seat] for d in found.deals}) != 1:
        return rep
    return written_replay(rep, found.deals[0])


def book_problems(result: dict) -> list[Problem] | None:
    """The problems of one record written by hand (:func:`problems` is for a player's own games): each
    game of ``result`` (the pipeline's result of the record, analysed) is a set-up with a ``Problem``
    tag naming the question, answered by the analysis of the position: exact where every hand is shown,
    else the fair analysis from the mover's view. None where the record is not a book's: an error, a game
    without the tag, or one that does not stop at a decision."""
    games = result.get("games") or []
    if result.get("error") or not games:
        return None
    replays = _replays(result["source"])
    if len(replays) != len(games):
        return None
    found = []
    for number, (game, rep) in enumerate(zip(games, replays), 1):
        question = rep.game.tags.get("Problem")
        decision = (game.get("analysis") or {}).get("to_move")
        if not question or decision is None or not game["valid"]:
            return None
        found.append(_book_problem(result["source"], number, game, decision, rep, question))
    return found


def _book_problem(source: str, number: int, game: dict, d: dict, rep, question: str) -> Problem:
    from .render.diagram import game_diagram
    answer = decision_answer(game, d)
    text = write(rep.game)
    svg = game_diagram(rep, 0, "all" if answer["method"] == "exact" else d["player"])
    return Problem(source, number, game.get("title") or "", d["player"], d["index"], None, None, question, "",
                   answer["best"], 0.0, "", answer["verdict"], answer["method"], answer["deals"],
                   tuple(answer["alternatives"]), tuple(answer["line"]), text, svg, tuple(answer["tied"]),
                   answer["view"])


def decision_answer(game: dict, d: dict, match: bool = False) -> dict:
    """The answer to decision ``d`` of ``game`` (the pipeline's analysed game; ``d`` as ``analyze --json``
    gives it, such as its ``to_move``), as a problem gives it: ``best``, ``method`` (``exact`` where every
    hand is shown, else the fair analysis's), ``verdict``, ``deals`` (and ``worlds``, its former name, deprecated),
    ``tied`` (the moves the best is not
    told apart from), ``view`` (whose values they are), ``line`` (the best move's line, where the analysis
    has it) and ``alternatives`` (``{"move", "fair", "ci95", "p_win", "mwc", "best", "played"}``, best first:
    an exact value is its own interval; and ``loss_bracket``, where the verdict is by certified brackets under hidden
    information, for each move but the best: where its loss against the best certainly lies, its ``gap_ci``). ``match``: a fair decision answered on the match scale (the best
    move the one of the highest fair MWC for the mover, the alternatives in that order)."""
    fair = d.get("fair")
    sign = 1 if d["side"] == 0 else -1          # (the values and the MWC are the first side's)
    if fair is None:                    # every hand shown: the exact values
        alternatives = [{"move": a["move"], "fair": a["value"], "ci95": [a["value"], a["value"]], "p_win": None,
                         "mwc": None, "best": a["best"], "played": a["played"]}
                        for a in d["alternatives"] if a.get("value") is not None]
        best = next((a["move"] for a in alternatives if a["best"]), "")
        method, worlds, tied, verdict = "exact", 1, [], "exact"
        match = False
    else:
        method, worlds, tied = fair["method"], int(fair["deals"]), list(fair.get("tied") or ())
        verdict = fair["verdict"]
        # (a verdict by certified brackets: each other move's loss against the best, certainly within its gap_ci)
        bracketed = (fair.get("hidden") or {}).get("closed") is False
        alternatives = [{"move": a["move"], "fair": a["fair"]["mean"], "ci95": list(a["fair"]["ci95"]),
                         "p_win": a["fair"].get("p_win"), "mwc": a["fair"].get("mwc"), "best": False,
                         "played": a["played"], **({"loss_bracket": list(a["fair"]["gap_ci"])}
                                                   if bracketed and a["move"] != fair["best"] else {})}
                        for a in d["alternatives"] if a.get("fair")]

    def worth(a: dict) -> float:            # (for the mover: higher is better; no MWC: last)
        value = a["mwc" if match else "fair"]
        return -math.inf if value is None else sign * value
    if fair is not None:
        # (a verdict that names no best: the first of the moves not told apart, by the mean, is the answer's pick;
        # its ``tied`` says they are not told apart)
        best = max(alternatives, key=worth)["move"] if match else fair["best"] or (tied[0] if tied else "")
        for a in alternatives:
            a["best"] = a["move"] == best
    alternatives.sort(key=lambda a: (not a["best"], -worth(a)))
    line = next((a.get("line") for a in d["alternatives"] if a["move"] == best), None) or []
    return {"best": best, "method": method, "verdict": verdict, "deals": worlds, "worlds": worlds, "tied": tied,
            "view": _view(game, d), "line": list(line), "alternatives": alternatives}


def problem_line(p: Problem) -> str:
    """A problem in one line of text, its place first (``FILE:LINE`` of the move where the record gives it; the move
    named as everywhere, ``move N``: the N-th move of the game, ``index`` N - 1 in the JSON)::

        seed2.dom:14: game 1, move 1, B: played [1-1], best [0-1]; fair loss 11.00 (mistake, real)
    """
    place = f"{p.source}:{p.line_number}" if p.line_number is not None else p.source
    loss = (gettext("{percent}% of match-winning chance", percent=decimal(100 * p.loss)) if p.scale == "match" else
            decimal(p.loss))
    best = gettext(" or ").join(p.tied) if p.tied else p.best
    return gettext("{place}: game {game}, move {move}, {player}: played {played}, best {best}; fair loss {loss} "
                   "({grade}, {verdict})", place=place, game=p.game, move=p.step + 1, player=p.player,
                   played=p.played, best=best, loss=loss, grade=grade_word(p.cls),
                   verdict=gettext(VERDICT_WORDS[p.verdict]) if p.verdict in VERDICT_WORDS else p.verdict)


#: the verdict of a problem's move in its line (``problem_line``): real, uncertain, or exact (a hand shown)
VERDICT_WORDS = {"real": N_("real"), "uncertain": N_("uncertain"), "exact": N_("exact")}


def problem_set(found: list[Problem], player: str) -> dict:
    """The JSON document of a problem set, the tool's mark its first key (``outputs.KINDS["problems"]``: a later
    run may replace the file)."""
    from . import __version__
    return {"generator": f"{GENERATOR} {__version__}", "player": player, "count": len(found),
            "problems": [p.as_dict() for p in found]}


def anki_deck(found: list[Problem], player: str, path: str) -> int:
    """Write ``found`` as an Anki deck (``.apkg``) to ``path`` with genanki: a note per problem, the
    position and the question in front, the answer behind; whole or not at all (``outputs.write_atomic``:
    :class:`~analyzer.outputs.OutputError` names the file), the tool's mark the zip's comment
    (``outputs.KINDS["deck"]``). Returns the notes written. ImportError where genanki is not installed
    (the extra ``anki``: ``pip install analyzer[anki]``)."""
    import io
    import sqlite3
    import zipfile

    import genanki

    from . import __version__
    from .render.problems import anki_fields
    model = genanki.Model(
        1_607_392_319, "domino problem",
        fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Key"}],
        templates=[{"name": "Problem", "qfmt": "{{Question}}",
                    "afmt": "{{FrontSide}}<hr id=answer>{{Answer}}"}],
        sort_field_index=2)
    deck = genanki.Deck(2_059_400_110 + sum(map(ord, player_key(player))), gettext("domino: {player}'s problems", player=player))
    for problem in found:
        question, answer = anki_fields(problem)
        key = f"{problem.source}#{problem.game}#{problem.step}"
        deck.add_note(genanki.Note(model=model, fields=[question, answer, key], guid=genanki.guid_for(key)))
    buffer = io.BytesIO()
    try:        # (genanki builds the deck's database in a temporary file: a full disk or a file size limit fails it)
        genanki.Package(deck).write_to_file(buffer)
    except (OSError, sqlite3.Error) as exc:
        raise OutputError(f"{path}: cannot be written (the deck's database could not be made: {exc})") from None
    with zipfile.ZipFile(buffer, "a") as package:
        package.comment = f"{GENERATOR} {__version__}".encode()
    write_atomic(path, buffer.getvalue(), make_folder=True)
    return len(found)
