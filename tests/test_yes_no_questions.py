"""What a customer sees for a yes/no question: the sentence that says yes or no, quoted whole, with
no value in bold. The unit answering "does it cost anything?" often states two prices (free from a
linked bank account, a 1% fee by card); a value in bold picked from it answers the other case as
readily as the asked one (docs/pipeline.md, "Yes/no questions, measured and read")."""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json
from raglab.text.answertypes import question_type


@pytest.fixture(scope="module")
def composed():
    # Threshold 0: what the answerer would show, whatever its confidence.
    return Pipeline(list(docs()), Config(threshold=0.0))


@pytest.mark.parametrize("question", [
    "Does adding money with a card cost anything?",
    "Can my daughter open her own account at 15?",
    "Will the agent need my PIN for a cash in?",
    "কার্ড দিয়ে অ্যাড মানি করলে কি চার্জ লাগে?",
])
def test_yes_no_questions_are_read_as_yes_no(question):
    assert question_type(question) == "yesno"


def test_a_yes_no_question_about_a_price_quotes_the_price_without_a_value_in_bold(composed):
    got = ask_json(composed.ask("Does adding money with a card cost anything?"))
    assert not got["abstained"]
    assert "1% fee" in got["answer"] and "card" in got["answer"]
    assert got["short_answers"] == []  # "free" (a linked bank account's) would answer another case
