"""Babel's extraction of the command line's modules (``babel.cfg``): the messages marked ``N_``/``gettext``/
``ngettext`` as Babel's Python extractor finds them, and the help of every click command, its docstring (the
catalogue's key: the docstring cleaned of its indent, as ``analyzer.cli.language`` looks it up). Run by
``python3 -m babel.messages.frontend extract`` (docs/i18n.md), never by the tool itself."""
from __future__ import annotations

import ast

from babel.messages.extract import extract_python

__all__ = ["extract_commands"]


def _command(function: ast.AST) -> bool:
    """Whether ``function`` is decorated as a click command or group (``@click.command(...)``)."""
    for decorator in getattr(function, "decorator_list", ()):
        call = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(call, ast.Attribute) and call.attr in ("command", "group"):
            return True
    return False


def extract_commands(fileobj, keywords, comment_tags, options):
    """The messages of one module of the command line: Babel's Python extractor's, and each command's
    docstring (marked as ``N_`` would mark it)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    fileobj.seek(0)
    tree = ast.parse(fileobj.read().decode(options.get("encoding", "utf-8")))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _command(node):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.body[0].lineno, "N_", doc, []
