"""The recommendation: which configuration to serve, derived from the comparison's numbers.

It applies the rule written in docs/served-default.md to the *dev* questions of
the comparison, whatever split is reported, so that nothing is chosen on test:

1. The configuration with the highest dev recall@k, and its 95% bootstrap interval; every
   configuration whose dev recall@k reaches the interval's lower end is a candidate (the
   data cannot tell the candidates apart on recall).
2. The slice guard rejects a candidate that falls below the best candidate's interval on a
   slice customers depend on (`GUARDS`).
3. Serve the remaining candidate with the highest mean of its dev MRR@10 on paraphrase
   questions (overall MRR@10 when the set has no paraphrases) and its dev MRR@10 on each
   external question set recorded in ``data/external_dev.json`` (measured on strangers'
   questions by ``bench/served_default.py --write``, each set weighing once; without a
   record for every remaining candidate, the paraphrase figure alone); ties to three
   decimals go to the higher overall dev MRR@10, then to fewer words handed to the
   answerer (the cheaper one).

The reported split's numbers for the pick (quality with its interval, wrong-answer rate,
context words, latency when a benchmark file gives it) say what serving it means, and the
cheapest candidate is named with the paired test between the two: where the data cannot
tell them apart, the cheaper one loses nothing measurable. With no dev questions the rule
runs on the reported questions and says so.
"""

from __future__ import annotations

import json
import math

from raglab.evaluation.metrics import MIN_INTERVAL_N, RESAMPLES, SEED, percentile_interval, resamples
from raglab.evaluation.significance import sign_flip_p, sign_patterns
from raglab.text.tables import has_table, read_table

RULE = ("of the configurations compared, those whose dev recall@k reaches the lower end of the 95% interval "
        "of the best dev recall@k are candidates; a candidate is rejected when its figure on a guarded slice "
        "(crosslingual questions each way and misspelt questions by recall@k, Bangla questions and paraphrases "
        "by MRR@10) falls below the lower end of the 95% interval of the best candidate's figure on that slice; "
        "serve the remaining candidate with the highest mean of its dev MRR@10 on paraphrase questions (overall "
        "MRR@10 without paraphrases) and its recorded dev MRR@10 on each external question set (when every "
        "remaining candidate has them), ties to three decimals going to the higher overall dev MRR@10, then to fewer "
        "context words")

# The guarded slices: name, which answerable questions, the figure (a per-question field).
GUARDS = (
    ("crosslingual en→bn", lambda r: r["kind"] == "crosslingual" and r["lang"] == "en", "recall"),
    ("crosslingual bn→en", lambda r: r["kind"] == "crosslingual" and r["lang"] == "bn", "recall"),
    ("typo", lambda r: r["kind"] == "typo", "recall"),
    ("Bangla", lambda r: r["lang"] == "bn", "mrr"),
    ("paraphrase", lambda r: r["kind"] == "paraphrase", "mrr"),
)


EXTERNAL_TABLE = "external_dev.json"


def external_figures() -> dict[str, list[float]]:
    """{configuration label: its dev MRR@10 on each external set, in the table's set order}, as
    recorded by bench/served_default.py (data/external_dev.json); {} without the file."""
    if not has_table(EXTERNAL_TABLE):
        return {}
    table = json.loads(read_table(EXTERNAL_TABLE))
    sets = table["sets"]
    return {label: [float(got[s]) for s in sets] for label, got in sorted(table["mrr"].items())
            if all(s in got for s in sets)}


def _r3(x) -> float:
    return round(x or 0.0, 3)


