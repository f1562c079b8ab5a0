"""Short answers keep the words a value is qualified by (`question.qualifiers`) and a place keeps
the places listed with it and the option it goes on to (`places.listed`). The sentences are made up
for the tests (in the help centre's style)."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type


def shorts(question: str, text: str, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, 1)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("question, text, want", [
    # A Bangla value's qualifier comes before it, as "up to" does in English, and its period before that.
    ("দিনে কয়বার বিল দেওয়া যায়?", "দিনে সর্বোচ্চ ৮ বার বিল দেওয়া যায়।", "দিনে সর্বোচ্চ ৮ বার"),
    # Bangla's "সব মিলিয়ে" (in total) between the period and the qualifier keeps the period, as "in total" does
    ("মাসে কত টাকা পর্যন্ত বিল দেওয়া যায়?", "মাসে সব মিলিয়ে সর্বোচ্চ ৬০,০০০ টাকা বিল দেওয়া যায়।", "মাসে সব মিলিয়ে সর্বোচ্চ ৬০,০০০ টাকা"),
    # and alone, with no period before it, is not taken
    ("কত টাকা পর্যন্ত বিল দেওয়া যায়?", "সব মিলিয়ে সর্বোচ্চ ৬০,০০০ টাকা বিল দেওয়া যায়।", "সর্বোচ্চ ৬০,০০০ টাকা"),
    ("একবারে কমপক্ষে কত টাকা বিল দিতে হয়?", "প্রতিবার বিলের ন্যূনতম ৩০ টাকা দিতে হয়।", "ন্যূনতম ৩০ টাকা"),
    ("কয়টি কার্ড যোগ করা যায়?", "সর্বোচ্চ ৩টি কার্ড যোগ করা যায়।", "সর্বোচ্চ ৩টি"),
    # A value that holds only usually says so.
    ("বিল জমা হতে কত সময় লাগে?", "বিল সাধারণত ২ ঘণ্টার মধ্যে জমা হয়।", "সাধারণত ২ ঘণ্টার মধ্যে"),
    ("How long does a bill payment take?", "A bill payment usually within 2 hours reaches the biller.", "usually within 2 hours"),
    # An amount or a duration counted from one end says which.
    ("How much can I pay in bills for free?", "The first Tk 10,000 of bills you pay each month is free.", "The first Tk 10,000"),
    ("How far back can I see my bills?", "The app lists your bills for the last 6 months.", "the last 6 months"),
    ("মাসে কত টাকা পর্যন্ত ফ্রিতে বিল দেওয়া যায়?", "প্রতি মাসে প্রথম ১০,০০০ টাকা পর্যন্ত বিল দেওয়া সম্পূর্ণ ফ্রি।",
     "প্রতি মাসে প্রথম ১০,০০০ টাকা পর্যন্ত"),
    # "in total" keeps the period after it.
    ("What is the monthly limit for bill payments?", "Up to Tk 60,000 in total a month.", "Up to Tk 60,000 in total a month"),
])
def test_a_value_keeps_its_qualifier(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    # Encyclopaedic counts: "typically" says how many, and "last" here is a verb.
    ("How many keys are on the modern flute?", "The modern flute typically 16 keys, with extra keys on some models.", "16"),
    ("How long is a general apprenticeship?", "Apprenticeships typically last 3 to 7 years.", "3 to 7 years"),
])
def test_no_qualifier_where_the_word_is_no_qualifier(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    # Places listed with "or"/"and": the reader may go to any of them.
    ("কার্ড হারালে কোথায় যেতে হবে?", "মূল জাতীয় পরিচয়পত্র নিয়ে যেকোনো এজেন্ট পয়েন্ট বা কাস্টমার কেয়ার সেন্টারে যান।",
     "এজেন্ট পয়েন্ট বা কাস্টমার কেয়ার সেন্টারে"),
    ("প্রণোদনার অঙ্ক কোথায় দেখব?", "প্রণোদনার অঙ্ক লেনদেনের এসএমএস ও অ্যাপের লেনদেন তালিকায় আলাদা করে দেখানো হয়।",
     "লেনদেনের এসএমএস ও অ্যাপের লেনদেন তালিকায়"),
    ("টাকা কোথা থেকে পাঠানো যায়?", "প্রেরক ওই কোম্পানির শাখা, ওয়েবসাইট বা অ্যাপ থেকে টাকা পাঠাতে পারেন।", "কোম্পানির শাখা, ওয়েবসাইট বা অ্যাপ থেকে"),
    ("Where can I see the bill receipt?", "You can see it in the SMS and in your transaction history.",
     "in the SMS and in your transaction history"),
    # A Bangla place in the app goes on to the option named in quotes, as an English path does.
    ("কার্ড যোগ করার অপশন কোথায়?", "অ্যাপের মেনু থেকে \"কার্ড\" খুলে \"নতুন কার্ড যোগ করুন\" ট্যাপ করুন।",
     "অ্যাপের মেনু থেকে \"কার্ড\" খুলে \"নতুন কার্ড যোগ করুন\""),
    ("পিন বদলানোর অপশন অ্যাপের কোথায়?", "অ্যাপ খুলে সেটিংস পাতায় \"পিন বদলান\" অপশনে চাপ দিন।", "সেটিংস পাতায় \"পিন বদলান\" অপশনে"),
])
def test_a_place_keeps_the_places_listed_with_it_and_its_option(question, text, want):
    assert shorts(question, text, "place") == [want]


@pytest.mark.parametrize("question, text, want", [
    # Of two values, the one counted in the asked period: in Bangla the period comes before the value.
    ("বিল পেমেন্টের মাসিক সীমা কত?", "দিনে সব মিলিয়ে সর্বোচ্চ ২০,০০০ টাকা এবং মাসে সর্বোচ্চ ১,০০,০০০ টাকা বিল দেওয়া যায়।",
     "মাসে সর্বোচ্চ ১,০০,০০০ টাকা"),
    ("বিল পেমেন্টের দৈনিক সীমা কত?", "দিনে সব মিলিয়ে সর্বোচ্চ ২০,০০০ টাকা এবং মাসে সর্বোচ্চ ১,০০,০০০ টাকা বিল দেওয়া যায়।",
     "দিনে সব মিলিয়ে সর্বোচ্চ ২০,০০০ টাকা"),
    ("What is the monthly limit for bill payments?", "You can pay bills of Tk 20,000 a day and Tk 1,00,000 a month.", "Tk 1,00,000 a month"),
])
def test_the_value_of_the_asked_period(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, want", [
    ("বিল পেমেন্টের দৈনিক সীমা কত?", "দিনে সব মিলিয়ে সর্বোচ্চ 20,000 টাকা"),
    ("বিল পেমেন্টের মাসিক সীমা কত?", "মাসে সর্বোচ্চ 1,00,000 টাকা"),
])
def test_the_value_of_the_asked_period_in_bangla_written_with_ascii_digits(question, want):
    # A Bangla sentence may write its digits in ASCII: its values' periods still come before them (read
    # by the first character, "20,000 টাকা" was taken for English and given the month after it).
    text = "দিনে সব মিলিয়ে সর্বোচ্চ 20,000 টাকা এবং মাসে সর্বোচ্চ 1,00,000 টাকা বিল দেওয়া যায়।"
    assert shorts(question, text) == [want]


def test_two_places_of_one_list_are_one_short_answer():
    # Both places are found, and each widens to the list (`places.listed`): one span, not the list twice.
    question, text = "Where can I see the bill receipt?", "You can see it in the SMS and in your transaction history."
    spans = short_spans("place", frozenset(), set(analyze(question)), text, text_info(text).order, question, 2)
    assert [text[s:e] for s, e in spans] == ["in the SMS and in your transaction history"]


@pytest.mark.parametrize("text, want", [
    # "পর" (after) and "আর" (and) end in র as a genitive does, but name no place.
    ("ফর্ম পূরণের পর শাখা বা অফিসে যান।", "শাখা বা অফিসে"),
    ("আর এজেন্ট বা শাখায় যান।", "এজেন্ট বা শাখায়"),
])
def test_a_word_ending_like_a_genitive_is_not_part_of_a_listed_place(text, want):
    assert shorts("কোথায় যেতে হবে?", text, "place") == [want]
