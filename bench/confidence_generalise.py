"""Trials for a confidence that holds on new questions: out of fold on our dev split, and
carried to the external sets' dev halves.

    .venv/bin/python bench/confidence_generalise.py      # a few minutes: every trial's figures

The answers are those `fit_answerer.py` fits the confidence on: each of our dev questions
answered from the served top k chunks by the sentence model fitted without its fold, at the
committed `second` / `adjacent` / `runner`. Every trial fits its confidence five times out of
fold; the figures are the AURC of the out-of-fold confidences and the risk rule applied to them
(answered, holds, risk). "Carried" fits the trial on all our dev answers, takes the threshold the
risk rule picks there, and applies both to the answers of the external sets' dev halves (COVID-QA
FAQ, TyDi QA English; the sentence model is fitted on them, the confidence never), giving their
AURC and their risk and answer rate at that threshold: what the served threshold does to questions
the confidence never saw, as the test split is ("at oof threshold": the threshold the risk rule
picks on the out-of-fold confidences instead).

"nested_in" / "nested_oof" judge the threshold's choice itself out of fold: in each of the five
folds the threshold is chosen on the other four, by the risk rule on their in-sample confidences
(as `raglab compare --split dev` chooses the served one) or on their own out-of-fold
confidences, and applied to the held-out fold; "_fresh" is the same decisions on the dev
questions written after the others (q300 on).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fit_answerer import FOLDS, MODEL, fold_fits, labelled, risk_figures, served_answers, sets  # noqa: E402
from fitting import fit_logistic, pav, step_value  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_COL, CONFIDENCE_FEATURES, dot, logistic  # noqa: E402
from raglab.evaluation.risk import Curve  # noqa: E402
from raglab.evaluation.stats import RISK_BUDGET, THRESHOLDS  # noqa: E402
from raglab.pipeline import Config  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402


def aurc(outcomes, conf) -> float:
    return round(Curve([c if o[1] else None for o, c in zip(outcomes, conf)], [0 if o[2] else 1 for o in outcomes]).aurc(), 3)


def columns(names):
    return [CONFIDENCE_COL[n] for n in names]


def project(row, cols, extra=()):
    return [row[c] for c in cols] + list(extra)


class Trial:
    def __init__(self, name, cols, l2=1.0, iso=None, extras=None):
        self.name, self.cols, self.l2, self.iso, self.extras = name, cols, l2, iso, extras

    def x(self, row, info):
        """`info` is (the question's analysis, the answer as `served_answers` gives it)."""
        return project(row, self.cols, self.extras(*info) if self.extras else ())

    def fit(self, rows, infos, labels):
        if self.iso is not None:  # a monotone step function of one signal
            return ("iso", pav([r[CONFIDENCE_COL[self.iso]] for r in rows], labels))
        return ("lin", fit_logistic([self.x(r, i) for r, i in zip(rows, infos)], labels, l2=self.l2))

    def score(self, model, row, info):
        kind, m = model
        if kind == "iso":
            return step_value(m, row[CONFIDENCE_COL[self.iso]])
        return logistic(dot(m, self.x(row, info)))


QTYPES = ("amount", "yesno", "procedure", "other")


def qtype_offsets(info, answer):
    t = info.qtype if info.qtype in QTYPES else "typed"
    return [1.0 if t == x else 0.0 for x in QTYPES]


ALL = CONFIDENCE_FEATURES


def without(*names):
    return columns(tuple(n for n in ALL if n not in names))


TRIALS = [
    Trial("served (11 signals, L2 1)", columns(ALL)),
    Trial("L2 3", columns(ALL), 3.0),
    Trial("L2 10", columns(ALL), 10.0),
    Trial("L2 30", columns(ALL), 30.0),
    Trial("without typed", without("typed")),
    Trial("without margin, typed, score, top_doc", without("margin", "typed", "score", "top_doc")),
    Trial("without margin, typed, score, top_doc, same_lang", without("margin", "typed", "score", "top_doc", "same_lang")),
    Trial("bias, probability, coverage, missing", columns(("bias", "probability", "coverage", "missing"))),
    Trial("isotonic(probability)", [], iso="probability"),
    Trial("isotonic(logit)", [], iso="logit"),
    Trial("answer-type offsets", columns(ALL), 1.0, extras=qtype_offsets),
    Trial("answer-type offsets, L2 10", columns(ALL), 10.0, extras=qtype_offsets),
    Trial("without margin, typed, score, top_doc, L2 10", without("margin", "typed", "score", "top_doc"), 10.0),
    Trial("bias, probability, coverage, missing, L2 10", columns(("bias", "probability", "coverage", "missing")), 10.0),
]


def answers_of(ours, fold_of, fold_weights, m, k):
    out = [None] * len(ours)
    for f in range(FOLDS):
        idx = [i for i, e in enumerate(ours) if fold_of[e["question"].id] == f]
        for i, got in zip(idx, served_answers([ours[i] for i in idx], fold_weights[f], m["second"], m["adjacent"], k,
                                              m["runner"])):
            out[i] = got
    return out


def threshold_at_rule(outcomes, conf):
    return risk_figures(outcomes, conf)["threshold"]


def carried(outcomes, conf, t):
    said = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
    n_ans = sum(1 for o in outcomes if o[0])
    wrong = sum(1 for o in said if not o[2])
    return {"answered": round(sum(1 for o in said if o[0]) / max(1, n_ans), 3),
            "risk": round(wrong / len(said), 3) if said else 0.0, "aurc": aurc(outcomes, conf)}


def folds(data: dict) -> tuple:
    """Our served dev examples, each one's fold, the sentence model fitted without each fold, the
    examples' question info, and the record the trials fill (folds, ids, external answers)."""
    ours = data["served"]
    fold_of, fold_weights = fold_fits(data)
    infos = [e["info"] for e in ours]
    got = {"folds": [fold_of[e["question"].id] for e in ours], "ids": [e["question"].id for e in ours], "ext": {}}
    return ours, fold_of, fold_weights, infos, got


def collect() -> dict:
    """The labelled answers every trial is fitted and judged on (the slow part: a few minutes)."""
    with open(MODEL, encoding="utf-8") as fh:
        m = json.load(fh)
    with memo():
        data = sets()
        ours, fold_of, fold_weights, infos, got = folds(data)
        k = Config().k
        for name, kk in (("base", k), ("more", 5)):  # "more": the same questions answered from the top 5 chunks
            answers = answers_of(ours, fold_of, fold_weights, m, kk)
            got[name] = (labelled(ours, answers), list(zip(infos, answers)))
        for name in ("covid-qa-faq", "tydiqa-en"):
            answers = served_answers(data[name], m["weights"], m["second"], m["adjacent"], k, m["runner"])
            got["ext"][name] = (labelled(data[name], answers), [(e["info"], a) for e, a in zip(data[name], answers)])
        return got


def paired_aurc_gain(outcomes, conf_a, conf_b, draws=2000, seed=20240607) -> tuple[float, float]:
    """95% percentile interval of AURC(b) - AURC(a) over bootstrap resamples of the questions."""
    ca = Curve([c if o[1] else None for o, c in zip(outcomes, conf_a)], [0 if o[2] else 1 for o in outcomes])
    cb = Curve([c if o[1] else None for o, c in zip(outcomes, conf_b)], [0 if o[2] else 1 for o in outcomes])
    rng = random.Random(seed)
    n = len(outcomes)
    diffs = []
    for _ in range(draws):
        w = [0] * n
        for _ in range(n):
            w[rng.randrange(n)] += 1
        diffs.append(cb.aurc(w) - ca.aurc(w))
    diffs.sort()
    return round(diffs[int(0.025 * draws)], 3), round(diffs[int(0.975 * draws) - 1], 3)


def train(trial, srcs, folds, keep):
    """`trial` fitted on the answers of the folds `keep` accepts."""
    rows, inf, labs = [], [], []
    for lab, pairs in srcs:
        for g, x, pair in zip(folds, lab, pairs):
            if keep(g) and x[0] is not None:
                rows.append(x[0])
                inf.append(pair)
                labs.append(1 if x[1] else 0)
    return trial.fit(rows, inf, labs)


def decided(outcomes, said) -> dict:
    """holds / answered (of answerable) and risk (wrong of answered) of fixed decisions."""
    n_ans = max(1, sum(1 for o in outcomes if o[0]))
    shown = [o for o, s in zip(outcomes, said) if s]
    wrong = sum(1 for o in shown if not o[2])
    return {"holds": round(sum(1 for o in shown if o[2]) / n_ans, 3), "answered": round(sum(1 for o in shown if o[0]) / n_ans, 3),
            "risk": round(wrong / len(shown), 3) if shown else 0.0, "n": len(outcomes), "shown": len(shown), "wrong": wrong}


def nested(trial, srcs, folds, outcomes) -> dict:
    """The threshold chosen inside each outer training set, by the risk rule on its in-sample
    confidences (as `raglab compare --split dev` chooses the served one) or on its own
    out-of-fold confidences, then applied to the held-out fold: which choice carries."""
    (base, pairs), = srcs[:1]
    said = {"in": [False] * len(base), "oof": [False] * len(base)}
    for f in range(FOLDS):
        model = train(trial, srcs, folds, lambda g: g != f)
        idx = [j for j, g in enumerate(folds) if g != f]
        score = lambda m, j: trial.score(m, base[j][0], pairs[j]) if base[j][0] is not None else 0.0  # noqa: E731
        t_in = threshold_at_rule([outcomes[j] for j in idx], [score(model, j) for j in idx])
        inner = {}
        for g2 in range(FOLDS):
            if g2 == f:
                continue
            m2 = train(trial, srcs, folds, lambda g: g not in (f, g2))
            inner.update({j: score(m2, j) for j in idx if folds[j] == g2})
        t_oof = threshold_at_rule([outcomes[j] for j in idx], [inner[j] for j in idx])
        for j, g in enumerate(folds):
            if g == f:
                c = score(model, j)
                said["in"][j] = outcomes[j][1] and c >= t_in
                said["oof"][j] = outcomes[j][1] and c >= t_oof
    return said


def evaluate(got: dict, trials, extra_rows: bool = False) -> list[dict]:
    folds, (base, pairs) = got["folds"], got["base"]
    fresh = [int(i[1:]) >= 300 for i in got["ids"]]  # the dev questions written after the others
    outcomes = [(a, s, r, f1) for (_, r, a, s, f1) in base]
    srcs = (got["base"], got["more"]) if extra_rows else (got["base"],)
    lines, first = [], None
    for trial in trials:
        conf = [0.0] * len(base)
        for f in range(FOLDS):
            model = train(trial, srcs, folds, lambda g: g != f)
            for j, (g, x) in enumerate(zip(folds, base)):
                if g == f and x[0] is not None:
                    conf[j] = trial.score(model, x[0], pairs[j])
        rule = risk_figures(outcomes, conf)
        full = train(trial, srcs, folds, lambda g: True)
        in_conf = [trial.score(full, x[0], p) if x[0] is not None else 0.0 for x, p in zip(base, pairs)]
        t = threshold_at_rule(outcomes, in_conf)
        t_oof = rule["threshold"]
        first = first or conf
        said = nested(trial, srcs, folds, outcomes)
        line = {"trial": trial.name + (" + k=5 rows" if extra_rows else ""), "oof_aurc": aurc(outcomes, conf),
                "aurc_change_95": paired_aurc_gain(outcomes, first, conf),
                "oof_answered": round(rule["answered"], 3), "oof_holds": round(rule["holds"], 3),
                "oof_risk": round(rule["risk"], 3), "threshold": t, "threshold_oof": t_oof}
        for how in ("in", "oof"):
            line[f"nested_{how}"] = decided(outcomes, said[how])
            line[f"nested_{how}_fresh"] = decided([o for o, x in zip(outcomes, fresh) if x],
                                                  [s for s, x in zip(said[how], fresh) if x])
        for name, (lab, ext_pairs) in got["ext"].items():
            ext_out = [(a, s, r, f1) for (_, r, a, s, f1) in lab]
            ext_conf = [trial.score(full, x[0], p) if x[0] is not None else 0.0 for x, p in zip(lab, ext_pairs)]
            line[name] = carried(ext_out, ext_conf, t)
            line[name + " at oof threshold"] = carried(ext_out, ext_conf, t_oof)
        lines.append(line)
    return lines


def main() -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog="Example: .venv/bin/python bench/confidence_generalise.py > trials.txt  (dev only; a few minutes)",
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    got = collect()
    for extra_rows in (False, True):
        for line in evaluate(got, TRIALS, extra_rows):
            print(json.dumps(line), flush=True)
    print(f"risk budget {RISK_BUDGET}, thresholds {THRESHOLDS[0]}..{THRESHOLDS[-1]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
