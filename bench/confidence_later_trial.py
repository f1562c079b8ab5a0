"""Which confidence holds on questions written later? Trials on dev only, over the cached answers.

    .venv/bin/python bench/later_answers.py              # once: the answers (a few minutes)
    .venv/bin/python bench/confidence_later_trial.py     # every trial (seconds)
    .venv/bin/python bench/confidence_later_trial.py --only served,l2-10 --json
    .venv/bin/python bench/confidence_later_trial.py --new-users   # read on tests/data/new_user_questions.jsonl

Every trial is a confidence (its signals, its L2, whether the external sets' dev answers join its
fit, a calibration) and a threshold rule, judged three ways, none of which lets the confidence or
its threshold see the questions it is judged on:

- later: fitted on the dev questions written before q698 (the confidence on their out-of-fold
  answers, the threshold by the rule on their in-sample confidences, as `raglab compare --split
  dev` chooses the served one), judged on q698-q889 and on those with the near-miss q890-q919;
- rounds: each round of dev questions (`later_answers.ROUNDS`, in the order written) judged by
  the confidence and threshold fitted on the other rounds (grouped out of fold), and "forward": by
  those fitted on the rounds written before it only (from the fourth round on);
- AURC of the later questions' and of the rounds' out-of-fold confidences (lower is better).

Answered is of the answerable questions, risk is wrong among the answered (shown).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fitting import fit_logistic, pav, step_value  # noqa: E402
from later_answers import CACHE, new_user_records, round_of  # noqa: E402
from raglab.answer.sentences import CONFIDENCE_COL, CONFIDENCE_FEATURES, FEATURES, dot, logistic  # noqa: E402
from raglab.evaluation.risk import Curve  # noqa: E402
from raglab.evaluation.stats import RISK_BUDGET, THRESHOLDS  # noqa: E402
from raglab.text.analyzer import analyze  # noqa: E402

SERVED = CONFIDENCE_FEATURES


def upper_bound(wrong: int, n: int, z: float) -> float:
    """The Wilson score interval's upper end for a binomial rate (z: the one-sided normal quantile)."""
    if n == 0:
        return 0.0
    p = wrong / n
    d = 1.0 + z * z / n
    return (p + z * z / (2 * n) + z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / d


def choose(outcomes, conf, z: float = 0.0) -> float:
    """The risk rule (`fit_answerer.risk_figures`): the threshold answering the most answerable
    questions whose risk stays within the budget; with z > 0 the risk's Wilson upper bound must."""
    n_ans = max(1, sum(1 for o in outcomes if o[0]))
    best = None
    for t in THRESHOLDS:
        said = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
        wrong = sum(1 for o in said if not o[2])
        risk = upper_bound(wrong, len(said), z) if z else (wrong / len(said) if said else 0.0)
        rate = sum(1 for o in said if o[0]) / n_ans
        within = risk <= RISK_BUDGET + 1e-12
        key = (within, rate, -t) if within else (within, -risk, rate, -t)
        if best is None or key > best[0]:
            best = (key, t)
    return best[1]


def tally(outcomes, conf, t) -> tuple[int, int, int, int]:
    """(answerable, shown, wrong among shown, answerable shown) at threshold t."""
    shown = [o for o, c in zip(outcomes, conf) if o[1] and c >= t]
    return (sum(1 for o in outcomes if o[0]), len(shown), sum(1 for o in shown if not o[2]),
            sum(1 for o in shown if o[0]))


def figures(tallies) -> dict:
    n_ans = sum(x[0] for x in tallies)
    shown = sum(x[1] for x in tallies)
    wrong = sum(x[2] for x in tallies)
    return {"answered": round(sum(x[3] for x in tallies) / max(1, n_ans), 3),
            "risk": round(wrong / shown, 3) if shown else 0.0, "shown": shown, "wrong": wrong}


def aurc(outcomes, conf) -> float:
    return round(Curve([c if o[1] else None for o, c in zip(outcomes, conf)],
                       [0 if o[2] else 1 for o in outcomes]).aurc(), 4)


def outcome(r) -> tuple:
    return (r["answerable"], r["speaks"], r["right"])


class Trial:
    """A confidence: `cols` of the signals plus `extra(rec)` values, L2, the external answers'
    total weight relative to ours (`ext`, with a source column when `source`), isotonic steps of
    its logit fitted out of fold (`iso`), and the threshold rule's z (0: the point estimate)."""

    def __init__(self, name, cols=SERVED, extra=None, l2=1.0, ext=0.0, source=False, iso=False, z=0.0,
                 by_round=False, recent=1.0):
        self.name, self.cols, self.extra, self.l2 = name, [CONFIDENCE_COL[c] for c in cols], extra, l2
        self.ext, self.source, self.iso, self.z = ext, source, iso, z
        self.by_round = by_round  # the threshold read on confidences fitted without each round of the training rows
        self.recent = recent  # each round weighs `recent` times the round before it

    def x(self, rec, external=False):
        row = [rec["signals"][c] for c in self.cols] + (list(self.extra(rec)) if self.extra else [])
        return row + ([1.0 if external else 0.0] if self.source else [])

    def fit(self, recs, external=()):
        rows = [(self.x(r), 1 if r["right"] else 0, self.recent ** round_of(r["id"])) for r in recs
                if r["signals"] is not None]
        if self.ext and external:
            ext = [r for r in external if r["signals"] is not None]
            share = self.ext * len(rows) / len(ext)
            rows += [(self.x(r, True), 1 if r["right"] else 0, share) for r in ext]
        return fit_logistic([a for a, _, _ in rows], [y for _, y, _ in rows], l2=self.l2, weights=[w for _, _, w in rows])

    def score(self, w, recs, steps=None):
        out = []
        for r in recs:
            if r["signals"] is None:
                out.append(0.0)
                continue
            p = logistic(dot(w, self.x(r)))
            out.append(step_value(steps, p) if steps else p)
        return out


def oof_scores(trial, recs, groups, external):
    """Each record scored by the trial fitted without its group."""
    out = [0.0] * len(recs)
    for g in sorted(set(groups)):
        w = trial.fit([r for r, h in zip(recs, groups) if h != g], external)
        for i, s in enumerate(trial.score(w, recs)):
            if groups[i] == g:
                out[i] = s
    return out


def fitted(trial, train, groups, external, train_in=None):
    """(weights, calibration steps, threshold) fitted on `train` (its out-of-fold answers; the
    threshold on `train_in`'s in-sample confidences when given, as served, else on `train`'s)."""
    w = trial.fit(train, external)
    steps = None
    if trial.iso:  # the steps and the threshold both read the out-of-fold confidences
        conf = oof_scores(trial, train, groups, external)
        keep = [(c, 1 if r["right"] else 0) for c, r in zip(conf, train) if r["signals"] is not None]
        steps = pav([c for c, _ in keep], [y for _, y in keep])
        t = choose([outcome(r) for r in train], [step_value(steps, c) for c in conf], trial.z)
    elif trial.by_round:
        conf = oof_scores(trial, train, [round_of(r["id"]) for r in train], external)
        t = choose([outcome(r) for r in train], conf, trial.z)
    else:
        base = train_in if train_in is not None else train
        t = choose([outcome(r) for r in base], trial.score(w, base), trial.z)
    return w, steps, t


def judge(trial, data) -> dict:
    hold = data["holdout"]
    early = hold["early_oof"]
    external = [r for rs in data["external"].values() for r in rs]
    w, steps, t = fitted(trial, early, [r["fold"] for r in early], external, hold["early_in"])
    out = {"name": trial.name, "t": t}
    for name, start, end in (("later", 0, 890), ("later_nearmiss", 0, 920), ("all_later", 0, 10 ** 6),
                             ("newest", 920, 10 ** 6)):
        recs = [r for r in hold["late"] if start <= int(r["id"][1:]) < end]
        conf = trial.score(w, recs, steps)
        oc = [outcome(r) for r in recs]
        out[name] = figures([tally(oc, conf, t)]) | {"aurc": aurc(oc, conf)}
    rounds = data["rounds_oof"]
    groups = [r["round"] for r in rounds]
    oc = [outcome(r) for r in rounds]
    conf = oof_scores(trial, rounds, groups, external)
    out["rounds_aurc"] = aurc(oc, conf)
    nested, forward = [], []
    for g in sorted(set(groups)):
        test = [r for r, h in zip(rounds, groups) if h == g]
        for kind, train in (("nested", [r for r, h in zip(rounds, groups) if h != g]),
                            ("forward", [r for r, h in zip(rounds, groups) if h < g])):
            if kind == "forward" and g < 3:
                continue
            tg = [r["round"] for r in train]
            wg, sg, tt = fitted(trial, train, tg, external)
            (nested if kind == "nested" else forward).append(tally([outcome(r) for r in test], trial.score(wg, test, sg), tt))
    out["rounds"] = figures(nested)
    out["forward"] = figures(forward)
    return out


def unit(name):
    i = FEATURES.index(name)
    return lambda r: [r["unit"][i]]


# Bangla grammar a question's terms keep (after the analyzer's stopwords): the light verbs' other
# forms (করলে, যায়, দিতে, লাগবে, পাবো …), postpositions (থেকে, এর, কাছে) and particles, and the
# Banglish particles left in Latin letters ("phone e", "pathaile o"); analysed as questions are.
GRAMMAR_WORDS = ("করলে করল করা যায় যাবে যাব গেলে গেছে গেল দিতে দেয় দিল দেওয়া দিবো দিব দেবে লাগে লাগবে "
                 "থেকে এর আর কাছে পারি পারব পারবো পারে হতে হলো পাবো পাব পেতে পাওয়া থাকবে থাকে নিতে নেয় "
                 "বলে চাই চাইলে আসে আসবে নাকি এখন e o")


@functools.lru_cache(maxsize=1)
def grammar() -> frozenset:
    return frozenset(t for w in GRAMMAR_WORDS.split() for t in analyze(w))


def cover_over(rec, keep) -> tuple[float, float]:
    """(coverage, missing) of the chosen unit as the served signals read them, over the question
    terms `keep` accepts only (`later_answers.terms_read`): held (1), in the heading only (0.5),
    held by no candidate (missing)."""
    kept = [t for t in rec["terms"] if keep(t)]
    total = math.fsum(t[1] for t in kept)
    if total <= 0:
        return 0.0, 0.0
    held = math.fsum(t[1] * (1.0 if t[2] else 0.5 if t[3] else 0.0) for t in kept)
    return held / total, math.fsum(t[1] for t in kept if not t[4]) / total


def near_cover(rec) -> float:
    """Coverage counting a question word the chosen unit holds in another form ("redeemed" by "redeem")."""
    terms = rec["terms"]
    total = math.fsum(t[1] for t in terms)
    return math.fsum(t[1] * (1.0 if t[5] else 0.5 if t[3] else 0.0) for t in terms) / total if total > 0 else 0.0


def content(t) -> bool:
    return t[0] not in grammar()


def no_number(t) -> bool:
    return not t[0].isdigit()


def trials() -> list[Trial]:
    less = lambda *drop: tuple(c for c in SERVED if c not in drop)  # noqa: E731
    out = [Trial("served")]
    out += [Trial(f"l2-{l2:g}", l2=l2) for l2 in (3, 10, 30, 100)]
    out += [Trial("less score, unmatched, missing", less("score", "unmatched", "missing")),
            Trial("less score, unmatched, missing, margin", less("score", "unmatched", "missing", "margin")),
            Trial("six: coverage, probability, logit, typed, lexical_rank, half", ("bias", "coverage", "probability",
                                                                                   "logit", "typed", "lexical_rank",
                                                                                   "half_answer")),
            Trial("less same_lang, top_doc", less("same_lang", "top_doc")),
            Trial("less logit", less("logit")), Trial("less probability, margin", less("probability", "margin"))]
    out += [Trial("less score and unmatched (weights flip sign across rounds)", less("score", "unmatched"))]
    out += [Trial("+ coverage of the shown quotes", extra=lambda r: [r["shown_cover"]]),
            Trial("+ runner-up probability", extra=lambda r: [r["p2"]]),
            Trial("+ runner-up from the same article", extra=lambda r: [r["same_doc2"]]),
            Trial("+ a short answer shown", extra=lambda r: [1.0 if r["shorts"] else 0.0]),
            Trial("+ typed near a question word", extra=unit("typed_near")),
            Trial("+ sentence cover", extra=unit("sentence_cover")),
            Trial("+ pairs", extra=unit("pairs")), Trial("+ novel", extra=unit("novel")),
            Trial("+ ask_cover", extra=unit("ask_cover"))]
    out += [Trial(f"external x{x:g}", ext=x) for x in (0.5, 1, 2)]
    out += [Trial(f"external x{x:g} with a source column", ext=x, source=True) for x in (0.5, 1, 2)]
    out += [Trial("isotonic steps of the out-of-fold confidence", iso=True)]
    out += [Trial(f"rule on Wilson upper bound z={z:g}", z=z) for z in (0.5, 1.0, 1.28, 1.645)]
    out += [Trial(f"l2-10, Wilson z={z:g}", l2=10, z=z) for z in (0.5, 1.0)]
    out += [Trial("threshold on confidences fitted without each round", by_round=True),
            Trial("threshold without each round, Wilson z=0.5", by_round=True, z=0.5)]
    out += [Trial(f"each round weighs x{x:g} the one before", recent=x) for x in (1.1, 1.25, 1.5)]
    # Agreement that does not depend on fitted wording (`later_answers.agreement`).
    agree = lambda *names: (lambda r: [r.get(n, 0.0) for n in names])  # noqa: E731
    out += [Trial("+ value also in another unit", extra=agree("val_other_unit")),
            Trial("+ value also in another article", extra=agree("val_other_doc")),
            Trial("+ value also in the twin article", extra=agree("val_twin")),
            Trial("+ lead over another value", extra=agree("val_margin")),
            Trial("+ a value shown", extra=agree("has_value")),
            Trial("+ value elsewhere (unit, twin), lead", extra=agree("val_other_unit", "val_twin", "val_margin")),
            Trial("+ all agreement", extra=agree("has_value", "val_other_unit", "val_other_doc", "val_twin",
                                                  "val_margin"))]
    # A corrected coverage in place of the served one (and missing with it), read over part of
    # the question's words: its content words (no Bangla grammar), no number it states, the
    # words the index knows, the words in other forms too.
    without = lambda *drop: tuple(c for c in SERVED if c not in drop)  # noqa: E731
    out += [Trial("coverage of the content words", without("coverage"), extra=lambda r: cover_over(r, content)[:1]),
            Trial("coverage and missing of the content words", without("coverage", "missing"),
                  extra=lambda r: cover_over(r, content)),
            Trial("coverage without the numbers the question states", without("coverage"),
                  extra=lambda r: cover_over(r, no_number)[:1]),
            Trial("coverage of the words the index knows", without("coverage"),
                  extra=lambda r: [r["signals"][CONFIDENCE_COL["coverage"]] / (1.0 - r["signals"][CONFIDENCE_COL["unmatched"]])
                                   if r["signals"][CONFIDENCE_COL["unmatched"]] < 1 else 0.0]),
            Trial("coverage counting other forms", without("coverage"), extra=lambda r: [near_cover(r)]),
            Trial("coverage of the asking sentence", without("coverage"),
                  extra=lambda r: cover_over(r, lambda t: t[6])[:1] if any(t[6] for t in r["terms"])
                  else [r["signals"][CONFIDENCE_COL["coverage"]]])]
    # Where retrieval put the chosen unit's chunk: the question's words (BM25) or its meaning (the
    # encoder, centred by language), whichever ranks it higher (`later_answers.cosine_rank`).
    out += [Trial("lexical rank or cosine rank (the better)", without("lexical_rank"), extra=lambda r: [best_rank(r)]),
            Trial("+ cosine rank", extra=lambda r: [cosine_share(r)])]
    # What the out-of-fold band 0.4-0.75 read as apart (weakly): an opening unit, a long question.
    out += [Trial("+ first", extra=unit("first")),
            Trial("+ question length", extra=lambda r: [math.log(1 + len(r["terms"])) / 4])]
    return out


def cosine_share(rec) -> float:
    """1 / (1 + the chunks the encoder side ranks above the chosen unit's); the lexical one without the encoder."""
    n = rec.get("cosine_rank")
    return rec["signals"][CONFIDENCE_COL["lexical_rank"]] if n is None else 1.0 / (1.0 + n)


def best_rank(rec) -> float:
    return max(rec["signals"][CONFIDENCE_COL["lexical_rank"]], cosine_share(rec))


def new_users(trial, rounds, new) -> str:
    """A table row: the trial fitted on every dev answer out of fold by round, its threshold by the
    risk rule on them, and the new users' answers it would show: right, wrong (a quote that does not
    answer, or an answer the help centre does not state), and the withheld right quotes."""
    w = trial.fit(rounds)
    t = choose([outcome(r) for r in rounds], trial.score(w, rounds))
    conf = trial.score(w, new)
    shown = [r for r, c in zip(new, conf) if r["speaks"] and c >= t]
    right = [r["id"] for r in shown if r["judged"] == "right"]
    wrong = [r["id"] for r in shown if r["judged"] != "right"]
    held = [c for r, c in zip(new, conf) if r["judged"] == "right" and not (r["speaks"] and c >= t)]
    return (f"| {trial.name} | {t:.2f} | {len(right)} ({', '.join(right)}) | {len(wrong)} ({', '.join(wrong)}) | "
            f"{len(held)}, {min(held):.3f}–{max(held):.3f} |")


def auc(pos: list[float], neg: list[float]) -> float:
    """The chance a right answer's value exceeds a wrong one's (ties count half)."""
    if not pos or not neg:
        return float("nan")
    wins = math.fsum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def band(data, lo: float = 0.4, hi: float = 0.75, top: int = 12) -> list[str]:
    """Within the served confidence's band [lo, hi) (fitted out of fold by round), how well each
    signal, each sentence feature of the chosen unit and each corrected input tells the right
    answers from the wrong: (name, AUC, mean right, mean wrong), the farthest from 0.5 first."""
    rounds = data["rounds_oof"]
    conf = oof_scores(Trial("served"), rounds, [r["round"] for r in rounds], [])
    inside = [r for r, c in zip(rounds, conf) if r["signals"] is not None and r["speaks"] and lo <= c < hi]
    values = {f"signal {n}": (lambda r, i=i: r["signals"][i]) for i, n in enumerate(CONFIDENCE_FEATURES)}
    values.update({f"unit {n}": (lambda r, i=i: r["unit"][i]) for i, n in enumerate(FEATURES)})
    values.update({"coverage of the content words": lambda r: cover_over(r, content)[0],
                   "coverage counting other forms": near_cover, "better rank": best_rank,
                   "question terms": lambda r: float(len(r["terms"]))})
    right = [r for r in inside if r["right"]]
    wrong = [r for r in inside if not r["right"]]
    rows = []
    for name, f in values.items():
        a = auc([f(r) for r in right], [f(r) for r in wrong])
        rows.append((-abs(a - 0.5), name, a, math.fsum(f(r) for r in right) / len(right),
                     math.fsum(f(r) for r in wrong) / len(wrong)))
    rows.sort()
    head = f"band {lo}-{hi}: {len(right)} right, {len(wrong)} wrong ({sum(1 for r in wrong if not r['answerable'])} unanswerable)"
    return [head] + [f"| {n} | {a:.3f} | {mr:.3f} | {mw:.3f} |" for _, n, a, mr, mw in rows[:top]]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", default="", help="comma-separated trial names (default: all)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--band", action="store_true",
                   help="AUC of every input within the served confidence's band 0.4-0.75 (out of fold by round)")
    p.add_argument("--new-users", action="store_true",
                   help="each trial fitted on every dev answer out of fold by round, read on the new users' questions")
    args = p.parse_args(argv)
    with open(CACHE, encoding="utf-8") as fh:
        data = json.load(fh)
    keep = set(args.only.split(",")) if args.only else None
    if args.band:
        print("\n".join(band(data)))
        return 0
    if args.new_users:
        new = new_user_records()
        for trial in trials():
            if not keep or trial.name in keep:
                print(new_users(trial, data["rounds_oof"], new), flush=True)
        return 0
    for trial in trials():
        if keep and trial.name not in keep:
            continue
        r = judge(trial, data)
        if args.json:
            print(json.dumps(r), flush=True)
            continue
        cell = lambda f: f"{f['answered']:.3f} / {f['risk']:.3f} ({f['shown']}, {f['wrong']})"  # noqa: E731
        print(f"| {r['name']} | {r['t']:.2f} | {cell(r['later'])} | {cell(r['later_nearmiss'])} | "
              f"{cell(r['all_later'])} | {cell(r['newest'])} | "
              f"{cell(r['rounds'])} | {cell(r['forward'])} | {r['later']['aurc']:.3f} / {r['rounds_aurc']:.3f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
