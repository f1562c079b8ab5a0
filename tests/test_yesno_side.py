"""A yes/no question is answered by the unit that takes the side it asks about (can, need, price),
not by one restating its words (`question/modality.sides_asked`, `takes_side`;
`answer/howto.the_side_first`): "Does it cost anything to have my account blocked …?" was quoted
"The account stays blocked until you, the owner, ask to reopen it." over "Blocking the account is
free …"."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.modality import sides_asked, takes_side
from raglab.schema import ask_json


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def quoted(pipe, question):  # a quote may come with the sentence it leans on
    return " ".join(q["text"] for q in ask_json(pipe.ask(question))["quotes"])


def test_the_side_a_yes_no_question_asks_about():
    assert sides_asked("Does it cost anything to have my account blocked after my phone is stolen?") == ("price",)
    assert sides_asked("do i need a bank acount to open a merchant acount for my shop") == ("need",)
    assert sides_asked("এর জন্য কি ব্যাংক অ্যাকাউন্টও লাগবে?") == ("need",)
    assert sides_asked("my internet provider isnt in the pay bill list, can i stil pay them thru shapla") == ("can",)
    # a fee named as the thing asked about is no question of price
    assert sides_asked("Is the transaction record in the app the official receipt for a school fee I paid?") == ()


def test_a_unit_takes_a_side_either_way_and_a_step_or_a_state_takes_none():
    assert takes_side("Blocking the account is free and can be undone when you are ready.", ("price",))
    assert not takes_side("The account stays blocked until you, the owner, ask to reopen it.", ("price",))
    assert takes_side("If your provider is not listed yet, you cannot pay it through Shapla Pay for now.", ("can",))
    assert takes_side("রাতবিরেতে অ্যাপ থেকেই টাকা ভরে নেওয়া যায়।", ("can",))
    assert not takes_side("পরপর ৩ বার ভুল পিন দিলে আপনার অ্যাকাউন্ট ২৪ ঘণ্টার জন্য লক হয়ে যায়।", ("can",))


def test_whether_blocking_costs_anything_gets_that_it_is_free(served):
    assert "Blocking the account is free" in quoted(served, "Does it cost anything to have my account blocked after my phone is stolen?")


def test_whether_a_merchant_needs_a_bank_account_gets_the_bank_account_not_the_list_lead(served):
    got = quoted(served, "do i need a bank acount to open a merchant acount for my shop")
    assert "need a bank account" in got
    got = quoted(served, "দোকানের জন্য মার্চেন্ট অ্যাকাউন্ট খুলতে চাই। এর জন্য কি ব্যাংক অ্যাকাউন্টও লাগবে?")
    assert "bank account" in got


def test_a_provider_not_in_the_list_gets_that_it_cannot_be_paid(served):
    got = quoted(served, "my internet provider isnt in the pay bill list, can i stil pay them thru shapla")
    assert "cannot pay it" in got


def test_an_instruction_already_says_yes_and_keeps_its_place(served):
    got = quoted(served, "When I email you about a scam number, can I attach a screenshot of the message they sent me?")
    assert "স্ক্রিনশট" in got


def test_a_fee_named_in_the_question_keeps_the_answer_about_the_receipt(served):
    got = quoted(served, "Is the transaction record in the Shapla Pay app the official receipt for a school fee I paid?")
    assert "not the official receipt" in got
