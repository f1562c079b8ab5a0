"""The browser app, driven like a user would: Chromium, the real page, the real worker.

Each test compares what the page shows with what native Python computes for the
same input (the same package, run by CPython here and by Pyodide there), so
these tests fail when the app shows something other than what raglab computed.
The full per-question, per-configuration parity lives in its own suite; these
check that the page wires the right results into the right places.
"""

from __future__ import annotations

import functools
import json
import os
import re

import pytest

from helpers import assert_renders, docs, marked, questions, rendered, shown_in
from raglab.corpus.articles import parse_corpus
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.registry import RETRIEVERS
from raglab.schema import ask_json

OFFERED = list(RETRIEVERS)  # the page offers every retriever (the encoder's wait for its model)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGLISH_QUESTION = "What is the cash out fee?"
BANGLA_QUESTION = "এজেন্টের কাছে ক্যাশ আউট করলে চার্জ কত?"


@functools.lru_cache(maxsize=None)
def native_pipeline(**config) -> Pipeline:
    return Pipeline(list(docs()), Config(**config))


def native_ask(question: str, **config) -> dict:
    return ask_json(native_pipeline(**config).ask(question))


ANSWER_MS = 60_000  # a minute's patience: the machine running the tests may be busy


def ask_in_ui(page, question: str, corpus: str = "bundled", **config) -> dict:
    """Ask in the Ask tab with `config` (else the served defaults) and return what the page shows.

    Only the selectors that differ are changed (a change re-asks the question shown), and the
    page is let finish what it is doing first, so the answer waited for is this question's."""
    page.click("#tab-ask")
    defaults = Config()
    for name in ("chunker", "retriever", "k"):
        wanted = str(config.get(name, getattr(defaults, name)))
        if page.input_value(f"#{name}") != wanted:
            page.select_option(f"#{name}", wanted)
    expand = bool(config.get("expand", defaults.expand))
    if page.is_checked("#expand") != expand:
        page.set_checked("#expand", expand)
    if page.input_value("#corpus") != corpus:
        page.select_option("#corpus", corpus)
    page.wait_for_function("() => !document.getElementById('result').hasAttribute('aria-busy')", timeout=ANSWER_MS)
    before = int(page.get_attribute("#result", "data-seq") or 0)
    page.fill("#question", question)
    page.press("#question", "Enter")
    try:
        page.wait_for_function(
            "([seq, q]) => { const r = document.getElementById('result');"
            " return Number(r.dataset.seq || 0) > seq && r.dataset.question === q; }",
            arg=[before, question], timeout=ANSWER_MS)
    except Exception:  # noqa: BLE001 - say what the page shows instead
        seen = page.evaluate("() => [document.getElementById('ask-status').textContent,"
                             " document.getElementById('result').dataset.seq, document.getElementById('result').dataset.question]")
        pytest.fail(f"no answer to {question!r} within {ANSWER_MS // 1000} s; [status, seq, question shown] = {seen}",
                    pytrace=False)
    return read_result(page)


def read_result(page) -> dict:
    return page.evaluate("""() => {
        const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
        const result = document.getElementById('result');
        return {
            abstained: document.getElementById('answer').dataset.abstained === 'true',
            answer: text('#answer-text'),
            citations: [...document.querySelectorAll('#citations .citation')].map(e => e.dataset.chunk),
            chunks: [...document.querySelectorAll('#chunks > li')].map(e => e.dataset.id),
            marks: [...document.querySelectorAll('#chunks > li')].map(
                e => [...e.querySelectorAll('.chunk-text mark')].map(m => m.textContent)),
            config: JSON.parse(result.dataset.config),
            lang: result.dataset.lang,  // the question's language (the area itself keeps the interface's)
            areaLang: result.getAttribute('lang'),
        };
    }""")


def assert_same_as_native(shown: dict, native: dict) -> None:
    assert shown["chunks"] == [c["id"] for c in native["chunks"]]
    assert shown["abstained"] == native["abstained"]
    if native["abstained"]:
        assert shown["citations"] == []
    else:
        assert shown["answer"] == native["answer"]
        assert shown["citations"] == native["citations"]


