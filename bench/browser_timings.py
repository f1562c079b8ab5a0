"""Timings of the browser app in Chromium: start-up, one answer, one Evaluate run.

What a person waits for, as a stand-alone report. The engine's speed inside Pyodide
(BM25 at 10,000 chunks, native next to browser) belongs to bench/browser.py, the
browser part of `build.py bench`.

Measured through the real page, served from dist/ on 127.0.0.1, in Debian's Chromium
driven by Playwright (the same set-up as the browser tests):

- ready: navigation start to `window.raglab.ready` (Python started, the raglab wheel
  installed, corpus parsed, default index built), in a fresh browser context each
  time (cold: no HTTP cache, no compiled-wasm cache), and as a reload in the same
  context (warm). The floor it is held against is a bare start measured the same
  way in the same browser and the same run: a page on the same server whose module
  worker calls `loadPyodide()` on dist/'s runtime and nothing else. App and bare
  start alternate within each round (the order flips every round), and the figure
  of merit is ready / bare, cold and warm. The worker's stage times are printed too.
- answer: question typed and submitted to the answer rendered on the page (the
  `#result` element updated), for golden questions in both languages; median and p95.
  Also `raglab.ask()` alone (the worker round trip, no rendering).
- evaluate: the Evaluate tab's run, click to tables drawn, for the form's defaults
  (every chunker with BM25 and the served retriever) and for the CLI's full grid.

With a semantic served default the page is ready before any index is built; the cold
start-ups also wait until the served default can answer (model in, its index built: the
worker reports that index's time) and print when that was.

Targets: ready <= 1.10 x the bare start (cold and warm), answer <= 80 ms with the
served default, the default evaluation <= 20 s. This is a report, not a test: it prints
figures and exits 0.

    python3 build.py build && .venv/bin/python bench/browser_timings.py [--runs 5] [--startup-only] [--json]
    .venv/bin/python bench/browser_timings.py --evaluate-only --runs 3   # the default evaluation, fresh pages
    .venv/bin/python bench/browser_timings.py --answers-only             # submit to answer, served default
    .venv/bin/python bench/browser_timings.py --answers-only --against DIR   # the same, paired with another build
    .venv/bin/python bench/browser_timings.py --startup-only --against DIR   # start-ups, with another build's in each round
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from page_probes import ASK_IN_PAGE  # noqa: E402
from quantile import percentile  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from semantic_browser import TIME_DIGESTS  # noqa: E402


def _build_module():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


READY = "() => window.raglab.ready.then(() => [performance.now(), window.raglab.timings])"
# After ready: the semantic model loads and the served default's index is built (worker.js
# posts its time); resolves to the page's timings once the served default can answer.
SERVED = """() => new Promise((resolve) => {
  const check = () => (window.raglab.timings.defaultIndexAt ? resolve(window.raglab.timings) : setTimeout(check, 20));
  check();
})"""

# Submit the question through the form and resolve when #result has been redrawn for it.
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


# The floor: a page whose worker starts Pyodide from the same files and does nothing else.
BARE_HTML = """<!doctype html><meta charset=utf-8>
<meta http-equiv="Content-Security-Policy" content="%s">
<title>bare Pyodide start</title><script type="module" src="bare.js"></script>
"""
BARE_JS = """window.bare = new Promise((resolve, reject) => {
  const worker = new Worker("bare-worker.mjs", { type: "module" });
  worker.onmessage = (event) => (event.data.ok ? resolve(performance.now()) : reject(new Error(event.data.error)));
  worker.onerror = (event) => reject(new Error(event.message || "the bare worker did not load"));
});
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
try {
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  pyodide.runPython("1");
  self.postMessage({ ok: true });
} catch (err) {
  self.postMessage({ ok: false, error: String(err) });
}
"""
BARE_READY = "() => window.bare"


def bench_root(dist: str, workdir: str, csp: str) -> str:
    """A folder serving dist/ as it is (symlinks) plus the bare-start page next to it."""
    for name in os.listdir(dist):
        os.symlink(os.path.join(dist, name), os.path.join(workdir, name))
    for name, text in (("bare.html", BARE_HTML % csp), ("bare.js", BARE_JS), ("bare-worker.mjs", BARE_WORKER)):
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as fh:
            fh.write(text)
    return workdir


def time_start(browser, url: str, script: str) -> tuple[float, float, dict | None]:
    """(cold ms, warm ms, app timings or None): a fresh context, then a reload in it. For the
    app, the cold run also waits until the served default can answer (model and index in)."""
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    try:
        page = context.new_page()
        page.goto(url)
        got = page.evaluate(script)
        cold, timings = (got, None) if isinstance(got, (int, float)) else got
        if timings is not None:
            timings = page.evaluate(SERVED)
        page.reload()
        got = page.evaluate(script)
        warm = got if isinstance(got, (int, float)) else got[0]
        return cold, warm, timings
    finally:
        context.close()


def startup(browser, url: str, runs: int, other_url: str | None = None) -> dict:
    """App ready and bare start, alternating within each round; medians and ratios. With
    `other_url` (another build), its app start-up joins every round too (the three take turns
    going first) and "other" holds its figures, paired with the bare start of the same round."""
    app_cold, app_warm, bare_cold, bare_warm, stages = [], [], [], [], []
    other_cold, other_warm, other_stages = [], [], []
    kinds = ("app", "bare") if other_url is None else ("app", "other", "bare")
    for i in range(runs):
        order = kinds[i % len(kinds):] + kinds[:i % len(kinds)]
        if i % 2 and other_url is None:
            order = order[::-1]
        for which in order:
            if which in ("app", "other"):
                cold, warm, timings = time_start(browser, url if which == "app" else other_url, READY)
                (app_cold if which == "app" else other_cold).append(cold)
                (app_warm if which == "app" else other_warm).append(warm)
                (stages if which == "app" else other_stages).append(stage_times(timings))
            else:
                cold, warm, _ = time_start(browser, url + "bare.html", BARE_READY)
                bare_cold.append(cold)
                bare_warm.append(warm)
    figures = start_figures(app_cold, app_warm, bare_cold, bare_warm, stages)
    figures["runs"] = runs
    if other_url is not None:
        figures["other"] = start_figures(other_cold, other_warm, bare_cold, bare_warm, other_stages)
        figures["this_over_other_cold_paired"] = round(statistics.median(
            [a / b for a, b in zip(app_cold, other_cold)]), 3)
        figures["this_over_other_warm_paired"] = round(statistics.median(
            [a / b for a, b in zip(app_warm, other_warm)]), 3)
    return figures


def stage_times(timings: dict) -> dict:
    return {**timings["stages"], "ready": timings["ready"],
            # (the model usually loads after ready: a run without it counts no 0)
            **({"semantic ready": timings["semanticReady"]} if "semanticReady" in timings else {}),
            "served default answers": timings["defaultIndexAt"],
            "(its index build)": timings["defaultIndex"]}


def start_figures(app_cold, app_warm, bare_cold, bare_warm, stages) -> dict:
    med = statistics.median
    return {
        "app_cold": [round(x) for x in app_cold], "app_warm": [round(x) for x in app_warm],
        "bare_cold": [round(x) for x in bare_cold], "bare_warm": [round(x) for x in bare_warm],
        "app_cold_median": round(med(app_cold)), "app_warm_median": round(med(app_warm)),
        "bare_cold_median": round(med(bare_cold)), "bare_warm_median": round(med(bare_warm)),
        # The ratio of medians, and the median of the per-round ratios (robust to a noisy round).
        "ratio_cold": round(med(app_cold) / med(bare_cold), 3),
        "ratio_warm": round(med(app_warm) / med(bare_warm), 3),
        "ratio_cold_paired": round(med([a / b for a, b in zip(app_cold, bare_cold)]), 3),
        "ratio_warm_paired": round(med([a / b for a, b in zip(app_warm, bare_warm)]), 3),
        "stages_ms": {k: round(med([s[k] for s in stages if k in s])) for k in dict.fromkeys(k for s in stages for k in s)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds of app and bare start-ups, cold and warm (default 5)")
    parser.add_argument("--questions", type=int, default=40, help="golden questions to time, both languages (default 40)")
    parser.add_argument("--startup-only", action="store_true", help="time the start-ups only (no answers, no Evaluate)")
    parser.add_argument("--skip-full-grid", action="store_true", help="skip the full-grid Evaluate run (minutes)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--answers-only", action="store_true",
                        help="time only answers with the served (semantic) default: submit to rendered, and the "
                             "worker round trip, for --questions golden questions asked for the first time")
    parser.add_argument("--against", metavar="DIR",
                        help="with --answers-only or --startup-only: also time the built site in DIR (dist/ of "
                             "another build, copied aside), alternating with this one (question by question, or "
                             "within each round of start-ups), and print the paired ratio this ÷ DIR")
    parser.add_argument("--evaluate-only", action="store_true",
                        help="time only the Evaluate tab's default run, --runs times, each in a fresh browser context "
                             "(the evaluation's vectors fetched each time), after the semantic model is in")
    parser.add_argument("--semantic-only", action="store_true",
                        help="time only the semantic model (bench/semantic_browser.py), with native figures")
    args = parser.parse_args()

    build = _build_module()
    dist = build.build_site()
    from playwright.sync_api import sync_playwright

    docs = load_corpus(os.path.join(ROOT, "corpus"))
    golden = load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs)
    en = [q.question for q in golden if q.lang == "en"]
    bn = [q.question for q in golden if q.lang == "bn"]
    half = max(1, args.questions // 2)
    sample = [q for pair in zip(en[:half], bn[:half]) for q in pair]

    figures: dict = {"machine": {"cpus": os.cpu_count(), "load_average": list(os.getloadavg()),
                                 "python": platform.python_version()}}
    with tempfile.TemporaryDirectory(prefix="raglab-timings-") as workdir, sync_playwright() as pw:
        server, url = build.serve_in_background(bench_root(dist, workdir, build.site_csp(dist)))
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
        if args.answers_only and args.against:
            other_server, other_url = build.serve_in_background(args.against)
            figures["paired"] = answers_paired(browser, url, other_url, sample)
            browser.close()
            server.shutdown()
            other_server.shutdown()
            p = figures["paired"]
            print(f"Chromium {browser.version}, load average {figures['machine']['load_average'][0]:.2f} at the start, "
                  f"{os.getloadavg()[0]:.2f} at the end")
            print(f"submit to rendered, {p['n']} golden questions en+bn each asked for the first time in both, "
                  f"alternating: this build median {p['this_median']} ms (p95 {p['this_p95']}), {args.against} "
                  f"median {p['other_median']} ms (p95 {p['other_p95']}); per question this ÷ that, median "
                  f"{p['ratio_median']}   [target <= 80 ms]")
            return 0
        if args.answers_only:
            context = browser.new_context(viewport={"width": 1100, "height": 1400})
            page = context.new_page()
            page.goto(url)
            page.evaluate("() => window.raglab.ready.then(() => window.raglab.semanticReady())")
            page.evaluate(SERVED)
            figures.update(answers_and_evaluate(page, sample, True, evaluate=False))
            # what the question's vector alone costs in the page (tokenizer in Python + the wasm kernel)
            encode = [page.evaluate(TIME_DIGESTS, ["query: " + q]) for q in sample]
            figures["answer_ms"]["encode_median"] = round(statistics.median(encode), 1)
            context.close()
            browser.close()
            server.shutdown()
            a = figures["answer_ms"]
            print(f"Chromium {browser.version}, load average {figures['machine']['load_average'][0]:.2f} at the start, "
                  f"{os.getloadavg()[0]:.2f} at the end")
            print(f"answer with the served default (submit to rendered), {a['n']} golden questions en+bn, each asked "
                  f"for the first time: median {a['rendered_median']} ms, p95 {a['rendered_p95']} ms; painted median "
                  f"{a['painted_median']} ms; raglab.ask() again (vector known) median {a['api_median']} ms; "
                  f"the question's vector alone median {a['encode_median']} ms   [target <= 80 ms]")
            return 0
        if args.evaluate_only:
            figures["evaluate_default"] = evaluate_default(browser, url, args.runs)
            browser.close()
            server.shutdown()
            figures["machine"]["load_average_after"] = list(os.getloadavg())
            if args.json:
                print(json.dumps(figures, indent=1, ensure_ascii=False))
            else:
                e = figures["evaluate_default"]
                print(f"Chromium {browser.version}, load average {figures['machine']['load_average'][0]:.2f} at the start, "
                      f"{figures['machine']['load_average_after'][0]:.2f} at the end")
                print(f"evaluate (form defaults, {e['configurations']} configurations), {e['runs']} fresh pages: "
                      f"median {e['median_ms'] / 1000:.1f} s (runs {[round(x / 1000, 1) for x in e['ms']]})   [target <= 20 s]")
                print(f"  status at the end: {e['status']}")
            return 0
        other = None
        if args.against:
            if not args.startup_only:
                raise SystemExit("--against needs --answers-only or --startup-only")
            other_server, other_url = build.serve_in_background(args.against)
            other = (other_server, other_url)
        figures["startup"] = startup(browser, url, args.runs, other[1] if other else None)
        if other:
            other[0].shutdown()
        figures["machine"]["load_average_after_startup"] = list(os.getloadavg())
        if not args.startup_only:
            context = browser.new_context(viewport={"width": 1100, "height": 1400})
            page = context.new_page()
            page.goto(url)
            page.evaluate(READY)
            figures.update(answers_and_evaluate(page, sample, args.skip_full_grid))
            from semantic_browser import semantic_figures

            figures["semantic"] = semantic_figures(browser, url, dist, sample)
        browser.close()
        server.shutdown()

    if args.json:
        print(json.dumps(figures, indent=1, ensure_ascii=False))
        return 0
    m = figures["machine"]
    print(f"Chromium {m['chromium']}, {m['cpus']} CPUs, load average {m['load_average'][0]:.2f} at the start, "
          f"{m['load_average_after_startup'][0]:.2f} after the start-ups")
    r = figures["startup"]
    print(f"start-up, {r['runs']} alternating rounds (median ms; per run in brackets):")
    print(f"  app ready  cold {r['app_cold_median']} {r['app_cold']}, warm reload {r['app_warm_median']} {r['app_warm']}")
    print(f"  bare start cold {r['bare_cold_median']} {r['bare_cold']}, warm reload {r['bare_warm_median']} {r['bare_warm']}")
    print(f"  ready / bare: cold {r['ratio_cold']:.2f} (paired {r['ratio_cold_paired']:.2f}), "
          f"warm {r['ratio_warm']:.2f} (paired {r['ratio_warm_paired']:.2f})   [target <= 1.10]")
    print("  app worker stages (cold), ms after the page script started (median): "
          + ", ".join(f"{k} {v}" for k, v in r["stages_ms"].items()))
    if "other" in r:
        o = r["other"]
        print(f"  {args.against}: ready cold {o['app_cold_median']} {o['app_cold']}, warm {o['app_warm_median']} "
              f"{o['app_warm']}; ready / bare: cold {o['ratio_cold']:.2f} (paired {o['ratio_cold_paired']:.2f}), "
              f"warm {o['ratio_warm']:.2f} (paired {o['ratio_warm_paired']:.2f})")
        print("  its worker stages (cold): " + ", ".join(f"{k} {v}" for k, v in o["stages_ms"].items()))
        print(f"  this ÷ {args.against}, per round: cold {r['this_over_other_cold_paired']:.3f}, "
              f"warm {r['this_over_other_warm_paired']:.3f}")
    if args.startup_only:
        return 0
    a = figures["answer_ms"]
    print(f"answer (submit to rendered), {a['n']} golden questions en+bn: median {a['rendered_median']} ms, "
          f"p95 {a['rendered_p95']} ms; painted median {a['painted_median']} ms; "
          f"raglab.ask() alone median {a['api_median']} ms   [target <= 100 ms]")
    for name, run in figures["evaluate"].items():
        print(f"evaluate ({name}): {run['ms'] / 1000:.1f} s for {run['configurations']} configurations   [target <= 15 s]")
    from semantic_browser import print_figures

    print_figures(figures["semantic"])
    return 0


def answers_paired(browser, url: str, other_url: str, sample: list[str]) -> dict:
    """Submit to rendered in two builds, each question asked in both (which goes first flips
    every question), after each has its model and served index: medians, p95s and the
    median of the per-question ratios (this build ÷ the other)."""
    pages = []
    for where in (url, other_url):
        page = browser.new_context(viewport={"width": 1100, "height": 1400}).new_page()
        page.goto(where)
        page.evaluate("() => window.raglab.ready.then(() => window.raglab.semanticReady())")
        page.evaluate(SERVED)
        page.evaluate(API_ASK, "How much does a first question cost?")  # the first call pays for nothing else
        pages.append(page)
    times: list[list[float]] = [[], []]
    for i, question in enumerate(sample):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            took, _, ok = pages[which].evaluate(ASK_IN_PAGE, question)
            if not ok:
                raise SystemExit(f"the page did not show the answer for {question!r}")
            times[which].append(took)
    med = statistics.median
    return {"n": len(sample), "this_median": round(med(times[0]), 1), "this_p95": round(percentile(times[0], 95), 1),
            "other_median": round(med(times[1]), 1), "other_p95": round(percentile(times[1], 95), 1),
            "ratio_median": round(med([a / b for a, b in zip(*times)]), 3)}


def evaluate_default(browser, url: str, runs: int) -> dict:
    """The Evaluate tab's run with its defaults, click to tables drawn, in fresh pages (the
    model loaded first, as a user who opens the tab after a while would find it)."""
    times, status, dots = [], "", 0
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1100, "height": 1400})
        try:
            page = context.new_page()
            page.goto(url)
            page.evaluate("() => window.raglab.ready.then(() => window.raglab.semanticReady())")
            page.click("#tab-evaluate")
            ms, status, dots = page.evaluate(RUN_EVALUATE)
            times.append(ms)
        finally:
            context.close()
    return {"runs": runs, "ms": [round(x) for x in times], "median_ms": round(statistics.median(times)),
            "configurations": dots, "status": status}


def answers_and_evaluate(page, sample: list[str], skip_full_grid: bool, evaluate: bool = True) -> dict:
    """Answer latency through the form and the API, then (with `evaluate`) the Evaluate tab's runs."""
    figures = {}
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
    if not evaluate:
        return figures
    page.click("#tab-evaluate")
    runs = {}
    ms, status, dots = page.evaluate(RUN_EVALUATE)
    runs["form defaults"] = {"ms": round(ms), "configurations": dots, "status": status}
    if not skip_full_grid:
        for box in page.query_selector_all("#eval-chunkers input, #eval-retrievers input"):
            box.set_checked(True)
        if page.is_enabled("#eval-expand"):
            page.select_option("#eval-expand", "both")
        ms, status, dots = page.evaluate(RUN_EVALUATE)
        runs["full grid, as `raglab compare`"] = {"ms": round(ms), "configurations": dots, "status": status}
    figures["evaluate"] = runs
    return figures


if __name__ == "__main__":
    sys.exit(main())
