"""`bench/paraphrase_coverage_trial.py`: the lexical coverage its candidates read, and the BM25 side
with a story's words weighted down, on a corpus of three chunks."""

import importlib.util
import os
from types import SimpleNamespace as NS

import pytest

from helpers import ROOT
from raglab.corpus.chunking import Chunk, index_text
from raglab.retrieval.bm25 import BM25
from raglab.retrieval.ranking import Query
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