def guard(candidates: list[dict], seed: int = SEED) -> tuple[dict[str, list[str]], dict[str, dict]]:
    """Step 2: ({label: slices it is rejected on}, {slice: the best candidate and its interval}).

    A row's optional "slices" maps a slice name to its per-question figures (in one question
    order for every row); rows without it are guarded on nothing.
    """
    rejected: dict[str, list[str]] = {r["label"]: [] for r in candidates}
    floors: dict[str, dict] = {}
    for name, _, metric in GUARDS:
        rows = [r for r in candidates if len((r.get("slices") or {}).get(name) or ()) >= MIN_INTERVAL_N]
        if not rows:
            continue
        values = {r["label"]: r["slices"][name] for r in rows}
        means = {label: _mean(v) or 0.0 for label, v in values.items()}
        best = rows[0]["label"]
        for r in rows[1:]:
            if means[r["label"]] > means[best]:
                best = r["label"]
        got = percentile_interval(values[best], resamples(len(values[best]), RESAMPLES, seed))
        low = got[0] if got else means[best]
        floors[name] = {"best": best, "figure": metric, "value": means[best], "low": low, "n": len(values[best])}
        for r in rows:
            if means[r["label"]] < low - 1e-12:
                rejected[r["label"]].append(name)
    return rejected, floors


def choose(rows: list[dict], seed: int = SEED, external: dict[str, list[float]] | None = None) -> dict:
    """Apply the rule to per-configuration dev figures.

    Each row: label, recall, recall_ci ([low, high] or None), mrr, paraphrase_mrr (None
    when there are no paraphrase questions), words, and optionally slices (see `guard`).
    Rows come in grid order; the first of equal recalls is the best. `external` maps a
    label to its dev MRR@10 on each external set (`external_figures`); it counts only when
    every remaining candidate has an entry.
    """
    if not rows:
        raise ValueError("no configurations to recommend from")
    best = rows[0]
    for row in rows[1:]:
        if (row["recall"] or 0.0) > (best["recall"] or 0.0):
            best = row
    floor = best["recall_ci"][0] if best["recall_ci"] else best["recall"] or 0.0
    recall_candidates = [r for r in rows if (r["recall"] or 0.0) >= floor - 1e-12]
    rejected, floors = guard(recall_candidates, seed)
    fewest = min(len(v) for v in rejected.values())
    candidates = [r for r in recall_candidates if len(rejected[r["label"]]) == fewest]
    by_paraphrase = all(r["paraphrase_mrr"] is not None for r in candidates)
    external = external or {}
    with_external = bool(external) and all(r["label"] in external for r in candidates)

    def first(r) -> float:
        own = (r["paraphrase_mrr"] if by_paraphrase else r["mrr"]) or 0.0
        return (_mean([own, *external[r["label"]]]) or 0.0) if with_external else own

    def key(r):
        return (_r3(first(r)), _r3(r["mrr"]), -(r["words"] or 0.0))

    pick = candidates[0]
    for r in candidates[1:]:
        if key(r) > key(pick):
            pick = r
    cheapest = pick
    for r in candidates:
        if (r["words"] or 0.0) < (cheapest["words"] or 0.0):
            cheapest = r
    return {"best": best["label"], "floor": floor, "candidates": [r["label"] for r in recall_candidates],
            "guarded": [r["label"] for r in candidates], "rejected": {k: v for k, v in rejected.items() if v},
            "guards": floors, "by": ("paraphrase MRR@10" if by_paraphrase else "MRR@10")
            + (" and the external sets' MRR@10, mean" if with_external else ""), "pick": pick["label"],
            "cheapest": cheapest["label"], "step4": {r["label"]: first(r) for r in candidates}}


def _mean(values) -> float | None:
    values = list(values)
    return math.fsum(values) / len(values) if values else None


def dev_figures(label: str, records: list[dict]) -> dict:
    """The rule's inputs for one configuration from its per-question records."""
    ans = [r for r in records if r["answerable"]]
    para = [r for r in ans if r["kind"] == "paraphrase"]
    slices = {name: [float(r[metric]) for r in ans if member(r)] for name, member, metric in GUARDS}
    return {"label": label, "recall": _mean(r["recall"] for r in ans), "mrr": _mean(r["mrr"] for r in ans),
            "paraphrase_mrr": _mean(r["mrr"] for r in para), "words": _mean(float(r["words"]) for r in records),
            "recall_ci": None, "slices": {k: v for k, v in slices.items() if v}}


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
    choice = choose(rows, seed, external_figures())
    by_label = {}
    for r in rows:  # per-question slice figures become their means in the report
        by_label[r["label"]] = {**{k: v for k, v in r.items() if k != "slices"},
                                "slice_figures": {k: _mean(v) for k, v in r["slices"].items()}}
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
