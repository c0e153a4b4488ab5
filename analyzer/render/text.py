"""The plain-text views of the command line: a replay move by move (with what a viewer can infer), an
analysis with its fair verdicts, a validation with its repairs. Each returns the text (lines ending
in a newline); printing it is the command line's business."""
from __future__ import annotations

from ..replay import Replay, wins
from ..replay.json import hand_names, result_text
from ..rules.layout import arms_text
from ..rules.modes import Layout
from .verdicts import (bracket_words, certified_loss_words, contradiction_text, overturned, team_range, team_words, OVER_HANDS, sheet_deals_words, fair_note_words, hindsight_best_words, verdict_word, loss_range_words, over_text, alternative_marks, bounds_text, sure_value, chance_holder, chance_text, fair_best_words, holds_lines,
                       how_words, gap_words, open_verdict, signed_decimal, tied_words)
from ..rules.codes import Code
from ..analysis.grades import grade_word
from ..i18n import N_, decimal, gettext, ngettext, number

__all__ = ["match_scale_text", "signed", "point_of_view", "view_words", "alternative_order", "inference_text", "hands_line", "replay_text", "analysis_text", "fair_text", "worst_lines", "spread_text",
           "repair_text", "validation_text", "no_game"]


#: the grades' words, as the text shows them (upper case: the grade of the move played)
GRADES = {"inaccuracy": N_("INACCURACY"), "mistake": N_("MISTAKE"), "blunder": N_("BLUNDER")}
#: how a fair verdict was reached (its ``method``), as the fair critical move says it
FAIR_METHODS = {"exact": N_("exact"), "sampled": N_("sampled"), "exact-hidden": N_("exact under hidden information")}
#: an alternative's marks (:func:`~analyzer.render.verdicts.alternative_marks`), in the catalogue
MARKS = (N_("played"),)


def _grade(cls: str | None) -> str:
    """A grade as the decision's line shows it: ``INACCURACY`` (in the active language)."""
    return gettext(GRADES[cls]) if cls in GRADES else (cls or "").upper()


def _marks(d, alt) -> str:
    return ", ".join(gettext(m) for m in alternative_marks(d, alt))


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def signed(v: int | None) -> str:
    """A value as the analysis prints it: ``+5``, ``-3``, ``0``; ``?`` for none."""
    if v is None:
        return "?"
    return f"{v:+d}" if v else "0"


# ---- replay ---------------------------------------------------------------------------------------

def inference_text(step: dict, view: str | None = None) -> str:
    """What ``view`` can infer after one move (a step of ``replay --view``'s inference): the count of
    deals and the compact tile-by-holder matrix (:func:`~analyzer.render.verdicts.holds_lines`)."""
    return _text([("       " if k == 0 else "         ") + line
                  for k, line in enumerate(holds_lines(step["deals"], step["holds"], view))])


def hands_line(rep: Replay, step, view: str | None, seen: dict | None = None) -> str:
    """Every hand after ``step``; with a ``view``, the viewer's own hand and only the size of the others
    (what the viewer may infer of them is the matrix below, not the hands in full; ``seen``: that
    inference)."""
    def hand(s: int, name: str) -> str:
        if view is None or name == view:
            return f"{name}: {' '.join(hand_names(rep, step.hands_after[s])) or '-'}"
        if seen is not None and name in seen["holds"]:
            n = round(sum(seen["holds"][name].values()))       # the chances of a hand add up to its size
        elif not rep.initial.hidden[s]:
            n = bin(step.hands_after[s]).count("1")
        else:
            return f"{name}: ?"
        return f"{name}: " + ngettext("{n} tile", "{n} tiles", n)
    return "  ".join(hand(s, name) for s, name in enumerate(rep.players))


def _names(rep: Replay, mask: int) -> str:
    return " ".join(hand_names(rep, mask)) or "-"


def _step_line(rep: Replay, step) -> str:
    entry = step.entry
    what = entry.notation(where=False, marks=False)
    if step.move is not None and step.move.arm is not None:
        what += " " + (gettext("on end {end}", end=step.move.arm) if rep.variant.layout == Layout.LINE else
                       gettext("on arm {arm}", arm=step.move.arm))
    elif step.move is not None and step.move.end is not None and not entry.draw:
        what += " " + gettext("on the {number}", number=step.move.end)
    if entry.annotation:
        what += f" {entry.annotation}"
    label = f"{entry.round}." if entry.round is not None else "  "
    ends = "-" if step.ends_after is None else " ".join(map(str, step.ends_after))
    if step.arms:
        ends = arms_text(step.arms)
    line = f"{label:>4} {entry.player:<6} {what:<22} " + gettext("open: {ends}", ends=ends)
    if step.lacks:
        line += "   " + gettext("{player} has no {numbers}", player=entry.player,
                                numbers=gettext(" and no ").join(map(str, step.lacks)))
    if step.boneyard is not None:
        line += "   " + gettext("boneyard: {n}", n=step.boneyard)
    if step.scores is not None:
        line += "   " + gettext("score: {scores}", scores=", ".join(f"{name} {v}" for name, v in zip(rep.players,
                                                                                               step.scores)))
    if step.move is None and step.seat is not None and not entry.is_muggins:
        line += "   " + gettext("(not played)")
    return line


