"""Answers from an FAQ: a section whose heading asks a question answers it in its first unit,
and that section's units speak for the same answer. `faq_lead` puts that first unit first;
`section_reading` gives the confidence the section's share of the sentence model's belief;
`heading_asks` tells the confidence when the help centre's own heading asks the reader's question.
"""

from __future__ import annotations

import math

from raglab.answer.candidates import Candidate, heading_match
from raglab.answer.sentences import COL
from raglab.retrieval.ranking import rounded

# What ends a heading that asks a question (an FAQ's): the ASCII mark, which Bangla uses too, and
# the full-width one.
QUESTION_MARKS = ("?", "\uff1f")


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


def section_reading(order: list, probs: list[float], docs: dict | None) -> tuple[float, float] | None:
    """(probability, margin) for the confidence when the best unit opens a section whose heading
    asks a question (`faq_lead`), else None: it then answers for its section, so the probability
    is the share the sentence model gives all of the section's units, and the margin is the
    section's best logit over the best one outside it. The model spreads its belief over the
    sentences of one FAQ answer, which all point to the same question; read unit by unit, an
    FAQ's right answer looked as unsure as a wrong one. The weights are the ones fitted on our
    answers, which nearly all come from named sections and keep their own unit's figures."""
    best = order[0][1]
    sec = asking_section(best, docs) if docs else None
    if sec is None or docs is None or not opens(best, sec, docs):
        return None
    inside = [c.quote.doc == best.quote.doc and asking_section(c, docs) == sec for _, c in order]
    top = max(z for (z, _), i in zip(order, inside) if i)
    outside = next((z for (z, _), i in zip(order, inside) if not i), top - 4.0)
    return rounded(math.fsum(p for p, i in zip(probs, inside) if i)), top - outside


def heading_asks(order: list, q, docs: dict | None) -> bool:
    """Whether the best unit opens a section whose heading asks a question (`asking_section`) and
    that heading restates the reader's question more closely than the own heading of any other
    section a candidate lies in (`candidates.heading_match`: more of the question's idf mass, or
    as much and fewer words of its own): the help centre itself then says that the unit answers
    the question asked, in other words ("Can COVID-19 be passed from a pregnant woman to the fetus
    or newborn?" for "Can a fetus be infected with COVID-19 from their mother?"; "What is a novel
    coronavirus?" over "What is Novel Coronavirus (COVID-19)?" for "What is a new coronavirus?").
    The confidence reads it as `typed`, a unit stating what the question asks for: an FAQ's
    answer states no typed value ("Yes.", "No.", a definition, what to do), and without it its
    right answers sat 1.2 logits below our own confident ones. A heading that another matches
    as closely is no lead: two FAQs asking alike are two answers, and the model's choice between
    them is no surer than the words they share."""
    if not order or not docs:
        return False
    best = order[0][1]
    sec = asking_section(best, docs)
    if sec is None or not opens(best, sec, docs):
        return False
    own = heading_match(q, sec.heading[-1])
    seen = {(best.quote.doc, sec.start)}
    for _, c in order:
        doc = docs.get(c.quote.doc)
        if doc is None:
            continue
        other = doc.section_at(c.quote.start)
        if (c.quote.doc, other.start) in seen:
            continue
        seen.add((c.quote.doc, other.start))
        if len(other.heading) > 1 and heading_match(q, other.heading[-1]) >= own:
            return False
    return own[0] > 0
