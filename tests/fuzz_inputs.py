"""The inputs of the robustness fuzzing (tests/test_fuzz_robustness.py, bench/fuzz_campaign.py): hypothesis
strategies built from the import formats' pieces and real samples, the board's request bodies, and sequences of
the board's calls that make a set-up and play on from it; and the checks every input must pass."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

DATA = Path(__file__).resolve().parent / "data" / "import"
RECORDS = Path(__file__).resolve().parent.parent / "records"

KOZEL = [(DATA / name).read_text(encoding="utf-8") for name in
         ("kozel-two-rounds.json", "kozel-game.example.json", "kozel-sample_game.json")]
YARD = (DATA / "yard-hands.txt").read_text(encoding="utf-8")
CSV = (DATA / "moves.csv").read_text(encoding="utf-8")
RECORD_TEXTS = [(RECORDS / name).read_text(encoding="utf-8") for name in
                ("seed1.dom", "variant-all-fives.dom", "match-kozel.dom", "variant-draw.dom", "errors.dom")]
READ_TEXTS = RECORD_TEXTS + [(RECORDS / name).read_text(encoding="utf-8") for name in
                             ("match-south-american-redeal.dom", "draw-one-view.dom")]

_NUMBERS = st.one_of(st.integers(-3, 30), st.sampled_from([10 ** 30, -(10 ** 30), 101, 50, 0]),
                     st.floats(allow_nan=False, allow_infinity=False))
_WORDS = st.sampled_from(["start", "left", "right", "pass", "x", "", "1-1", "6-6", "0-7", "Оля", "Max", "Ира",
                          "Пётр Иванов", "Zed", "emptyHand", "fish", "eggs", "withEggs", "withoutEggs",
                          "kozel-game-v1", "Запад", "Восток", "[3-6]", "draw", "@6", ">2"])
_JSON = st.recursive(st.one_of(st.none(), st.booleans(), _NUMBERS, _WORDS, st.text(max_size=8)),
                     lambda inner: st.one_of(st.lists(inner, max_size=4),
                                             st.dictionaries(_WORDS | st.sampled_from(
                                                 ["player", "action", "stone", "deal", "moves", "result", "number",
                                                  "rounds", "teams", "seat", "name", "players", "scoreLimit"]),
                                                 inner, max_size=4)), max_leaves=12)


def _paths(value, path=()):
    """Every path into a JSON value (lists and objects)."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, path + (key,))
    elif isinstance(value, list):
        for k, inner in enumerate(value):
            yield from _paths(inner, path + (k,))


def _set(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    out = list(value)
    out[head] = _set(out[head], rest, new)
    return out


@st.composite
def kozel_texts(draw):
    """A Kozel game log: a real sample with a few values replaced by anything JSON holds (or removed, or a list
    cut), sometimes cut or spliced as text."""
    data = json.loads(draw(st.sampled_from(KOZEL)))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(data))
        path = draw(st.sampled_from(paths))
        kind = draw(st.integers(0, 3))
        if kind == 0 or not path:
            data = _set(data, path, draw(_JSON))
        elif kind == 1:
            parent = _get(data, path[:-1])
            if isinstance(parent, dict):
                parent = {k: v for k, v in parent.items() if k != path[-1]}
            else:
                parent = parent[:path[-1]] + parent[path[-1] + 1:]
            data = _set(data, path[:-1], parent)
        elif kind == 2:
            parent = _get(data, path[:-1])
            if isinstance(parent, list):
                data = _set(data, path[:-1], [parent[-1]] + parent[:-1])     # (a move out of its place)
        else:
            data = _set(data, path, draw(_WORDS))
    text = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 9)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "}", "]", ",", "1" * 4400, '"', "\\u0000"])) + text[cut:]
    return text


def _get(value, path):
    for part in path:
        value = value[part]
    return value


_YARD_PIECES = ["1", "0", "4", "2", "3", "X", "D", "P", "L", "R", "0", "9", "a", "r", "s", "z", "hand=", "#", " ",
                "\n", "13040", "10120", "12230", "11130", "13043", "99999", "-", "&"]


