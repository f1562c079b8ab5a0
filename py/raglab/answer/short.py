"""The short answer: the shortest verbatim span of the chosen sentence that answers.

For a question that asks for a typed value (an amount, a duration, ...) it is a typed span
of the sentence (`answertypes.typed_spans`) of an accepted type, one the question does not
already state, nearest to the question's own words, widened by the qualifier that changes
its meaning ("within 24 hours", "up to Tk 25,000", "২৪ ঘণ্টার মধ্যে"). A definition
question ("What is a conurbation?") gets the phrase after the copula. Any other question
gets none: the sentence is the answer (picking a clause by the question's words measured
no better on dev).

Offsets are into the sentence text; the caller maps them into the chunk.

>>> text = "Refunds reach your wallet within 7 working days."
>>> [text[s:e] for s, e in short_spans("duration", frozenset(), {"refund"}, text, [("refund", 0, 7)])]
['within 7 working days']
"""

from __future__ import annotations

import re

from raglab.answer.sentences import spans_of
from raglab.text.answertypes import accepts
from raglab.text.numbers import numbers

# Words that belong to the value: "within 24 hours" is not "24 hours". Explicit ASCII
# classes (never \b or \w): the Unicode database differs between Pythons.
_BEFORE = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:within|up to|at most|at least|after|only|about|over|under|"
                     r"more than|less than|minimum of|maximum of|until|by) $", re.IGNORECASE)
_AFTER = re.compile("^(?:(?:এর|ের|র)? ?মধ্যে(?:ই)?| ?পর্যন্ত|(?:এর|ের|র)? ?পরে?(?![\u0980-\u09ff]))")
# A value after "per" is the unit of a rate, not the answer ("Tk 18.50 per Tk 1,000").
_PER = re.compile("(?:per|every|each|প্রতি|প্রতিটি) $", re.IGNORECASE)


# The period or unit a value is counted in: "Tk 30,000 a day", "7% a year", "Tk 18.50 per Tk
# 1,000", "Tk 50 per cash-out"; in Bangla it comes first: "দিনে ৩০,০০০ টাকা", "বছরে ৭%".
_RATE_AFTER = re.compile(r"^(?: (?:a|an) (?:day|month|year|week|transaction)| (?:per|each|every) "
                         r"(?:Tk\.? ?[0-9\u09e6-\u09ef](?:[,.]?[0-9\u09e6-\u09ef])*|[A-Za-z][A-Za-z-]*)| in total(?= |[.,;]|$))",
                         re.IGNORECASE)
_RATE_BEFORE = re.compile("(?:^|(?<=[^\u0980-\u09ff]))(?:দিনে|মাসে|বছরে|সপ্তাহে|প্রতিদিন|প্রতি মাসে|প্রতি বছর|"
                          "প্রতিবার|বার্ষিক) $")


def _widen(text: str, start: int, end: int) -> tuple[int, int]:
    """The value with the words that belong to it: its qualifier ("within 24 hours", "up to
    Tk 25,000", "২৪ ঘণ্টার মধ্যে") and the period or unit it is counted in ("a day", "per Tk 1,000")."""
    m = _BEFORE.search(text[max(0, start - 16):start])
    if m:
        start -= len(text[max(0, start - 16):start]) - m.start()
    m = _RATE_BEFORE.search(text[max(0, start - 16):start])
    if m:
        start -= len(text[max(0, start - 16):start]) - m.start()
    m = _AFTER.match(text[end:end + 10])
    if m:
        end += m.end()
    m = _RATE_AFTER.match(text[end:end + 24])
    if m:
        end += m.end()
    return start, end


