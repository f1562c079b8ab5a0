"""A how-to question shown a later step of a numbered list, skipping one before it, is shown the
list's steps from the first (`faq.from_the_first_step`, after the confidence): "পিন কীভাবে পরিবর্তন
করব?" was shown the section's opening and step 2 alone ("Go to Settings and then Change PIN.")."""

import pytest

from helpers import docs
from raglab.answer import answerer
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def asked(pipe, question):
    out = ask_json(pipe.ask(question))
    return [q["text"] for q in out["quotes"]], out["confidence"]


def test_a_how_question_quoting_step_two_is_shown_the_steps_from_the_first(served, monkeypatch):
    shown, conf = asked(served, "পিন কীভাবে পরিবর্তন করব?")
    assert shown[0].startswith("It is a good habit to change your PIN")  # the best unit stays, first
    assert shown[1:] == ["Log in to the app.", "Go to Settings and then Change PIN.",
                         "Enter your current PIN.", "Enter and confirm your new PIN."]
    monkeypatch.setattr(answerer, "from_the_first_step", lambda composed, *rest: composed)
    before, conf_before = asked(served, "পিন কীভাবে পরিবর্তন করব?")
    assert "Log in to the app." not in before and conf_before == conf  # presentation only


def test_a_question_not_asking_how_keeps_the_step_it_quotes(served):
    shown, _ = asked(served, "নতুন পিন দিতে গিয়ে ৪টা ডিজিট দিলাম, নিচ্ছে না। পিন কয় সংখ্যার হতে হয়?")
    assert shown == ["নতুন ৫ সংখ্যার পিন দিন এবং আরেকবার লিখে মিলিয়ে নিন।"]


def test_a_how_question_already_shown_from_the_first_step_is_unchanged(served, monkeypatch):
    shown, _ = asked(served, "How do I change my PIN?")
    monkeypatch.setattr(answerer, "from_the_first_step", lambda composed, *rest: composed)
    assert asked(served, "How do I change my PIN?")[0] == shown


def test_the_sentence_that_leads_the_steps_is_shown_with_them(served, monkeypatch):
    shown, conf = asked(served, "How do I export a PDF statement?")
    assert shown[0].startswith("You can export a statement as a PDF file")
    assert shown[1] == 'Go to "Transactions" and tap "Statement".' and 'Tap "Export PDF".' in shown
    monkeypatch.setattr(answerer, "from_the_first_step", lambda composed, *rest: composed)
    before, conf_before = asked(served, "How do I export a PDF statement?")
    assert len(before) == 1 and conf_before == conf


def test_a_question_not_asking_how_keeps_the_lead_alone(served):
    shown, _ = asked(served, "What is a PDF statement useful for?")
    assert shown == ["You can export a statement as a PDF file, which is useful for visa applications, "
                     "loan applications or your own bookkeeping."]
