"""Parity: the browser (CPython 3.14 in wasm, musl) and native Python (this CPython)
return byte-identical results for every golden question and every configuration.

Both sides run the same facade, `raglab.web`, on the same raw corpus files: natively
in this process, and in the browser through the page's `window.raglab.raw`, which
returns Python's JSON text unparsed. Results are collected in one call per
configuration. On a mismatch the failure names the question, the configuration and
the first differing field, native vs browser.
"""

import hashlib
import json
import os

import pytest

from raglab.analyzer import sentences
from raglab.chunking import CHUNKERS, chunk_corpus
from raglab.encoder import PASSAGE, QUERY
from raglab.ranking import index_text
from raglab.retrieval import ENCODER_RETRIEVERS, RETRIEVERS

from conftest import _load_build_module
from helpers import ROOT, docs, questions
from stress_questions import stress_questions

# The page ships the chunk vectors of these chunkers; a semantic configuration over another
# chunker first encodes its chunks in the worker (minutes in wasm), which this suite skips.
SHIPPED = _load_build_module().BROWSER_VECTOR_CHUNKERS
CONFIGS = [{"chunker": c, "retriever": r, "k": 5, "expand": e}
           for c in CHUNKERS for r in RETRIEVERS for e in (False, True)
           if r not in ENCODER_RETRIEVERS or c in SHIPPED]
LEXICAL = [r for r in RETRIEVERS if r not in ENCODER_RETRIEVERS]
SEMANTIC_READY_MS = 120_000


def label(cfg):
    return f"{cfg['chunker']}+{cfg['retriever']}" + ("+expand" if cfg["expand"] else "")


@pytest.fixture(scope="module")
def native(native_web):
    """The facade natively, loaded with the same raw files the page loads."""
    return native_web


def browser_call(page, op, *args):
    return page.evaluate("([op, args]) => window.raglab.raw(op, ...args)", [op, list(args)])


