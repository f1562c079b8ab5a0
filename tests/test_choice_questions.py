"""A choice question ("…, নাকি …?", "X or Y?", "does it go to A or B?") asks which of the options
it names holds: the answer is the sentence that states it, not yes or no, so its asked type is
"other" in both languages, and the yes/no features (a unit saying "no", "only", "never") do not
fire on it. A trailing নাকি is a yes/no tag, and নাকি after a noun means "reportedly"."""

import pytest

from raglab.text.answertypes import question_type

CHOICES = [
    "Does the money go to the main balance or some bonus balance?",
    "Is the helpline open at night or only during office hours?",
    "Do I earn reward points online, or only in physical shops?",
    "Will my balance come across, or does the wallet start from zero on the new phone?",
    "When I recharge a prepaid SIM, does the money go to the main balance or another balance?",
    "টাকাটা কি মূল ব্যালেন্সে যায়, নাকি বোনাস ব্যালেন্সে?",
    "এতে কি অ্যাকাউন্টটা সচল থাকবে, নাকি ডরম্যান্ট হয়ে যাবে?",
    "ক্যাশ আউট চার্জ কি আলাদা দিতে হয় নাকি অ্যাকাউন্ট থেকে কেটে নেয়?",
    "nano loan ta ki kisti kore shodh kora jay, naki ekbare shob dite hoy?",
    "notun pin set korle ki sathe sathe kaj korbe naki kichukkhon wait korte hobe?",
    "cash in korle ki app er history te dekha jay? naki shudhu sms e thake?",
]

YES_NO = [
    "Can I send money to a bank account or a card?",  # "or" inside one option: yes or no
    "Does my main balance earn any interest or profit every month?",
    "Is cash in free or not?",
    "শাপলা পে থেকে রকেট বা নগদ একাউন্টে টাকা পাঠানো যায়?",
    "নাম্বার টাইপ না করে কন্টাক্ট লিস্ট থেকে বাছাই করা যায় নাকি?",  # a tag: "…, is it?"
    "cash in korte amar pin dite hobe naki",
]


@pytest.mark.parametrize("question", CHOICES)
def test_a_choice_question_is_read_as_other(question):
    assert question_type(question) == "other"


@pytest.mark.parametrize("question", YES_NO)
def test_or_within_a_yes_no_question_and_a_tag_naki_stay_yes_no(question):
    assert question_type(question) == "yesno"


def test_naki_as_reportedly_is_no_choice():
    assert question_type("প্রতারকেরা নাকি অন্য নম্বর ধরিয়ে দেয়। পিন দেওয়ার আগে কী দেখে নিশ্চিত হব?") == "procedure"
    assert question_type("বিদেশ থেকে আসা টাকায় সরকার নাকি বাড়তি টাকা দেয়। সরকার এটা দেয় কেন?") == "other"


def test_the_dev_goldens_label_the_plain_choices_other():
    import json
    import os

    from helpers import ROOT
    with open(os.path.join(ROOT, "goldens", "questions.jsonl"), encoding="utf-8") as fh:
        rows = {r["id"]: r for r in map(json.loads, filter(str.strip, fh)) if r["split"] == "dev"}
    for qid in ("q049", "q308", "q662", "q669", "q732", "q752", "q865", "q964", "q974", "q987", "q994"):
        assert rows[qid]["answer_type"] == "other", qid
