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

import re

from raglab.text.analyzer import analyze
from raglab.text.answertypes import question_type, question_types

# What joins the two halves of a two-fact question ("the fee and the limit", "cash in or cash
# out", "compared with an ATM", "ক্যাশ ইন আর ক্যাশ আউটের"). Explicit ASCII classes, never \b.
_JOIN = re.compile("(?:^|(?<=[^A-Za-z]))(?:and|or|compared (?:with|to)|versus|vs\\.?|as well as)(?=[^A-Za-z])|"
                   "(?:^|(?<=[^\u0980-\u09ff]))(?:এবং|আর|ও|নাকি|বনাম|তুলনায়)(?=[^\u0980-\u09ff]|$)", re.IGNORECASE)


def asks_two(question: str) -> bool:
    """A question that asks for two values (two answer types, or one type asked twice with
    "and"/"or"/"compared with"/এবং/ও/আর/নাকি between them)."""
    if len(question_types(question)) >= 2:
        return True
    return _JOIN.search(question) is not None and question_type(question) != "yesno"


def facets(question: str) -> tuple[tuple, tuple]:
    """The terms only the part before the last joining word has, and those only the part after
    it has, in question order ("daily limits for cash in and for cash out": (daily, amount,
    limit) and (out,))."""
    last = None
    for m in _JOIN.finditer(question):
        last = m
    if last is None:
        return (), ()
    left, right = analyze(question[:last.start()]), analyze(question[last.end():])
    only_left = tuple(dict.fromkeys(t for t in left if t not in right))
    only_right = tuple(dict.fromkeys(t for t in right if t not in left))
    return only_left, only_right


def missing_half(question: str, have) -> str | None:
    """The contrasting word of the half of a two-fact question that a unit holding the terms
    `have` (its own and its heading's) leaves out: the last word only the part before the joining
    word has, or the first only the part after it has ("minimum and maximum", "cash in and cash
    out"); None when it holds both or neither."""
    left, right = facets(question)
    marks = [t for t in (left[-1:] + right[:1]) if t not in have]
    return marks[0] if len(marks) == 1 else None
