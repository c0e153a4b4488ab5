"""The command line: exit codes, JSON shapes, and clean messages instead of tracebacks."""
import json

import pytest
from click.testing import CliRunner

from analyzer import __version__
from analyzer.cli import main
from conftest import RECORDS

SEED1 = str(RECORDS / "seed1-table.txt")
SEED2 = str(RECORDS / "seed2-table.txt")


def run(*args, input=None):
    result = CliRunner().invoke(main, list(args), input=input)
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_version_and_help():
    assert __version__ in run("--version").output
    out = run("--help").output
    for command in ("validate", "replay", "analyze", "report", "variants"):
        assert command in out


def test_the_version_is_the_one_pyproject_gives():
    """``domino --version`` reads a constant (no package metadata at start-up): it is the project's."""
    import tomllib
    from pathlib import Path

    with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as fh:
        assert __version__ == tomllib.load(fh)["project"]["version"]


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["validate", "--help"]])
def test_version_and_help_load_neither_the_reader_nor_the_searches_nor_the_archive(args):
    """A command's module is loaded when it runs: ``--version`` and ``--help`` start at once."""
    import subprocess
    import sys

    heavy = ["analyzer.notation.reader", "lark", "analyzer.search.tree", "analyzer.search.block", "analyzer.archive",
             "analyzer.pipeline", "analyzer.analysis", "dask", "distributed", "jinja2"]
    code = ("import sys; from analyzer.cli import main\n"
            f"try: main({args!r}, prog_name='domino')\n"
            "except SystemExit: pass\n"
            f"print([m for m in {heavy!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]", done.stdout


def test_validate_in_this_process_starts_no_process_pool():
    """``validate`` of a record without ``--jobs`` loads neither the process pool nor the searches: a
    whole process reading records spends its time on the records (issue 33, item 4)."""
    import subprocess
    import sys

    heavy = ["concurrent.futures.process", "multiprocessing", "analyzer.search.block", "analyzer.analysis", "jinja2"]
    code = ("import sys; from analyzer.cli import main\n"
            f"try: main(['validate', '--json', {str(SEED2)!r}], prog_name='domino')\n"
            "except SystemExit: pass\n"
            f"print([m for m in {heavy!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert '"valid": true' in done.stdout and done.stdout.splitlines()[-1] == "[]", done.stdout


#: what ``validate --json`` of a valid record needs of this package: the reader, the rules, the replay, the match, the
#: pipeline, the archive's runner, inputs and task (``archive.task``), the CLI, and the search's bounds
#: (``search.core``); no rendering (``report``: its words are loaded only where a text is printed)
VALIDATE_PACKAGES = {"archive", "cli", "match", "notation", "replay", "rules", "search"}
#: what it must not load: the searches, the analysis and what only it uses, the cache, cluster and per-player sums
#: of the archive, the generator, record links, pages, the server, and the modules only those use
NOT_FOR_VALIDATE = ["analyzer.search.block", "analyzer.search.tree", "analyzer.analysis", "analyzer.inference",
                    "analyzer.equity", "analyzer.hidden", "analyzer.repair", "analyzer.archive.cache",
                    "analyzer.archive.cluster", "analyzer.archive.stats", "analyzer.generate", "analyzer.outputs",
                    "analyzer.notation.link", "analyzer.render.page", "analyzer.render.model", "analyzer.server",
                    "analyzer.site", "jinja2", "fractions", "decimal", "concurrent.futures.process",
                    "multiprocessing"]


def test_validate_loads_only_what_reading_and_replaying_need():
    """``validate`` of a valid record (issue 81 item 6: a command imports only what it uses) loads no package
    outside the standard library but click, lark and this one (compared with a process that imports click and
    lark alone, so that what the interpreter's start loads is not counted), this package's subpackages that
    reading and replaying need (:data:`VALIDATE_PACKAGES`), and none of :data:`NOT_FOR_VALIDATE`."""
    import ast
    import subprocess
    import sys

    tops = ("{m.partition('.')[0] for m in sys.modules} - set(sys.stdlib_module_names) - set(sys.builtin_module_names)")
    base = subprocess.run([sys.executable, "-c", f"import sys, click, lark; print(sorted({tops}))"],
                          capture_output=True, text=True, check=True)
    code = ("import sys; from analyzer.cli import main\n"
            f"try: main(['validate', '--json', {SEED2!r}], prog_name='domino')\n"
            "except SystemExit: pass\n"
            f"print(sorted({tops}))\n"
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('analyzer.') and "
            "sys.modules[m].__spec__.submodule_search_locations}))\n"
            f"print([m for m in {NOT_FOR_VALIDATE!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    *_, outside, packages, unwanted = done.stdout.splitlines()
    assert '"valid": true' in done.stdout, done.stdout
    assert set(ast.literal_eval(outside)) - set(ast.literal_eval(base.stdout)) == {"analyzer"}, (outside, base.stdout)
    assert set(ast.literal_eval(packages)) == VALIDATE_PACKAGES, packages
    assert unwanted == "[]", unwanted


def test_validate_exit_codes():
    assert run("validate", SEED2).exit_code == 0
    assert run("validate", SEED1).exit_code == 1
    assert run("validate", SEED2, SEED1).exit_code == 1
    assert run("validate", "no/such/file.dom").exit_code == 2
    assert run("validate").exit_code == 2
    bad = run("validate", "--variant", "mars", SEED2)
    assert bad.exit_code == 2 and "partnership" in bad.output
    assert run("validate", "--variant", "partnership", "--rule", "nonsense=1", SEED2).exit_code == 2
    # an option no variant has, or a value no variant takes, is a usage error naming the option
    res = run("validate", "--rule", "nonsense=1", SEED2)
    assert res.exit_code == 2 and "--rule nonsense=1" in res.output
    res = run("validate", "--rule", "target=abc", SEED2)
    assert res.exit_code == 2 and "--rule target=abc" in res.output and "whole number" in res.output
    res = run("validate", "--rule", "target=-5", SEED2)
    assert res.exit_code == 2 and "--rule target=-5" in res.output and "whole number" in res.output
    # an option some variants have is checked against each record's own variant
    res = run("validate", "--rule", "set=9", SEED2)
    assert res.exit_code == 1 and "bad-rule" in res.output


def test_validate_json_shape():
    data = json.loads(run("validate", "--json", SEED1, SEED2).output)
    first, second = data["games"]
    assert first["valid"] is False and second["valid"] is True
    d = first["diagnostics"][0]
    assert {"severity", "code", "line", "column", "message"} <= set(d)
    assert (d["code"], d["line"], sorted(d["open_ends"]), d["playable"]) == ("tile-no-match", 22, [0, 4], [])
    assert second["result"] == {"termination": "blocked", "winner": ["A", "C"], "points": 46, "seat": "C"}


def test_validate_text_points_into_the_file():
    out = run("validate", SEED1).output
    assert f"{SEED1}:22:3: error[tile-no-match] [5-6] does not fit the open ends 0 and 4" in out


def test_replay_shows_ends_hands_and_what_a_pass_proves():
    out = run("replay", SEED2).output
    assert "B has no 4 and no 5" in out          # round 2: B passes on 4 and 5
    assert "A: [0-5] [1-3] [1-4] [2-2] [3-4] [4-4] [5-6]" in out
    assert "A/C win 46" in out
    data = json.loads(run("replay", "--json", SEED2).output)
    move = data["games"][0]["moves"][4]
    assert move["player"] == "B" and move["move"] == "pass" and move["lacks"] == [4, 5]


def test_a_broken_file_gets_a_caret_and_no_traceback(tmp_path):
    path = tmp_path / "broken.dom"
    path.write_text('[Event "x"\nA: [0-5] [1-3\n1. A [0-5] }} B ??? [9-9]\n', encoding="utf-8")
    res = run("validate", str(path))
    assert res.exit_code == 1
    assert f"{path}:" in res.output and "^" in res.output
    for command in ("replay", "analyze"):       # the same exit status for every command
        assert run(command, str(path)).exit_code == 1


def test_binary_and_empty_files_are_clean_errors(tmp_path):
    empty = tmp_path / "empty.dom"
    empty.write_text("")
    res = run("validate", str(empty))
    assert res.exit_code == 1 and "no game found" in res.output
    binary = tmp_path / "bin.dom"
    binary.write_bytes(bytes(range(256)) * 4)
    res = run("validate", str(binary))
    assert res.exit_code == 1 and f"{binary}: error[binary]" in res.output


def test_variants_lists_every_variant_with_its_rule_text():
    """By the rule texts' titles (the seeds' README), not by file names a user does not have."""
    out = run("variants").output
    for name, title in (("partnership", "Domino mit Partner"), ("whist", "Domino Whist"),
                        ("jamaican", "Jamaikanisches und karibisches Domino"),
                        ("cutthroat", "Jamaikanisches und karibisches Domino"),
                        ("chiva", "Jamaikanisches und karibisches Domino"), ("block", "Regeln für Domino"),
                        ("hungarian", "Domino")):
        assert f'{name}  (rule text: "{title}"' in out
    assert ".txt" not in out
    data = json.loads(run("variants", "--json").output)
    assert any(v["name"] == "partnership" for v in data)


def test_report_writes_a_page(tmp_path):
    out = tmp_path / "seed.html"
    res = run("report", SEED1, "-o", str(out))
    assert res.exit_code == 1 and out.read_text().startswith("<!DOCTYPE html>")   # SEED1 breaks the rules


@pytest.mark.parametrize("path", sorted(str(p) for p in RECORDS.iterdir() if p.suffix in (".dom", ".txt")))
def test_every_command_runs_cleanly_on_every_record(path):
    for command in ("validate", "replay"):
        assert run(command, path).exit_code in (0, 1)


def test_replay_shows_the_running_match_score():
    out = run("replay", str(RECORDS / "match-jamaican.dom")).output
    scores = [line for line in out.splitlines() if line.startswith("Match score after game")]
    assert len(scores) == 6
    # six love: a drawn game makes the next one worth 2, and reaching 6 ends the match
    assert "the next game is worth 2" in scores[4]
    assert scores[5].startswith("Match score after game 6: A/C 6, B/D 0") and "won by A/C" in scores[5]


# ---- input no check let through (found by fuzzing): each a clean error, never a crash ---------------------
def test_numbers_written_in_other_scripts_are_read_as_text_not_crashes():
    # "²" passes str.isdigit() but int() refuses it: it is no number for a tag or a rule
    text = (RECORDS / "seed2.dom").read_text(encoding="utf-8")
    game = run("validate", "-", input=text.replace('[Event "', '[Game "²"]\n[Event "', 1))
    assert game.exit_code == 0 and "unchecked-lead" in game.output        # as any Game tag it cannot read
    rules = run("validate", "-", input=text.replace('[Event "', '[Rules "target=²"]\n[Event "', 1))
    assert rules.exit_code == 1 and "<stdin>:1:1: error[bad-rule]" in rules.output and "'²'" in rules.output
    assert "game 1 (INTERNATIONAL DOMINOES" in rules.output and "result: blocked; A/C win 46" in rules.output   # still replayed
    score = run("validate", "-", input=text.replace('[Event "', '[Game "1"]\n[Score "A/C ², B/D 0"]\n[Event "', 1))
    assert "<stdin>:2:1: error[score-syntax] cannot read the score 'A/C ², B/D 0'" in score.output
    assert run("validate", "--rule", "target=²", SEED2).exit_code == 2


def test_a_huge_tile_in_a_tag_is_a_tag_error():
    # a tile's halves are two digits at most, as a record writes them; [3-150000] once took 1.5 GB
    text = (RECORDS / "whist-false-play.dom").read_text(encoding="utf-8")
    for tag, code in [('[Exposed "C [3-150000]"]', "bad-exposed"), ('[SeatDraw "A [5-99999999999]"]', "bad-seat-draw"),
                      ('[FalsePlay "C [999999999999999999999-3]@5=3"]', "bad-false-play")]:
        name = tag[1:tag.index(" ")]
        if f"[{name} " in text:                 # (the record's own tag of that name gives way)
            text = "\n".join(line for line in text.splitlines() if not line.startswith(f"[{name} "))
        res = run("validate", "-", input=text.replace('[Event "', f'{tag}\n[Event "', 1))
        assert f"<stdin>:1:1: error[{code}]" in res.output, tag


def test_table_sizes_out_of_range_are_usage_errors():
    for size in ("nan", "inf", "1e30", "0", str((1 << 20) + 1)):
        res = run("analyze", "--table-mb", size, "--max-nodes", "2000", SEED2)
        assert res.exit_code == 2 and "--table-mb" in res.output, size
    assert run("analyze", "--table-mb", "1", "--max-nodes", "2000", SEED2).exit_code == 0


def test_a_scheduler_address_that_is_no_address_is_a_usage_error():
    pytest.importorskip("distributed")
    res = run("validate", "--scheduler", "nonsense", SEED2)
    assert res.exit_code == 2 and "the scheduler address 'nonsense' cannot be used" in res.output


def test_an_empty_view_names_no_seat():
    res = run("replay", "--view", "", SEED2)
    assert res.exit_code == 2 and "nor 'public'" in res.output


def test_a_fair_analysis_that_fails_on_one_record_still_reports_the_others(monkeypatch, tmp_path):
    import analyzer.analysis.fair as fair

    real = fair.fair_analyze

    def failing(rep, *args, **kwargs):
        if rep.title.startswith("broken"):
            raise RuntimeError("a bug")
        return real(rep, *args, **kwargs)

    monkeypatch.setattr(fair, "fair_analyze", failing)
    text = (RECORDS / "seed2.dom").read_text(encoding="utf-8")
    broken = tmp_path / "broken.dom"
    broken.write_text(text.replace('[Event "', '[Event "broken ', 1), encoding="utf-8")
    res = run("analyze", "--fair", "--decision-deals", "5", "--seed", "1", "--max-nodes", "20000", str(broken),
              str(RECORDS / "seed2.dom"))
    assert res.exit_code == 1
    assert "error[internal-error] the analyser failed on this record (RuntimeError: a bug)" in res.output
    assert "fair (" in res.output and "2 records (1 game): 1 valid, 1 invalid" in res.output


def test_a_fair_setting_without_fair_is_a_usage_error_in_every_command():
    """``--seed`` is a setting of the fair analysis: alone it is a usage error naming it in stats as in
    analyze and report, not silently ignored."""
    for command in ("analyze", "report", "stats"):
        res = run(command, "--seed", "5", SEED2)
        assert res.exit_code == 2 and "--seed" in res.output and "--fair" in res.output, (command, res.output)


def test_stats_fair_draws_at_least_two_deals_as_analyze_worlds_does():
    """A 95% interval needs two deals at least: ``analyze --decision-deals 1`` is a usage error, and so is
    ``stats --fair 1`` (it gave "real" verdicts from a single drawn deal)."""
    for args in (("analyze", "--fair", "--decision-deals", "1"), ("stats", "--fair", "1")):
        res = run(*args, SEED2)
        assert res.exit_code == 2 and "1 is not in the range" in res.output, (args, res.output)


def test_replay_view_gives_its_inference_in_jsonl_as_in_json():
    """``replay --view SEAT`` adds ``inference`` to each game with --json; --jsonl, the same data a
    record at a time, carries it too (it was left out). Before any move C sees only his own hand: the
    other 21 tiles can lie in 21! / (7!)^3 = 399,072,960 ways among the three other hands."""
    import math
    lines = run("replay", "--view", "C", "--jsonl", SEED2).stdout.splitlines()
    (game,) = json.loads(lines[0])["games"]
    assert game["inference"]["view"] == "C"
    assert game["inference"]["steps"][0]["deals"] == math.factorial(21) // math.factorial(7) ** 3 == 399_072_960
    assert all(step["worlds"] == step["deals"] for step in game["inference"]["steps"])      # (its former name)
    (as_json,) = json.loads(run("replay", "--view", "C", "--json", SEED2).stdout)["games"]
    assert as_json["inference"] == game["inference"]


@pytest.mark.parametrize("command", ["analyze", "report", "stats"])
def test_insert_passes_works_in_every_command_that_analyses(command, tmp_path):
    """``--insert-passes`` means in analyze, report and stats what it means in validate and replay (it
    was only there): the book's second line of play written with every pass left out and without the
    tag [Passes "omitted"] breaks the turn order, and with the option it is the game as the book has it."""
    log = tmp_path / "log.dom"
    log.write_text("".join(line for line in (RECORDS / "passes-omitted.dom").read_text().splitlines(True)
                           if not line.startswith("[Passes")))
    out = ["-o", str(tmp_path / "log.html")] if command == "report" else []
    assert run(command, str(log), *out).exit_code == 1
    assert run(command, "--insert-passes", str(log), *out).exit_code == 0
    if command == "analyze":
        # the same analysis as the book's record with its passes written (records/seed2.dom)
        (inserted,) = json.loads(run("analyze", "--insert-passes", "--json", str(log)).stdout)["games"]
        (written,) = json.loads(run("analyze", "--json", str(RECORDS / "seed2.dom")).stdout)["games"]
        def plays(game):              # (not where each stands: the two files lay the moves out differently)
            return [{k: v for k, v in d.items() if k not in ("line", "column", "round")} for d in game["decisions"]]
        assert inserted["moves"] == written["moves"] and plays(inserted) == plays(written)


def test_analyze_lists_every_error_of_a_broken_record_after_its_analysis():
    """A broken record still yields every move that could be read (the analysis up to the break) and
    every error, each at its file:line:column, as validate gives them; --quiet gives the errors alone."""
    seed1 = str(RECORDS / "seed1.dom")
    errors = [line for line in run("validate", "-q", seed1).output.splitlines() if "error[" in line]
    assert len(errors) == 5 and all(line.startswith(f"{seed1}:") for line in errors)
    for fair in ((), ("--fair", "--seat", "A", "--decision-deals", "2", "--exact-below", "1")):
        out = run("analyze", *fair, seed1)
        assert out.exit_code == 1
        lines = out.output.splitlines()
        assert "Critical move:" in out.output and [line for line in lines if "error[" in line] == errors
        assert lines.index(errors[0]) > max(k for k, line in enumerate(lines) if line.startswith("Critical move:"))
    assert [line for line in run("analyze", "-q", seed1).output.splitlines() if line] == errors


def test_analyze_json_gives_each_game_its_errors():
    """--json is the same analysis as data: a broken record's games carry their validity and every
    diagnostic, as validate --json gives them, with and without --fair."""
    import json

    seed1 = str(RECORDS / "seed1.dom")
    def told(diagnostics):              # (validate also marks each error as the slip or a follow-on)
        return [(d["severity"], d["code"], d["line"], d["column"], d["message"]) for d in diagnostics]

    expected = told(json.loads(run("validate", "--json", seed1).output)["games"][0]["diagnostics"])
    assert len([d for d in expected if d[0] == "error"]) == 5
    for fair in ((), ("--fair", "--seat", "A", "--decision-deals", "2", "--exact-below", "1")):
        (game,) = json.loads(run("analyze", "--json", *fair, seed1).output)["games"]
        assert game["valid"] is False and told(game["diagnostics"]) == expected and game["decisions"]
    (game,) = json.loads(run("analyze", "--json", str(RECORDS / "seed2.dom")).output)["games"]
    assert game["valid"] is True and not [d for d in game["diagnostics"] if d["severity"] == "error"]


@pytest.mark.parametrize("args, option", [
    (("analyze", "--max-nodes", str(2 ** 63), SEED2), "--max-nodes"),       # (was every record's OverflowError)
    (("analyze", "--fair", "--seed", str(2 ** 63), SEED2), "--seed"),
    (("analyze", "--fair", "--decision-deals", "10" + "0" * 20, SEED2), "--decision-deals"),
    (("analyze", "--fair", "--max-decision-deals", "10" + "0" * 20, SEED2), "--max-decision-deals"),
    (("analyze", "--fair", "--exact-below", "10" + "0" * 20, SEED2), "--exact-below"),
    (("validate", "--jobs", "10" + "0" * 20, SEED2), "--jobs"),
    (("stats", "--fair", "5", "--seed", str(-2 ** 63 - 1), SEED2), "--seed"),
    (("train", "--player", "B", "--max", "10" + "0" * 20, SEED2), "--max"),
    (("diagram", "--move", "10" + "0" * 20, SEED2), "--move"),
    (("diagram", "--game", "10" + "0" * 20, SEED2), "--game"),
    (("equity", "--variant", "block", "--seed", str(2 ** 64)), "--seed"),
])
def test_every_numeric_option_is_bounded_with_a_usage_error(args, option):
    """Issue 72: a number past an option's bound is a usage error naming the option, before any work."""
    res = run(*args)
    assert res.exit_code == 2 and option in res.output and "is not in the range" in res.output, res.output
