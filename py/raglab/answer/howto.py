"""A how-to question is answered by the way a thing is done, not by how it is not done.

"How do I close my account?" was answered "Closure cannot be requested through an agent
point, …" at 0.80: the side remark holds every word of the question (its heading's and its
own), so the sentence model ranked it above "You can ask to close your account in either of
these ways:" and the steps under it. A unit that says only how the thing is not done
(`modality.restricts`: a statement whose main clause is negated; "Do not …" is an instruction)
answers whether it may be done, not how. So for a procedure question that does not ask
whether (`modality.asks_may`), `the_way_first` puts first the best unit that is no such remark
when it scores within `MARGIN` logits of the chosen one (the sentence model and its fit are
untouched: the feature `not_how` was too rare on dev to learn, see docs/pipeline.md).
"""

from __future__ import annotations

from raglab.answer.language import promoted
from raglab.answer.sentences import Question
from raglab.question.modality import asks_may, restricts

MARGIN = 1.0  # logits: a unit that says how, this close to a remark saying how not, is quoted instead


def not_the_way(q: Question, text: str) -> bool:
    """Whether `text` says only how the thing a how-to question asks about is not done."""
    return q.qtype == "procedure" and not asks_may(q.text) and restricts(text)


def the_way_first(q: Question, order: list, margin: float = MARGIN) -> list:
    """`order` ((logit, candidate), best first) with the first unit within `margin` logits of
    the best that says no "not" put first, when the best says only how the thing is not done."""
    if not order or not not_the_way(q, order[0][1].unit.text):
        return order
    return promoted(order, lambda c: not restricts(c.unit.text), margin)
