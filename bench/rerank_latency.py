"""Latency of `hybrid-rerank` on the bundled corpus: is reranking one question <= 5 ms?

For every golden question (expanded, as the served default does) it times, natively:

- rerank: the reranker alone, from the first stage's 30 candidates to the top 5;
- search: the whole `hybrid-rerank` search (both first-stage indexes, fusion, rerank).

It prints the median and the 95th percentile in milliseconds and exits with status 1
when the median rerank time is over the budget. Run it from the repository root:

    .venv/bin/python bench/rerank_latency.py [--chunker recursive] [--budget-ms 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from fitting import served_queries  # noqa: E402
from quantile import percentile  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunker", default="recursive", help="chunker to index with (default recursive)")
    parser.add_argument("--budget-ms", type=float, default=5.0, help="median rerank budget (default 5 ms)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per question; the fastest counts")
    args = parser.parse_args()

    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    started = time.perf_counter()
    pipe = Pipeline(docs, Config(chunker=args.chunker, retriever="hybrid-rerank", expand=True))
    build_s = time.perf_counter() - started
    retriever = pipe.retriever
    rerank_ms, search_ms = [], []
    for q, query in zip(questions, served_queries(docs, questions)):
        hits = retriever.first_stage.search(query, retriever.depth)
        best_rerank = best_search = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            retriever.rerank(query, hits, 5)
            t1 = time.perf_counter()
            retriever.search(query, 5)
            t2 = time.perf_counter()
            best_rerank = min(best_rerank, (t1 - t0) * 1000)
            best_search = min(best_search, (t2 - t1) * 1000)
        rerank_ms.append(best_rerank)
        search_ms.append(best_search)
    print(f"{len(pipe.chunks)} chunks ({args.chunker}), index built in {build_s:.2f} s, "
          f"{len(questions)} questions, Python {sys.version.split()[0]}")
    for label, values in (("rerank", rerank_ms), ("search", search_ms)):
        print(f"{label:<7} median {percentile(values, 50):6.2f} ms   p95 {percentile(values, 95):6.2f} ms   "
              f"max {max(values):6.2f} ms")
    ok = percentile(rerank_ms, 50) <= args.budget_ms
    print(f"rerank median {'within' if ok else 'OVER'} the {args.budget_ms:g} ms budget")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
