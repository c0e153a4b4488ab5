"""The fair verdicts as a reader takes them in at a glance, for the plain text of the command line and the
HTML report alike: whose chance a win percentage is, one "best" per list (the fair best is the verdict; the
open-hands best is marked as what hindsight would pick), and who holds what reduced to what is certain or
nearly so (a tile a hand cannot hold, one it surely holds, a number a hand has none of) with the rest
grouped by equal chances. Plain data and strings: no click, no jinja2."""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..analysis.grades import grade_word
from ..analysis.hiddenwords import contradiction_words
from ..i18n import N_, decimal, gettext, ngettext, number

__all__ = ["BEST", "HINDSIGHT", "TIED", "HINDSIGHT_TIED", "deals_words", "cut_words", "sheet_deals_words", "fair_cut_words", "fair_note_words", "hindsight_best_words", "verdict_word", "NEARLY", "HIDDEN", "OVER_HANDS", "over_text", "loss_range_words", "how_words", "tied_words", "gap_words", "fair_best_words", "chance_holder", "chance_text", "alternative_marks", "open_verdict", "holder_words", "signed_decimal", "CERTIFIED", "bracket_words", "bracketed", "certified_loss", "certified_loss_words", "team_words", "team_range", "overturned", "contradiction_text",
           "HoldsGroup", "holds_groups", "void_numbers", "holds_lines"]

#: The mark of the verdict's best move (the fair best where there is a fair analysis).
BEST = N_("best")
#: The mark of the open-hands best where a fair analysis names another: what hindsight would pick.
HINDSIGHT = N_("hindsight's pick")
#: The mark of the moves the fair analysis cannot tell apart from its best (none of them is called best).
TIED = N_("not told apart")
#: The mark of a sheet's moves whose values over the deals (hindsight) do not tell apart from the best on average.
HINDSIGHT_TIED = N_("not told apart by hindsight")
#: The mark of the move a partnership decision's bracket certifies the best under hidden information
#: (``analysis.teamfair``): whatever the partners agree, no other move can be as good.
CERTIFIED = N_("certified best")
#: A chance this close to 0 or 1 reads as nearly certain.
NEARLY = 0.1
#: The method of a fair verdict valued exactly under hidden information (``analysis.hiddenfair.METHOD``).
HIDDEN = "exact-hidden"


def cfr_precision(hidden: dict) -> tuple[float, int]:
    """How precise a CFR+ verdict's values are (its JSON's ``hidden``), as a number and its digits: 0.001 where its
    widest bracket a deal of the mover's hand (``width``) happens to be within it, else 0.01
    (``analysis.hiddenfair.CFR_SHOWN``: what the analysis solves to; no wider one is shown)."""
    return (0.001, 3) if hidden.get("width", 0.0) <= 0.001 else (0.01, 2)


def how_words(fair) -> str:
    """How a fair verdict was reached, in a few words: ``exact under hidden information, 360 public deals`` (both
    players playing their best by what they know, over the deals the public record allows: the game's deals, not only
    those the mover could not rule out, which the other counts and the reasons' count), ``all 480 deals, open-hands mean`` (every deal solved with open
    hands, their mean) or ``open-hands mean of 200 of 3,060 deals, sampled`` (open hands in the deals drawn: a
    sampled estimate of that mean, which is not the game's value under hidden information)."""
    if fair.method == HIDDEN:
        hidden = getattr(fair, "hidden", None) or {}
        if bracketed(fair):     # (brackets wider than the values are shown to, which certify the best)
            return gettext("certified brackets under hidden information up to {width} wide (CFR+, not closed), "
                           "{n} public deals", width=decimal(math.ceil(hidden.get("width", 0.0) * 100) / 100),
                           n=number(fair.worlds))
        if hidden.get("solver") == "cfr":    # (its certified brackets' precision: 0.001 where they closed, else 0.01)
            return gettext("exact under hidden information to {width} (CFR+), {n} public deals",
                           width=decimal(*cfr_precision(hidden)), n=number(fair.worlds))
        return gettext("exact under hidden information, {n} public deals", n=number(fair.worlds))
    if fair.method == OVER_HANDS:
        h = fair.over_hands
        # (loaded here: the package analyzer.analysis loads the searches, which reading a record never needs)
        from ..analysis.dealvalues import hands_words

        return hands_words(h.hands, h.drawn if h.drawn is not None else h.judged, h.judged)
    if fair.method == "exact":
        return gettext("all {n} deals, open-hands mean", n=number(fair.worlds))
    return gettext("open-hands mean of {n} of {total} deals, sampled", n=number(fair.worlds), total=number(fair.total))


