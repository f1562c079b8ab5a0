"""A question reporting a fault is not answered by the way the thing is done (`modality.reports_fault`,
`answer.howto.the_way_for_a_fault`): "You can log in to the app with your PIN or with a fingerprint."
was shown at 0.84 for "I can't log in to the app". The answer is withheld ("only-the-way"); a unit
naming a failure or a figure still answers a fault."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.modality import names_fault, reports_fault


@pytest.fixture(scope="module")
def anywhere():
    return Pipeline(list(docs()), Config(threshold=0.0))


@pytest.mark.parametrize("question", ["I can't log in to the Shapla Pay app on my phone",
                                      "shapla pay app e login korte parchi na",
                                      "ফোনে শাপলা পে অ্যাপে লগইন করতে পারছি না, কী করব?"])
def test_a_fault_gets_no_plain_way(anywhere, question):
    a = anywhere.ask(question).answer
    assert a.abstained and a.withheld == "only-the-way", [q.text for q in a.quotes]


@pytest.mark.parametrize("question", ["The OTP for logging in on my new phone is not arriving. What should I check?",
                                      "How do I log in to the app?"])
def test_a_unit_naming_the_failure_and_a_plain_how_to_are_untouched(anywhere, question):
    assert anywhere.ask(question).answer.withheld is None


def test_the_report_and_the_unit():
    assert reports_fault("my app isn't opening") and reports_fault("cash out hocche na")
    assert not reports_fault("Why can't I cash out more than Tk 25,000?") and not reports_fault("লগইন কীভাবে করব?")
    assert names_fault("The maximum is Tk 1,000 per recharge.") and names_fault("ওটিপি না এলে নেটওয়ার্ক দেখুন।")
    assert not names_fault("Open the app and tap Log in.")
