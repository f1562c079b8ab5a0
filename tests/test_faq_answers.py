"""Answers on an FAQ help centre: a section whose heading asks a question answers it first."""

import math
import os

import pytest

from raglab.answer.answerer import answer, assess
from raglab.answer.candidates import heading_match
from raglab.answer.faq import closest_heading, faq_lead, heading_asks, heading_lead
from raglab.answer.sentences import COL, CONFIDENCE_COL
from raglab.corpus.articles import load_corpus, parse_article
from raglab.corpus.chunking import chunk_document
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.ranking import rounded
from raglab.text.analyzer import analyze

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAQ_TEXT = """# Frequently asked questions

## {heading}

Handwashing is one of the best ways to protect yourself and your family from getting sick.
Wash your hands often with soap and water for at least 20 seconds.
If soap and water are not readily available, use an alcohol-based hand sanitizer with at least 60% alcohol.

## How long does the virus live on surfaces?

It is not certain how long the virus survives on surfaces.
"""
LEAD = "Handwashing is one of the best ways to protect yourself and your family from getting sick."
WASH = "Wash your hands often with soap and water for at least 20 seconds."
QUESTION = "Can hand sanitizer protect against the virus?"


def idf(term):
    return 1.0


def ask(heading: str):
    doc = parse_article("faq", FAQ_TEXT.format(heading=heading))
    return answer(analyze(QUESTION), chunk_document(doc, "recursive"), idf, threshold=0.0, question=QUESTION,
                  docs={"faq": doc})


def _wash_first(heading: str):
    """The assessment's (logit, candidate) pairs with the second sentence put first, as when the
    sentence model prefers it (it shares more of the reader's words), and the article."""
    doc = parse_article("faq", FAQ_TEXT.format(heading=heading))
    a = assess(analyze(QUESTION), chunk_document(doc, "recursive"), idf, question=QUESTION, docs={"faq": doc})
    wash = next(pair for pair in a.order if pair[1].quote.text == WASH)
    return [wash] + [pair for pair in a.order if pair is not wash], {"faq": doc}


def test_a_question_heading_is_answered_by_its_first_sentence():
    # The later sentences hold more of the reader's words; the heading asks the question and its
    # first sentence answers it.
    order, docs = _wash_first("Should I use soap and water or a hand sanitizer to protect against the virus?")
    assert faq_lead(order, docs)[0][1].quote.text == LEAD
    assert ask("Should I use soap and water or a hand sanitizer to protect against the virus?").quotes[0].text == LEAD


def test_a_named_section_keeps_the_sentence_the_model_chooses():
    # A heading that names the topic asks nothing: the order the model gives stays as it is.
    order, docs = _wash_first("Hand hygiene")
    assert faq_lead(order, docs) == order


@pytest.fixture(scope="module")
def covid():
    folder = os.path.join(ROOT, "goldens", "external", "covid-qa-faq", "corpus")
    return Pipeline(load_corpus(folder), Config(chunker="recursive", retriever="bm25", expand=False, threshold=0.0))


def test_an_faq_page_answers_with_the_lead_of_the_asked_section(covid):
    got = covid.ask(QUESTION).answer
    assert got.quotes[0].text == LEAD


def assessed(heading: str):
    doc = parse_article("faq", FAQ_TEXT.format(heading=heading))
    return assess(analyze(QUESTION), chunk_document(doc, "recursive"), idf, question=QUESTION, docs={"faq": doc})


def test_the_confidence_reads_an_faq_lead_with_its_whole_section():
    # The sentence model's belief is spread over the three sentences of one FAQ answer; the lead
    # answers for all of them, so the confidence reads their share together.
    a = assessed("Should I use soap and water or a hand sanitizer to protect against the virus?")
    share = a.signals[CONFIDENCE_COL["probability"]]
    assert a.order[0][1].quote.text == LEAD
    assert share > a.probs[0]
    other = "It is not certain how long the virus survives on surfaces."
    assert share == rounded(math.fsum(p for (_, c), p in zip(a.order, a.probs) if c.quote.text != other))
    named = assessed("Hand hygiene")
    assert named.signals[CONFIDENCE_COL["probability"]] == named.probs[0]