def typed_spans_ranked(qtype: str, question_numbers: frozenset, question_terms: set, text: str, spans,
                       order) -> list[tuple[int, int]]:
    """The spans of an accepted type, best first: not the unit of a rate ("per Tk 1,000"), then
    the nearest to a question term in the sentence, then of the question's own type, then the
    first. `order` is the text's (term, start, end) tokens."""
    wanted = accepts(qtype)
    anchors = [(s, e) for term, s, e in order if term in question_terms]
    keyed = []
    for stype, s, e in spans:
        if stype not in wanted:
            continue
        nums = numbers(text[s:e])
        if nums and all(n in question_numbers for n in nums):
            continue  # the question's own number
        own = [t for t, a, b in order if s <= a and b <= e]
        if own and all(t in question_terms for t in own):
            continue  # the question's own words ("Shapla Pay" asked about)
        distance = min((abs(a - s) if a >= e else abs(s - b) for a, b in anchors), default=0)
        per = 1 if _PER.search(text[max(0, s - 12):s]) else 0
        # A place is what follows "in", "at", "near", "from" ("born in Birkdale").
        off = 0 if qtype != "place" or _PLACE_BEFORE.search(text[max(0, s - 6):s]) else 1
        keyed.append(((per, off, distance, wanted.index(stype), s), s, e))
    keyed.sort()
    return [(s, e) for _, s, e in keyed]


def typed_span(qtype: str, question_numbers: frozenset, question_terms: set, text: str, spans, order) -> tuple[int, int] | None:
    """The best span of an accepted type, widened by its qualifier ("within 7 working days")."""
    got = typed_spans_ranked(qtype, question_numbers, question_terms, text, spans, order)
    return _widen(text, *got[0]) if got else None


# "What is a conurbation?", "What's malware?": a question that asks for a definition.
DEFINITION = re.compile(r"^\s*what(?:'s|\u2019s| is| are| was| were) (?:an? )?[^ ?]+(?: [^ ?]+){0,3}\s*\?*\s*$", re.IGNORECASE)
_COPULA = re.compile(r" (?:is|are|was|were|refers to|means) ")
_CLAUSE_END = re.compile(r"(?:[;:]| \(|, (?:which|who|and|but|while|although) | (?:that|which|who|whose|where|located|"
                         r"based|known|used) )")
# "What political party did Hitler belong to?", "Which country is …": the answer is a name.
WHICH_NOUN = re.compile(r"^\s*(?:what|which) (?:[A-Za-z-]+ ){1,3}(?:did|does|do|is|was|are|were|has|have|had) ",
                        re.IGNORECASE)
_PLACE_BEFORE = re.compile(r"(?:in|at|near|from|of) $")


def definition_span(question_terms: set, text: str, order) -> tuple[int, int] | None:
    """What follows the copula after the defined term: "A conurbation is [a region ...]"."""
    anchors = [b for term, a, b in order if term in question_terms]
    if not anchors:
        return None
    m = _COPULA.search(text, anchors[0])
    if m is None or m.start() - anchors[0] > 80:
        return None
    start = m.end()
    end = len(text)
    first_words = re.match(r"\S+ \S+", text[start:])  # a definition keeps at least two words
    stop = _CLAUSE_END.search(text, start + (first_words.end() if first_words else 0))
    if stop:
        end = stop.start()
    end = end - 1 if text[end - 1:end] in ".।" else end
    return (start, end) if end > start else None


def short_spans(qtype: str, question_numbers: frozenset, question_terms: set, text: str, order,
                question: str = "", n: int = 1) -> list[tuple[int, int]]:
    """Up to `n` (start, end) short answers in `text`, best first, never overlapping (a
    two-value question, "What are the minimum and maximum?", gets two from one sentence).
    `order` is the text's (term, start, end) tokens."""
    if accepts(qtype):
        out: list[tuple[int, int]] = []
        for s, e in typed_spans_ranked(qtype, question_numbers, question_terms, text, spans_of(text), order):
            s, e = _widen(text, s, e)
            if all(e <= a or s >= b for a, b in out):
                out.append((s, e))
            if len(out) == n:
                break
        return sorted(out) if n > 1 else out
    if qtype == "other" and DEFINITION.match(question):
        got = definition_span(question_terms, text, order)
        return [got] if got else []
    if qtype == "other" and WHICH_NOUN.match(question):
        return typed_spans_ranked("entity", question_numbers, question_terms, text, spans_of(text), order)[:n]
    return []
