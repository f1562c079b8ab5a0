"""Where a quote occurs in a long text, for many quotes, without rescanning the text each time.

A golden file or an import resolves one quote per question against its article; with
`str.count` each lookup reads the whole article, so 40,000 questions on one 40,000-paragraph
article took minutes. `QuoteFinder` answers the same question from an index of the article's
words: a quote's *inner* words (with whitespace on both sides inside the quote) stand
whole, between the same whitespace, wherever the quote occurs, so the quote can only start
at a fixed distance before an occurrence of its rarest inner word. Counting is exact: the
index only narrows where to look. Quotes without an inner word (one or two words) and
short texts use `str.find` directly.

The index is built on the third lookup in one text, so one or two lookups cost what they
did before.
"""

from __future__ import annotations

import re
from array import array

_WORD = re.compile(r"\S+")
INDEX_AFTER = 2  # lookups answered by str.find before the text is indexed
SHORT_TEXT = 100_000  # characters: below this a scan is cheaper than an index


def occurrences(text: str, quote: str) -> int:
    """How often `quote` occurs in `text`, counting an overlapping second occurrence
    (str.count skips overlaps: "*247*247" occurs twice in "*247*247*247#"). Exact up to
    two; past that, the count of separate occurrences.

    >>> occurrences("Dial *247*247*247#", "*247*247")
    2
    """
    count = text.count(quote)
    if count == 1 and text.find(quote, text.find(quote) + 1) >= 0:
        return 2
    return count


class QuoteFinder:
    """`find(quote)` -> (occurrences(text, quote), start of the first occurrence or -1)."""

    def __init__(self, text: str):
        self.text = text
        self.lookups = 0
        self.index: dict[str, array] | None = None

    def _build(self) -> dict[str, array]:
        index: dict[str, array] = {}
        for m in _WORD.finditer(self.text):
            word = m.group()
            positions = index.get(word)
            if positions is None:
                positions = index[word] = array("q")
            positions.append(m.start())
        return index

    def _scan(self, quote: str) -> tuple[int, int]:
        first = self.text.find(quote)
        if first < 0:
            return 0, -1
        if self.text.find(quote, first + 1) < 0:
            return 1, first
        return occurrences(self.text, quote), first

    def find(self, quote: str) -> tuple[int, int]:
        self.lookups += 1
        if not quote or len(self.text) < SHORT_TEXT or self.lookups <= INDEX_AFTER:
            return self._scan(quote)
        inner = [m for m in _WORD.finditer(quote) if m.start() > 0 and m.end() < len(quote)]
        if not inner:
            return self._scan(quote)
        if self.index is None:
            self.index = self._build()
        empty = array("q")
        anchor = min(inner, key=lambda m: (len(self.index.get(m.group(), empty)), m.start()))  # type: ignore[union-attr]
        positions = self.index.get(anchor.group(), empty)
        if len(positions) * len(quote) > 4 * len(self.text):  # only common words inside: a scan is cheaper
            return self._scan(quote)
        found, first = 0, -1
        for pos in positions:
            start = pos - anchor.start()
            if start >= 0 and self.text.startswith(quote, start):
                found += 1
                if found == 1:
                    first = start
                else:  # not unique: the exact figure for the message, as occurrences() gives it
                    return occurrences(self.text, quote), first
        return found, first
