"""Faults a probe of questions typed by voice found (bench/fresh_probe_voice.jsonl): voice typing
writes every word said, and a dictated question often opens or closes with spoken filler ("ok so …",
"please tell me …", "আচ্ছা …", "… একটু বলেন তো") that names nothing to look for."""

import pytest

from helpers import docs, shown
from raglab.pipeline import Config, Pipeline
from raglab.question.respell import spoken_filler
from raglab.text.numbers import spoken_digits


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_the_filler_a_dictated_question_opens_or_closes_with_is_read_apart():
    assert spoken_filler("ok so which documents does a shop need for a merchant account") == {"ok"}
    assert spoken_filler("please tell me how many numbers are in the pin") == {"tell"}
    assert spoken_filler("আচ্ছা কমপ্লেইন করলে কয় দিনে সমাধান হয়") == {"আচ্ছা"}
    assert spoken_filler("একাউন্ট বন্ধ করতে কত দিন লাগে একটু বলেন তো") == {"একটু", "বলেন"}
    # The same words inside the question are what it asks: "is it ok", "একটু পরপর" (every little while).
    for asked in ("Is it ok to tap the link?", "is that ok??", "একটু পরপর অ্যাপ নিজে থেকেই লগআউট হয়ে যায় কেন?", "ok"):
        assert not spoken_filler(asked)


@pytest.mark.parametrize("question, filler", [
    ("ok so which documents does a shop need for a merchant account", "ok"),
    ("আচ্ছা ক্যাশ ইন করতে কোনো চার্জ লাগে", "আচ্ছা"),
    ("রিচার্জ সর্বোচ্চ কত টাকা করা যায় একটু বলেন তো", "বলেন"),
])
def test_spoken_filler_is_no_term_the_answerer_looks_for(served, question, filler):
    hits = served.search(question)
    a = served.assess(question, [served.chunks[h.index] for h in hits], [h.score for h in hits])
    assert filler not in a.q.weights and a.q.weights


def test_a_number_said_in_words_is_read_in_digits_where_the_help_centre_writes_digits():
    assert spoken_digits("পাঁচশো টাকার কেনাকাটা") == "৫০০ টাকার কেনাকাটা"  # an amount of money
    assert spoken_digits("cash out two thousand taka") == "cash out 2000 taka"  # a multiplier
    assert spoken_digits("দিনে ত্রিশ হাজার টাকার বেশি") == "দিনে ৩০০০০ টাকার বেশি"
    assert spoken_digits("points for ten taka") == "points for 10 taka"
    assert spoken_digits("পরপর তিনবার ভুল পিন") == "পরপর ৩ বার ভুল পিন"  # a count with its classifier
    # A number of things stays as said, and so do "one" (as often "a") and what was typed with digits.
    for said in ("logged in on two phones", "in one day", "close it in four months", "এই মাসে ২৫ হাজার পাঠানো",
                 "একজন ফোন করে", "ফ্রি নয়।"):
        assert spoken_digits(said) == said


@pytest.mark.parametrize("words, digits", [
    ("how many reward points do i get for a payment of five hundred taka", "how many reward points do i get for a payment of 500 taka"),
    ("এক হাজার টাকা ক্যাশ আউট করলে কত চার্জ কাটবে", "১০০০ টাকা ক্যাশ আউট করলে কত চার্জ কাটবে"),
    ("দিনে ত্রিশ হাজার টাকা ক্যাশ ইন করতে পারবো", "দিনে ৩০০০০ টাকা ক্যাশ ইন করতে পারবো"),
])
def test_an_amount_said_in_words_is_answered_as_its_digits_are(served, words, digits):
    assert shown(served, words) == shown(served, digits)
    assert served.ask(words).answer.confidence == served.ask(digits).answer.confidence
