"""A unit in the other language that alone holds a question word (`held_elsewhere`), varied: a trial on dev.

    .venv/bin/python bench/elsewhere_trial.py                       # off, the rule, and the variants
    .venv/bin/python bench/elsewhere_trial.py --variants off,rule
    .venv/bin/python bench/elsewhere_trial.py --refit               # re-fitted, out of fold (a few minutes)
    .venv/bin/python bench/elsewhere_trial.py --holdout off,rule,column   # holdout_trial per arm (minutes each)

The rule was tried and not kept: the served answerer has only `language.in_own_language`. The
rule lives here and is applied in this process only, by replacing the answerer's
`in_own_language` with `ordering(rule)`: the rule when the model's best unit is in the question's
language, `in_own_language` otherwise, so the two never undo each other. Each variant is such a
rule (the committed sentence model and confidence, no re-fit) and answers the dev split as served
(`Config()`: recursive chunks, `bilingual`, expansion on, k = 3). Printed per variant: the
threshold the risk rule tunes (`stats.tune`), holds, answered and risk there and at the served
threshold, AURC; answers that state the fact at any confidence, crosslingual questions and the
others; the diagnosis classes of the crosslingual questions (`answer_diagnosis`); and against
`off` the questions gained and lost (the fact stated at any confidence) with a two-sided sign test.

With `--refit`, the whole of `fit_answerer._fit` is re-run per arm (nothing is written) and its
out-of-fold figures printed, as `fit_answerer.py` without --write prints them: `off` (the rule
left out), `rule` (the rule), `column` (the rule, and the same sign as a sentence-model
feature the fit weighs: 1 for a candidate in the other language that holds a question term no
candidate of the question's language holds, in its text or heading path) and `column-norule`.
The column is appended to every candidate's features (as `first_trial.py` adds one), so it needs
a re-fit and a new `sentence_model.json` to be served.

Variants: `off` (the rule left out; the served `language.says_more`, which `in_own_language`
calls when the best unit is in the question's language, is then left out too), `rule` (`held_elsewhere`),
`noheading` (the question's language's heading paths do not count as holding a word),
`margin0.5` / `margin1.5` / `margin2` (another margin than `LANG_MARGIN`), `twin` (only a unit of
the twin article of the best unit's), `article` / `article1.5` (only the best unit's article's
candidates stand for the question's language: a word another article of that language holds
still counts as held elsewhere), `subsumes` (in place of the rule: a unit in the other language
holding every question term the best one holds, and more), `superset` (the rule, and when the
best unit is in the other language, a unit of that language within LANG_MARGIN holding its
question terms and more first). `same-as-rule` is `variant()` with its defaults, a check that it
reproduces `rule`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import raglab.answer.answerer as answerer  # noqa: E402
from answer_diagnosis import CLASSES, is_evidence  # noqa: E402
from raglab.answer.language import LANG_MARGIN, in_own_language, promoted  # noqa: E402
from raglab.answer.sentences import FEATURES, lang_of  # noqa: E402
from raglab.corpus.articles import load_corpus  # noqa: E402
from raglab.corpus.goldens import load_goldens  # noqa: E402
from raglab.evaluation.engine import coverage_index, evaluate  # noqa: E402
from raglab.evaluation.metrics import holds_fact  # noqa: E402
from raglab.evaluation.risk import curve_of  # noqa: E402
from raglab.evaluation.stats import summarise, tune  # noqa: E402
from raglab.pipeline import Config, Pipeline  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def held_elsewhere(q, order: list) -> list:
    """`order` ((logit, candidate), best first) with a unit in the other language put first when
    the best unit is in the question's language, the other one scores within LANG_MARGIN logits
    of it, and it holds a question term (literally or through an expansion alias) that no
    candidate of the question's language holds, in its text or in its heading path; otherwise
    `order` itself. The help centre states most facts in both languages, but some only in one
    article: "Should I send the same recharge again right away?" is answered only by the Bangla
    "তাড়াহুড়ো করে একই নম্বরে আবার রিচার্জ করবেন না …", while the English recharge article, retrieved
    too, offers sentences about failed recharges that hold the topic's words and not the asked
    ones. A word the question's language's candidates never hold is the sign: the twin that has
    it is the one that speaks of it. The mirror of `in_own_language` (which acts only when the
    best unit is in the other language), with the same margin."""
    if not order or lang_of(order[0][1].unit.text) != q.lang:
        return order
    own: set[str] = set()
    for _, c in order:
        if lang_of(c.unit.text) == q.lang:
            own |= c.found | c.in_heading
    return promoted(order, lambda c: lang_of(c.unit.text) != q.lang and bool(c.found - own))


def ordering(rule, own=in_own_language):
    """What `assess` orders its ranked units with, in place of `in_own_language`: `rule` when the
    model's best unit is in the question's language, `own` (`in_own_language`) otherwise. With
    `rule` the identity it is `in_own_language` itself (which leaves such an order as it is)."""
    def order_units(q, order: list) -> list:
        if order and lang_of(order[0][1].unit.text) == q.lang:
            return rule(q, order)
        return own(q, order)
    return order_units


def apply(rule, own=in_own_language) -> None:
    """The answerer orders its units with `rule` (`ordering`), in this process only."""
    answerer.in_own_language = ordering(rule, own)


def restore() -> None:
    """The answerer as served."""
    answerer.in_own_language = in_own_language


def variant(margin: float = LANG_MARGIN, heading: bool = True, twin: bool = False, article: bool = False):
    """`held_elsewhere` with another margin, without the heading paths, for twins only, or with
    only the best unit's article standing for the question's language."""
    def rule(q, order):
        if not order or lang_of(order[0][1].unit.text) != q.lang:
            return order
        best = order[0][1]
        own: set[str] = set()
        for _, c in order:
            if lang_of(c.unit.text) == q.lang and (not article or c.quote.doc == best.quote.doc):
                own |= c.found | (c.in_heading if heading else frozenset())
        def takes(c):
            if twin and c.quote.doc.split("-", 1)[-1] != best.quote.doc.split("-", 1)[-1]:
                return False
            return lang_of(c.unit.text) != q.lang and bool(c.found - own)
        return promoted(order, takes, margin)
    return rule


def subsumes(q, order):
    """A unit in the other language within LANG_MARGIN that holds every question term the best unit
    (in the question's language) holds, and more, goes first."""
    if not order or lang_of(order[0][1].unit.text) != q.lang:
        return order
    best = order[0][1]
    return promoted(order, lambda c: lang_of(c.unit.text) != q.lang and c.found > best.found)


def superset(q, order):
    """When the best unit is in the other language (and `in_own_language` left it first), a unit
    of its language within LANG_MARGIN that holds its question terms and more goes first (with
    `held_elsewhere`)."""
    if not order or lang_of(order[0][1].unit.text) == q.lang:
        return order
    best = order[0][1]
    return promoted(order, lambda c: lang_of(c.unit.text) == lang_of(best.unit.text) and c.found > best.found)


VARIANTS = {"off": lambda q, order: order, "rule": held_elsewhere, "same-as-rule": variant(),
            "noheading": variant(heading=False), "margin0.5": variant(0.5), "margin1.5": variant(1.5),
            "margin2": variant(2.0), "twin": variant(twin=True),
            "article": variant(article=True), "article1.5": variant(1.5, article=True), "subsumes": subsumes,
            "superset": held_elsewhere}
OWN = {"superset": lambda q, order: superset(q, in_own_language(q, order))}  # variants of `in_own_language` too


def sign_p(gained: int, lost: int) -> float:
    """Two-sided sign test on the questions that moved."""
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(0, min(gained, lost) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def run(name: str, pipe: Pipeline, questions, cover) -> dict:
    apply(VARIANTS[name], OWN.get(name, in_own_language))
    config = pipe.config
    records = evaluate(pipe, questions, cover, config.k, 0.5)
    tuned = tune(records)
    at = summarise(records, tuned["threshold"])
    served = summarise(records, config.threshold)
    holds_any = {r["id"]: r["answerable"] and r["holds"] > 0 for r in records}
    classes = {}
    for q, r in zip(questions, records):
        if not q.answerable or q.kind != "crosslingual":
            continue
        said = r["answer"] is not None and r["confidence"] >= config.threshold
        if r["shown"] is not None and holds_fact(r["shown"], q.answer, evidence=q.evidence):
            cls = "right" if said else "right but abstained"
        else:
            hits = pipe.search(q.question)
            a = pipe.assess(q.question, [pipe.chunks[h.index] for h in hits], [h.score for h in hits])
            reachable = a is not None and any(is_evidence(c.quote, q.evidence) for _, c in a.order)
            chosen = a is not None and any(is_evidence(x, q.evidence) for x in answerer.compose(a, pipe.docs).quotes)
            cls = "retrieval miss" if not reachable else "right unit, fact not held" if chosen else "wrong unit chosen"
        classes[cls] = classes.get(cls, 0) + 1
    return {"tuned": tuned["threshold"], "holds": at["holds"], "answered": at["answer_rate"], "risk": at["risk"],
            "served_holds": served["holds"], "served_answered": served["answer_rate"], "served_risk": served["risk"],
            "aurc": curve_of(records).aurc(), "holds_any": holds_any, "classes": classes,
            "kind": {r["id"]: r["kind"] for r in records}}


def with_column(q, cands: list) -> list:
    """`cands` with the `elsewhere` column appended (a new list of copies; see the module's text)."""
    own: set[str] = set()
    for c in cands:
        if lang_of(c.unit.text) == q.lang:
            own |= c.found | c.in_heading
    return [replace(c, features=[*c.features, 1.0 if lang_of(c.unit.text) != q.lang and c.found - own else 0.0])
            for c in cands]


def refit() -> int:
    """Each arm re-fitted (`fit_answerer._fit`, nothing written); its out-of-fold figures printed."""
    from fit_answerer import _fit, choice, fold_fits, sets
    from raglab.answer.candidates import score_candidates
    from raglab.text.analyzer import memo

    arms = {"off": (False, False), "rule": (True, False), "column": (True, True), "column-norule": (False, True)}
    chosen_off: dict[str, bool] = {}
    with memo():
        data = sets()
        served = {id(e): list(e["candidates"]) for exs in data.values() for e in exs}
        for name, (rule, column) in arms.items():
            apply(held_elsewhere if rule else VARIANTS["off"])
            answerer.score_candidates = (lambda q, chunks, scores=None, docs=None:
                                         with_column(q, score_candidates(q, chunks, scores, docs))) if column else score_candidates
            for exs in data.values():
                for e in exs:
                    e["candidates"] = with_column(e["info"], served[id(e)]) if column else served[id(e)]
            got = _fit(data)
            risk = got["fit"]["oof_confidence_risk_rule"]
            # Out of fold, per question of our dev split with an evidence unit among its candidates:
            # is the model's choice evidence (the rule is not the model's: `rule` chooses as `off`)?
            fold_of, fold_weights = fold_fits(data)
            chosen = {e["question"].id: bool(e["labels"][choice(fold_weights[fold_of[e["question"].id]], e["candidates"])])
                      for e in data["served"] if any(e["labels"])}
            chosen_off = chosen_off or chosen
            kinds = {e["question"].id: e["question"].kind for e in data["served"]}
            by = {}
            for part in ("crosslingual", "others"):
                ids = [i for i in chosen if (kinds[i] == "crosslingual") == (part == "crosslingual")]
                by[part] = {"chosen": sum(chosen[i] for i in ids), "of": len(ids),
                            "gained": sum(1 for i in ids if chosen[i] and not chosen_off[i]),
                            "lost": sum(1 for i in ids if chosen_off[i] and not chosen[i])}
            print(json.dumps({"arm": name, "oof_evidence_chosen": got["fit"]["oof_evidence_chosen"], "oof_by_kind": by,
                              "in_sample": got["fit"]["evidence_chosen"]["served"],
                              "stating_the_fact": got["fit"]["confidence_positives"],
                              "oof_risk_rule": {k: risk[k] for k in ("threshold", "holds", "answered", "risk", "aurc")},
                              "column_weight": got["weights"][len(FEATURES):]}), flush=True)
    restore()
    answerer.score_candidates = score_candidates
    return 0


def holdout(arm: str) -> int:
    """`holdout_trial.py --folds question` with the rule left out (`off`), in (`rule`), or in with the
    column (`column`: in the fit's candidates and the answers' alike)."""
    import fit_answerer
    import holdout_trial
    from raglab.answer.candidates import score_candidates

    apply(VARIANTS["off"] if arm == "off" else held_elsewhere)
    if arm == "column":
        def varied(q, chunks, scores=None, docs=None):
            return with_column(q, score_candidates(q, chunks, scores, docs))
        answerer.score_candidates = fit_answerer.score_candidates = varied
    print(f"arm {arm}", flush=True)
    got = holdout_trial.main(["--folds", "question"])
    restore()
    answerer.score_candidates = fit_answerer.score_candidates = score_candidates
    return got


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--refit", action="store_true", help="re-fit each arm out of fold instead (a few minutes)")
    p.add_argument("--holdout", default="", help="comma-separated arms (off, rule, column) for holdout_trial instead")
    args = p.parse_args(argv)
    if args.refit:
        return refit()
    if args.holdout:
        return max(holdout(arm) for arm in args.holdout.split(","))
    names = args.variants.split(",")
    if "off" not in names:
        names = ["off"] + names
    docs = load_corpus(os.path.join(ROOT, "corpus"))
    questions = [q for q in load_goldens(os.path.join(ROOT, "goldens", "questions.jsonl"), docs) if q.split == "dev"]
    pipe = Pipeline(docs, Config())
    cover = coverage_index(pipe.chunks, questions, 0.5)
    results = {n: run(n, pipe, questions, cover) for n in names}
    restore()
    base = results["off"]
    print(f"dev, {Config().label}, k = {Config().k}; the committed weights; served threshold {Config().threshold:.2f}")
    print(f"{'variant':15s} {'tuned':>5s} {'holds':>6s} {'answ':>6s} {'risk':>6s} | {'@srv h':>6s} {'answ':>6s} {'risk':>6s} | "
          f"{'AURC':>6s} | {'any xl':>6s} {'other':>6s} | xl +/- (p)      other +/- (p)   | crosslingual classes")
    for n in names:
        r = results[n]
        xl = [i for i, k in r["kind"].items() if k == "crosslingual"]
        other = [i for i, k in r["kind"].items() if k != "crosslingual"]
        moved = []
        for ids in (xl, other):
            g = sum(1 for i in ids if r["holds_any"][i] and not base["holds_any"][i])
            lost = sum(1 for i in ids if base["holds_any"][i] and not r["holds_any"][i])
            moved.append(f"+{g}/-{lost} ({sign_p(g, lost):.3f})")
        cls = ", ".join(f"{c} {r['classes'].get(c, 0)}" for c in CLASSES)
        print(f"{n:15s} {r['tuned']:5.2f} {r['holds']:6.3f} {r['answered']:6.3f} {r['risk']:6.3f} | {r['served_holds']:6.3f} "
              f"{r['served_answered']:6.3f} {r['served_risk']:6.3f} | {r['aurc']:6.3f} | "
              f"{sum(r['holds_any'][i] for i in xl):6d} {sum(r['holds_any'][i] for i in other):6d} | "
              f"{moved[0]:15s} {moved[1]:15s} | {cls}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
