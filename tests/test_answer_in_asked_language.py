"""An answer quoted from the other language shows the twin article's unit in the customer's language.

"ekdine koybar cash out kora jay?" was answered "Up to 5 cash-outs a day." from en-cash-out, while
bn-cash-out states "দিনে সর্বোচ্চ ৫ বার ক্যাশ আউট করা যায়।": none of its chunks was among the first k.
`answerer.decide` shows the twin's unit once the confidence is known (`language.in_asked_language`):
only a unit of the quoted article's twin that answers with the same values, for the same periods and
the same half of a contrast.
"""

import functools

from helpers import docs
from raglab.answer.answerer import decide
from raglab.corpus.chunking import Chunk
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json


@functools.lru_cache(maxsize=None)
def pipe() -> Pipeline:
    return Pipeline(list(docs()), Config())


def test_an_english_quote_gives_way_to_its_bangla_twin_for_a_bangla_question():
    p = pipe()
    question = "ekdine koybar cash out kora jay?"
    got = p.ask(question)
    ans = got.answer
    assert not ans.abstained
    assert ans.text == "দিনে সর্বোচ্চ ৫ বার ক্যাশ আউট করা যায়।"
    x = ans.quotes[0]
    assert x.doc == "bn-cash-out" and p.docs[x.doc].text[x.start:x.end] == x.text
    # the citation is the chunk the quote is in, and the short answer lies in the quote
    assert ans.citations == [x.chunk] and x.text in p.by_id[x.chunk].text
    assert [s.text for s in ans.short_answers] == ["দিনে সর্বোচ্চ ৫ বার"]
    assert all(s.chunk == x.chunk and x.start <= s.start < s.end <= x.end for s in ans.short_answers)
    assert ask_json(got)["answer_language"] is None  # in the customer's language: no note
    # presentation only: the confidence is the English unit's, as without the twin
    hits = p.search(question)
    a = p.assess(question, [p.chunks[h.index] for h in hits], [h.score for h in hits])
    plain = decide(a, p.config.threshold, p.cues(question), p.docs)
    assert plain.text == "Up to 5 cash-outs a day." and plain.confidence == ans.confidence


def test_an_english_sentence_saying_more_periods_gives_way_to_its_twin_saying_the_asked_one():
    # "… up to 5 times a day, with a daily total of up to Tk 30,000, and no more than Tk 2,00,000 in a
    # calendar month." states the day and the month; its twin in bn-cash-in the day alone
    got = pipe().ask("এক দিনে এজেন্টের কাছ থেকে সর্বোচ্চ কত টাকা ক্যাশ ইন করা যায়?").answer
    assert got.quotes[0].doc == "bn-cash-in" and "৩০,০০০ টাকা" in got.text
    assert [s.text for s in got.short_answers] == ["৩০,০০০ টাকা"]


def _chunk(doc: str, heading: str, text: str) -> Chunk:
    text = f"## {heading}\n\n{text}"
    return Chunk(f"{doc}#1", doc, 0, len(text), text, (heading,))


def _shown(question: str, quoted: str, twin: str):
    p = pipe()
    a = p.assess(question, [_chunk("x-en", "Cash out limits", quoted)])
    other = _chunk("x-bn", "সীমা", twin)
    return decide(a, 0.0, question, None, twin=p.twin(question)[:1] + (lambda doc: [other],))


def test_the_twin_must_answer_for_the_same_period_and_the_same_service():
    question = "cash out er sorbochcho limit koto taka?"
    quoted = "You can cash out up to Tk 25,000 a day at an agent."
    got = _shown(question, quoted, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")
    assert got.text == "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।" and got.citations == ["x-bn#1"]
    assert [s.text for s in got.short_answers] == ["দিনে সর্বোচ্চ ২৫,০০০ টাকা"]
    # the same number for another period, or for the other half of a contrast, is another fact
    for other in ("মাসে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।", "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ ইন করা যায়।"):
        got = _shown(question, quoted, other)
        assert got.text == quoted and got.citations == ["x-en#1"], other
    # another value is no twin
    assert _shown(question, quoted, "দিনে সর্বোচ্চ ৩০,০০০ টাকা ক্যাশ আউট করা যায়।").text == quoted


def test_a_quote_stating_no_value_is_never_swapped():
    # values, not words, tell twins apart: a Bangla sentence on the same topic may say something else
    question = "agent er kache cash out korle ki kono somossa hoy?"
    quoted = "Cash out at an agent is quick and safe."
    assert _shown(question, quoted, "এজেন্টের কাছে ক্যাশ আউট দ্রুত ও নিরাপদ।").text == quoted