def test_a_question_about_a_later_sentence_of_a_question_section_keeps_that_sentence():
    # "## What is Shapla Pay?" opens with what Shapla Pay is; a question about its money asks what
    # a later sentence states, not the heading's question.
    got = Pipeline(load_corpus(os.path.join(ROOT, "corpus"))).ask("Is the money in Shapla Pay electronic money?").answer
    assert "electronic money" in got.quotes[0].text


ASKED = "Should I use soap and water or a hand sanitizer to protect against the virus?"


def test_an_faq_whose_heading_asks_the_question_best_reads_as_answering_it():
    # The heading holds more of the reader's words than any other heading around ("How long does the
    # virus live on surfaces?" only "virus"): the help centre says its first sentence answers the
    # question, which the confidence reads as a unit stating what is asked (`typed`), though the
    # question asks for no typed value.
    a = assessed(ASKED)
    assert a.order[0][1].quote.text == LEAD and a.order[0][1].features[COL["typed"]] == 0.0
    assert heading_asks(a.order, a.q, {"faq": parse_article("faq", FAQ_TEXT.format(heading=ASKED))})
    assert a.signals[CONFIDENCE_COL["typed"]] == 1.0
    named = assessed("Hand hygiene")  # a named section asks nothing
    assert named.signals[CONFIDENCE_COL["typed"]] == 0.0


def test_two_faq_headings_asking_alike_are_no_lead():
    # Another section asks the same (an FAQ page that repeats another's question): the heading does
    # not single out this answer.
    text = FAQ_TEXT.format(heading=ASKED) + "\n## " + ASKED + "\n\nIt depends.\n"
    doc = parse_article("faq", text)
    a = assess(analyze(QUESTION), chunk_document(doc, "recursive"), idf, question=QUESTION, docs={"faq": doc})
    assert a.order[0][1].quote.text == LEAD
    assert not heading_asks(a.order, a.q, {"faq": doc})
    assert a.signals[CONFIDENCE_COL["typed"]] == 0.0


def test_an_faq_page_reads_its_best_asking_heading_as_the_answer(covid):
    # A rewording of "Can the COVID-19 virus spread through pools and hot tubs?".
    question = "Can COVID-19 spread in a swimming pool or a hot tub?"
    hits = covid.search(question)
    a = covid.assess(question, [covid.chunks[h.index] for h in hits], [h.score for h in hits])
    assert a.order[0][1].quote.text.startswith("There is no evidence that COVID-19 can be spread to humans")
    assert a.signals[CONFIDENCE_COL["typed"]] == 1.0


def test_of_two_headings_holding_the_question_alike_the_closer_restatement_leads():
    # Both headings hold "novel" and "coronavirus"; the second says more besides, so the first
    # restates the question more closely and its answer reads as answering it.
    text = ("# FAQ\n\n## What is a novel coronavirus?\n\nA novel coronavirus is a new coronavirus that has not been "
            "previously identified.\n\n## Where did the novel coronavirus outbreak in the city start first?\n\n"
            "The novel coronavirus outbreak was first seen at a market.\n")
    doc = parse_article("faq", text)
    question = "What does novel coronavirus mean?"
    a = assess(analyze(question), chunk_document(doc, "recursive"), idf, question=question, docs={"faq": doc})
    assert a.order[0][1].quote.text.startswith("A novel coronavirus is a new coronavirus")
    share, closeness = heading_match(a.q, "What is a novel coronavirus?")
    assert (share, closeness) > heading_match(a.q, "Where did the novel coronavirus outbreak in the city start first?")
    assert share == heading_match(a.q, "Where did the novel coronavirus outbreak in the city start first?")[0]
    assert a.signals[CONFIDENCE_COL["typed"]] == 1.0


