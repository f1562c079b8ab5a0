"""`raglab analyze`, `raglab chunks` and `raglab ask`: the commands that read the corpus through the
pipeline (imported only when one of them runs; `main` lists them)."""

from __future__ import annotations

import argparse
import difflib

from raglab.cli import cluster
from raglab.cli.arguments import UsageError, add_corpus_arg, add_output_arg
from raglab.cli.console import printable, read_questions, terminal_safe
from raglab.cli.inputs import add_config_args, config_from, corpus_docs
from raglab.corpus.chunking import CHUNKERS, chunk_corpus
from raglab.pipeline import Config, Pipeline
from raglab.schema import analysis, ask_json, chunk_json, dumps, empty_question
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
    "no-value": "a figure (or a number to call, an address to write to) was asked and the passage closest to the question states none",
    "only-the-way": "a fault was reported and the passage closest to the question only says how the thing is done",
    "other-subject": "a figure was asked about a service or a kind of price that the passage closest to the question does not name",
    "no-list": "what is needed (or which details) was asked and the passages quoted name nothing of the kind",
    "no-way": "how to do something was asked and the passage closest to the question says nothing to do, while one ranked below it does",
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
    # An answer put in the customer's language quotes the twin article's passage, which the
    # ranking may not have listed: say where the citation comes from, not leave it unexplained.
    listed = {c["id"] for c in r["chunks"]}
    for cited in [] if r["abstained"] else [c for c in r["citations"] if c not in listed]:
        print(f"Cited [{terminal_safe(cited)}] is not among these: it says the same in the question's language")


def cmd_ask(args) -> int:
    if args.question is None and args.questions is None:
        raise UsageError("give a QUESTION or --questions FILE")
    config = config_from(args)
    if args.questions is None:  # a single question's mistakes are told before the corpus is read
        if cluster.wanted(args):
            raise UsageError("--scheduler and --workers answer a --questions FILE; a single question is answered here")
        if not args.question.strip():
            raise UsageError("the question is empty; ask something, e.g. raglab ask \"What is the cash out fee?\"")
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
    pipe = Pipeline(docs, config, args.ticker.step)
    args.ticker.step("answering")
    result = ask_json(pipe.ask(printable(args.question)))
    args.ticker.close()
    if args.json:
        print(dumps(result))
    else:
        _print_result(result)
    return 0


def add_analyze_parser(sub, help: str) -> None:
    p = sub.add_parser("analyze", help=help, description="Print the analyzer's terms (term, span, surface) for TEXT.")
    p.add_argument("text", metavar="TEXT")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    add_output_arg(p)
    p.set_defaults(func=cmd_analyze)


def add_chunks_parser(sub, help: str) -> None:
    p = sub.add_parser("chunks", help=help, description="Print every chunk a chunker makes.")
    add_corpus_arg(p)
    p.add_argument("--chunker", default=Config().chunker, help=f"one of {', '.join(CHUNKERS)}")
    p.add_argument("--doc", help="only this article id")
    p.add_argument("--json", action="store_true", help="print JSON Lines")
    add_output_arg(p)
    p.set_defaults(func=cmd_chunks)


def add_ask_parser(sub, help: str) -> None:
    p = sub.add_parser("ask", help=help,
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
