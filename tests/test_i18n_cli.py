"""The command line's last English words in the catalogue (issue 83): a sheet's moves that fit no deal, the system's
reason a file cannot be read, the tool's own failures, a retired option's note, ``analyze --fair``'s fair lines,
``replay --view``'s matrix, ``equity``'s model and making of a table, ``variants -v``'s options and a few usage errors.
The pseudo-language (``--lang qps``: every translated message marked ``⟦...⟧``) shows that no English word is left
outside a mark; a few lines in Russian and Spanish show the words themselves."""
import errno
import os
import re

import pytest
from click.testing import CliRunner

from analyzer import i18n
from analyzer.cli import main
from conftest import ROOT
from test_i18n import _outside_record, covered, unmarked_words


def _qps(*args):
    return CliRunner().invoke(main, ["--lang", "qps", *args], prog_name="domino")


# ---- the system's reason a file cannot be read ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ENOENT", "EACCES", "EPERM", "EISDIR", "ENOTDIR", "ENAMETOOLONG", "ELOOP", "EROFS",
                                  "ENOSPC", "EDQUOT", "EIO", "EMFILE", "ENFILE", "EEXIST", "EBUSY", "EFBIG"])
def test_the_systems_reason_is_the_systems_words_in_english_and_the_catalogues_in_another_language(name):
    code = getattr(errno, name)
    error = OSError(code, os.strerror(code), "x.dom")
    assert i18n.system_reason(error) == os.strerror(code)
    for lang in i18n.LANGUAGES:
        with i18n.use(lang):
            words = i18n.system_reason(error)
        assert words and words != os.strerror(code), (lang, name)
    with i18n.use("qps"):
        assert i18n.system_reason(error) == f"⟦{os.strerror(code)}⟧"


def test_the_systems_reason_is_found_by_the_exceptions_class_too_and_a_reason_unknown_is_the_systems():
    with i18n.use("es"):
        assert i18n.system_reason(FileNotFoundError("gone")) == "no existe el archivo o carpeta"
        assert i18n.system_reason(PermissionError("no")) == "permiso denegado"
        assert i18n.system_reason(OSError(errno.EXDEV, "Invalid cross-device link")) == "Invalid cross-device link"


def test_a_missing_record_file_is_said_in_the_catalogue(tmp_path):
    """A file named that is gone when it is read (a dangling link: it exists as a name, not as a file)."""
    link = tmp_path / "gone.dom"
    link.symlink_to(tmp_path / "nowhere" / "gone.dom")
    result = _qps("validate", str(link))
    assert result.exit_code == 1 and "⟦No such file or directory⟧" in result.output, result.output
    assert unmarked_words(covered(result.output.replace(str(link), "x"))) == [], result.output
    ru = CliRunner().invoke(main, ["--lang", "ru", "validate", str(link)], prog_name="domino").output
    assert "файл не читается: нет такого файла или папки" in ru
    english = CliRunner().invoke(main, ["validate", str(link)], prog_name="domino").output
    assert "cannot read the file: No such file or directory" in english


def test_a_command_that_meets_the_systems_refusal_says_it_in_the_language(tmp_path):
    """``import``'s file and the error a command ends on (``cli.errors``): the path kept, the reason translated."""
    from analyzer.cli.errors import _said

    with i18n.use("pt_BR"):
        said = _said(PermissionError(errno.EACCES, "Permission denied", "/srv/x.dom")).format_message()
        assert said == "/srv/x.dom: permissão negada"
        said = _said(IsADirectoryError(errno.EISDIR, "Is a directory", "records")).format_message()
        assert said == "records: é uma pasta"
    with i18n.use("qps"):
        said = _said(KeyError("boom")).format_message()
    assert said.startswith("⟦internal error (KeyError: ") and unmarked_words(said.replace("'boom'", " ")) == []


# ---- the tool's own failures ------------------------------------------------------------------------------------

def test_the_tools_own_failures_are_in_the_catalogue():
    """``internal-error`` (the analyser failed, a worker died, a task failed on a Dask worker), ``cluster-lost``
    and the reader's ``internal``: their sentences marked, what the exception says kept."""
    from analyzer.archive.cluster import _why_lost, cluster_lost, task_failed
    from analyzer.pipeline import internal_error, worker_died

    with i18n.use("qps"):
        messages = [internal_error("x.dom", ValueError("boom"))["error"]["message"],
                    worker_died("x.dom")["error"]["message"],
                    task_failed("x.dom", ValueError("boom"))["error"]["message"],
                    cluster_lost("x.dom", _why_lost("tcp://host:8786", RuntimeError("gone")))["error"]["message"]]
    for message in messages:
        assert message.startswith("⟦"), message
        assert unmarked_words(message.replace("ValueError: boom", " ").replace("RuntimeError: gone", " ")) == [], \
            message
    with i18n.use("ru"):
        assert "анализатор сбился на этой записи (ValueError: boom)" in internal_error(
            "x.dom", ValueError("boom"))["error"]["message"]


# ---- a sheet's moves that fit no deal ------------------------------------------------------------------------

