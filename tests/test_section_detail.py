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


@pytest.mark.parametrize("question, detail", [
    # The story names the topic (a new phone, the account); the section opens on setting up the new
    # phone, and the answer, one device at a time, comes later.
    ("Set up Shapla Pay on my new Samsung yesterday. My old phone now belongs to my little brother, "
     "can he still get into my account on it?", "An account can be active on one device at a time."),
    # A note on the wrong transfer's section, over another article's opening about a recharge.
    ("ভুল নম্বরে টাকা যাওয়ার পর একজন ফোন করে নিজেকে শাপলা পে-র লোক বলল, টাকা ফেরত আনতে আমার ওটিপিটা লাগবে। দেব?",
     "শাপলা পে কখনো আপনার পিন বা ওটিপি চায় না"),
    # The reference to a send, over the opening of the wrong transfer's investigation.
    ("প্রতি মাসে বাড়িওয়ালার নম্বরে ভাড়া পাঠাই। পাঠানোর সময় “বাসা ভাড়া” এমন কিছু লিখে রাখার অপশন আছে, "
     "যাতে পরে বুঝতে পারি কোনটা কীসের টাকা?", "ছোট রেফারেন্সও যোগ করতে পারেন"),
    # Not "you do not have to close the account" (the opening about stopping for a while).
    ("I'm done with Shapla Pay and want the account shut, but there's still about 300 taka sitting in it. "
     "Can you just close it with the money still there?", "We cannot close an account that still holds money."),
])
def test_a_story_questions_answer_is_no_sections_opening_by_place(served, question, detail):
    # A customer tells the story first and asks after it: the story names the topic a section opens
    # on, so opening a section is no sign of the answer (`first` is 0 for every candidate).
    text = served.ask(question).answer.text or ""
    assert detail in text, text
    assert all(c.features[COL["first"]] == 0.0 for _, c in _order(served, question))



def test_a_story_how_to_questions_answer_is_no_ways_first_step(served):
    # A how-to question telling its case first: the story names the way already taken (a loan seen in
    # the app), so the first step of the way ("Open the Shapla Pay app and tap Loans.") is no sign of
    # the answer; the case's own section answers ("If you see a loan you did not request, call 16789").
    question = "অ্যাপে দেখি আমার নামে একটা লোন, অথচ আমি কোনো লোনের আবেদন করিনি। এখন কী করব?"
    text = served.ask(question).answer.text or ""
    assert "16789" in text and "tap Loans" not in text, text
    assert all(c.features[COL["first"]] == 0.0 for _, c in _order(served, question))
