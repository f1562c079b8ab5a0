"""The extractive answerer and the pipeline's ask() on the bundled corpus."""

import pytest

from raglab.analyzer import analyze
from raglab.answer import answer
from raglab.chunking import chunk_document
from raglab.corpus import parse_article
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json

from helpers import docs

DOC = parse_article("t", """# Cash out

## Fees
The fee for cash out at an agent is 1.85% of the amount. At an ATM the fee is 1.95%.

## Limits
- You can cash out up to Tk 25,000 a day.
- The minimum is Tk 50 per cash-out.
""")
CHUNKS = chunk_document(DOC, "sentence")


def idf(term):
    return 1.0


def test_quotes_the_best_sentence_verbatim_and_cites_it():
    a = answer(["atm", "fee"], CHUNKS, idf, threshold=0.0, question="What is the ATM fee?")
    assert not a.abstained
    assert a.text == "At an ATM the fee is 1.95%."
    assert a.citations == [a.quotes[0].chunk]
    q = a.quotes[0]
    assert DOC.text[q.start:q.end] == q.text


def test_short_answer_is_the_typed_span_with_offsets_in_its_chunk():
    a = answer(["atm", "fee"], CHUNKS, idf, threshold=0.0, question="What is the ATM fee?")
    assert a.answer_type == "amount"
    [short] = a.short_answers
    chunk = next(c for c in CHUNKS if c.id == short.chunk)
    assert short.text == "1.95%" and chunk.text[short.start:short.end] == "1.95%"


def test_the_question_own_number_is_not_the_short_answer():
    a = answer(["cash", "out", "25000", "day"], CHUNKS, idf, threshold=0.0,
               question="Can I cash out Tk 25,000 a day?")
    assert a.short_answers == []  # a yes/no question: the sentence is the answer
    q = "How much is the minimum cash out, if the limit is Tk 25,000?"
    b = answer(analyze(q), CHUNKS, idf, threshold=0.0, question=q)
    assert b.quotes[0].text == "You can cash out up to Tk 25,000 a day." or [s.text for s in b.short_answers][0] == "Tk 50"
    assert "Tk 25,000" not in [s.text for s in b.short_answers]


def test_list_markers_are_not_quoted():
    a = answer(["minimum", "50"], CHUNKS, idf, threshold=0.0)
    assert a.text == "The minimum is Tk 50 per cash-out."


def test_second_sentence_only_for_terms_the_first_misses():
    two = answer(["atm", "minimum", "50"], CHUNKS, idf, threshold=0.0)
    assert len(two.quotes) == 2
    assert set(two.text.split("\n")) == {"The minimum is Tk 50 per cash-out.", "At an ATM the fee is 1.95%."}
    one = answer(["minimum", "50"], CHUNKS, idf, threshold=0.0)
    assert len(one.quotes) == 1


def test_confidence_is_a_probability_and_the_threshold_cuts_it():
    a = answer(["atm", "fee"], CHUNKS, idf, threshold=0.0, question="What is the ATM fee?")
    assert 0.0 < a.confidence < 1.0
    above = answer(["atm", "fee"], CHUNKS, idf, threshold=a.confidence, question="What is the ATM fee?")
    below = answer(["atm", "fee"], CHUNKS, idf, threshold=min(1.0, a.confidence + 1e-9), question="What is the ATM fee?")
    assert not above.abstained and below.abstained and below.text is None and below.citations == []
    assert below.confidence == a.confidence


def test_abstains_when_no_sentence_holds_a_question_word():
    a = answer(["train", "ticket"], CHUNKS, idf, threshold=0.0)
    assert a.abstained and a.text is None and a.citations == [] and a.coverage == 0.0


def test_no_terms_abstains():
    assert answer([], CHUNKS, idf).abstained


@pytest.fixture(scope="module")
def pipe():
    return Pipeline(list(docs()), Config(chunker="recursive", retriever="bm25", expand=False, threshold=0.5))


@pytest.mark.parametrize("question, fact", [
    ("What is the cash out fee at an agent?", "1.85%"),
    ("How many wrong PIN attempts lock the account?", "3 wrong attempts"),
    ("What is the customer care hotline number?", "16789"),
    ("এজেন্টের কাছে ক্যাশ আউটের চার্জ কত?", "১.৮৫%"),
])
def test_answers_on_the_bundled_corpus(pipe, question, fact):
    r = ask_json(pipe.ask(question))
    assert not r["abstained"], r
    assert fact in r["answer"]
    for q in r["quotes"]:
        assert pipe.docs[q["doc"]].text[q["start"]:q["end"]] == q["text"]
        assert q["chunk"] in r["citations"]
        assert q["chunk"] in [c["id"] for c in r["chunks"]]


@pytest.mark.parametrize("question", ["", "   ", "\n\t", "?!", "😀😀", "the of and"])
def test_empty_or_termless_question_abstains_without_raising(pipe, question):
    r = ask_json(pipe.ask(question))
    assert r["abstained"] and r["answer"] is None


def test_result_has_documented_fields(pipe):
    r = ask_json(pipe.ask("cash out fee"))
    assert {"question", "answer", "abstained", "citations", "chunks"} <= r.keys()
    assert len(r["chunks"]) == pipe.config.k
    for c in r["chunks"]:
        assert {"id", "doc", "start", "end", "score", "text"} <= c.keys()
        assert pipe.docs[c["doc"]].text[c["start"]:c["end"]] == c["text"]
    scores = [c["score"] for c in r["chunks"]]
    assert scores == sorted(scores, reverse=True)


def test_matches_highlight_question_terms(pipe):
    r = ask_json(pipe.ask("cash out fee"))
    c = r["chunks"][0]
    found = {c["text"][s:e].lower() for s, e in c["matches"]}
    assert found & {"fee", "cash", "out"}


def test_bad_config_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown chunker 'nope'"):
        Pipeline(list(docs()), Config(chunker="nope"))
    with pytest.raises(ValueError, match="unknown retriever"):
        Pipeline(list(docs()), Config(retriever="nope"))
    with pytest.raises(ValueError, match="k must be"):
        Pipeline(list(docs()), Config(k=0))
