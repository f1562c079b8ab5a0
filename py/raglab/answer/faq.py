"""Answers from an FAQ: a section whose heading asks a question answers it in its first unit,
and that section's units speak for the same answer. `faq_lead` puts that first unit first;
`section_reading` gives the confidence the section's share of the sentence model's belief;
`heading_lead` puts first the answer of the FAQ whose heading asks the reader's question most
closely, and `heading_asks` tells the confidence when the help centre's own heading asks it.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from raglab.answer.candidates import MAX_WORDS, Candidate, heading_match, word_count
from raglab.answer.howto import WAY_HEADING, says_what_to_do, the_steps
from raglab.answer.language import says_as_much
from raglab.answer.results import requoted
from raglab.answer.sentences import COL, lang_of
from raglab.answer.units import introduced
from raglab.retrieval.ranking import rounded

# What ends a heading that asks a question (an FAQ's): the ASCII mark, which Bangla uses too, and
# the full-width one.
QUESTION_MARKS = ("?", "\uff1f")


def twins(q, a: Candidate, b: Candidate) -> bool:
    """Whether `a` and `b` are one sentence in the two languages: each can be quoted for the other
    (`language.says_as_much`: the same values, or as much of the question)."""
    if q is None or lang_of(a.unit.text) == lang_of(b.unit.text):
        return False
    return says_as_much(q, a, b) and says_as_much(q, b, a)


def asking_section(c: Candidate, docs: dict | None):
    """The section `c` is in, when its own heading (not the article's title) asks a question
    ("## Can pets spread the virus?"); None otherwise, or without the article at hand."""
    doc = docs.get(c.quote.doc) if docs else None
    if doc is None:
        return None
    sec = doc.section_at(c.quote.start)
    return sec if len(sec.heading) > 1 and sec.heading[-1].rstrip().endswith(QUESTION_MARKS) else None


def opens(c: Candidate, sec, docs: dict) -> bool:
    """Whether `c` is the first unit of `sec`: nothing but blank space between the end of the
    heading line and it."""
    text = docs[c.quote.doc].text
    line = text.find("\n", sec.start, c.quote.start)
    return line >= 0 and not text[line:c.quote.start].strip()


def faq_lead(order: list, docs: dict | None) -> list:
    """`order` ((logit, candidate), best first) with the first unit of the best unit's section put
    first, when that section's heading asks a question and its first unit is a candidate too;
    otherwise `order` itself. An FAQ answers its heading's question in its first sentence and
    explains after it, and the reader's question is a rewording of the heading: the sentences
    after the first share more of the reader's words ("If soap and water are not readily
    available, use … hand sanitizer" for "Can hand sanitizer protect against corona?") but answer
    less. Only when the question shares at least as much with the heading as with the best unit:
    a question about a later sentence ("Is the money in Shapla Pay electronic money?" under "## What
    is Shapla Pay?") asks that sentence's question, not the heading's."""
    if not order or not docs:
        return order
    best = order[0][1]
    sec = asking_section(best, docs)
    if sec is None or opens(best, sec, docs) or best.features[COL["sentence_cover"]] > best.features[COL["heading_cover"]]:
        return order
    for i, (z, c) in enumerate(order[1:], 1):
        if c.quote.doc == best.quote.doc and asking_section(c, docs) == sec and opens(c, sec, docs):
            return [order[i]] + order[:i] + order[i + 1:]
    return order


def section_reading(order: list, probs: list[float], docs: dict | None, q=None) -> tuple[float, float] | None:
    """(probability, margin) for the confidence when the best unit opens a section whose heading
    asks a question (`faq_lead`), else None: it then answers for its section, so the probability
    is the share the sentence model gives all of the section's units, and the margin is the
    section's best logit over the best one outside it. The model spreads its belief over the
    sentences of one FAQ answer, which all point to the same question; read unit by unit, an
    FAQ's right answer looked as unsure as a wrong one. The weights are the ones fitted on our
    answers, which nearly all come from named sections and keep their own unit's figures. The
    best unit's twin in the other language (`twins`) speaks for the same answer too: "Is cash in
    free?" read the English FAQ's "No. Cash in … is free." at 0.36 and its Bangla twin at 0.50,
    and the margin over that twin was below 0 (`q`, the `sentences.Question`; without it, no twin)."""
    best = order[0][1]
    sec = asking_section(best, docs) if docs else None
    if sec is None or docs is None or not opens(best, sec, docs):
        return None
    inside = [c.quote.doc == best.quote.doc and asking_section(c, docs) == sec or twins(q, best, c) for _, c in order]
    top = max(z for (z, _), i in zip(order, inside) if i)
    outside = next((z for (z, _), i in zip(order, inside) if not i), top - 4.0)
    return rounded(math.fsum(p for p, i in zip(probs, inside) if i)), top - outside


def closest_heading(order: list, q, docs: dict | None):
    """(article id, section) of the section a candidate lies in whose own heading restates the
    reader's question more closely than that of any other such section (`candidates.heading_match`:
    more of the question's idf mass, or as much and fewer words of its own), when it holds some
    of the question; None otherwise, or on a tie (two FAQs asking alike are two answers, and
    nothing in their words tells them apart). An article's title is no section's own heading."""
    best, second, seen = None, None, set()
    for _, c in order:
        doc = docs.get(c.quote.doc) if docs else None
        if doc is None:
            continue
        sec = doc.section_at(c.quote.start)
        if (c.quote.doc, sec.start) in seen or len(sec.heading) < 2:
            continue
        seen.add((c.quote.doc, sec.start))
        match = heading_match(q, sec.heading[-1])
        if best is None or match > best[0]:
            best, second = (match, c.quote.doc, sec), best
        elif second is None or match > second[0]:
            second = (match, c.quote.doc, sec)
    if best is None or best[0][0] <= 0 or (second is not None and second[0] >= best[0]):
        return None
    return best[1], best[2]


def heading_asks(order: list, q, docs: dict | None) -> bool:
    """Whether the best unit opens a section whose heading asks a question (`asking_section`) and
    restates the reader's question more closely than any other heading around (`closest_heading`):
    the help centre itself then says that the unit answers the question asked, in other words
    ("Can COVID-19 be passed from a pregnant woman to the fetus or newborn?" for "Can a fetus be
    infected with COVID-19 from their mother?"; "What is a novel coronavirus?" over "What is Novel
    Coronavirus (COVID-19)?" for "What is a new coronavirus?"). The confidence reads it as
    `typed`, a unit stating what the question asks for: an FAQ's answer states no typed value
    ("Yes.", "No.", a definition, what to do), and without it its right answers sat 1.2 logits
    below our own confident ones."""
    if not order or not docs:
        return False
    best = order[0][1]
    sec = asking_section(best, docs)
    return sec is not None and opens(best, sec, docs) and closest_heading(order, q, docs) == (best.quote.doc, sec)


def heading_lead(order: list, q, docs: dict | None) -> list:
    """`order` with the first unit of the section whose heading asks the reader's question most
    closely (`closest_heading`) put first, when the best unit lies outside that section and that
    first unit is a candidate; otherwise `order` itself. The sentence model weighs a unit's own
    words against its heading path's, and an FAQ's answer does not restate its question: a
    neighbouring FAQ whose first sentence shares the reader's words ("A quick test, similar to a
    pregnancy test, … SARS-CoV-2 …" under "Is there a quick test for SARS-CoV-2 for home use?")
    beat the FAQ that asks the question ("How do you test a patient for SARS-CoV-2, the virus
    that causes COVID-19?" for "How can I test a patient for SARS-CoV-2?"). As in `faq_lead`, only
    when the question shares at least as much with that heading as with the best unit's own words."""
    if not order or not docs:
        return order
    top = closest_heading(order, q, docs)
    if top is None or not top[1].heading[-1].rstrip().endswith(QUESTION_MARKS):
        return order
    doc, sec = top
    best = order[0][1]
    if best.quote.doc == doc and docs[doc].section_at(best.quote.start) == sec:
        return order  # inside the section: `faq_lead` decides which of its units goes first
    if best.features[COL["sentence_cover"]] > heading_match(q, sec.heading[-1])[0]:
        return order
    for i, (_, c) in enumerate(order):
        if c.quote.doc == doc and asking_section(c, docs) == sec and opens(c, sec, docs):
            return [order[i]] + order[:i] + order[i + 1:]
    return order


# An FAQ's bare reply. "## Is there a fee?\n\nNo. Cash in at a Shapla Pay agent is free." answers its
# heading with "No."; quoted for "Is cash in free?" the same "No." reads as the opposite of the truth. A
# reply word answers the heading's own wording, so it is shown only when that heading restates the
# reader's question more closely than any other around (`closest_heading`, as `heading_asks` reads it);
# otherwise the quote opens after it. A reply bound to its sentence ("Yes, many schools …") is no bare reply.
BARE_REPLY = re.compile(r"(?:yes|no|হ্যাঁ|না)\s*[.।!]\s+(?=\S)", re.IGNORECASE)


def without_bare_reply(composed, order: list, q, docs: dict | None):
    """`composed` (an `Answer`) with each quote that opens a section whose heading asks a question on a
    bare "Yes."/"No." (`BARE_REPLY`) shown from the word after it, when that heading is not the one
    that restates the question (see above); otherwise `composed` itself. Its confidence, citations and
    short answers are unchanged: the quote's own words still hold them."""
    if composed.abstained or not docs:
        return composed
    out, top = [], None
    for x in composed.quotes:
        doc = docs.get(x.doc)
        m = BARE_REPLY.match(x.text) if doc is not None and x.kind == "sentence" else None
        sec = doc.section_at(x.start) if doc is not None and m is not None else None
        if m is not None and doc is not None and sec is not None and len(sec.heading) > 1 \
                and sec.heading[-1].rstrip().endswith(QUESTION_MARKS):
            if top is None:
                top = (closest_heading(order, q, docs),)
            if top[0] != (x.doc, sec) and doc.text[x.start:x.start + m.end()] == x.text[:m.end()]:
                x = replace(x, start=x.start + m.end(), text=x.text[m.end():])
        out.append(x)
    return composed if out == list(composed.quotes) else requoted(composed, out)


def without_twin(composed, order: list, q):
    """`composed` (an `Answer`) without a quote that is the twin (`twins`) of the best unit's in the
    other language than the question's: "Cash in at a Shapla Pay agent is free." and then "এজেন্টের কাছে
    ক্যাশ ইন সম্পূর্ণ বিনামূল্যে।" says the answer again in a language the reader did not ask in (the runner-up,
    quoted when the model cannot tell the two apart; `language.own_twin` swaps only a unit stating a number).
    Its confidence is unchanged; its short answers and citations are those of the quotes left."""
    if composed.abstained or len(composed.quotes) != 2 or not order:
        return composed
    best = order[0][1]
    keep = [x for x in composed.quotes if not any(
        c.quote == x and c is not best and lang_of(c.unit.text) != q.lang and twins(q, best, c) for _, c in order)]
    if len(keep) == len(composed.quotes) or not keep:
        return composed
    bold = [s for s in composed.short_answers if any(x.holds(s) for x in keep)]
    cited = list(dict.fromkeys(x.chunk for x in keep))
    return requoted(composed, keep, citations=cited, short_answers=bold)


# A how-to question whose shown quotes say nothing to do (`howto.shows_no_way`: "nano loan kivabe nibo" was
# shown "You can borrow up to Tk 20,000 as a nano loan." 0.09 logits above "Open the Shapla Pay app and tap
# Loans.", the first step under "How to apply") is answered by the way the help centre writes down for it:
# what to do under a heading that says it tells the way ("How to apply", "Steps to open your account",
# "… করবেন যেভাবে"). Only there: an instruction under "Who can open an account" or a list of conditions
# tells whether one may, not how, and a how-to question answered by it was as wrong as the withheld answer.
def tells_the_way(q, c, docs: dict | None) -> bool:
    """Whether candidate `c` says what to do (`howto.says_what_to_do`) in a section whose own heading says it tells the way (`howto.WAY_HEADING`)."""
    doc = docs.get(c.quote.doc) if docs else None
    heading: tuple[str, ...] = doc.section_at(c.quote.start).heading if doc is not None else ()
    return len(heading) > 1 and WAY_HEADING.search(heading[-1].strip()) is not None and says_what_to_do(q, c)


# A how-to question shown a later step of a numbered list but not the steps before it: "পিন কীভাবে পরিবর্তন
# করব?" was shown the section's opening ("It is a good habit to change your PIN …", the best unit, so
# `howto.the_steps` did not apply) and step 2 alone ("Go to Settings and then Change PIN."), without "Log in
# to the app." before it; "how do i find a shapla agnet near my hous?" the opening that leads the steps ("You
# can find agents on the map in the app.") and none of them. A reader asked how follows the way from its
# start, so a shown answer that quotes a step and skips one before it, or quotes the sentence that leads a
# list and none of its steps, shows the list from the first step (`howto.the_steps` for that step: as many
# as fit, within its chunk) after the quotes before the list, when all of it fits in `MAX_WORDS`.
def from_the_first_step(composed, q, order: list, docs: dict | None):
    """`composed` (an `Answer`) with the list it quotes a later step of, skipping one, or the lead of, shown from the first step."""
    if not docs or composed.abstained:
        return composed
    by = {(c.quote.doc, c.quote.start): c for _, c in order}
    for x in composed.quotes:
        shown = {y.start for y in composed.quotes if y.doc == x.doc}
        c = by.get((x.doc, x.start))
        led = introduced(docs[x.doc].text, x.end) if c is not None and c.unit.kind == "sentence" and x.doc in docs else ()
        if led and not any(u.start in shown for u in led) and (x.doc, led[0].start) in by:  # the lead of a list, no step shown
            steps = the_steps(q, by[x.doc, led[0].start], docs, order)
        else:  # a step, with a step before it left out (a step's note is a sentence)
            steps = the_steps(q, c, docs, order) if c is not None else ()
            if not any(y.start < x.start and y.start not in shown and by[y.doc, y.start].unit.kind != "sentence" for y in steps):
                continue
        if not steps:
            continue
        a, b = steps[0].start, steps[-1].end
        quotes = ([y for y in composed.quotes if y.doc == x.doc and y.start < a] + list(steps)
                  + [y for y in composed.quotes if y.doc != x.doc or y.start >= b])
        if sum(word_count(y.text) for y in quotes) > MAX_WORDS:
            return composed
        bold = [s for s in composed.short_answers if any(y.holds(s) for y in quotes)]
        return requoted(composed, quotes, citations=list(dict.fromkeys(y.chunk for y in quotes)), short_answers=bold)
    return composed
