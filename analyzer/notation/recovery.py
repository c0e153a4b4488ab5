"""Syntax errors while reading a record: the ``on_error`` handler of the LALR parser, and the copy
of the text the lexer is given. Recovery is linear in the length of the text: an error costs only
the words it skips, the parser is never restarted, and no message quotes more than a window of its
line."""
from __future__ import annotations

import re
from copy import copy

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..diagnostics import Diagnostic
from ..i18n import N_, gettext
from ..rules.codes import Code

MAX_DIAGNOSTICS = 100
"""At most this many of a record's notation problems are listed; one more line says how many more
there were."""


# ---- syntax errors -----------------------------------------------------------------------------

_EXPECTED = {
    "TILE": N_("a tile like [3-6]"),
    "PASS": N_("pass"),
    "NOMOVE": N_("---- (no move)"),
    "ANNOT": N_("an annotation (! ? !! ?? !? ?! *)"),
    "END": N_("@N (the number the tile was played on)"),
    "ARM": N_(">N (the arm the tile was played on)"),
    "NAME": N_("a name"),
    "TAG_NAME": N_("a tag name like Event"),
    "HAND_START": N_("a hand like A: [0-5] [1-3] ..."),
    "QMARK": N_("? (hand not known)"),
    "POINTS": N_("the points of a muggins call, like 10"),  # (a claim and "muggins" are never
                                                            # the only choice, so not listed)
    "LSQB": N_('a tag like [Event "..."]'),
    "STRING": N_('a quoted value like "..."'),
    "_RSQB": "']'",
    "MOVENUM": N_("a move number like 1."),
    "ROWNUM": N_("a row number"),
    "KW_ROUND": N_("a table header like Runde Spieler A Spieler B ..."),
    "KW_PLAYER": N_("Spieler or Player"),
    "COMMENT": N_("a {braces} comment"),        # (the braces filled in where it is shown: "a {comment}")
    "REMARK": N_("a ; remark"),
    "$END": N_("the end of the text"),
}

_SHORTHANDS = {"TAG", "TILE_RUN"}    # one token for what others spell out (a tag, tiles on a line):
                                     # never the only thing expected, so never named

_CONTEXT_WIDTH = 100        # a caret line shows at most this many characters of its source line


def friendly_expected(names) -> str:
    wanted = [gettext(text, braces="{...}") if name == "COMMENT" else gettext(text)
              for name, text in _EXPECTED.items() if name in names]
    if not wanted:
        return ""
    if len(wanted) == 1:
        return gettext("; expected {what}", what=wanted[0])
    return gettext("; expected one of: {what}", what=", ".join(wanted))


