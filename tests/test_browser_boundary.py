"""The browser's security boundary and its failure behaviour, driven through the real page.

What the page must guarantee, whatever a user pastes or uploads:

- markup in questions, articles, file names and golden files is shown as text: no
  element is created from it, no script runs (a page-level flag, ``window.__pwned``,
  stays unset), no request leaves the origin;
- the Content-Security-Policy stays strict, is enforced, and blocks nothing the app
  needs (a ``securitypolicyviolation`` listener installed before the page loads records
  none through start-up, asking, opening articles, loading your own data, evaluating);
- a 1 MB question and a 5 MB uploaded corpus are handled by the worker while the page
  stays responsive (the longest gap between 20 ms timer ticks on the UI thread is
  measured), and a result or a clear message appears;
- when Python cannot start (a start-up file is blocked) or its worker dies later, the
  page says what failed and Retry works.

These tests use their own page (``guarded``) with the violation recorder installed
before any script of the app runs, next to the session's ``app_page`` (which they
require, so a stale wheel in dist/ fails loudly first).
"""

from __future__ import annotations

import functools
import json
import re
import time

import pytest

from helpers import assert_renders, docs, rendered
from raglab.corpus.articles import parse_corpus
from raglab.pipeline import Config, Pipeline
from raglab.schema import ask_json
from raglab.text.limits import MAX_QUESTION_CHARS

READY_MS = 120_000
ANSWER_MS = 60_000

RECORDER = """
(() => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push({directive: e.effectiveDirective || e.violatedDirective,
                              blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber});
  });
})();
"""

# Each payload tries to run `window.__pwned = ...` or to fetch from another origin if it
# were ever parsed as HTML (or as a Markdown link) instead of shown as text.
PAYLOADS = [
    '<script>window.__pwned="script"</script>',
    '<img src=x onerror="window.__pwned=\'img\'">',
    '<svg/onload="window.__pwned=\'svg\'">',
    '<a href="javascript:window.__pwned=\'a\'">click</a>',
    '[click me](javascript:window.__pwned="markdown-link")',
    '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
    '<details open ontoggle="window.__pwned=\'details\'">',
    '"><img src=x onerror=window.__pwned=\'attribute-break\'>',
    '</textarea></pre></code><script>window.__pwned="close-tags"</script>',
    '<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned="mxss">',
    '<img src="http://evil.example/beacon.png"><link rel=stylesheet href="//evil.example/x.css">',
    '<base href="http://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">',
    '${window.__pwned="template"} {{constructor.constructor("window.__pwned=1")()}}',
    '<div style="background:url(http://evil.example/bg.png)" onmouseover="window.__pwned=\'hover\'">hover</div>',
    '\u202e<b>RTL override</b>\u202c \u200d\ufeff 😀 <!-- comment --> <![CDATA[ x ]]>',
]

INERT = """() => {
  const handlers = [];
  for (const node of document.querySelectorAll('*')) {
    for (const attr of node.attributes) {
      if (/^on/i.test(attr.name)) handlers.push(node.tagName + ' ' + attr.name);
      if (/^\\s*javascript:/i.test(attr.value)) handlers.push(node.tagName + ' ' + attr.name + '=javascript:');
    }
  }
  const count = (sel) => document.querySelectorAll(sel).length;
  return {
    pwned: window.__pwned === undefined ? null : String(window.__pwned),
    handlers,
    dangerous: count('main iframe, main object, main embed, main img, main script, main style, main link, main base, ' +
                     'main meta, dialog img, dialog script, dialog iframe, body > script, body base'),
    headScripts: [...document.querySelectorAll('script')].map((s) => s.getAttribute('src')),
    violations: window.__violations,
  };
}"""


def assert_inert(page, offsite: list[str]) -> None:
    state = page.evaluate(INERT)
    assert state["pwned"] is None, f"a payload ran: {state['pwned']}"
    assert state["handlers"] == [], state["handlers"]
    assert state["dangerous"] == 0
    assert state["headScripts"] == ["js/start.js", "js/app.js"], "only the app's own module scripts"
    assert state["violations"] == [], state["violations"]
    assert offsite == [], offsite