def bracket_words(bracket) -> str:
    """``certified 2.27 to 4.27``: where a loss certainly lies under hidden information, from brackets of the exact
    solver that did not narrow to the precision shown but certify the best (``FairDecision.loss_bracket``, a move's
    :func:`certified_loss`): not an interval of a sample."""
    return gettext("certified {low} to {high}", low=decimal(bracket[0]), high=decimal(bracket[1]))


def bracketed(fair) -> bool:
    """Whether a fair verdict is given by the exact solver's brackets that did not narrow to the precision shown but
    certify the best (its ``hidden["closed"]`` False: ``analysis.hiddenfair.one_best``)."""
    return getattr(fair, "method", None) == HIDDEN and (getattr(fair, "hidden", None) or {}).get("closed") is False


def certified_loss(d, alt) -> tuple[float, float] | None:
    """Where a move's loss against the best certainly lies, in a decision ``d`` whose verdict is by brackets
    (:func:`bracketed`): the bracket of its gap to the best (``FairValue.gap_ci``; the moves' own values are not
    certified, only their gaps); None for the best itself and elsewhere."""
    fair = getattr(d, "fair", None)
    if not bracketed(fair) or alt.move == fair.best or getattr(alt, "fair", None) is None:
        return None
    return getattr(alt.fair, "gap_ci", None)


def certified_loss_words(d, alt) -> str | None:
    """``loss certified 2.27 to 4.27``: :func:`certified_loss` in words, or None."""
    got = certified_loss(d, alt)
    return None if got is None else gettext("loss certified {low} to {high}", low=decimal(got[0]),
                                            high=decimal(got[1]))


def team_words(fair, say=str) -> str | None:
    """What a partnership decision's bracket under hidden information (``fair.team``, an
    ``analysis.teamfair.TeamBracket``) says of its fair verdict, in a player's words (each move said by ``say``):
    that another move is surely better than the fair best (which is then not called best), that a move is surely the
    best, or that it tells no move apart; None without a bracket."""
    team = getattr(fair, "team", None)
    if team is None:
        return None
    words = _team_verdict(team, say)
    if getattr(team, "least_loss", None) is not None:
        words += "; " + gettext("the move played surely loses at least {loss} against {move}",
                                loss=decimal(team.least_loss), move=say(team.against))
    return words


def _team_verdict(team, say) -> str:
    """:func:`team_words`' first part: what the bracket says of the best."""
    n = number(team.deals)
    if team.overturned is not None:
        return gettext("by what the players could know, {better} is surely better than {worse}, whatever the partners "
                       "agree: {worse}, the best by the open-hands mean, is not called best (the partnership bracket "
                       "over {n} public deals)", better=say(team.better), worse=say(team.overturned), n=n)
    if team.certified is not None:
        return gettext("by what the players could know, {move} is surely the best, whatever the partners agree "
                       "(the partnership bracket over {n} public deals)", move=say(team.certified), n=n)
    return gettext("by what the players could know, the partnership bracket over {n} public deals tells no move "
                   "surely the best", n=n)


def overturned(fair) -> bool:
    """Whether a fair verdict's best was not called best because the certified brackets under hidden information say
    another move is better: a partnership's bracket (``fair.team``) or an open CFR+ decision's (``fair.hidden``'s
    ``overturned``, ``analysis.hiddenfair.contradicted``). Such a verdict grades no move."""
    team = getattr(fair, "team", None)
    return (team is not None and team.overturned is not None) or "overturned" in (getattr(fair, "hidden", None) or {})


def contradiction_text(fair, say=str) -> str | None:
    """Why a two-player fair verdict's best was not called best, in a player's words (each move said by ``say``): the
    open CFR+ brackets certify another move better (``analysis.hiddenwords.contradiction_words``); None elsewhere."""
    hidden = getattr(fair, "hidden", None) or {}
    if "overturned" not in hidden:
        return None
    lost = (hidden["least_loss"], hidden["against"]) if "least_loss" in hidden else None
    return contradiction_words(hidden["better"], hidden["overturned"], hidden["deals"], say, lost)


