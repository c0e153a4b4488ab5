"""One vocabulary (issue 86 item 2): every option, JSON key and word of the glossary (docs/glossary.md) is used with
the one meaning it gives there, and the command line says the same things the same way: ``--json`` a flag
everywhere, every command's exit status stated (and the same in docs/commands.md), ``domino --help`` whole, the
retired word "world" in no option's help and no JSON key but the deprecated ones, which read back; the retired
option names hidden and still read; the board's API in the same words; a move named "move N" (the JSON's index + 1)
everywhere people read it."""
from __future__ import annotations

import dataclasses
import json
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


def _inference_step() -> dict:
    """The first step of ``replay --view C --json``'s inference of the book deal."""
    from analyzer.match import replay_record
    from analyzer.notation import parse
    from analyzer.pipeline import view_inference

    (rep,) = replay_record(parse((ROOT / "records" / "seed2.dom").read_text(encoding="utf-8"), "seed2.dom"))
    return view_inference(rep, "C")["steps"][0]


def test_every_key_of_the_glossary_is_written_where_it_says():
    from analyzer.analysis import Decision, GameAnalysis
    from analyzer.analysis.dealvalues import DealsSummary
    from analyzer.analysis.fair import FairDecision, FairValue
    from analyzer.archive.mistakes import Mistake

    from analyzer.train import Problem

    written = {"decision": codec.keys(Decision), "fair_verdict": codec.keys(FairDecision),
               "fair_value": codec.keys(FairValue), "deals": codec.keys(DealsSummary),
               "analysis": codec.keys(GameAnalysis),
               "mistake": tuple(f.name for f in dataclasses.fields(Mistake)),
               "problem": tuple(f.name for f in dataclasses.fields(Problem)), "inference_step": _inference_step()}
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
        if output in ("problem", "inference_step"):       # (written by the problem, the step itself: both keys)
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
    step = _inference_step()
    assert step["deals"] == step["worlds"] == 399_072_960       # (21! / 7!^3: the deals C cannot tell apart at first)


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


# ---- the retired option names: still read for a version, hidden, noted ------------------------------------------

_RETIRED_ARGS = {"analyze": [str(ROOT / "records" / "seed2.dom"), "--fair"],
                 "report": [str(ROOT / "records" / "seed2.dom"), "--fair"],
                 "train": [str(ROOT / "records" / "seed2.dom"), "--player", "B"],
                 "stats": [str(ROOT / "records" / "seed2.dom"), "--fair"],
                 "diagram": [str(ROOT / "records" / "seed2.dom"), "-o", "x.svg"], "equity": []}
_VALUES = {"--face-up": "B"}


def _parsed(command: str, args: list[str]) -> dict:
    with _command(command).make_context(command, [*_RETIRED_ARGS[command], *args]) as ctx:
        return dict(ctx.params)


@pytest.mark.parametrize("old,command,now", [tuple(c.strip("`") for c in row) for row in
                                             [[r[0], c, r[2]] for r in _table("Retired options")
                                              for c in r[1].split(", ")]])
def test_a_retired_option_is_hidden_and_read_as_its_new_name_with_a_note(old, command, now, capsys):
    options = _options(_command(command))
    assert now in options and old not in options
    shown = _help(command)
    assert now in shown and not re.search(rf"^\s+{re.escape(old)}\b", shown, re.M)
    value = _VALUES.get(now, "60")
    assert _parsed(command, [old, value]) == _parsed(command, [now, value]) != _parsed(command, [])
    said = capsys.readouterr().err.splitlines()
    assert said == [f"note: {old} is deprecated: write {now} (the same meaning); the old name goes in the next "
                    "version"]
    result = CliRunner().invoke(main, [command, *_RETIRED_ARGS[command], old, value, now, value])
    assert result.exit_code == 2 and f"{old} is the former name of {now}" in result.output


def test_hands_is_one_option_with_one_meaning():
    """``--hands`` is the hands a player of a sheet without hands may have held, and nothing else: the diagram's
    faces and the equity's simulation have names of their own."""
    having = sorted(name for name in COMMANDS if "--hands" in _options(_command(name)))
    listed = next(row[1] for row in _table("Options") if row[0] == "`--hands`")
    assert having == sorted(listed.split(", ")) == ["analyze", "report"]


def test_the_decisions_deals_are_told_from_the_records_deals_in_every_help():
    for name in ("analyze", "report"):
        words = _unwrapped(_help(name))
        assert "--max-deals N A sheet without hands" in words and "not of one decision (--decision-deals)" in words
        assert "--decision-deals N With --fair: the deals drawn at first for one decision" in words


