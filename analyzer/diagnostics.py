"""Diagnostics: every problem found in a record, with where it is and what would have been legal."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Diagnostic", "DominoError", "NotationError"]


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a record: ``file:line:column: severity[code] message``.

    ``details`` carries the machine-readable facts (open ends, playable tiles...)."""

    severity: str               # "error", "warning" or "info"
    code: str                   # short, stable, kebab-case: "tile-no-match"
    message: str
    line: int | None = None
    column: int | None = None
    source: str = "<record>"
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    context: str | None = field(default=None, compare=False)   # caret lines for syntax errors

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.severity}[{self.code}] {self.message}"
        if self.context:
            text += "\n" + self.context.rstrip("\n")
        if self.details.get("follows"):
            text += f"\n  note: follows from the slip at {self.details['follows']}"
        return text

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"severity": self.severity, "code": self.code, "line": self.line,
                               "column": self.column, "message": self.message}
        out.update(self.details)
        return out


class DominoError(Exception):
    """Base of the library's own errors; the CLI turns them into clean messages."""


class NotationError(DominoError):
    """Text that cannot be read as a record."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))
