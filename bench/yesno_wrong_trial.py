"""The wrong answers to yes/no questions shown at confidence >= 0.5 (dev and the fresh probe), read against
their evidence: the chosen unit, the best-placed evidence unit, their places, logits and whether each takes
the side the question asks (`modality.sides_asked`, `takes_side`). Dev only; nothing is fitted or written.

    .venv/bin/python bench/yesno_wrong_trial.py [--floor 0.5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, HERE)

from answer_diagnosis import is_evidence  # noqa: E402
from raglab.answer.answerer import compose  # noqa: E402
from raglab.answer.sentences import lang_of  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index, evaluate  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.question.modality import sides_asked, takes_side  # noqa: E402


def rows(floor: float) -> list[dict]:
    config = Config(threshold=0.0)
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    pipe = Pipeline(docs, config)
    out = []
    for src, path in (("dev", os.path.join(ROOT, "goldens", "questions.jsonl")),
                      ("probe", os.path.join(HERE, "fresh_probe.jsonl"))):
        qs = [q for q in load_goldens(path, docs) if q.split == "dev"]
        recs = evaluate(pipe, qs, coverage_index(pipe.chunks, qs, 0.5), config.k, 0.5)
        for q, r in zip(qs, recs):
            if r["answer"] is None or r["confidence"] < floor:
                continue
            if q.answerable and r["shown"] is not None and holds_fact(r["shown"], q.answer, evidence=q.evidence):
                continue
            hits = pipe.search(q.question)
            a = pipe.assess(q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits])
            if a is None:
                continue
            yesno = a.q.qtype == "yesno" or getattr(q, "answer_type", None) == "yesno"
            if not yesno:
                continue
            sides = sides_asked(q.question)
            ans = compose(a, pipe.docs)
            ev = [(i, z, c) for i, (z, c) in enumerate(a.order) if q.answerable and is_evidence(c.quote, q.evidence)]
            z0, c0 = a.order[0]
            row = {"src": src, "id": q.id, "qtype": a.q.qtype, "conf": round(r["confidence"], 3), "sides": sides,
                   "question": q.question, "answer": q.answer,
                   "shown": [x.text for x in ans.quotes],
                   "chosen": {"logit": round(z0, 2), "doc": c0.quote.doc, "side": takes_side(c0.unit.text, sides),
                              "text": c0.unit.text},
                   "evidence_cands": None, "evidence": [e.quote for e in q.evidence] if q.answerable else None}
            if ev:
                i, ze, e = ev[0]
                row["evidence_cands"] = {"place": i, "logit": round(ze, 2), "doc": e.quote.doc,
                                         "same_doc": e.quote.doc == c0.quote.doc,
                                         "side": takes_side(e.unit.text, sides), "lang": lang_of(e.unit.text),
                                         "text": e.unit.text}
            out.append(row)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--floor", type=float, default=0.5)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    got = rows(args.floor)
    if args.json:
        print(json.dumps(got, ensure_ascii=False, indent=1))
        return 0
    for r in got:
        c, e = r["chosen"], r["evidence_cands"]
        print(f"== {r['src']} {r['id']} conf {r['conf']} asks {r['qtype']} sides {r['sides']}")
        print(f"Q: {r['question']}\nA: {r['answer']}\nevidence: {r['evidence']}")
        print(f"shown: {r['shown']}")
        print(f"chosen {c['logit']} {c['doc']} side={c['side']}: {c['text'][:250]}")
        if e:
            print(f"ev #{e['place'] + 1} {e['logit']} {e['doc']} same_doc={e['same_doc']} side={e['side']}: {e['text'][:250]}")
        else:
            print("ev: not a candidate")
    print(len(got), "rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
