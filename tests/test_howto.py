"""A how-to question is answered by how the thing is done, not by a remark on how it is not
(`answer/howto.py`): "How do I close my account?" was shown "Closure cannot be requested through
an agent point, …" at 0.80."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.asking import asks_may, restricts
from raglab.schema import ask_json


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def quotes(pipe, question):
    return [q["text"] for q in ask_json(pipe.ask(question))["quotes"]]


def test_a_remark_on_what_is_not_done_is_read_and_an_instruction_is_not():
    assert restricts("Closure cannot be requested through an agent point, and nobody will ask for your PIN.")
    assert restricts("If your provider is not listed yet, you cannot pay it through Shapla Pay for now.")
    assert restricts("প্রাপকের সম্মতি অথবা আইনি আদেশ ছাড়া শাপলা পে কোনো ট্রান্সফার উল্টে দিতে পারে না।")
    assert restricts("এজেন্টের কাছে অ্যাকাউন্ট বন্ধ করতে পারবেন না।")
    assert not restricts("If money really did arrive from an unknown number, do not send it back yourself.")
    assert not restricts("আপনার পিন বা ওটিপি কখনো কাউকে জানাবেন না।")
    assert not restricts("You can ask to close your account in either of these ways:")
    assert not restricts("If you do not remember the amount, call customer care.")


def test_whether_it_may_be_done_is_asked_apart_from_how():
    assert asks_may("Can I close my account at an agent point?")
    assert asks_may("এজেন্টের কাছে কি অ্যাকাউন্ট বন্ধ করা যায়?")
    assert not asks_may("How can I close my account?")
    assert not asks_may("How do I close my account?")


def test_how_do_i_close_my_account_gets_the_ways_not_the_agent_remark(served):
    shown = quotes(served, "How do I close my account?")
    assert not any("cannot be requested" in t for t in shown)
    assert any("16789" in t for t in shown) and any("customer care centre" in t for t in shown)


def test_a_question_asking_whether_still_gets_the_rule(served):
    shown = quotes(served, "Can I ask to close my account at an agent point?")
    assert any("agent point" in t for t in shown)


def test_a_bangla_how_to_question_gets_the_way_out_not_what_shapla_pay_cannot_do(served):
    shown = quotes(served, "je taka pailo se ferot dite raji na, ekhon ami ki korte pari?")
    assert "উল্টে দিতে পারে না" not in shown[0] and "জিডি" in shown[0]
