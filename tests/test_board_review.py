"""The board for a whole match and for review (issue #66), in real headless Chromium against a real server:
every call of the page through its one transport (the static site answers them without a server)."""
from __future__ import annotations

import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
expect = pytest.importorskip("playwright.sync_api").expect

from conftest import BOARD_DESKTOP, BOARD_TOKEN, RECORDS, open_board, served_board  # noqa: E402

# the page's calls answered by a transport of its own (as the static site's Web Worker does): it forwards each
# to the real server and counts it; fetch itself refuses any other call
TRANSPORT = """(() => {
  const real = window.fetch.bind(window);
  window.transported = [];
  window.fetch = (url, init) => Promise.reject(new Error("fetch called directly: " + url));
  window.dominoTransport = (route, body, signal) => {
    window.transported.push(route);
    return real("/api/" + route, {method: "POST", body: JSON.stringify(body), signal: signal,
        headers: {"Content-Type": "application/json", "Authorization": "Bearer %s"}})
      .then(r => r.json().then(data => ({status: r.status, data: data})));
  };
})();""" % BOARD_TOKEN


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review")
    for name in ("seed1.dom", "seed2.dom"):
        shutil.copy(RECORDS / name, folder / name)
    with served_board([str(folder)]) as port:
        yield f"http://127.0.0.1:{port}", folder


def test_every_call_of_the_page_goes_through_its_one_transport(browser, served):
    base, folder = served
    context = browser.new_context(viewport=BOARD_DESKTOP)
    context.add_init_script(TRANSPORT)
    errors: list[str] = []
    try:
        page = open_board(context, base, errors, f"&path={folder / 'seed2.dom'}")
        page.wait_for_selector("#legal button, #legal .none, #stepinfo")
        expect(page.locator("#stepinfo")).not_to_be_empty()
        page.click("#newrecord")
        page.wait_for_selector("#nvariant option", state="attached")
        routes = page.evaluate("window.transported")
        assert {"files", "open", "validate", "position", "variants"} <= set(routes)
    finally:
        context.close()
    assert errors == []
