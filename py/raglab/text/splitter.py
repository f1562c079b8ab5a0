"""Sentence spans: where a line of an article or a question ends a sentence, and a sentence's
quotable span without its Markdown list or table markers.

Every stage that reads sentences (the chunkers' sentence level, the answerer's units, a
question's asking sentences) calls `sentences`, so a sentence is the same thing everywhere.
"""

from __future__ import annotations

from raglab.text.analyzer import WHITESPACE, digit

_ENDERS = frozenset(".?!\u0964\u0965")
CLOSERS = "\"')]»”’"  # closing marks a sentence's end takes with it
_ABBREVIATIONS = frozenset(["tk", "e.g", "i.e", "etc", "no", "vs", "mr", "mrs", "dr", "st", "approx"])


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
    j = i
    while j > 0 and text[j - 1] not in WHITESPACE:
        j -= 1
    word = text[j:i].lower().lstrip("(\"'")
    nxt = next((k for k in range(nxt, end) if text[k] not in WHITESPACE), end)  # an initialism before a word
    return word not in _ABBREVIATIONS and not ("." in word and nxt < end and text[nxt].islower())  # in lower case: "U.S. may"


def sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans in text[start:end]; together they hold every non-space character.

    Each line is split on . ? ! । ॥ followed by a space or the line end (not after
    `Tk.`, `e.g.` and the like, nor after `U.S.` before a word in lower case, and never
    inside `1.85`); headings, list items and
    table rows are therefore sentences of their own.
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
