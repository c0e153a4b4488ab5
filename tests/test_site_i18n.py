"""The static site in the reader's language (issue 83): its build ships the board's catalogues as the page reads
them, none of them part of a first visit; and in real headless Chromium a Spanish browser's site speaks Spanish, the
board's words and the site's own (its buttons, the engine's loading line). Slow: the page starts Python."""
from __future__ import annotations

import json
import re

import pytest

from analyzer import i18n
from analyzer.notation.link import make_fragment
from analyzer.site.build import CATALOGUES, catalogue_files
from conftest import RECORDS
from test_site import _worker_site
from test_site_browser import SHOTS, START, built, site  # noqa: F401 (the built site served: its fixtures)

pytestmark = pytest.mark.slow


def test_the_site_ships_each_languages_catalogue_as_the_server_answers_it():
    from analyzer.server.catalogue import board_catalogue

    files = catalogue_files()
    assert sorted(files) == [f"{CATALOGUES}{code}.json" for code in sorted(i18n.LANGUAGES)]
    for code in i18n.LANGUAGES:
        assert json.loads(files[f"{CATALOGUES}{code}.json"]) == board_catalogue(code)


def test_a_spanish_browsers_site_speaks_spanish_and_reads_only_its_catalogue(browser, built, site):
    from playwright.sync_api import expect

    address = site
    # the catalogues are read when needed: not part of a first visit, kept by the service worker when read
    worker = _worker_site(built)[0]
    assert f"{CATALOGUES}es.json" in worker["lazy"] and not [n for n in worker["cache"] if n.startswith(CATALOGUES)]
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-419")
    context.route(re.compile(r"^(?!" + re.escape(address) + r")(https?|wss?|ftp)://"), lambda route: route.abort())
    page = context.new_page()
    asked: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(address + "index.html" + make_fragment((RECORDS / "seed1.dom").read_text(encoding="utf-8"), 1, 10))
        expect(page.locator("#analyse")).to_have_text("Analizar")
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.locator("#copylink").inner_text() == "Copiar enlace"        # the site's own button
        expect(page.locator("#siteload")).to_have_class(re.compile(r"\bready\b"), timeout=START)
        assert page.inner_text("#siteload").startswith("Motor listo en ")
        expect(page.locator("#stepinfo")).to_contain_text("tras la jugada 10 de 29", timeout=START)
        # the pipeline's words too, made by the worker in the page's language (the record's slip at 23:6)
        expect(page.locator("#diagnostics .diag[data-code=tile-no-match] .msg").first).to_contain_text(
            "no entra en los extremos abiertos", timeout=START)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "site-es-phone.png"), full_page=True)
        assert [url for url in asked if "/catalogue/" in url] == [address + f"{CATALOGUES}es.json"]
        # (the Spanish of the pipeline read when first needed: the other languages' catalogues never)
        assert not [url for url in asked if re.search(r"/(ru|pt_BR|pt)(/LC_MESSAGES/analyzer\.po|\.dat)$", url)]
        assert not errors, errors
    finally:
        context.close()
