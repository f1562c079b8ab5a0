"""The dev questions asking two facts (kind multi, or `facts.asks_two`) whose answer does not hold
the reference fact, with what was shown: a reading aid for sorting them by cause.

    .venv/bin/python bench/two_facts_list.py [--split dev] [--all]
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from dataclasses import replace  # noqa: E402

from answer_diagnosis import diagnose  # noqa: E402
from raglab.answer.facts import asks_two  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.metrics import number_values  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--split", default="dev", choices=("dev",))
    p.add_argument("--all", action="store_true", help="every two-fact question, the right ones too")
    args = p.parse_args(argv)
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    qs = {q.id: q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs) if q.split == args.split}
    pipe = Pipeline(docs, replace(Config(), threshold=0.0))  # what would be shown
    for row in diagnose(args.split):
        q = qs[row["id"]]
        if not q.answerable or not (q.kind == "multi" or asks_two(q.question)):
            continue
        if not args.all and row["class"] in ("right", "right but abstained"):
            continue
        r = pipe.ask(q.question).answer
        shown = r.text or ""
        lost = [n for n in number_values(q.answer) if n not in set(number_values(shown))]
        print(f"== {q.id} [{q.kind}] two={asks_two(q.question)} {row['class']} conf={row['confidence']:.2f} "
              f"quotes={len(r.quotes)} shorts={[s.text for s in r.short_answers]} lost={lost}")
        print("  Q:", q.question)
        print("  R:", q.answer)
        for x in r.quotes:
            print("  >", x.doc, x.start, x.text.replace("\n", " / "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