def team_range(fair, move: str) -> str | None:
    """A move's bracket under hidden information, ``[+2.0, +3.5]`` (side 0's values on the fair values' scale), or
    None where the decision has none."""
    team = getattr(fair, "team", None)
    got = next((m for m in team.moves if m.move == move), None) if team is not None else None
    if got is None:
        return None
    return f"[{signed_decimal(got.low)}, {signed_decimal(got.high)}]"


def chance_holder(d, sides: list[str], individual: bool) -> str:
    """Whose chance a fair win percentage of decision ``d`` is: the mover's side ("B/D"), or the mover
    himself where each plays for himself (the values are then his against the rest)."""
    if individual or not sides or d.side >= len(sides):
        return d.player
    return sides[d.side]


def chance_text(holder: str, p_win: float | None) -> str:
    """``"B/D win 26%"``: a win chance, with the side it belongs to (a name with a slash is a side); empty
    where there is none (a value under hidden information)."""
    if p_win is None:
        return ""
    return (gettext("{side} win {chance}", side=holder, chance=f"{p_win:.0%}") if "/" in holder else
            gettext("{player} wins {chance}", player=holder, chance=f"{p_win:.0%}"))


def _listed(names: list[str], last: str = "and") -> str:
    if len(names) == 1:
        return names[0]
    return (gettext("{first} or {last}", first=", ".join(names[:-1]), last=names[-1]) if last == "or" else
            gettext("{first} and {last}", first=", ".join(names[:-1]), last=names[-1]))


def tied_words(fair, say=str) -> str | None:
    """``"[4-4] and [2-2] are not told apart after 200 deals"``: the moves a fair verdict cannot tell apart from
    its best (``FairDecision.tied``; each move said by ``say``), None where the best is told apart. Where certified
    brackets under hidden information overturned its best (:func:`overturned`), the moves they leave open."""
    tied = list(getattr(fair, "tied", None) or ())
    if not tied:
        return None
    names = _listed([say(m) for m in tied])
    if overturned(fair):        # (its best overturned by certified brackets: those the brackets leave open)
        return gettext("{moves} are not told apart by the certified brackets under hidden information", moves=names)
    if fair.method in ("exact", HIDDEN):      # every deal solved: the values are equal
        return gettext("{moves} are not told apart: they come to the same over all {n} deals", moves=names,
                       n=number(fair.worlds))
    return gettext("{moves} are not told apart after {n} deals", moves=names, n=number(fair.worlds))


#: The method of a sheet's fair verdict, over the hands the mover may have held (``analysis.sheets.METHOD``).
OVER_HANDS = "over-hands"


def cut_words(cut, analysed: int | None = None) -> str:
    """``stopped at 57 deals: the values' CPU budget of 60 s (some 1.04 s a deal)``: where and why the analysis of
    a sheet's values stopped short (``cut``, an ``analysis.dealvalues.WorkCut``: its CPU budget ran out, the one
    cause there is, ``analysis.dealvalues.CPU_BUDGET``), the one wording of the text, the page and the board; where
    it stopped the costliest decisions and others went on (to ``analysed`` deals), ``the values' CPU budget of 20 s
    (some 1.90 s a deal) stopped 2 decisions before they were decided, the costliest first, at 52 deals or more``
    (each decision's values say where: :func:`over_text`)."""
    if cut.decisions is not None and analysed is not None and analysed > cut.deals:
        return ngettext("the values' CPU budget of {seconds} s (some {per_deal} s a deal) stopped {n} decision "
                        "before it was decided, the costliest first, at {deals} or more",
                        "the values' CPU budget of {seconds} s (some {per_deal} s a deal) stopped {n} decisions "
                        "before they were decided, the costliest first, at {deals} or more",
                        cut.decisions, seconds=number(round(cut.seconds)), per_deal=decimal(cut.seconds_per_deal),
                        deals=deals_words(cut.deals))
    return ngettext("stopped at {n} deal: the values' CPU budget of {seconds} s (some {per_deal} s a deal)",
                    "stopped at {n} deals: the values' CPU budget of {seconds} s (some {per_deal} s a deal)",
                    cut.deals, seconds=number(round(cut.seconds)), per_deal=decimal(cut.seconds_per_deal))


