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
from raglab.answer.sentences import lang_of
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
    assert [s.text for s in got.short_answers] == ["দিনে সব মিলিয়ে ৩০,০০০ টাকা"]


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


# Two quotes: each one in the other language is read alone, for the kind it is read for.
def test_each_of_two_quotes_gives_way_to_its_twin_and_the_other_keeps_its_place():
    # q094: an English question answered "… cash in up to Tk 30,000 a day, but … cash out only up to Tk 25,000 a
    # day." and, for the cash-out half, bn-cash-out's sentence; en-cash-out's twin states the same Tk 25,000 a day
    p = pipe()
    got = p.ask("What are the daily amount limits for cash in and for cash out?")
    ans = got.answer
    assert [x.doc for x in ans.quotes] == ["en-fees-limits", "en-cash-out"]
    assert ans.quotes[1].text == "Up to Tk 25,000 in total a day."
    assert [s.text for s in ans.short_answers] == ["up to Tk 30,000 a day", "Up to Tk 25,000 in total a day"]
    for x, s in zip(ans.quotes, ans.short_answers):  # each half's short answer lies in its own quote, in the order asked
        assert s.chunk == x.chunk and x.start <= s.start < s.end <= x.end and p.docs[x.doc].text[x.start:x.end] == x.text
    assert ans.citations == [ans.quotes[1].chunk, ans.quotes[0].chunk]  # the best unit's (the cash-out half's) first, as composed
    assert ask_json(got)["answer_language"] is None


def test_the_best_quote_of_two_gives_way_and_the_runner_up_in_the_asked_language_stays():
    # q466: "eKYC usually finishes within 10 minutes." beside a Bangla sentence on remittances
    ans = pipe().ask("account verify hote koto khon somoy lage?").answer
    assert ans.text.splitlines()[0] == "ইকেওয়াইসি সাধারণত ১০ মিনিটের মধ্যে শেষ হয়ে যায়।"
    assert [x.doc for x in ans.quotes] == ["bn-open-account", "bn-remittance"]
    assert [s.text for s in ans.short_answers] == ["সাধারণত ১০ মিনিটের মধ্যে"]
    assert ans.citations == list(dict.fromkeys(x.chunk for x in ans.quotes))


TWO = "cash out er dainik limit koto ar charge koto?"  # two facts: the daily amount and the fee
TWO_EN = "You can cash out up to Tk 25,000 a day. The cash out fee is 1.85% of the amount."


