"""Deterministic synthetic corpora and queries, scaled up from the bundled help centre.

A synthetic chunk is what a bigger help centre would hold: a run of 2-6 consecutive
sentences from one section of a real article (under that section's heading path), often
followed by 1-2 sentences borrowed from another article, with about half of the numbers
(amounts, limits, phone numbers, dates) replaced by other numbers of the same length.
The recombination keeps the real term statistics of Bangla and English text; the
number variation adds the long tail of rare terms that a real corpus has.

A query is a window of 3-10 consecutive words of one real sentence, numbers varied the
same way, so that every query has at least one indexed term.

Everything comes from `random.Random(seed)` with integer draws only, so the same seed
gives the same corpus on every machine. Token lists are raglab's own analyzer output
for `retrieval.index_text(chunk)`; to keep generation fast each distinct sentence is
analyzed once and a chunk's terms are the concatenation of its parts' terms (the
analyzer never joins tokens across whitespace; `check_tokens` verifies this on a sample).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from raglab.corpus.articles import Document
from raglab.corpus.chunking import Chunk, index_text
from raglab.text.analyzer import analyze, words
from raglab.text.splitter import sentences

_BANGLA_ZERO = 0x09E6


@dataclass(frozen=True)
class Source:
    """The sentences of one section of one article."""

    doc: str
    heading: tuple[str, ...]
    sentences: tuple[str, ...]


def sources(docs: list[Document]) -> list[Source]:
    """Every section that has at least one sentence that is not a heading line."""
    out = []
    for doc in docs:
        for section in doc.sections:
            found = tuple(doc.text[s:e] for s, e in sentences(doc.text, section.start, section.end)
                          if not doc.text.startswith("#", s))
            if found:
                out.append(Source(doc.id, section.heading, found))
    return out


def _digit_value(ch: str) -> int | None:
    if "0" <= ch <= "9":
        return ord(ch) - 48
    if _BANGLA_ZERO <= ord(ch) <= _BANGLA_ZERO + 9:
        return ord(ch) - _BANGLA_ZERO
    return None


def vary_numbers(text: str, rng: random.Random) -> str:
    """Replace about half of the digit runs by random digits of the same length and script."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if _digit_value(text[i]) is None:
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and _digit_value(text[j]) is not None:
            j += 1
        run = text[i:j]
        if rng.randrange(2):
            bangla = not ("0" <= run[0] <= "9")
            digits = [rng.randrange(1 if k == 0 and len(run) > 1 else 0, 10) for k in range(len(run))]
            run = "".join(chr((_BANGLA_ZERO if bangla else 48) + d) for d in digits)
        out.append(run)
        i = j
    return "".join(out)


class _Analyzed:
    """analyze() with a cache: a scaled corpus repeats the same sentences many times."""

    def __init__(self) -> None:
        self.cache: dict[str, list[str]] = {}

    def __call__(self, text: str) -> list[str]:
        terms = self.cache.get(text)
        if terms is None:
            terms = self.cache[text] = analyze(text)
        return terms


@dataclass
class Synthetic:
    chunks: list[Chunk]
    terms: list[list[str]]  # analyze(index_text(chunk)) for every chunk


def scaled_corpus(docs: list[Document], n_chunks: int, seed: int = 8) -> Synthetic:
    """`n_chunks` synthetic chunks (ids `syn-<n>`), with their analyzer terms."""
    rng = random.Random(seed)
    pool = sources(docs)
    cached = _Analyzed()
    headings: dict[tuple[str, ...], list[str]] = {}
    chunks: list[Chunk] = []
    terms: list[list[str]] = []
    for n in range(n_chunks):
        src = pool[rng.randrange(len(pool))]
        count = rng.randrange(2, 7)
        start = rng.randrange(len(src.sentences))
        parts = list(src.sentences[start:start + count])
        for _ in range(rng.randrange(3)):  # 0, 1 or 2 borrowed sentences
            other = pool[rng.randrange(len(pool))]
            parts.append(other.sentences[rng.randrange(len(other.sentences))])
        parts = [vary_numbers(p, rng) for p in parts]
        text = " ".join(parts)
        chunks.append(Chunk(f"syn-{n}", src.doc, 0, len(text), text, src.heading))
        head = headings.get(src.heading)
        if head is None:
            head = headings[src.heading] = analyze(" \n".join(src.heading))
        row = list(head)
        for p in parts:
            row.extend(cached(p))
        terms.append(row)
    return Synthetic(chunks, terms)


def queries(docs: list[Document], n_queries: int, seed: int = 80) -> list[list[str]]:
    """`n_queries` analyzed queries: windows of 3-10 words of real sentences, numbers varied."""
    rng = random.Random(seed)
    pool = sources(docs)
    out: list[list[str]] = []
    while len(out) < n_queries:
        src = pool[rng.randrange(len(pool))]
        sentence = src.sentences[rng.randrange(len(src.sentences))]
        spans = words(sentence)
        size = rng.randrange(3, 11)
        first = rng.randrange(max(1, len(spans) - size + 1))
        window = spans[first:first + size]
        terms = analyze(vary_numbers(sentence[window[0][0]:window[-1][1]], rng))
        if terms:
            out.append(terms)
    return out


def check_tokens(synthetic: Synthetic, sample: int = 200) -> None:
    """Raise if the cached token lists differ from analyzing the chunk's index text."""
    step = max(1, len(synthetic.chunks) // sample)
    for i in range(0, len(synthetic.chunks), step):
        if analyze(index_text(synthetic.chunks[i])) != synthetic.terms[i]:
            raise AssertionError(f"token lists of {synthetic.chunks[i].id} differ from the analyzer's")
