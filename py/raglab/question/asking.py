"""What a question asks, read from its words, and what a unit states that answers it or not.

Predicates over `answertypes.cue_text` (NFC, lower case, one space between words) shared by the
sentence model's features (`sentences.py`) and the short answer (`short.py`): whether a question
asks for a limit and whether a unit states only a price, the period a limit is counted in. What a
unit negates, restricts or instructs is read in `modality.py`; the halves of a contrast in
`text/contrasts.py`.
"""

from __future__ import annotations

import functools
import re

from raglab.text.answertypes import YA, cue_text, question_types, typed_spans
from raglab.text.numbers import number_values, numbers

# A question about a limit ("the daily limit", "the most I can send", "সর্বোচ্চ কত", "সীমা") asks
# for a number: "free" or "costs nothing" says what a fee is, not how far one may go. Bangla is
# often typed with র + ব for the ligature র্ব ("সরবোচ্চ"); both forms are read, and য় in both
# of its encodings. Matched on `answertypes.cue_text` (NFC, lower case, one space between words).
_LIMIT = re.compile(" (?:limits?|maximum|minimum|max|min|most|least|highest|lowest|smallest|largest|biggest|capped|cap) "
                    f"|সীমা|স(?:র্|র)ব(?:োচ্চ|নিম্ন)|ন্যূনতম|নূন্যতম|লিমিট|সবচে{YA}ে (?:বেশি|কম)|কমপক্ষে")

# What states a price ("The first Tk 25,000 you send in a calendar month is free", "১.৮৫% চার্জ"):
# no answer to a limit question, though it names an amount and a period; "up to" states a limit.
# "রিচার্জ" (a recharge) holds "চার্জ" (a charge) and names no price.
_PRICE = re.compile(" (?:fees?|charges?|charged|costs?|price|free|ফি|ফ্রি) |(?<!রি)চার্জ|খরচ|মাশুল")
# A range of amounts a unit sets ("must be between Tk 20 and Tk 1,000", "from Tk 50 to Tk 25,000",
# "২০ থেকে ১,০০০ টাকার মধ্যে", "20 theke 1000 taka") is a limit too, both ends at once: a price
# question ("how much does recharge cost?") is not answered by it. Only amounts of money: "between
# 9 am and 5 pm" is a time. Numbers are ASCII digits in `cue_text`.
_N = "[0-9][0-9,.]*"
_RANGE = (f" between (?:tk {_N} and tk {_N}|{_N} and {_N} (?:tk|taka)) | from tk {_N} to tk {_N} "
          f"| {_N} (?:টাকা )?থেকে {_N} টাকা| {_N} (?:taka |tk )?theke {_N} (?:taka|tk) ")
_STATES_LIMIT = re.compile(_LIMIT.pattern + "| (?:up to|at most|no more than|ceiling) |পর্যন্ত|সর্বাধিক|" + _RANGE)


def asks_limit(question: str) -> bool:
    """Whether a question asks for a limit, whose answer is a number (see `_LIMIT`).

    >>> asks_limit("What is the daily limit for cash out?"), asks_limit("How much does cash out cost?")
    (True, False)
    """
    return bool(_LIMIT.search(cue_text(question)))


@functools.lru_cache(maxsize=4096)
def asks_only_limit(question: str) -> bool:
    """A limit question that asks no price ("the maximum fee", "the daily limit, and what fee
    applies?" ask one): a unit that states only a price cannot answer it (`only_price`)."""
    cue = cue_text(question)
    return bool(_LIMIT.search(cue)) and not _PRICE.search(cue)


@functools.lru_cache(maxsize=50_000)
def only_limit(text: str) -> bool:
    """Whether a unit states a limit and no price (`only_price` the other way round)."""
    cue = cue_text(text)
    return bool(_STATES_LIMIT.search(cue)) and not _PRICE.search(cue)


@functools.lru_cache(maxsize=50_000)
def only_price(text: str) -> bool:
    """Whether a unit states a price and no limit ("The first Tk 25,000 you send in a calendar
    month is free."): its amounts answer no limit question."""
    cue = cue_text(text)
    return bool(_PRICE.search(cue)) and not _STATES_LIMIT.search(cue)


def limit_beside_price(question: str, best_text: str, text: str) -> bool:
    """Whether `text` states the limit a question asks beside a price, when the unit already chosen
    (`best_text`) states only the price ("the daily limit for adding money, and what fee applies?":
    "carries a 1% fee" is chosen, "The add money limit is Tk 50,000 a day." is the other fact)."""
    return asks_limit(question) and only_price(best_text) and not only_price(text) \
        and bool(_STATES_LIMIT.search(cue_text(text)))


