"""Bangla (and Banglish) words customers use for what only an English article names: each
triggers the English article's concept, so a Bangla question reaches that article's unit."""

import pytest

from helpers import docs, shown
from raglab.pipeline import Pipeline
from raglab.retrieval.expansion import aliases, matches


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()))


@pytest.mark.parametrize("question, concept", [
    ("পিন কীভাবে পরিবর্তন করব?", "change"),
    ("পিন বদলাতে চাই", "change"),
    ("পিডিএফ করে নামানো যায়?", "statement"),
    ("ব্যাংক একাউন্ট থেকে ওয়ালেটে টাকা আনা যায়?", "bank account"),
    ("ব্যাংক অ্যাকাউন্টে রিফান্ড পাঠানো যায়?", "bank account"),
    ("প্রোমোশনের মেসেজ বন্ধ করব কীভাবে?", "marketing messages"),
    ("অ্যাকাউন্টটা ডরম্যান্ট হয়ে গেছে", "dormant account"),
    ("স্ক্রিনে কী মিলিয়ে দেখব?", "check"),
    ("phone churi hoye gese, ki korbo?", "lost phone"),
    ("nano loan kisti kore shodh kora jay?", "repay"),
    ("app logout hoye jay keno?", "logout"),
])
def test_a_customers_bangla_word_names_the_english_articles_concept(question, concept):
    assert concept in [g.concept for g, _ in matches(question)], question


def test_the_english_word_is_appended_and_read_as_the_bangla_words_alias():
    got = dict((g.concept, [p.text for p in added]) for g, added in matches("পিন কীভাবে পরিবর্তন করব?"))
    assert got["change"] == ["change"]
    assert ("change",) in aliases("পিন কীভাবে পরিবর্তন করব?")["পরিবর্তন"]


def test_bodle_meaning_instead_is_no_change():
    """বদলে is also "instead" ("তার বদলে অ্যাপ থেকেই পিন রিসেট করুন"): only its verb forms are entries."""
    assert "change" not in [g.concept for g, _ in matches("তার বদলে অ্যাপ থেকেই পিন রিসেট করুন")]


def test_a_bangla_question_to_change_the_pin_gets_the_change_pin_step(served):
    """Before the entry, পরিবর্তন had no alias, and the question got the forgotten-PIN reset steps."""
    _, _, answer = shown(served, "পিন কীভাবে পরিবর্তন করব?")
    assert "Change PIN" in answer, answer
