"""The served default's figures on the slices the bilingual-retrieval issue targets, with 95% intervals.

    python bench/slice_intervals.py --split test
    python bench/slice_intervals.py --split dev --chunker fixed   # another configuration

For each slice (all answerable questions, paraphrases, Bangla questions, crosslingual
questions each way, misspelt questions) it prints recall@k and MRR@10 with the 95%
percentile bootstrap interval over the slice's questions (2,000 resamples, compare's seed):
the figures `docs/served-default.md` quotes. `raglab compare` gives the same means in its
slice table; it gives intervals only for the whole split.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import evaluate_configs  # noqa: E402
from raglab.evaluation.metrics import RESAMPLES, SEED, resamples  # noqa: E402
from raglab.evaluation.stats import interval  # noqa: E402
from raglab.pipeline import Config  # noqa: E402

SLICES = (
    ("all", lambda r: True),
    ("paraphrase", lambda r: r["kind"] == "paraphrase"),
    ("Bangla", lambda r: r["lang"] == "bn"),
    ("crosslingual en→bn", lambda r: r["kind"] == "crosslingual" and r["lang"] == "en"),
    ("crosslingual bn→en", lambda r: r["kind"] == "crosslingual" and r["lang"] == "bn"),
    ("typo", lambda r: r["kind"] == "typo"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="test", choices=("dev", "test", "all"))
    parser.add_argument("--chunker", default=Config().chunker)
    parser.add_argument("--retriever", default=Config().retriever)
    parser.add_argument("--expand", default="on" if Config().expand else "off", choices=("on", "off"))
    parser.add_argument("-k", type=int, default=Config().k)
    args = parser.parse_args()
    config = dataclasses.replace(Config(), chunker=args.chunker, retriever=args.retriever,
                                 expand=args.expand == "on", k=args.k)
    docs = load_corpus(bundled_corpus_dir())
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
                 if args.split == "all" or q.split == args.split]
    records = evaluate_configs(docs, questions, [config], args.k, 0.5)["results"][config.label]
    answerable = [r for r in records if r["answerable"]]
    print(f"{config.label}, {args.split} split, k = {args.k}\n")
    print(f"| slice | n | recall@{args.k} | 95% CI | MRR@10 | 95% CI |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, member in SLICES:
        rows = [r for r in answerable if member(r)]
        draws = resamples(len(rows), RESAMPLES, SEED)
        cells = []
        for metric in ("recall", "mrr"):
            values = [float(r[metric]) for r in rows]
            ci = interval(values, draws)
            cells += [f"{math.fsum(values) / len(values):.3f}",
                      f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "n < 10"]
        print(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
