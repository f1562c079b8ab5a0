"""The unit of time a question counts its answer in, and durations too short to be a count of it.

"statement PDF কত মাস আগের পর্যন্ত download করা যায়?" (how many months back) was answered "Older
statements are sent within 5 working days of your request." at 0.71, 0.49 logits above "Both must
fall within the last 12 months.": both state a duration and hold the question's words. A question
that asks "how many months" or "how many years" counts its answer in that unit, and a span shorter
than one of it (five days, 24 hours) is no count of months: it is the duration of another thing
(a request's delivery, a review). Days are not read so: "কতদিন", "কত দিনের মধ্যে", "koto din" ask
"how long" in Bangla and Banglish, and "within 3 months" answers them (dev q206, probe p044);
hours and minutes neither, for "how many hours does eKYC take?" is answered by "within 10 minutes".
So only the coarse units, a month and a year, are read as asked (`asked_unit`), and a duration is
compared with one of them by its length in minutes (`shorter_than`), a month at its shortest.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

from raglab.text.answertypes import typed_spans
from raglab.text.numbers import number_values

# "how many months", "কত মাস", "কয় মাস", "koto mash"; "how many years", "কত বছর", "koto bochor".
_ASKED = (("month", re.compile(r"\bhow many months?\b|(?:কত|কয়)\s?মাস|\b(?:koto|koy)\s?(?:mash|mas|maash)\b", re.IGNORECASE)),
          ("year", re.compile(r"\bhow many years?\b|(?:কত|কয়)\s?বছর|\b(?:koto|koy)\s?(?:bochor|bochhor|bosor|bochor)\b",
                              re.IGNORECASE)))
# A unit of time and its length in minutes, matched inside a typed duration ("5 working days", "২৪ ঘণ্টা").
_UNITS = ((re.compile(r"minutes?\b|mins?\b|মিনিট", re.IGNORECASE), 1),
          (re.compile(r"hours?\b|hrs?\b|ঘণ্টা|ঘন্টা", re.IGNORECASE), 60),
          (re.compile(r"days?\b|কার্যদিবস|দিন", re.IGNORECASE), 1440),
          (re.compile(r"weeks?\b|সপ্তাহ", re.IGNORECASE), 10080),
          (re.compile(r"months?\b|মাস", re.IGNORECASE), 40320),
          (re.compile(r"years?\b|বছর", re.IGNORECASE), 483840))
# A month is counted as the shortest one (28 days: "within 30 days" and "4 weeks" are a month) and a year as
# twelve of them ("12 months" and "365 days" are a year), so only a span clearly shorter is another thing's.
MINUTES = {"month": 40320, "year": 483840}


@functools.lru_cache(maxsize=4096)
def asked_unit(question: str) -> str | None:
    """The coarse unit ("month", "year") a question counts its answer in, or None (see above).

    >>> asked_unit("statement PDF কত মাস আগের পর্যন্ত download করা যায়?"), asked_unit("How many years is the term?")
    ('month', 'year')
    >>> asked_unit("কতদিনের মধ্যে টাকা ফেরত দিতে হবে?") is None, asked_unit("How many hours does it take?") is None
    (True, True)
    """
    for unit, pattern in _ASKED:
        if pattern.search(question):
            return unit
    return None


def durations(text: str) -> list[Fraction]:
    """The lengths in minutes of the durations `text` states whose unit and number are read."""
    out = []
    for span in typed_spans(text):
        if span.type != "duration":
            continue
        value, values = text[span.start:span.end], number_values(text[span.start:span.end])
        length = next((n for pattern, n in _UNITS if pattern.search(value)), None)
        if length is not None and len(values) == 1:
            out.append(Fraction(values[0]) * length)
    return out


def shorter_than(unit: str, text: str) -> bool:
    """Whether `text` states a duration and every one it states is shorter than one `unit`.

    >>> shorter_than("month", "Older statements are sent within 5 working days of your request.")
    True
    >>> shorter_than("month", "Both must fall within the last 12 months."), shorter_than("month", "No duration.")
    (False, False)
    """
    found = durations(text)
    return bool(found) and all(d < MINUTES[unit] for d in found)


def counts_in(unit: str, text: str) -> bool:
    """Whether `text` states a duration of at least one `unit` ("গত ১২ মাসের" for months; "90 days" too)."""
    return any(d >= MINUTES[unit] for d in durations(text))


# By when the customer must act ("How many days do I have to report it?", "কত দিনের মধ্যে অভিযোগ করতে হবে?"): a
# deadline, which a time the help centre takes ("অভিযোগ জানানোর ৭ কার্যদিবসের মধ্যে তা নিষ্পত্তি করা হয়", the
# complaint resolved within 7 working days) does not answer, though both are "within" a number of days.
_A, _Z = "(?<![A-Za-z0-9_\u0980-\u09ff])", "(?![A-Za-z0-9_\u0980-\u09ff])"  # a word's ends, by explicit classes (never \b)
_DEADLINE_ASKED = re.compile(rf"{_A}how many (?:days|hours|weeks) do (?:i|we) have (?:to|left){_Z}|{_A}by when (?:must|should|do) (?:i|we){_Z}|"
                             rf"{_A}deadline{_Z}|{_A}time limit{_Z}|(?:কত|কয়) ?দিনের মধ্যে[^?।,]*?(?:তে|তেই) হবে|সময়সীমা|শেষ সময়|"
                             rf"{_A}(?:koto|koy) ?din(?:er)? (?:moddhe|modhe|vitore){_Z}[^?]*?{_A}(?:korte|dite|janate) hobe{_Z}", re.IGNORECASE)
# A deadline stated: what one must do ("must be made within", "করতে হবে"), or the word itself.
_DEADLINE_STATED = re.compile(rf"{_A}(?:must|have to|has to|deadline|no later than|at the latest){_Z}|(?:তে|তেই) হবে|সময়সীমা|শেষ সময়",
                              re.IGNORECASE)


def asks_a_deadline(question: str) -> bool:
    """Whether a question asks by when the customer must act (see above).

    >>> asks_a_deadline("গতকাল টাকা ভুল নম্বরে চলে গেছে, কত দিনের মধ্যে অভিযোগ করতে হবে?"), asks_a_deadline("How many days do I have to report it?")
    (True, True)
    >>> asks_a_deadline("অভিযোগ জানালে কত দিনের মধ্যে সমাধান হয়?"), asks_a_deadline("How long does a refund take?")
    (False, False)
    """
    return bool(_DEADLINE_ASKED.search(question))


def no_deadline(question: str, quotes: list[str]) -> bool:
    """Whether a question asks a deadline and none of the quotes states one: a time the help centre
    takes, or a review's length, is another fact than the customer's deadline.

    >>> no_deadline("কত দিনের মধ্যে অভিযোগ করতে হবে?", ["অভিযোগ জানানোর ৭ কার্যদিবসের মধ্যে তা নিষ্পত্তি করা হয়।"])
    True
    >>> no_deadline("How many days do I have to report it?", ["A request about a wrong transfer must be made within 30 days of the transaction."])
    False
    """
    return asks_a_deadline(question) and not any(_DEADLINE_STATED.search(q) for q in quotes)