def price_for_limit(question: str, text: str) -> bool:
    """Whether `text` states only a price while `question` asks only a limit: its amounts answer
    nothing asked (no typed value for the sentence model, no short answer)."""
    return asks_only_limit(question) and only_price(text)


def limit_for_price(question: str, text: str) -> bool:
    """Whether `text` states only a limit while `question` asks only a price, not how much one can
    do ("nano loan nile processing fee koto?": "You can borrow up to Tk 20,000 as a nano loan."): its
    amounts say how far one may go, not what it costs, so they answer nothing asked
    (`price_for_limit` the other way).

    >>> limit_for_price("What is the processing fee for a nano loan?", "You can borrow up to Tk 20,000 as a nano loan.")
    True
    >>> limit_for_price("What is the cash out fee?", "The cash out fee is 1.85%, up to Tk 25,000 a day.")
    False

    A range of amounts is a limit, both ends at once: "between Tk 20 and Tk 1,000" is no price.

    >>> limit_for_price("How much does mobile recharge cost?", "A single mobile recharge must be between Tk 20 and Tk 1,000.")
    True
    >>> limit_for_price("মোবাইল রিচার্জে কত খরচ?", "একবারে ২০ থেকে ১,০০০ টাকার মধ্যে রিচার্জ করা যায়।")
    True
    >>> limit_for_price("What does the hotline cost?", "The hotline answers between 9 am and 5 pm.")
    False

    "How much do I pay" asks a price without a price's word.

    >>> limit_for_price("How much do I pay to top up my phone?", "A single mobile recharge must be between Tk 20 and Tk 1,000.")
    True

    A question asking two things ("the fee, and how many times a day?") or naming a period asks a
    limit's figure beside the price, which such a unit may be.

    >>> limit_for_price("What's the fee to cash out and how many times per day?", "Up to 5 cash-outs a day.")
    False
    """
    cue = cue_text(question)  # "how much can I load per day?" asks a limit too
    return bool(_PRICE.search(cue) or _PAY.search(cue)) and not _LIMIT.search(cue) and not _CAN.search(cue) \
        and len(question_types(question)) < 2 and not periods_of(question) and only_limit(text)


# A price asked without a price's word: what one pays ("How much do I pay to top up my phone?",
# "কত টাকা দিতে হয়?", "koto taka dite hoy"). On the question only: "pay" is in every unit.
_PAY = re.compile(" how much (?:do|does|will|would|should|must) (?:i|we|you|one|it) (?:have to |need to )?pay "
                  f"| কত (?:টাকা )?দিতে হ(?:{YA}|বে) | koto (?:taka )?dite (?:hoy|hobe) ")


# The period a limit is counted in: a day, a week, a month, or one transaction. Limits of one
# service differ only by it (Tk 25,000 a day, Tk 1,50,000 a month), so a question that names one
# is answered by the unit that names the same. The help centre counts no limit by the week, so a
# question naming one ("সপ্তাহে সর্বোচ্চ কত", "weekly limit") is answered by none of its daily
# or monthly figures. Matched on `cue_text`.
# Whole words only: "দিনের" in "৩০ দিনের মধ্যে" is a deadline, not a daily limit.
_PERIODS = (("day", re.compile(" (?:daily|a day|per day|each day|every day|one day|in a day|today|dine|din e|doinik"
                               "|দৈনিক|দিনে|একদিনে) ")),
            ("week", re.compile(" (?:weekly|a week|per week|each week|every week|this week|in a week|one week"
                                "|soptahe|shoptahe|saptahe|সাপ্তাহিক|সপ্তাহে) ")),
            ("month", re.compile(" (?:monthly|a month|per month|each month|every month|this month|in a month|calendar month"
                                 "|mashe|mase|masik|মাসিক|মাসে|মাসের) ")),
            ("once", re.compile(" (?:per (?:recharge|transaction|send|cash out|cash-out)|in one go|at once|one time"
                                "|single (?:recharge|transaction|send)|each (?:recharge|transaction|time)|ekbare"
                                "|একবারে|প্রতিবার|প্রতি রিচার্জে|প্রতি লেনদেনে) ")))


