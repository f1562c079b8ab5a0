"""Short answers to encyclopaedic factoid questions (`question.factoid`, `answer.short`): the name a
sentence opens with, a measure for a question about size, what an abbreviation stands for, and
the question types and spans they rest on. The sentences are made up for the tests."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.question.asking import lower_for_upper
from raglab.question.factoid import abbreviation, asks_size, demonym, expansion_of
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type
from raglab.text.numbers import number_values


def shorts(question: str, text: str, n: int = 1, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, n)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("question, text, want", [
    # The subject of the sentence is the answer; other names in it are not.
    ("Who was the first mayor of Riverton?", "Alma Berg, daughter of a ferryman from Oslo, was the first mayor of Riverton.",
     "Alma Berg"),
    ("Which is the largest moon?", "Ganymede (a moon of Jupiter) is the largest moon of the Solar System.", "Ganymede"),
    ("What is the deepest lake in the world?", "Lake Baikal, in Siberia, is the deepest lake in the world.", "Lake Baikal"),
    ("What was the last battle of the war?", "The Battle of Elm Ford was the last battle of the Border War.",
     "Battle of Elm Ford"),
])
def test_the_name_a_sentence_opens_with_answers_who_and_which(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    # The question's own subject, an adverb, an abstract noun: no name; a founder is no place.
    ("Who founded Quill Press?", "Quill Press (QP) is a small publisher in Leeds.", []),
    ("Who is eligible for a loan?", "Eligibility is based on six months of history.", []),
    ("Who is most at risk?", "Currently, older adults are most at risk.", []),
])
def test_an_opening_that_names_nothing_new_is_no_answer(question, text, want):
    assert shorts(question, text) == want


def test_a_peoples_adjective_is_no_name_but_a_country_is():
    text = "Ada Kross is a Dutch poet who has led the Verse Guild since 2001."
    assert shorts("Who leads the Verse Guild?", text) == ["Ada Kross"]
    text = "It is run by a Canadian firm, Northway Media, from Toronto."
    assert shorts("Who runs the radio station?", text) == ["Northway Media"]


def test_the_agent_after_by_answers_who_founded():
    text = "Some say the first club in Riverton was founded by Tomas Lind, not by Carl Dahl of Bergen."
    assert shorts("Who founded the first club in Riverton?", text) == ["Tomas Lind"]


def test_early_and_late_widen_a_time_not_a_name():
    text = "The hall was opened by the late Queen Ingrid in a ceremony."
    assert shorts("Who opened the hall?", text) == ["Queen Ingrid"]


def test_a_first_name_ending_like_a_peoples_adjective_is_a_name():
    text = "Brian designed the bridge, and Susan built it."
    assert not demonym(text, 0, 5) and not demonym(text, 31, 36)
    text = "It is run by a Canadian firm."
    assert demonym(text, 15, 23)


@pytest.mark.parametrize("question, text, want", [
    ("How big is Norland?", "It covers an area of 52,300 square kilometres (20,200 sq mi) and has 3,100,000 people.",
     "52,300 square kilometres (20,200 sq mi)"),
    ("How long is the Elm River?", "The Elm River flows for 412 kilometres from the hills, and was mapped in 1850.",
     "412 kilometres"),
    ("How large is Pine Lake Park?", "Pine Lake Park is a 64km2 (25sqmi) reserve, one of the largest in the region.",
     "64km2 (25sqmi)"),
])
def test_a_question_about_size_is_answered_by_a_measure(question, text, want):
    assert asks_size(question)
    assert shorts(question, text) == [want]


def test_how_long_about_time_keeps_the_duration():
    assert not asks_size("How long does a refund take?")
    text = "The refund reaches your wallet within 7 working days, wherever you are, even 300 km away."
    assert shorts("How long is the refund wait?", text) == ["within 7 working days"]
    assert shorts("How long is the refund?", text) == ["within 7 working days"]


@pytest.mark.parametrize("question, text, want", [
    ("What does OTP stand for?", "Enter the one-time password (OTP) we send you by SMS.", "one-time password"),
    ("What does NID stand for?", "Bring your National Identity Document, the NID card.", "National Identity Document"),
    ("What does KYC stand for in banking?", "Know Your Customer checks (KYC) confirm who you are.", "Know Your Customer"),
])
def test_what_an_abbreviation_stands_for(question, text, want):
    assert abbreviation(question)
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question", ["What does it mean?", "What does it mean if I see an in-app notice?",
                                      "What does pending mean?", "What do you mean by agent?", "What does this mean?"])
def test_only_capitals_are_an_abbreviation(question):
    assert abbreviation(question) is None


def test_what_does_x_mean_keeps_its_short_answer():
    text = "It means the payment is held in the app for up to 24 hours."
    question = "What does it mean if my payment is pending?"
    assert shorts(question, text) == [text[s:e] for s, e in _plain(question, text)]
    # An abbreviation with no expansion in the sentence falls through to the other readers.
    assert shorts("What does OTP mean for the wait?", "The code comes within 2 minutes.", qtype="duration") == \
        ["within 2 minutes"]


def _plain(question, text):
    from raglab.answer.short import _short_spans
    return _short_spans(question_type(question), frozenset(), set(analyze(question)), text, text_info(text).order,
                        question, 1)


def test_a_minimum_in_words_against_an_amount_stated_below_it():
    text = "প্রতিবার সর্বনিম্ন ১ হাজার টাকা পাঠানো যায়।"
    assert not lower_for_upper(True, text, frozenset(number_values("৫০০ টাকা পাঠানো যাবে?")))
    assert lower_for_upper(True, text, frozenset(number_values("৫০০০ টাকা পাঠানো যাবে?")))
    assert lower_for_upper(True, "The minimum is Tk 20 (see note ²).", frozenset({"²"}))


def test_the_short_answer_reads_a_stated_amount_below_a_minimum_as_the_features_do():
    text = "The minimum recharge is Tk 20."
    assert shorts("How much can I recharge at a time, even 15 taka?", text, qtype="amount") == ["Tk 20"]


def test_no_run_of_initials_gives_no_expansion():
    assert expansion_of("PIN", "Keep your PIN secret.") is None


def test_once_and_twice_count_times_not_people():
    text = "Once a quiet fishing port, Lowmouth now has more than 2 million people."
    assert shorts("How many people live in Lowmouth?", text) == ["more than 2 million"]
    text = "You can change your PIN twice a day."
    assert shorts("How many times can I change my PIN?", text) == ["twice a day"]


def test_a_bare_head_keeps_its_restrictive_clause():
    text = "A dry spell is a weather pattern that brings no rain for weeks, mostly in summer."
    assert shorts("What is a dry spell?", text, qtype="other") == ["a weather pattern that brings no rain for weeks"]
    text = "A conurbation is a region comprising a number of cities that merged."
    assert shorts("What is a conurbation?", text, qtype="other") == ["a region comprising a number of cities"]


@pytest.mark.parametrize("question, want", [
    ("What is the capital of Norland?", "entity"),  # "cap" is a word of its own, not the start of "capital"
    ("What is the daily cap?", "amount"),
    ("What's the current population of Lowmouth?", "count"),
    ("What is the minimum balance?", "amount"),
])
def test_question_types_of_factoid_questions(question, want):
    assert question_type(question) == want


def test_early_mid_and_late_stay_with_a_century_or_a_decade():
    assert shorts("When was the bridge built?", "The bridge was built in the late 14th century by monks.") == \
        ["late 14th century"]
    assert shorts("When did the league start?", "The league began in the early 1950s in Ohio.") == ["early 1950s"]


@pytest.mark.parametrize("question, text, want", [
    ("দেশটির আয়তন কত?", "দেশটির আয়তন ১,৪৭,৫৭০ বর্গকিলোমিটার, জনসংখ্যা ১৭ কোটি।", "১,৪৭,৫৭০ বর্গকিলোমিটার"),
    ("নদীটি কত লম্বা?", "নদীটি প্রায় ২৪০ কিলোমিটার লম্বা।", "২৪০ কিলোমিটার"),
])
def test_a_bangla_question_about_size_is_answered_by_a_measure(question, text, want):
    assert asks_size(question)
    assert shorts(question, text) == [want]


def test_an_era_mark_is_no_name():
    text = "In 200 BCE the last kingdom on the coast fell to Rome."
    assert shorts("What was the last kingdom on the coast conquered by?", text, qtype="entity") == ["Rome"]
