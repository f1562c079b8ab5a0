"""Where model-based retrievers plug in (native only; never imported by the browser).

The retrievers the browser runs are pure standard library. A real embedding model or
cross-encoder needs compiled libraries and weights, so it lives here, behind two small
protocols, and is imported only by a caller that asks for it:

- `Encoder`: ``encode(texts) -> list of vectors``. `EmbeddingRetriever` ranks chunks by
  the cosine of their vectors with the query's (a *semantic* retriever, unlike `dense`).
- `PairScorer`: ``score(query, texts) -> list of floats``, a cross-encoder that reads
  the query and each candidate together. `ModelRerankRetriever` reorders the hybrid's
  top candidates with it and exposes `first_stage` like `hybrid-rerank`.

Both keep the retriever interface (``name``, ``search(query, n)``, ``idf(term)`` from
BM25, ranking through `retrieval.top_n`), so the pipeline and `raglab compare` treat
them like any other retriever once `register` has added them to `RETRIEVERS`.

The one concrete example, `WordLlamaEncoder`, uses the `wordllama` package from PyPI,
which ships its 256-dimension weights and tokenizer inside the wheel (no download at
run time). It is English-centred: Bangla text reaches it as byte-level tokens, so expect
little from it on Bangla questions. Install it with ``pip install wordllama``; when it
is missing, `ModelUnavailable` says so, and its test is skipped.
"""

from __future__ import annotations

import math
import os
from typing import Callable, Protocol

from raglab.corpus.chunking import Chunk, index_text
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.hybrid import HybridRetriever
from raglab.retrieval.ranking import Hit, Query, top_n
from raglab.retrieval.registry import RETRIEVERS, Retriever
from raglab.text.analyzer import analyze


class ModelUnavailable(RuntimeError):
    """The model's package is not installed; the message says what to install."""


class Encoder(Protocol):
    name: str

    def encode(self, texts: list[str]) -> list[list[float]]: ...


class PairScorer(Protocol):
    name: str

    def score(self, query: str, texts: list[str]) -> list[float]: ...


def _unit(vec: list[float]) -> list[float]:
    norm = math.sqrt(math.fsum(x * x for x in vec))
    return [x / norm for x in vec] if norm > 0 else [0.0 for _ in vec]


def _dot(a: list[float], b: list[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b))


class EmbeddingRetriever:
    """Cosine similarity of model embeddings of the indexed text (heading path + chunk)."""

    def __init__(self, chunks: list[Chunk], encoder: Encoder, batch: int = 64):
        self.encoder = encoder
        self.name = f"embedding-{encoder.name}"
        self.bm25 = BM25([analyze(index_text(c)) for c in chunks])
        texts = [index_text(c) for c in chunks]
        self.vectors: list[list[float]] = []
        for i in range(0, len(texts), batch):
            self.vectors.extend(_unit([float(x) for x in v]) for v in encoder.encode(texts[i:i + batch]))

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def search(self, query: Query, n: int) -> list[Hit]:
        q = _unit([float(x) for x in self.encoder.encode([query.full])[0]])
        return top_n({i: _dot(q, v) for i, v in enumerate(self.vectors)}, n)


class ModelRerankRetriever:
    """The hybrid's top `depth` candidates, reordered by a cross-encoder's scores."""

    def __init__(self, chunks: list[Chunk], scorer: PairScorer, depth: int = 30):
        self.scorer = scorer
        self.name = f"hybrid-{scorer.name}"
        self.first_stage = HybridRetriever(chunks)
        self.texts = [index_text(c) for c in chunks]
        self.depth = depth

    def idf(self, term: str) -> float:
        return self.first_stage.idf(term)

    def search(self, query: Query, n: int) -> list[Hit]:
        hits = self.first_stage.search(query, max(n, self.depth))
        scores = self.scorer.score(query.full, [self.texts[h.index] for h in hits])
        return top_n({h.index: float(s) for h, s in zip(hits, scores)}, n)


class WordLlamaEncoder:
    """WordLlama's bundled 256-dimension static embeddings (English-centred).

    The model is built from the two files inside the wheel (weights and tokenizer), not
    with ``WordLlama.load``, which looks for the tokenizer in another folder and then
    tries to download it: this example must never touch the network.
    """

    name = "wordllama"
    WEIGHTS = "weights/l2_supercat_256.safetensors"
    TOKENIZER = "l2_supercat_tokenizer_config.json"

    def __init__(self):
        try:  # lazy: compiled packages, and the weights are read at construction
            import wordllama
            from safetensors import safe_open
            from wordllama.inference import WordLlamaInference
            from wordllama.tokenizers import tokenizer_from_file
        except ImportError:
            raise ModelUnavailable(
                "the embedding example needs the 'wordllama' package: pip install wordllama") from None
        root = os.path.dirname(os.path.abspath(wordllama.__file__))
        weights = os.path.join(root, *self.WEIGHTS.split("/"))
        if not os.path.exists(weights):
            raise ModelUnavailable(f"this wordllama install has no bundled weights at {weights}; "
                                   "install a wordllama wheel that ships them (0.4.x does)")
        with safe_open(weights, framework="np", device="cpu") as fh:
            embedding = fh.get_tensor("embedding.weight")
        self.model = WordLlamaInference(embedding, tokenizer_from_file(self.TOKENIZER), binary=False)

    def encode(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in self.model.embed(texts)]


def register(name: str, factory: Callable[[list[Chunk]], Retriever]) -> None:
    """Make a model retriever selectable by name (natively) in the pipeline and compare."""
    if name in RETRIEVERS:
        raise ValueError(f"a retriever named {name!r} already exists; pick another name")
    RETRIEVERS[name] = factory
