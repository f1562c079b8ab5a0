"""Every retriever behind one interface, then what is special to dense, hybrid and the reranker."""

import math
import os
import zlib

import pytest

from helpers import docs, questions
from raglab.corpus.chunking import chunk_corpus, index_text
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.dense import DIM, GROUP_WEIGHTS, DenseRetriever, HashedVectorizer, bucket, char_ngrams, features
from raglab.retrieval.embedding import EmbeddingRetriever, ModelRerankRetriever, ModelUnavailable, register
from raglab.retrieval.expansion import expand
from raglab.retrieval.hybrid import HybridRetriever, rrf, split_scripts
from raglab.retrieval.ranking import Hit, Query, rounded, top_n
from raglab.retrieval.registry import RETRIEVERS, build_retriever
from raglab.retrieval.rerank import WEIGHTS, answer_types, min_window, query_facts
from raglab.text.analyzer import analyze


def Q(text):
    """The unexpanded query for a question (a Query passes through)."""
    return text if isinstance(text, Query) else Query.plain(text)


NAMES = ("bm25", "dense", "hybrid", "hybrid-rerank")


@pytest.fixture(scope="module")
def chunks():
    return chunk_corpus(list(docs()), "recursive")


@pytest.fixture(scope="module")
def built(chunks):
    return {name: build_retriever(name, chunks) for name in NAMES}


def covers(chunk, doc, quote):
    text = next(d.text for d in docs() if d.id == doc)
    start = text.index(quote)
    end = start + len(quote)
    return chunk.doc == doc and min(chunk.end, end) - max(chunk.start, start) >= 0.5 * (end - start)


# --- the interface, for every retriever ------------------------------------------------


def test_all_retrievers_registered():
    for name in NAMES:
        assert name in RETRIEVERS


@pytest.mark.parametrize("name", NAMES)
def test_hits_are_ranked_best_first_with_ties_in_chunk_order(built, chunks, name):
    r = built[name]
    assert r.name == name
    hits = r.search(Q("How much does it cost to cash out at an agent?"), 20)
    assert 0 < len(hits) <= 20
    assert all(isinstance(h, Hit) and 0 <= h.index < len(chunks) for h in hits)
    assert len({h.index for h in hits}) == len(hits)
    for a, b in zip(hits, hits[1:]):
        assert a.score == rounded(a.score)
        assert (a.score, -a.index) > (b.score, -b.index)


@pytest.mark.parametrize("name", NAMES)
def test_finds_the_obvious_passage_in_both_languages(built, chunks, name):
    r = built[name]
    top = [chunks[h.index] for h in r.search(Q("What is the fee for cash out at an agent?"), 5)]
    assert any(covers(c, "en-cash-out", "The fee for cash out at an agent is 1.85% of the amount") for c in top)
    top = [chunks[h.index] for h in r.search(Q("পিন ভুলে গেলে কী করব?"), 5)]
    assert any(c.doc == "bn-pin" for c in top)


@pytest.mark.parametrize("name", NAMES)
def test_idf_is_bm25s(built, chunks, name):
    bm25 = BM25([analyze(index_text(c)) for c in chunks])
    for term in ("fee", "পিন", "shapla", "never-seen-term"):
        assert built[name].idf(term) == bm25.idf(term)


@pytest.mark.parametrize("name", NAMES)
def test_nothing_to_match_gives_no_hits(built, name):
    assert built[name].search(Q(""), 5) == []
    assert built[name].search(Q("zzzz qqqq"), 5) == []


@pytest.mark.parametrize("name", NAMES)
def test_rebuilding_gives_identical_results(built, chunks, name):
    again = build_retriever(name, chunks)
    for q in ("limit for send money", "ক্যাশ আউটের চার্জ কত?", expand("How do I withdraw money?")):
        assert again.search(Q(q), 10) == built[name].search(Q(q), 10)


# --- dense: hashed n-grams -------------------------------------------------------------


def test_bucket_is_a_stable_crc32():
    assert bucket("w:fee") == zlib.crc32(b"w:fee") % DIM == 945824
    assert bucket("c:<পি", 97) == zlib.crc32("c:<পি".encode("utf-8")) % 97


def test_char_ngrams_stay_inside_the_word_and_skip_numbers():
    assert char_ngrams("pin") == ["<pi", "pin", "in>", "<pin", "pin>", "<pin>"]
    assert char_ngrams("25000") == [] and char_ngrams("1.85") == []
    assert features(["cash", "out"])["b"] == ["cash out"]


