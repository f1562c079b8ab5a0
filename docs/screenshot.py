"""docs/page.png: the page with one question answered by the served default, at 1280 x 800.

    python3 build.py build && .venv/bin/python docs/screenshot.py

It serves dist/ on 127.0.0.1 (as `python3 build.py serve` does), starts Chromium through
Playwright with the options the browser tests use, waits for the page and its semantic model,
asks QUESTION in the Ask tab and saves the visible window. Re-run it after a change to the
page's look and commit the new picture.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUESTION = "What is the cash out fee at an agent?"
READY_MS = 180_000  # a cold start on a busy machine, then the semantic model


def build_module():
    spec = importlib.util.spec_from_file_location("raglab_build", os.path.join(ROOT, "build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--question", default=QUESTION, help=f"what to ask (default: {QUESTION!r})")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "page.png"), help="PNG to write")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build = build_module()
    dist = os.path.join(ROOT, "dist")
    if not os.path.exists(os.path.join(dist, "index.html")):
        sys.exit("docs/screenshot.py: dist/ is not built; run `python3 build.py build` first")
    server, url = build.serve_in_background(dist)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**build.browser_launch_options())
            page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
            page.goto(url)
            page.wait_for_function("() => window.raglab && window.raglab.state === 'ready'", timeout=READY_MS)
            # The served default is semantic: wait until its model is in, so the answer is its own.
            page.wait_for_function("() => window.raglab.semantic.state === 'ready'", timeout=READY_MS)
            page.fill("#question", args.question)
            page.press("#question", "Enter")
            page.wait_for_function("q => document.getElementById('result').dataset.question === q",
                                   arg=args.question, timeout=READY_MS)
            page.evaluate("() => document.fonts.ready")
            # After Ask the page scrolls to the answer; show the question above it instead.
            page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
            page.screenshot(path=args.out)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"{os.path.relpath(args.out, ROOT)}: {os.path.getsize(args.out):,} bytes")


if __name__ == "__main__":
    main()
