"""The recommendation: which configuration to serve, derived from the comparison's numbers.

It applies the rule written in the README ("The served default") to the *dev* questions of
the comparison, whatever split is reported, so that nothing is chosen on test:

1. The configuration with the highest dev recall@k, and its 95% bootstrap interval; every
   configuration whose dev recall@k reaches the interval's lower end is a candidate (the
   data cannot tell the candidates apart on recall).
2. Serve the candidate with the highest dev MRR@10 on paraphrase questions (overall MRR@10
   when the set has no paraphrases); ties to three decimals go to the higher overall dev
   MRR@10, then to fewer words handed to the answerer (the cheaper one).

The reported split's numbers for the pick (quality with its interval, wrong-answer rate,
context words, latency when a benchmark file gives it) say what serving it means, and the
cheapest candidate is named with the paired test between the two: where the data cannot
tell them apart, the cheaper one loses nothing measurable. With no dev questions the rule
runs on the reported questions and says so.
"""

from __future__ import annotations

RULE = ("of the configurations compared, those whose dev recall@k reaches the lower end of the 95% interval "
        "of the best dev recall@k are candidates; serve the candidate with the highest dev MRR@10 on "
        "paraphrase questions (overall MRR@10 without paraphrases), ties to three decimals going to the "
        "higher overall dev MRR@10, then to fewer context words")


def _r3(x) -> float:
    return round(x or 0.0, 3)


def choose(rows: list[dict]) -> dict:
    """Apply the rule to per-configuration dev figures.

    Each row: label, recall, recall_ci ([low, high] or None), mrr, paraphrase_mrr (None
    when there are no paraphrase questions), words. Rows come in grid order; the first of
    equal recalls is the best.
    """
    if not rows:
        raise ValueError("no configurations to recommend from")
    best = rows[0]
    for row in rows[1:]:
        if (row["recall"] or 0.0) > (best["recall"] or 0.0):
            best = row
    floor = best["recall_ci"][0] if best["recall_ci"] else best["recall"] or 0.0
    candidates = [r for r in rows if (r["recall"] or 0.0) >= floor - 1e-12]
    by_paraphrase = all(r["paraphrase_mrr"] is not None for r in candidates)

    def key(r):
        first = r["paraphrase_mrr"] if by_paraphrase else r["mrr"]
        return (_r3(first), _r3(r["mrr"]), -(r["words"] or 0.0))

    pick = candidates[0]
    for r in candidates[1:]:
        if key(r) > key(pick):
            pick = r
    cheapest = pick
    for r in candidates:
        if (r["words"] or 0.0) < (cheapest["words"] or 0.0):
            cheapest = r
    return {"best": best["label"], "floor": floor, "candidates": [r["label"] for r in candidates],
            "by": "paraphrase MRR@10" if by_paraphrase else "MRR@10", "pick": pick["label"],
            "cheapest": cheapest["label"]}
