"""Whether the chosen unit speaks of another subject than the one a value question asks about.

A question the help centre has no answer to is often answered with a neighbouring value: the
loan's limit for its late fee, the recharge limit for a merchant account's daily payments, the
add-money limit for paying bills, the merchant's fee for a call to the hotline. The value is of
the asked type, so the confidence's `typed` bonus carried such answers past the threshold. What
gives them away is the subject: the asking sentence names a service, or a kind of price, (a
concept of the expansion table, `retrieval/expansion.py`, through any of its wordings in either
language) and neither the chosen unit nor the heading path of its section names any of them.
Read only over the sentences that ask (a story told first names the shop, the mother, the bakery:
who asks, not what), and not for a question asking two things, whose halves the quoted units
share between them (`half_answer` reads those). The answerer withholds such an answer
(`answerer.WITHHELD`: "other-subject").
"""

from __future__ import annotations

from raglab.retrieval.expansion import matches
from raglab.text.analyzer import analyze
from raglab.text.answertypes import asked_sentences

VALUE_TYPES = ("amount", "count", "percent")  # the answer types that ask for a figure

# The services (and the balance) whose figures are their own: a limit or a fee of one is no answer for another
# (the daily cash-in limit is no ceiling on the balance).
SERVICES = frozenset({"cash out", "cash in", "send money", "remittance", "mobile recharge", "utility bill",
                      "merchant payment", "merchant account", "education fees", "savings", "loan", "reward points", "balance",
                      "add money", "hotline"})
# The kinds of price, each a family (a fee asked is answered by "free" too). Limits and minimums are
# left out: the value's own shape states them ("between Tk 20 and Tk 1,000", "18 or older").
PRICES = {"fee": "fee", "free of charge": "fee", "service charge": "fee", "interest or profit": "interest",
          "incentive": "incentive", "cashback": "cashback"}
# Charges laid on top of a price, which a unit stating the price does not answer: the profit rate is no
# answer to the tax cut from the profit, the loan's terms none to its late fee. Each asked must be named
# itself. Words, not expansion concepts: a help centre that names none of them (ours) would otherwise
# append their translations to every question that mentions a fee. Analyzer terms, so "taxes" and
# "জরিমানার" count and "taxi" does not; "fine" is left out ("is it fine to …").
ON_TOP = {"tax": "tax", "vat": "tax", "ট্যাক্স": "tax", "ভ্যাট": "tax", "penalty": "penalty", "জরিমানা": "penalty",
          "জামানত": "security deposit"}
ON_TOP_PHRASES = {("late", "fee"): "penalty", ("security", "deposit"): "security deposit"}


def subjects_of(text: str) -> tuple[frozenset, frozenset]:
    """The services and the price families `text` names (any phrase of the concept's group:
    its wording, other ways customers say it, its kinds)."""
    named = frozenset(g.concept for g, _ in matches(text))
    return named & SERVICES, frozenset(PRICES[c] for c in named if c in PRICES)


def charges_on_top(text: str) -> frozenset:
    """The charges on top of a price (`ON_TOP`) `text` names."""
    terms = analyze(text)
    named = {ON_TOP[t] for t in terms if t in ON_TOP}
    for a, b in zip(terms, terms[1:]):
        if (a, b) in ON_TOP_PHRASES:
            named.add(ON_TOP_PHRASES[(a, b)])
    return frozenset(named)


def other_subject(q, two: bool, unit: str, heading: tuple[str, ...] = ()) -> bool:
    """Whether the asking sentence(s) of the question `q` (a `sentences.Question` asking a figure
    or a limit) name services (or price families) none of which `unit` or `heading`, the heading
    path of its section (`candidates.heading_of`), names, or a charge on top of a
    price (`charges_on_top`: a tax, a penalty) they do not name. Never for a question
    asking no figure (a yes/no question's side, a way, a time are not stated by such a word), nor
    for one asking two things (`two`: `answer.facts.asks_two`)."""
    if two or not (q.limit or q.qtype in VALUE_TYPES):
        return False
    asking = " ".join(asked_sentences(q.text)) or q.text
    stated = "\n".join((unit, *heading))
    # A unit that names a subject of a family itself speaks for itself: the recharge limit in a section
    # on "Mobile recharge and merchant payment" is no merchant's limit. Else its heading speaks for it.
    said = [own or under for own, under in zip(subjects_of(unit), subjects_of("\n".join(heading)))]
    return any(a and not a & s for a, s in zip(subjects_of(asking), said)) or \
        not charges_on_top(asking) <= charges_on_top(stated)


def another_service(question: str, unit: str) -> bool:
    """Whether `unit` names services (`SERVICES`) none of which the asking sentences of `question` name,
    when they name one: the add-money daily limit is no rule for a cash-out ("… ৪০ হাজার টাকা আছে,
    একদিনে পুরোটা ক্যাশ আউট করা যাবে?"). A unit that names no service may be any of them."""
    asked = subjects_of(" ".join(asked_sentences(question)) or question)[0]
    own = subjects_of(unit)[0]
    return bool(asked and own and not asked & own)
