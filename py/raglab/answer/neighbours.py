"""A quote's neighbours: the sentence before a quote that leans on it, and the sentence after one
that turns on it.

A sentence that opens on a connective or a pointing word ("Instead, …", "It …", "তার বদলে …") says
half of something whose other half stands in the sentence before it; a sentence that opens on a
connective ("After that, the fee is Tk 5 per transaction.") is the other half of the turn the
sentence before it begins ("The first Tk 25,000 you send in a calendar month is free."). Shown alone,
either half tells the reader less than the help centre does: `with_sentence_before` and
`with_sentence_after` show the two together, once the confidence is known (presentation only), and
`leans_elsewhere` keeps a sentence that turns on one not shown out of the answer.
"""

from __future__ import annotations

import re

from raglab.answer.candidates import MAX_WORDS, word_count
from raglab.answer.results import requoted

# Words that open a sentence leaning on the one before it: a connective ("Instead,", "তার বদলে")
# or a pronoun or demonstrative that points back ("It", "This", "এটি", "সেক্ষেত্রে"). Matched at the
# quote's start as whole words (`in_word`: "It" is not "Items", "তা" not "তাই"), English as written
# at a sentence's start.
CONNECTIVES = (
    "Instead", "Otherwise", "Then", "However", "But", "So", "Also", "Still", "Besides", "Therefore",
    "Thus", "Hence", "In that case", "In this case", "If so", "If not", "After that", "Afterwards",
    "তার বদলে", "এর বদলে", "বরং", "তবে", "কিন্তু", "তাহলে", "তারপর", "এরপর", "এর পর", "তখন", "নইলে",
    "না হলে", "নাহলে", "অন্যথায়", "সেক্ষেত্রে", "সে ক্ষেত্রে", "এক্ষেত্রে", "এ ক্ষেত্রে", "তাই", "এজন্য",
    "এ জন্য", "সেজন্য", "এছাড়া", "এ ছাড়া",
)
LEANING = CONNECTIVES + (
    "This", "That", "These", "Those", "Such", "It", "Its", "They", "Their", "He", "She", "His", "Her",
    "এটি", "এটা", "এতে", "এর", "এগুলো", "এসব", "সেটি", "সেটা", "সেগুলো", "তা", "তার", "তারা", "তাদের", "তিনি", "ওই", "এই",
)


def in_word(ch: str) -> bool:
    """Whether `ch` continues a word: an ASCII letter or digit, a Bangla letter, sign or digit
    (U+0980-U+09FF), or a zero-width joiner. Code-point ranges, not the Unicode database, which
    differs between the native Python and the browser's (see "Determinism")."""
    return ch.isascii() and ch.isalnum() or "\u0980" <= ch <= "\u09ff" or ch in "\u200c\u200d"


def leans_back(text: str) -> bool:
    """Whether `text` opens on a word of `LEANING` (a quote that leans on the sentence before it).

    >>> [leans_back(t) for t in ("Instead, visit an agent.", "Items are listed.", "তার বদলে এজেন্টের কাছে যান।", "তাই হবে")]
    [True, False, True, True]
    """
    return opens_on(text, LEANING)


def opens_on(text: str, words: tuple) -> bool:
    """Whether `text` opens on one of `words` as a whole word (after quotes, brackets, emphasis)."""
    text = text.lstrip(" \t\"'“‘(*_")
    for word in words:
        if text.startswith(word):
            after = text[len(word):len(word) + 1]
            if not after or not in_word(after):
                return True
    return False


def leans_elsewhere(c, best, order: list, docs: dict | None) -> bool:
    """Whether `c`, a unit quoted beside `best` as context, turns on a sentence the answer does not
    show: it opens on a connective (`CONNECTIVES`: "তার বদলে …", "However, …") or says "also" ("Many
    providers also send their own confirmation."), and the unit before it in its section
    (`unit_before`) is not `best`. A connective makes a sentence the second half of a turn (instead
    of what, also besides what) whose first half the page would not show. A pronoun or demonstrative
    at its start ("This charge is the shop's cost …, so a shop should not ask you to pay extra")
    does not count: it names a thing the question usually names too, and such a sentence still
    states its own fact. A `c` right before a `best` that leans back is what `best` leans on, and
    stays ("ওই মাসে …" before "তবে ১০০ টাকা বা তার কম …")."""
    if not (opens_on(c.quote.text, CONNECTIVES) or ALSO.search(c.quote.text)):
        return False
    before = unit_before(c, order, docs)
    if before is not None and before.quote == best.quote:
        return False
    after = unit_before(best, order, docs)
    return not (after is not None and after.quote == c.quote and leans_back(best.quote.text))


