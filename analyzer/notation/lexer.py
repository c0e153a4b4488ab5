"""The record lexer: lark's contextual lexer, with the ignored blanks skipped inside each match.

Lark's contextual lexer gives every parser state a scanner for the terminals that state accepts,
and reads an ignored terminal (here the blanks between words) as a token of its own, one trip
through its Python loop each. This lexer keeps the same scanners (built by lark's ``BasicLexer``,
so terminal order, priorities and the string-in-regex callbacks are lark's own) and prefixes each
scanner's pattern with the ignored terminals, so one regular-expression match reads the blanks and
the next token together. It plugs in through lark's custom-lexer interface (``Lark(lexer=...)``),
raises the errors lark's contextual lexer raises (``UnexpectedCharacters`` with the terminals the
state allows, or ``UnexpectedToken`` when the text holds a terminal the state does not take) and
keeps lark's ``LexerState`` up to date, so the parser's ``on_error`` recovery works unchanged.

It reads lark's lexer objects (the ``TextSlice`` of lark 1.3, a ``BasicLexer``'s scanner parts), so
``pyproject.toml`` holds lark to 1.3.x; ``tests/test_notation.py`` checks it against lark's own
contextual lexer on every record, mutated records and random text."""
from __future__ import annotations

import re
from copy import copy

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.lexer import BasicLexer, Lexer

__all__ = ["RecordLexer"]

_new_token = Token._future_new      # Token(...) without the check for the old argument order


class _Deferred:
    """A pattern compiled when it is first matched: the patterns lark's scanners are built of for a state, which the
    state's scanner reads and compiles once, with the blanks before them (lark's own matches them only on an
    error's path: compiled there and then; every record's first states compiled them for nothing, 10 ms a
    process)."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern, flags: int = 0):
        self.pattern, self.flags, self._compiled = pattern, flags, None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return getattr(self._compiled, name)


class _DeferredRe:
    """lark's ``re_module`` for the scanners of one state: ``re``, but that a compiled pattern is :class:`_Deferred`."""

    error = re.error
    match = staticmethod(re.match)
    compile = _Deferred


#: the tokens a state reads with every terminal's expression before its own is compiled (a long record's
#: states: each token is read quicker by the state's shorter expression)
_OWN_AFTER = 64


def _alternation(basic: BasicLexer, ignore_pattern: str):
    """The ``match`` of one regular expression that reads the ignored terminals, then one of ``basic``'s
    terminals (in lark's order: the first that matches is the token)."""
    scanner = basic.scanner
    patterns = [m.pattern for m in scanner._mres]      # lark splits a huge alternation in parts
    flags = scanner._mres[0].flags if patterns else 0
    return re.compile(f"(?:{ignore_pattern})*+(?:{'|'.join(patterns)})", flags).match


class _StateScanner:
    """One parser state's scanner: the ignored terminals, then one of the terminals it accepts.

    Its own expression is compiled only when first needed (a dozen states a record, each some 800
    characters of expression: most of what reading one small record costs after the imports). Until then
    the expression of every terminal (one a process) reads for it wherever that gives the same token: a
    match of a terminal the state accepts, all the state's terminals before it in lark's order being
    in that expression too (each tried there first, and none matched), or no match at all when every
    terminal of the state is there."""

    __slots__ = ("_match", "callback", "newline_types", "allowed", "basic", "ignore_pattern", "fast", "subset",
                 "uses")

    def __init__(self, basic: BasicLexer, ignore_pattern: str, every: "_StateScanner | None" = None):
        scanner = basic.scanner
        self.basic, self.ignore_pattern = basic, ignore_pattern
        self._match = None
        self.callback = basic.callback
        self.newline_types = basic.newline_types
        self.allowed = scanner.allowed_types - basic.ignore_types or {"<END-OF-FILE>"}
        self.fast: frozenset = frozenset()
        self.subset = False
        self.uses = _OWN_AFTER
        if every is not None:
            shared = every.basic.scanner.allowed_types
            fast = []
            for terminal in scanner.terminals:
                if terminal.name not in shared:
                    break
                fast.append(terminal.name)
            self.fast = frozenset(fast)
            self.subset = len(fast) == len(scanner.terminals)

    def compile(self) -> None:
        """Compile the state's own expression (read from now on)."""
        self._match = _alternation(self.basic, self.ignore_pattern)

    def match(self, text: str, pos: int, end: int):
        if self._match is None:
            self.compile()
        return self._match(text, pos, end)


