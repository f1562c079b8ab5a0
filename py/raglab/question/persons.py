"""Who answers a who-question: the people and bodies a unit names, in either language.

`answertypes` reads a who-question's answer as a run of capitalised words, a name. A help centre
mostly names who does something with a noun of a role or a body ("The institution issues the
receipt", "our partner bank, which holds your savings", "রসিদ দেবে শিক্ষাপ্রতিষ্ঠান"), and a
Bangla unit, which has no capitals, never held a name at all: for "… রসিদ কে দেবে?" the English
sentence naming "Shapla Pay" was the only one typed. `persons` adds to a unit's names the nouns
that name someone, unless the noun says a question word ("Who can open an agent account?" is not
answered by "agent"):

- in English after a determiner or a possessive ("the institution", "your local agent", "by the
  merchant") or as a plural opening the unit or a cell ("Shops appointed by …"), for bare it
  qualifies another noun ("merchant payments") or lists kinds ("personal, agent and merchant");
- in Bangla in any form ("শিক্ষাপ্রতিষ্ঠান", "অভিভাবককে", "নমিনির").

Explicit character classes only, never `\\b` or `\\w` (see `answertypes`).

>>> from raglab.text.analyzer import tokens
>>> s = "The institution issues the receipt for the fee you pay, not Shapla Pay."
>>> order = [(t.term, t.start, t.end) for t in tokens(s)]
>>> [s[a:b] for a, b in persons(s, [(60, 70)], frozenset(["receipt"]), order)]
['institution', 'Shapla Pay']
"""

from __future__ import annotations

import functools
import re

from raglab.text.answertypes import typed_spans

# Nouns of people, roles and bodies, in English (with their plurals) and in Bangla (with any ending).
_ROLES_EN = ("customer|user|account holder|holder|owner|agent|merchant|shop|shopkeeper|seller|store|institution|"
             "school|college|university|bank|company|companies|operator|provider|issuer|guardian|parent|nominee|"
             "recipient|receiver|sender|payer|staff|officer|employee|employer|team|government|police|court|"
             "authority|authorities|regulator|member|relative|family|fraudster|scammer|caller")
_ROLE_EN = re.compile("(?:(?<![A-Za-z])(?:[Tt]he|[Aa]n?|[Yy]our|[Tt]heir|[Ii]ts|[Oo]ur|[Hh]is|[Hh]er|[Aa]ny|[Ee]ach|[Ee]very) "
                      f"(?:[a-z]+ ){{0,2}}(?P<one>(?:{_ROLES_EN})(?:s|es)?)|(?:^|: )(?P<many>(?i:{_ROLES_EN})(?:s|es)))"
                      "(?![A-Za-z])")
_ROLES_BN = ("গ্রাহক|ব্যবহারকারী|এজেন্ট|মার্চেন্ট|দোকানদার|দোকান|বিক্রেতা|শিক্ষাপ্রতিষ্ঠান|প্রতিষ্ঠান|স্কুল|কলেজ|"
             "বিশ্ববিদ্যালয়|ব্যাংক|কোম্পানি|অপারেটর|মালিক|অভিভাবক|নমিনি|প্রাপক|প্রেরক|কর্মী|কর্মকর্তা|সরকার|"
             "পুলিশ|আদালত|কর্তৃপক্ষ|সদস্য|আত্মীয়|প্রতারক")
_ROLE_BN = re.compile(f"(?<![\u0980-\u09ff])(?:{_ROLES_BN})[\u0980-\u09ff]*")


@functools.lru_cache(maxsize=20_000)
def roles(text: str) -> tuple[tuple[int, int], ...]:
    """(start, end) of the nouns of a person, a role or a body that name someone in `text`.

    >>> s = "Refunds are started by the merchant, not by Shapla Pay."
    >>> [s[a:b] for a, b in roles(s)], roles("Shapla Pay offers three account types: personal, agent and merchant.")
    (['merchant'], ())
    """
    found = [m.span("one") if m.group("one") else m.span("many") for m in _ROLE_EN.finditer(text)]
    found += [(m.start(), m.end()) for m in _ROLE_BN.finditer(text)]
    return tuple(sorted(found))


# The help centre's own name is no one a who-question asks for: "Shapla Pay" (the wallet) is named on
# every page it has, and a sentence whose only name it is ("Shapla Pay cannot decide whether you are
# entitled to a refund") says nothing of who does the thing asked. The name on the most articles of a
# corpus, when that is more than half of them, is its house name; an encyclopaedia's subjects each have
# their own article, so none of theirs is one. Only the most widespread: "PIN" and "SMS" are on most pages
# too, and taken from the who-answers with the brand, the sentences they typed stopped competing with a
# Bangla one about who pays a domestic transfer's fee, shown at 0.83 for a remittance's. A corpus of a
# few articles cannot tell its house from its subject (one article about a firm names its founders on every page it has).
_HOUSE_SHARE = 0.5
_HOUSE_ARTICLES = 5  # the fewest articles a corpus has for its house names to be read
_house: list = [None, frozenset()]  # the last corpus read (held, so its id is not reused) and its house names


def house_names(docs: dict | None) -> frozenset[str]:
    """The name(s) (`answertypes` names, as written) on the most articles of `docs` (an article id
    -> Document map of at least `_HOUSE_ARTICLES`), when on more than half; read once per corpus."""
    if not docs or len(docs) < _HOUSE_ARTICLES:
        return frozenset()
    if _house[0] is not docs:
        counts: dict[str, int] = {}
        for doc in docs.values():
            for name in {doc.text[sp.start:sp.end] for sp in typed_spans(doc.text) if sp.type == "name"}:
                counts[name] = counts.get(name, 0) + 1
        most = max(counts.values(), default=0)
        _house[:] = [docs, frozenset(n for n, k in counts.items() if k == most > _HOUSE_SHARE * len(docs))]
    return _house[1]


def persons(text: str, names, question_terms: frozenset, order, house: frozenset = frozenset()) -> tuple[tuple[int, int], ...]:
    """(start, end) of the people and bodies `text` names that can answer a who-question, in text
    order: its `names` ((start, end) of its names, as `answertypes` reads them) other than the
    corpus's `house` names, and its `roles` outside them whose terms are not all question terms.
    `question_terms` are the question's terms with the words of the aliases they were found
    through; `order` is the text's (term, start, end) tokens."""
    out = [(a, b) for a, b in names if text[a:b] not in house]
    for a, b in roles(text):
        own = [t for t, x, y in order if a <= x and y <= b]
        if not any(x < b and a < y for x, y in names) and not (own and all(t in question_terms for t in own)):
            out.append((a, b))
    return tuple(sorted(out))
