"""Aggregates of per-question evaluation records: metrics at a threshold, threshold
tuning, bootstrap intervals. Records in, plain numbers out; no pipelines, no printing.

A record is the dict `evaluation.evaluate` makes for one question under one
configuration (its metrics, the answer at threshold 0 with its confidence, the stage).
"""

from __future__ import annotations

from typing import Any

from raglab.evaluation.metrics import MIN_INTERVAL_N, mean, percentile_interval
from raglab.evaluation.risk import summary_fields

# Failure attribution, from best to worst outcome; every answerable question gets exactly one.
STAGES = ("served", "ranked-low", "reranker", "retriever", "chunker")
STAGE_HELP = {
    "served": "a chunk covering the evidence is in the top k",
    "ranked-low": "a covering chunk is in the first-stage top 50 but not in the top k",
    "reranker": "a covering chunk was in the first stage's top k and the reranker pushed it out",
    "retriever": "a covering chunk exists but is not in the first-stage top 50",
    "chunker": "no chunk anywhere covers the evidence",
}

THRESHOLDS = tuple(i / 20 for i in range(21))  # 0.00, 0.05, ..., 1.00
# Fewer dev questions than this tune nothing: one question then moves the balanced accuracy by
# a tenth or more, so the "best" threshold is whichever one a single question happens to favour.
# Such a run keeps the served threshold (`pipeline.Config`) and says so in its rule.
MIN_TUNING_QUESTIONS = 10
# The wrong-answer rate is "answered but wrong": of the questions the answerer answers,
# the share whose answer does not state the fact (risk = wrong / answered). A budget on wrong /
# all questions (the earlier rule) lets a threshold answer few questions badly and still pass.
RISK_BUDGET = 0.10  # the dev risk (wrong among the answered) the served threshold may not exceed
TUNING_RULE = ("for each configuration, the abstention threshold in 0.00, 0.05, ..., 1.00 that answers the most "
               "answerable dev questions while the dev risk (the wrong-answer rate among the answered: answers that "
               "do not state the fact, and any answer to an unanswerable question, over the answered dev questions) "
               f"stays <= {RISK_BUDGET:.2f} (ties: "
               "the higher dev answer F1, then the lower threshold; when no threshold keeps the risk that low, the "
               "one with the lowest risk), applied unchanged to the reported split")


def answered(rec: dict, threshold: float) -> bool:
    return rec["answer"] is not None and rec["confidence"] >= threshold


def summarise(records: list[dict], threshold: float) -> dict:
    """Metrics over `records` at an abstention threshold; None where there is nothing to average."""
    ans = [r for r in records if r["answerable"]]
    una = [r for r in records if not r["answerable"]]
    out: dict[str, Any] = {"n": len(records), "answerable": len(ans), "unanswerable": len(una)}
    for key in ("hit1", "hitk", "recall", "mrr", "ndcgk", "ndcg10"):
        out[key] = mean(r[key] for r in ans)
    out["words"] = mean(float(r["words"]) for r in records)
    out["f1"] = mean(r["f1"] if answered(r, threshold) else 0.0 for r in ans)
    out["em"] = mean(r["em"] if answered(r, threshold) else 0.0 for r in ans)
    for key in ("short_f1", "short_em", "holds", "holds_strict"):
        out[key] = mean(r[key] if answered(r, threshold) else 0.0 for r in ans)
    out["faithfulness"] = mean(r["faithfulness"] for r in records if answered(r, threshold))
    out["citation_precision"] = mean(r["citation_precision"] for r in ans if answered(r, threshold))
    out["answer_rate"] = mean(1.0 if answered(r, threshold) else 0.0 for r in ans)
    out["abstention_rate"] = mean(0.0 if answered(r, threshold) else 1.0 for r in una)
    out.update(summary_fields(records, lambda r: answered(r, threshold)))
    counts = {s: 0 for s in STAGES}
    for r in ans:
        counts[r["stage"]] += 1
    out["attribution"] = counts
    return out


def tune(records: list[dict]) -> dict:
    """The abstention threshold by `TUNING_RULE` on the given (dev) records.

    Chosen by risk, not by balance: a wrong answer costs a customer more than a refusal
    (which still shows the passages), so the threshold answers as much as it can while the
    risk (wrong among the answered) stays within `RISK_BUDGET`. A threshold that answers
    nothing has no risk and is within it. The objective reported is the dev answer rate on
    answerable questions at that threshold; both the risk and the wrong rate (wrong of all
    questions) are reported.
    """
    best: dict[str, Any] | None = None
    for t in THRESHOLDS:
        s = summarise(records, t)
        risk = s["risk"] if s["risk"] is not None else 0.0
        within = risk <= RISK_BUDGET + 1e-12
        key = (within, s["answer_rate"] or 0.0, s["f1"] or 0.0, -t) if within else (within, -risk, s["answer_rate"] or 0.0, -t)
        if best is None or key > best["key"]:
            best = {"key": key, "threshold": t, "objective": s["answer_rate"], "f1": s["f1"],
                    "answer_rate": s["answer_rate"], "abstention_rate": s["abstention_rate"], "wrong_rate": s["wrong_rate"],
                    "risk": s["risk"], "within_budget": within, "n": s["n"]}
    assert best is not None  # THRESHOLDS is not empty
    del best["key"]
    return best


def round_report(x):
    """Six decimals in the report: far below what any table shows, and it absorbs a
    last-bit difference in `math.log2` between the native and the browser libm."""
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, dict):
        return {k: round_report(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [round_report(v) for v in x]
    return x


def interval(values, draws):
    """The percentile bootstrap interval of the mean of `values` as [low, high] (None when
    there are fewer than MIN_INTERVAL_N values)."""
    got = percentile_interval(values, draws) if len(values) >= MIN_INTERVAL_N else None
    return None if got is None else [got[0], got[1]]


def paired(values: list[float], base: list[float], draws) -> dict:
    """The paired bootstrap of the per-question difference `values` minus `base` (no
    interval below MIN_INTERVAL_N questions)."""
    diffs = [a - b for a, b in zip(values, base)]
    lo, hi = (percentile_interval(diffs, draws) if len(diffs) >= MIN_INTERVAL_N else None) or (None, None)
    return {"diff": mean(diffs), "low": lo, "high": hi, "contains_zero": lo is not None and hi is not None and lo <= 0.0 <= hi}
