"""Benchmark raglab's BM25 against rank_bm25 and bm25s, and time the whole pipeline.

    python3 build.py bench                  # everything; writes docs/benchmarks.md
    .venv/bin/python bench/run.py --help    # the same, with options

For each corpus (the bundled help centre, and synthetic corpora of 10,000 and
100,000 chunks made from it by bench/synth.py) and each library: index build time,
queries per second for the top 10, peak memory, and correctness: raglab's pruned
top 10 against its own exhaustive ranking, its scores against bm25s "lucene" scores
times (k1 + 1) for every chunk, and the top 10 against bm25s under the tie rule.
Then the pipeline on the bundled corpus (index build per chunker, `ask` latency over
the golden set) and, when Chromium and the browser app are available, the same BM25
inside Pyodide (bench/browser.py). Results go to docs/benchmarks.md (and --json).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(ROOT, "py"))  # raglab from this checkout, installed or not

import measure  # noqa: E402
import peers  # noqa: E402
import report  # noqa: E402
import synth  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.chunking import (  # noqa: E402
    CHUNKERS,
    chunk_corpus,
    index_text,  # noqa: E402
)
from raglab.retrieval.bm25 import BM25  # noqa: E402
from raglab.retrieval.ranking import top_n  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402


def require_peers() -> None:
    """Exit with a clear message when the peer libraries are missing."""
    try:
        import bm25s  # noqa: F401
        import numpy  # noqa: F401
        import rank_bm25  # noqa: F401
    except ImportError as err:
        print(f"bench: error: {err.name} is not installed; run `python3 build.py bench` "
              "(it sets up .venv with the test extras) or use .venv/bin/python", file=sys.stderr)
        sys.exit(2)

SEED_CORPUS, SEED_QUERIES = 8, 80
# rank_bm25 and the exhaustive path are slow on big corpora: above this many chunks
# they answer only the first `--slow-queries` queries, and the speed-ups against them
# are taken over those same queries.
SLOW_ABOVE = 5_000


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def machine() -> dict:
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem_gb = None
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("MemTotal:"):
                    mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    from importlib.metadata import version

    import bm25s
    import numpy as np

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "bm25s": bm25s.__version__,
        "rank_bm25": version("rank-bm25"),
        "load_before": [round(x, 2) for x in os.getloadavg()],
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def corpus_stats(terms: list[list[str]]) -> dict:
    index = BM25(terms)
    postings = 0
    for n in index.df.values():
        postings += n
    lengths = 0
    for t in terms:
        lengths += len(t)
    return {"chunks": len(terms), "vocabulary": len(index.df), "postings": postings,
            "terms_per_chunk": round(lengths / len(terms), 1)}


def bench_corpus(name: str, terms: list[list[str]], queries: list[list[str]], args) -> dict:
    """Build, query, memory and correctness figures for one corpus."""
    log(f"{name}: {len(terms)} chunks, {len(queries)} queries")
    result = {"name": name, "stats": corpus_stats(terms), "queries": len(queries)}
    slow_n = min(len(queries), args.slow_queries) if len(terms) > SLOW_ABOVE else len(queries)
    result["slow_queries"] = slow_n
    query_sets = {
        "raglab": queries, "raglab-exhaustive": queries[:slow_n], "bm25s": queries,
        "bm25s-core": queries, "rank_bm25": queries[:slow_n],
    }
    builders = {"raglab": "raglab", "raglab-exhaustive": "raglab", "bm25s": "bm25s",
                "bm25s-core": "bm25s", "rank_bm25": "rank_bm25"}

    rounds = args.rounds if len(terms) <= SLOW_ABOVE else min(args.rounds, 2)
    result["rounds"] = rounds
    # Build time: libraries take turns, the fastest of the rounds counts.
    builds: dict[str, list[float]] = {k: [] for k in ("raglab", "bm25s", "rank_bm25")}
    indexes = {}
    for r in range(rounds):
        for key in builds:
            indexes.pop(key, None)
            gc.collect()
            seconds, indexes[key] = measure.time_build(lambda: peers.LIBRARIES[key].build(terms))
            builds[key].append(seconds)
    result["build_s"] = {k: min(v) for k, v in builds.items()}
    log(f"{name}: build " + ", ".join(f"{k} {v:.2f}s" for k, v in result["build_s"].items()))

    # Query speed: top 10, one call per query, libraries taking turns each round.
    runs: dict[str, list[measure.QueryTiming]] = {k: [] for k in query_sets}
    for r in range(rounds):
        for key, qs in query_sets.items():
            lib = peers.LIBRARIES[key]
            index = indexes[builders[key]]
            runs[key].append(measure.time_queries(lambda q: lib.top10(index, q), qs))
    timing = {k: measure.best(v) for k, v in runs.items()}
    result["query"] = {
        k: {"queries": len(t.latencies), "qps": t.qps, "mean_ms": t.mean_ms,
            "p50_ms": t.percentile_ms(50), "p99_ms": t.percentile_ms(99),
            "raglab_mean_ms_same_queries": timing["raglab"].mean_ms_of(range(len(t.latencies)))}
        for k, t in timing.items()
    }
    log(f"{name}: mean ms " + ", ".join(f"{k} {v['mean_ms']:.3f}" for k, v in result["query"].items()))

    answers = {k: t.answers for k, t in timing.items()}
    result["correctness"] = correctness(indexes, queries, answers)
    log(f"{name}: correctness {result['correctness']}")

    # Memory, one library at a time, with the others' indexes freed.
    indexes.clear()
    gc.collect()
    sample = queries[:min(50, slow_n)]
    result["memory_mb"] = {}
    for key in ("raglab", "bm25s", "rank_bm25"):
        lib = peers.LIBRARIES[key]
        mem = measure.measure_memory(lambda: lib.build(terms), lib.top10, sample)
        result["memory_mb"][key] = {"index": mem.index_mb, "build_peak": mem.peak_mb, "query_peak": mem.query_peak_mb}
    log(f"{name}: memory " + ", ".join(f"{k} {v['index']:.1f} MB" for k, v in result["memory_mb"].items()))
    return result


def correctness(indexes: dict, queries: list[list[str]], answers: dict[str, list[list[int]]]) -> dict:
    """Checks on every query; `answers` are the top 10s each library returned while timed."""
    import numpy as np

    ours, peer = indexes["raglab"], indexes["bm25s"]
    n_docs = ours.n_docs
    slow_n = len(answers["rank_bm25"])
    same_as_exhaustive = same_as_bm25s = same_as_bm25s_raw = 0
    max_abs_diff = 0.0
    overlap_rank = 0
    for number, q in enumerate(queries):
        every = ours.scores(q)
        exhaustive_hits = top_n(every, 10)
        exhaustive = [h.index for h in exhaustive_hits]
        # ids, order and scores; the timed run's ids must agree too
        same_as_exhaustive += (top_n(ours.top_scores(q, 10), 10) == exhaustive_hits
                               and answers["raglab"][number] == exhaustive)
        known = [t for t in q if t in peer.vocab_dict]
        theirs = peer.get_scores(known) if known else np.zeros(n_docs)
        mine = np.zeros(n_docs)
        if every:
            mine[np.fromiter(every.keys(), dtype=np.int64)] = np.fromiter(every.values(), dtype=np.float64)
        diff = float(np.max(np.abs(mine - theirs * (peers.K1 + 1))))
        max_abs_diff = max(max_abs_diff, diff)
        same_as_bm25s += peers.peer_ranking(theirs) == exhaustive
        same_as_bm25s_raw += answers["bm25s"][number][:len(exhaustive)] == exhaustive
        if number < slow_n:
            overlap_rank += len(set(answers["rank_bm25"][number][:len(exhaustive)]) & set(exhaustive))
    n = len(queries)
    return {"queries": n, "pruned_equals_exhaustive": same_as_exhaustive,
            "top10_equals_bm25s_tie_rule": same_as_bm25s, "top10_equals_bm25s_retrieve_as_returned": same_as_bm25s_raw,
            "max_abs_score_diff_vs_bm25s_x_k1p1": max_abs_diff,
            "rank_bm25_top10_overlap": overlap_rank / (10 * slow_n) if slow_n else 0.0, "rank_bm25_queries": slow_n}


def bench_pipeline(docs, args) -> dict:
    """Index build per chunker and `ask` latency over the golden set (bundled corpus)."""
    from raglab.corpus.goldens import load_goldens
    from raglab.pipeline import Config, Pipeline
    from raglab.retrieval.registry import RETRIEVERS

    goldens = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    questions = [g.question for g in goldens]
    # The served default under each chunker, every other retriever under the default
    # chunker, and plain BM25 without query expansion (the lexical baseline).
    configs = [Config(chunker=c) for c in CHUNKERS]
    configs += [Config(retriever=r) for r in RETRIEVERS if r != Config().retriever]
    configs += [Config(retriever="bm25", expand=False)]
    rounds = 1 if args.rounds < 3 else 2
    rows = []
    for config in configs:
        row = {"chunker": config.chunker, "retriever": config.retriever, "expand": config.expand}
        try:
            builds, pipe = [], None
            for _ in range(rounds):
                pipe = None
                gc.collect()
                seconds, pipe = measure.time_build(lambda: Pipeline(docs, config))
                builds.append(seconds)
            runs = [measure.time_queries(pipe.ask, questions) for _ in range(rounds)]
            t = measure.best(runs)
            row.update({"chunks": len(pipe.chunks), "build_s": min(builds), "questions": len(questions),
                        "golden_set_s": t.total, "mean_ms": t.mean_ms, "p50_ms": t.percentile_ms(50),
                        "p99_ms": t.percentile_ms(99), "max_ms": 1000 * max(t.latencies)})
        except Exception as err:  # another retriever's failure must not hide the rest
            row["error"] = f"{type(err).__name__}: {err}"
        rows.append(row)
        log(f"pipeline {config.label}: {row}")
    return {"questions": len(questions), "rows": rows}


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="bench/run.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000,100000",
                   help="synthetic corpus sizes in chunks, comma-separated (default 10000,100000); "
                        "the bundled corpus is always measured")
    p.add_argument("--queries", type=int, default=1000, help="synthetic queries per corpus (default 1000)")
    p.add_argument("--slow-queries", type=int, default=100,
                   help=f"queries for rank_bm25 and the exhaustive path above {SLOW_ABOVE:,} chunks (default 100)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per timing; the fastest counts (default 3)")
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks.md"),
                   help="markdown report to write (default docs/benchmarks.md); '-' for none")
    p.add_argument("--json", metavar="FILE", help="also write the raw figures as JSON to FILE ('-' for stdout)")
    p.add_argument("--browser", choices=("auto", "yes", "no"), default="auto",
                   help="time BM25 inside Pyodide through Playwright: auto = when Chromium and the app "
                        "build are available (default), yes = fail if they are not, no = skip")
    p.add_argument("--no-pipeline", action="store_true", help="skip the pipeline figures")
    args = p.parse_args(argv)
    try:
        args.size_list = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        p.error(f"--sizes takes whole numbers separated by commas, got {args.sizes!r}")
    if any(s < 10 for s in args.size_list) or args.queries < 1 or args.rounds < 1 or args.slow_queries < 1:
        p.error("--sizes must be >= 10 chunks each; --queries, --slow-queries and --rounds >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    require_peers()
    started = time.perf_counter()
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    results = {"machine": machine(), "settings": {
        "queries": args.queries, "rounds": args.rounds, "slow_queries": args.slow_queries,
        "slow_above": SLOW_ABOVE, "seed_corpus": SEED_CORPUS, "seed_queries": SEED_QUERIES,
        "k1": peers.K1, "b": peers.B}}
    queries = synth.queries(docs, args.queries, seed=SEED_QUERIES)
    corpora = []
    bundled = [analyze(index_text(c)) for c in chunk_corpus(docs, "recursive")]
    corpora.append(bench_corpus("bundled (recursive chunks)", bundled, queries, args))
    for size in args.size_list:
        start = time.perf_counter()
        scaled = synth.scaled_corpus(docs, size, seed=SEED_CORPUS)
        synth.check_tokens(scaled)
        log(f"synthetic corpus of {size} chunks in {time.perf_counter() - start:.1f}s")
        corpora.append(bench_corpus(f"synthetic {size:,} chunks", scaled.terms, queries, args))
        del scaled
        gc.collect()
    results["corpora"] = corpora
    if not args.no_pipeline:
        results["pipeline"] = bench_pipeline(docs, args)
    if args.browser != "no":
        import browser

        results["browser"] = browser.run(required=args.browser == "yes", log=log)
    results["machine"]["load_after"] = [round(x, 2) for x in os.getloadavg()]
    results["seconds"] = time.perf_counter() - started
    if args.json:
        report.write_json(args.json, results, ensure_ascii=False, sort_keys=True)
    if args.out != "-":
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        kept = ""
        if os.path.exists(args.out):  # the encoder's section (bench/encoder_speed.py --write) stays
            with open(args.out, encoding="utf-8") as fh:
                kept = report.kept_block(fh.read())
        text = report.keep_sections(report.markdown(results, kept), args.out)  # and e.g. bench/cluster.py's
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
        log(f"wrote {os.path.relpath(args.out, ROOT)} in {results['seconds']:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
