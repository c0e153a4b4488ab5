"""Games people play beyond the rule texts (issue 56): the Cuban double-nine partnership game and Kozel, and the
sources of the Venezuelan partnership preset.

Its rules come from published descriptions, not from the seeds' rule texts, so its ``seed`` names those
sources (``rules/catalog.py`` prints them) and docs/variants.md says in its own words what each source says
and which option follows which. :func:`analyzer.rules.variants.find_variant` looks these families up with
the others."""
from __future__ import annotations

from ..i18n import N_
from .families import HOUSE_OPTIONS, Family, caben_match, capicu_scoring, salida_scoring
from .kozel import kozel_parts
from .matchplay import MatchScoring
from .options import OptionSpec
from .policies import BlockDecider, BlockRule, Dealing, HandScoring, LeadPolicy, Opening, PointScoring, Seating

__all__ = ["CUBAN", "KOZEL", "LATIN_FAMILIES", "PRESET_SOURCES", "SOURCES"]

#: Where the rules of each family come from (the seed field of a family outside the rule texts).
SOURCES = {
    "cuban": ("Cuban double-nine", "onlinedominogames.com/cuban-dominoes; dominorules.com/cuban-dominoes "
              "(J. Kelley, Great Book of Domino Games); ludoteka.com/games/domino/domino-cuban; libreonline.com "
              "(Datos curiosos en el domino: the capicua that doubles a hand's points); teamocuba.com (Reglas para jugar "
              "domino en Cuba: the salida of a passed double lead, the capicua, no caben)"),
    "kozel": ("Kozel", "the public specification of the app that recorded the games (as issue 56 states it); "
              "ulodshi.ru (Domino Rules: Goat); infonick.net (domino rules); play.livegames.ru/domino.html"),
}

#: Where the rules of a preset of a rule text's family come from, when no rule text describes it (the catalogue's
#: ``preset_sources``): Venezuelan partnership, a preset of the partnership family (docs/variants.md).
PRESET_SOURCES = {
    "venezuelan": "tiosabiasque.com (Un juego que crea amistades... el domino: the score, the tranque); que-es.net "
                  "(Que es domino: the first lead, the lead to the right); es.wikipedia.org (Domino: the tranque, the "
                  "tie; as copied on tiendamab.com); sportstalksocial.com (ksmith7, Dominoes: a Venezuelan family "
                  "pastime: pairs, to 100); Taipei Times / AFP 2022-03-17 (dominoes in Venezuela, the Federacion "
                  "Venezolana de Domino, the zapato)",
    "dominican": "dominoesonline.com (rules of the game capicua, Dominican Republic: to 200, 25 for a pase corrido, 25 "
                 "and 50 for a pass on the lead, the tranque, 25 for a capicua); fichaflow.com (How to keep score in "
                 "Dominican domino: the deal, the lead, the opponents' pips); dr1.com (25, 50, Capicua! Dominoes and "
                 "the Dominican Republic)",
    "brasilia": "euamopadrebernardo.com.br (2013: the simplified rules of the Federacao Brasiliense de Domino for the "
                "championship of the Administracao Regional de Brasilia: every pip not played, 150 points or 30 minutes)",
}

CUBAN_LEAD = {"rotate": "rotate", "winners": "winners", "winner": "winner-lowest", "highest-double": "any"}


def _build_cuban(o: dict[str, str], given: set[str]) -> dict:
    every_highest = o["lead"] == "highest-double"
    score, block, tie = o["score"], o["block"], o["tie"]
    if block == "team" and tie == "draw":
        decider = BlockRule()
    else:
        decider = BlockDecider("player" if block == "player" else "team", tie)
    house = {**capicu_scoring(o["capicu"]), **salida_scoring(o)}
    house = {k: v for k, v in house.items() if v}
    if score in ("losers", "all") and not house:
        scoring = HandScoring(score)
    else:
        scoring = PointScoring("block-difference" if score == "difference" else score, **house)
    return dict(
        seating=Seating.partners(),
        dealing=Dealing(10, 9),
        opening=Opening(first_game_tile=None, highest_double=every_highest,
                        first_highest=o["first"] == "highest-double", drawn=o["first"] == "draw"),
        block=decider,
        scoring=scoring,
        match=MatchScoring(int(o["target"]), **caben_match(o["no-caben"])),
        lead=LeadPolicy(CUBAN_LEAD[o["lead"]], True, "blocker" if tie == "last" else ""),
    )