@functools.lru_cache(maxsize=50_000)
def periods_of(text: str) -> frozenset[str]:
    """The periods a text names ("a day", "মাসে", "per recharge").

    >>> sorted(periods_of("Up to Tk 25,000 in total a day.")), sorted(periods_of("মাসিক সীমা কত?"))
    (['day'], ['month'])
    >>> sorted(periods_of("এক সপ্তাহে সর্বোচ্চ কত টাকা পাঠানো যায়?")), sorted(periods_of("Pending reviews finish within 24 hours, including on weekends."))
    (['week'], [])
    """
    cue = cue_text(text)
    return frozenset(name for name, pattern in _PERIODS if pattern.search(cue))


# How much one can (still) do ("how much more can I cash out today?", "আর কত টাকা তুলতে পারব?",
# "koto taka pathate parbo"), or whether one may do a stated amount ("30,000 today, can I?",
# "ত্রিশ হাজার টাকা … একবারে পারবো?"): the answer is how far one may go, the upper limit, never
# the least one must do. Matched on `cue_text`; য় in both of its encodings.
_CAN = re.compile(" (?:can|could|may) (?:i|we|you|he|she|they|my [a-z]+) | allowed | (?:parbo|parbe|pari|parben|jabe|jay) "
                  f"|পার(?:ব|বো|ি|বেন|বে|বি|া) |যাবে |যা{YA} ")
_HOW_MUCH = re.compile(" how (?:much|many) | (?:koto|koy) |কত(?:টা|গুলো|বার)? ")
# A question naming the upper end ("What's the biggest recharge I can do at once?", "the maximum
# recharge", "সর্বোচ্চ কত") asks it as "how much can I" does: a unit naming only the minimum answers neither.
_ASKS_HIGHER = re.compile(f" (?:maximum|max|highest|largest|biggest) | the most (?:i|we|you|one) can "
                          f"|স(?:র্|র)বোচ্চ|সবচে{YA}ে বেশি")
_ASKS_LOWER = re.compile(" (?:minimum|min|least|lowest|smallest) |স(?:র্|র)বনিম্ন|ন্যূনতম|নূন্যতম|কমপক্ষে"
                         f"|সবচে{YA}ে কম")
# What names the lower end of a rule ("The minimum cash out is Tk 50", "ন্যূনতম পরিমাণ ৫০ টাকা",
# "এর চেয়ে কম … যায় না") and what names its upper end or a limit as such.
_STATES_LOWER = re.compile(" (?:minimum|min|at least|no less than|lowest|smallest) |ন্যূনতম|নূন্যতম|স(?:র্|র)বনিম্ন|কমপক্ষে"
                           f"|চে{YA}ে কম ")
_STATES_UPPER = re.compile(" (?:maximum|max|up to|at most|no more than|limits?|capped|cap|ceiling|highest|in total) "
                           "|স(?:র্|র)বোচ্চ|সর্বাধিক|পর্যন্ত|সীমা|লিমিট")


@functools.lru_cache(maxsize=4096)
def asks_upper(question: str, states_number: bool = False) -> bool:
    """Whether a question asks how much one can (still) do, or (`states_number`: it states an
    amount) whether one may do that much: its answer is the upper limit (see `_CAN`). Not when
    it asks for the minimum.

    >>> asks_upper("How much more can I cash out today?"), asks_upper("What is the minimum I can cash out?")
    (True, False)
    >>> asks_upper("Can I cash out 30,000 taka today?", True), asks_upper("Can I cash out at an ATM?")
    (True, False)

    A question naming the upper end asks it too, unless it names the lower end as well.

    >>> asks_upper("What's the biggest recharge I can do at once?"), asks_upper("What are the minimum and maximum recharge?")
    (True, False)
    """
    cue = cue_text(question)
    if _ASKS_LOWER.search(cue):
        return False
    if _ASKS_HIGHER.search(cue):
        return True
    if not _CAN.search(cue):
        return False
    return states_number or bool(_HOW_MUCH.search(cue))


def asks_end(question: str) -> str | None:
    """"lower" when a question asks for the minimum and not the maximum ("What is the minimum
    deposit?", "সর্বনিম্ন কত?"), "upper" the other way round, None for neither or both."""
    cue = cue_text(question)
    lower, upper = bool(_ASKS_LOWER.search(cue)), bool(_ASKS_HIGHER.search(cue))
    return "lower" if lower and not upper else "upper" if upper and not lower else None


