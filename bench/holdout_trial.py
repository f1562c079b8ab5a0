"""Does the served threshold carry to questions written later? A trial on dev only.

    .venv/bin/python bench/holdout_trial.py                 # fit on q001-q697, judge q698 on
    .venv/bin/python bench/holdout_trial.py --from 746
    .venv/bin/python bench/holdout_trial.py --to 890       # judge q698-q889 only
    .venv/bin/python bench/holdout_trial.py --folds question --l2 1,10 --cols ";bias,probability,coverage,missing"
    .venv/bin/python bench/holdout_trial.py --folds question --list       # the later questions shown wrong
    .venv/bin/python bench/holdout_trial.py --folds question --dump 0.6   # the later answers at 0.6 or more, to read
                                                                          # (with their evidence and signals)

The dev questions written before `--from` play the whole fit's part: the sentence model is fitted
on them (with the external sets, as served), the confidence on their out-of-fold answers, and the
threshold is chosen on them by the risk rule as `raglab compare --split dev` chooses the served one
(in sample) or on their out-of-fold confidences. The later questions (the fresh rounds, written
about the articles the set covered least, before anything was fitted on them) are then answered
by that fit and judged at each threshold: what a customer's new question meets. Variants: folds
by question (served) or by fact (a fact asked in one fold is asked in no other, so the out-of-fold
answers cannot lean on its paraphrase; its twin in the other language's article is quoted in other
words, so it counts as another fact), the confidence's L2, and its signals (`--cols`,
each set a subset of `CONFIDENCE_FEATURES`). The test split is never read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fit_answerer  # noqa: E402
from fit_answerer import FOLDS, MODEL, assessed, choice_accuracy, fit_choice, labelled, risk_figures, served_answers, sets  # noqa: E402
from fitting import fit_logistic  # noqa: E402
from raglab.answer.answerer import compose, withheld  # noqa: E402
from raglab.answer.faq import section_reading  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_COL, CONFIDENCE_FEATURES, Model, dot, logistic, softmax  # noqa: E402
from raglab.evaluation.stats import THRESHOLDS  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.retrieval.ranking import rounded  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402


def fact_key(q):
    """Questions about one fact share a key: the article (either language's id) and opening of the
    evidence passage that sorts first."""
    return min((e.doc[3:], e.quote[:40]) for e in q.evidence) if q.evidence else ("", q.id)


def folds_of(exs, how: str) -> dict[int, int]:
    if how == "question":
        return {id(e): n % FOLDS for n, e in enumerate(exs)}
    keys = sorted({fact_key(e["question"]) for e in exs})
    group = {k: i % FOLDS for i, k in enumerate(keys)}
    return {id(e): group[fact_key(e["question"])] for e in exs}


def pick(lab, cols):
    """The labelled answers with only the confidence signals `cols` (all when None)."""
    if not cols:
        return lab
    idx = [CONFIDENCE_COL[c] for c in cols]
    return [((None if x[0] is None else [x[0][i] for i in idx]),) + tuple(x[1:]) for x in lab]


def outcomes_of(lab):
    return [(answerable, speaks, right, f1) for (_, right, answerable, speaks, f1) in lab]


def decided(outcomes, conf, t) -> dict:
    n_ans = max(1, sum(1 for o in outcomes if o[0]))
    shown = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
    wrong = sum(1 for o in shown if not o[2])
    return {"t": t, "holds": round(sum(1 for o in shown if o[2]) / n_ans, 3),
            "answered": round(sum(1 for o in shown if o[0]) / n_ans, 3),
            "risk": round(wrong / len(shown), 3) if shown else 0.0, "shown": len(shown), "wrong": wrong}


CONF_L2 = 0.0  # --conf-l2: the confidence reads a second sentence model fitted at this L2 (0: the choosing one)


def ruled_out(exs, got, weights, m) -> list[bool]:
    """Per example: whether the served answerer withholds its answer by a rule whatever the
    confidence (`answerer.withheld`: another service, no figure, only the way …). The fit keeps
    these answers among its negatives, as `fit_answerer` does, but the served page never shows
    them, so the figures of what a question meets are judged without them."""
    model = Model(tuple(weights), tuple([0.0] * len(CONFIDENCE_FEATURES)), m["second"], m["adjacent"], m["runner"])
    return [a is not None and withheld(a, compose(a, e["pipe"].docs, model), 1.0, 0.0) is not None
            for e, a in zip(exs, got)]


def answers_of(exs, weights, m, k, smooth=None):
    """`served_answers` and `ruled_out`, with the confidence's probability, margin and logit read
    from a second sentence model `smooth` (fitted at `CONF_L2`) over the same candidates, the
    choice unchanged."""
    got = assessed(exs, weights, k)
    out = served_answers(exs, weights, m["second"], m["adjacent"], k, m["runner"], got)
    ruled = ruled_out(exs, got, weights, m)
    if smooth is None:
        return out, ruled
    for n, (e, a, ans) in enumerate(zip(exs, got, out)):
        if ans[0] is None:
            continue
        logits = [rounded(dot(smooth, c.features)) for _, c in a.order]
        probs = softmax(logits)
        best = a.order[0][1]
        others = [z for z, (_, c) in zip(logits[1:], a.order[1:]) if c.quote.text != best.quote.text]
        margin = logits[0] - (max(others) if others else logits[0] - 4.0)
        share, margin = section_reading(list(zip(logits, [c for _, c in a.order])), probs, e["pipe"].docs, a.q) or \
            (probs[0], margin)
        sig = list(ans[0])
        sig[CONFIDENCE_COL["probability"]] = share
        sig[CONFIDENCE_COL["margin"]] = min(margin, 4.0) / 4.0
        sig[CONFIDENCE_COL["logit"]] = logits[0] / 10.0
        out[n] = (sig,) + tuple(ans[1:])
    return out, ruled


def list_wrong(late, late_lab, late_answers, late_conf, t: float) -> None:
    """Print each later question shown wrong at threshold `t`: what a stranger's question meets."""
    for e, x, a, c in zip(late, late_lab, late_answers, late_conf):
        if x[0] is not None and x[3] and c >= t and not x[1]:
            q = e["question"]
            print(json.dumps({"id": q.id, "lang": q.lang, "conf": round(c, 3), "q": q.question,
                              "quote": a[1], "ref": q.answer if q.answerable else None,
                              "evidence": [(v.doc, v.quote) for v in q.evidence]}, ensure_ascii=False), file=sys.stderr)


def run(data, early, late, m, how: str, l2: float, dump: float = 0.0, cols=None, show_wrong=False) -> dict:
    k = Config().k
    late_ids = {id(e) for e in late}
    skip_late = lambda e: id(e) in late_ids  # noqa: E731
    fold = folds_of(early, how)
    weights = fit_choice(data, skip=skip_late)
    fold_w = [fit_choice(data, skip=lambda e, f=f: skip_late(e) or fold.get(id(e)) == f) for f in range(FOLDS)]
    smooth, fold_s = None, [None] * FOLDS
    if CONF_L2:
        choice_l2, fit_answerer.CHOICE_L2 = fit_answerer.CHOICE_L2, CONF_L2
        smooth = fit_choice(data, skip=skip_late)
        fold_s = [fit_choice(data, skip=lambda e, f=f: skip_late(e) or fold.get(id(e)) == f) for f in range(FOLDS)]
        fit_answerer.CHOICE_L2 = choice_l2
    oof, oof_ruled = [None] * len(early), [False] * len(early)
    for f in range(FOLDS):
        idx = [i for i, e in enumerate(early) if fold[id(e)] == f]
        got, ruled = answers_of([early[i] for i in idx], fold_w[f], m, k, fold_s[f])
        for i, x, r in zip(idx, got, ruled):
            oof[i], oof_ruled[i] = x, r
    lab = pick(labelled(early, oof), cols)
    rows = [(x[0], 1 if x[1] else 0, fold[id(e)]) for e, x in zip(early, lab) if x[0] is not None]
    conf_w = fit_logistic([r for r, _, _ in rows], [y for _, y, _ in rows], l2=l2)
    oof_conf = {}
    for f in range(FOLDS):
        w = fit_logistic([r for r, _, g in rows if g != f], [y for _, y, g in rows if g != f], l2=l2)
        for j, (r, _, g) in enumerate(rows):
            if g == f:
                oof_conf[j] = logistic(dot(w, r))
    it = iter(range(len(rows)))
    # An answer a rule withholds is never shown: confidence 0 at every threshold, as `raglab compare` judges it.
    oof_all = [oof_conf[next(it)] if x[0] is not None else 0.0 for x in lab]
    oof_all = [0.0 if r else c for c, r in zip(oof_all, oof_ruled)]
    t_oof = risk_figures(outcomes_of(lab), oof_all)["threshold"]
    in_answers, in_ruled = answers_of(early, weights, m, k, smooth)
    in_lab = pick(labelled(early, in_answers), cols)
    in_conf = [0.0 if r or x[0] is None else logistic(dot(conf_w, x[0])) for x, r in zip(in_lab, in_ruled)]
    t_in = risk_figures(outcomes_of(in_lab), in_conf)["threshold"]
    late_answers, late_ruled = answers_of(late, weights, m, k, smooth)
    late_lab = pick(labelled(late, late_answers), cols)
    late_conf = [0.0 if r or x[0] is None else logistic(dot(conf_w, x[0])) for x, r in zip(late_lab, late_ruled)]
    out = outcomes_of(late_lab)
    if show_wrong:
        print(f"shown wrong at t_in {t_in} ({how} folds):", file=sys.stderr)
        list_wrong(late, late_lab, late_answers, late_conf, t_in)
    if dump:
        for e, x, a, c in zip(late, late_lab, late_answers, late_conf):
            if x[0] is not None and c >= dump:
                q = e["question"]
                names = cols or CONFIDENCE_FEATURES
                print(json.dumps({"id": q.id, "kind": q.kind, "lang": q.lang, "conf": round(c, 3), "right": x[1],
                                  "q": q.question, "ref": q.answer, "evidence": [v.quote for v in q.evidence],
                                  "shown": a[1], "signals": {n: round(v, 3) for n, v in zip(names, x[0])}},
                                 ensure_ascii=False), file=sys.stderr)
    return {"cols": cols, "folds": how, "l2": l2, "choice_l2": fit_answerer.CHOICE_L2, "conf_l2": CONF_L2, "t_in": t_in, "t_oof": t_oof,
            "late_evidence_chosen": choice_accuracy(weights, late),
            "early_in": decided(outcomes_of(in_lab), in_conf, t_in),
            "late_at_t_in": decided(out, late_conf, t_in), "late_at_t_oof": decided(out, late_conf, t_oof),
            "late_curve": [decided(out, late_conf, t) for t in THRESHOLDS if 0.4 <= t <= 0.95]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--from", dest="cut", type=int, default=698, help="first dev question number held out")
    p.add_argument("--to", dest="end", type=int, default=0,
                   help="first dev question number past the held-out ones (0: none; later ones are left out)")
    p.add_argument("--folds", default="question,fact")
    p.add_argument("--l2", default="1")
    p.add_argument("--cols", default="", help="';'-separated sets of comma-separated confidence signals to try")
    p.add_argument("--choice-l2", default="",
                   help="comma-separated L2s of the sentence model to try (committed: fit_answerer.CHOICE_L2)")
    p.add_argument("--conf-l2", default="", help="comma-separated L2s of a second sentence model the confidence "
                   "reads its probability, margin and logit from (0: the choosing model's)")
    p.add_argument("--dump", type=float, default=0.0, help="print the later questions answered at this confidence or more")
    p.add_argument("--list", action="store_true",
                   help="print each later question shown wrong at the in-sample threshold (id, question, "
                        "confidence, quote, reference answer or null when it has none)")
    args = p.parse_args(argv)
    with open(MODEL, encoding="utf-8") as fh:
        m = json.load(fh)
    with memo():
        data = sets()
        ours = data["served"]
        early = [e for e in ours if int(e["question"].id[1:]) < args.cut]
        late = [e for e in ours if int(e["question"].id[1:]) >= args.cut
                and (not args.end or int(e["question"].id[1:]) < args.end)]
        print(f"early {len(early)}, late {len(late)}", file=sys.stderr)
        global CONF_L2
        for choice_l2, CONF_L2 in [(float(c), float(s)) for c in (args.choice_l2 or str(fit_answerer.CHOICE_L2)).split(",")
                                   for s in (args.conf_l2 or "0").split(",")]:
            fit_answerer.CHOICE_L2 = choice_l2
            for how in args.folds.split(","):
                for l2 in (float(x) for x in args.l2.split(",")):
                    for cols in (args.cols.split(";") if args.cols else [""]):
                        print(json.dumps(run(data, early, late, m, how, l2, args.dump,
                                             tuple(cols.split(",")) if cols else None, args.list)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
