"""The catalogue (issue 83): every message the code marks has a translation in every language, plural forms and all;
the language is chosen as people expect; and a pseudo-language that marks every translated message shows which
words of the command line's output no catalogue can translate.

The pseudo-language tests run over the ``--help`` of the group and of every command (click's own words included),
the text of ``validate`` (``--repair`` too) and ``analyze`` on several bundled records, and the text output of every
other command on bundled records and test data (``replay``, ``stats`` with ``--mistakes`` and ``--by``, ``train``,
``equity``, ``tournament``, ``variants``, ``import``, ``new``, ``diagram``), broken records among them for the
diagnostics. What they leave out stays as written or is listed in docs/i18n.md as not yet translated: a record's own
text (its tags, names, comments and the notation's ``pass``, ``draws``, ``muggins``), a diagnostic's place, severity
and code, the diagnostics of :data:`ENGLISH_CODES`. They do not cover the report page (tests/test_i18n_report.py does),
the board or the site; tests/test_i18n_cli.py covers ``analyze --fair``, ``replay --view``, ``equity``'s model,
``variants -v``, the system's reasons a file cannot be read and the tool's own failures."""
import re

import pytest
from babel.messages.checkers import num_plurals
from click.testing import CliRunner

from analyzer import i18n
from analyzer.cli import COMMANDS, main
from analyzer.cli.language import chosen
from conftest import ROOT

LANGUAGES = i18n.LANGUAGES
#: the words the command line writes that are not English to translate: the program's and commands' names, the
#: variants' and options' values a user types, the formats and tools named, units
KEPT = {"domino", *COMMANDS, "partnership", "kozel", "match", "pair", "json", "csv", "svg", "graphml", "html",
        "dask", "pyodide", "npm", "anki", "genanki", "scipy", "tcp", "host", "http", "server", "python3", "token",
        "secret", "authorization", "bearer", "yard", "video", "dom", "txt", "tour", "mwc", "records", "reports",
        "index", "seed1", "seed2", "problems", "position", "kozel-video", "inaccuracy", "mistake", "blunder",
        "none", "all", "own", "pyodide's", "lang", "language", "lc_all", "lc_messages", "lang", "pt_br",
        "stdin", "name", "module", "node_modules", "position.svg", "seed2.html", "problems.html", "my.dom",
        "kozel.dom", "deck.apkg", "import-kozel-video", "tournament-8", "seed1-table", "match-milo", "table"}


def _run(*args, env=None):
    result = CliRunner().invoke(main, list(args), env=env, prog_name="domino")
    assert result.exit_code == 0, result.output
    return result.output


def unmarked_words(text: str) -> list[str]:
    """The English words of ``text`` outside the pseudo-language's marks ``⟦...⟧``: words of three letters or more
    that are not an option (``--fair``), a metavariable (``PATH``), a file or a name in :data:`KEPT`."""
    # (a command's line in the group's list: the first sentence of its help, wrapped over lines; its mark closes after
    # the whole help, not shown)
    outside = re.sub(r"^  [a-z]+ +⟦[^⟧]*?(?=\n  [a-z]|\n\n|\Z)", " ", text, flags=re.M)
    while "⟧" in outside:                  # (innermost first: a message may hold another in a placeholder)
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", outside)
        if inner == outside:
            break
        outside = inner
    words = []
    for token in outside.split():
        if token.startswith("-") or token.startswith("records/") or token.startswith("tcp:") or "|" in token:
            continue
        word = token.strip(".,;:()[]{}'\"`?!=")
        if len(re.findall(r"[a-z]", word)) < 3 or word.lower() in KEPT or word.isupper():
            continue
        words.append(word)
    return words


# ---- the catalogues -------------------------------------------------------------------------------------------