@functools.lru_cache(maxsize=4096)
def asks_more(question: str, qtype: str) -> bool:
    """Whether the question asks for an upper limit (`asks_upper`): how much (or how many
    times) one can do, or whether one may do an amount of money it states (a number of a hundred
    or more: "can i send 40000 today"; "2 months", "my son is 16" ask about a minimum)."""
    if qtype not in ("amount", "count", "yesno", "other"):
        return False
    money = False
    for s in typed_spans(question):
        if s.type == "amount" or s.type == "number" and any(len(n.split(".")[0].lstrip("0")) >= 3
                                                            for n in numbers(question[s.start:s.end])):
            money = True
    return asks_upper(question, money)


@functools.lru_cache(maxsize=50_000)
def only_lower(text: str) -> bool:
    """Whether a unit names only the lower end of a rule ("The minimum cash out is Tk 50."): its
    value answers no question about how much one can do (`asks_upper`).

    >>> only_lower("The minimum cash out is Tk 50."), only_lower("The minimum is Tk 20 and the maximum Tk 1,000.")
    (True, False)
    """
    cue = cue_text(text)
    return bool(_STATES_LOWER.search(cue)) and not _STATES_UPPER.search(cue)


def lower_for_upper(q_upper: bool, text: str, stated: frozenset[str] = frozenset()) -> bool:
    """Whether `text` names only a minimum while the question asks for the upper limit
    (`asks_upper`): its values answer nothing asked (no typed value, no echo, no short answer).
    Unless the question states an amount below that minimum (`stated`, its `number_values`, as the
    text's: "১ হাজার" is 1000): "can I recharge 15 taka?" is answered by "The minimum recharge is Tk 20".

    >>> lower_for_upper(True, "The minimum recharge is Tk 20."), lower_for_upper(True, "The minimum recharge is Tk 20.", frozenset({"15"}))
    (True, False)
    >>> lower_for_upper(True, "The minimum cash out is Tk 50.", frozenset({"30000"}))
    True
    """
    if not (q_upper and only_lower(text)):
        return False
    floor = min((v for v in map(_value, number_values(text)) if v is not None), default=None)
    return floor is None or not any(v is not None and v < floor for v in map(_value, stated))


def upper_for_lower(question: str, text: str) -> bool:
    """Whether `text` names only an upper limit while the question asks only for the minimum:
    its values answer nothing asked (`lower_for_upper` the other way round). The help centre
    states no cash-in minimum, and "up to Tk 2,00,000 a month" is not one.

    >>> upper_for_lower("ন্যূনতম কত টাকা ক্যাশ ইন করা যায়?", "এক মাসে মোট ২,০০,০০০ টাকা পর্যন্ত ক্যাশ ইন করা যায়।")
    True
    >>> upper_for_lower("What is the minimum recharge?", "A single mobile recharge must be between Tk 20 and Tk 1,000.")
    False
    >>> upper_for_lower("What are the minimum and maximum recharge?", "The maximum is Tk 1,000.")
    False
    """
    cue, said = cue_text(question), cue_text(text)
    if not _ASKS_LOWER.search(cue) or _ASKS_HIGHER.search(cue):
        return False
    return bool(_STATES_UPPER.search(said)) and not _STATES_LOWER.search(said) and not re.search(_RANGE, said)


def other_end(question: str, q_upper: bool, text: str, stated: frozenset[str] = frozenset()) -> bool:
    """Whether `text` names only the other end of a rule than the question asks (`lower_for_upper`,
    `upper_for_lower`)."""
    return lower_for_upper(q_upper, text, stated) or upper_for_lower(question, text)


def _value(number: str) -> float | None:
    """A number as `number_values` writes it, as a float; None for no plain decimal ("5.12.2026", "²")."""
    return float(number) if _DECIMAL.fullmatch(number) else None


_DECIMAL = re.compile("[0-9]+(?:[.][0-9]+)?")
_EXAMPLE = re.compile("^ (?:for example|for instance|suppose|let's say|উদাহরণ(?:স্বরূপ)?|ধরুন|ধরা যাক) ")


def illustrates(text: str) -> bool:
    """Whether a unit opens as a worked example ("For example, a payment of Tk 500 … earns 5
    points."): its values are the example's case, and answer a question only when the question
    brings numbers of its own ("I have 300 points …").

    >>> illustrates("For example, a payment of Tk 500 at a grocery shop earns 5 points."), illustrates("You earn 1 point per Tk 100.")
    (True, False)
    >>> illustrates("Suppose you have already sent Tk 25,000 this month."), illustrates("ধরুন, এ মাসে আপনি ২৫,০০০ টাকা পাঠিয়েছেন।")
    (True, True)
    """
    return bool(_EXAMPLE.match(cue_text(text)))


