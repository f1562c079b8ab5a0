"""The BM25 timing that runs unchanged natively and inside Pyodide (pure standard library).

`measure(files, size, n_queries, rounds)` builds the synthetic corpus of `size` chunks
from the article files, indexes it with raglab's BM25 and times the top 10 for each
query (the path `BM25Retriever.search` takes after analysis). It also returns digests
of the token lists and of every query's top 10 (ids and scores), so the native run and
the browser run can be checked to compute exactly the same thing.

Timing is `time.perf_counter` around each query; inside a browser that clock is
coarsened (to 0.1 ms in a page that is not cross-origin isolated), so the mean is
taken from the whole loop and percentiles are only as fine as the clock.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
import time

import synth
from quantile import percentile
from raglab.corpus.articles import parse_corpus
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.ranking import top_n

SEED_CORPUS, SEED_QUERIES = 8, 80


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def measure(files: dict[str, str], size: int = 10_000, n_queries: int = 1000, rounds: int = 3) -> dict:
    clock = time.perf_counter
    docs = parse_corpus(files)
    start = clock()
    corpus = synth.scaled_corpus(docs, size, seed=SEED_CORPUS)
    queries = synth.queries(docs, n_queries, seed=SEED_QUERIES)
    generate_s = clock() - start
    builds = []
    index = None
    for _ in range(rounds):
        index = None
        start = clock()
        index = BM25(corpus.terms)
        builds.append(clock() - start)
    best_total, best_latencies, results = None, None, None
    for _ in range(rounds):
        latencies, found = [], []
        round_start = clock()
        for q in queries:
            start = clock()
            hits = top_n(index.top_scores(q, 10), 10)
            latencies.append(clock() - start)
            found.append(hits)
        total = clock() - round_start
        if best_total is None or total < best_total:
            best_total, best_latencies, results = total, latencies, found
    exhaustive_n = min(len(queries), 200)
    start = clock()
    for q in queries[:exhaustive_n]:
        top_n(index.scores(q), 10)
    exhaustive_s = clock() - start
    return {
        "python": platform.python_version(),
        "platform": sys.platform,
        "chunks": size,
        "queries": len(queries),
        "generate_s": generate_s,
        "build_s": min(builds),
        "mean_ms": 1000 * best_total / len(queries),
        "p50_ms": 1000 * percentile(best_latencies, 50),
        "p99_ms": 1000 * percentile(best_latencies, 99),
        "max_ms": 1000 * max(best_latencies),
        "exhaustive_mean_ms": 1000 * exhaustive_s / exhaustive_n,
        "exhaustive_queries": exhaustive_n,
        "terms_digest": _digest(corpus.terms),
        "top10_digest": _digest([[[h.index, h.score] for h in hits] for hits in results]),
    }


def main() -> None:  # pragma: no cover - used by hand: python3 bench/inside.py
    import os

    from raglab.corpus.articles import read_corpus_files

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    print(json.dumps(measure(read_corpus_files(os.path.join(root, "corpus"))), indent=1))


if __name__ == "__main__":
    main()