def _extracted() -> set:
    """The messages the code marks, extracted now with babel.cfg (as docs/i18n.md says to)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    keywords = {"N_": None, "_": None, "gettext": None, "ngettext": (1, 2), "ngettext_mark": (1, 2)}
    return {message for _file, _line, message, _comments, _context in
            extract_from_dir(str(ROOT), method_map, options_map, keywords=keywords)}


@pytest.fixture(scope="module")
def extracted():
    return _extracted()


def _catalogue(code):
    from babel.messages.pofile import read_po

    with open(ROOT / "analyzer" / "locale" / code / "LC_MESSAGES" / "analyzer.po", "rb") as po:
        return read_po(po, locale=code)


def _fields(text: str) -> set:
    return set(re.findall(r"\{[^{}]*\}", text))


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_catalogue_has_every_message_the_code_marks_with_all_its_plural_forms(code, extracted):
    catalogue = _catalogue(code)
    assert catalogue.num_plurals == {"es": 3, "pt_BR": 3, "ru": 3}[code]     # (CLDR: es, pt have a "many")
    have = {m.id for m in catalogue if m.id}
    assert {m if isinstance(m, str) else tuple(m) for m in extracted} <= {m if isinstance(m, str) else tuple(m)
                                                                         for m in have}
    for message in catalogue:
        if not message.id:
            continue
        assert "fuzzy" not in message.flags, message.id
        forms = message.string if message.pluralizable else (message.string,)
        assert len(forms) == (catalogue.num_plurals if message.pluralizable else 1), message.id
        assert all(forms), (code, message.id)
        # the placeholders are the message's own: all of them (a plural form: of its English forms')
        if message.pluralizable:
            assert all(_fields(form) <= _fields(message.id[0]) | _fields(message.id[1]) for form in forms), forms
        else:
            assert _fields(message.string) == _fields(message.id), (code, message.id, message.string)
            assert message.string.count("\x08") == message.id.count("\x08"), message.id   # (click's \b)
        # Babel's check of the plural forms (its other, python_format, reads "95% interval" as a %-placeholder:
        # the catalogue's placeholders are named braces, checked above)
        num_plurals(catalogue, message)


def test_the_template_a_new_language_starts_from_holds_every_message_the_code_marks(extracted):
    """docs/i18n.md: a new language is made from ``analyzer.pot`` (``babel init``): a stale template leaves out what
    the code marks since (it held 304 messages of about 1,900 before it was extracted again)."""
    from babel.messages.pofile import read_po

    with open(ROOT / "analyzer" / "locale" / "analyzer.pot", "rb") as pot:
        template = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(pot) if m.id}
    assert {m if isinstance(m, str) else tuple(m) for m in extracted} <= template


def test_the_russian_plural_forms_follow_the_number():
    with i18n.use("ru"):
        forms = [i18n.ngettext("{n} error", "{n} errors", n) for n in (1, 2, 5, 11, 21, 22, 25, 111)]
    assert forms == ["1 ошибка", "2 ошибки", "5 ошибок", "11 ошибок", "21 ошибка", "22 ошибки", "25 ошибок",
                     "111 ошибок"]


def test_numbers_are_written_as_each_language_writes_them():
    assert i18n.number(12345) == "12,345" and i18n.decimal(1.25) == "1.25"
    with i18n.use("ru"):
        assert i18n.number(12345) == "12\N{NO-BREAK SPACE}345" and i18n.decimal(1.25) == "1,25"
    with i18n.use("pt_BR"):
        assert i18n.number(12345) == "12.345" and i18n.decimal(-0.5) == "-0,50"
    with i18n.use("es"):
        assert i18n.number(12345) == "12.345" and i18n.decimal(3.14159, 1) == "3,1"
    assert i18n.language() == "en"


# ---- the choice of a language ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, env, code", [
    (["validate", "x"], {}, "en"),
    (["validate", "x"], {"LANG": "ru_RU.UTF-8"}, "ru"),
    (["validate", "x"], {"LANG": "pt_BR.UTF-8"}, "pt_BR"),
    (["validate", "x"], {"LANG": "pt_PT.UTF-8"}, "pt_BR"),          # (the one Portuguese there is)
    (["validate", "x"], {"LANG": "es_CU.UTF-8"}, "es"),
    (["validate", "x"], {"LANG": "C.UTF-8"}, "en"),
    (["validate", "x"], {"LANG": "de_DE.UTF-8"}, "en"),              # (no catalogue: English, no error)
    (["validate", "x"], {"LANGUAGE": "fr:es", "LANG": "ru_RU.UTF-8"}, "es"),     # LANGUAGE first, a list
    (["validate", "x"], {"LC_ALL": "es_VE.UTF-8", "LC_MESSAGES": "ru_RU", "LANG": "pt_BR"}, "es"),
    (["validate", "x"], {"LC_MESSAGES": "ru_RU", "LANG": "pt_BR"}, "ru"),
    (["--lang", "pt-BR", "validate", "x"], {"LANG": "ru_RU.UTF-8"}, "pt_BR"),     # --lang over the environment
    (["--lang=ru", "validate", "x"], {}, "ru"),
    (["--lang", "xx", "validate", "x"], {"LANG": "ru_RU.UTF-8"}, "en"),           # an unknown one: English
    (["validate", "--lang", "ru", "x"], {}, "en"),                  # (after the command: not the group's)
])
def test_the_language_is_chosen_from_lang_then_the_environment(args, env, code):
    assert chosen(args, env) == code


def test_the_environment_and_lang_choose_the_help_language():
    clean = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
    assert "Comprueba cada jugada" in _run("validate", "--help", env={**clean, "LANG": "es_CU.UTF-8"})
    assert "Confere cada jogada" in _run("validate", "--help", env={**clean, "LANGUAGE": "pt_BR:en"})
    assert "Проверить каждый ход" in _run("--lang", "ru", "validate", "--help", env={**clean, "LANG": "es_ES"})
    text = _run("--lang", "klingon", "validate", "--help", env=clean)              # (unknown: English, exit 0)
    assert "Check every move" in text and i18n.language() == "en"
    assert "Usage:" in _run("--help", env=clean)


# ---- the pseudo-language over the command line's outputs ------------------------------------------------------

@pytest.mark.parametrize("name", [None, *COMMANDS])
def test_every_commands_help_is_all_in_the_catalogue(name):
    text = _run("--lang", "qps", *([name] if name else []), "--help")
    assert "⟦" in text
    assert unmarked_words(text) == [], text
    assert unmarked_words(_run(*([name] if name else []), "--help"))     # (in English it finds words: it can fail)


def test_a_usage_error_is_in_the_language_chosen():
    result = CliRunner().invoke(main, ["--lang", "es", "validate", "--max-edits", "9", "records/seed2.dom"],
                                prog_name="domino")
    assert result.exit_code == 2
    assert "Valor no válido para '--max-edits'" in result.output and "Pruebe 'domino validate --help'" in \
        result.output


#: the diagnostics whose lines tests/test_i18n_report.py checks on a report page (the codes a user meets most)
COVERED_CODES = {"deal-size", "deal-missing", "deal-duplicate", "deal-foreign", "incomplete", "unchecked-lead",
                 "turn-order", "tile-not-held", "tile-already-played", "tile-no-match", "end-mismatch", "false-pass",
                 "play-after-end", "ambiguous-end", "tile-foreign", "match-end", "match-over"}
#: the diagnostics whose messages are still English (docs/i18n.md, "Not yet": ``notation``, a rule of the reader that
#: failed on its text, its exception's words); their lines are left out of the pseudo-language's check, every other
#: diagnostic's message is in the catalogue
ENGLISH_CODES = {"notation"}
DIAGNOSTIC = re.compile(r"^\s*\S+?(?::\d+(?::\d+)?)?: (error|warning|info)\[([a-z0-9-]+)\] ", re.M)


def covered(text: str) -> str:
    """``text`` without what stays English: the lines of the diagnostics of :data:`ENGLISH_CODES` (and the note
    under one), each other diagnostic without its place, severity and code (kept as they are)."""
    out, skipping = [], False
    for line in text.splitlines():
        found = DIAGNOSTIC.match(line)
        if found:
            skipping = found.group(2) in ENGLISH_CODES
            if not skipping:
                out.append(line[found.end():])
            continue
        if skipping and not line.startswith("  ") or skipping and line.startswith("   "):
            continue
        skipping = False
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("record", ["errors.dom", "house-cuban-capicua.dom", "match-kozel.dom", "house-brasilia.dom",
                                    "seed1.dom", "house-venezuelan-tranca.dom"])
def test_validates_text_is_all_in_the_catalogue(record):
    result = CliRunner().invoke(main, ["--lang", "qps", "validate", f"records/{record}"], prog_name="domino")
    assert result.exit_code in (0, 1), result.output
    assert "⟦" in result.output
    assert unmarked_words(covered(result.output)) == [], covered(result.output)


def test_validates_text_in_russian_counts_its_errors_in_the_right_form():
    result = CliRunner().invoke(main, ["--lang", "ru", "validate", "records/errors.dom"], prog_name="domino")
    assert "НЕВЕРНА (1 ошибка и ещё 3, вытекающие из неё)" in result.output          # game 2 (records/errors.dom)
    assert "A получает 6 костей; каждому игроку сдаётся 7" in result.output
    assert "1 запись (15 партий): верных: 0, неверных: 1" in result.output


@pytest.mark.parametrize("record", ["seed2.dom", "house-cuban-capicua.dom", "house-brasilia.dom"])
def test_analyzes_text_is_all_in_the_catalogue_reasons_and_assumptions_too(record):
    """The analysis text of games with every hand open, each reason's sentence (``    - ... [code]``:
    analysis.reasons; its code kept) and the variant's assumptions (``Assumption: ...``) included."""
    result = CliRunner().invoke(main, ["--lang", "qps", "analyze", f"records/{record}"], prog_name="domino")
    assert result.exit_code == 0, result.output
    assert "    - ⟦" in result.output
    text = re.sub(r" \[[a-z-]+\]$", "", result.output, flags=re.M)        # (a reason's code)
    assert unmarked_words(text) == [], text


