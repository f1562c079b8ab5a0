"""The semantic retrievers: e5-small cosine alone, and fused with BM25.

- ``semantic``: the cosine of the question's vector (``"query: "`` + question) and each
  chunk's (``"passage: "`` + heading path + chunk text, what the lexical retrievers index).
- ``bm25-semantic``: a weighted sum of the two signals, each scaled to [0, 1] within the
  query — cosine by min–max over the chunks, BM25 by its best score — so that neither
  scale dominates by accident:  ``w · cos' + (1 − w) · bm25'``.  The weight is fitted on
  the dev splits (ours and the external sets' dev halves) by ``bench/fit_fusion.py`` and
  read from ``data/fusion.json``. Unlike reciprocal-rank fusion it keeps how *much* better
  the encoder finds one chunk, which is what carries it on strangers' questions.

With query expansion on, only BM25 sees the appended phrases: the encoder reads the
customer's own question (expansion phrases are keywords, not a sentence e5 was trained
on), and its vector is then the one cached for that question.

Scores are float32 cosines from the kernel, widened to Python floats and rounded by
`top_n` like every other retriever's, ties broken by chunk order.
"""

from __future__ import annotations

import json

from raglab.corpus.chunking import Chunk, index_text
from raglab.encoder import PASSAGE, QUERY
from raglab.retrieval.lexical import LastQuery, weighted_text
from raglab.retrieval.prebuilt import bm25_of
from raglab.retrieval.ranking import Hit, Query, top_n
from raglab.text.analyzer import normalize
from raglab.text.tables import read_table

FUSION_TABLE = "fusion.json"
RECENT = 4  # texts whose cosines `SemanticRetriever.text_scores` keeps


def fusion_weight() -> float:
    """The semantic share of `bm25-semantic`, as fitted on dev (data/fusion.json)."""
    table = json.loads(read_table(FUSION_TABLE))
    return float(table["semantic_weight"])


def _native_cache():
    from raglab.encoder.vectors import (
        native_cache,  # native only: the browser passes its own cache
    )

    return native_cache()


def cosines(question: str, texts: list[str], cache=None) -> list[float]:
    """Cosine of a question (encoded as ``"query: " + question``) with each text (encoded as
    ``"passage: " + text``, e.g. a sentence of a chunk), through the vector cache: the
    bundled corpus's chunks and recursive-chunk sentences are shipped, others are encoded
    once and cached. For the answerer."""
    cache = cache or _native_cache()
    vector = cache.get([reading(question)], keep=False)
    return [float(x) for x in cache.encoder.dots(vector, cache.get([PASSAGE + t for t in texts]))]


class SemanticRetriever:
    """Cosine ranking over the chunks' cached vectors. `cache` is a `vectors.VectorCache`."""

    name = "semantic"

    def __init__(self, chunks: list[Chunk], cache=None):
        self.cache = cache = cache or _native_cache()
        self.bm25 = bm25_of([index_text(c) for c in chunks])  # from the build's counts when shipped
        self.matrix = cache.get([PASSAGE + index_text(c) for c in chunks], progress=len(chunks) > 200)
        self.recent: dict[str, dict[int, float]] = {}  # `text_scores` of the last RECENT texts

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def scores(self, query: Query) -> dict[int, float]:
        return self.text_scores(query.text)

    def query_texts(self, query: Query) -> list[str]:
        """What the encoder reads for `query` (the page encodes these ahead, side by side)."""
        return [reading(query.text)]

    def text_scores(self, text: str) -> dict[int, float]:
        """The cosine of every chunk with ``"query: " + text``. The last few texts' are handed
        out again (callers only read them): one ask reads the question, its translated
        reading and, looking for a twin in the question's language, the question again."""
        got = self.recent.get(text)
        if got is None:
            vector = self.cache.get([reading(text)], keep=False)
            got = {i: float(s) for i, s in enumerate(self.cache.encoder.dots(vector, self.matrix))}
            if len(self.recent) >= RECENT:
                del self.recent[next(iter(self.recent))]  # the oldest: a dict keeps insertion order
            self.recent[text] = got
        return got

    def search(self, query: Query, n: int) -> list[Hit]:
        return top_n(self.scores(query), n)


def reading(text: str) -> str:
    """What the encoder reads for a question's text: ``"query: "`` and the text in NFC, like the
    corpus (a question typed with ে + া must meet the same vector as ো)."""
    return QUERY + normalize(text)


def fuse(cosines: dict[int, float], bm25: dict[int, float], weight: float) -> dict[int, float]:
    """w · (min–max scaled cosine) + (1 − w) · (BM25 / best BM25), for every chunk.

    >>> fuse({0: 0.5, 1: 0.75, 2: 0.25}, {2: 4.0, 0: 2.0}, 0.5)
    {0: 0.5, 1: 0.5, 2: 0.5}
    """
    return mix(scaled(cosines, bm25), weight)


def scaled(cosines: dict[int, float], bm25: dict[int, float]) -> list[tuple[int, float, float]]:
    """(chunk, min–max scaled cosine, BM25 / best BM25) for every chunk in order: what `fuse`
    mixes, worked out once where one query is fused at several weights (`bilingual`)."""
    lo = min(cosines.values()) if cosines else 0.0
    span = max(cosines.values()) - lo if cosines else 0.0
    top = max(bm25.values()) if bm25 else 0.0
    return [(i, (cosines[i] - lo) / span if span > 0 else 0.0, bm25.get(i, 0.0) / top if top > 0 else 0.0)
            for i in sorted(cosines)]


def mix(parts: list[tuple[int, float, float]], weight: float) -> dict[int, float]:
    """The fused score of each chunk of `scaled` parts at `weight`."""
    rest = 1.0 - weight
    return {i: weight * c + rest * b for i, c, b in parts}


class FusionRetriever:
    """`bm25-semantic`: BM25 and e5 cosine in one weighted score."""

    name = "bm25-semantic"

    def __init__(self, chunks: list[Chunk], cache=None, weight: float | None = None):
        self.semantic = SemanticRetriever(chunks, cache)
        self.bm25 = self.semantic.bm25
        self.weight = fusion_weight() if weight is None else weight
        self.lexical_scores = LastQuery(lambda q: self.bm25.scores(*weighted_text(self.bm25, q.full)))

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def query_texts(self, query: Query) -> list[str]:
        return self.semantic.query_texts(query)

    def scores(self, query: Query) -> dict[int, float]:
        return fuse(self.semantic.scores(query), self.lexical_scores(query), self.weight)

    def search(self, query: Query, n: int) -> list[Hit]:
        return top_n(self.scores(query), n)
