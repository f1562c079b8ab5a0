"""The confidence of answers that state no value (yes/no, how-to, why and other questions), on dev.

    .venv/bin/python bench/untyped_confidence.py      # the table by asked type, then each candidate signal

The served confidence's `typed` signal fires only for a question asking a value (an amount, a
count, a duration ...). This prints, for the answers the confidence is fitted on
(`confidence_trials.rows`: the served answerer, every answer at threshold 0), right and wrong
answers and their confidences by the kind of value asked; then each candidate signal for an
answer that states no value, added to the served signals (`CONFIDENCE_FEATURES`), fitted five
times out of fold and once in sample: the risk rule's figures (`evaluation.stats.tune`), the
AURC, and the answers shown (right) at the served 0.75.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import confidence_trials as ct  # noqa: E402
from fitting import fit_logistic  # noqa: E402
from raglab.answer.answerer import signals_of  # noqa: E402
from raglab.answer.sentences import COL, CONFIDENCE_FEATURES, dot, logistic, model  # noqa: E402
from raglab.text.answertypes import accepts  # noqa: E402

THRESHOLD = 0.75
GROUPS = ("value", "procedure", "yesno", "other")  # no cue reads a why-question: it is "other"


def group(qtype: str) -> str:
    if accepts(qtype):
        return "value"
    return qtype if qtype in GROUPS else "other"


def candidates(r) -> dict[str, float]:
    """The candidate signals of one answer (0 for a question asking a value)."""
    a = r["a"]
    best = a.order[0][1]
    fe = best.features
    qt = a.q.qtype
    if accepts(qt):
        return dict.fromkeys(NAMES, 0.0)
    w, total = a.q.weights, a.q.total or 1.0
    # "what is asked": the question's terms its section heading does not already say
    rest = [t for t in sorted(w) if t not in best.in_heading]
    rest_mass = math.fsum(w[t] for t in rest)
    rest_cover = math.fsum(w[t] for t in rest if t in best.found) / rest_mass if rest_mass > 0 else 1.0
    heaviest = max(sorted(w), key=lambda t: w[t]) if w else None
    return {
        "untyped": 1.0,
        "untyped_cover": fe[COL["coverage"]],
        "untyped_prefix_cover": fe[COL["prefix_cover"]],
        "untyped_all_words": 1.0 if fe[COL["prefix_cover"]] >= 0.999 else 0.0,
        "untyped_pairs": fe[COL["pairs"]],
        "untyped_rest_cover": rest_cover,
        "untyped_heaviest": 1.0 if heaviest in best.found or heaviest in best.in_heading else 0.0,
        "untyped_uncovered": math.fsum(w[t] for t in sorted(w) if t not in best.found and t not in best.in_heading) / total,
        "procedure_told": 1.0 if qt == "procedure" and (fe[COL["imperative"]] or fe[COL["steps"]]) else 0.0,
        "yesno_side": 1.0 if qt == "yesno" and (fe[COL["negation"]] or fe[COL["advice"]]) else 0.0,
        "untyped_logit": r["feats"]["logit"],
        "untyped_margin": r["feats"]["margin"],
    }


NAMES = ("untyped", "untyped_cover", "untyped_prefix_cover", "untyped_all_words", "untyped_pairs", "untyped_rest_cover",
         "untyped_heaviest", "untyped_uncovered", "procedure_told", "yesno_side", "untyped_logit", "untyped_margin")


def in_sample(recs, names):
    idx = [i for i, r in enumerate(recs) if r["answered"]]
    w = fit_logistic([[recs[i]["feats"][n] for n in names] for i in idx], [recs[i]["label"] for i in idx], l2=1.0)
    return [logistic(dot(w, [r["feats"][n] for n in names])) if r["answered"] else 0.0 for r in recs]


def shown(recs, conf):
    out = [r for r, c in zip(recs, conf) if r["answered"] and c >= THRESHOLD]
    return len(out), sum(1 for r in out if r["label"])


def figures(recs, conf) -> str:
    rule = ct.risk_rule(recs, conf)
    return (f"{rule['threshold']:.2f}: {rule['holds']:.3f} / {rule['answered']:.3f} / {rule['risk']:.3f}, "
            f"AURC {ct.aurc(recs, conf):.4f}; at {THRESHOLD} {shown(recs, conf)}")


def main():
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                            epilog="Example: .venv/bin/python bench/untyped_confidence.py > table.md  (dev only; about 20 s)",
                            formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    recs = ct.rows("dev")
    m = model()
    for r in recs:
        r["group"] = group(r["a"].q.qtype) if r["a"] is not None else "none"
        r["conf"] = logistic(dot(m.confidence, signals_of(r["a"], r["ans"], m))) if r["answered"] else 0.0
        if r["answered"]:
            r["feats"].update(candidates(r))
    print("| asked | questions (answerable) | right / wrong at 0 | shown right / wrong | right withheld "
          "| right by confidence <0.25 / <0.50 / <0.75 / ≥0.75 | right / wrong in 0.50-0.75 | mean confidence right / wrong |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for g in (*GROUPS, "none"):
        rs = [r for r in recs if r["group"] == g]
        if not rs:
            continue
        right = [r for r in rs if r["answered"] and r["label"]]
        wrong = [r for r in rs if r["answered"] and not r["label"]]
        bins = [0, 0, 0, 0]
        for r in right:
            bins[min(3, int(r["conf"] / 0.25))] += 1
        band = [sum(1 for r in x if 0.5 <= r["conf"] < THRESHOLD) for x in (right, wrong)]

        def mean(xs):
            return math.fsum(r["conf"] for r in xs) / len(xs) if xs else 0.0
        print(f"| {g} | {len(rs)} ({sum(1 for r in rs if r['q'].answerable)}) | {len(right)} / {len(wrong)} | "
              f"{sum(1 for r in right if r['conf'] >= THRESHOLD)} / {sum(1 for r in wrong if r['conf'] >= THRESHOLD)} | "
              f"{bins[0] + bins[1] + bins[2]} | {' / '.join(map(str, bins))} | {band[0]} / {band[1]} | "
              f"{mean(right):.2f} / {mean(wrong):.2f} |")
    base = list(CONFIDENCE_FEATURES)
    trials = [("served signals", base)] + [(f"+ {n}", base + [n]) for n in NAMES]
    print("\ncandidate: out of fold, risk rule threshold: holds / answered / risk, AURC; shown (right) at 0.75 | in sample, the same")
    for name, names in trials:
        print(f"{name:24s}", figures(recs, ct.oof(recs, names)), "|", figures(recs, in_sample(recs, names)))
    print(json.dumps({"answered": sum(1 for r in recs if r["answered"]), "right": sum(r["label"] for r in recs)}))


if __name__ == "__main__":
    main()
