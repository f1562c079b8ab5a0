"""Two-fact questions: does a question ask for two values, and which half does a unit leave out?

"What are the minimum and maximum amounts?", "the fee and the limit", "cash in or cash out",
"ক্যাশ ইন আর ক্যাশ আউটের": the answerer then quotes a second unit that speaks of the half the
first one leaves out, and gives a short answer for each.

>>> asks_two("What is the minimum and what is the maximum?"), asks_two("Is cash in free?")
(True, False)
>>> facets("What are the minimum and maximum amounts?")
(('minimum',), ('maximum', 'amount'))
"""

from __future__ import annotations

import functools
import math
import re

from raglab.answer.sentences import fresh_spans, lang_of, numbers_of, spans_of
from raglab.text.analyzer import analyze
from raglab.text.answertypes import accepts, asks_choice, asks_something, question_type
from raglab.text.contrasts import asked_place, left_out, names_both_asked
from raglab.text.numbers import one_worked_case
from raglab.text.splitter import abbreviation_goes_on

# What joins the two halves of a two-fact question ("the fee and the limit", "cash in or cash
# out", "compared with an ATM", "ক্যাশ ইন আর ক্যাশ আউটের"). Explicit ASCII classes, never \b.
_JOIN = re.compile("(?:^|(?<=[^A-Za-z]))(?:and|or|compared (?:with|to)|versus|vs\\.?|as well as)(?=[^A-Za-z])|"
                   "(?:^|(?<=[^\u0980-\u09ff]))(?:এবং|আর|ও|নাকি|বনাম|তুলনায়)(?=[^\u0980-\u09ff]|$)", re.IGNORECASE)


# Where a sentence of the question ends: "?", "!", "।", or a full stop before a space (not the one of
# an abbreviation, "vs.", "e.g.", `splitter.abbreviation_goes_on`, nor a decimal point, which no space
# follows). Explicit classes, never \s: the Unicode database differs between Pythons.
_SENTENCE_END = re.compile("(?<=[?!\u0964])|(?<=[^0-9]\\.)(?=[ \t\n\r])")
_CLAUSE = re.compile("[,;:]")


def asking_sentences(question: str) -> list[tuple[int, str]]:
    """(offset, text) of the sentences of a question that ask: those that hold a "?", or every
    sentence when none does. A customer often tells the story first ("made my account yesterday,
    my cousin sent me 2000 tk and i can see it in the balance. what's wrong?"): an "and" there
    joins what happened, not two things asked. With no "?", those that hold a cue of what is asked
    (`answertypes.asks_something`: "my phone got stolen … and the app was on it. what do i do")."""
    cuts = [m.start() for m in _SENTENCE_END.finditer(question)
            if question[m.start() - 1] != "." or not abbreviation_goes_on(question, m.start() - 1)]
    out = []
    for at, stop in zip([0, *cuts], [*cuts, len(question)]):
        if question[at:stop].strip():
            out.append((at, question[at:stop]))
    asking = [(i, t) for i, t in out if "?" in t] or [(i, t) for i, t in out if asks_something(t)]
    return asking or out


def _in_name(sentence: str, m: re.Match) -> bool:
    """A joining word between two capitalised Latin words belongs to a name ("David and
    Goliath", "Educational, Scientific and Cultural Organization"): one thing is asked about."""
    before = sentence[:m.start()].rstrip().rsplit(" ", 1)[-1]
    after = sentence[m.end():].lstrip().split(" ", 1)[0]
    return bool(before) and bool(after) and "A" <= before[0] <= "Z" and "A" <= after[0] <= "Z"


