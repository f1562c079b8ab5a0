"""Harm and selective answering, and DeepEval's contextual precision/recall on spans.

A support bot that abstains costs the customer a search; one that answers wrongly and
confidently costs a complaint. These measures count the second kind.

- **wrong answer** (`outcome`): the answerer answered, and the answer does not state the
  reference fact (`metrics.holds_fact`: every number of the reference and at least half of
  its content terms); any answer to an unanswerable question is wrong. The wrong-answer
  rate is wrong answers / questions, next to the answer rate and the abstention rate.
- **risk-coverage** (Geifman & El-Yaniv, "Selective classification for deep neural
  networks", NeurIPS 2017): order the questions by the answerer's confidence (the
  calibrated probability its abstention threshold cuts) and answer the top share of them. Coverage = answered / questions, risk = wrong /
  answered. Questions tied on confidence are answered together (no threshold can split
  them). AURC = the area under that step curve = (1/n) * sum over answered positions i of
  the risk after answering up to i; lower is better, 0 when no answer is ever wrong. A
  question the answerer has nothing to say for at any threshold is never answered, so such
  a curve stops short of coverage 1.
- **misleading@1**: the top chunk comes from an article that holds none of the question's
  evidence *and* states a value of the question's answer type (an amount for "how much",
  a duration for "how long": `answertypes`). That is the chunk that hands a bot a
  confident wrong number. Over answerable questions; a question without a typed answer
  (a yes/no or how-to question) cannot be misled this way and counts 0.
- **contextual precision** (DeepEval): (1 / R) * sum over k = 1..K of (relevant in the top
  k / k) * r_k, where r_k = 1 when the chunk at rank k covers an evidence passage (the
  min-coverage rule) and R is the number of relevant chunks in the top K; 0 when R = 0.
  It rewards putting relevant chunks first, and unlike MRR it counts every one of them.
- **contextual recall** (DeepEval): the share of the reference answer's facts attributable
  to the retrieved context. On spans: a fact is attributable when, for one of its passages,
  the top-K chunks *together* overlap at least min-coverage of it (recall@k asks one chunk
  to do that alone, so contextual recall >= recall@k).

Worked examples (tested): relevance 0 1 0 1 0 gives contextual precision
(1/2) * (1/2 + 2/4) = 0.5. Confidences 0.9, 0.8, 0.8, 0.3 with outcomes right, wrong,
right, wrong: answering the first gives risk 0; the tied pair enters together, risk 1/3 at
coverage 3/4; all four, risk 2/4. AURC = (1/4) * (0 + 1/3 + 1/3 + 1/2) = 0.292.

(DeepEval: https://deepeval.com/docs/metrics-contextual-precision and
.../metrics-contextual-recall; there an LLM judges relevance, here spans do.)
"""

from __future__ import annotations

import math
from itertools import accumulate, repeat
from operator import add, itemgetter, mul, truediv

from raglab.corpus.goldens import fact_key
from raglab.evaluation.metrics import MIN_INTERVAL_N, holds_fact, overlap

# --- one question -------------------------------------------------------------------


def outcome(answer_text: str | None, reference: str | None, evidence=()) -> str:
    """'abstained', 'right' or 'wrong' for an answer to a question with this reference (and
    these evidence passages: `holds_fact`)."""
    if answer_text is None:
        return "abstained"
    if reference is None:
        return "wrong"
    return "right" if holds_fact(answer_text, reference, evidence=evidence) else "wrong"


def contextual_precision(relevant: list[bool]) -> float:
    """DeepEval's rank-weighted precision of one ranking, cut by the caller (see the module doc)."""
    found = 0
    total = 0.0
    for k, rel in enumerate(relevant, 1):
        if rel:
            found += 1
            total += found / k
    return total / found if found else 0.0


def contextual_recall(chunks, evidence, min_coverage: float = 0.5) -> float:
    """Share of facts whose passage the chunks (doc, start, end) cover together by min-coverage."""
    facts: dict[int, bool] = {}
    for n, ev in enumerate(evidence):
        fact = fact_key(n, ev)
        spans = sorted((c.start, c.end) for c in chunks if c.doc == ev.doc)
        joined = 0
        reach = ev.start
        for start, end in spans:  # merged overlap with the passage, each character once
            start = max(start, reach)
            if end > start:
                joined += overlap(start, end, ev.start, ev.end)
                reach = max(reach, end)
        facts[fact] = facts.get(fact, False) or joined >= min_coverage * (ev.end - ev.start)
    if not facts:
        return 0.0
    return sum(1 for v in facts.values() if v) / len(facts)


