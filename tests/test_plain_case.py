"""A unit that applies only when something failed (an escalation or exception: "If you are not
satisfied", "সমাধানে সন্তুষ্ট না হলে", "যদি … না হয়") yields to a unit stating a value of the asked kind at
no condition, within a margin, when the question names no failed case (`answer.howto.the_plain_case_first`,
`modality.conditional`, `modality.names_condition`); the failed case's value is then no runner-up
beside it (`howto.another_case`). A question naming the case (not happy, not resolved, escalate, the
grievance officer) still gets the escalation's value."""

import dataclasses

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.modality import conditional, names_condition


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def shown(served, question):
    a = served.ask(question).answer
    return [s.text for s in a.short_answers], "\n".join(x.text for x in a.quotes)


# The complaints article gives the support address in its channels table and the grievance officer's
# under "If you are not satisfied": asked plainly for an address, the first is the answer, alone.
@pytest.mark.parametrize("question", ["Which address do I write to with a complaint?", "which email do complaints go to?",
                                      "complaint er jonno kon mail e likhbo?"])
def test_the_plain_question_gets_the_first_step_alone(served, question):
    short, text = shown(served, question)
    assert short == ["support@shaplapay.example"]
    assert "gro@" not in text


@pytest.mark.parametrize("question", ["If I'm not happy with the answer to my complaint, which email do I use?",
                                      "অভিযোগের সমাধান না হলে কোন ইমেইলে লিখব?",
                                      "complaint escalate korte kon email?"])
def test_a_question_naming_the_failed_case_gets_the_escalation(served, question):
    short, _ = shown(served, question)
    assert short == ["gro@shaplapay.example"]


def test_the_conditions_read():
    assert conditional("If your money does not arrive") and conditional("যদি টাকা না আসে")
    assert conditional("এরপরও সমাধান না হলে") and conditional("If you have been through our GRO and are still not satisfied, complain to the bank.")
    assert not conditional("If you need a refund") and not conditional("How long it takes")
    assert not conditional("Complaints are resolved within 7 working days, and if not, we tell you why.")
    assert names_condition("my complaint is still open, whom do I write to?") and names_condition("অভিযোগ করেছি, উত্তর পাইনি")
    assert names_condition("can I appeal the decision?") and names_condition("abar kothay complain korbo?")
    assert not names_condition("where do I send a complaint?") and not names_condition("অভিযোগ কোথায় পাঠাব?")


def test_an_english_negative_contraction_names_the_failed_case():
    # `cue_text` writes the apostrophe as a space ("didn t"), and askers often leave it out ("didnt").
    from raglab.question.modality import still_failed
    for question in ("the GRO replied but it didn't solve anything, where now?", "my complaint hasn't been answered",
                     "the refund isnt back yet, whom do I write to?", "the agent doesnt reply"):
        assert names_condition(question) and still_failed(question), question
    assert not still_failed("Where can I send money to my aunt's account?") and not names_condition("what is an agent's fee?")


def test_a_question_reporting_what_went_wrong_names_the_failed_case():
    assert names_condition("Where do I email about a failed transaction?") and names_condition("ভুল চার্জ কাটলে কোথায় অভিযোগ করব?")
    assert names_condition("লেনদেনে সমস্যার কথা কোথায় জানাব?") and names_condition("my payment is stuck, who do I call?")


# The step after the one taken (`howto.the_next_step_first`): for a question naming a failed case, a unit
# whose opening condition names the value the best unit gives ("If you have been through our GRO and are
# still not satisfied, …" after "Write to gro@…") is quoted when it scores within the margin.
def _units(served, question):
    chunks = [served.chunks[h.index] for h in served.search(question)]
    a = served.assess(question, chunks)
    gro = next(c for _, c in a.order if c.unit.text == "Write to gro@shaplapay.example.")
    bank = next(c for _, c in a.order if c.unit.text.startswith("If you have been through our GRO"))
    return a.q, gro, bank


@pytest.mark.parametrize("question", ["Where can I complain if the GRO's answer does not solve my problem?",
                                      "GRO-r reply peyechi kintu somadhan hoyni, ekhon kothay complain korbo?"])
def test_the_step_after_the_one_taken(served, question):
    from raglab.answer.howto import the_next_step_first
    q, gro, bank = _units(served, question)
    assert the_next_step_first(q, [(9.0, gro), (8.0, bank)])[0][1] is bank
    assert the_next_step_first(q, [(9.0, gro), (7.0, bank)])[0][1] is gro  # beyond the margin


def test_no_later_step_for_a_question_saying_no_step_failed(served):
    from raglab.answer.howto import the_next_step_first
    q, gro, bank = _units(served, "Where can I complain if the GRO's answer does not solve my problem?")
    q = dataclasses.replace(q, text="What is the GRO's email address?")  # names the GRO, says nothing failed
    assert the_next_step_first(q, [(9.0, gro), (8.5, bank)])[0][1] is gro
