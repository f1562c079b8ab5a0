"""A yes/no question that states a value is answered by the rule for that kind of value
(`question/stated.py`, `answer/howto.the_value_first`): "can my sister opne her own shapla acount,
shes 16" was quoted "Each person can hold only one personal account per NID." over "To open a personal
account, you must be 18 or older."."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.question.stated import stated_kinds
from raglab.schema import ask_json


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config(threshold=0.0))


def first_quote(pipe, question):
    return ask_json(pipe.ask(question))["quotes"][0]["text"]


def test_a_person_s_bare_number_is_an_age_and_a_sum_in_thousands_an_amount():
    assert stated_kinds("My son is 16, can he open his own account?") == {"age"}
    assert stated_kinds("can my sister open her own shapla acount, she 16") == {"age"}  # respelled "shes"
    assert stated_kinds("আজ আরও ৫ হাজার তুলতে পারব?") == {"amount"}
    assert stated_kinds("ei mashe already 25 hajar pathaisi, aro pathano jabe?") == {"amount"}
    assert stated_kinds("what if i enter wrong pin 3 times") == {"count"}
    assert stated_kinds("Can I run two schemes at once?") == frozenset()  # "at once" holds no number
    assert stated_kinds("Will 3 sends of 500 taka cost 5 taka each?") == {"amount", "count"}


def test_a_story_s_values_are_its_case_not_what_is_asked():
    q = ("একটা অপরিচিত নম্বর থেকে এক মহিলা ফোনে বলছেন, ভুল করে আমাকে ২ হাজার টাকা পাঠিয়ে ফেলেছেন। "
         "আমি কি নিজেই ওঁকে টাকাটা ফেরত পাঠিয়ে দেব?")
    assert stated_kinds(q) == frozenset()


def test_a_16_year_old_sister_gets_the_age_rule_not_the_nid_remark(served):
    assert "18 or older" in first_quote(served, "can my sister opne her own shapla acount, shes 16")


def test_another_5000_after_a_lakh_and_a_half_gets_the_monthly_cash_out_limit(served):
    got = first_quote(served, "এই মাসে এর মধ্যেই দেড় লাখ টাকা ক্যাশ আউট করে ফেলেছি। আজ আরও ৫ হাজার তুলতে পারব?")
    assert "১,৫০,০০০" in got


def test_a_question_stating_no_value_keeps_its_answer(served):
    assert "one personal account per NID" in first_quote(served, "Can I have two accounts with one NID?")


def test_whether_one_should_is_asked_apart_from_whether_one_may():
    from raglab.question.modality import asks_should
    assert asks_should("My top-up just failed. Should I send the same recharge again right away?")
    assert asks_should("the casheir at the farmacy offerd to type my pin for me so its quicker, is that ok??")
    assert asks_should("Is it worth going over these scam tips with my elderly parents as well?")
    assert asks_should("একজন ফোন দিয়ে বলতেছে আমি লটারিতে পুরস্কার পাইছি, ওটিপি চাচ্ছে। দিবো?")
    assert not asks_should("Can I have two accounts with one NID?")
    assert not asks_should("What should I do if I sent money to the wrong number?")


def test_shall_i_give_the_otp_gets_cut_the_call_not_the_scene(served):
    shown = [q["text"] for q in ask_json(served.ask("একজন ফোন দিয়ে বলতেছে আমি লটারিতে পুরস্কার পাইছি, ওটিপি চাচ্ছে। দিবো?"))["quotes"]]
    assert any("কেটে দিন" in t for t in shown) and not any("প্রায়ই আসে" in t for t in shown)  # the sentence before may lead in


def test_a_cashier_typing_my_pin_gets_never_let_anyone(served):
    got = first_quote(served, "the casheir at the farmacy offerd to type my pin for me so its quicker, is that ok??")
    assert got.startswith("Never let a cashier")


def test_telling_elderly_parents_gets_the_tip_that_says_so(served):
    shown = [q["text"] for q in ask_json(served.ask("Is it worth going over these scam tips with my elderly parents as well?"))["quotes"]]
    assert any("বয়স্ক সদস্যদেরও জানিয়ে দিন" in t for t in shown)