#: a record's own text in a command's output, kept as written: a comment on a line of its own, a tag, a table row
#: shown before and after a repair, and the notation's keywords (``pass``, ``draws``, ``muggins``)
RECORD_TEXT = re.compile(r"^\s*\{[^{}\n]*\}$|\[\w+ \"[^\"]*\"\]|\b(?:pass|draws|muggins)\b", re.M)


def _outside_record(text: str) -> str:
    return RECORD_TEXT.sub(" ", text)


#: each command's text output on bundled records and test data (broken ones among them, for the diagnostics), and
#: what of it stays as written beyond the record's text: a tournament's standings rows (the players' names as the
#: file writes them) and a variant's options as the user types them (``--rule target=N``)
COMMAND_OUTPUTS = {
    "replay": (["replay", "records/seed1.dom", "records/errors.dom", "records/variant-draw.dom",
                "records/variant-cross.dom", "records/match-kozel.dom", "records/match-all-fives-4.dom"], None),
    "validate --repair": (["validate", "--repair", "records/errors.dom", "records/errors-lead-tile.dom"], None),
    "validate, broken": (["validate", "records/errors-syntax.dom", "records/errors-lead-player.dom",
                          "records/passes-omitted.dom", "records/whist-false-play.dom", "records/house-kozel-fence.dom",
                          "records/match-cuban.dom", "records/sheet-kozel.dom", "records/match-whist-five.dom",
                          "records/variant-cross-sleepers-no.dom", "records/partnership-untagged-first-lead.dom",
                          "records/match-doscientos-block.dom", "records/house-venezuelan-no-caben.dom",
                          "tests/data/first-line-no-player.dom", "tests/data/sheet-open-results.dom",
                          "tests/data/issue72/setup-tags-first.dom", "tests/data/issue72/setup-prefix-deal-trials.dom",
                          "records/whist-seat-draw.dom", "records/match-whist-progression-five.dom"],
                         None),
    "stats": (["stats", "records/seed1.dom", "records/seed2.dom"], None),
    "stats --mistakes": (["stats", "--mistakes", "3", "records/seed2.dom"], None),
    "stats --by month": (["stats", "--by", "month", "records/match-kozel.dom"], None),
    "stats --by head-to-head": (["stats", "--by", "head-to-head", "records/match-kozel.dom"], None),
    "train": (["train", "--player", "A", "--decision-deals", "4", "records/seed2.dom"], None),
    "equity": (["equity", "--score", "60,35"], None),
    "tournament": (["tournament", "records/tournament-8.tour"], r"^\s+\d+\. .*$"),
    "variants": (["variants"], r"^  (?!--rule)[^⟦\n]*$|--rule \S+"),
    "import": (["import", "kozel-video", "records/import-kozel-video.json"], None),
    "new": (["new", "--variant", "kozel"], None),
    "analyze, a draw game and arms": (["analyze", "records/variant-draw.dom", "records/variant-cross.dom"], None),
}


