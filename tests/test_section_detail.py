"""An opening that states its section's topic against a later unit that states the asked detail
(`candidates.detail_after`): the opening's `first` bonus is no reason to quote it then."""

import pytest

from helpers import docs
from raglab.answer.sentences import COL
from raglab.pipeline import Config, Pipeline


@pytest.fixture(scope="module")
def served():
    # Every answer composed whatever its confidence: the sentence chosen is what is tested.
    return Pipeline(list(docs()), Config(threshold=0.0))


def _order(p: Pipeline, question: str):
    hits = p.search(question)
    a = p.assess(question, [p.chunks[h.index] for h in hits], [h.score for h in hits])
    assert a is not None
    return a.order


@pytest.mark.parametrize("question, detail", [
    # The Pay Bill steps open with "Open the Shapla Pay app and tap Pay Bill."; the number asked is a later step.
    ("Which number printed on my electricity bill should I type in when I pay it in the app?", "Enter your customer number"),
    # "Take your original National ID card (NID) with you." opens the section; the replaced card is a later sentence.
    ("My NID was replaced. Which card should I bring to wake up my dormant account?", "If your NID has been replaced"),
])
def test_a_later_detail_beats_the_sections_opening(served, question, detail):
    text = served.ask(question).answer.text or ""
    assert detail in text, text


def test_the_opening_keeps_its_bonus_for_a_question_about_the_topic(served):
    # A question asking what the section is about: no later unit adds a word of it.
    order = _order(served, "what is a dormant account?")
    assert order[0][1].features[COL["first"]] == 1.0, order[0][1].quote.text


def test_a_typed_or_two_fact_question_keeps_the_opening(served):
    # The two-fact question's first fact opens its paragraph and its second follows it:
    # both are still quoted (a later unit holding the second half's words is no detail asked).
    text = served.ask("how much can I send in a month before they start charging me, and what's the charge after that?").answer.text
    assert "25,000" in text and "Tk 5" in text, text
    order = _order(served, "How many digits does the Shapla Pay PIN have?")
    assert order[0][1].features[COL["first"]] == 1.0, order[0][1].quote.text
