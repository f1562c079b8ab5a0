"""The Evaluate tab's default run, as a user starts it, run once for every test below (an
evaluation in the page is a minute of the suite): it needs no long encode (the sentence chunks'
vectors ship), its status says in words what it is doing with counts that match the report,
what it draws is native `compare`'s report to the last digit (the evaluation's arithmetic in
Pyodide: metrics, intervals, tuning, attribution, findings) and the CLI's tables, and its served
row answers exactly what the Ask tab serves; its answer review opens on the wrong answers and
filters by verdict; and in Bangla nothing of the interface around it is left in English."""

from __future__ import annotations

import json
import os
import re

import pytest

from helpers import questions
from parity_support import first_difference
from raglab.evaluation import review
from raglab.evaluation.report import headline as headline_table
from raglab.evaluation.report import render
from raglab.evaluation.report import sections as report_sections
from raglab.pipeline import Config
from test_browser import BANGLA_QUESTION, ask_in_ui
from test_browser_page import latin_leftovers, too_wide

WATCH_STATUS = """() => {
  window.__statuses = [];
  const status = document.getElementById('eval-status');
  new MutationObserver(() => {
    const text = status.textContent;
    if (text && window.__statuses.at(-1) !== text) window.__statuses.push(text);
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""

# The options the tab sends and the view it draws, kept as the page's client hands them over
# (the page itself keeps neither); the client's own method is put back by RELEASE_VIEW.
KEEP_VIEW = """() => {
  const client = window.raglab;
  const own = client.compareView;
  window.__evalOptions = window.__evalView = undefined;
  window.__releaseView = () => { client.compareView = own; };
  client.compareView = async (options, ...rest) => {
    window.__evalOptions = options;
    const view = await own.call(client, options, ...rest);
    window.__evalView = view;
    return view;
  };
}"""
RELEASE_VIEW = "() => window.__releaseView()"

SERVED_ROWS = """() => [...document.querySelectorAll('#eval-result .review-item')].map((item) =>
  [item.dataset.id, item.querySelector('.review-served').textContent])"""


def served_text(result: dict) -> str:
    """What the review shows as the served answer for an `ask` result: the evaluation's own
    rule (short answers, then the quotes, one per line), or js/review.js's abstention label."""
    shown = review.served_text(result)
    return "(abstained)" if shown is None else shown


def bangla(n: int) -> str:
    return str(n).translate({ord("0") + i: 0x09E6 + i for i in range(10)})


