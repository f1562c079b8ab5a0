"""The retriever interface, its optional abilities, and the registry of retrievers.

A retriever is built over a list of chunks and answers `search(query, n)` with at
most n hits, best first, for a `ranking.Query`. The ranking primitives (`Hit`,
`top_n`, `index_text`) live in the leaf module `ranking`, so every retriever imports
from there and this module imports every retriever at the top: imports point one way.

A new retriever: write its module (import from `ranking`), then add one line to
`RETRIEVERS` below.
"""

from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from raglab.corpus.chunking import Chunk, index_text
from raglab.retrieval.bilingual import BilingualRetriever
from raglab.retrieval.dense import DenseRetriever
from raglab.retrieval.hybrid import DEPTH as HYBRID_DEPTH
from raglab.retrieval.hybrid import HybridRetriever
from raglab.retrieval.lexical import weighted_text
from raglab.retrieval.prebuilt import bm25_of
from raglab.retrieval.ranking import Hit, Query, top_n
from raglab.retrieval.rerank import RerankRetriever
from raglab.retrieval.semantic import FusionRetriever, SemanticRetriever


class Retriever(Protocol):
    name: str

    def search(self, query: Query, n: int) -> list[Hit]: ...

    def idf(self, term: str) -> float: ...


@runtime_checkable
class HasFirstStage(Protocol):
    """Optional: a two-stage retriever exposes the retriever whose candidates it reorders.

    Failure attribution in the evaluation takes its pool from the first stage, so a
    miss can be told apart as "never retrieved" or "retrieved but ranked too low"."""

    first_stage: Retriever


@runtime_checkable
class HasScores(Protocol):
    """Optional: the unrounded score of every matching chunk (the browser's parity
    report shows their last bits; retrievers that only rank do without)."""

    def scores(self, query: Query) -> dict[int, float]: ...


def first_stage(retriever: Retriever) -> Retriever:
    """The retriever whose candidates `retriever` reorders; itself for a one-stage retriever."""
    return retriever.first_stage if isinstance(retriever, HasFirstStage) else retriever


class BM25Retriever:
    name = "bm25"

    def __init__(self, chunks: list[Chunk], k1: float = 1.2, b: float = 0.75):
        self.bm25 = bm25_of([index_text(c) for c in chunks], k1=k1, b=b)  # from the build's counts when shipped

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def scores(self, query: Query) -> dict[int, float]:
        """Unrounded scores of every matching chunk (the parity test reports their last bits)."""
        return self.bm25.scores(*weighted_text(self.bm25, query.full))

    def search(self, query: Query, n: int) -> list[Hit]:
        # top_scores returns exact scores for a superset of the n best: same hits as scores().
        terms, weights = weighted_text(self.bm25, query.full)
        return top_n(self.bm25.top_scores(terms, n, weights), n)


# The deepest k a retriever ranks in full. The fused retrievers read each of their
# rankings `hybrid.DEPTH` deep (the reranker reorders the fusion's top), so past that they
# return a shorter list, not a ranking of k: a larger k is refused rather than reported
# under a cut it did not use. BM25 and dense rank every chunk that shares a term.
MAX_K: dict[str, int] = {"hybrid": HYBRID_DEPTH, "hybrid-rerank": HYBRID_DEPTH}


def check_k_for(retriever: str, k: int) -> None:
    limit = MAX_K.get(retriever)
    if limit is not None and k > limit:
        raise ValueError(f"k = {k:,} is more than {retriever} ranks: it fuses rankings read {limit} deep, "
                         f"so k can be at most {limit}; use -k {limit} or less (bm25 and dense rank deeper)")


RETRIEVERS: dict[str, Callable[[list[Chunk]], Retriever]] = {
    "bm25": BM25Retriever,
    "dense": DenseRetriever,  # hashed word and character n-grams: lexical-statistical, not semantic
    "hybrid": HybridRetriever,  # reciprocal rank fusion of bm25 and dense
    "hybrid-rerank": RerankRetriever,  # hybrid top 30, reordered by a query-aware lexical reranker
    "semantic": SemanticRetriever,  # multilingual-e5-small cosine (needs the encoder's kernel)
    "bm25-semantic": FusionRetriever,  # weighted fusion of bm25 and semantic
    "bilingual": BilingualRetriever,  # bm25-semantic with the two languages on one footing
}
# Retrievers that need the encoder kernel: the browser offers them once it has the kernel too.
ENCODER_RETRIEVERS = ("semantic", "bm25-semantic", "bilingual")
# Retrievers whose fitted values depend on the chunker (bilingual's opening-chunk penalty),
# built by these factories instead, told the chunker.
CHUNKER_AWARE: dict[str, Callable[[list[Chunk], str | None], Retriever]] = {
    "bilingual": lambda chunks, chunker: BilingualRetriever(chunks, chunker=chunker),
}


def build_retriever(name: str, chunks: list[Chunk], chunker: str | None = None) -> Retriever:
    """The retriever `name` over `chunks`, cut by `chunker` (when known)."""
    try:
        factory = RETRIEVERS[name]
    except KeyError:
        raise ValueError(f"unknown retriever {name!r}; choose one of: {', '.join(RETRIEVERS)}") from None
    aware = CHUNKER_AWARE.get(name)
    return aware(chunks, chunker) if aware else factory(chunks)
