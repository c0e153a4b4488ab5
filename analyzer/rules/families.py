"""The rule systems of the texts (families): each declares its options and builds a variant's policies
from their values (:func:`analyzer.rules.variants.find_variant` looks them up and makes the :class:`Variant`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ..i18n import N_, gettext
from ..tiles import Tile
from .matchplay import MatchScoring
from .modes import Count, MatchKind
from .options import BadOptionValue, OptionSpec, UnknownOption
from .policies import (DOUBLE_BLANK, PASS_DOMINICAN, PASS_PR, BlockDecider, BlockRule, Dealing, DifferenceAward, Drawing, HandScoring,
                       LeadPolicy, Opening, PlayScoring, PointScoring, Seating)

__all__ = ["Family", "FAMILIES", "CAPICU", "capicu_scoring", "salida_scoring", "caben_match", "HOUSE_OPTIONS"]

SIX_SIX = Tile(6, 6)


@dataclass(frozen=True)
class Family:
    """A rule system of the texts: its options and how a variant is built from them."""

    name: str
    description: str
    seed: str
    options: tuple[OptionSpec, ...]
    build: Callable[[dict[str, str], set[str]], dict]
    aliases: tuple[str, ...] = ()
    presets: Mapping[str, Mapping[str, str]] = field(default_factory=dict)   # alias or system -> options
    adjust: Callable[[dict[str, str], set[str]], None] | None = None       # options that imply others

    def spec(self, key: str) -> OptionSpec:
        for s in self.options:
            if s.key == key:
                return s
        import difflib      # (start-up: only an unknown option needs it)

        near = difflib.get_close_matches(key, [s.key for s in self.options], n=1, cutoff=0.6)
        if near:        # a slip of the pen (capicua for capicu): the one option meant, not all of them
            raise UnknownOption(gettext("the {variant} variant has no option {key}; did you mean {option}? (`domino "
                                        "variants` lists them all)", variant=self.name, key=repr(key),
                                        option=self.spec(near[0]).describe()))
        known = "; ".join(s.describe() for s in self.options)
        raise UnknownOption(gettext("the {variant} variant has no option {key}; its options are: {known}",
                                    variant=self.name, key=repr(key), known=known))

    @property
    def defaults(self) -> dict[str, str]:
        return {s.key: s.default for s in self.options}


def _standard_block(by: str, tie: str, blank: int = 0):
    return BlockRule() if by == "team" and tie == "draw" and not blank else BlockDecider(by, tie, blank=blank)


def _scoring(count: str, **extra):
    """The plain pip count when no option changes it (the solver has a fast path for it)."""
    changed = {k: v for k, v in extra.items() if v and not (k == "divide" and v == 1)}
    if count in (Count.LOSERS, Count.ALL) and not changed:
        return HandScoring(count)
    return PointScoring(count, **changed)


def _yes(v: str) -> bool:
    return v == "yes"


# partnership (000) ----------------------------------------------------------------------------
PARTNERSHIP_SYSTEMS = {
    "standard": {},
    "great-lakes": {"score": "all", "target": "51"},
    "great-lakes-101": {"score": "all", "target": "101", "blank": "50"},
    "doscientos": {"score": "all", "lead": "winner-lowest", "target": "200"},
    "quinientos": {"score": "all", "lead": "winner-lowest", "target": "500", "capicu": "yes",
                   "chuchazo": "any", "first-wins": "yes"},
    "south-american": {"match": "games", "target": "10", "redeal": "5", "must-redeal": "yes"},
    "milo": {"score": "milo", "target": "5"},
    # Venezuelan partnership (docs/variants.md names the sources): every pip left counts, a tranque goes to the
    # side of the single player with the fewest pips, to 100; the [6-6] opens the first hand, the lead rotates
    "venezuelan": {"score": "all", "block": "player", "target": "100"},
    # Dominican capicúa (docs/variants.md names the sources): to 200, the winner leads, a tranque between the
    # player who closed it and the next, 25 for a capicúa, 25 and 50 for passes
    "dominican": {"target": "200", "lead": "winner-lowest", "block": "last-or-right", "tie": "last",
                  "capicu": "25", "pass-bonus": "dominican"},
    # Brasília (the Federação Brasiliense de Dominó's tournament rules): every pip left, 150 points or 30 minutes
    "brasilia": {"score": "all", "target": "150", "minutes": "30"},
}

#: What the ``capicu`` option's values pay for a capicú or dominao (``double``, ``double-any``: the points doubled
#: instead).
CAPICU = {"no": 0, "yes": 100, "25": 25, "double": 0, "double-any": 0}


def capicu_scoring(value: str, points: str = "0") -> dict:
    """The ``PointScoring`` fields of a ``capicu`` option's value (partnership, Cuban), and of ``capicu-points``
    (another bonus than the value's own, where the value pays one)."""
    bonus = int(points) if CAPICU[value] and int(points) else CAPICU[value]
    return dict(capicu=bonus, capicu_double=value.startswith("double"), capicu_doubles=value == "double-any")


def salida_scoring(o: dict[str, str]) -> dict:
    """The ``PointScoring`` fields of the ``salida`` and ``salida-pays`` options (partnership, Cuban)."""
    return dict(salida=int(o["salida"]), salida_won=o["salida-pays"] == "lead-wins")


def caben_match(value: str) -> dict:
    """The ``MatchScoring`` fields of a ``no-caben`` option's value (partnership, Cuban)."""
    return dict(cap=value == "cap", skip=value == "yes")


#: The house rules' options of the partnership and Cuban games (docs/variants.md names their sources).
HOUSE_OPTIONS = (
    OptionSpec("salida", "0", N_("a double lead that the next player cannot answer (a pass) pays this to the leading "
                  "side at once, whoever wins the hand, and may end the match on the spot (\"salida vale 20\"; 0: "
                  "nothing)"), kind="int"),
    OptionSpec("salida-pays", "passed-double", N_("when the salida is paid: for a double lead the next player passes "
                  "(passed-double), or (lead-wins, issue 67's reading) to the side that led whenever it wins the hand, "
                  "whatever its lead"), values=("passed-double", "lead-wins")),
    OptionSpec("no-caben", "no", N_("yes: a hand's points that would take a side past the target are not scored and the "
                  "match goes on (\"no caben\"); cap: the score stops at the target, which wins; no: every point "
                  "counts (\"de caballero\")"), values=("no", "yes", "cap")),
)


def _pass_scoring(value: str, points: str = "25") -> dict:
    out = dict(pass_bonus=value != "no", pass_rule=PASS_DOMINICAN if value == "dominican" else PASS_PR)
    return {**out, "pass_points": int(points)} if value == "dominican" and int(points) != 25 else out


def _build_partnership(o: dict[str, str], given: set[str]) -> dict:
    target = int(o["target"])
    kind = o["match"]
    if kind == "games" and "target" not in given:
        target = 10
    lead_tie = {"draw": "six-six", "last": "blocker"}.get(o["tie"], "")
    first = None if o["first"] == "draw" else SIX_SIX
    blank = int(o["blank"]) if o["blank-count"] == "everywhere" else 0
    return dict(
        seating=Seating.partners(),
        dealing=Dealing(7, 6, (), int(o["redeal"]), _yes(o["must-redeal"])),
        opening=Opening(first_game_tile=first, every_game_tile=SIX_SIX if o["lead"] == "six-six" else None,
                        double=o["open"] == "double", drawn=first is None),
        block=_standard_block(o["block"], o["tie"], blank),
        scoring=_scoring(o["score"], divide=int(o["divide"]), blank=int(o["blank"]),
                         **capicu_scoring(o["capicu"], o["capicu-points"]),
                         chuchazo="" if o["chuchazo"] == "no" else o["chuchazo"],
                         **_pass_scoring(o["pass-bonus"], o["pass-points"]), **salida_scoring(o)),
        match=MatchScoring(target, MatchKind.GAMES if kind == "games" else MatchKind.POINTS, int(o["min-games"]) if kind == "games" else 0,
                           (100, 75, 50, 25) if _yes(o["first-wins"]) else (), lower_wins=o["tie"] == "own-pips",
                           **(caben_match(o["no-caben"]) if kind != "games" else {}), minutes=int(o["minutes"])),
        lead=LeadPolicy({"rotate": "rotate", "winners": "winners", "winner-lowest": "winner-lowest",
                         "six-six": "six-six"}[o["lead"]], True, lead_tie, block=o["block"] if o["block"] in ("last-or-right", "last-or-left", "last") else "",
                        next_match="right" if first is not None else "", hand_over=_yes(o["hand-over"]),
                        blank=blank),
    )


PARTNERSHIP = Family(
    "partnership",
    N_("Four players in fixed partnerships, all 28 tiles dealt, block game; to 100 and all its variants "
       "(Great Lakes, Doscientos, Quinientos, South American, Milo, Venezuelan, Dominican, Brasília)"),
    "000_3c92c1f714ce882e.txt",
    (
        OptionSpec("system", "standard", N_("a named system: sets the other options' defaults"),
                   values=tuple(PARTNERSHIP_SYSTEMS)),
        OptionSpec("score", "losers", N_("the winners score the losers' pips, all pips left (partner's too; "
                      "on a block all four hands), or Milo's 1 point (2 when the last tile leaves both ends equal)"),
                   values=("losers", "all", "milo")),
        OptionSpec("lead", "rotate", N_("who leads later games: the next player after the last leader, the "
                      "winning side, the winner (on a block the winners' player with fewer pips), or always the "
                      "[6-6] holder with it"), values=("rotate", "winners", "winner-lowest", "six-six")),
        OptionSpec("first", "six-six", N_("the first game of a match: the [6-6] holder leads it, or the lead "
                      "is drawn (any tile; the highest tile of the SeatDraw tag leads, anyone without it)"),
                   values=("six-six", "draw")),
        OptionSpec("open", "any", N_("the lead: any tile, or a double unless the leading side has none"),
                   values=("any", "double")),
        OptionSpec("redeal", "0", N_("a player dealt this many doubles may have the tiles dealt again (0: never)"),
                   kind="int", values=("0", "4", "5", "7")),
        OptionSpec("tie", "draw", N_("a blocked hand with equal pips: a draw (no score), the leading side "
                      "wins, the side with more tiles wins, the side that played last wins, the side that played "
                      "last loses, the hand is replayed, or each side scores its own pips"),
                   values=("draw", "leader", "more-tiles", "last", "last-loses", "replay", "own-pips")),
        OptionSpec("block", "team", N_("a blocked hand is won by the side with fewer pips, or (Doscientos) by "
                      "the player who played last or the next player, whoever has fewer, or (last) by the side of "
                      "the player who laid the last tile, whatever the pips, or (player: Venezuelan) by the side of "
                      "the single player with the fewest pips, or (last-or-left: the Dominican rule of dominoesonline.com) "
                      "by the player who played last or the one who played before, whoever has fewer"),
                   values=("team", "last-or-right", "last", "player", "last-or-left")),
        OptionSpec("divide", "1", N_("divide each score by 10, rounding down, but at least 1"), kind="int",
                   values=("1", "10")),
        OptionSpec("target", "100", N_("points (or, with match=games, games) that win the match; 0: no end"),
                   kind="int"),
        OptionSpec("blank", "0", N_("what [0-0] counts in the losers' hands (Great Lakes: 50)"), kind="int",
                   values=("0", "50")),
        OptionSpec("capicu", "no", N_("going out with a tile that fits both ends (capicú) or with a double that fits "
                      "both ends (dominao; not [0-0]) pays 100 (yes: Quinientos) or 25 (the Dominican capicúa); or "
                      "(double: the Cuban and Venezuelan houses) going out with a tile that is no double and fits both "
                      "ends scores the hand's points twice; double-any: a double that fits both ends too (a Venezuelan "
                      "house, teamocuba.com)"), values=("no", "yes", "25", "double", "double-any")),
        OptionSpec("capicu-points", "0", N_("what a capicú or dominao pays where the capicu value pays a bonus (yes, 25), "
                      "when a house pays another (a Dominican app: 30); 0: the value's own"), kind="int"),
        OptionSpec("chuchazo", "no", N_("Quinientos: 100 for going out with [0-0] (any: whatever the ends; "
                      "one-end: only when one end only is 0)"), values=("no", "any", "one-end")),
        OptionSpec("first-wins", "no", N_("Quinientos: 100/75/50/25 to the winners of games 1-4 of the match "
                      "(none for a blocked game)"), kind="bool"),
        OptionSpec("pass-bonus", "no", N_("yes: 20 for the first play that makes the next player pass, 10 later, 20 "
                      "for a blocking play; scores rounded down to tens (the text \"Domino mit Partner\", Puerto Rico); dominican: 25 for a play "
                      "that all three others pass, 25 when the player after the leader passes a double lead, 50 a lead "
                      "that is no double"), values=("no", "yes", "dominican")),
        OptionSpec("pass-points", "25", N_("with pass-bonus=dominican: what a play all three others pass and a double lead "
                      "the next player passes pay (a lead that is no double: twice as much); a house may pay 30"),
                   kind="int"),
        *HOUSE_OPTIONS,
        OptionSpec("minutes", "0", N_("the match also ends on time: the hand that ends after this many minutes of the "
                      "match (the Clock tag of each game) is the last, and the higher score wins (Brasília: 30; 0: no "
                      "time limit)"), kind="int"),
        OptionSpec("match", "points", N_("the match is won by points, or (South American) by games won, only "
                      "if the other side has won min-games"), values=("points", "games")),
        OptionSpec("min-games", "5", N_("with match=games: the games the losers must have won, else the match "
                      "is drawn"), kind="int"),
        OptionSpec("blank-count", "everywhere", N_("with blank=50: [0-0] counts 50 wherever pips are counted, also "
                      "when a block is decided and when the fewest pips choose the next leader (everywhere), or "
                      "only in the winners' score (score)"),
                   values=("everywhere", "score")),
        OptionSpec("hand-over", "no", N_("Doscientos: the player whose turn it is to lead may hand the lead to their "
                      "partner, who leads any tile; the record says so with the tag LeadFrom (the giver)"),
                   kind="bool"),
        OptionSpec("must-redeal", "no", N_("with redeal=N: a hand with N doubles must be dealt again (South "
                      "American), so playing it is an error; no: they may ask for it (a warning)"), kind="bool"),
    ),
    _build_partnership,
    aliases=("partner", "partners", "domino-mit-partner", "partnerdomino", "partnership-domino", "doscientos",
             "quinientos", "great-lakes", "great-lakes-101", "south-american", "suedamerikanisch", "milo",
             "venezuelan", "venezolano", "domino-venezolano", "dominican", "dominicano", "domino-dominicano",
             "capicua", "brasilia", "brasiliense"),
    presets={**PARTNERSHIP_SYSTEMS, "suedamerikanisch": PARTNERSHIP_SYSTEMS["south-american"],
             "venezolano": PARTNERSHIP_SYSTEMS["venezuelan"], "domino-venezolano": PARTNERSHIP_SYSTEMS["venezuelan"],
             "dominicano": PARTNERSHIP_SYSTEMS["dominican"], "domino-dominicano": PARTNERSHIP_SYSTEMS["dominican"],
             "capicua": PARTNERSHIP_SYSTEMS["dominican"], "brasiliense": PARTNERSHIP_SYSTEMS["brasilia"]},
)


# whist (001) ----------------------------------------------------------------------------------
def _build_whist(o: dict[str, str], given: set[str]) -> dict:
    score = o["score"]
    target = int(o["target"]) if "target" in given else (200 if score == "caribbean" else 100)
    people = int(o["players"])
    if score == "bad":
        scoring, match, block = PointScoring("bad"), MatchScoring(target, MatchKind.BAD), BlockRule()
    elif score == "good":
        scoring, match, block = PointScoring("difference"), MatchScoring(target), BlockRule()
    else:
        scoring, match, block = HandScoring("all"), MatchScoring(target), BlockDecider("team", "replay")
    return dict(seating=Seating.partners(), opening=Opening(first_game_tile=None), block=block,
                scoring=scoring, match=match,
                lead=LeadPolicy("rotate", True),
                table=people if people != 4 else 0, irregularities="whist", equal_ends=o["double-lead"])


WHIST = Family(
    "whist",
    N_("Domino Whist: partners drawn by tiles, the lead passing round, bad points to 100 (good points or the "
       "Caribbean 200 as options), five or six players in turn"),
    "001_4be6f7a33fc501ce.txt",
    (
        OptionSpec("score", "bad", N_("bad points (each side writes its own pips, to 100, fewer wins), good "
                      "points (the side with fewer pips writes the difference, to 100), or Caribbean (the winners "
                      "score all pips left, to 200; a tied block does not count)"), values=("bad", "good", "caribbean")),
        OptionSpec("target", "100", N_("points that end the match (Caribbean: 200)"), kind="int"),
        OptionSpec("players", "4", N_("people in the match: with 5 or 6, four play each hand and the others sit "
                      "out in turn"), kind="int", values=("4", "5", "6")),
        OptionSpec("seat-lead", "highest", N_("with the SeatDraw tag (§3): the highest tile drawn leads the first "
                      "game, or (after-highest, as the whist cut) the next player"), values=("highest", "after-highest")),
        OptionSpec("progression", "no", N_("§12, four or five players with the SeatDraw tag: the matches of the "
                      "record form a progression: four: the highest draw partners the second, then the third, then the "
                      "lowest; five: the five rounds of the scheme, one pausing each match; the player who would lead "
                      "next keeps the lead"), kind="bool"),
        OptionSpec("double-lead", "crosswise", N_("§6, both ends equal: a tile goes on the end nearer its player, or to "
                      "their right; a double lead lies across the line, which runs from the leader to their partner as after "
                      "a single lead (crosswise), or its ends are the line's, toward the opponents (lengthwise)"),
                   values=("crosswise", "lengthwise")),
    ),
    _build_whist,
    aliases=("domino-whist", "dominowhist", "caribbean-200"),
    presets={"caribbean-200": {"score": "caribbean"}},
)


# jamaican and chiva (002) -------------------------------------------------------------------------
def _build_jamaican(o: dict[str, str], given: set[str]) -> dict:
    return dict(seating=Seating.partners(),
                opening=Opening(first_game_tile=SIX_SIX, holder_only=o["mode"] == "informal"),
                block=BlockDecider("player", "draw"), scoring=PointScoring("game"),
                match=MatchScoring(int(o["target"]), MatchKind.STRAIGHT, playoff=_yes(o["playoff"]), draw_bonus=True),
                lead=LeadPolicy("match", True))


JAMAICAN = Family(
    "jamaican",
    N_("Jamaican partner game: the single lowest hand wins a block, one point a game, six love to win "
       "(a loss resets to 0-0, a draw makes the next game worth more)"),
    "002_4689fe785f06d323.txt",
    (
        OptionSpec("mode", "tournament", N_("tournament: the [6-6] holder must lead it in the first game; "
                      "informal: they lead any tile"), values=("tournament", "informal")),
        OptionSpec("target", "6", N_("wins in a row that win the match"), kind="int"),
        OptionSpec("playoff", "no", N_("at 1-1 a play-off game instead of a reset; its winner leads 2-0"),
                   kind="bool"),
    ),
    _build_jamaican,
    aliases=("jamaica", "jamaikanisch", "caribbean", "karibisch", "six-love"),
)


def _build_chiva(o: dict[str, str], given: set[str]) -> dict:
    n = int(o["players"])
    if n != 4:
        return dict(seating=Seating.individual(n), dealing=Dealing(7), drawing=Drawing("until", 0),
                    opening=Opening(first_game_tile=None, first_highest=True), block=BlockRule(),
                    scoring=PointScoring("game"),
                    match=MatchScoring(int(o["target"]), MatchKind.SHUTOUT if n == 3 else MatchKind.STRAIGHT,
                                       draw_bonus=_yes(o["draw-worth"])),
                    lead=LeadPolicy("winner-lowest", True, "six-six" if o["draw-lead"] == "six-six" else "match"))
    return dict(seating=Seating.partners(), opening=Opening(first_game_tile=SIX_SIX),
                block=BlockRule(), scoring=PointScoring("game"),
                match=MatchScoring(int(o["target"]), MatchKind.STRAIGHT, draw_bonus=_yes(o["draw-worth"])),
                lead=LeadPolicy("winner-lowest", True, "six-six" if o["draw-lead"] == "six-six" else "match"))


CHIVA = Family(
    "chiva",
    N_("Chiva (Shutout, Puerto Rico): partners, the lower side wins a block, 4 wins in a row take the match, "
       "the winners' lowest player leads next; for 2 or 3 players a draw game with 7 tiles each"),
    "002_4689fe785f06d323.txt",
    (OptionSpec("target", "4", N_("wins in a row that win the match (3 players: wins, provided another player "
                   "has none)"), kind="int"),
     OptionSpec("players", "4", N_("4 (partners), or 2 or 3 each for themselves, 7 tiles each, drawing from the "
                   "boneyard until they can play or it is empty; default: as many as the record names"),
                kind="int", values=("4", "2", "3")),
     OptionSpec("draw-lead", "jamaican", N_("after a drawn game as in the Jamaican partner game (the text \"Karibisches Domino\": \"ähnlich dem "
                   "jamaikanischen Spiel\", whose differences leave drawn games alone): the side with points leads "
                   "(3 players: the winner of the last game won), with none the [6-6] holder (2 or 3 players: when "
                   "it lies in the boneyard, the holder of the highest double dealt); or (six-six) the [6-6] holder "
                   "always"), values=("jamaican", "six-six")),
     OptionSpec("draw-worth", "yes", N_("a drawn game makes the next one worth a point more, as in the Jamaican game "
                   "(for two or three too); no: a drawn game changes nothing"), kind="bool")),
    _build_chiva,
    aliases=("shutout",),
)


def _adjust_cutthroat(values: dict[str, str], explicit: set[str]) -> None:
    """draw=yes is the two-player game."""
    if values["draw"] == "yes" and "players" not in explicit:
        values["players"] = "2"


def _build_cutthroat(o: dict[str, str], given: set[str]) -> dict:
    n = int(o["players"])
    if _yes(o["draw"]):
        if "players" in given and n != 2:
            raise BadOptionValue("option 'draw' of the cutthroat variant is the two-player game (7 tiles each, "
                                 f"the rest a boneyard), not a {n}-player one")
        return dict(seating=Seating.individual(2), dealing=Dealing(7), drawing=Drawing("until", 0),
                    opening=Opening(first_game_tile=None, first_highest=True),
                    block=BlockDecider("player", "draw"), scoring=PointScoring("game"),
                    match=_cutthroat_match(o), lead=LeadPolicy("match", True))
    dealing = {2: Dealing(14), 3: Dealing(9, 6, (DOUBLE_BLANK,)), 4: Dealing(7)}[n]
    return dict(seating=Seating.individual(n), dealing=dealing,
                opening=Opening(first_game_tile=SIX_SIX, holder_only=o["mode"] == "informal"),
                block=BlockDecider("player", "draw"), scoring=PointScoring("game"),
                match=_cutthroat_match(o), lead=LeadPolicy("match", True))


def _cutthroat_match(o: dict[str, str]) -> MatchScoring:
    """"Es wird wie beim Partnerspiel gespielt": a draw makes the next game worth more, and at all 0
    the [6-6] holder leads (the options give the other readings)."""
    return MatchScoring(int(o["target"]), MatchKind.CUTTHROAT, draw_bonus=_yes(o["draw-worth"]), reset_lead=o["reset-lead"])


CUTTHROAT = Family(
    "cutthroat",
    N_("Cut Throat: every player for themselves; 2 players with 14 tiles, 3 with 9 ([0-0] set aside), 4 with 7; "
       "first to 6 wins while someone still has 0"),
    "002_4689fe785f06d323.txt",
    (
        OptionSpec("players", "4", N_("2 (14 tiles each), 3 (9 each, [0-0] set aside) or 4 (7 each); "
                      "default: as many as the record names"), kind="int", values=("2", "3", "4")),
        OptionSpec("target", "6", N_("points that win, provided someone still has 0"), kind="int"),
        OptionSpec("mode", "tournament", N_("the first game: the [6-6] holder leads it (tournament) or any tile "
                      "(informal)"), values=("tournament", "informal")),
        OptionSpec("draw", "no", N_("two players with 7 tiles each, the other 14 a boneyard: a player who cannot "
                      "play draws until they can or it is empty; the first game is opened by the holder of the "
                      "highest double dealt, with it"), kind="bool"),
        OptionSpec("draw-worth", "yes", N_("as in the partner game, a drawn game makes the next one worth a point "
                      "more (after it the winner of the last game that was won leads; at 0 the [6-6] holder); "
                      "no: a drawn game changes nothing"), kind="bool"),
        OptionSpec("reset-lead", "six-six", N_("once everybody has won a game and the scores go back to 0, the "
                      "[6-6] holder leads (as at 0-0 in the partner game), or the winner of that game"),
                   values=("six-six", "winner")),
    ),
    _build_cutthroat,
    aliases=("cut-throat", "jeder-gegen-jeden"),
    adjust=_adjust_cutthroat,
)


# block (003) ----------------------------------------------------------------------------------
BLOCK_HAND = {"4": 6, "2": 7}    # two pairs: the text's six each; two players: the common 7 each, 14 out of play


def _adjust_block(values: dict[str, str], explicit: set[str]) -> None:
    """The hand size follows the number of players unless it is given."""
    if "hand" not in explicit:
        values["hand"] = str(BLOCK_HAND[values["players"]])


def _build_block(o: dict[str, str], given: set[str]) -> dict:
    score = o["score"]
    target = int(o["target"]) if "target" in given else (0 if score == "game" else 100)
    scoring = {"game": PointScoring("game"), "pips": HandScoring("losers"),
               "difference": PointScoring("block-difference")}[score]
    n, hand = int(o["players"]), int(o["hand"])
    if not 1 <= hand or hand * n >= 28:
        raise BadOptionValue(f"option 'hand' of the block variant: {n} players with {hand} tiles each leave no "
                             "tile out of play; the block game keeps sleepers (the partnership game deals all 28)")
    if n == 2 and o["out"] == "pair":
        raise BadOptionValue("option 'out=pair' of the block variant needs two pairs, not two players")
    return dict(seating=Seating.partners() if n == 4 else Seating.individual(2), dealing=Dealing(hand),
                opening=Opening(first_game_tile=None, highest_double=o["lead"] == "double", drawn=o["lead"] == "draw"),
                block=BlockRule(),
                scoring=scoring, match=MatchScoring(target), lead=LeadPolicy("any"), end=o["out"])


BLOCK = Family(
    "block",
    N_("Block game for two pairs with 6 tiles each and 4 sleepers (or two players, 7 each and 14 out of play); "
       "the highest double opens; the lower pair wins a block"),
    "003_00cd45980cfaffe5.txt",
    (
        OptionSpec("out", "one", N_("the hand ends when one player is out, or (strict) when both players of a "
                      "pair are out"), values=("one", "pair")),
        OptionSpec("score", "pips", N_("1 point a game, the opponents' pips, or the opponents' pips with the "
                      "difference on a block"), values=("game", "pips", "difference")),
        OptionSpec("target", "100", N_("points that win the match (100 or 121; with score=game no end)"), kind="int"),
        OptionSpec("players", "4", N_("two pairs, or two players each for themselves (the common computer form); "
                      "default: as many as the record names"), kind="int", values=("4", "2")),
        OptionSpec("hand", "6", N_("tiles each (default 6 for two pairs, 7 for two players); the rest stay out of "
                      "play, nobody draws"), kind="int"),
        OptionSpec("lead", "double", N_("who opens a hand: the holder of the highest double dealt, with it (the text \"Regeln für Domino\"); "
                      "anyone, with any tile (any: OpenSpiel's block dominoes, whose logs never lead the highest "
                      "double); or the first game's leader drawn, the highest tile of the SeatDraw tag leading any "
                      "tile, anyone later (draw)"), values=("double", "any", "draw")),
    ),
    _build_block,
    aliases=("block-game", "blockdomino", "sleepers", "block7", "block-2"),
    presets={"block7": {"players": "2"}, "block-2": {"players": "2"}},
    adjust=_adjust_block,
)

# draw (004, 003) --------------------------------------------------------------------------------
DRAW_HAND = {2: 8, 3: 5, 4: 5, 5: 4, 6: 4}


def _adjust_draw(values: dict[str, str], explicit: set[str]) -> None:
    """The hand size follows the number of players unless it is given."""
    if "hand" not in explicit:
        values["hand"] = str(DRAW_HAND[int(values["players"])])


def _build_draw(o: dict[str, str], given: set[str]) -> dict:
    n, hand = int(o["players"]), int(o["hand"])
    until = o["draw"] == "until"
    keep = int(o["keep"]) if "keep" in given else (2 if until else 0)
    if not 1 <= hand or hand * n + keep >= 28:
        raise BadOptionValue(f"option 'hand' of the draw variant: {n} players with {hand} tiles each leave no "
                             f"tile to draw (the boneyard keeps {keep})")
    extra = _yes(o["extra"]) if "extra" in given else until
    once = (o["doubles"] == "once") if "doubles" in given else until
    return dict(seating=Seating.individual(n), dealing=Dealing(hand), drawing=Drawing(o["draw"], keep),
                opening=Opening(first_game_tile=None, highest_double=True, extra=extra),
                block=BlockDecider("player", "draw", doubles_once=once), scoring=PointScoring("game"),
                match=MatchScoring(int(o["target"])), lead=LeadPolicy("any"))


DRAW = Family(
    "draw",
    N_("Draw game: 2 players with 8 tiles, 3-4 with 5, 5-6 with 4, the rest a boneyard; the highest double "
       "opens, and its player may add a matching tile at once, so the first player may play twice (a record writes "
       "\"1. A [6-6] A [5-6]\"); who cannot play draws until they can; first out wins, else the fewest pips "
       "(doubles once)"),
    "004_7f794f5b50a6005c.txt",
    (
        OptionSpec("players", "2", N_("2 (8 tiles each), 3 or 4 (5 each), 5 or 6 (4 each); default: as many "
                      "as the record names"), kind="int", values=("2", "3", "4", "5", "6")),
        OptionSpec("draw", "until", N_("a player who cannot play draws until they can (the text \"Domino, Grundregel\"), or draws one tile "
                      "and passes if it does not fit (the text \"Regeln für Domino\"); one also sets keep=0, extra=no, doubles=full"),
                   values=("until", "one")),
        OptionSpec("keep", "2", N_("tiles that stay in the boneyard (the text \"Domino, Grundregel\": 2; draw=one: 0)"), kind="int",
                   values=("2", "0")),
        OptionSpec("extra", "yes", N_("the opener may add a matching tile right after the double (the text \"Domino, Grundregel\")"),
                   kind="bool"),
        OptionSpec("doubles", "once", N_("a blocked hand is won by the fewest pips, a double counting one half "
                      "(the text \"Domino, Grundregel\") or both"), values=("once", "full")),
        OptionSpec("target", "0", N_("points (one a game) that win the match; 0: no end"), kind="int"),
        OptionSpec("hand", "8", N_("tiles each (default 8 for two players, 5 for three or four, 4 for five or six; "
                      "most computer logs of the two-player game deal 7)"), kind="int"),
    ),
    _build_draw,
    aliases=("draw-game", "grundregel", "ziehspiel", "talon"),
    adjust=_adjust_draw,
)


# hungarian (004) -----------------------------------------------------------------------------------
HUNGARIAN_HAND = {2: 12, 3: 8, 4: 6}


def _build_hungarian(o: dict[str, str], given: set[str]) -> dict:
    n = int(o["players"])
    return dict(seating=Seating.individual(n), dealing=Dealing(HUNGARIAN_HAND[n]),
                opening=Opening(first_game_tile=None, heaviest_hand=True), block=BlockRule(),
                scoring=PointScoring("bad"), match=MatchScoring(int(o["limit"]) + 1, "bad"),
                lead=LeadPolicy("any"), turns="run")


HUNGARIAN = Family(
    "hungarian",
    N_("Hungarian: 2, 3 or 4 players with 12, 8 or 6 tiles, the rest out of play; the heaviest hand opens; "
       "a player plays as long as they can; the pips left are bad points; the first past 100 loses"),
    "004_7f794f5b50a6005c.txt",
    (
        OptionSpec("players", "2", N_("2 (12 tiles each), 3 (8) or 4 (6); default: as many as the record names"),
                   kind="int", values=("2", "3", "4")),
        OptionSpec("limit", "100", N_("the bad points a player must pass to lose the match"), kind="int"),
    ),
    _build_hungarian,
    aliases=("ungarisch", "ungarisches-domino", "hungarian-domino"),
)

# all fives, all fives and threes (003) ------------------------------------------------------------
FIVES_HAND = {"no": 6}         # a block game keeps the block game's six tiles; a draw game deals five
PUB = {"count": "pub", "lead": "any", "award": "no", "target": "61"}    # Fives and Threes as played in pubs


def _adjust_fives(values: dict[str, str], explicit: set[str]) -> None:
    """The hand size follows the drawing rule unless it is given."""
    if "hand" not in explicit:
        values["hand"] = str(FIVES_HAND.get(values["draw"], 5))


def _build_fives(threes: bool):
    def build(o: dict[str, str], given: set[str]) -> dict:
        n, hand = int(o["players"]), int(o["hand"])
        draw = o["draw"]
        if not 1 <= hand or hand * n > 28:
            raise BadOptionValue(f"option 'hand': {n} players cannot each be dealt {hand} of the 28 tiles")
        if draw != "no" and hand * n + int(o["keep"]) > 28:
            raise BadOptionValue(f"option 'keep': {n} players with {hand} tiles each leave fewer than "
                                 f"{o['keep']} tiles in the stock")
        return dict(seating=Seating.individual(n), dealing=Dealing(hand),
                    drawing=None if draw == "no" else Drawing(draw, int(o["keep"])),
                    opening=Opening(first_game_tile=None, highest_double=o["lead"] == "double"),
                    block=BlockDecider("player", "draw"), scoring=DifferenceAward(5, _yes(o["award"])),
                    play=PlayScoring(threes=threes, pub=o.get("count") == "pub"),
                    match=MatchScoring(int(o["target"])), lead=LeadPolicy("any"))
    return build


_FIVES_OPTIONS = (
    OptionSpec("players", "2", N_("2, 3 or 4, each for themselves; default: as many as the record names"), kind="int",
               values=("2", "3", "4")),
    OptionSpec("draw", "one", N_("the draw game of the text \"Regeln für Domino\" with 5 tiles each: a player who cannot play draws one tile "
                  "and passes if it does not fit (one), or draws until they can (until); or no drawing: a block game "
                  "with 6 tiles each and the rest sleepers (no)"), values=("one", "until", "no")),
    OptionSpec("target", "100", N_("points that win the match (the text \"Regeln für Domino\": \"am häufigsten bis zu 100\")"), kind="int"),
    OptionSpec("hand", "5", N_("tiles each (default 5 when drawing, 6 with draw=no; pubs deal 9 to two players)"),
               kind="int"),
    OptionSpec("lead", "double", N_("the holder of the highest double opens with it (the text \"Regeln für Domino\"), or anyone leads any tile "
                  "(pubs)"), values=("double", "any")),
    OptionSpec("award", "yes", N_("at the end of the hand the winner scores each loser's pips less their own, rounded "
                  "up to five (the text \"Regeln für Domino\"), or nothing beyond the points scored during play (no: pubs)"), kind="bool"),
    OptionSpec("keep", "0", N_("tiles of the stock that are never drawn (the text \"Regeln für Domino\": every tile may be drawn; 2: Muggins as "
                  "Foster's Hoyle states it, the last two tiles of the stock stay there)"), kind="int", values=("0", "2")),
)

ALL_FIVES = Family(
    "all-fives",
    N_("All Fives (Muggins): a play that leaves the open ends at a multiple of five scores it, an unclaimed score "
       "may be taken by the next player (muggins); each loser's pips less the winner's, rounded up to five, go to "
       "the winner; to 100"),
    "003_00cd45980cfaffe5.txt",
    _FIVES_OPTIONS,
    _build_fives(False),
    aliases=("alle-fuenfer", "allefuenfer", "fives", "muggins", "all-5s"),
    adjust=_adjust_fives,
)

ALL_FIVES_THREES = Family(
    "all-fives-threes",
    N_("All Fives and Threes: All Fives where multiples of three score as well (count=pub: the British pub count, "
       "the number of fives plus the number of threes)"),
    "003_00cd45980cfaffe5.txt",
    _FIVES_OPTIONS + (
        OptionSpec("count", "sum", N_("a multiple of five or three scores the ends' sum, or (pub) the number of "
                      "fives plus the number of threes (15 scores 3 + 5 = 8)"), values=("sum", "pub")),
    ),
    _build_fives(True),
    aliases=("alle-fuenfer-und-dreier", "fives-and-threes", "fives-threes", "5s-and-3s", "threes-and-fives",
             "pub-fives-threes", "pub-fives-and-threes"),
    presets={"pub-fives-threes": PUB, "pub-fives-and-threes": PUB},
    adjust=_adjust_fives,
)

# french (002) and cross (003): layouts with four arms ---------------------------------------------
def _build_french(o: dict[str, str], given: set[str]) -> dict:
    return dict(seating=Seating.individual(4), dealing=Dealing(7),
                opening=Opening(first_game_tile=None, every_game_tile=DOUBLE_BLANK), block=BlockRule(),
                scoring=PointScoring("bad", doubled=True), match=MatchScoring(int(o["target"]), "bad"),
                lead=LeadPolicy("any"), layout="french")


FRENCH = Family(
    "french",
    N_("French domino: four players each for themselves with 7 tiles; the [0-0] holder opens with it, four tiles "
       "with a 0 go on its four sides, then each arm takes its double before it goes on; the pips left are bad "
       "points (doubled for a hand holding a double); the match ends when someone reaches 100, the lowest wins"),
    "002_4689fe785f06d323.txt",
    (OptionSpec("target", "100", N_("the bad points that end the match (the lowest total wins)"), kind="int"),),
    _build_french,
    aliases=("franzoesisch", "franzoesisches-domino", "french-domino"),
)


CROSS_SETS = {"6": Dealing(6), "9": Dealing(7, 9)}      # double-six: the block game's 6 each; double-nine: 7


def _build_cross(o: dict[str, str], given: set[str]) -> dict:
    return dict(seating=Seating.partners(), dealing=CROSS_SETS[o["set"]],
                drawing=Drawing("until", 0) if o["sleepers"] == "draw" else None,
                opening=Opening(first_game_tile=None, highest_double=True), block=BlockRule(),
                scoring=HandScoring("losers"), match=MatchScoring(int(o["target"])), lead=LeadPolicy("any"),
                layout="tree" if o["set"] == "9" else "cross")


CROSS = Family(
    "cross",
    N_("Cross domino: the block game of the text \"Regeln für Domino\" (two pairs, 6 tiles each, 4 sleepers, the "
       "highest double opens) whose opening double is a spinner: its four sides each take a tile before play goes "
       "on, a player who cannot fill a side draws from the sleepers, then there are four ends; set=9: the "
       "double-nine cross, where every later double branches into two new arms"),
    "003_00cd45980cfaffe5.txt",
    (
        OptionSpec("sleepers", "draw", N_("while a side of the spinner is empty, a player who cannot fill it draws "
                      "from the sleepers until they can, or passes once they are gone (draw); or nobody draws and the "
                      "sleepers stay out of play, as in the block game (no). Once the four sides are filled nobody "
                      "draws"), values=("draw", "no")),
        OptionSpec("set", "6", N_("the double-six set (6 tiles each, 4 sleepers) or the double-nine cross (9: 7 "
                      "tiles each, 27 sleepers; every double laid on an arm lies crosswise and opens two new arms)"),
                   kind="int", values=("6", "9")),
        OptionSpec("target", "100", N_("points that win the match"), kind="int"),
    ),
    _build_cross,
    aliases=("kreuzdomino", "kreuz", "cross-domino", "spinner", "double-nine-cross", "doppel-neun-kreuzdomino"),
    presets={"double-nine-cross": {"set": "9"}, "doppel-neun-kreuzdomino": {"set": "9"}},
)


FAMILIES: dict[str, Family] = {f.name: f for f in (PARTNERSHIP, WHIST, JAMAICAN, CUTTHROAT, CHIVA, BLOCK, DRAW,
                                                  HUNGARIAN, ALL_FIVES, ALL_FIVES_THREES, FRENCH, CROSS)}