TESTS = """# FAQ

## Is there a quick test for home use?

A quick test, similar to a pregnancy test, to check a patient for the virus at home is not available.

## How do you test a patient for the virus?

See the recommendations for specimen collection in the guidance for laboratories.
"""
QUICK = "A quick test, similar to a pregnancy test, to check a patient for the virus at home is not available."
GUIDE = "See the recommendations for specimen collection in the guidance for laboratories."


def _quick_first(question: str):
    doc = parse_article("faq", TESTS)
    a = assess(analyze(question), chunk_document(doc, "recursive"), idf, question=question, docs={"faq": doc})
    quick = next(pair for pair in a.order if pair[1].quote.text == QUICK)
    return [quick] + [pair for pair in a.order if pair is not quick], a.q, {"faq": doc}


def test_the_faq_whose_heading_asks_the_question_answers_it_over_a_neighbour_sharing_its_words():
    # The neighbouring FAQ's answer holds every word of the question; the heading that asks it
    # holds them too, and its answer shares none: the asking heading's answer goes first.
    question = "How can I test a patient for the virus?"
    order, q, docs = _quick_first(question)
    assert heading_lead(order, q, docs)[0][1].quote.text == GUIDE


def test_an_faq_page_answers_from_the_faq_asking_the_question_not_its_neighbour(covid):
    # "Is there a quick test for SARS-CoV-2 for home use?" opens with "A quick test, similar to a
    # pregnancy test, …" and the sentence model chose it; "How do you test a patient for
    # SARS-CoV-2, the virus that causes COVID-19?" asks the question.
    got = covid.ask("What is the way to test a patient for SARS-CoV-2?").answer
    assert got.quotes[0].text.startswith("See recommendations for reporting, testing, and specimen collection")


def test_a_question_sharing_more_with_a_sentence_than_with_the_closest_heading_keeps_it():
    # "pregnancy" and "check" are the sentence's words, not the heading's: the question asks what
    # that sentence says (as `faq_lead` keeps a later sentence asked about).
    order, q, docs = _quick_first("Can a pregnancy test check a patient for the virus?")
    assert closest_heading(order, q, docs)[1].heading[-1] == "How do you test a patient for the virus?"
    assert heading_lead(order, q, docs) == order


@pytest.fixture(scope="module")
def help_centre():
    return Pipeline(load_corpus(os.path.join(ROOT, "corpus")), Config(threshold=0.0))


def test_an_faq_bare_no_is_shown_only_for_the_question_its_heading_asks(help_centre):
    # "## Is there a fee?\n\nNo. Cash in … is free.": the "No." answers the heading; for "Is cash in
    # free?" it reads as the opposite of the truth, so the quote opens after it. Its offsets still
    # point at what it shows.
    got = help_centre.ask("Is cash in free?")
    first = got.answer.quotes[0]
    assert first.text == "Cash in at a Shapla Pay agent is free."
    doc = help_centre.docs[first.doc]
    assert doc.text[first.start:first.end] == first.text
    assert not got.answer.text.startswith("No.")
    # The heading's own question keeps its reply.
    assert help_centre.ask("Is there a fee for cash in?").answer.quotes[0].text.startswith("No. Cash in")


def test_an_faq_answer_and_its_twin_in_the_other_language_are_read_as_one_answer(help_centre):
    # "Is cash in free?": the English FAQ's "No. Cash in … is free." and the Bangla twin "এজেন্টের কাছে
    # ক্যাশ ইন সম্পূর্ণ বিনামূল্যে।" (the top chunk's) split the sentence model's belief; read unit by unit,
    # the English answer trailed its own twin (margin below 0) and came from no top chunk's article (0.60).
    got = help_centre.ask("Is cash in free?").answer
    assert got.quotes[0].doc == "en-cash-in" and got.confidence >= 0.65


def test_the_twin_of_the_answer_in_a_language_not_asked_in_is_not_quoted_again(help_centre):
    # The Bangla twin was the runner-up, quoted because the model could not tell it from the English
    # answer; it says the same again in a language the reader did not ask in.
    got = help_centre.ask("Is cash in free?").answer
    assert [x.doc for x in got.quotes] == ["en-cash-in"] and got.citations == ["en-cash-in#2"]
