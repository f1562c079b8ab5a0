"""Parity: the browser (CPython 3.14 in wasm, musl) and native Python (this CPython)
return byte-identical answers for every golden question and every configuration.

Both sides run the same facade, `raglab.web.api`, on the same raw corpus files: natively
in this process, and in the browser through the page's `window.raglab.raw`, which
returns Python's JSON text unparsed. Results are collected in one call per
configuration. On a mismatch the failure names the question, the configuration and
the first differing field, native vs browser. The encoder's bits and the evaluation's
arithmetic are compared in tests/test_parity_engine.py.
"""

import hashlib
import json
import os

import pytest

from helpers import ROOT, docs
from parity_support import CONFIGS, assert_same, browser_and_native, browser_call, golden_and_stress, label, native
from raglab.corpus.chunking import CHUNKERS
from raglab.pipeline import Config
from raglab.retrieval.registry import RETRIEVERS
from raglab.text.splitter import sentences

__all__ = ["native"]  # a fixture the tests below take


def test_browser_runs_the_same_module_files(app_page):
    """A stale wheel cannot pass: every module's sha256 inside Pyodide equals the source tree's."""
    seen = json.loads(browser_call(app_page, "moduleHashes"))
    package = os.path.join(ROOT, "py", "raglab")
    for rel, digest in seen.items():
        with open(os.path.join(package, rel.removeprefix("raglab/")), "rb") as fh:
            assert hashlib.sha256(fh.read()).hexdigest() == digest, rel
    on_disk = {os.path.relpath(os.path.join(folder, f), package).replace(os.sep, "/")
               for folder, _, names in os.walk(package) for f in names if f.endswith(".py")}
    assert on_disk <= {r.removeprefix("raglab/") for r in seen}


def test_analyzer_tokens_agree_on_every_sentence_and_question(app_page, native):
    texts = []
    for d in docs():
        texts.extend(d.text[s:e] for s, e in sentences(d.text))
    texts.extend(golden_and_stress()[0])
    ids = [f"text-{i}" for i in range(len(texts))]
    assert_same(native.analyze_many(json.dumps(texts)), browser_call(app_page, "analyzeMany", texts), ids,
                "analyzer")


# The served configuration asks every golden question; every other configuration a third of them
# and a quarter of the stress set (the parts taken in turn along the configurations), so every
# golden and every stress question still meets every retriever and every chunker (a retriever's
# six configurations, three chunkers with and without expansion, ask all three thirds and all four
# quarters), and every chunker with every retriever (its two configurations, with and without
# expansion, ask consecutive thirds) two thirds of the golden questions, while the browser answers
# about a third of the questions a configuration: the suite's time budget.
STRESS_PARTS = 4
GOLDEN_PARTS = 3


def served(cfg) -> bool:
    default = Config()
    return (cfg["chunker"], cfg["retriever"], cfg["expand"]) == (default.chunker, default.retriever, default.expand)


def parts(cfg) -> tuple[tuple[int, int], tuple[int, int]]:
    """The (stress, golden) parts configuration `cfg` asks below."""
    i = CONFIGS.index(cfg)
    return (i % STRESS_PARTS, STRESS_PARTS), ((0, 1) if served(cfg) else (i % GOLDEN_PARTS, GOLDEN_PARTS))


def test_the_parts_asked_still_reach_every_retriever_and_chunker():
    every = set(golden_and_stress()[1])
    by = {}
    for cfg in CONFIGS:
        ids = set(golden_and_stress(*parts(cfg))[1])
        for key in (cfg["retriever"], cfg["chunker"]):
            by[key] = by.get(key, set()) | ids
    for key, ids in sorted(by.items()):
        assert every <= ids, f"{key} never asks {sorted(every - ids)[:3]}"
    stress = {q for q in every if q.startswith("stress-")}
    golden = len(every - stress)
    for c in CHUNKERS:
        for r in RETRIEVERS:
            pair = [cfg for cfg in CONFIGS if (cfg["chunker"], cfg["retriever"]) == (c, r)]
            asked = set().union(*(golden_and_stress(*parts(cfg))[1] for cfg in pair)) - stress if pair else set()
            assert not pair or 3 * len(asked) >= 2 * golden - 3, f"{c}+{r} asks {len(asked)} of {golden} golden questions"
    assert every - stress <= set(golden_and_stress(*parts(next(c for c in CONFIGS if served(c))))[1])


@pytest.mark.parametrize("cfg", CONFIGS, ids=label)
def test_top5_answers_and_citations_are_identical(app_page, native, cfg):
    texts, ids = golden_and_stress(*parts(cfg))
    native_text, browser_text = browser_and_native(app_page, "askMany", [texts, cfg],
                                                   lambda: native.ask_many(json.dumps(texts), json.dumps(cfg)))
    assert_same(native_text, browser_text, ids, label(cfg))
    # the fields the promise is about, checked explicitly as well as byte for byte
    for x, y in zip(json.loads(native_text), json.loads(browser_text)):
        if "error" in x:  # an empty stress question gets the same error object on both sides
            assert x == y
            continue
        assert [c["id"] for c in x["chunks"]] == [c["id"] for c in y["chunks"]]
        assert (x["answer"], x["citations"], x["abstained"]) == (y["answer"], y["citations"], y["abstained"])
