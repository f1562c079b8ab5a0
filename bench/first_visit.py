"""What a first visit costs: bytes (raw, gzip, brotli) and the time to the first answer on a
throttled link (20 Mbit/s, 4x CPU slowdown), with and without compressed serving.

Bytes are those of every file the page and its worker load before the first answer (the
page's own resource timings plus the worker's files from the manifest), sized from dist/:
raw, as `<file>.gz` and as `<file>.br` where build.py wrote them (other files count raw).

The time is navigation start to the first answer drawn (a golden question typed into the
form once the page is ready), in a fresh browser context each time (no HTTP cache), with
Chromium's DevTools protocol emulating the link and the CPU on the page *and* on its Web
Worker (which does the downloading and all the Python work): Network.emulateNetworkConditions
(20 Mbit/s down, 5 Mbit/s up, 40 ms round trip; set on the page, it also holds for the worker's
requests: at 2 Mbit/s start-up took ~20 s longer, as 5.9 MB at 2 Mbit/s predicts) and
Emulation.setCPUThrottlingRate(4) on the page, and asked of the worker too; Chromium 156
refuses it for workers, so the worker's Python runs at full speed and the times below are a
lower bound for a 4x slower device (the output says so). The
compressed and the uncompressed runs alternate, so machine load hits both alike.

    python3 build.py build && .venv/bin/python bench/first_visit.py [--rounds 2] [--json]
    .venv/bin/python bench/first_visit.py --dist DIR    # another build's dist/, copied aside
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from urllib.parse import urlparse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MBIT = 1_000_000 / 8  # bytes per second in one Mbit/s
LINK = {"offline": False, "latency": 40, "downloadThroughput": 20 * MBIT, "uploadThroughput": 5 * MBIT}
CPU_SLOWDOWN = 4
QUESTION = "What is the cash out fee at an agent?"

ASK = """async (question) => {
  await window.raglab.ready;
  const ready = performance.now();
  const result = document.getElementById('result');
  const before = Number(result.dataset.seq || 0);
  document.getElementById('question').value = question;
  document.getElementById('ask-form').requestSubmit();
  while (Number(result.dataset.seq || 0) <= before) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => requestAnimationFrame(() => r()));
  return [ready, performance.now(), document.getElementById('answer') !== null,
          performance.getEntriesByType('resource').map((e) => e.name)];
}"""


def _build_module():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def throttle(context, page, accepted: list) -> None:
    """Emulate the link and the CPU on the page, and the CPU on every worker it starts (paused
    at start until emulated, through a non-flat DevTools session to the worker target);
    `accepted` gets True for each worker that took the CPU slowdown, else Chromium's refusal
    (Chromium 156 says "Operation is only supported for pages, not workers")."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", LINK)
    session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    counter = iter(range(1, 1_000_000))

    def to_worker(worker_session: str, method: str, params: dict | None = None) -> None:
        message = {"id": next(counter), "method": method, "params": params or {}}
        session.send("Target.sendMessageToTarget", {"sessionId": worker_session, "message": json.dumps(message)})

    def attached(event) -> None:
        if event["targetInfo"]["type"] != "worker":
            return
        sid = event["sessionId"]
        # The page's network conditions already cover the worker's requests (a worker target
        # answers "Not supported" to its own); the CPU slowdown has to be set on the worker.
        to_worker(sid, "Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
        to_worker(sid, "Runtime.runIfWaitingForDebugger")

    def replied(event) -> None:
        message = json.loads(event["message"])
        if message.get("id") == 1:  # the CPU slowdown's reply
            accepted.append(message.get("error", {}).get("message", True))

    session.on("Target.attachedToTarget", attached)
    session.on("Target.receivedMessageFromTarget", replied)
    session.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": False})


def first_answer(browser, url: str, compressed: bool, throttled: bool = True) -> dict:
    headers = {} if compressed else {"Accept-Encoding": "identity"}
    context = browser.new_context(viewport={"width": 390, "height": 844}, extra_http_headers=headers)
    page = context.new_page()
    accepted: list = []
    if throttled:
        throttle(context, page, accepted)
    started = time.perf_counter()
    page.goto(url)
    ready, answered, ok, resources = page.evaluate(ASK, QUESTION)
    wall = time.perf_counter() - started
    context.close()
    if not ok:
        raise SystemExit("the page did not show an answer")
    return {"ready_s": ready / 1000, "first_answer_s": answered / 1000, "wall_s": wall, "resources": resources,
            "worker_cpu_slowdown": accepted[0] if accepted else None}


def sizes(dist: str, paths: list[str]) -> dict:
    out = {"files": len(paths), "raw": 0, "gzip": 0, "brotli": 0}
    for rel in paths:
        path = os.path.join(dist, *rel.split("/"))
        raw = os.path.getsize(path)
        out["raw"] += raw
        out["gzip"] += os.path.getsize(path + ".gz") if os.path.exists(path + ".gz") else raw
        out["brotli"] += os.path.getsize(path + ".br") if os.path.exists(path + ".br") else raw
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="rounds of (compressed, uncompressed) runs (default 2)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--dist", metavar="DIR", help="serve DIR (dist/ of another build, copied aside) instead of "
                                                       "building this tree's")
    args = parser.parse_args()

    build = _build_module()
    dist = args.dist or build.build_site()
    server, url = build.serve_in_background(dist)
    from playwright.sync_api import sync_playwright

    with open(os.path.join(dist, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    runs = {"compressed": [], "uncompressed": []}
    figures: dict = {"link": {"down_mbit": 20, "up_mbit": 5, "rtt_ms": LINK["latency"]}, "cpu_slowdown": CPU_SLOWDOWN,
                     "load_average_start": list(os.getloadavg())}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(**build.browser_launch_options())
        figures["chromium"] = browser.version
        unthrottled = first_answer(browser, url, compressed=True, throttled=False)
        for _ in range(args.rounds):
            for name in ("compressed", "uncompressed"):
                runs[name].append(first_answer(browser, url, compressed=name == "compressed"))
        browser.close()
    server.shutdown()
    figures["load_average_end"] = list(os.getloadavg())

    base = urlparse(url)
    page_files = sorted({urlparse(r).path.lstrip("/") for r in unthrottled["resources"]
                         if urlparse(r).netloc == base.netloc} - {""})
    worker_files = [f"pyodide/{n}" for n in build.PYODIDE_FILES if not n.endswith(".map")]
    worker_files += [f"pyodide/{build.MICROPIP_WHEEL}", "pyodide/pyodide-lock.json", manifest["wheel"]]
    if "snapshot" in manifest:  # Python's memory with the bundled articles and questions already read
        worker_files.append(manifest["snapshot"]["path"])
    else:  # (a build before the snapshot fetched the articles and questions themselves)
        worker_files += [*manifest["corpus"]] + ([manifest["goldens"]] if manifest["goldens"] else [])
    files = sorted(set(page_files) | set(worker_files) | {"index.html"})
    files = [f for f in files if os.path.isfile(os.path.join(dist, *f.split("/")))]
    figures["bytes"] = sizes(dist, files)
    figures["unthrottled_first_answer_s"] = round(unthrottled["first_answer_s"], 2)
    for name, got in runs.items():
        figures["worker_cpu_slowdown"] = got[0]["worker_cpu_slowdown"]
        figures[name] = {"first_answer_s": [round(r["first_answer_s"], 2) for r in got],
                         "ready_s": [round(r["ready_s"], 2) for r in got],
                         "first_answer_median_s": round(statistics.median(r["first_answer_s"] for r in got), 2)}

    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    b = figures["bytes"]
    mb = lambda n: f"{n / 1_000_000:.2f} MB"  # noqa: E731
    print(f"Chromium {figures['chromium']}; load average {figures['load_average_start'][0]:.1f} -> "
          f"{figures['load_average_end'][0]:.1f}")
    print(f"first visit: {b['files']} files, {mb(b['raw'])} raw, {mb(b['gzip'])} gzip, {mb(b['brotli'])} brotli")
    print(f"time to first answer, 20 Mbit/s + {LINK['latency']} ms RTT, CPU x{CPU_SLOWDOWN} on the page:")
    for name in ("compressed", "uncompressed"):
        r = figures[name]
        print(f"  {name:12} median {r['first_answer_median_s']:.1f} s (runs {r['first_answer_s']}, ready {r['ready_s']})")
    print(f"  for scale, unthrottled and compressed: {figures['unthrottled_first_answer_s']:.1f} s")
    if figures["worker_cpu_slowdown"] is not True:
        print(f"  the worker's CPU was not slowed (Chromium: {figures['worker_cpu_slowdown']}): a lower bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
