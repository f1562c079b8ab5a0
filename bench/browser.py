"""The browser part of `build.py bench` (docs/benchmarks.md): the engine's speed in
Pyodide next to native, through Playwright and Debian's Chromium.

Split by purpose from bench/browser_timings.py, which times what a person waits for
in the app (start-up, an answer drawn on the page, an Evaluate run) and is a
stand-alone report; this module feeds the benchmark tables.

Two measurements:

1. BM25 inside Pyodide: a bench page on 127.0.0.1 starts a module Web Worker (as the
   app does), which loads the Pyodide runtime and raglab's wheel from dist/ and runs
   bench/inside.py: the 10,000-chunk synthetic corpus, index build, top 10 for 1,000
   queries. The same function runs natively in this process; the digests of the
   token lists and of every top 10 must be identical.
2. The app itself: dist/ served as `build.py serve` does, and `window.raglab.ask`
   timed from the page for every golden question (worker round trip, JSON included),
   with plain BM25 and with the served default configuration.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import tempfile

from quantile import percentile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SIZE, QUERIES, ROUNDS = 10_000, 1000, 3
TIMEOUT_S = 600

WORKER_JS = r"""
import { loadPyodide } from "./pyodide/pyodide.mjs";
self.onmessage = async (event) => {
  const job = event.data;
  try {
    const started = performance.now();
    const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
    const wheel = await (await fetch(job.wheel)).arrayBuffer();
    pyodide.unpackArchive(wheel, "wheel");
    pyodide.FS.mkdirTree("/bench");
    for (const name of ["synth.py", "inside.py"]) {
      pyodide.FS.writeFile("/bench/" + name, await (await fetch(name)).text());
    }
    const ready = performance.now();
    pyodide.globals.set("FILES_JSON", JSON.stringify(job.files));
    const out = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/bench")
import inside
json.dumps(inside.measure(json.loads(FILES_JSON), ${job.size}, ${job.queries}, ${job.rounds}))
`);
    self.postMessage({ ok: true, json: out, startup_ms: ready - started, run_ms: performance.now() - ready,
                       agent: navigator.userAgent });
  } catch (err) {
    self.postMessage({ ok: false, error: String(err && err.stack || err) });
  }
};
"""

RUN_IN_WORKER = """async (job) => {
  const worker = new Worker("bench-worker.mjs", { type: "module" });
  return await new Promise((resolve) => {
    worker.onmessage = (event) => { resolve(event.data); worker.terminate(); };
    worker.onerror = (event) => resolve({ ok: false, error: event.message || "the worker failed to load" });
    worker.postMessage(job);
  });
}"""

TIME_ASK = """async ([questions, config]) => {
  const times = [];
  for (const q of questions) {
    const start = performance.now();
    await window.raglab.ask(q, config);
    times.push(performance.now() - start);
  }
  return times;
}"""


class Unavailable(Exception):
    """Chromium, Playwright or the app build is missing."""


def _build_module():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus_files() -> dict[str, str]:
    from raglab.corpus.articles import read_corpus_files

    return read_corpus_files(os.path.join(ROOT, "corpus"))


def _bench_page(dist: str, workdir: str, csp: str) -> str:
    """A folder with the bench page and worker, dist/'s Pyodide and wheel, and the bench code."""
    with open(os.path.join(dist, "manifest.json"), encoding="utf-8") as fh:
        wheel = json.load(fh)["wheel"]
    os.symlink(os.path.join(dist, "pyodide"), os.path.join(workdir, "pyodide"))
    os.makedirs(os.path.join(workdir, os.path.dirname(wheel)), exist_ok=True)
    os.symlink(os.path.join(dist, wheel), os.path.join(workdir, wheel))
    for name in ("synth.py", "inside.py", "quantile.py"):
        shutil.copy(os.path.join(HERE, name), os.path.join(workdir, name))
    with open(os.path.join(workdir, "bench-worker.mjs"), "w", encoding="utf-8") as fh:
        fh.write(WORKER_JS)
    with open(os.path.join(workdir, "index.html"), "w", encoding="utf-8") as fh:
        fh.write("<!doctype html><meta charset=utf-8>"
                 f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
                 "<title>raglab BM25 bench</title><p>bench page</p>\n")
    return wheel


def run(required: bool, log) -> dict:
    """Browser figures, or {"status": "skipped", "reason": ...} when the browser is unavailable."""
    try:
        return _run(log)
    except Unavailable as err:
        if required:
            raise SystemExit(f"bench: error: {err}")
        log(f"browser part skipped: {err}")
        return {"status": "skipped", "reason": str(err)}


def _run(log) -> dict:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise Unavailable("Python Playwright is not installed (run `python3 build.py setup`)") from None
    build = _build_module()
    try:
        build.setup_node()
        dist = build.build_site()
    except Exception as err:  # noqa: BLE001 - any build failure means: no browser figures
        raise Unavailable(f"the browser app did not build ({str(err).splitlines()[0]})") from None
    import inside

    log("browser: native run of the same measurement, for the digests")
    native = inside.measure(_corpus_files(), SIZE, QUERIES, ROUNDS)
    options = build.browser_launch_options()
    with tempfile.TemporaryDirectory(prefix="raglab-bench-") as workdir, sync_playwright() as pw:
        _bench_page(dist, workdir, build.site_csp(dist))
        server, url = build.serve_in_background(workdir)
        try:
            try:
                chromium = pw.chromium.launch(**options)
            except Exception as err:  # noqa: BLE001
                raise Unavailable(f"Chromium did not start ({str(err).splitlines()[0]}); "
                                  "run `python3 build.py setup`") from None
            try:
                page = chromium.new_page()
                page.set_default_timeout(TIMEOUT_S * 1000)
                page.goto(url)
                log(f"browser: BM25 at {SIZE:,} chunks inside Pyodide (a minute or two)")
                job = {"wheel": json.load(open(os.path.join(dist, "manifest.json"), encoding="utf-8"))["wheel"],
                       "files": _corpus_files(), "size": SIZE, "queries": QUERIES, "rounds": ROUNDS}
                out = page.evaluate(RUN_IN_WORKER, job)
                if not out.get("ok"):
                    raise RuntimeError(f"the Pyodide bench failed: {out.get('error')}")
                wasm = json.loads(out["json"])
                version = chromium.version
                app = _app_timings(build, dist, chromium, log)
            finally:
                chromium.close()
        finally:
            server.shutdown()
            server.server_close()
    same_terms = wasm["terms_digest"] == native["terms_digest"]
    same_top = wasm["top10_digest"] == native["top10_digest"]
    rows = [
        ("browser", f"Chromium {version} (headless), Pyodide with CPython {wasm['python']} ({wasm['platform']})"),
        ("Pyodide start + raglab wheel (in the bench worker)", f"{out['startup_ms'] / 1000:.2f} s"),
        ("synthetic corpus generation inside Pyodide", f"{wasm['generate_s']:.2f} s (native {native['generate_s']:.2f} s)"),
        (f"BM25 index build, {SIZE:,} chunks", f"{wasm['build_s']:.3f} s (native {native['build_s']:.3f} s)"),
        (f"top-10 query, mean over {wasm['queries']:,} queries",
         f"**{wasm['mean_ms']:.2f} ms** (native {native['mean_ms']:.2f} ms, {wasm['mean_ms'] / native['mean_ms']:.1f}× slower)"),
        ("top-10 query p50 / p99 / max", f"{wasm['p50_ms']:.2f} / {wasm['p99_ms']:.2f} / {wasm['max_ms']:.2f} ms "
         f"(native {native['p50_ms']:.2f} / {native['p99_ms']:.2f} / {native['max_ms']:.2f} ms)"),
        (f"exhaustive scores + top_n, mean over {wasm['exhaustive_queries']} queries",
         f"{wasm['exhaustive_mean_ms']:.2f} ms (native {native['exhaustive_mean_ms']:.2f} ms)"),
        ("token lists identical to native (digest)", f"{'yes' if same_terms else 'NO'} ({wasm['terms_digest']})"),
        ("every top 10 (ids and scores) identical to native (digest)", f"{'yes' if same_top else 'NO'} ({wasm['top10_digest']})"),
    ]
    for label, t in app.items():
        rows.append((f"app: `window.raglab.ask` per golden question, {label}",
                     f"{t['mean_ms']:.1f} ms mean, {t['p50_ms']:.1f} ms p50, {t['p99_ms']:.1f} ms p99 ({t['questions']} questions, "
                     f"whole set {t['total_s']:.2f} s)"))
    description = (
        f"A bench page on 127.0.0.1 starts a module Web Worker that loads Pyodide and raglab's wheel from "
        f"dist/ and runs bench/inside.py: the synthetic corpus of {SIZE:,} chunks (generated inside Pyodide "
        f"from the bundled articles), the BM25 index, and the top 10 for {QUERIES:,} queries, fastest of "
        f"{ROUNDS} rounds, timed with `time.perf_counter` inside Python (the browser coarsens that clock "
        "to 0.1 ms, so the mean comes from the whole loop). The same function ran natively in the "
        "benchmark process for the comparison. The app rows time `window.raglab.ask` from the page "
        "(worker round trip and JSON included) in the real app built by `python3 build.py build`.")
    return {"status": "ok", "chunks": SIZE, "mean_ms": wasm["mean_ms"], "p99_ms": wasm["p99_ms"],
            "native_mean_ms": native["mean_ms"], "identical": same_terms and same_top,
            "wasm": wasm, "native": native, "app": app, "rows": rows, "description": description}


def _app_timings(build, dist: str, chromium, log) -> dict:
    """Per-question latency of the real app's window.raglab.ask for the golden questions."""
    from raglab.corpus.articles import load_corpus
    from raglab.corpus.goldens import load_goldens

    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [g.question for g in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)]
    server, url = build.serve_in_background(dist)
    try:
        page = chromium.new_page()
        page.set_default_timeout(TIMEOUT_S * 1000)
        page.goto(url)
        page.wait_for_function("() => window.raglab && window.raglab.state !== 'starting'")
        state = page.evaluate("() => window.raglab.state")
        if state != "ready":
            raise RuntimeError(f"the app did not start: {page.evaluate('() => window.raglab.failure')}")
        out = {}
        for label, config in (("plain BM25 (no expansion)", {"retriever": "bm25", "expand": False}),
                              ("served default configuration", {})):
            log(f"browser: app ask(), {label}")
            page.evaluate(TIME_ASK, [questions[:5], config])  # warm the index for this config
            times = page.evaluate(TIME_ASK, [questions, config])
            total = 0.0
            for t in times:
                total += t
            out[label] = {"questions": len(times), "mean_ms": total / len(times), "p50_ms": percentile(times, 50),
                          "p99_ms": percentile(times, 99), "total_s": total / 1000}
        page.close()
        return out
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":  # pragma: no cover
    print(json.dumps(run(required=True, log=lambda m: print(m, flush=True)), indent=1, default=str))
