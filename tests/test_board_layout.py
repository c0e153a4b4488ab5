"""The board draws the real table (#50 item 6) with the one drawing the project has: ``domino diagram``'s SVG
(the report's saved diagram too), sent by the server and shown as an image, the last tile marked. Driven in
real headless Chromium at desktop and phone widths: a French layout with arms and a partnership line whose
doubles lie crosswise."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.parse
from xml.etree import ElementTree

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from conftest import BOARD_TOKEN, RECORDS, ROOT, served_board  # noqa: E402

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
U = 20                 # the side of a tile's half in domino diagram's SVG (analyzer/render/diagram.py)

NS = "{http://www.w3.org/2000/svg}"


def _read(page) -> dict:
    """What the page's image holds, read back (in Python: a document parsed in the page would apply its style
    sheet against the page's policy): every tile's cell and class with the pips inside it, the arm labels."""
    img = page.evaluate("""() => {
      const i = document.querySelector('#table img.layout'), b = i.getBoundingClientRect();
      return {src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0, natural: i.naturalWidth,
              box: {x: b.x, y: b.y, width: b.width, height: b.height}};
    }""")
    head, _, body = img["src"].partition(",")
    assert head == "data:image/svg+xml;charset=utf-8"
    text = urllib.parse.unquote(body)
    root = ElementTree.fromstring(text)
    pips = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(NS + "circle") if c.get("class") == "pip"]
    tiles = []
    for r in root.iter(NS + "rect"):
        cls = (r.get("class") or "").split()
        if "tile" not in cls:
            continue
        # the cell of the tile (its outline is drawn half a unit inside it)
        x, y = float(r.get("x")) - .5, float(r.get("y")) - .5
        w, h = float(r.get("width")) + 1, float(r.get("height")) + 1
        tiles.append({"x": x, "y": y, "w": w, "h": h, "last": "last" in cls,
                      "pips": sum(x < cx < x + w and y < cy < y + h for cx, cy in pips)})
    return {**img, "text": text, "tiles": tiles,
            "scripts": sum(1 for e in root.iter() if e.tag in (NS + "script", NS + "foreignObject")),
            "arms": [t.text or "" for t in root.iter(NS + "text") if t.get("class") == "arm"]}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("layout")
    for name in ("seed1.dom", "variant-french.dom"):
        shutil.copy(RECORDS / name, folder / name)
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


def _open(browser, served, name: str, viewport: dict):
    base, folder = served
    context = browser.new_context(viewport=viewport)
    context.route(re.compile(r"^(?!" + re.escape(base) + r")(https?|wss?|ftp)://"), lambda route: route.abort())
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + f"/?token={BOARD_TOKEN}&path={folder / name}")
    page.wait_for_selector("#diagnostics li, #tomove")
    return context, page, errors


def _cursor_at(page, needle: str, after: bool = False) -> None:
    """Put the text cursor at (or ``after``) the first ``needle`` of the record (the board shows the moves
    that begin before it)."""
    page.evaluate("""([needle, after]) => {
        const t = document.getElementById('text');
        const at = t.value.indexOf(needle) + (after ? needle.length : 0);
        t.focus(); t.setSelectionRange(at, at);
        t.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    }""", [needle, after])


def _shown(page, alt_words: str) -> dict:
    page.wait_for_function("(w) => { const i = document.querySelector('#table img.layout');"
                           " return i && i.complete && i.naturalWidth > 0 && i.alt.includes(w); }", arg=alt_words)
    return _read(page)


def _diagram_tiles(record: str, folder, move: int | None = None) -> list[str]:
    """The tiles of the table in ``domino diagram [--move K]`` of game 1 (the table comes before the hands)."""
    svg = folder / "diagram.svg"
    subprocess.run([sys.executable, "-m", "analyzer", "diagram", str(RECORDS / record), "-o", str(svg)]
                   + ([] if move is None else ["--move", str(move)]), capture_output=True, text=True, cwd=ROOT, check=True)
    return re.findall(r'<rect [^>]*class="tile[^"]*"/>', svg.read_text(encoding="utf-8"))


def _check_common(page, seen: dict, viewport: dict, errors: list[str]) -> None:
    assert seen["loaded"], "the table's image did not load (the page's policy allows data: images only)"
    assert seen["scripts"] == 0
    box = seen["box"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1, box
    # a tile of the table stays readable on a phone: at least 24 px long
    assert 2 * U * box["width"] / seen["natural"] >= 24, (box, seen["natural"])
    assert [t for t in seen["tiles"] if t["last"]], "no tile is marked as the last"
    assert errors == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_french_layout_with_arms_last_tile_marked(browser, served, viewport, tmp_path):
    """French domino, game 1 to its end: the spinner [0-0] with four arms round it, 24 tiles laid (the
    record's plays), the last one, [0-3], marked; the picture is domino diagram's table, tile for tile."""
    context, page, errors = _open(browser, served, "variant-french.dom", viewport)
    try:
        text = page.input_value("#text")
        _cursor_at(page, "8. A [0-3]", after=True)
        seen = _shown(page, "[0-3]")
        moves = text[text.index("1. C [0-0]"):text.index("8. A [0-3]") + len("8. A [0-3]")]
        plays = re.findall(r"\[\d-\d\]", moves)
        assert len(seen["tiles"]) == len(plays) == 24
        # the spinner lies at the centre, crosswise (one half wide, two long), and the arms leave it on four sides
        spinner = [t for t in seen["tiles"] if t["x"] == -U / 2 and t["y"] == -U]
        assert spinner and spinner[0]["w"] < spinner[0]["h"]
        assert {label.split(":")[0] for label in seen["arms"]} >= {"1", "2", "3", "4"}
        assert any(t["x"] < -U for t in seen["tiles"]) and any(t["x"] > U for t in seen["tiles"])
        assert any(t["y"] < -U for t in seen["tiles"]) and any(t["y"] > U for t in seen["tiles"])
        marked = [t for t in seen["tiles"] if t["last"]]
        assert len(marked) == 1 and marked[0]["pips"] == 0 + 3         # [0-3]: three pips, no other tile marked
        table = re.findall(r'<rect [^>]*class="tile[^"]*"/>', seen["text"])
        assert table == _diagram_tiles("variant-french.dom", tmp_path)[:len(table)]
        _check_common(page, seen, viewport, errors)
        page.screenshot(path=f"/tmp/board-shots/layout-french-{viewport['width']}.png", full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_line_with_doubles_crosswise_last_tile_marked(browser, served, viewport, tmp_path):
    """The book's partnership game after A's [4-4] (move 12): a line of 9 tiles whose doubles, the lead
    [1-1] and [4-4], lie across it (upright in a line drawn left to right), the other tiles along it, and
    [4-4], just laid, marked."""
    context, page, errors = _open(browser, served, "seed1.dom", viewport)
    try:
        _cursor_at(page, "B [0-1]")
        seen = _shown(page, "[4-4]")
        text = page.input_value("#text")
        moves = text[text.index("1. B [1-1]"):text.index("B [0-1]")]
        plays = re.findall(r"\[(\d)-(\d)\]", moves)
        assert len(seen["tiles"]) == len(plays) == 9
        upright = [t for t in seen["tiles"] if t["w"] < t["h"]]
        # the report's drawing (report.geometry): a snake, whose tile at a corner stands upright too; here the
        # sixth tile left of the lead, [1-2], turns at the table's edge: the leftmost tile
        corners = [t for t in upright if t["x"] == min(u["x"] for u in seen["tiles"])]
        doubles = [t for t in upright if t not in corners]
        assert len(corners) == 1 and corners[0]["pips"] == 1 + 2
        assert len(doubles) == sum(a == b for a, b in plays) == 2
        assert all(t["h"] < t["w"] for t in seen["tiles"] if t not in upright)
        marked = [t for t in seen["tiles"] if t["last"]]
        assert len(marked) == 1 and marked[0] in doubles and marked[0]["pips"] == 8
        assert sorted(t["pips"] for t in doubles) == [2, 8]
        table = re.findall(r'<rect [^>]*class="tile[^"]*"/>', seen["text"])
        assert table == _diagram_tiles("seed1.dom", tmp_path, 12)[:len(table)]
        _check_common(page, seen, viewport, errors)
        page.screenshot(path=f"/tmp/board-shots/layout-line-{viewport['width']}.png", full_page=True)
    finally:
        context.close()


def test_the_drawing_escapes_the_record_and_runs_nothing():
    """The record's title goes into the picture's accessible name escaped; the picture holds no script, no
    foreign markup, no address to load; the last tile of a variation played on the board is the one marked."""
    from analyzer.server.library import BoardRecord, position_data
    from conftest import SEED_DEAL

    text = ('[Event "<script>alert(1)</script> & \\"x\\""]\n[Variant "partnership"]\n[Players "A, B, C, D"]\n'
            '[Lead "B"]\n\n' + SEED_DEAL + "\n\n1. B [1-1]\n")
    out = position_data(BoardRecord(text, "<board>"), line=["C pass", "D [1-5]@1"], along=2)
    svg = out["drawing"]
    root = ElementTree.fromstring(svg)          # well-formed: the title could not break out of its attribute
    assert "<script>" in root.get("aria-label")
    assert "<script" not in svg and "foreignObject" not in svg and "href" not in svg
    marked = [r for r in root.iter(NS + "rect") if "last" in (r.get("class") or "").split()]
    assert len(marked) == 1 and tuple(out["board"]["last"]) == (1, 5)
    x, y, w, h = (float(marked[0].get(k)) for k in ("x", "y", "width", "height"))
    pips = [c for c in root.iter(NS + "circle") if x < float(c.get("cx")) < x + w and y < float(c.get("cy")) < y + h]
    assert len(pips) == 1 + 5


def test_a_wide_layout_on_a_phone_scrolls_sideways_with_readable_tiles(browser, served):
    """French game 2 at its end (B's [0-5], its widest layout) on a phone: its tiles at least 24 px long, the
    table scrolling sideways inside the board where the drawing is wider than the screen (the page itself never
    does; the report's drawing turns long arms, so this one fits), the spinner in sight, the last tile marked."""
    context, page, errors = _open(browser, served, "variant-french.dom", PHONE)
    try:
        _cursor_at(page, "9. A pass B [0-5]", after=True)
        _shown(page, "[0-5]")
        seen = _read(page)
        assert 2 * U * seen["box"]["width"] / seen["natural"] >= 24
        table = page.evaluate("() => { const t = document.getElementById('table'), r = t.getBoundingClientRect();"
                              " return {x: r.x, width: r.width, scroll: t.scrollWidth, client: t.clientWidth,"
                              " left: t.scrollLeft, page: document.documentElement.scrollWidth}; }")
        assert table["scroll"] <= table["client"] + 1 or table["left"] > 0
        assert table["x"] >= 0 and table["x"] + table["width"] <= PHONE["width"] + 1
        assert table["page"] <= PHONE["width"]
        # the spinner, at the drawing's origin, is in sight
        x0 = float(ElementTree.fromstring(seen["text"]).get("viewBox").split()[0])
        spinner = seen["box"]["x"] + (0 - x0) * seen["box"]["width"] / seen["natural"]
        assert table["x"] < spinner < table["x"] + table["width"]
        marked = [t for t in seen["tiles"] if t["last"]]
        assert len(marked) == 1 and marked[0]["pips"] == 0 + 5
        assert errors == []
        page.screenshot(path="/tmp/board-shots/layout-french-wide-390.png", full_page=True)
    finally:
        context.close()
