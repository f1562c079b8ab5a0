"""`hybrid-rerank`: the hybrid's top candidates, reordered by a lexical reranker.

A first-stage retriever scores the query against each chunk one term (or one n-gram)
at a time. The reranker looks at the question and one candidate *together* and asks
what a person skimming the page would:

- ``coverage``: how much of the question's idf mass does the chunk hold? (A term found
  only in the heading path counts half, as in the answerer; terms that query expansion
  appended count half too.)
- ``soft``: like coverage, but a term also counts when the chunk has a word that
  starts with all but its last two code points ("licenses" meets "licensed",
  "ঘণ্টায়" meets "ঘণ্টার"): the inflections the light stemmer leaves alone. It is
  looked up by bisection in the chunk's sorted terms, so the index holds each word
  once, however long it is (a prefix set would grow with the square of a word's length).
- ``heading``: how much of it is in the heading path ("Cash out fee" for a fee question)?
- ``section``: the same, for the section headings below the article title only (the
  title is shared by every chunk of an article, so it cannot tell them apart).
- ``intro``: the chunk is the article's opening, before its first section. Openings
  mention every topic of the page and rarely hold the specific answer.
- ``bigram``: how many of the question's adjacent term pairs occur adjacent in the chunk
  (a phrase match: "cash out", not "cash" here and "out" there)?
- ``proximity``: how tightly packed are the matched terms (matched terms divided by the
  width of the smallest window of the chunk that holds them all)?
- ``number``: the question names an amount ("1000", "১০০০") and the chunk states it.
- ``answer_type``: the question asks *how long* / *when* (কতদিন, কবে) and the chunk
  states a duration ("7 working days", "২৪ ঘণ্টা"), or asks *how much* / *how many*
  (কত টাকা, সর্বোচ্চ) and the chunk states an amount ("Tk 25,000", "1.85%").
- ``prior``: the first stage's opinion, 1 / rank.

The score is the weighted sum of the features (each in [0, 1]). The weights in
`WEIGHTS` were fitted on the dev split only: a pairwise logistic regression over
(covering, non-covering) candidate pairs of each dev question, for all three chunkers,
with expansion on, scaled so that `prior` weighs 1 and rounded to two digits;
`bench/fit_reranker.py` re-fits them and prints both. `explain`
shows the features of each candidate so a reader can see why one chunk outranks
another.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

from raglab.corpus.chunking import Chunk
from raglab.retrieval.expansion import surface_words
from raglab.retrieval.hybrid import HybridRetriever
from raglab.retrieval.ranking import HEADING_WEIGHT, Hit, Query, top_n
from raglab.text.analyzer import analyze, tokens
from raglab.text.limits import index_heading

DEPTH = 30  # candidates taken from the first stage
FACTS_KEPT = 20_000  # chunks whose analysis the reranker keeps between questions
WEIGHTS = {  # fitted on dev (pairwise logistic regression, all three chunkers), prior scaled to 1;
    # bench/fit_reranker.py re-fits them (re-fitted when the dev split gained its crosslingual and
    # misspelt questions and the first stage its fuzzy matching, and again when the chunkers
    # stopped leaving headings alone and dense weighed character n-grams 2, and when the dev split
    # gained 48 fresh questions)
    "answer_type": 0.82,
    "bigram": 0.18,
    "coverage": 0.36,
    "heading": 0.79,
    "intro": -0.18,
    "number": 0.2,
    "prior": 1.0,
    "proximity": 0.1,
    "section": 0.11,
    "soft": 0.53,
}
FEATURES = tuple(sorted(WEIGHTS))
SOFT_MIN = 4  # a soft match shares a prefix of at least this many code points ...
SOFT_TRIM = 2  # ... and of all but at most this many of the query term's code points
EXPANSION_WEIGHT = 0.5  # a term that query expansion appended counts half

# Answer types, recognised by words of the question (lower-cased surface words, since
# the analyzer drops "when" and "how" as stopwords) and by units next to a number in
# the chunk. Units are analyzed terms, so "days", "দিনের" and "ঘণ্টার" all match.
DURATION_CUES = (("how", "long"), ("when",), ("how", "soon"), ("how", "quickly"), ("how", "many", "days"),
                 ("কতদিন",), ("কতদিনে",), ("কত", "দিন"), ("কত", "দিনে"), ("কয়দিন",), ("কয়দিনে",), ("কবে",),
                 ("কতক্ষণ",), ("কত", "সময়"), ("কত", "ঘণ্টা"), ("কত", "ঘণ্টায়"))
AMOUNT_CUES = (("how", "much"), ("how", "many"), ("cost",), ("fee",), ("fees",), ("charge",), ("limit",),
               ("limits",), ("maximum",), ("minimum",), ("most",), ("least",), ("price",), ("rate",),
               ("কত", "টাকা"), ("কত",), ("কয়টা",), ("কয়টি",), ("কতবার",), ("খরচ",), ("চার্জ",),
               ("সর্বোচ্চ",), ("সর্বনিম্ন",), ("ন্যূনতম",), ("সীমা",))
DURATION_UNITS = frozenset(analyze("minute minutes hour hours day days working month months year years "
                                   "মিনিট ঘণ্টা দিন কার্যদিবস মাস বছর"))
AMOUNT_UNITS = frozenset(analyze("tk taka টাকা point points digit digits times বার"))


def is_number(term: str) -> bool:
    """True for an analyzed number ("1000", "1.85"); the analyzer already folded Bangla digits."""
    return bool(term) and "0" <= term[0] <= "9"


def _has_phrase(words: list[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if tuple(words[i:i + n]) == phrase:
            return True
    return False


_DURATION = tuple(tuple(surface_words(" ".join(c))) for c in DURATION_CUES)  # NFC, as questions are
_AMOUNT = tuple(tuple(surface_words(" ".join(c))) for c in AMOUNT_CUES)


def answer_types(question: str) -> tuple[bool, bool]:
    """(asks for a duration, asks for an amount) judged from the question's words."""
    words = surface_words(question)
    duration = any(_has_phrase(words, c) for c in _DURATION)
    amount = any(_has_phrase(words, c) for c in _AMOUNT)
    return duration, amount


