"""A question's readings encoded ahead (raglab.web.readings, what the page's worker calls
before it asks): the texts it names are exactly what asking encodes, and vectors handed
back leave the answer as it was. The page's side (the helper worker's bits) is checked in
tests/test_parity_engine.py."""

from __future__ import annotations

import json

import pytest

from raglab.encoder import QUERY
from raglab.encoder.vectors import native_cache, text_key
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.bilingual import translated
from raglab.retrieval.expansion import expand
from raglab.text.analyzer import normalize
from raglab.web import readings

# Not golden questions (their readings ship, so nothing would be left to encode); each of the
# first two has a translated reading, the third (no phrase of the table) has none.
QUESTIONS = ["How do I withdraw cash on a Friday night?", "বিদেশ থেকে টাকা আসতে কত দিন লাগে আমার ভাইয়ের?",
             "Does the zebra mascot have a name?"]


class Recording:
    """A vector cache that notes every question reading it is asked for."""

    def __init__(self, cache):
        self.cache, self.encoder, self.asked = cache, cache.encoder, []

    def get(self, texts, progress=False, keep=True):
        self.asked += [t for t in texts if t.startswith(QUERY)]
        return self.cache.get(texts, progress=progress, keep=keep)


@pytest.mark.parametrize("retriever", ["bilingual", "bm25-semantic", "semantic"])
def test_query_texts_are_what_asking_encodes(docs_list, retriever, monkeypatch):
    pipe = Pipeline(docs_list, Config(chunker="recursive", retriever=retriever))
    recording = Recording(native_cache())
    monkeypatch.setattr(pipe.retriever, "cache", recording, raising=False)
    if hasattr(pipe.retriever, "semantic"):
        monkeypatch.setattr(pipe.retriever.semantic, "cache", recording)
    for question in QUESTIONS:
        recording.asked.clear()
        pipe.search(question)
        assert recording.asked == pipe.query_texts(question), question
    assert len(pipe.query_texts(QUESTIONS[0])) == (2 if retriever == "bilingual" else 1)
    assert Pipeline(docs_list, Config(retriever="bm25")).query_texts(QUESTIONS[0]) == []


def test_inputs_are_the_unknown_readings_with_their_token_ids(native_web):
    cache = native_cache()
    for question in QUESTIONS[:2]:
        texts = [QUERY + normalize(question), QUERY + normalize(translated(expand(question)))]
        for t in texts:
            cache.known.pop(text_key(t), None)
        got = json.loads(readings.query_inputs(question, "{}", "bundled"))
        assert got == {"texts": texts, "ids": [cache.encoder.ids(t) for t in texts]}
        cache.get(texts[:1], keep=False)
        assert json.loads(readings.query_inputs(question, "{}", "bundled"))["texts"] == texts[1:]
    assert json.loads(readings.query_inputs(QUESTIONS[0], '{"retriever": "bm25"}', "bundled")) == {"ids": [], "texts": []}
    assert json.loads(readings.query_inputs("  ", "{}", "bundled")) == {"ids": [], "texts": []}
    assert json.loads(readings.query_inputs("x" * 100_001, "{}", "bundled")) == {"ids": [], "texts": []}


def test_vectors_handed_back_give_the_same_answer(native_web):
    question = QUESTIONS[1]
    cache = native_cache()
    for t in (QUERY + normalize(question), QUERY + normalize(translated(expand(question)))):
        cache.known.pop(text_key(t), None)
    wanted = json.loads(readings.query_inputs(question, "{}", "bundled"))
    assert len(wanted["texts"]) == 2
    flat = b"".join(cache.encoder.backend.encode_ids(ids).tobytes() for ids in wanted["ids"])
    before = native_web.ask(question, "{}")  # encodes them itself
    for t in wanted["texts"]:
        cache.known.pop(text_key(t), None)
    assert json.loads(readings.cached_digests(json.dumps(wanted["texts"]))) == [None, None]
    assert json.loads(readings.remember_vectors(json.dumps(wanted["texts"]), flat)) == {"kept": 2}
    assert json.loads(readings.cached_digests(json.dumps(wanted["texts"]))) == \
        json.loads(native_web.vector_digests(json.dumps(wanted["texts"])))
    assert native_web.ask(question, "{}") == before
    with pytest.raises(ValueError, match="do not match"):
        readings.remember_vectors(json.dumps(wanted["texts"]), flat[:-4])


@pytest.fixture(scope="module")
def docs_list():
    from helpers import docs

    return list(docs())