def test_a_sheet_no_deal_fits_is_said_in_the_catalogue():
    """``no-deal`` at the move after which no deal is left (tests/test_sheets.py's altered sheets: their moves
    replay without an error, but no deal fits them), its sentence and the move it names marked."""
    from analyzer.match import replay_record
    from analyzer.record import Record
    from test_sheets import contradicted_sheets

    found = [(variant, sheet) for variant, sheet, _rep, problem in contradicted_sheets() if problem.step is not None]
    assert found
    for variant, sheet in found[:3]:
        with i18n.use("qps"):
            errors = [d for d in replay_record(Record([sheet]), variant)[0].errors]
        assert [d.code for d in errors] == ["no-deal"], errors
        assert errors[0].message.startswith("⟦") and unmarked_words(errors[0].message) == [], errors[0].message
    with i18n.use("ru"):
        message = replay_record(Record([found[0][1]]), found[0][0])[0].errors[0].message
    assert "ход " in message and "раздача" in message, message


def test_a_result_no_deal_gives_is_said_in_the_catalogue(tmp_path):
    """``result-mismatch`` where a sheet's moves allow deals but none gives the written result
    (records/sheet-partnership.dom with B/D's win written): the deals' results in the words of the language."""
    text = (ROOT / "records" / "sheet-partnership.dom").read_text(encoding="utf-8")
    result_path = tmp_path / "result.dom"
    result_path.write_text(text.replace('[Result "A/C 12 domino"]', '[Result "B/D 30 domino"]'), encoding="utf-8")
    result = _qps("validate", str(result_path))
    assert "error[result-mismatch] ⟦the record states" in result.output, result.output
    text = re.sub(r'"[^"]*"', " ", result.output.replace(str(result_path), "x"))
    assert unmarked_words(covered(text)) == [], result.output
    es = CliRunner().invoke(main, ["--lang", "es", "validate", str(result_path)], prog_name="domino").output
    assert ('el registro declara "B/D 30 domino" pero ningún reparto que admite la planilla lo da: los 6 repartos '
            "que admiten sus jugadas terminan con A dominando (dominó), ganando A/C 11 a 15") in es, es


# ---- a retired option's note, the commands' own usage errors -------------------------------------------------------

def test_a_retired_options_note_is_in_the_catalogue():
    """``--worlds`` (now ``--decision-deals``): the one line its old name prints, in the language chosen."""
    result = _qps("analyze", "--worlds", "3", "records/seed2.dom")      # (then a usage error: no --fair)
    assert "⟦note: --worlds is deprecated: write --decision-deals" in result.output, result.output
    assert unmarked_words(result.output) == [], result.output
    es = CliRunner().invoke(main, ["--lang", "es", "analyze", "--worlds", "3", "records/seed2.dom"],
                            prog_name="domino").output
    assert "nota: --worlds está obsoleta: escriba --decision-deals (el mismo significado)" in es, es


@pytest.mark.parametrize("args", [["stats", "--by", "month", "--fair", "records/seed2.dom"],
                                  ["stats", "--counts", "records/seed2.dom"],
                                  ["stats", "--skip", "2", "records/seed2.dom"],
                                  ["train", "--player", "A", "--json", "out.json", "records/seed2.dom"],
                                  ["equity", "--score", "60"],
                                  ["equity", "--score", "60,-5"],
                                  ["equity", "--score", "100,35"],
                                  ["equity", "--score", "1,2,3"],
                                  ["analyze", "--fair", "--max-decision-deals", "3", "records/seed2.dom"],
                                  ["analyze", "--values-seconds", "-3", "records/seed2.dom"],
                                  ["analyze", "--values-seconds", "1.5", "records/seed2.dom"],
                                  ["validate", "--rule", "=x", "records/seed2.dom"],
                                  ["site"], ["serve", "--token", "short"]])
def test_the_commands_own_usage_errors_are_in_the_catalogue(args):
    result = _qps(*args)
    assert result.exit_code == 2 and "⟦Error: ⟦" in result.output, result.output
    text = re.sub(r"'[^'\n]*'|--[\w-]+|\b\d[\d,.-]*\b", " ", result.output)
    assert unmarked_words(text) == [], result.output


# ---- analyze --fair, replay --view, equity, variants -v -------------------------------------------------------------

