"""Counts written in words or as ranges, and percents written the Bangla ways, read as what they
are: "তিনবার", "তিন বার" and "three times" are the count 3; "2-3 days", "২-৩ দিন" and "3 to 5
working days" are one duration; "শতকরা ৫ টাকা" (5 per hundred), "৫ শতাংশ", "৫ পার্সেন্ট" are
percents."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.text.answertypes import question_type, typed_spans
from raglab.text.numbers import another_count, number_values, numbers, states_a_case


def spans(text):
    return [(sp.type, text[sp.start:sp.end]) for sp in typed_spans(text)]


def short(kind, question, text, terms):
    return [text[s:e] for s, e in short_spans(kind, frozenset(numbers(question)), terms, text, text_info(text).order, question)]


@pytest.mark.parametrize("text", ["তিনবার", "তিন বার", "three times", "৩ বার"])
def test_a_count_in_words_is_a_count(text):
    assert number_values(text) == ["3"]
    assert spans(text) == [("count", text)]


@pytest.mark.parametrize("text, kind", [("2-3 days", "duration"), ("2\u20133 working days", "duration"), ("২-৩ দিন", "duration"),
                                        ("3 to 5 working days", "duration"), ("৩ থেকে ৫ কার্যদিবস", "duration"),
                                        ("2-3 times", "count"), ("২-৩ বার", "count"), ("৩ থেকে ৫ বার", "count")])
def test_a_range_is_one_value(text, kind):
    assert spans(text) == [(kind, text)]


def test_a_lifespan_stays_two_dates():
    text = "22 April 1724 \u2013 12 February 1804"
    assert [k for k, _ in spans(text)] == ["time", "time"]


def test_the_short_answer_keeps_the_whole_range_in_both_languages():
    assert short("duration", "How long do refunds take?", "Refunds reach your wallet within 2-3 working days.",
                 {"refund"}) == ["within 2-3 working days"]
    assert short("duration", "রিফান্ড আসতে কত দিন লাগে?", "রিফান্ড ২-৩ কার্যদিবসের মধ্যে ওয়ালেটে আসে।",
                 {"রিফান্ড"}) == ["২-৩ কার্যদিবসের মধ্যে"]


def test_the_questions_own_count_in_words_is_not_the_answer():
    assert short("count", "আমি তিনবার ভুল পিন দিয়েছি, আর কতবার দিলে লক হবে?",
                 "৩ বার ভুল পিন দিলে অ্যাকাউন্ট লক হয়, আর ৫ বার দিলে বন্ধ হয়।", {"পিন", "লক"}) == ["৫ বার"]
    assert short("count", "I entered a wrong PIN three times. How many more times before it is blocked?",
                 "After 3 wrong PINs it locks for a day; after 5 times it is blocked.", {"pin", "block"}) == ["after 5 times"]


def test_a_rate_for_another_count_in_words_is_another_case():
    # "100 points for Tk 10" states the case of 100 points, not of the 300 asked about
    assert another_count("How much will I get if I redeem three hundred reward points?", "You can redeem 100 points for Tk 10.")
    assert another_count("তিনশো পয়েন্ট দিয়ে কত টাকা পাব?", "১০০ পয়েন্টে ১০ টাকা পাওয়া যায়।")
    assert not another_count("তিনশো পয়েন্ট দিয়ে কত টাকা পাব?", "৩০০ পয়েন্টে ৩০ টাকা পাওয়া যায়।")
    assert not another_count("Can I open one account?", "You can hold 2 accounts.")  # "one" is the article


def test_whether_a_question_states_a_case_at_all():
    assert states_a_case("How much for three hundred points?") and states_a_case("৫০ টাকায় কত পয়েন্ট লাগে?")
    assert not states_a_case("What is the cash out fee?") and not states_a_case("ক্যাশ আউট চার্জ কত?")


@pytest.mark.parametrize("text, value", [("শতকরা ৫ টাকা", "শতকরা ৫ টাকা"), ("শতকরা সাড়ে সাত ভাগ", "শতকরা সাড়ে সাত ভাগ"),
                                         ("সুদ ৯ শতাংশ", "৯ শতাংশ"), ("চার্জ ১.৮৫ পার্সেন্ট", "১.৮৫ পার্সেন্ট"),
                                         ("চার্জ ৫ পারসেন্ট", "৫ পারসেন্ট"), ("The fee is 1.85 percent.", "1.85 percent")])
def test_a_percent_written_the_bangla_ways_is_a_percent(text, value):
    assert spans(text) == [("percent", value)]


@pytest.mark.parametrize("question", ["ন্যানো লোনে সুদ শতকরা কত?", "ক্যাশ আউটে শতকরা কত টাকা কাটে?", "সুদের হার কত পারসেন্ট?",
                                      "cash out e shotokora koto taka kate?", "What percentage is the cash out fee?"])
def test_a_question_asking_per_hundred_asks_a_percent(question):
    assert question_type(question) == "percent"


def test_the_short_answer_of_a_fee_per_hundred_is_the_percent():
    text = "এজেন্টের কাছে ক্যাশ আউটে শতকরা ১.৮৫ টাকা চার্জ কাটা হয়।"
    assert short("amount", "ক্যাশ আউটে কত টাকা চার্জ কাটে?", text, {"চার্জ"}) == ["শতকরা ১.৮৫ টাকা"]
