"""The catalogue of variants as plain data, for ``domino variants`` and the docs."""
from __future__ import annotations

from ..i18n import gettext
from .latin import PRESET_SOURCES, SOURCES
from .variants import FAMILIES

__all__ = ["RULE_TEXTS", "rule_text", "catalog", "catalog_text"]

#: The rule texts (the German pages the variants come from) by their titles and origins, as a reader knows
#: them, for each file of the seeds (their README says which is which).
RULE_TEXTS = {
    "000_3c92c1f714ce882e.txt": ("Domino mit Partner", "pagat.com"),
    "001_4be6f7a33fc501ce.txt": ("Domino Whist", "Scheicher"),
    "002_4689fe785f06d323.txt": ("Jamaikanisches und karibisches Domino", "pagat.com"),
    "003_00cd45980cfaffe5.txt": ("Regeln f\u00fcr Domino", "Dominospielregeln"),
    "004_7f794f5b50a6005c.txt": ("Domino", "Grundregel und Ungarisches Domino"),
}


def rule_text(seed: str) -> str:
    """The rule text ``seed`` (a file of the seeds) by its title and where it is from (``"Domino mit Partner",
    pagat.com``), or the file name where none is known."""
    if seed in SOURCES:
        return f'"{SOURCES[seed][0]}" (no rule text of the seeds)'
    if seed not in RULE_TEXTS:
        return seed
    title, origin = RULE_TEXTS[seed]
    return f'"{title}", {origin}'



def catalog() -> list[dict]:
    """Every variant: name, aliases, one-line description, seed file and the title of its rule text (``sources``:
    where the rules of a game no rule text describes come from), options and named presets (``preset_sources``: the
    sources of a preset no rule text describes, Venezuelan partnership).

    Each option is ``{"key", "default", "kind", "values", "help"}``; ``values`` is empty for a
    free whole number. ``presets`` maps an alias or system name to the options it sets."""
    out = []
    for family in FAMILIES.values():
        out.append({
            "name": family.name,
            "aliases": list(family.aliases),
            "description": family.description,
            "seed": family.seed,
            "rule_text": rule_text(family.seed),
            "sources": SOURCES[family.seed][1].split("; ") if family.seed in SOURCES else [],
            "options": [{"key": s.key, "default": s.default, "kind": s.kind,
                         "values": ["yes", "no"] if s.kind == "bool" else list(s.values), "help": s.help}
                        for s in family.options],
            "presets": {k: dict(v) for k, v in family.presets.items() if v},
            "preset_sources": {k: PRESET_SOURCES[k].split("; ") for k in family.presets if k in PRESET_SOURCES},
        })
    return out


def catalog_text(verbose: bool = False) -> str:
    """The catalogue as the ``domino variants`` command prints it."""
    lines = []
    for v in catalog():
        lines.append(gettext("{name}  (rule text: {text})", name=v['name'], text=v['rule_text']))
        if v["sources"]:
            lines.append("  " + gettext("sources: {sources}", sources='; '.join(v['sources'])))
        lines.append(f"  {gettext(v['description'])}")
        if v["aliases"]:
            lines.append("  " + gettext("aliases: {aliases}", aliases=', '.join(v['aliases'])))
        for o in v["options"]:
            allowed = "|".join(o["values"]) if o["values"] else "N"
            lines.append(f"  --rule {o['key']}={allowed}  " + gettext("(default {value})", value=o['default'])
                         + (f"\n      {gettext(o['help'])}" if verbose else ""))
        if verbose and v["presets"]:
            for name, opts in v["presets"].items():
                lines.append(f"  {name}: " + ", ".join(f"{k}={x}" for k, x in opts.items()))
        for name, where in v["preset_sources"].items():
            lines.append("  " + gettext("sources of {name}: {sources}", name=name, sources='; '.join(where)))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