def replay_text(number: int, rep: Replay, inferred: dict | None = None, view: str | None = None) -> str:
    """Game ``number`` move by move (``replay``): the open ends, every hand, the passes and what each
    proves, the match score; with ``inferred`` (its ``replay --view`` inference), what ``view`` can
    infer after each move."""
    lines = []
    found = inferred if inferred is not None else {"steps": []}
    seen = {s["seen"]: s for s in found["steps"]}
    lines.append(gettext("Game {number}: {title}  [{variant}]", number=number, title=rep.title,
                         variant=rep.variant.name))
    sides = gettext(" vs ").join(rep.side_name(s) for s in range(rep.variant.seating.sides))
    lines.append(gettext("Players in play order: {players}  ({sides})", players=', '.join(rep.players), sides=sides))
    lines += [f"  {diag}" for diag in rep.notation + rep.deal_diagnostics]
    for seat, name in enumerate(rep.players):
        if view is not None and name != view and 0 in seen:      # another's hand: what the view sees of it
            n = round(sum(seen[0]['holds'].get(name, {}).values()))
            lines.append(f"  {name}: " + (ngettext("{n} tile, unseen", "{n} tiles, unseen", n)
                                          if view.lower() == "public" else
                                          ngettext("{n} tile, unseen by {view}", "{n} tiles, unseen by {view}", n,
                                                   view=view)))
            continue
        lines.append(f"  {name}: {_names(rep, rep.initial.hands[seat]) if not rep.initial.hidden[seat] else '?'}")
    text = _text(lines)
    if 0 in seen:
        text += _text(["  " + gettext("What {view} can infer from the deal:", view=view)]) + inference_text(seen[0],
                                                                                                          view)
    lines = []
    if found.get("stopped"):
        lines.append("  " + gettext("Inference stops: {reason}", reason=found['stopped']))
    for step in rep.steps:
        lines.append(_step_line(rep, step))
        lines.append(f"       {hands_line(rep, step, view, seen.get(step.index + 1))}")
        if step.entry.comment:
            lines.append(f"       {{{step.entry.comment}}}")
        lines += [f"       {diag}" for diag in step.diagnostics]
        if step.index + 1 in seen:
            text += _text(lines) + inference_text(seen[step.index + 1], view)
            lines = []
    lines += [f"  {diag}" for diag in rep.end_diagnostics]
    if rep.match is not None:
        state, possible = rep.match.state, rep.match.possible or (rep.match.state,)
        open_end = len({(p.over, p.winner) for p in possible}) > 1     # (a sheet: the deals leave it open)
        lines.append(gettext("Match score after game {number}: {score}", number=rep.match.number,
                             score=rep.match.score)
                     + (f" ({state.note})" if state.note and not rep.match.possible else "")
                     + (gettext("; whether the match is over, and who won it, is not known (the deals allow either)")
                        if open_end else
                        gettext("; the match is over, won by {side}", side=rep.side_name(state.winner))
                        if state.over and state.winner is not None else
                        gettext("; the match is over") if state.over else ""))
    if rep.scores is not None:
        lines.append(gettext("Points scored during play: {scores}",
                             scores=", ".join(f"{n} {v}" for n, v in zip(rep.players, rep.scores))))
    outcome = (result_text(rep) if rep.result else gettext('the hand is not over') if rep.outcome is None
               else rep.outcome.termination)
    lines += [gettext("Result: {result}", result=outcome), ""]
    return text + _text(lines)


# ---- analysis -------------------------------------------------------------------------------------

#: What each number of a sheet's analysis is, said once above its decisions.
SHEET_KEY = N_("Reading: a move's value is its mean over the deals in which its player could play it, of those it was "
             "valued in (\"mean of 448 of the 1,000 deals\"; a move told apart from the best on average is not valued "
             "in the deals drawn after), so two moves' means may stand on different deals: the best on average is "
             "told apart from another by their gap over the deals both could be played in. The 95% interval is the "
             "mean's (where the deals are a sample); least and most, the lowest and the highest value in those "
             "deals. The one verdict of a move (in capitals) is the fair one: REAL, UNCERTAIN (graded by what he "
             "knew, but not a real mistake in every hand judged) or HINDSIGHT ONLY.")  # noqa: E501

