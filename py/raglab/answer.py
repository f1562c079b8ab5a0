"""The extractive answerer: quote the best sentence(s) of the top chunks with a short answer, cite, or abstain.

Every quotable sentence of the retrieved chunks (table rows and list items included) is
a candidate; a small learned model (`sentences.py`) scores each one from features such
as the idf-weighted coverage of the question's terms and whether it holds a value of the
type the question asks for (`answertypes.py`). The best sentence is quoted verbatim
(up to `limits.MAX_ANSWER_CHARS`, 500 code points: a longer one, a giant table row, is
quoted and scored up to its last word boundary within the limit), with its short answer
(`shortanswer.py`). A second sentence is added only when it covers
question terms the first does not (two-fact questions), with its own short answer. The
answer's confidence is a calibrated probability that the quoted sentence is the evidence;
below `threshold` the answerer abstains.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

from .analyzer import analyze, is_heading, quote_span, sentences, tokens
from .answertypes import question_type
from .chunking import Chunk
from .limits import MAX_ANSWER_CHARS, cut_at_word, index_heading
from .metrics import numbers
from .ranking import rounded
from .sentences import (FEATURES, Question, confidence, confidence_features, dot, features, model, prefix_index,
                        set_context, spans_of)
from .shortanswer import short_span

HEADING_WEIGHT = 0.5
SECOND_MARGIN = 1.0  # in logits of the sentence model
NOT_FOUND = "Not found in the help centre."


@dataclass(frozen=True)
class Quote:
    chunk: str
    doc: str
    start: int  # offsets in the document text
    end: int
    text: str


@dataclass(frozen=True)
class ShortAnswer:
    text: str
    chunk: str
    start: int  # offsets in the chunk text
    end: int


@dataclass(frozen=True)
class Answer:
    text: str | None
    abstained: bool
    citations: list[str]
    quotes: list[Quote] = field(default_factory=list)
    coverage: float = 0.0  # idf-weighted coverage of the question by the best sentence
    confidence: float = 0.0  # calibrated probability that the quoted sentence is the evidence
    answer_type: str = "other"
    short_answers: list[ShortAnswer] = field(default_factory=list)


@dataclass(frozen=True)
class Candidate:
    quote: Quote
    terms: frozenset
    found: frozenset  # question terms present in the sentence
    features: list
    rank: int  # of its chunk
    offset: int  # of the sentence in its chunk


def _weights(question_terms: list[str], idf: Callable[[str], float]) -> dict[str, float]:
    weights = {}
    for t in question_terms:
        weights[t] = idf(t)
    return weights


def _mass(terms, weights: dict[str, float]) -> float:
    """Sum of the terms' weights; math.fsum is correctly rounded, so the order cannot matter."""
    return math.fsum([weights[t] for t in terms])


def _table_header(text: str, end: int) -> bool:
    """True when the sentence ending at `end` is a table row followed by the |---| rule."""
    if not text.startswith("|", text.rfind("\n", 0, end) + 1):
        return False
    nl = text.find("\n", end)
    rule = text[nl + 1: text.find("\n", nl + 1) if text.find("\n", nl + 1) >= 0 else len(text)] if nl >= 0 else ""
    return bool(rule.strip()) and set(rule.strip()) <= set("|-: ")


@functools.lru_cache(maxsize=50_000)
def candidates(chunk: Chunk) -> tuple[tuple[Quote, frozenset[str], bool, frozenset, dict], ...]:
    """Quotable sentences of a chunk with their terms, whether each is a list item or table
    row, its pairs of adjacent terms and its terms by prefix (`sentences.prefix_index`):
    not headings, not table rules, not termless. Cached per chunk: a chunk is
    analysed once, not once per question."""
    out = []
    for s, e in sentences(chunk.text):
        if is_heading(chunk.text, s) or _table_header(chunk.text, e):
            continue
        qs, qe = quote_span(chunk.text, s, e)
        text = cut_at_word(chunk.text[qs:qe], MAX_ANSWER_CHARS)  # a 78 KB table row is no answer
        qe = qs + len(text)
        seq = analyze(text)
        if seq:
            item = qs > s and chunk.text[s] in "-*|0123456789\u09e6\u09e7\u09e8\u09e9\u09ea\u09eb\u09ec\u09ed\u09ee\u09ef"
            out.append((Quote(chunk.id, chunk.doc, chunk.start + qs, chunk.start + qe, text), frozenset(seq), item,
                        frozenset(zip(seq, seq[1:])), prefix_index(seq)))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)
def _term_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    return tuple((t.term, t.start, t.end) for t in tokens(text))


@functools.lru_cache(maxsize=50_000)
def heading_terms(heading: tuple[str, ...]) -> frozenset[str]:
    return frozenset(analyze(" ".join(index_heading(heading))))


