"""The `raglab` command line: analyze, chunks, ask, check, compare, import.

It only parses arguments, calls the library and prints; library errors (CorpusError,
GoldenError, EvaluationError and other ValueErrors) become one line on stderr,
`raglab COMMAND: error: ...`, with exit status 2. Every command has --help.
Nothing in the package imports this module except `__main__`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
import time

from raglab.cli import cluster
from raglab.cli.arguments import UsageError, add_config_args, add_corpus_arg, add_output_arg, check_paths, config_from, corpus_docs
from raglab.cli.console import Progress, Ticker, output_to, printable, read_questions, terminal_safe
from raglab.corpus import importers
from raglab.corpus.articles import CorpusError, read_utf8
from raglab.corpus.chunking import CHUNKERS, chunk_corpus
from raglab.corpus.goldens import GoldenError, answer_type_agreement, bundled_goldens_path, counts_table, load_goldens
from raglab.evaluation import engine as evaluation
from raglab.evaluation import trec
from raglab.evaluation.engine import DEFAULT_BASELINE, EXPAND_MODES, SPLITS, grid
from raglab.evaluation.metrics import SEED
from raglab.evaluation.recommend import latency_from_benchmarks
from raglab.evaluation.report import FORMATS, REGENERATE, render
from raglab.evaluation.stats import TUNING_RULE
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.registry import RETRIEVERS
from raglab.schema import analysis, ask_json, chunk_json, dumps, empty_question, language_counts
from raglab.text.analyzer import tokens


def cmd_analyze(args) -> int:
    toks = tokens(args.text)
    if args.json:
        print(dumps(analysis(args.text)))
    else:
        for t in toks:
            surface = args.text[t.start:t.end]
            print(f"{terminal_safe(t.term)}\t{t.start}-{t.end}\t{terminal_safe(surface)}")
    return 0


def cmd_chunks(args) -> int:
    if args.chunker not in CHUNKERS:
        raise UsageError(f"unknown chunker {args.chunker!r}; choose one of: {', '.join(CHUNKERS)}")
    docs = corpus_docs(args)
    if args.doc is not None:
        docs = [d for d in docs if d.id == args.doc] or _unknown_doc(args.doc, [d.id for d in docs])
    args.ticker.step("chunking")
    for c in chunk_corpus(docs, args.chunker):  # chunks only: no index is built to list them
        if args.json:
            print(dumps(chunk_json(c)))
        else:
            print(terminal_safe(f"[{c.id}] {c.start}-{c.end} {' > '.join(c.heading)}") + "\n"
                  + terminal_safe(c.text, keep="\n\t") + "\n")
    return 0


def _unknown_doc(doc_id: str, ids: list[str]):
    close = difflib.get_close_matches(doc_id, ids, n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(close)}?" if close else "list the ids with: raglab check"
    raise UsageError(f"no article with id {doc_id!r}; {hint}")


def plural(n: int, noun: str) -> str:
    """ "1 article", "2 articles" (nouns here take an s)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


# Why an answer is withheld, in words, by the ask JSON's "withheld" (`answerer.WITHHELD`); the
# page says the same (js/i18n.js, "ask.withheld.*").
WITHHELD_WORDS = {
    "no-passage": "no passage shares a word with the question",
    "low-confidence": "no sentence answers the question with enough confidence",
    "no-match": "the passage closest to the question shares none of its words",
    "other-half": "the passage closest to the question speaks of the other half of what was asked"
                  " (e.g. cash out for cash in)",
    "other-period": "the passage states a figure for another period than the one asked (e.g. a day for a month)",
    "one-case": "a limit was asked and the passage closest to the question gives one worked example's figure",
    "no-value": "a figure was asked and the passage closest to the question states none",
}


def withheld_reason(r: dict) -> str:
    """Why `r` (ask JSON) abstains, in words, with its confidence and the threshold in as many
    digits as tell them apart ("confidence 0.7499, threshold 0.7500", never "0.75, 0.75")."""
    why = r.get("withheld") or "low-confidence"
    words = WITHHELD_WORDS.get(why, WITHHELD_WORDS["low-confidence"])
    if why == "no-passage":
        return words
    conf, th = r["confidence"], r["config"]["threshold"]
    d = 2
    while d < 6 and conf < th and f"{conf:.{d}f}" == f"{th:.{d}f}":
        d += 1
    return f"{words}; confidence {conf:.{d}f}, threshold {th:.{d}f}"


LANGUAGES = {"en": "an English", "bn": "a Bangla"}


def language_note(r: dict) -> str | None:
    """Why the answer is in the other language than the question (the ask JSON's
    "answer_language"), as the page says it in its words (js/i18n.js, "ask.lang.*"); None otherwise."""
    lang = r.get("answer_language")
    if not lang or lang["quoted"] not in LANGUAGES or lang["asked"] not in LANGUAGES:
        return None
    quoted, asked = LANGUAGES[lang["quoted"]], LANGUAGES[lang["asked"]]
    there = f"{asked} article says this too, but this one answers the question more closely" if lang["twin"] \
        else f"no {asked.split(' ')[1]} article found that says this"
    return f"quoted from {quoted} article: {there}"


