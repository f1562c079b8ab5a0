"""The short answers of a composed answer: the value(s) in bold, read from the unit(s) quoted.

`answerer.compose` has chosen its units; this reads the asked value from each (`short.short_spans`)
and puts them in the order the question asks them (`asked_order`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from raglab.answer.candidates import Candidate, text_info
from raglab.answer.facts import _ASKS_WHAT, _CLAUSE, _parts, asks_two, facets, half_of, half_text, held, missing_half, states_asked, states_each, unit_half, value_half
from raglab.answer.results import Answer, ShortAnswer
from raglab.answer.sentences import COL, Question, lang_of
from raglab.answer.short import short_spans
from raglab.question.asking import asks_end, periods_of
from raglab.question.factoid import restated
from raglab.question.modality import _SERIES, asks_need
from raglab.question.persons import house_names
from raglab.text.analyzer import analyze
from raglab.text.answertypes import accepts, question_type
from raglab.text.contrasts import asked_place, halves_of, named, names_both_asked
from raglab.text.numbers import another_amount, another_count, number_values, states_a_case


def shorts(q: Question, picked: list[Candidate], best: Candidate, docs: dict | None, two: bool,
            later: bool = False) -> list[ShortAnswer]:
    """The short answer(s): one from the best unit; for a two-fact question, one from each of
    two units (the other unit's first when the best one answers the half asked second: `later`),
    or two values from one unit that holds both halves. A unit that names only another
    period than the question ("the daily amount is Tk 25,000" for a month), or states the case of
    another amount or count ("100 points for Tk 10" for 350 points), gives none: its value answers another question."""
    if q.need and not two and q.qtype in ("other", "entity"):
        return series_short(best)  # what one needs or which details: the things named, not one word of them
    out: list[ShortAnswer] = []
    read_from: list[int] = []  # which of `units` each short answer is read from
    units = ([best] + [c for c in picked if c is not best]) if two else [best]
    # Two values from one unit only when it states both halves ("minimum Tk 20, maximum Tk 1,000"), also
    # beside a neighbour that states no asked value ("The daily limits reset at midnight …"); the
    # contrast reader too, for `missing_half` reads words and "in" of "cash in" is a stopword.
    both = two and (missing_half(q.text, held(best)) is None or names_both_asked(q.text, named(best.unit.text))) and (
        len(units) == 1 or not states_asked(q.types, q.numbers, units[1].unit.text))
    if both:
        units = [best]
    # Or one of each kind asked when it states both kinds (also beside a neighbour stating no asked value).
    each = two and not both and states_each(q.types, q.numbers, best.unit.text) and (
        len(units) == 1 or not states_asked(q.types, q.numbers, units[1].unit.text))
    if each:
        units = [best, best]
    # Whether a unit's values go with another amount or count than the question's: read once per
    # unit, and for none when the question states neither (`numbers.states_a_case`).
    case = states_a_case(q.text)
    another = {id(c): case and (another_amount(q.text, q.qtype, c.unit.text) or another_count(q.text, c.unit.text, q.aliases, q.qtype))
               for c in units}
    pair = len(units) == 2 and units[0] is not units[1]
    # The value nearest a question word, or its wording in the other language ("charge" is চার্জ in a Bangla unit).
    near = set(q.weights) | {a[0] for t in q.weights for a in q.aliases.get(t, ()) if len(a) == 1 and lang_of(a[0]) != lang_of(t)}
    for n, c in enumerate(units):
        # Its values answer another question: none in bold; unless a cell's period clashes only with the other
        # half's ("Send money — Fee: Tk 5 per send" for the fee of "the fee and the daily limit for send money").
        if another[id(c)] or c.features[COL["period_clash"]] and not (pair and c.unit.cell and not periods_of(half_text(q.text, c))):
            continue
        text = c.unit.text
        room = 2 if both else 1
        # The second unit of a question asking for two kinds of value is read for the other kind
        # first ("how much can I borrow, and at what interest rate?": the rate, then the amount).
        kinds = [t for t in q.types if t != q.qtype] + [q.qtype] if n else [q.qtype]
        kinds = [q.types[n]] if each else kinds
        at = value_at(c)
        for kind in kinds + (list(_ANY_VALUE) if n and pair and _asks_untyped(q.text, c) else []):
            spans = [(at + s, at + e) for s, e in short_spans(kind, q.numbers, near, text[at:], text_info(text[at:]).order, q.text, max(room, 1))] if at else []
            spans = spans or short_spans(kind, q.numbers, near, text, text_info(text).order, q.text, max(room, 1))
            if spans:
                break
        house = house_names(docs) if kind == "person" else frozenset()
        end = asks_end(q.text) if q.qtype in ("amount", "count") else None
        for s, e in spans:
            s, e = extreme_of(text, s, e, end) if end else (s, e)
            # A fee's share restated as an amount per sum ("1.85% of the amount, which is Tk 18.50 per Tk 1,000"), when one
            # value is asked: two shares compared ("the agent's and the ATM's charge") are shown alike.
            e = restated(q.text, q.qtype, text, e) if not two and "%" in text[s:e] else e
            value = text[s:e]
            if any(value == o.text for o in out) or value in house:  # the wallet's own name is no one
                continue
            start = c.quote.start + s
            if c.unit.kind == "row":  # the value sits in the row's text (the cell), not at an offset of the quote
                doc = docs.get(c.quote.doc) if docs else None
                source = doc.text if doc is not None else None
                if source is not None:
                    found = source.find(value, c.base + c.unit.focus_start, c.base + c.unit.focus_end)
                    found = found if found >= 0 else source.find(value, c.quote.start, c.quote.end)
                    start = found if found >= 0 else c.quote.start
                else:
                    start = c.quote.start
            out.append(ShortAnswer(value, c.quote.chunk, start, start + len(value)))
            read_from.append(n)
    if later and len(set(read_from)) == 2:
        out = [s for s, n in zip(out, read_from) if n] + [s for s, n in zip(out, read_from) if not n]
    if not out and not two and len(picked) == 2 and accepts(q.qtype) and q.qtype not in ("other", "entity"):
        # The other quoted sentence, when the best states no value of the asked kind and it is in the
        # question's language ("… was born on 6 October 1887 in La Chaux-de-Fonds" beside "(He
        # adopted the pseudonym of Le Corbusier in 1920.)"): the reader sees it, so its value is bold.
        other = picked[1] if picked[0] is best else picked[0]
        if lang_of(other.unit.text) == q.lang:
            return shorts(q, [other], other, docs, False)
    return out


def value_at(c: Candidate) -> int:
    """Where the value of `c`'s cell starts in its text ("৪০,০০০ টাকা — প্রণোদনা (২.৫%): ১,০০০ টাকা": after the
    column's name), when `c` is a cell of a table row; 0 otherwise. A column's name describes every
    row ("প্রণোদনা (২.৫%)": the rate each row works out), so a row's short answer is read from its
    value first, and from the whole text only when the value holds none of the asked kind."""
    cell = c.unit.cell if c.unit.kind == "row" else ""
    colon = cell.find(": ")
    if colon < 0 or not c.unit.text.endswith(cell):
        return 0
    return len(c.unit.text) - len(cell) + colon + 2


# The kinds of value the other fact's unit is read for when its half names no kind (`_asks_untyped`).
_ANY_VALUE = ("percent", "amount", "duration", "count")


def _asks_untyped(question: str, c: Candidate) -> bool:
    """Whether the half of a two-fact question a second unit `c` answers (`facts.half_text`) asks
    for no kind of value the reader knows, and not yes or no (`facts.asks_a_value`'s reading of
    its asking clause): "What does Shapla Pay take from each sale" asks a fee, "which terms can I
    choose from?" the terms, in words no answer type reads. The question's own kinds are the
    other half's, so its value ("For each payment …, you pay a fee of 1.5% …") had no short
    answer, and the two-value answer showed one value in bold."""
    half = half_of(question, c)
    if half is None:
        return False
    side = half_text(question, c)
    clauses = [x for x in _CLAUSE.split(side) if x.strip()]
    return bool(clauses) and not accepts(question_type(side)) and "yesno" not in (question_type(side), question_type(clauses[-1]))


def asked_order(question: str, picked: list[Candidate], bold: list[ShortAnswer]) -> tuple[list[Candidate], list[ShortAnswer]]:
    """The two units and the two short answers of a two-fact answer in the order the question asks
    its halves ("How much can I borrow, and at what interest rate?": the amount, then the rate), not
    the model's, which puts its best unit first. A unit's half is `facts.unit_half`; the two are
    turned round only when the first answers the half asked second and the other does not (a unit
    whose half is not known is taken for the other half's). A short answer's half is the kind of
    value it is when the halves ask different kinds (`facts.value_half`), else its unit's place;
    two cells of one table row are already in the order asked (`answerer._merge`).

    >>> from types import SimpleNamespace as N
    >>> due = N(quote=N(doc="loan", start=40), unit=N(text="The loan must be repaid within 3 months."))
    >>> most = N(quote=N(doc="loan", start=0), unit=N(text="You can borrow up to Tk 20,000."))
    >>> [c.unit.text for c in asked_order("How much can I borrow, and how long do I have to repay it?", [due, most], [])[0]]
    ['You can borrow up to Tk 20,000.', 'The loan must be repaid within 3 months.']
    """
    if len(picked) == 2 and (picked[0].quote.doc, picked[0].quote.start) != (picked[1].quote.doc, picked[1].quote.start):
        halves = [unit_half(question, c) for c in picked]
        if halves[0] != halves[1] and halves[0] != 0 and halves[1] != 1:
            picked = picked[::-1]
    if len(bold) != 2:
        return picked, bold
    kinds = [value_half(question, s.text) for s in bold]
    if None in kinds or kinds[0] == kinds[1]:  # the kinds do not tell: the order of the units they are read from
        at = [next((i for i, c in enumerate(picked) if c.quote.chunk == s.chunk and c.quote.start <= s.start < c.quote.end), None)
              for s in bold]
        kinds = [None, None] if None in at else at
        one = at[0]
        if one is not None and at[1] == one:  # one unit states both: the clause around each value tells
            kinds = clause_halves(question, picked[one], bold)
    return picked, bold[::-1] if kinds[0] is not None and kinds[1] is not None and kinds[0] > kinds[1] else bold


def clause_halves(question: str, c: Candidate, bold: list[ShortAnswer]) -> list[int | None]:
    """The half of a two-fact question each of two values read from one unit answers, by the clause
    around it: the unit cut at the last comma, semicolon or joining word between the two values ("You
    can cash in up to Tk 30,000 a day, | but you can cash out only up to Tk 25,000 a day."). A clause's
    half is the half of a contrast it names (`contrasts.asked_place`), else the half whose own words
    it holds (`facts.facets`); [None, None] when they do not tell two halves apart.

    >>> from types import SimpleNamespace as N
    >>> s = "The minimum recharge is Tk 20 and the maximum is Tk 1,000 per recharge."
    >>> c, v = N(quote=N(start=0), unit=N(text=s, kind="sentence")), [N(start=s.index("Tk 20"), text="Tk 20"), N(start=s.index("Tk 1,000"), text="Tk 1,000")]
    >>> clause_halves("What is the maximum and the minimum recharge?", c, v), clause_halves("What is the minimum and the maximum?", c, v)
    ([1, 0], [0, 1])
    """
    text = c.unit.text
    at = sorted((s.start - c.quote.start, s.start - c.quote.start + len(s.text)) for s in bold)
    if c.unit.kind == "row" or any(text[a:b] not in (bold[0].text, bold[1].text) for a, b in at) or at[0][1] > at[1][0]:
        return [None, None]  # a row's values sit in its cell, not at offsets of its quote
    between = text[at[0][1]:at[1][0]]
    cut = max((between.rfind(w) for w in _CLAUSE_BREAKS), default=-1)
    cut = at[0][1] + (cut if cut >= 0 else 0)
    left, right = facets(question)
    halves: list[int | None] = []
    for clause in (text[:cut], text[cut:]):
        half = asked_place(question, halves_of(clause))
        if half is None:
            terms = set(analyze(clause))
            half = 0 if terms & set(left) and not terms & set(right) else 1 if terms & set(right) and not terms & set(left) else None
        halves.append(half)
    if halves[0] == halves[1]:
        return [None, None]
    a, b = halves
    if a is None and b is not None:  # one clause tells: the other answers the other half
        a = 1 - b
    elif b is None and a is not None:
        b = 1 - a
    return [a, b] if bold[0].start <= bold[1].start else [b, a]


_CLAUSE_BREAKS = (", ", "; ", " but ", " and ", " while ", " whereas ", " আর ", " এবং ", " কিন্তু ", " তবে ", "। ")


# Words that open an English noun phrase: a series' first thing starts at the last of them in the words
# before its comma ("… the receipt shows the bill number, …": "the bill number").
_DETERMINERS = frozenset("the a an your my our their its his her any each".split())
_CLAUSE_END = ",;:.।?!()\n"
_TAIL = re.compile(r" (?:to|when|if|before|after|because|which|that|so|in|at|from|for|with|by|within|until) ")


def series_span(text: str) -> tuple[int, int] | None:
    """The offsets of the series of three or more things `text` names (`modality.lists_things`),
    from its first thing (at its determiner, when the words before the first comma hold one) to the
    end of its last (the clause's end, or before a word that opens a phrase of its own: "to", "in",
    "when" …), or None when it names none or is not in English.

    >>> t = "If your provider asks, the receipt from the app shows the bill number, the amount, the date and the transaction ID."
    >>> s, e = series_span(t); t[s:e]
    'the bill number, the amount, the date and the transaction ID'
    >>> t = "You need your NID, a photo and a phone number to open an account."
    >>> s, e = series_span(t); t[s:e]
    'your NID, a photo and a phone number'
    >>> series_span("You can reset a forgotten PIN yourself in the app.") is None
    True

    A Bangla unit gives none: its clause ends on its verb ("… এবং আপনার নতুন ব্যালেন্স থাকে"), and
    where its last thing ends is not read.
    """
    low = text.lower()
    if len(low) != len(text) or lang_of(text) != "en":
        return None  # a Bangla clause ends on its verb: where its last thing ends is not read
    m = _SERIES.search(low)
    if m is None:
        return None
    start = m.start()
    while low[:start].endswith(", "):  # the series goes on leftwards: "the bill number, the amount, the date and …"
        before = max(low.rfind(ch, 0, start - 2) for ch in _CLAUSE_END) + 1
        starts = [w.start() for w in re.finditer(r"\S+", low[before:start - 2])][-4:]
        if not starts:
            break
        start = before + starts[0]
    first = [(w.start(), w.group()) for w in re.finditer(r"\S+", low[start:low.index(",", start)])]
    for at, word in first[:0:-1]:
        if word in _DETERMINERS:
            start += at
            break
    end = m.end()
    while end < len(text) and text[end] not in _CLAUSE_END:
        end += 1
    tail = _TAIL.search(low, m.end(), end)  # the last thing ends before a clause or phrase of its own
    return start, len(text[:tail.start() if tail else end].rstrip())


def series_short(c: Candidate) -> list[ShortAnswer]:
    """The short answer to a question asking what one needs or which details (`Question.need`):
    the series of things unit `c` names (`series_span`), or none. A name or value taken out of the
    series ("ID" of "… and the transaction ID") is one thing of several, not the answer."""
    span = series_span(c.unit.text) if c.unit.kind != "row" else None
    if span is None:
        return []
    s, e = span
    return [ShortAnswer(c.unit.text[s:e], c.quote.chunk, c.quote.start + s, c.quote.start + e)]


# A choice of values in one span ("a monthly deposit of Tk 500, 1,000, 2,000 or 5,000") answers a
# question asking the minimum or the maximum by one of them: "What is the minimum amount for a Shapla
# Sanchay deposit?" showed the whole choice in bold.
_ITEM_SEP = re.compile(", (?:or |and )?| or | and | বা | ও | এবং | অথবা ")


def extreme_of(text: str, s: int, e: int, end: str) -> tuple[int, int]:
    """(start, end) in `text` of the smallest ("lower") or largest ("upper") value of the series that
    text[s:e] is, when it is a series of two or more values each with one number; (s, e) otherwise."""
    items, at = [], s
    for m in _ITEM_SEP.finditer(text, s, e):
        items.append((at, m.start()))
        at = m.end()
    items.append((at, e))
    values = [number_values(text[a:b]) for a, b in items]
    if len(items) < 2 or any(len(v) != 1 for v in values):
        return s, e
    numbers = [float(v[0]) for v in values]
    pick = numbers.index(min(numbers) if end == "lower" else max(numbers))
    return items[pick]


def phrase_half(composed: Answer, question: str, order: list) -> Answer:
    """A two-fact answer whose one half asks no value (yes or no, what to do, what happens: "… আর কেউ
    পিন জেনে গেছে সন্দেহ হলে কী করব?", "What happens to the points …, and how long until the money is
    back?") shows that half's quote as its short answer, beside the other half's value, in the order
    asked. A one-fact question asking such a thing is answered by its quote; a two-fact answer showed
    the value alone in bold, and the headline left the other half unanswered. Applied after the
    confidence (`answerer.decide`): which quotes are shown does not change, only the headline.
    The phrase half's quote is the one holding no short answer, unless `facts.unit_half` gives it the
    other half; a quote read from a table row is left alone."""
    quotes, bold = composed.quotes, composed.short_answers
    parts = _parts(question)
    if len(quotes) != 2 or not bold or not parts[0] or any(x.kind != "sentence" for x in quotes):
        return composed
    # A half asking yes or no, or what, why or how (`facts.asks_no_value`) in a clause of its own (not "What's
    # the daily | and the monthly limit?", the other half's noun), not what one needs (things, `series_short`).
    phrase = [not asks_need(p) and (question_type(p) == "yesno" or question_type(p) in ("other", "procedure") and bool(_ASKS_WHAT.search(p))
                                    and len(analyze(p)) >= 3) for p in parts]
    if phrase[0] == phrase[1]:
        return composed
    side = phrase.index(True)  # the half asking no value
    empty = [i for i, x in enumerate(quotes) if not any(x.holds(s) for s in bold)]
    if len(empty) != 1:
        return composed  # a value read from each quote: the half's words named one ("What does it take from each sale, …")
    at = empty[0]
    found = {(c.quote.doc, c.quote.start): c for _, c in order}
    c = found.get((quotes[at].doc, quotes[at].start))
    if c is not None and unit_half(question, c) == 1 - side:
        return composed  # the quote answers the half asking a value, without its value
    kept = list(bold)
    x = quotes[at]
    mine = ShortAnswer(x.text, x.chunk, x.start, x.end)
    return replace(composed, short_answers=[mine, *kept] if side == 0 else [*kept, mine])


def best_sentence(composed: Answer, question: str, qtype: str, order: list, leans) -> Answer:
    """An answer to a question no value answers (yes or no, what is, why; not how to: its steps go
    together) that quotes two sentences shows the best unit's one as its headline, the short answer,
    when the other adds no word of the question to it: shown because the model finds it likely too
    (the sentence next to it, or the runner-up), it is context. Without a short answer the reader's
    first line was both sentences. Applied after the confidence (`answerer.decide`), as `phrase_half`
    is: the quotes do not change. Left alone: a question asking two things (each quote may answer
    one) or what one needs (the things named, `series_short`: "You can reset a forgotten PIN yourself
    in the app." beside "You will need two things: …"); a best sentence that leans on the one before
    it (`leans`, `neighbours.leans_back`: "This rule keeps your money safe …" is no answer alone); an
    other quote holding a question word the best does not ("… with a card cost anything?": "Adding
    money from a linked bank account is free." beside the card's 1% fee); a table row."""
    quotes = composed.quotes
    if composed.short_answers or len(quotes) != 2 or accepts(qtype) or qtype == "procedure" or asks_two(question) or asks_need(question) \
            or any(x.kind != "sentence" for x in quotes):
        return composed
    best = order[0][1]
    found = {(c.quote.doc, c.quote.start): c for _, c in order}
    at = next((i for i, x in enumerate(quotes) if (x.doc, x.start) == (best.quote.doc, best.quote.start)), None)
    other = found.get((quotes[1 - at].doc, quotes[1 - at].start)) if at is not None else None
    if at is None or leans(quotes[at].text) or other is None or other.found - best.found:
        return composed
    x = quotes[at]
    return replace(composed, short_answers=[ShortAnswer(x.text, x.chunk, x.start, x.end)])
