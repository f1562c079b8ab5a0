"""Values ranged or listed together, and one end of a range: "from 9 am to 9 pm", "Tk 500, 1,000,
2,000 or 5,000", "between Tk 20 and Tk 1,000" (the maximum: "Tk 1,000"). The short answer
(`answer.short`) widens a value to the run it belongs to, or picks the end a question asks for.

>>> from raglab.text.answertypes import Span
>>> text = "Cash out between Tk 20 and Tk 1,000."
>>> spans = [Span("amount", 17, 22), Span("amount", 27, 35)]
>>> text[slice(*joined(text, spans, 0))]
'between Tk 20 and Tk 1,000'
>>> text[spans[one_end(text, spans, 0, range_end("What is the maximum cash out?"))].start:spans[1].end]
'Tk 1,000'
"""

from __future__ import annotations

import re

from raglab.question.asking import asks_upper
from raglab.text.answertypes import YA, cue_text

# What joins the values of one range or list ("9 am to 9 pm", "Tk 500, 1,000, 2,000 or 5,000",
# "১০ থেকে ১৫ দিন"): a comma, or a word that says "or", "and" or "to".
# A dash joins nothing: between two dates it is a lifespan ("22 April 1724 – 12 February 1804").
_JOIN = re.compile(r"^(?:,|,? or|,? and| to| through|,? বা|,? অথবা| ও| থেকে| হতে)\s*$", re.IGNORECASE)
_INNER_JOIN = re.compile(" (?:or|and|to|বা|থেকে) ")
_RANGE_START = re.compile(r"(?:^|(?<=[^A-Za-z]))(?:from|between) $", re.IGNORECASE)


def run(text: str, spans, i: int) -> tuple[int, int]:
    """The first and last index of the values spans[i] is listed or ranged with: spans of its
    type or bare numbers, each joined to the next by a `_JOIN` word."""
    kind = spans[i].type
    same = lambda s: s.type == kind or s.type == "number"  # noqa: E731 -- "Tk 500, 1,000 or 5,000"
    lo = hi = i
    while lo > 0 and same(spans[lo - 1]) and _JOIN.match(text[spans[lo - 1].end:spans[lo].start]):
        lo -= 1
    while hi + 1 < len(spans) and same(spans[hi + 1]) and _JOIN.match(text[spans[hi].end:spans[hi + 1].start]):
        hi += 1
    return lo, hi


def joined(text: str, spans, i: int) -> tuple[int, int]:
    """spans[i], with the values before and after it that it is listed or ranged with (`run`;
    a list of commas alone is no list: at least one "or", "and", "to" joins it), and a leading
    "from"/"between"."""
    lo, hi = run(text, spans, i)
    if lo == hi:
        return spans[i].start, spans[i].end
    gaps = [text[spans[j].end:spans[j + 1].start].strip() for j in range(lo, hi)]
    if all(g == "," for g in gaps) and not _INNER_JOIN.search(text[spans[hi].start:spans[hi].end]):
        return spans[i].start, spans[i].end  # "1, 2 or 3 years": the last value holds the "or"
    start = spans[lo].start
    m = _RANGE_START.search(text[max(0, start - 8):start])
    if m:
        start -= len(text[max(0, start - 8):start]) - m.start()
    return start, spans[hi].end


# A question for one end of a range: "the maximum recharge" is the upper end of "between Tk 20
# and Tk 1,000", "the minimum" the lower one (matched on `answertypes.cue_text`; র + ব typed for র্ব).
_UPPER = re.compile(f" (?:maximum|max|most|highest|largest|biggest) |স(?:র্|র)বোচ্চ|সবচে{YA}ে বেশি")
_LOWER = re.compile(f" (?:minimum|min|least|lowest|smallest) |স(?:র্|র)বনিম্ন|ন্যূনতম|নূন্যতম|কমপক্ষে|সবচে{YA}ে কম")
_RANGE_JOIN = re.compile(r"^(?:and|to|through|থেকে|হতে)$", re.IGNORECASE)


def range_end(question: str) -> str | None:
    """"upper" or "lower" when the question asks for one end of a range (not both)."""
    text = cue_text(question)
    upper, lower = bool(_UPPER.search(text)) or asks_upper(question), bool(_LOWER.search(text))
    return "upper" if upper and not lower else "lower" if lower and not upper else None


