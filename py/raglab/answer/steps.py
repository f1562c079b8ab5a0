"""A how-to question is answered by the steps, not by a restriction stated beside them.

"How do I close my account?" was answered at 0.80 with "Closure cannot be requested through an
agent point, and nobody will ask for your PIN as part of the process.": the section "How to ask
for closure" lists the two ways to ask, and then says which way is none. The restriction holds
the question's words (closure, request) more densely than the steps ("Call the hotline 16789 …"),
so the sentence model put it first. It says how not to do the thing, which is no procedure.

>>> restricts("Closure cannot be requested through an agent point.")
True
>>> restricts("Call the hotline 16789 from your registered number."), restricts("Do not share your PIN.")
(False, False)
"""

from __future__ import annotations

import re

from raglab.answer.sentences import COL
from raglab.question.asking import imperative
from raglab.text.answertypes import cue_text

# What says a thing is not done or cannot be (on `cue_text`: lower case, ", " for punctuation,
# a space at both ends): English negations and the Bangla "না", "নেই", "নয়" standing alone.
_NOT = re.compile(" (?:cannot|can t|not|never|nobody|no one|none) |"
                  "(?:^|[^\u0980-\u09ff])(?:না|নেই|নয়|নয়|নাই)(?:[^\u0980-\u09ff]|$)")


def restricts(text: str) -> bool:
    """Whether a sentence states what is not done or cannot be ("… cannot be requested through an
    agent point"), without telling the reader to do anything: a prohibition ("Do not share your
    PIN.") tells the reader what to do, and is an instruction."""
    return bool(_NOT.search(cue_text(text))) and not imperative(text)


def gives_steps(c) -> bool:
    """Whether a candidate gives a way to do the thing: a unit announcing a list ("You can ask to
    close your account in either of these ways:"), or a list item telling the reader what to do."""
    return bool(c.items) or (c.features[COL["steps"]] > 0 and c.features[COL["imperative"]] > 0)


def steps_first(qtype: str, order: list, docs: dict | None) -> list:
    """`order` ((logit, candidate), best first) with the first candidate that gives steps
    (`gives_steps`) put first, when the question asks how to do something, the best unit states a
    restriction (`restricts`) and is no list item, and that candidate is in the same section of the
    same article; otherwise `order` itself. The steps answer the question; the restriction beside
    them qualifies it."""
    if qtype != "procedure" or not order or not docs:
        return order
    best = order[0][1]
    doc = docs.get(best.quote.doc)
    if doc is None or best.unit.kind == "item" or best.items or not restricts(best.unit.text):
        return order
    sec = doc.section_at(best.quote.start)
    for i, (_, c) in enumerate(order[1:], 1):
        if c.quote.doc == best.quote.doc and gives_steps(c) and doc.section_at(c.quote.start) == sec:
            return [order[i]] + order[:i] + order[i + 1:]
    return order
