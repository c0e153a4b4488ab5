"""A record in a link (analyzer/notation/link.py, analyzer/site/static/link.js): every bundled record through
``#r=`` and back byte for byte, in Python and in the browser's own CompressionStream (each reading what the
other wrote), and a broken or truncated link refused with its reason."""
from __future__ import annotations

import base64
import zlib

import pytest
from hypothesis import given, strategies as st

from analyzer.notation.link import (MAX_RECORD, LinkError, decode_record, encode_record, make_fragment, read_fragment,
                                read_move)
from conftest import RECORDS, ROOT

BUNDLED = sorted(p for p in RECORDS.iterdir() if p.is_file())
LINK_JS = ROOT / "analyzer" / "site" / "static" / "link.js"


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_bundled_record_through_a_link_and_back_byte_for_byte(path):
    data = path.read_bytes()
    value = encode_record(data)
    assert set(value) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")   # no escaping in a URL
    assert decode_record(value) == data
    # raw DEFLATE (RFC 1951), as the browser's CompressionStream("deflate-raw") reads it: no zlib header
    assert zlib.decompress(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)), -15) == data


def test_a_fragment_carries_the_record_and_its_move():
    text = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    link = read_fragment("https://example.org/domino/index.html" + make_fragment(text, 1, 15))
    assert (link.text, link.game, link.step, link.move()) == (text, 1, 15, "g1.15")
    start = read_fragment(make_fragment(text))
    assert (start.text, start.game, start.step) == (text, None, None)


@given(st.text())
def test_any_text_survives_a_link(text):
    assert read_fragment(make_fragment(text, 2, 0)).text == text


