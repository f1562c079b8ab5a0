"""How a shown answer reads: the context quoted beside it, and the short answer of a list question.

- A unit before the best one is quoted as its context only when it does not itself turn on a sentence
  the page leaves out (`neighbours.leans_elsewhere`): "তার বদলে অ্যাপ থেকেই পিন রিসেট করুন।" ("instead,
  reset the PIN from the app": instead of what?) or "Many providers also send their own confirmation."
  (also besides what?) before the answer is dropped; the answer stands alone.
- A question asking what one needs or which details gets as short answer the series of things
  named (`shorts.series_span`), or none; never one word of it ("ID" of "… and the transaction ID").
"""

import pytest

from helpers import docs
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json

PIN = "pin reset korte ki ki lagbe?"
RECEIPT = "What details does the receipt of a bill payment show?"


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(list(docs()), Config())


def asked(pipe, question: str, leaning_rule: bool = True) -> dict:
    """The ask JSON of `question`, with the rule on context that leans elsewhere on or off."""
    import raglab.answer.answerer as answerer

    rule = answerer.leans_elsewhere
    if not leaning_rule:
        answerer.leans_elsewhere = lambda *a: False
    try:
        return ask_json(pipe.ask(question))
    finally:
        answerer.leans_elsewhere = rule


@pytest.mark.parametrize("question, leaning, answer", [
    (PIN, "তার বদলে", "ভুলে যাওয়া পিন রিসেট করতে"),
    (RECEIPT, "Many providers also", "If your provider asks for proof of payment"),
])
def test_a_sentence_before_that_leans_elsewhere_is_not_quoted_as_context(pipe, question, leaning, answer):
    got = asked(pipe, question)
    assert not got["abstained"]
    assert [q["text"][:len(answer)] for q in got["quotes"]] == [answer]
    # Without the rule the leaning sentence comes first; the confidence is the same either way.
    before = asked(pipe, question, leaning_rule=False)
    assert before["quotes"][0]["text"].startswith(leaning)
    assert before["confidence"] == got["confidence"]


def test_a_sentence_before_a_best_unit_that_leans_on_it_stays():
    # "তবে ১০০ টাকা বা তার কম …" ("but …") leans on "ওই মাসে মোট ২৫,০০০ টাকা …": that one opens on a
    # pointing word, not a connective, and is what the answer leans on, so it is quoted before it.
    pipe = Pipeline(list(docs()), Config(threshold=0.0))
    got = ask_json(pipe.ask("১০০ টাকার কম সেন্ড মানি করলেও কি চারজ কাটে?"))
    texts = [q["text"] for q in got["quotes"]]
    assert len(texts) == 2 and texts[1].startswith("তবে ১০০ টাকা") and texts[0].startswith("ওই মাসে")


def test_leans_elsewhere_counts_connectives_and_also_not_pointing_words():
    from raglab.answer.neighbours import CONNECTIVES, LEANING, opens_on

    assert set(CONNECTIVES) <= set(LEANING)
    assert opens_on("তার বদলে অ্যাপ থেকেই পিন রিসেট করুন।", CONNECTIVES) and opens_on("However, it is free.", CONNECTIVES)
    assert not opens_on("This charge is the shop's cost.", CONNECTIVES) and opens_on("This charge is the shop's cost.", LEANING)


def test_a_list_question_gets_the_series_as_its_short_answer(pipe):
    got = asked(pipe, RECEIPT)
    assert [s["text"] for s in got["short_answers"]] == ["the bill number, the amount, the date and the transaction ID"]


def test_series_span_reads_english_series_only():
    from raglab.answer.shorts import series_span

    t = "Include your account number, your full name and the period you need."
    s, e = series_span(t)
    assert t[s:e] == "your account number, your full name and the period you need"
    t = "You need your NID, a photo and a phone number to open an account."
    s, e = series_span(t)
    assert t[s:e] == "your NID, a photo and a phone number"
    assert series_span("এসএমএসে জমার পরিমাণ, লেনদেন নম্বর এবং আপনার নতুন ব্যালেন্স থাকে।") is None
    assert series_span("You can reset a forgotten PIN yourself in the app.") is None