def _spliced(draw, text: str, pieces: list[str], times: tuple[int, int], gone: int, size: int) -> str:
    """``text`` spliced ``times`` (the least, the most) times: at a place drawn, up to ``gone`` characters taken
    out and up to ``size`` of ``pieces`` put in."""
    for _ in range(draw(st.integers(*times))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, gone))
        text = text[:at] + "".join(draw(st.lists(st.sampled_from(pieces), max_size=size))) + text[at + cut:]
    return text


@st.composite
def yard_texts(draw):
    """Share codes: the real ones spliced with the code's own characters, or made of them alone."""
    if draw(st.booleans()):
        return "".join(draw(st.lists(st.sampled_from(_YARD_PIECES), max_size=60)))
    return _spliced(draw, YARD, _YARD_PIECES, times=(1, 4), gone=4, size=4)


_CSV_CELLS = ["A", "B", "C", "D", "E", "1-1", "5-1", "6-6", "0-7", "pass", "draw", "left", "right", "@6", ">2",
              "?", "", '"', '"a,b"', "game", "player", "tile", "side", "1", "2", "-1", "٣", "3|6", "[3-6]"]


@st.composite
def csv_texts(draw):
    """Move lists: the sample's rows with cells replaced, rows moved or dropped, other separators and headers."""
    rows = [r for r in CSV.splitlines()]
    for _ in range(draw(st.integers(1, 6))):
        k = draw(st.integers(0, len(rows) - 1))
        kind = draw(st.integers(0, 3))
        if kind == 0:
            cells = rows[k].split(",")
            cells[draw(st.integers(0, len(cells) - 1))] = draw(st.sampled_from(_CSV_CELLS))
            rows[k] = ",".join(cells)
        elif kind == 1:
            rows.insert(draw(st.integers(0, len(rows))), rows.pop(k))
        elif kind == 2 and len(rows) > 1:
            rows.pop(k)
        else:
            rows.insert(k, draw(st.sampled_from([";".join(draw(st.lists(st.sampled_from(_CSV_CELLS), max_size=4))),
                                                 "game,player,tile,side", "\t".join(["A", "1-1", "left"])])))
    return "\n".join(rows) + draw(st.sampled_from(["", "\n", "\r\n"]))


def check_import(fmt: str, text: str) -> None:
    """``text`` imported as ``fmt``: a record (written, read back and checked, with no internal error) or the
    format's error, each problem at a place; never another exception."""
    from analyzer.match import replay_record
    from analyzer.notation import parse, write
    from analyzer.notation.imports import ImportSourceError, import_log
    from analyzer.rules import VariantError

    try:
        imported = import_log(fmt, text, "fuzz")
    except ImportSourceError as exc:
        assert exc.diagnostics and all(d.message for d in exc.diagnostics)
        return
    except VariantError:
        return
    record = parse(write(imported.record), "fuzz.dom")
    for rep in replay_record(record, sheets=False):
        internal = [d for d in rep.diagnostics if d.code in ("internal-error", "notation")]
        assert not internal, [str(d) for d in internal]


_RECORD_PIECES = ["[", "]", '"', "[0-0]", "[6-6]", "[3-6]@6", "[1-1]>2", "?", "pass", "draws ?", "draws [2-5]",
                  "1.", "A", "B", "C", "D", ":", "\n", " ", "{", "}", "(", ")", ";", "@", ">", "-", "٣", "0" * 40,
                  '[SetUp "1"]', '[Rules "redeal=5"]', '[Variant "kozel"]', '[Variant "draw"]', '[Players "A, B"]',
                  '[Result "A 1 blocked"]', '[Game "2"]', "[Hidden", '[Ends "4 6"]', '[OnTable "11"]', "*"]


@st.composite
def record_texts(draw):
    """Records: the real ones (records/) spliced with the notation's own pieces, or made of them alone."""
    if draw(st.integers(0, 4)) == 0:
        return "".join(draw(st.lists(st.sampled_from(_RECORD_PIECES), max_size=40)))
    return _spliced(draw, draw(st.sampled_from(READ_TEXTS)), _RECORD_PIECES, times=(1, 4), gone=12, size=3)


