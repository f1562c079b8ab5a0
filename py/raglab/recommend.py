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

import math

from .metrics import MIN_INTERVAL_N, RESAMPLES, percentile_interval, resamples
from .significance import sign_flip_p, sign_patterns

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


def _mean(values) -> float | None:
    values = list(values)
    return math.fsum(values) / len(values) if values else None


def dev_figures(label: str, records: list[dict]) -> dict:
    """The rule's inputs for one configuration from its per-question records."""
    ans = [r for r in records if r["answerable"]]
    para = [r for r in ans if r["kind"] == "paraphrase"]
    return {"label": label, "recall": _mean(r["recall"] for r in ans), "mrr": _mean(r["mrr"] for r in ans),
            "paraphrase_mrr": _mean(r["mrr"] for r in para), "words": _mean(float(r["words"]) for r in records),
            "recall_ci": None}


def recommendation(labels: list[str], records: dict[str, list[dict]], chosen_on: str, seed: int) -> dict:
    """The rule applied to `records` (per configuration, the questions it is chosen on: dev).

    Returns the choice with the figures it rests on; the report adds the reported split's
    numbers for the pick and renders the sentences.
    """
    rows = [dev_figures(label, records[label]) for label in labels]
    best = max(rows, key=lambda r: r["recall"] or 0.0)  # max() keeps the first of equals
    answerable = [r for r in records[best["label"]] if r["answerable"]]
    draws = resamples(len(answerable), RESAMPLES, seed)
    got = percentile_interval([r["recall"] for r in answerable], draws) if len(answerable) >= MIN_INTERVAL_N else None
    best["recall_ci"] = list(got) if got else None
    choice = choose(rows)
    by_label = {r["label"]: r for r in rows}
    out = {"rule": RULE, "chosen_on": chosen_on, "answerable": len(answerable), **choice,
           "best_ci": best["recall_ci"], "figures": {label: by_label[label] for label in choice["candidates"]}}
    if choice["cheapest"] != choice["pick"]:
        mine = [r["mrr"] for r in records[choice["pick"]] if r["answerable"]]
        theirs = [r["mrr"] for r in records[choice["cheapest"]] if r["answerable"]]
        diffs = [a - b for a, b in zip(mine, theirs)]
        out["versus_cheapest"] = {"diff": _mean(diffs), "p": sign_flip_p(diffs, sign_patterns(len(diffs), seed=seed))}
    return out


def latency_from_benchmarks(text: str) -> dict[str, float]:
    """{configuration label: mean ms per question} from docs/benchmarks.md's pipeline table
    (columns chunker, retriever, query expansion, ..., mean ms per question); {} when absent."""
    out: dict[str, float] = {}
    header = None
    for line in text.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            header = None
            continue
        if cells[:3] == ["chunker", "retriever", "query expansion"] and "mean ms per question" in cells:
            header = cells
            continue
        if header is None or set(line.replace("|", "").strip()) <= set("-: "):
            continue
        row = dict(zip(header, cells))
        try:
            ms = float(row["mean ms per question"])
        except (KeyError, ValueError):
            continue
        out[f"{row['chunker']}+{row['retriever']}" + ("+exp" if row["query expansion"] == "on" else "")] = ms
    return out
