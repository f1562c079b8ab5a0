"""The answerer's reading of the served chunks done ahead (raglab.answer.ahead, driven in the
page by raglab.web.idle while it waits for a question): it fills the caches a question would
fill and changes no answer."""

from __future__ import annotations

import json

from raglab.answer import candidates, sentences
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json
from raglab.web import idle


def test_reading_ahead_leaves_nothing_for_a_question_to_read_and_changes_no_answer(native_web):
    from helpers import docs, questions

    asked = [q.question for q in questions()[:12]]
    pipe = Pipeline(list(docs()), Config())
    caches = (candidates.text_info, candidates.heading_terms, sentences.spans_of, sentences.numbers_of)
    for cache in caches:
        cache.cache_clear()
    before = [json.dumps(ask_json(pipe.ask(q)), ensure_ascii=False) for q in asked]
    for cache in caches:
        cache.cache_clear()
    assert sum(1 for _ in pipe.read_ahead()) == len(pipe.chunks) + 1
    misses = [c.cache_info().misses for c in caches]
    after = [json.dumps(ask_json(pipe.ask(q)), ensure_ascii=False) for q in asked]
    assert after == before
    # what the questions still read themselves: nothing of the units around their chunks
    assert [c.cache_info().misses for c in caches[:2]] == misses[:2]


def test_the_page_reads_ahead_in_slices_until_done(native_web):
    # the index built first for another k (a user changed it before the served default was
    # asked): the served default is then a new copy of it on every call, and reading ahead
    # must still go on where it stopped
    native_web.warm(json.dumps({"k": 5}))
    slices = 0
    while not json.loads(native_web.read_ahead(1.0))["done"]:
        slices += 1
        assert slices < 10_000
    assert slices > 1  # a slice of a millisecond cannot read every chunk
    assert json.loads(idle.read_ahead(1.0)) == {"done": True}
