"""`dense`: hashed n-gram vectors with cosine similarity. Lexical-statistical, not semantic.

Each chunk (and each query) becomes a sparse vector of three feature groups:

- ``w``: word unigrams, the analyzer's terms;
- ``b``: word bigrams, two adjacent terms (so "cash out" is more than "cash" + "out");
- ``c``: character n-grams of 3 to 5 code points inside each term, padded with ``<``
  and ``>`` at the word boundaries. They let ``লেনদেনের`` meet ``লেনদেন`` and
  ``recharged`` meet ``recharge`` where the light stemmer stops short. Terms with a
  digit get no n-grams: ``25000`` must not half-match ``2500``. Only the first
  `limits.NGRAM_TERM_CHARS` (32) code points of a term give n-grams (a longer term gets
  no end marker), so a 2,000,000-letter word costs what a 32-letter one does.

A feature is hashed into ``dim`` buckets with ``zlib.crc32`` of its UTF-8 bytes (never
the salted builtin ``hash``). Weights are TF-IDF (``1 + ln tf`` times
``ln((1 + N) / (1 + df)) + 1``); each group is L2-normalised on its own and scaled by
the square root of its group weight, so (when both texts have all three groups) the
cosine of two vectors is the weighted mean of the three per-group cosines. Nothing
here knows what a word *means*: two texts are close only when they share words, word
pairs or pieces of words. The name "dense" is the conventional slot for an embedding
retriever; a real embedding model plugs in through `raglab.retrieval.embedding` instead.

Scores are accumulated in a fixed order (query features sorted, postings in chunk
order), so the same floating-point operations run on every platform.
"""

from __future__ import annotations

import math
import zlib
from array import array
from bisect import bisect_left

from raglab.corpus.chunking import Chunk, index_text
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.ranking import Hit, Query, top_n
from raglab.text.analyzer import analyze, scoped
from raglab.text.limits import NGRAM_TERM_CHARS

DIM = 1 << 20
NGRAMS = (3, 4, 5)
# Group weights: how much each feature group counts in the cosine. Hand-set, then
# checked on the dev split by bench/fit_dense.py (recursive chunks, expansion on; recall@5 /
# MRR@10): words alone 0.861 / 0.671, with bigrams 0.861 / 0.679, with bigrams and character
# n-grams 0.872 / 0.704; character weight 0.5 or 2 instead of 1 did no better. Since the
# chunkers keep headings with their text (first 283 golden questions' dev split, recall@5 / MRR@10):
# words alone 0.719 / 0.562, with bigrams 0.735 / 0.574, with character n-grams 0.750 / 0.599,
# and at character weight 2 0.765 / 0.601, which the rule now picks.
GROUP_WEIGHTS = {"w": 1.0, "b": 0.5, "c": 2.0}
# Chunk scores a computation remembers at most (`term_scores`, 12 bytes each, so some 50 MB; an
# evaluation drops them at each chunker, `analyzer.forget_scoped`): over the bundled sentence
# chunks (1,599) that is 2,500 queries, about as many as a comparison asks of one chunker.
MEMO_SCORES = 4_000_000


def bucket(feature: str, dim: int = DIM) -> int:
    """The stable hash bucket of a feature string (same on every platform)."""
    return zlib.crc32(feature.encode("utf-8")) % dim


def char_ngrams(term: str, sizes: tuple[int, ...] = NGRAMS) -> list[str]:
    """Character n-grams of ``<term>``, shortest size first; none for terms with a digit."""
    for ch in term:
        if "0" <= ch <= "9":
            return []
    padded = "<" + term + ">" if len(term) <= NGRAM_TERM_CHARS else "<" + term[:NGRAM_TERM_CHARS]
    out = []
    for n in sizes:
        for i in range(len(padded) - n + 1):
            out.append(padded[i:i + n])
    return out


def features(terms: list[str]) -> dict[str, list[str]]:
    """The raw (unhashed) features of an analyzed text, by group, in text order."""
    bigrams = [terms[i] + " " + terms[i + 1] for i in range(len(terms) - 1)]
    grams: list[str] = []
    for t in terms:
        grams.extend(char_ngrams(t))
    return {"w": list(terms), "b": bigrams, "c": grams}


