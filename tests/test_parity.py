"""Parity: the browser (CPython 3.14 in wasm, musl) and native Python (this CPython)
return byte-identical answers for every golden question and every configuration.

Both sides run the same facade, `raglab.web.api`, on the same raw corpus files: natively
in this process, and in the browser through the page's `window.raglab.raw`, which
returns Python's JSON text unparsed. Results are collected in one call per
configuration. On a mismatch the failure names the question, the configuration and
the first differing field, native vs browser. The encoder's bits for every question are
compared here too, first (the page keeps the vectors, so the answers encode nothing again);
a question's two readings, raw scores and the evaluation's arithmetic in
tests/test_parity_engine.py.
"""

import hashlib
import json
import os

import pytest

from helpers import ROOT, docs, questions
from parity_support import CONFIGS, EVALUATION, WITH_MODEL, assert_same, browser_and_native, browser_call, golden_and_stress, label, native, semantic_page
from raglab.corpus.chunking import CHUNKERS, chunk_corpus, index_text
from raglab.encoder.native import PASSAGE, QUERY
from raglab.pipeline import Config
from raglab.retrieval.registry import RETRIEVERS
from raglab.text.splitter import sentences

__all__ = ["native", "semantic_page"]  # fixtures the tests below take


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


def shipped_sample(dist_dir):
    """70 chunk texts spread over the page's two vector stores (50 loaded with the model, 20 of the
    evaluation's), and the digests of those vectors."""
    from raglab.encoder.bundled import read_questions
    from raglab.encoder.vectors import read_store, text_key
    from raglab.retrieval.bilingual import translated_queries
    from raglab.text.analyzer import normalize

    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        entry = json.load(fh)["encoder"]
    sample, digests = [], []
    asked = [q.question for q in questions()]
    read = read_questions()  # a Banglish question is searched in Bangla script
    readings = [QUERY + normalize(q) for q in asked + read] + translated_queries(read)  # bilingual reads both
    for role, chunkers, extra, n in (("vectors", WITH_MODEL, [], 50), ("evaluation", EVALUATION, readings, 20)):
        store = read_store(os.path.join(dist_dir, *entry[role]["path"].split("/")), entry["model"]["digest"], 384)
        texts = list(dict.fromkeys(PASSAGE + index_text(c) for c in chunks_of(chunkers)))
        assert {text_key(t) for t in texts + extra} == set(store), f"the {role} store does not hold exactly what it should"
        picked = texts[:: max(1, len(texts) // n)][:n]
        sample += picked
        digests += [hashlib.sha256(",".join(float(x).hex() for x in memoryview(store[text_key(t)]).cast("f")).encode())
                    .hexdigest() for t in picked]
    return sample, digests


def chunks_of(chunkers):
    return [c for n in chunkers for c in chunk_corpus(list(docs()), n)]


def test_kernel_bits_query_vectors_and_shipped_chunk_vectors(semantic_page, native, dist_dir):
    """The kernel compiled to wasm32 gives the native library's bits: the float.hex digest of every
    stress question's vector ("query: " + question) and of an eighth of the golden questions' is the
    same in the browser; and 70 chunks spread over the two shipped stores, encoded again by the
    page, give exactly the shipped vectors (so they are current). One browser call; the native side
    runs meanwhile. Here, before the answers below, which then encode nothing again: the page keeps
    each vector it computed, and the golden questions' vectors come from the evaluation's store,
    fetched first (as an evaluation in the page reads them); encoding every golden question in wasm
    as well took a minute of each run."""
    browser_call(semantic_page, "ask", "What is the cash out fee?",  # a sentence + semantic question fetches the store
                 {"chunker": "sentence", "retriever": "semantic", "k": 5, "expand": False})
    texts, ids = golden_and_stress((0, 1), (0, 2 * GOLDEN_PARTS))
    queries = [QUERY + t for t in texts]
    sample, shipped = shipped_sample(dist_dir)
    native_text, browser_text = browser_and_native(semantic_page, "vectorDigests", [queries + sample],
                                                   lambda: native.vector_digests(json.dumps(queries)))
    nat, brw = json.loads(native_text), json.loads(browser_text)
    assert len(nat) == len(queries) and len(brw) == len(queries) + len(sample) == len(texts) + 70 and len(texts) >= 400
    differ = [ids[i] for i, (a, b) in enumerate(zip(nat, brw)) if a != b]
    assert not differ, f"{len(differ)} query vectors differ between native and browser, first {differ[:5]}"
    stale = [i for i, (a, b) in enumerate(zip(shipped, brw[len(queries):])) if a != b]
    assert not stale, f"{len(stale)} of 70 re-encoded chunks differ from the shipped vectors (first: sample {stale[0]})"


# The served configuration asks every golden question; every other configuration a quarter of them
# and a sixth of the stress set (the parts taken in turn along the configurations), so every
# golden and every stress question still meets every retriever and every chunker (a retriever's
# six configurations, three chunkers with and without expansion, ask all four quarters and all six
# sixths), and every chunker with every retriever (its two configurations, with and without
# expansion, ask consecutive quarters) half the golden questions, while the browser answers about a quarter of the
# questions a configuration: the suite's time budget (a third took a minute more of a 2-core machine).
STRESS_PARTS = 6
GOLDEN_PARTS = 4


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
            assert not pair or 2 * len(asked) >= golden - 2, f"{c}+{r} asks {len(asked)} of {golden} golden questions"
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