def test_the_page_starts_with_the_served_defaults_and_bilingual_examples(app_page):
    defaults = Config()
    for name in ("chunker", "retriever", "k"):
        assert app_page.input_value(f"#{name}") == str(getattr(defaults, name))
    assert app_page.is_checked("#expand") == defaults.expand
    offered = app_page.eval_on_selector_all("#retriever option", "os => os.map(o => o.value)")
    assert offered == OFFERED
    example_langs = app_page.eval_on_selector_all("#examples .example", "bs => bs.map(b => b.lang)")
    assert {"en", "bn"} <= set(example_langs)
    golden_texts = {q.question for q in questions()}
    shown = app_page.eval_on_selector_all("#examples .example", "bs => bs.map(b => b.textContent)")
    assert shown and set(shown) <= golden_texts


def test_an_english_question_typed_and_entered_shows_the_native_answer(app_page):
    shown = ask_in_ui(app_page, ENGLISH_QUESTION)
    native = native_ask(ENGLISH_QUESTION)
    assert_same_as_native(shown, native)
    assert shown["config"] == native["config"]
    assert len(shown["chunks"]) == min(Config().k, 5)  # the page lists the top k, at most five


def test_a_bangla_question_shows_the_native_answer_with_lang_attributes(app_page):
    shown = ask_in_ui(app_page, BANGLA_QUESTION)
    native = native_ask(BANGLA_QUESTION)
    assert_same_as_native(shown, native)
    assert shown["lang"] == "bn" and shown["areaLang"] is None
    chunk_langs = app_page.eval_on_selector_all("#chunks .chunk-text", "es => es.map(e => e.lang)")
    native_langs = [next(d.lang for d in docs() if d.id == c["doc"]) for c in native["chunks"]]
    assert chunk_langs == native_langs


def test_matched_terms_are_highlighted_where_the_python_analyzer_put_them(app_page):
    shown = ask_in_ui(app_page, BANGLA_QUESTION)
    native = native_ask(BANGLA_QUESTION)
    expected = [[c["text"][s:e] for s, e in c["matches"]] for c in native["chunks"]]
    assert shown["marks"] == expected
    assert any(expected), "the question should match at least one term"


def test_an_unanswerable_question_is_shown_as_an_abstention(app_page):
    unanswerable = [q for q in questions() if q.kind == "unanswerable"]
    abstaining = [q for q in unanswerable if native_ask(q.question)["abstained"]]
    assert abstaining, "expected the default pipeline to abstain on some unanswerable golden question"
    shown = ask_in_ui(app_page, abstaining[0].question)
    assert shown["abstained"] is True
    assert shown["citations"] == []
    assert shown["chunks"] == [c["id"] for c in native_ask(abstaining[0].question)["chunks"]]


def test_switching_the_retriever_re_ranks_with_that_retriever(app_page):
    ask_in_ui(app_page, ENGLISH_QUESTION)
    other = next(name for name in RETRIEVERS if name != Config().retriever)
    before = int(app_page.get_attribute("#result", "data-seq"))
    app_page.select_option("#retriever", other)  # a change re-asks the current question
    app_page.wait_for_function("seq => Number(document.getElementById('result').dataset.seq) > seq", arg=before)
    shown = read_result(app_page)
    assert shown["config"]["retriever"] == other
    assert_same_as_native(shown, native_ask(ENGLISH_QUESTION, retriever=other))
    app_page.select_option("#retriever", Config().retriever)


def test_a_citation_opens_the_article_with_chunk_and_evidence_highlighted(app_page):
    ask_in_ui(app_page, ENGLISH_QUESTION)
    native = native_ask(ENGLISH_QUESTION)
    assert not native["abstained"], "this test needs a question the default pipeline answers"
    cited = next(c for c in native["chunks"] if c["id"] == native["citations"][0])
    app_page.click(f'#citations .citation[data-chunk="{cited["id"]}"]')
    app_page.wait_for_selector("#article-dialog[open]")
    doc = next(d for d in docs() if d.id == cited["doc"])
    assert app_page.text_content("#article-title") == doc.title
    assert app_page.get_attribute("#article-body", "data-doc") == doc.id
    shown = rendered(app_page, "#article-body")
    assert_renders(shown, doc.text)
    # The chunk and the quoted evidence are marked on exactly their shown characters.
    assert marked(shown, "chunk") == shown_in(shown, cited["start"], cited["end"])
    quoted = set()
    for q in native["quotes"]:
        if q["doc"] == doc.id:
            quoted |= shown_in(shown, q["start"], q["end"])
    assert quoted
    # A golden example's reference evidence is marked as well (class "evidence golden").
    golden = set()
    for g in questions():
        if g.question == ENGLISH_QUESTION:
            for e in g.evidence:
                if e.doc == doc.id:
                    golden |= shown_in(shown, e.start, e.end)
    assert quoted <= marked(shown, "evidence") <= quoted | golden
    app_page.keyboard.press("Escape")
    app_page.wait_for_selector("#article-dialog:not([open])", state="attached")