def sheet_deals_words(deals) -> str:
    """The ``Deals:`` line of a sheet (``deals``, an ``analysis.dealvalues.DealsSummary``): how many it allows and
    how many were analysed, and where the work stopped short, if it did (:func:`cut_words`)."""
    words = deals.words()
    return words if deals.cut is None else f"{words}; {cut_words(deals.cut, deals.analysed)}"


def fair_cut_words(cut) -> str:
    """``the fair verdicts' CPU budget of 120 s (a deal's values some 12.00 s): 2 hands a player, each decision over
    20 deals``: how a sheet's fair verdicts were planned down to their CPU budget (``cut``, an
    ``analysis.dealvalues.FairCut``: its one cause, ``analysis.dealvalues.CPU_BUDGET``), the one wording of the
    text and the page."""
    return gettext("the fair verdicts' CPU budget of {seconds} s (a deal's values some {per_deal} s): {hands}, "
                   "each decision over {deals}", seconds=number(round(cut.seconds)),
                   per_deal=decimal(cut.seconds_per_deal),
                   hands=ngettext("{n} hand a player", "{n} hands a player", cut.hands),
                   deals=ngettext("{n} deal", "{n} deals", cut.deals))


def fair_note_words(note: str | None, cut) -> str | None:
    """A game's fair note (``note``, ``GameAnalysis.fair_note``) with how its fair verdicts were planned down to
    their CPU budget after it, where they were (``cut``, its ``fair_cut``: :func:`fair_cut_words`)."""
    if cut is None:
        return note
    return f"{note}; {fair_cut_words(cut)}" if note else fair_cut_words(cut)


def deals_words(deals: int, analysed: int | None = None) -> str:
    """``448 of the 1,000 deals``: how many deals a value over a sheet's deals stands on, and of how many analysed
    where it is fewer (a move its player could play in some of them: its mean is over those alone)."""
    if analysed and analysed > deals:
        return gettext("{n} of the {total} deals", n=number(deals), total=number(analysed))
    return ngettext("{n} deal", "{n} deals", deals)


def over_text(o, analysed: int | None = None) -> str:
    """A value over a sheet's deals, every number named: ``+6.12 (95% interval +4.07 to +8.17; least -30, most +42;
    mean of 448 of the 1,000 deals)``, the mean over the deals in which its player could play the move, the
    interval where the deals are a sample, the least and the most of those deals, and how many there are (of the
    ``analysed``); ``+46 in each of 911 of the 1,000 deals`` where they all give the same. Where its decision was
    stopped by the values' CPU budget, the decision's loss says so once (:func:`loss_range_words`), not each value."""
    return _named(o, analysed, "+", gettext("{mean} ({ci}least {low}, most {high}; mean of {deals})"), stopped=False)


def loss_range_words(o, analysed: int | None = None) -> str:
    """The loss of a move over a sheet's deals, every number named: ``36.17 on average (95% interval 34.69 to 37.64;
    least 0, most 76; over 1,000 deals)``; ``0 in 1 deal, where the values' CPU budget stopped it`` where the budget
    stopped its decision there (the one place it is said: each move's value is over the same deals)."""
    return _named(o, analysed, "", gettext("{mean} on average ({ci}least {low}, most {high}; over {deals})"))


def _named(o, analysed: int | None, sign: str, shape: str, stopped: bool = True) -> str:
    """An :class:`~analyzer.analysis.dealvalues.OverDeals` in words of ``shape`` (``sign`` "+": values signed;
    ``stopped``: where the values' CPU budget stopped its decision, say so)."""
    deals = deals_words(o.deals, getattr(o, "looked", None) or analysed)    # (of those it was looked for in)
    if stopped and getattr(o, "stopped", None) is not None:      # (its decision stopped there by the values' CPU budget)
        deals = gettext("{deals}, where the values' CPU budget stopped it", deals=deals)
    if o.min == o.max:
        return (gettext("{value} in each of {deals}", value=f"{o.min:{sign}d}", deals=deals) if o.deals > 1 else
                gettext("{value} in {deals}", value=f"{o.min:{sign}d}", deals=deals))
    ci = (gettext("95% interval {low} to {high}; ", low=_decimal(o.ci95[0], sign), high=_decimal(o.ci95[1], sign))
          if o.ci95 is not None and o.ci95[0] != o.ci95[1] else "")
    return shape.format(mean=_decimal(o.mean, sign), ci=ci, low=f"{o.min:{sign}d}", high=f"{o.max:{sign}d}",
                        deals=deals)


