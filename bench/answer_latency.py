"""Time the answer step alone (after retrieval), natively, over every golden question.

    .venv/bin/python bench/answer_latency.py                 # the served default, 7 rounds
    .venv/bin/python bench/answer_latency.py --rounds 9 --json

Retrieval runs once per golden question (served default); then, in rounds, the answerer
(`Pipeline.answer`: analysis, aliases, near spellings, candidates, scoring, short answers)
answers every question from the same top-k chunks. The first round is reported on its own
(cold: each article's units and each text's analysis are worked out for the first time);
for the others each question keeps its median time over the rounds. Reported: the median and
95th percentile over questions. Report the machine's load beside the figures
(`uptime`): the machine these run on is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7, help="rounds after the first (default 7)")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    pipe = Pipeline(docs, Config())
    print(f"retrieving {len(questions)} questions once ...", file=sys.stderr)
    cases = []
    for q in questions:
        hits = pipe.search(q.question)
        cases.append((q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits]))
    times: list[list[float]] = [[] for _ in cases]
    first: list[float] = []
    for r in range(args.rounds + 1):
        for i, (question, chunks, scores) in enumerate(cases):
            t = time.perf_counter()
            pipe.answer(question, chunks, pipe.config.threshold, scores)
            ms = 1000 * (time.perf_counter() - t)
            (first.append(ms) if r == 0 else times[i].append(ms))
    warm = [statistics.median(t) for t in times]
    out = {"config": pipe.config.label, "questions": len(cases), "rounds": args.rounds,
           "cold": {"median_ms": round(statistics.median(first), 2), "p95_ms": round(percentile(first, 0.95), 2)},
           "warm": {"median_ms": round(statistics.median(warm), 2), "p95_ms": round(percentile(warm, 0.95), 2)},
           "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"answer step, {out['config']}, {out['questions']} questions: cold (first round) median "
              f"{out['cold']['median_ms']} ms, p95 {out['cold']['p95_ms']} ms; warm (median of {args.rounds} rounds) "
              f"median {out['warm']['median_ms']} ms, p95 {out['warm']['p95_ms']} ms; load average {out['load']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