@functools.lru_cache(maxsize=4096)
def _joins(question: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of the joining words that join two things asked: in an asking sentence, not inside a name,
    and not offering the alternatives of a yes/no or choice clause ("When I recharge, does the money go to
    the main balance or some bonus balance?": one answer, `answertypes.asks_choice`). The clause runs from the last comma
    before the word (the one before that when the word opens its clause) to the end of its
    sentence."""
    out = []
    for at, sentence in asking_sentences(question):
        for m in _JOIN.finditer(sentence):
            if _in_name(sentence, m):
                continue
            cuts = [0] + [c.end() for c in _CLAUSE.finditer(sentence, 0, m.start())]
            if len(cuts) > 1 and not sentence[cuts[-1]:m.start()].strip():
                cuts.pop()  # ", and is there a charge?", ", নাকি বেশি?": the clause before it asks
            if question_type(sentence[cuts[-1]:]) == "yesno" or asks_choice(sentence[cuts[-1]:]):
                continue
            out.append((at + m.start(), at + m.end()))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)  # read once per answer composed, of the same few questions
def asks_two(question: str) -> bool:
    """A question that asks for two values: a joining word ("and", "or", "compared with", এবং, ও,
    আর, নাকি) between two things asked (`_joins`), or two clauses of its asking sentences that ask
    for two kinds of value ("কত টাকা, কত দিনে?"). One phrase may hit two kinds of cue ("how many
    days": a count and a duration; "koto din"), and "What is" names an entity beside any other
    type ("What is the most I can send in a month?" asks one amount), so kinds count per clause
    and an entity is no second kind.

    >>> asks_two("What is the most I can send in a month?")
    False
    >>> asks_two("How much can I borrow, and at what interest rate?")
    True
    >>> asks_two("my cousin sent me 2000 tk and i can see it in the balance but it won't let me cash out. what's wrong?")
    False
    """
    if _joins(question):
        return True
    for _, sentence in asking_sentences(question):
        kinds = {question_type(c) for c in _CLAUSE.split(sentence)} - {"entity"}
        if len([k for k in kinds if accepts(k)]) >= 2:
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _parts(question: str) -> tuple[str, str]:
    """The asking sentences' text before the joining word of two asked things (`_joins`), and
    after it; ("", "") when nothing joins two things asked. Of several, the last that opens its
    clause or sentence (`_opens`), else the last: "How long do you have to sort it out, and if I'm
    still unhappy and go to the GRO, how long do they take to reply?" asks two durations, joined by
    ", and"; the later "and" joins two steps of the second half's story, and cut there the first
    half held every word of the first duration and half of the second's.

    >>> _parts("How long do you have, and if I'm unhappy and go to the GRO, how long do they take?")[0]
    'How long do you have, '
    """
    joins = _joins(question)
    if not joins:
        return "", ""
    start, end = next((j for j in reversed(joins) if _opens(question, j[0])), joins[-1])
    asking = asking_sentences(question)
    before = " ".join(question[at:min(at + len(t), start)] for at, t in asking if at < start)
    after = " ".join(question[max(at, end):at + len(t)] for at, t in asking if at + len(t) > end)
    return before, after


def _opens(question: str, start: int) -> bool:
    """Whether the joining word at `start` opens its clause or sentence (", and …", "? আর …")."""
    return question[:start].rstrip()[-1:] in (",", ";", ":", "?", "!", "\u0964")


def answered_half(question: str, text: str) -> int | None:
    """Which half of a two-fact question a unit's `text` answers by its value: 0 (the part before
    the joining word) or 1, when the halves ask for different types of value and the unit states
    one of that half's type (`states_asked`) and none of the other's; None otherwise. The words do
    not tell: "what does Shapla Pay take from each sale, and … when does that money reach my
    bank?" is answered by "Sales are settled … on the next working day", which holds "sale" of the
    first half and a time, the second half's answer; "how long" asks, and no unit holds "long".

    >>> answered_half("What is the fee, and how long does it take?", "It takes up to 3 days.")
    1
    >>> answered_half("What are the minimum and maximum amounts?", "The minimum is Tk 20.") is None
    True
    """
    before, after = _parts(question)
    if not before.strip() or not after.strip():
        return None
    kinds = (question_type(before), question_type(after))
    if kinds[0] == kinds[1]:
        return None
    numbers = numbers_of(question)
    said = [bool(accepts(k)) and states_asked((k,), numbers, text) for k in kinds]
    if said[0] == said[1]:
        return None
    return 0 if said[0] else 1


@functools.lru_cache(maxsize=4096)  # asked once per candidate of a two-fact question
def facets(question: str) -> tuple[tuple, tuple]:
    """The terms only the part before the last joining word of two asked things (`_joins`) has,
    and those only the part after it has, in question order ("daily limits for cash in and for
    cash out": (daily, amount, limit) and (out,)). Both parts are read from the asking sentences
    only: the story told before the question is neither half ("Want to top up from my Visa card.
    What's the fee, and how much can I load per day?": (fee,) and (much, load, per, day)).

    >>> facets("Want to top up from my Visa card. What's the fee, and how much can I load per day?")[0]
    ('fee',)
    """
    before, after = _parts(question)
    left, right = analyze(before), analyze(after)
    only_left = tuple(dict.fromkeys(t for t in left if t not in right))
    only_right = tuple(dict.fromkeys(t for t in right if t not in left))
    return only_left, only_right


def held(c) -> frozenset:
    """The question terms a candidate unit `c` holds for the halves of a two-fact question: its own
    and its section heading's; a table cell's own only (its row's name, its column's name and the
    value), for its column says which fact it states, and the heading names every column's ("Fees
    and limits" over the Per transaction cell "Cash out at a partner bank ATM — Per transaction:
    Minimum Tk 50" held "fee", so a question asking the ATM's fee and its minimum had no half left
    out, and a sentence without the fee was quoted for it)."""
    return c.found if c.unit.cell else c.found | c.in_heading


def missing_half(question: str, have, text: str = "") -> tuple[str, ...] | None:
    """The words of the half of a two-fact question that a unit holding the terms `have` (its
    own and its heading's) leaves out, any of which a second unit must hold; None when it holds
    both halves or neither.

    First the contrasting words: the last word only the part before the joining word has, and
    the first only the part after it has ("minimum and maximum", "cash in and cash out"). When
    the unit holds both of those, or neither, every word only one part has decides: the half
    of which the unit holds the smaller share is missing, by its words the unit lacks ("how much
    can I borrow with a nano loan, and at what interest rate?": a unit on the rate and the loan
    lacks "borrow").

    >>> missing_half("What are the minimum and maximum amounts?", {"minimum", "amount"})
    ('maximum',)
    >>> missing_half("How much can I borrow with a nano loan, and at what interest rate?", {"interest", "rate", "loan", "nano"})
    ('much', 'borrow')
    """
    left, right = facets(question)
    half = answered_half(question, text) if text else None
    gone = () if half is None else tuple(t for t in (right if half == 0 else left) if t not in have)
    if gone:  # its value answers one half: the other is missing, by its words the unit lacks
        return gone
    marks = [t for t in (left[-1:] + right[:1]) if t not in have]
    if len(marks) == 1:
        return (marks[0],)
    gone_left = tuple(t for t in left if t not in have)
    gone_right = tuple(t for t in right if t not in have)
    if not left or not right or not (gone_left or gone_right):
        return None
    held_left = (len(left) - len(gone_left)) * len(right)  # shares compared without division
    held_right = (len(right) - len(gone_right)) * len(left)
    if held_left < held_right:
        return gone_left
    if held_right < held_left:
        return gone_right
    return None


def answers_later(question: str, c) -> bool:
    """Whether a unit `c` answers the half of a two-fact question asked after the joining word and
    leaves the one before it out (`missing_half` of the terms it holds, `held`): "Cash in at an agent
    — Monthly limit: Tk 2,00,000" for "What is the cash in fee at an agent and the monthly limit?"
    (a cell's column names its fact; the value's type decides when the halves ask different types).

    >>> from types import SimpleNamespace as N
    >>> cell = N(found=frozenset({"monthly", "limit", "cash", "agent"}), unit=N(cell="Monthly limit: Tk 2,00,000", text="Cash in at an agent — Monthly limit: Tk 2,00,000"))
    >>> answers_later("What is the cash in fee at an agent and the monthly limit?", cell)
    True
    """
    return half_of(question, c) == 1


def half_of(question: str, c) -> int | None:
    """Which half of a two-fact question a unit `c` answers: 0 (the part before the joining word) or
    1, the other one than the half it leaves out (`missing_half` of the terms it holds, `held`);
    None when that is not known."""
    marks = missing_half(question, held(c), c.unit.text)
    left, right = facets(question)
    if marks and all(m in left for m in marks):
        return 1
    return 0 if marks and all(m in right for m in marks) else None


def value_half(question: str, text: str) -> int | None:
    """`answered_half`, when both halves of the question ask a kind of value: "এজেন্ট আর … এটিএমে
    ক্যাশ আউটের চার্জে পার্থক্য কী?" has a half of one word, which asks for no value, and every charge
    would answer the other."""
    before, after = _parts(question)
    return answered_half(question, text) if accepts(question_type(before)) and accepts(question_type(after)) else None


def unit_half(question: str, c) -> int | None:
    """Which half of a two-fact question a unit `c` answers: by the half of a contrast it names when
    the question names both (cash in and cash out, `contrasts.asked_place`), by the kind of value it
    states when the halves ask different kinds (`value_half`), else by the half its words leave out
    (`half_of`)."""
    halves = getattr(c, "halves", None) or ()
    if names_both_asked(question, halves):
        return None  # it names both halves the question contrasts: it answers either ("You can cash in up to …, but … cash out …")
    half = asked_place(question, halves) if halves else None
    half = value_half(question, c.unit.text) if half is None else half
    return half_of(question, c) if half is None else half


def half_text(question: str, c) -> str:
    """The words of the half of a two-fact question a unit `c` answers (`half_of`), or the question."""
    half = half_of(question, c)
    return question if half is None else _parts(question)[half]


# The words that ask what, why or how ("… তাহলে কী হয়?", "what happens then?"): a half of a two-fact
# question holding one asks a question of its own, not the other half's value in fewer words ("the
# minimum and [the] maximum?"). Explicit classes, never \b.
_ASKS_WHAT = re.compile("(?:^|(?<=[^A-Za-z]))(?:what|why|how)(?=[^A-Za-z]|$)|"
                        "(?:^|(?<=[^\u0980-\u09ff]))(?:কী|কেন|কীভাবে|কিভাবে|কী ভাবে)(?=[^\u0980-\u09ff]|$)", re.IGNORECASE)


def asks_no_value(question: str, marks) -> bool:
    """Whether the half of a two-fact question whose words `marks` are (`missing_half`) asks a
    question of its own that no value answers: what happens, why, how ("টাকাটা যদি তখনও ওই লোকের
    ওয়ালেটে থাকে, তাহলে কী হয়? আর পুরো পর্যালোচনা কত দিনে শেষ হয়?"). A unit stating a value of the
    other half's kind beside one of its words ("আমাদের হটলাইন ২৪ ঘণ্টা খোলা থাকে": থাকে) answers
    neither half.

    >>> asks_no_value("What happens if I miss a payment, and how many days do I get?", ("happen", "miss", "payment"))
    True
    >>> asks_no_value("What are the minimum and maximum amounts?", ("maximum",))
    False
    """
    left, right = facets(question)
    before, after = _parts(question)
    side = before if marks and all(m in left for m in marks) else after if marks and all(m in right for m in marks) else ""
    kind = question_type(side) if side.strip() else ""
    return kind in ("other", "procedure") and bool(_ASKS_WHAT.search(side))


def asks_a_value(question: str, marks) -> bool:
    """Whether the half of a two-fact question whose words `marks` are (`missing_half`) asks for a
    value a short answer can show: not a question of its own that no value answers
    (`asks_no_value`: what happens, why, how), nor a yes/no one ("… and will they ask for my
    PIN?"); "which terms can I choose from?" asks for the terms ("1, 2 or 3 years").

    >>> asks_a_value("What is the profit rate and which terms can I choose from?", ("term", "choose"))
    True
    >>> (asks_a_value("How soon is my account blocked, and will they ask for my PIN?", ("will", "they", "ask", "pin")),
    ...  asks_a_value("Before I pay, how much is taken in all, can I see that in the app? And what is the least I can take out?", ("much", "see")))
    (False, False)
    """
    if not marks or asks_no_value(question, marks):
        return False
    left, right = facets(question)
    before, after = _parts(question)
    side = before if all(m in left for m in marks) else after if all(m in right for m in marks) else ""
    clauses = [c for c in _CLAUSE.split(side) if c.strip()]
    # The clause that asks is the half's last: "… মোট কত টাকা কাটবে, সেটা কি অ্যাপে দেখা যায়?" asks yes or no.
    return bool(clauses) and "yesno" not in (question_type(side), question_type(clauses[-1]))


def half_words_first(q, order: list, margin: float) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits put
    first that states a value for the best one's half of a two-fact question (`answered_half`,
    `unit_half` agreeing), in its language, holding more idf mass of that half's words (`held`):
    "ফেরতের অনুরোধ করার শেষ সময় — ৩০ দিনের মধ্যে" (a deadline) was best for "… আর পুরো পর্যালোচনা কত
    দিনে শেষ হয়?", 0.17 logits above "পুরো পর্যালোচনা ১০ কার্যদিবসের মধ্যে শেষ হয় …"."""
    if len(order) < 2 or not asks_two(q.text):
        return order
    best = order[0][1]
    half = answered_half(q.text, best.unit.text)
    if half is None or unit_half(q.text, best) != half:  # a contrast's half ("cash in and cash out") is named, not typed
        return order
    words = facets(q.text)[half]
    own = math.fsum([q.weights.get(t, 0.0) for t in words if t in held(best)])
    for i, (z, c) in enumerate(order[1:], 1):
        if order[0][0] - z > margin:
            break
        if lang_of(c.unit.text) == lang_of(best.unit.text) and answered_half(q.text, c.unit.text) == half == unit_half(q.text, c) \
                and math.fsum([q.weights.get(t, 0.0) for t in words if t in held(c)]) > own:
            return [order[i]] + order[:i] + order[i + 1:]
    return order


def named_row(q, best, order: list):
    """The first table row of `best`'s article named (its first cell, no figure: not a worked
    example) by a word of the half `best` leaves out (`missing_half`), stating a figure `best` and
    the question do not, when that half asks a value (`asks_a_value`) and no contrast (cash in,
    cash out) decides: "Term — Details: 1, 2 or 3 years" (0.003) for "which terms can I choose
    from?", not the likelier "The profit is added at the end of the term …", which states none."""
    marks = missing_half(q.text, held(best), best.unit.text) or ()
    if left_out(q.text, best.halves) is not None or not asks_a_value(q.text, marks):
        return None
    known = numbers_of(best.unit.text) | q.numbers
    for _, c in order[1:]:
        if c.unit.kind == "row" and c.quote.doc == best.quote.doc and c.quote.start != best.quote.start \
                and any(t in analyze(c.unit.row_key) for t in marks) and not numbers_of(c.unit.row_key) and numbers_of(c.unit.text) - known:
            return c
    return None


def most_of_half(question: str, weights: dict, have, text: str, passing: list) -> list:
    """`passing` (candidates naming the half of a two-fact question that a unit holding the terms
    `have` with the `text` leaves out, likeliest first) with the ones holding the most idf mass
    (`weights`) of that half's words (`missing_half`) first, the likelier first among equals. A
    unit passes on any one word of the half, and the likeliest often holds only its weakest ("করা",
    do, of "ক্যাশ আউট করার আগে চার্জসহ মোট কত টাকা কাটবে, সেটা কি অ্যাপে দেখা যায়?"), while the
    unit that answers it holds most of them ("… অ্যাপে চার্জসহ মোট কত টাকা কাটা হবে তা দেখানো হয়")."""
    marks = missing_half(question, have, text) or ()
    mass = [math.fsum([weights.get(t, 0.0) for t in marks if t in held(c)]) for c in passing]
    return [passing[i] for i in sorted(range(len(passing)), key=lambda i: (-mass[i], i))]


def other_kind(asked, question_numbers: frozenset[str], best: tuple, other: tuple) -> bool:
    """Whether a unit (`other`: its terms with its heading's, and its text) states a value of a
    kind the question asks for (`asked`: `answertypes.question_types`, two kinds or more) that the
    best unit (`best`, alike) does not ("how much can I borrow, and at what interest rate?": an
    amount and a percentage; values the question states itself do not count). A kind is read
    as every span type that answers it (`answertypes.accepts`: a fee of "1.5%" answers "what
    fee") but those another asked kind names itself (the percentage beside "how much"), and
    never a bare number or a capitalised name, which any sentence may hold."""
    if len(asked) < 2:
        return False
    for t in asked:
        wanted = tuple(a for a in accepts(t) if (a == t or a not in asked) and a not in ("number", "name"))
        if not fresh_spans(spans_of(best[1]), best[1], wanted, question_numbers) and \
                fresh_spans(spans_of(other[1]), other[1], wanted, question_numbers):
            return True
    return False


def states_each(asked, question_numbers: frozenset[str], text: str) -> bool:
    """Whether a unit's `text` states a value of each of the first two kinds a question asks for
    (`asked`, read as `other_kind` reads a kind): "The interest rate is 9% a year, and the loan must
    be repaid within 3 months." answers "সুদ কত, আর কত দিনের মধ্যে শোধ করতে হবে?" whole, though
    the half asking "how many days" has no word of it ("months").

    >>> states_each(["percent", "duration"], frozenset(), "The rate is 9% a year, repaid within 3 months.")
    True
    >>> states_each(["percent", "duration"], frozenset(), "The rate is 9% a year.")
    False
    """
    if len(asked) < 2 or asked[0] == asked[1]:
        return False
    spans = spans_of(text)
    return all(fresh_spans(spans, text, tuple(a for a in accepts(t) if (a == t or a not in asked[:2]) and a not in ("number", "name")),
                           question_numbers) for t in asked[:2])


def restates(best_text: str, other_text: str, question_numbers: frozenset[str]) -> bool:
    """Whether a unit states numbers, all of which the best unit states too (the question's own
    aside): it repeats the first fact ("… within 30 days of the transaction." and the table row
    "Deadline: within 30 days"), so it is no second one.

    >>> restates("Refunds must be asked for within 30 days.", "Deadline — within 30 days", frozenset())
    True
    >>> restates("Up to Tk 25,000 a day.", "Up to Tk 1,50,000 a month.", frozenset())
    False
    """
    stated = numbers_of(other_text) - question_numbers
    return bool(stated) and stated <= numbers_of(best_text)


def states_asked(asked, question_numbers: frozenset[str], text: str) -> bool:
    """Whether a unit states a value of a kind the question asks for (`asked`:
    `answertypes.question_types`; any value when it asks for none), not one the question states
    itself and never a bare number or a name: "আমরা যাচাই করি" after the request says a word of
    "জানানোর পর কত দিন" but no duration.

    >>> states_asked(("amount",), frozenset(), "Adding money from a card carries a 1% fee.")
    True
    >>> states_asked(("duration",), frozenset(), "অনুরোধ পাওয়ার পর আমরা লেনদেনটি যাচাই করি।")
    False
    """
    if not asked:
        return True
    wanted = tuple(a for t in asked for a in accepts(t) if a not in ("number", "name"))
    return bool(fresh_spans(spans_of(text), text, wanted, question_numbers))


def states_one_case(q, best) -> bool:
    """Whether a limit question's chosen candidate is a worked row's value for one amount
    (`numbers.one_worked_case`): the answerer abstains, as for another period's figure."""
    return q.limit and one_worked_case(q.text, best.unit.row_key)
