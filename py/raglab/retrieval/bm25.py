"""Okapi BM25 over chunks, with an inverted index of precomputed term impacts.

    idf(t)   = ln(1 + (N - n_t + 0.5) / (n_t + 0.5))
    score(q) = sum over query terms t of idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))

A term repeated in the query counts once per occurrence, as in rank_bm25 and bm25s.
The (k1 + 1) factor is kept, so scores equal bm25s "lucene" scores times (k1 + 1).
A chunk's score is accumulated term by term in query order, starting from 0.0:
the same floating-point operations in the same order on every platform and on
every code path below.

Two ways to score a query:

- `scores(query_terms)`: every chunk that shares a term with the query (exhaustive).
- `top_scores(query_terms, n)`: the same exact scores, but only for a small set of
  chunks that provably contains the n best. It is a term-at-a-time MaxScore: each
  term's largest impact bounds what that term can add to any chunk, so once the
  n-th best score found so far exceeds what the remaining (frequent, low-idf) terms
  could add together, chunks that have none of the rarer terms cannot make the top
  n, and those terms' long postings are only consulted for the few candidates left.
  Ranking its result with `retrieval.top_n` gives exactly the hits (ids, order and
  scores) that ranking `scores()` gives; tests/test_bm25.py checks this. The bounds
  rely on every impact being positive, which BM25's idf (always > 0) guarantees.
  Small queries, and queries whose long postings all turn out to be needed, are
  scored exhaustively instead, because pruning would cost more than it saves.
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from operator import add, truediv

from raglab.text.fuzzy import Fuzzy

# Relative safety margin of every pruning test. Pruning compares bounds that are
# summed in another order than the exact scores and ranking compares scores
# rounded to 12 significant digits; both move a value by far less than 1e-10 of
# itself, so a chunk is dropped only when it trails by more than that.
_SLACK = 1e-9
# Rough costs, in units of one posting scanned into a dict: looking one chunk up in
# a posting list by binary search, and scanning a posting into a lookup dict.
_LOOKUP_COST = 4.0
_DICT_COST = 0.6
# Up to this many postings in all, a query is scored exhaustively: pruning would cost
# more than it saves.
_SMALL = 2048
# Above this share of the query's postings that must be scanned anyway, skip pruning.
_EXHAUSTIVE_SHARE = 0.75


def counts(docs_terms: Iterable[list[str]]) -> tuple[list[int], dict[str, list[int]], dict[str, list[int]]]:
    """The integer parts of the index: each chunk's length in terms, and per term the chunks
    that hold it (ascending) with its frequency in each.

    >>> counts([["fee", "agent", "fee"], ["agent"]])
    ([3, 1], {'fee': [0], 'agent': [0, 1]}, {'fee': [2], 'agent': [1, 1]})
    """
    # Term frequencies per chunk, counted by Counter (in C); chunks are visited in
    # order, so every posting list comes out sorted by chunk index.
    ids_of: dict[str, list[int]] = {}
    tfs_of: dict[str, list[int]] = {}
    lengths: list[int] = []
    # `docs_terms` may be a generator: each chunk's terms are dropped once counted, so a
    # big corpus never holds every chunk's analysed words at once.
    for i, terms in enumerate(docs_terms):
        lengths.append(len(terms))
        for t, tf in Counter(terms).items():
            ids = ids_of.get(t)
            if ids is None:
                ids_of[t] = [i]
                tfs_of[t] = [tf]
            else:
                ids.append(i)
                tfs_of[t].append(tf)
    return lengths, ids_of, tfs_of


class BM25:
    """The index: `postings[term] = (chunk indices ascending, impacts)`, `df`, `max_impact`."""

    def __init__(self, docs_terms: Iterable[list[str]], k1: float = 1.2, b: float = 0.75):
        self._index(*counts(docs_terms), k1, b, owned=True)

    @classmethod
    def from_counts(cls, lengths: list[int], ids_of: dict[str, list[int]], tfs_of: dict[str, list[int]],
                    k1: float = 1.2, b: float = 0.75) -> "BM25":
        """The index from the integer parts `counts` returns (chunk lengths, and per term the
        chunks that hold it with its frequency in each), e.g. as prebuilt by the build: the
        floats are computed here by the same code as from the terms, so the index is the same."""
        index = cls.__new__(cls)
        index._index(lengths, ids_of, tfs_of, k1, b)
        return index

    def _index(self, lengths: list[int], ids_of: dict[str, list[int]], tfs_of: dict[str, list[int]],
               k1: float, b: float, owned: bool = False) -> None:
        """The floats from the counts. Postings are kept as flat arrays (4 bytes a chunk
        index, 8 an impact: the same doubles, read back exactly) instead of lists of Python
        numbers (about 60 bytes a posting); `owned` counts are freed term by term as they
        are turned into postings."""
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError("BM25 needs k1 >= 0 and 0 <= b <= 1")
        self.k1, self.b = k1, b
        # The fuzzy index of the vocabulary and its answers, built on first use by
        # `retrieval.lexical` (most queries never need them).
        self._fuzzy: Fuzzy | None = None
        self._fuzzy_memo: dict[tuple[str, str | None], list[tuple[str, float]]] = {}
        self.n_docs = len(lengths)
        total = 0
        for n in lengths:
            total += n
        self.avgdl = total / self.n_docs if self.n_docs else 0.0
        self.df = {t: len(ids) for t, ids in ids_of.items()}
        norms = [k1 * (1 - b + b * n / self.avgdl) if self.avgdl else k1 for n in lengths]
        self.postings: dict[str, tuple[array, array]] = {}
        self.max_impact: dict[str, float] = {}
        for t in sorted(ids_of):
            ids, tfs = (ids_of.pop(t), tfs_of.pop(t)) if owned else (ids_of[t], tfs_of[t])
            idf = self.idf(t)
            # impact = idf * tf * (k1 + 1) / (tf + norm), evaluated left to right as
            # written; the numerator depends only on tf, so it is computed once per tf.
            top = 0
            for tf in tfs:
                if tf > top:
                    top = tf
            numerators = [idf * tf * (k1 + 1) for tf in range(top + 1)]
            impacts = array("d", map(truediv, map(numerators.__getitem__, tfs), map(add, tfs, map(norms.__getitem__, ids))))
            self.postings[t] = (array("i", ids), impacts)
            self.max_impact[t] = max(impacts)

    def idf(self, term: str) -> float:
        n = self.df.get(term, 0)
        return math.log(1 + (self.n_docs - n + 0.5) / (n + 0.5))

    def scores(self, query_terms: list[str], weights: list[float] | None = None) -> dict[int, float]:
        """Scores of every chunk that shares a term with the query. `weights`, one per query
        term, scale each term's impacts (a fuzzy match counts less than the word typed);
        without them every term weighs 1, and the additions are those of plain BM25."""
        acc: dict[int, float] = {}
        get = acc.get
        for n, t in enumerate(query_terms):
            posting = self.postings.get(t)
            if posting is None:
                continue
            if weights is None or weights[n] == 1.0:
                for i, w in zip(*posting):
                    acc[i] = get(i, 0.0) + w
            else:
                q = weights[n]
                for i, w in zip(*posting):
                    acc[i] = get(i, 0.0) + w * q
        return acc

    def score(self, query_terms: list[str], i: int, weights: list[float] | None = None) -> float:
        """The score of chunk i alone: the same additions, in the same order, as `scores`."""
        s = 0.0
        for n, t in enumerate(query_terms):
            posting = self.postings.get(t)
            if posting is None:
                continue
            ids = posting[0]
            k = bisect_left(ids, i)
            if k < len(ids) and ids[k] == i:
                if weights is None or weights[n] == 1.0:
                    s = s + posting[1][k]
                else:
                    s = s + posting[1][k] * weights[n]
        return s

    def top_scores(self, query_terms: list[str], n: int, weights: list[float] | None = None) -> dict[int, float]:
        """Exact scores of a set of chunks that contains the n best (see the module docstring).

        Every chunk left out is beaten by at least n returned chunks by a relative
        margin larger than rounding to 12 significant digits can close, so it cannot
        be among the n best under any tie rule.
        """
        # counts[t]: how much term t weighs in the query (its occurrences, or their weights).
        counts: dict[str, float] = {}
        postings_total = 0
        for j, t in enumerate(query_terms):
            posting = self.postings.get(t)
            if posting is not None:
                counts[t] = counts.get(t, 0) + (1 if weights is None else weights[j])
                postings_total += len(posting[0])
        if n < 1 or not counts:
            return {}
        if postings_total <= _SMALL:
            return self._best_of_all(query_terms, n, weights)
        # Terms by upper bound, largest first (ties by term, so the order is fixed).
        order = sorted(counts, key=lambda t: (-(counts[t] * self.max_impact[t]), t))
        # bound[j]: the most that terms order[j:] together can add to any chunk's score.
        bound = [0.0] * (len(order) + 1)
        for j in range(len(order) - 1, -1, -1):
            bound[j] = bound[j + 1] + counts[order[j]] * self.max_impact[order[j]]
        # partial[i]: chunk i's score over the terms processed so far (a lower bound of
        # its score); theta: a lower bound of the n-th best score.
        partial: dict[int, float] = {}
        exact: dict[int, float] = {}
        theta = 0.0
        scanned = 0
        j = 0
        # 1. Essential terms: scan whole postings while the remaining terms alone could
        #    still lift an unseen chunk to theta.
        while j < len(order) and (j == 0 or bound[j] >= theta * (1 - _SLACK)):
            # Pruning pays only if it skips a good part of the postings: when the terms
            # that must still be scanned leave little out, score everything instead.
            e = j
            while e < len(order) and bound[e] >= theta * (1 - _SLACK):
                e += 1
            must = scanned
            for t in order[j:e]:
                must += len(self.postings[t][0])
            if j > 0 and must > _EXHAUSTIVE_SHARE * postings_total:
                return self._best_of_all(query_terms, n, weights)
            t = order[j]
            ids, impacts = self.postings[t]
            if counts[t] != 1:
                impacts = array("d", [w * counts[t] for w in impacts])
            if j == 0:
                partial = dict(zip(ids, impacts))  # 0.0 + w == w; built in C
            else:
                get = partial.get
                for i, w in zip(ids, impacts):
                    partial[i] = get(i, 0.0) + w
            scanned += len(ids)
            j += 1
            if len(partial) >= n:
                nth = heapq.nlargest(n, partial.values())[-1]
                theta = max(theta, nth)
                if j < len(order) and bound[j] >= theta * (1 - _SLACK):
                    # The leaders' full scores are a sharper lower bound, and may spare
                    # the next long posting.
                    theta = max(theta, self._leaders_theta(query_terms, partial, n, exact, nth, weights))
        # 2. The remaining terms add to candidates only: chunks whose partial score plus
        #    everything the remaining terms could add still reaches theta. The leaders'
        #    full scores first sharpen theta, which thins the candidates.
        if j < len(order) and len(partial) >= n:
            theta = max(theta, self._leaders_theta(query_terms, partial, n, exact, weights=weights))
        need = theta * (1 - _SLACK) - bound[j]
        cands = [i for i, p in partial.items() if p >= need]
        while j < len(order) and len(cands) > n:
            t = order[j]
            ids, impacts = self.postings[t]
            c = counts[t]
            if len(ids) * _DICT_COST < len(cands) * (_LOOKUP_COST - 0.5):
                look = dict(zip(ids, impacts)).get
                for i in cands:
                    got = look(i)
                    if got is not None:
                        partial[i] += got * c
            else:
                size = len(ids)
                for i in cands:
                    k = bisect_left(ids, i)
                    if k < size and ids[k] == i:
                        partial[i] += impacts[k] * c
            j += 1
            theta = max(theta, heapq.nlargest(n, [partial[i] for i in cands])[-1])
            need = theta * (1 - _SLACK) - bound[j]
            cands = [i for i in cands if partial[i] >= need]
        # 3. Exact scores of the candidates, chunk by chunk, unless scoring everything
        #    is cheaper.
        if len(cands) * len(query_terms) * _LOOKUP_COST > postings_total:
            return self._best_of_all(query_terms, n, weights)
        out = {}
        for i in cands:
            s = exact.get(i)
            out[i] = s if s is not None else self.score(query_terms, i, weights)
        return out

    def _leaders_theta(self, query_terms: list[str], partial: dict[int, float], n: int,
                       exact: dict[int, float], nth: float | None = None,
                       weights: list[float] | None = None) -> float:
        """The n-th best full score among the (at most 2n) chunks with the best partial scores."""
        if nth is None:
            nth = heapq.nlargest(n, partial.values())[-1]
        leaders = [i for i, p in partial.items() if p >= nth][:2 * n]
        for i in leaders:
            if i not in exact:
                exact[i] = self.score(query_terms, i, weights)
        return heapq.nlargest(n, [exact[i] for i in leaders])[-1]

    def _best_of_all(self, query_terms: list[str], n: int, weights: list[float] | None = None) -> dict[int, float]:
        """Exhaustive scores, cut to the chunks within the slack of the n-th best."""
        every = self.scores(query_terms, weights)
        if len(every) <= n:
            return every
        cut = heapq.nlargest(n, every.values())[-1] * (1 - _SLACK)
        return {i: s for i, s in every.items() if s >= cut}