def fair_text(d, team: bool = True) -> str:
    """The fair verdict of a decision (``analyze --fair``); ``team``: with the line of what certified brackets under
    hidden information say of it (a partnership's, :func:`team_words`; or why a two-player verdict's best was
    overturned, :func:`contradiction_text`), which the board says in a sentence of its own."""
    f = d.fair
    how = how_words(f)
    if f.verdict == "real":
        mark = "  " + gettext("REAL {grade}", grade=_grade(f.cls) if f.cls else "")
    elif f.verdict == "uncertain" and getattr(f, "loss_bracket", None) is not None:    # (certified brackets)
        mark = "  " + gettext("{grade} by what he knew, not certain: only the high end of its loss's bracket reaches "
                              "it", grade=grade_word(f.cls))
    elif f.verdict == "uncertain":
        mark = "  " + gettext("{grade} by what he knew, not significant", grade=grade_word(f.cls))
    else:
        mark = "  " + gettext("hindsight only") if f.verdict == "hindsight" else ""
    if mark and f.verdict in ("real", "uncertain") and getattr(f, "cause", None):
        mark += " " + gettext("(graded by {cause}, not by the points)", cause=f.cause)
    if getattr(d, "loss_over", None) is not None:
        mark = ""                   # (a sheet: its one verdict word is on the decision's line)
    verdict = tied_words(f) or gettext("best {move}{gap}", move=f.best, gap=gap_words(d))
    if f.method == OVER_HANDS:          # (a sheet: its one verdict word is on the decision's line)
        h = f.over_hands
        ci = (gettext("95% interval {low} to {high}; ", low=decimal(h.ci95[0]), high=decimal(h.ci95[1]))
              if h.ci95 is not None else "")
        best = gettext("best {move} in every hand; ", move=f.best) if f.best else ""
        loss = (gettext("loses {loss} on average ({ci}least {low}, most {high} by the hand)", loss=decimal(f.loss),
                        ci=ci, low=decimal(h.min), high=decimal(h.max))
                if h.min != h.max else gettext("loses {loss} in every hand", loss=decimal(f.loss)))
        if h.judged == 1:
            real = gettext("a real mistake in {real} of the one hand judged", real=number(h.real))
        elif h.drawn not in (None, h.judged):
            real = ngettext("a real mistake in {real} of the {n} different hand judged",
                            "a real mistake in {real} of the {n} different hands judged", h.judged,
                            real=number(h.real))
        else:
            real = ngettext("a real mistake in {real} of the {n} hand judged",
                            "a real mistake in {real} of the {n} hands judged", h.judged, real=number(h.real))
        return _text(["    " + gettext("by what {player} knew (the fair analysis over {how}): {best}{loss}; {real}",
                                       player=f.view, how=how, best=best, loss=loss, real=real)])
    # (the brackets' words: a partnership's, or why open CFR+ brackets overturned a two-player verdict's best)
    team = ["    " + words for words in (team_words(f), contradiction_text(f)) if words] if team else []
    if overturned(f):                       # (no verdict: the bracket says why)
        return _text(["    " + gettext("fair ({player}'s view, {how}): {verdict}; no verdict on the move played",
                                       player=f.view, how=how, verdict=verdict)] + team)
    if d.played in f.tied:          # not told apart from the best: no loss to show (its gap says why)
        return _text(["    " + gettext("fair ({player}'s view, {how}): {verdict}; {move} played is one of them{mark}",
                                       player=f.view, how=how, verdict=verdict, move=d.played, mark=mark)] + team)
    bracket = getattr(f, "loss_bracket", None)
    loss = decimal(f.loss) + (f" ({bracket_words(bracket)})" if bracket is not None else "")
    return _text(["    " + gettext("fair ({player}'s view, {how}): {verdict}; loss {loss}{mark}", player=f.view,
                                   how=how, verdict=verdict, loss=loss, mark=mark)] + team)


def worst_lines(d, whose: str = "") -> list[str]:
    """At a real mistake, the deal where the move played does worst against the fair best: the gap, both
    values (``whose``: ``A/C``, whose values they are) and the hands of that deal at the decision."""
    w = getattr(d.fair, "worst", None)
    if w is None:
        return []
    tiles = " ".join(map(str, w.rest))
    rest = ("; " + (gettext("boneyard {tiles}", tiles=tiles) if w.ordered else gettext("sleepers {tiles}", tiles=tiles))
            if w.rest else "")
    words = {"player": d.player, "move": d.played, "number": d.index + 1, "line": d.line, "gap": w.gap,
             "best": d.fair.best, "played": signed(w.played_value), "value": signed(w.best_value)}
    head = (gettext("Worst deal for {player}'s {move} (move {number}, line {line}): loses {gap} against {best} "
                    "({played} instead of {value} for {whose})", whose=whose, **words) if whose else
            gettext("Worst deal for {player}'s {move} (move {number}, line {line}): loses {gap} against {best} "
                    "({played} instead of {value})", **words))
    hands = "; ".join(f"{name} {' '.join(map(str, tiles)) or '-'}" for name, tiles in w.hands)
    return [head, "  " + gettext("hands: {hands}", hands=hands) + rest]