def test_vectors_are_tfidf_unit_per_group():
    v = HashedVectorizer(dim=1 << 12)
    vectors = v.fit([analyze("cash out fee"), analyze("cash in is free"), analyze("send money fee")])
    for vec in vectors:
        per_group = {}
        for key, w in vec.items():
            per_group[key // v.dim] = per_group.get(key // v.dim, 0.0) + w * w
        for group, norm_sq in per_group.items():  # unit length, scaled by sqrt(group weight)
            assert math.isclose(norm_sq, GROUP_WEIGHTS[HashedVectorizer.GROUPS[group]])
    # "fee" (in 2 of 3 texts) weighs less than "out" (in 1) within the same text.
    w_fee = vectors[0][2 * v.dim + bucket("w:fee", v.dim)]
    w_out = vectors[0][2 * v.dim + bucket("w:out", v.dim)]
    assert w_fee < w_out


def test_dense_scores_are_cosines(chunks):
    r = DenseRetriever(chunks)
    q = "How long does a refund from a merchant take?"
    qv = r.vectorizer.transform(analyze(q))
    qn = math.sqrt(math.fsum(w * w for w in qv.values()))
    scores = r.scores(Q(q))
    best = max(scores, key=scores.get)
    dv = r.vectorizer.transform(analyze(index_text(chunks[best])))
    dn = math.sqrt(math.fsum(w * w for w in dv.values()))
    expected = math.fsum(qv[k] * dv[k] for k in qv if k in dv) / (qn * dn)
    assert math.isclose(scores[best], expected, rel_tol=1e-9)
    assert 0 < scores[best] <= 1 + 1e-12


def test_dense_matches_inflections_bm25_misses(chunks):
    """Character n-grams let "licensing" meet "licensed"; BM25's terms cannot."""
    bm25 = build_retriever("bm25", chunks)
    dense = DenseRetriever(chunks)
    assert bm25.search(Q("licensing"), 5) == []
    top = [chunks[h.index] for h in dense.search(Q("licensing"), 5)]
    assert any(covers(c, "en-about", "licensed by Bangladesh Bank") for c in top)


def test_a_chunk_is_its_own_nearest_neighbour(chunks):
    dense = DenseRetriever(chunks)
    for i in (0, 57, 200):
        hit = dense.search(Q(index_text(chunks[i])), 1)[0]
        assert hit.index == i and math.isclose(hit.score, 1.0, rel_tol=1e-9)


def test_feature_groups_can_be_switched_off(chunks):
    words_only = DenseRetriever(chunks, group_weights={"w": 1.0})
    assert words_only.search(Q("licensing"), 5) == []
    with pytest.raises(ValueError, match="unknown feature group"):
        DenseRetriever(chunks, group_weights={"x": 1.0})


# --- hybrid: reciprocal rank fusion ----------------------------------------------------


def test_rrf_textbook_numbers():
    # Item 7: 1st in one list, 3rd in the other; item 8: 2nd and 1st.
    fused = rrf([[7, 8, 9], [8, 5, 7]], k=60)
    assert round(fused[7], 5) == 0.03227 and round(fused[8], 5) == 0.03252
    assert fused[8] > fused[7]
    assert fused[9] == 1 / 63 and fused[5] == 1 / 62


def test_hybrid_fuses_its_bm25_and_dense_rankings(built, chunks):
    h = built["hybrid"]
    q = "monthly limit for sending money"
    lexical, dense = h.rankings(Q(q))
    assert lexical == [x.index for x in built["bm25"].search(Q(q), h.depth)]
    assert dense == [x.index for x in built["dense"].search(Q(q), h.depth)]
    assert h.scores(Q(q)) == rrf([lexical, dense], 60)


def test_hybrid_ranks_expanded_queries_as_variants(built):
    h = built["hybrid"]
    assert h.variants(Q("cash out fee")) == [["cash", "out", "fee"]]
    english = expand("How do I withdraw money?")
    assert h.variants(Q(english)) == [analyze("How do I withdraw money?"), analyze(english.full)]
    bangla = h.variants(expand("টাকা তুলব কিভাবে?"))
    assert len(bangla) == 3 and bangla[1:] == list(split_scripts(bangla[0]))


def test_a_parenthesis_with_a_plus_is_just_text_when_expansion_is_off():
    """A customer's "(+ send money)" is not expansion: with expansion off, hybrid fuses
    the two rankings of the whole question, exactly as for any other text."""
    question = "What is the fee for cash out (+ send money)"
    pipe = Pipeline(list(docs()), Config(retriever="hybrid", expand=False))
    query = pipe.query(question)
    assert query == Query(question, (), "en")
    h = pipe.retriever
    assert h.variants(query) == [analyze(question)]
    lexical = [x.index for x in top_n(h.bm25.top_scores(analyze(question), h.depth), h.depth)]
    dense = [x.index for x in top_n(h.dense.term_scores(analyze(question)), h.depth)]
    assert h.scores(query) == rrf([lexical, dense], h.k)
    # The reranker, too, weighs every word of it as the customer's own.
    facts = query_facts(query, h.idf)
    assert set(facts.terms) == set(analyze(question))
    assert all(facts.weights[t] == h.idf(t) for t in facts.terms)


def test_split_scripts():
    assert split_scripts(["cash", "ক্যাশ", "25000"]) == (["ক্যাশ", "25000"], ["cash", "25000"])
    assert split_scripts(["cash", "out"]) == ([], [])
    assert split_scripts(["ক্যাশ", "25000"]) == ([], [])


# --- hybrid-rerank: the lexical reranker -----------------------------------------------


def test_reranker_reorders_the_first_stage_only(built):
    r = built["hybrid-rerank"]
    assert isinstance(r.first_stage, HybridRetriever)
    q = "How long does a failed bill payment take to come back?"
    pool = {h.index for h in r.first_stage.search(Q(q), r.depth)}
    assert {h.index for h in r.search(Q(q), 10)} <= pool


def test_reranker_features_are_bounded_and_weighted(built):
    r = built["hybrid-rerank"]
    q = "How long does a failed bill payment take to come back?"
    hits = r.first_stage.search(Q(q), r.depth)
    feats = r.explain(Q(q), hits)
    assert set(feats[0]) == set(WEIGHTS)
    for f in feats:
        for name, value in f.items():
            assert 0.0 <= value <= 1.0, (name, value)
    assert feats[0]["prior"] == 1.0 and feats[1]["prior"] == 0.5


def test_reranker_features_say_what_they_mean(built, chunks):
    r = built["hybrid-rerank"]
    target = next(i for i, c in enumerate(chunks) if covers(c, "en-cash-out", "Up to Tk 25,000 in total a day."))
    f = r.explain(Q("What is the daily limit of cash out? 25000"), [Hit(target, 1.0)])[0]
    assert f["number"] == 1.0 and f["answer_type"] == 1.0 and f["section"] > 0 and f["intro"] == 0.0
    assert answer_types("How long does it take?") == (True, False)
    assert answer_types("কত টাকা খরচ?") == (False, True)
    assert answer_types("কবে টাকা আসবে?") == (True, False)


def test_min_window():
    assert min_window([(0, 9), (5,)]) == 5
    assert min_window([(3,), (4,), (10, 5)]) == 3
    assert min_window([(2,)]) == 1


def _mrr(retriever, chunks, qs):
    total = 0.0
    for q in qs:
        query = expand(q.question)
        for rank, h in enumerate(retriever.search(Q(query), 10), 1):
            c = chunks[h.index]
            if any(c.doc == e.doc and min(c.end, e.end) - max(c.start, e.start) >= 0.5 * (e.end - e.start)
                   for e in q.evidence):
                total += 1 / rank
                break
    return total / len(qs)


def test_fitted_reranker_beats_its_first_stage_on_dev(built, chunks):
    """The weights were fitted on dev; if they stop helping there, something broke."""
    qs = [q for q in questions() if q.split == "dev" and q.answerable]
    r = built["hybrid-rerank"]
    assert _mrr(r, chunks, qs) > _mrr(r.first_stage, chunks, qs) + 0.01


# --- model retrievers: the protocol, with toy models -----------------------------------


class LetterEncoder:
    """A toy encoder: counts of a-z. Enough to exercise the protocol."""

    name = "letters"

    def encode(self, texts):
        return [[float(t.lower().count(ch)) for ch in "abcdefghijklmnopqrstuvwxyz"] for t in texts]


class OverlapScorer:
    name = "overlap"

    def score(self, query, texts):
        q = set(analyze(query))
        return [len(q & set(analyze(t))) for t in texts]


def test_embedding_protocol_plugs_into_the_pipeline(chunks):
    r = EmbeddingRetriever(chunks, LetterEncoder())
    assert r.name == "embedding-letters"
    hits = r.search(Q("cash out fee"), 5)
    assert len(hits) == 5 and hits == sorted(hits, key=lambda h: (-h.score, h.index))
    register("embedding-letters-test", lambda cs: EmbeddingRetriever(cs, LetterEncoder()))
    try:
        pipe = Pipeline(list(docs()), Config(retriever="embedding-letters-test"))
        assert len(pipe.ask("What is the cash out fee?").chunks) == pipe.config.k
        with pytest.raises(ValueError, match="already exists"):
            register("embedding-letters-test", lambda cs: None)
    finally:
        del RETRIEVERS["embedding-letters-test"]


def test_cross_encoder_protocol_reranks_the_hybrid(chunks):
    r = ModelRerankRetriever(chunks, OverlapScorer())
    assert isinstance(r.first_stage, HybridRetriever)
    q = "cash out fee at an ATM"
    hits = r.search(Q(q), 5)
    pool = [h.index for h in r.first_stage.search(Q(q), 30)]
    assert all(h.index in pool for h in hits)
    assert hits[0].score == max(OverlapScorer().score(q, [index_text(chunks[i]) for i in pool]))


@pytest.mark.skipif(os.environ.get("RAGLAB_MODEL_TESTS") != "1",
                    reason="model example: set RAGLAB_MODEL_TESTS=1 (and pip install wordllama) to run it")
def test_wordllama_example(chunks):
    pytest.importorskip("wordllama")
    from raglab.retrieval.embedding import WordLlamaEncoder

    r = EmbeddingRetriever(chunks, WordLlamaEncoder())
    top = [chunks[h.index] for h in r.search(Q("What is the fee to withdraw cash at an agent?"), 5)]
    assert any(c.doc in ("en-cash-out", "en-fees-limits") for c in top)


def test_missing_model_package_says_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_wordllama(name, *args, **kwargs):
        if name == "wordllama":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_wordllama)
    from raglab.retrieval.embedding import WordLlamaEncoder

    with pytest.raises(ModelUnavailable, match="pip install wordllama"):
        WordLlamaEncoder()