def check_record(text: str) -> None:
    """``text`` read as a record and replayed (its sheets searched): problems are diagnostics at places, never
    an exception, ``internal-error`` or an unplaced ``notation`` one."""
    from analyzer.match import replay_record
    from analyzer.notation import parse

    record = parse(text, "fuzz.dom")
    for rep in replay_record(record):
        internal = [d for d in rep.diagnostics if d.code == "internal-error"]
        assert not internal, [str(d) for d in internal]


_LINK_PIECES = ["#", "r=", "m=", "&", "=", "g1.0", "g2.15", "g0.1", "g1.-1", "g١.2", "x=", "%20", "==", "A", "_", "-",
                "+", "/"]


@st.composite
def link_texts(draw):
    """Links: a real record's link (with a move or not), cut or spliced with the fragment's own pieces."""
    from analyzer.notation.link import make_fragment

    text = make_fragment(draw(st.sampled_from(READ_TEXTS)), *draw(st.sampled_from([(None, None), (1, 0), (2, 7)])))
    if draw(st.booleans()):
        text = "https://example.org/site/" + text
    return _spliced(draw, text, _LINK_PIECES, times=(0, 3), gone=3, size=2)


def check_link(text: str) -> str:
    """``text`` read as a link: a record and move, or :class:`LinkError` in words; never another exception."""
    from analyzer.notation.link import LinkError, read_fragment

    try:
        read_fragment(text)
    except LinkError as exc:
        assert str(exc)
        return "refused"
    return "opened"


# ---- the board ---------------------------------------------------------------------------------------------------

ROUTE_NAMES = ["position", "enter", "variation", "branch", "result", "next", "tags", "variants", "new", "setup"]
_TILE = st.lists(st.integers(-1, 8), min_size=2, max_size=2) | st.sampled_from([[0, 0], [6, 6], [3, 6], "x", None])
_HAND = st.one_of(st.none(), st.integers(), st.fixed_dictionaries(
    {}, optional={"tiles": st.lists(_TILE, max_size=4) | st.integers(), "unknown": st.integers(-2, 12) | st.text(max_size=2)}))
_VARIANT = st.sampled_from([None, "partnership", "block", "draw", "all-fives", "cutthroat", "french", "kozel",
                            "venezuelan", "south-american", "nonsense", 3])
_RULES = st.one_of(st.none(), st.dictionaries(st.sampled_from(["players", "target", "salida", "no-caben", "draw",
                                                                 "x"]),
                                              st.sampled_from(["2", "3", "4", "-1", "٣", "yes", "", "101"]), max_size=2),
                   st.integers(), st.text(max_size=4))
_MOVES = st.sampled_from(["[0-0]", "[6-6]", "pass", "draws [2-5]", "draws ?", "B [0-1]", "A [6-6]", "[3-6]@6", "[1-1]>2",
                          "", "x", "A", "[9-9]"])


def _text_value():
    return st.one_of(st.sampled_from(RECORD_TEXTS), st.sampled_from(['[Event "x"]', '[R""', "", "A: ?", "1. A [0-0]",
                                                                     '[SetUp "1"]\n\nA: [0-0]\nB: ?\n']),
                     st.text(max_size=30), st.integers(), st.none())


