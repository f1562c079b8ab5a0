"""`raglab import` under hostile input: what it writes, `check` accepts; a bad question is
dropped and reported, never the whole import; no traceback, no hang, no quadratic time."""

import io
import json
import os
import subprocess
import sys
import time

import pytest

from raglab.corpus import importers
from raglab.corpus.articles import load_corpus, parse_corpus
from raglab.corpus.goldens import load_goldens, parse_goldens
from raglab.corpus.importers import ImportFormatError, import_beir, import_squad, summary, write_import
from test_faults import one_line_error


def squad(paragraphs, title="T"):
    return json.dumps({"version": "2", "data": [{"title": title, "paragraphs": paragraphs}]})


def qa(qid, question, context, answer):
    return {"id": qid, "question": question, "answers": [{"text": answer, "answer_start": context.index(answer)}]}


def imported_and_checked(text, tmp_path):
    imp = import_squad(io.StringIO(text), "in.json")
    write_import(imp, str(tmp_path))
    docs = load_corpus(str(tmp_path / "corpus"))
    return imp, {q.id: q for q in load_goldens(str(tmp_path / "questions.jsonl"), docs)}


# ---------------------------------------------------------------- item 11


def test_bad_questions_are_dropped_and_reported_not_fatal(tmp_path):
    ctx = "The agent fee is 1.85%. Opening hours are 9 to 5. Tk 50 is the minimum."
    bad = [qa(-7, "What is the fee?", ctx, "1.85%"), qa("=SUM(A1)", "What is the fee?", ctx, "1.85%"),
           qa("-x", "What is the fee?", ctx, "1.85%"), qa("i" * 65, "Hours?", ctx, "9 to 5"),
           qa("new\nline", "Hours?", ctx, "9 to 5"), qa("long", "fee " * 30_000, ctx, "1.85%"),
           qa("half", "What \ud83d fee?", ctx, "1.85%")]
    text = squad([{"context": ctx, "qas": [qa("good", "What is the minimum?", ctx, "Tk 50"), *bad]}])
    imp, qs = imported_and_checked(text, tmp_path)
    assert set(qs) == {"good", "half"}  # a lone surrogate becomes U+FFFD, as in `ask`
    assert "\ufffd" in qs["half"].question
    reasons = {d["reason"]: d["count"] for d in summary(imp)["dropped"]}
    assert sum(reasons.values()) == 6, reasons
    shown = [e for d in summary(imp)["dropped"] for e in d["examples"]]
    assert all("\n" not in e for e in shown)


def test_overlapping_quotes_are_counted_like_the_loader(tmp_path):
    """'Go! Go!' occurs twice, overlapping, in 'Go! Go! Go!': the importer widens the quote
    (it used to count one and abort the whole import when the loader counted two)."""
    ctx = "Go! Go! Go! Then wait for the code."
    other = "A second paragraph is here."
    text = squad([{"context": ctx, "qas": [qa("go", "What do you shout?", ctx, "Go!")]},
                  {"context": other, "qas": [qa("ok", "What is here?", other, "second paragraph")]}])
    imp, qs = imported_and_checked(text, tmp_path)
    assert "ok" in qs
    if "go" in qs:
        assert qs["go"].evidence[0].quote.count("Go!") == 3


def test_a_context_over_the_article_limit_is_split_or_dropped(tmp_path, monkeypatch):
    """What import writes, check reads: a title whose paragraphs pass the article limit
    continues in a second article; one paragraph over it is dropped and reported."""
    monkeypatch.setattr(importers, "MAX_ARTICLE_BYTES", 2000)
    paras = []
    for i in range(30):
        ctx = f"Paragraph {i} tells that the code of box {i} is K{i}Z. " + "Filler words here. " * 3
        paras.append({"context": ctx, "qas": [qa(f"q{i}", f"Code of box {i}?", ctx, f"K{i}Z")]})
    huge = "Enormous text. " * 200 + "The key is HUGE1."
    paras.append({"context": huge, "qas": [qa("huge", "What is the key?", huge, "HUGE1")]})
    imp, qs = imported_and_checked(squad(paras), tmp_path)
    sizes = [os.path.getsize(tmp_path / "corpus" / n) for n in os.listdir(tmp_path / "corpus")]
    assert len(sizes) > 1 and max(sizes) <= 2000
    assert len(qs) == 30 and "huge" not in qs
    assert any("context over" in d["reason"] for d in summary(imp)["dropped"])


# ---------------------------------------------------------------- item 10


def test_too_many_questions_are_refused_early_with_the_limit_named(monkeypatch):
    monkeypatch.setattr(importers, "MAX_QUESTIONS_BYTES", 50_000)
    ctx = "The code is X1."
    paras = [{"context": ctx, "qas": [qa(f"q{i}", f"Which code {i}?", ctx, "X1")]} for i in range(5000)]
    data = json.dumps({"data": [{"title": "T", "paragraphs": paras}]})
    with pytest.raises(ImportFormatError) as err:
        import_squad(io.StringIO(data), "many.json")
    message = str(err.value)
    assert "50,000 bytes" in message and "split the input" in message
    assert "qas[" not in message or int(message.split("qas[")[0].rsplit("paragraphs[", 1)[1].split("]")[0]) < 1000


