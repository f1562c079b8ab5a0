"""Start-up: every `raglab` command pays for what it imports, and `raglab --help` (or a
command's mistake) should answer at once. A command's modules are imported when it runs."""

import json
import os
import subprocess
import sys

import pytest

from helpers import ROOT

# Run in a fresh process: the test session has imported the whole package already.
PROBE = """
import contextlib, io, json, sys
from raglab.cli.main import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        main(sys.argv[1:])
    except SystemExit:
        pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith("raglab."))))
"""


def imported_by(*argv: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py")))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def under(modules: list[str], *prefixes: str) -> list[str]:
    """The modules in `modules` under any of `prefixes`."""
    return [m for m in modules if m.startswith(prefixes)]


@pytest.mark.parametrize("argv", [["--help"], [], ["bogus"]])
def test_help_imports_no_command(argv):
    """`raglab --help` lists the commands without loading any of them, or the library under them."""
    modules = imported_by(*argv)
    assert "raglab.cli.main" in modules
    # nothing of the library, and of the command line only the list of commands and its paths
    assert [m for m in modules if m not in ("raglab.cli", "raglab.cli.main", "raglab.cli.arguments")] == []


@pytest.mark.parametrize("argv", [["ask", "--help"], ["ask", ""], ["ask", "--workers", "2", "fee?"]])
def test_ask_help_and_mistakes_import_neither_the_answerer_nor_the_evaluation(argv):
    """`raglab ask`'s options and its mistakes are told before the question is read or answered."""
    modules = imported_by(*argv)
    assert "raglab.cli.asking" in modules
    assert under(modules, "raglab.question", "raglab.answer", "raglab.evaluation", "raglab.cluster",
                 "raglab.corpus.goldens", "raglab.corpus.importers", "raglab.cli.compare",
                 "raglab.cli.importing") == []