# An aside the article marks as one ("Note: …", "নোট: …", "বিঃদ্রঃ …", "দ্রষ্টব্য: …", "মনে রাখবেন, …"): a
# warning or a reminder beside the rule, in a paragraph of its own, not the rule the section states.
_ASIDE = re.compile("^ (?:(?:note|n b|nb|please note|remember|important|tip|warning|caution|নোট|দ্রষ্টব্য|বিশেষ দ্রষ্টব্য"
                    "|মনে রাখবেন|লক্ষ্য করুন|লক্ষ করুন|সতর্কতা) , |(?:বিঃদ্রঃ|বিঃ দ্রঃ|বি , দ্র) (?:, )?)")


@functools.lru_cache(maxsize=50_000)
def aside(text: str) -> bool:
    """Whether a unit opens as an aside the article marks ("Note: An agent may not charge more than
    the fee shown in the app."): it opens its paragraph, but states no section's rule.

    >>> aside("Note: These are cash in limits only."), aside("নোট: মাসের ফ্রি ২৫,০০০ টাকা আর দৈনিক সীমার ২৫,০০০ টাকা দুটি আলাদা হিসাব।")
    (True, True)
    >>> aside("মনে রাখবেন, এটিএমে চার্জ ১.৯৫%।"), aside("বিঃদ্রঃ পিন কাউকে বলবেন না।"), aside("Notes are kept for a year.")
    (True, True, False)
    """
    return bool(_ASIDE.match(cue_text(text)))