@pytest.mark.parametrize("name", COMMAND_OUTPUTS)
def test_every_commands_text_output_is_all_in_the_catalogue(name):
    args, kept = COMMAND_OUTPUTS[name]
    result = CliRunner().invoke(main, ["--lang", "qps", *args], prog_name="domino")
    assert result.exit_code in (0, 1), result.output
    assert "⟦" in result.output
    text = covered(result.output)
    if kept:
        text = re.sub(kept, " ", text, flags=re.M)
    text = re.sub(r" \[[a-z-]+\]$", "", _outside_record(text), flags=re.M)       # (a reason's code, kept)
    assert unmarked_words(text) == [], text
    english = CliRunner().invoke(main, args, prog_name="domino").output      # (in English it finds words: it can fail)
    assert unmarked_words(_outside_record(covered(english)))


@pytest.mark.parametrize("rule", ["target=x", "capicua=yes", "lead=nobody", "target"])
def test_a_rule_options_error_is_in_the_catalogue(rule):
    """A ``--rule`` no variant takes: an unknown option, a value every variant with that option refuses."""
    result = CliRunner().invoke(main, ["--lang", "qps", "validate", "--rule", rule, "records/seed2.dom"],
                                prog_name="domino")
    assert result.exit_code == 2 and "⟦" in result.output, result.output
    assert unmarked_words(re.sub(r"--rule \S+|'[^']*'", " ", result.output)) == [], result.output


