"""The pictures of docs/i18n.md: the bundled Cuban and Venezuelan records' report pages in Spanish, Brasília's in
Brazilian Portuguese and Kozel's in Russian, at a desk's width (1366 px) and a phone's (390 px), made from what
``domino --lang CODE report`` writes, so they stay current.

    python3 docs/shots/i18n_shots.py            # from the repository root

It writes each page (to a temporary folder), opens it in Debian's Chromium through Playwright, steps its first
game's board to move ``MOVES`` with the arrow key and takes ``docs/shots/i18n-NAME-CODE-WIDTH.png`` of the screen
(at a desk the page's top: its header, the board, the hands and the chart; on a phone from the board down: the
board, its controls and the hands). ``tests/test_i18n_records.py`` checks the same
pages (their language, no English word left, nothing wider than a phone). Needs ``pip install playwright`` and
``/usr/bin/chromium`` (never a downloaded browser).
"""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = pathlib.Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
#: the record, its language, and the name of its pictures
PAGES = [("house-cuban-capicua.dom", "es", "cuban"), ("match-venezuelan.dom", "es", "venezuelan"),
         ("house-brasilia.dom", "pt_BR", "brasilia"), ("match-kozel.dom", "ru", "kozel")]
SIZES = [(1366, 768), (390, 844)]
MOVES = 5                           # the board at move 5: tiles on the table, a move's details open


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        for record, code, name in PAGES:
            page_file = pathlib.Path(folder) / f"{name}.html"
            subprocess.run([sys.executable, "-m", "analyzer", "--lang", code, "report", str(ROOT / "records" / record),
                            "-o", str(page_file)], cwd=ROOT, check=True, capture_output=True)
            for width, height in SIZES:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(page_file.as_uri())
                page.wait_for_function("document.documentElement.hasAttribute('data-ready')")
                for _ in range(MOVES):
                    page.keyboard.press("ArrowRight")
                if width < 600:             # (a phone: its screen starts at the first game's board, below the header)
                    page.evaluate("document.querySelector('#g1 .board').scrollIntoView()")
                page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
                target = OUT / f"i18n-{name}-{code.replace('_', '-')}-{width}.png"
                page.screenshot(path=str(target))
                print(f"wrote {target.relative_to(ROOT)}")
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
