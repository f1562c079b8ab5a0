"""The words around a value that belong to its short answer, beside `short._widen`'s English ones.

A Bangla value's qualifier comes before it, as "up to" does in English, and the period it is
counted in before that: "দিনে সর্বোচ্চ ২৫,০০০ টাকা" (up to Tk 25,000 a day), "ন্যূনতম ৫০ টাকা"
(minimum Tk 50), "মাসে মোট ২,০০,০০০ টাকা" (Tk 2,00,000 in total a month). A value that holds only
usually says so ("সাধারণত ১০ মিনিটের মধ্যে", "usually within 1 hour"), and an amount or a
duration counted from one end says which ("the first Tk 25,000", "the last 12 months", "প্রথম
২৫,০০০ টাকা"): without those words the bold promises more than the sentence. English's "in total"
keeps the period after it ("Up to Tk 1,50,000 in total a month"), and Bangla's "সব মিলিয়ে" (in
total) the period before it ("দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা").

>>> text = "দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা ক্যাশ আউট করা যায়।"
>>> text[before(text, text.index("২৫")):text.index(" ক্যাশ")]
'দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা'
>>> text = "দিনে সর্বোচ্চ ৫ বার ক্যাশ আউট করা যায়।"
>>> text[before(text, text.index("৫")):text.index(" ক্যাশ")]
'দিনে সর্বোচ্চ ৫ বার'
>>> text = "Up to Tk 1,50,000 in total a month."
>>> text[:after_total(text, text.index(" a month"))]
'Up to Tk 1,50,000 in total a month'
"""

from __future__ import annotations

import re

from raglab.question.asking import periods_of
from raglab.text.answertypes import YA

# A Bangla qualifier before a value (the English ones are `short._BEFORE`): at most, the largest,
# at least, the minimum, only, about, in total.
_QUALIFIER_BN = re.compile(f"(?:^|(?<=[^\u0980-\u09ff]))(?:স(?:র্|র)বোচ্চ|সর্বাধিক|স(?:র্|র)বনিম্ন|ন্যূনতম|নূন্যতম|কমপক্ষে|অন্তত|মাত্র|"
                           f"প্রা{YA}|মোট|সর্বমোট) $")
# The period a Bangla value is counted in comes first: "দিনে ৩০,০০০ টাকা", "বছরে ৭%".
_RATE_BEFORE = re.compile("(?:^|(?<=[^\u0980-\u09ff]))(?:দিনে|মাসে|বছরে|সপ্তাহে|প্রতিদিন|প্রতি মাসে|প্রতি বছর|"
                          "প্রতিবার|বার্ষিক) $")
# What holds only usually: "usually within 10 minutes", "সাধারণত ১ ঘণ্টার মধ্যে". ("typically" is
# left out: "typically 16 keys" of a flute says how many, not how often.)
_USUALLY = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:usually|normally|সাধারণত) $", re.IGNORECASE)
# The end an amount or a duration is counted from, with its article in English ("typically last 3 to 7
# years" is a verb, "the first five films" a count, neither widened).
_FROM_END = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:the (?:first|last|past|next)|প্রথম) $", re.IGNORECASE)
# A period after "in total": "Up to Tk 1,50,000 in total a month".
_TOTAL_PERIOD = re.compile(r" (?:a|an|per|each) (?:day|month|year|week)(?![A-Za-z])", re.IGNORECASE)
# Bangla's "in total", between a value's period and its qualifier: "দিনে সব মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা".
_IN_TOTAL_BN = re.compile(f"(?:^|(?<=[^\u0980-\u09ff]))সব ?মিলি{YA}ে $")
WINDOW = 16  # characters looked at before a value


def _back(text: str, start: int, pattern: re.Pattern) -> int:
    window = text[max(0, start - WINDOW):start]
    m = pattern.search(window)
    return start - (len(window) - m.start()) if m else start


def before(text: str, start: int, kind: str = "number") -> int:
    """Where a value of `kind` starting at `start` (with its English qualifier, `short._BEFORE`)
    starts with its Bangla qualifier, the end it is counted from, its period and a "usually"."""
    start = _back(text, start, _QUALIFIER_BN)
    if kind in ("amount", "duration"):
        start = _back(text, start, _FROM_END)
    # "সব মিলিয়ে" only with the period before it: it says the period's values are added up
    total = _back(text, start, _IN_TOTAL_BN)
    period = _back(text, total, _RATE_BEFORE)
    start = period if period != total else _back(text, start, _RATE_BEFORE)
    return _back(text, start, _USUALLY)


def after_total(text: str, end: int) -> int:
    """Where a value ending in "in total" at `end` ends, with the period after it."""
    if not text.endswith(" in total", 0, end):
        return end
    m = _TOTAL_PERIOD.match(text, end, end + WINDOW)
    return m.end() if m else end


_CLAUSE_STOP = ".;:!?।\n"
_LETTER = re.compile("[A-Za-z\u0980-\u09ff]")  # a letter of either script, or a Bangla digit


def _in_bangla(text: str, start: int, end: int) -> bool:
    """Whether the value text[start:end] is written in Bangla: by its own first letter or Bangla digit
    ("৩০,০০০ টাকা", "30,000 টাকা", "Tk 30,000"), or, holding none ("7%"), by the last letter before it. A
    Bangla sentence may write its digits in ASCII ("দিনে সর্বোচ্চ 20,000 টাকা"): read by its first
    character, such a value was taken for English and its period looked for after it, in the next value's."""
    own = _LETTER.search(text, start, end)
    letter = own.group() if own is not None else next((ch for ch in reversed(text[:start]) if _LETTER.match(ch)), "")
    return letter >= "\u0980"


def value_periods(text: str, spans, i: int) -> frozenset[str]:
    """The periods the value spans[i] is counted in (`asking.periods_of`), read where its language
    puts them: in Bangla before it, back to the value before it or the clause's start ("দিনে সব মিলিয়ে
    সর্বোচ্চ ২৫,০০০ টাকা এবং মাসে সর্বোচ্চ ২,০০,০০০ টাকা": a day, then a month); in English after it, up
    to the next value or the clause's end ("Tk 30,000 a day and Tk 2,00,000 a month")."""
    s, e = spans[i].start, spans[i].end
    if _in_bangla(text, s, e):
        a = max([text.rfind(ch, 0, s) + 1 for ch in _CLAUSE_STOP] + [spans[i - 1].end if i else 0])
        return periods_of(" " + text[a:s])
    nxt = [text.find(ch, e) for ch in _CLAUSE_STOP] + ([spans[i + 1].start] if i + 1 < len(spans) else [])
    b = min([x for x in nxt if x >= 0], default=len(text))
    return periods_of(text[e:b] + " ")