@pytest.mark.parametrize("args", [["diagram", "records/seed2.dom", "-o", "records/seed1.dom"],
                                  ["diagram", "records/seed2.dom", "-o", "records"],
                                  ["validate", "{tmp}"]])
def test_an_output_paths_or_sources_usage_error_is_in_the_catalogue(args, tmp_path):
    """An output file refused (not the tool's own; a folder) and a folder with no records: usage errors."""
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = CliRunner().invoke(main, ["--lang", "qps", *args], prog_name="domino")
    assert result.exit_code == 2 and "⟦" in result.output, result.output
    assert unmarked_words(result.output.replace(str(tmp_path), " ")) == [], result.output


def test_a_broken_tournaments_diagnostics_are_in_the_catalogue(tmp_path):
    """records/tournament-8.tour broken as a club's file may be: a tag twice, a round twice, a line that reads as
    nothing, a table moved, the tiles drawn where the scheme does not draw, mixed pairs without mixed players."""
    text = (ROOT / "records" / "tournament-8.tour").read_text(encoding="utf-8")
    text = text.replace('[Scheme "8"]', '[Scheme "8"]\n[Scheme "8"]\n[Pairs "mixed"]\n[Partners "redraw"]')
    text = text.replace("table 2: 3-8 vs 4-7 129 67", "table 2: 3-8 vs 4-7 129 67 drew 3 [6-6], 8 [5-5], 4 [1-1], "
                        "7 [0-0]\nthe scores were added up by Emil\ntable 2: 3-7 vs 4-8 10 20")
    text = text.replace("round 3\n", "round 2\n", 1)
    path = tmp_path / "broken.tour"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--lang", "qps", "tournament", str(path)], prog_name="domino")
    assert result.exit_code == 1, result.output
    assert len(DIAGNOSTIC.findall(result.output)) >= 5, result.output
    text = covered(result.output.replace(str(path), "broken.tour"))
    assert unmarked_words(re.sub(r"^\s+\d+\. .*$", " ", text, flags=re.M)) == [], result.output


