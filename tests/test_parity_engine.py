"""Parity of the engine under the answers: the encoder kernel compiled to wasm32 gives the
native library's bits for a question's two readings (every question's vector and the shipped
chunk vectors: tests/test_parity.py), raw scores agree to the last bit before rounding, and the
evaluation's arithmetic (metrics, intervals, tuning, attribution) gives the same report in the
browser as natively (the Evaluate tab's default run: tests/test_browser_evaluate.py). Before the
raw scores the page fetches the store of the golden questions' vectors, as an evaluation would,
so they need not be encoded in wasm again."""

import hashlib
import json
import os

import pytest

from helpers import ROOT
from parity_support import LEXICAL, RAW_SCORE_CONFIGS, SEMANTIC_READY_MS, browser_and_native, browser_call, first_difference, golden_and_stress, label, native, semantic_page
from raglab.encoder.native import QUERY
from raglab.pipeline import Config

__all__ = ["native", "semantic_page"]  # fixtures the tests below take


# Not golden or stress questions (the page knows no vector of these yet), each read twice by bilingual.
READ_TWICE = ["How do I withdraw cash on a Friday night?", "বিদেশ থেকে টাকা আসতে কত দিন লাগে আমার ভাইয়ের?",
              "Is there a fee if my cousin sends money from abroad to my wallet?"]


def test_readings_encoded_side_by_side_have_the_native_bits(semantic_page, native):
    """The page encodes a question's two readings at once, one in its worker's kernel and one in
    a helper worker's (js/helper.js, raglab.web.readings): the vectors it then holds are the
    native bits, and the answer is native's byte for byte. The helper says when it is ready and
    each question says that it was read ahead, so a page that quietly encoded them one after
    the other (the old way, which would pass the rest) fails here."""
    from raglab.retrieval.bilingual import translated
    from raglab.retrieval.expansion import expand
    from raglab.text.analyzer import normalize

    assert semantic_page.evaluate("() => navigator.hardwareConcurrency") > 1, "the helper needs a second core"
    semantic_page.wait_for_function("() => window.raglab.timings.helperAt", timeout=SEMANTIC_READY_MS)
    cfg = {"chunker": "recursive", "retriever": "bilingual", "k": 3, "expand": True, "threshold": Config().threshold}
    texts = []
    for question in READ_TWICE:
        pair = [QUERY + normalize(question), QUERY + normalize(translated(expand(question)))]
        assert browser_call(semantic_page, "cachedDigests", pair) == "[null, null]", question
        before = semantic_page.evaluate("() => window.raglab.timings.readAheadAt || 0")
        assert browser_call(semantic_page, "ask", question, cfg) == native.ask(question, json.dumps(cfg)), question
        assert semantic_page.evaluate("() => window.raglab.timings.readAheadAt || 0") > before, f"not read ahead: {question}"
        texts += pair
    assert json.loads(browser_call(semantic_page, "cachedDigests", texts)) == json.loads(native.vector_digests(json.dumps(texts)))


def test_page_loaded_the_current_kernel_and_model(semantic_page, build_module):
    """A stale build cannot pass: the .wasm and model file the page loaded are the ones built from
    py/raglab/encoder/kernel.c and derived by setup now (the native side's very files)."""
    loaded = semantic_page.evaluate("() => window.raglab.semantic.files")
    wasm = build_module.build_kernel_wasm()
    model = os.path.join(ROOT, ".cache", "encoder", "e5-small-raglab.rle5")
    assert loaded["kernel"] == build_module.sha256_file(wasm), "the page's encoder.wasm is stale; run `python3 build.py build`"
    assert loaded["model"] == build_module.sha256_file(model), "the page's model file is stale; run `python3 build.py build`"


def assert_same_report(page, native, options):
    native_text, browser_text = browser_and_native(page, "compare", [options],
                                                   lambda: native.compare(json.dumps(options)))
    if native_text != browser_text:
        diff = first_difference(json.loads(native_text), json.loads(browser_text))
        pytest.fail(f"compare report differs at {diff[0]}: native {diff[1]!r} vs browser {diff[2]!r}", pytrace=False)


