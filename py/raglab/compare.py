"""`raglab compare`: every chunker x retriever on one golden split, scored on spans.

The question this answers is "which configuration should I serve, and how sure am I?".
For each configuration (chunker, retriever, query expansion on/off) it runs every
question once, then reports:

- retrieval metrics on the answerable questions (hit@1, hit@k, recall@k, MRR@10, nDCG@k,
  nDCG@10) and the context cost (words handed to the answerer), see `metrics.py`;
- answer metrics: token F1 and exact match against the reference answer, faithfulness,
  citation precision, answer rate on answerable and abstention rate on unanswerable
  questions, at an abstention threshold chosen on `dev` (`TUNING_RULE`) and applied
  unchanged to the reported split;
- slices by language, kind and language x kind, each with its n;
- 95% bootstrap intervals for MRR and recall (2,000 resamples, fixed seed) and paired
  bootstrap differences against a baseline configuration;
- failure attribution: exactly one stage per answerable question (`STAGES`);
- optionally, the id-label bias study and per-question rows.

`run()` returns plain JSON-ready data and `render()` formats it as text, Markdown, CSV or
JSON. Both are pure standard library and deterministic, so the browser worker calls
the very same code and shows the very same table. The command-line glue
(`add_compare_parser`) sits at the bottom.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from dataclasses import replace

from .analyzer import analyze, words
from .chunking import CHUNKERS
from .goldens import KINDS, LANGS
from .metrics import (RESAMPLES, SEED, citation_precision, covered, f1_of_terms, faithfulness, first_rank, gains,
                      hit_at, holds_fact, ideal_gains, mean, ndcg_at, percentile_interval, recall_at, reciprocal_rank,
                      resamples)
from .pipeline import POOL, Config, Pipeline
from .retrieval import RETRIEVERS

SPLITS = ("dev", "test", "all")
MRR_DEPTH = 10  # MRR and the second nDCG are cut at 10 whatever k is
FORMATS = ("text", "markdown", "csv", "json")

# Failure attribution, from best to worst outcome; every answerable question gets exactly one.
STAGES = ("served", "ranked-low", "reranker", "retriever", "chunker")
STAGE_HELP = {
    "served": "a chunk covering the evidence is in the top k",
    "ranked-low": "a covering chunk is in the first-stage top 50 but not in the top k",
    "reranker": "a covering chunk was in the first stage's top k and the reranker pushed it out",
    "retriever": "a covering chunk exists but is not in the first-stage top 50",
    "chunker": "no chunk anywhere covers the evidence",
}

THRESHOLDS = tuple(i / 20 for i in range(21))  # 0.00, 0.05, ..., 1.00
TUNING_RULE = ("for each configuration, the abstention threshold in 0.00, 0.05, ..., 1.00 that maximises the "
               "answer rate on answerable dev questions plus the abstention rate on unanswerable dev questions "
               "(balanced accuracy of the answer-or-abstain decision; ties go to the higher dev answer F1, then "
               "to the lower threshold), applied unchanged to the reported split")

# Per-configuration metrics: key in the report, label in tables ({k} is filled in).
METRICS = (
    ("hit1", "hit@1"), ("hitk", "hit@{k}"), ("recall", "recall@{k}"), ("mrr", "MRR@10"),
    ("ndcgk", "nDCG@{k}"), ("ndcg10", "nDCG@10"), ("words", "words@{k}"),
    ("f1", "F1"), ("em", "EM"), ("short_f1", "short F1"), ("short_em", "short EM"), ("holds", "holds fact"),
    ("faithfulness", "faithful"), ("citation_precision", "cite prec"),
    ("answer_rate", "answered"), ("abstention_rate", "abstained"),
)


# Plain BM25 over recursive chunks: the simplest thing that works, so the paired differences
# read as "what does this buy over BM25?" and do not move when the served default changes.
DEFAULT_BASELINE = Config(chunker="recursive", retriever="bm25", expand=False).label


class CompareError(ValueError):
    """Bad input to a comparison; the message says what to change."""


# --- the grid ---------------------------------------------------------------------


def expansion_available() -> bool:
    try:
        from . import expansion  # noqa: F401  (imported only to see whether it is there)
    except ImportError:
        return False
    return True


def grid(chunkers=None, retrievers=None, expand=None, k: int = 5) -> list[Config]:
    """Every chunker x retriever x expansion setting, in registry order.

    `expand` is a tuple of settings; by default both off and on when query expansion
    is available, so one table shows what expansion is worth.
    """
    if expand is None:
        expand = (False, True) if expansion_available() else (False,)
    if any(expand) and not expansion_available():
        raise CompareError("query expansion is not available in this build; use --expand off")
    chunkers = list(CHUNKERS) if chunkers is None else list(chunkers)
    retrievers = list(RETRIEVERS) if retrievers is None else list(retrievers)
    for name in chunkers:
        if name not in CHUNKERS:
            raise CompareError(f"unknown chunker {name!r}; choose from: {', '.join(CHUNKERS)}")
    for name in retrievers:
        if name not in RETRIEVERS:
            raise CompareError(f"unknown retriever {name!r}; choose from: {', '.join(RETRIEVERS)}")
    _check_k(k)
    return [Config(chunker=c, retriever=r, k=k, expand=e) for c in chunkers for r in retrievers for e in expand]


def _check_k(k) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise CompareError(f"k must be a whole number >= 1, got {k!r}")


def select(questions, split: str) -> list:
    if split not in SPLITS:
        raise CompareError(f"unknown split {split!r}; choose from: {', '.join(SPLITS)}")
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


def attribute(ranked: list[int], found: dict[int, frozenset[int]], retriever, query: str, k: int) -> str:
    """The one stage responsible for a question's outcome (see `STAGE_HELP`).

    A retriever that reranks exposes `first_stage`; its top 50 is the pool. Any other
    retriever is its own first stage.
    """
    if any(i in found for i in ranked[:k]):
        return "served"
    if not found:
        return "chunker"
    first = getattr(retriever, "first_stage", None)
    pool = [h.index for h in (first or retriever).search(query, POOL)]
    if not any(i in found for i in pool):
        return "retriever"
    if first is not None and any(i in found for i in pool[:k]):
        return "reranker"
    return "ranked-low"


def evaluate(pipe: Pipeline, questions, cover, k: int, min_coverage: float, terms=analyze,
             queries: dict | None = None) -> list[dict]:
    """One record per question: the ranking's metrics, the answer at threshold 0, the stage.

    The answer is computed once with threshold 0 together with its confidence; at any
    threshold t the answerer abstains exactly when confidence < t and otherwise returns
    the same answer, so tuning needs no second retrieval and no second answer.
    `terms` is the analyzer (a memoised one in a grid); `queries` caches the query text
    per (expansion setting, question), which is all `pipe.query_text` depends on.
    """
    depth = max(k, MRR_DEPTH)
    queries = {} if queries is None else queries
    n_words: dict[int, int] = {}
    records = []
    for q in questions:
        key = (pipe.config.expand, q.question)
        if key not in queries:
            queries[key] = pipe.query_text(q.question)
        query = queries[key]
        hits = pipe.retriever.search(query, depth)
        ranked = [h.index for h in hits]
        top = [pipe.chunks[i] for i in ranked[:k]]
        result = pipe.answer(q.question, top, threshold=0.0, scores=[h.score for h in hits[:k]])
        shown = "; ".join(s.text for s in result.short_answers) or result.text
        words_k = 0
        for i in ranked[:k]:
            if i not in n_words:
                n_words[i] = len(words(pipe.chunks[i].text))
            words_k += n_words[i]
        rec = {"id": q.id, "lang": q.lang, "kind": q.kind, "split": q.split, "answerable": q.answerable,
               "top": [pipe.chunks[i].id for i in ranked], "words": words_k,
               "answer": None if result.abstained else result.text, "coverage": result.coverage,
               "confidence": result.confidence, "short": None if result.abstained else shown,
               "faithfulness": None if result.abstained else faithfulness(result.text, [c.text for c in top])}
        if q.answerable:
            found = cover[q.id]
            gain = gains([found.get(i, frozenset()) for i in ranked])
            ideal = ideal_gains(list(found.values()), q.n_facts)
            rec.update({
                "rank": first_rank(gain), "hit1": hit_at(gain, 1), "hitk": hit_at(gain, k),
                "recall": recall_at(gain, q.n_facts, k), "mrr": reciprocal_rank(gain, MRR_DEPTH),
                "ndcgk": ndcg_at(gain, ideal, k), "ndcg10": ndcg_at(gain, ideal, MRR_DEPTH),
                "stage": attribute(ranked, found, pipe.retriever, query, k),
                "f1": 0.0 if result.abstained else f1_of_terms(terms(result.text), terms(q.answer)),
                "em": 0.0 if result.abstained else float(terms(result.text) == terms(q.answer)),
                "short_f1": 0.0 if result.abstained else f1_of_terms(terms(shown), terms(q.answer)),
                "short_em": 0.0 if result.abstained else float(terms(shown) == terms(q.answer)),
                "holds": 0.0 if result.abstained else float(holds_fact(
                    "\n".join([s.text for s in result.short_answers] + [result.text]), q.answer)),
                "citation_precision": None if result.abstained else citation_precision(
                    [pipe.by_id[c] for c in result.citations], q.evidence, min_coverage),
            })
        records.append(rec)
    return records


def answered(rec: dict, threshold: float) -> bool:
    return rec["answer"] is not None and rec["confidence"] >= threshold


def summarise(records: list[dict], threshold: float) -> dict:
    """Metrics over `records` at an abstention threshold; None where there is nothing to average."""
    ans = [r for r in records if r["answerable"]]
    una = [r for r in records if not r["answerable"]]
    out = {"n": len(records), "answerable": len(ans), "unanswerable": len(una)}
    for key in ("hit1", "hitk", "recall", "mrr", "ndcgk", "ndcg10"):
        out[key] = mean(r[key] for r in ans)
    out["words"] = mean(float(r["words"]) for r in records)
    out["f1"] = mean(r["f1"] if answered(r, threshold) else 0.0 for r in ans)
    out["em"] = mean(r["em"] if answered(r, threshold) else 0.0 for r in ans)
    for key in ("short_f1", "short_em", "holds"):
        out[key] = mean(r[key] if answered(r, threshold) else 0.0 for r in ans)
    out["faithfulness"] = mean(r["faithfulness"] for r in records if answered(r, threshold))
    out["citation_precision"] = mean(r["citation_precision"] for r in ans if answered(r, threshold))
    out["answer_rate"] = mean(1.0 if answered(r, threshold) else 0.0 for r in ans)
    out["abstention_rate"] = mean(0.0 if answered(r, threshold) else 1.0 for r in una)
    counts = {s: 0 for s in STAGES}
    for r in ans:
        counts[r["stage"]] += 1
    out["attribution"] = counts
    return out


def tune(records: list[dict]) -> dict:
    """The abstention threshold by `TUNING_RULE` on the given (dev) records.

    Why not "answer F1 + abstention rate": a correct extractive answer quotes a whole
    sentence against a short reference and scores an F1 of about 0.3 to 0.6, so that
    sum makes abstaining look cheap and picks thresholds that refuse most answerable
    questions. Balanced accuracy weighs a wrong refusal and a wrong answer alike.
    """
    best = None
    for t in THRESHOLDS:
        s = summarise(records, t)
        objective = (s["answer_rate"] or 0.0) + (s["abstention_rate"] or 0.0)
        key = (objective, s["f1"] or 0.0)
        if best is None or key > best["key"]:
            best = {"key": key, "threshold": t, "objective": objective, "f1": s["f1"],
                    "answer_rate": s["answer_rate"], "abstention_rate": s["abstention_rate"], "n": s["n"]}
    del best["key"]
    return best


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


def _round(x):
    """Six decimals in the report: far below what any table shows, and it absorbs a
    last-bit difference in `math.log2` between the native and the browser libm."""
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, dict):
        return {k: _round(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v) for v in x]
    return x


def _interval(values, draws):
    got = percentile_interval(values, draws)
    return None if got is None else [got[0], got[1]]


def _paired(values: list[float], base: list[float], draws) -> dict:
    diffs = [a - b for a, b in zip(values, base)]
    lo, hi = percentile_interval(diffs, draws) or (None, None)
    return {"diff": mean(diffs), "low": lo, "high": hi, "contains_zero": lo is not None and lo <= 0.0 <= hi}


def _check(questions, split, configs, min_coverage, k):
    _check_k(k)
    if not isinstance(min_coverage, (int, float)) or not 0 < min_coverage <= 1:
        raise CompareError(f"min coverage must be in (0, 1], got {min_coverage!r}")
    if not configs:
        raise CompareError("no configurations to compare; name at least one chunker and one retriever")
    for c in configs:
        try:
            c.check()
        except ValueError as err:
            raise CompareError(str(err)) from None
        if c.expand and not expansion_available():
            raise CompareError("query expansion is not available in this build; use --expand off")
    if not any(q.answerable for q in questions):
        raise CompareError("the golden file has no answerable questions; retrieval cannot be scored without evidence")
    chosen = select(questions, split)
    if not chosen:
        raise CompareError(f"the {split!r} split has no questions; choose another --split or add questions to it")
    if not any(q.answerable for q in chosen):
        raise CompareError(f"the {split!r} split has no answerable questions; retrieval cannot be scored without evidence")
    return chosen


def run(docs, questions, configs=None, split: str = "test", min_coverage: float = 0.5, k: int = 5,
        seed: int = SEED, baseline: str | None = None, id_labels: bool = False, per_question: bool = False,
        progress=None) -> dict:
    """Compare `configs` (default: the whole grid) on one split; returns the JSON-ready report.

    `progress(done, total, label)`, when given, is called as configurations complete.
    """
    configs = grid(k=k) if configs is None else [replace(c, k=k) for c in configs]
    chosen = _check(questions, split, configs, min_coverage, k)
    labels = [c.label for c in configs]
    if len(set(labels)) != len(labels):
        raise CompareError("a configuration is listed twice; name each chunker and retriever once")
    baseline = baseline or (DEFAULT_BASELINE if DEFAULT_BASELINE in labels else labels[0])
    if baseline not in labels:
        raise CompareError(f"unknown baseline {baseline!r}; choose one of: {', '.join(labels)}")
    dev = [q for q in questions if q.split == "dev"]
    wanted = {q.id for q in chosen} | {q.id for q in dev}
    asked = [q for q in questions if q.id in wanted]  # golden-file order, each question once

    covers: dict[str, dict] = {}
    label_ids: dict[str, dict[str, list[str]]] = {}  # chunker -> question -> ids of covering chunks
    results: dict[str, list[dict]] = {}
    built: dict[tuple[str, str], Pipeline] = {}
    queries: dict = {}
    terms = memoized_analysis()
    for n, config in enumerate(configs):
        if progress:
            progress(n, len(configs), config.label)
        key = (config.chunker, config.retriever)
        if key not in built:
            built.clear()  # one index in memory at a time (configs come grouped by chunker x retriever)
            built[key] = Pipeline(docs, config)
        pipe = built[key].with_config(config)  # the index depends only on chunker and retriever
        if config.chunker not in covers:
            covers[config.chunker] = coverage_index(pipe.chunks, asked, min_coverage)
            label_ids[config.chunker] = {qid: [pipe.chunks[i].id for i in found]
                                         for qid, found in covers[config.chunker].items()}
        results[config.label] = evaluate(pipe, asked, covers[config.chunker], k, min_coverage, terms, queries)
    built.clear()
    if progress:
        progress(len(configs), len(configs), "done")

    report_ids = {q.id for q in chosen}
    answerable_ids = [q.id for q in chosen if q.answerable]
    draws = resamples(len(answerable_ids), RESAMPLES, seed)
    slices = slice_keys(chosen)

    def vector(label, key):
        by_id = {r["id"]: r for r in results[label]}
        return [by_id[qid][key] for qid in answerable_ids]

    rows = []
    for config in configs:
        recs = results[config.label]
        dev_recs = [r for r in recs if r["split"] == "dev"]
        if dev_recs:
            tuning = tune(dev_recs)
            tuning["rule"] = "tuned on dev"
        else:
            tuning = {"threshold": Config().threshold, "objective": None, "f1": None, "answer_rate": None,
                      "abstention_rate": None, "n": 0, "rule": "no dev questions: the default threshold"}
        t = tuning["threshold"]
        mine = [r for r in recs if r["id"] in report_ids]
        row = {"label": config.label, "chunker": config.chunker, "retriever": config.retriever,
               "expand": config.expand, "threshold": t, "tuning": tuning,
               "metrics": summarise(mine, t),
               "slices": {s["name"]: summarise([r for r in mine if _in_slice(r, s)], t) for s in slices},
               "ci": {m: _interval(vector(config.label, m), draws) for m in ("mrr", "recall")},
               "paired": None if config.label == baseline else {
                   m: _paired(vector(config.label, m), vector(baseline, m), draws) for m in ("mrr", "recall")}}
        rows.append(row)

    report = {
        "settings": {"split": split, "k": k, "min_coverage": min_coverage, "seed": seed, "resamples": RESAMPLES,
                     "baseline": baseline, "served": Config().label, "tuning_rule": TUNING_RULE,
                     "thresholds": list(THRESHOLDS),
                     "articles": len(docs), "questions": len(chosen), "answerable": len(answerable_ids),
                     "unanswerable": len(chosen) - len(answerable_ids),
                     "dev_questions": len(dev), "stages": {s: STAGE_HELP[s] for s in STAGES}},
        "configs": rows,
        "slices": slices,
    }
    if id_labels:
        report["id_labels"] = id_label_study(configs, results, covers, label_ids, answerable_ids, baseline, k)
    if per_question:
        by_label = {label: {r["id"]: r for r in results[label]} for label in labels}
        report["questions"] = []
        for q in chosen:
            for row in rows:
                r = by_label[row["label"]][q.id]
                said = answered(r, row["threshold"])
                report["questions"].append({
                    "id": q.id, "lang": q.lang, "kind": q.kind, "config": row["label"], "rank": r.get("rank"),
                    "stage": r.get("stage"), "answered": said,
                    "f1": (r["f1"] if said else 0.0) if q.answerable else None})
    return _round(report)


def id_label_study(configs, results, covers, label_ids, answerable_ids, baseline, k) -> list[dict]:
    """Score each chunker against chunk-id labels authored with every chunker, and against spans.

    An id label is the list of chunk ids (of the labelling chunker) that cover the
    evidence; a retrieved chunk is relevant when its id is in the list. Ids are
    "<doc>#<n>", so another chunker's ids match only by accident of numbering: the
    gap between the id score and the span score is what labelling with one chunker
    is worth. Uses the baseline's retriever and expansion setting.
    """
    base = next(c for c in configs if c.label == baseline)
    scored = [c for c in configs if c.retriever == base.retriever and c.expand == base.expand]
    out = []
    for labeller in [c.chunker for c in scored]:
        for config in scored:
            by_id = {r["id"]: r for r in results[config.label]}
            rr_ids, rec_ids, rr_spans, rec_spans = [], [], [], []
            for qid in answerable_ids:
                rel = set(label_ids[labeller].get(qid, ()))
                gain = [1 if cid in rel else 0 for cid in by_id[qid]["top"]]
                rr_ids.append(reciprocal_rank(gain, MRR_DEPTH))
                rec_ids.append(recall_at(gain, len(rel), k) if rel else 0.0)
                rr_spans.append(by_id[qid]["mrr"])
                rec_spans.append(by_id[qid]["recall"])
            out.append({"labels_by": labeller, "chunker": config.chunker, "config": config.label,
                        "mrr_ids": mean(rr_ids), "mrr_spans": mean(rr_spans),
                        "recall_ids": mean(rec_ids), "recall_spans": mean(rec_spans)})
    return out


# --- rendering ------------------------------------------------------------------------------------


def _f(x, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _ci(pair) -> str:
    return "n/a" if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _signed(x) -> str:
    return "n/a" if x is None else f"{x:+.3f}"


def _label(key: str, k: int) -> str:
    return dict(METRICS)[key].format(k=k)


def _verdict(p: dict) -> str:
    if p["low"] is None:
        return "n/a"
    if p["contains_zero"]:
        return "no clear difference (interval contains 0)"
    return "better" if p["diff"] > 0 else "worse"


def headline(report: dict) -> dict:
    """The headline table: one row per configuration, the numbers a reader needs first."""
    k = report["settings"]["k"]
    header = ["configuration", f"recall@{k}", "95% CI", "MRR@10", "95% CI", f"nDCG@{k}", "holds fact", "short F1",
              "answer F1", "answered", "abstained"]
    rows = []
    for row in report["configs"]:
        m = row["metrics"]
        rows.append([row["label"], _f(m["recall"]), _ci(row["ci"]["recall"]), _f(m["mrr"]), _ci(row["ci"]["mrr"]),
                     _f(m["ndcgk"]), _f(m["holds"]), _f(m["short_f1"]), _f(m["f1"]), _f(m["answer_rate"]),
                     _f(m["abstention_rate"])])
    return {"title": "Headline", "header": header, "rows": rows}


def sections(report: dict) -> list[dict]:
    """The report as titled tables with short notes, shared by the text and Markdown formats."""
    st = report["settings"]
    k = st["k"]
    n_ans, n_una = st["answerable"], st["unanswerable"]
    out = []
    head = headline(report)
    head["notes"] = [
        f"Split `{st['split']}`: {st['questions']} questions ({n_ans} answerable, {n_una} unanswerable), "
        f"{st['articles']} articles, k = {k}, a chunk covers a passage when it overlaps at least "
        f"{st['min_coverage']:g} of it. Intervals: percentile bootstrap over questions, "
        f"{st['resamples']:,} resamples, seed {st['seed']}.",
        f"Retrieval metrics are over the {n_ans} answerable questions; \"answered\" is the answer rate on "
        f"answerable questions, \"abstained\" the abstention rate on the {n_una} unanswerable ones. "
        f"The served default (`raglab ask` without options) is {st['served']}.",
    ]
    if st["split"] != "test":
        head["notes"].append("The reported questions include the dev questions the thresholds were tuned on, "
                             "so the answer metrics here are in-sample and optimistic; report on `test`.")
    out.append(head)

    keys = ("hit1", "hitk", "recall", "mrr", "ndcgk", "ndcg10", "words")
    out.append({"title": "Retrieval", "notes": [
        f"Answerable questions (n = {n_ans}). words@{k}: mean words handed to the answerer (all questions)."],
        "header": ["configuration"] + [_label(x, k) for x in keys],
        "rows": [[r["label"]] + [_f(r["metrics"][x], 1 if x == "words" else 3) for x in keys]
                 for r in report["configs"]]})

    keys = ("holds", "short_f1", "short_em", "f1", "em", "faithfulness", "citation_precision", "answer_rate",
            "abstention_rate")
    out.append({"title": "Answers", "notes": [
        "Threshold: " + st["tuning_rule"] + ".",
        "holds fact: the answer (short answers and quoted sentences) states every number of the reference "
        "answer and at least half of its other terms (`metrics.holds_fact`); short F1 and EM: token F1 and "
        "exact match of the short answers (the quoted sentence where there is none) against the reference; "
        f"F1 and EM: of the quoted sentences. All over answerable questions (an abstention scores 0); faithful: share of answer sentences "
        f"found verbatim in the top {k} chunks (answered questions); cite prec: share of cited chunks that "
        f"cover an evidence passage (answered answerable questions)."],
        "header": ["configuration", "threshold", "dev objective"] + [_label(x, k) for x in keys],
        "rows": [[r["label"], f"{r['threshold']:.2f}", _f(r["tuning"]["objective"])] +
                 [_f(r["metrics"][x]) for x in keys] for r in report["configs"]]})

    rows = []
    for r in report["configs"]:
        p = r["paired"]
        if p is None:
            continue
        for m, name in (("mrr", "MRR@10"), ("recall", f"recall@{k}")):
            d = p[m]
            rows.append([r["label"], name, _signed(d["diff"]),
                         "n/a" if d["low"] is None else f"[{d['low']:+.3f}, {d['high']:+.3f}]", _verdict(d)])
    if rows:
        out.append({"title": f"Against the baseline ({st['baseline']})", "notes": [
            "Paired bootstrap of the per-question difference (configuration minus baseline), 95% interval. "
            "When the interval contains 0 the data cannot tell the two apart. With many configurations, "
            "expect about one interval in twenty to exclude 0 by chance alone."],
            "header": ["configuration", "metric", "difference", "95% CI", "verdict"], "rows": rows})

    out.append({"title": "Failure attribution", "notes": [
        f"Each answerable question is attributed to exactly one stage; shares sum to 1 (n = {n_ans}). "
        + "; ".join(f"{s}: {STAGE_HELP[s]}" for s in STAGES) + "."],
        "header": ["configuration"] + list(STAGES),
        "rows": [[r["label"]] + [_share(r["metrics"]["attribution"][s], n_ans) for s in STAGES]
                 for r in report["configs"]]})

    for group in ("language", "kind", "language x kind"):
        cols = [s for s in report["slices"] if s["group"] == group and s["answerable"]]
        if not cols:
            continue
        for key in ("mrr", "recall"):
            out.append({"title": f"{_label(key, k)} by {group}", "notes": [],
                        "header": ["configuration"] + [f"{s['name']} (n={s['answerable']})" for s in cols],
                        "rows": [[r["label"]] + [_f(r["slices"][s["name"]][key]) for s in cols]
                                 for r in report["configs"]]})
    cols = [s for s in report["slices"] if s["group"] == "language" and s["answerable"]]
    if cols:
        keys = ("holds", "short_f1", "answer_rate")
        out.append({"title": "Answers by language", "notes": [
            "holds fact, short F1 and answer rate on the answerable questions of each language."],
            "header": ["configuration"] + [f"{_label(x, k)} {s['name']} (n={s['answerable']})"
                                           for s in cols for x in keys],
            "rows": [[r["label"]] + [_f(r["slices"][s["name"]][x]) for s in cols for x in keys]
                     for r in report["configs"]]})
    cols = [s for s in report["slices"] if s["group"] == "language x kind" and s["kind"] == "unanswerable"]
    if cols:
        out.append({"title": "Abstention on unanswerable questions by language", "notes": [],
                    "header": ["configuration"] + [f"{s['lang']} (n={s['n']})" for s in cols],
                    "rows": [[r["label"]] + [_f(r["slices"][s["name"]]["abstention_rate"]) for s in cols]
                             for r in report["configs"]]})

    if "id_labels" in report:
        rows = [[x["labels_by"], x["chunker"], _f(x["mrr_ids"]), _f(x["mrr_spans"]),
                 _signed(_sub(x["mrr_ids"], x["mrr_spans"])), _f(x["recall_ids"]), _f(x["recall_spans"]),
                 _signed(_sub(x["recall_ids"], x["recall_spans"]))] for x in report["id_labels"]]
        out.append({"title": "Id labels versus spans", "notes": [
            "Each question labelled with the chunk ids of one chunker (the chunks covering its evidence), every "
            "chunker scored against those ids and against spans (retriever and expansion of the baseline). "
            "The difference is what authoring labels with one chunker is worth."],
            "header": ["labels by", "scored", "MRR ids", "MRR spans", "diff", f"recall@{k} ids",
                       f"recall@{k} spans", "diff"], "rows": rows})

    if "questions" in report:
        rows = [[q["id"], q["lang"], q["kind"], q["config"], "-" if q["rank"] is None else str(q["rank"]),
                 q["stage"] or "-", "yes" if q["answered"] else "no", _f(q["f1"], 2)] for q in report["questions"]]
        out.append({"title": "Per question", "notes": [
            f"rank: first chunk covering the evidence within the top {max(k, MRR_DEPTH)} ('-': none)."],
            "header": ["question", "lang", "kind", "configuration", "rank", "stage", "answered", "F1"], "rows": rows})
    return out


def _share(count: int, n: int) -> str:
    return f"{count / n:.3f}" if n else "n/a"


def _sub(a, b):
    return None if a is None or b is None else a - b


def _numeric(cell: str) -> bool:
    return cell[:1].isdigit() or cell[:1] in "+-[" or cell == "n/a"


def table_text(header: list[str], rows: list[list[str]]) -> str:
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    right = [i > 0 and all(_numeric(r[i]) for r in rows) for i in range(len(header))]

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def table_markdown(header: list[str], rows: list[list[str]]) -> str:
    right = [i > 0 and all(_numeric(r[i]) for r in rows) for i in range(len(header))]
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(out)


REGENERATE = "raglab compare --split test --id-labels --format markdown > docs/results.md"


def render(report: dict, fmt: str = "text") -> str:
    """The report as `text` (aligned tables), `markdown`, `csv` (one row per configuration,
    or per question and configuration when the report has them) or `json`."""
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    if fmt == "csv":
        return _csv(report)
    if fmt not in ("text", "markdown"):
        raise CompareError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
    st = report["settings"]
    parts = []
    if fmt == "markdown":
        parts.append("# Results: every chunker x retriever, scored on spans\n\n"
                     f"Written by `raglab compare --format markdown` on the `{st['split']}` split; do not edit "
                     f"by hand. The committed docs/results.md is regenerated with `{REGENERATE}`, and a test "
                     "fails when the committed file differs from a fresh run.")
    else:
        n = len(report["configs"])
        parts.append(f"raglab compare: split {st['split']}, {st['questions']} questions, "
                     f"{n} configuration{'' if n == 1 else 's'}, baseline {st['baseline']}")
    for sec in sections(report):
        if fmt == "markdown":
            body = [f"## {sec['title']}"] + sec["notes"] + [table_markdown(sec["header"], sec["rows"])]
        else:
            body = [f"{sec['title']}\n" + "=" * len(sec["title"])] + sec["notes"] + [table_text(sec["header"], sec["rows"])]
        parts.append("\n\n".join(body))
    return "\n\n".join(parts) + "\n"


def _csv(report: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if "questions" in report:
        w.writerow(["question", "lang", "kind", "configuration", "rank", "stage", "answered", "f1"])
        for q in report["questions"]:
            w.writerow([q["id"], q["lang"], q["kind"], q["config"], "" if q["rank"] is None else q["rank"],
                        q["stage"] or "", int(q["answered"]), "" if q["f1"] is None else q["f1"]])
        return buf.getvalue()
    keys = [key for key, _ in METRICS]
    w.writerow(["configuration", "chunker", "retriever", "expand", "threshold", "n", "answerable", "unanswerable"]
               + keys + ["mrr_low", "mrr_high", "recall_low", "recall_high", "mrr_diff", "mrr_diff_low",
                         "mrr_diff_high", "recall_diff", "recall_diff_low", "recall_diff_high"]
               + [f"stage_{s}" for s in STAGES])
    for r in report["configs"]:
        m = r["metrics"]
        ci = [v for pair in (r["ci"]["mrr"], r["ci"]["recall"]) for v in (pair or ["", ""])]
        paired = []
        for key in ("mrr", "recall"):
            d = r["paired"][key] if r["paired"] else {"diff": "", "low": "", "high": ""}
            paired += [d["diff"], d["low"], d["high"]]
        w.writerow([r["label"], r["chunker"], r["retriever"], int(r["expand"]), r["threshold"], m["n"],
                    m["answerable"], m["unanswerable"]] + ["" if m[key] is None else m[key] for key in keys]
                   + ci + ["" if v is None else v for v in paired] + [m["attribution"][s] for s in STAGES])
    return buf.getvalue()


# --- command line -----------------------------------------------------------------------------------


class Progress:
    """Progress on stderr, shown only once a comparison has run for more than a second."""

    def __init__(self, stream=None, delay: float = 1.0):
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False

    def __call__(self, done: int, total: int, label: str) -> None:
        if time.monotonic() - self.start < self.delay:
            return
        self.shown = True
        msg = f"compare: {done}/{total} configurations ({label}), {time.monotonic() - self.start:.0f} s"
        if self.stream.isatty():
            self.stream.write("\r" + msg.ljust(72))
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write(msg + "\n")
        self.stream.flush()


def report_from_args(args, progress=None) -> dict:
    """The report the command line asks for (the regeneration test calls this too)."""
    import os

    from .cli import UsageError, bundled_goldens_path, corpus_docs
    from .goldens import load_goldens

    expand = {None: None, "off": (False,), "on": (True,), "both": (False, True)}[args.expand]
    configs = grid(args.chunker, args.retriever, expand, args.k)
    docs = corpus_docs(args)
    path = args.goldens or bundled_goldens_path()
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such golden file; pass --goldens FILE")
    questions = load_goldens(path, docs)
    return run(docs, questions, configs, split=args.split, min_coverage=args.min_coverage, k=args.k,
               seed=args.seed, baseline=args.baseline, id_labels=args.id_labels,
               per_question=args.per_question, progress=progress)


def cmd_compare(args) -> int:
    report = report_from_args(args, progress=Progress())
    sys.stdout.write(render(report, "json" if args.json else args.format))
    return 0


def add_compare_parser(subparsers) -> None:
    import argparse

    from .cli import add_corpus_arg

    p = subparsers.add_parser(
        "compare", help="score every chunker x retriever on the golden set",
        description="Score every chunker x retriever (x query expansion) on one split of the golden set: "
                    "retrieval and answer metrics, bootstrap intervals, paired differences against a "
                    "baseline, slices and failure attribution. Relevance is span overlap, never chunk ids.",
        epilog="Examples:\n  raglab compare\n  raglab compare --split dev --retriever bm25 --retriever hybrid\n"
               "  raglab compare --per-question --format csv > per-question.csv\n"
               f"  {REGENERATE}\n\nAbstention threshold: {TUNING_RULE}.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="test", choices=SPLITS, help="questions to report on (default test)")
    p.add_argument("--chunker", action="append", metavar="NAME",
                   help=f"a chunker to include, repeatable (default all: {', '.join(CHUNKERS)})")
    p.add_argument("--retriever", action="append", metavar="NAME",
                   help=f"a retriever to include, repeatable (default all: {', '.join(RETRIEVERS)})")
    p.add_argument("--expand", choices=("off", "on", "both"), default=None,
                   help="query expansion: off, on, or both as separate rows (default both when available)")
    p.add_argument("-k", type=int, default=5, help="chunks handed to the answerer and the cut of hit/recall/nDCG (default 5)")
    p.add_argument("--min-coverage", type=float, default=0.5, metavar="X",
                   help="share of an evidence passage a chunk must overlap to cover it (default 0.5)")
    p.add_argument("--baseline", metavar="LABEL",
                   help=f"configuration for the paired differences (default {DEFAULT_BASELINE})")
    p.add_argument("--seed", type=int, default=SEED, help=f"bootstrap seed (default {SEED})")
    p.add_argument("--id-labels", action="store_true", help="add the id-label bias study")
    p.add_argument("--per-question", action="store_true",
                   help="add each question's first relevant rank and attributed stage per configuration")
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--goldens", metavar="FILE", help="golden JSON Lines file (default: the bundled set)")
    add_corpus_arg(p)
    p.set_defaults(func=cmd_compare)
