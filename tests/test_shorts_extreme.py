"""A choice of values answers a question asking the minimum or the maximum by one of them
(`shorts.extreme_of`): "What is the minimum amount for a Shapla Sanchay deposit?" showed the
whole choice "Tk 500, 1,000, 2,000 or 5,000" in bold."""

import pytest

from helpers import docs
from raglab.answer.shorts import extreme_of
from raglab.pipeline import Config, Pipeline
from raglab.question.asking import asks_end
from raglab.schema import ask_json


def test_the_smallest_or_largest_of_a_choice():
    t = "You can choose a monthly deposit of Tk 500, 1,000, 2,000 or 5,000."
    s, e = t.index("Tk 500"), t.index("5,000") + len("5,000")
    assert t.__getitem__(slice(*extreme_of(t, s, e, "lower"))) == "Tk 500"
    assert t.__getitem__(slice(*extreme_of(t, s, e, "upper"))) == "5,000"
    b = "মাসিক জমা ৫০০, ১,০০০, ২,০০০ বা ৫,০০০ টাকা।"
    s, e = b.index("৫০০"), b.index("৫,০০০") + len("৫,০০০")
    assert b.__getitem__(slice(*extreme_of(b, s, e, "upper"))) == "৫,০০০"
    one = "The minimum recharge is Tk 20."
    assert extreme_of(one, one.index("Tk"), len(one) - 1, "lower") == (one.index("Tk"), len(one) - 1)  # no series


def test_which_end_a_question_asks():
    assert asks_end("What is the minimum amount for a deposit?") == "lower"
    assert asks_end("শাপলা সঞ্চয়ে মাসে সর্বনিম্ন কত টাকা জমা দিতে হয়?") == "lower"
    assert asks_end("What's the maximum I can send?") == "upper"
    assert asks_end("What are the minimum and maximum recharge?") is None
    assert asks_end("How much is the deposit?") is None


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_the_minimum_deposit_is_one_value_in_bold(served):
    got = ask_json(served.ask("What is the minimum amount for a Shapla Sanchay deposit?"))
    assert [s["text"] for s in got["short_answers"]] == ["Tk 500"]
