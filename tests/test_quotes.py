"""Quotes are whole sentences of the article, whatever the chunker cut.

For every golden question and every chunker, the served retriever's answer (at threshold 0,
so every question is answered) may only quote spans that the analyzer's own sentence
splitter delimits in the *article* (a sentence without its list marker, or a table row),
never a piece that starts or ends inside one; and a table row is never shown with its pipes.
"""

import functools

import pytest

from helpers import docs, questions
from raglab.corpus.chunking import CHUNKERS
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json
from raglab.text.analyzer import is_heading, quote_span, sentences


@functools.lru_cache(maxsize=None)
def whole_units(doc_id: str) -> frozenset[tuple[int, int]]:
    """Every span a quote may have in the article: its sentences (list marker stripped) and its table rows."""
    text = next(d for d in docs() if d.id == doc_id).text
    out = set()
    for s, e in sentences(text):
        line_start = text.rfind("\n", 0, s) + 1
        if text.startswith("|", line_start):
            line_end = text.find("\n", s)
            out.add(quote_span(text, line_start, len(text) if line_end < 0 else line_end))
        elif not is_heading(text, s):
            out.add(quote_span(text, s, e))
    return frozenset(out)


@pytest.mark.parametrize("chunker", list(CHUNKERS))
def test_no_quote_starts_or_ends_inside_a_sentence(chunker):
    pipe = Pipeline(list(docs()), Config(chunker=chunker, k=5, threshold=0.0))
    bad = []
    for q in questions():
        r = ask_json(pipe.ask(q.question))
        for quote in r["quotes"]:
            if (quote["start"], quote["end"]) not in whole_units(quote["doc"]):
                bad.append(f"{q.id}: {quote['doc']} {quote['start']}-{quote['end']} {quote['text'][:60]!r}")
            if quote["kind"] == "row":
                assert "|" not in quote["text"], (q.id, quote["text"])
            else:
                assert pipe.docs[quote["doc"]].text[quote["start"]:quote["end"]] == quote["text"]
    assert not bad, f"{len(bad)} quotes start or end inside a sentence ({chunker}):\n" + "\n".join(bad[:20])


def test_the_oracle_rejects_a_piece_of_a_sentence():
    """The check above can fail: a fixed window's cut is not a unit."""
    doc = next(d for d in docs() if d.id == "en-cash-out")
    s = doc.text.index("The fee for cash out at an agent")
    e = doc.text.index("Tk 1,000.", s) + len("Tk 1,000.")
    assert (s, e) in whole_units(doc.id)
    assert (s + 4, e) not in whole_units(doc.id) and (s, e - 9) not in whole_units(doc.id)
