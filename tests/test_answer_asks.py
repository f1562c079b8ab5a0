"""What a question asks, read from its words (`answer/asking.py`), and the answers that follow:
how much one can do asks for the upper limit, never the minimum."""

import doctest

import pytest

from helpers import docs
from raglab.answer import asking
from raglab.answer.answerer import asks_more
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json


@pytest.fixture(scope="module")
def served():
    # The served configuration, every answer composed whatever its confidence.
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_doctests():
    assert doctest.testmod(asking).failed == 0


def test_how_much_one_can_do_asks_for_the_upper_limit():
    assert asks_more("আজকে আর কত টাকা তুলতে পারব?", "amount")
    assert asks_more("How much more can I send today?", "amount")
    assert asks_more("Can I cash out 30,000 taka today?", "yesno")
    assert asks_more("can i send 40000 today", "yesno")
    # A stated age or duration asks about a minimum requirement; so does a question for the minimum.
    assert not asks_more("opened my account 2 months ago, can i get a nano loan yet?", "yesno")
    assert not asks_more("My son is 16, can he open an account?", "yesno")
    assert not asks_more("What is the minimum I can cash out?", "amount")
    assert not asks_more("কত দিনের মধ্যে টাকা ফেরত পাব?", "duration")
    assert asking.only_lower("প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।")
    assert not asking.only_lower("দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")


@pytest.mark.parametrize("question", ["আজ দুইবারে ১৫ হাজার টাকা ক্যাশ আউট করেছি। আজ আর কত টাকা তুলতে পারব?",
                                      "আজকে তিনবারে ২০ হাজার টাকা ক্যাশ আউট করে ফেলছি। আজকে আর কত টাকা তুলতে পারব?"])
def test_how_much_more_one_can_cash_out_is_not_answered_by_the_minimum(served, question):
    got = ask_json(served.ask(question))
    assert "ন্যূনতম" not in got["answer"], got["answer"]
    assert "২৫,০০০ টাকা" in [s["text"] for s in got["short_answers"]], got["short_answers"]