# The per-question answers of every configuration are compared in tests/test_parity.py, and the
# Evaluate tab's default run with native's to the last digit in tests/test_browser_evaluate.py;
# this compares the evaluation's own arithmetic (metrics, intervals, tuning, attribution,
# findings) byte for byte, as the JSON text each side writes.
def test_evaluation_table_of_two_lexical_retrievers_is_identical(app_page, native):
    """The served chunker with BM25 and the reranker (the one retriever whose misses the attribution
    can lay on a reranking stage), as the Evaluate tab runs them, without expansion (the tab's
    default run is with it, as served). Two, not every retriever: the arithmetic compared here is
    the same code whatever ranked the chunks, and each retriever's per-question answers are
    compared byte for byte in tests/test_parity.py; the other two cost half a minute more."""
    served = Config()
    assert set(TWO_LEXICAL) <= set(LEXICAL)
    assert_same_report(app_page, native, {"split": "test", "chunker": served.chunker, "retriever": TWO_LEXICAL,
                                          "expand": "on" if not served.expand else "off"})


TWO_LEXICAL = ["bm25", "hybrid-rerank"]


@pytest.fixture(scope="module")
def golden_vectors(semantic_page):
    """The page with the store of the golden questions' vectors fetched: one question asked over
    the sentence chunks, whose vectors ship in the same store, makes the page fetch it."""
    browser_call(semantic_page, "ask", "What is the cash out fee?",
                 {"chunker": "sentence", "retriever": "semantic", "k": 5, "expand": False})
    return semantic_page


@pytest.mark.parametrize("cfg", RAW_SCORE_CONFIGS, ids=label)
def test_raw_scores_before_rounding(golden_vectors, native, cfg, capsys):
    """Scores are ranked after rounding to 12 significant digits; this counts how many of the
    unrounded top-5 scores differ in their last bits between the platforms (expected 0). Every
    stress question, and half the golden questions, the halves taken in turn along the retrievers
    (each golden question is still read by three or four of them): all of them, under seven
    retrievers, took most of a minute."""
    texts, ids = golden_and_stress((0, 1), (RAW_SCORE_CONFIGS.index(cfg) % 2, 2))
    native_text, browser_text = browser_and_native(golden_vectors, "rawScores", [texts, cfg],
                                                   lambda: native.raw_scores(json.dumps(texts), json.dumps(cfg)))
    nat, brw = json.loads(native_text), json.loads(browser_text)
    assert [[h[0] for h in row] for row in nat] == [[h[0] for h in row] for row in brw]
    compared = differing = 0
    for row_n, row_b in zip(nat, brw):
        for (_, a), (_, b) in zip(row_n, row_b):
            if a is not None:
                compared += 1
                differing += a != b
    with capsys.disabled():
        if compared:
            print(f"\n  raw scores {label(cfg)}: {differing} of {compared} differ in the last bits")
        else:
            print(f"\n  raw scores {label(cfg)}: the retriever has no raw-score method; its rounded scores "
                  "are compared in the answers test")
    assert differing == 0, f"{differing} raw scores differ; the ranking is unaffected only thanks to rounding"


def test_prebuilt_analysis_is_what_pyodide_works_out(app_page, dist_dir):
    """The build analysed the served chunks natively and shipped the table; Pyodide
    analyses them afresh here: both give the file whose sha256 the manifest names, and
    the app installed that table."""
    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        shipped = json.load(fh)["analysis"]
    fresh = browser_call(app_page, "prebuiltTable").encode("utf-8")
    assert hashlib.sha256(fresh).hexdigest() == shipped["sha256"]
    with open(os.path.join(dist_dir, *shipped["path"].split("/")), "rb") as fh:
        assert fh.read() == fresh
    # installed with the served default's index, after the model (a semantic default) is in
    app_page.wait_for_function("() => window.raglab.timings.defaultIndexAt", timeout=SEMANTIC_READY_MS)
    info = app_page.evaluate("() => window.raglab.corpusInfo()")
    assert info["prebuilt_texts"] == len(json.loads(fresh)["tokens"]) > 0
