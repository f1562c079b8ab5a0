"""`raglab compare`: the committed results, the grid's invariants, attribution, the CLI.

The full grid on the bundled set runs once (module fixture) for the regeneration test
and the invariants; everything else uses one configuration or a two-article corpus.
"""

import copy
import io
import json
import math
import os
import shlex
import subprocess
import sys
from dataclasses import replace

import pytest

from helpers import ROOT, docs, questions
from raglab.cli.compare import compare_report
from raglab.cli.console import Progress
from raglab.cli.main import build_parser, main
from raglab.corpus.chunking import CHUNKERS
from raglab.evaluation import engine as evaluation
from raglab.evaluation import stats
from raglab.evaluation.report import REGENERATE, headline, render, served_headline_command, table_markdown
from raglab.pipeline import Config, Pipeline
from raglab.retrieval.ranking import Query
from raglab.retrieval.registry import RETRIEVERS, BM25Retriever
from raglab.schema import ask_json


def Q(text):
    """The unexpanded query for a question (a Query passes through)."""
    return text if isinstance(text, Query) else Query.plain(text)


RESULTS = os.path.join(ROOT, "docs", "results.md")


# Each configuration's per-question records on the bundled set, kept for this module's reports.
# `evaluate_configs` evaluates every configuration on its own (what carries over from one to the
# next are caches of pure functions), so a report may be built on records an earlier report
# evaluated for the same configuration, corpus, questions, k and coverage: the README's headline
# (two configurations, which the grid holds) is built on the grid's records when the grid ran
# first (the full tier), and evaluates them itself otherwise (the quick tier).
_EVALUATED: dict = {}


def remembered(docs, asked, configs, k, min_coverage, progress=None):
    """`evaluation.evaluate_configs`, evaluating only the configurations not yet evaluated."""
    where = (tuple(docs), tuple(q.id for q in asked), k, min_coverage)
    kept = {c: copy.deepcopy(_EVALUATED[where, c]) for c in configs if (where, c) in _EVALUATED}  # a copy of its own
    missing = [c for c in configs if c not in kept]
    if missing:
        got = evaluation.evaluate_configs(docs, asked, missing, k, min_coverage, progress)
        for c in missing:
            kept[c] = got["results"][c.label], got["label_ids"][c.chunker]
            _EVALUATED[where, c] = copy.deepcopy(kept[c])  # the caller may change what it was handed
    return {"results": {c.label: kept[c][0] for c in configs}, "label_ids": {c.chunker: kept[c][1] for c in configs}}


@pytest.fixture(scope="module")
def full():
    """The report behind docs/results.md, produced by the documented command's own arguments."""
    argv = shlex.split(REGENERATE.split(">")[0])[1:]
    args = build_parser().parse_args(argv)
    return compare_report(args, evaluator=remembered), args


# --- the committed results ------------------------------------------------------------------


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_docs_results_md_is_regenerated_byte_identically(full):
    report, args = full
    fresh = render(report, args.format).encode("utf-8")
    with open(RESULTS, "rb") as fh:
        committed = fh.read()
    assert committed == fresh, f"docs/results.md is stale; regenerate it with: {REGENERATE}"


@pytest.mark.slow  # two comparisons on the test split: the full suite's
def test_readme_shows_the_current_headline_table():
    """README.md's headline: the served default against BM25, exactly what its command gives,
    between the markers `build.py results` rewrites it between."""
    command = served_headline_command()
    report = compare_report(build_parser().parse_args(shlex.split(command)[1:]), evaluator=remembered)
    table = table_markdown(**{k: v for k, v in headline(report).items() if k in ("header", "rows")})
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    begin, end = "<!-- headline table: rewritten by python3 build.py results -->", "<!-- /headline table -->"
    assert readme.count(begin) == 1 and readme.count(end) == 1, "README.md lost its headline table markers"
    shown = readme.split(begin)[1].split(end)[0]
    assert shown == "\n" + table + "\n", "README.md's headline table is stale; regenerate it with `python3 build.py results`"
    labels = [row[0] for row in headline(report)["rows"]]
    assert labels[0] == Config().label == report["settings"]["served"] and len(labels) == 2
    assert command in readme, f"README.md should show the command behind its headline: {command}"