def _broken_cases():
    text = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    whole = encode_record(text.encode("utf-8"))
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = base64.urlsafe_b64encode(bomb.compress(b"\0" * (MAX_RECORD + 10)) + bomb.flush()).decode().rstrip("=")
    latin = base64.urlsafe_b64encode(zlib.compress("é".encode("latin-1"))[2:-4]).decode().rstrip("=")
    return {
        "truncated": ("#r=" + whole[: len(whole) // 2], "cut short"),
        "one character short of a whole": ("#r=" + whole[:-1], "cut short"),
        "a character base64url never holds": ("#r=" + whole[:10] + "!" + whole[11:], "base64url never"),
        "nothing after r=": ("#r=", "no record"),
        "no record": ("#m=g1.2", "no record"),
        "a move not gN.M": ("#r=" + whole + "&m=15", "g1.15"),
        "game 0": ("#r=" + whole + "&m=g0.3", "g1.15"),
        "an unknown part": ("#r=" + whole + "&x=1", "x="),
        "r twice": ("#r=" + whole + "&r=" + whole, "twice"),
        "bytes after its end": ("#r=" + base64.urlsafe_b64encode(
            base64.urlsafe_b64decode(whole + "=" * (-len(whole) % 4)) + b"junk").decode().rstrip("="), "after its end"),
        "a zip bomb": ("#r=" + bomb, "more than 4 MB"),
        "not UTF-8": ("#r=" + latin, "UTF-8"),
        "not a stream at all": ("#r=" + "A" * 40, "damaged"),
    }


@pytest.mark.parametrize("case", sorted(_broken_cases()))
def test_a_broken_link_opens_nothing_and_says_why(case):
    fragment, why = _broken_cases()[case]
    with pytest.raises(LinkError, match=why):
        read_fragment(fragment)


def test_a_move_is_read_or_refused():
    assert read_move("g3.0") == (3, 0)
    for bad in ("g1", "1.15", "g1.-1", "g01.2", "g1.15x", ""):
        with pytest.raises(LinkError):
            read_move(bad)


# ---- the browser's codec, against Python's ----------------------------------------------------------------

@pytest.fixture(scope="module")
def codec_page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!DOCTYPE html><title>link</title>")
    page.add_script_tag(path=str(LINK_JS))
    yield page
    context.close()


def test_the_browser_reads_every_python_link_and_python_every_browser_link(codec_page):
    records = {p.name: p.read_text(encoding="utf-8") for p in BUNDLED}
    # Python's links, read by the page (text, move); the page's links, read by Python
    read = codec_page.evaluate("""async (links) => {
        const out = {};
        for (const [name, link] of Object.entries(links)) { out[name] = await DominoLink.read(link); }
        return out;
    }""", {name: make_fragment(text, 1, 7) for name, text in records.items()})
    made = codec_page.evaluate("""async (records) => {
        const out = {};
        for (const [name, text] of Object.entries(records)) { out[name] = await DominoLink.fragment(text, 2, 3); }
        return out;
    }""", records)
    for name, text in records.items():
        assert read[name] == {"text": text, "game": 1, "step": 7}, name
        back = read_fragment(made[name])
        assert (back.text, back.game, back.step) == (text, 2, 3), name


def test_the_browser_refuses_each_broken_link_with_its_reason(codec_page):
    for case, (fragment, why) in _broken_cases().items():
        error = codec_page.evaluate("""async (f) => {
            try { await DominoLink.read(f); return null; } catch (e) { return e.message; }
        }""", fragment)
        assert error is not None, case
        if why in ("cut short", "base64url never", "no record", "g1.15", "x=", "twice", "more than 4 MB", "UTF-8"):
            assert why in error, (case, error)
        else:                   # (the browser's inflater tells a damaged stream from a short one less finely)
            assert "damaged" in error or "cut short" in error, (case, error)


# ---- one grammar in both readers (issue 87 item 7: a trailing "&" opened in the site, `site --read` refused it) ----

def _shared_links() -> dict[str, str]:
    text = (RECORDS / "seed1.dom").read_text(encoding="utf-8")
    r = encode_record(text.encode("utf-8"))
    links = {"plain": f"#r={r}", "move": f"#r={r}&m=g1.15", "trailing &": f"#r={r}&", "trailing & after m":
             f"#r={r}&m=g1.15&", "leading &": f"#&r={r}", "doubled &": f"#r={r}&&m=g2.0", "m first": f"#m=g1.1&r={r}",
             "no =": f"#r={r}&m", "empty name": f"#r={r}&=1", "unknown": f"#r={r}&x=", "r twice": f"#r={r}&r={r}",
             "m twice": f"#r={r}&m=g1.1&m=g1.2", "only &": "#&", "only m": "#m=g1.1", "cut": f"#r={r[:-1]}",
             "m with a sign": f"#r={r}&m=g1.+1", "m Arabic-Indic": f"#r={r}&m=g١.٢", "empty r": "#r=&m=g1.1"}
    links.update({f"{name} (whole address)": "https://example.org/site/" + link for name, link in list(links.items())[:4]})
    return links


def _python_reads(link: str):
    try:
        got = read_fragment(link)
    except LinkError:
        return None
    return {"text": got.text, "game": got.game, "step": got.step}


def test_the_two_link_readers_agree_on_every_link():
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    links = _shared_links()
    script = ("globalThis.window = globalThis;\n" + LINK_JS.read_text(encoding="utf-8") + """
    const links = JSON.parse(require("fs").readFileSync(0, "utf8"));
    (async () => {
      const out = {};
      for (const [name, link] of Object.entries(links)) {
        const hash = link.includes("#") ? link.slice(link.indexOf("#")) : link;     // (location.hash of the address)
        try { out[name] = await DominoLink.read(hash); } catch (e) { out[name] = null; }
      }
      process.stdout.write(JSON.stringify(out));
    })();""")
    done = subprocess.run([node, "-e", script], input=json.dumps(links), capture_output=True, text=True, check=True)
    browser = json.loads(done.stdout)
    for name, link in links.items():
        assert browser[name] == _python_reads(link), name        # (null: the link opens nothing, refused)
    assert _python_reads(links["trailing &"]) is not None and _python_reads(links["unknown"]) is None
