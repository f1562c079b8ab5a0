"""The question's language first: which of two units that say the same thing is quoted.

The help centre states most facts twice, once in each language (an article and its twin), so a
question's candidates often hold the same sentence in both. Two rules prefer the question's own:

- `in_own_language`: when the best unit is in the other language and a unit in the question's
  language scores within `LANG_MARGIN` logits of it and states what it states (`says_as_much`:
  its numbers, or when it has none as much of the question as the other language can say),
  that one is quoted instead.
- `own_twin`: a further quote in the other language (the runner-up, the other fact of a
  two-fact question) is read for the values it states; when a candidate in the question's
  language states them too, that one is quoted instead, or nothing more when it is the unit
  already shown (a Bangla twin sentence under its English original repeats it in a language the
  reader did not ask in: "Tk 18.50" and then "১৮.৫০ টাকা").

Values, not words, tell twins apart (the two languages share no words, but write the same
numbers, `text.numbers` folds Bangla digits), so a further quote that states no number is never
swapped; a best unit that states none gives way only to a unit holding as much of the question.

Once the confidence is known, each quote still in the other language shows its twin article's unit
when it answers with the same values (`in_asked_language`). Two promotions that read values as
these rules do, in either language, sit here too: the worked example's row of a figure the
question states (`the_example_first`), and a limit stated for every period when the question
names none (`every_period_first`).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from raglab.answer.candidates import MAX_WORDS, word_count
from raglab.answer.facts import asks_two
from raglab.answer.results import Quote, requoted
from raglab.answer.sentences import COL, Question, lang_of, numbers_of, spans_of
from raglab.answer.short import short_spans
from raglab.answer.shorts import shorts
from raglab.answer.units import DASH, units_around
from raglab.question.asking import periods_of
from raglab.text.analyzer import tokens
from raglab.text.contrasts import names_another_half
from raglab.text.numbers import number_values, numbers

_NUMBER = re.compile("[0-9.,]+")  # a number term (the analyzer writes Bangla digits as ASCII ones)
LANG_MARGIN = 1.0  # logits: a unit in the question's language this close to the best one is quoted instead


def in_own_language(q: Question, order: list) -> list:
    """`order` ((logit, candidate), best first) with the best unit in the question's language put
    first when the best unit is in the other language and that one scores within LANG_MARGIN
    logits of it and can stand for it (`says_as_much`: the Bangla twin of an English sentence,
    for a question asked in Bangla); otherwise `order` itself."""
    if not order:
        return order
    if lang_of(order[0][1].unit.text) == q.lang:
        return says_more(q, order)
    best = order[0][1]
    return promoted(order, lambda c: lang_of(c.unit.text) == q.lang and says_as_much(q, best, c))


def says_more(q: Question, order: list, margin: float = LANG_MARGIN) -> list:
    """`order` with a Bangla unit put first for an English question whose best unit is English,
    when the Bangla one scores within `margin` logits of it and holds more of the question's idf
    mass than the best unit does, both weighed on the terms a Bangla unit can hold (`sayable`);
    of several, the one holding the most. The mirror of `says_as_much`: some facts only the
    Bangla article states ("Can I give my Priyo numbers names …?": "নম্বরের সঙ্গে চেনার মতো একটি
    নাম দিন …"), and the English unit that scores close then holds the topic's words, not the
    asked ones. Not for Bangla questions (an English unit's loanword, "চার্জ" through "charge",
    outweighed the Bangla answer's own verbs, which no alias says), nor for a question asking two
    facts (its best unit holds one half only); a best unit holding a value of the asked type gives
    way only to one holding one too, and the terms the Bangla unit holds beyond the best unit's
    must not be numbers alone ("10" of "১০ কার্যদিবসের" is no "10 minutes"). A Bangla unit whose values
    the best unit states too is its twin, which `in_own_language` would put back: the English one stays
    ("how much does it cost to withdraw 1000 taka …": not "… ১,০০০ টাকা ক্যাশ আউটে …")."""
    if q.lang != "en" or asks_two(q.text):
        return order
    best = order[0][1]
    pick, top = 0, 0.0
    for i, (z, c) in enumerate(order[1:], 1):
        if order[0][0] - z > margin:
            break
        lang = lang_of(c.unit.text)
        if lang == q.lang or numbers_of(c.unit.text) and says_as_much(q, c, best):
            continue  # the best unit's twin (it states the values the Bangla one answers with): `in_own_language`'s case
        if best.features[COL["typed"]] > 0 and not c.features[COL["typed"]] > 0:
            continue
        reach = sayable(q, lang)
        if all(_NUMBER.fullmatch(t) for t in (c.found & reach) - best.found):
            continue
        more = _mass(q, c.found & reach)
        if more > _mass(q, best.found & reach) and more > top:
            pick, top = i, more
    return order if not pick else [order[pick]] + order[:pick] + order[pick + 1:]


def promoted(order: list, takes, margin: float = LANG_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first candidate after the best that
    scores within `margin` logits of it and that `takes` put first; otherwise `order` itself."""
    for i, (z, c) in enumerate(order[1:], 1):
        if order[0][0] - z > margin:
            break
        if takes(c):
            return [order[i]] + order[:i] + order[i + 1:]
    return order


def says_as_much(q: Question, other, own) -> bool:
    """Whether `own`, a unit in the question's language, can be quoted for `other`, the better
    unit in the other language: it states every value `other` answers with (`stated_values`:
    twins write the same values; an English sentence may say more around them than its Bangla
    twin, "up to 50 sends a day, but the daily amount is the same Tk 25,000" against "দিনে
    সর্বোচ্চ ৫০ বার"), or, when `other` states no number, its own words hold at least as much of
    the question's idf mass. A question whose fact only the other language's article states has no twin,
    and the unit of its own language that scores close is then another sentence ("Operators
    sometimes run internet … offers" for "Does the amount have to match the pack price
    exactly?", whose answer is the Bangla "… প্যাকের দাম হুবহু লিখতে হবে"). Both are weighed on
    the terms a unit of `other`'s language can hold (`sayable`)."""
    if numbers_of(other.unit.text):
        return stated_values(q, other.unit.text, [q.qtype]) <= numbers_of(own.unit.text)
    reach = sayable(q, lang_of(other.unit.text))
    return _mass(q, own.found & reach) >= _mass(q, other.found & reach)


def sayable(q: Question, lang: str) -> frozenset[str]:
    """The question's terms a unit in `lang` can hold at all: its numbers, the terms written in
    that language's script, and those with an alias in it (the expansion table's, a loanword's).
    A unit of the question's language holds its other terms literally, which no unit of the other
    language can: compared on all of them, every sentence of the question's own article seemed
    to say as much as the other language's answer."""
    return frozenset(t for t in q.weights if _NUMBER.fullmatch(t) or lang_of(t) == lang or any(lang_of(" ".join(alt)) == lang for alt in q.aliases.get(t, ())))


def _mass(q: Question, terms) -> float:
    return math.fsum(q.weights[t] for t in sorted(terms))


def stated_values(q: Question, text: str, kinds: list[str]) -> frozenset[str]:
    """The numbers a unit answers with: those of its short answer for the first of `kinds` (the
    answer types it is read for) that finds one (the value, not every number around it), else
    every number it states."""
    order = tuple((t.term, t.start, t.end) for t in tokens(text))
    for kind in kinds:
        got: set[str] = set()
        for s, e in short_spans(kind, q.numbers, set(q.weights), text, order, q.text, 1):
            got.update(numbers(text[s:e]))
        if got:
            return frozenset(got)
    return numbers_of(text)


def own_twin(q: Question, c, order: list, shown: list, kinds: list[str], known: frozenset[str] = frozenset()):
    """What to quote for `c`, a unit to add to the `shown` ones and read for the answer types
    `kinds`: `c` itself when it is in the question's language or states no number; else the best
    candidate of `order` in the question's language that states every value `c` answers with (a
    shown one means: add nothing, None); `c` when there is none. `known` are the values of the
    first fact when `c` is quoted for the other one: when the value `c` answers with is one of
    them ("The minimum recharge is Tk 20 and the maximum is Tk 1,000" after "সর্বনিম্ন ২০ টাকা"
    reads Tk 20 first), its other values are the fact it adds, and its twin is the unit stating
    those ("সর্বোচ্চ ১,০০০ টাকা"), not the first fact's unit again."""
    if lang_of(c.unit.text) == q.lang:
        return c
    values = stated_values(q, c.unit.text, kinds)
    if known and values and values <= known:
        values = numbers_of(c.unit.text) - known
        if not values:  # it states the first fact's values alone: its twin is the unit shown
            return None
    if not values:
        return c
    for _, other in order:
        if other.items or lang_of(other.unit.text) != q.lang or not values <= numbers_of(other.unit.text):
            continue
        if any(other.quote.start == s.quote.start and other.quote.doc == s.quote.doc for s in shown):
            return None
        return other
    return c


# A worked example's row read whole. A table whose rows open on a value works each example out from it
# ("| ১০,০০০ টাকা | ২৫০ টাকা | ১০,২৫০ টাকা |" under "পাঠানো টাকা | প্রণোদনা (২.৫%) | মোট যা পাবেন"): its
# other cells are steps of one sum, and a cell alone hides how it was reached. "… ১০,০০০ টাকা রেমিট্যান্স
# এলে প্রণোদনাসহ মোট কত টাকা পাব?" was shown "১০,০০০ টাকা — মোট যা পাবেন: ১০,২৫০ টাকা", not the ২৫০ টাকা
# added. A row that opens on a name (a service, a status) lists facts each complete alone: "Cash out at
# an agent — Fee: …" is not shown with its daily and monthly limits.
def with_whole_example(composed, docs: dict | None):
    """`composed` (an `Answer`) with each quoted cell of a row that opens on a value shown as the whole
    row, every cell with its column's name (two cells of one row: one quote), when all of it fits in
    `MAX_WORDS` words; otherwise `composed` itself. Its confidence and short answers are unchanged."""
    if composed.abstained or not docs:
        return composed
    out = []
    for x in composed.quotes:
        doc = docs.get(x.doc)
        cells = [u for u in units_around(doc.text, x.start, x.end) if u.start == x.start and u.kind == "row" and u.cell] if doc and x.kind == "row" else []
        label = cells[0].text[:len(cells[0].text) - len(DASH + cells[0].cell)] if len(cells) > 1 else ""
        if label and [(s.start, s.end) for s in spans_of(label) if s.type in ("amount", "number")] == [(0, len(label))]:
            x = replace(x, text=label + DASH + DASH.join(u.cell for u in cells))
        if x not in out:
            out.append(x)
    if out == list(composed.quotes) or sum(word_count(x.text) for x in out) > MAX_WORDS:
        return composed
    return requoted(composed, out)


# A worked example for the asker's own figure. "৪০ হাজার টাকা রেমিট্যান্স এলে প্রণোদনা কত পাব?" (40,000 taka
# comes in: what incentive do I get?) was shown the rule "… ২.৫% সরকারি প্রণোদনা …" 0.41 logits above the
# example row "৪০,০০০ টাকা — প্রণোদনা (২.৫%): ১,০০০ টাকা", which states the amount asked for that very figure.
# A help centre works examples out from a figure in a row's first cell (`with_whole_example`); when the
# question states that figure and asks a value, the row keyed by it is quoted, within `LANG_MARGIN` logits of
# the best unit, in the best unit's language or the question's.
def example_key(c) -> frozenset[str]:
    """The numbers of `c`'s row key when `c` is a cell of a row that opens on a value (a worked
    example's row: its first cell is one amount or number and nothing else); none otherwise."""
    key = c.unit.row_key if c.unit.kind == "row" and c.unit.cell else ""
    if not key or [(s.start, s.end) for s in spans_of(key) if s.type in ("amount", "number")] != [(0, len(key))]:
        return frozenset()
    return frozenset(number_values(key))


def the_example_first(q: Question, order: list, margin: float = LANG_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first cell within `margin` logits of the best
    whose row is the worked example of a figure the question states (`example_key`; "৪০ হাজার" is
    40,000: `numbers.number_values`) and that states a
    value of the asked kind put first, when the question asks a figure and the best unit is no such
    cell (see above); otherwise `order` itself."""
    stated = frozenset(number_values(q.text)) if order and q.qtype in ("amount", "count", "percent") else frozenset()
    if not stated or example_key(order[0][1]) & stated:
        return order
    langs = (q.lang, lang_of(order[0][1].unit.text))
    return promoted(order, lambda c: lang_of(c.unit.text) in langs and c.features[COL["typed"]] > 0
                    and bool(example_key(c) & stated), margin)


# A limit asked for no period is answered for every period the help centre states. "send money limit koto"
# was shown "… up to 50 sends a day, but the daily amount is the same Tk 25,000." 0.44 logits above "দিনে সব
# মিলিয়ে সর্বোচ্চ ২৫,০০০ টাকা এবং মাসে সর্বোচ্চ ২,০০,০০০ টাকা …": a day's limit is half of what the asker
# needs when a month's limit binds too. So when a question asking a limit, an amount or a count names no
# period (`asking.periods_of`) and the best unit states a value for one period, the first unit within
# `LANG_MARGIN` logits of it that states one for that period and another, in the best unit's language or
# the question's, is quoted. "Per recharge" is no period of this kind: one recharge's cap is all there is.
def _periods(text: str) -> frozenset[str]:
    return periods_of(text) - {"once"}


def every_period_first(q: Question, order: list, margin: float = LANG_MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of the best
    that states a value of the asked kind for more periods than the best unit's one put first, when the
    question asks a limit, an amount or a count for no period (see above); otherwise `order` itself."""
    typed = COL["typed"]
    if not order or not (q.limit or q.qtype in ("amount", "count")) or periods_of(q.text) or order[0][1].features[typed] <= 0:
        return order
    best = order[0][1]
    have = _periods(best.unit.text)
    if len(have) != 1:
        return order
    return promoted(order, lambda c: c.features[typed] > 0 and _periods(c.unit.text) > have
                    and not names_another_half(best.unit.text, c.unit.text), margin)  # cash in's limits are not cash out's


# The answer in the customer's language, once its confidence is known (presentation only: the confidence read the units
# the model chose). "ekdine koybar cash out kora jay?" was answered "Up to 5 cash-outs a day." in English, the Bangla twin's
# unit never among the first k. Only a quote's article's twin is read ("Tk 25,000" is the daily limit of cash out and of send
# money alike); its unit answers with the same values for the kind the quote is read for, leaves out no value of another
# kind, names the quote's periods or fewer (but every one asked, or all when none is) and no contrast's other half (`twin_of`).
def answered_values(q: Question, text: str, kind: str = "") -> frozenset[str]:
    """The numbers of `text`'s short answer for `kind` (the asked kind by default: `short.short_spans`); none when it has none."""
    order = tuple((t.term, t.start, t.end) for t in tokens(text))
    return frozenset(n for s, e in short_spans(kind or q.qtype, q.numbers, set(q.weights), text, order, q.text, 1) for n in numbers(text[s:e]))


def twin_of(q: Question, o, c, kind: str, asked: str) -> bool:
    """Whether `c`, a unit of the twin article of `o`'s, can be quoted in `asked` for `o`, read for `kind` (see above)."""
    said, has = _periods(o.unit.text), _periods(c.unit.text)
    need = said & periods_of(q.text) if periods_of(q.text) else said
    same = {n for v in spans_of(o.unit.text) if v.type == kind for n in numbers(o.unit.text[v.start:v.end])}
    return (not c.items and lang_of(c.unit.text) == asked and need <= has <= said and bool(has) == bool(said)
            and not any(h[s] and g[1 - s] and not g[s] for h, g in zip(c.halves, o.halves) for s in (0, 1))
            and answered_values(q, c.unit.text, kind) <= numbers_of(o.unit.text) and answered_values(q, o.unit.text, kind) <= numbers_of(c.unit.text) and numbers_of(o.unit.text) - numbers_of(c.unit.text) <= same)


def in_asked_language(composed, q: Question, asked: str, order: list, pool, docs: dict | None):
    """`composed` (an `Answer` of one or two quotes) with each quote of a unit of `order` in the other language than `asked` shown as
    the first unit of `pool(doc)` (its article's twin, (logit, candidate) best first) that `twin_of` accepts for the first kind it answers
    with (the other fact's first for its unit), or left out when that unit was quoted already (not a lesser twin in its place: "Suppose you
    have sent Tk 25,000" for "the first Tk 25,000 is free"); a quote read for a short answer (the best unit's, each of two facts') shows
    the twin's, stating its numbers. Quotes keep their order, citations are the shown units' chunks. Not for two facts in one quote."""
    two = asks_two(q.text)
    if composed.abstained or not order or not 1 + two <= len(composed.quotes) <= 2:
        return composed
    quotes, bold, best = list[Quote | None](composed.quotes), list(composed.short_answers), order[0][1]
    for i, x in enumerate(composed.quotes):
        o = next((c for _, c in order if c.quote == x), None)
        if o is None or lang_of(o.unit.text) == asked:
            continue
        kinds = [t for t in q.types if t != q.qtype] + [q.qtype] if two and o is not best else [q.qtype]
        kind, mine = next((k for k in kinds if answered_values(q, o.unit.text, k)), ""), [s for s in bold if x.holds(s)]
        for _, c in pool(x.doc) if kind else ():
            shown = [y for y in quotes if y and (c.quote.doc, c.quote.start) == (y.doc, y.start)]
            if not twin_of(q, o, c, kind, asked) or shown and shown[0] not in composed.quotes:  # another quote's twin here
                continue
            told = shorts(replace(q, qtype=kind), [c], c, docs, False) if o is best or two else []
            if (o is best or two) and (not told or mine and not _says_as_much(mine, told)):
                continue
            if shown:  # its twin was quoted already: this quote goes
                quotes[i], bold = None, [s for s in bold if s not in mine] or told
                break
            at = bold.index(mine[0]) if mine else len(bold) if i else 0
            quotes[i], bold = c.quote, [s for s in bold[:at] if s not in mine] + told + [s for s in bold[at:] if s not in mine]
            break
    if quotes == composed.quotes:
        return composed
    moved = [(x.chunk, y.chunk if y else "") for x, y in zip(composed.quotes, quotes)]  # a citation goes to the chunk shown instead
    cited = [n for ch in composed.citations for n in ([y for x, y in moved if x == ch] or [ch]) if n]
    return requoted(composed, [y for y in quotes if y], citations=list(dict.fromkeys(cited)), short_answers=bold)


def _says_as_much(mine: list, told: list) -> bool:
    """Whether the twin's short answers `told` state every number of the quote's `mine`, and maybe more: "Tk 18.50 per
    Tk 1,000" for "১৮.৫০ টাকা", the rate's base said with it. (Fewer numbers is a lesser answer: a row saying less.)"""
    return {n for s in mine for n in numbers(s.text)} <= {n for s in told for n in numbers(s.text)}


def quoted_language(q: Question, answer, docs: dict | None) -> str | None:
    """The language of the articles every quote of `answer` comes from, when it is not the
    question's (`q.lang`) and one language; None for an abstention, or when a quote is in the
    question's language (the reader has it in their own words), or without the articles."""
    if answer.abstained or not answer.quotes or not docs:
        return None
    langs = {docs[x.doc].lang if x.doc in docs else lang_of(x.text) for x in answer.quotes}
    if len(langs) != 1 or q.lang in langs:
        return None
    return langs.pop()


def has_twin(q: Question, best, order: list) -> bool:
    """Whether a candidate of `order` in the question's language can stand for `best`, the
    quoted unit in the other language: `in_own_language`'s test (`says_as_much`) without its
    margin. It found one less likely, or it would have quoted it."""
    return any(lang_of(c.unit.text) == q.lang and says_as_much(q, best, c) for _, c in order)
