"""Config validation, the typed ask result and the web facade's index cache."""

import json

import pytest

from helpers import docs
from raglab.corpus.articles import bundled_corpus_dir
from raglab.pipeline import AskResult, Config, Pipeline
from raglab.schema import ask_json
from raglab.web import api as web


@pytest.mark.parametrize("k", [True, False, 0, -1, 2.0, "5"])
def test_k_must_be_a_whole_number_of_chunks(k):
    with pytest.raises(ValueError, match="k must be a whole number >= 1"):
        Config(k=k).check()


def test_ask_returns_a_typed_result_that_schema_serialises():
    pipe = Pipeline(list(docs()), Config(retriever="bm25", k=3))
    result = pipe.ask("What is the cash out fee?")
    assert isinstance(result, AskResult) and len(result.chunks) == 3
    data = ask_json(result)
    assert [c["id"] for c in data["chunks"]] == [r.chunk.id for r in result.chunks]
    assert data["config"]["k"] == 3 and data["answer"] == result.answer.text
    json.dumps(data, ensure_ascii=False)  # plain JSON data all the way down


def test_web_reuses_one_index_for_every_k_threshold_and_expansion():
    web.load_dir("cache-test", bundled_corpus_dir())
    try:
        _check_shared_index()
    finally:
        web._CORPORA.pop("cache-test", None)  # leave the facade as the other tests expect it


def _check_shared_index():
    a = web.pipeline(Config(retriever="bm25", k=3), "cache-test")
    b = web.pipeline(Config(retriever="bm25", k=7, expand=False, threshold=0.2), "cache-test")
    assert b.retriever is a.retriever and b.chunks is a.chunks
    assert (a.config.k, b.config.k) == (3, 7)
    c = web.pipeline(Config(retriever="dense", k=3), "cache-test")
    assert c.retriever is not a.retriever



def test_the_web_facade_offers_the_evaluation_it_ships():
    """The page enables "Run the evaluation" only when the facade finds the evaluation package."""
    web.load_dir("facade-check", bundled_corpus_dir())
    assert json.loads(web.info("facade-check"))["compare"] is True


def test_lexical_ranks_count_the_chunks_bm25_scores_above_each_retrieved_one():
    # The confidence reads where BM25 alone puts the chosen unit's chunk: with the bm25
    # retriever that is its place in the hit list (ties share a place).
    pipe = Pipeline(list(docs()), Config(retriever="bm25", k=5))
    hits = pipe.search("What is the cash out fee?")
    ranks = pipe.lexical_ranks("What is the cash out fee?", [pipe.chunks[h.index] for h in hits])
    assert ranks[0] == 0 and ranks == [sum(1 for h in hits if h.score > x.score) for x in hits]


def test_a_passage_the_corpus_repeats_counts_once_in_the_lexical_rank():
    # An uploaded help centre that holds each article three times must not make every answer
    # look like weak evidence: the copies of a chunk ranked above count as one chunk.
    from raglab.corpus.articles import parse_article

    once = list(docs())
    thrice = [parse_article(f"c{k}-{d.id}", d.text) for k in range(3) for d in once]
    question = "What is the cash out fee?"
    pipe = Pipeline(once, Config(retriever="bm25", k=3))
    top = [pipe.chunks[h.index] for h in pipe.search(question)]
    copies = Pipeline(thrice, Config(retriever="bm25", k=3))
    same = [next(c for c in copies.chunks if c.text == t.text) for t in top]
    assert copies.lexical_ranks(question, same) == pipe.lexical_ranks(question, top) == [0, 1, 2]
