"""A question asking how ranks the sections whose own heading says they tell the way of something it
names a little higher (`ranking.ways_asked`, `ranking.WAY_RAISE`, `bilingual.fused`): "অ্যাকাউন্ট
কীভাবে খুলব?" (how do I open an account) had the steps under "অ্যাপে অ্যাকাউন্ট খোলার ধাপ" 8th, below
who may open one, so the answerer never read them; a heading saying how to do another thing ("How to
pay" for finding a school in the fee list) gains nothing, nor does a question asking how much."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.ranking import asks_how, way_raised, way_words, ways_asked


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(list(docs()), Config())


def top(pipe, question, n=3):
    return [pipe.chunks[h.index].id for h in pipe.search(question, n)]


def test_the_bangla_steps_are_among_the_first_three(pipe, monkeypatch):
    assert "bn-open-account#4" in top(pipe, "অ্যাকাউন্ট কীভাবে খুলব?")
    monkeypatch.setattr("raglab.retrieval.bilingual.WAY_RAISE", 0.0)
    assert "bn-open-account#4" not in top(pipe, "অ্যাকাউন্ট কীভাবে খুলব?", 7)


def test_the_steps_are_quoted_from_the_first(pipe):
    a = Pipeline(list(docs()), Config(threshold=0.0)).ask("অ্যাকাউন্ট কীভাবে খুলব?").answer
    assert a.withheld is None and a.quotes[0].text.startswith("শাপলা পে অ্যাপ ইনস্টল করে খুলুন"), a.quotes


def test_the_english_steps_pass_who_may_open(pipe):
    got = top(pipe, "How do I open an account?")
    assert got.index("en-open-account#5") < got.index("en-open-account#2"), got


def test_only_a_way_of_something_the_question_names():
    heads = [way_words(("Education fees", "How to pay")), way_words(("Accounts", "Steps to open your account")),
             way_words(("Accounts", "Who can open an account")), way_words(("Accounts",))]
    assert ways_asked(heads, "How do I find my son's school in the Education Fees list?") == [False, False, False, False]
    assert ways_asked(heads, "How do I open an account?") == [False, True, False, False]
    assert ways_asked(heads, "How much does it cost to open an account?") is None
    assert way_raised({0: 0.5, 1: 0.5}, None, 0.05) == {0: 0.5, 1: 0.5}


@pytest.mark.parametrize("question,asks", [("How can I change my PIN?", True), ("nano loan কীভাবে nibo", True),
                                           ("How long does a transfer take?", False), ("কত টাকা লাগবে?", False)])
def test_asks_how(question, asks):
    assert asks_how(question) is asks