# The case a question names by its weekday ("Thursday-র সেলের টাকা কবে পাবো?", "if I sell on a Thursday"):
# a paragraph that states a rule and then the case ("Sales are settled … T+1. … so sales from a
# Thursday are settled on the following Saturday") answers it with the sentence naming the case, not
# its opening. (Names the question gives, "Visa", "ATM", were read as cases too, and not kept: "PIN",
# "OTP" and "QR" are names of most questions, and the openings they took `first` from were their answers.)
_WEEKDAY = re.compile("(?:(?<![A-Za-z])(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?![A-Za-z])"
                      "|(?<![\u0980-\u09ff])(?:সোম|মঙ্গল|বুধ|বৃহস্পতি|শুক্র|শনি|রবি)বার)", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def case_words(question: str) -> tuple[str, ...]:
    """The weekdays a question names: the case it asks about.

    >>> case_words("মার্চেন্ট অ্যাকাউন্টে Thursday-র সেলের টাকা কবে পাবো?"), case_words("বৃহস্পতিবারের সেলের টাকা কবে পাবো?")
    (('Thursday',), ('বৃহস্পতিবার',))
    >>> case_words("When does the money arrive?")
    ()
    """
    return tuple(dict.fromkeys(m.group(0) for m in _WEEKDAY.finditer(question)))


def other_day(question: str, kind: str, value: str) -> bool:
    """Whether a typed value is a weekday ("on the following Saturday", `answertypes` reads it as a
    time) while the question names none: a weekday answers "when" only for the weekday case a
    question names ("Thursday-র সেলের টাকা কবে পাবো?"); "when is my money settled?" asks the rule.

    >>> other_day("When do Thursday's sales arrive?", "time", "on the following Saturday"), other_day("When do sales arrive?", "time", "on Tuesday")
    (False, True)
    """
    return kind == "time" and bool(_WEEKDAY.search(value)) and not _WEEKDAY.search(question)


# A sentence that introduces a list or table of examples: "Here are some examples of the fee at an
# agent:", "Any transaction you make resets the count, for example:", "যেমন:".
_EXAMPLES_LEAD = re.compile(" (?:examples?|for instance|উদাহরণ(?:স্বরূপ)?|যেমন) ")


@functools.lru_cache(maxsize=50_000)  # per unit text, read again for every question
def illustrates_in(text: str, lead: str) -> bool:
    """Whether a unit is a worked example: it opens as one (`illustrates`), or it is a row or item
    of a table or list its `lead` sentence introduces as examples ("Here are some examples of the
    fee at an agent:" before "Tk 1,000 — Fee at an agent: Tk 18.50").

    >>> illustrates_in("Tk 1,000 — Fee at an agent: Tk 18.50", "Here are some examples of the fee at an agent:")
    True
    >>> illustrates_in("Up to Tk 25,000 in total a day.", "For a personal account, the limits are:")
    False
    """
    return illustrates(text) or bool(lead) and lead.rstrip().endswith(":") and bool(_EXAMPLES_LEAD.search(cue_text(lead)))



_INCLUDED = re.compile("([\u0980-\u09ff]{2,})সহ(?![\u0980-\u09ff])"
                       "|(?:^|[^A-Za-z])including (?:(?:the|your|my|any|all|a|an) )?([A-Za-z]{3,})", re.IGNORECASE)
# A column that is itself a total with something ("চার্জসহ মোট", "Total incl. fee") states what is asked.
_TOTAL_COLUMN = re.compile("সহ|মোট|total|incl", re.IGNORECASE)


def included_column(question: str, unit: str) -> bool:
    """Whether `unit` is a table row or cell read as "row — column: cell" whose column the
    question names only as what its total includes: "প্রণোদনাসহ মোট কত টাকা পাব?" asks the total
    with the incentive, so the incentive's cell states no value it asks for.

    >>> included_column("১০,০০০ টাকা এলে প্রণোদনাসহ মোট কত টাকা পাব?", "১০,০০০ টাকা — প্রণোদনা (২.৫%): ২৫০ টাকা")
    True
    >>> included_column("১০,০০০ টাকা এলে প্রণোদনাসহ মোট কত টাকা পাব?", "১০,০০০ টাকা — মোট যা পাবেন: ১০,২৫০ টাকা")
    False
    """
    if " — " not in unit:
        return False
    column = unit.split(" — ", 1)[1].split(":", 1)[0].strip().lower()
    if _TOTAL_COLUMN.search(column):
        return False
    for m in _INCLUDED.finditer(question):
        word = (m.group(1) or m.group(2) or "").lower()
        if word and column.startswith(word):
            return True
    return False


def another_row(question: str, unit: str) -> bool:
    """Whether `unit` is a table row read as "row — column: cell" whose row names a number, and that
    states none of the numbers the question states: its cells answer another case than the asked one ("৪০ হাজার টাকা
    রেমিট্যান্স এলে প্রণোদনা কত পাব?" is answered by the row of ৪০,০০০ টাকা, not by that of ১০,০০০).

    >>> q = "৪০ হাজার টাকা রেমিট্যান্স এলে প্রণোদনা কত পাব?"
    >>> another_row(q, "১০,০০০ টাকা — প্রণোদনা (২.৫%): ২৫০ টাকা"), another_row(q, "৪০,০০০ টাকা — প্রণোদনা (২.৫%): ১,০০০ টাকা")
    (True, False)
    >>> another_row("How much is the incentive?", "১০,০০০ টাকা — প্রণোদনা (২.৫%): ২৫০ টাকা"), another_row(q, "Amount per day — Tk 25,000")
    (False, False)
    >>> another_row("How many reward points do I need to redeem for Tk 50?", "500 — Wallet balance: Tk 50")
    False
    """
    if " — " not in unit or not number_values(unit.split(" — ", 1)[0]):
        return False
    asked = number_values(question)  # in the row or its cells: "500 — Wallet balance: Tk 50" for "points for Tk 50?"
    return bool(asked) and frozenset(number_values(unit)).isdisjoint(asked)


def included_rate(question: str, unit: str, start: int, end: int) -> bool:
    """Whether the percent unit[start:end] is the rate of what the question's total includes, named
    within three words of it: "প্রণোদনাসহ মোট কত টাকা পাব?" asks the total with the incentive, and
    "২.৫% সরকারি প্রণোদনা" states the incentive's rate, no total.

    >>> q = "১০,০০০ টাকা এলে প্রণোদনাসহ মোট কত টাকা পাব?"
    >>> s = "প্রবাসী আয়ের সঙ্গে ২.৫% সরকারি প্রণোদনা যোগ হয়।"
    >>> included_rate(q, s, s.index("২.৫%"), s.index("২.৫%") + 4)
    True
    >>> included_rate("মোট কত টাকা পাব?", s, s.index("২.৫%"), s.index("২.৫%") + 4)
    False
    """
    if not unit[start:end].rstrip().endswith("%"):
        return False
    near = unit[:start].lower().split()[-3:] + unit[end:].lower().split()[:3]
    for m in _INCLUDED.finditer(question):
        word = (m.group(1) or m.group(2) or "").lower()
        if word and any(w.strip(".,;:()।").startswith(word) for w in near):
            return True
    return False
