"""A two-fact answer whose one half asks no value shows that half's quote in its headline.

"শাপলা পে-র পিন কয় সংখ্যার হয়? আর কেউ পিন জেনে গেছে সন্দেহ হলে কী করব?" quoted both sentences
but showed "৫ সংখ্যার" alone as its short answer: the half asking what to do was unanswered in the
headline. `shorts.phrase_half`, applied by `answerer.decide` after the confidence, adds the quote of
the half asking yes or no, what, why or how, in the order the question asks its halves.
"""

import functools

import pytest

import raglab.answer.answerer as answerer
from helpers import docs
from raglab.pipeline import Config, Pipeline


@functools.lru_cache(maxsize=None)
def pipe() -> Pipeline:
    return Pipeline(list(docs()), Config())


@pytest.mark.parametrize("question, want", [
    ("শাপলা পে-র পিন কয় সংখ্যার হয়? আর কেউ পিন জেনে গেছে সন্দেহ হলে কী করব?",
     ["৫ সংখ্যার", "সন্দেহ হলেই দেরি না করে অ্যাপ থেকে পিন বদলে নিন।"]),
    ("ভুল নম্বরে টাকা চলে গেছে। রিপোর্ট করার পর টাকাটা যদি তখনও ওই লোকের ওয়ালেটে থাকে, তাহলে কী হয়? আর পুরো পর্যালোচনা কত দিনে শেষ হয়?",
     ["টাকা যদি তখনও প্রাপকের ওয়ালেটে থাকে, তাহলে তদন্ত চলাকালীন সেই টাকা আটকে রাখা হয়।", "১০ কার্যদিবসের মধ্যে"]),
    ("Sent a pair of shoes back and the shop has started the refund. What happens to the reward points I got on that purchase, "
     "and how long until the money is back?",
     ["If the payment was refunded by the merchant, the points earned on it are removed, because the purchase was cancelled.",
      "within 7 working days"]),
])
def test_the_half_asking_no_value_is_answered_by_its_quote(question, want):
    ans = pipe().ask(question).answer
    assert [s.text for s in ans.short_answers] == want
    # each short answer lies in a quote shown, at its offsets
    for s in ans.short_answers:
        assert any(x.holds(s) and x.text[s.start - x.start:s.end - x.start] == s.text for x in ans.quotes)


def test_presentation_only(monkeypatch):
    question = "শাপলা পে-র পিন কয় সংখ্যার হয়? আর কেউ পিন জেনে গেছে সন্দেহ হলে কী করব?"
    with_it = pipe().ask(question).answer
    monkeypatch.setattr(answerer, "phrase_half", lambda composed, q, order: composed)
    without = pipe().ask(question).answer
    assert [s.text for s in without.short_answers] == ["৫ সংখ্যার"]
    assert with_it.confidence == without.confidence and with_it.quotes == without.quotes


@pytest.mark.parametrize("question", [
    "ক্যাশ ইন আর ক্যাশ আউটের দৈনিক টাকার সীমা কত?",  # "ক্যাশ ইন" is a half of one noun: it asks the other half's value
    "এজেন্ট আর অংশীদার ব্যাংকের এটিএমে ক্যাশ আউটের চার্জে পার্থক্য কী?",  # two charges compared
])
def test_two_values_asked_keep_their_values(question):
    ans = pipe().ask(question).answer
    # Each a value with its period ("দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা"), not the half's whole quote.
    assert len(ans.short_answers) == 2 and all(len(s.text) < 40 and any(ch.isdigit() for ch in s.text) for s in ans.short_answers)


def _at_any_confidence(question: str):
    p = pipe()
    hits = p.search(question)[:p.config.k]
    return p.answer(question, [p.chunks[h.index] for h in hits], 0.0, [h.score for h in hits])


@pytest.mark.parametrize("question", [
    "What's the daily and the monthly limit on send money?",  # "What's the daily" is the other half's noun, no clause of its own
    "What does Shapla Pay take from each sale, and when does the money reach my bank?",  # its value is bold already
])
def test_a_half_asking_a_value_gets_no_sentence(question):
    got = _at_any_confidence(question)
    assert not any(s.text == x.text for s in got.short_answers for x in got.quotes), got.short_answers


# A question no value answers, quoted with two sentences: the best unit's is the headline (`shorts.best_sentence`),
# when the other adds no word of the question.
@pytest.mark.parametrize("question, want", [
    ("What happens to the money if it is still in the wrong recipient's wallet?",
     "If the money is still in the recipient's wallet, it is held while the case is reviewed."),
    ("What types of accounts does Shapla Pay have?", "Shapla Pay offers three account types: personal, agent and merchant."),
])
def test_the_best_sentence_is_the_headline_of_an_answer_no_value_answers(question, want):
    ans = pipe().ask(question).answer
    assert len(ans.quotes) == 2 and [s.text for s in ans.short_answers] == [want]
    assert any(x.holds(ans.short_answers[0]) and x.text == want for x in ans.quotes)


@pytest.mark.parametrize("question", [
    "What do I need to reset a forgotten PIN in the app?",  # what one needs: the things named, not a sentence
    "Can I add money to my wallet with a card issued abroad?",  # the other sentence holds "card", "issued": both answer
    "Does adding money with a card cost anything?",  # the best is the bank account's "free", the card's fee beside it
])
def test_no_best_sentence_headline(question):
    ans = _at_any_confidence(question)
    assert len(ans.quotes) == 2 and ans.short_answers == []
