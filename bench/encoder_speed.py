"""Native speed of the encoder, with BM25 timed in the same run as the floor.

    python bench/encoder_speed.py [--questions 60] [--chunks 24]

- question latency: BM25 search, e5 question encode (tokenize + kernel) and a full
  `semantic` search (encode + 328 cosines + ranking) for the same questions, interleaved
  question by question so that load on a shared machine hits all three alike; medians;
- corpus encode: a sample of recursive chunks through the process pool (2 workers),
  scaled by token count to all of the bundled corpus's recursive chunks (the vector cache
  is bypassed: every text is encoded);
- memory: the resident set of a fresh process after loading the model (ru_maxrss).
Prints one markdown table; reports the load average, because the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

from raglab.chunking import chunk_corpus  # noqa: E402
from raglab.corpus import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.encoder import PASSAGE, QUERY, native_encoder  # noqa: E402
from raglab.goldens import load_goldens  # noqa: E402
from raglab.ranking import Query, index_text  # noqa: E402
from raglab.retrieval import BM25Retriever  # noqa: E402
from raglab.semantic import SemanticRetriever  # noqa: E402
from raglab.vectors import encode_all, text_key  # noqa: E402


def rss_after_load() -> float:
    code = ("import resource\nfrom raglab.encoder import native_encoder\nnative_encoder()\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    base = ("import resource\nimport raglab.tokenizer\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(HERE), "py"))
    loaded = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout)
    bare = int(subprocess.run([sys.executable, "-c", base], capture_output=True, text=True, env=env, check=True).stdout)
    return loaded / 1024, bare / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--chunks", type=int, default=24)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    docs = load_corpus(bundled_corpus_dir())
    chunks = chunk_corpus(docs, "recursive")
    questions = [q.question for q in load_goldens(os.path.join(os.path.dirname(HERE), "goldens", "questions.jsonl"), docs)]
    questions = questions[:: max(1, len(questions) // args.questions)][: args.questions]
    enc = native_encoder()
    bm25 = BM25Retriever(chunks)
    semantic = SemanticRetriever(chunks)
    semantic.cache.use_disk = False
    timings: dict[str, list[float]] = {"bm25 search": [], "e5 question encode": [], "semantic search (uncached question)": []}
    for q in questions:
        t0 = time.perf_counter()
        bm25.search(Query.plain(q), 10)
        t1 = time.perf_counter()
        enc.encode(QUERY + q)
        t2 = time.perf_counter()
        semantic.cache.known.pop(text_key(QUERY + q), None)
        semantic.search(Query.plain(q), 10)
        t3 = time.perf_counter()
        timings["bm25 search"].append(t1 - t0)
        timings["e5 question encode"].append(t2 - t1)
        timings["semantic search (uncached question)"].append(t3 - t2)
    texts = [PASSAGE + index_text(c) for c in chunks]
    sample = texts[:: max(1, len(texts) // args.chunks)][: args.chunks]
    tokens_sample = sum(len(enc.ids(t)) for t in sample)
    tokens_all = sum(len(enc.ids(t)) for t in texts)
    t0 = time.perf_counter()
    encode_all(sample, enc, workers=2)
    pool_s = time.perf_counter() - t0
    loaded, bare = rss_after_load()
    load_after = os.getloadavg()[0]
    floor = statistics.median(timings["bm25 search"])
    print(f"load average {load_before:.1f} → {load_after:.1f} on {os.cpu_count()} cores; {len(questions)} questions\n")
    print("| measure | median | p90 | vs bm25 search |")
    print("|---|---:|---:|---:|")
    for name, values in timings.items():
        med = statistics.median(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        print(f"| {name} | {med * 1000:.1f} ms | {p90 * 1000:.1f} ms | {med / floor:.0f}× |")
    print(f"| encode {len(sample)} recursive chunks ({tokens_sample} tokens), pool of 2 | {pool_s:.1f} s | | |")
    print(f"| → all {len(texts)} recursive chunks ({tokens_all} tokens), scaled by tokens | "
          f"{pool_s * tokens_all / tokens_sample:.0f} s | | |")
    print(f"| resident memory after loading the model | {loaded:.0f} MB (Python + tokenizer alone: {bare:.0f} MB) | | |")


if __name__ == "__main__":
    main()