@dataclass(frozen=True)
class ChunkFacts:
    """What the reranker needs of one chunk, analyzed the first time the chunk is a
    candidate (see `RerankRetriever.facts`)."""

    heading: frozenset[str]
    terms: frozenset[str]  # body and heading
    bigrams: frozenset[tuple[str, str]]
    positions: dict[str, tuple[int, ...]]  # body term -> positions in the body
    duration: bool  # states a number with a time unit
    amount: bool  # states an amount: a number with Tk, টাকা, %, or another count unit
    section: frozenset[str]  # terms of the section headings below the article title
    sorted_terms: tuple[str, ...]  # `terms` in code-point order, for prefix lookups
    intro: bool  # the chunk sits under the article title, before the first section

    @classmethod
    def of(cls, chunk: Chunk, shared: dict | None = None, headings: dict | None = None) -> "ChunkFacts":
        """The facts of one chunk. `shared` and `headings`, one pair of dicts for all the
        chunks of an index, make equal terms, term pairs, position lists and heading
        analyses one object each, so a big corpus's index holds each once rather than
        once per chunk."""
        one = (lambda x: x) if shared is None else (lambda x: shared.setdefault(x, x))
        toks = tokens(chunk.text)
        body = [one(t.term) for t in toks]
        heads = None if headings is None else headings.get(chunk.heading)
        if heads is None:
            heading = index_heading(chunk.heading)
            heading_seq = [one(t) for t in analyze(" ".join(heading))]
            heads = (heading_seq, frozenset(heading_seq), frozenset(one(t) for t in analyze(" ".join(heading[1:]))))
            if headings is not None:
                headings[chunk.heading] = heads
        heading_seq, heading_set, section = heads
        positions: dict[str, list[int]] = {}
        for i, t in enumerate(body):
            positions.setdefault(t, []).append(i)
        pairs = set(zip(body, body[1:])) | set(zip(heading_seq, heading_seq[1:]))
        duration = amount = False
        for i, tok in enumerate(toks):
            if not is_number(tok.term):
                continue
            near = body[max(0, i - 1):i] + body[i + 1:i + 3]
            if any(t in DURATION_UNITS for t in near):
                duration = True
            if any(t in AMOUNT_UNITS for t in near) or chunk.text.startswith("%", tok.end):
                amount = True
        all_terms = frozenset(body) | heading_set
        return cls(heading_set, all_terms, frozenset(one(p) for p in pairs),
                   {t: one(tuple(p)) for t, p in positions.items()}, duration, amount,
                   section, tuple(sorted(all_terms)), len(chunk.heading) == 1)


@dataclass(frozen=True)
class QueryFacts:
    terms: tuple[str, ...]  # distinct terms, question first, then expansion terms
    weights: dict[str, float]  # idf, halved for expansion terms
    pairs: tuple[tuple[str, str], ...]  # adjacent term pairs of the question itself
    numbers: tuple[str, ...]
    duration: bool
    amount: bool


def query_facts(query: Query, idf) -> QueryFacts:
    question, extra = query.text, query.extra
    own = analyze(question)
    terms: list[str] = []
    weights: dict[str, float] = {}
    for t in own:
        if t not in weights:
            terms.append(t)
            weights[t] = idf(t)
    for t in analyze(extra):
        if t not in weights:
            terms.append(t)
            weights[t] = EXPANSION_WEIGHT * idf(t)
    duration, amount = answer_types(question)
    return QueryFacts(tuple(terms), weights, tuple(zip(own, own[1:])),
                      tuple(t for t in terms if is_number(t)), duration, amount)


