"""The value a yes/no question states about the asker, read as the kind of value a rule names; and
the amounts a customer writes in forms the help centre never uses, written as it writes them.

"My son is 16, can he open his own Shapla Pay account?" states an age, though the number stands bare
(`typed_spans` reads "16" as a number, "16 year old" and "বয়স ১৬" as ages): a bare number a person is
("he is 16", "shes 16", "I'm 17"; a respelled "she 16") is an age. A rule that answers the question names a value of the kind
the question states ("you must be 18 or older"), which `answer.howto.the_value_first` quotes first.
"""

from __future__ import annotations

import functools
import re

from raglab.text.answertypes import asked_sentences, typed_spans
from raglab.text.numbers import TO_BANGLA_DIGITS, numbers

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


# How customers write an amount that the help centre writes otherwise: "25k", "2.5k", "20-25k" (thousands),
# "1.5 lakh", "1 lac", "50 thousand", "20 hajar" (a multiplier in Latin letters after digits, which the Banglish
# reader would spell as a Bangla word: "lac" is no লাখ), "500/-" (taka) and "taka 500".
# Explicit classes, never \d, \s or \b: the Unicode database differs between the native Python and the page's.
_DIGITS = r"(?:[0-9]+(?:[,.][0-9]+)*|[০-৯]+(?:[,.][০-৯]+)*)"
_SP = "[ \t\n\r\f\v]"
_K = re.compile(rf"(?<![A-Za-z0-9_\u0980-\u09ff.,])(?:({_DIGITS}){_SP}?[-–]{_SP}?)?({_DIGITS}){_SP}?[kK](?![A-Za-z\u0980-\u09ff])")
_LATIN_TIMES = {"thousand": 3, "hajar": 3, "hazar": 3, "lakh": 5, "lakhs": 5, "lac": 5, "lacs": 5, "lak": 5, "crore": 7,
                "million": 6}  # the zeros each multiplies by
_TIMES = re.compile(rf"(?<![A-Za-z0-9_\u0980-\u09ff.,])({_DIGITS}){_SP}?({'|'.join(_LATIN_TIMES)})(?![A-Za-z0-9_\u0980-\u09ff])",
                    re.IGNORECASE)
_DASH = re.compile(rf"(?<![A-Za-z0-9_\u0980-\u09ff.,])({_DIGITS}){_SP}?/-")
_TAKA_FIRST = re.compile(rf"(?<![A-Za-z0-9_\u0980-\u09ff])taka\.?{_SP}?({_DIGITS})(?![0-9০-৯,.]*{_SP}?(?:taka|tk|টাকা|৳))", re.IGNORECASE)
_MONEY_NEAR = re.compile(rf"{_SP}?(?:taka|tk|টাকা|৳)", re.IGNORECASE)
_MONEY_BEFORE = re.compile(rf"(?:taka|tk\.?|bdt|টাকা|৳){_SP}?$", re.IGNORECASE)


def _scaled(digits: str, zeros: int) -> str:
    """`digits` times 10 ** `zeros`, in their script, by moving the decimal point (no `fractions`: the page
    compiles it from source at start-up)."""
    whole, _, part = numbers(digits)[0].partition(".")
    part = part.ljust(zeros, "0")
    whole, rest = (whole + part[:zeros]).lstrip("0") or "0", part[zeros:].rstrip("0")
    plain = whole + ("." + rest if rest else "")
    return plain.translate(TO_BANGLA_DIGITS) if any("০" <= c <= "৯" for c in digits) else plain


@functools.lru_cache(maxsize=4096)
def customer_amounts(text: str) -> str:
    """`text` with the amounts a customer writes in a form the help centre never uses written in its
    digits, a bare thousands form ("25k") marked as money in the text's script ("25000 taka", "২৫০০০ টাকা").

    >>> customer_amounts("cash out 25k"), customer_amounts("1 lac taka"), customer_amounts("২০-২৫k টাকা")
    ('cash out 25000 taka', '100000 taka', '২০০০০-২৫০০০ টাকা')
    >>> customer_amounts("send 500/- or taka 80"), customer_amounts("50 thousand points")
    ('send 500 taka or 80 taka', '50000 points')
    """
    word = "টাকা" if re.search("[\u0981-\u09e3]", text) and not re.search("[A-Za-z]{3,}", text) else "taka"

    def k(m: re.Match) -> str:
        low, high = m.group(1), m.group(2)
        out = _scaled(high, 3)
        if low is not None:  # "20-25k" is 20,000 to 25,000; "30000-35k" is already written out
            out = f"{_scaled(low, 3) if float(numbers(low)[0]) < float(numbers(high)[0]) else low}-{out}"
        money = _MONEY_NEAR.match(text, m.end()) or _MONEY_BEFORE.search(text, 0, m.start())
        return out if money else f"{out} {word}"

    text = _K.sub(k, text)
    text = _TIMES.sub(lambda m: _scaled(m.group(1), _LATIN_TIMES[m.group(2).lower()]), text)
    text = _DASH.sub(lambda m: f"{m.group(1)} {'টাকা' if any('০' <= c <= '৯' for c in m.group(1)) else 'taka'}", text)
    return _TAKA_FIRST.sub(lambda m: f"{m.group(1)} taka", text)
