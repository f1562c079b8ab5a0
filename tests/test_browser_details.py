"""The page says what it is doing, can be shared and says what it is (the page issue's items 3
and 5 and its list of small things), each checked in Chromium against what native Python
computes or what the page must not do; a check here fails if the thing comes back.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import urllib.parse

import pytest

from helpers import docs
from raglab import __version__
from raglab.pipeline import Config
from test_browser import BANGLA_QUESTION, ENGLISH_QUESTION, ask_in_ui, native_ask, read_result
from test_browser_page import latin_leftovers, run_evaluation, seq_of, wait_for_answer

READY_MS = 180_000
MODEL_FILE = "**/e5-small-raglab.rle5"

# Everything that shows a bar or offers to cancel something.
SHOWN_CONTROLS = """() => [...document.querySelectorAll('progress, #eval-cancel, #own-cancel, #own-vectors-cancel,'
    + ' #ask-cancel-eval')].filter((e) => e.checkVisibility()).map((e) => e.id)"""

RECORDER = """
window.__shown = [];
const look = () => {
  const state = window.raglab ? window.raglab.state + '/' + window.raglab.semantic.state : 'loading';
  const shown = [...document.querySelectorAll('progress, #eval-cancel, #own-cancel, #own-vectors-cancel')]
    .filter((e) => e.checkVisibility()).map((e) => e.id).join(' ');
  const last = window.__shown.at(-1);
  if (!last || last[0] !== state || last[1] !== shown) window.__shown.push([state, shown]);
};
new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
setInterval(look, 50);
"""


@pytest.fixture(scope="module")
def held_model_page(browser_context, site_url):
    """A page whose semantic model download is held back until the test lets it through."""
    page = browser_context.new_page()
    held = []
    page.route(MODEL_FILE, lambda route: held.append(route))
    page.add_init_script(RECORDER)
    page.goto(site_url)
    page.wait_for_function("() => window.raglab && window.raglab.state === 'ready'", timeout=READY_MS)
    page.held = held
    yield page
    page.close()


def test_no_progress_bar_or_cancel_is_shown_unless_something_runs(held_model_page):
    page = held_model_page
    page.wait_for_function("() => window.raglab.semantic.state === 'loading'", timeout=READY_MS)
    seen = page.evaluate("() => window.__shown")
    # While Python starts: the start-up's own bar, nothing else; nothing once it is ready, but
    # the semantic model's bar while that downloads (it is running).
    for state, shown in seen:
        allowed = {"loading": {"", "boot-progress"}, "starting": {"", "boot-progress"}}.get(state.split("/")[0])
        if allowed is None:  # ready
            allowed = {"", "semantic-progress"} if state.endswith(("/loading", "/idle")) else {""}
        assert shown in allowed, f"{shown!r} shown while {state}: {seen}"
    for tab in ("#tab-evaluate", "#tab-own", "#tab-ask"):
        page.click(tab)
        assert page.evaluate(SHOWN_CONTROLS) == ["semantic-progress"], tab


def test_a_question_waiting_for_the_model_says_so_and_its_time_excludes_the_wait(held_model_page, native_web):
    page = held_model_page
    assert Config().retriever in page.evaluate("() => window.raglab.info.semantic")
    before = seq_of(page, "#result")
    page.fill("#question", BANGLA_QUESTION)
    started = time.perf_counter()
    page.press("#question", "Enter")
    page.wait_for_function("() => /^Waiting for the semantic model \\(\\d+ of 24 MB\\)…$/"
                           ".test(document.getElementById('ask-status').textContent)")
    time.sleep(2.0)  # the model stays out for a while: the question waits
    status = page.text_content("#ask-status")
    assert page.evaluate(SHOWN_CONTROLS) == ["semantic-progress"]
    for route in page.held:
        route.continue_()
    wait_for_answer(page, before, BANGLA_QUESTION)
    waited = time.perf_counter() - started
    shown = read_result(page)
    native = native_ask(BANGLA_QUESTION)
    assert shown["chunks"] == [c["id"] for c in native["chunks"]]
    answered_ms = int(re.fullmatch(r"Answered in (\d+) ms(?: · .*)?", page.text_content("#result .timing")).group(1))
    print(f"[details] {status!r}; waited {waited:.1f} s, reported {answered_ms} ms")
    assert answered_ms < (waited - 2.0) * 1000, "the reported time includes the wait for the model"
    page.wait_for_function("() => window.raglab.semantic.state === 'ready'")
    assert page.evaluate(SHOWN_CONTROLS) == []


def test_a_link_opens_the_page_and_asks_its_question(browser_context, site_url, native_web):
    config = {"chunker": "recursive", "retriever": "bm25", "k": 3, "expand": True}
    link = "#" + urllib.parse.urlencode({"q": ENGLISH_QUESTION, "chunker": "recursive", "retriever": "bm25", "k": "3",
                                         "expand": "on"})
    page = browser_context.new_page()
    try:
        page.goto(site_url + link)
        page.wait_for_function("q => document.getElementById('result').dataset.question === q", arg=ENGLISH_QUESTION,
                               timeout=READY_MS)
        shown = read_result(page)
        native = native_ask(ENGLISH_QUESTION, **config)
        assert shown["config"] == native["config"] and shown["answer"] == native["answer"]
        assert shown["chunks"] == [c["id"] for c in native["chunks"]]
        assert page.input_value("#question") == ENGLISH_QUESTION
        # Asking in the page writes the question and configuration into the address.
        shown = ask_in_ui(page, BANGLA_QUESTION, retriever="bm25", k=5)
        # (written once the answer is painted)
        page.wait_for_function("q => new URLSearchParams(window.location.hash.slice(1)).get('q') === q",
                               arg=BANGLA_QUESTION, timeout=5000)
        params = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).fragment)
        assert params == {"q": [BANGLA_QUESTION], "chunker": [Config().chunker], "retriever": ["bm25"], "k": ["5"],
                          "expand": ["on" if Config().expand else "off"]}
        assert page.get_attribute("#share-link", "href") == "#" + urllib.parse.urlparse(page.url).fragment
        # A link pasted into an open page asks it too; a setting the page does not offer falls back.
        before = seq_of(page, "#result")
        page.evaluate("h => { window.location.hash = h; }",
                      "#" + urllib.parse.urlencode({"q": ENGLISH_QUESTION, "retriever": "nope", "k": "3"}))
        wait_for_answer(page, before, ENGLISH_QUESTION)
        served = read_result(page)["config"]
        assert served["retriever"] == Config().retriever and served["k"] == 3
    finally:
        page.close()


def test_the_about_panel_names_the_model_versions_and_digests(app_page, dist_dir):
    with open(os.path.join(dist_dir, "manifest.json"), "rb") as fh:
        manifest_bytes = fh.read()
    manifest = json.loads(manifest_bytes)
    footer = app_page.text_content("#foot")
    assert "multilingual-e5-small" in footer and "MIT licence" in footer and __version__ in footer
    app_page.click("#about-open")
    try:
        app_page.wait_for_selector("#about-dialog[open]")
        model = app_page.text_content("#about-model")
        assert model.startswith("multilingual-e5-small") and "MIT licence" in model
        assert app_page.text_content("#about-raglab") == __version__
        python = app_page.evaluate("() => window.raglab.info.python")
        assert app_page.text_content("#about-python") == f"{python} · Pyodide {manifest['pyodide']}"
        assert "Nothing leaves this browser" in app_page.text_content("#about-private")
        listed = app_page.evaluate("""() => [...document.querySelectorAll('#about-loaded li')]
            .map((li) => [li.dataset.path, li.querySelector('.digest').textContent])""")
        expected = {"manifest.json": hashlib.sha256(manifest_bytes).hexdigest()}
        expected.update({path: entry["sha256"] for path, entry in manifest["files"].items()})
        assert listed and all(expected[path] == digest for path, digest in listed)
        assert {path for path, _ in listed} >= {"manifest.json", manifest["wheel"], manifest["encoder"]["model"]["path"]}
        every = app_page.eval_on_selector_all(".about-all li", "ls => ls.length")
        assert every == len(manifest["files"])
        app_page.click("#about-close")
        app_page.click("#lang-bn")
        app_page.click("#about-open")
        app_page.wait_for_selector("#about-dialog[open]")
        assert app_page.text_content("#about-title") == "এই পেজের পরিচিতি"
        assert latin_leftovers(app_page) == []
        assert ascii_digits(app_page) == []
    finally:
        if app_page.is_visible("#about-close"):
            app_page.click("#about-close")
        app_page.click("#lang-en")


def test_enter_on_an_example_keeps_the_focus_on_that_example(app_page):
    app_page.click("#tab-ask")
    app_page.select_option("#corpus", "bundled")
    button = app_page.locator("#examples .example").nth(1)
    example_id, question = button.get_attribute("data-id"), button.text_content()
    before = seq_of(app_page, "#result")
    button.focus()
    app_page.keyboard.press("Enter")
    wait_for_answer(app_page, before, question)
    app_page.wait_for_selector(f'#examples .example[data-id="{example_id}"] ~ .verdict-mark')
    assert app_page.evaluate("() => [document.activeElement.className, document.activeElement.dataset.id]") == [
        "example", example_id]


OVERLAPS = """() => {
    const rects = [];
    for (const m of document.querySelectorAll('#article-body mark')) for (const r of m.getClientRects()) rects.push(r);
    const out = [];
    for (const a of rects) for (const b of rects) {
        const below = b.top - a.top > 2;  // b on a later line than a
        const across = a.left < b.right && b.left < a.right;
        if (below && across && a.bottom > b.top + 0.5) out.push([a.top, a.bottom, b.top, b.bottom]);
    }
    return [rects.length, out];
}"""


@pytest.mark.parametrize("lang, question", [("en", ENGLISH_QUESTION), ("bn", BANGLA_QUESTION)])
def test_article_highlights_stay_on_their_own_lines(app_page, lang, question):
    ask_in_ui(app_page, question)
    app_page.click("#citations .citation >> nth=0")
    app_page.wait_for_selector("#article-dialog[open]")
    try:
        count, overlaps = app_page.evaluate(OVERLAPS)
        assert count >= 2, "the cited passage should span several lines"
        assert overlaps == [], f"highlights cover neighbouring lines: {overlaps[:3]}"
    finally:
        app_page.click("#article-close")


def test_tables_show_an_edge_shadow_only_where_more_of_them_is_hidden(app_page):
    ask_in_ui(app_page, ENGLISH_QUESTION)  # the cash-out article has tables
    app_page.click("#citations .citation >> nth=0")
    app_page.wait_for_selector("#article-dialog[open]")
    box = "#article-body .table-scroll >> nth=0"
    state = """b => [b.className, getComputedStyle(b).backgroundImage, b.scrollWidth > b.clientWidth]"""
    try:
        cls, image, overflows = app_page.eval_on_selector(box, state)
        assert not overflows and image == "none" and "more-" not in cls
        app_page.eval_on_selector(box, "b => { b.style.width = '40px'; }")  # narrower than its longest word: it cannot fit
        app_page.wait_for_function("() => document.querySelectorAll('#article-body .table-scroll')[0]"
                                   ".classList.contains('more-right')")
        cls, image, overflows = app_page.eval_on_selector(box, state)
        assert overflows and "more-left" not in cls and image.startswith("radial-gradient")
        app_page.eval_on_selector(box, "b => { b.scrollLeft = b.scrollWidth; }")
        app_page.wait_for_function("() => document.querySelectorAll('#article-body .table-scroll')[0]"
                                   ".classList.contains('more-left')")
        assert "more-right" not in app_page.eval_on_selector(box, "b => b.className")
    finally:
        app_page.eval_on_selector(box, "b => { b.style.width = ''; }")
        app_page.click("#article-close")


def effective_langs(page) -> dict:
    return page.evaluate("""() => {
        const of = (sel) => { const e = document.querySelector(sel); return e ? e.closest('[lang]').lang : null; };
        return {area: document.getElementById('result').getAttribute('lang'), answer: of('#answer-text'),
                heading: of('#answer h2'), sources: of('.citations-label'), timing: of('#result .timing'),
                top: of('#top-title'), title: of('#chunks .title')};
    }""")


def test_the_result_area_gives_lang_to_question_and_answer_text_only(app_page):
    doc_lang = {d.id: d.lang for d in docs()}
    try:
        for ui, question in (("en", BANGLA_QUESTION), ("bn", ENGLISH_QUESTION)):
            app_page.click(f"#lang-{ui}")
            shown = ask_in_ui(app_page, question)
            native = native_ask(question)
            assert not native["abstained"], "this test needs an answered question"
            langs = effective_langs(app_page)
            expected = {"area": None, "answer": doc_lang[native["citations"][0].split("#")[0]], "heading": ui,
                        "sources": ui, "timing": ui, "top": ui, "title": doc_lang[native["chunks"][0]["doc"]]}
            assert langs == expected, (ui, langs)
            assert shown["lang"] == ("bn" if question == BANGLA_QUESTION else "en")  # the question's, kept as data
    finally:
        app_page.click("#lang-en")


# Latin names whose digits belong to the name: configuration labels (bm25), metric names
# (recall@5, MRR@10, misleading@1, F1), chunk ids and sha256 digests are shown as code.
NAMES_WITH_DIGITS = re.compile(r"[A-Za-z][\w+-]*@?\d*[\w+-]*|\d+(?=[a-z])")


def ascii_digits(page) -> list[str]:
    """Interface text of the Bangla interface with a Western digit outside a name."""
    texts = page.evaluate("""() => {
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const host = node.parentElement;
            if (!host || !/[0-9]/.test(node.textContent)) continue;
            if (host.closest('[hidden], dialog:not([open]), script, style, .lang-switch')) continue;
            if (host.closest('[data-content], pre, code, .example, #result blockquote, .chunk-text, .heading-path,'
                + ' .title, .chunk-id, .cite-id, .closest-link, .reference-text, .review-row th, .review-served,'
                + ' .review-reference, .term, .chart .label, [lang="en"]:not([data-i18n]):not([data-ui-lang])')) continue;
            out.push(node.textContent.trim());
        }
        for (const select of document.querySelectorAll('#k')) out.push(select.selectedOptions[0].textContent);
        return out;
    }""")
    return [text for text in texts if re.search(r"[0-9]", NAMES_WITH_DIGITS.sub("", text))]


NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def numbers(text: str) -> list[str]:
    western = text.translate({0x09E6 + i: str(i) for i in range(10)})
    return sorted(n.replace(",", "") for n in NUMBER.findall(western))


FINDINGS = ["Harm and selective answering", "Risk-coverage", "Contextual precision and recall (on spans)",
            "Is the golden set big enough?", "Recommendation"]


def test_the_report_speaks_one_language_and_one_digit_script_and_shows_no_markdown(app_page):
    """English notes show `code` as code; in Bangla the findings notes are translated with
    every number of the English note, and every number is in Bangla digits."""
    before = run_evaluation(app_page, ["fixed", "recursive"], ["bm25"], "off")
    app_page.wait_for_function("seq => Number(document.getElementById('eval-result').dataset.seq || 0) > seq",
                               arg=before, timeout=READY_MS)
    note_texts = """() => Object.fromEntries([...document.querySelectorAll('#eval-result .report-section')]
        .map((s) => [s.dataset.title, [...s.querySelectorAll('.note')].map((n) => n.textContent)]))"""
    english = app_page.evaluate(note_texts)
    numeric_cells = "() => document.querySelectorAll('#eval-result td.num').length"
    right_aligned = app_page.evaluate(numeric_cells)
    assert set(FINDINGS) <= set(english)
    for title, notes in english.items():
        assert not any("`" in n or re.search(r"\*\w", n) for n in notes), (title, notes)
    assert app_page.eval_on_selector_all("#eval-result .report-section .note code", "cs => cs.length") > 0
    app_page.click("#lang-bn")
    try:
        bangla = app_page.evaluate(note_texts)
        for title in FINDINGS:
            assert len(bangla[title]) == len(english[title])
            for en, bn in zip(english[title], bangla[title]):
                assert re.search("[\u0980-\u09ff]", bn), (title, bn)
                assert numbers(bn) == numbers(en), (title, en, bn)
        assert latin_leftovers(app_page) == []
        assert ascii_digits(app_page) == []
        assert app_page.evaluate(numeric_cells) == right_aligned  # Bangla digits are numbers too
        app_page.click("#tab-ask")
        ask_in_ui(app_page, BANGLA_QUESTION, retriever="bm25")
        assert latin_leftovers(app_page) == []
        assert ascii_digits(app_page) == []
        assert app_page.text_content("#settings-summary").startswith(f"{Config().chunker}+bm25")
    finally:
        app_page.click("#lang-en")
        # the page is shared: leave it on the served retriever, as later tests expect it
        if app_page.input_value("#retriever") != Config().retriever:
            app_page.select_option("#retriever", Config().retriever)
    # In English the digits are Western everywhere (Bangla ones only in Bangla content).
    assert not re.search("[\u09e6-\u09ef]", app_page.text_content("#settings-summary") + app_page.text_content("#result .timing"))


def test_python_rounding_is_what_the_page_prints(app_page):
    """The page formats numbers as Python's format() does, ties included (toFixed rounds them up)."""
    cases = [(0.0625, 3), (0.125, 2), (0.375, 2), (2.5, 0), (3.5, 0), (-0.0625, 3), (0.8125, 3), (1.0005, 3),
             (0.1, 3), (123.456, 1), (0.05, 1), (0.25, 1), (0.35, 1), (-2.5, 0), (1e-7, 3), (0.30000000000000004, 2)]
    shown = app_page.evaluate("cs => import('./js/i18n.js').then((m) => cs.map(([x, d]) => m.fixed(x, d)))", cases)
    assert shown == [f"{x:.{d}f}" for x, d in cases]


def test_a_citation_outside_the_passages_shown_opens_its_article(app_page):
    # "ekdine koybar cash out kora jay?" is answered in Bangla from the twin article's unit, whose chunk is not
    # among the top three passages: the page still lists the citation, titled, and opens it on the quote.
    shown = ask_in_ui(app_page, "ekdine koybar cash out kora jay?")
    cited = app_page.eval_on_selector_all("#citations .citation", "bs => bs.map(b => b.dataset.chunk)")
    passages = app_page.eval_on_selector_all("#chunks [data-id]", "xs => xs.map(x => x.dataset.id)")
    assert cited and cited[0].startswith("bn-cash-out#") and cited[0] not in passages, (cited, passages, shown)
    app_page.wait_for_function("() => document.querySelector('#citations .citation span[lang]').textContent !== 'bn-cash-out'")
    app_page.click("#citations .citation >> nth=0")
    app_page.wait_for_selector("#article-dialog[open]")
    try:
        assert app_page.get_attribute("#article-body", "data-doc") == "bn-cash-out"
        marked = app_page.eval_on_selector_all("#article-body .evidence", "ms => ms.map(m => m.textContent).join('')")
        assert "৫ বার" in marked
    finally:
        app_page.click("#article-close")