class HashedVectorizer:
    """Maps analyzed texts to sparse TF-IDF vectors, fitted on the chunks.

    A vector is a dict {key: weight}; key = group number * dim + bucket, with the groups
    numbered in name order (b, c, w), so sorting keys sorts by group, then bucket.
    """

    GROUPS = ("b", "c", "w")

    def __init__(self, dim: int = DIM, group_weights: dict[str, float] | None = None):
        if dim < 1:
            raise ValueError("dense retriever needs dim >= 1")
        self.dim = dim
        self.group_weights = dict(GROUP_WEIGHTS if group_weights is None else group_weights)
        for group in self.group_weights:
            if group not in self.GROUPS:
                raise ValueError(f"unknown feature group {group!r}; the groups are {', '.join(self.GROUPS)}")
        self._on = {g: self.group_weights.get(g, 0.0) > 0 for g in self.GROUPS}
        self._offset = {g: i * dim for i, g in enumerate(self.GROUPS)}
        # Memos: crc32 of every feature string is the slow part, and the vocabulary is small.
        self._word: dict[str, int] = {}
        self._pair: dict[tuple[str, str], int] = {}
        self._grams: dict[str, tuple[int, ...]] = {}
        self.n_docs = 0
        self.df: dict[int, int] = {}
        self._idf: dict[int, float] = {}

    def _key(self, group: str, feature: str) -> int:
        return self._offset[group] + bucket(group + ":" + feature, self.dim)

    def _counts(self, terms: list[str]) -> dict[int, int]:
        counts: dict[int, int] = {}
        if self._on["w"]:
            for t in terms:
                k = self._word.get(t)
                if k is None:
                    k = self._word[t] = self._key("w", t)
                counts[k] = counts.get(k, 0) + 1
        if self._on["b"]:
            for pair in zip(terms, terms[1:]):
                k = self._pair.get(pair)
                if k is None:
                    k = self._pair[pair] = self._key("b", pair[0] + " " + pair[1])
                counts[k] = counts.get(k, 0) + 1
        if self._on["c"]:
            for t in terms:
                ks = self._grams.get(t)
                if ks is None:
                    ks = self._grams[t] = tuple(self._key("c", g) for g in char_ngrams(t))
                for k in ks:
                    counts[k] = counts.get(k, 0) + 1
        return counts

    def learn(self, docs_terms: list[list[str]]) -> None:
        """Learn document frequencies from the chunks (nothing else is kept of them)."""
        df: dict[int, int] = {}
        for terms in docs_terms:
            for k in self._counts(terms):
                df[k] = df.get(k, 0) + 1
        self.n_docs = len(docs_terms)
        self.df = df
        # Every chunk feature's idf once (the same expression as `idf`, so the same bits):
        # weighing looks it up for every feature of every chunk, and start-up time counts.
        self._idf = {k: math.log((1 + self.n_docs) / (1 + n)) + 1.0 for k, n in df.items()}

    def sparse(self, terms: list[str]) -> tuple[list[int], list[float]]:
        """A text's vector as (sorted keys, weights), with the document frequencies learnt."""
        counts = self._counts(terms)
        keys = sorted(counts)
        return keys, self.weigh(keys, [counts[k] for k in keys])

    def fit(self, docs_terms: list[list[str]]) -> list[dict[int, float]]:
        """Learn document frequencies from the chunks and return their vectors."""
        self.learn(docs_terms)
        return [dict(zip(*self.sparse(terms))) for terms in docs_terms]

    def forget(self) -> None:
        """Drop the memos of the chunks' bigrams and n-grams once the index is built: they
        grow with the corpus's vocabulary, and a query's few features hash fast enough."""
        self._pair.clear()
        self._grams.clear()

    def idf(self, key: int) -> float:
        known = self._idf.get(key)
        return known if known is not None else math.log((1 + self.n_docs) / (1 + self.df.get(key, 0))) + 1.0

    def weigh(self, keys, counts) -> list[float]:
        """The weights of one text's features, `keys` sorted and `counts` aligned with them."""
        raw = [(1.0 + math.log(n)) * self.idf(k) for k, n in zip(keys, counts)]
        norm_sq = [0.0 for _ in self.GROUPS]
        for k, w in zip(keys, raw):
            norm_sq[k // self.dim] += w * w
        scale = [math.sqrt(self.group_weights.get(g, 0.0)) / math.sqrt(n) if n > 0 else 0.0
                 for g, n in zip(self.GROUPS, norm_sq)]
        return [w * scale[k // self.dim] for k, w in zip(keys, raw)]

    def _weigh(self, counts: dict[int, int]) -> dict[int, float]:
        keys = sorted(counts)
        return dict(zip(keys, self.weigh(keys, [counts[k] for k in keys])))

    def transform(self, terms: list[str]) -> dict[int, float]:
        """The vector of a query (unit length per group, scaled by the group weight)."""
        return self._weigh(self._counts(terms))


def _norm(vec: dict[int, float]) -> float:
    total = 0.0
    for key in sorted(vec):
        total += vec[key] * vec[key]
    return math.sqrt(total)


class DenseRetriever:
    """Cosine similarity of hashed n-gram TF-IDF vectors (lexical-statistical, not semantic).

    `bm25` may be passed in when a caller (the hybrid) already built one over the same
    chunks; it supplies `idf` for the answerer, which every retriever shares.
    """

    name = "dense"

    def __init__(self, chunks: list[Chunk], dim: int = DIM, group_weights: dict[str, float] | None = None,
                 docs_terms: list[list[str]] | None = None, bm25: BM25 | None = None):
        terms = docs_terms if docs_terms is not None else [analyze(index_text(c)) for c in chunks]
        self.bm25 = bm25 if bm25 is not None else BM25(terms)
        self.vectorizer = HashedVectorizer(dim, group_weights)
        # Two passes over the analyzed chunks, counting their features twice, so that no
        # chunk's vector is held while the others are counted: the first learns the
        # document frequencies (and so each posting list's length), the second writes.
        self.vectorizer.learn(terms)
        self.size = len(terms)
        df = self.vectorizer.df
        # Every posting list in two flat arrays, feature by feature, chunks ascending within
        # one: 12 bytes a posting and 24 a feature, where a list per feature cost several
        # times that. Feature keys[j] owns ids[starts[j]:ends[j]] and weights[...] (divided
        # by the chunk's norm); `keys` is sorted, for bisection.
        keys = sorted(df)
        starts = array("q", bytes(8 * len(keys)))
        cursor: dict[int, int] = {}
        total = 0
        for j, key in enumerate(keys):
            starts[j] = cursor[key] = total
            total += df[key]
        ids = array("i", bytes(4 * total))
        weights_out = array("d", bytes(8 * total))
        for i, chunk_terms in enumerate(terms):
            chunk_keys, weights = self.vectorizer.sparse(chunk_terms)
            norm_sq = 0.0
            for w in weights:  # keys are sorted: the same order as _norm
                norm_sq += w * w
            norm = math.sqrt(norm_sq)
            if norm <= 0:
                continue
            for key, w in zip(chunk_keys, weights):
                at = cursor[key]
                ids[at] = i
                weights_out[at] = w / norm
                cursor[key] = at + 1
        self.keys = array("q", keys)
        self.starts = starts
        self.ends = array("q", [cursor[key] for key in keys])
        self.ids = ids
        self.weights = weights_out
        self.vectorizer.forget()
        self._digest: str | None = None

    def digest(self) -> str:
        """sha256 of everything a query's scores depend on: the vectorizer's settings and the
        posting arrays (from which its document frequencies come). Two retrievers with the same
        digest score every query alike, whichever built them."""
        if self._digest is None:
            import hashlib

            h = hashlib.sha256(repr((self.vectorizer.dim, sorted(self.vectorizer.group_weights.items()),
                                     self.size, self.vectorizer.n_docs)).encode("utf-8"))
            for part in (self.keys, self.starts, self.ends, self.ids, self.weights):
                h.update(len(part).to_bytes(8, "little"))
                h.update(part)
            self._digest = h.hexdigest()
        return self._digest

    def posting(self, key: int) -> tuple[array, array]:
        """(chunk indices ascending, weights) of one feature key; empty when no chunk has it."""
        j = bisect_left(self.keys, key)
        if j == len(self.keys) or self.keys[j] != key:
            return array("i"), array("d")
        start, end = self.starts[j], self.ends[j]
        return self.ids[start:end], self.weights[start:end]

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def scores(self, query: Query) -> dict[int, float]:
        """Cosine similarity of the query with every chunk that shares a feature."""
        return self.term_scores(analyze(query.full))

    def term_scores(self, terms: list[str]) -> dict[int, float]:
        """`scores` for an already analyzed query. A comparison asks each query of a chunker
        under the dense retriever, the hybrid and the reranker's hybrid, each its own index over
        the same chunks: within one `with memo():` block (`analyzer.scoped`) the scores are
        worked out once per index content (`digest`) and query."""
        remembered = scoped("dense scores")
        if remembered is None:
            return self._term_scores(terms)
        key = (self.digest(), tuple(terms))
        got = remembered.get(key)
        if got is None:
            # Bounded (the page runs comparisons too): at most `size` scores a query.
            if len(remembered) >= max(1, MEMO_SCORES // max(1, self.size)):
                remembered.clear()
            found = self._term_scores(terms)
            got = remembered[key] = (array("i", found), array("d", found.values()))
        return dict(zip(*got))  # the caller's own dict, in chunk order as computed

    def _term_scores(self, terms: list[str]) -> dict[int, float]:
        qvec = self.vectorizer.transform(terms)
        qnorm = _norm(qvec)
        if qnorm <= 0:
            return {}
        # A list indexed by chunk sums faster than a dict. Every weight on both sides is
        # positive (TF and IDF factors are at least 1), so a chunk that shares a feature has a
        # sum above zero and one that shares none stays at 0.0: the dict built from the list
        # holds exactly the chunks a dict accumulator would, with the same sums in the same order.
        acc = [0.0] * self.size
        for key in sorted(qvec):
            ids, weights = self.posting(key)
            if not ids:
                continue
            qw = qvec[key] / qnorm
            for i, w in zip(ids, weights):
                acc[i] += qw * w
        return {i: s for i, s in enumerate(acc) if s}

    def search(self, query: Query, n: int) -> list[Hit]:
        return top_n(self.scores(query), n)
