"""Numbers as the answerer and the metrics read them: either digit script, grouping ignored,
and (in `number_values`) numbers written in words.

`numbers` is the strict reading: digit strings only, folded to 0-9 without grouping
commas. `number_values` also reads what a person writes instead of digits, in English and
Bangla, so that দুই লাখ, ২,০০,০০০, 2 lakh and 200,000 are one value:

- number words: English zero to ninety-nine ("twenty-five", "twenty five"), Bangla এক to
  একশো (every one of the hundred words, with the usual spellings), and with a classifier
  (পাঁচটি, তিনবার, দুইজন);
- multipliers after a number word or digits: hundred / শ / শো / শত, thousand / হাজার,
  lakh / lac / লাখ / লক্ষ, crore / কোটি, million; "two hundred and fifty", "দুই হাজার পাঁচশো",
  "১.৫ লাখ", and দেড় (1.5), আড়াই (2.5), সাড়ে (… and a half) before a number or multiplier; a
  Bangla multiplier of a thousand or more with its case ending ("২৫ হাজারের বেশি", "৫ লাখে");
- English "one" counts only before a word it counts ("one account"), not as a pronoun
  ("open one", "one of them"); so does নয় (nine, and "is not": "নয় শতাংশ" but "ফ্রি নয়।");
  Bangla একটি / একটা (the indefinite article) never count.

Values are written as plain decimals: "200000", "1.5", "18.50" (digits as written, so the
strict and the word reading agree on every digit string).

>>> numbers("Tk 1,50,000 a month, ১.৮৫% fee, 150,000")
['150000', '1.85', '150000']
>>> number_values("দুই লাখ, ২,০০,০০০ or 2 lakh; five digits; one of them; Tk 18.50")
['200000', '200000', '200000', '5', '18.50']
>>> number_values("মাসে ২৫ হাজারের বেশি, ২ কোটির")
['25000', '20000000']

`another_amount` and `another_count` read which quantity a unit's value goes with: a rate
("100 points for Tk 10") states the case of another amount and another count than the ones a
question states ("for Tk 50?", "for 350 points?"), so its value is not the asked one.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from raglab.text.analyzer import analyze, tokens
from raglab.text.answertypes import YA, asked_sentences, pronoun_one, typed_spans

if TYPE_CHECKING:  # imported where numbers in words are read: see number_values
    from fractions import Fraction

# Numbers in either digit script, with grouping commas and a decimal point ("1,50,000", "১.৮৫").
NUMBER = re.compile(r"[0-9\u09e6-\u09ef]+(?:[,.][0-9\u09e6-\u09ef]+)*")
BANGLA_DIGITS = str.maketrans("০১২৩৪৫৬৭৮৯", "0123456789")
TO_BANGLA_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")  # a value written back in a Bangla text's digits


def numbers(text: str) -> list[str]:
    """The numbers in `text`, digits folded to 0-9 and grouping commas dropped.

    >>> numbers("Tk 1,50,000 a month, ১.৮৫% fee, 150,000")
    ['150000', '1.85', '150000']
    """
    out = []
    for m in NUMBER.finditer(text):
        value = m.group().translate(BANGLA_DIGITS).replace(",", "")
        out.append(value.rstrip(".") if value.endswith(".") else value)
    return out


_EN_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
             "sixteen seventeen eighteen nineteen").split()
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90}
# Bangla 0 to 100, in order; "|" separates spellings of one number.
_BN_WORDS = ("শূন্য এক দুই|দুই|দু তিন চার পাঁচ ছয়|ছয়|ছ সাত আট নয়|নয়|নয় দশ এগারো বারো তেরো চৌদ্দ|চোদ্দ পনেরো|পনের "
             "ষোলো|ষোল সতেরো|সতের আঠারো|আঠার উনিশ|ঊনিশ বিশ|কুড়ি একুশ বাইশ তেইশ চব্বিশ পঁচিশ ছাব্বিশ সাতাশ আটাশ "
             "ঊনত্রিশ|উনত্রিশ ত্রিশ|তিরিশ একত্রিশ বত্রিশ তেত্রিশ চৌত্রিশ পঁয়ত্রিশ ছত্রিশ সাঁইত্রিশ আটত্রিশ "
             "ঊনচল্লিশ|উনচল্লিশ চল্লিশ একচল্লিশ বিয়াল্লিশ তেতাল্লিশ চুয়াল্লিশ পঁয়তাল্লিশ ছেচল্লিশ সাতচল্লিশ "
             "আটচল্লিশ ঊনপঞ্চাশ|উনপঞ্চাশ পঞ্চাশ একান্ন বাহান্ন|বায়ান্ন তিপ্পান্ন চুয়ান্ন পঞ্চান্ন ছাপ্পান্ন সাতান্ন "
             "আটান্ন ঊনষাট|উনষাট ষাট একষট্টি বাষট্টি তেষট্টি চৌষট্টি পঁয়ষট্টি ছেষট্টি সাতষট্টি আটষট্টি "
             "ঊনসত্তর|উনসত্তর সত্তর একাত্তর বাহাত্তর তিয়াত্তর চুয়াত্তর পঁচাত্তর ছিয়াত্তর সাতাত্তর আটাত্তর "
             "ঊনআশি|উনআশি আশি একাশি বিরাশি তিরাশি চুরাশি পঁচাশি ছিয়াশি সাতাশি আটাশি ঊননব্বই|উননব্বই নব্বই "
             "একানব্বই বিরানব্বই তিরানব্বই চুরানব্বই পঁচানব্বই ছিয়ানব্বই সাতানব্বই আটানব্বই নিরানব্বই "
             "একশো|একশ|একশত").split()
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000,
                "lacs": 100_000, "crore": 10_000_000, "crores": 10_000_000, "million": 1_000_000,
                "শ": 100, "শো": 100, "শত": 100, "হাজার": 1000, "লাখ": 100_000, "লক্ষ": 100_000, "কোটি": 10_000_000}
_HALVES = {"দেড়": (3, 2), "আড়াই": (5, 2)}  # as (numerator, denominator)
_CLASSIFIERS = ("টি", "টা", "জন", "বার")
# "one" as a pronoun ("open one", "one of them") is no number.
_NOT_AFTER_ONE = frozenset("of or and to another by at in on for with is was are".split())
_NOT = "\u09a8\u09af\u09bc"  # নয় is nine, and "is not": a number only before the word it counts


def _bangla_table() -> dict[str, int]:
    out = {}
    for value, spellings in enumerate(_BN_WORDS):
        for w in spellings.split("|"):
            out[w.replace("\u09df", "\u09af\u09bc")] = value  # য় as NFC keeps it (letter + nukta)
    return out


_BN = _bangla_table()
_EN = {w: i for i, w in enumerate(_EN_UNITS)} | _EN_TENS
# A word: a run of ASCII letters, of Bangla letters and signs, or a digit number.
_WORD = re.compile(r"[0-9\u09e6-\u09ef]+(?:[,.][0-9\u09e6-\u09ef]+)*|[A-Za-z]+|[\u0981-\u09e3\u09f0\u09f1]+")


def _fold(word: str) -> str:
    return word.replace("\u09df", "\u09af\u09bc").replace("\u09dc", "\u09a1\u09bc").replace("\u09dd", "\u09a2\u09bc")


def _word_value(word: str) -> Fraction | None:
    from fractions import Fraction

    w = word.lower()
    if w in _EN:
        return Fraction(_EN[w])
    w = _fold(word)
    if w in _BN:
        return Fraction(_BN[w])
    for c in _CLASSIFIERS:
        stem = w[:-len(c)]
        if w.endswith(c) and stem in _BN and not (stem == "এক" and c in ("টি", "টা")):  # একটি: "a"
            return Fraction(_BN[stem])
    for h in ("শো", "শত", "শ"):  # পাঁচশো = 500
        if w.endswith(h) and w[:-len(h)] in _BN:
            return Fraction(_BN[w[:-len(h)]] * 100)
    if w in _HALVES:
        return Fraction(*_HALVES[w])
    return None


# A Bangla multiplier of a thousand or more takes the case ending of the noun it makes:
# "২৫ হাজারের বেশি" (more than 25 thousand), "৫ লাখে", "২ কোটির".
_BN_ENDING = re.compile("(?:এর|ের|র|এ|ে)$")


def _multiplier(word: str) -> int | None:
    found = _MULTIPLIERS.get(word.lower()) or _MULTIPLIERS.get(_fold(word))
    if found is None and _BN_ENDING.search(word):
        found = _MULTIPLIERS.get(_BN_ENDING.sub("", _fold(word)))
        return found if found is not None and found >= 1000 else None
    return found


def _format(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(value.numerator, value.denominator)
    digits = []
    for _ in range(6):  # halves, quarters and the like end within a few digits
        rest *= 10
        d, rest = divmod(rest, value.denominator)
        digits.append(str(d))
        if not rest:
            break
    return f"{whole}." + "".join(digits).rstrip("0")


def _joined(text: str, a: tuple, b: tuple) -> bool:
    """Whether two word tokens are parts of one number: only a space or a hyphen between them."""
    return text[a[2]:b[1]] in (" ", "-", "\u00a0")


def number_values(text: str) -> list[str]:
    """`numbers(text)`, with numbers written in words read as numbers too (see the module doc)."""
    return list(_number_values(text))


# Cached: the evaluation judges the same answer texts under every configuration.
@functools.lru_cache(maxsize=50_000)
def _number_values(text: str) -> tuple[str, ...]:
    return tuple(value for value, _, _ in number_spans(text))


@functools.lru_cache(maxsize=50_000)
def number_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """(value, start, end) of each number `number_values` reads in `text`: "তিনবার" is 3 at 0:6,
    "two hundred points" 200 at 0:11."""
    # Imported here, not at the top: the page's Python compiles `fractions` from source (Pyodide
    # ships its standard library without bytecode), about 80 ms that the start-up need not wait for.
    from fractions import Fraction

    toks = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(toks):
        word = toks[i][0]
        digits = NUMBER.fullmatch(word) is not None
        raw: str | None
        if digits:
            raw = numbers(word)[0]
            if raw.count(".") > 1:  # "1.2.3", "১.৮৫১.৮৫": a code or a slip, no one number to scale
                out.append((raw, toks[i][1], toks[i][2]))
                i += 1
                continue
            value = Fraction(raw)
            j = i + 1
        else:
            half = _fold(word) == "সাড়ে"
            start = i + 1 if half else i
            read = _word_value(toks[start][0]) if start < len(toks) else None
            if read is None:
                i += 1
                continue
            value = read
            if toks[start][0].lower() == "one" or _fold(toks[start][0]) == _NOT:
                nxt = toks[start + 1][0].lower() if start + 1 < len(toks) else ""
                gap = text[toks[start][2]:toks[start + 1][1]] if start + 1 < len(toks) else "."
                if not nxt or nxt in _NOT_AFTER_ONE or gap.strip() or pronoun_one(text, toks[start][1]):  # "a different one"
                    i = start + 1
                    continue
            if half:
                value += Fraction(1, 2)
            j = start + 1
            if value < 100 and value.denominator == 1 and value >= 20 and j < len(toks) \
                    and toks[j][0].lower() in _EN and _EN[toks[j][0].lower()] < 10 and _joined(text, toks[j - 1], toks[j]):
                value += _EN[toks[j][0].lower()]  # twenty-five
                j += 1
            raw = None
        total = Fraction(0)
        while j < len(toks) and _joined(text, toks[j - 1], toks[j]):
            m = _multiplier(toks[j][0])
            if m is None:
                break
            value *= m
            raw = None
            j += 1
            if m >= 1000 and j < len(toks):  # "two thousand five hundred", "দুই হাজার পাঁচশো"
                nxt_word = toks[j][0]
                if nxt_word.lower() == "and" and j + 1 < len(toks):
                    j += 1
                    nxt_word = toks[j][0]
                small = _word_value(nxt_word) if _joined(text, toks[j - 1], toks[j]) else None
                bigger = _multiplier(toks[j + 1][0]) if j + 1 < len(toks) else None
                if small is not None and (bigger is None or bigger < m):
                    total += value
                    value = small
                    j += 1
            elif m == 100 and j + 1 < len(toks) and toks[j][0].lower() == "and" and _joined(text, toks[j - 1], toks[j]):
                tail = _word_value(toks[j + 1][0])
                if tail is not None:
                    value += tail  # "two hundred and fifty"
                    j += 2
        total += value
        out.append((raw if raw is not None else _format(total), toks[i][1], toks[j - 1][2]))
        i = j
    return tuple(out)


def is_number_word(term: str) -> bool:
    """Whether an analyzer term is a number word or a multiplier ("five", "লাখ", "পাঁচ"), which
    `number_values` reads as (part of) a number rather than as a content word."""
    w = _fold(term)
    return term.lower() in _EN or _multiplier(term) is not None or w in _BN or w in _HALVES or _word_value(term) is not None


# An amount or a count stated as a bound ("up to Tk 25,000", "২৫,০০০ টাকা পর্যন্ত", "at most 5
# times", "সর্বোচ্চ ৫ বার", "৩০,০০০ টাকার বেশি") is a limit, not a case.
_BOUND = re.compile("(?:up ?to|first|at most|at least|over|above|more than|less than|under|below|maximum|minimum"
                    "|max|min|maximum of|minimum of|স(?:র্|র)ব(?:োচ্চ|াধিক|নিম্ন)|ন্যূনতম|নূন্যতম|কমপক্ষে|অন্তত)[ ]+$")
_BOUND_AFTER = re.compile("^(?:র|এর|ের)?[ ]*(?:পর্যন্ত|বেশি|কম|or more|or less|and above|and below)(?:[^a-z\u0980-\u09ff]|$)")


def _bound(low: str, start: int, end: int) -> bool:
    return bool(_BOUND.search(low[max(0, start - 12):start]) or _BOUND_AFTER.search(low[end:end + 12]))


def _plain(value: str) -> str:
    """A number without trailing decimal zeros: Tk 50.00 is Tk 50."""
    return re.sub("[.]0+$|([.][0-9]*?)0+$", "\\1", value)


# The amount a rate is stated per ("1 point for every Tk 100", "প্রতি ১,০০০ টাকায় ১৮.৫০ টাকা").
_PER = re.compile("(?:every|each|per|প্রতি)[ ]+$")


@functools.lru_cache(maxsize=50_000)
def _amounts(text: str, bounds: bool, per: bool = False) -> frozenset[str]:
    """The numbers of `text`'s amounts; with `bounds`, less the amounts stated as a bound; with `per`,
    less the amounts a rate is stated per."""
    low = text.lower()
    return frozenset(_plain(n) for sp in typed_spans(text) if sp.type == "amount"
                     and not (bounds and _bound(low, sp.start, sp.end)) and not (per and _PER.search(low[max(0, sp.start - 8):sp.start]))
                     for n in numbers(text[sp.start:sp.end]))


def states_a_case(question: str) -> bool:
    """Whether a question states an amount or a count at all: only then can a unit's value go
    with another one (`another_amount`, `another_count`)."""
    return bool(_amounts(question, False)) or bool(_counts(question, False))


def one_worked_case(question: str, row_key: str) -> bool:
    """Whether a table row keyed by an amount is one worked case where a question stating no
    amount asks for a limit: "১০,০০০ টাকা — প্রণোদনা (২.৫%): ২৫০ টাকা" is the incentive on ১০,০০০
    টাকা, not the most the incentive can be ("… সর্বোচ্চ কত টাকা পর্যন্ত পাওয়া যায়?"); the same row
    answers a question naming ১০,০০০ টাকা. The caller reads whether a limit is asked."""
    return bool(_amounts(row_key, False)) and not _amounts(question, False)


def another_amount(question: str, qtype: str, text: str) -> bool:
    """Whether a unit's value goes with another amount than the one a question states while
    asking for another kind of value: "How many reward points do I need to redeem for Tk 50?" is
    not answered by "You can redeem 100 points for Tk 10" (a rate, its case Tk 10), but by the
    row "500 — Wallet balance: Tk 50". The unit states amounts, none of them the asked one (Tk 50.00
    is Tk 50). A percentage holds for every amount ("1.85%, Tk 18.50 per Tk 1,000" for "Tk 5,000?"),
    and a bound is a limit ("up to Tk 25,000 a day, at most 5 times" for "how many times Tk 5,000?").
    An amount the customer only tells, in a sentence that asks nothing ("I bought groceries for Tk
    2,500. How many points do I earn?"), is their situation, which a rate stated per an amount ("1 point
    for every Tk 100") settles: that amount is no other case (an asked "… for Tk 10?" is one)."""
    if qtype in ("amount", "percent"):
        return False
    asked = _amounts(question, False)
    told = bool(asked) and not _amounts(" ".join(asked_sentences(question)) or question, False)
    own = _amounts(text, True, told) if asked else frozenset()
    return bool(own) and not own & asked


# A number inside one of these is no count of a thing ("Tk 10", "24 hours", "18 years").
_NOT_COUNTS = frozenset(("amount", "percent", "duration", "time", "age", "contact"))
# A table row's column name before its cell: "Points: 100 — Wallet balance: Tk 10".
_LABEL = re.compile("(?:^|[\u2014|\n])[ ]*([^:\u2014|\n]{1,40}):[ ]*$")
_NAMING_WORDS = 2  # the words after a number that may name what it counts: "350 reward points"
_JOINED = (" ", "-", "\u00a0")
_BANGLA_LETTER = re.compile("[\u0981-\u09e3\u09f0\u09f1]")  # a classifier written on its number: "৩৫০টি"
_NAMED_CLASSIFIERS = ("বার", "জন")  # the classifiers the analyzer keeps as words (টি, টা it drops)


@functools.lru_cache(maxsize=50_000)
def _counts(text: str, bounds: bool) -> tuple[tuple[str, frozenset[str], int, int], ...]:
    """Each number of `text` that counts a thing (in digits or in words, `number_spans`: "৩ বার",
    "তিনবার", "three times"), with the terms that may name the thing and the
    span of the number and its naming words: of the words right after it ("350 reward points",
    "৫০০ পয়েন্ট", "3 cash-outs"; a stopword or a punctuation mark ends them) and of its column's
    name ("Points: 100"). A number of an amount, a percentage, a duration, a time, an age or a
    phone number counts nothing; with `bounds`, a count stated as a bound ("at most 5 times",
    "5 times or more", "৩ বারের বেশি") is a limit, no case, and is left out too."""
    spans = typed_spans(text)
    toks = tokens(text)
    low = text.lower()
    out = []
    for value, a, b in number_spans(text):
        if any(s.start <= a < s.end and s.type in _NOT_COUNTS for s in spans) or (bounds and _bound(low, a, b)):
            continue
        digits = NUMBER.fullmatch(text[a:b]) is not None
        if not digits and value == "1":  # "one account", একজন: mostly the article, no count
            continue
        names: list[str] = []
        # "তিনবার" names times, as "৩ বার" does
        names.extend(c for c in _NAMED_CLASSIFIERS if not digits and _fold(text[a:b]).endswith(c))
        end = b
        for t in toks:
            if t.start < b:
                if t.start == a and t.end > b and _BANGLA_LETTER.match(text, b):  # "৩৫০টি", "৫বার": its classifier
                    end = t.end
                    rest = t.term.lstrip("0123456789.")  # "5বার" names times, as "৫ বার" does; টি the analyzer drops
                    names.extend([rest] if rest else [])
                continue
            if len(names) >= _NAMING_WORDS or text[end:t.start] not in _JOINED or NUMBER.fullmatch(t.term) \
                    or _BOUND_AFTER.search(low[end:end + 12]):
                break
            names.append(t.term)
            end = t.end
        if bounds and _BOUND_AFTER.search(low[end:end + 12]):  # "5 times or more", "৩টির বেশি"
            continue
        label = _LABEL.search(text, 0, a)
        if label:
            names.extend(analyze(label.group(1)))
        if names:
            out.append((_plain(value), frozenset(names), a, end))
    return tuple(out)


# A Bangla count question's word that asks how many of a thing by its classifier: কতবার (how many times).
_ASKS_HOW_MANY = re.compile(f"^(?:কত|ক{YA})(বার|টি|টা|জন)$")


def _asks_same(question: str, names: frozenset[str], start: int, end: int) -> bool:
    """Whether a question names the thing its count at start:end counts again, outside that
    count: "I set a 4 digit PIN, how many digits should it have?", "২ বার ভুল পিন দিয়েছি,
    কতবার ভুল পিন দিলে …?" asks how many of the very thing it counts."""
    for t in tokens(question):
        if start <= t.start < end:
            continue
        asked = _ASKS_HOW_MANY.match(t.term)
        if t.term in names or (asked and asked.group(1) in names):
            return True
    return False


def another_count(question: str, text: str, aliases: dict | None = None, qtype: str = "") -> bool:
    """Whether a unit's value goes with another count of a thing than the one a question states:
    "How much will I get if I redeem 350 reward points?" is not answered by "You can redeem 100
    points for Tk 10" nor by the row "Points: 100 — Wallet balance: Tk 10" (a rate, its case 100
    points; Tk 30 is computed, stated nowhere), but the row "Points: 500 — …" answers "for 500
    points?". The unit counts the thing the question counts (a word naming it, or a word of one
    of its `aliases`, term -> tuples of terms: পয়েন্ট is "point"), and never the question's number.
    The mirror of `another_amount`, for every kind of question: the count a unit states is the
    case its value goes with, whatever is asked; but not for a question asking a count (`qtype`)
    of the thing it counts (`_asks_same`), as `another_amount` is not for one asking an amount:
    "The Shapla Pay PIN has 5 digits." answers "I set a 4 digit PIN, how many digits …?"."""
    asked = _counts(question, False)
    if not asked:
        return False
    own = _counts(text, True)
    for value, names, start, end in asked:
        if qtype == "count" and _asks_same(question, names, start, end):
            continue
        said = set(names)
        for n in sorted(names):
            for alt in (aliases or {}).get(n, ()):
                said.update(alt)
        same = {v for v, counted, _, _ in own if counted & said}
        if same and value not in same:
            return True
    return False


def spoken_digits(text: str) -> str:
    """`text` with the numbers it says in words where a help-centre page writes digits written in
    digits, in the words' script: an amount of money ("পাঁচশো টাকা" reads "৫০০ টাকা", "ten taka"
    "10 taka"), a number with a multiplier ("two thousand", "ত্রিশ হাজার") and a count with its
    classifier ("তিনবার" reads "৩ বার"). Voice typing spells a number as words or digits
    unpredictably, and the help centre states these in digits. A number of things ("two phones",
    "four months") stays as said, and so do a lone "one" or এক (in speech as often "a" as a count:
    "একজন ফোন করে") and a number with digits in it ("২৫ হাজার"): that is how it was typed.

    >>> spoken_digits("পাঁচশো টাকার কেনাকাটা"), spoken_digits("cash out two thousand taka on two phones")
    ('৫০০ টাকার কেনাকাটা', 'cash out 2000 taka on two phones')
    """
    out, last = [], 0
    for value, start, end in number_spans(text):
        piece = text[start:end]
        tail = next((c for c in _CLASSIFIERS if piece.endswith(c) and _word_value(piece) is not None), "")
        money = _MONEY.match(text, end)
        if NUMBER.search(piece) or value == "1" or not (tail or money or len(value.partition(".")[0]) >= 3):  # 100 or more
            continue
        bangla = any("\u0980" <= ch <= "\u09ff" for ch in piece)
        digits = value.translate(TO_BANGLA_DIGITS) if bangla else value
        out.append(text[last:start] + digits + (" " + tail if tail else ""))
        last = end
    return "".join(out) + text[last:]


_MONEY = re.compile(r"[ ]*(?:taka|tk|টাকা|৳)", re.IGNORECASE)
