"""Diagnostics: every problem found in a record, with where it is and what would have been legal."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Diagnostic", "Severity", "DominoError", "NotationError"]


class Severity(StrEnum):
    """How bad a diagnostic is: an ``error`` breaks the rules (the record is invalid), a ``warning`` is suspect, an
    ``info`` says what was assumed or checked. A string enum: it prints and goes to JSON as its text."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a record: ``file:line:column: severity[code] message``.

    ``details`` carries the machine-readable facts (open ends, playable tiles...)."""

    severity: Severity          # a Severity (its text is taken too: "error", "warning" or "info")
    code: str                   # a ``rules.codes.Code``: short, stable, kebab-case ("tile-no-match")
    message: str
    line: int | None = None
    column: int | None = None
    source: str = "<record>"
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    context: str | None = field(default=None, compare=False)   # caret lines for syntax errors

    def __post_init__(self):
        if type(self.severity) is not Severity:     # (a misspelt severity is a ValueError here, not a silent miss)
            object.__setattr__(self, "severity", Severity(self.severity))

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
            from .i18n import gettext

            text += "\n  " + gettext("note: follows from the slip at {place}", place=self.details["follows"])
        return text

    @property
    def key(self) -> tuple:
        """What tells two diagnostics apart (the details aside)."""
        return (self.severity, self.code, self.message, self.line, self.column, self.source)

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
