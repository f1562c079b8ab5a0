"""`raglab check` and `raglab compare`: the commands that read the golden set (imported only when
one of them runs; `main` lists them)."""

from __future__ import annotations

import argparse
import os
import sys

from raglab.cli import cluster
from raglab.cli.arguments import UsageError, add_corpus_arg, add_output_arg
from raglab.cli.console import Progress
from raglab.cli.inputs import corpus_docs
from raglab.corpus.articles import read_utf8
from raglab.corpus.chunking import CHUNKERS
from raglab.corpus.goldens import GoldenError, answer_type_agreement, bundled_goldens_path, counts_table, load_goldens
from raglab.evaluation import engine as evaluation
from raglab.evaluation import trec
from raglab.evaluation.engine import DEFAULT_BASELINE, EXPAND_MODES, SPLITS, grid
from raglab.evaluation.metrics import SEED
from raglab.evaluation.recommend import latency_from_benchmarks
from raglab.evaluation.report import FORMATS, REGENERATE, render
from raglab.evaluation.stats import TUNING_RULE
from raglab.retrieval.registry import RETRIEVERS
from raglab.schema import dumps, language_counts


def plural(n: int, noun: str) -> str:
    """ "1 article", "2 articles" (nouns here take an s)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def cmd_check(args) -> int:
    docs = corpus_docs(args)
    path = args.goldens or bundled_goldens_path()
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such golden file; pass --goldens FILE")
    args.ticker.step(f"checking {path}")
    try:
        questions = load_goldens(path, docs)
    except GoldenError as err:
        if len(err.problems) < 2:
            raise
        # check is the command that lists every problem, one per line, not only the first
        for problem in err.problems:
            print(f"raglab check: error: {problem}", file=sys.stderr)
        print(f"raglab check: {len(err.problems)} problems in {path}; fix them and run raglab check again",
              file=sys.stderr)
        return 2
    rows = counts_table(questions)
    types = answer_type_agreement(questions)
    if args.json:
        print(dumps({"articles": len(docs), "questions": len(questions), "counts": rows, "answer_types": types}))
        return 0
    langs = language_counts(docs)
    print(f"corpus: {plural(len(docs), 'article')} ({', '.join(f'{n} {k}' for k, n in sorted(langs.items()))})")
    print(f"goldens: {plural(len(questions), 'question')}, every quote resolved exactly once\n")
    print(f"{'lang':<5} {'kind':<13} {'dev':>4} {'test':>5} {'total':>6}")
    for r in rows:
        print(f"{r['lang']:<5} {r['kind']:<13} {r['dev']:>4} {r['test']:>5} {r['total']:>6}")
    if types:
        print("\nanswer types: labelled questions whose detected type (raglab.text.answertypes) agrees with the label")
        print(f"{'split':<5} {'lang':<5} {'agree':>11} {'accuracy':>9}")
        for t in types:
            print(f"{t['split']:<5} {t['lang']:<5} {t['agree']:>5} / {t['labelled']:<3} {t['accuracy']:>9.3f}")
    return 0


def add_check_parser(sub, help: str) -> None:
    p = sub.add_parser("check", help=help,
                       description="Validate corpus and goldens; print counts per language x kind x split.")
    add_corpus_arg(p)
    p.add_argument("--goldens", metavar="FILE", help="golden JSON Lines file (default: the bundled set)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_output_arg(p)
    p.set_defaults(func=cmd_check)


def compare_report(args, progress=None, evaluator=None) -> dict:
    """The report `raglab compare` asks for (build.py results and the regeneration test call this too)."""
    expand = None if args.expand is None else EXPAND_MODES[args.expand]
    configs = grid(args.chunker, args.retriever, expand, args.k)
    docs = corpus_docs(args)
    path = args.goldens or bundled_goldens_path()
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such golden file; pass --goldens FILE")
    questions = load_goldens(path, docs)
    latency = None
    if getattr(args, "bench", None):
        latency = latency_from_benchmarks(read_utf8(args.bench, UsageError, "the benchmark file; pass --bench FILE"))
    return evaluation.run(docs, questions, configs, split=args.split, min_coverage=args.min_coverage, k=args.k,
                          seed=args.seed, baseline=args.baseline, id_labels=args.id_labels,
                          per_question=args.per_question, progress=progress,
                          trec=bool(getattr(args, "trec", None)), latency=latency, evaluator=evaluator)


def cmd_compare(args) -> int:
    progress = Progress()

    def show(done: int, total: int, label: str) -> None:
        args.ticker.step("")  # once configurations run, compare's own progress takes over
        progress(done, total, label)

    if args.trec:  # before minutes of comparison, not after
        expand = None if args.expand is None else EXPAND_MODES[args.expand]
        configs = grid(args.chunker, args.retriever, expand, args.k)
        trec.check_destination(args.trec, trec.file_names([c.label for c in configs], [c.chunker for c in configs]))
    with cluster.compare_evaluator(args) as evaluator:
        report = compare_report(args, progress=show, evaluator=evaluator)
    if args.trec:
        data = report.pop("trec")
        paths = trec.write(args.trec, data["runs"], data["qrels"])
        print(f"compare: wrote {len(paths)} TREC files to {args.trec} (one .run per configuration, one .qrels "
              "per chunker)", file=sys.stderr)
    sys.stdout.write(render(report, "json" if args.json else args.format))
    return 0


def add_compare_parser(sub, help: str) -> None:
    p = sub.add_parser(
        "compare", help=help,
        description="Score every chunker x retriever (x query expansion) on one split of the golden set: "
                    "retrieval and answer metrics, bootstrap intervals, paired differences against a "
                    "baseline, slices and failure attribution. Relevance is span overlap, never chunk ids.",
        epilog="Examples:\n  raglab compare\n  raglab compare --split dev --retriever bm25 --retriever hybrid\n"
               "  raglab compare --per-question --format csv > per-question.csv\n"
               "  raglab compare --trec runs/   # then: trec_eval -m recip_rank runs/recursive.qrels runs/recursive+bm25.run\n"
               "  raglab compare --scheduler tcp://10.0.0.5:8786   # the configurations run on a Dask cluster\n"
               f"  {REGENERATE}\n\nAbstention threshold: {TUNING_RULE}.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="test", choices=SPLITS, help="questions to report on (default test)")
    p.add_argument("--chunker", action="append", metavar="NAME",
                   help=f"a chunker to include, repeatable (default all: {', '.join(CHUNKERS)})")
    p.add_argument("--retriever", action="append", metavar="NAME",
                   help=f"a retriever to include, repeatable (default all: {', '.join(RETRIEVERS)})")
    p.add_argument("--expand", choices=("off", "on", "both"), default=None,
                   help="query expansion: off, on, or both as separate rows (default both)")
    p.add_argument("-k", type=int, default=5, help="chunks handed to the answerer and the cut of hit/recall/nDCG (default 5)")
    p.add_argument("--min-coverage", type=float, default=0.5, metavar="X",
                   help="share of an evidence passage a chunk must overlap to cover it (default 0.5)")
    p.add_argument("--baseline", metavar="LABEL",
                   help=f"configuration for the paired differences (default {DEFAULT_BASELINE})")
    p.add_argument("--seed", type=int, default=SEED, help=f"bootstrap seed (default {SEED})")
    p.add_argument("--id-labels", action="store_true", help="add the id-label bias study")
    p.add_argument("--per-question", action="store_true",
                   help="add each question's first relevant rank and attributed stage per configuration")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--goldens", metavar="FILE", help="golden JSON Lines file (default: the bundled set)")
    p.add_argument("--trec", metavar="DIR", help="also write TREC run files (one per configuration, docid = chunk "
                   "id) and qrels (one per chunker, from spans) into DIR, for trec_eval or ir_measures")
    p.add_argument("--bench", metavar="FILE", help="take each configuration's latency for the recommendation "
                   "from this benchmark report (docs/benchmarks.md's pipeline table)")
    add_corpus_arg(p)
    cluster.add_cluster_args(p, "run the configurations")
    add_output_arg(p)
    p.set_defaults(func=cmd_compare)
