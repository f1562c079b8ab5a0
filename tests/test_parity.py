"""Parity: the browser (CPython 3.14 in wasm, musl) and native Python (this CPython)
return byte-identical results for every golden question and every configuration.

Both sides run the same facade, `raglab.web.api`, on the same raw corpus files: natively
in this process, and in the browser through the page's `window.raglab.raw`, which
returns Python's JSON text unparsed. Results are collected in one call per
configuration. On a mismatch the failure names the question, the configuration and
the first differing field, native vs browser.
"""

import hashlib
import json
import os

import pytest

from conftest import _load_build_module
from helpers import ROOT, docs, questions
from raglab.corpus.chunking import CHUNKERS, chunk_corpus, index_text
from raglab.encoder.native import PASSAGE, QUERY
from raglab.pipeline import Config
from raglab.retrieval.registry import ENCODER_RETRIEVERS, RETRIEVERS
from raglab.text.analyzer import sentences
from stress_questions import stress_questions

# The page ships the chunk vectors of every chunker: these load with the model, the rest
# (EVALUATION) when an evaluation or a configuration over them first needs them.
_BUILD = _load_build_module()
WITH_MODEL = _BUILD.BROWSER_VECTOR_CHUNKERS
EVALUATION = _BUILD.EVALUATION_VECTOR_CHUNKERS
SHIPPED = WITH_MODEL + EVALUATION
CONFIGS = [{"chunker": c, "retriever": r, "k": 5, "expand": e}
           for c in CHUNKERS for r in RETRIEVERS for e in (False, True)
           if r not in ENCODER_RETRIEVERS or c in SHIPPED]
LEXICAL = [r for r in RETRIEVERS if r not in ENCODER_RETRIEVERS]
# Raw scores (a diagnostic beside the byte-identical answers, which cover every configuration
# above): each retriever once, the chunkers taken in turn so each is seen.
def _chunkers_for(retriever: str) -> list[str]:
    return [c for c in CHUNKERS if retriever not in ENCODER_RETRIEVERS or c in SHIPPED]


RAW_SCORE_CONFIGS = [{"chunker": _chunkers_for(r)[i % len(_chunkers_for(r))], "retriever": r, "k": 5, "expand": False}
                     for i, r in enumerate(RETRIEVERS)]
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


def golden_and_stress(share: tuple[int, int] = (0, 1)):
    """Every golden question and the stress questions; `share` (i, n) keeps the i-th of n
    interleaved parts of the stress set, so that many configurations together still see it all."""
    gold = list(questions())
    part, parts = share
    stress = [(i, t) for i, t in enumerate(stress_questions(list(docs()))) if i % parts == part]
    texts = [q.question for q in gold] + [t for _, t in stress]
    ids = [q.id for q in gold] + [f"stress-{i}" for i, _ in stress]
    return texts, ids


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
    golden and stress question's vector ("query: " + question) is the same in the browser; and 70
    chunks spread over the two shipped stores, encoded again by the page, give exactly the shipped
    vectors (so they are current). One browser call; the native side runs meanwhile."""
    texts, ids = golden_and_stress()
    queries = [QUERY + t for t in texts]
    sample, shipped = shipped_sample(dist_dir)
    native_text, browser_text = browser_and_native(semantic_page, "vectorDigests", [queries + sample],
                                                   lambda: native.vector_digests(json.dumps(queries)))
    nat, brw = json.loads(native_text), json.loads(browser_text)
    assert len(nat) == len(queries) and len(brw) == len(queries) + len(sample) == len(texts) + 70
    differ = [ids[i] for i, (a, b) in enumerate(zip(nat, brw)) if a != b]
    assert not differ, f"{len(differ)} query vectors differ between native and browser, first {differ[:5]}"
    stale = [i for i, (a, b) in enumerate(zip(shipped, brw[len(queries):])) if a != b]
    assert not stale, f"{len(stale)} of 70 re-encoded chunks differ from the shipped vectors (first: sample {stale[0]})"


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


# Each configuration asks every golden question and a third of the stress set (the thirds
# taken in turn), so every stress question still meets every retriever and every chunker
# while the browser answers 383 questions a configuration instead of 583.
STRESS_PARTS = 3


@pytest.mark.parametrize("cfg", CONFIGS, ids=label)
def test_top5_answers_and_citations_are_identical(app_page, native, cfg):
    texts, ids = golden_and_stress((CONFIGS.index(cfg) % STRESS_PARTS, STRESS_PARTS))
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


@pytest.mark.parametrize("cfg", RAW_SCORE_CONFIGS, ids=label)
def test_raw_scores_before_rounding(app_page, native, cfg, capsys):
    """Scores are ranked after rounding to 12 significant digits; this counts how many of the
    unrounded top-5 scores differ in their last bits between the platforms (expected 0)."""
    texts, ids = golden_and_stress()
    native_text, browser_text = browser_and_native(app_page, "rawScores", [texts, cfg],
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


def assert_same_report(page, native, options):
    native_text, browser_text = browser_and_native(page, "compare", [options],
                                                   lambda: native.compare(json.dumps(options)))
    if native_text != browser_text:
        diff = first_difference(json.loads(native_text), json.loads(browser_text))
        pytest.fail(f"compare report differs at {diff[0]}: native {diff[1]!r} vs browser {diff[2]!r}", pytrace=False)


# The per-question answers of every configuration are compared above; these two compare the
# evaluation's own arithmetic (metrics, intervals, tuning, attribution, findings) over it.
def test_default_evaluation_table_is_identical(semantic_page, native):
    """The Evaluate tab's default run (every chunker, BM25 and the served retriever, both
    expansions: the sentence chunker's vectors come from the evaluation's own store) equals
    native compare byte for byte."""
    served = Config()
    assert_same_report(semantic_page, native, {"split": "test", "retriever": ["bm25", served.retriever], "k": served.k,
                                               "baseline": served.label, "per_question": True})


def test_evaluation_table_of_every_lexical_retriever_is_identical(app_page, native):
    """The served chunker with every retriever that needs no encoder, as the Evaluate tab runs it."""
    assert_same_report(app_page, native, {"split": "test", "chunker": Config().chunker, "retriever": LEXICAL})


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
