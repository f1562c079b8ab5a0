"""What the lexical side of a retriever searches for: the question's terms, and for each
term the index does not know, the index words closest to it, weighted below an exact match.

A misspelt word ("agnet", "ক্যাস") matches nothing in an exact index. `weighted_terms`
keeps every term the index knows at weight 1 and replaces an unknown one by its nearest
index words (`text.fuzzy.Fuzzy.closest`: a weighted edit distance with the Bangla typing
slips at half cost), each weighing ``FUZZY_WEIGHT · (1 − distance / 4)``, so a word one
edit away counts 0.75 of `FUZZY_WEIGHT` and never as much as the word typed:

- only the nearest words are kept (all those at the smallest distance, at most
  `MAX_ALTERNATIVES`, in `closest`'s order);
- when the nearest word is a stopword ("dose" is *does*, "wat" is *what*), the term is
  dropped: it was a misspelt stopword, not a content word;
- a common word of its language ("slow", "আজকে") is not read as another word unless that one is
  the same word spelt or ended otherwise (`text.known.respellable`), nor
  split in two;
- when no single word is near, two index words run together are tried ("cashout",
  "ক্যাসআউট": `Fuzzy.segment`), each half weighted by the split's distance;
- numbers and words of fewer than three code points are never matched fuzzily.

The fuzzy index is built once per BM25 index, the first time a query needs it, and the
rewriting of each unknown term is remembered, so a query pays for the lookups once.
`fuzzy_index(bm25)` hands the same index to other callers (the answerer's coverage can
ask it which index word a question's word meant).
"""

from __future__ import annotations

from raglab.retrieval.bm25 import BM25
from raglab.text.analyzer import STOPWORDS, scoped, tokens, unstemmed
from raglab.text.fuzzy import Fuzzy
from raglab.text.known import protected, respellable

FUZZY_WEIGHT = 0.8
MAX_ALTERNATIVES = 3
MAX_SPLIT_DISTANCE = 1.0
ADJECTIVE_MIN = 5  # letters of an adjective an adverb in -ly is read through ("seperate"ly; not "on"ly)


def fuzzy_weight(distance: float) -> float:
    """The weight of an index word `distance` away from the word typed (below 1)."""
    return FUZZY_WEIGHT * (1.0 - distance / 4.0)


def fuzzy_index(bm25: BM25) -> Fuzzy:
    """The `Fuzzy` index of a BM25 index's vocabulary (document frequencies order ties),
    with the stopwords added so that a misspelt stopword is recognised; built on first use."""
    got = bm25._fuzzy
    if got is None:
        vocabulary = dict(bm25.df)
        for word in sorted(STOPWORDS):
            vocabulary.setdefault(word, 0)
        # A comparison builds one BM25 index per retriever over the same chunks: within one
        # `with memo():` block (`analyzer.scoped`) they share the index of one vocabulary, and
        # with it the words already looked up (`Fuzzy` remembers them).
        shared = scoped("fuzzy indexes")
        key = tuple(sorted(vocabulary.items())) if shared is not None else None
        got = shared.get(key) if shared is not None else None
        if got is None:
            got = Fuzzy(vocabulary)
            if shared is not None:
                if len(shared) >= 2:  # bounded: the index is the size of the vocabulary, several times over
                    shared.clear()
                shared[key] = got
        bm25._fuzzy = got
    return got


def nearest(fuzzy: Fuzzy, term: str) -> tuple[list[str], float, bool] | None:
    """What a word the index lacks may be read as: (index words, distance, whether they are two
    words run together). The nearest index words that a real word may stand for
    (`text.known.respellable`; none left when `term` is a common word and they are not the same
    word spelt or ended otherwise); when no single word is near, the two index words it runs together ("cashout"),
    unless `term` is a common word itself; None when neither. The one reading of a misspelling
    for the search (`alternatives`) and the answerer (`Pipeline.closest`)."""
    near = fuzzy.closest(term)
    if near:
        best = near[0][1]
        return [w for w, d in near if d == best and respellable(term, w, d)], best, False
    if protected(term):
        return None
    adjective = _adjective(term)
    if adjective is not None:
        found = nearest(fuzzy, adjective)
        if found is not None and found[0] and not found[2]:
            return found
    splits = [s for s in fuzzy.segment(term) if s[1] <= MAX_SPLIT_DISTANCE]
    return (list(splits[0][0]), splits[0][1], True) if splits else None


def _adjective(term: str) -> str | None:
    """The adjective of an English adverb in -ly, which the stemmer keeps whole ("separately"), or None.
    A misspelt adverb is as far from its adjective's index word as the misspelling and the ending
    together ("seperately": three edits from "separate", beyond any word's reach): read without the
    ending, the misspelling alone is left to match ("seperate", one edit)."""
    if term.isascii() and term.endswith("ly") and len(term) - 2 >= ADJECTIVE_MIN:
        return term[:-2]
    return None


