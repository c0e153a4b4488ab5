"""The docs agree with the tool: every option of every command is documented, every command line the
docs write names options that command has, and the README's library example prints what it says."""
import contextlib
import io
import re
import shlex

from analyzer.cli import main
from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TEXT = {path.name: path.read_text(encoding="utf-8") for path in DOCS}


def _options(command) -> dict[str, list[str]]:
    """Each option of ``command`` (but --help): its names, long and short."""
    return {p.name: p.opts + p.secondary_opts for p in command.params
            if getattr(p, "opts", None) and "--help" not in p.opts}


def _command_lines() -> list[tuple[str, str]]:
    """``(doc, line)`` for every command line the docs write: an inline ``domino CMD ...`` and a line
    of a shell block running ``domino``."""
    out = []
    for name, text in TEXT.items():
        out += [(name, span) for span in re.findall(r"`(domino [a-z]+[^`]*)`", text)]
        for block in re.findall(r"```sh\n(.*?)```", text, re.S):
            for line in block.splitlines():
                line = line.split("#", 1)[0]
                if "domino " in line:
                    out.append((name, "domino " + line.split("domino ", 1)[1]))
    return out


def test_every_option_of_every_command_is_in_the_docs():
    docs = "\n".join(TEXT.values())
    missing = [f"{name} {'/'.join(names)}" for name, command in main.commands.items()
               for names in _options(command).values()
               if not any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", docs) for o in names)]
    assert not missing, f"options no doc mentions: {missing}"


def test_every_command_line_in_the_docs_names_options_its_command_has():
    lines = _command_lines()
    assert any(line.startswith("domino stats") for _, line in lines)      # the search finds them
    wrong = []
    for doc, line in lines:
        words = shlex.split(line.replace("...", ""))
        command = main.commands.get(words[1])
        if command is None:
            wrong.append(f"{doc}: {line}: no command {words[1]}")
            continue
        known = {o for names in _options(command).values() for o in names} | {"-h", "--help"}
        wrong += [f"{doc}: {line}: {w}" for w in words[2:] if w.startswith("-") and w != "-"
                  and w.split("=")[0] not in known]
    assert not wrong, wrong


def test_the_library_report_and_fair_example_prints_what_its_comment_says(monkeypatch):
    """docs/library.md's second example: a page rendered to a string, and the fair analysis of C's
    moves in the book deal (its claim, and docs/fair.md: C's [3-6] loses 20.1 on average over all 375
    deals C could not tell apart, a real blunder)."""
    first, second = re.findall(r"```python\n(.*?)```", TEXT["library.md"], re.S)[:2]
    said = re.search(r"print\(.*#\s*(.+)$", second, re.M).group(1).strip()
    assert said == "[3-6]@6 20.1 375 real"
    monkeypatch.chdir(ROOT)
    imports = "\n".join(line for line in first.splitlines() if line.startswith("from "))
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(imports + "\n" + second, "library.md", "exec"), namespace)
    assert out.getvalue().strip() == said
    assert namespace["html"].startswith("<!DOCTYPE html>") and "INTERNATIONAL DOMINOES" in namespace["html"]



def test_the_stats_columns_are_the_ones_docs_archives_md_lists():
    """docs/archives.md's table of the per-player columns names exactly the members of ``stats --json``."""
    import json

    from click.testing import CliRunner

    section = TEXT["archives.md"].split("## Per-player summary", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.M)
    result = CliRunner().invoke(main, ["stats", "--json", str(ROOT / "records" / "seed2.dom")])
    (row, *_) = json.loads(result.stdout)
    assert ["player", *listed] == list(row)


LINKED = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _anchors(path) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    heads = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_every_link_of_the_readme_and_docs_leads_somewhere():
    """Each relative link (a page, a picture, a record) names a file that exists, and an anchor into a
    page names one of its headings."""
    broken = []
    for page in LINKED:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            where = (page.parent / file).resolve() if file else page
            if not where.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken
    assert any("docs/guides/" in t for t in re.findall(r"\]\(([^)]+)\)", TEXT["README.md"]))
