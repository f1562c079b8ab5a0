"""The words around a value that belong to its short answer, beside `short._widen`'s English ones.

A Bangla value's qualifier comes before it, as "up to" does in English: "সর্বোচ্চ ২৫,০০০ টাকা"
(at most), "ন্যূনতম ৫০ টাকা" (minimum), "কমপক্ষে ৫০ টাকা" (at least), "মোট ২,০০,০০০ টাকা" (in
total); and so does the period it is counted in ("দিনে সর্বোচ্চ ৫ বার", where English says "up to 5
a day").
"""

from __future__ import annotations

import os
import re

from raglab.text.answertypes import YA

_TRIAL = set(os.environ.get("RAGLAB_QUAL", "bn,usually,total,first").split(","))

# A Bangla qualifier before a value (the English ones are `short._BEFORE`).
_QUALIFIER_BN = re.compile(f"(?:^|(?<=[^\u0980-\u09ff]))(?:স(?:র্|র)বোচ্চ|সর্বাধিক|স(?:র্|র)বনিম্ন|ন্যূনতম|নূন্যতম|কমপক্ষে|অন্তত|মাত্র|"
                           f"প্রা{YA}|মোট|সর্বমোট) $")
# The period a Bangla value is counted in comes first: "দিনে ৩০,০০০ টাকা", "বছরে ৭%".
RATE_BEFORE = re.compile("(?:^|(?<=[^\u0980-\u09ff]))(?:দিনে|মাসে|বছরে|সপ্তাহে|প্রতিদিন|প্রতি মাসে|প্রতি বছর|"
                         "প্রতিবার|বার্ষিক) $")
# What a value holds only usually: "usually within 10 minutes", "সাধারণত ১ ঘণ্টার মধ্যে".
_USUALLY = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:usually|normally|সাধারণত) $", re.IGNORECASE)
_FIRST = re.compile("(?:^|(?<=[^A-Za-z\u0980-\u09ff]))(?:the (?:first|last|past|next)|প্রথম) $", re.IGNORECASE)
# A period after "in total": "Up to Tk 1,50,000 in total a month".
_TOTAL_PERIOD = re.compile(r"^ (?:a|an|per|each) (?:day|month|year|week)(?![A-Za-z])", re.IGNORECASE)


def _back(text: str, start: int, pattern: re.Pattern) -> int:
    window = text[max(0, start - 16):start]
    m = pattern.search(window)
    return start - (len(window) - m.start()) if m else start


def before(text: str, start: int, kind: str = "number") -> int:
    """Where a value starting at `start` (its English qualifier already taken) starts with its
    Bangla qualifier, its period and a "usually"."""
    if "bn" in _TRIAL:
        start = _back(text, start, _QUALIFIER_BN)
    if "first" in _TRIAL and kind in ("amount", "duration"):
        start = _back(text, start, _FIRST)
    start = _back(text, start, RATE_BEFORE)
    if "usually" in _TRIAL:
        start = _back(text, start, _USUALLY)
    return start


def after_total(text: str, end: int) -> int:
    """Where a value ending in "in total" at `end` ends with the period after it."""
    if "total" not in _TRIAL or not text[:end].endswith(" in total"):
        return end
    m = _TOTAL_PERIOD.match(text[end:end + 16])
    return end + m.end() if m else end