# --- invariants of the full grid --------------------------------------------------------------


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_the_grid_has_every_chunker_and_every_registered_retriever(full):
    labels = [c["label"] for c in full[0]["configs"]]
    expected = [Config(chunker=c, retriever=r, expand=e).label for c in CHUNKERS for r in RETRIEVERS
                for e in (False, True)]
    assert labels == expected


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_attribution_gives_every_answerable_question_exactly_one_stage(full):
    report = full[0]
    for row in report["configs"]:
        for name, m in [("all", row["metrics"])] + list(row["slices"].items()):
            counts = m["attribution"]
            assert list(counts) == list(stats.STAGES)
            total = 0
            for c in counts.values():
                total += c
            assert total == m["answerable"], (row["label"], name)
            if m["answerable"]:
                assert math.isclose(math.fsum(c / m["answerable"] for c in counts.values()), 1.0), (row["label"], name)


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_slices_partition_the_split(full):
    report = full[0]
    st = report["settings"]
    for group in ("language", "kind", "language x kind"):
        sl = [s for s in report["slices"] if s["group"] == group]
        assert math.fsum(s["n"] for s in sl) == st["questions"]
        assert math.fsum(s["answerable"] for s in sl) == st["answerable"]


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_intervals_bracket_the_estimates_and_say_when_they_contain_zero(full):
    report = full[0]
    base = report["settings"]["baseline"]
    for row in report["configs"]:
        for m in ("mrr", "recall"):
            lo, hi = row["ci"][m]
            assert lo <= row["metrics"][m] <= hi
            if row["label"] == base:
                assert row["paired"] is None
                continue
            p = row["paired"][m]
            assert p["contains_zero"] == (p["low"] <= 0 <= p["high"])


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_thresholds_are_tuned_on_dev_only(full):
    report = full[0]
    n_dev = report["settings"]["dev_questions"]
    for row in report["configs"]:
        assert row["threshold"] in stats.THRESHOLDS
        assert row["tuning"]["n"] == n_dev and row["tuning"]["rule"] == "tuned on dev"


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_id_labels_favour_the_chunker_that_wrote_them(full):
    rows = full[0]["id_labels"]
    assert {(r["labels_by"], r["chunker"]) for r in rows} == {(a, b) for a in CHUNKERS for b in CHUNKERS}
    for r in rows:
        if r["labels_by"] == r["chunker"]:
            # Its own ids mark exactly the chunks that cover evidence: the first hit is the same.
            assert r["mrr_ids"] == r["mrr_spans"]
        else:
            assert r["mrr_ids"] < r["mrr_spans"], r


# --- one configuration on the bundled set ------------------------------------------------------


@pytest.fixture(scope="module")
def served_records():
    """The served default configuration, evaluated on the test split."""
    pipe = Pipeline(list(docs()), Config())
    qs = [q for q in questions() if q.split == "test"]
    cover = evaluation.coverage_index(pipe.chunks, qs, 0.5)
    return pipe, qs, cover, evaluation.evaluate(pipe, qs, cover, pipe.config.k, 0.5)


@pytest.mark.parametrize("threshold", [0.0, 0.4, 0.7])
def test_answers_at_a_threshold_equal_what_ask_serves(served_records, threshold):
    """Tuning re-reads one threshold-0 answer per question; it must be what ask() returns."""
    pipe, qs, _, records = served_records
    served = pipe.with_config(replace(pipe.config, threshold=threshold))
    for q, rec in zip(qs, records):
        got = ask_json(served.ask(q.question))
        assert got["abstained"] == (not stats.answered(rec, threshold)), q.id
        if not got["abstained"]:
            assert got["answer"] == rec["answer"], q.id


