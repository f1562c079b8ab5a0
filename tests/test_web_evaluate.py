"""The web facade behind the Evaluate and Your-own-data tabs, natively: what the page's
evaluation counts, that its served row is what Ask serves, which threshold own data gets,
how errors name the user's files, and the evaluation's second vector store.

The browser tests (test_browser_owndata.py, test_browser_page.py) check that the page
shows these; here the reference itself is checked.
"""

from __future__ import annotations

import json
import os

import pytest

from helpers import ROOT, questions
from raglab.corpus.articles import CorpusError
from raglab.evaluation import stats
from raglab.evaluation.review import served_text
from raglab.pipeline import Config
from raglab.text import analyzer
from raglab.web import api as web
from raglab.web.compare import progress_detail

LOCKERS = ("# Parcel lockers\n\nLockers open from 8 am to 10 pm every day.\n\n## Fees\n\n"
           "A locker costs Tk 20 per day. A lost key costs Tk 500.\n")


def _row(qid, split, question, answer=None, quote=None):
    evidence = [{"doc": "lockers", "quote": quote}] if quote else []
    return json.dumps({"id": qid, "lang": "en", "kind": "direct" if quote else "unanswerable", "split": split,
                       "question": question, "answer": answer, "evidence": evidence})


def _page_options(**more) -> str:
    """The Evaluate tab's default run (js/evaluate.js): served k, the served row as baseline."""
    d = Config()
    return json.dumps({"split": "test", "chunker": [d.chunker], "retriever": [d.retriever],
                       "expand": "on" if d.expand else "off", "k": d.k, "per_question": True,
                       "baseline": d.label, **more})


def test_the_page_can_evaluate(native_web):
    assert json.loads(native_web.info())["compare"] is True


@pytest.fixture(scope="module")
def page_run(native_web):
    """The Evaluate tab's default run, once for the tests below (it answers every golden
    question): the view it returns and every progress call it made on the way."""
    seen = []
    view = json.loads(native_web.compare_view(_page_options(), lambda *args: seen.append(args)))
    return view, seen


def test_progress_counts_the_questions_asked_and_says_how_many_are_reported(page_run):
    _, seen = page_run
    details = [json.loads(args[3]) for args in seen]
    asked = [d for d in details if d["phase"] == "questions"]
    test = sum(1 for q in questions() if q.split == "test")
    dev = sum(1 for q in questions() if q.split == "dev")
    assert asked and all(d["questions"] == test + dev and d["reported"] == test and d["extra"] == dev for d in asked)
    assert asked[0]["question"] == 1 and asked[0]["config"] == Config().label
    assert details[0]["phase"] == "index" and details[-1] == {"phase": "report", "configs": 1}
    assert progress_detail(0, 2, "fixed+bm25: question 1,201 of 2,003", 2003)["extra"] == 0


def test_the_served_row_is_what_ask_serves(native_web, page_run):
    """At the served k the evaluation tunes the served threshold on dev, and every answer in
    its review is the one Ask shows (the short answers, then the quotes; None for abstaining)."""
    view, _ = page_run
    row = next(r for r in view["report"]["configs"] if r["label"] == Config().label)
    assert row["threshold"] == Config().threshold, "Config.threshold is no longer what compare tunes at the served k"
    rows = [r for r in view["review"]["rows"] if r["config"] == Config().label]
    assert len(rows) == view["report"]["settings"]["questions"]
    for r in rows:
        asked = json.loads(native_web.ask(r["question"], "{}"))
        assert served_text(asked) == r["answer"], r["id"]


FEW_DEV = [_row("d1", "dev", "How much does a locker cost?", "Tk 20 per day.", "A locker costs Tk 20 per day."),
           _row("d2", "dev", "Is there a sauna?"),
           _row("d3", "dev", "When do lockers open?", "From 8 am.", "Lockers open from 8 am to 10 pm every day."),
           _row("t1", "test", "What does a lost key cost?", "Tk 500.", "A lost key costs Tk 500.")]


def test_fewer_than_ten_dev_questions_tune_nothing_and_the_rule_says_so():
    web.load("few-dev", json.dumps({"lockers.md": LOCKERS}), "\n".join(FEW_DEV))
    options = {"split": "all", "chunker": ["recursive"], "retriever": ["bm25"], "expand": "off"}
    row = json.loads(web.compare_view(json.dumps(options), None, "few-dev"))["report"]["configs"][0]
    assert row["threshold"] == Config().threshold and row["tuning"]["n"] == 0
    assert row["tuning"]["rule"] == "3 dev questions, fewer than the 10 a threshold is tuned on: the served threshold"
    assert stats.MIN_TUNING_QUESTIONS == 10


