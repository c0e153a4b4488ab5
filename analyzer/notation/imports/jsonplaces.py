"""JSON read with the place of every value: ``json`` reads the data (and says where malformed text goes
wrong); a walk over the same text notes the line and column where each value starts, by its path
(``("rounds", 1, "moves", 4, "stone")``), and a key given twice in one object is reported at its place.

:class:`JsonText` reads a document whole; :class:`JsonStream` reads an object whose one list (a game log's
rounds) may be long an element at a time, the memory it takes that of one element (and the text)."""
from __future__ import annotations

import json
import re
import sys

__all__ = ["JsonText", "JsonStream", "path_text"]

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


def _walk(text: str, at: int, path: tuple, places: dict[tuple, int], twice: list[tuple[tuple, int]]) -> int:
    """Note in ``places`` where the value at ``at`` starts (and those inside it), in ``twice`` each key given twice
    in its object (its path and offset); the offset after the value."""
    places[path] = at
    if text[at] == "{":
        seen: set[str] = set()
        at = _BLANK.match(text, at + 1).end()
        while text[at] != "}":
            m = _STRING.match(text, at)
            key = json.loads(m.group())
            if key in seen:
                twice.append((path + (key,), at))
            seen.add(key)
            at = _BLANK.match(text, m.end()).end() + 1          # (the colon)
            at = _BLANK.match(text, at).end()
            at = _BLANK.match(text, _walk(text, at, path + (key,), places, twice)).end()
            if text[at] == ",":
                at = _BLANK.match(text, at + 1).end()
        return at + 1
    if text[at] == "[":
        at = _BLANK.match(text, at + 1).end()
        k = 0
        while text[at] != "]":
            at = _BLANK.match(text, _walk(text, at, path + (k,), places, twice)).end()
            k += 1
            if text[at] == ",":
                at = _BLANK.match(text, at + 1).end()
        return at + 1
    m = _STRING.match(text, at) or _SCALAR.match(text, at)
    return m.end()


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text`` (counted: for the few places outside a walk)."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _too_long(text: str, start: int) -> tuple[str, int]:
    """The error of a value at ``start`` that ``json`` refused with ValueError (an integer past Python's int-str
    limit: its scanner gives no place): what it is, and the offset of the number."""
    long = next((m for m in _LONG.finditer(text, start) if m.group(1)), None)
    return (f"a number of {len(long.group(1).lstrip('-')) if long else 'too many'} digits "
            f"(at most {sys.get_int_max_str_digits()} are read)", long.start(1) if long else 0)


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
        except ValueError:
            message, at = _too_long(text, 0)
            self.error = (message, *(_line_column(text, at) if at else (1, 1)))
            return
        self._lines = [m.start() for m in re.finditer(r"\n", text)]
        twice: list[tuple[tuple, int]] = []
        try:
            _walk(text, _BLANK.match(text, 0).end(), (), self._places, twice)
        except RecursionError:      # (json read it; the walk gives up its places, not the data)
            pass
        self.twice = [(path, *self.line_column(offset)) for path, offset in twice]

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


_DECODER = json.JSONDecoder()


class _Irregular(Exception):
    """The text leaves the JSON grammar where the stream's own reading of an object or list looks: ``json`` then
    reads the whole text to say how, in its words."""


