"""One vocabulary (issue 86 item 2): every option, JSON key and word of the glossary (docs/glossary.md) is used with
the one meaning it gives there, and the command line says the same things the same way: ``--json`` a flag
everywhere, every command's exit status stated (and the same in docs/commands.md), ``domino --help`` whole, the
retired word "world" in no option's help and no JSON key but the deprecated ones, which read back."""
from __future__ import annotations

import dataclasses
import re

import click
import pytest
from click.testing import CliRunner

from analyzer import codec
from analyzer.cli import COMMANDS, main
from analyzer.schemas import VERSION, schema
from conftest import ROOT

GLOSSARY = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")


def _table(heading: str) -> list[list[str]]:
    """The rows of the glossary's table under ``## heading`` (each cell stripped, the header and rule left out)."""
    part = GLOSSARY.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in part.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[2:]]


def _command(name: str) -> click.Command:
    return main.commands[name]


def _options(command: click.Command) -> dict[str, click.Parameter]:
    return {opt: p for p in command.params for opt in getattr(p, "opts", ()) + getattr(p, "secondary_opts", ())}


def _help(*args) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], prog_name="domino")
    assert result.exit_code == 0, result.output
    return result.output


def _unwrapped(text: str) -> str:
    return " ".join(text.split())


def _schema_properties(node, out: dict) -> dict:
    """Every property the schema names, each with the definitions that name it."""
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            out.setdefault(key, []).append(value)
        for value in node.values():
            _schema_properties(value, out)
    elif isinstance(node, list):
        for value in node:
            _schema_properties(value, out)
    return out


# ---- the glossary against the code ------------------------------------------------------------------------------

def test_the_glossary_gives_each_word_option_and_key_once():
    words = [row[0] for row in _table("Words")]
    options = [row[0] for row in _table("Options")]
    keys = [(row[0], row[1]) for row in _table("JSON keys")]
    for names in (words, options, keys):
        assert len(names) == len(set(names)) and names, names
    assert {"deal", "move N", "world"} <= set(words)


def test_every_option_of_the_glossary_is_one_of_each_command_it_names():
    for option, commands, _meaning in _table("Options"):
        name = option.strip("`")
        for command in commands.split(", "):
            assert name in _options(_command(command)), (name, command)


def test_every_key_of_the_glossary_is_written_where_it_says():
    from analyzer.analysis import Decision
    from analyzer.analysis.dealvalues import DealsSummary
    from analyzer.analysis.fair import FairDecision, FairValue
    from analyzer.archive.mistakes import Mistake

    from analyzer.train import Problem

    written = {"decision": codec.keys(Decision), "fair_verdict": codec.keys(FairDecision),
               "fair_value": codec.keys(FairValue), "deals": codec.keys(DealsSummary),
               "mistake": tuple(f.name for f in dataclasses.fields(Mistake)),
               "problem": tuple(f.name for f in dataclasses.fields(Problem))}
    defs = schema()["$defs"]
    for key, output, _meaning in _table("JSON keys"):
        name = key.strip("`")
        assert name in written[output], (name, output)
        if output in defs:          # (the analysis's JSON: the schema names it, not as deprecated)
            assert name in defs[output]["properties"] and not defs[output]["properties"][name].get("deprecated")


def test_each_retired_key_is_written_beside_its_new_name_deprecated_and_read_back():
    from analyzer.analysis.dealvalues import DealsSummary
    from analyzer.analysis.fair import FairDecision, FairValue

    types = {"fair_verdict": FairDecision, "fair_value": FairValue, "deals": DealsSummary}
    defs = schema()["$defs"]
    assert VERSION == 4
    for old, output, now in _table("Retired keys"):
        old, now = old.strip("`"), now.strip("`")
        if output == "problem":         # (a problem set: written by the problem itself, both keys)
            continue
        assert codec.retired_keys(types[output])[old] == now
        named = defs[output]["properties"][old]
        assert named["deprecated"] is True and "gone in version 5" in named["description"]
    verdict = FairDecision("B", 80, "sampled", "[0-1]", 1.5, "inaccuracy", "real", total=120)
    data = codec.to_data(verdict)
    assert (data["deals"], data["total_deals"]) == (data["worlds"], data["total_worlds"]) == (80, 120)
    # data written before the keys were renamed (schema version 3) reads back the same
    old = {k: v for k, v in data.items() if k not in ("deals", "total_deals")}
    assert codec.from_data(FairDecision, old) == verdict


def test_a_problems_retired_key_is_written_beside_its_new_name():
    from analyzer.train import Problem

    problem = Problem("x.dom", 1, "", "B", 3, 1, 5, "what do you play?", "[1-2]", "[2-3]", 4.0, "inaccuracy",
                      "real", "sampled", 80, ())
    data = problem.as_dict()
    assert data["deals"] == data["worlds"] == 80


def test_no_key_of_the_results_uses_the_retired_word_but_the_deprecated_ones():
    retired = {old for old, _output, _now in _table("Retired keys")}
    for key, definitions in _schema_properties(schema(), {}).items():
        if "world" in key:
            assert key.strip("`") in {r.strip("`") for r in retired}, key
            assert all(d.get("deprecated") for d in definitions), key


def test_no_option_help_uses_the_retired_word():
    for name in COMMANDS:
        for param in _command(name).params:
            words = re.sub(r"--[a-z-]+", " ", getattr(param, "help", None) or "")     # (an option's name aside)
            assert not re.search(r"\bworlds?\b", words, re.I), (name, param.name, param.help)


# ---- the command line says the same things the same way ---------------------------------------------------------

def test_json_is_a_flag_in_every_command():
    having = [name for name in COMMANDS if "--json" in _options(_command(name))]
    assert len(having) >= 8
    for name in having:
        assert _options(_command(name))["--json"].is_flag, name


def test_trains_old_json_file_form_is_refused_saying_what_to_write(tmp_path):
    out = tmp_path / "p.json"
    result = CliRunner().invoke(main, ["train", str(ROOT / "records" / "seed2.dom"), "--player", "B", "--json",
                                       str(out)])
    assert result.exit_code == 2 and f"write -o {out} for the file" in result.output
    assert not out.exists()
    result = CliRunner().invoke(main, ["train", str(ROOT / "records" / "seed2.dom"), "--player", "B",
                                       f"--json={out}"])
    assert result.exit_code == 2 and "-o" in result.output


@pytest.mark.parametrize("name", COMMANDS)
def test_every_commands_help_states_its_exit_status_as_the_docs_do(name):
    text = _unwrapped(_help(name))
    said = re.search(r"Exit status: (.*?\.)(?= [A-Z]|$)", text)
    assert said, name
    docs = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert f"| `{name}` | {said.group(1)} |" in docs


def test_the_groups_help_lists_each_commands_first_sentence_whole():
    text = _help()
    listed = _unwrapped(text.split("Commands:", 1)[1])
    assert "..." not in listed
    for name in COMMANDS:
        first = _command(name).get_short_help_str()
        assert first.endswith(".") and _unwrapped(first) in listed, name
