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


def package_imports() -> dict[str, set[str]]:
    """raglab module -> the raglab modules it imports (relative imports, at any depth)."""
    graph = {}
    for name in sorted(n for n in os.listdir(PKG) if n.endswith(".py")):
        mod = name[:-3]
        tree = ast.parse(open(os.path.join(PKG, name), encoding="utf-8").read())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:  # from . import x, y
                    deps.update(a.name for a in node.names)
        graph[mod] = {d for d in deps if os.path.exists(os.path.join(PKG, d + ".py"))}
    return graph


def test_no_import_cycle_inside_the_package():
    """Imports point one way: leaf modules at the bottom, the CLI and the web facade on top."""
    graph = package_imports()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(mod, path):
        state[mod] = 1
        for dep in sorted(graph[mod]):
            if state.get(dep) == 1:
                cycle = path[path.index(dep):] + [dep]
                pytest.fail("import cycle: " + " -> ".join(cycle), pytrace=False)
            if dep not in state:
                visit(dep, path + [dep])
        state[mod] = 2

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])


def test_nothing_imports_the_cli_but_main():
    importers = sorted(m for m, deps in package_imports().items() if "cli" in deps)
    assert importers == ["__main__"]


def test_ranking_is_a_leaf():
    """Every retriever imports the ranking primitives from here, so it must import no retriever."""
    assert package_imports()["ranking"] <= {"analyzer", "chunking", "limits"}


def test_limits_is_a_leaf():
    """Loaders, retrievers and the answerer all read their bounds from `limits`."""
    assert package_imports()["limits"] == set()


def test_no_module_is_over_450_lines():
    for name in sorted(n for n in os.listdir(PKG) if n.endswith(".py")):
        with open(os.path.join(PKG, name), encoding="utf-8") as fh:
            n = len(fh.read().splitlines())
        assert n <= 450, f"py/raglab/{name} has {n} lines; split it by purpose"
