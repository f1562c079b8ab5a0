"""`hybrid`: reciprocal rank fusion (RRF) of BM25 and the hashed n-gram retriever.

    rrf(d) = sum over rankings r that contain d of 1 / (k + rank_r(d)),   rank from 1

RRF uses ranks only, so BM25's unbounded scores and the dense cosines in [0, 1] never
need calibrating against each other. With the usual k = 60, an item 1st in one list
and 3rd in the other scores 1/61 + 1/63 = 0.03227 and loses to one 2nd and 1st at
1/62 + 1/61 = 0.03252: agreement near the top beats a single first place.
"""

from __future__ import annotations

from .analyzer import analyze
from .bm25 import BM25
from .chunking import Chunk
from .dense import DenseRetriever
from .retrieval import Hit, index_text, top_n

RRF_K = 60
DEPTH = 50  # how deep each ranking is read before fusing


def rrf(rankings: list[list[int]], k: int = RRF_K) -> dict[int, float]:
    """Fused scores of the items in `rankings` (each a list of item ids, best first).

    Contributions are added in ranking order, then rank order: a fixed sequence of
    floating-point additions.
    """
    if k < 0:
        raise ValueError("RRF needs k >= 0")
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, 1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused


class HybridRetriever:
    """BM25 and dense, each read `depth` deep, fused by RRF. Both indexes are built once."""

    name = "hybrid"

    def __init__(self, chunks: list[Chunk], k: int = RRF_K, depth: int = DEPTH):
        if depth < 1:
            raise ValueError("hybrid retriever needs depth >= 1")
        terms = [analyze(index_text(c)) for c in chunks]  # analyzed once, shared by both indexes
        self.bm25 = BM25(terms)
        self.dense = DenseRetriever(chunks, docs_terms=terms, bm25=self.bm25)
        self.k, self.depth = k, depth

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def rankings(self, query: str, depth: int | None = None) -> list[list[int]]:
        """The BM25 ranking and the dense ranking (chunk indices), each `depth` long."""
        d = depth or self.depth
        lexical = top_n(self.bm25.scores(analyze(query)), d)
        return [[h.index for h in lexical], [h.index for h in self.dense.search(query, d)]]

    def scores(self, query: str) -> dict[int, float]:
        return rrf(self.rankings(query), self.k)

    def search(self, query: str, n: int) -> list[Hit]:
        return top_n(self.scores(query), n)
