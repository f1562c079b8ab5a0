"""The served default's figures on the slices the bilingual-retrieval issue targets, with 95% intervals.

    python bench/slice_intervals.py --split test
    python bench/slice_intervals.py --split dev --chunker fixed   # another configuration
    python bench/slice_intervals.py --split dev --save before.json  # keep the per-question figures
    python bench/slice_intervals.py --split dev --against before.json  # paired with a saved run

For each slice (all answerable questions, paraphrases, Bangla questions, crosslingual
questions each way, misspelt questions) it prints recall@k and MRR@10 with the 95%
percentile bootstrap interval over the slice's questions (2,000 resamples, compare's seed):
the figures `docs/served-default.md` quotes. `raglab compare` gives the same means in its
slice table; it gives intervals only for the whole split. With `--against` a file `--save`
wrote (another state of the code, the same split and configuration), each slice also gets the
paired bootstrap of the per-question difference (this run minus the saved one, same seed).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
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
from raglab.evaluation.stats import interval, paired  # noqa: E402
from raglab.pipeline import Config  # noqa: E402

SLICES = (
    ("all", lambda r: True),
    ("English", lambda r: r["lang"] == "en"),
    ("paraphrase", lambda r: r["kind"] == "paraphrase"),
    ("Bangla", lambda r: r["lang"] == "bn"),
    ("crosslingual en→bn", lambda r: r["kind"] == "crosslingual" and r["lang"] == "en"),
    ("crosslingual bn→en", lambda r: r["kind"] == "crosslingual" and r["lang"] == "bn"),
    ("direct", lambda r: r["kind"] == "direct"),
    ("typo", lambda r: r["kind"] == "typo"),
    ("two-fact", lambda r: r["kind"] == "multi"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="test", choices=("dev", "test", "all"))
    parser.add_argument("--chunker", default=Config().chunker)
    parser.add_argument("--retriever", default=Config().retriever)
    parser.add_argument("--expand", default="on" if Config().expand else "off", choices=("on", "off"))
    parser.add_argument("-k", type=int, default=Config().k)
    parser.add_argument("--save", help="write each answerable question's recall and MRR@10 here (JSON)")
    parser.add_argument("--against", help="a file --save wrote: add the paired difference per slice")
    args = parser.parse_args()
    config = dataclasses.replace(Config(), chunker=args.chunker, retriever=args.retriever,
                                 expand=args.expand == "on", k=args.k)
    docs = load_corpus(bundled_corpus_dir())
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
                 if args.split == "all" or q.split == args.split]
    records = evaluate_configs(docs, questions, [config], args.k, 0.5)["results"][config.label]
    answerable = [r for r in records if r["answerable"]]
    if args.save:
        with open(args.save, "w", encoding="utf-8") as fh:
            json.dump({r["id"]: {"recall": float(r["recall"]), "mrr": float(r["mrr"])} for r in answerable}, fh,
                      indent=0, sort_keys=True)
    saved = None
    if args.against:
        with open(args.against, encoding="utf-8") as fh:
            saved = json.load(fh)
    print(f"{config.label}, {args.split} split, k = {args.k}\n")
    head, rule = ("", "") if saved is None else (" before | paired 95% |", "---:|---:|")
    print(f"| slice | n | recall@{args.k} | 95% CI |{head} MRR@10 | 95% CI |{head}")
    print(f"|---|---:|---:|---:|{rule}---:|---:|{rule}")
    for name, member in SLICES:
        rows = [r for r in answerable if member(r)]
        draws = resamples(len(rows), RESAMPLES, SEED)
        cells = []
        for metric in ("recall", "mrr"):
            values = [float(r[metric]) for r in rows]
            ci = interval(values, draws)
            cells += [f"{math.fsum(values) / len(values):.3f}",
                      f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "n < 10"]
            if saved is not None:
                base = [saved[r["id"]][metric] for r in rows]
                diff = paired(values, base, draws)
                cells += [f"{math.fsum(base) / len(base):.3f}",
                          "n < 10" if diff["low"] is None else f"[{diff['low']:+.3f}, {diff['high']:+.3f}]"]
        print(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
