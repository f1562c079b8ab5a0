"""Every size limit raglab enforces, in one place, with the reason for each.

raglab promises that time and memory grow at most linearly (times a log) with the size
of what it is given, and that every refusal is one clear message. The limits below are
where that promise needs a number: a file past a limit is refused with the limit named
and how to split it, and a long word or heading is still matched, by the rule stated
here. None of them is reached by the bundled help centre or golden set (a test checks
that its results are the same with and without them).

A leaf module: it imports nothing, so loaders, retrievers and the answerer all use it.
"""

from __future__ import annotations

# A question is a sentence or two. Past this length `ask` (and a golden question) is
# refused instead of holding the browser's worker for a minute.
MAX_QUESTION_CHARS = 100_000

# Files are read with these ceilings (in bytes, checked before decoding), so a huge or
# endless file (`/dev/zero`) is refused instead of filling memory.
MAX_ARTICLE_BYTES = 20_000_000  # one Markdown article: 20 MB
MAX_QUESTIONS_BYTES = 100_000_000  # an `ask --questions` file or a golden file: 100 MB

# Heading text taken into a chunk's index text, per heading (title, ##, ###). The heading
# path is repeated into every chunk of its section, so an unbounded title would cost its
# length times the number of chunks. A longer heading is shown whole; only its first
# HEADING_INDEX_CHARS code points are indexed (cut at a word boundary when there is one).
HEADING_INDEX_CHARS = 200

# The dense retriever's character n-grams come from the first NGRAM_TERM_CHARS code
# points of a term (a longer term gets no end marker): the n-grams of one word would
# otherwise be three times its length.
NGRAM_TERM_CHARS = 32

# The quoted answer: a sentence longer than this (a giant table row, a page without
# full stops) is quoted up to the last word boundary within the limit. The citation
# still names the whole chunk.
MAX_ANSWER_CHARS = 500

# Golden question ids appear in text tables, CSV cells and error messages.
MAX_ID_CHARS = 64


def check_question_length(question: str) -> None:
    if len(question) > MAX_QUESTION_CHARS:
        raise ValueError(f"the question is {len(question):,} characters long; the limit is "
                         f"{MAX_QUESTION_CHARS:,}. Ask about one thing at a time")


def cut_at_word(text: str, limit: int) -> str:
    """`text` when it fits in `limit` code points, else its longest prefix within the
    limit that ends before whitespace (or exactly `limit` code points when a single word
    is longer).

    >>> cut_at_word("Cash out fee", 9)
    'Cash out'
    >>> cut_at_word("aaaaaaaa", 3)
    'aaa'
    """
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    for i in range(limit, 0, -1):
        if head[i] in " \t\n" and head[i - 1] not in " \t\n":
            return head[:i]
    return text[:limit]


def index_heading(heading: tuple[str, ...]) -> tuple[str, ...]:
    """The heading path as it is indexed: each heading cut to HEADING_INDEX_CHARS."""
    if all(len(h) <= HEADING_INDEX_CHARS for h in heading):
        return heading
    return tuple(cut_at_word(h, HEADING_INDEX_CHARS) for h in heading)