# ---- the board's API says the same words ------------------------------------------------------------------------

def test_the_boards_request_keys_are_the_options_and_the_retired_ones_read_the_same():
    from analyzer.server.api import RETIRED_KEYS, analysis_call, answer_call, current_keys

    text = (ROOT / "records" / "seed2.dom").read_text(encoding="utf-8")
    keys = {row[0].strip("`") for row in _table("The board's API")}
    new = {"decision_deals": 30, "max_decision_deals": 120}
    assert set(new) <= keys
    asked = analysis_call({"text": text, "fair": True, **new}, 10_000)["asked"]
    assert (asked.decision_deals, asked.max_decision_deals) == (30, 120)
    assert answer_call({"text": text, **new})["asked"] == answer_call({"text": text, "worlds": 30, "max_worlds": 120})["asked"]
    for old, route, now in _table("Retired API keys"):
        old, now = old.strip("`"), now.strip("`")
        if route != "problems":
            assert RETIRED_KEYS[old] == now
            old_asked = analysis_call({"text": text, "fair": True, "worlds": 30, "max_worlds": 120}, 10_000)["asked"]
            assert old_asked == asked
    # given both, the new key counts
    assert current_keys({"worlds": 5, "decision_deals": 30}) == {"decision_deals": 30}


def test_a_problems_answer_on_the_board_gives_deals_and_its_retired_key():
    from analyzer.server.setups import problem_set_data

    content = (ROOT / "tests" / "data" / "train-seed-B.json").read_text(encoding="utf-8")
    answers = [p["answer"] for p in problem_set_data(content, "train-seed-B.json")["problems"]]
    given = [p.get("deals", p.get("worlds")) for p in json.loads(content)["problems"] if p.get("position")]
    assert answers and [a["deals"] for a in answers] == [a["worlds"] for a in answers] == given


def test_the_boards_javascript_reads_no_retired_key_nor_phase():
    for path in (ROOT / "analyzer" / "server" / "static").glob("*.js"):
        code = path.read_text(encoding="utf-8")
        assert not re.search(r"\bworlds\b|max_worlds", code, re.I), path.name


# ---- a move has one name: move N, the JSON's index + 1 ----------------------------------------------------------

@pytest.fixture(scope="module")
def book_deal():
    """The book deal (records/seed2.dom) as ``analyze`` prints it, and its JSON."""
    path = str(ROOT / "records" / "seed2.dom")
    text = CliRunner().invoke(main, ["analyze", path]).stdout
    return text, json.loads(CliRunner().invoke(main, ["analyze", "--json", path]).stdout)["games"][0]


def test_analyzes_text_names_each_decision_by_its_move_number_the_jsons_index_plus_one(book_deal):
    text, game = book_deal
    named = re.findall(r"^  move (\d+), (\w+) \(line (\d+);", text, re.M)
    assert [(int(n), p, int(line)) for n, p, line in named] == \
        [(d["index"] + 1, d["player"], d["line"]) for d in game["decisions"]]
    critical = game["critical"]
    assert (f"Critical move: {critical['player']} {critical['played']}, move {critical['index'] + 1} "
            f"(line {critical['line']}, column {critical['column']})") in text
    assert not re.search(r"\bround\b", text)         # (the round is the JSON's, never a move's name)
    # the move as the book's table writes it: B's [2-6] in the fifth round is the game's 17th move
    assert (critical["player"], critical["round"], critical["index"] + 1) == ("B", 5, 17)


def test_the_report_page_and_stats_mistakes_name_a_move_as_the_text_does(book_deal, tmp_path):
    _, game = book_deal
    page = tmp_path / "seed2.html"
    assert CliRunner().invoke(main, ["report", str(ROOT / "records" / "seed2.dom"), "-o", str(page)]).exit_code == 0
    html = page.read_text(encoding="utf-8")
    headings = re.findall(r'<span class="num">(.*?)</span>', html)
    assert headings and all(re.fullmatch(r"Move \d+", h) for h in headings), headings[:3]
    c = game["critical"]
    assert f"<b>{c['index'] + 1}. {c['player']} " in html
    result = CliRunner().invoke(main, ["stats", "--json", "--mistakes", "3", str(ROOT / "records" / "seed2.dom")])
    mistakes = json.loads(result.stdout)["mistakes"]
    by_index = {d["index"]: d for d in game["decisions"]}
    for m in mistakes:
        assert by_index[m["move"] - 1]["played"] == m["played"]
