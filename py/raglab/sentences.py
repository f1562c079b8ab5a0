"""Sentence choice: features of each candidate sentence and a small logistic model over them.

The answerer quotes one sentence (or two, for a two-fact question) of the top-k chunks.
Which one is decided by a logistic regression over the features below, fitted on the
dev split's evidence sentences (positives) against every other sentence of the retrieved
chunks (`bench/fit_answerer.py` fits it and prints the weights; `data/sentence_model.json`
holds them). Inference is a dot product and a logistic function, in pure Python.

Features of a sentence s of the chunk at rank r, for a question q (terms weighted by idf):

    coverage        share of q's idf mass found in s (a term only in the heading counts half),
                    a term also counts as found through one of its expansion aliases
    sentence_cover  the same without the heading
    heading_cover   share of q's idf mass found in the chunk's heading path
    cover_gap       coverage minus the best coverage of any candidate (0 for the best)
    density         share of s's terms that are question terms
    typed           q asks for a typed value and s holds a span of that type that q does not
                    already state (1/0)
    untyped_miss    q asks for a typed value and s holds none (1/0)
    q_numbers       share of q's numbers that s states too (0 when q has none)
    rank            1 / (r + 1)
    score_ratio     the chunk's retrieval score / the top chunk's (1 when scores are missing)
    first           s is the chunk's first quotable sentence (1/0)
    item            s is a list item or table row (1/0)
    length          log(1 + number of terms of s) / 4

The confidence of an answer is a second logistic fit (Platt scaling, `confidence_features`)
of whether the chosen sentence is an evidence sentence, with unanswerable questions as
negatives: a probability in [0, 1] that the abstention threshold cuts.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources

from .answertypes import Span, accepts, typed_spans
from .metrics import numbers
from .ranking import rounded

FEATURES = ("bias", "coverage", "sentence_cover", "heading_cover", "cover_gap", "prev_cover", "density", "prefix_cover",
            "pairs", "typed", "untyped_miss", "q_numbers", "negation", "steps", "rank", "score_ratio", "first",
            "item", "length")
# Words that answer a yes/no question in the negative ("not", "never", "না", "নেই").
NEGATIONS = frozenset(["not", "no", "never", "cannot", "can't", "only", "free", "না", "নেই", "নয়", "কখনো", "শুধু", "ফ্রি"])
_BANGLA_NO = re.compile("(?:^|[^\u0980-\u09ff])(?:না|নেই)(?:[^\u0980-\u09ff]|$)")  # না is a stopword
PREFIX = 4  # code points two words must share to count as one word in another form
CONFIDENCE_FEATURES = ("bias", "coverage", "missing")


@dataclass(frozen=True)
class Model:
    weights: tuple[float, ...]  # one per FEATURES
    confidence: tuple[float, ...]  # one per CONFIDENCE_FEATURES


def parse_model(data: dict) -> Model:
    if tuple(data.get("features", ())) != FEATURES or len(data.get("weights", ())) != len(FEATURES):
        raise ValueError("sentence_model.json: 'features' and 'weights' do not match this raglab; re-fit with "
                         "python bench/fit_answerer.py --write")
    if tuple(data.get("confidence_features", ())) != CONFIDENCE_FEATURES or \
            len(data.get("confidence", ())) != len(CONFIDENCE_FEATURES):
        raise ValueError("sentence_model.json: 'confidence' does not match this raglab; re-fit it")
    return Model(tuple(float(w) for w in data["weights"]), tuple(float(w) for w in data["confidence"]))


@functools.lru_cache(maxsize=1)
def model() -> Model:
    text = resources.files("raglab").joinpath("data/sentence_model.json").read_text(encoding="utf-8")
    return parse_model(json.loads(text))


def dot(weights, values) -> float:
    return math.fsum(w * v for w, v in zip(weights, values))


def logistic(z: float) -> float:
    """1 / (1 + e^-z), rounded so a last-bit difference of exp between C libraries never shows."""
    if z >= 0:
        return rounded(1.0 / (1.0 + math.exp(-z)))
    e = math.exp(z)
    return rounded(e / (1.0 + e))


@functools.lru_cache(maxsize=50_000)
def spans_of(text: str) -> tuple[Span, ...]:
    return tuple(typed_spans(text))


@functools.lru_cache(maxsize=50_000)
def numbers_of(text: str) -> frozenset[str]:
    return frozenset(numbers(text))


def fresh_spans(spans, text: str, qtype: str, question_numbers: frozenset[str]) -> list[Span]:
    """The spans of an accepted type for `qtype` whose numbers the question does not already
    state ("I need to withdraw 40,000 taka" is not answered by "Tk 40,000")."""
    wanted = accepts(qtype)
    out = []
    for s in spans:
        if s.type in wanted:
            nums = numbers(text[s.start:s.end])
            if not nums or not all(n in question_numbers for n in nums):
                out.append(s)
    return out


@dataclass(frozen=True)
class Question:
    """What the features need to know about the question, computed once per question."""

    weights: dict  # term -> idf
    total: float  # idf mass
    aliases: dict
    qtype: str
    numbers: frozenset[str]
    pairs: tuple  # adjacent question terms
    text: str = ""


def prefix_index(terms) -> dict[str, tuple[str, ...]]:
    """A sentence's terms of at least PREFIX code points, by their first PREFIX code points."""
    out: dict[str, list[str]] = {}
    for t in terms:
        if len(t) >= PREFIX:
            out.setdefault(t[:PREFIX], []).append(t)
    return {k: tuple(sorted(set(v))) for k, v in out.items()}