# The words in a sentence that name one end ("the maximum is Tk 1,000", "সর্বোচ্চ ২৫,০০০ টাকা"),
# looked for in the `_NAMED_WITHIN` characters before a value.
_NAMES_END = {"upper": re.compile("(?:^|[^A-Za-z])(?:maximum|max|most|highest|up to|at most)(?![A-Za-z])|সর্বোচ্চ|সর্বাধিক",
                                  re.IGNORECASE),
              "lower": re.compile("(?:^|[^A-Za-z])(?:minimum|min|least|lowest|at least)(?![A-Za-z])|সর্বনিম্ন|ন্যূনতম|কমপক্ষে",
                                  re.IGNORECASE)}
_NAMED_WITHIN = 24


def named_end_first(text: str, ranked: list[tuple[int, int]], end: str | None) -> list[tuple[int, int]]:
    """The ranked spans, those the sentence names as the asked end first ("The minimum recharge
    is Tk 20 and the maximum is Tk 1,000": "Tk 1,000" for the maximum)."""
    if end is None:
        return ranked
    named = _NAMES_END[end]
    return sorted(ranked, key=lambda se: 0 if named.search(text[max(0, se[0] - _NAMED_WITHIN):se[0]]) else 1)


def one_end(text: str, spans, i: int, end: str | None) -> int | None:
    """The index of the asked end when spans[i] is one of a range of two values ("between Tk 20
    and Tk 1,000", "২০ থেকে ১,০০০ টাকা"); None otherwise (a list's options stay together)."""
    if end is None:
        return None
    lo, hi = run(text, spans, i)
    if hi != lo + 1 or not _RANGE_JOIN.match(text[spans[lo].end:spans[hi].start].strip(" ,")):
        return None
    return hi if end == "upper" else lo


# A when-question about a beginning or an end: "When did the war begin?" is the first year of "1337 to 1453",
# "When did the war end?" the last one. Building and making are no beginning: "When was the palace built?"
# is answered by "between 1705 and 1722" (the TyDi QA English train questions: three of four).
# Matched on the question as written: a capital is a name's ("the First Celtiberian War").
_BEGINS = re.compile("(?<![A-Za-z])(?:begin|began|begun|start|started|first|found|founded|establish|established|born|"
                     "introduce|introduced|form|formed|open|opened|launch|launched|settle|settled|"
                     "become|became|join|joined|enter|entered|invent|invented)(?![A-Za-z])")
_ENDS = re.compile("(?<![A-Za-z])(?:end|ended|die|died|finish|finished|complete|completed|close|closed|retire|retired|"
                   "abolish|abolished|dissolve|dissolved|disband|disbanded|last)(?![A-Za-z])")
# Two times of one span: "1961 to 1989", "between 1950 and 1953", "1206-1368", "late 1987 to July 12, 1997".
_YEAR = re.compile("[0-9]{3}")  # each end a year ("1961 to 1989"), not days of one month ("14–15 June 1919")
_TIME_RANGE = re.compile(r"(?:from |between )?(.+?)(?: to | until | through | and |\s?[\u2013-]\s?)(.+)$", re.IGNORECASE)


def time_end(question: str, text: str, start: int, end: int) -> tuple[int, int]:
    """The end of a range of times a when-question about a beginning or an end asks for ("When did the
    war begin?": "1337" of "1337 to 1453"); the span as it is otherwise.

    >>> text = "The war lasted from 1337 to 1453."
    >>> text[slice(*time_end("When did the war begin?", text, 15, 32))]
    '1337'
    >>> text[slice(*time_end("When did the war end?", text, 15, 32))]
    '1453'
    >>> text[slice(*time_end("When was the war fought?", text, 15, 32))]
    'from 1337 to 1453'
    >>> text = "The First Celtiberian War (181-179 BC) was fought in Hispania."
    >>> text[slice(*time_end("When was the First Celtiberian War?", text, 27, 37))]
    '181-179 BC'
    """
    begins, ends = bool(_BEGINS.search(question)), bool(_ENDS.search(question))
    m = _TIME_RANGE.match(text, start, end) if begins != ends and cue_text(question).startswith(" when ") else None
    if m is None or not _YEAR.search(m.group(1)) or not _YEAR.search(m.group(2)):
        return start, end
    return m.span(1) if begins else m.span(2)
