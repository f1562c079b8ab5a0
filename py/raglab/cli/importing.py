"""`raglab import`: a public question-answering set as a corpus folder and golden set (imported
only when it runs; `main` lists it)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from raglab.cli.arguments import UsageError
from raglab.corpus import importers
from raglab.schema import dumps


def _import_progress():
    """A stderr progress line at most every two seconds (imports of large files take a while)."""
    last = [time.monotonic()]

    def report(articles: int, questions: int, stage: str = "reading") -> None:
        now = time.monotonic()
        if now - last[0] >= 2:
            last[0] = now
            if stage == "reading":
                print(f"raglab import: read {articles:,} articles, {questions:,} questions...", file=sys.stderr)
            else:  # after the reading: evidence, then the loaders' check, question by question
                print(f"raglab import: {stage}: question {questions:,}...", file=sys.stderr)
    return report


def cmd_import(args) -> int:
    if args.format == "squad":
        with importers.open_input(args.source, "the SQuAD file") as fh:
            try:
                imp = importers.import_squad(fh, args.source, args.lang, args.split, _import_progress())
            except UnicodeDecodeError as err:
                raise UsageError(f"{args.source}: not valid UTF-8 ({err.reason}); save the file as UTF-8") from None
    else:
        if not os.path.isdir(args.source):
            raise UsageError(f"{args.source}: no such folder; a BEIR folder has corpus.jsonl, queries.jsonl and qrels/")
        imp = importers.import_beir(args.source, args.lang, _import_progress())
    try:
        notes = importers.write_import(imp, args.out, force=args.force)
    except OSError as err:
        raise UsageError(f"{args.out}: cannot write the import ({err.strerror or err}); choose another --out") from None
    for note in notes:
        print(f"raglab import: note: {args.out}: {note}", file=sys.stderr)
    info = importers.summary(imp)
    if args.json:
        print(dumps(info))
        return 0
    print(f"wrote {info['articles']} articles to {os.path.join(args.out, 'corpus')} and "
          f"{info['questions']} questions to {os.path.join(args.out, 'questions.jsonl')}\n")
    print(f"{'lang':<5} {'kind':<13} {'dev':>4} {'test':>5} {'total':>6}")
    for r in info["counts"]:
        print(f"{r['lang']:<5} {r['kind']:<13} {r['dev']:>4} {r['test']:>5} {r['total']:>6}")
    dropped = sum(d["count"] for d in info["dropped"])
    print(f"\ndropped: {dropped}")
    for d in info["dropped"]:
        print(f"  {d['count']:>5}  {d['reason']} (e.g. {', '.join(d['examples'])})")
    for note in info["notes"]:
        print(f"note: {note}")
    print(f"\ncheck it: raglab check --corpus {os.path.join(args.out, 'corpus')} --goldens {os.path.join(args.out, 'questions.jsonl')}")
    return 0


def add_import_parser(sub, help: str) -> None:
    p = sub.add_parser(
        "import", help=help,
        description="Turn a public question-answering set into DIR/corpus/*.md and DIR/questions.jsonl "
                    "(what `raglab check`, `ask` and `compare` take with --corpus and --goldens).\n\n"
                    "squad: SQuAD 1.1/2.0 JSON (SQuAD, TyDi QA GoldP, squad_bn, BanglaRQA). One article per "
                    "title, one ## section per paragraph; evidence = the sentence holding the first annotated "
                    "answer (widened until it occurs once); other answers kept as alternatives; "
                    "is_impossible -> unanswerable.\n"
                    "beir: corpus.jsonl, queries.jsonl, qrels/dev.tsv and qrels/test.tsv. One article per "
                    "passage; evidence = each whole relevant passage (document-level truth).",
        epilog="Examples:\n"
               "  raglab import squad tydiqa-goldp-en.json --out ext/tydiqa --lang en\n"
               "  raglab import squad squad_bn-dev.json --out ext/squad-bn --split test\n"
               "  raglab import beir scifact/ --out ext/scifact --json\n"
               "  raglab check --corpus ext/tydiqa/corpus --goldens ext/tydiqa/questions.jsonl\n"
               "  raglab compare --corpus ext/tydiqa/corpus --goldens ext/tydiqa/questions.jsonl --split all",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("format", choices=("squad", "beir"), help="squad (a JSON FILE) or beir (a folder)")
    p.add_argument("source", metavar="FILE|DIR", help="the SQuAD JSON file, or the BEIR folder")
    p.add_argument("--out", metavar="DIR", required=True, help="folder to write corpus/ and questions.jsonl into")
    p.add_argument("--lang", choices=("auto", "en", "bn"), default="auto",
                   help="language of the questions (default auto: Bangla when most letters are Bangla)")
    p.add_argument("--split", choices=("alternate", "dev", "test"), default="alternate",
                   help="squad only: put every question in one split, or alternate dev/test (default); "
                        "beir takes the split from the qrels file")
    p.add_argument("--force", action="store_true", help="replace an earlier import in --out")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=cmd_import)