def test_only_the_half_whose_twin_states_its_values_is_swapped():
    # the Bangla article states the limit, not the fee: the fee's quote stays English, with its short answer
    got = _shown(TWO, TWO_EN, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")
    assert got.text == "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।\nThe cash out fee is 1.85% of the amount."
    assert [s.text for s in got.short_answers] == ["দিনে সর্বোচ্চ ২৫,০০০ টাকা", "1.85% of the amount"]
    assert got.citations == ["x-bn#1", "x-en#1"] and [x.doc for x in got.quotes] == ["x-bn", "x-en"]
    # another fee is no twin of the fee
    got = _shown(TWO, TWO_EN, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়। ক্যাশ আউটের চার্জ টাকার পরিমাণের ১.৯৫%।")
    assert got.text.splitlines()[1] == "The cash out fee is 1.85% of the amount." and [s.text for s in got.short_answers][1] == "1.85% of the amount"
    # both twins: both halves in Bangla, one citation
    got = _shown(TWO, TWO_EN, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়। ক্যাশ আউটের চার্জ টাকার পরিমাণের ১.৮৫%।")
    assert got.text == "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।\nক্যাশ আউটের চার্জ টাকার পরিমাণের ১.৮৫%।"
    assert [s.text for s in got.short_answers] == ["দিনে সর্বোচ্চ ২৫,০০০ টাকা", "১.৮৫%"] and got.citations == ["x-bn#1"]


def test_two_quotes_never_show_one_twin_twice():
    question = "ekdine koto taka cash out kora jay?"
    quoted = "You can cash out up to Tk 25,000 a day. The daily cash out limit is Tk 25,000 in total."
    got = _shown(question, quoted, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")
    assert got.text == "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।\nThe daily cash out limit is Tk 25,000 in total."
    got = _shown(question, quoted, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়। অর্থাৎ একদিনে ২৫,০০০ টাকার বেশি ক্যাশ আউট করা যায় না।")
    assert got.text == "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।\nঅর্থাৎ একদিনে ২৫,০০০ টাকার বেশি ক্যাশ আউট করা যায় না।"


def test_the_note_names_a_language_only_when_every_quote_is_in_it():
    from types import SimpleNamespace

    from raglab.answer.language import quoted_language
    langs = {"x-en": SimpleNamespace(lang="en"), "x-bn": SimpleNamespace(lang="bn")}
    q = pipe().assess(TWO, [_chunk("x-en", "Cash out", TWO_EN)]).q
    half = _shown(TWO, TWO_EN, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।")  # one quote in each language: no note
    none = _shown(TWO, TWO_EN, "ক্যাশ আউট সহজ।")  # nothing swapped: "quoted from an English article"
    assert quoted_language(q, half, langs) is None and quoted_language(q, none, langs) == "en"


def test_the_twin_leaves_out_no_value_of_another_kind_nor_a_period_the_question_leaves_open():
    # "after 24 hours" says when to call: a twin without it is another instruction
    quoted = "If the money has not come back after 24 hours, call 16789."
    assert _shown("taka ferot na ashle kon number e call korbo?", quoted, "গ্রাহকসেবায় ১৬৭৮৯ নম্বরে কল করুন।").text == quoted
    # a limit asked for no period is the day's and the month's: a twin stating the day's alone is half of it
    quoted = "You can cash out up to Tk 25,000 a day and Tk 1,50,000 a month."
    assert _shown("cash out limit koto", quoted, "দিনে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।").text == quoted


def test_a_quote_whose_twin_is_quoted_already_goes_rather_than_a_lesser_twin():
    # The Bangla "প্রতি ক্যালেন্ডার মাসে প্রথম ২৫,০০০ টাকা পর্যন্ত সেন্ড মানি সম্পূর্ণ ফ্রি।" was composed with its
    # English twin under it; the twin being shown, the English worked example stating Tk 25,000 took its place
    # ("Suppose you have already sent Tk 25,000 this month.", first, at confidence 0.96).
    # (The list item after it, "After that, …", is shown with it: `neighbours.with_sentence_after`.)
    got = pipe().ask("How much does it cost to send money?").answer
    assert got.quotes[0].text == "The first Tk 25,000 you send in a calendar month is free."
    assert not any(x.text.startswith("Suppose") for x in got.quotes)
    assert got.citations == [got.quotes[0].chunk] and got.quotes[0].doc == "en-send-money"
    assert all(s.chunk == got.quotes[0].chunk for s in got.short_answers)


def test_a_twin_whose_first_value_differs_still_stands_when_each_states_the_others_answer():
    # "The fee for cash out at an agent is 1.85% of the amount, which is Tk 18.50 per Tk 1,000." reads 1.85 first
    # for an amount, its Bangla twin ১৮.৫০ টাকা: the same values in another order, so the code-mixed question
    # stayed in English
    got = pipe().ask("agent থেকে cash out করলে fee কত?").answer
    assert got.text == "এজেন্টের কাছে ক্যাশ আউটের চার্জ টাকার পরিমাণের ১.৮৫%, অর্থাৎ প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা।"
    assert got.quotes[0].doc == "bn-cash-out" and "১.৮৫%" in got.short_answers[0].text


def test_a_twin_whose_short_answer_says_the_same_value_and_its_base_stands_for_the_quote():
    # "what is the charge for cash out of 2000 tk" was answered in Bangla, "… প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা।" with
    # ১৮.৫০ টাকা in bold: its English twin bolds "Tk 18.50 per Tk 1,000", which states 18.50 and the rate's base too,
    # and the twin had to bold exactly the same numbers. Stating every number of the quote's bold suffices.
    got = pipe().ask("what is the charge for cash out of 2000 tk").answer
    assert got.quotes[0].text == "The fee for cash out at an agent is 1.85% of the amount, which is Tk 18.50 per Tk 1,000."
    assert all(lang_of(x.text) == "en" for x in got.quotes) and "18.50" in got.short_answers[0].text
