"""The Evaluate tab's default run, as a user starts it: it needs no long encode (the sentence
chunks' vectors ship), its status says in words what it is doing with counts that match the
report, and the report's served row answers exactly what the Ask tab serves."""

from __future__ import annotations

import json
import re

from helpers import questions
from raglab.evaluation import review
from raglab.pipeline import Config

WATCH_STATUS = """() => {
  window.__statuses = [];
  const status = document.getElementById('eval-status');
  new MutationObserver(() => {
    const text = status.textContent;
    if (text && window.__statuses.at(-1) !== text) window.__statuses.push(text);
  }).observe(status, { childList: true, characterData: true, subtree: true });
}"""

SERVED_ROWS = """() => [...document.querySelectorAll('#eval-result .review-item')].map((item) =>
  [item.dataset.id, item.querySelector('.review-served').textContent])"""


def served_text(result: dict) -> str:
    """What the review shows as the served answer for an `ask` result: the evaluation's own
    rule (short answers, then the quotes, one per line), or js/review.js's abstention label."""
    shown = review.served_text(result)
    return "(abstained)" if shown is None else shown


def bangla(n: int) -> str:
    return str(n).translate({ord("0") + i: 0x09E6 + i for i in range(10)})


def test_the_default_evaluation_says_what_it_does_and_serves_what_ask_serves(app_page, native_web):
    d = Config()
    page = app_page
    page.click("#lang-en")
    page.click("#tab-evaluate")
    page.select_option("#eval-split", "test")
    for box in page.query_selector_all("#eval-chunkers input"):
        box.set_checked(True)
    for box in page.query_selector_all("#eval-retrievers input"):
        box.set_checked(box.get_attribute("value") in ("bm25", d.retriever))
    page.select_option("#eval-expand", "on" if d.expand else "off")
    page.evaluate(WATCH_STATUS)
    before = int(page.get_attribute("#eval-result", "data-seq") or 0)
    page.click("#eval-run")
    page.wait_for_function("s => Number(document.getElementById('eval-result').dataset.seq || 0) > s",
                           arg=before, timeout=300_000)
    statuses = page.evaluate("() => window.__statuses")

    test = sum(1 for q in questions() if q.split == "test")
    dev = sum(1 for q in questions() if q.split == "dev")
    assert not [s for s in statuses if s.startswith("Encoding")], "the sentence chunks were encoded in the page"
    asking = [s for s in statuses if " question " in s]
    pattern = (rf"Evaluating [a-z0-9+-]+ \([1-6] of 6\): question \d+ of {test + dev} "
               rf"\({test} test questions for the report and {dev} dev questions that tune the threshold\)…")
    assert asking and all(re.fullmatch(pattern, s) for s in asking), asking[:3]
    assert any(s.startswith(f"Evaluating {d.label} (") for s in asking)
    assert re.fullmatch(rf"Done in [\d.]+ s: 6 configurations, {test} test questions in the report "
                        rf"\({dev} dev questions tuned the thresholds\)\.", statuses[-1]), statuses[-1]
    headline = page.text_content('#eval-result .report-section[data-title="Headline"] .note')
    assert f"{test} questions" in headline and f"k = {d.k}" in headline
    assert f"-k {d.k}" in page.text_content("#eval-result .command")

    # The served row's answer review is what Ask serves, question for question.
    assert page.input_value("#eval-result .review-config") == d.label
    page.click('#eval-result .review-filter[data-verdict="all"]')
    rows = page.evaluate(SERVED_ROWS)
    assert len(rows) == test
    text_of = {q.id: q.question for q in questions()}
    asked = page.evaluate("(qs) => window.raglab.askMany(qs, {})", [text_of[qid] for qid, _ in rows])
    differ = [qid for (qid, shown), result in zip(rows, asked) if shown != served_text(result)]
    assert not differ, f"{len(differ)} served answers in the review differ from Ask's, first {differ[:3]}"
    native = json.loads(native_web.ask(text_of[rows[0][0]], "{}"))
    assert served_text(native) == rows[0][1]

    page.click("#lang-bn")
    try:
        assert re.fullmatch(rf"[০-৯.]+ সেকেন্ডে শেষ: ৬টি কনফিগারেশন, রিপোর্টে টেস্ট \(test\) স্প্লিটের {bangla(test)}টি প্রশ্ন "
                            rf"\(সীমা ঠিক করেছে dev স্প্লিটের {bangla(dev)}টি প্রশ্ন\)।", page.text_content("#eval-status"))
    finally:
        page.click("#lang-en")