def test_analyze_fairs_text_on_a_sheet_is_all_in_the_catalogue():
    """records/sheet-partnership.dom (every hand unknown) with --fair: the deals and the result, the key to its
    numbers, the fair note, each decision's hindsight and fair lines (by what the mover knew over the hands he may
    have held; a fair best over sampled deals with its gap), the alternatives' fair columns and spread, the reasons
    and the critical moves."""
    result = _qps("analyze", "--fair", "--decision-deals", "4", "records/sheet-partnership.dom")
    assert result.exit_code == 0, result.output
    for words in ("⟦Deals: ", "⟦Reading: ", "⟦by what D knew", "⟦fair (C's view, ", "⟦spread ", "⟦fair  "):
        assert words in result.output, (words, result.output)
    text = re.sub(r" \[[a-z-]+\]$", "", result.output, flags=re.M)        # (a reason's code)
    assert unmarked_words(covered(text)) == [], text
    ru = CliRunner().invoke(main, ["--lang", "ru", "analyze", "--fair", "--decision-deals", "4",
                                  "records/sheet-partnership.dom"],
                            prog_name="domino").output
    assert "по тому, что знал D (честный анализ по" in ru and "реальная ошибка в 2 из 2 оценённых рук" in ru, ru
    assert "Допущение: значения по раздачам, которые допускает запись счёта" in ru, ru
    assert re.search(r"при всех открытых руках \(задним числом\) теряет \d+,\d\d в среднем", ru), ru   # (Babel's decimals)


def test_replay_views_matrix_of_who_may_hold_what_is_in_the_catalogue():
    """``replay --view``: the deals the viewer cannot tell apart, the holders (the boneyard in the language), the
    tiles and each hand's void numbers."""
    result = _qps("replay", "--view", "A", "records/draw-one-view.dom")
    assert result.exit_code == 0 and "⟦deals: " in result.output and "⟦boneyard⟧" in result.output, result.output
    assert unmarked_words(_outside_record(result.output)) == [], result.output
    es = CliRunner().invoke(main, ["--lang", "es", "replay", "--view", "A", "records/draw-one-view.dom"],
                            prog_name="domino").output
    assert re.search(r"repartos: 48\.695\.302\.656\.000\n +B +pozo +fichas\n", es), es


def test_equitys_model_is_in_the_catalogue():
    """The model's policy sentence (a table keeps it in English: said in the language when shown)."""
    result = _qps("equity")
    assert result.exit_code == 0 and "⟦model: ⟦each player plays by what he knows" in result.output, result.output
    assert unmarked_words(result.output) == [], result.output
    pt = CliRunner().invoke(main, ["--lang", "pt_BR", "equity"], prog_name="domino").output
    assert "modelo: cada jogador joga pelo que sabe" in pt and "em 16 distribuições" in pt, pt


def test_equitys_policies_are_each_in_the_catalogue():
    """Every policy a table states, said in the language; one this version does not state, as it is written."""
    from analyzer.analysis.fairplay import FAIR_POLICY, FairPlayer
    from analyzer.cli.equity import policy_words
    from analyzer.equity import boneyard, model

    with i18n.use("qps"):
        for policy in (model.POLICY, model.POLICY_EACH, boneyard.POLICY, boneyard.POLICY_EACH):
            assert policy_words(policy) == f"⟦{policy}⟧"
        assert policy_words(FairPlayer(worlds=1200).policy) == "⟦" + FAIR_POLICY.format(n="1,200") + "⟧"
        assert policy_words("an older table's own words") == "an older table's own words"


def test_variants_verbose_is_in_the_catalogue():
    """``variants -v``: each rule option's help and each family's description in the language; the option's key,
    its values and the presets' settings as a user types them."""
    result = _qps("variants", "-v")
    assert result.exit_code == 0, result.output
    assert result.output.count("\n      ⟦") >= 80, result.output                 # (every option's help)
    text = re.sub(r"^  (?!--rule)[^⟦\n]*$|--rule \S+", " ", result.output, flags=re.M)
    assert unmarked_words(text) == [], text
    ru = CliRunner().invoke(main, ["--lang", "ru", "variants", "-v"], prog_name="domino").output
    assert "именованная система: задаёт умолчания остальных опций" in ru


def test_making_an_equity_table_says_so_in_the_language():
    """The prompt before a table is made (none is shipped for a variant's options) and its progress lines."""
    result = _qps("equity", "--rule", "target=37")
    assert result.exit_code == 2 and "⟦no table is shipped for partnership (target=37)" in result.output, \
        result.output
    assert unmarked_words(re.sub(r"--[\w-]+|\$\w+", " ", result.output)) == [], result.output
    from analyzer.equity import compute_table
    from analyzer.equity.model import HandPlayers
    from analyzer.rules import find_variant

    said = []
    with i18n.use("qps"):
        compute_table(find_variant("partnership", {"target": "20"}), 50, 0, HandPlayers(), progress=said.append)
    assert said and all(line.startswith("⟦") for line in said), said
    assert unmarked_words(" ".join(said).replace("holder:[6-6]:forced", " ")) == [], said


def test_a_clusters_refusal_before_any_work_is_in_the_catalogue(monkeypatch):
    """``--scheduler`` with a wait the environment sets wrong: the error before any work, in the language (the
    setting as the user wrote it)."""
    monkeypatch.setenv("DOMINO_WORKER_WAIT", "abc")
    result = _qps("validate", "--scheduler", "tcp://127.0.0.1:1", "records/seed2.dom")
    assert result.exit_code == 1 and "⟦Error: ⟦DOMINO_WORKER_WAIT='abc': give the seconds" in result.output, \
        result.output
    assert unmarked_words(result.output.replace("DOMINO_WORKER_WAIT='abc'", " ")) == [], result.output