def misleading(top_doc: str | None, top_types: set[str], evidence_docs: set[str], wanted: set[str]) -> bool:
    """The top chunk's article holds no evidence and the chunk states a value of a wanted type."""
    return top_doc is not None and top_doc not in evidence_docs and bool(top_types & wanted)


# --- risk-coverage -------------------------------------------------------------------


class Curve:
    """The risk-coverage data of one configuration: confidences and outcomes per question.

    `confidence[i]` is None when question i is never answered; `wrong[i]` is 1 or 0.
    The ordering is computed once, so a bootstrap resample costs a few passes in C.
    """

    def __init__(self, confidence: list[float | None], wrong: list[int]):
        self.n = len(confidence)
        order = sorted((i for i, c in enumerate(confidence) if c is not None), key=lambda i: (-(confidence[i] or 0.0), i))
        self.order = order
        self.wrong = [wrong[i] for i in order]
        # For each position, the last position of its tie group: tied questions enter together.
        ends = list(range(len(order)))
        for pos in range(len(order) - 2, -1, -1):
            if confidence[order[pos]] == confidence[order[pos + 1]]:
                ends[pos] = ends[pos + 1]
        self.ends = ends
        self._pick = itemgetter(*order) if len(order) > 1 else (lambda w: (w[order[0]],) if order else ())
        self._ends = itemgetter(*ends) if len(ends) > 1 else (lambda w: tuple(w[e] for e in ends))
        self.confidence = [confidence[i] for i in order]

    def aurc(self, weights: list[int] | None = None) -> float | None:
        """AURC, or with `weights` (how often each question was drawn) the AURC of a resample."""
        if not self.n:
            return None
        if not self.order:
            return 0.0
        w = self._pick(weights) if weights is not None else tuple(repeat(1, len(self.order)))
        answered = list(accumulate(w))
        wrong = list(accumulate(map(mul, w, self.wrong)))
        at_end_answered = self._ends(answered)
        at_end_wrong = self._ends(wrong)
        # A weight-0 position may sit where nothing is answered yet; its term is 0 anyway.
        risks = map(truediv, map(mul, w, at_end_wrong), map(max, at_end_answered, repeat(1)))
        return math.fsum(risks) / self.n  # a resample draws n questions, so its weights add up to n

    def points(self, thresholds) -> list[dict]:
        """Coverage and risk when answering every question with confidence >= t."""
        out = []
        for t in thresholds:
            answered = wrong = 0
            for c, w in zip(self.confidence, self.wrong):
                if c >= t:
                    answered += 1
                    wrong += w
            out.append({"threshold": t, "coverage": answered / self.n if self.n else None,
                        "risk": wrong / answered if answered else None})
        return out


def draw_counts(draws: list[list[int]], n: int) -> list[tuple[int, ...]]:
    """How often each question was drawn, per resample: result[i][d] for question i, resample d.

    Question-major, so that `resample_aurcs` walks the questions once and does the work
    for all resamples at a time (a few C-level passes per question instead of one
    Python-level pass per resample: about five times faster).
    """
    rows = []
    for idx in draws:
        counts = [0] * n
        for i in idx:
            counts[i] += 1
        rows.append(counts)
    return list(zip(*rows)) if rows else [() for _ in range(n)]


def resample_aurcs(curve: Curve, counts: list[tuple[int, ...]]) -> list[float]:
    """The AURC of every resample (weights = draw counts), in resample order.

    Per resample d, with tie groups g in confidence order: AURC_d = (1/n) * sum over g of
    w_g * wrong_so_far / answered_so_far, accumulated group by group in a fixed order.
    """
    draws = len(counts[0]) if counts else 0
    answered = [0] * draws
    wrong = [0] * draws
    total = [0.0] * draws
    ones = [1] * draws
    pos = 0
    while pos < len(curve.order):
        end = curve.ends[pos]
        group = range(pos, end + 1)
        weight = list(counts[curve.order[pos]])
        for p in group[1:]:
            weight = list(map(add, weight, counts[curve.order[p]]))
        answered = list(map(add, answered, weight))
        for p in group:
            if curve.wrong[p]:
                wrong = list(map(add, wrong, counts[curve.order[p]]))
        total = list(map(add, total, map(truediv, map(mul, weight, wrong), map(max, answered, ones))))
        pos = end + 1
    return [t / curve.n for t in total]


