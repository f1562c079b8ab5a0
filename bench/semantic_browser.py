"""The semantic model in the page, timed against native figures from the same run.

Called by bench/browser_timings.py (its `--semantic-only` option runs just this part):

- bytes added to the site: the kernel (.wasm), the model file and the shipped chunk vectors,
  raw and gzip -9 (what a server that compresses would send);
- semantic ready: `raglab.ready` to the model loaded (fetch, sha256, kernel init, Python's
  tokenizer tables), in fresh browser contexts, from loopback;
- question encode: one golden question's vector (tokenizer in Python + the wasm kernel +
  the worker round trip), against the native library in this process, alternating the two
  per question so that the machine's load falls on both alike;
- submit to rendered answer with a semantic retriever selected in the Ask form;
- own data: chunks encoded in the worker, measured on a sample of the bundled corpus's
  recursive chunks and scaled by their token count to all 39 articles.
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import time

WAIT_SEMANTIC = """() => window.raglab.semanticReady().then(() => [window.raglab.timings.ready,
    window.raglab.timings.semanticReady])"""

TIME_DIGESTS = """async (texts) => {
  const start = performance.now();
  await window.raglab.vectorDigests(texts);
  return performance.now() - start;
}"""


def site_bytes(dist: str) -> dict:
    with open(os.path.join(dist, "manifest.json"), encoding="utf-8") as fh:
        entry = json.load(fh)["encoder"]
    out = {}
    for role in ("kernel", "model", "vectors"):
        with open(os.path.join(dist, *entry[role]["path"].split("/")), "rb") as fh:
            data = fh.read()
        out[role] = {"raw": len(data), "gzip": len(gzip.compress(data, 9))}
    out["total"] = {k: sum(v[k] for v in out.values()) for k in ("raw", "gzip")}
    return out


def semantic_figures(browser, url: str, dist: str, questions: list[str], runs: int = 2,
                     chunk_sample: int = 20) -> dict:
    from raglab.corpus.articles import bundled_corpus_dir, load_corpus
    from raglab.corpus.chunking import chunk_corpus, index_text
    from raglab.encoder import vectors
    from raglab.encoder.native import PASSAGE, QUERY, native_encoder
    from raglab.retrieval.registry import ENCODER_RETRIEVERS
    from raglab.web import api as web

    figures: dict = {"bytes": site_bytes(dist)}
    after = []
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1100, "height": 1400})
        page = context.new_page()
        page.goto(url)
        ready, semantic = page.evaluate(WAIT_SEMANTIC)
        after.append(semantic - ready)
        context.close()
    figures["semantic_ready_after_ready_ms"] = {"runs": [round(x) for x in after],
                                                "median": round(statistics.median(after))}

    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    page.goto(url)
    page.evaluate(WAIT_SEMANTIC)
    enc = native_encoder()
    # answers first: the page keeps every question vector it computes, so each must be new to it
    retriever = ENCODER_RETRIEVERS[0]
    from page_probes import ASK_IN_PAGE  # the same submit-to-rendered measurement

    page.select_option("#retriever", retriever)
    page.evaluate(ASK_IN_PAGE, questions[0])
    rendered, native_ask = [], []
    web.load("bundled", json.dumps(_corpus_files()))
    config = json.dumps({"retriever": retriever})
    web.ask(questions[0], config)
    for q in questions[1:]:
        took, _paint, ok = page.evaluate(ASK_IN_PAGE, q)  # first time asked: its vector is not cached
        if not ok:
            raise SystemExit(f"the page did not show the answer for {q!r}")
        rendered.append(took)
        vectors.native_cache().known.pop(vectors.text_key(QUERY + q), None)  # encoded in the timing, as in the page
        start = time.perf_counter()
        web.ask(q, config)
        native_ask.append((time.perf_counter() - start) * 1000)
    figures["semantic_answer_ms"] = {"retriever": retriever, "n": len(rendered),
                                     "rendered_median": round(statistics.median(rendered), 1),
                                     "native_ask_median": round(statistics.median(native_ask), 1)}

    page.evaluate(TIME_DIGESTS, [QUERY + questions[0]])  # warm both sides once
    enc.encode(QUERY + questions[0])
    wasm, native = [], []
    for q in questions:
        wasm.append(page.evaluate(TIME_DIGESTS, [QUERY + q]))
        start = time.perf_counter()
        enc.encode(QUERY + q)
        native.append((time.perf_counter() - start) * 1000)
    figures["question_encode_ms"] = {"n": len(questions), "chromium_median": round(statistics.median(wasm), 1),
                                     "native_median": round(statistics.median(native), 1),
                                     "ratio": round(statistics.median(wasm) / statistics.median(native), 2)}

    chunks = chunk_corpus(load_corpus(bundled_corpus_dir()), "recursive")
    texts = [PASSAGE + index_text(c) for c in chunks]
    sample = texts[:: max(1, len(texts) // chunk_sample)][:chunk_sample]
    tokens = [len(enc.ids(t)) for t in texts]
    sample_tokens = [len(enc.ids(t)) for t in sample]
    wasm_ms = page.evaluate(TIME_DIGESTS, sample)
    start = time.perf_counter()
    for t in sample:
        enc.encode(t)
    native_ms = (time.perf_counter() - start) * 1000
    scale = sum(tokens) / sum(sample_tokens)
    figures["own_data_recursive_chunks"] = {
        "chunks": len(texts), "tokens": sum(tokens), "sample": len(sample), "sample_tokens": sum(sample_tokens),
        "chromium_sample_s": round(wasm_ms / 1000, 1), "native_sample_s": round(native_ms / 1000, 1),
        "chromium_all_estimate_s": round(wasm_ms * scale / 1000), "native_all_estimate_s": round(native_ms * scale / 1000),
    }
    context.close()
    return figures


def _corpus_files() -> dict:
    from raglab.corpus.articles import bundled_corpus_dir, read_corpus_files

    return read_corpus_files(bundled_corpus_dir())


def print_figures(f: dict) -> None:
    b = f["bytes"]
    mb = lambda n: f"{n / 1e6:.2f} MB"  # noqa: E731
    print(f"semantic model, bytes added: {mb(b['total']['raw'])} raw, {mb(b['total']['gzip'])} gzip "
          f"(model {mb(b['model']['raw'])}, vectors {mb(b['vectors']['raw'])}, kernel {b['kernel']['raw']:,} B)"
          "   [target <= 25 MB]")
    r = f["semantic_ready_after_ready_ms"]
    print(f"semantic ready after ready: median {r['median']} ms (runs {r['runs']})   [target <= 2000 ms]")
    e = f["question_encode_ms"]
    print(f"question encode, {e['n']} golden questions: Chromium median {e['chromium_median']} ms, native "
          f"{e['native_median']} ms (x{e['ratio']})   [target <= 150 ms]")
    a = f["semantic_answer_ms"]
    print(f"answer with {a['retriever']} (submit to rendered), {a['n']} questions: median {a['rendered_median']} ms; "
          f"native ask {a['native_ask_median']} ms   [target <= 250 ms]")
    o = f["own_data_recursive_chunks"]
    print(f"own data: {o['sample']} of {o['chunks']} recursive chunks ({o['sample_tokens']} of {o['tokens']} tokens) "
          f"took {o['chromium_sample_s']} s in Chromium, {o['native_sample_s']} s natively; all 39 articles: "
          f"about {o['chromium_all_estimate_s']} s in the page, {o['native_all_estimate_s']} s natively (one core)")
