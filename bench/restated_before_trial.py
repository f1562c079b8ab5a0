"""The unit before the chosen one, as a confidence signal: three forms, on dev and carried to the
external sets' dev halves.

    .venv/bin/python bench/restated_before_trial.py      # a minute or two

Every dev question of our split, of COVID-QA FAQ and of the TyDi QA English sample is answered
as served (`Config()`, threshold 0: each answer the confidence would be asked about; an answer a
rule withholds whatever the confidence is no answer). For each form of the signal, the confidence
is re-fitted in sample on our dev answers (the served signals less `restated_before`, plus the
form; `fitting.fit_logistic` at the served L2) and carried unchanged to the external dev halves,
as the served confidence is; the AURC of each set is printed (lower is better), with a paired
bootstrap interval of the change on ours. The forms:

- none: the signals before this round;
- `prev_cover`: the chosen unit's unit before holds this share of the question (plain);
- `restated_before` (served): the same, when the unit before holds more than the chosen unit;
- the question's own words ranking the chunk first × the unit's coverage, tried beside them.

The test halves are never read. See docs/pipeline.md, "The sentence before the answer, for the
confidence".
"""

from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from fit_answerer import CONFIDENCE_L2  # noqa: E402
from fitting import fit_logistic  # noqa: E402
from raglab.answer.answerer import compose, decide, signals_of  # noqa: E402
from raglab.answer.sentences import COL, CONFIDENCE_COL, CONFIDENCE_FEATURES, dot, logistic, model  # noqa: E402
from raglab.corpus.articles import bundled_corpus_dir, load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.evaluation.risk import Curve  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.text.analyzer import memo  # noqa: E402

EXTERNAL = os.path.join(ROOT, "goldens", "external")
SETS = (("ours", bundled_corpus_dir(), os.path.join(ROOT, "goldens", "questions.jsonl")),
        ("COVID-QA", os.path.join(EXTERNAL, "covid-qa-faq", "corpus"), os.path.join(EXTERNAL, "covid-qa-faq", "questions.jsonl")),
        ("TyDi", os.path.join(EXTERNAL, "tydiqa-en", "corpus"), os.path.join(EXTERNAL, "tydiqa-en", "questions.jsonl")))
SERVED = [i for i, name in enumerate(CONFIDENCE_FEATURES) if name != "restated_before"]
FORMS = {
    "none": lambda r: [],
    "prev_cover (plain)": lambda r: [r["unit"][COL["prev_cover"]]],
    "restated_before (served)": lambda r: [r["signals"][CONFIDENCE_COL["restated_before"]]],
    "BM25 side's rank x coverage": lambda r: [r["signals"][CONFIDENCE_COL["lexical_rank"]] * r["signals"][CONFIDENCE_COL["coverage"]]],
}


def answers(corpus: str, goldens: str) -> list[dict]:
    """Per dev question: its served signals, the chosen unit's features and whether the answer
    holds the fact (signals None when nothing would be shown at any confidence)."""
    docs = load_corpus(corpus)
    pipe = Pipeline(docs, Config())
    out = []
    with memo():
        for q in load_goldens(goldens, docs):
            if q.split != "dev":
                continue
            hits = pipe.search(q.question)
            a = pipe.assess(q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits])
            shown = None if a is None else decide(a, 0.0, pipe.cues(q.question), pipe.docs)
            if shown is None or shown.abstained:
                out.append({"signals": None, "holds": False})
                continue
            text = "\n".join([s.text for s in shown.short_answers] + [shown.text])
            out.append({"signals": signals_of(a, compose(a, pipe.docs), model()), "unit": a.order[0][1].features,
                        "holds": q.answerable and holds_fact(text, q.answer, evidence=q.evidence)})
    return out


def row(r: dict, form) -> list[float]:
    return [r["signals"][i] for i in SERVED] + form(r)


def curve(recs: list[dict], weights: list[float], form) -> Curve:
    return Curve([logistic(dot(weights, row(r, form))) if r["signals"] is not None else None for r in recs],
                 [0 if r["holds"] else 1 for r in recs])


def main() -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    data = {name: answers(corpus, goldens) for name, corpus, goldens in SETS}
    ours = [r for r in data["ours"] if r["signals"] is not None]
    base = None
    print(f"{'form':30} " + " ".join(f"{name:>9}" for name in data) + "   ours: paired 95% interval of the change")
    for label, form in FORMS.items():
        w = fit_logistic([row(r, form) for r in ours], [1 if r["holds"] else 0 for r in ours], l2=CONFIDENCE_L2)
        curves = {name: curve(recs, w, form) for name, recs in data.items()}
        base = base or curves["ours"]
        rng, n, diffs = random.Random(0), len(data["ours"]), []
        for _ in range(1000):
            drawn = [0] * n
            for _ in range(n):
                drawn[rng.randrange(n)] += 1
            diffs.append(curves["ours"].aurc(drawn) - base.aurc(drawn))
        diffs.sort()
        print(f"{label:30} " + " ".join(f"{c.aurc():9.4f}" for c in curves.values()) +
              f"   [{diffs[25]:+.4f}, {diffs[974]:+.4f}]  weight {', '.join(f'{x:+.2f}' for x in w[len(SERVED):])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
