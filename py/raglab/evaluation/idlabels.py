"""The id-label study of `raglab compare --id-labels`: what labelling relevance with one chunker's ids costs.

Relevance in the evaluation is arithmetic on character spans (`metrics.py`), so one golden
set scores every chunker alike. Many evaluations label chunk ids instead; this study scores
each chunker against the ids every chunker would have written, next to its span score.
"""

from __future__ import annotations

from raglab.evaluation.metrics import MRR_DEPTH, mean, recall_at, reciprocal_rank


def id_label_study(configs, results, label_ids, answerable_ids, baseline, k) -> list[dict]:
    """Score each chunker against chunk-id labels authored with every chunker, and against spans.

    An id label is the list of chunk ids (of the labelling chunker) that cover the
    evidence; a retrieved chunk is relevant when its id is in the list. Ids are
    "<doc>#<n>", so another chunker's ids match only by accident of numbering: the
    gap between the id score and the span score is what labelling with one chunker
    is worth. Uses the baseline's retriever and expansion setting.
    """
    base = next(c for c in configs if c.label == baseline)
    scored = [c for c in configs if c.retriever == base.retriever and c.expand == base.expand]
    out = []
    for labeller in [c.chunker for c in scored]:
        for config in scored:
            by_id = {r["id"]: r for r in results[config.label]}
            rr_ids, rec_ids, rr_spans, rec_spans = [], [], [], []
            for qid in answerable_ids:
                rel = set(label_ids[labeller].get(qid, ()))
                gain = [1 if cid in rel else 0 for cid in by_id[qid]["top"]]
                rr_ids.append(reciprocal_rank(gain, MRR_DEPTH))
                rec_ids.append(recall_at(gain, len(rel), k) if rel else 0.0)
                rr_spans.append(by_id[qid]["mrr"])
                rec_spans.append(by_id[qid]["recall"])
            out.append({"labels_by": labeller, "chunker": config.chunker, "config": config.label,
                        "mrr_ids": mean(rr_ids), "mrr_spans": mean(rr_spans),
                        "recall_ids": mean(rec_ids), "recall_spans": mean(rec_spans)})
    return out
