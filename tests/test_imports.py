"""The package's shape: the browser's modules import only the standard library, and the
folders are layers whose imports point one way (a folder imports only from folders below it)."""

import ast
import os
import re
import sys

import pytest

from helpers import ROOT

PKG = os.path.join(ROOT, "py", "raglab")
# May import third-party packages (lazily); never loaded in the browser. raglab.cluster runs on Dask.
NATIVE_ONLY = {"retrieval/embedding.py", "cluster/__init__.py", "cluster/connect.py", "cluster/encode.py",
               "cluster/tasks.py", "cluster/worker.py"}
# JavaScript modules the worker registers with Pyodide (js/semantic.js), imported only there
FROM_THE_WORKER = {"raglab_kernel"}

# Bottom to top. A module may import from its own layer and from layers below it, never above.
LAYERS = (
    ("text",),  # analyzer, answer types, numbers, bounds: reading text
    ("corpus",),  # articles, chunkers, goldens, importers
    ("encoder",),  # the e5 model, its kernel and the vectors
    ("retrieval",),  # ranking primitives and every retriever
    ("question",),  # what a question asks, its words respelt, their synonyms
    ("answer",),  # the extractive answerer
    ("pipeline", "schema"),  # the one entry point and its JSON shape
    ("evaluation",),  # scoring configurations
    ("cluster",),  # encoding and evaluation on a Dask cluster (native only)
    ("cli", "web"),  # the surfaces
    ("__init__", "__main__"),
)
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}
MAX_MODULES_PER_FOLDER = 12


def modules() -> list[str]:
    """Every module of the package, as a path relative to py/raglab ("retrieval/bm25.py")."""
    out = []
    for folder, dirs, names in os.walk(PKG):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [os.path.relpath(os.path.join(folder, n), PKG).replace(os.sep, "/")
                for n in sorted(names) if n.endswith(".py")]
    return out


def browser_modules():
    return [m for m in modules() if m not in NATIVE_ONLY]


def tree(module: str) -> ast.Module:
    with open(os.path.join(PKG, module), encoding="utf-8") as fh:
        return ast.parse(fh.read())


def layer_of(module: str) -> str:
    return module.split("/")[0].removesuffix(".py")


def raglab_imports(module: str) -> list[tuple[int, str]]:
    """(line, imported raglab module) for every import of another raglab module, at any depth."""
    out = []
    for node in ast.walk(tree(module)):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}:{node.lineno}: relative import; write `from raglab.<folder>.<module> import`"
            if node.module == "raglab":
                out += [(node.lineno, f"raglab.{a.name}") for a in node.names]
            elif node.module and node.module.startswith("raglab."):
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("raglab.")]
    return out


@pytest.mark.parametrize("name", browser_modules())
def test_imports_only_stdlib(name):
    for node in ast.walk(tree(name)):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = [node.module or ""]
        else:
            continue
        for mod in mods:
            top = mod.split(".")[0]
            if top in FROM_THE_WORKER or top == "raglab":
                continue
            assert top in sys.stdlib_module_names and top != "numpy", f"{name} imports {mod}"


def test_no_builtin_sum_or_hash_in_browser_modules():
    """Determinism rules: sum() of floats changed in 3.12; hash() is salted and 32-bit in wasm."""
    for name in browser_modules():
        for node in ast.walk(tree(name)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "hash", f"{name}:{node.lineno} uses hash()"


def test_every_module_belongs_to_a_layer():
    assert sorted({layer_of(m) for m in modules()} - {"__init__"} - set(LAYER)) == []


def test_folders_import_only_downwards():
    """text < corpus < encoder < retrieval < answer < pipeline < evaluation < cluster < cli, web."""
    wrong = []
    for module in modules():
        me = LAYER[layer_of(module)]
        for line, imported in raglab_imports(module):
            parts = imported.split(".")
            if len(parts) < 2 or parts[1] == "__version__":
                continue
            if LAYER[parts[1]] > me:
                wrong.append(f"py/raglab/{module}:{line} imports {imported}, a layer above it")
    assert wrong == []


def test_nothing_imports_the_cli_but_main():
    importers = sorted(m for m in modules() if layer_of(m) != "cli"
                       and any(i.startswith("raglab.cli") for _, i in raglab_imports(m)))
    assert importers == ["__main__.py"]


def test_ranking_is_a_leaf_of_retrieval():
    """Every retriever imports the ranking primitives from here, so it must import no retriever (the
    question's type, `text.answertypes`, says whether a question asks how: `ranking.asks_how`)."""
    assert {i for _, i in raglab_imports("retrieval/ranking.py")} <= {"raglab.text.analyzer", "raglab.text.answertypes", "raglab.corpus.chunking"}


def test_limits_is_a_leaf():
    """Loaders, retrievers and the answerer all read their bounds from `limits`."""
    assert raglab_imports("text/limits.py") == []


def test_no_module_is_over_450_lines():
    for name in modules():
        with open(os.path.join(PKG, name), encoding="utf-8") as fh:
            n = len(fh.read().splitlines())
        assert n <= 450, f"py/raglab/{name} has {n} lines; split it by purpose"


def test_no_folder_holds_more_than_a_dozen_modules():
    counts: dict[str, int] = {}
    for name in modules():
        if "/" in name and not name.endswith("__init__.py"):
            counts[layer_of(name)] = counts.get(layer_of(name), 0) + 1
    assert {f: n for f, n in counts.items() if n > MAX_MODULES_PER_FOLDER} == {}


def browser_import_walk() -> set[str]:
    """Every raglab module the browser can load: from the worker's entry point (js/worker.js
    imports raglab.web.api) through every raglab import at any depth, lazy ones included."""
    with open(os.path.join(ROOT, "js", "worker.js"), encoding="utf-8") as fh:
        entries = set(re.findall(r"pyimport\(\"(raglab[\w.]*)\"\)", fh.read()))
    assert entries == {"raglab.web.api"}, entries

    def path_of(name: str) -> str | None:
        rel = name.split(".", 1)[1].replace(".", "/") if "." in name else "__init__"
        for candidate in (rel + ".py", rel + "/__init__.py"):
            if os.path.exists(os.path.join(PKG, candidate)):
                return candidate
        return None

    seen: set[str] = set()
    todo = ["__init__.py"] + [p for p in map(path_of, entries) if p]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.removesuffix(".py").split("/")
        for i in range(1, len(parts)):  # a package's __init__ runs before its modules
            init = "/".join(parts[:i]) + "/__init__.py"
            if os.path.exists(os.path.join(PKG, init)):
                todo.append(init)
        for node in ast.walk(tree(module)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "raglab":
                # `from raglab.encoder import vectors` loads raglab/encoder/vectors.py too
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.split(".")[0] == "raglab"]
            else:
                continue
            todo += [p for p in map(path_of, names) if p]
    return seen


def test_the_browser_never_imports_dask_or_the_cluster_modules():
    """raglab.cluster ships in the wheel (it is one package) but nothing the browser loads reaches it."""
    reached = browser_import_walk()
    assert "web/api.py" in reached and "pipeline.py" in reached and "encoder/vectors.py" in reached
    assert sorted(m for m in reached if m.startswith("cluster/") or m in NATIVE_ONLY) == []
    for module in sorted(reached):
        for node in ast.walk(tree(module)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [n for n in names if n.split(".")[0] in ("dask", "distributed")], f"{module} imports Dask"
