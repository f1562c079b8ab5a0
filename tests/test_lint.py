"""The lint rules in pyproject.toml ([tool.ruff]) hold for the whole repository."""

import os
import shutil
import subprocess
import sys

import pytest

from helpers import ROOT


def test_ruff_passes():
    # The ruff next to this interpreter (the project's .venv), else one on PATH.
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed; run `python3 build.py setup` (it comes with the test extras)",
                    pytrace=False)
    done = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, "ruff found problems (fix them, or `ruff check --fix`):\n" + done.stdout + done.stderr


def test_mypy_passes():
    """The package type-checks at the strictness pyproject.toml states ([tool.mypy])."""
    mypy = shutil.which("mypy", path=os.path.dirname(sys.executable)) or shutil.which("mypy")
    if mypy is None:
        pytest.fail("mypy is not installed; run `python3 build.py setup` (it comes with the test extras)",
                    pytrace=False)
    # Incremental, with its cache under .cache/: a re-run re-checks only the changed modules.
    done = subprocess.run([mypy, "--cache-dir", os.path.join(ROOT, ".cache", "mypy")], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, "mypy found problems:\n" + done.stdout + done.stderr
