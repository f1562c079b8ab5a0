"""Which confidence signals separate right answers from wrong ones, on dev, out of fold.

    .venv/bin/python bench/confidence_trials.py            # dev; prints each candidate's risk-rule figures and AURC
    .venv/bin/python bench/confidence_trials.py --encoder  # ... and the e5 cosines of question and sentence

Each candidate signal is added to the signals the confidence had before (`BASE`), the
logistic confidence is fitted five times out of fold, and the risk rule of
`evaluation.stats.tune` and the AURC are applied to the out-of-fold confidences.
"""

from __future__ import annotations

import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from fit_answerer import retrieved, risk_figures  # noqa: E402
from fitting import fit_logistic  # noqa: E402
from raglab.answer.answerer import compose, signals_of  # noqa: E402
from raglab.answer.facts import asks_two  # noqa: E402
from raglab.answer.sentences import COL, CONFIDENCE_FEATURES, dot, lang_of, logistic, model, numbers_of, speaks_to  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.metrics import holds_fact, token_f1  # noqa: E402
from raglab.evaluation.risk import Curve  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402
from raglab.retrieval.semantic import cosines  # noqa: E402
from raglab.text.answertypes import accepts  # noqa: E402
from raglab.text.numbers import numbers  # noqa: E402

# `--encoder`: also try the e5 cosines (native only; the bundled corpus's sentences ship encoded).
ENCODER = "--encoder" in sys.argv


def rows(split="dev", config=Config()):
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    qs = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs) if q.split == split]
    pipe = Pipeline(docs, config)
    out = []
    for q in qs:
        chunks, scores = retrieved(pipe, q.question)
        a = pipe.assess(q.question, chunks, scores)
        rec = {"q": q, "a": a, "label": 0, "f1": 0.0, "answered": False, "shown": None}
        if a is not None and speaks_to(a.signals):
            ans = compose(a, pipe.docs)
            page = "\n".join([s.text for s in ans.short_answers] + [ans.text or ""])
            short = "; ".join(s.text for s in ans.short_answers) or ans.text
            rec.update(answered=True, shown=page, ans=ans,
                       label=1 if q.answerable and holds_fact(page, q.answer, evidence=q.evidence) else 0,
                       f1=token_f1(short, q.answer) if q.answerable else 0.0)
            rec["feats"] = feats(q, a, ans, chunks, scores, pipe)
        out.append(rec)
    return out


def feats(q, a, ans, chunks, scores, pipe):
    best = a.order[0][1]
    f = dict(zip(CONFIDENCE_FEATURES, signals_of(a, ans, model())))
    f["rank0"] = 1.0 if best.rank == 0 else 0.0
    f["heading"] = best.features[COL["heading_cover"]]
    f["sentence_cover"] = best.features[COL["sentence_cover"]]
    f["typed_q"] = 1.0 if accepts(a.q.qtype) else 0.0
    f["typed_missing"] = 1.0 if accepts(a.q.qtype) and not best.features[COL["typed"]] else 0.0
    f["short_given"] = 1.0 if ans.short_answers else 0.0
    # probability mass of the best unit's article
    mass = 0.0
    for (z, c), p in zip(a.order, a.probs):
        if c.quote.doc == best.quote.doc:
            mass += p
    f["doc_mass"] = mass
    # value consensus: the short answer's text stated by other candidates too
    agree = 0.0
    if ans.short_answers:
        v = ans.short_answers[0].text
        for (z, c), p in zip(a.order[1:], a.probs[1:]):
            if c.quote.text != best.quote.text and v in c.unit.text:
                agree += p
    f["agree"] = agree
    shown = {(x.doc, x.start) for x in ans.quotes}
    sm = 0.0
    for (z, c), p in zip(a.order, a.probs):
        if (c.quote.doc, c.quote.start) in shown:
            sm += p
    f["shown_mass"] = min(1.0, sm)
    f["top_score"] = scores[0] if scores else 0.0
    f["gap12"] = (scores[0] - scores[1]) / scores[0] if len(scores) > 1 and scores[0] > 0 else 0.0
    f["docs_k"] = len({c.doc for c in chunks}) / len(chunks)
    f["n_terms"] = math.log(1 + len(a.q.weights)) / 3
    f["yesno"] = 1.0 if a.q.qtype == "yesno" else 0.0
    f["procedure"] = 1.0 if a.q.qtype == "procedure" else 0.0
    f["two_quotes"] = 1.0 if len(ans.quotes) > 1 else 0.0
    f["intro"] = best.features[COL["intro"]]
    f["density"] = best.features[COL["density"]]
    f["pairs"] = best.features[COL["pairs"]]
    # Agreement: another language's candidate (the article's twin) states a number of the best
    # unit, or another article's candidate states the short answer's number; whether the short
    # answer holds a number at all; how spread the sentence model's probabilities are.
    best_numbers = numbers_of(best.unit.text)
    short_numbers: set = set()
    for s in ans.short_answers:
        short_numbers |= set(numbers(s.text))
    f["lang_agree"] = f["num_agree"] = 0.0
    for (z, c), p in zip(a.order[1:], a.probs[1:]):
        if p >= 0.02:
            have = numbers_of(c.unit.text)
            if lang_of(c.unit.text) != lang_of(best.unit.text) and best_numbers & have:
                f["lang_agree"] = 1.0
            if c.quote.doc != best.quote.doc and short_numbers & have:
                f["num_agree"] = 1.0
    f["short_num"] = 1.0 if short_numbers else 0.0
    f["asks_two"] = 1.0 if asks_two(q.question) else 0.0  # two-fact questions are wrong more often
    f["entropy"] = -math.fsum(p * math.log(p) for p in a.probs if p > 0) / 3
    if ENCODER:  # e5 cosines of the question with the chosen unit and with the best other one
        cos = cosines(q.question, [c.unit.text for _, c in a.order])
        others = [x for x, (_, c) in zip(cos[1:], a.order[1:]) if c.quote.text != best.quote.text]
        f["cos_best"] = (cos[0] - 0.8) * 10  # scaled: the cosines of e5 sit in 0.75-0.95
        f["cos_gap"] = 20 * (cos[0] - (max(others) if others else cos[0]))
        f["cos_rel"] = 20 * (cos[0] - max(cos))
    # The question's idf mass the shown answer leaves out (aliases counted, as the coverage counts
    # them): over every quote shown, the heaviest single term left out, and the heaviest term found
    # in no candidate at all ("What is the exchange rate for US dollars?" answered with the savings
    # rate: "exchange" and "dollar" are nowhere); the missing share where the index knows none of it.
    qw, total = a.q.weights, a.q.total
    shown_at = {(x.doc, x.start) for x in ans.quotes}
    held = set()
    for _, c in a.order:
        if (c.quote.doc, c.quote.start) in shown_at:
            held |= c.found | c.in_heading
    f["uncovered_shown"] = math.fsum(w for t, w in qw.items() if t not in held) / total if total > 0 else 0.0
    f["uncovered_max"] = max((w / total for t, w in qw.items() if t not in best.found and t not in best.in_heading),
                             default=0.0)
    anywhere = set()
    for _, c in a.order:
        anywhere |= c.found | c.in_heading
    f["missing_max"] = max((w / total for t, w in qw.items() if t not in anywhere), default=0.0)
    f["missing_x_unmatched"] = f["missing"] * f["unmatched"]
    # An answer in the other language: the question's words are absent by nature, so how much
    # of it is missing or unknown means something else there (split by language agreement).
    same = f["same_lang"]
    for name in ("coverage", "missing", "unmatched"):
        f[name + "_same"] = f[name] * same
        f[name + "_other"] = f[name] * (1.0 - same)
    return f


