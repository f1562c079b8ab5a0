"""What int8 activations do to retrieval: the kernel's vectors against the unquantised model's.

The kernel quantises each weight product's input to int8 in blocks of 32 (scale = the
block's largest magnitude / 127, values rounded to the nearest integer, ties to even), so
the 4-bit weights meet integers and every block sum is exact: the same bits on every target
and about 1.7x faster in wasm than float32 products. Before the kernel took it this script
simulated the change; now it measures what it cost: tests/e5_reference.py's float64
`Reference` (no quantisation) encodes the served configuration's chunks and the split's
question readings, and the split is ranked with the served retriever on those vectors
against the shipped (kernel, int8) ones:

    .venv/bin/python bench/int8_activations.py [--split dev]

It prints the cosine of each unquantised vector to the shipped one, recall@3 and MRR@10 of
both, paired counts and a paired bootstrap interval of the differences, and how many top-1
and top-3 sets move. It changes nothing (the vectors live in this process only). Answers are
not compared: the answerer's sentence vectors stay the kernel's. A few minutes (numpy, one
thread).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # a shared machine: one core
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "tests"))

import numpy as np  # noqa: E402

from e5_reference import Reference  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import index_text  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.encoder import vectors  # noqa: E402
from raglab.encoder.native import PASSAGE, native_encoder, read_model  # noqa: E402
from raglab.evaluation.engine import coverage_index  # noqa: E402
from raglab.evaluation.metrics import gains, recall_at, reciprocal_rank  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402


def ranked_metrics(pipe: Pipeline, asked) -> tuple[list[float], list[float], dict]:
    cover = coverage_index(pipe.chunks, asked, 0.5)
    recall, mrr, tops = [], [], {}
    for q in asked:
        hits = pipe.retriever.search(pipe.query(q.question), 10)
        tops[q.id] = [h.index for h in hits]
        if q.answerable:
            gain = gains([cover[q.id].get(h.index, frozenset()) for h in hits])
            recall.append(recall_at(gain, q.n_facts, 3))
            mrr.append(reciprocal_rank(gain, 10))
    return recall, mrr, tops


def paired_interval(before: list[float], after: list[float], seed: int = 7) -> tuple[float, float, float]:
    """Mean difference and its 95% paired bootstrap interval (2,000 resamples)."""
    rng = random.Random(seed)
    d = [b - a for a, b in zip(before, after)]
    n = len(d)
    means = sorted(math.fsum(d[rng.randrange(n)] for _ in range(n)) / n for _ in range(2000))
    return math.fsum(d) / n, means[50], means[1949]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="dev", choices=["dev", "test", "all"], help="golden split to rank (default dev)")
    args = parser.parse_args()
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    golden = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    asked = [q for q in golden if args.split == "all" or q.split == args.split]
    config = Config()  # the served default (recursive chunks, bilingual, expansion on, k = 3)
    today = Pipeline(docs, config)
    texts = list(dict.fromkeys([PASSAGE + index_text(c) for c in today.chunks]
                               + [t for q in asked for t in today.query_texts(q.question)]))
    encoder = native_encoder()
    cache = vectors.native_cache()
    flat = cache.get(texts)
    reference = Reference(read_model())
    started = time.process_time()
    simulated = {vectors.text_key(t): reference.encode(encoder.ids(t)).astype(np.float32).tobytes() for t in texts}
    cosines = [float(np.dot(np.frombuffer(simulated[vectors.text_key(t)], np.float32).astype(np.float64),
                            np.frombuffer(flat[i * encoder.dim:(i + 1) * encoder.dim].tobytes(), np.float32)))
               for i, t in enumerate(texts)]
    r0, m0, t0 = ranked_metrics(today, asked)
    other = vectors.VectorCache(encoder, use_disk=False, shipped=os.devnull)
    other.known = {**cache.known, **simulated}
    vectors.use(other)
    r1, m1, t1 = ranked_metrics(Pipeline(docs, config), asked)
    vectors.use(cache)
    n = len(r0)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(texts)} texts through the reference in {time.process_time() - started:.0f} CPU-s; "
          f"split {args.split}: {len(asked)} questions, {n} answerable; served default {config.label}")
    print(f"cosine to the shipped vectors: min {min(cosines):.6f}, median {statistics.median(cosines):.6f}")
    for name, r, m in (("int8 activations (shipped)", r0, m0), ("unquantised (float64 reference)", r1, m1)):
        print(f"  {name:30} recall@3 {math.fsum(r) / n:.3f}   MRR@10 {math.fsum(m) / n:.3f}")
    for name, a, b in (("recall@3", r0, r1), ("MRR@10", m0, m1)):
        mean, lo, hi = paired_interval(a, b)
        print(f"  {name} difference {mean:+.4f} [{lo:+.4f}, {hi:+.4f}]: {sum(y > x for x, y in zip(a, b))} better, "
              f"{sum(y < x for x, y in zip(a, b))} worse")
    print(f"  top-1 unchanged for {sum(t0[k][0] == t1[k][0] for k in t0)} of {len(t0)} questions, "
          f"top-3 set for {sum(set(t0[k][:3]) == set(t1[k][:3]) for k in t0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
