"""The words a person reads, in their language: one gettext catalogue (``analyzer/locale/<lang>/LC_MESSAGES/
analyzer.po``, messages extracted by Babel: docs/i18n.md), the active translation held in a context variable.

The library never reads the environment for a language: whoever shows the words (the command line) chooses one
with :func:`use` or :func:`activate` (:func:`negotiate` picks the catalogue that fits the languages a user asked
for, English where none does); every message is written in English in the code, with named placeholders
(``gettext("{player} passes", player=name)``), and looked up in the active catalogue where it is shown. English is
no catalogue at all: a message is its own text, formatted, and nothing of Babel or gettext is loaded.

The catalogues are read from their ``.po`` sources with Babel's reader the first time a process asks for a language
(about 0.03 s of CPU for one, then kept for the process: :func:`translation`), so a fresh clone, an editable install and a
wheel read the same files and no compiled ``.mo`` can fall behind its source.

``qps`` is the pseudo-language of the tests: every translated message comes back marked ``⟦...⟧`` (its placeholders
filled in unmarked), so an English word outside a mark is one no catalogue will ever translate."""
from __future__ import annotations

import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

__all__ = ["LANGUAGES", "PSEUDO", "N_", "ngettext_mark", "gettext", "ngettext", "plural_form", "number", "decimal", "use", "activate", "language",
           "negotiate", "translation", "html_lang", "system_reason"]

#: the languages with a catalogue (besides English, the code's own)
LANGUAGES = ("es", "pt_BR", "ru")
#: the pseudo-language of the tests (not offered to users: every message marked)
PSEUDO = "qps"
#: the folder of the catalogues: ``<lang>/LC_MESSAGES/analyzer.po``
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")
DOMAIN = "analyzer"


class _Pseudo:
    """The pseudo-translation: every message marked (plural forms as English's)."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


#: the active language's code ("en": none) and its translation (None: English)
_ACTIVE: ContextVar[tuple[str, object | None]] = ContextVar("analyzer_language", default=("en", None))


def N_(message: str) -> str:       # noqa: N802 (gettext's name for a message marked, translated where shown)
    """``message`` itself, marked for the catalogue (translated later, where it is shown: ``gettext(message)``)."""
    return message


#: the system's reasons a file cannot be read or written (an ``OSError``'s errno), in the C library's words (as
#: ``os.strerror`` gives them in English), translated by the catalogue
_SYSTEM_REASONS = {
    "ENOENT": N_("No such file or directory"), "EACCES": N_("Permission denied"),
    "EPERM": N_("Operation not permitted"), "EISDIR": N_("Is a directory"), "ENOTDIR": N_("Not a directory"),
    "ENAMETOOLONG": N_("File name too long"), "ELOOP": N_("Too many levels of symbolic links"),
    "EROFS": N_("Read-only file system"), "ENOSPC": N_("No space left on device"),
    "EDQUOT": N_("Disk quota exceeded"), "EIO": N_("Input/output error"), "EMFILE": N_("Too many open files"),
    "ENFILE": N_("Too many open files in system"), "EEXIST": N_("File exists"),
    "EBUSY": N_("Device or resource busy"), "ETXTBSY": N_("Text file busy"), "EFBIG": N_("File too large"),
    "ENXIO": N_("No such device or address"), "ENODEV": N_("No such device"),
}
#: the same by the exception's class, for an ``OSError`` made without an errno
_SYSTEM_CLASSES = {"FileNotFoundError": "ENOENT", "PermissionError": "EACCES", "IsADirectoryError": "EISDIR",
                   "NotADirectoryError": "ENOTDIR", "FileExistsError": "EEXIST"}


def ngettext_mark(singular: str, plural: str) -> tuple[str, str]:
    """A message with plural forms marked for the catalogue (its form picked later, where it is shown)."""
    return singular, plural


def gettext(message: str, /, **params) -> str:
    """``message`` in the active language, its ``{name}`` placeholders filled in from ``params`` (none: the text
    as it is, braces and all)."""
    active = _ACTIVE.get()[1]
    text = message if active is None else active.gettext(message)
    return text.format(**params) if params else text


def ngettext(singular: str, plural: str, n: int, /, **params) -> str:
    """The form of ``singular``/``plural`` that goes with the count ``n`` in the active language (Russian has
    three), its placeholders filled in from ``params`` and ``{n}`` (the count, written as the language writes
    numbers)."""
    return plural_form(singular, plural, n).format(**{"n": number(n), **params})


def plural_form(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the active language, its placeholders left as
    they are (for a caller that fills them in itself, like click)."""
    active = _ACTIVE.get()[1]
    return (singular if n == 1 else plural) if active is None else active.ngettext(singular, plural, n)