def spread_text(fair) -> str:
    """How a fair value spreads over the worlds, in a few characters: ``spread -40..+53, middle half -18..+22``."""
    s = getattr(fair, "spread", None)
    if s is None:
        return ""
    q1, q3 = s.as_dict()["p25"], s.as_dict()["p75"]
    return "  " + gettext("spread {low}..{high}, middle half {q1}..{q3}", low=signed(s.low), high=signed(s.high),
                          q1=signed(q1), q3=signed(q3))


def alternative_order(alt, side: int) -> tuple[bool, float]:
    """Best first for the mover: by the fair mean where there is one (the fair best is the verdict), else by
    the open-hands value (past the node limit: the bound the mover is sure of); a move with neither last."""
    value = (alt.fair.mean if getattr(alt, "fair", None) is not None else alt.over_deals.mean
             if getattr(alt, "over_deals", None) is not None else sure_value(alt, side))
    if value is None:
        return True, 0
    return False, -value if side == 0 else value


def _value_text(alt) -> str:
    """An alternative's open-hands value: exact (``+12``), its proven bounds past the node limit (``>= +12``,
    ``[+4, +20]``), or ``?``."""
    bounds = getattr(alt, "bounds", None)
    return bounds_text(bounds) if alt.value is None and bounds else signed(alt.value)


def _fair_columns(alt, holder: str) -> str:
    """An alternative's fair value, its interval and its chance to win the hand, named by whose it is."""
    if getattr(alt, "fair", None) is None:
        return ""
    lo, hi = alt.fair.ci95
    return ("  " + gettext("fair {value}", value=f"{signed_decimal(alt.fair.mean):>7}")
            + (f" [{signed_decimal(lo)}, {signed_decimal(hi)}]" if lo != hi else "")
            + f"  {chance_text(holder, alt.fair.p_win)}".rstrip() + spread_text(alt.fair))


def _certified_column(d, alt) -> str:
    """An alternative's loss against the best where the decision's verdict is by certified brackets, or nothing."""
    got = certified_loss_words(d, alt)
    return f"  ({got})" if got else ""


def _team_column(d, alt) -> str:
    """An alternative's bracket under hidden information (a partnership decision's: ``analysis.teamfair``), on the
    fair values' scale, or nothing."""
    got = team_range(getattr(d, "fair", None), alt.move)
    return "  " + gettext("hidden-information bracket {range}", range=got) if got else ""


def _to_move_text(d, holder: str, view: str) -> str:
    """The decision a record stops at (``[Result "*"]``): what the player to move should play now (``view``:
    its :func:`point_of_view`)."""
    best = ", ".join(a.move for a in d.alternatives if a.best)
    lines = [gettext("To move at the end of the record: {player} ({view})", player=d.player, view=view)
             + "; " + (gettext("best {move}{gap}", move=best, gap="") if best else
                       gettext("no value with every hand open"))
             + (f" ({signed(d.best_value)})" if d.best_value is not None else "")]
    if d.fair is not None:
        f = d.fair
        lines.append("    " + gettext("fair ({player}'s view, {how}): {verdict}", player=f.view, how=how_words(f),
                                      verdict=tied_words(f) or gettext("best {move}{gap}", move=f.best, gap="")))
        team = team_words(f)
        lines += ["    " + team] if team else []
    for alt in sorted(d.alternatives, key=lambda a: alternative_order(a, d.side)):
        lines.append(f"      {alt.move:<10} {signed(alt.value):>5}{_fair_columns(alt, holder)}"
                     f"{_certified_column(d, alt)}{_team_column(d, alt)}  "
                     f"{_marks(d, alt)}".rstrip())
    return _text(lines)


def point_of_view(d, result) -> str:
    """Whose values a decision's are and which way the mover wants them: ``A/C values: B wants lower``
    (the first side's values; its own side wants them higher), ``C's values: C wants higher`` where each
    plays for himself (each decision valued for its mover against the rest)."""
    return view_words(d.player, d.side, result.sides, bool(result.perspective))


def view_words(player: str, side: int, sides, perspective: bool) -> str:
    """:func:`point_of_view` from its parts (a decision's ``player`` and ``side``, the game's ``sides`` and
    whether each decision is valued for its mover), as ``analyze --json`` gives them."""
    if perspective or not sides:
        return gettext("{player}'s values: {player} wants higher", player=player)
    if "/" not in sides[0]:
        return (gettext("{side}'s values: {player} wants higher", side=sides[0], player=player) if side == 0 else
                gettext("{side}'s values: {player} wants lower", side=sides[0], player=player))
    return (gettext("{side} values: {player} wants higher", side=sides[0], player=player) if side == 0 else
            gettext("{side} values: {player} wants lower", side=sides[0], player=player))


