"""Ranking primitives shared by every retriever, and the query they rank for.

A leaf module: it imports nothing of ours but the analyzer and the question's type, so every
retriever can import from here and the registry in `retrieval` can import every retriever.

Ranking uses scores rounded to 12 significant digits and breaks ties by chunk
order, so a last-bit difference in `math.log` between platforms cannot reorder
results.
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass

from raglab.text.analyzer import analyze, has_bangla
from raglab.text.answertypes import question_type

# A query term found only in a chunk's heading path counts this much of a term found in
# its text (the reranker's term coverage).
HEADING_WEIGHT = 0.5


@dataclass(frozen=True)
class Query:
    """What a retriever searches for, built once per question by `Pipeline.query`.

    `text` is the customer's own text, untouched; `expansion` holds the help-centre
    phrases query expansion added (empty with expansion off); `lang` is "bn" when the
    text has any Bangla letter, else "en"; `expanded` says expansion was on, even when it
    added nothing (an English question that already says "PIN" still has the table's
    Bangla wording for `bilingual` to read). Keeping the two parts apart lets `hybrid`
    and the reranker weigh the customer's words above the added ones, and a question
    that happens to contain "(+ …)" is just text.
    """

    text: str
    expansion: tuple[str, ...] = ()
    lang: str = "en"
    expanded: bool = False

    @classmethod
    def plain(cls, text: str) -> "Query":
        """The query for `text` with no expansion."""
        return cls(text, (), "bn" if has_bangla(text) else "en")

    @property
    def extra(self) -> str:
        """The expansion phrases as one text ("" when there are none)."""
        return " ".join(self.expansion)

    @property
    def full(self) -> str:
        """The customer's text followed by the expansion phrases: what a retriever that
        does not tell the two apart indexes the query as."""
        return self.text if not self.expansion else self.text + " " + self.extra


@dataclass(frozen=True)
class Hit:
    index: int  # position of the chunk in the chunk list
    score: float  # already rounded with `rounded`


def rounded(score: float) -> float:
    return float(f"{score:.12g}")


# Below this many scores per hit asked for, every score is rounded: the pre-filter in `top_n`
# would cost about what it saves.
_PREFILTER_RATIO = 4


def top_n(scores: dict[int, float], n: int) -> list[Hit]:
    """The n best hits by rounded score, ties broken by chunk order."""
    if n > 0 and len(scores) > _PREFILTER_RATIO * n:
        # Rounding to 12 significant digits never swaps two scores, it can only make them
        # equal, and moves a score by less than 1e-11 of itself. So only scores within that of
        # the n-th best raw score can tie with it or beat it once rounded: rounding the rest
        # (most of them, with thousands of chunks) cannot change the result. The margin is 100
        # times the largest move.
        nth = heapq.nlargest(n, scores.values())[-1]
        if math.isfinite(nth):
            floor = nth - abs(nth) * 1e-9
            scores = {i: s for i, s in scores.items() if s >= floor}
    keyed = [(-rounded(s), i) for i, s in scores.items()]
    return [Hit(i, -neg) for neg, i in heapq.nsmallest(n, keyed)]


# A heading that says it tells the way of what it names ("How to cash in", "Steps to open your account",
# "ক্যাশ ইন করবেন যেভাবে", "অ্যাপে অ্যাকাউন্ট খোলার ধাপ", "কীভাবে টাকা পাঠাবেন"), and a question that asks how
# ("how", কীভাবে, "kivabe"), read by the answerer too (`howto`).
WAY_HEADING = re.compile("^(?:how to|steps? (?:to|\\d))|ধাপ|যেভাবে|কীভাবে|কিভাবে", re.IGNORECASE)
HOW = re.compile("\\bhow\\b|কীভাবে|কিভাবে|কি ভাবে|কেমনে|\\bki ?bhabe\\b|\\bki ?vabe\\b|\\bkemne\\b", re.IGNORECASE)
WAY_RAISE = 0.05  # what a section telling the way gains for a question asking how (fused scores run 0 to 1)


def tells_the_way(heading: tuple[str, ...]) -> bool:
    """Whether a section's own heading (the last of its path; an article's title is none) says it
    tells the way.

    >>> tells_the_way(("Loans", "How to apply")), tells_the_way(("Loans",)), tells_the_way(("A", "Who can open"))
    (True, False, False)
    """
    return len(heading) > 1 and WAY_HEADING.search(heading[-1].strip()) is not None


def asks_how(text: str) -> bool:
    """Whether a question asks how to do a thing: a procedure question with a "how" word ("How much
    …?" asks an amount, "… এখন কী করব?" after a story what to do about it).

    >>> asks_how("How do I open an account?"), asks_how("How much is the fee?"), asks_how("অ্যাকাউন্ট কীভাবে খুলব?")
    (True, False, True)
    """
    return HOW.search(text) is not None and question_type(text) == "procedure"


def way_words(heading: tuple[str, ...]) -> frozenset[str] | None:
    """The terms of a section's own heading when it says it tells the way (`tells_the_way`), else None."""
    return frozenset(analyze(heading[-1])) if tells_the_way(heading) else None


def ways_asked(heads: list[frozenset[str] | None], text: str) -> list[bool] | None:
    """For a question asking how (`asks_how`), whether each chunk's heading says it tells the way of
    something the question names (`way_words`, sharing one of the question's terms); None for a
    question that does not ask how."""
    if not asks_how(text):
        return None
    asked = frozenset(analyze(text))
    return [h is not None and not h.isdisjoint(asked) for h in heads]


def way_raised(scores: dict[int, float], flagged: list[bool] | None, bonus: float) -> dict[int, float]:
    """`scores` with `bonus` added to every flagged chunk's (the sections that tell the way, for a
    question asking how).

    >>> way_raised({0: 0.5, 1: 0.5}, [True, False], 0.25)
    {0: 0.75, 1: 0.5}
    """
    if not bonus or not flagged:
        return scores
    return {i: scores[i] + bonus if flagged[i] else scores[i] for i in sorted(scores)}


# Moves within a ranked list (steps 3, 5 and 6 of `bilingual`): each keeps the scores with the
# places, so scores never rise down the list.

SLOT = 3  # the places a move looks at (the served k)


def other_best(judge: dict[int, float], langs: list[str], lang: str) -> int | None:
    """The chunk in another language than `lang` that `judge` scores highest (ties: the earlier)."""
    best, top = None, 0.0
    for i in sorted(judge):
        if langs[i] != lang:
            score = rounded(judge[i])
            if best is None or score > top:
                best, top = i, score
    return best


def other_language_placed(hits: list[Hit], scores: dict[int, float], langs: list[str], lang: str,
                          margin: float, best: int | None, slot: int = SLOT) -> list[Hit] | None:
    """`hits` (best first) with chunk `best`, the other language's best (`other_best`), moved to
    place `slot` when none of the first `slot` is in another language than `lang` and its score
    comes within `margin` of the score it displaces (step 3 of `bilingual`); None when nothing
    moves (no such chunk, fewer than `slot` hits, the other language already there, too far).

    >>> hits = [Hit(0, 0.9), Hit(1, 0.8), Hit(2, 0.7)]
    >>> scores = {0: 0.9, 1: 0.8, 2: 0.7, 3: 0.6}
    >>> [h.index for h in other_language_placed(hits, scores, ["en"] * 3 + ["bn"], "en", 0.3, 3, slot=1)]
    [3, 0, 1]
    >>> other_language_placed(hits, scores, ["en"] * 3 + ["bn"], "en", 0.05, 3) is None
    True
    """
    if best is None or len(hits) < slot or any(langs[h.index] != lang for h in hits[:slot]):
        return None
    if rounded(scores[best] + margin) < hits[slot - 1].score:
        return None
    rest = [h for h in hits[slot - 1:] if h.index != best]
    # It is shown with the score of the place it takes, so scores never rise down the list.
    return hits[:slot - 1] + [Hit(best, hits[slot - 1].score)] + rest[:len(hits) - slot]


def with_other_language(hits: list[Hit], scores: dict[int, float], langs: list[str], lang: str,
                        margin: float, choice: dict[int, float] | None = None, slot: int = SLOT) -> list[Hit]:
    """`hits` (best first) with the other language's best chunk moved to place `slot` when
    none of the first `slot` is in another language than `lang` and its score comes within
    `margin` of the score it displaces (`other_language_placed`; `hits` itself when nothing
    moves). `choice`, when given, says which chunk is that language's best (`other_best`);
    `scores` still says whether it comes close enough.

    >>> hits = [Hit(0, 0.9), Hit(1, 0.8), Hit(2, 0.7)]
    >>> [h.index for h in with_other_language(hits, {0: 0.9, 1: 0.8, 2: 0.7, 3: 0.6}, ["en"] * 3 + ["bn"], "en", 0.3, slot=1)]
    [3, 0, 1]
    """
    if len(hits) < slot or any(langs[h.index] != lang for h in hits[:slot]):
        return hits
    placed = other_language_placed(hits, scores, langs, lang, margin,
                                   other_best(scores if choice is None else choice, langs, lang), slot)
    return hits if placed is None else placed


def other_language_raised(hits: list[Hit], scores: dict[int, float], langs: list[str], lang: str,
                          margin: float, docs: list[str], slot: int = SLOT) -> list[Hit]:
    """`hits` (best first) with a chunk in another language than `lang` at place `slot` moved up
    one place when every place above it holds a chunk in `lang`, the one it passes comes from
    another article than the first hit (a section of the first hit's own article keeps its place
    next to it), and its score comes within `margin` of that one's, which takes place `slot`
    (after step 3 of `bilingual`, whether step 3 or its own score put it there). The same chunks
    stay in the first `slot`; only their order changes, and the scores stay with the places.

    >>> hits = [Hit(0, 0.9), Hit(1, 0.8), Hit(3, 0.8)]
    >>> scores = {0: 0.9, 1: 0.8, 2: 0.7, 3: 0.6}
    >>> [(h.index, h.score) for h in other_language_raised(hits, scores, ["en"] * 3 + ["bn"], "en", 0.25, list("abcd"))]
    [(0, 0.9), (3, 0.8), (1, 0.8)]
    >>> [h.index for h in other_language_raised(hits, scores, ["en"] * 3 + ["bn"], "en", 0.1, list("abcd"))]
    [0, 1, 3]
    >>> [h.index for h in other_language_raised(hits, scores, ["en"] * 3 + ["bn"], "en", 0.25, list("aacd"))]
    [0, 1, 3]
    """
    if len(hits) < slot or langs[hits[slot - 1].index] == lang or any(langs[h.index] != lang for h in hits[:slot - 1]):
        return hits
    above, other = hits[slot - 2], hits[slot - 1]
    if docs[above.index] == docs[hits[0].index] or rounded(scores[other.index] + margin) < rounded(scores[above.index]):
        return hits
    return hits[:slot - 2] + [Hit(other.index, above.score), Hit(above.index, other.score)] + hits[slot:]


def brought_first(hits: list[Hit], index: int) -> list[Hit]:
    """`hits` with chunk `index` first, shown with the first place's score, and the others in
    their order below it (as many hits as before: the last gives way when `index` was not among
    them). Step 3's first place for a glossary detail.

    >>> [(h.index, h.score) for h in brought_first([Hit(0, 0.9), Hit(1, 0.8), Hit(2, 0.7)], 2)]
    [(2, 0.9), (0, 0.9), (1, 0.8)]
    >>> [h.index for h in brought_first([Hit(0, 0.9), Hit(1, 0.8)], 5)]
    [5, 0]
    """
    if not hits or hits[0].index == index:
        return hits
    return [Hit(index, hits[0].score)] + [h for h in hits if h.index != index][:len(hits) - 1]


def section_given(hits: list[Hit], best: int | None, docs: list[str], slot: int = SLOT) -> list[Hit]:
    """`hits` with chunk `best` (the other language's place, step 3) in the place of the first
    of the first `slot` hits that comes from its article and is not `best` itself, shown with
    that place's score; that hit and those below it move down one place (as many hits as
    before: the last gives way when `best` was not among them). `hits` itself when `best` is
    None or already among the first `slot`, or none of them comes from its article.

    >>> [(h.index, h.score) for h in section_given([Hit(0, 0.9), Hit(3, 0.8), Hit(1, 0.7)], 4, list("aabbb"))]
    [(0, 0.9), (4, 0.8), (3, 0.8)]
    >>> [h.index for h in section_given([Hit(0, 0.9), Hit(1, 0.8), Hit(3, 0.7)], 2, list("aaab"))]
    [2, 0, 1]
    >>> [h.index for h in section_given([Hit(0, 0.9), Hit(1, 0.8), Hit(2, 0.7)], 4, list("aaabc"))]
    [0, 1, 2]
    """
    if best is None or any(h.index == best for h in hits[:slot]):
        return hits
    for n, h in enumerate(hits[:slot]):
        if docs[h.index] == docs[best]:
            rest = [x for x in hits[n:] if x.index != best]
            return (hits[:n] + [Hit(best, h.score)] + rest)[:len(hits)]
    return hits


def opening_yielded(hits: list[Hit], opening: list[bool], docs: list[str], slot: int = SLOT) -> list[Hit]:
    """`hits` (best first) with an article's opening chunk (`opening`) at the second to the
    `slot`-th place moved to place `slot` + 1 when another of the first `slot` comes from its
    article; the hits between move up one place and the scores stay with the places (step 8 of
    `bilingual`). The first place keeps its chunk, an opening too.

    >>> docs, opening = ["a", "a", "a", "b"], [True, False, False, False]
    >>> [(h.index, h.score) for h in opening_yielded([Hit(1, 0.9), Hit(0, 0.8), Hit(3, 0.7), Hit(2, 0.6)], opening, docs)]
    [(1, 0.9), (3, 0.8), (2, 0.7), (0, 0.6)]
    >>> [h.index for h in opening_yielded([Hit(0, 0.9), Hit(1, 0.8), Hit(3, 0.7), Hit(2, 0.6)], opening, docs)]
    [0, 1, 3, 2]
    >>> [h.index for h in opening_yielded([Hit(3, 0.9), Hit(0, 0.8), Hit(4, 0.7), Hit(1, 0.6)], opening + [False], docs + ["c"])]
    [3, 0, 4, 1]
    """
    if len(hits) <= slot:
        return hits
    for n in range(1, slot):
        h = hits[n]
        if opening[h.index] and any(docs[o.index] == docs[h.index] for k, o in enumerate(hits[:slot]) if k != n):
            moved = hits[:n] + hits[n + 1:slot + 1] + [h] + hits[slot + 1:]
            return [Hit(m.index, place.score) for m, place in zip(moved, hits)]
    return hits


def held_twice(hits: list[Hit], asked: dict[int, float], docs: list[str]) -> tuple[str, int] | None:
    """The article two of the first `SLOT` hits come from (the first by name if two are) and
    its chunk `asked` scores best (ties: the earlier chunk), or None when no article is held
    twice or `asked` scores none of its chunks (step 5).

    >>> held_twice([Hit(0, 0.9), Hit(1, 0.8), Hit(5, 0.7)], {2: 3.0, 0: 1.0}, ["a", "a", "a", "b", "b", "c"])
    ('a', 2)
    """
    if len(hits) < SLOT:
        return None
    top = [docs[h.index] for h in hits[:SLOT]]
    doc = next((d for d in sorted(set(top)) if top.count(d) >= 2), None)
    own = [i for i in sorted(asked) if docs[i] == doc]
    if doc is None or not own:
        return None
    return doc, max(own, key=lambda i: (rounded(asked[i]), -i))


def with_asked_section(hits: list[Hit], asked: dict[int, float], docs: list[str]) -> list[Hit]:
    """`hits` (best first) with the asked section put in when two of the first `SLOT` come
    from one article (step 5 of the module docstring): the lowest of the article's places
    there goes to the article's chunk `asked` scores best, if it scores higher than the chunk
    in that place, which comes next after the first `SLOT`. Ties: the earlier chunk is the best.

    >>> docs = ["a", "a", "a", "b", "b", "c"]
    >>> [h.index for h in with_asked_section([Hit(0, 0.9), Hit(1, 0.8), Hit(5, 0.7), Hit(3, 0.6)], {2: 3.0, 0: 1.0}, docs)]
    [0, 2, 5, 1]
    >>> [h.index for h in with_asked_section([Hit(0, 0.9), Hit(5, 0.8), Hit(1, 0.7)], {2: 3.0, 1: 3.0}, docs)]
    [0, 5, 1]
    """
    found = held_twice(hits, asked, docs)
    if found is None:
        return hits
    doc, best = found
    at = max(k for k in range(SLOT) if docs[hits[k].index] == doc)
    if any(h.index == best for h in hits[:SLOT]) or rounded(asked[best]) <= rounded(asked.get(hits[at].index, 0.0)):
        return hits
    # The chunks it moves are shown with the scores of the places they take, so scores never
    # rise down the list.
    out = hits[:at] + [Hit(best, hits[at].score)] + hits[at + 1:SLOT] + [Hit(hits[at].index, hits[SLOT - 1].score)]
    return (out + [h for h in hits[SLOT:] if h.index != best])[:len(hits)]


def sections_reordered(hits: list[Hit], docs: list[str], key: dict[int, float]) -> list[Hit]:
    """`hits` with the chunks of the first hit's article re-ordered among the places they
    hold, by `key` (highest first, ties to the earlier place; step 6). Scores stay with the
    places, so they never rise down the list.

    >>> hits = [Hit(0, 0.9), Hit(3, 0.8), Hit(1, 0.7)]
    >>> [h.index for h in sections_reordered(hits, ["a", "a", "b", "b"], {0: 0.1, 1: 0.5})]
    [1, 3, 0]
    >>> [h.score for h in sections_reordered(hits, ["a", "a", "b", "b"], {0: 0.1, 1: 0.5})]
    [0.9, 0.8, 0.7]
    """
    if not hits:
        return hits
    doc = docs[hits[0].index]
    places = [k for k, h in enumerate(hits) if docs[h.index] == doc]
    order = sorted(places, key=lambda k: (-rounded(key[hits[k].index]), k))
    out = list(hits)
    for k, j in zip(places, order):
        out[k] = Hit(hits[j].index, hits[k].score)
    return out


def twin_articles(docs: list[str], langs: list[str], vectors, dim: int) -> dict[str, str]:
    """Each article's twin in the other language, from the chunks' encoder `vectors` (`dim`
    floats per chunk, in chunk order): the articles' mean vectors, normalised, are compared
    across the two languages and paired greedily, the closest pair first (ties by name), each
    article at most once, and only where one of the two is the other's closest article in that
    language (an article the other language does not cover is nobody's twin). On our corpus it
    pairs each Bangla article with its English namesake (bn-fraud with en-fraud-safety).

    >>> twin_articles(["a", "a", "b", "c"], ["en", "en", "bn", "bn"], [1.0, 0.0, 0.8, 0.2, 0.9, 0.1, 0.0, 1.0], 2)
    {'a': 'b', 'b': 'a'}
    """
    means: dict[str, list[float]] = {}
    lang: dict[str, str] = {}
    for n, doc in enumerate(docs):  # added in chunk order: the same floats everywhere
        acc = means.get(doc, [0.0] * dim)
        lang[doc] = langs[n]
        means[doc] = [a + v for a, v in zip(acc, vectors[n * dim:(n + 1) * dim])]
    for doc, acc in means.items():
        norm = math.sqrt(math.fsum(x * x for x in acc)) or 1.0
        means[doc] = [x / norm for x in acc]
    names = sorted(means)
    cos = {(a, b): math.fsum(x * y for x, y in zip(means[a], means[b]))
           for a in names for b in names if lang[a] < lang[b]}
    nearest: dict[str, str] = {}
    for a in names:
        across = [(b, cos[(a, b) if (a, b) in cos else (b, a)]) for b in names if lang[b] != lang[a]]
        if across:
            nearest[a] = min(across, key=lambda bc: (-rounded(bc[1]), bc[0]))[0]
    out: dict[str, str] = {}
    for (a, b), _ in sorted(cos.items(), key=lambda pc: (-rounded(pc[1]), pc[0])):
        if a not in out and b not in out and (nearest.get(a) == b or nearest.get(b) == a):
            out[a], out[b] = b, a
    return dict(sorted(out.items()))


def kin_place(hits: list[Hit], best: int, docs: list[str], twins: dict[str, str], slot: int = SLOT) -> bool:
    """Whether chunk `best`, the other language's place (step 3), comes from an article of the
    first `slot` − 1 hits or from the twin of one (`twin_articles`).

    >>> kin_place([Hit(0, 0.9), Hit(1, 0.8)], 3, ["a", "a", "b", "c"], {"a": "c", "c": "a"})
    True
    >>> kin_place([Hit(0, 0.9), Hit(1, 0.8)], 2, ["a", "a", "b", "c"], {"a": "c", "c": "a"})
    False
    """
    above = {docs[h.index] for h in hits[:slot - 1]}
    return docs[best] in above or twins.get(docs[best]) in above
