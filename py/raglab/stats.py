"""Aggregates of per-question evaluation records: metrics at a threshold, threshold
tuning, bootstrap intervals. Records in, plain numbers out; no pipelines, no printing.

A record is the dict `evaluation.evaluate` makes for one question under one
configuration (its metrics, the answer at threshold 0 with its confidence, the stage).
"""

from __future__ import annotations

from .metrics import MIN_INTERVAL_N, mean, percentile_interval
from .risk import summary_fields

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
TUNING_RULE = ("for each configuration, the abstention threshold in 0.00, 0.05, ..., 1.00 that maximises the "
               "answer rate on answerable dev questions plus the abstention rate on unanswerable dev questions "
               "(balanced accuracy of the answer-or-abstain decision; ties go to the higher dev answer F1, then "
               "to the lower threshold), applied unchanged to the reported split")

def answered(rec: dict, threshold: float) -> bool:
    return rec["answer"] is not None and rec["confidence"] >= threshold


def summarise(records: list[dict], threshold: float) -> dict:
    """Metrics over `records` at an abstention threshold; None where there is nothing to average."""
    ans = [r for r in records if r["answerable"]]
    una = [r for r in records if not r["answerable"]]
    out = {"n": len(records), "answerable": len(ans), "unanswerable": len(una)}
    for key in ("hit1", "hitk", "recall", "mrr", "ndcgk", "ndcg10"):
        out[key] = mean(r[key] for r in ans)
    out["words"] = mean(float(r["words"]) for r in records)
    out["f1"] = mean(r["f1"] if answered(r, threshold) else 0.0 for r in ans)
    out["em"] = mean(r["em"] if answered(r, threshold) else 0.0 for r in ans)
    for key in ("short_f1", "short_em", "holds"):
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

    Why not "answer F1 + abstention rate": a correct extractive answer quotes a whole
    sentence against a short reference and scores an F1 of about 0.3 to 0.6, so that
    sum makes abstaining look cheap and picks thresholds that refuse most answerable
    questions. Balanced accuracy weighs a wrong refusal and a wrong answer alike.
    """
    best = None
    for t in THRESHOLDS:
        s = summarise(records, t)
        objective = (s["answer_rate"] or 0.0) + (s["abstention_rate"] or 0.0)
        key = (objective, s["f1"] or 0.0)
        if best is None or key > best["key"]:
            best = {"key": key, "threshold": t, "objective": objective, "f1": s["f1"],
                    "answer_rate": s["answer_rate"], "abstention_rate": s["abstention_rate"], "n": s["n"]}
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
    return {"diff": mean(diffs), "low": lo, "high": hi, "contains_zero": lo is not None and lo <= 0.0 <= hi}
