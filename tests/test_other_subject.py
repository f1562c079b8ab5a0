"""A value question answered with a neighbouring value about another service or another kind of
price is withheld (`subjects.other_subject`, withheld reason "other-subject"); the same units still
answer the questions about their own subject."""

from types import SimpleNamespace

import pytest

from helpers import docs
from raglab.answer.facts import asks_two
from raglab.pipeline import Config, Pipeline
from raglab.question.subjects import other_subject
from raglab.text.answertypes import question_type


def ask(text: str, limit: bool = False):
    return SimpleNamespace(text=text, qtype=question_type(text), limit=limit)


def other(q, unit, heading=()):
    return other_subject(q, asks_two(q.text), unit, heading)


LOAN = "You can borrow up to Tk 20,000 as a nano loan."
ADD = "You can add up to Tk 50,000 a day to your wallet from banks and cards."


def test_another_kind_of_price_or_another_service():
    assert other(ask("How much is the late fee on a nano loan?"), LOAN)
    assert other(ask("What is the daily limit for paying electricity bills?", limit=True), ADD)
    assert other(ask("What is the most balance a verified account can hold?", limit=True),
                 "You can cash in up to Tk 30,000 a day.")
    assert other(ask("হটলাইনে কল করলে প্রতি মিনিটে কত টাকা লাগে?"), "The merchant pays 1.5% of each payment to Shapla Pay as a service charge.")


def test_the_own_subject_still_answers():
    assert not other(ask("How much can I borrow as a nano loan?"), LOAN)
    assert not other(ask("What is the daily limit for adding money from a bank?", limit=True), ADD)
    # A fee asked is answered by "free": one family of prices.
    assert not other(ask("How much is the fee to cash in at an agent?"), "Cash in at an agent is free.")


def test_a_charge_on_top_must_be_named_itself():
    profit = "Shapla Sanchay pays a profit rate of 7% a year on your savings."
    # The profit rate names the asked profit, not the tax cut from it; the deposit options no penalty.
    assert other(ask("How much tax is cut from the Shapla Sanchay profit?"), profit)
    assert other(ask("শাপলা সঞ্চয়ের মাসিক কিস্তি মিস করলে কত টাকা জরিমানা দিতে হয়?"),
                 "You can choose a monthly deposit of Tk 500, 1,000, 2,000 or 5,000.")
    assert other(ask("How much is the late fee on a savings deposit?"), "The monthly deposit is Tk 500.")
    # Named, it answers; and a word that merely contains one ("taxi") asks none.
    assert not other(ask("How much tax is cut from the profit?"), "A tax of 10% is cut from the profit.")
    assert not other(ask("How much does a taxi ride cost to pay with the app?"), "Paying at a shop is free for you.")


def test_only_for_one_figure_asked():
    # No figure asked (yes/no), or two things asked: the halves are the quotes' to share.
    assert not other(ask("Is there a late fee on a nano loan?"), LOAN)
    assert not other(ask("What is the late fee on a nano loan, and how much can I borrow?"), LOAN)


def test_the_section_heading_names_the_subject():
    # A unit naming no service is about its section's: the heading speaks for it.
    heading = ("Fees and limits", "Paying bills")
    limit = "The daily limit is Tk 50,000."
    assert not other(ask("What is the daily limit for paying electricity bills?", limit=True), limit, heading)
    assert other(ask("What is the daily limit for paying electricity bills?", limit=True), limit)


def test_a_unit_naming_its_own_service_speaks_for_itself():
    # The recharge limit sits in a section on "Mobile recharge and merchant payment": the heading
    # names the merchant, the unit the recharge it is about.
    heading = ("Fees and limits", "Mobile recharge and merchant payment")
    recharge = "A single mobile recharge must be between Tk 20 and Tk 1,000."
    assert other(ask("How much can my shop take in merchant payments in a day?", limit=True), recharge, heading)
    assert not other(ask("What is the most I can recharge at once?", limit=True), recharge, heading)


@pytest.fixture(scope="module")
def served():
    # Every answer composed whatever its confidence: what is withheld here is withheld by a rule.
    return Pipeline(list(docs()), Config(threshold=0.0))


def test_withheld_in_the_pipeline(served):
    # The add-money limit (0.69) and the merchant's fee (0.63) were the units chosen.
    for q in ("What is the daily limit for paying electricity bills from my wallet?",
              "How much does a call to the hotline cost per minute?"):
        got = served.ask(q).answer
        assert got.abstained and got.withheld == "other-subject", (q, got.withheld)
    for q in ("How much can I borrow with a nano loan?", "What is the daily limit for adding money from a bank?"):
        own = served.ask(q).answer
        assert not own.abstained and own.withheld is None, (q, own.withheld)
