"""The examples in raglab's docstrings hold: every module with one is run here, so an example
(`lexical.respelt`'s, the BM25 weights of `lexical.weighted_terms`) cannot go stale unseen,
whether or not a test file of its own runs it."""

import doctest
import importlib
import os

import pytest

from helpers import ROOT

PACKAGE = os.path.join(ROOT, "py", "raglab")


def _with_examples() -> list[str]:
    out = []
    for folder, dirs, files in os.walk(PACKAGE):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(".py"):
                with open(path, encoding="utf-8") as fh:
                    if ">>> " in fh.read():
                        rel = os.path.relpath(path[:-3], os.path.dirname(PACKAGE))
                        out.append(rel.replace(os.sep, "."))
    return out


MODULES = _with_examples()


def test_modules_with_examples_are_found():
    assert "raglab.retrieval.lexical" in MODULES and len(MODULES) > 10


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0, result
