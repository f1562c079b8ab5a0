"""The extractive answerer and the pipeline's ask() on the bundled corpus."""

import pytest

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
    a = answer(["atm", "fee"], CHUNKS, idf)
    assert not a.abstained
    assert a.text == "At an ATM the fee is 1.95%."
    assert a.citations == [a.quotes[0].chunk]
    q = a.quotes[0]
    assert DOC.text[q.start:q.end] == q.text


def test_list_markers_are_not_quoted():
    a = answer(["minimum", "50"], CHUNKS, idf)
    assert a.text == "The minimum is Tk 50 per cash-out."


def test_second_sentence_only_for_terms_the_first_misses():
    two = answer(["atm", "minimum", "50"], CHUNKS, idf, threshold=0.3)
    assert len(two.quotes) == 2
    assert two.text == "The minimum is Tk 50 per cash-out.\nAt an ATM the fee is 1.95%."
    one = answer(["minimum", "50"], CHUNKS, idf)
    assert len(one.quotes) == 1


def test_abstains_below_threshold():
    a = answer(["train", "ticket", "fee"], CHUNKS, idf, threshold=0.5)
    assert a.abstained and a.text is None and a.citations == []


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
    assert len(r["chunks"]) == 5
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
