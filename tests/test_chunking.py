"""Chunkers: span-exact on the whole corpus, structure-aware where promised."""

import pytest

from helpers import docs, external_docs, heading_lines_only
from raglab.corpus.articles import parse_article
from raglab.corpus.chunking import CHUNKERS, chunk_document, fixed_spans, recursive_spans
from raglab.text.analyzer import WHITESPACE, words

CORPORA = {"bundled": docs, "covid-qa-faq": lambda: external_docs("covid-qa-faq"),
           "tydiqa-en": lambda: external_docs("tydiqa-en")}


@pytest.mark.parametrize("chunker", CHUNKERS)
def test_every_chunk_slices_back_and_covers_the_document(chunker):
    for doc in docs():
        chunks = chunk_document(doc, chunker)
        assert chunks, doc.id
        covered = 0
        for n, c in enumerate(chunks, 1):
            assert doc.text[c.start:c.end] == c.text
            assert c.id == f"{doc.id}#{n}"
            assert c.text.strip() == c.text and c.text
            gap = doc.text[covered:c.start] if c.start > covered else ""
            assert all(ch in WHITESPACE for ch in gap), (c.id, gap[:40])
            covered = max(covered, c.end)
        assert all(ch in WHITESPACE for ch in doc.text[covered:])


@pytest.mark.parametrize("chunker", CHUNKERS)
def test_chunk_ids_are_stable(chunker):
    doc = docs()[0]
    assert chunk_document(doc, chunker) == chunk_document(doc, chunker)


def test_fixed_windows_are_80_words_with_20_overlap():
    text = " ".join(f"w{i}" for i in range(200))
    spans = fixed_spans(text)
    counts = [len(words(text, s, e)) for s, e in spans]
    assert counts == [80, 80, 80]
    assert text[spans[1][0]:].startswith("w60 ")
    assert text[spans[2][0]:].startswith("w120 ")


@pytest.mark.parametrize("corpus", CORPORA)
def test_recursive_crosses_a_section_only_to_keep_a_heading_and_respects_max_words(corpus):
    for doc in CORPORA[corpus]():
        for c in chunk_document(doc, "recursive"):
            with_text = [s for s in doc.sections if s.start < c.end and c.start < s.end
                         and not heading_lines_only(doc.text, max(s.start, c.start), min(s.end, c.end))]
            assert len(with_text) <= 1, c.id
            assert len(words(c.text)) <= 100, c.id


@pytest.mark.parametrize("chunker", ["recursive", "sentence"])
@pytest.mark.parametrize("corpus", CORPORA)
def test_no_chunk_is_headings_alone_and_the_spans_still_tile(corpus, chunker):
    """A heading joins the text after it; the chunks stay ordered and disjoint and leave
    only whitespace uncovered, on ours and on the external corpora (whose titles and
    "## Paragraph 1" headings were chunks of their own)."""
    for doc in CORPORA[corpus]():
        chunks = chunk_document(doc, chunker)
        for c in chunks:
            assert not heading_lines_only(doc.text, c.start, c.end), c.id
        ends = [0] + [c.end for c in chunks]
        for c, before in zip(chunks, ends):
            assert c.start >= before and all(ch in WHITESPACE for ch in doc.text[before:c.start]), c.id
        assert all(ch in WHITESPACE for ch in doc.text[ends[-1]:])


def test_a_heading_stays_with_its_first_text():
    doc = parse_article("t", "# T\n\n## Common scams\n\n### Fake prizes\nA caller says you won.\n\n"
                             "### Fake agents\nA man asks for your PIN.\n")
    first, second = "# T\n\n## Common scams\n\n### Fake prizes\nA caller says you won.", "### Fake agents\nA man asks for your PIN."
    recursive = chunk_document(doc, "recursive")
    assert [c.text for c in recursive] == [first, second]
    assert [c.heading for c in recursive] == [("T", "Common scams", "Fake prizes"), ("T", "Common scams", "Fake agents")]
    assert [c.text for c in chunk_document(doc, "sentence")] == [first, second]
    # split further, the headings count in the budget and keep the first words of the text
    assert [doc.text[s:e] for s, e in recursive_spans(doc, max_words=10)] == [first[:-14], "says you won.", second]


def test_a_heading_before_a_long_paragraph_takes_its_first_sentences_within_the_budget():
    body = " ".join(f"Sentence {i} has five words." for i in range(20))  # 100 words
    doc = parse_article("t", f"# T\n\nLead.\n\n## What is the source of the virus?\n\n{body}\n")
    chunks = chunk_document(doc, "recursive")
    assert [c.text for c in chunks][:2] == ["# T\n\nLead.", "## What is the source of the virus?\n\n" + body[:body.index(" Sentence 18")]]
    assert all(len(words(c.text)) <= 100 for c in chunks)


def test_headings_that_end_a_document_join_the_text_before_them():
    doc = parse_article("t", "# T\n\nOne line. Two lines.\n\n## See also\n\n### Nothing here\n")
    assert [c.text for c in chunk_document(doc, "recursive")] == [doc.text.strip()]
    assert [c.text for c in chunk_document(doc, "sentence")] == ["# T\n\nOne line.", "Two lines.\n\n## See also\n\n### Nothing here"]
    # after a sentence too long for one chunk, the last two windows share their words
    long = " ".join(["word"] * 198)  # with "# T": 200 words, two full windows
    doc = parse_article("t", f"# T\n\n{long}\n\n## See also\n")
    assert [len(words(c.text)) for c in chunk_document(doc, "recursive")] == [100, 52, 51]
    assert not heading_lines_only(doc.text, *recursive_spans(doc)[-1])


def test_a_heading_of_two_sentences_is_one_heading():
    doc = parse_article("t", "# A. J. Smith\n\nHe was born in 1901.\n")
    assert [c.text for c in chunk_document(doc, "sentence")] == ["# A. J. Smith\n\nHe was born in 1901."]


def test_a_document_of_headings_alone_is_one_chunk():
    doc = parse_article("t", "# T\n\n## A\n\n### B\n")
    for chunker in ("recursive", "sentence"):
        assert [c.text for c in chunk_document(doc, chunker)] == ["# T\n\n## A\n\n### B"]


def test_recursive_falls_back_to_sentences_then_words():
    long_sentence = " ".join(["word"] * 250) + "."
    doc = parse_article("t", f"# T\n\n## S\n{long_sentence}\n")
    chunks = chunk_document(doc, "recursive")
    assert all(len(words(c.text)) <= 100 for c in chunks)
    def squash(t):
        return "".join(t.split())

    assert squash("".join(c.text for c in chunks)) == squash(doc.text)


def test_sentence_chunks_hold_one_sentence_and_headings_ride_along():
    doc = parse_article("t", "# Title\n\nFirst one. Second one.\n\n## Fees\nThe fee is 1.85%.\n")
    texts = [c.text for c in chunk_document(doc, "sentence")]
    assert texts == ["# Title\n\nFirst one.", "Second one.", "## Fees\nThe fee is 1.85%."]


def test_heading_path_is_carried():
    doc = parse_article("t", "# Title\n\nIntro.\n\n## Fees\n\n### At agents\nOne fee.\n")
    chunks = chunk_document(doc, "sentence")
    assert chunks[0].heading == ("Title",)
    assert chunks[-1].heading == ("Title", "Fees", "At agents")
