"""The extractive answerer: quote the best sentence(s) of the top chunks, cite, or abstain.

A candidate sentence is scored by idf-weighted coverage of the question's terms:
the share of the question's idf mass whose terms occur in the sentence; a term
found only in the chunk's heading path counts half. The best sentence is quoted
verbatim. A second sentence is added only when it covers question terms the first
does not (two-fact questions). Below `threshold` coverage the answerer abstains.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

from .analyzer import analyze, is_heading, quote_span, sentences
from .chunking import Chunk
from .ranking import rounded

HEADING_WEIGHT = 0.5
NOT_FOUND = "Not found in the help centre."


@dataclass(frozen=True)
class Quote:
    chunk: str
    doc: str
    start: int  # offsets in the document text
    end: int
    text: str


@dataclass(frozen=True)
class Answer:
    text: str | None
    abstained: bool
    citations: list[str]
    quotes: list[Quote] = field(default_factory=list)
    coverage: float = 0.0


def _weights(question_terms: list[str], idf: Callable[[str], float]) -> dict[str, float]:
    weights = {}
    for t in question_terms:
        weights[t] = idf(t)
    return weights


def _mass(terms, weights: dict[str, float]) -> float:
    total = 0.0
    for t in sorted(terms):
        total += weights[t]
    return total


def _table_header(text: str, end: int) -> bool:
    """True when the sentence ending at `end` is a table row followed by the |---| rule."""
    if not text.startswith("|", text.rfind("\n", 0, end) + 1):
        return False
    nl = text.find("\n", end)
    rule = text[nl + 1: text.find("\n", nl + 1) if text.find("\n", nl + 1) >= 0 else len(text)] if nl >= 0 else ""
    return bool(rule.strip()) and set(rule.strip()) <= set("|-: ")


@functools.lru_cache(maxsize=50_000)
def candidates(chunk: Chunk) -> tuple[tuple[Quote, frozenset[str]], ...]:
    """Quotable sentences of a chunk with their terms: not headings, not table rules, not
    termless. Cached per chunk: a chunk is analysed once, not once per question."""
    out = []
    for s, e in sentences(chunk.text):
        if is_heading(chunk.text, s) or _table_header(chunk.text, e):
            continue
        qs, qe = quote_span(chunk.text, s, e)
        text = chunk.text[qs:qe]
        terms = frozenset(analyze(text))
        if terms:
            out.append((Quote(chunk.id, chunk.doc, chunk.start + qs, chunk.start + qe, text), terms))
    return tuple(out)


@functools.lru_cache(maxsize=50_000)
def heading_terms(heading: tuple[str, ...]) -> frozenset[str]:
    return frozenset(analyze(" ".join(heading)))


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


def answer(question_terms: list[str], chunks: list[Chunk], idf: Callable[[str], float],
           threshold: float = 0.5, second_gain: float = 0.2,
           aliases: dict[str, list[tuple[str, ...]]] | None = None) -> Answer:
    """Answer from `chunks` (best first). `idf` gives a term's weight (unseen terms: high).

    `aliases` (from query expansion) maps a question term to phrases that say the same
    thing; a sentence holding one of them covers that term.
    """
    aliases = aliases or {}
    weights = _weights(question_terms, idf)
    total = _mass(weights, weights)
    if not weights or total <= 0:
        return Answer(None, True, [])
    scored = []
    for rank, chunk in enumerate(chunks):
        in_heading = _present(heading_terms(chunk.heading), weights, aliases)
        for quote, terms in candidates(chunk):
            found = _present(terms, weights, aliases)
            cov = (_mass(found, weights) + HEADING_WEIGHT * _mass(in_heading - found, weights)) / total
            scored.append((-rounded(cov), rank, quote.start, quote, found))
    if not scored:
        return Answer(None, True, [])
    scored.sort(key=lambda x: x[:3])
    best_cov, _, _, best, best_found = scored[0]
    coverage = -best_cov
    if coverage < threshold:
        return Answer(None, True, [], coverage=coverage)
    picked = [best]
    gains = []
    for neg, r, start, quote, found in scored[1:]:
        if quote.text == best.text:
            continue
        gain = rounded(_mass(found - best_found, weights) / total)
        gains.append((-gain, r, start, quote))
    if gains:
        gains.sort(key=lambda x: x[:3])
        if -gains[0][0] >= second_gain:
            picked.append(gains[0][3])
    citations = []
    for q in picked:
        if q.chunk not in citations:
            citations.append(q.chunk)
    # One quote per line: a table row or list item has no full stop to end it.
    return Answer("\n".join(q.text for q in picked), False, citations, picked, coverage)