@st.composite
def board_bodies(draw):
    """A route and a body: the fields the routes read, each of a right or a wrong kind."""
    route = draw(st.sampled_from(ROUTE_NAMES))
    fields = {"text": _text_value(), "game": st.integers(-2, 5) | st.text(max_size=2), "step": st.integers(-2, 40)
              | st.none(), "move": _MOVES | st.integers(), "player": st.sampled_from(["A", "B", "C", "Z", ""]) | st.none(),
              "line": st.lists(_MOVES, max_size=4) | st.text(max_size=3), "along": st.integers(-1, 5),
              "result": st.sampled_from(["A/C 1 blocked", "x", ""]) | st.integers(), "variant": _VARIANT, "rules": _RULES,
              "players": st.lists(st.sampled_from(["A", "B", "C", "D", "A", "", "x" * 50]), max_size=5) | st.integers()
              | st.none() | st.text(max_size=3), "hands": st.lists(_HAND, max_size=5) | st.integers() | st.none(),
              "table": st.none() | st.fixed_dictionaries({}, optional={"line": st.lists(_TILE, max_size=3),
                                                                      "ends": st.lists(st.integers(-1, 8), max_size=3),
                                                                      "counts": st.lists(st.lists(st.integers(-1, 9),
                                                                                                  max_size=3), max_size=2),
                                                                      "on_table": st.integers(-1, 30)}) | st.integers(),
              "to_move": st.sampled_from(["A", "B", "Z", ""]) | st.none() | st.integers(),
              "lacks": st.lists(st.lists(st.integers(-1, 8), max_size=2) | st.none(), max_size=4) | st.integers(),
              "boneyard": st.integers(-1, 30) | st.none() | st.text(max_size=2),
              "points": st.lists(st.integers(-5, 300) | st.none(), max_size=4) | st.none(),
              "match_score": st.lists(st.integers(-5, 300) | st.none(), max_size=4) | st.none(),
              "event": st.text(max_size=5) | st.integers(), "lead": st.sampled_from(["A", "Z"]) | st.integers(),
              "starter": st.lists(st.integers(-1, 8), max_size=3) | st.none(), "problem": st.text(max_size=5)}
    chosen = draw(st.lists(st.sampled_from(sorted(fields)), max_size=8, unique=True))
    return route, {key: draw(fields[key]) for key in chosen}


@st.composite
def route_sequences(draw):
    """A set-up form's parts, then calls in any order, each on the text the last one gave."""
    variant = draw(st.sampled_from(["partnership", "block", "draw", "all-fives", "cutthroat"]))
    n = 3 if variant == "cutthroat" else draw(st.sampled_from([2, 4])) if variant in ("block", "draw", "all-fives") else 4
    rules = {"players": str(n)} if variant in ("block", "draw", "all-fives") and n != 4 else {}
    pool = [[a, b] for b in range(7) for a in range(b + 1)]
    order = draw(st.permutations(pool))
    hands, k = [], 0
    for _ in range(n):
        size = draw(st.integers(0, 3))
        hands.append({"tiles": order[k:k + size], "unknown": draw(st.integers(0, 3))})
        k += size
    table = draw(st.sampled_from([{}, {"line": [order[k]]}, {"ends": [order[k][0], order[k][1]],
                                                            "counts": [[order[k][0], 2]], "on_table": 3}]))
    setup = {"variant": variant, "rules": rules, "hands": hands, "table": table,
             "to_move": draw(st.sampled_from([None, "A", "B"])), "boneyard": draw(st.sampled_from([None, 0, 3])),
             "points": draw(st.sampled_from([None, [5] + [None] * (n - 1 if variant != "partnership" else 1)]))}
    calls = draw(st.lists(st.tuples(st.sampled_from(["enter", "position", "result", "next", "tags", "variation",
                                                     "branch", "setup"]),
                                    st.sampled_from(["A", "B", "C", None]),
                                    st.sampled_from(order[:k + 1] or [[0, 0]]) | st.just("pass"),
                                    st.integers(0, 6)), min_size=1, max_size=6))
    return setup, calls


def run_sequence(sequence, post) -> None:
    """Make the set-up, then each call in turn on the text the last answer gave (``post(route, body)`` -> data)."""
    setup, calls = sequence
    made = post("setup", setup)
    text = made.get("text") if isinstance(made, dict) else None
    if not isinstance(text, str):
        return
    for route, player, tile, step in calls:
        move = tile if tile == "pass" else f"[{tile[0]}-{tile[1]}]"
        body = {"text": text, "variant": setup["variant"], "rules": setup["rules"], "step": step, "game": 0}
        if route == "enter":
            body.update(move=move, player=player)
        elif route in ("variation", "branch"):
            body.update(line=[f"{player or 'A'} {move}"], along=1)
        elif route == "setup":
            body = {**setup, "to_move": player}
        answer = post(route, body)
        if isinstance(answer, dict) and isinstance(answer.get("text"), str):
            text = answer["text"]
