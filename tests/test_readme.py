"""The README reads in two minutes: short lines of prose, one short sentence a command in its table, the
pictures it shows made by docs/shots/make_shots.py, and the set-up's first command a success."""
import re

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
PROSE = re.sub(r"```.*?```", "", README, flags=re.S)


def test_no_line_of_prose_is_over_100_characters():
    long = [line for line in PROSE.splitlines() if len(line) > 100]
    assert not long, long
    assert len(README.splitlines()) <= 150          # (was 376, its longest line 1,524 characters)


def test_the_commands_table_says_one_short_sentence_a_command():
    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(domino [^`]+)` \| (.+) \|$", section, re.M)
    from analyzer.cli import COMMANDS
    assert sorted(command.split()[1] for command, _ in rows) == sorted(COMMANDS)    # every command, once
    for command, says in rows:
        assert says.endswith(".") and says.count(". ") == 0 and len(says.split()) <= 14, (command, says)


def test_the_pictures_are_the_screenshot_scripts():
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", README)
    assert pictures == ["docs/shots/report.png", "docs/shots/board.png"]
    script = (ROOT / "docs" / "shots" / "make_shots.py").read_text(encoding="utf-8")
    for picture in pictures:
        assert (ROOT / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert picture.rsplit("/", 1)[1] in script                 # the script makes it


def test_the_first_command_analyses_a_record_that_validates():
    """A newcomer's first run ends with exit status 0 and "1 valid" (tests/test_guides.py runs it and
    checks the lines the README shows); the record it names validates without an error."""
    from click.testing import CliRunner

    from analyzer.cli import main

    first = re.search(r"```sh\n(.*?)\n", README).group(1)
    record = first.split("domino analyze ", 1)[1].strip()
    result = CliRunner().invoke(main, ["validate", str(ROOT / record)])
    assert result.exit_code == 0 and "0 invalid" in result.output
    assert "error[" not in result.output


def test_the_readme_counts_the_variants_the_tool_has():
    """The README's opening says in how many variants the tool reads records: the catalogue's count."""
    from analyzer.rules.catalog import catalog
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert int(re.search(r"in (\d+) variants", text).group(1)) == len(catalog())
