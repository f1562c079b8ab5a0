"""Fit the neighbour weight of `bilingual`'s step 7 on the dev splits only, and write it to
data/bilingual.json.

    python bench/fit_smoothing.py            # print the table
    python bench/fit_smoothing.py --write    # also write "smoothing" into py/raglab/data/bilingual.json

Step 7 (see `raglab.retrieval.bilingual`): each chunk's cosine plus λ times the mean cosine of its
article neighbours, ranked by steps 1 to 6 again, fills the places the question's own language holds
in the first ten; the other language's places stay as served. For each λ of the grid the served
retriever (`BilingualRetriever.search`, recursive chunks, expansion on, the other fitted values)
ranks every answerable dev question of our set and of the external sets' dev halves. The chosen λ
maximises the mean of four MRR@10 figures: our dev paraphrases' (what the smoothing is for) and the
three sets' dev MRR@10 (ours, COVID-QA, TyDi: what it must not cost); ties go to the smaller λ. The
table also shows our dev slices and the fresh probes (`bench/fresh_probe*.jsonl`, answerable
questions pooled), which the choice does not read. The same λ grid, on the trial's harness, is
`bench/smoothing_trial.py` (paired intervals) and `bench/hubness_trial.py --kept-places`. Test
questions are never read.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

import fitting  # noqa: E402
from fit_fusion import default_sets  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.retrieval.bilingual import TABLE, BilingualRetriever  # noqa: E402
from raglab.text.tables import read_table  # noqa: E402

GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4)
PROBES = ("fresh_probe.jsonl", "fresh_probe_basic.jsonl", "fresh_probe_trouble.jsonl", "fresh_probe_other.jsonl")
SLICES = {
    "paraphrase": lambda q: q.kind == "paraphrase",
    "en→bn": lambda q: q.kind == "crosslingual" and q.lang == "en",
    "bn→en": lambda q: q.kind == "crosslingual" and q.lang == "bn",
    "Bangla": lambda q: q.lang == "bn",
    "typo": lambda q: q.kind == "typo",
}


def mean(xs: list[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else float("nan")


def ranked(corpus_dir: str, goldens: str) -> tuple[list, dict[float, list[tuple[float, float]]]]:
    """The set's answerable dev questions and, per λ, (MRR@10, recall@3) of each as served."""
    docs = load_corpus(corpus_dir)
    questions = [q for q in load_goldens(goldens, docs) if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, "recursive")
    cover = coverage_index(chunks, questions, 0.5)
    retriever = BilingualRetriever(chunks, chunker="recursive")
    queries = fitting.served_queries(docs, questions)
    out = {}
    for lam in GRID:
        retriever.smoothing = lam
        rows = []
        for q, query in zip(questions, queries):
            gain = gains([cover[q.id].get(h.index, frozenset()) for h in retriever.search(query, 10)])
            rows.append((reciprocal_rank(gain, 10), recall_at(gain, q.n_facts, 3)))
        out[lam] = rows
    return questions, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="write the chosen λ into py/raglab/data/bilingual.json")
    args = parser.parse_args()
    sets = {}
    for name, corpus_dir, goldens in default_sets():
        print(f"ranking {name} ...", file=sys.stderr, flush=True)
        sets[name] = ranked(corpus_dir, goldens)
    probes = [ranked(bundled_corpus_dir(), os.path.join(HERE, p)) for p in PROBES]
    ours_q, ours = sets["ours"]
    objective = {}
    print("| λ | objective | " + " | ".join(f"{n} dev MRR@10" for n in sets) + " | "
          + " | ".join(f"ours {n} r@3 / MRR" for n in SLICES) + " | probes paraphrase r@3 / MRR | probes all r@3 / MRR |")
    print("|---:|---:|" + "---:|" * (len(sets) + len(SLICES) + 2))
    for lam in GRID:
        figs = {n: mean([r[0] for r in rows[lam]]) for n, (qs, rows) in sets.items()}
        para = [r[0] for q, r in zip(ours_q, ours[lam]) if SLICES["paraphrase"](q)]
        objective[lam] = mean([mean(para)] + list(figs.values()))
        cells = []
        for member in SLICES.values():
            got = [r for q, r in zip(ours_q, ours[lam]) if member(q)]
            cells.append(f"{mean([r[1] for r in got]):.3f} / {mean([r[0] for r in got]):.3f}")
        for member in (SLICES["paraphrase"], lambda q: True):
            got = [r for qs, rows in probes for q, r in zip(qs, rows[lam]) if member(q)]
            cells.append(f"{mean([r[1] for r in got]):.3f} / {mean([r[0] for r in got]):.3f}")
        print(f"| {lam} | {objective[lam]:.4f} | " + " | ".join(f"{v:.4f}" for v in figs.values()) + " | "
              + " | ".join(cells) + " |", flush=True)
    best = GRID[0]
    for lam in GRID:  # ties keep the smaller λ
        if objective[lam] > objective[best] + 1e-12:
            best = lam
    print(f"\nchosen λ: {best} (objective {objective[best]:.4f}, λ 0: {objective[GRID[0]]:.4f})")
    if args.write:
        record = json.loads(read_table(TABLE))
        record.update({"smoothing": best, "smoothing_fitted_by": "bench/fit_smoothing.py",
                       "smoothing_objective": "mean dev MRR@10 of our paraphrases, ours, COVID-QA and TyDi, recursive chunks"})
        print(f"wrote {fitting.write_table(TABLE, record)}")


if __name__ == "__main__":
    main()
