"""Hybrid's first stage at scale: BM25 read `DEPTH` deep with the pruned top-k, against
scoring every chunk, on a synthetic corpus of 100,000 chunks (bench/synth.py).

`hybrid` fuses BM25's top 50 with the dense top 50 for each query variant. The BM25
list comes from `BM25.top_scores` (exact scores for a superset of the best n, the
same path the `bm25` retriever takes) rather than `BM25.scores` over every matching
chunk; this checks, for every query, that both give the same ranking, and times
them in alternating rounds (fastest round counts). A report, not a test.

    .venv/bin/python bench/hybrid_first_stage.py [--chunks 100000] [--queries 1000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))
sys.path.insert(0, HERE)

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.retrieval.bm25 import BM25  # noqa: E402
from raglab.retrieval.hybrid import DEPTH  # noqa: E402
from raglab.retrieval.registry import top_n  # noqa: E402
from synth import queries, scaled_corpus  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=100_000, help="synthetic chunks (default 100,000)")
    parser.add_argument("--queries", type=int, default=1000, help="queries (default 1,000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating timing rounds (default 3)")
    args = parser.parse_args()
    docs = load_corpus(os.path.join(os.path.dirname(HERE), "corpus"))
    print(f"generating {args.chunks:,} synthetic chunks and {args.queries:,} queries...", file=sys.stderr, flush=True)
    synthetic = scaled_corpus(docs, args.chunks)
    qs = queries(docs, args.queries)
    print("building BM25...", file=sys.stderr, flush=True)
    bm25 = BM25(synthetic.terms)

    def pruned(q):
        return [h.index for h in top_n(bm25.top_scores(q, DEPTH), DEPTH)]

    def exhaustive(q):
        return [h.index for h in top_n(bm25.scores(q), DEPTH)]

    same = sum(pruned(q) == exhaustive(q) for q in qs)
    best = {"pruned": float("inf"), "exhaustive": float("inf")}
    for r in range(args.rounds):
        for name in (("pruned", "exhaustive") if r % 2 == 0 else ("exhaustive", "pruned")):
            fn = pruned if name == "pruned" else exhaustive
            start = time.perf_counter()
            for q in qs:
                fn(q)
            best[name] = min(best[name], time.perf_counter() - start)
    print(f"{args.chunks:,} chunks, {len(qs):,} queries, BM25 top {DEPTH} per query (hybrid's first stage), "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  identical rankings: {same} of {len(qs)}")
    print(f"  pruned top-k:   {best['pruned'] / len(qs) * 1000:.2f} ms per query")
    print(f"  every chunk:    {best['exhaustive'] / len(qs) * 1000:.2f} ms per query")
    print(f"  speed-up: {best['exhaustive'] / best['pruned']:.1f}x")
    return 0 if same == len(qs) else 1


if __name__ == "__main__":
    sys.exit(main())
