"""The risk rule on the answerer fit's per-question outcomes, and the confident wrong answers it
shows (`bench/fit_answerer.py` and the confidence trials that import them from it)."""

from __future__ import annotations

import json
import math
import sys

from raglab.answer.sentences import CONFIDENCE_FEATURES
from raglab.evaluation.stats import RISK_BUDGET, THRESHOLDS
from raglab.retrieval.ranking import rounded


def dump_wrong(ours: list[dict], answers: list[tuple], conf: list[float], outcomes: list[tuple], n: int) -> None:
    """The `n` shown answers that do not state the fact (or answer an unanswerable question) with
    the highest out-of-fold confidence, as JSON lines on stderr: question, reference, evidence,
    what is shown, the confidence and its signals by name."""
    rows = [(c, e, a) for e, a, c, o in zip(ours, answers, conf, outcomes) if o[1] and not o[2]]
    for c, e, a in sorted(rows, key=lambda r: (-r[0], r[1]["question"].id))[:n]:
        q = e["question"]
        print(json.dumps({"id": q.id, "kind": q.kind, "lang": q.lang, "conf": rounded(c), "answerable": q.answerable,
                          "q": q.question, "ref": q.answer, "evidence": [x.quote for x in q.evidence],
                          "shown": a[1], "signals": {k: rounded(v) for k, v in zip(CONFIDENCE_FEATURES, a[0])}},
                         ensure_ascii=False), file=sys.stderr)


def risk_figures(outcomes: list[tuple], conf: list[float]) -> dict:
    """The risk rule of `evaluation.stats.tune` on (answerable, has an answer, right, short F1)
    per question: the threshold answering the most answerable questions with risk (wrong among
    the answered) <= RISK_BUDGET, and its holds / answered / wrong (of all questions) / risk /
    abstained / short F1."""
    n, n_ans = len(outcomes), sum(1 for o in outcomes if o[0])
    best = None
    for t in THRESHOLDS:
        said = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
        wrong = sum(1 for o in said if not o[2])
        risk = wrong / len(said) if said else 0.0
        rate = sum(1 for o in said if o[0]) / n_ans
        f1 = math.fsum(o[3] for o in said) / n_ans
        within = risk <= RISK_BUDGET + 1e-12
        key = (within, rate, f1, -t) if within else (within, -risk, rate, -t)
        if best is None or key > best[0]:
            best = (key, {"threshold": t, "holds": rounded(sum(1 for o in said if o[2]) / n_ans),
                          "answered": rounded(rate), "wrong": rounded(wrong / n), "risk": rounded(risk),
                          "abstained": rounded(1 - sum(1 for o in said if not o[0]) / max(1, n - n_ans)),
                          "short_f1": rounded(f1)})
    return best[1]
