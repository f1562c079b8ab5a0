"""The modules the browser runs import only the standard library (and each other)."""

import ast
import os
import sys

import pytest

from helpers import ROOT

PKG = os.path.join(ROOT, "py", "raglab")
NATIVE_ONLY = {"embedding.py"}  # may import third-party packages lazily; never loaded in the browser
# JavaScript modules the worker registers with Pyodide (js/semantic.js), imported only there
FROM_THE_WORKER = {"raglab_kernel"}


def browser_modules():
    return sorted(n for n in os.listdir(PKG) if n.endswith(".py") and n not in NATIVE_ONLY)


@pytest.mark.parametrize("name", browser_modules())
def test_imports_only_stdlib(name):
    tree = ast.parse(open(os.path.join(PKG, name), encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                continue  # relative: another raglab module, itself checked
            mods = [node.module]
        else:
            continue
        for mod in mods:
            top = mod.split(".")[0]
            if top in FROM_THE_WORKER:
                continue
            assert top in sys.stdlib_module_names and top != "numpy", f"{name} imports {mod}"


def test_no_builtin_sum_or_hash_in_browser_modules():
    """Determinism rules: sum() of floats changed in 3.12; hash() is salted and 32-bit in wasm."""
    for name in browser_modules():
        tree = ast.parse(open(os.path.join(PKG, name), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "hash", f"{name}:{node.lineno} uses hash()"
