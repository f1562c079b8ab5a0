"""The Python worker runs under the page's CSP even where the host sends no CSP header
(GitHub Pages): the page starts it from a blob: bootstrap, which inherits the <meta>
policy, instead of from a same-origin URL, which would run under no policy there."""

from __future__ import annotations

import functools
import http.server
import threading

import pytest

from raglab.pipeline import Config

READY_MS = 180_000
# connect-src 'self' refuses a data: URL; a worker under no policy fetches it.
FETCH_DATA = "() => fetch('data:text/plain,hello').then((r) => r.text(), (err) => err.name)"


@pytest.fixture(scope="module")
def pages_like_url(dist_dir):
    """dist/ served as a static host does: files only, no CSP header."""
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm"}

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=dist_dir))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_worker_is_under_the_meta_policy_without_a_csp_header(browser, pages_like_url):
    context = browser.new_context()
    try:
        page = context.new_page()
        response = page.goto(pages_like_url)
        assert "content-security-policy" not in response.headers
        page.wait_for_function("() => window.raglab && window.raglab.state === 'ready'", timeout=READY_MS)
        assert page.evaluate("() => window.raglab.ask('What is the cash out fee?', {}).then(r => r.chunks.length)") == Config().k
        # The Python worker is the page's one blob worker; the encoder's helper worker (js/helper.js),
        # which the Python worker may start by now, is listed too, under its own URL.
        [worker] = [w for w in page.workers if w.url.startswith("blob:")]
        assert all(w.url.endswith("/js/helper.js") for w in page.workers if w is not worker), [w.url for w in page.workers]
        assert worker.evaluate(FETCH_DATA) == "TypeError"  # refused by the page's connect-src
        # The control: a worker started from a same-origin URL, as before, runs under no policy here.
        with page.expect_worker() as started:
            page.evaluate("() => { window.__control = new Worker('js/dom.js', { type: 'module' }); }")
        assert started.value.evaluate(FETCH_DATA) == "hello"
        page.evaluate("() => window.__control.terminate()")
    finally:
        context.close()
