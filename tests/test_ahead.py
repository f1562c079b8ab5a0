"""The answerer's reading of the served chunks done ahead (raglab.pipeline.read_chunk, driven in the
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


def test_what_the_page_reads_ahead_is_there_for_the_served_default_s_copies(native_web):
    # A corpus of its own, so that its index is surely first built for another k than the served
    # default's (the session's bundled corpus may have been asked with the default already): the
    # served default is then a fresh `with_config` copy on every call, and the Banglish reader and
    # the loanwords that reading ahead builds last must be built where the copies get them from,
    # not on one copy thrown away after the slice.
    import os

    from helpers import ROOT
    from raglab.corpus.articles import read_corpus_files
    from raglab.web import state
    from raglab.web.state import parse_config, pipeline

    native_web.load("ahead", json.dumps(read_corpus_files(os.path.join(ROOT, "corpus"))))
    try:
        native_web.warm(json.dumps({"k": 5}), "ahead")
        slices = 0
        while not json.loads(idle.read_ahead(1.0, "ahead"))["done"]:
            slices += 1
            assert slices < 10_000
        assert slices > 1
        served = pipeline(parse_config(None), "ahead")
        assert served.config.k == 3 and served is not pipeline(parse_config(None), "ahead")  # a fresh copy each time
        assert "banglish" in served.__dict__ and "loanwords" in served.__dict__  # built already, not at its first question
    finally:
        state._CORPORA.pop("ahead", None)  # leave the facade as the other tests expect it
        idle._STEPS.pop("ahead", None)