class RecordLexer(Lexer):
    """A contextual lexer for lark's LALR parser (``__future_interface__ = 2``: lark hands it the
    lexer state and the parser state), whose scanners are built on first use of each state."""

    __future_interface__ = 2

    def __init__(self, conf):
        self.conf = conf
        self.terminals_by_name = conf.terminals_by_name
        ignored = [conf.terminals_by_name[name] for name in conf.ignore]
        self.ignore_pattern = "|".join(t.pattern.to_regexp() for t in ignored) or "(?!)"
        self.ignore = frozenset(conf.ignore)
        self._blanks = re.compile(f"(?:{self.ignore_pattern})*+").match
        self._by_accepts: dict[frozenset, _StateScanner] = {}
        self._by_state: dict[int, _StateScanner] = {}
        self._root: BasicLexer | None = None
        self._every: _StateScanner | None = None        # every terminal's (and the ignored ones')

    def _basic(self, names) -> BasicLexer:
        conf = copy(self.conf)
        conf.terminals = [self.terminals_by_name[n] for n in names if n in self.terminals_by_name]
        conf.skip_validation = True
        conf.re_module = _DeferredRe
        return BasicLexer(conf)

    def _scanner(self, state: int, parser_state) -> _StateScanner:
        accepts = frozenset(parser_state.parse_conf.states[state])
        scanner = self._by_accepts.get(accepts)
        if scanner is None:
            if self._every is None:
                self._every = _StateScanner(self._basic(self.terminals_by_name), self.ignore_pattern)
            scanner = _StateScanner(self._basic(accepts | self.ignore), self.ignore_pattern, self._every)
            self._by_accepts[accepts] = scanner
        self._by_state[state] = scanner
        return scanner

    def lex(self, lexer_state, parser_state):
        text_slice = lexer_state.text
        text, end = text_slice.text, text_slice.end
        line_ctr = lexer_state.line_ctr
        by_state = self._by_state
        while True:
            pos = line_ctr.char_pos
            if pos >= end:
                return
            state = parser_state.position
            scanner = by_state.get(state) or self._scanner(state, parser_state)
            if scanner._match is not None:
                m = scanner._match(text, pos, end)
            else:               # (the state's own expression not compiled yet: every terminal's, where it reads alike)
                m = self._every.match(text, pos, end)
                scanner.uses -= 1
                if (m.lastgroup not in scanner.fast) if m is not None else not scanner.subset:
                    m = scanner.match(text, pos, end)
                elif not scanner.uses:          # a state read often: its own, shorter expression is quicker
                    scanner.compile()
            if m is None:           # no token: the rest of the text is blanks (stepped over), else an error
                if self._blanks(text, pos, end).end() == end:
                    line_ctr.feed(text[pos:end])        # (as _fail would, without building lark's scanner)
                else:
                    self._fail(lexer_state, parser_state, scanner)
                return
            type_ = m.lastgroup
            start = m.start(type_)
            if start > pos:                         # blanks before the token: count their lines
                newlines = text.count("\n", pos, start)
                if newlines:
                    line_ctr.line += newlines
                    line_ctr.line_start_pos = text.rindex("\n", pos, start) + 1
            value = m.group(type_)
            line, column = line_ctr.line, start - line_ctr.line_start_pos + 1
            stop = m.end()
            if type_ in scanner.newline_types:
                newlines = value.count("\n")
                if newlines:
                    line_ctr.line += newlines
                    line_ctr.line_start_pos = start + value.rindex("\n") + 1
            line_ctr.char_pos = stop
            line_ctr.column = stop - line_ctr.line_start_pos + 1
            token = _new_token(type_, value, start, line, column, line_ctr.line,
                               line_ctr.column, stop)
            if type_ in scanner.callback:
                token = scanner.callback[type_](token)
            lexer_state.last_token = token
            yield token

    def _skip_blanks(self, lexer_state, scanner: _StateScanner) -> None:
        """Step over the blanks at the lexer's position (before an error is raised there)."""
        line_ctr = lexer_state.line_ctr
        while line_ctr.char_pos < lexer_state.text.end:
            res = scanner.basic.match(lexer_state.text, line_ctr.char_pos)
            if not res or res[1] not in self.ignore:
                return
            line_ctr.feed(res[0], res[1] in scanner.newline_types)

    def _fail(self, lexer_state, parser_state, scanner: _StateScanner) -> None:
        """No accepted terminal at the position: raise what lark's contextual lexer raises."""
        self._skip_blanks(lexer_state, scanner)
        line_ctr = lexer_state.line_ctr
        if line_ctr.char_pos >= lexer_state.text.end:
            return
        if self._root is None:
            self._root = self._basic(self.terminals_by_name)
        last_token = lexer_state.last_token
        try:                    # a terminal of the grammar, only not here: a nicer error
            token = self._root.next_token(lexer_state, parser_state)
        except (UnexpectedCharacters, EOFError):
            token = None
        # raised outside the handler and never held in a local, so that no reference cycle keeps
        # the error, its frames and the parser state alive after the parse
        if token is None:
            raise UnexpectedCharacters(lexer_state.text.text, line_ctr.char_pos, line_ctr.line,
                                       line_ctr.column, allowed=scanner.allowed,
                                       token_history=last_token and [last_token], state=parser_state,
                                       terminals_by_name=self.terminals_by_name)
        raise UnexpectedToken(token, scanner.allowed, state=parser_state, token_history=[last_token],
                              terminals_by_name=self.terminals_by_name)