def test_question_text_is_shown_as_text_never_as_markup(app_page):
    hostile = '<img src=x onerror="window.__pwned = 1"> cash out fee <script>window.__pwned = 2</script>'
    shown = ask_in_ui(app_page, hostile)
    assert shown["chunks"] == [c["id"] for c in native_ask(hostile)["chunks"]]
    assert app_page.evaluate("() => window.__pwned") is None
    assert app_page.eval_on_selector_all("#result img, #result script", "es => es.length") == 0


def test_both_interface_languages_render_and_are_screenshotted(app_page, artifacts_dir):
    labels = {}
    for lang, question in (("en", ENGLISH_QUESTION), ("bn", BANGLA_QUESTION)):
        app_page.click(f"#lang-{lang}")
        assert app_page.get_attribute("html", "lang") == lang
        assert app_page.get_attribute(f"#lang-{lang}", "aria-pressed") == "true"
        shown = ask_in_ui(app_page, question)
        assert_same_as_native(shown, native_ask(question))
        labels[lang] = app_page.text_content("#tab-ask")
        assert app_page.get_attribute("#tab-ask", "lang") == lang
        app_page.evaluate("() => document.fonts.ready")
        app_page.screenshot(path=os.path.join(artifacts_dir, f"ask-{lang}.png"))
    assert re.search("[\u0980-\u09ff]", labels["bn"]) and not re.search("[\u0980-\u09ff]", labels["en"])
    # The Bangla web font shipped with the site is the one in use.
    assert app_page.evaluate("() => document.fonts.check(\"16px 'Noto Sans Bengali'\", 'বাংলা')")
    loaded = app_page.evaluate("() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert any("Noto Sans Bengali" in family for family in loaded)
    app_page.click("#lang-en")


def test_tabs_work_with_the_keyboard_alone(app_page):
    app_page.focus("#tab-ask")
    app_page.keyboard.press("ArrowRight")
    assert app_page.get_attribute("#tab-evaluate", "aria-selected") == "true"
    assert app_page.evaluate("() => document.activeElement.id") == "tab-evaluate"
    assert app_page.is_visible("#panel-evaluate") and not app_page.is_visible("#panel-ask")
    app_page.keyboard.press("Home")
    assert app_page.get_attribute("#tab-ask", "aria-selected") == "true"
    app_page.keyboard.press("Tab")  # out of the tab list into the panel's first control
    assert app_page.evaluate("() => document.activeElement.id") == "question"


def test_the_page_fits_a_phone_screen(app_page):
    ask_in_ui(app_page, BANGLA_QUESTION)
    try:
        app_page.set_viewport_size({"width": 360, "height": 740})
        overflow = app_page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"the page is {overflow}px wider than a 360px phone screen"
    finally:
        app_page.set_viewport_size({"width": 1100, "height": 1400})


def test_the_js_api_returns_the_clis_json_byte_for_byte(app_page, native_web):
    config = {"retriever": Config().retriever, "k": 3}
    raw = app_page.evaluate("([q, c]) => window.raglab.raw('ask', q, c)", [BANGLA_QUESTION, config])
    assert raw == native_web.ask(BANGLA_QUESTION, json.dumps(config))
    many = [ENGLISH_QUESTION, BANGLA_QUESTION, ""]
    raw_many = app_page.evaluate("([qs, c]) => window.raglab.raw('askMany', qs, c)", [many, config])
    assert raw_many == native_web.ask_many(json.dumps(many), json.dumps(config))
    assert json.loads(raw_many)[2] == {"error": "the question is empty", "line": 3, "question": ""}  # as ask --questions
    text = "২৫,০০০ টাকা ক্যাশ-আউট"
    assert app_page.evaluate("t => window.raglab.raw('analyze', t)", text) == native_web.analyze_text(text)
    error = app_page.evaluate("() => window.raglab.ask('fee', {retriever: 'nope'}).then(() => null, e => [e.type, e.message])")
    assert error[0] == "ValueError" and "unknown retriever 'nope'" in error[1]


ARTICLE_EN = "# Parcel lockers\n\nLockers open from 8 am to 10 pm every day.\n\n## Fees\n\nA locker costs Tk 20 per day.\n"
ARTICLE_BN = "# পার্সেল লকার\n\nলকার প্রতিদিন সকাল ৮টা থেকে রাত ১০টা পর্যন্ত খোলা থাকে।\n"


def _jsonl(rows) -> bytes:
    return ("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n").encode()


def test_your_own_data_is_checked_with_file_line_and_question_id_then_evaluated(app_page):
    app_page.click("#tab-own")
    app_page.click("#own-clear")
    articles = [{"name": "lockers.md", "mimeType": "text/markdown", "buffer": ARTICLE_EN.encode()},
                {"name": "bn-lockers.md", "mimeType": "text/markdown", "buffer": ARTICLE_BN.encode()}]
    good = {"id": "x1", "lang": "en", "kind": "direct", "split": "test", "question": "How much does a locker cost?",
            "answer": "Tk 20 per day.", "evidence": [{"doc": "lockers", "quote": "A locker costs Tk 20 per day."}]}
    bad = dict(good, id="x2", evidence=[{"doc": "lockers", "quote": "Lockers are free."}])
    app_page.set_input_files("#own-articles", articles)
    app_page.set_input_files("#own-questions", {"name": "mine.jsonl", "mimeType": "application/jsonl",
                                                "buffer": _jsonl([good, bad])})
    app_page.click("#own-run")
    app_page.wait_for_selector("#own-result .error-box")
    message = app_page.text_content("#own-result .error-text")
    assert "mine.jsonl:2" in message and "question x2" in message and "quote" in message

    broken_article = {"name": "broken.md", "mimeType": "text/markdown", "buffer": b"no title line here\n"}
    app_page.set_input_files("#own-articles", [broken_article])
    app_page.click("#own-run")
    app_page.wait_for_function("() => /broken\\.md:1/.test(document.querySelector('#own-result')?.textContent || '')")

    app_page.click("#own-clear")
    app_page.set_input_files("#own-articles", articles)
    second = dict(good, id="x3", lang="bn", question="লকার কখন খোলা থাকে?", answer="সকাল ৮টা থেকে রাত ১০টা।",
                  evidence=[{"doc": "bn-lockers", "quote": "লকার প্রতিদিন সকাল ৮টা থেকে রাত ১০টা পর্যন্ত খোলা থাকে।"}])
    app_page.set_input_files("#own-questions", {"name": "mine.jsonl", "mimeType": "application/jsonl",
                                                "buffer": _jsonl([good, second])})
    app_page.click("#own-run")
    app_page.wait_for_selector("#own-report .report-section", timeout=60_000)
    headline = app_page.evaluate("""() => [...document.querySelectorAll('#own-report .report-section[data-title="Headline"] tbody tr')]
        .map(tr => tr.children[0].textContent)""")
    assert Config().label in headline

    question = "What does a locker cost per day?"
    shown = ask_in_ui(app_page, question, corpus="user")
    mine = parse_corpus({a["name"]: a["buffer"].decode() for a in articles})
    native = ask_json(Pipeline(mine, Config()).ask(question))
    assert_same_as_native(shown, native)
    assert not shown["abstained"] and shown["citations"][0].startswith("lockers#")
    app_page.select_option("#corpus", "bundled")


def test_the_page_has_a_strict_csp_and_never_inserts_markup(dist_dir):
    with open(os.path.join(dist_dir, "index.html"), encoding="utf-8") as fh:
        html = fh.read()
    csp = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html).group(1)
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert directives["connect-src"] == "'self'"
    assert not re.search(r"<script(?![^>]*\ssrc=)", html), "inline scripts are not allowed"
    assert " style=" not in html and "<style" not in html
    for name in sorted(os.listdir(os.path.join(ROOT, "js"))):
        with open(os.path.join(ROOT, "js", name), encoding="utf-8") as fh:
            code = fh.read()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in code, f"js/{name} uses {sink}"


