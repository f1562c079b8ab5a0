"""Confident wrong answers on questions the answerer was not fitted on (the later dev questions,
the external sets' dev halves), each cause fixed by a rule that holds for any question."""

import pytest

from helpers import docs
from raglab.answer.facts import asks_no_value
from raglab.answer.sentences import fresh_spans, spans_of
from raglab.answer.short import short_spans
from raglab.pipeline import Config, Pipeline
from raglab.text.analyzer import tokens
from raglab.text.contrasts import asked_halves, clashes


@pytest.fixture(scope="module")
def served():
    # Every answer composed whatever its confidence: what is withheld here is withheld by a rule.
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_a_footnote_mark_is_no_value():
    # "How large is Herzegovina?" (a count) was answered at 0.91 by the opening sentence, typed by its "[1]".
    for text in ("Herzegovina[1] is the southern region of Bosnia and Herzegovina.",
                 "হার্জেগোভিনা[১] বসনিয়া ও হার্জেগোভিনার দক্ষিণ অঞ্চল।"):
        assert not fresh_spans(spans_of(text), text, ("count", "number"), frozenset()), text


def test_a_number_before_a_footnote_still_counts():
    text = "Its area is 11,419 km2.[2]"
    assert [text[s.start:s.end] for s in fresh_spans(spans_of(text), text, ("count", "number"), frozenset())] == ["11,419"]
    text = "অঞ্চলটির আয়তন ১১,৪১৯ বর্গকিলোমিটার।[২]"
    assert [text[s.start:s.end] for s in fresh_spans(spans_of(text), text, ("count", "number"), frozenset())] == ["১১,৪১৯"]


def test_a_half_asking_what_happens_is_no_value():
    assert asks_no_value("What happens if I miss a payment, and how many days do I get?", ("happen", "miss", "payment"))
    q = "রিপোর্ট করার পর টাকাটা যদি তখনও ওই লোকের ওয়ালেটে থাকে, তাহলে কী হয়? আর পুরো পর্যালোচনা কত দিনে শেষ হয়?"
    assert asks_no_value(q, ("যদি", "তখন", "ওয়ালেট", "থাক"))  # তখনও: তখন and the particle ও
    assert not asks_no_value(q, ("পুরো", "পর্যালোচনা"))  # the half asking how many days
    assert not asks_no_value("What are the minimum and maximum amounts?", ("maximum",))  # an ellipsis of the other half
    assert not asks_no_value("সর্বনিম্ন আর সর্বোচ্চ কত টাকা রিচার্জ করা যায়?", ("সর্বোচ্চ",))


def test_the_what_happens_half_is_quoted_not_a_value_beside_one_of_its_words(served):
    # The second quote was the hotline's "২৪ ঘণ্টা খোলা থাকে" (a duration, and "থাকে" of the first half).
    r = served.ask("ভুল নম্বরে টাকা চলে গেছে। রিপোর্ট করার পর টাকাটা যদি তখনও ওই লোকের ওয়ালেটে থাকে, "
                   "তাহলে কী হয়? আর পুরো পর্যালোচনা কত দিনে শেষ হয়?").answer
    assert "হটলাইন" not in (r.text or "") and "আটকে রাখা হয়" in (r.text or ""), r.text


def test_a_place_is_no_one_for_a_who_question():
    # TyDi QA: "Who identified melioidosis?" got the bold "Kuala Lumpur" (after "in") at 0.90.
    text = ("B.pseudomallei, also known as the Whitmore bacillus, was identified in 1917 in Kuala Lumpur.[123] "
            "Arthur Conan Doyle may have read the 1912 report.")
    order = [(t.term, t.start, t.end) for t in tokens(text)]
    got = [text[s:e] for s, e in short_spans("person", frozenset(), {"identified", "melioidosis"}, text, order,
                                              "Who identified melioidosis?")]
    assert got and "Kuala Lumpur" not in got, got
    # A place question still gets the place.
    got = [text[s:e] for s, e in short_spans("place", frozenset(), {"identified", "melioidosis"}, text, order,
                                              "Where was melioidosis identified?")]
    assert got == ["Kuala Lumpur"], got


