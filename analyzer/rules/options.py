"""Variant options: their declarations, the ``Rules`` tag grammar and the errors for bad ones.

A ``Rules`` tag (or ``--rule KEY=VALUE``) is a list of ``key=value`` pairs separated by commas or
semicolons: ``[Rules "lead=winners, target=200"]``. Keys and values ignore letter case, and ``_``
and spaces inside them count as ``-``. A yes/no option may be given bare (``capicu`` is
``capicu=yes``)."""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import DominoError
from ..i18n import gettext
from ..record import MAX_DIGITS

__all__ = ["VariantError", "UnknownVariant", "UnknownOption", "BadOptionValue", "OptionSpec",
           "parse_rules", "normalise", "YES", "NO"]

YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0", "none")


class VariantError(DominoError):
    """A variant or option that does not exist or does not fit; the message lists what exists."""


class UnknownVariant(VariantError, LookupError):
    """A variant name nobody knows; the message lists the ones that exist."""


class UnknownOption(VariantError, LookupError):
    """An option the variant does not have; the message lists the ones it has."""


class BadOptionValue(VariantError, ValueError):
    """A value the option does not take; the message lists the values it takes."""


def normalise(text: str) -> str:
    """``"Great Lakes"`` -> ``"great-lakes"``."""
    return "-".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


@dataclass(frozen=True)
class OptionSpec:
    """One option of a variant: its key, default and the values it takes.

    ``kind`` is ``"choice"`` (one of ``values``), ``"int"`` (a whole number, one of ``values``
    when they are given) or ``"bool"`` (yes/no). ``default`` is written as a value would be."""

    key: str
    default: str
    help: str
    kind: str = "choice"
    values: tuple[str, ...] = ()

    def parse(self, value: str, variant: str) -> str:
        """The canonical text of ``value``; BadOptionValue when the option does not take it."""
        v = normalise(value)
        if self.kind == "bool":
            v = value.strip().lower()       # (not normalised: "-1" would read as 1, yes)
            if v in YES:
                return "yes"
            if v in NO:
                return "no"
            raise BadOptionValue(gettext("option {key} of the {variant} variant is yes or no, not {value}",
                                         key=repr(self.key), variant=variant, value=repr(value)))
        if self.kind == "int":
            v = value.strip()               # (not normalised: "-5" would read as 5)
            if not (v.isascii() and v.isdecimal()) or len(v) > MAX_DIGITS:        # (ASCII digits: not "٣")
                shown = value if len(value) <= 20 else value[:20] + "..."
                words = {"key": repr(self.key), "variant": variant, "value": repr(shown),
                         "values": ', '.join(self.values)}
                raise BadOptionValue((gettext("option {key} of the {variant} variant is a whole number ({values}), not "
                                              "{value}", **words) if self.values else
                                      gettext("option {key} of the {variant} variant is a whole number, not {value}",
                                              **words))
                                     + (" " + gettext("(a number has at most {most} digits)", most=MAX_DIGITS)
                                        if v.isascii() and v.isdecimal() else ""))
            v = str(int(v))
        elif value.strip()[:1] in ("-", "+"):     # (no choice begins with a sign: "-1" is not 1, nor "-yes" yes)
            raise BadOptionValue(gettext("option {key} of the {variant} variant takes {values}, not {value}",
                                         key=repr(self.key), variant=variant, value=repr(value),
                                         values=', '.join(self.values) or gettext("a word")))
        elif "yes" in self.values and "no" in self.values:
            v = "yes" if v in YES else "no" if v in NO else v   # a choice that says yes or no among others (capicu)
        if self.values and v not in self.values:
            raise BadOptionValue(gettext("option {key} of the {variant} variant takes {values}, not {value}",
                                         key=repr(self.key), variant=variant, value=repr(value),
                                         values=', '.join(self.values)))
        return v

    def describe(self) -> str:
        if self.kind == "bool":
            allowed = "yes|no"
        elif self.values:
            allowed = "|".join(self.values)
        else:
            allowed = "N"
        return f"{self.key}={allowed} " + gettext("(default {value})", value=self.default)


def parse_rules(text: str) -> dict[str, str]:
    """Read a ``Rules`` tag: ``"lead=winners, target=200"`` -> ``{"lead": "winners", "target": "200"}``.

    Only the syntax is checked here; whether the options exist is the variant's business."""
    out: dict[str, str] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        key = normalise(key)
        if not key or (eq and not value.strip()):
            raise BadOptionValue(gettext("cannot read the rule {rule}; write rules as KEY=VALUE, separated by commas "
                                         "({example})", rule=repr(part.strip()), example='"lead=winners, target=200"'))
        out[key] = value.strip() if eq else "yes"
    return out
