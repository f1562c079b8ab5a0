"""Short answers to encyclopaedic factoid questions, a second round (`answer.short`, `question.factoid`):
the value of the sentence that asks, the place a preposition and an article name, the named thing of
a superlative question, money, era dates and run-in magnitudes, the date of a birth or a death, the
whole of "out of", the region after a place, and Bangla size words, time words and case endings.
The sentences are made up for the tests."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.question.factoid import asks_size, asks_which_one, extra_spans, life_event, measures
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type


def shorts(question: str, text: str, n: int = 1, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, n)
    return [text[s:e] for s, e in spans]


def test_the_counted_word_of_a_count_is_in_its_own_sentence():
    # "Population" opens the next sentence: it counts nothing of 10,000.
    text = "Its density of 2,400 people per square mile is the highest of any town above 10,000.[4] Population has grown since."
    assert shorts("What is the population density of Eastby?", text) == ["2,400 people per square mile"]


def test_a_place_after_at_the_is_a_place():
    text = "Open Cup 2015 (Vale Sports) was held last year in autumn at the Sala Nova."
    assert shorts("Where was Open Cup 2015 held?", text) == ["Sala Nova"]


@pytest.mark.parametrize("question, text, want", [
    ("What is the lightest metal?", "Lithium, a soft silvery metal, is the lightest metal known.", "Lithium"),
    ("What was Lena Berg's first novel?", "Her first novel, Quiet Harbour, appeared in 1934.", "Quiet Harbour"),
])
def test_a_superlative_or_a_first_work_asks_for_a_name(question, text, want):
    assert question_type(question) == "other" and asks_which_one(question)
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question", ["What is the interest on savings?", "What is the best way to pay?",
                                      "What is the request for?", "What is a forest?"])
def test_words_in_est_that_are_no_superlative(question):
    assert not asks_which_one(question)


@pytest.mark.parametrize("question, text, want", [
    ("How much did the film gross?", "The film was a hit, grossing over $3 million in its first year.", "over $3 million"),
    ("How much does shale oil sell for?", "A barrel of it sells for as high as US$95 per barrel.", "as high as US$95 per barrel"),
    ("When was the First Coast War?", "The First Coast War (181-179 BC) was the first of three wars.", "181-179 BC"),
    ("When was the clock first used?", "The first clocks appeared in 13th-century Europe.", "13th-century"),
    ("When was the tale written down?", "The tale was first written down in the late 7th century BCE by scribes.",
     "late 7th century BCE"),
    ("What is the population of Eastby?", "Eastby is home to more than 6million people.", "more than 6million"),
    ("What was the first road built in Norland?", "The first state road, now US 50, was opened in 1895.", "US 50"),
])
def test_values_the_answer_types_do_not_read(question, text, want):
    assert shorts(question, text) == [want]


def test_era_dates_answer_only_when_questions():
    assert [t for t, _, _ in extra_spans("A 19th-century breed", ("amount", "number"))] == []
    # A question about how long: the 19th century is no answer.
    assert shorts("How long do the horses live?", "The 19th-century breed lives 25 to 30 years.") == ["25 to 30 years"]
    # "pounds" weigh: no money.
    assert extra_spans("They eat 26 pounds of bananas.") == []


@pytest.mark.parametrize("question, want", [("When was Ada Kross born?", "2 May 1850"), ("When did Ada Kross die?", "9 June 1911")])
def test_a_birth_or_a_death_reads_its_end_of_the_lifespan(question, want):
    text = "Ada Kross (2 May 1850 – 9 June 1911) was a poet of the 19th century."
    assert shorts(question, text) == [want]


def test_a_birth_reads_the_date_after_born():
    text = "Kross moved to Oslo on 1 June 1870, a city she had not seen since she was born on 2 May 1850."
    assert shorts("When was Ada Kross born?", text) == ["2 May 1850"]
    assert life_event("When was the bridge built?") is None


def test_how_old_reads_the_founding_date_when_no_age_is_given():
    assert shorts("How old is the town of Eastby?", "Eastby was founded in 1275 on the king's orders.") == ["1275"]


def test_the_whole_after_out_of_is_not_the_count():
    text = "About 1,600 out of 40,000 travellers died on the road."
    assert shorts("How many people died on the road?", text) == ["About 1,600"]


def test_how_many_without_a_count_gets_the_share():
    text = "Studies report that about 15% of adults have the condition."
    assert shorts("How many adults have the condition?", text) == ["about 15%"]
    # "How large" asks for a size, not a share.
    assert shorts("How large is the group?", "In 1890 40% of them lived abroad.") == []


@pytest.mark.parametrize("text, want", [
    ("Ada Kross was born in Albany, New York, in 1850.", "Albany, New York"),
    ("Ada Kross was born in Dublin, Ireland.", "Dublin, Ireland"),
    ("Ada Kross was born in Washington, D.C. She moved in 1870.", "Washington, D.C."),
])
def test_a_place_comes_with_its_regions(text, want):
    assert shorts("Where was Ada Kross born?", text) == [want]


@pytest.mark.parametrize("question, size", [
    ("সেতুটি কত দূর?", True), ("ভবনটির উচ্চতা কত?", True), ("নদীটি কতো লম্বা?", True),
    ("টাকা আসতে কত লম্বা সময় লাগে?", False), ("ইকেওয়াইসি কতক্ষণ লাগে?", False),
])
def test_bangla_size_and_time_words(question, size):
    assert asks_size(question) is size


def test_a_bangla_unit_keeps_its_case_ending():
    text = "সেতুটির দৈর্ঘ্য ৬.১৫ কিলোমিটারের বেশি।"
    assert [text[a:b] for a, b in measures(text)] == ["৬.১৫ কিলোমিটারের"]


@pytest.mark.parametrize("question, text, want", [
    ("পরপর তিনবার ভুল পিন দিলে অ্যাকাউন্ট কতক্ষণ লক থাকে?", "পরপর তিনবার ভুল পিন দিলে অ্যাকাউন্ট ২৪ ঘণ্টার জন্য লক থাকে।", "২৪ ঘণ্টার"),
    ("ইকেওয়াইসি কতক্ষণে শেষ হয়?", "ইকেওয়াইসি সাধারণত ১০ মিনিটের মধ্যে শেষ হয়।", "সাধারণত ১০ মিনিটের মধ্যে"),
    ("অভিযোগের জবাব কত দিনে আসে?", "অভিযোগের জবাব ৫ দিনের ভেতরে আসে।", "৫ দিনের ভেতরে"),  # within, as মধ্যে
    # An amount keeps no case ending: "৩০,০০০ টাকার বেশি" is a limit, the bold its amount, and one
    # value is bolded once, not as "৫,০০০ টাকার" beside "৫,০০০ টাকা" (with its period, through "সব মিলিয়ে").
    ("দিনে সর্বোচ্চ কত টাকা জমা করা যায়?", "দিনে সব মিলিয়ে ৩০,০০০ টাকার বেশি জমা করা যায় না।", "দিনে সব মিলিয়ে ৩০,০০০ টাকা"),
])
def test_a_bangla_value_keeps_its_words_case_ending(question, text, want):
    assert shorts(question, text) == [want]


def test_the_misspelt_bangla_how_long_asks_a_duration():
    assert question_type("রিচার্জ ব্যর্থ হলে টাকা কতক্ষনের মধ্যে ফেরত আসে?") == "duration"


def test_a_year_in_quotation_marks_is_a_title():
    text = 'It aired on 20 March 2015, along with the previous episode, "2009".'
    assert shorts("When did the last episode air?", text) == ["20 March 2015"]


def test_a_when_question_keeps_ago():
    text = "The breed was first kept by farmers about 6,000 years ago in the hills."
    assert shorts("When was the breed first kept?", text) == ["about 6,000 years ago"]
    # How old: the duration alone.
    assert shorts("How old is the breed?", text) == ["about 6,000 years"]


# --- from a second read: the factoid readers on a help centre's questions -------------------------


@pytest.mark.parametrize("question, text", [
    ("How many times a year is profit paid on savings?", "Shapla Sanchay pays a profit rate of 7% a year on your savings."),
    ("How many taka is the cash out charge?", "The fee for cash out at an agent is 1.85% of the amount."),
    ("How many merchants pay the service charge?", "The merchant pays 1.5% of each payment to Shapla Pay."),
])
def test_how_many_is_not_answered_by_a_fee_or_a_rate(question, text):
    assert shorts(question, text) == []


def test_how_many_people_is_answered_by_the_share_of_them():
    assert shorts("How many people have the condition?", "It affects about 15% of adults.") == ["about 15%"]


@pytest.mark.parametrize("question, text", [
    ("What is the strongest PIN?", "Shapla Pay asks for your PIN before every payment."),
    ("What is the earliest a refund can arrive?", "You get an SMS when the refund arrives."),
    ("Which is the cheapest option to cash out?", "Shapla Pay agents charge 1.85% for cash out."),
])
def test_a_superlative_the_sentence_does_not_say_names_nothing(question, text):
    assert shorts(question, text, qtype="other") == []


@pytest.mark.parametrize("text", ["Repayment period | Within 3 months", "A mobile recharge failed | Within 24 hours",
                                  "Step 1: Replace your SIM", "Minimum Tk 50 per cash-out"])
def test_a_value_or_a_step_is_no_numbered_name(text):
    assert extra_spans(text, ("name",)) == []


def test_a_code_in_quotation_marks_is_still_the_answer():
    assert shorts("What is the USSD code?", 'Dial "*247#" and follow the menu.') == ["*247#"]


def test_a_customers_own_age_is_not_answered_by_a_date():
    assert shorts("How old must my child be?", "The student account has been available since 2021.") == []


def test_a_place_takes_no_weekday_or_list_as_its_region():
    assert shorts("Where is the office?", "Our office is in Dhaka, Monday to Friday it is open.") == ["Dhaka"]
    assert shorts("Where are the branches?", "Branches are in Gulshan, Banani or Uttara.") == ["Gulshan"]
