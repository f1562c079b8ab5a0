"""Fit the weight of `bm25-semantic` on dev splits only, and write it to data/fusion.json.

    python bench/fit_fusion.py                     # our dev split + goldens/external/*/ dev halves
    python bench/fit_fusion.py --set tydi CORPUS_DIR QUESTIONS.jsonl   # add a set kept elsewhere
    python bench/fit_fusion.py --write             # also write py/raglab/data/fusion.json

For every weight w in 0, 0.05, …, 1 it ranks each dev question's recursive chunks as the
served retriever (`bilingual`, expansion on) ranks them with that weight: its cosines
(centred per language, the other language read through the translated question), its BM25
side (bilingual expansion, fuzzy terms), ``w · cos' + (1 − w) · bm25'`` (see
`raglab.retrieval.semantic.fuse`), the opening chunks' fitted penalty and the other
language's place at the fitted margin. On a
corpus in one language that is `bm25-semantic`'s ranking. It takes MRR@10 per set; the
chosen weight maximises the mean over the sets (each set counts once, so our own questions
cannot outvote strangers' phrasing), ties going to the smaller weight. Test splits are
never read.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

import fitting  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.retrieval.bilingual import BilingualRetriever  # noqa: E402
from raglab.retrieval.semantic import FUSION_TABLE  # noqa: E402

WEIGHTS = [i / 20 for i in range(21)]


def default_sets() -> list[tuple[str, str, str]]:
    sets = [("ours", bundled_corpus_dir(), os.path.join(ROOT, "goldens", "questions.jsonl"))]
    ext = os.path.join(ROOT, "goldens", "external")
    for name in sorted(os.listdir(ext)) if os.path.isdir(ext) else []:
        corpus, questions = os.path.join(ext, name, "corpus"), os.path.join(ext, name, "questions.jsonl")
        if os.path.isdir(corpus) and os.path.exists(questions):
            sets.append((name, corpus, questions))
    return sets


def score_set(corpus_dir: str, goldens_path: str) -> dict[float, dict[str, float]]:
    """{weight: {"mrr": …, "recall5": …, "n": …}} over the set's answerable dev questions."""
    docs = load_corpus(corpus_dir)
    questions = [q for q in load_goldens(goldens_path, docs) if q.split == "dev" and q.answerable]
    chunks = chunk_corpus(docs, "recursive")
    cover = coverage_index(chunks, questions, 0.5)
    served = BilingualRetriever(chunks, chunker="recursive")
    per_weight: dict[float, list[tuple[float, float]]] = {w: [] for w in WEIGHTS}
    for q, query in zip(questions, fitting.served_queries(docs, questions)):
        cosines = served.cosines(query)
        bm25 = served.lexical_scores(query)
        found = cover[q.id]
        choice = served.place_choice(cosines, bm25)  # which chunk the other language's place shows
        for w in WEIGHTS:
            ranked = [h.index for h in served.ranked(served.fused(cosines, bm25, w), query, 10, choice)]
            gain = gains([found.get(i, frozenset()) for i in ranked])
            per_weight[w].append((reciprocal_rank(gain, 10), recall_at(gain, q.n_facts, 5)))
    out = {}
    for w, rows in per_weight.items():
        mrr = recall = 0.0
        for rr, rc in rows:
            mrr += rr
            recall += rc
        out[w] = {"mrr": round(mrr / len(rows), 4), "recall5": round(recall / len(rows), 4), "n": len(rows)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", nargs=3, action="append", default=[], metavar=("NAME", "CORPUS_DIR", "QUESTIONS"),
                        help="another question set to fit on (its dev split only)")
    parser.add_argument("--skip", action="append", default=[], metavar="NAME", help="leave out a set (repeatable)")
    parser.add_argument("--write", action="store_true", help="write the chosen weight to py/raglab/data/fusion.json")
    args = parser.parse_args()
    sets = [s for s in default_sets() + [tuple(s) for s in args.set] if s[0] not in args.skip]
    table = {}
    for name, corpus_dir, questions in sets:
        print(f"scoring {name} ...", file=sys.stderr, flush=True)
        table[name] = score_set(corpus_dir, questions)
    best_w, best = None, -1.0
    print("| weight | " + " | ".join(f"{n} MRR@10" for n in table) + " | mean |")
    print("|---:|" + "---:|" * (len(table) + 1))
    for w in WEIGHTS:
        total = 0.0
        for name in table:
            total += table[name][w]["mrr"]
        mean = total / len(table)
        print(f"| {w:.2f} | " + " | ".join(f"{table[n][w]['mrr']:.3f}" for n in table) + f" | {mean:.3f} |")
        if mean > best + 1e-12:
            best_w, best = w, mean
    print(f"\nchosen semantic weight: {best_w} (mean dev MRR@10 {best:.3f})")
    if args.write:
        record = {"semantic_weight": best_w, "fitted_by": "bench/fit_fusion.py", "objective": "mean dev MRR@10 over sets, ranked as bilingual ranks",
                  "sets": {n: {"n": table[n][best_w]["n"], "mrr": table[n][best_w]["mrr"],
                               "recall5": table[n][best_w]["recall5"]} for n in table}}
        path = fitting.write_table(FUSION_TABLE, record)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