def aurc_interval(curve: Curve, counts: list[tuple[int, ...]], level: float = 0.95) -> list[float] | None:
    """Percentile bootstrap interval of AURC over the resamples (as `metrics.percentile_interval`)."""
    if not counts or not counts[0] or curve.n < MIN_INTERVAL_N:
        return None
    values = sorted(resample_aurcs(curve, counts))
    tail = (1.0 - level) / 2
    lo = int(math.floor(tail * len(values) + 1e-9))
    hi = int(math.ceil((1.0 - tail) * len(values) - 1e-9)) - 1
    return [values[lo], values[max(lo, hi)]]


# --- glue for the comparison engine -------------------------------------------------


def answer_typing():
    """(question -> wanted span types, text -> span types present), memoised for one comparison;
    None when this build has no answer-type table (then misleading@1 is not reported)."""
    try:
        from raglab.text.answertypes import accepts, question_type, typed_spans
    except ImportError:
        return None
    wanted_memo: dict[str, frozenset[str]] = {}
    present_memo: dict[str, frozenset[str]] = {}

    def wanted(question: str) -> frozenset[str]:
        got = wanted_memo.get(question)
        if got is None:
            got = wanted_memo[question] = frozenset(accepts(question_type(question)))
        return got

    def present(text: str) -> frozenset[str]:
        got = present_memo.get(text)
        if got is None:
            got = present_memo[text] = frozenset(s.type for s in typed_spans(text))
        return got

    return wanted, present


def memoized_outcome():
    """`outcome` memoised on (answer, reference, evidence): answers recur across configurations."""
    memo: dict[tuple, str] = {}

    def cached(answer_text, reference, evidence=()):
        key = (answer_text, reference, evidence)
        got = memo.get(key)
        if got is None:
            got = memo[key] = outcome(answer_text, reference, evidence)
        return got

    return cached


def question_fields(q, top, relevant: list[bool], answer_text, min_coverage: float, judge, typing) -> dict:
    """The per-question fields these measures need (`top`: the top-k chunks, best first;
    `relevant`: whether each covers an evidence passage; `judge`: `outcome`, memoised)."""
    out = {"outcome": judge(answer_text, q.answer, q.evidence)}
    if q.evidence:
        out["ctx_precision"] = contextual_precision(relevant)
        out["ctx_recall"] = contextual_recall(top, q.evidence, min_coverage)
        if typing is not None:
            wanted, present = typing
            docs = {e.doc for e in q.evidence}
            want = wanted(q.question)
            # Finding typed spans is the costly part: only for a typed question whose top chunk is off.
            off = bool(top) and bool(want) and top[0].doc not in docs
            out["misleading"] = off and misleading(top[0].doc, present(top[0].text), docs, want)
    return out


def _mean(values) -> float | None:
    values = list(values)
    return math.fsum(values) / len(values) if values else None


def summary_fields(records: list[dict], is_answered) -> dict:
    """Wrong-answer rate (over every question), risk among the answered, misleading@1 and
    contextual precision/recall (over answerable questions) at one abstention threshold."""
    said = [r for r in records if is_answered(r)]
    wrong = sum(1 for r in said if r["outcome"] == "wrong")
    ans = [r for r in records if r["answerable"]]
    return {
        "wrong_rate": wrong / len(records) if records else None,
        "risk": wrong / len(said) if said else None,
        "misleading1": _mean(1.0 if r["misleading"] else 0.0 for r in ans) if ans and "misleading" in ans[0] else None,
        "ctx_precision": _mean(r["ctx_precision"] for r in ans),
        "ctx_recall": _mean(r["ctx_recall"] for r in ans),
    }


def curve_of(records: list[dict]) -> Curve:
    """The risk-coverage curve of one configuration, ordered by the answerer's confidence."""
    return Curve([r["confidence"] if r["answer"] is not None else None for r in records],
                 [1 if r["outcome"] == "wrong" else 0 for r in records])


def curve_fields(records: list[dict], counts: list[tuple[int, ...]], thresholds) -> dict:
    """AURC with its bootstrap interval, the coverage reachable at all, and the sweep's points."""
    curve = curve_of(records)
    return {"aurc": {"value": curve.aurc(), "ci": aurc_interval(curve, counts),
                     "max_coverage": len(curve.order) / curve.n if curve.n else None},
            "curve": curve.points(thresholds)}
