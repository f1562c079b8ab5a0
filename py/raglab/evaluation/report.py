"""Rendering of an evaluation report (`evaluation.run`'s result) as text, Markdown, CSV
or JSON. Data in, text out: the CLI prints it, the browser's Evaluate tab shows the same
tables (`sections`), and `build.py results` writes docs/results.md with it.

A new report section goes into `sections` (a title, notes and a table of strings).
"""

from __future__ import annotations

import csv
import io
import json

from raglab.evaluation import findings
from raglab.evaluation.engine import MRR_DEPTH, EvaluationError
from raglab.evaluation.metrics import MIN_INTERVAL_N
from raglab.evaluation.stats import RISK_BUDGET, STAGE_HELP, STAGES
from raglab.pipeline import Config

FORMATS = ("text", "markdown", "csv", "json")
# Per-configuration metrics: key in the report, label in tables ({k} is filled in).
METRICS = (
    ("hit1", "hit@1"), ("hitk", "hit@{k}"), ("recall", "recall@{k}"), ("mrr", "MRR@10"),
    ("ndcgk", "nDCG@{k}"), ("ndcg10", "nDCG@10"), ("words", "words@{k}"),
    ("f1", "F1"), ("em", "EM"), ("short_f1", "short F1"), ("short_em", "short EM"), ("holds", "holds fact"),
    ("holds_strict", "holds strict"),
    ("faithfulness", "faithful"), ("citation_precision", "cite prec"),
    ("answer_rate", "answered"), ("abstention_rate", "abstained"), ("wrong_rate", "wrong"), ("risk", "risk"),
    ("misleading1", "misleading@1"), ("ctx_precision", "ctx precision@{k}"), ("ctx_recall", "ctx recall@{k}"),
)