def _decision_text(d, result) -> str:
    where = gettext("move {number}", number=d.index + 1) + ", "
    if d.unsolved:                # the search ran past the node limit: the others are bounded
        verdict = ngettext("{unsolved} of {n} move not valued exactly (the node limit)",
                           "{unsolved} of {n} moves not valued exactly (the node limit)", len(d.alternatives),
                           unsolved=number(d.unsolved))
        if d.loss:
            verdict += "; " + gettext("loss {loss}", loss=d.loss) + (f"  {_grade(d.cls)}" if d.cls else "")
        elif d.loss == 0:
            verdict += "; " + gettext("best, proven by the bounds")
        elif d.least_loss:
            verdict += "; " + gettext("loss at least {loss}", loss=d.least_loss)
    elif getattr(d, "loss_over", None) is not None:     # a sheet: its values over the deals it allows
        analysed = result.deals.analysed if getattr(result, "deals", None) is not None else None
        hindsight = hindsight_best_words(d)
        verdict = (gettext("with every hand open (hindsight) it loses {loss}",
                           loss=loss_range_words(d.loss_over, analysed)) + (f"; {hindsight}" if hindsight else ""))
        word = verdict_word(d)
        verdict += f"  {word.upper()}" if word else ""
    elif d.loss is None:          # a hand is hidden: nothing is known of the move with every hand open
        verdict = gettext("no value with every hand open")
    elif getattr(d, "fair", None) is not None:     # the fair verdict follows: this one is hindsight's
        verdict = open_verdict(d)
    else:
        verdict = (gettext("loss {loss}", loss=d.loss) + (f"  {_grade(d.cls)}" if d.cls else "") if d.loss else
                   gettext("best"))
    best = "" if getattr(d, "fair", None) is not None else " " + gettext("best {value};", value=signed(d.best_value))
    if getattr(d, "loss_over", None) is not None:
        played = next((a for a in d.alternatives if a.played and a.over_deals is not None), None)
        value, best = ("?" if played is None else gettext("{value} on average",
                                                          value=signed_decimal(played.over_deals.mean))), ""
    else:
        value = signed(d.played_value)
    text = _text(["  " + where + gettext("{player} (line {line}; {view}): played {move} = {value};", player=d.player,
                                         line=d.line, view=point_of_view(d, result), move=d.played, value=value)
                  + f"{best} {verdict}"])
    if getattr(d, "fair", None) is not None:
        text += fair_text(d)
    lines = []
    width = max([5] + [len(_value_text(a)) for a in d.alternatives if a.value is None])     # (bounds are wider)
    for alt in sorted(d.alternatives, key=lambda a: alternative_order(a, d.side)):
        marks = _marks(d, alt)
        if getattr(alt, "over_deals", None) is not None:
            holder = chance_holder(d, result.sides, bool(result.perspective))
            analysed = result.deals.analysed if getattr(result, "deals", None) is not None else None
            lines.append(f"      {alt.move:<10} {over_text(alt.over_deals, analysed)}{_fair_columns(alt, holder)}  "
                         f"{marks}".rstrip())
            continue
        lines.append(f"      {alt.move:<10} {_value_text(alt):>{width}}"
                     f"{_fair_columns(alt, chance_holder(d, result.sides, bool(result.perspective)))}"
                     f"{_certified_column(d, alt)}{_team_column(d, alt)}  {marks}")
        if getattr(alt, "line", None) is not None:
            lines.append("          " + gettext("line: {moves}", moves=", ".join(alt.line)))
    return text + _text(lines) + reasons_text(d)


def reasons_text(d) -> str:
    """Why a graded move lost (``analysis.reasons``), under the decision's moves: ``why`` (at the decision's own
    indent, so that its block of moves ends before it) with the mover's values of the two lines, then a line a
    reason, its sentence and its code in brackets (nothing where the move has no reasons)."""
    reasons = getattr(d, "reasons", None)
    if not reasons:
        return ""
    facts = reasons[0].facts
    if facts.played_value is None or facts.best_value is None:
        head = gettext("why:")
    else:
        head = gettext("why (for {player}: {best} after the best move, {played} after the move played):",
                       player=d.player, best=signed(facts.best_value), played=signed(facts.played_value))
    lines = [f"  {head}"] + [f"    - {r.sentence} [{r.code}]" for r in reasons]
    return _text(lines)


