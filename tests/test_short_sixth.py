"""Short answers, a sixth round: a Bangla age keeps "বা তার বেশি" (or older) after it, as "18 or older"
does in English. The sentences are made up for the tests (in the help centre's style)."""

import functools

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


def test_a_share_keeps_its_restatement_as_an_amount_per_sum():
    from raglab.question.factoid import restated
    s = "The fee for paying a merchant is 1.5% of each payment, which is Tk 15 per Tk 1,000."
    end = s.index(", which")
    assert s[:restated("What is the merchant fee?", "amount", s, end)].endswith("1.5% of each payment, which is Tk 15 per Tk 1,000")
    b = "মার্চেন্ট পেমেন্টে চার্জ ১.৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৫ টাকা।"
    assert b[:restated("মার্চেন্ট পেমেন্টের চার্জ কত?", "amount", b, b.index(", অর্থাৎ"))].endswith("১.৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৫ টাকা")
    p = "It costs 1.5% of each payment (Tk 15 per Tk 1,000)."
    assert p[:restated("What does it cost?", "amount", p, p.index(" ("))].endswith("(Tk 15 per Tk 1,000)")
    # a remark after the share is no restatement; a question asking the share itself gets the share alone
    r = "It costs 1.5% of each payment, which is the lowest fee."
    assert restated("What does it cost?", "amount", r, r.index(",")) == r.index(",")
    assert restated("What percentage of each payment is the fee?", "percent", s, end) == end


@functools.lru_cache(maxsize=None)
def pipe():
    from helpers import docs
    from raglab.pipeline import Config, Pipeline
    return Pipeline(list(docs()), Config())


def test_the_cash_out_fee_is_shown_with_its_amount_per_thousand_but_two_fees_compared_alike():
    got = pipe().ask("এজেন্টের কাছে ক্যাশ আউট করলে চার্জ কত?").answer
    assert [s.text for s in got.short_answers] == ["১.৮৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা"]
    got = pipe().ask("এজেন্ট আর অংশীদার ব্যাংকের এটিএমে ক্যাশ আউটের চার্জে পার্থক্য কী?").answer
    assert [s.text for s in got.short_answers] == ["১.৮৫%", "১.৯৫%"]
