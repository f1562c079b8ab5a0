"""A fresh probe of new users' questions answered by the served pipeline (dev use only).

    .venv/bin/python bench/fresh_probe.py                      # bench/fresh_probe.jsonl
    .venv/bin/python bench/fresh_probe.py --goldens FILE --json

`bench/fresh_probe.jsonl` holds questions written after the answerer was shaped, as customers
type them (English, Bangla, Banglish, typos, two facts, a few the help centre does not answer),
each with a reference fact and its verbatim evidence (`raglab check --goldens` passes on it).
Every question is answered as `raglab compare` answers it (`engine.evaluate_configs`, the served
configuration: its records hold the page's text, the confidence, and `holds`, judged by
`metrics.holds_fact` against the reference and its evidence), and sorted at the served threshold:

- right: shown (confidence >= threshold) and the fact held;
- wrong shown: shown and the fact not held, or an unanswerable question answered;
- withheld right / withheld wrong: below the threshold, with the fact held or not;
- abstained unanswerable: an unanswerable question below the threshold.

The shown wrong answers are listed with their confidence and what the page shows first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import evaluate_configs  # noqa: E402
from raglab.pipeline import Config  # noqa: E402

PROBE = os.path.join(ROOT, "bench", "fresh_probe.jsonl")
CLASSES = ("right", "wrong shown", "withheld right", "withheld wrong", "abstained unanswerable")
MIN_COVERAGE = 0.5  # as `raglab compare`'s default


def outcome(rec: dict, threshold: float) -> str:
    shown = rec["confidence"] is not None and rec["confidence"] >= threshold and rec["shown"] is not None
    if not rec["answerable"]:
        return "wrong shown" if shown else "abstained unanswerable"
    held = bool(rec.get("holds"))
    if shown:
        return "right" if held else "wrong shown"
    return "withheld right" if held else "withheld wrong"


def run(path: str = PROBE) -> dict:
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = load_goldens(path, docs)
    config = Config()
    records = evaluate_configs(docs, questions, [config], config.k, MIN_COVERAGE)["results"][config.label]
    by_id = {q.id: q for q in questions}
    rows = []
    for rec in records:
        q = by_id[rec["id"]]
        rows.append({"id": q.id, "lang": q.lang, "kind": q.kind, "question": q.question, "reference": q.answer,
                     "confidence": rec["confidence"], "short": rec["short"],
                     "outcome": outcome(rec, config.threshold)})
    counts = {c: sum(1 for r in rows if r["outcome"] == c) for c in CLASSES}
    shown = counts["right"] + counts["wrong shown"]
    return {"config": config.label, "threshold": config.threshold, "n": len(rows), "counts": counts,
            "wrong_of_shown": round(counts["wrong shown"] / shown, 3) if shown else None, "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--goldens", default=PROBE, help="question file (default: bench/fresh_probe.jsonl)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    out = run(args.goldens)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    print(f"{out['config']}, threshold {out['threshold']}, {out['n']} questions")
    for c in CLASSES:
        print(f"  {c:24s} {out['counts'][c]:3d}")
    print(f"  wrong of shown           {out['wrong_of_shown']}")
    print("shown wrong:")
    for r in out["rows"]:
        if r["outcome"] == "wrong shown":
            print(f"  {r['id']} {r['confidence']:.2f} {r['question']}\n      shown: {(r['short'] or '')[:160]!r}\n"
                  f"      reference: {r['reference']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
