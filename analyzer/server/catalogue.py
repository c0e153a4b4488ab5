"""The board's words in the reader's language: the gettext domain ``board`` (``analyzer/locale/<lang>/LC_MESSAGES/
board.po``, docs/i18n.md), the messages of the page's JavaScript (marked ``_()``/``ngettext()``) and of its HTML
(every text, title, placeholder and label of ``static/board.html``), handed to the page as data: :func:`board_catalogue`
is the JSON the page's ``i18n.js`` reads (the server answers it at ``/static/catalogue/<lang>.json``, the static site
ships it there). Babel extracts the messages (:func:`extract_html` for the page, Babel's JavaScript extractor for the
scripts: ``babel-board.cfg``); nothing here is read by the library."""
from __future__ import annotations

import os
import re
from functools import cache
from html.parser import HTMLParser

from ..i18n import LANGUAGES, LOCALE_DIR, PSEUDO

__all__ = ["DOMAIN", "board_catalogue", "plural_categories", "extract_html", "page_messages"]

DOMAIN = "board"
#: the attributes of the page's HTML whose words are looked up (as ``i18n.js`` does: ATTRIBUTES)
ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_LETTER = re.compile(r"[A-Za-z]")


def _words(raw: str) -> str | None:
    """A text of the page as ``i18n.js`` looks it up: its blanks made one, trimmed; None where it has no letter."""
    words = " ".join(raw.split())
    return words if _LETTER.search(words) else None


class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "textarea"):
            self.skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value and (words := _words(value)):
                self.found.append((self.getpos()[0], words))

    def handle_endtag(self, tag):
        if tag in ("script", "style", "textarea"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip and (words := _words(data)):
            self.found.append((self.getpos()[0], words))


def page_messages(html: str) -> list[tuple[int, str]]:
    """(line, message) of every text and labelled attribute of a page, as ``i18n.js`` translates them."""
    page = _Page()
    page.feed(html)
    page.close()
    return page.found


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the board's HTML (``babel-board.cfg``): each text and each title,
    placeholder, label and alt text, its blanks made one."""
    for line, message in page_messages(fileobj.read().decode(options.get("encoding", "utf-8"))):
        yield line, "_", message, []


def plural_categories(code: str, expression) -> list[str]:
    """The CLDR plural category (``Intl.PluralRules``: one, few, many, other) of each of a catalogue's plural forms, in
    the catalogue's order: the category Babel's rule of ``code`` gives the counts that the catalogue's
    ``Plural-Forms`` expression (``expression(n) -> form``) sends to each form. A form two categories share (or
    none reaches) is an error: the page could not pick it from the browser's rules."""
    from babel import Locale

    rule = Locale.parse(code).plural_form
    seen: dict[int, str] = {}
    for n in [*range(0, 1200), 1_000_000, 2_000_000, 10_000_000]:
        form, tag = expression(n), rule(n)
        if seen.setdefault(form, tag) != tag:
            raise ValueError(f"{code}: the catalogue's plural form {form} is both {seen[form]} and {tag}")
    return [seen[k] for k in range(len(seen))]


@cache
def board_catalogue(code: str) -> dict:
    """The page's catalogue of ``code`` as JSON data: ``{"lang", "plural": [category of each form], "messages":
    {message: translation, or [form, ...] for one with plural forms}}`` (a message not translated is left out: the
    page shows its English); for the pseudo-language ``{"lang": "qps", "pseudo": true}``."""
    if code == PSEUDO:
        return {"lang": PSEUDO, "pseudo": True}
    if code not in LANGUAGES:
        raise ValueError(f"no catalogue for the language {code!r}")
    import gettext

    from babel.messages.pofile import read_po

    with open(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN + ".po"), "rb") as po:
        catalogue = read_po(po, locale=code)
    expression = gettext.c2py(catalogue.plural_expr)
    messages = {}
    for message in catalogue:
        if not message.id or message.fuzzy:
            continue
        if message.pluralizable:
            forms = list(message.string)
            if all(forms):
                messages[message.id[0]] = forms
        elif message.string:
            messages[message.id] = message.string
    return {"lang": code, "plural": plural_categories(code, expression), "messages": messages}
