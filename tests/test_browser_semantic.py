"""The semantic model in the page: it loads after ready, a failure is reported with Retry,
lexical configurations keep working meanwhile, and a semantic question waits for the model
(it is never answered by another configuration).

One page walks through every failure in turn (each new file blocked once, then a tampered
model), because starting Pyodide is the slow part; Retry fetches all three files again.
"""

import json

import pytest

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


def tampered(route):
    response = route.fetch()
    body = bytearray(response.body())
    body[-1] ^= 0x01  # one bit in the last weight
    route.fulfill(response=response, body=bytes(body))


STEPS = [  # (url pattern, how, words the status line must show)
    ("**/encoder/*/e5-small-raglab.rle5", "abort", "e5-small-raglab.rle5"),
    ("**/encoder/*/encoder.wasm", "abort", "encoder.wasm"),
    ("**/encoder/*/vectors.bin", "abort", "vectors.bin"),
    ("**/encoder/*/e5-small-raglab.rle5", "tamper", "does not match the manifest"),
]


def test_each_semantic_file_blocked_is_reported_and_retry_loads_it(browser_context, site_url):
    page = browser_context.new_page()
    try:
        pattern, how, words = STEPS[0]
        page.route(pattern, lambda route: route.abort())
        page.goto(site_url)
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        info = page.evaluate("() => window.raglab.info")
        assert info["semantic"], "no semantic retrievers are registered"
        semantic = {"retriever": info["semantic"][0]}
        for i, (pattern, how, words) in enumerate(STEPS):
            if i:
                page.unroute(STEPS[i - 1][0])
                page.route(pattern, (lambda route: route.abort()) if how == "abort" else tampered)
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
        page.unroute(STEPS[-1][0])
        page.click("#semantic-retry")
        # asked while the model loads: it waits, and the semantic retriever answers
        waited = ask(page, semantic)
        assert waited["config"]["retriever"] == semantic["retriever"] and waited["chunks"], waited
        assert semantic_state(page)["state"] == "ready"
        assert page.is_hidden("#semantic-retry")
    finally:
        page.close()