def numbers_as_floats(value):
    """JSON as the page hands it over: the page's JSON.parse reads 3.0 as 3, so a whole number
    cannot say whether Python wrote it as an int or a float; values are compared, not spellings
    (the spellings, byte for byte, in tests/test_parity_engine.py)."""
    if isinstance(value, dict):
        return {k: numbers_as_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [numbers_as_floats(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


@pytest.fixture(scope="module")
def default_run(app_page, native_web):
    """The tab's default run (the served chunker, BM25 and the served retriever, the served expansion,
    on the test split, as js/evaluate.js preselects the form), started by a click; native
    `compare_view` on the options the tab sent runs meanwhile (two cores).
    Returns (page, statuses, the page's view, native's view)."""
    d = Config()
    page = app_page
    page.click("#lang-en")
    page.click("#tab-evaluate")
    page.select_option("#eval-split", "test")
    for box in page.query_selector_all("#eval-chunkers input"):
        box.set_checked(box.get_attribute("value") == d.chunker)
    for box in page.query_selector_all("#eval-retrievers input"):
        box.set_checked(box.get_attribute("value") in ("bm25", d.retriever))
    page.select_option("#eval-expand", "on" if d.expand else "off")
    page.evaluate(WATCH_STATUS)
    page.evaluate(KEEP_VIEW)
    try:
        before = int(page.get_attribute("#eval-result", "data-seq") or 0)
        page.click("#eval-run")
        page.wait_for_function("() => window.__evalOptions !== undefined")
        options = page.evaluate("() => window.__evalOptions")
        native = json.loads(native_web.compare_view(json.dumps(options)))
        page.wait_for_function("s => Number(document.getElementById('eval-result').dataset.seq || 0) > s",
                               arg=before, timeout=300_000)
        view = page.evaluate("() => window.__evalView")
    finally:
        page.evaluate(RELEASE_VIEW)
    assert view is not None, "the tab's run failed: " + page.text_content("#eval-status")
    return page, page.evaluate("() => window.__statuses"), view, native


def test_the_view_is_natives_to_the_last_digit(default_run):
    _, _, view, native = default_run
    assert view["report"]["settings"]["split"] == "test" and len(view["report"]["configs"]) == 2
    diff = first_difference(numbers_as_floats(native), numbers_as_floats(view))
    assert diff is None, f"the tab's view differs from native at {diff[0]}: native {diff[1]!r} vs page {diff[2]!r}"


def test_the_status_says_what_it_does_in_both_languages(default_run):
    d = Config()
    page, statuses, _, _ = default_run
    test = sum(1 for q in questions() if q.split == "test")
    dev = sum(1 for q in questions() if q.split == "dev")
    assert not [s for s in statuses if s.startswith("Encoding")], "the sentence chunks were encoded in the page"
    asking = [s for s in statuses if " question " in s]
    pattern = (rf"Evaluating [a-z0-9+-]+ \([12] of 2\): question \d+ of {test + dev} "
               rf"\({test} test questions for the report and {dev} dev questions that tune the threshold\)…")
    assert asking and all(re.fullmatch(pattern, s) for s in asking), asking[:3]
    assert any(s.startswith(f"Evaluating {d.label} (") for s in asking)
    assert re.fullmatch(rf"Done in [\d.]+ s: 2 configurations, {test} test questions in the report "
                        rf"\({dev} dev questions tuned the thresholds\)\.", statuses[-1]), statuses[-1]
    headline = page.text_content('#eval-result .report-section[data-title="Headline"] .note')
    assert f"{test} questions" in headline and f"k = {d.k}" in headline
    assert f"-k {d.k}" in page.text_content("#eval-result .command")
    page.click("#lang-bn")
    try:
        assert re.fullmatch(rf"[০-৯.]+ সেকেন্ডে শেষ: ২টি কনফিগারেশন, রিপোর্টে টেস্ট \(test\) স্প্লিটের {bangla(test)}টি প্রশ্ন "
                            rf"\(সীমা ঠিক করেছে dev স্প্লিটের {bangla(dev)}টি প্রশ্ন\)।", page.text_content("#eval-status"))
    finally:
        page.click("#lang-en")


def test_the_tab_draws_the_clis_tables_and_charts(default_run):
    page, _, _, native = default_run
    report = native["report"]
    headline = page.evaluate("""() => {
        const section = document.querySelector('#eval-result .report-section[data-title="Headline"]');
        return [...section.querySelectorAll('tbody tr')].map(tr => [...tr.children].map(c => c.textContent));
    }""")
    assert headline == headline_table(report)["rows"]
    n = len(report["configs"])
    assert page.eval_on_selector_all("#eval-result .chart .dot", "ds => ds.length") == n
    # The risk-coverage chart: one line per configuration, the recommended one highlighted, and
    # the closing recommendation section as the CLI renders it.
    assert page.eval_on_selector_all("#eval-result .risk-chart polyline", "ls => ls.length") == n
    assert page.eval_on_selector_all("#eval-result .risk-chart polyline.pick", "ls => ls.length") == 1
    notes = page.eval_on_selector_all('#eval-result .report-section[data-title="Recommendation"] .note',
                                      "ns => ns.map(n => n.textContent)")
    # (the notes' Markdown `code` is shown as code, without the backticks)
    expected = next(s for s in report_sections(report) if s["title"] == "Recommendation")["notes"]
    assert notes == [note.replace("`", "") for note in expected]
    assert page.eval_on_selector_all('#eval-result .report-section[data-title="Recommendation"] .note code',
                                     "cs => cs.length") > 0
    assert page.eval_on_selector_all("#eval-result .drill tbody tr", "rs => rs.length") > 0
    summary = {k: v for k, v in report.items() if k != "questions"}
    assert page.text_content("#eval-result .cli-text pre") == render(summary, "text")


def test_the_answer_review_lists_wrong_answers_first_with_filters(default_run, artifacts_dir):
    served = Config()
    app_page, _, _, native = default_run
    rows = [r for r in native["review"]["rows"] if r["config"] == served.label]

    def shown():
        return app_page.evaluate("""() => [...document.querySelectorAll('#eval-result .review-item')]
            .map(b => [b.dataset.id, b.dataset.verdict])""")

    pressed = app_page.get_attribute('#eval-result .review-filter[aria-pressed="true"]', "data-verdict")
    assert pressed == "wrong", "answered wrongly is the filter a team opens first"
    assert shown() == [[r["id"], "wrong"] for r in rows if r["verdict"] == "wrong"]
    for verdict in ("wrongly-abstained", "abstained", "right", "all"):
        app_page.click(f'#eval-result .review-filter[data-verdict="{verdict}"]')
        assert shown() == [[r["id"], r["verdict"]] for r in rows if verdict in ("all", r["verdict"])], verdict
        count = sum(1 for r in rows if verdict in ("all", r["verdict"]))
        assert app_page.text_content(f'#eval-result .review-filter[data-verdict="{verdict}"]').endswith(f"({count})")
    app_page.click('#eval-result .review-filter[data-verdict="wrong"]')
    first = next(r for r in rows if r["verdict"] == "wrong")
    item = f'#eval-result .review-item[data-id="{first["id"]}"]'
    assert app_page.text_content(f"{item} .review-row th") == first["question"]
    assert app_page.is_hidden(f"{item} .review-detail")
    app_page.click(f"{item} .review-toggle")
    assert app_page.text_content(f"{item} .review-served") == (first["answer"] or "(abstained)")
    assert app_page.text_content(f"{item} .review-reference") == first["reference"]
    app_page.locator("#eval-result .review-section").screenshot(path=os.path.join(artifacts_dir, "review-table.png"))

    # The same table on a phone: three key columns, nothing cut off.
    app_page.set_viewport_size({"width": 390, "height": 844})
    try:
        overflow = app_page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, too_wide(app_page)
        table = app_page.evaluate("() => { const t = document.querySelector('#eval-result table.review');"
                                  " return [t.scrollWidth, t.parentElement.clientWidth]; }")
        assert table[0] <= table[1] + 1, f"the review table is {table[0]}px in {table[1]}px"
    finally:
        app_page.set_viewport_size({"width": 1100, "height": 1400})


def test_the_served_row_answers_what_ask_serves(default_run, native_web):
    d = Config()
    page, _, _, _ = default_run
    assert page.input_value("#eval-result .review-config") == d.label
    page.click('#eval-result .review-filter[data-verdict="all"]')
    rows = page.evaluate(SERVED_ROWS)
    assert len(rows) == sum(1 for q in questions() if q.split == "test")
    text_of = {q.id: q.question for q in questions()}
    asked = page.evaluate("(qs) => window.raglab.askMany(qs, {})", [text_of[qid] for qid, _ in rows])
    differ = [qid for (qid, shown), result in zip(rows, asked) if shown != served_text(result)]
    assert not differ, f"{len(differ)} served answers in the review differ from Ask's, first {differ[:3]}"
    native = json.loads(native_web.ask(text_of[rows[0][0]], "{}"))
    assert served_text(native) == rows[0][1]


def test_the_bangla_interface_has_no_english_interface_text(default_run, artifacts_dir):
    # With the Evaluate tab holding a whole report, and the Ask tab an answer.
    app_page = default_run[0]
    app_page.click("#lang-bn")
    try:
        app_page.click("#tab-ask")
        ask_in_ui(app_page, BANGLA_QUESTION)
        for tab in ("#tab-ask", "#tab-evaluate", "#tab-own"):
            app_page.click(tab)
            if tab == "#tab-evaluate":
                app_page.click('#eval-result .review-filter[data-verdict="all"]')
                app_page.click("#eval-result .review-toggle")
            bad = latin_leftovers(app_page)
            assert bad == [], f"English interface text in the Bangla {tab[5:]} tab: {bad[:20]}"
        app_page.click("#tab-evaluate")
        titles = app_page.eval_on_selector_all("#eval-result .report-section h3", "hs => hs.map(h => h.textContent)")
        assert "মূল ফলাফল" in titles
        app_page.click('#eval-result .review-filter[data-verdict="wrong"]')
        app_page.evaluate("() => window.scrollTo(0, 0)")
        app_page.screenshot(path=os.path.join(artifacts_dir, "evaluate-bn.png"))
    finally:
        app_page.click("#lang-en")
        app_page.click("#tab-ask")
