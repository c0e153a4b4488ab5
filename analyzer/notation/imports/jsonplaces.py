"""JSON read with the place of every value: ``json`` reads the data (and says where malformed text goes
wrong); a walk over the same text notes the line and column where each value starts, by its path
(``("rounds", 1, "moves", 4, "stone")``), and a key given twice in one object is reported at its place."""
from __future__ import annotations

import json
import re
import sys

__all__ = ["JsonText", "path_text"]

_BLANK = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_LONG = re.compile(r'"(?:[^"\\]|\\.)*"|(-?\d{%d,})' % (sys.get_int_max_str_digits() + 1), re.S)
_SCALAR = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity")


def path_text(path: tuple) -> str:
    """``("rounds", 1, "moves", 4, "stone")`` as ``rounds[1].moves[4].stone``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the document"


class JsonText:
    """A JSON text, read: ``data`` the value, ``error`` (message, line, column) when the text is no JSON,
    ``twice`` the keys given twice (path, line, column), ``place(path)`` where a value starts."""

    def __init__(self, text: str):
        self.text = text
        self.data = None
        self.error: tuple[str, int, int] | None = None
        self.twice: list[tuple[tuple, int, int]] = []
        self._places: dict[tuple, int] = {}
        try:
            self.data = json.loads(text)
        except json.JSONDecodeError as exc:
            self.error = (exc.msg, exc.lineno, exc.colno)
            return
        except RecursionError:
            self.error = ("the values are nested too deep", 1, 1)
            return
        except ValueError:          # (an integer past Python's int-str limit: json's scanner gives no place)
            self._lines = [m.start() for m in re.finditer(r"\n", text)]
            long = next((m for m in _LONG.finditer(text) if m.group(1)), None)
            at = self.line_column(long.start(1)) if long else (1, 1)
            self.error = (f"a number of {len(long.group(1).lstrip('-')) if long else 'too many'} digits "
                          f"(at most {sys.get_int_max_str_digits()} are read)", *at)
            return
        self._lines = [m.start() for m in re.finditer(r"\n", text)]
        try:
            self._walk(_BLANK.match(text, 0).end(), ())
        except RecursionError:      # (json read it; the walk gives up its places, not the data)
            pass

    def _walk(self, at: int, path: tuple) -> int:
        """Note where the value at ``at`` starts (and those inside it); the offset after it."""
        self._places[path] = at
        text = self.text
        if text[at] == "{":
            return self._members(at + 1, path)
        if text[at] == "[":
            at = _BLANK.match(text, at + 1).end()
            k = 0
            while text[at] != "]":
                at = _BLANK.match(text, self._walk(at, path + (k,))).end()
                k += 1
                if text[at] == ",":
                    at = _BLANK.match(text, at + 1).end()
            return at + 1
        m = _STRING.match(text, at) or _SCALAR.match(text, at)
        return m.end()

    def _members(self, at: int, path: tuple) -> int:
        text = self.text
        seen: set[str] = set()
        at = _BLANK.match(text, at).end()
        while text[at] != "}":
            m = _STRING.match(text, at)
            key = json.loads(m.group())
            if key in seen:
                self.twice.append((path + (key,), *self.line_column(at)))
            seen.add(key)
            at = _BLANK.match(text, m.end()).end() + 1          # (the colon)
            at = _BLANK.match(text, at).end()
            at = _BLANK.match(text, self._walk(at, path + (key,))).end()
            if text[at] == ",":
                at = _BLANK.match(text, at + 1).end()
        return at + 1

    def line_column(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``offset``."""
        from bisect import bisect_left

        line = bisect_left(self._lines, offset)
        start = self._lines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1

    def place(self, path: tuple) -> tuple[int | None, int | None]:
        """Where the value at ``path`` starts; a path that is not in the text (a missing key): where the
        nearest value around it starts."""
        while path and path not in self._places:
            path = path[:-1]
        if path not in self._places:
            return None, None
        return self.line_column(self._places[path])