def caret_context(source_line: str, column: int) -> str:
    """The source line and a caret under ``column``; a long line is cut to a window around it."""
    source_line = source_line.rstrip("\r")
    start = max(0, column - 1 - _CONTEXT_WIDTH // 2) if len(source_line) > _CONTEXT_WIDTH else 0
    shown = source_line[start:start + _CONTEXT_WIDTH]
    pad = "".join(c if c == "\t" else " " for c in shown[:column - 1 - start])
    return f"{'...' if start else ''}{shown}{'...' if start + _CONTEXT_WIDTH < len(source_line) else ''}" \
           f"\n{'   ' if start else ''}{pad}^"


def _word_at(text: str, pos: int) -> int:
    """The end of the unreadable word at ``pos``: to the end of the line for an unclosed { or "."""
    if text[pos] in '{"':
        end = text.find("\n", pos)
        return len(text) if end < 0 else end
    end = pos + 1
    while end < len(text) and not text[end].isspace() and text[end] not in '[]{};"':
        end += 1
    return end


def shown(value: str) -> str:
    value = value.split("\n", 1)[0]
    return value if len(value) <= 30 else value[:27] + "..."


def _trial(state, depth: int | None = None):
    """A copy of a parser state, cut to ``depth`` values, that runs no rule methods (it builds
    nothing, so it may share the values of the real one)."""
    trial = state.copy(deepcopy_values=False)
    if depth is not None:
        del trial.state_stack[depth + 1:]
        del trial.value_stack[depth:]
    conf = copy(trial.parse_conf)
    conf.callbacks = {}
    trial.parse_conf = conf
    return trial


def _accepts(state, tokens, depth: int | None = None) -> bool:
    """Whether the parser would take ``tokens`` (after dropping the values above ``depth``)."""
    trial = _trial(state, depth)
    try:
        for token in tokens:
            trial.feed_token(token, token.type == "$END")
    except UnexpectedInput:
        return False
    return True


class Recovery:
    """The ``on_error`` handler: report the error, then skip the bad word, supply a missing ']', or
    drop an unfinished construct the next token cannot follow. Each error costs work in proportion
    to the text skipped, never a new parse, so recovery is linear in the length of the text."""

    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self.left_out = 0              # syntax errors beyond MAX_DIAGNOSTICS, counted only
        self.end_error: Diagnostic | None = None
        self._line_starts: list[int] | None = None

    def _source_line(self, line: int) -> str:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        if not 0 < line <= len(self._line_starts):
            return ""
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def context_at(self, line: int, column: int) -> str:
        """The caret lines of a place of the text (its source line, a caret under ``column``)."""
        return caret_context(self._source_line(line), column)

    def syntax(self, line: int, column: int, found: str, expected, message: str | None = None) -> None:
        expected = set(expected) - _SHORTHANDS
        if len(self.diagnostics) >= MAX_DIAGNOSTICS:
            self.left_out += 1
            return
        self.diagnostics.append(Diagnostic(
            "error", Code.SYNTAX, message or gettext("unexpected {found}", found=found) + friendly_expected(expected),
            line,
            column, self.source, {"expected": sorted(expected)},
            caret_context(self._source_line(line), column)))

    def end_of_text(self, expected) -> Diagnostic:
        expected = set(expected) - _SHORTHANDS
        line = self.text.count("\n") + 1
        column = len(self.text) - self.text.rfind("\n")
        return Diagnostic("error", Code.SYNTAX, gettext("unexpected end of text") + friendly_expected(expected),
                          line, column, self.source, {"expected": sorted(expected)},
                          caret_context(self._source_line(line), column))

    def __call__(self, error: UnexpectedInput) -> bool:
        if isinstance(error, UnexpectedCharacters):
            pos = error.pos_in_stream
            end = _word_at(self.text, pos)
            self.syntax(error.line, error.column, repr(shown(self.text[pos:end])), error.allowed or ())
            error.interactive_parser.lexer_thread.state.line_ctr.feed(self.text[pos:end])
            return True
        if not isinstance(error, UnexpectedToken):
            return False
        token = error.token
        state = error.interactive_parser.parser_state
        closer = Token("_RSQB", "]")
        if token.type == "$END":
            if self.end_error is None:
                self.end_error = self.end_of_text(error.expected)
            if "_RSQB" in error.expected and _accepts(state, [closer, token]):
                error.interactive_parser.feed_token(closer)
                return True
            return self._drop_unfinished(state, token, tokens_only=False)
        if "_RSQB" in error.expected and _accepts(state, [closer, token]):
            self.syntax(token.line, token.column, repr(shown(str(token))), error.expected)
            error.interactive_parser.feed_token(closer)
            error.interactive_parser.feed_token(token)
            return True
        if token.type in _OPENERS and self._drop_unfinished(state, token, tokens_only=True):
            error.interactive_parser.feed_token(token)
            return True
        self.syntax(token.line, token.column, repr(shown(str(token))), error.expected)
        return True

    def _drop_unfinished(self, state, token: Token, tokens_only: bool) -> bool:
        """Drop the shortest unfinished construct at the top of the parser's stack after which
        ``token`` can follow (at the end of the text: the construct the text stops inside).
        ``tokens_only``: drop only words not yet read as a part (a stray line before a tag)."""
        values = state.value_stack
        for depth in range(len(values) - 1, -1, -1):
            if tokens_only and not isinstance(values[depth], Token):
                return False
            if _accepts(state, [token], depth):
                if tokens_only:
                    dropped = values[depth:]
                    first = dropped[0]
                    words = " ".join(str(v) for v in dropped)
                    self.syntax(first.line, first.column, repr(shown(words)), (), message=gettext(
                        "{words} is no move, tag or hand and is left out; write a title or note as a {braces} "
                        "comment, like {example}", words=repr(shown(words)), braces="{...}",
                        example="{" + shown(words) + "}"))
                del state.state_stack[depth + 1:]
                del state.value_stack[depth:]
                return True
        return False


_OPENERS = {"LSQB", "TAG", "HAND_START", "KW_ROUND"}     # tokens that open a game's header or a table


# ---- the text the lexer reads -------------------------------------------------------------------

# a long line up to its last bracket or brace (on a short line the lexer's extra work is bounded)
_BRACKETED_LINE = re.compile(r"(?m)^(?=[^\n]{%d})[^\n]*[\[\]{]" % 200)
_BLANKS = str.maketrans(" \t\xa0", "\x0b\x0b\x0b")


def marked(text: str) -> str:
    """The text for the lexer, the same length as ``text`` (so positions hold):

    * each ``{`` after the last ``}`` (a comment that is never closed) made a ``}``, which no
      terminal takes, so the lexer fails on it at once instead of scanning to the end of the text
      for a ``}`` at every such brace; no new ``}`` can close a comment, as no ``{`` is left after it;
    * on a line of 200 characters or more, every blank before its last bracket or brace made a
      ``\x0b``, which the grammar takes for a blank everywhere but in free text after a row's cells
      (see ``TEXT_REMARK``).

    The transformer reads free text, comments and tag values from the original text."""
    last = text.rfind("}")
    if text.find("{", last + 1) >= 0:
        text = text[:last + 1] + text[last + 1:].replace("{", "}")
    return _BRACKETED_LINE.sub(lambda m: m.group().translate(_BLANKS), text)