def system_reason(error: OSError) -> str:
    """Why the system refused a file (``error``: an ``OSError``, its errno or its class), in the active language:
    ``No such file or directory``, ``Permission denied``, ``Is a directory``... as the system says them in English
    (its ``strerror``), the catalogue's words in another language; a reason the catalogue has no words for is the
    system's own (in English)."""
    import errno as _errno

    name = _errno.errorcode.get(error.errno) if isinstance(error.errno, int) else None
    name = name if name in _SYSTEM_REASONS else _SYSTEM_CLASSES.get(type(error).__name__)
    if name is None:
        for cls in type(error).__mro__:
            if cls.__name__ in _SYSTEM_CLASSES:
                name = _SYSTEM_CLASSES[cls.__name__]
                break
    if name is None or (language() == "en" and error.strerror):
        return error.strerror or str(error)           # (English: the system's own words, as it gave them)
    return gettext(_SYSTEM_REASONS[name])


def language() -> str:
    """The active language's code (``"en"``, ``"es"``, ``"pt_BR"``, ``"ru"``; ``"qps"`` in the tests)."""
    return _ACTIVE.get()[0]


def html_lang(code: str | None = None) -> str:
    """The BCP 47 tag of a language (``pt_BR`` -> ``pt-BR``) for an HTML page's ``lang`` (the active one by
    default; the pseudo-language's pages are English marked)."""
    code = code or language()
    return "en" if code == PSEUDO else code.replace("_", "-")


def number(value: int) -> str:
    """An integer as the active language writes it, with its group separators (``12,345``; ``12 345`` in Russian;
    ``1234`` and ``12.345`` in Spanish)."""
    code = language()
    if code in ("en", PSEUDO):
        return f"{value:,}"
    from babel.numbers import format_decimal

    return format_decimal(value, locale=code)


def decimal(value: float, digits: int = 2) -> str:
    """A decimal with ``digits`` after the point as the active language writes it (``1.25``; ``1,25`` in Spanish,
    Portuguese and Russian)."""
    code = language()
    if code in ("en", PSEUDO):
        return f"{value:,.{digits}f}"
    from babel.numbers import format_decimal

    return format_decimal(value, format="#,##0." + "0" * digits if digits else "#,##0", locale=code,
                          decimal_quantization=True)


def figure(value: float, shown=lambda x: f"{x:g}") -> str:
    """A float with the digits ``shown`` gives it (by default ``:g``'s: ``66.7``, ``0.25``, ``12``), as the active
    language writes decimals (``66,7`` in Spanish, Portuguese and Russian)."""
    text = shown(value)
    return decimal(value, len(text.partition(".")[2])) if "e" not in text else text


@cache
def translation(code: str):
    """The translation of ``code`` (one of :data:`LANGUAGES`, or :data:`PSEUDO`), read from its ``.po`` with
    Babel's reader and kept for the process: a ``gettext.GNUTranslations``."""
    if code == PSEUDO:
        return _Pseudo()
    if code not in LANGUAGES:
        raise ValueError(f"no catalogue for the language {code!r}")
    import gettext as _gettext
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN + ".po"), "rb") as po:
        catalogue = read_po(po, locale=code)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)       # (fuzzy and empty messages left out: they show in English)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


def negotiate(asked) -> str:
    """The language to show, of those the user asked for in order of preference (``["pt-BR", "en"]``,
    ``"ru_RU.UTF-8"``, a ``LANGUAGE`` list ``"es:en"``): the first with a catalogue, matched by language and
    region (``pt_PT`` takes ``pt_BR``, the one Portuguese there is; ``es_MX`` takes ``es``), else ``"en"``.
    ``C`` and ``POSIX`` are English."""
    if isinstance(asked, str):
        asked = asked.split(":")
    for tag in asked:
        tag = (tag or "").split(".")[0].split("@")[0].replace("-", "_").strip()
        if not tag:
            continue
        lang, _, region = tag.partition("_")
        lang = lang.lower()
        if lang in ("c", "posix", "en"):
            return "en"
        if tag.lower() == PSEUDO:
            return PSEUDO
        exact = f"{lang}_{region.upper()}" if region else lang
        for code in (exact, *(c for c in LANGUAGES if c.split("_")[0] == lang)):
            if code in LANGUAGES:
                return code
    return "en"


def activate(code: str):
    """Make ``code`` the active language (``"en"``, or one :func:`negotiate` gave) in this context; returns the
    token that :meth:`ContextVar.reset` takes."""
    return _ACTIVE.set((code, None if code == "en" else translation(code)))


@contextmanager
def use(code: str):
    """``code`` the active language within the block (``with use("es"): ...``)."""
    token = activate(code)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
