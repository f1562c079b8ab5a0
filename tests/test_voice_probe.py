"""Faults a probe of questions typed by voice found (bench/fresh_probe_voice.jsonl): phone voice
typing spells a number as words or digits unpredictably ("পাঁচশো টাকা", "৫০০ টাকা"), and the
help centre writes every amount in digits."""

import pytest

from helpers import docs, shown
from raglab.pipeline import Config, Pipeline
from raglab.text.numbers import spoken_digits


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


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
