"""Why a short answer misses a reference its quote holds, one cause per question.

    .venv/bin/python bench/short_answer_causes.py                  # TyDi QA English, dev half
    .venv/bin/python bench/short_answer_causes.py --set ours       # our dev split
    .venv/bin/python bench/short_answer_causes.py --set tydi-train --show 10   # the TyDi train questions

For the dev halves every question is answered at threshold 0 by the served default (the records
`raglab compare` scores); a question counts when its quote holds the reference (the reference's
text, or all of its analyzer terms) and its short answer (the quote when there is none) has a token
F1 below 0.5. For the 3,296 TyDi QA English train questions (`goldens/external/tydiqa-en-train/`,
read only here, never to choose) nothing is retrieved: the short answer is read from the sentence
that holds the annotated answer (`splitter.sentences`), with the question's type and terms, so
every miss is the short answer's own. The test halves are never read.

Causes, the first that fits: no short answer where the question's type accepts a typed value; no
short answer for a question no span type answers (what is, how did, what kind …); a span holding
the reference and more (too long); a part of the reference (too short); an overlapping span cut
elsewhere; a wrong span although a span of an accepted type covers the reference (another of
several); a wrong span where none does (the reference is no span of the asked type).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.answer.candidates import ASKING, text_info  # noqa: E402
from raglab.answer.sentences import spans_of  # noqa: E402
from raglab.answer.short import short_spans  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index, evaluate  # noqa: E402
from raglab.evaluation.metrics import token_f1  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402
from raglab.text.answertypes import accepts, question_type  # noqa: E402
from raglab.text.numbers import numbers  # noqa: E402
from raglab.text.splitter import sentences  # noqa: E402

SETS = {"tydi": ("goldens/external/tydiqa-en/corpus", "goldens/external/tydiqa-en/questions.jsonl"),
        "ours": ("corpus", "goldens/questions.jsonl"),
        "covid": ("goldens/external/covid-qa-faq/corpus", "goldens/external/covid-qa-faq/questions.jsonl")}
TRAIN = os.path.join(ROOT, "goldens", "external", "tydiqa-en-train", "tydiqa-goldp-en-train-rest.json")
CAUSES = ("no short answer where a typed value is asked", "no short answer (a phrase question)", "too long",
          "too short", "another cut", "another span of the asked type", "the reference is no span of the asked type")


def cause(question: str, reference: str, short: str, text: str) -> str:
    """The cause of a miss (module docstring); `short` is "" when there is none."""
    qtype = question_type(question)
    ref, got = set(analyze(reference)), set(analyze(short)) if short else set()
    if not short:
        return CAUSES[0] if accepts(qtype) else CAUSES[1]
    if ref and ref <= got:
        return CAUSES[2]
    if got and got <= ref:
        return CAUSES[3]
    if got & ref:
        return CAUSES[4]
    at = text.find(reference)
    kinds = [sp.type for sp in spans_of(text) if at >= 0 and sp.start < at + len(reference) and sp.end > at]
    return CAUSES[5] if any(k in accepts(qtype) for k in kinds) else CAUSES[6]


def dev_rows(name: str) -> list[tuple[str, str, str, str]]:
    """(question, reference, short answer or "", quote) of every dev question whose quote holds
    the reference and whose shown short answer scores a token F1 below 0.5."""
    corpus, goldens = SETS[name]
    config = Config()
    docs = load_corpus(os.path.join(ROOT, corpus))
    questions = [q for q in load_goldens(os.path.join(ROOT, goldens), docs) if q.split == "dev" and q.answerable]
    pipe = Pipeline(docs, config)
    records = evaluate(pipe, questions, coverage_index(pipe.chunks, questions, 0.5), config.k, 0.5)
    rows = []
    for q, r in zip(questions, records):
        quote = r["answer"]
        if quote is None or not (q.answer.lower() in quote.lower() or set(analyze(q.answer)) <= set(analyze(quote))):
            continue
        rows.append((q.question, q.answer, "" if r["short"] == quote else r["short"], quote, r["short_f1"]))
    return rows


def train_rows() -> list[tuple[str, str, str, str, float]]:
    """The same for the TyDi train questions, each read from the sentence holding its answer."""
    data = json.load(open(TRAIN, encoding="utf-8"))
    rows = []
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            spans = sentences(context)
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                start, reference = answer["answer_start"], answer["text"]
                sentence = next(((s, e) for s, e in spans if s <= start < e), None)
                if sentence is None or start + len(reference) > sentence[1]:
                    continue  # the answer runs over two sentences
                text, question = context[sentence[0]:sentence[1]], qa["question"]
                terms = {t for t in analyze(question) if t not in ASKING}
                got = short_spans(question_type(question), frozenset(numbers(question)), terms, text,
                                  text_info(text).order, question, 1)
                short = "; ".join(text[s:e] for s, e in got)
                rows.append((question, reference, short, text, token_f1(short or text, reference)))
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", default="tydi", choices=("tydi", "ours", "covid", "tydi-train"))
    p.add_argument("--show", type=int, default=0, help="print this many questions of each cause")
    args = p.parse_args(argv)
    rows = train_rows() if args.set == "tydi-train" else dev_rows(args.set)
    missed = [r for r in rows if r[4] < 0.5]
    mean = sum(r[4] for r in rows) / len(rows) if rows else 0.0
    print(f"{args.set}: {len(rows)} questions whose quote holds the reference, mean short F1 {mean:.4f}, "
          f"{len(missed)} below 0.5")
    by = collections.defaultdict(list)
    for r in missed:
        by[cause(r[0], r[1], r[2], r[3])].append(r)
    for c in CAUSES:
        print(f"{len(by[c]):6d}  {c}")
    for c in CAUSES:
        for question, reference, short, _, f1 in by[c][:args.show]:
            print(f"[{c}] {question} | reference {reference!r} | short {short!r} | F1 {f1:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
