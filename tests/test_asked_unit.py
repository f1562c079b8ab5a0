"""A question counting its answer in months or years is not answered by a shorter duration of
another thing (`question.durations`, `answer.howto.the_unit_first`): the unit counting in months is
quoted when it scores close, and otherwise the answer is withheld ("other-period"). Days, hours
and minutes are not read as asked: "কতদিন" asks how long, and "within 3 months" answers it."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.durations import asked_unit, counts_in, shorter_than


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config())


# The statement article states the delivery time of an emailed statement (5 working days) and how far
# back the app's statement reaches (the last 12 months); each of these was shown "within 5 working days".
MONTHS_QUOTED = ("How many months back can I download a PDF statement?",
                 "PDF statement কত মাস পুরোনো পর্যন্ত download করা যায়?")
MONTHS_WITHHELD = ("How many months old can a statement from the app be?",
                   "statement কত মাস আগের পর্যন্ত নেওয়া যায়?")


@pytest.mark.parametrize("question", MONTHS_QUOTED)
def test_a_count_of_months_is_answered_in_months(served, question):
    a = served.ask(question).answer
    assert not a.abstained and [s.text for s in a.short_answers][:1] == ["the last 12 months"]
    assert "12 months" in a.quotes[0].text


@pytest.mark.parametrize("question", MONTHS_WITHHELD)
def test_a_shorter_duration_of_another_thing_is_withheld(served, question):
    a = served.with_config(Config(threshold=0.0)).ask(question).answer
    assert a.abstained and a.withheld == "other-period"


@pytest.mark.parametrize("question, short", [("ন্যানো লোন কতদিনের মধ্যে শোধ করতে হবে?", "within 3 months"),
                                             ("How many years do you keep my data after I close my account?", "5 years")])
def test_how_long_and_a_count_in_the_same_unit_are_untouched(served, question, short):
    a = served.ask(question).answer
    assert not a.abstained and [s.text for s in a.short_answers][:1] == [short]


def test_the_asked_unit_and_the_lengths():
    assert asked_unit("koto mash ager statement pabo?") == "month" and asked_unit("কত বছর রাখা হয়?") == "year"
    assert asked_unit("কত দিনের মধ্যে জানাতে হবে?") is None and asked_unit("How many minutes does eKYC take?") is None
    assert shorter_than("month", "অভিযোগ জানানোর ৭ কার্যদিবসের মধ্যে তা নিষ্পত্তি করা হয়।")
    assert shorter_than("year", "Points expire after 11 months.") and not shorter_than("year", "Points expire after 12 months.")
    assert counts_in("month", "The loan must be repaid within 90 days.") and not counts_in("month", "within 24 hours")