CUBAN = Family(
    "cuban",
    N_("Cuban double-nine: four players in fixed partnerships, 10 tiles each from the double-nine set, the other 15 "
       "out of play; the highest double opens the first hand; a block is won by the side with fewer pips; the winners "
       "score the losers' pips; to 100"),
    "cuban",
    (
        OptionSpec("first", "highest-double", N_("who opens the first hand of a match: the holder of the highest double "
                      "dealt, with it (Kelley), or a player chosen by lot with any tile (draw: the SeatDraw tag, anyone "
                      "without it)"), values=("highest-double", "draw")),
        OptionSpec("lead", "rotate", N_("who leads the later hands: the next player after the last leader (rotate), "
                      "either player of the side that won (winners), the player who went out or, after a block, the "
                      "winners' player with fewer pips (winner), or the holder of the highest double dealt with it, "
                      "every hand (highest-double)"), values=("rotate", "winners", "winner", "highest-double")),
        OptionSpec("block", "team", N_("a blocked hand is won by the side with fewer pips (team), or by the side of "
                      "the single player with the fewest (player)"), values=("team", "player")),
        OptionSpec("tie", "draw", N_("a block with equal counts: nobody scores (draw), the side that led the hand "
                      "wins (leader), the side of the player who blocked wins (last)"), values=("draw", "leader", "last")),
        OptionSpec("score", "losers", N_("the winners score the losers' pips (losers), every pip left, their own "
                      "too (all), or the losers' pips after a domino and the difference of the two sides after a block "
                      "(difference)"), values=("losers", "all", "difference")),
        OptionSpec("target", "100", N_("points that win the match (Kelley: most often 100; 50, 101, 150 and 200 are "
                      "played too)"), kind="int"),
        OptionSpec("capicu", "no", N_("the houses' capicúa: going out with a tile that is no double and fits both ends "
                      "scores the hand's points twice (double); or a bonus for going out with a tile that fits both ends "
                      "(25, or yes: 100); double-any: a capicúa made with a double that fits both ends is doubled too"),
                   values=("no", "double", "25", "yes", "double-any")),
        *HOUSE_OPTIONS,
    ),
    _build_cuban,
    aliases=("cuban-double-nine", "doble-nueve", "domino-cubano", "double-nine-partnership", "cuba"),
)

def _build_kozel(o: dict[str, str], given: set[str]) -> dict:
    return kozel_parts(o["eggs"] == "yes", int(o["limit"]), o["zero-lead"])


KOZEL = Family(
    "kozel",
    N_("Kozel (the goat): four players in fixed partnerships, all 28 tiles dealt; the [1-1] holder leads while both "
       "records are 0, later the player who went out or the fisher; the losers are charged their pips ([0-0] alone "
       "10), a charge below 13 to a clean record goes on the fence, equal fish are eggs carried on; the team that "
       "reaches 101 loses"),
    "kozel",
    (
        OptionSpec("eggs", "yes", N_("a fish: the higher remainder loses and is charged it, equal remainders are eggs "
                      "carried to the next loser (yes); or each team is charged its own and nobody wins (no)"),
                   kind="bool"),
        OptionSpec("limit", "101", N_("the record that loses the game (101, or 50)"), kind="int"),
        OptionSpec("zero-lead", "one-one", N_("while both records are 0 the [1-1] holder leads it (one-one), or, as the "
                      "app sometimes allows, the player who went out or the fisher leads as later (winner)"),
                   values=("one-one", "winner")),
    ),
    _build_kozel,
    aliases=("kozyol", "kozel-domino", "goat", "kozel-50"),
    presets={"kozel-50": {"limit": "50"}},
)

LATIN_FAMILIES = {f.name: f for f in (CUBAN, KOZEL)}
