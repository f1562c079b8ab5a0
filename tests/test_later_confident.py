"""Confident wrong answers on questions the answerer was not fitted on (the later dev questions,
the external sets' dev halves), each cause fixed by a rule that holds for any question."""

from raglab.answer.sentences import fresh_spans, spans_of


def test_a_footnote_mark_is_no_value():
    # "How large is Herzegovina?" (a count) was answered at 0.91 by the opening sentence, typed by its "[1]".
    for text in ("Herzegovina[1] is the southern region of Bosnia and Herzegovina.",
                 "হার্জেগোভিনা[১] বসনিয়া ও হার্জেগোভিনার দক্ষিণ অঞ্চল।"):
        assert not fresh_spans(spans_of(text), text, ("count", "number"), frozenset()), text


def test_a_number_before_a_footnote_still_counts():
    text = "Its area is 11,419 km2.[2]"
    assert [text[s.start:s.end] for s in fresh_spans(spans_of(text), text, ("count", "number"), frozenset())] == ["11,419"]
    text = "অঞ্চলটির আয়তন ১১,৪১৯ বর্গকিলোমিটার।[২]"
    assert [text[s.start:s.end] for s in fresh_spans(spans_of(text), text, ("count", "number"), frozenset())] == ["১১,৪১৯"]
