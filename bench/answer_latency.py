"""Time the answer step alone (after retrieval), the current answerer against an older one.

    .venv/bin/python bench/answer_latency.py                 # against the answerer of --baseline-rev
    .venv/bin/python bench/answer_latency.py --rounds 9 --json

Retrieval runs once per golden question (served default); then, in alternating rounds, each
answerer answers every question from the same top-k chunks, and each question keeps its
median time over the rounds. Reported: the median and 95th percentile over questions, per
answerer, and their ratio. The old answerer is read from git (`git show REV:py/raglab/answer.py`)
so both run in the same process on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.analyzer import analyze  # noqa: E402
from raglab.corpus import load_corpus  # noqa: E402
from raglab.goldens import load_goldens  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402

BASELINE = "2b61dac"  # main before the learned answerer (coverage-only sentence choice), after the refactor


def old_answerer(rev: str):
    source = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:py/raglab/answer.py"], check=True,
                            capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("raglab._answer_before", loader=None)
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "raglab"
    sys.modules[spec.name] = mod  # dataclasses look their module up
    exec(compile(source, f"{rev}:py/raglab/answer.py", "exec"), mod.__dict__)
    return mod


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    p.add_argument("--baseline-rev", default=BASELINE, help=f"git revision of the old answerer (default {BASELINE})")
    p.add_argument("--json", action="store_true", help="print JSON")
    args = p.parse_args(argv)
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    pipe = Pipeline(docs, Config())
    old = old_answerer(args.baseline_rev)
    print(f"retrieving {len(questions)} questions once ...", file=sys.stderr)
    cases = []
    for q in questions:
        hits = pipe.search(q.question)
        cases.append((q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits]))

    def run_new(case):  # Pipeline.answer: analysis, aliases, answer
        question, chunks, scores = case
        pipe.answer(question, chunks, pipe.config.threshold, scores)

    def run_old(case):  # what Pipeline.answer did before
        question, chunks, _ = case
        old.answer(analyze(question), chunks, pipe.retriever.idf, threshold=0.4, aliases=pipe.aliases(question))

    runners = {"current": run_new, f"before ({args.baseline_rev})": run_old}
    times = {name: [[] for _ in cases] for name in runners}
    for r in range(args.rounds):
        order = list(runners) if r % 2 == 0 else list(reversed(runners))
        for name in order:
            for i, case in enumerate(cases):
                t0 = time.perf_counter()
                runners[name](case)
                times[name][i].append(time.perf_counter() - t0)
        print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
    out = {"questions": len(cases), "rounds": args.rounds, "load": os.getloadavg()[0], "answerers": {}}
    for name in runners:
        per_q = [statistics.median(ts) * 1000 for ts in times[name]]
        out["answerers"][name] = {"median_ms": statistics.median(per_q), "p95_ms": percentile(per_q, 95)}
    names = list(runners)
    out["ratio_median"] = out["answerers"][names[0]]["median_ms"] / out["answerers"][names[1]]["median_ms"]
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"answer step over {len(cases)} golden questions, {args.rounds} alternating rounds, "
              f"load average {out['load']:.1f} (cache warm after round 1)")
        for name, v in out["answerers"].items():
            print(f"  {name:<22} median {v['median_ms']:.3f} ms   p95 {v['p95_ms']:.3f} ms")
        print(f"  ratio current / before (median): {out['ratio_median']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
