"""Time a question natively on the bundled corpus, the encoder excluded: the served default
against other configurations, in alternating rounds.

    .venv/bin/python bench/query_latency.py                       # served vs fixed+bm25-semantic
    .venv/bin/python bench/query_latency.py --rounds 7 --json

Every golden question is asked once first, so its vector is in the cache (the encoder's time
is measured by bench/encoder_speed.py; here it is excluded). Then, in alternating rounds,
each configuration runs `Pipeline.search` (retrieval, the question's k chunks) and
`Pipeline.ask` (retrieval, the answer and the highlight spans) for every question; each
question keeps its median over the rounds. Reported: the median and the 95th percentile over
questions, and the machine's load average at the start and the end.
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

OTHERS = [Config(retriever="bm25-semantic", expand=False, threshold=0.25)]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q.question for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)]
    configs = [Config()] + [c for c in OTHERS if c != Config()]
    pipes = [Pipeline(docs, c) for c in configs]
    load_start = os.getloadavg()
    for pipe in pipes:  # warm: vectors of every question, fuzzy indexes, caches
        for q in questions:
            pipe.ask(q)
    times = {(c.label, step): [[] for _ in questions] for c in configs for step in ("search", "ask")}
    for _ in range(args.rounds):
        for pipe in pipes:
            label = pipe.config.label
            for n, q in enumerate(questions):
                t = time.perf_counter()
                pipe.search(q)
                times[label, "search"][n].append(time.perf_counter() - t)
                t = time.perf_counter()
                pipe.ask(q)
                times[label, "ask"][n].append(time.perf_counter() - t)
    load_end = os.getloadavg()
    out = {"questions": len(questions), "rounds": args.rounds, "load_start": [round(x, 2) for x in load_start],
           "load_end": [round(x, 2) for x in load_end], "configs": {}}
    for (label, step), per_q in times.items():
        med = [statistics.median(t) * 1000 for t in per_q]
        out["configs"].setdefault(label, {})[step] = {"median_ms": round(statistics.median(med), 2),
                                                      "p95_ms": round(quantile(med, 0.95), 2)}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{len(questions)} golden questions, {args.rounds} alternating rounds, load average "
          f"{load_start[0]:.1f} at the start and {load_end[0]:.1f} at the end (1 minute)")
    print("| configuration | search median | search p95 | ask median | ask p95 |")
    print("|---|---:|---:|---:|---:|")
    for label, steps in out["configs"].items():
        print(f"| {label}{' (served)' if label == Config().label else ''} | {steps['search']['median_ms']:.2f} ms | "
              f"{steps['search']['p95_ms']:.2f} ms | {steps['ask']['median_ms']:.2f} ms | {steps['ask']['p95_ms']:.2f} ms |")


if __name__ == "__main__":
    main()
