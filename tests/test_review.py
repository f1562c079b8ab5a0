"""Answer review (raglab.evaluation.review), every problem of a golden file, and the web facade's
own-data threshold: the Python side of what the page's review table and Your-own-data tab show."""

from __future__ import annotations

import json

import pytest

from helpers import docs, questions
from raglab.corpus.goldens import GoldenError, parse_goldens
from raglab.evaluation import engine as evaluation
from raglab.evaluation import review
from raglab.pipeline import Config
from raglab.web import api as web


def test_verdicts_follow_the_reference_fact_and_abstentions():
    assert review.verdict(True, "The fee is Tk 18.50 per Tk 1,000 (1.85%).", "1.85% fee") == "right"
    assert review.verdict(True, "The fee is 1.95% at an ATM.", "1.85%") == "wrong"
    assert review.verdict(True, None, "1.85%") == "wrongly-abstained"
    assert review.verdict(False, None, None) == "abstained"
    assert review.verdict(False, "Lockers are free.", None) == "wrong"
    # `raglab ask --json`: short answers are objects (text and offsets), one per fact
    shorts = [{"text": "Tk 20", "start": 4, "end": 9}, {"text": "2 days", "start": 20, "end": 26}]
    # What the page shows is judged: the short answers (in bold, first), then the quotes.
    assert review.served_text({"abstained": False, "answer": "long sentence", "short_answer": shorts[0],
                               "short_answers": shorts}) == "Tk 20\n2 days\nlong sentence"
    assert review.served_text({"abstained": False, "answer": "long sentence", "short_answers": []}) == "long sentence"
    assert review.served_text({"abstained": True, "answer": None}) is None


def test_the_stage_that_lost_it():
    assert review.lost_at("right", "served") is None
    assert review.lost_at("wrong", "served") == "answerer"
    assert review.lost_at("wrongly-abstained", "served") == "threshold"
    assert review.lost_at("wrong", None) == "threshold"  # answered an unanswerable question
    assert review.lost_at("wrong", "retriever") == "retriever"


@pytest.fixture(scope="module")
def report():
    configs = evaluation.grid(["recursive"], ["bm25"], (False, True))
    return evaluation.run(list(docs()), list(questions()), configs, split="test", per_question=True)


def test_review_rows_cover_every_question_and_configuration(report):
    got = review.review(report, list(questions()))
    assert len(got["rows"]) == len(report["questions"])
    for label, counts in got["counts"].items():
        assert sum(counts.values()) == report["settings"]["questions"]
    by_id = {q.id: q for q in questions()}
    for row in got["rows"]:
        q = by_id[row["id"]]
        assert row["reference"] == q.answer
        if row["verdict"] == "right":
            assert row["answer"] and q.answerable
        if not q.answerable:
            assert row["verdict"] in ("abstained", "wrong")


def test_identical_configurations_are_hidden_and_the_baseline_kept(report):
    twin = json.loads(json.dumps(report))
    copy = dict(twin["configs"][0], label="copy", paired=None)
    twin["configs"].append(copy)
    twin["questions"] += [dict(q, config="copy") for q in twin["questions"] if q["config"] == twin["configs"][0]["label"]]
    kept, hidden = review.hide_identical(twin)
    assert hidden == [{"label": "copy", "same_as": twin["configs"][0]["label"]}]
    assert [r["label"] for r in kept["configs"]] == [r["label"] for r in report["configs"]]
    assert review.hide_identical(report) == (report, [])


def _lines():
    with open("goldens/questions.jsonl", encoding="utf-8") as fh:
        return fh.read().splitlines()[:12]


def test_every_problem_of_a_golden_file_is_listed_in_file_order():
    lines = _lines()
    lines[2] = lines[2].replace('"split": "test"', '"split": "tst"').replace('"split": "dev"', '"split": "tst"')
    lines[5] = "{not json"
    lines[8] = lines[8].replace('"quote": "', '"quote": "XX', 1)
    with pytest.raises(GoldenError) as err:
        parse_goldens("\n".join(lines), list(docs()), "g.jsonl")
    problems = err.value.problems
    assert [p.split(":")[1] for p in problems] == ["3", "6", "9"]
    assert "'split'" in problems[0] and "not valid JSON" in problems[1] and "'quote'" in problems[2]
    assert str(err.value).startswith(problems[0]) and "and 2 more problems" in str(err.value)
    assert "\n" not in str(err.value)


def test_check_lists_every_problem_on_the_command_line(tmp_path, capsys):
    from raglab.cli.main import main

    lines = _lines()
    lines[1] = "[]"
    lines[4] = "{not json"
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert main(["check", "--goldens", str(path)]) == 2
    # A slow machine adds progress lines ("reading the articles…"); the problems are the lines naming the file.
    err = capsys.readouterr().err.splitlines()
    assert [line.split("g.jsonl:")[1].split(":")[0] for line in err if "g.jsonl:" in line][:2] == ["2", "5"]
    assert err[-1].startswith("raglab check: 2 problems in")


def test_the_page_lists_problems_capped_with_a_count(native_web):
    lines = _lines()
    broken = ["{not json"] * (web.PROBLEMS_SHOWN + 7)
    summary = json.loads(web.load("capped", json.dumps(_bundled_files()), "\n".join(lines + broken)))
    assert len(summary["goldens_problems"]) == web.PROBLEMS_SHOWN
    assert summary["goldens_more"] == 7
    assert summary["goldens_problems"][0].startswith("questions.jsonl:13:")


def _bundled_files():
    from raglab.corpus.articles import read_corpus_files

    return read_corpus_files("corpus")


def test_own_data_evaluation_tunes_the_threshold_ask_then_uses(native_web):
    with open("goldens/questions.jsonl", encoding="utf-8") as fh:
        text = fh.read()
    web.load("mine", json.dumps(_bundled_files()), text)
    assert json.loads(web.info("mine"))["tuned"] is None
    served = Config()
    view = json.loads(web.compare_view(json.dumps({
        "split": "test", "chunker": [served.chunker], "retriever": [served.retriever],
        "expand": "on" if served.expand else "off", "per_question": True, "hide_identical": True}), None, "mine"))
    row = next(r for r in view["report"]["configs"] if r["label"] == served.label)
    assert view["tuned"]["threshold"] == row["threshold"]
    info = json.loads(web.info("mine"))
    assert info["defaults"]["threshold"] == row["threshold"]
    asked = json.loads(web.ask("What is the cash out fee?", "{}", "mine"))
    assert asked["config"]["threshold"] == row["threshold"]
    explicit = json.loads(web.ask("What is the cash out fee?", '{"threshold": 0.9}', "mine"))
    assert explicit["config"]["threshold"] == 0.9
    assert json.loads(web.ask("What is the cash out fee?"))["config"]["threshold"] == served.threshold