def analysis_text(number: int, result) -> str:
    """The analysis of game ``number`` (``analyze``): every decision with its alternatives, the
    fair verdicts, the critical move and the turning point."""
    first = result.sides[0] if result.sides else gettext("the first side")
    lines = []
    if result.perspective:
        lines.append(gettext("Game {number}: {title}   ({perspective})", number=number, title=result.title,
                             perspective=result.perspective))
    else:
        positive = wins(first, len(result.sides) == len(result.players))       # (sides of one player each)
        lines.append(gettext("Game {number}: {title}   values for {side} (positive: {positive})", number=number,
                             title=result.title, side=first, positive=positive))
    if result.note:
        lines.append(gettext("Assumption: {note}", note=result.note))
    if getattr(result, "grading", None) is not None and not result.grading.default:
        lines.append(gettext("Grades: {grades}", grades=result.grading.words))
    if any(a.move == "no extra tile" for d in result.decisions for a in d.alternatives):
        from ..analysis import NO_EXTRA_WORDS     # (start-up: validate loads no analysis)

        lines.append(gettext("The extra tile: {words}.", words=gettext(NO_EXTRA_WORDS)))
    if result.values:
        deal = result.values[0]
        lines.append(gettext("Value of the deal with best play: {value}",
                             value=signed(deal) if deal is not None else gettext("not computed (see the note below)")))
    deals = getattr(result, "deals", None)
    if deals is not None:
        lines.append(gettext("Deals: {deals}", deals=sheet_deals_words(deals)))
        lines.append(gettext("Result: {result}", result=deals.result_words()))
        lines.append(gettext(SHEET_KEY))
    fair_note = fair_note_words(result.fair_note, getattr(result, "fair_cut", None))
    if fair_note:
        lines.append(gettext("Fair analysis: {note}", note=fair_note))
    text = _text(lines) + "".join(_decision_text(d, result) for d in result.decisions)
    if getattr(result, "to_move", None) is not None:     # the record stops at a decision
        d = result.to_move
        text += _to_move_text(d, chance_holder(d, result.sides, bool(result.perspective)), point_of_view(d, result))
    lines = []
    if result.critical and getattr(result.critical, "loss_over", None) is not None and result.critical.loss is None:
        c = result.critical
        best = hindsight_best_words(c)          # ("best" only where told apart from the others)
        lines.append(gettext("Critical move: {player} {move}, move {number} (line {line}, column {column}): with every "
                             "hand open (hindsight) it loses {loss}", player=c.player, move=c.played,
                             number=c.index + 1, line=c.line, column=c.column,
                             loss=loss_range_words(c.loss_over, deals.analysed if deals is not None else None))
                     + (f"; {best}" if best else ""))
    elif result.critical:
        c = result.critical
        best = ", ".join(a.move for a in c.alternatives if a.best)
        words = {"player": c.player, "move": c.played, "number": c.index + 1, "line": c.line, "column": c.column,
                 "loss": c.loss, "best": best, "value": signed(c.best_value),
                 "grade": gettext(GRADES[c.cls]).lower() if c.cls in GRADES else c.cls}
        if c.cls:
            lines.append(gettext("Critical move: {player} {move}, move {number} (line {line}, column {column}): loses "
                                 "{loss} ({grade}); best was {best} ({value})", **words))
        else:
            lines.append(gettext("Critical move: {player} {move}, move {number} (line {line}, column {column}): loses "
                                 "{loss}; best was {best} ({value})", **words))
    elif result.decisions and not result.fair:
        lines.append(gettext("No move lost anything: every decision was best."))
    if result.fair_critical is not None:
        c = result.fair_critical
        word = verdict_word(c)
        words = {"player": c.player, "move": c.played, "number": c.index + 1, "line": c.line,
                 "loss": decimal(c.fair.loss), "best": fair_best_words(c.fair),
                 "verdict": word or gettext("not graded")}
        lines.append(gettext("Fair critical move: {player} {move}, move {number} (line {line}): loses {loss} on average "
                             "over {how}; best was {best}; verdict: {verdict}", how=how_words(c.fair), **words)
                     if c.fair.method == OVER_HANDS else
                     ngettext("Fair critical move: {player} {move}, move {number} (line {line}): loses {loss} on "
                              "average over {n} deal ({method}); best was {best}; verdict: {verdict}",
                              "Fair critical move: {player} {move}, move {number} (line {line}): loses {loss} on "
                              "average over {n} deals ({method}); best was {best}; verdict: {verdict}", c.fair.worlds,
                              method=gettext(FAIR_METHODS[c.fair.method]) if c.fair.method in FAIR_METHODS else
                              c.fair.method, **words))
    for d in result.decisions:
        whose = d.player if result.perspective or not result.sides else result.sides[0]
        lines += worst_lines(d, whose) if getattr(d, "fair", None) is not None else []
    if result.turning_point is not None:
        i = result.turning_point
        player, move = result.moves[i].player, result.moves[i].move
        lines.append(gettext("Turning point: move {number} ({player} {move}): the value goes from {before} to {after}",
                             number=i + 1, player=player, move=move, before=signed(result.values[i]),
                             after=signed(result.values[i + 1]))
                     + (f": {result.turning_cause}" if getattr(result, "turning_cause", None) else ""))
    if result.stopped:
        lines.append(gettext("Note: {note}", note=result.stopped))
    lines.append("")
    return text + _text(lines)