def _nearer_whole(fuzzy: Fuzzy, term: str, whole: str | None) -> tuple[list[str], float, bool] | None:
    """`nearest` for `term`, or for the word as typed (`whole`, unstemmed) when that is nearer to
    one index word. The stemmer cuts a misspelt word it does not know as if it were inflected
    ("কাসটমার", its -র taken for the genitive, is কাসটমা), and the cut can leave it too far from the
    index word it misspells (কাস্টমার, which the stemmer keeps whole): 1.5 edits, where the word as
    typed is 0.5 away."""
    found = nearest(fuzzy, term)
    if whole is None or whole == term:
        return found
    other = nearest(fuzzy, whole)
    if other is None or other[2] or not other[0]:
        return found
    if found is None or found[2] or not found[0] or other[1] < found[1]:
        return other
    return found


def alternatives(bm25: BM25, term: str, whole: str | None = None) -> list[tuple[str, float]]:
    """(index word, weight) to search for in place of `term`: itself when the index knows
    it, its nearest index words when it does not (or those of `whole`, the word as typed before
    stemming, when nearer: `_nearer_whole`), nothing when it is a misspelt stopword or has no
    neighbour."""
    if term in bm25.df:
        return [(term, 1.0)]
    memo = bm25._fuzzy_memo
    got = memo.get((term, whole))
    if got is not None:
        return got
    out: list[tuple[str, float]] = []
    found = _nearer_whole(fuzzy_index(bm25), term, whole)
    if found is not None:
        words, dist, split = found
        if split:
            out = [(w, fuzzy_weight(dist)) for w in words if w not in STOPWORDS]
        elif not any(w in STOPWORDS for w in words[:MAX_ALTERNATIVES]):
            out = [(w, fuzzy_weight(dist)) for w in words[:MAX_ALTERNATIVES]]
    memo[(term, whole)] = out
    return out


def respelt(bm25: BM25, terms: list[str], wholes: list[str | None] | None = None) -> list[str]:
    """`terms` with each word the index lacks read as its nearest index word, when exactly one
    is searched for it (`alternatives`); any other term as it is. What the query expansion
    table is asked about a second time (`bilingual`): "রিচাজ" names a recharge only once it
    reads as রিচার্জ.

    >>> respelt(BM25([["agent", "fee"], ["cash", "out"]]), ["agnet", "fee", "zzz"])
    ['agent', 'fee', 'zzz']
    """
    out = []
    for n, t in enumerate(terms):
        found = alternatives(bm25, t, wholes[n] if wholes else None) if t not in bm25.df else []
        out.append(found[0][0] if len(found) == 1 else t)
    return out


def respelt_text(bm25: BM25, text: str) -> str:
    """`text` with each word `respelt` reads as another index word written as that word, every
    other character kept. The expansion table matches a phrase that loses words to the
    stopword list word for word ("by mistake"), so a respelt question is asked about with its
    stopwords still in place: "by mistke" must read "by mistake", not just "mistake".

    >>> respelt_text(BM25([["mistake"], ["fee"]]), "Sent by mistke, any fee?")
    'Sent by mistake, any fee?'
    """
    found = tokens(text)
    fixed = respelt(bm25, [t.term for t in found], typed_forms(bm25, text, found))
    out, last = [], 0
    for token, term in zip(found, fixed):
        if term != token.term:
            out.append(text[last:token.start] + term)
            last = token.end
    return "".join(out) + text[last:]


def weighted_terms(bm25: BM25, terms: list[str], wholes: list[str | None] | None = None) -> tuple[list[str], list[float]]:
    """The query terms to score with BM25 and their weights (see the module docstring);
    `wholes`, one per term, are the words as typed before stemming (`weighted_text`).
    A query whose terms the index all knows comes back unchanged, every weight 1.

    >>> index = BM25([["agent", "fee"], ["cash", "out"]])
    >>> weighted_terms(index, ["agnet", "fee"])
    (['agent', 'fee'], [0.6000000000000001, 1.0])
    """
    out_terms: list[str] = []
    out_weights: list[float] = []
    for n, t in enumerate(terms):
        for word, weight in alternatives(bm25, t, wholes[n] if wholes else None):
            out_terms.append(word)
            out_weights.append(weight)
    return out_terms, out_weights


def weighted_text(bm25: BM25, text: str) -> tuple[list[str], list[float]]:
    """`weighted_terms` of the terms of `text`, each unknown one matched as stemmed or as typed."""
    found = tokens(text)
    return weighted_terms(bm25, [t.term for t in found], typed_forms(bm25, text, found))


def typed_forms(bm25: BM25, text: str, found: list) -> list[str | None]:
    """Per token of `text`, the word as typed before stemming (`analyzer.unstemmed`) where the
    index lacks its term, the only place `alternatives` reads it; None elsewhere, so a query of
    known words folds nothing twice."""
    return [None if t.term in bm25.df else unstemmed(text[t.start:t.end]) for t in found]


class LastQuery:
    """A one-entry memo of a retriever's BM25 side: the scores of the last query, handed out again
    for the same query. The answerer's confidence reads that side right after the search
    (`Pipeline.lexical_ranks`); callers only read the dict."""

    def __init__(self, score):
        self.score = score  # query -> {chunk index: score}
        self.last = None

    def __call__(self, query):
        if self.last is None or self.last[0] != query:
            self.last = (query, self.score(query))
        return self.last[1]
