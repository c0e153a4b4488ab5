"""The tags the tool reads, and the one a misspelt tag stands for.

A tag the tool does not read is kept as written (docs/notation.md); but a tag that is one slip away
from one it reads (``[Reslt "A/C 10 domino"]``, ``[Varaint "all-fives"]``, ``[result ...]``) silently
changes what is checked: the result goes unchecked, the game is read under the default variant. The
reader warns there (``unknown-tag``) and names the tag meant; the tag is still kept as written."""
from __future__ import annotations

from .setup import SETUP_TAGS

__all__ = ["KNOWN_TAGS", "nearest_tag"]

#: Every tag a record may carry that the tool reads or writes (docs/notation.md, "Tags" and "A game set up
#: from a position").
KNOWN_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Round", "Source", "Variant", "Players", "Lead", "Game", "Result", "Rules", "Score",
    "Exposed", "FalsePlay", "SeatDraw", "Starter", "LeadFrom", "Redeal", "Deal", "Passes", "Problem",
    "Clock", "Fence",                                           # a match on time; a Kozel round mid-game
    "Scheme", "Pairs", "Partners", "Names", "Ladies",           # a tournament file (docs/variants.md)
) + SETUP_TAGS

def nearest_tag(name: str) -> str | None:
    """The known tag that ``name``, a tag the tool does not read, most likely stands for (None: no known tag
    is near: a tag of the record's own, kept as written). A slip is the case of its letters (``result``), or
    one letter dropped, added or changed, or two next to each other swapped (two such slips in a name of
    seven letters or more; a name of four or five letters keeps its first): ``Reslt``, ``Varaint``, ``Player``;
    not ``Table`` (``OnTable``), ``Dealer`` nor ``Name``."""
    if name in KNOWN_TAGS:
        return None
    lower = name.lower()
    allowed = 1 if len(lower) < 7 else 2
    found = [(_slips(lower, known.lower()), known) for known in KNOWN_TAGS
             if (len(known) >= 4 or lower == known.lower()) and abs(len(known) - len(lower)) <= allowed]
    if not found:               # (every slip changes the length by at most one: a name far longer is no slip)
        return None
    slips, known = min(found)
    if slips and (len(lower) < 4 or len(lower) < 6 and lower[0] != known[0].lower()):
        return None             # (a short name of another first letter is a word of its own: Name, not Game)
    return known if slips <= allowed else None


def _slips(a: str, b: str) -> int:
    """The fewest letters dropped, added, changed or swapped with the next that make ``a`` into ``b``
    (the optimal string alignment distance)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]