# ---- validation -----------------------------------------------------------------------------------

def repair_text(report) -> str:
    """The repairs of one game (``validate --repair``): each with its edits, the rows before and
    after, and the result it gives."""
    lines = ["  " + gettext("repair: {message}", message=report.message)]
    lines += [f"    {line}" for line in report.common]
    for number, fix in enumerate(report.repairs, 1):
        shown = f"{fix.cost:g}"
        cost = decimal(fix.cost, len(shown.partition(".")[2])) if "e" not in shown else shown
        lines.append(f"  {number}. " + ngettext("{n} edit (cost {cost}):", "{n} edits (cost {cost}):", len(fix.edits),
                                                cost=cost) + " " + "; ".join(str(e) for e in fix.edits))
        labels = (gettext("before:"), gettext("after:"), gettext("result:"))
        width = max(8, *map(len, labels))
        for label, rows in ((labels[0], fix.rows_before), (labels[1], fix.rows_after or [gettext("(nothing left)")])):
            lines += [f"     {label if k == 0 else '':<{width}} {row}" for k, row in enumerate(rows)]
        lines.append(f"     {labels[2]:<{width}} {fix.result_text}")
    return _text(lines)


def no_game(game: dict) -> bool:
    """Whether ``game`` (a game's data) stands for a record with no game at all (an empty file): its one
    error says so, and there is nothing else to tell of it (no verdict, no analysis)."""
    return any(d["code"] == Code.NO_GAME for d in game["diagnostics"])


def errors_text(game: dict) -> str:
    """``"9 errors"``, or where the errors were marked by the slip they follow from, the slips' and the rest:
    ``"1 error, and 8 that follow from it"`` (one slip, one error: docs/notation.md)."""
    errors = game["errors"]
    follow = sum(1 for d in game["diagnostics"] if d["severity"] == "error" and d.get("follow_on"))
    primary = errors - follow
    if not follow or not primary:
        return ngettext("{n} error", "{n} errors", errors)
    head = ngettext("{n} error", "{n} errors", primary)
    if primary == 1:
        return ngettext("{errors}, and {n} that follows from it", "{errors}, and {n} that follow from it", follow,
                        errors=head)
    return ngettext("{errors}, and {n} that follows from them", "{errors}, and {n} that follow from them", follow,
                    errors=head)


def validation_text(result: dict, repairs: dict[int, str]) -> str:
    """A record's validation (``validate``) from its plain result: a verdict per game, its errors
    and likely slip, its result; ``repairs``: the :func:`repair_text` of each game searched, by index."""
    if result["error"]:
        return _text([result["error"]["text"]])
    path, text = result["source"], ""
    for number, game in enumerate(result["games"], 1):
        if no_game(game):
            text += _text([diag["text"] for diag in game["diagnostics"]])
            continue
        verdict = gettext("valid") if not game["errors"] else gettext("INVALID ({errors})", errors=errors_text(game))
        lines = [gettext("{path}: game {number} ({title}): {verdict}", path=path, number=number, title=game["title"],
                         verdict=verdict)]
        lines += [f"  {diag['text']}" for diag in game["diagnostics"]]
        if game.get("likely") and number - 1 not in repairs:
            lines.append(f"  {game['likely']}")
        if game["result_text"] is not None:
            lines.append("  " + gettext("result: {result}", result=game["result_text"]))
        text += _text(lines) + repairs.get(number - 1, "")
    return text