# ---------------------------------------------------------------- item 9


def _import_time(n: int) -> float:
    paras = []
    for i in range(n):
        ctx = f"Item {i} has its own note here. The code for item {i} is C{i}X. Ask at the desk."
        paras.append({"context": ctx, "qas": [qa(f"q{i}", f"What is the code for item {i}?", ctx, f"C{i}X")]})
    text = squad(paras, "One big title")
    start = time.process_time()
    imp = import_squad(io.StringIO(text), "big.json")
    docs = parse_corpus(imp.files)
    parse_goldens("\n".join(importers.golden_line(r) for r in imp.questions), docs)  # what check does
    return time.process_time() - start


@pytest.mark.slow
def test_import_and_quote_lookup_are_linear_in_paragraphs_under_one_title():
    """10k / 20k / 40k paragraphs under one title took 4.0 / 13.7 / 54.4 s (str.count per
    question over the whole article, in the importer and in the golden loader)."""
    small, large = _import_time(2_000), _import_time(16_000)
    assert large < 20 * small, (small, large)  # 8x the input: quadratic would be 64x


# ---------------------------------------------------------------- items 7, 8 and BEIR's smaller ones


def beir_folder(tmp_path, corpus='{"_id": "d1", "text": "Fees are 1.85% at an agent."}\n',
                queries='{"_id": "q1", "text": "What are the fees?"}\n', qrels="q1\td1\t1\n"):
    (tmp_path / "qrels").mkdir(parents=True, exist_ok=True)
    (tmp_path / "corpus.jsonl").write_text(corpus, encoding="utf-8")
    (tmp_path / "queries.jsonl").write_text(queries, encoding="utf-8")
    (tmp_path / "qrels" / "test.tsv").write_text(qrels, encoding="utf-8")
    return str(tmp_path)


def test_beir_deep_nesting_duplicates_and_huge_scores(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    folder = beir_folder(tmp_path / "a", corpus='{"_id": "d1", "text": "x"}\n' + deep + "\n")
    with pytest.raises(ImportFormatError, match=r"corpus.jsonl:2: not valid JSON \(nested too deeply\)"):
        import_beir(folder)
    folder = beir_folder(tmp_path / "b", corpus='{"_id": "d1", "text": "a", "text": "b"}\n')
    with pytest.raises(ImportFormatError, match=r"corpus.jsonl:1: field 'text' appears twice"):
        import_beir(folder)
    folder = beir_folder(tmp_path / "c", queries='{"_id": "q1", "text": "What are the fees?"}\n'
                         '{"_id": "q1", "text": "Another question"}\n')
    imp = import_beir(folder)
    assert imp.questions[0]["question"] == "What are the fees?"
    assert any("second query" in d["reason"] for d in summary(imp)["dropped"])
    folder = beir_folder(tmp_path / "d", qrels="q1\td1\t" + "9" * 5000 + "\n")
    with pytest.raises(ImportFormatError) as err:
        import_beir(folder)
    assert len(str(err.value)) < 300


@pytest.mark.parametrize("kind", ["fifo", "zero-link"])
def test_import_inputs_that_are_not_regular_files_are_refused_at_once(tmp_path, kind):
    folder = beir_folder(tmp_path / "b")
    target = tmp_path / "b" / "corpus.jsonl"
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)
    else:
        os.symlink("/dev/zero", target)
    r = subprocess.run([sys.executable, "-m", "raglab", "import", "beir", folder, "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=60)
    one_line_error(r, "corpus.jsonl", "give a regular file")
    squad_path = tmp_path / "s.json"
    os.mkfifo(squad_path) if kind == "fifo" else os.symlink("/dev/zero", squad_path)
    r = subprocess.run([sys.executable, "-m", "raglab", "import", "squad", str(squad_path), "--out",
                        str(tmp_path / "o")], capture_output=True, text=True, timeout=60)
    one_line_error(r, "s.json", "give a regular file")


def test_progress_continues_after_reading(tmp_path, monkeypatch):
    """The steps after the reading report too (a 100,000-question import was silent for 27 s)."""
    seen = []
    paras = [{"context": f"Branch {i} has code X{i}.", "qas": [qa(f"q{i}", f"Which code has branch {i}?",
                                                                    f"Branch {i} has code X{i}.", f"X{i}")]}
             for i in range(20_001)]  # progress is reported every 10,000 items
    import_squad(io.StringIO(squad(paras)), "p.json", progress=lambda a, q, stage="reading": seen.append(stage))
    assert {"reading", "finding evidence", "checking"} <= set(seen)


def test_interrupted_step_is_not_reported_done():
    code = ("import sys, time\nfrom raglab.cli.console import Ticker\n"
            "try:\n    with Ticker('ask', first=0.1, every=0.1) as t:\n        t.step('indexing')\n"
            "        time.sleep(0.5)\n        raise KeyboardInterrupt\nexcept KeyboardInterrupt:\n"
            "    print('raglab ask: interrupted', file=sys.stderr)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "interrupted" in r.stderr and "done in" not in r.stderr, r.stderr

