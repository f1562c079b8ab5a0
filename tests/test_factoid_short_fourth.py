"""Short answers, a fourth round (`answer.short`, `question.factoid`): the name after "by" for a
who-question with a verb, the name right after the question's superlative, a possessive name that is
no place, and a fee's share with its base. The sentences are made up for the tests."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.sentences import spans_of
from raglab.answer.short import short_spans
from raglab.question.factoid import share_base, superlative_name
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type


def shorts(question: str, text: str, n: int = 1, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, n)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("question, text, want", [
    ("Who led the drafting of the Harbour Charter?",
     "The Harbour Council set up a Charter Drafting Committee, chaired by Mira Olsen, to write the articles.", "Mira Olsen"),
    ("Who plays Tessa Lind in the Northway series?",
     "Tessa Lind is a character in Karl Brand's Northway novels and the series, where she is played by Ada Moss.", "Ada Moss"),
])
def test_a_who_question_with_a_verb_takes_the_name_after_by(question, text, want):
    assert question_type(question) == "person"
    assert shorts(question, text) == [want]


def test_a_who_is_question_is_not_read_for_by():
    # "Who is …" asks who someone is, not who did something: the name after "by" is no better.
    text = "The current mayor is Lena Berg, elected after the resignation of Tom Hale, backed by Ivo Dahl."
    assert shorts("Who is the mayor of Eastby?", text) == ["Lena Berg"]


def test_the_name_after_the_questions_superlative_comes_before_the_opening_name():
    text = "Stone Bridge (built 1820) is the best known, but the oldest of all, Mill Bridge, dates from 1650."
    assert shorts("What is the oldest bridge in Eastby?", text) == ["Mill Bridge"]
    names = [sp for sp in spans_of(text) if sp.type == "name"]
    assert superlative_name("What is the newest bridge in Eastby?", text, names) is None  # another superlative


def test_a_possessive_name_is_no_place():
    # "in Earth's crust": Earth owns the place; the place asked for is where the ore is mined.
    text = "Tin is rare in Earth's crust, with most deposits in Eastmark."
    assert shorts("Where is tin most plentiful?", text) == ["Eastmark"]


def test_a_fee_keeps_its_base_but_a_share_asked_for_does_not():
    text = "Cash out at an agent costs 1.85% of the amount."
    assert shorts("What is the cash out fee at an agent?", text) == ["1.85% of the amount"]
    assert shorts("What percentage of the amount is the fee?", text) == ["1.85%"]
    assert share_base("How much of Eastby is forest?", "amount", "It is 32% of the land.", 9) == 9
