"""The report sections a team acts on: harm, risk-coverage, golden-set size, the recommendation.

Each function turns the engine's JSON-ready report into titled tables with notes (the
shape `report.sections` uses), so the text, Markdown and page renderings share them and
every sentence is derived from the numbers: nothing here names a configuration itself.
"""

from __future__ import annotations

from raglab.evaluation.metrics import MIN_INTERVAL_N

RISK_POINTS = (0.0, 0.2, 0.4, 0.6, 0.8)  # thresholds shown in the risk-coverage table


def _f(x, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def _ci(pair) -> str:
    return f"n too small (< {MIN_INTERVAL_N})" if not pair else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _p(x) -> str:
    return "n/a" if x is None else ("<0.001" if x < 0.001 else f"{x:.3f}")


def harm(report: dict) -> dict:
    st = report["settings"]
    rows = []
    for r in report["configs"]:
        m, a = r["metrics"], r["aurc"]
        rows.append([r["label"], _f(m["answer_rate"]), _f(m["abstention_rate"]), _f(m["wrong_rate"]), _f(m["risk"]),
                     _f(m["misleading1"]), _f(a["value"]), _ci(a["ci"]), _f(a["max_coverage"])])
    return {"title": "Harm and selective answering", "notes": [
        f"wrong: share of all {st['questions']} questions answered with an answer that does not state the reference "
        "fact (every number of the reference and at least half of its content terms), or answered at all when "
        "unanswerable; risk: wrong among the answered; both at the tuned threshold. misleading@1: share of "
        "answerable questions whose top chunk comes from an article without any of the evidence and states a "
        "value of the question's answer type (an amount for a how-much question).",
        "AURC: area under the risk-coverage curve (Geifman & El-Yaniv 2017; questions ordered by the answerer's "
        "confidence, tied ones answered together), lower is better, with a 95% percentile bootstrap interval "
        f"over questions ({st['resamples']:,} resamples); max cov.: the share of questions the answerer has "
        "anything to say for at threshold 0, where the curve ends."],
        "header": ["configuration", "answered", "abstained", "wrong", "risk", "misleading@1", "AURC", "95% CI",
                   "max cov."], "rows": rows}


def risk_coverage(report: dict) -> dict:
    header = ["configuration"] + [f"t = {t:.1f}" for t in RISK_POINTS]
    rows = []
    for r in report["configs"]:
        at = {round(p["threshold"], 6): p for p in r["curve"]}
        cells = []
        for t in RISK_POINTS:
            p = at.get(t)
            cells.append("n/a" if p is None else f"{_f(p['coverage'], 2)} / {_f(p['risk'], 2)}")
        rows.append([r["label"]] + cells)
    return {"title": "Risk-coverage", "notes": [
        "Coverage / risk when answering every question whose answer confidence reaches the threshold t "
        "(coverage: answered share of all questions; risk: wrong share of the answered). The page draws the "
        "whole sweep (t = 0.00, 0.05, ..., 1.00) as a chart."], "header": header, "rows": rows}


def context(report: dict) -> dict:
    k = report["settings"]["k"]
    rows = [[r["label"], _f(r["metrics"]["ctx_precision"]), _f(r["metrics"]["ctx_recall"]), _f(r["metrics"]["recall"])]
            for r in report["configs"]]
    return {"title": "Contextual precision and recall (on spans)", "notes": [
        f"DeepEval's definitions with spans instead of an LLM judge, over the top {k}. Contextual precision = "
        "(1/R) x sum over ranks i of (relevant chunks in the top i / i) x r_i, r_i = 1 when the chunk at rank i "
        "covers an evidence passage, R = relevant chunks in the top k. Contextual recall = share of the "
        "reference's facts that the top k chunks cover *together* (recall@k asks one chunk to cover it alone)."],
        "header": ["configuration", f"ctx precision@{k}", f"ctx recall@{k}", f"recall@{k}"], "rows": rows}


def golden_size(report: dict) -> dict | None:
    st = report["settings"]
    k = st["k"]
    rows = []
    family = 0
    survivors = 0
    mdes = []
    for r in report["configs"]:
        if not r["paired"]:
            continue
        for m, name in (("mrr", "MRR@10"), ("recall", f"recall@{k}")):
            d = r["paired"][m]
            family += 1
            survivors += bool(d.get("survives"))
            rows.append([r["label"], name, _f(d["diff"]) if d["diff"] is None else f"{d['diff']:+.3f}", _f(d.get("mde")),
                         _p(d.get("p")), _p(d.get("p_holm")), "yes" if d.get("survives") else "no"])
            if m == "mrr" and d.get("mde") is not None:
                mdes.append(d["mde"])
    if not rows:
        return None
    mdes.sort()
    median = mdes[len(mdes) // 2] if mdes else None
    return {"title": "Is the golden set big enough?", "notes": [
        f"MDE: the smallest true difference from the baseline ({st['baseline']}) that a two-sided paired test on "
        f"these {st['answerable']} answerable questions detects with 80% power at alpha = 0.05, by the normal "
        "approximation (1.960 + 0.842) x sd(d) / sqrt(n), sd(d) from the observed per-question differences. "
        f"Median MDE for MRR@10 over the grid: {_f(median)}; a smaller real difference would mostly go unseen.",
        "p: two-sided paired sign-flip permutation test (2,000 random sign patterns, fixed seed); Holm p: "
        f"Holm-Bonferroni over all {family} comparisons in this table. {survivors} of {family} differences "
        "survive the correction at 0.05 (column 'survives')."],
        "header": ["configuration", "metric", "difference", "MDE", "p", "Holm p", "survives"], "rows": rows}


def _guard_note(rec: dict, k: int) -> str:
    """What the slice guard did, in one sentence ("" when it rejected nothing)."""
    rejected = rec.get("rejected") or {}
    if not rejected:
        return ""
    guards = rec.get("guards") or {}
    parts = []
    for label, names in rejected.items():
        fig = rec["figures"][label].get("slice_figures") or {}
        parts.append(f"{label} (" + ", ".join(
            f"{n} {'recall@' + str(k) if guards[n]['figure'] == 'recall' else 'MRR@10'} {_f(fig.get(n))} < "
            f"{_f(guards[n]['low'])}" for n in names) + ")")
    fallback = any(label in rejected for label in rec.get("guarded") or ())
    kept = "; every candidate is rejected somewhere, so those rejected on the fewest slices go on" if fallback else ""
    return (f" The slice guard rejects {len(rejected)} of them, each below the lower end of the best candidate's "
            f"95% interval on a slice: " + "; ".join(parts) + kept + ".")


def _step4_figure(rec: dict) -> float | None:
    """The figure the pick won step 4 on (with the external sets: the mean of the three)."""
    if "external" in rec["by"] and rec.get("step4"):
        return rec["step4"][rec["pick"]]
    figs = rec["figures"][rec["pick"]]
    return figs["paraphrase_mrr"] if rec["by"].startswith("paraphrase") else figs["mrr"]


def recommendation(report: dict) -> dict:
    st = report["settings"]
    rec = report["recommendation"]
    k = st["k"]
    by = {r["label"]: r for r in report["configs"]}
    pick = by[rec["pick"]]
    m = pick["metrics"]
    basis = ("the dev questions" if rec["chosen_on"] == "dev"
             else f"the reported `{rec['chosen_on']}` questions (there are no dev questions, so this is in-sample)")
    figs = rec["figures"]
    notes = [
        f"Serve {rec['pick']}. Chosen on {basis} ({rec['answerable']} answerable) by the rule: {rec['rule']}.",
        f"Best dev recall@{k}: {rec['best']}, {_f(figs[rec['best']]['recall'])} {_ci(rec['best_ci'])}; "
        f"{len(rec['candidates'])} of {len(report['configs'])} configurations reach {_f(rec['floor'])} and the data "
        f"cannot tell them apart on recall." + _guard_note(rec, k) + f" Among {'the rest' if rec.get('rejected') else 'them'} "
        f"{rec['pick']} has the highest dev {rec['by']} "
        f"({_f(_step4_figure(rec))}).",
        f"On `{st['split']}` it gets recall@{k} {_f(m['recall'])} {_ci(pick['ci']['recall'])}, MRR@10 {_f(m['mrr'])} "
        f"{_ci(pick['ci']['mrr'])}; it answers {_f(m['answer_rate'])} of answerable questions"
        + (f", abstains on {_f(m['abstention_rate'])} of unanswerable ones" if m["abstention_rate"] is not None else "")
        + f", and {_f(m['wrong_rate'])} of all questions get a wrong answer (AURC {_f(pick['aurc']['value'])}); "
        f"it hands the answerer {_f(m['words'], 0)} words per question.",
    ]
    latency = st.get("latency") or {}
    if rec["pick"] in latency:
        notes.append(f"Latency (benchmark file): {latency[rec['pick']]:.1f} ms per question, mean.")
    vs = rec.get("versus_cheapest")
    if vs:
        cheap = figs[rec["cheapest"]]
        saving = (figs[rec["pick"]]["words"] or 0.0) - (cheap["words"] or 0.0)
        if vs["p"] is not None and vs["p"] > 0.05:
            notes.append(f"The data cannot tell it from the cheaper candidate {rec['cheapest']} ({saving:.0f} fewer "
                         f"words per question) on dev MRR@10: difference {vs['diff']:+.3f}, paired p = {_p(vs['p'])}. "
                         f"Where cost matters, serve {rec['cheapest']}: it loses nothing measurable here.")
        else:
            notes.append(f"The cheapest candidate, {rec['cheapest']} ({saving:.0f} fewer words per question), is worse "
                         f"on dev MRR@10 by {vs['diff']:.3f} (paired p = {_p(vs['p'])}): the extra context pays for itself.")
    else:
        notes.append("It is also the cheapest candidate (fewest context words).")
    if rec["pick"] != st["served"] and st["served"] not in by:
        notes.append(f"The served default ({st['served']}) is not among the configurations compared here.")
    elif rec["pick"] != st["served"]:
        notes.append(f"This differs from the served default ({st['served']}): on these dev questions the rule "
                     "prefers another configuration than the one it chose when the default was set.")
    else:
        notes.append("It is the served default (`raglab ask` without options).")
    rows = []
    for label in rec["candidates"]:
        f, r = figs[label], by[label]
        rows.append([label + (" *" if label == rec["pick"] else ""), _f(f["recall"]), _f(f["mrr"]),
                     _f(f["paraphrase_mrr"]), _f(f["words"], 0), _f(r["metrics"]["mrr"]),
                     _f(r["metrics"]["wrong_rate"]), f"{latency[label]:.1f}" if label in latency else "n/a"])
    return {"title": "Recommendation", "notes": notes,
            "header": ["candidate", f"dev recall@{k}", "dev MRR@10", "dev paraphrase MRR", "words",
                       f"{st['split']} MRR@10", f"{st['split']} wrong", "ms/question"], "rows": rows}


def sections(report: dict) -> list[dict]:
    """The sections of this module, in report order (the recommendation closes the report)."""
    out = [harm(report), risk_coverage(report), context(report)]
    size = golden_size(report)
    if size:
        out.append(size)
    return out