def test_own_data_with_few_dev_questions_keeps_the_served_threshold_and_the_view_says_why():
    web.load("few-dev-served", json.dumps({"lockers.md": LOCKERS}), "\n".join(FEW_DEV))
    d = Config()
    options = {"split": "all", "chunker": [d.chunker], "retriever": [d.retriever], "expand": "on" if d.expand else "off",
               "k": d.k}
    view = json.loads(web.compare_view(json.dumps(options), None, "few-dev-served"))
    assert view["tuned"] is None
    assert view["untuned"] == {"threshold": d.threshold, "dev_questions": 3, "min": 10}
    assert json.loads(web.info("few-dev-served"))["tuned"] is None
    asked = json.loads(web.ask("What does a lost key cost?", "{}", "few-dev-served"))
    assert asked["config"]["threshold"] == d.threshold


def test_errors_name_the_files_as_the_user_chose_them(tmp_path):
    folder = tmp_path / "user"
    (folder / "articles").mkdir(parents=True)
    (folder / "articles" / "lockers.md").write_text(LOCKERS, encoding="utf-8")
    (folder / "pasted-questions.jsonl").write_text(_row("q1", "test", "Where?", "Here.", "Not in it.") + "\n",
                                                   encoding="utf-8")
    summary = json.loads(web.load_dir("named", str(folder / "articles"), str(folder / "pasted-questions.jsonl"),
                                      "pasted questions"))
    assert summary["goldens_problems"][0].startswith("pasted questions:1: question q1: ")
    assert str(folder) not in summary["goldens_error"]
    (folder / "articles" / "bad.md").write_bytes(b"# Bad\n\nNot \xff UTF-8.\n")
    with pytest.raises(CorpusError, match=r"^bad\.md:3: not valid UTF-8"):
        web.load_dir("named", str(folder / "articles"), None, "")
    with pytest.raises(CorpusError, match=f"^{folder}/articles/bad.md:3:"):  # the CLI's way: the path given
        web.load_dir("named", str(folder / "articles"))
    (folder / "mine.json").write_text('{"data": [}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"^mine\.json:1"):
        web.load_squad("named", str(folder / "mine.json"), None, "mine.json")


def test_the_evaluation_vectors_join_the_cache(native_web, tmp_path):
    from raglab.encoder import vectors

    cache = vectors.native_cache()
    key = vectors.text_key("passage: a text no store holds")
    dim = cache.encoder.dim
    store = tmp_path / "evaluation-vectors.bin"
    vectors.write_store(str(store), cache.encoder.digest, dim, {key: bytes(4 * dim)})
    try:
        assert json.loads(native_web.add_vectors(str(store))) == {"vectors": 1}
        assert json.loads(native_web.add_vectors(str(store))) == {"vectors": 0}
    finally:
        cache.known.pop(key, None)
    vectors.write_store(str(store), "0" * 64, dim, {key: bytes(4 * dim)})
    with pytest.raises(ValueError, match="vectors of another model"):
        native_web.add_vectors(str(store))


def test_the_build_ships_the_sentence_chunks_and_golden_questions_for_the_evaluation(build_module):
    assert build_module.EVALUATION_VECTOR_CHUNKERS == ("sentence",)
    assert not set(build_module.EVALUATION_VECTOR_CHUNKERS) & set(build_module.BROWSER_VECTOR_CHUNKERS)
    assert os.path.exists(os.path.join(ROOT, "goldens", "questions.jsonl"))


def test_the_tokens_memo_changes_no_result():
    text = "ক্যাশ আউটের খরচ কত? Cash-out fee: 1.85% (Tk 18.50 per Tk 1,000)."
    fresh = analyzer.fresh_tokens(text)
    with analyzer.memo():
        first = analyzer.tokens(text)
        first.append("mutated by a caller")
        with analyzer.memo():  # nested: the outer memo stays
            assert analyzer.tokens(text) == fresh
        assert analyzer.tokens(text) == fresh
    assert analyzer._MEMO is None
    assert analyzer.tokens(text) == fresh
