"""Three chunkers. Each returns chunks whose span slices back to the text exactly:
``doc.text[chunk.start:chunk.end] == chunk.text``, and together they leave only
whitespace uncovered.

- ``fixed``: windows of 80 words with 20 words of overlap, blind to structure.
- ``recursive``: a section if it fits, else its paragraphs, else sentences, else words;
  never crosses a section, never exceeds ``max_words``.
- ``sentence``: one sentence per chunk (a heading line rides with the sentence after it).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable

from raglab.corpus.articles import Document
from raglab.text.analyzer import WHITESPACE, is_heading, iter_words, sentences, words
from raglab.text.limits import index_heading


@dataclass(frozen=True)
class Chunk:
    id: str  # "<doc>#<n>", n from 1 in document order
    doc: str
    start: int
    end: int
    text: str
    heading: tuple[str, ...]  # heading path of the section the chunk starts in


def _make(doc: Document, spans: list[tuple[int, int]]) -> list[Chunk]:
    return [
        Chunk(f"{doc.id}#{n}", doc.id, s, e, doc.text[s:e], doc.section_at(s).heading)
        for n, (s, e) in enumerate(spans, 1)
    ]


def fixed_spans(text: str, size: int = 80, overlap: int = 20) -> list[tuple[int, int]]:
    """Windows of `size` words, each starting `size - overlap` words after the last; the last
    window is the first that reaches the final word. Words are read one at a time, so only
    the open windows (at most size / step of them) are held, never every word's span."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("fixed chunker needs size >= 1 and 0 <= overlap < size")
    step = size - overlap
    spans: list[tuple[int, int]] = []
    open_: deque[tuple[int, int]] = deque()  # (first word index, start) of windows not yet full
    last = closed = -1  # index of the last word seen; first word of the last full window
    last_end = 0
    for j, (s, e) in enumerate(iter_words(text)):
        if j % step == 0:
            open_.append((j, s))
        if open_ and open_[0][0] + size - 1 == j:
            closed, start = open_.popleft()
            spans.append((start, e))
        last, last_end = j, e
    # A full window that ended on the final word is the last one; else the first window
    # still open is, ending with the text's last word (the windows after it are never made).
    if open_ and not (closed >= 0 and closed + size == last + 1):
        spans.append((open_[0][1], last_end))
    return spans


def _pack(pieces: list[tuple[int, int]], counts: list[int], max_words: int) -> list[tuple[int, int]]:
    """Greedily join adjacent pieces while the word count stays within max_words."""
    out: list[tuple[int, int]] = []
    total = 0
    for (s, e), n in zip(pieces, counts):
        if out and total + n <= max_words:
            out[-1] = (out[-1][0], e)
            total += n
        else:
            out.append((s, e))
            total = n
    return out


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = []
    i = start
    while i < end:
        j = text.find("\n\n", i, end)
        j = end if j < 0 else j
        s, e = i, j
        while s < e and text[s] in " \t\n":
            s += 1
        while e > s and text[e - 1] in " \t\n":
            e -= 1
        if s < e:
            spans.append((s, e))
        i = j + 2
    return spans


def _split(text: str, start: int, end: int, max_words: int, level: int) -> list[tuple[int, int]]:
    """Recursive split of text[start:end]: paragraphs (level 0), sentences (1), words (2)."""
    ws = words(text, start, end)
    if not ws:
        return []
    start, end = ws[0][0], ws[-1][1]
    if len(ws) <= max_words:
        return [(start, end)]
    if level == 2:
        return [(ws[i][0], ws[min(i + max_words, len(ws)) - 1][1]) for i in range(0, len(ws), max_words)]
    parts = _paragraphs(text, start, end) if level == 0 else sentences(text, start, end)
    pieces: list[tuple[int, int]] = []
    for s, e in parts:
        pieces.extend(_split(text, s, e, max_words, level + 1))
    return _pack(pieces, [len(words(text, s, e)) for s, e in pieces], max_words)


def recursive_spans(doc: Document, max_words: int = 100) -> list[tuple[int, int]]:
    if max_words < 1:
        raise ValueError("recursive chunker needs max_words >= 1")
    spans = []
    for section in doc.sections:
        spans.extend(_split(doc.text, section.start, section.end, max_words, 0))
    return spans


def sentence_spans(doc: Document) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pending: int | None = None  # start of a heading waiting for its first sentence
    for section in doc.sections:
        for s, e in sentences(doc.text, section.start, section.end):
            if is_heading(doc.text, s):
                if pending is not None:
                    spans.append((pending, _line_end(doc.text, pending)))
                pending = s
                continue
            spans.append((pending if pending is not None else s, e))
            pending = None
    if pending is not None:
        spans.append((pending, _line_end(doc.text, pending)))
    return spans


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    while end > start and text[end - 1] in WHITESPACE:
        end -= 1
    return end


# The chunkers by name: each maps a document to the (start, end) spans of its chunks.
# A new chunker is a spans function above and one line here.
CHUNKERS: dict[str, Callable[[Document], list[tuple[int, int]]]] = {
    "fixed": lambda doc: fixed_spans(doc.text),
    "recursive": recursive_spans,
    "sentence": sentence_spans,
}


def chunk_document(doc: Document, chunker: str) -> list[Chunk]:
    try:
        spans = CHUNKERS[chunker]
    except KeyError:
        raise ValueError(f"unknown chunker {chunker!r}; choose one of: {', '.join(CHUNKERS)}") from None
    return _make(doc, spans(doc))


def chunk_corpus(docs: list[Document], chunker: str) -> list[Chunk]:
    return [c for doc in docs for c in chunk_document(doc, chunker)]


def index_text(chunk: Chunk) -> str:
    """What gets indexed: the heading path (each heading cut to `limits.HEADING_INDEX_CHARS`),
    then the chunk text (spans still refer to the text)."""
    return " \n".join(index_heading(chunk.heading)) + " \n" + chunk.text
