"""BM25: the formula against a peer library, and the pruned top-k against exhaustive scoring.

- Scores equal bm25s "lucene" scores times (k1 + 1) for every chunk of the bundled
  corpus and every golden question, and the top 10 agree under the tie rule.
- The index is bit-identical to the plain formula written out term by term.
- `top_scores` (MaxScore pruning) ranks exactly like `scores` (ids, order, scores) on
  random corpora (hypothesis), on a scaled synthetic corpus with its queries, and
  on corpora full of ties.
"""

import contextlib
import math
import os
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import ROOT, docs, questions
from raglab.corpus.chunking import chunk_corpus, index_text
from raglab.retrieval import bm25 as bm25_module
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.lexical import weighted_terms
from raglab.retrieval.ranking import Query, top_n
from raglab.retrieval.registry import BM25Retriever
from raglab.text.analyzer import analyze


def Q(text):
    """The unexpanded query for a question (a Query passes through)."""
    return text if isinstance(text, Query) else Query.plain(text)


K1, B = 1.2, 0.75

EXTRA_QUERIES = [
    "What is the cash out fee?",
    "ক্যাশ আউটের খরচ কত?",
    "send money send money limit",  # repeated terms count once per occurrence
    "shapla pay",
    "Tk 25,000 daily limit for cash out at an agent",
    "zzzz unknown words only",
    "PIN",
]


def corpus_terms(chunker="recursive"):
    return [analyze(index_text(c)) for c in chunk_corpus(list(docs()), chunker)]


def query_terms():
    out = [analyze(q.question) for q in questions()] + [analyze(q) for q in EXTRA_QUERIES]
    return [q for q in out if q]


def reference_scores(docs_terms, query, k1=K1, b=B):
    """BM25 written out plainly, with the same operations in the same order."""
    n_docs = len(docs_terms)
    total = 0
    for t in docs_terms:
        total += len(t)
    avgdl = total / n_docs
    df = {}
    for terms in docs_terms:
        for t in set(terms):
            df[t] = df.get(t, 0) + 1
    out = {}
    for i, terms in enumerate(docs_terms):
        s, hit = 0.0, False
        for t in query:
            tf = terms.count(t)
            if not tf:
                continue
            idf = math.log(1 + (n_docs - df[t] + 0.5) / (df[t] + 0.5))
            norm = k1 * (1 - b + b * len(terms) / avgdl)
            s = s + idf * tf * (k1 + 1) / (tf + norm)
            hit = True
        if hit:
            out[i] = s
    return out


def test_scores_equal_bm25s_lucene_times_k1_plus_1_for_every_chunk():
    bm25s = pytest.importorskip("bm25s")
    terms = corpus_terms()
    ours = BM25(terms, k1=K1, b=B)
    peer = bm25s.BM25(k1=K1, b=B, method="lucene", dtype="float64")
    peer.index(terms, show_progress=False)
    checked = 0
    for q in query_terms():
        theirs = peer.get_scores(q) * (K1 + 1)
        mine = ours.scores(q)
        for i in range(len(terms)):
            assert abs(mine.get(i, 0.0) - float(theirs[i])) <= 1e-9, (q, i)
        # Same top 10 after the tie rule (12 significant digits, then chunk order).
        peer_top = top_n({i: float(s) for i, s in enumerate(theirs) if s > 0}, 10)
        assert [h.index for h in top_n(mine, 10)] == [h.index for h in peer_top], q
        checked += 1
    assert checked >= 100


def test_index_is_bit_identical_to_the_plain_formula():
    terms = corpus_terms("sentence")
    index = BM25(terms)
    for q in query_terms()[:40]:
        assert index.scores(q) == reference_scores(terms, q), q


def test_idf_and_df_follow_the_definition():
    index = BM25([["a", "b"], ["a"], ["c", "c"]])
    assert index.df == {"a": 2, "b": 1, "c": 1}
    assert index.idf("a") == math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    assert index.idf("missing") == math.log(1 + (3 + 0.5) / 0.5)
    assert index.max_impact["c"] == max(index.postings["c"][1])


def test_single_chunk_score_matches_the_exhaustive_scores_bit_for_bit():
    terms = corpus_terms()
    index = BM25(terms)
    for q in query_terms()[:20]:
        every = index.scores(q)
        for i in range(len(terms)):
            assert index.score(q, i) == every.get(i, 0.0)