def match_scale_text(data: dict, analysis) -> str:
    """The match scale of one game (``analyze --scale match``), from its analysis data: the luck of
    the deal, the match-winning chance before the hand and each move that lost some."""
    scale = data.get("match_scale")
    if scale is None:
        return ""
    first = analysis.sides[0] if analysis.sides else "the first side"
    lines = []
    luck, each = scale.get("luck"), scale.get("luck_each")
    if each and len(each) == len(analysis.sides):       # individual players: each his own
        lines.append("Luck of the deal (the deal played out by the model's policy, less the mean): " + "; ".join(
            f"{name} {x['points']:+.1f} points" + (f", {x['mwc']:+.1%} MWC" if x["mwc"] is not None else "")
            for name, x in zip(analysis.sides, each) if x is not None))
    elif luck is not None:
        lead = luck.get("lead") or 0
        lines.append(f"Luck of the deal for {first}: {luck['points']:+.1f} points (value at the lead {luck['value']:+d}, "
                     f"the mean {luck['mean']:+.1f})" + (f", {luck['mwc']:+.1%} MWC" if luck["mwc"] is not None else "")
                     + (f"; of the lead {lead:+.1f}, in all {luck.get('total', luck['points'] + lead):+.1f} points"
                        if lead else ""))
    elif len(analysis.sides) > 2:
        lines.append("Luck of the deal: each player's is given by `domino stats` and `domino report --scale match` "
                     "(one playout of the deal by the hand model's policy)")
    if not scale["known"]:
        return _text(lines + [f"Match scale: {scale['note']}", ""])
    lines.append(f"Match scale ({scale['note']}): score {'-'.join(map(str, scale['scores']))}, "
                 f"MWC of {first} before the hand {scale['mwc_before']:.1%}")
    if scale.get("mwc_each") and len(scale["mwc_each"]) == len(analysis.sides):     # individual players: each his own
        lines.append("  each player's MWC: " + ", ".join(f"{name} {p:.1%}" for name, p in zip(analysis.sides,
                                                                                          scale["mwc_each"]))
                     + " (each move's MWC loss below is its mover's own)")
    decisions = data.get("decisions", [])
    for d, shown in zip(decisions, analysis.decisions):
        if d.get("mwc_loss"):
            lines.append(f"  {shown.player} {shown.played} (line {shown.line}): MWC loss {d['mwc_loss']:.2%}"
                         + (f"  {d['mwc_class'].upper()}" if d.get("mwc_class") else ""))
    fair = fair_mwc_lines(decisions, analysis)
    if scale["critical"] is None and not fair:
        lines.append("  No move lost match-winning chance.")
    elif scale["critical"] is not None:
        c = analysis.decisions[scale["critical"]]
        lines.append(f"  Critical move on the match scale: {c.player} {c.played} (line {c.line}): loses "
                     f"{decisions[scale['critical']]['mwc_loss']:.2%} MWC")
    return _text(lines + fair + [""])


def fair_mwc_lines(decisions: list[dict], analysis) -> list[str]:
    """The moves that lost match-winning chance by what their player could know (``--fair --scale
    match``: each alternative's MWC the mean over the worlds), as lines (none without a fair analysis)."""
    judged = [(d, shown) for d, shown in zip(decisions, analysis.decisions)
              if isinstance(d.get("fair"), dict) and "mwc_loss" in d["fair"]]
    if not judged:
        return []
    lines = ["  By what each player could know (the mean over the deals of each deal's MWC):"]
    for d, shown in judged:
        loss = d["fair"]["mwc_loss"]
        if loss:
            lines.append(f"    {shown.player} {shown.played} (line {shown.line}): fair MWC loss {loss:.2%}"
                         + (f"  {d['fair']['mwc_class'].upper()}" if d["fair"].get("mwc_class") else ""))
    if len(lines) == 1:
        lines.append("    No move lost match-winning chance.")
    return lines


def draw_luck_text(data: dict) -> str:
    """The luck of each tile drawn in one game (``analyze``, a draw game with every hand open), from its
    analysis data: each draw's value against the mean over the tiles that could have come, and each
    side's total as the analysis summed it (its ``draw_luck``; empty without draws)."""
    totals = data.get("draw_luck")
    if totals is None:
        return ""
    lines = [gettext("Luck of the draws (the value after each draw less the mean over the tiles that could have "
                     "come, for the drawer's side):")]
    for number, m in enumerate(data.get("moves", []), 1):
        luck = m.get("draw_luck", False)
        if luck is False:
            continue
        lines.append(f"  {number}. {m['player']} {m['move']}: " + (
            gettext("not valued (the search's node limit)") if luck is None else
            ngettext("{points} (value {value}, the mean over {n} tile {mean})",
                     "{points} (value {value}, the mean over {n} tiles {mean})", luck['candidates'],
                     points=signed_decimal(luck['points']), value=f"{luck['value']:+d}", mean=signed_decimal(luck['mean']))
            + (f", {signed_decimal(100 * luck['mwc'])}% MWC" if luck["mwc"] is not None else "")))
    if all(m.get("draw_luck") is None for m in data.get("moves", [])):
        return _text(lines + [""])
    missing = sum(1 for m in data.get("moves", []) if "draw_luck" in m and m["draw_luck"] is None)
    lines.append("  " + (gettext("In all (the draws valued): {totals}") if missing else gettext("In all: {totals}"))
                 .format(totals="; ".join(f"{t['side']} {signed_decimal(t['points'])}"
                                          + (f" ({signed_decimal(100 * t['mwc'])}% MWC)" if t["mwc"] is not None else "")
                                          for t in totals)))
    return _text(lines + [""])