def _f(x, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


TOO_FEW = f"n too small (< {MIN_INTERVAL_N})"  # in place of an interval, see metrics.MIN_INTERVAL_N


def _ci(pair) -> str:
    return TOO_FEW if pair is None else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _signed(x) -> str:
    return "n/a" if x is None else f"{x:+.3f}"


def _label(key: str, k: int) -> str:
    return dict(METRICS)[key].format(k=k)


def _verdict(p: dict) -> str:
    if p["low"] is None:
        return TOO_FEW
    if p["contains_zero"]:
        return "no clear difference (interval contains 0)"
    word = "better" if p["diff"] > 0 else "worse"
    if p.get("survives") is False:
        return f"{word}, but not after Holm's correction"
    return f"{word} (survives Holm's correction)"


def headline(report: dict) -> dict:
    """The headline table: one row per configuration, the numbers a reader needs first."""
    k = report["settings"]["k"]
    header = ["configuration", f"recall@{k}", "95% CI", "MRR@10", "95% CI", f"nDCG@{k}", "holds fact", "short F1",
              "answer F1", "answered", "abstained", "wrong", "risk"]
    rows = []
    for row in report["configs"]:
        m = row["metrics"]
        rows.append([row["label"], _f(m["recall"]), _ci(row["ci"]["recall"]), _f(m["mrr"]), _ci(row["ci"]["mrr"]),
                     _f(m["ndcgk"]), _f(m["holds"]), _f(m["short_f1"]), _f(m["f1"]), _f(m["answer_rate"]),
                     _f(m["abstention_rate"]), _f(m["wrong_rate"]), _f(m["risk"])])
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
        f"answerable questions, \"abstained\" the abstention rate on the {n_una} unanswerable ones, \"wrong\" "
        "the share of all questions given an answer that does not state the reference fact, \"risk\" the same "
        f"answers' share of the answered questions (what the abstention threshold keeps at or under {RISK_BUDGET:.2f} "
        "on dev). "
        f"The served default (`raglab ask` without options) is {st['served']}.",
    ]
    if st["split"] != "test":
        head["notes"].append("The reported questions include the dev questions the thresholds were tuned on, "
                             "so the answer metrics here are in-sample and optimistic; report on `test`.")
    out.append(head)

    keys: tuple[str, ...] = ("hit1", "hitk", "recall", "mrr", "ndcgk", "ndcg10", "words")
    out.append({"title": "Retrieval", "notes": [
        f"Answerable questions (n = {n_ans}). words@{k}: mean words handed to the answerer (all questions)."],
        "header": ["configuration"] + [_label(x, k) for x in keys],
        "rows": [[r["label"]] + [_f(r["metrics"][x], 1 if x == "words" else 3) for x in keys]
                 for r in report["configs"]]})

    keys = ("holds", "holds_strict", "short_f1", "short_em", "f1", "em", "faithfulness", "citation_precision",
            "answer_rate", "abstention_rate")
    out.append({"title": "Answers", "notes": [
        "Threshold: " + st["tuning_rule"] + ".",
        "holds fact: the answer as shown (short answers and quotes) states every number of the reference "
        "answer, numbers written in words read as numbers (দুই লাখ = ২,০০,০০০), and at least half of its other "
        "terms, or, for an answer in the other language than the reference, half the terms of one of each "
        "fact's passages in that language (`metrics.holds_fact`); holds strict: digits only and the "
        "reference's own terms; short F1 and EM: token F1 and "
        "exact match of the short answers (the quotes where there is none) against the reference; "
        f"F1 and EM: of the quotes. All over answerable questions (an abstention scores 0); faithful: share of "
        f"quotes taken verbatim from the articles of the top {k} chunks (a table row: each of its cells and column "
        f"names) (answered questions); cite prec: share of cited chunks that "
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
                         TOO_FEW if d["low"] is None else f"[{d['low']:+.3f}, {d['high']:+.3f}]", _verdict(d)])
    if rows:
        out.append({"title": f"Against the baseline ({st['baseline']})", "notes": [
            "Paired bootstrap of the per-question difference (configuration minus baseline), 95% interval. "
            "When the interval contains 0 the data cannot tell the two apart. With many configurations, "
            "expect about one interval in twenty to exclude 0 by chance alone: the verdict therefore also says "
            "whether the difference survives Holm-Bonferroni over every comparison in this table (paired "
            "sign-flip permutation p-values; see \"Is the golden set big enough?\")."],
            "header": ["configuration", "metric", "difference", "95% CI", "verdict"], "rows": rows})

    out.extend(findings.sections(report))

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

    if "recommendation" in report:
        out.append(findings.recommendation(report))

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
    return cell[:1].isdigit() or cell[:1] in "+-[" or cell in ("n/a", TOO_FEW)


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


REGENERATE = "raglab compare --split test -k 3 --id-labels --bench docs/benchmarks.md --format markdown --output docs/results.md"


def served_headline_command(split: str = "test") -> str:
    """The compare behind README.md's headline table (`build.py results` rewrites it): the
    served default against plain BM25 on the same chunks, at the served k."""
    served = Config()
    retrievers = " ".join(f"--retriever {r}" for r in dict.fromkeys((served.retriever, "bm25")))
    return (f"raglab compare --split {split} --chunker {served.chunker} {retrievers} "
            f"--expand {'on' if served.expand else 'off'} -k {served.k}")


def render(report: dict, fmt: str = "text") -> str:
    """The report as `text` (aligned tables), `markdown`, `csv` (one row per configuration,
    or per question and configuration when the report has them) or `json`."""
    if fmt == "json":
        return json.dumps(report, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
    if fmt == "csv":
        return _csv(report)
    if fmt not in ("text", "markdown"):
        raise EvaluationError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")
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


PAIRED_COLUMNS = ("diff", "diff_low", "diff_high", "mde", "p", "p_holm", "survives")


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
               + keys + ["mrr_low", "mrr_high", "recall_low", "recall_high"]
               + [f"{m}_{x}" for m in ("mrr", "recall") for x in PAIRED_COLUMNS]
               + ["aurc", "aurc_low", "aurc_high", "max_coverage"] + [f"stage_{s}" for s in STAGES])
    for r in report["configs"]:
        m = r["metrics"]
        ci = [v for pair in (r["ci"]["mrr"], r["ci"]["recall"]) for v in (pair or ["", ""])]
        paired = []
        for key in ("mrr", "recall"):
            d = r["paired"][key] if r["paired"] else {}
            paired += [d.get(x, "") for x in ("diff", "low", "high", "mde", "p", "p_holm")]
            paired.append("" if "survives" not in d else int(d["survives"]))
        a = r["aurc"]
        w.writerow([r["label"], r["chunker"], r["retriever"], int(r["expand"]), r["threshold"], m["n"],
                    m["answerable"], m["unanswerable"]] + ["" if m[key] is None else m[key] for key in keys]
                   + ci + ["" if v is None else v for v in paired]
                   + ["" if v is None else v for v in (a["value"], *(a["ci"] or (None, None)), a["max_coverage"])]
                   + [m["attribution"][s] for s in STAGES])
    return buf.getvalue()