@pytest.fixture(scope="module")
def guarded(browser_context, site_url, app_page):
    """A fresh page of the app with the CSP violation recorder installed before it loads."""
    page = browser_context.new_page()
    page.add_init_script(RECORDER)
    page.problems = []
    page.on("pageerror", lambda err: page.problems.append(f"page error: {err}"))
    page.on("console", lambda msg: page.problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" else None)
    page.goto(site_url)
    page.wait_for_function("() => window.raglab && window.raglab.state !== 'starting'", timeout=READY_MS)
    assert page.evaluate("() => window.raglab.state") == "ready", page.evaluate("() => window.raglab.failure")
    yield page
    # Leave no 5 MB corpus in the shared browser's memory.
    page.evaluate("() => window.raglab.load('user', {'tiny.md': '# Tiny\\n\\nTiny.\\n'}).catch(() => null)")
    page.close()


@functools.lru_cache(maxsize=None)
def bundled_pipeline() -> Pipeline:
    return Pipeline(list(docs()))


def ask_ui(page, question: str, corpus: str = "bundled", timeout: int = ANSWER_MS, before_enter=None) -> dict:
    """Type a question in the Ask tab and press Enter; wait for the page's next finished ask."""
    page.click("#tab-ask")
    page.select_option("#corpus", corpus)
    before = int(page.get_attribute("#result", "data-seq") or 0)
    page.fill("#question", question)
    if before_enter:
        before_enter()
    page.press("#question", "Enter")
    # Only the length and a prefix cross to the page while polling: a megabyte argument,
    # serialised on every poll, would itself stall the UI thread being measured.
    probe = [before, len(question.encode("utf-16-le")) // 2, question[:200]]  # JS counts UTF-16 units
    try:
        page.wait_for_function(
            "([seq, n, head]) => { const r = document.getElementById('result'); const q = r.dataset.question || '';"
            " return Number(r.dataset.seq || 0) > seq"
            " && ((q.length === n && q.startsWith(head)) || !document.getElementById('answer')); }",
            arg=probe, timeout=timeout)
    except Exception:  # noqa: BLE001 - say what the page shows instead of only "timeout"
        seen = page.evaluate("() => [document.getElementById('result').dataset.seq, "
                             "(document.getElementById('result').dataset.question || '').slice(0, 80), "
                             "document.getElementById('ask-status').textContent]")
        pytest.fail(f"no answer within {timeout // 1000} s for {question[:60]!r}...; seq before {before}, "
                    f"page shows [seq, question, status] = {seen}", pytrace=False)
    return page.evaluate("""() => ({
        question: (document.getElementById('result').dataset.question || '').slice(0, 5000) || null,
        status: document.getElementById('ask-status').textContent,
        answer: document.getElementById('answer-text')?.textContent ?? null,
        abstained: document.getElementById('answer')?.dataset.abstained === 'true',
        chunks: [...document.querySelectorAll('#chunks > li')].map((e) => e.dataset.id),
        texts: [...document.querySelectorAll('#chunks .chunk-text')].map((e) => [...e.querySelectorAll('span.src')].map(
            (s) => [Number(s.dataset.start), Number(s.dataset.end), s.textContent])),
        marks: [...document.querySelectorAll('#chunks > li')].map(
            (e) => [...e.querySelectorAll('.chunk-text mark')].map((m) => m.textContent)),
        citations: [...document.querySelectorAll('#citations .citation')].map((e) => e.dataset.chunk),
    })""")


START_LAG = """() => {
  window.__lag = {max: 0, ticks: 0, stalls: []};
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (now - last > 250) window.__lag.stalls.push([Math.round(last), Math.round(now - last)]);
    window.__lag.max = Math.max(window.__lag.max, now - last);
    window.__lag.ticks += 1;
    last = now;
    window.__lagTimer = setTimeout(tick, 20);
  };
  window.__lagTimer = setTimeout(tick, 20);
}"""
STOP_LAG = "() => { clearTimeout(window.__lagTimer); return window.__lag; }"
MAX_UI_GAP_MS = 1000  # a blocked UI thread shows gaps of many seconds here; a busy worker does not


# --- the CSP ---------------------------------------------------------------------------

def test_csp_header_matches_the_meta_tag_and_is_strict(guarded, site_url, build_module, dist_dir):
    response = guarded.request.get(site_url)
    header = response.headers.get("content-security-policy", "")
    assert header == build_module.site_csp(dist_dir), "the worker runs under the header, the page under the meta tag"
    directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in header.split(";") if d.strip())
    assert directives["default-src"] == "'none'" and directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'" and directives["form-action"] == "'none'"
    for name in ("script-src", "style-src", "connect-src", "img-src", "font-src", "worker-src"):
        assert "'unsafe-inline'" not in directives.get(name, "") and "'unsafe-eval'" not in directives.get(name, "")
        allowed = directives.get(name, "").replace(" blob:", "") if name == "worker-src" else directives.get(name, "")
        assert not re.search(r"https?:|\*|data:|blob:", allowed), (name, directives.get(name))
    # blob: only for the worker's one-line bootstrap, which makes it inherit the policy (client.js).
    assert directives["worker-src"] == "'self' blob:"


def test_csp_is_enforced_an_injected_inline_script_is_blocked_and_reported(guarded):
    before = len(guarded.evaluate("() => window.__violations"))
    guarded.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.__pwned = "csp-probe"';
        document.body.append(s);
        s.remove();
    }""")
    guarded.wait_for_function("(n) => window.__violations.length > n", arg=before, timeout=5_000)
    assert guarded.evaluate("() => window.__pwned === undefined")
    new = guarded.evaluate("(n) => window.__violations.splice(n)", before)
    # The browser also logs the refusal on the console; that line is this probe's, not the app's.
    guarded.problems[:] = [p for p in guarded.problems if "Executing inline script violates" not in p]
    assert new and {v["directive"] for v in new} == {"script-src-elem"}  # once per policy: header and meta tag


# --- hostile questions ----------------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS, ids=[f"payload{i}" for i in range(len(PAYLOADS))])
def test_hostile_question_is_answered_as_text(guarded, offsite_requests, payload):
    question = f"{payload} What is the cash out fee at an agent?"
    shown = ask_ui(guarded, question)
    assert shown["question"] == question and shown["status"] == ""
    native = ask_json(bundled_pipeline().ask(question))
    assert shown["chunks"] == [c["id"] for c in native["chunks"]]
    assert shown["abstained"] == native["abstained"]
    if not native["abstained"]:
        assert shown["answer"] == native["answer"]
    assert_inert(guarded, offsite_requests)


# --- hostile articles, file names and golden files -------------------------------------------

HOSTILE_EN = f"""# Lockers {PAYLOADS[0]}

