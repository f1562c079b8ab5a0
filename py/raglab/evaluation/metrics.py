"""Evaluation metrics on character spans, answer metrics, and the bootstrap.

Relevance is arithmetic on spans, never on chunk ids, so one golden set scores every
chunker on the same terms:

- A chunk *covers* an evidence passage when both lie in the same document and the
  chunk overlaps at least `min_coverage` (default one half) of the passage's characters.
- Passages are grouped into facts (`Evidence.fact`): one fact stated in two articles
  (a Bangla twin, the fees page) is two passages of one fact, and covering either
  delivers it. Below, "passage" means such a fact; without grouping each passage is
  its own fact.
- Gain counts once per passage. Walking down a ranking, a chunk's gain is the number of
  passages it covers that no higher-ranked chunk has covered; a second chunk over the
  same passage adds nothing. `gains()` turns a ranking into that list of integers, and
  every retrieval metric below is a function of it.

Retrieval metrics (for one question; averages are taken by the caller):

    hit@k     1 if some passage is covered in the top k, else 0
    recall@k  passages covered in the top k / passages
    RR@k      1 / rank of the first covering chunk, 0 if it is below k   (MRR is its mean)
    nDCG@k    DCG@k / ideal DCG@k, DCG@k = sum over ranks r <= k of gain_r / log2(r + 1)

The ideal ranking delivers every passage as early as the chunker allows: chunks that
cover two passages at once come first (`ideal_gains`), and a passage that no chunk
covers still gets a rank of its own, so a chunker that cannot cover the evidence is not
excused by its own ideal. With one passage per chunk the ideal is the textbook one,
1, 1/log2(3), 1/2, ... cut at k.

Worked example (tested): gains 0 1 0 1 0 with three passages give recall@5 = 2/3,
RR = 1/2 and nDCG@5 = (1/log2 3 + 1/log2 5) / (1 + 1/log2 3 + 1/2) = 0.498.

Everything here is pure standard library and deterministic: means use `math.fsum`
(correctly rounded, so the order of addition cannot matter) and the bootstrap draws
integers from `random.Random(seed)`.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from raglab.corpus.articles import detect_lang
from raglab.corpus.goldens import fact_key
from raglab.text.analyzer import analyze
from raglab.text.numbers import NUMBER, is_number_word, number_values, numbers

MRR_DEPTH = 10  # MRR and the second nDCG are cut at 10 whatever k is

# --- span coverage ------------------------------------------------------------


def overlap(start: int, end: int, other_start: int, other_end: int) -> int:
    """Characters shared by the half-open spans [start, end) and [other_start, other_end)."""
    return max(0, min(end, other_end) - max(start, other_start))


def covers(chunk, passage, min_coverage: float = 0.5) -> bool:
    """True when `chunk` (doc, start, end) overlaps at least min_coverage of `passage`."""
    if chunk.doc != passage.doc:
        return False
    length = passage.end - passage.start
    return overlap(chunk.start, chunk.end, passage.start, passage.end) >= min_coverage * length


def covered(chunk, passages, min_coverage: float = 0.5) -> frozenset[int]:
    """The facts whose passages `chunk` covers (a passage without a `fact` is a fact of its own).

    When one fact is stated in several articles (a Bangla twin, the fees page), each
    statement is a passage of that fact, and covering any one of them delivers it.
    """
    return frozenset(i if getattr(p, "fact", None) is None else p.fact
                     for i, p in enumerate(passages) if covers(chunk, p, min_coverage))


def gains(ranked: list[frozenset[int]]) -> list[int]:
    """Per rank, the number of passages covered there and by no higher-ranked chunk."""
    seen: set[int] = set()
    out = []
    for passages in ranked:
        new = passages - seen
        out.append(len(new))
        seen |= new
    return out


def ideal_gains(coverable: list[frozenset[int]], n_passages: int) -> list[int]:
    """Gains of the best ranking: greedily the chunk covering most uncovered passages.

    `coverable` lists what each chunk of the corpus covers (chunks covering nothing may
    be left out). Greedy is exact for up to three passages per question. Passages that
    no chunk covers are appended with gain 1 each.
    """
    left = set(range(n_passages))
    out = []
    while left:
        best = 0
        for passages in coverable:
            best = max(best, len(passages & left))
        if best == 0:
            break
        for passages in coverable:
            if len(passages & left) == best:
                left -= passages
                break
        out.append(best)
    out.extend([1] * len(left))
    return out


def first_rank(gain: list[int]) -> int | None:
    """1-based rank of the first chunk with gain, or None."""
    for rank, g in enumerate(gain, 1):
        if g:
            return rank
    return None


def hit_at(gain: list[int], k: int) -> float:
    rank = first_rank(gain[:k])
    return 1.0 if rank is not None else 0.0


def recall_at(gain: list[int], n_passages: int, k: int) -> float:
    if n_passages < 1:
        raise ValueError("recall needs at least one evidence passage")
    found = 0
    for g in gain[:k]:
        found += g
    return found / n_passages


def reciprocal_rank(gain: list[int], k: int = 10) -> float:
    rank = first_rank(gain[:k])
    return 1.0 / rank if rank is not None else 0.0


def dcg_at(gain: list[int], k: int) -> float:
    return math.fsum(g / math.log2(rank + 1) for rank, g in enumerate(gain[:k], 1) if g)


def ndcg_at(gain: list[int], ideal: list[int], k: int) -> float:
    """nDCG@k with binary relevance per passage; `ideal` from `ideal_gains` (or [1] * R)."""
    best = dcg_at(sorted(ideal, reverse=True), k)
    return dcg_at(gain, k) / best if best > 0 else 0.0


def mean(values) -> float | None:
    """The mean of `values`, or None when there are none (shown as "n/a", never as 0)."""
    values = list(values)
    return math.fsum(values) / len(values) if values else None


# --- answers ------------------------------------------------------------------


def token_f1(prediction: str | None, reference: str, terms=analyze) -> float:
    """SQuAD-style token F1 over raglab's analyzer terms (lower-cased, punctuation and the
    danda dropped, Bangla digits folded, light stemming); an abstention scores 0.
    `terms` is the analyzer (the evaluation passes a memoised one)."""
    if prediction is None:
        return 0.0
    return f1_of_terms(terms(prediction), terms(reference))


def f1_of_terms(pred: list[str], ref: list[str]) -> float:
    """Token F1 of two already analysed term lists (multiset overlap)."""
    if not pred or not ref:
        return 1.0 if pred == ref else 0.0
    common = Counter(pred) & Counter(ref)
    same = 0
    for count in common.values():
        same += count
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(ref)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str | None, reference: str, terms=analyze) -> float:
    """1 when the two texts analyze to the same terms; an abstention scores 0."""
    if prediction is None:
        return 0.0
    return 1.0 if terms(prediction) == terms(reference) else 0.0


def holds_fact(answer_text: str | None, reference: str, strict: bool = False, evidence=()) -> bool:
    """Whether an answer states the reference fact: it contains every number of the reference
    and at least half of the reference's content terms (analyzer terms that are not numbers).
    An abstention (None) holds nothing.

    Numbers are compared as values in either digit script, grouping ignored, and, unless
    `strict`, also when written in words (`numbers.number_values`: দুই লাখ = ২,০০,০০০ =
    200,000, "five" = 5; number words are then numbers, not content terms). `strict=True`
    reads digits only, as this metric did before words were read.

    An answer in the other language than its reference (a Bangla question answered by
    quoting an English article) cannot contain the reference's words, only its numbers. So,
    unless `strict`, when `evidence` (the question's verbatim passages, `goldens.Evidence`)
    has passages in the answer's language, the content terms are read from them instead:
    for every fact with such a passage, the answer holds half the content terms of one of
    its passages. The numbers still come from the reference.

    >>> holds_fact("The fee is Tk 18.50 per Tk 1,000 (1.85%).", "১.৮৫% fee")
    True
    >>> holds_fact("The fee is 1.95% at an ATM.", "1.85%")
    False
    >>> holds_fact("Up to ২,০০,০০০ টাকা a month.", "দুই লাখ টাকা"), holds_fact("Up to Tk 2,00,000 a month.", "Tk 2 lakh")
    (True, True)
    >>> holds_fact("Up to Tk 2,00,000 a month.", "Tk 2 lakh", strict=True)
    False
    """
    if answer_text is None:
        return False
    read = numbers if strict else number_values
    have = set(read(answer_text))
    if any(n not in have for n in read(reference)):
        return False
    present = set(analyze(answer_text))
    passages = [] if strict else _passages_in(answer_text, reference, evidence)
    if passages:
        return all(any(_half_found(p, present, strict) for p in group) for group in passages)
    return _half_found(reference, present, strict)


def _half_found(reference: str, present: set, strict: bool) -> bool:
    wanted = [t for t in analyze(reference) if not NUMBER.fullmatch(t) and (strict or not is_number_word(t))]
    found = 0
    for term in wanted:
        if term in present:
            found += 1
    return 2 * found >= len(wanted)


def _passages_in(answer_text: str, reference: str, evidence) -> list[list[str]]:
    """The evidence quotes in the answer's language grouped by fact, when the reference is in
    the other language (else none)."""
    lang = detect_lang(answer_text)
    if not evidence or detect_lang(reference) == lang:
        return []
    groups: dict = {}
    for i, e in enumerate(evidence):
        if detect_lang(e.quote) == lang:
            groups.setdefault(fact_key(i, e), []).append(e.quote)
    return [groups[f] for f in sorted(groups)]


def faithfulness(quotes, texts: dict[str, str]) -> float:
    """Share of an answer's quotes taken verbatim from the given articles (`texts`: article id
    -> text, the articles of the retrieved chunks): a sentence is its article's text at its
    offsets; a table row, read with its header ("Agent — Fee: 1.85%"), has each of its cells
    and column names in the row or the table above it.

    Measured rather than assumed: an extractive answerer should score 1.0, and a
    generator that paraphrases or invents would not.
    """
    if not quotes:
        return 0.0
    found = 0
    for q in quotes:
        text = texts.get(q.doc)
        if text is None:
            continue
        if getattr(q, "kind", "sentence") != "row":
            found += text[q.start:q.end] == q.text
            continue
        blank = text.rfind("\n\n", 0, q.start)
        table = text[blank + 2 if blank >= 0 else 0:q.end]
        pieces = [p for part in q.text.split(" \u2014 ") for cell in part.split("; ") for p in cell.split(": ") if p]
        found += all(p in table for p in pieces)
    return found / len(quotes)


def citation_precision(cited: list, passages, min_coverage: float = 0.5) -> float:
    """Share of the cited chunks that cover at least one evidence passage."""
    if not cited:
        return 0.0
    good = 0
    for chunk in cited:
        if covered(chunk, passages, min_coverage):
            good += 1
    return good / len(cited)


# --- the bootstrap --------------------------------------------------------------

RESAMPLES = 2000
SEED = 20240607


def resamples(n: int, count: int = RESAMPLES, seed: int = SEED) -> list[list[int]]:
    """`count` lists of n indices drawn with replacement, from integer draws only."""
    if not n:
        return []
    # `random.randrange(n)`'s own draw (getrandbits of n's bit length until below n), without its
    # three Python calls a draw: a comparison draws millions. The same numbers (tests hold it).
    bits, k = random.Random(seed).getrandbits, n.bit_length()
    out = []
    for _ in range(count):
        row = []
        for _ in range(n):
            r = bits(k)
            while r >= n:
                r = bits(k)
            row.append(r)
        out.append(row)
    return out


# Fewer questions than this get no interval (the report says "n too small"): resampling one
# question gives [x, x], and a handful give as few distinct resamples, so the interval would
# claim a certainty the data does not have.
MIN_INTERVAL_N = 10


def percentile_interval(values: list[float], draws: list[list[int]], level: float = 0.95) -> tuple[float, float] | None:
    """The percentile bootstrap interval of the mean of `values` over the given draws.

    The bounds are the order statistics at (1 - level) / 2 and 1 - (1 - level) / 2:
    the 51st and the 1,950th of 2,000 sorted resample means.
    """
    if not values or not draws:
        return None
    means = sorted(math.fsum(map(values.__getitem__, idx)) / len(idx) for idx in draws)
    tail = (1.0 - level) / 2
    lo = int(math.floor(tail * len(means) + 1e-9))
    hi = int(math.ceil((1.0 - tail) * len(means) - 1e-9)) - 1
    return means[lo], means[max(lo, hi)]
