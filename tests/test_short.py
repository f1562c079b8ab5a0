"""Short answers (`answer.short`): the span of the chosen sentence that a customer reads first."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.question.asking import asks_limit
from raglab.text.analyzer import analyze


def shorts(qtype: str, question: str, text: str, n: int = 1) -> list[str]:
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, n)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("qtype, question, text, want", [
    # A range is one value: the hours a shop is open are both ends of it.
    ("time", "When are agents open?", "Most agents are open from 9 am to 9 pm.", "from 9 am to 9 pm"),
    ("time", "এজেন্টের দোকান কখন খোলা থাকে?", "এজেন্টের দোকান সকাল ৯টা থেকে রাত ৯টা পর্যন্ত খোলা থাকে।",
     "সকাল ৯টা থেকে রাত ৯টা পর্যন্ত"),
    ("amount", "How much is the minimum and maximum recharge?", "A recharge must be between Tk 20 and Tk 1,000.",
     "between Tk 20 and Tk 1,000"),
    # The options of a list are the answer, not its first item; bare numbers inherit the unit.
    ("amount", "How much can I deposit each month?", "You can choose a deposit of Tk 500, 1,000, 2,000 or 5,000.",
     "Tk 500, 1,000, 2,000 or 5,000"),
    ("amount", "মাসে কত টাকা জমা রাখা যায়?", "মাসে ৫০০, ১,০০০, ২,০০০ বা ৫,০০০ টাকা জমা রাখা যায়।",
     "মাসে ৫০০, ১,০০০, ২,০০০ বা ৫,০০০ টাকা"),
    ("duration", "How long is the term?", "The scheme runs for a term of 1, 2 or 3 years.", "1, 2 or 3 years"),
])
def test_a_range_or_a_list_of_values_is_one_short_answer(qtype, question, text, want):
    assert shorts(qtype, question, text) == [want]


def test_values_separated_by_commas_alone_stay_apart():
    text = "Daily limits: Tk 30,000, Tk 25,000 for cash out."
    assert shorts("amount", "What are the daily limits?", text, n=2) == ["Tk 30,000", "Tk 25,000"]


def test_a_dash_between_dates_is_a_lifespan_not_the_answer():
    text = "Immanuel Kant (22 April 1724 – 12 February 1804) was a German philosopher."
    assert shorts("time", "When was Kant born?", text) == ["22 April 1724"]


def test_a_limit_is_a_number_not_free():
    text = "Cash in at an agent is free, up to Tk 30,000 a day."
    assert asks_limit("What is the daily limit for cash in?") and asks_limit("দৈনিক সর্বোচ্চ কত টাকা?")
    assert asks_limit("ক্যাশ ইনের সরবোচ্চ সীমা কত?")  # র + ব typed for the ligature
    assert not asks_limit("How much does cash in cost?")
    assert shorts("amount", "What is the daily limit for cash in?", text) == ["up to Tk 30,000 a day"]
    assert shorts("amount", "How much does cash in cost?", text) == ["free"]


def test_a_count_is_of_the_thing_asked_about_with_its_magnitude():
    text = ("Nigeria is one of the most densely populated countries in Africa, with approximately "
            "196 million people in an area of 920,000 km2.[1]")
    assert shorts("count", "How many people live in Nigeria?", text) == ["196 million"]


def test_a_footnote_mark_is_no_answer():
    text = "It had a population of approximately 35,000 as at the 2016 Census.[2]"
    assert shorts("count", "What is the population of Bathurst?", text) == ["35,000"]


@pytest.mark.parametrize("question, want", [
    ("max recharge amount in one go?", "Tk 1,000"),
    ("What is the minimum recharge?", "Tk 20"),
    ("How much is the minimum and maximum recharge?", "between Tk 20 and Tk 1,000"),  # both ends: the range
    ("সর্বোচ্চ কত টাকা রিচার্জ করা যায়?", "Tk 1,000"),
])
def test_a_question_for_one_end_of_a_range_gets_that_end(question, want):
    assert shorts("amount", question, "A recharge must be between Tk 20 and Tk 1,000.") == [want]


def test_a_list_of_options_stays_whole_for_a_question_about_its_end():
    text = "You can choose a deposit of Tk 500, 1,000, 2,000 or 5,000."
    assert shorts("amount", "What is the most I can deposit each month?", text) == ["Tk 500, 1,000, 2,000 or 5,000"]


@pytest.mark.parametrize("question, want", [("max recharge amount in one go?", "Tk 1,000 per recharge"),
                                            ("What is the minimum recharge?", "Tk 20")])
def test_the_value_the_sentence_names_as_the_asked_end_is_the_answer(question, want):
    text = "The minimum recharge is Tk 20 and the maximum is Tk 1,000 per recharge."
    assert shorts("amount", question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    # A percentage written in words is a percentage: its sentence states the asked rate and the
    # short answer is the value, not nothing ("one and a half percent", "দুই শতাংশ", "দেড় শতাংশ").
    ("What is the agent cash out fee rate?", "The agent cash out fee is one and a half percent of the amount.",
     "one and a half percent"),
    ("What percentage is the incentive?", "The government adds two percent to every remittance.", "two percent"),
    ("প্রবাসী আয়ে কত শতাংশ প্রণোদনা পাওয়া যায়?", "প্রবাসী আয়ে সরকার দুই শতাংশ প্রণোদনা দেয়।", "দুই শতাংশ"),
    ("ক্যাশ আউটের চার্জ কত শতাংশ?", "এজেন্টের কাছে ক্যাশ আউটের চার্জ দেড় শতাংশ।", "দেড় শতাংশ"),
    # A compound number is read whole, not from its last word: "twenty-five percent" is not "five percent".
    ("What percentage is the incentive?", "The government adds twenty-five percent to every remittance.", "twenty-five percent"),
    ("What percentage is the incentive?", "The government adds twenty percent to every remittance.", "twenty percent"),
    ("What percentage is the incentive?", "The government adds one hundred percent to every remittance.", "one hundred percent"),
    ("What percentage is the incentive?", "The government adds half a percent to every remittance.", "half a percent"),
])
def test_a_percentage_in_words_is_the_asked_value(question, text, want):
    from raglab.text.answertypes import typed_spans

    assert shorts("percent", question, text) == [want]
    assert [text[s.start:s.end] for s in typed_spans(text) if s.type == "percent"] == [want]
    # "নয়" (also "is not") counts only before the word it counts: "ফ্রি নয়।" states no percentage.
    assert not [s for s in typed_spans("এটি ফ্রি নয়। শতাংশ হিসেবে নয়।") if s.type == "percent"]


def test_a_caller_abroad_is_given_the_number_with_the_country_code():
    text = "Calling from outside Bangladesh: dial +880 9612 016789. Hotline: call 16789."
    assert shorts("contact", "What number do I call for customer care when I'm in Dubai?", text) == ["+880 9612 016789"]
    assert shorts("contact", "What number do I call for customer care?", "Hotline: call 16789.") == ["16789"]
    assert shorts("contact", "I'm abroad, which number do I call?", "Hotline: call 16789.") == []


def test_a_bangla_place_from_which_something_is_done_is_a_place():
    from raglab.question.places import places, places_for
    s = "অ্যাপের মেনু থেকে বিদ্যুৎ বিল বেছে নিন।"
    assert [s[a:b] for a, b in places(s)] == ["অ্যাপের মেনু থেকে"]
    assert places_for("সঞ্চয়ের মেয়াদ শেষ হলে টাকা কোথায় যায়?", s) == ()  # a source, not where money goes