@pytest.mark.parametrize("question", [
    "nano loan nile processing fee koto kete ney?",
    "What is the processing fee for a nano loan?",
    "ন্যানো লোন নিলে প্রসেসিং ফি কত টাকা কাটে?",
])
def test_a_fee_is_not_answered_by_an_interest_rate(question):
    # "nano loan nile processing fee koto kete ney?" was shown "9% a year" (the interest rate) at 0.80.
    asked = asked_halves(question)
    assert clashes(asked, "The interest rate is 9% a year, and the loan must be repaid within 3 months.")
    assert clashes(asked, "ন্যানো লোনের সুদের হার বছরে ৯%।")
    # A unit naming both (interest "is charged") is no other half alone.
    assert not clashes(asked, "Paying early reduces the interest you pay, because interest is charged only for the time you keep the money.")


def test_the_interest_rate_still_answers_an_interest_question(served):
    for q in ("nano loan nile interest koto dite hobe?", "ন্যানো লোনের সুদ কত?", "What is the interest rate of a nano loan?"):
        assert not clashes(asked_halves(q), "The interest rate is 9% a year, and the loan must be repaid within 3 months.")
        r = served.ask(q).answer
        assert "9%" in (r.text or "") or "৯%" in (r.text or ""), (q, r.text)


def test_a_fee_question_about_a_loan_states_no_rate(served):
    r = served.ask("nano loan nile processing fee koto kete ney?").answer
    assert "9%" not in (r.text or "") and not r.short_answers, r.text


@pytest.mark.parametrize("question, fee", [
    ("wat is the cashout fe at agnet", "1.85% of the amount, which is Tk 18.50 per Tk 1,000"),  # a fee keeps its base and its restatement
    ("এজেন্টের কাছে ক্যাশ আউট করলে চার্জ কত?", "১.৮৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা"),
    ("atm theke cash out korle charge koto porbe?", "১.৯৫%"),
    ("What does it cost to cash out at a partner bank's ATM?", "1.95%"),
])
def test_an_agent_and_an_atm_are_two_halves(served, question, fee):
    r = served.ask(question).answer
    assert [s.text for s in r.short_answers][:1] == [fee], (question, r.text)


def test_an_atm_question_gets_no_agent_fee():
    # Shown at 0.71 on the later questions: "1.85%" (the agent's) for a non-partner bank's ATM.
    asked = asked_halves("What is the cash out fee at an ATM of a bank that is not one of Shapla Pay's partners?")
    assert clashes(asked, "The fee for cash out at an agent is 1.85% of the amount, which is Tk 18.50 per Tk 1,000.")
    assert clashes(asked_halves("এটিএম থেকে টাকা তুললে চার্জ কত?"), "এজেন্টের কাছে ক্যাশ আউটের চার্জ টাকার পরিমাণের ১.৮৫%।")
    assert not clashes(asked, "মনে রাখবেন, এটিএমে চার্জ ১.৯৫%, যা এজেন্টের চার্জের চেয়ে একটু বেশি।")  # names both


def test_a_column_name_is_no_name():
    # "Agent — Typical use: …" was typed for "Who is a Shapla Pay agent account meant for?" by "Typical".
    text = "Agent — Typical use: Cash in and cash out for customers"
    assert not [s for s in spans_of(text) if s.type == "name"], spans_of(text)
    text = "Lender — Details: A partner bank of Shapla Pay"
    assert [text[s.start:s.end] for s in spans_of(text) if s.type == "name"] == ["Shapla Pay"]  # the cell's name stays
    text = "দিনে মোট পরিমাণ — সর্বোচ্চ: ৩০,০০০ টাকা"
    assert [text[s.start:s.end] for s in spans_of(text)] == ["৩০,০০০ টাকা"]
