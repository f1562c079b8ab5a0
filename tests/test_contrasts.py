"""The other half of a contrast (`answer/asking.py`, `clashes`): a question about cash in is not answered
by a cash-out sentence, nor one about the maximum by the minimum."""

import pytest

from helpers import docs
from raglab.answer.sentences import COL
from raglab.pipeline import Config, Pipeline
from raglab.text.contrasts import asked_halves, clashes, parse_contrasts


@pytest.fixture(scope="module")
def served():
    return Pipeline(list(docs()), Config())


def test_each_language_names_a_half():
    cash_in = (0, 0)
    for q in ("What is the minimum cash in?", "ক্যাশ ইনের চার্জ কত?", "agent theke cash in korte koto charge?",
              "cashin limit koto", "Cash-in fee?"):
        assert cash_in in asked_halves(q), q
    for q in ("max recharge amount in one go?", "সর্বোচ্চ কত টাকা রিচার্জ করা যায়?", "সরবোচ্চ কত", "sorboccho koto"):
        assert (1, 1) in asked_halves(q), q
    # Naming both halves asks for both; naming neither asks about no half.
    assert asked_halves("What are the cash in and cash out fees?") == ()
    assert asked_halves("What is the minimum and maximum recharge?") == ()
    assert asked_halves("How do I reset my PIN?") == ()


def test_a_unit_naming_only_the_other_half_clashes():
    asked = asked_halves("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?")
    assert clashes(asked, "প্রতিবার ক্যাশ আউটের ন্যূনতম পরিমাণ ৫০ টাকা।")
    assert not clashes(asked, "এজেন্টের কাছে ক্যাশ ইন সম্পূর্ণ বিনামূল্যে।")
    # "in" is an English stopword: the analyzer cannot tell these apart, the cue text can.
    assert clashes(asked_halves("agent theke cash in korte koto charge?"), "The fee for cash out at an agent is 1.85%.")
    assert clashes(asked_halves("max recharge amout in one go?"), "Minimum per recharge — Amount: Tk 20")
    assert not clashes(asked_halves("max recharge amout in one go?"), "The minimum recharge is Tk 20 and the maximum is Tk 1,000.")
    # A unit naming neither half is read with its heading; its own words come first.
    asked = asked_halves("What is the cash in limit?")
    assert clashes(asked, "Up to Tk 25,000 a day.", "Cash out at an agent Cash out limits")
    assert not clashes(asked, "Up to Tk 30,000 a day.", "Cash in at an agent Cash in limits")
    assert not clashes(asked, "Cash in up to Tk 30,000 a day.", "Cash out at an agent")
    assert not clashes(asked, "Up to Tk 30,000 a day.", "Cash in and cash out")


def test_the_table_rejects_classes_the_browser_reads_otherwise():
    with pytest.raises(ValueError):
        parse_contrasts({"pairs": [{"halves": [["\\bcash in\\b"], [" cash out "]]}]})
    with pytest.raises(ValueError):
        parse_contrasts({"pairs": [{"halves": [[" cash in "]]}]})


def test_a_broken_pattern_is_named_with_its_row():
    with pytest.raises(ValueError, match=r"pairs\[1\]: ' cash \(in ' is not a valid pattern"):
        parse_contrasts({"pairs": [{"halves": [[" a "], [" b "]]}, {"halves": [[" ok ", " cash (in "], [" cash out "]]}]})


def test_a_cash_in_question_gets_no_cash_out_sentence_when_a_cash_in_one_is_there(served):
    for q in ("ক্যাশ ইন করতে কত টাকা চার্জ লাগে?", "agent theke cash in korte koto charge?", "Is there a fee to cash in?",
              "cash in er limit koto?", "What is the daily cash in limit?"):
        hits = served.search(q)
        a = served.assess(q, [served.chunks[h.index] for h in hits], [h.score for h in hits])
        ins = [c for _, c in a.order if not c.features[COL["contrast_clash"]] and asked_halves(c.unit.text) == ((0, 0),)]
        if ins:
            best = a.order[0][1]
            assert not best.features[COL["contrast_clash"]], (q, best.unit.text)


def test_the_other_half_is_never_answered_however_confident(served):
    # The help centre states no cash-in minimum: the cash-out minimum is no answer.
    for q in ("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?", "What is the minimum amount I can cash in?"):
        answer = served.ask(q).answer
        assert answer.abstained, (q, answer.text)
    assert not served.ask("ক্যাশ ইন করতে কত টাকা চার্জ লাগে?").answer.abstained
