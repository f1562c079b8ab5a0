"""Timings of the browser app in Chromium: start-up, one answer, one Evaluate run.

What a person waits for, as a stand-alone report. The engine's speed inside Pyodide
(BM25 at 10,000 chunks, native next to browser) belongs to bench/browser.py, the
browser part of `build.py bench`.

Measured through the real page, served from dist/ on 127.0.0.1, in Debian's Chromium
driven by Playwright (the same set-up as the browser tests):

- ready: navigation start to `window.raglab.ready` (Python started, micropip and the
  raglab wheel installed, corpus parsed, default index built), in a fresh browser
  context each time (cold: no HTTP cache, no compiled-wasm cache), and once more as a
  reload in the same context (warm). The worker's stage times are printed too, and,
  for scale, Pyodide's own `loadPyodide()` in Node.js on the same files.
- answer: question typed and submitted to the answer rendered on the page (the
  `#result` element updated), for golden questions in both languages; median and p95.
  Also `raglab.ask()` alone (the worker round trip, no rendering).
- evaluate: the Evaluate tab's run, click to tables drawn, for the form's defaults
  (every chunker with BM25 and the served retriever) and for the CLI's full grid.

Targets from the issue on this machine: ready <= 3 s cold, answer <= 100 ms,
Evaluate <= 15 s. This is a report, not a test: it prints figures and exits 0.

    python3 build.py build && .venv/bin/python bench/browser_timings.py [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from raglab.corpus import load_corpus  # noqa: E402
from raglab.goldens import load_goldens  # noqa: E402
from quantile import percentile  # noqa: E402


def _build_module():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


READY = "() => window.raglab.ready.then(() => [performance.now(), window.raglab.timings])"

# Submit the question through the form and resolve when #result has been redrawn for it.
ASK_IN_PAGE = """async (question) => {
  const result = document.getElementById('result');
  const before = Number(result.dataset.seq || 0);
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (Number(result.dataset.seq || 0) > before) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(result, { attributes: true, attributeFilter: ['data-seq'] });
  });
  document.getElementById('question').value = question;
  const start = performance.now();
  document.getElementById('ask-form').requestSubmit();
  const end = await done;
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));  // until painted
  return [end - start, performance.now() - start, result.dataset.question === question];
}"""

API_ASK = """async (question) => {
  const start = performance.now();
  await window.raglab.ask(question, {});
  return performance.now() - start;
}"""

RUN_EVALUATE = """async () => {
  const box = document.getElementById('eval-result');
  const before = Number(box.dataset.seq || 0);
  const start = performance.now();
  document.getElementById('eval-run').click();
  await new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (Number(box.dataset.seq || 0) > before) { observer.disconnect(); resolve(); }
    });
    observer.observe(box, { attributes: true, attributeFilter: ['data-seq'] });
  });
  return [performance.now() - start, document.getElementById('eval-status').textContent,
          document.querySelectorAll('.chart .dot').length];
}"""


NODE_BASELINE = """
import { loadPyodide } from %s;
const start = performance.now();
await loadPyodide({ indexURL: %s });
console.log(JSON.stringify(performance.now() - start));
"""


def pyodide_alone_ms(dist: str) -> float | None:
    """loadPyodide() in Node.js on the same files: Pyodide's own start-up, nothing of ours."""
    import shutil
    import subprocess
    import tempfile

    node = shutil.which("node")
    if node is None:
        return None
    runtime = os.path.join(dist, "pyodide")
    code = NODE_BASELINE % (json.dumps(os.path.join(runtime, "pyodide.mjs")), json.dumps(runtime + os.sep))
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "baseline.mjs")
        with open(script, "w", encoding="utf-8") as fh:
            fh.write(code)
        done = subprocess.run([node, script], capture_output=True, text=True, timeout=300)
    return float(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold start-ups to time (default 3)")
    parser.add_argument("--questions", type=int, default=40, help="golden questions to time, both languages (default 40)")
    parser.add_argument("--skip-full-grid", action="store_true", help="skip the full-grid Evaluate run (minutes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--semantic-only", action="store_true",
                        help="time only the semantic model (bench/semantic_browser.py), with native figures")
    args = parser.parse_args()

    build = _build_module()
    dist = build.build_site()
    server, url = build.serve_in_background(dist)
    from playwright.sync_api import sync_playwright

    docs = load_corpus(os.path.join(ROOT, "corpus"))
    golden = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    en = [q.question for q in golden if q.lang == "en"]
    bn = [q.question for q in golden if q.lang == "bn"]
    half = max(1, args.questions // 2)
    sample = [q for pair in zip(en[:half], bn[:half]) for q in pair]

    figures: dict = {"machine": {"cpus": os.cpu_count(), "load_average": list(os.getloadavg()),
                                 "python": platform.python_version()}}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**build.browser_launch_options())
        figures["machine"]["chromium"] = browser.version
        if args.semantic_only:
            from semantic_browser import print_figures, semantic_figures

            figures["semantic"] = semantic_figures(browser, url, dist, sample)
            browser.close()
            server.shutdown()
            if args.json:
                print(json.dumps(figures, indent=1, ensure_ascii=False))
            else:
                print(f"Chromium {browser.version}, load average {figures['machine']['load_average'][0]:.2f} at the start")
                print_figures(figures["semantic"])
            return 0
        cold, stages = [], []
        for _ in range(args.runs):
            context = browser.new_context(viewport={"width": 1100, "height": 1400})
            page = context.new_page()
            page.goto(url)
            ready_ms, timings = page.evaluate(READY)
            cold.append(ready_ms)
            stages.append(timings["stages"])
            context.close()
        context = browser.new_context(viewport={"width": 1100, "height": 1400})
        page = context.new_page()
        page.goto(url)
        page.evaluate(READY)
        page.reload()
        warm_ms, _ = page.evaluate(READY)
        figures["ready_ms"] = {"cold": [round(x) for x in cold], "cold_median": round(statistics.median(cold)),
                               "warm_reload": round(warm_ms)}
        figures["stages_ms"] = {k: round(statistics.median(s[k] for s in stages)) for k in stages[0]}
        alone = pyodide_alone_ms(dist)
        figures["pyodide_alone_in_node_ms"] = None if alone is None else round(alone)

        page.evaluate(API_ASK, sample[0])  # the first call pays for nothing else
        rendered, painted, api = [], [], []
        for question in sample:
            took, paint, ok = page.evaluate(ASK_IN_PAGE, question)
            if not ok:
                raise SystemExit(f"the page did not show the answer for {question!r}")
            rendered.append(took)
            painted.append(paint)
            api.append(page.evaluate(API_ASK, question))
        figures["answer_ms"] = {
            "n": len(sample), "rendered_median": round(statistics.median(rendered), 1),
            "rendered_p95": round(percentile(rendered, 95), 1),
            "painted_median": round(statistics.median(painted), 1),
            "api_median": round(statistics.median(api), 1), "api_p95": round(percentile(api, 95), 1),
        }

        page.click("#tab-evaluate")
        runs = {}
        ms, status, dots = page.evaluate(RUN_EVALUATE)
        runs["form defaults"] = {"ms": round(ms), "configurations": dots, "status": status}
        if not args.skip_full_grid:
            for box in page.query_selector_all("#eval-chunkers input, #eval-retrievers input"):
                box.set_checked(True)
            if page.is_enabled("#eval-expand"):
                page.select_option("#eval-expand", "both")
            ms, status, dots = page.evaluate(RUN_EVALUATE)
            runs["full grid, as `raglab compare`"] = {"ms": round(ms), "configurations": dots, "status": status}
        figures["evaluate"] = runs
        from semantic_browser import semantic_figures

        figures["semantic"] = semantic_figures(browser, url, dist, sample)
        browser.close()
    server.shutdown()

    if args.json:
        print(json.dumps(figures, indent=1, ensure_ascii=False))
        return 0
    m = figures["machine"]
    print(f"Chromium {m['chromium']}, {m['cpus']} CPUs, load average {m['load_average'][0]:.2f} at the start")
    r = figures["ready_ms"]
    print(f"ready (navigation to raglab.ready): cold median {r['cold_median']} ms (runs {r['cold']}), "
          f"warm reload {r['warm_reload']} ms   [target <= 3000 ms cold]")
    print("  worker stages, ms after the page script started (median): "
          + ", ".join(f"{k} {v}" for k, v in figures["stages_ms"].items()))
    if figures["pyodide_alone_in_node_ms"] is not None:
        print(f"  for scale: loadPyodide() alone in Node.js on the same files: {figures['pyodide_alone_in_node_ms']} ms")
    a = figures["answer_ms"]
    print(f"answer (submit to rendered), {a['n']} golden questions en+bn: median {a['rendered_median']} ms, "
          f"p95 {a['rendered_p95']} ms; painted median {a['painted_median']} ms; "
          f"raglab.ask() alone median {a['api_median']} ms   [target <= 100 ms]")
    for name, run in figures["evaluate"].items():
        print(f"evaluate ({name}): {run['ms'] / 1000:.1f} s for {run['configurations']} configurations   [target <= 15 s]")
    from semantic_browser import print_figures

    print_figures(figures["semantic"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
