"""The catalogue of variants as plain data, for ``domino variants`` and the docs."""
from __future__ import annotations

from .variants import FAMILIES

__all__ = ["catalog", "catalog_text"]


def catalog() -> list[dict]:
    """Every variant: name, aliases, one-line description, seed file, options and named presets.

    Each option is ``{"key", "default", "kind", "values", "help"}``; ``values`` is empty for a
    free whole number. ``presets`` maps an alias or system name to the options it sets."""
    out = []
    for family in FAMILIES.values():
        out.append({
            "name": family.name,
            "aliases": list(family.aliases),
            "description": family.description,
            "seed": family.seed,
            "options": [{"key": s.key, "default": s.default, "kind": s.kind,
                         "values": ["yes", "no"] if s.kind == "bool" else list(s.values), "help": s.help}
                        for s in family.options],
            "presets": {k: dict(v) for k, v in family.presets.items() if v},
        })
    return out


def catalog_text(verbose: bool = False) -> str:
    """The catalogue as the ``domino variants`` command prints it."""
    lines = []
    for v in catalog():
        lines.append(f"{v['name']}  ({v['seed']})")
        lines.append(f"  {v['description']}")
        if v["aliases"]:
            lines.append(f"  aliases: {', '.join(v['aliases'])}")
        for o in v["options"]:
            allowed = "|".join(o["values"]) if o["values"] else "N"
            lines.append(f"  --rule {o['key']}={allowed}  (default {o['default']})"
                         + (f"\n      {o['help']}" if verbose else ""))
        if verbose and v["presets"]:
            for name, opts in v["presets"].items():
                lines.append(f"  {name}: " + ", ".join(f"{k}={x}" for k, x in opts.items()))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