def test_dist_serves_micropip_through_a_lock_file_that_matches_it(dist_dir, build_module):
    with open(os.path.join(dist_dir, "pyodide", "pyodide-lock.json"), encoding="utf-8") as fh:
        lock = json.load(fh)
    assert sorted(lock["packages"]) == ["micropip"]  # everything the lock lists is served
    entry = lock["packages"]["micropip"]
    served = os.path.join(dist_dir, "pyodide", entry["file_name"])
    assert entry["sha256"] == build_module.sha256_file(served) == build_module.MICROPIP_SHA256
    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    for path in [manifest["wheel"], manifest["goldens"], *manifest["corpus"]]:
        assert os.path.isfile(os.path.join(dist_dir, *path.split("/"))), path


def test_the_served_wheel_carries_checked_bytecode_for_every_module(dist_dir):
    """The page imports raglab from bytecode compiled by its own Pyodide (no compiling at each
    start), and that bytecode is checked against its source: a stale one is never run."""
    import zipfile

    with open(os.path.join(dist_dir, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    with zipfile.ZipFile(os.path.join(dist_dir, *manifest["wheel"].split("/"))) as zf:
        names = set(zf.namelist())
        record = zf.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
        modules = sorted(n for n in names if n.endswith(".py"))
        assert modules and all(m.startswith("raglab/") for m in modules)
        for module in modules:
            folder, name = module.rsplit("/", 1)
            pyc = f"{folder}/__pycache__/{name[:-3]}.cpython-314.pyc"
            assert pyc in names and pyc + ",sha256=" in record, f"{module}: no bytecode in the wheel"
            header = zf.read(pyc)[:16]
            assert int.from_bytes(header[4:8], "little") == 0b11, f"{pyc}: not checked-hash bytecode"


def test_dist_uses_only_relative_urls(dist_dir):
    with open(os.path.join(dist_dir, "index.html"), encoding="utf-8") as fh:
        urls = re.findall(r'\s(?:src|href)="([^"]*)"', fh.read())
    assert urls and all(not u.startswith("/") and "://" not in u for u in urls), urls
    for name in sorted(n for n in os.listdir(os.path.join(dist_dir, "js")) if n.endswith(".js")):  # not .gz/.br
        with open(os.path.join(dist_dir, "js", name), encoding="utf-8") as fh:
            code = fh.read()
        imports = re.findall(r'from "([^"]+)"', code)
        assert all(i.startswith(("./", "../")) for i in imports), (name, imports)
        assert "://" not in code.replace("http://www.w3.org/2000/svg", ""), name


def test_no_request_left_the_origin_and_nothing_was_blocked(app_page, offsite_requests):
    # Runs after the tests above on the same session page, so it covers all they did.
    assert offsite_requests == []
    refused = [p for p in app_page.problems if "Content Security Policy" in p or "Refused" in p]
    assert refused == []


def test_your_own_data_takes_a_squad_json_file_through_the_importer(app_page):
    """A SQuAD 2.0 file alone (no Markdown) is imported in the worker by raglab.corpus.importers,
    exactly as `raglab import squad` does natively, then checked and evaluated."""
    from raglab.web import api as native_web_module

    path = os.path.join(ROOT, "tests", "data", "squad2-handmade.json")
    with open(path, "rb") as fh:
        data = fh.read()
    app_page.click("#tab-own")
    app_page.click("#own-clear")
    app_page.set_input_files("#own-questions", {"name": "squad2.json", "mimeType": "application/json", "buffer": data})
    app_page.click("#own-run")
    app_page.wait_for_selector("#own-result .own-imported")
    shown = app_page.text_content("#own-result")
    native = json.loads(native_web_module.load_squad("native-squad", path))
    assert f"{native['articles']} articles and {native['questions']} questions" in shown
    assert "no answer_start points at its answer text (1)" in shown
    app_page.wait_for_selector("#own-report .report-section", timeout=120_000)
    app_page.click("#own-clear")
