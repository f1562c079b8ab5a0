"""Confident wrong answers the questions written later met: a limit asked and one worked
example's figure quoted, and a Banglish "can the agent ask for any money?" read as a price."""

import pytest

from helpers import docs, shown
from raglab.pipeline import Config, Pipeline
from raglab.text.answertypes import question_type
from raglab.text.numbers import one_worked_case


@pytest.fixture(scope="module")
def served():
    # Every answer composed whatever its confidence: what is withheld here is withheld by a rule.
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_one_worked_example_is_no_limit(served):
    # The remittance table's row for ১০,০০০ টাকা was shown as the incentive's cap ("২৫০ টাকা", 0.84).
    q = "প্রবাসী আয়ের ২.৫% সরকারি প্রণোদনা সর্বোচ্চ কত টাকা পর্যন্ত পাওয়া যায়?"
    abstained, shorts, answer = shown(served, q)
    assert abstained and not shorts and not answer, (shorts, answer)
    assert served.ask(q).answer.withheld == "one-case"


def test_the_worked_example_still_answers_its_own_amount(served):
    abstained, shorts, _ = shown(served, "বিদেশ থেকে ১০,০০০ টাকা রেমিট্যান্স এলে প্রণোদনাসহ মোট কত টাকা পাব?")
    assert not abstained and shorts == ["১০,২৫০ টাকা"], shorts
    assert not one_worked_case("How much is the incentive on Tk 10,000?", "Tk 10,000")
    assert one_worked_case("What is the most incentive I can get?", "Tk 10,000")
    assert not one_worked_case("What is the most incentive I can get?", "Personal")


@pytest.mark.parametrize("question", [
    "cash in korar jonno agent ki alada kore kono taka chaite pare?",
    "agent ki kono charge nite pare?",
    "ক্যাশ ইনের জন্য এজেন্ট কি আলাদা করে কোনো টাকা চাইতে পারে?",  # its Bangla twin read so already
])
def test_whether_someone_may_ask_for_money_is_a_yes_no_question(question):
    assert question_type(question) == "yesno"


def test_any_charge_is_still_a_price():
    for q in ("agent er kache cash in korle kono tk kate?", "cash in e ki kono charge lage?", "kono fee dite hobe?"):
        assert question_type(q) == "amount", q


def test_the_banglish_permission_question_quotes_the_rule(served):
    # It was answered "বিনামূল্যে" (the fee), not whether the agent may ask: now the sentence saying so.
    r = served.ask("cash in korar jonno agent ki alada kore kono taka chaite pare?").answer
    assert "আলাদা কোনো টাকা চাইতে পারেন না" in (r.text or ""), r.text
