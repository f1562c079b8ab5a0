"""The value a yes/no question states about the asker, read as the kind of value a rule names.

"My son is 16, can he open his own Shapla Pay account?" states an age, though the number stands bare
(`typed_spans` reads "16" as a number, "16 year old" and "বয়স ১৬" as ages): a bare number a person is
("he is 16", "shes 16", "I'm 17"; a respelled "she 16") is an age. A rule that answers the question names a value of the kind
the question states ("you must be 18 or older"), which `answer.howto.the_value_first` quotes first.
"""

from __future__ import annotations

import functools
import re

from raglab.text.answertypes import asked_sentences, typed_spans
from raglab.text.numbers import numbers

# A person's bare number: "is 16", "he's 16", "shes 16", "i'm 17", "am 15", "বয়স ১৬" is typed already.
_IS_N = re.compile(r"\b(?:is|am|are|i'?m|he'?s|she'?s|hes|shes|he|she|aged?)\s+(\d{1,2})\b(?!\s*(?:%|taka|tk|times?|days?|"
                   r"months?|hours?|minutes?|weeks?|years? ago))", re.IGNORECASE)
MAX_AGE = 99
# A sum written in thousands or lakhs with no currency ("আরও ৫ হাজার তুলতে পারব?", "25 hajar"): an amount.
_THOUSANDS = re.compile(r"(?:\d[\d,.]*|[০-৯][০-৯,.]*|দেড়|আড়াই)\s*(?:হাজার|লাখ|লক্ষ|hajar|hazar|lakh|lac)\b|"
                        r"(?:\d[\d,.]*|[০-৯][০-৯,.]*|দেড়|আড়াই)\s*(?:হাজার|লাখ|লক্ষ)", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def stated_kinds(question: str) -> frozenset[str]:
    """The kinds of value (span types: age, amount, count, duration) the sentences of a question that ask
    state, a person's bare number read as an age (see above); a bare number of no kind is left out.

    >>> sorted(stated_kinds("My son is 16, can he open his own account?")), sorted(stated_kinds("Can a 16 year old open one?"))
    (['age'], ['age'])
    >>> sorted(stated_kinds("Can I send 40,000 taka today?")), sorted(stated_kinds("what if i enter wrong pin 3 times"))
    (['amount'], ['count'])
    """
    # Only the sentences that ask: a story's values are its case ("… ২ হাজার টাকা পাঠিয়ে ফেলেছেন। … আমি কি নিজেই
    # ওঁকে টাকাটা ফেরত পাঠিয়ে দেব?" asks no rule about 2,000 taka), and only a value with a number ("at once"
    # is no stated duration).
    question = " ".join(asked_sentences(question)) or question
    kinds = {s.type for s in typed_spans(question)
             if s.type in ("age", "amount", "count", "duration") and numbers(question[s.start:s.end])}
    if any(int(m.group(1)) <= MAX_AGE for m in _IS_N.finditer(question)):
        kinds.add("age")
    if _THOUSANDS.search(question):
        kinds.add("amount")
    return frozenset(kinds)
