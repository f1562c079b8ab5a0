"""The semantic model in the page: it loads after ready, a failure is reported with Retry,
lexical configurations keep working meanwhile, and a semantic question waits for the model
(it is never answered by another configuration).

One page walks through every failure in turn (each new file blocked once, then a tampered
model), because starting Pyodide is the slow part; Retry fetches all three files again. The
test's own server blocks them: it drops the connection (as a proxy or an extension blocking
the request would) or changes one bit.
"""

import fnmatch
import json
import os
import re
import socket
import threading

import pytest

from helpers import CORPUS

READY_MS = 120_000
QUESTION = "What is the cash out fee at an agent?"


def semantic_state(page):
    return page.evaluate("() => window.raglab.semantic")


def wait_semantic(page, state):
    try:
        page.wait_for_function(f"() => window.raglab.semantic.state === {json.dumps(state)}", timeout=READY_MS)
    except Exception:  # noqa: BLE001 - say what the page shows instead
        pytest.fail(f"the semantic model never reached {state!r}: {semantic_state(page)}; "
                    f"status line: {page.text_content('#semantic-text')!r}", pytrace=False)


def ask(page, config):
    """raglab.ask's result, or {"error": message} when it rejects."""
    return page.evaluate("""([q, config]) => window.raglab.ask(q, config).then(
        (r) => r, (e) => ({error: e.message, type: e.type}))""", [QUESTION, config])


STEPS = [  # (file name, how, words the status line must show)
    ("e5-small-raglab.rle5", "drop", "e5-small-raglab.rle5"),
    ("encoder.wasm", "drop", "encoder.wasm"),
    ("vectors.bin", "drop", "vectors.bin"),
    ("e5-small-raglab.rle5", "tamper", "does not match the manifest"),
]


@pytest.fixture
def guarded_site(build_module, dist_dir, browser_context):
    """dist/ served by a server that drops or alters the request for one file on demand.
    Its own origin is not "offsite" for the tests that check the app fetches nothing
    elsewhere (they share the browser context), so its requests are taken off that list."""
    server = build_module.make_server(dist_dir, 0)
    base = server.RequestHandlerClass.func
    blocked = {}  # {"name": file name, "how": "drop" | "tamper"}

    class Guarded(base):
        def do_GET(self):
            name = self.path.split("?")[0].rsplit("/", 1)[-1]
            if blocked and fnmatch.fnmatch(name, blocked["name"]):
                if blocked["how"] == "drop":  # as if a proxy or an extension blocked it
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                path = self.translate_path(self.path)
                with open(path, "rb") as fh:
                    body = bytearray(fh.read())
                body[-1] ^= 0x01  # one bit of the last weight
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(bytes(body))
                return
            super().do_GET()

    server.RequestHandlerClass = type(server.RequestHandlerClass)(Guarded, *server.RequestHandlerClass.args,
                                                                  **server.RequestHandlerClass.keywords)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/"
    yield url, blocked
    browser_context.offsite[:] = [u for u in browser_context.offsite if not u.startswith((url, f"blob:{url}"))]
    server.shutdown()
    server.server_close()


def test_each_semantic_file_blocked_is_reported_and_retry_loads_it(browser_context, guarded_site):
    url, blocked = guarded_site
    page = browser_context.new_page()
    try:
        blocked.update(name=STEPS[0][0], how=STEPS[0][1])
        page.goto(url)
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        info = page.evaluate("() => window.raglab.info")
        assert info["semantic"], "no semantic retrievers are registered"
        semantic = {"retriever": info["semantic"][0]}
        for i, (name, how, words) in enumerate(STEPS):
            if i:
                blocked.update(name=name, how=how)
                page.click("#semantic-retry")
            wait_semantic(page, "failed")
            shown = page.text_content("#semantic-text")
            assert words in shown and len(shown) < 400, shown
            assert page.is_visible("#semantic-retry")
            # lexical configurations keep working; a semantic one says what is wrong
            lexical = ask(page, {"retriever": "bm25"})
            assert lexical.get("answer") and lexical["config"]["retriever"] == "bm25", lexical
            refused = ask(page, semantic)
            assert refused.get("type") == "SemanticUnavailable" and "Retry" in refused["error"], refused
        blocked.clear()
        page.click("#semantic-retry")
        # asked while the model loads: it waits, and the semantic retriever answers
        waited = ask(page, semantic)
        assert waited["config"]["retriever"] == semantic["retriever"] and waited["chunks"], waited
        assert semantic_state(page)["state"] == "ready"
        assert page.is_hidden("#semantic-retry")
    finally:
        page.close()


OWN_DATA = """async ([files]) => {
  const articles = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)]));
  await window.raglab.semanticReady();
  await window.raglab.loadFiles("owntest", articles);
  const first = [];
  let cancelled = null;
  try {
    await window.raglab.encodePassages({chunker: "sentence"}, (p) => {
      first.push(p);
      if (first.length === 1) window.raglab.cancelEncoding();
    }, {corpus: "owntest"});
  } catch (err) {
    cancelled = [err.type, err.message];
  }
  const second = [];
  const done = await window.raglab.encodePassages({chunker: "sentence"}, (p) => second.push(p), {corpus: "owntest"});
  return {first, cancelled, second, done};
}"""


def test_own_data_vectors_have_progress_an_estimate_and_cancel(app_page, native_web):
    """Own articles' chunk vectors are computed in the worker with progress and an estimate;
    Cancel stops between batches and keeps what was done; then semantic answers equal native."""
    names = ["en-pin.md", "en-lost-phone.md", "bn-pin.md"]
    # Renamed wallet and retitled articles: the heading path is part of every indexed chunk, so no
    # chunk equals a bundled one whose vector shipped or was fetched by an earlier evaluation in
    # this page (the bundled sentence chunks' store); and Cancel needs batches still to come.
    files = {n: re.sub(r"^# ", "# Kodom Pay: ", open(os.path.join(CORPUS, n), encoding="utf-8").read()
                       .replace("Shapla Pay", "Kodom Pay"), count=1) for n in names}
    got = app_page.evaluate(OWN_DATA, [files])
    assert got["cancelled"] and got["cancelled"][0] == "Cancelled" and "kept" in got["cancelled"][1], {k: (v if k != "second" else len(v)) for k, v in got.items()}
    first = got["first"]
    # the cancel message reaches the worker while a batch may already be running: it stops at
    # the next batch boundary, well before the end
    assert first and 0 < first[-1]["done"] < first[-1]["total"], first
    assert first[0]["label"].startswith("vectors sentence ") and first[0]["label"].split()[-1].isdigit()
    detail = first[0]["detail"]  # what the page words: "Encoding the sentence chunks: 4 of 61, about 20 seconds left"
    assert detail == {"phase": "encode", "chunker": "sentence", "done": first[0]["done"], "total": first[0]["total"],
                      "left": int(first[0]["label"].split()[-1])}
    second = got["second"]
    assert second and second[0]["done"] > first[-1]["done"], "the cancelled batch's vectors were not kept"
    assert second[-1]["done"] == second[-1]["total"] == first[0]["total"]
    native_web.load("owntest", json.dumps(files))
    config = {"retriever": "semantic", "chunker": "sentence"}
    question = "I forgot my PIN, what do I do?"
    browser = app_page.evaluate("([q, c]) => window.raglab.raw('ask', q, c, 'owntest')", [question, config])
    assert browser == native_web.ask(question, json.dumps(config), "owntest")