def _decimal(value: float, sign: str = "") -> str:
    """A value with two decimals as the active language writes them (``sign`` "+": signed, ``+1.25``)."""
    return signed_decimal(value) if sign == "+" else decimal(value)


def signed_decimal(value: float, digits: int = 2) -> str:
    """A decimal with its sign, as the active language writes it (``+1.25``, ``-0.50``; ``+1,25`` in Spanish)."""
    shown = decimal(value, digits)
    return shown if shown.startswith(("-", "\N{MINUS SIGN}")) else "+" + shown


def hindsight_best_words(d) -> str:
    """Where a sheet's hindsight names its best on average: ``best on average [1-3]@3, ahead of [0-3]@3 by 3.80
    (95% interval 0.20 to 7.40) over the 25 deals both could be played in``, the paired gap of the closest move
    (the means of two moves may stand on different deals: the gap is taken over the same ones), or ``[6-6], [1-3]
    and [0-0] not told apart (best on average first)`` where the gaps do not tell them apart."""
    best = next((a for a in d.alternatives if a.best), None)
    if best is None:
        return ""
    others = [a for a in d.alternatives if a is not best and a.over_deals is not None and a.over_deals.gap is not None]
    tied = [a.move for a in others if not a.over_deals.told_apart]
    if tied:
        return gettext("{moves} not told apart (best on average first)", moves=_listed([best.move] + tied))
    if not others:
        return gettext("best on average {move}", move=best.move)
    a = min(others, key=lambda a: a.over_deals.gap)
    o = a.over_deals
    ci = " " + gettext("(95% interval {low} to {high})", low=decimal(o.gap_ci[0]), high=decimal(o.gap_ci[1])) \
        if o.gap_ci[0] != o.gap_ci[1] else ""
    return gettext("best on average {move}, ahead of {other} by {gap}{ci} over the {deals} both could be played in",
                   move=best.move, other=a.move, gap=decimal(o.gap), ci=ci, deals=deals_words(o.shared))


def verdict_word(d) -> str | None:
    """The one verdict word of a decision in the active language, the same in the text, the page and the board:
    with a fair verdict, ``real mistake``, ``uncertain mistake`` (graded by what the player knew, the deals do not
    show it real) or ``hindsight only`` (a loss with every hand open alone); else the class of its loss with every
    hand open; None where the move is not graded. A program reads the codes instead (the JSON's fair ``verdict``,
    ``real``, ``uncertain`` or ``hindsight``, and ``class``), which stay English in every language."""
    fair = getattr(d, "fair", None)
    if fair is not None:
        if fair.verdict == "hindsight":
            return gettext("hindsight only")
        if fair.verdict in ("real", "uncertain") and fair.cls:
            return (gettext("real {grade}", grade=grade_word(fair.cls)) if fair.verdict == "real" else
                    gettext("uncertain {grade}", grade=grade_word(fair.cls)))
        return None
    return grade_word(d.cls) if d.cls else d.cls


def gap_words(d, say=str) -> str:
    """Why a fair verdict names its best: ``, ahead of [2-2] by 4.10 [1.20, 7.00] over the same deals``, the paired
    gap of the next move to the best with its interval (``FairValue.gap``, ``gap_ci``), which the verdict is tested
    on (the moves' own intervals may overlap where the gap's does not; each move said by ``say``); "" where the
    gaps are not known, the verdict names no best, or no other move was legal."""
    best = d.fair.best
    gaps = [(a.fair.gap, a.fair.gap_ci, a.move) for a in d.alternatives
            if a.move != best and getattr(a.fair, "gap", None) is not None]
    if getattr(getattr(d.fair, "team", None), "overturned", None) is not None:
        return ""                   # (the gaps are to the fair best the partnership bracket overturned)
    if not gaps or getattr(d.fair, "tied", None):
        return ""
    gap, (lo, hi), move = min(gaps, key=lambda g: g[0])
    ci = f" ({bracket_words((lo, hi))})" if bracketed(d.fair) else f" [{decimal(lo)}, {decimal(hi)}]" if lo != hi else ""
    return ", " + gettext("ahead of {move} by {gap}{ci} over the same deals", move=say(move), gap=decimal(gap), ci=ci)


