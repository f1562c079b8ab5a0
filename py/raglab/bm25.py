"""Okapi BM25 over chunks, with an inverted index of precomputed term impacts.

    idf(t)   = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))
    score(q) = sum over query terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))

A term repeated in the query counts once per occurrence, as in rank_bm25 and bm25s.
The (k1 + 1) factor is kept, so scores equal bm25s "lucene" scores times (k1 + 1).
Scores are accumulated term by term in query order and chunk order: the same
floating-point operations in the same order on every platform.
"""

from __future__ import annotations

import math


class BM25:
    def __init__(self, docs_terms: list[list[str]], k1: float = 1.2, b: float = 0.75):
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError("BM25 needs k1 >= 0 and 0 <= b <= 1")
        self.k1, self.b = k1, b
        self.n_docs = len(docs_terms)
        lengths = [len(t) for t in docs_terms]
        total = 0
        for n in lengths:
            total += n
        self.avgdl = total / self.n_docs if self.n_docs else 0.0
        tfs: dict[str, dict[int, int]] = {}
        for i, terms in enumerate(docs_terms):
            for t in terms:
                row = tfs.setdefault(t, {})
                row[i] = row.get(i, 0) + 1
        self.df = {t: len(row) for t, row in tfs.items()}
        # term -> (chunk indices ascending, impacts)
        self.postings: dict[str, tuple[list[int], list[float]]] = {}
        for t in sorted(tfs):
            idf = self.idf(t)
            ids, impacts = [], []
            for i in sorted(tfs[t]):
                tf = tfs[t][i]
                norm = k1 * (1 - b + b * lengths[i] / self.avgdl) if self.avgdl else k1
                ids.append(i)
                impacts.append(idf * tf * (k1 + 1) / (tf + norm))
            self.postings[t] = (ids, impacts)

    def idf(self, term: str) -> float:
        n = self.df.get(term, 0)
        return math.log(1 + (self.n_docs - n + 0.5) / (n + 0.5))

    def scores(self, query_terms: list[str]) -> dict[int, float]:
        """Scores of every chunk that shares a term with the query."""
        acc: dict[int, float] = {}
        for t in query_terms:
            posting = self.postings.get(t)
            if posting is None:
                continue
            for i, w in zip(*posting):
                acc[i] = acc.get(i, 0.0) + w
        return acc