def test_bad_parameters_and_empty_input():
    with pytest.raises(ValueError, match="k1 >= 0"):
        BM25([["a"]], k1=-1)
    with pytest.raises(ValueError, match="0 <= b <= 1"):
        BM25([["a"]], b=1.5)
    empty = BM25([])
    assert empty.scores(["a"]) == {} and empty.top_scores(["a"], 5) == {}
    index = BM25([["a"], []])
    assert index.top_scores([], 3) == {} and index.top_scores(["a"], 0) == {}
    assert index.top_scores(["zzz"], 3) == {}


# --- pruning is exact ---------------------------------------------------------

@contextlib.contextmanager
def always_prune():
    """Small queries are scored exhaustively; switch that off so that pruning runs."""
    saved = bm25_module._SMALL
    bm25_module._SMALL = 0
    try:
        yield
    finally:
        bm25_module._SMALL = saved


def assert_same_top(index, query, n, weights=None):
    """The pruned ranking equals the exhaustive one, and its scores are the exact ones."""
    every = index.scores(query, weights)
    for prune in (True, False):
        with always_prune() if prune else contextlib.nullcontext():
            pruned = index.top_scores(query, n, weights)
        for i, s in pruned.items():
            assert s == every[i], (query, i)
        assert top_n(pruned, n) == top_n(every, n), (query, n, prune)


# Small vocabularies with skewed frequencies: long postings, many ties, repeats.
words = st.sampled_from("a a a a b b b c c d e f g h".split())
documents = st.lists(st.lists(words, max_size=12), min_size=1, max_size=60)
queries = st.lists(st.sampled_from("a b c d e f g h z".split()), min_size=1, max_size=6)


@settings(max_examples=300, deadline=None)
@given(documents, st.lists(queries, min_size=1, max_size=5), st.integers(1, 12),
       st.sampled_from([(1.2, 0.75), (0.0, 0.0), (2.0, 1.0), (0.5, 0.3)]))
def test_top_scores_ranks_exactly_like_exhaustive_scoring(docs_terms, qs, n, params):
    index = BM25(docs_terms, k1=params[0], b=params[1])
    for q in qs:
        assert_same_top(index, q, n)


def test_top_scores_keeps_chunk_order_among_exact_ties():
    # 300 identical chunks, a few better ones, and noise: the tie rule picks the
    # lowest chunk indices among the equal scores.
    docs_terms = [["x", "y"]] * 300 + [["x", "x", "y", "rare"]] * 3 + [["y", "z"]] * 100
    index = BM25(docs_terms)
    for q in (["x", "y"], ["y"], ["x", "rare", "y"], ["x", "x"], ["rare", "z", "y"]):
        for n in (1, 5, 10, 50, 400):
            assert_same_top(index, q, n)
    with always_prune():
        hits = top_n(index.top_scores(["x", "y"], 5), 5)
    assert [h.index for h in hits] == [300, 301, 302, 0, 1]


@pytest.fixture(scope="module")
def scaled():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import synth
    finally:
        sys.path.pop(0)
    corpus = synth.scaled_corpus(list(docs()), 4000, seed=11)
    synth.check_tokens(corpus, sample=50)
    return BM25(corpus.terms), synth.queries(list(docs()), 250, seed=12)


@pytest.mark.parametrize("n", [1, 5, 10, 50])
def test_top_scores_is_exact_on_the_scaled_corpus_queries(scaled, n):
    index, qs = scaled
    for q in qs:
        assert_same_top(index, q, n)


@pytest.mark.parametrize("n", [1, 10])
def test_top_scores_is_exact_with_term_weights(scaled, n):
    index, qs = scaled
    rng = random.Random(5)
    for q in qs[:120]:
        assert_same_top(index, q, n, [rng.choice([1.0, 0.7, 0.45, 0.6000000000000001]) for _ in q])


def test_weights_of_one_are_plain_bm25(scaled):
    index, qs = scaled
    for q in qs[:50]:
        assert index.scores(q, [1.0] * len(q)) == index.scores(q)


def test_retriever_search_uses_the_exact_ranking():
    chunks = chunk_corpus(list(docs()), "recursive")
    retriever = BM25Retriever(chunks)
    for q in [q.question for q in questions()[:30]] + EXTRA_QUERIES + ["wat is the cashout fe at agnet", "ক্যাসআউট চার্জ কতো?"]:
        assert retriever.search(Q(q), 5) == top_n(retriever.scores(Q(q)), 5), q
    # the misspelt words are searched as the index words they meant, below an exact match
    terms, weights = weighted_terms(retriever.bm25, analyze("wat is the cashout fe at agnet"))
    assert ("agent" in terms and "cash" in terms and "out" in terms) and max(weights) < 1