def risk_rule(recs, conf):
    """`fit_answerer.risk_figures` (the risk rule of `evaluation.stats.tune`) on these records."""
    return risk_figures([(r["q"].answerable, r["answered"], bool(r["label"]), r["f1"]) for r in recs], conf)


def aurc(recs, conf):
    """The area under the risk-coverage curve (`evaluation.risk.Curve`) of these confidences."""
    return Curve([c if r["answered"] else None for r, c in zip(recs, conf)],
                 [0 if r["label"] else 1 for r in recs]).aurc()


def oof(recs, names, l2=1.0, folds=5):
    idx = [i for i, r in enumerate(recs) if r["answered"]]
    conf = [0.0] * len(recs)
    for f in range(folds):
        train = [i for k, i in enumerate(idx) if k % folds != f]
        test = [i for k, i in enumerate(idx) if k % folds == f]
        w = fit_logistic([[recs[i]["feats"][n] for n in names] for i in train], [recs[i]["label"] for i in train], l2=l2)
        for i in test:
            conf[i] = logistic(dot(w, [recs[i]["feats"][n] for n in names]))
    return conf


BASE = ["bias", "coverage", "missing", "probability", "margin", "logit", "typed", "score", "unmatched"]  # before this round
COMBINATIONS = (["same_lang", "top_doc"], ["same_lang", "top_doc", "rank0"], ["same_lang", "shown_mass"],
                ["same_lang", "top_doc", "missing_other"], ["same_lang", "top_doc", "missing_other", "unmatched_other"],
                ["same_lang", "top_doc", "missing_other", "unmatched_other", "coverage_other"])
# This round's candidates, each on top of the shipped signals (BASE + same_lang + top_doc).
NEW = ("lang_agree", "num_agree", "short_num", "entropy", "asks_two", "cos_best", "cos_gap", "cos_rel", "uncovered_shown",
       "uncovered_max", "missing_max", "missing_x_unmatched")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    recs = rows(args[0] if args else "dev")
    ans = [r for r in recs if r["answered"]]
    print("answerable", sum(1 for r in recs if r["q"].answerable), "answered@0", len(ans),
          "right@0", sum(r["label"] for r in ans))
    served = [logistic(dot(model().confidence, signals_of(r["a"], r["ans"], model()))) if r["answered"] else 0.0 for r in recs]
    print("shipped", json.dumps({k: round(v, 3) for k, v in risk_rule(recs, served).items()}), "aurc", round(aurc(recs, served), 3))
    extra = [k for k in ans[0]["feats"] if k not in BASE]
    shipped = BASE + ["same_lang", "top_doc"]
    trials = [("base", BASE)] + [(f"+{k}", BASE + [k]) for k in extra if k not in NEW] + \
        [("+" + "+".join(c), BASE + c) for c in COMBINATIONS] + [(f"shipped+{k}", shipped + [k]) for k in NEW if k in extra]
    for name, names in trials:
        conf = oof(recs, names)
        print(f"{name:16s}", json.dumps({k: round(v, 3) for k, v in risk_rule(recs, conf).items()}),
              "aurc", round(aurc(recs, conf), 3))
    return recs


if __name__ == "__main__":
    main()
