"""Chunkers: span-exact on the whole corpus, structure-aware where promised."""

import pytest

from helpers import docs
from raglab.corpus.articles import parse_article
from raglab.corpus.chunking import CHUNKERS, chunk_document, fixed_spans
from raglab.text.analyzer import WHITESPACE, words


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


def test_recursive_never_crosses_a_section_and_respects_max_words():
    for doc in docs():
        for c in chunk_document(doc, "recursive"):
            section = doc.section_at(c.start)
            assert c.end <= section.end, c.id
            assert len(words(c.text)) <= 100, c.id


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
