"""The evaluation engine behind `raglab compare`: every chunker x retriever on one golden split, scored on spans.

The question this answers is "which configuration should I serve, and how sure am I?".
For each configuration (chunker, retriever, query expansion on/off) it runs every
question once, then reports:

- retrieval metrics on the answerable questions (hit@1, hit@k, recall@k, MRR@10, nDCG@k,
  nDCG@10) and the context cost (words handed to the answerer), see `metrics.py`;
- answer metrics: token F1 and exact match against the reference answer, faithfulness,
  citation precision, answer rate on answerable and abstention rate on unanswerable
  questions, at an abstention threshold chosen on `dev` (`stats.TUNING_RULE`) and
  applied unchanged to the reported split;
- slices by language, kind and language x kind, each with its n;
- 95% bootstrap intervals for MRR and recall (2,000 resamples, fixed seed) and paired
  bootstrap differences against a baseline configuration;
- failure attribution: exactly one stage per answerable question (`stats.STAGES`);
- optionally, the id-label bias study and per-question rows.

`run()` takes documents, questions and configurations and returns plain JSON-ready data;
it never prints and raises `EvaluationError` on bad input. `report` renders the result,
the CLI parses the command line; both are pure standard library and deterministic, so
the browser worker runs the very same code and shows the very same table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from raglab.corpus.chunking import CHUNKERS
from raglab.corpus.goldens import KINDS, LANGS
from raglab.evaluation.idlabels import id_label_study
from raglab.evaluation.metrics import MRR_DEPTH, RESAMPLES, SEED, citation_precision, covered, exact_match, faithfulness, first_rank, gains, hit_at, holds_fact, ideal_gains, ndcg_at, recall_at, reciprocal_rank, resamples, token_f1
from raglab.evaluation.recommend import recommendation
from raglab.evaluation.risk import answer_typing, curve_fields, draw_counts, memoized_outcome, outcome, question_fields
from raglab.evaluation.significance import paired_tests, sign_patterns
from raglab.evaluation.stats import MIN_TUNING_QUESTIONS, RISK_BUDGET, STAGE_HELP, STAGES, THRESHOLDS, TUNING_RULE, answered, interval, paired, round_report, summarise, tune
from raglab.pipeline import POOL, Config, Pipeline, check_k
from raglab.retrieval.ranking import Query
from raglab.retrieval.registry import RETRIEVERS, first_stage
from raglab.text.analyzer import analyze, forget_scoped, memo, words

SPLITS = ("dev", "test", "all")
# `--expand` on the command line and `expand` in the browser's options: the settings to run.
EXPAND_MODES = {"off": (False,), "on": (True,), "both": (False, True)}

# Plain BM25 over recursive chunks: the simplest thing that works, so the paired differences
# read as "what does this buy over BM25?" and do not move when the served default changes.
DEFAULT_BASELINE = Config(chunker="recursive", retriever="bm25", expand=False).label


class EvaluationError(ValueError):
    """Bad input to a comparison; the message says what to change."""


# --- the grid ---------------------------------------------------------------------


def grid(chunkers=None, retrievers=None, expand=None, k: int = 5) -> list[Config]:
    """Every chunker x retriever x expansion setting, in registry order.

    `expand` is a tuple of settings; by default both off and on, so one table shows
    what expansion is worth.
    """
    expand = EXPAND_MODES["both"] if expand is None else expand
    chunkers = list(CHUNKERS) if chunkers is None else list(chunkers)
    retrievers = list(RETRIEVERS) if retrievers is None else list(retrievers)
    for name in chunkers:
        if name not in CHUNKERS:
            raise EvaluationError(f"unknown chunker {name!r}; choose from: {', '.join(CHUNKERS)}")
    for name in retrievers:
        if name not in RETRIEVERS:
            raise EvaluationError(f"unknown retriever {name!r}; choose from: {', '.join(RETRIEVERS)}")
    _check_k(k)
    return [Config(chunker=c, retriever=r, k=k, expand=e) for c in chunkers for r in retrievers for e in expand]


def _check_k(k) -> None:
    try:
        check_k(k)
    except ValueError as err:
        raise EvaluationError(str(err)) from None


def select(questions, split: str) -> list:
    if split not in SPLITS:
        raise EvaluationError(f"unknown split {split!r}; choose from: {', '.join(SPLITS)}")
    return [q for q in questions if split == "all" or q.split == split]


# --- coverage ------------------------------------------------------------------------


def coverage_index(chunks, questions, min_coverage: float) -> dict[str, dict[int, frozenset[int]]]:
    """question id -> {chunk index: passages it covers}, for chunks covering at least one.

    Computed once per chunker: it is what `chunker` attribution, the ideal nDCG,
    citation precision and the id labels all rest on.
    """
    by_doc: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        by_doc.setdefault(c.doc, []).append(i)
    out = {}
    for q in questions:
        if not q.evidence:
            continue
        found: dict[int, frozenset[int]] = {}
        for doc in sorted({e.doc for e in q.evidence}):
            for i in by_doc.get(doc, ()):
                got = covered(chunks[i], q.evidence, min_coverage)
                if got:
                    found[i] = got
        out[q.id] = dict(sorted(found.items()))
    return out


# --- one configuration -----------------------------------------------------------------


def memoized_analysis():
    """A memo of `analyze` for the length of one comparison (reference answers and answer
    texts recur across configurations; the answerer caches its own chunk analysis)."""
    memo: dict[str, list[str]] = {}

    def cached(text: str) -> list[str]:
        got = memo.get(text)
        if got is None:
            got = memo[text] = analyze(text)
        return list(got)

    return cached


def attribute(ranked: list[int], found: dict[int, frozenset[int]], retriever, query: Query, k: int,
              pool: list[int] | None = None) -> str:
    """The one stage responsible for a question's outcome (see `STAGE_HELP`).

    A retriever that reranks exposes `first_stage` (`retrieval.HasFirstStage`); its top
    50 is the pool. Any other retriever is its own first stage, and `pool`, when given, is
    its top 50 already searched.
    """
    if any(i in found for i in ranked[:k]):
        return "served"
    if not found:
        return "chunker"
    first = first_stage(retriever)
    if pool is None or first is not retriever:
        pool = [h.index for h in first.search(query, POOL)]
    if not any(i in found for i in pool):
        return "retriever"
    if first is not retriever and any(i in found for i in pool[:k]):
        return "reranker"
    return "ranked-low"


def evaluate(pipe: Pipeline, questions, cover, k: int, min_coverage: float, terms=analyze,
             queries: dict | None = None, judge=outcome, typing=None, step=None) -> list[dict]:
    """One record per question: the ranking's metrics, the answer at threshold 0, the stage.

    The answer is computed once with threshold 0 together with its confidence; at any
    threshold t the answerer abstains exactly when confidence < t and otherwise returns
    the same answer, so tuning needs no second retrieval and no second answer.
    `terms` is the analyzer (a memoised one in a grid); `queries` caches the query text
    per (expansion setting, question), which is all `pipe.query` depends on. `step(text)`,
    when given, hears every tenth question (progress within a configuration).
    """
    depth = max(k, MRR_DEPTH)
    queries = {} if queries is None else queries
    n_words: dict[int, int] = {}
    records = []
    for done, q in enumerate(questions):
        if step and done % 10 == 0:
            step(f"question {done + 1:,} of {len(questions):,}")
        key = (pipe.config.expand, q.question)
        if key not in queries:
            queries[key] = pipe.query(q.question)
        query = queries[key]
        # A one-stage retriever's ranking is a prefix of its deeper ranking (ties go to chunk
        # order), so one search serves the metrics and the attribution's pool alike.
        own_pool = first_stage(pipe.retriever) is pipe.retriever
        hits = pipe.retriever.search(query, max(depth, POOL) if own_pool else depth)
        pool = [h.index for h in hits] if own_pool else None
        hits = hits[:depth]
        ranked = [h.index for h in hits]
        top = [pipe.chunks[i] for i in ranked[:k]]
        result = pipe.answer(q.question, top, threshold=0.0, scores=[h.score for h in hits[:k]])
        # What the reader sees first: the short answers, or the quoted sentences when there are none.
        shown = None if result.abstained else "; ".join(s.text for s in result.short_answers) or result.text
        # What the page shows: the short answers, then the quotes (what `holds` and the review judge).
        page = None if result.abstained else "\n".join([s.text for s in result.short_answers] + [result.text or ""])
        words_k = 0
        for i in ranked[:k]:
            if i not in n_words:
                n_words[i] = len(words(pipe.chunks[i].text))
            words_k += n_words[i]
        rec = {"id": q.id, "lang": q.lang, "kind": q.kind, "split": q.split, "answerable": q.answerable,
               "top": [pipe.chunks[i].id for i in ranked], "words": words_k,
               "answer": None if result.abstained else result.text, "coverage": result.coverage,
               "confidence": result.confidence, "short": shown, "shown": page,
               "faithfulness": None if result.abstained else faithfulness(
                   result.quotes, {c.doc: pipe.docs[c.doc].text for c in top})}
        found = cover.get(q.id, {})
        rec.update(question_fields(q, top, [i in found for i in ranked[:k]], page, min_coverage,
                                   judge, typing))
        if q.answerable:
            found = cover[q.id]
            gain = gains([found.get(i, frozenset()) for i in ranked])
            ideal = ideal_gains(list(found.values()), q.n_facts)
            rec.update({
                "rank": first_rank(gain), "hit1": hit_at(gain, 1), "hitk": hit_at(gain, k),
                "recall": recall_at(gain, q.n_facts, k), "mrr": reciprocal_rank(gain, MRR_DEPTH),
                "ndcgk": ndcg_at(gain, ideal, k), "ndcg10": ndcg_at(gain, ideal, MRR_DEPTH),
                "stage": attribute(ranked, found, pipe.retriever, query, k, pool),
                "f1": token_f1(None if result.abstained else result.text, q.answer, terms),
                "em": exact_match(None if result.abstained else result.text, q.answer, terms),
                "short_f1": token_f1(shown, q.answer, terms),
                "short_em": exact_match(shown, q.answer, terms),
                "holds": 0.0 if result.abstained else float(holds_fact(page, q.answer, evidence=q.evidence)),
                "holds_strict": 0.0 if result.abstained else float(holds_fact(page, q.answer, strict=True)),
                "citation_precision": None if result.abstained else citation_precision(
                    [pipe.by_id[c] for c in result.citations], q.evidence, min_coverage),
            })
        records.append(rec)
    return records


# --- slices --------------------------------------------------------------------------------


def slice_keys(questions) -> list[dict]:
    """Language, kind and language x kind slices present in `questions`, in a fixed order."""
    out = []
    for lang in LANGS:
        out.append({"group": "language", "name": lang, "lang": lang, "kind": None})
    for kind in KINDS:
        out.append({"group": "kind", "name": kind, "lang": None, "kind": kind})
    for lang in LANGS:
        for kind in KINDS:
            out.append({"group": "language x kind", "name": f"{lang} {kind}", "lang": lang, "kind": kind})
    present = []
    for s in out:
        sel = [q for q in questions if (s["lang"] is None or q.lang == s["lang"]) and (s["kind"] is None or q.kind == s["kind"])]
        if sel:
            present.append({**s, "n": len(sel), "answerable": len([q for q in sel if q.answerable])})
    return present


def _in_slice(rec: dict, s: dict) -> bool:
    return (s["lang"] is None or rec["lang"] == s["lang"]) and (s["kind"] is None or rec["kind"] == s["kind"])


# --- the comparison ------------------------------------------------------------------------------


def _check(questions, split, configs, min_coverage, k):
    _check_k(k)
    if not isinstance(min_coverage, (int, float)) or not 0 < min_coverage <= 1:
        raise EvaluationError(f"min coverage must be in (0, 1], got {min_coverage!r}")
    if not configs:
        raise EvaluationError("no configurations to compare; name at least one chunker and one retriever")
    for c in configs:
        try:
            c.check()
        except ValueError as err:
            raise EvaluationError(str(err)) from None
    if not any(q.answerable for q in questions):
        raise EvaluationError("the golden file has no answerable questions; retrieval cannot be scored without evidence")
    chosen = select(questions, split)
    if not chosen:
        raise EvaluationError(f"the {split!r} split has no questions; choose another --split or add questions to it")
    if not any(q.answerable for q in chosen):
        raise EvaluationError(f"the {split!r} split has no answerable questions; retrieval cannot be scored without evidence")
    return chosen


def _stage(progress, done: int, total: int, label: str):
    """Progress within one configuration, as `progress(done, total, "label: step")`."""
    if not progress:
        return None
    return lambda text: progress(done, total, f"{label}: {text}")


def evaluate_configs(docs, asked, configs, k: int, min_coverage: float, progress=None) -> dict:
    """Every configuration over the questions `asked`, one after another:
    ``{"results": {label: per-question records}, "label_ids": {chunker: {question id: ids of
    covering chunks}}}`` (plain data).

    Configurations that share a chunker and a retriever share one index, so a caller that
    splits the work (raglab.cluster, on a Dask cluster) hands each part whole groups.
    """
    covers: dict[str, dict] = {}
    label_ids: dict[str, dict[str, list[str]]] = {}  # chunker -> question -> ids of covering chunks
    results: dict[str, list[dict]] = {}
    built: dict[tuple[str, str], Pipeline] = {}
    queries: dict = {}
    terms = memoized_analysis()
    judge = memoized_outcome()
    typing = answer_typing()
    with memo():  # the same chunk, sentence and question texts recur under every configuration
        for n, config in enumerate(configs):
            if progress:
                progress(n, len(configs), config.label)
            stage = _stage(progress, n, len(configs), config.label)
            key = (config.chunker, config.retriever)
            if key not in built:
                built.clear()  # one index in memory at a time (configs come grouped by chunker x retriever)
                built[key] = Pipeline(docs, config, stage)
            pipe = built[key].with_config(config)  # the index depends only on chunker and retriever
            if config.chunker not in covers:
                forget_scoped()  # the answerer's readings of the last chunker's chunks (`candidates._units_read`)
                covers[config.chunker] = coverage_index(pipe.chunks, asked, min_coverage)
                label_ids[config.chunker] = {qid: [pipe.chunks[i].id for i in found]
                                             for qid, found in covers[config.chunker].items()}
            results[config.label] = evaluate(pipe, asked, covers[config.chunker], k, min_coverage, terms, queries,
                                             judge, typing, step=stage)
        built.clear()
    return {"results": results, "label_ids": label_ids}


def run(docs, questions, configs=None, split: str = "test", min_coverage: float = 0.5, k: int = 5,
        seed: int = SEED, baseline: str | None = None, id_labels: bool = False, per_question: bool = False,
        progress=None, trec: bool = False, latency: dict | None = None, evaluator=None) -> dict:
    """Compare `configs` (default: the whole grid) on one split; returns the JSON-ready report.

    `progress(done, total, label)`, when given, is called as configurations complete.
    `trec` adds each configuration's rankings and each chunker's covering chunks (for
    `trec.write`); `latency` ({label: ms per question}) goes to the recommendation.
    `evaluator` replaces `evaluate_configs` (same arguments, same result), e.g. to run
    the configurations on a cluster; everything after it is the same either way.
    """
    configs = grid(k=k) if configs is None else [replace(c, k=k) for c in configs]
    chosen = _check(questions, split, configs, min_coverage, k)
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise EvaluationError("a configuration is listed twice; name each chunker and retriever once")
    baseline = baseline or (DEFAULT_BASELINE if DEFAULT_BASELINE in labels else labels[0])
    if baseline not in labels:
        raise EvaluationError(f"unknown baseline {baseline!r}; choose one of: {', '.join(labels)}")
    dev = [q for q in questions if q.split == "dev"]
    wanted = {q.id for q in chosen} | {q.id for q in dev}
    asked = [q for q in questions if q.id in wanted]  # golden-file order, each question once

    evaluated = (evaluator or evaluate_configs)(docs, asked, configs, k, min_coverage, progress)
    results, label_ids = evaluated["results"], evaluated["label_ids"]
    if progress:
        progress(len(configs), len(configs), "done")

    report_ids = {q.id for q in chosen}
    answerable_ids = [q.id for q in chosen if q.answerable]
    draws = resamples(len(answerable_ids), RESAMPLES, seed)
    slices = slice_keys(chosen)
    counts = draw_counts(resamples(len(report_ids), RESAMPLES, seed), len(report_ids))

    def vector(label, key):
        by_id = {r["id"]: r for r in results[label]}
        return [by_id[qid][key] for qid in answerable_ids]

    rows = []
    for config in configs:
        recs = results[config.label]
        dev_recs = [r for r in recs if r["split"] == "dev"]
        if len(dev_recs) >= MIN_TUNING_QUESTIONS:
            tuning = tune(dev_recs)
            tuning["rule"] = "tuned on dev"
        else:
            why = (f"{len(dev_recs)} dev questions, fewer than the {MIN_TUNING_QUESTIONS} a threshold is tuned on"
                   if dev_recs else "no dev questions")
            tuning = {"threshold": Config().threshold, "objective": None, "f1": None, "answer_rate": None,
                      "abstention_rate": None, "n": 0, "rule": f"{why}: the served threshold"}
        t = tuning["threshold"]
        mine = [r for r in recs if r["id"] in report_ids]
        row = {**curve_fields(mine, counts, THRESHOLDS), "label": config.label, "chunker": config.chunker, "retriever": config.retriever,
               "expand": config.expand, "threshold": t, "tuning": tuning,
               "metrics": summarise(mine, t),
               "slices": {s["name"]: summarise([r for r in mine if _in_slice(r, s)], t) for s in slices},
               "ci": {m: interval(vector(config.label, m), draws) for m in ("mrr", "recall")},
               "paired": None if config.label == baseline else {
                   m: paired(vector(config.label, m), vector(baseline, m), draws) for m in ("mrr", "recall")}}
        rows.append(row)
    # Significance over the whole family of paired comparisons, then the recommendation, which is
    # chosen on the dev questions (the reported split's only when there are none).
    diffs = {(row["label"], m): [a - b for a, b in zip(vector(row["label"], m), vector(baseline, m))]
             for row in rows if row["paired"] for m in ("mrr", "recall")}
    for (label, m), got in paired_tests(diffs, sign_patterns(len(answerable_ids), seed=seed)).items():
        next(r for r in rows if r["label"] == label)["paired"][m].update(got)
    on_dev = any(q.answerable for q in dev)
    basis = {label: [r for r in results[label] if (r["split"] == "dev" if on_dev else r["id"] in report_ids)]
             for label in labels}

    report: dict[str, Any] = {
        "settings": {"split": split, "k": k, "min_coverage": min_coverage, "seed": seed, "resamples": RESAMPLES,
                     "baseline": baseline, "served": Config().label, "tuning_rule": TUNING_RULE,
                     "risk_budget": RISK_BUDGET,
                     "thresholds": list(THRESHOLDS),
                     "articles": len(docs), "questions": len(chosen), "answerable": len(answerable_ids),
                     "unanswerable": len(chosen) - len(answerable_ids),
                     "dev_questions": len(dev), "stages": {s: STAGE_HELP[s] for s in STAGES},
                     **({"latency": {label: latency[label] for label in labels if label in latency}} if latency else {})},
        "configs": rows,
        "slices": slices,
        "recommendation": recommendation(labels, basis, "dev" if on_dev else split, seed),
    }
    if trec:
        report["trec"] = {"runs": {label: {r["id"]: r["top"] for r in results[label] if r["id"] in report_ids}
                                   for label in labels},
                          "qrels": {chunker: {qid: ids for qid, ids in label_ids[chunker].items() if qid in report_ids}
                                    for chunker in label_ids}}
    if id_labels:
        report["id_labels"] = id_label_study(configs, results, label_ids, answerable_ids, baseline, k)
    if per_question:
        by_label = {label: {r["id"]: r for r in results[label]} for label in labels}
        report["questions"] = []
        for q in chosen:
            for row in rows:
                r = by_label[row["label"]][q.id]
                said = answered(r, row["threshold"])
                report["questions"].append({
                    "id": q.id, "lang": q.lang, "kind": q.kind, "config": row["label"], "rank": r.get("rank"),
                    "stage": r.get("stage"), "answered": said, "answer": r["short"] if said else None,
                    "shown": r["shown"] if said else None,
                    "f1": (r["f1"] if said else 0.0) if q.answerable else None})
    return round_report(report)