def fair_best_words(fair, say=str) -> str:
    """The fair best as a sentence's object: ``[4-6]@6``, or where it is not told apart from other moves
    ``[4-4] or [2-2] (not told apart after 200 deals)``."""
    tied = list(getattr(fair, "tied", None) or ())
    if fair.method == OVER_HANDS and not fair.best:
        return gettext("not the same move in every hand he may have held")
    if not tied:
        return say(fair.best)
    how = gettext("equal over every deal") if fair.method in ("exact", HIDDEN) else \
        gettext("not told apart after {n} deals", n=number(fair.worlds))
    return f"{_listed([say(m) for m in tied], 'or')} ({how})"


def alternative_marks(d, alt) -> list[str]:
    """The marks of one alternative of decision ``d``: ``played``, :data:`BEST` (one verdict a list: the fair
    best where the decision has a fair analysis, else the open-hands best), :data:`TIED` (instead of a best:
    the moves the fair analysis cannot tell apart) and :data:`HINDSIGHT` (the open-hands best, where the fair
    analysis prefers a move that is not one of them).""" 
    fair = getattr(d, "fair", None)
    marks = ["played"] if alt.played else []
    over = getattr(alt, "over_deals", None)
    if over is not None and (fair is None or fair.method == OVER_HANDS):   # a sheet's hindsight over the deals
        tied = any(a.over_deals is not None and a.over_deals.told_apart is False for a in d.alternatives)
        if over.told_apart is False or (alt.best and tied):
            return marks + [HINDSIGHT_TIED]
        return marks + ([BEST if fair is None else HINDSIGHT] if alt.best else [])
    if fair is None:
        return marks + ([BEST] if alt.best else [])
    tied = tuple(getattr(fair, "tied", None) or ())
    if alt.move in tied:
        marks.append(TIED)            # (no move of them is the best: the deals do not tell them apart)
    elif alt.move == fair.best and not tied:
        marks.append(BEST)
    team = getattr(fair, "team", None)
    if team is not None and team.certified == alt.move:
        marks.append(CERTIFIED)       # (under hidden information, whatever the partners agree)
    elif alt.best and not any(a.best and a.move in (tied or (fair.best,)) for a in d.alternatives):
        marks.append(HINDSIGHT)       # (where hindsight agrees with the verdict, its pick needs no mark)
    return marks


def open_verdict(d) -> str:
    """The open-hands half of a decision's line, where a fair verdict follows it: labelled as hindsight, so
    that the one "best" a reader sees is the fair one."""
    if d.loss is None:
        return gettext("no value with every hand open")
    if not d.loss:
        fair = getattr(d, "fair", None)
        if fair is not None and (fair.best == d.played or d.played in fair.tied):
            return gettext("with every hand open (hindsight) it is best too")
        return gettext("with every hand open (hindsight) it is best")    # (where the fair verdict finds a loss)
    return (gettext("with every hand open (hindsight) best {value}, loss {loss}", value=f"{d.best_value:+d}",
                    loss=d.loss) + (f" {grade_word(d.cls).upper()}" if d.cls else ""))


@dataclass(frozen=True)
class HoldsGroup:
    """Unseen tiles that every holder holds with the same chances (one row of the compact matrix)."""

    tiles: list[str]
    chances: list[float]             # one a holder, in the order of the holders

    @property
    def certain(self) -> bool:
        """Every chance is 0 or 1: where these tiles lie is known."""
        return all(p in (0.0, 1.0) for p in self.chances)

    @property
    def nearly(self) -> bool:
        """Some holder surely holds them or nearly so (at least 1 - :data:`NEARLY`)."""
        return any(p >= 1 - NEARLY for p in self.chances)