def _present(text_terms: set[str], weights: dict[str, float], aliases: dict) -> set[str]:
    """The question terms present in a text: literally, or through one of their aliases."""
    found = text_terms & weights.keys()
    for t, alts in aliases.items():
        if t in weights and t not in found:
            for alt in alts:
                if all(a in text_terms for a in alt):
                    found.add(t)
                    break
    return found


def question_info(question: str, question_terms: list[str], idf: Callable[[str], float], aliases: dict) -> Question:
    weights = _weights(question_terms, idf)
    return Question(weights, _mass(weights, weights), aliases, question_type(question), frozenset(numbers(question)),
                    tuple(sorted(set(zip(question_terms, question_terms[1:])))), question)


def score_candidates(q: Question, chunks: list[Chunk], scores: list[float] | None = None) -> list[Candidate]:
    """Every candidate sentence of `chunks` (best first) with its features, in chunk order."""
    if not q.weights or q.total <= 0:
        return []
    top = scores[0] if scores else 0.0
    mass = lambda terms: _mass(terms, q.weights)  # noqa: E731
    out = []
    for rank, chunk in enumerate(chunks):
        ratio = scores[rank] / top if scores and top > 0 else 1.0
        in_heading = _present(heading_terms(chunk.heading), q.weights, q.aliases)
        for n, (quote, terms, item, pairs, prefixes) in enumerate(candidates(chunk)):
            found = _present(terms, q.weights, q.aliases)
            row = features(q, found, in_heading, mass, quote.text, terms, pairs, prefixes, rank, ratio, n == 0, item,
                           spans_of(quote.text))
            out.append(Candidate(quote, terms, frozenset(found), row, rank, quote.start - chunk.start))
    set_context([c.features for c in out], [c.rank for c in out])
    return out


def missing_share(q: Question, chunks: list[Chunk], cands: list[Candidate]) -> float:
    """Share of the question's idf mass that no candidate sentence and no heading holds."""
    seen: set = set()
    for c in cands:
        seen |= c.found
    for chunk in chunks:
        seen |= _present(heading_terms(chunk.heading), q.weights, q.aliases)
    return _mass(set(q.weights) - seen, q.weights) / q.total if q.total > 0 else 1.0


def _short(q: Question, c: Candidate) -> ShortAnswer | None:
    span = short_span(q.qtype, q.numbers, set(q.weights), c.quote.text, spans_of(c.quote.text), _term_spans, q.text)
    if span is None:
        return None
    s, e = span
    return ShortAnswer(c.quote.text[s:e], c.quote.chunk, c.offset + s, c.offset + e)


def answer(question_terms: list[str], chunks: list[Chunk], idf: Callable[[str], float],
           threshold: float = 0.5, second_gain: float = 0.2,
           aliases: dict[str, list[tuple[str, ...]]] | None = None, question: str = "",
           scores: list[float] | None = None) -> Answer:
    """Answer `question` from `chunks` (best first, with their retrieval `scores` when known).

    `question_terms` are its analysed terms; `idf` gives a term's weight (unseen terms:
    high); `aliases` (from query expansion) maps a question term to phrases that say the
    same thing, so a sentence holding one of them covers that term. Abstains when the
    confidence is below `threshold`.
    """
    q = question_info(question, question_terms, idf, aliases or {})
    scored = []
    m = model()
    for c in score_candidates(q, chunks, scores):
        scored.append((-rounded(dot(m.weights, c.features)), c.rank, c.quote.start, c))
    if not scored:
        return Answer(None, True, [], answer_type=q.qtype)
    scored.sort(key=lambda x: x[:3])
    best = scored[0][3]
    coverage = best.features[FEATURES.index("coverage")]
    conf = confidence(m, confidence_features(coverage, missing_share(q, chunks, [x[3] for x in scored])))
    if conf < threshold or coverage <= 0:  # a sentence with none of the question's words answers nothing
        return Answer(None, True, [], coverage=coverage, confidence=conf, answer_type=q.qtype)
    picked = [best]
    gains = []
    for neg, r, start, c in scored[1:]:
        if c.quote.text == best.quote.text:
            continue
        gain = rounded(_mass(c.found - best.found, q.weights) / q.total)
        gains.append((-gain, neg, r, start, c))
    # A second sentence must also be nearly as likely an answer as the first (tuned on dev).
    gains = [g for g in gains if -g[1] >= -scored[0][0] - SECOND_MARGIN]
    if gains:
        gains.sort(key=lambda x: x[:4])
        if -gains[0][0] >= second_gain:
            picked.append(gains[0][4])
    citations = []
    for c in picked:
        if c.quote.chunk not in citations:
            citations.append(c.quote.chunk)
    shorts = []
    for c in picked:
        s = _short(q, c)
        if s is not None and all(s.text != o.text for o in shorts):
            shorts.append(s)
    # One quote per line: a table row or list item has no full stop to end it.
    quotes = [c.quote for c in picked]
    return Answer("\n".join(x.text for x in quotes), False, citations, quotes, coverage, conf, q.qtype, shorts)