def test_a_file_that_is_no_record_is_said_so_in_the_catalogue(tmp_path):
    """A binary file, UTF-16 text and Latin-1 text: each one's error (binary, not-utf8) in the language."""
    (tmp_path / "binary.dom").write_bytes(b"[Event \"x\"]\0\0")
    (tmp_path / "utf16.dom").write_bytes("[Event \"x\"]\n".encode("utf-16"))
    (tmp_path / "latin1.dom").write_bytes("[Event \"Año\"]\n".encode("latin-1"))
    result = CliRunner().invoke(main, ["--lang", "qps", "validate", str(tmp_path)], prog_name="domino")
    assert result.exit_code == 1 and result.output.count("⟦the file is") == 3, result.output
    assert unmarked_words(covered(result.output.replace(str(tmp_path), "x"))) == [], result.output


@pytest.mark.parametrize("fmt, name, text", [
    ("csv", "broken.csv", "player,tile,side,colour\nA,3-3,,\nB,3-9,left,\n,1-2,right,\nC,2-4,up,\n"),
    ("kozel-video", "broken.json", '{"format": "kozel-game-v2", "fishVariant": "maybe", "scoreLimit": 77, '
                                   '"teams": [{"name": "x", "players": []}], "rounds": []}'),
    ("yard", "broken.txt", "90040P.L9\n1005"),
])
def test_an_importers_problems_are_in_the_catalogue(fmt, name, text, tmp_path):
    """A move list, a Kozel video log and a share code that cannot be imported: each problem in the language (the
    place in a JSON document, its keys, as the file writes them)."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["--lang", "qps", "import", fmt, str(path)], prog_name="domino")
    assert result.exit_code == 1 and len(DIAGNOSTIC.findall(result.output)) >= 2, result.output
    text = re.sub(r"^[\w.\[\]]+: (?=⟦)", "", covered(result.output.replace(str(path), "x")), flags=re.M)
    assert unmarked_words(text) == [], result.output      # (a JSON path before a problem: the file's own keys)


def test_diagrams_notes_are_in_the_catalogue(tmp_path):
    """``diagram`` writes a file and says so on standard error, with a note where the record breaks the rules."""
    result = CliRunner().invoke(main, ["--lang", "qps", "diagram", "records/seed1.dom", "--move", "26",
                                       "-o", str(tmp_path / "d.svg")], prog_name="domino")
    assert result.exit_code == 0, result.output
    assert "⟦note: the record breaks the rules at move" in result.output and "⟦wrote " in result.output
    assert unmarked_words(result.output.replace(str(tmp_path / "d.svg"), "")) == [], result.output


def test_the_commands_text_in_russian_and_spanish_counts_and_writes_decimals_the_languages_way():
    """The plural forms and the decimals of the commands' own text, as the language writes them."""
    ru = CliRunner().invoke(main, ["--lang", "ru", "replay", "records/variant-cross.dom"], prog_name="domino").output
    assert "ветвь 1: пуста (принимает 6)" in ru and "Игроки в порядке хода" in ru
    es = CliRunner().invoke(main, ["--lang", "es", "validate", "--repair", "records/errors.dom"],
                            prog_name="domino").output
    assert "1 edición (coste 1,1)" in es and "2 ediciones (coste 1,5)" in es       # (costs: docs/notation.md)
    pt = CliRunner().invoke(main, ["--lang", "pt_BR", "stats", "records/seed1.dom", "records/seed2.dom"],
                            prog_name="domino").output
    assert "perda média (abertas)" in pt and "5,25" in pt and "5.25" not in pt
    eq = CliRunner().invoke(main, ["--lang", "ru", "equity", "--score", "60,35"], prog_name="domino").output
    assert re.search(r"MWC первой стороны при 60-35: 0,\d{4}, когда она заходит", eq), eq
    assert re.search(r"\d{1,2}\N{NO-BREAK SPACE}\d{3} позици", eq), eq                # (20 001 positions: many)