def holds_groups(holds: dict[str, dict[str, float]], holders: list[str]) -> list[HoldsGroup]:
    """The tiles of ``holds`` (holder -> tile -> chance) that the ``holders`` may hold, grouped by equal chances
    (to the percent shown), the most certain groups first, then the largest."""
    tiles: dict[str, list[float]] = {}
    for column, holder in enumerate(holders):
        for tile, p in holds.get(holder, {}).items():
            tiles.setdefault(tile, [0.0] * len(holders))[column] = p
    groups: dict[tuple, list[str]] = {}
    for tile, chances in tiles.items():
        # to the percent, but never rounded to a certainty it is not
        key = tuple(p if p in (0.0, 1.0) else min(0.99, max(0.01, round(p, 2))) for p in chances)
        groups.setdefault(key, []).append(tile)
    out = [HoldsGroup(sorted(ts, key=_tile_key), list(key)) for key, ts in groups.items()]
    return sorted(out, key=lambda g: (not g.certain, not g.nearly, -len(g.tiles), _tile_key(g.tiles[0])))


def void_numbers(holds: dict[str, dict[str, float]], holders: list[str]) -> dict[str, list[int]]:
    """For each holder, the numbers he surely has none of: every unseen tile with that number has chance 0
    in his hand (a number no unseen tile carries is left out: nobody can hold it)."""
    unseen = {t for h in holders for t, p in holds.get(h, {}).items() if p > 0}
    numbers = sorted({n for t in unseen for n in _tile_key(t)})
    out = {}
    for holder in holders:
        mine = holds.get(holder, {})
        void = [n for n in numbers if all(mine.get(t, 0.0) == 0 for t in unseen if n in _tile_key(t))]
        if void:
            out[holder] = void
    return out


def holds_lines(worlds: int, holds: dict[str, dict[str, float]], viewer: str | None) -> list[str]:
    """``replay --view`` after one move: the count of deals and a compact tile-by-holder matrix (tiles of equal
    chances on one row; ``-`` cannot hold, ``100%`` surely holds), then each hand's void numbers. The viewer's
    own hand is left out: he knows it."""
    holders = [h for h in holds if h != viewer]
    lines = [gettext("deals: {n}", n=number(worlds))]
    groups = holds_groups(holds, holders)
    if not groups:
        return lines
    cells = [[_cell(p) for p in g.chances] for g in groups]
    names = [holder_words(h) for h in holders]
    width = max(len(h) for h in names)
    width = max(width, max(len(c) for row in cells for c in row), 4)
    lines.append("  ".join(h.rjust(width) for h in names) + "   " + gettext("tiles"))
    for group, row in zip(groups, cells):
        shown = " ".join(group.tiles)
        lines.append("  ".join(c.rjust(width) for c in row) + f"   {shown}")
    voids = void_numbers(holds, holders)
    if voids:
        lines.append(gettext("void: {voids}", voids="; ".join(
            gettext("{player} has no {numbers}", player=holder_words(h), numbers=gettext(" and no ").join(map(str, ns)))
            for h, ns in voids.items())))
    return lines


def holder_words(holder: str) -> str:
    """A holder of the inference's (``analyzer.inference``: a player's name, ``boneyard``, ``sleepers``, ``A's
    draws``) as the text shows it, in the active language (a player's name as written)."""
    if holder in ("boneyard", "sleepers"):
        return gettext(holder)
    if holder.endswith("'s draws"):
        return gettext("{player}'s draws", player=holder[:-len("'s draws")])
    return holder


def _cell(p: float) -> str:
    return "-" if p == 0 else "100%" if p == 1 else f"{p:.0%}"


def _tile_key(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in text.strip("[]").split("-"))


def bounds_text(bounds, ge: str = ">=", le: str = "<=") -> str:
    """Proven bounds ``[low, high]`` of a value (None: open on that side) as the analyses show them:
    ``>= +12``, ``<= -3`` or ``[+4, +20]``."""
    low, high = (None if b is None else f"{b:+d}" if b else "0" for b in bounds)
    if low is None:
        return f"{le} {high}"
    if high is None:
        return f"{ge} {low}"
    return f"[{low}, {high}]"


def sure_value(alt, side: int) -> int | None:
    """What to order an alternative by for the mover of ``side``: its value, else (past the node limit) the
    bound of it the mover is sure of (the lower for side 0, the upper for side 1; the other if that is
    open), else None."""
    if alt.value is not None or not getattr(alt, "bounds", None):
        return alt.value
    low, high = alt.bounds
    first, other = (low, high) if side == 0 else (high, low)
    return first if first is not None else other