Introduction with an emoji 😀 and 𝒜 before the facts, so offsets differ between code points and UTF-16.

## Prices {PAYLOADS[1]}

A locker costs Tk 20 per day. <b>Raw HTML</b> {PAYLOADS[2]} {PAYLOADS[3]}

{PAYLOADS[4]} and [a normal link](https://evil.example/track) and ![an image](http://evil.example/pixel.png)

<div onclick="window.__pwned='block'">
{PAYLOADS[5]}
</div>

| {PAYLOADS[6]} | price |
|---|---|
| locker | Tk 20 {PAYLOADS[10]} |

```html
{PAYLOADS[8]}
```
"""

HOSTILE_BN = f"""# লকার {PAYLOADS[1]}

লকারের ভাড়া প্রতিদিন ২০ টাকা। {PAYLOADS[0]} {PAYLOADS[11]}
"""


def jsonl(rows) -> bytes:
    return ("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n").encode()


def load_own(page, files: list[dict], questions: dict | None = None, run: bool = True) -> None:
    page.click("#tab-own")
    page.click("#own-clear")
    page.set_input_files("#own-articles", files)
    page.wait_for_function("(n) => document.getElementById('own-files').textContent.startsWith(`Chosen, not checked yet: ${n}`)",
                           arg=f"{len(files):,}", timeout=ANSWER_MS)  # counts are grouped: "1,365 articles"
    if questions is not None:
        page.set_input_files("#own-questions", questions)
    if run:
        page.click("#own-run")


def test_uploaded_articles_with_markup_are_shown_as_text(guarded, offsite_requests):
    files = [{"name": "lockers.md", "mimeType": "text/markdown", "buffer": HOSTILE_EN.encode()},
             {"name": "bn-lockers.md", "mimeType": "text/markdown", "buffer": HOSTILE_BN.encode()}]
    question = {"id": "h1", "lang": "en", "kind": "direct", "split": "test",
                "question": f"How much does a locker cost? {PAYLOADS[7]}", "answer": "Tk 20 per day.",
                "evidence": [{"doc": "lockers", "quote": "A locker costs Tk 20 per day."}]}
    load_own(guarded, files, {"name": "hostile.jsonl", "mimeType": "application/jsonl", "buffer": jsonl([question])})
    guarded.wait_for_selector("#own-report .report-section", timeout=120_000)
    assert_inert(guarded, offsite_requests)

    mine = parse_corpus({f["name"]: f["buffer"].decode() for f in files})
    native = ask_json(Pipeline(mine, Config()).ask("How much does a locker cost per day?"))
    shown = ask_ui(guarded, "How much does a locker cost per day?", corpus="user")
    assert shown["chunks"] == [c["id"] for c in native["chunks"]]
    assert shown["answer"] == native["answer"] == "A locker costs Tk 20 per day."
    # The chunk text is shown character for character (Markdown's block markup aside),
    # HTML markup included, as text ...
    for spans, chunk in zip(shown["texts"], native["chunks"]):
        assert_renders({"spans": spans}, chunk["text"])
    assert any(PAYLOADS[1] in "".join(t for _, _, t in spans) for spans in shown["texts"])
    # ... and the highlights sit where Python put them, though emoji count twice in UTF-16.
    assert shown["marks"] == [[c["text"][s:e] for s, e in c["matches"]] for c in native["chunks"]]

    guarded.click("#citations .citation")
    guarded.wait_for_selector("#article-dialog[open]")
    assert_renders(rendered(guarded, "#article-body"), mine[[d.id for d in mine].index("lockers")].text)
    assert guarded.text_content("#article-title") == f"Lockers {PAYLOADS[0]}"
    assert guarded.text_content("#article-body mark.evidence") == "A locker costs Tk 20 per day."
    assert_inert(guarded, offsite_requests)
    guarded.keyboard.press("Escape")
    guarded.wait_for_selector("#article-dialog:not([open])", state="attached")


@pytest.mark.parametrize("files, golden, expected", [
    ([{"name": '<img src=x onerror="window.__pwned=1">.md', "buffer": b"# T\n\nText.\n"}], None,
     '<img src=x onerror="window.__pwned=1">.md: article id'),
    ([{"name": "notitle.md", "buffer": PAYLOADS[0].encode() + b"\n\nNo title line.\n"}], None,
     "notitle.md:1: an article must start with a '# Title' line, found '<script>"),
    ([{"name": "lockers.md", "buffer": HOSTILE_EN.encode()}],
     {"id": '<svg onload="window.__pwned=1">', "lang": "en", "kind": "direct", "split": "dev", "question": "q?",
      "answer": "a", "evidence": [{"doc": "lockers", "quote": PAYLOADS[5] + " is not there"}]},
     'hostile.jsonl:1: question <svg onload="window.__pwned=1">: evidence[0]: field \'quote\' does not occur'),
])
def test_errors_quoting_hostile_input_are_shown_as_text(guarded, offsite_requests, files, golden, expected):
    files = [{**f, "mimeType": "text/markdown"} for f in files]
    questions = {"name": "hostile.jsonl", "mimeType": "application/jsonl", "buffer": jsonl([golden])} if golden else None
    load_own(guarded, files, questions)
    guarded.wait_for_selector("#own-result .error-box", timeout=ANSWER_MS)
    assert expected in guarded.text_content("#own-result .error-text")
    assert_inert(guarded, offsite_requests)


@pytest.mark.parametrize("article, questions, expected", [
    ("# Café prices\n\nA café locker costs Tk 20.\n".encode("latin-1"), None, "cafe.md:1: not valid UTF-8"),
    ("# লকার\n\nলকারের ভাড়া ২০ টাকা।\n".encode("utf-16"), None, "cafe.md:1: not valid UTF-8"),
    (HOSTILE_EN.encode(), '{"id": "q1", "question": "caf\xe9?"}\n'.encode("latin-1"), "mine.jsonl:1: not valid UTF-8"),
], ids=["latin-1", "utf-16", "questions-latin-1"])
def test_uploaded_file_that_is_not_utf8_is_named_not_mangled(guarded, offsite_requests, article, questions, expected):
    name = "cafe.md" if questions is None else "lockers.md"
    load_own(guarded, [{"name": name, "mimeType": "text/markdown", "buffer": article}],
             {"name": "mine.jsonl", "mimeType": "application/jsonl", "buffer": questions} if questions else None)
    guarded.wait_for_selector("#own-result .error-box", timeout=ANSWER_MS)
    assert expected in guarded.text_content("#own-result .error-text")
    assert_inert(guarded, offsite_requests)


# --- size ---------------------------------------------------------------------------------------

def test_a_1mb_pasted_question_gets_a_clear_message_and_the_page_stays_responsive(guarded, offsite_requests):
    big = ("What is the cash out fee at an agent? " * 30_000)[:1_000_000]
    started = time.perf_counter()
    # Pasted whole (the box has no length limit of its own); timing starts once it is in the box.
    shown = ask_ui(guarded, big, before_enter=lambda: guarded.evaluate(START_LAG))
    assert shown["answer"] is None and shown["chunks"] == []
    assert "the question is 1,000,000 characters long; the limit is 100,000" in shown["status"]
    assert time.perf_counter() - started < 30, "refused at once, not after minutes of work"
    # At the limit the worker does the work and answers, while the UI thread keeps ticking.
    at_limit = big[:MAX_QUESTION_CHARS]
    result = guarded.evaluate("(q) => window.raglab.ask(q).then((r) => [r.question.length, r.abstained, r.chunks.length])",
                              at_limit)
    # Whether it answers or abstains is the answerer's call (a 100,000-character question is far
    # from anything the risk-tuned threshold trusts); what matters here is that it is worked through.
    assert result[0] == MAX_QUESTION_CHARS and isinstance(result[1], bool) and result[2] == Config().k
    lag = guarded.evaluate(STOP_LAG)
    print(f"[boundary] 1 MB question refused, 100,000 characters answered; longest UI gap {lag['max']:.0f} ms "
          f"in {time.perf_counter() - started:.1f} s")
    assert lag["max"] < MAX_UI_GAP_MS, f"the UI thread stalled for {lag['max']:.0f} ms: {lag['stalls']}"
    assert lag["ticks"] > 10
    assert_inert(guarded, offsite_requests)


def five_megabytes() -> list[dict]:
    files, size, copy = [], 0, 0
    while size < 5_000_000:
        for d in docs():
            data = d.text.encode()
            files.append({"name": f"c{copy}-{d.id}.md", "mimeType": "text/markdown", "buffer": data})
            size += len(data)
        copy += 1
    return files


def test_a_5mb_uploaded_corpus_is_indexed_by_the_worker_while_the_page_stays_responsive(guarded, offsite_requests):
    files = five_megabytes()
    load_own(guarded, files, run=False)  # the test harness hands 1,365 files to the input (not timed)
    guarded.evaluate(START_LAG)
    started = time.perf_counter()
    guarded.click("#own-run")
    guarded.wait_for_function(
        "(n) => (document.getElementById('own-result').textContent || '').includes(`Loaded ${n} articles`)"
        " || document.querySelector('#own-result .error-box')", arg=f"{len(files):,}", timeout=120_000)
    assert guarded.query_selector("#own-result .error-box") is None, guarded.text_content("#own-result")
    # The first question builds the index of 5 MB inside the worker (tens of seconds in wasm).
    guarded.click("#tab-ask")
    guarded.select_option("#corpus", "user")
    before = int(guarded.get_attribute("#result", "data-seq") or 0)
    # A question answered well above the threshold here: 35 copies of every chunk rank each copy of a
    # chunk BM25 puts above the answer's, which lowers the confidence of some answers below it.
    guarded.fill("#question", "What is the minimum cash out amount?")
    guarded.press("#question", "Enter")
    # While the worker works, the page still reacts: tabs switch and text can be typed.
    guarded.click("#tab-evaluate")
    assert guarded.is_visible("#panel-evaluate") and not guarded.is_visible("#panel-ask")
    guarded.click("#tab-ask")
    assert "…" in guarded.text_content("#ask-status") or int(guarded.get_attribute("#result", "data-seq") or 0) > before
    guarded.wait_for_function("(seq) => Number(document.getElementById('result').dataset.seq || 0) > seq",
                              arg=before, timeout=240_000)
    shown = guarded.text_content("#answer-text")
    cited = guarded.eval_on_selector_all("#citations .citation", "es => es.map((e) => e.dataset.chunk)")
    # The same question through the JS API (the index is built now): the page showed this result,
    # quoted verbatim from the uploaded files.
    result = guarded.evaluate("(q) => window.raglab.ask(q, {}, {corpus: 'user'})", "What is the minimum cash out amount?")
    assert not result["abstained"] and shown == result["answer"] and cited == result["citations"]
    uploaded = {f["name"][:-3]: f["buffer"].decode() for f in files}
    for quote in result["quotes"]:
        assert uploaded[quote["doc"]][quote["start"]:quote["end"]] == quote["text"]
    lag = guarded.evaluate(STOP_LAG)
    print(f"[boundary] 5 MB corpus ({len(files)} files) loaded, indexed and answered in "
          f"{time.perf_counter() - started:.1f} s; longest UI gap {lag['max']:.0f} ms")
    assert lag["max"] < MAX_UI_GAP_MS, f"the UI thread stalled for {lag['max']:.0f} ms: {lag['stalls']}"
    assert_inert(guarded, offsite_requests)
    guarded.select_option("#corpus", "bundled")


def test_nothing_the_app_needs_was_blocked_and_nothing_went_wrong(guarded, offsite_requests):
    """After everything above on this page, plus an evaluation run: no CSP report, no error."""
    guarded.click("#tab-evaluate")
    for box in guarded.query_selector_all("#eval-chunkers input, #eval-retrievers input"):
        box.set_checked(box.get_attribute("value") in ("recursive", "bm25"))
    guarded.select_option("#eval-expand", "off")
    guarded.click("#eval-run")
    guarded.wait_for_selector("#eval-result .report-section", timeout=120_000)
    assert_inert(guarded, offsite_requests)
    assert guarded.problems == []
    guarded.click("#tab-ask")


# --- Python that cannot start ----------------------------------------------------------------------

def boot_and_fail(browser_context, site_url, pattern: str, how: str):
    page = browser_context.new_page()
    if how == "abort":
        page.route(pattern, lambda route: route.abort())
    else:
        page.route(pattern, lambda route: route.fulfill(status=404, body="not here"))
    page.goto(site_url)
    return page


@pytest.mark.parametrize("pattern, how, stage_words, details", [
    ("**/js/worker.js", "abort", "worker", None),
    ("**/pyodide/python_stdlib.zip", "abort", "Start-up failed", ""),
    ("**/wheels/**/raglab-*.whl", "404", "could not be installed", ".whl: HTTP 404"),
    ("**/wheels/**/python-*.snapshot.gzip", "404", "runtime could not be loaded", ".snapshot.gzip: HTTP 404"),
    ("**/manifest.json", "404", "runtime could not be loaded", "manifest.json: HTTP 404"),
    # loadPyodide alone never settles when the wasm download fails (pyodide/pyodide#6296);
    # the worker watches the runtime's own downloads and fails the start-up at the first
    # that fails (an unhandled rejection reaches the worker in some Chromium builds only).
    ("**/pyodide/pyodide.asm.wasm", "abort", "Start-up failed", ""),
], ids=["worker-script", "stdlib", "raglab-wheel", "python-snapshot", "manifest", "wasm"])
def test_blocked_startup_file_is_reported_and_retry_works(browser_context, site_url, pattern, how, stage_words,
                                                          details):
    page = boot_and_fail(browser_context, site_url, pattern, how)
    try:
        page.wait_for_selector("#boot-error:not([hidden])", timeout=30_000)
        message = page.text_content("#boot-error-text")
        assert stage_words in message and len(message) < 400, message
        # A sentence for the user; the browser's or Python's own words behind "details".
        assert not re.search(r"\b[A-Z][a-z]+Error\b", message), message
        if details is not None:
            assert page.is_visible("#boot-error-details details summary")
            assert details in page.text_content("#boot-error-details pre")
        assert page.evaluate("() => window.raglab.state") == "failed"
        page.unroute(pattern)
        page.click("#retry")
        try:
            page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        except Exception:  # noqa: BLE001 - report what the page shows
            seen = page.evaluate("() => [window.raglab.state, document.getElementById('boot-stage').textContent, "
                                 "document.getElementById('boot-error-text').textContent]")
            pytest.fail(f"Retry did not bring Python up: [state, stage, error] = {seen}", pytrace=False)
        assert page.is_hidden("#boot-error")
        shown = ask_ui(page, "What is the cash out fee at an agent?")
        assert shown["answer"] and shown["citations"]
    finally:
        page.close()


def test_a_worker_that_dies_after_startup_is_reported_and_retry_works(browser_context, site_url):
    page = browser_context.new_page()
    try:
        page.goto(site_url)
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        page.workers[0].evaluate("() => { setTimeout(() => self.close(), 0); }")  # as if the browser killed it
        page.fill("#question", "What is the cash out fee?")
        page.press("#question", "Enter")
        page.wait_for_selector("#boot-error:not([hidden])", timeout=15_000)
        assert "stopped" in page.text_content("#boot-error-text")
        # The question that was waiting is told too, instead of searching forever.
        page.wait_for_function("() => document.getElementById('ask-status').textContent.includes('stopped')",
                               timeout=15_000)
        page.click("#retry")
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        shown = ask_ui(page, "What is the cash out fee at an agent?")
        assert shown["answer"] and shown["citations"]
    finally:
        page.close()


def _altered(how: str):
    """A route handler serving the real file, changed: cut in half, one bit flipped (near its
    end, or in its middle), or (the manifest) without its semantic model."""
    def handle(route):
        response = route.fetch()
        body = response.body()
        if how == "truncate":
            body = body[: len(body) // 2]
        elif how == "flip":
            body = body[:-100] + bytes([body[-100] ^ 0x01]) + body[-99:]
        elif how == "flip-middle":  # a compressed file's tail may be a run whose flip changes nothing
            middle = len(body) // 2
            body = body[:middle] + bytes([body[middle] ^ 0x01]) + body[middle + 1:]
        elif how == "no-model":
            manifest = json.loads(body)
            manifest.pop("encoder", None)
            body = json.dumps(manifest).encode()
        route.fulfill(response=response, body=body)
    return handle


@pytest.mark.parametrize("pattern, how, words", [
    ("**/manifest.json", "truncate", "manifest.json is not valid JSON"),
    ("**/wheels/**/raglab-*.whl", "flip", "does not match the manifest"),
    ("**/wheels/**/python-*.snapshot.gzip", "flip-middle", "does not match the manifest"),
], ids=["manifest-truncated", "wheel-altered", "snapshot-altered"])
def test_a_damaged_startup_file_is_named_in_one_line(browser_context, site_url, pattern, how, words):
    page = browser_context.new_page()
    uncaught = []
    page.on("pageerror", lambda err: uncaught.append(str(err)))
    page.on("console", lambda msg: uncaught.append(msg.text) if msg.type == "error" and "Uncaught" in msg.text else None)
    try:
        page.route(pattern, _altered(how))
        page.goto(site_url)
        page.wait_for_selector("#boot-error:not([hidden])", timeout=READY_MS)
        message = page.text_content("#boot-error-text")
        assert words in message and "Traceback" not in message and len(message) < 400, message
        assert "connection" not in message, message
        assert page.evaluate("() => window.raglab.state") == "failed"
        assert not uncaught, uncaught
    finally:
        page.close()


SETTLES = """() => Promise.race([
  window.raglab.semanticReady().then(() => "resolved", (e) => "rejected: " + e.message),
  new Promise((resolve) => setTimeout(() => resolve("never settled"), 5000)),
])"""


@pytest.mark.parametrize("pattern, how, words", [
    ("**/manifest.json", "no-model", "no semantic model"),
    ("**/vectors.bin", "truncate", "vectors.bin"),
], ids=["no-model", "vectors-truncated"])
def test_semantic_ready_settles_and_the_status_says_why(browser_context, site_url, pattern, how, words):
    """A model that failed (or is not in the build) before semanticReady() was called: it
    rejects at once; the status line is one sentence, the selectors do not say "loading"."""
    page = browser_context.new_page()
    try:
        page.route(pattern, _altered(how))
        page.goto(site_url)
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        page.wait_for_function("() => ['failed', 'absent'].includes(window.raglab.semantic.state)", timeout=READY_MS)
        assert page.evaluate(SETTLES).startswith("rejected"), "semanticReady() did not reject"
        shown = page.text_content("#semantic-text")
        assert words in shown and "Traceback" not in shown and "0 / 0 MB" not in shown and len(shown) < 400, shown
        labels = page.evaluate("() => [...document.querySelectorAll('option')].map((o) => o.textContent)")
        assert not [label for label in labels if "loading" in label], labels
    finally:
        page.close()


def test_a_damaged_prebuilt_analysis_only_costs_time(browser_context, site_url):
    """The prebuilt analysis is a speed-up: with one bit flipped it is refused (its digest)
    and the index is computed, so start-up finishes and the answer is the usual one."""
    page = browser_context.new_page()
    try:
        page.route("**/data/analysis-*.json", _altered("flip"))
        page.goto(site_url)
        page.wait_for_function("() => window.raglab.state === 'ready'", timeout=READY_MS)
        shown = ask_ui(page, "What is the cash out fee at an agent?")
        assert shown["answer"] and shown["citations"], shown
    finally:
        page.close()