def min_window(positions: list[tuple[int, ...]]) -> int:
    """Width (in terms) of the smallest window holding one position from every list."""
    events = sorted((p, k) for k, plist in enumerate(positions) for p in plist)
    need = len(positions)
    count: dict[int, int] = {}
    best = 0
    left = 0
    for right in range(len(events)):
        k = events[right][1]
        count[k] = count.get(k, 0) + 1
        while len(count) == need:
            width = events[right][0] - events[left][0] + 1
            if best == 0 or width < best:
                best = width
            lk = events[left][1]
            count[lk] -= 1
            if count[lk] == 0:
                del count[lk]
            left += 1
    return best


def has_prefix(sorted_terms: tuple[str, ...], stem: str) -> bool:
    """True when a term of `sorted_terms` starts with `stem`: the terms that do sort
    together, right at or after `stem`, so one bisection finds the first of them."""
    i = bisect_left(sorted_terms, stem)
    return i < len(sorted_terms) and sorted_terms[i].startswith(stem)


def _share_in(items, pool) -> float:
    """The share of `items` found in `pool` (0 when there are no items)."""
    if not items:
        return 0.0
    hits = 0
    for x in items:
        if x in pool:
            hits += 1
    return hits / len(items)


def features(q: QueryFacts, c: ChunkFacts) -> dict[str, float]:
    """The reranker's features (each in [0, 1]) for one query and one chunk, prior excluded."""
    total = 0.0
    for t in q.terms:
        total += q.weights[t]
    found = head = section = soft = 0.0
    for t in q.terms:
        w = q.weights[t]
        if t in c.heading:
            head += w
        if t in c.section:
            section += w
        if t in c.positions:
            found += w
        elif t in c.heading:
            found += HEADING_WEIGHT * w
        if t in c.terms or (len(t) - SOFT_TRIM >= SOFT_MIN and has_prefix(c.sorted_terms, t[:len(t) - SOFT_TRIM])):
            soft += w
    bigram = _share_in(q.pairs, c.bigrams)
    matched = [c.positions[t] for t in q.terms if t in c.positions]
    proximity = len(matched) / min_window(matched) if len(matched) >= 2 else 0.0
    number = _share_in(q.numbers, c.terms)
    answer_type = 0.0
    if q.duration or q.amount:
        answer_type = 1.0 if (q.duration and c.duration) or (q.amount and c.amount) else 0.0
    share = (lambda x: x / total) if total > 0 else (lambda x: 0.0)
    return {"coverage": share(found), "soft": share(soft), "heading": share(head), "section": share(section),
            "intro": 1.0 if c.intro else 0.0, "bigram": bigram, "proximity": proximity, "number": number,
            "answer_type": answer_type}


def combine(feats: dict[str, float], weights: dict[str, float]) -> float:
    score = 0.0
    for name in sorted(weights):
        score += weights[name] * feats.get(name, 0.0)
    return score


class RerankRetriever:
    """Hybrid first stage (`first_stage`), then the lexical reranker over its top `depth`."""

    name = "hybrid-rerank"

    def __init__(self, chunks: list[Chunk], depth: int = DEPTH, weights: dict[str, float] | None = None,
                 first_stage: HybridRetriever | None = None):
        if depth < 1:
            raise ValueError("reranker needs depth >= 1")
        self.first_stage = first_stage if first_stage is not None else HybridRetriever(chunks)
        self.depth = depth
        self.weights = dict(WEIGHTS if weights is None else weights)
        self.chunks = chunks
        self._facts: dict[int, ChunkFacts] = {}
        self._shared: dict = {}
        self._headings: dict = {}

    def facts(self, index: int) -> ChunkFacts:
        """The facts of chunk `index`, analyzed on first use and kept for the next question.

        The reranker only ever looks at the first stage's top candidates, so facts are not
        built for every chunk up front: a big corpus's index stays small and quick to build.
        At most FACTS_KEPT chunks' facts are kept; past that the store starts afresh (facts
        depend on the chunk alone, so results do not change, only the time to get them).
        """
        got = self._facts.get(index)
        if got is None:
            if len(self._facts) >= FACTS_KEPT:
                self._facts.clear()
                self._shared.clear()
                self._headings.clear()
            got = self._facts[index] = ChunkFacts.of(self.chunks[index], self._shared, self._headings)
        return got

    def idf(self, term: str) -> float:
        return self.first_stage.idf(term)

    def explain(self, query: Query, hits: list[Hit]) -> list[dict[str, float]]:
        """The features of each first-stage hit (in first-stage order), prior included."""
        q = query_facts(query, self.idf)
        out = []
        for rank, h in enumerate(hits, 1):
            feats = features(q, self.facts(h.index))
            feats["prior"] = 1.0 / rank
            out.append(feats)
        return out

    def rerank(self, query: Query, hits: list[Hit], n: int) -> list[Hit]:
        """Reorder first-stage `hits` by the weighted feature sum; the n best."""
        scores = {}
        for h, feats in zip(hits, self.explain(query, hits)):
            scores[h.index] = combine(feats, self.weights)
        return top_n(scores, n)

    def search(self, query: Query, n: int) -> list[Hit]:
        return self.rerank(query, self.first_stage.search(query, max(n, self.depth)), n)
