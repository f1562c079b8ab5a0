"""Short answers, a sixth round: a Bangla age keeps "বা তার বেশি" (or older) after it, as "18 or older"
does in English. The sentences are made up for the tests (in the help centre's style)."""

import pytest

from raglab.answer.candidates import text_info
from raglab.answer.short import short_spans
from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type


def shorts(question: str, text: str, qtype: str | None = None) -> list[str]:
    qtype = qtype or question_type(question)
    spans = short_spans(qtype, frozenset(), set(analyze(question)), text, text_info(text).order, question, 1)
    return [text[s:e] for s, e in spans]


@pytest.mark.parametrize("text, want", [
    ("মার্চেন্ট অ্যাকাউন্ট খুলতে মালিকের বয়স ২১ বছর বা তার বেশি হতে হবে।", "বয়স ২১ বছর বা তার বেশি"),
    ("আবেদনকারীর বয়স অন্তত ২১ বছর হতে হবে।", "বয়স অন্তত ২১ বছর"),
    ("মালিকের বয়স ২১ বছর বা তার ঊর্ধ্বে হতে হবে।", "বয়স ২১ বছর বা তার ঊর্ধ্বে"),
])
def test_a_bangla_age_keeps_or_older(text, want):
    assert shorts("মার্চেন্ট অ্যাকাউন্ট খুলতে বয়স কত লাগে?", text, "age") == [want]
