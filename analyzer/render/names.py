"""What a report page calls its record, and what its file is called, without the machine's paths: a page is
shared, so it names the record as the user gave it relative to the page (a relative path), or by the path below
the folder given, or by its file name; the pages of a folder report are named by the path below that folder."""
from __future__ import annotations

import json
import os
import re

__all__ = ["below", "shown_name", "renamed"]


def below(label: str, roots: list[str]) -> str:
    """``label`` as the path below the folder among ``roots`` that holds it (a record found in a folder given);
    a record given by itself: as given when relative, else by its file name."""
    for root in roots:
        if root in ("-", "") or not os.path.isdir(root):
            continue
        prefix = os.path.join(os.path.normpath(root), "")
        if os.path.normpath(label).startswith(prefix):
            return os.path.normpath(label)[len(prefix):]
    if label == "<stdin>" or not os.path.isabs(label):
        return label
    return os.path.basename(label)


def shown_name(label: str, target: str, roots: list[str] = ()) -> str:
    """The name the page at ``target`` gives the record ``label``: relative to the page where both were given
    as relative paths (so that it leads from the page to the record), else the path below the folder given,
    or the file name; never an absolute path."""
    if label == "<stdin>":
        return label
    if not os.path.isabs(label) and not os.path.isabs(target):
        return os.path.relpath(label, os.path.dirname(target) or os.curdir)
    return below(label, list(roots))


def renamed(page: str, label: str, shown: str) -> str:
    """The rendered ``page`` with the record's name ``label`` written as ``shown`` everywhere it stands: in the
    text and attributes (escaped as the page escapes them) and in the page's JSON data."""
    if label == shown:
        return page
    forms = {form(label): form(shown) for form in (_html, _json)}      # in one pass: never renamed twice
    return re.sub("|".join(map(re.escape, sorted(forms, key=len, reverse=True))), lambda m: forms[m.group()], page)


def _html(text: str) -> str:
    # as markupsafe escapes (jinja2's autoescape)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;")
            .replace("'", "&#39;"))


def _json(text: str) -> str:
    # as jinja2's tojson writes a string inside the page's JSON (without its quotes)
    return (json.dumps(text)[1:-1].replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("'", "\\u0027"))
