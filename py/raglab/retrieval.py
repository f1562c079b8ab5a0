"""The retriever interface and the registry of retrievers, selectable by name.

A retriever is built over a list of chunks and answers `search(query, n)` with at
most n hits, best first. Ranking uses scores rounded to 12 significant digits and
breaks ties by chunk order, so a last-bit difference in `math.log` between
platforms cannot reorder results.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable, Protocol

from .analyzer import analyze
from .bm25 import BM25
from .chunking import Chunk


@dataclass(frozen=True)
class Hit:
    index: int  # position of the chunk in the chunk list
    score: float  # already rounded with `rounded`


def rounded(score: float) -> float:
    return float(f"{score:.12g}")


def top_n(scores: dict[int, float], n: int) -> list[Hit]:
    """The n best hits by rounded score, ties broken by chunk order."""
    keyed = [(-rounded(s), i) for i, s in scores.items()]
    return [Hit(i, -neg) for neg, i in heapq.nsmallest(n, keyed)]


def index_text(chunk: Chunk) -> str:
    """What gets indexed: the heading path, then the chunk text (spans still refer to the text)."""
    return " \n".join(chunk.heading) + " \n" + chunk.text


class Retriever(Protocol):
    name: str

    def search(self, query: str, n: int) -> list[Hit]: ...

    def idf(self, term: str) -> float: ...


class BM25Retriever:
    name = "bm25"

    def __init__(self, chunks: list[Chunk], k1: float = 1.2, b: float = 0.75):
        self.bm25 = BM25([analyze(index_text(c)) for c in chunks], k1=k1, b=b)

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def scores(self, query: str) -> dict[int, float]:
        """Unrounded scores of every matching chunk (the parity test reports their last bits)."""
        return self.bm25.scores(analyze(query))

    def search(self, query: str, n: int) -> list[Hit]:
        # top_scores returns exact scores for a superset of the n best: same hits as scores().
        return top_n(self.bm25.top_scores(analyze(query), n), n)


def _dense(chunks: list[Chunk]) -> Retriever:
    from .dense import DenseRetriever  # imported late: dense.py imports this module

    return DenseRetriever(chunks)


def _hybrid(chunks: list[Chunk]) -> Retriever:
    from .hybrid import HybridRetriever

    return HybridRetriever(chunks)


def _hybrid_rerank(chunks: list[Chunk]) -> Retriever:
    from .rerank import RerankRetriever

    return RerankRetriever(chunks)


def _semantic(chunks: list[Chunk]) -> Retriever:
    from .semantic import SemanticRetriever

    return SemanticRetriever(chunks)


def _bm25_semantic(chunks: list[Chunk]) -> Retriever:
    from .semantic import FusionRetriever

    return FusionRetriever(chunks)


RETRIEVERS: dict[str, Callable[[list[Chunk]], Retriever]] = {
    "bm25": BM25Retriever,
    "dense": _dense,  # hashed word and character n-grams: lexical-statistical, not semantic
    "hybrid": _hybrid,  # reciprocal rank fusion of bm25 and dense
    "hybrid-rerank": _hybrid_rerank,  # hybrid top 30, reordered by a query-aware lexical reranker
    "semantic": _semantic,  # multilingual-e5-small cosine (needs the encoder's kernel)
    "bm25-semantic": _bm25_semantic,  # weighted fusion of bm25 and semantic
}
# Retrievers that need the encoder kernel: the browser offers them once it has the kernel too.
ENCODER_RETRIEVERS = ("semantic", "bm25-semantic")


def build_retriever(name: str, chunks: list[Chunk]) -> Retriever:
    try:
        factory = RETRIEVERS[name]
    except KeyError:
        raise ValueError(f"unknown retriever {name!r}; choose one of: {', '.join(RETRIEVERS)}") from None
    return factory(chunks)