class JsonStream:
    """A JSON text whose value is an object, one member of it (``streamed``, a list) read an element at a time.

    ``error`` (message, line, column) when the text is no JSON, found before any element is given (a first pass
    reads each element and lets it go); ``data`` the object, the streamed member an empty list when it is one
    (``items()`` gives its elements) and read whole when it is not; ``twice`` the keys given twice outside the
    list. ``items()`` gives each element (its index, its value, the line its text ends on, the keys given twice
    in it); ``place(path)`` where a value outside the list starts, or one in the element last given. A text whose
    value is no object is read whole (``data`` that value)."""

    def __init__(self, text: str, streamed: str):
        self.text, self.streamed = text, streamed
        self.data = None
        self.error: tuple[str, int, int] | None = None
        self.twice: list[tuple[tuple, int, int]] = []
        self._places: dict[tuple, int] = {}         # (the values outside the list; the list's own start)
        #: the element last given: its index, its values' places, where it starts, its newlines' offsets in it, and
        #: the line it starts on
        self._item: tuple[int, dict[tuple, int], int, list[int], int] | None = None
        self._list: int | None = None               # where the streamed list starts
        self._whole_text: JsonText | None = None    # the text read whole (not an object, or no JSON)
        try:
            self._first_pass()
        except (_Irregular, json.JSONDecodeError, RecursionError, ValueError):
            self.data, self._list = None, None
            self._places.clear()
            self.twice.clear()
            self._whole()

    def _whole(self) -> None:
        """The text read whole, as :class:`JsonText` reads it (its error, or a value that is no object)."""
        whole = JsonText(self.text)
        self.data, self.error, self.twice, self._whole_text = whole.data, whole.error, whole.twice, whole

    def _first_pass(self) -> None:
        text = self.text
        at = _BLANK.match(text, 0).end()
        if text[at:at + 1] != "{":
            raise _Irregular
        self._places[()] = at
        data: dict = {}
        at = _BLANK.match(text, at + 1).end()
        while text[at:at + 1] != "}":
            if text[at:at + 1] != '"':
                raise _Irregular
            key, end = _DECODER.raw_decode(text, at)
            if key in data:
                self.twice.append(((key,), *_line_column(text, at)))
            at = _BLANK.match(text, end).end()
            if text[at:at + 1] != ":":
                raise _Irregular
            at = _BLANK.match(text, at + 1).end()
            if key == self.streamed and text[at:at + 1] == "[":
                self._places[(key,)] = self._list = at
                data[key] = []
                for _element in self._elements(at):
                    pass
                at = self._list_end
            else:
                data[key], end = self._value(at)
                self._walked(at, (key,), self._places, None)
                at = end
            at = _BLANK.match(text, at).end()
            if text[at:at + 1] == ",":
                at = _BLANK.match(text, at + 1).end()
                if text[at:at + 1] != '"':
                    raise _Irregular
            elif text[at:at + 1] != "}":
                raise _Irregular
        if _BLANK.match(text, at + 1).end() != len(text):
            raise _Irregular
        self.data = data

    def _value(self, at: int):
        return _DECODER.raw_decode(self.text, at)

    def _elements(self, at: int):
        """Each element of the list at ``at``: its index, where it starts and where it ends; then ``_list_end``
        is the offset after the list."""
        text = self.text
        at = _BLANK.match(text, at + 1).end()
        k = 0
        while text[at:at + 1] != "]":
            _value, end = self._value(at)
            yield k, at, end
            k += 1
            at = _BLANK.match(text, end).end()
            if text[at:at + 1] == ",":
                at = _BLANK.match(text, at + 1).end()
                if text[at:at + 1] == "]":
                    raise _Irregular
            elif text[at:at + 1] != "]":
                raise _Irregular
        self._list_end = at + 1

    def items(self):
        """Each element of the streamed list: (index, value, the line its text ends on, the keys given twice in
        it as (path, line, column)); read again one at a time, each the element :meth:`place` looks in."""
        if self._whole_text is not None or self._list is None:     # (read whole, or no list: as the data holds it)
            whole = self._whole_text
            listed = self.data.get(self.streamed) if isinstance(self.data, dict) else None
            for k, value in enumerate(listed if whole is not None and isinstance(listed, list) else ()):
                yield k, value, whole.place((self.streamed, k))[0] or 1, []
            return
        text = self.text
        line, counted = 1, 0
        for k, start, end in self._elements(self._list):
            value, _end = self._value(start)
            line += text.count("\n", counted, start)
            counted = start
            lines = [m.start() for m in re.finditer(r"\n", text[start:end])]
            places: dict[tuple, int] = {}
            self._item = (k, places, start, lines, line)
            twice: list = []
            self._walked(start, (self.streamed, k), places, twice)
            yield k, value, line + len(lines), [(path, *self._item_line_column(offset)) for path, offset in twice]

    def _walked(self, at: int, path: tuple, places: dict, twice: list | None) -> None:
        """:func:`_walk` from ``at``; the keys given twice to ``twice`` (None: to :attr:`twice`, placed)."""
        found: list[tuple[tuple, int]] = []
        try:
            _walk(self.text, at, path, places, found)
        except RecursionError:      # (json read it; the walk gives up its places, not the data)
            pass
        if twice is not None:
            twice += found
        else:
            self.twice += [(p, *_line_column(self.text, offset)) for p, offset in found]

    def _item_line_column(self, offset: int) -> tuple[int, int]:
        from bisect import bisect_left

        _k, _places, start, lines, line = self._item
        n = bisect_left(lines, offset - start)
        begin = start + lines[n - 1] + 1 if n else self.text.rfind("\n", 0, start) + 1
        return line + n, offset - begin + 1

    def place(self, path: tuple) -> tuple[int | None, int | None]:
        """Where the value at ``path`` starts (a path not in the text: the nearest value around it); a path into
        an element of the list other than the last given: where the list starts."""
        if self._whole_text is not None:
            whole = self._whole_text
            return whole.place(path) if whole.error is None else (None, None)
        if self._item is not None and len(path) >= 2 and path[0] == self.streamed and path[1] == self._item[0]:
            places = self._item[1]
            while len(path) > 2 and path not in places:
                path = path[:-1]
            if path in places:
                return self._item_line_column(places[path])
        while path and path not in self._places:
            path = path[:-1]
        if path not in self._places:
            return None, None
        return _line_column(self.text, self._places[path])
