"""Setting up: the README's two commands are what CI runs, they need nothing a fresh venv of any supported
Python lacks (3.12 and later ship no setuptools in a venv, so no ``setup.py`` command), and a search in
pure Python says so, once, from the command line only."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from analyzer.search.core import arms_core, compiled_core, draw_core

ROOT = pathlib.Path(__file__).resolve().parents[1]


#: the README's first steps: a virtual environment made and activated (a stock Debian's, Ubuntu's or Homebrew's
#: Python refuses ``pip install`` outside one: externally-managed-environment)
VENV = "python3 -m venv .venv && . .venv/bin/activate"


def _readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S).group(1)
    return [line.strip() for line in block.splitlines() if line.strip()]


def test_ci_runs_the_readmes_test_command_exactly():
    install, test = _readme_commands()
    assert install.startswith(f"{VENV} && python3 -m pip install . && domino analyze records/")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # the same command, with the one variable that makes a core that could not be built fail the tests
    run = [line for line in ci.splitlines() if line.startswith("python3 ")]
    assert run == [test.replace("python3 -m pytest", "DOMINO_REQUIRE_COMPILED=1 python3 -m pytest")]
    assert "apt-get install" in ci and "chromium" in ci


def test_the_readmes_commands_need_no_setuptools_in_the_environment():
    """A venv of Python 3.12 or 3.13 has pip and no setuptools: every step goes through pip (whose build
    isolation brings setuptools), and the test command builds the cores in place (an editable install)."""
    install, test = _readme_commands()
    for command in (install, test):
        assert "setup.py" not in command and "import setuptools" not in command
        steps = [step.strip() for step in command.split("&&")]
        assert all(step.startswith(("python3 -m pip ", "python3 -m pytest", "domino ")) or step in VENV.split(" && ")
                   for step in steps), steps
    assert re.search(r"python3 -m pip install -e '\.\[test\]'", test)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'requires-python = ">=3.11"' in pyproject and 'build-backend = "setuptools.build_meta"' in pyproject


def _stderr(args: list[str], code: str = "", pure: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DOMINO_PURE_PYTHON"}
    env.update(PYTHONPATH=str(ROOT), **({"DOMINO_PURE_PYTHON": "1"} if pure else {}))
    script = code + "\nimport sys\nfrom analyzer.cli import main\nsys.argv = ['domino', *sys.argv[1:]]\nmain()"
    return subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


NOTE = "note: the search runs in pure Python"


def test_a_pure_python_search_says_so_once_on_standard_error():
    out = _stderr(["analyze", "--json", "records/seed1-table.txt"], pure=True)
    assert out.stderr.count(NOTE) == 1 and "DOMINO_PURE_PYTHON=1 asks for it" in out.stderr
    assert "230 s instead of 6 s" in out.stderr
    assert NOTE not in out.stdout and out.stdout.lstrip().startswith("{")    # the JSON document stays clean
    # validating searches nothing: no note
    out = _stderr(["validate", "records/seed1.dom"], pure=True)
    assert NOTE not in out.stderr + out.stdout


def test_missing_cores_are_named_with_the_way_to_build_them():
    # a machine without a C compiler: the compiled modules cannot be imported
    block = "import sys\nfor m in ('_core', '_arms', '_draw'):\n    sys.modules['analyzer.search.' + m] = None\n"
    out = _stderr(["stats", "records/seed1.dom"], code=block)
    assert out.stderr.count(NOTE) == 1 and "were not built" in out.stderr and "C compiler" in out.stderr
    # the library alone prints nothing
    lib = block + "from analyzer.search.core import CORE\nimport analyzer.archive, analyzer.analysis\n"
    done = subprocess.run([sys.executable, "-c", lib + "print(CORE)"], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "python" and done.stderr == ""
    # where the cores are built, a search says nothing of them
    if compiled_core() is not None and arms_core() is not None and draw_core() is not None:
        assert NOTE not in _stderr(["analyze", "records/seed1.dom"]).stderr


@pytest.mark.slow           # (a fresh venv, its packages from the index, the cores compiled: 20-60 s)
@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("git") is None, reason="needs bash and git")
def test_the_readmes_first_command_runs_in_a_fresh_clone(tmp_path):
    """The README's first command, exactly, run by bash in a copy of the clone's files (what git tracks: no
    compiled core, no venv): it makes its own venv, installs there (pip as set up on the machine: the package
    index or its mirror; the test needs them as a newcomer does) and analyses the book's record; the
    installed domino has its compiled cores. From that root ``python -m analyzer`` imports the copy's tree
    without them: its note names the installed copy and the fix (issue 70)."""
    install, _ = _readme_commands()
    clone = tmp_path / "clone"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "DOMINO_PURE_PYTHON")}
    done = subprocess.run(["bash", "-c", install], cwd=clone, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert done.stdout.rstrip().endswith("1 record (1 game): 1 valid, 0 invalid")
    assert "Critical move: B [2-6]@2, move 17 (line" in done.stdout and "pure Python" not in done.stderr
    python = clone / ".venv" / "bin" / "python"
    assert (clone / ".venv" / "bin" / "domino").exists()
    version = subprocess.run([str(python), "-P", "-m", "analyzer", "--version"], cwd=clone, env=env,
                             capture_output=True, text=True, timeout=300)
    assert "search core: compiled" in version.stdout, version.stdout + version.stderr
    slow = subprocess.run([str(python), "-m", "analyzer", "analyze", "records/seed2.dom"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=900)
    assert slow.returncode == 0 and f"imported the source tree {clone / 'analyzer'}" in slow.stderr, slow.stderr