ALSO = re.compile(r"(?<![A-Za-z])also(?![A-Za-z])", re.IGNORECASE)  # an additive word: more of what the sentence before said


def unit_before(c, order: list, docs: dict | None):
    """The candidate of `order` right before `c` in its section: the unit before it in its
    paragraph or list, or the last one of the block before (nothing but blank space, a list
    marker or a table's rule between them: a heading between ends the section); None when
    that unit is no candidate, or without the article at hand."""
    doc = docs.get(c.quote.doc) if docs else None
    if doc is None:
        return None
    found = None
    for _, o in order:
        if o.quote.doc != c.quote.doc or o.quote.end > c.quote.start or o.unit.kind == "row" or o.items:
            continue
        if (c.prev_at is not None and o.quote.start == c.prev_at) or not doc.text[o.quote.end:c.quote.start].strip(BETWEEN):
            if found is None or o.quote.end > found.quote.end:
                found = o
    return found


BETWEEN = " \t\r\n0123456789০১২৩৪৫৬৭৮৯.)*+-|"  # what may stand between a sentence and the one before it: space, list markers


def with_sentence_before(composed, order: list, docs: dict | None, spare=None):
    """`composed` (an `Answer`) with the sentence before its first quote put first, when that quote
    is a sentence or list item of `order` that leans on the one before it (`leans_back`) and the
    unit before it in its section (`unit_before`) is a candidate that does not lean back itself:
    "তার বদলে …" ("instead …") alone does not say instead of what. When that unit is the answer's
    other quote, the two are only put in the article's order; when the other quote is `spare` (one
    the question does not need: `answerer.spare_quote`), the sentence before takes its place; else
    it is added to a one-quote answer. The two must fit in `MAX_WORDS` words. An answer is never
    more than two sentences: a two-quote answer is not given a third. Otherwise `composed` itself.
    Its confidence and short answers are the answer's as composed: the sentence before is shown
    for the reading, not as an answer."""
    if composed.abstained or not 1 <= len(composed.quotes) <= 2 or not order:
        return composed
    first = next((c for _, c in order if c.quote == composed.quotes[0]), None)
    if first is None or first.items or first.unit.kind == "row" or not leans_back(first.quote.text):
        return composed
    c = unit_before(first, order, docs)
    if c is None or leans_back(c.quote.text):
        return composed  # a sentence before that leans back too names nothing "It" could stand for
    rest = [x for x in composed.quotes[1:] if x != c.quote]
    if rest and (spare is None or rest != [spare]):
        return composed  # it would be a third sentence: never more than two units
    if len(composed.quotes) - len(rest) == 1 and word_count(c.quote.text) + word_count(first.quote.text) > MAX_WORDS:
        return composed
    quotes = [c.quote, composed.quotes[0]]
    cited = list(dict.fromkeys(x.chunk for x in quotes))
    return requoted(composed, quotes, citations=cited)


def with_sentence_after(composed, order: list, docs: dict | None):
    """`composed` with the unit after its one quote added, when that unit opens on a connective
    (`CONNECTIVES`: "After that, the fee is Tk 5 …" after "The first Tk 25,000 … is free.") and so
    is the other half of the turn the quote begins; at most `MAX_WORDS` words in all."""
    if composed.abstained or len(composed.quotes) != 1 or not order:
        return composed
    first = next((c for _, c in order if c.quote == composed.quotes[0]), None)
    if first is None or first.items or first.unit.kind == "row":
        return composed
    for _, c in order:
        if c.items or c.unit.kind == "row" or c.quote.doc != first.quote.doc or not opens_on(c.quote.text, CONNECTIVES):
            continue
        before = unit_before(c, order, docs)
        if before is not None and before.quote == first.quote:
            if word_count(first.quote.text) + word_count(c.quote.text) > MAX_WORDS:
                return composed
            return requoted(composed, [first.quote, c.quote], citations=list(dict.fromkeys([first.quote.chunk, c.quote.chunk])))
    return composed
