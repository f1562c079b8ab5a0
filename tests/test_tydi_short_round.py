"""TyDi's English short answers (the round after): what an English answer span holds, chosen after
the confidence (`short._finished`, `ranges.time_end`). The sentences are made up for the tests, in
the style of an encyclopaedia article."""

import pytest

from raglab.answer.candidates import ASKING, text_info
from raglab.answer.short import short_spans
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type
from raglab.text.numbers import numbers


def shorts(question: str, text: str) -> list[str]:
    terms = {t for t in analyze(question) if t not in ASKING}
    spans = short_spans(question_type(question), frozenset(numbers(question)), terms, text, text_info(text).order,
                        question, 1)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("question, text, want", [
    ("Who founded the Northern Lamp Company?", "The Northern Lamp Company was founded in 1902 by Walter J. Brandt.",
     "Walter J. Brandt"),
    ("Who designed the Harbour Bridge?", "The Harbour Bridge was designed by Helen W. D. Marsh in 1931.", "Helen W. D. Marsh"),
    ("What is the longest symphony?", "The longest symphony is Symphony No. 9 by Halvorsen.", "Symphony No. 9"),
])
def test_a_name_keeps_its_initials(question, text, want):
    assert shorts(question, text) == [want]


def test_a_name_goes_on_over_the_particles_of_other_languages():
    text = "The oldest bank of the town is Banca Ferri dei Monti di Lucca, founded in 1624."
    assert shorts("What is the oldest bank of the town?", text) == ["Banca Ferri dei Monti di Lucca"]
    text = "The longest novel is Clélie ou la Vie, published in ten volumes."
    assert shorts("What is the longest novel?", text) == ["Clélie ou la Vie"]


def test_an_initial_that_ends_a_sentence_is_no_name_going_on():
    text = "They chose the route past Camp B. Later the road was paved."
    assert "B. Later" not in " ".join(shorts("Which camp did they pass?", text))


@pytest.mark.parametrize("question, text, want", [
    ("When did the Ninety Days War begin?", "The Ninety Days War lasted from 1712 to 1715, ending in a truce.", "1712"),
    ("When did the Ninety Days War end?", "The Ninety Days War lasted from 1712 to 1715, ending in a truce.", "1715"),
    ("When was the Harbour Society founded?", "The Harbour Society (1843–1901) kept the lighthouses of the coast.", "1843"),
])
def test_a_when_question_about_a_beginning_or_an_end_gets_that_end(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    # no beginning or end asked, or built (a building's years are its building): the range stays
    ("When was the Ninety Days War fought?", "The Ninety Days War was fought from 1712 to 1715 in the hills.",
     "1712 to 1715"),
    ("When was the Old Mill built?", "The Old Mill was built between 1805 and 1811 on the river.", "between 1805 and 1811"),
    # "First" in a name is no beginning asked
    ("When was the First Reed War?", "The First Reed War (211-209 BC) was fought on the delta.", "211-209 BC"),
])
def test_a_range_of_times_otherwise_stays_whole(question, text, want):
    assert shorts(question, text) == [want]


def test_a_question_when_someone_lived_gets_the_whole_lifespan():
    text = "Anna Vell (3 March 1801 – 9 June 1870) was a botanist."
    assert shorts("When did Anna Vell live?", text) == ["3 March 1801 – 9 June 1870"]
    assert shorts("When was Anna Vell born?", text) == ["3 March 1801"]


@pytest.mark.parametrize("question, text, want", [
    ("How many people speak Orvan?", "Orvan is spoken by 40–45 million people in the valley.", "40–45 million"),
    ("When was the Battle of Tarn Ford?", "The Battle of Tarn Ford was fought on 10–12 May 1644.", "10–12 May 1644"),
    ("How many episodes did Blue Harbour have?", "Blue Harbour ran for twenty-six episodes on national television.",
     "twenty-six"),
])
def test_a_value_keeps_its_dashed_first_value_and_its_tens(question, text, want):
    assert shorts(question, text) == [want]


@pytest.mark.parametrize("question, text, want", [
    ("Where was Karl Ost born?", "Karl Ost was born in the small town of Felsberg in 1840.", "town of Felsberg"),
    ("Where was the Coral Cup 2015 held?", "The Coral Cup 2015 took place at Sala Marin in Valdera, Portugal.",
     "Sala Marin in Valdera, Portugal"),
])
def test_a_place_keeps_its_kind_and_the_place_a_venue_is_in(question, text, want):
    assert shorts(question, text) == [want]


def test_a_part_of_a_land_is_no_name_of_the_place_asked():
    text = "Vessa is a semi-autonomous region of Tarland in the north."
    assert shorts("Where is Vessa?", text) == ["Tarland"]


def test_a_person_without_the_body_they_belong_to_but_a_ruler_with_the_realm():
    text = "The case was heard by Justice Mary Olsen of the Court of Appeal in 2011."
    assert shorts("Who was the judge in the case?", text) == ["Justice Mary Olsen"]
    text = "The last ruler of the dynasty was Emperor Wen of Lu, who died in 420."
    assert shorts("Who was the last ruler of the dynasty?", text) == ["Emperor Wen of Lu"]


def test_a_number_joined_to_a_name_by_a_hyphen_is_part_of_the_name():
    text = "COVID-19 spreads mainly between people who are in close contact with each other."
    assert shorts("How many people does it spread between?", text) != ["19"]
    text = "Most of the 27 stations reopened after the storm."
    assert shorts("How many stations reopened?", text) == ["27"]
