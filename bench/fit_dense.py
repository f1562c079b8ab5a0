"""Re-run the dev comparison behind the dense retriever's `GROUP_WEIGHTS` (py/raglab/dense.py)
and print which candidate setting it chooses next to the one the code holds.

    .venv/bin/python bench/fit_dense.py            # the table and the choice
    .venv/bin/python bench/fit_dense.py --check    # exit 1 unless the choice is the committed setting
    .venv/bin/python bench/fit_dense.py --json     # the same, as JSON

The candidates are the settings the comment in dense.py names: words alone; words and
bigrams; words, bigrams and character n-grams; and the last with character weight 0.5 or
2 instead of 1. Each ranks the answerable dev questions of `goldens/questions.jsonl` (its first `FITTED_ON`) over
recursive chunks with query expansion on (`dense` alone, as `raglab compare` runs it).
Rule: the highest MRR@10 wins, then the higher recall@5; a remaining tie goes to the
earlier (simpler) candidate. The test split is never read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from fitting import served_queries  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.retrieval.dense import GROUP_WEIGHTS, DenseRetriever  # noqa: E402

CANDIDATES = (  # simplest first: ties go to the earlier one
    {"w": 1.0},
    {"w": 1.0, "b": 0.5},
    {"w": 1.0, "b": 0.5, "c": 1.0},
    {"w": 1.0, "b": 0.5, "c": 0.5},
    {"w": 1.0, "b": 0.5, "c": 2.0},
)
MIN_COVERAGE = 0.5
# Like the reranker's (bench/fit_reranker.py), the choice stands on the file's first 283
# questions, the set before the dev-only additions (q300 on): dense is not served, and its
# re-choice on every dev question is left to a retrieval round.
FITTED_ON: int | None = 283


def compare(root: str = ROOT, first: int | None = FITTED_ON) -> list[dict]:
    """Per candidate: its weights, dev MRR@10 and recall@5 (rounded to 4 digits), and n."""
    docs = load_corpus(os.path.join(root, "corpus"))
    questions = [q for q in load_goldens(os.path.join(root, "goldens", "questions.jsonl"), docs)[:first]
                 if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, "recursive")
    cover = coverage_index(chunks, questions, MIN_COVERAGE)
    queries = served_queries(docs, questions)
    rows = []
    for weights in CANDIDATES:
        print(f"dense with {weights} ...", file=sys.stderr, flush=True)
        retriever = DenseRetriever(chunks, group_weights=weights)
        mrr = recall = 0.0
        for q, query in zip(questions, queries):
            found = cover.get(q.id, {})
            gain = gains([found.get(h.index, frozenset()) for h in retriever.search(query, 10)])
            mrr += reciprocal_rank(gain, 10)
            recall += recall_at(gain, q.n_facts, 5)
        rows.append({"weights": weights, "mrr10": round(mrr / len(questions), 4),
                     "recall5": round(recall / len(questions), 4), "n": len(questions)})
    return rows


def choose(rows: list[dict]) -> dict:
    best = rows[0]
    for row in rows[1:]:
        if (row["mrr10"], row["recall5"]) > (best["mrr10"], best["recall5"]):
            best = row
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 unless the rule chooses the committed weights")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    rows = compare()
    best = choose(rows)
    committed = dict(sorted(GROUP_WEIGHTS.items()))
    if args.json:
        print(json.dumps({"candidates": rows, "chosen": best["weights"], "committed": committed},
                         ensure_ascii=False, indent=2, sort_keys=True))
    else:
        print("| group weights | dev recall@5 | dev MRR@10 |")
        print("|---|---:|---:|")
        for row in rows:
            print(f"| {json.dumps(row['weights'], sort_keys=True)} | {row['recall5']:.3f} | {row['mrr10']:.3f} |")
        print(f"\nchosen: {json.dumps(best['weights'], sort_keys=True)}; "
              f"committed: {json.dumps(committed, sort_keys=True)}")
    if args.check and dict(sorted(best["weights"].items())) != committed:
        print("fit_dense: error: the rule chooses other group weights than dense.GROUP_WEIGHTS; "
              "update py/raglab/dense.py and its comment from this output", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
