"""Three chunkers. Each returns chunks whose span slices back to the text exactly:
``doc.text[chunk.start:chunk.end] == chunk.text``, and together they leave only
whitespace uncovered.

- ``fixed``: windows of 80 words with 20 words of overlap, blind to structure.
- ``recursive``: a section if it fits, else its paragraphs, else sentences, else words;
  never exceeds ``max_words``, and crosses a section boundary only to keep a heading with
  its text (`_glued`).
- ``sentence``: one sentence per chunk (the heading lines before it ride with it).

Neither structure-aware chunker leaves a heading alone: a chunk of headings alone holds
nothing to quote, yet its few words sit close to many questions ("## Common scams" was the
first answer to "What are the common scams?"). Headings join the text after them; headings
that end a document, with no text after them, join the text before them. Only a document of
headings alone, or (recursive) a run of headings longer than ``max_words``, still gives a
chunk of headings alone: there is no text within reach to join.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable

from raglab.corpus.articles import Document
from raglab.text.analyzer import WHITESPACE, iter_words, words
from raglab.text.limits import index_heading
from raglab.text.splitter import is_heading, sentences


@dataclass(frozen=True)
class Chunk:
    id: str  # "<doc>#<n>", n from 1 in document order
    doc: str
    start: int
    end: int
    text: str
    heading: tuple[str, ...]  # heading path of the section the chunk's text starts in (`_text_start`)


def _make(doc: Document, spans: list[tuple[int, int]]) -> list[Chunk]:
    return [
        Chunk(f"{doc.id}#{n}", doc.id, s, e, doc.text[s:e], doc.section_at(_text_start(doc.text, s, e)).heading)
        for n, (s, e) in enumerate(spans, 1)
    ]


def _text_start(text: str, start: int, end: int) -> int:
    """Where text[start:end] has its first line that is not a heading (`start` when it has
    none): a chunk that starts with its section's headings ("## Common scams", "### Fake
    prizes", then the text) carries the path of the section its text is in, the deepest."""
    i = start
    while i < end and _line_kind(text, i, end) is not False:
        j = text.find("\n", i, end)
        if j < 0:
            return start
        i = j + 1
    return i if i < end else start


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


def _line_kind(text: str, start: int, end: int) -> bool | None:
    """Whether the line from `start` is a heading line (its first character not blank is
    "#"); None when it is blank up to `end`."""
    k = start
    while k < end and text[k] in WHITESPACE and text[k] != "\n":
        k += 1
    return None if k == end or text[k] == "\n" else is_heading(text, k)


def _headings_alone(text: str, parts: list[tuple[int, int]]) -> list[bool]:
    """Whether each part (sections, paragraphs or sentences, in document order) lies on
    heading lines and blank ones only. A whole line counts, so the second sentence of
    "## Lost your PIN? Reset it" is heading too; a line's kind is read at the first part on
    it, so a long line of many sentences is not read again for each."""
    flags: list[bool] = []
    kind: bool | None = None  # the kind of the line the last part ended on
    at = 0  # where the last part ended
    for s, e in parts:
        if not flags or text.find("\n", max(at - 1, 0), s) >= 0:  # the part starts a line
            kind = _line_kind(text, text.rfind("\n", 0, s) + 1, e)
        alone = kind is not False
        i = text.find("\n", s, e)
        while i >= 0:
            kind = _line_kind(text, i + 1, e)
            alone = alone and kind is not False
            i = text.find("\n", i + 1, e)
        flags.append(alone)
        at = e
    return flags


def _glued(text: str, parts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`parts` (sections, paragraphs or sentences) with each run of parts of headings alone
    joined to the part after it, or, at the end, to the part before it: split further, the
    joined part keeps the heading at the start of its first piece, so the heading is never
    cut off from its text, and `_pack` counts the heading's words within the budget."""
    out: list[tuple[int, int]] = []
    lead = -1  # start of a run of headings waiting for text
    for (s, e), alone in zip(parts, _headings_alone(text, parts)):
        if alone:
            lead = s if lead < 0 else lead
            continue
        out.append((s if lead < 0 else lead, e))
        lead = -1
    if lead >= 0:
        end = parts[-1][1]
        if out:
            out[-1] = (out[-1][0], end)
        else:
            out.append((lead, end))
    return out


def _split(text: str, start: int, end: int, max_words: int, level: int) -> list[tuple[int, int]]:
    """Recursive split of text[start:end]: paragraphs (level 0), sentences (1), words (2)."""
    ws = words(text, start, end)
    if not ws:
        return []
    start, end = ws[0][0], ws[-1][1]
    if len(ws) <= max_words:
        return [(start, end)]
    if level == 2:
        cuts = list(range(0, len(ws), max_words))
        if len(cuts) > 1 and _headings_alone(text, [(ws[cuts[-1]][0], end)])[0]:
            # Headings that end the document after a sentence too long for one chunk: the
            # last two windows share their words evenly, so the headings keep some text
            # (both halves stay within the budget).
            cuts[-1] = cuts[-2] + (len(ws) - cuts[-2] + 1) // 2
        return [(ws[a][0], ws[b - 1][1]) for a, b in zip(cuts, cuts[1:] + [len(ws)])]
    parts = _paragraphs(text, start, end) if level == 0 else sentences(text, start, end)
    pieces: list[tuple[int, int]] = []
    for s, e in _glued(text, parts):
        pieces.extend(_split(text, s, e, max_words, level + 1))
    return _pack(pieces, [len(words(text, s, e)) for s, e in pieces], max_words)


def recursive_spans(doc: Document, max_words: int = 100) -> list[tuple[int, int]]:
    """Each section split on its own, except that a section of headings alone ("## Common
    scams" before its "###" subsections, or a title before the first "##") is split together
    with the section after it: the budget is the same, and the heading's words count in it."""
    if max_words < 1:
        raise ValueError("recursive chunker needs max_words >= 1")
    spans = []
    for s, e in _glued(doc.text, [(section.start, section.end) for section in doc.sections]):
        spans.extend(_split(doc.text, s, e, max_words, 0))
    return spans


def sentence_spans(doc: Document) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pending = last = -1  # start of a run of headings waiting for a sentence; start of its last
    for section in doc.sections:
        parts = sentences(doc.text, section.start, section.end)
        for (s, e), heading in zip(parts, _headings_alone(doc.text, parts)):
            if heading:
                pending, last = (s if pending < 0 else pending), s
                continue
            spans.append((s if pending < 0 else pending, e))
            pending = -1
    if pending >= 0:  # headings that end the document join the sentence before them
        end = _line_end(doc.text, last)
        spans[-1:] = [(spans[-1][0] if spans else pending, end)]
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
