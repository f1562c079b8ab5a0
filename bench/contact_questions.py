"""Dev questions that ask for a contact (an email, a number, a hotline, an address, an office or
someone to reach), answered at threshold 0 by the served default, with what the page shows first.
Dev use only: ours dev and the fresh probe.

    .venv/bin/python bench/contact_questions.py [--json]
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import evaluate_configs  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.text.answertypes import question_type  # noqa: E402

# Words of a question asking whom or where to reach; read by eye, the list is only a sieve.
ASKS = re.compile(r"e-?mail|ইমেইল|মেইল|hotline|helpline|হটলাইন|হেল্পলাইন|phone number|number (?:do|to|should)"
                  r"|call|contact|reach|complain|report|escalate|whom|who (?:do|should|can)|যোগাযোগ|কার কাছে"
                  r"|কাকে|কোথায় (?:অভিযোগ|জানা|রিপোর্ট)|অভিযোগ|নম্বরে|নাম্বারে|kar kache|jogajog|kothay|obhijog"
                  r"|website|address|ঠিকানা|office|অফিস", re.I)


def rows(path, split):
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q for q in load_goldens(path, docs) if split is None or q.split == split]
    config = Config()
    recs = evaluate_configs(docs, questions, [config], config.k, 0.5)["results"][config.label]
    by_id = {q.id: q for q in questions}
    out = []
    for rec in recs:
        q = by_id[rec["id"]]
        if not (ASKS.search(q.question) or getattr(q, "answer_type", None) == "contact"):
            continue
        out.append({"id": q.id, "question": q.question, "reference": q.answer,
                    "gold_type": getattr(q, "answer_type", None), "type": question_type(q.question),
                    "confidence": round(rec["confidence"], 3) if rec["confidence"] is not None else None,
                    "holds": bool(rec.get("holds")), "answerable": q.answerable,
                    "short": (rec["short"] or "")[:160]})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = rows(os.path.join(ROOT, "goldens", "questions.jsonl"), "dev") + \
        rows(os.path.join(ROOT, "bench", "fresh_probe.jsonl"), None)
    if a.json:
        print(json.dumps(res, ensure_ascii=False, indent=1))
        return
    for r in res:
        print(f"{r['id']} {r['confidence']} holds={r['holds']} type={r['type']} gold={r['gold_type']} | {r['question']}\n"
              f"    ref: {r['reference']}\n    shown: {r['short']!r}")


if __name__ == "__main__":
    main()
