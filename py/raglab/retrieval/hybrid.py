"""`hybrid`: reciprocal rank fusion (RRF) of BM25 and the hashed n-gram retriever.

    rrf(d) = sum over rankings r that contain d of 1 / (k + rank_r(d)),   rank from 1

RRF uses ranks only, so BM25's unbounded scores and the dense cosines in [0, 1] never
need calibrating against each other. With the usual k = 60, an item 1st in one list
and 3rd in the other scores 1/61 + 1/63 = 0.03227 and loses to one 2nd and 1st at
1/62 + 1/61 = 0.03252: agreement near the top beats a single first place.

With query expansion on (`expansion.expand`), the hybrid fuses more than two rankings,
so expansion adds recall without drowning the customer's own words:

- an English question: BM25 and dense of the question alone, and of the question with
  its expansion terms (four rankings);
- a Bangla question: BM25 and dense of the expanded query, of its Bangla terms alone
  and of its English terms alone (six rankings), so that the English articles, reached
  only through the appended English terms, get a ranking of their own instead of
  losing every comparison to the Bangla twins that match the whole question.

Without expansion it is the textbook two-list fusion.
"""

from __future__ import annotations

from raglab.corpus.chunking import Chunk, index_text
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.dense import DenseRetriever
from raglab.retrieval.lexical import weighted_terms
from raglab.retrieval.ranking import Hit, Query, top_n
from raglab.text.analyzer import analyze, in_bangla_block

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


def is_bangla_term(term: str) -> bool:
    return in_bangla_block(term[0])


def is_latin_term(term: str) -> bool:
    return "a" <= term[0] <= "z"


def split_scripts(terms: list[str]) -> tuple[list[str], list[str]]:
    """The Bangla part and the Latin part of a mixed-script query (numbers go with both);
    two empty lists when the query uses one script only."""
    if not any(is_bangla_term(t) for t in terms) or not any(is_latin_term(t) for t in terms):
        return [], []
    return [t for t in terms if not is_latin_term(t)], [t for t in terms if not is_bangla_term(t)]


class HybridRetriever:
    """BM25 and dense, each read `depth` deep, fused by RRF. Both indexes are built once."""

    name = "hybrid"

    def __init__(self, chunks: list[Chunk], k: int = RRF_K, depth: int = DEPTH):
        if depth < 1:
            raise ValueError("hybrid retriever needs depth >= 1")
        shared: dict[str, str] = {}  # one string per distinct term, not one per occurrence
        terms = [[shared.setdefault(t, t) for t in analyze(index_text(c))] for c in chunks]  # shared by both indexes
        self.bm25 = BM25(terms)
        self.dense = DenseRetriever(chunks, docs_terms=terms, bm25=self.bm25)
        self.k, self.depth = k, depth

    def idf(self, term: str) -> float:
        return self.bm25.idf(term)

    def variants(self, query: Query) -> list[list[str]]:
        """The analyzed queries to rank (see the module docstring)."""
        if not query.expansion:
            return [analyze(query.text)]
        full = analyze(query.full)
        if query.lang != "bn":
            return [analyze(query.text), full]
        bangla, latin = split_scripts(full)
        return [full, bangla, latin] if bangla and latin else [full]

    def rankings(self, query: Query, depth: int | None = None) -> list[list[int]]:
        """The rankings to fuse (chunk indices, each `depth` long): BM25, then dense, per variant."""
        d = depth or self.depth
        out = []
        for terms in self.variants(query):
            lex, weights = weighted_terms(self.bm25, terms)
            out.append([h.index for h in top_n(self.bm25.top_scores(lex, d, weights), d)])
            out.append([h.index for h in top_n(self.dense.term_scores(terms), d)])
        return out

    def scores(self, query: Query) -> dict[int, float]:
        return rrf(self.rankings(query), self.k)

    def search(self, query: Query, n: int) -> list[Hit]:
        return top_n(self.scores(query), n)
