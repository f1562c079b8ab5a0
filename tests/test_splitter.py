"""Sentence ends after abbreviations: `text.splitter` and the question's own splitters that ask it.

A period after an abbreviation that stands before a number or a name ("Tk. 50", "c. 570 BC"),
after a name's initials ("J. R. R. Tolkien", "the U.S. Census Bureau") or after an abbreviation
closing a name ("Apple Inc. includes") ends no sentence; the same period before a word that opens
sentences ("… the U.S. The rest …", "… & Co. By 1829 …") does.
"""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from raglab.answer.facts import asking_sentences
from raglab.question.factoid import sentence_end
from raglab.text.splitter import _ABBREVIATIONS, _NAME_ENDS, _OPENERS, abbreviation_goes_on, sentences


def split(text: str) -> list[str]:
    return [text[s:e] for s, e in sentences(text)]


@pytest.mark.parametrize("text, expected", [
    # before a number or a name
    ("Pythagoras (c. 570–495 BC) taught. He died.", ["Pythagoras (c. 570–495 BC) taught.", "He died."]),
    ("Judas (died c. 30– c. 33 AD) was a disciple.", ["Judas (died c. 30– c. 33 AD) was a disciple."]),
    ("Gupta (fl. late 3rd century CE) was king.", ["Gupta (fl. late 3rd century CE) was king."]),
    ("The fee is approx. 2%. Minimum Tk. 50 applies.", ["The fee is approx. 2%.", "Minimum Tk. 50 applies."]),
    ("Sent to the old Mt. Clare Depot. Known as \"Fr. Jett\" there.", ["Sent to the old Mt. Clare Depot.", "Known as \"Fr. Jett\" there."]),
    # a name's initials
    ("Gollum is from J. R. R. Tolkien's legendarium. He was introduced.", ["Gollum is from J. R. R. Tolkien's legendarium.", "He was introduced."]),
    ("According to the U.S. Census Bureau, it is big.", ["According to the U.S. Census Bureau, it is big."]),
    ("Built by E.C. Close and James Sherwood.", ["Built by E.C. Close and James Sherwood."]),
    ("E. I. du Pont de Nemours and Company.", ["E. I. du Pont de Nemours and Company."]),
    ("The species L. niger is found in open areas.", ["The species L. niger is found in open areas."]),
    ("It is in the U.S. The rest is not.", ["It is in the U.S.", "The rest is not."]),
    ("They chose plan B. After that it worked.", ["They chose plan B.", "After that it worked."]),
    # an abbreviation that closes a name
    ("Apple Inc. includes the interface.", ["Apple Inc. includes the interface."]),
    ("With Warner Bros. Television. ER follows.", ["With Warner Bros. Television.", "ER follows."]),
    ("Ernst and Zug et al. 1996 list a value.", ["Ernst and Zug et al. 1996 list a value."]),
    ("Frederick Huth & Co. By 1829 he was rich.", ["Frederick Huth & Co.", "By 1829 he was rich."]),
    ("Claude E. Welch Jr. He was born in 1939.", ["Claude E. Welch Jr.", "He was born in 1939."]),
    # unchanged: an initialism in lower case ends a sentence before a capital; other short words end one
    ("Open 9 a.m. to 5 p.m. Call us.", ["Open 9 a.m. to 5 p.m.", "Call us."]),
    ("You do not need a PIN to cash in. An agent who asks is wrong.", ["You do not need a PIN to cash in.", "An agent who asks is wrong."]),
    ("Fought in World War II. In his career he rose.", ["Fought in World War II.", "In his career he rose."]),
    ("No. Cash in is free.", ["No. Cash in is free."]),
    # the currency's abbreviation before a number goes on; after one it may end the sentence
    ("We sent 2000 tk. Then it failed.", ["We sent 2000 tk.", "Then it failed."]),
])
def test_an_abbreviation_ends_no_sentence(text, expected):
    assert split(text) == expected


_name = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True).filter(lambda w: w.lower() not in _OPENERS)
_opener = st.sampled_from(sorted(_OPENERS)).map(lambda w: w[0].upper() + w[1:])
_number = st.from_regex(r"[1-9][0-9]{0,3}", fullmatch=True)
_initials = st.one_of(st.from_regex(r"[A-Z]", fullmatch=True), st.from_regex(r"[A-Z](\.[A-Z]){1,3}", fullmatch=True))
_plain = st.from_regex(r"[a-z]{3,9}", fullmatch=True).filter(lambda w: w not in _ABBREVIATIONS and w not in _NAME_ENDS)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_ABBREVIATIONS)), st.one_of(_number, _name), st.booleans())
def test_a_listed_abbreviation_before_a_number_or_a_name_ends_no_sentence(abbreviation, after, capital):
    written = abbreviation.capitalize() if capital else abbreviation
    text = f"It was {written}. {after} in all. Then it ended."
    assert split(text) == [f"It was {written}. {after} in all.", "Then it ended."]


@settings(max_examples=200, deadline=None)
@given(st.one_of(_initials, st.sampled_from(sorted(_NAME_ENDS)).map(str.capitalize)), _name, _opener)
@example("E.G", "Aaa", "A")  # initials that spell an abbreviation in lower case ("e.g.") are initials
def test_initials_or_a_name_end_go_on_before_a_name_and_end_before_an_opener(before, name, opener):
    assert split(f"Made by {before}. {name} in 1990.") == [f"Made by {before}. {name} in 1990."]
    assert split(f"Made by {before}. {opener} it was sold.") == [f"Made by {before}.", f"{opener} it was sold."]


@settings(max_examples=200, deadline=None)
@given(_plain, st.one_of(_name, _opener))
def test_any_other_word_ends_its_sentence_before_a_capital(word, after):
    assert split(f"It was {word}. {after} came.") == [f"It was {word}.", f"{after} came."]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_initials.map(lambda w: w + "."), st.sampled_from(sorted(_ABBREVIATIONS)).map(lambda w: w + "."),
                          _name, _opener, _number, _plain, st.just("end.")), min_size=1, max_size=12))
def test_sentences_still_hold_every_character_in_order(parts):
    text = " ".join(parts)
    spans = sentences(text)
    assert [ch for s, e in spans for ch in text[s:e] if ch != " "] == [ch for ch in text if ch != " "]
    assert all(a < b for (_, a), (b, _) in zip(spans, spans[1:]))


def test_the_splitters_of_a_question_and_of_a_short_answer_agree():
    # a question's asking sentences: the part after "Iain M." was read as the only asking one
    assert asking_sentences("When did Iain M. Banks create The Culture?") == [(0, "When did Iain M. Banks create The Culture?")]
    assert asking_sentences("Is cash in vs. cash out free?") == [(0, "Is cash in vs. cash out free?")]
    assert asking_sentences("my cousin sent 2000 tk. what's wrong?") == [(23, " what's wrong?")]
    # a short answer's sentence within a unit
    text = "Pythagoras (c. 570–495 BC) was Greek. He taught."
    assert sentence_end(text, 0) == text.index(". He")
    assert abbreviation_goes_on(text, text.index("c.") + 1) and not abbreviation_goes_on(text, text.index(". He"))
