"""Sentence spans: where a line of an article or a question ends a sentence, and a sentence's
quotable span without its Markdown list or table markers.

Every stage that reads sentences (the chunkers' sentence level, the answerer's units, a
question's asking sentences) calls `sentences`, so a sentence is the same thing everywhere.
"""

from __future__ import annotations

from raglab.text.analyzer import WHITESPACE, digit

_ENDERS = frozenset(".?!\u0964\u0965")
CLOSERS = "\"')]»”’"  # closing marks a sentence's end takes with it
# Abbreviations that end no sentence ("e.g.", "Mr.", "(fl. late 3rd century)", "Mt. Clare", "Fr. Jett"),
# compared in lower case without their last period; and those that end none before a number ("Tk. 50",
# "c. 570 BC", "approx. 2%"), while "… 2000 tk. what's wrong?" asks a question of its own.
_ABBREVIATIONS = frozenset(["e.g", "i.e", "etc", "no", "vs", "mr", "mrs", "dr", "st", "fl", "mt", "fr"])
_BEFORE_NUMBERS = frozenset(["tk", "approx", "c", "ca"])
# Abbreviations that close a name ("Apple Inc.", "Warner Bros.", "Welch Jr.", "Zug et al."), and a
# name's initials ("J. R. R. Tolkien", "the U.S. Census Bureau", "E.C. Close"): the sentence goes on
# unless the next word is one that opens sentences (`_OPENERS`: "… the U.S. Although …", "… & Co.
# By 1829 …"); a name or a number after one goes with it.
_NAME_ENDS = frozenset(["inc", "ltd", "co", "corp", "bros", "jr", "sr", "al"])
_OPENERS = frozenset("""the a an this that these those it its he she they we i you his her their our my your
there here in on at by for from with of to as after before during since until when while if although though
however but and or so yet then also both each all some most many one no not unlike despite according because
what which who where how why is are was were today later another other such once like""".split())


def _ascii_letter(ch: str) -> bool:
    return "a" <= ch <= "z" or "A" <= ch <= "Z"


def _initials(word: str) -> bool:
    """A name's initial or initials as written before their last period: "J", "U.S", "N.J.B",
    "E.C" (a capital letter, or parts of one or two letters joined by periods, a capital first;
    not "a.m" or "e.g", which a capital after may follow as a new sentence)."""
    parts = word.split(".")
    if not ("A" <= word[:1] <= "Z") or len(parts) == 1 and len(word) != 1:
        return False
    return all(1 <= len(p) <= 2 and all(_ascii_letter(ch) for ch in p) for p in parts)


def _opens(text: str, k: int, end: int) -> bool:
    """Whether the word at text[k] opens a sentence: a capitalised word of `_OPENERS` ("The", "Although"),
    not another initial ("E. I. du Pont", "J. A. Smith")."""
    if not (k < end and "A" <= text[k] <= "Z"):
        return False
    j = k
    while j < end and _ascii_letter(text[j]):
        j += 1
    return text[k:j].lower() in _OPENERS and not (j == k + 1 and text[j:j + 1] == ".")


def abbreviation_goes_on(text: str, i: int, end: int | None = None) -> bool:
    """Whether the period at text[i] closes an abbreviation the sentence goes on after: one of
    `_ABBREVIATIONS` ("e.g."), or of `_BEFORE_NUMBERS` before a number ("Tk. 50", "c. 570"); an
    initialism in lower case before a word in lower case ("U.S. may", "9 a.m. to"); a name's
    initials or an abbreviation closing a name before anything but a word that opens sentences
    ("J. R. R. Tolkien", "Apple Inc. includes", "L. niger")."""
    end = len(text) if end is None else end
    j = i
    while j > 0 and text[j - 1] not in WHITESPACE:
        j -= 1
    word = text[j:i].lstrip("(\"'")
    lower = word.lower()
    if lower in _ABBREVIATIONS and not _initials(word):  # "E.G." in capitals is a name's initials
        return True
    k = i + 1
    while k < end and (text[k] in CLOSERS or text[k] in WHITESPACE):
        k += 1
    if k >= end:
        return False
    if lower in _BEFORE_NUMBERS and digit(text[k]) is not None:
        return True
    if "." in lower and "a" <= text[k] <= "z":  # an initialism before a word in lower case: "U.S. may"
        return True
    return (lower in _NAME_ENDS or _initials(word)) and not _opens(text, k, end)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in WHITESPACE:
        start += 1
    while end > start and text[end - 1] in WHITESPACE:
        end -= 1
    return start, end


def _is_break(text: str, i: int, end: int) -> bool:
    """True when the sentence ender at text[i] ends a sentence."""
    ch = text[i]
    nxt = i + 1
    while nxt < end and text[nxt] in CLOSERS:
        nxt += 1
    if nxt < end and text[nxt] not in WHITESPACE:
        return False  # 1.85, e.g., a.b
    if ch != ".":
        # A question or exclamation in quotes inside a sentence (tap "Forgot PIN?" on the
        # login screen; "পিন ভুলে গেছেন?" অপশনে চাপ দিন) does not end it: after the closing
        # mark only a capital letter or the line's end starts a new sentence.
        if nxt > i + 1:
            while nxt < end and text[nxt] in WHITESPACE:
                nxt += 1
            return nxt >= end or text[nxt].isupper() or not text[nxt].isalpha()
        return True
    return not abbreviation_goes_on(text, i, end)


def sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans in text[start:end]; together they hold every non-space character.

    Each line is split on . ? ! । ॥ followed by a space or the line end (not after
    `Tk.`, `e.g.`, `c.` and the like, nor after `U.S.` before a word in lower case, nor after a
    name's initials or `Inc.` before a word that opens no sentence: `abbreviation_goes_on`; and
    never inside `1.85`); headings, list items and table rows are therefore sentences of their own.
    """
    end = len(text) if end is None else end
    spans = []
    line_start = start
    while line_start < end:
        line_end = text.find("\n", line_start, end)
        if line_end < 0:
            line_end = end
        s = line_start
        for i in range(line_start, line_end):
            if text[i] in _ENDERS and _is_break(text, i, line_end):
                j = i + 1
                while j < line_end and text[j] in CLOSERS:
                    j += 1  # the closing quote belongs to the sentence it closes
                a, b = _trim(text, s, j)
                if a < b:
                    spans.append((a, b))
                s = j
        a, b = _trim(text, s, line_end)
        if a < b:
            spans.append((a, b))
        line_start = line_end + 1
    return spans


def is_heading(text: str, start: int) -> bool:
    """Whether the line or sentence at `start` is a Markdown heading."""
    return text.startswith("#", start)


def quote_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of a sentence without its Markdown list or table markers."""
    while start < end:
        if text[start] in "-*|#>" or text[start] in WHITESPACE:
            start += 1
            continue
        j = start
        while j < end and digit(text[j]) is not None:
            j += 1
        if j > start and j + 1 < end and text[j] in ".)" and text[j + 1] == " ":
            start = j + 2
            continue
        break
    while end > start and (text[end - 1] in "|" or text[end - 1] in WHITESPACE):
        end -= 1
    return start, end
