"""The bytes of a record file as text: UTF-8, or one clear diagnostic saying what the file is instead.

Never raises and never passes raw bytes (or replacement characters) on."""
from __future__ import annotations

import codecs

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext
from ..rules.codes import Code

__all__ = ["decode"]


def _problem(label: str, code: str, message: str, **where) -> Diagnostic:
    return Diagnostic("error", code, message, source=label, **where)


_SAVE = N_("save it as UTF-8 plain text (in most editors: Save as..., Encoding: UTF-8) and try again")


def decode(data: bytes, label: str) -> tuple[str | None, Diagnostic | None]:
    """The text of a record file, or a diagnostic saying why it is not UTF-8 text (never raises and
    never passes raw bytes on)."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or _looks_utf16(data):
        return None, _problem(label, "not-utf8", gettext("the file is UTF-16 text, not UTF-8: {advice}",
                                                         advice=gettext(_SAVE)))
    if b"\0" in data:
        return None, _problem(label, Code.BINARY, gettext("the file is binary (it holds NUL bytes), not a record; a "
                                                          "record is plain UTF-8 text"))
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        return None, _problem(label, "not-utf8", gettext("the file is not UTF-8 text (byte {byte} cannot be read; "
                                                         "perhaps Latin-1 or Windows-1252): {advice}",
                                                         byte=f"0x{data[error.start]:02X}", advice=gettext(_SAVE)),
                              line=line, column=column)


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 without a byte-order mark: mostly ASCII with a NUL in every other byte."""
    sample = data[:512]
    if len(sample) < 4:
        return False
    for zeros, text in ((sample[1::2], sample[0::2]), (sample[0::2], sample[1::2])):
        printable = sum(32 <= b < 127 or b in b"\t\r\n" for b in text)
        if zeros.count(0) > 0.8 * len(zeros) and printable > 0.8 * len(text):
            return True
    return False