def _same_stem(a: str, b: str) -> bool:
    """Two words in other forms (licenses/licensed, eligible/eligibility, পাঠাতে/পাঠানো):
    they share a prefix of PREFIX code points that leaves at most three of the shorter."""
    n = min(len(a), len(b))
    if n < PREFIX:
        return False
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i >= PREFIX and i >= n - 3


def features(q: Question, found: set, in_heading: set, mass, text: str, terms: frozenset, pairs: frozenset,
             prefixes: dict, rank: int, score_ratio: float, first: bool, item: bool, spans) -> list[float]:
    """The feature vector of one candidate (without the context features `set_context` fills in)."""
    own = mass(found) / q.total
    near = set(found)
    for t in q.weights:
        if t not in near and any(_same_stem(t, s) for s in prefixes.get(t[:PREFIX], ())):
            near.add(t)
    prefix = mass(near) / q.total
    pair_hits = 0
    for p in q.pairs:
        if p in pairs:
            pair_hits += 1
    pair_share = pair_hits / len(q.pairs) if q.pairs else 0.0
    head = mass(in_heading) / q.total
    cov = (mass(found) + 0.5 * mass(in_heading - found)) / q.total
    typed = untyped = 0.0
    if accepts(q.qtype):
        if fresh_spans(spans, text, q.qtype, q.numbers):
            typed = 1.0
        else:
            untyped = 1.0
    qnum = 0.0
    if q.numbers:
        have = numbers_of(text)
        hit = 0
        for n in sorted(q.numbers):
            if n in have:
                hit += 1
        qnum = hit / len(q.numbers)
    density = len(found & terms) / len(terms) if terms else 0.0
    negation = 1.0 if q.qtype == "yesno" and (terms & NEGATIONS or _BANGLA_NO.search(text)) else 0.0
    steps = 1.0 if q.qtype == "procedure" and item else 0.0
    return [1.0, cov, own, head, 0.0, 0.0, density, prefix, pair_share, typed, untyped, qnum, negation, steps,
            1.0 / (rank + 1), score_ratio, 1.0 if first else 0.0, 1.0 if item else 0.0, math.log(1 + len(terms)) / 4]


def set_context(rows: list[list[float]], chunk_of: list[int]) -> None:
    """Fill in what needs the other candidates: `cover_gap` (to the best coverage) and
    `prev_cover` (the sentence coverage of the sentence before, in the same chunk: an answer
    often follows the sentence that restates the question)."""
    best = max((r[1] for r in rows), default=0.0)
    gap, prev, own = FEATURES.index("cover_gap"), FEATURES.index("prev_cover"), FEATURES.index("sentence_cover")
    for i, r in enumerate(rows):
        r[gap] = r[1] - best
        if i and chunk_of[i - 1] == chunk_of[i]:
            r[prev] = rows[i - 1][own]


def confidence_features(coverage: float, missing: float) -> list[float]:
    """What the confidence is computed from: the chosen sentence's coverage of the question,
    and the share of the question's idf mass found nowhere in the retrieved chunks (a question
    about something the help centre never mentions). Measured on dev (two-fold), these two
    separate answerable from unanswerable questions better than the sentence model's logit
    or the raw retrieval score (whose scale also differs from one retriever to the next)."""
    return [1.0, coverage, missing]


def confidence(m: Model, values: list[float]) -> float:
    return logistic(dot(m.confidence, values))