def test_attribution_stages(served_records):
    pipe, qs, cover, records = served_records
    low = next(r for r in records if r["answerable"] and r["rank"] and r["rank"] >= 2)
    q = next(x for x in qs if x.id == low["id"])
    found = cover[q.id]
    ranked = [h.index for h in pipe.search(q.question, 10)]
    assert evaluation.attribute(ranked, found, pipe.retriever, Q(q.question), low["rank"]) == "served"
    assert evaluation.attribute(ranked, found, pipe.retriever, Q(q.question), 1) == "ranked-low"
    # A query sharing no term with the corpus retrieves nothing lexically: the retriever missed.
    # (A semantic retriever ranks every chunk for any query, so BM25 stands in here.)
    assert evaluation.attribute([], found, BM25Retriever(pipe.chunks), Q("xyzzy"), 5) == "retriever"
    assert evaluation.attribute(ranked, {}, pipe.retriever, Q(q.question), 5) == "chunker"

    class Reversing:
        """A reranker that turns the first stage's top 20 upside down."""

        def __init__(self, chunks):
            self.first_stage = BM25Retriever(chunks)

        def search(self, query, n):
            return list(reversed(self.first_stage.search(query, 20)))[:n]

    top = next(r for r in records if r["answerable"] and r["rank"] == 1)
    q = next(x for x in qs if x.id == top["id"])
    rr = Reversing(pipe.chunks)
    ranked = [h.index for h in rr.search(Q(q.question), 10)]
    assert evaluation.attribute(ranked, cover[q.id], rr, Q(q.question), 1) == "reranker"


@pytest.fixture(scope="module")
def bm25_dev():
    """One configuration on dev, run once for the tests below: its own k (3) under the
    comparison's (7), and the per-question records `evaluate_configs` gave, kept aside so a
    second report can be built on them."""
    evaluated = []

    def keep(*args):
        got = evaluation.evaluate_configs(*args)
        evaluated.append(copy.deepcopy(got))  # as evaluated, whatever the report does with its records
        return got

    cfg = [Config(chunker="recursive", retriever="bm25", k=3, expand=False)]
    return cfg, evaluation.run(list(docs()), some_questions(), cfg, split="dev", k=7, evaluator=keep), evaluated[0]


def some_questions():
    """Every third golden question: what the tests on `bm25_dev` check holds for any question set,
    and all of them took twenty seconds more."""
    return list(questions())[::3]


def test_the_report_states_the_risk_bound_its_thresholds_were_chosen_under(bm25_dev):
    # The page's Bangla note of the threshold rule renders this figure (js/report_text.js).
    assert bm25_dev[1]["settings"]["risk_budget"] == stats.RISK_BUDGET


@pytest.mark.slow  # three comparisons: the full suite's
def test_the_report_is_deterministic_and_the_seed_moves_only_the_intervals(bm25_dev):
    cfg, a, evaluated = bm25_dev
    b = evaluation.run(list(docs()), some_questions(), cfg, split="dev", k=7)
    assert render(a, "json") == render(b, "json")
    # The seed enters only after the per-question evaluation (`evaluate_configs` takes none), so
    # the seeded report is built on the records run `a` already has instead of evaluating again.
    c = evaluation.run(list(docs()), some_questions(), cfg, split="dev", k=7, seed=1,
                       evaluator=lambda *args: evaluated)
    assert c["configs"][0]["metrics"] == a["configs"][0]["metrics"]
    assert c["configs"][0]["ci"] != a["configs"][0]["ci"]


# --- the command line on a two-article corpus --------------------------------------------------

ARTICLES = {
    "en-fees.md": "# Fees\n\n## Cash out\nThe fee for cash out at an agent is 1.85% of the amount. "
                  "At an ATM the fee is 1.95%.\n\n## Send money\nSending money to another Shapla Pay "
                  "account is free up to Tk 25,000 a month.\n",
    "en-pin.md": "# PIN\n\n## Your PIN\nYour PIN has five digits. Never share your PIN with anyone.\n\n"
                 "## Forgotten PIN\nYou can reset a forgotten PIN in the app with your NID number.\n",
}