def first_difference(a, b, path=""):
    """The path and values of the first difference between two JSON values."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}", a.get(key, "<missing>"), b.get(key, "<missing>")
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}.length", len(a), len(b)
        return None
    return None if a == b else (path, a, b)


def assert_same(native_text, browser_text, ids, what):
    if native_text == browser_text:
        return
    nat, brw = json.loads(native_text), json.loads(browser_text)
    for i, (x, y) in enumerate(zip(nat, brw)):
        diff = first_difference(x, y)
        if diff or json.dumps(x, ensure_ascii=False, sort_keys=True) != json.dumps(y, ensure_ascii=False, sort_keys=True):
            path, a, b = diff or ("(serialisation)", x, y)
            pytest.fail(f"{what}: question {ids[i]}: first difference at {path.lstrip('.')}: "
                        f"native {a!r} vs browser {b!r}", pytrace=False)
    pytest.fail(f"{what}: {len(nat)} native results vs {len(brw)} browser results", pytrace=False)


def golden_and_stress():
    gold = list(questions())
    stress = stress_questions(list(docs()))
    texts = [q.question for q in gold] + stress
    ids = [q.id for q in gold] + [f"stress-{i}" for i in range(len(stress))]
    return texts, ids


def test_browser_runs_the_same_module_files(app_page):
    """A stale wheel cannot pass: every module's sha256 inside Pyodide equals the source tree's."""
    seen = json.loads(browser_call(app_page, "moduleHashes"))
    package = os.path.join(ROOT, "py", "raglab")
    for rel, digest in seen.items():
        with open(os.path.join(package, rel.removeprefix("raglab/")), "rb") as fh:
            assert hashlib.sha256(fh.read()).hexdigest() == digest, rel
    on_disk = {f for f in os.listdir(package) if f.endswith(".py")}
    assert on_disk <= {r.removeprefix("raglab/") for r in seen}


def test_analyzer_tokens_agree_on_every_sentence_and_question(app_page, native):
    texts = []
    for d in docs():
        texts.extend(d.text[s:e] for s, e in sentences(d.text))
    texts.extend(golden_and_stress()[0])
    ids = [f"text-{i}" for i in range(len(texts))]
    assert_same(native.analyze_many(json.dumps(texts)), browser_call(app_page, "analyzeMany", texts), ids,
                "analyzer")


@pytest.fixture(scope="module")
def semantic_page(app_page):
    """The app with its semantic model loaded (it loads after the page is ready)."""
    try:
        app_page.evaluate("() => window.raglab.semanticReady()")
    except Exception as err:  # noqa: BLE001 - report what the page said
        pytest.fail(f"the semantic model did not load in the page: {str(err).splitlines()[0]}", pytrace=False)
    return app_page


def browser_and_native(page, op, args, native_fn):
    """Start op in the browser, compute the native side meanwhile (two cores), then collect both."""
    page.evaluate("([op, args]) => { window.__pending = window.raglab.raw(op, ...args); }", [op, args])
    native_text = native_fn()
    return native_text, page.evaluate("() => window.__pending")


def shipped_sample(dist_dir):
    """50 chunk texts spread over the page's shipped vectors, and the digests of those vectors."""
    from raglab.vectors import read_store, text_key

    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        entry = json.load(fh)["encoder"]
    store = read_store(os.path.join(dist_dir, *entry["vectors"]["path"].split("/")), entry["model"]["digest"], 384)
    texts = list(dict.fromkeys(PASSAGE + index_text(c) for n in SHIPPED for c in chunk_corpus(list(docs()), n)))
    assert {text_key(t) for t in texts} == set(store), "the shipped store does not hold exactly the shipped chunkers' chunks"
    sample = texts[:: max(1, len(texts) // 50)][:50]
    digests = [hashlib.sha256(",".join(float(x).hex() for x in memoryview(store[text_key(t)]).cast("f")).encode()).hexdigest()
               for t in sample]
    return sample, digests


def test_kernel_bits_query_vectors_and_shipped_chunk_vectors(semantic_page, native, dist_dir):
    """The kernel compiled to wasm32 gives the native library's bits: the float.hex digest of every
    golden and stress question's vector ("query: " + question) is the same in the browser; and 50
    chunks spread over the shipped store, encoded again by the page, give exactly the shipped
    vectors (so they are current). One browser call; the native side runs meanwhile."""
    texts, ids = golden_and_stress()
    queries = [QUERY + t for t in texts]
    sample, shipped = shipped_sample(dist_dir)
    native_text, browser_text = browser_and_native(semantic_page, "vectorDigests", [queries + sample],
                                                   lambda: native.vector_digests(json.dumps(queries)))
    nat, brw = json.loads(native_text), json.loads(browser_text)
    assert len(nat) == len(queries) and len(brw) == len(queries) + len(sample) == len(texts) + 50
    differ = [ids[i] for i, (a, b) in enumerate(zip(nat, brw)) if a != b]
    assert not differ, f"{len(differ)} query vectors differ between native and browser, first {differ[:5]}"
    stale = [i for i, (a, b) in enumerate(zip(shipped, brw[len(queries):])) if a != b]
    assert not stale, f"{len(stale)} of 50 re-encoded chunks differ from the shipped vectors (first: sample {stale[0]})"


def test_page_loaded_the_current_kernel_and_model(semantic_page, build_module):
    """A stale build cannot pass: the .wasm and model file the page loaded are the ones built from
    kernel/encoder.c and derived by setup now (the native side's very files)."""
    loaded = semantic_page.evaluate("() => window.raglab.semantic.files")
    wasm = build_module.build_kernel_wasm()
    model = os.path.join(ROOT, ".cache", "encoder", "e5-small-raglab.rle5")
    assert loaded["kernel"] == build_module.sha256_file(wasm), "the page's encoder.wasm is stale; run `python3 build.py build`"
    assert loaded["model"] == build_module.sha256_file(model), "the page's model file is stale; run `python3 build.py build`"


@pytest.mark.parametrize("cfg", CONFIGS, ids=label)
def test_top5_answers_and_citations_are_identical(app_page, native, cfg):
    texts, ids = golden_and_stress()
    native_text = native.ask_many(json.dumps(texts), json.dumps(cfg))
    browser_text = browser_call(app_page, "askMany", texts, cfg)
    assert_same(native_text, browser_text, ids, label(cfg))
    # the fields the promise is about, checked explicitly as well as byte for byte
    for x, y in zip(json.loads(native_text), json.loads(browser_text)):
        if "error" in x:  # an empty stress question gets the same error object on both sides
            assert x == y
            continue
        assert [c["id"] for c in x["chunks"]] == [c["id"] for c in y["chunks"]]
        assert (x["answer"], x["citations"], x["abstained"]) == (y["answer"], y["citations"], y["abstained"])


@pytest.mark.parametrize("cfg", [c for c in CONFIGS if not c["expand"]], ids=label)
def test_raw_scores_before_rounding(app_page, native, cfg, capsys):
    """Scores are ranked after rounding to 12 significant digits; this counts how many of the
    unrounded top-5 scores differ in their last bits between the platforms (expected 0)."""
    texts, ids = golden_and_stress()
    nat = json.loads(native.raw_scores(json.dumps(texts), json.dumps(cfg)))
    brw = json.loads(browser_call(app_page, "rawScores", texts, cfg))
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


def test_semantic_evaluation_table_is_identical(semantic_page, native):
    """The Evaluate tab's compare with the semantic configurations equals native compare byte for byte."""
    options = {"split": "test", "chunker": list(SHIPPED), "retriever": list(ENCODER_RETRIEVERS)}
    native_text, browser_text = browser_and_native(semantic_page, "compare", [options],
                                                   lambda: native.compare(json.dumps(options)))
    if native_text != browser_text:
        diff = first_difference(json.loads(native_text), json.loads(browser_text))
        pytest.fail(f"compare report differs at {diff[0]}: native {diff[1]!r} vs browser {diff[2]!r}", pytrace=False)


def test_evaluation_table_is_identical(app_page, native):
    """The Evaluate tab's compare, run in the browser, equals the native report number for number."""
    options = {"split": "test", "retriever": LEXICAL}
    native_text = native.compare(json.dumps(options))
    browser_text = app_page.evaluate("(o) => window.raglab.raw('compare', o)", options)
    if native_text != browser_text:
        diff = first_difference(json.loads(native_text), json.loads(browser_text))
        pytest.fail(f"compare report differs at {diff[0]}: native {diff[1]!r} vs browser {diff[2]!r}", pytrace=False)


def test_prebuilt_analysis_is_what_pyodide_works_out(app_page, dist_dir):
    """The build analysed the bundled chunks natively and shipped the table; Pyodide
    analyses them afresh here: both give the file whose sha256 the manifest names, and
    the app started with that table installed."""
    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        shipped = json.load(fh)["analysis"]
    fresh = browser_call(app_page, "prebuiltTable").encode("utf-8")
    assert hashlib.sha256(fresh).hexdigest() == shipped["sha256"]
    with open(os.path.join(dist_dir, *shipped["path"].split("/")), "rb") as fh:
        assert fh.read() == fresh
    info = app_page.evaluate("() => window.raglab.info")
    assert info["prebuilt_texts"] == len(json.loads(fresh)["tokens"]) > 0
