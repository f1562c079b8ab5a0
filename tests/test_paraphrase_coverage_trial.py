"""`bench/paraphrase_coverage_trial.py`: the lexical coverage its candidates read, and the BM25 side
with a story's words weighted down, on a corpus of three chunks; the coverage bonus (its
`covered_top`, which `paired_retrieval_trial.py` tests paired) on the help centre."""

import importlib.util
import os
from types import SimpleNamespace as NS

import pytest

from helpers import ROOT, docs, questions
from raglab.corpus.chunking import Chunk, chunk_corpus, index_text
from raglab.retrieval.bilingual import BilingualRetriever
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.expansion import expand
from raglab.retrieval.ranking import Query, top_n
from raglab.text.analyzer import analyze


def trial():
    spec = importlib.util.spec_from_file_location(
        "paraphrase_coverage_trial", os.path.join(ROOT, "bench", "paraphrase_coverage_trial.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CHUNKS = [Chunk("a#1", "a", 0, 1, "Sending money is free up to Tk 25,000 a month.", ("Send money", "Fees")),
          Chunk("b#1", "b", 0, 1, "Your grandfather can dial the USSD menu on a button phone.", ("About", "USSD")),
          Chunk("c#1", "c", 0, 1, "Reward points come from paying merchants.", ("Rewards",))]


def one_set():
    bm25 = BM25([analyze(index_text(c)) for c in CHUNKS])
    scores = lambda q: bm25.scores(analyze(q.text))  # noqa: E731
    return NS(chunks=CHUNKS, memo={}, r=NS(bm25=bm25, lexical_text=lambda q: q.text, lexical_scores=scores))


def test_coverage_is_the_share_of_the_question_s_idf_mass_in_bm25_s_best_chunk():
    t, s = trial(), one_set()
    whole = Query.plain("fees to send money")
    assert t.coverage(s, whole, s.r.lexical_scores(whole)) == pytest.approx(1.0)
    some = Query.plain("reward points for my grandfather's button phone")
    got = t.coverage(s, some, s.r.lexical_scores(some))
    assert 0.0 < got < 1.0  # the best chunk (USSD) lacks "reward" and "points"
    none = Query.plain("zebra")
    assert t.coverage(s, none, s.r.lexical_scores(none)) == 0.0


def test_the_story_s_words_weigh_less_and_a_question_of_one_sentence_reads_as_served():
    t, s = trial(), one_set()
    story = Query.plain("My grandfather has a button phone. Do I earn reward points?")
    served = s.r.lexical_scores(story)
    lowered = t.story_lexical(s, story, 0.25)
    assert lowered[1] < served[1] and lowered[2] == pytest.approx(served[2])
    single = Query.plain("Do I earn reward points with a button phone?")
    assert t.story_lexical(s, single, 0.25) == s.r.lexical_scores(single)


@pytest.fixture(scope="module")
def served_set():
    chunks = chunk_corpus(list(docs()), "recursive")
    return NS(chunks=chunks, memo={}, r=BilingualRetriever(chunks, chunker="recursive"))


def test_the_coverage_bonus_lifts_bm25s_first_three_by_the_share_their_best_chunk_holds(served_set):
    """+ 0.08 × coverage for BM25's first three chunks (not served: docs/pipeline.md), on top of
    the served fused score and nowhere else."""
    t, s = trial(), served_set
    bonus = t.covered_top((0.08, 3, 0))
    try:
        # Every word of the question is in BM25's best chunk: its first three get the whole bonus.
        query = expand("How do I cash out at an agent?")
        cosines, lexical = s.r.cosines(query), s.r.lexical_scores(query)
        assert t.coverage(s, query, lexical) == 1.0
        flat = s.r.fused(cosines, lexical)
        lifted, top = bonus(s, None, query, cosines, lexical), {h.index for h in top_n(lexical, 3)}
        assert all(lifted[i] == flat[i] + 0.08 if i in top else lifted[i] == flat[i] for i in flat)
        t.restore(s)
        # A question BM25 meets only in part lifts them by that part.
        query = expand("Can I pay my electricity bill and my school fees?")
        cosines, lexical = s.r.cosines(query), s.r.lexical_scores(query)
        share = t.coverage(s, query, lexical)
        assert 0.0 < share < 1.0
        flat = s.r.fused(cosines, lexical)
        lifted, top = bonus(s, None, query, cosines, lexical), {h.index for h in top_n(lexical, 3)}
        assert all(lifted[i] == flat[i] + 0.08 * share for i in top)
    finally:
        t.restore(s)


def test_the_coverage_bonus_brings_a_misspelt_question_s_answer_into_the_top_three(served_set):
    """A dev question ranked sixth as served: BM25's best chunk holds its words, respelt."""
    t, s = trial(), served_set
    q = next(q for q in questions() if q.id == "q366")  # "do i hav to pay any fee to pay my gas bil thru the app?"
    quote, query = q.evidence[0].quote, expand(q.question)
    assert not any(quote in s.chunks[h.index].text for h in s.r.search(query, 3))
    try:
        t.covered_top((0.08, 3, 0))(s, q, query, s.r.cosines(query), s.r.lexical_scores(query))
        assert any(quote in s.chunks[h.index].text for h in s.r.search(query, 3))
    finally:
        t.restore(s)
    assert not any(quote in s.chunks[h.index].text for h in s.r.search(query, 3))
