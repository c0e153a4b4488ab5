"""The JSON documents pinned in ``tests/data`` (``json-archive.{analyze,validate,replay}.json``: what the command
line wrote of a generated archive and the book's broken seed1 with ``--json --jobs 1``), compared as data: every key
of the pinned document is in the new one with the same value (a key added since is allowed; a value changed is
not), and a diagnostic's words (its ``message``, ``text`` and ``hint``) are left to the tests of that message, so
rewording a diagnostic touches the message and its own test only.

Where a value changes on purpose, the documents are written again by one command, from the tree's root::

    python3 tests/pinned.py
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARCHIVE = "tests/data/json-archive"      # six generated partnership matches and the book's broken seed1
COMMANDS = ("analyze", "validate", "replay")
PINNED = {command: ROOT / "tests" / "data" / f"json-archive.{command}.json" for command in COMMANDS}
WORDS = frozenset({"message", "text", "hint"})


def arguments(command: str) -> list[str]:
    """The command line that wrote the pinned document of ``command`` (run from the tree's root)."""
    return [command, ARCHIVE, "--json", *(["--jobs", "1"] if command != "replay" else [])]


def differences(pinned, new, at: str = "$") -> list[str]:
    """Where ``new`` differs from ``pinned`` as data, each place as a JSON path with what was pinned and what came:
    a key of an object missing or its value changed, a list of another length; keys only ``new`` has are no
    difference, nor the words of a diagnostic (an object with a ``code`` and a ``severity``)."""
    if isinstance(pinned, dict) and isinstance(new, dict):
        words = WORDS if {"code", "severity"} <= pinned.keys() else frozenset()
        out = []
        for key, value in pinned.items():
            if key not in new:
                out.append(f"{at}.{key}: missing")
            elif key not in words:
                out += differences(value, new[key], f"{at}.{key}")
        return out
    if isinstance(pinned, list) and isinstance(new, list):
        if len(pinned) != len(new):
            return [f"{at}: {len(pinned)} items pinned, {len(new)} now"]
        return [d for k, (a, b) in enumerate(zip(pinned, new)) for d in differences(a, b, f"{at}[{k}]")]
    same = pinned == new and type(pinned) is type(new)
    return [] if same else [f"{at}: {pinned!r} pinned, {new!r} now"]


def main() -> int:
    import os

    from click.testing import CliRunner

    from analyzer.cli import main as domino
    os.chdir(ROOT)
    for command in COMMANDS:
        result = CliRunner().invoke(domino, arguments(command))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            print(f"{command}: {result.exception!r}", file=sys.stderr)
            return 1
        PINNED[command].write_bytes(result.stdout_bytes)
        print(f"wrote {PINNED[command].relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
