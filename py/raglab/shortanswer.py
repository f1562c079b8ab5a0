"""The short answer: the shortest verbatim span of the chosen sentence that answers.

For a question that asks for a typed value (an amount, a duration, ...) it is a typed span
of the sentence (`answertypes.typed_spans`) of an accepted type, one the question does not
already state, nearest to the question's own words, widened by the qualifier that changes
its meaning ("within 24 hours", "up to Tk 25,000", "২৪ ঘণ্টার মধ্যে"). A definition
question ("What is a conurbation?") gets the phrase after the copula. Any other question
gets none: the sentence is the answer (picking a clause by the question's words measured
no better on dev).

Offsets are into the sentence text; the caller maps them into the chunk.

>>> q = ("duration", frozenset(), {"refund"})
>>> text = "Refunds reach your wallet within 7 working days."
>>> s, e = short_span(*q, text, [("duration", 33, 47)], lambda t: [("refund", 0, 7)])
>>> text[s:e]
'within 7 working days'
"""

from __future__ import annotations

import re

from .answertypes import accepts
from .metrics import numbers

# Words that belong to the value: "within 24 hours" is not "24 hours". Explicit ASCII
# classes (never \b or \w): the Unicode database differs between Pythons.
_BEFORE = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:within|up to|at most|at least|after|only|about|over|under|"
                     r"more than|less than|minimum of|maximum of|until|by) $", re.IGNORECASE)
_AFTER = re.compile("^(?:(?:এর|ের|র)? ?মধ্যে(?:ই)?| ?পর্যন্ত|(?:এর|ের|র)? ?পরে?(?![\u0980-\u09ff]))")
# A value after "per" is the unit of a rate, not the answer ("Tk 18.50 per Tk 1,000").
_PER = re.compile("(?:per|every|each|প্রতি|প্রতিটি) $", re.IGNORECASE)


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    m = _BEFORE.search(text[max(0, start - 16):start])
    if m:
        start -= len(text[max(0, start - 16):start]) - m.start()
    m = _AFTER.match(text[end:end + 10])
    if m:
        end += m.end()
    return start, end


def typed_span(qtype: str, question_numbers: frozenset, question_terms: set, text: str, spans, tokens) -> tuple[int, int] | None:
    """The best span of an accepted type: not the unit of a rate ("per Tk 1,000"), then the
    nearest to a question term in the sentence, then of the question's own type, then the first."""
    wanted = accepts(qtype)
    anchors = [(s, e) for term, s, e in tokens(text) if term in question_terms]
    best = None
    for stype, s, e in spans:
        if stype not in wanted:
            continue
        nums = numbers(text[s:e])
        if nums and all(n in question_numbers for n in nums):
            continue  # the question's own number
        own = [t for t, a, b in tokens(text) if s <= a and b <= e]
        if own and all(t in question_terms for t in own):
            continue  # the question's own words ("Shapla Pay" asked about)
        distance = min((abs(a - s) if a >= e else abs(s - b) for a, b in anchors), default=0)
        per = 1 if _PER.search(text[max(0, s - 12):s]) else 0
        key = (per, distance, wanted.index(stype), s)
        if best is None or key < best[0]:
            best = (key, s, e)
    if best is None:
        return None
    return _widen(text, best[1], best[2])


# "What is a conurbation?", "What's malware?": a question that asks for a definition.
DEFINITION = re.compile(r"^\s*what(?:'s|\u2019s| is| are| was| were) (?:an? )?[^ ?]+(?: [^ ?]+){0,3}\s*\?*\s*$", re.IGNORECASE)
_COPULA = re.compile(r" (?:is|are|was|were|refers to|means) ")
_CLAUSE_END = re.compile(r"(?:[;:]| \(|, (?:which|who|and|but|while|although) )")


def definition_span(question_terms: set, text: str, tokens) -> tuple[int, int] | None:
    """What follows the copula after the defined term: "A conurbation is [a region ...]"."""
    anchors = [b for term, a, b in tokens(text) if term in question_terms]
    if not anchors:
        return None
    m = _COPULA.search(text, anchors[0])
    if m is None or m.start() - anchors[0] > 80:
        return None
    start = m.end()
    end = len(text)
    stop = _CLAUSE_END.search(text, start)
    if stop:
        end = stop.start()
    end = end - 1 if text[end - 1:end] in ".।" else end
    return (start, end) if end > start else None


def short_span(qtype: str, question_numbers: frozenset, question_terms: set, text: str, spans, tokens,
               question: str = ""):
    """(start, end) of the short answer in `text`, or None. `tokens(text)` gives (term, start, end)."""
    if accepts(qtype):
        return typed_span(qtype, question_numbers, question_terms, text, spans, tokens)
    if qtype == "other" and DEFINITION.match(question):
        return definition_span(question_terms, text, tokens)
    return None
