"""The BM25 implementations under comparison, behind one small interface.

Each library gets raglab's own token lists, so only indexing and scoring are compared.
`build(terms)` returns an index; `top10(index, query)` returns the ten best chunk
indices, best first, the way a user of that library would ask for them:

- raglab: `BM25.top_scores` (pruned) ranked by `retrieval.top_n`, which is what
  `BM25Retriever.search` does after analyzing the question.
- raglab, exhaustive: every score, then `top_n` (the path before pruning).
- bm25s: `retrieve([query], k=10)`, its public API, one call per query (numpy backend,
  the default without numba; method "lucene", float64 scores so they can be compared).
- bm25s, core: `get_scores` plus a top-10 selection among the non-zero scores, i.e.
  its scoring kernel with a selection that avoids `np.argpartition`'s slow path on
  arrays that are mostly zeros. A caller who tunes bm25s would get this.
- rank_bm25: `BM25Okapi.get_scores` then the selection of its own `get_top_n`
  (`np.argsort(scores)[::-1][:n]`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from raglab.retrieval.bm25 import BM25
from raglab.retrieval.ranking import top_n

K1, B = 1.2, 0.75
N = 10


@dataclass(frozen=True)
class Library:
    key: str
    label: str
    build: Callable[[list[list[str]]], Any]
    top10: Callable[[Any, list[str]], list[int]]


def _ours_top10(index: BM25, query: list[str]) -> list[int]:
    return [h.index for h in top_n(index.top_scores(query, N), N)]


def _ours_exhaustive_top10(index: BM25, query: list[str]) -> list[int]:
    return [h.index for h in top_n(index.scores(query), N)]


def _bm25s_build(terms):
    import bm25s

    index = bm25s.BM25(k1=K1, b=B, method="lucene", dtype="float64")
    index.index(terms, show_progress=False)
    return index


def _bm25s_top10(index, query: list[str]) -> list[int]:
    docs, _ = index.retrieve([query], k=N, show_progress=False)
    return [int(i) for i in docs[0]]


def _bm25s_core_top10(index, query: list[str]) -> list[int]:
    import numpy as np

    known = [t for t in query if t in index.vocab_dict]
    if not known:
        return []
    scores = index.get_scores(known)
    hit = np.flatnonzero(scores)
    if len(hit) > N:
        hit = hit[np.argpartition(scores[hit], -N)[-N:]]
    return [int(i) for i in hit[np.argsort(-scores[hit], kind="stable")]]


def _rank_build(terms):
    from rank_bm25 import BM25Okapi

    return BM25Okapi(terms, k1=K1, b=B)


def _rank_top10(index, query: list[str]) -> list[int]:
    import numpy as np

    scores = index.get_scores(query)
    return [int(i) for i in np.argsort(scores)[::-1][:N]]


LIBRARIES = {
    lib.key: lib
    for lib in (
        Library("raglab", "raglab (pruned top-k)", BM25, _ours_top10),
        Library("raglab-exhaustive", "raglab (exhaustive)", BM25, _ours_exhaustive_top10),
        Library("bm25s", "bm25s retrieve()", _bm25s_build, _bm25s_top10),
        Library("bm25s-core", "bm25s get_scores + top-10", _bm25s_build, _bm25s_core_top10),
        Library("rank_bm25", "rank_bm25 BM25Okapi", _rank_build, _rank_top10),
    )
}


def peer_ranking(scores, n: int = N) -> list[int]:
    """bm25s scores x (k1 + 1), ranked by raglab's rule (12 significant digits, then chunk order)."""
    import numpy as np

    scores = scores * (K1 + 1)
    hit = np.flatnonzero(scores)
    if len(hit) > n:
        cut = float(np.partition(scores[hit], -n)[-n]) * (1 - 1e-9)
        hit = hit[scores[hit] >= cut]
    return [h.index for h in top_n({int(i): float(scores[i]) for i in hit}, n)]
