"""A question asking how is not answered by a unit that tells nothing to do while a unit read for it
does (`answer.howto.shows_no_way`): "nano loan kivabe nibo" (how do I take a nano loan) showed the
loan's amount and rate at 0.82 with the "How to apply" steps ranked second, and "অ্যাকাউন্ট কীভাবে
খুলব?" showed the one-account-per-NID rule at 0.70. Withheld ("no-way"); a how-to answered by its
steps, and a "how" that asks no way to act (no unit among the candidates tells what to do), are untouched; so is "you can escalate it to …", a way stated with no figure."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline


@pytest.fixture(scope="module")
def anywhere():
    return Pipeline(list(docs()), Config(threshold=0.0))


# The nano loan questions are answered by their "How to apply" steps since (tests/test_way_stated.py); the
# account's conditions, under "who can open an account", are no way, so that one is still withheld when
# retrieval leaves its Bangla steps out (since retrieval raises them, tests/test_way_retrieval.py, it quotes them).
@pytest.mark.parametrize("question", ["অ্যাকাউন্ট কীভাবে খুলব?"])
def test_a_way_asked_gets_no_amount_or_rule(anywhere, question, monkeypatch):
    monkeypatch.setattr("raglab.retrieval.bilingual.WAY_RAISE", 0.0)
    a = anywhere.ask(question).answer
    assert a.abstained and a.withheld == "no-way", [q.text for q in a.quotes]


@pytest.mark.parametrize("question", ["How do I change my PIN?", "How can I cash out?", "ক্যাশ আউট কীভাবে করব?", "How do I escalate my complaint?",
                                      "What is the cash out fee?"])
def test_steps_and_other_questions_are_untouched(anywhere, question):
    a = anywhere.ask(question).answer
    assert not a.abstained and a.withheld is None


def test_the_cli_and_the_page_say_why():
    from raglab.cli.asking import withheld_reason

    said = withheld_reason({"withheld": "no-way", "confidence": 0.82, "config": {"threshold": 0.65}})
    assert said.startswith("how to do something was asked") and said.endswith("confidence 0.82, threshold 0.65")