def _print_result(r: dict) -> None:
    if r.get("read_as", r["question"]) != r["question"]:
        print(f"Read as: {terminal_safe(r['read_as'])}")
    if r["abstained"]:
        print("Answer: (abstained) not found in the help centre")
        print("Why:    " + withheld_reason(r))
    else:
        for short in r["short_answers"]:
            print(f"Short:  {terminal_safe(short['text'])}")
        # The answer's quotes are one per line (the answerer joins them with a newline).
        print("Answer: " + "\n        ".join(terminal_safe(line) for line in r["answer"].split("\n")))
        print(f"Cited:  {terminal_safe(' '.join('[' + c + ']' for c in r['citations']))}  "
              f"(confidence {r['confidence']:.2f})")
        note = language_note(r)
        if note:
            print("Note:   " + note)
    n, k = len(r["chunks"]), r["config"]["k"]
    if n == 0:
        print("\nNo chunk matches the question's words.")
    else:
        print(f"\nTop {n} {'chunk' if n == 1 else 'chunks'}{':' if n == k else f' (every chunk that matched; k = {k:,}):'}")
    for c in r["chunks"]:
        snippet = " ".join(c["text"].split())
        snippet = terminal_safe(snippet if len(snippet) <= 100 else snippet[:99] + "…")
        print(f"{c['rank']:>2}. {c['score']:>8.4f}  {terminal_safe(c['id']):<28} {snippet}")


def cmd_ask(args) -> int:
    if args.question is None and args.questions is None:
        raise UsageError("give a QUESTION or --questions FILE")
    config = config_from(args)
    docs = corpus_docs(args)
    if args.questions is not None:
        questions = read_questions(args.questions)
        if cluster.wanted(args):
            return cluster.ask_questions(args, docs, config, questions)
        pipe = Pipeline(docs, config, args.ticker.step)
        for n, q in enumerate(questions, 1):
            args.ticker.step(f"answering question {n:,} of {len(questions):,}")
            print(dumps(ask_json(pipe.ask(q)) if q.strip() else empty_question(n)))
        return 0
    if cluster.wanted(args):
        raise UsageError("--scheduler and --workers answer a --questions FILE; a single question is answered here")
    if not args.question.strip():
        raise UsageError("the question is empty; ask something, e.g. raglab ask \"What is the cash out fee?\"")
    pipe = Pipeline(docs, config, args.ticker.step)
    args.ticker.step("answering")
    result = ask_json(pipe.ask(printable(args.question)))
    args.ticker.close()
    if args.json:
        print(dumps(result))
    else:
        _print_result(result)
    return 0


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


def add_import_parser(sub) -> None:
    p = sub.add_parser(
        "import", help="import a public QA set (SQuAD JSON, BEIR) as a corpus folder and golden set",
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


def add_compare_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "compare", help="score every chunker x retriever on the golden set",
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="raglab",
        description="Measure retrieval and extractive answers over a bilingual (Bangla + English) help centre.",
        epilog="Examples:\n  raglab ask \"What is the cash out fee?\"\n  raglab ask --json \"ক্যাশ আউটের খরচ কত?\"\n"
               "  raglab analyze \"২৫,০০০ টাকা\"\n  raglab check\n  raglab compare --split test\n"
               "  raglab import squad FILE.json --out DIR\n  raglab encode --corpus DIR --workers 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("analyze", help="print the analyzer's terms for TEXT", description="Print the analyzer's terms (term, span, surface) for TEXT.")
    p.add_argument("text", metavar="TEXT")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    add_output_arg(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("chunks", help="print the chunks of the corpus", description="Print every chunk a chunker makes.")
    add_corpus_arg(p)
    p.add_argument("--chunker", default=Config().chunker, help=f"one of {', '.join(CHUNKERS)}")
    p.add_argument("--doc", help="only this article id")
    p.add_argument("--json", action="store_true", help="print JSON Lines")
    add_output_arg(p)
    p.set_defaults(func=cmd_chunks)

    p = sub.add_parser("ask", help="answer a question from the help centre",
                       description="Answer a question: the cited answer (or an abstention) and the top chunks.",
                       epilog="Examples:\n  raglab ask \"What is the cash out fee?\"\n  raglab ask --json --retriever bm25 "
                              "\"ক্যাশ আউটের খরচ কত?\"\n"
                              "  raglab ask \"porpor 3 bar vul pin dile ki hobe?\"   # Banglish: read in Bangla script first\n"
                              "  raglab ask --questions questions.txt --output answers.jsonl\n"
                              "  raglab ask --questions questions.txt --workers 2   # answered on 2 worker processes",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("question", nargs="?", metavar="QUESTION")
    p.add_argument("--questions", metavar="FILE", help="one question per line (or JSON Lines with 'question'); prints JSON Lines")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_corpus_arg(p)
    add_config_args(p)
    cluster.add_cluster_args(p, "answer a --questions FILE")
    add_output_arg(p)
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("check", help="validate the corpus and golden set",
                       description="Validate corpus and goldens; print counts per language x kind x split.")
    add_corpus_arg(p)
    p.add_argument("--goldens", metavar="FILE", help="golden JSON Lines file (default: the bundled set)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_output_arg(p)
    p.set_defaults(func=cmd_check)

    add_import_parser(sub)
    add_compare_parser(sub)
    cluster.add_encode_parser(sub, add_corpus_arg, add_output_arg, corpus_docs)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        check_paths(args)
        with output_to(getattr(args, "output", None)), Ticker(args.command) as args.ticker:
            return args.func(args)
    except (UsageError, CorpusError, GoldenError, ValueError) as err:
        print(f"raglab {args.command}: error: {terminal_safe(str(err))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        # One line and the shell's status for Ctrl-C; --output files are written whole or not at all.
        print(f"raglab {args.command}: interrupted", file=sys.stderr)
        return 130