# ---- sheets in their language: a pass and a draw as Spanish, Portuguese and Russian sheets write them -------------

def _words_in(record: str, words: dict[str, str]) -> str:
    """The bundled ``record`` with its pass and draw keywords written as ``words`` says (``{"pass": "пас"}``)."""
    text = (ROOT / "records" / record).read_text(encoding="utf-8")
    if "draws" in words:
        text = text.replace("draws ", words["draws"] + " ")
    return re.sub(r"(?<=[A-D] )pass\b", words["pass"], text)


def _validated(text: str, tmp_path, name="sheet.dom"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["validate", str(path)], prog_name="domino")


@pytest.mark.parametrize("words", [{"pass": "пас"}, {"pass": "Пас"}, {"pass": "pasa"}, {"pass": "paso"},
                                   {"pass": "pasó"}, {"pass": "passa"}, {"pass": "passe"}, {"pass": "passou"}])
def test_a_kozel_sheet_written_with_its_languages_pass_validates_as_in_english(words, tmp_path):
    english = _validated((ROOT / "records" / "match-kozel.dom").read_text(encoding="utf-8"), tmp_path, "en.dom")
    text = _words_in("match-kozel.dom", words)
    assert words["pass"] in text and not re.search(r" pass\b", text)
    theirs = _validated(text, tmp_path)
    assert theirs.exit_code == english.exit_code == 0, theirs.output
    assert theirs.output.replace(str(tmp_path / "sheet.dom"), "X") == english.output.replace(str(tmp_path / "en.dom"),
                                                                                              "X")


@pytest.mark.parametrize("words", [{"draws": "roba", "pass": "paso"}, {"draws": "robó", "pass": "pasa"},
                                   {"draws": "compra", "pass": "passa"}, {"draws": "comprou", "pass": "passou"},
                                   {"draws": "берёт", "pass": "пас"}, {"draws": "берет", "pass": "пас"},
                                   {"draws": "добор", "pass": "пас"}, {"draws": "взял", "pass": "пас"}])
def test_a_draw_games_draws_and_passes_read_in_each_language_and_are_written_back_as_written(words):
    from analyzer.notation import parse, write

    for record in ("variant-draw.dom", "draw-one-view.dom", "match-chiva-draw.dom"):
        english = parse((ROOT / "records" / record).read_text(encoding="utf-8"))
        text = _words_in(record, words)
        theirs = parse(text)
        assert [g.moves for g in theirs.games] == [g.moves for g in english.games]   # (the same moves)
        assert not theirs.errors
        written = write(theirs)
        drawn = sum(m.draw and m.tile is not None for g in english.games for m in g.moves)
        passed = sum(m.is_pass for g in english.games for m in g.moves)
        assert written.count(words["draws"] + " [") >= drawn > 0 or drawn == 0
        assert "draws [" not in written and (passed == 0 or words["pass"] in written)
        assert [g.moves for g in parse(written).games] == [g.moves for g in english.games]


def test_english_and_german_pass_and_draw_are_written_as_before():
    from analyzer.notation import parse, write

    text = (ROOT / "records" / "variant-draw.dom").read_text(encoding="utf-8")
    assert write(parse(text.replace("draws ", "kauft "))) == write(parse(text))
    assert "draws [" in write(parse(text))


@pytest.mark.slow                   # (a pool of worker processes)
def test_the_language_reaches_the_worker_processes():
    """The pipeline's Options carry the language: a record worked out in another process (``--jobs``) has its
    messages in the language chosen, like one worked out in this one."""
    result = CliRunner().invoke(main, ["--lang", "ru", "validate", "--jobs", "2", "records/errors.dom",
                                       "records/seed1.dom"], prog_name="domino")
    assert "A получает 6 костей; каждому игроку сдаётся 7" in result.output
    assert "2 записи" in result.output
