"""What a customer sees for a yes/no question: the sentence that says yes or no, quoted whole, with
no value in bold. The unit answering "does it cost anything?" often states two prices (free from a
linked bank account, a 1% fee by card); a value in bold picked from it answers the other case as
readily as the asked one (docs/pipeline.md, "Yes/no questions, measured and read")."""

import json

import pytest

from helpers import docs
from raglab.answer.asking import asked_sides
from raglab.answer.sentences import COL, model, parse_model
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json
from raglab.text.answertypes import question_type
from raglab.text.tables import read_table


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


@pytest.mark.parametrize("question, sides", [
    ("Can my daughter open her own account at 15?", ("can",)),
    ("Will the agent need my PIN for a cash in?", ("need",)),
    ("Is sending money to another account free?", ("price",)),
    ("টাকা তুলতে কি পিন লাগবে?", ("need",)),
    ("ami ki ekbare 40000 tulte parbo", ("can",)),
])
def test_a_yes_no_question_names_the_side_it_asks_about(question, sides):
    assert asked_sides(question) == sides


def test_the_unit_that_says_yes_or_no_takes_the_side_asked_and_the_restating_one_does_not(composed):
    question = "Do I need my PIN to cash in at an agent?"
    hits = composed.search(question)
    a = composed.assess(question, [composed.chunks[h.index] for h in hits], [h.score for h in hits])
    side = {c.unit.text: c.features[COL["side"]] for _, c in a.order}
    assert side["You do not need to give your PIN to cash in."] == 1.0
    assert side["Go to any Shapla Pay agent point."] == 0.0
    assert ask_json(composed.ask(question))["answer"].startswith("You do not need to give your PIN")
    # Asked whether an agent may, the unit saying he must not takes the side asked.
    question = "Is an agent allowed to ask for my PIN?"
    hits = composed.search(question)
    a = composed.assess(question, [composed.chunks[h.index] for h in hits], [h.score for h in hits])
    side = {c.unit.text: c.features[COL["side"]] for _, c in a.order}
    assert side["An agent must not ask for your PIN."] == 1.0


def test_a_sentence_model_fitted_before_a_feature_was_added_still_answers():
    # The file's weights are read by name: a feature it does not name weighs nothing, so the
    # served answers stay what that fit chose until the next re-fit.
    data = json.loads(read_table("sentence_model.json"))
    cut = data["features"].index("side") if "side" in data["features"] else len(data["features"])
    older = dict(data, features=data["features"][:cut] + data["features"][cut + 1:],
                 weights=data["weights"][:cut] + data["weights"][cut + 1:])
    assert parse_model(older).weights[COL["side"]] == 0.0
    assert parse_model(older).weights[COL["coverage"]] == model().weights[COL["coverage"]]
    with pytest.raises(ValueError):
        parse_model(dict(data, features=data["features"][:-1] + ["no such feature"]))