def q(qid, split, kind, question, answer=None, doc=None, quote=None):
    ev = [{"doc": doc, "quote": quote}] if quote else []
    return {"id": qid, "lang": "en", "kind": kind, "split": split, "question": question, "answer": answer, "evidence": ev}


QUESTIONS = [
    q("d1", "dev", "direct", "What is the cash out fee at an agent?", "1.85% of the amount.", "en-fees",
      "The fee for cash out at an agent is 1.85% of the amount."),
    q("d2", "dev", "unanswerable", "Can I buy train tickets?"),
    q("t1", "test", "direct", "How many digits does my PIN have?", "Five digits.", "en-pin", "Your PIN has five digits."),
    q("t2", "test", "paraphrase", "What does it cost to send money to a friend?", "Free up to Tk 25,000 a month.",
      "en-fees", "Sending money to another Shapla Pay account is free up to Tk 25,000 a month."),
    q("t3", "test", "unanswerable", "Is there a loan product?"),
]


@pytest.fixture
def tiny(tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")

    def goldens(rows, name="questions.jsonl"):
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return str(path)

    def cli(*args, rows=QUESTIONS):
        return ["compare", "--corpus", str(corpus), "--goldens", goldens(rows), *args]

    return cli


def test_compare_has_help():
    r = subprocess.run([sys.executable, "-m", "raglab", "compare", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "--split" in r.stdout and "wrong-answer rate" in r.stdout


@pytest.mark.parametrize("args, rows, message", [
    (["--chunker", "nope"], QUESTIONS, "unknown chunker 'nope'"),
    (["--retriever", "nope"], QUESTIONS, "unknown retriever 'nope'"),
    (["-k", "0"], QUESTIONS, "k must be a whole number >= 1"),
    (["--split", "test"], [r for r in QUESTIONS if r["split"] == "dev"], "the 'test' split has no questions"),
    ([], [r for r in QUESTIONS if r["kind"] == "unanswerable"], "the golden file has no answerable questions"),
    (["--split", "test"], QUESTIONS[:2] + [QUESTIONS[4]], "the 'test' split has no answerable questions"),
    (["--baseline", "nope"], QUESTIONS, "unknown baseline 'nope'"),
    (["--min-coverage", "0"], QUESTIONS, "min coverage must be in (0, 1]"),
])
def test_bad_input_is_exit_2_with_a_clear_message(tiny, capsys, args, rows, message):
    assert main(tiny(*args, rows=rows)) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.startswith("raglab compare: error:")


def test_bad_input_as_a_real_process(tiny):
    r = subprocess.run([sys.executable, "-m", "raglab", *tiny("-k", "0")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "k must be" in r.stderr and "Traceback" not in r.stderr


def test_output_formats(tiny, capsys):
    n_configs = len(evaluation.grid())
    assert main(tiny("--format", "json")) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["configs"]) == n_configs and report["settings"]["questions"] == 3

    assert main(tiny("--format", "csv")) == 0
    import csv
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["configuration"] for r in rows] == [c["label"] for c in report["configs"]]
    assert all(float(r["recall"]) == c["metrics"]["recall"] for r, c in zip(rows, report["configs"]))

    assert main(tiny("--format", "markdown")) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Results") and "| configuration | recall@5 |" in md and "## Failure attribution" in md

    assert main(tiny()) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    start = next(i for i in range(lines.index("Headline"), len(lines)) if lines[i].startswith("configuration"))
    table = lines[start:start + 2 + n_configs]
    assert set(table[1]) <= {"-", " "}
    assert len({len(line) for line in table}) == 1, "the text table's columns are not aligned"
    assert "recursive+bm25" in text and "Against the baseline (recursive+bm25)" in text


def test_per_question_rows(tiny, capsys):
    assert main(tiny("--per-question", "--format", "csv", "--retriever", "bm25", "--expand", "off")) == 0
    import csv
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 3 * len(CHUNKERS)
    by = {(r["question"], r["configuration"]): r for r in rows}
    t1 = by[("t1", "recursive+bm25")]
    assert t1["rank"] == "1" and t1["stage"] == "served"
    t3 = by[("t3", "recursive+bm25")]
    assert t3["rank"] == "" and t3["stage"] == "" and t3["f1"] == ""


def test_progress_goes_to_stderr_only_after_a_second():
    quiet, loud = io.StringIO(), io.StringIO()
    Progress(quiet)(1, 4, "fixed+bm25")
    Progress(loud, delay=0.0)(1, 4, "fixed+bm25")
    assert quiet.getvalue() == "" and "1/4 configurations (fixed+bm25)" in loud.getvalue()


def test_configs_take_the_comparison_k(bm25_dev):
    cfg, report, _ = bm25_dev
    assert cfg[0].k == 3 and report["settings"]["k"] == 7 and report["configs"][0]["label"] == "recursive+bm25"


# --- harm, golden-set size and the recommendation on the full grid --------------------------------


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_the_recommendation_is_the_served_default_by_the_documented_rule(full):
    """Derived from the dev questions by the rule in docs/served-default.md, it must name the
    served default and reproduce the figures that page quotes."""
    report = full[0]
    rec = report["recommendation"]
    assert rec["chosen_on"] == "dev" and rec["pick"] == Config().label == report["settings"]["served"]
    best = rec["figures"][rec["best"]]
    with open(os.path.join(ROOT, "docs", "served-default.md"), encoding="utf-8") as fh:
        page = fh.read()
    k = report["settings"]["k"]
    quoted = (f"the best dev recall@{k} is `{rec['best']}`, {best['recall']:.3f} "
              f"[{rec['best_ci'][0]:.3f}, {rec['best_ci'][1]:.3f}]")
    assert quoted in page, f"docs/served-default.md no longer matches the rule's figures: {quoted}"
    pick = rec["figures"][rec["pick"]]
    assert f"{rec['pick']}`'s, {pick['paraphrase_mrr']:.3f}" in page
    text = render(report, "text")
    assert f"Serve {rec['pick']}." in text and "It is the served default" in text


@pytest.mark.slow  # the whole grid behind docs/results.md: about a minute
def test_harm_measures_are_consistent(full):
    report = full[0]
    for row in report["configs"]:
        m = row["metrics"]
        # Wrong answers are a part of the answers given: never more than the answered share allows.
        answered = (m["answer_rate"] * m["answerable"] + (1 - m["abstention_rate"]) * m["unanswerable"]) / m["n"]
        assert 0 <= m["wrong_rate"] <= answered + 1e-6
        if answered == 0:  # a threshold that keeps the dev risk within budget only by answering nothing
            assert m["risk"] is None and m["wrong_rate"] == 0
            continue
        # Every figure is rounded to 6 decimals (±5e-7); the ratio of two of them carries about
        # (1 + risk) x 5e-7 / answered of that, plus the rounding of risk itself.
        assert m["risk"] == pytest.approx(m["wrong_rate"] / answered, abs=5e-7 + 1e-6 / answered)
        assert 0 <= m["ctx_precision"] <= 1 and m["recall"] - 1e-9 <= m["ctx_recall"] <= 1
        a = row["aurc"]
        assert a["ci"][0] <= a["value"] <= a["ci"][1]
        at = {p["threshold"]: p for p in row["curve"]}
        assert at[row["threshold"]]["risk"] == pytest.approx(m["risk"], abs=2e-6)
    tests = [r["paired"][m] for r in report["configs"] if r["paired"] for m in ("mrr", "recall")]
    assert all(t["p_holm"] >= t["p"] for t in tests)
    # Some differences survive the correction (the sentence chunker's losses are the clearest), and a
    # difference the permutation test finds strong is one the bootstrap interval separates from 0 too.
    assert any(t["survives"] for t in tests)
    assert all(not t["contains_zero"] for t in tests if t["survives"] and t["p_holm"] < 0.01)
